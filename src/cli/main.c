/* saturn: command-line front end. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

static void usage(FILE *f)
{
    fprintf(f,
            "saturn %s: a cycle-accurate interconnection-network simulator\n\n"
            "usage: saturn COMMAND [FILE.ini] [key=value ...] [options]\n\n"
            "commands:\n"
            "  run      run one simulation and print a summary (--json PATH for a record)\n"
            "  curve    sweep the offered load; find the saturation throughput (--csv PATH)\n"
            "  sweep    run a parameter sweep in parallel (resumable); best-parameter summary\n"
            "  model    analytic bounds, the mean-field model and the memory estimate\n"
            "  ga       optimise per-node start times of a collective (genetic algorithm)\n"
            "  cupstack find the inter-slice interval of a sliced collective\n"
            "  selftest --random N: run N random configurations, each checked (stress test)\n"
            "  config   --list: every parameter, --presets: the presets; otherwise print\n"
            "           the resolved configuration\n\n"
            "Keys are section.name (saturn config --list). Exit codes: 0 success,\n"
            "2 bad input, 3 deadlock (watchdog), 1 anything else.\n"
            "saturn COMMAND --help explains a command; saturn --version prints the version.\n",
            saturn_version());
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return EXIT_BAD_INPUT;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(cmd, "--version") || !strcmp(cmd, "version")) {
        printf("saturn %s\n", saturn_version());
        return 0;
    }
    if (!strcmp(cmd, "run"))
        return cmd_run(argc - 1, argv + 1);
    if (!strcmp(cmd, "curve"))
        return cmd_curve(argc - 1, argv + 1);
    if (!strcmp(cmd, "sweep"))
        return cmd_sweep(argc - 1, argv + 1);
    if (!strcmp(cmd, "config"))
        return cmd_config(argc - 1, argv + 1);
    if (!strcmp(cmd, "model"))
        return cmd_model(argc - 1, argv + 1);
    if (!strcmp(cmd, "ga"))
        return cmd_ga(argc - 1, argv + 1);
    if (!strcmp(cmd, "cupstack"))
        return cmd_cupstack(argc - 1, argv + 1);
    if (!strcmp(cmd, "selftest"))
        return cmd_selftest(argc - 1, argv + 1);
    fprintf(stderr, "saturn: error: unknown command '%s' (saturn --help lists them)\n", cmd);
    return EXIT_BAD_INPUT;
}
