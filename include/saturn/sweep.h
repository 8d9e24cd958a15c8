/* saturn — parameter sweeps: a spec (a base configuration and grids of
 * values), the points it expands to, their results as a table, and the
 * best-parameter summary of paper 000 (Yokota et al.): "individual best"
 * (best parameters per traffic pattern) and "average best" (one parameter
 * set for every pattern, by the geometric mean of its speed-ups).
 *
 * The spec and the CSV files are libsaturn_io (src/io/sweep_spec.c,
 * sweep_values.c, sweep_csv.c); tables and the summary are libsaturn
 * (src/experiment/sweep_table.c, sweep_summary.c, sweep_report.c), so they
 * can be used and tested without files. */
#ifndef SATURN_SWEEP_H
#define SATURN_SWEEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "saturn/config.h"
#include "saturn/error.h"
#include "saturn/results.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- summary options ([summary] section or command-line flags) ---- */

enum saturn_better { SATURN_BETTER_AUTO, SATURN_BETTER_LOWER, SATURN_BETTER_HIGHER };

struct saturn_summary_opts {
    char metric[32];    /* a metric column (default duration) */
    enum saturn_better better; /* AUTO: higher for accepted/offered, else lower */
    char across[128];   /* the key whose values are the "patterns" */
    char group[128];    /* the key naming the model; not varied: one group */
    char seeds[128];    /* rows differing only in this key are averaged */
    char baseline[512]; /* "key=value[, key=value ...]": the reference rows */
};

/* The metric columns of a sweep CSV, in order (NULL-terminated). */
extern const char *const saturn_sweep_metrics[];

void saturn_summary_opts_default(struct saturn_summary_opts *o);
/* Sets one option by name (metric, better, across, group, seeds,
 * baseline), checking it; errors name file:line (file NULL: command line). */
int saturn_summary_opts_set(struct saturn_summary_opts *o, const char *name,
                            const char *value, const char *file, int line,
                            struct saturn_error *err);
/* True when a higher metric is better under these options. */
bool saturn_summary_higher_better(const struct saturn_summary_opts *o);

/* ---- the spec (libsaturn_io) ---- */

struct saturn_sweep_axis {  /* one key of one grid */
    char *key;              /* "section.name" */
    int line;               /* where its list was given */
    size_t column;          /* index into saturn_sweep.keys */
    size_t nvalues;
    char **values;          /* each one a valid value of key */
};

struct saturn_sweep_grid {  /* one [sweep] or [sweep NAME] section */
    char *name;             /* "" for [sweep] */
    int line;
    size_t naxes;
    struct saturn_sweep_axis *axes;
    size_t first, npoints;  /* its points are [first, first + npoints) */
};

struct saturn_sweep {
    char *path;
    struct saturn_config *base;   /* the file's other sections (+ overrides) */
    size_t ngrids;
    struct saturn_sweep_grid *grids;
    size_t nkeys;                 /* every key any grid varies, */
    char **keys;                  /* in order of first appearance */
    size_t npoints;
    struct saturn_summary_opts summary; /* defaults + [summary] */
};

/* Reads a spec. Errors (syntax, unknown key, bad value, bad range, no
 * grid) name the file and line; code SATURN_EINPUT. */
int saturn_sweep_load(const char *path, struct saturn_sweep **out,
                      struct saturn_error *err);
/* Applies a command-line "key=value" to the base configuration; a key that
 * a grid varies is an error (the grid would silently win). */
int saturn_sweep_override(struct saturn_sweep *sw, const char *arg,
                          struct saturn_error *err);
void saturn_sweep_free(struct saturn_sweep *sw);

/* The value of every key (nkeys entries) at point p: NULL where p's grid
 * does not vary that key. */
void saturn_sweep_point_values(const struct saturn_sweep *sw, size_t p,
                               const char **values);
/* The configuration of point p: base, then its grid's values. */
int saturn_sweep_point_config(const struct saturn_sweep *sw, size_t p,
                              struct saturn_config **out,
                              struct saturn_error *err);
/* "key=value, key=value" of p's varied keys, for messages. */
void saturn_sweep_point_label(const struct saturn_sweep *sw, size_t p,
                              char *buf, size_t n);

/* ---- the sweep CSV (libsaturn_io) ----
 * "point,<keys>,<metrics>", one row per point, wall_seconds last. */

/* malloc'd, each ending in '\n'. */
char *saturn_sweep_csv_header(const struct saturn_sweep *sw);
char *saturn_sweep_csv_row(const struct saturn_sweep *sw, size_t p,
                           const struct saturn_results *r);
/* Resume: when path exists, checks that it was written by this sweep (same
 * header, same values for every point it holds), drops a final partial
 * line (a killed run) by truncating the file, and marks done[p] for the
 * points present. *exists tells whether the file held a header. */
int saturn_sweep_csv_scan(const struct saturn_sweep *sw, const char *path,
                          bool *done, bool *exists, struct saturn_error *err);
/* Rewrites path atomically with its rows sorted by point id. */
int saturn_sweep_csv_sort(const char *path, struct saturn_error *err);

/* ---- tables and the summary (libsaturn) ---- */

struct saturn_table {
    size_t ncols;
    char **cols;
    size_t key_begin, key_end; /* columns [key_begin, key_end) are the varied keys */
    size_t nrows, cap;
    char **cells;              /* row r, column c: cells[r * ncols + c] */
};

struct saturn_table *saturn_table_new(size_t ncols, const char *const *cols,
                                      size_t key_begin, size_t key_end);
/* Appends a row of ncols cells (copied; NULL is ""). */
int saturn_table_add(struct saturn_table *t, const char *const *cells);
void saturn_table_free(struct saturn_table *t);
/* Reads a sweep CSV (libsaturn_io): the key columns are those between
 * "point" and the first metric. */
int saturn_table_read_csv(const char *path, struct saturn_table **out,
                          struct saturn_error *err);

struct saturn_summary_stat {
    size_t n;        /* rows averaged (seeds); 0: no data */
    double mean, std; /* std: sample standard deviation (n - 1), 0 when n = 1 */
    double speedup;  /* vs the baseline on the same pattern; NAN: none */
};

struct saturn_summary_set {  /* one combination of the other varied keys */
    size_t group;            /* index into groups */
    char **values;           /* nparams values ("": not varied for this set) */
    struct saturn_summary_stat *stat; /* per pattern */
    double geomean;          /* of its speed-ups over all patterns; NAN if one is missing */
};

struct saturn_summary_group {
    char *name;              /* the group key's value ("" when not varied) */
    size_t *best;            /* per pattern: the individual-best set, or SIZE_MAX */
    size_t nbest;            /* patterns that have one */
    double best_geomean;     /* geometric mean of the individual-best speed-ups */
    size_t average;          /* the average-best set, or SIZE_MAX */
};

struct saturn_summary {
    struct saturn_summary_opts opts;
    bool higher_better;
    bool has_group, has_seeds; /* whether opts.group / opts.seeds are varied keys */
    size_t npatterns;
    char **patterns;         /* values of opts.across ("" if it is not varied) */
    size_t nparams;
    char **params;           /* the varied keys but across, seeds and group */
    size_t baseline_set;
    size_t nsets;
    struct saturn_summary_set *sets;
    size_t ngroups;
    struct saturn_summary_group *groups;
};

/* Errors (SATURN_EINPUT): a missing or non-numeric metric, no baseline, a
 * baseline matching no row, several parameter sets, or missing a pattern. */
int saturn_summary_compute(const struct saturn_table *t,
                           const struct saturn_summary_opts *o,
                           struct saturn_summary **out,
                           struct saturn_error *err);
void saturn_summary_free(struct saturn_summary *s);
/* A readable report. */
void saturn_summary_print(const struct saturn_summary *s, FILE *f);
/* Machine-readable: "group,kind,pattern,<params>,n,mean,std,speedup";
 * kind is baseline, individual, individual_geomean, average or
 * average_geomean. malloc'd text. */
char *saturn_summary_csv(const struct saturn_summary *s);

#ifdef __cplusplus
}
#endif
#endif
