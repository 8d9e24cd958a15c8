/* The network state and the cycle loop: routers, links, credits, nodes.
 *
 * One parametric router (input-queued, V VCs of B flits per input port,
 * optional per-VC output buffers, credit flow control, separable
 * round-robin VC and switch allocation, internal speedup) under three
 * switching modes. Timing, for a flit that wins the switch at cycle s:
 *   - it reaches the next router's input buffer at s + xbar_delay + link_latency
 *     (or the node at s + xbar_delay + eject_latency);
 *   - its buffer slot is credited upstream at s + credit_delay;
 *   - a head at the front of an idle VC at cycle t is routed at t and may
 *     compete for a VC and the switch from t + route_delay on;
 *   - a source sends one flit per cycle, arriving at t + inject_latency.
 * Zero-load latency of an L-flit packet over H hops is therefore
 *   inject + (H+1)(route + xbar) + H link + eject + (L - 1)
 * when buffers cover the credit round trip (B >= xbar + link + credit). */
#ifndef SATURN_NET_H
#define SATURN_NET_H

#include <stdbool.h>
#include <stdint.h>

#include "control/control.h"
#include "core/rng.h"
#include "route/route.h"
#include "saturn/config.h"
#include "topo/topo.h"

#define NET_NONE UINT32_MAX
#define NET_BLOCK_PARTS 64 /* blocks' partitions at most (net/block.c) */
#define NET_NEAR 2 /* short timing wheels at most (struct net, near) */

enum switching { SW_WORMHOLE, SW_VCT, SW_UNLIMITED };

enum flit_flags { FLIT_HEAD = 1, FLIT_TAIL = 2 };

/* Nonminimal routing a packet took (Dragonfly): a global misroute (to an
 * intermediate group or router), a local misroute (an extra local hop). */
enum { PACKET_MISROUTED_GLOBAL = 1, PACKET_MISROUTED_LOCAL = 2 };

typedef struct flit {
    uint32_t pid;
    uint16_t seq;
    uint16_t flags;
} flit_t;

struct packet {
    uint32_t src, dst;
    uint32_t len;
    uint32_t rx;        /* flits received at the sink so far */
    uint16_t hops;      /* router-to-router hops of the head */
    uint8_t measured;
    uint8_t alive;
    uint8_t injected;   /* head has entered the injection channel */
    uint8_t marked;     /* present at the start of the entropy window */
    uint16_t hops_mark; /* hops at the start of the entropy window */
    uint16_t slice;     /* which slice of a sliced collective (chart colour) */
    uint8_t misroute;   /* PACKET_MISROUTED_* bits: nonminimal hops it took */
    uint32_t route[2];  /* routing policy scratch */
    uint64_t t_gen;     /* generated (enters the source queue) */
    uint64_t t_inj;     /* head enters the injection channel */
    uint64_t t_out;     /* head reached its current output (packet-order arbitration) */
};

/* IDLE: no head seen yet. WAIT: a head waits for the central arbiter
 * (router.arbiter = central). ROUTING: routed, in its routing delay. VA:
 * asking for an output VC. ACTIVE: holds one. RECOVER: its packet leaves
 * through the deadlock-recovery lane (src/route/disha_lane.c). */
enum ivc_state { IVC_IDLE, IVC_WAIT, IVC_ROUTING, IVC_VA, IVC_ACTIVE, IVC_RECOVER };

/* An input VC: the fields every cycle touches (32 bytes: a VC never
 * straddles two cache lines). */
struct ivc {
    flit_t *buf;        /* ring, capacity mask + 1 */
    union {
        uint32_t head;  /* the front's slot in the ring */
        uint32_t run_pid; /* in a run (IVC_RUN): the packet of every flit held */
    };
    uint32_t count, mask;
    uint8_t state;
    uint8_t out_vc;
    uint16_t out_port;
    union {
        uint32_t ready; /* IVC_ROUTING: the low 32 bits of the cycle routing is done, here
                           and not in struct ivc_route so that a head in its routing
                           delay costs no look there; the router looks at it every
                           cycle, so comparing it wrapping (router_step) is exact */
        uint32_t ovc;   /* IVC_ACTIVE: its output VC's index in n->ovcs, noted by every VC
                           allocator (alloc_vcs, alloc_vc1_as, va_alloc_islip) for the
                           speedup-1 cycle's crossings (xfer_plain1) */
    };
    uint32_t run;       /* 0: the flits are in the ring; or IVC_RUN: the count flits held
                           are packet run_pid's from sequence number (run & 0xffff) on, in
                           order, not in the ring (an arrival over a bounded link: its entry
                           carries the flit, net_send_deferred; net_ivc_put, net_ivc_front,
                           net_ivc_shift) */
};
/* struct ivc's run: the flits are held as a count; the last of them is its
 * packet's tail (FLIT_TAIL's place in net_flit_word). A run's flits carry
 * FLIT_HEAD exactly when their sequence number is 0 (net_ivc_put). */
#define IVC_RUN 0x80000000u
#define IVC_RUN_TAIL ((uint32_t)FLIT_TAIL << 16)
_Static_assert(sizeof(struct ivc) == 32, "struct ivc is 32 bytes");

/* An input VC's routing state, touched once per packet: one cache line
 * (line-aligned allocation), as a packet-hop of a network beyond the caches
 * misses on it. When the head was first routed (disha.timeout_from =
 * routed) is kept apart, in n->ivc_routed, written only where it is read. */
struct ivc_route {
    uint32_t saved_route[2]; /* the packet's routing fields when its head reached the */
    uint8_t saved_misroute;  /* front: restored before it is routed again (routing.reroute) */
    uint16_t va_acc_rr; /* router.vc_alloc = islip: this input VC's accept pointer */
    uint32_t len;       /* the head's packet length, kept for VC allocation */
    uint64_t t_front;   /* the head reached the front of the VC (blocked time) */
    uint32_t pid;       /* the head's packet (audits and tests; stale once IDLE) */
    struct route_result route;
};
_Static_assert(sizeof(struct ivc_route) == 64, "struct ivc_route is one cache line");

/* The first flits of an output VC's buffer held as a count, not in its
 * ring (struct ovc, run): the flits of one packet that found the buffer
 * empty, and those of the same packet after them while nothing else is
 * queued. The buffer's ob_head and ob_count count them as if they were in
 * the ring (its first slots: never written, never read), so positions
 * (ob_up) stay as they were. A packet crossing an idle output then touches
 * only its output VC's line, not a ring line of its own (net_ob_put,
 * net_ob_front, net_ob_next). */
struct ob_run {
    flit_t f;       /* the front flit, as it leaves (when held > 0) */
    uint16_t held;  /* flits held so (of one packet: <= traffic.packet_length <= 65535):
                       the buffer's first held (0: the front is in the ring) */
    uint16_t tail;  /* FLIT_TAIL if the last of them is its packet's tail and came after
                       the first (f carries it when it is the first), else 0 */
};
_Static_assert(sizeof(struct ob_run) == 12, "struct ob_run is 12 bytes");

/* An output buffer's ring (n->ob_ring, one an output VC with output
 * buffers): touched only when a second packet queues behind the first. */
struct ob_ring {
    flit_t *ob;
    uint32_t mask;  /* slots - 1 (with bounded buffers n->ob_mask, the same for all) */
};

/* An output VC (32 bytes, cache-line aligned allocation: one never
 * straddles two lines). */
struct ovc {
    int32_t credits;    /* free slots downstream (unused when unlimited) */
    int16_t owner;      /* router-local input VC index holding it (< P * V <= 4096), or -1 */
    uint16_t va_rr;     /* VC allocator round-robin pointer */
    /* output buffer (router.out_buf_flits > 0; its ring in n->ob_ring);
     * without output buffers (obuf_on false) a network port's VC keeps its
     * flits' arrival entry's first word in run's place, for the torus's
     * crossings on one partition (onto_link, net_send_deferred_o) */
    int32_t ob_space;   /* free slots, less flits still in the crossbar */
    uint32_t ob_head;
    uint32_t ob_count;
    union {
        struct ob_run run;
        uint32_t far_arrival;
    };
};
_Static_assert(sizeof(struct ovc) == 32, "struct ovc is 32 bytes");

/* Where the credits of an input port's slots go, made once at creation
 * (the hot path's net_ivc_credit_now): ctr, the counter of its VC 0 (up *
 * V, or node * V | NET_CREDIT_NODE: VC v's is ctr + v), and cls, the
 * port's credit class, its (credit_lat, up_part) pair among the network's
 * (n->ccls), whose queue for the current cycle the routers' phase keeps
 * in w->cq. Only for ports with bounded buffers (cap != 0). It sits in
 * struct port: a crossing reads its input port's line anyway (cap), where a
 * table of its own was one more L2 miss a flit-hop on paper 004's network. */
struct port_credit {
    uint32_t ctr;
    uint32_t cls;
};

enum port_kind { PORT_NONE, PORT_NET, PORT_LOCAL };

struct port {
    uint64_t nonempty;  /* input VCs holding flits */
    uint64_t active;    /* input VCs holding an output VC (IVC_ACTIVE) */
    uint64_t ob_nonempty; /* output VCs with flits in their output buffer */
    uint32_t far_in;    /* output side: global input port downstream */
    uint32_t up;        /* input side: global output port upstream, or the node */
    uint32_t cap;       /* input side: flits per VC, 0 = unlimited */
    uint32_t rp;        /* the router this port belongs to << 6 | its index there (an
                           arrival takes both without a multiplication: net_create keeps
                           routers below 2^26) */
    uint16_t latency;   /* output side: link latency */
    uint16_t credit_lat; /* input side: cycles for a credit to reach the sender */
    uint8_t nvc;        /* VCs this port's link class has (<= V) */
    uint8_t cls;        /* enum topo_link_class of a network port */
    uint8_t kind;       /* enum port_kind */
    uint8_t out_unlimited; /* downstream never runs out of space */
    uint8_t sa_in_rr, sa_out_rr, ob_rr;
    uint8_t sa_acc_rr;  /* input side, router.sw_alloc = islip: the accept pointer */
    uint16_t far_part;  /* output side: the partition owning far_in's router */
    uint16_t up_part;   /* input side: the partition owning up's router (or the node's) */
    struct port_credit credit; /* input side: where its slots' credits go */
};
/* One cache line a port (the allocation is aligned to it): the router's
 * cycle reads the ports of every active router, so a port that straddled
 * two lines cost two misses on a network beyond the caches. Fields only
 * the rarer options use live in struct port_rare. */
_Static_assert(sizeof(struct port) == 64, "struct port is one cache line");

/* A port's fields for the options RM_ANY alone handles (router.c), and the
 * entropy circuit's last_send. */
struct port_rare {
    uint64_t stolen;    /* output side: cycle + 1 in which a hook (the recovery lane) uses the link */
    int32_t link_hold;  /* output side, packet order: the VC (network port) or router-local
                           input VC (ejection) whose packet holds the output, or -1 */
    int16_t hold_vc;    /* router.sw_hold, input side: the VC whose packet holds this input's
                           crossbar match, or -1 */
    int16_t hold_in;    /* router.sw_hold, output side: the input port holding it, or -1 */
    uint64_t last_send; /* output side: last cycle a data flit took the link, + 1; read only
                           by the entropy circuit's free-link test (global_sum.c), which sets
                           n->router_mob: written only then (onto_link's ls) */
};

/* A source: its queue and the packet it injects. One cache line (line-
 * aligned allocation) with all that a flit's injection reads but its
 * credit, and the queue's first slots: on a network beyond the caches a
 * sending node then misses on this line, not also on its packet's, its
 * port's and its queue's. Its random stream, read only as a packet is
 * born, is apart (n->node_rng). */
#define NODE_QIN 4 /* queue slots in the node itself (q_in), until the queue outgrows them */
struct node {
    _Alignas(64) uint32_t *q; /* source queue of packet ids, ring: q_in, or on the heap once
                                 it grew */
    uint32_t qhead, qcount, qmask;
    uint32_t cur;       /* packet being injected, or NET_NONE */
    uint32_t cur_seq;
    uint32_t cur_len;   /* its length (its packet's line is read at its head only) */
    uint32_t gp;        /* the global input port it injects into (made once: the topology's
                           answer costs a division) */
    uint8_t cur_vc, last_vc;
    uint32_t q_in[NODE_QIN];
};
_Static_assert(sizeof(struct node) == 64, "struct node is one cache line");

enum ev_kind { EV_FLIT, EV_OBUF, EV_SINK };

/* target: a global port (EV_FLIT: input side; EV_OBUF: output side) or a
 * node (EV_SINK); vc: the VC at that port. Credits travel apart (struct
 * creditq). */
struct event {
    uint32_t target;
    uint16_t vc;
    uint16_t kind;
    flit_t f;
};

struct evq {
    struct event *e;
    uint32_t n, cap;
};

/* Credits on their way back, apart from the events: a credit only adds
 * one to a counter, so it travels as that counter's index, 4 bytes, and
 * arrives with one increment. An entry is an output VC (global port *
 * V + vc), or with NET_CREDIT_NODE a node's injection VC (node * V + vc). */
#define NET_CREDIT_NODE 0x80000000u
struct creditq {
    uint32_t *i;
    uint32_t n, cap;
};

/* One partition of the routers (sim.threads): a contiguous block of
 * whole 64-router words, stepped by one thread. Everything a router's
 * cycle writes outside its own routers goes here and is merged in
 * partition order, which is router order: the result does not depend on
 * how many partitions there are (docs/PARALLEL.md). */
struct net_part {
    uint32_t r_lo, r_hi;  /* routers [r_lo, r_hi) */
    uint32_t index;
    /* Events this partition sends, by arrival slot (struct net, near) and
     * destination: wheel[slot * nq + d], d < nparts a partition, d ==
     * nparts the sinks (delivered serially, in partition order). */
    struct evq *wheel;
    /* Credits this partition returns, by arrival slot and destination
     * partition: credit[slot * nparts + d]. */
    struct creditq *credit;
    /* The queue of each credit class (n->ccls) for credits sent in this
     * cycle: cr_at[((now + credit_lat) & wheel_mask) * nparts + up_part],
     * set as the routers' phase starts (net_credit_queues). */
    struct creditq **cq;
    /* Arrivals without events: flits this partition sent to input VCs of
     * its own routers over bounded links, listed by arrival slot, each as
     * (global input port << 6 | VC) and the flit (three words:
     * net_send_deferred), put into their VCs when they arrive. */
    struct creditq *arrive;
    /* Where a push goes (net_internal.h): for x = when & wheel_mask, the
     * queue of cycle `when` among now .. now + wheel_mask, in the long
     * wheel (slot x) or for the near cycles from now a short one
     * (struct net, near): ev_at[x * nq + d] = &wheel[slot * nq + d],
     * cr_at[x * nparts + d] = &credit[slot * nparts + d], ar_at[x] =
     * &arrive[slot]. A push then costs what it cost with one wheel: a
     * load of the queue's address instead of its computation. One entry
     * a wheel changes a cycle (net_wheel_turn). */
    struct evq **ev_at;
    struct creditq **cr_at, **ar_at;
    /* The arrivals' queue of this cycle's sends over links of n->link_latency
     * (ar_at[(now + xbar_delay + link_latency) & wheel_mask]), set with cq
     * (net_credit_queues): the torus's loop (n->lat_uniform) takes it as it is. */
    struct creditq *aq;
    uint32_t direct;      /* the far_part of ports whose flits take that path: index, or
                             UINT32_MAX (none) when a port number does not fit in 26 bits */
    void *va_scratch;     /* router_step's requests: P * V entries */
    uint8_t *sa_scratch;  /* router_step's switch requests: P * P */
    uint16_t *va_best;    /* router.vc_alloc = islip: each output VC's grant (P * V, 0xffff: none) */
    /* This cycle's arrivals without events, listed by router when they are
     * counted in by the routers' loop rather than by net_part_deliver
     * (fused, net_part_fuses): x as in arrive, next the router's next
     * (UINT32_MAX: none). */
    struct net_arrival { uint32_t x, next; flit_t f; } *fz;
    uint32_t fz_n, fz_cap;
    bool fused;           /* this cycle's arrivals wait in fz for the routers' loop */
    uint64_t flit_hops, last_move, cyc_nv, cyc_na; /* merged into net each cycle */
    uint64_t trace_rows;  /* the chart's rows this partition wrote (merged: max) */
    bool failed;
    uint64_t fail_key;    /* net_fail_key_*: which failure is reported */
    char fail_msg[512];
    struct net *net;      /* for the worker thread */
    uint32_t thread;      /* the thread that steps it (struct net, thr_lo) */
    /* The cycle its routers, arrivals and sources are at: n->now, but in a
     * block of cycles (net/block.c), where the partitions of several
     * threads run different cycles at once. The partitions' phases read
     * this, never n->now. */
    uint64_t now;
    uint32_t n_lo, n_hi;  /* blocks (net/block.c): the nodes of its routers, [n_lo, n_hi) */
    uint64_t wheel_now;   /* blocks: the cycle its columns of ev_at, cr_at, ar_at are for */
    /* Blocks on several threads: arrive_by[t] (t < n->nthreads) is the
     * arrivals' list, by slot, that the partitions of thread t send to this
     * one (net_send_deferred_long); arrive_by[thread] is `arrive`. Read in
     * thread order, they are read in the order one thread sends them. */
    struct creditq **arrive_by;
    /* A block's record of what is left to the serial phase after it
     * (net/block.c): the flits that reached its nodes, in the order they
     * came, as their sink events with the block's cycle in vc (the sinks
     * wait for the block's end), the packets its sources started in each
     * cycle and the flits they sent. */
    struct evq sinks;
    uint32_t *blk_started;  /* block_max entries */
    uint64_t blk_flits;
};

struct net_pool; /* the worker threads and their barrier (parallel.c) */

typedef void (*net_deliver_fn)(void *user, struct net *n, uint32_t pid);

struct net_hook_ops; /* side machinery on engine hooks (below) */
#define NET_MAX_HOOKS 4

struct net {
    struct topo topo;
    int P, V;           /* ports per router, VCs per port (data VCs + the meta VC) */
    int Vd;             /* data VCs (router.vcs): 0 .. Vd-1; routing, injection and the
                           controllers use only these. Vd == V without metapackets */
    uint64_t meta_bit;  /* 1 << Vd with metapackets (the meta VC's bit in a VC mask), else 0 */
    uint64_t data_mask; /* ~meta_bit: the data VCs of a VC mask */
    uint64_t meta_in_net; /* side-VC (metapacket) flits in VC buffers or on links (audit) */
    enum switching switching;
    int speedup, out_speedup;
    bool ob_credits;        /* router.obuf_credits = downstream: a flit takes the next
                               router's credit when it enters the output buffer, and its input
                               slot is credited upstream when it leaves (ob_up) */
    int xbar_rate;          /* router.xbar_rate: flits a switch grant moves from an input VC
                               into its output buffer (network outputs; 1 elsewhere) */
    uint32_t route_delay, xbar_delay, credit_delay;
    uint32_t link_latency, inject_latency, eject_latency;
    uint32_t buf_cap, obuf_cap; /* buf_cap: injection and (local) network input VCs */
    uint32_t global_cap;    /* dragonfly: global input VCs */
    int inj_vcs;            /* VCs of an injection port (router.vcs) */
    bool inj_vc_dst;        /* router.inject_vc = destination: a packet's injection VC is
                               fixed by its destination (FOGSim's generator) */
    int local_vcs, global_vcs; /* VCs of local / global network ports (torus: both Vd) */
    uint32_t global_latency; /* dragonfly: global link and credit latency (local: link_latency) */
    bool obuf_on;           /* output buffers present (obuf_cap > 0 or unlimited) */
    bool obuf_unlimited;
    bool packet_links;      /* outputs carry whole packets, FIFO by arrival (router.output_order) */
    bool atomic_vc;         /* an output VC is reallocated only once drained downstream */
    bool central;           /* one central arbiter per router routes one head at a time */
    bool meta_arb_priority; /* the central arbiter serves metapacket heads first */
    bool arb_requeue;       /* a refused head queues for the central arbiter again */
    bool sw_islip;          /* router.sw_alloc = islip: switch allocation by 1-iteration iSLIP */
    bool va_islip;          /* router.vc_alloc = islip: VC allocation by 1-iteration iSLIP */
    bool transit_first;     /* router.transit_priority: an output serves inputs from other
                               routers before the router's injection ports */
    bool huge_pages;        /* sim.huge_pages: the large arrays in transparent huge pages
                               (net_alloc_lines; a hint, no result depends on it) */
    bool vc_runs;           /* sim.vc_runs: an input VC keeps a packet's flits arrived over a
                               bounded link as a run (struct ivc, run), not in its ring; set
                               when the routers' state and rings are beyond a core's L2
                               (build_buffers; a hint, no result depends on it) */
    bool prefetch_next;     /* the torus's and the output-buffered loops prefetch the next
                               active router's ports and VCs: set when they are larger than a
                               core's L2 (net_create) */
    bool sw_hold;           /* router.sw_hold: a packet keeps its input-output match in the
                               switch while its next flit can cross (port_rare.hold_*) */
    bool va_stage;          /* router.va_stage: an output VC freed in cycle t is allocated
                               from t + 2 */
    bool reroute;           /* routing.reroute: a head waiting for a VC is routed again */
    bool bounded;           /* every input port in use has bounded buffers (cap != 0): no
                               output is unlimited but the ejection ports (the torus's
                               loop, router.c, tests neither) */
    bool lat_uniform;       /* every network output's link has link_latency cycles (the
                               torus's loop takes this cycle's arrival queue as it is: w->aq) */
    uint16_t *arb_rr;       /* central arbiter: round-robin pointer per router */
    uint64_t *arb_free;     /* central arbiter: first cycle it is free, per router */
    struct net_hook { const struct net_hook_ops *ops; void *state; } hooks[NET_MAX_HOOKS];
    int nhooks;             /* side machinery attached (net_hook_add) */
    const struct net_hook *side; /* the hook that routes side-VC packets, if any */
    bool hook_delivered;    /* some hook counts delivered flits */
    bool links_taken;       /* a hook takes links (net_hook_take_link): ports' `stolen` */
    uint64_t lane_flits;    /* flits a hook holds outside the buffers (audit) */
    uint64_t watchdog;
    uint32_t source_limit;  /* traffic.source_queue: packets waiting per source, 0 = no limit */

    struct port *ports;     /* routers * P, 64-byte aligned */
    uint64_t *vready;       /* routers * P when the routers run router_step_plain1 from the
                               start (router.c, router_keeps_ready; with link records,
                               router_step_plain1_rec keeps it), else NULL: per input
                               port, the VCs holding an output VC that can take a flit now
                               (an ejection or unbounded output, or one with credits); set
                               by VC allocation and credit arrivals, cleared by the crossing
                               (net_ready_ok states it; the audit checks it) */
    uint64_t *va_hp;        /* with vready, per router: the input ports whose va_hope holds */
    uint64_t *va_hope;      /* with vready, per input port (routers * P), where va_hp holds:
                               its waiting heads (IVC_VA) that found every output VC of their
                               route owned at their last VC allocation (RM_PLAIN, no
                               routing.reroute), and none of those VCs freed since:
                               allocation would fail them again, so it skips them
                               (plain1_step, alloc_vcs). Noted by alloc_vcs; the port's va_hp
                               bit is cleared when an output VC naming it in va_on frees (a
                               tail's crossing: xfer_plain1), all the router's by a hook
                               seizing a VC and by any other cycle than the speedup-1 one */
    uint64_t audit_noted;   /* heads the audit (sim.check_invariants) found noted in va_hope,
                               summed over the cycles it ran: the tests' view of the notes */
    int64_t *audit_scratch; /* the audit's tallies (net_audit: 3 * routers * P * V + nodes * V),
                               allocated at its first call and kept: a debug build audits every
                               cycle, and four callocs a cycle (with the step looked up per
                               VC) were 15 % of an ASan run's time */
    uint64_t *va_on;        /* with vready, per output VC (routers * P * V): the input ports
                               of its router with a head in va_hope that asks for it (a
                               superset: a port woken, or whose head left, may stay) */
    struct port_rare *prare; /* routers * P */
    uint32_t *ccls;         /* credit classes: credit_lat << 16 | up_part, nccls of them */
    uint32_t nccls;
    struct ivc *ivcs;       /* routers * P * V */
    struct ivc_route *iroute; /* routers * P * V, cache-line aligned */
    uint64_t *ivc_routed;   /* routers * P * V, only with disha.timeout_from = routed (the
                               recovery lane allocates it, the net frees it): the cycle the
                               head at the VC's front was first routed */
    struct ovc *ovcs;       /* routers * P * V */
    uint32_t *ovc_freed;    /* routers * P * V, router.va_stage only: the low bits of the
                               cycle the output VC's last tail crossed */
    flit_t *slab;           /* bounded input VC buffers */
    flit_t *ob_slab;        /* bounded output VC buffers */
    struct ob_ring *ob_ring; /* routers * P * V with output buffers: their rings */
    uint32_t ob_mask;       /* bounded output buffers: every ring's slots - 1 */
    uint32_t *ob_up;        /* router.obuf_credits = downstream: per ob_slab slot, the global
                               input VC its flit came from (credited upstream on departure) */

    uint32_t nnodes;
    struct node *nodes;
    struct rng *node_rng;   /* per node: the stream its births draw from (traffic, at_source) */
    int32_t *inj_credits;   /* nodes * V */
    uint64_t *node_active;  /* bitmap: nodes with something to send */

    struct packet *pk;      /* line-aligned, in pk_block */
    void *pk_block;
    uint32_t pk_cap, pk_live;
    uint32_t *pk_free;
    uint32_t pk_nfree;
    uint32_t pk_len_max; /* the longest packet made so far (net_packet_new): a VCT head
                            with this many credits needs no look at its record (link_ready) */

    /* The timing wheel: what arrives at cycle t (events, credits, arrivals)
     * is queued in a slot of the arrays above (struct net_part). A delay
     * below near[k] (the smallest such k) takes short wheel k, of near[k]
     * slots from near_base[k]: the local links' delay, and the shortest ones
     * (injection, ejection, the crossbar); the others (a Dragonfly's
     * 100-cycle global links) the long wheel of wheel_mask + 1. A slot is
     * written and read once a turn of its wheel, and a short turn keeps its
     * queues in the cache, which on a network beyond the caches a 128-slot
     * turn does not. nnear is 0 (one wheel) where the delays are alike. */
    uint32_t wheel_mask;     /* the long wheel: slots 0 .. wheel_mask */
    uint32_t nnear;          /* short wheels, at most NET_NEAR */
    uint32_t near[NET_NEAR]; /* their slots, ascending powers of 2, each a quarter of the next's
                                or less */
    uint32_t near_base[NET_NEAR]; /* their first slot (after the long wheel's, the longest first) */
    uint32_t slots;          /* wheel_mask + 1 + the near[k]: the slots of each queue array */
    uint64_t wheel_now;      /* the cycle the partitions' ev_at, cr_at, ar_at are for */
    uint32_t nparts, nq;     /* partitions (sim.threads, at most one per 64 routers; or blocks'
                                partitions, below); nq = nparts + 1, or 2 nparts with a shared wheel */
    uint32_t nthreads;       /* threads stepping the partitions (sim.threads as run) */
    uint32_t max_delay;      /* the longest delay an event is sent with (the long wheel's size) */
    struct net_part *parts;
    uint16_t *word_part;     /* router word (r / 64) -> partition */
    uint32_t *thr_lo;        /* nthreads + 1: thread t steps partitions [thr_lo[t], thr_lo[t+1]) */
    struct net_pool *pool;   /* NULL with one partition */
    bool mid_phase;          /* this cycle has serial work between arrivals and routers */
    /* Blocks of cycles (net/block.c, sim.block_cycles): on one thread, the
     * routers in partitions of 64 (whole words), each partition stepped up
     * to block_max cycles in a row before the next, where no event or
     * credit between two partitions arrives sooner. The partitions share
     * one wheel (wheel_shared: every partition's queues to partition d are
     * one queue, filled in the order the partitions run, which is the
     * order they are read in; partition d's sinks have lane nparts + d);
     * a partition turns only its own columns of the wheel's tables, the
     * others take the long wheel always. */
    uint32_t block_max;      /* 0: cycle by cycle */
    bool wheel_shared;
    bool in_block;           /* a block is open: births for its cycles may come early (inject_node) */
    int32_t blk_at;          /* the block's cycle births are being made for (-1: none yet) */
    uint32_t blk_len;
    uint64_t blk_t0;
    struct net_block_counts {
        int64_t packets_in_net, queued_packets, backlog_flits;
    } *blk,                  /* block_max entries: the counts after each of the block's cycles */
        blk_snap,            /* (the counts as a birth cycle began) */
        blk_base;            /* (the counts as the block opened) */

    uint64_t *router_active; /* bitmap */
    uint32_t *rocc;          /* with output buffers (obuf_on) only: flits held by each router
                                (input VCs, the crossbar, output buffers); without them
                                n->rports says whether a router holds flits
                                (net_router_holds) and rocc stays 0 */
    uint32_t *arr_head;      /* with output buffers (obuf_on), per router: its first arrival
                                of this cycle in its partition's list (struct net_part, fz),
                                or UINT32_MAX; the routers' loop counts them in as it steps
                                the router (net_part_fuses) */
    uint64_t *rports;        /* per router: input ports holding flits */
    uint64_t *rwait;         /* with output buffers (obuf_on), per router: input ports
                                that may hold a waiting head (VCs with flits and no output
                                VC: nonempty & ~active), a superset: set where a VC starts
                                holding flits and where a tail leaves a VC holding more (or
                                a head gives its output VC back), cleared by VC allocation
                                for the ports it finds without one; RM_PLAIN_OBUF's VC
                                allocation looks at these ports only (router.c). Networks
                                without output buffers do not keep it */
    uint64_t *robuf;         /* per router: output ports with flits in output buffers */
    struct rng *router_rng;

    const struct route_ops *rops;
    void *rstate;
    /* The speedup-1 loop's VC allocation of a single head: the policy's
     * instance with its route inline (route_ops.alloc_vc1), else the
     * engine's (router_alloc_vc1), which routes through rops */
    route_alloc_vc1_fn alloc_vc1;

    /* Optional link records (NULL: off): per global output port, the first
     * and last cycle a flit took the link (+1; 0 = never) and its busy
     * cycles; and the link-by-time chart. */
    uint64_t *link_first, *link_last, *link_busy;
    uint64_t *xbar_last;    /* per output port, the last cycle a flit crossed the switch
                               into it, + 1: only for a routing that reads it
                               (route_ops.reads_crossings), else NULL */
    uint64_t *node_span;    /* per node: first and last cycle (+1) a flit took its injection
                               channel, then its ejection channel (4 entries; with the links) */
    struct net_trace *trace;

    const struct ctl_ops *ctl; /* injection control (src/control) */
    void *ctl_state;
    const uint64_t *ctl_gate;  /* NULL, or the controller's gate (ctl_ops.observe): per node,
                                  may_start's answer is now >= ctl_gate[node] and it need
                                  not be called */

    /* Mobility (paper 000): per router and cycle, Nv = counted input VC
     * buffers holding a flit when the router's cycle starts, Na = those of
     * them that sent a flit in it. Counted buffers: mob_ports. */
    uint64_t mob_ports;
    uint32_t *rnv, *rna;     /* per router: Nv and Na of its last cycle (with rstamp), */
    bool router_mob;         /* written only when this is set (a reader asked: gsum_init) */
    uint32_t *rnvc;          /* per router: counted input VCs holding flits now (Nv as the
                                cycle starts, kept up to date as VCs fill and empty) */
    uint64_t *rstamp;        /* cycle of rnv/rna + 1; older means 0 */
    uint64_t cyc_nv, cyc_na; /* sums over routers, current cycle */
    net_deliver_fn deliver;
    void *deliver_user;

    uint64_t now;
    uint64_t flits_in_net;   /* injected into the channel, not yet at the sink */
    uint64_t packets_in_net; /* head injected, tail not yet delivered */
    uint64_t queued_packets; /* waiting in source queues (not started) */
    uint64_t queued_flits;   /* flits at sources not yet in the injection channel */
    uint64_t flits_ejected, flits_injected, flit_hops, packets_delivered;
    uint64_t flits_generated;
    uint64_t last_move;
    bool check;              /* full invariant audit every cycle */
    bool failed;
    char fail_msg[512];
};

/* The link-by-time chart being recorded (saturn/trace.h cells). */
struct net_trace {
    uint32_t links;
    uint32_t *link_of_port; /* global output port -> chart column, or NET_NONE */
    uint8_t *cell;          /* rows x links */
    uint64_t rows, cap_rows;
};

/* Side machinery on engine hooks. A few optional mechanisms run beside the
 * routers without the engine knowing what they are: the Disha recovery
 * lane (src/route/disha_lane.c, attached by the disha routing through
 * route_ops.attach) and metapacket gathering (src/control/metapacket.c,
 * attached by the gather controllers). Each registers its operations and
 * state; net_step calls them at fixed points of the cycle, in the order
 * they were attached, and net_destroy frees them. They move flits only
 * through the net_hook_* primitives below. */
struct net_hook_ops {
    const char *name;
    /* Start of the cycle, before the arrivals (samples what the last cycle
     * left). Optional. */
    void (*cycle_start)(struct net *n, void *state);
    /* After the arrivals, before the routers; serial. Optional. */
    void (*before_routers)(struct net *n, void *state);
    /* A data flit reached node `node`. Optional. */
    void (*node_delivered)(struct net *n, void *state, uint32_t node);
    /* The output port of side-VC packet pid (the extra VC Vd the
     * configuration reserved, net.h meta_bit). Optional; one hook at most. */
    int (*side_port)(const struct net *n, const void *state, uint32_t pid);
    void (*destroy)(void *state);
};
/* Registers hook ops with its state (owned by the net from now on: freed
 * by ops->destroy, also when this fails). */
int net_hook_add(struct net *n, const struct net_hook_ops *ops, void *state,
                 struct saturn_error *err);
/* The state ops was attached with, or NULL. */
void *net_hook_state(const struct net *n, const struct net_hook_ops *ops);
/* Primitives for hooks (serial phases only). */
/* Takes the front flit of input VC (p, v) of router r out of the router
 * (its credit goes upstream as when the switch moves it); a seized VC
 * (net_hook_seize) is idle again once its tail is taken. */
flit_t net_hook_pop(struct net *n, uint32_t r, int p, int v);
/* The head of input VC (p, v) leaves the routers' hands: the VC is left to
 * the hook (IVC_RECOVER), an output VC it held without entering is freed. */
void net_hook_seize(struct net *n, uint32_t r, int p, int v);
/* The hook's flit takes output port gop's link in this cycle (the
 * router's own flits cannot); hop: it counts as a flit hop. */
void net_hook_take_link(struct net *n, uint32_t gop, flit_t f, bool hop);
/* f leaves through ejection output port gop, delay cycles from now. */
void net_hook_eject(struct net *n, uint32_t gop, flit_t f, uint32_t delay);
/* Puts side-VC flit f into router r's local input port, as its node would
 * inject it. false (and the run failed) when out of memory. */
bool net_hook_put_side(struct net *n, uint32_t r, flit_t f);
/* The run fails with this message (reported by net_step). */
void net_hook_fail(struct net *n, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

int net_create(struct net *n, const struct saturn_config *cfg, uint64_t seed,
               struct saturn_error *err);
void net_destroy(struct net *n);

/* A new packet from src to dst of len flits, generated now, appended to
 * src's source queue. Returns its id. */
uint32_t net_packet_new(struct net *n, uint32_t src, uint32_t dst,
                        uint32_t len, bool measured);
static inline struct packet *net_packet(struct net *n, uint32_t pid) { return &n->pk[pid]; }

/* Advance one cycle. SATURN_EDEADLOCK when the watchdog fires,
 * SATURN_EINTERNAL when an invariant breaks (message in fail_msg). */
int net_step(struct net *n);

/* Blocks of cycles (net/block.c). net_block_len: how many cycles from
 * now may run as one block, ending at or before `until` (0 or 1: step
 * cycle by cycle). A caller then opens the block (net_block_open), makes
 * the births of each of its cycles j in turn after net_block_at(n, j)
 * (which sets n->now to that cycle), and runs it (net_block_run: n->now is
 * then the cycle after it, the network as cycle by cycle would have left
 * it, but for packet ids; n->blk[j] the counts after cycle j, n->cyc_nv
 * and cyc_na the block's sums). */
uint32_t net_block_len(const struct net *n, uint64_t until);
void net_block_open(struct net *n, uint32_t len);
void net_block_at(struct net *n, uint32_t j);
int net_block_run(struct net *n);

/* Whether the node, asked about a new packet, would start it were its gate
 * open: it has one waiting and an injection VC can take it. */
bool net_can_start(const struct net *n, uint32_t node);
/* Total flits queued at sources (not yet injected). */
uint64_t net_source_flits(const struct net *n);
/* Writes "which VC waits on which" to buf. */
void net_deadlock_report(const struct net *n, char *buf, size_t size);
/* Full audit: conservation and credit invariants. false + fail_msg on error. */
bool net_audit(struct net *n);

/* Records link use from now on (first/last/busy per link; the chart too
 * when chart is true). */
int net_record_links(struct net *n, bool chart);
/* Trace helpers for the router (cheap no-ops when recording is off). */
void net_trace_cell(struct net *n, struct net_part *w, uint32_t gop, uint8_t value);

extern const struct saturn_param router_params[];

#endif
