/* Worker threads for saturn sweep. Each takes the next point from a shared
 * counter, builds its configuration and runs it (the library keeps no
 * global state); results are appended to the CSV under a mutex, one
 * fwrite + fflush per row, so that a killed sweep leaves whole rows (but
 * perhaps a last partial one, which the resume scan drops). */
#include <errno.h>
#include <stdint.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/sweep_pool.h"
#include "control/control.h"
#include "saturn/saturn.h"

/* A part of a unit handed off by the thread running it to an idle one
 * (saturn_run_shared_split): its point ids. */
struct piece {
    struct piece *next;
    size_t n;
    size_t ids[];
};

struct shared {
    struct sweep_pool *p;
    pthread_mutex_t lock;
    pthread_cond_t more; /* a piece was queued, or the last unit ended */
    size_t next;
    size_t *order, *unit, nunits; /* the todo points in units (run only) */
    struct piece *pieces;         /* handed off, not yet taken (a stack) */
    size_t busy, idle;            /* threads running a unit or piece; waiting for one */
};

/* ---- units: points that may share simulations ---- */

/* The controller of a point that can share runs (ctl_ops.follow), or NULL. */
static const struct ctl_ops *follower_ops(const char *model)
{
    const struct ctl_ops *ops = model ? ctl_find(model) : NULL;
    return ops && ops->follow && ops->follow_keys ? ops : NULL;
}

static bool is_follow_key(const struct ctl_ops *ops, const char *key)
{
    for (const char *const *k = ops->follow_keys; *k; k++)
        if (!strcmp(*k, key))
            return true;
    return false;
}

struct keyed {
    uint64_t key;
    size_t point;
};

static int keyed_cmp(const void *a, const void *b)
{
    const struct keyed *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return (x->point > y->point) - (x->point < y->point);
}

static uint64_t fnv(uint64_t h, const char *s)
{
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return (h ^ 0x1f) * 1099511628211ull;
}

/* A candidate grouping by the point's values but the thresholds (base read
 * as hyst): saturn_run_shared checks the whole configurations and splits
 * a unit whose points cannot all share, so a hash collision costs only
 * time. */
int sweep_units(const struct saturn_sweep *sw, const size_t *todo, size_t ntodo, bool share,
                size_t *order, size_t **unit, size_t *nunits)
{
    struct keyed *k = malloc((ntodo ? ntodo : 1) * sizeof *k);
    const char **v = malloc((sw->nkeys ? sw->nkeys : 1) * sizeof *v);
    bool *skip = calloc(sw->nkeys ? sw->nkeys : 1, sizeof *skip);
    *unit = malloc((ntodo + 1) * sizeof **unit);
    if (!k || !v || !skip || !*unit) {
        free(k), free(v), free(skip), free(*unit);
        *unit = NULL;
        return SATURN_ENOMEM;
    }
    long model = -1;
    for (size_t c = 0; c < sw->nkeys; c++)
        if (!strcmp(sw->keys[c], "control.model"))
            model = (long)c;
    const char *base_model = saturn_config_str(sw->base, "control.model");
    const struct ctl_ops *skip_ops = NULL; /* whose follow_keys skip[] marks */
    for (size_t i = 0; i < ntodo; i++) {
        k[i].point = todo[i];
        saturn_sweep_point_values(sw, todo[i], v);
        const char *m = model >= 0 && v[model] ? v[model] : base_model;
        const struct ctl_ops *ops = share ? follower_ops(m) : NULL;
        if (!ops) {
            k[i].key = 0; /* alone: made unique below */
            continue;
        }
        if (ops != skip_ops) {
            for (size_t c = 0; c < sw->nkeys; c++)
                skip[c] = is_follow_key(ops, sw->keys[c]);
            skip_ops = ops;
        }
        uint64_t h = fnv(1469598103934665603ull, ops->share_as ? ops->share_as : ops->name);
        for (size_t c = 0; c < sw->nkeys; c++)
            if (!skip[c] && (long)c != model)
                h = fnv(h, v[c] ? v[c] : "");
        k[i].key = h ? h : 1;
    }
    qsort(k, ntodo, sizeof *k, keyed_cmp);
    size_t n = 0;
    for (size_t i = 0; i < ntodo; i++) {
        if (i == 0 || k[i].key == 0 || k[i].key != k[i - 1].key)
            (*unit)[n++] = i;
        order[i] = k[i].point;
    }
    (*unit)[n] = ntodo;
    *nunits = n;
    free(k);
    free(v);
    free(skip);
    return SATURN_OK;
}

/* ---- running a unit ---- */

struct unit_run {
    struct shared *sh;
    const size_t *ids;
};

/* saturn_run_shared_split's questions: is a thread waiting for work? */
static bool unit_want(void *user)
{
    const struct unit_run *u = user;
    pthread_mutex_lock(&u->sh->lock);
    bool idle = u->sh->idle > 0 && !u->sh->pieces && !u->sh->p->err.code;
    pthread_mutex_unlock(&u->sh->lock);
    return idle;
}

/* ... then these points are its. */
static int unit_take(void *user, const size_t *idx, size_t k)
{
    const struct unit_run *u = user;
    struct piece *pc = malloc(sizeof *pc + k * sizeof pc->ids[0]);
    if (!pc)
        return SATURN_ENOMEM;
    pc->n = k;
    for (size_t j = 0; j < k; j++)
        pc->ids[j] = u->ids[idx[j]];
    pthread_mutex_lock(&u->sh->lock);
    pc->next = u->sh->pieces;
    u->sh->pieces = pc;
    pthread_cond_signal(&u->sh->more);
    pthread_mutex_unlock(&u->sh->lock);
    return SATURN_OK;
}

static int on_shared(void *user, size_t i, const struct saturn_results *r, bool shared)
{
    (void)shared;
    struct unit_run *u = user;
    struct sweep_pool *p = u->sh->p;
    char *row = saturn_sweep_csv_row(p->sw, u->ids[i], r);
    if (!row)
        return SATURN_ENOMEM;
    pthread_mutex_lock(&u->sh->lock);
    if (p->result) {
        p->result(p, u->ids[i], row, r);
        sweep_pool_record(p, u->ids[i], NULL);
    } else {
        sweep_pool_record(p, u->ids[i], row);
    }
    int rc = p->err.code;
    pthread_mutex_unlock(&u->sh->lock);
    free(row);
    return rc;
}

static void run_unit(struct shared *sh, const size_t *ids, size_t n)
{
    struct sweep_pool *p = sh->p;
    struct saturn_config **cfgs = calloc(n, sizeof *cfgs);
    uint64_t *cut = p->cutoff ? malloc(n * sizeof *cut) : NULL;
    struct saturn_error err = {0};
    struct saturn_share_stats st = {0};
    size_t bad = ids[0];
    int rc = cfgs && (cut || !p->cutoff) ? SATURN_OK
                                         : saturn_error_set(&err, SATURN_ENOMEM, "out of memory");
    for (size_t i = 0; !rc && i < n; i++) {
        if ((rc = saturn_sweep_point_config(p->sw, ids[i], &cfgs[i], &err)))
            bad = ids[i];
        if (cut)
            cut[i] = p->cutoff[ids[i]];
    }
    struct unit_run u = {sh, ids};
    const struct saturn_share_split split = {unit_want, unit_take, &u};
    if (!rc)
        rc = saturn_run_shared_split((const struct saturn_config *const *)cfgs, n, cut, on_shared,
                                     &u, &split, &st, &err);
    pthread_mutex_lock(&sh->lock);
    if (rc && !p->err.code)
        sweep_pool_fail(p, bad, rc == SATURN_ENOMEM && !err.code
                                    ? &(struct saturn_error){SATURN_ENOMEM, "out of memory"}
                                    : &err);
    p->stats.runs += st.runs;
    p->stats.shared += st.shared;
    p->stats.run_cycles += st.run_cycles;
    p->stats.detached += st.detached;
    p->stats.left_cycles += st.left_cycles;
    pthread_mutex_unlock(&sh->lock);
    for (size_t i = 0; cfgs && i < n; i++)
        saturn_config_free(cfgs[i]);
    free(cfgs);
    free(cut);
}

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
    /* Units, then the pieces that threads still running one hand off while
     * another waits (a batch's last units would otherwise keep one thread
     * busy and the others idle). */
    pthread_mutex_lock(&sh->lock);
    while (sh->order) {
        struct piece *pc = NULL;
        size_t u = 0;
        if (p->err.code)
            break;
        if (sh->pieces) {
            pc = sh->pieces;
            sh->pieces = pc->next;
        } else if (sh->next < sh->nunits) {
            u = sh->next++;
        } else if (sh->busy) { /* one may hand a piece off */
            sh->idle++;
            pthread_cond_wait(&sh->more, &sh->lock);
            sh->idle--;
            continue;
        } else {
            break;
        }
        sh->busy++;
        pthread_mutex_unlock(&sh->lock);
        if (pc)
            run_unit(sh, pc->ids, pc->n);
        else
            run_unit(sh, sh->order + sh->unit[u], sh->unit[u + 1] - sh->unit[u]);
        free(pc);
        pthread_mutex_lock(&sh->lock);
        if (--sh->busy == 0 || p->err.code) /* the waiting ones may be done */
            pthread_cond_broadcast(&sh->more);
    }
    if (sh->order) {
        pthread_mutex_unlock(&sh->lock);
        return NULL;
    }
    pthread_mutex_unlock(&sh->lock);
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
    memset(&p->stats, 0, sizeof p->stats);
    if (!p->check_only && (p->share || p->cutoff || p->result)) {
        sh.order = malloc((p->ntodo ? p->ntodo : 1) * sizeof *sh.order);
        if (!sh.order || sweep_units(p->sw, p->todo, p->ntodo, p->share, sh.order, &sh.unit,
                                     &sh.nunits)) {
            free(sh.order);
            return saturn_error_set(&p->err, SATURN_ENOMEM, "out of memory");
        }
    }
    /* every point may end up on a thread of its own (units are split, above) */
    size_t work = p->ntodo;
    if (jobs < 1)
        jobs = 1;
    if ((size_t)jobs > work)
        jobs = work ? (int)work : 1;
    pthread_t *th = calloc((size_t)jobs, sizeof *th);
    if (!th || pthread_mutex_init(&sh.lock, NULL) || pthread_cond_init(&sh.more, NULL)) {
        free(th);
        free(sh.order);
        free(sh.unit);
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
    pthread_cond_destroy(&sh.more);
    while (sh.pieces) { /* left by a failure */
        struct piece *pc = sh.pieces;
        sh.pieces = pc->next;
        free(pc);
    }
    free(th);
    free(sh.order);
    free(sh.unit);
    return p->err.code;
}
