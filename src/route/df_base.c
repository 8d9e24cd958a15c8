/* Base contention-counter routing (paper 004, III-B and IV-A): the OLM
 * family's paths and VCs (dragonfly.h); at every hop the head counts for
 * its minimal output (contention.h) and is misrouted when that counter
 * reaches (or exceeds: contention.trigger) base.threshold, to a random
 * available nonminimal option whose counter is under it (minimally when
 * there is none). */
#include <stdlib.h>

#include "route/contention.h"
#include "route/df_plan.h"
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
    return df_check(cfg, n, 3, 2, "base", err);
}

static void base_free(void *state)
{
    struct df_base *s = state;
    if (s)
        contention_free(&s->cc);
    free(s);
}

/* What base_route keeps for base_route_again in the candidates past the
 * one it gives (route_ops.route_again): c[1] the minimal candidate, c[2].port
 * these flags, c[2].vc_lo the DF_PHASE2 bit the minimal hop sets. */
enum { BASE_KEPT = 1, BASE_OPTIONS = 2 /* the plan has options (listed later) */ };
_Static_assert(ROUTE_MAX_CANDS >= 3, "base_route keeps its plan in c[1] and c[2]");

static void base_route(void *state, const struct net *n, uint32_t r, int in_port, int in_vc,
                       struct packet *p, struct route_result *out)
{
    struct df_base *s = state;
    struct df_plan plan;
    df_plan_min_inline(n, &s->o, r, in_port, in_vc, p, &plan); /* options only if they count */
    const bool kept = plan.min_port >= 0 && !plan.forced, options = plan.nopt != 0;
    /* df_contention_choice and df_apply, the minimal hop inline */
    const int choice = df_contention_count(&s->cc, &s->o, n, r, in_port, in_vc, p, &plan, s->th)
                           ? df_contention_pick(&s->cc, &s->o, n, r, p, &plan, s->th)
                           : -1;
    if (plan.min_port < 0) { /* df_apply's ejection, inline (plan.min is df_eject's) */
        out->n = 1;
        out->sel = 0;
        out->c[0] = plan.min;
        out->c[2].port = 0;
        return;
    }
    if (kept && choice < 0)
        df_apply_min(n, r, &plan, p, out);
    else
        df_apply(n, r, &plan, choice, p, out);
    if (kept) {
        out->c[1] = plan.min;
        out->c[2] = (struct route_cand){(uint16_t)(BASE_KEPT | (options ? BASE_OPTIONS : 0)),
                                        (uint8_t)(p->route[1] & DF_PHASE2), 0};
    } else {
        out->c[2].port = 0;
    }
}

/* The same head again (its packet fields as at its first routing): the
 * same plan, so while its minimal output's counter does not fire (or there
 * is nothing to misroute to) the minimal candidate, as base_route would
 * give it without a draw; otherwise base_route. */
static void base_route_again(void *state, const struct net *n, uint32_t r, int in_port,
                             int in_vc, struct packet *p, struct route_result *out)
{
    struct df_base *s = state;
    const struct route_cand min = out->c[1], kept = out->c[2];
    if (kept.port & BASE_KEPT) {
        contention_add(&s->cc, r, in_port, in_vc, min.port);
        if (!(kept.port & BASE_OPTIONS) ||
            !df_fires(&s->o, contention_get(&s->cc, r, min.port), s->th)) {
            p->route[1] |= kept.vc_lo;
            out->n = 1;
            out->sel = 0;
            out->c[0] = min;
            return;
        }
    }
    base_route(state, n, r, in_port, in_vc, p, out);
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
                                        .route_again = base_route_again,
                                        .tail_left = base_tail,
                                        .free = base_free,
                                        .dragonfly = true, .local_vcs = 3, .reroute = true};
