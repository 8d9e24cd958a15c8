/* Duato's fully adaptive minimal routing with escape channels (Duato 1993;
 * paper 001's "deadlock avoidance"). The adaptive VCs may take any minimal
 * port; the selection function takes the free adaptive VC with the most
 * credits (ties at random). When none is free the head falls back on the
 * escape VCs, routed by dimension order from where the packet is now; a
 * packet may return to adaptive VCs at the next router. VCs are allocated
 * atomically (router.atomic_vc): a head takes a VC only when the buffer
 * behind it is empty, so a blocked head is always at the front of its
 * buffer, uncommitted, and can still choose the escape VC. Without it a
 * cycle of heads committed to full adaptive VCs deadlocks (saturn's first
 * runs of paper 001's network did, at 0.02 packets/node/cycle).
 *
 * Escape channels: on a mesh VC 0 (DOR is deadlock-free). On a torus the
 * ring needs two escape classes: VC 0 while the rest of the packet's path
 * in the current dimension still crosses the wrap link, VC 1 once it does
 * not. The class depends only on the current router and the destination,
 * so it is a routing subfunction; its channel dependency graph, direct and
 * indirect, is acyclic: a packet leaves the escape VCs of dimension d only
 * once its offset in d is zero, and a minimal route never moves in d again,
 * so no dependency leads from a higher dimension's escape VCs back to a
 * lower one's; within a ring class 0 is used only before the wrap and class
 * 1 only after it. (Paper 001 uses "one escape VC" on its 16-ary 2-cube;
 * one DOR VC on a ring is not deadlock-free without datelines or bubble
 * flow control, so saturn's torus escape takes two of the three VCs and
 * leaves one adaptive VC.)
 *
 * duato.escape_vcs = 1 on a torus is the other reading of "one escape VC":
 * VC 0 alone, dimension order the shorter way round (crossing the wrap
 * link), every other VC adaptive. Its escape channels close a cycle round
 * every ring, so it is not deadlock-free in theory; it needs
 * debug.allow_deadlock = true, and a run that does deadlock stops with the
 * watchdog's report. */
#include <stdlib.h>

#include "net/net.h"
#include "route/route.h"

struct duato {
    int escape; /* escape VCs: 2 on a torus (duato.escape_vcs), 1 on a mesh */
};

const struct saturn_param route_duato_params[] = {
    {"duato.escape_vcs", SATURN_PARAM_INT, "2", 1, 2, NULL,
     "duato on a torus: escape VCs per channel: 2 (VC 0 until the wrap link, VC 1 after: "
     "deadlock-free) or 1 (VC 0 by dimension order across the wrap link, one more adaptive "
     "VC: a ring cycle in the escape channels, needs debug.allow_deadlock = true); a mesh "
     "always has 1"},
    {NULL, 0, NULL, 0, 0, NULL, NULL}};

static void duato_route(void *state, const struct net *n, uint32_t router, int in_port,
                        int in_vc, struct packet *p, struct route_result *out)
{
    const struct duato *s = state;
    route_minimal_adaptive(n, router, p, s->escape, n->Vd - 1, out);
    const struct topo *t = &n->topo;
    uint32_t dst = topo_node_router(t, p->dst);
    if (router == dst)
        return;
    /* the escape channel: dimension order from here, + on ties */
    int d = 0;
    while (topo_coord(t, router, d) == topo_coord(t, dst, d))
        d++;
    int c = topo_coord(t, router, d), g = topo_coord(t, dst, d), k = t->k[d];
    int port, vc = 0;
    if (t->kind == TOPO_MESH) {
        port = g > c ? 2 * d : 2 * d + 1;
    } else {
        int fw = ((g - c) % k + k) % k, bw = k - fw;
        bool plus = fw <= bw;
        port = plus ? 2 * d : 2 * d + 1;
        bool wraps = plus ? g < c : g > c;
        vc = s->escape == 1 || wraps ? 0 : 1;
    }
    out->c[out->n++] = (struct route_cand){(uint16_t)port, (uint8_t)vc, (uint8_t)vc};
}

static int duato_init(void **state, const struct saturn_config *cfg, const struct net *n,
                      struct saturn_error *err)
{
    struct duato *s = calloc(1, sizeof *s);
    if (!s)
        return saturn_error_set(err, SATURN_ENOMEM, "out of memory");
    *state = s;
    bool torus = n->topo.kind == TOPO_TORUS;
    s->escape = torus ? (int)saturn_config_int(cfg, "duato.escape_vcs") : 1;
    if (!torus && saturn_config_is_set(cfg, "duato.escape_vcs") &&
        saturn_config_int(cfg, "duato.escape_vcs") != 1)
        return saturn_config_fail(cfg, "duato.escape_vcs", err,
                                  "a mesh's escape channel is one DOR VC (1)");
    if (torus && s->escape == 1 && !saturn_config_bool(cfg, "debug.allow_deadlock"))
        return saturn_config_fail(cfg, "duato.escape_vcs", err,
                                  "1 escape VC by dimension order round a torus ring is not "
                                  "deadlock-free (no dateline); use 2, or set "
                                  "debug.allow_deadlock = true to run it anyway");
    if (n->Vd < s->escape + 1)
        return saturn_config_fail(cfg, "router.vcs", err,
                                  "Duato's routing needs %d escape VC%s (DOR%s) plus at least "
                                  "one adaptive VC on a %s: at least %d",
                                  s->escape, s->escape > 1 ? "s" : "",
                                  s->escape > 1 ? " with a dateline class per ring" : "",
                                  torus ? "torus" : "mesh", s->escape + 1);
    return SATURN_OK;
}

static void duato_free(void *state) { free(state); }

const struct route_ops route_duato = {
    .name = "duato",
    .init = duato_init,
    .route = duato_route,
    .free = duato_free,
    .atomic_vc = true,
};
