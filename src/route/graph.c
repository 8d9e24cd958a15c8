/* Routing on the distance-table topologies, a Slim Fly and a graph from a
 * file (routing.algorithm = min, val, ugal on network.topology = slimfly or
 * file). Every hop is chosen among the shortest next hops towards its
 * target as one adaptive group (the free VC with the most credits; the
 * first 8 when more).
 *
 *   min   shortest paths. Deadlock-free (file.deadlock, on a file graph) by
 *         hops: hop-indexed VCs, hop h (h hops taken) on VC class h of D,
 *         D the diameter (2 on a Slim Fly): the class rises along every
 *         path, so the channel dependencies are acyclic; or by
 *         updown: up-down routing (Autonet's up*-down*, Schroeder et al.
 *         1991): a breadth-first tree from router 0 ranks the routers by
 *         (depth, id); a hop to a lower rank is up, to a higher rank down,
 *         and a path takes no up hop after a down one. Every up channel
 *         leads to a lower rank, every down channel to a higher one, and no
 *         down channel to an up one: no cycle, on any number of VCs (every
 *         VC is used). Paths are the shortest legal ones, which may be
 *         longer than the graph's shortest. A packet is in its down phase
 *         when the hop that brought it went down.
 *   val   Valiant: shortest paths to a random intermediate router, then to
 *         the destination; hop-indexed VCs, 2 D classes (4 on a Slim Fly).
 *   ugal  UGAL-L (Singh 2005): at the source router, the minimal path or
 *         val's through a random intermediate, whichever looks shorter by
 *         local queues: minimal when q_min H_min <= q_val H_val + T, q the
 *         phits waiting for the least occupied first hop of each (class 0
 *         VCs), H the hops, T = ugal.threshold packets (0 unless set: the
 *         first hop's buffers are router.buf_flits deep). val's VCs.
 *
 * p->route[0]: the intermediate; p->route[1]: GR_DECIDED (ugal's choice
 * made), GR_PHASE2 (the intermediate reached). tests/test_topologies.c
 * checks every routing acyclic over every candidate and VC. */
#include <stdlib.h>
#include <string.h>

#include "net/net.h"
#include "route/dragonfly.h" /* df_occupancy: any topology's output occupancy */
#include "route/route.h"
#include "topo/topo_internal.h"

static const char *const deadlock_names[] = {"hops", "updown", NULL};

const struct saturn_param route_graph_params[] = {
    {"file.deadlock", SATURN_PARAM_ENUM, "hops", 0, 0, deadlock_names,
     "file, routing.algorithm = min: hops (shortest paths, VC class = hops taken: needs as many "
     "VCs as the graph's diameter) or updown (up*-down* on a breadth-first tree from router 0: "
     "the shortest legal paths, any number of VCs)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL}};

enum { GR_DECIDED = 1, GR_PHASE2 = 2 };
enum gr_mode { GR_MIN, GR_VAL, GR_UGAL };

#define FAR 0xff

struct fmin {
    enum gr_mode mode;
    bool updown;
    int classes;      /* hop-indexed VC classes: D (min) or 2 D */
    double threshold; /* ugal: phits */
    uint32_t R;
    uint32_t *rank;   /* updown: position in (depth, id) order */
    uint8_t *dd, *du; /* updown, [d * R + r]: hops to d by down hops only; by a legal path */
};

static void fmin_free(void *state)
{
    struct fmin *s = state;
    if (!s)
        return;
    free(s->rank);
    free(s->dd);
    free(s->du);
    free(s);
}

/* The ranks, then for every destination the down-only distances (a
 * backward breadth-first search over down links) and the legal ones (by
 * increasing rank: an up hop leads to a rank already done). */
static int build_updown(struct fmin *s, const struct topo *t)
{
    const uint32_t R = t->routers;
    uint32_t *q = malloc(R * sizeof *q), *order = malloc(R * sizeof *order);
    int *depth = malloc(R * sizeof *depth);
    s->rank = malloc(R * sizeof *s->rank);
    s->dd = malloc((size_t)R * R);
    s->du = malloc((size_t)R * R);
    if (!q || !order || !depth || !s->rank || !s->dd || !s->du) {
        free(q);
        free(order);
        free(depth);
        return SATURN_ENOMEM;
    }
    for (uint32_t r = 0; r < R; r++)
        depth[r] = -1;
    uint32_t head = 0, tail = 0;
    depth[0] = 0;
    q[tail++] = 0;
    while (head < tail) { /* breadth first, ports in order: (depth, id) is the rank */
        uint32_t r = q[head++];
        for (int p = 0; p < t->radix; p++) {
            uint32_t f = t->adj[(size_t)r * t->radix + (size_t)p];
            if (f != TOPO_NONE && depth[f] < 0) {
                depth[f] = depth[r] + 1;
                q[tail++] = f;
            }
        }
    }
    /* rank: by depth, then id (a counting sort) */
    uint32_t at = 0;
    for (int d = 0; at < R; d++)
        for (uint32_t r = 0; r < R; r++)
            if (depth[r] == d)
                order[at++] = r;
    for (uint32_t i = 0; i < R; i++)
        s->rank[order[i]] = i;
    memset(s->dd, FAR, (size_t)R * R);
    for (uint32_t d = 0; d < R; d++) {
        uint8_t *dd = s->dd + (size_t)d * R, *du = s->du + (size_t)d * R;
        head = tail = 0;
        dd[d] = 0;
        q[tail++] = d;
        while (head < tail) {
            uint32_t x = q[head++];
            for (int p = 0; p < t->radix; p++) { /* y -> x is down when y ranks lower */
                uint32_t y = t->adj[(size_t)x * t->radix + (size_t)p];
                if (y != TOPO_NONE && s->rank[y] < s->rank[x] && dd[y] == FAR) {
                    dd[y] = (uint8_t)(dd[x] + 1);
                    q[tail++] = y;
                }
            }
        }
        for (uint32_t i = 0; i < R; i++) {
            uint32_t r = order[i];
            int best = dd[r];
            for (int p = 0; p < t->radix; p++) {
                uint32_t f = t->adj[(size_t)r * t->radix + (size_t)p];
                if (f != TOPO_NONE && s->rank[f] < s->rank[r] && du[f] + 1 < best)
                    best = du[f] + 1;
            }
            du[r] = (uint8_t)best; /* finite: up to router 0, then down its tree */
        }
    }
    free(q);
    free(order);
    free(depth);
    return SATURN_OK;
}

static void eject(const struct net *n, const struct packet *p, struct route_result *out)
{
    out->n = 1;
    out->sel = 0;
    out->c[0] = (struct route_cand){(uint16_t)topo_node_port(&n->topo, p->dst), 0,
                                    (uint8_t)(n->Vd - 1)};
}

/* The shortest next hops from r towards router d, on VC class cls. */
static void shortest(const struct fmin *s, const struct net *n, uint32_t r, uint32_t d,
                     int cls, struct route_result *out)
{
    const struct topo *t = &n->topo;
    const uint32_t *adj = t->adj + (size_t)r * (size_t)t->radix;
    int lo, hi, np = 0, want = graph_router_hops(t, r, d) - 1;
    route_vc_class(s->classes, n->Vd, cls < s->classes ? cls : s->classes - 1, &lo, &hi);
    for (int q = 0; q < t->radix && np < ROUTE_MAX_CANDS; q++)
        if (adj[q] != TOPO_NONE && graph_router_hops(t, adj[q], d) == want)
            out->c[np++] = (struct route_cand){(uint16_t)q, (uint8_t)lo, (uint8_t)hi};
    out->n = np;
    out->sel = np;
}

/* Up-down: the next hops of the shortest legal paths, on every VC. */
static void updown(const struct fmin *s, const struct net *n, uint32_t r, uint32_t d,
                   int in_port, struct route_result *out)
{
    const struct topo *t = &n->topo;
    const uint32_t *adj = t->adj + (size_t)r * (size_t)t->radix;
    const uint8_t *dd = s->dd + (size_t)d * s->R, *du = s->du + (size_t)d * s->R;
    bool down = in_port < t->radix && s->rank[adj[in_port]] < s->rank[r];
    int want = (down ? dd[r] : du[r]) - 1, np = 0;
    for (int q = 0; q < t->radix && np < ROUTE_MAX_CANDS; q++) {
        uint32_t f = adj[q];
        if (f == TOPO_NONE)
            continue;
        bool go_down = s->rank[f] > s->rank[r];
        if ((go_down && dd[f] == want) || (!go_down && !down && du[f] == want))
            out->c[np++] = (struct route_cand){(uint16_t)q, 0, (uint8_t)(n->Vd - 1)};
    }
    out->n = np;
    out->sel = np;
}

/* The least occupied shortest first hop from r towards d (class 0). */
static double first_hop_queue(const struct fmin *s, const struct net *n, uint32_t r, uint32_t d)
{
    struct route_result c;
    shortest(s, n, r, d, 0, &c);
    double best = -1;
    for (int i = 0; i < c.n; i++) {
        double q = df_occupancy(n, r, c.c[i].port, c.c[i].vc_lo, c.c[i].vc_hi);
        if (best < 0 || q < best)
            best = q;
    }
    return best;
}

static void ugal_decide(const struct fmin *s, const struct net *n, uint32_t r, uint32_t d,
                        struct packet *p)
{
    const struct topo *t = &n->topo;
    uint32_t mid = p->route[0];
    p->route[1] |= GR_DECIDED;
    if (mid == r || mid == d || r == d) { /* minimal: no detour, or none wanted */
        p->route[0] = d;
        return;
    }
    double hmin = graph_router_hops(t, r, d);
    double hval = graph_router_hops(t, r, mid) + graph_router_hops(t, mid, d);
    if (first_hop_queue(s, n, r, d) * hmin > first_hop_queue(s, n, r, mid) * hval + s->threshold)
        p->misroute |= PACKET_MISROUTED_GLOBAL;
    else
        p->route[0] = d;
}

static void gr_route(void *state, const struct net *n, uint32_t r, int in_port, int in_vc,
                     struct packet *p, struct route_result *out)
{
    const struct fmin *s = state;
    const uint32_t d = topo_node_router(&n->topo, p->dst);
    if (s->mode == GR_MIN) {
        if (r == d)
            eject(n, p, out);
        else if (s->updown)
            updown(s, n, r, d, in_port, out);
        else
            shortest(s, n, r, d, p->hops, out);
        return;
    }
    if (s->mode == GR_UGAL && !(p->route[1] & GR_DECIDED))
        ugal_decide(s, n, r, d, p);
    if (!(p->route[1] & GR_PHASE2) && r == p->route[0])
        p->route[1] |= GR_PHASE2;
    if ((p->route[1] & GR_PHASE2) && r == d)
        eject(n, p, out);
    else
        shortest(s, n, r, p->route[1] & GR_PHASE2 ? d : p->route[0], p->hops, out);
}

static void gr_at_source(void *state, const struct net *n, struct packet *p, uint64_t draw)
{
    const struct fmin *s = state;
    const struct topo *t = &n->topo;
    p->route[0] = (uint32_t)(draw % t->routers);
    p->route[1] = 0;
    if (s->mode == GR_VAL && p->route[0] != topo_node_router(t, p->src) &&
        p->route[0] != topo_node_router(t, p->dst))
        p->misroute |= PACKET_MISROUTED_GLOBAL;
}

static int gr_init(void **state, const struct saturn_config *cfg, const struct net *n,
                   enum gr_mode mode, struct saturn_error *err)
{
    struct fmin *s = calloc(1, sizeof *s);
    if (!s)
        return saturn_error_set(err, SATURN_ENOMEM, "out of memory");
    *state = s;
    const struct topo *t = &n->topo;
    const char *name = mode == GR_MIN ? "min" : mode == GR_VAL ? "val" : "ugal";
    s->mode = mode;
    s->R = t->routers;
    s->updown = saturn_config_enum(cfg, "file.deadlock") == 1;
    if (saturn_config_is_set(cfg, "file.deadlock") && (t->kind != TOPO_FILE || mode != GR_MIN))
        return saturn_config_fail(cfg, "file.deadlock", err,
                                  "applies to routing.algorithm = min on network.topology = "
                                  "file (%s on a %s uses hop-indexed VCs)", name, t->name);
    if (saturn_config_is_set(cfg, "val.intermediate"))
        return saturn_config_fail(cfg, "val.intermediate", err,
                                  "applies to the Dragonfly; on a %s Valiant's intermediate "
                                  "is a random router", t->name);
    if (mode != GR_UGAL && saturn_config_is_set(cfg, "ugal.threshold"))
        return saturn_config_fail(cfg, "ugal.threshold", err, "applies to routing.algorithm = ugal");
    s->threshold = saturn_config_is_set(cfg, "ugal.threshold")
                       ? saturn_config_real(cfg, "ugal.threshold") *
                             (double)saturn_config_int(cfg, "traffic.packet_length")
                       : 0;
    int diam = t->diam > 0 ? t->diam : 1;
    s->classes = mode == GR_MIN ? diam : 2 * diam;
    if (!(mode == GR_MIN && s->updown) && n->Vd < s->classes)
        return saturn_config_fail(cfg, "router.vcs", err,
                                  "too few VCs: this %s's diameter is %d hops, and %s's "
                                  "hop-indexed VCs need one per hop of its longest path, %d%s",
                                  t->name, t->diam, name, s->classes,
                                  t->kind == TOPO_FILE && mode == GR_MIN
                                      ? "; or use file.deadlock = updown (any number of VCs)"
                                      : "");
    if (mode == GR_MIN && s->updown && build_updown(s, t))
        return saturn_error_set(err, SATURN_ENOMEM, "out of memory (up-down tables)");
    return SATURN_OK;
}

static int min_init(void **st, const struct saturn_config *c, const struct net *n,
                    struct saturn_error *e)
{
    return gr_init(st, c, n, GR_MIN, e);
}
static int val_init(void **st, const struct saturn_config *c, const struct net *n,
                    struct saturn_error *e)
{
    return gr_init(st, c, n, GR_VAL, e);
}
static int ugal_init(void **st, const struct saturn_config *c, const struct net *n,
                     struct saturn_error *e)
{
    return gr_init(st, c, n, GR_UGAL, e);
}

#define GRAPHS ((1u << TOPO_FILE) | (1u << TOPO_SLIMFLY))

const struct route_ops route_graph_min = {.name = "min", .init = min_init, .route = gr_route,
                                          .free = fmin_free, .topologies = GRAPHS,
                                          .reroute = true, .minimal_split = true};
const struct route_ops route_graph_val = {.name = "val", .init = val_init,
                                          .at_source = gr_at_source, .route = gr_route,
                                          .free = fmin_free, .topologies = GRAPHS};
const struct route_ops route_graph_ugal = {.name = "ugal", .init = ugal_init,
                                           .at_source = gr_at_source, .route = gr_route,
                                           .free = fmin_free, .topologies = GRAPHS,
                                           .reroute = true};
