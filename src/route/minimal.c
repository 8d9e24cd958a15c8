/* Minimal output ports on k-ary n-cubes and meshes: shared by the
 * adaptive routing policies and by injection controllers that look at the
 * "useful" channels of a packet (ALO). */
#include "net/net.h"
#include "route/dragonfly.h" /* df_occupancy */
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

void route_adaptive_span(const struct net *n, uint32_t r, int first, int count, int vc_lo,
                         int vc_hi, struct route_result *out)
{
    int ports[ROUTE_MAX_CANDS], np = 0;
    if (count <= ROUTE_MAX_CANDS) {
        for (int j = 0; j < count; j++)
            ports[np++] = first + j;
    } else { /* the least occupied, by insertion into a sorted list */
        uint32_t occ[ROUTE_MAX_CANDS];
        for (int j = first; j < first + count; j++) {
            uint32_t o = df_occupancy(n, r, j, vc_lo, vc_hi);
            if (np == ROUTE_MAX_CANDS && o >= occ[np - 1])
                continue;
            int i = np < ROUTE_MAX_CANDS ? np++ : np - 1;
            for (; i > 0 && occ[i - 1] > o; i--) {
                occ[i] = occ[i - 1];
                ports[i] = ports[i - 1];
            }
            occ[i] = o;
            ports[i] = j;
        }
    }
    for (int i = 0; i < np; i++)
        out->c[i] = (struct route_cand){(uint16_t)ports[i], (uint8_t)vc_lo, (uint8_t)vc_hi};
    out->n = np;
    out->sel = np;
}
