/* saturn: command-line front end. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

/* Every command, in the order of the usage text: the table is the one
 * list, so the usage and the unknown-command message name them all. */
static const struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *help; /* lines after the first start with a line break */
} commands[] = {
    {"run", cmd_run, "run one simulation and print a summary (--json PATH for a record)"},
    {"curve", cmd_curve, "sweep the offered load; find the saturation throughput (--csv PATH)"},
    {"sweep", cmd_sweep, "run a parameter sweep in parallel (resumable); best-parameter summary"},
    {"model", cmd_model, "analytic bounds, the mean-field model and the memory estimate"},
    {"ga", cmd_ga, "optimise per-node start times of a collective (genetic algorithm)"},
    {"cupstack", cmd_cupstack, "find the inter-slice interval of a sliced collective"},
    {"selftest", cmd_selftest, "--random N: run N random configurations, each checked (stress test)"},
    {"config", cmd_config, "--list: every parameter, --presets: the presets, --man: the manual\n"
                           "page; otherwise print the resolved configuration"},
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

const char *cli_command(size_t i, const char **help)
{
    if (i >= NCOMMANDS)
        return NULL;
    *help = commands[i].help;
    return commands[i].name;
}

static void usage(FILE *f)
{
    fprintf(f,
            "saturn %s: a cycle-accurate interconnection-network simulator\n\n"
            "usage: saturn COMMAND [FILE.ini] [key=value ...] [options]\n\n"
            "commands:\n",
            saturn_version());
    for (size_t i = 0; i < NCOMMANDS; i++) {
        fprintf(f, "  %-8s ", commands[i].name);
        for (const char *h = commands[i].help; *h; h++)
            if (*h == '\n')
                fputs("\n           ", f);
            else
                fputc(*h, f);
        fputc('\n', f);
    }
    fprintf(f,
            "\nKeys are section.name (saturn config --list). Exit codes: 0 success,\n"
            "2 bad input, 3 deadlock (watchdog), 1 anything else. Progress goes to\n"
            "stderr (a live line on a terminal, a line every few seconds otherwise;\n"
            "--progress forces it, -q silences it); results go to stdout and files.\n"
            "saturn COMMAND --help explains a command; saturn --version prints the version.\n");
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
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (!strcmp(cmd, commands[i].name))
            return commands[i].run(argc - 1, argv + 1);
    fprintf(stderr, "saturn: error: unknown command '%s'; the commands are", cmd);
    for (size_t i = 0; i < NCOMMANDS; i++)
        fprintf(stderr, "%s %s", i ? (i + 1 == NCOMMANDS ? " and" : ",") : "", commands[i].name);
    fprintf(stderr, " (saturn --help)\n");
    return EXIT_BAD_INPUT;
}
