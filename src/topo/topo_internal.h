/* The registered topologies (topo.c's list) and what their files share. */
#ifndef SATURN_TOPO_INTERNAL_H
#define SATURN_TOPO_INTERNAL_H

#include "topo/topo.h"

extern const struct topo_ops topo_torus_ops, topo_mesh_ops, topo_dragonfly_ops,
    topo_fattree_ops, topo_hyperx_ops, topo_file_ops, topo_slimfly_ops, topo_megafly_ops;

/* Adjacency tables (graph.c). graph_alloc: every port unlinked;
 * graph_connect links (a, pa) and (b, pb) both ways. graph_bfs fills dist
 * and diam: SATURN_EINPUT when a router cannot reach another (from, to),
 * or (to = TOPO_NONE) when some shortest path from `from` is longer than
 * 254 hops. */
int graph_alloc(struct topo *t);
void graph_connect(struct topo *t, uint32_t a, int pa, uint32_t b, int pb);
bool graph_link(const struct topo *t, uint32_t router, int port, uint32_t *far_router,
                int *far_port);
enum topo_link_class graph_link_class(const struct topo *t, uint32_t router, int port);
int graph_bfs(struct topo *t, uint32_t *from, uint32_t *to);
static inline int graph_router_hops(const struct topo *t, uint32_t a, uint32_t b)
{
    return t->dist[(size_t)a * t->routers + b];
}
int graph_distance(const struct topo *t, uint32_t a, uint32_t b);
int graph_diameter(const struct topo *t);
int graph_min_ports(const struct topo *t, uint32_t r, uint32_t dst, int *ports);
double graph_uniform_bound(const struct topo *t);

/* GF(q) for q = p^m <= GF_MAX (gf.c): elements 0..q-1, the base-p digits
 * of an element the coefficients of its polynomial; poly the monic
 * irreducible modulus (poly[m] = 1), xi a primitive element. gf_init: 0,
 * -1 when q is not a prime power in [2, GF_MAX], -2 when the search found
 * no primitive element (cannot happen in a field; checked, not assumed). */
#define GF_MAX 64
#define GF_MAX_DEGREE 6
struct gf {
    int p, m, q, xi;
    int poly[GF_MAX_DEGREE + 1];
    uint8_t add[GF_MAX][GF_MAX], mul[GF_MAX][GF_MAX], neg[GF_MAX];
};
int gf_init(struct gf *f, int q);

#endif
