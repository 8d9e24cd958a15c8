/* Latency-throughput curves: steady runs over a range of loads. */
#include <stdio.h>
#include <string.h>

#include "saturn/saturn.h"
#include "experiment/workload.h"

const struct saturn_param curve_params[] = {
    {"curve.from", SATURN_PARAM_REAL, "0.05", 0, 1, NULL,
     "first offered load (flits/node/cycle)"},
    {"curve.to", SATURN_PARAM_REAL, "1", 0, 1, NULL, "last offered load"},
    {"curve.step", SATURN_PARAM_REAL, "0.05", 1e-6, 1, NULL, "load increment"},
    {"curve.stop_at_saturation", SATURN_PARAM_BOOL, "true", 0, 0, NULL,
     "stop the sweep after the first saturated point"},
    {"curve.refine", SATURN_PARAM_INT, "3", 0, 20, NULL,
     "bisection steps between the last stable and the first saturated load"},
    {NULL, 0, NULL, 0, 0, NULL, NULL}};

/* Progress of the curve: each point's, labelled with the point. */
struct curve_progress {
    saturn_progress_fn fn;
    void *user;
    int planned; /* points at most: the loads, then the bisection steps */
    char label[96];
};

static void point_progress(void *user, const struct saturn_progress *p)
{
    struct curve_progress *cp = user;
    struct saturn_progress q = *p;
    q.label = cp->label;
    cp->fn(cp->user, &q);
}

/* One steady run at rate, with its progress reported when cp->fn is set. */
static int run_sim(const struct saturn_config *c, struct curve_progress *cp,
                   struct saturn_results *r, struct saturn_error *err)
{
    if (!cp->fn)
        return saturn_run(c, r, err);
    struct saturn_sim *s;
    memset(r, 0, sizeof *r);
    int rc = saturn_sim_create(c, &s, err);
    if (rc)
        return rc;
    saturn_sim_set_progress(s, point_progress, cp);
    rc = saturn_sim_run(s, r, err);
    saturn_sim_free(s);
    return rc;
}

static int run_point(const struct saturn_config *base, double rate, saturn_curve_fn fn,
                     void *user, struct saturn_curve_summary *sum, bool *saturated,
                     struct curve_progress *cp, struct saturn_error *err)
{
    struct saturn_config *c = saturn_config_clone(base);
    if (!c)
        return saturn_error_set(err, SATURN_ENOMEM, "out of memory");
    char text[32];
    snprintf(text, sizeof text, "%.6g", rate);
    struct saturn_results r;
    snprintf(cp->label, sizeof cp->label, "curve point %d of at most %d, load %s",
             sum->points + 1, cp->planned, text);
    int rc = saturn_config_set(c, "traffic.flit_rate", text, NULL, 0, err);
    if (!rc)
        rc = run_sim(c, cp, &r, err);
    if (!rc) {
        *saturated = r.saturated;
        if (sum->points == 0)
            sum->zero_load_latency = r.packet_latency.mean;
        sum->points++;
        if (r.accepted > sum->saturation_throughput)
            sum->saturation_throughput = r.accepted;
        if (r.saturated) {
            if (sum->saturated_rate == 0 || rate < sum->saturated_rate)
                sum->saturated_rate = rate;
        } else if (rate > sum->stable_rate) {
            sum->stable_rate = rate;
        }
        if (fn && fn(user, c, &r))
            rc = -1;
        saturn_results_free(&r);
    }
    saturn_config_free(c);
    return rc;
}

int saturn_curve(const struct saturn_config *cfg, saturn_curve_fn fn, void *user,
                 struct saturn_curve_summary *sum, struct saturn_error *err)
{
    return saturn_curve_progress(cfg, fn, user, NULL, NULL, sum, err);
}

int saturn_curve_progress(const struct saturn_config *cfg, saturn_curve_fn fn, void *user,
                          saturn_progress_fn progress, void *progress_user,
                          struct saturn_curve_summary *sum, struct saturn_error *err)
{
    memset(sum, 0, sizeof *sum);
    if (saturn_config_is_set(cfg, "traffic.packet_rate"))
        return saturn_config_fail(cfg, "traffic.packet_rate", err,
                                  "a curve sweeps traffic.flit_rate; unset traffic.packet_rate");
    if (workload_of(cfg) != WORKLOAD_STEADY)
        return saturn_config_fail(cfg, "sim.workload", err,
                                  "a curve is a series of steady runs; use sim.workload = steady");
    double from = saturn_config_real(cfg, "curve.from");
    double to = saturn_config_real(cfg, "curve.to");
    double step = saturn_config_real(cfg, "curve.step");
    if (to < from)
        return saturn_config_fail(cfg, "curve.to", err, "is below curve.from = %g", from);
    bool stop = saturn_config_bool(cfg, "curve.stop_at_saturation");
    int refine = (int)saturn_config_int(cfg, "curve.refine");
    struct curve_progress cp = {.fn = progress, .user = progress_user,
                                .planned = (int)((to - from) / step + 1e-9) + 1 + refine};
    int rc = 0;
    for (int i = 0;; i++) {
        double rate = from + i * step;
        if (rate > to + 1e-9)
            break;
        bool sat = false;
        if ((rc = run_point(cfg, rate, fn, user, sum, &sat, &cp, err)))
            return rc < 0 ? SATURN_OK : rc;
        if (sat && stop)
            break;
    }
    for (int i = 0; i < refine && sum->saturated_rate > sum->stable_rate &&
                    sum->stable_rate > 0; i++) {
        double rate = 0.5 * (sum->stable_rate + sum->saturated_rate);
        bool sat = false;
        if ((rc = run_point(cfg, rate, fn, user, sum, &sat, &cp, err)))
            return rc < 0 ? SATURN_OK : rc;
    }
    return SATURN_OK;
}
