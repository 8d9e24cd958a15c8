/* Hybrid contention/congestion routing (paper 004, III-C): Base's counters
 * with hybrid.threshold, and OLM's occupancy trigger with
 * hybrid.occupancy percent; misrouted when either fires: to a random
 * option under the counter threshold when the counter fired, else to a
 * random option passing the occupancy comparison. Paths and VCs of the
 * OLM family (dragonfly.h). */
#include <stdlib.h>

#include "route/contention.h"
#include "route/dragonfly.h"

const struct saturn_param route_hybrid_params[] = {
    {"hybrid.threshold", SATURN_PARAM_INT, "7", 0, 65535, NULL,
     "hybrid: misroute when the minimal output's contention counter reaches "
     "(contention.trigger) this"},
    {"hybrid.occupancy", SATURN_PARAM_REAL, "35", 0, 1000, NULL,
     "hybrid: or when a nonminimal output's occupancy is below this percentage of the "
     "minimal output's"},
    {NULL, 0, NULL, 0, 0, NULL, NULL}};


static int hybrid_init(void **state, const struct saturn_config *cfg, const struct net *n,
                       struct saturn_error *err)
{
    struct df_hybrid *s = calloc(1, sizeof *s);
    if (!s)
        return saturn_error_set(err, SATURN_ENOMEM, "out of memory");
    *state = s;
    s->th = (unsigned)saturn_config_int(cfg, "hybrid.threshold");
    s->pct = saturn_config_real(cfg, "hybrid.occupancy");
    df_opts_read(cfg, n, &s->o);
    if (contention_init(&s->cc, n))
        return saturn_error_set(err, SATURN_ENOMEM, "out of memory (contention counters)");
    return df_check(cfg, n, 3, 2, "hybrid", err);
}

static void hybrid_free(void *state)
{
    struct df_hybrid *s = state;
    if (s)
        contention_free(&s->cc);
    free(s);
}

static void hybrid_route(void *state, const struct net *n, uint32_t r, int in_port, int in_vc,
                         struct packet *p, struct route_result *out)
{
    struct df_hybrid *s = state;
    struct df_plan plan;
    df_plan_min(n, &s->o, r, in_port, in_vc, p, &plan); /* options only if they count */
    int choice = df_contention_choice(&s->cc, &s->o, n, r, in_port, in_vc, p, &plan, s->th);
    if (choice < 0 &&
        (plan.min_port < 0 || !df_fires(&s->o, contention_get(&s->cc, r, plan.min_port), s->th)))
        choice = df_occupancy_choice(n, &s->o, r, &plan, p, s->pct);
    df_apply(n, r, &plan, choice, p, out);
}

static void hybrid_tail(void *state, const struct net *n, uint32_t r, int in_port, int in_vc,
                        const struct packet *p)
{
    struct df_hybrid *s = state;
    contention_remove(&s->cc, r, in_port, in_vc);
}

const struct route_ops route_df_hybrid = {.name = "hybrid",
                                          .init = hybrid_init,
                                          .at_source = df_inflight_init,
                                          .route = hybrid_route,
                                          .tail_left = hybrid_tail,
                                          .free = hybrid_free,
                                          .dragonfly = true, .local_vcs = 3, .reroute = true,
                                          .reads_crossings = df_occupancy_reads_crossings};
