/* saturn_memory_estimate: what a configuration will take in memory,
 * computed from the configuration alone (nothing is built: a topology of a
 * billion routers is refused before its coordinate table is allocated).
 *
 * The counts follow net_create and build_buffers: every port of every
 * router has V VC records (input state, routing state, output state), every
 * VC of its link class a power-of-two ring of its capacity (16 flits to
 * start with when unlimited: such rings grow with what they hold), every
 * network port's VCs an output ring when output buffers are on. Packets:
 * the pool grows to the peak of live packets: at most the buffers' flits
 * over the packet length, one packet being injected per node, bounded
 * source queues, and a collective's packets, all released up front.
 * The wheel: its buckets keep their peak size, about half a flit and half
 * a credit per channel per slot when links are half busy. A credit is a
 * counter's 4-byte index; a flit between routers of one partition a 12-byte
 * arrival (net_send_deferred), and one to or from a node, into an unbounded
 * buffer or (sim.threads) across partitions a 16-byte event. What is
 * left out grows with the run, not the network: open-loop source queues
 * beyond saturation, unlimited buffers beyond 16 flits, --chart's cells. */
#include <string.h>

#include "core/packet_flits.h"
#include "experiment/sim.h"
#include "route/route.h"
#include "experiment/workload.h"

static uint64_t pow2_at_least(uint64_t x)
{
    uint64_t p = 1;
    while (p < x)
        p <<= 1;
    return p;
}

int saturn_memory_estimate(const struct saturn_config *cfg, struct saturn_memory *m,
                           struct saturn_error *err)
{
    memset(m, 0, sizeof *m);
    const struct net *n = NULL; /* for sizeof only */
    const bool df = saturn_config_enum(cfg, "network.topology") == TOPO_DRAGONFLY;
    const bool meta = saturn_config_enum(cfg, "gather.mode") == 1;
    struct topo_size ts;
    int rc = topo_size(cfg, &ts, err);
    if (rc)
        return rc;
    const double routers = ts.routers, nodes = ts.nodes;
    const int radix = ts.radix, conc = ts.conc, dims = ts.words, global_ports = ts.global_ports;
    const int P = radix + conc;

    /* VCs per port class, as net_create sets them */
    int inj = (int)saturn_config_int(cfg, "router.vcs"), local = inj, global = inj;
    if (df) {
        local = (int)saturn_config_int(cfg, "dragonfly.local_vcs");
        if (local == 0) {
            const struct route_ops *ro =
                route_find_for(saturn_config_str(cfg, "routing.algorithm"), TOPO_DRAGONFLY);
            local = ro && ro->local_vcs > 3 ? ro->local_vcs : 3;
        }
        global = (int)saturn_config_int(cfg, "dragonfly.global_vcs");
    }
    int V = inj > local ? inj : local;
    V = V > global ? V : global;
    const int extra = meta ? 1 : 0; /* the meta VC on every port */
    V += extra;

    /* flit rings: injection, local and global input VCs; output VCs */
    const uint64_t cap = (uint64_t)saturn_config_int(cfg, "router.buf_flits");
    const uint64_t gcap = df && cap ? (uint64_t)saturn_config_int(cfg, "dragonfly.global_buf_flits")
                                    : cap;
    const uint64_t slot = cap ? pow2_at_least(cap) : 16, gslot = gcap ? pow2_at_least(gcap) : 16;
    const double local_ports = radix - global_ports;
    double flits = routers * (conc * (double)(inj + extra) * (double)slot +
                              local_ports * (double)(local + extra) * (double)slot +
                              global_ports * (double)(global + extra) * (double)gslot);
    const uint64_t ocap = (uint64_t)saturn_config_int(cfg, "router.out_buf_flits");
    const bool ounl = saturn_config_bool(cfg, "router.out_buf_unlimited");
    if (ocap || ounl)
        flits += routers * (local_ports * local + global_ports * global) *
                 (double)(ounl ? 16 : pow2_at_least(ocap));
    m->buffers = (uint64_t)(flits * sizeof(flit_t));

    const double vcs = routers * P * V;
    const double freed = saturn_config_bool(cfg, "router.va_stage") ? sizeof *n->ovc_freed : 0;
    m->vc_state = (uint64_t)(vcs * (double)(sizeof *n->ivcs + sizeof *n->iroute + sizeof *n->ovcs +
                                            (ocap || ounl ? sizeof *n->ob_ring : 0)) +
                             vcs * (freed + (double)sizeof *n->va_on) + /* a bound */
                             routers * P * (double)(sizeof *n->ports + sizeof *n->prare +
                                                    sizeof *n->vready +
                                                    sizeof *n->va_hope) + /* a bound */
                             routers * (double)sizeof *n->va_hp);

    /* packets alive at once */
    const double len = (double)config_packet_flits(cfg, NULL);
    double live = flits / len + nodes;
    const double queue = (double)saturn_config_int(cfg, "traffic.source_queue");
    live += nodes * queue;
    double rel = 0;
    if (workload_of(cfg) == WORKLOAD_COLLECTIVE) { /* collective: all released up front */
        double per = (double)saturn_config_int(cfg, "collective.packets");
        double slices = (double)saturn_config_int(cfg, "collective.slices");
        live += nodes * per * slices;
        rel = nodes * per * (slices * 16 + 4); /* release records, destinations */
    }
    /* a queue slot per packet besides the record; the bound above is
     * seldom reached, which the pool's doubling makes up for */
    m->packets = (uint64_t)(live * (double)(sizeof(struct packet) + 2 * sizeof(uint32_t)) + rel);

    /* routers, nodes, topology, the event wheel, the process itself */
    double per_router = sizeof *n->rocc + sizeof *n->rports + sizeof *n->rwait + sizeof *n->rnv +
                        sizeof *n->rna + sizeof *n->rstamp + sizeof *n->router_rng + 4.0 * dims + 8;
    double per_node = sizeof *n->nodes + sizeof *n->node_rng + /* (its first queue slots in it) */
                      (double)V * sizeof(int32_t) +
                      3 * sizeof(uint64_t) + sizeof(struct rng);
    uint64_t longest = (uint64_t)saturn_config_int(cfg, df ? "dragonfly.global_latency"
                                                           : "router.link_latency");
    static const char *const delays[] = {"router.credit_delay", "router.inject_latency",
                                         "router.eject_latency", NULL};
    for (int i = 0; delays[i]; i++)
        if ((uint64_t)saturn_config_int(cfg, delays[i]) > longest)
            longest = (uint64_t)saturn_config_int(cfg, delays[i]);
    if (df && (uint64_t)saturn_config_int(cfg, "dragonfly.local_latency") > longest)
        longest = (uint64_t)saturn_config_int(cfg, "dragonfly.local_latency");
    longest += (uint64_t)saturn_config_int(cfg, "router.xbar_delay");
    /* per channel and wheel slot, half a flit and half a credit (above) */
    const double slots = (double)pow2_at_least(longest + 1);
    const uint64_t words = ((uint64_t)routers + 63) / 64;
    const uint64_t threads = (uint64_t)saturn_config_int(cfg, "sim.threads");
    /* one partition (at most one per 64 routers) sends every bounded flit as
     * an arrival; with more, the links that cross them send events: all
     * are counted so (a bound) */
    const bool direct =
        (threads < words ? threads : words) <= 1 && routers * P <= (double)(1u << 26);
    const double ev = sizeof(struct event), credit = sizeof(uint32_t),
                 arrival = 3 * sizeof(uint32_t); /* (net_send_deferred's entry) */
    const double local_flit = direct && cap ? arrival : ev;
    const double global_flit = direct && gcap ? arrival : ev;
    double per_slot = local_ports * (local_flit + (cap ? credit : 0)) +
                      global_ports * (global_flit + (gcap ? credit : 0));
    per_slot = routers * per_slot / 2 +
               nodes * ((ev + (cap ? credit : 0)) / 2 + ev / 2); /* injection, ejection */
    double events = slots * per_slot;
    m->other = (uint64_t)(routers * per_router + nodes * per_node + events) + (4u << 20);
    m->total = m->buffers + m->vc_state + m->packets + m->other;
    return SATURN_OK;
}
