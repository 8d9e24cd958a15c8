/* Paper 002's model: the table-driven routing rule on hand-built states,
 * unlimited storage, the preset's zero-load latency, the analytic model,
 * Little's law and the saturation verdict. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/net.h"
#include "support.h"


static struct net *preset_net(const char *const *extra, struct saturn_config **cfg)
{
    *cfg = saturn_config_new();
    struct saturn_error err = {0};
    assert_int_equal(saturn_config_preset(*cfg, "levitin2019", &err), SATURN_OK);
    for (; extra && *extra; extra++) {
        char key[64];
        const char *eq = strchr(*extra, '=');
        snprintf(key, sizeof key, "%.*s", (int)(eq - *extra), *extra);
        assert_int_equal(saturn_config_set(*cfg, key, eq + 1, NULL, 0, &err), SATURN_OK);
    }
    struct net *n = calloc(1, sizeof *n);
    if (net_create(n, *cfg, 1, &err))
        fail_msg("%s", err.msg);
    return n;
}

static void done(struct net *n, struct saturn_config *cfg)
{
    net_destroy(n);
    free(n);
    saturn_config_free(cfg);
}

static int route_port(struct net *n, uint32_t r, uint32_t dst)
{
    struct packet p;
    memset(&p, 0, sizeof p);
    p.src = r;
    p.dst = dst;
    p.len = 10;
    struct route_result out;
    n->rops->route(n->rstate, n, r, n->topo.radix, 0, &p, &out);
    assert_int_equal(out.n, 1);
    return out.c[0].port;
}

/* Router 0 of an 8x8 torus to (2,2): minimal ports +x (0) and +y (2). */
static void rule_free_lowest_busy_highest(void **state)
{
    (void)state;
    struct saturn_config *cfg;
    struct net *n = preset_net(NULL, &cfg);
    uint32_t dst = 2 + 2 * 8;
    int ports[8];
    assert_int_equal(route_minimal_ports(n, 0, dst, ports), 2);
    assert_int_equal(ports[0], 0);
    assert_int_equal(ports[1], 2);
    assert_int_equal(route_port(n, 0, dst), 0);  /* both free: the lowest */
    n->prare[0].link_hold = 1;                     /* +x carries a packet */
    assert_int_equal(route_port(n, 0, dst), 2);  /* the free one */
    n->ports[2].ob_nonempty = 1;                   /* +y has packets waiting */
    assert_int_equal(route_port(n, 0, dst), 2);  /* all busy: the highest's storage */
    n->ports[2].ob_nonempty = 0;
    n->ovcs[2 * n->V + 3].owner = 7;               /* +y being entered by a packet */
    assert_int_equal(route_port(n, 0, dst), 2);
    n->ovcs[2 * n->V + 3].owner = -1;
    n->prare[0].link_hold = -1;
    /* distance exactly k/2 in x: both ways minimal, + (port 0) first */
    assert_int_equal(route_minimal_ports(n, 0, 4, ports), 2);
    assert_int_equal(ports[0], 0);
    assert_int_equal(ports[1], 1);
    n->prare[0].link_hold = 0;
    assert_int_equal(route_port(n, 0, 4), 1);
    n->prare[0].link_hold = -1;
    done(n, cfg);
}

struct order {
    uint32_t pid[8];
    int n;
};

static void record(void *user, struct net *n, uint32_t pid)
{
    struct order *o = user;
    (void)n;
    if (o->n < 8)
        o->pid[o->n++] = pid;

}

/* Three packets born together one hop from node 9 (at 17, 10 and 8) reach
 * its router in the same cycle and want its one ejection channel: they
 * leave whole, in packet-id order (the order they were created). */
static void simultaneous_headers_in_id_order(void **state)
{
    (void)state;
    struct saturn_config *cfg;
    struct net *n = preset_net((const char *const[]){"traffic.packet_length=10", NULL}, &cfg);
    struct order o = {{0}, 0};
    n->deliver = record;
    n->deliver_user = &o;
    uint32_t p3 = net_packet_new(n, 17, 9, 10, true);
    uint32_t p2 = net_packet_new(n, 10, 9, 10, true);
    uint32_t p1 = net_packet_new(n, 8, 9, 10, true);
    for (int c = 0; c < 200; c++)
        assert_int_equal(net_step(n), SATURN_OK);
    assert_int_equal(o.n, 3);
    assert_true(p3 < p2 && p2 < p1);
    assert_int_equal(o.pid[0], p3);
    assert_int_equal(o.pid[1], p2);
    assert_int_equal(o.pid[2], p1);
    done(n, cfg);
}

/* Unlimited storage: a packet blocked behind a long one never stops its
 * header on buffer space, and the whole network keeps every flit. */
static void storage_never_blocks(void **state)
{
    (void)state;
    struct saturn_config *cfg;
    struct net *n = preset_net((const char *const[]){"sim.check_invariants=true", NULL}, &cfg);
    /* 40 packets of 200 flits from 8 sources into one node */
    for (int i = 0; i < 40; i++)
        net_packet_new(n, (uint32_t)(i % 8) * 8 + 1 + (i / 8) % 2, 9, 200, true);
    for (int c = 0; c < 20000 && n->packets_delivered < 40; c++)
        assert_int_equal(net_step(n), SATURN_OK);
    assert_int_equal(n->packets_delivered, 40);
    /* the busy ejection port sets the pace: 40 x 200 flits */
    assert_true(n->now >= 8000);
    done(n, cfg);
}

/* Zero-load latency of the preset: tau(0) = 3 (l + 1) + m. */
static void zero_load_is_the_papers(void **state)
{
    (void)state;
    for (int l = 1; l <= 4; l++) {
        struct saturn_config *cfg;
        struct net *n = preset_net(NULL, &cfg);
        struct order o = {{0}, 0};
        n->deliver = record;
        n->deliver_user = &o;
        net_packet_new(n, 0, (uint32_t)l, 10, true); /* l hops along x */
        uint64_t t = 0;
        while (!o.n) {
            assert_int_equal(net_step(n), SATURN_OK);
            t = n->now - 1;
        }
        assert_int_equal(t, 3 * (l + 1) + 10);
        assert_true(fabs(saturn_levitin_latency(0, l, 10) - (double)t) < 1e-9);
        done(n, cfg);
    }
}

static void analytic_known_points(void **state)
{
    (void)state;
    assert_true(fabs(saturn_levitin_lambda_cr(2, 10) - 0.2) < 1e-12);
    assert_true(fabs(saturn_levitin_lambda_cr(3, 20) - 4.0 / 60) < 1e-12);
    /* rho = 0.5: tau = (l+1)(1 + 3) + m */
    assert_true(fabs(saturn_levitin_latency(0.1, 2, 10) - 22.0) < 1e-12);
    assert_true(isinf(saturn_levitin_latency(0.2, 2, 10)));
    /* Bounds of the preset: mean 2 hops; channels 4N / (N m 2) = 0.2; injection 0.1 */
    struct saturn_config *c = saturn_config_new();
    struct saturn_error err = {0};
    assert_int_equal(saturn_config_preset(c, "levitin2019", &err), SATURN_OK);
    struct saturn_bounds b;
    assert_int_equal(saturn_bounds(c, &b, &err), SATURN_OK);
    assert_true(fabs(b.mean_hops - 2) < 1e-9);
    assert_true(fabs(b.channel_any - 0.2) < 1e-9);
    assert_true(fabs(b.injection - 0.1) < 1e-12);
    assert_true(fabs(b.ejection - 0.1) < 1e-9);
    assert_true(fabs(b.predicted - 0.1) < 1e-9);
    saturn_config_free(c);
    /* DOR on an 8x8 torus, uniform over the 63 other nodes, ties +: an x+
     * channel carries the sources 0..3 hops behind it to the destinations
     * 1..4 ahead of them whose x offset goes past it, 8 each (any y):
     * (4+3+2+1) x 8 / 63 = 80/63 packets per unit rate, so 63/(80 m).
     * Any routing: 256 channels / (64 nodes x m x 4 x 64/63 hops) = 63/(64 m). */
    c = test_config((const char *const[]){"network.k=8", "traffic.pattern=uniform", NULL});
    assert_int_equal(saturn_bounds(c, &b, &err), SATURN_OK);
    assert_true(fabs(b.channel_routing * 8 - 63.0 / 80.0) < 1e-9);
    assert_true(fabs(b.channel_any * 8 - 63.0 / 64.0) < 1e-9);
    saturn_config_free(c);
}

static struct saturn_results run_preset(const char *const *extra)
{
    struct saturn_config *c = saturn_config_new();
    struct saturn_error err = {0};
    assert_int_equal(saturn_config_preset(c, "levitin2019", &err), SATURN_OK);
    for (; *extra; extra++) {
        char key[64];
        const char *eq = strchr(*extra, '=');
        snprintf(key, sizeof key, "%.*s", (int)(eq - *extra), *extra);
        assert_int_equal(saturn_config_set(c, key, eq + 1, NULL, 0, &err), SATURN_OK);
    }
    struct saturn_results r;
    if (saturn_run(c, &r, &err))
        fail_msg("%s", err.msg);
    saturn_config_free(c);
    return r;
}

/* Little's law within 5 % at light load; a run at 98 % of the injection
 * bound 1/m is saturated. */
static void little_and_saturation(void **state)
{
    (void)state;
    struct saturn_results r = run_preset((const char *const[]){
        "network.k=6", "traffic.packet_rate=0.02", "steady.warmup=3000", NULL});
    assert_false(r.saturated);
    assert_true(r.measure == 4000); /* T = 10 x 4 x 2 / 0.02 */
    double ratio = r.little_n / r.little_lambda_n_tau;
    assert_true(ratio > 0.95 && ratio < 1.05);
    saturn_results_free(&r);
    r = run_preset((const char *const[]){"network.k=6", "traffic.packet_rate=0.098",
                                         "steady.warmup=3000", "steady.drain_max=5000", NULL});
    assert_true(r.saturated);
    saturn_results_free(&r);
}

/* The input register readings: under a 2-unit header a B-flit credit
 * buffer idles its input link 3 - B units a message (none from 4 flits
 * on, none unbounded), so an overloaded 2x2 torus, where the source's
 * channel binds, delivers m / (m + 3 - B) flits per node and unit: 10/12
 * (B = 2), 10/11 (B = 3, the preset: the paper's register that takes a
 * flit as it hands one on), 1 (unbounded: 0.98 with the bubbles of a
 * random stream). */
static void input_register_readings(void **state)
{
    (void)state;
    const char *bufs[] = {"router.buf_flits=2", "router.buf_flits=3", "router.buf_flits=0"};
    const double cap[] = {10.0 / 12, 10.0 / 11, 1.0};
    for (int i = 0; i < 3; i++) {
        struct saturn_results r = run_preset((const char *const[]){
            "network.k=2", "traffic.packet_rate=0.1", bufs[i],
            i == 2 ? "router.switching=unlimited" : "router.switching=wormhole",
            "steady.warmup=3000", "steady.measure=4000", "steady.drain_max=0", NULL});
        assert_true(r.saturated);
        if (r.accepted > cap[i] + 0.002 || r.accepted < cap[i] - (i == 2 ? 0.03 : 0.002))
            fail_msg("%s: accepted %.4f, expected %.4f", bufs[i], r.accepted, cap[i]);
        saturn_results_free(&r);
    }
}

/* steady.trend_from = 0.5 fits the backlog from half the warm-up on: 3 %
 * above the channel's capacity (1/11 packets for m = 10) a 6x6 torus is
 * saturated, 10 % below it is not, with the paper's short window
 * T = 10 x 4l / lambda. */
static void trend_over_the_run(void **state)
{
    (void)state;
    struct saturn_results r = run_preset((const char *const[]){
        "network.k=6", "traffic.packet_rate=0.0936", "steady.warmup=8000",
        "steady.trend_from=0.5", "steady.drain_max=3000", NULL});
    assert_true(r.saturated);
    assert_true(r.backlog_growth > 0.015);
    saturn_results_free(&r);
    r = run_preset((const char *const[]){"network.k=6", "traffic.packet_rate=0.0818",
                                         "steady.warmup=8000", "steady.trend_from=0.5",
                                         "steady.drain_max=3000", NULL});
    assert_false(r.saturated);
    assert_true(r.backlog_growth < 0.01);
    saturn_results_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rule_free_lowest_busy_highest),
        cmocka_unit_test(simultaneous_headers_in_id_order),
        cmocka_unit_test(storage_never_blocks),
        cmocka_unit_test(zero_load_is_the_papers),
        cmocka_unit_test(analytic_known_points),
        cmocka_unit_test(little_and_saturation),
        cmocka_unit_test(input_register_readings),
        cmocka_unit_test(trend_over_the_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
