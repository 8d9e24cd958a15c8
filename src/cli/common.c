#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/stat.h>

#include "cli/cli.h"

/* An output path that cannot be written is an input error found before
 * the simulation runs (not after it): a directory in its place, a missing
 * or unwritable folder, or the same file for two outputs. */
static int check_output(const char *opt, const char *path, const char *const *others,
                        const char *const *other_opts, int nothers)
{
    if (!path)
        return 0;
    struct stat st;
    if (!*path || (stat(path, &st) == 0 && S_ISDIR(st.st_mode))) {
        fprintf(stderr, "saturn: error: %s '%s': is %s; give a file name\n", opt, path,
                *path ? "a directory" : "empty");
        return EXIT_BAD_INPUT;
    }
    for (int i = 0; i < nothers; i++)
        if (others[i] && strcmp(others[i], path) == 0) {
            fprintf(stderr, "saturn: error: %s and %s both write '%s'; give two files\n",
                    other_opts[i], opt, path);
            return EXIT_BAD_INPUT;
        }
    char *dir = strdup(path);
    if (!dir)
        return 1;
    char *slash = strrchr(dir, '/');
    const char *d = slash ? (slash == dir ? "/" : (*slash = 0, dir)) : ".";
    int rc = 0;
    if (access(d, W_OK | X_OK) != 0) {
        fprintf(stderr, "saturn: error: %s '%s': cannot write in '%s': %s\n", opt, path, d,
                strerror(errno));
        rc = EXIT_BAD_INPUT;
    }
    free(dir);
    return rc;
}

static int check_outputs(const struct cli_args *a)
{
    const char *const paths[] = {a->json_path, a->csv_path, a->series_path,
                                 a->links_path, a->chart_path, a->gen_path};
    const char *const opts[] = {"--json", "--csv", "--series", "--links", "--chart",
                                "--by-generation"};
    for (int i = 0; i < 6; i++) {
        int rc = check_output(opts[i], paths[i], paths, opts, i);
        if (rc)
            return rc;
    }
    return 0;
}

int cli_parse(int argc, char **argv, struct cli_args *a, bool allow_csv)
{
    memset(a, 0, sizeof *a);
    a->cfg = saturn_config_new();
    if (!a->cfg) {
        fprintf(stderr, "saturn: error: out of memory\n");
        return 1;
    }
    struct saturn_error err = {0};
    /* Options first, so that a file given after overrides cannot undo them. */
    const char *file = NULL;
    for (int i = 1; i < argc; i++) {
        const char *w = argv[i];
        if (!strcmp(w, "--help") || !strcmp(w, "-h")) {
            a->help = true;
        } else if (!strcmp(w, "-q") || !strcmp(w, "--quiet")) {
            a->quiet = true;
        } else if (!strcmp(w, "--links") || !strcmp(w, "--chart") || !strcmp(w, "--chart-scale") ||
                   !strcmp(w, "--by-generation")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "saturn: error: %s needs a value\n", w);
                return EXIT_BAD_INPUT;
            }
            const char *v = argv[++i];
            if (!strcmp(w, "--links"))
                a->links_path = v;
            else if (!strcmp(w, "--by-generation"))
                a->gen_path = v;
            else if (!strcmp(w, "--chart"))
                a->chart_path = v;
            else if ((a->chart_scale = atoi(v)) < 1 || a->chart_scale > 64) {
                fprintf(stderr, "saturn: error: --chart-scale %s: give pixels per cell, 1 to 64\n", v);
                return EXIT_BAD_INPUT;
            }
        } else if (!strcmp(w, "--preset")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "saturn: error: --preset needs a NAME (saturn config --presets)\n");
                return EXIT_BAD_INPUT;
            }
            a->preset = argv[++i];
        } else if (!strcmp(w, "--json") || !strcmp(w, "--series") ||
                   (allow_csv && !strcmp(w, "--csv"))) {
            if (i + 1 >= argc) {
                fprintf(stderr, "saturn: error: %s needs a PATH\n", w);
                return EXIT_BAD_INPUT;
            }
            *(w[2] == 'j' ? &a->json_path : w[2] == 's' ? &a->series_path : &a->csv_path) = argv[++i];
        } else if (w[0] == '-') {
            fprintf(stderr, "saturn: error: unknown option '%s' (saturn %s --help)\n", w, argv[0]);
            return EXIT_BAD_INPUT;
        } else if (!strchr(w, '=')) {
            if (file) {
                fprintf(stderr, "saturn: error: two configuration files ('%s' and '%s'); "
                                "give one, then key=value overrides\n", file, w);
                return EXIT_BAD_INPUT;
            }
            file = w;
        }
    }
    if (a->help)
        return 0;
    if (a->preset && saturn_config_preset(a->cfg, a->preset, &err))
        return cli_fail(&err);
    if (file && saturn_config_load_ini(a->cfg, file, &err))
        return cli_fail(&err);
    for (int i = 1; i < argc; i++) {
        const char *w = argv[i];
        if (!strcmp(w, "--json") || !strcmp(w, "--csv") || !strcmp(w, "--series") ||
            !strcmp(w, "--preset") || !strcmp(w, "--links") || !strcmp(w, "--chart") ||
            !strcmp(w, "--chart-scale")) {
            i++;
            continue;
        }
        if (w[0] != '-' && strchr(w, '=') && saturn_config_apply_arg(a->cfg, w, &err))
            return cli_fail(&err);
    }
    return check_outputs(a);
}

void cli_free(struct cli_args *a) { saturn_config_free(a->cfg); }

int cli_csv_open(struct cli_csv *c, const char *path, const char *header)
{
    memset(c, 0, sizeof *c);
    size_t n = strlen(path) + 16;
    c->path = strdup(path);
    c->tmp = malloc(n);
    if (!c->path || !c->tmp) {
        cli_csv_abort(c);
        return 1;
    }
    snprintf(c->tmp, n, "%s.tmp.XXXXXX", path);
    int fd = mkstemp(c->tmp);
    if (fd < 0 || !(c->f = fdopen(fd, "w"))) {
        fprintf(stderr, "saturn: error: %s: cannot write: %s\n", path, strerror(errno));
        if (fd >= 0) {
            close(fd);
            unlink(c->tmp);
        }
        free(c->path);
        free(c->tmp);
        memset(c, 0, sizeof *c);
        return EXIT_BAD_INPUT;
    }
    fputs(header, c->f);
    return 0;
}

int cli_csv_commit(struct cli_csv *c)
{
    int rc = 0;
    if (c->f && (fflush(c->f) || ferror(c->f) || fclose(c->f))) {
        fprintf(stderr, "saturn: error: %s: write failed\n", c->path);
        unlink(c->tmp);
        rc = 1;
    } else if (c->f && rename(c->tmp, c->path)) {
        fprintf(stderr, "saturn: error: %s: %s\n", c->path, strerror(errno));
        unlink(c->tmp);
        rc = EXIT_BAD_INPUT;
    }
    c->f = NULL;
    free(c->path);
    free(c->tmp);
    memset(c, 0, sizeof *c);
    return rc;
}

void cli_csv_abort(struct cli_csv *c)
{
    if (c->f) {
        fclose(c->f);
        unlink(c->tmp);
    }
    free(c->path);
    free(c->tmp);
    memset(c, 0, sizeof *c);
}

int cli_fail(const struct saturn_error *err)
{
    cli_progress_clear();
    fprintf(stderr, "saturn: error: %s\n", err->msg);
    switch (err->code) {
    case SATURN_EINPUT: return EXIT_BAD_INPUT;
    case SATURN_EDEADLOCK: return EXIT_DEADLOCK;
    default: return 1;
    }
}

void cli_progress(void *user, unsigned long long cycle, const char *phase)
{
    (void)user;
    if (isatty(STDERR_FILENO))
        fprintf(stderr, "\r  saturn: cycle %llu (%s)   ", cycle, phase);
}

void cli_progress_clear(void)
{
    if (isatty(STDERR_FILENO))
        fprintf(stderr, "\r%60s\r", "");
}

/* Every key, grouped by section, wrapped to the screen. */
void cli_print_config(FILE *f, const struct saturn_config *c)
{
    size_t n = saturn_param_count(), col = 0;
    char section[64] = "";
    for (size_t i = 0; i < n; i++) {
        const char *name = saturn_param_at(i)->name;
        const char *dot = strchr(name, '.');
        size_t sl = (size_t)(dot - name);
        if (strlen(section) != sl || strncmp(section, name, sl)) {
            snprintf(section, sizeof section, "%.*s", (int)sl, name);
            fprintf(f, "%s  [%s]", col ? "\n" : "", section);
            col = 4 + sl;
        }
        char item[256];
        int len = snprintf(item, sizeof item, " %s=%s", dot + 1, saturn_config_value_text(c, i));
        if (col + (size_t)len > 96) {
            fprintf(f, "\n   ");
            col = 3;
        }
        fputs(item, f);
        col += (size_t)len;
    }
    fputc('\n', f);
}

static void print_latency(FILE *f, const char *what, const struct saturn_latency *l)
{
    if (!l->count) {
        fprintf(f, "  %-16s no packets\n", what);
        return;
    }
    fprintf(f, "  %-16s mean %.2f  p50 %.0f  p99 %.0f  max %.0f cycles\n", what,
            l->mean, l->p50, l->p99, l->max);
}

void cli_print_summary(FILE *f, const struct saturn_config *c,
                       const struct saturn_results *r)
{
    int64_t k[SATURN_LIST_MAX];
    int nk = saturn_config_list(c, "network.k", k, SATURN_LIST_MAX);
    int dims = (int)saturn_config_int(c, "network.n");
    fprintf(f, "saturn %s: %s ", saturn_version(), saturn_config_str(c, "network.topology"));
    if (!strcmp(saturn_config_str(c, "network.topology"), "dragonfly"))
        fprintf(f, "p=%lld a=%lld h=%lld (%llu nodes, %s)", (long long)saturn_config_int(c, "dragonfly.p"),
                (long long)saturn_config_int(c, "dragonfly.a"),
                (long long)saturn_config_int(c, "dragonfly.h"), (unsigned long long)r->nodes,
                saturn_config_str(c, "dragonfly.arrangement"));
    else
        for (int d = 0; d < dims; d++)
            fprintf(f, "%s%lld", d ? "x" : "", (long long)(nk == 1 ? k[0] : k[d]));
    fprintf(f, ", %s routing, %s, %lld VCs x %lld flits, %s traffic, %lld-flit packets\n",
            saturn_config_str(c, "routing.algorithm"), saturn_config_str(c, "router.switching"),
            (long long)saturn_config_int(c, "router.vcs"),
            (long long)saturn_config_int(c, "router.buf_flits"),
            saturn_config_str(c, "traffic.pattern"),
            (long long)saturn_config_int(c, "traffic.packet_length"));
    if (!strcmp(r->workload, "steady")) {
        fprintf(f, "steady state, seed %llu: warm-up %llu cycles, measured %llu cycles, %llu cycles in all\n\n",
                (unsigned long long)r->seed, (unsigned long long)r->warmup,
                (unsigned long long)r->measure, (unsigned long long)r->cycles);
        fprintf(f, "  %-16s %.4f flits/node/cycle\n", "offered load", r->offered);
        fprintf(f, "  %-16s %.4f flits/node/cycle\n", "accepted load", r->accepted);
    } else if (!strcmp(r->workload, "phases")) {
        fprintf(f, "phases (%s), seed %llu: %llu cycles measured from cycle %llu, %llu cycles in all\n\n",
                saturn_config_str(c, "phases.list"), (unsigned long long)r->seed,
                (unsigned long long)r->measure, (unsigned long long)r->warmup,
                (unsigned long long)r->cycles);
        fprintf(f, "  %-16s %.4f flits/node/cycle\n", "offered load", r->offered);
        fprintf(f, "  %-16s %.4f flits/node/cycle\n", "accepted load", r->accepted);
        if (!r->drained)
            fprintf(f, "  %-16s %s\n", "undrained", r->saturated_why);
    } else if (!strcmp(r->workload, "ramp")) {
        fprintf(f, "ramp, seed %llu: load from %g rising %g flits/node/cycle per million cycles, "
                   "%llu cycles\n\n",
                (unsigned long long)r->seed, saturn_config_real(c, "ramp.from"),
                saturn_config_real(c, "ramp.per_million"), (unsigned long long)r->cycles);
        if (r->critical_load > 0)
            fprintf(f, "  %-16s %.4f flits/node/cycle (smoothed offered; nominal %.4f; cycle %llu)\n",
                    "critical load", r->critical_load, r->critical_nominal,
                    (unsigned long long)r->critical_cycle);
        else
            fprintf(f, "  %-16s not reached (throughput kept within %g %% of the offered load)\n",
                    "critical load", saturn_config_real(c, "ramp.drop"));
        fprintf(f, "  %-16s %.4f / %.4f flits/node/cycle over the run\n", "offered/accepted",
                r->offered, r->accepted);
    } else {
        fprintf(f, "collective, seed %llu: %llu packets per node", (unsigned long long)r->seed,
                (unsigned long long)r->collective_packets);
        if (r->collective_slices > 1)
            fprintf(f, ", each in %llu slices of %llu flits, %lld cycles apart",
                    (unsigned long long)r->collective_slices, (unsigned long long)r->slice_flits,
                    (long long)saturn_config_int(c, "collective.interval"));
        fprintf(f, "%s\n\n", saturn_config_str(c, "collective.schedule")[0] ? ", scheduled starts" : "");
        fprintf(f, "  %-16s %llu cycles (last delivery)\n", "duration",
                (unsigned long long)r->duration);
        fprintf(f, "  %-16s %llu cycles (effective thickness: the longest first-to-last flit time of a link)\n",
                "thickness", (unsigned long long)r->thickness);
        fprintf(f, "  %-16s %.4f flits/node/cycle\n", "throughput", r->accepted);
    }
    print_latency(f, "packet latency", &r->packet_latency);
    print_latency(f, "network latency", &r->network_latency);
    fprintf(f, "  %-16s %.3f (%llu packets)\n", "hops", r->hops_mean,
            (unsigned long long)r->packet_latency.count);
    char e[32];
    if (r->entropy_mean < 0) /* no packet stayed in the network for a whole window */
        snprintf(e, sizeof e, "n/a");
    else
        snprintf(e, sizeof e, "%.3f bits", r->entropy_mean);
    fprintf(f, "  %-16s Ra %.3f, Nv/routers %.2f, packet entropy E %s, throttled %.1f %%\n",
            "mobility", r->mobility_mean, r->valid_per_router, e, 100.0 * r->throttled_mean);
    if (r->sums_age_max)
        fprintf(f, "  %-16s mean %.1f cycles, largest %llu; %.1f %% of register hops found their link "
                "free\n", "age of sums", r->sums_age_mean, (unsigned long long)r->sums_age_max,
                100 * r->sums_hops_free);
    if (r->misrouted_global > 0 || r->misrouted_local > 0)
        fprintf(f, "  %-16s %.1f %% of the packets globally (intermediate group), %.1f %% "
                "locally (extra local hop)\n", "misrouted", 100.0 * r->misrouted_global,
                100.0 * r->misrouted_local);
    if (r->recoveries)
        fprintf(f, "  %-16s %llu packets through the Disha lane (token held %.1f %% of the run)\n",
                "recoveries", (unsigned long long)r->recoveries,
                r->cycles ? 100.0 * (double)r->recovery_busy / (double)r->cycles : 0.0);
    if (r->metapackets)
        fprintf(f, "  %-16s %llu metapacket gathers, time min %.0f mean %.1f max %.0f cycles\n",
                "gathers", (unsigned long long)r->gathers, r->gather_min, r->gather_mean,
                r->gather_max);
    if (!strcmp(r->workload, "steady")) {
        fprintf(f, "  %-16s %.1f packets in the network, %.3f packets queued per node (means)\n",
                "occupancy", r->inflight_mean, r->source_queue_mean);
        fprintf(f, "  %-16s N = %.1f packets in the system, lambda n tau = %.1f (ratio %.3f)\n",
                "Little's law", r->little_n, r->little_lambda_n_tau,
                r->little_lambda_n_tau > 0 ? r->little_n / r->little_lambda_n_tau : 0);
        if (r->saturated)
            fprintf(f, "  %-16s YES: %s\n", "saturated", r->saturated_why);
        else
            fprintf(f, "  %-16s no (backlog change %+.2f %% of offered flits; all measured packets delivered)\n",
                    "saturated", 100.0 * r->backlog_growth);
    }
    double s = r->wall_seconds > 0 ? r->wall_seconds : 1e-9;
    fprintf(f, "\nsimulator: %.2f s, %.2f M flit-hops/s, %.2f M router-cycles/s, peak memory %ld MiB",
            r->wall_seconds, (double)r->flit_hops / s / 1e6, (double)r->router_cycles / s / 1e6,
            r->peak_rss_kb / 1024);
    if (r->threads > 1)
        fprintf(f, ", %u threads", r->threads);
    fputc('\n', f);
    fprintf(f, "configuration (resolved):\n");
    cli_print_config(f, c);
}
