/* Steady state, as BookSim's latency mode: warm up, measure the packets
 * generated in a window, keep the load on while they drain (capped). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "experiment/sim.h"
#include "traffic/process.h"

/* A run is saturated when its backlog (flits in source queues and in the
 * network) grows over the window, by the least-squares slope of the
 * per-cycle backlog, by more than this fraction of the flits offered in
 * the window, or than 3 / sqrt(measured packets) when that is larger: the
 * slope uses every cycle, but a small sample's queues still wander by a
 * few percent (16 nodes, 2,000 cycles) where a large one's do not. */
#define STEADY_GROWTH_LIMIT 0.01
#define STEADY_GROWTH_NOISE 3.0

static const char *const measure_by_names[] = {"generation", "delivery", NULL};

const struct saturn_param steady_params[] = {
    {"steady.warmup", SATURN_PARAM_INT, "10000", 0, 1e12, NULL,
     "cycles before the measurement window"},
    {"steady.measure", SATURN_PARAM_INT, "20000", 0, 1e12, NULL,
     "cycles of the measurement window (packets generated in it are measured); 0 = paper "
     "002's rule T = 10 x 4 l / lambda (l: mean hops, lambda: packets/node/cycle)"},
    {"steady.drain_max", SATURN_PARAM_INT, "100000", 0, 1e12, NULL,
     "cycles after the window to wait for measured packets; a run that needs more is saturated"},
    {"steady.measure_by", SATURN_PARAM_ENUM, "generation", 0, 0, measure_by_names,
     "which packets the window measures: those generated in it, waited for in the drain "
     "(generation, BookSim's latency mode), or those delivered in it whenever they were "
     "generated, with no drain (delivery: FOGSim's statistics; the saturation test is then "
     "the backlog's growth alone)"},
    {"steady.trend_from", SATURN_PARAM_REAL, "1", 0, 1, NULL,
     "where the backlog's growth is fitted for the saturation test, as a fraction of the "
     "warm-up: 1 = over the window only; 0.5 = from half the warm-up to the end of the window "
     "(paper 002's look at the number of messages over the run: a longer span, less noise)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL}};

static double backlog(const struct net *n)
{
    return (double)(net_source_flits(n) + n->flits_in_net);
}

/* What the window's cycles add up (the means and the backlog's fits). */
struct cycle_sums {
    uint64_t W, M, F;
    bool long_fit;
    double mid;
    double fs_t, fs_tt, fs_y, fs_ty;    /* the fit over [F, W + M) (steady.trend_from) */
    double inflight, queued, trend;     /* trend: sum of (t - mid) * backlog over the window */
};

/* Cycle t's counts as it ended (cycle by cycle, or kept by a block: n->blk). */
static void count_cycle(struct cycle_sums *c, uint64_t t, double in_net, double queued,
                        double backlog_flits)
{
    if (c->long_fit && t >= c->F && t < c->W + c->M) {
        const double x = (double)(t - c->F);
        c->fs_t += x;
        c->fs_tt += x * x;
        c->fs_y += backlog_flits;
        c->fs_ty += x * backlog_flits;
    }
    if (t >= c->W && t < c->W + c->M) {
        c->inflight += in_net;
        c->queued += queued;
        c->trend += ((double)(t - c->W) - c->mid) * backlog_flits;
    }
}

int steady_run(struct saturn_sim *s, struct saturn_results *r, struct saturn_error *err)
{
    double t0 = sim_clock(), p;
    struct net *n = &s->net;
    int rc = traffic_packet_rate(s->cfg, &p, err);
    if (rc)
        return rc;
    uint32_t len = (uint32_t)saturn_config_int(s->cfg, "traffic.packet_length");
    uint64_t W = (uint64_t)saturn_config_int(s->cfg, "steady.warmup");
    uint64_t M = (uint64_t)saturn_config_int(s->cfg, "steady.measure");
    if (M == 0) { /* T ~ 10 x 4 l / lambda: about 40 l messages per node in the window */
        if (p <= 0)
            return saturn_config_fail(s->cfg, "steady.measure", err,
                                      "0 (automatic) needs a load above zero");
        double l = pattern_mean_hops(&s->pat, s->seed);
        M = (uint64_t)(10.0 * 4.0 * l / p + 0.5);
        if (M < 1)
            M = 1;
    }
    uint64_t D = (uint64_t)saturn_config_int(s->cfg, "steady.drain_max");
    /* steady.measure_by = delivery: sim_on_deliver counts the window's deliveries */
    s->by_delivery = saturn_config_enum(s->cfg, "steady.measure_by") == 1;
    s->win_lo = W;
    s->win_hi = W + M;
    /* steady.trend_from < 1: the growth is fitted over [F, W + M) instead
     * (running sums, t relative to F) */
    const double trend_from = saturn_config_real(s->cfg, "steady.trend_from");
    const bool long_fit = trend_from < 1 && W > 0;
    const uint64_t F = long_fit ? (uint64_t)(trend_from * (double)W) : W;
    uint64_t genF = 0;
    struct bernoulli b;
    int prc = traffic_process_init(&b, n, s->cfg, p, len, err);
    if (prc) {
        bernoulli_free(&b);
        return prc;
    }
    r->workload = "steady";
    r->warmup = W;
    r->measure = M;
    uint64_t ej0 = 0, ej1 = 0, gen0 = 0, gen1 = 0;
    struct cycle_sums cs = {.W = W, .M = M, .F = F, .long_fit = long_fit,
                            .mid = ((double)M - 1) / 2};
    for (;;) {
        uint64_t now = n->now;
        if (now == W) {
            ej0 = n->flits_ejected;
            gen0 = b.generated_flits;
        }
        if (now == F)
            genF = b.generated_flits;
        if (now == W + M) {
            ej1 = n->flits_ejected;
            gen1 = b.generated_flits;
        }
        if (now >= W + M && s->by_delivery) {
            r->measured_packets = s->lat.n;
            r->drained = true; /* nothing to wait for */
            break;
        }
        if (now >= W + M) {
            r->measured_packets = (gen1 - gen0) / len;
            if (s->lat.n == r->measured_packets) {
                r->drained = true;
                break;
            }
            if (now >= W + M + D)
                break;
        }
        /* Blocks of cycles (net/block.c) up to the window's edges: the
         * births of each cycle made before the block runs, the counts
         * read below taken from what each cycle left (n->blk). */
        uint64_t until = now < W ? W : W + M;
        if (long_fit && now < F && F < until)
            until = F;
        const uint32_t blen = now < W + M ? sim_block_len(s, until) : 0;
        if (blen > 1) {
            const bool in_window = now >= W;
            sim_accumulate(s, in_window);
            net_block_open(n, blen);
            for (uint32_t j = 0; j < blen; j++) {
                net_block_at(n, j);
                bernoulli_step(&b, n, &s->pat, in_window);
            }
            if ((rc = sim_block_run(s, err)))
                break;
            for (uint32_t j = 0; j < blen; j++)
                count_cycle(&cs, now + j, (double)n->blk[j].packets_in_net,
                            (double)n->blk[j].queued_packets, (double)n->blk[j].backlog_flits);
            sim_progress_since(s, now, in_window ? "measure" : "warm-up", n->now, W + M, "cycles");
            continue;
        }
        bool window = now >= W && now < W + M;
        sim_accumulate(s, window);
        bernoulli_step(&b, n, &s->pat, window);
        if ((rc = sim_step(s, err)))
            break;
        count_cycle(&cs, now, (double)n->packets_in_net, (double)n->queued_packets, backlog(n));
        if (now < W + M)
            sim_progress(s, now < W ? "warm-up" : "measure", n->now, W + M, "cycles");
        else
            sim_progress(s, "drain", s->lat.n, r->measured_packets, "packets");
    }
    bernoulli_free(&b);
    if (rc)
        return rc;
    double denom = (double)n->nnodes * (double)M;
    r->offered = (double)(gen1 - gen0) / denom;
    r->accepted = (double)(ej1 - ej0) / denom;
    r->measured_delivered = s->lat.n;
    r->inflight_mean = cs.inflight / (double)M;
    r->source_queue_mean = cs.queued / denom;
    /* slope = sum (t - mid) y / sum (t - mid)^2, the latter M (M^2 - 1) / 12 */
    double md = (double)M, slope = M > 1 ? cs.trend / (md * (md * md - 1) / 12) : 0;
    r->backlog_growth = gen1 > gen0 ? slope * md / (double)(gen1 - gen0) : 0;
    double noise_packets = (double)(r->measured_packets + 1);
    if (long_fit) { /* the same test over [F, W + M): growth / flits offered in it */
        double L = (double)(W + M - F);
        double var = cs.fs_tt - cs.fs_t * cs.fs_t / L;
        double lslope = var > 0 ? (cs.fs_ty - cs.fs_t * cs.fs_y / L) / var : 0;
        double offered = (double)(gen1 - genF);
        r->backlog_growth = offered > 0 ? lslope * L / offered : 0;
        noise_packets = offered / len + 1;
    }
    /* Little's law: packets in the system (queued or in flight) = arrival
     * rate x time in the system, both over the window */
    r->little_n = (cs.inflight + cs.queued) / md;
    r->little_lambda_n_tau = (double)(gen1 - gen0) / len / md * s->lat.sum /
                             (s->lat.n ? (double)s->lat.n : 1.0);
    if (!r->drained) {
        r->saturated = true;
        /* with no drain allowed the count is only what was in flight when
         * the window closed: say so, and how to judge by the drain */
        if (D == 0)
            snprintf(r->saturated_why, sizeof r->saturated_why,
                     "%llu of %llu measured packets were still on their way when the window "
                     "closed, and steady.drain_max = 0 waits for none (set it above 0 to judge "
                     "by the drain)",
                     (unsigned long long)(r->measured_packets - r->measured_delivered),
                     (unsigned long long)r->measured_packets);
        else
            snprintf(r->saturated_why, sizeof r->saturated_why,
                     "%llu of %llu measured packets still undelivered %llu cycles after the "
                     "window (steady.drain_max)",
                     (unsigned long long)(r->measured_packets - r->measured_delivered),
                     (unsigned long long)r->measured_packets, (unsigned long long)D);
    } else if (r->backlog_growth > STEADY_GROWTH_LIMIT &&
               r->backlog_growth > STEADY_GROWTH_NOISE / sqrt(noise_packets)) {
        r->saturated = true;
        snprintf(r->saturated_why, sizeof r->saturated_why,
                 "the backlog (source queues + network) grew by %.1f %% of the offered flits over %s",
                 100.0 * r->backlog_growth, long_fit ? "the fitted span" : "the window");
    }
    sim_finish(s, r, t0);
    return SATURN_OK;
}
