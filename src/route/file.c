/* Routing on a graph from a file (routing.algorithm = min on
 * network.topology = file): shortest paths, every shortest next hop an
 * adaptive candidate (the free VC with the most credits among them; the
 * first 8 when more), deadlock-free by one of two means (file.deadlock):
 *
 *   hops    hop-indexed VCs: hop h (h hops taken) uses VC class h of D, D
 *           the graph's diameter, so it needs D VCs; the class rises along
 *           every path, so the channel dependencies are acyclic.
 *   updown  up-down routing (Autonet's up*-down*, Schroeder et al. 1991): a breadth-first
 *           tree from router 0 ranks the routers by (depth, id); a hop to a
 *           lower rank is up, to a higher rank down, and a path takes no up
 *           hop after a down one. Every up channel leads to a lower rank,
 *           every down channel to a higher one, and no down channel leads
 *           to an up one: no cycle, on any number of VCs (every VC is
 *           used). Paths are the shortest legal ones, which may be longer
 *           than the graph's shortest.
 *
 * A packet is in its down phase when the hop that brought it here went
 * down: the rule needs no state in the packet. tests/test_topologies.c
 * checks both acyclic over every candidate and VC. */
#include <stdlib.h>
#include <string.h>

#include "net/net.h"
#include "route/route.h"
#include "topo/topo_internal.h"

static const char *const deadlock_names[] = {"hops", "updown", NULL};

const struct saturn_param route_file_params[] = {
    {"file.deadlock", SATURN_PARAM_ENUM, "hops", 0, 0, deadlock_names,
     "file, routing.algorithm = min: hops (shortest paths, VC class = hops taken: needs as many "
     "VCs as the graph's diameter) or updown (up*-down* on a breadth-first tree from router 0: "
     "the shortest legal paths, any number of VCs)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL}};

#define FAR 0xff

struct fmin {
    bool updown;
    int classes;      /* hops: the diameter */
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

static void fmin_route(void *state, const struct net *n, uint32_t r, int in_port, int in_vc,
                       struct packet *p, struct route_result *out)
{
    const struct fmin *s = state;
    const struct topo *t = &n->topo;
    const uint32_t d = topo_node_router(t, p->dst);
    out->sel = 0;
    if (r == d) {
        out->n = 1;
        out->c[0] = (struct route_cand){(uint16_t)topo_node_port(t, p->dst), 0,
                                        (uint8_t)(n->Vd - 1)};
        return;
    }
    int lo = 0, hi = n->Vd - 1, np = 0;
    const uint32_t *adj = t->adj + (size_t)r * (size_t)t->radix;
    if (!s->updown) {
        int cls = p->hops < s->classes ? p->hops : s->classes - 1;
        route_vc_class(s->classes, n->Vd, cls, &lo, &hi);
        int want = graph_router_hops(t, r, d) - 1;
        for (int q = 0; q < t->radix && np < ROUTE_MAX_CANDS; q++)
            if (adj[q] != TOPO_NONE && graph_router_hops(t, adj[q], d) == want)
                out->c[np++] = (struct route_cand){(uint16_t)q, (uint8_t)lo, (uint8_t)hi};
    } else {
        const uint8_t *dd = s->dd + (size_t)d * s->R, *du = s->du + (size_t)d * s->R;
        bool down = in_port < t->radix && s->rank[adj[in_port]] < s->rank[r];
        int want = (down ? dd[r] : du[r]) - 1;
        for (int q = 0; q < t->radix && np < ROUTE_MAX_CANDS; q++) {
            uint32_t f = adj[q];
            if (f == TOPO_NONE)
                continue;
            bool go_down = s->rank[f] > s->rank[r];
            if ((go_down && dd[f] == want) || (!go_down && !down && du[f] == want))
                out->c[np++] = (struct route_cand){(uint16_t)q, (uint8_t)lo, (uint8_t)hi};
        }
    }
    out->n = np;
    out->sel = np;
}

static int fmin_init(void **state, const struct saturn_config *cfg, const struct net *n,
                     struct saturn_error *err)
{
    struct fmin *s = calloc(1, sizeof *s);
    if (!s)
        return saturn_error_set(err, SATURN_ENOMEM, "out of memory");
    *state = s;
    const struct topo *t = &n->topo;
    s->R = t->routers;
    s->updown = saturn_config_enum(cfg, "file.deadlock") == 1;
    s->classes = t->diam > 0 ? t->diam : 1;
    if (!s->updown && n->Vd < s->classes)
        return saturn_config_fail(cfg, "router.vcs", err,
                                  "too few VCs: this graph's diameter is %d hops, and "
                                  "hop-indexed VCs (file.deadlock = hops) need one per hop, %d; "
                                  "or use file.deadlock = updown (any number of VCs)",
                                  t->diam, s->classes);
    if (s->updown && build_updown(s, t))
        return saturn_error_set(err, SATURN_ENOMEM, "out of memory (up-down tables)");
    return SATURN_OK;
}

const struct route_ops route_file_min = {
    .name = "min",
    .init = fmin_init,
    .route = fmin_route,
    .free = fmin_free,
    .topologies = 1u << TOPO_FILE,
    .reroute = true,
};
