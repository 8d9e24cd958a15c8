/* VC allocation's per-head pieces, inline: router.c's allocators use them,
 * and a routing policy may instantiate net_alloc_vc1_as with its route
 * inline (route_ops.alloc_vc1: DOR's, route/dor.c) so that the speedup-1
 * loop routes a head without the call through struct route_ops while net/
 * names no policy. Allocation itself is described in router.c. */
#ifndef SATURN_NET_VC_ALLOC_H
#define SATURN_NET_VC_ALLOC_H

#include "net/net_internal.h"

#define VA_HOT static inline __attribute__((always_inline))

/* A policy's route for p's head at router r, as route_ops.route gives it
 * (its packet fields and random draws included), inlined into an instance
 * of net_alloc_vc1_as. */
typedef void (*net_route_inline_fn)(const struct net *n, uint32_t r, const struct packet *p,
                                    struct route_result *out);

/* router.c's, out of line: VC allocation of the ports pm of router r in
 * the speedup-1 cycle (alloc_vcs, RM_PLAIN); the output VC of a route of
 * several candidates (va_choose); a metapacket's route (meta_route). */
bool net_alloc_vcs_plain(struct net *n, struct net_part *w, uint32_t r, uint64_t pm);
bool net_va_choose(struct net *n, uint32_t r, const struct port *ports, const struct ovc *ovcs,
                   const struct route_result *route, uint32_t len, int lin, int *op, int *ov,
                   uint64_t now);
void net_meta_route(struct net *n, uint32_t pid, struct route_result *out);

/* Is output VC o free for a head now? Owned, or (router.va_stage) freed by a
 * tail in the last cycle: BookSim's allocation stage sees it now, its
 * switch stage next cycle, so the head crosses no earlier than then. */
static inline bool net_va_ovc_free(const struct net *n, const struct ovc *o, const uint64_t now)
{
    return o->owner < 0 && !(n->va_stage && n->ovc_freed[o - n->ovcs] == (uint32_t)(now - 1));
}

/* obq: router.obuf_credits = downstream, where a flit needs a slot of the
 * output buffer and a credit of the next router (a separate instance, so
 * that the others pay nothing for it). */
VA_HOT int32_t out_room_as(const struct net *n, const struct port *op, const struct ovc *o,
                           const bool obq)
{
    if (op->kind == PORT_LOCAL)
        return INT32_MAX;
    if (n->obuf_on)
        return obq && o->credits < o->ob_space ? o->credits : o->ob_space;
    return op->out_unlimited ? INT32_MAX : o->credits;
}

static inline int32_t net_va_out_room(const struct net *n, const struct port *op, const struct ovc *o)
{
    return out_room_as(n, op, o, false);
}

/* With atomic VC allocation (router.atomic_vc, BookSim's
 * wait_for_tail_credit) an output VC is free only once the last packet's
 * flits have left the buffers behind it, so that a head never commits to
 * a VC it cannot enter: Duato's routing needs this in wormhole networks,
 * or heads committed to full adaptive VCs can wait on each other in a
 * cycle that no escape channel breaks. */
static inline bool net_va_vc_drained(const struct net *n, const struct port *op, const struct ovc *o)
{
    if (op->kind != PORT_NET)
        return true;
    if (n->obuf_on && (o->ob_count || (!n->obuf_unlimited && o->ob_space != (int32_t)n->obuf_cap)))
        return false;
    return op->out_unlimited || o->credits == (int32_t)n->ports[op->far_in].cap;
}

/* The output VC of candidate rc (not of an adaptive group) this head asks
 * for: the free VC with the most room, or false if none is available. */
VA_HOT bool
net_va_choose_cand(const struct net *n, const struct port *ports, const struct ovc *ovcs,
               const struct route_cand *rc, int32_t need, int lin, int *op, int *ov,
               const bool obq, const bool wrap, const uint64_t now)
{
    const int V = n->V;
    int best = -1;
    int32_t best_room = -1;
    int span = rc->vc_hi - rc->vc_lo + 1;
    /* Where room is unbounded every VC is as good: start the scan at a
     * VC that depends on the requester, so that heads arriving together
     * ask for different VCs instead of colliding on the first (with one
     * VC, start 0 whatever the room). */
    int start = span > 1 && out_room_as(n, &ports[rc->port], &ovcs[rc->port * V + rc->vc_lo],
                                        obq) == INT32_MAX
                    ? (lin + lin / V) % span : 0;
    /* wrap: (start + i) % span by a wrapping counter (alloc_vc1_plain's; in
     * the larger allocators the counter's register cost more, +0.06 % on
     * the 1k Dragonfly) */
    for (int i = 0, k = start; i < span; i++, k = wrap ? (k + 1 == span ? 0 : k + 1) : k) {
        /* (start + i) % span by a compare (start < span): no division a VC */
        int v = rc->vc_lo + (wrap ? k : start + i < span ? start + i : start + i - span);
        const struct ovc *o = &ovcs[rc->port * V + v];
        if (!net_va_ovc_free(n, o, now) ||
            (n->atomic_vc && !net_va_vc_drained(n, &ports[rc->port], o)))
            continue;
        int32_t room = out_room_as(n, &ports[rc->port], o, obq);
        if (room < need || room <= best_room)
            continue;
        best = v;
        best_room = room;
    }
    if (best >= 0) {
        *op = rc->port;
        *ov = best;
        return true;
    }
    return false;
}

/* net_va_choose_cand where every buffer is bounded, without router.va_stage or
 * router.atomic_vc (the torus's loop, the collectives': router_alloc_vc1): an
 * ejection's VCs all have unbounded room, so the first unowned one from
 * the requester's start wins; a network port's the unowned one with the
 * most credits (at least need), the lowest on ties, scanned from its
 * first VC. The same choice, without the general loop's registers. */
VA_HOT bool
va_choose_tor(const struct port *ports, const struct ovc *ovcs, int V, const struct route_cand *rc,
              int32_t need, int lin, int *op, int *ov)
{
    const int lo = rc->vc_lo, span = rc->vc_hi - lo + 1;
    const struct ovc *o = &ovcs[rc->port * V + lo];
    int best = -1;
    if (ports[rc->port].kind == PORT_LOCAL) {
        const int start = span > 1 ? (lin + lin / V) % span : 0;
        for (int i = 0, k = start; i < span; i++, k = k + 1 == span ? 0 : k + 1)
            if (o[k].owner < 0) {
                best = k;
                break;
            }
    } else {
        int32_t best_room = need - 1;
        for (int k = 0; k < span; k++)
            if (o[k].owner < 0 && o[k].credits > best_room) {
                best = k;
                best_room = o[k].credits;
            }
    }
    if (best < 0)
        return false;
    *op = rc->port;
    *ov = lo + best;
    return true;
}

/* Whether some VC of the route's candidates has no owner: without one
 * va_choose fails (and draws no random number), which is what most heads
 * waiting in a congested collective find again every cycle; this test,
 * inlined, spares them the call (asked only of heads that failed before,
 * most first requests succeeding, and by RM_PLAIN only, the torus's: on the
 * output-buffered Dragonfly, VCT, a free VC often lacks room, and the
 * test cost more than it saved, +0.13 %). */
VA_HOT bool net_va_some_unowned(const struct ovc *ovcs, int V, const struct route_result *route)
{
    for (int c = 0; c < route->n; c++) {
        const struct route_cand *rc = &route->c[c];
        const struct ovc *o = &ovcs[rc->port * V];
        for (int v = rc->vc_lo; v <= rc->vc_hi; v++)
            if (o[v].owner < 0)
                return true;
    }
    return false;
}

/* Note a waiting head of router r (input port p, VC v) that found every
 * output VC of its route owned: VC allocation skips it (n->va_hope, valid
 * for the ports in n->va_hp) until one of them frees (n->va_on names its
 * port there). */
VA_HOT void
net_va_hopeless(struct net *n, uint32_t r, uint32_t gp0, int p, int v, const struct route_result *route)
{
    const int V = n->V;
    uint64_t *h = &n->va_hope[gp0 + (uint32_t)p];
    if (!((n->va_hp[r] >> p) & 1)) { /* the port's first: its old note is void */
        *h = 0;
        n->va_hp[r] |= 1ULL << p;
    }
    *h |= 1ULL << v;
    uint64_t *von = &n->va_on[(size_t)gp0 * V];
    for (int c = 0; c < route->n; c++) {
        const struct route_cand *rc = &route->c[c];
        for (int u = rc->vc_lo; u <= rc->vc_hi; u++)
            von[rc->port * V + u] |= 1ULL << p;
    }
}

/* The head at the front of idle input VC (p, v) of router r is routed
 * (meta: a metapacket on the meta VC, RM_ANY only) and starts its routing
 * delay at cycle now; false, with the router failed, if a body flit is there.
 * route: the policy's route inline (a routing policy's instance, see
 * net_alloc_vc1_as), NULL: through n->rops. */
VA_HOT bool net_route_front(struct net *n, struct net_part *w, uint32_t r, int p, int v,
                            struct ivc *iv, struct ivc_route *ir, uint64_t now, const bool meta,
                            const bool plain, const net_route_inline_fn route)
{
    const flit_t f = net_ivc_front(iv);
    if (__builtin_expect(!(f.flags & FLIT_HEAD), 0)) {
        net_part_fail(w, net_fail_key_router(r), "router %u port %d vc %d: body "
                         "flit of packet %u at the front of an idle VC", r, p, v, f.pid);
        return false;
    }
    if (meta && __builtin_expect(v == n->Vd, 0)) { /* a metapacket */
        net_meta_route(n, f.pid, &ir->route);
        ir->len = 2;
    } else {
        struct packet *pk = &n->pk[f.pid];
        if (!plain) { /* plain: no routing.reroute to restore them for */
            ir->saved_route[0] = pk->route[0];
            ir->saved_route[1] = pk->route[1];
            ir->saved_misroute = pk->misroute;
        }
        ir->route.sel = 0;
        if (route)
            route(n, r, pk, &ir->route);
        else
            n->rops->route(n->rstate, n, r, p, v, pk, &ir->route);
        ir->len = pk->len;
        ir->pid = f.pid;
    }
    iv->state = IVC_ROUTING;
    iv->ready = (uint32_t)(now + n->route_delay);
    if (!plain) { /* plain: no recovery lane to read them (it runs RM_ANY) */
        ir->t_front = now;
        if (n->ivc_routed)
            n->ivc_routed[ir - n->iroute] = now;
    }
    return true;
}

/* alloc_vcs for one waiting head (input port p, VC v) of router r in the
 * speedup-1 cycle, the only one asking this cycle: the same steps for it
 * (routed if new, then its VC chosen or the head noted hopeless) and the
 * grant of its single request, without the request list (most calls at low
 * load and in the collectives). Rerouting goes to alloc_vcs. tor: every
 * buffer bounded, no router.va_stage or router.atomic_vc (alloc_vc1_simple
 * in router.c). route: as in net_route_front. A routing policy whose route
 * is worth inlining (DOR's) instantiates it with tor and its route and
 * installs the instance through route_ops.alloc_vc1 (route/dor.c). */
VA_HOT bool net_alloc_vc1_as(struct net *n, struct net_part *w, uint32_t r, int p, int v,
                             const bool tor, const net_route_inline_fn route)
{
    if (n->reroute)
        return net_alloc_vcs_plain(n, w, r, 1ULL << p);
    const int P = n->P, V = n->V, lin = p * V + v;
    const uint32_t gp0 = r * (uint32_t)P;
    struct port *ports = &n->ports[gp0];
    struct ivc *iv = &n->ivcs[(size_t)gp0 * V + (size_t)lin];
    struct ivc_route *ir = &n->iroute[(size_t)gp0 * V + (size_t)lin];
    struct ovc *ovcs = &n->ovcs[(size_t)gp0 * V];
    const uint64_t now = w->now;
    bool again = false; /* it asked and failed before */
    if (iv->state == IVC_IDLE) {
        if (!net_route_front(n, w, r, p, v, iv, ir, now, false, true, route))
            return false;
        if (n->route_delay) /* (ready, just set: now + route_delay) */
            return true;
    } else if (!(again = iv->state == IVC_VA) &&
               (iv->state != IVC_ROUTING || (int32_t)(iv->ready - (uint32_t)now) > 0)) {
        return true; /* WAIT, RECOVER, or still routing */
    }
    int op, ov;
    /* every output VC of its route still owned: it fails again */
    const bool owned = again && !net_va_some_unowned(ovcs, V, &ir->route);
    if (!owned &&
        (ir->route.n == 1 && ir->route.sel <= 1
             ? (tor ? va_choose_tor(ports, ovcs, V, &ir->route.c[0],
                                    n->switching == SW_VCT ? (int32_t)ir->len : 0, lin, &op, &ov)
                    : net_va_choose_cand(n, ports, ovcs, &ir->route.c[0],
                                     n->switching == SW_VCT ? (int32_t)ir->len : 0, lin, &op,
                                     &ov, false, true, now))
             : net_va_choose(n, r, ports, ovcs, &ir->route, ir->len, lin, &op, &ov, now))) {
        /* its request, alone: granted */
        struct ovc *o = &ovcs[op * V + ov];
        const int nlin = P * V;
        o->owner = (int16_t)lin;
        o->va_rr = (uint16_t)(lin + 1 == nlin ? 0 : lin + 1);
        iv->state = IVC_ACTIVE;
        iv->out_port = (uint16_t)op;
        iv->out_vc = (uint8_t)ov;
        iv->ovc = (uint32_t)(o - n->ovcs); /* (xfer_plain1's) */
        ports[p].active |= 1ULL << v;
        if (tor ? ports[op].kind == PORT_LOCAL || o->credits > 0
                : n->vready && net_va_out_room(n, &ports[op], o) > 0)
            n->vready[gp0 + (uint32_t)p] |= 1ULL << v;
    } else {
        iv->state = IVC_VA; /* (routed now, or VA already) */
        if (n->va_hp && (again ? owned : !net_va_some_unowned(ovcs, V, &ir->route)))
            net_va_hopeless(n, r, gp0, p, v, &ir->route); /* it would fail again */
    }
    return true;
}

#endif
