/* Dragonfly minimal routing: at most l-g-l (local hop to the router
 * holding the global link to the destination group, the global link, a
 * local hop to the destination router). VCs: L0 G0 L1 (dragonfly.h). */
#include "route/dragonfly.h"

static int min_init(void **state, const struct saturn_config *cfg, const struct net *n,
                    struct saturn_error *err)
{
    *state = NULL;
    return df_check(cfg, n, 2, 1, "min", err);
}

static void min_route(void *state, const struct net *n, uint32_t r, int in_port, int in_vc,
                      struct packet *p, struct route_result *out)
{
    const struct topo *t = &n->topo;
    uint32_t d = topo_node_router(t, p->dst);
    if (r == d) {
        df_eject(n, p, out);
        return;
    }
    int port = df_port_to_router(t, r, d);
    out->n = 1;
    out->sel = 0;
    out->c[0] = topo_port_class(t, port) == TOPO_GLOBAL
                    ? df_cand(port, 0, 1, n->global_vcs)
                    : df_cand(port, df_group(t, r) == df_group(t, d) ? 1 : 0, 2, n->local_vcs);
}

const struct route_ops route_df_min = {
    .name = "min", .init = min_init, .route = min_route, .dragonfly = true, .local_vcs = 2};
