/* UGAL-L (Singh 2005) on a Dragonfly: at the source router, the minimal
 * path or a Valiant path through a random intermediate router (outside the
 * source and destination groups), whichever looks shorter by local queue
 * occupancy: minimal when q_min H_min <= q_val H_val + T, q the phits
 * waiting for the first hop's output VCs (output buffer, link, next input
 * buffer), H the hop counts, T = ugal.threshold packets. Intra-group
 * packets go minimally. Paths and VCs as val's: with val.intermediate =
 * router four local VCs; with group (FOGSim's UGAL) the Valiant path goes
 * to a random group, H its router hops, and a minimal packet's route[0] is
 * its destination group (three local VCs). */
#include <stdlib.h>

#include "route/dragonfly.h"


const struct saturn_param route_ugal_params[] = {
    {"ugal.threshold", SATURN_PARAM_REAL, "3", -1e6, 1e6, NULL,
     "ugal: minimal when q_min H_min <= q_val H_val + T, T in packets (q: phits waiting for "
     "the first hop's output VCs, H: hops)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL}};

struct ugal {
    double threshold; /* phits */
    bool val_src_only; /* dragonfly.valiant_exclude = source */
    bool group;        /* val.intermediate = group: p->route[0] is a group */
};

static int ugal_init(void **state, const struct saturn_config *cfg, const struct net *n,
                     struct saturn_error *err)
{
    struct ugal *u = calloc(1, sizeof *u);
    if (!u)
        return saturn_error_set(err, SATURN_ENOMEM, "out of memory");
    *state = u;
    u->threshold = saturn_config_real(cfg, "ugal.threshold") *
                   (double)saturn_config_int(cfg, "traffic.packet_length");
    u->val_src_only = df_valiant_src_only(cfg);
    u->group = df_valiant_group(cfg);
    return df_check(cfg, n, u->group ? 3 : 4, 2, "ugal", err);
}

static void ugal_at_source(void *state, const struct net *n, struct packet *p, uint64_t draw)
{
    const struct ugal *u = state;
    const struct topo *t = &n->topo;
    uint32_t mid = df_val_intermediate(t, topo_node_router(t, p->src), topo_node_router(t, p->dst),
                                       draw, u->val_src_only);
    p->route[0] = u->group ? df_group(t, mid) : mid;
    p->route[1] = 0;
}

static void ugal_route(void *state, const struct net *n, uint32_t r, int in_port, int in_vc,
                       struct packet *p, struct route_result *out)
{
    const struct ugal *u = state;
    const struct topo *t = &n->topo;
    if (!(p->route[1] & DF_DECIDED)) {
        p->route[1] |= DF_DECIDED;
        uint32_t d = topo_node_router(t, p->dst), gd = df_group(t, d);
        double cmin, cval;
        bool val = false;
        if (df_group(t, r) != gd) {
            df_ugal_costs(n, u->group, r, p, &cmin, &cval);
            val = cmin > cval + u->threshold;
        }
        if (val)
            p->misroute |= PACKET_MISROUTED_GLOBAL;
        else
            p->route[0] = u->group ? gd : d;
    }
    df_valiant_route(n, u->group, r, in_port, in_vc, p, out);
}

const struct route_ops route_df_ugal = {.name = "ugal",
                                        .init = ugal_init,
                                        .at_source = ugal_at_source,
                                        .route = ugal_route,
                                        .free = free,
                                        .dragonfly = true, .local_vcs = 4, .reroute = true};
