/* One router's cycle: route heads, allocate VCs, allocate the switch,
 * move flits, and (when output-buffered) drive the output links.
 *
 * Allocation is separable and round-robin, as in Dally & Towles ch. 19:
 * VC allocation: every waiting head asks for one output VC (the first
 * candidate with a free VC, the VC with the most room); each output VC
 * grants one request, round-robin over the router's input VCs.
 * Switch allocation, input first: every input port picks up to `speedup`
 * ready VCs (round-robin, distinct outputs); every output port grants up to
 * `out_speedup` input ports (round-robin). Pointers advance past a winner
 * only when it is granted. router.vc_alloc / router.sw_alloc = islip swap
 * either stage for BookSim 2's 1-iteration iSLIP (va_alloc_islip,
 * sw_alloc_islip). */
#include <stdio.h>
#include <string.h>

#include "net/vc_alloc.h"

struct va_req {
    uint16_t lin;  /* router-local input VC index p * V + v */
    uint16_t port;
    uint8_t vc;
    uint8_t done;
};
_Static_assert(sizeof(struct va_req) <= 8, "va_scratch holds 8 bytes per input VC");

/* The router's cycle is compiled four times (router_step_fn): RM_ANY
 * reads every option at run time; RM_PLAIN and RM_PLAIN_OBUF are for
 * routers without the central arbiter, iSLIP, metapackets, link records
 * (but plain1_step's: router_step_for), packet-ordered outputs or the
 * recovery lane (router_mode), without and
 * with output buffers, and RM_ISLIP for those with iSLIP in either stage
 * (BookSim's router) but none of the others, so that the compiler drops
 * those branches from the hot path. The four do the same thing wherever
 * they apply. */
enum { RM_ANY, RM_PLAIN, RM_PLAIN_OBUF, RM_ISLIP };
#define ANY(M) ((M) == RM_ANY)
#define ISLIP(M) ((M) == RM_ANY || (M) == RM_ISLIP)
#define OBUF_ON(n, M) (ISLIP(M) ? (n)->obuf_on : (M) == RM_PLAIN_OBUF)
/* A packet's t_out is read only by packet-ordered outputs, which run in
 * RM_ANY: the other modes need not write it (a packet record less to touch
 * per head and hop on a network beyond the caches). */
#define T_OUT(M) ANY(M)
#define HOT static inline __attribute__((always_inline))



/* The output VC this head asks for, or false if none is available. The
 * first route->sel candidates (when more than one) are an adaptive group:
 * the free VC with the most room among all of them, ties at random from
 * the router's stream. */
static inline __attribute__((always_inline)) bool
va_choose_as(struct net *n, uint32_t r, const struct port *ports, const struct ovc *ovcs,
             const struct route_result *route, uint32_t len, int lin, int *op, int *ov,
             const bool obq, const uint64_t now)
{
    const int V = n->V;
    const int32_t need = n->switching == SW_VCT ? (int32_t)len : 0;
    int c = 0;
    if (route->sel > 1) {
        int bp = -1, bv = -1;
        int32_t best_room = -1;
        uint64_t ties = 0;
        for (; c < route->sel; c++) {
            const struct route_cand *rc = &route->c[c];
            for (int v = rc->vc_lo; v <= rc->vc_hi; v++) {
                const struct ovc *o = &ovcs[rc->port * V + v];
                if (!net_va_ovc_free(n, o, now) ||
                    (n->atomic_vc && !net_va_vc_drained(n, &ports[rc->port], o)))
                    continue;
                int32_t room = out_room_as(n, &ports[rc->port], o, obq);
                if (room < need || room < best_room)
                    continue;
                if (room > best_room)
                    ties = 0;
                if (++ties > 1 && rng_below(&n->router_rng[r], ties) != 0)
                    continue;
                bp = rc->port;
                bv = v;
                best_room = room;
            }
        }
        if (bp >= 0) {
            *op = bp;
            *ov = bv;
            return true;
        }
    }
    for (; c < route->n; c++)
        if (net_va_choose_cand(n, ports, ovcs, &route->c[c], need, lin, op, ov, obq, false, now))
            return true;
    return false;
}


bool net_va_choose(struct net *n, uint32_t r, const struct port *ports, const struct ovc *ovcs,
                   const struct route_result *route, uint32_t len, int lin, int *op, int *ov,
                   const uint64_t now)
{
    return va_choose_as(n, r, ports, ovcs, route, len, lin, op, ov, false, now);
}

static bool va_choose_obq(struct net *n, uint32_t r, const struct port *ports,
                          const struct ovc *ovcs, const struct route_result *route,
                          uint32_t len, int lin, int *op, int *ov, const uint64_t now)
{
    return va_choose_as(n, r, ports, ovcs, route, len, lin, op, ov, true, now);
}


/* A flit takes the link of output port gop now: its link record (first
 * and last cycle, crossings). */
static inline void count_link(struct net *n, uint32_t gop, const uint64_t now)
{
    if (!n->link_first[gop])
        n->link_first[gop] = now + 1;
    n->link_last[gop] = now + 1;
    n->link_busy[gop]++;
}

/* The link record and (a chart) its cell. */
static void record_link(struct net *n, struct net_part *w, uint32_t gop, flit_t f)
{
    count_link(n, gop, w->now);
    if (n->trace) {
        uint16_t slice = n->pk[f.pid].slice;
        net_trace_cell(n, w, gop, (uint8_t)(2 + (slice > 253 ? 253 : slice)));
    }
}

/* Flit f leaves router r on the link of output port gop, VC vc, and
 * reaches the next router after delay cycles. one (with bnd): every
 * router is partition w's, and w sends directly (router_tor_one). ls:
 * note the link's last_send (n->router_mob: the entropy circuit reads it;
 * a line of struct port_rare no other cycle touches). */
HOT void onto_link(struct net *n, struct net_part *w, uint32_t r, struct port *op, uint32_t gop,
                   struct ovc *o, uint32_t vc, flit_t f, uint32_t delay, const int M,
                   const bool bnd, const bool one, const bool ls)
{
    if (!bnd && op->out_unlimited) { /* bnd: the torus's loop (router_tor_loop) */
        net_push_event(n, w, w->now + delay, EV_FLIT, op->far_part, op->far_in, vc, f);
    } else {
        o->credits--;
        /* its arrival entry carries it, put into the next router's VC on
         * arrival, when that router is this partition's (no other thread
         * reads it) */
        if (bnd && one) /* (no output buffers: the torus's loop) */
            net_send_deferred_o(w->aq, o, f);
        else if (bnd && op->far_part == w->direct) /* delay: xbar_delay + link_latency */
            net_arrival_push(w->aq, op->far_in, vc, f);
        else if (op->far_part == w->direct)
            net_send_deferred(n, w, w->now + delay, op->far_in, vc, f);
        else if (n->wheel_shared && w->direct != UINT32_MAX)
            /* blocks: into the other partition's arrivals as into its own, in
             * the long wheel's slot (net_block_plan), read in the order sent */
            net_send_deferred_long(n, w, &n->parts[op->far_part], w->now + delay, op->far_in, vc,
                                   f);
        else
            net_push_event(n, w, w->now + delay, EV_FLIT, op->far_part, op->far_in, vc, f);
    }
    if (OBUF_ON(n, M)) /* n->rocc: with output buffers only */
        n->rocc[r]--;
    w->flit_hops++;
    if (ls) /* read only with n->router_mob (net.h) */
        n->prare[gop].last_send = w->now + 1;
    if (f.flags & FLIT_HEAD)
        n->pk[f.pid].hops++;
    if (ANY(M) && n->link_first)
        record_link(n, w, gop, f);
}

/* A metapacket flit crosses the switch onto its link: not data, so no
 * hop, link record, mobility or watchdog progress. */
static void meta_xfer(struct net *n, struct net_part *w, uint32_t r, int p)
{
    const int P = n->P, V = n->V, v = n->Vd;
    const uint32_t gp = r * (uint32_t)P + (uint32_t)p;
    struct ivc *iv = &n->ivcs[(size_t)gp * V + v];
    flit_t f = net_ivc_pop(n, w, r, p, v);
    const uint32_t gop = r * (uint32_t)P + iv->out_port;
    struct port *op = &n->ports[gop];
    struct ovc *o = &n->ovcs[(size_t)gop * V + v];
    if (!op->out_unlimited)
        o->credits--;
    net_push_event(n, w, w->now + n->xbar_delay + op->latency, EV_FLIT, op->far_part,
                   op->far_in, (uint32_t)v, f);
    if (n->obuf_on)
        n->rocc[r]--;
    if (f.flags & FLIT_TAIL) {
        o->owner = -1;
        iv->state = IVC_IDLE;
        n->ports[gp].active &= ~(1ULL << v);
        if (iv->count) /* the next packet's head waits (n->rwait) */
            n->rwait[r] |= 1ULL << p;
    }
}

/* A metapacket's route: the ring direction of its phase, on the meta VC. */
void net_meta_route(struct net *n, uint32_t pid, struct route_result *out)
{
    out->n = 1;
    out->sel = 0;
    const int port = n->side->ops->side_port(n, n->side->state, pid);
    out->c[0] = (struct route_cand){(uint16_t)port, (uint8_t)n->Vd, (uint8_t)n->Vd};
}

/* router.obuf_credits = downstream (FOGSim's input-output-queued router):
 * the front flit of input VC (p, v) leaves for output VC o's buffer
 * (straight in: xbar_delay <= 1) with a credit of the next router, and
 * keeps its input slot's credit until it leaves the output buffer
 * (obuf_credit_send). */
static flit_t obuf_credit_pop(struct net *n, uint32_t r, int p, int v, struct ovc *o, uint32_t gp)
{
    flit_t f = net_ivc_take(n, r, p, v);
    o->credits--;
    const struct ob_ring *g = &n->ob_ring[o - n->ovcs];
    n->ob_up[(size_t)(g->ob - n->ob_slab) + ((o->ob_head + o->ob_count) & g->mask)] =
        gp * (uint32_t)n->V + (uint32_t)v;
    return f;
}

/* The front flit of output VC o leaves for the link: the credit it took
 * at the crossbar stands for the one onto_link takes, and its input slot
 * is credited upstream now. */
static void obuf_credit_send(struct net *n, struct net_part *w, struct ovc *o)
{
    o->credits++;
    const uint32_t x = n->ob_up[(size_t)(n->ob_ring[o - n->ovcs].ob - n->ob_slab) + o->ob_head];
    net_ivc_credit(n, w, x / (uint32_t)n->V, x % (uint32_t)n->V);
}

/* Move the front flit of input VC (p, v) through the crossbar. */
HOT void xfer(struct net *n, struct net_part *w, uint32_t r, int p, int v, const int M)
{
    const int P = n->P, V = n->V;
    const uint32_t gp = r * (uint32_t)P + (uint32_t)p;
    struct ivc *iv = &n->ivcs[(size_t)gp * V + v];
    const uint32_t gop = r * (uint32_t)P + iv->out_port;
    struct port *op = &n->ports[gop];
    struct ovc *o = &n->ovcs[(size_t)gop * V + iv->out_vc];
    flit_t f;
    if (n->xbar_last)
        n->xbar_last[gop] = w->now + 1;
    if (ANY(M) && n->ob_credits && op->kind == PORT_NET) {
        f = obuf_credit_pop(n, r, p, v, o, gp);
    } else {
        f = net_ivc_take(n, r, p, v);
        net_ivc_credit_now(n, w, &n->ports[gp], gp, (uint32_t)v);
    }
    if (op->kind == PORT_LOCAL) {
        uint32_t node = op->up, delay = n->xbar_delay + n->eject_latency;
        if (OBUF_ON(n, M))
            n->rocc[r]--;
        /* No delay: this cycle's events are spent; the sink takes it after
         * the routers, in router order (partition by partition). */
        net_push_event(n, w, w->now + delay, EV_SINK, net_sink_lane(n, w->index), node, 0, f);
    } else if (OBUF_ON(n, M)) {
        if (!n->obuf_unlimited)
            o->ob_space--;
        if (n->xbar_delay <= 1) {
            /* Straight into the output buffer, also after a 1-cycle
             * crossbar: the link stage ran before the switch this cycle
             * (ob_direct), so the flit is first seen next cycle, as on
             * arrival of an EV_OBUF event. */
            if (o->ob_count == net_ob_mask(n, o) + 1 &&
                !net_ring_grow(&n->ob_ring[o - n->ovcs].ob, &o->ob_head, o->ob_count,
                               &n->ob_ring[o - n->ovcs].mask)) {
                net_part_fail(w, net_fail_key_router(r), "out of memory (output buffer)");
                return;
            }
            if (T_OUT(M) && (f.flags & FLIT_HEAD))
                n->pk[f.pid].t_out = w->now + n->xbar_delay;
            net_ob_put(n, o, f);
            op->ob_nonempty |= 1ULL << iv->out_vc;
            n->robuf[r] |= 1ULL << iv->out_port;
        } else {
            net_push_event(n, w, w->now + n->xbar_delay, EV_OBUF, w->index, gop, iv->out_vc, f);
        }
    } else {
        onto_link(n, w, r, op, gop, o, iv->out_vc, f, n->xbar_delay + op->latency, M, false, false,
                  n->router_mob);
    }
    w->last_move = w->now;
    if (n->mob_ports & (1ULL << p))
        w->cyc_na++;
    if (f.flags & FLIT_TAIL) {
        o->owner = -1;
        if (n->va_stage)
            n->ovc_freed[o - n->ovcs] = (uint32_t)w->now;
        iv->state = IVC_IDLE;
        n->ports[gp].active &= ~(1ULL << v);
        if (OBUF_ON(n, M) && iv->count) /* the next packet's head waits (n->rwait) */
            n->rwait[r] |= 1ULL << p;
        if (n->rops->tail_left)
            n->rops->tail_left(n->rstate, n, r, p, v, &n->pk[f.pid]);
    }
}

/* router.xbar_rate: after input VC (p, v) moved one flit through the
 * crossbar into a network output's buffer, the grant moves up to rate - 1
 * more of the same packet, those already in the input VC, while the
 * output buffer has room (FOGSim's InternalSpeedup: a packet crosses in
 * length / speedup cycles, never faster than it arrives). */
static void xbar_burst(struct net *n, struct net_part *w, uint32_t r, int p, int v)
{
    const uint32_t gp = r * (uint32_t)n->P + (uint32_t)p;
    const struct ivc *iv = &n->ivcs[(size_t)gp * n->V + v];
    const bool counted = n->mob_ports & (1ULL << p);
    for (int k = 1; k < n->xbar_rate && iv->state == IVC_ACTIVE && iv->count; k++) {
        const struct ovc *o = &n->ovcs[(size_t)(r * (uint32_t)n->P + iv->out_port) * n->V +
                                       iv->out_vc];
        if (!n->obuf_unlimited && (o->ob_space <= 0 || (n->ob_credits && o->credits <= 0)))
            break;
        xfer(n, w, r, p, v, RM_ANY);
        if (counted) /* the buffer counts once in Na (mobility), whatever it sent */
            w->cyc_na--;
    }
}

/* Round-robin helpers, for masks of at most 64 bits: rotate m right by s
 * over 64 bits, so that its bits from s up come first, then those below s
 * (bits past a mask's width are zero either way), and map a bit of the
 * rotated mask back; ring_dist is how far x comes after pointer s on a
 * ring of n (both below n). */
static inline uint64_t rotate_from(uint64_t m, int s)
{
    return (m >> s) | (m << ((64 - s) & 63));
}
static inline int unrotate(int bit, int s) { return (bit + s) & 63; }
static inline unsigned ring_dist(unsigned x, unsigned s, unsigned n)
{
    return x >= s ? x - s : x + n - s;
}
/* A round-robin pointer (sa_in_rr, sa_out_rr, sa_acc_rr, ob_rr) past
 * winner x of a mask of width W <= 64, not wrapped at W: rotate_from by W
 * or more (below 64) orders the mask's bits as by 0, so it needs no
 * compare with W. */
static inline uint8_t rr_past(int x) { return (uint8_t)((x + 1) & 63); }

/* Output VCs whose freed output-buffer slot counts only after this
 * cycle's switch allocation (ob_direct): at most one a port. */
struct ob_defer {
    struct ovc *o[64];
    int n;
};

/* Send the front flit f of output VC (port gop, v) onto its link (link_ready
 * read it); its slot is free again now, or (d) once the switch has been
 * allocated. */
HOT void link_send(struct net *n, struct net_part *w, uint32_t r, struct port *op, uint32_t gop,
                   int v, struct ob_defer *d, flit_t f, const int M)
{
    struct ovc *o = &n->ovcs[(size_t)gop * n->V + v];
    net_ob_next(o);
    if (ANY(M) && n->ob_credits)
        obuf_credit_send(n, w, o);
    /* an emptied buffer starts again at its first slot (net_ivc_take) */
    o->ob_head = --o->ob_count ? (o->ob_head + 1) & net_ob_mask(n, o) : 0;
    if (!o->ob_count && !(op->ob_nonempty &= ~(1ULL << v)))
        n->robuf[r] &= ~(1ULL << (gop - r * (uint32_t)n->P));
    if (!n->obuf_unlimited) {
        if (d)
            d->o[d->n++] = o;
        else
            o->ob_space++;
    }
    onto_link(n, w, r, op, gop, o, (uint32_t)v, f, op->latency, M, false, false, n->router_mob);
    w->last_move = w->now;
    if (ANY(M) && n->packet_links)
        n->prare[gop].link_hold = (f.flags & FLIT_TAIL) ? -1 : v;
}

/* May the front flit of this output VC (*f) go on the link now? (With
 * router.obuf_credits = downstream it took its credit at the crossbar.) */
HOT bool link_ready(const struct net *n, const struct port *op, const struct ovc *o, flit_t *fp,
                    const int M)
{
    if (!o->ob_count)
        return false;
    const flit_t f = *fp = net_ob_front(n, o);
    int32_t need = 1;
    if (n->switching == SW_VCT && (f.flags & FLIT_HEAD) && o->credits < (int32_t)n->pk_len_max)
        need = (int32_t)n->pk[f.pid].len; /* (else room for any packet: its record not fetched) */
    return op->out_unlimited || (ANY(M) && n->ob_credits) || o->credits >= need;
}

/* Output-buffered routers: each network output sends one flit per cycle
 * from its output VC buffers when the next router has room: round-robin
 * over the VCs (output_order = flit), or one packet at a time, the head
 * that reached the output first (lowest packet id on ties) going next
 * (output_order = packet). */
HOT void link_stage(struct net *n, struct net_part *w, uint32_t r, struct ob_defer *d,
                    const int M)
{
    const int P = n->P, V = n->V;
    /* only the outputs with something to send, in port order */
    for (uint64_t pm = n->robuf[r]; pm; pm &= pm - 1) {
        const int p = __builtin_ctzll(pm);
        const uint32_t gop = r * (uint32_t)P + (uint32_t)p;
        struct port *op = &n->ports[gop];
        if (ANY(M) && n->prare[gop].stolen == w->now + 1)
            continue;
        struct ovc *ov = &n->ovcs[(size_t)gop * V];
        if (ANY(M) && n->packet_links) {
            int v = n->prare[gop].link_hold;
            if (v < 0) { /* the earliest waiting head */
                uint64_t best_t = UINT64_MAX;
                uint32_t best_pid = UINT32_MAX;
                for (uint64_t m = op->ob_nonempty; m; m &= m - 1) {
                    int c = __builtin_ctzll(m);
                    const uint32_t pid = net_ob_front(n, &ov[c]).pid;
                    const struct packet *pk = &n->pk[pid];
                    if (pk->t_out < best_t || (pk->t_out == best_t && pid < best_pid)) {
                        best_t = pk->t_out;
                        best_pid = pid;
                        v = c;
                    }
                }
            }
            flit_t f;
            if (v >= 0 && link_ready(n, op, &ov[v], &f, M))
                link_send(n, w, r, op, gop, v, d, f, M);
            continue;
        }
        /* round-robin from ob_rr over the VCs holding flits (link_ready is
         * false for the others) */
        const int s = op->ob_rr;
        for (uint64_t rot = rotate_from(op->ob_nonempty, s); rot; rot &= rot - 1) {
            const int v = unrotate(__builtin_ctzll(rot), s);
            flit_t f;
            if (!link_ready(n, op, &ov[v], &f, M))
                continue;
            link_send(n, w, r, op, gop, v, d, f, M);
            op->ob_rr = rr_past(v);
            break;
        }
    }
}

/* net_va_out_room > 0 for the output VC input VC iv holds. */
HOT bool can_send(const struct net *n, const struct port *ports, const struct ovc *ovcs,
                  const struct ivc *iv, const int M)
{
    const struct port *op = &ports[iv->out_port];
    const struct ovc *o = &ovcs[iv->out_port * n->V + iv->out_vc];
    if (op->kind == PORT_LOCAL)
        return true;
    if (OBUF_ON(n, M))
        return o->ob_space > 0 && (!(ANY(M) && n->ob_credits) || o->credits > 0);
    return op->out_unlimited || o->credits > 0;
}

/* Ejection one packet at a time (output_order = packet): the holder goes
 * on; a free ejection port takes the head that became ready first
 * (lowest packet id on ties). */
static void eject_in_order(struct net *n, struct net_part *w, uint32_t r, int op, uint64_t m,
                           const uint8_t *reqvc)
{
    const int P = n->P, V = n->V;
    struct port_rare *pt = &n->prare[(size_t)r * P + op];
    const struct ivc *ivcs = &n->ivcs[(size_t)r * P * V];
    int pick = -1;
    if (pt->link_hold >= 0) {
        int p = pt->link_hold / V;
        if ((m & (1ULL << p)) && reqvc[op * P + p] == pt->link_hold % V)
            pick = p;
    } else {
        uint64_t best_t = UINT64_MAX;
        uint32_t best_pid = UINT32_MAX;
        for (; m; m &= m - 1) {
            int p = __builtin_ctzll(m);
            const struct ivc *iv = &ivcs[p * V + reqvc[op * P + p]];
            uint32_t pid = net_ivc_front(iv).pid;
            uint64_t t = n->pk[pid].t_out;
            if (t < best_t || (t == best_t && pid < best_pid)) {
                best_t = t;
                best_pid = pid;
                pick = p;
            }
        }
    }
    if (pick < 0)
        return;
    int v = reqvc[op * P + pick];
    const struct ivc *iv = &ivcs[pick * V + v];
    bool tail = net_ivc_front(iv).flags & FLIT_TAIL;
    xfer(n, w, r, pick, v, RM_ANY);
    pt->link_hold = tail ? -1 : pick * V + v;
}

/* The central arbiter (paper 001's router): new heads queue for it; when
 * free, it takes the next waiting head round-robin over the router's
 * input VCs (a metapacket first with gather.meta_arbiter = priority),
 * routes it (fresh, so adaptive choices see the present) and is busy for
 * the routing delay (at least one cycle). */
static void central_arbiter(struct net *n, struct net_part *w, uint32_t r)
{
    const int P = n->P, V = n->V;
    const unsigned nlin = (unsigned)(P * V);
    struct port *ports = &n->ports[(size_t)r * P];
    struct ivc *ivcs = &n->ivcs[(size_t)r * P * V];
    struct ivc_route *iroute = &n->iroute[(size_t)r * P * V];
    const uint64_t now = w->now;
    const bool free_now = now >= n->arb_free[r];
    int pick = -1;
    unsigned best = nlin + 1;
    for (uint64_t pm = n->rports[r]; pm; pm &= pm - 1) {
        int p = __builtin_ctzll(pm);
        for (uint64_t m = ports[p].nonempty & ~ports[p].active; m; m &= m - 1) {
            int v = __builtin_ctzll(m), lin = p * V + v;
            struct ivc *iv = &ivcs[lin];
            if (iv->state == IVC_IDLE) {
                if (!(net_ivc_front(iv).flags & FLIT_HEAD)) {
                    net_part_fail(w, net_fail_key_router(r), "router %u port %d vc %d: body "
                                     "flit at the front of an idle VC", r, p, v);
                    return;
                }
                iv->state = IVC_WAIT;
                iroute[lin].t_front = now;
                iroute[lin].route.n = 0;
            }
            if (iv->state != IVC_WAIT || !free_now)
                continue;
            /* gather.meta_arbiter = priority: a waiting metapacket goes first */
            unsigned d = n->meta_arb_priority && v == n->Vd
                             ? 0 : ((unsigned)lin + nlin - n->arb_rr[r]) % nlin + 1;
            if (d < best) {
                best = d;
                pick = lin;
            }
        }
    }
    if (pick < 0)
        return;
    struct ivc *iv = &ivcs[pick];
    struct ivc_route *ir = &iroute[pick];
    if (__builtin_expect(pick % V == n->Vd, 0)) { /* a metapacket: its port is known */
        net_meta_route(n, net_ivc_front(iv).pid, &ir->route);
        ir->len = 2;
    } else {
        struct packet *pk = &n->pk[net_ivc_front(iv).pid];
        if (ir->route.n == 0 && n->ivc_routed) /* its first turn at the arbiter */
            n->ivc_routed[ir - n->iroute] = now;
        ir->route.sel = 0;
        n->rops->route(n->rstate, n, r, pick / V, pick % V, pk, &ir->route);
        ir->len = pk->len;
    }
    iv->ready = (uint32_t)(now + n->route_delay);
    iv->state = IVC_ROUTING;
    n->arb_free[r] = now + (n->route_delay > 1 ? n->route_delay : 1);
    n->arb_rr[r] = (uint16_t)((unsigned)pick + 1 == nlin ? 0 : (unsigned)pick + 1);
}

/* Switch allocation: the first request for output op this cycle clears
 * its request mask and lists it for the output stage. */
static inline void touch_output(int op, uint64_t *set, uint8_t *touched, int *ntouched,
                                uint64_t *omask)
{
    if (*set & (1ULL << op))
        return;
    *set |= 1ULL << op;
    touched[(*ntouched)++] = (uint8_t)op;
    omask[op] = 0;
}

/* May a head of len flits take output VC (port, v) now (router.vc_alloc =
 * islip): free, drained under atomic VC allocation, room for a VCT head. */
static inline bool va_free(const struct net *n, const struct port *ports, const struct ovc *o,
                           int port, uint32_t len, const uint64_t now)
{
    if (!net_va_ovc_free(n, o, now) || (n->atomic_vc && !net_va_vc_drained(n, &ports[port], o)))
        return false;
    return n->switching != SW_VCT || net_va_out_room(n, &ports[port], o) >= (int32_t)len;
}

/* va_alloc_islip's match: head lin takes output VC o (index bo), and both
 * pointers move past the match. */
static inline void va_islip_match(struct net *n, struct port *ports, struct ivc *ivcs,
                                  struct ivc_route *ir, struct ovc *o, unsigned lin, unsigned bo,
                                  unsigned nlin, int V, const uint64_t now)
{
    struct ivc *iv = &ivcs[lin];
    o->owner = (int32_t)lin;
    o->va_rr = (uint16_t)(lin + 1 == nlin ? 0 : lin + 1);
    ir->va_acc_rr = (uint16_t)(bo + 1 == nlin ? 0 : bo + 1);
    iv->state = IVC_ACTIVE;
    iv->out_port = (uint16_t)(bo / (unsigned)V);
    iv->out_vc = (uint8_t)(bo % (unsigned)V);
    iv->ovc = (uint32_t)(o - n->ovcs); /* (xfer_plain1's) */
    if (ports[bo / (unsigned)V].kind == PORT_LOCAL) /* ready to eject from now */
        n->pk[net_ivc_front(iv).pid].t_out = now;
    ports[lin / (unsigned)V].active |= 1ULL << (lin % (unsigned)V);
    if (n->vready && net_va_out_room(n, &ports[bo / (unsigned)V], o) > 0) /* (router_step_islip1) */
        n->vready[(uint32_t)(ports - n->ports) + lin / (unsigned)V] |= 1ULL << (lin % (unsigned)V);
}

/* va_alloc_islip's accept: head lin takes the output VC granting it first
 * from its pointer (alone: every free VC of its candidates grants it;
 * else those whose grant, best, names it), if any; false if none. */
HOT bool va_islip_accept(struct net *n, struct port *ports, struct ivc *ivcs, struct ovc *ovcs,
                         struct ivc_route *ir, const uint16_t *best, unsigned lin, unsigned nlin,
                         int V, const bool alone, const uint64_t now)
{
    int bo = -1;
    unsigned bd = nlin;
    for (int c = 0; c < ir->route.n; c++) {
        const struct route_cand *rc = &ir->route.c[c];
        for (int v = rc->vc_lo; v <= rc->vc_hi; v++) {
            const unsigned o = (unsigned)(rc->port * V + v);
            if (alone ? !va_free(n, ports, &ovcs[o], rc->port, ir->len, now) : best[o] != lin)
                continue;
            const unsigned d = ring_dist(o, ir->va_acc_rr, nlin);
            if (d < bd) {
                bd = d;
                bo = (int)o;
            }
        }
    }
    if (bo < 0)
        return false;
    va_islip_match(n, ports, ivcs, ir, &ovcs[bo], lin, (unsigned)bo, nlin, V, now);
    return true;
}

/* A head of router r (index lin) that found no free VC: with the ready
 * mask (router_step_islip1) it is noted hopeless when every output VC of
 * its route is owned, as alloc_vcs notes the speedup-1 cycle's heads; it
 * would ask for nothing until one frees, so skipping it changes neither
 * the grants nor their order. */
static inline void va_islip_none(struct net *n, uint32_t r, const struct ovc *ovcs,
                                 const struct ivc_route *ir, unsigned lin, int V)
{
    if (n->va_hp && !n->reroute && !net_va_some_unowned(ovcs, V, &ir->route))
        net_va_hopeless(n, r, r * (uint32_t)n->P, (int)(lin / (unsigned)V),
                        (int)(lin % (unsigned)V), &ir->route);
}

/* VC allocation by 1-iteration iSLIP (router.vc_alloc = islip, BookSim 2's
 * default): every waiting head (req[i].lin) asks for every free VC of its
 * candidates; every output VC grants the asking head first from its
 * pointer (va_rr, over the router's input VCs); every head accepts the
 * granting output VC first from its own pointer (va_acc_rr, over the
 * router's output VCs, port-major). On acceptance both pointers move past
 * the match. */
static void va_alloc_islip(struct net *n, struct net_part *w, uint32_t r, struct va_req *req,
                           int nreq)
{
    const int P = n->P, V = n->V;
    const unsigned nlin = (unsigned)(P * V);
    struct port *ports = &n->ports[(size_t)r * P];
    struct ivc *ivcs = &n->ivcs[(size_t)r * P * V];
    struct ivc_route *iroute = &n->iroute[(size_t)r * P * V];
    struct ovc *ovcs = &n->ovcs[(size_t)r * P * V];
    uint16_t *best = w->va_best; /* per output VC: the granted head, 0xffff none */
    if (nreq == 1) { /* one head asks: every free VC of its candidates grants it */
        if (!va_islip_accept(n, ports, ivcs, ovcs, &iroute[req[0].lin], best, req[0].lin, nlin,
                             V, true, w->now))
            va_islip_none(n, r, ovcs, &iroute[req[0].lin], req[0].lin, V);
        return;
    }
    /* req[i].done: the head found a free VC (the others are granted nothing) */
    for (int i = 0; i < nreq; i++) {
        const unsigned lin = req[i].lin;
        const struct ivc_route *ir = &iroute[lin];
        bool any = false;
        for (int c = 0; c < ir->route.n; c++) {
            const struct route_cand *rc = &ir->route.c[c];
            for (int v = rc->vc_lo; v <= rc->vc_hi; v++) {
                const unsigned o = (unsigned)(rc->port * V + v);
                if (!va_free(n, ports, &ovcs[o], rc->port, ir->len, w->now))
                    continue;
                any = true;
                const unsigned d = ring_dist(lin, ovcs[o].va_rr, nlin);
                if (best[o] == 0xffff || ring_dist(best[o], ovcs[o].va_rr, nlin) > d)
                    best[o] = (uint16_t)lin;
            }
        }
        req[i].done = any;
        if (!any)
            va_islip_none(n, r, ovcs, ir, lin, V);
    }
    for (int i = 0; i < nreq; i++)
        if (req[i].done)
            va_islip_accept(n, ports, ivcs, ovcs, &iroute[req[i].lin], best, req[i].lin, nlin,
                            V, false, w->now);
    /* clear the grants for the next router (only the asking heads set any) */
    for (int i = 0; i < nreq; i++) {
        if (!req[i].done)
            continue;
        const struct ivc_route *ir = &iroute[req[i].lin];
        for (int c = 0; c < ir->route.n; c++)
            for (int v = ir->route.c[c].vc_lo; v <= ir->route.c[c].vc_hi; v++)
                best[ir->route.c[c].port * V + v] = 0xffff;
    }
}

/* iSLIP's grant stage: each output of outs grants the input first from its
 * pointer among those asking for it (omask; one asker without the
 * rotation); granted[p] collects the outputs granting input p, for the
 * inputs returned. */
HOT uint64_t islip_grant(const struct port *ports, const uint64_t *omask, uint64_t outs,
                         uint64_t *granted)
{
    uint64_t gin = 0;
    for (; outs; outs &= outs - 1) {
        const int op = __builtin_ctzll(outs);
        const uint64_t asks = omask[op];
        int p = __builtin_ctzll(asks);
        if (asks & (asks - 1)) {
            const int s = ports[op].sa_out_rr;
            p = unrotate(__builtin_ctzll(rotate_from(asks, s)), s);
        }
        const uint64_t ob = 1ULL << op;
        granted[p] = (gin >> p & 1) ? granted[p] | ob : ob;
        gin |= 1ULL << p;
    }
    return gin;
}

/* Switch allocation by 1-iteration iSLIP (router.sw_alloc = islip, BookSim
 * 2's default): every input port asks for each output one of its ready VCs
 * wants (per output the VC first in round-robin order from the port's VC
 * pointer); every output grants the first asking input from its grant
 * pointer; every input accepts the first granting output from its accept
 * pointer. On acceptance both pointers move past the match and the VC
 * pointer past the VC. An input whose picked output is taken can still
 * win another one, which the input-first allocator cannot. */
HOT void sw_alloc_islip(struct net *n, struct net_part *w, uint32_t r, const int M)
{
    const int P = n->P, V = n->V;
    const uint32_t gp0 = r * (uint32_t)P;
    struct port *ports = &n->ports[gp0];
    struct ivc *ivcs = &n->ivcs[(size_t)gp0 * V];
    struct ovc *ovcs = &n->ovcs[(size_t)gp0 * V];
    const uint64_t pm1 = n->rports[r];
    uint8_t *reqvc = w->sa_scratch; /* [op * P + p] */
    uint64_t omask[64]; /* inputs asking for output op (from the first ask of op on) */
    uint64_t outs_any = 0;
    for (uint64_t pm = pm1; pm; pm &= pm - 1) {
        const int p = __builtin_ctzll(pm);
        const uint64_t m = ports[p].nonempty & ports[p].active;
        if (!m)
            continue;
        const int s = ports[p].sa_in_rr;
        const uint64_t pb = 1ULL << p;
        uint64_t asked = 0; /* the outputs input p asks for */
        for (uint64_t rot = rotate_from(m, s); rot; rot &= rot - 1) { /* ready VCs from s on */
            const int v = unrotate(__builtin_ctzll(rot), s);
            const struct ivc *iv = &ivcs[p * V + v];
            const int op = iv->out_port;
            const uint64_t ob = 1ULL << op;
            if (ANY(M) && n->trace && ports[op].kind == PORT_NET && !n->obuf_on)
                net_trace_cell(n, w, gp0 + op, 1); /* wanted; a send overrides */
            if ((asked & ob) || !can_send(n, ports, ovcs, iv, M))
                continue; /* the earlier VC in round-robin order asks for op */
            asked |= ob;
            omask[op] = (outs_any & ob) ? omask[op] | pb : pb;
            outs_any |= ob;
            reqvc[op * P + p] = (uint8_t)v;
        }
    }
    if (ANY(M)) /* the recovery lane has these links this cycle */
        for (uint64_t om = outs_any; om; om &= om - 1)
            if (__builtin_expect(n->prare[gp0 + __builtin_ctzll(om)].stolen == w->now + 1, 0))
                outs_any &= ~(om & -om);
    uint64_t granted[64]; /* outputs that granted input p */
    const uint64_t gin = islip_grant(ports, omask, outs_any, granted);
    /* accept: per input (in port order), the first granting output from its pointer */
    for (uint64_t im = gin; im; im &= im - 1) {
        const int p = __builtin_ctzll(im);
        const int s = ports[p].sa_acc_rr;
        const int op = unrotate(__builtin_ctzll(rotate_from(granted[p], s)), s);
        const int v = reqvc[op * P + p];
        xfer(n, w, r, p, v, M);
        ports[p].sa_in_rr = rr_past(v);
        ports[p].sa_acc_rr = rr_past(op);
        ports[op].sa_out_rr = rr_past(p);
    }
}

/* Switch allocation for speedup > 1 without the RM_ANY options: the
 * general allocator's grants in its order (inputs in port order, each up
 * to `speedup` ready VCs from its pointer for distinct outputs; outputs in
 * the order first asked, each up to out_speedup inputs from its pointer,
 * one for an ejection port), with the bounds in registers and an output
 * asked by one input granted without the rotation. */
HOT void sw_alloc_multi(struct net *n, struct net_part *w, uint32_t r, const int M)
{
    const int P = n->P, V = n->V, S = n->speedup, OS = n->out_speedup;
    const uint32_t gp0 = r * (uint32_t)P;
    struct port *ports = &n->ports[gp0];
    const struct ivc *ivcs = &n->ivcs[(size_t)gp0 * V];
    const struct ovc *ovcs = &n->ovcs[(size_t)gp0 * V];
    uint8_t *reqvc = w->sa_scratch; /* [op * P + p] */
    uint64_t omask[64], asked = 0;
    uint8_t touched[64];
    int ntouched = 0;
    for (uint64_t pm = n->rports[r]; pm; pm &= pm - 1) {
        const int p = __builtin_ctzll(pm);
        const uint64_t m = ports[p].nonempty & ports[p].active;
        if (!m)
            continue;
        const int s = ports[p].sa_in_rr;
        uint64_t outs = 0;
        int picked = 0;
        for (uint64_t rot = rotate_from(m, s); rot; rot &= rot - 1) {
            const int v = unrotate(__builtin_ctzll(rot), s);
            const struct ivc *iv = &ivcs[p * V + v];
            const int op = iv->out_port;
            if (((outs >> op) & 1) || !can_send(n, ports, ovcs, iv, M))
                continue;
            outs |= 1ULL << op;
            if (!((asked >> op) & 1)) {
                asked |= 1ULL << op;
                touched[ntouched++] = (uint8_t)op;
                omask[op] = 0;
            }
            omask[op] |= 1ULL << p;
            reqvc[op * P + p] = (uint8_t)v;
            if (++picked == S)
                break;
        }
    }
    for (int t = 0; t < ntouched; t++) {
        const int op = touched[t];
        const uint64_t om = omask[op];
        if (!(om & (om - 1))) { /* one input asks: it wins */
            const int p = __builtin_ctzll(om), v = reqvc[op * P + p];
            xfer(n, w, r, p, v, M);
            ports[p].sa_in_rr = rr_past(v);
            ports[op].sa_out_rr = rr_past(p);
            continue;
        }
        const int s = ports[op].sa_out_rr;
        const int grants = ports[op].kind == PORT_LOCAL ? 1 : OS;
        uint64_t rot = rotate_from(om, s);
        for (int g = 0; g < grants && rot; g++, rot &= rot - 1) {
            const int p = unrotate(__builtin_ctzll(rot), s), v = reqvc[op * P + p];
            xfer(n, w, r, p, v, M);
            ports[p].sa_in_rr = rr_past(v);
            ports[op].sa_out_rr = rr_past(p);
        }
    }
}


/* 1. Route heads at the front of idle VCs of the input ports pm (those
 * of router r holding flits, or any superset of the ones with a waiting
 * head), in port order; VC allocation requests and grants. With one
 * central arbiter (run before), a head waits for it (WAIT), is routed
 * alone, and goes back to waiting for it when no VC is granted. false
 * when the router failed (its cycle stops). */
HOT bool alloc_vcs(struct net *n, struct net_part *w, uint32_t r, uint64_t pm, const int M)
{
    const int P = n->P, V = n->V;
    const uint32_t gp0 = r * (uint32_t)P;
    struct port *ports = &n->ports[gp0];
    struct ivc *ivcs = &n->ivcs[(size_t)gp0 * V];
    struct ivc_route *iroute = &n->iroute[(size_t)gp0 * V];
    struct ovc *ovcs = &n->ovcs[(size_t)gp0 * V];
    const uint64_t now = w->now;
    struct va_req *req = w->va_scratch;
    int nreq = 0;
    /* RM_PLAIN and RM_ISLIP with the ready mask (the speedup-1 cycles'):
     * the heads that would fail again for want of an unowned output VC
     * (n->va_hope of the ports in hp, n->va_hp) are skipped, and those
     * found so are noted (here, or by va_islip_none; not with
     * routing.reroute: a head routed again may ask for other VCs).
     * Such a head makes no request and draws no random number, so the
     * requests, their order and the grants are the same without the skip. */
    const uint64_t hp = (M == RM_PLAIN || M == RM_ISLIP) && n->va_hp ? n->va_hp[r] : 0;
    uint64_t none = 0; /* RM_PLAIN_OBUF: ports asked without a waiting head (n->rwait) */
    for (; pm; pm &= pm - 1) {
        int p = __builtin_ctzll(pm);
        uint64_t m = ports[p].nonempty & ~ports[p].active;
        if (M == RM_PLAIN_OBUF && !m)
            none |= 1ULL << p;
        if ((M == RM_PLAIN || M == RM_ISLIP) && (hp >> p) & 1)
            m &= ~n->va_hope[gp0 + (uint32_t)p];
        while (m) {
            int v = __builtin_ctzll(m);
            m &= m - 1;
            struct ivc *iv = &ivcs[p * V + v];
            struct ivc_route *ir = &iroute[p * V + v];
            if (iv->state == IVC_IDLE && !net_route_front(n, w, r, p, v, iv, ir, now, ANY(M), false, NULL))
                return false;
            const bool again = iv->state == IVC_VA; /* it asked and failed before */
            if (!again) {
                if (iv->state != IVC_ROUTING || (int32_t)(iv->ready - (uint32_t)now) > 0) {
                    if (M == RM_PLAIN_OBUF && iv->state == IVC_ROUTING &&
                        iv->ready - (uint32_t)now == 1) {
                        /* it asks next cycle: its routing line and (routed again)
                         * its packet's record, beyond the caches on paper 004's
                         * network, fetched meanwhile (a run holds the packet's id) */
                        __builtin_prefetch(ir);
                        if (n->reroute && (iv->run & IVC_RUN))
                            __builtin_prefetch(&n->pk[iv->run_pid]);
                    }
                    continue; /* WAIT, RECOVER, or still routing */
                }
                iv->state = IVC_VA;
            }
            if (n->reroute && now > ir->t_front && v != n->Vd) {
                /* routed again, from the packet as it arrived: the last
                 * cycle's choices are undone (they took no hop) */
                struct packet *pk = &n->pk[ir->pid];
                pk->route[0] = ir->saved_route[0];
                pk->route[1] = ir->saved_route[1];
                pk->misroute = ir->saved_misroute;
                ir->route.sel = 0;
                (n->rops->route_again ? n->rops->route_again : n->rops->route)(
                    n->rstate, n, r, p, v, pk, &ir->route);
            }
            int op, ov;
            /* every output VC of its route still owned: it fails again */
            const bool owned = M == RM_PLAIN && again && !net_va_some_unowned(ovcs, V, &ir->route);
            if (ISLIP(M) && n->va_islip) /* every free VC of the route is asked for below */
                req[nreq++] = (struct va_req){(uint16_t)(p * V + v), 0, 0, 0};
            else if (!owned &&
                     ((M == RM_PLAIN || M == RM_PLAIN_OBUF) && ir->route.n == 1 &&
                              ir->route.sel <= 1
                          /* one candidate (DOR, the Dragonfly's policies but UGAL's
                           * and PB's source choice): va_choose's scan, inlined */
                          ? net_va_choose_cand(n, ports, ovcs, &ir->route.c[0],
                                           n->switching == SW_VCT ? (int32_t)ir->len : 0,
                                           p * V + v, &op, &ov, false, false, now)
                      : ANY(M) && n->ob_credits
                          ? va_choose_obq(n, r, ports, ovcs, &ir->route, ir->len, p * V + v, &op,
                                          &ov, now)
                          : net_va_choose(n, r, ports, ovcs, &ir->route, ir->len, p * V + v, &op,
                                          &ov, now)))
                req[nreq++] = (struct va_req){(uint16_t)(p * V + v), (uint16_t)op,
                                              (uint8_t)ov, 0};
            else if (ANY(M) && n->central && n->arb_requeue)
                iv->state = IVC_WAIT;
            else if (M == RM_PLAIN && n->va_hp && !n->reroute &&
                     (again ? owned : !net_va_some_unowned(ovcs, V, &ir->route)))
                net_va_hopeless(n, r, gp0, p, v, &ir->route); /* it would fail again */
        }
    }
    if (M == RM_PLAIN_OBUF)
        n->rwait[r] &= ~none;
    const unsigned nlin = (unsigned)(P * V);
    if (ISLIP(M) && n->va_islip && nreq)
        va_alloc_islip(n, w, r, req, nreq);
    for (int i = 0; i < nreq && !(ISLIP(M) && n->va_islip); i++) {
        if (req[i].done)
            continue;
        struct ovc *o = &ovcs[req[i].port * V + req[i].vc];
        int best = i;
        /* router.transit_priority: injection inputs rank after every transit one */
        const unsigned inj0 = ANY(M) && n->transit_first ? (unsigned)(n->topo.radix * V) : nlin;
        unsigned bd = ring_dist(req[i].lin, o->va_rr, nlin) + (req[i].lin >= inj0 ? nlin : 0);
        for (int j = i + 1; j < nreq; j++) {
            if (req[j].done || req[j].port != req[i].port || req[j].vc != req[i].vc)
                continue;
            req[j].done = 1;
            unsigned d = ring_dist(req[j].lin, o->va_rr, nlin) + (req[j].lin >= inj0 ? nlin : 0);
            if (d < bd) {
                bd = d;
                best = j;
            }
        }
        req[i].done = 1;
        unsigned lin = req[best].lin;
        struct ivc *iv = &ivcs[lin];
        o->owner = (int32_t)lin;
        o->va_rr = (uint16_t)(lin + 1 == nlin ? 0 : lin + 1);
        iv->state = IVC_ACTIVE;
        iv->out_port = req[best].port;
        iv->out_vc = req[best].vc;
        iv->ovc = (uint32_t)(o - n->ovcs); /* (xfer_plain1's) */
        if (T_OUT(M) && ports[req[best].port].kind == PORT_LOCAL) /* ready to eject from now */
            n->pk[net_ivc_front(iv).pid].t_out = now;
        ports[lin / (unsigned)V].active |= 1ULL << (lin % (unsigned)V);
        if (!ANY(M) && n->vready && net_va_out_room(n, &ports[req[best].port], o) > 0)
            n->vready[gp0 + lin / (unsigned)V] |= 1ULL << (lin % (unsigned)V);
    }
    if (ANY(M) && n->central && n->arb_requeue)
        for (int i = 0; i < nreq; i++)
            if (ivcs[req[i].lin].state == IVC_VA)
                ivcs[req[i].lin].state = IVC_WAIT;
    return true;
}

/* router.sw_hold: input port p's match (to output op) ends. */
static inline void sw_hold_end(struct port_rare *pr, int p, int op)
{
    pr[p].hold_vc = -1;
    pr[op].hold_in = -1;
}

/* router.sw_hold after input p's VC v crossed to output op: held while the
 * packet has a flit behind this one (BookSim ends the hold on the tail and
 * on an empty VC too). */
static inline void sw_hold_after(struct port_rare *pr, const struct port *ports, int p, int v,
                                 int op)
{
    if ((ports[p].nonempty & ports[p].active) >> v & 1) {
        pr[p].hold_vc = (int16_t)v;
        pr[op].hold_in = (int16_t)p;
    } else if (pr[p].hold_vc >= 0) {
        sw_hold_end(pr, p, op);
    }
}

HOT void router_step_impl(struct net *n, struct net_part *w, uint32_t r, const int M)
{
    const int P = n->P, V = n->V;
    const uint32_t gp0 = r * (uint32_t)P;
    struct port *ports = &n->ports[gp0];
    struct ivc *ivcs = &n->ivcs[(size_t)gp0 * V];
    struct ovc *ovcs = &n->ovcs[(size_t)gp0 * V];
    const uint64_t now = w->now;

    /* Mobility: counted buffers holding a flit as the cycle starts (the
     * router's own record, n->router_mob: step_router). */
    w->cyc_nv += n->rnvc[r];

    /* 1. Route heads, allocate VCs (alloc_vcs). */
    if (ANY(M) && n->central)
        central_arbiter(n, w, r);
    /* RM_PLAIN_OBUF: only the ports that may hold a waiting head (n->rwait:
     * a network with output buffers never runs xfer_plain1, which does not
     * keep it) */
    if (!alloc_vcs(n, w, r, M == RM_PLAIN_OBUF ? n->rwait[r] : n->rports[r], M))
        return;

    /* With a 1-cycle crossbar the switch writes the output buffers
     * directly (xfer), after the link stage has sent what reached them
     * by last cycle; the slots it freed count from the switch's next
     * allocation on, as when the link stage ran after it. */
    const bool ob_direct = OBUF_ON(n, M) && n->xbar_delay == 1;
    struct ob_defer defer;
    defer.n = 0;
    if (ob_direct)
        link_stage(n, w, r, &defer, M);

    if (ISLIP(M) && n->sw_islip) {
        sw_alloc_islip(n, w, r, M);
        if (n->obuf_on && !ob_direct)
            link_stage(n, w, r, NULL, M);
        for (int i = 0; i < defer.n; i++)
            defer.o[i]->ob_space++;
        return;
    }

    /* 2. Switch allocation, input stage. */
    uint64_t omask[64];
    uint8_t touched[64];
    int ntouched = 0;
    uint64_t touched_set = 0;
    if (!ANY(M) && n->speedup == 1) {
        /* Speedup 1 (so one grant an output too): the same allocation with
         * one request an input port, its VC kept by port. */
        uint8_t vsel[64];
        for (uint64_t pm = n->rports[r]; pm; pm &= pm - 1) {
            const int p = __builtin_ctzll(pm);
            const int s = ports[p].sa_in_rr;
            for (uint64_t rot = rotate_from(ports[p].nonempty & ports[p].active, s); rot;
                 rot &= rot - 1) {
                const int v = unrotate(__builtin_ctzll(rot), s);
                const struct ivc *iv = &ivcs[p * V + v];
                if (!can_send(n, ports, ovcs, iv, M))
                    continue;
                const int op = iv->out_port;
                touch_output(op, &touched_set, touched, &ntouched, omask);
                omask[op] |= 1ULL << p;
                vsel[p] = (uint8_t)v;
                break;
            }
        }
        for (int t = 0; t < ntouched; t++) {
            const int op = touched[t], s = ports[op].sa_out_rr;
            const int p = unrotate(__builtin_ctzll(rotate_from(omask[op], s)), s), v = vsel[p];
            xfer(n, w, r, p, v, M);
            ports[p].sa_in_rr = rr_past(v);
            ports[op].sa_out_rr = rr_past(p);
        }
    } else if (!ANY(M)) {
        sw_alloc_multi(n, w, r, M);
    } else {
        uint8_t *reqvc = w->sa_scratch; /* [op * P + p] */
        int meta_op = -1, meta_p = -1; /* the metapacket flit asking for the switch, if any */
        struct port_rare *const pr = &n->prare[gp0];
        if (ANY(M) && n->sw_hold) /* holds that cannot send this cycle end first */
            for (uint64_t pm = n->rports[r]; pm; pm &= pm - 1) {
                const int p = __builtin_ctzll(pm), v = pr[p].hold_vc;
                if (v >= 0 && !(((ports[p].nonempty & ports[p].active) >> v & 1) &&
                                can_send(n, ports, ovcs, &ivcs[p * V + v], M)))
                    sw_hold_end(pr, p, ivcs[p * V + v].out_port);
            }
        for (uint64_t pm = n->rports[r]; pm; pm &= pm - 1) {
            int p = __builtin_ctzll(pm);
            uint64_t m = ports[p].nonempty & ports[p].active;
            if (!m)
                continue;
            int picked = 0;
            uint64_t outs = 0;
            if (ANY(M) && __builtin_expect(m & n->meta_bit, 0)) {
                /* the meta VC goes first: metapackets have priority over data */
                m &= ~n->meta_bit;
                const struct ivc *iv = &ivcs[p * V + n->Vd];
                if (can_send(n, ports, ovcs, iv, M)) {
                    int op = iv->out_port;
                    outs |= 1ULL << op;
                    touch_output(op, &touched_set, touched, &ntouched, omask);
                    meta_op = op;
                    meta_p = p;
                    picked++;
                }
            }
            if (ANY(M) && n->sw_hold && pr[p].hold_vc >= 0) {
                /* its packet's flit, alone (after a metapacket's, which goes first: the
                 * hold then waits a cycle) */
                const int v = pr[p].hold_vc, op = ivcs[p * V + v].out_port;
                if (!picked) {
                    touch_output(op, &touched_set, touched, &ntouched, omask);
                    omask[op] |= 1ULL << p;
                    reqvc[op * P + p] = (uint8_t)v;
                }
                continue;
            }
            int s = ports[p].sa_in_rr;
            uint64_t rot = rotate_from(m, s);
            while (rot && picked < n->speedup) {
                int v = unrotate(__builtin_ctzll(rot), s);
                rot &= rot - 1;
                const struct ivc *iv = &ivcs[p * V + v];
                if (ANY(M) && n->trace && ports[iv->out_port].kind == PORT_NET && !n->obuf_on)
                    net_trace_cell(n, w, gp0 + iv->out_port, 1); /* wanted; a send overrides */
                if ((outs & (1ULL << iv->out_port)) || !can_send(n, ports, ovcs, iv, M))
                    continue;
                if (ANY(M) && n->sw_hold && pr[iv->out_port].hold_in >= 0)
                    continue; /* another input's packet holds the output */
                /* an ejection port carrying another packet whole: wait */
                if (ANY(M) && n->packet_links && ports[iv->out_port].kind == PORT_LOCAL &&
                    n->prare[gp0 + iv->out_port].link_hold >= 0 &&
                    n->prare[gp0 + iv->out_port].link_hold != p * V + v)
                    continue;
                int op = iv->out_port;
                outs |= 1ULL << op;
                touch_output(op, &touched_set, touched, &ntouched, omask);
                omask[op] |= 1ULL << p;
                reqvc[op * P + p] = (uint8_t)v;
                picked++;
            }
        }

        /* 3. Switch allocation, output stage, and traversal. */
        for (int t = 0; t < ntouched; t++) {
            int op = touched[t];
            int s = ports[op].sa_out_rr;
            uint64_t rot = rotate_from(omask[op], s);
            /* A node takes one flit per cycle whatever the speedup. */
            int grants = ports[op].kind == PORT_LOCAL ? 1 : n->out_speedup;
            if (ANY(M) && __builtin_expect(n->prare[gp0 + op].stolen == now + 1, 0))
                continue; /* the recovery lane has the link this cycle */
            if (ANY(M) && n->packet_links && ports[op].kind == PORT_LOCAL) {
                eject_in_order(n, w, r, op, omask[op], reqvc);
                continue;
            }
            int g = 0;
            if (ANY(M) && __builtin_expect(op == meta_op, 0)) { /* the meta flit wins the output */
                meta_xfer(n, w, r, meta_p);
                g = 1;
            }
            uint64_t rot_inj = 0; /* router.transit_priority: injection inputs after the others */
            if (ANY(M) && n->transit_first) {
                const int rdx = n->topo.radix;
                const uint64_t inj = rdx >= 64 ? 0 : omask[op] & ~((1ULL << rdx) - 1);
                rot_inj = rotate_from(inj, s);
                rot = rotate_from(omask[op] & ~inj, s);
            }
            for (; g < grants && (rot || rot_inj); g++) {
                if (!rot) {
                    rot = rot_inj;
                    rot_inj = 0;
                }
                int p = unrotate(__builtin_ctzll(rot), s);
                rot &= rot - 1;
                int v = reqvc[op * P + p];
                xfer(n, w, r, p, v, M);
                if (ANY(M) && n->xbar_rate > 1 && ports[op].kind == PORT_NET)
                    xbar_burst(n, w, r, p, v);
                if (ANY(M) && n->sw_hold)
                    sw_hold_after(pr, ports, p, v, op);
                ports[p].sa_in_rr = rr_past(v);
                ports[op].sa_out_rr = rr_past(p);
            }
        }
    }

    if (ob_direct)
        for (int i = 0; i < defer.n; i++)
            defer.o[i]->ob_space++;
    else if (OBUF_ON(n, M))
        link_stage(n, w, r, NULL, M);
}

/* alloc_vcs for router_step_plain1, out of line: most of its router-cycles
 * have no head waiting. */
__attribute__((noinline)) bool net_alloc_vcs_plain(struct net *n, struct net_part *w, uint32_t r,
                                                   uint64_t pm)
{
    return alloc_vcs(n, w, r, pm, RM_PLAIN);
}

/* Whether n->alloc_vc1 (router_alloc_vc1 or the policy's instance) serves
 * the speedup-1 cycle's single heads: every buffer bounded, no
 * router.va_stage or router.atomic_vc. */
static inline bool alloc_vc1_simple(const struct net *n)
{
    return n->bounded && !n->va_stage && !n->atomic_vc;
}

static __attribute__((noinline)) bool alloc_vc1_plain(struct net *n, struct net_part *w,
                                                      uint32_t r, int p, int v)
{
    return net_alloc_vc1_as(n, w, r, p, v, false, NULL);
}

/* alloc_vc1_plain where every buffer is bounded, without router.va_stage
 * or router.atomic_vc (alloc_vc1_simple: the torus's loop, the
 * collectives'): an output VC is free when it has no owner, its room its
 * credits (an ejection's unbounded). The head routed through n->rops: a
 * policy may install its own instance instead (n->alloc_vc1). */
__attribute__((noinline)) bool router_alloc_vc1(struct net *n, struct net_part *w, uint32_t r,
                                                int p, int v)
{
    return net_alloc_vc1_as(n, w, r, p, v, true, NULL);
}

/* Input port p's switch request at speedup 1: its first VC from its
 * pointer among m, the VCs holding flits and an output VC with room
 * (n->vready), and that VC's output; *dup collects the outputs asked
 * twice. */
HOT void sa_request1(const struct port *ports, const struct ivc *ivcs, int V, int p, uint64_t m,
                     uint64_t *asked, uint64_t *dup, uint8_t *osel, uint8_t *vsel,
                     uint64_t *inreq)
{
    const int s = ports[p].sa_in_rr;
    const int v = unrotate(__builtin_ctzll(rotate_from(m, s)), s);
    const int op = ivcs[p * V + v].out_port;
    const uint64_t ob = 1ULL << op;
    *dup |= *asked & ob;
    *asked |= ob;
    osel[p] = (uint8_t)op;
    vsel[p] = (uint8_t)v;
    *inreq |= 1ULL << p;
}

/* xfer for router_step_plain1 (RM_PLAIN, no output buffers, no
 * metapackets: every VC a data VC), with the router's arrays and the
 * cycle in locals: the same steps in the same order. With lr
 * (router_step_plain1_rec) it keeps the link records as RM_ANY does
 * (record_link, without a chart: a chart runs RM_ANY). With ls it keeps
 * the port's last_send (n->router_mob: its only reader sets it). tor: the torus's
 * loop (router_tor_loop), 2 on one partition that takes every credit in
 * one class (router_tor_one). */
HOT void xfer_plain1(struct net *n, struct net_part *w, uint32_t r, uint32_t *nvc,
                     uint64_t *rpm, struct port *ports, struct ivc *ivcs, struct ovc *ovcs,
                     uint32_t gp0, int V, int p, int v, const uint64_t now, const bool xl,
                     const bool lr, const int tor, const bool ls)
{
    /* the torus's loop: its VCs' addresses from the global index (the
     * router's bases in registers cost more there, less in the others) */
    struct ivc *iv = tor ? &n->ivcs[((size_t)gp0 + (size_t)p) * V + v] : &ivcs[p * V + v];
    const int opn = iv->out_port, ovn = iv->out_vc;
    struct port *op = &ports[opn];
    /* its output VC: where the allocator noted it (iv->ovc; net_create keeps every index
     * below 2^31) on one partition and in the collectives' loops, else from its port and VC */
    struct ovc *o = tor == 2 || lr ? &n->ovcs[iv->ovc]
                    : tor          ? &n->ovcs[((size_t)gp0 + (size_t)opn) * V + ovn]
                                   : &ovcs[opn * V + ovn];
    const uint32_t gop = gp0 + (uint32_t)opn;
    if (xl && n->xbar_last)
        n->xbar_last[gop] = now + 1;
    /* net_ivc_pop */
    const flit_t f = net_ivc_shift(iv); /* (out of its run, or its ring) */
    const uint64_t pbit = 1ULL << p, mob = tor ? pbit : n->mob_ports & pbit;
    struct port *in = &ports[p];
    if (--iv->count == 0) {
        if (mob)
            (*(tor ? &n->rnvc[r] : nvc))--;
        if (!(in->nonempty &= ~(1ULL << v)))
            *(tor ? &n->rports[r] : rpm) &= ~pbit;
    }
    if (tor) { /* net_ivc_credit_now, every buffer bounded */
        const struct port_credit pc = in->credit;
        net_creditq_push(w->cq[tor == 2 ? 0 : pc.cls], pc.ctr + (uint32_t)v);
    } else {
        net_ivc_credit_now(n, w, in, gp0 + (uint32_t)p, (uint32_t)v);
    }
    if (op->kind == PORT_LOCAL) {
        net_push_event(n, w, now + n->xbar_delay + n->eject_latency, EV_SINK,
                       net_sink_lane(n, w->index), op->up, 0, f);
    } else {
        onto_link(n, w, r, op, gop, o, (uint32_t)ovn, f, n->xbar_delay + op->latency, RM_PLAIN,
                  tor, tor == 2, ls);
        if (lr) /* onto_link's last step in RM_ANY */
            count_link(n, gop, now);
        if (o->credits == 0 && (tor || !op->out_unlimited)) /* out of room: not ready (n->vready) */
            n->vready[gp0 + (uint32_t)p] &= ~(1ULL << v);
    }
    if (lr) /* (without link records: the caller's, once a router-cycle) */
        w->last_move = now;
    if (mob)
        w->cyc_na++;
    /* the switch's round-robin pointers move past the winner (every caller's) */
    in->sa_in_rr = tor == 2 ? (uint8_t)(v + 1) : rr_past(v); /* (tor == 2: v + 1, p + 1 < 64) */
    op->sa_out_rr = tor == 2 ? (uint8_t)(p + 1) : rr_past(p);
    if (f.flags & FLIT_TAIL) {
        o->owner = -1;
        if (n->va_hp[r]) { /* heads noted hopeless: those that failed for it may win it */
            uint64_t *const on = &n->va_on[o - n->ovcs];
            n->va_hp[r] &= ~*on;
            *on = 0;
        }
        if (n->va_stage) /* (BookSim's router's torus loop runs with it) */
            n->ovc_freed[o - n->ovcs] = (uint32_t)now;
        iv->state = IVC_IDLE;
        in->active &= ~(1ULL << v);
        n->vready[gp0 + (uint32_t)p] &= ~(1ULL << v);
        if (n->rops->tail_left)
            n->rops->tail_left(n->rstate, n, r, p, v, &n->pk[f.pid]);
    }
}

/* router.sw_hold in plain1_step: input p's ready VCs m, its held VC alone
 * when it holds one (held_in), else less those whose output another input
 * holds (held_out). */
static inline uint64_t sw_hold_ready(const struct ivc *ivcs, int V, int p, uint64_t m,
                                     const struct port_rare *pr, uint64_t held_in,
                                     uint64_t held_out)
{
    if (held_in >> p & 1)
        return 1ULL << pr[p].hold_vc;
    for (uint64_t k = held_out ? m : 0; k; k &= k - 1) {
        const int v = __builtin_ctzll(k);
        if (held_out >> ivcs[p * V + v].out_port & 1)
            m &= ~(1ULL << v);
    }
    return m;
}

/* RM_PLAIN with speedup 1 and no output buffers (the torus's router):
 * router_step_impl's cycle with the switch requests made in the same pass
 * over the ports that looks for waiting heads, each port's from its ready
 * VCs (n->vready: no test of the output VCs' room). VC allocation (alloc_vcs,
 * or alloc_vc1_plain for a single head, out of line: most router-cycles have
 * no head waiting) runs only for the ports holding one that may win (not
 * noted hopeless: n->va_hope), which are asked again after it. The outputs
 * are then served in router_step_impl's order, that of the first input port
 * asking each, so that the flits leave in the same order: without two
 * inputs asking one output, input-port order. A router holding flits at
 * one input port only sends them without the requests. */
HOT void plain1_step(struct net *n, struct net_part *w, uint32_t r, const int P, const int V,
                     const uint64_t now, const bool xl, const bool lr, const int tor,
                     const bool ls, const bool hold)
{
    const uint32_t gp0 = r * (uint32_t)P;
    struct port *ports = &n->ports[gp0];
    struct ivc *ivcs = &n->ivcs[(size_t)gp0 * V];
    struct ovc *ovcs = &n->ovcs[(size_t)gp0 * V];
    const uint64_t *vready = &n->vready[gp0];
    /* the router's counters by address, taken once and kept by the crossings (the
     * collectives' loops); the torus's loop indexes them, which there cost less */
    uint32_t *const nvc = &n->rnvc[r];
    uint64_t *const rpm = &n->rports[r];

    /* Mobility: counted buffers holding a flit as the cycle starts (the
     * router's own record, n->router_mob: step_router). */
    w->cyc_nv += tor ? n->rnvc[r] : *nvc;

    const uint64_t pm1 = tor ? n->rports[r] : *rpm;
    /* router.sw_hold (router_step_impl's, the same rules): the holds that
     * cannot send this cycle end first; a held input asks for its held VC
     * alone, the others for none of the held outputs. A hold is only ever
     * on an input holding flits (its packet's next one), so pm1 finds them
     * all. */
    struct port_rare *const pr = hold ? &n->prare[gp0] : NULL;
    uint64_t held_in = 0, held_out = 0;
    if (hold)
        for (uint64_t pm = pm1; pm; pm &= pm - 1) {
            const int p = __builtin_ctzll(pm), v = pr[p].hold_vc;
            if (v < 0)
                continue;
            const int op = ivcs[p * V + v].out_port;
            if ((ports[p].nonempty & vready[p]) >> v & 1) {
                held_in |= 1ULL << p;
                held_out |= 1ULL << op;
            } else {
                sw_hold_end(pr, p, op);
            }
        }
    if (pm1 && !(pm1 & (pm1 - 1))) {
        /* One input port holds flits (most router-cycles at low load): no
         * other port can ask for its output, so after VC allocation (when
         * it holds a waiting head that may win) its ready VC from its
         * pointer crosses at once, as the general allocation below would
         * grant it. */
        const int p = __builtin_ctzll(pm1);
        uint64_t wv = ports[p].nonempty & ~ports[p].active;
        if (wv && ((n->va_hp[r] >> p) & 1))
            wv &= ~n->va_hope[gp0 + (uint32_t)p];
        if (wv && !((wv & (wv - 1))  ? net_alloc_vcs_plain(n, w, r, pm1)
                    : tor || alloc_vc1_simple(n) ? n->alloc_vc1(n, w, r, p, __builtin_ctzll(wv))
                          : alloc_vc1_plain(n, w, r, p, __builtin_ctzll(wv))))
            return;
        /* (the only input holding flits: the only one that may hold) */
        const uint64_t ready = held_in ? 1ULL << pr[p].hold_vc : ports[p].nonempty & vready[p];
        if (ready) {
            const int s = ports[p].sa_in_rr;
            const int v = unrotate(__builtin_ctzll(rotate_from(ready, s)), s);
            const int op = ivcs[p * V + v].out_port;
            w->last_move = now;
            xfer_plain1(n, w, r, nvc, rpm, ports, ivcs, ovcs, gp0, V, p, v, now, xl, lr, tor, ls);
            if (hold)
                sw_hold_after(pr, ports, p, v, op);
        }
        return;
    }

    uint64_t asked = 0, dup = 0, inreq = 0, waiting = 0, wlast = 0;
    uint8_t osel[64], vsel[64]; /* each asking input port's output and VC */
    for (uint64_t pm = pm1; pm; pm &= pm - 1) {
        const int p = __builtin_ctzll(pm);
        const uint64_t ne = ports[p].nonempty, ready = ne & vready[p];
        /* a port with a waiting head that may win: one not noted hopeless
         * (n->va_hope, read where n->va_hp holds); VC allocation would
         * grant the others nothing, and their switch requests stand */
        uint64_t wv = ne & ~ports[p].active;
        if (wv && ((n->va_hp[r] >> p) & 1))
            wv &= ~n->va_hope[gp0 + (uint32_t)p];
        if (wv) {
            waiting |= 1ULL << p;
            wlast = wv;
        }
        const uint64_t m = hold && ready ? sw_hold_ready(ivcs, V, p, ready, pr, held_in, held_out)
                                         : ready;
        if (m)
            sa_request1(ports, ivcs, V, p, m, &asked, &dup, osel, vsel, &inreq);
    }
    if (waiting) {
        /* one head asks: alloc_vc1_plain */
        if (!((waiting & (waiting - 1)) || (wlast & (wlast - 1))
                  ? net_alloc_vcs_plain(n, w, r, waiting)
              : tor || alloc_vc1_simple(n)
                  ? n->alloc_vc1(n, w, r, __builtin_ctzll(waiting), __builtin_ctzll(wlast))
                    : alloc_vc1_plain(n, w, r, __builtin_ctzll(waiting), __builtin_ctzll(wlast))))
            return;
        inreq &= ~waiting; /* ask again with the VCs granted */
        for (uint64_t pm = waiting; pm; pm &= pm - 1) {
            const int p = __builtin_ctzll(pm);
            uint64_t m = ports[p].nonempty & vready[p];
            if (hold && m)
                m = sw_hold_ready(ivcs, V, p, m, pr, held_in, held_out);
            if (m) {
                const int s = ports[p].sa_in_rr;
                const int v = unrotate(__builtin_ctzll(rotate_from(m, s)), s);
                osel[p] = (uint8_t)ivcs[p * V + v].out_port;
                vsel[p] = (uint8_t)v;
                inreq |= 1ULL << p;
            }
        }
        asked = dup = 0; /* the requests changed */
        for (uint64_t im = inreq; im; im &= im - 1) {
            const uint64_t ob = 1ULL << osel[__builtin_ctzll(im)];
            dup |= asked & ob;
            asked |= ob;
        }
    }
    if (!lr && inreq) /* a flit crosses (xfer_plain1 sets it with link records) */
        w->last_move = now;
    if (!dup) {
        /* every output asked by one input: each wins, served in the order
         * of the input ports (the first askers') */
        for (uint64_t im = inreq; im; im &= im - 1) {
            const int p = __builtin_ctzll(im);
            xfer_plain1(n, w, r, nvc, rpm, ports, ivcs, ovcs, gp0, V, p, vsel[p], now, xl, lr,
                        tor, ls);
            if (hold)
                sw_hold_after(pr, ports, p, vsel[p], osel[p]);
        }
        return;
    }
    /* each output's asking inputs, and the first (lowest) asker of each */
    uint64_t omask[64], firsts = 0;
    for (uint64_t om = asked; om; om &= om - 1)
        omask[__builtin_ctzll(om)] = 0;
    for (uint64_t im = inreq; im; im &= im - 1) {
        const int q = __builtin_ctzll(im), op = osel[q];
        if (!omask[op])
            firsts |= 1ULL << q;
        omask[op] |= 1ULL << q;
    }
    for (uint64_t im = firsts; im; im &= im - 1) {
        const int q = __builtin_ctzll(im), op = osel[q];
        const uint64_t om = omask[op];
        int p = q; /* asked by one input: it wins */
        if (om & (om - 1)) {
            const int s = ports[op].sa_out_rr;
            p = unrotate(__builtin_ctzll(rotate_from(om, s)), s);
        }
        xfer_plain1(n, w, r, nvc, rpm, ports, ivcs, ovcs, gp0, V, p, vsel[p], now, xl, lr, tor, ls);
        if (hold)
            sw_hold_after(pr, ports, p, vsel[p], op);
    }
}

/* router_step_islip1's requests of input port p: for each output one of
 * its ready VCs (nonempty & ready) wants, the VC first from its VC pointer,
 * written at vsel[op * stride]; the outputs asked. With omask (several
 * ports asking) each asked output's mask of asking inputs gets p, and
 * *outs the output. */
HOT uint64_t islip_ask(const struct port *ports, const struct ivc *ivcs, int V, int p,
                       uint64_t ready, uint8_t *vsel, int stride, uint64_t *omask,
                       uint64_t *outs)
{
    const uint64_t m = ports[p].nonempty & ready;
    const int s = ports[p].sa_in_rr;
    uint64_t asked = 0;
    for (uint64_t rot = rotate_from(m, s); rot; rot &= rot - 1) {
        const int v = unrotate(__builtin_ctzll(rot), s);
        const int op = ivcs[p * V + v].out_port;
        const uint64_t ob = 1ULL << op;
        if (asked & ob)
            continue; /* the earlier VC in round-robin order asks for op */
        asked |= ob;
        vsel[op * stride] = (uint8_t)v;
        if (omask) {
            omask[op] = (*outs & ob) ? omask[op] | 1ULL << p : 1ULL << p;
            *outs |= ob;
        }
    }
    return asked;
}

/* alloc_vcs for BookSim 2's router at speedup 1 (islip1_step), out of
 * line: most of its router-cycles have no head waiting. */
static __attribute__((noinline)) bool alloc_vcs_islip1(struct net *n, struct net_part *w,
                                                      uint32_t r, uint64_t pm)
{
    return alloc_vcs(n, w, r, pm, RM_ISLIP);
}

/* alloc_vcs_islip1 for the one waiting head (input port p, VC v) of
 * router r: the same steps for it (routed if new, then, once routed, the
 * grant of every free VC of its route, or a note when it is hopeless:
 * va_islip_none), without the request list (most calls: a head routed,
 * or still routing). */
static __attribute__((noinline)) bool va_islip1_head(struct net *n, struct net_part *w,
                                                    uint32_t r, int p, int v)
{
    if (n->reroute)
        return alloc_vcs_islip1(n, w, r, 1ULL << p);
    const int P = n->P, V = n->V;
    const unsigned lin = (unsigned)(p * V + v);
    const uint32_t gp0 = r * (uint32_t)P;
    struct port *ports = &n->ports[gp0];
    struct ivc *ivcs = &n->ivcs[(size_t)gp0 * V];
    struct ivc_route *ir = &n->iroute[(size_t)gp0 * V + lin];
    struct ovc *ovcs = &n->ovcs[(size_t)gp0 * V];
    struct ivc *iv = &ivcs[lin];
    const uint64_t now = w->now;
    if (iv->state == IVC_IDLE &&
        !net_route_front(n, w, r, p, v, iv, ir, now, false, false, NULL))
        return false;
    if (iv->state != IVC_VA) {
        if (iv->state != IVC_ROUTING || (int32_t)(iv->ready - (uint32_t)now) > 0)
            return true; /* still routing (or RECOVER) */
        iv->state = IVC_VA;
    }
    if (!va_islip_accept(n, ports, ivcs, ovcs, ir, NULL, lin, (unsigned)(P * V), V, true, now))
        va_islip_none(n, r, ovcs, ir, lin, V);
    return true;
}

/* The waiting heads of input port p of router r that VC allocation may
 * serve: those not noted hopeless (n->va_hope where n->va_hp holds). */
static inline uint64_t islip1_waits(const struct net *n, const struct port *ports, uint32_t gp0,
                                    uint64_t hp, int p)
{
    uint64_t wv = ports[p].nonempty & ~ports[p].active;
    if (wv && (hp >> p & 1))
        wv &= ~n->va_hope[gp0 + (uint32_t)p];
    return wv;
}

/* VC allocation for router r's ports pm with waiting heads, the last
 * one's wlast: va_islip1_head for a single head. */
static inline bool islip1_alloc(struct net *n, struct net_part *w, uint32_t r, uint64_t pm,
                                uint64_t wlast)
{
    return (pm & (pm - 1)) || (wlast & (wlast - 1))
               ? alloc_vcs_islip1(n, w, r, pm)
               : va_islip1_head(n, w, r, __builtin_ctzll(pm), __builtin_ctzll(wlast));
}

/* BookSim 2's router at speedup 1 without output buffers (router.vc_alloc
 * and router.sw_alloc = islip: bench/peers.sh's pairs): router_step_impl's
 * RM_ISLIP cycle with the switch requests made from the ready VCs
 * (n->vready, kept as plain1_step keeps it: no test of the output VCs'
 * room) and the crossings by xfer_plain1, the same steps in the same order.
 * VC allocation runs only for the ports holding a waiting head that may
 * win (islip1_waits); their switch requests are made after it, the others'
 * in the pass that finds them (a port's requests depend on its own VCs
 * alone, and the masks they build on no order). tor, ls: xfer_plain1's
 * (tor: 2 only, the torus's loop on one partition, router_islip_tor). */
HOT void islip1_step(struct net *n, struct net_part *w, uint32_t r, const int P, const int V,
                     const uint64_t now, const int tor, const bool ls)
{
    const uint32_t gp0 = r * (uint32_t)P;
    struct port *ports = &n->ports[gp0];
    struct ivc *ivcs = &n->ivcs[(size_t)gp0 * V];
    struct ovc *ovcs = &n->ovcs[(size_t)gp0 * V];
    const uint64_t *vready = &n->vready[gp0];
    w->cyc_nv += n->rnvc[r];
    const uint64_t pm1 = n->rports[r], hp = n->va_hp[r];
    if (pm1 && !(pm1 & (pm1 - 1))) {
        /* One input port holds flits (most router-cycles below saturation):
         * every output it asks for has it as its only asker and grants it,
         * so it takes the asked output first from its accept pointer. */
        const int p = __builtin_ctzll(pm1);
        const uint64_t wv = islip1_waits(n, ports, gp0, hp, p);
        if (wv && !islip1_alloc(n, w, r, pm1, wv))
            return;
        uint8_t vsel[64];
        const uint64_t asked = islip_ask(ports, ivcs, V, p, vready[p], vsel, 1, NULL, NULL);
        if (!asked)
            return;
        const int sa = ports[p].sa_acc_rr;
        const int op = unrotate(__builtin_ctzll(rotate_from(asked, sa)), sa);
        w->last_move = now;
        xfer_plain1(n, w, r, &n->rnvc[r], &n->rports[r], ports, ivcs, ovcs, gp0, V, p, vsel[op],
                    now, true, false, tor, ls);
        ports[p].sa_acc_rr = rr_past(op);
        return;
    }
    uint8_t *reqvc = w->sa_scratch; /* [op * P + p] */
    uint64_t omask[64], outs_any = 0, waiting = 0, wlast = 0;
    for (uint64_t pm = pm1; pm; pm &= pm - 1) {
        const int p = __builtin_ctzll(pm);
        const uint64_t wv = islip1_waits(n, ports, gp0, hp, p);
        if (wv) {
            waiting |= 1ULL << p;
            wlast = wv;
        } else {
            islip_ask(ports, ivcs, V, p, vready[p], &reqvc[p], P, omask, &outs_any);
        }
    }
    if (waiting) {
        if (!islip1_alloc(n, w, r, waiting, wlast))
            return;
        for (uint64_t pm = waiting; pm; pm &= pm - 1) {
            const int p = __builtin_ctzll(pm);
            islip_ask(ports, ivcs, V, p, vready[p], &reqvc[p], P, omask, &outs_any);
        }
    }
    if (!outs_any)
        return;
    uint64_t granted[64];
    const uint64_t gin = islip_grant(ports, omask, outs_any, granted);
    w->last_move = now;
    for (uint64_t im = gin; im; im &= im - 1) {
        const int p = __builtin_ctzll(im);
        const int s = ports[p].sa_acc_rr;
        const int op = unrotate(__builtin_ctzll(rotate_from(granted[p], s)), s);
        xfer_plain1(n, w, r, &n->rnvc[r], &n->rports[r], ports, ivcs, ovcs, gp0, V, p,
                    reqvc[op * P + p], now, true, false, tor, ls);
        ports[p].sa_acc_rr = rr_past(op);
    }
}

static void router_step_islip1(struct net *n, struct net_part *w, uint32_t r)
{
    islip1_step(n, w, r, n->P, n->V, w->now, 0, n->router_mob);
}

static void router_step_plain1(struct net *n, struct net_part *w, uint32_t r)
{
    plain1_step(n, w, r, n->P, n->V, w->now, true, false, false, n->router_mob, n->sw_hold);
}

/* router_step_plain1 keeping the link records (n->link_first: a
 * collective's, net_record_links). */
static void router_step_plain1_rec(struct net *n, struct net_part *w, uint32_t r)
{
    plain1_step(n, w, r, n->P, n->V, w->now, true, true, false, n->router_mob, n->sw_hold);
}

static void router_step_any(struct net *n, struct net_part *w, uint32_t r)
{
    router_step_impl(n, w, r, RM_ANY);
}

static void router_step_plain(struct net *n, struct net_part *w, uint32_t r)
{
    router_step_impl(n, w, r, RM_PLAIN);
}

static void router_step_plain_obuf(struct net *n, struct net_part *w, uint32_t r)
{
    router_step_impl(n, w, r, RM_PLAIN_OBUF);
}

static void router_step_islip(struct net *n, struct net_part *w, uint32_t r)
{
    router_step_impl(n, w, r, RM_ISLIP);
}

/* Options that RM_PLAIN leaves out (RM_ISLIP: but iSLIP); link records may
 * start after creation, so this is asked again every cycle
 * (net_part_routers). Link records (without a chart) are kept by RM_ANY
 * and by router_step_plain1_rec only: the speedup-1 plain router whose
 * ready mask was made at creation (n->vready, router_keeps_ready then). */
router_step_fn router_step_for(const struct net *n)
{
    if (n->central || n->meta_bit || n->trace || n->packet_links || n->links_taken ||
        n->transit_first || n->xbar_rate > 1 || n->ob_credits)
        return router_step_any;
    const bool plain1 = !n->va_islip && !n->sw_islip && !n->obuf_on && n->speedup == 1;
    if (n->sw_hold && !plain1) /* the held switch: plain1_step's, or the general cycle's */
        return router_step_any;
    if (n->link_first)
        return plain1 && n->vready ? router_step_plain1_rec : router_step_any;
    if (n->va_islip && n->sw_islip && !n->obuf_on && n->speedup == 1)
        return router_step_islip1;
    if (n->va_islip || n->sw_islip)
        return router_step_islip;
    if (n->obuf_on)
        return router_step_plain_obuf;
    return plain1 ? router_step_plain1 : router_step_plain;
}

/* The output-buffered loop (run_plain_obuf) runs this cycle: it can count
 * each router's arrivals in as it steps it (net_part_fuses). */
bool router_loop_counts_arrivals(const struct net *n)
{
    return router_step_for(n) == router_step_plain_obuf && !n->router_mob;
}

bool router_tor_loop(const struct net *n)
{
    return n->lat_uniform && n->mob_ports == net_all_ports(n) && alloc_vc1_simple(n);
}

/* The torus's loop on one partition that sends to every router directly
 * (net_send_deferred_o: not for more than 2^26 ports) and takes every credit
 * in one class (n->ccls): its crossings need not ask which (run_plain1_tor1).
 * With fewer than 64 ports and VCs their round-robin pointers past a winner
 * (rr_past) need no wrap either. */
static bool router_tor_one(const struct net *n)
{
    return n->nparts == 1 && n->parts[0].direct == 0 && n->nccls == 1 && n->P < 64 && n->V < 64;
}

/* BookSim 2's router (router_step_islip1) in the torus's loop on one
 * partition (run_islip1_tor1): xfer_plain1's tor = 2, with every buffer
 * bounded, every link of one latency and every port counted for mobility
 * (router_tor_loop's, without its VC allocation's conditions: the
 * allocation is alloc_vcs's). */
static bool router_islip_tor(const struct net *n)
{
    return n->lat_uniform && n->mob_ports == net_all_ports(n) && n->bounded && router_tor_one(n);
}

bool router_keeps_ready(const struct net *n)
{
    const router_step_fn step = router_step_for(n);
    return step == router_step_plain1 || step == router_step_plain1_rec ||
           step == router_step_islip1;
}

/* Router r's cycle, by step or (inlined = 1 or 3 to 8) by plain1_step (3:
 * no switch-crossing record, n->xbar_last NULL; 4: that and link records,
 * router_step_plain1_rec; 5: the torus's, router_tor_loop; 6: that on one
 * partition, router_tor_one; 7 and 8: 5 and 6 with link records, a torus
 * collective's), (2) router_step_impl for RM_PLAIN_OBUF, or (9, 10)
 * islip1_step, BookSim's router (10: in the torus's loop on one partition,
 * router_islip_tor). With rmob
 * (n->router_mob) it records the router's own Nv and Na of this cycle
 * (rnv, rna, rstamp): Nv counted as the cycle starts, Na as what the cycle
 * added to the partition's cyc_na (the crossings count only that). */
HOT void step_router(struct net *n, struct net_part *w, uint32_t r, const int P, const int V,
                     const uint64_t now, router_step_fn step, const int inlined, const bool rmob)
{
    uint32_t nv = 0;
    uint64_t na0 = 0;
    if (rmob) {
        nv = n->rnvc[r];
        na0 = w->cyc_na;
    }
    const int in = inlined & 15; /* (inlined & 16: router.sw_hold) */
    if (in == 1 || (in >= 3 && in <= 8))
        plain1_step(n, w, r, P, V, now, in == 1, in == 4 || in >= 7,
                    in == 6 || in == 8 ? 2 : in == 5 || in == 7, rmob, inlined & 16);
    else if (inlined == 2)
        router_step_impl(n, w, r, RM_PLAIN_OBUF);
    else if (in == 9 || in == 10)
        islip1_step(n, w, r, P, V, now, in == 10 ? 2 : 0, rmob);
    else
        step(n, w, r);
    if (rmob) {
        n->rnv[r] = nv;
        n->rna[r] = (uint32_t)(w->cyc_na - na0);
        n->rstamp[r] = now + 1;
    }
}

/* The active routers of partition w, in order, each stepped by step, or
 * with inlined = 1, 3, 5 or 6 (router_step_plain1), 4, 7 or 8 (router_step_plain1_rec), 2
 * (router_step_plain_obuf) or 9 and 10 (router_step_islip1) by that
 * cycle inlined into the loop, so that its registers are saved once a
 * partition and cycle rather than once a router. */
HOT void run_routers(struct net *n, struct net_part *w, router_step_fn step, const int inlined,
                     const bool rmob)
{
    const uint32_t w0 = w->r_lo / 64, w1 = (w->r_hi + 63) / 64;
    /* read once: the routers' stores of bytes could alias them */
    const int P = n->P, V = n->V;
    const uint64_t now = w->now;
    /* the torus's loops (no router's cycle there sets another's bit) drop
     * the emptied routers of a word at once */
    const bool drop_once = ((inlined & 15) >= 5 && (inlined & 15) <= 8) || inlined == 10;
    const bool prefetch = drop_once && n->prefetch_next;
    const bool prefetch_ob = (inlined == 2 || inlined == 9) && n->prefetch_next;
    const bool fused = inlined == 2 && w->fused; /* (net_part_fuses) */
    for (uint32_t wd = w0; wd < w1; wd++) {
        uint64_t m = n->router_active[wd], drop = 0;
        while (m) {
            const uint32_t r = wd * 64 + (uint32_t)__builtin_ctzll(m);
            m &= m - 1;
            if (prefetch && m) { /* the next router's ports and VCs (n->prefetch_next) */
                const size_t g2 = (size_t)(wd * 64 + (uint32_t)__builtin_ctzll(m)) * (size_t)P;
                const char *pp = (const char *)&n->ports[g2];
                const char *ip = (const char *)&n->ivcs[g2 * (size_t)V];
                const char *op = (const char *)&n->ovcs[g2 * (size_t)V];
                for (int k = 0; k < P; k++)
                    __builtin_prefetch(pp + 64 * k);
                for (int k = 0; k < P * V * (int)sizeof(struct ivc); k += 64) {
                    __builtin_prefetch(ip + k);
                    __builtin_prefetch(op + k);
                }
            }
            if (prefetch_ob && m) {
                /* the next router's busy ports and their VCs (n->prefetch_next; its
                 * other ports are not read: a Dragonfly router has 31) */
                const uint32_t r2 = wd * 64 + (uint32_t)__builtin_ctzll(m);
                const size_t g2 = (size_t)r2 * (size_t)P;
                for (uint64_t pm = n->rports[r2] | (inlined == 2 ? n->robuf[r2] : 0); pm;
                     pm &= pm - 1) {
                    const size_t gp = g2 + (size_t)__builtin_ctzll(pm);
                    __builtin_prefetch(&n->ports[gp]);
                    __builtin_prefetch(&n->ivcs[gp * (size_t)V]);
                    __builtin_prefetch(&n->ivcs[gp * (size_t)V + (size_t)V - 1]);
                    __builtin_prefetch(&n->ovcs[gp * (size_t)V]);
                    __builtin_prefetch(&n->ovcs[gp * (size_t)V + (size_t)V - 1]);
                }
                if (fused) /* and the ports and VCs its arrivals reach */
                    for (uint32_t k = n->arr_head[r2]; k != UINT32_MAX; k = w->fz[k].next) {
                        const uint32_t gp = w->fz[k].x >> 6;
                        __builtin_prefetch(&n->ports[gp]);
                        __builtin_prefetch(&n->ivcs[(size_t)gp * (size_t)V + (w->fz[k].x & 63)]);
                    }
            }
            if (fused)
                net_fused_arrivals(n, w, r);
            step_router(n, w, r, P, V, now, step, inlined, rmob);
            if (inlined == 2 ? n->rocc[r] == 0
                : inlined    ? n->rports[r] == 0
                             : !net_router_holds(n, r)) {
                if (drop_once)
                    drop |= 1ULL << (r & 63);
                else
                    n->router_active[wd] &= ~(1ULL << (r & 63));
            }
        }
        if (drop_once && drop)
            n->router_active[wd] &= ~drop;
    }
}

/* Each instance of the loop a function of its own, so that the compiler
 * allocates each one's registers alone (with the torus's two instances
 * side by side in one function the 1k Dragonfly's count rose 0.5 %). */
#define RUN_ROUTERS(name, inlined, rmob)                                          \
    static __attribute__((noinline)) void name(struct net *n, struct net_part *w) \
    {                                                                             \
        run_routers(n, w, NULL, inlined, rmob);                                   \
    }
RUN_ROUTERS(run_plain1, 1, false)
RUN_ROUTERS(run_plain1_nox, 3, false)
RUN_ROUTERS(run_plain1_tor, 5, false)
RUN_ROUTERS(run_plain1_tor1, 6, false)
RUN_ROUTERS(run_plain_obuf, 2, false)
RUN_ROUTERS(run_plain1_rec, 4, false)
RUN_ROUTERS(run_plain1_rec_mob, 4, true)
RUN_ROUTERS(run_plain1_rec_tor, 7, false)
RUN_ROUTERS(run_plain1_rec_tor1, 8, false)
RUN_ROUTERS(run_plain1_rec_tor_mob, 7, true)
RUN_ROUTERS(run_plain1_rec_tor1_mob, 8, true)
RUN_ROUTERS(run_plain1_tor_mob, 5, true)
RUN_ROUTERS(run_plain1_tor1_mob, 6, true)
RUN_ROUTERS(run_plain1_tor1_hold, 6 | 16, false)
RUN_ROUTERS(run_plain1_tor1_mob_hold, 6 | 16, true)
RUN_ROUTERS(run_plain1_rec_tor1_hold, 8 | 16, false)
RUN_ROUTERS(run_plain1_rec_tor1_mob_hold, 8 | 16, true)
RUN_ROUTERS(run_islip1, 9, false)
RUN_ROUTERS(run_islip1_tor1, 10, false)

void net_part_routers(struct net *n, struct net_part *w)
{
    net_credit_queues(n, w); /* xfer's credits (net_ivc_credit_now) */
    const router_step_fn step = router_step_for(n);
    const int inlined = step == router_step_plain1                       ? (n->xbar_last ? 1 : 3)
                        : step == router_step_plain1_rec && !n->xbar_last ? 4
                        : step == router_step_plain_obuf                 ? 2
                        : step == router_step_islip1                     ? 9
                                                                         : 0;
    if (n->va_hp && !router_keeps_ready(n)) /* another cycle: no note holds */
        memset(&n->va_hp[w->r_lo], 0, (size_t)(w->r_hi - w->r_lo) * sizeof *n->va_hp);
    if (n->sw_hold) { /* the held switch: the torus's loops' instances, else by step */
        const bool one = router_tor_loop(n) && router_tor_one(n);
        if (inlined == 4 && one)
            (n->router_mob ? run_plain1_rec_tor1_mob_hold : run_plain1_rec_tor1_hold)(n, w);
        else if (inlined == 3 && one)
            (n->router_mob ? run_plain1_tor1_mob_hold : run_plain1_tor1_hold)(n, w);
        else
            run_routers(n, w, step, 0, n->router_mob);
    } else if (inlined == 4 && router_tor_loop(n)) /* a torus collective: the torus's loop with records */
        (router_tor_one(n) ? (n->router_mob ? run_plain1_rec_tor1_mob : run_plain1_rec_tor1)
                           : (n->router_mob ? run_plain1_rec_tor_mob : run_plain1_rec_tor))(n, w);
    else if (inlined == 4 && n->router_mob) /* a collective with the entropy circuit (paper 000) */
        run_plain1_rec_mob(n, w);
    else if (inlined == 4) /* a torus collective */
        run_plain1_rec(n, w);
    else if (inlined == 3 && n->router_mob && router_tor_loop(n)) /* the entropy circuit's torus */
        (router_tor_one(n) ? run_plain1_tor1_mob : run_plain1_tor_mob)(n, w);
    else if (n->router_mob) /* rare (gsum_init): the others need not test it per router */
        run_routers(n, w, step, inlined, true);
    else if (inlined == 3 && router_tor_loop(n)) /* the torus's */
        (router_tor_one(n) ? run_plain1_tor1 : run_plain1_tor)(n, w);
    else if (inlined == 3)
        run_plain1_nox(n, w);
    else if (inlined == 1)
        run_plain1(n, w);
    else if (inlined == 2)
        run_plain_obuf(n, w);
    else if (inlined == 9) /* BookSim's router: the torus's loop, or inlined */
        (router_islip_tor(n) ? run_islip1_tor1 : run_islip1)(n, w);
    else
        run_routers(n, w, step, 0, false);
}

void router_step(struct net *n, struct net_part *w, uint32_t r)
{
    net_wheel_turn(n); /* the tests' entry: net_step's turn */
    w->now = n->now;
    net_credit_queues(n, w);
    step_router(n, w, r, n->P, n->V, w->now, router_step_for(n), 0, n->router_mob);
}
