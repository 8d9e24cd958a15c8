/* Bernoulli births: the rate, and its two spellings. */
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(birth_rate_matches),
        cmocka_unit_test(rate_spellings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
