/* Global congestion estimation (paper 001, section 3.1, Fig. 2): every
 * node learns, every g cycles and g cycles late, the network-wide number
 * of full input VC buffers and of flits delivered, and estimates the
 * current count from the last two snapshots.
 *
 * Counted buffers: the VC buffers of the NETWORK input ports (the paper's
 * 16x16 torus with 3 VCs has 256 x 4 x 3 = 3,072); injection buffers are
 * not counted. On a mesh, edge ports without a link hold no buffer and are
 * not counted either.
 *
 * Snapshots come from a source: the dedicated side-band built here
 * (gather_step samples the network itself), or the engine's metapackets
 * (gather.mode = metapacket, src/control/metapacket.c): then `sideband` is false and
 * gather_step publishes each gather the engine completed, visible from the
 * cycle its last node knew it. The estimate and the tuner only
 * ever see what became visible, whatever the source. */
#ifndef SATURN_GATHER_H
#define SATURN_GATHER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "saturn/config.h"

struct net;
struct topo;

enum gather_full { GATHER_FULL_NO_FREE_SLOT, GATHER_FULL_NONEMPTY };
enum gather_est { GATHER_EST_LINEAR, GATHER_EST_LAST, GATHER_EST_LINEAR_VISIBLE };

struct gather_snap {
    uint64_t sample;   /* cycle whose state it describes */
    uint64_t visible;  /* first cycle every node knows it */
    double full;       /* full buffers at the end of that cycle's observe */
    double delivered;  /* flits delivered in the g cycles before it */
};

struct gather {
    uint64_t g;              /* gather duration (cycles) */
    enum gather_full full_mode;
    enum gather_est est_mode;
    bool sideband;           /* gather_step samples and publishes itself */
    size_t meta_seen;        /* metapacket gathers already published */
    uint64_t buffers;        /* counted buffers */
    struct gather_snap *pending; /* published, not yet visible */
    size_t npending, cap;
    struct gather_snap s[2]; /* visible: s[1] the newest sample, s[0] the one before */
    int nvis;                /* 0, 1 or 2 of s[] valid */
    /* what became visible since the last gather_take */
    double new_delivered, new_full;
    uint32_t new_count;
    uint64_t ej_mark;        /* flits_ejected when the current interval began */
    uint64_t ej_prev;        /* flits_ejected at the end of the previous cycle */
    double estimate;         /* for the current cycle */
};

/* Reads gather.* (SATURN_EINPUT naming the key) and sets up the side-band. */
int gather_init(struct gather *g, const struct saturn_config *cfg, const struct net *n,
                struct saturn_error *err);
void gather_free(struct gather *g);

/* g = hop_delay x sum over dimensions of the hops one ring (floor(k/2)) or
 * line (k - 1) needs: (k/2) h n on a k-ary n-cube. */
uint64_t gather_g(const struct topo *t, uint64_t hop_delay);
/* Linear extrapolation to cycle t of snapshots (t0, s0), (t1, s1), t0 < t1,
 * clamped at 0; s1 alone when t1 <= t0. */
double gather_extrapolate(double s0, uint64_t t0, double s1, uint64_t t1, uint64_t t);
/* Counted buffers and how many of them are full now. */
uint64_t gather_buffers(const struct net *n);
uint64_t gather_count_full(const struct net *n, enum gather_full mode);

/* A snapshot from any source; it becomes visible at visible_from.
 * SATURN_ENOMEM when the pending list cannot grow. */
int gather_publish(struct gather *g, uint64_t sample_cycle, double full, double delivered,
                   uint64_t visible_from);
/* Once per cycle, from the policy's observe: makes due snapshots visible,
 * samples the side-band, updates the estimate for n->now. */
void gather_step(struct gather *g, const struct net *n);
static inline double gather_estimate(const struct gather *g) { return g->estimate; }
/* Snapshots that became visible since the last call: their count, the sum
 * of their delivered flits and of their full-buffer counts. */
uint32_t gather_take(struct gather *g, double *delivered, double *full);

/* Control policies share this: a key set for a model that does not use it
 * is an error naming the key (keys: NULL-terminated). */
int ctl_reject_keys(const struct saturn_config *cfg, const char *const *keys, const char *model,
                    struct saturn_error *err);
extern const char *const gather_keys[], *const static_keys[], *const selftune_keys[],
    *const entropy_keys[], *const alo_keys[];

#endif
