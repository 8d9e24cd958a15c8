#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/resource.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "io/file_mode.h"

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

int cli_check_paths(const char *const *paths, const char *const *opts, int n)
{
    for (int i = 0; i < n; i++) {
        int rc = check_output(opts[i], paths[i], paths, opts, i);
        if (rc)
            return rc;
    }
    return 0;
}

static int check_outputs(const struct cli_args *a)
{
    const char *const paths[] = {a->json_path, a->csv_path, a->series_path,
                                 a->links_path, a->chart_path, a->gen_path, a->plot_path};
    const char *const opts[] = {"--json", "--csv", "--series", "--links", "--chart",
                                "--by-generation", "--plot"};
    return cli_check_paths(paths, opts, 7);
}

int cli_only(const struct cli_args *a, const char *cmd, unsigned allowed)
{
    static const struct { unsigned flag; const char *opt; } outs[] = {
        {CLI_JSON, "--json"},   {CLI_SERIES, "--series"}, {CLI_LINKS, "--links"},
        {CLI_CHART, "--chart"}, {CLI_GEN, "--by-generation"}, {CLI_PLOT, "--plot"},
    };
    const char *const given[] = {a->json_path, a->series_path, a->links_path,
                                 a->chart_path, a->gen_path, a->plot_path};
    for (size_t i = 0; i < sizeof outs / sizeof outs[0]; i++)
        if (given[i] && !(allowed & outs[i].flag)) {
            fprintf(stderr, "saturn: error: %s: saturn %s writes no such file (saturn %s "
                            "--help)\n", outs[i].opt, cmd, cmd);
            return EXIT_BAD_INPUT;
        }
    if (a->chart_scale && !(allowed & CLI_CHART)) {
        fprintf(stderr, "saturn: error: --chart-scale: saturn %s draws no chart\n", cmd);
        return EXIT_BAD_INPUT;
    }
    return 0;
}

/* Options followed by a value (which may hold '=' and is no override). */
static bool takes_value(const char *w, bool allow_csv)
{
    static const char *const opts[] = {"--json", "--series", "--preset", "--links", "--chart",
                                       "--chart-scale", "--by-generation", "--plot"};
    for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++)
        if (!strcmp(w, opts[i]))
            return true;
    return allow_csv && !strcmp(w, "--csv");
}

int cli_parse(int argc, char **argv, struct cli_args *a, bool allow_csv)
{
    memset(a, 0, sizeof *a);
    a->progress = -1;
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
        } else if (cli_progress_arg(w, &a->progress)) {
            continue;
        } else if (!strcmp(w, "-v") || !strcmp(w, "--verbose")) {
            a->verbose = true;
        } else if (!strcmp(w, "--links") || !strcmp(w, "--chart") || !strcmp(w, "--chart-scale") ||
                   !strcmp(w, "--by-generation") || !strcmp(w, "--plot")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "saturn: error: %s needs a value\n", w);
                return EXIT_BAD_INPUT;
            }
            const char *v = argv[++i];
            if (!strcmp(w, "--links"))
                a->links_path = v;
            else if (!strcmp(w, "--plot"))
                a->plot_path = v;
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
        if (takes_value(w, allow_csv)) {
            i++;
            continue;
        }
        if (w[0] != '-' && strchr(w, '=') && saturn_config_apply_arg(a->cfg, w, &err))
            return cli_fail(&err);
    }
    if (!a->quiet)
        cli_print_warnings(a->cfg);
    return check_outputs(a);
}

void cli_free(struct cli_args *a) { saturn_config_free(a->cfg); }

void cli_print_warnings(const struct saturn_config *c)
{
    for (size_t i = 0; i < saturn_config_warning_count(c); i++)
        fprintf(stderr, "saturn: warning: %s\n", saturn_config_warning(c, i));
}

/* The first number in a file (0: none). */
static uint64_t read_number(const char *path, const char *prefix)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    char line[256];
    unsigned long long v = 0;
    size_t n = prefix ? strlen(prefix) : 0;
    while (fgets(line, sizeof line, f))
        if ((!prefix || !strncmp(line, prefix, n)) && sscanf(line + n, "%llu", &v) == 1)
            break;
    fclose(f);
    return v;
}

uint64_t cli_available_memory(const char **source)
{
    uint64_t avail = read_number("/proc/meminfo", "MemAvailable:") * 1024;
    *source = "MemAvailable in /proc/meminfo";
    uint64_t max = read_number("/sys/fs/cgroup/memory.max", NULL); /* "max": 0 */
    uint64_t cur = read_number("/sys/fs/cgroup/memory.current", NULL);
    if (max && (avail == 0 || max - (cur < max ? cur : max) < avail)) {
        avail = max - (cur < max ? cur : max);
        *source = "the cgroup's memory.max less memory.current";
    }
    struct rlimit rl;
    if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
        (avail == 0 || (uint64_t)rl.rlim_cur < avail)) {
        avail = (uint64_t)rl.rlim_cur;
        *source = "ulimit -v";
    }
    return avail;
}

void cli_bytes(uint64_t b, char *buf, size_t n)
{
    if (b >= (10ULL << 30))
        snprintf(buf, n, "%.0f GiB", (double)b / (1 << 30));
    else if (b >= (1ULL << 30))
        snprintf(buf, n, "%.1f GiB", (double)b / (1 << 30));
    else
        snprintf(buf, n, "%.0f MiB", (double)b / (1 << 20) + 0.5);
}

int cli_memory_check(const struct saturn_config *cfg, unsigned copies, struct saturn_error *err)
{
    struct saturn_memory m;
    if (!saturn_config_bool(cfg, "sim.memory_check") || saturn_memory_estimate(cfg, &m, err))
        return SATURN_OK;
    const char *source;
    uint64_t avail = cli_available_memory(&source);
    if (copies < 1)
        copies = 1;
    if (avail == 0 || m.total <= avail / copies)
        return SATURN_OK;
    char need[32], have[32], buf[32], vc[32], pk[32];
    cli_bytes(m.total, need, sizeof need);
    cli_bytes(avail, have, sizeof have);
    cli_bytes(m.buffers, buf, sizeof buf);
    cli_bytes(m.vc_state, vc, sizeof vc);
    cli_bytes(m.packets, pk, sizeof pk);
    char times[48] = "";
    if (copies > 1)
        snprintf(times, sizeof times, " x %u simulations at once (-j)", copies);
    return saturn_error_set(err, SATURN_EINPUT,
                            "memory: this configuration's estimate is %s%s (buffers %s, VC "
                            "state %s, packets %s; saturn model prints it), more than the %s "
                            "available (%s); make the network, its buffers or its queues "
                            "smaller%s, or set sim.memory_check = false to run it anyway",
                            need, times, buf, vc, pk, have, source,
                            copies > 1 ? ", use fewer workers" : "");
}

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
    int fd = mkstemp(c->tmp); /* 0600: given the umask's mode below */
    if (fd < 0 || fchmod(fd, io_new_file_mode()) != 0 || !(c->f = fdopen(fd, "w"))) {
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

int cli_csv_close(struct cli_csv *c)
{
    if (c->f && (fflush(c->f) || ferror(c->f) || fclose(c->f))) {
        fprintf(stderr, "saturn: error: %s: write failed\n", c->path);
        c->f = NULL;
        cli_csv_abort(c);
        return 1;
    }
    c->f = NULL;
    return 0;
}

const char *cli_stage_file(struct cli_stage *s, const char *path)
{
    if (s->n == CLI_STAGE_MAX)
        return NULL;
    size_t n = strlen(path) + 16;
    char *tmp = malloc(n), *p = strdup(path);
    if (!tmp || !p) {
        free(tmp);
        free(p);
        fprintf(stderr, "saturn: error: out of memory\n");
        return NULL;
    }
    snprintf(tmp, n, "%s.tmp.XXXXXX", path);
    int fd = mkstemp(tmp); /* the name, reserved; the writer replaces the file */
    if (fd < 0) {
        fprintf(stderr, "saturn: error: %s: cannot write: %s\n", path, strerror(errno));
        free(tmp);
        free(p);
        return NULL;
    }
    close(fd);
    s->path[s->n] = p;
    s->tmp[s->n++] = tmp;
    return tmp;
}

int cli_stage_csv(struct cli_stage *s, struct cli_csv *c)
{
    int rc = cli_csv_close(c);
    if (rc)
        return rc;
    if (s->n == CLI_STAGE_MAX) {
        cli_csv_abort(c);
        return 1;
    }
    s->path[s->n] = c->path;
    s->tmp[s->n++] = c->tmp;
    memset(c, 0, sizeof *c);
    return 0;
}

void cli_stage_msg(struct saturn_error *err, const struct cli_stage *s)
{
    for (int i = 0; i < s->n; i++) {
        char *at = strstr(err->msg, s->tmp[i]);
        if (!at)
            continue;
        char rest[sizeof err->msg];
        snprintf(rest, sizeof rest, "%s", at + strlen(s->tmp[i]));
        snprintf(at, sizeof err->msg - (size_t)(at - err->msg), "%s%s", s->path[i], rest);
    }
}

int cli_stage_commit(struct cli_stage *s)
{
    int rc = 0;
    for (int i = 0; i < s->n; i++)
        if (!rc && rename(s->tmp[i], s->path[i]) != 0) {
            fprintf(stderr, "saturn: error: %s: %s\n", s->path[i], strerror(errno));
            rc = 1;
        }
    cli_stage_abort(s); /* what could not be renamed */
    return rc;
}

void cli_stage_abort(struct cli_stage *s)
{
    for (int i = 0; i < s->n; i++) {
        unlink(s->tmp[i]); /* gone already once renamed */
        free(s->tmp[i]);
        free(s->path[i]);
    }
    s->n = 0;
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

void cli_progress_begin(struct cli_progress *p, const struct cli_args *a)
{
    cli_progress_start(p, cli_progress_style(a->progress, a->quiet), a->progress >= 0);
}

/* Length of the section part of a key ("router" of "router.vcs"). */
static size_t section_len(const char *key)
{
    const char *dot = strchr(key, '.');
    return dot ? (size_t)(dot - key) : 0;
}

/* The keys of a run, each section once (its keys gathered from wherever
 * the registry has them), wrapped to the screen. Unless verbose, only
 * the keys that apply to this run (saturn_param_applies) and those set;
 * a key set that plays no part is marked so. */
void cli_print_config(FILE *f, const struct saturn_config *c, const char *tool, bool verbose)
{
    size_t n = saturn_param_count(), hidden = 0;
    char *done = calloc(n, 1);
    if (!done)
        return;
    size_t tl = tool ? strlen(tool) : 0;
    for (size_t i = 0; i < n; i++) {
        const char *key = saturn_param_at(i)->name;
        bool tool_key = tl && !strncmp(key, tool, tl) && key[tl] == '.';
        bool show = verbose || tool_key || saturn_param_applies(c, i) ||
                    saturn_config_is_set(c, key);
        if (!show) {
            done[i] = 1;
            hidden++;
        }
    }
    for (size_t i = 0; i < n; i++) {
        if (done[i])
            continue;
        const char *first = saturn_param_at(i)->name;
        size_t sl = section_len(first), col = 4 + sl;
        fprintf(f, "  [%.*s]", (int)sl, first);
        for (size_t j = i; j < n; j++) {
            const char *key = saturn_param_at(j)->name;
            if (done[j] || section_len(key) != sl || strncmp(key, first, sl))
                continue;
            done[j] = 1;
            bool unused = !verbose && !saturn_param_applies(c, j) &&
                          !(tl && !strncmp(key, tool, tl) && key[tl] == '.');
            char item[320];
            int len = snprintf(item, sizeof item, " %s=%s%s", key + sl + 1,
                               saturn_config_value_text(c, j), unused ? " (unused)" : "");
            if (col + (size_t)len > 96) {
                fprintf(f, "\n   ");
                col = 3;
            }
            fputs(item, f);
            col += (size_t)len;
        }
        fputc('\n', f);
    }
    if (hidden)
        fprintf(f, "  (%zu keys of other topologies, routings, workloads and controllers not "
                   "shown: --verbose or saturn config)\n", hidden);
    free(done);
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

/* The run in one line: topology and its shape (with the node count when
 * known), routing, switching, buffers, traffic. */
static void cli_describe_nodes(const struct saturn_config *c, uint64_t nodes, char *buf, size_t n)
{
    char shape[256];
    saturn_topology_describe(c, nodes, shape, sizeof shape);
    snprintf(buf, n, "%s %s, %s routing, %s, %lld VCs x %lld flits, %s traffic, %lld-flit packets",
             saturn_config_str(c, "network.topology"), shape,
             saturn_config_str(c, "routing.algorithm"), saturn_config_str(c, "router.switching"),
             (long long)saturn_config_int(c, "router.vcs"),
             (long long)saturn_config_int(c, "router.buf_flits"),
             saturn_config_str(c, "traffic.pattern"),
             (long long)saturn_config_int(c, "traffic.packet_length"));
}

void cli_describe(const struct saturn_config *c, char *buf, size_t n)
{
    cli_describe_nodes(c, 0, buf, n);
}

void cli_print_summary(FILE *f, const struct saturn_config *c,
                       const struct saturn_results *r, bool verbose)
{
    char what[512];
    cli_describe_nodes(c, r->nodes, what, sizeof what);
    fprintf(f, "saturn %s: %s\n", saturn_version(), what);
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
    } else if (!strcmp(r->workload, "trace")) {
        fprintf(f, "trace %s, seed %llu: %llu messages\n\n", saturn_config_str(c, "trace.file"),
                (unsigned long long)r->seed, (unsigned long long)r->trace_messages);
        fprintf(f, "  %-16s %llu cycles (last delivery)\n", "duration",
                (unsigned long long)r->duration);
        fprintf(f, "  %-16s %.4f flits/node/cycle\n", "throughput", r->accepted);
        fprintf(f, "  %-16s mean %.2f cycles (release to last flit)\n", "message latency",
                r->message_latency_mean);
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
    if (r->block_cycles)
        fprintf(f, ", %llu of %llu cycles in blocks", (unsigned long long)r->block_cycles,
                (unsigned long long)r->cycles);
    fputc('\n', f);
    fprintf(f, "configuration (resolved):\n");
    cli_print_config(f, c, NULL, verbose);
}
