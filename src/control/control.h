/* Injection control: a per-node gate consulted when a node is about to
 * start a new packet (never in the middle of one). A controller policy
 * observes the network once per cycle, after the routers have moved their
 * flits and before the nodes inject, and answers each node's question.
 *
 * A new policy is one file defining a struct ctl_ops and a parameter
 * table, plus one line in src/control/registry.c and one in
 * src/core/params.c. */
#ifndef SATURN_CONTROL_H
#define SATURN_CONTROL_H

#include <stdbool.h>
#include <stdint.h>

#include "saturn/config.h"
#include "saturn/results.h"

struct net;

struct ctl_ops {
    const char *name;
    /* Checks the configuration (SATURN_EINPUT naming the key) and builds
     * the state. */
    int (*init)(void **state, const struct saturn_config *cfg, struct net *n,
                struct saturn_error *err);
    /* Once per cycle, after the routers (n->now is the current cycle). It
     * may publish a gate (n->ctl_gate, per node: the first cycle a new
     * packet may start) when may_start's answer is exactly now >= gate and
     * calling it has no other effect; the net then tests the gate instead
     * of calling may_start, until the next observe. The policy keeps the
     * gate so (packet_sent included) while it is published. */
    void (*observe)(void *state, struct net *n);
    /* May this node start a new packet now? */
    bool (*may_start)(void *state, const struct net *n, uint32_t node);
    /* The node has just put the tail of a packet into its injection channel. */
    void (*packet_sent)(void *state, const struct net *n, uint32_t node);
    /* Nodes whose throttle is on now (for %thr). */
    uint32_t (*throttled)(const void *state);
    /* Optional, for the time series: the controller's current threshold
     * and congestion estimate (both in its own unit, e.g. full buffers);
     * leave a value negative when the policy has none. */
    void (*probe)(const void *state, double *threshold, double *estimate);
    /* Optional: adds what the policy measured to the run's results. */
    void (*report)(const void *state, struct saturn_results *r);
    /* Optional, co-simulation (src/experiment/share.c): before the first
     * cycle, follow the n other configurations cfgs (the same run but for
     * this policy's thresholds) along this run. A follower stays attached
     * while every gate decision it would have made equals the one this run
     * made, so that an attached follower's run is this run, bit for bit;
     * it detaches at its first differing decision. */
    int (*follow)(void *state, const struct saturn_config *const *cfgs, size_t n,
                  const struct net *net, struct saturn_error *err);
    /* With follow: the keys (NULL-terminated) in which a follower may differ
     * from the run it follows, and the policy name the shared runs' key reads
     * this one as (NULL: its own; policies read as one name must have the
     * same follow_keys). The shared runs (src/experiment/share.c) and the
     * sweep's units (src/cli/sweep_pool.c) read both from here. */
    const char *const *follow_keys;
    const char *share_as;
    /* After the run: follower i still attached (true), or the cycle it left. */
    bool (*attached)(const void *state, size_t i, uint64_t *left);
    void (*free)(void *state);
};

const struct ctl_ops *ctl_find(const char *name);

extern const struct saturn_param control_params[];

#endif
