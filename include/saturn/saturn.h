/* saturn — a cycle-accurate, flit-level interconnection-network simulator.
 *
 * The whole public surface: build a configuration (config.h), run it, read
 * the results (results.h). The library is reentrant: every piece of mutable
 * state lives in a struct saturn_sim, so simulations may run in threads. */
#ifndef SATURN_SATURN_H
#define SATURN_SATURN_H

#include "saturn/config.h"
#include "saturn/error.h"
#include "saturn/results.h"
#include "saturn/trace.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SATURN_VERSION "0.1.0"

const char *saturn_version(void);

/* A progress report, made every so many cycles during a run: a power of
 * two scaled to the network, about 2^18 router-cycles of work apart
 * (4,096 cycles of an 8x8 torus, one cycle of a million-router one), so
 * that the receiver can time its lines itself. The strings are valid
 * during the call only. */
struct saturn_progress {
    const char *task;   /* the workload: "steady", "collective", "ramp", "phases" */
    const char *phase;  /* "warm-up", "measure", "drain", "phase 2 of 5", ... */
    const char *label;  /* set by an enclosing loop (saturn_curve: "point 3, load
                           0.15"), NULL otherwise */
    uint64_t cycle;     /* the simulation's clock */
    uint64_t done, total; /* work done and planned, in unit (total 0: unknown) */
    const char *unit;   /* "cycles" or "packets" */
};
typedef void (*saturn_progress_fn)(void *user, const struct saturn_progress *p);

struct saturn_sim;

/* Checks the configuration as a whole (impossible combinations are
 * SATURN_EINPUT errors naming the key) and builds the network. */
int saturn_sim_create(const struct saturn_config *cfg, struct saturn_sim **out,
                      struct saturn_error *err);
void saturn_sim_set_progress(struct saturn_sim *s, saturn_progress_fn fn,
                             void *user);
/* Runs the configured workload to completion. SATURN_EDEADLOCK when the
 * watchdog fires (err holds the wait-for report). */
int saturn_sim_run(struct saturn_sim *s, struct saturn_results *res,
                   struct saturn_error *err);
void saturn_sim_free(struct saturn_sim *s);

/* Time series: one row per interval of a run (the curves of paper 000's
 * Figs. 8-11). Rates and ratios are over the interval; counts are at its
 * last cycle. */
struct saturn_series_row {
    uint64_t cycle;         /* last cycle of the interval */
    uint64_t inflight;      /* packets in the network (head injected, tail not delivered) */
    uint64_t queued;        /* packets waiting at their sources */
    double valid_per_router; /* Nv / routers (paper 000's %ba / 100), interval mean */
    double mobility;        /* Ra = sum Na / sum Nv over the interval (1 when Nv = 0) */
    double throttled;       /* fraction of nodes whose injection gate is shut, mean */
    double accepted;        /* flits/node/cycle delivered */
    double offered;         /* flits/node/cycle generated */
    double latency;         /* mean latency of the packets delivered (0: none) */
    double entropy;         /* packet entropy E of the last complete window (-1: none yet) */
    /* ramp workload only (-1 otherwise): nominal offered load at the end of
     * the interval, and moving averages over ramp.smooth intervals */
    double nominal, smoothed_offered, smoothed_accepted, smoothed_latency;
    /* injection controllers with a threshold (static, selftune; -1
     * otherwise): the threshold and the congestion estimate at the last
     * cycle of the interval */
    double threshold, estimate;
};
typedef void (*saturn_series_fn)(void *user, const struct saturn_series_row *row);
void saturn_sim_set_series(struct saturn_sim *s, uint64_t interval, saturn_series_fn fn,
                           void *user);

/* Analytic models (src/experiment/analytic.c). Levitin & Rykalova's
 * mean-field model of a torus with VCT and unlimited storage, messages of
 * m flits to destinations exactly l hops away (paper 002, eqs. 1-2): */
double saturn_levitin_lambda_cr(double l, double m); /* 4 / (l m) */
double saturn_levitin_latency(double lambda, double l, double m);
/* Throughput bounds of a configuration, in packets/node/cycle (x packet
 * length for flits): every bound is a rate no routing or timing can beat. */
struct saturn_bounds {
    double mean_hops;       /* of the traffic pattern, exact */
    double channel_any;     /* average channel load, any routing: channels / (N m mean_hops) */
    double channel_routing; /* busiest channel under the configured deterministic routing (0: adaptive) */
    double injection;       /* 1 / m: one flit per cycle into the network */
    double ejection;        /* 1 / (m x the busiest node's share of arrivals) */
    double ejection_peak;   /* that share, 1 for permutations and symmetric patterns */
    double predicted;       /* the smallest bound */
    const char *binding;    /* which resource gives it */
    /* Not a bound: for a minimal adaptive routing (route_ops.minimal_split),
     * the busiest channel when every choice among its candidate ports is
     * split evenly (an adaptive routing may balance better); 0: none (or
     * more than 2,048 nodes). */
    double channel_split;
};
int saturn_bounds(const struct saturn_config *cfg, struct saturn_bounds *b,
                  struct saturn_error *err);

/* The topology's shape for summary lines, from the configuration ("8x8",
 * "p=2 a=4 h=2" and, when nodes > 0, " (72 nodes, palmtree)"). */
void saturn_topology_describe(const struct saturn_config *cfg, uint64_t nodes, char *buf,
                              size_t size);

/* Memory a configuration needs, estimated from the configuration alone
 * (nothing is built; src/experiment/memory.c says what is counted). Bytes;
 * what grows with the run rather than the network (open-loop source queues
 * beyond saturation, unlimited buffers past 16 flits, charts) is not in. */
struct saturn_memory {
    uint64_t total;
    uint64_t buffers;  /* flit storage: input and output VC rings */
    uint64_t vc_state; /* per-VC and per-port records */
    uint64_t packets;  /* the packet pool and queues at their peak */
    uint64_t other;    /* routers, nodes, topology, event wheel, process */
};
int saturn_memory_estimate(const struct saturn_config *cfg, struct saturn_memory *m,
                           struct saturn_error *err);

/* Collectives: per-node start offsets I_i (n = number of nodes), used
 * instead of collective.schedule; and the link-by-time chart. */
int saturn_sim_set_offsets(struct saturn_sim *s, const int64_t *offsets, size_t n);
size_t saturn_sim_nodes(const struct saturn_sim *s); /* n: the network's nodes */
void saturn_sim_record_chart(struct saturn_sim *s); /* before saturn_sim_run */
/* Before saturn_sim_run: group every delivered packet by its generation
 * cycle in bins of `bin` cycles (results.gen): the transient response. */
int saturn_sim_record_generations(struct saturn_sim *s, uint64_t bin);
int saturn_sim_chart(const struct saturn_sim *s, struct saturn_link_trace *out);

/* create + run + free. */
int saturn_run(const struct saturn_config *cfg, struct saturn_results *res,
               struct saturn_error *err);

/* Co-simulation (src/experiment/share.c): runs n valid configurations and
 * calls fn once for each with its results, exactly those saturn_run would
 * give, but one simulation stands for every configuration whose run is the
 * same: configurations that differ only in the entropy thresholds
 * (entropy.rth, ron, roff, rn; base(R, Rn) is hyst(R, R, Rn)) share a
 * simulation until the first gate decision on which they differ.
 * shared: r is another configuration's run (then r->wall_seconds is 0).
 * cutoff (NULL: none): a collective whose cycle passes cutoff[i] unfinished
 * may stop there, reported with r->cut set and r->duration the cycle it
 * stopped at (a lower bound on its duration). fn returning non-zero stops
 * everything and is returned. Calls come in a fixed order (deterministic). */
typedef int (*saturn_shared_fn)(void *user, size_t i, const struct saturn_results *r,
                                bool shared);
struct saturn_share_stats {
    uint64_t runs;        /* simulations */
    uint64_t shared;      /* configurations answered by another's simulation */
    uint64_t run_cycles;  /* cycles simulated */
    uint64_t detached;    /* followers that left a simulation (and were run again) */
    uint64_t left_cycles; /* sum of the cycles at which they left */
};
int saturn_run_shared(const struct saturn_config *const *cfgs, size_t n,
                      const uint64_t *cutoff, saturn_shared_fn fn, void *user,
                      struct saturn_share_stats *st, struct saturn_error *err);
/* The same with a way to hand work to other threads: after each simulation
 * whose followers left, when want(user) says so, the last half of them go
 * to take(user, idx, k) (indices into cfgs) instead of being run here, so
 * that a caller with an idle thread can run them there (saturn_run_shared_split
 * again, on those configurations). The configurations taken are not
 * reported by this call; each one's results are the same wherever it runs
 * (a run shared on one side may be simulated on both). take returning
 * non-zero stops everything and is returned. split NULL: saturn_run_shared. */
struct saturn_share_split {
    bool (*want)(void *user);
    int (*take)(void *user, const size_t *idx, size_t k);
    void *user;
};
int saturn_run_shared_split(const struct saturn_config *const *cfgs, size_t n,
                            const uint64_t *cutoff, saturn_shared_fn fn, void *user,
                            const struct saturn_share_split *split,
                            struct saturn_share_stats *st, struct saturn_error *err);
/* A lower bound on a collective's duration (cycles), whatever its injection
 * control and schedule: the busiest injection, ejection or (under DOR)
 * network channel of the run's own packets, one flit a cycle. */
int saturn_collective_bound(const struct saturn_config *cfg, uint64_t *lb,
                            struct saturn_error *err);
/* Equal for configurations saturn_run_shared may run together (a hash of
 * every other value); 0 when the configuration's controller cannot. */
uint64_t saturn_share_key(const struct saturn_config *c);
/* Whether saturn_run_shared runs a and b together: both controllers can
 * follow and every value but the thresholds is equal (base as hyst). */
bool saturn_share_same(const struct saturn_config *a, const struct saturn_config *b);

/* A load sweep: steady runs at traffic.flit_rate = curve.from, +curve.step,
 * ... up to curve.to (stopping after the first saturated point when
 * curve.stop_at_saturation), then curve.refine bisection steps between
 * the last stable and the first saturated rate. fn sees every point as it
 * finishes (return non-zero to stop). */
struct saturn_curve_summary {
    int points;
    double stable_rate;           /* highest offered rate not saturated */
    double saturated_rate;        /* lowest offered rate saturated (0: none) */
    double saturation_throughput; /* highest accepted load of any point */
    double zero_load_latency;     /* mean packet latency of the first point */
};
typedef int (*saturn_curve_fn)(void *user, const struct saturn_config *point,
                               const struct saturn_results *r);
int saturn_curve(const struct saturn_config *cfg, saturn_curve_fn fn, void *user,
                 struct saturn_curve_summary *sum, struct saturn_error *err);
/* The same, reporting every point's progress (label: "point N of at most
 * M, load R"). */
int saturn_curve_progress(const struct saturn_config *cfg, saturn_curve_fn fn, void *user,
                          saturn_progress_fn progress, void *progress_user,
                          struct saturn_curve_summary *sum, struct saturn_error *err);

#ifdef __cplusplus
}
#endif
#endif
