/* Sweeps: spec expansion and its errors (src/io/sweep_spec.c), the sweep
 * CSV (src/io/sweep_csv.c), and the best-parameter summary on a table
 * worked by hand (src/experiment/sweep_summary.c, sweep_report.c). */
#define _GNU_SOURCE /* mkdtemp */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "support.h"
#include "saturn/io.h"
#include "saturn/sweep.h"

/* cmocka 1.1.5 has no assert_double_equal. */
#define assert_near(a, b, eps) assert_true(fabs((double)(a) - (double)(b)) <= (eps))

static void assert_contains(const char *haystack, const char *needle)
{
    if (!strstr(haystack, needle))
        fail_msg("'%s' does not contain '%s'", haystack, needle);
}

static struct saturn_sweep *load_ok(const char *path)
{
    struct saturn_sweep *sw = NULL;
    struct saturn_error err = {0};
    if (saturn_sweep_load(path, &sw, &err))
        fail_msg("load: %s", err.msg);
    return sw;
}

/* "k=v, k=v" of point p. */
static const char *label(const struct saturn_sweep *sw, size_t p)
{
    static char buf[512];
    saturn_sweep_point_label(sw, p, buf, sizeof buf);
    return buf;
}

static void test_expansion(void **state)
{
    const char *path = test_put_file(*state, "s.ini",
                                "[network]\n"
                                "k = 4\n"
                                "[sweep base]\n"
                                "  router.vcs = 2:4:2, 3\n" /* ranges and plain items mix */
                                "traffic.pattern = uniform,\n"
                                "    transpose     ; a continued list\n"
                                "[summary]\n"
                                "baseline = router.vcs=2\n"
                                "[sweep]\n"
                                "traffic.flit_rate = 0.3:0.1:-0.1\n"
                                "router.vcs = 5\n"
                                "[sweep]\n"
                                "network.k = \"4,6\", 8:9\n");
    struct saturn_sweep *sw = load_ok(path);
    assert_int_equal(sw->ngrids, 3);
    assert_string_equal(sw->grids[0].name, "base");
    assert_string_equal(sw->grids[1].name, "");
    assert_int_equal(sw->npoints, 6 + 3 + 3);
    assert_int_equal(sw->nkeys, 4); /* first-appearance order */
    assert_string_equal(sw->keys[0], "router.vcs");
    assert_string_equal(sw->keys[1], "traffic.pattern");
    assert_string_equal(sw->keys[2], "traffic.flit_rate");
    assert_string_equal(sw->keys[3], "network.k");
    /* the last key varies fastest */
    assert_string_equal(label(sw, 0), "router.vcs=2, traffic.pattern=uniform");
    assert_string_equal(label(sw, 1), "router.vcs=2, traffic.pattern=transpose");
    assert_string_equal(label(sw, 2), "router.vcs=4, traffic.pattern=uniform");
    assert_string_equal(label(sw, 5), "router.vcs=3, traffic.pattern=transpose");
    /* reals without binary noise, downwards */
    assert_string_equal(label(sw, 6), "router.vcs=5, traffic.flit_rate=0.3");
    assert_string_equal(label(sw, 8), "router.vcs=5, traffic.flit_rate=0.1");
    assert_string_equal(label(sw, 9), "network.k=\"4,6\"");
    assert_string_equal(label(sw, 11), "network.k=9");
    const char *v[4];
    saturn_sweep_point_values(sw, 7, v);
    assert_string_equal(v[0], "5");
    assert_null(v[1]);
    assert_string_equal(v[2], "0.2");
    assert_null(v[3]);
    assert_string_equal(sw->summary.baseline, "router.vcs=2");

    /* A point = base + overrides + the grid's values, with their origin. */
    struct saturn_error err = {0};
    assert_int_equal(saturn_sweep_override(sw, "router.buf_flits=6", &err), SATURN_OK);
    assert_int_equal(saturn_sweep_override(sw, "traffic.pattern=torn", &err), SATURN_EINPUT);
    assert_contains(err.msg, "varied by the sweep");
    struct saturn_config *c = NULL;
    assert_int_equal(saturn_sweep_point_config(sw, 3, &c, &err), SATURN_OK);
    assert_int_equal(saturn_config_int(c, "router.vcs"), 4);
    assert_string_equal(saturn_config_str(c, "traffic.pattern"), "transpose");
    assert_int_equal(saturn_config_int(c, "router.buf_flits"), 6);
    int64_t k[SATURN_LIST_MAX];
    assert_int_equal(saturn_config_list(c, "network.k", k, SATURN_LIST_MAX), 1);
    assert_int_equal(k[0], 4);
    int line = 0;
    assert_string_equal(saturn_config_origin(c, "traffic.pattern", &line), path);
    assert_int_equal(line, 5);
    saturn_config_free(c);
    assert_int_equal(saturn_sweep_point_config(sw, 9, &c, &err), SATURN_OK);
    assert_int_equal(saturn_config_list(c, "network.k", k, SATURN_LIST_MAX), 2);
    assert_int_equal(k[1], 6);
    saturn_config_free(c);
    saturn_sweep_free(sw);
}

/* A point's configuration (a clone of the base, texts in one block, then the
 * grid's values set) is the one built afresh key by key: every value, its
 * origin and line, whether set, the warnings; and it can be changed, cloned
 * and freed like any other. */
static void assert_same_config(const struct saturn_config *a, const struct saturn_config *b)
{
    for (size_t i = 0; i < saturn_param_count(); i++) {
        const char *name = saturn_param_at(i)->name;
        assert_string_equal(saturn_config_value_text(a, i), saturn_config_value_text(b, i));
        assert_int_equal(saturn_config_is_set(a, name), saturn_config_is_set(b, name));
        assert_int_equal(saturn_config_user_set(a, name), saturn_config_user_set(b, name));
        int la = -1, lb = -2;
        assert_string_equal(saturn_config_origin(a, name, &la), saturn_config_origin(b, name, &lb));
        assert_int_equal(la, lb);
        assert_int_equal(saturn_config_int(a, name), saturn_config_int(b, name));
        assert_true(saturn_config_real(a, name) == saturn_config_real(b, name));
        int64_t x[SATURN_LIST_MAX], y[SATURN_LIST_MAX];
        int nx = saturn_config_list(a, name, x, SATURN_LIST_MAX);
        assert_int_equal(nx, saturn_config_list(b, name, y, SATURN_LIST_MAX));
        assert_memory_equal(x, y, (size_t)nx * sizeof *x);
    }
    assert_int_equal(saturn_config_warning_count(a), saturn_config_warning_count(b));
    for (size_t i = 0; i < saturn_config_warning_count(a); i++)
        assert_string_equal(saturn_config_warning(a, i), saturn_config_warning(b, i));
}

static void test_point_config_as_built_afresh(void **state)
{
    const char *path = test_put_file(*state, "p.ini",
                                     "[network]\n"
                                     "k = 8\n"
                                     "[router]\n"
                                     "vcs = 3\n"
                                     "vcs = 4\n" /* given again: a warning, kept by every point */
                                     "[control]\n"
                                     "model = gt.a\n"
                                     "[sweep a]\n"
                                     "entropy.ron = 20, 90\n"
                                     "entropy.rn = 0, 98\n"
                                     "sim.seed = 1:2\n"
                                     "[sweep b]\n"
                                     "network.k = \"4,6\", 8\n"
                                     "traffic.pattern = torn, rand\n");
    struct saturn_sweep *sw = load_ok(path);
    struct saturn_error err = {0};
    assert_int_equal(saturn_sweep_override(sw, "router.buf_flits=6", &err), SATURN_OK);
    for (size_t p = 0; p < sw->npoints; p++) {
        struct saturn_config *got = NULL, *want = saturn_config_new();
        assert_non_null(want);
        assert_int_equal(saturn_sweep_point_config(sw, p, &got, &err), SATURN_OK);
        /* the base afresh: the file's lines in order (the repeated one twice), the override */
        const char *const file_kv[][2] = {{"network.k", "8"}, {"router.vcs", "3"},
                                          {"router.vcs", "4"}, {"control.model", "gt.a"}};
        const int file_line[] = {2, 4, 5, 7};
        for (size_t k = 0; k < 4; k++)
            assert_int_equal(saturn_config_set(want, file_kv[k][0], file_kv[k][1], path,
                                               file_line[k], &err), SATURN_OK);
        assert_int_equal(saturn_config_set(want, "router.buf_flits", "6", NULL, 0, &err),
                         SATURN_OK);
        const char *v[8];
        saturn_sweep_point_values(sw, p, v);
        const struct saturn_sweep_grid *g = &sw->grids[p < sw->grids[1].first ? 0 : 1];
        for (size_t a = 0; a < g->naxes; a++)
            assert_int_equal(saturn_config_set(want, g->axes[a].key, v[g->axes[a].column], path,
                                               g->axes[a].line, &err), SATURN_OK);
        assert_true(saturn_config_warning_count(got) >= 1); /* the base's, copied */
        assert_same_config(got, want);
        /* changed, cloned, freed: the block's texts are never freed alone */
        assert_int_equal(saturn_config_set(got, "network.k", "16", NULL, 0, &err), SATURN_OK);
        assert_int_equal(saturn_config_set(want, "network.k", "16", NULL, 0, &err), SATURN_OK);
        struct saturn_config *again = saturn_config_clone(got);
        assert_non_null(again);
        saturn_config_free(got);
        assert_same_config(again, want);
        saturn_config_free(again);
        saturn_config_free(want);
    }
    saturn_sweep_free(sw);
}

static void expect_error(const char *dir, const char *text, const char *line_and_msg)
{
    const char *path = test_put_file(dir, "bad.ini", text);
    struct saturn_sweep *sw = NULL;
    struct saturn_error err = {0};
    assert_int_equal(saturn_sweep_load(path, &sw, &err), SATURN_EINPUT);
    assert_null(sw);
    char want[700];
    snprintf(want, sizeof want, "%s%s", path, line_and_msg);
    assert_contains(err.msg, want);
}

static void test_spec_errors(void **state)
{
    expect_error(*state, "[sweep]\nrouter.vcs = 2, 3\ntraffic.pattern = uniform, zigzag\n",
                 ":3: traffic.pattern = zigzag: unknown choice");
    expect_error(*state, "[sweep]\nrouter.vcs = 1:100\n", ":2: router.vcs = 65: out of range");
    expect_error(*state, "[sweep]\nrouter.vcs = 4:2:1\n", ":2: router.vcs = 4:2:1: the range never");
    expect_error(*state, "[sweep]\nrouter.vcs = 2,,3\n", ":2: router.vcs = 2,,3: empty item");
    expect_error(*state, "[sweep]\nrouter.vsc = 2\n", ":2: unknown key 'router.vsc'; did you mean 'router.vcs'");
    expect_error(*state, "[sweep]\nrouter.vcs = 2\nrouter.vcs = 3\n", ":3: router.vcs given twice");
    expect_error(*state, "[network]\nk = 4\n", ": no [sweep] section");
    expect_error(*state, "[network]\nk = x\n[sweep]\nrouter.vcs = 2\n", ":2: network.k = x");
    expect_error(*state, "[sweep]\nrouter.vcs = 2\n[summary]\nbetter = more\n", ":4: better = more");
    expect_error(*state, "[sweep]\nrouter.vcs = 2\n[summary]\nbaseline = router.vcs\n",
                 ":4: baseline = router.vcs: 'router.vcs' is not key=value");
    expect_error(*state, "[sweep]\nrouter.vcs = 2\nnot a line\n", ":3: syntax error");
    expect_error(*state, "[sweeps]\nrouter.vcs = 2\n", ":1: [sweeps]: a grid section is");
}

/* ---- the CSV ---- */

static void test_csv(void **state)
{
    const char *spec = test_put_file(*state, "s.ini",
                                "[sweep]\nrouter.vcs = 2:3\ntraffic.pattern = uniform, torn\n"
                                "[sweep]\nrouter.buf_flits = 4\n");
    struct saturn_sweep *sw = load_ok(spec);
    char *header = saturn_sweep_csv_header(sw);
    assert_string_equal(header, "point,router.vcs,traffic.pattern,router.buf_flits,duration,"
                                "accepted,offered,latency_mean,latency_p99,network_latency_mean,"
                                "hops_mean,saturated,cycles,wall_seconds\n");
    struct saturn_results r = {.duration = 120, .accepted = 0.25, .cycles = 121,
                               .wall_seconds = 0.5};
    char *rows[5];
    for (size_t p = 0; p < 5; p++) {
        r.duration = 100 + p;
        rows[p] = saturn_sweep_csv_row(sw, p, &r);
    }
    assert_string_equal(rows[4], "4,,,4,104,0.25,0,0,0,0,0,0,121,0.500\n");
    assert_string_equal(rows[1], "1,2,torn,,101,0.25,0,0,0,0,0,0,121,0.500\n");

    /* A killed run: rows out of order, the last one cut short. */
    char text[4096];
    snprintf(text, sizeof text, "%s%s%s%.10s", header, rows[3], rows[0], rows[1]);
    const char *csv = test_put_file(*state, "o.csv", text);
    bool done[5] = {false}, exists = false;
    struct saturn_error err = {0};
    assert_int_equal(saturn_sweep_csv_scan(sw, csv, done, &exists, &err), SATURN_OK);
    assert_true(exists);
    assert_true(done[0] && done[3]);
    assert_false(done[1] || done[2] || done[4]);
    char *after = test_slurp(csv);
    snprintf(text, sizeof text, "%s%s%s", header, rows[3], rows[0]); /* partial line dropped */
    assert_string_equal(after, text);
    free(after);

    /* Finished: sorted by point id. */
    FILE *f = fopen(csv, "a");
    fputs(rows[4], f);
    fputs(rows[2], f);
    fputs(rows[1], f);
    fclose(f);
    assert_int_equal(saturn_sweep_csv_sort(csv, &err), SATURN_OK);
    after = test_slurp(csv);
    snprintf(text, sizeof text, "%s%s%s%s%s%s", header, rows[0], rows[1], rows[2], rows[3], rows[4]);
    assert_string_equal(after, text);
    free(after);

    /* Read back as a table: key columns between "point" and the metrics. */
    struct saturn_table *t = NULL;
    assert_int_equal(saturn_table_read_csv(csv, &t, &err), SATURN_OK);
    assert_int_equal(t->nrows, 5);
    assert_int_equal(t->key_begin, 1);
    assert_int_equal(t->key_end, 4);
    assert_string_equal(t->cells[1 * t->ncols + 2], "torn");
    assert_string_equal(t->cells[4 * t->ncols + 4], "104");
    saturn_table_free(t);

    /* Another sweep's file is refused, and left alone. */
    const char *other = test_put_file(*state, "x.csv", "point,router.vcs,duration\n0,2,5\n");
    assert_int_equal(saturn_sweep_csv_scan(sw, other, done, &exists, &err), SATURN_EINPUT);
    assert_contains(err.msg, "written by a different sweep");
    snprintf(text, sizeof text, "%s0,3,uniform,,1,0,0,0,0,0,0,0,1,0.000\n", header);
    other = test_put_file(*state, "y.csv", text);
    assert_int_equal(saturn_sweep_csv_scan(sw, other, done, &exists, &err), SATURN_EINPUT);
    assert_contains(err.msg, "y.csv:2: point 0 has router.vcs = '3' where this sweep has '2'");
    /* No file yet: nothing done. */
    snprintf(text, sizeof text, "%s/none.csv", (char *)*state);
    assert_int_equal(saturn_sweep_csv_scan(sw, text, done, &exists, &err), SATURN_OK);
    assert_false(exists);

    for (size_t p = 0; p < 5; p++)
        free(rows[p]);
    free(header);
    saturn_sweep_free(sw);
}

/* ---- the summary ---- */

/* control.model, control.threshold, traffic.pattern, sim.seed | duration.
 * Baseline noth: uniform 100, 110 (mean 105, std sqrt(50)); torn 200, 200.
 * hyst 40: uniform 70, 80 -> 75, x1.4;  torn 250 -> x0.8;  geomean sqrt(1.12)
 * hyst 60: uniform 105 -> x1.0;         torn 100 -> x2.0;  geomean sqrt(2)
 * hyst 80: uniform 80, 84, 88 -> 84 (std 4), x1.25; torn 120 -> x5/3;
 *          geomean sqrt(25/12) = 1.443: the average best
 * hyst 90: uniform 50 -> x2.1, no torn: individual best on uniform only.
 * Individual best: uniform 90 (2.1), torn 60 (2.0): geomean sqrt(4.2). */
static const char *const rows[][5] = {
    {"noth", "", "uniform", "1", "100"}, {"noth", "", "uniform", "2", "110"},
    {"noth", "", "torn", "1", "200"},    {"noth", "", "torn", "2", "200"},
    {"hyst", "40", "uniform", "1", "70"}, {"hyst", "40", "uniform", "2", "80"},
    {"hyst", "40", "torn", "1", "250"},  {"hyst", "60", "uniform", "1", "105"},
    {"hyst", "60", "torn", "1", "100"},  {"hyst", "60", "torn", "2", "100"},
    {"hyst", "80", "uniform", "1", "80"}, {"hyst", "80", "uniform", "2", "84"},
    {"hyst", "80", "uniform", "3", "88"}, {"hyst", "80", "torn", "1", "120"},
    {"hyst", "90", "uniform", "1", "50"},
};

static struct saturn_table *synthetic(size_t skip_from, size_t skip_to)
{
    static const char *const cols[] = {"control.model", "control.threshold", "traffic.pattern",
                                       "sim.seed", "duration"};
    struct saturn_table *t = saturn_table_new(5, cols, 0, 4);
    assert_non_null(t);
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++)
        if (r < skip_from || r >= skip_to)
            assert_int_equal(saturn_table_add(t, rows[r]), SATURN_OK);
    return t;
}

static struct saturn_summary_opts opts_with(const char *baseline)
{
    struct saturn_summary_opts o;
    saturn_summary_opts_default(&o);
    snprintf(o.baseline, sizeof o.baseline, "%s", baseline);
    return o;
}

static void test_summary(void **state)
{
    (void)state;
    struct saturn_table *t = synthetic(0, 0);
    struct saturn_summary_opts o = opts_with("control.model=noth");
    struct saturn_summary *s = NULL;
    struct saturn_error err = {0};
    if (saturn_summary_compute(t, &o, &s, &err))
        fail_msg("%s", err.msg);
    assert_true(s->has_group && s->has_seeds && !s->higher_better);
    assert_int_equal(s->npatterns, 2);
    assert_string_equal(s->patterns[0], "uniform");
    assert_string_equal(s->patterns[1], "torn");
    assert_int_equal(s->nparams, 1);
    assert_string_equal(s->params[0], "control.threshold");
    assert_int_equal(s->nsets, 5); /* noth, 40, 60, 80, 90 */
    assert_int_equal(s->ngroups, 2);
    assert_string_equal(s->groups[1].name, "hyst");
    const struct saturn_summary_set *b = &s->sets[s->baseline_set];
    assert_int_equal(s->baseline_set, 0);
    assert_int_equal(b->stat[0].n, 2);
    assert_near(b->stat[0].mean, 105, 1e-9);
    assert_near(b->stat[0].std, sqrt(50), 1e-9);
    assert_near(b->stat[1].std, 0, 1e-12);
    assert_near(b->geomean, 1, 1e-12);

    const struct saturn_summary_set *t80 = &s->sets[3];
    assert_string_equal(t80->values[0], "80");
    assert_int_equal(t80->stat[0].n, 3);
    assert_near(t80->stat[0].mean, 84, 1e-9);
    assert_near(t80->stat[0].std, 4, 1e-9);
    assert_near(t80->stat[0].speedup, 1.25, 1e-9);
    assert_near(t80->stat[1].speedup, 5.0 / 3, 1e-9);
    assert_near(t80->geomean, sqrt(25.0 / 12), 1e-9);
    assert_near(s->sets[1].geomean, sqrt(1.12), 1e-9);
    assert_true(isnan(s->sets[4].geomean)); /* 90 has no torn */
    assert_true(isnan(s->sets[4].stat[1].speedup));

    const struct saturn_summary_group *h = &s->groups[1];
    assert_int_equal(h->best[0], 4); /* uniform: 90 */
    assert_int_equal(h->best[1], 2); /* torn: 60 */
    assert_int_equal(h->nbest, 2);
    assert_near(h->best_geomean, sqrt(4.2), 1e-9);
    assert_int_equal(h->average, 3); /* 80 */
    const struct saturn_summary_group *n = &s->groups[0];
    assert_int_equal(n->average, 0);
    assert_near(n->best_geomean, 1, 1e-12);

    char *csv = saturn_summary_csv(s);
    assert_contains(csv, "group,kind,pattern,control.threshold,n,mean,std,speedup\n");
    assert_contains(csv, "noth,baseline,uniform,,2,105,7.07107,1\n");
    assert_contains(csv, "hyst,individual,uniform,90,1,50,0,2.1\n");
    assert_contains(csv, "hyst,individual,torn,60,2,100,0,2\n");
    assert_contains(csv, "hyst,individual_geomean,,,,,,2.04939\n");
    assert_contains(csv, "hyst,average,uniform,80,3,84,4,1.25\n");
    assert_contains(csv, "hyst,average_geomean,,80,,,,1.44338\n");
    free(csv);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    saturn_summary_print(s, f);
    fclose(f);
    assert_contains(text, "control.model=hyst: average best control.threshold=80");
    free(text);
    saturn_summary_free(s);

    /* Higher is better: speed-up = mean / baseline mean. */
    o.better = SATURN_BETTER_HIGHER;
    assert_int_equal(saturn_summary_compute(t, &o, &s, &err), SATURN_OK);
    assert_near(s->sets[1].stat[0].speedup, 75.0 / 105, 1e-9);
    assert_int_equal(s->groups[1].best[1], 1); /* torn: 40 (250) */
    saturn_summary_free(s);

    /* No group, no seed key: every row its own sample; one group. */
    strcpy(o.group, "");
    strcpy(o.seeds, "none.key");
    strcpy(o.baseline, "control.model=noth, sim.seed=1"); /* one set again */
    o.better = SATURN_BETTER_AUTO;
    assert_int_equal(saturn_summary_compute(t, &o, &s, &err), SATURN_OK);
    assert_false(s->has_group || s->has_seeds);
    assert_int_equal(s->ngroups, 1);
    assert_int_equal(s->nparams, 3);
    saturn_summary_free(s);
    saturn_table_free(t);
}

static void expect_summary_error(struct saturn_table *t, const char *baseline, const char *msg)
{
    struct saturn_summary_opts o = opts_with(baseline);
    struct saturn_summary *s = NULL;
    struct saturn_error err = {0};
    assert_int_equal(saturn_summary_compute(t, &o, &s, &err), SATURN_EINPUT);
    assert_null(s);
    assert_contains(err.msg, msg);
}

static void test_summary_errors(void **state)
{
    (void)state;
    struct saturn_table *t = synthetic(0, 0);
    expect_summary_error(t, "", "no baseline");
    expect_summary_error(t, "control.model=xyz", "baseline control.model=xyz matches no row");
    expect_summary_error(t, "control.model=hyst", "matches several parameter sets");
    expect_summary_error(t, "router.vcs=2", "router.vcs is not a key this sweep varies");
    expect_summary_error(t, "traffic.pattern=torn", "the pattern or seed key");
    saturn_table_free(t);
    t = synthetic(2, 4); /* no baseline rows on torn */
    expect_summary_error(t, "control.model=noth", "baseline control.model=noth has no row with "
                                                  "traffic.pattern = torn");
    saturn_table_free(t);
    static const char *const cols[] = {"router.vcs", "duration"};
    t = saturn_table_new(2, cols, 0, 1);
    saturn_table_add(t, (const char *const[]){"2", "fast"});
    struct saturn_summary_opts o = opts_with("router.vcs=2");
    struct saturn_summary *s = NULL;
    struct saturn_error err = {0};
    strcpy(o.metric, "latency_mean");
    assert_int_equal(saturn_summary_compute(t, &o, &s, &err), SATURN_EINPUT);
    assert_contains(err.msg, "no column 'latency_mean'");
    strcpy(o.metric, "duration");
    assert_int_equal(saturn_summary_compute(t, &o, &s, &err), SATURN_EINPUT);
    assert_contains(err.msg, "row 1: duration = 'fast' is not a number");
    saturn_table_free(t);

    /* Options are checked as they are set. */
    saturn_summary_opts_default(&o);
    assert_int_equal(saturn_summary_opts_set(&o, "metric", "speed", NULL, 0, &err), SATURN_EINPUT);
    assert_contains(err.msg, "command line: metric = speed: unknown metric");
    assert_int_equal(saturn_summary_opts_set(&o, "across", "traffic.patern", "f.ini", 7, &err),
                     SATURN_EINPUT);
    assert_contains(err.msg, "f.ini:7: across = traffic.patern: not a configuration key");
    assert_int_equal(saturn_summary_opts_set(&o, "baseline", "router.vcs=x", "f.ini", 8, &err),
                     SATURN_EINPUT);
    assert_contains(err.msg, "f.ini:8: router.vcs = x: not an integer");
    assert_int_equal(saturn_summary_opts_set(&o, "metric", " accepted ", NULL, 0, &err), SATURN_OK);
    assert_true(saturn_summary_higher_better(&o));
    assert_int_equal(saturn_summary_opts_set(&o, "group", "none", NULL, 0, &err), SATURN_OK);
    assert_string_equal(o.group, "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_expansion, test_dir_setup, test_dir_teardown),
        cmocka_unit_test_setup_teardown(test_point_config_as_built_afresh, test_dir_setup,
                                        test_dir_teardown),
        cmocka_unit_test_setup_teardown(test_spec_errors, test_dir_setup, test_dir_teardown),
        cmocka_unit_test_setup_teardown(test_csv, test_dir_setup, test_dir_teardown),
        cmocka_unit_test(test_summary),
        cmocka_unit_test(test_summary_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
