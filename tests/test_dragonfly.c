/* Dragonfly (paper 004): wiring, arrangements, distances, routing paths,
 * deadlock freedom by the channel dependency graph of every routing,
 * contention counters, ECtN's combined arrays, the ADV+1 bound of MIN, and
 * bad input. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/net.h"
#include "route/contention.h"
#include "route/dragonfly.h"
#include "support.h"
#include "topo/topo.h"

/* ---- topology ------------------------------------------------------------ */

static void wiring(enum topo_arrangement arr, int p, int a, int h)
{
    struct topo t;
    memset(&t, 0, sizeof t);
    topo_build_dragonfly(&t, p, a, h, arr);
    assert_int_equal(t.groups, (uint32_t)(a * h + 1));
    assert_int_equal(t.nodes, t.groups * (uint32_t)(a * p));
    assert_int_equal(t.radix, a - 1 + h);
    uint32_t G = t.groups;
    uint8_t *pair = calloc((size_t)G * G, 1);
    for (uint32_t r = 0; r < t.routers; r++) {
        uint32_t g = df_group(&t, r);
        for (int port = 0; port < t.radix; port++) {
            uint32_t fr, br;
            int fp, bp;
            assert_true(topo_link(&t, r, port, &fr, &fp));
            assert_true(topo_link(&t, fr, fp, &br, &bp)); /* the link back */
            assert_int_equal(br, r);
            assert_int_equal(bp, port);
            assert_int_equal(topo_port_class(&t, port), topo_port_class(&t, fp));
            if (port < a - 1) { /* local: same group, every other router once */
                assert_int_equal(df_group(&t, fr), g);
                assert_int_equal(df_index(&t, fr), df_local_peer(df_index(&t, r), port));
            } else { /* global: another group */
                uint32_t fg = df_group(&t, fr);
                assert_true(fg != g);
                pair[(size_t)g * G + fg]++;
                uint32_t k = (uint32_t)df_index(&t, r) * (uint32_t)h + (uint32_t)(port - (a - 1));
                uint32_t want = arr == TOPO_PALMTREE ? (g + k + 1) % G : (k < g ? k : k + 1);
                assert_int_equal(fg, want); /* the arrangement's formula */
                assert_int_equal(df_link_to(&t, g, fg), k);
                assert_int_equal(df_port_to_group(&t, r, fg), port);
            }
        }
    }
    /* complete graph between groups: exactly one link per pair */
    for (uint32_t g = 0; g < G; g++)
        for (uint32_t f = 0; f < G; f++)
            assert_int_equal(pair[(size_t)g * G + f], g == f ? 0 : 1);
    free(pair);

    /* distances: breadth-first search over routers against MIN's hop
     * count (topo_distance); MIN's diameter is 3 */
    uint32_t R = t.routers;
    int *dist = malloc(R * sizeof *dist);
    uint32_t *queue = malloc(R * sizeof *queue);
    int diameter = 0;
    for (uint32_t s = 0; s < R; s++) {
        for (uint32_t i = 0; i < R; i++)
            dist[i] = -1;
        uint32_t head = 0, tail = 0;
        dist[s] = 0;
        queue[tail++] = s;
        while (head < tail) {
            uint32_t x = queue[head++];
            for (int port = 0; port < t.radix; port++) {
                uint32_t y;
                int yp;
                topo_link(&t, x, port, &y, &yp);
                if (dist[y] < 0) {
                    dist[y] = dist[x] + 1;
                    queue[tail++] = y;
                }
            }
        }
        assert_int_equal(tail, R); /* connected */
        for (uint32_t d = 0; d < R; d++) {
            /* MIN's l-g-l hop count; a g-g detour through a third group
             * can be shorter, never longer */
            int hier = topo_distance(&t, s * (uint32_t)p, d * (uint32_t)p);
            assert_true(dist[d] <= hier);
            assert_true(dist[d] <= 3);
            if (df_group(&t, s) == df_group(&t, d))
                assert_int_equal(hier, dist[d]);
            if (hier > diameter)
                diameter = hier;
        }
    }
    assert_int_equal(diameter, 3);
    assert_int_equal(topo_diameter(&t), 3);
    free(dist);
    free(queue);
    topo_free(&t);
}

static void topology_wiring(void **state)
{
    (void)state;
    wiring(TOPO_PALMTREE, 2, 4, 2);
    wiring(TOPO_CONSECUTIVE, 2, 4, 2);
    wiring(TOPO_PALMTREE, 1, 6, 3);
    wiring(TOPO_CONSECUTIVE, 3, 5, 1);
}

/* topo_div (routing's divisions by a, p, h and p a) against the division:
 * every x below 2^16 for divisors 1 .. 64, and for every divisor up to
 * 2^12 and some up to 2^30 the x next to each multiple near 2^31 - 1 and
 * a spread of others (the error term grows with x). */
static void topo_div_exact(void **state)
{
    (void)state;
    for (uint32_t d = 1; d <= 64; d++) {
        const uint64_t m = topo_div_magic(d);
        for (uint32_t x = 0; x < (1u << 16); x++)
            assert_int_equal(topo_div(x, m), x / d);
    }
    struct rng rng;
    rng_seed(&rng, 21, 0);
    for (uint32_t k = 0; k < 5000; k++) {
        const uint32_t d = k < 4096 ? k + 1 : 1 + (uint32_t)rng_below(&rng, 1u << 30);
        const uint64_t m = topo_div_magic(d);
        const uint32_t top = INT32_MAX / d * d; /* the last multiple below 2^31 */
        const uint32_t xs[] = {top, top - 1, INT32_MAX, top - d, top - d + 1, d - 1, d, d + 1,
                               (uint32_t)rng_below(&rng, 1u << 31)};
        for (size_t i = 0; i < sizeof xs / sizeof xs[0]; i++)
            assert_int_equal(topo_div(xs[i], m), xs[i] / d);
    }
}

/* The paper's 16,512-node network builds, with 31-port routers. */
static void paper_network_builds(void **state)
{
    (void)state;
    struct saturn_config *cfg = test_config((const char *const[]){NULL});
    struct saturn_error err = {0};
    assert_int_equal(saturn_config_preset(cfg, "fuentes2015", &err), SATURN_OK);
    struct topo t;
    assert_int_equal(topo_build(&t, cfg, &err), SATURN_OK);
    assert_int_equal(t.nodes, 16512);
    assert_int_equal(t.groups, 129);
    assert_int_equal(t.radix + t.conc, 31);
    topo_free(&t);
    saturn_config_free(cfg);
}

/* ---- paths ---------------------------------------------------------------- */

static const char *const small_df[] = {"network.topology=dragonfly", "dragonfly.p=1",
                                       "dragonfly.a=5", "dragonfly.h=2", "router.switching=vct",
                                       "router.buf_flits=16", "dragonfly.global_buf_flits=16",
                                       "traffic.packet_length=4"};

/* extra: key=value overrides separated by spaces (or NULL). */
static struct net *small_net(const char *routing, const char *extra, struct saturn_config **cfg)
{
    const char *kv[24];
    size_t k = 0;
    for (; k < sizeof small_df / sizeof small_df[0]; k++)
        kv[k] = small_df[k];
    char word[64], words[256];
    snprintf(word, sizeof word, "routing.algorithm=%s", routing);
    kv[k++] = word;
    snprintf(words, sizeof words, "%s", extra ? extra : "");
    for (char *save = NULL, *w = strtok_r(words, " ", &save); w && k < 23;
         w = strtok_r(NULL, " ", &save))
        kv[k++] = w;
    kv[k] = NULL;
    return test_net(kv, cfg);
}

static struct packet packet_between(const struct net *n, uint32_t s, uint32_t d)
{
    struct packet p;
    memset(&p, 0, sizeof p);
    p.src = s * (uint32_t)n->topo.p;
    p.dst = d * (uint32_t)n->topo.p;
    p.len = 4;
    return p;
}

/* MIN: every path is at most l-g-l, as long as the distance, and on the
 * VC order L0 G0 L1. */
static void min_paths_are_lgl(void **state)
{
    (void)state;
    struct saturn_config *cfg;
    struct net *n = small_net("min", NULL, &cfg);
    const struct topo *t = &n->topo;
    for (uint32_t s = 0; s < t->routers; s++)
        for (uint32_t d = 0; d < t->routers; d++) {
            struct packet p = packet_between(n, s, d);
            uint32_t r = s;
            int in_port = t->radix, in_vc = 0, hops = 0, globals = 0, locals_after = 0;
            for (;;) {
                struct route_result res;
                n->rops->route(n->rstate, n, r, in_port, in_vc, &p, &res);
                assert_int_equal(res.n, 1);
                int port = res.c[0].port;
                if (port >= t->radix)
                    break;
                if (topo_port_class(t, port) == TOPO_GLOBAL)
                    globals++;
                else
                    locals_after += globals;
                in_vc = res.c[0].vc_hi;
                topo_link(t, r, port, &r, &in_port);
                assert_true(++hops <= 3);
            }
            assert_int_equal(r, d);
            assert_int_equal(hops, topo_distance(t, p.src, p.dst));
            assert_true(globals <= 1 && locals_after <= 1);
        }
    test_net_free(n, cfg);
}

/* The port from router r towards group tg by the wiring alone (topo_link):
 * r's global link to tg, or the local port to the router of r's group that
 * holds it. */
static int wired_port_to_group(const struct topo *t, uint32_t r, uint32_t tg)
{
    for (int q = t->a - 1; q < t->radix; q++) {
        uint32_t fr;
        int fp;
        if (topo_link(t, r, q, &fr, &fp) && fr / (uint32_t)t->a == tg)
            return q;
    }
    for (int q = 0; q < t->a - 1; q++) {
        uint32_t x;
        int xp;
        assert_true(topo_link(t, r, q, &x, &xp));
        for (int gq = t->a - 1; gq < t->radix; gq++) {
            uint32_t fr;
            int fp;
            if (topo_link(t, x, gq, &fr, &fp) && fr / (uint32_t)t->a == tg)
                return q;
        }
    }
    fail_msg("router %u: no way to group %u", r, tg);
    return -1;
}

/* df_plan's (and df_plan_min's) minimal port, link and VCs and whether it
 * lists global misroutes, for every router, destination node, source router (nodes
 * off the first of their router, so that node-to-group arithmetic is
 * exercised), intermediate group and phase, against the wiring and the
 * public VC rule (plan_build divides each of r, the destination and the
 * source once; a wrong index or group shows here). */
static void plan_min_port_from_wiring(void **state)
{
    (void)state;
    const char *const shapes[] = {"dragonfly.p=2", "dragonfly.p=3 dragonfly.arrangement=palmtree",
                                  "dragonfly.p=2 dragonfly.a=4 dragonfly.h=3"};
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
        struct saturn_config *cfg;
        struct net *n = small_net("base", shapes[k], &cfg);
        const struct topo *t = &n->topo;
        const struct df_base *b = n->rstate;
        const uint32_t ua = (uint32_t)t->a;
        long plans = 0;
        for (uint32_t r = 0; r < t->routers; r++)
            for (uint32_t dst = 0; dst < t->nodes; dst++)
                for (uint32_t sr = 0; sr < t->routers; sr += 3)
                    for (uint32_t mid = 0; mid <= t->groups; mid++)
                        for (uint32_t ph = 0; ph <= DF_PHASE2; ph += DF_PHASE2) {
                            struct packet p;
                            memset(&p, 0, sizeof p);
                            p.src = sr * (uint32_t)t->p + sr % (uint32_t)t->p;
                            p.dst = dst;
                            p.len = 4;
                            p.route[0] = mid == t->groups ? NET_NONE : mid;
                            p.route[1] = ph;
                            struct df_plan plan, pm;
                            df_plan(n, &b->o, r, t->radix, 0, &p, &plan);
                            /* df_plan_min (its own copy of plan_build): the same but
                             * for the options, left for later where there are some */
                            df_plan_min(n, &b->o, r, t->radix, 0, &p, &pm);
                            assert_int_equal(pm.min_port, plan.min_port);
                            assert_int_equal(pm.min_link, plan.min_link);
                            assert_true(pm.global == plan.global && pm.mm == plan.mm &&
                                        !pm.forced && !plan.forced);
                            assert_true(pm.nopt == 0 || pm.nopt == DF_OPTS_LATER);
                            assert_true(plan.nopt == 0 || pm.nopt == DF_OPTS_LATER);
                            if (plan.min_port >= 0)
                                assert_memory_equal(&pm.min, &plan.min, sizeof pm.min);
                            const uint32_t d = dst / (uint32_t)t->p, g = r / ua, gd = d / ua,
                                           gs = sr / ua;
                            assert_int_equal(plan.min_link,
                                             g == gd ? NET_NONE : df_link_to(t, g, gd));
                            if (r == d) { /* the plan holds df_eject's candidate */
                                assert_int_equal(plan.min_port, -1);
                                struct route_result ej;
                                df_eject(n, &p, &ej);
                                assert_memory_equal(&plan.min, &ej.c[0], sizeof plan.min);
                                assert_memory_equal(&pm.min, &ej.c[0], sizeof pm.min);
                                continue;
                            }
                            const bool to_mid = p.route[0] != NET_NONE && !ph && g != mid;
                            int want;
                            if (to_mid)
                                want = wired_port_to_group(t, r, mid);
                            else if (g == gd)
                                want = df_local_port((int)(r % ua), (int)(d % ua));
                            else
                                want = wired_port_to_group(t, r, gd);
                            assert_int_equal(plan.min_port, want);
                            const bool mglobal = want >= t->a - 1;
                            const char *rest = g == gd ? "" : mglobal ? "L" : g != gs ? "GL" : "GLGL";
                            const struct route_cand c =
                                df_vcs(n, want, DF_ORDER_OLM, -1, false, rest);
                            assert_int_equal(plan.min.vc_lo, c.vc_lo);
                            assert_int_equal(plan.min.vc_hi, c.vc_hi);
                            assert_int_equal(plan.global,
                                             p.route[0] == NET_NONE && g == gs && g != gd);
                            plans++;
                        }
        assert_true(plans > 1000);
        test_net_free(n, cfg);
    }
}

/* VAL: the path visits its intermediate router (or group), or meets the
 * destination on the way there. */
static void val_paths_visit_the_intermediate(void **state)
{
    (void)state;
    for (int variant = 0; variant < 2; variant++) {
        struct saturn_config *cfg;
        struct net *n = small_net("val", variant ? "val.intermediate=group" : NULL, &cfg);
        const struct topo *t = &n->topo;
        for (uint32_t s = 0; s < t->routers; s += 3)
            for (uint32_t d = 0; d < t->routers; d += 2)
                for (uint64_t draw = 0; draw < 40 && s != d; draw += 7) {
                    struct packet p = packet_between(n, s, d);
                    n->rops->at_source(n->rstate, n, &p, draw);
                    uint32_t mid = p.route[0], r = s;
                    bool seen = variant ? df_group(t, r) == mid : r == mid;
                    int in_port = t->radix, in_vc = 0, hops = 0;
                    for (;;) {
                        struct route_result res;
                        n->rops->route(n->rstate, n, r, in_port, in_vc, &p, &res);
                        if (res.c[0].port >= t->radix)
                            break;
                        in_vc = res.c[0].vc_lo;
                        topo_link(t, r, res.c[0].port, &r, &in_port);
                        seen |= variant ? df_group(t, r) == mid : r == mid;
                        assert_true(++hops <= 6);
                    }
                    assert_int_equal(r, d);
                    /* unless the destination lay on the way there (it ejects) */
                    if (!seen && (p.route[1] & DF_PHASE2))
                        fail_msg("variant %d: %u -> %u via %u not visited", variant, s, d, mid);
                    if (df_group(t, s) != df_group(t, d)) /* outside both groups */
                        assert_true(variant ? (mid != df_group(t, s) && mid != df_group(t, d))
                                            : (df_group(t, mid) != df_group(t, s) &&
                                               df_group(t, mid) != df_group(t, d)));
                }
        test_net_free(n, cfg);
    }
}

/* ---- the channel dependency graph ---------------------------------------- */

struct cdg {
    const struct net *n;
    size_t nch;
    uint8_t *edge; /* nch x nch bits */
    bool unrestricted; /* test: every local misroute, not only the climbing ones */
    int family;        /* 0 min (policy), 1 val router, 2 val group, 3 OLM family,
                          4 the policy's route with its source decision made (ugal, pb) */
    struct df_opts o;  /* the OLM family's knobs (global misrouting policy) */
};

static size_t channel(const struct net *n, uint32_t r, int port, int vc)
{
    return ((size_t)r * (size_t)n->P + (size_t)port) * (size_t)n->V + (size_t)vc;
}

static void add_edge(struct cdg *g, size_t from, size_t to)
{
    size_t bit = from * g->nch + to;
    g->edge[bit / 8] |= (uint8_t)(1u << (bit % 8));
}

static bool has_edge(const struct cdg *g, size_t from, size_t to)
{
    size_t bit = from * g->nch + to;
    return g->edge[bit / 8] & (1u << (bit % 8));
}

/* Every candidate set a policy of the family can produce at this point:
 * the minimal one and every nonminimal option (OLM family). */
static int candidates(struct cdg *g, uint32_t r, int in_port, int in_vc, struct packet *p,
                      struct route_result *outs, struct packet *after)
{
    const struct net *n = g->n;
    if (g->family == 0 || g->family == 4) {
        after[0] = *p;
        n->rops->route(n->rstate, n, r, in_port, in_vc, &after[0], &outs[0]);
        return 1;
    }
    if (g->family == 1 || g->family == 2) {
        after[0] = *p;
        (g->family == 1 ? df_val_route : df_valg_route)(n, r, in_port, in_vc, &after[0], &outs[0]);
        return 1;
    }
    struct df_plan plan;
    df_plan(n, &g->o, r, in_port, in_vc, p, &plan);
    if (g->unrestricted && !plan.global && plan.min_port >= 0 &&
        topo_port_class(&n->topo, plan.min_port) == TOPO_LOCAL && plan.nopt > 0) {
        plan.nopt = 0; /* every other local port, climbing or not */
        for (int q = 0; q < n->topo.a - 1; q++)
            if (q != plan.min_port)
                plan.opt[plan.nopt++] = (struct route_cand){(uint16_t)q, plan.min.vc_lo,
                                                            plan.min.vc_hi};
    }
    int k = 0;
    for (int c = -1; c < plan.nopt; c++, k++) {
        after[k] = *p;
        df_apply(n, r, &plan, c, &after[k], &outs[k]);
    }
    return k;
}

static void explore(struct cdg *g, uint32_t r, int in_port, int in_vc, long in_ch,
                    const struct packet *p, int depth)
{
    const struct net *n = g->n;
    const struct topo *t = &n->topo;
    assert_true(depth <= 8); /* no path is longer: no livelock */
    struct route_result outs[65];
    struct packet after[65];
    struct packet here = *p;
    int k = candidates(g, r, in_port, in_vc, &here, outs, after);
    for (int i = 0; i < k; i++) {
        const struct route_cand *c = &outs[i].c[0];
        if (c->port >= t->radix)
            continue; /* ejection: no dependency on the network */
        assert_true(c->vc_hi < n->ports[(size_t)r * n->P + c->port].nvc);
        uint32_t fr;
        int fp;
        topo_link(t, r, c->port, &fr, &fp);
        for (int v = c->vc_lo; v <= c->vc_hi; v++) {
            size_t out = channel(n, r, c->port, v);
            if (in_ch >= 0)
                add_edge(g, (size_t)in_ch, out);
            explore(g, fr, fp, v, (long)out, &after[i], depth + 1);
        }
    }
}

static bool cycle_from(const struct cdg *g, size_t x, uint8_t *color)
{
    color[x] = 1;
    for (size_t y = 0; y < g->nch; y++) {
        if (!has_edge(g, x, y))
            continue;
        if (color[y] == 1 || (color[y] == 0 && cycle_from(g, y, color)))
            return true;
    }
    color[x] = 2;
    return false;
}

/* Builds the CDG of every path between every pair of routers (and every
 * intermediate) and reports whether it has a cycle. */
static bool cdg_has_cycle(const char *routing, const char *extra, int family, bool unrestricted)
{
    struct saturn_config *cfg;
    struct net *n = small_net(routing, extra, &cfg);
    const struct topo *t = &n->topo;
    struct cdg g = {n, (size_t)t->routers * n->P * n->V, NULL, unrestricted, family, {0}};
    df_opts_read(cfg, n, &g.o);
    g.edge = calloc(g.nch * g.nch / 8 + 1, 1);
    for (uint32_t s = 0; s < t->routers; s++)
        for (uint32_t d = 0; d < t->routers; d++) {
            if (s == d)
                continue;
            struct packet p = packet_between(n, s, d);
            p.route[0] = NET_NONE;
            uint32_t nmid = family == 1 ? t->routers : family == 2 || family == 4 ? t->groups : 1;
            for (uint32_t mid = 0; mid < nmid; mid++) {
                if (family == 1 || family == 2 || family == 4)
                    p.route[0] = mid; /* mid == d (its group): the minimal path of ugal and pb */
                p.route[1] = family == 4 ? DF_DECIDED : 0;
                explore(&g, s, t->radix, 0, -1, &p, 0);
            }
        }
    uint8_t *color = calloc(g.nch, 1);
    bool cyc = false;
    for (size_t x = 0; x < g.nch && !cyc; x++)
        if (!color[x])
            cyc = cycle_from(&g, x, color);
    free(color);
    free(g.edge);
    test_net_free(n, cfg);
    return cyc;
}

static void every_routing_is_acyclic(void **state)
{
    (void)state;
    assert_false(cdg_has_cycle("min", NULL, 0, false));
    /* val, and ugal and pb, whose paths are val's or the minimal one */
    assert_false(cdg_has_cycle("val", NULL, 1, false));
    assert_false(cdg_has_cycle("val", "val.intermediate=group", 2, false));
    /* ugal and pb through their own route with val.intermediate = group,
     * the decision made (every group as intermediate, the minimal path's
     * being the destination group) */
    assert_false(cdg_has_cycle("ugal", "val.intermediate=group", 4, false));
    assert_false(cdg_has_cycle("pb", "val.intermediate=group", 4, false));
    /* olm, base, hybrid and ectn share the plan: every choice explored */
    assert_false(cdg_has_cycle("olm", NULL, 3, false));
    assert_false(cdg_has_cycle("olm", "dragonfly.arrangement=consecutive", 3, false));
    /* both global misrouting policies (mm, the default, and crg) */
    assert_false(cdg_has_cycle("olm", "dragonfly.global_misroute=crg", 3, false));
    /* one VC per hop (dragonfly.vc_choice = lowest) */
    assert_false(cdg_has_cycle("olm", "dragonfly.vc_choice=lowest", 3, false));
    /* the check can fail: local misrouting without the climbing rule */
    assert_true(cdg_has_cycle("olm", NULL, 3, true));
}

/* ---- contention counters -------------------------------------------------- */

/* The minimal output of a head at router r for packet pid. */
static int minimal_output(const struct net *n, uint32_t r, uint32_t pid)
{
    const struct topo *t = &n->topo;
    uint32_t d = topo_node_router(t, n->pk[pid].dst);
    return r == d ? topo_node_port(t, n->pk[pid].dst) : df_port_to_router(t, r, d);
}

/* Every counter equals the number of input VCs holding a routed packet
 * (head at the front, tail not yet gone) whose minimal output it counts. */
static void check_counters(const struct net *n, const struct contention *cc)
{
    const uint32_t P = (uint32_t)n->P, V = (uint32_t)n->V;
    unsigned *want = calloc(P, sizeof *want);
    for (uint32_t r = 0; r < n->topo.routers; r++) {
        memset(want, 0, P * sizeof *want);
        for (uint32_t i = 0; i < P * V; i++) {
            size_t lin = (size_t)r * P * V + i;
            if (n->ivcs[lin].state != IVC_IDLE)
                want[minimal_output(n, r, n->iroute[lin].pid)]++;
        }
        for (uint32_t port = 0; port < P; port++)
            assert_int_equal(contention_get(cc, r, (int)port), want[port]);
    }
    free(want);
}

/* A hand-built case: one packet; its head counts at each router from the
 * cycle it reaches the front of an input queue until its tail leaves. */
static void base_counts_one_packet(void **state)
{
    (void)state;
    struct saturn_config *cfg;
    struct net *n = small_net("base", "base.threshold=1000", &cfg);
    struct df_base *b = n->rstate;
    const struct topo *t = &n->topo;
    uint32_t s = 1, d = 3 * (uint32_t)t->a + 2; /* group 0 to group 3 */
    uint32_t pid = net_packet_new(n, s, d, 4, true);
    int port = df_port_to_router(t, s, d);
    bool counted = false, released = false;
    while (n->pk[pid].rx < 4) {
        assert_int_equal(net_step(n), SATURN_OK);
        check_counters(n, &b->cc);
        unsigned c = contention_get(&b->cc, s, port);
        counted |= c == 1;
        released |= counted && c == 0;
        assert_true(c <= 1);
    }
    assert_true(counted && released);
    for (uint32_t r = 0; r < t->routers; r++)
        for (int q = 0; q < n->P; q++)
            assert_int_equal(contention_get(&b->cc, r, q), 0);
    test_net_free(n, cfg);
}

/* Under load, every cycle, for Base and Hybrid: counters equal the heads
 * that count for each output; and Base misroutes only above its threshold. */
static void counters_exact_under_load(void **state)
{
    (void)state;
    const char *const routings[] = {"base", "hybrid", "ectn"};
    for (int k = 0; k < 3; k++) {
        struct saturn_config *cfg;
        struct net *n = small_net(routings[k], NULL, &cfg);
        struct contention *cc = n->rstate; /* the first member of every state */
        struct rng rng;
        rng_seed(&rng, 7, 0);
        for (int cycle = 0; cycle < 1500; cycle++) {
            for (uint32_t s = 0; s < n->nnodes; s++)
                if (rng_uniform(&rng) < 0.12) {
                    uint32_t dst = (uint32_t)rng_below(&rng, n->nnodes - 1);
                    net_packet_new(n, s, dst >= s ? dst + 1 : dst, 4, true);
                }
            assert_int_equal(net_step(n), SATURN_OK);
            check_counters(n, cc);
        }
        test_net_free(n, cfg);
    }
}

/* ---- the mechanisms paper 004 leaves to FOGSim ------------------------------ */

/* MM+L: at the source router the options are its other global links; after
 * a minimal local hop, local hops (on L0, climbing) that commit the packet
 * to a global link of the next router; there the packet must take one of
 * that router's global links (G0), never its minimal local port. crg: the
 * current router's other global links after the local hop too. */
static void mm_paths(void **state)
{
    (void)state;
    struct saturn_config *cfg;
    struct net *n = small_net("base", NULL, &cfg);
    const struct topo *t = &n->topo;
    struct df_opts o;
    df_opts_read(cfg, n, &o);
    assert_true(o.mm && o.room && o.reaches && o.blocked); /* the defaults */
    uint32_t s = 0, d = 3 * (uint32_t)t->a + 2; /* group 0 to group 3 */
    struct packet p = packet_between(n, s, d);
    p.route[0] = NET_NONE;
    struct df_plan plan;
    df_plan(n, &o, s, t->radix, 0, &p, &plan); /* injected */
    int mp = df_port_to_router(t, s, d);
    if (topo_port_class(t, mp) == TOPO_GLOBAL)
        fail_msg("pick a source that does not own the link");
    assert_true(plan.global && !plan.mm && !plan.forced);
    assert_int_equal(plan.nopt, t->h); /* every global port of s */
    /* one local hop to y, the owner of the minimal global link */
    uint32_t y;
    int yin;
    topo_link(t, s, mp, &y, &yin);
    df_plan(n, &o, y, yin, 0, &p, &plan);
    assert_true(plan.mm && !plan.global && !plan.forced);
    if (!(plan.nopt > 0 && plan.nopt < t->a - 1)) /* climbing: not every local port */
        fail_msg("y %u (index %d) from %u: %d options", y, df_index(t, y), s, plan.nopt);
    int a = t->a, x = df_index(t, s), i = df_index(t, y);
    for (int k = 0; k < plan.nopt; k++) {
        const struct route_cand *c = &plan.opt[k];
        assert_int_equal(topo_port_class(t, c->port), TOPO_LOCAL);
        assert_int_equal(c->vc_lo, 0); /* stays on L0 */
        int z = df_local_peer(i, c->port);
        assert_true((i - x + a) % a < (z - i + a) % a);
    }
    struct route_result res;
    struct packet q = p;
    df_apply(n, y, &plan, 0, &q, &res);
    assert_true(q.route[1] & DF_MANDATORY);
    assert_true(q.route[0] == NET_NONE); /* the intermediate group is not known yet */
    uint32_t z;
    int zin;
    topo_link(t, y, res.c[0].port, &z, &zin);
    df_plan(n, &o, z, zin, res.c[0].vc_lo, &q, &plan);
    assert_true(plan.forced && plan.global);
    assert_int_equal(plan.nopt, t->h);
    for (int k = 0; k < 5; k++) { /* even when "minimal" is chosen */
        struct packet r2 = q;
        df_apply(n, z, &plan, -1, &r2, &res);
        assert_int_equal(topo_port_class(t, res.c[0].port), TOPO_GLOBAL);
        assert_int_equal(res.c[0].vc_lo, 0);
        assert_true((r2.misroute & PACKET_MISROUTED_GLOBAL) && !(r2.route[1] & DF_MANDATORY));
        assert_true(r2.route[0] != df_group(t, z));
    }
    /* crg: this router's other global links after the local hop too */
    o.mm = false;
    df_plan(n, &o, y, yin, 0, &p, &plan);
    assert_true(plan.global && !plan.mm);
    assert_int_equal(plan.nopt, t->h - 1);
    test_net_free(n, cfg);
}

/* dragonfly.mm_targets: at the router i that owns the minimal global
 * link, a packet that came by a local hop from x = i + 1 has no climbing mm
 * option ((i - x) mod a = a - 1 is below no (z - i) mod a), so it can only
 * wait for the minimal link; with all it may go to every other router of
 * the group (FOGSim's LOCAL_MM nominates every port but the minimal one). */
static void mm_targets_all(void **state)
{
    (void)state;
    for (int all = 0; all < 2; all++) {
        struct saturn_config *cfg;
        struct net *n = small_net("base", all ? "dragonfly.mm_targets=all" : NULL, &cfg);
        const struct topo *t = &n->topo;
        struct df_opts o;
        df_opts_read(cfg, n, &o);
        assert_int_equal(o.mm_all, all);
        /* y owns group 0's link to group gd; s is the router after y */
        uint32_t y = 2, gd = df_link_group(t, 0, (uint32_t)df_index(t, y) * (uint32_t)t->h);
        uint32_t s = y + 1, d = gd * (uint32_t)t->a + 1, yy;
        struct packet p = packet_between(n, s, d);
        p.route[0] = NET_NONE;
        int yin;
        topo_link(t, s, df_port_to_router(t, s, d), &yy, &yin);
        assert_int_equal(yy, y);
        struct df_plan plan;
        df_plan(n, &o, y, yin, 0, &p, &plan);
        assert_true(plan.mm && !plan.global && !plan.forced);
        assert_int_equal(plan.nopt, all ? t->a - 1 : 0);
        for (int k = 0; k < plan.nopt; k++) {
            assert_int_equal(topo_port_class(t, plan.opt[k].port), TOPO_LOCAL);
            assert_int_equal(plan.opt[k].vc_lo, 0); /* on L0, as a climbing one */
        }
        test_net_free(n, cfg);
    }
}

/* The counter trigger at its edge: a counter equal to the threshold fires
 * with contention.trigger = reaches and not with exceeds; a misroute goes
 * only to options under the threshold, and (misroute_room) open ones. */
static void trigger_at_threshold(void **state)
{
    (void)state;
    for (int reaches = 0; reaches < 2; reaches++) {
        struct saturn_config *cfg;
        struct net *n = small_net("base", reaches ? "base.threshold=3" : "contention.trigger=exceeds", &cfg);
        struct df_base *b = n->rstate;
        const struct topo *t = &n->topo;
        if (!reaches)
            b->th = 3;
        assert_true(b->o.reaches == (bool)reaches);
        assert_true(df_fires(&b->o, 3, 3) == (bool)reaches);
        assert_true(df_fires(&b->o, 4, 3));
        assert_false(df_fires(&b->o, 2, 3));
        uint32_t s = 0, d = 3 * (uint32_t)t->a + 2;
        struct packet p = packet_between(n, s, d);
        p.route[0] = NET_NONE;
        struct df_plan plan;
        df_plan(n, &b->o, s, t->radix, 0, &p, &plan);
        /* two other heads already count for the minimal port: this one is the third */
        b->cc.count[(size_t)s * (size_t)n->P + (size_t)plan.min_port] = 2;
        int c = df_contention_choice(&b->cc, &b->o, n, s, t->radix, 0, &p, &plan, 3);
        assert_int_equal(contention_get(&b->cc, s, plan.min_port), 3);
        assert_true(reaches ? c >= 0 : c < 0);
        /* counted once, however often the head is routed */
        df_contention_choice(&b->cc, &b->o, n, s, t->radix, 0, &p, &plan, 3);
        assert_int_equal(contention_get(&b->cc, s, plan.min_port), 3);
        /* every option at the threshold: minimal */
        b->cc.count[(size_t)s * (size_t)n->P + (size_t)plan.min_port] = 9;
        for (int k = 0; k < plan.nopt; k++)
            b->cc.count[(size_t)s * (size_t)n->P + plan.opt[k].port] = 3;
        assert_true(df_contention_choice(&b->cc, &b->o, n, s, t->radix, 0, &p, &plan, 3) < 0);
        /* options under it but with no room: minimal with misroute_room */
        for (int k = 0; k < plan.nopt; k++) {
            b->cc.count[(size_t)s * (size_t)n->P + plan.opt[k].port] = 0;
            for (int v = 0; v < n->V; v++)
                n->ovcs[((size_t)s * (size_t)n->P + plan.opt[k].port) * (size_t)n->V + (size_t)v]
                    .owner = 0;
        }
        assert_true(df_contention_choice(&b->cc, &b->o, n, s, t->radix, 0, &p, &plan, 3) < 0);
        b->o.room = false;
        assert_true(df_contention_choice(&b->cc, &b->o, n, s, t->radix, 0, &p, &plan, 3) >= 0);
        for (int k = 0; k < plan.nopt; k++)
            for (int v = 0; v < n->V; v++)
                n->ovcs[((size_t)s * (size_t)n->P + plan.opt[k].port) * (size_t)n->V + (size_t)v]
                    .owner = -1;
        memset(b->cc.count, 0, (size_t)t->routers * (size_t)n->P * sizeof *b->cc.count);
        memset(b->cc.held, -1, (size_t)t->routers * (size_t)n->P * (size_t)n->V);
        test_net_free(n, cfg);
    }
}

/* A router r of destination group 3 that a packet from group 0 enters over
 * a global link (in_port), bound to router d of that group: its minimal
 * (local) output spans several VCs under the default dragonfly.vc_choice. */
static void enter_group3(const struct topo *t, uint32_t *r, int *in_port, uint32_t *d)
{
    *d = 3 * (uint32_t)t->a + 2;
    *in_port = -1;
    for (uint32_t x = 3 * (uint32_t)t->a; x < 4 * (uint32_t)t->a && *in_port < 0; x++)
        for (int q = t->a - 1; q < t->radix && *in_port < 0; q++) {
            uint32_t fr;
            int fp;
            topo_link(t, x, q, &fr, &fp);
            if (x != *d && df_group(t, fr) == 0) {
                *r = x;
                *in_port = q;
            }
        }
    assert_true(*in_port >= 0);
}

/* enter_group3's packet (from node 1), planned under o at the router it enters. */
struct group3_case {
    uint32_t r;
    int in_port;
    struct packet p;
    struct df_plan plan;
};
static void plan_group3(struct net *n, const struct df_opts *o, struct group3_case *c)
{
    uint32_t d;
    c->r = 0;
    enter_group3(&n->topo, &c->r, &c->in_port, &d);
    c->p = packet_between(n, 1, d);
    c->p.route[0] = NET_NONE;
    df_plan(n, o, c->r, c->in_port, 0, &c->p, &c->plan);
    assert_true(c->plan.min_port >= 0 && c->plan.nopt > 0);
}

/* The output VCs of the case's minimal port, and their owner set to own
 * (0: held by another packet, so the minimal output cannot take it now; -1:
 * free again). */
static struct ovc *min_ovcs(const struct net *n, const struct group3_case *c)
{
    return &n->ovcs[((size_t)c->r * (size_t)n->P + (size_t)c->plan.min_port) * (size_t)n->V];
}
static void min_owned(const struct net *n, const struct group3_case *c, int32_t own)
{
    struct ovc *mv = min_ovcs(n, c);
    for (int v = c->plan.min.vc_lo; v <= c->plan.min.vc_hi; v++)
        mv[v].owner = own;
}

/* olm.occupancy_vcs: with first, the occupancy of a candidate is that of its
 * first VC alone (FOGSim's per-VC credits); with range, the VCs' mean. A
 * minimal output whose first VC is full and others empty passes a 90 %
 * olm.min_occupancy with first and not with range. */
static void occupancy_vcs_first(void **state)
{
    (void)state;
    struct saturn_config *cfg;
    struct net *n = small_net("olm", NULL, &cfg);
    struct df_opts o;
    df_opts_read(cfg, n, &o);
    struct group3_case c3;
    plan_group3(n, &o, &c3);
    const uint32_t r = c3.r;
    struct packet p = c3.p;
    struct df_plan plan = c3.plan;
    assert_true(plan.min.vc_hi > plan.min.vc_lo); /* the case the knob is about */
    struct ovc *mv = min_ovcs(n, &c3);
    mv[plan.min.vc_lo].credits = 0; /* the first VC full downstream ... */
    if (n->obuf_on && !n->obuf_unlimited)
        mv[plan.min.vc_lo].ob_space = 0; /* ... and in the output buffer */
    min_owned(n, &c3, 0);
    o.blocked = true;
    o.min_occ = 0.9;
    o.occ_first = false;
    assert_int_equal(df_occupancy_choice(n, &o, r, &plan, &p, 50), -1);
    o.occ_first = true;
    int c = df_occupancy_choice(n, &o, r, &plan, &p, 50);
    assert_true(c >= 0 && plan.opt[c].port != plan.min_port);
    min_owned(n, &c3, -1);
    test_net_free(n, cfg);
}


/* dragonfly.vc_choice = lowest (FOGSim's hop-indexed VCs): every candidate
 * of a plan is the lowest VC of its legal range; the default range keeps
 * them all. */
static void vc_choice_lowest(void **state)
{
    (void)state;
    for (int lowest = 0; lowest < 2; lowest++) {
        struct saturn_config *cfg;
        struct net *n = small_net("olm", lowest ? "dragonfly.vc_choice=lowest" : NULL, &cfg);
        struct df_opts o, range;
        df_opts_read(cfg, n, &o);
        range = o;
        range.lowest = false;
        struct group3_case c3, c3full;
        plan_group3(n, &o, &c3);
        plan_group3(n, &range, &c3full);
        const struct df_plan plan = c3.plan, full = c3full.plan;
        assert_true(plan.nopt > 0 && plan.nopt == full.nopt);
        assert_true(full.min.vc_hi > full.min.vc_lo);
        assert_int_equal(plan.min.vc_lo, full.min.vc_lo);
        assert_int_equal(plan.min.vc_hi, lowest ? plan.min.vc_lo : full.min.vc_hi);
        for (int i = 0; i < plan.nopt; i++) {
            assert_int_equal(plan.opt[i].vc_lo, full.opt[i].vc_lo);
            assert_int_equal(plan.opt[i].vc_hi, lowest ? plan.opt[i].vc_lo : full.opt[i].vc_hi);
        }
        test_net_free(n, cfg);
    }
}

/* olm.occupancy_max: the minimal output's first VC holds a full next input
 * buffer (16 flits) and an empty output buffer (8): 2/3 of both buffers, 1
 * of the next input buffer alone (FOGSim's getMaxCredits). With
 * olm.min_occupancy at 80 % only next_input lets OLM misroute. */
static void occupancy_max_next_input(void **state)
{
    (void)state;
    struct saturn_config *cfg;
    struct net *n = small_net("olm", "router.out_buf_flits=8 olm.occupancy_vcs=first", &cfg);
    struct df_opts o;
    df_opts_read(cfg, n, &o);
    assert_false(o.occ_next); /* the default */
    struct group3_case c3;
    plan_group3(n, &o, &c3);
    const uint32_t r = c3.r;
    struct packet p = c3.p;
    struct df_plan plan = c3.plan;
    size_t gp = (size_t)r * (size_t)n->P + (size_t)plan.min_port;
    struct ovc *mv = min_ovcs(n, &c3);
    assert_int_equal(n->ports[n->ports[gp].far_in].cap, 16);
    assert_int_equal(mv[plan.min.vc_lo].ob_space, 8);
    mv[plan.min.vc_lo].credits = 0;
    min_owned(n, &c3, 0);
    o.min_occ = 0.8;
    assert_int_equal(df_occupancy_choice(n, &o, r, &plan, &p, 50), -1); /* 2/3 < 0.8 */
    o.occ_next = true;
    int c = df_occupancy_choice(n, &o, r, &plan, &p, 50); /* 1 >= 0.8 */
    assert_true(c >= 0 && plan.opt[c].port != plan.min_port);
    o.min_occ = 1.01;
    assert_int_equal(df_occupancy_choice(n, &o, r, &plan, &p, 50), -1);
    min_owned(n, &c3, -1);
    test_net_free(n, cfg);
}

/* dragonfly.valiant_exclude: the default keeps a Valiant intermediate out of
 * the source and destination groups; source (FOGSim) only out of the source
 * group, so some intermediates lie in the destination group. */
static void valiant_exclude_source(void **state)
{
    (void)state;
    for (int variant = 0; variant < 2; variant++) {
        struct saturn_config *cfg;
        struct net *n = small_net("pb", variant ? "dragonfly.valiant_exclude=source" : NULL, &cfg);
        const struct topo *t = &n->topo;
        uint32_t s = 1, d = 3 * (uint32_t)t->a + 2, in_dst = 0;
        for (uint64_t draw = 0; draw < 4000; draw += 3) {
            struct packet p = packet_between(n, s, d);
            n->rops->at_source(n->rstate, n, &p, draw * 2654435761u);
            uint32_t g = df_group(t, p.route[0]);
            assert_true(g != df_group(t, s));
            in_dst += g == df_group(t, d);
        }
        if (variant)
            assert_true(in_dst > 0);
        else
            assert_int_equal(in_dst, 0);
        test_net_free(n, cfg);
    }
}

/* val.intermediate = group for ugal and pb (FOGSim's Valiant paths): with
 * the decision forced to Valiant (a threshold of -100 packets), every
 * inter-group path reaches a random group outside the source and
 * destination groups, takes two global links and at most l-g-l-g-l (5
 * hops), and its first hop is as long as the UGAL cost says; with
 * intermediate routers some paths take 6 hops. */
static void ugal_pb_group_paths(void **state)
{
    (void)state;
    const char *const rts[] = {"ugal", "pb"};
    for (int k = 0; k < 2; k++)
        for (int group = 0; group < 2; group++) {
            char extra[96];
            snprintf(extra, sizeof extra, "%s.threshold=-100%s", rts[k],
                     group ? " val.intermediate=group" : "");
            struct saturn_config *cfg;
            struct net *n = small_net(rts[k], extra, &cfg);
            const struct topo *t = &n->topo;
            int longest = 0;
            for (uint32_t s = 0; s < t->routers; s += 2)
                for (uint32_t d = 0; d < t->routers; d += 3) {
                    if (df_group(t, s) == df_group(t, d))
                        continue;
                    for (uint64_t draw = 0; draw < 60; draw += 13) {
                        struct packet p = packet_between(n, s, d);
                        n->rops->at_source(n->rstate, n, &p, draw * 2654435761u);
                        uint32_t mid = p.route[0], r = s;
                        uint32_t gm = group ? mid : df_group(t, mid);
                        assert_true(gm < t->groups && gm != df_group(t, s) && gm != df_group(t, d));
                        if (group) { /* the UGAL cost's hop count is the path's */
                            double cmin, cval;
                            df_ugal_costs(n, true, s, &p, &cmin, &cval);
                            assert_true(cmin == 0 && cval == 0); /* an empty network */
                        }
                        int in_port = t->radix, in_vc = 0, hops = 0, globals = 0;
                        bool seen = false;
                        for (;;) {
                            struct route_result res;
                            n->rops->route(n->rstate, n, r, in_port, in_vc, &p, &res);
                            if (res.c[0].port >= t->radix)
                                break;
                            globals += topo_port_class(t, res.c[0].port) == TOPO_GLOBAL;
                            in_vc = res.c[0].vc_lo;
                            topo_link(t, r, res.c[0].port, &r, &in_port);
                            seen |= df_group(t, r) == gm;
                            assert_true(++hops <= 6);
                        }
                        assert_int_equal(r, d);
                        assert_true(seen);
                        assert_true(p.misroute & PACKET_MISROUTED_GLOBAL);
                        assert_int_equal(globals, 2);
                        if (group)
                            assert_int_equal(hops, df_group_path_hops(t, s, gm, d));
                        longest = hops > longest ? hops : longest;
                    }
                }
            assert_int_equal(longest, group ? 5 : 6);
            test_net_free(n, cfg);
        }
}

/* The OLM trigger tests' start: a packet from router s to a router of
 * group 3, planned at s, whose minimal output's VCs hold 3/4 of their
 * credits' worth elsewhere (still open); returns that output's global port. */
static size_t plan_min_three_quarters(struct net *n, const struct df_opts *o, uint32_t s,
                                      struct packet *p, struct df_plan *plan)
{
    const struct topo *t = &n->topo;
    *p = packet_between(n, s, 3 * (uint32_t)t->a + 2);
    p->route[0] = NET_NONE;
    df_plan(n, o, s, t->radix, 0, p, plan);
    size_t gp = (size_t)s * (size_t)n->P + (size_t)plan->min_port;
    struct ovc *mv = &n->ovcs[gp * (size_t)n->V];
    for (int v = plan->min.vc_lo; v <= plan->min.vc_hi; v++)
        mv[v].credits = (int32_t)n->ports[n->ports[gp].far_in].cap / 4;
    return gp;
}

/* OLM's trigger: with olm.trigger = blocked no misroute while the minimal
 * output can take the packet, whatever the occupancies; once it cannot, the
 * options below olm.threshold percent of its occupancy (and open), unless
 * the minimal output is below olm.min_occupancy. */
static void olm_trigger_blocked(void **state)
{
    (void)state;
    struct saturn_config *cfg;
    struct net *n = small_net("olm", NULL, &cfg);
    const struct topo *t = &n->topo;
    struct df_opts o;
    df_opts_read(cfg, n, &o);
    const uint32_t s = 0;
    struct packet p;
    struct df_plan plan;
    const size_t gp = plan_min_three_quarters(n, &o, s, &p, &plan);
    struct ovc *mv = &n->ovcs[gp * (size_t)n->V];
    assert_true(df_cand_open(n, s, &plan.min, p.len));
    assert_int_equal(df_occupancy_choice(n, &o, s, &plan, &p, 50), -1); /* not blocked */
    o.blocked = false;
    assert_true(df_occupancy_choice(n, &o, s, &plan, &p, 50) >= 0); /* always: misroutes */
    o.blocked = true;
    for (int v = plan.min.vc_lo; v <= plan.min.vc_hi; v++)
        mv[v].owner = 0; /* taken: the packet cannot go now */
    assert_false(df_cand_open(n, s, &plan.min, p.len));
    int c = df_occupancy_choice(n, &o, s, &plan, &p, 50);
    assert_true(c >= 0 && plan.opt[c].port != plan.min_port);
    o.min_occ = 0.9; /* the minimal output is 75 % full: below the minimum */
    assert_int_equal(df_occupancy_choice(n, &o, s, &plan, &p, 50), -1);
    for (int v = plan.min.vc_lo; v <= plan.min.vc_hi; v++) {
        mv[v].owner = -1;
        mv[v].credits = (int32_t)n->ports[n->ports[gp].far_in].cap;
    }
    /* The congested restriction (olm.congested_*): at y, the owner of the
     * minimal global link, the trigger fires only when that link stands out
     * among y's global links (occupancy > 150 % of their mean + 5 packets). */
    o.min_occ = 0;
    uint32_t y;
    int yin;
    topo_link(t, s, plan.min_port, &y, &yin);
    df_plan(n, &o, y, yin, 0, &p, &plan);
    assert_true(plan.mm && topo_port_class(t, plan.min_port) == TOPO_GLOBAL);
    for (int j = 0; j < t->h; j++) { /* every global link of y equally busy, the minimal blocked */
        size_t g2 = (size_t)y * (size_t)n->P + (size_t)(t->a - 1 + j);
        for (int v = 0; v < n->global_vcs; v++) {
            n->ovcs[g2 * (size_t)n->V + (size_t)v].credits = 0;
            n->ovcs[g2 * (size_t)n->V + (size_t)v].ob_space = 0;
        }
    }
    assert_false(df_cand_open(n, y, &plan.min, p.len));
    o.cong_coef = 1.5; /* FOGSim's 150 % and 5 packets (off by default) */
    o.cong_allow = 5.0 * p.len;
    assert_int_equal(df_occupancy_choice(n, &o, y, &plan, &p, 1000), -1); /* not congested */
    o.cong_coef = o.cong_allow = 0; /* restriction off: local options are emptier */
    assert_true(df_occupancy_choice(n, &o, y, &plan, &p, 1000) >= 0);
    test_net_free(n, cfg);
}

/* olm.trigger = busy (FOGSim's CGA trigger on its input-output-queued
 * router: the minimal output out of credits, or its output queue still
 * receiving a packet through the crossbar): an open minimal output
 * triggers the occupancy comparison while a flit crossed the switch into
 * it this cycle or the last one, and not once it has been idle longer;
 * flits crossing are recorded per output port. */
static void olm_trigger_busy(void **state)
{
    (void)state;
    struct saturn_config *cfg;
    struct net *n = small_net("olm", "olm.trigger=busy", &cfg);
    const struct topo *t = &n->topo;
    assert_non_null(n->xbar_last);
    struct df_opts o;
    df_opts_read(cfg, n, &o);
    assert_true(o.blocked && o.busy);
    const uint32_t s = 0;
    struct packet p;
    struct df_plan plan;
    const size_t gp = plan_min_three_quarters(n, &o, s, &p, &plan);
    struct ovc *mv = &n->ovcs[gp * (size_t)n->V];
    assert_true(df_cand_open(n, s, &plan.min, p.len));
    n->now = 100;
    n->xbar_last[gp] = 0; /* nothing crossed: no trigger */
    assert_int_equal(df_occupancy_choice(n, &o, s, &plan, &p, 50), -1);
    n->xbar_last[gp] = n->now - 1; /* last flit crossed two cycles ago */
    assert_int_equal(df_occupancy_choice(n, &o, s, &plan, &p, 50), -1);
    for (uint64_t x = n->now; x <= n->now + 1; x++) { /* last cycle, this cycle */
        n->xbar_last[gp] = x;
        int c = df_occupancy_choice(n, &o, s, &plan, &p, 50);
        assert_true(c >= 0 && plan.opt[c].port != plan.min_port);
    }
    o.busy = false; /* blocked alone: an open output does not trigger */
    assert_int_equal(df_occupancy_choice(n, &o, s, &plan, &p, 50), -1);
    o.busy = true;
    o.min_occ = 0.9; /* busy, but below olm.min_occupancy (FOGSim's ThMin) */
    assert_int_equal(df_occupancy_choice(n, &o, s, &plan, &p, 50), -1);
    for (int v = plan.min.vc_lo; v <= plan.min.vc_hi; v++)
        mv[v].credits = (int32_t)n->ports[n->ports[gp].far_in].cap;
    n->now = 0;
    memset(n->xbar_last, 0, (size_t)t->routers * (size_t)n->P * sizeof *n->xbar_last);
    /* under load the crossing record follows the flits */
    for (int i = 0; i < 20; i++)
        net_packet_new(n, 0, (uint32_t)(5 + i), 4, true);
    uint64_t seen = 0;
    for (int c = 0; c < 2000 && n->packets_delivered < 20; c++) {
        assert_int_equal(net_step(n), SATURN_OK);
        for (size_t k = 0; k < (size_t)t->routers * (size_t)n->P; k++)
            if (n->xbar_last[k] > seen)
                seen = n->xbar_last[k];
        assert_true(seen <= n->now);
        assert_true(net_audit(n));
    }
    assert_true(seen > 0);
    assert_int_equal(n->packets_delivered, 20);
    test_net_free(n, cfg);
    n = small_net("olm", NULL, &cfg); /* not recorded otherwise */
    assert_null(n->xbar_last);
    test_net_free(n, cfg);
    n = small_net("hybrid", "olm.trigger=busy", &cfg); /* Hybrid's trigger reads it too */
    assert_non_null(n->xbar_last);
    test_net_free(n, cfg);
    n = small_net("base", "olm.trigger=busy", &cfg); /* nor for a policy that never reads it */
    assert_null(n->xbar_last);
    test_net_free(n, cfg);
}

/* router.inject_vc = destination (FOGSim's generator): a packet enters on
 * VC floor(dst x VCs / nodes) and waits for that VC even when another has
 * room, holding up the packets behind it; round_robin takes any VC with
 * room. */
static void inject_vc_by_destination(void **state)
{
    (void)state;
    for (int rr = 0; rr < 2; rr++) {
        struct saturn_config *cfg;
        struct net *n = small_net("min", rr ? NULL : "router.inject_vc=destination", &cfg);
        const uint32_t nodes = n->topo.nodes, vcs = (uint32_t)n->inj_vcs;
        assert_true(vcs == 3 && nodes == 55);
        uint32_t da = 30, db = 5; /* VC 1 and VC 0 */
        assert_int_equal(da * vcs / nodes, 1);
        assert_int_equal(db * vcs / nodes, 0);
        int32_t *cr = &n->inj_credits[0];
        int32_t keep = cr[1];
        cr[1] = 0; /* VC 1 of node 0 full */
        net_packet_new(n, 0, da, 4, true);
        net_packet_new(n, 0, db, 4, true);
        assert_true(net_can_start(n, 0) == (rr == 1)); /* round_robin: VC 2 or 0 */
        cr[1] = keep;
        for (int c = 0; c < 300; c++) {
            assert_int_equal(net_step(n), SATURN_OK);
            uint32_t gp = (uint32_t)topo_node_router(&n->topo, 0) * (uint32_t)n->P +
                          (uint32_t)topo_node_port(&n->topo, 0);
            if (!rr) /* only VCs 1 (to da) and 0 (to db) */
                assert_true((n->ports[gp].nonempty & ~3ULL) == 0);
            assert_true(net_audit(n));
        }
        assert_int_equal(n->packets_delivered, 2);
        test_net_free(n, cfg);
    }
}

/* PiggyBack's marks (pb.marks): a global link whose phits wait only on
 * global VC 1 (the second global hop of Valiant packets) is marked when
 * the marks count every VC, not when they count VC 0 (minimal packets'
 * VC, FOGSim's test). Seen through the source decision, with the UGAL
 * comparison off and the marks visible at once. */
static void pb_marks_count_vc0_or_all(void **state)
{
    (void)state;
    for (int all = 0; all < 2; all++) {
        struct saturn_config *cfg;
        struct net *n = small_net("pb", all ? "pb.delay=0 pb.threshold=1e5 pb.coef=100 "
                                              "pb.allowance=0 pb.marks=all"
                                            : "pb.delay=0 pb.threshold=1e5 pb.coef=100 "
                                              "pb.allowance=0 pb.marks=vc0",
                                  &cfg);
        const struct topo *t = &n->topo;
        uint32_t s = 0, gd = df_group(t, 0) + 1;
        uint32_t k = df_link_to(t, df_group(t, s), gd);
        assert_int_equal(k / (uint32_t)t->h, 0); /* router 0 holds the minimal link */
        size_t gp = (size_t)s * (size_t)n->P + (size_t)(t->a - 1) + k % (uint32_t)t->h;
        n->ovcs[gp * (size_t)n->V + 1].credits = 0; /* VC 1 full, VC 0 empty */
        n->rops->cycle(n->rstate, n);
        struct packet p = packet_between(n, s, gd * (uint32_t)t->a + 1);
        n->rops->at_source(n->rstate, n, &p, 12345);
        struct route_result res;
        n->rops->route(n->rstate, n, s, t->radix, 0, &p, &res);
        assert_int_equal((p.misroute & PACKET_MISROUTED_GLOBAL) != 0, all);
        test_net_free(n, cfg);
    }
}

/* routing.reroute: a head that waits for an output VC is routed again
 * every cycle, from the packet as it arrived (last cycle's choice undone),
 * and its counters stay exact; with once it is routed once per router. */
static int route_calls;
static const struct route_ops *wrapped;
static void counting_route(void *state, const struct net *n, uint32_t r, int in_port, int in_vc,
                           struct packet *p, struct route_result *out)
{
    route_calls++;
    wrapped->route(state, n, r, in_port, in_vc, p, out);
}
static void counting_route_again(void *state, const struct net *n, uint32_t r, int in_port,
                                 int in_vc, struct packet *p, struct route_result *out)
{
    route_calls++;
    wrapped->route_again(state, n, r, in_port, in_vc, p, out);
}

static void waiting_heads_rerouted(void **state)
{
    (void)state;
    int calls[2];
    for (int waiting = 0; waiting < 2; waiting++) {
        struct saturn_config *cfg;
        struct net *n = small_net("base", waiting ? "base.threshold=2" : "routing.reroute=once", &cfg);
        assert_true(n->reroute == (bool)waiting);
        wrapped = n->rops;
        struct route_ops ops = *n->rops;
        ops.route = counting_route;
        ops.route_again = wrapped->route_again ? counting_route_again : NULL;
        n->rops = &ops;
        route_calls = 0;
        struct contention *cc = n->rstate;
        /* every node of group 0 sends to group 1 (ADV+1): heads wait */
        const struct topo *t = &n->topo;
        for (int cycle = 0; cycle < 600; cycle++) {
            if (cycle < 300)
                for (uint32_t s = 0; s < (uint32_t)t->a * (uint32_t)t->p; s++)
                    net_packet_new(n, s, s + (uint32_t)t->a * (uint32_t)t->p, 4, true);
            assert_int_equal(net_step(n), SATURN_OK);
            check_counters(n, cc);
        }
        calls[waiting] = route_calls;
        n->rops = wrapped;
        test_net_free(n, cfg);
    }
    /* the same packets: with once about one call per router visited */
    if (calls[1] <= 2 * calls[0])
        fail_msg("waiting %d route calls, once %d", calls[1], calls[0]);
}

/* Base's routings, first (route) and again while the head waits
 * (route_again: from what the first one kept, while the counter does not
 * fire), against the general path at every call under load: the same
 * candidate, the same packet fields, the same counters and the same random
 * state. */
static const struct route_ops *base_ops;
static int base_checked, base_again;
static void base_check(void *state, const struct net *n, uint32_t r, int in_port, int in_vc,
                       struct packet *p, struct route_result *out, bool again)
{
    struct df_base *b = state;
    struct net *nn = (struct net *)n;
    const size_t P = (size_t)n->P, V = (size_t)n->V;
    uint16_t count[64];
    int8_t held[64 * 8];
    memcpy(count, &b->cc.count[r * P], P * sizeof *count);
    memcpy(held, &b->cc.held[r * P * V], P * V);
    const struct rng rng0 = n->router_rng[r];
    /* the general path */
    struct packet q = *p;
    struct route_result want;
    struct df_plan plan;
    df_plan_min(n, &b->o, r, in_port, in_vc, &q, &plan);
    int choice = df_contention_choice(&b->cc, &b->o, n, r, in_port, in_vc, &q, &plan, b->th);
    df_apply(n, r, &plan, choice, &q, &want);
    uint16_t count_want[64];
    int8_t held_want[64 * 8];
    memcpy(count_want, &b->cc.count[r * P], P * sizeof *count);
    memcpy(held_want, &b->cc.held[r * P * V], P * V);
    const struct rng rng_want = n->router_rng[r];
    /* back, and Base's own route */
    memcpy(&b->cc.count[r * P], count, P * sizeof *count);
    memcpy(&b->cc.held[r * P * V], held, P * V);
    nn->router_rng[r] = rng0;
    (again ? base_ops->route_again : base_ops->route)(state, n, r, in_port, in_vc, p, out);
    assert_int_equal(out->n, want.n);
    assert_int_equal(out->sel, want.sel);
    assert_int_equal(out->c[0].port, want.c[0].port);
    assert_int_equal(out->c[0].vc_lo, want.c[0].vc_lo);
    assert_int_equal(out->c[0].vc_hi, want.c[0].vc_hi);
    assert_memory_equal(p, &q, sizeof q);
    assert_memory_equal(&b->cc.count[r * P], count_want, P * sizeof *count);
    assert_memory_equal(&b->cc.held[r * P * V], held_want, P * V);
    assert_memory_equal(&n->router_rng[r], &rng_want, sizeof rng_want);
    base_checked++;
    base_again += again;
}
static void base_route_checked(void *state, const struct net *n, uint32_t r, int in_port,
                               int in_vc, struct packet *p, struct route_result *out)
{
    base_check(state, n, r, in_port, in_vc, p, out, false);
}
static void base_route_again_checked(void *state, const struct net *n, uint32_t r,
                                     int in_port, int in_vc, struct packet *p,
                                     struct route_result *out)
{
    base_check(state, n, r, in_port, in_vc, p, out, true);
}

static void base_route_again_same(void **state)
{
    (void)state;
    struct saturn_config *cfg;
    struct net *n = small_net("base", "base.threshold=2", &cfg);
    assert_true(n->P <= 64 && n->V <= 8);
    base_ops = n->rops;
    struct route_ops ops = *n->rops;
    assert_non_null(base_ops->route_again);
    ops.route = base_route_checked;
    ops.route_again = base_route_again_checked;
    n->rops = &ops;
    base_checked = base_again = 0;
    const struct topo *t = &n->topo;
    struct rng rng;
    rng_seed(&rng, 5, 0);
    for (int cycle = 0; cycle < 800; cycle++) {
        for (uint32_t s = 0; s < n->nnodes; s++)
            if (rng_uniform(&rng) < (cycle < 400 ? 0.3 : 0.05)) {
                /* half of it ADV+1 (heads wait, counters fire), half uniform */
                uint32_t dst = rng_below(&rng, 2) ? (s + (uint32_t)t->a * (uint32_t)t->p) % n->nnodes
                                                  : (uint32_t)rng_below(&rng, n->nnodes);
                if (dst != s)
                    net_packet_new(n, s, dst, 4, true);
            }
        assert_int_equal(net_step(n), SATURN_OK);
    }
    n->rops = base_ops;
    if (!(base_checked > 10000 && base_again > 5000 && base_checked - base_again > 5000))
        fail_msg("%d routings, %d of them again", base_checked, base_again);
    test_net_free(n, cfg);
}

/* The early saturation of Base under ADV+1 (a group's overflow on the
 * global links of the router that owns the minimal one) is gone: with the
 * paper's mechanisms a small network carries 0.4 phits/node/cycle, and
 * the old combination (decided once, crg, exceeds, any option) saturates. */
static void base_adv1_not_saturated_early(void **state)
{
    (void)state;
    for (int old = 0; old < 2; old++) {
        const char *kv[26] = {"network.topology=dragonfly", "dragonfly.p=2", "dragonfly.a=4",
                              "dragonfly.h=2", "dragonfly.local_latency=10",
                              "dragonfly.global_latency=100", "dragonfly.global_buf_flits=256",
                              "router.vcs=3", "router.buf_flits=32", "router.out_buf_flits=32",
                              "router.switching=vct", "router.speedup=2", "router.route_delay=4",
                              "traffic.packet_length=8", "routing.algorithm=base",
                              "base.threshold=2", "traffic.pattern=adv", "traffic.flit_rate=0.4",
                              "steady.warmup=2000", "steady.measure=3000",
                              "steady.drain_max=3000", NULL};
        if (old) {
            kv[21] = "routing.reroute=once";
            kv[22] = "dragonfly.global_misroute=crg";
            kv[23] = "contention.trigger=exceeds";
            kv[24] = "dragonfly.misroute_room=false";
            kv[25] = NULL;
        }
        struct saturn_results r = test_run(kv);
        if (old)
            assert_true(r.saturated && r.packet_latency.mean > 500);
        else if (r.saturated || r.measured_delivered != r.measured_packets ||
                 r.packet_latency.mean > 400 || r.accepted < 0.39)
            fail_msg("base ADV+1 0.4: accepted %.3f latency %.0f saturated %d", r.accepted,
                     r.packet_latency.mean, r.saturated);
        saturn_results_free(&r);
    }
}

/* ECtN: partial counters count the heads of injection and global input
 * queues bound for other groups; after a broadcast every router's combined
 * array is the sum of its group's partial arrays. */
static void ectn_combined_is_sum_of_partials(void **state)
{
    (void)state;
    struct saturn_config *cfg;
    struct net *n = small_net("ectn", "ectn.period=50", &cfg);
    struct df_ectn *e = n->rstate;
    const struct topo *t = &n->topo;
    const uint32_t P = (uint32_t)n->P, V = (uint32_t)n->V, L = e->links;
    struct rng rng;
    rng_seed(&rng, 3, 0);
    uint32_t *want = calloc(L, sizeof *want);
    int broadcasts = 0;
    bool nonzero = false;
    for (int cycle = 0; cycle < 1200; cycle++) {
        for (uint32_t s = 0; s < n->nnodes; s++)
            if (rng_uniform(&rng) < 0.2)
                net_packet_new(n, s, (s + (uint32_t)(t->a * t->p) * 2) % n->nnodes, 4, true);
        assert_int_equal(net_step(n), SATURN_OK);
        for (uint32_t r = 0; r < t->routers; r++) {
            memset(want, 0, L * sizeof *want);
            uint32_t g = df_group(t, r);
            for (uint32_t i = 0; i < P * V; i++) {
                size_t lin = (size_t)r * P * V + i;
                int port = (int)(i / V);
                bool counted_port = port >= t->radix || topo_port_class(t, port) == TOPO_GLOBAL;
                uint32_t dg = df_group(t, topo_node_router(t, n->pk[n->iroute[lin].pid].dst));
                if (n->ivcs[lin].state != IVC_IDLE && counted_port && dg != g)
                    want[df_link_to(t, g, dg)]++;
            }
            for (uint32_t k = 0; k < L; k++) {
                assert_int_equal(e->partial[(size_t)r * L + k], want[k]);
                nonzero |= want[k] > 0;
            }
        }
        if (n->now % e->period == 0) { /* a broadcast starts the next cycle: do it now */
            n->rops->cycle(n->rstate, n);
            broadcasts++;
            for (uint32_t g = 0; g < t->groups; g++)
                for (uint32_t k = 0; k < L; k++) {
                    unsigned sum = 0;
                    for (int i = 0; i < t->a; i++)
                        sum += e->partial[((size_t)g * (size_t)t->a + (size_t)i) * L + k];
                    assert_int_equal(e->combined[(size_t)g * L + k], sum);
                }
        }
    }
    assert_true(broadcasts >= 20 && nonzero);
    free(want);
    test_net_free(n, cfg);
}

/* ---- end to end ------------------------------------------------------------ */

/* Zero load, MIN, l-g-l: inject + 4 routers x (route + crossbar) + the
 * links + eject + (L - 1). */
static void zero_load_latency(void **state)
{
    (void)state;
    struct saturn_config *cfg;
    struct net *n = test_net(
        (const char *const[]){"network.topology=dragonfly", "dragonfly.p=2", "dragonfly.a=4",
                              "dragonfly.h=2", "routing.algorithm=min", "router.switching=vct",
                              "router.buf_flits=32", "router.out_buf_flits=32",
                              "router.speedup=2", "router.route_delay=4", "router.xbar_delay=1",
                              "traffic.packet_length=8", NULL},
        &cfg);
    const struct topo *t = &n->topo;
    for (uint32_t s = 0; s < t->routers; s += 5)
        for (uint32_t d = 0; d < t->routers; d += 3) {
            const uint32_t L = 8;
            uint32_t pid = net_packet_new(n, s * 2, d * 2 + 1, L, true);
            uint64_t t0 = n->now, links = 0;
            /* the links of the minimal path */
            for (uint32_t r = s; r != d;) {
                int port = df_port_to_router(t, r, d), fp;
                links += topo_port_class(t, port) == TOPO_GLOBAL ? 100 : 10;
                topo_link(t, r, port, &r, &fp);
            }
            uint32_t H = (uint32_t)topo_distance(t, s * 2, d * 2);
            while (n->pk[pid].alive && n->pk[pid].rx < L)
                assert_int_equal(net_step(n), SATURN_OK);
            uint64_t took = n->now - 1 - t0;
            assert_int_equal(took, 1 + (H + 1) * 5 + links + 1 + (L - 1));
        }
    test_net_free(n, cfg);
}

static void min_adv1_matches_single_link_bound(void **state)
{
    (void)state;
    /* p = 2, a = 4: one global link carries a group's a p nodes: 1/8 */
    struct saturn_results r = test_run((const char *const[]){
        "network.topology=dragonfly", "dragonfly.p=2", "dragonfly.a=4", "dragonfly.h=2",
        "routing.algorithm=min", "router.switching=vct", "router.buf_flits=32",
        "router.out_buf_flits=32", "router.speedup=2", "traffic.packet_length=8",
        "traffic.pattern=adv", "traffic.flit_rate=0.4", "steady.warmup=3000",
        "steady.measure=6000", "steady.drain_max=0", NULL});
    double bound = 1.0 / (4 * 2);
    if (r.accepted < 0.95 * bound || r.accepted > 1.02 * bound)
        fail_msg("MIN under ADV+1 accepted %.4f, bound 1/(a p) = %.4f", r.accepted, bound);
    saturn_results_free(&r);
}

/* saturn model: MIN's busiest channel under ADV+1 is the group pair's
 * global link, 1/(a p); under uniform traffic the walk of every path
 * agrees with the closed form of topo_uniform_bound. */
static void model_bounds(void **state)
{
    (void)state;
    const char *pats[] = {"traffic.pattern=adv", "traffic.pattern=uniform"};
    for (int i = 0; i < 2; i++) {
        struct saturn_config *cfg = test_config((const char *const[]){
            "network.topology=dragonfly", "dragonfly.p=2", "dragonfly.a=4", "dragonfly.h=2",
            "routing.algorithm=min", "traffic.packet_length=8", pats[i], NULL});
        struct saturn_bounds b;
        struct saturn_error err = {0};
        assert_int_equal(saturn_bounds(cfg, &b, &err), SATURN_OK);
        double flits = b.channel_routing * 8;
        struct topo t;
        memset(&t, 0, sizeof t);
        topo_build_dragonfly(&t, 2, 4, 2, TOPO_PALMTREE);
        double want = i == 0 ? 1.0 / (4 * 2) : topo_uniform_bound(&t);
        if (flits < want * (1 - 1e-9) || flits > want * (1 + 1e-9))
            fail_msg("%s: busiest channel bound %.6f, expected %.6f", pats[i], flits, want);
        topo_free(&t);
        saturn_config_free(cfg);
    }
}

/* Far beyond saturation with the audit on every cycle, every routing
 * delivers every packet once and in order: no deadlock. */
static void every_routing_survives_saturation(void **state)
{
    (void)state;
    /* every routing, then the FOGSim readings that change paths, VCs or
     * allocation: group-only Valiant paths, one VC per hop, transit first
     * (not with min under ADV+1: there transit first starves the nodes of
     * the router that owns the group's link, by design, as in FOGSim) */
    const char *const cases[][2] = {
        {"min", NULL}, {"val", NULL}, {"ugal", NULL}, {"pb", NULL}, {"olm", NULL},
        {"base", NULL}, {"hybrid", NULL}, {"ectn", NULL},
        {"ugal", "val.intermediate=group"}, {"pb", "val.intermediate=group"},
        {"olm", "dragonfly.vc_choice=lowest"}, {"ectn", "dragonfly.vc_choice=lowest"},
        {"olm", "router.transit_priority=true"}, {"pb", "router.transit_priority=true"},
        {"base", "dragonfly.mm_targets=all"}, {"hybrid", "dragonfly.mm_targets=all"}};
    const char *const patterns[] = {"traffic.pattern=uniform", "traffic.pattern=adv"};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        for (int j = 0; j < 2; j++) {
            char word[64];
            snprintf(word, sizeof word, "routing.algorithm=%s", cases[i][0]);
            const char *extra = cases[i][1] ? cases[i][1] : "sim.seed=1";
            struct saturn_results r = test_run((const char *const[]){
                "network.topology=dragonfly", "dragonfly.p=2", "dragonfly.a=4", "dragonfly.h=2",
                "dragonfly.local_latency=3", "dragonfly.global_latency=12",
                "dragonfly.global_buf_flits=16", word, patterns[j], "router.switching=vct",
                "router.buf_flits=8", "router.out_buf_flits=8", "router.speedup=2",
                "traffic.packet_length=8", "traffic.flit_rate=0.9", "steady.warmup=300",
                "steady.measure=800", "steady.drain_max=200000", "sim.check_invariants=true",
                "sim.watchdog=3000", extra, NULL});
            if (!r.drained || r.measured_delivered != r.measured_packets)
                fail_msg("%s %s %s: %llu of %llu delivered", cases[i][0], extra, patterns[j],
                         (unsigned long long)r.measured_delivered,
                         (unsigned long long)r.measured_packets);
            saturn_results_free(&r);
        }
}

static void expect_input_error(const char *const *kv, const char *key)
{
    struct saturn_config *cfg = test_config(kv);
    struct saturn_sim *s;
    struct saturn_error err = {0};
    assert_int_equal(saturn_sim_create(cfg, &s, &err), SATURN_EINPUT);
    if (!strstr(err.msg, key))
        fail_msg("error does not name %s: %s", key, err.msg);
    saturn_config_free(cfg);
}

static void bad_input(void **state)
{
    (void)state;
    expect_input_error((const char *const[]){"network.topology=dragonfly", "routing.algorithm=val",
                                             "dragonfly.local_vcs=3", NULL},
                       "dragonfly.local_vcs");
    expect_input_error((const char *const[]){"network.topology=dragonfly", "routing.algorithm=olm",
                                             "dragonfly.global_vcs=1", NULL},
                       "dragonfly.global_vcs");
    expect_input_error((const char *const[]){"network.topology=dragonfly", "routing.algorithm=dor",
                                             NULL},
                       "routing.algorithm");
    expect_input_error((const char *const[]){"routing.algorithm=ectn", NULL}, "routing.algorithm");
    expect_input_error((const char *const[]){"network.topology=dragonfly", "routing.algorithm=base",
                                             "dragonfly.mm_targets=all",
                                             "dragonfly.misroute_room=false", NULL},
                       "dragonfly.mm_targets");
    expect_input_error((const char *const[]){"network.topology=dragonfly", "routing.algorithm=base",
                                             "dragonfly.mm_targets=all", "routing.reroute=once",
                                             NULL},
                       "dragonfly.mm_targets");
    expect_input_error((const char *const[]){"network.topology=dragonfly", "routing.algorithm=ectn",
                                             "ectn.delay=100", NULL},
                       "ectn.delay");
    expect_input_error((const char *const[]){"network.topology=dragonfly", "dragonfly.a=40",
                                             "dragonfly.h=20", "dragonfly.p=10",
                                             "routing.algorithm=min", NULL},
                       "dragonfly.a");
    expect_input_error((const char *const[]){"network.topology=dragonfly", "routing.algorithm=min",
                                             "router.switching=vct", "router.buf_flits=32",
                                             "dragonfly.global_buf_flits=4",
                                             "traffic.packet_length=8", NULL},
                       "dragonfly.global_buf_flits");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(topology_wiring),
        cmocka_unit_test(topo_div_exact),
        cmocka_unit_test(paper_network_builds),
        cmocka_unit_test(min_paths_are_lgl),
        cmocka_unit_test(plan_min_port_from_wiring),
        cmocka_unit_test(val_paths_visit_the_intermediate),
        cmocka_unit_test(every_routing_is_acyclic),
        cmocka_unit_test(base_counts_one_packet),
        cmocka_unit_test(counters_exact_under_load),
        cmocka_unit_test(mm_paths),
        cmocka_unit_test(mm_targets_all),
        cmocka_unit_test(trigger_at_threshold),
        cmocka_unit_test(olm_trigger_blocked),
        cmocka_unit_test(olm_trigger_busy),
        cmocka_unit_test(inject_vc_by_destination),
        cmocka_unit_test(waiting_heads_rerouted),
        cmocka_unit_test(base_route_again_same),
        cmocka_unit_test(pb_marks_count_vc0_or_all),
        cmocka_unit_test(base_adv1_not_saturated_early),
        cmocka_unit_test(ectn_combined_is_sum_of_partials),
        cmocka_unit_test(zero_load_latency),
        cmocka_unit_test(min_adv1_matches_single_link_bound),
        cmocka_unit_test(model_bounds),
        cmocka_unit_test(every_routing_survives_saturation),
        cmocka_unit_test(bad_input),
        cmocka_unit_test(occupancy_vcs_first),
        cmocka_unit_test(valiant_exclude_source),
        cmocka_unit_test(ugal_pb_group_paths),
        cmocka_unit_test(vc_choice_lowest),
        cmocka_unit_test(occupancy_max_next_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
