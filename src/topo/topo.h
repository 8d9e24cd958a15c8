/* Topologies: routers, their network ports, and where nodes attach.
 *
 * A topology is a module (one file in src/topo/) defining a struct
 * topo_ops, named in topo.c's registry; the engine sees only struct topo
 * and these functions. Routings declare the topologies they route
 * (route.h).
 *
 * Port numbering (every topology): ports [0, radix) are network ports;
 * ports [radix, radix + conc) are local ports, one per attached node
 * (injection on the input side, ejection on the output side). Node ids
 * are router * conc + j (j: the node's local port less radix) unless the
 * topology has a placement table (node_rt: a file graph with a varying
 * number of nodes per router); a router may have fewer than conc nodes
 * (a fat tree's inner routers have none): its other local ports are
 * unused.
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
 * arrangement (dragonfly.c).
 *
 * The others (fattree.c, hyperx.c, slimfly.c, file.c, megafly.c) describe their
 * numbering at the top of their files and keep their links in the
 * adjacency table adj (graph.c). */
#ifndef SATURN_TOPO_H
#define SATURN_TOPO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "saturn/config.h"

#define TOPO_MAX_DIMS 8
#define TOPO_NONE UINT32_MAX

/* In network.topology's order. */
enum topo_kind {
    TOPO_TORUS,
    TOPO_MESH,
    TOPO_DRAGONFLY,
    TOPO_FATTREE,
    TOPO_HYPERX,
    TOPO_FILE,
    TOPO_SLIMFLY,
    TOPO_MEGAFLY,
    TOPO_KINDS
};

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

struct topo;

/* What a configuration will build, from the configuration alone (the
 * memory estimate: nothing is allocated). */
struct topo_size {
    double routers, nodes;
    int radix, conc;
    int global_ports; /* network ports per router in the global link class */
    int words;        /* 32-bit words of topology tables per router */
};

struct topo_ops {
    const char *name;
    enum topo_kind kind;
    /* Reads the topology's section of the configuration (SATURN_EINPUT
     * through saturn_config_fail naming the key) and builds it. */
    int (*build)(struct topo *t, const struct saturn_config *cfg, struct saturn_error *err);
    /* The sizes build would give, without building (a file topology reads
     * its file). SATURN_OK or an error as build's. */
    int (*size)(const struct saturn_config *cfg, struct topo_size *s, struct saturn_error *err);
    /* The link leaving (router, port < radix): far router and input port;
     * false when the port has no link. */
    bool (*link)(const struct topo *t, uint32_t router, int port, uint32_t *far_router,
                 int *far_port);
    /* The class of (router, port)'s link; NULL: every link is local. */
    enum topo_link_class (*link_class)(const struct topo *t, uint32_t router, int port);
    /* Minimal router-to-router hops between two nodes. */
    int (*distance)(const struct topo *t, uint32_t a, uint32_t b);
    int (*diameter)(const struct topo *t);
    /* Channel-load bound on throughput under uniform random traffic
     * (flits/node/cycle), destinations uniform over the other nodes. */
    double (*uniform_bound)(const struct topo *t);
    /* The minimal next-hop ports of router r towards router dst (none
     * when r == dst), at most TOPO_MAX_MIN; returns how many. */
    int (*min_ports)(const struct topo *t, uint32_t r, uint32_t dst, int *ports);
    /* Its shape for the summary lines, from the configuration: "8x8",
     * "p=2 a=4 h=2" and, when nodes > 0, " (72 nodes, palmtree)". */
    void (*describe)(const struct saturn_config *cfg, uint64_t nodes, char *buf, size_t size);
    void (*free)(struct topo *t);
};

#define TOPO_MAX_MIN 64

struct topo {
    enum topo_kind kind;
    const char *name;
    const struct topo_ops *ops;
    uint32_t routers, nodes;
    int radix; /* network ports per router */
    int conc;  /* local ports per router (nodes on the busiest router) */
    /* Node placement (NULL: node = router * conc + j, for node < nodes):
     * node -> router and local index; router r's nodes are rt_nodes[
     * rt_node0[r] .. rt_node0[r + 1] - 1] (routers + 1 offsets). */
    uint32_t *node_rt;
    uint8_t *node_lp;
    uint32_t *rt_node0, *rt_nodes;
    /* Per-link latency (routers * radix cycles, 0: the class's), or NULL;
     * the largest. Credits take a link's own latency back. */
    uint16_t *port_lat;
    uint32_t max_latency;
    /* VCs and flits per input VC of links of the global class (0: as the
     * local ones); the Dragonfly's come from dragonfly.* instead. */
    int global_vcs;
    uint32_t global_buf;
    /* k-ary n-cube; a HyperX's dimensions too */
    int n;
    int k[TOPO_MAX_DIMS];
    uint32_t stride[TOPO_MAX_DIMS];
    int32_t *coord;    /* routers * n coordinates, so routing divides nothing */
    /* Dragonfly */
    int p, a, h;
    /* topo_div's multipliers for a, p, h and p a (routing divides by them at every head) */
    uint64_t div_a, div_p, div_h, div_pa;
    uint32_t groups;
    enum topo_arrangement arrangement;
    /* Adjacency-table topologies (graph.c): fat tree, HyperX, Slim Fly, file */
    uint32_t *adj;      /* routers * radix far routers, TOPO_NONE where no link */
    uint8_t *adj_port;  /* routers * radix far input ports */
    uint8_t *adj_cls;   /* routers * radix link classes, or NULL: all local */
    uint8_t *dist;      /* routers * routers hop counts, or NULL: computed */
    int diam;           /* the diameter, with dist */
    /* Fat tree: k-ary n-tree, ft_pow[l] = k^l */
    int ft_k, ft_n;
    uint32_t ft_pow[TOPO_MAX_DIMS + 1];
    /* HyperX: n dimensions of k[d] routers, mult[d] parallel links per
     * pair, port_base[d] the first port of dimension d */
    int mult[TOPO_MAX_DIMS];
    int port_base[TOPO_MAX_DIMS];
    /* Slim Fly: router (s, a, b) is s q^2 + a q + b */
    int sf_q;
    /* Megafly: spines per group (leaves a, nodes per leaf p, global links
     * per spine h and groups in the Dragonfly's fields) */
    int mf_s;
};

int topo_build(struct topo *t, const struct saturn_config *cfg,
               struct saturn_error *err);
/* The sizes the configuration's topology will have (topo_ops.size). */
int topo_size(const struct saturn_config *cfg, struct topo_size *s, struct saturn_error *err);
/* Builds the topology straight from its numbers (tests, tools). */
int topo_build_dragonfly(struct topo *t, int p, int a, int h, enum topo_arrangement arr);
void topo_free(struct topo *t);
/* The registered topology of that kind, or by name (NULL: none). */
const struct topo_ops *topo_ops_of(enum topo_kind kind);

/* The link leaving (router, port): fills the far router and its input
 * port; false if the port has no link. */
bool topo_link(const struct topo *t, uint32_t router, int port,
               uint32_t *far_router, int *far_port);
enum topo_link_class topo_link_class(const struct topo *t, uint32_t router, int port);

static inline uint32_t topo_node_router(const struct topo *t, uint32_t node)
{
    return t->node_rt ? t->node_rt[node] : node / (uint32_t)t->conc;
}
static inline int topo_node_port(const struct topo *t, uint32_t node)
{
    return t->radix + (t->node_rt ? (int)t->node_lp[node] : (int)(node % (uint32_t)t->conc));
}
/* The node on local port radix + j of router r, or TOPO_NONE. */
static inline uint32_t topo_port_node(const struct topo *t, uint32_t r, int j)
{
    if (t->rt_node0)
        return t->rt_node0[r] + (uint32_t)j < t->rt_node0[r + 1]
                   ? t->rt_nodes[t->rt_node0[r] + (uint32_t)j]
                   : TOPO_NONE;
    uint64_t node = (uint64_t)r * (uint32_t)t->conc + (uint32_t)j;
    return node < t->nodes ? (uint32_t)node : TOPO_NONE;
}
/* How many nodes router r has (they are topo_port_node(t, r, 0 ..)). */
static inline uint32_t topo_router_nodes(const struct topo *t, uint32_t r)
{
    if (t->rt_node0)
        return t->rt_node0[r + 1] - t->rt_node0[r];
    uint64_t first = (uint64_t)r * (uint32_t)t->conc;
    return first >= t->nodes ? 0
                             : (uint32_t)(t->nodes - first < (uint64_t)t->conc ? t->nodes - first
                                                                               : (uint64_t)t->conc);
}

static inline enum topo_link_class topo_port_class(const struct topo *t, int port)
{
    return t->kind == TOPO_DRAGONFLY && port >= t->a - 1 ? TOPO_GLOBAL : TOPO_LOCAL;
}

/* x / d for x < 2^31 (a Dragonfly's router, node and link numbers: at most
 * 2^30 nodes) and 0 < d < 2^31, by a multiplication instead of a division
 * (tens of cycles of latency, at every routing of a head): with m =
 * topo_div_magic(d) = ceil(2^62 / d) = (2^62 + e) / d, 0 <= e < d, x m / 2^62
 * = x / d + x e / (d 2^62), and x e / 2^62 < 1 with x mod d <= d - 1 keeps
 * the floor at x / d. */
static inline uint64_t topo_div_magic(uint32_t d)
{
    return ((UINT64_C(1) << 62) + d - 1) / d;
}
static inline uint32_t topo_div(uint32_t x, uint64_t m)
{
    return (uint32_t)(((__uint128_t)x * m) >> 62);
}

/* Dragonfly helpers. */
static inline uint32_t df_group(const struct topo *t, uint32_t router)
{
    return topo_div(router, t->div_a);
}
static inline int df_index(const struct topo *t, uint32_t router)
{
    return (int)(router - df_group(t, router) * (uint32_t)t->a);
}
/* The router node (< t->nodes) attaches to, and its group. */
static inline uint32_t df_node_router(const struct topo *t, uint32_t node)
{
    return t->node_rt ? t->node_rt[node] : topo_div(node, t->div_p);
}
static inline uint32_t df_node_group(const struct topo *t, uint32_t node)
{
    return t->node_rt ? df_group(t, t->node_rt[node]) : topo_div(node, t->div_pa);
}
/* topo_port_class(t, port) == TOPO_GLOBAL on a Dragonfly (a node port too),
 * without testing the kind. */
static inline bool df_port_global(const struct topo *t, int port)
{
    return port >= t->a - 1;
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
    if (t->arrangement == TOPO_PALMTREE) { /* (target - g - 1) mod G, target and g < G */
        const uint32_t x = target + t->groups - g - 1;
        return x >= t->groups ? x - t->groups : x;
    }
    return target < g ? target : target - 1;
}
/* The group global link k of group g reaches. */
static inline uint32_t df_link_group(const struct topo *t, uint32_t g, uint32_t k)
{
    if (t->arrangement == TOPO_PALMTREE) { /* (g + k + 1) mod G, g < G, k < G - 1 */
        const uint32_t x = g + k + 1;
        return x >= t->groups ? x - t->groups : x;
    }
    return k < g ? k : k + 1;
}

static inline int topo_coord(const struct topo *t, uint32_t id, int d)
{
    return t->coord[(size_t)id * (size_t)t->n + (size_t)d];
}
/* HyperX: the port of a router at coordinate c of dimension d to the
 * router at coordinate x != c, parallel link m. */
static inline int hyperx_port(const struct topo *t, int d, int c, int x, int m)
{
    return t->port_base[d] + (x < c ? x : x - 1) * t->mult[d] + m;
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
/* Minimal next-hop ports from router r towards router dst (ALO's useful
 * channels); at most TOPO_MAX_MIN. */
int topo_min_ports(const struct topo *t, uint32_t r, uint32_t dst, int *ports);
/* Side-band hops of an all-to-all sum over a network of this shape (the
 * global-sum controllers' gather period): the diameter (at least 1), but 3
 * on a Dragonfly (local, global, local, whatever its size) and on a
 * Megafly (up, global, down: between leaves; spines are farther apart). */
int topo_sideband_hops(const struct topo *t);

extern const struct saturn_param topo_params[];

#endif
