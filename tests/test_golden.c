/* Golden results: a set of small configurations whose every result is
 * recorded in tests/golden/<name>.txt and must come out exactly the same.
 * Speed work on the engine (issue 21) must change nothing observable; this
 * is the tripwire. Each file holds every field of struct saturn_results
 * (doubles to 17 significant digits, which round-trip exactly), the rows
 * by generation, the per-link records, the latency histogram and the time
 * series, one value or one row a line, so that `git diff` shows what moved.
 * Each configuration runs with sim.vc_runs on and with it off (a speed hint:
 * an input VC's flits as runs or in its ring), both against the one file.
 *
 * A deliberate change of behaviour (a bug fix, a new default) is recorded
 * by regenerating the files and committing them with the change:
 *     SATURN_GOLDEN_UPDATE=1 build/tests/test_golden
 * (scripts/golden-update.sh does that after a build); then read the diff. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "saturn/io.h"
#include "support.h"

/* A new field must be written below (then update the size). LP64 sizes. */
#if defined(__LP64__)
_Static_assert(sizeof(struct saturn_results) == 720,
               "struct saturn_results changed: write the new field in dump_results");
_Static_assert(sizeof(struct saturn_latency) == 48, "write the new field in dump_latency");
_Static_assert(sizeof(struct saturn_bucket) == 24, "write the new field in dump_results");
_Static_assert(sizeof(struct saturn_link_stat) == 32, "write the new field in dump_results");
_Static_assert(sizeof(struct saturn_gen_row) == 40, "write the new field in dump_results");
_Static_assert(sizeof(struct saturn_series_row) == 128, "write the new field in on_row");
#endif

enum { GEN_BIN = 50, SERIES_INTERVAL = 25 };

/* ---- the text of one run -------------------------------------------------- */

struct text {
    char *s;
    size_t len, cap;
};

static void put(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct text *t, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int k = vsnprintf(t->s + t->len, t->cap - t->len, fmt, ap);
        va_end(ap);
        assert_true(k >= 0);
        if ((size_t)k < t->cap - t->len) {
            t->len += (size_t)k;
            return;
        }
        t->cap = 2 * t->cap + (size_t)k + 1;
        t->s = realloc(t->s, t->cap);
        assert_non_null(t->s);
    }
}

#define U(name, v) put(t, "%s %llu\n", name, (unsigned long long)(v))
#define D(name, v) put(t, "%s %.17g\n", name, (double)(v))

static void dump_latency(struct text *t, const char *what, const struct saturn_latency *l)
{
    put(t, "%s count %llu mean %.17g min %.17g p50 %.17g p99 %.17g max %.17g\n", what,
        (unsigned long long)l->count, l->mean, l->min, l->p50, l->p99, l->max);
}

/* Every field but wall_seconds and peak_rss_kb (the simulator's own). */
static void dump_results(struct text *t, const struct saturn_results *r)
{
    put(t, "workload %s\n", r->workload ? r->workload : "(null)");
    U("seed", r->seed);
    U("nodes", r->nodes);
    U("routers", r->routers);
    U("cycles", r->cycles);
    U("warmup", r->warmup);
    U("measure", r->measure);
    D("offered", r->offered);
    D("accepted", r->accepted);
    U("measured_packets", r->measured_packets);
    U("measured_delivered", r->measured_delivered);
    U("drained", r->drained);
    U("saturated", r->saturated);
    put(t, "saturated_why %.*s\n", (int)sizeof r->saturated_why, r->saturated_why);
    D("backlog_growth", r->backlog_growth);
    D("critical_load", r->critical_load);
    D("critical_nominal", r->critical_nominal);
    U("critical_cycle", r->critical_cycle);
    U("collective_packets", r->collective_packets);
    U("collective_slices", r->collective_slices);
    U("slice_flits", r->slice_flits);
    U("duration", r->duration);
    U("thickness", r->thickness);
    U("nlinks", r->nlinks);
    for (size_t i = 0; i < r->nlinks; i++)
        put(t, "link %u %u first %llu last %llu busy %llu\n", r->links[i].router,
            r->links[i].port, (unsigned long long)r->links[i].first,
            (unsigned long long)r->links[i].last, (unsigned long long)r->links[i].busy);
    D("misrouted_global", r->misrouted_global);
    D("misrouted_local", r->misrouted_local);
    U("cut", r->cut);
    D("critical_drop", r->critical_drop);
    D("critical_gradient", r->critical_gradient);
    D("sums_age_mean", r->sums_age_mean);
    U("sums_age_max", r->sums_age_max);
    D("sums_hops_free", r->sums_hops_free);
    U("trace_messages", r->trace_messages);
    D("message_latency_mean", r->message_latency_mean);
    U("ngen", r->ngen);
    for (size_t i = 0; i < r->ngen; i++)
        put(t, "gen %llu packets %llu latency %.17g misrouted %.17g %.17g\n",
            (unsigned long long)r->gen[i].start, (unsigned long long)r->gen[i].packets,
            r->gen[i].latency, r->gen[i].misrouted_global, r->gen[i].misrouted_local);
    dump_latency(t, "packet_latency", &r->packet_latency);
    dump_latency(t, "network_latency", &r->network_latency);
    D("hops_mean", r->hops_mean);
    D("inflight_mean", r->inflight_mean);
    D("little_n", r->little_n);
    D("little_lambda_n_tau", r->little_lambda_n_tau);
    D("source_queue_mean", r->source_queue_mean);
    D("mobility_mean", r->mobility_mean);
    D("valid_per_router", r->valid_per_router);
    D("entropy_mean", r->entropy_mean);
    D("throttled_mean", r->throttled_mean);
    U("recoveries", r->recoveries);
    U("recovery_busy", r->recovery_busy);
    U("metapackets", r->metapackets);
    U("gathers", r->gathers);
    D("gather_min", r->gather_min);
    D("gather_mean", r->gather_mean);
    D("gather_max", r->gather_max);
    U("hist_n", r->hist_n);
    for (size_t i = 0; i < r->hist_n; i++)
        put(t, "hist %llu %llu x %llu\n", (unsigned long long)r->hist[i].lo,
            (unsigned long long)r->hist[i].hi, (unsigned long long)r->hist[i].count);
    U("flit_hops", r->flit_hops);
    U("router_cycles", r->router_cycles);
    U("threads", r->threads);
    U("block_cycles", r->block_cycles);
}

static void on_row(void *user, const struct saturn_series_row *x)
{
    struct text *t = user;
    put(t,
        "series %llu inflight %llu queued %llu vpr %.17g mob %.17g thr %.17g acc %.17g "
        "off %.17g lat %.17g ent %.17g nom %.17g s_off %.17g s_acc %.17g s_lat %.17g "
        "th %.17g est %.17g\n",
        (unsigned long long)x->cycle, (unsigned long long)x->inflight,
        (unsigned long long)x->queued, x->valid_per_router, x->mobility, x->throttled,
        x->accepted, x->offered, x->latency, x->entropy, x->nominal, x->smoothed_offered,
        x->smoothed_accepted, x->smoothed_latency, x->threshold, x->estimate);
}

/* The words' run, as text: the words, then the series, then the results.
 * extra: one more word, not written (a speed hint whose every setting must
 * give the same text), or NULL. */
static struct text run_text(const char *const *kv, const char *extra)
{
    struct text t = {0};
    put(&t, "config");
    for (const char *const *w = kv; *w; w++)
        put(&t, " %s", *w);
    put(&t, "\n");
    struct saturn_config *c = test_config(kv);
    struct saturn_error werr = {0};
    if (extra && saturn_config_apply_arg(c, extra, &werr) != SATURN_OK)
        fail_msg("%s", werr.msg);
    struct saturn_sim *s = NULL;
    struct saturn_error err = {0};
    if (saturn_sim_create(c, &s, &err) != SATURN_OK)
        fail_msg("%s", err.msg);
    assert_int_equal(saturn_sim_record_generations(s, GEN_BIN), SATURN_OK);
    saturn_sim_set_series(s, SERIES_INTERVAL, on_row, &t);
    struct saturn_results r;
    int rc = saturn_sim_run(s, &r, &err);
    if (rc != SATURN_OK) {
        put(&t, "error %d %s\n", rc, err.msg);
    } else {
        dump_results(&t, &r);
        saturn_results_free(&r);
    }
    saturn_sim_free(s);
    saturn_config_free(c);
    return t;
}

/* ---- the comparison ------------------------------------------------------- */

static char *golden_path(const char *name)
{
    const char *src = getenv("SATURN_SRC");
    static char path[1024];
    snprintf(path, sizeof path, "%s/tests/golden/%s.txt", src && *src ? src : ".", name);
    return path;
}

static char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *s = malloc(cap);
    assert_non_null(s);
    for (size_t k; (k = fread(s + n, 1, cap - n, f)) > 0;) {
        n += k;
        if (n == cap) {
            s = realloc(s, cap *= 2);
            assert_non_null(s);
        }
    }
    fclose(f);
    *len = n;
    return s;
}

/* Prints the first lines where got and want differ; returns how many do. */
static int report_lines(const char *name, const char *got, size_t glen, const char *want,
                        size_t wlen)
{
    int bad = 0, line = 1;
    const char *g = got, *ge = got + glen, *w = want, *we = want + wlen;
    while (g < ge || w < we) {
        const char *gn = memchr(g, '\n', (size_t)(ge - g)), *wn = memchr(w, '\n', (size_t)(we - w));
        size_t gl = gn ? (size_t)(gn - g) : (size_t)(ge - g);
        size_t wl = wn ? (size_t)(wn - w) : (size_t)(we - w);
        if (gl != wl || memcmp(g, w, gl)) {
            if (bad++ < 12)
                fprintf(stderr, "%s line %d:\n  golden: %.*s\n  now:    %.*s\n", name, line,
                        (int)(wl > 300 ? 300 : wl), w, (int)(gl > 300 ? 300 : gl), g);
        }
        g = gn ? gn + 1 : ge;
        w = wn ? wn + 1 : we;
        line++;
    }
    return bad;
}

/* sim.vc_runs's settings (a speed hint): each must give the golden text. */
static const char *const runs_modes[] = {"sim.vc_runs=on", "sim.vc_runs=off"};

static void golden_as(const char *name, const char *const *kv, const char *extra);

static void golden(const char *name, const char *const *kv)
{
    for (size_t i = 0; i < sizeof runs_modes / sizeof *runs_modes; i++)
        golden_as(name, kv, runs_modes[i]);
}

static void golden_as(const char *name, const char *const *kv, const char *extra)
{
    struct text t = run_text(kv, extra);
    const char *path = golden_path(name);
    const char *update = getenv("SATURN_GOLDEN_UPDATE");
    if (update && *update && strcmp(update, "0")) {
        FILE *f = fopen(path, "wb");
        if (!f || fwrite(t.s, 1, t.len, f) != t.len || fclose(f))
            fail_msg("%s: cannot write: %s", path, strerror(errno));
        fprintf(stderr, "wrote %s\n", path);
        free(t.s);
        return;
    }
    size_t wlen = 0;
    char *want = read_all(path, &wlen);
    if (!want)
        fail_msg("%s: cannot read (%s); SATURN_GOLDEN_UPDATE=1 writes it", path,
                 strerror(errno));
    int bad = report_lines(name, t.s, t.len, want, wlen);
    free(want);
    free(t.s);
    if (bad)
        fail_msg("%s (%s): %d line(s) differ from %s (first ones above). If the change is "
                 "meant, regenerate with scripts/golden-update.sh and commit the diff",
                 name, extra, bad, path);
}

/* ---- the configurations ---------------------------------------------------- */

/* Short steady windows on small networks loaded near or past saturation. */
#define WINDOW "steady.warmup=200", "steady.measure=300", "steady.drain_max=300"

#define GOLDEN(name, ...)                                                                     \
    static void name(void **state)                                                            \
    {                                                                                         \
        (void)state;                                                                          \
        golden(#name, (const char *const[]){__VA_ARGS__, NULL});                              \
    }

GOLDEN(torus_dor, "network.k=8", "traffic.flit_rate=0.35", "routing.tie=random", WINDOW)
GOLDEN(torus_dor_cumulative, "network.k=8", "router.buf_flits=4", "routing.dateline=cumulative",
       "traffic.pattern=transpose", "traffic.flit_rate=0.25", WINDOW)
GOLDEN(torus_booksim, "network.k=8", "router.vcs=4", "router.sw_alloc=islip",
       "router.vc_alloc=islip", "router.va_stage=true", "routing.dateline=balanced",
       "router.route_delay=2", "router.xbar_delay=2", "router.credit_delay=2",
       "traffic.packet_length=16", "traffic.flit_rate=0.3", WINDOW)
GOLDEN(torus_duato, "network.k=8", "routing.algorithm=duato", "traffic.flit_rate=0.4", WINDOW)
GOLDEN(torus_disha, "network.k=8", "routing.algorithm=disha", "router.vcs=2",
       "router.buf_flits=4", "traffic.flit_rate=0.45", WINDOW)
GOLDEN(torus_vct_obuf, "network.k=8", "router.switching=vct", "router.buf_flits=16",
       "router.out_buf_flits=16", "router.xbar_delay=2", "router.route_delay=1",
       "router.speedup=2", "traffic.flit_rate=0.4", WINDOW)
/* Small output buffers that fill (wormhole, 4 flits, 1-cycle crossbar,
 * speedup 2): the slots the link stage frees count for the switch only
 * from the next cycle on. */
GOLDEN(torus_wormhole_obuf_full, "network.k=8", "router.out_buf_flits=4", "router.xbar_delay=1",
       "router.speedup=2", "traffic.flit_rate=0.5", WINDOW)
GOLDEN(torus_vct_packet_order, "network.k=8", "router.switching=vct", "router.buf_flits=16",
       "router.out_buf_unlimited=true", "router.output_order=packet",
       "routing.algorithm=table_min", "router.xbar_delay=1", "traffic.flit_rate=0.4", WINDOW)
GOLDEN(mesh_central, "network.topology=mesh", "network.k=8,6", "router.arbiter=central",
       "router.route_delay=1", "routing.algorithm=duato", "traffic.flit_rate=0.3", WINDOW)
GOLDEN(mesh_unlimited, "network.topology=mesh", "network.k=7", "router.switching=unlimited",
       "router.buf_flits=0", "traffic.flit_rate=0.4", WINDOW)
GOLDEN(collective_bitrev, "network.k=8", "sim.workload=collective", "collective.packets=4",
       "traffic.pattern=bitrev", "router.eject_latency=0")
GOLDEN(collective_gtx, "network.k=16", "router.buf_flits=15", "routing.dateline=cumulative",
       "routing.tie=random", "traffic.pattern=bcmp", "sim.workload=collective",
       "collective.packets=6", "control.model=gt.x", "entropy.tg=16", "entropy.ron=70",
       "entropy.roff=90", "entropy.rn=30", "entropy.info=circuit")
GOLDEN(alo, "network.k=8", "control.model=alo", "traffic.flit_rate=0.5", WINDOW)
GOLDEN(selftune_metapacket, "network.k=8", "control.model=selftune", "gather.mode=metapacket",
       "traffic.flit_rate=0.5", WINDOW)

/* Dragonfly p = 2, a = 4, h = 4: 17 groups of 4, 68 routers, 136 nodes;
 * paper 004's router with shorter links (h > 2 so that PiggyBack can mark
 * a global link: above twice the mean of the router's h links). */
#define DF                                                                                    \
    "network.topology=dragonfly", "dragonfly.p=2", "dragonfly.a=4", "dragonfly.h=4",          \
        "dragonfly.local_latency=2", "dragonfly.global_latency=8",                            \
        "dragonfly.global_buf_flits=32", "router.switching=vct", "router.buf_flits=16",       \
        "router.out_buf_flits=16", "router.speedup=2", "router.route_delay=1",                \
        "router.xbar_delay=1", "traffic.packet_length=8", WINDOW

GOLDEN(df_min_un, DF, "routing.algorithm=min", "traffic.flit_rate=0.6")
GOLDEN(df_ugal_adv, DF, "routing.algorithm=ugal", "traffic.pattern=adversarial",
       "traffic.flit_rate=0.4")
GOLDEN(df_pb_un, DF, "routing.algorithm=pb", "pb.allowance=1", "traffic.flit_rate=0.7")
GOLDEN(df_olm_un, DF, "routing.algorithm=olm", "traffic.flit_rate=0.7")
GOLDEN(df_base_un, DF, "routing.algorithm=base", "base.threshold=2", "traffic.flit_rate=0.7")
GOLDEN(df_ectn_adv, DF, "routing.algorithm=ectn", "ectn.threshold=2", "ectn.period=20",
       "traffic.pattern=adversarial", "traffic.flit_rate=0.4")

/* BookSim 2's iq router (the preset booksim-iq's keys: iSLIP VC and
 * switch allocation, the VC allocation stage, its delays) on BookSim's
 * dragonflynew with its own routings, as bench/peers.sh's Dragonfly pair
 * but p = h = 2, a = 4 (9 groups, 72 nodes): the iSLIP allocators' paths
 * for one asking input port or head and for several (UGAL's two
 * candidates, adversarial). */
#define DF_BOOKSIM                                                                            \
    "router.switching=wormhole", "router.vc_alloc=islip", "router.sw_alloc=islip",            \
        "router.va_stage=true", "router.route_delay=2", "router.xbar_delay=2",                \
        "router.credit_delay=2", "router.inject_latency=2", "router.eject_latency=1",         \
        "traffic.uniform_self=true", "network.topology=dragonfly",                            \
        "dragonfly.p=2", "dragonfly.a=4", "dragonfly.h=2", "dragonfly.arrangement=consecutive", \
        "dragonfly.local_latency=3", "dragonfly.global_latency=12", "router.vcs=3",           \
        "dragonfly.local_vcs=3", "dragonfly.global_vcs=3", "router.buf_flits=32",             \
        "dragonfly.global_buf_flits=32", "routing.reroute=once", "traffic.packet_length=8",   \
        WINDOW

GOLDEN(df_booksim_min_un, DF_BOOKSIM, "routing.algorithm=booksim_min", "traffic.flit_rate=0.5")
GOLDEN(df_booksim_ugal_adv, DF_BOOKSIM, "routing.algorithm=booksim_ugal",
       "traffic.pattern=adversarial", "traffic.flit_rate=0.35")

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(torus_dor),
        cmocka_unit_test(torus_dor_cumulative),
        cmocka_unit_test(torus_booksim),
        cmocka_unit_test(df_booksim_min_un),
        cmocka_unit_test(df_booksim_ugal_adv),
        cmocka_unit_test(torus_duato),
        cmocka_unit_test(torus_disha),
        cmocka_unit_test(torus_vct_obuf),
        cmocka_unit_test(torus_wormhole_obuf_full),
        cmocka_unit_test(torus_vct_packet_order),
        cmocka_unit_test(mesh_central),
        cmocka_unit_test(mesh_unlimited),
        cmocka_unit_test(collective_bitrev),
        cmocka_unit_test(collective_gtx),
        cmocka_unit_test(alo),
        cmocka_unit_test(selftune_metapacket),
        cmocka_unit_test(df_min_un),
        cmocka_unit_test(df_ugal_adv),
        cmocka_unit_test(df_pb_un),
        cmocka_unit_test(df_olm_un),
        cmocka_unit_test(df_base_un),
        cmocka_unit_test(df_ectn_adv),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
