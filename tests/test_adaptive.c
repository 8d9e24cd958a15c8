/* Paper 001's routing: Duato's adaptive routing with DOR escape VCs, Disha
 * deadlock recovery, the central arbiter, and the bursty phases workload. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/net.h"
#include "support.h"

static void route_at(struct net *n, uint32_t r, uint32_t dst, struct route_result *out)
{
    struct packet p;
    memset(&p, 0, sizeof p);
    p.dst = dst;
    p.len = 4;
    out->sel = 0;
    n->rops->route(n->rstate, n, r, 0, 0, &p, out);
}

static uint32_t neighbour(const struct net *n, uint32_t r, int port)
{
    uint32_t fr;
    int fp;
    assert_true(topo_link(&n->topo, r, port, &fr, &fp));
    return fr;
}

/* Every candidate of every (router, destination) pair of a 6x5 torus: the
 * adaptive ones are exactly the minimal ports, on the adaptive VC only; the
 * last is the escape VC, the dimension-order port, with class 0 while the
 * rest of the path in that dimension wraps and class 1 after. */
static void duato_candidates_minimal_and_legal(void **state)
{
    (void)state;
    struct saturn_config *cfg;
    struct net *n = test_net((const char *const[]){"network.k=6,5", "routing.algorithm=duato",
                                                   "router.vcs=3", NULL}, &cfg);
    const struct topo *t = &n->topo;
    for (uint32_t r = 0; r < t->routers; r++)
        for (uint32_t d = 0; d < t->routers; d++) {
            struct route_result out;
            route_at(n, r, d, &out);
            if (r == d) {
                assert_int_equal(out.n, 1);
                assert_int_equal(out.c[0].port, t->radix);
                continue;
            }
            int dist = topo_distance(t, r, d), minimal = 0;
            for (int p = 0; p < t->radix; p++)
                if (topo_distance(t, neighbour(n, r, p), d) == dist - 1)
                    minimal++;
            assert_int_equal(out.sel, minimal);
            assert_int_equal(out.n, minimal + 1);
            for (int i = 0; i < out.sel; i++) {
                assert_int_equal(topo_distance(t, neighbour(n, r, out.c[i].port), d), dist - 1);
                assert_int_equal(out.c[i].vc_lo, 2);
                assert_int_equal(out.c[i].vc_hi, 2);
            }
            const struct route_cand *e = &out.c[out.n - 1];
            int dim = 0;
            while (topo_coord(t, r, dim) == topo_coord(t, d, dim))
                dim++;
            assert_int_equal(e->port / 2, dim); /* lowest unfinished dimension */
            assert_int_equal(topo_distance(t, neighbour(n, r, e->port), d), dist - 1);
            int c = topo_coord(t, r, dim), g = topo_coord(t, d, dim);
            bool wraps = e->port % 2 == 0 ? g < c : g > c;
            assert_int_equal(e->vc_lo, wraps ? 0 : 1);
            assert_int_equal(e->vc_hi, e->vc_lo);
        }
    test_net_free(n, cfg);
}

/* Following the escape channel alone from any router reaches the
 * destination along the dimension-order path: x to completion, then y. */
static void duato_escape_path_is_dor(void **state)
{
    (void)state;
    struct saturn_config *cfg;
    struct net *n = test_net((const char *const[]){"network.k=7", "routing.algorithm=duato",
                                                   "router.vcs=4", NULL}, &cfg);
    const struct topo *t = &n->topo;
    for (uint32_t s = 0; s < t->routers; s += 3)
        for (uint32_t d = 0; d < t->routers; d++) {
            uint32_t r = s;
            int hops = 0, last_dim = 0;
            while (r != d) {
                struct route_result out;
                route_at(n, r, d, &out);
                const struct route_cand *e = &out.c[out.n - 1];
                assert_true(e->port / 2 >= last_dim); /* never back to a lower dimension */
                last_dim = e->port / 2;
                r = neighbour(n, r, e->port);
                hops++;
                assert_true(hops <= topo_distance(t, s, d));
            }
            assert_int_equal(hops, topo_distance(t, s, d));
        }
    test_net_free(n, cfg);
}

static void duato_needs_escape_and_adaptive_vcs(void **state)
{
    (void)state;
    struct saturn_config *cfg = test_config(
        (const char *const[]){"network.k=4", "routing.algorithm=duato", "router.vcs=2", NULL});
    struct saturn_sim *s;
    struct saturn_error err = {0};
    assert_int_equal(saturn_sim_create(cfg, &s, &err), SATURN_EINPUT);
    assert_non_null(strstr(err.msg, "router.vcs"));
    saturn_config_free(cfg);
    /* a mesh needs one escape VC only */
    cfg = test_config((const char *const[]){"network.topology=mesh", "network.k=4",
                                            "routing.algorithm=duato", "router.vcs=2", NULL});
    assert_int_equal(saturn_sim_create(cfg, &s, &err), SATURN_OK);
    saturn_sim_free(s);
    saturn_config_free(cfg);
}

/* duato.escape_vcs = 1 (the other reading of paper 001's "one escape
 * VC"): VC 0 is the escape channel on every hop, wrap or not, and the
 * adaptive group has the other two VCs; it is refused on a torus unless
 * deadlock is allowed, and on a mesh only 1 is accepted. */
static void duato_one_escape_vc(void **state)
{
    (void)state;
    struct saturn_config *cfg;
    struct net *n = test_net((const char *const[]){"network.k=6,5", "routing.algorithm=duato",
                                                   "router.vcs=3", "duato.escape_vcs=1",
                                                   "debug.allow_deadlock=true", NULL}, &cfg);
    const struct topo *t = &n->topo;
    int wrapping = 0;
    for (uint32_t r = 0; r < t->routers; r++)
        for (uint32_t d = 0; d < t->routers; d++) {
            if (r == d)
                continue;
            struct route_result out;
            route_at(n, r, d, &out);
            for (int i = 0; i < out.sel; i++) {
                assert_int_equal(out.c[i].vc_lo, 1);
                assert_int_equal(out.c[i].vc_hi, 2);
            }
            const struct route_cand *e = &out.c[out.n - 1];
            assert_int_equal(e->vc_lo, 0);
            assert_int_equal(e->vc_hi, 0);
            int dim = e->port / 2, c = topo_coord(t, r, dim), g = topo_coord(t, d, dim);
            wrapping += e->port % 2 == 0 ? g < c : g > c;
        }
    assert_true(wrapping > 0); /* the escape VC does cross wrap links */
    test_net_free(n, cfg);
    const char *const *bad[] = {
        (const char *const[]){"network.k=4", "routing.algorithm=duato", "duato.escape_vcs=1", NULL},
        (const char *const[]){"network.topology=mesh", "network.k=4", "routing.algorithm=duato",
                              "duato.escape_vcs=2", NULL},
    };
    for (size_t i = 0; i < 2; i++) {
        cfg = test_config(bad[i]);
        struct saturn_sim *s;
        struct saturn_error err = {0};
        assert_int_equal(saturn_sim_create(cfg, &s, &err), SATURN_EINPUT);
        assert_non_null(strstr(err.msg, "duato.escape_vcs"));
        saturn_config_free(cfg);
    }
    /* 2 VCs are enough with one escape VC: one adaptive, one escape */
    cfg = test_config((const char *const[]){"network.k=4", "routing.algorithm=duato",
                                            "router.vcs=2", "duato.escape_vcs=1",
                                            "debug.allow_deadlock=true", NULL});
    struct saturn_sim *s;
    struct saturn_error err = {0};
    assert_int_equal(saturn_sim_create(cfg, &s, &err), SATURN_OK);
    saturn_sim_free(s);
    saturn_config_free(cfg);
}

/* disha.timeout_from = routed: a head queued for the central arbiter is
 * not yet blocked, so with a 1-cycle time-out fewer heads are presumed
 * deadlocked than when the wait counts from the front of the VC; both
 * deliver every packet. */
static void disha_timeout_from_routing(void **state)
{
    (void)state;
    uint64_t rec[2];
    for (int i = 0; i < 2; i++) {
        struct saturn_results r = test_run((const char *const[]){
            "network.k=8", "routing.algorithm=disha", "router.arbiter=central",
            "router.route_delay=1", "router.xbar_delay=1", "disha.timeout=1",
            i ? "disha.timeout_from=routed" : "disha.timeout_from=front",
            "traffic.packet_length=16", "traffic.flit_rate=0.3", "steady.warmup=1000",
            "steady.measure=3000", "sim.check_invariants=true", NULL});
        assert_true(r.drained);
        rec[i] = r.recoveries;
        saturn_results_free(&r);
    }
    assert_true(rec[1] > 0);
    assert_true(rec[1] < rec[0]);
}

/* A routing policy that counts: every call to the real one (duato) is
 * recorded as (router, packet) so that a test can see how often each head
 * was routed at each router. */
struct count_route {
    const struct route_ops *real;
    void *real_state;
    uint32_t calls, repeats;
    uint8_t *seen; /* routers x packet slots */
    uint32_t routers, slots;
};
static struct count_route counter;

static void counting_route(void *state, const struct net *n, uint32_t router, int in_port,
                           int in_vc, struct packet *p, struct route_result *out)
{
    (void)state;
    uint32_t pid = (uint32_t)(p - n->pk);
    counter.calls++;
    if (pid < counter.slots) {
        uint8_t *x = &counter.seen[(size_t)pid * counter.routers + router];
        counter.repeats += *x;
        *x = 1;
    }
    counter.real->route(counter.real_state, n, router, in_port, in_vc, p, out);
}

/* router.arbiter_requeue = false: a head the VC allocator refused keeps its
 * routing and never goes back to the central arbiter, so every packet is
 * routed exactly once at each router it visits; with requeue (the default)
 * refused heads are routed again. A loaded 4x4 torus, bit-complement
 * traffic, 200 packets. */
static void central_arbiter_routes_each_head_once(void **state)
{
    (void)state;
    uint32_t repeats[2];
    for (int requeue = 0; requeue < 2; requeue++) {
        struct saturn_config *cfg;
        struct net *n = test_net((const char *const[]){
            "network.k=4", "routing.algorithm=duato", "router.arbiter=central",
            "router.route_delay=1", "router.buf_flits=4", "sim.check_invariants=true",
            requeue ? "router.arbiter_requeue=true" : "router.arbiter_requeue=false", NULL}, &cfg);
        struct route_ops ops = *n->rops;
        memset(&counter, 0, sizeof counter);
        counter.real = n->rops;
        counter.real_state = n->rstate;
        counter.routers = n->topo.routers;
        counter.slots = 1024;
        counter.seen = calloc((size_t)counter.slots * counter.routers, 1);
        assert_non_null(counter.seen);
        ops.route = counting_route;
        n->rops = &ops;
        for (uint32_t i = 0; i < 200; i++)
            net_packet_new(n, i % 16, 15 - i % 16, 8, true);
        for (int c = 0; c < 20000 && n->packets_delivered < 200; c++)
            assert_int_equal(net_step(n), SATURN_OK);
        assert_int_equal(n->packets_delivered, 200);
        repeats[requeue] = counter.repeats;
        assert_true(counter.calls > 200);
        n->rops = counter.real;
        free(counter.seen);
        test_net_free(n, cfg);
    }
    assert_int_equal(repeats[0], 0);
    assert_true(repeats[1] > 0);
}

/* Far beyond saturation, with the invariant audit on every cycle: no
 * deadlock, and every packet arrives once and in order. */
static void duato_delivers_beyond_saturation(void **state)
{
    (void)state;
    struct saturn_results r = test_run((const char *const[]){
        "network.k=4", "routing.algorithm=duato", "router.vcs=3", "router.buf_flits=2",
        "traffic.packet_length=8", "traffic.flit_rate=0.9", "traffic.pattern=bitcomp",
        "steady.warmup=300", "steady.measure=1500", "steady.drain_max=100000",
        "sim.check_invariants=true", "sim.watchdog=2000", NULL});
    assert_true(r.drained);
    assert_int_equal(r.measured_delivered, r.measured_packets);
    saturn_results_free(&r);
}

/* One VC, fully adaptive, buffers smaller than a packet, every node of a
 * 6-ary 2-cube sending tornado traffic at full rate: without recovery (a time-out nobody reaches) the network
 * deadlocks; with Disha's time-out every packet is delivered. */
static const char *const deadlock_prone[] = {
    "network.k=6", "routing.algorithm=disha", "router.vcs=1", "router.buf_flits=2",
    "traffic.packet_length=8", "sim.workload=collective", "collective.packets=20",
    "traffic.pattern=tornado", "sim.watchdog=500", "sim.check_invariants=true", NULL, NULL};

static void disha_recovers_forced_deadlock(void **state)
{
    (void)state;
    const char *kv[16];
    memcpy(kv, deadlock_prone, sizeof deadlock_prone);
    kv[10] = "disha.timeout=1000000000";
    struct saturn_config *cfg = test_config(kv);
    struct saturn_results r;
    struct saturn_error err = {0};
    assert_int_equal(saturn_run(cfg, &r, &err), SATURN_EDEADLOCK);
    saturn_results_free(&r);
    saturn_config_free(cfg);

    kv[10] = "disha.timeout=8";
    r = test_run(kv);
    assert_int_equal(r.packet_latency.count, 36 * 20); /* every packet, once (sinks check order) */
    assert_true(r.recoveries > 0);
    assert_true(r.recovery_busy > 0);
    saturn_results_free(&r);
}

/* Recovery also works with a central arbiter and longer delays, and on a
 * mesh. */
static void disha_recovers_with_router_delays(void **state)
{
    (void)state;
    struct saturn_results r = test_run((const char *const[]){
        "network.topology=mesh", "network.k=4", "routing.algorithm=disha", "router.vcs=1",
        "router.buf_flits=2", "router.route_delay=1", "router.xbar_delay=1",
        "router.arbiter=central", "traffic.packet_length=6", "sim.workload=collective",
        "collective.packets=15", "traffic.pattern=bitcomp", "sim.watchdog=500",
        "sim.check_invariants=true", NULL});
    assert_int_equal(r.packet_latency.count, 16 * 15);
    assert_true(r.recoveries > 0);
    saturn_results_free(&r);
}

/* The central arbiter routes one head per cycle: two heads reaching router
 * 1 of a 5-ring in the same cycle (0 -> 2 and 2 -> 0) are routed one cycle
 * apart, where the separable allocator routes both at once. */
static uint64_t latency_gap(const char *arbiter)
{
    char a[64];
    snprintf(a, sizeof a, "router.arbiter=%s", arbiter);
    struct saturn_config *cfg;
    struct net *n = test_net((const char *const[]){"network.k=5", "network.n=1",
                                                   "routing.algorithm=duato", a,
                                                   "router.route_delay=1", NULL}, &cfg);
    uint32_t p0 = net_packet_new(n, 0, 2, 4, true);
    uint32_t p1 = net_packet_new(n, 2, 0, 4, true);
    uint64_t done0 = 0, done1 = 0;
    for (int c = 0; c < 200 && (!done0 || !done1); c++) {
        assert_int_equal(net_step(n), SATURN_OK);
        if (!done0 && n->pk[p0].rx == 4)
            done0 = n->now;
        if (!done1 && n->pk[p1].rx == 4)
            done1 = n->now;
    }
    assert_true(done0 && done1);
    test_net_free(n, cfg);
    return done0 > done1 ? done0 - done1 : done1 - done0;
}

static void central_arbiter_one_head_per_cycle(void **state)
{
    (void)state;
    assert_int_equal(latency_gap("separable"), 0);
    assert_int_equal(latency_gap("central"), 1);
}

/* A lone packet meets the zero-load formula with either arbiter:
 * inject + (H+1)(route + xbar) + H link + eject + (L-1). */
static void central_arbiter_zero_load(void **state)
{
    (void)state;
    const char *arb[2] = {"router.arbiter=separable", "router.arbiter=central"};
    for (int i = 0; i < 2; i++) {
        struct saturn_config *cfg;
        struct net *n = test_net((const char *const[]){"network.k=8", "routing.algorithm=duato",
                                                       arb[i], "router.route_delay=1",
                                                       "router.xbar_delay=1", NULL}, &cfg);
        uint32_t dst = 3 + 8 * 2, H = 5, L = 16;
        uint32_t pid = net_packet_new(n, 0, dst, L, true);
        uint64_t t = 0;
        while (n->pk[pid].rx < L) {
            assert_int_equal(net_step(n), SATURN_OK);
            t = n->now - 1; /* the cycle just simulated */
        }
        assert_int_equal(t, 1 + (H + 1) * 2 + H * 1 + 1 + (L - 1));
        test_net_free(n, cfg);
    }
}

/* Phases: a quiet phase, a burst, a quiet phase; the burst's load shows in
 * the accepted throughput, and a source that may hold one packet refuses
 * the rest of a burst it cannot send. */
static void phases_follow_the_list(void **state)
{
    (void)state;
    const char *kv[] = {"network.k=4", "sim.workload=phases", "traffic.packet_length=4",
                        "phases.list=500:0.001:uniform,500:0.2:bitcomp,500:0.001:uniform",
                        NULL, NULL};
    struct saturn_results open = test_run(kv);
    assert_true(open.drained);
    /* about (0.001 * 1000 + 0.2 * 500) packets x 4 flits per node over 1,500 cycles */
    assert_true(open.offered > 0.2 && open.offered < 0.34);
    kv[4] = "traffic.source_queue=1";
    struct saturn_results closed = test_run(kv);
    assert_true(closed.offered < open.offered);
    assert_true(closed.packet_latency.mean < open.packet_latency.mean);
    saturn_results_free(&open);
    saturn_results_free(&closed);
}

static void phases_bad_list(void **state)
{
    (void)state;
    const char *bad[] = {"100:0.1", "100:2:uniform", "0:0.1:uniform", "100:0.1:nosuch",
                         "100:0.1:uniform,,", "x:0.1:uniform"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char kv[80];
        snprintf(kv, sizeof kv, "phases.list=%s", bad[i]);
        struct saturn_config *cfg =
            test_config((const char *const[]){"network.k=4", "sim.workload=phases", kv, NULL});
        struct saturn_results r;
        struct saturn_error err = {0};
        int rc = saturn_run(cfg, &r, &err);
        if (i == 4) { /* empty items are skipped */
            assert_int_equal(rc, SATURN_OK);
        } else {
            assert_int_equal(rc, SATURN_EINPUT);
            assert_non_null(strstr(err.msg, "phases.list"));
        }
        saturn_results_free(&r);
        saturn_config_free(cfg);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(duato_candidates_minimal_and_legal),
        cmocka_unit_test(duato_escape_path_is_dor),
        cmocka_unit_test(duato_needs_escape_and_adaptive_vcs),
        cmocka_unit_test(duato_one_escape_vc),
        cmocka_unit_test(duato_delivers_beyond_saturation),
        cmocka_unit_test(disha_recovers_forced_deadlock),
        cmocka_unit_test(disha_timeout_from_routing),
        cmocka_unit_test(disha_recovers_with_router_delays),
        cmocka_unit_test(central_arbiter_one_head_per_cycle),
        cmocka_unit_test(central_arbiter_zero_load),
        cmocka_unit_test(central_arbiter_routes_each_head_once),
        cmocka_unit_test(phases_follow_the_list),
        cmocka_unit_test(phases_bad_list),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
