/* Invariants (checked every cycle with sim.check_invariants or in debug
 * builds) and the deadlock watchdog's wait-for report. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/net_internal.h"

static bool audit_fail(struct net *n, const char *msg)
{
    if (!n->failed) {
        snprintf(n->fail_msg, sizeof n->fail_msg, "invariant broken at cycle %llu: %s",
                 (unsigned long long)n->now, msg);
        n->failed = true;
    }
    return false;
}

/* Router r's ports whose output buffers (out) or input VCs hold flits
 * are the mask the router keeps for them (robuf, rports). */
static bool ports_mask_ok(struct net *n, uint32_t r, bool out, uint64_t kept)
{
    uint64_t m = 0;
    for (uint32_t p = 0; p < (uint32_t)n->P; p++) {
        const struct port *pt = &n->ports[(size_t)r * n->P + p];
        if (out ? pt->ob_nonempty : pt->nonempty)
            m |= 1ULL << p;
    }
    if (m == kept)
        return true;
    char msg[160];
    snprintf(msg, sizeof msg, "router %u: %s ports holding flits %#llx, %s says %#llx", r,
             out ? "output" : "input", (unsigned long long)m, out ? "robuf" : "rports",
             (unsigned long long)kept);
    return audit_fail(n, msg);
}

/* Flits in buffers and in flight equal injected - ejected (meta flits,
 * VC Vd, apart: they equal the meta counter); for every
 * finite buffer, credits upstream + flits on the way + flits held +
 * credits on the way back equal its capacity. */
/* Input VC iv's run record (struct ivc, run) is one: flits held, only its
 * bits, of a live packet within its length, the tail bit set exactly when
 * the run reaches the packet's last flit. */
static bool run_record_ok(const struct net *n, const struct ivc *iv)
{
    const uint32_t run = iv->run, seq = run & 0xffff;
    if (iv->count == 0 || (run & ~(IVC_RUN | IVC_RUN_TAIL | 0xffffu)) ||
        iv->run_pid >= n->pk_cap || !n->pk[iv->run_pid].alive)
        return false;
    const uint32_t len = n->pk[iv->run_pid].len;
    return seq + iv->count <= len && !!(run & IVC_RUN_TAIL) == (seq + iv->count == len);
}

bool net_audit(struct net *n)
{
    const uint32_t V = (uint32_t)n->V;
    size_t nvc = (size_t)n->topo.routers * n->P * V;
    uint64_t held = 0, meta_held = 0;
    const uint32_t Vd = (uint32_t)n->Vd;
    /* per input VC: flits held or on their way (flow), crossing into output
     * buffers (xbar), listed to arrive (listed); per node and VC: credits on
     * their way back to the node (nodeflow) */
    const size_t nnv = (size_t)n->nnodes * V, scratch = 3 * nvc + nnv;
    if (!n->audit_scratch && !(n->audit_scratch = malloc(scratch * sizeof *n->audit_scratch)))
        return true; /* cannot audit without memory; not a network fault */
    memset(n->audit_scratch, 0, scratch * sizeof *n->audit_scratch);
    int64_t *const flow = n->audit_scratch, *const xbar = flow + nvc, *const listed = xbar + nvc,
                   *const nodeflow = listed + nvc;
    /* A flit sent without an event is not in its VC before it arrives: its
     * entry, listed once in its arrival slot, carries it (net_send_deferred,
     * three words). */
    const uint32_t step = 3;
    const uint32_t nlong = n->wheel_shared ? n->nthreads : 1; /* (struct net_part, arrive_by) */
    for (size_t b = 0; b < (size_t)n->slots * n->nparts * nlong; b++) {
        const struct creditq *q =
            &n->parts[b / n->slots / nlong].arrive_by[b / n->slots % nlong][b % n->slots];
        for (uint32_t i = 0; i < q->n; i += step)
            listed[(size_t)(q->i[i] >> 6) * V + (q->i[i] & 63)]++;
    }
    for (size_t i = 0; i < nvc; i++) {
        const uint32_t in = n->ivcs[i].count + (uint32_t)listed[i];
        if (i % V == Vd)
            meta_held += in;
        else
            held += in + n->ovcs[i].ob_count;
        flow[i] += in;
    }
    /* In-flight events from now on (this cycle's bucket is already spent). */
    const size_t queues = (size_t)n->slots * n->nq;
    const size_t wheels = net_wheels(n); /* (blocks: one a thread) */
    for (size_t b = 0; b < queues * wheels; b++) {
        const struct evq *q = &net_wheel_part(n, (uint32_t)(b / queues))->wheel[b % queues];
        for (uint32_t i = 0; i < q->n; i++) {
            const struct event *e = &q->e[i];
            switch (e->kind) {
            case EV_FLIT:
                if (e->vc == Vd)
                    meta_held++;
                else
                    held++;
                flow[(size_t)e->target * V + e->vc]++;
                break;
            case EV_OBUF:
                held++;
                xbar[(size_t)e->target * V + e->vc]++;
                break;
            case EV_SINK:
                held++;
                break;
            }
        }
    }
    const size_t cqueues = (size_t)n->slots * n->nparts;
    for (size_t b = 0; b < cqueues * wheels; b++) {
        const struct creditq *q = &net_wheel_part(n, (uint32_t)(b / cqueues))->credit[b % cqueues];
        for (uint32_t i = 0; i < q->n; i++) {
            uint32_t x = q->i[i];
            if (x & NET_CREDIT_NODE)
                nodeflow[x & ~NET_CREDIT_NODE]++;
            else
                flow[(size_t)n->ports[x / V].far_in * V + x % V]++;
        }
    }
    /* router.obuf_credits = downstream: a flit in an output buffer still
     * holds the slot of the input VC it came from, and has taken a credit
     * of the next router's input VC. */
    for (size_t i = 0; n->ob_credits && i < nvc; i++) {
        const struct ovc *o = &n->ovcs[i];
        if (n->ports[i / V].kind != PORT_NET)
            continue;
        for (uint32_t k = 0; k < o->ob_count; k++)
            flow[n->ob_up[(size_t)(n->ob_ring[i].ob - n->ob_slab) +
                          ((o->ob_head + k) & n->ob_ring[i].mask)]]++;
    }
    held += n->lane_flits;
    bool ok = true;
    char msg[300];
    const bool keeps_ready = router_keeps_ready(n); /* (asked once: not per VC) */
    for (size_t i = 0; ok && i < nvc; i++) {
        const struct ivc *iv = &n->ivcs[i];
        const uint32_t coming = (uint32_t)listed[i], run = iv->run;
        if (coming && iv->count + coming > iv->mask + 1) {
            snprintf(msg, sizeof msg, "input port %zu vc %zu: %lld flits listed to arrive, %u "
                     "arrived, ring of %u", i / V, i % V, (long long)listed[i], iv->count,
                     iv->mask + 1);
            ok = audit_fail(n, msg);
        } else if (((n->ports[i / V].nonempty >> (i % V)) & 1) != (iv->count > 0)) {
            snprintf(msg, sizeof msg, "input port %zu vc %zu: %u flits held, its port's mask of "
                     "VCs holding flits %#llx", i / V, i % V, iv->count,
                     (unsigned long long)n->ports[i / V].nonempty);
            ok = audit_fail(n, msg);
        } else if (run & IVC_RUN ? !run_record_ok(n, iv) : run != 0) {
            snprintf(msg, sizeof msg, "input port %zu vc %zu: a run record 0x%x of packet %u "
                     "holding %u flits", i / V, i % V, run, iv->run_pid, iv->count);
            ok = audit_fail(n, msg);
        }
    }
    if (held != n->flits_in_net) {
        snprintf(msg, sizeof msg, "%llu flits held or in flight, counters say %llu",
                 (unsigned long long)held, (unsigned long long)n->flits_in_net);
        ok = audit_fail(n, msg);
    }
    if (meta_held != n->meta_in_net) {
        snprintf(msg, sizeof msg, "%llu meta flits held or in flight, counter says %llu",
                 (unsigned long long)meta_held, (unsigned long long)n->meta_in_net);
        ok = audit_fail(n, msg);
    }
    if (n->flits_injected - n->flits_ejected != n->flits_in_net) {
        snprintf(msg, sizeof msg, "injected %llu - ejected %llu != in network %llu",
                 (unsigned long long)n->flits_injected, (unsigned long long)n->flits_ejected,
                 (unsigned long long)n->flits_in_net);
        ok = audit_fail(n, msg);
    }
    for (size_t i = 0; ok && i < nvc; i++) {
        const struct port *out = &n->ports[i / V];
        const struct ovc *o = &n->ovcs[i];
        if (out->kind != PORT_NET || out->out_unlimited)
            continue;
        size_t down = (size_t)out->far_in * V + i % V;
        int64_t cap = n->ports[out->far_in].cap;
        int64_t taken = flow[down] + (n->ob_credits ? o->ob_count : 0);
        if (o->credits < 0 || o->credits > cap || o->credits + taken != cap) {
            snprintf(msg, sizeof msg,
                     "output port %zu vc %zu: credits %d + in use %lld != capacity %lld",
                     i / V, i % V, o->credits, (long long)taken, (long long)cap);
            ok = audit_fail(n, msg);
        }
    }
    /* Without output buffers a network port's VC keeps its flits' arrival
     * entry in the output buffer's fields (struct ovc: far_arrival, read by
     * net_send_deferred_o): it must name the link's far end. */
    for (size_t i = 0; ok && !n->obuf_on && i < nvc; i++) {
        const struct port *out = &n->ports[i / V];
        const struct ovc *o = &n->ovcs[i];
        const uint32_t v = (uint32_t)(i % V);
        if (out->kind == PORT_NET && o->far_arrival != (out->far_in << 6 | v)) {
            snprintf(msg, sizeof msg, "output port %zu vc %u: arrival entry %u; the link goes "
                     "to input port %u", i / V, v, o->far_arrival, out->far_in);
            ok = audit_fail(n, msg);
        }
    }
    for (size_t i = 0; ok && n->obuf_cap && !n->obuf_unlimited && i < nvc; i++) {
        const struct ovc *o = &n->ovcs[i];
        if (n->ports[i / V].kind != PORT_NET)
            continue;
        if (o->ob_space < 0 || o->ob_space + (int64_t)o->ob_count + xbar[i] != (int64_t)n->obuf_cap) {
            snprintf(msg, sizeof msg, "output buffer %zu vc %zu: free %d + held %u + crossing %lld != %u",
                     i / V, i % V, o->ob_space, o->ob_count, (long long)xbar[i], n->obuf_cap);
            ok = audit_fail(n, msg);
        }
    }
    /* An output VC's owner is an allocated input VC of the same router
     * that points back at it. */
    for (size_t i = 0; ok && i < nvc; i++) {
        const struct ovc *o = &n->ovcs[i];
        if (o->owner < 0)
            continue;
        size_t r = i / V / (size_t)n->P;
        const struct ivc *iv = &n->ivcs[r * (size_t)n->P * V + (size_t)o->owner];
        if (iv->state != IVC_ACTIVE || iv->out_port != i / V % (size_t)n->P || iv->out_vc != i % V) {
            snprintf(msg, sizeof msg, "output port %zu vc %zu owned by input VC %d, which does not hold it",
                     i / V, i % V, o->owner);
            ok = audit_fail(n, msg);
        }
    }
    /* With output buffers, every port with a waiting head (a VC holding
     * flits and no output VC) is in its router's n->rwait, which
     * RM_PLAIN_OBUF's VC allocation looks at alone (the other networks
     * do not keep it). */
    for (size_t gp = 0; ok && n->obuf_on && gp < (size_t)n->topo.routers * (size_t)n->P; gp++) {
        const struct port *pt = &n->ports[gp];
        if ((pt->nonempty & ~pt->active) && !((n->rwait[pt->rp >> 6] >> (pt->rp & 63)) & 1)) {
            snprintf(msg, sizeof msg,
                     "input port %zu: VCs %#llx wait for an output VC, not in the router's "
                     "waiting ports", gp, (unsigned long long)(pt->nonempty & ~pt->active));
            ok = audit_fail(n, msg);
        }
    }
    /* The ready VCs router_step_plain1 picks from are those holding an
     * output VC with room. */
    for (size_t i = 0; ok && n->vready && keeps_ready && i < nvc; i++) {
        const bool bit = (n->vready[i / V] >> (i % V)) & 1;
        if (bit != net_ready_ok(n, (uint32_t)(i / V), (uint32_t)(i % V))) {
            snprintf(msg, sizeof msg, "input port %zu vc %zu: %s in the ready mask", i / V, i % V,
                     bit ? "wrongly" : "missing");
            ok = audit_fail(n, msg);
        }
    }
    /* The heads noted hopeless (n->va_hope where n->va_hp holds): each
     * waits (nonempty, not active), asked before (IVC_VA) and finds every
     * output VC of its route owned, each of those naming its port
     * (n->va_on), so that skipping its VC allocation (plain1_step,
     * alloc_vcs) grants nothing that would be granted, until one of them
     * frees and wakes it. The notes seen are counted (n->audit_noted). */
    for (size_t gp = 0; ok && n->va_hope && keeps_ready && gp < nvc / V; gp++) {
        const size_t r = gp / (size_t)n->P, p = gp % (size_t)n->P;
        const uint64_t h = (n->va_hp[r] >> p) & 1 ? n->va_hope[gp] : 0;
        if (h & ~(n->ports[gp].nonempty & ~n->ports[gp].active)) {
            snprintf(msg, sizeof msg, "input port %zu: VCs %#llx noted hopeless but not waiting",
                     gp, (unsigned long long)(h & ~(n->ports[gp].nonempty & ~n->ports[gp].active)));
            ok = audit_fail(n, msg);
        }
        n->audit_noted += (uint64_t)__builtin_popcountll(h);
        for (uint64_t m = h; ok && m; m &= m - 1) {
            const size_t v = (size_t)__builtin_ctzll(m);
            const struct ivc_route *ir = &n->iroute[gp * V + v];
            bool owned = n->ivcs[gp * V + v].state == IVC_VA;
            for (int c = 0; owned && c < ir->route.n; c++)
                for (int u = ir->route.c[c].vc_lo; owned && u <= ir->route.c[c].vc_hi; u++) {
                    const size_t o = (r * n->P + ir->route.c[c].port) * V + (size_t)u;
                    owned = n->ovcs[o].owner >= 0 && ((n->va_on[o] >> p) & 1);
                }
            if (!owned) {
                snprintf(msg, sizeof msg, "input port %zu vc %zu: VC allocation skipped, but it "
                         "has not asked, or an output VC of its route is free or does not name "
                         "it", gp, v);
                ok = audit_fail(n, msg);
            }
        }
    }
    for (uint32_t nd = 0; ok && n->buf_cap && nd < n->nnodes; nd++) {
        uint32_t r = topo_node_router(&n->topo, nd);
        size_t gp = (size_t)r * n->P + (size_t)topo_node_port(&n->topo, nd);
        for (uint32_t v = 0; ok && v < V; v++) {
            int64_t c = n->inj_credits[(size_t)nd * V + v];
            int64_t used = flow[gp * V + v] + nodeflow[(size_t)nd * V + v];
            if (c < 0 || c + used != (int64_t)n->buf_cap) {
                snprintf(msg, sizeof msg, "node %u injection vc %u: credits %lld + in use %lld != %u",
                         nd, v, (long long)c, (long long)used, n->buf_cap);
                ok = audit_fail(n, msg);
            }
        }
    }
    for (size_t gp = 0; ok && gp < nvc / V; gp++) { /* where the crossings send credits */
        const struct port *pt = &n->ports[gp];
        if (pt->kind == PORT_NONE || pt->cap == 0)
            continue;
        const struct port_credit pc = pt->credit;
        const uint32_t ctr = net_port_credit_ctr(n, pt);
        if (pc.ctr != ctr || pc.cls >= n->nccls ||
            n->ccls[pc.cls] != ((uint32_t)pt->credit_lat << 16 | pt->up_part)) {
            snprintf(msg, sizeof msg, "input port %zu: credits to counter %#x class %u, not %#x "
                     "with latency %u to partition %u", gp, pc.ctr, pc.cls, ctr,
                     pt->credit_lat, pt->up_part);
            ok = audit_fail(n, msg);
        }
    }
    for (uint32_t r = 0; ok && r < n->topo.routers; r++) { /* mobility's running count */
        ok = ports_mask_ok(n, r, true, n->robuf[r]) && ok;
        uint32_t nv = 0;
        for (uint32_t p = 0; p < (uint32_t)n->P; p++)
            for (uint32_t v = 0; v < V; v++)
                nv += n->ivcs[((size_t)r * n->P + p) * V + v].count > 0 && net_mob_counted(n, p, v);
        if (nv != n->rnvc[r]) {
            snprintf(msg, sizeof msg, "router %u: %u counted input VCs hold flits, rnvc says %u",
                     r, nv, n->rnvc[r]);
            ok = audit_fail(n, msg);
        }
        /* a router whose input ports hold flits is stepped (without output
         * buffers the routers' loop drops it once they hold none), and
         * n->rocc is kept only with output buffers */
        ok = ports_mask_ok(n, r, false, n->rports[r]) && ok;
        if (n->rports[r] && !((n->router_active[r >> 6] >> (r & 63)) & 1)) {
            snprintf(msg, sizeof msg, "router %u: input ports %#llx hold flits, not active", r,
                     (unsigned long long)n->rports[r]);
            ok = audit_fail(n, msg);
        }
        if (!n->obuf_on && n->rocc[r]) {
            snprintf(msg, sizeof msg, "router %u: rocc %u without output buffers", r, n->rocc[r]);
            ok = audit_fail(n, msg);
        }
    }
    return ok;
}

static const char *port_name(const struct net *n, int p, char *buf, size_t size)
{
    if (p >= n->topo.radix)
        snprintf(buf, size, "local%d", p - n->topo.radix);
    else
        snprintf(buf, size, "%s%d", p % 2 ? "-" : "+", p / 2);
    return buf;
}

/* The occupied input VC that input VC i waits for, if any: the buffer
 * behind its allocated output VC, or behind its first routing candidate. */
static bool wait_target(const struct net *n, size_t i, size_t *next)
{
    const int P = n->P, V = n->V;
    const struct ivc *iv = &n->ivcs[i];
    uint32_t r = (uint32_t)(i / ((size_t)P * V));
    int port, vc;
    if (iv->state == IVC_ACTIVE) {
        port = iv->out_port;
        vc = iv->out_vc;
    } else if ((iv->state == IVC_VA || iv->state == IVC_WAIT) && n->iroute[i].route.n > 0) {
        port = n->iroute[i].route.c[0].port;
        vc = n->iroute[i].route.c[0].vc_lo;
    } else {
        return false;
    }
    const struct port *op = &n->ports[(size_t)r * P + port];
    if (op->kind != PORT_NET)
        return false;
    *next = (size_t)op->far_in * V + (size_t)vc;
    return n->ivcs[*next].count > 0;
}

/* For each occupied input VC (up to a screenful): what its front flit waits
 * for. Then one wait-for cycle, if the chain from the first blocked VC
 * closes on itself. */
void net_deadlock_report(const struct net *n, char *buf, size_t size)
{
    const int P = n->P, V = n->V;
    size_t used = 0, lines = 0, blocked = 0;
    size_t nvc = (size_t)n->topo.routers * P * V;
    long first = -1;
#define OUT(...) do { if (used < size) used += (size_t)snprintf(buf + used, size - used, __VA_ARGS__); } while (0)
    OUT("deadlock: %llu flits in the network, none moved for %llu cycles (sim.watchdog)\n",
        (unsigned long long)n->flits_in_net, (unsigned long long)n->watchdog);
    for (size_t i = 0; i < nvc; i++) {
        const struct ivc *iv = &n->ivcs[i];
        if (!iv->count || (int)(i % V) == n->Vd) /* metapackets are no part of a deadlock */
            continue;
        blocked++;
        if (first < 0)
            first = (long)i;
        if (lines >= 12)
            continue;
        lines++;
        uint32_t r = (uint32_t)(i / ((size_t)P * V));
        int p = (int)(i / V % P), v = (int)(i % V);
        const struct packet *pk = &n->pk[net_ivc_front(iv).pid];
        char a[16], b[16];
        OUT("  router %u in %s vc %d (%u flits, packet %u->%u): ", r,
            port_name(n, p, a, sizeof a), v, iv->count, pk->src, pk->dst);
        if (iv->state == IVC_ACTIVE) {
            const struct port *op = &n->ports[(size_t)r * P + iv->out_port];
            const struct ovc *o = &n->ovcs[((size_t)r * P + iv->out_port) * V + iv->out_vc];
            if (op->kind == PORT_NET)
                OUT("holds out %s vc %d, waits for credits (%d free) of router %u\n",
                    port_name(n, iv->out_port, b, sizeof b), iv->out_vc, o->credits,
                    op->far_in / (uint32_t)P);
            else
                OUT("holds ejection vc %d\n", iv->out_vc);
        } else if ((iv->state == IVC_VA || iv->state == IVC_WAIT) &&
                   n->iroute[i].route.n > 0) {
            const struct route_cand *c = &n->iroute[i].route.c[0];
            const struct ovc *o = &n->ovcs[((size_t)r * P + c->port) * V + c->vc_lo];
            OUT("waits for out %s vc %d..%d (vc %d owned by in-vc %d)\n",
                port_name(n, c->port, b, sizeof b), c->vc_lo, c->vc_hi, c->vc_lo, o->owner);
        } else {
            OUT("not yet routed\n");
        }
    }
    if (blocked > lines)
        OUT("  ... and %zu more occupied VCs\n", blocked - lines);
    /* Follow "waits for the buffer of" edges from the first blocked VC; a
     * deadlock shows as a chain that comes back to a VC already on it. */
    if (first >= 0) {
        size_t *chain = malloc(64 * sizeof *chain);
        size_t len = 0, cur = (size_t)first;
        long closes_at = -1;
        while (chain && len < 64) {
            for (size_t i = 0; i < len && closes_at < 0; i++)
                if (chain[i] == cur)
                    closes_at = (long)i;
            if (closes_at >= 0)
                break;
            chain[len++] = cur;
            size_t next;
            if (!wait_target(n, cur, &next))
                break;
            cur = next;
        }
        if (closes_at >= 0) {
            OUT("  wait-for cycle:");
            for (size_t i = (size_t)closes_at; i < len; i++) {
                char a[16];
                size_t c = chain[i];
                OUT(" r%zu.%s.vc%zu ->", c / ((size_t)P * V),
                    port_name(n, (int)(c / V % P), a, sizeof a), c % V);
            }
            OUT(" (closed)\n");
        }
        free(chain);
    }
#undef OUT
}
