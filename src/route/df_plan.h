/* The OLM family's plan (df_plan, df_plan_min, df_plan_options) as inline
 * code, for dragonfly.c and for Base's routing (df_base.c), which builds a
 * minimal plan for every head and so inlines df_plan_min. Internal to
 * src/route. */
#ifndef SATURN_ROUTE_DF_PLAN_H
#define SATURN_ROUTE_DF_PLAN_H

#include "net/net.h"
#include "route/dragonfly.h"

/* df_vcs(n, port, DF_ORDER_OLM, arrival, same, rest_classes[rest]) from the table. */
static inline struct route_cand olm_vcs(const struct net *n, const struct df_opts *o, int port,
                                        int arrival, bool same, enum df_rest rest)
{
    const bool global = df_port_global(&n->topo, port);
    struct route_cand c = o->olm_vcs[global][same][rest][arrival + 1];
    c.port = (uint16_t)port;
    return c;
}

/* df_arrival(n, DF_ORDER_OLM, in_port, in_vc) from the table. */
static inline int olm_arrival(const struct net *n, const struct df_opts *o, int in_port,
                              int in_vc)
{
    if (in_port >= n->topo.radix)
        return -1;
    return o->olm_arrival[df_port_global(&n->topo, in_port)]
                         [in_vc < 63 ? in_vc : 63];
}

/* df_port_to_group from router index i of group g (r = g a + i). */
static inline int port_to_group(const struct topo *t, uint32_t g, int i, uint32_t tg)
{
    const uint32_t k = df_link_to(t, g, tg), holder = topo_div(k, t->div_h);
    return (int)holder == i ? t->a - 1 + (int)(k - holder * (uint32_t)t->h)
                            : df_local_port(i, (int)holder);
}

/* How far router index `to` lies after `from` in a group of a: (to - from) mod a,
 * both in 0 .. a - 1 (no division: routing asks for it for every option). */
static inline int ring_ahead(int from, int to, int a)
{
    return to >= from ? to - from : to - from + a;
}

/* df_plan, or with later (df_plan_min) the nonminimal options left for
 * df_plan_options: nopt = DF_OPTS_LATER where the plan has some. Inlined
 * into each caller: df_plan_min's copy (every head's first routing under
 * Base) drops the listing of options. */
static inline __attribute__((always_inline)) void
plan_build(const struct net *n, const struct df_opts *o, uint32_t r, int in_port, int in_vc,
           const struct packet *p, struct df_plan *plan, bool later)
{
    const struct topo *t = &n->topo;
    /* g and i of r, d's group and index, the source's group (topo_div: no division) */
    const uint32_t ga = (uint32_t)t->a, d = df_node_router(t, p->dst), g = df_group(t, r),
                   gd = df_group(t, d);
    const int i = (int)(r - g * ga), di = (int)(d - gd * ga);
    const uint32_t gs = df_node_group(t, p->src);
    const uint32_t mid = p->route[0];
    plan->nopt = 0;
    plan->in_port = in_port;
    plan->in_vc = in_vc;
    plan->global = plan->mm = plan->forced = false;
    plan->min_link = g == gd ? NET_NONE : df_link_to(t, g, gd);
    if (r == d) { /* df_eject's candidate, its port from d */
        const int j = t->node_rt ? (int)t->node_lp[p->dst] : (int)(p->dst - d * (uint32_t)t->conc);
        plan->min_port = -1;
        plan->min = (struct route_cand){(uint16_t)(t->radix + j), 0, (uint8_t)(n->Vd - 1)};
        return;
    }
    bool phase2 = (p->route[1] & DF_PHASE2) || g == mid;
    bool to_mid = mid != NET_NONE && !phase2;
    /* df_port_to_group(t, r, mid) or df_port_to_router(t, r, d) */
    int mp = to_mid    ? port_to_group(t, g, i, mid)
             : g == gd ? df_local_port(i, di)
                       : port_to_group(t, g, i, gd);
    const enum topo_link_class in_cls = df_port_global(t, in_port) ? TOPO_GLOBAL : TOPO_LOCAL;
    const bool injected = in_port >= t->radix;
    const bool mglobal = df_port_global(t, mp);
    const int arrival = olm_arrival(n, o, in_port, in_vc);
    /* The rest of the path, at worst: in the source group, a local hop
     * keeps room for a global misroute at the next router (G, L pair, G, L
     * pair); a global hop out of the source group room for the
     * destination group (or, misrouted, the intermediate one); in the
     * intermediate group a global hop and the destination group; a second
     * local hop in a group may stay on the first one's VC. */
    const bool second = !injected && in_cls == TOPO_LOCAL;
    const enum df_rest rest = g == gd ? DF_REST_NONE : mglobal ? DF_REST_L
                              : g != gs ? DF_REST_GL : DF_REST_GLGL;
    plan->min_port = mp;
    plan->min = olm_vcs(n, o, mp, arrival, second, rest);
    if (mid == NET_NONE && g == gs && g != gd && (p->route[1] & DF_MANDATORY)) {
        /* mm: committed by the local hop here to one of this router's
         * global links (G0; the intermediate and destination groups follow) */
        plan->global = plan->forced = true;
        const struct route_cand c = olm_vcs(n, o, t->a - 1, arrival, false, DF_REST_LGL);
        for (int j = 0; j < t->h; j++)
            plan->opt[plan->nopt++] = (struct route_cand){(uint16_t)(t->a - 1 + j), c.vc_lo, c.vc_hi};
        return;
    }
    if (mid == NET_NONE && g == gs && g != gd && arrival < 1) {
        if (o->mm && !injected) {
            /* mm in transit: a local hop x -> i -> z on L0 to a router z that
             * must then take one of its global links; z as for a local misroute
             * ((i - x) mod a < (z - i) mod a) so that L0 stays acyclic */
            int a = t->a, x = df_local_peer(i, in_port);
            plan->mm = true;
            if (later) {
                plan->nopt = DF_OPTS_LATER;
                return;
            }
            /* every option of a plan is of one link class: one VC range */
            const struct route_cand c = olm_vcs(n, o, 0, arrival, true, DF_REST_GLGL);
            for (int q = 0; q < a - 1; q++) {
                int z = df_local_peer(i, q);
                if (q == mp || (!o->mm_all && ring_ahead(x, i, a) >= ring_ahead(i, z, a)))
                    continue;
                plan->opt[plan->nopt++] = (struct route_cand){(uint16_t)q, c.vc_lo, c.vc_hi};
            }
            return;
        }
        /* at the source router (either policy), or crg after the first
         * local hop: any other global port of this router (G0: the
         * intermediate group and the destination group follow) */
        plan->global = true;
        if (later) {
            plan->nopt = DF_OPTS_LATER;
            return;
        }
        const struct route_cand c = olm_vcs(n, o, t->a - 1, arrival, false, DF_REST_LGL);
        for (int j = 0; j < t->h; j++) {
            int port = t->a - 1 + j;
            if (port != mp)
                plan->opt[plan->nopt++] = (struct route_cand){(uint16_t)port, c.vc_lo, c.vc_hi};
        }
        return;
    }
    if (!mglobal && ((!injected && in_cls == TOPO_GLOBAL) || (injected && g == gd))) {
        /* local misrouting: x -> y -> z with (y - x) mod a < (z - y) mod a;
         * the second hop may stay on the first one's VC */
        if (later) {
            plan->nopt = DF_OPTS_LATER;
            return;
        }
        int a = t->a, z = df_local_peer(i, mp);
        const struct route_cand c =
            olm_vcs(n, o, 0, arrival, false, g == gd ? DF_REST_NONE : DF_REST_GL);
        for (int q = 0; q < a - 1; q++) {
            int y = df_local_peer(i, q);
            if (q == mp || ring_ahead(i, y, a) >= ring_ahead(y, z, a))
                continue;
            plan->opt[plan->nopt++] = (struct route_cand){(uint16_t)q, c.vc_lo, c.vc_hi};
        }
    }
}

/* dragonfly.vc_choice = lowest: one VC per hop, a subset of the legal range
 * (so no new channel dependency); options left for later get it when listed */
static inline void vc_choice_lowest(const struct df_opts *o, struct df_plan *plan)
{
    if (!o->lowest || plan->min_port < 0)
        return;
    plan->min.vc_hi = plan->min.vc_lo;
    for (int i = 0; i < plan->nopt; i++)
        plan->opt[i].vc_hi = plan->opt[i].vc_lo;
}

/* df_plan_min, inline. */
static inline __attribute__((always_inline)) void
df_plan_min_inline(const struct net *n, const struct df_opts *o, uint32_t r, int in_port,
                   int in_vc, const struct packet *p, struct df_plan *pl)
{
    plan_build(n, o, r, in_port, in_vc, p, pl, true);
    vc_choice_lowest(o, pl);
}

#endif
