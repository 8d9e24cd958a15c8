/* The saturn command: shared pieces of the subcommands. */
#ifndef SATURN_CLI_H
#define SATURN_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "saturn/io.h"
#include "saturn/saturn.h"

enum { EXIT_BAD_INPUT = 2, EXIT_DEADLOCK = 3 };

struct cli_args {
    struct saturn_config *cfg;
    const char *json_path;
    const char *csv_path;
    const char *series_path;
    const char *preset;
    const char *links_path;
    const char *chart_path;
    const char *gen_path;   /* --by-generation */
    int chart_scale;
    bool quiet;
    bool help;
};

/* [--preset NAME] [FILE.ini] [key=value ...] [--json PATH] [--csv PATH] [-q]. Returns 0 or
 * an exit code after printing the error. */
int cli_parse(int argc, char **argv, struct cli_args *a, bool allow_csv);
/* A CSV file written through a temporary name and renamed when complete. */
struct cli_csv {
    char *path, *tmp;
    FILE *f;
};
int cli_csv_open(struct cli_csv *c, const char *path, const char *header);
int cli_csv_commit(struct cli_csv *c); /* 0, or an exit code after printing */
void cli_csv_abort(struct cli_csv *c);
void cli_free(struct cli_args *a);
/* Prints err and maps its code to an exit code. */
int cli_fail(const struct saturn_error *err);
/* Progress line on a terminal, nothing otherwise. */
void cli_progress(void *user, unsigned long long cycle, const char *phase);
void cli_progress_clear(void);
void cli_print_config(FILE *f, const struct saturn_config *c);
void cli_print_summary(FILE *f, const struct saturn_config *c,
                       const struct saturn_results *r);

int cmd_run(int argc, char **argv);
int cmd_curve(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_config(int argc, char **argv);
int cmd_model(int argc, char **argv);
int cmd_ga(int argc, char **argv);
int cmd_cupstack(int argc, char **argv);
int cmd_selftest(int argc, char **argv);

#endif
