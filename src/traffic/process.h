/* When packets are born: a Bernoulli process per node (a packet with
 * probability p every cycle), sampled as geometric gaps so that the cost
 * is per packet, not per node and cycle. */
#ifndef SATURN_PROCESS_H
#define SATURN_PROCESS_H

#include <stdint.h>

#include "net/net.h"
#include "traffic/pattern.h"

struct bernoulli {
    double p;            /* packets per node per cycle (on average) */
    double log1mp;       /* log(1 - p) */
    /* on/off (traffic.process = onoff): each node alternates on and off
     * periods, geometric with per-cycle ends beta (on -> off) and alpha
     * (off -> on); births at rate r1 = p (alpha + beta) / alpha while on.
     * on_end[i]: the last cycle of the node's current or next on period. */
    bool onoff;
    double alpha, beta, r1, log1mr1, log1ma, log1mb;
    uint64_t *on_from, *on_end;
    uint32_t len;        /* flits per packet */
    uint64_t *next;      /* next birth of each node */
    uint32_t **slot;     /* calendar: node ids by next birth mod W */
    uint32_t *slot_n, *slot_cap;
    uint32_t *spare;
    uint32_t spare_cap;
    uint64_t generated_flits;
    uint64_t refused;    /* births dropped at a full source queue (traffic.source_queue) */
};

#define BERNOULLI_WHEEL 1024

int bernoulli_init(struct bernoulli *b, struct net *n, double p, uint32_t len);
/* The births of traffic.process (bernoulli or onoff) at an average rate p:
 * bernoulli_init, or the on/off process. */
int traffic_process_init(struct bernoulli *b, struct net *n, const struct saturn_config *cfg,
                         double p, uint32_t len, struct saturn_error *err);
/* Refuses traffic.process = onoff (and its keys) for a workload that
 * draws births otherwise. */
int traffic_process_bernoulli_only(const struct saturn_config *cfg, const char *workload,
                                   struct saturn_error *err);
/* Births due this cycle (n->now): new packets, destinations from pat. */
void bernoulli_step(struct bernoulli *b, struct net *n, const struct pattern *pat,
                    bool measured);
/* A time-varying rate by thinning: births drawn at rate p are kept with
 * probability accept (the target rate is accept * p). */
void bernoulli_step_thinned(struct bernoulli *b, struct net *n, const struct pattern *pat,
                            bool measured, double accept);
void bernoulli_free(struct bernoulli *b);

/* traffic.flit_rate / traffic.packet_rate as packets per node per cycle. */
int traffic_packet_rate(const struct saturn_config *cfg, double *p,
                        struct saturn_error *err);

extern const struct saturn_param traffic_params[];

#endif
