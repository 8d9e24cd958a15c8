/* saturn sweep over MPI: rank 0 hands out points and writes the CSV, the
 * other ranks run them. Without SATURN_MPI (no MPI at build time) every
 * process is rank 0 of 1 and the serial path runs. */
#ifndef SATURN_CLI_SWEEP_MPI_H
#define SATURN_CLI_SWEEP_MPI_H

#include <stdbool.h>

#include "cli/sweep_pool.h"

struct sweep_mpi {
    bool on;        /* MPI_Init was called */
    bool served;    /* rank 0: every worker has been told to stop */
    int rank, size; /* 0 and 1 without MPI */
};

/* First thing saturn sweep does in every process. Initialises MPI only when
 * a launcher's variables (OMPI_COMM_WORLD_SIZE, PMIX_RANK, PMI_RANK,
 * PMI_SIZE) are set, so a plain run needs no mpirun and prints nothing of
 * MPI's. Returns 0, or an exit code when this is one of several copies
 * started without MPI (they would all write the same CSV). */
int sweep_mpi_init(struct sweep_mpi *m);

/* Rank 0 of several: hands p->todo out to the workers one point at a time,
 * on request, and records each row (sweep_pool_record) as it arrives; after
 * the first failure hands out nothing more. p NULL: tells every worker to
 * stop. Returns p->err.code. */
int sweep_mpi_serve(struct sweep_mpi *m, struct sweep_pool *p);

/* Ranks > 0: asks rank 0 for points and runs them until told to stop.
 * load() builds the sweep from this process's arguments before the first
 * point (rank 0 has checked them by then, so it prints nothing). */
typedef int (*sweep_mpi_load_fn)(void *ctx, struct saturn_sweep **sw,
                                 struct saturn_error *err);
int sweep_mpi_work(struct sweep_mpi *m, sweep_mpi_load_fn load, void *ctx);

/* Last thing: rank 0 releases workers still waiting; MPI_Finalize. */
void sweep_mpi_end(struct sweep_mpi *m);

#endif
