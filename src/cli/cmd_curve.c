#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "io/plot.h"

struct curve_out {
    bool quiet;
    char *csv;
    size_t len, cap;
    struct plot_curve fig; /* --plot */
};

static void csv_append(struct curve_out *o, const char *line)
{
    size_t n = strlen(line);
    if (o->len + n + 1 > o->cap) {
        size_t cap = (o->cap ? o->cap * 2 : 4096) + n;
        char *x = realloc(o->csv, cap);
        if (!x)
            return;
        o->csv = x;
        o->cap = cap;
    }
    memcpy(o->csv + o->len, line, n + 1);
    o->len += n;
}

static int on_point(void *user, const struct saturn_config *c, const struct saturn_results *r)
{
    struct curve_out *o = user;
    cli_progress_clear();
    char line[512];
    snprintf(line, sizeof line, "%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%d,%llu,%llu,%.3f\n",
             saturn_config_real(c, "traffic.flit_rate"), r->offered, r->accepted,
             r->packet_latency.mean, r->packet_latency.p50, r->packet_latency.p99,
             r->packet_latency.max, r->network_latency.mean, r->hops_mean, r->inflight_mean,
             r->saturated ? 1 : 0, (unsigned long long)r->measured_packets,
             (unsigned long long)r->measured_delivered, r->wall_seconds);
    csv_append(o, line);
    plot_curve_add(&o->fig, r->offered, r->accepted, r->packet_latency.mean, r->saturated);
    if (!o->quiet)
        printf("  %8.4f %9.4f %9.4f %10.2f %7.0f %7.0f  %s\n", saturn_config_real(c, "traffic.flit_rate"),
               r->offered, r->accepted, r->packet_latency.mean, r->packet_latency.p99,
               r->packet_latency.max, r->saturated ? "saturated" : "");
    fflush(stdout);
    return 0;
}

int cmd_curve(int argc, char **argv)
{
    struct cli_args a;
    int rc = cli_parse(argc, argv, &a, true);
    if (!rc && !a.help)
        rc = cli_only(&a, "curve", CLI_PLOT);
    if (rc || a.help) {
        if (a.help)
            printf("usage: saturn curve [--preset NAME] [FILE.ini] [key=value ...] [--csv PATH]\n"
                   "                    [--plot PATH] [--verbose] [--progress[=live|plain]] [-q]\n\n"
                   "Runs steady-state simulations at offered loads curve.from, +curve.step, ...\n"
                   "up to curve.to (stopping after the first saturated point unless\n"
                   "curve.stop_at_saturation = false), then bisects curve.refine times between\n"
                   "the last stable and the first saturated load. Prints a table and the\n"
                   "saturation throughput; --csv PATH writes one row per point; --plot PATH\n"
                   "(.png, .svg or .pdf) draws latency against accepted load with gnuplot\n"
                   "(saturated points hollow). Progress goes to stderr (--progress, -q).\n");
        cli_free(&a);
        return rc;
    }
    if ((rc = cli_plot_check(a.plot_path))) {
        cli_free(&a);
        return rc;
    }
    struct curve_out o = {.quiet = a.quiet};
    char legend[256];
    snprintf(legend, sizeof legend, "%s traffic, %s routing", saturn_config_str(a.cfg, "traffic.pattern"),
             saturn_config_str(a.cfg, "routing.algorithm"));
    o.fig.title = strdup(legend);
    csv_append(&o, "rate,offered,accepted,latency_mean,latency_p50,latency_p99,latency_max,"
                   "network_latency_mean,hops_mean,inflight_mean,saturated,measured_packets,"
                   "measured_delivered,wall_seconds\n");
    if (!a.quiet)
        printf("saturn %s curve\n      rate   offered  accepted   lat.mean lat.p99 lat.max\n",
               saturn_version());
    struct saturn_error err = {0};
    struct saturn_curve_summary sum;
    rc = cli_memory_check(a.cfg, 1, &err);
    if (rc == SATURN_OK) {
        struct cli_progress prog;
        cli_progress_begin(&prog, &a);
        prog.name = "curve";
        rc = saturn_curve_progress(a.cfg, on_point, &o, cli_progress_report, &prog, &sum, &err);
        cli_progress_end(&prog, rc == 0);
    }
    if (rc) {
        rc = cli_fail(&err);
    } else {
        /* the CSV and the figure renamed into place together, or neither */
        struct cli_stage st = {0};
        const char *tmp;
        if (a.csv_path) {
            if (!(tmp = cli_stage_file(&st, a.csv_path)))
                rc = EXIT_BAD_INPUT;
            else if (saturn_write_file_atomic(tmp, o.csv, o.len, &err)) {
                cli_stage_msg(&err, &st);
                rc = cli_fail(&err);
            }
        }
        if (rc == 0 && a.plot_path) {
            char what[512], title[600];
            cli_describe(a.cfg, what, sizeof what);
            snprintf(title, sizeof title, "saturn curve: %s", what);
            if (!(tmp = cli_stage_file(&st, a.plot_path)))
                rc = EXIT_BAD_INPUT;
            else if ((rc = cli_plot_draw(a.plot_path, tmp,
                                         plot_curves_script(a.plot_path, tmp, title, &o.fig, 1,
                                                            &err))) &&
                     err.code)
                rc = cli_fail(&err);
        }
        if (rc == 0)
            rc = cli_stage_commit(&st);
        else
            cli_stage_abort(&st);
        if (!a.quiet && rc == 0) {
            printf("\nsaturation throughput %.4f flits/node/cycle (highest accepted load)\n",
                   sum.saturation_throughput);
            if (sum.saturated_rate > 0)
                printf("saturation load between %.4f (stable) and %.4f (saturated) flits/node/cycle\n",
                       sum.stable_rate, sum.saturated_rate);
            else
                printf("no point saturated (highest load %.4f)\n", sum.stable_rate);
            printf("zero-load latency %.2f cycles (first point), %d points\n",
                   sum.zero_load_latency, sum.points);
            printf("configuration (resolved):\n");
            cli_print_config(stdout, a.cfg, "curve", a.verbose);
        }
    }
    free(o.csv);
    plot_curve_free(&o.fig);
    cli_free(&a);
    return rc;
}
