/* Dragonfly routing, shared parts (see dragonfly.h). */
#include "route/dragonfly.h"

int df_port_to_group(const struct topo *t, uint32_t r, uint32_t tg)
{
    uint32_t k = df_link_to(t, df_group(t, r), tg);
    int holder = (int)(k / (uint32_t)t->h), i = df_index(t, r);
    return holder == i ? t->a - 1 + (int)(k % (uint32_t)t->h) : df_local_port(i, holder);
}

int df_port_to_router(const struct topo *t, uint32_t r, uint32_t d)
{
    uint32_t gd = df_group(t, d);
    if (df_group(t, r) == gd)
        return df_local_port(df_index(t, r), df_index(t, d));
    return df_port_to_group(t, r, gd);
}

int df_router_hops(const struct topo *t, uint32_t a, uint32_t b)
{
    return topo_distance(t, a * (uint32_t)t->p, b * (uint32_t)t->p);
}

int df_check(const struct saturn_config *cfg, const struct net *n, int local_slots,
             int global_slots, const char *policy, struct saturn_error *err)
{
    if (n->local_vcs < local_slots)
        return saturn_config_fail(cfg, "dragonfly.local_vcs", err,
                                  "routing.algorithm = %s needs at least %d VCs on local ports "
                                  "to be deadlock-free (its paths use %d local VC classes "
                                  "in order)", policy, local_slots, local_slots);
    if (n->global_vcs < global_slots)
        return saturn_config_fail(cfg, "dragonfly.global_vcs", err,
                                  "routing.algorithm = %s needs at least %d VCs on global "
                                  "ports to be deadlock-free", policy, global_slots);
    if (n->central)
        return saturn_config_fail(cfg, "router.arbiter", err,
                                  "Dragonfly policies decide once per head and router; use "
                                  "router.arbiter = separable");
    return SATURN_OK;
}

uint32_t df_occupancy(const struct net *n, uint32_t r, int port, int lo, int hi)
{
    const uint32_t gp = r * (uint32_t)n->P + (uint32_t)port;
    const struct port *op = &n->ports[gp];
    if (op->kind != PORT_NET)
        return 0;
    uint32_t occ = 0, far = n->ports[op->far_in].cap;
    for (int v = lo; v <= hi; v++) {
        const struct ovc *o = &n->ovcs[(size_t)gp * (size_t)n->V + (size_t)v];
        if (n->obuf_on)
            occ += n->obuf_unlimited ? o->ob_count : n->obuf_cap - (uint32_t)o->ob_space;
        if (!op->out_unlimited)
            occ += far - (uint32_t)o->credits;
    }
    return occ;
}

void df_eject(const struct net *n, const struct packet *p, struct route_result *out)
{
    out->n = 1;
    out->sel = 0;
    out->c[0] = (struct route_cand){(uint16_t)topo_node_port(&n->topo, p->dst), 0,
                                    (uint8_t)(n->Vd - 1)};
}

static void one(const struct net *n, int port, int lslot, int lslots, int gslot, int gslots,
                struct route_result *out)
{
    out->n = 1;
    out->sel = 0;
    out->c[0] = topo_port_class(&n->topo, port) == TOPO_GLOBAL
                    ? df_cand(port, gslot, gslots, n->global_vcs)
                    : df_cand(port, lslot, lslots, n->local_vcs);
}

void df_val_route(const struct net *n, uint32_t r, struct packet *p, struct route_result *out)
{
    const struct topo *t = &n->topo;
    uint32_t d = topo_node_router(t, p->dst), mid = p->route[0];
    if (r == d) {
        df_eject(n, p, out);
        return;
    }
    if (r == mid)
        p->route[1] |= DF_PHASE2;
    if (!(p->route[1] & DF_PHASE2)) { /* L0 G0 L1 towards mid */
        bool home = df_group(t, r) == df_group(t, topo_node_router(t, p->src));
        one(n, df_port_to_router(t, r, mid), home ? 0 : 1, 4, 0, 2, out);
    } else { /* L2 G1 L3 towards the destination */
        bool there = df_group(t, r) == df_group(t, d);
        one(n, df_port_to_router(t, r, d), there ? 3 : 2, 4, 1, 2, out);
    }
}

void df_valg_route(const struct net *n, uint32_t r, struct packet *p, struct route_result *out)
{
    const struct topo *t = &n->topo;
    uint32_t d = topo_node_router(t, p->dst), g = df_group(t, r);
    if (r == d) {
        df_eject(n, p, out);
        return;
    }
    if (g == p->route[0])
        p->route[1] |= DF_PHASE2;
    if (!(p->route[1] & DF_PHASE2) && g != df_group(t, d)) /* L0 G0 to the group */
        one(n, df_port_to_group(t, r, p->route[0]), 0, 3, 0, 2, out);
    else /* L1 G1 L2 */
        one(n, df_port_to_router(t, r, d), g == df_group(t, d) ? 2 : 1, 3, 1, 2, out);
}

/* ---- the OLM family ------------------------------------------------------ */

void df_plan(const struct net *n, uint32_t r, int in_port, const struct packet *p,
             struct df_plan *plan)
{
    const struct topo *t = &n->topo;
    uint32_t d = topo_node_router(t, p->dst), g = df_group(t, r), gd = df_group(t, d);
    uint32_t gs = df_group(t, topo_node_router(t, p->src)), mid = p->route[0];
    plan->nopt = 0;
    plan->global = false;
    plan->min_link = g == gd ? NET_NONE : df_link_to(t, g, gd);
    if (r == d) {
        plan->min_port = -1;
        return;
    }
    bool phase2 = (p->route[1] & DF_PHASE2) || g == mid;
    bool to_mid = mid != NET_NONE && !phase2;
    int mp = to_mid ? df_port_to_group(t, r, mid) : df_port_to_router(t, r, d);
    int lslot = g == gd ? 2 : (mid != NET_NONE && g == mid ? 1 : 0);
    int gslot = g == gs ? 0 : 1;
    bool mglobal = topo_port_class(t, mp) == TOPO_GLOBAL;
    plan->min_port = mp;
    plan->min = mglobal ? df_cand(mp, gslot, 2, n->global_vcs)
                        : df_cand(mp, lslot, 3, n->local_vcs);
    const int i = df_index(t, r);
    const enum topo_link_class in_cls = topo_port_class(t, in_port);
    const bool injected = in_port >= t->radix;
    if (mid == NET_NONE && g == gs && g != gd && (injected || in_cls == TOPO_LOCAL)) {
        /* global misrouting: any other global port of this router */
        plan->global = true;
        for (int j = 0; j < t->h; j++) {
            int port = t->a - 1 + j;
            if (port != mp)
                plan->opt[plan->nopt++] = df_cand(port, 0, 2, n->global_vcs);
        }
        return;
    }
    if (!mglobal && ((!injected && in_cls == TOPO_GLOBAL) || (injected && g == gd))) {
        /* local misrouting: x -> y -> z with (y - x) mod a < (z - y) mod a */
        int a = t->a, z = df_local_peer(i, mp);
        for (int q = 0; q < a - 1; q++) {
            int y = df_local_peer(i, q);
            if (q == mp || (y - i + a) % a >= (z - y + a) % a)
                continue;
            plan->opt[plan->nopt++] = df_cand(q, lslot, 3, n->local_vcs);
        }
    }
}

void df_apply(const struct net *n, uint32_t r, const struct df_plan *plan, int choice,
              struct packet *p, struct route_result *out)
{
    const struct topo *t = &n->topo;
    if (plan->min_port < 0) {
        df_eject(n, p, out);
        return;
    }
    uint32_t g = df_group(t, r);
    if (p->route[0] != NET_NONE && g == p->route[0])
        p->route[1] |= DF_PHASE2;
    out->n = 1;
    out->sel = 0;
    if (choice < 0) {
        out->c[0] = plan->min;
        return;
    }
    out->c[0] = plan->opt[choice];
    if (plan->global) {
        uint32_t k = (uint32_t)df_index(t, r) * (uint32_t)t->h +
                     (uint32_t)(plan->opt[choice].port - (t->a - 1));
        p->route[0] = df_link_group(t, g, k);
        p->misroute |= PACKET_MISROUTED_GLOBAL;
    } else {
        p->misroute |= PACKET_MISROUTED_LOCAL;
    }
}

int df_pick(struct rng *rng, const bool *ok, int nopt)
{
    int m = 0;
    for (int i = 0; i < nopt; i++)
        m += ok[i];
    if (!m)
        return -1;
    int k = (int)rng_below(rng, (uint64_t)m);
    for (int i = 0; i < nopt; i++)
        if (ok[i] && k-- == 0)
            return i;
    return -1;
}
