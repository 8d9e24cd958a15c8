/* Engine invariants under load: conservation, credits in range, every
 * packet delivered once, in order, to its destination; the deadlock
 * watchdog; determinism. */
#include <stdio.h>
#include <string.h>

#include "experiment/sim.h"
#include "net/net_internal.h"
#include "support.h"

/* A saturated collective with the per-cycle audit on, in every mode: the
 * audit checks conservation and credits each cycle, the sinks check
 * destination, order and uniqueness, and the run ends only when every
 * packet has arrived. */
static void audit_every_mode_under_load(void **state)
{
    (void)state;
    const char *const modes[][8] = {
        {"router.switching=wormhole", NULL},
        {"router.switching=vct", "router.buf_flits=8", NULL},
        {"router.switching=unlimited", "router.buf_flits=0", NULL},
        {"router.out_buf_flits=4", "router.speedup=2", NULL},
        {"router.out_buf_flits=8", "router.switching=vct", "router.xbar_delay=2", NULL},
        {"router.route_delay=2", "router.credit_delay=3", "router.link_latency=2", "router.buf_flits=3", NULL},
        {"network.topology=mesh", "router.vcs=1", "router.buf_flits=2", NULL},
        {"routing.dateline=cumulative", "routing.tie=random", "traffic.pattern=torn", NULL},
    };
    for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++) {
        const char *kv[16] = {"network.k=6", "sim.workload=collective", "collective.packets=6",
                              "sim.check_invariants=true", "traffic.pattern=uniform"};
        int i = 5;
        for (int j = 0; modes[m][j]; j++)
            kv[i++] = modes[m][j];
        kv[i] = NULL;
        struct saturn_results r = test_run(kv);
        assert_int_equal(r.measured_delivered, 36 * 6);
        assert_int_equal(r.packet_latency.count, 36 * 6);
        assert_true(r.duration > 0);
        saturn_results_free(&r);
    }
}

/* Steady overload with the audit on (queues grow; nothing is lost). */
static void audit_steady_overload(void **state)
{
    (void)state;
    struct saturn_results r = test_run((const char *const[]){
        "network.k=5", "traffic.flit_rate=0.9", "steady.warmup=300", "steady.measure=600",
        "steady.drain_max=300", "sim.check_invariants=true", NULL});
    assert_true(r.saturated);
    assert_true(r.accepted < r.offered);
    saturn_results_free(&r);
}

static void same_seed_same_result(void **state)
{
    (void)state;
    const char *const kv[] = {"network.k=6", "traffic.flit_rate=0.3", "steady.warmup=500",
                              "steady.measure=2000", "sim.seed=7", "traffic.pattern=randperm", NULL};
    struct saturn_results a = test_run(kv), b = test_run(kv);
    assert_memory_equal(&a.packet_latency, &b.packet_latency, sizeof a.packet_latency);
    assert_true(a.accepted == b.accepted && a.offered == b.offered && a.hops_mean == b.hops_mean);
    assert_int_equal(a.cycles, b.cycles);
    assert_int_equal(a.hist_n, b.hist_n);
    assert_memory_equal(a.hist, b.hist, a.hist_n * sizeof *a.hist);
    const char *const kv2[] = {"network.k=6", "traffic.flit_rate=0.3", "steady.warmup=500",
                               "steady.measure=2000", "sim.seed=8", "traffic.pattern=randperm", NULL};
    struct saturn_results c = test_run(kv2);
    assert_true(c.packet_latency.mean != a.packet_latency.mean);
    saturn_results_free(&a);
    saturn_results_free(&b);
    saturn_results_free(&c);
}

/* A torus ring without datelines and one VC deadlocks under load; the
 * watchdog must stop it and name the cycle of waiting VCs. */
static void watchdog_reports_deadlock(void **state)
{
    (void)state;
    struct saturn_config *c = test_config((const char *const[]){
        "network.k=8", "network.n=1", "router.vcs=1", "routing.dateline=none",
        "debug.allow_deadlock=true", "traffic.flit_rate=0.9", "router.buf_flits=2",
        "sim.watchdog=200", NULL});
    struct saturn_error err = {0};
    struct saturn_results r;
    assert_int_equal(saturn_run(c, &r, &err), SATURN_EDEADLOCK);
    assert_non_null(strstr(err.msg, "deadlock"));
    assert_non_null(strstr(err.msg, "wait-for cycle"));
    assert_non_null(strstr(err.msg, "(closed)"));
    saturn_config_free(c);
    /* The same network with its datelines does not deadlock. */
    struct saturn_results ok = test_run((const char *const[]){
        "network.k=8", "network.n=1", "router.vcs=2", "traffic.flit_rate=0.9",
        "router.buf_flits=2", "sim.watchdog=200", "steady.warmup=1000", "steady.measure=3000",
        "steady.drain_max=2000", NULL});
    saturn_results_free(&ok);
}

/* Without the test-only switch, the deadlock-prone configuration is refused. */
static void deadlock_prone_config_refused(void **state)
{
    (void)state;
    struct saturn_config *c = test_config((const char *const[]){
        "network.k=8", "network.n=1", "router.vcs=1", "routing.dateline=none", NULL});
    struct saturn_error err = {0};
    struct saturn_results r;
    assert_int_equal(saturn_run(c, &r, &err), SATURN_EINPUT);
    assert_non_null(strstr(err.msg, "routing.dateline = none"));
    saturn_config_free(c);
}

static void collective_counts_every_packet(void **state)
{
    (void)state;
    struct saturn_results r = test_run((const char *const[]){
        "network.k=8", "sim.workload=collective", "collective.packets=10",
        "traffic.pattern=bitcomp", NULL});
    assert_int_equal(r.measured_packets, 640);
    assert_int_equal(r.measured_delivered, 640);
    /* bit-complement on an 8x8 torus: x -> 7 - x, ring distances 1, 3, 3, 1,
     * so 2 hops per dimension on average, exactly. */
    assert_true(r.hops_mean > 3.999 && r.hops_mean < 4.001);
    /* Lower bound: each node injects 80 flits through a 1 flit/cycle channel. */
    assert_true(r.duration >= 80);
    saturn_results_free(&r);
}

/* router.inject_vcs: a node's packets enter on the first VCs only (1: VC 0,
 * paper 000's wording); more than router.vcs is refused. */
static void injection_vcs(void **state)
{
    (void)state;
    struct saturn_config *cfg;
    struct net *n = test_net((const char *const[]){"network.k=4", "router.vcs=3",
                                                   "router.inject_vcs=1", NULL}, &cfg);
    for (uint32_t r = 0; r < n->topo.routers; r++)
        assert_int_equal(n->ports[r * (uint32_t)n->P + (uint32_t)n->topo.radix].nvc, 1);
    assert_int_equal(n->ports[0].nvc, 3);
    for (int i = 0; i < 40; i++) /* every packet takes VC 0 */
        net_packet_new(n, 0, 5, 4, true);
    for (int c = 0; c < 200; c++) {
        assert_int_equal(net_step(n), SATURN_OK);
        uint32_t gp = (uint32_t)topo_node_router(&n->topo, 0) * (uint32_t)n->P +
                      (uint32_t)topo_node_port(&n->topo, 0);
        assert_true((n->ports[gp].nonempty & ~1ULL) == 0);
        assert_true(net_audit(n));
    }
    assert_int_equal(n->packets_delivered, 40);
    test_net_free(n, cfg);
    struct saturn_config *c = saturn_config_new();
    struct saturn_error err = {0};
    assert_int_equal(saturn_config_set(c, "router.inject_vcs", "4", NULL, 0, &err), SATURN_OK);
    struct saturn_sim *sim = NULL;
    assert_int_equal(saturn_sim_create(c, &sim, &err), SATURN_EINPUT);
    assert_non_null(strstr(err.msg, "router.inject_vcs"));
    saturn_config_free(c);
}

/* The audit is not vacuous: a lost credit, a lost flit or a link's far VC
 * kept wrong (without output buffers, in ob_head's place) is caught. */
static void audit_catches_corruption(void **state)
{
    (void)state;
    struct saturn_config *c = test_config((const char *const[]){"network.k=4", NULL});
    struct saturn_error err = {0};
    struct net n;
    assert_int_equal(net_create(&n, c, 1, &err), SATURN_OK);
    net_packet_new(&n, 0, 2, 8, true);
    for (int i = 0; i < 3; i++)
        assert_int_equal(net_step(&n), SATURN_OK);
    assert_true(net_audit(&n));
    n.ovcs[0].credits--; /* router 0, port +x, vc 0 */
    assert_false(net_audit(&n));
    assert_non_null(strstr(n.fail_msg, "credits"));
    n.ovcs[0].credits++;
    n.failed = false;
    n.flits_in_net++;
    assert_false(net_audit(&n));
    assert_non_null(strstr(n.fail_msg, "flits"));
    n.flits_in_net--;
    n.failed = false;
    assert_true(net_audit(&n));
    n.ovcs[1].far_arrival++; /* router 0, port +x, vc 1 */
    assert_false(net_audit(&n));
    assert_non_null(strstr(n.fail_msg, "arrival entry"));
    net_destroy(&n);
    saturn_config_free(c);
}

/* The audit catches an input VC holding flits whose bit its port's mask of
 * VCs holding flits lost (the routers' cycle would never look at it). */
static void audit_catches_lost_vc_bit(void **state)
{
    (void)state;
    struct saturn_config *cfg;
    struct net *n = test_net((const char *const[]){"network.k=4", NULL}, &cfg);
    /* four sources into one node: its ejection holds the others' flits back */
    for (uint32_t src = 0; src < 4; src++)
        if (src != 2)
            for (int k = 0; k < 4; k++)
                net_packet_new(n, src, 2, 8, true);
    const size_t nvc = (size_t)n->topo.routers * n->P * n->V;
    size_t held = SIZE_MAX;
    for (int t = 0; held == SIZE_MAX && t < 50; t++) {
        assert_int_equal(net_step(n), SATURN_OK);
        for (size_t i = 0; held == SIZE_MAX && i < nvc; i++)
            if (n->ivcs[i].count > 0)
                held = i;
    }
    assert_true(held != SIZE_MAX);
    assert_true(net_audit(n));
    n->ports[held / n->V].nonempty &= ~(1ULL << (held % n->V));
    assert_false(net_audit(n));
    assert_non_null(strstr(n->fail_msg, "mask of VCs holding flits"));
    test_net_free(n, cfg);
}

/* A node takes at most one flit per cycle, whatever the router's speedup. */
static void ejection_is_one_flit_per_cycle(void **state)
{
    (void)state;
    struct saturn_results r = test_run((const char *const[]){
        "network.k=4", "sim.workload=collective", "collective.packets=20", "traffic.pattern=hotspot",
        "traffic.hotspot_fraction=1", "router.out_buf_flits=16", "router.speedup=4",
        "sim.check_invariants=true", NULL});
    /* node 0 receives 15 x 20 x 8 flits, its own packets go to itself too */
    assert_true(r.duration >= 16 * 20 * 8 - 1);
    saturn_results_free(&r);
}

/* Fewer VCs than the dateline scheme's classes (debug only) stays in range. */
static void too_few_vcs_stays_in_range(void **state)
{
    (void)state;
    struct saturn_results r = test_run((const char *const[]){
        "network.k=4", "router.vcs=1", "routing.dateline=cumulative", "debug.allow_deadlock=true",
        "sim.check_invariants=true", "sim.workload=collective", "collective.packets=1", NULL});
    saturn_results_free(&r);
}

/* The watchdog cannot be shorter than the network's own delays. */
static void watchdog_longer_than_delays(void **state)
{
    (void)state;
    struct saturn_config *c = test_config((const char *const[]){
        "router.credit_delay=60", "sim.watchdog=50", NULL});
    struct saturn_error err = {0};
    struct saturn_results r;
    assert_int_equal(saturn_run(c, &r, &err), SATURN_EINPUT);
    assert_non_null(strstr(err.msg, "sim.watchdog = 50"));
    saturn_config_free(c);
}

/* The flits listed to arrive at each input VC (net_send_deferred's
 * entries, three words each, in every partition's arrival slots), into
 * listed[0 .. routers * P * V), as the audit counts them. */
static void count_listed(const struct net *n, uint32_t *listed)
{
    const size_t nvc = (size_t)n->topo.routers * (size_t)n->P * (size_t)n->V;
    memset(listed, 0, nvc * sizeof *listed);
    const uint32_t nlong = n->wheel_shared ? n->nthreads : 1;
    for (size_t b = 0; b < (size_t)n->slots * n->nparts * nlong; b++) {
        const struct creditq *q =
            &n->parts[b / n->slots / nlong].arrive_by[b / n->slots % nlong][b % n->slots];
        for (uint32_t j = 0; j < q->n; j += 3)
            listed[(size_t)(q->i[j] >> 6) * (size_t)n->V + (q->i[j] & 63)]++;
    }
}

/* Arrivals without events (net_send_deferred): a flit sent on a bounded
 * link or injected into a bounded injection VC is listed to arrive from
 * the cycle it leaves, its entry carrying it, but neither that VC's count
 * nor any mask or counter of its router shows it before it arrives,
 * link_latency (inject_latency) cycles later; the audit counts it on its
 * way, and catches an entry listed for the wrong VC. */
static void flit_on_link_unseen_until_it_arrives(void **state)
{
    (void)state;
    struct saturn_config *cfg;
    struct net *n = test_net((const char *const[]){"network.k=4", "router.link_latency=3",
                                                   "router.inject_latency=2", NULL},
                             &cfg);
    net_packet_new(n, 0, 1, 1, true); /* one flit, one hop */
    const size_t nvc = (size_t)n->topo.routers * (size_t)n->P * (size_t)n->V;
    uint32_t *listed = calloc(nvc, sizeof *listed);
    assert_non_null(listed);
    /* [0]: the injection VC's, [1]: the network VC's at the next router */
    long sent[2] = {-1, -1}, arrived[2] = {-1, -1};
    size_t which[2] = {0, 0};
    bool corrupted = false;
    for (long c = 0; c < 40 && !n->packets_delivered; c++) {
        assert_int_equal(net_step(n), SATURN_OK);
        assert_true(net_audit(n));
        count_listed(n, listed);
        for (size_t i = 0; i < nvc; i++) {
            struct ivc *iv = &n->ivcs[i];
            const uint32_t gp = (uint32_t)(i / (size_t)n->V), r = n->ports[gp].rp >> 6;
            if (listed[i]) {
                assert_int_equal(listed[i], 1);
                const int k = n->ports[gp].kind == PORT_NET;
                if (sent[k] < 0) {
                    sent[k] = c;
                    which[k] = i;
                }
                assert_int_equal(iv->count, 0);
                assert_int_equal(iv->run, 0);
                assert_int_equal(n->ports[gp].nonempty, 0);
                assert_int_equal(n->rports[r], 0);
                assert_int_equal(n->rocc[r], 0);
                assert_int_equal(n->rnvc[r], 0);
                assert_false((n->router_active[r >> 6] >> (r & 63)) & 1);
                if (!corrupted) { /* an entry naming the next VC: the audit sees it */
                    corrupted = true;
                    uint32_t *x = NULL;
                    for (uint32_t p = 0; p < n->nparts && !x; p++)
                        for (uint32_t s = 0; s < n->slots && !x; s++) {
                            struct creditq *q = &n->parts[p].arrive_by[0][s];
                            for (uint32_t j = 0; j < q->n && !x; j += 3)
                                if ((size_t)(q->i[j] >> 6) * (size_t)n->V + (q->i[j] & 63) == i)
                                    x = &q->i[j];
                        }
                    assert_non_null(x);
                    *x ^= 1; /* VC 0 <-> 1 of the same port */
                    assert_false(net_audit(n));
                    *x ^= 1;
                    n->failed = false;
                    assert_true(net_audit(n));
                }
            }
        }
        for (int k = 0; k < 2; k++) /* counted in (and maybe sent on) this cycle */
            if (sent[k] >= 0 && arrived[k] < 0 && !listed[which[k]])
                arrived[k] = c;
    }
    assert_int_equal(n->packets_delivered, 1);
    assert_true(sent[0] >= 0 && sent[1] > sent[0]);
    assert_int_equal(arrived[0] - sent[0], 2);
    assert_int_equal(arrived[1] - sent[1], 3);
    free(listed);
    test_net_free(n, cfg);
}

/* A crossing's credit goes into the queue of its input port's credit class
 * (struct port credit, n->ccls; w->cq for the cycle) and is back upstream exactly
 * router.credit_delay cycles after the flit left the input buffer: the
 * injection VC's at the node, the network VC's at the sending router,
 * never out of range. The audit catches a port whose credits would go to
 * the wrong counter or class. */
static void credit_back_after_its_delay(void **state)
{
    (void)state;
    for (int k = 0; k < 2; k++) {
        struct saturn_config *cfg;
        struct net *n = test_net((const char *const[]){"network.k=4", "router.credit_delay=3",
                                                       k ? "router.speedup=2" : "router.speedup=1",
                                                       NULL},
                                 &cfg);
        assert_int_equal(n->nccls, 1); /* one thread, one credit latency */
        assert_int_equal(n->ccls[0], 3u << 16);
        const uint32_t pid = net_packet_new(n, 0, 1, 1, true); /* one flit, one hop */
        const size_t nvc = (size_t)n->topo.routers * (size_t)n->P * (size_t)n->V;
        const int32_t cap = (int32_t)n->buf_cap;
        long left_inj = -1, inj_back = -1, left_net = -1, net_back = -1;
        /* The flit may reach a VC and leave it in one cycle, and an emptied
         * ring starts again at slot 0 (net_ivc_take): its front tells
         * nothing. It left the injection VC in the cycle it took the link
         * (its packet's hop), and the network VC in the cycle that VC's
         * count fell, or its flits listed to arrive fell with the count not
         * rising (it arrived and left). */
        uint32_t *count = calloc(nvc, sizeof *count), *was_listed = calloc(nvc, sizeof *was_listed),
                 *listed = calloc(nvc, sizeof *listed);
        assert_true(count && was_listed && listed);
        bool net_out = false, inj_out = false;
        for (long c = 0; c < 40; c++) {
            assert_int_equal(net_step(n), SATURN_OK);
            assert_true(net_audit(n));
            bool net_low = false, inj_low = false;
            count_listed(n, listed);
            for (size_t i = 0; i < nvc; i++) {
                const struct port *pt = &n->ports[i / (size_t)n->V];
                if (pt->kind == PORT_NET && n->ovcs[i].credits != cap) {
                    assert_true(n->ovcs[i].credits >= 0 && n->ovcs[i].credits < cap);
                    net_low = true;
                }
                const struct ivc *iv = &n->ivcs[i];
                if (pt->kind == PORT_NET && (iv->count < count[i] ||
                                             (listed[i] < was_listed[i] && iv->count == count[i])))
                    left_net = c; /* the flit left this input VC in cycle c */
                count[i] = iv->count;
                was_listed[i] = listed[i];
            }
            if (left_inj < 0 && n->pk[pid].hops)
                left_inj = c;
            for (size_t i = 0; i < (size_t)n->nnodes * (size_t)n->V; i++)
                if (n->inj_credits[i] != cap) {
                    assert_true(n->inj_credits[i] >= 0 && n->inj_credits[i] < cap);
                    inj_low = true;
                }
            if (net_out && !net_low && net_back < 0)
                net_back = c;
            if (inj_out && !inj_low && inj_back < 0)
                inj_back = c;
            net_out |= net_low;
            inj_out |= inj_low;
        }
        assert_int_equal(n->packets_delivered, 1);
        assert_true(left_inj >= 0 && left_net > left_inj);
        assert_int_equal(inj_back - left_inj, 3);
        assert_int_equal(net_back - left_net, 3);
        free(count);
        free(was_listed);
        free(listed);
        /* a port whose credits would go elsewhere */
        for (size_t gp = 0; gp < nvc / (size_t)n->V; gp++)
            if (n->ports[gp].kind == PORT_NET) {
                n->ports[gp].credit.ctr += (uint32_t)n->V;
                assert_false(net_audit(n));
                assert_non_null(strstr(n->fail_msg, "credits to counter"));
                n->ports[gp].credit.ctr -= (uint32_t)n->V;
                n->failed = false;
                n->ports[gp].credit.cls = 1;
                assert_false(net_audit(n));
                n->ports[gp].credit.cls = 0;
                n->failed = false;
                assert_true(net_audit(n));
                break;
            }
        test_net_free(n, cfg);
    }
}

/* router_step_plain1 picks among the ready VCs (n->vready): those holding
 * an output VC with room. A packet longer than the buffers runs its output
 * VC out of credits: its input VC leaves the mask, comes back when a credit
 * returns, leaves at the tail; the audit checks the mask every cycle and
 * catches a VC wrongly in it. */
static void ready_mask_follows_room(void **state)
{
    (void)state;
    struct saturn_config *cfg;
    struct net *n = test_net((const char *const[]){"network.k=4", "router.buf_flits=2",
                                                   "router.credit_delay=3", NULL},
                             &cfg);
    assert_true(router_keeps_ready(n));
    assert_non_null(n->vready);
    net_packet_new(n, 0, 2, 16, true); /* 16 flits, two hops along x */
    const size_t nvc = (size_t)n->topo.routers * (size_t)n->P * (size_t)n->V;
    bool blocked = false, ready = false, corrupted = false;
    for (long c = 0; c < 200 && !n->packets_delivered; c++) {
        assert_int_equal(net_step(n), SATURN_OK);
        assert_true(net_audit(n));
        for (size_t i = 0; i < nvc; i++) {
            const size_t gp = i / (size_t)n->V, v = i % (size_t)n->V;
            const bool bit = (n->vready[gp] >> v) & 1;
            if (n->ivcs[i].state == IVC_ACTIVE) {
                blocked |= !bit;
                ready |= bit;
            } else {
                assert_false(bit);
                if (!corrupted) {
                    corrupted = true;
                    n->vready[gp] |= 1ULL << v;
                    assert_false(net_audit(n));
                    assert_non_null(strstr(n->fail_msg, "ready mask"));
                    n->vready[gp] &= ~(1ULL << v);
                    n->failed = false;
                    assert_true(net_audit(n));
                }
            }
        }
    }
    assert_int_equal(n->packets_delivered, 1);
    assert_true(blocked && ready && corrupted);
    for (size_t gp = 0; gp < (size_t)n->topo.routers * (size_t)n->P; gp++)
        assert_int_equal(n->vready[gp], 0); /* every VC idle again */
    test_net_free(n, cfg);
}

/* One run; force: onto router_step_any (n->links_taken, read only by
 * router_step_for: no hook takes a link here, so only the router's cycle
 * changes); one_wheel: with a single timing wheel (n->nnear 0, as a network
 * whose delays are alike has). *sp keeps the network for inspection. */
static struct saturn_results sim_run_kv(const char *const *kv, bool force, bool one_wheel,
                                        struct saturn_sim **sp)
{
    struct saturn_config *c = test_config(kv);
    struct saturn_error err = {0};
    struct saturn_sim *s = NULL;
    assert_int_equal(saturn_sim_create(c, &s, &err), SATURN_OK);
    if (force) /* (a hook that takes links, Disha's lane, has set it already) */
        s->net.links_taken = true;
    if (one_wheel) {
        s->net.nnear = 0;
        net_wheel_build(&s->net);
    }
    struct saturn_results r;
    if (saturn_sim_run(s, &r, &err))
        fail_msg("%s", err.msg);
    saturn_config_free(c);
    *sp = s;
    return r;
}

static struct saturn_results links_run(const char *const *kv, bool force, struct saturn_sim **sp)
{
    return sim_run_kv(kv, force, false, sp);
}

static void same_latency(const struct saturn_latency *a, const struct saturn_latency *b)
{
    assert_int_equal(a->count, b->count);
    assert_true(a->mean == b->mean && a->min == b->min && a->p50 == b->p50 && a->p99 == b->p99 &&
                a->max == b->max);
}

/* The results a fast router cycle and router_step_any share on one run. */
static void same_results(const struct saturn_results *f, const struct saturn_results *a)
{
    assert_int_equal(f->measured_packets, a->measured_packets);
    assert_int_equal(f->measured_delivered, a->measured_delivered);
    assert_int_equal(f->duration, a->duration);
    assert_int_equal(f->cycles, a->cycles);
    assert_int_equal(f->thickness, a->thickness);
    assert_int_equal(f->flit_hops, a->flit_hops);
    assert_true(f->hops_mean == a->hops_mean && f->accepted == a->accepted);
    assert_true(f->misrouted_global == a->misrouted_global &&
                f->misrouted_local == a->misrouted_local);
    same_latency(&f->packet_latency, &a->packet_latency);
    same_latency(&f->network_latency, &a->network_latency);
    assert_true(f->mobility_mean == a->mobility_mean);
    assert_true(f->valid_per_router == a->valid_per_router);
    assert_true(f->throttled_mean == a->throttled_mean && f->entropy_mean == a->entropy_mean);
    assert_int_equal(f->hist_n, a->hist_n);
    assert_memory_equal(f->hist, a->hist, f->hist_n * sizeof *f->hist);
}

/* same_results, then both runs freed (results and simulations). */
static void same_results_free(struct saturn_results *f, struct saturn_results *a,
                              struct saturn_sim *sf, struct saturn_sim *sa)
{
    same_results(f, a);
    saturn_results_free(f);
    saturn_results_free(a);
    saturn_sim_free(sf);
    saturn_sim_free(sa);
}

/* kv: the nb settings of base, then those of extra (NULL-terminated). */
static void join_kv(const char **kv, const char *const *base, size_t nb, const char *const *extra)
{
    size_t m = 0;
    for (size_t i = 0; i < nb; i++)
        kv[m++] = base[i];
    for (size_t i = 0; extra && extra[i]; i++)
        kv[m++] = extra[i];
    kv[m] = NULL;
}

/* A fast router cycle against router_step_any on one case (base's nb
 * settings, then the case's keys, extra): both runs, check's asserts on
 * which cycle ran (case k, the fast run's results f), some packets
 * delivered, and the same results both ways. */
typedef void (*cycle_check_fn)(const struct saturn_sim *fast, const struct saturn_sim *any,
                               const struct saturn_results *f, size_t k);
static void fast_cycle_case(const char *const *base, size_t nb, const char *const *extra,
                            size_t k, cycle_check_fn check)
{
    const char *kv[32];
    join_kv(kv, base, nb, extra);
    struct saturn_sim *sf, *sa;
    struct saturn_results f = links_run(kv, false, &sf), a = links_run(kv, true, &sa);
    check(sf, sa, &f, k);
    assert_false(router_step_for(&sf->net) == router_step_for(&sa->net));
    assert_true(f.measured_delivered > 0);
    same_results_free(&f, &a, sf, sa);
}

/* A 72-node Dragonfly at speedup 1 with OLM's switch-crossing record
 * (n->xbar_last: the speedup-1 cycle through its step function, or
 * run_plain1), audited every cycle. */
static const char *const df_olm_busy[] = {
    "network.topology=dragonfly", "dragonfly.p=2",    "dragonfly.a=4",
    "dragonfly.h=2",              "routing.algorithm=olm", "olm.trigger=busy",
    "router.vcs=4",               "sim.check_invariants=true"};

/* Link records (a collective's, net_record_links) are kept by the
 * speedup-1 cycle (router_step_plain1_rec, inlined in the loop with and
 * without the entropy circuit's per-router record, or through the step
 * function with the switch-crossing record) as by router_step_any: each
 * network runs both ways, with the audit (the ready mask among it) every
 * cycle, and every link's record, the delivery times and the controller's
 * sums are the same; the records count every hop. */
static void link_records_fast_cycle_same(void **state)
{
    (void)state;
    const char *const base[] = {
        "network.k=8",         "sim.workload=collective", "collective.packets=10",
        "router.vcs=3",        "router.buf_flits=15",     "routing.dateline=cumulative",
        "routing.tie=random",  "router.xbar_delay=0",     "router.route_delay=0",
        "sim.check_invariants=true"};
    const char *const cases[][8] = {
        {"traffic.pattern=torn", NULL},
        {"traffic.pattern=uniform", "control.model=gt.a", "entropy.info=circuit", "entropy.tg=4",
         "entropy.ron=70", "entropy.roff=90", "entropy.rn=30", NULL},
        {"traffic.pattern=bitcomp", "control.model=gt.x", "entropy.info=vcc", "network.k=16",
         "sim.threads=2", NULL},
        {"traffic.pattern=uniform", "network.k=16", "sim.threads=4", NULL},
        {"!df", NULL}, /* the Dragonfly at speedup 1 with OLM's switch-crossing record */
        /* VCT: a head needs room for its packet (alloc_vcs' one-candidate scan).
         * Every case also compares plain1_step's skip of the waiting heads
         * noted hopeless (n->va_hope; va_hope_fast_cycle_same) with RM_ANY,
         * which allocates every cycle */
        {"traffic.pattern=uniform", "router.switching=vct", "network.k=16", NULL},
    };
    const char *const df[] = {"sim.workload=collective", "collective.packets=10",
                              "traffic.pattern=uniform", NULL};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const char *kv[32];
        const bool isdf = !strcmp(cases[k][0], "!df");
        if (isdf)
            join_kv(kv, df_olm_busy, sizeof df_olm_busy / sizeof df_olm_busy[0], df);
        else
            join_kv(kv, base, sizeof base / sizeof base[0], cases[k]);
        struct saturn_sim *sf, *sa;
        struct saturn_results f = links_run(kv, false, &sf), a = links_run(kv, true, &sa);
        const struct net *nf = &sf->net, *na = &sa->net;
        /* the fast cycle ran (its ready mask kept), the other not */
        assert_non_null(nf->link_first);
        assert_true(router_keeps_ready(nf));
        assert_false(router_keeps_ready(na));
        if (isdf)
            assert_non_null(nf->xbar_last);
        if (k == 1)
            assert_true(nf->router_mob);
        if (k == 2 || k == 3)
            assert_true(f.threads > 1 && f.threads == a.threads);
        assert_int_equal(f.measured_delivered, f.measured_packets);
        same_results(&f, &a);
        const size_t nports = (size_t)nf->topo.routers * (size_t)nf->P;
        assert_memory_equal(nf->link_first, na->link_first, nports * sizeof *nf->link_first);
        assert_memory_equal(nf->link_last, na->link_last, nports * sizeof *nf->link_last);
        assert_memory_equal(nf->link_busy, na->link_busy, nports * sizeof *nf->link_busy);
        assert_memory_equal(nf->node_span, na->node_span, nf->nnodes * 4 * sizeof *nf->node_span);
        uint64_t busy = 0; /* every router-to-router move recorded once */
        assert_int_equal(f.nlinks, a.nlinks);
        for (size_t i = 0; i < f.nlinks; i++) {
            assert_int_equal(f.links[i].router, a.links[i].router);
            assert_int_equal(f.links[i].port, a.links[i].port);
            assert_int_equal(f.links[i].first, a.links[i].first);
            assert_int_equal(f.links[i].last, a.links[i].last);
            assert_int_equal(f.links[i].busy, a.links[i].busy);
            busy += f.links[i].busy;
        }
        assert_true(f.flit_hops > 0);
        assert_int_equal(busy, f.flit_hops);
        if (k == 1) /* the throttle acted */
            assert_true(f.throttled_mean > 0);
        saturn_results_free(&f);
        saturn_results_free(&a);
        saturn_sim_free(sf);
        saturn_sim_free(sa);
    }
}

/* The speedup-1 cycle skips VC allocation for the waiting heads it noted
 * hopeless (every output VC of their route owned: n->va_hope, n->va_hp)
 * until an output VC they ask for frees (n->va_on); router_step_any
 * allocates for every waiting head every cycle. Congested runs where the
 * notes are taken and dropped often, each with the audit every cycle (it
 * checks each noted head still waits and finds its VCs owned), give the
 * same results both ways: collectives without throttling (paper 000's
 * noth) and with it, routes over VC ranges (two VCs a class, so a freed
 * VC wakes heads noted on its neighbour), atomic VC allocation and VCT (a
 * VC without an owner that a head still cannot take: no note), a routing
 * delay, two threads, and a saturated steady run. */
static void va_hope_check(const struct saturn_sim *fast, const struct saturn_sim *any,
                          const struct saturn_results *f, size_t k)
{
    (void)k;
    const struct net *nf = &fast->net;
    /* the fast cycle ran (with its notes), the other not */
    assert_true(router_keeps_ready(nf) && nf->va_hp);
    assert_false(router_keeps_ready(&any->net));
    /* heads were noted: the audit found notes standing */
    assert_true(nf->audit_noted > 0);
    assert_true(f->flit_hops > 0);
}

static void va_hope_fast_cycle_same(void **state)
{
    (void)state;
    const char *const base[] = {"network.k=8",          "router.vcs=3",
                                "router.buf_flits=4",   "routing.dateline=cumulative",
                                "routing.tie=random",   "sim.check_invariants=true"};
    const char *const cases[][8] = {
        {"sim.workload=collective", "collective.packets=12", "traffic.pattern=rand", NULL},
        {"sim.workload=collective", "collective.packets=10", "traffic.pattern=uniform",
         "control.model=gt.a", "entropy.info=circuit", "entropy.tg=4", NULL},
        {"sim.workload=collective", "collective.packets=10", "traffic.pattern=torn",
         "router.vcs=6", NULL},
        {"sim.workload=collective", "collective.packets=8", "traffic.pattern=uniform",
         "router.atomic_vc=true", "router.vcs=6", NULL},
        {"sim.workload=collective", "collective.packets=8", "traffic.pattern=bitcomp",
         "router.switching=vct", "router.buf_flits=8", "traffic.packet_length=4", NULL},
        {"sim.workload=collective", "collective.packets=10", "traffic.pattern=uniform",
         "router.route_delay=2", "sim.threads=2", NULL},
        {"traffic.flit_rate=0.9", "steady.warmup=200", "steady.measure=400",
         "steady.drain_max=400", "traffic.pattern=uniform", NULL},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
        fast_cycle_case(base, sizeof base / sizeof base[0], cases[k], k, va_hope_check);
}

/* BookSim 2's router at speedup 1 (router_step_islip1: iSLIP in both
 * stages) notes hopeless heads as the speedup-1 cycle does (va_islip_none)
 * and skips them; router_step_any asks for them every cycle. Saturated
 * steady runs on the torus (with the VC allocation stage, VCT, atomic VC
 * allocation, two threads) and the Dragonfly under BookSim's minimal
 * routing give the same results both ways, each with the audit every
 * cycle (it checks each noted head still waits and finds its VCs owned). */
static void va_hope_islip_check(const struct saturn_sim *fast, const struct saturn_sim *any,
                                const struct saturn_results *f, size_t k)
{
    va_hope_check(fast, any, f, k);
    assert_true(fast->net.va_islip && fast->net.sw_islip);
}

static void va_hope_islip_cycle_same(void **state)
{
    (void)state;
    const char *const base[] = {"router.sw_alloc=islip", "router.vc_alloc=islip",
                                "router.vcs=4",          "router.buf_flits=4",
                                "steady.warmup=200",     "steady.measure=400",
                                "steady.drain_max=400",  "sim.check_invariants=true"};
    const char *const cases[][10] = {
        {"network.k=8", "traffic.flit_rate=0.9", "router.va_stage=true", NULL},
        {"network.k=8", "traffic.flit_rate=0.6", "traffic.pattern=tornado", NULL},
        {"network.k=8", "traffic.flit_rate=0.9", "router.switching=vct", "router.buf_flits=8",
         "traffic.packet_length=4", NULL},
        {"network.k=8", "traffic.flit_rate=0.9", "router.atomic_vc=true", "sim.threads=2",
         NULL},
        {"network.topology=dragonfly", "dragonfly.p=2", "dragonfly.a=4", "dragonfly.h=2",
         "routing.algorithm=booksim_min", "routing.reroute=once", "traffic.flit_rate=0.9",
         "router.vcs=3", NULL},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
        fast_cycle_case(base, sizeof base / sizeof base[0], cases[k], k, va_hope_islip_check);
}

/* The speedup-1 cycle of a steady run (no link records) sends the one
 * input port holding flits of a router straight through the switch,
 * without the requests' masks (plain1_step); router_step_any allocates as
 * always. Light and moderate loads, where most active routers hold one
 * busy port, with two VCs a class (the port's VC pointer picks among
 * several ready VCs), VCT, eight-VC ports, two threads, and the Dragonfly
 * at speedup 1 with OLM's switch-crossing record (run_plain1): the same
 * results both ways, with the audit every cycle. */
static void one_port_check(const struct saturn_sim *fast, const struct saturn_sim *any,
                           const struct saturn_results *f, size_t k)
{
    (void)k;
    /* the fast cycle ran without link records, the other not */
    assert_true(router_keeps_ready(&fast->net) && !fast->net.link_first);
    assert_false(router_keeps_ready(&any->net));
    assert_true(f->flit_hops > 0);
}

static void one_port_fast_cycle_same(void **state)
{
    (void)state;
    const char *const base[] = {"network.k=8",        "router.vcs=6",
                                "router.buf_flits=4", "routing.dateline=cumulative",
                                "routing.tie=random", "steady.warmup=300",
                                "steady.measure=600", "steady.drain_max=600",
                                "sim.check_invariants=true"};
    const char *const cases[][6] = {
        {"traffic.flit_rate=0.1", "traffic.pattern=uniform", NULL},
        {"traffic.flit_rate=0.35", "traffic.pattern=uniform", "traffic.packet_length=2", NULL},
        {"traffic.flit_rate=0.25", "traffic.pattern=torn", "router.vcs=8", NULL},
        {"traffic.flit_rate=0.3", "router.switching=vct", "router.buf_flits=8",
         "traffic.packet_length=4", NULL},
        {"traffic.flit_rate=0.3", "network.k=16", "sim.threads=2", NULL},
        {"!df", NULL},
    };
    const char *const df[] = {"traffic.flit_rate=0.3", "steady.warmup=300", "steady.measure=600",
                              NULL};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
        if (!strcmp(cases[k][0], "!df"))
            fast_cycle_case(df_olm_busy, sizeof df_olm_busy / sizeof df_olm_busy[0], df, k,
                            one_port_check);
        else
            fast_cycle_case(base, sizeof base / sizeof base[0], cases[k], k, one_port_check);
}

/* The torus's loop has an instance for networks whose buffers are all
 * bounded, whose every port counts in the mobility and whose links all
 * take router.link_latency cycles, without router.va_stage or
 * router.atomic_vc (run_plain1_tor, router_tor_loop: no test of a port's
 * capacity, an output's unlimited room or the mobility's ports a crossing,
 * this cycle's arrival queue taken as it is; an output VC free when it has
 * no owner), and without output buffers no router counts its
 * flits (n->rocc): the routers' loop drops a router once its input ports
 * hold none (n->rports). Each case runs by the speedup-1 cycle and by
 * router_step_any, with the audit every cycle (it checks rports, that a
 * router holding flits is active and rocc stays 0): the same results. The
 * cases: that instance (uniform, torn with 2-flit packets on two
 * threads), the others: entropy.buffers = network, unlimited buffers, a
 * graph whose chord takes 3 cycles (the other links 1: in the torus's
 * loop its flits would arrive early), router.va_stage, router.atomic_vc. */
static void bounded_check(const struct saturn_sim *fast, const struct saturn_sim *any,
                          const struct saturn_results *f, size_t k)
{
    static const bool tor[] = {true, true, false, false, false, false, false};
    const struct net *n = &fast->net;
    assert_true(router_keeps_ready(n) && !n->link_first && !n->obuf_on);
    assert_false(router_keeps_ready(&any->net));
    assert_int_equal(router_tor_loop(n), tor[k]);
    assert_int_equal(n->bounded, k != 3);
    assert_int_equal(n->mob_ports == net_all_ports(n), k != 2);
    assert_int_equal(n->lat_uniform, k != 4);
    assert_true(f->flit_hops > 0);
}

static void bounded_fast_cycle_same(void **state)
{
    char path[700];
    snprintf(path, sizeof path, "file.path=%s",
             test_put_file(*state, "chord.net",
                           "routers 6\nnodes all 2\n"
                           "link 0 1\nlink 1 2\nlink 2 3\nlink 3 4\nlink 4 5\nlink 5 0\n"
                           "link 0 3 latency=3\n"));
    const char *const base[] = {"network.k=8",        "router.vcs=4",
                                "steady.warmup=300",  "steady.measure=600",
                                "steady.drain_max=600", "sim.check_invariants=true"};
    const char *const cases[][6] = {
        {"traffic.flit_rate=0.3", NULL},
        {"traffic.flit_rate=0.4", "traffic.pattern=torn", "traffic.packet_length=2",
         "sim.threads=2", NULL},
        {"traffic.flit_rate=0.3", "entropy.buffers=network", NULL},
        {"traffic.flit_rate=0.3", "router.buf_flits=0", NULL},
        {"network.topology=file", path, "routing.algorithm=min", "traffic.flit_rate=0.3", NULL},
        {"traffic.flit_rate=0.3", "router.va_stage=true", NULL},
        {"traffic.flit_rate=0.3", "router.atomic_vc=true", NULL},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
        fast_cycle_case(base, sizeof base / sizeof base[0], cases[k], k, bounded_check);
}

/* router.sw_hold in the speedup-1 cycle (plain1_step: the torus's loops'
 * instances, the collectives' with link records and the entropy circuit's
 * counts, and the cycle by its step elsewhere) against router_step_any's
 * hold on the same runs, with the audit every cycle: the same results.
 * The hold changes them (against the same runs without it) in some case,
 * so a fast cycle that left it out would differ here. */
static void held_fast_cycle_same(void **state)
{
    (void)state;
    const char *const base[] = {"network.k=8",          "router.vcs=4",
                                "router.buf_flits=4",   "router.sw_hold=true",
                                "steady.warmup=300",    "steady.measure=600",
                                "steady.drain_max=600", "sim.check_invariants=true"};
    const char *const cases[][9] = {
        {"traffic.flit_rate=0.35", "traffic.packet_length=4", NULL},
        {"traffic.flit_rate=0.4", "traffic.pattern=torn", "traffic.packet_length=4",
         "sim.threads=2", NULL},
        {"traffic.flit_rate=0.35", "traffic.packet_length=4", "entropy.buffers=network", NULL},
        {"sim.workload=collective", "collective.packets=6", "traffic.pattern=brev",
         "routing.dateline=cumulative", "router.vcs=3", NULL},
        {"sim.workload=collective", "collective.packets=6", "traffic.pattern=bcmp",
         "routing.dateline=cumulative", "router.vcs=3", "control.model=gt.x", "entropy.tg=8",
         "entropy.ron=70", NULL},
        {"sim.workload=collective", "collective.packets=4", "traffic.pattern=trns",
         "network.topology=mesh", NULL},
    };
    int moved = 0;
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const char *kv[32];
        join_kv(kv, base, sizeof base / sizeof base[0], cases[k]);
        struct saturn_sim *sf, *sa, *s0;
        struct saturn_results f = links_run(kv, false, &sf), a = links_run(kv, true, &sa);
        assert_true(router_keeps_ready(&sf->net) && sf->net.sw_hold);
        assert_false(router_keeps_ready(&sa->net));
        assert_true(f.flit_hops > 0 && f.measured_delivered > 0);
        size_t nk = 0;
        while (kv[nk])
            nk++;
        kv[3] = kv[nk - 1]; /* router.sw_hold=true out */
        kv[nk - 1] = NULL;
        struct saturn_results z = links_run(kv, false, &s0);
        moved += z.packet_latency.mean != f.packet_latency.mean || z.duration != f.duration;
        saturn_results_free(&z);
        saturn_sim_free(s0);
        same_results_free(&f, &a, sf, sa);
    }
    assert_true(moved >= 3);
}

/* Steady traffic under the entropy circuit (paper 000's Figs. 11-13) on the
 * torus's loop (run_plain1_tor{,1}_mob and the held switch's instance)
 * against router_step_any: the same results, the circuit's per-router
 * counts and the free-link test of cycle stealing (last_send) included. */
static void entropy_loop_check(const struct saturn_sim *fast, const struct saturn_sim *any,
                               const struct saturn_results *f, size_t k)
{
    (void)k;
    assert_true(fast->net.router_mob && router_tor_loop(&fast->net) &&
                router_keeps_ready(&fast->net));
    assert_false(router_keeps_ready(&any->net));
    assert_true(f->throttled_mean > 0);
}

static void entropy_steady_torus_loop_same(void **state)
{
    (void)state;
    const char *const base[] = {"network.k=8",         "router.vcs=3",      "router.buf_flits=4",
                                "routing.dateline=cumulative", "traffic.packet_length=8",
                                "steady.warmup=300",   "steady.measure=600", "steady.drain_max=2000",
                                "sim.check_invariants=true"};
    const char *const cases[][8] = {
        {"traffic.flit_rate=0.3", "control.model=hyst", "entropy.ron=60", "entropy.roff=80",
         "entropy.rn=30", NULL},
        {"traffic.flit_rate=0.25", "traffic.pattern=shfl", "control.model=base", "entropy.rth=70",
         "entropy.rn=30", "entropy.info=vcc", NULL},
        {"traffic.flit_rate=0.3", "control.model=gt.x", "entropy.tg=8", "entropy.ron=70",
         "router.sw_hold=true", NULL},
        {"traffic.flit_rate=0.3", "control.model=gt.a", "entropy.tg=4", "entropy.ron=70",
         "sim.threads=2", NULL},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
        fast_cycle_case(base, sizeof base / sizeof base[0], cases[k], k, entropy_loop_check);
}

/* The output-buffered Dragonfly's cycle (RM_PLAIN_OBUF, paper 004's
 * router: VCT, speedup 2, a routing delay) against router_step_any on the
 * same runs: its VC allocation looks only at the ports that may hold a
 * waiting head (n->rwait), RM_ANY at every port holding flits, so a port
 * left out of the mask (a head after a tail, a head reaching an empty VC)
 * would wait longer or for ever. The audit (every cycle) checks the mask
 * holds every port with a waiting head. Base re-routes its waiting heads
 * (route_again), OLM routes them afresh; two threads keep each router's
 * mask in its own partition. The fast cycle also counts a router's
 * arrivals in as it steps it (net_fused_arrivals), the other in its own
 * phase: a lost or late arrival changes the results or breaks the audit. */
static void obuf_check(const struct saturn_sim *fast, const struct saturn_sim *any,
                       const struct saturn_results *f, size_t k)
{
    /* the fast cycle ran, the other not (fast_cycle_case); the fast one counted
     * each router's arrivals in as it stepped it (net_part_fuses), but under
     * PiggyBack */
    assert_true(fast->net.obuf_on);
    assert_int_equal(fast->net.parts[0].fused, k != 4);
    assert_false(any->net.parts[0].fused);
    assert_true(f->flit_hops > 0);
}

static void obuf_fast_cycle_same(void **state)
{
    (void)state;
    const char *const base[] = {
        "network.topology=dragonfly", "dragonfly.p=2",          "dragonfly.a=4",
        "dragonfly.h=2",              "dragonfly.global_latency=6", "dragonfly.local_latency=2",
        "router.vcs=3",               "router.buf_flits=16",    "router.out_buf_flits=16",
        "router.switching=vct",       "router.speedup=2",       "router.route_delay=4",
        "router.xbar_delay=1",        "traffic.packet_length=4", "steady.warmup=300",
        "steady.measure=600",         "steady.drain_max=600",   "sim.check_invariants=true"};
    const char *const cases[][6] = {
        {"routing.algorithm=base", "base.threshold=2", "traffic.flit_rate=0.7", NULL},
        {"routing.algorithm=base", "traffic.flit_rate=0.3", "sim.threads=2", NULL},
        {"routing.algorithm=olm", "traffic.pattern=adv", "traffic.flit_rate=0.4", NULL},
        {"routing.algorithm=min", "router.switching=wormhole", "traffic.flit_rate=0.5", NULL},
        /* PiggyBack's cycle reads the routers between the phases: no fused arrivals */
        {"routing.algorithm=pb", "traffic.pattern=adv", "traffic.flit_rate=0.4", NULL},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
        fast_cycle_case(base, sizeof base / sizeof base[0], cases[k], k, obuf_check);
}

/* A ring left empty with nothing on its way starts again at its first slot
 * (net_ivc_take, link_send: the next packet reuses the line the last one
 * warmed), on paper 004's router, output-buffered, both in its fast cycle
 * and in router_step_any; every packet still arrives whole and in order
 * (the sinks check) with the audit every cycle. */
static void rings_restart_when_empty(void **state)
{
    (void)state;
    for (int any = 0; any < 2; any++) {
        struct saturn_config *cfg;
        struct net *n = test_net(
            (const char *const[]){"network.topology=dragonfly", "dragonfly.p=2", "dragonfly.a=4",
                                  "dragonfly.h=2", "router.vcs=3", "router.buf_flits=16",
                                  "router.out_buf_flits=16", "router.switching=vct",
                                  "router.speedup=2", "router.route_delay=4",
                                  "router.xbar_delay=1", "routing.algorithm=base", NULL},
            &cfg);
        n->links_taken = any; /* router_step_any (read only by router_step_for) */
        assert_true(n->obuf_on);
        const uint32_t nodes = n->topo.nodes;
        const size_t nvc = (size_t)n->topo.routers * (size_t)n->P * (size_t)n->V;
        uint32_t sent = 0;
        long emptied_in = 0, emptied_out = 0; /* VC-cycles empty after use */
        uint8_t *used_in = calloc(nvc, 1), *used_out = calloc(nvc, 1);
        assert_true(used_in && used_out);
        for (long c = 0; c < 3000 && (sent < 600 || n->packets_delivered < sent); c++) {
            if (sent < 600 && c % 2 == 0) /* 3-flit packets: a ring's head moves off a line */
                for (uint32_t k = 0; k < 4; k++, sent++)
                    net_packet_new(n, (sent * 7) % nodes, (sent * 13 + 5) % nodes, 3, true);
            assert_int_equal(net_step(n), SATURN_OK);
            assert_true(net_audit(n));
            for (size_t i = 0; i < nvc; i++) {
                const struct ivc *iv = &n->ivcs[i];
                if (iv->buf && iv->count)
                    used_in[i] = 1;
                else if (iv->buf && used_in[i]) {
                    assert_int_equal(iv->head, 0);
                    emptied_in++;
                }
                const struct ovc *o = &n->ovcs[i];
                const bool ring = n->ob_ring && n->ob_ring[i].ob;
                if (ring && o->ob_count)
                    used_out[i] = 1;
                else if (ring && used_out[i]) {
                    assert_int_equal(o->ob_head, 0);
                    emptied_out++;
                }
            }
        }
        assert_int_equal(n->packets_delivered, sent);
        assert_true(emptied_in > 1000 && emptied_out > 1000);
        free(used_in);
        free(used_out);
        test_net_free(n, cfg);
    }
}

/* The flits fl[0 .. cnt) of one buffer, front first, are each packet's
 * next ones in order, the head first and the tail last, of live packets. */
static void assert_flits_in_order(const struct net *n, const flit_t *fl, uint32_t cnt)
{
    for (uint32_t k = 0; k < cnt; k++) {
        const flit_t f = fl[k];
        assert_true(n->pk[f.pid].alive);
        const uint32_t len = n->pk[f.pid].len;
        assert_true(f.seq < len);
        assert_int_equal(!!(f.flags & FLIT_HEAD), f.seq == 0);
        assert_int_equal(!!(f.flags & FLIT_TAIL), f.seq + 1u == len);
        if (k) { /* a packet's next flit, or a head after a tail */
            const flit_t g = fl[k - 1];
            if (g.flags & FLIT_TAIL)
                assert_true(f.flags & FLIT_HEAD);
            else
                assert_true(f.pid == g.pid && f.seq == g.seq + 1u);
        }
    }
}

/* The flits held as counts read as the flits the rings would hold: an
 * output buffer's first ones (struct ob_run) and an input VC's packet
 * (struct ivc, run). On paper 004's router, in its fast cycle (arrivals
 * counted in by the routers' loop), in router_step_any (by the arrivals'
 * pass), with a 2-cycle crossbar (EV_OBUF arrivals) and under wormhole,
 * packets of 1, 3, 8 and 13 flits at a load that queues them, every
 * buffer's flits (net_ob_at, net_ivc_at) are in order after every cycle
 * (assert_flits_in_order); counts and rings both hold flits in many
 * VC-cycles, and every packet arrives whole and in order (the sinks
 * check), the audit (the run records among it) every cycle; a run's tail
 * bit flipped once, the audit fails. */
static void runs_exact(void **state)
{
    (void)state;
    for (int mode = 0; mode < 4; mode++) {
        struct saturn_config *cfg;
        struct net *n = test_net(
            (const char *const[]){"network.topology=dragonfly", "dragonfly.p=2", "dragonfly.a=4",
                                  "dragonfly.h=2", "router.vcs=3", "router.buf_flits=32",
                                  "router.out_buf_flits=32", "sim.vc_runs=on",
                                  mode == 3 ? "router.switching=wormhole" : "router.switching=vct",
                                  "router.speedup=2", "router.route_delay=4",
                                  mode == 2 ? "router.xbar_delay=2" : "router.xbar_delay=1",
                                  "routing.algorithm=base", NULL},
            &cfg);
        n->links_taken = mode == 1 || mode == 2; /* router_step_any (read by router_step_for) */
        assert_true(n->obuf_on);
        const uint32_t nodes = n->topo.nodes, lens[4] = {1, 3, 8, 13};
        const size_t nvc = (size_t)n->topo.routers * (size_t)n->P * (size_t)n->V;
        uint32_t sent = 0;
        /* VC-cycles with flits: output buffers' in the count, in the ring;
         * input VCs' in a run, in the ring */
        long counted = 0, ringed = 0, in_run = 0, in_ring = 0;
        bool tried = false; /* a run's record corrupted once */
        flit_t fl[1024]; /* (a global link's buffer holds more than a local one's) */
        for (long c = 0; c < 6000 && (sent < 1500 || n->packets_delivered < sent); c++) {
            if (sent < 1500 && c % 2 == 0) /* to a few nodes: buffers queue packets */
                for (uint32_t k = 0; k < 6; k++, sent++)
                    net_packet_new(n, (sent * 7) % nodes, (sent % 5) * 3 % nodes, lens[sent % 4],
                                   true);
            assert_int_equal(net_step(n), SATURN_OK);
            assert_true(net_audit(n));
            for (size_t i = 0; i < nvc; i++) {
                const struct ovc *o = &n->ovcs[i];
                if (o->ob_count) {
                    assert_true(o->run.held <= o->ob_count && o->ob_count <= 1024);
                    counted += o->run.held > 0;
                    ringed += o->run.held < o->ob_count;
                    for (uint32_t k = 0; k < o->ob_count; k++)
                        fl[k] = net_ob_at(n, o, k);
                    assert_flits_in_order(n, fl, o->ob_count);
                }
                struct ivc *iv = &n->ivcs[i];
                if (iv->count && (iv->run & IVC_RUN) && !tried) { /* the audit reads the record */
                    tried = true;
                    iv->run ^= IVC_RUN_TAIL;
                    assert_false(net_audit(n));
                    assert_non_null(strstr(n->fail_msg, "run record"));
                    iv->run ^= IVC_RUN_TAIL;
                    n->failed = false;
                    assert_true(net_audit(n));
                }
                if (iv->count) {
                    assert_true(iv->count <= 1024);
                    in_run += (iv->run & IVC_RUN) != 0;
                    in_ring += !(iv->run & IVC_RUN);
                    for (uint32_t k = 0; k < iv->count; k++)
                        fl[k] = net_ivc_at(iv, k);
                    assert_flits_in_order(n, fl, iv->count);
                }
            }
        }
        assert_int_equal(n->packets_delivered, sent);
        assert_true(counted > 5000 && ringed > 1000 && in_run > 5000 && in_ring > 1000 && tried);
        test_net_free(n, cfg);
    }
}

/* net_alloc_lines: line-aligned, at least the bytes asked, zeroed when
 * asked, whether or not it is large enough to be advised as huge pages. */
static void alloc_lines_aligned_zeroed(void **state)
{
    (void)state;
    const size_t sizes[] = {1, 64, 100, NET_HUGE_FROM - 1, NET_HUGE_FROM, 3 * NET_HUGE_FROM + 5};
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++)
        for (int huge = 0; huge < 2; huge++) {
            unsigned char *p = net_alloc_lines(sizes[k], true, huge);
            assert_non_null(p);
            assert_int_equal((uintptr_t)p % 64, 0);
            for (size_t i = 0; i < sizes[k]; i++)
                if (p[i])
                    fail_msg("byte %zu of %zu not zeroed", i, sizes[k]);
            memset(p, 0xa5, sizes[k]); /* all of it is ours */
            free(p);
        }
    unsigned char *p = net_alloc_lines(NET_HUGE_FROM, false, true);
    assert_non_null(p);
    p[NET_HUGE_FROM - 1] = 1;
    free(p);
    assert_null(net_alloc_lines(SIZE_MAX - 10, true, true));
}

/* sim.huge_pages = auto advises huge pages only where the routers' ports
 * and VCs take 16 MiB or more (a 64x64 torus with 8 VCs: 22 MB), not on a
 * small network (a 4x4 torus); on and off are obeyed whatever the size. */
static void huge_pages_auto_by_size(void **state)
{
    (void)state;
    const struct {
        const char *k, *vcs, *mode;
        bool huge;
    } cases[] = {{"network.k=4", "router.vcs=2", "sim.huge_pages=auto", false},
                 {"network.k=4", "router.vcs=2", "sim.huge_pages=on", true},
                 {"network.k=64", "router.vcs=8", "sim.huge_pages=auto", true},
                 {"network.k=64", "router.vcs=8", "sim.huge_pages=off", false},
                 {"network.k=64", "router.vcs=4", "sim.huge_pages=auto", false}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        struct saturn_config *c =
            test_config((const char *const[]){cases[i].k, cases[i].vcs, cases[i].mode, NULL});
        struct saturn_error err = {0};
        struct net n;
        assert_int_equal(net_create(&n, c, 1, &err), SATURN_OK);
        if (n.huge_pages != cases[i].huge)
            fail_msg("%s %s %s: huge_pages %d", cases[i].k, cases[i].vcs, cases[i].mode,
                     n.huge_pages);
        net_destroy(&n);
        saturn_config_free(c);
    }
}

/* sim.vc_runs = auto keeps runs only where the routers' ports, VCs and rings
 * take more than 2 MiB (a 32x32 torus with 3 VCs of 8 flits: 2.2 MiB), not
 * on a 16x16 one (0.5 MiB); on and off are obeyed whatever the size; and a
 * network that keeps none holds none while its VCs fill, one that keeps
 * them holds them. */
static void vc_runs_auto_by_size(void **state)
{
    (void)state;
    const struct {
        const char *k, *mode;
        bool runs;
    } cases[] = {{"network.k=16", "sim.vc_runs=auto", false},
                 {"network.k=16", "sim.vc_runs=on", true},
                 {"network.k=32", "sim.vc_runs=auto", true},
                 {"network.k=32", "sim.vc_runs=off", false}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        struct saturn_config *c =
            test_config((const char *const[]){cases[i].k, cases[i].mode, NULL});
        struct saturn_error err = {0};
        struct net n;
        assert_int_equal(net_create(&n, c, 1, &err), SATURN_OK);
        if (n.vc_runs != cases[i].runs)
            fail_msg("%s %s: vc_runs %d", cases[i].k, cases[i].mode, n.vc_runs);
        net_destroy(&n);
        saturn_config_free(c);
    }
    for (int on = 0; on < 2; on++) {
        struct saturn_config *cfg;
        struct net *n = test_net((const char *const[]){"network.k=4", on ? "sim.vc_runs=on"
                                                                         : "sim.vc_runs=off",
                                                       NULL},
                                 &cfg);
        /* four sources into one node: its ejection holds the others' flits back */
        for (uint32_t src = 0; src < 4; src++)
            if (src != 2)
                for (int k = 0; k < 4; k++)
                    net_packet_new(n, src, 2, 8, true);
        long held = 0, in_run = 0;
        for (int t = 0; t < 200; t++) {
            assert_int_equal(net_step(n), SATURN_OK);
            for (size_t i = 0; i < (size_t)n->topo.routers * n->P * n->V; i++) {
                held += n->ivcs[i].count > 0;
                in_run += (n->ivcs[i].run & IVC_RUN) != 0;
            }
        }
        assert_int_equal(n->packets_delivered, 12);
        assert_true(held > 20);
        if (on ? in_run == 0 : in_run != 0)
            fail_msg("sim.vc_runs=%s: %ld VC-cycles in a run of %ld holding flits",
                     on ? "on" : "off", in_run, held);
        test_net_free(n, cfg);
    }
}

/* An input VC's run (struct ivc, run) against a plain FIFO: random puts
 * (net_ivc_put) and takes (net_ivc_shift) of packets of 1 to 6 flits,
 * now and then a flit out of order or of another packet (every one a data
 * flit: FLIT_HEAD exactly at sequence number 0, as net_ivc_put requires);
 * after every step each flit held (net_ivc_at) and the
 * front (net_ivc_front) are the FIFO's, and both runs and spills happen. */
static void ivc_run_fifo(void **state)
{
    (void)state;
    flit_t ring[64], ref[64];
    struct ivc iv = {.buf = ring, .mask = 63};
    uint32_t rh = 0, rn = 0, pid = 1, seq = 0, len = 3;
    uint64_t x = 42;
    long in_run = 0, spilled = 0, odd = 0;
    for (int step = 0; step < 200000; step++) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        const uint32_t r = (uint32_t)(x >> 33);
        if ((r & 15) < 7 && rn < 63) { /* takes a little likelier: it empties often */
            flit_t f = {pid, (uint16_t)seq,
                        (uint16_t)((seq == 0 ? FLIT_HEAD : 0) | (seq + 1 == len ? FLIT_TAIL : 0))};
            if ((r >> 8) % 17 == 0) { /* another packet's flit, or one out of order */
                const uint32_t k = (r >> 16) % 3;
                f = k == 0   ? (flit_t){pid + 1000, 2, 0}
                    : k == 1 ? (flit_t){pid + 2000, 0, FLIT_HEAD}
                             : (flit_t){pid, (uint16_t)(seq + 1), 0};
                odd++;
            } else if (++seq == len) {
                pid++, seq = 0, len = 1 + (r >> 12) % 6;
            }
            const bool was_run = (iv.run & IVC_RUN) != 0;
            net_ivc_put(&iv, f, true);
            iv.count++;
            spilled += was_run && !(iv.run & IVC_RUN);
            ref[(rh + rn++) & 63] = f;
        } else if (rn) {
            const flit_t a = net_ivc_front(&iv), b = net_ivc_shift(&iv), e = ref[rh];
            if (--iv.count == 0)
                iv.head = 0; /* as net_ivc_take */
            rh = (rh + 1) & 63, rn--;
            assert_true(a.pid == e.pid && a.seq == e.seq && a.flags == e.flags);
            assert_true(b.pid == e.pid && b.seq == e.seq && b.flags == e.flags);
        }
        assert_int_equal(iv.count, rn);
        for (uint32_t k = 0; k < rn; k++) {
            const flit_t a = net_ivc_at(&iv, k), e = ref[(rh + k) & 63];
            assert_true(a.pid == e.pid && a.seq == e.seq && a.flags == e.flags);
        }
        in_run += (iv.run & IVC_RUN) != 0;
    }
    assert_true(in_run > 20000 && spilled > 1000 && odd > 1000);
}

/* Whether every push-table entry of every partition is what net_wheel_turn
 * promises for cycle n->now: cycle now + d in the smallest short wheel k
 * with d < near[k], the others in the long wheel's slot (now + d) &
 * wheel_mask. */
static void wheel_tables_right(const struct net *n)
{
    const uint64_t L = (uint64_t)n->wheel_mask + 1;
    for (uint32_t t = 0; t < n->nparts; t++) {
        const struct net_part *w = &n->parts[t];
        for (uint64_t d = 0; d < L; d++) {
            const uint64_t x = (n->now + d) & n->wheel_mask;
            uint32_t k = 0;
            while (k < n->nnear && d >= n->near[k])
                k++;
            const size_t slot =
                k < n->nnear ? n->near_base[k] + ((n->now + d) & (n->near[k] - 1)) : x;
            assert_ptr_equal(w->ar_at[x], &w->arrive[slot]);
            for (uint32_t q = 0; q < n->nq; q++)
                assert_ptr_equal(w->ev_at[x * n->nq + q], &w->wheel[slot * n->nq + q]);
            for (uint32_t q = 0; q < n->nparts; q++)
                assert_ptr_equal(w->cr_at[x * n->nparts + q], &w->credit[slot * n->nparts + q]);
        }
    }
}

/* Whether any queue of short wheel k (struct net, near) was ever pushed to
 * (a queue allocates on its first push); k = NET_NEAR: of any short wheel
 * (slots wheel_mask + 1 on). */
static bool short_wheel_used(const struct net *n, uint32_t k)
{
    const size_t lo = k < NET_NEAR ? n->near_base[k] : (size_t)n->wheel_mask + 1,
                 hi = k < NET_NEAR ? lo + n->near[k] : n->slots;
    for (uint32_t t = 0; t < n->nparts; t++)
        for (size_t s = lo; s < hi; s++) {
            const struct net_part *w = &n->parts[t];
            if (w->arrive[s].cap)
                return true;
            for (uint32_t q = 0; q < n->nq; q++)
                if (w->wheel[s * n->nq + q].cap)
                    return true;
            for (uint32_t q = 0; q < n->nparts; q++)
                if (w->credit[s * n->nparts + q].cap)
                    return true;
        }
    return false;
}

/* The short wheels (struct net, near: the local links' delay in 16 slots,
 * injection and ejection in 4, when the long delays need 128) change
 * nothing: a Dragonfly (68 routers: two partitions on two threads) with
 * 10- and 100-cycle links, paper 004's router and a speedup-1 one, on one
 * and two threads (flits between partitions travel as events, local and
 * global ones for one cycle in different wheels), and a torus with 40-cycle
 * credits under Disha's recovery lane, each run with its short wheels and
 * with one wheel: the same results, the audit every cycle. Every short
 * wheel carries traffic in the first run, none in the second. Then the
 * push tables, stepped cycle by cycle and after a jump of the clock (a
 * test's), name the slots they should. */
static void short_wheel_same(void **state)
{
    (void)state;
    const char *const df[] = {
        "network.topology=dragonfly", "dragonfly.p=2",          "dragonfly.a=4",
        "dragonfly.h=4",              "dragonfly.local_latency=10", "dragonfly.global_latency=100",
        "router.vcs=3",               "router.buf_flits=32",    "router.out_buf_flits=32",
        "router.switching=vct",       "router.speedup=2",       "router.route_delay=4",
        "router.xbar_delay=1",        "traffic.packet_length=8", "steady.warmup=400",
        "steady.measure=600",         "sim.check_invariants=true"};
    const char *const cases[][8] = {
        {"routing.algorithm=base", "base.threshold=2", "traffic.flit_rate=0.6", NULL},
        {"routing.algorithm=olm", "traffic.pattern=adv", "traffic.flit_rate=0.4", "sim.threads=2",
         NULL},
        {"routing.algorithm=min", "router.speedup=1", "router.out_buf_flits=0",
         "router.switching=wormhole", "traffic.flit_rate=0.3", "sim.threads=2", NULL},
        {"!torus", NULL},
    };
    const char *const torus[] = {"network.k=8", "routing.algorithm=disha", "router.credit_delay=40",
                                 "router.buf_flits=48", "traffic.flit_rate=0.5",
                                 "steady.warmup=500", "steady.measure=500",
                                 "sim.check_invariants=true", NULL};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const char *kv[32];
        if (!strcmp(cases[k][0], "!torus"))
            join_kv(kv, NULL, 0, torus);
        else
            join_kv(kv, df, sizeof df / sizeof df[0], cases[k]);
        struct saturn_sim *s2, *s1;
        struct saturn_results two = sim_run_kv(kv, false, false, &s2),
                              one = sim_run_kv(kv, false, true, &s1);
        const struct net *n = &s2->net;
        assert_true(n->nnear >= 1 && 4 * (uint64_t)n->near[n->nnear - 1] <= n->wheel_mask + 1);
        for (uint32_t w = 0; w < n->nnear; w++)
            assert_true(short_wheel_used(n, w));
        assert_false(short_wheel_used(&s1->net, NET_NEAR));
        assert_true(two.flit_hops > 0 && two.measured_delivered > 0);
        if (k == 1)
            assert_true(n->nparts == 2);
        if (k == 3)
            assert_true(two.recoveries > 0);
        same_results_free(&two, &one, s2, s1);
    }

    struct saturn_config *cfg;
    const char *kv[32];
    join_kv(kv, df, sizeof df / sizeof df[0],
            (const char *const[]){"routing.algorithm=base", "sim.threads=2", NULL});
    struct net *n = test_net(kv, &cfg);
    assert_true(n->nnear == 2 && n->near[0] == 4 && n->near[1] == 16 && n->wheel_mask == 127 &&
                n->nparts == 2);
    wheel_tables_right(n);
    for (uint32_t c = 0; c < 300; c++) {
        if (c % 3 == 0)
            net_packet_new(n, c % n->topo.nodes, (c * 7 + 3) % n->topo.nodes, 8, true);
        assert_int_equal(net_step(n), SATURN_OK);
        net_wheel_turn(n); /* what the next net_step does first */
        wheel_tables_right(n);
    }
    assert_true(short_wheel_used(n, 0) && short_wheel_used(n, 1));
    n->now += 1000 + 5; /* a jump: the tables built afresh */
    net_wheel_turn(n);
    wheel_tables_right(n);
    n->now -= 1000 + 5;
    net_wheel_turn(n);
    wheel_tables_right(n);
    test_net_free(n, cfg);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(audit_every_mode_under_load),
        cmocka_unit_test(audit_steady_overload),
        cmocka_unit_test(same_seed_same_result),
        cmocka_unit_test(watchdog_reports_deadlock),
        cmocka_unit_test(deadlock_prone_config_refused),
        cmocka_unit_test(collective_counts_every_packet),
        cmocka_unit_test(injection_vcs),
        cmocka_unit_test(audit_catches_corruption),
        cmocka_unit_test(audit_catches_lost_vc_bit),
        cmocka_unit_test(flit_on_link_unseen_until_it_arrives),
        cmocka_unit_test(ready_mask_follows_room),
        cmocka_unit_test(link_records_fast_cycle_same),
        cmocka_unit_test(obuf_fast_cycle_same),
        cmocka_unit_test(rings_restart_when_empty),
        cmocka_unit_test(runs_exact),
        cmocka_unit_test(ivc_run_fifo),
        cmocka_unit_test(short_wheel_same),
        cmocka_unit_test(va_hope_fast_cycle_same),
        cmocka_unit_test(va_hope_islip_cycle_same),
        cmocka_unit_test(one_port_fast_cycle_same),
        cmocka_unit_test(held_fast_cycle_same),
        cmocka_unit_test(entropy_steady_torus_loop_same),
        cmocka_unit_test_setup_teardown(bounded_fast_cycle_same, test_dir_setup,
                                        test_dir_teardown),
        cmocka_unit_test(credit_back_after_its_delay),
        cmocka_unit_test(ejection_is_one_flit_per_cycle),
        cmocka_unit_test(alloc_lines_aligned_zeroed),
        cmocka_unit_test(huge_pages_auto_by_size),
        cmocka_unit_test(vc_runs_auto_by_size),
        cmocka_unit_test(too_few_vcs_stays_in_range),
        cmocka_unit_test(watchdog_longer_than_delays),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
