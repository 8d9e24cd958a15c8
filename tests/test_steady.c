/* Steady-state behaviour against analytic bounds: accepted load tracks the
 * offered load below saturation, and saturation throughput lies between
 * 40 % and 100 % of the channel-load bound (8/k torus, 4/k mesh). */
#include <math.h>
#include <stdio.h>

#include "support.h"
#include "topo/topo.h"

static void tracks_offered(const char *const *base, double rate)
{
    const char *kv[16];
    int i = 0;
    for (; base[i]; i++)
        kv[i] = base[i];
    char r[32];
    snprintf(r, sizeof r, "traffic.flit_rate=%g", rate);
    kv[i++] = r;
    kv[i++] = "steady.warmup=2000";
    kv[i++] = "steady.measure=8000";
    kv[i] = NULL;
    struct saturn_config *c = test_config(kv);
    struct saturn_error err = {0};
    struct saturn_results res;
    assert_int_equal(saturn_run(c, &res, &err), SATURN_OK);
    assert_false(res.saturated);
    assert_true(res.drained);
    /* Offered load is a Bernoulli draw around the rate: within 3 %. */
    assert_true(res.offered > rate * 0.97 && res.offered < rate * 1.03);
    assert_true(res.accepted > res.offered * 0.98 && res.accepted < res.offered * 1.02);
    saturn_results_free(&res);
    saturn_config_free(c);
}

static double saturation(const char *const *base, double *bound)
{
    const char *kv[16];
    int i = 0;
    for (; base[i]; i++)
        kv[i] = base[i];
    kv[i++] = "steady.warmup=2000";
    kv[i++] = "steady.measure=6000";
    kv[i++] = "steady.drain_max=6000";
    kv[i++] = "curve.step=0.05";
    kv[i++] = "curve.refine=0";
    kv[i] = NULL;
    struct saturn_config *c = test_config(kv);
    struct saturn_error err = {0};
    struct topo t;
    assert_int_equal(topo_build(&t, c, &err), SATURN_OK);
    *bound = topo_uniform_bound(&t);
    topo_free(&t);
    struct saturn_curve_summary sum;
    assert_int_equal(saturn_curve(c, NULL, NULL, &sum, &err), SATURN_OK);
    assert_true(sum.saturated_rate > 0); /* the sweep reached saturation */
    saturn_config_free(c);
    return sum.saturation_throughput;
}

static struct saturn_results run_kv(const char *const *kv)
{
    struct saturn_config *c = test_config(kv);
    struct saturn_error err = {0};
    struct saturn_results res;
    assert_int_equal(saturn_run(c, &res, &err), SATURN_OK);
    saturn_config_free(c);
    return res;
}

/* steady.measure_by = delivery (FOGSim's statistics): the window counts
 * the packets delivered in it, as many as the flits ejected in it make
 * (within a packet per node at each edge), with no drain, so a saturated
 * run that the default never drains still reports them; below saturation
 * both readings give the same latency. */
static void measure_by_delivery(void **state)
{
    (void)state;
    for (int by = 0; by < 2; by++) {
        const char *const kv[] = {"network.k=4", "traffic.packet_length=4", "traffic.flit_rate=1",
                                  "steady.warmup=500", "steady.measure=2000",
                                  "steady.drain_max=100",
                                  by ? "steady.measure_by=delivery" : "steady.measure_by=generation",
                                  NULL};
        struct saturn_results r = run_kv(kv);
        assert_true(r.saturated);
        if (!by) {
            assert_false(r.drained);
        } else {
            assert_true(r.drained);
            assert_int_equal(r.measured_delivered, r.measured_packets);
            double by_flits = r.accepted * 16 * 2000 / 4;
            assert_true(fabs((double)r.measured_delivered - by_flits) <= 16 + 1e-6);
            assert_true(r.measured_delivered > 1000);
        }
        saturn_results_free(&r);
    }
    double lat[2];
    for (int by = 0; by < 2; by++) {
        const char *const kv[] = {"network.k=4", "traffic.packet_length=4", "traffic.flit_rate=0.2",
                                  "steady.warmup=1000", "steady.measure=4000",
                                  by ? "steady.measure_by=delivery" : "steady.measure_by=generation",
                                  NULL};
        struct saturn_results r = run_kv(kv);
        assert_false(r.saturated);
        lat[by] = r.packet_latency.mean;
        saturn_results_free(&r);
    }
    assert_true(fabs(lat[1] / lat[0] - 1) < 0.02);
}

static void torus_8x8_uniform(void **state)
{
    (void)state;
    const char *const base[] = {"network.k=8", "router.vcs=4", "routing.tie=random", NULL};
    tracks_offered(base, 0.1);
    tracks_offered(base, 0.3);
    double bound, sat = saturation(base, &bound);
    assert_true(bound > 0.9999 && bound < 1.0001); /* 8/k */
    printf("torus 8x8: saturation throughput %.3f of bound %.3f\n", sat, bound);
    assert_true(sat >= 0.4 * bound && sat <= bound);
}

static void mesh_8x8_uniform(void **state)
{
    (void)state;
    const char *const base[] = {"network.topology=mesh", "network.k=8", NULL};
    tracks_offered(base, 0.1);
    tracks_offered(base, 0.25);
    double bound, sat = saturation(base, &bound);
    assert_true(bound > 0.4999 && bound < 0.5001); /* 4/k */
    printf("mesh 8x8: saturation throughput %.3f of bound %.3f\n", sat, bound);
    assert_true(sat >= 0.4 * bound && sat <= bound);
}

/* The bound itself, worked by hand: odd k and unequal dimensions. */
static void channel_load_bounds(void **state)
{
    (void)state;
    struct saturn_error err = {0};
    struct topo t;
    struct saturn_config *c = test_config((const char *const[]){"network.k=16,4", NULL});
    assert_int_equal(topo_build(&t, c, &err), SATURN_OK);
    assert_true(topo_uniform_bound(&t) > 0.4999 && topo_uniform_bound(&t) < 0.5001); /* 8/16 */
    topo_free(&t);
    saturn_config_free(c);
    c = test_config((const char *const[]){"network.k=5", "network.topology=mesh", NULL});
    assert_int_equal(topo_build(&t, c, &err), SATURN_OK);
    /* odd k mesh: middle channel carries (k^2 - 1)/(4k) = 1.2, bound 1/1.2 */
    assert_true(topo_uniform_bound(&t) > 0.8333 && topo_uniform_bound(&t) < 0.8334);
    topo_free(&t);
    saturn_config_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(channel_load_bounds),
        cmocka_unit_test(measure_by_delivery),
        cmocka_unit_test(torus_8x8_uniform),
        cmocka_unit_test(mesh_8x8_uniform),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
