/* BookSim 2's Dragonfly routings, for cross-validation
 * (experiments/booksim-validation; BookSim's dragonflynew,
 * src/networks/dragonfly.cpp at 28f43299, read for its rules, nothing
 * copied). Both keep one phase per packet, set at the source router and
 * changed on the way, and a hop takes exactly VC = phase:
 *
 * booksim_min: phase 0 at the source router, 1 once the packet takes a
 *   global link: VC 0 in the source group, VC 1 on the global link and
 *   after (an intra-group packet stays on VC 0).
 * booksim_ugal: at the source router, an intra-group packet takes phase 2
 *   (minimal on VC 2). Otherwise a random intermediate NODE of the whole
 *   network; in the source group: minimal (phase 1). Else minimal
 *   (phase 1) when q_min <= 2 q_nonmin + 30, q the flits sent on the first
 *   hop's output and not yet credited, over all its VCs (BookSim's
 *   GetUsedCredit: the output queue, the link and the next input buffer),
 *   otherwise Valiant (phase 0) to the intermediate node's router, where
 *   phase 1 begins; phase 1 becomes 2 on taking a global link. Decided
 *   once, at the source router (routing.reroute = once matches BookSim).
 *
 * Deadlock: booksim_min's VCs climb (0 then 1), its channel dependency
 * graph is acyclic. booksim_ugal's is not (tests/test_dragonfly.c): VC 0
 * carries both a source group's local hop before a global link and an
 * intermediate group's local hop after one; BookSim relies on buffers
 * deep enough to hold packets whole (256 flits in its example). */
#include <stdlib.h>

#include "route/dragonfly.h"

/* BookSim's ugal_dragonflynew constants: queue weights 1 (minimal) and 2
 * (nonminimal), threshold 30 flits biasing the choice to minimal. */
#define BS_UGAL_NONMIN_WEIGHT 2
#define BS_UGAL_THRESHOLD 30

static int bs_min_init(void **state, const struct saturn_config *cfg, const struct net *n,
                       struct saturn_error *err)
{
    *state = NULL;
    return df_check(cfg, n, 2, 2, "booksim_min", err);
}

static int bs_ugal_init(void **state, const struct saturn_config *cfg, const struct net *n,
                        struct saturn_error *err)
{
    *state = NULL;
    return df_check(cfg, n, 3, 3, "booksim_ugal", err);
}

/* route[0]: the intermediate router (ugal); route[1]: the phase. */
static void bs_at_source(void *state, const struct net *n, struct packet *p, uint64_t draw)
{
    (void)state;
    const struct topo *t = &n->topo;
    p->route[0] = topo_node_router(t, (uint32_t)(draw % t->nodes));
    p->route[1] = 0;
}

/* The one candidate: port on VC = phase (the ejection port too). */
static void bs_cand(const struct packet *p, int port, struct route_result *out)
{
    out->n = 1;
    out->sel = 0;
    out->c[0] = (struct route_cand){(uint16_t)port, (uint8_t)p->route[1], (uint8_t)p->route[1]};
}

static void bs_min_route(void *state, const struct net *n, uint32_t r, int in_port, int in_vc,
                         struct packet *p, struct route_result *out)
{
    (void)state;
    (void)in_vc;
    const struct topo *t = &n->topo;
    uint32_t d = topo_node_router(t, p->dst);
    if (in_port >= t->radix)
        p->route[1] = 0;
    int port = r == d ? topo_node_port(t, p->dst) : df_port_to_router(t, r, d);
    if (r != d && topo_port_class(t, port) == TOPO_GLOBAL)
        p->route[1] = 1;
    bs_cand(p, port, out);
}

/* Flits sent on output port of router r and not yet credited, all VCs. */
static uint32_t bs_used(const struct net *n, uint32_t r, int port)
{
    return df_occupancy(n, r, port, 0, n->V - 1);
}

static void bs_ugal_route(void *state, const struct net *n, uint32_t r, int in_port, int in_vc,
                          struct packet *p, struct route_result *out)
{
    (void)state;
    (void)in_vc;
    const struct topo *t = &n->topo;
    uint32_t d = topo_node_router(t, p->dst), mid = p->route[0];
    if (in_port >= t->radix) {
        if (df_group(t, r) == df_group(t, d)) {
            p->route[1] = 2;
        } else if (df_group(t, mid) == df_group(t, r)) {
            p->route[1] = 1;
        } else {
            uint32_t qmin = bs_used(n, r, df_port_to_router(t, r, d));
            uint32_t qval = bs_used(n, r, df_port_to_router(t, r, mid));
            p->route[1] = qmin <= BS_UGAL_NONMIN_WEIGHT * qval + BS_UGAL_THRESHOLD ? 1 : 0;
            if (!p->route[1])
                p->misroute |= PACKET_MISROUTED_GLOBAL;
        }
    }
    if (p->route[1] == 0 && r == mid)
        p->route[1] = 1;
    uint32_t toward = p->route[1] == 0 ? mid : d;
    int port = r == toward ? topo_node_port(t, p->dst) : df_port_to_router(t, r, toward);
    if (p->route[1] == 1 && r != toward && topo_port_class(t, port) == TOPO_GLOBAL)
        p->route[1] = 2;
    bs_cand(p, port, out);
}

const struct route_ops route_df_booksim_min = {.name = "booksim_min",
                                               .init = bs_min_init,
                                               .route = bs_min_route,
                                               .dragonfly = true,
                                               .local_vcs = 2};

const struct route_ops route_df_booksim_ugal = {.name = "booksim_ugal",
                                                .init = bs_ugal_init,
                                                .at_source = bs_at_source,
                                                .route = bs_ugal_route,
                                                .dragonfly = true,
                                                .local_vcs = 3};
