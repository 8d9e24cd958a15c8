/* What the adjacency-table topologies share (fat tree, HyperX, Slim Fly,
 * file): the table itself, breadth-first distances, minimal ports from
 * the distances, and the uniform channel-load bound of minimal routing
 * that splits evenly over the minimal next hops. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "topo/topo_internal.h"

int graph_alloc(struct topo *t)
{
    size_t n = (size_t)t->routers * (size_t)t->radix;
    t->adj = malloc(n * sizeof *t->adj);
    t->adj_port = calloc(n, 1);
    if (!t->adj || !t->adj_port)
        return SATURN_ENOMEM;
    for (size_t i = 0; i < n; i++)
        t->adj[i] = TOPO_NONE;
    return SATURN_OK;
}

void graph_connect(struct topo *t, uint32_t a, int pa, uint32_t b, int pb)
{
    size_t ia = (size_t)a * (size_t)t->radix + (size_t)pa;
    size_t ib = (size_t)b * (size_t)t->radix + (size_t)pb;
    t->adj[ia] = b;
    t->adj_port[ia] = (uint8_t)pb;
    t->adj[ib] = a;
    t->adj_port[ib] = (uint8_t)pa;
}

bool graph_link(const struct topo *t, uint32_t router, int port, uint32_t *far_router,
                int *far_port)
{
    size_t i = (size_t)router * (size_t)t->radix + (size_t)port;
    if (t->adj[i] == TOPO_NONE)
        return false;
    *far_router = t->adj[i];
    *far_port = t->adj_port[i];
    return true;
}

enum topo_link_class graph_link_class(const struct topo *t, uint32_t router, int port)
{
    return t->adj_cls ? (enum topo_link_class)t->adj_cls[(size_t)router * (size_t)t->radix +
                                                          (size_t)port]
                      : TOPO_LOCAL;
}

/* Breadth-first search from every router. */
int graph_bfs(struct topo *t, uint32_t *from, uint32_t *to)
{
    const size_t R = t->routers;
    t->dist = malloc(R * R);
    uint32_t *queue = malloc(R * sizeof *queue);
    if (!t->dist || !queue) {
        free(queue);
        return SATURN_ENOMEM;
    }
    memset(t->dist, 0xff, R * R);
    t->diam = 0;
    for (uint32_t s = 0; s < R; s++) {
        uint8_t *d = t->dist + (size_t)s * R;
        size_t head = 0, tail = 0;
        d[s] = 0;
        queue[tail++] = s;
        while (head < tail) {
            uint32_t r = queue[head++];
            for (int p = 0; p < t->radix; p++) {
                uint32_t f = t->adj[(size_t)r * (size_t)t->radix + (size_t)p];
                if (f == TOPO_NONE || d[f] != 0xff)
                    continue;
                if (d[r] + 1 >= 0xff) { /* a path of 255 hops: no table for that */
                    free(queue);
                    *from = s;
                    *to = TOPO_NONE;
                    return SATURN_EINPUT;
                }
                d[f] = (uint8_t)(d[r] + 1);
                if (d[f] > t->diam)
                    t->diam = d[f];
                queue[tail++] = f;
            }
        }
        if (tail < R) {
            for (uint32_t r = 0; r < R; r++)
                if (d[r] == 0xff) {
                    *from = s;
                    *to = r;
                    break;
                }
            free(queue);
            return SATURN_EINPUT;
        }
    }
    free(queue);
    return SATURN_OK;
}

int graph_distance(const struct topo *t, uint32_t a, uint32_t b)
{
    return graph_router_hops(t, topo_node_router(t, a), topo_node_router(t, b));
}

int graph_diameter(const struct topo *t) { return t->diam; }

int graph_min_ports(const struct topo *t, uint32_t r, uint32_t dst, int *ports)
{
    int np = 0, want = graph_router_hops(t, r, dst) - 1;
    for (int p = 0; p < t->radix && np < TOPO_MAX_MIN; p++) {
        uint32_t f = t->adj[(size_t)r * (size_t)t->radix + (size_t)p];
        if (f != TOPO_NONE && graph_router_hops(t, f, dst) == want)
            ports[np++] = p;
    }
    return np;
}

/* Uniform traffic (every node to each other node at 1/(N-1) flits per
 * cycle), each router splitting what it forwards to a destination evenly
 * over its minimal next hops: the busiest link's load, per unit of load.
 * Destination by destination, routers from the farthest in. */
double graph_uniform_bound(const struct topo *t)
{
    const uint32_t R = t->routers;
    if (t->nodes < 2)
        return INFINITY;
    double *load = calloc((size_t)R * (size_t)t->radix, sizeof *load);
    double *flow = malloc(R * sizeof *flow);
    uint32_t *order = malloc(R * sizeof *order);
    if (!load || !flow || !order) {
        free(load);
        free(flow);
        free(order);
        return 0;
    }
    const double unit = 1.0 / ((double)t->nodes - 1);
    for (uint32_t d = 0; d < R; d++) {
        uint32_t nd = topo_router_nodes(t, d), no = 0;
        if (!nd)
            continue;
        for (uint32_t r = 0; r < R; r++) {
            uint32_t ns = topo_router_nodes(t, r);
            flow[r] = r == d ? 0 : (double)ns * nd * unit;
            order[no++] = r;
        }
        /* farthest first: a router's inflow is complete before it splits */
        for (int h = 0, lo = 0; h <= t->diam; h++)
            for (uint32_t i = (uint32_t)lo; i < no; i++)
                if (graph_router_hops(t, order[i], d) == t->diam - h) {
                    uint32_t x = order[i];
                    order[i] = order[lo];
                    order[lo++] = x;
                }
        for (uint32_t i = 0; i < no; i++) {
            uint32_t r = order[i];
            if (r == d || flow[r] == 0)
                continue;
            int ports[TOPO_MAX_MIN], np = graph_min_ports(t, r, d, ports);
            for (int j = 0; j < np; j++) {
                size_t gp = (size_t)r * (size_t)t->radix + (size_t)ports[j];
                load[gp] += flow[r] / np;
                flow[t->adj[gp]] += flow[r] / np;
            }
        }
    }
    double worst = 0;
    for (size_t i = 0; i < (size_t)R * (size_t)t->radix; i++)
        if (load[i] > worst)
            worst = load[i];
    free(load);
    free(flow);
    free(order);
    return worst > 0 ? 1.0 / worst : INFINITY;
}
