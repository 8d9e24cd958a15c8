/* Dimension-order routing: ports and VC classes along hand-worked paths. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/net_internal.h"
#include "saturn/io.h"
#include "support.h"

struct hop {
    int port, vc_lo, vc_hi;
};

/* Follows the route of a packet src -> dst hop by hop and compares each
 * candidate with the expected list (last entry: the local port). */
static void walk(const char *const *kv, uint32_t src, uint32_t dst, const struct hop *want, int nwant)
{
    struct saturn_config *c = test_config(kv);
    struct saturn_error err = {0};
    struct net n;
    if (net_create(&n, c, 1, &err))
        fail_msg("%s", err.msg);
    uint32_t pid = net_packet_new(&n, src, dst, 1, false);
    struct packet *p = net_packet(&n, pid);
    uint32_t r = src;
    int in_port = n.topo.radix;
    for (int i = 0; i < nwant; i++) {
        struct route_result out;
        n.rops->route(n.rstate, &n, r, in_port, 0, p, &out);
        assert_int_equal(out.n, 1);
        if (out.c[0].port != want[i].port || out.c[0].vc_lo != want[i].vc_lo ||
            out.c[0].vc_hi != want[i].vc_hi)
            fail_msg("hop %d at router %u: port %d vcs %d..%d, expected port %d vcs %d..%d", i, r,
                     out.c[0].port, out.c[0].vc_lo, out.c[0].vc_hi, want[i].port, want[i].vc_lo,
                     want[i].vc_hi);
        if (i + 1 < nwant) {
            uint32_t fr;
            int fp;
            assert_true(topo_link(&n.topo, r, out.c[0].port, &fr, &fp));
            r = fr;
            in_port = fp;
        }
    }
    assert_int_equal(r, dst);
    net_destroy(&n);
    saturn_config_free(c);
}

/* Ring of 8, classic datelines, 2 VCs: 6 -> 1 goes + through the wrap link
 * 7 -> 0, switching to class 1 on it. */
static void classic_wraps_to_class_one(void **state)
{
    (void)state;
    const char *const kv[] = {"network.k=8", "network.n=1", "router.vcs=2", NULL};
    const struct hop want[] = {{0, 0, 0}, {0, 1, 1}, {0, 1, 1}, {2, 0, 1}};
    walk(kv, 6, 1, want, 4);
    /* 1 -> 6 goes - through 0 -> 7. */
    const struct hop back[] = {{1, 0, 0}, {1, 1, 1}, {1, 1, 1}, {2, 0, 1}};
    walk(kv, 1, 6, back, 4);
}

/* 8x8 torus, classic, 4 VCs (2 per class): class resets in the y dimension.
 * (6,0) -> (1,2): x: 6->7 c0, 7->0 c1, 0->1 c1; y: 0->1 c0, 1->2 c0. */
static void classic_resets_per_dimension(void **state)
{
    (void)state;
    const char *const kv[] = {"network.k=8", "router.vcs=4", NULL};
    const struct hop want[] = {{0, 0, 1}, {0, 2, 3}, {0, 2, 3}, {2, 0, 1}, {2, 0, 1}, {4, 0, 3}};
    walk(kv, 6, 1 + 2 * 8, want, 6);
}

/* Paper 000's scheme on 8x8 with 3 VCs: datelines at 0 and k/2, one VC up
 * per crossing, never reset. (2,2) -> (5,6): x 2->3 vc0, 3->4 crosses k/2
 * vc1, 4->5 vc1; y (tie, + way) 2->3 vc1, 3->4 crosses vc2, 4->5, 5->6 vc2. */
static void cumulative_counts_crossings(void **state)
{
    (void)state;
    const char *const kv[] = {"network.k=8", "router.vcs=3", "routing.dateline=cumulative", NULL};
    const struct hop want[] = {{0, 0, 0}, {0, 1, 1}, {0, 1, 1}, {2, 1, 1}, {2, 2, 2},
                               {2, 2, 2}, {2, 2, 2}, {4, 0, 2}};
    walk(kv, 2 + 2 * 8, 5 + 6 * 8, want, 8);
    /* (7,7) -> (0,0): x 7->0 crosses the wrap vc1; y 7->0 crosses vc2. */
    const struct hop wrap[] = {{0, 1, 1}, {2, 2, 2}, {4, 0, 2}};
    walk(kv, 63, 0, wrap, 3);
    /* going -: (5,0) -> (2,0): 5->4 vc0, 4->3 crosses k/2 (link 4 -> 3) vc1, 3->2 vc1 */
    const struct hop minus[] = {{1, 0, 0}, {1, 1, 1}, {1, 1, 1}, {4, 0, 2}};
    walk(kv, 5, 2, minus, 4);
}

/* The readings of "datelines at x = 0 and x = N/2" (routing.dateline_at) on
 * a ring of 8 with 2 VCs (class c = VC c):
 *   1 -> 7 goes - (1 -> 0 -> 7): link crosses on 0 -> 7, arrive on 1 -> 0,
 *          depart on 0 -> 7;
 *   7 -> 1 goes + (7 -> 0 -> 1): link and arrive cross on 7 -> 0, depart
 *          on 0 -> 1;
 *   0 -> 2 goes + from a dateline node: only depart crosses (0 -> 1);
 *   6 -> 4 goes - into k/2: only arrive crosses (5 -> 4). */
static void dateline_at_readings(void **state)
{
    (void)state;
    const char *const link[] = {"network.k=8", "network.n=1", "router.vcs=2",
                                "routing.dateline=cumulative", NULL};
    const char *const arrive[] = {"network.k=8", "network.n=1", "router.vcs=2",
                                  "routing.dateline=cumulative", "routing.dateline_at=arrive", NULL};
    const char *const depart[] = {"network.k=8", "network.n=1", "router.vcs=2",
                                  "routing.dateline=cumulative", "routing.dateline_at=depart", NULL};
    const struct hop m01[] = {{1, 0, 0}, {1, 1, 1}, {2, 0, 1}}, m11[] = {{1, 1, 1}, {1, 1, 1}, {2, 0, 1}};
    walk(link, 1, 7, m01, 3);
    walk(arrive, 1, 7, m11, 3);
    walk(depart, 1, 7, m01, 3);
    const struct hop p11[] = {{0, 1, 1}, {0, 1, 1}, {2, 0, 1}}, p01[] = {{0, 0, 0}, {0, 1, 1}, {2, 0, 1}};
    walk(link, 7, 1, p11, 3);
    walk(arrive, 7, 1, p11, 3);
    walk(depart, 7, 1, p01, 3);
    const struct hop p00[] = {{0, 0, 0}, {0, 0, 0}, {2, 0, 1}}, p10[] = {{0, 1, 1}, {0, 1, 1}, {2, 0, 1}};
    walk(link, 0, 2, p00, 3);
    walk(arrive, 0, 2, p00, 3);
    walk(depart, 0, 2, p10, 3);
    const struct hop m00[] = {{1, 0, 0}, {1, 0, 0}, {2, 0, 1}};
    walk(link, 6, 4, m00, 3);
    walk(arrive, 6, 4, m01, 3);
    walk(depart, 6, 4, m00, 3);
}

/* Paper 000's scheme on every route of rings of 2 to 9 and 66 and five tori: each
 * hop's VC is the number of datelines (the wrap link k-1 <-> 0 and the link
 * k/2-1 <-> k/2 of every dimension; with routing.dateline_at = arrive the
 * hops into coordinate 0 or k/2, with depart those out of them) the packet
 * has crossed, this hop's included, counted along the links it is given. */
static void cumulative_classes_exhaustive(void **state)
{
    (void)state;
    const char *const shapes[][3] = { /* n + 1 VCs: VC c is class c */
        {"network.k=3", "network.n=1", "router.vcs=2"},
        {"network.k=4", "network.n=1", "router.vcs=2"},
        {"network.k=5", "network.n=1", "router.vcs=2"},
        {"network.k=8", "network.n=1", "router.vcs=2"},
        {"network.k=9", "network.n=1", "router.vcs=2"},
        {"network.k=7,8", "network.n=2", "router.vcs=3"},
        {"network.k=4,5", "network.n=2", "router.vcs=3"},
        /* Rings of 2: both links of the ring are datelines (the wrap 1 -> 0
         * and the middle 0 -> 1, k/2 - 1 = 0), so every hop in such a ring
         * crosses one and moves the packet up a class: a single hop on a
         * ring of 2 is class 1, which with 3 VCs (2 classes, class 0 owning
         * VCs 0-1) is VC 2; on 2x2 the second dimension's hop is class 2.
         * As the scheme says, and deadlock-free (tested with the CDG below
         * for larger rings; here every channel's class exceeds the one
         * before it on the packet's path). */
        {"network.k=2", "network.n=1", "router.vcs=2"},
        {"network.k=2,5", "network.n=2", "router.vcs=3"},
        {"network.k=2,2", "network.n=2", "router.vcs=3"},
        /* dor.c counts the datelines from tables for rings up to 64
         * (DOR_TAB_K), as it goes beyond: both sides of the limit */
        {"network.k=64,3", "network.n=2", "router.vcs=3"},
        {"network.k=66", "network.n=1", "router.vcs=2"},
    };
    const char *const ats[] = {"routing.dateline_at=link", "routing.dateline_at=arrive",
                               "routing.dateline_at=depart"};
    for (size_t s = 0; s < 3 * sizeof shapes / sizeof shapes[0]; s++) {
        const int at = (int)(s % 3);
        const char *const kv[] = {shapes[s / 3][0], shapes[s / 3][1], shapes[s / 3][2],
                                  "routing.dateline=cumulative", "routing.tie=random", ats[at],
                                  NULL};
        struct saturn_config *c = test_config(kv);
        struct saturn_error err = {0};
        struct net n;
        if (net_create(&n, c, 1, &err))
            fail_msg("%s", err.msg);
        const struct topo *t = &n.topo;
        for (uint32_t src = 0; src < t->routers; src++)
            for (uint32_t dst = 0; dst < t->routers; dst++) {
                if (src == dst)
                    continue;
                uint32_t pid = net_packet_new(&n, src, dst, 1, false);
                struct packet *p = net_packet(&n, pid);
                uint32_t r = src;
                int in_port = t->radix, crossed = 0;
                while (r != dst) {
                    struct route_result out;
                    n.rops->route(n.rstate, &n, r, in_port, 0, p, &out);
                    assert_int_equal(out.n, 1);
                    int port = out.c[0].port, d = port / 2;
                    assert_true(port < t->radix);
                    uint32_t fr;
                    int fp;
                    assert_true(topo_link(t, r, port, &fr, &fp));
                    int a = topo_coord(t, r, d), b = topo_coord(t, fr, d), k = t->k[d];
                    int lo = a < b ? a : b, hi = a < b ? b : a;
                    const int x = at == 1 ? b : a; /* the node arrived at / departed */
                    if (at == 0 ? (lo == 0 && hi == k - 1) || (lo == k / 2 - 1 && hi == k / 2)
                                : x == 0 || x == k / 2)
                        crossed++;
                    if (out.c[0].vc_lo != crossed || out.c[0].vc_hi != crossed)
                        fail_msg("%s %s %u -> %u at %u: vcs %d..%d, %d datelines crossed",
                                 shapes[s / 3][0], ats[at], src, dst, r, out.c[0].vc_lo,
                                 out.c[0].vc_hi, crossed);
                    r = fr;
                    in_port = fp;
                }
            }
        net_destroy(&n);
        saturn_config_free(c);
    }
    /* the ring of 2 with 3 VCs: class 1 is VC 2 (route_vc_class), either way */
    const char *const kv2[] = {"network.k=2", "network.n=1", "router.vcs=3",
                               "routing.dateline=cumulative", NULL};
    const struct hop a[] = {{0, 2, 2}, {2, 0, 2}};
    walk(kv2, 0, 1, a, 2);
    walk(kv2, 1, 0, a, 2);
}

/* BookSim's rule (routing.dateline = entry), the hand-worked cases of
 * experiments/booksim-validation/BOOKSIM.md on a ring of 8 with 2 VCs:
 * 6 -> 1 goes + (6 > 1: class 1 on all three hops, before the wrap too);
 * 1 -> 6 goes - through the wrap 0 -> 7 (1 < 6: class 0 throughout);
 * 3 -> 5 goes + (class 0). On 8x8, the class is chosen again in y. */
static void entry_rule_is_booksims(void **state)
{
    (void)state;
    const char *const kv[] = {"network.k=8", "network.n=1", "router.vcs=2",
                              "routing.dateline=entry", NULL};
    const struct hop a[] = {{0, 1, 1}, {0, 1, 1}, {0, 1, 1}, {2, 0, 1}};
    walk(kv, 6, 1, a, 4);
    const struct hop b[] = {{1, 0, 0}, {1, 0, 0}, {1, 0, 0}, {2, 0, 1}};
    walk(kv, 1, 6, b, 4);
    const struct hop c[] = {{0, 0, 0}, {0, 0, 0}, {2, 0, 1}};
    walk(kv, 3, 5, c, 3);
    /* (6,1) -> (1,3) on 8x8 with 4 VCs: x + class 1 (VCs 2-3), y + class 0 (0-1) */
    const char *const kv2[] = {"network.k=8", "router.vcs=4", "routing.dateline=entry", NULL};
    const struct hop d[] = {{0, 2, 3}, {0, 2, 3}, {0, 2, 3}, {2, 0, 1}, {2, 0, 1}, {4, 0, 3}};
    walk(kv2, 6 + 8, 1 + 3 * 8, d, 6);
}

/* Every DOR scheme's channel dependency graph (channel = router, port, VC
 * class) over all pairs is acyclic on rings of 4 to 9 and a 5x4 torus; and
 * the check can fail (no datelines, rings of 5 and more). */
static bool dor_cdg_cycle_at(const char *dateline, const char *k, const char *n_dims,
                             const char *extra)
{
    const char *const kv[] = {k, n_dims, "router.vcs=3", dateline, "debug.allow_deadlock=true",
                              "routing.tie=parity", extra, NULL};
    struct saturn_config *c = test_config(kv);
    struct saturn_error err = {0};
    struct net n;
    if (net_create(&n, c, 1, &err))
        fail_msg("%s", err.msg);
    const uint32_t R = n.topo.routers, P = (uint32_t)n.P, V = (uint32_t)n.V;
    const size_t nch = (size_t)R * P * V;
    uint8_t *edge = calloc(nch * nch, 1);
    for (uint32_t s = 0; s < R; s++)
        for (uint32_t d = 0; d < R; d++) {
            if (s == d)
                continue;
            for (uint32_t v = 0; v < 4; v++) { /* balanced: every random class, x and y */
            uint32_t pid = net_packet_new(&n, s, d, 1, false);
            struct packet *p = net_packet(&n, pid);
            p->route[0] = (p->route[0] & 0xffffu) | v << 16;
            uint32_t r = s;
            int in_port = n.topo.radix;
            long prev = -1;
            while (r != d) {
                struct route_result out;
                n.rops->route(n.rstate, &n, r, in_port, 0, p, &out);
                size_t ch = ((size_t)r * P + out.c[0].port) * V + out.c[0].vc_lo;
                if (prev >= 0)
                    edge[(size_t)prev * nch + ch] = 1;
                prev = (long)ch;
                uint32_t fr;
                int fp;
                topo_link(&n.topo, r, out.c[0].port, &fr, &fp);
                r = fr;
                in_port = fp;
            }
            }
        }
    bool cyc = test_graph_has_cycle(edge, nch);
    free(edge);
    net_destroy(&n);
    saturn_config_free(c);
    return cyc;
}

static bool dor_cdg_cycle(const char *dateline, const char *k, const char *n_dims)
{
    return dor_cdg_cycle_at(dateline, k, n_dims, NULL);
}

static void dor_schemes_acyclic(void **state)
{
    (void)state;
    const char *const ks[] = {"network.k=4", "network.k=5", "network.k=8", "network.k=9"};
    for (int i = 0; i < 4; i++) {
        assert_false(dor_cdg_cycle("routing.dateline=entry", ks[i], "network.n=1"));
        assert_false(dor_cdg_cycle("routing.dateline=classic", ks[i], "network.n=1"));
        assert_false(dor_cdg_cycle("routing.dateline=balanced", ks[i], "network.n=1"));
        for (int a = 0; a < 3; a++) /* every reading of where the datelines are crossed */
            assert_false(dor_cdg_cycle_at("routing.dateline=cumulative", ks[i], "network.n=1",
                                          (const char *[]){"routing.dateline_at=link",
                                                           "routing.dateline_at=arrive",
                                                           "routing.dateline_at=depart"}[a]));
        if (i > 0) /* a ring of 4 with parity ties: paths of 2 hops cannot close it */
            assert_true(dor_cdg_cycle("routing.dateline=none", ks[i], "network.n=1"));
    }
    assert_false(dor_cdg_cycle("routing.dateline=entry", "network.k=5,4", "network.n=2"));
    assert_false(dor_cdg_cycle("routing.dateline=balanced", "network.k=5,4", "network.n=2"));
    assert_false(dor_cdg_cycle("routing.dateline=balanced", "network.k=8,6", "network.n=2"));
    assert_false(dor_cdg_cycle_at("routing.dateline=cumulative", "network.k=5,4", "network.n=2",
                                  "routing.dateline_at=arrive"));
    assert_false(dor_cdg_cycle_at("routing.dateline=cumulative", "network.k=5,4", "network.n=2",
                                  "routing.dateline_at=depart"));
}

/* BookSim's dim_order_bal (routing.dateline = balanced), the hand-worked
 * cases of BOOKSIM.md section 1.5 on a ring of 8 (middle link 3 <-> 4):
 * 6 -> 1 and 1 -> 6 wrap (class 1 on every hop); 3 -> 5 and 5 -> 3 cross
 * the middle (class 0; entry gives 5 -> 3 class 1); 4 -> 6 crosses neither:
 * a random class, the same on both hops, both classes among 64 packets. */
static void balanced_rule_is_booksims(void **state)
{
    (void)state;
    const char *const kv[] = {"network.k=8", "network.n=1", "router.vcs=2",
                              "routing.dateline=balanced", NULL};
    const struct hop a[] = {{0, 1, 1}, {0, 1, 1}, {0, 1, 1}, {2, 0, 1}};
    walk(kv, 6, 1, a, 4);
    const struct hop b[] = {{1, 1, 1}, {1, 1, 1}, {1, 1, 1}, {2, 0, 1}};
    walk(kv, 1, 6, b, 4);
    const struct hop c[] = {{0, 0, 0}, {0, 0, 0}, {2, 0, 1}};
    walk(kv, 3, 5, c, 3);
    const struct hop d[] = {{1, 0, 0}, {1, 0, 0}, {2, 0, 1}};
    walk(kv, 5, 3, d, 3);
    struct saturn_config *cfg = test_config(kv);
    struct saturn_error err = {0};
    struct net n;
    if (net_create(&n, cfg, 1, &err))
        fail_msg("%s", err.msg);
    int seen[2] = {0, 0};
    for (int i = 0; i < 64; i++) {
        uint32_t pid = net_packet_new(&n, 4, 6, 1, false);
        struct route_result h1, h2;
        n.rops->route(n.rstate, &n, 4, n.topo.radix, 0, net_packet(&n, pid), &h1);
        n.rops->route(n.rstate, &n, 5, 1, 0, net_packet(&n, pid), &h2);
        assert_int_equal(h1.c[0].port, 0);
        assert_int_equal(h1.c[0].vc_lo, h1.c[0].vc_hi);
        assert_int_equal(h2.c[0].vc_lo, h1.c[0].vc_lo);
        seen[h1.c[0].vc_lo]++;
    }
    assert_true(seen[0] > 10 && seen[1] > 10);
    net_destroy(&n);
    saturn_config_free(cfg);
}

/* --preset booksim-iq: a lone 16-flit packet over H hops takes 22 + 5H
 * cycles from its creation (BookSim's iq router with its defaults), on a
 * mesh and on a torus with 1-cycle links. */
static void booksim_iq_zero_load(void **state)
{
    (void)state;
    for (int mesh = 0; mesh < 2; mesh++) {
        struct saturn_config *c = saturn_config_new();
        struct saturn_error err = {0};
        assert_int_equal(saturn_config_preset(c, "booksim-iq", &err), SATURN_OK);
        assert_int_equal(saturn_config_apply_arg(c, "network.k=8", &err), SATURN_OK);
        if (mesh)
            assert_int_equal(saturn_config_apply_arg(c, "network.topology=mesh", &err), SATURN_OK);
        struct net n;
        if (net_create(&n, c, 1, &err))
            fail_msg("%s", err.msg);
        const uint32_t L = 16;
        const uint32_t pairs[][3] = {{0, 3 + 8 * 2, 5}, {9, 9 + 1, 1}, {0, 7 + 8 * 7, mesh ? 14 : 2}};
        for (int i = 0; i < 3; i++) {
            uint64_t t0 = n.now;
            uint32_t pid = net_packet_new(&n, pairs[i][0], pairs[i][1], L, true);
            while (n.pk[pid].rx < L)
                assert_int_equal(net_step(&n), SATURN_OK);
            uint64_t lat = n.now - 1 - t0;
            if (lat != 22 + 5 * pairs[i][2])
                fail_msg("%s, %u hops: %llu cycles, expected %u", mesh ? "mesh" : "torus",
                         pairs[i][2], (unsigned long long)lat, 22 + 5 * pairs[i][2]);
        }
        net_destroy(&n);
        saturn_config_free(c);
    }
}

/* BookSim's credit loop: a body flit's credit is back 5 cycles after its
 * switch allocation, so behind B < 5-flit buffers a lone 16-flit packet
 * streams B flits per 5 cycles; its tail trails the head by
 * 5 floor(15 / B) + 15 mod B cycles instead of 15. BookSim 2 measures
 * 73, 62, 55 and 52 cycles over 6 hops (tornado on an 8x8 torus) for
 * B = 2, 3, 4, 5 (BOOKSIM.md section 9); --preset booksim-iq with
 * router.buf_flits = B gives the same. */
static void booksim_iq_credit_loop(void **state)
{
    (void)state;
    const uint32_t want[] = {73, 62, 55, 52};
    for (uint32_t B = 2; B <= 5; B++) {
        struct saturn_config *c = saturn_config_new();
        struct saturn_error err = {0};
        char buf[64];
        snprintf(buf, sizeof buf, "router.buf_flits=%u", B);
        assert_int_equal(saturn_config_preset(c, "booksim-iq", &err), SATURN_OK);
        assert_int_equal(saturn_config_apply_arg(c, "network.k=8", &err), SATURN_OK);
        assert_int_equal(saturn_config_apply_arg(c, buf, &err), SATURN_OK);
        struct net n;
        if (net_create(&n, c, 1, &err))
            fail_msg("%s", err.msg);
        uint64_t t0 = n.now;
        uint32_t pid = net_packet_new(&n, 0, 3 + 8 * 3, 16, true);
        while (n.pk[pid].rx < 16)
            assert_int_equal(net_step(&n), SATURN_OK);
        uint64_t lat = n.now - 1 - t0;
        assert_int_equal(lat, 22 + 5 * 6 + 5 * (15 / B) + 15 % B - 15);
        assert_int_equal(lat, want[B - 2]);
        net_destroy(&n);
        saturn_config_free(c);
    }
}

static void mesh_never_wraps(void **state)
{
    (void)state;
    const char *const kv[] = {"network.topology=mesh", "network.k=8", "router.vcs=2", NULL};
    /* 7 -> 0 on a mesh goes - seven times, any VC. */
    struct hop want[8];
    for (int i = 0; i < 7; i++)
        want[i] = (struct hop){1, 0, 1};
    want[7] = (struct hop){4, 0, 1};
    walk(kv, 7, 0, want, 8);
}

static void random_tie_goes_both_ways(void **state)
{
    (void)state;
    struct saturn_config *c = test_config((const char *const[]){"network.k=8", "network.n=1",
                                                                "router.vcs=2", "routing.tie=random", NULL});
    struct saturn_error err = {0};
    struct net n;
    assert_int_equal(net_create(&n, c, 1, &err), SATURN_OK);
    int plus = 0, minus = 0;
    for (int i = 0; i < 200; i++) {
        uint32_t pid = net_packet_new(&n, 0, 4, 1, false);
        struct route_result out;
        n.rops->route(n.rstate, &n, 0, 2, 0, net_packet(&n, pid), &out);
        plus += out.c[0].port == 0;
        minus += out.c[0].port == 1;
    }
    assert_int_equal(plus + minus, 200);
    assert_true(plus > 60 && minus > 60);
    net_destroy(&n);
    saturn_config_free(c);
}

static void scheme_needs_enough_vcs(void **state)
{
    (void)state;
    struct saturn_error err = {0};
    struct net n;
    struct saturn_config *c = test_config((const char *const[]){"network.n=3", "router.vcs=3",
                                                                "routing.dateline=cumulative", NULL});
    assert_int_equal(net_create(&n, c, 1, &err), SATURN_EINPUT);
    net_destroy(&n);
    assert_non_null(strstr(err.msg, "router.vcs = 3"));
    assert_non_null(strstr(err.msg, "at least 4"));
    saturn_config_free(c);
    c = test_config((const char *const[]){"network.topology=mesh", "routing.dateline=classic", NULL});
    assert_int_equal(net_create(&n, c, 1, &err), SATURN_EINPUT);
    net_destroy(&n);
    assert_non_null(strstr(err.msg, "routing.dateline"));
    saturn_config_free(c);
    /* where datelines are crossed is a choice of the cumulative scheme only */
    c = test_config((const char *const[]){"routing.dateline=classic", "routing.dateline_at=arrive",
                                          NULL});
    assert_int_equal(net_create(&n, c, 1, &err), SATURN_EINPUT);
    net_destroy(&n);
    assert_non_null(strstr(err.msg, "routing.dateline_at = arrive"));
    saturn_config_free(c);
}

/* The engine routes inline (n->alloc_vc1, DOR's instance installed through
 * route_ops.alloc_vc1) exactly the schemes dor_fast_route computes: classic,
 * and cumulative where the tables exist
 * (rings up to 64); the others (entry, balanced, none, cumulative beyond the
 * tables) and other policies keep the call, which would otherwise route them
 * as classic or cumulative. */
static void fast_route_only_where_it_applies(void **state)
{
    (void)state;
    const struct {
        const char *kv[5];
        bool fast;
    } cases[] = {
        {{"network.k=8", NULL}, true}, /* auto: classic */
        {{"network.k=8", "routing.dateline=classic", NULL}, true},
        {{"network.k=8", "routing.dateline=cumulative", NULL}, true},
        {{"network.k=64,3", "routing.dateline=cumulative", NULL}, true},
        {{"network.k=66", "network.n=1", "router.vcs=2", "routing.dateline=cumulative", NULL},
         false},
        {{"network.k=8", "routing.dateline=entry", NULL}, false},
        {{"network.k=8", "routing.dateline=balanced", NULL}, false},
        {{"network.k=8", "routing.dateline=none", "debug.allow_deadlock=true", NULL}, false},
        {{"network.topology=mesh", "network.k=8", NULL}, false},
        {{"network.k=8", "routing.algorithm=duato", "router.vcs=4", NULL}, false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct saturn_config *c = test_config(cases[i].kv);
        struct saturn_error err = {0};
        struct net n;
        if (net_create(&n, c, 1, &err))
            fail_msg("%s", err.msg);
        /* the engine's own (router_alloc_vc1) routes through the ops */
        const bool fast = n.alloc_vc1 != router_alloc_vc1;
        if (fast != cases[i].fast)
            fail_msg("case %zu (%s %s): fast route %s", i, cases[i].kv[0],
                     cases[i].kv[1] ? cases[i].kv[1] : "", fast ? "on" : "off");
        net_destroy(&n);
        saturn_config_free(c);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(classic_wraps_to_class_one),
        cmocka_unit_test(classic_resets_per_dimension),
        cmocka_unit_test(cumulative_counts_crossings),
        cmocka_unit_test(cumulative_classes_exhaustive),
        cmocka_unit_test(dateline_at_readings),
        cmocka_unit_test(entry_rule_is_booksims),
        cmocka_unit_test(dor_schemes_acyclic),
        cmocka_unit_test(balanced_rule_is_booksims),
        cmocka_unit_test(booksim_iq_zero_load),
        cmocka_unit_test(booksim_iq_credit_loop),
        cmocka_unit_test(mesh_never_wraps),
        cmocka_unit_test(random_tie_goes_both_ways),
        cmocka_unit_test(scheme_needs_enough_vcs),
        cmocka_unit_test(fast_route_only_where_it_applies),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
