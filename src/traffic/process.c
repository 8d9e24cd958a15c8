#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "traffic/process.h"

static const char *const process_names[] = {"bernoulli", "onoff", NULL};

const struct saturn_param traffic_params[] = {
    {"traffic.process", SATURN_PARAM_ENUM, "bernoulli", 0, 0, process_names,
     "packet births (steady workload, curves): bernoulli (a packet with probability p every "
     "cycle) or onoff (BookSim's on_off: each node alternates on and off periods, "
     "traffic.burst_alpha and traffic.burst_beta, and while on sends at the rate that makes "
     "the average the offered load)"},
    {"traffic.burst_alpha", SATURN_PARAM_REAL, "0.5", 1e-9, 1, NULL,
     "onoff: probability per cycle that an off node turns on (mean off period 1/alpha)"},
    {"traffic.burst_beta", SATURN_PARAM_REAL, "0.5", 1e-9, 1, NULL,
     "onoff: probability per cycle that an on node turns off (mean on period 1/beta)"},
    {"traffic.flit_rate", SATURN_PARAM_REAL, "0.1", 0, 1, NULL,
     "offered load in flits/node/cycle (Bernoulli packet births)"},
    {"traffic.packet_rate", SATURN_PARAM_REAL, "0", 0, 1, NULL,
     "offered load in packets/node/cycle; set this or traffic.flit_rate, not both"},
    {"traffic.packet_length", SATURN_PARAM_INT, "8", 1, 65535, NULL,
     "flits per packet (fixed)"},
    {"traffic.source_queue", SATURN_PARAM_INT, "0", 0, 1 << 30, NULL,
     "packets a source may hold waiting (besides the one it is injecting); a packet born "
     "when the queue is full is not generated (a source that \"tries\" to send, paper 001); "
     "0 = unlimited (open loop)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL}};

int traffic_packet_rate(const struct saturn_config *cfg, double *p,
                        struct saturn_error *err)
{
    double len = (double)saturn_config_int(cfg, "traffic.packet_length");
    if (saturn_config_is_set(cfg, "traffic.packet_rate")) {
        if (saturn_config_is_set(cfg, "traffic.flit_rate"))
            return saturn_config_fail(cfg, "traffic.packet_rate", err,
                                      "traffic.flit_rate is set too; give the load one way");
        *p = saturn_config_real(cfg, "traffic.packet_rate");
        /* open-loop sources above the channel's rate only fill their queues;
         * bounded ones (traffic.source_queue) just try more often than they can */
        if (*p * len > 1.0 + 1e-12 && saturn_config_int(cfg, "traffic.source_queue") == 0)
            return saturn_config_fail(cfg, "traffic.packet_rate", err,
                                      "%g packets of %g flits exceed the injection channel "
                                      "(1 flit/cycle); at most %g (or bound the source queues: "
                                      "traffic.source_queue)", *p, len, 1.0 / len);
        return SATURN_OK;
    }
    *p = saturn_config_real(cfg, "traffic.flit_rate") / len;
    return SATURN_OK;
}

/* A geometric number of cycles >= 1 with per-cycle end probability q
 * (log1mq = log(1 - q); q >= 1: always 1). */
static uint64_t geometric(double q, double log1mq, struct rng *r)
{
    if (q >= 1.0)
        return 1;
    double u = rng_uniform(r); /* [0, 1) */
    double g = floor(log1p(-u) / log1mq);
    return g > 1e15 ? (uint64_t)1e15 : 1 + (uint64_t)g;
}

static uint64_t gap(const struct bernoulli *b, struct rng *r)
{
    return geometric(b->p, b->log1mp, r);
}

/* On/off: the first birth of node i at a cycle >= from. Births are a
 * Bernoulli process at r1 over the node's on cycles; the geometric gap
 * forgets what an off period cut short, so drawing it afresh is exact. */
static uint64_t onoff_next(struct bernoulli *b, uint32_t i, uint64_t from, struct rng *r)
{
    for (;;) {
        if (from > b->on_end[i]) { /* past this on period (from is the cycle after
                                      it): an off period, then on again */
            b->on_from[i] = b->on_end[i] + 1 + geometric(b->alpha, b->log1ma, r);
            b->on_end[i] = b->on_from[i] + geometric(b->beta, b->log1mb, r) - 1;
        }
        uint64_t t = (from > b->on_from[i] ? from : b->on_from[i]) +
                     geometric(b->r1, b->log1mr1, r) - 1;
        if (t <= b->on_end[i])
            return t;
        from = b->on_end[i] + 1;
    }
}

static void slot_push(struct bernoulli *b, uint32_t s, uint32_t node)
{
    if (b->slot_n[s] == b->slot_cap[s]) {
        uint32_t cap = b->slot_cap[s] ? b->slot_cap[s] * 2 : 8;
        uint32_t *x = realloc(b->slot[s], cap * sizeof *x);
        if (!x) {
            fprintf(stderr, "saturn: out of memory\n");
            abort();
        }
        b->slot[s] = x;
        b->slot_cap[s] = cap;
    }
    b->slot[s][b->slot_n[s]++] = node;
}

int bernoulli_init(struct bernoulli *b, struct net *n, double p, uint32_t len)
{
    memset(b, 0, sizeof *b);
    b->p = p;
    b->log1mp = p < 1.0 ? log1p(-p) : 0;
    b->len = len;
    b->slot = calloc(BERNOULLI_WHEEL, sizeof *b->slot);
    b->slot_n = calloc(BERNOULLI_WHEEL, sizeof *b->slot_n);
    b->slot_cap = calloc(BERNOULLI_WHEEL, sizeof *b->slot_cap);
    b->next = calloc(n->nnodes, sizeof *b->next);
    if (!b->slot || !b->slot_n || !b->slot_cap || !b->next)
        return SATURN_ENOMEM;
    if (p <= 0)
        return SATURN_OK;
    for (uint32_t i = 0; i < n->nnodes; i++) {
        b->next[i] = n->now + gap(b, &n->node_rng[i]) - 1;
        slot_push(b, (uint32_t)(b->next[i] % BERNOULLI_WHEEL), i);
    }
    return SATURN_OK;
}

int traffic_process_init(struct bernoulli *b, struct net *n, const struct saturn_config *cfg,
                         double p, uint32_t len, struct saturn_error *err)
{
    memset(b, 0, sizeof *b); /* freeable whatever fails */
    if (saturn_config_enum(cfg, "traffic.process") == 0) {
        for (const char *const *k = (const char *const[]){"traffic.burst_alpha",
                                                           "traffic.burst_beta", NULL};
             *k; k++)
            if (saturn_config_is_set(cfg, *k))
                return saturn_config_fail(cfg, *k, err, "applies to traffic.process = onoff");
        return bernoulli_init(b, n, p, len) ? saturn_error_set(err, SATURN_ENOMEM, "out of memory")
                                            : SATURN_OK;
    }
    double alpha = saturn_config_real(cfg, "traffic.burst_alpha");
    double beta = saturn_config_real(cfg, "traffic.burst_beta");
    double r1 = p * (alpha + beta) / alpha;
    if (r1 > 1.0 + 1e-12)
        return saturn_config_fail(cfg, "traffic.burst_alpha", err,
                                  "an on/off source on %g of the time cannot average %g packets "
                                  "per cycle (at most 1 while on): raise alpha or lower beta or "
                                  "the load", alpha / (alpha + beta), p);
    if (bernoulli_init(b, n, 0, len)) /* the tables, no births yet */
        return saturn_error_set(err, SATURN_ENOMEM, "out of memory");
    b->p = p;
    b->onoff = true;
    b->alpha = alpha;
    b->beta = beta;
    b->r1 = r1 < 1.0 ? r1 : 1.0;
    b->log1mr1 = b->r1 < 1.0 ? log1p(-b->r1) : 0;
    b->log1ma = alpha < 1.0 ? log1p(-alpha) : 0;
    b->log1mb = beta < 1.0 ? log1p(-beta) : 0;
    b->on_from = calloc(n->nnodes, sizeof *b->on_from);
    b->on_end = calloc(n->nnodes, sizeof *b->on_end);
    if (!b->on_from || !b->on_end)
        return saturn_error_set(err, SATURN_ENOMEM, "out of memory");
    if (p <= 0)
        return SATURN_OK;
    for (uint32_t i = 0; i < n->nnodes; i++) {
        struct rng *r = &n->node_rng[i];
        /* the stationary state: on with probability alpha / (alpha + beta) */
        if (rng_uniform(r) < alpha / (alpha + beta)) {
            b->on_from[i] = n->now;
            b->on_end[i] = n->now + geometric(beta, b->log1mb, r) - 1;
        } else {
            b->on_from[i] = n->now + geometric(alpha, b->log1ma, r);
            b->on_end[i] = b->on_from[i] + geometric(beta, b->log1mb, r) - 1;
        }
        b->next[i] = onoff_next(b, i, n->now, r);
        slot_push(b, (uint32_t)(b->next[i] % BERNOULLI_WHEEL), i);
    }
    return SATURN_OK;
}

int traffic_process_bernoulli_only(const struct saturn_config *cfg, const char *workload,
                                   struct saturn_error *err)
{
    for (const char *const *k = (const char *const[]){"traffic.process", "traffic.burst_alpha",
                                                       "traffic.burst_beta", NULL};
         *k; k++)
        if (saturn_config_is_set(cfg, *k))
            return saturn_config_fail(cfg, *k, err,
                                      "applies to the steady workload (and curves); "
                                      "sim.workload = %s draws its births itself", workload);
    return SATURN_OK;
}

static void step(struct bernoulli *b, struct net *n, const struct pattern *pat,
                 bool measured, double accept)
{
    if (b->p <= 0)
        return;
    uint32_t s = (uint32_t)(n->now % BERNOULLI_WHEEL);
    /* Take the slot's list out, so re-insertions into it are kept apart. */
    uint32_t *list = b->slot[s], cnt = b->slot_n[s], cap = b->slot_cap[s];
    b->slot[s] = b->spare;
    b->slot_cap[s] = b->spare_cap;
    b->slot_n[s] = 0;
    for (uint32_t j = 0; j < cnt; j++) {
        uint32_t i = list[j];
        if (b->next[i] == n->now) {
            struct rng *r = &n->node_rng[i];
            if (n->source_limit && n->nodes[i].qcount >= n->source_limit) {
                b->refused++;
            } else if (accept >= 1.0 || rng_uniform(r) < accept) {
                uint32_t dst = pattern_dest(pat, i, r);
                net_packet_new(n, i, dst, b->len, measured);
                b->generated_flits += b->len;
            }
            b->next[i] = b->onoff ? onoff_next(b, i, b->next[i] + 1, r) : b->next[i] + gap(b, r);
        }
        slot_push(b, (uint32_t)(b->next[i] % BERNOULLI_WHEEL), i);
    }
    b->spare = list;
    b->spare_cap = cap;
}

void bernoulli_step(struct bernoulli *b, struct net *n, const struct pattern *pat,
                    bool measured)
{
    step(b, n, pat, measured, 1.0);
}

void bernoulli_step_thinned(struct bernoulli *b, struct net *n, const struct pattern *pat,
                            bool measured, double accept)
{
    step(b, n, pat, measured, accept);
}

void bernoulli_free(struct bernoulli *b)
{
    if (b->slot)
        for (uint32_t s = 0; s < BERNOULLI_WHEEL; s++)
            free(b->slot[s]);
    free(b->slot);
    free(b->slot_n);
    free(b->slot_cap);
    free(b->next);
    free(b->spare);
    free(b->on_from);
    free(b->on_end);
    memset(b, 0, sizeof *b);
}
