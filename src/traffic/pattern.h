/* Destination patterns: who a new packet is addressed to.
 *
 * Bit patterns treat the node id W as b = log2(N) bits (node count must be
 * a power of two); on a torus or mesh W is the Y bits then the X bits, i.e.
 * the plain node id with dimension 0 least significant. */
#ifndef SATURN_PATTERN_H
#define SATURN_PATTERN_H

#include <stdint.h>

#include "core/rng.h"
#include "saturn/config.h"
#include "topo/topo.h"

enum pattern_kind {
    PAT_UNIFORM,   /* uniform among the other nodes */
    PAT_TRANSPOSE, /* (c0, c1, ..., c_{n-1}) -> (c_{n-1}, ..., c0); equal k */
    PAT_SHUFFLE,   /* rotate W left by one bit */
    PAT_BITCOMP,   /* complement every bit of W */
    PAT_BITREV,    /* reverse the bits of W */
    PAT_BITROT,    /* rotate W right by one bit */
    PAT_TORNADO,   /* per dimension c -> (c + ceil(k/2) - 1) mod k (Dally & Towles) */
    PAT_TORN,      /* W -> (W + k0/2) mod N (Yokota et al., paper 000) */
    PAT_RANDPERM,  /* a random permutation, fixed for the run */
    PAT_RANDPAIR,  /* a random perfect matching, fixed for the run */
    PAT_NEIGHBOR,  /* a random one of the node's neighbours */
    PAT_HOTSPOT,   /* node h with probability f, otherwise uniform */
    PAT_DISTANCE,  /* uniform among the nodes exactly l hops away */
    PAT_ADVERSARIAL, /* Dragonfly ADV+i: a random node of group g + i */
    PAT_MIXED      /* ADV+i with probability f, else uniform */
};

struct pattern {
    enum pattern_kind kind;
    const struct topo *topo;
    uint32_t nodes;
    int bits;           /* log2(nodes) for bit patterns */
    uint32_t *perm;     /* RANDPERM, RANDPAIR: destination of each node */
    int32_t *offsets;   /* DISTANCE: noffsets vectors of topo->n signed offsets */
    uint32_t noffsets;
    uint32_t hot_node;
    double hot_fraction;
    int distance;
    uint32_t adv_shift;  /* ADV+i: i mod the number of groups */
    double adv_fraction; /* MIXED: f */
    bool uniform_self;   /* UNIFORM: the source may be drawn (traffic.uniform_self) */
    bool word_xy;        /* traffic.word_order = xy: bit patterns and torn act on the
                          * word of the coordinates in reverse order (x the highest) */
};

/* seed: the run's seed; fixed random tables (randperm, randpair) draw
 * from their own stream so they do not depend on anything else. */
int pattern_init(struct pattern *p, const struct saturn_config *cfg,
                 const struct topo *t, uint64_t seed,
                 struct saturn_error *err);
uint32_t pattern_dest(const struct pattern *p, uint32_t src, struct rng *r);
void pattern_free(struct pattern *p);
/* The destinations of src with their probabilities (sum 1): calls
 * fn(user, dst, weight) for each. */
void pattern_distribution(const struct pattern *p, uint32_t src,
                          void (*fn)(void *user, uint32_t dst, double weight), void *user);
/* Mean minimal hop count of the pattern: exact for distance, else the mean
 * over 4096 draws from its own random stream. */
double pattern_mean_hops(const struct pattern *p, uint64_t seed);

extern const struct saturn_param pattern_params[];

#endif
