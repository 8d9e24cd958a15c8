/* Megafly / Dragonfly+ (Shpiner et al. 2017, Flajslik et al. 2018): groups
 * of a leaf routers and s spine routers, each group a complete bipartite
 * graph (every leaf linked to every spine); p nodes on every leaf, h global
 * links on every spine, G = s h + 1 groups with one global link between
 * every pair of groups (the spines' links in palmtree order).
 *
 * Router ids: the leaves first, leaf i of group g is g a + i (so node
 * x sits on leaf x / p, local port x mod p, as on a Dragonfly); spine j of
 * group g is G a + g s + j. Ports: leaf port j < s goes up to spine j of
 * its group, arriving on the spine's port i (the leaf's index); spine port
 * a + m (m < h) is the group's global link k = j h + m, to group g + k + 1
 * (mod G), arriving as that group's link G - 2 - k (Camarero et al.'s
 * palmtree, as dragonfly.c's). radix = max(s, a + h): a leaf's ports from
 * s on and a spine's from a + h on have no link. Up and down links are of
 * the local class, spine-to-spine links of the global class
 * (megafly.global_latency). The topology keeps a, p, h and groups in the
 * Dragonfly's fields (pattern.c's ADV+i works on them unchanged) and s in
 * mf_s. */
#include <stdio.h>
#include <stdlib.h>

#include "topo/topo_internal.h"

const struct saturn_param topo_megafly_params[] = {
    {"megafly.p", SATURN_PARAM_INT, "4", 1, 63, NULL, "megafly: nodes per leaf router"},
    {"megafly.a", SATURN_PARAM_INT, "4", 1, 63, NULL, "megafly: leaf routers per group"},
    {"megafly.s", SATURN_PARAM_INT, "4", 1, 63, NULL,
     "megafly: spine routers per group (each linked to every leaf of its group)"},
    {"megafly.h", SATURN_PARAM_INT, "4", 1, 62, NULL,
     "megafly: global links per spine router (s h + 1 groups)"},
    {"megafly.global_latency", SATURN_PARAM_INT, "0", 0, 65535, NULL,
     "megafly: cycles on a global (spine-to-spine) link; 0 = router.link_latency"},
    {NULL, 0, NULL, 0, 0, NULL, NULL}};

struct shape {
    int p, a, s, h, radix;
    double groups;
};

static int read_shape(const struct saturn_config *cfg, struct shape *m, struct saturn_error *err)
{
    m->p = (int)saturn_config_int(cfg, "megafly.p");
    m->a = (int)saturn_config_int(cfg, "megafly.a");
    m->s = (int)saturn_config_int(cfg, "megafly.s");
    m->h = (int)saturn_config_int(cfg, "megafly.h");
    m->groups = (double)m->s * m->h + 1;
    m->radix = m->s > m->a + m->h ? m->s : m->a + m->h;
    if (m->radix + m->p > 64)
        return saturn_config_fail(cfg, m->s > m->a + m->h ? "megafly.s" : "megafly.h", err,
                                  "a router has max(s, a + h) + p = %d + %d ports; saturn's "
                                  "routers have at most 64", m->radix, m->p);
    if (m->groups * (m->a + m->s) > (double)(1u << 26))
        return saturn_config_fail(cfg, "megafly.h", err,
                                  "network too large (%.0f routers, more than 2^26)",
                                  m->groups * (m->a + m->s));
    return SATURN_OK;
}

static int megafly_size(const struct saturn_config *cfg, struct topo_size *s,
                        struct saturn_error *err)
{
    struct shape m;
    int rc = read_shape(cfg, &m, err);
    if (rc)
        return rc;
    s->routers = m.groups * (m.a + m.s);
    s->nodes = m.groups * m.a * m.p;
    s->radix = m.radix;
    s->conc = m.p;
    s->global_ports = m.h;
    /* adjacency (5 bytes a port, 2 more for classes and latencies) and the
     * distance table (a byte per router pair) */
    s->words = (7 * m.radix + 3) / 4 + (int)(s->routers / 4) + 1;
    return SATURN_OK;
}

static int megafly_build(struct topo *t, const struct saturn_config *cfg,
                         struct saturn_error *err)
{
    struct shape m;
    int rc = read_shape(cfg, &m, err);
    if (rc)
        return rc;
    const uint32_t G = (uint32_t)m.groups, A = (uint32_t)m.a, S = (uint32_t)m.s;
    t->p = m.p;
    t->a = m.a;
    t->h = m.h;
    t->mf_s = m.s;
    t->groups = G;
    t->routers = G * (A + S);
    t->radix = m.radix;
    t->conc = m.p;
    t->nodes = G * A * (uint32_t)m.p;
    const size_t np = (size_t)t->routers * (size_t)t->radix;
    t->adj_cls = calloc(np, 1);
    uint32_t lat = (uint32_t)saturn_config_int(cfg, "megafly.global_latency");
    if (lat)
        t->port_lat = calloc(np, sizeof *t->port_lat);
    if (!t->adj_cls || (lat && !t->port_lat) || graph_alloc(t))
        return saturn_error_set(err, SATURN_ENOMEM, "out of memory (topology)");
    for (uint32_t g = 0; g < G; g++)
        for (uint32_t j = 0; j < S; j++) {
            const uint32_t spine = G * A + g * S + j;
            for (uint32_t i = 0; i < A; i++)
                graph_connect(t, g * A + i, (int)j, spine, (int)i);
            for (int q = 0; q < m.h; q++) {
                const uint32_t k = j * (uint32_t)m.h + (uint32_t)q;
                const uint32_t tg = (g + k + 1) % G, tk = G - 2 - k;
                if (tg < g)
                    continue; /* linked from the other end */
                const uint32_t far = G * A + tg * S + tk / (uint32_t)m.h;
                const int fp = m.a + (int)(tk % (uint32_t)m.h);
                graph_connect(t, spine, m.a + q, far, fp);
                t->adj_cls[(size_t)spine * (size_t)t->radix + (size_t)(m.a + q)] = TOPO_GLOBAL;
                t->adj_cls[(size_t)far * (size_t)t->radix + (size_t)fp] = TOPO_GLOBAL;
                if (lat) {
                    t->port_lat[(size_t)spine * (size_t)t->radix + (size_t)(m.a + q)] = (uint16_t)lat;
                    t->port_lat[(size_t)far * (size_t)t->radix + (size_t)fp] = (uint16_t)lat;
                }
            }
        }
    t->max_latency = lat;
    uint32_t from, to;
    if ((rc = graph_bfs(t, &from, &to)))
        return saturn_error_set(err, rc == SATURN_ENOMEM ? rc : SATURN_EINTERNAL,
                                "megafly: %s", rc == SATURN_ENOMEM ? "out of memory"
                                                                   : "the graph is disconnected");
    return SATURN_OK;
}

static void megafly_describe(const struct saturn_config *cfg, uint64_t nodes, char *buf,
                             size_t size)
{
    long long p = saturn_config_int(cfg, "megafly.p"), a = saturn_config_int(cfg, "megafly.a"),
              s = saturn_config_int(cfg, "megafly.s"), h = saturn_config_int(cfg, "megafly.h");
    int at = snprintf(buf, size, "p=%lld a=%lld s=%lld h=%lld", p, a, s, h);
    if (nodes && at > 0 && (size_t)at < size)
        snprintf(buf + at, size - (size_t)at, " (%llu nodes, %lld groups)",
                 (unsigned long long)nodes, s * h + 1);
}

const struct topo_ops topo_megafly_ops = {
    .name = "megafly",
    .kind = TOPO_MEGAFLY,
    .build = megafly_build,
    .size = megafly_size,
    .link = graph_link,
    .link_class = graph_link_class,
    .distance = graph_distance,
    .diameter = graph_diameter,
    .uniform_bound = graph_uniform_bound,
    .min_ports = graph_min_ports,
    .describe = megafly_describe,
};
