/* saturn sweep: the worker threads that check and run a sweep's points, and
 * the per-point pieces the MPI coordinator (sweep_mpi.c) shares with them. */
#ifndef SATURN_CLI_SWEEP_POOL_H
#define SATURN_CLI_SWEEP_POOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "cli/cli.h"
#include "saturn/sweep.h"

struct sweep_pool {
    const struct saturn_sweep *sw;
    const size_t *todo;   /* point ids, in order */
    size_t ntodo;
    bool check_only;      /* build (and so validate) each point, run nothing */
    unsigned mem_copies;  /* check: points that will run at once (the memory check) */
    FILE *csv;            /* run: rows are appended here as points finish */
    const char *csv_path;
    size_t total, skipped; /* for the progress line */
    struct cli_progress *progress; /* NULL: none */
    bool share;           /* run points that differ only in entropy thresholds together
                             (saturn_run_shared: the same rows, fewer simulations) */
    const uint64_t *cutoff; /* per point id (NULL: none): collectives may stop past it */
    /* When set, each point's row and results go here (under the pool's lock)
     * instead of to csv: the search (sweep_search.c). */
    void (*result)(struct sweep_pool *p, size_t id, const char *row,
                   const struct saturn_results *r);
    void *user;
    /* out */
    struct saturn_share_stats stats; /* when sharing: simulations and shared points */
    size_t finished;
    int workers;
    struct saturn_error err; /* the first failure (err.code 0: none) */
};

/* Runs every todo point on up to jobs threads; stops handing out points
 * after the first failure. Returns SATURN_OK or that failure's code. */
int sweep_pool_run(struct sweep_pool *p, int jobs);

/* One point: check_only builds (and so validates) it, and checks that
 * `copies` of it at once fit in memory; otherwise runs it and sets *row to
 * its CSV line (malloc'd). The only place a row is made, so every way of
 * running a sweep gives the same rows. */
int sweep_point_run(const struct saturn_sweep *sw, size_t id, bool check_only, unsigned copies,
                    char **row, struct saturn_error *err);
/* A point done: appends its row (if any) to p->csv with one write and a
 * flush, counts it, draws the progress line. Not thread-safe. */
void sweep_pool_record(struct sweep_pool *p, size_t id, const char *row);
/* Groups todo[0..ntodo) into units of points that may share simulations:
 * order is todo permuted so that each unit is contiguous, unit[u] .. unit[u+1]
 * its range (nunits + 1 entries). Points whose controller cannot share, and
 * every point when share is false, are units of one. */
int sweep_units(const struct saturn_sweep *sw, const size_t *todo, size_t ntodo, bool share,
                size_t *order, size_t **unit, size_t *nunits);
/* Keeps the first failure in p->err, labelled with the point. */
void sweep_pool_fail(struct sweep_pool *p, size_t id, const struct saturn_error *err);

#endif
