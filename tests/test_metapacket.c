/* Metapacket gathering (src/control/metapacket.c): idle timing against the analytic
 * hop formula, the published sums against an independent count, link
 * bandwidth and load, invariants with Duato and Disha, bad input. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "control/gather.h"
#include "control/metapacket.h"
#include "net/net.h"
#include "support.h"

/* The idle gather time: per hop h = route + xbar + link + 2 (tail, adder),
 * one less when forwarding on the head (gather.meta_forward = cut_through);
 * per phase k h + route + 2 (npac enters the master's meta VC after ppac). */
static uint64_t idle_time_fw(int k, int dims, int route, int xbar, int link, bool cut)
{
    uint64_t h = (uint64_t)(route + xbar + link + (cut ? 1 : 2));
    return (uint64_t)dims * ((uint64_t)k * h + (uint64_t)route + 2);
}

static uint64_t idle_time(int k, int dims, int route, int xbar, int link)
{
    return idle_time_fw(k, dims, route, xbar, link, false);
}

/* Steps an idle network until `want` gathers are done; every one takes T
 * and starts where the previous one ended. */
static void check_idle(const char *const *kv, uint64_t T)
{
    struct saturn_config *cfg;
    struct net *n = test_net(kv, &cfg);
    size_t count = 0;
    const struct meta_record *rec = NULL;
    while (count < 4) {
        assert_int_equal(net_step(n), SATURN_OK);
        rec = meta_records(n, &count);
        assert_true(n->now < 20 * T);
    }
    for (size_t i = 0; i < count; i++) {
        assert_int_equal(rec[i].end - rec[i].start, T);
        assert_int_equal(rec[i].start, i * T);
        assert_true(rec[i].full == 0 && rec[i].delivered == 0);
    }
    assert_int_equal(n->flits_in_net, 0);
    assert_int_equal(n->flit_hops, 0); /* meta hops are not data */
    test_net_free(n, cfg);
}

static void idle_gather_time(void **state)
{
    (void)state;
    check_idle((const char *const[]){"network.k=4", "router.route_delay=1", "router.xbar_delay=1",
                                     "router.arbiter=central", "gather.mode=metapacket",
                                     "sim.check_invariants=true", NULL},
               idle_time(4, 2, 1, 1, 1));
    assert_int_equal(idle_time(4, 2, 1, 1, 1), 46);
    check_idle((const char *const[]){"network.k=8", "router.route_delay=1", "router.xbar_delay=1",
                                     "router.arbiter=central", "gather.mode=metapacket", NULL},
               idle_time(8, 2, 1, 1, 1));
    assert_int_equal(idle_time(8, 2, 1, 1, 1), 86);
    check_idle((const char *const[]){"network.k=4", "network.n=3", "router.link_latency=3",
                                     "gather.mode=metapacket", NULL},
               idle_time(4, 3, 0, 0, 3));
}

/* Forwarding on the head saves a cycle a hop: paper 001's 16x16 takes
 * 2 (16 x 4 + 3) = 134 cycles instead of 166; the arbiter priority changes
 * nothing on an idle network. */
static void idle_gather_time_cut_through(void **state)
{
    (void)state;
    assert_int_equal(idle_time_fw(16, 2, 1, 1, 1, true), 134);
    check_idle((const char *const[]){"network.k=16", "router.route_delay=1", "router.xbar_delay=1",
                                     "router.arbiter=central", "gather.mode=metapacket",
                                     "gather.meta_forward=cut_through", NULL},
               134);
    check_idle((const char *const[]){"network.k=4", "router.route_delay=1", "router.xbar_delay=1",
                                     "router.arbiter=central", "gather.mode=metapacket",
                                     "gather.meta_forward=cut_through",
                                     "gather.meta_arbiter=priority",
                                     "sim.check_invariants=true", NULL},
               idle_time_fw(4, 2, 1, 1, 1, true));
    check_idle((const char *const[]){"network.k=4", "network.n=3", "router.link_latency=3",
                                     "gather.mode=metapacket", "gather.meta_forward=cut_through",
                                     NULL},
               idle_time_fw(4, 3, 0, 0, 3, true));
}

/* Under load metapackets meet data heads at the central arbiter; served
 * first, they wait less: the mean gather time falls towards the idle one,
 * and the sums stay right (the engine checks every one against the
 * samples; the audit runs every cycle). */
static void arbiter_priority_under_load(void **state)
{
    (void)state;
    double mean[2];
    for (int pr = 0; pr < 2; pr++) {
        struct saturn_results r = test_run((const char *const[]){
            "network.k=8", "router.arbiter=central", "router.route_delay=1",
            "router.xbar_delay=1", "routing.algorithm=duato", "traffic.packet_length=16",
            "traffic.packet_rate=0.02", "steady.warmup=500", "steady.measure=3000",
            "steady.drain_max=0", "gather.mode=metapacket", "gather.meta_forward=cut_through",
            pr ? "gather.meta_arbiter=priority" : "gather.meta_arbiter=shared",
            "sim.check_invariants=true", NULL});
        assert_true(r.gathers > 10);
        assert_true(r.gather_min >= (double)idle_time_fw(8, 2, 1, 1, 1, true));
        mean[pr] = r.gather_mean;
        saturn_results_free(&r);
    }
    assert_true(mean[1] < mean[0]);
    assert_true(mean[1] < 1.1 * (double)idle_time_fw(8, 2, 1, 1, 1, true));
}

/* Loads the network by hand and compares every published sum with the
 * full-buffer count and delivered flits taken after each step (the state a
 * gather starting in the next cycle samples). */
static void sums_match_an_independent_count(void **state)
{
    (void)state;
    struct saturn_config *cfg;
    struct net *n = test_net((const char *const[]){"network.k=6", "router.buf_flits=4",
                                                   "router.route_delay=1", "router.arbiter=central",
                                                   "routing.algorithm=duato",
                                                   "gather.mode=metapacket",
                                                   "sim.check_invariants=true", NULL},
                             &cfg);
    enum { CYCLES = 4000 };
    uint64_t *full = calloc(CYCLES + 1, sizeof *full), *ej = calloc(CYCLES + 1, sizeof *ej);
    assert_non_null(full);
    assert_non_null(ej);
    uint64_t x = 88172645463325252ULL; /* xorshift: the test's own traffic */
    for (uint64_t t = 0; t < CYCLES; t++) {
        for (uint32_t s = 0; s < n->nnodes; s++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            if (x % 1000 < 40) /* 0.04 packets/node/cycle of 8 flits: overload */
                net_packet_new(n, s, (uint32_t)((x >> 20) % n->nnodes), 8, true);
        }
        assert_int_equal(net_step(n), SATURN_OK);
        full[n->now] = gather_count_full(n, GATHER_FULL_NO_FREE_SLOT);
        ej[n->now] = n->flits_ejected;
    }
    size_t count;
    const struct meta_record *rec = meta_records(n, &count);
    assert_true(count > 10);
    uint64_t prev = 0, nonzero = 0, longest = 0;
    for (size_t i = 0; i < count; i++) {
        assert_true(rec[i].start < CYCLES);
        assert_int_equal((uint64_t)rec[i].full, full[rec[i].start]);
        assert_int_equal((uint64_t)rec[i].delivered, ej[rec[i].start] - ej[prev]);
        nonzero += rec[i].full > 0;
        if (rec[i].end - rec[i].start > longest)
            longest = rec[i].end - rec[i].start;
        if (i)
            assert_int_equal(rec[i].start, rec[i - 1].end); /* back to back */
        prev = rec[i].start;
    }
    assert_true(nonzero > 0);
    assert_true(longest > idle_time(6, 2, 1, 0, 1)); /* the central arbiter is contended */
    free(full);
    free(ej);
    test_net_free(n, cfg);
}

static struct saturn_results loaded(const char *rate, bool meta)
{
    return test_run((const char *const[]){
        "network.k=8", "router.route_delay=1", "router.xbar_delay=1", "router.arbiter=central",
        "routing.algorithm=duato", "traffic.packet_length=16", rate, "steady.warmup=1000",
        "steady.measure=2000", "steady.drain_max=2000",
        meta ? "gather.mode=metapacket" : "gather.mode=sideband", NULL});
}

/* Metapackets take link and switch cycles from data: a saturated network
 * delivers at most what it does without them; gathers slow down with load. */
static void bandwidth_and_load(void **state)
{
    (void)state;
    struct saturn_results base = loaded("traffic.packet_rate=0.05", false),
                          meta = loaded("traffic.packet_rate=0.05", true),
                          low = loaded("traffic.packet_rate=0.002", true);
    assert_false(base.metapackets);
    assert_true(meta.metapackets && low.metapackets);
    assert_true(meta.accepted <= base.accepted);
    assert_true(meta.accepted > 0.8 * base.accepted);
    assert_int_equal((uint64_t)low.gather_min, idle_time(8, 2, 1, 1, 1));
    assert_true(meta.gather_mean > low.gather_mean);
    assert_true(meta.gather_max >= meta.gather_mean && meta.gather_mean >= meta.gather_min);
    assert_true(meta.gathers > 0);
    saturn_results_free(&base);
    saturn_results_free(&meta);
    saturn_results_free(&low);
}

/* The per-cycle audit (meta flits and meta VC credits included) under load
 * with Duato, Disha and DOR, and with the self-tuner reading the gathers. */
static void invariants_under_load(void **state)
{
    (void)state;
    const char *const algs[] = {"routing.algorithm=duato", "routing.algorithm=disha",
                                "routing.algorithm=dor"};
    for (size_t i = 0; i < 3; i++) {
        struct saturn_results r = test_run((const char *const[]){
            "network.k=5", "router.route_delay=1", "router.arbiter=central", algs[i],
            "traffic.packet_length=8", "traffic.packet_rate=0.08", "steady.warmup=300",
            "steady.measure=700", "steady.drain_max=300", "gather.mode=metapacket",
            "sim.check_invariants=true", NULL});
        assert_true(r.gathers > 0);
        saturn_results_free(&r);
    }
    struct saturn_results r = test_run((const char *const[]){
        "network.k=5", "control.model=selftune", "selftune.period=100",
        "traffic.packet_rate=0.08", "traffic.packet_length=8", "steady.warmup=300",
        "steady.measure=700", "gather.mode=metapacket", "sim.check_invariants=true", NULL});
    assert_true(r.gathers > 0);
    assert_true(r.throttled_mean > 0); /* the tuner saw the gathers */
    saturn_results_free(&r);
}

/* Meta traffic is no progress: a deadlocked data network is still caught
 * by the watchdog while the metapackets go on circulating. */
static void watchdog_sees_through_metapackets(void **state)
{
    (void)state;
    struct saturn_config *c = test_config((const char *const[]){
        "network.k=8", "network.n=1", "router.vcs=1", "routing.dateline=none",
        "debug.allow_deadlock=true", "traffic.flit_rate=0.9", "router.buf_flits=2",
        "sim.watchdog=200", "gather.mode=metapacket", "sim.check_invariants=true", NULL});
    struct saturn_error err = {0};
    struct saturn_results r;
    assert_int_equal(saturn_run(c, &r, &err), SATURN_EDEADLOCK);
    assert_non_null(strstr(err.msg, "wait-for cycle"));
    saturn_config_free(c);
}

static void expect_refused(const char *const *kv, const char *key)
{
    struct saturn_config *c = test_config(kv);
    struct saturn_error err = {0};
    struct saturn_results r;
    assert_int_equal(saturn_run(c, &r, &err), SATURN_EINPUT);
    assert_non_null(strstr(err.msg, key));
    saturn_config_free(c);
}

static void bad_input(void **state)
{
    (void)state;
    expect_refused((const char *const[]){"network.topology=mesh", "gather.mode=metapacket", NULL},
                   "gather.mode");
    expect_refused((const char *const[]){"router.out_buf_flits=4", "gather.mode=metapacket", NULL},
                   "gather.mode");
    expect_refused((const char *const[]){"control.model=static", "gather.hop_delay=3",
                                         "gather.mode=metapacket", NULL},
                   "gather.hop_delay");
    expect_refused((const char *const[]){"gather.meta_forward=cut_through", NULL},
                   "gather.meta_forward");
    expect_refused((const char *const[]){"gather.meta_arbiter=priority", NULL},
                   "gather.meta_arbiter");
}

/* Metapackets run on the engine's hooks, attached by sim_net_create: a
 * network built by net_create alone has the side VC but nothing to run it,
 * and says so instead of stepping without gathers. */
static void attached_through_hooks(void **state)
{
    (void)state;
    struct saturn_config *cfg = test_config((const char *const[]){"gather.mode=metapacket", NULL});
    struct saturn_error err = {0};
    struct net bare;
    assert_int_equal(net_create(&bare, cfg, 1, &err), SATURN_OK);
    assert_int_equal(bare.nhooks, 0);
    assert_int_equal(net_step(&bare), SATURN_EINTERNAL);
    assert_non_null(strstr(bare.fail_msg, "sim_net_create"));
    net_destroy(&bare);
    saturn_config_free(cfg);

    struct net *n = test_net((const char *const[]){"gather.mode=metapacket", NULL}, &cfg);
    assert_int_equal(n->nhooks, 1);
    assert_non_null(n->side);
    size_t count = 0;
    for (int i = 0; i < 200; i++)
        assert_int_equal(net_step(n), SATURN_OK);
    meta_records(n, &count);
    assert_true(count > 0);
    test_net_free(n, cfg);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(idle_gather_time),
        cmocka_unit_test(idle_gather_time_cut_through),
        cmocka_unit_test(arbiter_priority_under_load),
        cmocka_unit_test(sums_match_an_independent_count),
        cmocka_unit_test(bandwidth_and_load),
        cmocka_unit_test(invariants_under_load),
        cmocka_unit_test(watchdog_sees_through_metapackets),
        cmocka_unit_test(bad_input),
        cmocka_unit_test(attached_through_hooks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
