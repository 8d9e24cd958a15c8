/* Injection control: the entropy rules, the guard time, the gate's
 * promise never to cut a packet, the global-sum delay model, and the
 * mobility counts Nv and Na. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "control/entropy.h"
#include "control/global_sum.h"
#include "experiment/sim.h"
#include "net/net.h"
#include "support.h"

/* Fig. 2 and Fig. 3 (as section 6.2 reads them), 100 routers. */
static void decision_rules(void **state)
{
    (void)state;
    /* forced release: Nv < Rn Nr -> off, whatever Ra */
    assert_false(entropy_next_state(false, 29, 0, 100, 0.9, 0.9, 0.3));
    assert_false(entropy_next_state(true, 29, 0, 100, 0.9, 0.9, 0.3));
    /* base (Ron = Roff = Rth = 0.9): on iff Ra < 0.9 */
    assert_true(entropy_next_state(false, 100, 89, 100, 0.9, 0.9, 0.3));
    assert_false(entropy_next_state(false, 100, 90, 100, 0.9, 0.9, 0.3));
    assert_false(entropy_next_state(true, 100, 91, 100, 0.9, 0.9, 0.3));
    assert_false(entropy_next_state(true, 100, 90, 100, 0.9, 0.9, 0.3)); /* Ra = Rth: off */
    assert_true(entropy_next_state(true, 100, 89, 100, 0.9, 0.9, 0.3));
    /* Roff = 100 %: an empty network (Ra = 1) releases even with Rn = 0 */
    assert_false(entropy_next_state(true, 0, 0, 100, 0.5, 1.0, 0.0));
    /* hyst(70, 90): the truth table of state x Ra band (edges included) */
    const struct { bool on; double ra; bool next; } t[] = {
        {false, 0.60, true},  {false, 0.70, false}, {false, 0.80, false}, {false, 0.95, false},
        {true, 0.60, true},   {true, 0.80, true},   {true, 0.90, false},  {true, 0.95, false},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        assert_int_equal(entropy_next_state(t[i].on, 100, 100 * t[i].ra, 100, 0.7, 0.9, 0.3),
                         t[i].next);
    /* Ron above Roff: in between, off turns on and on turns off */
    assert_true(entropy_next_state(false, 100, 80, 100, 0.9, 0.7, 0.3));
    assert_false(entropy_next_state(true, 100, 80, 100, 0.9, 0.7, 0.3));
    /* nothing waiting (Nv = 0): Ra counts as 1, never throttled */
    assert_false(entropy_next_state(false, 0, 0, 100, 0.9, 0.9, 0.0));
}

/* Router s's value of cycle t0 reaches router r at t0 + up(s) + down(r). */
static void circuit_delay_model(void **state)
{
    (void)state;
    struct saturn_config *cfg;
    struct net *n = test_net((const char *const[]){"network.k=5,4", NULL}, &cfg);
    const struct topo *t = &n->topo;
    for (uint32_t src = 0; src < t->routers; src += 3) {
        struct gsum g;
        n->router_mob = false;
        assert_int_equal(gsum_init(&g, GSUM_IDEAL, n), SATURN_OK);
        assert_false(n->router_mob); /* ideal reads the sums only */
        gsum_free(&g);
        assert_int_equal(gsum_init(&g, GSUM_CIRCUIT, n), SATURN_OK);
        assert_true(n->router_mob); /* the circuit reads each router's record */
        int up = topo_distance(t, src, 0);
        uint64_t t0 = 7;
        int64_t first[32];
        for (uint32_t r = 0; r < t->routers; r++)
            first[r] = -1;
        memset(n->rstamp, 0, t->routers * sizeof *n->rstamp);
        for (uint64_t c = 0; c < 40; c++) {
            n->now = c;
            if (c == t0) {
                n->rnv[src] = 3;
                n->rna[src] = 2;
                n->rstamp[src] = c + 1;
            }
            gsum_step(&g, n);
            for (uint32_t r = 0; r < t->routers; r++) {
                struct gsum_pair p = gsum_seen(&g, r);
                if (first[r] < 0 && p.nv == 3) {
                    first[r] = (int64_t)c;
                    assert_int_equal(p.na, 2);
                }
                if (first[r] >= 0 && (int64_t)c > first[r])
                    assert_int_equal(p.nv, 0); /* one cycle's value, seen for one cycle */
            }
        }
        for (uint32_t r = 0; r < t->routers; r++)
            assert_int_equal(first[r], (int64_t)t0 + up + topo_distance(t, 0, r));
        gsum_free(&g);
    }
    test_net_free(n, cfg);
}

/* The age of what a router sees: on the circuit, the farthest router's
 * way up plus the way down to it, once the registers have filled; over the
 * run, the mean and largest of that (vcc: more while links are busy). */
static void sums_age(void **state)
{
    (void)state;
    struct saturn_config *cfg;
    struct net *n = test_net((const char *const[]){"network.k=5,4", NULL}, &cfg);
    const struct topo *t = &n->topo;
    int up = 0;
    for (uint32_t r = 0; r < t->routers; r++)
        if (topo_distance(t, r, 0) > up)
            up = topo_distance(t, r, 0);
    struct gsum g;
    assert_int_equal(gsum_init(&g, GSUM_CIRCUIT, n), SATURN_OK);
    for (uint64_t c = 0; c < 30; c++) {
        n->now = c;
        gsum_step(&g, n);
        for (uint32_t r = 0; c >= 10 && r < t->routers; r++)
            assert_int_equal(c - gsum_seen(&g, r).t, (uint64_t)(up + topo_distance(t, 0, r)));
    }
    assert_int_equal(g.age_max, (uint64_t)(2 * up));
    gsum_free(&g);
    test_net_free(n, cfg);
    /* a whole run: ideal 0; the circuit's largest on 8x8 is 4 + 4 + 4 + 4 */
    for (int info = 0; info < 3; info++) {
        const char *kv[] = {"network.k=8", "router.vcs=3", "routing.dateline=cumulative",
                            "sim.workload=collective", "collective.packets=6",
                            "traffic.pattern=shfl", "control.model=base",
                            info == 0 ? "entropy.info=ideal" : info == 1 ? "entropy.info=circuit"
                                                                         : "entropy.info=vcc",
                            NULL};
        struct saturn_results r = test_run(kv);
        if (info == 0)
            assert_true(r.sums_age_max == 0 && r.sums_age_mean == 0);
        if (info == 1)
            assert_true(r.sums_age_max == 16 && r.sums_hops_free == 1);
        if (info == 2) /* some register hops found their link busy */
            assert_true(r.sums_age_max > 16 && r.sums_hops_free < 1 && r.sums_hops_free > 0.3);
        saturn_results_free(&r);
    }
}

/* gsum_step's circuit path (members ordered by distance, registers moved
 * as the sums are made) against gsum_step_general's four passes, fed the
 * same random records: every router sees the same sums, cycle by cycle, and
 * the ages add up the same. Rings of odd and even k, k = 2 and 3, one to
 * three dimensions. */
static void circuit_fast_path_same(void **state)
{
    (void)state;
    const char *const shapes[][3] = {
        {"network.k=5,4", "network.n=2", NULL},   {"network.k=8", "network.n=2", NULL},
        {"network.k=7", "network.n=1", NULL},     {"network.k=4,3,5", "network.n=3", NULL},
        {"network.k=2,6", "network.n=2", NULL},
    };
    uint64_t x = 88172645463325252u; /* xorshift64 */
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        struct saturn_config *cfg;
        struct net *n = test_net(shapes[s], &cfg);
        const struct topo *t = &n->topo;
        struct gsum fast, general;
        assert_int_equal(gsum_init(&fast, GSUM_CIRCUIT, n), SATURN_OK);
        assert_int_equal(gsum_init(&general, GSUM_CIRCUIT, n), SATURN_OK);
        assert_non_null(fast.lag); /* the fast path is the one taken */
        memset(n->rstamp, 0, t->routers * sizeof *n->rstamp);
        for (uint64_t c = 0; c < 80; c++) {
            n->now = c;
            for (uint32_t r = 0; r < t->routers; r++) {
                x ^= x << 13, x ^= x >> 7, x ^= x << 17;
                if (x % 3) { /* a record this cycle; otherwise the stale one counts 0 */
                    n->rstamp[r] = c + 1;
                    n->rnv[r] = (x >> 8) % 50;
                    n->rna[r] = (x >> 20) % 50;
                }
            }
            gsum_step(&fast, n);
            gsum_step_general(&general, n);
            for (uint32_t r = 0; r < t->routers; r++) {
                struct gsum_pair a = gsum_seen(&fast, r), b = gsum_seen(&general, r);
                assert_int_equal(a.nv, b.nv);
                assert_int_equal(a.na, b.na);
                assert_int_equal(a.t, b.t);
            }
            assert_true(fast.age_sum == general.age_sum);
            assert_int_equal(fast.age_max, general.age_max);
            assert_int_equal(fast.age_n, general.age_n);
        }
        assert_true(general.age_max > 0);
        gsum_free(&fast);
        gsum_free(&general);
        test_net_free(n, cfg);
    }
}

/* Cycle stealing: a register waits while its link carries data. */
static void vcc_waits_for_idle_links(void **state)
{
    (void)state;
    struct saturn_config *cfg;
    struct net *n = test_net((const char *const[]){"network.k=4", "network.n=1", NULL}, &cfg);
    struct gsum g;
    assert_int_equal(gsum_init(&g, GSUM_VCC, n), SATURN_OK);
    /* router 1 sends towards 0 on its - port (1); keep that link busy for cycles 0..4 */
    int64_t first = -1;
    for (uint64_t c = 0; c < 20; c++) {
        n->now = c;
        n->rstamp[1] = c + 1; /* a steady value: registers carry the current one */
        n->rnv[1] = 5;
        n->prare[1 * n->P + 1].last_send = c <= 4 ? c + 1 : 0;
        gsum_step(&g, n);
        if (first < 0 && gsum_seen(&g, 0).nv == 5)
            first = (int64_t)c;
    }
    /* circuit: seen from cycle 1; vcc: the register first crosses at the
     * end of cycle 5, the first cycle the link is free */
    assert_int_equal(first, 6);
    gsum_free(&g);
    test_net_free(n, cfg);
}

struct starts {
    uint64_t t_inj[64];
    int n;
};

static void record_start(void *user, struct net *n, uint32_t pid)
{
    struct starts *s = user;
    if (s->n < 64)
        s->t_inj[s->n++] = n->pk[pid].t_inj;
}

/* gt.x: after the tail of a packet enters the channel at t, the next
 * packet starts at t + 1 + tG exactly (nothing else holds it back). */
static void guard_time_fixed(void **state)
{
    (void)state;
    struct saturn_config *cfg;
    struct net *n = test_net((const char *const[]){
        "network.k=4", "control.model=gt.x", "entropy.tg=5", "entropy.ron=0",
        "entropy.roff=0", "entropy.rn=0", "traffic.packet_length=4", NULL}, &cfg);
    struct starts s = {0};
    n->deliver = record_start;
    n->deliver_user = &s;
    for (int i = 0; i < 4; i++)
        net_packet_new(n, 0, 1, 4, true);
    for (int c = 0; c < 200; c++)
        assert_int_equal(net_step(n), SATURN_OK);
    assert_int_equal(s.n, 4);
    for (int i = 0; i < 4; i++)
        assert_int_equal(s.t_inj[i], (uint64_t)i * (4 + 5));
    test_net_free(n, cfg);
}

/* gt.a: the guard is uniform over 0..2tG. */
static void guard_time_random(void **state)
{
    (void)state;
    struct saturn_config *cfg;
    struct net *n = test_net((const char *const[]){
        "network.k=4", "control.model=gt.a", "entropy.tg=2", "entropy.ron=0",
        "entropy.roff=0", "entropy.rn=0", "traffic.packet_length=1", NULL}, &cfg);
    struct starts s = {0};
    n->deliver = record_start;
    n->deliver_user = &s;
    for (int i = 0; i < 64; i++)
        net_packet_new(n, 0, 1, 1, true);
    for (int c = 0; c < 1000; c++)
        assert_int_equal(net_step(n), SATURN_OK);
    assert_int_equal(s.n, 64);
    int seen[5] = {0};
    for (int i = 1; i < 64; i++) {
        uint64_t gap = s.t_inj[i] - s.t_inj[i - 1]; /* 1 + guard */
        assert_true(gap >= 1 && gap <= 5);
        seen[gap - 1]++;
    }
    for (int g = 0; g < 5; g++)
        assert_true(seen[g] > 0);
    test_net_free(n, cfg);
}

/* A gate that closes after cycle 1: the packet that started goes out whole. */
static bool closed_after_one(void *state, const struct net *n, uint32_t node)
{
    (void)state;
    (void)node;
    return n->now <= 1;
}

static void started_packet_never_cut(void **state)
{
    (void)state;
    struct saturn_config *cfg;
    struct net *n = test_net((const char *const[]){"network.k=4", "traffic.packet_length=20",
                                                  "router.buf_flits=32", NULL}, &cfg);
    struct ctl_ops gate = {.name = "test", .may_start = closed_after_one};
    n->ctl = &gate;
    struct starts s = {0};
    n->deliver = record_start;
    n->deliver_user = &s;
    net_packet_new(n, 0, 2, 20, true);
    net_packet_new(n, 0, 2, 20, true);
    for (int c = 0; c < 300; c++)
        assert_int_equal(net_step(n), SATURN_OK);
    assert_int_equal(s.n, 1);            /* the first, whole */
    assert_int_equal(n->queued_packets, 1); /* the second never started */
    assert_int_equal(n->flits_in_net, 0);
    n->ctl = ctl_find("noth");
    test_net_free(n, cfg);
}

/* Nv and Na by hand: nodes 1 and 3 of a 4-ring send to node 2. At cycle 2
 * both heads sit in router 2 and want its one ejection channel: Nv = 2,
 * Na = 1. At cycle 1 each head is in its own router's injection buffer
 * (counted with entropy.buffers = all, not with network). Each router's
 * own record (rnv, rna, rstamp) is kept only when a reader asks for it
 * (n->router_mob, set by gsum_init): without, the sums are the same and
 * the record stays untouched. */
static void mobility_by_hand(void **state)
{
    (void)state;
    const char *const sets[] = {"entropy.buffers=all", "entropy.buffers=network"};
    uint64_t sums[2] = {0, 0};
    for (int k = 0; k < 4; k++) {
        const bool rmob = k < 2;
        struct saturn_config *cfg;
        struct net *n = test_net((const char *const[]){"network.k=4", "network.n=1",
                                                      "traffic.packet_length=4", sets[k % 2],
                                                      NULL},
                                &cfg);
        assert_false(n->router_mob); /* control.model = noth reads no router's record */
        n->router_mob = rmob;
        net_packet_new(n, 1, 2, 4, true);
        net_packet_new(n, 3, 2, 4, true);
        assert_int_equal(net_step(n), SATURN_OK); /* cycle 0: heads in the channels */
        assert_int_equal(n->cyc_nv, 0);
        assert_int_equal(net_step(n), SATURN_OK); /* cycle 1 */
        assert_int_equal(n->rnv[1], rmob && k % 2 == 0 ? 1 : 0);
        assert_int_equal(n->rna[1], rmob && k % 2 == 0 ? 1 : 0);
        assert_int_equal(n->rstamp[1], rmob ? 2 : 0);
        assert_int_equal(n->cyc_nv, k % 2 == 0 ? 2 : 0);
        assert_int_equal(n->cyc_na, k % 2 == 0 ? 2 : 0);
        assert_int_equal(net_step(n), SATURN_OK); /* cycle 2 */
        assert_int_equal(n->rnv[2], rmob ? 2 : 0);
        assert_int_equal(n->rna[2], rmob ? 1 : 0);
        assert_int_equal(n->rstamp[2], rmob ? 3 : 0);
        if (rmob) /* the sums, the same either way */
            sums[k] = (uint64_t)n->cyc_nv << 32 | n->cyc_na;
        else
            assert_int_equal((uint64_t)n->cyc_nv << 32 | n->cyc_na, sums[k % 2]);
        test_net_free(n, cfg);
    }
}

/* The gate an entropy controller publishes (n->ctl_gate) must answer as
 * its may_start, node by node: checked after every observe (the gate the
 * cycle's injections read) and after every packet_sent (the guard), through
 * a wrapper of the controller found by its name. */
static void gate_checked(const struct net *n, void *state, const struct ctl_ops *real,
                         uint32_t node)
{
    assert_int_equal(n->now >= n->ctl_gate[node], real->may_start(state, n, node));
}

static void observe_checked(void *state, struct net *n)
{
    const struct ctl_ops *real = ctl_find(n->ctl->name);
    real->observe(state, n);
    if (n->ctl_gate)
        for (uint32_t i = 0; i < n->nnodes; i++)
            gate_checked(n, state, real, i);
}

static void sent_checked(void *state, const struct net *n, uint32_t node)
{
    const struct ctl_ops *real = ctl_find(n->ctl->name);
    real->packet_sent(state, n, node);
    if (n->ctl_gate)
        gate_checked(n, state, real, node);
}

static void gate_is_may_start(void **state)
{
    (void)state;
    const char *const sets[][5] = {
        {"control.model=gt.a", "entropy.tg=3", "entropy.info=circuit", NULL},
        {"control.model=gt.a", "entropy.tg=3", "entropy.info=vcc", NULL},
        {"control.model=gt.x", "entropy.tg=2", "entropy.info=ideal", NULL},
        {"control.model=hyst", "entropy.info=circuit", NULL},
    };
    for (size_t k = 0; k < sizeof sets / sizeof sets[0]; k++) {
        const char *kv[12] = {"network.k=6", "traffic.packet_length=4", "entropy.ron=80",
                              "entropy.roff=95", "entropy.rn=0"};
        for (int j = 0; sets[k][j]; j++)
            kv[5 + j] = sets[k][j];
        struct saturn_config *cfg;
        struct net *n = test_net(kv, &cfg);
        struct ctl_ops check = *n->ctl;
        check.observe = observe_checked;
        check.packet_sent = sent_checked;
        n->ctl = &check;
        uint64_t x = 12345 + k;
        for (uint32_t i = 0; i < n->nnodes; i++)
            for (int p = 0; p < 12; p++) {
                x = x * 6364136223846793005ull + 1442695040888963407ull;
                net_packet_new(n, i, (uint32_t)(x >> 33) % n->nnodes, 4, true);
            }
        uint64_t published = 0, shut = 0, guarded = 0;
        for (int c = 0; c < 400 && (n->queued_packets || n->flits_in_net); c++) {
            assert_int_equal(net_step(n), SATURN_OK);
            published += n->ctl_gate != NULL;
            for (uint32_t i = 0; n->ctl_gate && i < n->nnodes; i++) {
                shut += n->ctl_gate[i] == UINT64_MAX;
                guarded += n->ctl_gate[i] != UINT64_MAX && n->ctl_gate[i] >= n->now;
            }
        }
        assert_int_equal(n->queued_packets + n->flits_in_net, 0);
        assert_true(published > 0 && shut > 0); /* the gate was read, and shut by throttles */
        assert_true(k == 3 ? guarded == 0 : guarded > 0); /* and by guards (hyst has none) */
        n->ctl = ctl_find(check.name);
        test_net_free(n, cfg);
    }
}

/* Controllers that never close the gate change nothing, bit for bit. */
static void inert_controllers_equal_noth(void **state)
{
    (void)state;
    const char *const base[] = {"network.k=6", "sim.workload=collective", "collective.packets=5",
                                "traffic.pattern=randperm", NULL};
    struct saturn_results a = test_run(base);
    const char *const variants[][6] = {
        {"control.model=base", "entropy.rth=0", "entropy.rn=0", NULL},
        {"control.model=hyst", "entropy.ron=0", "entropy.info=vcc", NULL},
        {"control.model=gt.x", "entropy.tg=0", "entropy.ron=0", "entropy.info=ideal", NULL},
    };
    for (int v = 0; v < 3; v++) {
        const char *kv[12];
        int i = 0;
        for (; base[i]; i++)
            kv[i] = base[i];
        for (int j = 0; variants[v][j]; j++)
            kv[i++] = variants[v][j];
        kv[i] = NULL;
        struct saturn_results b = test_run(kv);
        assert_int_equal(a.duration, b.duration);
        assert_memory_equal(&a.packet_latency, &b.packet_latency, sizeof a.packet_latency);
        assert_true(a.mobility_mean == b.mobility_mean);
        assert_true(a.entropy_mean == b.entropy_mean);
        assert_true(b.throttled_mean == 0);
        saturn_results_free(&b);
    }
    saturn_results_free(&a);
}

/* Throttling does throttle: a gate that is always shut once anything waits
 * (base Rth = 100 %, Rn = 0) slows a congested collective down. */
static void throttling_acts(void **state)
{
    (void)state;
    struct saturn_results a = test_run((const char *const[]){
        "network.k=8", "sim.workload=collective", "traffic.pattern=bitrev", NULL});
    struct saturn_results b = test_run((const char *const[]){
        "network.k=8", "sim.workload=collective", "traffic.pattern=bitrev",
        "control.model=base", "entropy.rth=100", "entropy.rn=0", NULL});
    assert_true(b.throttled_mean > 0.1);
    assert_true(b.duration != a.duration);
    assert_int_equal(b.measured_delivered, a.measured_delivered);
    saturn_results_free(&a);
    saturn_results_free(&b);
}

static void model_keys_checked(void **state)
{
    (void)state;
    struct saturn_config *c = test_config((const char *const[]){
        "control.model=base", "entropy.ron=50", NULL});
    struct saturn_error err = {0};
    struct saturn_results r;
    assert_int_equal(saturn_run(c, &r, &err), SATURN_EINPUT);
    assert_non_null(strstr(err.msg, "entropy.ron = 50: is not a parameter of control.model = base"));
    saturn_config_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(decision_rules),
        cmocka_unit_test(circuit_delay_model),
        cmocka_unit_test(circuit_fast_path_same),
        cmocka_unit_test(vcc_waits_for_idle_links),
        cmocka_unit_test(sums_age),
        cmocka_unit_test(guard_time_fixed),
        cmocka_unit_test(guard_time_random),
        cmocka_unit_test(started_packet_never_cut),
        cmocka_unit_test(gate_is_may_start),
        cmocka_unit_test(mobility_by_hand),
        cmocka_unit_test(inert_controllers_equal_noth),
        cmocka_unit_test(throttling_acts),
        cmocka_unit_test(model_keys_checked),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
