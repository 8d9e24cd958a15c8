/* Engine-private helpers shared by net.c and router.c. */
#ifndef SATURN_NET_INTERNAL_H
#define SATURN_NET_INTERNAL_H

#include <stdio.h>
#include <stdlib.h>

#include "net/net.h"

bool net_evq_grow(struct evq *q);
bool net_creditq_grow(struct creditq *q);

/* Makes the partitions' ev_at, cr_at and ar_at right for cycle n->now
 * (net_step, router_step): what arrives within near[k] cycles from now
 * takes short wheel k, the smallest such (struct net, near). For one
 * arrival cycle, what took a longer wheel was sent before anything in a
 * shorter one, so reading the long wheel's slot first, then the short
 * ones' from the longest (net_due_slots), reads in the order sent. */
void net_wheel_turn(struct net *n);
/* The same tables from scratch (net_partition_build, a jump of n->now). */
void net_wheel_build(struct net *n);
/* The slots due at cycle now, in the order to read them (net_wheel_turn):
 * their number. The long wheel's comes first. */
static inline uint32_t net_due_slots(const struct net *n, uint64_t now, size_t s[NET_NEAR + 1])
{
    uint32_t m = 0;
    s[m++] = (size_t)(now & n->wheel_mask);
    for (uint32_t k = n->nnear; k-- > 0;)
        s[m++] = n->near_base[k] + (size_t)(now & (n->near[k] - 1));
    return m;
}
/* The wheels partitions send into: one a partition, or with a shared
 * wheel (blocks, struct net) one a thread, shared by its partitions. */
static inline uint32_t net_wheels(const struct net *n)
{
    return n->wheel_shared ? n->nthreads : n->nparts;
}
/* The partition that holds wheel s (its wheel and credit arrays). */
static inline const struct net_part *net_wheel_part(const struct net *n, uint32_t s)
{
    return &n->parts[n->wheel_shared ? n->thr_lo[s] : s];
}

/* Schedule an event for cycle `when`, sent by partition w to partition
 * dpart (n->nparts: the serial sink lane). Serial phases send as
 * partition 0 (net_serial_part). */
static inline void net_push_event(struct net *n, struct net_part *w, uint64_t when,
                                  uint32_t kind, uint32_t dpart, uint32_t target, uint32_t vc,
                                  flit_t f)
{
    struct evq *q = w->ev_at[(size_t)(when & n->wheel_mask) * n->nq + dpart];
    if (__builtin_expect(q->n == q->cap, 0) && !net_evq_grow(q)) {
        fprintf(stderr, "saturn: out of memory\n");
        abort();
    }
    struct event *e = &q->e[q->n++];
    e->target = target;
    e->vc = (uint16_t)vc;
    e->kind = (uint16_t)kind;
    e->f = f;
}
/* Appends x to q (a credit's counter, or an arrival: struct net_part). */
static inline __attribute__((always_inline)) void net_creditq_push(struct creditq *q, uint32_t x)
{
    if (__builtin_expect(q->n == q->cap, 0) && !net_creditq_grow(q)) {
        fprintf(stderr, "saturn: out of memory\n");
        abort();
    }
    q->i[q->n++] = x;
}
/* A credit for counter idx (struct creditq) arriving at cycle `when` in
 * partition dpart, sent by partition w. */
static inline void net_push_credit(struct net *n, struct net_part *w, uint64_t when,
                                   uint32_t dpart, uint32_t idx)
{
    net_creditq_push(w->cr_at[(size_t)(when & n->wheel_mask) * n->nparts + dpart], idx);
}
/* Whether router r holds flits: in its input VCs (n->rports) or, with
 * output buffers, in those or on their way into them (n->rocc, kept only
 * then). */
static inline bool net_router_holds(const struct net *n, uint32_t r)
{
    return n->obuf_on ? n->rocc[r] != 0 : n->rports[r] != 0;
}
/* Every port of a router (as a mask of ports): mob_ports is this when
 * mobility counts every port's buffers (entropy.buffers = all). */
static inline uint64_t net_all_ports(const struct net *n)
{
    return n->P >= 64 ? ~0ULL : (1ULL << n->P) - 1;
}
/* Does mobility count input VC (p, v) of a router (net.h, rnvc)? */
static inline bool net_mob_counted(const struct net *n, uint32_t p, uint32_t v)
{
    return ((n->mob_ports >> p) & 1) && !((n->meta_bit >> v) & 1);
}
/* An input VC's run (struct ivc, run): a packet that arrives at an empty
 * VC over a bounded link is held as its id, its front's sequence number and
 * a count, in the VC's own line, while its flits follow in order. A
 * network beyond the caches then writes no ring line at each arrival
 * (between two of a packet's flits a whole network's cycle has evicted it:
 * one L2 miss a flit-hop on paper 004's 16,512 nodes) and reads none as the
 * flits leave; on the torus pair the ring's line is one less L1 miss each
 * way. A second packet behind it, or a flit out of order, spills the run
 * into the ring (net_ivc_spill). */
/* A flit's sequence number and flags as one word (the arrival entry's
 * third, net_send_deferred): a run's record is this word of its front flit,
 * less FLIT_HEAD, with IVC_RUN (net.h). */
static inline uint32_t net_flit_word(flit_t f) { return f.seq | (uint32_t)f.flags << 16; }
/* The flit of a run (run_pid, run) at its front, count held. */
static inline __attribute__((always_inline)) flit_t net_ivc_run_flit(uint32_t pid, uint32_t run,
                                                                     uint32_t count)
{
    const uint16_t seq = (uint16_t)run;
    return (flit_t){pid, seq,
                    (uint16_t)((seq == 0 ? FLIT_HEAD : 0) |
                               (count == 1 ? (run & IVC_RUN_TAIL) >> 16 : 0))};
}
/* The front flit of input VC iv, which holds some. */
static inline __attribute__((always_inline)) flit_t net_ivc_front(const struct ivc *iv)
{
    const uint32_t run = iv->run;
    if (run & IVC_RUN)
        return net_ivc_run_flit(iv->run_pid, run, iv->count);
    return iv->buf[iv->head];
}
/* Flit k (< count) of input VC iv, from the front. */
static inline flit_t net_ivc_at(const struct ivc *iv, uint32_t k)
{
    const uint32_t run = iv->run;
    return run & IVC_RUN ? net_ivc_run_flit(iv->run_pid, run + k, iv->count - k)
                         : iv->buf[(iv->head + k) & iv->mask];
}
/* Input VC iv's run, if it has one, written into its ring from the first
 * slot (head is 0 while a run is held: the ring was empty when it began),
 * so that a flit can be written after it. The credits that let its flits
 * in keep count within the ring. */
static inline void net_ivc_spill(struct ivc *iv)
{
    const uint32_t run = iv->run;
    if (!(run & IVC_RUN))
        return;
    for (uint32_t k = 0; k < iv->count; k++)
        iv->buf[k] = net_ivc_at(iv, k);
    iv->head = 0;
    iv->run = 0;
}
/* The front flit of input VC iv, which holds some, out of its run or ring;
 * the caller counts it out (iv->count). */
static inline __attribute__((always_inline)) flit_t net_ivc_shift(struct ivc *iv)
{
    const uint32_t run = iv->run;
    if (run & IVC_RUN) {
        const uint32_t count = iv->count;
        const flit_t f = net_ivc_run_flit(iv->run_pid, run, count);
        if (count == 1) {
            iv->run = 0;
            iv->head = 0; /* (it held the packet's id) */
        } else {
            iv->run = run + 1;
        }
        return f;
    }
    const flit_t f = iv->buf[iv->head];
    iv->head = (iv->head + 1) & iv->mask;
    return f;
}
/* net_ivc_put's flit (pid, w) into the ring, after the run spilled if there
 * is one: out of line (rare), so that the arrivals' loop keeps more of its
 * pointers in registers (inlined, the spill's loop cost the fixed torus
 * bench 1.5 % of its instructions). */
void net_ivc_put_ring(struct ivc *iv, uint32_t pid, uint32_t w, uint32_t count);
/* Appends data flit (pid, w: net_flit_word), arriving over a bounded link,
 * to input VC iv holding count flits, whose
 * ring has room for it: to its run if f continues it (the same packet's
 * next flit, no flag but FLIT_TAIL, after no tail: its word less FLIT_TAIL
 * is the run's record less IVC_RUN plus the count, which has no carry into
 * the flags as a packet's sequence numbers stay below 65535), as a new run
 * if iv is empty, else into the ring after spilling the run. A run gives
 * back FLIT_HEAD exactly at sequence number 0, as every data flit carries
 * it (the sources make them so: inject_node; metapackets travel as events;
 * the sinks check every flit). The caller counts it (iv->count).
 * net_ivc_put_run: the run's cases only, false (nothing written) for the
 * ring's. */
static inline __attribute__((always_inline)) bool net_ivc_put_run(struct ivc *iv, uint32_t pid,
                                                                 uint32_t w, uint32_t count)
{
    if (count == 0) { /* (an empty VC holds no run: net_ivc_shift ends it) */
        iv->run_pid = pid;
        iv->run = IVC_RUN | (w & (IVC_RUN_TAIL | 0xffff));
        return true;
    }
    const uint32_t run = iv->run;
    if ((run & IVC_RUN) && pid == iv->run_pid && (w & ~IVC_RUN_TAIL) == (run & ~IVC_RUN) + count) {
        iv->run = run | (w & IVC_RUN_TAIL);
        return true;
    }
    return false;
}
/* net_ivc_put: flit f appended, to its run or its ring, or with runs false
 * (n->vc_runs: no VC ever holds one) to its ring (the arrivals' pass calls
 * the cases apart: deliver_runs_as). */
static inline __attribute__((always_inline)) void net_ivc_put(struct ivc *iv, flit_t f,
                                                             const bool runs)
{
    if (!runs) {
        iv->buf[(iv->head + iv->count) & iv->mask] = f;
        return;
    }
    const uint32_t w = net_flit_word(f);
    if (!net_ivc_put_run(iv, f.pid, w, iv->count))
        net_ivc_put_ring(iv, f.pid, w, iv->count);
}
/* Take the front flit of input VC (p, v) of router r out of its buffer
 * (its slot's credit is the caller's: net_ivc_credit). A ring left empty,
 * with nothing on its way to it, starts again at its first slot: the next
 * packet is written into the line the last one used, which is likely in
 * the cache, instead of the ring's next line, which on a network beyond
 * the caches is not (a VC holding at most a packet at a time then keeps
 * one line of its ring warm instead of cycling through all of them). */
static inline __attribute__((always_inline)) flit_t net_ivc_take(struct net *n, uint32_t r, int p,
                                                                 int v)
{
    const uint32_t gp = r * (uint32_t)n->P + (uint32_t)p;
    struct ivc *iv = &n->ivcs[(size_t)gp * n->V + v];
    flit_t f = net_ivc_shift(iv);
    if (--iv->count == 0) {
        iv->head = 0; /* (a run's end set it already: net_ivc_shift) */
        if (net_mob_counted(n, (uint32_t)p, (uint32_t)v))
            n->rnvc[r]--;
        if (!(n->ports[gp].nonempty &= ~(1ULL << v)))
            n->rports[r] &= ~(1ULL << p);
    }
    return f;
}
/* The credit counter of input port pt's VC 0 (struct creditq): the upstream
 * router's output VC, or with NET_CREDIT_NODE the node's injection VC; VC v
 * is this + v (net_create keeps every index below NET_CREDIT_NODE). */
static inline uint32_t net_port_credit_ctr(const struct net *n, const struct port *pt)
{
    return (pt->up * (uint32_t)n->V) | (pt->kind == PORT_LOCAL ? NET_CREDIT_NODE : 0);
}
/* A slot of input VC v of global port gp is free again: its credit goes upstream. */
static inline __attribute__((always_inline)) void net_ivc_credit(struct net *n, struct net_part *w,
                                                                 uint32_t gp, uint32_t v)
{
    const struct port *in = &n->ports[gp];
    if (in->cap != 0) /* unlimited buffers: nobody counts their slots */
        net_push_credit(n, w, w->now + in->credit_lat, in->up_part, net_port_credit_ctr(n, in) + v);
}
/* net_ivc_credit in the routers' phase, where w->cq holds this cycle's
 * queue of each credit class (net_credit_queues): the same credit into
 * the same queue, with no arithmetic on the wheel or the counter's index. */
static inline __attribute__((always_inline)) void
net_ivc_credit_now(struct net *n, struct net_part *w, const struct port *in, uint32_t gp,
                   uint32_t v)
{
    if (in->cap != 0) {
        const struct port_credit pc = in->credit;
        net_creditq_push(w->cq[pc.cls], pc.ctr + v);
    }
}
/* Points w->cq at this cycle's queue of each credit class. */
void net_credit_queues(struct net *n, struct net_part *w);
/* Take the front flit of input VC (p, v) of router r out of its buffer,
 * returning its slot's credit upstream. */
static inline __attribute__((always_inline)) flit_t net_ivc_pop(struct net *n, struct net_part *w,
                                                                uint32_t r, int p, int v)
{
    flit_t f = net_ivc_take(n, r, p, v);
    net_ivc_credit(n, w, r * (uint32_t)n->P + (uint32_t)p, (uint32_t)v);
    return f;
}
bool net_ring_grow(flit_t **buf, uint32_t *head, uint32_t count, uint32_t *mask);
/* Arrays of this size or more go in huge pages with sim.huge_pages (bigmem.c). */
#define NET_HUGE_FROM ((size_t)4 << 20)
/* Cache-line aligned memory for bytes (rounded up to a line), zeroed if
 * zero; with huge, an array of NET_HUGE_FROM or more advised as
 * transparent huge pages. free() releases it. */
void *net_alloc_lines(size_t bytes, bool zero, bool huge);
/* Advise [p, p + bytes) as transparent huge pages if it is NET_HUGE_FROM
 * or more (a block grown by realloc: the packet records). */
void net_hint_huge(void *p, size_t bytes);
/* Output VC o's ring mask: the network's with bounded buffers (the ring
 * array's line not fetched), its own with unlimited ones (they grow). */
static inline __attribute__((always_inline)) uint32_t net_ob_mask(const struct net *n,
                                                                  const struct ovc *o)
{
    return n->obuf_unlimited ? n->ob_ring[o - n->ovcs].mask : n->ob_mask;
}
/* Flit f enters output VC o's buffer, which has room for it: into the
 * count (o->run) when the buffer is empty or holds only the count's flits,
 * of f's packet and not its tail; else into the ring. (An output VC
 * carries one packet's flits in order until its tail, so "no tail yet"
 * implies f's packet; the packet test is a guard.) */
static inline __attribute__((always_inline)) void net_ob_put(const struct net *n, struct ovc *o,
                                                              flit_t f)
{
    struct ob_run *u = &o->run;
    if (!o->ob_count) {
        u->f = f;
        u->held = 1;
        u->tail = 0;
    } else if (u->held == o->ob_count && u->f.pid == f.pid && !u->tail &&
               !(u->f.flags & FLIT_TAIL)) {
        u->held++;
        u->tail = f.flags & FLIT_TAIL; /* FLIT_TAIL or 0: net_ob_next's flags */
    } else {
        const struct ob_ring *g = &n->ob_ring[o - n->ovcs];
        g->ob[(o->ob_head + o->ob_count) & g->mask] = f;
    }
    o->ob_count++;
}
/* The front flit of output VC o's buffer (not empty). */
static inline __attribute__((always_inline)) flit_t net_ob_front(const struct net *n,
                                                                 const struct ovc *o)
{
    return o->run.held ? o->run.f : n->ob_ring[o - n->ovcs].ob[o->ob_head];
}
/* Flit k of output VC o's buffer (k < ob_count; audits and tests). */
static inline flit_t net_ob_at(const struct net *n, const struct ovc *o, uint32_t k)
{
    const struct ob_run *u = &o->run;
    if (k >= u->held) {
        const struct ob_ring *g = &n->ob_ring[o - n->ovcs];
        return g->ob[(o->ob_head + k) & g->mask];
    }
    if (!k)
        return u->f;
    return (flit_t){u->f.pid, (uint16_t)(u->f.seq + k),
                    (uint16_t)(k + 1 == u->held && u->tail ? FLIT_TAIL : 0)};
}
/* The front flit leaves output VC o's buffer: the count's part of it (the
 * caller moves ob_head and ob_count). */
static inline __attribute__((always_inline)) void net_ob_next(struct ovc *o)
{
    struct ob_run *u = &o->run;
    if (u->held) {
        u->f.seq++;
        /* the next is no head; it is the tail if it is the last held and that is */
        u->f.flags = (uint16_t)(--u->held == 1 ? u->tail : 0);
    }
}
void router_step(struct net *n, struct net_part *w, uint32_t r);
/* router_step compiled for this network's options (router.c). */
typedef void (*router_step_fn)(struct net *n, struct net_part *w, uint32_t r);
router_step_fn router_step_for(const struct net *n);
/* Whether the routers' cycle keeps n->vready (router_step_plain1, _rec). */
bool router_keeps_ready(const struct net *n);
bool router_loop_counts_arrivals(const struct net *n);
/* Whether the speedup-1 cycle without link records runs the torus's
 * instance (run_plain1_tor): every buffer bounded, every port counted in
 * the mobility, every link of n->link_latency. */
bool router_tor_loop(const struct net *n);
/* The speedup-1 loop's VC allocation of a single head, routed through
 * n->rops (n->alloc_vc1 unless the policy installs its own). */
bool router_alloc_vc1(struct net *n, struct net_part *w, uint32_t r, int p, int v);
/* Whether input VC (gp, v) should be in n->vready: it holds an output VC
 * that can take a flit now. */
static inline bool net_ready_ok(const struct net *n, uint32_t gp, uint32_t v)
{
    const struct ivc *iv = &n->ivcs[(size_t)gp * n->V + v];
    if (iv->state != IVC_ACTIVE)
        return false;
    const uint32_t gop = (n->ports[gp].rp >> 6) * (uint32_t)n->P + iv->out_port;
    const struct port *op = &n->ports[gop];
    return op->kind == PORT_LOCAL || op->out_unlimited ||
           n->ovcs[(size_t)gop * n->V + iv->out_vc].credits > 0;
}
/* The context of serial phases (between the parallel ones). */
static inline struct net_part *net_serial_part(struct net *n) { return &n->parts[0]; }
/* Records a failure of partition w. Of several in one cycle the one with
 * the smallest key is reported, whatever the number of partitions:
 * arrivals before routers, then by VC or router index. */
static inline uint64_t net_fail_key_arrival(uint32_t kind, size_t vc_index)
{
    return (uint64_t)(kind == EV_OBUF) << 61 | (uint64_t)vc_index;
}
static inline uint64_t net_fail_key_router(uint32_t r) { return 1ULL << 62 | r; }
void net_part_fail(struct net_part *w, uint64_t key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Appends an arrival entry for flit f to q: x names its input VC (global
 * input port << 6 | VC), the flit follows (three words). */
static inline __attribute__((always_inline)) void net_arrival_push_x(struct creditq *q, uint32_t x,
                                                                     flit_t f)
{
    if (__builtin_expect(q->n + 3 > q->cap, 0) && !net_creditq_grow(q)) {
        fprintf(stderr, "saturn: out of memory\n");
        abort();
    }
    uint32_t *e = &q->i[q->n];
    e[0] = x;
    e[1] = f.pid;
    e[2] = net_flit_word(f);
    q->n += 3;
}
/* Appends an arrival entry for flit f to input VC vc of port gp to q. */
static inline __attribute__((always_inline)) void net_arrival_push(struct creditq *q, uint32_t gp,
                                                                   uint32_t vc, flit_t f)
{
    net_arrival_push_x(q, gp << 6 | vc, f);
}
/* Flit f leaves on a bounded link towards input VC vc of global input
 * port gp, a port of partition w's own routers, and arrives at cycle
 * `when`: its arrival entry carries it (three words: gp << 6 | vc, then
 * the flit), and its delivery puts it into the VC (net_part_deliver, or
 * with output buffers net_fused_arrivals), so that the sender touches no
 * line of the next router (paper 004's network: two of a flit-hop's L2
 * misses; the torus pair: the next VC and its ring slot), and a VC holding
 * one packet's flits keeps them as a run (struct ivc) and its ring is
 * neither written nor read. The sender's credits guarantee the room; the
 * audit checks it (sim.check_invariants, every cycle in debug builds). */
static inline __attribute__((always_inline)) void net_send_deferred(struct net *n,
                                                                    struct net_part *w,
                                                                    uint64_t when, uint32_t gp,
                                                                    uint32_t vc, flit_t f)
{
    net_arrival_push(w->ar_at[when & n->wheel_mask], gp, vc, f);
}
/* The same from partition w to partition dw, through the long wheel
 * (blocks of cycles: a flit to another partition always arrives there,
 * struct net, wheel_shared), into the list of w's thread. */
static inline __attribute__((always_inline)) void
net_send_deferred_long(struct net *n, const struct net_part *w, struct net_part *dw,
                       uint64_t when, uint32_t gp, uint32_t vc, flit_t f)
{
    net_arrival_push(&dw->arrive_by[w->thread][when & n->wheel_mask], gp, vc, f);
}
/* The flit of a deferred arrival entry e (net_send_deferred). */
static inline flit_t net_deferred_flit(const uint32_t *e)
{
    return (flit_t){e[1], (uint16_t)e[2], (uint16_t)(e[2] >> 16)};
}
/* net_send_deferred into arrival queue aq (w->aq, that of this cycle's
 * sends over links of n->link_latency) over the link of output VC o of a
 * network without output buffers (struct ovc: far_arrival). */
static inline __attribute__((always_inline)) void
net_send_deferred_o(struct creditq *aq, const struct ovc *o, flit_t f)
{
    net_arrival_push_x(aq, o->far_arrival, f);
}
/* Partitions and threads (src/net/parallel.c, docs/PARALLEL.md):
 * `threads` partitions of whole words, or with blocks (block_max > 0) one
 * partition a word sharing one wheel, stepped by this thread. */
int net_partition_build(struct net *n, uint32_t threads);
void net_partition_free(struct net *n);
/* The sinks' lane of partition `part` in the wheel's queues (struct net,
 * wheel_shared). */
static inline uint32_t net_sink_lane(const struct net *n, uint32_t part)
{
    return n->nparts + (n->wheel_shared ? part : 0);
}
/* Partition w's columns of the wheel's tables for cycle w->now, which is
 * w->wheel_now + 1 (blocks, net/block.c). */
void net_wheel_turn_part(struct net *n, struct net_part *w);
/* The flits reaching partition src's nodes now (its sinks' lane). */
void net_deliver_sinks_part(struct net *n, uint32_t src);
/* Sources: the active nodes in [lo, hi) take their next flit (net_step's
 * last phase). own: the partition whose routers every node of the range
 * hangs from (a block's), NULL if they may hang from several. */
void net_inject_nodes(struct net *n, uint32_t lo, uint32_t hi, struct net_part *own);
/* Partition w's sources at its cycle (w->now), cycle j of a block: what
 * they started and sent counted into w (blk_started[j], blk_flits). */
void net_inject_part(struct net *n, struct net_part *w, uint32_t j);
/* Thread t's partitions step the open block (net/block.c). */
void net_block_thread(struct net *n, uint32_t t);
/* Cycles a block may take on this network, 0 if none (net/block.c:
 * whether the configuration allows blocks, the shortest delay between two
 * partitions of 64 routers). */
uint32_t net_block_plan(const struct net *n, const struct saturn_config *cfg);
int net_pool_start(struct net *n);
void net_pool_stop(struct net *n);
void net_pool_sync(struct net *n); /* a barrier of all threads (no-op without workers) */
/* The parallel phases of a cycle, run by each partition's thread. */
void net_part_deliver(struct net *n, struct net_part *w);
bool net_part_fuses(const struct net *n);
/* Flit f, sent by net_send_deferred to input VC v (port pt) of router r,
 * arrives: after the arrived flits (net_ivc_put), counted in, the port's
 * and router's masks set as an event's arrival sets them (output buffers:
 * the caller counts it in the router's occupancy, n->rocc). */
static inline __attribute__((always_inline)) void
net_obuf_count_in(struct net *n, uint32_t r, struct port *pt, struct ivc *iv, uint32_t v, flit_t f)
{
    net_ivc_put(iv, f, n->vc_runs);
    if (iv->count++ == 0) {
        const uint32_t p = pt->rp & 63;
        pt->nonempty |= 1ULL << v;
        n->rnvc[r] += (uint32_t)(n->mob_ports >> p) & 1;
        n->rports[r] |= 1ULL << p;
        n->rwait[r] |= 1ULL << p;
    }
}
/* Router r's arrivals of this cycle, listed by net_part_deliver when it
 * fuses them (w->fused), counted in now, as that phase counts them in
 * otherwise (deliver_arrivals_wait): just before the routers' loop steps r. */
static inline __attribute__((always_inline)) void net_fused_arrivals(struct net *n,
                                                                     struct net_part *w,
                                                                     uint32_t r)
{
    uint32_t k = n->arr_head[r];
    if (k == UINT32_MAX)
        return;
    n->arr_head[r] = UINT32_MAX;
    const uint32_t V = (uint32_t)n->V;
    const struct net_arrival *const fz = w->fz;
    uint32_t got = 0;
    do {
        const uint32_t x = fz[k].x, gp = x >> 6, v = x & 63;
        net_obuf_count_in(n, r, &n->ports[gp], &n->ivcs[(size_t)gp * V + v], v, fz[k].f);
        got++;
        k = fz[k].next;
    } while (k != UINT32_MAX);
    n->rocc[r] += got;
}
void net_part_routers(struct net *n, struct net_part *w); /* router.c */
/* A flit reaches its node (checks destination, order, uniqueness). */
void net_sink_flit(struct net *n, uint32_t node, flit_t f);
/* The serial rest of partition w's block of len cycles from t0: what its
 * sources started and sent (blk_started, blk_flits) into the counts, then
 * its sinks (w->sinks) delivered in the order they came, each at its cycle
 * (n->now); blk[j] gains what cycle j changed in the counts. */
void net_part_block_end(struct net *n, struct net_part *w, uint64_t t0, uint32_t len,
                        struct net_block_counts *blk);

#endif
