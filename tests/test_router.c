/* The router and link timing: zero-load latency equals the closed form
 *   inject + (H+1)(route + xbar) + H link + eject + (L - 1)
 * for single packets, over many knob settings, mesh and torus, and every
 * switching mode. */
#include <stdio.h>
#include <string.h>

#include "net/net.h"
#include "net/net_internal.h"
#include "saturn/io.h"
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

/* ---- BookSim 2's allocators (router.sw_alloc / router.vc_alloc = islip) ---- */

/* The allocators add no latency: every zero-load path as before. */
static void zero_load_islip(void **state)
{
    (void)state;
    check_all_pairs((const char *const[]){"network.k=5", "router.sw_alloc=islip",
                                          "router.vc_alloc=islip", "router.route_delay=3",
                                          "router.xbar_delay=1", "traffic.packet_length=16",
                                          "router.vcs=4", NULL});
}

/* One router's state set by hand: router 5 of a 4x4 torus, 2 VCs, inputs
 * A = port 0 and B = port 1, outputs X = port 2 and Y = port 3. */
static struct net *alloc_bench(const char *sw, const char *vc, struct saturn_config **cfg)
{
    char w1[64], w2[64];
    snprintf(w1, sizeof w1, "router.sw_alloc=%s", sw);
    snprintf(w2, sizeof w2, "router.vc_alloc=%s", vc);
    return test_net((const char *const[]){"network.k=4", "router.vcs=2", w1, w2,
                                          "traffic.packet_length=16", NULL},
                    cfg);
}

/* Puts flit f at the back of input VC (p, v) of router r. */
static struct ivc *put_flit(struct net *n, uint32_t r, int p, int v, flit_t f)
{
    const size_t gp = (size_t)r * n->P + (size_t)p;
    struct ivc *iv = &n->ivcs[gp * n->V + v];
    net_ivc_spill(iv);
    iv->buf[(iv->head + iv->count) & iv->mask] = f;
    iv->count++;
    n->ports[gp].nonempty |= 1ULL << v;
    n->rports[r] |= 1ULL << p;
    n->rocc[r]++;
    return iv;
}

/* Input VC (p, v) holds output VC (op, ov), a body flit of pid in front. */
static struct ivc *hold(struct net *n, uint32_t r, int p, int v, int op, int ov, uint32_t pid)
{
    struct ivc *iv = put_flit(n, r, p, v, (flit_t){pid, 1, 0});
    iv->state = IVC_ACTIVE;
    iv->out_port = (uint16_t)op;
    iv->out_vc = (uint8_t)ov;
    n->ovcs[((size_t)r * n->P + (size_t)op) * n->V + ov].owner = p * n->V + v;
    n->ports[(size_t)r * n->P + (size_t)p].active |= 1ULL << v;
    if (n->vready && net_ready_ok(n, (uint32_t)((size_t)r * n->P + (size_t)p), (uint32_t)v))
        n->vready[(size_t)r * n->P + (size_t)p] |= 1ULL << v; /* as VC allocation sets it */
    return iv;
}

/* A fresh head of a 16-flit packet at the front of input VC (p, 0), routed
 * to candidate c and waiting for a VC of it. */
static void head_waiting(struct net *n, uint32_t r, int p, struct route_cand c)
{
    uint32_t pid = net_packet_new(n, 0, 1, 16, false);
    struct ivc *iv = put_flit(n, r, p, 0, (flit_t){pid, 0, FLIT_HEAD});
    struct ivc_route *ir = &n->iroute[((size_t)r * n->P + (size_t)p) * n->V];
    iv->state = IVC_VA;
    ir->route.n = 1;
    ir->route.sel = 0;
    ir->route.c[0] = c;
    ir->len = 16;
    ir->pid = pid;
    ir->t_front = n->now;
}

/* A's VC 0 and B's VC 0 want X, A's VC 1 wants Y, and X's pointer is at B.
 * Input first: A picks its VC 0 (its pointer), X grants B: one flit moves.
 * iSLIP: A asks for X and Y, X grants B, Y grants A, both accept: two. */
static void switch_allocators(void **state)
{
    (void)state;
    for (int islip = 0; islip < 2; islip++) {
        struct saturn_config *cfg;
        struct net *n = alloc_bench(islip ? "islip" : "input_first", "separable", &cfg);
        const uint32_t r = 5, pid = net_packet_new(n, 0, 1, 16, false);
        struct ivc *a0 = hold(n, r, 0, 0, 2, 0, pid), *a1 = hold(n, r, 0, 1, 3, 0, pid);
        struct ivc *b0 = hold(n, r, 1, 0, 2, 1, pid);
        n->ports[(size_t)r * n->P + 2].sa_out_rr = 1;
        router_step(n, &n->parts[0], r);
        assert_int_equal(b0->count, 0);        /* B to X either way */
        assert_int_equal(a0->count, 1);        /* X went to B */
        assert_int_equal(a1->count, !islip);   /* Y: only iSLIP lets A ask for it */
        test_net_free(n, cfg);
    }
}

/* Heads at A's VC 0 and B's VC 0 both routed to X, VCs 0-1, both free;
 * X VC 1's grant pointer is at B. Separable: both ask for the VC with the
 * most room, VC 0 (the first of equals), and only A gets one. iSLIP: both
 * ask for both, VC 0 grants A and VC 1 grants B: both get one. */
static void vc_allocators(void **state)
{
    (void)state;
    for (int islip = 0; islip < 2; islip++) {
        struct saturn_config *cfg;
        struct net *n = alloc_bench("input_first", islip ? "islip" : "separable", &cfg);
        const uint32_t r = 5;
        const int V = n->V;
        struct ovc *x = &n->ovcs[((size_t)r * n->P + 2) * V];
        x[1].va_rr = (uint16_t)(1 * V + 0);
        for (int p = 0; p < 2; p++)
            head_waiting(n, r, p, (struct route_cand){2, 0, 1});
        router_step(n, &n->parts[0], r);
        assert_int_equal(x[0].owner, 0 * V + 0);
        assert_int_equal(x[1].owner, islip ? 1 * V + 0 : -1);
        test_net_free(n, cfg);
    }
}

/* router.transit_priority (FOGSim's output arbiters): transit input A
 * (port 0) and the injection port I (port 4) both want output X, and X's
 * pointers (switch, and VC 0's) are at I. Round-robin serves I; with the
 * priority A wins, both the switch and the VC. */
static void transit_priority(void **state)
{
    (void)state;
    for (int prio = 0; prio < 2; prio++) {
        struct saturn_config *cfg;
        struct net *n = test_net((const char *const[]){"network.k=4", "router.vcs=2",
                                                       prio ? "router.transit_priority=true"
                                                            : "router.transit_priority=false",
                                                       "traffic.packet_length=16", NULL},
                                 &cfg);
        const uint32_t r = 5;
        const int V = n->V, I = n->topo.radix;
        assert_int_equal(I, 4);
        /* the switch: both hold a VC of X, a body flit in front */
        uint32_t pid = net_packet_new(n, 0, 1, 16, false);
        struct ivc *a = hold(n, r, 0, 0, 2, 0, pid), *i = hold(n, r, I, 0, 2, 1, pid);
        n->ports[(size_t)r * n->P + 2].sa_out_rr = (uint8_t)I;
        router_step(n, &n->parts[0], r);
        assert_int_equal(a->count, prio ? 0 : 1);
        assert_int_equal(i->count, prio ? 1 : 0);
        test_net_free(n, cfg);

        /* the VC: heads at A's VC 0 and I's VC 0 both want X's VC 0 */
        n = test_net((const char *const[]){"network.k=4", "router.vcs=2",
                                           prio ? "router.transit_priority=true"
                                                : "router.transit_priority=false",
                                           "traffic.packet_length=16", NULL},
                     &cfg);
        struct ovc *x = &n->ovcs[((size_t)r * n->P + 2) * V];
        x[0].va_rr = (uint16_t)(I * V);
        const int ports[2] = {0, I};
        for (int k = 0; k < 2; k++)
            head_waiting(n, r, ports[k], (struct route_cand){2, 0, 0});
        router_step(n, &n->parts[0], r);
        assert_int_equal(x[0].owner, prio ? 0 : I * V);
        test_net_free(n, cfg);
    }
}

/* router.sw_hold: A (port 0) and B (port 1) each hold a VC of output X
 * (VC 0 and VC 1) for a packet of their own, three body flits queued, and
 * X's pointer at A. Flit by flit X alternates A, B, A; held, A's packet
 * keeps X until its flits run out (its hold then ends) and B waits. Both
 * by the speedup-1 cycle and by the general one (n->links_taken). */
static void switch_hold(void **state)
{
    (void)state;
    for (int t = 0; t < 4; t++) {
        const int held = t & 1;
        struct saturn_config *cfg;
        struct net *n = test_net((const char *const[]){"network.k=4", "router.vcs=2",
                                                       held ? "router.sw_hold=true"
                                                            : "router.sw_hold=false",
                                                       "traffic.packet_length=16", NULL},
                                 &cfg);
        n->links_taken = t >> 1;
        assert_int_equal(router_keeps_ready(n), !n->links_taken);
        const uint32_t r = 5, gp0 = r * (uint32_t)n->P;
        const uint32_t pa = net_packet_new(n, 0, 1, 16, false), pb = net_packet_new(n, 2, 1, 16, false);
        struct ivc *a = hold(n, r, 0, 0, 2, 0, pa), *b = hold(n, r, 1, 0, 2, 1, pb);
        for (int k = 0; k < 2; k++) {
            put_flit(n, r, 0, 0, (flit_t){pa, (uint16_t)(2 + k), 0});
            put_flit(n, r, 1, 0, (flit_t){pb, (uint16_t)(2 + k), 0});
        }
        n->ports[gp0 + 2].sa_out_rr = 0;
        const int a_left[4] = {2, held ? 1 : 2, held ? 0 : 1, held ? 0 : 1};
        const int b_left[4] = {3, held ? 3 : 2, held ? 3 : 2, held ? 2 : 1};
        for (int c = 0; c < 4; c++, n->now++) {
            router_step(n, &n->parts[0], r);
            assert_int_equal(a->count, a_left[c]);
            assert_int_equal(b->count, b_left[c]);
            if (held) /* held while A has a flit behind the one that crossed */
                assert_int_equal(n->prare[gp0 + 2].hold_in, c < 2 ? 0 : c == 2 ? -1 : 1);
        }
        test_net_free(n, cfg);
    }
    /* a hold whose flit cannot cross (no credit) ends, and the output goes
     * to the other input in that cycle */
    for (int any = 0; any < 2; any++) {
        struct saturn_config *cfg;
        struct net *n = test_net((const char *const[]){"network.k=4", "router.vcs=2",
                                                       "router.sw_hold=true",
                                                       "traffic.packet_length=16", NULL},
                                 &cfg);
        n->links_taken = any;
        const uint32_t r = 5, gp0 = r * (uint32_t)n->P;
        const uint32_t pa = net_packet_new(n, 0, 1, 16, false);
        const uint32_t pb = net_packet_new(n, 2, 1, 16, false);
        struct ivc *a = hold(n, r, 0, 0, 2, 0, pa), *b = hold(n, r, 1, 0, 2, 1, pb);
        put_flit(n, r, 0, 0, (flit_t){pa, 2, 0});
        n->ports[gp0 + 2].sa_out_rr = 0;
        router_step(n, &n->parts[0], r);
        n->now++;
        assert_int_equal(n->prare[gp0 + 0].hold_vc, 0);
        n->ovcs[(size_t)(gp0 + 2) * n->V + 0].credits = 0;
        if (n->vready) /* as the last credit's crossing clears it (the speedup-1 cycle reads it) */
            n->vready[gp0 + 0] &= ~1ULL;
        router_step(n, &n->parts[0], r);
        assert_int_equal(a->count, 1);
        assert_int_equal(b->count, 0);
        assert_int_equal(n->prare[gp0 + 0].hold_vc, -1);
        test_net_free(n, cfg);
    }
}

/* A run drained with every measured packet delivered; frees it. */
static void all_delivered(struct saturn_results *r)
{
    assert_true(r->drained);
    assert_int_equal(r->measured_delivered, r->measured_packets);
    saturn_results_free(r);
}

/* Far beyond saturation with every invariant checked each cycle, the
 * iSLIP allocators deliver every packet (no flit lost or stuck). */
static void islip_survives_saturation(void **state)
{
    (void)state;
    struct saturn_results r = test_run((const char *const[]){
        "network.k=4", "router.vcs=4", "router.sw_alloc=islip", "router.vc_alloc=islip",
        "routing.dateline=entry", "traffic.flit_rate=1", "traffic.packet_length=6",
        "steady.warmup=300", "steady.measure=600", "steady.drain_max=100000",
        "sim.check_invariants=true", NULL});
    all_delivered(&r);
}

/* Held matches beside every invariant checked each cycle, far beyond
 * saturation on a torus (DOR, datelines) and in a collective: every packet
 * delivered. */
static void sw_hold_survives_saturation(void **state)
{
    (void)state;
    struct saturn_results r = test_run((const char *const[]){
        "network.k=4", "router.vcs=2", "router.sw_hold=true", "traffic.flit_rate=1",
        "traffic.packet_length=6", "steady.warmup=300", "steady.measure=600",
        "steady.drain_max=100000", "sim.check_invariants=true", NULL});
    all_delivered(&r);
}

/* The network of those words is refused (exit 2) with an error naming key
 * and saying why. */
static void refused(const char *const *kv, const char *key, const char *why)
{
    struct saturn_config *c = test_config(kv);
    struct saturn_error err = {0};
    struct net n;
    assert_int_equal(net_create(&n, c, 1, &err), SATURN_EINPUT);
    net_destroy(&n);
    if (!strstr(err.msg, key) || !strstr(err.msg, why))
        fail_msg("error does not name %s and %s: %s", key, why, err.msg);
    saturn_config_free(c);
}

/* islip needs one crossbar input per port and no metapackets; the transit
 * priority is the separable allocators'. */
static void islip_bad_input(void **state)
{
    (void)state;
    const char *const *cases[] = {
        (const char *const[]){"router.sw_alloc=islip", "router.speedup=2", NULL},
        (const char *const[]){"router.sw_alloc=islip", "gather.mode=metapacket", NULL},
        (const char *const[]){"router.vc_alloc=islip", "router.arbiter=central", NULL},
        (const char *const[]){"router.vc_alloc=islip", "router.transit_priority=true", NULL},
        (const char *const[]){"router.sw_hold=true", "router.sw_alloc=islip", NULL},
        (const char *const[]){"router.sw_hold=true", "router.speedup=2", NULL}};
    const char *keys[] = {"router.sw_alloc", "router.sw_alloc", "router.vc_alloc",
                          "router.transit_priority", "router.sw_hold", "router.sw_hold"};
    for (int i = 0; i < 6; i++)
        refused(cases[i], keys[i], keys[i]);
}

/* Delivery cycles of packets, in order of delivery. */
struct deliveries {
    uint64_t t[8];
    uint32_t pid[8];
    int n;
};

static void on_deliveries(void *user, struct net *n, uint32_t pid)
{
    struct deliveries *d = user;
    if (d->n < 8) {
        d->pid[d->n] = pid;
        d->t[d->n++] = n->now;
    }
}

/* The packets given (src, dst pairs) created in cycle 0; the cycles
 * between the first and the second delivery. */
static uint64_t delivery_gap(const char *knob, const uint32_t (*pairs)[2], int npairs)
{
    struct saturn_config *c = test_config((const char *const[]){
        "network.topology=mesh", "network.k=3", "network.n=1", "router.vcs=1",
        "router.buf_flits=16", "router.route_delay=3", "router.xbar_delay=1", knob, NULL});
    struct saturn_error err = {0};
    struct net n;
    assert_int_equal(net_create(&n, c, 1, &err), SATURN_OK);
    struct deliveries d = {{0}, {0}, 0};
    n.deliver = on_deliveries;
    n.deliver_user = &d;
    for (int i = 0; i < npairs; i++)
        net_packet_new(&n, pairs[i][0], pairs[i][1], 4, true);
    for (int i = 0; i < 1000 && d.n < npairs; i++)
        assert_int_equal(net_step(&n), SATURN_OK);
    assert_int_equal(d.n, npairs);
    net_destroy(&n);
    saturn_config_free(c);
    return d.t[1] - d.t[0];
}

/* Nodes 0 and 2 send 4 flits to node 1 at once: one head waits for the
 * ejection VC the other holds. It gets the VC the cycle after that tail
 * crossed and crosses then: its tail 4 cycles after the first; with
 * router.va_stage it crosses a cycle later: 5. */
static void va_stage(void **state)
{
    (void)state;
    const uint32_t two[][2] = {{0, 1}, {2, 1}};
    assert_int_equal(delivery_gap("router.va_stage=false", two, 2), 4);
    assert_int_equal(delivery_gap("router.va_stage=true", two, 2), 5);
}

/* ---- router.xbar_rate: a crossbar faster than the links ---- */

/* The crossbar moves only flits that have arrived, and links and nodes
 * take a flit a cycle: a lone packet is as fast as at rate 1, also when it
 * has piled up in its input VC during a long routing delay (the analytic
 * change at zero load is none). */
static void zero_load_xbar_rate(void **state)
{
    (void)state;
    check_all_pairs((const char *const[]){"network.k=4", "router.out_buf_flits=8",
                                          "router.xbar_rate=2", "router.xbar_delay=1", NULL});
    check_all_pairs((const char *const[]){"network.k=3,4", "router.out_buf_flits=16",
                                          "router.switching=vct", "router.buf_flits=16",
                                          "router.xbar_rate=3", "router.speedup=2",
                                          "router.route_delay=12", "router.xbar_delay=3",
                                          "traffic.packet_length=8", NULL});
}

/* Router 5 of a 4x4 torus, one crossbar port per input: input A (port 0)
 * holds X (port 2) on VC 0 and Y (port 3) on VC 1, an 8-flit packet
 * waiting in each. Rate R drains both in 2 * ceil(8 / R) cycles, a grant
 * moving min(R, what is left) flits of its packet; every output buffer
 * receives its packet's flits once and in order, and its slots and the
 * link's credits stay in range. */
static void xbar_rate_drain(void **state)
{
    (void)state;
    for (int R = 1; R <= 4; R++) {
        char rate[32];
        snprintf(rate, sizeof rate, "router.xbar_rate=%d", R);
        struct saturn_config *cfg;
        struct net *n = test_net((const char *const[]){"network.k=4", "router.vcs=2",
                                                       "router.out_buf_flits=16",
                                                       "router.buf_flits=16", rate,
                                                       "traffic.packet_length=8", NULL},
                                 &cfg);
        const uint32_t r = 5;
        const int V = n->V;
        struct ivc *in[2];
        for (int k = 0; k < 2; k++) {
            uint32_t pid = net_packet_new(n, 0, 1, 8, false);
            in[k] = hold(n, r, 0, k, 2 + k, 0, pid); /* flit 0 (seq 1 here) in front */
            for (uint16_t q = 2; q <= 8; q++)
                put_flit(n, r, 0, k, (flit_t){pid, q, q == 8 ? FLIT_TAIL : 0});
        }
        struct ovc *o[2] = {&n->ovcs[((size_t)r * n->P + 2) * V], &n->ovcs[((size_t)r * n->P + 3) * V]};
        const int32_t credits0 = o[0]->credits;
        int cycles = 0;
        uint32_t left[2] = {8, 8};
        while (in[0]->count + in[1]->count) {
            router_step(n, &n->parts[0], r);
            n->now++;
            cycles++;
            assert_true(cycles <= 16);
            for (int k = 0; k < 2; k++) {
                uint32_t moved = left[k] - in[k]->count;
                assert_true(moved <= (uint32_t)R);
                left[k] = in[k]->count;
                /* flits 1..sent went on the link (one a cycle); the buffer holds
                 * the next ones, in order: each flit crossed once */
                const int32_t sent = credits0 - o[k]->credits;
                for (uint32_t i = 0; i < o[k]->ob_count; i++)
                    assert_int_equal(net_ob_at(n, o[k], i).seq,
                                     sent + 1 + (int32_t)i);
                assert_int_equal(sent + (int32_t)o[k]->ob_count + (int32_t)in[k]->count, 8);
                assert_true(o[k]->ob_space >= 0);
                assert_int_equal(o[k]->ob_space + (int32_t)o[k]->ob_count, 16);
                assert_true(o[k]->credits >= 0 && o[k]->credits <= credits0);
            }
        }
        assert_int_equal(cycles, 2 * ((8 + R - 1) / R));
        for (int k = 0; k < 2; k++) {
            assert_int_equal(in[k]->state, IVC_IDLE);
            assert_int_equal(o[k]->owner, -1);
            /* every flit crossed once: those sent plus those still buffered */
            assert_int_equal((credits0 - o[k]->credits) + (int32_t)o[k]->ob_count, 8);
        }
        test_net_free(n, cfg);
    }
}

/* A grant stops at its packet's tail (the head behind it must be routed
 * and win a VC first) and at a full output buffer. */
static void xbar_rate_stops(void **state)
{
    (void)state;
    struct saturn_config *cfg;
    struct net *n = test_net((const char *const[]){"network.k=4", "router.vcs=2",
                                                   "router.out_buf_flits=2", "router.buf_flits=16",
                                                   "router.xbar_rate=4", NULL},
                             &cfg);
    const uint32_t r = 5;
    const int V = n->V;
    uint32_t p1 = net_packet_new(n, 0, 1, 2, false), p2 = net_packet_new(n, 0, 1, 4, false);
    struct ivc *a = hold(n, r, 0, 0, 2, 0, p1);
    put_flit(n, r, 0, 0, (flit_t){p1, 2, FLIT_TAIL});
    put_flit(n, r, 0, 0, (flit_t){p2, 0, FLIT_HEAD});
    uint32_t p3 = net_packet_new(n, 0, 1, 8, false);
    struct ivc *b = hold(n, r, 1, 0, 3, 0, p3);
    for (uint16_t q = 2; q <= 8; q++)
        put_flit(n, r, 1, 0, (flit_t){p3, q, q == 8 ? FLIT_TAIL : 0});
    router_step(n, &n->parts[0], r);
    assert_int_equal(a->count, 1); /* p1's two flits, not p2's head */
    assert_int_equal(a->state, IVC_IDLE);
    assert_int_equal(n->ovcs[((size_t)r * n->P + 2) * V].owner, -1);
    assert_int_equal(b->count, 6); /* two slots in Y's buffer */
    n->now++;
    router_step(n, &n->parts[0], r); /* the link freed one slot last cycle */
    assert_int_equal(b->count, 5);
    test_net_free(n, cfg);
}

/* A 4x4 torus with 4-flit output buffers at full load, every invariant
 * checked each cycle, and two words more: every packet delivered. */
static void torus_delivers(const char *a, const char *b)
{
    struct saturn_results r = test_run((const char *const[]){
        "network.k=4", "router.vcs=4", "router.out_buf_flits=4", "routing.dateline=entry",
        "traffic.flit_rate=1", "traffic.packet_length=6", "steady.warmup=300",
        "steady.measure=600", "steady.drain_max=100000", "sim.check_invariants=true", a, b,
        NULL});
    all_delivered(&r);
}

/* The Dragonfly preset (VCT, output buffers) on 32 nodes, OLM under ADV+1
 * far beyond saturation with every invariant checked each cycle, and the
 * words given: every packet delivered. */
static void df_preset_delivers(const char *const *extra)
{
    struct saturn_config *c = test_config((const char *const[]){NULL});
    struct saturn_error err = {0};
    assert_int_equal(saturn_config_preset(c, "fuentes2015", &err), SATURN_OK);
    for (const char *const *kv = (const char *const[]){
             "dragonfly.p=2", "dragonfly.a=4", "dragonfly.h=2", "routing.algorithm=olm",
             "traffic.pattern=adv", "traffic.adv_shift=1", "traffic.flit_rate=0.6",
             "steady.warmup=500", "steady.measure=1000", "steady.drain_max=100000",
             "sim.check_invariants=true", NULL};
         *kv; kv++)
        assert_int_equal(saturn_config_apply_arg(c, *kv, &err), SATURN_OK);
    for (; *extra; extra++)
        assert_int_equal(saturn_config_apply_arg(c, *extra, &err), SATURN_OK);
    struct saturn_results r;
    if (saturn_run(c, &r, &err))
        fail_msg("%s", err.msg);
    all_delivered(&r);
    saturn_config_free(c);
}

/* Far beyond saturation with every invariant checked each cycle (credits
 * and output-buffer slots in range, flits delivered once and in order),
 * a fast crossbar delivers every packet: torus, wormhole and the
 * Dragonfly preset (VCT). */
static void xbar_rate_survives_saturation(void **state)
{
    (void)state;
    torus_delivers("router.xbar_rate=3", "router.speedup=2");
    df_preset_delivers((const char *const[]){"router.speedup=1", "router.xbar_rate=2", NULL});
}

/* The rate writes into output buffers, with the input-first allocator. */
static void xbar_rate_bad_input(void **state)
{
    (void)state;
    const char *const *cases[] = {
        (const char *const[]){"router.xbar_rate=2", NULL},
        (const char *const[]){"router.xbar_rate=2", "router.out_buf_flits=4",
                              "router.sw_alloc=islip", NULL}};
    const char *why[] = {"output buffers", "islip"};
    for (int i = 0; i < 2; i++)
        refused(cases[i], "router.xbar_rate", why[i]);
}

/* ---- router.obuf_credits = downstream: FOGSim's output-buffer credits ---- */

/* Where the buffers cover the credit round trip a lone packet is as fast
 * as with output buffers of their own; the audit at the end checks the
 * credits of every VC. */
static void zero_load_obuf_credits(void **state)
{
    (void)state;
    check_all_pairs((const char *const[]){"network.k=4", "router.out_buf_flits=8",
                                          "router.obuf_credits=downstream", "router.xbar_delay=1",
                                          NULL});
    check_all_pairs((const char *const[]){"network.k=3,4", "router.out_buf_flits=16",
                                          "router.switching=vct", "router.buf_flits=16",
                                          "router.obuf_credits=downstream", "router.xbar_rate=2",
                                          "traffic.packet_length=8", NULL});
}

/* Credits sent upstream by partition 0, wherever they are in the wheel. */
static uint32_t credits_sent(const struct net *n)
{
    uint32_t c = 0;
    for (size_t q = 0; q < (size_t)n->slots * n->nparts; q++)
        c += n->parts[0].credit[q].n;
    return c;
}

/* Router 5 of a 4x4 torus: input A holds output X (VC 0), an 8-flit
 * packet in its input VC, and X has 3 credits of the next router. With
 * buffers of their own all 8 flits cross (16 output slots), 3 take the
 * link, and all 8 input slots are credited upstream as they cross. With
 * FOGSim's accounting only the 3 with a credit cross, the other 5 wait
 * in the input VC, and the 3 input slots are credited as the flits leave
 * for the link. */
static void obuf_credits_accounting(void **state)
{
    (void)state;
    for (int down = 0; down < 2; down++) {
        struct saturn_config *cfg;
        struct net *n = test_net((const char *const[]){"network.k=4", "router.vcs=2",
                                                       "router.out_buf_flits=16",
                                                       "router.buf_flits=16",
                                                       down ? "router.obuf_credits=downstream"
                                                            : "router.obuf_credits=own",
                                                       "traffic.packet_length=8", NULL},
                                 &cfg);
        const uint32_t r = 5;
        uint32_t pid = net_packet_new(n, 0, 1, 8, false);
        struct ivc *a = hold(n, r, 0, 0, 2, 0, pid);
        for (uint16_t q = 2; q <= 8; q++)
            put_flit(n, r, 0, 0, (flit_t){pid, q, q == 8 ? FLIT_TAIL : 0});
        struct ovc *x = &n->ovcs[((size_t)r * n->P + 2) * n->V];
        x->credits = 3;
        for (int c = 0; c < 10; c++, n->now++)
            router_step(n, &n->parts[0], r);
        assert_int_equal(x->credits, 0);
        assert_int_equal(a->count, down ? 5 : 0);
        assert_int_equal(x->ob_count, down ? 0 : 5);
        assert_int_equal(credits_sent(n), down ? 3 : 8);
        test_net_free(n, cfg);
    }
}

/* Beyond saturation with the audit every cycle (each input VC's credits
 * upstream + its flits in input and output buffers, on the link and its
 * credits in flight equal its capacity), every packet arrives once and in
 * order: torus, and the Dragonfly preset with FOGSim's crossbar too. */
static void obuf_credits_survive_saturation(void **state)
{
    (void)state;
    torus_delivers("router.obuf_credits=downstream", "router.xbar_delay=1");
    df_preset_delivers((const char *const[]){"router.obuf_credits=downstream", NULL});
    df_preset_delivers((const char *const[]){"router.obuf_credits=downstream", "router.speedup=1",
                                             "router.xbar_rate=2", NULL});
}

/* downstream accounts for bounded output buffers that flits enter as
 * they cross, with the input-first allocator. */
static void obuf_credits_bad_input(void **state)
{
    (void)state;
    const char *const *cases[] = {
        (const char *const[]){"router.obuf_credits=downstream", NULL},
        (const char *const[]){"router.obuf_credits=downstream", "router.out_buf_unlimited=true",
                              NULL},
        (const char *const[]){"router.obuf_credits=downstream", "router.out_buf_flits=4",
                              "router.sw_alloc=islip", NULL},
        (const char *const[]){"router.obuf_credits=downstream", "router.out_buf_flits=4",
                              "router.xbar_delay=2", NULL}};
    const char *why[] = {"out_buf_flits", "out_buf_flits", "input_first", "xbar_delay"};
    for (int i = 0; i < 4; i++)
        refused(cases[i], "router.obuf_credits", why[i]);
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
        cmocka_unit_test(zero_load_islip),
        cmocka_unit_test(switch_allocators),
        cmocka_unit_test(vc_allocators),
        cmocka_unit_test(transit_priority),
        cmocka_unit_test(switch_hold),
        cmocka_unit_test(sw_hold_survives_saturation),
        cmocka_unit_test(islip_survives_saturation),
        cmocka_unit_test(islip_bad_input),
        cmocka_unit_test(va_stage),
        cmocka_unit_test(zero_load_xbar_rate),
        cmocka_unit_test(xbar_rate_drain),
        cmocka_unit_test(xbar_rate_stops),
        cmocka_unit_test(xbar_rate_survives_saturation),
        cmocka_unit_test(xbar_rate_bad_input),
        cmocka_unit_test(zero_load_obuf_credits),
        cmocka_unit_test(obuf_credits_accounting),
        cmocka_unit_test(obuf_credits_survive_saturation),
        cmocka_unit_test(obuf_credits_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
