/* The memory estimate (src/experiment/memory.c): the buffer term worked out
 * by hand from the ring sizes, its response to every buffer knob, the
 * workload's packets, no allocation for a huge network, and agreement with
 * what saturn_sim_create really allocates. */
#define _GNU_SOURCE /* mallinfo2 */
#include <malloc.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

static struct saturn_memory estimate(const char *const *kv)
{
    struct saturn_config *c = test_config(kv);
    struct saturn_memory m;
    struct saturn_error err = {0};
    assert_int_equal(saturn_memory_estimate(c, &m, &err), SATURN_OK);
    assert_true(m.total == m.buffers + m.vc_state + m.packets + m.other);
    saturn_config_free(c);
    return m;
}

/* 16x16 torus, 5 ports (4 + injection) x 3 VCs x 8-flit rings of 8 bytes. */
static void test_torus_buffers(void **state)
{
    (void)state;
    struct saturn_memory m = estimate((const char *[]){"network.k=16", NULL});
    assert_int_equal(m.buffers, 256 * 5 * 3 * 8 * 8);
    /* a ring is a power of two: 9 flits take 16 */
    m = estimate((const char *[]){"network.k=16", "router.buf_flits=9", NULL});
    assert_int_equal(m.buffers, 256 * 5 * 3 * 16 * 8);
    /* unlimited rings start at 16 flits */
    m = estimate((const char *[]){"network.k=16", "router.buf_flits=0",
                                  "router.switching=unlimited", NULL});
    assert_int_equal(m.buffers, 256 * 5 * 3 * 16 * 8);
    /* output rings on the 4 network ports */
    m = estimate((const char *[]){"network.k=16", "router.out_buf_flits=4", NULL});
    assert_int_equal(m.buffers, 256 * 5 * 3 * 8 * 8 + 256 * 4 * 3 * 4 * 8);
    /* the meta VC: one more ring per port */
    m = estimate((const char *[]){"network.k=16", "gather.mode=metapacket", NULL});
    assert_int_equal(m.buffers, 256 * 5 * 4 * 8 * 8);
}

/* Paper 004's network: per router 8 injection ports x 3 VCs x 32 phits,
 * 15 local x 3 x 32, 8 global x 2 x 256, and output rings of 32 on the 15
 * x 3 local and 8 x 2 global VCs: 8,256 phits of 8 bytes (docs/PERFORMANCE.md:
 * "nearly all of it buffers"). */
static void test_dragonfly_buffers(void **state)
{
    (void)state;
    struct saturn_config *c = saturn_config_new();
    struct saturn_error err = {0};
    assert_int_equal(saturn_config_preset(c, "fuentes2015", &err), SATURN_OK);
    struct saturn_memory m;
    assert_int_equal(saturn_memory_estimate(c, &m, &err), SATURN_OK);
    assert_int_equal(m.buffers, 2064ULL * (8 * 3 * 32 + 15 * 3 * 32 + 8 * 2 * 256 + 61 * 32) * 8);
    saturn_config_free(c);
}

/* A collective's packets are all released at its start; bounded source
 * queues count full. */
static void test_packets(void **state)
{
    (void)state;
    struct saturn_memory a = estimate((const char *[]){"network.k=8", NULL});
    struct saturn_memory b = estimate((const char *[]){"network.k=8", "sim.workload=collective",
                                                       "collective.packets=100", NULL});
    assert_true(b.packets > a.packets + 64 * 100 * 64);
    struct saturn_memory q = estimate((const char *[]){"network.k=8", "traffic.source_queue=1000", NULL});
    assert_true(q.packets > a.packets + 64 * 1000 * 64);
}

/* The event wheel (in `other`): per channel and slot half a flit and half
 * a credit of 4 bytes; a flit between routers of one partition is a
 * 12-byte arrival (net_send_deferred), one across partitions, to an
 * unbounded buffer or to or from a node a 16-byte event. */
static void test_event_wheel(void **state)
{
    (void)state;
    /* 16x16 torus, 1-cycle links and credits: a wheel of 2 slots */
    struct saturn_memory one = estimate((const char *[]){"network.k=16", NULL});
    /* 4 slots: 2 more of 1,024 network channels (a 12-byte arrival and a
     * credit, half each) and 256 nodes (injection: an event and a credit;
     * ejection: an event; half each) */
    struct saturn_memory slow = estimate((const char *[]){"network.k=16", "router.link_latency=3",
                                                          NULL});
    assert_int_equal(slow.other - one.other,
                     2 * (1024 * (12 + 4) / 2 + 256 * ((16 + 4) / 2 + 16 / 2)));
    /* two partitions: the network flits count as events (a bound) */
    struct saturn_memory two = estimate((const char *[]){"network.k=16", "sim.threads=2", NULL});
    assert_int_equal(two.other - one.other, 2 * 1024 * (16 - 12) / 2);
    /* unbounded buffers: flits travel as events, and no credit returns */
    struct saturn_memory unl = estimate((const char *[]){"network.k=16", "router.buf_flits=0",
                                                         "router.switching=unlimited", NULL});
    assert_int_equal((int64_t)unl.other - (int64_t)one.other,
                     2 * (1024 * (16 - 12 - 4) / 2 + 256 * (-4 / 2)));
    /* 64 routers are one partition whatever sim.threads says */
    assert_int_equal(estimate((const char *[]){"network.k=8", "sim.threads=2", NULL}).other,
                     estimate((const char *[]){"network.k=8", NULL}).other);
}

/* 2^30 routers: estimated, not built (a coordinate table alone would take
 * 12 GiB), and far beyond any machine here. */
static void test_huge_not_built(void **state)
{
    (void)state;
    struct saturn_memory m = estimate((const char *[]){"network.k=1024", "network.n=3", NULL});
    assert_true(m.total > (1ULL << 40));
}

/* What saturn_sim_create allocates (the heap's in-use bytes, mmapped blocks
 * included) against the estimate's network part (buffers and VC state):
 * within 15 %. The packet pool and the event wheel grow during the run,
 * so they are not in the comparison. */
static void check_allocated(const char *const *kv)
{
#if defined(__SANITIZE_ADDRESS__)
    (void)kv; /* the sanitizer's allocator keeps its own books */
#else
    struct saturn_config *c = test_config(kv);
    struct saturn_memory m;
    struct saturn_error err = {0};
    assert_int_equal(saturn_memory_estimate(c, &m, &err), SATURN_OK);
    struct mallinfo2 before = mallinfo2();
    struct saturn_sim *s = NULL;
    assert_int_equal(saturn_sim_create(c, &s, &err), SATURN_OK);
    struct mallinfo2 after = mallinfo2();
    double got = (double)(after.uordblks + after.hblkhd) - (double)(before.uordblks + before.hblkhd);
    double want = (double)(m.buffers + m.vc_state);
    if (got < 0.85 * want || got > 1.15 * want)
        fail_msg("allocated %.0f bytes, estimated %.0f for the network", got, want);
    saturn_sim_free(s);
    saturn_config_free(c);
#endif
}

static void test_agrees_with_allocation(void **state)
{
    (void)state;
    check_allocated((const char *[]){"network.k=32", NULL});
    check_allocated((const char *[]){"network.k=32", "router.vcs=8", "router.buf_flits=32",
                                     "router.out_buf_flits=16", NULL});
    check_allocated((const char *[]){"network.topology=mesh", "network.n=3", "network.k=10",
                                     "router.buf_flits=64", NULL});
    check_allocated((const char *[]){"network.topology=dragonfly", "dragonfly.p=4", "dragonfly.a=8",
                                     "dragonfly.h=4", "routing.algorithm=min",
                                     "dragonfly.global_buf_flits=256", "router.buf_flits=32", NULL});
    check_allocated((const char *[]){"network.topology=fattree", "fattree.k=8", "fattree.n=3",
                                     "routing.algorithm=nca", NULL});
    check_allocated((const char *[]){"network.topology=hyperx", "hyperx.s=8,8", "hyperx.t=4",
                                     "hyperx.links=2,1", "routing.algorithm=min", NULL});
    check_allocated((const char *[]){"network.topology=slimfly", "slimfly.q=7",
                                     "routing.algorithm=ugal", "router.vcs=4", NULL});
    check_allocated((const char *[]){"network.topology=megafly", "megafly.h=6",
                                     "megafly.global_latency=20", "routing.algorithm=ugal",
                                     "router.vcs=4", NULL});
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_torus_buffers),
        cmocka_unit_test(test_dragonfly_buffers),
        cmocka_unit_test(test_packets),
        cmocka_unit_test(test_event_wheel),
        cmocka_unit_test(test_huge_not_built),
        cmocka_unit_test(test_agrees_with_allocation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
