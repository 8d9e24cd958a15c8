/* The ramp's critical-load detector (ramp.c), on its own for tests. */
#ifndef SATURN_RAMP_H
#define SATURN_RAMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ramp_detect {
    uint32_t window;  /* samples in the moving average */
    double drop;      /* fraction */
    bool gradient;    /* rule: gradient (else drop) */
    size_t cap;
    double *off, *acc;          /* ring of the last samples */
    double sum_off, sum_acc;    /* over the last window samples */
    double *avg_off, *avg_acc;  /* ring of the last window + 1 averages */
    uint64_t n;                 /* samples pushed */
    bool found;
    double critical;            /* the smoothed offered load at the critical point */
};

int ramp_detect_init(struct ramp_detect *d, uint32_t window, double drop, bool gradient);
void ramp_detect_free(struct ramp_detect *d);
/* One sample's offered and accepted load: the moving averages, and true
 * at the critical point (once; d->critical holds it). */
bool ramp_detect_push(struct ramp_detect *d, double offered, double accepted,
                      double *smooth_off, double *smooth_acc);

#endif
