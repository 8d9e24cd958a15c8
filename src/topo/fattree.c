/* k-ary n-tree (Petrini & Vanneschi 1997), a folded Clos with the nodes at
 * the leaves: N = k^n nodes, n levels of k^(n-1) routers, each router with
 * k links down and k up (the top level's up ports unused).
 *
 * Router (l, w), l the level (0: leaves) and w < k^(n-1) a word of n - 1
 * base-k digits, has id l k^(n-1) + w, so the leaves come first and node x
 * sits on leaf x / k, local port x mod k. Up port j (port j < k) of (l, w)
 * goes to (l + 1, w with digit l set to j), arriving on its down port
 * k + (digit l of w). Router (l, w) is the root of the subtree of the
 * leaves x with x / k^l == w / k^l; the nearest common ancestors of leaves
 * x and y are the routers of the lowest level l where x / k^l == y / k^l,
 * 2 l hops apart. */
#include <math.h>
#include <stdio.h>

#include "topo/topo_internal.h"

const struct saturn_param topo_fattree_params[] = {
    {"fattree.k", SATURN_PARAM_INT, "4", 2, 21, NULL,
     "fattree: arity: nodes per leaf router, and links down and up per router"},
    {"fattree.n", SATURN_PARAM_INT, "3", 1, TOPO_MAX_DIMS, NULL,
     "fattree: levels of routers (k^n nodes, n k^(n-1) routers)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL}};

static int fattree_size(const struct saturn_config *cfg, struct topo_size *s,
                        struct saturn_error *err)
{
    double k = (double)saturn_config_int(cfg, "fattree.k");
    int n = (int)saturn_config_int(cfg, "fattree.n");
    s->nodes = pow(k, n);
    s->routers = n * pow(k, n - 1);
    s->radix = 2 * (int)k;
    s->conc = (int)k;
    s->words = 2 * (int)k + ((int)k + 1) / 2; /* the adjacency table: 5 bytes a port */
    if (s->nodes > (double)(1u << 30))
        return saturn_config_fail(cfg, "fattree.n", err,
                                  "network too large (k^n = %.0f nodes, more than 2^30)",
                                  s->nodes);
    return SATURN_OK;
}

static int fattree_build(struct topo *t, const struct saturn_config *cfg,
                         struct saturn_error *err)
{
    struct topo_size s;
    int rc = fattree_size(cfg, &s, err);
    if (rc)
        return rc;
    const int k = (int)saturn_config_int(cfg, "fattree.k"), n = (int)saturn_config_int(cfg, "fattree.n");
    t->ft_k = k;
    t->ft_n = n;
    t->ft_pow[0] = 1;
    for (int l = 1; l <= n; l++)
        t->ft_pow[l] = t->ft_pow[l - 1] * (uint32_t)k;
    const uint32_t per = t->ft_pow[n - 1];
    t->routers = (uint32_t)n * per;
    t->nodes = t->ft_pow[n];
    t->radix = 2 * k;
    t->conc = k;
    if ((rc = graph_alloc(t)))
        return saturn_error_set(err, rc, "out of memory (topology)");
    for (int l = 0; l + 1 < n; l++)
        for (uint32_t w = 0; w < per; w++) {
            uint32_t digit = (w / t->ft_pow[l]) % (uint32_t)k;
            for (int j = 0; j < k; j++) {
                uint32_t up = w + ((uint32_t)j - digit) * t->ft_pow[l];
                graph_connect(t, (uint32_t)l * per + w, j, (uint32_t)(l + 1) * per + up,
                              k + (int)digit);
            }
        }
    return SATURN_OK;
}

/* The level of the nearest common ancestors of leaves x and y. */
static int nca_level(const struct topo *t, uint32_t x, uint32_t y)
{
    int l = 0;
    while (x / t->ft_pow[l] != y / t->ft_pow[l])
        l++;
    return l;
}

static int fattree_distance(const struct topo *t, uint32_t a, uint32_t b)
{
    return 2 * nca_level(t, a / (uint32_t)t->ft_k, b / (uint32_t)t->ft_k);
}

static int fattree_diameter(const struct topo *t) { return 2 * (t->ft_n - 1); }

/* Uniform traffic leaves a leaf's subtree with probability (N - k)/(N - 1)
 * and any balanced up-port choice spreads it over the leaf's k up links;
 * higher subtrees keep more of their traffic inside, so the leaves' up
 * (and, by symmetry, the down) links are the busiest: (N - 1)/(N - k). A
 * k-ary n-tree has full bisection bandwidth: with the injection channel,
 * 1 flit/node/cycle binds. */
static double fattree_uniform_bound(const struct topo *t)
{
    if (t->ft_n < 2 || t->nodes < 2)
        return INFINITY;
    return ((double)t->nodes - 1) / ((double)t->nodes - t->ft_k);
}

/* Towards leaf dst: every up port below the nearest common ancestors, the
 * one down port above. */
static int fattree_min_ports(const struct topo *t, uint32_t r, uint32_t dst, int *ports)
{
    const uint32_t per = t->ft_pow[t->ft_n - 1];
    const int l = (int)(r / per), k = t->ft_k;
    const uint32_t w = r % per;
    if (w / t->ft_pow[l] == dst / t->ft_pow[l]) {
        ports[0] = k + (int)((dst / t->ft_pow[l - 1]) % (uint32_t)k);
        return 1;
    }
    for (int j = 0; j < k; j++)
        ports[j] = j;
    return k;
}

static void fattree_describe(const struct saturn_config *cfg, uint64_t nodes, char *buf,
                             size_t size)
{
    int at = snprintf(buf, size, "k=%lld n=%lld", (long long)saturn_config_int(cfg, "fattree.k"),
                      (long long)saturn_config_int(cfg, "fattree.n"));
    if (nodes && at > 0 && (size_t)at < size)
        snprintf(buf + at, size - (size_t)at, " (%llu nodes)", (unsigned long long)nodes);
}

const struct topo_ops topo_fattree_ops = {
    .name = "fattree",
    .kind = TOPO_FATTREE,
    .build = fattree_build,
    .size = fattree_size,
    .link = graph_link,
    .distance = fattree_distance,
    .diameter = fattree_diameter,
    .uniform_bound = fattree_uniform_bound,
    .min_ports = fattree_min_ports,
    .describe = fattree_describe,
};
