/* One network on several threads (sim.threads): the routers are split
 * into partitions of whole 64-router words (the active-router bitmap is
 * then never shared), one per thread. A cycle runs
 *
 *   barrier | arrivals of each partition       (parallel)
 *  [barrier | sinks, recovery, metapackets,
 *             routing's cycle hook             (serial, only when due)
 *   barrier]
 *           | routers of each partition        (parallel)
 *   barrier | sinks, counters, controller,
 *             sources, audit                   (serial)
 *
 * A partition goes from its arrivals to its routers without waiting for
 * the others: arrivals write only the partition's own routers, and
 * routers only write event slots at least one cycle ahead.
 *
 * Each partition sends its events into its own queues, one per
 * destination partition, and counts into its own context; the serial
 * phases merge them in partition order, which is router order, so the
 * result is the same bit for bit for any number of threads
 * (docs/PARALLEL.md). */
#define _GNU_SOURCE /* sched_getaffinity: the cores this process may use */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "net/net_internal.h"

/* The barrier: arrivals count atomically and waiters spin a while on the
 * generation (a phase of a mid-size network takes microseconds), then
 * sleep on a condition variable (the serial phases of a large one take
 * longer). With more threads than cores nobody spins: a spinning waiter
 * would hold the core the last arrival needs; spinners yield now and then
 * for the same reason when other processes share the cores. Its size can shrink when
 * thread creation fails half-way, which pthread_barrier_t's cannot. */
struct net_pool {
    _Atomic uint32_t arrived, size;
    _Atomic uint64_t generation;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool stop;
    int spin;             /* pause rounds before sleeping */
    uint32_t started;
    pthread_t *th;
};

enum { POOL_SPIN = 20000, POOL_YIELD = 64 };

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

static void pool_barrier(struct net_pool *pl)
{
    uint64_t gen = atomic_load_explicit(&pl->generation, memory_order_acquire);
    if (atomic_fetch_add_explicit(&pl->arrived, 1, memory_order_acq_rel) + 1 ==
        atomic_load_explicit(&pl->size, memory_order_acquire)) {
        /* Last: nobody leaves before the generation moves, so the reset
         * comes before any arrival at the next barrier. */
        atomic_store_explicit(&pl->arrived, 0, memory_order_relaxed);
        pthread_mutex_lock(&pl->mu);
        atomic_store_explicit(&pl->generation, gen + 1, memory_order_release);
        pthread_cond_broadcast(&pl->cv);
        pthread_mutex_unlock(&pl->mu);
        return;
    }
    for (int i = 1; i <= pl->spin; i++) {
        if (atomic_load_explicit(&pl->generation, memory_order_acquire) != gen)
            return;
        cpu_relax();
        /* Other programs (a sweep's other points, say) may hold the core
         * the last arrival needs: let them run now and then. */
        if (i % POOL_YIELD == 0)
            sched_yield();
    }
    pthread_mutex_lock(&pl->mu);
    while (atomic_load_explicit(&pl->generation, memory_order_acquire) == gen)
        pthread_cond_wait(&pl->cv, &pl->mu);
    pthread_mutex_unlock(&pl->mu);
}

void net_pool_sync(struct net *n)
{
    if (n->pool)
        pool_barrier(n->pool);
}

/* A worker follows net_step's phases for its thread's partitions, or
 * steps their block (net/block.c). */
static void *worker(void *arg)
{
    const struct net_part *first = arg;
    struct net *n = first->net;
    const uint32_t t = first->thread, lo = n->thr_lo[t], hi = n->thr_lo[t + 1];
    for (;;) {
        pool_barrier(n->pool);
        if (n->pool->stop)
            return NULL;
        if (n->in_block) {
            net_block_thread(n, t);
            pool_barrier(n->pool);
            continue;
        }
        for (uint32_t k = lo; k < hi; k++)
            net_part_deliver(n, &n->parts[k]);
        if (n->mid_phase) {
            pool_barrier(n->pool);
            pool_barrier(n->pool);
        }
        for (uint32_t k = lo; k < hi; k++)
            net_part_routers(n, &n->parts[k]);
        pool_barrier(n->pool);
    }
}

/* Blocks on threads: thread t's partitions, [thr_lo[t], thr_lo[t + 1]),
 * equal shares of the partitions, each thread's first nodes starting a
 * word of the node bitmap (its sources write their words of it, never
 * another thread's): else one thread. */
static uint32_t block_threads(struct net *n, uint32_t threads)
{
    const uint32_t K = n->nparts;
    uint32_t T = threads < K ? threads : K;
    for (uint32_t t = 1; t < T; t++) {
        const struct net_part *w = &n->parts[(uint64_t)K * t / T];
        if (w->n_hi > w->n_lo && w->n_lo % 64)
            T = 1;
    }
    return T ? T : 1;
}

int net_partition_build(struct net *n, uint32_t threads)
{
    const uint32_t words = (n->topo.routers + 63) / 64;
    /* blocks: a partition a word, at most NET_BLOCK_PARTS (each partition's
     * tables of the wheel have a column per partition) */
    uint32_t T = n->block_max ? (words < NET_BLOCK_PARTS ? words : NET_BLOCK_PARTS)
                 : threads < words ? threads : words;
    if (T == 0)
        T = 1;
    n->nparts = T;
    n->nthreads = T;
    n->wheel_shared = n->block_max > 0;
    n->nq = n->wheel_shared ? 2 * T : T + 1;
    n->parts = calloc(T, sizeof *n->parts);
    n->word_part = calloc(words, sizeof *n->word_part);
    n->thr_lo = calloc((size_t)T + 1, sizeof *n->thr_lo);
    if (!n->parts || !n->word_part || !n->thr_lo)
        return SATURN_ENOMEM;
    const size_t queues = (size_t)n->slots * n->nq;
    for (uint32_t t = 0; t < T; t++) {
        struct net_part *w = &n->parts[t];
        /* Equal shares of words: tori and Dragonflies have equal routers. */
        uint32_t w0 = (uint32_t)((uint64_t)words * t / T);
        uint32_t w1 = (uint32_t)((uint64_t)words * (t + 1) / T);
        w->index = t;
        w->net = n;
        w->r_lo = w0 * 64;
        w->r_hi = w1 * 64 < n->topo.routers ? w1 * 64 : n->topo.routers;
        for (uint32_t x = w0; x < w1; x++)
            n->word_part[x] = (uint16_t)t;
        w->arrive = calloc(n->slots, sizeof *w->arrive);
        w->ev_at = malloc(((size_t)n->wheel_mask + 1) * n->nq * sizeof *w->ev_at);
        w->cr_at = malloc(((size_t)n->wheel_mask + 1) * T * sizeof *w->cr_at);
        w->ar_at = malloc(((size_t)n->wheel_mask + 1) * sizeof *w->ar_at);
        /* an arrival names its port in 26 bits (net_send_deferred) */
        w->direct = (uint64_t)n->topo.routers * (uint64_t)n->P <= (1u << 26) ? t : UINT32_MAX;
        w->va_scratch = calloc((size_t)n->P * n->V, 8);
        w->sa_scratch = calloc((size_t)n->P * n->P, 1);
        w->va_best = malloc((size_t)n->P * n->V * sizeof *w->va_best);
        if (!w->arrive || !w->ev_at || !w->cr_at || !w->ar_at || !w->va_scratch ||
            !w->sa_scratch || !w->va_best)
            return SATURN_ENOMEM;
        memset(w->va_best, 0xff, (size_t)n->P * n->V * sizeof *w->va_best);
    }
    if (n->block_max) { /* each partition's nodes (net_block_plan: in router order) */
        for (uint32_t i = 0; i < n->topo.nodes; i++) {
            struct net_part *w = &n->parts[n->word_part[topo_node_router(&n->topo, i) >> 6]];
            if (w->n_hi == 0)
                w->n_lo = i;
            w->n_hi = i + 1;
        }
        /* blocks: a partition a word, sim.threads threads over them */
        n->nthreads = block_threads(n, threads);
    }
    const uint32_t NT = n->nthreads;
    for (uint32_t t = 0; t <= NT; t++)
        n->thr_lo[t] = (uint32_t)((uint64_t)T * t / NT);
    for (uint32_t th = 0; th < NT; th++)
        for (uint32_t t = n->thr_lo[th]; t < n->thr_lo[th + 1]; t++)
            n->parts[t].thread = th;
    for (uint32_t t = 0; t < T; t++) {
        struct net_part *w = &n->parts[t];
        /* a wheel a partition, or with blocks one a thread, in its first
         * partition (struct net, wheel_shared) */
        if (n->wheel_shared && t > n->thr_lo[w->thread]) {
            w->wheel = n->parts[n->thr_lo[w->thread]].wheel;
            w->credit = n->parts[n->thr_lo[w->thread]].credit;
        } else {
            w->wheel = calloc(queues, sizeof *w->wheel);
            w->credit = calloc((size_t)n->slots * T, sizeof *w->credit);
        }
        /* the arrivals' lists of each thread (one but with blocks on threads) */
        const uint32_t nlong = n->wheel_shared ? NT : 1;
        w->arrive_by = calloc(nlong, sizeof *w->arrive_by);
        if (!w->wheel || !w->credit || !w->arrive_by)
            return SATURN_ENOMEM;
        for (uint32_t th = 0; th < nlong; th++)
            if (!(w->arrive_by[th] = th == (n->wheel_shared ? w->thread : 0)
                                         ? w->arrive
                                         : calloc(n->slots, sizeof *w->arrive)))
                return SATURN_ENOMEM;
        if (n->block_max && !(w->blk_started = calloc(n->block_max, sizeof *w->blk_started)))
            return SATURN_ENOMEM;
    }
    net_wheel_build(n);
    /* Where each port's events go: flits to far_in's router, credits to
     * up's router (a node's credits: its own router). */
    const size_t nports = (size_t)n->topo.routers * n->P;
    for (size_t gp = 0; gp < nports; gp++) {
        struct port *pt = &n->ports[gp];
        uint16_t own = n->word_part[(gp / (size_t)n->P) >> 6];
        pt->far_part = pt->far_in != NET_NONE ? n->word_part[(pt->far_in / (uint32_t)n->P) >> 6]
                                              : own;
        pt->up_part = pt->kind == PORT_NET && pt->up != NET_NONE
                          ? n->word_part[(pt->up / (uint32_t)n->P) >> 6]
                          : own;
    }
    return SATURN_OK;
}

void net_partition_free(struct net *n)
{
    for (uint32_t t = 0; n->parts && t < n->nparts; t++) {
        struct net_part *w = &n->parts[t];
        /* (a thread's wheel: its first partition's) */
        const bool own = !n->wheel_shared || (n->thr_lo && t == n->thr_lo[w->thread]);
        if (w->wheel && own)
            for (size_t i = 0; i < (size_t)n->slots * n->nq; i++)
                free(w->wheel[i].e);
        if (own)
            free(w->wheel);
        if (w->credit && own)
            for (size_t i = 0; i < (size_t)n->slots * n->nparts; i++)
                free(w->credit[i].i);
        if (own)
            free(w->credit);
        if (w->arrive_by)
            for (uint32_t th = 0; th < (n->wheel_shared ? n->nthreads : 1); th++)
                if (w->arrive_by[th] && w->arrive_by[th] != w->arrive) {
                    for (size_t i = 0; i < n->slots; i++)
                        free(w->arrive_by[th][i].i);
                    free(w->arrive_by[th]);
                }
        free(w->arrive_by);
        if (w->arrive)
            for (size_t i = 0; i < n->slots; i++)
                free(w->arrive[i].i);
        free(w->arrive);
        free(w->sinks.e);
        free(w->blk_started);
        free(w->fz);
        free(w->ev_at);
        free(w->cr_at);
        free(w->ar_at);
        free(w->va_scratch);
        free(w->sa_scratch);
        free(w->va_best);
        free(w->cq);
    }
    free(n->parts);
    free(n->word_part);
    free(n->thr_lo);
    n->parts = NULL;
    n->word_part = NULL;
    n->thr_lo = NULL;
    n->nparts = 0;
}

int net_pool_start(struct net *n)
{
    struct net_pool *pl = calloc(1, sizeof *pl);
    if (!pl)
        return SATURN_ENOMEM;
    pl->th = calloc(n->nthreads, sizeof *pl->th);
    if (!pl->th || pthread_mutex_init(&pl->mu, NULL)) {
        free(pl->th);
        free(pl);
        return SATURN_ENOMEM;
    }
    if (pthread_cond_init(&pl->cv, NULL)) {
        pthread_mutex_destroy(&pl->mu);
        free(pl->th);
        free(pl);
        return SATURN_ENOMEM;
    }
    atomic_store(&pl->size, n->nthreads);
    /* The cores this process may run on (taskset, cpusets), not the machine's. */
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0)
        cpus = CPU_COUNT(&set);
    pl->spin = cpus > 0 && n->nthreads <= (uint32_t)cpus ? POOL_SPIN : 0;
    n->pool = pl;
    for (uint32_t t = 1; t < n->nthreads; t++) {
        if (pthread_create(&pl->th[t], NULL, worker, &n->parts[n->thr_lo[t]])) {
            /* Release the ones started: they wait for a barrier of their own size. */
            atomic_store(&pl->size, pl->started + 1);
            net_pool_stop(n);
            return SATURN_ENOMEM;
        }
        pl->started++;
    }
    return SATURN_OK;
}

void net_pool_stop(struct net *n)
{
    struct net_pool *pl = n->pool;
    if (!pl)
        return;
    pl->stop = true;
    pool_barrier(pl);
    for (uint32_t t = 1; t <= pl->started; t++)
        pthread_join(pl->th[t], NULL);
    pthread_cond_destroy(&pl->cv);
    pthread_mutex_destroy(&pl->mu);
    free(pl->th);
    free(pl);
    n->pool = NULL;
}
