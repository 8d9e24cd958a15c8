/* The router and link timing: zero-load latency equals the closed form
 *   inject + (H+1)(route + xbar) + H link + eject + (L - 1)
 * for single packets, over many knob settings, mesh and torus, and every
 * switching mode. */
#include <stdio.h>
#include <string.h>

#include "net/net.h"
#include "support.h"

struct probe {
    uint64_t t;
    int delivered;
};

static void on_deliver(void *user, struct net *n, uint32_t pid)
{
    struct probe *p = user;
    p->t = n->now - n->pk[pid].t_gen;
    p->delivered++;
}

/* Latency of one packet src -> dst in an otherwise empty network. */
static uint64_t single_latency(struct net *n, uint32_t src, uint32_t dst, uint32_t len)
{
    struct probe pr = {0, 0};
    n->deliver = on_deliver;
    n->deliver_user = &pr;
    net_packet_new(n, src, dst, len, true);
    for (int i = 0; i < 100000 && !pr.delivered; i++)
        assert_int_equal(net_step(n), SATURN_OK);
    assert_int_equal(pr.delivered, 1);
    assert_int_equal(n->flits_in_net, 0);
    return pr.t;
}

static uint64_t formula(const struct net *n, int hops, uint32_t len)
{
    return n->inject_latency + (uint64_t)(hops + 1) * (n->route_delay + n->xbar_delay) +
           (uint64_t)hops * n->link_latency + n->eject_latency + (len - 1);
}

/* Every source/destination pair of the network. */
static void check_all_pairs(const char *const *kv)
{
    struct saturn_config *c = test_config(kv);
    struct saturn_error err = {0};
    struct net n;
    if (net_create(&n, c, 1, &err) != SATURN_OK)
        fail_msg("%s", err.msg);
    uint32_t len = (uint32_t)saturn_config_int(c, "traffic.packet_length");
    for (uint32_t s = 0; s < n.nnodes; s++)
        for (uint32_t d = 0; d < n.nnodes; d++) {
            int h = topo_distance(&n.topo, s, d);
            uint64_t got = single_latency(&n, s, d, len);
            if (got != formula(&n, h, len))
                fail_msg("%u -> %u (%d hops): latency %llu, formula %llu", s, d, h,
                         (unsigned long long)got, (unsigned long long)formula(&n, h, len));
        }
    assert_true(net_audit(&n));
    net_destroy(&n);
    saturn_config_free(c);
}

static void zero_load_torus_default(void **state)
{
    (void)state;
    check_all_pairs((const char *const[]){"network.k=6", "sim.check_invariants=true", NULL});
}

static void zero_load_torus_slow_router(void **state)
{
    (void)state;
    check_all_pairs((const char *const[]){"network.k=3,4", "router.route_delay=2", "router.xbar_delay=1",
                                          "router.link_latency=3", "router.credit_delay=2",
                                          "router.inject_latency=2", "router.eject_latency=0",
                                          "router.buf_flits=6", "traffic.packet_length=5", NULL});
}

static void zero_load_mesh(void **state)
{
    (void)state;
    check_all_pairs((const char *const[]){"network.topology=mesh", "network.k=5,3",
                                          "router.route_delay=1", "router.xbar_delay=1",
                                          "traffic.packet_length=16", "router.vcs=1", NULL});
}

static void zero_load_3d_ring_and_modes(void **state)
{
    (void)state;
    check_all_pairs((const char *const[]){"network.k=3", "network.n=3", "router.vcs=4",
                                          "routing.dateline=cumulative", NULL});
    check_all_pairs((const char *const[]){"network.k=7", "network.n=1", "router.switching=vct",
                                          "router.buf_flits=8", "traffic.packet_length=8", NULL});
    check_all_pairs((const char *const[]){"network.k=5", "router.switching=unlimited",
                                          "router.buf_flits=0", "traffic.packet_length=20", NULL});
    /* Output buffers add nothing when empty; speedup changes nothing alone. */
    check_all_pairs((const char *const[]){"network.k=4", "router.out_buf_flits=4",
                                          "router.speedup=2", "router.xbar_delay=2", NULL});
    check_all_pairs((const char *const[]){"network.k=4", "router.out_buf_flits=8",
                                          "router.switching=vct", "router.route_delay=3", NULL});
    /* No delay at all on the way out: the node takes the flit in the
     * cycle it wins the switch. */
    check_all_pairs((const char *const[]){"network.k=4", "router.eject_latency=0",
                                          "router.link_latency=5", "router.credit_delay=5",
                                          NULL});
}

/* Too small a buffer for the credit round trip slows a packet down by a
 * known amount: with B = 1 each flit waits for the previous one's credit. */
static void small_buffer_throttles(void **state)
{
    (void)state;
    struct saturn_config *c = test_config((const char *const[]){
        "network.k=8", "network.n=1", "router.buf_flits=1", "router.vcs=2", "traffic.packet_length=10", NULL});
    struct saturn_error err = {0};
    struct net n;
    assert_int_equal(net_create(&n, c, 1, &err), SATURN_OK);
    /* round trip: link 1 + credit 1 = 2 cycles per flit instead of 1 */
    uint64_t got = single_latency(&n, 0, 3, 10);
    assert_int_equal(got, formula(&n, 3, 10) + 9);
    net_destroy(&n);
    saturn_config_free(c);
}

/* VCT: a head does not enter a buffer that cannot take the whole packet,
 * so a blocked packet sits in one buffer. */
static void vct_needs_room_for_the_packet(void **state)
{
    (void)state;
    struct saturn_config *c = test_config((const char *const[]){
        "router.switching=vct", "router.buf_flits=4", "traffic.packet_length=8", NULL});
    struct saturn_error err = {0};
    struct net n;
    assert_int_equal(net_create(&n, c, 1, &err), SATURN_EINPUT);
    net_destroy(&n); /* safe after a failed create */
    assert_non_null(strstr(err.msg, "router.buf_flits"));
    assert_non_null(strstr(err.msg, "whole packet"));
    saturn_config_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(zero_load_torus_default),
        cmocka_unit_test(zero_load_torus_slow_router),
        cmocka_unit_test(zero_load_mesh),
        cmocka_unit_test(zero_load_3d_ring_and_modes),
        cmocka_unit_test(small_buffer_throttles),
        cmocka_unit_test(vct_needs_room_for_the_packet),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
