/* Tori and meshes: links, ports, distances. */
#include <string.h>

#include "support.h"
#include "topo/topo.h"

static struct topo build(const char *const *kv)
{
    struct saturn_config *c = test_config(kv);
    struct saturn_error err = {0};
    struct topo t;
    if (topo_build(&t, c, &err))
        fail_msg("%s", err.msg);
    saturn_config_free(c);
    return t;
}

/* Every link's far end links back through the opposite port. */
static void links_are_symmetric(void **state)
{
    (void)state;
    const char *const *cases[] = {
        (const char *const[]){"network.k=4,3,2", "network.n=3", NULL},
        (const char *const[]){"network.k=5", "network.topology=mesh", NULL},
        (const char *const[]){"network.k=2", "network.n=1", NULL},
    };
    for (int i = 0; i < 3; i++) {
        struct topo t = build(cases[i]);
        for (uint32_t r = 0; r < t.routers; r++)
            for (int p = 0; p < t.radix; p++) {
                uint32_t fr, br;
                int fp, bp;
                if (!topo_link(&t, r, p, &fr, &fp))
                    continue;
                assert_int_equal(fp, p ^ 1);
                assert_true(topo_link(&t, fr, fp, &br, &bp));
                assert_int_equal(br, r);
                assert_int_equal(bp, p);
                assert_int_equal(topo_distance(&t, r, fr), 1);
            }
        topo_free(&t);
    }
}

static void ports_and_edges(void **state)
{
    (void)state;
    struct topo t = build((const char *const[]){"network.k=4", "network.topology=mesh", NULL});
    uint32_t fr;
    int fp;
    assert_int_equal(t.radix, 4);
    assert_int_equal(topo_node_port(&t, 5), 4);
    assert_false(topo_link(&t, 0, 1, &fr, &fp));  /* corner: no -x */
    assert_false(topo_link(&t, 0, 3, &fr, &fp));  /* no -y */
    assert_true(topo_link(&t, 0, 0, &fr, &fp));
    assert_int_equal(fr, 1);
    assert_true(topo_link(&t, 0, 2, &fr, &fp));
    assert_int_equal(fr, 4);
    assert_int_equal(topo_diameter(&t), 6);
    assert_int_equal(topo_distance(&t, 0, 15), 6);
    topo_free(&t);
    t = build((const char *const[]){"network.k=4", NULL});
    assert_true(topo_link(&t, 0, 1, &fr, &fp)); /* wrap */
    assert_int_equal(fr, 3);
    assert_int_equal(topo_diameter(&t), 4);
    assert_int_equal(topo_distance(&t, 0, 15), 2);
    int c[2] = {3, 2};
    assert_int_equal(topo_id(&t, c), 11);
    topo_free(&t);
}

static void bad_k_lists(void **state)
{
    (void)state;
    struct saturn_config *c = test_config((const char *const[]){"network.k=4,4,4", "network.n=2", NULL});
    struct saturn_error err = {0};
    struct topo t;
    assert_int_equal(topo_build(&t, c, &err), SATURN_EINPUT);
    assert_non_null(strstr(err.msg, "network.k = 4,4,4"));
    saturn_config_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(links_are_symmetric),
        cmocka_unit_test(ports_and_edges),
        cmocka_unit_test(bad_k_lists),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
