/* saturn_run_shared (src/experiment/share.c): configurations that differ
 * only in the entropy thresholds share simulations, and each one's results
 * are exactly its own run's; cut-offs stop a collective early with a lower
 * bound on its duration. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "control/control.h"
#include "core/params.h"
#include "support.h"

#define NET8 "network.k=8", "router.vcs=3", "router.buf_flits=4", "routing.dateline=cumulative", \
             "routing.tie=random", "traffic.packet_length=8", "sim.workload=collective",        \
             "collective.packets=10"

struct got {
    size_t n, calls;
    struct saturn_results *r;
    bool *seen, *shared;
};

static int collect(void *user, size_t i, const struct saturn_results *r, bool shared)
{
    struct got *g = user;
    assert_true(i < g->n);
    assert_false(g->seen[i]); /* once each */
    g->seen[i] = true;
    g->shared[i] = shared;
    g->r[i] = *r; /* scalars only: the pointers belong to the run */
    g->r[i].links = NULL, g->r[i].hist = NULL, g->r[i].gen = NULL;
    g->calls++;
    return 0;
}

/* Every metric a sweep row holds, and then some. */
static void assert_same_run(const struct saturn_results *a, const struct saturn_results *b)
{
    assert_int_equal(a->duration, b->duration);
    assert_int_equal(a->cycles, b->cycles);
    assert_int_equal(a->flit_hops, b->flit_hops);
    assert_true(a->accepted == b->accepted);
    assert_true(a->packet_latency.mean == b->packet_latency.mean);
    assert_true(a->packet_latency.p99 == b->packet_latency.p99);
    assert_true(a->network_latency.mean == b->network_latency.mean);
    assert_true(a->hops_mean == b->hops_mean);
    assert_true(a->mobility_mean == b->mobility_mean);
    assert_true(a->entropy_mean == b->entropy_mean);
    assert_int_equal(a->cut, b->cut);
}

struct group {
    size_t n;
    struct saturn_config **c;
};

static void add(struct group *g, const char *const *kv)
{
    g->c = realloc(g->c, (g->n + 1) * sizeof *g->c);
    assert_non_null(g->c);
    g->c[g->n++] = test_config(kv);
}

static void group_free(struct group *g)
{
    for (size_t i = 0; i < g->n; i++)
        saturn_config_free(g->c[i]);
    free(g->c);
}

static struct saturn_share_stats run_group(struct group *g, const uint64_t *cut, struct got *got)
{
    got->n = g->n;
    got->calls = 0;
    got->r = calloc(g->n, sizeof *got->r);
    got->seen = calloc(g->n, sizeof *got->seen);
    got->shared = calloc(g->n, sizeof *got->shared);
    struct saturn_error err = {0};
    struct saturn_share_stats st;
    assert_int_equal(saturn_run_shared((const struct saturn_config *const *)g->c, g->n, cut,
                                       collect, got, &st, &err),
                     SATURN_OK);
    assert_int_equal(got->calls, g->n);
    assert_int_equal(st.runs + st.shared, g->n);
    return st;
}

static void got_free(struct got *g)
{
    free(g->r);
    free(g->seen);
    free(g->shared);
}

/* A threshold grid of one model, as a sweep would give it. */
static void add_grid(struct group *g, const char *model, const char *info, const char *tg,
                     const char *pattern)
{
    static const char *const ron[] = {"5", "60", "80", "90", "100"};
    static const char *const roff[] = {"60", "90", "100"};
    static const char *const rn[] = {"0", "30", "98"};
    char a[32], b[32], c[32], m[32], inf[32], t[32], p[32];
    snprintf(m, sizeof m, "control.model=%s", model);
    snprintf(inf, sizeof inf, "entropy.info=%s", info);
    snprintf(t, sizeof t, "entropy.tg=%s", tg);
    snprintf(p, sizeof p, "traffic.pattern=%s", pattern);
    bool base = !strcmp(model, "base"), guard = tg[0] != '-';
    for (size_t i = 0; i < 5; i++)
        for (size_t j = 0; j < (base ? 1 : 3); j++)
            for (size_t k = 0; k < 3; k++) {
                snprintf(a, sizeof a, base ? "entropy.rth=%s" : "entropy.ron=%s", ron[i]);
                snprintf(b, sizeof b, "entropy.roff=%s", roff[j]);
                snprintf(c, sizeof c, "entropy.rn=%s", rn[k]);
                const char *kv[16] = {NET8, m, inf, p, a, c};
                size_t n = 0;
                while (kv[n])
                    n++;
                if (!base)
                    kv[n++] = b;
                if (guard)
                    kv[n++] = t;
                kv[n] = NULL;
                add(g, kv);
            }
}

/* Each configuration's results are those of its own run; some share. */
static void shared_runs_are_their_own(void **state)
{
    (void)state;
    struct group g = {0};
    add_grid(&g, "base", "circuit", "-", "shfl");
    add_grid(&g, "hyst", "circuit", "-", "shfl"); /* base(R, Rn) = hyst(R, R, Rn) */
    add_grid(&g, "hyst", "vcc", "-", "shfl");
    add_grid(&g, "gt.x", "circuit", "4", "rand");
    add_grid(&g, "gt.a", "ideal", "8", "shfl");
    add(&g, (const char *const[]){NET8, "control.model=noth", "traffic.pattern=shfl", NULL});
    struct got got;
    struct saturn_share_stats st = run_group(&g, NULL, &got);
    size_t shared = 0;
    for (size_t i = 0; i < g.n; i++) {
        struct saturn_results alone;
        struct saturn_error err = {0};
        assert_int_equal(saturn_run(g.c[i], &alone, &err), SATURN_OK);
        assert_same_run(&got.r[i], &alone);
        shared += got.shared[i];
        assert_true(got.shared[i] ? got.r[i].wall_seconds == 0 : got.r[i].wall_seconds > 0);
        saturn_results_free(&alone);
    }
    assert_int_equal(shared, st.shared);
    /* Ron = 5 % never throttles: 9 hyst sets (and 3 base ones) are one run
     * per model group at least; the grid has far fewer distinct runs. */
    assert_true(st.shared >= 40);
    assert_true(st.runs >= 6); /* every group (and noth) needs its own */
    got_free(&got);
    group_free(&g);
}

/* gt.a (tG 4) on every (Ron, Roff, Rn) of the lists, one pattern and seed. */
static void add_gta_grid(struct group *g, const char *const *ron, size_t nron,
                         const char *const *roff, size_t nroff, const char *const *rn, size_t nrn,
                         const char *pattern, const char *seed)
{
    char a[32], b[32], c[32], p[32], sd[32];
    snprintf(p, sizeof p, "traffic.pattern=%s", pattern);
    snprintf(sd, sizeof sd, "sim.seed=%s", seed);
    for (size_t i = 0; i < nron; i++)
        for (size_t j = 0; j < nroff; j++)
            for (size_t k = 0; k < nrn; k++) {
                snprintf(a, sizeof a, "entropy.ron=%s", ron[i]);
                snprintf(b, sizeof b, "entropy.roff=%s", roff[j]);
                snprintf(c, sizeof c, "entropy.rn=%s", rn[k]);
                add(g, (const char *const[]){NET8, "control.model=gt.a", "entropy.tg=4", p, sd,
                                             a, b, c, NULL});
            }
}

/* More followers than one 64-bit word, leaving word by word (the attached
 * words are tracked, src/control/entropy.c), and nodes that see the same
 * sums in a cycle (the ranks are remembered per pair): each configuration
 * is still its own run. */
static void many_followers_across_words(void **state)
{
    (void)state;
    static const char *const ron[] = {"5", "30", "50", "70", "80", "90", "100"};
    static const char *const roff[] = {"10", "50", "70", "90", "95", "100"};
    static const char *const rn[] = {"0", "1", "10", "30", "90"};
    struct group g = {0};
    add_gta_grid(&g, ron, 7, roff, 6, rn, 5, "rand", "3");
    struct got got;
    struct saturn_share_stats st = run_group(&g, NULL, &got);
    for (size_t i = 0; i < g.n; i++) {
        struct saturn_results alone;
        struct saturn_error err = {0};
        assert_int_equal(saturn_run(g.c[i], &alone, &err), SATURN_OK);
        assert_same_run(&got.r[i], &alone);
        saturn_results_free(&alone);
    }
    assert_int_equal(g.n, 210); /* four words */
    assert_true(st.shared > 0);
    assert_true(st.detached > 64); /* whole words leave */
    assert_true(st.runs < g.n);
    got_free(&got);
    group_free(&g);
}

/* saturn_run_shared_split: a part of a call's configurations handed off
 * whenever the caller asks (a sweep's idle thread) and run by later calls:
 * every configuration is reported exactly once, with its own run's results. */
struct handoff {
    struct got *got;
    const size_t *map;   /* this call's index -> the group's */
    size_t *taken, ntaken, takes;
};

static bool always_want(void *user)
{
    (void)user;
    return true;
}

static int take_some(void *user, const size_t *idx, size_t k)
{
    struct handoff *h = user;
    assert_true(k >= 1);
    h->taken = realloc(h->taken, (h->ntaken + k) * sizeof *h->taken);
    assert_non_null(h->taken);
    for (size_t j = 0; j < k; j++)
        h->taken[h->ntaken++] = h->map[idx[j]];
    h->takes++;
    return 0;
}

static int collect_mapped(void *user, size_t i, const struct saturn_results *r, bool shared)
{
    struct handoff *h = user;
    return collect(h->got, h->map[i], r, shared);
}

static void split_hands_off_followers(void **state)
{
    (void)state;
    static const char *const ron[] = {"5", "50", "70", "80", "90", "100"};
    static const char *const roff[] = {"50", "70", "90", "100"};
    static const char *const rn[] = {"0", "10", "90"};
    struct group g = {0};
    add_gta_grid(&g, ron, 6, roff, 4, rn, 3, "shfl", "2");
    struct got whole, parts;
    struct saturn_share_stats st = run_group(&g, NULL, &whole);
    parts.n = g.n;
    parts.calls = 0;
    parts.r = calloc(g.n, sizeof *parts.r);
    parts.seen = calloc(g.n, sizeof *parts.seen);
    parts.shared = calloc(g.n, sizeof *parts.shared);
    /* the first call on everything, then each handed-off part in turn */
    size_t *todo = malloc(g.n * sizeof *todo), ntodo = g.n, calls = 0, takes = 0, runs = 0;
    for (size_t i = 0; i < g.n; i++)
        todo[i] = i;
    while (ntodo) {
        const struct saturn_config **cs = malloc(ntodo * sizeof *cs);
        for (size_t i = 0; i < ntodo; i++)
            cs[i] = g.c[todo[i]];
        struct handoff h = {&parts, todo, NULL, 0, 0};
        const struct saturn_share_split split = {always_want, take_some, &h};
        struct saturn_share_stats pst;
        struct saturn_error err = {0};
        assert_int_equal(saturn_run_shared_split(cs, ntodo, NULL, collect_mapped, &h, &split,
                                                 &pst, &err),
                         SATURN_OK);
        assert_int_equal(pst.runs + pst.shared + h.ntaken, ntodo);
        runs += pst.runs;
        takes += h.takes;
        calls++;
        free(cs);
        free(todo);
        todo = h.taken ? h.taken : malloc(1);
        ntodo = h.ntaken;
    }
    free(todo);
    assert_int_equal(parts.calls, g.n); /* each exactly once (collect asserts it) */
    for (size_t i = 0; i < g.n; i++)
        assert_same_run(&parts.r[i], &whole.r[i]);
    assert_true(takes >= 2 && calls >= 3); /* it did split, more than once */
    assert_true(runs >= st.runs);          /* a shared run may be made on both sides */
    got_free(&whole);
    got_free(&parts);
    group_free(&g);
}

/* Runs that differ elsewhere (seed, pattern, guard time) never share. */
static void other_keys_never_share(void **state)
{
    (void)state;
    struct group g = {0};
    add(&g, (const char *const[]){NET8, "control.model=hyst", "entropy.ron=5", "sim.seed=1", NULL});
    add(&g, (const char *const[]){NET8, "control.model=hyst", "entropy.ron=5", "sim.seed=2", NULL});
    add(&g, (const char *const[]){NET8, "control.model=gt.x", "entropy.ron=5", "entropy.tg=4", NULL});
    add(&g, (const char *const[]){NET8, "control.model=gt.x", "entropy.ron=5", "entropy.tg=8", NULL});
    add(&g, (const char *const[]){NET8, "control.model=hyst", "entropy.ron=5",
                                  "traffic.pattern=torn", NULL});
    struct got got;
    struct saturn_share_stats st = run_group(&g, NULL, &got);
    assert_int_equal(st.runs, g.n);
    assert_true(saturn_share_key(g.c[0]) != saturn_share_key(g.c[1]));
    assert_int_equal(saturn_share_key(g.c[4]) == 0, false);
    struct saturn_config *noth = test_config((const char *const[]){NET8, NULL});
    assert_int_equal(saturn_share_key(noth), 0); /* noth has no thresholds to follow */
    saturn_config_free(noth);
    got_free(&got);
    group_free(&g);
}

/* The share key is the old one (share.c before issue 17's round 2 built the
 * text "name=value\n" of every value but the thresholds, base as hyst, and
 * compared those texts): two configurations have the same key exactly when
 * those texts are equal (a hash: equal texts, equal keys; different texts,
 * different keys here), and saturn_share_same tells exactly that. The
 * configurations are clones of one base with a few keys set, as a sweep
 * builds its points. */
static char *old_key_text(const struct saturn_config *c)
{
    const char *m = saturn_config_str(c, "control.model");
    if (strcmp(m, "base") && strcmp(m, "hyst") && strcmp(m, "gt.x") && strcmp(m, "gt.a"))
        return NULL;
    size_t len = 0, cap = 1 << 16;
    char *t = malloc(cap);
    assert_non_null(t);
    t[0] = 0;
    for (size_t i = 0; i < saturn_param_count(); i++) {
        const char *name = saturn_param_at(i)->name, *v = saturn_config_value_text(c, i);
        if (!strcmp(name, "entropy.rth") || !strcmp(name, "entropy.ron") ||
            !strcmp(name, "entropy.roff") || !strcmp(name, "entropy.rn"))
            continue;
        if (!strcmp(name, "control.model") && !strcmp(v, "base"))
            v = "hyst";
        len += (size_t)snprintf(t + len, cap - len, "%s=%s\n", name, v);
        assert_true(len < cap);
    }
    return t;
}

static void share_key_is_the_old_text_key(void **state)
{
    (void)state;
    struct saturn_config *base = test_config((const char *const[]){NET8, NULL});
    static const char *const models[] = {"noth", "base", "hyst", "gt.x", "gt.a"};
    static const char *const other[] = {NULL, "sim.seed=2", "entropy.tg=16", "entropy.ron=70",
                                        "entropy.rth=40", "entropy.rn=5", "traffic.pattern=torn",
                                        "entropy.info=vcc"};
    size_t n = 0;
    struct saturn_config *c[40];
    for (size_t m = 0; m < 5; m++)
        for (size_t o = 0; o < 8; o++) {
            struct saturn_error err = {0};
            char mk[64];
            snprintf(mk, sizeof mk, "control.model=%s", models[m]);
            c[n] = saturn_config_clone(base);
            assert_non_null(c[n]);
            const char *kv[2] = {mk, other[o]};
            for (size_t k = 0; k < 2 && kv[k]; k++) {
                char key[64];
                const char *eq = strchr(kv[k], '=');
                snprintf(key, sizeof key, "%.*s", (int)(eq - kv[k]), kv[k]);
                assert_int_equal(saturn_config_set(c[n], key, eq + 1, "sweep.ini", 3, &err),
                                 SATURN_OK);
            }
            n++;
        }
    size_t same = 0;
    for (size_t i = 0; i < n; i++) {
        char *a = old_key_text(c[i]);
        assert_int_equal(saturn_share_key(c[i]) == 0, a == NULL);
        for (size_t j = 0; a && j < n; j++) {
            char *b = old_key_text(c[j]);
            bool old_same = b && !strcmp(a, b);
            assert_int_equal(saturn_share_key(c[i]) == saturn_share_key(c[j]), old_same);
            assert_int_equal(saturn_share_same(c[i], c[j]), old_same);
            same += old_same && i != j;
            free(b);
        }
        free(a);
    }
    assert_true(same >= 16); /* thresholds alone, and base with hyst, do share */
    for (size_t i = 0; i < n; i++)
        saturn_config_free(c[i]);
    saturn_config_free(base);
}

/* The shared runs read which keys may differ from the controllers
 * (ctl_ops.follow_keys, share_as): every controller that follows names
 * registered keys, one read as another has the same keys, and a
 * configuration differing only in one of them shares the key while one
 * differing in a key outside them does not. */
static void follow_keys_come_from_the_controller(void **state)
{
    (void)state;
    const struct saturn_param *mp = saturn_param_at((size_t)params_index("control.model"));
    size_t following = 0;
    for (const char *const *m = mp->choices; *m; m++) {
        const struct ctl_ops *ops = ctl_find(*m);
        assert_non_null(ops);
        if (!ops->follow) {
            assert_null(ops->follow_keys);
            continue;
        }
        following++;
        assert_non_null(ops->follow_keys);
        if (ops->share_as) {
            const struct ctl_ops *as = ctl_find(ops->share_as);
            assert_non_null(as);
            assert_ptr_equal(as->follow_keys, ops->follow_keys);
        }
        char mk[64];
        snprintf(mk, sizeof mk, "control.model=%s", *m);
        struct saturn_config *a = test_config((const char *const[]){NET8, mk, NULL});
        for (const char *const *k = ops->follow_keys; *k; k++) {
            assert_true(params_index(*k) >= 0);
            struct saturn_config *b = saturn_config_clone(a);
            struct saturn_error err = {0};
            assert_int_equal(saturn_config_set(b, *k, "7", "t.ini", 1, &err), SATURN_OK);
            assert_true(saturn_share_key(a) == saturn_share_key(b));
            assert_true(saturn_share_same(a, b));
            saturn_config_free(b);
        }
        struct saturn_config *c = saturn_config_clone(a);
        struct saturn_error err = {0};
        assert_int_equal(saturn_config_set(c, "entropy.tg", "3", "t.ini", 1, &err), SATURN_OK);
        assert_false(saturn_share_same(a, c));
        saturn_config_free(c);
        saturn_config_free(a);
    }
    assert_int_equal(following, 4); /* base, hyst, gt.x, gt.a */
}

/* A cut-off stops a collective that has not finished by then: its
 * duration is then a lower bound, above the cut-off; one that finishes in
 * time is exact. Followers keep the run going until their own cut-offs. */
static void cutoffs_bound_the_duration(void **state)
{
    (void)state;
    struct group g = {0};
    add_grid(&g, "hyst", "circuit", "-", "shfl");
    struct got full;
    run_group(&g, NULL, &full);
    uint64_t *cut = malloc(g.n * sizeof *cut);
    for (size_t i = 0; i < g.n; i++) /* every third one too short, the others just enough */
        cut[i] = i % 3 == 0 ? full.r[i].duration - 1 - i % 50 : full.r[i].duration;
    struct got got;
    run_group(&g, cut, &got);
    size_t ncut = 0;
    for (size_t i = 0; i < g.n; i++) {
        if (got.r[i].cut) {
            ncut++;
            assert_true(got.r[i].duration > cut[i]);
            assert_true(got.r[i].duration <= full.r[i].duration);
        } else {
            assert_same_run(&got.r[i], &full.r[i]);
        }
        if (i % 3)
            assert_false(got.r[i].cut);
    }
    assert_true(ncut > 0);
    free(cut);
    got_free(&got);
    got_free(&full);
    group_free(&g);
}

/* Under a cut-off, a run stops as soon as the flits its links still have to
 * carry show it cannot finish by then: with the cut-off one below the
 * static bound (saturn_collective_bound) that is before the first cycle,
 * and the duration it reports is that bound, still at most the real one. */
static void cutoffs_stop_hopeless_runs_at_once(void **state)
{
    (void)state;
    static const char *const kv[] = {NET8, "control.model=hyst", "entropy.ron=60",
                                     "entropy.roff=90", "entropy.rn=30", "traffic.pattern=shfl",
                                     NULL};
    struct group g = {0};
    add(&g, kv);
    struct got full;
    run_group(&g, NULL, &full);
    uint64_t lb = 0;
    struct saturn_error err = {0};
    assert_int_equal(saturn_collective_bound(g.c[0], &lb, &err), SATURN_OK);
    assert_true(lb > 1 && lb < full.r[0].duration);
    uint64_t cut[] = {lb - 1};
    struct got got;
    run_group(&g, cut, &got);
    assert_true(got.r[0].cut);
    assert_int_equal(got.r[0].duration, lb); /* the bound at cycle 0 */
    assert_true(got.r[0].cycles <= 1);       /* stopped before it ran */
    /* a cut-off the run misses narrowly: stopped at or before it, bound above it */
    cut[0] = full.r[0].duration - 40;
    got_free(&got);
    run_group(&g, cut, &got);
    assert_true(got.r[0].cut);
    assert_true(got.r[0].duration > cut[0] && got.r[0].duration <= full.r[0].duration);
    assert_true(got.r[0].cycles <= cut[0] + 2);
    got_free(&got);
    got_free(&full);
    group_free(&g);
}

/* The static bound (saturn_collective_bound): every link, injection and
 * ejection channel, with its flits' earliest cycles there and the least
 * time from there to their delivery. (1) At most the duration of every run:
 * every pattern, three seeds, with and without throttling, and under other
 * timings and buffers. (2) Above the bound it replaced, the busiest
 * channel's flits less one, where that is a permutation's network link (no
 * flit takes it at cycle 0 nor is delivered as it takes it). (3) The
 * duration itself where nothing waits: 10 packets from each node of a
 * 4-ring to the next, 80 flits on each link, the last sent at 79, on the
 * link at 80, delivered 2 later. */
static void collective_bound_holds_and_is_tighter(void **state)
{
    (void)state;
    static const char *const pats[] = {"trns", "shfl", "bcmp", "brev", "brot", "torn", "rand",
                                       "rpar"};
    static const char *const var[][7] = {
        {"control.model=noth", NULL},
        {"control.model=gt.x", "entropy.tg=8", "entropy.ron=60", "entropy.roff=90",
         "entropy.rn=30", NULL},
        {"router.link_latency=3", "router.inject_latency=2", "router.eject_latency=0",
         "router.xbar_delay=1", "router.route_delay=2", NULL},
        {"router.switching=vct", "router.buf_flits=8", "routing.tie=parity", NULL},
        {"router.out_buf_flits=8", "router.speedup=2", NULL},
    };
    struct saturn_error err = {0};
    size_t tighter = 0, permutation_links = 0;
    for (size_t p = 0; p < sizeof pats / sizeof *pats; p++)
        for (size_t v = 0; v < sizeof var / sizeof *var; v++)
            for (int seed = 1; seed <= 3; seed++) {
                char pat[48], sd[24];
                snprintf(pat, sizeof pat, "traffic.pattern=%s", pats[p]);
                snprintf(sd, sizeof sd, "sim.seed=%d", seed);
                const char *kv[24] = {NET8, pat, sd};
                size_t n = 0;
                while (kv[n])
                    n++;
                for (size_t k = 0; var[v][k]; k++)
                    kv[n++] = var[v][k];
                kv[n] = NULL;
                struct saturn_config *c = test_config(kv);
                uint64_t lb = 0;
                assert_int_equal(saturn_collective_bound(c, &lb, &err), SATURN_OK);
                struct saturn_results r = test_run(kv);
                assert_true(lb <= r.duration);
                uint64_t busiest = 80, speed = v == 4 ? 2 : 1; /* a node's own injection */
                for (size_t l = 0; l < r.nlinks; l++) {
                    uint64_t b = (r.links[l].busy + speed - 1) / speed;
                    busiest = b > busiest ? b : busiest;
                }
                assert_true(lb >= busiest - 1);
                /* bcmp and torn are permutations: 80 flits reach each node */
                if (v == 0 && (!strcmp(pats[p], "bcmp") || !strcmp(pats[p], "torn"))) {
                    permutation_links++;
                    tighter += lb > busiest - 1;
                }
                saturn_results_free(&r);
                saturn_config_free(c);
            }
    assert_int_equal(tighter, permutation_links);
    assert_int_equal(permutation_links, 6);
    static const char *const ring[] = {"network.k=4", "network.n=1", "traffic.pattern=tornado",
                                       "traffic.packet_length=8", "sim.workload=collective",
                                       "collective.packets=10", NULL};
    struct saturn_config *c = test_config(ring);
    uint64_t lb = 0;
    assert_int_equal(saturn_collective_bound(c, &lb, &err), SATURN_OK);
    struct saturn_results r = test_run(ring);
    assert_int_equal(r.duration, 82);
    assert_int_equal(lb, 82);
    saturn_results_free(&r);
    saturn_config_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(shared_runs_are_their_own),
        cmocka_unit_test(many_followers_across_words),
        cmocka_unit_test(split_hands_off_followers),
        cmocka_unit_test(other_keys_never_share),
        cmocka_unit_test(share_key_is_the_old_text_key),
        cmocka_unit_test(follow_keys_come_from_the_controller),
        cmocka_unit_test(cutoffs_bound_the_duration),
        cmocka_unit_test(cutoffs_stop_hopeless_runs_at_once),
        cmocka_unit_test(collective_bound_holds_and_is_tighter),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
