/* Distributed sweeps: dynamic distribution of points over MPI ranks.
 *
 * Rank 0 coordinates: it alone reads and writes the CSV. A worker (rank > 0)
 * says hello, gets a point id, runs it through the same code as the threads
 * (sweep_point_run) and sends back its row or its error, which is also its
 * request for the next point; the id STOP ends it. Rows are written and
 * flushed as they arrive, so a killed job leaves whole rows (but perhaps a
 * partial last line) and a rerun resumes. Waiting ranks test a receive
 * posted in advance and nap, instead of MPI's busy-wait, leaving the core to
 * ranks that compute: rank 0 usually shares one. */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/sweep_mpi.h"

static long env_long(const char *const *names, long dflt)
{
    for (; *names; names++) {
        const char *v = getenv(*names);
        if (v && *v)
            return strtol(v, NULL, 10);
    }
    return dflt;
}

#ifdef SATURN_MPI
#include <mpi.h>
#include <time.h>

enum { TAG_HEAD = 1, TAG_BODY = 2, TAG_POINT = 3 };
enum { MSG_HELLO, MSG_ROW, MSG_ERROR }; /* a worker's message: head[0] */
#define STOP ULLONG_MAX     /* the point id that ends a worker */
#define NONE ULLONG_MAX     /* what a worker that runs no point is running */

static bool launched(void)
{
    static const char *const vars[] = {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK",
                                       "PMI_SIZE"};
    for (size_t i = 0; i < sizeof vars / sizeof *vars; i++)
        if (getenv(vars[i]))
            return true;
    return false;
}

/* Waits for a request: tests, napping from 20 us up to 1 ms in between. A
 * receive posted in advance completes as soon as its message lands; under
 * Open MPI 4.1, MPI_Iprobe took milliseconds to notice one. */
static void wait_req(MPI_Request *rq, MPI_Status *st)
{
    long nap = 20000;
    for (int done = 0;;) {
        MPI_Test(rq, &done, st);
        if (done)
            return;
        nanosleep(&(struct timespec){0, nap}, NULL);
        if (nap < 1000000)
            nap *= 2;
    }
}

/* Where a row's metric cells begin (they hold no commas), or SIZE_MAX. */
static size_t metrics_at(const char *row)
{
    size_t n = strlen(row), left = 0;
    for (const char *const *m = saturn_sweep_metrics; *m; m++)
        left++;
    while (n-- > 0)
        if (row[n] == ',' && --left == 0)
            return n;
    return SIZE_MAX;
}

/* A worker's row must be one line with this sweep's key cells for the
 * point: a node reading another spec file must not slip rows in. */
static bool row_fits(const struct saturn_sweep *sw, size_t id, const char *row)
{
    struct saturn_results zero;
    memset(&zero, 0, sizeof zero);
    char *want = saturn_sweep_csv_row(sw, id, &zero);
    size_t len = strlen(row), a = metrics_at(row), b = want ? metrics_at(want) : SIZE_MAX;
    bool ok = len && strchr(row, '\n') == row + len - 1 && a != SIZE_MAX && a == b &&
              !memcmp(row, want, a);
    free(want);
    return ok;
}

/* A message from worker src, which was running point want (or NONE):
 * h = {kind, error code, point, body length}, body the row or the error. */
static void take(struct sweep_pool *p, int src, unsigned long long want,
                 const unsigned long long *h, const char *body)
{
    struct saturn_error err = {0};
    size_t id = (size_t)h[2];
    if (h[0] == MSG_HELLO && want == NONE)
        return;
    if (h[0] == MSG_ROW && h[2] == want) {
        if (row_fits(p->sw, id, body)) {
            sweep_pool_record(p, id, body);
            return;
        }
        saturn_error_set(&err, SATURN_EINPUT, "MPI rank %d sent a row that is not this "
                         "sweep's: is the spec the same file on every node?", src);
    } else if (h[0] == MSG_ERROR && h[2] == want && h[1] > 0 && h[1] <= SATURN_EIO) {
        saturn_error_set(&err, (int)h[1], "MPI rank %d: %s", src, body);
    } else {
        saturn_error_set(&err, SATURN_EINTERNAL, "MPI rank %d: unexpected message", src);
        id = want == NONE ? 0 : (size_t)want;
    }
    sweep_pool_fail(p, id, &err);
}

int sweep_mpi_serve(struct sweep_mpi *m, struct sweep_pool *p)
{
    int stopped = 0;
    unsigned long long *busy = malloc((size_t)m->size * sizeof *busy);
    size_t next = 0;
    if (p) {
        p->finished = 0;
        memset(&p->err, 0, sizeof p->err);
        p->workers = m->size - 1;
        if (!busy)
            saturn_error_set(&p->err, SATURN_ENOMEM, "out of memory");
    }
    for (int r = 0; busy && r < m->size; r++)
        busy[r] = NONE;
    while (stopped < m->size - 1) {
        unsigned long long h[4];
        MPI_Request rq;
        MPI_Status st;
        MPI_Irecv(h, 4, MPI_UNSIGNED_LONG_LONG, MPI_ANY_SOURCE, TAG_HEAD, MPI_COMM_WORLD, &rq);
        wait_req(&rq, &st);
        int src = st.MPI_SOURCE;
        char *body = h[3] < INT_MAX ? malloc((size_t)h[3] + 1) : NULL;
        if (!body) /* out of memory: no sensible way on */
            MPI_Abort(MPI_COMM_WORLD, 1);
        if (h[3]) /* sent right after the head: a short wait */
            MPI_Recv(body, (int)h[3], MPI_CHAR, src, TAG_BODY, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        body[h[3]] = 0;
        unsigned long long id = STOP;
        if (p && busy) {
            take(p, src, busy[src], h, body);
            busy[src] = NONE;
            if (!p->err.code && next < p->ntodo)
                id = busy[src] = p->todo[next++];
        }
        free(body);
        stopped += id == STOP;
        MPI_Send(&id, 1, MPI_UNSIGNED_LONG_LONG, src, TAG_POINT, MPI_COMM_WORLD);
    }
    m->served = true;
    free(busy);
    return p ? p->err.code : SATURN_OK;
}

int sweep_mpi_work(struct sweep_mpi *m, sweep_mpi_load_fn load, void *ctx)
{
    struct saturn_sweep *sw = NULL;
    struct saturn_error lerr = {0}, err = {0};
    int lrc = -1; /* not loaded yet */
    unsigned long long h[4] = {MSG_HELLO, 0, 0, 0};
    char *row = NULL;
    const char *body = "";
    for (;;) {
        unsigned long long id;
        MPI_Request rq;
        /* Posted before the request goes, so the answer is seen on arrival. */
        MPI_Irecv(&id, 1, MPI_UNSIGNED_LONG_LONG, 0, TAG_POINT, MPI_COMM_WORLD, &rq);
        h[3] = strlen(body);
        MPI_Send(h, 4, MPI_UNSIGNED_LONG_LONG, 0, TAG_HEAD, MPI_COMM_WORLD);
        if (h[3])
            MPI_Send(body, (int)h[3], MPI_CHAR, 0, TAG_BODY, MPI_COMM_WORLD);
        free(row);
        row = NULL;
        wait_req(&rq, MPI_STATUS_IGNORE);
        if (id == STOP)
            break;
        if (lrc < 0)
            lrc = load(ctx, &sw, &lerr);
        memset(&err, 0, sizeof err);
        int rc = lrc ? lrc : sweep_point_run(sw, (size_t)id, false, 1, &row, &err);
        if (lrc)
            err = lerr;
        h[0] = rc ? MSG_ERROR : MSG_ROW;
        h[1] = (unsigned long long)rc;
        h[2] = id;
        body = rc ? err.msg : row;
    }
    saturn_sweep_free(sw);
    return 0;
}

#else /* no MPI: every process is rank 0 of 1; these are never reached */

int sweep_mpi_serve(struct sweep_mpi *m, struct sweep_pool *p)
{
    return SATURN_EINTERNAL;
}

int sweep_mpi_work(struct sweep_mpi *m, sweep_mpi_load_fn load, void *ctx)
{
    return 1;
}

#endif

int sweep_mpi_init(struct sweep_mpi *m)
{
    *m = (struct sweep_mpi){.rank = 0, .size = 1};
#ifdef SATURN_MPI
    if (launched()) {
        int provided; /* threads never call MPI; rank 0's check pass uses them */
        MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided);
        MPI_Comm_rank(MPI_COMM_WORLD, &m->rank);
        MPI_Comm_size(MPI_COMM_WORLD, &m->size);
        m->on = true;
        return 0;
    }
    const char *why = "no MPI launcher in the environment (srun needs --mpi=pmix or pmi2)";
#else
    const char *why = "this saturn was built without MPI (install libopenmpi-dev, rebuild)";
#endif
    static const char *const rank_vars[] = {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK",
                                            "SLURM_PROCID", NULL};
    static const char *const size_vars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE",
                                            "SLURM_STEP_NUM_TASKS", NULL};
    long rank = env_long(rank_vars, 0), size = env_long(size_vars, 1);
    if (rank <= 0 && size <= 1)
        return 0;
    if (rank <= 0 || size <= 1) /* once, when rank 0 knows it is not alone */
        fprintf(stderr, "saturn: error: several saturn sweep processes were started (this is "
                "rank %ld), but %s: each would run the whole sweep into the same CSV; start "
                "one (-j N uses threads)\n", rank, why);
    return EXIT_BAD_INPUT;
}

void sweep_mpi_end(struct sweep_mpi *m)
{
#ifdef SATURN_MPI
    if (!m->on)
        return;
    if (m->rank == 0 && m->size > 1 && !m->served)
        sweep_mpi_serve(m, NULL);
    MPI_Finalize();
#endif
}
