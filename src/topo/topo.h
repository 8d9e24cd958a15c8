/* Topologies: routers, their network ports, and where nodes attach.
 *
 * Port numbering (every topology): ports [0, radix) are network ports;
 * ports [radix, radix + conc) are local ports, one per attached node
 * (injection on the input side, ejection on the output side).
 *
 * k-ary n-cube (torus) and mesh: one node per router, node id == router id;
 * id = sum_d c_d * stride_d with dimension 0 (x) the least significant.
 * Port 2d goes in the + direction of dimension d, port 2d+1 in the -
 * direction; the local port is 2n. A mesh edge port has no link. */
#ifndef SATURN_TOPO_H
#define SATURN_TOPO_H

#include <stdbool.h>
#include <stdint.h>

#include "saturn/config.h"

#define TOPO_MAX_DIMS 8

enum topo_kind { TOPO_TORUS, TOPO_MESH };

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
};

int topo_build(struct topo *t, const struct saturn_config *cfg,
               struct saturn_error *err);
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

static inline int topo_coord(const struct topo *t, uint32_t id, int d)
{
    return t->coord[(size_t)id * (size_t)t->n + (size_t)d];
}
void topo_coords(const struct topo *t, uint32_t id, int *c);
uint32_t topo_id(const struct topo *t, const int *c);
/* Minimal hop count between two nodes. */
int topo_distance(const struct topo *t, uint32_t a, uint32_t b);
int topo_diameter(const struct topo *t);
/* Channel-load bound on throughput under uniform random traffic
 * (flits/node/cycle), with destinations uniform over all nodes. */
double topo_uniform_bound(const struct topo *t);

extern const struct saturn_param topo_params[];

#endif
