/* Table-driven minimal adaptive routing (Levitin & Rykalova, paper 002,
 * section 2.2). A port is minimal when the neighbour it leads to is one hop
 * closer to the destination (the paper's static table of minimum path
 * lengths; on a torus both ways round are minimal at distance exactly k/2).
 * The header takes the lowest-numbered minimal port that is free, else it
 * waits in the output buffer of the highest-numbered minimal port. A port
 * is free when no packet is on its link, in its output buffers, or being
 * granted one of its output VCs. The rule is applied when the header
 * reaches the front of its input VC; the routing delay follows. Headers
 * sent to the same output in the same cycle leave in packet-id order when
 * router.output_order = packet. Without unbounded buffers this routing can
 * deadlock (no escape channel), so it requires them. */
#include <stdlib.h>

#include "net/net.h"
#include "route/route.h"

static bool port_free(const struct net *n, uint32_t router, int port)
{
    size_t gp = (size_t)router * n->P + (size_t)port;
    const struct port *pt = &n->ports[gp];
    if (pt->ob_nonempty || n->prare[gp].link_hold >= 0)
        return false;
    for (int v = 0; v < n->Vd; v++)
        if (n->ovcs[gp * n->V + v].owner >= 0)
            return false;
    return true;
}

static void table_min_route(void *state, const struct net *n, uint32_t router, int in_port,
                            int in_vc, struct packet *p, struct route_result *out)
{
    const struct topo *t = &n->topo;
    uint32_t dst = topo_node_router(t, p->dst);
    out->n = 1;
    int port;
    if (router == dst) {
        port = topo_node_port(t, p->dst);
    } else {
        int ports[TOPO_MAX_MIN], np = route_minimal_ports(n, router, dst, ports);
        port = ports[np - 1];
        for (int i = 0; i < np; i++)
            if (port_free(n, router, ports[i])) {
                port = ports[i];
                break;
            }
    }
    out->c[0] = (struct route_cand){(uint16_t)port, 0, (uint8_t)(n->Vd - 1)};
}

static int table_min_init(void **state, const struct saturn_config *cfg, const struct net *n,
                          struct saturn_error *err)
{
    *state = NULL;
    if (!n->obuf_unlimited && n->buf_cap != 0 && !saturn_config_bool(cfg, "debug.allow_deadlock"))
        return saturn_config_fail(cfg, "routing.algorithm", err,
                                  "minimal adaptive routing without an escape channel can "
                                  "deadlock unless buffers are unbounded: set "
                                  "router.out_buf_unlimited = true or router.buf_flits = 0");
    return SATURN_OK;
}

const struct route_ops route_table_min = {
    .name = "table_min",
    .init = table_min_init,
    .route = table_min_route,
};
