/* PiggyBack (Jiang, Kim, Dally 2009) on a Dragonfly. Every cycle each
 * router marks each of its global links saturated when the phits waiting
 * for it (output buffer, link, next input buffer; on global VC 0, the one
 * minimal packets take, as FOGSim, or on all its VCs: pb.marks) exceed
 * pb.coef (200) percent of the mean over the router's h global links plus
 * pb.allowance (5) packets (FOGSim's rule); the marks reach the
 * other routers of the group pb.delay cycles later (piggybacked on
 * packets, modelled as a fixed delay). At the source router a packet
 * takes a Valiant path (random intermediate router outside the source and
 * destination groups) when the minimal path's global link is marked, or
 * when its local queue is too long compared with the Valiant one
 * (UGAL-L: q_min H_min > q_val H_val + T, T = pb.threshold packets);
 * otherwise the minimal path. Paths and VCs as val's (val.intermediate:
 * router, or group as FOGSim's PB; see ugal). */
#include <stdlib.h>
#include <string.h>

#include "route/dragonfly.h"


static const char *const pb_marks_names[] = {"vc0", "all", NULL};

const struct saturn_param route_pb_params[] = {
    {"pb.threshold", SATURN_PARAM_REAL, "3", -1e6, 1e6, NULL,
     "pb: T of the local comparison q_min H_min > q_val H_val + T, in packets"},
    {"pb.coef", SATURN_PARAM_REAL, "200", 0, 1e6, NULL,
     "pb: a global link is marked saturated when the phits waiting for it exceed pb.coef "
     "percent of the mean over its router's global links plus pb.allowance packets"},
    {"pb.allowance", SATURN_PARAM_REAL, "5", 0, 1e6, NULL,
     "pb: packets added to the marking threshold (FOGSim's ugal_global_threshold; 0: a link "
     "above twice the mean is marked however short its queue)"},
    {"pb.marks", SATURN_PARAM_ENUM, "vc0", 0, 0, pb_marks_names,
     "pb: which phits a global link's mark compares (its own and its router's mean): vc0, "
     "those for global VC 0, the VC minimal packets take (FOGSim marks each VC apart and tests "
     "VC 0 for the minimal path); all, those for every global VC of the link"},
    {"pb.delay", SATURN_PARAM_INT, "10", 0, 100000, NULL,
     "pb: cycles for a router's saturation marks to reach its group (default: one local link)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL}};

struct pb {
    double threshold;  /* phits */
    double coef;       /* fraction of the mean */
    double allowance;  /* phits */
    int mark_hi;       /* the highest global VC the marks count (0 or all) */
    bool val_src_only; /* dragonfly.valiant_exclude = source */
    bool group;        /* val.intermediate = group: p->route[0] is a group */
    uint32_t depth;    /* history snapshots kept: delay + 1 */
    uint32_t links;    /* routers * h */
    uint8_t *sat;      /* depth x links marks */
};

static int pb_init(void **state, const struct saturn_config *cfg, const struct net *n,
                   struct saturn_error *err)
{
    struct pb *s = calloc(1, sizeof *s);
    if (!s)
        return saturn_error_set(err, SATURN_ENOMEM, "out of memory");
    *state = s;
    s->threshold = saturn_config_real(cfg, "pb.threshold") *
                   (double)saturn_config_int(cfg, "traffic.packet_length");
    s->coef = saturn_config_real(cfg, "pb.coef") / 100.0;
    s->allowance = saturn_config_real(cfg, "pb.allowance") *
                   (double)saturn_config_int(cfg, "traffic.packet_length");
    s->mark_hi = saturn_config_enum(cfg, "pb.marks") == 0 ? 0 : n->global_vcs - 1;
    s->val_src_only = df_valiant_src_only(cfg);
    s->group = df_valiant_group(cfg);
    s->depth = (uint32_t)saturn_config_int(cfg, "pb.delay") + 1;
    s->links = n->topo.routers * (uint32_t)n->topo.h;
    s->sat = calloc((size_t)s->depth * s->links, 1);
    if (!s->sat)
        return saturn_error_set(err, SATURN_ENOMEM, "out of memory (pb marks)");
    return df_check(cfg, n, s->group ? 3 : 4, 2, "pb", err);
}

static void pb_free(void *state)
{
    struct pb *s = state;
    if (s)
        free(s->sat);
    free(s);
}

/* Marks every global link now, into this cycle's snapshot. */
static void pb_cycle(void *state, const struct net *n)
{
    struct pb *s = state;
    const struct topo *t = &n->topo;
    uint8_t *row = s->sat + (size_t)(n->now % s->depth) * s->links;
    const int h = t->h;
    uint32_t occ[64];
    for (uint32_t r = 0; r < t->routers; r++) {
        uint64_t sum = 0;
        for (int j = 0; j < h; j++) {
            occ[j] = df_occupancy(n, r, t->a - 1 + j, 0, s->mark_hi);
            sum += occ[j];
        }
        double mark = s->coef * (double)sum / h + s->allowance;
        for (int j = 0; j < h; j++)
            row[(size_t)r * (size_t)h + (size_t)j] = (double)occ[j] > mark;
    }
}

/* Is the global link of group g towards group tg marked, as the group sees it now? */
static bool pb_marked(const struct pb *s, const struct net *n, uint32_t g, uint32_t tg)
{
    const struct topo *t = &n->topo;
    uint64_t delay = s->depth - 1;
    if (n->now < delay)
        return false;
    uint32_t k = df_link_to(t, g, tg);
    uint32_t holder = g * (uint32_t)t->a + k / (uint32_t)t->h;
    const uint8_t *row = s->sat + (size_t)((n->now - delay) % s->depth) * s->links;
    return row[(size_t)holder * (size_t)t->h + k % (uint32_t)t->h];
}

static void pb_at_source(void *state, const struct net *n, struct packet *p, uint64_t draw)
{
    const struct pb *s = state;
    const struct topo *t = &n->topo;
    uint32_t mid = df_val_intermediate(t, topo_node_router(t, p->src), topo_node_router(t, p->dst),
                                       draw, s->val_src_only);
    p->route[0] = s->group ? df_group(t, mid) : mid;
    p->route[1] = 0;
}

static void pb_route(void *state, const struct net *n, uint32_t r, int in_port, int in_vc,
                     struct packet *p, struct route_result *out)
{
    const struct pb *s = state;
    const struct topo *t = &n->topo;
    if (!(p->route[1] & DF_DECIDED)) {
        p->route[1] |= DF_DECIDED;
        uint32_t d = topo_node_router(t, p->dst), g = df_group(t, r), gd = df_group(t, d);
        bool val = false;
        if (g != gd) {
            double cmin, cval;
            df_ugal_costs(n, s->group, r, p, &cmin, &cval);
            val = pb_marked(s, n, g, gd) || cmin > cval + s->threshold;
        }
        if (val)
            p->misroute |= PACKET_MISROUTED_GLOBAL;
        else
            p->route[0] = s->group ? gd : d;
    }
    df_valiant_route(n, s->group, r, in_port, in_vc, p, out);
}

const struct route_ops route_df_pb = {.name = "pb",
                                      .init = pb_init,
                                      .at_source = pb_at_source,
                                      .route = pb_route,
                                      .free = pb_free,
                                      .cycle = pb_cycle,
                                      .dragonfly = true, .local_vcs = 4, .reroute = true};
