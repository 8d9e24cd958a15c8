/* Dimension-order routing on a torus with the classic datelines (the
 * default) or the cumulative ones from their tables (paper 000's): the
 * route inline, for dor.c and for the torus's VC allocation (router.c,
 * alloc_vc1_tor), which then routes a head without the call through
 * struct route_ops. */
#ifndef SATURN_ROUTE_DOR_H
#define SATURN_ROUTE_DOR_H

#include "net/net.h"

/* The scheme's classes (fewer than it needs with too few VCs under
 * debug.allow_deadlock), class c's VC range vc[2c] .. vc[2c + 1], and
 * with cumulative datelines dimension d's tables cum[d] (dor.c, struct
 * dor). */
struct route_dor_fast {
    bool cumulative; /* else classic */
    int classes;
    const uint8_t *cum[TOPO_MAX_DIMS];
    uint8_t vc[2 * (TOPO_MAX_DIMS + 1)];
};

/* The fast scheme of policy ops with state `state`, or NULL when ops is
 * not DOR or its datelines are neither classic nor cumulative with tables. */
const struct route_dor_fast *route_dor_fast(const struct route_ops *ops, const void *state);

/* DOR's route for p's head at router r: one candidate, the ejection port
 * (any data VC) at the destination router, else the first dimension whose
 * coordinate differs, the way round of the fewer hops (a tie: + unless
 * p's tie bit of that dimension says -). Classic: class 1 once the packet
 * has taken the ring's wrap link k-1 <-> 0 or takes it now, else 0.
 * Cumulative: the datelines crossed in the finished dimensions and in this
 * one up to and including this hop, from the tables. */
static inline __attribute__((always_inline)) void
dor_fast_route_as(const struct route_dor_fast *s, const struct net *n, uint32_t r,
                  const struct packet *p, struct route_result *out, const bool cumulative)
{
    const struct topo *t = &n->topo;
    const uint32_t dst_router = topo_node_router(t, p->dst);
    out->n = 1;
    if (r == dst_router) {
        out->c[0] = (struct route_cand){(uint16_t)topo_node_port(t, p->dst), 0,
                                        (uint8_t)(n->Vd - 1)};
        return;
    }
    const uint32_t src_router = topo_node_router(t, p->src);
    const int32_t *rc = &t->coord[(size_t)r * t->n], *gc = &t->coord[(size_t)dst_router * t->n],
                  *sc = &t->coord[(size_t)src_router * t->n];
    int cls = 0, d;
    for (d = 0; rc[d] == gc[d]; d++) /* r != dst_router: some coordinate differs */
        if (cumulative) /* datelines crossed in finished dimensions */
            cls += s->cum[d][sc[d] * t->k[d] + gc[d]];
    const int k = t->k[d], c = rc[d], g = gc[d], a = sc[d];
    int fw = g - a; /* |g - a| < k */
    if (fw < 0)
        fw += k;
    const int bw = k - fw;
    const bool plus = fw < bw || (fw == bw && !(p->route[0] & (1u << d)));
    if (cumulative)
        cls += s->cum[d][k * k + ((plus ? 0 : 1) * k + a) * k + c];
    else /* the wrap link k-1 -> 0 (going +) or 0 -> k-1 (going -) taken already or now */
        cls = plus ? c < a || c == k - 1 : c > a || c == 0;
    if (cls >= s->classes) /* fewer VCs than the scheme needs (debug only) */
        cls = s->classes - 1;
    out->c[0] = (struct route_cand){(uint16_t)(2 * d + (plus ? 0 : 1)), s->vc[2 * cls],
                                    s->vc[2 * cls + 1]};
}

/* dor_fast_route_as, one copy a scheme (the test once a route, not once a
 * dimension) */
static inline __attribute__((always_inline)) void
dor_fast_route(const struct route_dor_fast *s, const struct net *n, uint32_t r,
               const struct packet *p, struct route_result *out)
{
    if (s->cumulative)
        dor_fast_route_as(s, n, r, p, out, true);
    else
        dor_fast_route_as(s, n, r, p, out, false);
}

#endif
