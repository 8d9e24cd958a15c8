/* Dragonfly routing, shared parts (see dragonfly.h). */
#include "route/df_plan.h"
#include "route/dragonfly.h"

static const char *const global_names[] = {"mm", "crg", NULL};
static const char *const trigger_names[] = {"exceeds", "reaches", NULL};
static const char *const olm_trigger_names[] = {"blocked", "always", "busy", NULL};
static const char *const occ_vcs_names[] = {"range", "first", NULL};
static const char *const occ_max_names[] = {"buffers", "next_input", NULL};
static const char *const vc_choice_names[] = {"range", "lowest", NULL};
static const char *const val_exclude_names[] = {"source_destination", "source", NULL};
static const char *const mm_targets_names[] = {"climbing", "all", NULL};

const struct saturn_param route_dragonfly_params[] = {
    {"dragonfly.global_misroute", SATURN_PARAM_ENUM, "mm", 0, 0, global_names,
     "olm, base, hybrid, ectn: global misrouting in the source group. mm (MM+L, the paper's "
     "OLM): at the source router through one of its other global links, after a local hop "
     "through a local hop to another router that must then take one of its global links; crg: "
     "through the current router's other global links only (FOGSim's default at the paper's "
     "release)"},
    {"dragonfly.mm_targets", SATURN_PARAM_ENUM, "climbing", 0, 0, mm_targets_names,
     "olm, base, hybrid, ectn with dragonfly.global_misroute = mm: the routers z a packet that "
     "arrived by a local hop x -> i in its source group may be misrouted to (z must then take "
     "one of its global links): climbing, those with (i - x) mod a < (z - i) mod a, which keeps "
     "local VC 0 acyclic (about half of the group, none when x = i + 1); all, every other "
     "router (FOGSim's LOCAL_MM), acyclic only through the minimal path, so it needs "
     "dragonfly.misroute_room = true and a head routed again while it waits"},
    {"dragonfly.misroute_room", SATURN_PARAM_BOOL, "true", 0, 0, NULL,
     "olm, base, hybrid, ectn: a nonminimal option must be available (a free VC with room for "
     "the packet) to be chosen, as in FOGSim (the paper's 'available ports'); false: any "
     "option, the head then waits for it"},
    {"contention.trigger", SATURN_PARAM_ENUM, "reaches", 0, 0, trigger_names,
     "base, hybrid, ectn: a contention counter fires when it reaches the threshold "
     "(>=, FOGSim; section VI-A's 'misrouting at injection requires th <= p') or exceeds it "
     "(>, the wording of section III-B)"},
    {"olm.trigger", SATURN_PARAM_ENUM, "blocked", 0, 0, olm_trigger_names,
     "olm, hybrid: the occupancy comparison is made only when the minimal output cannot take "
     "the packet now (blocked: FOGSim's credit trigger), at every decision (always), or when "
     "it cannot take the packet now or a flit crossed the switch into it in this cycle or "
     "the last one (busy: FOGSim's CGA trigger on its input-output-queued router, 'out of "
     "credits or the link in use', where the port in use is its output queue still "
     "receiving a packet)"},
    {"olm.min_occupancy", SATURN_PARAM_REAL, "0", 0, 100, NULL,
     "olm, hybrid: the occupancy trigger needs the minimal output at least this percent full "
     "(FOGSim's ThMin; the paper gives no value)"},
    {"olm.occupancy_vcs", SATURN_PARAM_ENUM, "range", 0, 0, occ_vcs_names,
     "olm, hybrid: the occupancies compared (and olm.min_occupancy) are of a candidate's whole "
     "VC range (range) or of its first VC only, the one a hop-indexed VC order gives this hop "
     "(first: FOGSim's per-VC credit occupancy)"},
    {"olm.occupancy_max", SATURN_PARAM_ENUM, "buffers", 0, 0, occ_max_names,
     "olm, hybrid: what an occupancy (output buffer, link and next input buffer) is a fraction "
     "of, in the comparison and olm.min_occupancy: the output and next input buffers together "
     "(buffers) or the next input buffer alone (next_input: FOGSim's getMaxCredits, so a "
     "fraction may exceed 1)"},
    {"dragonfly.vc_choice", SATURN_PARAM_ENUM, "range", 0, 0, vc_choice_names,
     "olm, base, hybrid, ectn: the VCs a hop may take: every slot of the VC order above the "
     "arrival that leaves room for the rest of the path (range), or the lowest of them only "
     "(lowest: FOGSim's hop-indexed VCs, where every minimal global hop in the source group "
     "takes global VC 0)"},
    {"dragonfly.valiant_exclude", SATURN_PARAM_ENUM, "source_destination", 0, 0,
     val_exclude_names,
     "val, ugal, pb: the groups a random Valiant intermediate router may not lie in: the "
     "source and destination groups (every Valiant path takes two global links) or the "
     "source group only (FOGSim's generator; a path through the destination group takes one)"},
    {"olm.congested_coef", SATURN_PARAM_REAL, "0", 0, 1e6, NULL,
     "olm, hybrid: in the source group the occupancy trigger misroutes a packet whose minimal "
     "output is a global link only when that link is congested: its phits waiting exceed "
     "this percent of the mean over the router's global links plus olm.congested_allowance "
     "packets (FOGSim's VcMisroutingCongestedRestriction, 150 and 5 there; 0 and 0: off, the "
     "paper's OLM, which misroutes whenever the occupancy comparison holds)"},
    {"olm.congested_allowance", SATURN_PARAM_REAL, "0", 0, 1e6, NULL,
     "olm, hybrid: packets added to the congested-link test (olm.congested_coef)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL}};

static const char *const rest_classes[DF_RESTS] = {"", "L", "GL", "LGL", "GLGL"};

void df_opts_read(const struct saturn_config *cfg, const struct net *n, struct df_opts *o)
{
    o->mm = saturn_config_enum(cfg, "dragonfly.global_misroute") == 0;
    o->room = saturn_config_bool(cfg, "dragonfly.misroute_room");
    o->mm_all = saturn_config_enum(cfg, "dragonfly.mm_targets") == 1;
    o->reaches = saturn_config_enum(cfg, "contention.trigger") == 1;
    o->blocked = saturn_config_enum(cfg, "olm.trigger") != 1;
    o->busy = saturn_config_enum(cfg, "olm.trigger") == 2;
    o->min_occ = saturn_config_real(cfg, "olm.min_occupancy") / 100.0;
    o->occ_first = saturn_config_enum(cfg, "olm.occupancy_vcs") == 1;
    o->occ_next = saturn_config_enum(cfg, "olm.occupancy_max") == 1;
    o->lowest = saturn_config_enum(cfg, "dragonfly.vc_choice") == 1;
    o->cong_coef = saturn_config_real(cfg, "olm.congested_coef") / 100.0;
    o->cong_allow = saturn_config_real(cfg, "olm.congested_allowance") *
                    (double)saturn_config_int(cfg, "traffic.packet_length");
    if (n->topo.kind != TOPO_DRAGONFLY)
        return; /* the policy's check fails later */
    const int len = (int)sizeof DF_ORDER_OLM - 1;
    const int gport = n->topo.a - 1; /* the first global port; 0 is local */
    for (int g = 0; g < 2; g++)
        for (int same = 0; same < 2; same++)
            for (int rest = 0; rest < DF_RESTS; rest++)
                for (int a = -1; a < len; a++)
                    o->olm_vcs[g][same][rest][a + 1] =
                        df_vcs(n, g ? gport : 0, DF_ORDER_OLM, a, same, rest_classes[rest]);
    for (int g = 0; g < 2; g++)
        for (int v = 0; v < 64; v++)
            o->olm_arrival[g][v] = (int8_t)df_arrival(n, DF_ORDER_OLM, g ? gport : 0, v);
}


bool df_cand_open(const struct net *n, uint32_t r, const struct route_cand *c, uint32_t len)
{
    const size_t gp = (size_t)r * (size_t)n->P + c->port;
    const struct port *op = &n->ports[gp];
    const int32_t need = n->switching == SW_VCT ? (int32_t)len : 1;
    for (int v = c->vc_lo; v <= c->vc_hi; v++) {
        const struct ovc *o = &n->ovcs[gp * (size_t)n->V + (size_t)v];
        if (o->owner >= 0)
            continue;
        if (op->kind == PORT_LOCAL)
            return true;
        int32_t room = n->obuf_on ? o->ob_space : op->out_unlimited ? INT32_MAX : o->credits;
        if (n->ob_credits && o->credits < room)
            room = o->credits;
        if (room >= need)
            return true;
    }
    return false;
}


int df_port_to_group(const struct topo *t, uint32_t r, uint32_t tg)
{
    return port_to_group(t, df_group(t, r), df_index(t, r), tg);
}

int df_port_to_router(const struct topo *t, uint32_t r, uint32_t d)
{
    uint32_t gd = df_group(t, d);
    if (df_group(t, r) == gd)
        return df_local_port(df_index(t, r), df_index(t, d));
    return df_port_to_group(t, r, gd);
}

int df_router_hops(const struct topo *t, uint32_t a, uint32_t b)
{
    return topo_distance(t, a * (uint32_t)t->p, b * (uint32_t)t->p);
}

int df_check(const struct saturn_config *cfg, const struct net *n, int local_slots,
             int global_slots, const char *policy, struct saturn_error *err)
{
    if (n->local_vcs < local_slots)
        return saturn_config_fail(cfg, "dragonfly.local_vcs", err,
                                  "routing.algorithm = %s needs at least %d VCs on local ports "
                                  "to be deadlock-free (its paths use %d local VC classes "
                                  "in order)", policy, local_slots, local_slots);
    if (n->global_vcs < global_slots)
        return saturn_config_fail(cfg, "dragonfly.global_vcs", err,
                                  "routing.algorithm = %s needs at least %d VCs on global "
                                  "ports to be deadlock-free", policy, global_slots);
    /* mm_targets = all has cycles on local VC 0 (x -> i -> z -> ... -> x):
     * a head may take such a hop only when it can move now, and must be able
     * to fall back to its minimal path (a global link) the next cycle */
    if (saturn_config_enum(cfg, "dragonfly.mm_targets") == 1 &&
        saturn_config_enum(cfg, "dragonfly.global_misroute") == 0) {
        if (!saturn_config_bool(cfg, "dragonfly.misroute_room"))
            return saturn_config_fail(cfg, "dragonfly.mm_targets", err,
                                      "dragonfly.mm_targets = all needs "
                                      "dragonfly.misroute_room = true (its local hops are "
                                      "deadlock-free only through the minimal path)");
        if (saturn_config_enum(cfg, "routing.reroute") == 1) /* once (the OLM family's auto: waiting) */
            return saturn_config_fail(cfg, "dragonfly.mm_targets", err,
                                      "dragonfly.mm_targets = all needs a waiting head to be "
                                      "routed again (routing.reroute = waiting or auto)");
    }
    if (n->central)
        return saturn_config_fail(cfg, "router.arbiter", err,
                                  "Dragonfly policies decide once per head and router; use "
                                  "router.arbiter = separable");
    return SATURN_OK;
}

uint32_t df_occupancy(const struct net *n, uint32_t r, int port, int lo, int hi)
{
    const uint32_t gp = r * (uint32_t)n->P + (uint32_t)port;
    const struct port *op = &n->ports[gp];
    if (op->kind != PORT_NET)
        return 0;
    uint32_t occ = 0, far = n->ports[op->far_in].cap;
    for (int v = lo; v <= hi; v++) {
        const struct ovc *o = &n->ovcs[(size_t)gp * (size_t)n->V + (size_t)v];
        if (n->obuf_on && !n->ob_credits)
            occ += n->obuf_unlimited ? o->ob_count : n->obuf_cap - (uint32_t)o->ob_space;
        if (!op->out_unlimited)
            occ += far - (uint32_t)o->credits;
    }
    return occ;
}

void df_eject(const struct net *n, const struct packet *p, struct route_result *out)
{
    out->n = 1;
    out->sel = 0;
    out->c[0] = (struct route_cand){(uint16_t)topo_node_port(&n->topo, p->dst), 0,
                                    (uint8_t)(n->Vd - 1)};
}

/* ---- the VC order ----------------------------------------------------- */

/* Position in the order of slot s of class c ('L' or 'G'), or -1. */
static int slot_pos(const char *order, char c, int s)
{
    for (int i = 0; order[i]; i++)
        if (order[i] == c && s-- == 0)
            return i;
    return -1;
}

static int slots_of(const char *order, char c)
{
    int m = 0;
    for (int i = 0; order[i]; i++)
        m += order[i] == c;
    return m;
}

int df_arrival(const struct net *n, const char *order, int in_port, int in_vc)
{
    const struct topo *t = &n->topo;
    if (in_port >= t->radix)
        return -1;
    char c = topo_port_class(t, in_port) == TOPO_GLOBAL ? 'G' : 'L';
    int m = slots_of(order, c);
    return slot_pos(order, c, in_vc < m ? in_vc : m - 1);
}

/* Does rest embed in order after position p, in order? */
static bool fits(const char *order, int p, const char *rest)
{
    for (; *rest; rest++) {
        do
            p++;
        while (order[p] && order[p] != *rest);
        if (!order[p])
            return false;
    }
    return true;
}

struct route_cand df_vcs(const struct net *n, int port, const char *order, int arrival,
                         bool same, const char *rest)
{
    const bool global = topo_port_class(&n->topo, port) == TOPO_GLOBAL;
    const char c = global ? 'G' : 'L';
    const int nvc = global ? n->global_vcs : n->local_vcs;
    /* One pass over the order: slot s of class c sits at position pos. The
     * rest fits after fewer positions the later pos is, so once it no
     * longer fits no later slot does; m counts the slots all the same. */
    int lo = -1, hi = -1, m = 0;
    bool room = true;
    for (int pos = 0; order[pos]; pos++) {
        if (order[pos] != c)
            continue;
        const int s = m++;
        if (room && (pos > arrival || (same && pos == arrival))) {
            if (!(room = fits(order, pos, rest)))
                continue;
            if (lo < 0)
                lo = s;
            hi = s;
        }
    }
    if (lo < 0) /* no legal VC: a bug in the caller's rest; the CDG test catches it */
        lo = hi = m - 1;
    struct route_cand cand = {(uint16_t)port, (uint8_t)lo, (uint8_t)(hi == m - 1 ? nvc - 1 : hi)};
    return cand;
}

/* Appends to rest the classes of the minimal hops from router a to router b. */
static char *path_classes(const struct topo *t, uint32_t a, uint32_t b, char *rest)
{
    while (a != b) {
        int port = df_port_to_router(t, a, b), fp;
        *rest++ = topo_port_class(t, port) == TOPO_GLOBAL ? 'G' : 'L';
        topo_link(t, a, port, &a, &fp);
    }
    *rest = 0;
    return rest;
}

/* One candidate on port from r: any VC of the order above the arrival
 * that leaves room for the known rest of the path (from the next router
 * through mid, when mid != NET_NONE, to d). */
static void one(const struct net *n, uint32_t r, int port, const char *order, int arrival,
                uint32_t mid, uint32_t d, struct route_result *out)
{
    const struct topo *t = &n->topo;
    char rest[16];
    uint32_t next;
    int fp;
    topo_link(t, r, port, &next, &fp);
    char *e = rest;
    if (mid != NET_NONE) {
        e = path_classes(t, next, mid, e);
        next = mid;
    }
    path_classes(t, next, d, e);
    out->n = 1;
    out->sel = 0;
    out->c[0] = df_vcs(n, port, order, arrival, false, rest);
}

void df_min_route(const struct net *n, const char *order, uint32_t r, int in_port, int in_vc,
                  const struct packet *p, struct route_result *out)
{
    const struct topo *t = &n->topo;
    uint32_t d = topo_node_router(t, p->dst);
    if (r == d) {
        df_eject(n, p, out);
        return;
    }
    one(n, r, df_port_to_router(t, r, d), order, df_arrival(n, order, in_port, in_vc), NET_NONE,
        d, out);
}

void df_val_route(const struct net *n, uint32_t r, int in_port, int in_vc, struct packet *p,
                  struct route_result *out)
{
    const struct topo *t = &n->topo;
    uint32_t d = topo_node_router(t, p->dst), mid = p->route[0];
    if (r == d) {
        df_eject(n, p, out);
        return;
    }
    if (r == mid)
        p->route[1] |= DF_PHASE2;
    int arrival = df_arrival(n, DF_ORDER_VAL, in_port, in_vc);
    if (!(p->route[1] & DF_PHASE2)) /* towards mid, then on to d */
        one(n, r, df_port_to_router(t, r, mid), DF_ORDER_VAL, arrival, mid, d, out);
    else
        one(n, r, df_port_to_router(t, r, d), DF_ORDER_VAL, arrival, NET_NONE, d, out);
}

void df_valg_route(const struct net *n, uint32_t r, int in_port, int in_vc, struct packet *p,
                   struct route_result *out)
{
    const struct topo *t = &n->topo;
    uint32_t d = topo_node_router(t, p->dst), g = df_group(t, r);
    if (r == d) {
        df_eject(n, p, out);
        return;
    }
    if (g == p->route[0])
        p->route[1] |= DF_PHASE2;
    int arrival = df_arrival(n, DF_ORDER_OLM, in_port, in_vc);
    if (!(p->route[1] & DF_PHASE2) && g != df_group(t, d)) {
        /* to the group, then l-g-l at worst */
        int port = df_port_to_group(t, r, p->route[0]);
        const char *rest = topo_port_class(t, port) == TOPO_GLOBAL ? "LGL" : "GLGL";
        out->n = 1;
        out->sel = 0;
        out->c[0] = df_vcs(n, port, DF_ORDER_OLM, arrival, false, rest);
    } else {
        one(n, r, df_port_to_router(t, r, d), DF_ORDER_OLM, arrival, NET_NONE, d, out);
    }
}

/* ---- the OLM family ------------------------------------------------------ */


void df_plan(const struct net *n, const struct df_opts *o, uint32_t r, int in_port, int in_vc,
             const struct packet *p, struct df_plan *pl)
{
    plan_build(n, o, r, in_port, in_vc, p, pl, false);
    vc_choice_lowest(o, pl);
}

void df_plan_min(const struct net *n, const struct df_opts *o, uint32_t r, int in_port,
                 int in_vc, const struct packet *p, struct df_plan *pl)
{
    df_plan_min_inline(n, o, r, in_port, in_vc, p, pl);
}

void df_plan_options(const struct net *n, const struct df_opts *o, uint32_t r,
                     const struct packet *p, struct df_plan *pl)
{
    if (pl->nopt != DF_OPTS_LATER)
        return;
    plan_build(n, o, r, pl->in_port, pl->in_vc, p, pl, false);
    vc_choice_lowest(o, pl);
}

void df_apply(const struct net *n, uint32_t r, const struct df_plan *plan, int choice,
              struct packet *p, struct route_result *out)
{
    const struct topo *t = &n->topo;
    if (plan->min_port < 0) { /* plan->min is df_eject's candidate */
        out->n = 1;
        out->sel = 0;
        out->c[0] = plan->min;
        return;
    }
    if (choice < 0 && !plan->forced) {
        df_apply_min(n, r, plan, p, out);
        return;
    }
    uint32_t g = df_group(t, r);
    if (p->route[0] != NET_NONE && g == p->route[0])
        p->route[1] |= DF_PHASE2;
    out->n = 1;
    out->sel = 0;
    if (plan->forced && choice < 0 && plan->nopt > 0) {
        bool ok[64];
        for (int i = 0; i < plan->nopt; i++)
            ok[i] = df_cand_open(n, r, &plan->opt[i], p->len);
        choice = df_pick(&n->router_rng[r], ok, plan->nopt);
        if (choice < 0) /* none open: wait on a random one (decided again next cycle) */
            choice = (int)rng_below(&n->router_rng[r], (uint64_t)plan->nopt);
    }
    if (choice < 0) {
        out->c[0] = plan->min;
        return;
    }
    out->c[0] = plan->opt[choice];
    if (plan->mm) {
        p->route[1] |= DF_MANDATORY;
        p->misroute |= PACKET_MISROUTED_LOCAL;
    } else if (plan->global) {
        uint32_t k = (uint32_t)df_index(t, r) * (uint32_t)t->h +
                     (uint32_t)(plan->opt[choice].port - (t->a - 1));
        p->route[0] = df_link_group(t, g, k);
        p->route[1] &= ~(uint32_t)DF_MANDATORY;
        p->misroute |= PACKET_MISROUTED_GLOBAL;
    } else {
        p->misroute |= PACKET_MISROUTED_LOCAL;
    }
}

int df_pick(struct rng *rng, const bool *ok, int nopt)
{
    int m = 0;
    for (int i = 0; i < nopt; i++)
        m += ok[i];
    if (!m)
        return -1;
    int k = (int)rng_below(rng, (uint64_t)m);
    for (int i = 0; i < nopt; i++)
        if (ok[i] && k-- == 0)
            return i;
    return -1;
}

/* ---- shared by several policies ------------------------------------------ */

void df_inflight_init(void *state, const struct net *n, struct packet *p, uint64_t draw)
{
    p->route[0] = NET_NONE;
    p->route[1] = 0;
}

/* Occupancy as a fraction of what the VCs can hold (output buffer and
 * next input buffer, or with olm.occupancy_max = next_input the next input
 * buffer alone, as FOGSim): a global VC holds 288 phits, a local one 64, and
 * comparing raw phits would keep traffic off the global links whenever
 * their long round trip holds more than a local VC can. */
static double occupancy_frac(const struct net *n, const struct df_opts *o, uint32_t r,
                             const struct route_cand *c)
{
    const int hi = o->occ_first ? c->vc_lo : c->vc_hi; /* olm.occupancy_vcs */
    const struct port *op = &n->ports[(size_t)r * (size_t)n->P + c->port];
    double cap = (double)(n->obuf_unlimited || o->occ_next ? 0 : n->obuf_cap) + /* olm.occupancy_max */
                 (op->out_unlimited ? 0 : (double)n->ports[op->far_in].cap);
    double occ = df_occupancy(n, r, c->port, c->vc_lo, hi);
    return cap > 0 ? occ / (cap * (hi - c->vc_lo + 1)) : occ;
}

bool df_occupancy_reads_crossings(const struct saturn_config *cfg)
{
    return saturn_config_enum(cfg, "olm.trigger") == 2;
}

/* The occupancy trigger OLM and Hybrid share: options whose occupancy is
 * below pct percent of the minimal output's (and open, with
 * dragonfly.misroute_room); a random one of them, or -1. With olm.trigger
 * = blocked only while the minimal output cannot take the packet; with busy
 * also while a flit crossed the switch into it in this cycle or the last one. */
int df_occupancy_choice(const struct net *n, const struct df_opts *o, uint32_t r,
                        struct df_plan *plan, const struct packet *p, double pct)
{
    if (plan->min_port < 0 || plan->nopt == 0)
        return -1;
    if (o->blocked && df_cand_open(n, r, &plan->min, p->len) &&
        !(o->busy && n->xbar_last[(size_t)r * (size_t)n->P + plan->min.port] >= n->now))
        return -1;
    double qmin = occupancy_frac(n, o, r, &plan->min);
    if (qmin < o->min_occ)
        return -1;
    const struct topo *t = &n->topo;
    if ((plan->global || plan->mm) && !plan->forced && (o->cong_coef > 0 || o->cong_allow > 0) &&
        topo_port_class(t, plan->min_port) == TOPO_GLOBAL) {
        /* FOGSim's congested restriction: the minimal global link must stand
         * out among this router's global links */
        double sum = 0, mine = 0;
        for (int j = 0; j < t->h; j++) {
            double q = df_occupancy(n, r, t->a - 1 + j, 0, n->global_vcs - 1);
            sum += q;
            if (t->a - 1 + j == plan->min_port)
                mine = q;
        }
        if (mine <= o->cong_coef * sum / t->h + o->cong_allow)
            return -1;
    }
    df_plan_options(n, o, r, p, plan);
    if (plan->nopt == 0)
        return -1;
    bool ok[64];
    for (int i = 0; i < plan->nopt; i++)
        ok[i] = 100.0 * occupancy_frac(n, o, r, &plan->opt[i]) < pct * qmin &&
                (!o->room || df_cand_open(n, r, &plan->opt[i], p->len));
    return df_pick(&n->router_rng[r], ok, plan->nopt);
}

/* A random router outside the groups of routers s and d, from draw. */
bool df_valiant_src_only(const struct saturn_config *cfg)
{
    return saturn_config_enum(cfg, "dragonfly.valiant_exclude") == 1;
}

uint32_t df_val_intermediate(const struct topo *t, uint32_t s, uint32_t d, uint64_t draw,
                             bool src_only)
{
    uint32_t gs = df_group(t, s), gd = df_group(t, d);
    if (src_only)
        gd = gs;
    uint32_t skip = gs == gd ? 1 : 2;
    if (t->groups <= skip)
        return (uint32_t)(draw % t->routers);
    uint32_t g = (uint32_t)(draw % (t->groups - skip));
    uint32_t lo = gs < gd ? gs : gd, hi = gs < gd ? gd : gs;
    if (g >= lo)
        g++;
    if (skip == 2 && g >= hi)
        g++;
    return g * (uint32_t)t->a + (uint32_t)((draw / t->groups) % (uint64_t)t->a);
}

/* Queue and hop products of both paths from the source router r. */
void df_ugal_costs(const struct net *n, bool group, uint32_t r, const struct packet *p,
                   double *cmin, double *cval)
{
    const struct topo *t = &n->topo;
    uint32_t d = topo_node_router(t, p->dst), mid = p->route[0];
    struct route_result rm, rv;
    struct packet pm = *p, pv = *p;
    pm.route[0] = group ? df_group(t, d) : d;
    const int inj = n->topo.radix; /* decided at the source router */
    df_valiant_route(n, group, r, inj, 0, &pm, &rm);
    df_valiant_route(n, group, r, inj, 0, &pv, &rv);
    *cmin = (double)df_occupancy(n, r, rm.c[0].port, rm.c[0].vc_lo, rm.c[0].vc_hi) *
            df_router_hops(t, r, d);
    int hval = group ? df_group_path_hops(t, r, mid, d)
                     : df_router_hops(t, r, mid) + df_router_hops(t, mid, d);
    *cval = (double)df_occupancy(n, r, rv.c[0].port, rv.c[0].vc_lo, rv.c[0].vc_hi) * hval;
}

bool df_valiant_group(const struct saturn_config *cfg)
{
    return saturn_config_enum(cfg, "val.intermediate") == 1;
}

void df_valiant_route(const struct net *n, bool group, uint32_t r, int in_port, int in_vc,
                      struct packet *p, struct route_result *out)
{
    (group ? df_valg_route : df_val_route)(n, r, in_port, in_vc, p, out);
}

int df_group_path_hops(const struct topo *t, uint32_t r, uint32_t gm, uint32_t d)
{
    int hops = 0;
    while (df_group(t, r) != gm) { /* minimally to the group's global link, across it */
        int fp;
        topo_link(t, r, df_port_to_group(t, r, gm), &r, &fp);
        hops++;
    }
    return hops + df_router_hops(t, r, d);
}
