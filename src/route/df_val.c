/* Valiant routing on a Dragonfly: minimally to a random intermediate, then
 * minimally to the destination. val.intermediate = router (the paper's
 * VAL: an intermediate router, l-g-l then l-g-l, VCs L0 G0 L1 | L2 G1 L3,
 * four local VCs) or group (l-g then l-g-l through any router of a random
 * intermediate group, VCs L0 G0 L1 G1 L2). The intermediate is drawn
 * outside the source and destination groups (when there are three
 * groups or more), so every packet takes two global links. */
#include <stdlib.h>

#include "route/dragonfly.h"

static const char *const intermediates[] = {"router", "group", NULL};

const struct saturn_param route_val_params[] = {
    {"val.intermediate", SATURN_PARAM_ENUM, "router", 0, 0, intermediates,
     "val, ugal, pb: Valiant paths through a random intermediate router (l-g-l-l-g-l, 4 "
     "local VCs; the paper's text) or a random intermediate group (l-g-l-g-l, 3 local VCs; "
     "FOGSim's VAL, UGAL and PB)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL}};

struct val {
    bool group;
    bool src_only; /* dragonfly.valiant_exclude = source */
};

static int val_init(void **state, const struct saturn_config *cfg, const struct net *n,
                    struct saturn_error *err)
{
    struct val *v = calloc(1, sizeof *v);
    if (!v)
        return saturn_error_set(err, SATURN_ENOMEM, "out of memory");
    *state = v;
    v->group = df_valiant_group(cfg);
    v->src_only = df_valiant_src_only(cfg);
    return df_check(cfg, n, v->group ? 3 : 4, 2, "val", err);
}

static void val_at_source(void *state, const struct net *n, struct packet *p, uint64_t draw)
{
    const struct val *v = state;
    const struct topo *t = &n->topo;
    uint32_t s = topo_node_router(t, p->src), d = topo_node_router(t, p->dst);
    uint32_t mid = df_val_intermediate(t, s, d, draw, v->src_only);
    p->route[0] = v->group ? df_group(t, mid) : mid;
    p->route[1] = 0;
    if (df_group(t, mid) != df_group(t, s) && df_group(t, mid) != df_group(t, d))
        p->misroute = PACKET_MISROUTED_GLOBAL;
    else if (!v->group && df_router_hops(t, s, mid) + df_router_hops(t, mid, d) > df_router_hops(t, s, d))
        p->misroute = PACKET_MISROUTED_LOCAL;
}

static void val_route(void *state, const struct net *n, uint32_t r, int in_port, int in_vc,
                      struct packet *p, struct route_result *out)
{
    const struct val *v = state;
    df_valiant_route(n, v->group, r, in_port, in_vc, p, out);
}

const struct route_ops route_df_val = {.name = "val",
                                       .init = val_init,
                                       .at_source = val_at_source,
                                       .route = val_route,
                                       .free = free,
                                       .dragonfly = true, .local_vcs = 4};
