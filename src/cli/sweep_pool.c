/* Worker threads for saturn sweep. Each takes the next point from a shared
 * counter, builds its configuration and runs it (the library keeps no
 * global state); results are appended to the CSV under a mutex, one
 * fwrite + fflush per row, so that a killed sweep leaves whole rows (but
 * perhaps a last partial one, which the resume scan drops). */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/sweep_pool.h"
#include "saturn/saturn.h"

struct shared {
    struct sweep_pool *p;
    pthread_mutex_t lock;
    size_t next;
};

/* Records the first failure (later ones are usually its echoes). */
void sweep_pool_fail(struct sweep_pool *p, size_t id, const struct saturn_error *err)
{
    if (p->err.code)
        return;
    char label[512];
    saturn_sweep_point_label(p->sw, id, label, sizeof label);
    saturn_error_set(&p->err, err->code, "sweep point %zu (%s): %s", id, label, err->msg);
}

int sweep_point_run(const struct saturn_sweep *sw, size_t id, bool check_only, unsigned copies,
                    char **row, struct saturn_error *err)
{
    struct saturn_config *c = NULL;
    int rc = saturn_sweep_point_config(sw, id, &c, err);
    if (rc == SATURN_OK && check_only) {
        /* Creating the simulation checks the combination (e.g. enough VCs
         * for the routing), cheaply, before any output is written. */
        struct saturn_sim *s = NULL;
        rc = cli_memory_check(c, copies, err);
        if (rc == SATURN_OK)
            rc = saturn_sim_create(c, &s, err);
        saturn_sim_free(s);
    } else if (rc == SATURN_OK) {
        struct saturn_results r;
        memset(&r, 0, sizeof r);
        rc = saturn_run(c, &r, err);
        if (rc == SATURN_OK && !(*row = saturn_sweep_csv_row(sw, id, &r)))
            rc = saturn_error_set(err, SATURN_ENOMEM, "out of memory");
        saturn_results_free(&r);
    }
    saturn_config_free(c);
    return rc;
}

void sweep_pool_record(struct sweep_pool *p, size_t id, const char *row)
{
    if (row) {
        size_t len = strlen(row);
        if (fwrite(row, 1, len, p->csv) != len || fflush(p->csv)) {
            struct saturn_error err = {0};
            saturn_error_set(&err, SATURN_EIO, "%s: cannot write: %s", p->csv_path,
                             strerror(errno));
            sweep_pool_fail(p, id, &err);
            return;
        }
    }
    p->finished++;
    if (p->progress) {
        char phase[48];
        snprintf(phase, sizeof phase, "%s (%d worker%s)", p->check_only ? "check" : "run",
                 p->workers, p->workers == 1 ? "" : "s");
        struct saturn_progress r = {.task = "sweep", .phase = phase,
                                    .done = p->check_only ? p->finished : p->skipped + p->finished,
                                    .total = p->check_only ? p->ntodo : p->total, .unit = "points"};
        cli_progress_report(p->progress, &r);
    }
}

static void *worker(void *arg)
{
    struct shared *sh = arg;
    struct sweep_pool *p = sh->p;
    for (;;) {
        pthread_mutex_lock(&sh->lock);
        bool stop = p->err.code || sh->next == p->ntodo;
        size_t id = stop ? 0 : p->todo[sh->next++];
        pthread_mutex_unlock(&sh->lock);
        if (stop)
            break;
        char *row = NULL;
        struct saturn_error err = {0};
        int rc = sweep_point_run(p->sw, id, p->check_only, p->mem_copies, &row, &err);
        pthread_mutex_lock(&sh->lock);
        if (rc)
            sweep_pool_fail(p, id, &err);
        else
            sweep_pool_record(p, id, row);
        pthread_mutex_unlock(&sh->lock);
        free(row);
    }
    return NULL;
}

int sweep_pool_run(struct sweep_pool *p, int jobs)
{
    struct shared sh = {.p = p};
    p->finished = 0;
    memset(&p->err, 0, sizeof p->err);
    if (jobs < 1)
        jobs = 1;
    if ((size_t)jobs > p->ntodo)
        jobs = p->ntodo ? (int)p->ntodo : 1;
    pthread_t *th = calloc((size_t)jobs, sizeof *th);
    if (!th || pthread_mutex_init(&sh.lock, NULL)) {
        free(th);
        return saturn_error_set(&p->err, SATURN_ENOMEM, "cannot start the workers");
    }
    /* The count is fixed before any thread starts: they all print it. */
    p->workers = jobs;
    int started = 0;
    pthread_mutex_lock(&sh.lock);
    while (started < jobs && pthread_create(&th[started], NULL, worker, &sh) == 0)
        started++;
    p->workers = started ? started : 1;
    pthread_mutex_unlock(&sh.lock);
    if (started == 0)
        worker(&sh); /* no threads to be had: do the work here */
    for (int i = 0; i < started; i++)
        pthread_join(th[i], NULL);
    pthread_mutex_destroy(&sh.lock);
    free(th);
    return p->err.code;
}
