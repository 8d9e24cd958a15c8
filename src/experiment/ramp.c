/* The ramp-load method (paper 000, section 5.1.2): the offered load rises
 * linearly from ramp.from by ramp.per_million flits/node/cycle every
 * million cycles up to ramp.to. Every ramp.sample cycles the accepted and
 * offered loads and the latency of the packets delivered in the sample
 * are taken; each is smoothed over the last ramp.smooth samples (the
 * latency as the mean over the packets delivered in them). The critical load ratio is the smoothed offered
 * load at the first sample, once the average is full, where the smoothed
 * accepted load falls more than ramp.drop percent below it; both
 * averages cover the same samples, so the ramp's own slope does not bias
 * the comparison. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "experiment/sim.h"
#include "traffic/process.h"

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
    {NULL, 0, NULL, 0, 0, NULL, NULL}};

struct ramp {
    double from, slope, drop;
    uint64_t sample;
    uint32_t window, count, head;
    double *off, *acc, *lat; /* rings of the last `window` samples (lat: latency sums) */
    uint64_t *nlat;          /* packets delivered per sample */
    double sum_off, sum_acc, sum_lat;
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
        rp->sum_off -= rp->off[rp->head];
        rp->sum_acc -= rp->acc[rp->head];
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
    rp->off[rp->head] = row->offered;
    rp->acc[rp->head] = row->accepted;
    rp->lat[rp->head] = lat;
    rp->nlat[rp->head] = nlat;
    rp->sum_off += row->offered;
    rp->sum_acc += row->accepted;
    rp->sum_lat += lat;
    rp->sum_nlat += nlat;
    rp->head = (rp->head + 1) % rp->window;
    double c = rp->count;
    row->nominal = rp->from + rp->slope * (double)(row->cycle + 1);
    row->smoothed_offered = rp->sum_off / c;
    row->smoothed_accepted = rp->sum_acc / c;
    row->smoothed_latency = rp->sum_nlat ? rp->sum_lat / (double)rp->sum_nlat : -1;
    if (!rp->critical && rp->count == rp->window && row->smoothed_offered > 0 &&
        row->smoothed_accepted < (1.0 - rp->drop) * row->smoothed_offered) {
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
    rp.off = calloc(rp.window, sizeof *rp.off);
    rp.acc = calloc(rp.window, sizeof *rp.acc);
    rp.lat = calloc(rp.window, sizeof *rp.lat);
    rp.nlat = calloc(rp.window, sizeof *rp.nlat);
    struct bernoulli b;
    int rc = bernoulli_init(&b, n, to / len, len);
    if (!rp.off || !rp.acc || !rp.lat || !rp.nlat || rc) {
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
                 "smoothed throughput fell %.0f %% below the offered load at %.4f flits/node/cycle",
                 100 * rp.drop, r->critical_load);
    sim_finish(s, r, t0);
out:
    s->series_decorate = NULL;
    s->workload_state = NULL;
    bernoulli_free(&b);
    free(rp.off);
    free(rp.acc);
    free(rp.lat);
    free(rp.nlat);
    return rc;
}
