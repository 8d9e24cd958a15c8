/* The workloads of paper 000: the collective (its duration is a recorded,
 * deterministic number), the in-flight staircase of Fig. 11b, the ramp
 * and the time series; trace replay, timed by hand. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "support.h"

/* Paper 000's network (experiments/entropy-throttling/network.ini.part). */
#define PAPER000 "network.k=32", "router.vcs=3", "router.buf_flits=15", \
                 "routing.dateline=cumulative", "traffic.packet_length=8", \
                 "sim.workload=collective", "collective.packets=10"

/* Recorded values: a change here is a change of the model, to be explained. */
static void trns_noth_duration_is_recorded(void **state)
{
    (void)state;
    struct saturn_results a = test_run((const char *const[]){PAPER000, "traffic.pattern=trns",
                                                        "routing.tie=positive", NULL});
    assert_int_equal(a.duration, 1367);
    saturn_results_free(&a);
    struct saturn_results b = test_run((const char *const[]){PAPER000, "traffic.pattern=trns",
                                                        "routing.tie=random", "sim.seed=1", NULL});
    assert_int_equal(b.duration, 1333);
    saturn_results_free(&b);
}

struct staircase {
    uint64_t last;
    int steps;
};

static void count_steps(void *user, const struct saturn_series_row *row)
{
    struct staircase *s = user;
    if (row->cycle <= 220 && row->inflight > s->last + 512)
        s->steps++;
    s->last = row->inflight;
}

static int steps(const char *const *kv)
{
    struct saturn_config *c = test_config(kv);
    struct saturn_error err = {0};
    struct saturn_sim *sim;
    struct saturn_results r;
    assert_int_equal(saturn_sim_create(c, &sim, &err), SATURN_OK);
    struct staircase s = {0, 0};
    saturn_sim_set_series(sim, 1, count_steps, &s);
    assert_int_equal(saturn_sim_run(sim, &r, &err), SATURN_OK);
    saturn_results_free(&r);
    saturn_sim_free(sim);
    saturn_config_free(c);
    return s.steps;
}

/* Fig. 11b: in-flight packets rise by 1024 every 8 cycles; base and hyst
 * run 4 steps, gt.x(4) 3, gt.x(8) and gt.x(16) 2. */
static void fig11b_staircase(void **state)
{
    (void)state;
    assert_int_equal(steps((const char *const[]){PAPER000, "traffic.pattern=bcmp",
                                                 "control.model=base", "entropy.rth=90",
                                                 "entropy.rn=30", NULL}), 4);
    assert_int_equal(steps((const char *const[]){PAPER000, "traffic.pattern=bcmp",
                                                 "control.model=hyst", NULL}), 4);
    const char *tg[] = {"entropy.tg=4", "entropy.tg=8", "entropy.tg=16"};
    const int want[] = {3, 2, 2};
    for (int i = 0; i < 3; i++)
        assert_int_equal(steps((const char *const[]){PAPER000, "traffic.pattern=bcmp",
                                                     "control.model=gt.x", tg[i], NULL}),
                         want[i]);
}

struct rows {
    int n;
    double last_nominal, max_offered_ma;
};

static void ramp_rows(void *user, const struct saturn_series_row *row)
{
    struct rows *r = user;
    r->n++;
    r->last_nominal = row->nominal;
    assert_true(row->smoothed_offered >= 0);
    /* samples without deliveries do not drag the mean latency towards 0:
     * it is undefined (-1) or at least the zero-load latency (~14 cycles) */
    assert_true(row->smoothed_latency == -1 || row->smoothed_latency >= 12);
    if (row->smoothed_offered > r->max_offered_ma)
        r->max_offered_ma = row->smoothed_offered;
}

/* A ramp on a small torus: one series row per sample, the nominal load
 * rising as configured, and a critical point near the steady-state
 * saturation load (within 25 %: the ramp keeps moving while queues build). */
static void ramp_finds_the_knee(void **state)
{
    (void)state;
    struct saturn_config *c = test_config((const char *const[]){
        "network.k=8", "sim.workload=ramp", "ramp.per_million=20", "ramp.to=0.6",
        "ramp.sample=50", "ramp.smooth=40", NULL});
    struct saturn_error err = {0};
    struct saturn_sim *sim;
    struct saturn_results r;
    assert_int_equal(saturn_sim_create(c, &sim, &err), SATURN_OK);
    struct rows rows = {0, 0, 0};
    saturn_sim_set_series(sim, 1, ramp_rows, &rows);
    assert_int_equal(saturn_sim_run(sim, &r, &err), SATURN_OK);
    assert_int_equal(rows.n, 30000 / 50);
    assert_true(rows.last_nominal > 0.5999 && rows.last_nominal < 0.6001);
    /* steady state: this network saturates at about 0.41 (saturn curve) */
    printf("ramp critical load %.4f (nominal %.4f)\n", r.critical_load, r.critical_nominal);
    assert_true(r.critical_load > 0.41 * 0.75 && r.critical_load < 0.41 * 1.25);
    assert_true(r.saturated);
    saturn_results_free(&r);
    saturn_sim_free(sim);
    saturn_config_free(c);
}

/* ---- trace replay ---------------------------------------------------------- */

static struct saturn_results run_trace(const char *dir, const char *text, const char *more,
                                       int *rc, struct saturn_error *err)
{
    char file[300];
    snprintf(file, sizeof file, "trace.file=%s", test_put_file(dir, "t.csv", text));
    struct saturn_config *c = test_config((const char *const[]){
        "sim.workload=trace", "network.k=4", file, more, NULL});
    struct saturn_results r;
    memset(&r, 0, sizeof r);
    *rc = saturn_run(c, &r, err);
    saturn_config_free(c);
    return r;
}

/* On a 4x4 torus (defaults: zero-load latency 1 + H + 1 + (L - 1) for H
 * hops, L flits): message 1, 0 -> 5 (2 hops), 16 flits = two 8-flit
 * packets, arrives whole at 19 (the second starts injecting at 8); message
 * 3 waits for it: 5 -> 10 from 20, arrives at 31; message 5 waits 5 cycles
 * more: 11 -> 0 (3 hops) from 37, 40 flits in 5 packets, the last
 * starting at 69: 69 + 1 + 3 + 1 + 7 = 81. */
static void trace_timed_by_hand(void **state)
{
    const char *dir = *state;
    int rc;
    struct saturn_error err = {0};
    struct saturn_results r = run_trace(dir,
                                        "cycle,src,dst,flits,id,after\n"
                                        "0,0,5,16,1\n"
                                        "0,1,6,8,2\n"
                                        "0,5,10,8,3,1   # after message 1\n"
                                        "10,6,11,4,4,2\n"
                                        "5,11,0,40,5,3\n",
                                        "traffic.pattern=uniform", &rc, &err);
    if (rc)
        fail_msg("%s", err.msg);
    assert_int_equal(r.duration, 81);
    assert_int_equal(r.trace_messages, 5);
    assert_int_equal(r.measured_packets, 2 + 1 + 1 + 1 + 5);
    /* messages: 19 - 0, 11 (1 -> 6: 2 hops), 31 - 20, 7 (6 -> 11: 2 hops, 4
     * flits, from 11 + 1 + 10 = 22), 81 - 37 */
    assert_true(fabs(r.message_latency_mean - (19 + 11 + 11 + 7 + 44) / 5.0) < 1e-9);
    saturn_results_free(&r);
}

/* A chain of 16 one-hop, one-flit messages, each sent after the previous
 * one arrived: 3 cycles each (inject, link, eject), released the cycle
 * after the previous arrival: 3 + 15 x 4. */
static void trace_dependency_chain(void **state)
{
    const char *dir = *state;
    char text[4096];
    int at = snprintf(text, sizeof text, "0,0,1,1,0\n");
    for (int i = 1; i < 16; i++)
        at += snprintf(text + at, sizeof text - (size_t)at, "0,%d,%d,1,%d,%d\n", i,
                       (i + 1) % 4 == 0 ? i - 3 : i + 1, i, i - 1);
    int rc;
    struct saturn_error err = {0};
    struct saturn_results r = run_trace(dir, text, "router.vcs=2", &rc, &err);
    if (rc)
        fail_msg("%s", err.msg);
    assert_int_equal(r.duration, 3 + 15 * 4);
    saturn_results_free(&r);
}

static void trace_bad_input(void **state)
{
    const char *dir = *state;
    const char *cases[][2] = {
        {"0,0,1\n", "t.csv:1"},
        {"0,0,99,4\n", "node 99"},
        {"0,0,1,4,7\n0,1,2,4,7\n", "id 7 again"},
        {"0,0,1,4,1,3\n", "after = 3"},
        {"0,0,1,4,1,2\n0,1,2,4,2,1\n", "waits, through"},
        {"0,0,1,0\n", "flits"},
        {"# nothing\n", "no message"},
    };
    for (int i = 0; i < 7; i++) {
        int rc;
        struct saturn_error err = {0};
        struct saturn_results r = run_trace(dir, cases[i][0], "router.vcs=2", &rc, &err);
        if (rc != SATURN_EINPUT || !strstr(err.msg, cases[i][1]))
            fail_msg("case %d: %d %s", i, rc, err.msg);
        saturn_results_free(&r);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(trns_noth_duration_is_recorded),
        cmocka_unit_test(fig11b_staircase),
        cmocka_unit_test(ramp_finds_the_knee),
        cmocka_unit_test_setup_teardown(trace_timed_by_hand, test_dir_setup, test_dir_teardown),
        cmocka_unit_test_setup_teardown(trace_dependency_chain, test_dir_setup, test_dir_teardown),
        cmocka_unit_test_setup_teardown(trace_bad_input, test_dir_setup, test_dir_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
