/* Routing policies: given a head flit at an input VC, the candidate
 * outputs (port and a VC range). The router's VC allocator picks among the
 * candidates, so a deterministic policy returns one and an adaptive one
 * several (first = preferred). */
#ifndef SATURN_ROUTE_H
#define SATURN_ROUTE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "saturn/config.h"

struct net;
struct packet;

#define ROUTE_MAX_CANDS 8

struct route_cand {
    uint16_t port;
    uint8_t vc_lo, vc_hi; /* inclusive */
};

/* The VC allocator takes the first candidate with a free VC, in order,
 * except that the first `sel` candidates (sel > 1) form one adaptive group:
 * among all their free VCs it takes the one with the most room downstream
 * (credits; ties at random). The router sets sel = 0 before each call. */
struct route_result {
    int16_t n;   /* <= ROUTE_MAX_CANDS: 16 bits keep struct ivc_route one cache line */
    int16_t sel;
    struct route_cand c[ROUTE_MAX_CANDS];
};

struct net_part;
/* The speedup-1 router loop's VC allocation of the single waiting head at
 * input VC (in_port, in_vc) of router (net/vc_alloc.h); false when the
 * router failed. */
typedef bool (*route_alloc_vc1_fn)(struct net *n, struct net_part *w, uint32_t router,
                                   int in_port, int in_vc);

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
    /* Optional: side machinery the policy needs, attached to the engine's
     * hooks after init (net.h, struct net_hook_ops): Disha's recovery lane
     * (src/route/disha_lane.c) for a policy that does not avoid deadlock. */
    int (*attach)(struct net *n, const struct saturn_config *cfg, struct saturn_error *err);
    /* The policy needs atomic VC allocation (router.atomic_vc) in
     * wormhole and VCT networks to be deadlock-free. */
    bool atomic_vc;
    /* A Dragonfly policy (else a torus/mesh one, unless topologies says
     * otherwise), and the local VCs its paths need (dragonfly.local_vcs = 0
     * gives max(3, this), Table I). */
    bool dragonfly;
    uint8_t local_vcs;
    /* The topologies it routes: bits 1 << enum topo_kind; 0 means what
     * `dragonfly` says. Several policies may share a name on different
     * topologies (min, val, ugal): route_find_for picks the one. */
    uint32_t topologies;
    /* One path per source and destination, no adaptive or random choice
     * (saturn model then computes the busiest channel's load). */
    bool single_path;
    /* Minimal adaptive, its candidates all minimal ports: saturn model
     * estimates its busiest channel by splitting every choice evenly. */
    bool minimal_split;
    /* Adaptive: routing.reroute = auto routes a waiting head again every
     * cycle (the decision sees the present, as in FOGSim). */
    bool reroute;
    /* Optional, with reroute: called instead of route for a head routed
     * again while it waits (the packet's fields restored as they were at
     * its first routing), with out as the policy's last call for this
     * head at this input VC left it: between the calls the router writes
     * out->sel alone, so a policy may keep what it needs in the
     * candidates past out->n. Must give what route would (results,
     * packet, policy state, random draws). */
    void (*route_again)(void *state, const struct net *net, uint32_t router, int in_port,
                        int in_vc, struct packet *p, struct route_result *out);
    /* The tail of p left input VC (in_port, in_vc) of router (optional:
     * contention counters count a packet until its tail leaves). */
    void (*tail_left)(void *state, const struct net *net, uint32_t router, int in_port,
                      int in_vc, const struct packet *p);
    /* Once per cycle, before the routers (optional: periodic broadcasts). */
    void (*cycle)(void *state, const struct net *net);
    /* Whether the policy reads net->xbar_last (the last cycle a flit
     * crossed the switch into each output port) under this configuration
     * (optional: the engine records it only for a policy that says so). */
    bool (*reads_crossings)(const struct saturn_config *cfg);
    /* Optional: for this state, route_alloc_vc1_fn with the policy's route
     * inline (an instance of net_alloc_vc1_as with tor, net/vc_alloc.h), or
     * NULL; it must route exactly as `route` does. DOR's spares the torus's
     * loop the call through this table (route/dor.c). */
    route_alloc_vc1_fn (*alloc_vc1)(const void *state);
};

/* The minimal output ports of router r towards router dst on a k-ary
 * n-cube or mesh, in increasing port order (both ways round at distance
 * exactly k/2 on a torus); none when r == dst. Returns how many. */
int route_minimal_ports(const struct net *n, uint32_t r, uint32_t dst, int *ports);

/* Fully adaptive minimal candidates for p's head at router r: every
 * minimal port with VCs vc_lo..vc_hi, as one adaptive group (sel); the
 * ejection port (any VC) at the destination router. */
void route_minimal_adaptive(const struct net *n, uint32_t r, const struct packet *p, int vc_lo,
                            int vc_hi, struct route_result *out);

/* Ports first .. first + count - 1 of router r on VCs vc_lo..vc_hi as one
 * adaptive group; when there are more than ROUTE_MAX_CANDS, the least
 * occupied of them (over those VCs). */
void route_adaptive_span(const struct net *n, uint32_t r, int first, int count, int vc_lo,
                         int vc_hi, struct route_result *out);

/* The VCs of class c when V VCs are shared by `classes` classes: an even
 * share each, the remainder to the lowest classes (every packet starts in
 * class 0, few reach the last). */
void route_vc_class(int classes, int V, int c, int *lo, int *hi);

/* The registry of routing policies, by the name in routing.algorithm:
 * the first of that name, and the one of that name for a topology kind
 * (NULL: none). */
const struct route_ops *route_find(const char *name);
const struct route_ops *route_find_for(const char *name, int topo_kind);
bool route_supports(const struct route_ops *ops, int topo_kind);
/* The names of the policies routing that topology kind, comma-separated. */
void route_names_for(int topo_kind, char *buf, size_t size);

extern const struct saturn_param routing_params[];

#endif
