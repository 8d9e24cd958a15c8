/* The ramp's critical-load detector (src/experiment/ramp.c) on synthetic
 * throughput series with a known 10 % point: offered load rising 1e-4 a
 * sample, throughput equal to it up to 0.05 and rising half as fast after
 * (the knee). */
#include <math.h>
#include <stdlib.h>

#include "experiment/ramp.h"
#include "support.h"

#define STEP 1e-4
#define KNEE 0.05

static double offered(int i) { return (i + 1) * STEP; }

static double accepted(int i)
{
    double x = offered(i);
    return x <= KNEE ? x : KNEE + 0.5 * (x - KNEE);
}

/* The first sample (index) at which the detector fires, and its value. */
static int detect(uint32_t window, bool gradient, double *critical)
{
    struct ramp_detect d;
    assert_int_equal(ramp_detect_init(&d, window, 0.10, gradient), 0);
    int at = -1;
    for (int i = 0; i < 3000; i++) {
        double so, sa;
        bool hit = ramp_detect_push(&d, offered(i), accepted(i), &so, &sa);
        /* the moving averages are the plain means of the last window samples */
        int from = i + 1 >= (int)window ? i + 1 - (int)window : 0;
        double mo = 0, ma = 0;
        for (int j = from; j <= i; j++)
            mo += offered(j), ma += accepted(j);
        assert_true(fabs(so - mo / (i + 1 - from)) < 1e-12);
        assert_true(fabs(sa - ma / (i + 1 - from)) < 1e-12);
        if (hit) {
            assert_int_equal(at, -1); /* once */
            at = i;
            *critical = d.critical;
            assert_true(d.critical == so);
        }
    }
    ramp_detect_free(&d);
    return at;
}

/* Drop: throughput 10 % below the offered load. Unsmoothed that is the
 * first x with 0.05 + (x - 0.05)/2 < 0.9 x, x > 0.0625: sample 625
 * (x = 0.0626). Smoothed over 100 samples that lie past the knee, the
 * same holds for the window means: mean offered (i - 48.5) 1e-4 > 0.0625,
 * sample 674 (mean 0.06255). */
static void drop_rule_finds_the_known_point(void **state)
{
    (void)state;
    double c;
    assert_int_equal(detect(1, false, &c), 625);
    assert_true(fabs(c - 0.0626) < 1e-12);
    assert_int_equal(detect(100, false, &c), 674);
    assert_true(fabs(c - 0.06255) < 1e-12);
}

/* Gradient: the curve's slope between two averages a window apart falls
 * below 0.9. Unsmoothed (window 1) the slope is 1 up to the knee and 0.5
 * from the first step past it: sample 500 (x = 0.0501). Smoothed over 100
 * samples, the slope between the mean of samples i-199..i-100 and that of
 * i-99..i is the mean over 100 lags of 100 steps each, 1 - 0.5 f with f
 * the share of steps past the knee (step k from sample k-1 to k, past the
 * knee for k >= 500): f > 0.2 first at i = 562, where the steps past the
 * knee number 1 + 2 + ... + 63 = 2016 of 10000 (at 561: 1953). */
static void gradient_rule_finds_the_known_point(void **state)
{
    (void)state;
    double c;
    assert_int_equal(detect(1, true, &c), 500);
    assert_true(fabs(c - 0.0501) < 1e-12);
    assert_int_equal(detect(100, true, &c), 562);
    assert_true(fabs(c - (562 - 48.5) * STEP) < 1e-12);
}

/* No knee, no critical point; a window that never fills, none either. */
static void linear_throughput_has_none(void **state)
{
    (void)state;
    for (int g = 0; g < 2; g++) {
        struct ramp_detect d;
        assert_int_equal(ramp_detect_init(&d, 50, 0.10, g), 0);
        for (int i = 0; i < 2000; i++) {
            double so, sa;
            assert_false(ramp_detect_push(&d, offered(i), 0.95 * offered(i), &so, &sa));
        }
        ramp_detect_free(&d);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(drop_rule_finds_the_known_point),
        cmocka_unit_test(gradient_rule_finds_the_known_point),
        cmocka_unit_test(linear_throughput_has_none),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
