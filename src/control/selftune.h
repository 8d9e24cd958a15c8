/* Self-tuned throttling (paper 001, section 4): the hill-climbing tuner,
 * exported for tests. */
#ifndef SATURN_SELFTUNE_H
#define SATURN_SELFTUNE_H

#include <stdbool.h>
#include <stdint.h>

struct tuner {
    double threshold;            /* full buffers; throttle while the estimate exceeds it */
    double increment, decrement; /* full buffers */
    double drop;                 /* a drop: throughput < drop x previous period's (fraction) */
    bool avoid;                  /* local-maximum avoidance (section 4.2) */
    uint32_t resets_limit;       /* r */
    double prev;                 /* previous period's throughput (0 before the first: no drop) */
    double max, nmax, tmax;      /* best period's throughput, its mean full buffers, threshold */
    uint32_t resets;             /* consecutive resets to min(Tmax, Nmax) */
};

enum selftune_action { ST_KEEP, ST_INCREASE, ST_DECREASE, ST_RESET, ST_RESET_MAX };

/* The decision at the end of a tuning period: tput = flits delivered as
 * reported in it, full = mean full buffers of its snapshots, throttled =
 * the throttle was on in at least one of its cycles. Returns what it did
 * (ST_RESET_MAX: a reset that also cleared max, the r-th in a row). */
enum selftune_action selftune_decide(struct tuner *t, double tput, double full, bool throttled);

/* The tuner of a selftune controller's state (tests). */
const struct tuner *selftune_tuner(const void *state);

#endif
