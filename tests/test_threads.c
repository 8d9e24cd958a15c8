/* sim.threads: one simulation on several threads, the routers split among
 * them in blocks of 64 consecutive routers. Every result must be
 * bit-identical to the serial run's whatever the thread count: every field
 * of struct saturn_results but the simulator's own wall clock, memory and
 * thread count (checked against sim.threads instead), the latency
 * histogram, the link records and rows by generation, the time series and
 * the link chart. Busy networks of several blocks (16x16 tori,
 * a 16x12 mesh, a 264-router Dragonfly) under every feature that touches
 * routers from the outside; the comparison itself is shown to catch a
 * difference; a deadlock gives the same watchdog report; bad thread
 * counts are refused. */
#include <dirent.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "saturn/io.h"
#include "support.h"

/* A new field in one of these structs must be compared below (then update
 * the size). LP64 sizes. */
#if defined(__LP64__)
_Static_assert(sizeof(struct saturn_results) == 720,
               "struct saturn_results changed: compare the new field in diff_results");
_Static_assert(sizeof(struct saturn_latency) == 48, "compare the new field in diff_latency");
_Static_assert(sizeof(struct saturn_bucket) == 24, "compare the new field in diff_results");
_Static_assert(sizeof(struct saturn_link_stat) == 32, "compare the new field in diff_results");
_Static_assert(sizeof(struct saturn_gen_row) == 40, "compare the new field in diff_results");
_Static_assert(sizeof(struct saturn_series_row) == 128, "compare the new field in diff_series");
#endif

enum { GEN_BIN = 50, SERIES_INTERVAL = 25 };

static const int thread_counts[] = {2, 3, 4};

/* ---- one run, everything it reports ------------------------------------- */

struct rec {
    int rc;
    struct saturn_error err;
    struct saturn_results r;
    struct saturn_series_row *rows; /* the time series, every SERIES_INTERVAL cycles */
    size_t nrows, cap;
    bool chart;
    struct saturn_link_trace trace;
    int threads_seen; /* most threads this process had during the run (0: unknown) */
};

/* Threads of this process now (Linux), 0 when unknown. */
static int process_threads(void)
{
    DIR *dp = opendir("/proc/self/task");
    if (!dp)
        return 0;
    int k = 0;
    for (struct dirent *e; (e = readdir(dp));)
        k += e->d_name[0] != '.';
    closedir(dp);
    return k;
}

static void on_row(void *user, const struct saturn_series_row *row)
{
    struct rec *x = user;
    if (x->nrows == x->cap) {
        x->cap = x->cap ? 2 * x->cap : 256;
        x->rows = realloc(x->rows, x->cap * sizeof *x->rows);
        assert_non_null(x->rows);
    }
    x->rows[x->nrows++] = *row;
    int k = process_threads(); /* the run's workers are alive between cycles */
    if (k > x->threads_seen)
        x->threads_seen = k;
}

/* Runs the words with sim.threads = threads (0: the key left unset) through
 * the API (the watchdog's error is a result too), recording rows by
 * generation, the time series and, if chart, the link chart. */
static void record_words(const char *const *kv, int threads, bool chart, bool series,
                         struct rec *x)
{
    /* A joined worker of the previous run may still be listed in /proc for a
     * moment (longer on a loaded machine): wait, at most 2 s, until this
     * process is its main thread alone, so that the counts are this run's. */
    for (int t = 0; t < 2000 && process_threads() > 1; t++)
        nanosleep(&(struct timespec){0, 1000000}, NULL);
    memset(x, 0, sizeof *x);
    struct saturn_config *c = test_config(kv);
    if (threads) {
        char word[32];
        struct saturn_error err = {0};
        snprintf(word, sizeof word, "sim.threads=%d", threads);
        if (saturn_config_apply_arg(c, word, &err) != SATURN_OK)
            fail_msg("%s refused: %s", word, err.msg);
    }
    struct saturn_sim *s = NULL;
    x->rc = saturn_sim_create(c, &s, &x->err);
    if (x->rc == SATURN_OK) {
        assert_int_equal(saturn_sim_record_generations(s, GEN_BIN), SATURN_OK);
        if (series) /* (a series reads every cycle: no blocks of cycles) */
            saturn_sim_set_series(s, SERIES_INTERVAL, on_row, x);
        if (chart)
            saturn_sim_record_chart(s);
        x->rc = saturn_sim_run(s, &x->r, &x->err);
        if (chart && x->rc == SATURN_OK) {
            assert_int_equal(saturn_sim_chart(s, &x->trace), SATURN_OK);
            x->chart = true;
        }
        saturn_sim_free(s);
    }
    saturn_config_free(c);
}

static void record(const char *const *kv, int threads, bool chart, struct rec *x)
{
    record_words(kv, threads, chart, true, x);
}

static void rec_free(struct rec *x)
{
    saturn_results_free(&x->r);
    free(x->rows);
    if (x->chart)
        saturn_link_trace_free(&x->trace);
    memset(x, 0, sizeof *x);
}

/* ---- the comparison ------------------------------------------------------- */

struct diff {
    int n;           /* fields that differ */
    size_t len;
    char text[6000]; /* the first of them, one a line */
};

static void note(struct diff *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(struct diff *d, const char *fmt, ...)
{
    if (d->n++ >= 40 || d->len + 2 >= sizeof d->text)
        return;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(d->text + d->len, sizeof d->text - d->len - 1, fmt, ap);
    va_end(ap);
    if (k < 0)
        return;
    d->len += (size_t)k < sizeof d->text - d->len - 1 ? (size_t)k : sizeof d->text - d->len - 2;
    d->text[d->len++] = '\n';
    d->text[d->len] = 0;
}

/* Integers and booleans by value, doubles bit for bit (NaN included). */
#define SAME_INT(name, x, y)                                                                  \
    do {                                                                                      \
        if ((x) != (y))                                                                       \
            note(d, "%s: %llu vs %llu", name, (unsigned long long)(x), (unsigned long long)(y)); \
    } while (0)
#define SAME_DBL(name, x, y)                                                                  \
    do {                                                                                      \
        double x_ = (x), y_ = (y);                                                            \
        if (memcmp(&x_, &y_, sizeof x_))                                                      \
            note(d, "%s: %.17g vs %.17g", name, x_, y_);                                      \
    } while (0)
#define INT_FIELD(f) SAME_INT(#f, a->f, b->f)
#define DBL_FIELD(f) SAME_DBL(#f, a->f, b->f)

static void diff_latency(struct diff *d, const char *what, const struct saturn_latency *x,
                         const struct saturn_latency *y)
{
    char name[64];
    snprintf(name, sizeof name, "%s.count", what);
    SAME_INT(name, x->count, y->count);
#define LAT(f)                                                                                \
    snprintf(name, sizeof name, "%s." #f, what);                                              \
    SAME_DBL(name, x->f, y->f)
    LAT(mean);
    LAT(min);
    LAT(p50);
    LAT(p99);
    LAT(max);
#undef LAT
}

/* Every field of the results but wall_seconds, peak_rss_kb (the simulator's
 * own) and threads (checked against sim.threads by same_with_counts);
 * pointers by what they point to. */
static void diff_results(struct diff *d, const struct saturn_results *a,
                         const struct saturn_results *b)
{
    if (!a->workload != !b->workload || (a->workload && strcmp(a->workload, b->workload)))
        note(d, "workload: %s vs %s", a->workload ? a->workload : "(null)",
             b->workload ? b->workload : "(null)");
    INT_FIELD(seed);
    INT_FIELD(nodes);
    INT_FIELD(routers);
    INT_FIELD(cycles);
    INT_FIELD(warmup);
    INT_FIELD(measure);
    DBL_FIELD(offered);
    DBL_FIELD(accepted);
    INT_FIELD(measured_packets);
    INT_FIELD(measured_delivered);
    INT_FIELD(drained);
    INT_FIELD(saturated);
    INT_FIELD(cut);
    if (strncmp(a->saturated_why, b->saturated_why, sizeof a->saturated_why))
        note(d, "saturated_why: '%.160s' vs '%.160s'", a->saturated_why, b->saturated_why);
    DBL_FIELD(backlog_growth);
    DBL_FIELD(critical_load);
    DBL_FIELD(critical_nominal);
    INT_FIELD(critical_cycle);
    INT_FIELD(collective_packets);
    INT_FIELD(collective_slices);
    INT_FIELD(slice_flits);
    INT_FIELD(duration);
    INT_FIELD(thickness);
    INT_FIELD(trace_messages);
    DBL_FIELD(message_latency_mean);
    INT_FIELD(nlinks);
    if (a->nlinks == b->nlinks && a->nlinks) {
        assert_true(a->links && b->links);
        for (size_t i = 0; i < a->nlinks; i++) {
            const struct saturn_link_stat *x = &a->links[i], *y = &b->links[i];
            if (x->router != y->router || x->port != y->port || x->first != y->first ||
                x->last != y->last || x->busy != y->busy) {
                note(d, "links[%zu]: router %u port %u first %llu last %llu busy %llu vs "
                        "router %u port %u first %llu last %llu busy %llu",
                     i, x->router, x->port, (unsigned long long)x->first,
                     (unsigned long long)x->last, (unsigned long long)x->busy, y->router,
                     y->port, (unsigned long long)y->first, (unsigned long long)y->last,
                     (unsigned long long)y->busy);
                break;
            }
        }
    }
    DBL_FIELD(misrouted_global);
    DBL_FIELD(misrouted_local);
    INT_FIELD(ngen);
    if (a->ngen == b->ngen && a->ngen) {
        assert_true(a->gen && b->gen);
        for (size_t i = 0; i < a->ngen; i++) {
            const struct saturn_gen_row *x = &a->gen[i], *y = &b->gen[i];
            int before = d->n;
            char name[64];
#define GEN_INT(f)                                                                            \
    snprintf(name, sizeof name, "gen[%zu]." #f, i);                                           \
    SAME_INT(name, x->f, y->f)
#define GEN_DBL(f)                                                                            \
    snprintf(name, sizeof name, "gen[%zu]." #f, i);                                           \
    SAME_DBL(name, x->f, y->f)
            GEN_INT(start);
            GEN_INT(packets);
            GEN_DBL(latency);
            GEN_DBL(misrouted_global);
            GEN_DBL(misrouted_local);
#undef GEN_INT
#undef GEN_DBL
            if (d->n != before)
                break; /* the first row that differs */
        }
    }
    diff_latency(d, "packet_latency", &a->packet_latency, &b->packet_latency);
    diff_latency(d, "network_latency", &a->network_latency, &b->network_latency);
    DBL_FIELD(hops_mean);
    DBL_FIELD(inflight_mean);
    DBL_FIELD(little_n);
    DBL_FIELD(little_lambda_n_tau);
    DBL_FIELD(source_queue_mean);
    DBL_FIELD(mobility_mean);
    DBL_FIELD(valid_per_router);
    DBL_FIELD(entropy_mean);
    DBL_FIELD(throttled_mean);
    DBL_FIELD(sums_age_mean);
    DBL_FIELD(sums_hops_free);
    DBL_FIELD(critical_drop);
    DBL_FIELD(critical_gradient);
    INT_FIELD(sums_age_max);
    INT_FIELD(recoveries);
    INT_FIELD(recovery_busy);
    INT_FIELD(metapackets);
    INT_FIELD(gathers);
    DBL_FIELD(gather_min);
    DBL_FIELD(gather_mean);
    DBL_FIELD(gather_max);
    INT_FIELD(hist_n);
    if (a->hist_n == b->hist_n && a->hist_n) {
        assert_true(a->hist && b->hist);
        for (size_t i = 0; i < a->hist_n; i++) {
            const struct saturn_bucket *x = &a->hist[i], *y = &b->hist[i];
            if (x->lo != y->lo || x->hi != y->hi || x->count != y->count) {
                note(d, "hist[%zu]: [%llu, %llu] x %llu vs [%llu, %llu] x %llu", i,
                     (unsigned long long)x->lo, (unsigned long long)x->hi,
                     (unsigned long long)x->count, (unsigned long long)y->lo,
                     (unsigned long long)y->hi, (unsigned long long)y->count);
                break;
            }
        }
    }
    INT_FIELD(flit_hops);
    INT_FIELD(router_cycles);
    /* not wall_seconds, peak_rss_kb, threads */
}

static void diff_series(struct diff *d, const struct rec *a, const struct rec *b)
{
    SAME_INT("series rows", a->nrows, b->nrows);
    size_t n = a->nrows < b->nrows ? a->nrows : b->nrows;
    for (size_t i = 0; i < n; i++) {
        const struct saturn_series_row *x = &a->rows[i], *y = &b->rows[i];
        int before = d->n;
        char name[64];
#define ROW_INT(f)                                                                            \
    snprintf(name, sizeof name, "series[%zu]." #f, i);                                        \
    SAME_INT(name, x->f, y->f)
#define ROW_DBL(f)                                                                            \
    snprintf(name, sizeof name, "series[%zu]." #f, i);                                        \
    SAME_DBL(name, x->f, y->f)
        ROW_INT(cycle);
        ROW_INT(inflight);
        ROW_INT(queued);
        ROW_DBL(valid_per_router);
        ROW_DBL(mobility);
        ROW_DBL(throttled);
        ROW_DBL(accepted);
        ROW_DBL(offered);
        ROW_DBL(latency);
        ROW_DBL(entropy);
        ROW_DBL(nominal);
        ROW_DBL(smoothed_offered);
        ROW_DBL(smoothed_accepted);
        ROW_DBL(smoothed_latency);
        ROW_DBL(threshold);
        ROW_DBL(estimate);
#undef ROW_INT
#undef ROW_DBL
        if (d->n != before)
            break; /* the first row that differs */
    }
}

static void diff_chart(struct diff *d, const struct rec *a, const struct rec *b)
{
    SAME_INT("chart recorded", a->chart, b->chart);
    if (!a->chart || !b->chart)
        return;
    const struct saturn_link_trace *x = &a->trace, *y = &b->trace;
    SAME_INT("chart links", x->links, y->links);
    SAME_INT("chart cycles", x->cycles, y->cycles);
    if (x->links != y->links || x->cycles != y->cycles)
        return;
    for (uint32_t l = 0; l < x->links; l++)
        if (x->router[l] != y->router[l] || x->port[l] != y->port[l]) {
            note(d, "chart link %u: router %u port %u vs router %u port %u", l, x->router[l],
                 x->port[l], y->router[l], y->port[l]);
            break;
        }
    size_t cells = (size_t)x->cycles * x->links;
    for (size_t i = 0; i < cells; i++)
        if (x->cell[i] != y->cell[i]) {
            note(d, "chart cell (cycle %zu, link %zu): %u vs %u", i / x->links, i % x->links,
                 x->cell[i], y->cell[i]);
            break;
        }
}

/* Everything two runs report: status and error, results, series, chart. */
static void diff_recs(struct diff *d, const struct rec *a, const struct rec *b)
{
    SAME_INT("status", a->rc, b->rc);
    SAME_INT("error code", a->err.code, b->err.code);
    if (strcmp(a->err.msg, b->err.msg))
        note(d, "error message:\n  %.1500s\nvs\n  %.1500s", a->err.msg, b->err.msg);
    diff_results(d, &a->r, &b->r);
    diff_series(d, a, b);
    diff_chart(d, a, b);
}

static void print_words(const char *const *kv)
{
    fprintf(stderr, "config:");
    for (; *kv; kv++)
        fprintf(stderr, " %s", *kv);
    fprintf(stderr, "\n");
}

/* Runs the words serially (sim.threads = 1) and with each of the counts;
 * each threaded run must report exactly what the serial one did, and run
 * on min(T, number of 64-router blocks) threads. All
 * counts run before the test fails, so the message lists every mismatch.
 * Returns the serial results, for checks that the run exercised what it is
 * meant to (caller frees). */
static struct saturn_results same_with_counts(const char *const *kv, bool chart,
                                              const int *counts, size_t ncounts)
{
    struct rec serial, par;
    record(kv, 1, chart, &serial);
    if (serial.rc) {
        print_words(kv);
        fail_msg("the serial run failed: %s", serial.err.msg);
    }
    int bad = 0;
    for (size_t i = 0; i < ncounts; i++) {
        record(kv, counts[i], chart, &par);
        struct diff d = {0};
        diff_recs(&d, &serial, &par);
        if (d.n) {
            print_words(kv);
            fprintf(stderr, "sim.threads=%d differs from sim.threads=1 in %d place(s) "
                            "(serial vs threaded):\n%s",
                    counts[i], d.n, d.text);
            bad++;
        }
        /* min(T, blocks of 64 routers) threads, in the results and (Linux) in
         * the process: the serial run's one and the workers */
        uint64_t blocks = (serial.r.routers + 63) / 64;
        int want = (uint64_t)counts[i] < blocks ? counts[i] : (int)blocks;
        if (serial.r.threads != 1 || par.r.threads != (uint32_t)want ||
            (serial.threads_seen && par.threads_seen - serial.threads_seen != want - 1)) {
            print_words(kv);
            fprintf(stderr, "%llu routers, sim.threads=%d: results.threads %u (serial %u), "
                            "process threads %d (serial %d); want %d\n",
                    (unsigned long long)serial.r.routers, counts[i], par.r.threads,
                    serial.r.threads, par.threads_seen, serial.threads_seen, want);
            bad++;
        }
        rec_free(&par);
    }
    struct saturn_results r = serial.r;
    memset(&serial.r, 0, sizeof serial.r);
    rec_free(&serial);
    if (bad)
        fail_msg("%d threaded run(s) differ from the serial one or ran on the wrong number "
                 "of threads (details above)", bad);
    return r;
}

static struct saturn_results same_at_every_count(const char *const *kv, bool chart)
{
    return same_with_counts(kv, chart, thread_counts,
                            sizeof thread_counts / sizeof thread_counts[0]);
}

/* Short steady windows (the networks are loaded at or past saturation, so
 * they fill within the warm-up). */
#define WINDOW "steady.warmup=200", "steady.measure=400", "steady.drain_max=300"

/* ---- tori and meshes ---------------------------------------------------- */

/* 16x16 torus (4 blocks), DOR wormhole past saturation, random ties, the
 * full audit every cycle. */
static void torus_dor_wormhole(void **state)
{
    (void)state;
    struct saturn_results r = same_at_every_count(
        (const char *const[]){"network.k=16", "traffic.flit_rate=0.25", "routing.tie=random",
                              "sim.check_invariants=true", WINDOW, NULL},
        false);
    assert_int_equal(r.routers, 256);
    assert_true(r.saturated);
    assert_true(r.accepted > 0.2);
    saturn_results_free(&r);
}

/* BookSim 2's iSLIP allocators, VC allocation stage and ring-entry datelines
 * on a 16x16 torus past saturation (the grant scratch is per thread). */
static void torus_islip(void **state)
{
    (void)state;
    struct saturn_results r = same_at_every_count(
        (const char *const[]){"network.k=16", "router.vcs=4", "router.sw_alloc=islip",
                              "router.vc_alloc=islip", "router.va_stage=true",
                              "routing.dateline=entry",
                              "traffic.uniform_self=true", "traffic.flit_rate=0.6",
                              "routing.tie=random", "sim.check_invariants=true", WINDOW, NULL},
        false);
    assert_true(r.saturated);
    saturn_results_free(&r);
}

/* Duato's adaptive routing: selection ties at random from the routers'
 * streams, escape VCs, atomic VC allocation. */
static void torus_duato(void **state)
{
    (void)state;
    struct saturn_results r = same_at_every_count(
        (const char *const[]){"network.k=16", "routing.algorithm=duato", "traffic.flit_rate=0.3",
                              WINDOW, NULL},
        false);
    assert_true(r.accepted > 0.15);
    saturn_results_free(&r);
}

/* Virtual cut-through with output buffers, a crossbar and a routing delay,
 * internal speedup, and packet-ordered unlimited output buffers with the
 * minimal adaptive table routing. */
static void torus_vct_output_buffers(void **state)
{
    (void)state;
    struct saturn_results r = same_at_every_count(
        (const char *const[]){"network.k=16", "router.switching=vct", "router.buf_flits=16",
                              "router.out_buf_flits=16", "router.xbar_delay=2",
                              "router.route_delay=1", "router.speedup=2",
                              "traffic.flit_rate=0.35", WINDOW, NULL},
        false);
    assert_true(r.accepted > 0.25);
    saturn_results_free(&r);
    r = same_at_every_count(
        (const char *const[]){"network.k=16", "router.switching=vct", "router.buf_flits=16",
                              "router.out_buf_unlimited=true", "router.output_order=packet",
                              "routing.algorithm=table_min", "router.xbar_delay=1",
                              "traffic.flit_rate=0.35", WINDOW, NULL},
        false);
    assert_true(r.accepted > 0.25);
    saturn_results_free(&r);
}

/* 16x12 mesh (3 blocks), central arbiters with a routing delay. */
static void mesh_16x12(void **state)
{
    (void)state;
    struct saturn_results r = same_at_every_count(
        (const char *const[]){"network.topology=mesh", "network.k=16,12",
                              "router.arbiter=central", "router.route_delay=1",
                              "traffic.flit_rate=0.3", WINDOW, NULL},
        false);
    assert_int_equal(r.routers, 192);
    assert_true(r.accepted > 0.15);
    saturn_results_free(&r);
}

/* No ejection or crossbar delay: flits reach their nodes (and the delivery
 * callback runs) inside the routers' stage. */
static void eject_in_router_stage(void **state)
{
    (void)state;
    struct saturn_results r = same_at_every_count(
        (const char *const[]){"network.k=16", "router.eject_latency=0", "router.xbar_delay=0",
                              "traffic.flit_rate=0.25", "traffic.source_queue=4", WINDOW, NULL},
        false);
    assert_true(r.accepted > 0.2);
    saturn_results_free(&r);
}

/* Collectives: every packet at once, then sliced with staggered releases;
 * per-link records and the link chart, with delivery in the routers' stage
 * in the first. */
static void collective(void **state)
{
    (void)state;
    struct saturn_results r = same_at_every_count(
        (const char *const[]){"network.k=16", "sim.workload=collective", "collective.packets=4",
                              "traffic.pattern=bitrev", "router.eject_latency=0", NULL},
        true);
    assert_int_equal(r.measured_delivered, 256 * 4);
    assert_true(r.nlinks > 0 && r.thickness > 0);
    saturn_results_free(&r);
    /* the switch held for a packet (router.sw_hold): holds are a router's own */
    r = same_at_every_count(
        (const char *const[]){"network.k=16", "sim.workload=collective", "collective.packets=4",
                              "traffic.pattern=bitrev", "router.sw_hold=true", NULL},
        true);
    assert_int_equal(r.measured_delivered, 256 * 4);
    saturn_results_free(&r);
    r = same_at_every_count(
        (const char *const[]){"network.k=16", "router.buf_flits=4",
                              "routing.dateline=cumulative", "sim.workload=collective",
                              "collective.packets=2", "collective.payload=14",
                              "collective.slices=2", "collective.interval=30",
                              "traffic.pattern=uniform", NULL},
        true);
    assert_int_equal(r.measured_delivered, 256 * 2 * 2);
    saturn_results_free(&r);
}

/* Injection control: entropy throttling with random guard times and its
 * information on the data links (vcc), and At-Least-One, past saturation. */
static void injection_control(void **state)
{
    (void)state;
    struct saturn_results r = same_at_every_count(
        (const char *const[]){"network.k=16", "control.model=gt.a", "entropy.info=vcc",
                              "traffic.flit_rate=0.4", WINDOW, NULL},
        false);
    assert_true(r.throttled_mean > 0);
    saturn_results_free(&r);
    r = same_at_every_count((const char *const[]){"network.k=16", "control.model=alo",
                                                  "traffic.flit_rate=0.4", WINDOW, NULL},
                            false);
    assert_true(r.throttled_mean > 0);
    saturn_results_free(&r);
}

/* Disha: time-outs, the token's walk and the recovery lane. */
static void disha_recovery(void **state)
{
    (void)state;
    struct saturn_results r = same_at_every_count(
        (const char *const[]){"network.k=16", "routing.algorithm=disha", "router.vcs=2",
                              "router.buf_flits=4", "traffic.flit_rate=0.3", WINDOW, NULL},
        false);
    assert_true(r.recoveries > 0);
    saturn_results_free(&r);
}

/* Metapacket gathering on the data network feeding the self-tuned
 * threshold (and the audit of the meta VCs). */
static void metapacket_selftune(void **state)
{
    (void)state;
    struct saturn_results r = same_at_every_count(
        (const char *const[]){"network.k=16", "control.model=selftune", "gather.mode=metapacket",
                              "traffic.flit_rate=0.4", "sim.check_invariants=true", WINDOW,
                              NULL},
        false);
    assert_true(r.metapackets && r.gathers > 0);
    assert_true(r.throttled_mean > 0);
    saturn_results_free(&r);
}

/* More threads than blocks: the extra ones idle. */
static void more_threads_than_blocks(void **state)
{
    (void)state;
    struct saturn_results r = same_with_counts(
        (const char *const[]){"network.k=16", "traffic.flit_rate=0.25", WINDOW, NULL}, false,
        (const int[]){8}, 1);
    saturn_results_free(&r);
    r = same_with_counts((const char *const[]){"network.k=4", "traffic.flit_rate=0.4", WINDOW,
                                               NULL},
                         false, (const int[]){2, 256}, 2);
    saturn_results_free(&r);
}

/* ---- Dragonfly ------------------------------------------------------------ */

/* p = 2, a = 8, h = 4: 33 groups of 8, 264 routers (4 blocks and a
 * partial one), 528 nodes; paper 004's router with shorter links. */
static void dragonfly(const char *routing, const char *pattern, const char *rate,
                      const char *extra1, const char *extra2)
{
    char alg[64];
    snprintf(alg, sizeof alg, "routing.algorithm=%s", routing);
    const char *kv[] = {"network.topology=dragonfly", "dragonfly.p=2", "dragonfly.a=8",
                        "dragonfly.h=4", "dragonfly.local_latency=2", "dragonfly.global_latency=8",
                        "dragonfly.global_buf_flits=32", "router.switching=vct",
                        "router.buf_flits=16", "router.out_buf_flits=16", "router.speedup=2",
                        "router.route_delay=1", "router.xbar_delay=1", "steady.warmup=150",
                        "steady.measure=250", "steady.drain_max=200", alg, pattern, rate,
                        extra1, extra2, NULL};
    bool adversarial = strstr(pattern, "adversarial") != NULL;
    struct saturn_results r = same_at_every_count(kv, false);
    assert_int_equal(r.routers, 264);
    assert_true(r.measured_delivered > 200);
    assert_true(r.saturated || adversarial); /* uniform: past saturation */
    /* the nonminimal policies misroute, ADV+1 traffic mostly */
    if (strcmp(routing, "min"))
        assert_true(r.misrouted_global > (adversarial ? 0.5 : 0.01));
    saturn_results_free(&r);
}

static void dragonfly_both(const char *routing, const char *extra1, const char *extra2)
{
    dragonfly(routing, "traffic.pattern=uniform", "traffic.flit_rate=0.85", extra1, extra2);
    dragonfly(routing, "traffic.pattern=adversarial", "traffic.flit_rate=0.4", extra1, extra2);
}

static void dragonfly_min(void **state)
{
    (void)state;
    dragonfly_both("min", "sim.check_invariants=true", NULL);
}

static void dragonfly_ugal(void **state)
{
    (void)state;
    dragonfly_both("ugal", NULL, NULL);
}

static void dragonfly_pb(void **state)
{
    (void)state;
    dragonfly_both("pb", NULL, NULL);
}

static void dragonfly_olm(void **state)
{
    (void)state;
    dragonfly_both("olm", NULL, NULL);
}

static void dragonfly_base(void **state)
{
    (void)state;
    dragonfly_both("base", "base.threshold=2", NULL);
}

static void dragonfly_ectn(void **state)
{
    (void)state;
    dragonfly_both("ectn", "ectn.threshold=2", "ectn.period=20");
}

/* Valiant and Hybrid (counters and occupancy) on the same network. */
static void dragonfly_val_hybrid(void **state)
{
    (void)state;
    dragonfly_both("val", NULL, NULL);
    dragonfly_both("hybrid", "hybrid.threshold=3", NULL);
}

/* Duato behind a central arbiter, and unlimited buffers on a 13x13 mesh
 * (169 routers: the last 64-router block is partial). */
static void central_duato_and_unlimited(void **state)
{
    (void)state;
    struct saturn_results r = same_at_every_count(
        (const char *const[]){"network.k=16", "routing.algorithm=duato", "router.arbiter=central",
                              "router.route_delay=1", "traffic.flit_rate=0.3", WINDOW, NULL},
        false);
    assert_true(r.accepted > 0.15);
    saturn_results_free(&r);
    r = same_at_every_count(
        (const char *const[]){"network.topology=mesh", "network.k=13", "router.switching=unlimited",
                              "router.buf_flits=0", "traffic.flit_rate=0.4", WINDOW, NULL},
        false);
    assert_int_equal(r.routers, 169);
    saturn_results_free(&r);
}

/* ---- the comparison can fail -------------------------------------------- */

/* Two seeds give different runs, and a change anywhere (a scalar, a double's
 * last bit, a histogram bucket, a row by generation, a link record, a
 * series row, a chart cell, the error) is caught. */
static void comparison_detects_differences(void **state)
{
    (void)state;
    const char *const kv[] = {"network.k=8", "traffic.flit_rate=0.3", "steady.warmup=200",
                              "steady.measure=400", NULL};
    const char *const kv2[] = {"network.k=8", "traffic.flit_rate=0.3", "steady.warmup=200",
                               "steady.measure=400", "sim.seed=2", NULL};
    struct rec a, b;
    struct diff d = {0};
    record(kv, 1, false, &a);
    record(kv, 1, false, &b);
    assert_int_equal(a.rc, SATURN_OK);
    diff_recs(&d, &a, &b); /* the same seed: the same run */
    assert_int_equal(d.n, 0);
    rec_free(&b);
    record(kv2, 1, false, &b);
    diff_recs(&d, &a, &b);
    assert_true(d.n > 0);
    assert_non_null(strstr(d.text, "seed: 1 vs 2"));
    assert_non_null(strstr(d.text, "packet_latency"));
    rec_free(&b);

#define CAUGHT(change, field)                                                                 \
    do {                                                                                      \
        record(kv, 1, false, &b);                                                             \
        change;                                                                               \
        memset(&d, 0, sizeof d);                                                              \
        diff_recs(&d, &a, &b);                                                                \
        if (d.n != 1 || !strstr(d.text, field))                                               \
            fail_msg("%s: %d differences: %s", #change, d.n, d.text);                         \
        rec_free(&b);                                                                         \
    } while (0)
    assert_true(a.r.hist_n > 1 && a.r.ngen > 1 && a.nrows > 1);
    CAUGHT(b.r.flit_hops++, "flit_hops");
    CAUGHT(b.r.saturated = !b.r.saturated, "saturated");
    CAUGHT(b.r.cut = !b.r.cut, "cut");
    CAUGHT(b.r.saturated_why[0] ^= 1, "saturated_why");
    CAUGHT(b.r.workload = "other", "workload");
    CAUGHT(b.r.accepted = nextafter(b.r.accepted, 1e9), "accepted");
    CAUGHT(b.r.network_latency.p99 = nextafter(b.r.network_latency.p99, 1e9),
           "network_latency.p99");
    CAUGHT(b.r.hist[b.r.hist_n - 1].count++, "hist[");
    CAUGHT(b.r.hist_n--, "hist_n");
    CAUGHT(b.r.gen[1].latency = nextafter(b.r.gen[1].latency, 1e9), "gen[1].latency");
    CAUGHT(b.rows[1].mobility = nextafter(b.rows[1].mobility, 1e9), "series[1].mobility");
    CAUGHT(b.nrows--, "series rows");
    CAUGHT(b.r.wall_seconds += 1; b.r.peak_rss_kb += 1; b.r.threads++; b.r.router_cycles++,
           "router_cycles");
    CAUGHT(b.rc = SATURN_EDEADLOCK, "status");
    CAUGHT(snprintf(b.err.msg, sizeof b.err.msg, "x"), "error message");
    rec_free(&a);

    /* a collective's link records and chart */
    const char *const coll[] = {"network.k=4", "sim.workload=collective", "collective.packets=2",
                                NULL};
    record(coll, 1, true, &a);
    assert_int_equal(a.rc, SATURN_OK);
    assert_true(a.r.nlinks > 0 && a.chart && a.trace.cycles > 0);
    record(coll, 1, true, &b);
    memset(&d, 0, sizeof d);
    diff_recs(&d, &a, &b);
    assert_int_equal(d.n, 0);
    rec_free(&b);
#undef CAUGHT
#define CAUGHT(change, field)                                                                 \
    do {                                                                                      \
        record(coll, 1, true, &b);                                                            \
        change;                                                                               \
        memset(&d, 0, sizeof d);                                                              \
        diff_recs(&d, &a, &b);                                                                \
        if (d.n != 1 || !strstr(d.text, field))                                               \
            fail_msg("%s: %d differences: %s", #change, d.n, d.text);                         \
        rec_free(&b);                                                                         \
    } while (0)
    CAUGHT(b.r.links[b.r.nlinks - 1].busy++, "links[");
    CAUGHT(b.trace.cell[b.trace.cycles * b.trace.links / 2] ^= 1, "chart cell");
    CAUGHT(b.trace.port[0] ^= 1, "chart link 0");
#undef CAUGHT
    rec_free(&a);
}

/* ---- the watchdog ----------------------------------------------------------- */

/* Deadlocks over several blocks (a 16x16 torus and a 200-router ring, one
 * VC, no datelines): the same error, cycle and wait-for report with any
 * thread count. */
static void watchdog_same_report(void **state)
{
    (void)state;
    const char *const torus[] = {"network.k=16", "router.vcs=1", "routing.dateline=none",
                                 "debug.allow_deadlock=true", "traffic.flit_rate=0.9",
                                 "router.buf_flits=2", "sim.watchdog=200", NULL};
    const char *const ring[] = {"network.k=200", "network.n=1", "router.vcs=1",
                                "routing.dateline=none", "debug.allow_deadlock=true",
                                "traffic.flit_rate=0.9", "router.buf_flits=2",
                                "sim.watchdog=200", NULL};
    const char *const *cases[] = {torus, ring};
    for (size_t c = 0; c < 2; c++) {
        struct rec serial, par;
        record(cases[c], 1, false, &serial);
        assert_int_equal(serial.rc, SATURN_EDEADLOCK);
        assert_int_equal(serial.err.code, SATURN_EDEADLOCK);
        assert_non_null(strstr(serial.err.msg, "deadlock"));
        if (c == 0) /* the ring's report is cut before its cycle */
            assert_non_null(strstr(serial.err.msg, "wait-for cycle"));
        for (size_t i = 0; i < sizeof thread_counts / sizeof thread_counts[0]; i++) {
            record(cases[c], thread_counts[i], false, &par);
            if (par.rc != serial.rc || par.err.code != serial.err.code ||
                strcmp(par.err.msg, serial.err.msg)) {
                print_words(cases[c]);
                fail_msg("sim.threads=%d: status %d, error %d:\n%s\nserial: status %d, "
                         "error %d:\n%s",
                         thread_counts[i], par.rc, par.err.code, par.err.msg, serial.rc,
                         serial.err.code, serial.err.msg);
            }
            struct diff d = {0};
            diff_series(&d, &serial, &par); /* the cycles before it, too */
            if (d.n) {
                print_words(cases[c]);
                fail_msg("sim.threads=%d: the time series differs:\n%s", thread_counts[i], d.text);
            }
            rec_free(&par);
        }
        rec_free(&serial);
    }
}

/* ---- bad input ------------------------------------------------------------ */

/* 0 and 1000 are refused (when the value is set or when the run starts)
 * with an error naming the key; 1 and 256 are accepted. */
static void bad_thread_counts(void **state)
{
    (void)state;
    const char *const bad[] = {"sim.threads=0", "sim.threads=1000", "sim.threads=-1"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct saturn_config *c = test_config((const char *const[]){"network.k=4", NULL});
        struct saturn_error err = {0};
        int rc = saturn_config_apply_arg(c, bad[i], &err);
        if (rc == SATURN_OK) { /* accepted as a value: the run must refuse it */
            struct saturn_results r;
            rc = saturn_run(c, &r, &err);
            saturn_results_free(&r);
        }
        if (rc != SATURN_EINPUT)
            fail_msg("%s: status %d (want SATURN_EINPUT): %s", bad[i], rc, err.msg);
        if (!strstr(err.msg, "sim.threads") || strstr(err.msg, "unknown key"))
            fail_msg("%s: the error does not name a known key sim.threads: %s", bad[i], err.msg);
        saturn_config_free(c);
    }
    const char *const good[] = {"sim.threads=1", "sim.threads=256"};
    for (size_t i = 0; i < 2; i++) {
        struct saturn_config *c = test_config((const char *const[]){"network.k=4", good[i], NULL});
        assert_int_equal(saturn_config_int(c, "sim.threads"), i == 0 ? 1 : 256);
        saturn_config_free(c);
    }
    /* the default is 1 */
    struct saturn_config *c = test_config((const char *const[]){NULL});
    assert_int_equal(saturn_config_int(c, "sim.threads"), 1);
    saturn_config_free(c);
}

/* ---- huge pages (sim.huge_pages) ------------------------------------------ */

/* BookSim's 1,056-node Dragonfly of bench/peers.sh (256-flit rings: the
 * rings' slab, 24 MB, and the routing lines are past NET_HUGE_FROM, so they
 * are advised as huge pages) reports the same with sim.huge_pages on and
 * off: a hint to the kernel, nothing a result reads. */
static void huge_pages_same(void **state)
{
    (void)state;
#define DF_PEERS "network.topology=dragonfly", "dragonfly.p=4", "dragonfly.a=8", "dragonfly.h=4", \
    "dragonfly.arrangement=consecutive", "dragonfly.local_latency=10",                          \
    "dragonfly.global_latency=100", "router.buf_flits=256", "dragonfly.global_buf_flits=256",    \
    "router.vc_alloc=islip", "router.sw_alloc=islip", "router.va_stage=true",                    \
    "routing.algorithm=booksim_min", "traffic.packet_length=16", "traffic.flit_rate=0.25", WINDOW
    struct rec a, b;
    record_words((const char *const[]){DF_PEERS, "sim.huge_pages=on", NULL}, 0, false, false, &a);
    record_words((const char *const[]){DF_PEERS, "sim.huge_pages=off", NULL}, 0, false, false,
                 &b);
#undef DF_PEERS
    struct diff d = {0};
    diff_recs(&d, &a, &b);
    if (d.n)
        fail_msg("sim.huge_pages on and off differ in %d place(s):\n%s", d.n, d.text);
    assert_true(a.r.measured_delivered > 100);
    rec_free(&a);
    rec_free(&b);
}

/* ---- blocks of cycles (sim.block_cycles) ----------------------------------- */

/* kv stepped cycle by cycle (sim.block_cycles = 0) and in blocks (the
 * default) reports the same (without a time series, which reads every
 * cycle and so turns blocks off; packet ids differ, and nothing may
 * depend on them); the blocks took at least min_blocked cycles. Returns
 * the block run's results. */
static struct saturn_results same_in_blocks(const char *const *kv, uint64_t min_blocked)
{
    const char *k0[64];
    size_t n = 0;
    for (; kv[n]; n++)
        k0[n] = kv[n];
    assert_true(n < 63);
    k0[n] = "sim.block_cycles=0";
    k0[n + 1] = NULL;
    struct rec a, b;
    record_words(k0, 0, false, false, &a);
    record_words(kv, 0, false, false, &b);
    struct diff d = {0};
    diff_recs(&d, &a, &b);
    if (d.n) {
        print_words(kv);
        fail_msg("blocks of cycles differ from cycle by cycle in %d place(s):\n%s", d.n, d.text);
    }
    if (a.r.block_cycles != 0 || b.r.block_cycles < min_blocked) {
        print_words(kv);
        fail_msg("block_cycles %llu (cycle by cycle) and %llu (blocks) of %llu cycles; want 0 "
                 "and at least %llu",
                 (unsigned long long)a.r.block_cycles, (unsigned long long)b.r.block_cycles,
                 (unsigned long long)b.r.cycles, (unsigned long long)min_blocked);
    }
    struct saturn_results r = b.r;
    memset(&b.r, 0, sizeof b.r);
    rec_free(&a);
    rec_free(&b);
    return r;
}

/* The 264-router Dragonfly (5 partitions of 64) with paper 004's router
 * and its 10- and 100-cycle links (blocks of 16 cycles), and with the
 * short links above (8-cycle global links: blocks of 7). */
#define DF_BLOCKS "network.topology=dragonfly", "routing.algorithm=base", "dragonfly.p=2", \
    "dragonfly.a=8", "dragonfly.h=4", \
    "dragonfly.global_buf_flits=64", "router.switching=vct", "router.buf_flits=16",              \
    "router.out_buf_flits=16", "router.speedup=2", "router.route_delay=4", "router.xbar_delay=1"
#define DF_LONG "dragonfly.local_latency=10", "dragonfly.global_latency=100"
#define DF_SHORT "dragonfly.local_latency=2", "dragonfly.global_latency=8"
/* BookSim's input-queued router (the peers' pair, bench/peers.sh): iSLIP
 * allocation with its VC stage, no output buffers, BookSim's MIN */
#define DF_IQ "router.out_buf_flits=0", "router.speedup=1", "router.switching=wormhole",       \
    "router.vc_alloc=islip", "router.sw_alloc=islip", "router.va_stage=true",                  \
    "routing.algorithm=booksim_min"

static void blocks_dragonfly_routings(void **state)
{
    (void)state;
    const char *const routings[] = {"routing.algorithm=base", "routing.algorithm=min",
                                    "routing.algorithm=ugal", "routing.algorithm=val",
                                    "routing.algorithm=olm", "routing.algorithm=hybrid"};
    for (size_t i = 0; i < sizeof routings / sizeof *routings; i++) {
        struct saturn_results r = same_in_blocks(
            (const char *const[]){DF_BLOCKS, DF_LONG, routings[i], "traffic.pattern=adversarial",
                                  "traffic.flit_rate=0.3", "steady.warmup=300",
                                  "steady.measure=400", NULL},
            600);
        assert_true(r.measured_delivered > 600);
        saturn_results_free(&r);
    }
}

/* Appends extra's words (up to n, NULL ends them early) to the NULL-ended
 * list kv of cap entries. */
static void words_append(const char **kv, size_t cap, const char *const *extra, size_t n)
{
    size_t m = 0;
    while (kv[m])
        m++;
    for (size_t k = 0; k < n && extra[k]; k++) {
        assert_true(m + 1 < cap);
        kv[m++] = extra[k];
    }
    kv[m] = NULL;
}

/* Past saturation (the drain runs cycle by cycle), short links, wormhole,
 * one-flit packets, a window not a multiple of the block, the growth fitted
 * over a longer span, the window by delivery, bursts, short entropy windows,
 * the phases workload (a pattern change, paper 004's transients),
 * BookSim's input-queued router. */
static void blocks_dragonfly_variants(void **state)
{
    (void)state;
    const char *const variants[][7] = {
        {"traffic.flit_rate=0.9", "steady.drain_max=300", NULL},
        {DF_SHORT, "traffic.flit_rate=0.5"},
        {"router.switching=wormhole", "traffic.flit_rate=0.5", NULL},
        {"traffic.packet_length=1", "traffic.flit_rate=0.5", NULL},
        {"steady.warmup=233", "steady.measure=371"},
        {"steady.trend_from=0.5", "traffic.flit_rate=0.6", NULL},
        {"steady.measure_by=delivery", "traffic.flit_rate=0.6", NULL},
        {"traffic.process=onoff", "traffic.burst_alpha=0.05", "traffic.burst_beta=0.2"},
        {"sim.entropy_window=7", "sim.seed=5", NULL},
        {"sim.workload=phases", "phases.list=250:0.3:uniform,300:0.3:adversarial,150:0.6:uniform",
         "phases.warmup=150"},
        {DF_IQ},
    };
    for (size_t i = 0; i < sizeof variants / sizeof *variants; i++) {
        /* (a variant's words come later and win) */
        const char *kv[32] = {DF_BLOCKS, DF_LONG, "traffic.flit_rate=0.4", "steady.warmup=300",
                              "steady.measure=400", "routing.algorithm=base"};
        words_append(kv, 32, variants[i], 7);
        struct saturn_results r = same_in_blocks(kv, 300);
        saturn_results_free(&r);
    }
}

/* Blocks on several threads (sim.threads > 1, net/block.c): each thread
 * steps its partitions' block, and the result is the one-thread block
 * run's, field for field (that one is cycle by cycle's: above), on
 * min(T, partitions) threads, with the same cycles in blocks: Base
 * adversarial, MIN past saturation with the drain, short links (blocks
 * of 7), the phases workload, BookSim's router. It fails when a partition
 * reads the network's cycle (n->now) instead of its own in a block. */
static void blocks_on_threads(void **state)
{
    (void)state;
    const char *const cases[][8] = {
        {"routing.algorithm=base", "traffic.pattern=adversarial", NULL},
        {"routing.algorithm=min", "traffic.flit_rate=0.9", "steady.drain_max=300"},
        {DF_SHORT, "traffic.flit_rate=0.5"},
        {"sim.workload=phases", "phases.list=250:0.3:uniform,300:0.3:adversarial,150:0.6:uniform",
         "phases.warmup=150"},
        {DF_IQ, "traffic.flit_rate=0.5"},
    };
    int bad = 0;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const char *kv[32] = {DF_BLOCKS, DF_LONG, "traffic.flit_rate=0.3", "steady.warmup=300",
                              "steady.measure=400", "routing.algorithm=base"};
        words_append(kv, 32, cases[i], 8);
        struct rec one, par;
        record_words(kv, 1, false, false, &one);
        if (one.rc || one.r.block_cycles < 300) {
            print_words(kv);
            fail_msg("one thread: rc %d (%s), %llu cycles in blocks", one.rc, one.err.msg,
                     (unsigned long long)one.r.block_cycles);
        }
        /* (2 and 3: equal and unequal shares of the 5 partitions; the
         * sanitizers' build runs this suite slowly) */
        for (size_t t = 0; t < 2; t++) {
            record_words(kv, thread_counts[t], false, false, &par);
            struct diff d = {0};
            diff_recs(&d, &one, &par);
            const uint64_t parts = (one.r.routers + 63) / 64;
            const uint32_t want = (uint64_t)thread_counts[t] < parts ? (uint32_t)thread_counts[t]
                                                                    : (uint32_t)parts;
            if (d.n || par.r.block_cycles != one.r.block_cycles || par.r.threads != want) {
                print_words(kv);
                fprintf(stderr, "sim.threads=%d: %d difference(s) from one thread, %llu cycles "
                                "in blocks (one thread %llu), %u threads (want %u):\n%s",
                        thread_counts[t], d.n, (unsigned long long)par.r.block_cycles,
                        (unsigned long long)one.r.block_cycles, par.r.threads, want, d.text);
                bad++;
            }
            rec_free(&par);
        }
        rec_free(&one);
    }
    if (bad)
        fail_msg("%d block run(s) on threads differ from one thread (details above)", bad);
}

/* Where blocks would be wrong they are not used: a packet-ordered output
 * (ids break its ties), the audit, a controller, global links
 * shorter than the short wheel, a torus's 1-cycle links, sim.block_cycles
 * = 1. Their results are the cycle-by-cycle ones, since nothing runs in
 * blocks; a time series keeps every cycle too. */
static void blocks_not_used(void **state)
{
    (void)state;
    const char *const off[][3] = {
        {"router.output_order=packet", "router.out_buf_unlimited=true", "router.out_buf_flits=0"},
        {"sim.check_invariants=true"},
        {"control.model=static"},
        {"dragonfly.global_latency=3"},
        {"sim.block_cycles=1"},
    };
    for (size_t i = 0; i < sizeof off / sizeof *off; i++) {
        struct rec x;
        record_words((const char *const[]){DF_BLOCKS, DF_LONG, "traffic.flit_rate=0.3",
                                           "steady.warmup=100", "steady.measure=100", off[i][0],
                                           off[i][1], off[i][2], NULL},
                     0, false, false, &x);
        if (x.rc)
            fail_msg("%s: %s", off[i][0], x.err.msg);
        if (x.r.block_cycles)
            fail_msg("%s: %llu cycles in blocks", off[i][0], (unsigned long long)x.r.block_cycles);
        rec_free(&x);
    }
    struct rec x;
    record_words((const char *const[]){"network.k=16", "traffic.flit_rate=0.3",
                                       "steady.warmup=100", "steady.measure=100", NULL},
                 0, false, false, &x);
    assert_int_equal(x.rc, SATURN_OK);
    assert_int_equal(x.r.block_cycles, 0);
    rec_free(&x);
    record_words((const char *const[]){DF_BLOCKS, DF_LONG, "traffic.flit_rate=0.3",
                                       "steady.warmup=100", "steady.measure=100", NULL},
                 0, false, true, &x);
    assert_int_equal(x.rc, SATURN_OK);
    assert_int_equal(x.r.block_cycles, 0);
    rec_free(&x);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bad_thread_counts),
        cmocka_unit_test(comparison_detects_differences),
        cmocka_unit_test(torus_dor_wormhole),
        cmocka_unit_test(torus_duato),
        cmocka_unit_test(torus_islip),
        cmocka_unit_test(torus_vct_output_buffers),
        cmocka_unit_test(mesh_16x12),
        cmocka_unit_test(eject_in_router_stage),
        cmocka_unit_test(collective),
        cmocka_unit_test(injection_control),
        cmocka_unit_test(disha_recovery),
        cmocka_unit_test(metapacket_selftune),
        cmocka_unit_test(more_threads_than_blocks),
        cmocka_unit_test(dragonfly_min),
        cmocka_unit_test(dragonfly_ugal),
        cmocka_unit_test(dragonfly_pb),
        cmocka_unit_test(dragonfly_olm),
        cmocka_unit_test(dragonfly_base),
        cmocka_unit_test(dragonfly_ectn),
        cmocka_unit_test(dragonfly_val_hybrid),
        cmocka_unit_test(central_duato_and_unlimited),
        cmocka_unit_test(watchdog_same_report),
        cmocka_unit_test(blocks_dragonfly_routings),
        cmocka_unit_test(blocks_dragonfly_variants),
        cmocka_unit_test(blocks_not_used),
        cmocka_unit_test(huge_pages_same),
        cmocka_unit_test(blocks_on_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
