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
 * takes the next one; with credits (a slot freed at t is reusable at t + 1)
 * the same stream needs 2 slots, so the input buffers hold 2 flits: a
 * header's 2-unit routing then stalls the flits behind it for a unit, as
 * the 1-flit register does. The output register is a zero-latency stage in
 * front of the unbounded storage. Five VCs per port let every input
 * condense into one output's storage at once; outputs carry one packet at
 * a time in arrival order (ties: lowest message id). */
static const char *const levitin2019[] = {
    "network.topology=torus", "network.n=2", "network.k=8",
    "router.vcs=5", "router.buf_flits=2", "router.switching=wormhole",
    "router.out_buf_flits=0", "router.out_buf_unlimited=true", "router.output_order=packet",
    "router.speedup=5", "router.route_delay=2", "router.xbar_delay=0",
    "router.link_latency=1", "router.credit_delay=1", "router.inject_latency=1",
    "router.eject_latency=1",
    "routing.algorithm=table_min",
    "traffic.pattern=distance", "traffic.distance=2", "traffic.packet_length=10",
    "steady.warmup=50000", "steady.measure=0",
    NULL};

static const struct preset presets[] = {
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
