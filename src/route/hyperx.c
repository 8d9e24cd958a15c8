/* HyperX routing (dor, min, val, ugal, dal on network.topology = hyperx).
 *
 *   dor   dimension order, dimension 0 first, one hop per dimension where
 *         the coordinates differ; of a pair's K parallel links, copy
 *         (destination node mod K). Every VC. Deadlock-free: a dimension-d
 *         channel leads only to channels of higher dimensions (or the
 *         node), an order with no cycle.
 *   min   minimal adaptive: every link of every dimension still to
 *         correct, one adaptive group (the free VC with the most credits);
 *         when they are more than 8, copy (destination mod K) of each
 *         dimension. VCs by hop: hop h (h hops taken) uses class h of n,
 *         so it needs n VCs; the class rises along every path, so the
 *         channel dependencies are acyclic.
 *   val   Valiant: DOR to a random intermediate router on VC class 0, then
 *         DOR to the destination on class 1 (2 VCs): each class is a DOR
 *         network, and dependencies go only from class 0 to class 1.
 *   ugal  UGAL-L (Singh 2005): at the source router, the minimal path
 *         (DOR, class 0 all the way) or val's path through a random
 *         intermediate, whichever looks shorter by local queues: minimal
 *         when q_min H_min <= q_val H_val + T, q the phits waiting for each
 *         path's first output (its class's VCs), H the hops, T =
 *         ugal.threshold packets. Its paths are val's (a minimal path is
 *         val's with the destination as intermediate): the same classes.
 *   dal   DAL (Ahn et al. 2009): any unaligned dimension, adaptively, and
 *         in each at most one deroute (a hop to a coordinate other than the
 *         destination's; the dimension's next hop then aligns it). The
 *         minimal links of every unaligned dimension form one adaptive
 *         group (min's); the least occupied deroute of the dimensions not
 *         yet derouted goes first when the best minimal output holds more
 *         than twice its phits (non-minimal weighed double: it costs a
 *         second hop), else after the group, taken when no minimal VC is
 *         free. A path has at most 2n hops; hop h uses VC class h of 2n
 *         (so 2n VCs; Ahn et al. order their VCs otherwise, this is the
 *         order whose acyclicity needs no argument beyond "the class rises
 *         along every path"; SST/Merlin's VDAL uses 2n as well).
 *         p->route[1]: the derouted dimensions (a bit each), set when the
 *         head arrives over a link of a dimension it is still unaligned in.
 *
 * p->route[0]: the intermediate router; p->route[1]: HX_DECIDED (ugal's
 * choice made), HX_PHASE2 (the intermediate reached). tests/
 * test_topologies.c follows every candidate of every routing (ugal under
 * random queues) and checks the channel dependency graph acyclic. */
#include <stdlib.h>

#include "net/net.h"
#include "route/dragonfly.h" /* df_occupancy: any topology's output occupancy */
#include "route/route.h"

enum { HX_DECIDED = 1, HX_PHASE2 = 2 };
enum hx_mode { HX_DOR, HX_MIN, HX_VAL, HX_UGAL, HX_DAL };

struct hx {
    enum hx_mode mode;
    double threshold; /* ugal: phits */
};

/* The DOR port from router r towards router d != r. */
static int dor_port(const struct topo *t, uint32_t r, uint32_t d, uint32_t dst_node)
{
    int dim = 0;
    while (topo_coord(t, r, dim) == topo_coord(t, d, dim))
        dim++;
    return hyperx_port(t, dim, topo_coord(t, r, dim), topo_coord(t, d, dim),
                       (int)(dst_node % (uint32_t)t->mult[dim]));
}

static int router_hops(const struct topo *t, uint32_t a, uint32_t b)
{
    int h = 0;
    for (int d = 0; d < t->n; d++)
        h += topo_coord(t, a, d) != topo_coord(t, b, d);
    return h;
}

static void eject(const struct net *n, const struct packet *p, struct route_result *out)
{
    out->n = 1;
    out->sel = 0;
    out->c[0] = (struct route_cand){(uint16_t)topo_node_port(&n->topo, p->dst), 0,
                                    (uint8_t)(n->Vd - 1)};
}

static void one(struct route_result *out, int port, int lo, int hi)
{
    out->n = 1;
    out->sel = 0;
    out->c[0] = (struct route_cand){(uint16_t)port, (uint8_t)lo, (uint8_t)hi};
}

/* Every minimal link towards d on VCs lo..hi as one adaptive group; when
 * they are more than cap, copy (destination mod K) of each dimension. */
static void min_group(const struct net *n, uint32_t r, uint32_t d, const struct packet *p,
                      int lo, int hi, int cap, struct route_result *out)
{
    const struct topo *t = &n->topo;
    int np = 0, count = 0;
    for (int dim = 0; dim < t->n; dim++)
        if (topo_coord(t, r, dim) != topo_coord(t, d, dim))
            count += t->mult[dim];
    for (int dim = 0; dim < t->n; dim++) {
        int c = topo_coord(t, r, dim), x = topo_coord(t, d, dim);
        if (c == x)
            continue;
        if (count <= cap) {
            for (int m = 0; m < t->mult[dim]; m++)
                out->c[np++] = (struct route_cand){(uint16_t)hyperx_port(t, dim, c, x, m),
                                                   (uint8_t)lo, (uint8_t)hi};
        } else {
            out->c[np++] = (struct route_cand){
                (uint16_t)hyperx_port(t, dim, c, x, (int)(p->dst % (uint32_t)t->mult[dim])),
                (uint8_t)lo, (uint8_t)hi};
        }
    }
    out->n = np;
    out->sel = np;
}

static void min_route(const struct net *n, uint32_t r, uint32_t d, struct packet *p,
                      struct route_result *out)
{
    const struct topo *t = &n->topo;
    int lo, hi;
    int cls = p->hops < t->n ? p->hops : t->n - 1; /* a minimal path has at most n hops */
    route_vc_class(t->n, n->Vd, cls, &lo, &hi);
    min_group(n, r, d, p, lo, hi, ROUTE_MAX_CANDS, out);
}

/* The dimension of network port `port` (-1: a node's port). */
static int port_dim(const struct topo *t, int port)
{
    if (port >= t->radix)
        return -1;
    int dim = t->n - 1;
    while (port < t->port_base[dim])
        dim--;
    return dim;
}

static void dal_route(const struct net *n, uint32_t r, int in_port, uint32_t d,
                      struct packet *p, struct route_result *out)
{
    const struct topo *t = &n->topo;
    int in_dim = port_dim(t, in_port);
    if (in_dim >= 0 && topo_coord(t, r, in_dim) != topo_coord(t, d, in_dim))
        p->route[1] |= 1u << in_dim; /* it came over a deroute */
    int lo, hi, hops = 2 * t->n;
    route_vc_class(hops, n->Vd, p->hops < hops ? p->hops : hops - 1, &lo, &hi);
    min_group(n, r, d, p, lo, hi, ROUTE_MAX_CANDS - 1, out);
    double qmin = -1;
    for (int i = 0; i < out->n; i++) {
        double q = df_occupancy(n, r, out->c[i].port, lo, hi);
        if (qmin < 0 || q < qmin)
            qmin = q;
    }
    /* the least occupied deroute (first of the ties) */
    int best = -1;
    double qder = 0;
    for (int dim = 0; dim < t->n; dim++) {
        int c = topo_coord(t, r, dim), x = topo_coord(t, d, dim);
        if (c == x || (p->route[1] & (1u << dim)))
            continue;
        for (int y = 0; y < t->k[dim]; y++)
            for (int m = 0; y != c && y != x && m < t->mult[dim]; m++) {
                int port = hyperx_port(t, dim, c, y, m);
                double q = df_occupancy(n, r, port, lo, hi);
                if (best < 0 || q < qder) {
                    best = port;
                    qder = q;
                }
            }
    }
    if (best < 0 || out->n >= ROUTE_MAX_CANDS) /* (8 dimensions, all unaligned: no room) */
        return;
    struct route_cand der = {(uint16_t)best, (uint8_t)lo, (uint8_t)hi};
    if (qmin > 2 * qder) { /* the deroute first, the minimal links after it in order */
        for (int i = out->n; i > 0; i--)
            out->c[i] = out->c[i - 1];
        out->c[0] = der;
        out->sel = 0;
    } else {
        out->c[out->n] = der;
    }
    out->n++;
}

/* Valiant's path (and ugal's): DOR to route[0] on class 0, then DOR to the
 * destination on class 1. */
static void val_route(const struct net *n, uint32_t r, uint32_t d, struct packet *p,
                      struct route_result *out)
{
    const struct topo *t = &n->topo;
    if (!(p->route[1] & HX_PHASE2) && r == p->route[0])
        p->route[1] |= HX_PHASE2;
    bool second = p->route[1] & HX_PHASE2;
    if (second && r == d) {
        eject(n, p, out);
        return;
    }
    int lo, hi;
    route_vc_class(2, n->Vd, second ? 1 : 0, &lo, &hi);
    one(out, dor_port(t, r, second ? d : p->route[0], p->dst), lo, hi);
}

/* UGAL-L's comparison at the source router r. */
static void ugal_decide(const struct hx *s, const struct net *n, uint32_t r, uint32_t d,
                        struct packet *p)
{
    const struct topo *t = &n->topo;
    uint32_t mid = p->route[0];
    p->route[1] |= HX_DECIDED;
    if (mid == r || mid == d || r == d) { /* minimal: no detour, or none wanted */
        p->route[0] = d;
        return;
    }
    int lo, hi;
    route_vc_class(2, n->Vd, 0, &lo, &hi);
    double hmin = router_hops(t, r, d), hval = router_hops(t, r, mid) + router_hops(t, mid, d);
    double qmin = df_occupancy(n, r, dor_port(t, r, d, p->dst), lo, hi);
    double qval = df_occupancy(n, r, dor_port(t, r, mid, p->dst), lo, hi);
    if (qmin * hmin > qval * hval + s->threshold)
        p->misroute |= PACKET_MISROUTED_GLOBAL;
    else
        p->route[0] = d;
}

static void hx_route(void *state, const struct net *n, uint32_t r, int in_port, int in_vc,
                     struct packet *p, struct route_result *out)
{
    const struct hx *s = state;
    const struct topo *t = &n->topo;
    uint32_t d = topo_node_router(t, p->dst);
    switch (s->mode) {
    case HX_DOR:
        if (r == d)
            eject(n, p, out);
        else
            one(out, dor_port(t, r, d, p->dst), 0, n->Vd - 1);
        return;
    case HX_MIN:
        if (r == d)
            eject(n, p, out);
        else
            min_route(n, r, d, p, out);
        return;
    case HX_UGAL:
        if (!(p->route[1] & HX_DECIDED))
            ugal_decide(s, n, r, d, p);
        val_route(n, r, d, p, out);
        return;
    case HX_VAL:
        val_route(n, r, d, p, out);
        return;
    case HX_DAL:
        if (r == d)
            eject(n, p, out);
        else
            dal_route(n, r, in_port, d, p, out);
        return;
    }
}

static void hx_at_source(void *state, const struct net *n, struct packet *p, uint64_t draw)
{
    const struct hx *s = state;
    const struct topo *t = &n->topo;
    p->route[0] = (uint32_t)(draw % t->routers);
    p->route[1] = 0;
    if (s->mode == HX_VAL && p->route[0] != topo_node_router(t, p->src) &&
        p->route[0] != topo_node_router(t, p->dst))
        p->misroute |= PACKET_MISROUTED_GLOBAL;
}

static int hx_init(void **state, const struct saturn_config *cfg, const struct net *n,
                   enum hx_mode mode, struct saturn_error *err)
{
    struct hx *s = calloc(1, sizeof *s);
    if (!s)
        return saturn_error_set(err, SATURN_ENOMEM, "out of memory");
    *state = s;
    s->mode = mode;
    /* ugal.threshold's default (3 packets) is the Dragonfly's, whose global
     * buffers hold 256 flits; here the first hop's buffers are
     * router.buf_flits deep, and T = 0 unless set */
    s->threshold = saturn_config_is_set(cfg, "ugal.threshold")
                       ? saturn_config_real(cfg, "ugal.threshold") *
                             (double)saturn_config_int(cfg, "traffic.packet_length")
                       : 0;
    if (saturn_config_is_set(cfg, "val.intermediate"))
        return saturn_config_fail(cfg, "val.intermediate", err,
                                  "applies to the Dragonfly; a HyperX's Valiant routing goes "
                                  "through a random router");
    if (mode != HX_UGAL && saturn_config_is_set(cfg, "ugal.threshold"))
        return saturn_config_fail(cfg, "ugal.threshold", err,
                                  "applies to routing.algorithm = ugal");
    /* even debug.allow_deadlock cannot share fewer VCs among the classes */
    int need = mode == HX_MIN   ? n->topo.n
               : mode == HX_DAL ? 2 * n->topo.n
               : mode == HX_DOR ? 1
                                : 2;
    if (n->Vd < need)
        return saturn_config_fail(cfg, "router.vcs", err,
                                  "too few VCs for %s on a %d-dimensional HyperX: it needs %d "
                                  "to be deadlock-free (%s)",
                                  mode == HX_MIN   ? "min"
                                  : mode == HX_DAL ? "dal"
                                  : mode == HX_VAL ? "val"
                                                   : "ugal",
                                  n->topo.n, need,
                                  mode == HX_MIN   ? "one VC class per hop"
                                  : mode == HX_DAL ? "one VC class per hop, up to 2 hops a "
                                                     "dimension"
                                                   : "one VC class per Valiant phase");
    return SATURN_OK;
}

static int dor_init(void **st, const struct saturn_config *c, const struct net *n,
                    struct saturn_error *e)
{
    return hx_init(st, c, n, HX_DOR, e);
}
static int min_init(void **st, const struct saturn_config *c, const struct net *n,
                    struct saturn_error *e)
{
    return hx_init(st, c, n, HX_MIN, e);
}
static int val_init(void **st, const struct saturn_config *c, const struct net *n,
                    struct saturn_error *e)
{
    return hx_init(st, c, n, HX_VAL, e);
}
static int ugal_init(void **st, const struct saturn_config *c, const struct net *n,
                     struct saturn_error *e)
{
    return hx_init(st, c, n, HX_UGAL, e);
}

static int dal_init(void **st, const struct saturn_config *c, const struct net *n,
                    struct saturn_error *e)
{
    return hx_init(st, c, n, HX_DAL, e);
}

#define HX_OPS(id, nm, initf, src, ...)                                                     \
    const struct route_ops id = {.name = nm,                                                \
                                 .init = initf,                                             \
                                 .at_source = src,                                          \
                                 .route = hx_route,                                         \
                                 .free = free,                                              \
                                 .topologies = 1u << TOPO_HYPERX,                           \
                                 __VA_ARGS__}

HX_OPS(route_hx_dor, "dor", dor_init, NULL, .single_path = true);
HX_OPS(route_hx_min, "min", min_init, NULL, .reroute = true, .minimal_split = true);
HX_OPS(route_hx_val, "val", val_init, hx_at_source, .reroute = false);
HX_OPS(route_hx_ugal, "ugal", ugal_init, hx_at_source, .reroute = true);
HX_OPS(route_hx_dal, "dal", dal_init, NULL, .reroute = true);
