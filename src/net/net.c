/* Network construction, packets, sources, sinks, the event wheel and the
 * cycle loop. The router's own cycle is in router.c. */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/net.h"
#include "net/net_internal.h"
#include "core/packet_flits.h"

static const char *const switching_names[] = {"wormhole", "vct", "unlimited", NULL};
static const char *const buffer_sets[] = {"all", "network", NULL};
static const char *const output_orders[] = {"flit", "packet", NULL};
static const char *const arbiters[] = {"separable", "central", NULL};
static const char *const sw_allocs[] = {"input_first", "islip", NULL};
static const char *const obuf_credit_names[] = {"own", "downstream", NULL};
static const char *const vc_allocs[] = {"separable", "islip", NULL};
static const char *const inject_vc_names[] = {"round_robin", "destination", NULL};

const struct saturn_param router_params[] = {
    {"router.vcs", SATURN_PARAM_INT, "3", 1, 64, NULL,
     "virtual channels per input port"},
    {"router.buf_flits", SATURN_PARAM_INT, "8", 0, 1 << 20, NULL,
     "flits per input VC buffer; 0 = unlimited"},
    {"router.out_buf_flits", SATURN_PARAM_INT, "0", 0, 1 << 20, NULL,
     "flits per output VC buffer; 0 = no output buffers (unless out_buf_unlimited)"},
    {"router.out_buf_unlimited", SATURN_PARAM_BOOL, "false", 0, 0, NULL,
     "unbounded output VC buffers (storage buffers: a blocked packet condenses there)"},
    {"router.output_order", SATURN_PARAM_ENUM, "flit", 0, 0, output_orders,
     "flit: outputs interleave VCs flit by flit, round-robin; packet: an output (link or "
     "ejection) carries one packet at a time, the earliest arrived first (ties: lowest packet "
     "id); needs router.out_buf_unlimited"},
    {"router.switching", SATURN_PARAM_ENUM, "wormhole", 0, 0, switching_names,
     "wormhole | vct (a head advances only if the next buffer takes the whole packet) | unlimited (unbounded buffers)"},
    {"router.arbiter", SATURN_PARAM_ENUM, "separable", 0, 0, arbiters,
     "how heads get routed and allocated a VC: separable (every waiting head asks every "
     "cycle; one grant per output VC) or central (one arbiter per router routes one head at a "
     "time, round-robin, busy for the routing delay; a head that gets no VC queues again: "
     "paper 001's router)"},
    {"router.arbiter_requeue", SATURN_PARAM_BOOL, "true", 0, 0, NULL,
     "router.arbiter = central: a head the VC allocator refused queues for the arbiter again "
     "and is routed afresh (true), or keeps its routing and asks the VC allocator again every "
     "cycle without the arbiter (false: each head is routed once per router, paper 001's "
     "\"routing occurs only for the header flit\")"},
    {"router.sw_alloc", SATURN_PARAM_ENUM, "input_first", 0, 0, sw_allocs,
     "switch allocation: input_first (each input port picks one ready VC, round-robin, and "
     "each output grants one of the inputs that picked it, round-robin) or islip (BookSim 2's "
     "default, 1 iteration: each input port asks for every output one of its ready VCs wants, "
     "round-robin among the VCs per output; each output grants one input, each input accepts "
     "one grant, pointers move on acceptance; needs router.speedup = 1)"},
    {"router.vc_alloc", SATURN_PARAM_ENUM, "separable", 0, 0, vc_allocs,
     "VC allocation: separable (each waiting head asks for one output VC, the free one with the "
     "most room; each output VC grants one head, round-robin) or islip (BookSim 2's default, 1 "
     "iteration: each head asks for every free VC of its candidates; each output VC grants one "
     "head from its pointer, each head accepts one grant from its own pointer; pointers move on "
     "acceptance; not with router.arbiter = central)"},
    {"router.transit_priority", SATURN_PARAM_BOOL, "false", 0, 0, NULL,
     "VC and switch allocation serve inputs from other routers before the router's injection "
     "ports, round-robin within each (FOGSim's output arbiters: transit before injection); "
     "false: round-robin over all inputs; needs router.sw_alloc and router.vc_alloc "
     "input_first / separable"},
    {"router.sw_hold", SATURN_PARAM_BOOL, "false", 0, 0, NULL,
     "switch allocation holds a packet's match: once a flit of a packet crosses from an input "
     "port to an output port, both serve only that packet, without arbitration, while its next "
     "flit is in the buffer and can cross, until its tail crosses (BookSim 2's "
     "hold_switch_for_packet; a hold that cannot send is dropped and both ports are allocated "
     "as usual in that cycle, where BookSim loses the cycle); false: every flit is allocated "
     "afresh, so packets of different VCs interleave flit by flit on an output; needs "
     "router.sw_alloc = input_first and router.speedup = 1"},
    {"router.va_stage", SATURN_PARAM_BOOL, "false", 0, 0, NULL,
     "VC allocation as a pipeline stage of its own before switch allocation, as in BookSim 2's "
     "iq router: an output VC freed by a tail crossing in cycle t goes to a waiting head in "
     "t + 1 and that head crosses in t + 2 (false: allocated and crossed in t + 1; a fresh "
     "head's stages are router.route_delay either way)"},
    {"router.atomic_vc", SATURN_PARAM_BOOL, "false", 0, 0, NULL,
     "allocate an output VC only when the buffers behind it hold nothing of the previous "
     "packet (BookSim's wait_for_tail_credit); routing.algorithm = duato always does"},
    {"router.inject_vcs", SATURN_PARAM_INT, "0", 0, 64, NULL,
     "VCs of a node's injection port, the first ones (0: router.vcs); 1: every packet enters "
     "on VC 0, as paper 000 words it (torus)"},
    {"router.inject_vc", SATURN_PARAM_ENUM, "round_robin", 0, 0, inject_vc_names,
     "the injection VC a new packet enters its router on: round_robin (the next injection VC, "
     "after the last one used, that has room for it) or destination (FOGSim's generator: VC "
     "floor(dst x VCs / nodes), fixed by the destination, so a packet waits for that VC and "
     "the packets queued behind it at the source wait too)"},
    {"router.speedup", SATURN_PARAM_INT, "1", 1, 8, NULL,
     "internal speedup: crossbar inputs per input port (and outputs per output port when output-buffered)"},
    {"router.xbar_rate", SATURN_PARAM_INT, "1", 1, 8, NULL,
     "flits a switch grant moves from an input VC into its output buffer in one cycle (a "
     "crossbar clocked faster than the links, FOGSim's InternalSpeedup: an L-flit packet "
     "crosses in L / rate cycles if it is all there); links and nodes still take a flit a "
     "cycle; needs output buffers (router.out_buf_flits or router.out_buf_unlimited) and "
     "router.sw_alloc = input_first"},
    {"router.obuf_credits", SATURN_PARAM_ENUM, "own", 0, 0, obuf_credit_names,
     "output buffers and credits: own (an output VC buffer has its own slots; a flit's input "
     "slot is credited upstream when it crosses the switch, and it needs the next router's "
     "credit to take the link) or downstream (FOGSim's input-output-queued router: a flit "
     "crosses only with a credit of the next router's input VC, which it takes then, and its "
     "input slot is credited upstream only when it leaves the output buffer, so a hop buffers "
     "what the next input buffer holds); downstream needs router.out_buf_flits > 0, "
     "router.xbar_delay <= 1 and router.sw_alloc = input_first"},
    {"router.route_delay", SATURN_PARAM_INT, "0", 0, 10000, NULL,
     "cycles from a head reaching the front of an idle VC to its first allocation attempt"},
    {"router.xbar_delay", SATURN_PARAM_INT, "0", 0, 10000, NULL,
     "cycles to cross the crossbar after winning the switch"},
    {"router.link_latency", SATURN_PARAM_INT, "1", 1, 65535, NULL,
     "cycles on a router-to-router link"},
    {"router.credit_delay", SATURN_PARAM_INT, "1", 1, 100000, NULL,
     "cycles for a credit to reach the upstream router"},
    {"router.inject_latency", SATURN_PARAM_INT, "1", 1, 100000, NULL,
     "cycles from a source to its router's injection buffer"},
    {"router.eject_latency", SATURN_PARAM_INT, "1", 0, 100000, NULL,
     "cycles from the router's ejection port to the node"},
    {"dragonfly.local_latency", SATURN_PARAM_INT, "10", 1, 65535, NULL,
     "dragonfly: cycles on a local (intra-group) link, and for its credits (router.link_latency "
     "and router.credit_delay are for tori and meshes)"},
    {"dragonfly.global_latency", SATURN_PARAM_INT, "100", 1, 65535, NULL,
     "dragonfly: cycles on a global (inter-group) link, and for its credits"},
    {"dragonfly.global_buf_flits", SATURN_PARAM_INT, "256", 1, 1 << 20, NULL,
     "dragonfly: flits (phits) per global input VC buffer (local input and injection VCs: "
     "router.buf_flits)"},
    {"dragonfly.local_vcs", SATURN_PARAM_INT, "0", 0, 64, NULL,
     "dragonfly: VCs per local port (injection ports: router.vcs); 0 = what the routing needs, "
     "at least 3: 4 for val, ugal and pb, 3 for the others (paper 004's Table I)"},
    {"dragonfly.global_vcs", SATURN_PARAM_INT, "2", 1, 64, NULL,
     "dragonfly: VCs per global port"},
    {"entropy.buffers", SATURN_PARAM_ENUM, "all", 0, 0, buffer_sets,
     "input VC buffers counted in Nv and Na (mobility ratio): all (network and injection ports) or network"},
    {NULL, 0, NULL, 0, 0, NULL, NULL}};

static uint32_t pow2_at_least(uint32_t x)
{
    uint32_t p = 1;
    while (p < x)
        p <<= 1;
    return p;
}

/* ---- the event wheel ---------------------------------------------------- */

bool net_evq_grow(struct evq *q)
{
    uint32_t cap = q->cap ? q->cap * 2 : 64;
    struct event *e = realloc(q->e, cap * sizeof *e);
    if (!e)
        return false;
    q->e = e;
    q->cap = cap;
    return true;
}


bool net_creditq_grow(struct creditq *q)
{
    uint32_t cap = q->cap ? q->cap * 2 : 64;
    uint32_t *i = realloc(q->i, cap * sizeof *i);
    if (!i)
        return false;
    q->i = i;
    q->cap = cap;
    return true;
}

/* ---- growable rings (unlimited buffers, source queues) ------------------ */

bool net_ring_grow(flit_t **buf, uint32_t *head, uint32_t count, uint32_t *mask)
{
    uint32_t cap = *mask + 1, ncap = cap * 2;
    flit_t *nb = malloc((size_t)ncap * sizeof *nb);
    if (!nb)
        return false;
    for (uint32_t i = 0; i < count; i++)
        nb[i] = (*buf)[(*head + i) & *mask];
    free(*buf);
    *buf = nb;
    *head = 0;
    *mask = ncap - 1;
    return true;
}

static bool queue_push(struct node *nd, uint32_t pid)
{
    if (nd->qcount == nd->qmask + 1) {
        uint32_t cap = nd->qmask + 1, ncap = cap * 2;
        uint32_t *nq = malloc((size_t)ncap * sizeof *nq);
        if (!nq)
            return false;
        for (uint32_t i = 0; i < nd->qcount; i++)
            nq[i] = nd->q[(nd->qhead + i) & nd->qmask];
        if (nd->q != nd->q_in)
            free(nd->q);
        nd->q = nq;
        nd->qhead = 0;
        nd->qmask = ncap - 1;
    }
    nd->q[(nd->qhead + nd->qcount++) & nd->qmask] = pid;
    return true;
}

/* ---- construction ------------------------------------------------------- */

static int check_combinations(const struct saturn_config *cfg,
                              struct saturn_error *err)
{
    int sw = saturn_config_enum(cfg, "router.switching");
    int64_t b = saturn_config_int(cfg, "router.buf_flits");
    int64_t ob = saturn_config_int(cfg, "router.out_buf_flits");
    /* a sliced collective's packets, not traffic.packet_length: a VCT
     * buffer shorter than them never takes one, and nothing moves */
    const char *what;
    int64_t len = config_packet_flits(cfg, &what);
    if (sw == SW_UNLIMITED && b != 0)
        return saturn_config_fail(cfg, "router.buf_flits", err,
                                  "router.switching = unlimited needs unbounded buffers; "
                                  "set router.buf_flits = 0 (or choose wormhole/vct)");
    if (sw == SW_VCT && b != 0 && b < len)
        return saturn_config_fail(cfg, "router.buf_flits", err,
                                  "virtual cut-through needs a buffer that holds a whole "
                                  "packet: at least %s = %lld flits", what, (long long)len);
    if (sw == SW_VCT && ob != 0 && ob < len)
        return saturn_config_fail(cfg, "router.out_buf_flits", err,
                                  "virtual cut-through needs output buffers of at least "
                                  "%s = %lld flits (or 0 for none)", what, (long long)len);
    return SATURN_OK;
}

/* Zeroed, cache-line aligned memory for count records of size bytes (the
 * router's per-port and per-VC state: a record never straddles two lines
 * when its size divides 64), in huge pages when large and sim.huge_pages
 * (net_alloc_lines); free() releases it. */
static void *zalloc_lines(const struct net *n, size_t count, size_t size)
{
    if (size && count > (SIZE_MAX - 63) / size)
        return NULL;
    return net_alloc_lines(count * size, true, n->huge_pages);
}

/* The bytes of the routers' ports and of their VCs' input and output
 * records, with routes their routing lines too: the state a router-cycle
 * reads, against the caches (prefetch_next) and the TLB (huge_pages). */
static size_t router_state_bytes(const struct net *n, bool routes)
{
    const size_t vc = sizeof(struct ivc) + sizeof(struct ovc) +
                      (routes ? sizeof(struct ivc_route) : 0);
    return (size_t)n->topo.routers * (size_t)n->P *
           (sizeof(struct port) + (size_t)n->V * vc);
}

/* sim.huge_pages and sim.vc_runs, in the order of sim.c's names. */
enum huge_mode { HUGE_AUTO, HUGE_ON, HUGE_OFF };
enum runs_mode { RUNS_AUTO, RUNS_ON, RUNS_OFF };

static int build_ports(struct net *n)
{
    const struct topo *t = &n->topo;
    size_t nports = (size_t)t->routers * (size_t)n->P;
    n->ports = zalloc_lines(n, nports, sizeof *n->ports);
    n->prare = calloc(nports, sizeof *n->prare);
    if (!n->ports || !n->prare)
        return SATURN_ENOMEM;
    for (uint32_t r = 0; r < t->routers; r++)
        for (int p = 0; p < n->P; p++) {
            struct port *pt = &n->ports[(size_t)r * n->P + p];
            pt->cap = n->buf_cap;
            pt->credit_lat = (uint16_t)n->credit_delay;
            pt->nvc = (uint8_t)(p >= t->radix ? n->inj_vcs : n->local_vcs);
            pt->rp = r << 6 | (uint32_t)p;
            n->prare[(size_t)r * n->P + p].link_hold = -1;
            n->prare[(size_t)r * n->P + p].hold_vc = -1;
            n->prare[(size_t)r * n->P + p].hold_in = -1;
            pt->far_in = NET_NONE;
            pt->up = NET_NONE;
            if (p >= t->radix) {
                /* a router with fewer nodes than local ports leaves the rest unused */
                pt->up = topo_port_node(t, r, p - t->radix);
                pt->kind = pt->up == TOPO_NONE ? PORT_NONE : PORT_LOCAL;
                pt->out_unlimited = 1;
            }
        }
    for (uint32_t r = 0; r < t->routers; r++)
        for (int p = 0; p < t->radix; p++) {
            uint32_t fr;
            int fp;
            if (!topo_link(t, r, p, &fr, &fp))
                continue;
            struct port *out = &n->ports[(size_t)r * n->P + p];
            struct port *in = &n->ports[(size_t)fr * n->P + fp];
            bool global = topo_link_class(t, r, p) == TOPO_GLOBAL;
            uint32_t lat = global ? n->global_latency : n->link_latency;
            if (t->port_lat && t->port_lat[(size_t)r * (size_t)t->radix + (size_t)p])
                lat = t->port_lat[(size_t)r * (size_t)t->radix + (size_t)p];
            out->kind = PORT_NET;
            out->far_in = fr * (uint32_t)n->P + (uint32_t)fp;
            out->latency = (uint16_t)lat;
            out->nvc = (uint8_t)(global ? n->global_vcs : n->local_vcs);
            out->cls = (uint8_t)(global ? TOPO_GLOBAL : TOPO_LOCAL);
            if (global)
                in->cap = n->buf_cap ? n->global_cap : 0;
            /* credits travel the link back on a Dragonfly, and on a link with
             * a latency of its own */
            if (t->kind == TOPO_DRAGONFLY ||
                (t->port_lat && t->port_lat[(size_t)r * (size_t)t->radix + (size_t)p]))
                in->credit_lat = (uint16_t)lat;
            out->out_unlimited = in->cap == 0;
            in->kind = PORT_NET;
            in->up = r * (uint32_t)n->P + (uint32_t)p;
        }
    n->bounded = n->lat_uniform = true;
    for (size_t i = 0; i < nports; i++) {
        if (n->ports[i].kind != PORT_NONE && n->ports[i].cap == 0)
            n->bounded = false;
        if (n->ports[i].kind == PORT_NET && n->ports[i].latency != n->link_latency)
            n->lat_uniform = false;
    }
    return SATURN_OK;
}

static int build_buffers(struct net *n, enum runs_mode runs)
{
    size_t nvc = (size_t)n->topo.routers * n->P * n->V;
    n->ivcs = zalloc_lines(n, nvc, sizeof *n->ivcs);
    n->iroute = zalloc_lines(n, nvc, sizeof *n->iroute);
    n->ovcs = zalloc_lines(n, nvc, sizeof *n->ovcs);
    n->ovc_freed = n->va_stage ? malloc(nvc * sizeof *n->ovc_freed) : NULL;
    n->ob_ring = n->obuf_on ? calloc(nvc, sizeof *n->ob_ring) : NULL;
    if (!n->ivcs || !n->iroute || !n->ovcs || (n->va_stage && !n->ovc_freed) ||
        (n->obuf_on && !n->ob_ring))
        return SATURN_ENOMEM;
    /* One slab for every bounded input VC, each a power-of-two ring of its
     * port's capacity, and one for the bounded output VC buffers; a VC
     * beyond its port's link class (V is the largest class) gets none. */
    size_t slab = 0, ob_slab = 0;
    const uint32_t oslot = n->obuf_unlimited ? 16 : n->obuf_cap ? pow2_at_least(n->obuf_cap) : 0;
    n->ob_mask = oslot ? oslot - 1 : 0;
    for (size_t i = 0; i < nvc; i++) {
        const struct port *pt = &n->ports[i / (size_t)n->V];
        int v = (int)(i % (size_t)n->V);
        if (v >= pt->nvc && !(n->meta_bit && v == n->Vd))
            continue;
        slab += pt->cap ? pow2_at_least(pt->cap) : 0;
        if (n->obuf_on && !n->obuf_unlimited && pt->kind == PORT_NET)
            ob_slab += oslot;
    }
    /* line-aligned, so that a ring of 8 or more slots starts a line (its
     * first slots are the ones used again: net_ivc_take); not zeroed, so
     * that pages of rings never written are never touched */
    if (slab && !(n->slab = net_alloc_lines(slab * sizeof *n->slab, false, n->huge_pages)))
        return SATURN_ENOMEM;
    /* auto: runs where the rings would not stay in a core's L2 (2 MiB on
     * this host kind) with the routers' ports and VCs, so that a ring's
     * line is a miss beyond it; below, the ring is written and read in
     * the cache, and a run's tests (a new run or the next flit of one, a
     * head or not) cost more than they save. Measured in one binary
     * (docs/PERFORMANCE.md, 2026-12-04): the ring 3.1-5.2 % faster on the
     * torus pair, a 256-router HyperX and a 512-node fat tree (0.6-1.4 MiB),
     * level on the 16x16 torus of bench/torus16_uniform_0.10.ini (0.5 MiB),
     * and runs 5.6-27 % faster from a 32x32 torus (2.2 MiB) up. */
    n->vc_runs = runs == RUNS_ON ||
                 (runs == RUNS_AUTO &&
                  router_state_bytes(n, false) + slab * sizeof *n->slab > ((size_t)2 << 20));
    if (ob_slab &&
        !(n->ob_slab = net_alloc_lines(ob_slab * sizeof *n->ob_slab, false, n->huge_pages)))
        return SATURN_ENOMEM;
    if (ob_slab && n->ob_credits &&
        !(n->ob_up = net_alloc_lines(ob_slab * sizeof *n->ob_up, false, n->huge_pages)))
        return SATURN_ENOMEM;
    size_t at = 0, ob_at = 0;
    for (size_t i = 0; i < nvc; i++) {
        struct ivc *iv = &n->ivcs[i];
        const struct port *in = &n->ports[i / (size_t)n->V];
        int v = (int)(i % (size_t)n->V);
        bool used = v < in->nvc || (n->meta_bit && v == n->Vd);
        uint32_t slot = in->cap ? pow2_at_least(in->cap) : 0;
        if (!used) {
            iv->buf = NULL; /* never written: routing names only the class's VCs */
            iv->mask = 0;
        } else if (slot) {
            iv->buf = n->slab + at;
            iv->mask = slot - 1;
            at += slot;
        } else {
            iv->buf = malloc(16 * sizeof *iv->buf);
            if (!iv->buf)
                return SATURN_ENOMEM;
            iv->mask = 15;
        }
        struct ovc *o = &n->ovcs[i];
        o->owner = -1;
        if (n->ovc_freed)
            n->ovc_freed[i] = UINT32_MAX; /* no tail crossed at cycle 0 - 1 */
        size_t gp = i / (size_t)n->V;
        const struct port *pt = &n->ports[gp];
        if (pt->kind == PORT_NET)
            o->credits = (int32_t)n->ports[pt->far_in].cap;
        if (!n->obuf_on && pt->kind == PORT_NET) /* (below 2^26 ports: net_partition_build) */
            o->far_arrival = pt->far_in << 6 | (uint32_t)v;
        if (n->obuf_on && pt->kind == PORT_NET) {
            o->ob_space = n->obuf_unlimited ? INT32_MAX : (int32_t)n->obuf_cap;
            if (!used)
                continue;
            struct ob_ring *g = &n->ob_ring[i];
            if (n->obuf_unlimited) {
                if (!(g->ob = malloc(oslot * sizeof *g->ob)))
                    return SATURN_ENOMEM;
            } else {
                g->ob = n->ob_slab + ob_at;
                ob_at += oslot;
            }
            g->mask = oslot - 1;
        }
    }
    return SATURN_OK;
}

static int build_nodes(struct net *n, uint64_t seed)
{
    n->nnodes = n->topo.nodes;
    n->nodes = zalloc_lines(n, n->nnodes, sizeof *n->nodes);
    n->node_rng = zalloc_lines(n, n->nnodes, sizeof *n->node_rng); /* a stream never straddles two lines */
    n->inj_credits = calloc((size_t)n->nnodes * n->V, sizeof *n->inj_credits);
    n->node_active = calloc((n->nnodes + 63) / 64, sizeof(uint64_t));
    if (!n->nodes || !n->node_rng || !n->inj_credits || !n->node_active)
        return SATURN_ENOMEM;
    for (uint32_t i = 0; i < n->nnodes; i++) {
        struct node *nd = &n->nodes[i];
        nd->q = nd->q_in;
        nd->qmask = NODE_QIN - 1;
        nd->cur = NET_NONE;
        nd->last_vc = (uint8_t)(n->inj_vcs - 1);
        nd->gp = topo_node_router(&n->topo, i) * (uint32_t)n->P +
                 (uint32_t)topo_node_port(&n->topo, i);
        rng_seed(&n->node_rng[i], seed, i);
        for (int v = 0; v < n->V; v++)
            n->inj_credits[(size_t)i * n->V + v] = (int32_t)n->buf_cap;
    }
    return SATURN_OK;
}

/* Where each input port's credits go (struct port_credit): the counter
 * of its VC 0 and its credit class, one per distinct (credit_lat, up_part)
 * of the ports with bounded buffers; each partition's queue pointers per
 * class (w->cq, set every cycle by net_credit_queues). */
static int credit_classes(struct net *n)
{
    const size_t nports = (size_t)n->topo.routers * n->P;
    uint32_t cap = 0;
    for (size_t gp = 0; gp < nports; gp++) {
        const struct port *pt = &n->ports[gp];
        if (pt->kind == PORT_NONE || pt->cap == 0)
            continue;
        const uint32_t key = (uint32_t)pt->credit_lat << 16 | pt->up_part;
        uint32_t c = 0;
        while (c < n->nccls && n->ccls[c] != key)
            c++;
        if (c == n->nccls) {
            if (n->nccls == cap) {
                cap = cap ? 2 * cap : 4;
                uint32_t *g = realloc(n->ccls, cap * sizeof *g);
                if (!g)
                    return SATURN_ENOMEM;
                n->ccls = g;
            }
            n->ccls[n->nccls++] = key;
        }
        n->ports[gp].credit = (struct port_credit){net_port_credit_ctr(n, pt), c};
    }
    for (uint32_t t = 0; t < n->nparts; t++)
        if (!(n->parts[t].cq = calloc(n->nccls ? n->nccls : 1, sizeof *n->parts[t].cq)))
            return SATURN_ENOMEM;
    return SATURN_OK;
}

/* Partition w's sends with x = when & wheel_mask go to slot `slot`
 * (struct net_part, ev_at): to every destination (all), or with a shared
 * wheel only to its own partition and sinks (struct net, wheel_shared:
 * what goes to another partition takes the long wheel always). */
static void wheel_point_part(struct net *n, struct net_part *w, uint64_t x, size_t slot, bool all)
{
    const uint32_t T = n->nparts, nq = n->nq;
    if (!all) {
        const uint32_t d = w->index;
        w->ev_at[x * nq + d] = &w->wheel[slot * nq + d];
        w->ev_at[x * nq + T + d] = &w->wheel[slot * nq + T + d];
        w->cr_at[x * T + d] = &w->credit[slot * T + d];
    } else {
        for (uint32_t d = 0; d < nq; d++)
            w->ev_at[x * nq + d] = &w->wheel[slot * nq + d];
        for (uint32_t d = 0; d < T; d++)
            w->cr_at[x * T + d] = &w->credit[slot * T + d];
    }
    w->ar_at[x] = &w->arrive[slot];
}

/* Cycles with x = when & wheel_mask go to slot `slot`, for every partition. */
static void wheel_point(struct net *n, uint64_t x, size_t slot)
{
    for (uint32_t t = 0; t < n->nparts; t++)
        wheel_point_part(n, &n->parts[t], x, slot, !n->wheel_shared);
}

/* The tables for cycle now from scratch: the long wheel, but for the near
 * cycles from now (the shorter wheels over the longer). */
void net_wheel_build(struct net *n)
{
    const uint64_t now = n->now, mask = n->wheel_mask;
    for (uint64_t x = 0; x <= mask; x++)
        for (uint32_t t = 0; t < n->nparts; t++)
            wheel_point_part(n, &n->parts[t], x, x, true);
    for (uint32_t k = n->nnear; k-- > 0;)
        for (uint64_t d = 0; d < n->near[k]; d++)
            wheel_point(n, (now + d) & mask, n->near_base[k] + ((now + d) & (n->near[k] - 1)));
    n->wheel_now = now;
    for (uint32_t t = 0; t < n->nparts; t++)
        n->parts[t].wheel_now = now;
}

void net_wheel_turn(struct net *n)
{
    const uint64_t now = n->now, mask = n->wheel_mask;
    if (now == n->wheel_now || !n->nnear) /* one wheel: the tables never change */
        return;
    if (now == n->wheel_now + 1) {
        /* a cycle on: cycle now - 1's x is now + wheel_mask's, and the
         * cycle near[k] - 1 from now enters short wheel k */
        wheel_point(n, (now - 1) & mask, (now - 1) & mask);
        for (uint32_t k = 0; k < n->nnear; k++) {
            const uint64_t t = now + n->near[k] - 1;
            wheel_point(n, t & mask, n->near_base[k] + (t & (n->near[k] - 1)));
        }
        n->wheel_now = now;
        for (uint32_t t = 0; t < n->nparts; t++)
            n->parts[t].wheel_now = now;
    } else { /* a test's jump */
        net_wheel_build(n);
    }
}

void net_wheel_turn_part(struct net *n, struct net_part *w)
{
    const uint64_t now = w->now, mask = n->wheel_mask;
    if (now == w->wheel_now || !n->nnear)
        return;
    /* (blocks step each cycle in turn: now is w->wheel_now + 1) */
    wheel_point_part(n, w, (now - 1) & mask, (now - 1) & mask, false);
    for (uint32_t k = 0; k < n->nnear; k++) {
        const uint64_t t = now + n->near[k] - 1;
        wheel_point_part(n, w, t & mask, n->near_base[k] + (t & (n->near[k] - 1)), false);
    }
    w->wheel_now = now;
}

void net_credit_queues(struct net *n, struct net_part *w)
{
    const uint64_t now = w->now;
    const uint32_t mask = n->wheel_mask, np = n->nparts;
    for (uint32_t c = 0; c < n->nccls; c++)
        w->cq[c] = w->cr_at[(size_t)((now + (n->ccls[c] >> 16)) & mask) * np +
                            (n->ccls[c] & 0xffff)];
    w->aq = w->ar_at[(now + n->xbar_delay + n->link_latency) & mask];
}

int net_create(struct net *n, const struct saturn_config *cfg, uint64_t seed,
               struct saturn_error *err)
{
    memset(n, 0, sizeof *n);
    int rc = topo_build(&n->topo, cfg, err);
    if (rc)
        return rc;
    if ((rc = check_combinations(cfg, err)))
        return rc;
    n->P = n->topo.radix + n->topo.conc;
    if (n->P > 64)
        return saturn_config_fail(cfg, "network.topology", err,
                                  "routers with more than 64 ports are not supported");
    if (n->topo.routers > 1u << 26) /* struct port, rp */
        return saturn_config_fail(cfg, "network.topology", err,
                                  "networks of more than 2^26 routers are not supported");
    n->V = n->Vd = n->inj_vcs = n->local_vcs = n->global_vcs =
        (int)saturn_config_int(cfg, "router.vcs");
    n->data_mask = ~0ULL;
    int64_t iv = saturn_config_int(cfg, "router.inject_vcs");
    if (iv > n->V)
        return saturn_config_fail(cfg, "router.inject_vcs", err,
                                  "a node's injection port has at most router.vcs = %d VCs", n->V);
    if (iv > 0 && n->topo.kind != TOPO_DRAGONFLY)
        n->inj_vcs = (int)iv;
    if (n->topo.kind == TOPO_DRAGONFLY) {
        /* Link classes: their own VCs, latencies (credits the same) and buffers. */
        n->local_vcs = (int)saturn_config_int(cfg, "dragonfly.local_vcs");
        if (n->local_vcs == 0) {
            const struct route_ops *ro =
                route_find_for(saturn_config_str(cfg, "routing.algorithm"), TOPO_DRAGONFLY);
            n->local_vcs = ro && ro->local_vcs > 3 ? ro->local_vcs : 3;
        }
        n->global_vcs = (int)saturn_config_int(cfg, "dragonfly.global_vcs");
        int v = n->inj_vcs;
        if (n->local_vcs > v) v = n->local_vcs;
        if (n->global_vcs > v) v = n->global_vcs;
        n->V = n->Vd = v;
    }
    if (n->topo.kind != TOPO_DRAGONFLY && n->topo.global_vcs) {
        n->global_vcs = n->topo.global_vcs;
        if (n->global_vcs > n->V)
            n->V = n->Vd = n->global_vcs;
    }
    const bool meta = saturn_config_enum(cfg, "gather.mode") == 1;
    n->switching = (enum switching)saturn_config_enum(cfg, "router.switching");
    n->buf_cap = (uint32_t)saturn_config_int(cfg, "router.buf_flits");
    n->obuf_cap = (uint32_t)saturn_config_int(cfg, "router.out_buf_flits");
    n->speedup = (int)saturn_config_int(cfg, "router.speedup");
    n->obuf_unlimited = saturn_config_bool(cfg, "router.out_buf_unlimited");
    n->obuf_on = n->obuf_cap > 0 || n->obuf_unlimited;
    n->packet_links = saturn_config_enum(cfg, "router.output_order") == 1;
    if (n->packet_links && !n->obuf_unlimited && !saturn_config_bool(cfg, "debug.allow_deadlock"))
        return saturn_config_fail(cfg, "router.output_order", err,
                                  "packet order holds a whole link for one packet, across its "
                                  "VCs, which undoes the VC separation that keeps DOR "
                                  "deadlock-free; it needs router.out_buf_unlimited = true");
    if (n->obuf_unlimited && n->obuf_cap)
        return saturn_config_fail(cfg, "router.out_buf_unlimited", err,
                                  "router.out_buf_flits = %u bounds the output buffers; "
                                  "set it to 0 with unlimited ones", n->obuf_cap);
    n->out_speedup = n->obuf_on ? n->speedup : 1;
    if (meta) {
        if (n->topo.kind != TOPO_TORUS)
            return saturn_config_fail(cfg, "gather.mode", err,
                                      "metapackets travel around rings: they need "
                                      "network.topology = torus");
        if (n->obuf_on)
            return saturn_config_fail(cfg, "gather.mode", err,
                                      "metapackets are not supported with output buffers "
                                      "(router.out_buf_flits / router.out_buf_unlimited)");
        if (n->V >= 64)
            return saturn_config_fail(cfg, "gather.mode", err,
                                      "metapackets add one VC per port: router.vcs must be at "
                                      "most 63");
        if (n->buf_cap == 1)
            return saturn_config_fail(cfg, "gather.mode", err,
                                      "a 2-flit metapacket enters its VC whole: "
                                      "router.buf_flits must be at least 2 (or 0)");
        /* gather.full with unlimited buffers is checked by the controllers
         * that use the count (static, selftune: gather_init); the others
         * refuse gather.* keys, so a check here made metapackets with
         * unlimited buffers impossible for them. */
        n->meta_arb_priority = saturn_config_enum(cfg, "gather.meta_arbiter") == 1;
        n->V = n->Vd + 1; /* the meta VC, index Vd, on every port */
        n->meta_bit = 1ULL << n->Vd;
        n->data_mask = ~n->meta_bit;
    }
    if (!meta)
        for (const char *const *k = (const char *const[]){"gather.meta_forward",
                                                           "gather.meta_arbiter", NULL};
             *k; k++)
            if (saturn_config_is_set(cfg, *k))
                return saturn_config_fail(cfg, *k, err,
                                          "applies to metapackets (gather.mode = metapacket)");
    n->central = saturn_config_enum(cfg, "router.arbiter") == 1;
    n->arb_requeue = saturn_config_bool(cfg, "router.arbiter_requeue");
    if (!n->central && saturn_config_is_set(cfg, "router.arbiter_requeue"))
        return saturn_config_fail(cfg, "router.arbiter_requeue", err,
                                  "applies to the central arbiter (router.arbiter = central)");
    n->sw_islip = saturn_config_enum(cfg, "router.sw_alloc") == 1;
    n->va_islip = saturn_config_enum(cfg, "router.vc_alloc") == 1;
    n->va_stage = saturn_config_bool(cfg, "router.va_stage");
    if (n->va_islip && n->central)
        return saturn_config_fail(cfg, "router.vc_alloc", err,
                                  "islip lets every waiting head ask; the central arbiter "
                                  "(router.arbiter = central) routes one at a time");
    n->inj_vc_dst = saturn_config_enum(cfg, "router.inject_vc") == 1;
    n->transit_first = saturn_config_bool(cfg, "router.transit_priority");
    if (n->transit_first && (n->sw_islip || n->va_islip))
        return saturn_config_fail(cfg, "router.transit_priority", err,
                                  "applies to the separable allocators (router.sw_alloc = "
                                  "input_first, router.vc_alloc = separable)");
    n->sw_hold = saturn_config_bool(cfg, "router.sw_hold");
    /* Beyond a core's L2 (1 MiB here) the routers' ports and VCs are fetched
     * again every cycle: the torus's loops and the output-buffered one then
     * prefetch the next router's (measured: 2-16 % on a 32x32 torus, 7 % on
     * paper 004's 16,512-node Dragonfly, 19 % slower on a 16x16 torus that
     * fits; docs/PERFORMANCE.md). A hint: no result depends on it. */
    n->prefetch_next = router_state_bytes(n, false) > ((size_t)1 << 20);
    if (n->sw_hold && (n->sw_islip || n->speedup != 1))
        return saturn_config_fail(cfg, "router.sw_hold", err,
                                  "holds one match per input and output port: it needs "
                                  "router.sw_alloc = input_first and router.speedup = 1");
    if (n->sw_islip && n->speedup != 1)
        return saturn_config_fail(cfg, "router.sw_alloc", err,
                                  "islip matches one flit per input and output port a cycle: "
                                  "it needs router.speedup = 1 (not %d)", n->speedup);
    if (n->sw_islip && (meta || n->packet_links))
        return saturn_config_fail(cfg, "router.sw_alloc", err,
                                  "islip is not combined with %s; use input_first",
                                  meta ? "metapackets (gather.mode = metapacket)"
                                       : "router.output_order = packet");
    n->xbar_rate = (int)saturn_config_int(cfg, "router.xbar_rate");
    n->ob_credits = saturn_config_enum(cfg, "router.obuf_credits") == 1;
    if (n->ob_credits && (!n->obuf_cap || n->sw_islip))
        return saturn_config_fail(cfg, "router.obuf_credits", err,
                                  "downstream accounts for bounded output buffers (router.out_buf_flits "
                                  "> 0, not unlimited) with router.sw_alloc = input_first");
    if (n->xbar_rate > 1 && !n->obuf_on)
        return saturn_config_fail(cfg, "router.xbar_rate", err,
                                  "a crossbar faster than the links needs output buffers to "
                                  "write into: set router.out_buf_flits > 0 or "
                                  "router.out_buf_unlimited = true (or router.xbar_rate = 1)");
    if (n->xbar_rate > 1 && n->sw_islip)
        return saturn_config_fail(cfg, "router.xbar_rate", err,
                                  "applies to router.sw_alloc = input_first, not islip");
    n->route_delay = (uint32_t)saturn_config_int(cfg, "router.route_delay");
    n->xbar_delay = (uint32_t)saturn_config_int(cfg, "router.xbar_delay");
    if (n->ob_credits && n->xbar_delay > 1)
        return saturn_config_fail(cfg, "router.obuf_credits", err,
                                  "downstream needs flits to enter the output buffer as they cross: "
                                  "router.xbar_delay 0 or 1 (not %u)", n->xbar_delay);
    n->link_latency = (uint32_t)saturn_config_int(cfg, "router.link_latency");
    n->global_latency = n->link_latency;
    n->global_cap = n->topo.global_buf && n->buf_cap ? n->topo.global_buf : n->buf_cap;
    if (n->topo.kind == TOPO_DRAGONFLY) {
        n->link_latency = (uint32_t)saturn_config_int(cfg, "dragonfly.local_latency");
        n->global_latency = (uint32_t)saturn_config_int(cfg, "dragonfly.global_latency");
        n->global_cap = (uint32_t)saturn_config_int(cfg, "dragonfly.global_buf_flits");
        const char *what;
        uint32_t len = config_packet_flits(cfg, &what);
        if (n->switching == SW_VCT && n->buf_cap && n->global_cap < len)
            return saturn_config_fail(cfg, "dragonfly.global_buf_flits", err,
                                      "virtual cut-through needs a buffer that holds a whole "
                                      "packet: at least %s = %u flits", what, len);
    }
    if (n->topo.global_buf && n->switching == SW_VCT && n->buf_cap) {
        const char *what;
        uint32_t len = config_packet_flits(cfg, &what);
        if (n->global_cap < len)
            return saturn_config_fail(cfg, "file.global_buf_flits", err,
                                      "virtual cut-through needs a buffer that holds a whole "
                                      "packet: at least %s = %u flits", what, len);
    }
    n->credit_delay = (uint32_t)saturn_config_int(cfg, "router.credit_delay");
    n->inject_latency = (uint32_t)saturn_config_int(cfg, "router.inject_latency");
    n->eject_latency = (uint32_t)saturn_config_int(cfg, "router.eject_latency");
    n->watchdog = (uint64_t)saturn_config_int(cfg, "sim.watchdog");
    n->source_limit = (uint32_t)saturn_config_int(cfg, "traffic.source_queue");
    n->check = saturn_config_bool(cfg, "sim.check_invariants");
    /* auto: huge pages only where the TLB is the limit. The 16,512-node
     * Dragonfly's ports and VCs (29 MB, 210 MB in all) ran 4 % faster in
     * them; a 1,056-node one's (2 MB) 8 % slower and a 5,256-node one's
     * (9 MB) no better (docs/PERFORMANCE.md, 2026-12-03). */
    switch ((enum huge_mode)saturn_config_enum(cfg, "sim.huge_pages")) {
    case HUGE_ON: n->huge_pages = true; break;
    case HUGE_OFF: n->huge_pages = false; break;
    case HUGE_AUTO: n->huge_pages = router_state_bytes(n, true) >= ((size_t)16 << 20); break;
    }
#ifdef SATURN_DEBUG
    n->check = true;
#endif

    uint32_t maxd = n->xbar_delay +
                    (n->global_latency > n->link_latency ? n->global_latency : n->link_latency);
    uint64_t longest = maxd;
    if (n->route_delay > longest) longest = n->route_delay;
    if (n->credit_delay > longest) longest = n->credit_delay;
    if (n->topo.kind == TOPO_DRAGONFLY && n->global_latency > longest) longest = n->global_latency;
    if (n->topo.max_latency + n->xbar_delay > longest) longest = n->topo.max_latency + n->xbar_delay;
    if (n->topo.max_latency + n->xbar_delay > maxd) maxd = n->topo.max_latency + n->xbar_delay;
    if (n->inject_latency > longest) longest = n->inject_latency;
    if (n->xbar_delay + n->eject_latency > longest) longest = n->xbar_delay + n->eject_latency;
    if (n->watchdog <= longest)
        return saturn_config_fail(cfg, "sim.watchdog", err,
                                  "must exceed the longest delay of the network (%llu cycles), "
                                  "or every run in flight would look deadlocked",
                                  (unsigned long long)longest);
    if (n->xbar_delay + n->eject_latency > maxd) maxd = n->xbar_delay + n->eject_latency;
    if (n->credit_delay > maxd) maxd = n->credit_delay;
    if (n->inject_latency > maxd) maxd = n->inject_latency;
    n->wheel_mask = pow2_at_least(maxd + 1) - 1;
    n->max_delay = maxd;
    /* Short wheels (struct net, near): one for the local links' delay, one
     * for the shortest (injection, ejection, a node's credits), each where
     * the next longer wheel is at least 4 times as long (a Dragonfly with
     * 10- and 100-cycle links: 4, 16 and 128 slots). */
    uint32_t shortest = n->inject_latency;
    if (n->xbar_delay + n->eject_latency > shortest) shortest = n->xbar_delay + n->eject_latency;
    if (n->credit_delay > shortest) shortest = n->credit_delay;
    const uint32_t want[NET_NEAR] = {pow2_at_least(n->xbar_delay + n->link_latency + 1),
                                     pow2_at_least(shortest + 1)};
    uint32_t chosen[NET_NEAR], m = 0; /* the longest first */
    uint64_t above = (uint64_t)n->wheel_mask + 1;
    for (int k = 0; k < NET_NEAR; k++)
        if (4 * (uint64_t)want[k] <= above)
            above = chosen[m++] = want[k];
    n->nnear = m;
    n->slots = n->wheel_mask + 1;
    for (uint32_t k = m; k-- > 0;) { /* ascending; slots after the long wheel's, the longest first */
        n->near[k] = chosen[m - 1 - k];
        n->near_base[k] = n->slots;
        n->slots += n->near[k];
    }
    n->router_active = calloc((n->topo.routers + 63) / 64, sizeof(uint64_t));
    n->rocc = calloc(n->topo.routers, sizeof *n->rocc);
    n->rports = calloc(n->topo.routers, sizeof *n->rports);
    n->rwait = calloc(n->topo.routers, sizeof *n->rwait);
    n->robuf = calloc(n->topo.routers, sizeof *n->robuf);
    n->rnv = calloc(n->topo.routers, sizeof *n->rnv);
    n->rnvc = calloc(n->topo.routers, sizeof *n->rnvc);
    n->rna = calloc(n->topo.routers, sizeof *n->rna);
    n->rstamp = calloc(n->topo.routers, sizeof *n->rstamp);
    n->router_rng = calloc(n->topo.routers, sizeof *n->router_rng);
    if (!n->router_active || !n->rocc || !n->rports || !n->rwait || !n->robuf || !n->rnv ||
        !n->rnvc || !n->rna || !n->rstamp || !n->router_rng)
        return saturn_error_set(err, SATURN_ENOMEM, "out of memory");
    if (n->obuf_on) {
        n->arr_head = malloc((size_t)n->topo.routers * sizeof *n->arr_head);
        if (!n->arr_head)
            return saturn_error_set(err, SATURN_ENOMEM, "out of memory");
        memset(n->arr_head, 0xff, (size_t)n->topo.routers * sizeof *n->arr_head);
    }
    for (uint32_t r = 0; r < n->topo.routers; r++)
        rng_seed(&n->router_rng[r], seed, RNG_STREAM_ROUTER + r);
    if (n->central) {
        n->arb_rr = calloc(n->topo.routers, sizeof *n->arb_rr);
        n->arb_free = calloc(n->topo.routers, sizeof *n->arb_free);
        if (!n->arb_rr || !n->arb_free)
            return saturn_error_set(err, SATURN_ENOMEM, "out of memory");
    }

    if ((uint64_t)n->topo.routers * (uint64_t)n->P * (uint64_t)n->V >= NET_CREDIT_NODE ||
        (uint64_t)n->topo.nodes * (uint64_t)n->V >= NET_CREDIT_NODE)
        return saturn_error_set(err, SATURN_EINPUT, "network too large: %llu routers x %d ports "
                                "x %d VCs exceed the 2^31 VCs a credit can name",
                                (unsigned long long)n->topo.routers, n->P, n->V);
    if (build_ports(n) ||
        build_buffers(n, (enum runs_mode)saturn_config_enum(cfg, "sim.vc_runs")) ||
        build_nodes(n, seed) ||
        net_partition_build(n, (uint32_t)saturn_config_int(cfg, "sim.threads")))
        return saturn_error_set(err, SATURN_ENOMEM,
                                "out of memory building the network");

    n->mob_ports = 0;
    for (int p = 0; p < n->P; p++)
        if (p < n->topo.radix || saturn_config_enum(cfg, "entropy.buffers") == 0)
            n->mob_ports |= 1ULL << p;

    const char *algorithm = saturn_config_str(cfg, "routing.algorithm");
    n->rops = route_find_for(algorithm, n->topo.kind);
    if (!n->rops) {
        char names[256];
        route_names_for(n->topo.kind, names, sizeof names);
        return saturn_config_fail(cfg, "routing.algorithm", err,
                                  "does not route a %s; network.topology = %s needs %s",
                                  n->topo.name, n->topo.name, names);
    }
    /* the torus's VC classes: refused where they mean nothing (a preset's
     * values, e.g. booksim-iq's dateline for its tori, are not the user's) */
    if (n->topo.kind != TOPO_TORUS && n->topo.kind != TOPO_MESH)
        for (const char *const *k = (const char *const[]){"routing.dateline", "routing.tie", NULL};
             *k; k++)
            if (saturn_config_user_set(cfg, *k))
                return saturn_config_fail(cfg, *k, err,
                                          "applies to dimension-order routing on a torus; a %s "
                                          "has no rings (its routings order their VCs "
                                          "themselves)", n->topo.name);
    if (n->rops->reads_crossings && n->rops->reads_crossings(cfg)) {
        /* the policy reads when a flit last crossed into each output */
        n->xbar_last = calloc((size_t)n->topo.routers * n->P, sizeof *n->xbar_last);
        if (!n->xbar_last)
            return saturn_error_set(err, SATURN_ENOMEM, "out of memory (the switch crossings "
                                    "routing.algorithm = %s reads)", n->rops->name);
    }
    rc = n->rops->init(&n->rstate, cfg, n, err);
    if (rc)
        return rc;
    n->alloc_vc1 = n->rops->alloc_vc1 ? n->rops->alloc_vc1(n->rstate) : NULL;
    if (!n->alloc_vc1)
        n->alloc_vc1 = router_alloc_vc1;
    if (n->rops->attach && (rc = n->rops->attach(n, cfg, err))) /* e.g. Disha's lane */
        return rc;
    n->atomic_vc = saturn_config_bool(cfg, "router.atomic_vc") || n->rops->atomic_vc;
    int reroute = saturn_config_enum(cfg, "routing.reroute"); /* auto, once, waiting */
    n->reroute = reroute == 2 || (reroute == 0 && n->rops->reroute);
    if (n->reroute && n->central)
        return saturn_config_fail(cfg, "routing.reroute", err,
                                  "the central arbiter (router.arbiter = central) routes a "
                                  "waiting head again itself; use once or auto");
    n->ctl = ctl_find(saturn_config_str(cfg, "control.model"));
    if (!n->ctl)
        return saturn_config_fail(cfg, "control.model", err, "no such injection control policy");
    if (n->ctl->init && (rc = n->ctl->init(&n->ctl_state, cfg, n, err)))
        return rc;
    if ((rc = credit_classes(n)))
        return saturn_error_set(err, rc, "out of memory building the network");
    if (router_keeps_ready(n) && /* every VC idle: none ready */
        (!(n->vready = calloc((size_t)n->topo.routers * n->P, sizeof *n->vready)) ||
         !(n->va_hp = calloc(n->topo.routers, sizeof *n->va_hp)) ||
         !(n->va_hope = calloc((size_t)n->topo.routers * n->P, sizeof *n->va_hope)) ||
         !(n->va_on = calloc((size_t)n->topo.routers * n->P * n->V, sizeof *n->va_on))))
        return saturn_error_set(err, SATURN_ENOMEM, "out of memory building the network");
    /* Blocks of cycles (net/block.c): their partitions replace the one
     * built above, where the configuration allows them. */
    const uint32_t block = net_block_plan(n, cfg);
    if (block) {
        net_partition_free(n);
        free(n->ccls);
        n->ccls = NULL;
        n->nccls = 0;
        n->block_max = block;
        if (net_partition_build(n, (uint32_t)saturn_config_int(cfg, "sim.threads")) ||
            credit_classes(n) ||
            !(n->blk = calloc(block, sizeof *n->blk)))
            return saturn_error_set(err, SATURN_ENOMEM, "out of memory building the network");
    }
    if (n->nthreads > 1 && net_pool_start(n))
        return saturn_error_set(err, SATURN_ENOMEM, "cannot start %u threads (sim.threads)",
                                n->nthreads);
    return SATURN_OK;
}

int net_record_links(struct net *n, bool chart)
{
    size_t nports = (size_t)n->topo.routers * n->P;
    n->link_first = calloc(nports, sizeof *n->link_first);
    n->link_last = calloc(nports, sizeof *n->link_last);
    n->link_busy = calloc(nports, sizeof *n->link_busy);
    n->node_span = calloc((size_t)n->nnodes * 4, sizeof *n->node_span);
    if (!n->link_first || !n->link_last || !n->link_busy || !n->node_span)
        return SATURN_ENOMEM;
    if (!chart)
        return SATURN_OK;
    struct net_trace *t = calloc(1, sizeof *t);
    if (!t || !(t->link_of_port = malloc(nports * sizeof *t->link_of_port))) {
        free(t);
        return SATURN_ENOMEM;
    }
    for (size_t i = 0; i < nports; i++)
        t->link_of_port[i] = n->ports[i].kind == PORT_NET && (int)(i % (size_t)n->P) < n->topo.radix
                                 ? t->links++
                                 : NET_NONE;
    n->trace = t;
    return SATURN_OK;
}

/* Rows of the chart up to this cycle's, grown in a serial phase so that
 * the routers of several threads only write cells of their own links. */
static void trace_grow(struct net *n)
{
    struct net_trace *t = n->trace;
    if (n->now < t->cap_rows)
        return;
    uint64_t cap = t->cap_rows ? t->cap_rows * 2 : 256;
    while (cap <= n->now)
        cap *= 2;
    uint8_t *c = realloc(t->cell, (size_t)cap * t->links);
    if (!c)
        return; /* the chart stops growing; the simulation goes on */
    memset(c + (size_t)t->cap_rows * t->links, 0, (size_t)(cap - t->cap_rows) * t->links);
    t->cell = c;
    t->cap_rows = cap;
}

/* Cell (link of gop, now) of the chart: a send overrides "blocked". */
void net_trace_cell(struct net *n, struct net_part *w, uint32_t gop, uint8_t value)
{
    struct net_trace *t = n->trace;
    uint32_t link = t->link_of_port[gop];
    if (link == NET_NONE || n->now >= t->cap_rows)
        return;
    w->trace_rows = n->now + 1;
    uint8_t *cell = &t->cell[(size_t)n->now * t->links + link];
    if (value != 1 || *cell == 0)
        *cell = value;
}

void net_destroy(struct net *n)
{
    net_pool_stop(n);
    free(n->xbar_last);
    free(n->link_first);
    free(n->link_last);
    free(n->link_busy);
    free(n->node_span);
    if (n->trace) {
        free(n->trace->link_of_port);
        free(n->trace->cell);
        free(n->trace);
    }
    if (n->rops && n->rops->free)
        n->rops->free(n->rstate);
    if (n->ctl && n->ctl->free)
        n->ctl->free(n->ctl_state);
    size_t nvc = (size_t)n->topo.routers * n->P * n->V;
    if (n->ivcs && !n->slab)
        for (size_t i = 0; i < nvc; i++)
            free(n->ivcs[i].buf);
    if (n->ob_ring && !n->ob_slab)
        for (size_t i = 0; i < nvc; i++)
            free(n->ob_ring[i].ob);
    free(n->ob_slab);
    free(n->ob_ring);
    free(n->ob_up);
    if (n->nodes)
        for (uint32_t i = 0; i < n->nnodes; i++)
            if (n->nodes[i].q != n->nodes[i].q_in)
                free(n->nodes[i].q);
    net_partition_free(n);
    free(n->blk);
    free(n->slab);
    free(n->ivcs);
    free(n->iroute);
    free(n->ivc_routed);
    free(n->ovcs);
    free(n->ovc_freed);
    free(n->vready);
    free(n->va_hp);
    free(n->va_hope);
    free(n->va_on);
    free(n->audit_scratch);
    free(n->ports);
    free(n->prare);
    free(n->ccls);
    free(n->nodes);
    free(n->node_rng);
    free(n->inj_credits);
    free(n->node_active);
    free(n->pk_block);
    free(n->pk_free);
    free(n->router_active);
    free(n->rocc);
    free(n->arr_head);
    free(n->rports);
    free(n->rwait);
    free(n->robuf);
    free(n->rnv);
    free(n->rnvc);
    free(n->rna);
    free(n->rstamp);
    free(n->arb_rr);
    free(n->arb_free);
    for (int i = 0; i < n->nhooks; i++)
        n->hooks[i].ops->destroy(n->hooks[i].state);
    free(n->router_rng);
    topo_free(&n->topo);
    memset(n, 0, sizeof *n);
}

/* ---- packets and sources ------------------------------------------------ */

_Static_assert(sizeof(struct packet) == 64, "a packet record is one cache line");

static bool packet_pool_grow(struct net *n)
{
    uint32_t cap = n->pk_cap ? n->pk_cap * 2 : 1024;
    /* Each block is kept as soon as it moves, so a failure leaks nothing.
     * The records start at the block's first line boundary: a packet's
     * birth, head and tail then miss on one line, not two. A large block
     * keeps its offset in the page as it grows (mremap), so the records
     * seldom move within it, and growing copies no more than realloc. */
    const size_t at = n->pk_block ? (size_t)((char *)n->pk - (char *)n->pk_block) : 0;
    char *b = realloc(n->pk_block, (size_t)cap * sizeof *n->pk + 63);
    if (!b)
        return false;
    n->pk_block = b;
    struct packet *pk = (struct packet *)(b + (-(uintptr_t)b & 63));
    if ((char *)pk != b + at)
        memmove(pk, b + at, (size_t)n->pk_cap * sizeof *pk);
    n->pk = pk;
    if (n->huge_pages) /* before the new records are first touched (the memset) */
        net_hint_huge(b, (size_t)cap * sizeof *n->pk + 63);
    uint32_t *fr = realloc(n->pk_free, (size_t)cap * sizeof *fr);
    if (!fr)
        return false;
    n->pk_free = fr;
    /* Whole-pool scans (entropy windows) read every slot: none may be garbage. */
    memset(pk + n->pk_cap, 0, (size_t)(cap - n->pk_cap) * sizeof *pk);
    /* Hand out low ids first: push in reverse. */
    for (uint32_t i = cap; i > n->pk_cap; i--)
        n->pk_free[n->pk_nfree++] = i - 1;
    n->pk_cap = cap;
    return true;
}

void net_ivc_put_ring(struct ivc *iv, uint32_t pid, uint32_t w, uint32_t count)
{
    net_ivc_spill(iv);
    iv->buf[(iv->head + count) & iv->mask] = (flit_t){pid, (uint16_t)w, (uint16_t)(w >> 16)};
}

uint32_t net_packet_new(struct net *n, uint32_t src, uint32_t dst,
                        uint32_t len, bool measured)
{
    if (n->pk_nfree == 0 && !packet_pool_grow(n)) {
        fprintf(stderr, "saturn: out of memory (packet pool)\n");
        abort();
    }
    uint32_t pid = n->pk_free[--n->pk_nfree];
    struct packet *p = &n->pk[pid];
    memset(p, 0, sizeof *p);
    p->src = src;
    p->dst = dst;
    p->len = len;
    if (len > n->pk_len_max)
        n->pk_len_max = len;
    p->measured = measured;
    p->alive = 1;
    p->t_gen = n->now;
    if (n->rops->at_source)
        n->rops->at_source(n->rstate, n, p, rng_next(&n->node_rng[src]));
    n->pk_live++;
    if (!queue_push(&n->nodes[src], pid)) {
        fprintf(stderr, "saturn: out of memory (source queue)\n");
        abort();
    }
    n->queued_packets++;
    n->queued_flits += len;
    n->flits_generated += len;
    n->node_active[src >> 6] |= 1ULL << (src & 63);
    return pid;
}

uint64_t net_source_flits(const struct net *n) { return n->queued_flits; }

/* The VC a new packet from this node enters its router on: round-robin
 * over the data injection VCs that can take it under the switching mode. */
static int pick_injection_vc(const struct net *n, uint32_t node, uint32_t len)
{
    const struct node *nd = &n->nodes[node];
    const int32_t *cr = &n->inj_credits[(size_t)node * n->V];
    int32_t need = n->switching == SW_VCT ? (int32_t)len : 1;
    if (n->inj_vc_dst) {
        const struct packet *p = &n->pk[nd->q[nd->qhead]];
        int v = (int)((uint64_t)p->dst * (uint64_t)n->inj_vcs / n->topo.nodes);
        return n->buf_cap == 0 || cr[v] >= need ? v : -1;
    }
    for (int i = 1, v = nd->last_vc; i <= n->inj_vcs; i++) {
        if (++v >= n->inj_vcs)
            v = 0;
        if (n->buf_cap == 0 || cr[v] >= need)
            return v;
    }
    return -1;
}

bool net_can_start(const struct net *n, uint32_t node)
{
    const struct node *nd = &n->nodes[node];
    return nd->cur == NET_NONE && nd->qcount &&
           pick_injection_vc(n, node, n->pk[nd->q[nd->qhead]].len) >= 0;
}

/* What a range of sources did in a cycle (net_inject_nodes): packets
 * started, flits sent; the caller adds it to the counts. */
struct src_tally {
    uint64_t started, flits;
};

static inline __attribute__((always_inline)) void inject_node(struct net *n, uint32_t i,
                                                              struct net_part *own,
                                                              const uint64_t now,
                                                              struct src_tally *c)
{
    struct node *nd = &n->nodes[i];
    if (nd->cur == NET_NONE) {
        if (nd->qcount == 0) {
            n->node_active[i >> 6] &= ~(1ULL << (i & 63));
            return;
        }
        if (__builtin_expect(n->in_block, 0) && n->pk[nd->q[nd->qhead]].t_gen > now)
            return; /* born for a later cycle of the block (net_block_open) */
        if (n->ctl_gate) {
            if (now < n->ctl_gate[i])
                return;
        } else if (n->ctl->may_start && !n->ctl->may_start(n->ctl_state, n, i)) {
            return;
        }
        uint32_t pid = nd->q[nd->qhead];
        int v = pick_injection_vc(n, i, n->pk[pid].len);
        if (v < 0)
            return;
        nd->qhead = (nd->qhead + 1) & nd->qmask;
        nd->qcount--;
        c->started++;
        nd->cur = pid;
        nd->cur_seq = 0;
        nd->cur_len = n->pk[pid].len;
        nd->cur_vc = nd->last_vc = (uint8_t)v;
        n->pk[pid].t_inj = now;
        n->pk[pid].injected = 1;
    }
    int32_t *cr = &n->inj_credits[(size_t)i * n->V + nd->cur_vc];
    if (n->buf_cap && *cr <= 0)
        return;
    flit_t f = {nd->cur, (uint16_t)nd->cur_seq, 0};
    if (nd->cur_seq == 0)
        f.flags |= FLIT_HEAD;
    if (nd->cur_seq + 1 == nd->cur_len)
        f.flags |= FLIT_TAIL;
    if (n->buf_cap)
        (*cr)--;
    const uint32_t gp = nd->gp;
    struct net_part *dw = /* the partition of the node's router (own: the caller's) */
        own ? own : n->nparts == 1 ? n->parts : &n->parts[n->word_part[n->ports[gp].rp >> 12]];
    /* A bounded injection VC takes the flit as a link from a router of its
     * partition sends it (net_send_deferred: the arrival entry carries it,
     * without an event): the partitions wait in this phase. */
    if (n->buf_cap && dw->direct != UINT32_MAX)
        net_send_deferred(n, dw, now + n->inject_latency, gp, nd->cur_vc, f);
    else
        net_push_event(n, n->wheel_shared ? dw : net_serial_part(n), now + n->inject_latency,
                       EV_FLIT, dw->index, gp, nd->cur_vc, f);
    c->flits++;
    if (n->node_span) { /* the injection channel's occupation */
        if (!n->node_span[4 * (size_t)i])
            n->node_span[4 * (size_t)i] = now + 1;
        n->node_span[4 * (size_t)i + 1] = now + 1;
    }
    if (++nd->cur_seq == nd->cur_len) {
        nd->cur = NET_NONE;
        if (n->ctl->packet_sent)
            n->ctl->packet_sent(n->ctl_state, n, i);
    }
}

/* ---- sinks and event delivery ------------------------------------------- */

/* A failure in a serial phase: the first one is reported. */
static void __attribute__((format(printf, 2, 3))) fail(struct net *n, const char *fmt, ...)
{
    if (n->failed)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(n->fail_msg, sizeof n->fail_msg, fmt, ap);
    va_end(ap);
    n->failed = true;
}

void net_part_fail(struct net_part *w, uint64_t key, const char *fmt, ...)
{
    if (w->failed && w->fail_key <= key)
        return;
    w->fail_key = key;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w->fail_msg, sizeof w->fail_msg, fmt, ap);
    va_end(ap);
    w->failed = true;
}

/* The ejection channel's occupation (with the link records). */
static inline void eject_span(struct net *n, uint32_t node)
{
    if (n->node_span) {
        if (!n->node_span[4 * (size_t)node + 2])
            n->node_span[4 * (size_t)node + 2] = n->now + 1;
        n->node_span[4 * (size_t)node + 3] = n->now + 1;
    }
}

/* net_sink_flit's every case (a tail, a hook to tell, a failure to
 * report), out of line: it saves registers for its calls. */
static __attribute__((noinline)) void sink_flit_all(struct net *n, uint32_t node, flit_t f)
{
    if (f.pid >= n->pk_cap || !n->pk[f.pid].alive) {
        fail(n, "flit of a dead packet %u reached node %u (duplicate delivery?)",
             f.pid, node);
        return;
    }
    struct packet *p = &n->pk[f.pid];
    if (p->dst != node)
        fail(n, "packet %u for node %u delivered at node %u", f.pid, p->dst, node);
    if (f.seq != p->rx)
        fail(n, "packet %u: flit %u arrived when flit %u was expected (out of order)",
             f.pid, f.seq, p->rx);
    p->rx++;
    eject_span(n, node);
    if (n->hook_delivered)
        for (int i = 0; i < n->nhooks; i++)
            if (n->hooks[i].ops->node_delivered)
                n->hooks[i].ops->node_delivered(n, n->hooks[i].state, node);
    n->flits_in_net--;
    n->flits_ejected++;
    n->last_move = n->now;
    if (f.flags & FLIT_TAIL) {
        if (p->rx != p->len)
            fail(n, "packet %u: tail after %u of %u flits", f.pid, p->rx, p->len);
        n->packets_in_net--;
        n->packets_delivered++;
        if (n->deliver) /* may create packets: p may move */
            n->deliver(n->deliver_user, n, f.pid);
        n->pk[f.pid].alive = 0;
        n->pk_live--;
        n->pk_free[n->pk_nfree++] = f.pid;
    }
}

/* net_sink_flit, inlined into the cycle's loop over the sinks (deliver_sinks) */
static inline __attribute__((always_inline)) void sink_flit(struct net *n, uint32_t node, flit_t f)
{
    /* A body flit in order at its destination (most flits), with no hook
     * to tell: counted here without a call; the rest (the same steps) by
     * sink_flit_all. */
    if (f.pid < n->pk_cap) {
        struct packet *p = &n->pk[f.pid];
        if (p->alive && p->dst == node && f.seq == p->rx && !(f.flags & FLIT_TAIL) &&
            !n->hook_delivered) {
            p->rx++;
            eject_span(n, node);
            n->flits_in_net--;
            n->flits_ejected++;
            n->last_move = n->now;
            return;
        }
    }
    sink_flit_all(n, node, f);
}

void net_sink_flit(struct net *n, uint32_t node, flit_t f) { sink_flit(n, node, f); }


/* One arrival's masks, its VC holding count flits before it: they are set
 * again when the VC held flits already (a VC holding flits has its bit, its
 * port its router's, and that router is active), and the count of VCs
 * holding flits grows by the first flit alone. */
static inline __attribute__((always_inline)) void
arrival_masks(struct port *pt, uint32_t v, uint32_t r, uint32_t count, uint32_t *rnvc,
              uint64_t *rports, uint64_t *router_active, uint64_t mob_ports, const bool mob_all)
{
    const uint32_t first = count == 0, p = pt->rp & 63;
    pt->nonempty |= 1ULL << v;
    rnvc[r] += mob_all ? first : first & (uint32_t)(mob_ports >> p);
    rports[r] |= 1ULL << p;
    /* without output buffers a router whose ports hold flits is active */
    router_active[r >> 6] |= 1ULL << (r & 63);
}

/* deliver_arrivals_as's entries from e on, up to the first that goes into
 * its VC's ring (net_ivc_put_run false): it, or end past the last. Out of
 * line and without a call inside, its loop keeps its bases in registers
 * (with the ring's call in it they lived on the stack, reloaded every
 * arrival); the caller takes the rare ring entry and calls it again. With
 * runs false (n->vc_runs) every entry goes into its VC's ring, here. */
static inline __attribute__((always_inline)) const uint32_t *
deliver_runs_as(struct net *n, const uint32_t *e, const uint32_t *const end,
                const bool keep_wait, const bool mob_all, const bool runs)
{
    const uint32_t V = (uint32_t)n->V;
    const uint64_t mob_ports = n->mob_ports;
    struct port *const ports = n->ports;
    struct ivc *const ivcs = n->ivcs;
    uint32_t *const rnvc = n->rnvc, *const rocc = n->rocc;
    uint64_t *const rports = n->rports, *const router_active = n->router_active;
    for (; e < end; e += 3) {
        const uint32_t x = e[0], gp = x >> 6, v = x & 63;
        struct port *pt = &ports[gp];
        struct ivc *iv = &ivcs[(size_t)gp * V + v];
        const uint32_t r = pt->rp >> 6;
        if (keep_wait) { /* as the routers' loop counts them in (net_fused_arrivals) */
            net_obuf_count_in(n, r, pt, iv, v, net_deferred_flit(e));
            rocc[r]++; /* n->rocc: with output buffers only */
            router_active[r >> 6] |= 1ULL << (r & 63);
            continue;
        }
        const uint32_t count = iv->count;
        if (!runs)
            iv->buf[(iv->head + count) & iv->mask] = net_deferred_flit(e);
        else if (!net_ivc_put_run(iv, e[1], e[2], count))
            return e;
        iv->count = count + 1;
        arrival_masks(pt, v, r, count, rnvc, rports, router_active, mob_ports, mob_all);
    }
    return end;
}
#define DELIVER_RUNS(name, keep_wait, mob_all, runs)                                            \
    static __attribute__((noinline)) const uint32_t *name(struct net *n, const uint32_t *e,     \
                                                          const uint32_t *end)                  \
    {                                                                                           \
        return deliver_runs_as(n, e, end, keep_wait, mob_all, runs);                            \
    }
DELIVER_RUNS(deliver_runs_wait, true, false, true) /* (keep_wait: n->vc_runs asked per flit) */
DELIVER_RUNS(deliver_runs_wait_all, true, true, true)
DELIVER_RUNS(deliver_runs, false, false, true)
DELIVER_RUNS(deliver_runs_all, false, true, true)
DELIVER_RUNS(deliver_rings, false, false, false)
DELIVER_RUNS(deliver_rings_all, false, true, false)

/* Flits a router of partition w sent to its own routers (net_send_deferred)
 * and arriving now, listed in aq (one of its due slots): each is put into
 * its VC (net_ivc_put: a run, or the ring) and counts from now on; their
 * masks are set as an event's arrival sets them. Whether any arrived
 * (never on the meta VC: its flits travel as events, meta_xfer). Entries
 * are net_send_deferred's, three words each. */
static inline __attribute__((always_inline)) bool
deliver_arrivals_as(struct net *n, struct creditq *aq, const bool keep_wait, const bool mob_all)
{
    const uint32_t na = aq->n;
    if (!na)
        return false;
    const uint32_t *e = aq->i, *const end = aq->i + na;
    for (;;) {
        e = keep_wait   ? (mob_all ? deliver_runs_wait_all(n, e, end) : deliver_runs_wait(n, e, end))
            : n->vc_runs ? (mob_all ? deliver_runs_all(n, e, end) : deliver_runs(n, e, end))
                         : (mob_all ? deliver_rings_all(n, e, end) : deliver_rings(n, e, end));
        if (e == end || keep_wait) /* (keep_wait: deliver_runs_as takes every entry) */
            break;
        /* a ring's entry */
        const uint32_t x = e[0], gp = x >> 6, v = x & 63;
        struct port *pt = &n->ports[gp];
        struct ivc *iv = &n->ivcs[(size_t)gp * (uint32_t)n->V + v];
        const uint32_t count = iv->count;
        net_ivc_put_ring(iv, e[1], e[2], count);
        iv->count = count + 1;
        arrival_masks(pt, v, pt->rp >> 6, count, n->rnvc, n->rports, n->router_active,
                      n->mob_ports, mob_all);
        e += 3;
    }
    aq->n = 0;
    return true;
}

/* With output buffers the routers' loop (RM_PLAIN_OBUF) counts a router's
 * arrivals in as it steps the router (net_fused_arrivals), while its ports
 * and VCs are fetched anyway: on networks beyond the caches a separate pass
 * fetched them once more (paper 004's 16,512 nodes: two of a flit-hop's
 * nineteen L2 misses). Exact as long as nothing reads a router's input
 * VCs between this phase and its step: no hook (the recovery lane,
 * metapackets), no routing policy's cycle (PiggyBack, ECtN), no entropy
 * circuit (it reads Nv as each router's cycle starts, fused or not, but
 * its sums span routers); the sinks delivered between them read no router.
 * Only the output-buffered loop (run_plain_obuf) counts them in: the other
 * cycles (router_step_any for the rarer options) keep the separate pass. */
bool net_part_fuses(const struct net *n)
{
    return n->arr_head && !n->nhooks && !n->rops->cycle && !n->router_mob &&
           router_loop_counts_arrivals(n);
}

/* The fused arrivals of aq: listed by router (w->fz, n->arr_head), each
 * router made active; whether any arrived. */
static bool list_arrivals(struct net *n, struct net_part *w, struct creditq *aq)
{
    const uint32_t na = aq->n / 3; /* (net_send_deferred's entries) */
    if (!na)
        return false;
    if (w->fz_n + na > w->fz_cap) {
        uint32_t cap = w->fz_cap ? w->fz_cap : 1024;
        while (cap < w->fz_n + na)
            cap *= 2;
        struct net_arrival *fz = realloc(w->fz, (size_t)cap * sizeof *fz);
        if (!fz) {
            net_part_fail(w, 0, "out of memory (arrivals)");
            aq->n = 0;
            return false;
        }
        w->fz = fz;
        w->fz_cap = cap;
    }
    const uint32_t P = (uint32_t)n->P;
    uint32_t *const head = n->arr_head;
    uint64_t *const router_active = n->router_active;
    struct net_arrival *const fz = w->fz;
    const uint32_t *const ai = aq->i;
    uint32_t k = w->fz_n;
    const uint32_t V = (uint32_t)n->V;
    for (uint32_t i = 0; i < 3 * na; i += 3, k++) {
        const uint32_t x = ai[i], r = (x >> 6) / P; /* (the port's line not fetched) */
        fz[k].x = x;
        fz[k].f = net_deferred_flit(&ai[i]);
        if (fz[k].f.flags & FLIT_HEAD) {
            /* its router routes it when it steps (net_route_front): its packet's
             * record and its VC's routing line, both beyond the caches on
             * paper 004's network, fetched meanwhile */
            __builtin_prefetch(&n->pk[fz[k].f.pid]);
            __builtin_prefetch(&n->iroute[(size_t)(x >> 6) * V + (x & 63)]);
        }
        fz[k].next = head[r];
        head[r] = k;
        router_active[r >> 6] |= 1ULL << (r & 63);
    }
    w->fz_n = k;
    aq->n = 0;
    return true;
}

/* n->rwait is read only with output buffers (RM_PLAIN_OBUF): a network
 * without them skips its store (the torus's arrivals). */
static __attribute__((noinline)) bool deliver_arrivals_wait(struct net *n, struct creditq *aq)
{
    return deliver_arrivals_as(n, aq, true, false);
}
static __attribute__((noinline)) bool deliver_arrivals_wait_all(struct net *n,
                                                                struct creditq *aq)
{
    return deliver_arrivals_as(n, aq, true, true);
}
static __attribute__((noinline)) bool deliver_arrivals(struct net *n, struct creditq *aq)
{
    return deliver_arrivals_as(n, aq, false, false);
}
/* Every port's buffers counted in the mobility (n->mob_ports, entropy.buffers = all). */
static __attribute__((noinline)) bool deliver_arrivals_all(struct net *n, struct creditq *aq)
{
    return deliver_arrivals_as(n, aq, false, true);
}

/* Output VC x (global port * V + VC) has room again: the input VC holding
 * it, if any, is ready (n->vready). */
static __attribute__((noinline)) void ready_again(struct net *n, uint32_t x)
{
    const struct ovc *o = &n->ovcs[x];
    if (o->owner < 0)
        return;
    const uint32_t V = (uint32_t)n->V, r = n->ports[x / V].rp >> 6;
    n->vready[r * (uint32_t)n->P + (uint32_t)o->owner / V] |= 1ULL << ((uint32_t)o->owner % V);
}

/* Credits ci[0 .. nc) arrive; with the ready mask kept (ready), an output
 * VC back from no room makes its holder ready. */
static inline __attribute__((always_inline)) void credits_in(struct net *n, const uint32_t *ci,
                                                             uint32_t nc, const bool ready)
{
    struct ovc *const ovcs = n->ovcs;
    int32_t *const inj_credits = n->inj_credits;
    for (uint32_t i = 0; i < nc; i++) {
        uint32_t x = ci[i];
        if (__builtin_expect(x & NET_CREDIT_NODE, 0))
            inj_credits[x & ~NET_CREDIT_NODE]++;
        else if (ovcs[x].credits++ == 0 && ready)
            ready_again(n, x);
    }
}

/* This cycle's events for partition w's routers and nodes, from every
 * partition. None of them can depend on another's order: an input VC
 * takes at most one flit per cycle, credits only add up. */
void net_part_deliver(struct net *n, struct net_part *w)
{
    /* Loop invariants in locals: the stores below into buffers and masks
     * could alias these fields of n, which the compiler would reload. */
    const uint32_t V = (uint32_t)n->V, Vd = (uint32_t)n->Vd;
    const uint64_t mob_ports = n->mob_ports, meta_bit = n->meta_bit;
    struct port *const ports = n->ports;
    struct ivc *const ivcs = n->ivcs;
    uint32_t *const rnvc = n->rnvc, *const rocc = n->rocc;
    uint64_t *const rports = n->rports, *const router_active = n->router_active;
    bool moved = false; /* a data flit arrived: progress for the watchdog */
    const uint64_t now = w->now;
    size_t due[NET_NEAR + 1];
    const uint32_t ndue = net_due_slots(n, now, due);
    /* each wheel's queues in turn (a partition's, or with a shared wheel a
     * thread's), the long wheel's slot before the short ones' */
    const uint32_t nsrc = net_wheels(n);
    for (uint32_t k = 0; k < nsrc * ndue; k++) {
        struct evq *q = &net_wheel_part(n, k / ndue)->wheel[due[k % ndue] * n->nq + w->index];
        const uint32_t nev = q->n;
        for (uint32_t i = 0; i < nev; i++) {
            const struct event *e = &q->e[i];
            switch (e->kind) {
            case EV_FLIT: {
                struct port *pt = &ports[e->target];
                struct ivc *iv = &ivcs[(size_t)e->target * V + e->vc];
                net_ivc_spill(iv); /* (with output buffers: then into the ring) */
                if (iv->count == iv->mask + 1 &&
                    (pt->cap != 0 || !net_ring_grow(&iv->buf, &iv->head, iv->count, &iv->mask))) {
                    net_part_fail(w, net_fail_key_arrival(EV_FLIT, (size_t)e->target * V + e->vc),
                                  "input buffer overflow at port %u vc %u (credit bug)",
                                  e->target, e->vc);
                    break;
                }
                iv->buf[(iv->head + iv->count++) & iv->mask] = e->f;
                pt->nonempty |= 1ULL << e->vc;
                moved |= e->vc != Vd; /* meta flits are no progress for the watchdog */
                uint32_t r = pt->rp >> 6, p = pt->rp & 63;
                if (iv->count == 1) { /* it was empty: maybe a head without an output VC */
                    if (((mob_ports >> p) & 1) && !((meta_bit >> e->vc) & 1))
                        rnvc[r]++;
                    n->rwait[r] |= 1ULL << p;
                }
                rports[r] |= 1ULL << p;
                if (n->obuf_on)
                    rocc[r]++;
                router_active[r >> 6] |= 1ULL << (r & 63);
                break;
            }
            case EV_OBUF: {
                struct ovc *o = &n->ovcs[(size_t)e->target * V + e->vc];
                struct ob_ring *g = &n->ob_ring[(size_t)e->target * V + e->vc];
                if (o->ob_count == g->mask + 1 &&
                    (!n->obuf_unlimited ||
                     !net_ring_grow(&g->ob, &o->ob_head, o->ob_count, &g->mask))) {
                    net_part_fail(w, net_fail_key_arrival(EV_OBUF, (size_t)e->target * V + e->vc),
                                  "output buffer overflow at port %u vc %u", e->target, e->vc);
                    break;
                }
                if (e->f.flags & FLIT_HEAD)
                    n->pk[e->f.pid].t_out = now;
                net_ob_put(n, o, e->f);
                struct port *pt = &n->ports[e->target];
                pt->ob_nonempty |= 1ULL << e->vc;
                n->robuf[pt->rp >> 6] |= 1ULL << (pt->rp & 63);
                break;
            }
            }
        }
        q->n = 0;
    }
    const bool mob_all = n->mob_ports == net_all_ports(n);
    w->fused = net_part_fuses(n);
    w->fz_n = 0;
    /* the long wheel's slot from each thread (blocks on threads: the other
     * threads' partitions send there, into lists of their own, arrive_by),
     * in thread order; then the short wheels' */
    const uint32_t nlong = n->wheel_shared ? n->nthreads : 1;
    for (uint32_t d = 0; d < ndue - 1 + nlong; d++) {
        struct creditq *aq = d < nlong ? &w->arrive_by[d][due[0]] : &w->arrive[due[d - nlong + 1]];
        if (w->fused ? list_arrivals(n, w, aq)
            : n->obuf_on
                ? (mob_all ? deliver_arrivals_wait_all(n, aq) : deliver_arrivals_wait(n, aq))
                : (mob_all ? deliver_arrivals_all(n, aq) : deliver_arrivals(n, aq)))
            moved = true;
    }
    if (moved)
        w->last_move = now;
    /* Credits only add up (range checked by the audit, sim.check_invariants). */
    for (uint32_t k = 0; k < nsrc * ndue; k++) {
        struct creditq *q =
            &net_wheel_part(n, k / ndue)->credit[due[k % ndue] * n->nparts + w->index];
        if (n->vready)
            credits_in(n, q->i, q->n, true);
        else
            credits_in(n, q->i, q->n, false);
        q->n = 0;
    }
}

/* Flits reaching their nodes now, in partition order and, within one,
 * in the order its routers sent them: router order, whatever the number
 * of partitions (delivery callbacks create packets; the order decides
 * their ids). */
void net_deliver_sinks_part(struct net *n, uint32_t src)
{
    size_t due[NET_NEAR + 1];
    const uint32_t ndue = net_due_slots(n, n->now, due), lane = net_sink_lane(n, src);
    for (uint32_t d = 0; d < ndue; d++) {
        struct evq *q = &n->parts[src].wheel[due[d] * n->nq + lane];
        for (uint32_t i = 0; i < q->n; i++)
            sink_flit(n, q->e[i].target, q->e[i].f);
        q->n = 0;
    }
}

static void deliver_sinks(struct net *n)
{
    for (uint32_t src = 0; src < n->nparts; src++)
        net_deliver_sinks_part(n, src);
}

static bool sinks_due(const struct net *n)
{
    size_t due[NET_NEAR + 1];
    const uint32_t ndue = net_due_slots(n, n->now, due);
    for (uint32_t src = 0; src < n->nparts; src++)
        for (uint32_t d = 0; d < ndue; d++)
            if (n->parts[src].wheel[due[d] * n->nq + net_sink_lane(n, src)].n)
                return true;
    return false;
}

/* What the partitions counted this cycle, in partition order; the
 * failure with the smallest key. */
static void merge_parts(struct net *n)
{
    const struct net_part *first = NULL;
    for (uint32_t t = 0; t < n->nparts; t++) {
        struct net_part *w = &n->parts[t];
        n->flit_hops += w->flit_hops;
        n->cyc_nv += w->cyc_nv;
        n->cyc_na += w->cyc_na;
        w->flit_hops = w->cyc_nv = w->cyc_na = 0;
        if (w->last_move > n->last_move)
            n->last_move = w->last_move;
        if (n->trace && w->trace_rows > n->trace->rows)
            n->trace->rows = w->trace_rows;
        if (w->failed && (!first || w->fail_key < first->fail_key))
            first = w;
    }
    if (first && !n->failed) {
        memcpy(n->fail_msg, first->fail_msg, sizeof n->fail_msg);
        n->failed = true;
    }
}

/* net_inject_nodes at cycle now, counted into *c. */
static inline __attribute__((always_inline)) void inject_range(struct net *n, uint32_t lo,
                                                               uint32_t hi, struct net_part *own,
                                                               const uint64_t now,
                                                               struct src_tally *c)
{
    if (lo >= hi)
        return;
    const uint32_t w1 = (hi + 63) / 64;
    for (uint32_t w = lo / 64; w < w1; w++) {
        uint64_t m = n->node_active[w];
        if (w == lo / 64) /* the range's first and last words in part */
            m &= ~0ULL << (lo & 63);
        if (w == w1 - 1 && (hi & 63))
            m &= ~(~0ULL << (hi & 63));
        while (m) {
            uint32_t i = w * 64 + (uint32_t)__builtin_ctzll(m);
            m &= m - 1;
            inject_node(n, i, own, now, c);
        }
    }
}

/* The sources' tally into the network's counts. */
static void sources_counted(struct net *n, const struct src_tally *c)
{
    n->queued_packets -= c->started;
    n->packets_in_net += c->started;
    n->queued_flits -= c->flits;
    n->flits_in_net += c->flits;
    n->flits_injected += c->flits;
}

void net_inject_nodes(struct net *n, uint32_t lo, uint32_t hi, struct net_part *own)
{
    struct src_tally c = {0, 0};
    inject_range(n, lo, hi, own, n->now, &c);
    sources_counted(n, &c);
    if (c.flits)
        n->last_move = n->now;
}

void net_inject_part(struct net *n, struct net_part *w, uint32_t j)
{
    struct src_tally c = {0, 0};
    inject_range(n, w->n_lo, w->n_hi, w, w->now, &c);
    w->blk_started[j] += (uint32_t)c.started;
    w->blk_flits += c.flits;
    if (c.flits)
        w->last_move = w->now;
}

void net_part_block_end(struct net *n, struct net_part *w, uint64_t t0, uint32_t len,
                        struct net_block_counts *blk)
{
    struct src_tally c = {0, w->blk_flits};
    for (uint32_t j = 0; j < len; j++) { /* a start: one more in the net, one less queued */
        blk[j].packets_in_net += w->blk_started[j];
        blk[j].queued_packets -= w->blk_started[j];
        c.started += w->blk_started[j];
    }
    sources_counted(n, &c);
    const struct event *const sk = w->sinks.e;
    const uint32_t m = w->sinks.n;
    for (uint32_t i = 0; i < m && !n->failed;) {
        const uint32_t j = sk[i].vc;
        n->now = t0 + j;
        const int64_t p0 = (int64_t)n->packets_in_net, q0 = (int64_t)n->queued_packets,
                      b0 = (int64_t)(n->queued_flits + n->flits_in_net);
        for (; i < m && sk[i].vc == j; i++)
            sink_flit(n, sk[i].target, sk[i].f);
        blk[j].packets_in_net += (int64_t)n->packets_in_net - p0;
        blk[j].queued_packets += (int64_t)n->queued_packets - q0;
        blk[j].backlog_flits += (int64_t)(n->queued_flits + n->flits_in_net) - b0;
    }
    w->sinks.n = 0;
}

/* One cycle: arrivals, routers, the controller's look, then the sources.
 * Sources come last so that a gate sees this cycle's network; their flits
 * land inject_latency >= 1 cycles later, so the order changes no timing.
 * With several partitions (sim.threads) the arrivals and the routers run
 * in parallel, one thread per partition; everything else is serial, on
 * this thread, between barriers (docs/PARALLEL.md). */
int net_step(struct net *n)
{
    if (__builtin_expect(n->meta_bit && !n->side, 0)) { /* net_create without sim_net_create */
        snprintf(n->fail_msg, sizeof n->fail_msg, "gather.mode = metapacket reserved the side VC "
                 "but no metapackets are attached (create the network with sim_net_create)");
        n->failed = true;
        return SATURN_EINTERNAL;
    }
    net_wheel_turn(n); /* before anything is sent this cycle */
    for (uint32_t t = 0; t < n->nparts; t++) /* (a block's partitions have cycles of their own) */
        n->parts[t].now = n->now;
    for (int i = 0; i < n->nhooks; i++) /* they sample the network as the last cycle left it */
        if (n->hooks[i].ops->cycle_start)
            n->hooks[i].ops->cycle_start(n, n->hooks[i].state);
    n->cyc_nv = n->cyc_na = 0;
    if (n->trace)
        trace_grow(n);
    n->mid_phase = n->nhooks || n->rops->cycle || sinks_due(n);

    net_pool_sync(n); /* the workers deliver and step their partitions too */
    /* this thread's partitions (without workers, all of them) */
    const uint32_t mine = n->pool ? n->thr_lo[1] : n->nparts;
    for (uint32_t t = 0; t < mine; t++)
        net_part_deliver(n, &n->parts[t]);
    if (n->mid_phase) {
        net_pool_sync(n);
        deliver_sinks(n);
        /* before the routers: the recovery lane takes its links for this
         * cycle, metapackets absorb their arrived flits before the routers
         * see them */
        for (int i = 0; i < n->nhooks; i++)
            if (n->hooks[i].ops->before_routers)
                n->hooks[i].ops->before_routers(n, n->hooks[i].state);
        if (n->rops->cycle)
            n->rops->cycle(n->rstate, n);
        net_pool_sync(n);
    }
    for (uint32_t t = 0; t < mine; t++)
        net_part_routers(n, &n->parts[t]);
    net_pool_sync(n);
    deliver_sinks(n); /* flits ejected with no delay */
    merge_parts(n);

    if (n->ctl->observe)
        n->ctl->observe(n->ctl_state, n);

    net_inject_nodes(n, 0, n->nnodes, n->nparts == 1 ? n->parts : NULL);

    if (n->check && !n->failed)
        net_audit(n);
    n->now++;
    if (n->failed)
        return SATURN_EINTERNAL;
    if (n->flits_in_net > 0 && n->now - n->last_move > n->watchdog)
        return SATURN_EDEADLOCK;
    return SATURN_OK;
}
