/* Dimension-order routing: ports and VC classes along hand-worked paths. */
#include <stdio.h>
#include <string.h>

#include "net/net.h"
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
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(classic_wraps_to_class_one),
        cmocka_unit_test(classic_resets_per_dimension),
        cmocka_unit_test(cumulative_counts_crossings),
        cmocka_unit_test(mesh_never_wraps),
        cmocka_unit_test(random_tie_goes_both_ways),
        cmocka_unit_test(scheme_needs_enough_vcs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
