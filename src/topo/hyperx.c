/* HyperX (Ahn, Binkert, Davis, McLaren, Schreiber 2009): routers on an
 * n-dimensional grid of widths S_0 .. S_{n-1}, every dimension a complete
 * graph with K_d parallel links between each pair of routers in it, T
 * nodes per router. The flattened butterfly is the case K = 1.
 *
 * Router id = sum_d c_d stride_d, dimension 0 least significant, as a
 * torus (topo.coord holds the coordinates); node id = router T + j. Ports:
 * dimension d owns (S_d - 1) K_d ports from port_base[d]; the one to
 * coordinate x != c_d, copy m < K_d, is port_base[d] + (x < c_d ? x :
 * x - 1) K_d + m, and arrives on the same copy of the far router's port
 * back. Then the T node ports. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "topo/topo_internal.h"

const struct saturn_param topo_hyperx_params[] = {
    {"hyperx.s", SATURN_PARAM_INTLIST, "4,4", 2, 1 << 16, NULL,
     "hyperx: routers per dimension S_d, one value per dimension (their number is the "
     "dimension count)"},
    {"hyperx.links", SATURN_PARAM_INTLIST, "1", 1, 64, NULL,
     "hyperx: parallel links K_d between two routers of a dimension: one value for all, or "
     "one per dimension"},
    {"hyperx.t", SATURN_PARAM_INT, "4", 1, 63, NULL, "hyperx: nodes per router (T)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL}};

struct shape {
    int n, t, s[SATURN_LIST_MAX], k[SATURN_LIST_MAX];
    double routers;
    int radix;
};

static int read_shape(const struct saturn_config *cfg, struct shape *h, struct saturn_error *err)
{
    int64_t v[SATURN_LIST_MAX];
    h->n = saturn_config_list(cfg, "hyperx.s", v, SATURN_LIST_MAX);
    if (h->n > TOPO_MAX_DIMS)
        return saturn_config_fail(cfg, "hyperx.s", err, "at most %d dimensions", TOPO_MAX_DIMS);
    h->routers = 1;
    for (int d = 0; d < h->n; d++) {
        h->s[d] = (int)v[d];
        h->routers *= (double)v[d];
    }
    int nk = saturn_config_list(cfg, "hyperx.links", v, SATURN_LIST_MAX);
    if (nk != 1 && nk != h->n)
        return saturn_config_fail(cfg, "hyperx.links", err,
                                  "gives %d values for %d dimensions (hyperx.s); give one value "
                                  "or exactly %d", nk, h->n, h->n);
    h->t = (int)saturn_config_int(cfg, "hyperx.t");
    h->radix = 0;
    for (int d = 0; d < h->n; d++) {
        h->k[d] = (int)(nk == 1 ? v[0] : v[d]);
        h->radix += (h->s[d] - 1) * h->k[d];
        if (h->radix + h->t > 64)
            return saturn_config_fail(cfg, "hyperx.s", err,
                                      "a router has sum (S_d - 1) K_d + T = %d ports or more; "
                                      "saturn's routers have at most 64",
                                      h->radix + h->t);
    }
    if (h->routers * h->t > (double)(1u << 30))
        return saturn_config_fail(cfg, "hyperx.s", err,
                                  "network too large (%.0f nodes, more than 2^30)",
                                  h->routers * h->t);
    return SATURN_OK;
}

static int hyperx_size(const struct saturn_config *cfg, struct topo_size *s,
                       struct saturn_error *err)
{
    struct shape h;
    int rc = read_shape(cfg, &h, err);
    if (rc)
        return rc;
    s->routers = h.routers;
    s->nodes = h.routers * h.t;
    s->radix = h.radix;
    s->conc = h.t;
    s->words = h.n + (5 * h.radix + 3) / 4;
    return SATURN_OK;
}

static int hyperx_build(struct topo *t, const struct saturn_config *cfg,
                        struct saturn_error *err)
{
    struct shape h;
    int rc = read_shape(cfg, &h, err);
    if (rc)
        return rc;
    t->n = h.n;
    t->conc = h.t;
    t->radix = h.radix;
    t->routers = (uint32_t)h.routers;
    t->nodes = t->routers * (uint32_t)h.t;
    uint32_t stride = 1;
    int base = 0;
    for (int d = 0; d < h.n; d++) {
        t->k[d] = h.s[d];
        t->mult[d] = h.k[d];
        t->stride[d] = stride;
        t->port_base[d] = base;
        stride *= (uint32_t)h.s[d];
        base += (h.s[d] - 1) * h.k[d];
    }
    t->coord = malloc((size_t)t->routers * (size_t)t->n * sizeof *t->coord);
    if (!t->coord || (rc = graph_alloc(t)))
        return saturn_error_set(err, SATURN_ENOMEM, "out of memory (topology)");
    for (uint32_t r = 0; r < t->routers; r++)
        for (int d = 0; d < t->n; d++)
            t->coord[(size_t)r * (size_t)t->n + (size_t)d] =
                (int32_t)((r / t->stride[d]) % (uint32_t)t->k[d]);
    for (uint32_t r = 0; r < t->routers; r++)
        for (int d = 0; d < t->n; d++) {
            int c = topo_coord(t, r, d);
            for (int x = c + 1; x < t->k[d]; x++)
                for (int m = 0; m < t->mult[d]; m++)
                    graph_connect(t, r, hyperx_port(t, d, c, x, m),
                                  r + (uint32_t)(x - c) * t->stride[d],
                                  hyperx_port(t, d, x, c, m));
        }
    return SATURN_OK;
}

static int hyperx_distance(const struct topo *t, uint32_t a, uint32_t b)
{
    uint32_t ra = topo_node_router(t, a), rb = topo_node_router(t, b);
    int h = 0;
    for (int d = 0; d < t->n; d++)
        h += topo_coord(t, ra, d) != topo_coord(t, rb, d);
    return h;
}

static int hyperx_diameter(const struct topo *t) { return t->n; }

/* Any minimal routing crosses one link of dimension d exactly when the
 * coordinates differ there, and by symmetry loads every link of the
 * dimension alike: a dimension-d link carries T N / (S_d K_d (N - 1)) per
 * unit of uniform load (under DOR: the T prod_{e<d} S_e sources that
 * match its router beyond d, to the T prod_{e>d} S_e destinations that
 * match it below d). */
static double hyperx_uniform_bound(const struct topo *t)
{
    double N = t->nodes, best = INFINITY;
    if (N < 2)
        return best;
    for (int d = 0; d < t->n; d++) {
        double b = (double)t->k[d] * t->mult[d] * (N - 1) / (t->conc * N);
        if (b < best)
            best = b;
    }
    return best;
}

/* Every link of every dimension where r and dst differ. */
static int hyperx_min_ports(const struct topo *t, uint32_t r, uint32_t dst, int *ports)
{
    int np = 0;
    for (int d = 0; d < t->n; d++) {
        int c = topo_coord(t, r, d), x = topo_coord(t, dst, d);
        for (int m = 0; c != x && m < t->mult[d] && np < TOPO_MAX_MIN; m++)
            ports[np++] = hyperx_port(t, d, c, x, m);
    }
    return np;
}

static void hyperx_describe(const struct saturn_config *cfg, uint64_t nodes, char *buf,
                            size_t size)
{
    int64_t v[SATURN_LIST_MAX];
    int n = saturn_config_list(cfg, "hyperx.s", v, SATURN_LIST_MAX), at = 0;
    buf[0] = 0;
    for (int d = 0; d < n && at >= 0 && (size_t)at < size; d++)
        at += snprintf(buf + at, size - (size_t)at, "%s%lld", d ? "x" : "", (long long)v[d]);
    int nk = saturn_config_list(cfg, "hyperx.links", v, SATURN_LIST_MAX);
    for (int d = 0; d < nk && at >= 0 && (size_t)at < size; d++)
        at += snprintf(buf + at, size - (size_t)at, "%s%lld", d ? "," : " links=",
                       (long long)v[d]);
    if (at >= 0 && (size_t)at < size)
        at += snprintf(buf + at, size - (size_t)at, " t=%lld",
                       (long long)saturn_config_int(cfg, "hyperx.t"));
    if (nodes && at >= 0 && (size_t)at < size)
        snprintf(buf + at, size - (size_t)at, " (%llu nodes)", (unsigned long long)nodes);
}

const struct topo_ops topo_hyperx_ops = {
    .name = "hyperx",
    .kind = TOPO_HYPERX,
    .build = hyperx_build,
    .size = hyperx_size,
    .link = graph_link,
    .distance = hyperx_distance,
    .diameter = hyperx_diameter,
    .uniform_bound = hyperx_uniform_bound,
    .min_ports = hyperx_min_ports,
    .describe = hyperx_describe,
};
