/* Routing policies by name: a new policy is one file and one line here. */
#include <stdio.h>
#include <string.h>

#include "route/route.h"
#include "topo/topo.h"

extern const struct route_ops route_dor, route_table_min, route_duato, route_disha;
extern const struct route_ops route_df_min, route_df_val, route_df_ugal, route_df_pb,
    route_df_olm, route_df_base, route_df_hybrid, route_df_ectn, route_df_booksim_min,
    route_df_booksim_ugal;
extern const struct route_ops route_ft_nca, route_ft_dmodk;
extern const struct route_ops route_hx_dor, route_hx_min, route_hx_val, route_hx_ugal,
    route_hx_dal;
extern const struct route_ops route_graph_min, route_graph_val, route_graph_ugal;
extern const struct route_ops route_mf_min, route_mf_val, route_mf_ugal;

static const struct route_ops *const policies[] = {
    &route_dor,    &route_table_min, &route_duato,  &route_disha,
    &route_df_min, &route_df_val,    &route_df_ugal, &route_df_pb,
    &route_df_olm, &route_df_base,   &route_df_hybrid, &route_df_ectn,
    &route_ft_nca, &route_ft_dmodk,
    &route_hx_dor, &route_hx_min, &route_hx_val, &route_hx_ugal, &route_hx_dal,
    &route_graph_min, &route_graph_val, &route_graph_ugal,
    &route_mf_min, &route_mf_val, &route_mf_ugal,
    &route_df_booksim_min, &route_df_booksim_ugal,
};

static const char *const algorithm_names[] = {"dor",  "table_min", "duato", "disha",
                                              "min",  "val",       "ugal",  "pb",
                                              "olm",  "base",      "hybrid", "ectn",
                                              "nca", "dmodk", "booksim_min", "booksim_ugal",
                                              "dal", NULL};

static const char *const reroute_names[] = {"auto", "once", "waiting", NULL};

const struct saturn_param routing_params[] = {
    {"routing.algorithm", SATURN_PARAM_ENUM, "dor", 0, 0, algorithm_names,
     "routing policy: dor (dimension order, x first); table_min (minimal adaptive: the "
     "lowest-numbered free minimal port, else the highest one's output buffer; paper 002); "
     "duato (fully adaptive minimal on all but the escape VCs, most credits first, escape VCs "
     "by DOR with a dateline class: deadlock avoidance); disha (fully adaptive minimal on all "
     "VCs, deadlock recovery through a token-protected lane after disha.timeout; paper 001). "
     "Dragonfly (paper 004; docs/DRAGONFLY.md): min (l-g-l), val (Valiant), ugal (UGAL-L), "
     "pb (PiggyBack), olm (Opportunistic Local Misrouting), base, hybrid, ectn (contention "
     "counters); booksim_min and booksim_ugal (BookSim 2's dragonflynew min and ugal: VC = "
     "phase, UGAL by the credits in use on the first hop's outputs, 1 x min <= 2 x nonmin + "
     "30 flits, through a random intermediate node; experiments/booksim-validation). Fat tree: nca (up to a nearest common ancestor on the up port with the most "
     "credits, then down), dmodk (the same with up port (d / k^l) mod k: oblivious). HyperX: "
     "dor (dimension order), min (minimal adaptive, a VC class per hop), val (Valiant, DOR "
     "phases on 2 VC classes), ugal (UGAL-L between them; ugal.threshold 0 unless set), dal "
     "(DAL: adaptive over the unaligned dimensions, one deroute a dimension, a VC class per "
     "hop: 2n VCs). Slim "
     "Fly and file graphs: min (shortest paths, adaptive, hop-indexed VCs or file.deadlock = "
     "updown), val (Valiant), ugal (UGAL-L). Megafly: min (up, global, down), val (Valiant over a random "
     "group, 2 VC classes), ugal (UGAL-L at the source leaf)"},
    {"routing.reroute", SATURN_PARAM_ENUM, "auto", 0, 0, reroute_names,
     "when a head is routed: once (when it reaches the front of its input VC), waiting (again "
     "every cycle it waits for an output VC: adaptive choices see the present, decisions not "
     "yet taken are undone; FOGSim's allocator does this) or auto (waiting for the adaptive "
     "Dragonfly policies ugal, pb, olm, base, hybrid, ectn; once for the others)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL}};

#define NPOLICIES (sizeof policies / sizeof policies[0])

const struct route_ops *route_find(const char *name)
{
    for (size_t i = 0; i < NPOLICIES; i++)
        if (strcmp(policies[i]->name, name) == 0)
            return policies[i];
    return NULL;
}

bool route_supports(const struct route_ops *ops, int topo_kind)
{
    uint32_t mask = ops->topologies ? ops->topologies
                    : ops->dragonfly ? 1u << TOPO_DRAGONFLY
                                     : (1u << TOPO_TORUS) | (1u << TOPO_MESH);
    return mask & (1u << topo_kind);
}

const struct route_ops *route_find_for(const char *name, int topo_kind)
{
    for (size_t i = 0; i < NPOLICIES; i++)
        if (strcmp(policies[i]->name, name) == 0 && route_supports(policies[i], topo_kind))
            return policies[i];
    return NULL;
}

void route_names_for(int topo_kind, char *buf, size_t size)
{
    size_t at = 0;
    buf[0] = 0;
    for (size_t i = 0; i < NPOLICIES && at < size; i++)
        if (route_supports(policies[i], topo_kind)) {
            int w = snprintf(buf + at, size - at, "%s%s", at ? ", " : "", policies[i]->name);
            at += w > 0 ? (size_t)w : 0;
        }
}
