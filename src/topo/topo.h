/* Topologies: routers, their network ports, and where nodes attach.
 *
 * Port numbering (every topology): ports [0, radix) are network ports;
 * ports [radix, radix + conc) are local ports, one per attached node
 * (injection on the input side, ejection on the output side).
 *
 * k-ary n-cube (torus) and mesh: one node per router, node id == router id;
 * id = sum_d c_d * stride_d with dimension 0 (x) the least significant.
 * Port 2d goes in the + direction of dimension d, port 2d+1 in the -
 * direction; the local port is 2n. A mesh edge port has no link.
 *
 * Dragonfly (p nodes per router, a routers per group, h global links per
 * router, G = a h + 1 groups, complete graphs inside and between groups):
 * router id = group * a + i (i: index in the group), node id = router * p +
 * j. Ports [0, a - 1) are local links, port q to the router of index
 * q < i ? q : q + 1 of the same group; ports [a - 1, a - 1 + h) are global
 * links, port a - 1 + j being the group's global link number k = i h + j;
 * then the p node ports. Where global link k of group g goes is the
 * arrangement (dragonfly.c). */
#ifndef SATURN_TOPO_H
#define SATURN_TOPO_H

#include <stdbool.h>
#include <stdint.h>

#include "saturn/config.h"

#define TOPO_MAX_DIMS 8

enum topo_kind { TOPO_TORUS, TOPO_MESH, TOPO_DRAGONFLY };

/* Link classes: every torus/mesh link is local; a Dragonfly has local
 * (intra-group) and global (inter-group) links, each class with its own
 * latency, input buffers and VCs. */
enum topo_link_class { TOPO_LOCAL, TOPO_GLOBAL };

/* Dragonfly global-link arrangements. palmtree: link k of group g goes to
 * group g + k + 1 (mod G), arriving as its link a h - 1 - k (Camarero,
 * Vallejo, Beivide 2014). consecutive: link k of group g goes to group
 * k < g ? k : k + 1, arriving as its link g' < g ? g - 1 : g (Kim et al.
 * 2008's absolute arrangement). */
enum topo_arrangement { TOPO_PALMTREE, TOPO_CONSECUTIVE };

struct topo {
    enum topo_kind kind;
    const char *name;
    uint32_t routers, nodes;
    int radix; /* network ports per router */
    int conc;  /* nodes per router */
    /* k-ary n-cube */
    int n;
    int k[TOPO_MAX_DIMS];
    uint32_t stride[TOPO_MAX_DIMS];
    int32_t *coord;    /* routers * n coordinates, so routing divides nothing */
    /* Dragonfly */
    int p, a, h;
    uint32_t groups;
    enum topo_arrangement arrangement;
};

int topo_build(struct topo *t, const struct saturn_config *cfg,
               struct saturn_error *err);
/* Builds the topology straight from its numbers (tests, tools). */
int topo_build_dragonfly(struct topo *t, int p, int a, int h, enum topo_arrangement arr);
void topo_free(struct topo *t);

/* The link leaving (router, port): fills the far router and its input
 * port; false if the port has no link. */
bool topo_link(const struct topo *t, uint32_t router, int port,
               uint32_t *far_router, int *far_port);

static inline uint32_t topo_node_router(const struct topo *t, uint32_t node)
{
    return node / (uint32_t)t->conc;
}
static inline int topo_node_port(const struct topo *t, uint32_t node)
{
    return t->radix + (int)(node % (uint32_t)t->conc);
}

static inline enum topo_link_class topo_port_class(const struct topo *t, int port)
{
    return t->kind == TOPO_DRAGONFLY && port >= t->a - 1 ? TOPO_GLOBAL : TOPO_LOCAL;
}

/* Dragonfly helpers. */
static inline uint32_t df_group(const struct topo *t, uint32_t router)
{
    return router / (uint32_t)t->a;
}
static inline int df_index(const struct topo *t, uint32_t router)
{
    return (int)(router % (uint32_t)t->a);
}
/* The local port of router index i towards router index j (i != j). */
static inline int df_local_port(int i, int j)
{
    return j < i ? j : j - 1;
}
/* The router index a local port of router index i reaches. */
static inline int df_local_peer(int i, int port)
{
    return port < i ? port : port + 1;
}
/* The global link number (0 .. a h - 1) of group g that reaches group t != g. */
static inline uint32_t df_link_to(const struct topo *t, uint32_t g, uint32_t target)
{
    if (t->arrangement == TOPO_PALMTREE)
        return (target + 2 * t->groups - g - 1) % t->groups;
    return target < g ? target : target - 1;
}
/* The group global link k of group g reaches. */
static inline uint32_t df_link_group(const struct topo *t, uint32_t g, uint32_t k)
{
    if (t->arrangement == TOPO_PALMTREE)
        return (g + k + 1) % t->groups;
    return k < g ? k : k + 1;
}

static inline int topo_coord(const struct topo *t, uint32_t id, int d)
{
    return t->coord[(size_t)id * (size_t)t->n + (size_t)d];
}
void topo_coords(const struct topo *t, uint32_t id, int *c);
uint32_t topo_id(const struct topo *t, const int *c);
/* Minimal router-to-router hop count between two nodes (Dragonfly: of the
 * hierarchical minimal path, l-g-l; a detour over two global links can be
 * shorter, and no routing here takes it). */
int topo_distance(const struct topo *t, uint32_t a, uint32_t b);
int topo_diameter(const struct topo *t);
/* Channel-load bound on throughput under uniform random traffic
 * (flits/node/cycle), with destinations uniform over all nodes. */
double topo_uniform_bound(const struct topo *t);

extern const struct saturn_param topo_params[];

#endif
