/* k-ary n-cube tori and meshes (port numbering in topo.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topo/topo_internal.h"

static int torus_build(struct topo *t, const struct saturn_config *cfg,
                       struct saturn_error *err)
{
    t->n = (int)saturn_config_int(cfg, "network.n");
    int64_t k[SATURN_LIST_MAX];
    int nk = saturn_config_list(cfg, "network.k", k, SATURN_LIST_MAX);
    if (nk != 1 && nk != t->n)
        return saturn_config_fail(cfg, "network.k", err,
                                  "gives %d values for network.n = %d dimensions; "
                                  "give one value or exactly %d",
                                  nk, t->n, t->n);
    uint64_t total = 1;
    for (int d = 0; d < t->n; d++) {
        t->k[d] = (int)(nk == 1 ? k[0] : k[d]);
        t->stride[d] = (uint32_t)total;
        total *= (uint64_t)t->k[d];
        if (total > (1ULL << 30))
            return saturn_config_fail(cfg, "network.k", err,
                                      "network too large (more than 2^30 routers)");
    }
    t->routers = t->nodes = (uint32_t)total;
    t->radix = 2 * t->n;
    t->conc = 1;
    t->coord = malloc((size_t)total * (size_t)t->n * sizeof *t->coord);
    if (!t->coord)
        return saturn_error_set(err, SATURN_ENOMEM, "out of memory (topology)");
    for (uint32_t id = 0; id < t->routers; id++)
        for (int d = 0; d < t->n; d++)
            t->coord[(size_t)id * (size_t)t->n + (size_t)d] =
                (int32_t)((id / t->stride[d]) % (uint32_t)t->k[d]);
    return SATURN_OK;
}

static bool torus_link(const struct topo *t, uint32_t router, int port,
                       uint32_t *far_router, int *far_port)
{
    int d = port / 2, plus = (port % 2) == 0;
    int c = topo_coord(t, router, d), k = t->k[d];
    int nc = plus ? c + 1 : c - 1;
    if (t->kind == TOPO_MESH && (nc < 0 || nc >= k))
        return false;
    nc = (nc + k) % k;
    /* k = 2 torus: + and - reach the same neighbour over two distinct links. */
    *far_router = router + (uint32_t)(nc - c) * t->stride[d];
    *far_port = plus ? 2 * d + 1 : 2 * d; /* arrives from the opposite side */
    return true;
}

void topo_coords(const struct topo *t, uint32_t id, int *c)
{
    for (int d = 0; d < t->n; d++)
        c[d] = topo_coord(t, id, d);
}

uint32_t topo_id(const struct topo *t, const int *c)
{
    uint32_t id = 0;
    for (int d = 0; d < t->n; d++)
        id += (uint32_t)c[d] * t->stride[d];
    return id;
}

static int torus_distance(const struct topo *t, uint32_t a, uint32_t b)
{
    int h = 0;
    for (int d = 0; d < t->n; d++) {
        int x = abs(topo_coord(t, a, d) - topo_coord(t, b, d));
        if (t->kind == TOPO_TORUS && t->k[d] - x < x)
            x = t->k[d] - x;
        h += x;
    }
    return h;
}

static int torus_diameter(const struct topo *t)
{
    int h = 0;
    for (int d = 0; d < t->n; d++)
        h += t->kind == TOPO_TORUS ? t->k[d] / 2 : t->k[d] - 1;
    return h;
}

/* Busiest channel under uniform traffic (destinations over all N nodes):
 * torus, dimension of size k: each of the 2N/k... channels carries
 * N * (k/8 for even k) flits per unit rate, giving the bound 8/k
 * (Dally & Towles, section 3.3.1); mesh: the middle channel carries k/4,
 * bound 4/k. The smallest dimension-wise bound holds. */
static double torus_uniform_bound(const struct topo *t)
{
    double best = 1e30;
    for (int d = 0; d < t->n; d++) {
        double k = t->k[d], load;
        if (t->kind == TOPO_TORUS)
            load = t->k[d] % 2 == 0 ? k / 8.0 : (k * k - 1) / (8.0 * k);
        else
            load = t->k[d] % 2 == 0 ? k / 4.0 : (k * k - 1) / (4.0 * k);
        if (1.0 / load < best)
            best = 1.0 / load;
    }
    return best;
}

/* The minimal ports towards dst in increasing port order: both ways round
 * at distance exactly k/2 on a torus. */
static int torus_min_ports(const struct topo *t, uint32_t r, uint32_t dst, int *ports)
{
    int np = 0;
    for (int d = 0; d < t->n; d++) {
        int c = topo_coord(t, r, d), g = topo_coord(t, dst, d), k = t->k[d];
        if (c == g)
            continue;
        if (t->kind == TOPO_MESH) {
            ports[np++] = g > c ? 2 * d : 2 * d + 1;
            continue;
        }
        int fw = ((g - c) % k + k) % k, bw = k - fw;
        if (fw <= bw)
            ports[np++] = 2 * d;
        if (bw <= fw)
            ports[np++] = 2 * d + 1;
    }
    return np;
}

static int torus_size(const struct saturn_config *cfg, struct topo_size *s,
                      struct saturn_error *err)
{
    int64_t k[SATURN_LIST_MAX];
    int nk = saturn_config_list(cfg, "network.k", k, SATURN_LIST_MAX);
    int dims = (int)saturn_config_int(cfg, "network.n");
    s->routers = 1;
    for (int d = 0; d < dims; d++)
        s->routers *= (double)(nk == 1 || d >= nk ? k[0] : k[d]);
    s->nodes = s->routers;
    s->radix = 2 * dims;
    s->conc = 1;
    s->words = dims;
    return SATURN_OK;
}

static void torus_describe(const struct saturn_config *cfg, uint64_t nodes, char *buf,
                           size_t size)
{
    int64_t k[SATURN_LIST_MAX];
    int nk = saturn_config_list(cfg, "network.k", k, SATURN_LIST_MAX);
    int dims = (int)saturn_config_int(cfg, "network.n");
    size_t at = 0;
    buf[0] = 0;
    for (int d = 0; d < dims && at < size; d++)
        at += (size_t)snprintf(buf + at, size - at, "%s%lld", d ? "x" : "",
                               (long long)(nk == 1 ? k[0] : k[d]));
}

const struct topo_ops topo_torus_ops = {
    .name = "torus",
    .kind = TOPO_TORUS,
    .build = torus_build,
    .size = torus_size,
    .link = torus_link,
    .distance = torus_distance,
    .diameter = torus_diameter,
    .uniform_bound = torus_uniform_bound,
    .min_ports = torus_min_ports,
    .describe = torus_describe,
};

const struct topo_ops topo_mesh_ops = {
    .name = "mesh",
    .kind = TOPO_MESH,
    .build = torus_build,
    .size = torus_size,
    .link = torus_link,
    .distance = torus_distance,
    .diameter = torus_diameter,
    .uniform_bound = torus_uniform_bound,
    .min_ports = torus_min_ports,
    .describe = torus_describe,
};
