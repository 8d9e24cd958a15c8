/* Opportunistic Local Misrouting (García et al. 2013) on a Dragonfly, as
 * paper 004 describes it: in-transit decisions when a head reaches the
 * front of its input queue (and again each cycle it waits, routing.reroute).
 * Global misrouting at the source router (a random other global link) or
 * after the first local hop (MM+L: a local hop to a router that must take
 * one of its global links; dragonfly.global_misroute); local misrouting
 * (one extra hop) on arrival in the intermediate or destination group.
 * Both trigger, when the minimal output cannot take the packet now
 * (olm.trigger), for the nonminimal outputs whose occupancy is below
 * olm.threshold percent of the minimal one's (phits waiting for the
 * output VCs the packet would use, as a fraction of what they can hold),
 * and take a random one of those outputs. VCs: L0 G0 L1 G1 L2 (dragonfly.h). */
#include <stdlib.h>

#include "route/dragonfly.h"

const struct saturn_param route_olm_params[] = {
    {"olm.threshold", SATURN_PARAM_REAL, "50", 0, 1000, NULL,
     "olm: misroute when a nonminimal output's occupancy is below this percentage of the "
     "minimal output's"},
    {NULL, 0, NULL, 0, 0, NULL, NULL}};

struct olm {
    struct df_opts o;
    double pct;
};

static int olm_init(void **state, const struct saturn_config *cfg, const struct net *n,
                    struct saturn_error *err)
{
    struct olm *s = calloc(1, sizeof *s);
    if (!s)
        return saturn_error_set(err, SATURN_ENOMEM, "out of memory");
    *state = s;
    s->pct = saturn_config_real(cfg, "olm.threshold");
    df_opts_read(cfg, n, &s->o);
    return df_check(cfg, n, 3, 2, "olm", err);
}

static void olm_route(void *state, const struct net *n, uint32_t r, int in_port, int in_vc,
                      struct packet *p, struct route_result *out)
{
    const struct olm *s = state;
    struct df_plan plan;
    df_plan_min(n, &s->o, r, in_port, in_vc, p, &plan); /* options only if they count */
    df_apply(n, r, &plan, df_occupancy_choice(n, &s->o, r, &plan, p, s->pct), p, out);
}

const struct route_ops route_df_olm = {.name = "olm",
                                       .init = olm_init,
                                       .at_source = df_inflight_init,
                                       .route = olm_route,
                                       .free = free,
                                       .dragonfly = true, .local_vcs = 3, .reroute = true,
                                       .reads_crossings = df_occupancy_reads_crossings};
