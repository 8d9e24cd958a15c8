/* saturn ga: per-node injection times for a collective's slice, optimised
 * by paper 003's genetic algorithm (ga.c), fitness evaluated on local cores. */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/collective_eval.h"
#include "cli/parallel.h"
#include "saturn/ga.h"
#include "experiment/workload.h"

struct ga_eval {
    const struct saturn_config *cfg;
    bool thickness;
    const int64_t *const *genes;
    double *fitness;
    int jobs;
    int failed;
    struct saturn_error err;
    pthread_mutex_t lock; /* the first failure's report */
};

static void eval_one(void *user, size_t i)
{
    struct ga_eval *e = user;
    uint64_t d = 0, t = 0;
    struct saturn_error err = {0};
    if (collective_eval(e->cfg, e->genes[i], &d, &t, NULL, &err)) {
        pthread_mutex_lock(&e->lock);
        if (!e->failed) /* the first failure's message is enough */
            e->err = err;
        e->failed = 1;
        pthread_mutex_unlock(&e->lock);
        e->fitness[i] = INFINITY;
        return;
    }
    e->fitness[i] = (double)(e->thickness ? t : d);
}

static void eval_batch(void *user, const int64_t *const *genes, size_t n, double *fitness)
{
    struct ga_eval *e = user;
    e->genes = genes;
    e->fitness = fitness;
    cli_parallel_for(n, e->jobs, eval_one, e);
}

struct ga_progress {
    const struct saturn_ga_params *p;
    struct cli_progress line;
};

static void progress(void *user, uint32_t g, double best)
{
    struct ga_progress *gp = user;
    char phase[64];
    snprintf(phase, sizeof phase, "best %.0f", best);
    struct saturn_progress r = {.task = "ga", .phase = phase, .done = g,
                                .total = gp->p->generations, .unit = "generations"};
    cli_progress_report(&gp->line, &r);
}

int cmd_ga(int argc, char **argv)
{
    struct cli_args a;
    int jobs = 0;
    const char *schedule = NULL;
    /* -j N and --schedule PATH are this command's own options */
    char **rest = calloc((size_t)argc + 1, sizeof *rest);
    if (!rest)
        return 1;
    int nrest = 0;
    for (int i = 0; i < argc; i++) {
        if ((!strcmp(argv[i], "-j") || !strcmp(argv[i], "--schedule")) && i + 1 < argc) {
            if (argv[i][1] != 'j') {
                schedule = argv[++i];
            } else if ((jobs = cli_jobs_arg(argv[++i])) < 0) {
                free(rest);
                return EXIT_BAD_INPUT;
            }
        } else {
            rest[nrest++] = argv[i];
        }
    }
    int rc = cli_parse(nrest, rest, &a, false);
    if (!rc && !a.help)
        rc = cli_only(&a, "ga", CLI_JSON);
    if (rc || a.help) {
        if (a.help)
            printf("usage: saturn ga [--preset NAME] [FILE.ini] [key=value ...] --schedule OUT.csv\n"
                   "                 [-j N] [--json PATH] [-q]\n\n"
                   "Optimises the start time I_i of every node for a collective (paper 003,\n"
                   "section 4.3): a gene is the vector of I_i in [0, t_d0 - l_c], t_d0 the\n"
                   "duration with every node starting at 0 (unison) and l_c the slice length;\n"
                   "fitness ga.fitness = height (duration) or thickness (effective thickness\n"
                   "T_e); ga.genes, ga.generations, ga.crossover_interval, ga.crossover_rate,\n"
                   "ga.mutation_rate, ga.mutation_step, ga.lifetime, ga.watchdog; seed sim.seed. The unison\n"
                   "schedule is in the first population, so the result is never worse.\n"
                   "Fitness evaluations run on -j N cores (default: all). Writes the best\n"
                   "schedule as node,offset lines (use it with collective.schedule).\n");
        cli_free(&a);
        free(rest);
        return rc;
    }
    free(rest);
    struct saturn_error err = {0};
    if (!schedule) {
        fprintf(stderr, "saturn: error: ga needs --schedule OUT.csv (where the best schedule goes)\n");
        cli_free(&a);
        return EXIT_BAD_INPUT;
    }
    const char *const outs[] = {a.json_path, schedule}, *const opts[] = {"--json", "--schedule"};
    if ((rc = cli_check_paths(outs, opts, 2))) {
        cli_free(&a);
        return rc;
    }
    if (workload_of(a.cfg) != WORKLOAD_COLLECTIVE) {
        saturn_config_fail(a.cfg, "sim.workload", &err, "saturn ga optimises a collective; "
                                                         "set sim.workload = collective");
        rc = cli_fail(&err);
        cli_free(&a);
        return rc;
    }
    uint64_t d0, t0;
    size_t nodes = 0;
    if ((rc = cli_memory_check(a.cfg, (unsigned)(jobs > 0 ? jobs : cli_default_jobs()), &err)) ||
        (rc = collective_eval(a.cfg, NULL, &d0, &t0, &nodes, &err))) {
        rc = cli_fail(&err);
        cli_free(&a);
        return rc;
    }
    /* the slice length l_c, as the collective computes it */
    int64_t slices = saturn_config_int(a.cfg, "collective.slices");
    int64_t payload = saturn_config_int(a.cfg, "collective.payload");
    int64_t lc = payload > 0 || slices > 1
                     ? (payload > 0 ? payload : saturn_config_int(a.cfg, "traffic.packet_length") - 1) / slices + 1
                     : saturn_config_int(a.cfg, "traffic.packet_length");
    struct saturn_ga_params p = {
        .genes = (uint32_t)saturn_config_int(a.cfg, "ga.genes"),
        .members = (uint32_t)nodes,
        .max_value = (int64_t)d0 - lc > 0 ? (int64_t)d0 - lc : 0,
        .generations = (uint32_t)saturn_config_int(a.cfg, "ga.generations"),
        .crossover_interval = (uint32_t)saturn_config_int(a.cfg, "ga.crossover_interval"),
        .crossover_rate = saturn_config_real(a.cfg, "ga.crossover_rate"),
        .mutation_rate = saturn_config_real(a.cfg, "ga.mutation_rate"),
        .mutation_step = saturn_config_int(a.cfg, "ga.mutation_step"),
        .lifetime = (uint32_t)saturn_config_int(a.cfg, "ga.lifetime"),
        .watchdog = (uint32_t)saturn_config_int(a.cfg, "ga.watchdog"),
        .seed = (uint64_t)saturn_config_int(a.cfg, "sim.seed"),
        .init_all = saturn_config_enum(a.cfg, "ga.init") == 1,
    };
    struct ga_eval e = {.cfg = a.cfg, .thickness = saturn_config_enum(a.cfg, "ga.fitness") == 1,
                        .jobs = jobs};
    pthread_mutex_init(&e.lock, NULL);
    int64_t *unison = calloc(nodes, sizeof *unison);
    struct saturn_ga_result res = {0};
    if (!unison)
        rc = saturn_error_set(&err, SATURN_ENOMEM, "out of memory");
    else {
        struct ga_progress gp = {.p = &p};
        cli_progress_begin(&gp.line, &a);
        gp.line.name = "ga";
        rc = saturn_ga_run(&p, unison, eval_batch, &e, progress, &gp, &res, &err);
        cli_progress_end(&gp.line, rc == 0);
    }
    if (!rc && e.failed)
        err = e.err, rc = err.code ? err.code : 1;
    uint64_t d1 = 0, t1 = 0;
    if (!rc)
        rc = collective_eval(a.cfg, res.best, &d1, &t1, NULL, &err);
    /* both files or neither: written beside their paths, renamed together */
    struct cli_stage st = {0};
    const char *tmp = NULL;
    if (!rc && !(tmp = cli_stage_file(&st, schedule)))
        rc = saturn_error_set(&err, SATURN_EINPUT, "%s: cannot write", schedule);
    if (!rc)
        rc = schedule_write(tmp, res.best, nodes, &err);
    if (!rc && a.json_path && !(tmp = cli_stage_file(&st, a.json_path)))
        rc = saturn_error_set(&err, SATURN_EINPUT, "%s: cannot write", a.json_path);
    if (!rc && a.json_path) { /* the optimisation's metrics as one record */
        char buf[1024];
        int len = snprintf(buf, sizeof buf,
                           "{\n  \"saturn\": \"%s\",\n  \"fitness\": \"%s\",\n"
                           "  \"unison\": {\"duration\": %llu, \"thickness\": %llu},\n"
                           "  \"optimised\": {\"duration\": %llu, \"thickness\": %llu, "
                           "\"fitness\": %.17g, \"generation\": %u, \"evaluations\": %llu},\n"
                           "  \"generations\": %u\n}\n",
                           saturn_version(), e.thickness ? "thickness" : "height",
                           (unsigned long long)d0, (unsigned long long)t0,
                           (unsigned long long)d1, (unsigned long long)t1, res.best_fitness,
                           res.best_generation, (unsigned long long)res.evaluations, p.generations);
        rc = saturn_write_file_atomic(tmp, buf, (size_t)len, &err);
    }
    cli_stage_msg(&err, &st);
    if (rc) {
        cli_stage_abort(&st);
        rc = cli_fail(&err);
    } else if ((rc = cli_stage_commit(&st)) == 0 && !a.quiet) {
        printf("saturn %s ga: %zu nodes, slice of %lld flits, I_i in [0, %lld], fitness %s\n",
               saturn_version(), nodes, (long long)lc, (long long)p.max_value,
               e.thickness ? "thickness (T_e)" : "height (t_d)");
        printf("  unison     t_d0 %llu cycles, T_e %llu cycles\n", (unsigned long long)d0,
               (unsigned long long)t0);
        printf("  optimised  t_d  %llu cycles, T_e %llu cycles (generation %u of %u, %llu evaluations)\n",
               (unsigned long long)d1, (unsigned long long)t1, res.best_generation, p.generations,
               (unsigned long long)res.evaluations);
        printf("  schedule   %s\n", schedule);
    }
    saturn_ga_result_free(&res);
    free(unison);
    pthread_mutex_destroy(&e.lock);
    cli_free(&a);
    return rc;
}
