/* Collective: every node enqueues N packets at cycle 0 and sends them as
 * fast as the network (and its injection gate) allows; the result is the
 * duration from cycle 0 to the last delivery. */
#include <stdio.h>

#include "experiment/sim.h"

const struct saturn_param collective_params[] = {
    {"collective.packets", SATURN_PARAM_INT, "10", 1, 1e6, NULL,
     "packets each node sends, all enqueued at cycle 0"},
    {"collective.max_cycles", SATURN_PARAM_INT, "10000000", 1, 1e12, NULL,
     "give up (error) if the collective has not finished by then"},
    {NULL, 0, NULL, 0, 0, NULL, NULL}};

int collective_run(struct saturn_sim *s, struct saturn_results *r, struct saturn_error *err)
{
    double t0 = sim_clock();
    struct net *n = &s->net;
    uint64_t per = (uint64_t)saturn_config_int(s->cfg, "collective.packets");
    uint64_t cap = (uint64_t)saturn_config_int(s->cfg, "collective.max_cycles");
    uint32_t len = (uint32_t)saturn_config_int(s->cfg, "traffic.packet_length");
    s->count_all = true;
    sim_accumulate(s, true);
    r->workload = "collective";
    r->collective_packets = per;
    for (uint32_t i = 0; i < n->nnodes; i++)
        for (uint64_t j = 0; j < per; j++)
            net_packet_new(n, i, pattern_dest(&s->pat, i, &n->nodes[i].rng), len, true);
    uint64_t total = per * n->nnodes;
    r->measured_packets = total;
    int rc;
    while (n->packets_delivered < total) {
        if (n->now >= cap)
            return saturn_config_fail(s->cfg, "collective.max_cycles", err,
                                      "the collective did not finish: %llu of %llu packets "
                                      "delivered after %llu cycles",
                                      (unsigned long long)n->packets_delivered,
                                      (unsigned long long)total, (unsigned long long)cap);
        if ((rc = sim_step(s, err)))
            return rc;
        sim_progress(s, "collective");
    }
    r->measured_delivered = n->packets_delivered;
    r->drained = true;
    r->duration = s->last_delivery;
    r->measure = n->now;
    /* Throughput over the whole collective; no offered load applies. */
    r->accepted = (double)(total * len) / (double)n->nnodes / (double)(r->duration + 1);
    sim_finish(s, r, t0);
    return SATURN_OK;
}
