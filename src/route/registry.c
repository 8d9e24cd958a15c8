/* Routing policies by name: a new policy is one file and one line here. */
#include <string.h>

#include "route/route.h"

extern const struct route_ops route_dor, route_table_min, route_duato, route_disha;
extern const struct route_ops route_df_min, route_df_val, route_df_ugal, route_df_pb,
    route_df_olm, route_df_base, route_df_hybrid, route_df_ectn, route_df_booksim_min,
    route_df_booksim_ugal;

static const struct route_ops *const policies[] = {
    &route_dor,    &route_table_min, &route_duato,  &route_disha,
    &route_df_min, &route_df_val,    &route_df_ugal, &route_df_pb,
    &route_df_olm, &route_df_base,   &route_df_hybrid, &route_df_ectn,
    &route_df_booksim_min, &route_df_booksim_ugal,
};

static const char *const algorithm_names[] = {"dor",  "table_min", "duato", "disha",
                                              "min",  "val",       "ugal",  "pb",
                                              "olm",  "base",      "hybrid", "ectn",
                                              "booksim_min", "booksim_ugal", NULL};

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
     "30 flits, through a random intermediate node; experiments/booksim-validation)"},
    {"routing.reroute", SATURN_PARAM_ENUM, "auto", 0, 0, reroute_names,
     "when a head is routed: once (when it reaches the front of its input VC), waiting (again "
     "every cycle it waits for an output VC: adaptive choices see the present, decisions not "
     "yet taken are undone; FOGSim's allocator does this) or auto (waiting for the adaptive "
     "Dragonfly policies ugal, pb, olm, base, hybrid, ectn; once for the others)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL}};

const struct route_ops *route_find(const char *name)
{
    for (size_t i = 0; i < sizeof policies / sizeof policies[0]; i++)
        if (strcmp(policies[i]->name, name) == 0)
            return policies[i];
    return NULL;
}
