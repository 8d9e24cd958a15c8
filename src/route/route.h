/* Routing policies: given a head flit at an input VC, the candidate
 * outputs (port and a VC range). The router's VC allocator picks among the
 * candidates, so a deterministic policy returns one and an adaptive one
 * several (first = preferred). */
#ifndef SATURN_ROUTE_H
#define SATURN_ROUTE_H

#include <stdint.h>

#include "saturn/config.h"

struct net;
struct packet;

#define ROUTE_MAX_CANDS 8

struct route_cand {
    uint16_t port;
    uint8_t vc_lo, vc_hi; /* inclusive */
};

struct route_result {
    int n;
    struct route_cand c[ROUTE_MAX_CANDS];
};

struct route_ops {
    const char *name;
    /* Impossible combinations (too few VCs, wrong topology): SATURN_EINPUT
     * through saturn_config_fail naming the key. Builds the policy state. */
    int (*init)(void **state, const struct saturn_config *cfg,
                const struct net *net, struct saturn_error *err);
    /* Once per packet when it is created (may set packet route fields). */
    void (*at_source)(void *state, const struct net *net, struct packet *p,
                      uint64_t rng_draw);
    /* Candidates for the head of p at (router, in_port); the local
     * (ejection) port when router is p's destination router. */
    void (*route)(void *state, const struct net *net, uint32_t router,
                  int in_port, int in_vc, struct packet *p,
                  struct route_result *out);
    void (*free)(void *state);
};

/* The minimal output ports of router r towards router dst on a k-ary
 * n-cube or mesh, in increasing port order (both ways round at distance
 * exactly k/2 on a torus); none when r == dst. Returns how many. */
int route_minimal_ports(const struct net *n, uint32_t r, uint32_t dst, int *ports);

/* The registry of routing policies, by the name in routing.algorithm. */
const struct route_ops *route_find(const char *name);

extern const struct saturn_param routing_params[];

#endif
