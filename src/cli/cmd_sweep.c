/* saturn sweep: parameter sweeps on local cores or over MPI ranks,
 * resumable, with the best-parameter summary of paper 000. */
#define _GNU_SOURCE /* asprintf */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/sweep_mpi.h"
#include "cli/sweep_pool.h"
#include "io/plot.h"
#include "cli/sweep_search.h"
#include "saturn/sweep.h"

#ifdef SATURN_MPI
#define MPI_NOTE "This saturn has MPI."
#else
#define MPI_NOTE "This saturn was built\nwithout MPI (CMake did not find libopenmpi-dev)."
#endif

static const char help_text[] =
    "usage: saturn sweep SPEC.ini [key=value ...] --csv PATH [-j N] [--summary] [--plot PATH] [-q]\n"
    "       saturn sweep SPEC.ini [key=value ...] --csv PATH --search [GOAL] [--race Z[:MIN]]\n"
    "       saturn sweep SPEC.ini [key=value ...] --dry-run\n"
    "       saturn sweep [SPEC.ini] --summarize PATH.csv [summary options]\n"
    "\n"
    "Runs every point of a parameter sweep, in parallel on local cores (-j N, default:\n"
    "every online CPU), appending one CSV row per point as it finishes.\n"
    "\n"
    "The spec is an INI file. Ordinary sections are the base configuration. Each\n"
    "[sweep] or [sweep NAME] section is a grid: every key (in full, section.name) has\n"
    "a comma-separated list of values; an item from:to or from:to:step is an inclusive\n"
    "range (integers stay integers); a \"quoted, item\" is one literal value (e.g. a\n"
    "per-dimension network.k); an indented line without '=' continues the list. A\n"
    "grid's points are the cartesian product of its keys, the last key varying\n"
    "fastest; the sweep's points are its grids' points, in file order. A point is the\n"
    "base, then the command-line key=value overrides, then the grid's values. Every\n"
    "point is checked (values and combinations) before anything runs: errors name the\n"
    "file and line, exit code 2, no CSV is written.\n"
    "\n"
    "  ; 8x8 torus, a collective of 4 packets per node\n"
    "  [network]\n"
    "  k = 8\n"
    "  [sim]\n"
    "  workload = collective\n"
    "  [collective]\n"
    "  packets = 4\n"
    "  [sweep vcs]\n"
    "  router.vcs = 2:4\n"
    "  traffic.pattern = uniform, transpose, tornado\n"
    "  sim.seed = 1:5\n"
    "  [summary]\n"
    "  metric = duration\n"
    "  baseline = router.vcs=2\n"
    "\n"
    "CSV: point,<every varied key>,duration,accepted,offered,latency_mean,latency_p99,\n"
    "network_latency_mean,hops_mean,saturated,cycles,wall_seconds. A point's id is its\n"
    "index in the expansion; a key its grid does not vary has an empty cell.\n"
    "Resume: when PATH exists, its header must be this sweep's (else exit 2); the\n"
    "points it holds are skipped and a partial last line (a killed run) is dropped.\n"
    "When every point is in, the file is rewritten sorted by point: the same spec\n"
    "gives the same file at any -j and across resumes, but for wall_seconds.\n"
    "\n"
    "Summary (--summary after the run, or --summarize on a finished CSV), from the\n"
    "spec's [summary] section and these options (which win):\n"
    "  --metric M        a metric column (default duration)\n"
    "  --better lower|higher  (default: higher for accepted and offered, else lower)\n"
    "  --across KEY      the key whose values are the patterns (traffic.pattern)\n"
    "  --group KEY|none  the key naming the model (control.model); not varied: one group\n"
    "  --seeds KEY|none  rows differing only in it are averaged (sim.seed)\n"
    "  --baseline K=V[,K=V]  the reference rows (required)\n"
    "A parameter set is a combination of the other varied keys. Per set and pattern:\n"
    "mean and sample standard deviation over seeds; speed-up = baseline mean / mean\n"
    "(mean / baseline mean when higher is better). Per group: the individual best set\n"
    "of each pattern and the geometric mean of those speed-ups; the average best set,\n"
    "the largest geometric mean of its speed-ups over every pattern (sets missing a\n"
    "pattern are skipped). Printed, and written to PATH.summary.csv (PATH without\n"
    ".csv).\n"
    "\n"
    "MPI (when saturn was built with Open MPI): started by mpirun or srun, rank 0\n"
    "hands the points out one at a time to the other ranks as they ask and writes\n"
    "each row to the CSV as it arrives; every worker rank runs one point at a time\n"
    "(-j only sets rank 0's threads for the check), so start one rank per core plus\n"
    "rank 0, which mostly sleeps:\n"
    "  mpirun -n 9 saturn sweep SPEC.ini --csv out.csv          # 8 workers\n"
    "  srun --mpi=pmix -K1 saturn sweep SPEC.ini --csv out.csv  # Slurm\n"
    "The file is the one a single process writes. Every rank reads SPEC.ini; only\n"
    "rank 0 touches the CSV and prints. A rank that dies ends the job, losing the\n"
    "points in progress: the same command again resumes the sweep. MPI starts only\n"
    "when a launcher's variables are set (OMPI_COMM_WORLD_SIZE, PMIX_RANK, PMI_RANK\n"
    "or PMI_SIZE): a plain saturn sweep needs no mpirun. " MPI_NOTE "\n"
    "\n"
    "Search (--search [individual|average|both], collectives, metric duration): the\n"
    "summary's bests without running every point: seeds in waves, a set leaves a\n"
    "pattern's race (or the average's) once a lower bound on its durations cannot\n"
    "beat a complete set, runs are cut off once they show as much. The summary of the\n"
    "rows it keeps in PATH (every set and pattern run on all its seeds) picks the same\n"
    "sets, means, deviations and speed-ups as the whole sweep's. PATH.partial.csv\n"
    "(every run) and PATH.cut.csv (cut-off runs) resume it. --race Z[:MIN[:EQ]] (not\n"
    "exact) also drops, from MIN seeds on (10), a set Z standard errors behind its\n"
    "group's leader, and with EQ > 0 (individual bests) a set within EQ of the\n"
    "leader's mean, Z standard errors included (the leader's equal: the pick is one of\n"
    "them). Threads only (not under mpirun). docs/ENGINE.md says more.\n"
    "\n"
    "Shared runs: points that differ only in entropy thresholds (entropy.rth, ron,\n"
    "roff, rn; base(R, Rn) is hyst(R, R, Rn)) are one run until the first gate\n"
    "decision on which they differ: one simulation stands for every point whose\n"
    "run is the same (saturn_run_shared). The rows are the ones each point gives\n"
    "alone, but wall_seconds, 0 for a point that shared another's simulation.\n"
    "--no-share runs every point by itself (MPI ranks always do).\n"
    "\n"
    "options: --csv PATH (required to run), -j/--jobs N, --summary, --summarize PATH,\n"
    "--plot PATH (.png, .svg or .pdf: latency against accepted load with gnuplot, a\n"
    "curve per combination of the varied keys but the load, saturated points hollow),\n"
    "--dry-run (list and check the points, run nothing), --progress[=live|plain]\n"
    "(progress on stderr: a live line on a terminal, a line every few seconds\n"
    "otherwise, the default), --no-share, --search [GOAL], --race Z[:MIN[:EQ]], -q (no\n"
    "output but errors).\n";

/* What mpirun needs on this machine, said before it refuses: Open MPI will
 * not run as root without --allow-run-as-root, nor start more ranks than
 * cores without --oversubscribe (the README's 9 ranks on 2 cores). */
static void mpi_hint(FILE *f)
{
#ifdef SATURN_MPI
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    bool root = geteuid() == 0;
    fprintf(f, "\nOn this machine (%ld core%s%s): Open MPI starts one rank a core unless\n"
               "told --oversubscribe, and rank 0 mostly sleeps, so a worker a core is -n %ld\n"
               "with --oversubscribe%s:\n"
               "  mpirun%s --oversubscribe -n %ld saturn sweep SPEC.ini --csv out.csv\n",
            cores, cores == 1 ? "" : "s", root ? ", as root" : "", cores + 1,
            root ? "; as root, Open MPI also wants --allow-run-as-root" : "",
            root ? " --allow-run-as-root" : "", cores + 1);
#else
    (void)f;
#endif
}

struct sweep_args {
    const char *spec, *csv, *summarize, *plot;
    int jobs, progress;
    int search; /* 0: run every point; else enum search_goal */
    double race_z;   /* --race Z[:MIN[:EQ]] (0: off) */
    int race_min;
    double race_eq;  /* EQ (0: none) */
    bool summary, quiet, help, dry_run, no_share;
    const char *overrides[256];
    int noverrides;
    const char *opt_name[16], *opt_value[16];
    int nopts;
};

static int bad(const char *fmt, const char *a)
{
    fprintf(stderr, "saturn: error: ");
    fprintf(stderr, fmt, a);
    fprintf(stderr, " (saturn sweep --help)\n");
    return EXIT_BAD_INPUT;
}

static int parse_args(int argc, char **argv, struct sweep_args *a)
{
    static const char *const sopts[] = {"metric", "better", "across", "group", "seeds", "baseline"};
    memset(a, 0, sizeof *a);
    a->progress = -1;
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    a->jobs = n > 0 ? (int)n : 1;
    for (int i = 1; i < argc; i++) {
        const char *w = argv[i], *next = i + 1 < argc ? argv[i + 1] : NULL;
        bool takes = !strcmp(w, "--csv") || !strcmp(w, "--summarize") || !strcmp(w, "-j") ||
                     !strcmp(w, "--jobs") || !strcmp(w, "--plot");
        int so = -1;
        for (int k = 0; k < 6 && w[0] == '-' && w[1] == '-'; k++)
            if (!strcmp(w + 2, sopts[k]))
                so = k;
        if ((takes || so >= 0) && !next)
            return bad("%s needs a value", w);
        if (!strcmp(w, "--help") || !strcmp(w, "-h")) {
            a->help = true;
        } else if (!strcmp(w, "-q") || !strcmp(w, "--quiet")) {
            a->quiet = true;
        } else if (cli_progress_arg(w, &a->progress)) {
            continue;
        } else if (!strcmp(w, "--summary")) {
            a->summary = true;
        } else if (!strcmp(w, "--no-share")) {
            a->no_share = true;
        } else if (!strcmp(w, "--race")) {
            char *end;
            if (!next)
                return bad("%s needs a value", w);
            a->race_z = strtod(argv[++i], &end);
            a->race_min = 10;
            a->race_eq = 0;
            if (*end == ':')
                a->race_min = (int)strtol(end + 1, &end, 10);
            if (*end == ':')
                a->race_eq = strtod(end + 1, &end);
            if (*end || !(a->race_z > 0) || a->race_min < 2 || !(a->race_eq >= 0 && a->race_eq < 1))
                return bad("--race %s: allowed: Z, Z:MIN or Z:MIN:EQ, Z > 0 standard errors, "
                           "MIN >= 2 seeds, EQ in [0, 1) (a fraction of the leader's mean)",
                           argv[i]);
        } else if (!strcmp(w, "--search")) {
            const char *g = next && next[0] != '-' && !strchr(next, '=') && !strstr(next, ".ini")
                                ? next : NULL;
            a->search = !g || !strcmp(g, "both") ? SEARCH_BOTH
                        : !strcmp(g, "individual") ? SEARCH_INDIVIDUAL
                        : !strcmp(g, "average")    ? SEARCH_AVERAGE
                                                   : -1;
            if (a->search < 0)
                return bad("--search %s: allowed: individual, average or both (the default)", g);
            if (g)
                i++;
        } else if (!strcmp(w, "--dry-run") || !strcmp(w, "-n")) {
            a->dry_run = true;
        } else if (!strcmp(w, "--csv")) {
            a->csv = argv[++i];
        } else if (!strcmp(w, "--summarize")) {
            a->summarize = argv[++i];
        } else if (!strcmp(w, "--plot")) {
            a->plot = argv[++i];
        } else if (takes) { /* -j, --jobs */
            char *end;
            long j = strtol(argv[++i], &end, 10);
            if (*end || end == argv[i] || j < 1 || j > 4096)
                return bad("-j %s: not a number of workers in [1, 4096]", argv[i]);
            a->jobs = (int)j;
        } else if (so >= 0) {
            if (a->nopts == 16)
                return bad("%s: too many summary options", w);
            a->opt_name[a->nopts] = sopts[so];
            a->opt_value[a->nopts++] = argv[++i];
        } else if (w[0] == '-') {
            return bad("unknown option '%s'", w);
        } else if (strchr(w, '=')) {
            if (a->noverrides == 256)
                return bad("%s: too many overrides", w);
            a->overrides[a->noverrides++] = w;
        } else if (a->spec) {
            return bad("two specs ('%s' and another); give one, then key=value overrides", w);
        } else {
            a->spec = w;
        }
    }
    if (a->help)
        return 0;
    if (a->summarize && (a->csv || a->noverrides || a->dry_run))
        return bad("%s", "--summarize reads a finished CSV: no --csv, overrides or --dry-run");
    if (!a->summarize && !a->spec)
        return bad("%s", "no spec: saturn sweep SPEC.ini --csv PATH");
    if (!a->summarize && !a->csv && !a->dry_run)
        return bad("%s", "--csv PATH is required (the results go there)");
    if (a->race_z > 0 && !a->search)
        return bad("%s", "--race is a way of searching: add --search");
    if (a->search && (a->summarize || a->dry_run || !a->csv))
        return bad("%s", "--search runs into --csv PATH: no --summarize or --dry-run");
    if (a->nopts && !a->summary && !a->summarize && !a->search)
        return bad("%s: a summary option needs --summary or --summarize", a->opt_name[0]);
    if (a->plot && a->dry_run)
        return bad("%s", "--plot draws the results: not with --dry-run");
    return 0;
}

/* The files a sweep will write, checked before any point runs. */
static int check_outputs(const struct sweep_args *a, const char *summary)
{
    const char *const paths[] = {a->csv, summary, a->plot};
    const char *const opts[] = {"--csv", a->summarize ? "--summarize" : "--summary", "--plot"};
    int rc = cli_check_paths(paths, opts, 3);
    return rc ? rc : cli_plot_check(a->plot);
}

/* Latency against accepted load, a curve per combination of the other
 * varied keys (saturn sweep --plot). */
static int plot_sweep(const char *csv, const char *path, const char *spec)
{
    struct saturn_error err = {0};
    struct saturn_table *t = NULL;
    struct plot_curve *cv = NULL;
    size_t n = 0;
    int rc = saturn_table_read_csv(csv, &t, &err);
    if (!rc)
        rc = plot_curves_from_table(t, &cv, &n, &err);
    if (!rc) {
        char title[1200], *tmp = cli_plot_tmp(path);
        const char *base = strrchr(spec, '/');
        snprintf(title, sizeof title, "saturn sweep %s", base ? base + 1 : spec);
        rc = !tmp ? EXIT_BAD_INPUT
                  : cli_plot_run(path, tmp, plot_curves_script(path, tmp, title, cv, n, &err));
        if (rc && err.code)
            rc = cli_fail(&err);
    } else {
        rc = cli_fail(&err);
    }
    for (size_t i = 0; i < n; i++)
        plot_curve_free(&cv[i]);
    free(cv);
    saturn_table_free(t);
    return rc;
}

/* PATH.csv -> PATH.summary.csv */
static char *summary_path(const char *csv)
{
    size_t n = strlen(csv);
    if (n > 4 && !strcmp(csv + n - 4, ".csv"))
        n -= 4;
    char *p = NULL;
    return asprintf(&p, "%.*s.summary.csv", (int)n, csv) < 0 ? NULL : p;
}

static int summarize(const char *csv, const struct saturn_summary_opts *o, bool quiet)
{
    struct saturn_error err = {0};
    struct saturn_table *t = NULL;
    struct saturn_summary *s = NULL;
    char *text = NULL, *path = summary_path(csv);
    int rc = saturn_table_read_csv(csv, &t, &err);
    if (!rc)
        rc = saturn_summary_compute(t, o, &s, &err);
    if (!rc && (!path || !(text = saturn_summary_csv(s))))
        rc = saturn_error_set(&err, SATURN_ENOMEM, "out of memory");
    if (!rc)
        rc = saturn_write_file_atomic(path, text, strlen(text), &err);
    if (!rc && !quiet) {
        printf("\n");
        saturn_summary_print(s, stdout);
        printf("\nsummary written to %s\n", path);
    }
    free(text);
    free(path);
    saturn_summary_free(s);
    saturn_table_free(t);
    return rc ? cli_fail(&err) : 0;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void list_points(const struct saturn_sweep *sw)
{
    printf("%zu points in %zu grid%s\n    point  grid        values\n", sw->npoints, sw->ngrids,
           sw->ngrids == 1 ? "" : "s");
    char label[1024];
    for (size_t g = 0; g < sw->ngrids; g++)
        for (size_t p = sw->grids[g].first; p < sw->grids[g].first + sw->grids[g].npoints; p++) {
            saturn_sweep_point_label(sw, p, label, sizeof label);
            printf("  %7zu  %-10s  %s\n", p, sw->grids[g].name[0] ? sw->grids[g].name : "-", label);
        }
}

/* The spec with the command line's overrides (*sw is set even on error). */
static int load_sweep(const struct sweep_args *a, struct saturn_sweep **sw,
                      struct saturn_error *err)
{
    int rc = saturn_sweep_load(a->spec, sw, err);
    for (int i = 0; !rc && i < a->noverrides; i++)
        rc = saturn_sweep_override(*sw, a->overrides[i], err);
    return rc;
}

/* Checks the points to run, then runs them into the CSV: on threads, or
 * on the MPI workers when there are some. */
static int run_sweep(const struct saturn_sweep *sw, const struct sweep_args *a,
                     struct sweep_mpi *m)
{
    struct saturn_error err = {0};
    bool *done = calloc(sw->npoints, sizeof *done), exists = false;
    size_t *todo = malloc(sw->npoints * sizeof *todo), ntodo = 0;
    char *header = saturn_sweep_csv_header(sw);
    if (!done || !todo || !header) {
        free(done), free(todo), free(header);
        return cli_fail(&(struct saturn_error){SATURN_ENOMEM, "out of memory"});
    }
    int rc = a->csv && !a->dry_run ? saturn_sweep_csv_scan(sw, a->csv, done, &exists, &err) : SATURN_OK;
    for (size_t p = 0; p < sw->npoints; p++)
        if (!done[p])
            todo[ntodo++] = p;
    double t0 = now();
    /* MPI workers are processes of their own, perhaps on other machines */
    unsigned copies = m->size > 1 ? 1 : (unsigned)((size_t)a->jobs < ntodo ? (size_t)a->jobs : ntodo);
    struct sweep_pool pool = {.sw = sw, .todo = todo, .ntodo = ntodo, .check_only = true,
                              .mem_copies = copies,
                              .csv_path = a->csv, .total = sw->npoints,
                              .skipped = sw->npoints - ntodo, .share = !a->no_share};
    struct cli_progress prog;
    cli_progress_start(&prog, cli_progress_style(a->progress, a->quiet), a->progress >= 0);
    prog.name = "sweep";
    pool.progress = &prog;
    if (!rc && a->dry_run) {
        if (!a->quiet)
            list_points(sw);
        pool.ntodo = sw->npoints; /* check them all */
        for (size_t p = 0; p < sw->npoints; p++)
            todo[p] = p;
    }
    if (!rc && (rc = sweep_pool_run(&pool, a->jobs)))
        err = pool.err;
    cli_progress_clear();
    if (!rc && !a->dry_run) {
        FILE *f = fopen(a->csv, exists ? "a" : "w");
        if (!f)
            rc = saturn_error_set(&err, SATURN_EINPUT, "%s: cannot write: %s", a->csv,
                                  strerror(errno));
        else if (!exists && (fputs(header, f) < 0 || fflush(f)))
            rc = saturn_error_set(&err, SATURN_EIO, "%s: cannot write: %s", a->csv,
                                  strerror(errno));
        pool.check_only = false;
        pool.csv = f;
        if (!rc && !a->quiet) {
            printf("saturn %s sweep %s: %zu points, %zu to run, %zu already in %s", saturn_version(),
                   sw->path, sw->npoints, ntodo, sw->npoints - ntodo, a->csv);
            if (m->size > 1)
                printf(" (%d MPI worker%s)", m->size - 1, m->size > 2 ? "s" : "");
            putchar('\n');
        }
        fflush(stdout);
        if (!rc && (rc = m->size > 1 ? sweep_mpi_serve(m, &pool) : sweep_pool_run(&pool, a->jobs)))
            err = pool.err;
        if (f && fclose(f) && !rc)
            rc = saturn_error_set(&err, SATURN_EIO, "%s: cannot write", a->csv);
        cli_progress_clear();
        if (!rc)
            rc = saturn_sweep_csv_sort(a->csv, &err); /* deterministic final file */
        if (!rc && !a->quiet) {
            printf("sweep: %zu points run, %zu skipped (already in CSV), %.1f s, %d worker%s\n",
                   pool.finished, sw->npoints - ntodo, now() - t0, pool.workers,
                   pool.workers == 1 ? "" : "s");
            if (pool.stats.shared) {
                const struct saturn_share_stats *st = &pool.stats;
                printf("sweep: %llu simulations (%.0f cycles each); %llu points shared another's "
                       "run", (unsigned long long)st->runs,
                       (double)st->run_cycles / (double)st->runs, (unsigned long long)st->shared);
                if (st->detached)
                    printf("; followers left at cycle %.0f on average",
                           (double)st->left_cycles / (double)st->detached);
                printf("\n");
            }
        }
    }
    cli_progress_end(&prog, rc == 0);
    free(done);
    free(todo);
    free(header);
    return rc ? cli_fail(&err) : 0;
}

/* The search (sweep_search.c checks the points). */
static int search_sweep(const struct saturn_sweep *sw, const struct sweep_args *a,
                        const struct saturn_summary_opts *o)
{
    struct saturn_error err = {0};
    if (!a->quiet)
        printf("saturn %s sweep %s: %zu points, searching for the %s best\n", saturn_version(),
               sw->path, sw->npoints,
               a->search == SEARCH_BOTH ? "individual and average"
               : a->search == SEARCH_INDIVIDUAL ? "individual" : "average");
    fflush(stdout);
    double t0 = now();
    int rc = sweep_search(sw, o, (enum search_goal)a->search, a->race_z, (size_t)a->race_min,
                          a->race_eq, a->csv, a->jobs, !a->no_share, a->quiet, &err);
    cli_progress_clear();
    if (!rc && !a->quiet)
        printf("search: %.1f s\n", now() - t0);
    return rc ? cli_fail(&err) : 0;
}

static int sweep_main(int argc, char **argv, struct sweep_mpi *m)
{
    struct sweep_args a;
    int rc = parse_args(argc, argv, &a);
    if (rc || a.help) {
        if (a.help) {
            fputs(help_text, stdout);
            mpi_hint(stdout);
        }
        return rc;
    }
    if (a.search && m->size > 1)
        return bad("%s", "--search runs on one process's threads (-j): start it without mpirun");
    struct saturn_error err = {0};
    struct saturn_sweep *sw = NULL;
    struct saturn_summary_opts opts;
    saturn_summary_opts_default(&opts);
    if (a.spec && (rc = load_sweep(&a, &sw, &err))) {
        saturn_sweep_free(sw);
        return cli_fail(&err);
    }
    if (sw)
        opts = sw->summary;
    if (sw && !a.quiet)
        cli_print_warnings(sw->base);
    for (int i = 0; !rc && i < a.nopts; i++)
        rc = saturn_summary_opts_set(&opts, a.opt_name[i], a.opt_value[i], NULL, 0, &err);
    if (!rc && (a.summary || a.summarize) && !opts.baseline[0])
        rc = saturn_error_set(&err, SATURN_EINPUT,
                              "the summary needs a baseline: baseline = key=value in the spec's "
                              "[summary] section, or --baseline key=value");
    if (rc) {
        saturn_sweep_free(sw);
        return cli_fail(&err);
    }
    if (!rc && a.search && !opts.baseline[0])
        rc = saturn_error_set(&err, SATURN_EINPUT,
                              "--search needs the summary's baseline: baseline = key=value in "
                              "the spec's [summary] section, or --baseline key=value");
    if (rc) {
        saturn_sweep_free(sw);
        return cli_fail(&err);
    }
    char *sum_path = a.summary || a.summarize ? summary_path(a.summarize ? a.summarize : a.csv)
                                              : NULL;
    if ((rc = check_outputs(&a, sum_path))) {
        free(sum_path);
        saturn_sweep_free(sw);
        return rc;
    }
    free(sum_path);
    if (a.summarize) {
        rc = summarize(a.summarize, &opts, a.quiet);
    } else if (a.search) {
        if ((rc = search_sweep(sw, &a, &opts)) == 0 && a.summary)
            rc = summarize(a.csv, &opts, a.quiet);
    } else if ((rc = run_sweep(sw, &a, m)) == 0 && a.summary) {
        rc = summarize(a.csv, &opts, a.quiet);
    }
    if (rc == 0 && a.plot)
        rc = plot_sweep(a.summarize ? a.summarize : a.csv, a.plot, a.spec ? a.spec : "");
    saturn_sweep_free(sw);
    return rc;
}

/* An MPI worker's arguments, read when rank 0 sends the first point. */
struct worker_args {
    int argc;
    char **argv;
    struct sweep_args a;
};

static int worker_load(void *ctx, struct saturn_sweep **sw, struct saturn_error *err)
{
    struct worker_args *w = ctx;
    /* Rank 0 has accepted the same arguments: parse_args prints nothing. */
    if (parse_args(w->argc, w->argv, &w->a) || !w->a.spec)
        return saturn_error_set(err, SATURN_EINPUT, "cannot read the command line");
    return load_sweep(&w->a, sw, err);
}

int cmd_sweep(int argc, char **argv)
{
    struct sweep_mpi m;
    int rc = sweep_mpi_init(&m);
    if (rc)
        return rc;
    if (m.rank > 0) {
        struct worker_args w = {.argc = argc, .argv = argv};
        rc = sweep_mpi_work(&m, worker_load, &w);
    } else {
        rc = sweep_main(argc, argv, &m);
    }
    sweep_mpi_end(&m);
    return rc;
}
