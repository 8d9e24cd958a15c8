/* Canonical Dragonfly (Kim, Dally, Scott, Abts 2008): p nodes per router,
 * a routers per group on a complete graph, h global links per router, and
 * G = a h + 1 groups on a complete graph, one global link per pair of
 * groups (port numbering and arrangements in topo.h). */
#include <stdio.h>

#include "topo/topo_internal.h"

int topo_build_dragonfly(struct topo *t, int p, int a, int h, enum topo_arrangement arr)
{
    t->ops = &topo_dragonfly_ops;
    t->kind = TOPO_DRAGONFLY;
    t->name = "dragonfly";
    t->p = p;
    t->a = a;
    t->h = h;
    t->arrangement = arr;
    t->groups = (uint32_t)a * (uint32_t)h + 1;
    t->routers = t->groups * (uint32_t)a;
    t->nodes = t->routers * (uint32_t)p;
    t->radix = a - 1 + h;
    t->conc = p;
    t->div_a = topo_div_magic((uint32_t)a);
    t->div_p = topo_div_magic((uint32_t)p);
    t->div_h = topo_div_magic((uint32_t)h);
    t->div_pa = topo_div_magic((uint32_t)(p * a));
    return SATURN_OK;
}

static int dragonfly_build(struct topo *t, const struct saturn_config *cfg, struct saturn_error *err)
{
    int p = (int)saturn_config_int(cfg, "dragonfly.p");
    int a = (int)saturn_config_int(cfg, "dragonfly.a");
    int h = (int)saturn_config_int(cfg, "dragonfly.h");
    if (a - 1 + h + p > 64)
        return saturn_config_fail(cfg, "dragonfly.a", err,
                                  "a router has (a - 1) + h + p = %d ports; saturn's routers "
                                  "have at most 64 (p = %d, a = %d, h = %d)",
                                  a - 1 + h + p, p, a, h);
    uint64_t nodes = ((uint64_t)a * (uint64_t)h + 1) * (uint64_t)a * (uint64_t)p;
    if (nodes > (1ULL << 30))
        return saturn_config_fail(cfg, "dragonfly.h", err,
                                  "network too large (%llu nodes, more than 2^30)",
                                  (unsigned long long)nodes);
    return topo_build_dragonfly(t, p, a, h,
                                (enum topo_arrangement)saturn_config_enum(cfg, "dragonfly.arrangement"));
}

static bool dragonfly_link(const struct topo *t, uint32_t router, int port,
                           uint32_t *far_router, int *far_port)
{
    uint32_t g = df_group(t, router);
    int i = df_index(t, router);
    if (port < t->a - 1) {
        int j = df_local_peer(i, port);
        *far_router = g * (uint32_t)t->a + (uint32_t)j;
        *far_port = df_local_port(j, i);
        return true;
    }
    uint32_t k = (uint32_t)i * (uint32_t)t->h + (uint32_t)(port - (t->a - 1));
    uint32_t tg = df_link_group(t, g, k);
    uint32_t back = df_link_to(t, tg, g);
    *far_router = tg * (uint32_t)t->a + back / (uint32_t)t->h;
    *far_port = t->a - 1 + (int)(back % (uint32_t)t->h);
    return true;
}

static int dragonfly_distance(const struct topo *t, uint32_t a, uint32_t b)
{
    uint32_t ra = topo_node_router(t, a), rb = topo_node_router(t, b);
    if (ra == rb)
        return 0;
    uint32_t ga = df_group(t, ra), gb = df_group(t, rb);
    if (ga == gb)
        return 1;
    uint32_t out = df_link_to(t, ga, gb), in = df_link_to(t, gb, ga);
    return 1 + (df_index(t, ra) != (int)(out / (uint32_t)t->h)) +
           (df_index(t, rb) != (int)(in / (uint32_t)t->h));
}

/* Busiest channels under uniform traffic and minimal routing, per unit of
 * load (flits/node/cycle), N nodes: a global link carries everything from
 * its group's a p nodes to the other group's a p nodes, (a p)^2 / (N - 1);
 * a local link x -> y carries x's nodes to y's nodes, x's nodes to the h
 * groups y links to, and the h groups x links to into y's nodes:
 * p (p + 2 h a p) / (N - 1). */
static double dragonfly_uniform_bound(const struct topo *t)
{
    double n1 = (double)t->nodes - 1, ap = (double)t->a * t->p;
    if (n1 <= 0)
        return 1.0;
    double global = t->groups > 1 ? ap * ap / n1 : 0;
    double local = t->a > 1 ? t->p * (t->p + 2.0 * t->h * ap) / n1 : 0;
    double worst = global > local ? global : local;
    return worst > 0 ? 1.0 / worst : 1.0;
}

/* l-g-l; one group: l; one router: 0 */
static int dragonfly_diameter(const struct topo *t)
{
    return t->groups > 1 ? (t->a > 1 ? 3 : 1) : (t->a > 1 ? 1 : 0);
}

/* The minimal next hop: the local port to dst in its group; else the
 * global link to dst's group when this router owns it, or the local port
 * to the router of the group that does. */
static int dragonfly_min_ports(const struct topo *t, uint32_t r, uint32_t dst, int *ports)
{
    uint32_t g = df_group(t, r), gd = df_group(t, dst);
    int i = df_index(t, r);
    if (g == gd) {
        ports[0] = df_local_port(i, df_index(t, dst));
        return 1;
    }
    uint32_t k = df_link_to(t, g, gd);
    int owner = (int)(k / (uint32_t)t->h);
    ports[0] = owner == i ? t->a - 1 + (int)(k % (uint32_t)t->h) : df_local_port(i, owner);
    return 1;
}

static enum topo_link_class dragonfly_class(const struct topo *t, uint32_t router, int port)
{
    return topo_port_class(t, port);
}

static int dragonfly_size(const struct saturn_config *cfg, struct topo_size *s,
                          struct saturn_error *err)
{
    double p = (double)saturn_config_int(cfg, "dragonfly.p");
    double a = (double)saturn_config_int(cfg, "dragonfly.a");
    double h = (double)saturn_config_int(cfg, "dragonfly.h");
    s->routers = a * (a * h + 1);
    s->nodes = s->routers * p;
    s->radix = (int)(a - 1 + h);
    s->conc = (int)p;
    s->global_ports = (int)h;
    s->words = 1;
    return SATURN_OK;
}

static void dragonfly_describe(const struct saturn_config *cfg, uint64_t nodes, char *buf,
                               size_t size)
{
    int at = snprintf(buf, size, "p=%lld a=%lld h=%lld",
                      (long long)saturn_config_int(cfg, "dragonfly.p"),
                      (long long)saturn_config_int(cfg, "dragonfly.a"),
                      (long long)saturn_config_int(cfg, "dragonfly.h"));
    if (nodes && at > 0 && (size_t)at < size)
        snprintf(buf + at, size - (size_t)at, " (%llu nodes, %s)", (unsigned long long)nodes,
                 saturn_config_str(cfg, "dragonfly.arrangement"));
}

const struct topo_ops topo_dragonfly_ops = {
    .name = "dragonfly",
    .kind = TOPO_DRAGONFLY,
    .build = dragonfly_build,
    .size = dragonfly_size,
    .link = dragonfly_link,
    .link_class = dragonfly_class,
    .distance = dragonfly_distance,
    .diameter = dragonfly_diameter,
    .uniform_bound = dragonfly_uniform_bound,
    .min_ports = dragonfly_min_ports,
    .describe = dragonfly_describe,
};
