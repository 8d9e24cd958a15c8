/* Births: the Bernoulli rate and its two spellings; the on/off process's
 * mean rate, its burstiness and its bad input. */
#include <math.h>

#include "net/net.h"
#include <string.h>

#include "support.h"
#include "traffic/process.h"

static void birth_rate_matches(void **state)
{
    (void)state;
    const double rates[] = {0.001, 0.05, 0.5, 1.0};
    for (int i = 0; i < 4; i++) {
        struct saturn_config *c = test_config((const char *const[]){"network.k=4", NULL});
        struct saturn_error err = {0};
        struct net n;
        struct pattern pat;
        assert_int_equal(net_create(&n, c, 1, &err), SATURN_OK);
        assert_int_equal(pattern_init(&pat, c, &n.topo, 1, &err), SATURN_OK);
        struct bernoulli b;
        assert_int_equal(bernoulli_init(&b, &n, rates[i], 1), SATURN_OK);
        const uint64_t cycles = 20000;
        for (uint64_t t = 0; t < cycles; t++) {
            bernoulli_step(&b, &n, &pat, false);
            n.now++; /* births only: the network is not stepped */
        }
        double expect = rates[i] * cycles * 16;
        double sd = sqrt(expect * (1 - rates[i])) + 1;
        assert_true(fabs((double)b.generated_flits - expect) < 5 * sd);
        bernoulli_free(&b);
        pattern_free(&pat);
        net_destroy(&n);
        saturn_config_free(c);
    }
}

static void rate_spellings(void **state)
{
    (void)state;
    struct saturn_error err = {0};
    double p;
    struct saturn_config *c = test_config((const char *const[]){"traffic.flit_rate=0.4",
                                                                "traffic.packet_length=4", NULL});
    assert_int_equal(traffic_packet_rate(c, &p, &err), SATURN_OK);
    assert_true(fabs(p - 0.1) < 1e-12);
    saturn_config_free(c);
    c = test_config((const char *const[]){"traffic.packet_rate=0.02", NULL});
    assert_int_equal(traffic_packet_rate(c, &p, &err), SATURN_OK);
    assert_true(fabs(p - 0.02) < 1e-12);
    saturn_config_free(c);
    c = test_config((const char *const[]){"traffic.packet_rate=0.5", "traffic.packet_length=4", NULL});
    assert_int_equal(traffic_packet_rate(c, &p, &err), SATURN_EINPUT);
    assert_non_null(strstr(err.msg, "exceed the injection channel"));
    saturn_config_free(c);
}

/* Births per window of W cycles over the 16 nodes of a 4x4 torus: their
 * mean and variance over `windows` windows. */
static void window_counts(const char *const *kv, double p, int windows, double *mean, double *var)
{
    struct saturn_config *c = test_config(kv);
    struct saturn_error err = {0};
    struct net n;
    struct pattern pat;
    assert_int_equal(net_create(&n, c, 3, &err), SATURN_OK);
    assert_int_equal(pattern_init(&pat, c, &n.topo, 3, &err), SATURN_OK);
    struct bernoulli b;
    if (traffic_process_init(&b, &n, c, p, 1, &err))
        fail_msg("%s", err.msg);
    const int W = 200;
    double s1 = 0, s2 = 0;
    for (int w = 0; w < windows; w++) {
        uint64_t before = b.generated_flits;
        for (int t = 0; t < W; t++) {
            bernoulli_step(&b, &n, &pat, false);
            n.now++;
        }
        double x = (double)(b.generated_flits - before);
        s1 += x;
        s2 += x * x;
    }
    *mean = s1 / windows;
    *var = s2 / windows - *mean * *mean;
    bernoulli_free(&b);
    pattern_free(&pat);
    net_destroy(&n);
    saturn_config_free(c);
}

/* On/off (BookSim's on_off): the mean rate is the offered load; with long
 * periods (alpha = beta = 0.01: 100 cycles on, 100 off, twice the rate
 * while on) the births per window vary far more than Bernoulli's, whose
 * variance is the binomial one. */
static void onoff_rate_and_bursts(void **state)
{
    (void)state;
    const double p = 0.1;
    double mean, var;
    window_counts((const char *const[]){"network.k=4", NULL}, p, 1000, &mean, &var);
    assert_true(fabs(mean - p * 16 * 200) < 0.03 * p * 16 * 200);
    assert_true(var < 1.3 * 16 * 200 * p * (1 - p) && var > 0.7 * 16 * 200 * p * (1 - p));
    window_counts((const char *const[]){"network.k=4", "traffic.process=onoff",
                                        "traffic.burst_alpha=0.01", "traffic.burst_beta=0.01",
                                        NULL},
                  p, 1000, &mean, &var);
    assert_true(fabs(mean - p * 16 * 200) < 0.05 * p * 16 * 200);
    assert_true(var > 5 * 16 * 200 * p * (1 - p));
    /* short periods: close to Bernoulli again, still the offered mean */
    window_counts((const char *const[]){"network.k=4", "traffic.process=onoff",
                                        "traffic.burst_alpha=0.9", "traffic.burst_beta=0.3",
                                        NULL},
                  p, 1000, &mean, &var);
    assert_true(fabs(mean - p * 16 * 200) < 0.03 * p * 16 * 200);
}

static void onoff_bad_input(void **state)
{
    (void)state;
    const char *const *cases[] = {
        /* on a tenth of the time, 5 packets a cycle while on */
        (const char *const[]){"traffic.process=onoff", "traffic.burst_alpha=0.1",
                              "traffic.burst_beta=0.9", "traffic.flit_rate=0.5",
                              "traffic.packet_length=1", NULL},
        (const char *const[]){"traffic.burst_alpha=0.2", NULL},
        (const char *const[]){"traffic.process=onoff", "sim.workload=collective", NULL},
    };
    const char *keys[] = {"traffic.burst_alpha", "traffic.burst_alpha", "traffic.process"};
    for (int i = 0; i < 3; i++) {
        struct saturn_config *c = test_config(cases[i]);
        struct saturn_error err = {0};
        struct saturn_results r;
        assert_int_equal(saturn_run(c, &r, &err), SATURN_EINPUT);
        assert_non_null(strstr(err.msg, keys[i]));
        saturn_config_free(c);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(birth_rate_matches),
        cmocka_unit_test(rate_spellings),
        cmocka_unit_test(onoff_rate_and_bursts),
        cmocka_unit_test(onoff_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
