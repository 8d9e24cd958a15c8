/* Phases: a bursty load as a sequence of phases, each with its own
 * duration, rate and pattern (paper 001, Fig. 8: low phases of uniform
 * traffic at 1 packet per 1,500 cycles, high phases at 1 packet per 15
 * cycles with a different pattern each). phases.list gives them as
 * "cycles:packets_per_node_per_cycle:pattern" separated by commas,
 * played phases.repeat times. Packets are born by the Bernoulli process of
 * the steady workload (a packet every 15 cycles "on average"); a rate may
 * exceed what the injection channel carries (the source queues then grow,
 * as the paper's high phases do: 16/15 flits/node/cycle). Every packet
 * generated from phases.warmup on is measured; after the last phase the
 * network drains (up to phases.drain_max cycles). Offered and accepted
 * loads are over [warmup, end of the last phase); latency over the
 * measured packets delivered. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "experiment/sim.h"
#include "traffic/process.h"

const struct saturn_param phases_params[] = {
    {"phases.list", SATURN_PARAM_STRING, "10000:0.000667:uniform,2000:0.0667:bitcomp", 0, 0, NULL,
     "sim.workload = phases: comma-separated cycles:rate:pattern (rate in packets/node/cycle, "
     "pattern as traffic.pattern); default: one quiet phase and one burst of paper 001's "
     "bursty load (experiments/self-tuned plays its whole sequence)"},
    {"phases.repeat", SATURN_PARAM_INT, "1", 1, 1e6, NULL, "times the list is played"},
    {"phases.warmup", SATURN_PARAM_INT, "0", 0, 1e12, NULL,
     "packets generated before this cycle are not measured"},
    {"phases.drain_max", SATURN_PARAM_INT, "100000", 0, 1e12, NULL,
     "cycles after the last phase to wait for measured packets"},
    {NULL, 0, NULL, 0, 0, NULL, NULL}};

struct phase {
    uint64_t cycles;
    double rate;
    struct pattern pat;
};

static void phases_free(struct phase *ph, int n)
{
    for (int i = 0; i < n; i++)
        pattern_free(&ph[i].pat);
    free(ph);
}

/* Parses phases.list; every problem is an input error naming the key. */
static int phases_parse(struct saturn_sim *s, struct phase **out, int *count,
                        struct saturn_error *err)
{
    const char *spec = saturn_config_str(s->cfg, "phases.list");
    char *copy = strdup(spec);
    struct phase *ph = NULL;
    int n = 0, cap = 0, rc = SATURN_OK;
    if (!copy)
        return saturn_error_set(err, SATURN_ENOMEM, "out of memory");
    char *save = NULL;
    for (char *item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
        while (*item == ' ' || *item == '\t')
            item++;
        char pname[64];
        unsigned long long cycles;
        double rate;
        int used = 0;
        if (sscanf(item, "%llu:%lf:%63[^ \t]%n", &cycles, &rate, pname, &used) != 3 ||
            item[used + strspn(item + used, " \t")] != '\0' || cycles == 0 || rate < 0 ||
            rate > 1) {
            rc = saturn_config_fail(s->cfg, "phases.list", err,
                                    "phase %d \"%s\" is not cycles:rate:pattern with cycles "
                                    ">= 1 and 0 <= rate <= 1 packets/node/cycle", n + 1, item);
            break;
        }
        if (n == cap) {
            cap = cap ? 2 * cap : 8;
            struct phase *x = realloc(ph, (size_t)cap * sizeof *x);
            if (!x) {
                rc = saturn_error_set(err, SATURN_ENOMEM, "out of memory");
                break;
            }
            ph = x;
        }
        struct saturn_config *c = saturn_config_clone(s->cfg);
        if (!c) {
            rc = saturn_error_set(err, SATURN_ENOMEM, "out of memory");
            break;
        }
        struct saturn_error e2;
        if (saturn_config_set(c, "traffic.pattern", pname, NULL, 0, &e2)) {
            saturn_config_free(c);
            rc = saturn_config_fail(s->cfg, "phases.list", err,
                                    "phase %d: unknown pattern \"%s\" (see traffic.pattern)",
                                    n + 1, pname);
            break;
        }
        memset(&ph[n], 0, sizeof ph[n]);
        ph[n].cycles = cycles;
        ph[n].rate = rate;
        rc = pattern_init(&ph[n].pat, c, &s->net.topo, s->seed, err);
        saturn_config_free(c);
        if (rc)
            break;
        n++;
    }
    free(copy);
    if (!rc && n == 0)
        rc = saturn_config_fail(s->cfg, "phases.list", err, "no phases given");
    if (rc) {
        phases_free(ph, n);
        return rc;
    }
    *out = ph;
    *count = n;
    return SATURN_OK;
}

int phases_run(struct saturn_sim *s, struct saturn_results *r, struct saturn_error *err)
{
    double t0 = sim_clock();
    struct net *n = &s->net;
    struct phase *ph;
    int nph, rc = phases_parse(s, &ph, &nph, err);
    if (rc)
        return rc;
    uint32_t len = (uint32_t)saturn_config_int(s->cfg, "traffic.packet_length");
    uint64_t repeat = (uint64_t)saturn_config_int(s->cfg, "phases.repeat");
    uint64_t W = (uint64_t)saturn_config_int(s->cfg, "phases.warmup");
    uint64_t D = (uint64_t)saturn_config_int(s->cfg, "phases.drain_max");
    uint64_t total = 0;
    for (int i = 0; i < nph; i++)
        total += ph[i].cycles;
    total *= repeat;
    if (W >= total) {
        phases_free(ph, nph);
        return saturn_config_fail(s->cfg, "phases.warmup", err,
                                  "must be shorter than the phases (%llu cycles)",
                                  (unsigned long long)total);
    }
    r->workload = "phases";
    r->warmup = W;
    r->measure = total - W;
    uint64_t ej0 = 0, gen0 = 0, ej1 = 0, gen1 = 0, generated = 0, measured = 0;
    struct bernoulli b;
    memset(&b, 0, sizeof b);
    for (uint64_t lap = 0; lap < repeat && !rc; lap++)
        for (int i = 0; i < nph && !rc; i++) {
            bernoulli_free(&b);
            if (bernoulli_init(&b, n, ph[i].rate, len)) {
                rc = saturn_error_set(err, SATURN_ENOMEM, "out of memory");
                break;
            }
            for (uint64_t c = 0; c < ph[i].cycles; c++) {
                if (n->now == W) {
                    ej0 = n->flits_ejected;
                    gen0 = generated;
                }
                bool window = n->now >= W;
                /* Blocks of cycles (net/block.c) up to the phase's end and the
                 * warm-up's: each cycle's births made before the block runs;
                 * else one cycle. */
                const uint64_t end = n->now + (ph[i].cycles - c), from = n->now;
                const uint32_t blen = sim_block_len(s, n->now < W && W < end ? W : end);
                const uint32_t k = blen > 1 ? blen : 1;
                sim_accumulate(s, window);
                if (blen > 1)
                    net_block_open(n, blen);
                for (uint32_t j = 0; j < k; j++) {
                    if (blen > 1)
                        net_block_at(n, j);
                    uint64_t before = b.generated_flits;
                    bernoulli_step(&b, n, &ph[i].pat, window);
                    generated += b.generated_flits - before;
                    if (window)
                        measured += (b.generated_flits - before) / len;
                }
                if ((rc = blen > 1 ? sim_block_run(s, err) : sim_step(s, err)))
                    break;
                c += k - 1;
                if (sim_progress_due_since(s, from)) {
                    char what[64];
                    snprintf(what, sizeof what, "phase %llu of %llu%s",
                             (unsigned long long)(lap * (uint64_t)nph + (uint64_t)i + 1),
                             (unsigned long long)(repeat * (uint64_t)nph),
                             ph[i].rate > 0 ? "" : " (idle)");
                    sim_progress_since(s, from, what, n->now, total, "cycles");
                }
            }
        }
    ej1 = n->flits_ejected;
    gen1 = generated;
    sim_accumulate(s, false);
    while (!rc && s->lat.n < measured && n->now < total + D) {
        if ((rc = sim_step(s, err)))
            break;
        sim_progress(s, "drain", s->lat.n, measured, "packets");
    }
    bernoulli_free(&b);
    phases_free(ph, nph);
    if (rc)
        return rc;
    double denom = (double)n->nnodes * (double)(total - W);
    r->offered = (double)(gen1 - gen0) / denom;
    r->accepted = (double)(ej1 - ej0) / denom;
    r->measured_packets = measured;
    r->measured_delivered = s->lat.n;
    r->drained = s->lat.n == measured;
    if (!r->drained) {
        r->saturated = true;
        snprintf(r->saturated_why, sizeof r->saturated_why,
                 D ? "%llu of %llu measured packets still undelivered %llu cycles after the last "
                     "phase (phases.drain_max)"
                   : "%llu of %llu measured packets were still on their way when the last phase "
                     "ended, and phases.drain_max = %llu waits for none",
                 (unsigned long long)(measured - s->lat.n), (unsigned long long)measured,
                 (unsigned long long)D);
    }
    sim_finish(s, r, t0);
    return SATURN_OK;
}
