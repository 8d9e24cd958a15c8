/* The genetic optimiser of paper 003 (Yokota, Ootsu, Kojima 2022, section
 * 4.3). A gene is `members` integers in [0, max_value]; lower fitness is
 * better. The semantics, exactly:
 *
 * - Population of `genes` genes (every one a copy of `initial` when
 *   init_all is set). Gene 0 is a copy of `initial` when one is
 *   given; every other gene is drawn uniformly from [0, max_value]. The
 *   whole population is evaluated in one batch (generation 0).
 * - Generation g = 1..generations: crossover when crossover_interval > 0
 *   and g % crossover_interval == 0, mutation otherwise.
 *   - Mutation: every gene gets a mutant, a copy with each member re-drawn
 *     with probability mutation_rate; when no member was chosen, one random
 *     member is re-drawn ("one or more"). With mutation_step s > 0 a chosen
 *     member moves instead by a step drawn uniformly from -s..-1, 1..s,
 *     clipped to [0, max_value] (a reading of "changes their values within
 *     the range"). The mutants are evaluated in one
 *     batch; a mutant replaces its parent when it is not worse (fitness <=
 *     the parent's), and the replaced gene's age becomes 0.
 *   - Crossover: the genes are ranked by fitness (ties: lower index first).
 *     Pairs of 1-based ranks are taken in the order (1,2), (1,3), (2,3),
 *     (1,4), (2,4), (3,4), (1,5), ... (ga_pair), a being the stronger;
 *     a pair whose weaker gene b was already overwritten in this round is
 *     skipped, until genes/2 pairs have been taken. The child is gene a
 *     with each member replaced by gene b's with probability
 *     crossover_rate (parents are the genes as they were before the
 *     round); it overwrites gene b unconditionally, with age 0. The
 *     children are evaluated in one batch. NOTE: since (1,b) always comes
 *     before every other (a,b), the skip rule means the pairs actually
 *     taken are (1,2), (1,3), ..., (1, genes/2 + 1).
 *   - Then every gene ages by one. When lifetime > 0, every gene whose age
 *     exceeds lifetime is re-drawn uniformly (age 0) and the re-drawn genes
 *     are evaluated in one batch — except the gene holding the population's
 *     best fitness (the lowest index among ties), which lifetime never
 *     re-draws.
 *   - Watchdog: a counter is reset to 0 in a generation in which the
 *     best-ever fitness strictly improved, otherwise it grows by one; when
 *     watchdog > 0 and it reaches watchdog, every gene is re-drawn uniformly
 *     (age 0), the population is evaluated in one batch and the counter is
 *     reset to 0.
 *   - progress(user, g, best-ever fitness), when given.
 * - The best ever seen (the first gene to reach the lowest fitness, in
 *   evaluation-batch order) is kept apart from the population, so the
 *   result is never worse than `initial` nor than anything evaluated.
 *   best_generation is the generation in which it was evaluated (0: the
 *   initial population). initial_fitness is NAN when no `initial` was given.
 * - A NaN fitness ranks below every number (worst); a NaN mutant replaces
 *   only a NaN parent.
 * - All randomness comes from one xoshiro256** stream (seed, RNG_STREAM_SETUP
 *   + 7), drawn in a fixed order (gene index, then member index), never
 *   during evaluation: a run is a function of the seed and the fitnesses.
 *   eval() is called once per batch with the batch's genes in gene-index
 *   order (crossover: pair order), never with an empty batch; every gene
 *   passed counts as one evaluation. */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/rng.h"
#include "experiment/ga_internal.h"
#include "saturn/ga.h"

void ga_pair(uint64_t k, uint32_t *a, uint32_t *b)
{
    /* The group of weaker rank b = m + 1 holds pairs m(m-1)/2 .. m(m+1)/2-1. */
    uint64_t m = (uint64_t)((1.0 + sqrt(1.0 + 8.0 * (double)k)) / 2.0);
    if (m < 1)
        m = 1;
    while (m * (m - 1) / 2 > k)
        m--;
    while (m * (m + 1) / 2 <= k)
        m++;
    *b = (uint32_t)(m + 1);
    *a = (uint32_t)(k - m * (m - 1) / 2 + 1);
}

struct ga_rank {
    double fitness;
    uint32_t index;
};

struct ga {
    const struct saturn_ga_params *p;
    size_t m; /* members */
    struct rng r;
    saturn_ga_eval_fn eval;
    void *eval_user;
    int64_t *pop;   /* genes x m */
    double *fit;
    uint32_t *age;
    int64_t *cand;  /* candidates of a batch, genes x m */
    double *cfit;
    uint32_t *target; /* the gene each candidate would replace */
    const int64_t **ptr;
    struct ga_rank *rank;
    bool *overwritten;
    int64_t *best;
    double best_fitness;
    uint32_t best_generation;
    bool improved;
    uint64_t evaluations;
};

/* x is strictly better than y; NaN is worse than any number. */
static bool better(double x, double y)
{
    if (isnan(x))
        return false;
    return isnan(y) || x < y;
}

static int rank_cmp(const void *pa, const void *pb)
{
    const struct ga_rank *a = pa, *b = pb;
    if (better(a->fitness, b->fitness))
        return -1;
    if (better(b->fitness, a->fitness))
        return 1;
    return (a->index > b->index) - (a->index < b->index);
}

static int64_t *row(int64_t *base, size_t m, size_t i) { return base + i * m; }

static void draw_gene(struct ga *g, int64_t *x)
{
    uint64_t n = (uint64_t)g->p->max_value + 1;
    for (size_t j = 0; j < g->m; j++)
        x[j] = (int64_t)rng_below(&g->r, n);
}

/* Evaluates the first n candidates and records any new best. */
static void eval_candidates(struct ga *g, size_t n, uint32_t generation)
{
    if (n == 0)
        return;
    for (size_t i = 0; i < n; i++)
        g->ptr[i] = row(g->cand, g->m, i);
    g->eval(g->eval_user, g->ptr, n, g->cfit);
    g->evaluations += n;
    for (size_t i = 0; i < n; i++)
        if (better(g->cfit[i], g->best_fitness)) {
            memcpy(g->best, g->ptr[i], g->m * sizeof *g->best);
            g->best_fitness = g->cfit[i];
            g->best_generation = generation;
            g->improved = true;
        }
}

static void install(struct ga *g, size_t c)
{
    uint32_t i = g->target[c];
    memcpy(row(g->pop, g->m, i), row(g->cand, g->m, c), g->m * sizeof *g->pop);
    g->fit[i] = g->cfit[c];
    g->age[i] = 0;
}

/* Re-draws the first n genes of target[] and evaluates them. */
static void redraw(struct ga *g, size_t n, uint32_t generation)
{
    for (size_t c = 0; c < n; c++)
        draw_gene(g, row(g->cand, g->m, c));
    eval_candidates(g, n, generation);
    for (size_t c = 0; c < n; c++)
        install(g, c);
}

/* A member's new value: re-drawn, or moved by a step (mutation_step). */
static int64_t mutate(struct ga *g, int64_t x)
{
    int64_t s = g->p->mutation_step;
    if (s <= 0)
        return (int64_t)rng_below(&g->r, (uint64_t)g->p->max_value + 1);
    int64_t d = (int64_t)rng_below(&g->r, 2 * (uint64_t)s); /* 0 .. 2s-1 -> -s..-1, 1..s */
    x += d < s ? d - s : d - s + 1;
    return x < 0 ? 0 : x > g->p->max_value ? g->p->max_value : x;
}

static void mutation(struct ga *g, uint32_t generation)
{
    uint32_t genes = g->p->genes;
    for (uint32_t i = 0; i < genes; i++) {
        int64_t *x = row(g->cand, g->m, i);
        memcpy(x, row(g->pop, g->m, i), g->m * sizeof *x);
        bool chosen = false;
        for (size_t j = 0; j < g->m; j++)
            if (rng_uniform(&g->r) < g->p->mutation_rate) {
                x[j] = mutate(g, x[j]);
                chosen = true;
            }
        if (!chosen) {
            size_t j = (size_t)rng_below(&g->r, g->m);
            x[j] = mutate(g, x[j]);
        }
        g->target[i] = i;
    }
    eval_candidates(g, genes, generation);
    for (uint32_t i = 0; i < genes; i++)
        if (!better(g->fit[i], g->cfit[i]))
            install(g, i);
}

static void crossover(struct ga *g, uint32_t generation)
{
    uint32_t genes = g->p->genes;
    for (uint32_t i = 0; i < genes; i++) {
        g->rank[i].fitness = g->fit[i];
        g->rank[i].index = i;
        g->overwritten[i] = false;
    }
    qsort(g->rank, genes, sizeof *g->rank, rank_cmp);
    size_t n = 0;
    for (uint64_t k = 0; n < genes / 2; k++) {
        uint32_t a, b;
        ga_pair(k, &a, &b);
        if (b > genes)
            break;
        uint32_t ia = g->rank[a - 1].index, ib = g->rank[b - 1].index;
        if (g->overwritten[ib])
            continue;
        const int64_t *xa = row(g->pop, g->m, ia), *xb = row(g->pop, g->m, ib);
        int64_t *child = row(g->cand, g->m, n);
        for (size_t j = 0; j < g->m; j++)
            child[j] = rng_uniform(&g->r) < g->p->crossover_rate ? xb[j] : xa[j];
        g->target[n++] = ib;
        g->overwritten[ib] = true;
    }
    eval_candidates(g, n, generation);
    for (size_t c = 0; c < n; c++)
        install(g, c);
}

static void lifetime(struct ga *g, uint32_t generation)
{
    uint32_t genes = g->p->genes;
    for (uint32_t i = 0; i < genes; i++)
        g->age[i]++;
    if (g->p->lifetime == 0)
        return;
    uint32_t keep = 0;
    for (uint32_t i = 1; i < genes; i++)
        if (better(g->fit[i], g->fit[keep]))
            keep = i;
    size_t n = 0;
    for (uint32_t i = 0; i < genes; i++)
        if (i != keep && g->age[i] > g->p->lifetime)
            g->target[n++] = i;
    redraw(g, n, generation);
}

static bool rate_ok(double r) { return r >= 0 && r <= 1; }

static int check(const struct saturn_ga_params *p, saturn_ga_eval_fn eval,
                 struct saturn_ga_result *out, struct saturn_error *err)
{
    if (!p || !eval || !out)
        return saturn_error_set(err, SATURN_EINPUT,
                                "ga: parameters, evaluation function and result are required");
    if (p->genes < 2)
        return saturn_error_set(err, SATURN_EINPUT, "ga: genes = %u: need at least 2",
                                (unsigned)p->genes);
    if (p->members == 0)
        return saturn_error_set(err, SATURN_EINPUT, "ga: members = 0: need at least 1");
    if (p->max_value < 0)
        return saturn_error_set(err, SATURN_EINPUT, "ga: max_value = %lld: must be >= 0",
                                (long long)p->max_value);
    if (!rate_ok(p->crossover_rate))
        return saturn_error_set(err, SATURN_EINPUT,
                                "ga: crossover_rate = %g: must be in [0, 1]", p->crossover_rate);
    if (!rate_ok(p->mutation_rate))
        return saturn_error_set(err, SATURN_EINPUT,
                                "ga: mutation_rate = %g: must be in [0, 1]", p->mutation_rate);
    if ((size_t)p->members > SIZE_MAX / sizeof(int64_t) / p->genes)
        return saturn_error_set(err, SATURN_ENOMEM, "ga: %u genes of %u members: too large",
                                (unsigned)p->genes, (unsigned)p->members);
    return SATURN_OK;
}

static void ga_free(struct ga *g)
{
    free(g->pop);
    free(g->fit);
    free(g->age);
    free(g->cand);
    free(g->cfit);
    free(g->target);
    free(g->ptr);
    free(g->rank);
    free(g->overwritten);
    free(g->best);
}

int saturn_ga_run(const struct saturn_ga_params *p, const int64_t *initial,
                  saturn_ga_eval_fn eval, void *eval_user, saturn_ga_progress_fn progress,
                  void *progress_user, struct saturn_ga_result *out, struct saturn_error *err)
{
    if (out)
        memset(out, 0, sizeof *out);
    int rc = check(p, eval, out, err);
    if (rc)
        return rc;

    struct ga g = {.p = p, .m = p->members, .eval = eval, .eval_user = eval_user};
    size_t genes = p->genes, cells = genes * g.m;
    g.pop = malloc(cells * sizeof *g.pop);
    g.fit = malloc(genes * sizeof *g.fit);
    g.age = calloc(genes, sizeof *g.age);
    g.cand = malloc(cells * sizeof *g.cand);
    g.cfit = malloc(genes * sizeof *g.cfit);
    g.target = malloc(genes * sizeof *g.target);
    g.ptr = malloc(genes * sizeof *g.ptr);
    g.rank = malloc(genes * sizeof *g.rank);
    g.overwritten = malloc(genes * sizeof *g.overwritten);
    g.best = malloc(g.m * sizeof *g.best);
    if (!g.pop || !g.fit || !g.age || !g.cand || !g.cfit || !g.target || !g.ptr || !g.rank ||
        !g.overwritten || !g.best) {
        ga_free(&g);
        return saturn_error_set(err, SATURN_ENOMEM, "ga: out of memory");
    }
    rng_seed(&g.r, p->seed, RNG_STREAM_SETUP + 7);

    /* Generation 0: `initial` and random genes. */
    for (size_t i = 0; i < genes; i++) {
        int64_t *x = row(g.cand, g.m, i);
        if (initial && (i == 0 || p->init_all))
            memcpy(x, initial, g.m * sizeof *x);
        else
            draw_gene(&g, x);
        g.target[i] = (uint32_t)i;
    }
    g.best_fitness = NAN;
    memcpy(g.best, g.cand, g.m * sizeof *g.best); /* even when every fitness is NaN */
    eval_candidates(&g, genes, 0);
    for (size_t i = 0; i < genes; i++)
        install(&g, i);
    out->initial_fitness = initial ? g.fit[0] : NAN;

    uint32_t quiet = 0; /* generations without a new best */
    for (uint32_t gen = 1; gen <= p->generations; gen++) {
        g.improved = false;
        if (p->crossover_interval > 0 && gen % p->crossover_interval == 0)
            crossover(&g, gen);
        else
            mutation(&g, gen);
        lifetime(&g, gen);
        quiet = g.improved ? 0 : quiet + 1;
        if (p->watchdog > 0 && quiet >= p->watchdog) {
            for (size_t i = 0; i < genes; i++)
                g.target[i] = (uint32_t)i;
            redraw(&g, genes, gen);
            quiet = 0;
        }
        if (progress)
            progress(progress_user, gen, g.best_fitness);
    }

    out->best = g.best;
    g.best = NULL;
    out->best_fitness = g.best_fitness;
    out->best_generation = g.best_generation;
    out->evaluations = g.evaluations;
    ga_free(&g);
    return SATURN_OK;
}

void saturn_ga_result_free(struct saturn_ga_result *r)
{
    if (!r)
        return;
    free(r->best);
    memset(r, 0, sizeof *r);
}
