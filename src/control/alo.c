/* At-Least-One (Baydal, Lopez, Duato), the local-estimate baseline of
 * paper 001 (section 5.1): a node may start the packet at the head of its
 * source queue if every useful physical channel has at least one free
 * virtual channel, or at least one useful channel has all its virtual
 * channels free; otherwise it waits.
 *
 * Readings:
 * - Useful channels: the minimal output ports of the node's router towards
 *   the packet's destination router (route_minimal_ports; footnote 3:
 *   "can be used without violating the minimal-routing constraint"), every
 *   VC of them, whatever the routing policy would pick.
 * - A VC is free when no packet holds it (ovc.owner < 0); its downstream
 *   buffer may still be draining.
 * - A packet for the node's own router uses no network channel: never
 *   throttled.
 * - The rule is evaluated when the node asks (it has a packet and is not
 *   in the middle of one), on the network as the routers left it in this
 *   cycle. throttled() counts the nodes refused in the current cycle. */
#include <stdlib.h>

#include "control/alo.h"
#include "control/control.h"
#include "control/gather.h"
#include "net/net.h"

struct alo {
    uint32_t refused;   /* nodes refused in the current cycle */
    uint64_t cycle;     /* the cycle refused counts */
};

bool alo_allows(int nuseful, const uint64_t *vcfree, uint64_t all)
{
    bool every = true;
    for (int i = 0; i < nuseful; i++) {
        if ((vcfree[i] & all) == all)
            return true;
        every &= (vcfree[i] & all) != 0;
    }
    return every;
}

static int alo_init(void **state, const struct saturn_config *cfg, struct net *n,
                    struct saturn_error *err)
{
    struct alo *a = calloc(1, sizeof *a);
    if (!a)
        return saturn_error_set(err, SATURN_ENOMEM, "out of memory");
    *state = a;
    int rc;
    if ((rc = ctl_reject_keys(cfg, gather_keys, "alo", err)) ||
        (rc = ctl_reject_keys(cfg, static_keys, "alo", err)) ||
        (rc = ctl_reject_keys(cfg, selftune_keys, "alo", err)) ||
        (rc = ctl_reject_keys(cfg, entropy_keys, "alo", err)))
        return rc;
    return SATURN_OK;
}

static void alo_observe(void *state, struct net *n)
{
    struct alo *a = state;
    a->refused = 0;
    a->cycle = n->now;
}

static bool alo_may_start(void *state, const struct net *n, uint32_t node)
{
    struct alo *a = state;
    const struct node *nd = &n->nodes[node];
    if (nd->qcount == 0)
        return true;
    uint32_t pid = nd->q[nd->qhead & nd->qmask]; /* the packet it would start */
    uint32_t r = topo_node_router(&n->topo, node);
    uint32_t dst = topo_node_router(&n->topo, n->pk[pid].dst);
    int ports[2 * TOPO_MAX_DIMS];
    int np = route_minimal_ports(n, r, dst, ports);
    uint64_t vcfree[2 * TOPO_MAX_DIMS];
    for (int i = 0; i < np; i++) {
        size_t gp = (size_t)r * (size_t)n->P + (size_t)ports[i];
        const struct ovc *o = &n->ovcs[gp * (size_t)n->V];
        vcfree[i] = 0;
        for (int v = 0; v < n->Vd; v++) /* data VCs: the meta VC is no channel for packets */
            vcfree[i] |= (uint64_t)(o[v].owner < 0) << v;
    }
    uint64_t all = n->Vd == 64 ? UINT64_MAX : (1ULL << n->Vd) - 1;
    bool ok = alo_allows(np, vcfree, all);
    if (!ok) {
        if (a->cycle != n->now) { /* asked without an observe this cycle (tests) */
            a->cycle = n->now;
            a->refused = 0;
        }
        a->refused++;
    }
    return ok;
}

static uint32_t alo_throttled(const void *state)
{
    return ((const struct alo *)state)->refused;
}

static void alo_free(void *state) { free(state); }

const struct ctl_ops ctl_alo = {.name = "alo",
                                .init = alo_init,
                                .observe = alo_observe,
                                .may_start = alo_may_start,
                                .throttled = alo_throttled,
                                .free = alo_free};
