/* Blocks of cycles (sim.block_cycles): the routers in partitions of 64
 * (whole words of the active-router bitmap; at most NET_BLOCK_PARTS, else
 * several words each), each partition stepped up to block_max cycles in a
 * row before the next one, on one thread.
 *
 * Why: on a network far beyond the caches (the 16,512-node Dragonfly) a
 * router's lines leave the caches between two of its cycles; stepped
 * block_max cycles in a row, a partition's lines are fetched once a
 * block instead of once a cycle.
 *
 * Why it is exact: nothing a partition sends to another arrives sooner
 * than block_max cycles later (net_block_plan measures the shortest
 * link and credit delay between two partitions), so every event and
 * credit a partition's cycle reads was sent before the block began, or
 * by itself. The partitions share one wheel (struct net, wheel_shared)
 * filled in the order they run, which is the order its queues are read
 * in, and what goes to another partition always takes the long wheel,
 * whose slots a block cannot reach around (block_max <= the wheel's size
 * - the longest delay); a flit to another partition is put into that
 * partition's arrivals, in the long wheel's slot (net_send_deferred_long).
 * Sources and sinks run with their partition's cycle. The births of a
 * block's cycles are made before it runs (the workload's draws depend on
 * each node's own stream alone), each packet
 * dated to its cycle and kept at its source until then (inject_node).
 *
 * What differs: packet ids. A freed id is taken by the next birth, and
 * births and deliveries now come in another order; ids break ties only
 * under router.output_order = packet, which therefore runs cycle by
 * cycle, and nothing else reads them (the packet entropy is summed by
 * hops, not by id: experiment/sim.c). The global counts a workload reads
 * each cycle (packets in flight, queued, the backlog) are kept as what
 * each cycle changed them by (n->blk). The watchdog looks once a block. */
#include <stdlib.h>
#include <string.h>

#include "net/net_internal.h"

enum { BLOCK_MIN = 2 };

uint32_t net_block_plan(const struct net *n, const struct saturn_config *cfg)
{
    const int64_t want = saturn_config_int(cfg, "sim.block_cycles");
    if (want < BLOCK_MIN)
        return 0;
    /* What needs every router at the same cycle, reads across partitions
     * during one, or depends on packet ids: the audit asked for
     * (sim.check_invariants: every cycle), packet-ordered outputs, hooks
     * (metapackets, Disha's lane), the routing's or the controller's look
     * at the whole network, a source queue's limit (a birth reads the
     * queue's length then). A debug build's audit (always on) looks at each
     * block's end instead, where every partition is at one cycle. A routing
     * policy that reads another router's state must do so in its cycle hook
     * (rops->cycle: blocks are then off); the tests (test_threads.c, blocks_*)
     * compare each eligible Dragonfly routing with cycle by cycle. */
    if (saturn_config_bool(cfg, "sim.check_invariants") || n->packet_links || n->meta_bit ||
        n->nhooks || n->rops->cycle || n->router_mob || n->xbar_last || n->source_limit || n->ctl->observe ||
        n->ctl->may_start || n->ctl->packet_sent || n->ctl->throttled)
        return 0;
    const uint32_t routers = n->topo.routers, P = (uint32_t)n->P;
    if (routers <= 64) /* one partition: nothing to gain */
        return 0;
    for (uint32_t i = 1; i < n->topo.nodes; i++) /* each partition's nodes a range */
        if (topo_node_router(&n->topo, i) < topo_node_router(&n->topo, i - 1))
            return 0;
    /* The shortest delay between two partitions: a flit's link (its
     * latency at least) and a credit's way back. */
    uint64_t d = UINT64_MAX;
    for (size_t gp = 0; gp < (size_t)routers * P; gp++) {
        const struct port *pt = &n->ports[gp];
        const uint32_t word = (uint32_t)(gp / P) >> 6;
        if (pt->far_in != NET_NONE && (pt->far_in / P) >> 6 != word && pt->latency < d)
            d = pt->latency;
        if (pt->kind == PORT_NET && pt->up != NET_NONE && pt->cap != 0 &&
            (pt->up / P) >> 6 != word && pt->credit_lat < d)
            d = pt->credit_lat;
    }
    /* It must take the long wheel (a short one's slot comes round within a
     * block), and a block must not reach round the long one. */
    if (n->nnear && d < n->near[n->nnear - 1])
        return 0;
    const uint64_t room = (uint64_t)n->wheel_mask + 1 - n->max_delay;
    uint64_t b = (uint64_t)want;
    if (d < b)
        b = d;
    if (room < b)
        b = room;
    return b >= BLOCK_MIN ? (uint32_t)b : 0;
}

uint32_t net_block_len(const struct net *n, uint64_t until)
{
    /* what was switched on after net_create and reads every cycle whole:
     * charts, link and node records, hooks */
    if (!n->block_max || n->failed || n->trace || n->link_first || n->node_span || n->nhooks ||
        until <= n->now + 1)
        return 0;
    const uint64_t len = until - n->now;
    return len < n->block_max ? (uint32_t)len : n->block_max;
}

static struct net_block_counts counts_now(const struct net *n)
{
    return (struct net_block_counts){(int64_t)n->packets_in_net, (int64_t)n->queued_packets,
                                     (int64_t)(n->queued_flits + n->flits_in_net)};
}

/* c += what changed from `from` to now */
static void counts_add(struct net_block_counts *c, const struct net *n,
                       const struct net_block_counts *from)
{
    const struct net_block_counts to = counts_now(n);
    c->packets_in_net += to.packets_in_net - from->packets_in_net;
    c->queued_packets += to.queued_packets - from->queued_packets;
    c->backlog_flits += to.backlog_flits - from->backlog_flits;
}

void net_block_open(struct net *n, uint32_t len)
{
    n->in_block = true;
    n->blk_len = len;
    n->blk_t0 = n->now;
    n->blk_at = -1;
    memset(n->blk, 0, (size_t)len * sizeof *n->blk);
    n->blk_base = counts_now(n);
}

void net_block_at(struct net *n, uint32_t j)
{
    if (n->blk_at >= 0) /* the births of the cycle before */
        counts_add(&n->blk[n->blk_at], n, &n->blk_snap);
    n->blk_snap = counts_now(n);
    n->blk_at = (int32_t)j;
    n->now = n->blk_t0 + j;
}

/* Partition w's flits reaching its nodes at its cycle (cycle j of the
 * block) wait for the block's end, in the order they came (net_block_run
 * delivers them). */
static void defer_sinks(struct net *n, struct net_part *w, uint32_t j)
{
    size_t due[NET_NEAR + 1];
    const uint32_t ndue = net_due_slots(n, w->now, due), lane = net_sink_lane(n, w->index);
    for (uint32_t d = 0; d < ndue; d++) {
        struct evq *q = &w->wheel[due[d] * n->nq + lane], *sk = &w->sinks;
        while (sk->n + q->n > sk->cap)
            if (!net_evq_grow(sk)) {
                fprintf(stderr, "saturn: out of memory\n");
                abort();
            }
        for (uint32_t i = 0; i < q->n; i++) {
            sk->e[sk->n] = q->e[i];
            sk->e[sk->n++].vc = (uint16_t)j; /* (block_max <= 1024: sim.block_cycles) */
        }
        q->n = 0;
    }
}

/* net_step's parallel phases and sources for each of thread t's
 * partitions, the block's cycles in a row. What a partition writes
 * outside its routers and nodes is its own (its wheel is its thread's;
 * flits to other threads' partitions go into lists of this thread,
 * arrive_by), and the serial work waits for the block's end: the sinks,
 * and the counts its sources changed. The partitions' routers read only
 * w->now. */
void net_block_thread(struct net *n, uint32_t t)
{
    const uint64_t t0 = n->blk_t0;
    const uint32_t len = n->blk_len;
    for (uint32_t k = n->thr_lo[t]; k < n->thr_lo[t + 1]; k++) {
        struct net_part *w = &n->parts[k];
        w->sinks.n = 0;
        w->blk_flits = 0;
        memset(w->blk_started, 0, (size_t)len * sizeof *w->blk_started);
        for (uint32_t j = 0; j < len && !w->failed; j++) {
            w->now = t0 + j;
            net_wheel_turn_part(n, w);
            net_part_deliver(n, w);
            defer_sinks(n, w, j); /* due as the cycle starts */
            net_part_routers(n, w);
            defer_sinks(n, w, j); /* ejected with no delay */
            if (!w->failed)
                net_inject_part(n, w, j);
        }
    }
}

int net_block_run(struct net *n)
{
    if (n->blk_at >= 0)
        counts_add(&n->blk[n->blk_at], n, &n->blk_snap);
    const uint64_t t0 = n->blk_t0;
    const uint32_t len = n->blk_len;
    /* The partitions read their own cycles (w->now): nothing of theirs may
     * read the network's, which is left far from any of them. */
    n->now = t0 + ((uint64_t)1 << 62);
    net_pool_sync(n); /* the workers step their partitions' block */
    net_block_thread(n, 0);
    net_pool_sync(n);
    /* The serial rest, partition by partition, in the order one thread
     * steps them: what the sources changed, then the sinks by cycle (a
     * partition's sinks read nothing its later cycles wrote: they free
     * packet ids and record latencies; their cycle is set for them). */
    uint64_t nv = 0, na = 0, last = n->last_move;
    for (uint32_t k = 0; k < n->nparts && !n->failed; k++) {
        struct net_part *w = &n->parts[k];
        net_part_block_end(n, w, t0, len, n->blk); /* (cycle by cycle: n->last_move rises) */
        if (n->last_move > last)
            last = n->last_move;
        n->flit_hops += w->flit_hops;
        nv += w->cyc_nv;
        na += w->cyc_na;
        w->flit_hops = w->cyc_nv = w->cyc_na = 0;
        if (w->last_move > last)
            last = w->last_move;
        if (w->failed && !n->failed) {
            memcpy(n->fail_msg, w->fail_msg, sizeof n->fail_msg);
            n->failed = true;
        }
    }
    if (n->check && !n->failed) { /* (a debug build's: net_block_plan) as net_step's */
        n->now = t0 + len - 1;
        net_audit(n);
    }
    struct net_block_counts c = n->blk_base; /* what changed -> the counts */
    for (uint32_t j = 0; j < len; j++) {
        c.packets_in_net += n->blk[j].packets_in_net;
        c.queued_packets += n->blk[j].queued_packets;
        c.backlog_flits += n->blk[j].backlog_flits;
        n->blk[j] = c;
    }
    n->now = t0 + len;
    n->wheel_now = t0 + len - 1;
    n->last_move = last;
    n->cyc_nv = nv;
    n->cyc_na = na;
    n->in_block = false;
    n->blk_at = -1;
    if (n->failed)
        return SATURN_EINTERNAL;
    if (n->flits_in_net > 0 && n->now - n->last_move > n->watchdog)
        return SATURN_EDEADLOCK;
    return SATURN_OK;
}
