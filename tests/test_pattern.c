/* Destination patterns: the fixed maps against worked examples, the random
 * ones against their defining properties. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "topo/topo.h"
#include "traffic/pattern.h"

struct bench {
    struct saturn_config *cfg;
    struct topo t;
    struct pattern p;
};

static void bench_open(struct bench *b, const char *const *kv, uint64_t seed)
{
    struct saturn_error err = {0};
    b->cfg = test_config(kv);
    assert_int_equal(topo_build(&b->t, b->cfg, &err), SATURN_OK);
    int rc = pattern_init(&b->p, b->cfg, &b->t, seed, &err);
    if (rc != SATURN_OK)
        fail_msg("pattern_init: %s", err.msg);
}

static void bench_close(struct bench *b)
{
    pattern_free(&b->p);
    topo_free(&b->t);
    saturn_config_free(b->cfg);
}

/* pattern_init must fail with SATURN_EINPUT naming key. */
static void expect_error(const char *const *kv, const char *key)
{
    struct saturn_error err = {0};
    struct saturn_config *cfg = test_config(kv);
    struct topo t;
    struct pattern p;
    assert_int_equal(topo_build(&t, cfg, &err), SATURN_OK);
    assert_int_equal(pattern_init(&p, cfg, &t, 1, &err), SATURN_EINPUT);
    assert_int_equal(err.code, SATURN_EINPUT);
    if (!strstr(err.msg, key))
        fail_msg("error does not name %s: %s", key, err.msg);
    pattern_free(&p); /* harmless after a failure */
    topo_free(&t);
    saturn_config_free(cfg);
}

static uint32_t dest_of(const char *const *kv, uint32_t src)
{
    struct bench b;
    struct rng r;
    bench_open(&b, kv, 1);
    rng_seed(&r, 1, src);
    uint32_t d = pattern_dest(&b.p, src, &r);
    bench_close(&b);
    return d;
}

/* Paper 001: 16-ary 2-cube, N154 = 10011010. */
static void test_bit_patterns_paper_001(void **state)
{
    (void)state;
    const char *comp[] = {"network.k=16", "traffic.pattern=bitcomp", NULL};
    const char *rev[] = {"network.k=16", "traffic.pattern=bitrev", NULL};
    const char *shuf[] = {"network.k=16", "traffic.pattern=shuffle", NULL};
    const char *rot[] = {"network.k=16", "traffic.pattern=bitrot", NULL};
    assert_int_equal(dest_of(comp, 154), 101); /* 01100101 */
    assert_int_equal(dest_of(rev, 154), 89);   /* 01011001 */
    assert_int_equal(dest_of(shuf, 154), 53);  /* 00110101 */
    assert_int_equal(dest_of(rot, 154), 77);   /* 01001101 */
    /* Paper 000's short names are the same patterns. */
    const char *bcmp[] = {"network.k=16", "traffic.pattern=bcmp", NULL};
    const char *brev[] = {"network.k=16", "traffic.pattern=brev", NULL};
    const char *shfl[] = {"network.k=16", "traffic.pattern=shfl", NULL};
    const char *brot[] = {"network.k=16", "traffic.pattern=brot", NULL};
    assert_int_equal(dest_of(bcmp, 154), 101);
    assert_int_equal(dest_of(brev, 154), 89);
    assert_int_equal(dest_of(shfl, 154), 53);
    assert_int_equal(dest_of(brot, 154), 77);
}

/* Each bit pattern is a permutation, shuffle and bitrot undo each other,
 * bitcomp and bitrev are involutions. */
static void test_bit_patterns_are_permutations(void **state)
{
    (void)state;
    static const char *const names[] = {"shuffle", "bitcomp", "bitrev", "bitrot"};
    struct bench b[4];
    char word[4][64];
    struct rng r;
    rng_seed(&r, 3, 0);
    for (int i = 0; i < 4; i++) {
        snprintf(word[i], sizeof word[i], "traffic.pattern=%s", names[i]);
        const char *kv[] = {"network.k=8", "network.n=3", word[i], NULL};
        bench_open(&b[i], kv, 1);
    }
    uint32_t n = b[0].t.nodes;
    assert_int_equal(b[0].p.bits, 9);
    for (int i = 0; i < 4; i++) {
        char *seen = calloc(n, 1);
        for (uint32_t s = 0; s < n; s++) {
            uint32_t d = pattern_dest(&b[i].p, s, &r);
            assert_true(d < n);
            assert_false(seen[d]);
            seen[d] = 1;
        }
        free(seen);
    }
    for (uint32_t s = 0; s < n; s++) {
        assert_int_equal(pattern_dest(&b[3].p, pattern_dest(&b[0].p, s, &r), &r), s);
        assert_int_equal(pattern_dest(&b[1].p, pattern_dest(&b[1].p, s, &r), &r), s);
        assert_int_equal(pattern_dest(&b[2].p, pattern_dest(&b[2].p, s, &r), &r), s);
    }
    for (int i = 0; i < 4; i++)
        bench_close(&b[i]);
}

static void test_bit_patterns_need_power_of_two(void **state)
{
    (void)state;
    static const char *const names[] = {"shuffle", "bitcomp", "bitrev", "bitrot"};
    for (int i = 0; i < 4; i++) {
        char word[64];
        snprintf(word, sizeof word, "traffic.pattern=%s", names[i]);
        const char *kv[] = {"network.k=6", word, NULL};
        expect_error(kv, "traffic.pattern");
    }
    /* The message says why. */
    struct saturn_error err = {0};
    const char *kv[] = {"network.k=6", "traffic.pattern=bitrev", NULL};
    struct saturn_config *cfg = test_config(kv);
    struct topo t;
    struct pattern p;
    assert_int_equal(topo_build(&t, cfg, &err), SATURN_OK);
    assert_int_equal(pattern_init(&p, cfg, &t, 1, &err), SATURN_EINPUT);
    assert_non_null(strstr(err.msg, "power-of-two"));
    assert_non_null(strstr(err.msg, "36 nodes"));
    topo_free(&t);
    saturn_config_free(cfg);
}

static void test_transpose(void **state)
{
    (void)state;
    const char *kv[] = {"network.k=4", "traffic.pattern=transpose", NULL};
    assert_int_equal(dest_of(kv, 9), 6); /* (1,2) -> (2,1) */
    assert_int_equal(dest_of(kv, 5), 5); /* diagonal: to itself */
    assert_int_equal(dest_of(kv, 3), 12);
    const char *trns[] = {"network.k=4", "traffic.pattern=trns", NULL};
    assert_int_equal(dest_of(trns, 9), 6);
    /* 3-D: (1,2,3) -> (3,2,1). */
    const char *kv3[] = {"network.k=4", "network.n=3", "traffic.pattern=transpose", NULL};
    assert_int_equal(dest_of(kv3, 1 + 2 * 4 + 3 * 16), 3 + 2 * 4 + 1 * 16);
    const char *mesh[] = {"network.topology=mesh", "network.k=4",
                          "traffic.pattern=transpose", NULL};
    assert_int_equal(dest_of(mesh, 9), 6);

    const char *rect[] = {"network.k=4,8", "traffic.pattern=transpose", NULL};
    expect_error(rect, "traffic.pattern");
    const char *ring[] = {"network.n=1", "network.k=8", "traffic.pattern=transpose", NULL};
    expect_error(ring, "traffic.pattern");
}

static void test_tornado(void **state)
{
    (void)state;
    const char *ring[] = {"network.n=1", "network.k=8", "traffic.pattern=tornado", NULL};
    assert_int_equal(dest_of(ring, 0), 3);
    assert_int_equal(dest_of(ring, 6), 1);
    /* Odd k = 5: shift ceil(5/2) - 1 = 2 in every dimension. */
    const char *odd[] = {"network.k=5", "traffic.pattern=tornado", NULL};
    assert_int_equal(dest_of(odd, 4 + 5 * 3), 1 + 5 * 0); /* (4,3) -> (1,0) */
}

/* BookSim 2's fixed patterns (src/traffic.cpp at 28f43299; node id = x + k y,
 * dimension 0 least significant), written out here from their definitions:
 * saturn's maps equal them node for node on the 8x8, 16x16 and 32x32 tori
 * of experiments/booksim-validation. */
static uint32_t booksim_dest(const char *pattern, uint32_t s, uint32_t nodes, uint32_t k)
{
    uint32_t bits = 0;
    while ((1u << bits) < nodes)
        bits++;
    if (!strcmp(pattern, "bitcomp"))
        return ~s & (nodes - 1);
    if (!strcmp(pattern, "transpose")) { /* the low and high halves of the bits swapped */
        uint32_t h = bits / 2, lo = (1u << h) - 1;
        return ((s >> h) & lo) | ((s << h) & (lo << h));
    }
    if (!strcmp(pattern, "bitrev")) {
        uint32_t d = 0;
        for (uint32_t i = 0; i < bits; i++, s >>= 1)
            d = (d << 1) | (s & 1);
        return d;
    }
    if (!strcmp(pattern, "shuffle")) /* shifted left, the bit shifted out back at 0 */
        return ((s << 1) & (nodes - 1)) | ((s << 1) & nodes ? 1 : 0);
    /* tornado: every digit + (k + 1) / 2 - 1 mod k */
    uint32_t d = 0;
    for (uint32_t off = 1; off < nodes; off *= k)
        d += off * (((s / off) % k + (k + 1) / 2 - 1) % k);
    return d;
}

static void test_booksim_patterns(void **state)
{
    (void)state;
    static const char *const pats[] = {"bitcomp", "transpose", "bitrev", "shuffle", "tornado"};
    static const char *const ks[] = {"network.k=8", "network.k=16", "network.k=32"};
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 5; j++) {
            char pat[64];
            snprintf(pat, sizeof pat, "traffic.pattern=%s", pats[j]);
            const char *kv[] = {ks[i], pat, NULL};
            struct bench b;
            struct rng r;
            bench_open(&b, kv, 1);
            rng_seed(&r, 1, 0);
            uint32_t k = (uint32_t)b.t.k[0];
            for (uint32_t s = 0; s < b.t.nodes; s++) {
                uint32_t want = booksim_dest(pats[j], s, b.t.nodes, k);
                uint32_t got = pattern_dest(&b.p, s, &r);
                if (got != want)
                    fail_msg("%s on %ux%u: %u -> %u, BookSim %u", pats[j], k, k, s, got, want);
            }
            bench_close(&b);
        }
}

static void test_torn(void **state)
{
    (void)state;
    const char *kv[] = {"network.k=32", "traffic.pattern=torn", NULL};
    assert_int_equal(dest_of(kv, 5), 21);
    assert_int_equal(dest_of(kv, 20), 36); /* carries into y */
    assert_int_equal(dest_of(kv, 1023), 15);
}

/* traffic.word_order = xy: the word is x's bits above y's. torn on 32x32
 * then adds 16 to y and carries into x: (5,0) -> (5,16), (0,20) -> (1,4),
 * (31,31) -> (0,15). On a k x k torus shuffle, bitrev, bitcomp and bitrot
 * give the same map either way: reversing W's bits or rotating them by one
 * treats its two halves alike. */
static void test_word_order(void **state)
{
    (void)state;
    const char *kv[] = {"network.k=32", "traffic.pattern=torn", "traffic.word_order=xy", NULL};
    assert_int_equal(dest_of(kv, 5), 5 + 32 * 16);
    assert_int_equal(dest_of(kv, 20 * 32), 1 + 32 * 4);
    assert_int_equal(dest_of(kv, 1023), 15 * 32);
    const char *pats[] = {"traffic.pattern=shuffle", "traffic.pattern=bitrev",
                          "traffic.pattern=bitcomp", "traffic.pattern=bitrot"};
    for (int i = 0; i < 4; i++) {
        const char *yx[] = {"network.k=8", pats[i], NULL};
        const char *xy[] = {"network.k=8", pats[i], "traffic.word_order=xy", NULL};
        for (uint32_t src = 0; src < 64; src++)
            assert_int_equal(dest_of(yx, src), dest_of(xy, src));
    }
    /* 8x4: torn adds 4 to x (yx) or 2 to y (xy), carrying into the other */
    const char *t_yx[] = {"network.k=8,4", "traffic.pattern=torn", NULL};
    const char *t_xy[] = {"network.k=8,4", "traffic.pattern=torn", "traffic.word_order=xy", NULL};
    assert_int_equal(dest_of(t_yx, 0), 4);
    assert_int_equal(dest_of(t_xy, 0), 2 * 8);
    assert_int_equal(dest_of(t_xy, 3 * 8), 1 + 8 * 1); /* (0,3): y 3 + 2 carries: (1,1) */
    const char *fly[] = {"network.topology=dragonfly", "traffic.pattern=bitrev",
                         "traffic.word_order=xy", NULL};
    expect_error(fly, "traffic.word_order");
}

/* traffic.uniform_self (BookSim's uniform): every node, the source too,
 * 1/16 each on 4x4; and a run with it delivers the self-addressed packets. */
static void test_uniform_self(void **state)
{
    (void)state;
    const char *kv[] = {"network.k=4", "traffic.uniform_self=true", NULL};
    struct bench b;
    struct rng r;
    bench_open(&b, kv, 1);
    rng_seed(&r, 7, 0);
    int count[16] = {0};
    for (int i = 0; i < 32000; i++)
        count[pattern_dest(&b.p, 5, &r)]++;
    for (uint32_t d = 0; d < 16; d++) /* 2000 expected each; sigma ~ 43 */
        assert_in_range(count[d], 1700, 2300);
    bench_close(&b);
    struct saturn_results res = test_run((const char *const[]){
        "network.k=4", "traffic.uniform_self=true", "traffic.flit_rate=0.2", "steady.warmup=200",
        "steady.measure=600", "sim.check_invariants=true", NULL});
    assert_true(res.measured_delivered == res.measured_packets && res.measured_packets > 0);
    saturn_results_free(&res);
}

static void test_uniform(void **state)
{
    (void)state;
    const char *kv[] = {"network.k=4", NULL}; /* uniform is the default */
    const char *rand_kv[] = {"network.k=4", "traffic.pattern=rand", NULL};
    for (int v = 0; v < 2; v++) {
        struct bench b;
        struct rng r;
        bench_open(&b, v ? rand_kv : kv, 1);
        assert_int_equal(b.p.kind, PAT_UNIFORM);
        rng_seed(&r, 7, 0);
        for (uint32_t src = 0; src < 16; src += 5) {
            int count[16] = {0};
            const int draws = 30000;
            for (int i = 0; i < draws; i++) {
                uint32_t d = pattern_dest(&b.p, src, &r);
                assert_true(d < 16);
                assert_int_not_equal(d, src);
                count[d]++;
            }
            /* 2000 expected each; sigma ~ 43. */
            for (uint32_t d = 0; d < 16; d++)
                if (d != src)
                    assert_in_range(count[d], 1700, 2300);
        }
        bench_close(&b);
    }
}

static void test_hotspot(void **state)
{
    (void)state;
    const char *kv[] = {"network.k=8", "traffic.pattern=hotspot",
                        "traffic.hotspot_node=10", "traffic.hotspot_fraction=0.3", NULL};
    struct bench b;
    struct rng r;
    bench_open(&b, kv, 1);
    rng_seed(&r, 11, 3);
    const int draws = 200000;
    int hot = 0;
    for (int i = 0; i < draws; i++) {
        uint32_t d = pattern_dest(&b.p, 3, &r);
        assert_true(d < 64);
        assert_int_not_equal(d, 3);
        hot += d == 10;
    }
    /* The uniform part also reaches node 10 now and then. */
    double expect = 0.3 + 0.7 / 63.0, got = (double)hot / draws;
    assert_true(got > expect - 0.01 && got < expect + 0.01);
    bench_close(&b);

    const char *bad[] = {"network.k=8", "traffic.pattern=hotspot",
                         "traffic.hotspot_node=64", NULL};
    expect_error(bad, "traffic.hotspot_node");
    /* An out-of-range hot node only matters to pattern=hotspot. */
    const char *other[] = {"network.k=8", "traffic.hotspot_node=64", NULL};
    bench_open(&b, other, 1);
    bench_close(&b);
}

static void test_randperm(void **state)
{
    (void)state;
    const char *kv[] = {"network.k=8", "traffic.pattern=randperm", NULL};
    struct bench a, b, c;
    struct rng r;
    rng_seed(&r, 1, 0);
    bench_open(&a, kv, 42);
    bench_open(&b, kv, 42);
    bench_open(&c, kv, 43);
    char seen[64] = {0};
    int differ = 0;
    for (uint32_t s = 0; s < 64; s++) {
        uint32_t d = pattern_dest(&a.p, s, &r);
        assert_true(d < 64);
        assert_false(seen[d]);
        seen[d] = 1;
        assert_int_equal(pattern_dest(&a.p, s, &r), d); /* fixed for the run */
        assert_int_equal(pattern_dest(&b.p, s, &r), d);
        differ += pattern_dest(&c.p, s, &r) != d;
    }
    assert_true(differ > 0);
    bench_close(&a);
    bench_close(&b);
    bench_close(&c);
}

static void test_randpair(void **state)
{
    (void)state;
    const char *kv[] = {"network.k=8", "traffic.pattern=randpair", NULL};
    const char *rpar[] = {"network.k=8", "traffic.pattern=rpar", NULL};
    struct bench a, b;
    struct rng r;
    rng_seed(&r, 1, 0);
    bench_open(&a, kv, 5);
    bench_open(&b, rpar, 5);
    for (uint32_t s = 0; s < 64; s++) {
        uint32_t d = pattern_dest(&a.p, s, &r);
        assert_true(d < 64);
        assert_int_not_equal(d, s);
        assert_int_equal(pattern_dest(&a.p, d, &r), s);
        assert_int_equal(pattern_dest(&b.p, s, &r), d);
    }
    bench_close(&a);
    bench_close(&b);

    const char *odd[] = {"network.k=3", "traffic.pattern=randpair", NULL};
    expect_error(odd, "traffic.pattern");
}

/* Draws from every listed source land exactly l hops away, and every node
 * at that distance turns up (counted with topo_distance, not assumed). */
static void check_distance(const char *const *kv, int l, const uint32_t *srcs,
                           int nsrc)
{
    struct bench b;
    struct rng r;
    bench_open(&b, kv, 1);
    assert_int_equal(b.p.distance, l);
    uint32_t n = b.t.nodes;
    int *hits = calloc(n, sizeof *hits);
    assert_non_null(hits);
    rng_seed(&r, 9, 0);
    for (int i = 0; i < nsrc; i++) {
        uint32_t src = srcs[i];
        uint32_t want = 0;
        for (uint32_t d = 0; d < n; d++)
            want += topo_distance(&b.t, src, d) == l;
        assert_true(want > 0);
        if (b.t.kind == TOPO_TORUS) /* one offset per destination */
            assert_int_equal(b.p.noffsets, want);
        memset(hits, 0, n * sizeof *hits);
        const int draws = (int)want * 400;
        for (int j = 0; j < draws; j++) {
            uint32_t d = pattern_dest(&b.p, src, &r);
            assert_true(d < n);
            assert_int_equal(topo_distance(&b.t, src, d), l);
            hits[d]++;
        }
        for (uint32_t d = 0; d < n; d++)
            if (topo_distance(&b.t, src, d) == l)
                assert_in_range(hits[d], 250, 550); /* 400 expected */
    }
    free(hits);
    bench_close(&b);
}

static void test_distance_torus(void **state)
{
    (void)state;
    const uint32_t srcs[] = {0, 27, 63};
    const char *kv[] = {"network.k=8", "traffic.pattern=distance", "traffic.distance=3", NULL};
    check_distance(kv, 3, srcs, 3);
    const char *far[] = {"network.k=8", "traffic.pattern=distance", "traffic.distance=8", NULL};
    check_distance(far, 8, srcs, 3); /* the diameter: only (4,4) away */
    /* Odd k, a k = 2 dimension (+1 and -1 coincide), unequal sizes. */
    const uint32_t srcs3[] = {0, 17, 39};
    const char *mix[] = {"network.k=5,4,2", "network.n=3", "traffic.pattern=distance",
                         "traffic.distance=3", NULL};
    check_distance(mix, 3, srcs3, 3);
    const char *too_far[] = {"network.k=8", "traffic.pattern=distance",
                             "traffic.distance=9", NULL};
    expect_error(too_far, "traffic.distance");
}

static void test_distance_mesh(void **state)
{
    (void)state;
    /* Corner 0 of an 8x8 mesh: only (0,3), (1,2), (2,1), (3,0). */
    const char *kv[] = {"network.topology=mesh", "network.k=8",
                        "traffic.pattern=distance", "traffic.distance=3", NULL};
    const uint32_t corner[] = {0};
    check_distance(kv, 3, corner, 1);
    const uint32_t srcs[] = {63, 7, 27, 36};
    check_distance(kv, 3, srcs, 4);
    /* Up to the radius (4 + 4) every node has a destination. */
    const char *radius[] = {"network.topology=mesh", "network.k=8",
                            "traffic.pattern=distance", "traffic.distance=8", NULL};
    check_distance(radius, 8, srcs, 4);
    const char *beyond[] = {"network.topology=mesh", "network.k=8",
                            "traffic.pattern=distance", "traffic.distance=9", NULL};
    expect_error(beyond, "traffic.distance");
    const char *too_far[] = {"network.topology=mesh", "network.k=8",
                             "traffic.pattern=distance", "traffic.distance=15", NULL};
    expect_error(too_far, "traffic.distance");
}

static void collect_neighbors(const char *const *kv, uint32_t src, char *seen,
                              uint32_t n)
{
    struct bench b;
    struct rng r;
    bench_open(&b, kv, 1);
    assert_int_equal(b.t.nodes, n);
    rng_seed(&r, 4, src);
    memset(seen, 0, n);
    for (int i = 0; i < 2000; i++) {
        uint32_t d = pattern_dest(&b.p, src, &r);
        assert_true(d < n);
        seen[d] = 1;
    }
    bench_close(&b);
}

static void test_neighbor(void **state)
{
    (void)state;
    char seen[64];
    const char *mesh[] = {"network.topology=mesh", "network.k=4",
                          "traffic.pattern=neighbor", NULL};
    collect_neighbors(mesh, 0, seen, 16);
    for (uint32_t d = 0; d < 16; d++)
        assert_int_equal(seen[d], d == 1 || d == 4);
    const char *torus[] = {"network.k=4", "traffic.pattern=neighbor", NULL};
    collect_neighbors(torus, 0, seen, 16);
    for (uint32_t d = 0; d < 16; d++)
        assert_int_equal(seen[d], d == 1 || d == 3 || d == 4 || d == 12);
    const char *k2[] = {"network.k=2", "network.n=3", "traffic.pattern=neighbor", NULL};
    collect_neighbors(k2, 0, seen, 8);
    for (uint32_t d = 0; d < 8; d++)
        assert_int_equal(seen[d], d == 1 || d == 2 || d == 4);
}

static void test_params(void **state)
{
    (void)state;
    const struct saturn_param *p = saturn_param_find("traffic.pattern");
    assert_non_null(p);
    assert_string_equal(p->def, "uniform");
    assert_non_null(saturn_param_find("traffic.hotspot_node"));
    assert_non_null(saturn_param_find("traffic.hotspot_fraction"));
    assert_non_null(saturn_param_find("traffic.distance"));
    /* Every choice parses and yields a pattern that builds on an 8x8 torus,
     * or on a Dragonfly for the group patterns (which a torus refuses). */
    for (const char *const *c = p->choices; *c; c++) {
        char word[64];
        snprintf(word, sizeof word, "traffic.pattern=%s", *c);
        bool groups = !strcmp(*c, "adversarial") || !strcmp(*c, "adv") || !strcmp(*c, "mixed");
        const char *kv[] = {"network.k=8", word, NULL};
        const char *df[] = {"network.topology=dragonfly", "dragonfly.p=2", "dragonfly.a=4",
                            "dragonfly.h=2", word, NULL};
        struct bench b;
        struct rng r;
        bench_open(&b, groups ? df : kv, 1);
        rng_seed(&r, 2, 0);
        for (uint32_t s = 0; s < b.t.nodes; s++)
            assert_true(pattern_dest(&b.p, s, &r) < b.t.nodes);
        bench_close(&b);
        if (groups) /* and only there */
            expect_error(kv, "traffic.pattern");
    }
    expect_error((const char *const[]){"network.topology=dragonfly", "traffic.pattern=transpose",
                                       NULL},
                 "traffic.pattern");
    expect_error((const char *const[]){"network.topology=dragonfly", "traffic.pattern=adv",
                                       "traffic.adv_shift=9", NULL},
                 "traffic.adv_shift");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bit_patterns_paper_001),
        cmocka_unit_test(test_bit_patterns_are_permutations),
        cmocka_unit_test(test_bit_patterns_need_power_of_two),
        cmocka_unit_test(test_transpose),
        cmocka_unit_test(test_tornado),
        cmocka_unit_test(test_booksim_patterns),
        cmocka_unit_test(test_torn),
        cmocka_unit_test(test_word_order),
        cmocka_unit_test(test_uniform),
        cmocka_unit_test(test_uniform_self),
        cmocka_unit_test(test_hotspot),
        cmocka_unit_test(test_randperm),
        cmocka_unit_test(test_randpair),
        cmocka_unit_test(test_distance_torus),
        cmocka_unit_test(test_distance_mesh),
        cmocka_unit_test(test_neighbor),
        cmocka_unit_test(test_params),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
