/* The saturn command: shared pieces of the subcommands. */
#ifndef SATURN_CLI_H
#define SATURN_CLI_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/progress.h"

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
    const char *plot_path;  /* --plot: a figure drawn by gnuplot */
    int chart_scale;
    int progress; /* --progress[=live|plain], --no-progress; -1: not given */
    bool quiet;
    bool verbose; /* the whole configuration in summaries */
    bool help;
};

/* [--preset NAME] [FILE.ini] [key=value ...] [--json PATH] [--csv PATH] [-q]. Returns 0 or
 * an exit code after printing the error. */
int cli_parse(int argc, char **argv, struct cli_args *a, bool allow_csv);
/* The output options a command writes (cli_only): another one given is
 * an error (exit 2), not a file silently never written. */
enum {
    CLI_JSON = 1, CLI_SERIES = 2, CLI_LINKS = 4, CLI_CHART = 8, CLI_GEN = 16, CLI_PLOT = 32
};
int cli_only(const struct cli_args *a, const char *cmd, unsigned allowed);
/* The output paths of a command beyond cli_parse's, checked as cli_parse
 * checks its own: 0 or an exit code after printing. */
int cli_check_paths(const char *const *paths, const char *const *opts, int n);
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
/* The configuration's warnings (a key given twice), on stderr. */
void cli_print_warnings(const struct saturn_config *c);
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
/* Progress on stderr (cli/progress.c): a live line on a terminal, a plain
 * line every few seconds otherwise; --progress forces it on, -q off. */
struct cli_progress {
    struct progress_meter m;
    pthread_mutex_t lock; /* reports may come from worker threads */
    struct saturn_progress last;
    char task[32], phase[64], label[128], unit[24];
    const char *name; /* the closing line's name (NULL: the last report's task) */
    bool reported, forced;
};
/* The style for --progress (requested, -1: not given) and -q. */
enum progress_style cli_progress_style(int requested, bool quiet);
/* 1 when w is a progress option (then *style is set), else 0. */
int cli_progress_arg(const char *w, int *style);
void cli_progress_start(struct cli_progress *p, enum progress_style style, bool forced);
void cli_progress_report(void *user, const struct saturn_progress *r); /* a saturn_progress_fn */
/* Clears a live line; a plain meter that printed (or was forced) closes
 * with a "done" line when ok. */
void cli_progress_end(struct cli_progress *p, bool ok);
/* Blanks a live line (on a terminal) before other output. */
void cli_progress_clear(void);
/* cli_progress_start for the progress options in a. */
void cli_progress_begin(struct cli_progress *p, const struct cli_args *a);
/* The resolved configuration, by section: the keys that apply to the run
 * and those set (all when verbose); tool names a section to show too
 * ("curve"), or is NULL. */
void cli_print_config(FILE *f, const struct saturn_config *c, const char *tool, bool verbose);
void cli_print_summary(FILE *f, const struct saturn_config *c,
                       const struct saturn_results *r, bool verbose);

/* --plot PATH (cli/plot.c): the format known and gnuplot installed, before
 * the run (0, or an exit code after printing); a temporary name beside
 * path for gnuplot to write; run script (both freed) and rename. */
int cli_plot_check(const char *path);
char *cli_plot_tmp(const char *path);
int cli_plot_run(const char *path, char *tmp, char *script);
/* gnuplot runs script (freed), which writes tmp (a staged name): 0, or 1
 * after printing why; tmp is left for the caller. */
int cli_plot_draw(const char *path, const char *tmp, char *script);
/* "torus 8x8, dor routing, wormhole, 3 VCs x 8 flits, uniform traffic,
 * 8-flit packets": a configuration in a line. */
void cli_describe(const struct saturn_config *c, char *buf, size_t n);

/* The commands (main.c): name and help of command i, NULL past the last. */
const char *cli_command(size_t i, const char **help);
/* The manual page saturn(1) in roff, from the commands, the parameter
 * registry and the presets (saturn config --man). */
void cli_print_man(FILE *f);

int cmd_run(int argc, char **argv);
int cmd_curve(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_config(int argc, char **argv);
int cmd_model(int argc, char **argv);
int cmd_ga(int argc, char **argv);
int cmd_cupstack(int argc, char **argv);
int cmd_selftest(int argc, char **argv);

#endif
