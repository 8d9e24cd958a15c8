/* BookSim 2's Dragonfly routings (routing.algorithm = booksim_min,
 * booksim_ugal): the VC of every hop on hand-worked paths (BookSim's
 * VC = phase), UGAL's decision at its threshold, the channel dependency
 * graphs (min acyclic; ugal's is not, as BookSim's), and the zero-load
 * latency of --preset booksim-iq on dragonflynew's 10/100-cycle links
 * (22 + 4H + the links, as BookSim gives). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/net.h"
#include "route/dragonfly.h"
#include "saturn/io.h"
#include "support.h"
#include "topo/topo.h"

/* dragonflynew with k = 2 (p = 2, a = 4, h = 2, 9 groups of 4 routers),
 * BookSim's numbering and consecutive global links, 3 VCs everywhere. */
static struct net *bs_net(const char *routing, struct saturn_config **cfgp)
{
    static const char *const kv[] = {
        "network.topology=dragonfly", "dragonfly.p=2", "dragonfly.a=4", "dragonfly.h=2",
        "dragonfly.arrangement=consecutive", "router.vcs=3", "dragonfly.local_vcs=3",
        "dragonfly.global_vcs=3", "router.buf_flits=256", "dragonfly.global_buf_flits=256",
        "routing.reroute=once", "traffic.packet_length=16", NULL};
    struct saturn_config *c = saturn_config_new();
    struct saturn_error err = {0};
    assert_int_equal(saturn_config_preset(c, "booksim-iq", &err), SATURN_OK);
    for (const char *const *w = kv; *w; w++)
        assert_int_equal(saturn_config_apply_arg(c, *w, &err), SATURN_OK);
    char word[64];
    snprintf(word, sizeof word, "routing.algorithm=%s", routing);
    assert_int_equal(saturn_config_apply_arg(c, word, &err), SATURN_OK);
    struct net *n = calloc(1, sizeof *n);
    if (net_create(n, c, 1, &err))
        fail_msg("%s", err.msg);
    *cfgp = c;
    return n;
}

static void bs_net_free(struct net *n, struct saturn_config *c)
{
    net_destroy(n);
    free(n);
    saturn_config_free(c);
}

struct hop {
    char cls; /* 'L' local, 'G' global, 'E' ejection */
    int vc;
};

/* Walks the head of a packet from router s (node s p) to router d (node
 * d p + 1) with intermediate router mid in route[0]; force_val: the source
 * decision taken as Valiant (phase 0, as if the queues said so). Checks
 * the hops against want. */
static void walk(struct net *n, uint32_t s, uint32_t d, uint32_t mid, bool force_val,
                 const struct hop *want, int nwant)
{
    const struct topo *t = &n->topo;
    struct packet p;
    memset(&p, 0, sizeof p);
    p.src = s * (uint32_t)t->p;
    p.dst = d * (uint32_t)t->p + 1;
    p.len = 16;
    p.route[0] = mid;
    uint32_t r = s;
    int in_port = force_val ? 0 : t->radix; /* a network port: no source decision */
    for (int i = 0;; i++) {
        struct route_result out;
        n->rops->route(n->rstate, n, r, in_port, 0, &p, &out);
        assert_int_equal(out.n, 1);
        assert_int_equal(out.c[0].vc_lo, out.c[0].vc_hi);
        int port = out.c[0].port;
        char cls = port >= t->radix ? 'E' : topo_port_class(t, port) == TOPO_GLOBAL ? 'G' : 'L';
        if (i >= nwant || cls != want[i].cls || out.c[0].vc_lo != want[i].vc)
            fail_msg("%u -> %u via %u, hop %d at router %u: %c VC %d, expected %c VC %d", s, d,
                     mid, i, r, cls, out.c[0].vc_lo, i < nwant ? want[i].cls : '-',
                     i < nwant ? want[i].vc : -1);
        if (cls == 'E') {
            assert_int_equal(r, d);
            assert_int_equal(port, topo_node_port(t, p.dst));
            assert_int_equal(i + 1, nwant);
            return;
        }
        topo_link(t, r, port, &r, &in_port);
    }
}

/* Hand-worked on k = 2 (BookSim's dragonfly.cpp): group 0's link to group 5
 * is its link 4, on router 2; it lands on group 5's link 0, router 20.
 * Group 0's link to group 3 is link 2 on router 1, landing on router 12;
 * group 3's link to group 5 is link 4 on router 14, landing on router 21. */
static void min_vcs_are_booksims(void **state)
{
    (void)state;
    struct saturn_config *c;
    struct net *n = bs_net("booksim_min", &c);
    /* VC 0 before the global link, VC 1 on it and after (ejection too) */
    const struct hop lgl[] = {{'L', 0}, {'G', 1}, {'L', 1}, {'E', 1}};
    walk(n, 0, 23, 0, false, lgl, 4);
    const struct hop gl[] = {{'G', 1}, {'L', 1}, {'E', 1}};
    walk(n, 2, 23, 0, false, gl, 3);
    /* inside a group: VC 0 all the way */
    const struct hop l[] = {{'L', 0}, {'E', 0}};
    walk(n, 0, 3, 0, false, l, 2);
    bs_net_free(n, c);
}

static void ugal_vcs_are_booksims(void **state)
{
    (void)state;
    struct saturn_config *c;
    struct net *n = bs_net("booksim_ugal", &c);
    /* empty queues: minimal, VC 1 then 2 from the global link on */
    const struct hop min[] = {{'L', 1}, {'G', 2}, {'L', 2}, {'E', 2}};
    walk(n, 0, 23, 13, false, min, 4);
    /* intermediate router 13: VC 0 up to it, 1 to group 3's gateway, 2 on */
    const struct hop val[] = {{'L', 0}, {'G', 0}, {'L', 0}, {'L', 1}, {'G', 2}, {'L', 2}, {'E', 2}};
    walk(n, 0, 23, 13, true, val, 7);
    /* intermediate in the source group: minimal */
    walk(n, 0, 23, 3, false, min, 4);
    /* inside a group: VC 2 */
    const struct hop l[] = {{'L', 2}, {'E', 2}};
    walk(n, 0, 3, 13, false, l, 2);
    bs_net_free(n, c);
}

/* Flits in use on output port of router r: VC 0's credits taken. */
static void use_credits(struct net *n, uint32_t r, int port, int32_t flits)
{
    n->ovcs[((size_t)r * (size_t)n->P + (size_t)port) * (size_t)n->V].credits -= flits;
}

/* Minimal iff q_min <= 2 q_nonmin + 30 (flits in use on the first hops). */
static void ugal_decision_at_threshold(void **state)
{
    (void)state;
    struct saturn_config *c;
    struct net *n = bs_net("booksim_ugal", &c);
    const struct topo *t = &n->topo;
    int pmin = df_port_to_router(t, 0, 23), pval = df_port_to_router(t, 0, 13);
    assert_int_not_equal(pmin, pval);
    use_credits(n, 0, pval, 5);
    for (int32_t qmin = 39; qmin <= 41; qmin++) {
        use_credits(n, 0, pmin, qmin);
        struct packet p;
        memset(&p, 0, sizeof p);
        p.src = 0;
        p.dst = 23 * 2;
        p.len = 16;
        p.route[0] = 13;
        struct route_result out;
        n->rops->route(n->rstate, n, 0, t->radix, 0, &p, &out);
        bool minimal = qmin <= 2 * 5 + 30;
        assert_int_equal(out.c[0].port, minimal ? pmin : pval);
        assert_int_equal(out.c[0].vc_lo, minimal ? 1 : 0);
        assert_int_equal(!!(p.misroute & PACKET_MISROUTED_GLOBAL), !minimal);
        use_credits(n, 0, pmin, -qmin);
    }
    bs_net_free(n, c);
}

/* The channel dependency graph of every path (ugal: the minimal one and
 * Valiant through every router outside the source group). */
static bool cdg_cycle(const char *routing)
{
    struct saturn_config *c;
    struct net *n = bs_net(routing, &c);
    const struct topo *t = &n->topo;
    const size_t nch = (size_t)t->routers * n->P * n->V;
    uint8_t *edge = calloc(nch * nch, 1);
    bool ugal = strcmp(routing, "booksim_ugal") == 0;
    for (uint32_t s = 0; s < t->routers; s++)
        for (uint32_t d = 0; d < t->routers; d++)
            for (uint32_t mid = 0; mid < (ugal ? t->routers : 1); mid++)
                for (int val = 0; val < 1 + (ugal && df_group(t, mid) != df_group(t, s)); val++) {
                    struct packet p;
                    memset(&p, 0, sizeof p);
                    p.src = s * (uint32_t)t->p;
                    p.dst = d * (uint32_t)t->p;
                    p.len = 16;
                    p.route[0] = mid;
                    uint32_t r = s;
                    int in_port = val ? 0 : t->radix;
                    long prev = -1;
                    for (int hops = 0;; hops++) {
                        assert_true(hops <= 6);
                        struct route_result out;
                        n->rops->route(n->rstate, n, r, in_port, 0, &p, &out);
                        if (out.c[0].port >= t->radix)
                            break;
                        size_t ch = ((size_t)r * n->P + out.c[0].port) * n->V + out.c[0].vc_lo;
                        if (prev >= 0)
                            edge[(size_t)prev * nch + ch] = 1;
                        prev = (long)ch;
                        topo_link(t, r, out.c[0].port, &r, &in_port);
                    }
                }
    bool cyc = test_graph_has_cycle(edge, nch);
    free(edge);
    bs_net_free(n, c);
    return cyc;
}

static void dependency_graphs(void **state)
{
    (void)state;
    assert_false(cdg_cycle("booksim_min"));
    /* VC 0 carries a source group's local hop before a global link and an
     * intermediate group's local hop after one: BookSim's ugal relies on
     * deep buffers, not on its VC order */
    assert_true(cdg_cycle("booksim_ugal"));
}

/* A lone 16-flit packet over H router-to-router hops takes 22 + 4H + the
 * link latencies (10 local, 100 global), as BookSim measures on
 * dragonflynew (BOOKSIM.md; 22 + 5H on 1-cycle links). */
static void zero_load_latency(void **state)
{
    (void)state;
    for (int u = 0; u < 2; u++) {
        struct saturn_config *c;
        struct net *n = bs_net(u ? "booksim_ugal" : "booksim_min", &c);
        const struct topo *t = &n->topo;
        for (uint32_t s = 0; s < t->routers; s += 5)
            for (uint32_t d = 1; d < t->routers; d += 3) {
                uint32_t pid = net_packet_new(n, s * 2, d * 2 + 1, 16, true);
                uint64_t t0 = n->now, links = 0, H = 0;
                for (uint32_t r = s; r != d; H++) {
                    int port = df_port_to_router(t, r, d), fp;
                    links += topo_port_class(t, port) == TOPO_GLOBAL ? 100 : 10;
                    topo_link(t, r, port, &r, &fp);
                }
                while (n->pk[pid].rx < 16)
                    assert_int_equal(net_step(n), SATURN_OK);
                uint64_t took = n->now - 1 - t0;
                if (took != 22 + 4 * H + links)
                    fail_msg("%s %u -> %u: %llu cycles, expected 22 + 4 x %llu + %llu",
                             u ? "ugal" : "min", s, d, (unsigned long long)took,
                             (unsigned long long)H, (unsigned long long)links);
            }
        bs_net_free(n, c);
    }
}

/* Too few VCs for the phases: a clear error naming the key. */
static void needs_vcs(void **state)
{
    (void)state;
    struct saturn_config *c = test_config((const char *const[]){
        "network.topology=dragonfly", "routing.algorithm=booksim_ugal", "dragonfly.global_vcs=2",
        NULL});
    struct saturn_sim *s;
    struct saturn_error err = {0};
    assert_int_equal(saturn_sim_create(c, &s, &err), SATURN_EINPUT);
    assert_non_null(strstr(err.msg, "dragonfly.global_vcs"));
    saturn_config_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(min_vcs_are_booksims),
        cmocka_unit_test(ugal_vcs_are_booksims),
        cmocka_unit_test(ugal_decision_at_threshold),
        cmocka_unit_test(dependency_graphs),
        cmocka_unit_test(zero_load_latency),
        cmocka_unit_test(needs_vcs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
