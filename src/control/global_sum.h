/* How routers learn network-wide sums (paper 000, Fig. 1 and section 6.7).
 *
 *   ideal    every router sees this cycle's sums.
 *   circuit  a dedicated reduction/broadcast circuit: values move one hop
 *            per cycle, reduced along dimension 0 towards coordinate 0, then
 *            along dimension 1 towards 0, ..., and broadcast back the other
 *            way. Router r therefore sees router s's value of cycle t at
 *            t + up(s) + down(r), up(s) = sum_d ringdist(s_d, 0),
 *            down(r) = sum_d ringdist(0, r_d): up to 2N cycles on an N x N
 *            torus, as the paper says; 0 for the root's own value.
 *   vcc      the same registers carried on the data links by cycle
 *            stealing: a register value crosses a link only in a cycle in
 *            which no data flit uses that link (the virtual control channel).
 * Registers keep their last received value (the paper's asynchronous
 * update). On a ring of k, positions 1..floor(k/2) send towards 0 in the -
 * direction and the others in the + direction. */
#ifndef SATURN_GLOBAL_SUM_H
#define SATURN_GLOBAL_SUM_H

#include <stdbool.h>
#include <stdint.h>

struct net;

enum gsum_mode { GSUM_IDEAL, GSUM_CIRCUIT, GSUM_VCC };

struct gsum_pair {
    int64_t nv, na;
    uint64_t t; /* the cycle its oldest contribution was taken (its age is now - t) */
};

struct gsum {
    enum gsum_mode mode;
    int stages;
    uint32_t routers;
    uint32_t *member;     /* [stage]: the routers of each stage, one list after another */
    uint32_t *nmember;    /* routers in stage d */
    uint32_t *lroot;      /* [stage]: the routers of stage d at coordinate 0 in d (line roots) */
    uint32_t *nlroot;     /* line roots in stage d */
    uint32_t *parent;     /* [stage][router]: next router towards the root, or NONE */
    uint8_t *up_port;     /* [stage][router]: output port of router towards parent */
    uint8_t *down_port;   /* [stage][router]: output port of parent towards router */
    uint8_t *slot;        /* [stage][router]: which input of the parent it feeds */
    struct gsum_pair *in; /* [stage][router][2]: last received partial sums */
    struct gsum_pair *part;   /* [stage][router]: this cycle's partial sums */
    struct gsum_pair *bcast;  /* [stage][router]: last received broadcast */
    struct gsum_pair *seen;   /* [router]: what the router knows */
    struct gsum_pair global;  /* ideal */
    /* circuit only (gsum_step's fast path; NULL otherwise): each router's
     * hops to the global root (lag), the routers by lag (lag_order; lag l's
     * from lag_first[l] to lag_first[l + 1], order_by_key), and two rings of
     * `ring` cycles: the root's totals still being made (pending, by the
     * cycle they complete) and those made (hist, by cycle; the last at now) */
    uint32_t *lag, lag_max;
    uint32_t *lag_order, *lag_first;
    size_t ring;
    struct gsum_pair *pending, *hist;
    uint64_t now;
    bool by_lag; /* gsum_step took this path: what routers see is in hist */
    /* the age of what the routers see, over the run: sum, count, largest */
    double age_sum;
    uint64_t age_n, age_max;
    uint64_t hops_tried, hops_made; /* vcc: register hops, and those whose link was free */
};

/* Except in ideal mode, asks n to keep each router's Nv/Na (n->router_mob). */
int gsum_init(struct gsum *g, enum gsum_mode mode, struct net *n);
/* After the routers' cycle: fold in this cycle's Nv/Na and move registers. */
void gsum_step(struct gsum *g, const struct net *n);
/* The same for every mode, cell by cell in four passes as the circuit is
 * described above: what gsum_step's circuit path must equal (the tests). */
void gsum_step_general(struct gsum *g, const struct net *n);
/* The lag path's sums of every router at lag l (g->by_lag). */
static inline struct gsum_pair gsum_seen_at_lag(const struct gsum *g, uint32_t l)
{
    return g->hist[(g->now - l) & (g->ring - 1)];
}
static inline struct gsum_pair gsum_seen(const struct gsum *g, uint32_t router)
{
    if (g->by_lag) /* the root's total of lag cycles ago (zero before cycle 0: never written) */
        return gsum_seen_at_lag(g, g->lag[router]);
    return g->mode == GSUM_IDEAL ? g->global : g->seen[router];
}
void gsum_free(struct gsum *g);

#endif
