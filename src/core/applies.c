/* Which parameters play a part in a run: the keys of the topology, routing,
 * traffic pattern, workload and injection controller the configuration
 * uses, so that a summary can show those and leave out, say, Dragonfly
 * and ECtN keys for a torus under DOR. A rule names a key or a section
 * ("ugal.") and the condition under which it applies; the first rule that
 * matches decides, and a key no rule names always applies. */
#include <string.h>

#include "core/params.h"
#include "saturn/config.h"

/* Whether the value of key is one of alts ("a|b|c"). */
static bool is(const struct saturn_config *c, const char *key, const char *alts)
{
    const char *v = saturn_config_str(c, key);
    size_t n = strlen(v);
    for (const char *a = alts; *a;) {
        size_t len = strcspn(a, "|");
        if (len == n && strncmp(a, v, n) == 0)
            return true;
        a += len + (a[len] == '|');
    }
    return false;
}

/* A traffic pattern in use: traffic.pattern, or one of the phases'. */
static bool pattern(const struct saturn_config *c, const char *alts)
{
    if (is(c, "traffic.pattern", alts))
        return true;
    if (!is(c, "sim.workload", "phases"))
        return false;
    const char *list = saturn_config_str(c, "phases.list");
    for (const char *a = alts; *a;) { /* each phase is cycles:rate:pattern */
        size_t len = strcspn(a, "|");
        for (const char *p = strchr(list, ':'); p; p = strchr(p + 1, ':')) {
            const char *name = p + 1;
            if (strncmp(name, a, len) == 0 && strchr(", \t", name[len]))
                return true;
        }
        a += len + (a[len] == '|');
    }
    return false;
}

static bool torus_or_mesh(const struct saturn_config *c) { return is(c, "network.topology", "torus|mesh"); }
static bool torus(const struct saturn_config *c) { return is(c, "network.topology", "torus"); }
static bool dragonfly(const struct saturn_config *c) { return is(c, "network.topology", "dragonfly"); }
static bool not_dragonfly(const struct saturn_config *c) { return !dragonfly(c); }
static bool fattree(const struct saturn_config *c) { return is(c, "network.topology", "fattree"); }
static bool hyperx(const struct saturn_config *c) { return is(c, "network.topology", "hyperx"); }
static bool slimfly(const struct saturn_config *c) { return is(c, "network.topology", "slimfly"); }
static bool megafly(const struct saturn_config *c) { return is(c, "network.topology", "megafly"); }
static bool graph_file(const struct saturn_config *c) { return is(c, "network.topology", "file"); }
static bool trace(const struct saturn_config *c) { return is(c, "sim.workload", "trace"); }
static bool onoff(const struct saturn_config *c) { return is(c, "traffic.process", "onoff"); }
static bool dateline(const struct saturn_config *c)
{
    return torus(c) && is(c, "routing.algorithm", "dor|duato");
}
static bool cumulative(const struct saturn_config *c)
{
    return dateline(c) && is(c, "routing.dateline", "cumulative");
}
static bool central(const struct saturn_config *c) { return is(c, "router.arbiter", "central"); }
static bool out_unlimited(const struct saturn_config *c) { return saturn_config_bool(c, "router.out_buf_unlimited"); }
static bool disha(const struct saturn_config *c) { return is(c, "routing.algorithm", "disha"); }
static bool duato(const struct saturn_config *c) { return is(c, "routing.algorithm", "duato"); }
static bool val(const struct saturn_config *c) { return is(c, "routing.algorithm", "val"); }
static bool ugal(const struct saturn_config *c) { return is(c, "routing.algorithm", "ugal"); }
static bool pb(const struct saturn_config *c) { return is(c, "routing.algorithm", "pb"); }
static bool valiant(const struct saturn_config *c) { return is(c, "routing.algorithm", "val|ugal|pb"); }
static bool olm(const struct saturn_config *c) { return is(c, "routing.algorithm", "olm"); }
static bool olm_hybrid(const struct saturn_config *c) { return is(c, "routing.algorithm", "olm|hybrid"); }
static bool base(const struct saturn_config *c) { return is(c, "routing.algorithm", "base"); }
static bool hybrid(const struct saturn_config *c) { return is(c, "routing.algorithm", "hybrid"); }
static bool ectn(const struct saturn_config *c) { return is(c, "routing.algorithm", "ectn"); }
static bool counters(const struct saturn_config *c) { return is(c, "routing.algorithm", "base|hybrid|ectn"); }
static bool misrouting(const struct saturn_config *c)
{
    return dragonfly(c) && is(c, "routing.algorithm", "olm|base|hybrid|ectn");
}
static bool adv(const struct saturn_config *c) { return pattern(c, "adversarial|adv|mixed"); }
static bool mixed(const struct saturn_config *c) { return pattern(c, "mixed"); }
static bool hotspot(const struct saturn_config *c) { return pattern(c, "hotspot"); }
static bool uniform(const struct saturn_config *c) { return pattern(c, "uniform|rand"); }
static bool word_pattern(const struct saturn_config *c)
{
    return torus_or_mesh(c) &&
           pattern(c, "shuffle|shfl|bitcomp|bcmp|bitrev|brev|bitrot|brot|torn");
}
static bool distance(const struct saturn_config *c) { return pattern(c, "distance"); }
static bool steady(const struct saturn_config *c) { return is(c, "sim.workload", "steady"); }
static bool flit_rate(const struct saturn_config *c)
{
    return steady(c) && !saturn_config_is_set(c, "traffic.packet_rate");
}
static bool collective(const struct saturn_config *c) { return is(c, "sim.workload", "collective"); }
static bool ramp(const struct saturn_config *c) { return is(c, "sim.workload", "ramp"); }
static bool phases(const struct saturn_config *c) { return is(c, "sim.workload", "phases"); }
static bool entropy(const struct saturn_config *c) { return is(c, "control.model", "base|hyst|gt.x|gt.a"); }
static bool threshold(const struct saturn_config *c) { return is(c, "control.model", "static|selftune"); }
static bool metapacket(const struct saturn_config *c) { return is(c, "gather.mode", "metapacket"); }
static bool static_model(const struct saturn_config *c) { return is(c, "control.model", "static"); }
static bool selftune(const struct saturn_config *c) { return is(c, "control.model", "selftune"); }
static bool alo(const struct saturn_config *c) { return is(c, "control.model", "alo"); }
/* Keys shown only when set: test and output knobs, and the tools' own
 * sections (saturn curve, ga and cupstack print theirs themselves). */
static bool never(const struct saturn_config *c) { (void)c; return false; }

static const struct rule {
    const char *key; /* a whole key, or a prefix: a section with its dot, "traffic.hotspot_" */
    bool (*applies)(const struct saturn_config *c);
} rules[] = {
    {"network.k", torus_or_mesh},
    {"network.n", torus_or_mesh},
    {"dragonfly.global_misroute", misrouting},
    {"dragonfly.mm_targets", misrouting},
    {"dragonfly.misroute_room", misrouting},
    {"dragonfly.vc_choice", misrouting},
    {"dragonfly.", dragonfly},
    {"fattree.", fattree},
    {"hyperx.", hyperx},
    {"slimfly.", slimfly},
    {"megafly.", megafly},
    {"file.", graph_file},
    {"trace.", trace},
    {"traffic.burst_", onoff},
    {"router.link_latency", not_dragonfly}, /* a Dragonfly's are its link classes' */
    {"router.credit_delay", not_dragonfly},
    {"router.arbiter_requeue", central},
    {"router.output_order", out_unlimited},
    {"routing.dateline", dateline},
    {"routing.dateline_at", cumulative},
    {"routing.tie", torus},
    {"routing.reroute", dragonfly},
    {"disha.", disha},
    {"duato.", duato},
    {"val.intermediate", valiant},
    {"val.", val},
    {"ugal.", ugal},
    {"pb.", pb},
    {"olm.threshold", olm},
    {"olm.", olm_hybrid},
    {"base.", base},
    {"hybrid.", hybrid},
    {"ectn.", ectn},
    {"contention.", counters},
    {"traffic.adv_shift", adv},
    {"traffic.adv_fraction", mixed},
    {"traffic.hotspot_", hotspot},
    {"traffic.uniform_self", uniform},
    {"traffic.word_order", word_pattern},
    {"traffic.distance", distance},
    {"traffic.flit_rate", flit_rate},
    {"traffic.packet_rate", never}, /* shown when set, instead of flit_rate */
    {"sim.check_invariants", never},
    {"sim.generation_bin", never},
    {"sim.series_interval", never},
    {"debug.", never},
    {"entropy.buffers", NULL}, /* the mobility ratio of every run */
    {"entropy.", entropy},
    {"gather.meta_arbiter", metapacket},
    {"gather.", threshold},
    {"static.", static_model},
    {"selftune.", selftune},
    {"alo.", alo},
    {"steady.", steady},
    {"collective.", collective},
    {"ramp.", ramp},
    {"phases.", phases},
    {"curve.", never},
    {"ga.", never},
    {"cupstack.", never},
};

bool saturn_param_applies(const struct saturn_config *c, size_t i)
{
    const struct saturn_param *p = saturn_param_at(i);
    if (!p)
        return false;
    for (size_t r = 0; r < sizeof rules / sizeof rules[0]; r++) {
        size_t n = strlen(rules[r].key);
        bool section = rules[r].key[n - 1] == '.' || rules[r].key[n - 1] == '_'; /* a prefix */
        if (section ? strncmp(p->name, rules[r].key, n) == 0 : strcmp(p->name, rules[r].key) == 0)
            return !rules[r].applies || rules[r].applies(c);
    }
    return true;
}

const char *params_rule_key(size_t i)
{
    return i < sizeof rules / sizeof rules[0] ? rules[i].key : NULL;
}
