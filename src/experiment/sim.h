/* A simulation: the network plus the workload that drives it. */
#ifndef SATURN_SIM_H
#define SATURN_SIM_H

#include "core/histogram.h"
#include "net/net.h"
#include "saturn/saturn.h"
#include "traffic/pattern.h"

struct saturn_sim {
    struct saturn_config *cfg;
    uint64_t seed;
    struct net net;
    struct pattern pat;
    saturn_progress_fn progress;
    void *progress_user;
    uint64_t progress_mask; /* a report when (now & mask) == 0 */
    /* statistics of delivered packets that count */
    struct histogram lat, netlat;
    double hops_sum;
    bool count_all;       /* every packet counts (collective) */
    bool by_delivery;     /* steady.measure_by = delivery: the packets delivered in
                             [win_lo, win_hi) count, whenever generated */
    uint64_t win_lo, win_hi;
    uint64_t last_delivery;

    /* mobility, entropy and throttling, accumulated while acc_on */
    bool acc_on;
    double acc_nv, acc_na, acc_thr, acc_cycles, acc_entropy;
    uint64_t acc_windows;
    uint64_t entropy_window;
    uint32_t *ent_count;  /* packets by hops made in the window (entropy_window_end) */
    double last_entropy;  /* E of the last complete window, -1 before */

    /* collectives: per-node start offsets (NULL: from the config) and
     * whether to record the link-by-time chart */
    int64_t *offsets;
    bool chart;

    /* time series; a workload may add its own columns to each row */
    void (*series_decorate)(struct saturn_sim *s, struct saturn_series_row *row);
    void *workload_state;
    saturn_series_fn series;
    void *series_user;
    uint64_t series_interval;
    struct series_acc {
        double nv, na, thr, lat_total0;
        uint64_t lat_count0, ejected0, generated0, cycles;
    } sa;
    /* misrouted measured packets; every delivered packet by generation bin */
    uint64_t mis_global, mis_local;
    uint64_t gen_bin, ngen;
    struct sim_gen { uint64_t packets, global, local; double lat; } *gen;
    /* latency of every delivered packet, running totals (series, ramp) */
    double lat_total;
    uint64_t lat_count;

    /* co-simulation (share.c): a collective stops unfinished once the cycle
     * passes stop_after; every 64 cycles stop_after is lowered to the
     * largest cut-off of this run and its still attached followers */
    uint64_t stop_after;     /* UINT64_MAX: never */
    uint64_t block_cycles;   /* cycles run in blocks (sim_block_run) */
    uint64_t own_cut;        /* this configuration's cut-off (UINT64_MAX: none) */
    const uint64_t *follow_cut; /* per follower (NULL: none) */
    size_t nfollow;
};

/* The followers of the run (ctl_ops.follow) and the cut-offs: own for this
 * configuration, cut[i] for follower i (cut NULL: no cut-offs). */
int sim_follow(struct saturn_sim *s, const struct saturn_config *const *cfgs, size_t n,
               uint64_t own, const uint64_t *cut, struct saturn_error *err);
/* Whether follower i is still attached, and if not the cycle it left. */
bool sim_attached(const struct saturn_sim *s, size_t i, uint64_t *left);
/* A collective may stop now (the cut-offs of every run it stands for passed). */
bool sim_cut_now(struct saturn_sim *s);

/* The engine (net_create) with the side machinery the configuration asks
 * for on its hooks: metapackets for gather.mode = metapacket (the routing
 * attaches its own, e.g. Disha's lane, inside net_create). */
int sim_net_create(struct net *n, const struct saturn_config *cfg, uint64_t seed,
                   struct saturn_error *err);

/* One cycle, with watchdog and invariant failures turned into errors. */
int sim_step(struct saturn_sim *s, struct saturn_error *err);
/* Blocks of cycles (net/block.c): how many cycles from now may run as one
 * block ending at or before `until` (0 or 1: step by step; a time series
 * reads every cycle, an entropy window's end ends a block), and the open
 * block run, with sim_step's bookkeeping for all its cycles. */
uint32_t sim_block_len(const struct saturn_sim *s, uint64_t until);
int sim_block_run(struct saturn_sim *s, struct saturn_error *err);
/* A progress report is due this cycle (see struct saturn_progress). */
static inline bool sim_progress_due(const struct saturn_sim *s)
{
    return s->progress && (s->net.now & s->progress_mask) == 0;
}
/* A report fell due after cycle `from`, up to now (a block of cycles). */
static inline bool sim_progress_due_since(const struct saturn_sim *s, uint64_t from)
{
    return s->progress && (from | s->progress_mask) < s->net.now;
}
/* Reports progress when due: done of total (0: unknown) in unit. */
void sim_progress(struct saturn_sim *s, const char *phase, uint64_t done, uint64_t total,
                  const char *unit);
/* The same after a block from cycle `from`: when a report fell due in it. */
void sim_progress_since(struct saturn_sim *s, uint64_t from, const char *phase, uint64_t done,
                        uint64_t total, const char *unit);
void sim_finish(struct saturn_sim *s, struct saturn_results *r, double t0);
/* Start or stop accumulating mobility, entropy and throttling means. */
void sim_accumulate(struct saturn_sim *s, bool on);

int steady_run(struct saturn_sim *s, struct saturn_results *r, struct saturn_error *err);
int collective_run(struct saturn_sim *s, struct saturn_results *r, struct saturn_error *err);
int phases_run(struct saturn_sim *s, struct saturn_results *r, struct saturn_error *err);
int ramp_run(struct saturn_sim *s, struct saturn_results *r, struct saturn_error *err);
int replay_run(struct saturn_sim *s, struct saturn_results *r, struct saturn_error *err);
/* The delivery callback every workload's statistics come from (a
 * workload that installs its own calls it first). */
void sim_on_deliver(void *user, struct net *n, uint32_t pid);

double sim_clock(void);

#endif
