/* Engine hooks: the registry of side machinery (net.h, struct
 * net_hook_ops) and the primitives it moves flits with. The engine calls
 * the hooks from net_step; it knows neither the Disha lane nor the
 * metapackets that use them. */
#include <stdarg.h>
#include <stdio.h>

#include "net/net_internal.h"

int net_hook_add(struct net *n, const struct net_hook_ops *ops, void *state,
                 struct saturn_error *err)
{
    if (n->nhooks == NET_MAX_HOOKS || (ops->side_port && n->side)) {
        ops->destroy(state);
        return saturn_error_set(err, SATURN_EINTERNAL, "cannot attach %s: %s", ops->name,
                                ops->side_port && n->side ? "the side VC is taken"
                                                          : "too many hooks");
    }
    struct net_hook *h = &n->hooks[n->nhooks++];
    *h = (struct net_hook){ops, state};
    if (ops->side_port)
        n->side = h;
    if (ops->node_delivered)
        n->hook_delivered = true;
    return SATURN_OK;
}

void *net_hook_state(const struct net *n, const struct net_hook_ops *ops)
{
    for (int i = 0; i < n->nhooks; i++)
        if (n->hooks[i].ops == ops)
            return n->hooks[i].state;
    return NULL;
}

flit_t net_hook_pop(struct net *n, uint32_t r, int p, int v)
{
    struct ivc *iv = &n->ivcs[((size_t)r * n->P + (size_t)p) * n->V + v];
    flit_t f = net_ivc_pop(n, net_serial_part(n), r, p, v);
    if (n->obuf_on)
        n->rocc[r]--;
    if ((f.flags & FLIT_TAIL) && iv->state == IVC_RECOVER) /* a seized VC: free with its tail */
        iv->state = IVC_IDLE;
    return f;
}

void net_hook_seize(struct net *n, uint32_t r, int p, int v)
{
    const uint32_t gp = r * (uint32_t)n->P + (uint32_t)p;
    struct ivc *iv = &n->ivcs[(size_t)gp * n->V + v];
    if (iv->state == IVC_ACTIVE) { /* give back the VC it never entered */
        n->ovcs[((size_t)r * n->P + iv->out_port) * n->V + iv->out_vc].owner = -1;
        n->ports[gp].active &= ~(1ULL << v);
        n->rwait[r] |= 1ULL << p;
    }
    if (n->va_hp) /* a VC freed, a waiting head taken: no note of the router holds */
        n->va_hp[r] = 0;
    iv->state = IVC_RECOVER;
}

void net_hook_take_link(struct net *n, uint32_t gop, flit_t f, bool hop)
{
    n->prare[gop].stolen = n->now + 1;
    n->last_move = n->now;
    if (hop) {
        n->flit_hops++;
        if (f.flags & FLIT_HEAD)
            n->pk[f.pid].hops++;
    }
}

void net_hook_eject(struct net *n, uint32_t gop, flit_t f, uint32_t delay)
{
    const struct port *op = &n->ports[gop];
    if (delay == 0)
        net_sink_flit(n, op->up, f);
    else
        net_push_event(n, net_serial_part(n), n->now + delay, EV_SINK, net_sink_lane(n, 0), op->up,
                       0, f);
}

bool net_hook_put_side(struct net *n, uint32_t r, flit_t f)
{
    const uint32_t p = (uint32_t)n->topo.radix;
    const uint32_t gp = r * (uint32_t)n->P + p;
    struct ivc *iv = &n->ivcs[(size_t)gp * n->V + n->Vd];
    net_ivc_spill(iv);
    if (iv->count == iv->mask + 1 && !net_ring_grow(&iv->buf, &iv->head, iv->count, &iv->mask)) {
        net_hook_fail(n, "out of memory (side VC)");
        return false;
    }
    iv->buf[(iv->head + iv->count++) & iv->mask] = f;
    n->ports[gp].nonempty |= n->meta_bit;
    n->rports[r] |= 1ULL << p;
    n->rwait[r] |= 1ULL << p;
    if (n->obuf_on)
        n->rocc[r]++;
    n->router_active[r >> 6] |= 1ULL << (r & 63);
    n->meta_in_net++;
    if (n->buf_cap)
        n->inj_credits[(size_t)n->ports[gp].up * n->V + n->Vd]--;
    return true;
}

void net_hook_fail(struct net *n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(n->fail_msg, sizeof n->fail_msg, fmt, ap);
    va_end(ap);
    n->failed = true;
}
