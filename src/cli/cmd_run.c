#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli/cli.h"
#include "io/plot.h"
#include "experiment/workload.h"

/* A cell of the series: empty where the value is undefined (negative). */
static void cell(FILE *f, double v, const char *sep)
{
    if (v < 0)
        fputs(sep, f);
    else
        fprintf(f, "%.6g%s", v, sep);
}

static void series_row(void *user, const struct saturn_series_row *r)
{
    struct cli_csv *c = user;
    fprintf(c->f, "%llu,%llu,%llu,%.4f,%.4f,%.4f,%.6g,%.6g,%.6g,",
            (unsigned long long)r->cycle, (unsigned long long)r->inflight,
            (unsigned long long)r->queued, 100.0 * r->valid_per_router, 100.0 * r->mobility,
            100.0 * r->throttled, r->accepted, r->offered, r->latency);
    cell(c->f, r->entropy, ",");
    cell(c->f, r->nominal, ",");
    cell(c->f, r->smoothed_offered, ",");
    cell(c->f, r->smoothed_accepted, ",");
    cell(c->f, r->smoothed_latency, ",");
    cell(c->f, r->threshold, ",");
    cell(c->f, r->estimate, "\n");
}

static bool has_ext(const char *path, const char *ext)
{
    size_t n = strlen(path), e = strlen(ext);
    return n > e && !strcasecmp(path + n - e, ext);
}

static bool chart_svg(const char *path) { return has_ext(path, ".svg"); }

int cmd_run(int argc, char **argv)
{
    struct cli_args a;
    int rc = cli_parse(argc, argv, &a, false);
    if (!rc && !a.help)
        rc = cli_only(&a, "run", CLI_JSON | CLI_SERIES | CLI_LINKS | CLI_CHART | CLI_GEN | CLI_PLOT);
    if (rc || a.help) {
        if (a.help)
            printf("usage: saturn run [--preset NAME] [FILE.ini] [key=value ...] [--json PATH]\n"
                   "                  [--series PATH] [--links PATH] [--chart PATH.png|PATH.svg\n"
                   "                  [--chart-scale N]] [--by-generation PATH] [--plot PATH]\n"
                   "                  [--verbose] [--progress[=live|plain]] [-q]\n\n"
                   "Runs one simulation of the workload sim.workload: steady (Bernoulli load:\n"
                   "warm-up, measurement window, drain; the saturation verdict), collective (N\n"
                   "packets per node, optionally sliced: duration and thickness), ramp (the load\n"
                   "rising linearly: the critical load) or phases (a sequence of rate/pattern\n"
                   "phases: a bursty load). Prints a summary and the resolved configuration:\n"
                   "the keys that apply to this run and those set (--verbose: every key).\n\n"
                   "--json PATH writes one JSON record (config, seed, version, metrics, latency\n"
                   "histogram); --series PATH writes a time series every sim.series_interval\n"
                   "cycles (CSV: cycle, in-flight and queued packets, %%ba = 100 Nv/routers,\n"
                   "%%mr = 100 Ra, %%thr = throttled nodes, accepted and offered\n"
                   "flits/node/cycle, latency, packet entropy E; a ramp adds its nominal load\n"
                   "and moving averages), and --plot PATH (.png, .svg or .pdf) draws it with\n"
                   "gnuplot; --links PATH (collectives) writes every link's first and last\n"
                   "flit cycle, busy cycles and occupation; --chart PATH.png or PATH.svg draws\n"
                   "links (x) against cycles (y), a colour per slice, grey where a flit\n"
                   "waited, white idle, with axes and a colour key (N pixels a cell, default\n"
                   "2); --by-generation PATH writes, per sim.generation_bin cycles of\n"
                   "generation time, the packets delivered, their mean latency and the\n"
                   "fractions misrouted globally and locally (a transient's response).\n"
                   "Every output path is checked before the run.\n\n"
                   "Progress goes to stderr: a live line on a terminal, a line every few\n"
                   "seconds otherwise; --progress forces it on (=live or =plain: that style),\n"
                   "--no-progress off; -q prints nothing but errors. Without FILE the\n"
                   "built-in defaults run (an 8x8 torus, DOR, uniform traffic at 0.1\n"
                   "flits/node/cycle).\n");
        cli_free(&a);
        return rc;
    }
    /* what the outputs need, before the run */
    if (a.plot_path && !a.series_path) {
        fprintf(stderr, "saturn: error: --plot %s draws the time series: give --series PATH too\n",
                a.plot_path);
        rc = EXIT_BAD_INPUT;
    } else if (a.chart_path && !chart_svg(a.chart_path) && !has_ext(a.chart_path, ".png")) {
        fprintf(stderr, "saturn: error: --chart %s: give a .png or .svg file\n", a.chart_path);
        rc = EXIT_BAD_INPUT;
    } else {
        rc = cli_plot_check(a.plot_path);
    }
    if (rc) {
        cli_free(&a);
        return rc;
    }
    struct saturn_error err = {0};
    /* links are recorded by collectives only: say so before running */
    if ((a.chart_path || a.links_path) && workload_of(a.cfg) != WORKLOAD_COLLECTIVE) {
        saturn_config_fail(a.cfg, "sim.workload", &err, "%s records a collective's links; "
                           "set sim.workload = collective", a.chart_path ? "--chart" : "--links");
        rc = cli_fail(&err);
        cli_free(&a);
        return rc;
    }
    struct saturn_sim *sim;
    if ((rc = cli_memory_check(a.cfg, 1, &err)) || (rc = saturn_sim_create(a.cfg, &sim, &err))) {
        rc = cli_fail(&err);
        cli_free(&a);
        return rc;
    }
    struct cli_progress prog;
    cli_progress_begin(&prog, &a);
    saturn_sim_set_progress(sim, cli_progress_report, &prog);
    struct cli_csv series = {0};
    if (a.series_path) {
        if ((rc = cli_csv_open(&series, a.series_path,
                               "cycle,inflight,queued,ba_pct,mr_pct,thr_pct,accepted,offered,"
                               "latency,entropy,nominal,offered_ma,accepted_ma,latency_ma,threshold,estimate\n"))) {
            cli_progress_end(&prog, false);
            saturn_sim_free(sim);
            cli_free(&a);
            return rc;
        }
        saturn_sim_set_series(sim, (uint64_t)saturn_config_int(a.cfg, "sim.series_interval"),
                              series_row, &series);
    }
    if (a.chart_path)
        saturn_sim_record_chart(sim);
    if (a.gen_path)
        saturn_sim_record_generations(sim, (uint64_t)saturn_config_int(a.cfg, "sim.generation_bin"));
    struct saturn_results r;
    rc = saturn_sim_run(sim, &r, &err);
    struct saturn_link_trace chart = {0};
    if (!rc && a.chart_path && saturn_sim_chart(sim, &chart)) {
        saturn_results_free(&r);
        rc = saturn_error_set(&err, SATURN_EINPUT,
                              "--chart: no link chart was recorded (charts are for collectives)");
    }
    saturn_sim_free(sim);
    cli_progress_end(&prog, rc == 0);
    if (rc) {
        cli_csv_abort(&series);
        rc = cli_fail(&err);
        cli_free(&a);
        return rc;
    }
    /* Every output is written beside its path first and renamed into place
     * only when all are complete: a step that fails leaves none. */
    struct cli_stage st = {0};
    const char *tmp;
    if (a.series_path)
        rc = cli_stage_csv(&st, &series);
    if (rc == 0 && a.chart_path) {
        if (!(tmp = cli_stage_file(&st, a.chart_path)))
            rc = EXIT_BAD_INPUT;
        else if ((chart_svg(a.chart_path) ? saturn_chart_svg : saturn_chart_png)(
                     tmp, &chart, a.chart_scale ? a.chart_scale : 2, &err)) {
            cli_stage_msg(&err, &st);
            rc = cli_fail(&err);
        }
    }
    if (rc == 0 && a.plot_path) {
        /* gnuplot reads the series from its staged file (the stage's first) */
        char what[512], title[600];
        cli_describe(a.cfg, what, sizeof what);
        snprintf(title, sizeof title, "saturn run (%s): %s", r.workload, what);
        if (!(tmp = cli_stage_file(&st, a.plot_path)))
            rc = EXIT_BAD_INPUT;
        else if ((rc = cli_plot_draw(a.plot_path, tmp,
                                     plot_series_script(a.plot_path, tmp, title, st.tmp[0],
                                                        !strcmp(r.workload, "ramp"), &err))) &&
                 err.code) {
            cli_stage_msg(&err, &st);
            rc = cli_fail(&err);
        }
    }
    saturn_link_trace_free(&chart);
    if (rc == 0 && a.links_path) {
        struct cli_csv lc;
        if (!(rc = cli_csv_open(&lc, a.links_path, "router,port,first,last,busy,occupation\n"))) {
            for (size_t i = 0; i < r.nlinks; i++)
                fprintf(lc.f, "%u,%u,%llu,%llu,%llu,%llu\n", r.links[i].router, r.links[i].port,
                        (unsigned long long)r.links[i].first, (unsigned long long)r.links[i].last,
                        (unsigned long long)r.links[i].busy,
                        (unsigned long long)(r.links[i].last - r.links[i].first));
            rc = cli_stage_csv(&st, &lc);
        }
    }
    if (rc == 0 && a.gen_path) {
        struct cli_csv gc;
        if (!(rc = cli_csv_open(&gc, a.gen_path,
                                "generated,packets,latency,misrouted_global,misrouted_local\n"))) {
            for (size_t i = 0; i < r.ngen; i++)
                fprintf(gc.f, "%llu,%llu,%.6g,%.6g,%.6g\n", (unsigned long long)r.gen[i].start,
                        (unsigned long long)r.gen[i].packets, r.gen[i].latency,
                        r.gen[i].misrouted_global, r.gen[i].misrouted_local);
            rc = cli_stage_csv(&st, &gc);
        }
    }
    if (rc == 0 && a.json_path) {
        char *json = saturn_results_json(a.cfg, &r);
        if (!json || !(tmp = cli_stage_file(&st, a.json_path)))
            rc = 1;
        else if (saturn_write_file_atomic(tmp, json, strlen(json), &err)) {
            cli_stage_msg(&err, &st);
            rc = cli_fail(&err);
        }
        free(json);
    }
    if (rc == 0)
        rc = cli_stage_commit(&st);
    else
        cli_stage_abort(&st);
    if (!a.quiet && rc == 0)
        cli_print_summary(stdout, a.cfg, &r, a.verbose);
    saturn_results_free(&r);
    cli_free(&a);
    return rc;
}
