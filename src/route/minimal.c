/* Minimal output ports on k-ary n-cubes and meshes: shared by the
 * adaptive routing policies and by injection controllers that look at the
 * "useful" channels of a packet (ALO). */
#include "net/net.h"
#include "route/route.h"

int route_minimal_ports(const struct net *n, uint32_t r, uint32_t dst, int *ports)
{
    return topo_min_ports(&n->topo, r, dst, ports);
}

void route_minimal_adaptive(const struct net *n, uint32_t r, const struct packet *p, int vc_lo,
                            int vc_hi, struct route_result *out)
{
    const struct topo *t = &n->topo;
    uint32_t dst = topo_node_router(t, p->dst);
    if (r == dst) {
        out->n = 1;
        out->sel = 0;
        out->c[0] = (struct route_cand){(uint16_t)topo_node_port(t, p->dst), 0,
                                        (uint8_t)(n->Vd - 1)};
        return;
    }
    int ports[TOPO_MAX_MIN];
    int np = route_minimal_ports(n, r, dst, ports);
    for (int i = 0; i < np; i++)
        out->c[i] = (struct route_cand){(uint16_t)ports[i], (uint8_t)vc_lo, (uint8_t)vc_hi};
    out->n = np;
    out->sel = np;
}

void route_vc_class(int classes, int V, int c, int *lo, int *hi)
{
    int base = V / classes, extra = V % classes;
    *lo = c * base + (c < extra ? c : extra);
    *hi = *lo + base + (c < extra ? 1 : 0) - 1;
}
