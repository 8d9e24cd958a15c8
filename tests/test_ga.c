/* The genetic optimiser (src/experiment/ga.c) on toy fitness functions. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "experiment/ga_internal.h"
#include "saturn/ga.h"
#include "support.h"

#define MEMBERS 30
#define MAXV 31

/* Fitness: sum over members of |x_i - target_i|. Records every evaluated
 * gene into a running hash and, optionally, the batches. */
struct toy {
    int64_t target[MEMBERS];
    uint64_t hash;
    uint64_t calls;
    /* batch recorder */
    size_t nbatch;
    size_t batch_len[64];
    int64_t *batch[64];
    double *batch_fit[64];
};

static void toy_init(struct toy *t)
{
    memset(t, 0, sizeof *t);
    for (int i = 0; i < MEMBERS; i++)
        t->target[i] = (i * 7 + 3) % (MAXV + 1);
}

static void toy_free(struct toy *t)
{
    for (size_t b = 0; b < t->nbatch; b++) {
        free(t->batch[b]);
        free(t->batch_fit[b]);
    }
}

static void toy_eval(void *user, const int64_t *const *genes, size_t n, double *fitness)
{
    struct toy *t = user;
    t->calls++;
    for (size_t i = 0; i < n; i++) {
        double s = 0;
        for (int j = 0; j < MEMBERS; j++) {
            s += (double)llabs(genes[i][j] - t->target[j]);
            assert_true(genes[i][j] >= 0 && genes[i][j] <= MAXV);
            t->hash = (t->hash ^ (uint64_t)genes[i][j]) * 0x100000001b3ULL;
        }
        fitness[i] = s;
    }
    if (t->nbatch < 64) {
        size_t b = t->nbatch++;
        t->batch_len[b] = n;
        t->batch[b] = malloc(n * MEMBERS * sizeof(int64_t));
        t->batch_fit[b] = malloc(n * sizeof(double));
        for (size_t i = 0; i < n; i++) {
            memcpy(t->batch[b] + i * MEMBERS, genes[i], MEMBERS * sizeof(int64_t));
            t->batch_fit[b][i] = fitness[i];
        }
    }
}

struct trace {
    uint32_t n;
    uint32_t gen[2000];
    double best[2000];
};

static void record_progress(void *user, uint32_t generation, double best)
{
    struct trace *tr = user;
    assert_true(tr->n < 2000);
    tr->gen[tr->n] = generation;
    tr->best[tr->n] = best;
    tr->n++;
}

static struct saturn_ga_params toy_params(uint64_t seed)
{
    struct saturn_ga_params p = {
        .genes = 20,
        .members = MEMBERS,
        .max_value = MAXV,
        .generations = 300,
        .crossover_interval = 20,
        .crossover_rate = 0.5,
        .mutation_rate = 0.1,
        .lifetime = 0,
        .watchdog = 0,
        .seed = seed,
    };
    return p;
}

static void pair_order(void **state)
{
    (void)state;
    static const uint32_t want[][2] = {{1, 2}, {1, 3}, {2, 3}, {1, 4}, {2, 4},
                                       {3, 4}, {1, 5}, {2, 5}, {3, 5}, {4, 5}};
    for (uint64_t k = 0; k < 10; k++) {
        uint32_t a, b;
        ga_pair(k, &a, &b);
        assert_int_equal(a, want[k][0]);
        assert_int_equal(b, want[k][1]);
    }
    /* Every pair a < b <= 200 exactly once, grouped by b. */
    uint64_t k = 0;
    for (uint32_t b = 2; b <= 200; b++)
        for (uint32_t a = 1; a < b; a++, k++) {
            uint32_t ga, gb;
            ga_pair(k, &ga, &gb);
            assert_int_equal(ga, a);
            assert_int_equal(gb, b);
        }
}

static void converges_monotonically(void **state)
{
    (void)state;
    struct toy t;
    toy_init(&t);
    struct trace tr = {0};
    struct saturn_ga_params p = toy_params(1);
    struct saturn_ga_result r;
    struct saturn_error err = {0};
    assert_int_equal(saturn_ga_run(&p, NULL, toy_eval, &t, record_progress, &tr, &r, &err), 0);
    assert_int_equal(tr.n, 300);
    for (uint32_t i = 0; i < tr.n; i++) {
        assert_int_equal(tr.gen[i], i + 1);
        if (i > 0)
            assert_true(tr.best[i] <= tr.best[i - 1]);
    }
    assert_true(tr.best[tr.n - 1] == r.best_fitness);
    /* 300 generations of 20 genes take a random start (about 240 from the
     * target) to about 30 (26..36 over seeds 1..10); ask for a quarter of
     * the initial population's best. */
    double first = t.batch_fit[0][0];
    for (int i = 1; i < 20; i++)
        first = fmin(first, t.batch_fit[0][i]);
    assert_true(first > 100);
    assert_true(r.best_fitness <= first / 4);
    assert_true(isnan(r.initial_fitness));
    /* The reported gene has the reported fitness. */
    double s = 0;
    for (int j = 0; j < MEMBERS; j++)
        s += (double)llabs(r.best[j] - t.target[j]);
    assert_true(s == r.best_fitness);
    assert_true(r.best_generation >= 1 && r.best_generation <= 300);
    /* 20 initial, 20 per mutation generation, 10 per crossover generation. */
    assert_int_equal(r.evaluations, 20 + 285 * 20 + 15 * 10);
    assert_int_equal(t.calls, 1 + 300);
    saturn_ga_result_free(&r);
    assert_null(r.best);
    toy_free(&t);
}

/* Slower mutation, more frequent crossover and 2000 generations reach the
 * target exactly (by generation ~500..1100 over seeds 1..10). */
static void reaches_target(void **state)
{
    (void)state;
    struct toy t;
    toy_init(&t);
    struct trace tr = {0};
    struct saturn_ga_params p = toy_params(2);
    p.generations = 2000;
    p.mutation_rate = 0.03;
    p.crossover_interval = 10;
    struct saturn_ga_result r;
    struct saturn_error err = {0};
    assert_int_equal(saturn_ga_run(&p, NULL, toy_eval, &t, record_progress, &tr, &r, &err), 0);
    for (uint32_t i = 1; i < tr.n; i++)
        assert_true(tr.best[i] <= tr.best[i - 1]);
    assert_true(r.best_fitness == 0);
    assert_memory_equal(r.best, t.target, sizeof t.target);
    assert_true(tr.best[r.best_generation - 1] == 0);
    assert_true(r.best_generation == 1 || tr.best[r.best_generation - 2] > 0);
    saturn_ga_result_free(&r);
    toy_free(&t);
}

static void deterministic(void **state)
{
    (void)state;
    struct toy t1, t2, t3;
    toy_init(&t1);
    toy_init(&t2);
    toy_init(&t3);
    struct trace tr1 = {0}, tr2 = {0}, tr3 = {0};
    struct saturn_ga_params p = toy_params(42);
    p.generations = 100;
    p.lifetime = 7;
    p.watchdog = 15;
    struct saturn_ga_result r1, r2, r3;
    struct saturn_error err = {0};
    assert_int_equal(saturn_ga_run(&p, NULL, toy_eval, &t1, record_progress, &tr1, &r1, &err), 0);
    assert_int_equal(saturn_ga_run(&p, NULL, toy_eval, &t2, record_progress, &tr2, &r2, &err), 0);
    p.seed = 43;
    assert_int_equal(saturn_ga_run(&p, NULL, toy_eval, &t3, record_progress, &tr3, &r3, &err), 0);

    assert_true(r1.best_fitness == r2.best_fitness);
    assert_memory_equal(r1.best, r2.best, MEMBERS * sizeof(int64_t));
    assert_int_equal(r1.best_generation, r2.best_generation);
    assert_int_equal(r1.evaluations, r2.evaluations);
    assert_true(t1.hash == t2.hash);
    assert_memory_equal(tr1.best, tr2.best, sizeof tr1.best);

    assert_true(t1.hash != t3.hash);
    assert_true(memcmp(tr1.best, tr3.best, sizeof tr1.best) != 0);
    saturn_ga_result_free(&r1);
    saturn_ga_result_free(&r2);
    saturn_ga_result_free(&r3);
    toy_free(&t1);
    toy_free(&t2);
    toy_free(&t3);
}

static void never_worse_than_initial(void **state)
{
    (void)state;
    struct toy t;
    toy_init(&t);
    struct saturn_ga_params p = toy_params(5);
    p.generations = 60;
    p.lifetime = 1;  /* re-draws nearly everything... */
    p.watchdog = 3;  /* ...and so does this: the best must survive in `out` */
    struct saturn_ga_result r;
    struct saturn_error err = {0};
    assert_int_equal(saturn_ga_run(&p, t.target, toy_eval, &t, NULL, NULL, &r, &err), 0);
    assert_true(r.initial_fitness == 0);
    assert_true(r.best_fitness == 0);
    assert_int_equal(r.best_generation, 0);
    assert_memory_equal(r.best, t.target, sizeof t.target);
    /* Gene 0 of the first batch is the initial gene. */
    assert_memory_equal(t.batch[0], t.target, sizeof t.target);
    assert_int_equal(t.batch_len[0], 20);
    saturn_ga_result_free(&r);
    toy_free(&t);

    /* A mediocre initial gene: the result is at least as good. */
    toy_init(&t);
    int64_t init[MEMBERS];
    for (int j = 0; j < MEMBERS; j++)
        init[j] = t.target[j] < MAXV ? t.target[j] + 1 : t.target[j] - 1;
    p.generations = 5;
    assert_int_equal(saturn_ga_run(&p, init, toy_eval, &t, NULL, NULL, &r, &err), 0);
    assert_true(r.initial_fitness == MEMBERS);
    assert_true(r.best_fitness <= r.initial_fitness);
    saturn_ga_result_free(&r);
    toy_free(&t);
}

/* r_m = 0: every mutant differs from its parent in exactly one re-drawn
 * member (so in at most one member). */
static void mutation_one_or_more(void **state)
{
    (void)state;
    struct toy t;
    toy_init(&t);
    struct saturn_ga_params p = toy_params(9);
    p.generations = 1;
    p.mutation_rate = 0;
    struct saturn_ga_result r;
    struct saturn_error err = {0};
    assert_int_equal(saturn_ga_run(&p, NULL, toy_eval, &t, NULL, NULL, &r, &err), 0);
    assert_int_equal(t.nbatch, 2);
    assert_int_equal(t.batch_len[1], 20);
    int changed = 0;
    for (int i = 0; i < 20; i++) {
        int diff = 0;
        for (int j = 0; j < MEMBERS; j++)
            diff += t.batch[0][i * MEMBERS + j] != t.batch[1][i * MEMBERS + j];
        assert_true(diff <= 1);
        changed += diff;
    }
    assert_true(changed >= 15); /* a re-draw repeats the old value 1 time in 32 */
    saturn_ga_result_free(&r);
    toy_free(&t);

    /* r_m = 1: every member is re-drawn. */
    toy_init(&t);
    p.mutation_rate = 1;
    assert_int_equal(saturn_ga_run(&p, NULL, toy_eval, &t, NULL, NULL, &r, &err), 0);
    int same = 0;
    for (int i = 0; i < 20 * MEMBERS; i++)
        same += t.batch[0][i] == t.batch[1][i];
    assert_true(same < 20 * MEMBERS / 8);
    saturn_ga_result_free(&r);
    toy_free(&t);
}

/* mutation_step: a chosen member moves by 1..s either way, clipped to the
 * range; with r_m = 1 every member moves. */
static void mutation_steps(void **state)
{
    (void)state;
    struct toy t;
    toy_init(&t);
    struct saturn_ga_params p = toy_params(9);
    p.generations = 1;
    p.mutation_rate = 1;
    p.mutation_step = 2;
    struct saturn_ga_result r;
    struct saturn_error err = {0};
    assert_int_equal(saturn_ga_run(&p, NULL, toy_eval, &t, NULL, NULL, &r, &err), 0);
    int seen[5] = {0};
    for (int i = 0; i < 20 * MEMBERS; i++) {
        int64_t a = t.batch[0][i], b = t.batch[1][i], d = b - a;
        assert_true(b >= 0 && b <= p.max_value);
        if (a >= 2 && a <= p.max_value - 2) { /* not clipped */
            assert_true(d != 0 && d >= -2 && d <= 2);
            seen[d + 2]++;
        }
    }
    for (int k = 0; k < 5; k++)
        assert_true(k == 2 ? seen[k] == 0 : seen[k] > 0);
    saturn_ga_result_free(&r);
    toy_free(&t);
}

/* Crossover with r_c = 0: every child is a copy of the best-ranked gene
 * (the pairs actually taken are (1, b)); genes/2 children are evaluated. */
static void crossover_children(void **state)
{
    (void)state;
    struct toy t;
    toy_init(&t);
    struct saturn_ga_params p = toy_params(11);
    p.generations = 4;
    p.crossover_interval = 4;
    p.crossover_rate = 0;
    struct saturn_ga_result r;
    struct trace tr = {0};
    struct saturn_error err = {0};
    assert_int_equal(saturn_ga_run(&p, NULL, toy_eval, &t, record_progress, &tr, &r, &err), 0);
    assert_int_equal(t.nbatch, 5);
    assert_int_equal(t.batch_len[4], 10);
    for (int i = 0; i < 10; i++) {
        assert_memory_equal(t.batch[4] + i * MEMBERS, t.batch[4], MEMBERS * sizeof(int64_t));
        assert_true(t.batch_fit[4][i] == tr.best[2]);
    }
    saturn_ga_result_free(&r);
    toy_free(&t);

    /* r_c = 1: each child is a copy of its weaker parent, i.e. ranks 2..11
     * of the population re-evaluated unchanged. */
    toy_init(&t);
    p.crossover_rate = 1;
    p.generations = 1;
    p.crossover_interval = 1;
    assert_int_equal(saturn_ga_run(&p, NULL, toy_eval, &t, NULL, NULL, &r, &err), 0);
    assert_int_equal(t.nbatch, 2);
    assert_int_equal(t.batch_len[1], 10);
    /* Rank the initial population (stable). */
    int order[20];
    for (int i = 0; i < 20; i++)
        order[i] = i;
    for (int i = 1; i < 20; i++)
        for (int j = i; j > 0 && t.batch_fit[0][order[j]] < t.batch_fit[0][order[j - 1]]; j--) {
            int x = order[j];
            order[j] = order[j - 1];
            order[j - 1] = x;
        }
    for (int c = 0; c < 10; c++)
        assert_memory_equal(t.batch[1] + c * MEMBERS, t.batch[0] + order[c + 1] * MEMBERS,
                            MEMBERS * sizeof(int64_t));
    saturn_ga_result_free(&r);
    toy_free(&t);
}

/* Fitness = how many genes were evaluated before: every new gene is worse
 * than every old one, so no mutant is ever accepted. */
static void counter_eval(void *user, const int64_t *const *genes, size_t n, double *fitness)
{
    uint64_t *count = user;
    for (size_t i = 0; i < n; i++)
        fitness[i] = (double)(*count)++;
}

static void lifetime_redraws(void **state)
{
    (void)state;
    struct saturn_ga_params p = toy_params(3);
    p.generations = 10;
    p.crossover_interval = 0;
    p.lifetime = 1;
    uint64_t count = 0;
    struct saturn_ga_result r;
    struct saturn_error err = {0};
    /* Ages after generation g (no mutant accepted): g for gene 0, the best,
     * which lifetime spares. The 19 others exceed 1 at generations 2, 4,
     * 6, 8, 10 and are re-drawn: 20 + 10 x 20 + 5 x 19. */
    assert_int_equal(saturn_ga_run(&p, NULL, counter_eval, &count, NULL, NULL, &r, &err), 0);
    assert_int_equal(r.evaluations, 20 + 10 * 20 + 5 * 19);
    assert_int_equal(count, r.evaluations);
    assert_true(r.best_fitness == 0);
    assert_int_equal(r.best_generation, 0);
    saturn_ga_result_free(&r);

    /* lifetime 2: re-draws at generations 3, 6, 9. */
    p.lifetime = 2;
    count = 0;
    assert_int_equal(saturn_ga_run(&p, NULL, counter_eval, &count, NULL, NULL, &r, &err), 0);
    assert_int_equal(r.evaluations, 20 + 10 * 20 + 3 * 19);
    saturn_ga_result_free(&r);

    /* lifetime 0: off. */
    p.lifetime = 0;
    count = 0;
    assert_int_equal(saturn_ga_run(&p, NULL, counter_eval, &count, NULL, NULL, &r, &err), 0);
    assert_int_equal(r.evaluations, 20 + 10 * 20);
    saturn_ga_result_free(&r);
}

struct const_eval {
    uint64_t calls;
    size_t len[64];
};

static void constant_eval(void *user, const int64_t *const *genes, size_t n, double *fitness)
{
    struct const_eval *c = user;
    if (c->calls < 64)
        c->len[c->calls] = n;
    c->calls++;
    for (size_t i = 0; i < n; i++)
        fitness[i] = 7;
}

static void watchdog_redraws(void **state)
{
    (void)state;
    struct saturn_ga_params p = toy_params(4);
    p.genes = 10;
    p.generations = 20;
    p.crossover_interval = 0;
    p.watchdog = 5;
    struct const_eval c = {0};
    struct saturn_ga_result r;
    struct saturn_error err = {0};
    /* No strict improvement ever: whole re-draws at generations 5, 10, 15,
     * 20, each a batch of its own. */
    assert_int_equal(saturn_ga_run(&p, NULL, constant_eval, &c, NULL, NULL, &r, &err), 0);
    assert_int_equal(r.evaluations, 10 + 20 * 10 + 4 * 10);
    assert_int_equal(c.calls, 1 + 20 + 4);
    for (uint64_t i = 0; i < c.calls; i++)
        assert_int_equal(c.len[i], 10);
    assert_true(r.best_fitness == 7);
    assert_int_equal(r.best_generation, 0);
    saturn_ga_result_free(&r);

    /* With crossover every 4th generation (5 children each). */
    p.crossover_interval = 4;
    memset(&c, 0, sizeof c);
    assert_int_equal(saturn_ga_run(&p, NULL, constant_eval, &c, NULL, NULL, &r, &err), 0);
    assert_int_equal(r.evaluations, 10 + 15 * 10 + 5 * 5 + 4 * 10);
    saturn_ga_result_free(&r);

    /* Constant fitness: every mutant is accepted, so lifetime never fires. */
    p.crossover_interval = 0;
    p.watchdog = 0;
    p.lifetime = 1;
    assert_int_equal(saturn_ga_run(&p, NULL, constant_eval, &c, NULL, NULL, &r, &err), 0);
    assert_int_equal(r.evaluations, 10 + 20 * 10);
    saturn_ga_result_free(&r);
}

static void bad_parameters(void **state)
{
    (void)state;
    struct toy t;
    toy_init(&t);
    struct saturn_ga_result r;
    struct saturn_error err;
    struct saturn_ga_params bad[7];
    for (int i = 0; i < 7; i++)
        bad[i] = toy_params(1);
    bad[0].genes = 1;
    bad[1].members = 0;
    bad[2].max_value = -1;
    bad[3].mutation_rate = -0.1;
    bad[4].mutation_rate = 1.5;
    bad[5].crossover_rate = NAN;
    bad[6].crossover_rate = 2;
    for (int i = 0; i < 7; i++) {
        memset(&err, 0, sizeof err);
        memset(&r, 0xff, sizeof r);
        assert_int_equal(saturn_ga_run(&bad[i], NULL, toy_eval, &t, NULL, NULL, &r, &err),
                         SATURN_EINPUT);
        assert_int_equal(err.code, SATURN_EINPUT);
        assert_true(strncmp(err.msg, "ga: ", 4) == 0);
        assert_null(r.best);
    }
    assert_int_equal(t.calls, 0);
    struct saturn_ga_params p = toy_params(1);
    assert_int_equal(saturn_ga_run(&p, NULL, NULL, NULL, NULL, NULL, &r, &err), SATURN_EINPUT);
    /* Edge values are fine: rates 0 and 1, max_value 0, two genes. */
    p.genes = 2;
    p.max_value = 0;
    p.mutation_rate = 1;
    p.crossover_rate = 0;
    p.generations = 3;
    p.crossover_interval = 2;
    struct toy u;
    toy_init(&u);
    memset(u.target, 0, sizeof u.target);
    assert_int_equal(saturn_ga_run(&p, NULL, toy_eval, &u, NULL, NULL, &r, &err), 0);
    assert_true(r.best_fitness == 0);
    assert_int_equal(r.evaluations, 2 + 2 + 1 + 2);
    saturn_ga_result_free(&r);
    toy_free(&u);
}

/* init_all: the first population is every gene a copy of `initial`. */
struct first_batch {
    int calls;
    size_t n;
    int all_initial;
};

static void first_batch_eval(void *user, const int64_t *const *genes, size_t n, double *fitness)
{
    struct first_batch *fb = user;
    if (fb->calls++ == 0) {
        fb->n = n;
        fb->all_initial = 1;
        for (size_t i = 0; i < n; i++)
            for (int j = 0; j < 8; j++)
                if (genes[i][j] != 3)
                    fb->all_initial = 0;
    }
    for (size_t i = 0; i < n; i++)
        fitness[i] = (double)genes[i][0];
}

static void init_all_copies_initial(void **state)
{
    (void)state;
    const int64_t initial[8] = {3, 3, 3, 3, 3, 3, 3, 3};
    struct saturn_ga_params p = {.genes = 6, .members = 8, .max_value = 9, .generations = 1,
                                 .mutation_rate = 0.1, .seed = 4, .init_all = 1};
    struct first_batch fb = {0, 0, 0};
    struct saturn_ga_result res;
    struct saturn_error err = {0};
    assert_int_equal(saturn_ga_run(&p, initial, first_batch_eval, &fb, NULL, NULL, &res, &err),
                     SATURN_OK);
    assert_int_equal(fb.n, 6);
    assert_true(fb.all_initial);
    saturn_ga_result_free(&res);
    /* without it, the other genes are random: not all 3s */
    p.init_all = 0;
    fb = (struct first_batch){0, 0, 0};
    assert_int_equal(saturn_ga_run(&p, initial, first_batch_eval, &fb, NULL, NULL, &res, &err),
                     SATURN_OK);
    assert_false(fb.all_initial);
    saturn_ga_result_free(&res);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(pair_order),
        cmocka_unit_test(converges_monotonically),
        cmocka_unit_test(reaches_target),
        cmocka_unit_test(deterministic),
        cmocka_unit_test(never_worse_than_initial),
        cmocka_unit_test(mutation_one_or_more),
        cmocka_unit_test(mutation_steps),
        cmocka_unit_test(crossover_children),
        cmocka_unit_test(lifetime_redraws),
        cmocka_unit_test(watchdog_redraws),
        cmocka_unit_test(bad_parameters),
        cmocka_unit_test(init_all_copies_initial),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
