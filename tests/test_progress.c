/* Progress reports (src/core/progress.c and the engine's callback): the
 * text, the rate and ETA with an injected clock, when lines are due, and
 * what a run reports (never changing its results). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/progress.h"
#include "support.h"

static void test_duration(void **state)
{
    (void)state;
    char b[16];
    static const struct { double s; const char *want; } cases[] = {
        {0, "0s"},          {42.4, "42s"},        {59.6, "1m00s"}, {185, "3m05s"},
        {3720, "1h02m"},    {86399, "23h59m"},    {2 * 86400 + 4 * 3600, "2d04h"},
        {-1, "?"},          {NAN, "?"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        progress_duration(cases[i].s, b, sizeof b);
        assert_string_equal(b, cases[i].want);
    }
}

static void test_rate_and_count(void **state)
{
    (void)state;
    char b[48];
    progress_rate_text(850, "cycles", b, sizeof b);
    assert_string_equal(b, "850 cycles/s");
    progress_rate_text(12345, "cycles", b, sizeof b);
    assert_string_equal(b, "12.3 k cycles/s");
    progress_rate_text(1.48e6, "cycles", b, sizeof b);
    assert_string_equal(b, "1.48 M cycles/s");
    progress_rate_text(0.25, "points", b, sizeof b);
    assert_string_equal(b, "0.25 points/s");
    progress_count(0, b, sizeof b);
    assert_string_equal(b, "0");
    progress_count(999, b, sizeof b);
    assert_string_equal(b, "999");
    progress_count(1000, b, sizeof b);
    assert_string_equal(b, "1,000");
    progress_count(1234567, b, sizeof b);
    assert_string_equal(b, "1,234,567");
    progress_count(1234567, b, 4); /* cut, still terminated */
    assert_string_equal(b, "1,2");
}

static void test_eta(void **state)
{
    (void)state;
    assert_true(fabs(progress_eta(25, 100, 5) - 15) < 1e-12);
    assert_true(progress_eta(25, 0, 5) < 0);   /* total unknown */
    assert_true(progress_eta(25, 100, 0) < 0); /* no rate yet */
    assert_true(progress_eta(120, 100, 5) < 0);
    assert_true(fabs(progress_eta(100, 100, 5)) < 1e-12);
}

static void test_format(void **state)
{
    (void)state;
    char b[256];
    struct saturn_progress p = {.task = "steady", .phase = "measure", .done = 15000,
                                .total = 30000, .unit = "cycles"};
    progress_format(&p, 1000, 65, b, sizeof b);
    assert_string_equal(b, "steady measure   50.0%  15,000/30,000 cycles  1000 cycles/s  "
                           "elapsed 1m05s  ETA 15s");
    /* no total: no percentage, no ETA; a phase named as its task once; a label first */
    struct saturn_progress q = {.task = "collective", .phase = "collective",
                                .label = "curve point 1 of at most 5, load 0.1", .done = 500,
                                .unit = "packets"};
    progress_format(&q, 0, 3, b, sizeof b);
    assert_string_equal(b, "curve point 1 of at most 5, load 0.1: collective  500 packets  "
                           "elapsed 3s");
    progress_format(&p, 1000, 65, b, 10); /* cut to the buffer */
    assert_string_equal(b, "steady me");
}

/* A live meter: a line at most every PROGRESS_LIVE_INTERVAL seconds; the
 * rate of a steady count is that count's rate; the ETA follows. */
static void test_meter_live(void **state)
{
    (void)state;
    struct progress_meter m;
    char b[256];
    progress_init(&m, PROGRESS_LIVE, 100.0);
    struct saturn_progress p = {.task = "ramp", .phase = "ramp", .total = 10000, .unit = "cycles"};
    int lines = 0;
    for (int i = 1; i <= 50; i++) { /* a report every 0.1 s, 100 cycles each */
        p.done = (uint64_t)i * 100;
        if (progress_update(&m, &p, 100.0 + 0.1 * i, b, sizeof b))
            lines++;
    }
    /* 5 s of reports, a line every 0.25 s: at 0.3, 0.6, ... (every third report) */
    assert_true(lines >= 16 && lines <= 20);
    assert_true(fabs(m.rate - 1000) < 1e-6);
    p.done = 5100;
    progress_init(&m, PROGRESS_LIVE, 0);
    m.have_prev = true, m.t_prev = 4.9, m.done_prev = 5000, m.rate = 1000;
    snprintf(m.unit, sizeof m.unit, "cycles");
    assert_true(progress_update(&m, &p, 5.0, b, sizeof b));
    assert_string_equal(b, "ramp   51.0%  5,100/10,000 cycles  1000 cycles/s  elapsed 5s  ETA 5s");
}

/* Plain lines: the first after PROGRESS_PLAIN_MIN seconds, then a tenth of
 * the time elapsed apart, never more than PROGRESS_PLAIN_MAX. */
static void test_meter_plain(void **state)
{
    (void)state;
    struct progress_meter m;
    progress_init(&m, PROGRESS_PLAIN, 0);
    assert_true(fabs(progress_interval(&m, 1) - PROGRESS_PLAIN_MIN) < 1e-12);
    assert_true(fabs(progress_interval(&m, 200) - 20) < 1e-12);
    assert_true(fabs(progress_interval(&m, 5000) - PROGRESS_PLAIN_MAX) < 1e-12);
    char b[256];
    struct saturn_progress p = {.task = "steady", .phase = "warm-up", .total = 1000000,
                                .unit = "cycles"};
    double t = 0;
    int lines = 0;
    double first = -1;
    for (int i = 1; i <= 3600; i++) { /* an hour, a report a second */
        t = i;
        p.done = (uint64_t)i * 200;
        if (progress_update(&m, &p, t, b, sizeof b)) {
            if (first < 0)
                first = t;
            lines++;
        }
    }
    assert_true(fabs(first - PROGRESS_PLAIN_MIN) < 1e-9);
    assert_true(lines >= 60 && lines <= 90); /* an hour's log stays short */
    assert_true(fabs(m.rate - 200) < 1e-6);
    assert_true(progress_finish(&m, "steady", 3605, false, b, sizeof b));
    assert_string_equal(b, "steady: done in 1h00m");
}

/* The rate: an exponential average (time constant PROGRESS_RATE_TAU) that
 * starts again with a new unit or a count that goes back. */
static void test_meter_rate(void **state)
{
    (void)state;
    struct progress_meter m;
    char b[256];
    progress_init(&m, PROGRESS_PLAIN, 0);
    struct saturn_progress p = {.task = "steady", .unit = "cycles"};
    p.done = 0;
    progress_update(&m, &p, 0, b, sizeof b);
    p.done = 1000;
    progress_update(&m, &p, 1, b, sizeof b);
    assert_true(fabs(m.rate - 1000) < 1e-9); /* the first interval's rate */
    p.done = 3000;                           /* twice as fast for a second */
    progress_update(&m, &p, 2, b, sizeof b);
    double a = 1 - exp(-1 / PROGRESS_RATE_TAU);
    assert_true(fabs(m.rate - (1000 + a * 1000)) < 1e-9);
    p.unit = "packets"; /* the drain counts packets: no rate until the next report */
    p.done = 10;
    progress_update(&m, &p, 3, b, sizeof b);
    assert_true(m.rate == 0);
    p.done = 30;
    progress_update(&m, &p, 5, b, sizeof b);
    assert_true(fabs(m.rate - 10) < 1e-9);
    p.done = 5; /* a new point of a curve: counts from 0 again */
    progress_update(&m, &p, 6, b, sizeof b);
    assert_true(m.rate == 0);
}

/* Progress asked for: the first report makes a line at once, the next
 * one an interval later. */
static void test_meter_eager(void **state)
{
    (void)state;
    struct progress_meter m;
    char b[256];
    progress_init(&m, PROGRESS_PLAIN, 10);
    progress_eager(&m);
    struct saturn_progress p = {.task = "sweep", .done = 1, .total = 9, .unit = "points"};
    assert_true(progress_update(&m, &p, 10.5, b, sizeof b));
    assert_string_equal(b, "sweep   11.1%  1/9 points  elapsed 1s");
    p.done = 2;
    assert_false(progress_update(&m, &p, 14, b, sizeof b));
    p.done = 3;
    assert_true(progress_update(&m, &p, 15.6, b, sizeof b));
}

static void test_meter_off_and_finish(void **state)
{
    (void)state;
    struct progress_meter m;
    char b[64];
    progress_init(&m, PROGRESS_OFF, 0);
    struct saturn_progress p = {.task = "ga", .done = 1, .total = 2, .unit = "generations"};
    for (int i = 0; i < 100; i++)
        assert_false(progress_update(&m, &p, i, b, sizeof b));
    assert_false(progress_finish(&m, "ga", 100, true, b, sizeof b));
    progress_init(&m, PROGRESS_PLAIN, 0);
    assert_false(progress_finish(&m, "ga", 1, false, b, sizeof b)); /* short: silent */
    assert_true(progress_finish(&m, "ga", 65, true, b, sizeof b));  /* forced */
    assert_string_equal(b, "ga: done in 1m05s");
}

/* What a run reports: cycles of the warm-up and window, then the measured
 * packets of the drain; a report every 2^18 / routers cycles; results the
 * same as without reports. */
struct recorded {
    int n;
    struct saturn_progress r[64];
    char task[64][16], phase[64][32], label[64][96];
};

static void record(void *user, const struct saturn_progress *p)
{
    struct recorded *rec = user;
    if (rec->n == 64)
        return;
    rec->r[rec->n] = *p;
    snprintf(rec->task[rec->n], sizeof rec->task[0], "%s", p->task); /* valid in the call */
    snprintf(rec->phase[rec->n], sizeof rec->phase[0], "%s", p->phase);
    snprintf(rec->label[rec->n], sizeof rec->label[0], "%s", p->label ? p->label : "");
    rec->n++;
}

/* Runs c with its reports recorded into rec. */
static struct saturn_results run_recorded(const struct saturn_config *c, struct recorded *rec)
{
    struct saturn_error err = {0};
    struct saturn_sim *s;
    struct saturn_results r;
    memset(rec, 0, sizeof *rec);
    assert_int_equal(saturn_sim_create(c, &s, &err), SATURN_OK);
    saturn_sim_set_progress(s, record, rec);
    assert_int_equal(saturn_sim_run(s, &r, &err), SATURN_OK);
    saturn_sim_free(s);
    return r;
}

static void test_run_reports(void **state)
{
    (void)state;
    /* 16 routers: a report every 2^18 / 16 = 16,384 cycles */
    const char *kv[] = {"network.k=4", "traffic.flit_rate=0.2", "steady.warmup=20000",
                        "steady.measure=30000", NULL};
    struct saturn_config *c = test_config(kv);
    struct saturn_error err = {0};
    struct recorded rec;
    struct saturn_results with = run_recorded(c, &rec), without;
    assert_int_equal(saturn_run(c, &without, &err), SATURN_OK);
    assert_int_equal(rec.n, 3); /* cycles 16,384, 32,768 and 49,152 */
    for (int i = 0; i < rec.n; i++) {
        assert_int_equal(rec.r[i].cycle, (uint64_t)(i + 1) * 16384);
        assert_int_equal(rec.r[i].done, rec.r[i].cycle);
        assert_int_equal(rec.r[i].total, 50000);
        assert_string_equal(rec.r[i].unit, "cycles");
        assert_string_equal(rec.task[i], "steady");
        assert_null(rec.r[i].label);
    }
    assert_string_equal(rec.phase[0], "warm-up");
    assert_string_equal(rec.phase[1], "measure");
    assert_true(with.packet_latency.mean == without.packet_latency.mean);
    assert_true(with.accepted == without.accepted);
    assert_int_equal(with.cycles, without.cycles);
    saturn_results_free(&with);
    saturn_results_free(&without);
    saturn_config_free(c);
}

/* A collective counts delivered packets of the whole; a curve labels each
 * point's reports. */
static void test_collective_and_curve_reports(void **state)
{
    (void)state;
    const char *kv[] = {"network.k=4", "sim.workload=collective", "collective.packets=3000",
                        "traffic.pattern=uniform", NULL};
    struct saturn_config *c = test_config(kv);
    struct saturn_error err = {0};
    struct recorded rec;
    struct saturn_results r = run_recorded(c, &rec);
    assert_true(rec.n >= 1);
    for (int i = 0; i < rec.n; i++) {
        assert_string_equal(rec.r[i].unit, "packets");
        assert_int_equal(rec.r[i].total, 16 * 3000);
        assert_true(rec.r[i].done < rec.r[i].total);
        assert_true(i == 0 || rec.r[i].done >= rec.r[i - 1].done);
    }
    saturn_results_free(&r);
    saturn_config_free(c);

    const char *kc[] = {"network.k=4", "steady.warmup=16000", "steady.measure=1000",
                        "curve.from=0.1", "curve.to=0.2", "curve.step=0.1", NULL};
    c = test_config(kc);
    memset(&rec, 0, sizeof rec);
    struct saturn_curve_summary sum;
    assert_int_equal(saturn_curve_progress(c, NULL, NULL, record, &rec, &sum, &err), SATURN_OK);
    assert_int_equal(sum.points, 2);
    assert_int_equal(rec.n, 2); /* one report per point, at cycle 16,384 */
    assert_string_equal(rec.label[0], "curve point 1 of at most 5, load 0.1");
    assert_string_equal(rec.label[1], "curve point 2 of at most 5, load 0.2");
    saturn_config_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_duration),
        cmocka_unit_test(test_rate_and_count),
        cmocka_unit_test(test_eta),
        cmocka_unit_test(test_format),
        cmocka_unit_test(test_meter_live),
        cmocka_unit_test(test_meter_plain),
        cmocka_unit_test(test_meter_rate),
        cmocka_unit_test(test_meter_eager),
        cmocka_unit_test(test_meter_off_and_finish),
        cmocka_unit_test(test_run_reports),
        cmocka_unit_test(test_collective_and_curve_reports),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
