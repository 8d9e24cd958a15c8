/* saturn cupstack: the inter-slice interval that minimises a sliced
 * collective's duration (paper 003, sections 3 and 4), against the
 * cup-stacking bound T_e (s - 1) + t_d of its unit slice. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/collective_eval.h"
#include "cli/parallel.h"
#include "experiment/workload.h"

struct point {
    const struct saturn_config *base;
    uint64_t interval, duration, thickness;
    int rc;
    struct saturn_error err;
};

/* The points and the progress over them (points finish on worker threads). */
struct points {
    struct point *pt;
    size_t n, done;
    pthread_mutex_t lock; /* counts and reports in order */
    struct cli_progress line;
};

static void run_point(void *user, size_t i);

static void run_counted(void *user, size_t i)
{
    struct points *ps = user;
    run_point(ps->pt, i);
    pthread_mutex_lock(&ps->lock);
    struct saturn_progress r = {.task = "cupstack", .phase = "intervals", .done = ++ps->done,
                                .total = ps->n, .unit = "runs"};
    cli_progress_report(&ps->line, &r);
    pthread_mutex_unlock(&ps->lock);
}

static void run_point(void *user, size_t i)
{
    struct point *pt = &((struct point *)user)[i];
    struct saturn_config *c = saturn_config_clone(pt->base);
    char v[32];
    snprintf(v, sizeof v, "%llu", (unsigned long long)pt->interval);
    pt->rc = !c ? SATURN_ENOMEM : saturn_config_set(c, "collective.interval", v, NULL, 0, &pt->err);
    if (!pt->rc)
        pt->rc = collective_eval(c, NULL, &pt->duration, &pt->thickness, NULL, &pt->err);
    saturn_config_free(c);
}

int cmd_cupstack(int argc, char **argv)
{
    struct cli_args a;
    int jobs = 0;
    char **rest = calloc((size_t)argc + 1, sizeof *rest);
    if (!rest)
        return 1;
    int nrest = 0;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "-j") && i + 1 < argc) {
            if ((jobs = cli_jobs_arg(argv[++i])) < 0) {
                free(rest);
                return EXIT_BAD_INPUT;
            }
        } else {
            rest[nrest++] = argv[i];
        }
    }
    int rc = cli_parse(nrest, rest, &a, true);
    if (!rc && !a.help)
        rc = cli_only(&a, "cupstack", 0);
    free(rest);
    if (rc || a.help) {
        if (a.help)
            printf("usage: saturn cupstack [FILE.ini] [key=value ...] [--csv PATH] [-j N] [-q]\n\n"
                   "For a collective split into s = collective.slices slices (of\n"
                   "collective.payload), runs its unit slice (one slice per node, from\n"
                   "collective.schedule or unison) for its height t_d and effective thickness\n"
                   "T_e, then the s-slice collective at every inter-slice interval from 0 to\n"
                   "cupstack.max_interval (default t_d) in steps of cupstack.step, on -j N cores.\n"
                   "Prints the interval with the shortest duration T_d against the bound\n"
                   "T_e (s - 1) + t_d; --csv PATH writes interval,duration,thickness rows.\n");
        cli_free(&a);
        return rc;
    }
    struct saturn_error err = {0};
    int64_t s = saturn_config_int(a.cfg, "collective.slices");
    int64_t p = saturn_config_int(a.cfg, "collective.payload");
    if (workload_of(a.cfg) != WORKLOAD_COLLECTIVE || s < 2 || p < s ||
        saturn_config_int(a.cfg, "collective.packets") != 1) {
        saturn_config_fail(a.cfg, "collective.slices", &err,
                           "cupstack needs sim.workload = collective, collective.packets = 1 "
                           "(one packet per node, as its unit slice is one slice per node), "
                           "and 2 <= collective.slices <= collective.payload");
        rc = cli_fail(&err);
        cli_free(&a);
        return rc;
    }
    /* the unit slice: one slice of floor(p/s) payload flits per node */
    struct saturn_config *unit = saturn_config_clone(a.cfg);
    char v[32];
    snprintf(v, sizeof v, "%lld", (long long)(p / s));
    uint64_t td = 0, te = 0;
    rc = !unit ? saturn_error_set(&err, SATURN_ENOMEM, "out of memory")
               : saturn_config_set(unit, "collective.payload", v, NULL, 0, &err);
    if (!rc)
        rc = saturn_config_set(unit, "collective.slices", "1", NULL, 0, &err);
    if (!rc)
        rc = cli_memory_check(a.cfg, (unsigned)(jobs > 0 ? jobs : cli_default_jobs()), &err);
    if (!rc)
        rc = collective_eval(unit, NULL, &td, &te, NULL, &err);
    saturn_config_free(unit);
    if (rc) {
        rc = cli_fail(&err);
        cli_free(&a);
        return rc;
    }
    uint64_t maxi = (uint64_t)saturn_config_int(a.cfg, "cupstack.max_interval");
    uint64_t step = (uint64_t)saturn_config_int(a.cfg, "cupstack.step");
    if (!maxi)
        maxi = td;
    size_t n = (size_t)(maxi / step) + 1;
    struct point *pts = calloc(n, sizeof *pts);
    if (!pts) {
        fprintf(stderr, "saturn: error: out of memory\n");
        cli_free(&a);
        return 1;
    }
    for (size_t i = 0; i < n; i++) {
        pts[i].base = a.cfg;
        pts[i].interval = i * step;
    }
    struct points ps = {.pt = pts, .n = n};
    pthread_mutex_init(&ps.lock, NULL);
    cli_progress_begin(&ps.line, &a);
    ps.line.name = "cupstack";
    cli_parallel_for(n, jobs, run_counted, &ps);
    cli_progress_end(&ps.line, true);
    pthread_mutex_destroy(&ps.lock);
    size_t best = 0;
    for (size_t i = 0; i < n && !rc; i++) {
        if (pts[i].rc) {
            rc = cli_fail(&pts[i].err);
            break;
        }
        if (pts[i].duration < pts[best].duration)
            best = i;
    }
    if (!rc && a.csv_path) {
        struct cli_csv c;
        if (!(rc = cli_csv_open(&c, a.csv_path, "interval,duration,thickness\n"))) {
            for (size_t i = 0; i < n; i++)
                fprintf(c.f, "%llu,%llu,%llu\n", (unsigned long long)pts[i].interval,
                        (unsigned long long)pts[i].duration, (unsigned long long)pts[i].thickness);
            rc = cli_csv_commit(&c);
        }
    }
    if (!rc && !a.quiet) {
        printf("saturn %s cupstack: %lld slices of %lld payload flits (+ header), %s starts\n",
               saturn_version(), (long long)s, (long long)(p / s),
               saturn_config_str(a.cfg, "collective.schedule")[0] ? "scheduled" : "unison");
        printf("  unit slice     t_d %llu cycles, T_e %llu cycles\n", (unsigned long long)td,
               (unsigned long long)te);
        printf("  intervals      0..%llu step %llu (%zu runs)\n", (unsigned long long)maxi,
               (unsigned long long)step, n);
        printf("  best interval  %llu: T_d %llu cycles (interval 0: %llu)\n",
               (unsigned long long)pts[best].interval, (unsigned long long)pts[best].duration,
               (unsigned long long)pts[0].duration);
        printf("  bound          T_e (s - 1) + t_d = %llu cycles\n",
               (unsigned long long)(te * (uint64_t)(s - 1) + td));
    }
    free(pts);
    cli_free(&a);
    return rc;
}
