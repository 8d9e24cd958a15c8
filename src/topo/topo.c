/* The topology registry, its parameters, and the dispatch to each
 * topology's ops. A new topology is one file defining a struct topo_ops and
 * its parameter table, plus one line in each list below. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "saturn/saturn.h"
#include "topo/topo_internal.h"

/* In enum topo_kind order. */
static const struct topo_ops *const topologies[] = {
    &topo_torus_ops,
    &topo_mesh_ops,
    &topo_dragonfly_ops,
    &topo_fattree_ops,
    &topo_hyperx_ops,
    &topo_file_ops,
    &topo_slimfly_ops,
    &topo_megafly_ops,
};
_Static_assert(sizeof topologies / sizeof topologies[0] == TOPO_KINDS,
               "one ops table per topology kind");

static const char *const topo_names[] = {
    "torus",
    "mesh",
    "dragonfly",
    "fattree",
    "hyperx",
    "file",
    "slimfly",
    "megafly",
    NULL};
static const char *const arrangements[] = {"palmtree", "consecutive", NULL};

const struct saturn_param topo_params[] = {
    {"network.topology", SATURN_PARAM_ENUM, "torus", 0, 0, topo_names,
     "torus (k-ary n-cube with wrap-around links), mesh, dragonfly (canonical: complete "
     "graphs inside and between groups), fattree (k-ary n-tree: fattree.*), hyperx (complete "
     "graphs in every dimension: hyperx.*), file (any graph from file.path), slimfly (MMS "
     "graph of diameter 2: slimfly.*), megafly (Dragonfly+: groups of leaf and spine routers, "
     "megafly.*)"},
    {"network.k", SATURN_PARAM_INTLIST, "8", 2, 1 << 20, NULL,
     "torus/mesh: routers per dimension: one value for all, or one per dimension (x first)"},
    {"network.n", SATURN_PARAM_INT, "2", 1, TOPO_MAX_DIMS, NULL,
     "torus/mesh: number of dimensions"},
    {"dragonfly.p", SATURN_PARAM_INT, "2", 1, 62, NULL, "dragonfly: nodes per router"},
    {"dragonfly.a", SATURN_PARAM_INT, "4", 1, 63, NULL, "dragonfly: routers per group"},
    {"dragonfly.h", SATURN_PARAM_INT, "2", 1, 62, NULL,
     "dragonfly: global links per router (a h + 1 groups)"},
    {"dragonfly.arrangement", SATURN_PARAM_ENUM, "palmtree", 0, 0, arrangements,
     "dragonfly global links: palmtree (link k of group g to group g+k+1) or consecutive "
     "(link k of group g to the k-th other group)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL}};

const struct topo_ops *topo_ops_of(enum topo_kind kind)
{
    return (unsigned)kind < TOPO_KINDS ? topologies[kind] : NULL;
}

/* A topology filled in by hand (tests) has a kind but no ops. */
static inline const struct topo_ops *ops_of(const struct topo *t)
{
    return t->ops ? t->ops : topologies[t->kind];
}

int topo_build(struct topo *t, const struct saturn_config *cfg, struct saturn_error *err)
{
    memset(t, 0, sizeof *t);
    const struct topo_ops *ops = topologies[saturn_config_enum(cfg, "network.topology")];
    t->ops = ops;
    t->kind = ops->kind;
    t->name = ops->name;
    return ops->build(t, cfg, err);
}

int topo_size(const struct saturn_config *cfg, struct topo_size *s, struct saturn_error *err)
{
    memset(s, 0, sizeof *s);
    return topologies[saturn_config_enum(cfg, "network.topology")]->size(cfg, s, err);
}

void topo_free(struct topo *t)
{
    if (t->ops && t->ops->free)
        t->ops->free(t);
    free(t->coord);
    free(t->node_rt);
    free(t->node_lp);
    free(t->rt_node0);
    free(t->rt_nodes);
    free(t->port_lat);
    free(t->adj);
    free(t->adj_port);
    free(t->adj_cls);
    free(t->dist);
    t->adj = NULL;
    t->adj_port = NULL;
    t->adj_cls = NULL;
    t->dist = NULL;
    t->coord = NULL;
    t->node_rt = NULL;
    t->node_lp = NULL;
    t->rt_node0 = NULL;
    t->rt_nodes = NULL;
    t->port_lat = NULL;
}

bool topo_link(const struct topo *t, uint32_t router, int port, uint32_t *far_router,
               int *far_port)
{
    if (port < 0 || port >= t->radix)
        return false;
    return ops_of(t)->link(t, router, port, far_router, far_port);
}

enum topo_link_class topo_link_class(const struct topo *t, uint32_t router, int port)
{
    return ops_of(t)->link_class ? ops_of(t)->link_class(t, router, port) : TOPO_LOCAL;
}

int topo_distance(const struct topo *t, uint32_t a, uint32_t b)
{
    return ops_of(t)->distance(t, a, b);
}

int topo_diameter(const struct topo *t) { return ops_of(t)->diameter(t); }

double topo_uniform_bound(const struct topo *t) { return ops_of(t)->uniform_bound(t); }

int topo_min_ports(const struct topo *t, uint32_t r, uint32_t dst, int *ports)
{
    return ops_of(t)->min_ports && r != dst ? ops_of(t)->min_ports(t, r, dst, ports) : 0;
}

int topo_sideband_hops(const struct topo *t)
{
    if (t->kind == TOPO_DRAGONFLY || t->kind == TOPO_MEGAFLY)
        return 3;
    /* a single router (a 1-level fat tree, a one-router file graph) has
     * diameter 0; its count still takes a hop to the side-band's sum, and
     * a gather period of 0 cycles would divide by zero */
    int d = topo_diameter(t);
    return d > 0 ? d : 1;
}

void saturn_topology_describe(const struct saturn_config *cfg, uint64_t nodes, char *buf,
                              size_t size)
{
    topologies[saturn_config_enum(cfg, "network.topology")]->describe(cfg, nodes, buf, size);
}
