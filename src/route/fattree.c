/* Fat tree (k-ary n-tree) routing: up to a nearest common ancestor of the
 * source and destination leaves, then down the one path below it.
 *
 *   nca    adaptive up: every up port is a candidate, one adaptive group,
 *          so the VC allocator takes the free VC with the most credits
 *          among them (ties at random); with k > 8 the 8 least occupied
 *          up ports (ROUTE_MAX_CANDS).
 *   dmodk  oblivious: up port (d / k^l) mod k at level l, d the
 *          destination node (Zahavi's D-mod-k): one path per destination
 *          from each leaf, and the paths to one destination form a tree.
 *
 * Deadlock-free on every VC without VC classes: a path climbs, then
 * descends, and never climbs again, so every channel dependency goes from
 * an up channel to a higher up channel or to a down channel, or from a
 * down channel to a lower one. Order the up channels by level, then the
 * down channels by decreasing level: every dependency follows the order,
 * the channel dependency graph is acyclic (tests/test_topologies.c checks
 * it channel by channel). */
#include <stdlib.h>

#include "net/net.h"
#include "route/route.h"

enum { FT_ADAPTIVE, FT_DMODK };

static int ft_init(void **state, const struct saturn_config *cfg, const struct net *n,
                   struct saturn_error *err)
{
    *state = NULL;
    return SATURN_OK;
}

static void ft_route(int mode, const struct net *n, uint32_t r, struct packet *p,
                     struct route_result *out)
{
    const struct topo *t = &n->topo;
    const uint32_t x = topo_node_router(t, p->dst), per = t->ft_pow[t->ft_n - 1];
    const int l = (int)(r / per), k = t->ft_k;
    const uint8_t hi = (uint8_t)(n->Vd - 1);
    out->sel = 0;
    out->n = 1;
    if (r == x) {
        out->c[0] = (struct route_cand){(uint16_t)topo_node_port(t, p->dst), 0, hi};
        return;
    }
    if ((r % per) / t->ft_pow[l] == x / t->ft_pow[l]) { /* below us: down */
        out->c[0] = (struct route_cand){(uint16_t)(k + (int)((x / t->ft_pow[l - 1]) % (uint32_t)k)),
                                        0, hi};
        return;
    }
    if (mode == FT_DMODK) {
        out->c[0] = (struct route_cand){(uint16_t)((p->dst / t->ft_pow[l]) % (uint32_t)k), 0, hi};
        return;
    }
    route_adaptive_span(n, r, 0, k, 0, hi, out);
}

static void nca_route(void *state, const struct net *n, uint32_t r, int in_port, int in_vc,
                      struct packet *p, struct route_result *out)
{
    ft_route(FT_ADAPTIVE, n, r, p, out);
}

static void dmodk_route(void *state, const struct net *n, uint32_t r, int in_port, int in_vc,
                        struct packet *p, struct route_result *out)
{
    ft_route(FT_DMODK, n, r, p, out);
}

const struct route_ops route_ft_nca = {
    .name = "nca",
    .init = ft_init,
    .route = nca_route,
    .topologies = 1u << TOPO_FATTREE,
    .reroute = true,
    .minimal_split = true,
};

const struct route_ops route_ft_dmodk = {
    .name = "dmodk",
    .init = ft_init,
    .route = dmodk_route,
    .topologies = 1u << TOPO_FATTREE,
    .single_path = true,
};
