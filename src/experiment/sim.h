/* A simulation: the network plus the workload that drives it. */
#ifndef SATURN_SIM_H
#define SATURN_SIM_H

#include "core/histogram.h"
#include "net/net.h"
#include "saturn/saturn.h"
#include "traffic/pattern.h"

struct saturn_sim {
    struct saturn_config *cfg;
    uint64_t seed;
    struct net net;
    struct pattern pat;
    saturn_progress_fn progress;
    void *progress_user;
    /* statistics of delivered packets that count */
    struct histogram lat, netlat;
    double hops_sum;
    bool count_all;       /* every packet counts (collective) */
    uint64_t last_delivery;
};

/* One cycle, with watchdog and invariant failures turned into errors. */
int sim_step(struct saturn_sim *s, struct saturn_error *err);
void sim_progress(struct saturn_sim *s, const char *phase);
void sim_finish(struct saturn_sim *s, struct saturn_results *r, double t0);

int steady_run(struct saturn_sim *s, struct saturn_results *r, struct saturn_error *err);
int collective_run(struct saturn_sim *s, struct saturn_results *r, struct saturn_error *err);

double sim_clock(void);

#endif
