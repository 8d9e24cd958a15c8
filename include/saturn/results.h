/* saturn — what a run measured. */
#ifndef SATURN_RESULTS_H
#define SATURN_RESULTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One link's use in a collective: cycles of its first and last flit
 * (0-based; valid when busy > 0) and the cycles it carried a flit. */
struct saturn_link_stat {
    uint32_t router;
    uint8_t port;
    uint64_t first, last, busy;
};

/* Packets by generation cycle (saturn_sim_record_generations): those
 * generated in [start, start + bin), delivered, their mean latency and the
 * fractions misrouted globally and locally (Dragonfly routing). */
struct saturn_gen_row {
    uint64_t start, packets;
    double latency, misrouted_global, misrouted_local;
};

/* One histogram bucket: values in [lo, hi]. */
struct saturn_bucket {
    uint64_t lo, hi, count;
};

struct saturn_latency {
    uint64_t count;
    double mean, min, p50, p99, max;
};

struct saturn_results {
    const char *workload;       /* "steady", "collective", "ramp" or "phases" */
    uint64_t seed;
    uint64_t nodes, routers;
    uint64_t cycles;            /* cycles simulated in total */

    /* steady state */
    uint64_t warmup, measure;   /* window [warmup, warmup + measure) */
    double offered;             /* flits/node/cycle generated in the window */
    double accepted;            /* flits/node/cycle ejected in the window */
    uint64_t measured_packets;  /* generated in the window */
    uint64_t measured_delivered;
    bool drained;               /* all measured packets delivered before the cap */
    bool saturated;
    bool cut;                   /* collective stopped unfinished at a cut-off (saturn_run_shared):
                                   its duration is then a lower bound */
    char saturated_why[160];
    double backlog_growth;      /* flits added to source queues + network in the window,
                                   as a fraction of flits offered in it */

    /* ramp: the critical load ratio, the smoothed offered load (flits/node/cycle)
     * at which smoothed throughput first falls ramp.drop % below it; 0: never */
    double critical_load;
    double critical_nominal;     /* the nominal ramp load at that point */
    double critical_drop;        /* each rule's critical load in the same run (0: not reached
                                    before the run ended), whatever ramp.rule says */
    double critical_gradient;
    uint64_t critical_cycle;

    /* collective */
    uint64_t collective_packets; /* per node */
    uint64_t collective_slices;  /* each packet split into this many slices */
    uint64_t slice_flits;        /* flits per slice (header + share of the payload) */
    uint64_t duration;           /* cycle of the last delivery (start is cycle 0) */
    uint64_t thickness;          /* effective thickness T_e: max over links of last - first */
    size_t nlinks;               /* per-link use (collectives) */
    /* trace: messages replayed, their mean latency (release to last flit) */
    uint64_t trace_messages;
    double message_latency_mean;
    struct saturn_link_stat *links;

    /* nonminimal routing (Dragonfly): fractions of the measured packets
     * delivered that were misrouted globally (intermediate group) and
     * locally (an extra local hop) */
    double misrouted_global, misrouted_local;
    size_t ngen;                 /* by generation cycle (when recorded) */
    struct saturn_gen_row *gen;

    struct saturn_latency packet_latency;  /* generation -> tail received */
    struct saturn_latency network_latency; /* head injected -> tail received */
    double hops_mean;
    double inflight_mean;        /* packets in the network, mean over the window */
    double little_n;             /* packets in the system (queued + in flight), window mean */
    double little_lambda_n_tau;  /* generation rate (packets/cycle, all nodes) x mean latency */
    double source_queue_mean;    /* packets waiting in source queues per node */

    /* mobility and entropy (paper 000), over the window (steady) or run */
    double mobility_mean;        /* Ra = sum Na / sum Nv */
    double valid_per_router;     /* mean Nv / routers */
    double entropy_mean;         /* mean packet entropy E over complete windows (-1: none) */
    double throttled_mean;       /* mean fraction of nodes with their gate shut */
    /* entropy throttling: the age of the network-wide sums the gates acted
     * on, cycles since the oldest value in them was taken, mean over
     * routers and cycles and the largest (0 with entropy.info = ideal) */
    double sums_age_mean;
    uint64_t sums_age_max;
    double sums_hops_free;       /* vcc: the share of register hops whose link was free (the
                                    stolen cycles); 1 otherwise */

    /* deadlock recovery (routing.algorithm = disha), whole run */
    uint64_t recoveries;         /* packets sent through the recovery lane */
    uint64_t recovery_busy;      /* cycles the recovery token was held */

    /* metapacket gathering (gather.mode = metapacket): gathers that ended in
     * the window (steady) or run, and their times, start to last node (cycles) */
    bool metapackets;
    uint64_t gathers;
    double gather_min, gather_mean, gather_max;

    size_t hist_n;               /* packet latency histogram */
    struct saturn_bucket *hist;

    /* the simulator itself */
    double wall_seconds;
    uint64_t flit_hops;          /* router-to-router flit moves, whole run */
    uint64_t router_cycles;      /* routers x cycles, whole run */
    long peak_rss_kb;
    uint32_t threads;            /* threads that stepped the network (sim.threads, at most
                                    one per 64 routers) */
    uint64_t block_cycles;       /* cycles stepped in blocks, each partition of 64 routers
                                    several cycles in a row (sim.block_cycles) */
};

void saturn_results_free(struct saturn_results *r);

#ifdef __cplusplus
}
#endif
#endif
