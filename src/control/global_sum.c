#include <stdlib.h>
#include <string.h>

#include "control/global_sum.h"
#include "core/order.h"
#include "net/net.h"

#define IDX(g, d, r) ((size_t)(d) * (g)->routers + (r))

/* Routers that take part in stage d: coordinates 0 in dimensions < d. */
static bool in_stage(const struct topo *t, uint32_t r, int d)
{
    for (int e = 0; e < d; e++)
        if (topo_coord(t, r, e) != 0)
            return false;
    return true;
}

/* The circuit's fast path. Every value moves one hop a cycle on the same
 * tree up and down, so router s's record of cycle t reaches the global root
 * at t + lag(s) and router r sees the root's total of cycle u at u + lag(r),
 * lag being the router's hops to the root (its depth in the tree). The
 * root's totals are therefore made by adding each record into the total it
 * will join, lag cycles ahead (pending), and each router reads the total of
 * lag cycles ago (hist): the same integer sums as moving every register,
 * with no work for the routers that have no record this cycle. */
static int order_lags(struct gsum *g)
{
    g->lag = calloc(g->routers, sizeof *g->lag);
    if (!g->lag)
        return SATURN_ENOMEM;
    uint32_t most = 0;
    for (uint32_t r = 0; r < g->routers; r++) {
        uint32_t hops = 0, at = r;
        for (int d = 0; d < g->stages; d++) /* up its stage-d line to the line root */
            for (uint32_t p; (p = g->parent[IDX(g, d, at)]) != NET_NONE; at = p)
                hops++;
        g->lag[r] = hops;
        most = hops > most ? hops : most;
    }
    g->lag_max = most;
    g->ring = 1;
    while (g->ring < 2 * ((size_t)most + 1)) /* a negative cycle's slot stays unwritten */
        g->ring *= 2;
    g->lag_first = malloc(((size_t)most + 2) * sizeof *g->lag_first);
    g->pending = calloc(g->ring, sizeof *g->pending);
    g->hist = calloc(g->ring, sizeof *g->hist);
    g->lag_order = malloc(g->routers * sizeof *g->lag_order);
    if (!g->lag_first || !g->pending || !g->hist || !g->lag_order)
        return SATURN_ENOMEM;
    order_by_key(g->lag, g->routers, most + 1, g->lag_first, g->lag_order);
    return SATURN_OK;
}

int gsum_init(struct gsum *g, enum gsum_mode mode, struct net *n)
{
    memset(g, 0, sizeof *g);
    g->mode = mode;
    g->routers = n->topo.routers;
    if (mode == GSUM_IDEAL)
        return SATURN_OK;
    n->router_mob = true; /* gsum_step reads rnv, rna, rstamp */
    const struct topo *t = &n->topo;
    g->stages = t->n;
    size_t cells = (size_t)g->stages * g->routers;
    g->parent = malloc(cells * sizeof *g->parent);
    g->up_port = calloc(cells, 1);
    g->down_port = calloc(cells, 1);
    g->slot = calloc(cells, 1);
    g->in = calloc(cells * 2, sizeof *g->in);
    g->part = calloc(cells, sizeof *g->part);
    g->bcast = calloc(cells, sizeof *g->bcast);
    g->seen = calloc(g->routers, sizeof *g->seen);
    g->member = malloc(cells * sizeof *g->member);
    g->nmember = calloc((size_t)g->stages, sizeof *g->nmember);
    g->lroot = malloc(cells * sizeof *g->lroot);
    g->nlroot = calloc((size_t)g->stages, sizeof *g->nlroot);
    if (!g->member || !g->nmember || !g->lroot || !g->nlroot || !g->parent || !g->up_port || !g->down_port || !g->slot || !g->in || !g->part ||
        !g->bcast || !g->seen)
        return SATURN_ENOMEM;
    /* an input no child ever fills adds nothing, of no age */
    for (size_t i = 0; i < cells * 2; i++)
        g->in[i].t = UINT64_MAX;
    for (int d = 0; d < g->stages; d++)
        for (uint32_t r = 0; r < g->routers; r++) {
            size_t i = IDX(g, d, r);
            g->parent[i] = NET_NONE;
            int c = topo_coord(t, r, d), k = t->k[d], half = k / 2;
            if (!in_stage(t, r, d))
                continue;
            g->member[IDX(g, d, g->nmember[d]++)] = r;
            if (c == 0) {
                g->lroot[IDX(g, d, g->nlroot[d]++)] = r;
                continue;
            }
            /* positions 1..half go -, the rest + (wrapping to 0) */
            int up = c <= half ? 2 * d + 1 : 2 * d;
            uint32_t fr;
            int fp;
            if (!topo_link(t, r, up, &fr, &fp))
                return SATURN_EINPUT; /* a mesh: caller refuses it */
            g->parent[i] = fr;
            g->up_port[i] = (uint8_t)up;
            g->down_port[i] = (uint8_t)fp; /* the parent's port back towards r */
            g->slot[i] = c <= half ? 0 : 1;
        }
    if (mode == GSUM_CIRCUIT)
        return order_lags(g);
    return SATURN_OK;
}

static struct gsum_pair add(struct gsum_pair a, struct gsum_pair b)
{
    return (struct gsum_pair){a.nv + b.nv, a.na + b.na, a.t < b.t ? a.t : b.t};
}

/* Was the data link (router, port) free of data flits this cycle? (Counts
 * the register hops tried and those that found the link free.) */
static bool link_free(struct gsum *g, const struct net *n, uint32_t router, int port)
{
    bool free_now = n->prare[(size_t)router * n->P + (size_t)port].last_send != n->now + 1;
    g->hops_tried++;
    g->hops_made += free_now;
    return free_now;
}

void gsum_step_general(struct gsum *g, const struct net *n)
{
    if (g->mode == GSUM_IDEAL) {
        g->global = (struct gsum_pair){(int64_t)n->cyc_nv, (int64_t)n->cyc_na, n->now};
        g->age_n += g->routers;
        return;
    }
    const uint64_t stamp = n->now + 1;
    /* Reduction, dimension by dimension: partial = input + last received. */
    for (int d = 0; d < g->stages; d++)
        for (uint32_t j = 0; j < g->nmember[d]; j++) {
            uint32_t r = g->member[IDX(g, d, j)];
            struct gsum_pair input;
            if (d == 0)
                input = n->rstamp[r] == stamp
                            ? (struct gsum_pair){n->rnv[r], n->rna[r], n->now}
                            : (struct gsum_pair){0, 0, n->now};
            else
                input = g->part[IDX(g, d - 1, r)]; /* r is its line's root */
            size_t i = IDX(g, d, r);
            g->part[i] = add(input, add(g->in[2 * i], g->in[2 * i + 1]));
        }
    /* Broadcast back: the global root's total, then outwards. */
    for (int d = g->stages - 1; d >= 0; d--)
        for (uint32_t j = 0; j < g->nlroot[d]; j++) {
            uint32_t r = g->lroot[IDX(g, d, j)];
            /* a line root knows what the stage above told it */
            g->bcast[IDX(g, d, r)] = d == g->stages - 1 ? g->part[IDX(g, d, r)]
                                                        : g->bcast[IDX(g, d + 1, r)];
        }
    /* the ages are integers: their sum is exact in a double (below 2^53),
     * added once a cycle or router by router */
    uint64_t ages = 0, oldest = g->age_max;
    for (uint32_t r = 0; r < g->routers; r++) {
        g->seen[r] = g->bcast[IDX(g, 0, r)];
        uint64_t age = n->now - g->seen[r].t;
        ages += age;
        oldest = age > oldest ? age : oldest;
    }
    g->age_sum += (double)ages;
    g->age_max = oldest;
    g->age_n += g->routers;
    /* Registers move one hop for the next cycle (vcc: on free links only).
     * New values are read from part/bcast of this cycle, written to in[]
     * and bcast[] of the receivers; a receiver's own bcast for this cycle
     * was already consumed above, and no router is both sender and
     * receiver of the same register. */
    for (int d = 0; d < g->stages; d++)
        for (uint32_t j = 0; j < g->nmember[d]; j++) {
            uint32_t r = g->member[IDX(g, d, j)];
            size_t i = IDX(g, d, r);
            uint32_t p = g->parent[i];
            if (p == NET_NONE)
                continue;
            if (g->mode == GSUM_CIRCUIT || link_free(g, n, r, g->up_port[i]))
                g->in[2 * IDX(g, d, p) + g->slot[i]] = g->part[i];
        }
    /* Broadcast moves outwards: compute from last cycle's values first. */
    for (int d = 0; d < g->stages; d++) {
        /* New values go to part[] first, so a value moves one hop. */
        for (uint32_t j = 0; j < g->nmember[d]; j++) {
            uint32_t r = g->member[IDX(g, d, j)];
            size_t i = IDX(g, d, r);
            uint32_t p = g->parent[i];
            if (p == NET_NONE)
                continue;
            if (g->mode == GSUM_CIRCUIT || link_free(g, n, p, g->down_port[i]))
                g->part[i] = g->bcast[IDX(g, d, p)]; /* part[] reused as next bcast */
            else
                g->part[i] = g->bcast[i];
        }
        for (uint32_t j = 0; j < g->nmember[d]; j++) {
            size_t i = IDX(g, d, g->member[IDX(g, d, j)]);
            if (g->parent[i] != NET_NONE)
                g->bcast[i] = g->part[i];
        }
    }
}

/* The circuit by lags (order_lags): the records of this cycle join the
 * totals they will make at the root, the root's total of this cycle is
 * complete, and what router r sees is the total of lag(r) cycles ago (all
 * zero, of cycle 0, before that), as gsum_step_general's registers give.
 * The oldest contribution to the root's total of cycle u is of cycle
 * u - lag_max once the farthest router's first record has arrived; before,
 * the inputs not yet reached add nothing, so it is of cycle 0. */
static void step_circuit(struct gsum *g, const struct net *n)
{
    const uint64_t now = n->now, stamp = now + 1;
    const size_t mask = g->ring - 1;
    struct gsum_pair *pending = g->pending;
    /* lag by lag, summed in registers: one total joined a lag */
    const uint32_t *order = g->lag_order;
    for (uint32_t l = 0, j = 0; l <= g->lag_max; l++) {
        int64_t nv = 0, na = 0;
        for (const uint32_t end = g->lag_first[l + 1]; j < end; j++) {
            const uint32_t r = order[j];
            if (n->rstamp[r] == stamp) {
                nv += n->rnv[r];
                na += n->rna[r];
            }
        }
        struct gsum_pair *p = &pending[(now + l) & mask];
        p->nv += nv;
        p->na += na;
    }
    struct gsum_pair *total = &pending[now & mask];
    g->hist[now & mask] = (struct gsum_pair){total->nv, total->na,
                                             now > g->lag_max ? now - g->lag_max : 0};
    *total = (struct gsum_pair){0, 0, 0};
    g->now = now;
    g->by_lag = true;
    uint64_t ages = 0, oldest = g->age_max;
    for (uint32_t l = 0; l <= g->lag_max; l++) {
        const uint32_t routers = g->lag_first[l + 1] - g->lag_first[l];
        if (!routers)
            continue;
        uint64_t age = now - (now >= l ? g->hist[(now - l) & mask].t : 0);
        ages += age * routers;
        oldest = age > oldest ? age : oldest;
    }
    g->age_sum += (double)ages;
    g->age_max = oldest;
    g->age_n += g->routers;
}

void gsum_step(struct gsum *g, const struct net *n)
{
    if (g->lag)
        step_circuit(g, n);
    else
        gsum_step_general(g, n);
}

void gsum_free(struct gsum *g)
{
    free(g->lag);
    free(g->lag_first);
    free(g->lag_order);
    free(g->pending);
    free(g->hist);
    free(g->member);
    free(g->nmember);
    free(g->lroot);
    free(g->nlroot);
    free(g->parent);
    free(g->up_port);
    free(g->down_port);
    free(g->slot);
    free(g->in);
    free(g->part);
    free(g->bcast);
    free(g->seen);
    memset(g, 0, sizeof *g);
}
