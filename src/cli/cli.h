/* The saturn command: shared pieces of the subcommands. */
#ifndef SATURN_CLI_H
#define SATURN_CLI_H

#include <stdbool.h>
#include <stdint.h>
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
int cli_csv_close(struct cli_csv *c);  /* complete, not renamed yet (for a stage) */
void cli_csv_abort(struct cli_csv *c);
/* Several outputs written under temporary names beside their paths and
 * renamed into place together once all are complete, so that a run that
 * fails at any step leaves none of them. */
#define CLI_STAGE_MAX 8
struct cli_stage {
    int n;
    char *path[CLI_STAGE_MAX], *tmp[CLI_STAGE_MAX];
};
/* A temporary name beside path for a writer (NULL after printing why). */
const char *cli_stage_file(struct cli_stage *s, const char *path);
/* A finished CSV joins the stage (0, or an exit code after printing). */
int cli_stage_csv(struct cli_stage *s, struct cli_csv *c);
/* An error about a staged file names its real path. */
void cli_stage_msg(struct saturn_error *err, const struct cli_stage *s);
int cli_stage_commit(struct cli_stage *s); /* renames all: 0 or an exit code */
void cli_stage_abort(struct cli_stage *s); /* removes all */
/* The output paths of a command beyond cli_parse's (ga's --schedule),
 * checked as cli_parse checks its own: 0 or an exit code after printing. */
int cli_check_paths(const char *const *paths, const char *const *opts, int n);
void cli_free(struct cli_args *a);
/* Memory saturn may still take (0: unknown), and where that figure comes from. */
uint64_t cli_available_memory(const char **source);
/* "12 MiB", "3.4 GiB". */
void cli_bytes(uint64_t b, char *buf, size_t n);
/* SATURN_EINPUT (err says it all) when `copies` simulations of cfg at once
 * would exceed the available memory by saturn_memory_estimate, unless
 * sim.memory_check = false. */
int cli_memory_check(const struct saturn_config *cfg, unsigned copies, struct saturn_error *err);
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
