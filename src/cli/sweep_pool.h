/* saturn sweep: the worker threads that check and run a sweep's points. */
#ifndef SATURN_CLI_SWEEP_POOL_H
#define SATURN_CLI_SWEEP_POOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "saturn/sweep.h"

struct sweep_pool {
    const struct saturn_sweep *sw;
    const size_t *todo;   /* point ids, in order */
    size_t ntodo;
    bool check_only;      /* build (and so validate) each point, run nothing */
    FILE *csv;            /* run: rows are appended here as points finish */
    const char *csv_path;
    size_t total, skipped; /* for the progress line */
    bool progress;        /* draw it (stderr is a terminal) */
    /* out */
    size_t finished;
    int workers;
    struct saturn_error err; /* the first failure (err.code 0: none) */
};

/* Runs every todo point on up to jobs threads; stops handing out points
 * after the first failure. Returns SATURN_OK or that failure's code. */
int sweep_pool_run(struct sweep_pool *p, int jobs);

#endif
