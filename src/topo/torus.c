/* k-ary n-cube tori and meshes (port numbering in topo.h). */
#include "topo/topo_internal.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topo/topo.h"

int torus_build(struct topo *t, const struct saturn_config *cfg,
                struct saturn_error *err)
{
    t->kind = saturn_config_enum(cfg, "network.topology") == 0 ? TOPO_TORUS : TOPO_MESH;
    t->name = t->kind == TOPO_TORUS ? "torus" : "mesh";
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

bool torus_link(const struct topo *t, uint32_t router, int port,
               uint32_t *far_router, int *far_port)
{
    if (port < 0 || port >= t->radix)
        return false;
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

int torus_distance(const struct topo *t, uint32_t a, uint32_t b)
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

int torus_diameter(const struct topo *t)
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
double torus_uniform_bound(const struct topo *t)
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
