/* Base contention-counter routing (paper 004, III-B and IV-A): the OLM
 * family's paths and VCs (dragonfly.h); at every hop the head counts for
 * its minimal output (contention.h) and is misrouted when that counter
 * reaches (or exceeds: contention.trigger) base.threshold, to a random
 * available nonminimal option whose counter is under it (minimally when
 * there is none). */
#include <stdlib.h>

#include "route/contention.h"
#include "route/dragonfly.h"

const struct saturn_param route_base_params[] = {
    {"base.threshold", SATURN_PARAM_INT, "6", 0, 65535, NULL,
     "base: misroute when the minimal output's contention counter reaches (contention.trigger) "
     "this"},
    {NULL, 0, NULL, 0, 0, NULL, NULL}};


static int base_init(void **state, const struct saturn_config *cfg, const struct net *n,
                     struct saturn_error *err)
{
    struct df_base *s = calloc(1, sizeof *s);
    if (!s)
        return saturn_error_set(err, SATURN_ENOMEM, "out of memory");
    *state = s;
    s->th = (unsigned)saturn_config_int(cfg, "base.threshold");
    df_opts_read(cfg, n, &s->o);
    if (contention_init(&s->cc, n))
        return saturn_error_set(err, SATURN_ENOMEM, "out of memory (contention counters)");
    if (!(s->memo = df_plan_memo_new(n)))
        return saturn_error_set(err, SATURN_ENOMEM, "out of memory (routing plans)");
    return df_check(cfg, n, 3, 2, "base", err);
}

static void base_free(void *state)
{
    struct df_base *s = state;
    if (s) {
        contention_free(&s->cc);
        free(s->memo);
    }
    free(s);
}

static void base_route(void *state, const struct net *n, uint32_t r, int in_port, int in_vc,
                       struct packet *p, struct route_result *out)
{
    struct df_base *s = state;
    struct df_plan plan;
    /* options only if they count; the plan kept for the head's next
     * routing (routing.reroute: every cycle it waits) */
    const struct df_plan_memo *m = df_plan_memo_hit(s->memo, n, r, in_port, in_vc, p);
    const bool planned = !m;
    if (planned)
        m = df_plan_min_memo(n, &s->o, s->memo, r, in_port, in_vc, p, &plan);
    if (m && m->min_port >= 0) {
        /* what df_contention_choice and df_apply do when the counter does
         * not fire (or there is nothing to misroute to): no draw */
        contention_add(&s->cc, r, in_port, in_vc, m->min_port);
        if (m->nopt == 0 || !df_fires(&s->o, contention_get(&s->cc, r, m->min_port), s->th)) {
            p->route[1] |= m->phase2;
            out->n = 1;
            out->sel = 0;
            out->c[0] = m->min;
            return;
        }
    }
    if (!planned) /* the plan from its memo */
        (void)df_plan_min_memo(n, &s->o, s->memo, r, in_port, in_vc, p, &plan);
    int choice = df_contention_choice(&s->cc, &s->o, n, r, in_port, in_vc, p, &plan, s->th);
    df_apply(n, r, &plan, choice, p, out);
}

static void base_tail(void *state, const struct net *n, uint32_t r, int in_port, int in_vc,
                      const struct packet *p)
{
    struct df_base *s = state;
    contention_remove(&s->cc, r, in_port, in_vc);
}

const struct route_ops route_df_base = {.name = "base",
                                        .init = base_init,
                                        .at_source = df_inflight_init,
                                        .route = base_route,
                                        .tail_left = base_tail,
                                        .free = base_free,
                                        .dragonfly = true, .local_vcs = 3, .reroute = true};
