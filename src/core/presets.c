/* Named presets: bundles of values that express a paper's model with the
 * engine's knobs. A preset is applied first; files and key=value
 * overrides come after it. Values keep "preset NAME" as their origin. */
#include <stdio.h>
#include <string.h>

#include "saturn/config.h"

struct preset {
    const char *name;
    const char *help;
    const char *const *kv; /* "key=value", NULL-terminated */
};

/* Levitin & Rykalova 2019 (paper 002): a 2D torus; virtual cut-through
 * with unlimited FIFO storage at each output (a blocked packet condenses
 * there); the header appears at the router 1 unit after generation, takes 2
 * units to route, body flits 1 unit through the router, 1 per link; the
 * table-driven minimal adaptive rule; destinations exactly l hops away.
 * The paper's 1-flit input register hands a flit on in the same unit it
 * takes the next one, so a header that spends 2 units there leaves its
 * input link idle for 1 unit a message. With credits (a slot freed at t is
 * reusable at t + 1) a B-flit buffer under a 2-unit header idles its link
 * for 3 - B units (measured: tests/test_levitin.c), so the preset uses 3
 * flits (2 would idle it for 2 units, 4 or more for none: the readings
 * experiments/vct-unlimited compares). The output register is a zero-latency stage in
 * front of the unbounded storage. Five VCs per port let every input
 * condense into one output's storage at once; outputs carry one packet at
 * a time in arrival order (ties: lowest message id). Saturation is judged
 * as the paper judges steady state, on the number of messages over the
 * run: the backlog's growth is fitted from t_min / 2 to the window's end. */
static const char *const levitin2019[] = {
    "network.topology=torus", "network.n=2", "network.k=8",
    "router.vcs=5", "router.buf_flits=3", "router.switching=wormhole",
    "router.out_buf_flits=0", "router.out_buf_unlimited=true", "router.output_order=packet",
    "router.speedup=5", "router.route_delay=2", "router.xbar_delay=0",
    "router.link_latency=1", "router.credit_delay=1", "router.inject_latency=1",
    "router.eject_latency=1",
    "routing.algorithm=table_min",
    "traffic.pattern=distance", "traffic.distance=2", "traffic.packet_length=10",
    "steady.warmup=50000", "steady.measure=0", "steady.trend_from=0.5",
    NULL};

/* BookSim 2's default input-queued router (iq_router with
 * booksim_config.cpp's defaults; experiments/booksim-validation/BOOKSIM.md,
 * checked against BookSim's per-flit trace). saturn's crossing (xfer) is
 * BookSim's switch allocation: a head waits route_delay 2 (routing, VC
 * allocation), and every flit takes xbar_delay 2 (switch traversal and
 * the output's write) and the 1-cycle link, so a head takes 5 cycles a hop
 * and a body flit 3, as in BookSim. VC allocation is a stage of its own
 * (va_stage: a VC freed by a tail goes to a waiting head that crosses the
 * cycle after). A credit sent at the downstream switch allocation is
 * usable upstream 2 cycles later (1-cycle credit channel read at the next
 * step, credit_delay 0): credit_delay 2, a 5-cycle loop (a lone 16-flit
 * packet behind 2-, 3-, 4-, 5-flit buffers over 6 hops: 73, 62, 55, 52
 * cycles in both). The source adds a cycle and a 1-cycle inject channel
 * (BookSim counts from creation: inject_latency 2), the eject channel 1.
 * So a lone P-flit packet over H hops of 1-cycle links takes
 * 2 + 1 + 4 (H + 1) + H + (P - 1) = 22 + 5H cycles for P = 16 (BookSim's
 * torus links are 2 cycles unless use_noc_latency = 0: set
 * router.link_latency = 2 to match). 16 VCs of 8 flits, BookSim's default
 * 1-iteration iSLIP VC and switch allocators, DOR with its ring-entry VC
 * classes, uniform traffic that may pick the source. */
static const char *const booksim_iq[] = {
    "router.vcs=16", "router.buf_flits=8", "router.switching=wormhole",
    "router.vc_alloc=islip", "router.sw_alloc=islip", "router.va_stage=true",
    "router.route_delay=2", "router.xbar_delay=2", "router.link_latency=1",
    "router.credit_delay=2", "router.inject_latency=2", "router.eject_latency=1",
    "routing.algorithm=dor", "routing.dateline=entry", "routing.tie=random",
    "traffic.uniform_self=true", NULL};

/* Fuentes et al. (paper 004, Table I): the canonical Dragonfly p = 8,
 * a = 16, h = 8 (129 groups, 16,512 nodes), palmtree global links;
 * input-output-buffered routers with a 5-cycle pipeline (4 cycles of
 * routing and allocation, 1 of crossbar) and 2x internal speedup; VCT with
 * 8-phit packets, 32-phit buffers per local input VC and per output VC,
 * 256 per global input VC; links of 10 (local) and 100 (global) cycles,
 * credits the same; 3 injection VCs, 2 global, 3 local (4 for val, ugal
 * and pb: dragonfly.local_vcs = 0); 15,000 measured cycles. Sources stop
 * generating when their queue is full, as FOGSim's (the paper gives no
 * size: 375 packets, the 3 injection VCs of 1,000 phits of FOGSim's sample
 * configuration). The mechanisms the paper leaves to FOGSim take their
 * defaults (routing.reroute, dragonfly.global_misroute = mm, ...:
 * docs/DRAGONFLY.md). The routing is for the user to choose (min here). */
static const char *const fuentes2015[] = {
    "network.topology=dragonfly", "dragonfly.p=8", "dragonfly.a=16", "dragonfly.h=8",
    "dragonfly.arrangement=palmtree", "dragonfly.local_latency=10",
    "dragonfly.global_latency=100", "dragonfly.global_buf_flits=256", "dragonfly.local_vcs=0",
    "dragonfly.global_vcs=2", "router.vcs=3", "router.buf_flits=32", "router.out_buf_flits=32",
    "router.switching=vct", "router.speedup=2", "router.route_delay=4", "router.xbar_delay=1",
    "router.inject_latency=1", "router.eject_latency=1", "traffic.packet_length=8",
    "traffic.source_queue=375", "routing.algorithm=min", "steady.warmup=5000",
    "steady.measure=15000", NULL};

/* Thottethodi, Lebeck & Mukherjee 2004 (paper 001, section 5.1): a 16-ary
 * 2-cube, one injection and one delivery channel per node; 3 VCs of 8-flit
 * edge buffers per physical channel (3,072 counted buffers); a central
 * arbiter routing one header at a time with a 1-cycle routing delay, a
 * header the VC allocator refused demanding the arbiter again ("demand-
 * slotted": the arbiter is the one resource that routes and allocates);
 * 1 cycle per flit through the crossbar and per link; 16-flit packets;
 * Duato's deadlock avoidance (escape VCs by DOR; two on a torus, the
 * reading that is deadlock-free: duato.escape_vcs) or Disha recovery
 * (routing.algorithm = disha, time-out 8); 60,000 cycles of which the
 * first 10,000 are ignored. Sources "try" to generate: a source holds at
 * most one waiting packet. Choose control.model (noth, alo, static,
 * selftune) and traffic; with metapackets (gather.mode = metapacket) the
 * experiment adds gather.meta_forward = cut_through. The readings
 * behind each value: experiments/self-tuned/README.md. */
static const char *const thottethodi2004[] = {
    "network.topology=torus", "network.n=2", "network.k=16",
    "router.vcs=3", "router.buf_flits=8", "router.switching=wormhole",
    "router.arbiter=central", "router.arbiter_requeue=true", "router.route_delay=1",
    "router.xbar_delay=1", "router.link_latency=1",
    "routing.algorithm=duato", "traffic.pattern=uniform", "traffic.packet_length=16",
    "traffic.source_queue=1", "steady.warmup=10000", "steady.measure=50000",
    "steady.drain_max=0", NULL};

static const struct preset presets[] = {
    {"fuentes2015", "paper 004: the 16,512-node canonical Dragonfly of Table I (VCT, "
                    "input-output-buffered 5-cycle routers, 10/100-cycle links); choose "
                    "routing.algorithm and traffic; dragonfly.p/a/h for a smaller one",
     fuentes2015},
    {"booksim-iq", "BookSim 2's default iq router (4 cycles per router, 22 + 5H for 16 flits, "
                   "iSLIP VC and switch allocation), 16 VCs x 8 flits, DOR with its ring-entry "
                   "VC classes, uniform including the source; any k-ary n-cube",
     booksim_iq},
    {"thottethodi2004", "paper 001: the 16-ary 2-cube of section 5.1 (3 VCs x 8 flits, central "
                        "arbiter, Duato avoidance; disha for recovery), 16-flit packets, sources "
                        "that try; choose control.model and traffic",
     thottethodi2004},
    {"levitin2019", "paper 002: torus, VCT with unlimited output storage, table-driven minimal "
                    "adaptive routing, fixed-distance traffic (Levitin & Rykalova 2019)",
     levitin2019},
};

size_t saturn_preset_count(void) { return sizeof presets / sizeof presets[0]; }

const char *saturn_preset_name(size_t i, const char **help)
{
    if (i >= saturn_preset_count())
        return NULL;
    if (help)
        *help = presets[i].help;
    return presets[i].name;
}

int saturn_config_preset(struct saturn_config *c, const char *name, struct saturn_error *err)
{
    for (size_t i = 0; i < saturn_preset_count(); i++) {
        if (strcmp(presets[i].name, name) != 0)
            continue;
        char origin[96];
        snprintf(origin, sizeof origin, "preset %s", name);
        for (const char *const *kv = presets[i].kv; *kv; kv++) {
            char key[64];
            const char *eq = strchr(*kv, '=');
            snprintf(key, sizeof key, "%.*s", (int)(eq - *kv), *kv);
            int rc = saturn_config_set(c, key, eq + 1, origin, 0, err);
            if (rc)
                return rc;
        }
        return SATURN_OK;
    }
    char names[256] = "";
    for (size_t i = 0; i < saturn_preset_count(); i++)
        snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", i ? ", " : "",
                 presets[i].name);
    return saturn_error_set(err, SATURN_EINPUT, "unknown preset '%s' (presets: %s)", name, names);
}
