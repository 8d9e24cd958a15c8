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
 * - A VC is free (alo.free) when no packet holds it (unowned, default:
 *   its downstream buffer may still be draining), when moreover that
 *   buffer has drained (drained), or when the buffer behind it has a free
 *   slot, whoever holds it (space: "free" read as buffer state, as a
 *   flit-level simulator may; the weakest test, so the least throttling).
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

enum alo_free { ALO_UNOWNED, ALO_DRAINED, ALO_SPACE };

static const char *const free_names[] = {"unowned", "drained", "space", NULL};

const struct saturn_param alo_params[] = {
    {"alo.free", SATURN_PARAM_ENUM, "unowned", 0, 0, free_names,
     "alo: when a virtual channel counts as free: unowned (no packet holds it), drained "
     "(unowned and the buffer behind it empty) or space (the buffer behind it has a free "
     "slot, whoever holds it)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL}};

struct alo {
    uint32_t refused;   /* nodes refused in the current cycle */
    uint64_t cycle;     /* the cycle refused counts */
    enum alo_free free_mode;
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

static bool alo_vc_free(const struct net *n, const struct port *pt, const struct ovc *o,
                        enum alo_free mode)
{
    /* room behind the VC: the output buffer's when there is one, else the
     * downstream input buffer's credits */
    bool unlimited = n->obuf_on ? n->obuf_unlimited : pt->out_unlimited;
    int32_t room = n->obuf_on ? o->ob_space : o->credits;
    int32_t cap = n->obuf_on ? (int32_t)n->obuf_cap : (int32_t)n->ports[pt->far_in].cap;
    switch (mode) {
    case ALO_DRAINED:
        return o->owner < 0 && (unlimited || room == cap);
    case ALO_SPACE:
        return unlimited || room > 0;
    default:
        return o->owner < 0;
    }
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
    a->free_mode = (enum alo_free)saturn_config_enum(cfg, "alo.free");
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
    int ports[TOPO_MAX_MIN];
    int np = route_minimal_ports(n, r, dst, ports);
    uint64_t vcfree[TOPO_MAX_MIN];
    for (int i = 0; i < np; i++) {
        size_t gp = (size_t)r * (size_t)n->P + (size_t)ports[i];
        const struct port *pt = &n->ports[gp];
        const struct ovc *o = &n->ovcs[gp * (size_t)n->V];
        vcfree[i] = 0;
        for (int v = 0; v < n->Vd; v++) /* data VCs: the meta VC is no channel for packets */
            vcfree[i] |= (uint64_t)alo_vc_free(n, pt, &o[v], a->free_mode) << v;
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
