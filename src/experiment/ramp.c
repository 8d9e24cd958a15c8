/* The ramp-load method (paper 000, section 5.1.2): the offered load rises
 * linearly from ramp.from by ramp.per_million flits/node/cycle every
 * million cycles up to ramp.to. Every ramp.sample cycles the accepted and
 * offered loads and the latency of the packets delivered in the sample
 * are taken; each is smoothed over the last ramp.smooth samples (the
 * latency as the mean over the packets delivered in them). The critical
 * load ratio (ramp_detect) is the smoothed offered load at the first
 * sample, once the average is full, where (ramp.rule = drop) the smoothed
 * accepted load falls more than ramp.drop percent below it -- both
 * averages cover the same samples, so the ramp's own slope does not bias
 * the comparison -- or (gradient) the gradient of the smoothed curve,
 * accepted against offered between this average and the one ramp.smooth
 * samples earlier, falls more than ramp.drop percent below 1: the paper's
 * "decreasing point of the gradient of the performance curve". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "experiment/ramp.h"
#include "experiment/sim.h"
#include "traffic/process.h"

static const char *const rule_names[] = {"drop", "gradient", NULL};

const struct saturn_param ramp_params[] = {
    {"ramp.from", SATURN_PARAM_REAL, "0", 0, 1, NULL, "offered load at cycle 0 (flits/node/cycle)"},
    {"ramp.per_million", SATURN_PARAM_REAL, "0.1", 1e-9, 1e6, NULL,
     "load increase per 1,000,000 cycles (flits/node/cycle)"},
    {"ramp.to", SATURN_PARAM_REAL, "0.1", 0, 1, NULL, "the run ends when the load reaches this"},
    {"ramp.sample", SATURN_PARAM_INT, "100", 1, 1e9, NULL, "cycles per sample"},
    {"ramp.smooth", SATURN_PARAM_INT, "400", 1, 1e7, NULL, "samples in the moving average"},
    {"ramp.drop", SATURN_PARAM_REAL, "10", 0, 100, NULL,
     "critical point: smoothed throughput this many percent below the smoothed offered load"},
    {"ramp.stop_at_critical", SATURN_PARAM_BOOL, "false", 0, 0, NULL,
     "end the run at the critical point instead of at ramp.to"},
    {"ramp.rule", SATURN_PARAM_ENUM, "drop", 0, 0, rule_names,
     "critical point: drop (smoothed throughput ramp.drop % below the smoothed offered load) "
     "or gradient (the smoothed curve's gradient ramp.drop % below 1, against the average "
     "ramp.smooth samples earlier)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL}};

int ramp_detect_init(struct ramp_detect *d, uint32_t window, double drop, bool gradient)
{
    memset(d, 0, sizeof *d);
    d->window = window ? window : 1;
    d->drop = drop;
    d->gradient = gradient;
    d->cap = d->window;
    d->off = calloc(d->cap, sizeof *d->off);
    d->acc = calloc(d->cap, sizeof *d->acc);
    d->avg_off = calloc(d->window + 1, sizeof *d->avg_off);
    d->avg_acc = calloc(d->window + 1, sizeof *d->avg_acc);
    return d->off && d->acc && d->avg_off && d->avg_acc ? SATURN_OK : SATURN_ENOMEM;
}

void ramp_detect_free(struct ramp_detect *d)
{
    free(d->off);
    free(d->acc);
    free(d->avg_off);
    free(d->avg_acc);
}

bool ramp_detect_push(struct ramp_detect *d, double offered, double accepted,
                      double *smooth_off, double *smooth_acc)
{
    uint32_t w = d->window;
    size_t slot = d->n % d->cap;
    if (d->n >= w) { /* the sample leaving the window */
        size_t old = (d->n - w) % d->cap;
        d->sum_off -= d->off[old];
        d->sum_acc -= d->acc[old];
    }
    d->off[slot] = offered;
    d->acc[slot] = accepted;
    d->sum_off += offered;
    d->sum_acc += accepted;
    d->n++;
    uint64_t c = d->n < w ? d->n : w;
    *smooth_off = d->sum_off / (double)c;
    *smooth_acc = d->sum_acc / (double)c;
    /* the averages of the last window + 1 full windows, for the gradient */
    d->avg_off[d->n % (w + 1)] = *smooth_off;
    d->avg_acc[d->n % (w + 1)] = *smooth_acc;
    if (d->found || d->n < w || !(*smooth_off > 0))
        return false;
    if (!d->gradient) {
        d->found = *smooth_acc < (1.0 - d->drop) * *smooth_off;
    } else if (d->n >= 2 * (uint64_t)w) {
        double o0 = d->avg_off[(d->n - w) % (w + 1)], a0 = d->avg_acc[(d->n - w) % (w + 1)];
        double dof = *smooth_off - o0;
        d->found = dof > 0 && (*smooth_acc - a0) < (1.0 - d->drop) * dof;
    }
    if (d->found)
        d->critical = *smooth_off;
    return d->found;
}

struct ramp {
    double from, slope, drop;
    uint64_t sample;
    uint32_t window, count, head;
    struct ramp_detect det;  /* offered and accepted load, and the critical point */
    struct ramp_detect other; /* the other rule, on the same samples */
    double *lat;             /* ring of the last `window` samples' latency sums */
    uint64_t *nlat;          /* packets delivered per sample */
    double sum_lat;
    uint64_t sum_nlat;
    double lat_total0;       /* delivered-latency totals at the last sample */
    uint64_t lat_count0;
    struct saturn_results *r;
    bool critical;
};

static void ramp_sample(struct saturn_sim *s, struct saturn_series_row *row)
{
    struct ramp *rp = s->workload_state;
    if (rp->count == rp->window) { /* drop the oldest */
        rp->sum_lat -= rp->lat[rp->head];
        rp->sum_nlat -= rp->nlat[rp->head];
    } else {
        rp->count++;
    }
    /* latency: the packets delivered in the sample, so that a sample
     * without deliveries weighs nothing (not a latency of 0) */
    double lat = s->lat_total - rp->lat_total0;
    uint64_t nlat = s->lat_count - rp->lat_count0;
    rp->lat_total0 = s->lat_total;
    rp->lat_count0 = s->lat_count;
    rp->lat[rp->head] = lat;
    rp->nlat[rp->head] = nlat;
    rp->sum_lat += lat;
    rp->sum_nlat += nlat;
    rp->head = (rp->head + 1) % rp->window;
    double c = rp->count;
    row->nominal = rp->from + rp->slope * (double)(row->cycle + 1);
    bool found = ramp_detect_push(&rp->det, row->offered, row->accepted, &row->smoothed_offered,
                                  &row->smoothed_accepted);
    double so, sa;
    if (ramp_detect_push(&rp->other, row->offered, row->accepted, &so, &sa))
        *(rp->other.gradient ? &rp->r->critical_gradient : &rp->r->critical_drop) =
            rp->other.critical;
    row->smoothed_latency = rp->sum_nlat ? rp->sum_lat / (double)rp->sum_nlat : -1;
    if (found) {
        *(rp->det.gradient ? &rp->r->critical_gradient : &rp->r->critical_drop) = rp->det.critical;
        rp->critical = true;
        rp->r->critical_load = row->smoothed_offered;
        /* the nominal load at the middle of the averaged samples */
        rp->r->critical_nominal =
            rp->from + rp->slope * ((double)row->cycle + 1 - c * (double)rp->sample / 2);
        rp->r->critical_cycle = row->cycle;
    }
}

int ramp_run(struct saturn_sim *s, struct saturn_results *r, struct saturn_error *err)
{
    double t0 = sim_clock();
    struct net *n = &s->net;
    struct ramp rp = {0};
    rp.from = saturn_config_real(s->cfg, "ramp.from");
    rp.slope = saturn_config_real(s->cfg, "ramp.per_million") / 1e6;
    rp.drop = saturn_config_real(s->cfg, "ramp.drop") / 100.0;
    rp.sample = (uint64_t)saturn_config_int(s->cfg, "ramp.sample");
    rp.window = (uint32_t)saturn_config_int(s->cfg, "ramp.smooth");
    rp.r = r;
    double to = saturn_config_real(s->cfg, "ramp.to");
    bool stop = saturn_config_bool(s->cfg, "ramp.stop_at_critical");
    uint32_t len = (uint32_t)saturn_config_int(s->cfg, "traffic.packet_length");
    if (to <= rp.from)
        return saturn_config_fail(s->cfg, "ramp.to", err, "must be above ramp.from = %g", rp.from);
    if (saturn_config_is_set(s->cfg, "sim.series_interval") &&
        (uint64_t)saturn_config_int(s->cfg, "sim.series_interval") != rp.sample)
        return saturn_config_fail(s->cfg, "sim.series_interval", err,
                                  "a ramp's series has one row per sample: leave it unset or "
                                  "equal to ramp.sample");
    rp.lat = calloc(rp.window, sizeof *rp.lat);
    rp.nlat = calloc(rp.window, sizeof *rp.nlat);
    struct bernoulli b;
    int rc = bernoulli_init(&b, n, to / len, len);
    bool gradient = saturn_config_enum(s->cfg, "ramp.rule") == 1;
    int rd = ramp_detect_init(&rp.det, rp.window, rp.drop, gradient) |
             ramp_detect_init(&rp.other, rp.window, rp.drop, !gradient);
    if (!rp.lat || !rp.nlat || rc || rd) {
        rc = saturn_error_set(err, SATURN_ENOMEM, "out of memory");
        goto out;
    }
    s->workload_state = &rp;
    s->series_decorate = ramp_sample;
    s->series_interval = rp.sample;
    s->count_all = true;
    sim_accumulate(s, true);
    r->workload = "ramp";
    uint64_t end = (uint64_t)((to - rp.from) / rp.slope + 0.5);
    while (n->now < end && !(stop && rp.critical)) {
        double rate = rp.from + rp.slope * (double)n->now;
        bernoulli_step_thinned(&b, n, &s->pat, true, rate / to);
        if ((rc = sim_step(s, err)))
            goto out;
        sim_progress(s, "ramp", n->now, end, "cycles");
    }
    r->measure = n->now;
    r->offered = (double)n->flits_generated / (double)n->nnodes / (double)n->now;
    r->accepted = (double)n->flits_ejected / (double)n->nnodes / (double)n->now;
    r->measured_packets = n->flits_generated / len;
    r->measured_delivered = n->packets_delivered;
    r->saturated = rp.critical;
    if (rp.critical)
        snprintf(r->saturated_why, sizeof r->saturated_why,
                 rp.det.gradient
                     ? "the smoothed throughput's gradient fell %.0f %% below 1 at %.4f "
                       "flits/node/cycle"
                     : "smoothed throughput fell %.0f %% below the offered load at %.4f "
                       "flits/node/cycle",
                 100 * rp.drop, r->critical_load);
    sim_finish(s, r, t0);
out:
    s->series_decorate = NULL;
    s->workload_state = NULL;
    bernoulli_free(&b);
    ramp_detect_free(&rp.det);
    ramp_detect_free(&rp.other);
    free(rp.lat);
    free(rp.nlat);
    return rc;
}
