/* Metapacket gathering (paper 001, section 5.3): the global full-buffer
 * and delivered-flit counts are summed by 2-flit metapackets carried by the
 * data network itself, on one extra, exclusive, high-priority VC per port
 * (index n->Vd; the data VCs are 0 .. Vd-1).
 *
 * A gather sums dimension by dimension. In the phase for dimension d every
 * row along d has a master (coordinate 0 in d), which launches ppac (+ way,
 * carrying its value) and npac (- way, carrying 0); every other node adds
 * its value to each and forwards it; both come back to the master after a
 * full circuit. A node has the row sum once both have passed it (ppac +
 * npac + own; the master: the returned ppac, checked against npac + own).
 * That sum is the node's value for the next phase; a next-phase packet
 * that arrives before it is held by the node until it is known. After the
 * n phases every node has the global sum; the gather is published
 * (gather_publish, through gather_step) visible from the cycle the last
 * node got it, and the next gather starts in that cycle.
 *
 * One hop: the meta unit of router A puts both flits into A's local input
 * port meta VC (router side: the node's injection channel is not used; the
 * unit's credits are the node's for that VC); the head is routed (no
 * routing policy: the port is known, the meta VC), through the central
 * arbiter when there is one, is allocated the output meta VC, wins the
 * switch with priority over data, crosses the link; the meta unit of the
 * next router takes the flits out of the network input meta VC as they
 * arrive (one per cycle, before the routers move, so the router never
 * sees them) and, a cycle after the tail (the adder), queues the packet to
 * be put into its own local meta VC. Per hop on an idle network:
 *   h = route_delay + xbar_delay + link_latency + 2
 * (the tail follows one cycle behind the head, then the adder). With
 * gather.meta_forward = cut_through the head carries the sums: the node
 * acts a cycle after the head (the adder) and h is one cycle less; the
 * forwarded tail cannot cross the switch before it would have arrived. The local
 * meta VC is one FIFO: a master's npac enters after ppac's tail has left,
 * route_delay + 2 cycles later. A phase therefore takes k h + route_delay
 * + 2 cycles at the master, which learns its sum last, and an idle gather
 *   T = sum over dimensions d of (k_d h + route_delay + 2).
 *
 * Samples: a gather started at cycle s counts the full data VC buffers of
 * the network input ports and the flits delivered since the previous start
 * as the network was at the start of cycle s (before its arrivals: what the
 * previous net_step left), each router its own. Meta flits are not data:
 * they are in no flit counter, latency or throughput, and they do not reset
 * the watchdog (a deadlocked data network stays deadlocked whatever the
 * meta VC does; the meta VC itself cannot deadlock: every meta unit drains
 * its network inputs unconditionally).
 *
 * The meta units run on the engine's hooks (net.h, struct net_hook_ops):
 * a gather starts at the start of a cycle, arrived meta flits are absorbed
 * after the arrivals and before the routers, and the routers route the
 * side VC by asking meta_port. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "control/metapacket.h"

struct mval {
    uint64_t full, deliv;
};

struct mpkt {
    struct mval v;
    uint8_t dim, dir; /* dir 0: + (ppac), 1: - (npac) */
    uint32_t next_free;
};

struct mlaunch {
    uint32_t pid;
    uint64_t ready;
};

#define MQ_CAP 64 /* per router: forwards and launches waiting for the local meta VC */

struct mrouter {
    struct mval own[TOPO_MAX_DIMS];     /* value the node adds in phase d */
    uint64_t in_ready[TOPO_MAX_DIMS];   /* cycle own[d] is known; UINT64_MAX: not yet */
    struct mval recv[TOPO_MAX_DIMS][2]; /* values of the packets as they arrived */
    uint64_t got_t[TOPO_MAX_DIMS];      /* latest ready time of the phase's two packets */
    uint8_t got[TOPO_MAX_DIMS];         /* bit dir: passed (or returned) */
    uint32_t held[TOPO_MAX_DIMS][2];    /* packets waiting for own[d], or NET_NONE */
    uint64_t held_c[TOPO_MAX_DIMS][2];  /* their tail's absorb cycle */
    struct mlaunch q[MQ_CAP];
    uint32_t qh, qn;
    uint64_t ej_mark;                   /* flits delivered to its nodes at the last start */
};

struct meta {
    struct net *net;
    enum { FULL_NO_FREE_SLOT, FULL_NONEMPTY } full_mode;
    bool cut_through;    /* gather.meta_forward: forward on the head, not the tail */
    struct mrouter *mr;
    struct mpkt *pool;
    uint32_t pool_cap, free_head;
    uint64_t *node_ej;   /* flits delivered per node, whole run */
    uint64_t next_start; /* cycle the next gather starts */
    uint64_t start;      /* the current gather's start */
    uint32_t done;       /* routers holding the current global sum */
    uint64_t end;        /* latest of their cycles */
    struct mval total;   /* the true sum of the current samples (self-check) */
    struct meta_record *rec;
    size_t nrec, rec_cap;
    bool counting;
    uint64_t stat_n, stat_min, stat_max;
    double stat_sum;
};

static void meta_destroy(void *state)
{
    struct meta *m = state;
    free(m->mr);
    free(m->pool);
    free(m->node_ej);
    free(m->rec);
    free(m);
}

static void meta_cycle_start(struct net *n, void *state);
static void meta_step(struct net *n, void *state);

static void meta_node_delivered(struct net *n, void *state, uint32_t node)
{
    (void)n;
    ((struct meta *)state)->node_ej[node]++;
}

/* A metapacket's output port: the ring direction of its phase. */
static int meta_port(const struct net *n, const void *state, uint32_t pid)
{
    (void)n;
    const struct mpkt *p = &((const struct meta *)state)->pool[pid];
    return 2 * p->dim + p->dir;
}

static const struct net_hook_ops metapacket_ops = {
    .name = "metapackets",
    .cycle_start = meta_cycle_start,
    .before_routers = meta_step,
    .node_delivered = meta_node_delivered,
    .side_port = meta_port,
    .destroy = meta_destroy,
};

int metapacket_attach(struct net *n, const struct saturn_config *cfg, struct saturn_error *err)
{
    const struct topo *t = &n->topo;
    struct meta *m = calloc(1, sizeof *m);
    if (!m)
        return saturn_error_set(err, SATURN_ENOMEM, "out of memory");
    int e = net_hook_add(n, &metapacket_ops, m, err);
    if (e)
        return e;
    m->net = n;
    m->full_mode = saturn_config_enum(cfg, "gather.full") == 1 ? FULL_NONEMPTY : FULL_NO_FREE_SLOT;
    m->cut_through = saturn_config_enum(cfg, "gather.meta_forward") == 1;
    m->mr = calloc(t->routers, sizeof *m->mr);
    m->node_ej = calloc(n->nnodes, sizeof *m->node_ej);
    /* at most two packets per row and phase are alive; rows of all phases
     * can overlap */
    m->pool_cap = 2 * (uint32_t)t->n * t->routers + 2;
    m->pool = calloc(m->pool_cap, sizeof *m->pool);
    m->rec_cap = 64;
    m->rec = malloc(m->rec_cap * sizeof *m->rec);
    if (!m->mr || !m->node_ej || !m->pool || !m->rec)
        return saturn_error_set(err, SATURN_ENOMEM, "out of memory");
    for (uint32_t i = 0; i < m->pool_cap; i++)
        m->pool[i].next_free = i + 1 < m->pool_cap ? i + 1 : NET_NONE;
    m->next_start = n->now;
    m->stat_min = UINT64_MAX;
    return SATURN_OK;
}

const struct meta_record *meta_records(const struct net *n, size_t *count)
{
    const struct meta *m = net_hook_state(n, &metapacket_ops);
    *count = m ? m->nrec : 0;
    return m ? m->rec : NULL;
}

void meta_count(struct net *n, bool on)
{
    struct meta *m = net_hook_state(n, &metapacket_ops);
    if (m)
        m->counting = on;
}

bool meta_stats(const struct net *n, uint64_t *count, double *min, double *mean, double *max)
{
    const struct meta *m = net_hook_state(n, &metapacket_ops);
    if (!m)
        return false;
    *count = m->stat_n;
    *min = m->stat_n ? (double)m->stat_min : 0;
    *max = m->stat_n ? (double)m->stat_max : 0;
    *mean = m->stat_n ? m->stat_sum / (double)m->stat_n : 0;
    return true;
}

static uint32_t pkt_new(struct meta *m, uint8_t dim, uint8_t dir, struct mval v)
{
    uint32_t pid = m->free_head;
    if (pid == NET_NONE) { /* cannot happen: the pool covers every row and phase */
        net_hook_fail(m->net, "metapacket pool exhausted");
        return NET_NONE;
    }
    m->free_head = m->pool[pid].next_free;
    m->pool[pid] = (struct mpkt){v, dim, dir, NET_NONE};
    return pid;
}

static void pkt_free(struct meta *m, uint32_t pid)
{
    m->pool[pid].next_free = m->free_head;
    m->free_head = pid;
}

static void enqueue(struct meta *m, uint32_t r, uint32_t pid, uint64_t ready)
{
    struct mrouter *x = &m->mr[r];
    if (pid == NET_NONE)
        return;
    if (x->qn == MQ_CAP) { /* cannot happen: at most 4 per phase wait */
        net_hook_fail(m->net, "router %u: metapacket queue full", r);
        return;
    }
    x->q[(x->qh + x->qn++) % MQ_CAP] = (struct mlaunch){pid, ready};
}

static inline struct mval vadd(struct mval a, struct mval b)
{
    return (struct mval){a.full + b.full, a.deliv + b.deliv};
}

static void phase_done(struct meta *m, uint32_t r, int d, struct mval agg, uint64_t t);

/* The master of the row along d through r starts phase d at cycle t. */
static void launch_phase(struct meta *m, uint32_t r, int d, uint64_t t)
{
    struct mrouter *x = &m->mr[r];
    if (m->net->topo.k[d] == 1) { /* a row of one: nothing to exchange */
        phase_done(m, r, d, x->own[d], t);
        return;
    }
    enqueue(m, r, pkt_new(m, (uint8_t)d, 0, x->own[d]), t);
    enqueue(m, r, pkt_new(m, (uint8_t)d, 1, (struct mval){0, 0}), t);
}

/* The node adds its value to a passing packet whose tail it took in cycle
 * c and queues it on (the adder takes a cycle). */
static void pass(struct meta *m, uint32_t r, uint32_t pid, uint64_t c)
{
    struct mrouter *x = &m->mr[r];
    struct mpkt *p = &m->pool[pid];
    int d = p->dim, dir = p->dir;
    uint64_t t = (c > x->in_ready[d] ? c : x->in_ready[d]) + 1;
    x->recv[d][dir] = p->v;
    p->v = vadd(p->v, x->own[d]);
    enqueue(m, r, pid, t); /* before any launch the sum may trigger: it is on someone's path */
    x->got[d] |= (uint8_t)(1u << dir);
    if (t > x->got_t[d])
        x->got_t[d] = t;
    if (x->got[d] == 3)
        phase_done(m, r, d, vadd(vadd(x->recv[d][0], x->recv[d][1]), x->own[d]), x->got_t[d]);
}

static void final_sum(struct meta *m, uint32_t r, struct mval agg, uint64_t t)
{
    if (agg.full != m->total.full || agg.deliv != m->total.deliv) {
        net_hook_fail(m->net, "metapacket gather of cycle %llu: router %u summed %llu full / %llu delivered, "
                 "the samples add up to %llu / %llu",
                 (unsigned long long)m->start, r, (unsigned long long)agg.full,
                 (unsigned long long)agg.deliv, (unsigned long long)m->total.full,
                 (unsigned long long)m->total.deliv);
        return;
    }
    if (t > m->end)
        m->end = t;
    if (++m->done < m->net->topo.routers)
        return;
    if (m->nrec == m->rec_cap) {
        struct meta_record *rec = realloc(m->rec, 2 * m->rec_cap * sizeof *rec);
        if (!rec) {
            net_hook_fail(m->net, "out of memory (gather records)");
            return;
        }
        m->rec = rec;
        m->rec_cap *= 2;
    }
    m->rec[m->nrec++] = (struct meta_record){m->start, m->end, (double)agg.full, (double)agg.deliv};
    if (m->counting) {
        uint64_t g = m->end - m->start;
        m->stat_n++;
        m->stat_sum += (double)g;
        if (g < m->stat_min)
            m->stat_min = g;
        if (g > m->stat_max)
            m->stat_max = g;
    }
    m->next_start = m->end; /* back to back */
}

/* Router r knows its phase-d sum agg from cycle t on. */
static void phase_done(struct meta *m, uint32_t r, int d, struct mval agg, uint64_t t)
{
    struct mrouter *x = &m->mr[r];
    const struct topo *tp = &m->net->topo;
    if (d + 1 == tp->n) {
        final_sum(m, r, agg, t);
        return;
    }
    x->own[d + 1] = agg;
    x->in_ready[d + 1] = t;
    if (topo_coord(tp, r, d + 1) == 0)
        launch_phase(m, r, d + 1, t);
    for (int dir = 0; dir < 2; dir++) {
        uint32_t pid = x->held[d + 1][dir];
        if (pid != NET_NONE) {
            x->held[d + 1][dir] = NET_NONE;
            pass(m, r, pid, x->held_c[d + 1][dir]);
        }
    }
}

/* The tail of packet pid reached router r's meta unit in cycle c. */
static void arrive(struct meta *m, uint32_t r, uint32_t pid, uint64_t c)
{
    struct mrouter *x = &m->mr[r];
    const struct mpkt *p = &m->pool[pid];
    int d = p->dim, dir = p->dir;
    if (topo_coord(&m->net->topo, r, d) == 0) { /* back at its master */
        x->recv[d][dir] = p->v;
        pkt_free(m, pid);
        x->got[d] |= (uint8_t)(1u << dir);
        if (c + 1 > x->got_t[d])
            x->got_t[d] = c + 1;
        if (x->got[d] != 3)
            return;
        struct mval np = vadd(x->recv[d][1], x->own[d]);
        if (np.full != x->recv[d][0].full || np.deliv != x->recv[d][0].deliv) {
            net_hook_fail(m->net, "router %u: ppac and npac of dimension %d disagree", r, d);
            return;
        }
        phase_done(m, r, d, x->recv[d][0], x->got_t[d]);
    } else if (x->in_ready[d] == UINT64_MAX) { /* its own value is not known yet */
        x->held[d][dir] = pid;
        x->held_c[d][dir] = c;
    } else {
        pass(m, r, pid, c);
    }
}

/* Start of cycle now: every router samples its value; the masters of
 * dimension 0 launch. */
static void meta_start(struct net *n, struct meta *m)
{
    const struct topo *t = &n->topo;
    const int P = n->P, V = n->V, Vd = n->Vd;
    m->start = n->now;
    m->done = 0;
    m->end = n->now;
    m->total = (struct mval){0, 0};
    m->next_start = UINT64_MAX;
    for (uint32_t r = 0; r < t->routers; r++) {
        struct mrouter *x = &m->mr[r];
        struct mval v = {0, 0};
        for (int p = 0; p < t->radix; p++) {
            size_t gp = (size_t)r * P + (size_t)p;
            const struct port *pt = &n->ports[gp];
            if (pt->kind != PORT_NET)
                continue;
            const struct ivc *iv = &n->ivcs[gp * V];
            for (int i = 0; i < Vd; i++)
                v.full += m->full_mode == FULL_NONEMPTY ? iv[i].count > 0 : iv[i].count >= pt->cap;
        }
        uint64_t ej = 0;
        for (int c = 0; c < t->conc; c++)
            ej += m->node_ej[r * (uint32_t)t->conc + (uint32_t)c];
        v.deliv = ej - x->ej_mark;
        x->ej_mark = ej;
        m->total = vadd(m->total, v);
        for (int d = 0; d < t->n; d++) {
            x->in_ready[d] = UINT64_MAX;
            x->got[d] = 0;
            x->got_t[d] = 0;
            x->held[d][0] = x->held[d][1] = NET_NONE;
        }
        x->own[0] = v;
        x->in_ready[0] = n->now;
    }
    for (uint32_t r = 0; r < t->routers; r++)
        if (topo_coord(t, r, 0) == 0)
            launch_phase(m, r, 0, n->now);
}

/* After this cycle's arrivals, before the routers: absorb, then launch. */
static void meta_step(struct net *n, void *state)
{
    struct meta *m = state;
    const struct topo *t = &n->topo;
    const uint64_t now = n->now;
    const uint64_t netports = t->radix == 64 ? ~0ULL : (1ULL << t->radix) - 1;
    for (uint32_t r = 0; r < t->routers; r++) {
        for (uint64_t pm = n->rports[r] & netports; pm; pm &= pm - 1) {
            int p = __builtin_ctzll(pm);
            if (!(n->ports[(size_t)r * n->P + (size_t)p].nonempty & n->meta_bit))
                continue;
            flit_t f = net_hook_pop(n, r, p, n->Vd); /* one flit per port and cycle */
            n->meta_in_net--;
            /* store: the node acts on the tail; cut_through: on the head,
             * the tail following a cycle behind as it would through the
             * router (its own absorb then has nothing left to do) */
            if (f.flags & (m->cut_through ? FLIT_HEAD : FLIT_TAIL))
                arrive(m, r, f.pid, now);
        }
    }
    for (uint32_t r = 0; r < t->routers; r++) {
        struct mrouter *x = &m->mr[r];
        while (x->qn && x->q[x->qh].ready <= now) {
            const uint32_t node = n->ports[r * (uint32_t)n->P + (uint32_t)t->radix].up;
            if (n->buf_cap && n->inj_credits[(size_t)node * n->V + n->Vd] < 2)
                break; /* no room for the whole packet: wait */
            uint32_t pid = x->q[x->qh].pid;
            x->qh = (x->qh + 1) % MQ_CAP;
            x->qn--;
            /* into the local meta VC, as the node would inject it */
            if (!net_hook_put_side(n, r, (flit_t){pid, 0, FLIT_HEAD}) ||
                !net_hook_put_side(n, r, (flit_t){pid, 1, FLIT_TAIL}))
                return;
        }
    }
}

/* A gather starts when the previous one ends (and at cycle 0), sampling
 * the network as the last cycle left it. */
static void meta_cycle_start(struct net *n, void *state)
{
    struct meta *m = state;
    if (n->now == m->next_start)
        meta_start(n, m);
}
