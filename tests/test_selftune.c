/* Paper 001's injection controllers: the side-band gather (g, snapshot
 * timing, extrapolation), the self-tuning decision table and local-maximum
 * avoidance, the static threshold, ALO's rule, their configuration checks,
 * and self-tuning against no control beyond saturation. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "control/alo.h"
#include "control/gather.h"
#include "control/selftune.h"
#include "core/rng.h"
#include "net/net.h"
#include "support.h"

/* net_create's error for a configuration (SATURN_OK when it builds). */
static int create_error(const char *const *kv, char *msg, size_t size)
{
    struct saturn_config *cfg = test_config(kv);
    struct net n = {0};
    struct saturn_error err = {0};
    int rc = net_create(&n, cfg, 1, &err);
    snprintf(msg, size, "%s", err.msg);
    net_destroy(&n);
    saturn_config_free(cfg);
    return rc;
}

/* Saturating sources: every node starts a 16-flit packet to a uniformly
 * drawn other node with probability rate / 16 per cycle. */
static void offer(struct net *n, struct rng *r, double rate)
{
    for (uint32_t s = 0; s < n->nnodes; s++)
        if (rng_uniform(r) < rate / 16) {
            uint32_t d = (uint32_t)rng_below(r, n->nnodes - 1);
            net_packet_new(n, s, d >= s ? d + 1 : d, 16, true);
        }
}

/* Full network input VC buffers, counted here independently of gather.c. */
static uint64_t full_now(const struct net *n, bool nonempty)
{
    uint64_t c = 0;
    for (uint32_t r = 0; r < n->topo.routers; r++)
        for (int p = 0; p < n->P; p++) {
            const struct port *pt = &n->ports[r * n->P + p];
            if (pt->kind != PORT_NET)
                continue;
            for (int v = 0; v < n->V; v++) {
                uint32_t cnt = n->ivcs[((size_t)r * n->P + p) * n->V + v].count;
                c += nonempty ? cnt > 0 : cnt == pt->cap;
            }
        }
    return c;
}

static void gather_duration(void **state)
{
    (void)state;
    struct topo t = {.kind = TOPO_TORUS, .n = 2, .k = {16, 16}};
    assert_int_equal(gather_g(&t, 2), 32); /* the paper's (k/2) h n */
    assert_int_equal(gather_g(&t, 3), 48);
    assert_int_equal(gather_g(&t, 6), 96);
    t.k[0] = t.k[1] = 4;
    assert_int_equal(gather_g(&t, 2), 8);
    t.k[0] = 5; /* an odd ring needs floor(5/2) = 2 hops */
    assert_int_equal(gather_g(&t, 1), 4);
    /* a 4x3 mesh: lines of 4 and 3 need 3 + 2 hops */
    struct saturn_config *cfg;
    struct net *n = test_net((const char *const[]){"network.topology=mesh", "network.k=4,3",
                                                  NULL},
                            &cfg);
    assert_int_equal(gather_g(&n->topo, 2), 10);
    /* linked network ports only: 3 rows of 3 links and 4 columns of 2, both ways, 3 VCs */
    assert_int_equal(gather_buffers(n), 2 * (3 * 3 + 4 * 2) * 3);
    test_net_free(n, cfg);
    /* a Dragonfly: local, global, local whatever its size (was 0: SIGFPE) */
    struct topo df = {.kind = TOPO_DRAGONFLY, .p = 4, .a = 8, .h = 4};
    assert_int_equal(gather_g(&df, 2), 6);
}

/* Regression (stress issue): static and selftune on a Dragonfly divided by
 * a zero gather period. They run, and a low static threshold throttles. */
static void global_throttling_on_dragonfly(void **state)
{
    (void)state;
    const char *const off[] = {"network.topology=dragonfly", "routing.algorithm=min", "dragonfly.p=2", "dragonfly.a=4",
                               "dragonfly.h=2", "traffic.flit_rate=0.4", "steady.warmup=300",
                               "steady.measure=600", "control.model=static",
                               "static.threshold=1000000", NULL};
    const char *const on[] = {"network.topology=dragonfly", "routing.algorithm=min", "dragonfly.p=2", "dragonfly.a=4",
                              "dragonfly.h=2", "traffic.flit_rate=0.4", "steady.warmup=300",
                              "steady.measure=600", "control.model=static", "static.threshold=0",
                              NULL};
    const char *const tune[] = {"network.topology=dragonfly", "routing.algorithm=min", "dragonfly.p=2", "dragonfly.a=4",
                                "dragonfly.h=2", "traffic.flit_rate=0.4", "steady.warmup=300",
                                "steady.measure=600", "control.model=selftune",
                                "selftune.period=96", NULL};
    struct saturn_results a = test_run(off), b = test_run(on), c = test_run(tune);
    assert_true(a.throttled_mean == 0);
    assert_true(b.throttled_mean > 0);
    assert_true(c.measured_delivered > 0);
    saturn_results_free(&a);
    saturn_results_free(&b);
    saturn_results_free(&c);
}

static void paper_network_numbers(void **state)
{
    (void)state;
    struct saturn_config *cfg;
    struct net *n = test_net((const char *const[]){"network.k=16", "control.model=selftune",
                                                  NULL},
                            &cfg);
    assert_int_equal(gather_buffers(n), 3072); /* 256 x 4 ports x 3 VCs */
    const struct tuner *t = selftune_tuner(n->ctl_state);
    assert_true(t->threshold == 30);   /* 1 % */
    assert_true(t->increment == 30);   /* 1 % */
    assert_true(t->decrement == 122);  /* 4 % */
    assert_true(t->drop == 0.75);
    assert_true(t->avoid);
    assert_int_equal(t->resets_limit, 5);
    test_net_free(n, cfg);
}

/* --preset thottethodi2004: the paper's counts (3,072 buffers, g = 32)
 * and the zero-load latency of its router, 1 (inject) + 2 (H + 1) (route
 * and crossbar) + H (links) + 1 (eject) + 15 = 3H + 19 for a 16-flit packet
 * over H hops, through the central arbiter. */
static void preset_thottethodi2004(void **state)
{
    (void)state;
    struct saturn_config *cfg = saturn_config_new();
    struct saturn_error err = {0};
    assert_int_equal(saturn_config_preset(cfg, "thottethodi2004", &err), SATURN_OK);
    assert_int_equal(saturn_config_set(cfg, "control.model", "selftune", NULL, 0, &err), SATURN_OK);
    struct net *n = calloc(1, sizeof *n);
    assert_non_null(n);
    assert_int_equal(net_create(n, cfg, 1, &err), SATURN_OK);
    assert_int_equal(gather_buffers(n), 3072);
    assert_true(n->central && n->arb_requeue && n->atomic_vc);
    assert_int_equal(n->V, 3);
    const uint32_t pairs[][2] = {{0, 1}, {0, 17}, {5, 5 + 8 * 16}, {0, 8 + 8 * 16}};
    for (size_t i = 0; i < 4; i++) {
        uint32_t pid = net_packet_new(n, pairs[i][0], pairs[i][1], 16, true);
        int H = topo_distance(&n->topo, pairs[i][0], pairs[i][1]);
        uint64_t t0 = n->now;
        while (n->pk[pid].alive)
            assert_int_equal(net_step(n), SATURN_OK);
        assert_int_equal(n->now - 1 - t0, (uint64_t)(3 * H + 19));
    }
    net_destroy(n);
    free(n);
    saturn_config_free(cfg);
}

static void extrapolation(void **state)
{
    (void)state;
    assert_true(gather_extrapolate(100, 0, 140, 32, 32) == 140);
    assert_true(gather_extrapolate(100, 0, 140, 32, 48) == 160);
    assert_true(gather_extrapolate(100, 0, 140, 32, 63) == 140 + 40.0 * 31 / 32);
    assert_true(gather_extrapolate(140, 32, 100, 64, 80) == 80);
    assert_true(gather_extrapolate(100, 0, 20, 32, 63) == 0); /* clamped at 0 */
    assert_true(gather_extrapolate(100, 32, 20, 32, 40) == 20); /* no interval: S1 */
}

/* Snapshots from another source (the metapacket hook): visible from the
 * cycle given, newest two by sample cycle drive the estimate. */
static void published_snapshots(void **state)
{
    (void)state;
    struct saturn_config *cfg;
    struct net *n = test_net((const char *const[]){"network.k=4", NULL}, &cfg);
    struct gather g;
    struct saturn_error err = {0};
    assert_int_equal(gather_init(&g, cfg, n, &err), SATURN_OK);
    g.sideband = false;
    assert_int_equal(gather_publish(&g, 0, 10, 5, 20), SATURN_OK);
    assert_int_equal(gather_publish(&g, 8, 30, 7, 25), SATURN_OK);
    assert_int_equal(gather_publish(&g, 4, 50, 1, 22), SATURN_OK); /* arrives out of order */
    double d, f;
    n->now = 19;
    gather_step(&g, n);
    assert_true(gather_estimate(&g) == 0);
    assert_int_equal(gather_take(&g, &d, &f), 0);
    n->now = 20;
    gather_step(&g, n);
    assert_true(gather_estimate(&g) == 10); /* one snapshot: itself */
    n->now = 22;
    gather_step(&g, n); /* (0, 10), (4, 50): 50 + 40 (22 - 4) / 4 */
    assert_true(gather_estimate(&g) == 50 + 40.0 * 18 / 4);
    n->now = 26;
    gather_step(&g, n); /* (4, 50), (8, 30): 30 - 20 (26 - 8) / 4 < 0 */
    assert_true(gather_estimate(&g) == 0);
    assert_int_equal(gather_take(&g, &d, &f), 3);
    assert_true(d == 13 && f == 90);
    gather_free(&g);
    test_net_free(n, cfg);
}

/* gather.estimate = linear_visible: the same line, extrapolated from the
 * cycle the newest snapshot became visible; linear from the cycle it
 * describes. Side-band snapshots of 0, 8, 16 visible at 8, 16, 24 (g = 8). */
static void extrapolation_from_arrival(void **state)
{
    (void)state;
    for (int vis = 0; vis < 2; vis++) {
        struct saturn_config *cfg;
        struct net *n = test_net((const char *const[]){"network.k=4",
                                                       vis ? "gather.estimate=linear_visible"
                                                           : "gather.estimate=linear",
                                                       NULL},
                                 &cfg);
        struct gather g;
        struct saturn_error err = {0};
        assert_int_equal(gather_init(&g, cfg, n, &err), SATURN_OK);
        g.sideband = false;
        assert_int_equal(gather_publish(&g, 0, 100, 0, 8), SATURN_OK);
        assert_int_equal(gather_publish(&g, 8, 140, 0, 16), SATURN_OK);
        n->now = 16;
        gather_step(&g, n); /* linear: 140 + 40 (16 - 8) / 8; visible: 140 + 40 (16 - 16) / 8 */
        assert_true(gather_estimate(&g) == (vis ? 140 : 180));
        n->now = 20;
        gather_step(&g, n);
        assert_true(gather_estimate(&g) == (vis ? 160 : 200));
        n->now = 23;
        gather_step(&g, n);
        assert_true(gather_estimate(&g) == (vis ? 140 + 40.0 * 7 / 8 : 140 + 40.0 * 15 / 8));
        gather_free(&g);
        test_net_free(n, cfg);
    }
}

/* A test controller running a gather of its own, recording per cycle what
 * the network held and what the nodes were told. */
struct probe {
    struct gather g;
    uint64_t full[512], ejected[512]; /* at each cycle's observe */
    uint32_t seen[512];               /* snapshots that became visible at that cycle */
    double seen_full[512], seen_delivered[512];
};

static void probe_observe(void *state, struct net *n)
{
    struct probe *p = state;
    gather_step(&p->g, n);
    uint64_t t = n->now;
    p->full[t] = full_now(n, false);
    p->ejected[t] = n->flits_ejected;
    p->seen[t] = gather_take(&p->g, &p->seen_delivered[t], &p->seen_full[t]);
}

/* Snapshot j: full buffers at cycle j g, flits delivered in [(j-1) g, j g),
 * visible from (j+1) g, one every g cycles, on a loaded 4x4 torus (g = 8). */
static void sideband_timing(void **state)
{
    (void)state;
    struct saturn_config *cfg;
    struct net *n = test_net((const char *const[]){"network.k=4", NULL}, &cfg);
    static struct probe p;
    memset(&p, 0, sizeof p);
    struct saturn_error err = {0};
    assert_int_equal(gather_init(&p.g, cfg, n, &err), SATURN_OK);
    const uint64_t g = 8;
    assert_int_equal(p.g.g, g);
    struct ctl_ops ops = {.name = "probe", .observe = probe_observe};
    n->ctl = &ops;
    n->ctl_state = &p;
    struct rng r;
    rng_seed(&r, 3, 0);
    for (int c = 0; c < 400; c++) {
        offer(n, &r, 1.0);
        assert_int_equal(net_step(n), SATURN_OK);
    }
    uint64_t nonzero = 0;
    for (uint64_t t = 0; t < 400; t++) {
        if (t < g || t % g) {
            assert_int_equal(p.seen[t], 0);
            continue;
        }
        uint64_t j = t / g - 1; /* the snapshot that becomes visible now */
        assert_int_equal(p.seen[t], 1);
        assert_true(p.seen_full[t] == (double)p.full[j * g]);
        /* delivered in cycles [(j-1) g, j g): counts at the ends of j g - 1 and (j-1) g - 1 */
        uint64_t hi = j ? p.ejected[j * g - 1] : 0, lo = j >= 2 ? p.ejected[(j - 1) * g - 1] : 0;
        assert_true(p.seen_delivered[t] == (double)(hi - lo));
        nonzero += p.full[j * g] > 0;
    }
    assert_true(nonzero > 10); /* the network was loaded: the test saw real values */
    n->ctl = ctl_find("noth");
    n->ctl_state = NULL;
    gather_free(&p.g);
    test_net_free(n, cfg);
}

/* The static policy in a real run: the estimate the nodes act on changes
 * only at multiples of g and is the last snapshot (estimate = last) or the
 * extrapolation of the last two; every node throttles iff it exceeds the
 * threshold. */
static void static_policy_timing(void **state)
{
    (void)state;
    for (int linear = 0; linear < 2; linear++) {
        struct saturn_config *cfg;
        struct net *n = test_net((const char *const[]){"network.k=4", "control.model=static",
                                                      "static.threshold=6",
                                                      linear ? "gather.estimate=linear"
                                                             : "gather.estimate=last",
                                                      NULL},
                                &cfg);
        const uint64_t g = 8, T = 300;
        static uint64_t full[300];
        struct rng r;
        rng_seed(&r, 5, 0);
        uint64_t on = 0;
        for (uint64_t t = 0; t < T; t++) {
            offer(n, &r, 1.0);
            assert_int_equal(net_step(n), SATURN_OK);
            full[t] = full_now(n, false);
            double thr, est;
            n->ctl->probe(n->ctl_state, &thr, &est);
            assert_true(thr == 6);
            double want = 0;
            uint64_t j1 = t / g; /* snapshots 0 .. j1 - 1 are visible at t */
            if (j1 >= 1) {
                uint64_t t1 = (j1 - 1) * g;
                want = (double)full[t1];
                if (linear && j1 >= 2)
                    want = gather_extrapolate((double)full[t1 - g], t1 - g, want, t1, t);
            }
            assert_true(est == want);
            uint32_t thrn = n->ctl->throttled(n->ctl_state);
            assert_int_equal(thrn, est > 6 ? n->nnodes : 0);
            on += thrn > 0;
        }
        assert_true(on > 0 && on < T); /* the gate did open and close */
        test_net_free(n, cfg);
    }
}

static struct tuner tuner(double threshold, bool avoid)
{
    return (struct tuner){.threshold = threshold, .increment = 30, .decrement = 122,
                          .drop = 0.75, .avoid = avoid, .resets_limit = 5};
}

/* Table 1 as section 4.1 reads: drop -> decrease (throttled or not); no
 * drop and throttled -> increase; otherwise unchanged. */
static void table_one(void **state)
{
    (void)state;
    for (int avoid = 0; avoid < 2; avoid++) {
        struct tuner t = tuner(200, avoid);
        t.prev = 1000;
        t.max = 1000; /* with avoidance on, 760 is not below 75 % of max */
        assert_int_equal(selftune_decide(&t, 760, 50, true), ST_INCREASE); /* no drop vs 1000 */
        assert_true(t.threshold == 230);
        assert_int_equal(selftune_decide(&t, 800, 50, false), ST_KEEP);
        assert_true(t.threshold == 230);
        assert_int_equal(selftune_decide(&t, 590, 50, false), avoid ? ST_RESET : ST_DECREASE);
        if (!avoid) {
            assert_true(t.threshold == 108);
            t.prev = 800;
            assert_int_equal(selftune_decide(&t, 599, 50, true), ST_DECREASE);
            assert_true(t.threshold == 0); /* never below 0 */
            t.prev = 800;
            /* 600 = 75 % of 800: not a drop */
            assert_int_equal(selftune_decide(&t, 600, 50, true), ST_INCREASE);
            assert_true(t.threshold == 30);
        }
        assert_true(t.prev == (avoid ? 590 : 600)); /* the period just ended */
    }
}

/* Section 4.2: a period far below max resets the threshold to
 * min(Tmax, Nmax), whichever is lower, instead of the Table 1 step. */
static void local_maximum_reset(void **state)
{
    (void)state;
    /* Nmax < Tmax: the network was not throttling at the maximum */
    struct tuner t = tuner(200, true);
    assert_int_equal(selftune_decide(&t, 1000, 150, true), ST_INCREASE);
    assert_true(t.max == 1000 && t.nmax == 150 && t.tmax == 200);
    assert_true(t.threshold == 230);
    assert_int_equal(selftune_decide(&t, 900, 400, true), ST_INCREASE); /* no new max */
    assert_true(t.tmax == 200 && t.nmax == 150);
    assert_int_equal(selftune_decide(&t, 700, 500, true), ST_RESET); /* 700 < 750 */
    assert_true(t.threshold == 150);
    assert_int_equal(t.resets, 1);
    /* Nmax > Tmax: it was throttling at Tmax */
    t = tuner(200, true);
    assert_int_equal(selftune_decide(&t, 1000, 300, true), ST_INCREASE);
    assert_int_equal(selftune_decide(&t, 1000, 300, true), ST_INCREASE); /* not > max */
    assert_true(t.tmax == 200 && t.threshold == 260);
    assert_int_equal(selftune_decide(&t, 740, 300, false), ST_RESET);
    assert_true(t.threshold == 200);
    /* without avoidance the same period is a plain drop (vs 1000) */
    t = tuner(200, false);
    selftune_decide(&t, 1000, 300, true);
    assert_int_equal(selftune_decide(&t, 740, 300, false), ST_DECREASE);
    assert_true(t.threshold == 230 - 122);
}

/* r consecutive resets clear max; a period without one restarts the count. */
static void resets_clear_max(void **state)
{
    (void)state;
    struct tuner t = tuner(200, true);
    selftune_decide(&t, 1000, 150, true);
    for (int i = 0; i < 3; i++)
        assert_int_equal(selftune_decide(&t, 700, 400, true), ST_RESET);
    assert_int_equal(t.resets, 3);
    assert_int_equal(selftune_decide(&t, 800, 100, true), ST_INCREASE); /* back above 75 % */
    assert_int_equal(t.resets, 0);
    for (int i = 0; i < 4; i++) {
        assert_int_equal(selftune_decide(&t, 700, 400, true), ST_RESET);
        assert_true(t.max == 1000);
    }
    assert_int_equal(selftune_decide(&t, 700, 400, true), ST_RESET_MAX); /* the 5th */
    assert_true(t.max == 0);
    assert_int_equal(t.resets, 0);
    assert_true(t.threshold == 150);
    /* the search restarts: the next period is the new maximum */
    assert_int_equal(selftune_decide(&t, 650, 120, true), ST_INCREASE);
    assert_true(t.max == 650 && t.nmax == 120 && t.tmax == 150);
}

static void alo_rule(void **state)
{
    (void)state;
    const uint64_t all = 0x7; /* 3 VCs */
    assert_true(alo_allows(2, (const uint64_t[]){0x1, 0x4}, all));  /* one free VC on each */
    assert_true(alo_allows(2, (const uint64_t[]){0x0, 0x7}, all));  /* one wholly free */
    assert_false(alo_allows(2, (const uint64_t[]){0x0, 0x3}, all)); /* neither */
    assert_true(alo_allows(1, (const uint64_t[]){0x2}, all));
    assert_false(alo_allows(1, (const uint64_t[]){0x0}, all));
    assert_true(alo_allows(0, NULL, all)); /* own router */
    assert_true(alo_allows(3, (const uint64_t[]){0x0, 0x0, 0x7}, all));
    assert_false(alo_allows(3, (const uint64_t[]){0x1, 0x0, 0x6}, all));
}

/* ALO on a real router: node 0 of a 4x4 torus, packet to (2, 1): useful
 * ports +x, -x (distance k/2) and +y. */
static void alo_on_router(void **state)
{
    (void)state;
    struct saturn_config *cfg;
    struct net *n = test_net((const char *const[]){"network.k=4", "control.model=alo", NULL},
                            &cfg);
    net_packet_new(n, 0, 2 + 4 * 1, 4, true);
    struct ovc *o = &n->ovcs[0]; /* router 0: port p, VC v at p * V + v */
    const int V = n->V;
    assert_true(n->ctl->may_start(n->ctl_state, n, 0));
    for (int p = 0; p < 3; p++) /* +x, -x, +y: one VC each left free */
        for (int v = 0; v < V - 1; v++)
            o[p * V + v].owner = 0;
    assert_true(n->ctl->may_start(n->ctl_state, n, 0));
    o[2 * V + V - 1].owner = 0; /* +y has none free, no port is wholly free */
    assert_false(n->ctl->may_start(n->ctl_state, n, 0));
    assert_int_equal(n->ctl->throttled(n->ctl_state), 1);
    for (int v = 0; v < V; v++) /* -x wholly free */
        o[1 * V + v].owner = -1;
    assert_true(n->ctl->may_start(n->ctl_state, n, 0));
    o[3 * V + 0].owner = 0; /* -y is not useful: no effect */
    assert_true(n->ctl->may_start(n->ctl_state, n, 0));
    /* a packet for its own router ahead in the queue is never throttled */
    for (int p = 0; p < 4; p++)
        for (int v = 0; v < V; v++)
            o[p * V + v].owner = 0;
    struct node *nd = &n->nodes[0];
    assert_false(n->ctl->may_start(n->ctl_state, n, 0));
    n->pk[nd->q[nd->qhead & nd->qmask]].dst = 0;
    assert_true(n->ctl->may_start(n->ctl_state, n, 0));
    for (int p = 0; p < 4; p++)
        for (int v = 0; v < V; v++)
            o[p * V + v].owner = -1;
    test_net_free(n, cfg);
}

/* alo.free: unowned (no packet holds the VC), drained (and the buffer
 * behind it empty: all its credits back) or space (a free slot behind it,
 * whoever holds it). Node 0 of a 4x4 torus with 4-flit buffers, packet to
 * (1, 0): the one useful port is +x. */
static void alo_free_readings(void **state)
{
    (void)state;
    for (int mode = 0; mode < 3; mode++) {
        const char *names[] = {"alo.free=unowned", "alo.free=drained", "alo.free=space"};
        struct saturn_config *cfg;
        struct net *n = test_net((const char *const[]){"network.k=4", "router.buf_flits=4",
                                                       "control.model=alo", names[mode], NULL},
                                 &cfg);
        net_packet_new(n, 0, 1, 4, true);
        struct ovc *o = &n->ovcs[0]; /* router 0, port 0 (+x): VC v at v */
        const int V = n->V;
        assert_true(n->ctl->may_start(n->ctl_state, n, 0));
        /* every VC held, every buffer behind them with room */
        for (int v = 0; v < V; v++) {
            o[v].owner = 0;
            o[v].credits = 2;
        }
        assert_int_equal(n->ctl->may_start(n->ctl_state, n, 0), mode == 2);
        /* every buffer behind them full: no reading sees a free VC */
        for (int v = 0; v < V; v++)
            o[v].credits = 0;
        assert_false(n->ctl->may_start(n->ctl_state, n, 0));
        /* VC 1 released, its buffer still draining: free unless drained is asked */
        o[1].owner = -1;
        o[1].credits = 3;
        assert_int_equal(n->ctl->may_start(n->ctl_state, n, 0), mode == 0 || mode == 2);
        o[1].credits = 4; /* drained */
        assert_true(n->ctl->may_start(n->ctl_state, n, 0));
        for (int v = 0; v < V; v++) {
            o[v].owner = -1;
            o[v].credits = 4;
        }
        test_net_free(n, cfg);
    }
}

static void bad_input(void **state)
{
    (void)state;
    char msg[sizeof ((struct saturn_error *)0)->msg];
    assert_int_equal(create_error((const char *const[]){"network.k=4", "control.model=selftune",
                                                        "selftune.period=100", NULL},
                                  msg, sizeof msg),
                     SATURN_EINPUT);
    assert_non_null(strstr(msg, "selftune.period = 100"));
    assert_non_null(strstr(msg, "g = 8"));
    assert_non_null(strstr(msg, "96 or 104"));
    assert_int_equal(create_error((const char *const[]){"network.k=4", "control.model=selftune",
                                                        "selftune.period=5", NULL},
                                  msg, sizeof msg),
                     SATURN_EINPUT);
    assert_non_null(strstr(msg, "nearest allowed value: 8"));
    /* the paper's 96 is a multiple of g = 48 (h = 3) and 96 (h = 6) */
    assert_int_equal(create_error((const char *const[]){"network.k=16", "control.model=selftune",
                                                        "gather.hop_delay=6", NULL},
                                  msg, sizeof msg),
                     SATURN_OK);
    assert_int_equal(create_error((const char *const[]){"network.k=4", "control.model=static",
                                                        "router.switching=unlimited",
                                                        "router.buf_flits=0", NULL},
                                  msg, sizeof msg),
                     SATURN_EINPUT);
    assert_non_null(strstr(msg, "gather.full = no_free_slot"));
    assert_int_equal(create_error((const char *const[]){"network.k=4", "control.model=static",
                                                        "router.switching=unlimited",
                                                        "router.buf_flits=0",
                                                        "gather.full=nonempty", NULL},
                                  msg, sizeof msg),
                     SATURN_OK);
    const char *const foreign[][2] = {
        {"control.model=alo", "static.threshold=10"},
        {"control.model=alo", "gather.hop_delay=3"},
        {"control.model=selftune", "alo.free=space"},
        {"control.model=static", "alo.free=space"},
        {"control.model=static", "selftune.period=64"},
        {"control.model=selftune", "static.threshold=10"},
        {"control.model=selftune", "entropy.rth=50"},
    };
    for (size_t i = 0; i < sizeof foreign / sizeof foreign[0]; i++) {
        assert_int_equal(create_error((const char *const[]){"network.k=4", foreign[i][0],
                                                            foreign[i][1], NULL},
                                      msg, sizeof msg),
                         SATURN_EINPUT);
        char key[64]; /* "key = value: is not a parameter of control.model = model" */
        snprintf(key, sizeof key, "%.*s = ", (int)strcspn(foreign[i][1], "="), foreign[i][1]);
        assert_non_null(strstr(msg, key));
        char tail[96];
        snprintf(tail, sizeof tail, "is not a parameter of control.model = %s",
                 foreign[i][0] + strlen("control.model="));
        assert_non_null(strstr(msg, tail));
    }
}

/* Beyond saturation on the paper's 16x16 torus (DOR, uniform, sources
 * offering 1 flit/node/cycle), the uncontrolled network loses throughput
 * with many buffers full; self-tuned throttling keeps fewer buffers full
 * and delivers more. Smaller tori under DOR barely lose throughput past
 * saturation, so there the tuner, which only backs off on a drop, rightly
 * climbs to about the uncontrolled occupancy. */
static void selftune_beyond_saturation(void **state)
{
    (void)state;
    double full[2], accepted[2];
    const char *models[] = {"control.model=noth", "control.model=selftune"};
    const int T = 3000;
    for (int m = 0; m < 2; m++) {
        struct saturn_config *cfg;
        struct net *n = test_net((const char *const[]){"network.k=16", models[m], NULL}, &cfg);
        struct rng r;
        rng_seed(&r, 1, 0);
        double sum = 0;
        uint64_t ej0 = 0;
        for (int t = 0; t < T; t++) {
            offer(n, &r, 1.0);
            assert_int_equal(net_step(n), SATURN_OK);
            if (t == T / 2)
                ej0 = n->flits_ejected;
            if (t >= T / 2)
                sum += (double)full_now(n, false);
        }
        full[m] = sum / (T - T / 2);
        accepted[m] = (double)(n->flits_ejected - ej0) / n->nnodes / (T - T / 2 - 1);
        test_net_free(n, cfg);
    }
    print_message("full buffers %.1f -> %.1f, accepted %.3f -> %.3f\n", full[0], full[1],
                  accepted[0], accepted[1]);
    assert_true(full[0] > 0.1 * 3072); /* really saturated */
    assert_true(full[1] < 0.9 * full[0]);
    assert_true(accepted[1] > 1.2 * accepted[0]);
}

/* The check, on a small torus where the base network collapses:
 * paper 001's router on an 8x8 torus with Disha recovery and tornado traffic
 * saturates between 0.01 and 0.02 packets/node/cycle. At 0.04 (twice the
 * saturation load) the uncontrolled network delivers under half of its
 * light-load throughput, while selftune stays within 15 % of its own peak. */
static double accepted_at(const char *model, const char *rate)
{
    char m[64], r[64];
    snprintf(m, sizeof m, "control.model=%s", model);
    snprintf(r, sizeof r, "traffic.packet_rate=%s", rate);
    struct saturn_results res = test_run((const char *const[]){
        "network.k=8", "router.vcs=3", "router.buf_flits=8", "router.arbiter=central",
        "router.route_delay=1", "router.xbar_delay=1", "routing.algorithm=disha",
        "traffic.pattern=tornado", "traffic.packet_length=16", "traffic.source_queue=1", m, r,
        "steady.warmup=3000", "steady.measure=5000", "steady.drain_max=0", NULL});
    double a = res.accepted;
    saturn_results_free(&res);
    return a;
}

static void selftune_keeps_peak_where_base_collapses(void **state)
{
    (void)state;
    double base_light = accepted_at("noth", "0.01"), base_2x = accepted_at("noth", "0.04");
    assert_true(base_2x < 0.5 * base_light); /* the collapse */
    double peak = 0;
    const char *rates[] = {"0.01", "0.02", "0.03", "0.04"};
    for (int i = 0; i < 4; i++) {
        double a = accepted_at("selftune", rates[i]);
        if (a > peak)
            peak = a;
    }
    double tune_2x = accepted_at("selftune", "0.04");
    assert_true(tune_2x >= 0.85 * peak);
    assert_true(tune_2x > 4 * base_2x);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(gather_duration),
        cmocka_unit_test(global_throttling_on_dragonfly),
        cmocka_unit_test(paper_network_numbers),
        cmocka_unit_test(preset_thottethodi2004),
        cmocka_unit_test(extrapolation),
        cmocka_unit_test(extrapolation_from_arrival),
        cmocka_unit_test(published_snapshots),
        cmocka_unit_test(sideband_timing),
        cmocka_unit_test(static_policy_timing),
        cmocka_unit_test(table_one),
        cmocka_unit_test(local_maximum_reset),
        cmocka_unit_test(resets_clear_max),
        cmocka_unit_test(alo_rule),
        cmocka_unit_test(alo_on_router),
        cmocka_unit_test(alo_free_readings),
        cmocka_unit_test(bad_input),
        cmocka_unit_test(selftune_beyond_saturation),
        cmocka_unit_test(selftune_keeps_peak_where_base_collapses),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
