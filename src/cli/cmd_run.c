#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

static void progress(void *user, uint64_t cycle, const char *phase)
{
    cli_progress(user, (unsigned long long)cycle, phase);
}

int cmd_run(int argc, char **argv)
{
    struct cli_args a;
    int rc = cli_parse(argc, argv, &a, false);
    if (rc || a.help) {
        if (a.help)
            printf("usage: saturn run [FILE.ini] [key=value ...] [--json PATH] [-q]\n\n"
                   "Runs one simulation (sim.workload: steady or collective) and prints a\n"
                   "summary with the resolved configuration. --json PATH writes one JSON\n"
                   "record (config, seed, version, metrics, latency histogram); -q prints\n"
                   "nothing but errors. Without FILE the built-in defaults run\n"
                   "(an 8x8 torus, DOR, uniform traffic at 0.1 flits/node/cycle).\n");
        cli_free(&a);
        return rc;
    }
    struct saturn_error err = {0};
    struct saturn_sim *sim;
    if ((rc = saturn_sim_create(a.cfg, &sim, &err))) {
        rc = cli_fail(&err);
        cli_free(&a);
        return rc;
    }
    saturn_sim_set_progress(sim, progress, NULL);
    struct saturn_results r;
    rc = saturn_sim_run(sim, &r, &err);
    saturn_sim_free(sim);
    cli_progress_clear();
    if (rc) {
        rc = cli_fail(&err);
        cli_free(&a);
        return rc;
    }
    if (a.json_path) {
        char *json = saturn_results_json(a.cfg, &r);
        if (!json || saturn_write_file_atomic(a.json_path, json, strlen(json), &err))
            rc = json ? cli_fail(&err) : 1;
        free(json);
    }
    if (!a.quiet && rc == 0)
        cli_print_summary(stdout, a.cfg, &r);
    saturn_results_free(&r);
    cli_free(&a);
    return rc;
}
