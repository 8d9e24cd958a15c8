/* Core pieces: RNG streams, the latency histogram. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/histogram.h"
#include "core/order.h"
#include "core/rng.h"
#include "support.h"

/* xoshiro256** reference: state {1, 2, 3, 4} gives 11520, 0, 1509978240,
 * 1215971899390074240 (the authors' C code). */
static void xoshiro_reference(void **state)
{
    (void)state;
    struct rng r = {{1, 2, 3, 4}};
    assert_int_equal(rng_next(&r), 11520ULL);
    assert_int_equal(rng_next(&r), 0ULL);
    assert_int_equal(rng_next(&r), 1509978240ULL);
    assert_int_equal(rng_next(&r), 1215971899390074240ULL);
}

static void streams_differ_and_repeat(void **state)
{
    (void)state;
    struct rng a, b, c;
    rng_seed(&a, 1, 0);
    rng_seed(&b, 1, 1);
    rng_seed(&c, 1, 0);
    uint64_t x = rng_next(&a), y = rng_next(&b), z = rng_next(&c);
    assert_true(x != y);
    assert_true(x == z);
}

static void below_is_uniform(void **state)
{
    (void)state;
    struct rng r;
    rng_seed(&r, 3, 0);
    int count[7] = {0};
    for (int i = 0; i < 70000; i++) {
        uint64_t v = rng_below(&r, 7);
        assert_true(v < 7);
        count[v]++;
    }
    for (int i = 0; i < 7; i++)
        assert_true(count[i] > 9400 && count[i] < 10600);
    double s = 0;
    for (int i = 0; i < 100000; i++) {
        double u = rng_uniform(&r);
        assert_true(u >= 0 && u < 1);
        s += u;
    }
    assert_true(fabs(s / 100000 - 0.5) < 0.01);
}

static void histogram_exact_and_bucketed(void **state)
{
    (void)state;
    struct histogram *h = malloc(sizeof *h);
    hist_init(h);
    for (uint64_t v = 1; v <= 100; v++)
        hist_add(h, v);
    struct saturn_latency l;
    hist_summary(h, &l);
    assert_int_equal(l.count, 100);
    assert_true(l.mean == 50.5);
    assert_true(l.min == 1 && l.max == 100);
    assert_true(l.p50 == 51); /* rank 50 of 0..99 */
    assert_true(l.p99 == 100);
    /* Above 1024 the buckets are 1/64 of a power of two wide. */
    uint64_t lo, hi;
    hist_bucket_range(HIST_EXACT, &lo, &hi);
    assert_int_equal(lo, 1024);
    assert_int_equal(hi, 1039);
    hist_add(h, 5000);
    hist_summary(h, &l);
    assert_true(l.max == 5000);
    size_t n;
    struct saturn_bucket *b = hist_buckets(h, &n);
    assert_int_equal(n, 101);
    assert_true(b[100].lo <= 5000 && 5000 <= b[100].hi);
    assert_true(b[100].hi - b[100].lo + 1 == 64); /* 4096..8191 in 64 buckets of 64 */
    free(b);
    /* Every value lands in a bucket that contains it. */
    for (uint64_t v = 1; v < (1ULL << 40); v = v * 3 + 1) {
        hist_init(h);
        hist_add(h, v);
        b = hist_buckets(h, &n);
        assert_int_equal(n, 1);
        assert_true(b[0].lo <= v && v <= b[0].hi);
        assert_true((double)(b[0].hi - b[0].lo) <= (double)v / 64.0 + 1);
        free(b);
    }
    free(h);
}

/* Keys 2 0 2 1 0 2 and a key with no item (3): each key's items in
 * ascending index, the bounds of the empty keys equal. */
static void order_by_key_is_stable(void **state)
{
    (void)state;
    const uint32_t key[] = {2, 0, 2, 1, 0, 2};
    uint32_t first[6], order[6];
    order_by_key(key, 6, 5, first, order);
    const uint32_t want_first[] = {0, 2, 3, 6, 6, 6}, want_order[] = {1, 4, 3, 0, 2, 5};
    assert_memory_equal(first, want_first, sizeof first);
    assert_memory_equal(order, want_order, sizeof order);
    order_by_key(key, 0, 5, first, order); /* no items: every key empty */
    for (int k = 0; k < 6; k++)
        assert_int_equal(first[k], 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(xoshiro_reference),
        cmocka_unit_test(streams_differ_and_repeat),
        cmocka_unit_test(below_is_uniform),
        cmocka_unit_test(histogram_exact_and_bucketed),
        cmocka_unit_test(order_by_key_is_stable),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
