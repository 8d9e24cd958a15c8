/* Self-tuned global throttling (paper 001, sections 3 and 4): every node
 * stops starting packets while the estimated number of full network VC
 * buffers (gather.h) exceeds a threshold, and a hill climber retunes the
 * threshold at the end of every tuning period.
 *
 * Readings of the paper, all of them choices:
 * - Percent keys (initial, increment, decrement) are of the counted
 *   buffers and converted with floor: 3,072 buffers give 30, 30 and 122,
 *   the paper's numbers.
 * - The tuning period must be a multiple of the gather duration g (4.1:
 *   "an exact multiple"); anything else is refused. With metapackets
 *   (gather.mode = metapacket) gathers take a varying time: any period. Period m covers cycles
 *   [start + m P, start + (m+1) P); its decision is taken at the start of
 *   the next cycle's observe, so the new threshold governs that cycle on.
 * - A period's throughput is the sum of the delivered flits reported by the
 *   snapshots that became visible during it: the tuner knows only what the
 *   side-band told it. The first period sees one snapshot fewer (and
 *   snapshot 0 reports nothing delivered), which can only read as "no drop"
 *   against the period before it, since there is none.
 * - "Throttled in the period": the throttle was on in at least one cycle.
 * - Table 1 is not in the text we have; section 4.1's prose gives it: a
 *   drop (throughput < drop x previous period's) decreases the threshold
 *   whether throttling or not (never below 0); no drop while throttled
 *   increases it; no drop and no throttling leaves it.
 * - Local-maximum avoidance (4.2) is checked first, after max is updated
 *   (max, Nmax = mean full buffers of the period's snapshots, Tmax = the
 *   threshold in force during the period, when tput > max): if tput <
 *   drop x max, the threshold becomes min(Tmax, Nmax) instead of the
 *   Table 1 step ("drops significantly below the maximum" read with the
 *   same fraction as a drop). The r-th consecutive such reset also sets
 *   max to 0 (the search for the maximum restarts) and the count restarts;
 *   any period without a reset zeroes the count.
 * - The previous-period comparison always uses the period just ended, reset
 *   or not. */
#include <math.h>
#include <stdlib.h>

#include "control/control.h"
#include "control/gather.h"
#include "control/selftune.h"
#include "net/net.h"

const struct saturn_param selftune_params[] = {
    {"selftune.period", SATURN_PARAM_INT, "96", 1, 1e12, NULL,
     "selftune: tuning period (cycles); a multiple of the gather duration g"},
    {"selftune.initial", SATURN_PARAM_REAL, "1", 0, 100, NULL,
     "selftune: initial threshold, percent of the counted network VC buffers (floor)"},
    {"selftune.increment", SATURN_PARAM_REAL, "1", 0, 100, NULL,
     "selftune: threshold increase when throttled without a drop, percent of buffers (floor)"},
    {"selftune.decrement", SATURN_PARAM_REAL, "4", 0, 100, NULL,
     "selftune: threshold decrease on a throughput drop, percent of buffers (floor)"},
    {"selftune.drop", SATURN_PARAM_REAL, "75", 0, 100, NULL,
     "selftune: a drop is a period's throughput below this percent of the previous period's "
     "(and of the maximum, for local-maximum avoidance)"},
    {"selftune.avoid_local_max", SATURN_PARAM_BOOL, "true", 0, 0, NULL,
     "selftune: on a drop below the maximum, reset the threshold to min(Tmax, Nmax)"},
    {"selftune.resets", SATURN_PARAM_INT, "5", 1, 1000000, NULL,
     "selftune: this many consecutive resets clear the remembered maximum (r)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL}};

struct selftune {
    struct gather g;
    struct tuner t;
    uint64_t period, period_start;
    bool on, throttled_in_period;
    uint32_t nodes;
};

enum selftune_action selftune_decide(struct tuner *t, double tput, double full, bool throttled)
{
    if (tput > t->max) {
        t->max = tput;
        t->nmax = full;
        t->tmax = t->threshold;
    }
    enum selftune_action a;
    if (t->avoid && tput < t->drop * t->max) {
        t->threshold = fmin(t->tmax, t->nmax);
        a = ST_RESET;
        if (++t->resets >= t->resets_limit) {
            t->max = 0;
            t->resets = 0;
            a = ST_RESET_MAX;
        }
    } else {
        t->resets = 0;
        if (tput < t->drop * t->prev) {
            t->threshold = fmax(0, t->threshold - t->decrement);
            a = ST_DECREASE;
        } else if (throttled) {
            t->threshold += t->increment;
            a = ST_INCREASE;
        } else {
            a = ST_KEEP;
        }
    }
    t->prev = tput;
    return a;
}

const struct tuner *selftune_tuner(const void *state)
{
    return &((const struct selftune *)state)->t;
}

/* Percent of the counted buffers, floored (the epsilon keeps 1 % of 300
 * at 3 whatever the rounding of 0.01 x 300). */
static double pct_of(double pct, uint64_t buffers)
{
    return floor(pct / 100.0 * (double)buffers + 1e-9);
}

static int selftune_init(void **state, const struct saturn_config *cfg, struct net *n,
                         struct saturn_error *err)
{
    struct selftune *s = calloc(1, sizeof *s);
    if (!s)
        return saturn_error_set(err, SATURN_ENOMEM, "out of memory");
    *state = s;
    int rc;
    if ((rc = ctl_reject_keys(cfg, static_keys, "selftune", err)) ||
        (rc = ctl_reject_keys(cfg, alo_keys, "selftune", err)) ||
        (rc = ctl_reject_keys(cfg, entropy_keys, "selftune", err)) ||
        (rc = gather_init(&s->g, cfg, n, err)))
        return rc;
    uint64_t g = s->g.g, p = (uint64_t)saturn_config_int(cfg, "selftune.period");
    /* metapacket gathers take what the network gives them: no period to align with */
    if (s->g.sideband && p % g != 0) {
        uint64_t lo = p / g * g;
        if (lo == 0)
            return saturn_config_fail(cfg, "selftune.period", err,
                                      "must be a multiple of the gather duration g = %llu "
                                      "cycles (gather.hop_delay x hops per dimension); nearest "
                                      "allowed value: %llu",
                                      (unsigned long long)g, (unsigned long long)g);
        return saturn_config_fail(cfg, "selftune.period", err,
                                  "must be a multiple of the gather duration g = %llu cycles "
                                  "(gather.hop_delay x hops per dimension); nearest allowed "
                                  "values: %llu or %llu",
                                  (unsigned long long)g, (unsigned long long)lo,
                                  (unsigned long long)(lo + g));
    }
    s->period = p;
    s->period_start = n->now;
    s->nodes = n->nnodes;
    uint64_t b = s->g.buffers;
    s->t = (struct tuner){
        .threshold = pct_of(saturn_config_real(cfg, "selftune.initial"), b),
        .increment = pct_of(saturn_config_real(cfg, "selftune.increment"), b),
        .decrement = pct_of(saturn_config_real(cfg, "selftune.decrement"), b),
        .drop = saturn_config_real(cfg, "selftune.drop") / 100.0,
        .avoid = saturn_config_bool(cfg, "selftune.avoid_local_max"),
        .resets_limit = (uint32_t)saturn_config_int(cfg, "selftune.resets"),
    };
    return SATURN_OK;
}

static void selftune_observe(void *state, struct net *n)
{
    struct selftune *s = state;
    if (n->now >= s->period_start + s->period) {
        /* the period [period_start, now) is over: only its snapshots are taken */
        double delivered, full;
        uint32_t c = gather_take(&s->g, &delivered, &full);
        selftune_decide(&s->t, delivered, c ? full / c : 0, s->throttled_in_period);
        s->period_start += s->period;
        s->throttled_in_period = false;
    }
    gather_step(&s->g, n);
    s->on = gather_estimate(&s->g) > s->t.threshold;
    s->throttled_in_period |= s->on;
}

static bool selftune_may_start(void *state, const struct net *n, uint32_t node)
{
    return !((const struct selftune *)state)->on;
}

static uint32_t selftune_throttled(const void *state)
{
    const struct selftune *s = state;
    return s->on ? s->nodes : 0;
}

static void selftune_probe(const void *state, double *threshold, double *estimate)
{
    const struct selftune *s = state;
    *threshold = s->t.threshold;
    *estimate = gather_estimate(&s->g);
}

static void selftune_free(void *state)
{
    struct selftune *s = state;
    if (!s)
        return;
    gather_free(&s->g);
    free(s);
}

const struct ctl_ops ctl_selftune = {.name = "selftune",
                                     .init = selftune_init,
                                     .observe = selftune_observe,
                                     .may_start = selftune_may_start,
                                     .throttled = selftune_throttled,
                                     .probe = selftune_probe,
                                     .free = selftune_free};
