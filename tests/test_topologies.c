/* The topologies behind the ops table beyond tori and Dragonflies (fat
 * tree, ...): wiring, distances and minimal ports against a breadth-first
 * search, node placement, every routing's paths and the acyclicity of its
 * channel dependency graph (every candidate and VC followed), zero-load
 * latency against the closed form, and saturation throughput against the
 * channel-load bounds. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/net.h"
#include "support.h"
#include "topo/topo.h"
#include "topo/topo_internal.h"

/* A configuration from space-separated key=value words. */
static struct saturn_config *config_of(const char *words)
{
    const char *kv[48];
    char buf[2048];
    size_t k = 0;
    snprintf(buf, sizeof buf, "%s", words);
    for (char *save = NULL, *w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
        if (k == 47)
            fail_msg("%s: more than 47 words", words);
        kv[k++] = w;
    }
    kv[k] = NULL;
    return test_config(kv);
}

static struct net *make(const char *words, struct saturn_config **cfg)
{
    struct net *n = calloc(1, sizeof *n);
    *cfg = config_of(words);
    struct saturn_error err = {0};
    if (!n || net_create(n, *cfg, 1, &err))
        fail_msg("%s: %s", words, err.msg);
    return n;
}

static struct saturn_results run_words(const char *words)
{
    struct saturn_config *c = config_of(words);
    struct saturn_error err = {0};
    struct saturn_results r;
    if (saturn_run(c, &r, &err))
        fail_msg("%s: %s", words, err.msg);
    saturn_config_free(c);
    return r;
}

/* Breadth-first hop counts from router s over topo_link. */
static void bfs(const struct topo *t, uint32_t s, int *d)
{
    uint32_t *q = malloc(t->routers * sizeof *q), head = 0, tail = 0;
    for (uint32_t r = 0; r < t->routers; r++)
        d[r] = -1;
    d[s] = 0;
    q[tail++] = s;
    while (head < tail) {
        uint32_t r = q[head++], f;
        int fp;
        for (int p = 0; p < t->radix; p++)
            if (topo_link(t, r, p, &f, &fp) && d[f] < 0) {
                d[f] = d[r] + 1;
                q[tail++] = f;
            }
    }
    free(q);
}

/* Links both ways, node placement, distances, diameter and minimal ports
 * against a breadth-first search. */
static void check_wiring(const char *words, uint32_t routers, uint32_t nodes)
{
    struct saturn_config *cfg;
    struct net *n = make(words, &cfg);
    const struct topo *t = &n->topo;
    assert_int_equal(t->routers, routers);
    assert_int_equal(t->nodes, nodes);
    for (uint32_t r = 0; r < t->routers; r++)
        for (int p = 0; p < t->radix; p++) {
            uint32_t f, b;
            int fp, bp;
            if (!topo_link(t, r, p, &f, &fp))
                continue;
            assert_true(topo_link(t, f, fp, &b, &bp));
            assert_int_equal(b, r);
            assert_int_equal(bp, p);
            assert_int_equal(n->ports[(size_t)r * n->P + p].kind, PORT_NET);
        }
    for (uint32_t x = 0; x < t->nodes; x++) {
        uint32_t r = topo_node_router(t, x);
        int port = topo_node_port(t, x);
        assert_true(port >= t->radix && port < n->P);
        assert_int_equal(topo_port_node(t, r, port - t->radix), x);
        assert_int_equal(n->ports[(size_t)r * n->P + port].kind, PORT_LOCAL);
    }
    int *d = malloc(t->routers * sizeof *d), *e = malloc(t->routers * sizeof *e), diam = 0;
    for (uint32_t s = 0; s < t->routers; s++) {
        bfs(t, s, d);
        uint32_t cs = topo_router_nodes(t, s), xs = topo_port_node(t, s, 0);
        for (uint32_t r = 0; r < t->routers; r++) {
            assert_true(d[r] >= 0); /* connected */
            if (d[r] > diam)
                diam = d[r];
            uint32_t cd = topo_router_nodes(t, r), xd = topo_port_node(t, r, 0);
            if (cs && cd)
                assert_int_equal(topo_distance(t, xs, xd), d[r]);
        }
        /* minimal ports of every router towards s (a destination with nodes) */
        if (!cs)
            continue;
        for (uint32_t r = 0; r < t->routers; r++) {
            if (r == s)
                continue;
            int ports[TOPO_MAX_MIN], np = topo_min_ports(t, r, s, ports), want = 0;
            for (int p = 0; p < t->radix; p++) {
                uint32_t f;
                int fp;
                if (!topo_link(t, r, p, &f, &fp))
                    continue;
                bfs(t, f, e);
                if (e[s] == d[r] - 1) {
                    assert_true(want < np);
                    assert_int_equal(ports[want], p);
                    want++;
                }
            }
            assert_int_equal(np, want);
        }
    }
    assert_int_equal(topo_diameter(t), diam);
    free(d);
    free(e);
    test_net_free(n, cfg);
}

/* ---- paths and the channel dependency graph ------------------------------- */

struct cdg {
    struct net *n;
    size_t nch;
    uint8_t *edge;     /* nch x nch bits */
    uint8_t *seen;     /* states met in the current exploration */
    size_t nseen;
    uint32_t dst;      /* destination router */
    int want_hops;     /* every path this long (minimal routings), or -1 */
    int max_hops;
    bool perturb;      /* random credits before each routing decision */
    struct rng rng;
    uint64_t paths;
    uint64_t longer;   /* paths longer than the distance */
    int dist;          /* the current pair's */
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

/* Fills every output VC's credits at random (adaptive decisions that read
 * occupancy then take every branch over the draws). */
static void perturb(struct cdg *g)
{
    struct net *n = g->n;
    for (size_t i = 0; i < (size_t)n->topo.routers * n->P; i++) {
        const struct port *pt = &n->ports[i];
        if (pt->kind != PORT_NET || pt->out_unlimited)
            continue;
        for (int v = 0; v < n->V; v++)
            n->ovcs[i * n->V + v].credits = (int32_t)rng_below(&g->rng, n->ports[pt->far_in].cap + 1);
    }
}

static void explore(struct cdg *g, uint32_t r, int in_port, int in_vc, long in_ch,
                    const struct packet *p, int depth)
{
    struct net *n = g->n;
    const struct topo *t = &n->topo;
    if (depth > g->max_hops)
        fail_msg("a path longer than %d hops (livelock?)", g->max_hops);
    struct packet here = *p;
    struct route_result out;
    if (g->perturb)
        perturb(g);
    n->rops->route(n->rstate, n, r, in_port, in_vc, &here, &out);
    assert_true(out.n >= 1 && out.n <= ROUTE_MAX_CANDS);
    for (int i = 0; i < out.n; i++) {
        const struct route_cand *c = &out.c[i];
        assert_true(c->vc_lo <= c->vc_hi);
        if (c->port >= t->radix) { /* ejection, at the destination only */
            assert_int_equal(r, g->dst);
            assert_int_equal(c->port, topo_node_port(t, p->dst));
            if (g->want_hops >= 0 && depth != g->want_hops)
                fail_msg("%u -> %u: a path of %d hops, minimal is %d", topo_node_router(t, p->src),
                         g->dst, depth, g->want_hops);
            g->paths++;
            g->longer += depth > g->dist;
            continue;
        }
        assert_true(c->vc_hi < n->ports[(size_t)r * n->P + c->port].nvc);
        uint32_t fr;
        int fp;
        assert_true(topo_link(t, r, c->port, &fr, &fp));
        for (int v = c->vc_lo; v <= c->vc_hi; v++) {
            size_t o = channel(n, r, c->port, v);
            if (in_ch >= 0)
                add_edge(g, (size_t)in_ch, o);
            struct packet next = here;
            next.hops = (uint16_t)(p->hops + 1);
            /* explore each (channel, hops, phase bits) once per packet:
             * what follows depends on nothing else */
            size_t key = (o * (size_t)(g->max_hops + 1) + (size_t)depth) * 8 +
                         (here.route[1] & 7);
            if (g->seen[key / 8] & (1u << (key % 8)))
                continue;
            g->seen[key / 8] |= (uint8_t)(1u << (key % 8));
            explore(g, fr, fp, v, (long)o, &next, depth + 1);
        }
    }
}

static bool cycle_from(const struct cdg *g, size_t x, uint8_t *color)
{
    color[x] = 1;
    for (size_t y = 0; y < g->nch; y++) {
        size_t bit = x * g->nch + y;
        if (!(g->edge[bit / 8] & (1u << (bit % 8))))
            continue;
        if (color[y] == 1 || (color[y] == 0 && cycle_from(g, y, color)))
            return true;
    }
    color[x] = 2;
    return false;
}

/* Every path of the routing between every pair of routers with nodes, over
 * `draws` source draws (at_source): ends at the destination (minimal ones
 * exactly topo_distance hops long), uses VCs its ports have; returns
 * whether the channel dependency graph has a cycle. */
static bool routing_has_cycle_n(const char *words, int draws, bool minimal, bool random_credits,
                                int max_hops, uint64_t *longer)
{
    struct saturn_config *cfg;
    struct net *n = make(words, &cfg);
    const struct topo *t = &n->topo;
    struct cdg g;
    memset(&g, 0, sizeof g);
    g.n = n;
    g.nch = (size_t)t->routers * n->P * n->V;
    g.edge = calloc(g.nch * g.nch / 8 + 1, 1);
    g.max_hops = max_hops;
    g.perturb = random_credits;
    g.nseen = g.nch * (size_t)(max_hops + 1) + 1;
    g.seen = malloc(g.nseen);
    rng_seed(&g.rng, 7, 0);
    assert_non_null(g.edge);
    for (uint32_t s = 0; s < t->routers; s++)
        for (uint32_t d = 0; d < t->routers; d++) {
            uint32_t cs = topo_router_nodes(t, s), cd = topo_router_nodes(t, d);
            uint32_t xs = topo_port_node(t, s, 0);
            if (!cs || !cd)
                continue;
            for (int k = 0; k < draws; k++) {
                struct packet p;
                memset(&p, 0, sizeof p);
                p.src = xs;
                p.dst = topo_port_node(t, d, (int)((uint32_t)k % cd));
                p.len = 4;
                if (n->rops->at_source)
                    n->rops->at_source(n->rstate, n, &p, rng_next(&g.rng));
                g.dst = d;
                g.dist = topo_distance(t, p.src, p.dst);
                g.want_hops = minimal ? g.dist : -1;
                memset(g.seen, 0, g.nseen);
                explore(&g, s, topo_node_port(t, p.src), 0, -1, &p, 0);
            }
        }
    assert_true(g.paths > 0);
    if (longer)
        *longer = g.longer;
    uint8_t *color = calloc(g.nch, 1);
    bool cyc = false;
    for (size_t x = 0; x < g.nch && !cyc; x++)
        if (!color[x])
            cyc = cycle_from(&g, x, color);
    free(color);
    free(g.edge);
    free(g.seen);
    test_net_free(n, cfg);
    return cyc;
}

static bool routing_has_cycle(const char *words, int draws, bool minimal, bool random_credits,
                              int max_hops)
{
    return routing_has_cycle_n(words, draws, minimal, random_credits, max_hops, NULL);
}

/* ---- timing and throughput ------------------------------------------------ */

struct probe {
    uint64_t t;
    int delivered;
};

static void on_deliver(void *user, struct net *n, uint32_t pid)
{
    struct probe *p = user;
    p->t = n->now - n->pk[pid].t_gen;
    p->delivered++;
}

/* Every pair (every `step`-th source): one packet alone in the network
 * takes inject + (H+1)(route + xbar) + H link + eject + (L-1), H the
 * minimal hop count. */
/* Cycles a path from s to d spends on links beyond H link_latency (a
 * longer link class), or NULL: none. */
typedef uint64_t (*link_excess_fn)(const struct net *n, uint32_t s, uint32_t d);

static void check_zero_load_x(const char *words, uint32_t step, link_excess_fn excess);

static void check_zero_load(const char *words, uint32_t step)
{
    check_zero_load_x(words, step, NULL);
}

static void check_zero_load_x(const char *words, uint32_t step, link_excess_fn excess)
{
    struct saturn_config *cfg;
    struct net *n = make(words, &cfg);
    const uint32_t L = (uint32_t)saturn_config_int(cfg, "traffic.packet_length");
    struct probe pr;
    n->deliver = on_deliver;
    n->deliver_user = &pr;
    for (uint32_t s = 0; s < n->nnodes; s += step)
        for (uint32_t d = 0; d < n->nnodes; d++) {
            pr.delivered = 0;
            net_packet_new(n, s, d, L, true);
            for (int i = 0; i < 100000 && !pr.delivered; i++)
                assert_int_equal(net_step(n), SATURN_OK);
            uint64_t H = (uint64_t)topo_distance(&n->topo, s, d);
            uint64_t want = n->inject_latency + (H + 1) * (n->route_delay + n->xbar_delay) +
                            H * n->link_latency + n->eject_latency + (L - 1) +
                            (excess ? excess(n, s, d) : 0);
            if (pr.delivered != 1 || pr.t != want)
                fail_msg("%s: %u -> %u (%llu hops): latency %llu, closed form %llu", words, s, d,
                         (unsigned long long)H, (unsigned long long)pr.t,
                         (unsigned long long)want);
        }
    assert_true(net_audit(n));
    test_net_free(n, cfg);
}

/* The saturation checks take a network's words (base) and a point's
 * (extra): joined into buf (WORDS bytes). */
enum { WORDS = 2048 };
/* a crossbar speedup of 2 and output buffers: near the output-queued
 * throughput the channel bounds assume */
#define OUTPUT_QUEUED "router.speedup=2 router.out_buf_flits=16"
/* the saturation points' packets, buffers and measurement */
#define SAT_RUN "router.buf_flits=16 traffic.packet_length=4 steady.warmup=2000 steady.measure=6000"

static const char *join(char *buf, const char *base, const char *extra)
{
    if (snprintf(buf, WORDS, "%s %s", base, extra) >= WORDS)
        fail_msg("%s %s: longer than %d characters", base, extra, WORDS);
    return buf;
}

/* Accepted load at 1 flit/node/cycle offered (beyond saturation), no
 * drain, against a bound: within [lo, hi] x bound. */
static void check_saturation(const char *base, const char *extra, double bound, double lo,
                             double hi)
{
    char w[WORDS], x[WORDS];
    snprintf(x, sizeof x, "%s traffic.flit_rate=1 steady.drain_max=0", extra);
    struct saturn_results r = run_words(join(w, base, x));
    if (r.accepted < lo * bound || r.accepted > hi * bound)
        fail_msg("%s: accepted %.4f, bound %.4f (allowed %.2f to %.2f of it)", w, r.accepted,
                 bound, lo, hi);
    saturn_results_free(&r);
}

/* The saturation load against a bound (flits/node/cycle): stable at
 * (1 - margin) bound, saturated at (1 + margin) bound. The busiest
 * channel decides saturation even where other nodes could send more. */
static void check_saturation_load(const char *base, const char *extra, double bound,
                                  double margin)
{
    for (int side = 0; side < 2; side++) {
        char w[WORDS], x[WORDS];
        snprintf(x, sizeof x, "%s traffic.flit_rate=%.6f", extra,
                 bound * (side ? 1 + margin : 1 - margin));
        struct saturn_results r = run_words(join(w, base, x));
        if (r.saturated != (side == 1))
            fail_msg("%s: %s at %.0f %% of the bound %.4f (accepted %.4f)", w,
                     side ? "not saturated" : "saturated", 100 * (side ? 1 + margin : 1 - margin),
                     bound, r.accepted);
        saturn_results_free(&r);
    }
}

/* saturn model's bounds (flits/node/cycle): the prediction for a
 * deterministic routing (split false) or the even-split estimate for a
 * minimal adaptive one (split true; 0: none). */
static double model(const char *base, const char *extra, bool split)
{
    char w[WORDS];
    struct saturn_config *cfg = config_of(join(w, base, extra));
    struct saturn_bounds b;
    struct saturn_error err = {0};
    if (saturn_bounds(cfg, &b, &err))
        fail_msg("%s: %s", w, err.msg);
    double m = (double)saturn_config_int(cfg, "traffic.packet_length");
    saturn_config_free(cfg);
    return (split ? b.channel_split : b.predicted) * m;
}

/* topo_uniform_bound of the network the words build (flits/node/cycle):
 * minimal routing split evenly over the shortest next hops. */
static double uniform_bound(const char *base, const char *extra)
{
    char w[WORDS];
    struct saturn_config *cfg;
    struct net *n = make(join(w, base, extra), &cfg);
    double bound = topo_uniform_bound(&n->topo);
    test_net_free(n, cfg);
    return bound;
}

static void expect_error(const char *words, const char *key, const char *text)
{
    struct saturn_config *c = config_of(words);
    struct saturn_error err = {0};
    struct saturn_results r;
    int rc = saturn_run(c, &r, &err);
    if (rc == SATURN_OK)
        saturn_results_free(&r);
    if (rc != SATURN_EINPUT || !strstr(err.msg, key) || (text && !strstr(err.msg, text)))
        fail_msg("%s: expected an input error on %s (%s), got %d: %s", words, key,
                 text ? text : "", rc, err.msg);
    saturn_config_free(c);
}

/* ---- fat tree --------------------------------------------------------------- */

#define FT "network.topology=fattree "

static void fattree_wiring(void **state)
{
    (void)state;
    check_wiring(FT "fattree.k=4 fattree.n=3 routing.algorithm=nca", 48, 64);
    check_wiring(FT "fattree.k=3 fattree.n=2 routing.algorithm=nca", 6, 9);
    check_wiring(FT "fattree.k=2 fattree.n=4 routing.algorithm=dmodk", 32, 16);
    check_wiring(FT "fattree.k=5 fattree.n=1 routing.algorithm=nca", 1, 5);
}

/* Up-then-down paths: minimal, acyclic on every VC, both up-port rules.
 * The check can fail: DOR on a ring without datelines closes a cycle. */
static void fattree_routing_acyclic(void **state)
{
    (void)state;
    assert_true(routing_has_cycle("network.k=4 network.n=1 routing.dateline=none "
                                  "debug.allow_deadlock=true router.vcs=1", 1, true, false, 4));
    assert_false(routing_has_cycle(FT "fattree.k=4 fattree.n=3 routing.algorithm=nca", 1, true,
                                   false, 4));
    assert_false(routing_has_cycle(FT "fattree.k=3 fattree.n=3 routing.algorithm=dmodk "
                                      "router.vcs=2", 3, true, false, 4));
    assert_false(routing_has_cycle(FT "fattree.k=2 fattree.n=4 routing.algorithm=nca "
                                      "router.vcs=1", 1, true, false, 6));
}

/* D-mod-k takes up port (d / k^l) mod k: one path per destination, and
 * the paths to a destination meet (a tree). */
static void fattree_dmodk_paths(void **state)
{
    (void)state;
    struct saturn_config *cfg;
    struct net *n = make(FT "fattree.k=3 fattree.n=3 routing.algorithm=dmodk", &cfg);
    const struct topo *t = &n->topo;
    uint32_t *next = malloc(t->routers * sizeof *next);
    for (uint32_t d = 0; d < t->nodes; d++) {
        for (uint32_t r = 0; r < t->routers; r++)
            next[r] = TOPO_NONE;
        for (uint32_t s = 0; s < t->nodes; s++) {
            struct packet p;
            memset(&p, 0, sizeof p);
            p.src = s;
            p.dst = d;
            uint32_t r = topo_node_router(t, s);
            int in = topo_node_port(t, s), level = 0;
            for (;;) {
                struct route_result res;
                n->rops->route(n->rstate, n, r, in, 0, &p, &res);
                assert_int_equal(res.n, 1);
                int port = res.c[0].port;
                if (port >= t->radix)
                    break;
                if (port < t->ft_k) /* up: the destination's digit at this level */
                    assert_int_equal(port, (int)((d / t->ft_pow[level++]) % 3));
                uint32_t f;
                assert_true(topo_link(t, r, port, &f, &in));
                if (next[r] != TOPO_NONE && port >= t->ft_k) /* a tree: one way down */
                    assert_int_equal(next[r], f);
                if (port >= t->ft_k)
                    next[r] = f;
                r = f;
            }
            assert_int_equal(r, topo_node_router(t, d));
        }
    }
    free(next);
    test_net_free(n, cfg);
}

static void fattree_zero_load(void **state)
{
    (void)state;
    check_zero_load(FT "fattree.k=4 fattree.n=3 routing.algorithm=nca", 3);
    check_zero_load(FT "fattree.k=3 fattree.n=2 routing.algorithm=dmodk router.route_delay=2 "
                       "router.xbar_delay=1 router.link_latency=3 router.credit_delay=2 "
                       "router.switching=vct router.buf_flits=12 traffic.packet_length=5", 1);
}

/* The bounds: uniform, 1 flit/node/cycle (the injection channel: full
 * bisection); the digit rotation under D-mod-k: a leaf's k nodes send to
 * nodes of one lowest digit, up one link; with n = 2 one of them is a
 * fixed point (equal digits), so k - 1 share it: 1/3 for k = 4. Adaptive
 * up ports avoid that. */
static void fattree_saturation(void **state)
{
    (void)state;
    const char *base = FT "fattree.k=4 fattree.n=2 router.vcs=2 " SAT_RUN;
    const char *rotation = "routing.algorithm=dmodk traffic.pattern=adversarial";
    assert_true(fabs(model(base, rotation, false) - 1.0 / 3) < 1e-9);
    check_saturation_load(base, rotation, 1.0 / 3, 0.1);
    check_saturation(base, "routing.algorithm=nca traffic.pattern=adversarial", 1.0, 0.70, 1.0);
    check_saturation(base, "routing.algorithm=nca traffic.pattern=uniform", 1.0, 0.70, 1.0);
    check_saturation(base, "routing.algorithm=dmodk traffic.pattern=uniform", 1.0, 0.70, 1.0);
}

static void fattree_bad_input(void **state)
{
    (void)state;
    expect_error(FT "routing.algorithm=dor", "routing.algorithm", "nca, dmodk");
    expect_error(FT "routing.algorithm=nca traffic.pattern=transpose", "traffic.pattern",
                 "coordinates");
    expect_error(FT "routing.algorithm=nca traffic.pattern=neighbor", "traffic.pattern",
                 "without nodes");
    expect_error(FT "routing.algorithm=nca traffic.pattern=adversarial traffic.adv_shift=2",
                 "traffic.adv_shift", NULL);
    expect_error(FT "routing.algorithm=nca fattree.k=16 fattree.n=8", "fattree.n", "2^30");
}


/* ---- HyperX ------------------------------------------------------------------ */

#define HX "network.topology=hyperx "

static void hyperx_wiring(void **state)
{
    (void)state;
    check_wiring(HX "hyperx.s=4,4 hyperx.t=2", 16, 32);
    check_wiring(HX "hyperx.s=3,2,2 hyperx.links=2,1,3 hyperx.t=1", 12, 12);
    check_wiring(HX "hyperx.s=5 hyperx.links=3 hyperx.t=3", 5, 15); /* flattened butterfly */
}

/* The closed form of the uniform bound against the even split over
 * minimal next hops, computed on the graph. */
static void hyperx_uniform_bound(void **state)
{
    (void)state;
    const char *shapes[] = {HX "hyperx.s=4,4 hyperx.t=4", HX "hyperx.s=3,5 hyperx.links=2,1 hyperx.t=3",
                            HX "hyperx.s=2,3,4 hyperx.links=1,2,1 hyperx.t=2"};
    for (int i = 0; i < 3; i++) {
        struct saturn_config *cfg = config_of(shapes[i]);
        struct saturn_error err = {0};
        struct topo t;
        assert_int_equal(topo_build(&t, cfg, &err), SATURN_OK);
        double closed = topo_uniform_bound(&t);
        uint32_t a, b;
        assert_int_equal(graph_bfs(&t, &a, &b), SATURN_OK);
        double split = graph_uniform_bound(&t);
        if (fabs(closed - split) > 1e-9 * closed)
            fail_msg("%s: closed form %.9f, even split %.9f", shapes[i], closed, split);
        topo_free(&t);
        saturn_config_free(cfg);
    }
}

/* DOR, minimal adaptive, Valiant and UGAL (under random queues): paths end
 * at the destination (the minimal ones as long as the distance) on VCs
 * the ports have, and no channel dependency cycle. */
static void hyperx_routing_acyclic(void **state)
{
    (void)state;
    const char *net = HX "hyperx.s=3,3 hyperx.links=2,1 hyperx.t=2 router.vcs=2";
    char w[WORDS];
    assert_false(routing_has_cycle(join(w, net, "routing.algorithm=dor router.vcs=1"),
                                   2, true, false, 2));
    assert_false(routing_has_cycle(join(w, net, "routing.algorithm=min"), 2, true, false, 2));
    assert_false(routing_has_cycle(join(w, net, "routing.algorithm=val"), 12, false, false, 4));
    uint64_t longer = 0;
    assert_false(routing_has_cycle_n(join(w, net, "routing.algorithm=ugal"),
                                     12, false, true, 4, &longer));
    assert_true(longer > 0); /* random queues made it misroute */
    assert_false(routing_has_cycle(HX "hyperx.s=2,2,3 hyperx.t=1 router.vcs=3 routing.algorithm=min",
                                   1, true, false, 3));
    /* dal: every candidate (minimal group and deroutes) followed; at most
     * 2n hops (one deroute and one aligning hop a dimension), some of
     * them longer than the distance, and with 2n VC classes no cycle */
    longer = 0;
    assert_false(routing_has_cycle_n(join(w, net, "routing.algorithm=dal router.vcs=4"),
                                     1, false, true, 4, &longer));
    assert_true(longer > 0);
    longer = 0;
    assert_false(routing_has_cycle_n(HX "hyperx.s=3,2,3 hyperx.t=1 router.vcs=6 "
                                        "routing.algorithm=dal",
                                     1, false, true, 6, &longer));
    assert_true(longer > 0);
}

static void hyperx_zero_load(void **state)
{
    (void)state;
    check_zero_load(HX "hyperx.s=3,4 hyperx.links=1,2 hyperx.t=2 routing.algorithm=dor", 1);
    /* dal with empty queues: the minimal group, never a deroute */
    check_zero_load(HX "hyperx.s=3,4 hyperx.links=1,2 hyperx.t=2 routing.algorithm=dal "
                       "router.vcs=4",
                    2);
    check_zero_load(HX "hyperx.s=4,4 hyperx.t=2 routing.algorithm=min router.route_delay=1 "
                       "router.xbar_delay=1 router.link_latency=4 router.credit_delay=4 "
                       "router.buf_flits=16",
                    3);
}

/* DOR: the uniform bound is S K (N-1)/(T N) per dimension, here above the
 * injection channel; the shift in dimension 0 sends a router's T nodes
 * over its K links to one router: K/T. UGAL misroutes past it. */
static void hyperx_saturation(void **state)
{
    (void)state;
    const char *base = HX "hyperx.s=4,4 hyperx.t=2 router.vcs=2 " SAT_RUN;
    const char *shift = "routing.algorithm=dor traffic.pattern=adversarial";
    assert_true(fabs(model(base, shift, false) - 0.5) < 1e-9);
    /* min's estimate: the shift is one hop, the one direct link (K/T) */
    assert_true(fabs(model(base, "routing.algorithm=min traffic.pattern=adversarial", true) - 0.5) <
                1e-9);
    check_saturation_load(base, shift, 0.5, 0.1);
    check_saturation(base, "routing.algorithm=dor traffic.pattern=uniform", 1.0, 0.70, 1.0);
    check_saturation(base, "routing.algorithm=min traffic.pattern=uniform", 1.0, 0.70, 1.0);
    /* ugal beats DOR's single link under the shift */
    check_saturation(base, "routing.algorithm=ugal traffic.pattern=adversarial", 0.5, 1.2, 2.0);
    /* and so does dal, derouting in dimension 0 when its direct links fill */
    check_saturation(base, "routing.algorithm=dal router.vcs=4 traffic.pattern=adversarial", 0.5,
                     1.2, 2.0);
}

static void hyperx_bad_input(void **state)
{
    (void)state;
    expect_error(HX "routing.algorithm=min hyperx.s=4,4,4 router.vcs=2", "router.vcs", "needs 3");
    expect_error(HX "routing.algorithm=val router.vcs=1", "router.vcs", "needs 2");
    expect_error(HX "routing.algorithm=dal router.vcs=3", "router.vcs", "needs 4");
    expect_error(HX "routing.algorithm=dal router.vcs=4 ugal.threshold=1", "ugal.threshold", NULL);
    expect_error(HX "routing.algorithm=dor hyperx.s=4,4 hyperx.links=1,2,3", "hyperx.links", NULL);
    expect_error(HX "routing.algorithm=dor hyperx.s=16,16,16 hyperx.links=2", "hyperx.s", "64");
    expect_error(HX "routing.algorithm=dor traffic.pattern=adversarial traffic.adv_shift=4",
                 "traffic.adv_shift", NULL);
    expect_error(HX "routing.algorithm=dor routing.dateline=classic", "routing.dateline", NULL);
    expect_error(HX "routing.algorithm=ectn", "routing.algorithm", "dor, min, val, ugal, dal");
    expect_error(HX "routing.algorithm=val val.intermediate=group", "val.intermediate", NULL);
}

/* ---- any graph from a file ------------------------------------------------ */

/* A ring of 6 routers with a chord, 2 nodes each; the same in anynet. */
static const char ring_net[] = "# a ring with a chord\n"
                               "routers 6\n"
                               "nodes all 2   # then one router without\n"
                               "nodes 4 0\n"
                               "link 0 1\nlink 1 2\nlink 2 3\nlink 3 4\nlink 4 5\nlink 5 0\n"
                               "link 0 3 latency=3 class=global\n";
static const char ring_anynet[] = "router 0 router 1 node 0 node 1\n"
                                  "router 1 router 2 node 2 node 3\n"
                                  "router 2 router 3 node 4 node 5\n"
                                  "router 3 router 4 node 6 node 7\n"
                                  "node 8 router 5\nnode 9 router 5\n"
                                  "router 4 router 5\n"
                                  "router 5 router 0\n"
                                  "router 0 router 3 3\n";
/* Two complete graphs of 4 routers, 2 nodes each, joined by one link. */
static const char dumbbell_net[] = "routers 8\nnodes all 2\n"
                                   "link 0 1\nlink 0 2\nlink 0 3\nlink 1 2\nlink 1 3\nlink 2 3\n"
                                   "link 4 5\nlink 4 6\nlink 4 7\nlink 5 6\nlink 5 7\nlink 6 7\n"
                                   "link 3 4\n";
/* The Petersen graph, one node per router: diameter 2, girth 5. */
static const char petersen_net[] = "routers 10\nnodes all 1\n"
                                   "link 0 1\nlink 1 2\nlink 2 3\nlink 3 4\nlink 4 0\n"
                                   "link 0 5\nlink 1 6\nlink 2 7\nlink 3 8\nlink 4 9\n"
                                   "link 5 7\nlink 7 9\nlink 9 6\nlink 6 8\nlink 8 5\n";

static char *file_words(const char *dir, const char *name, const char *text, const char *more)
{
    static char w[2][1024];
    static int which;
    which ^= 1;
    snprintf(w[which], sizeof w[which],
             "network.topology=file file.path=%s routing.algorithm=min %s",
             test_put_file(dir, name, text), more);
    return w[which];
}

static void file_wiring(void **state)
{
    const char *dir = *state;
    /* router 4 has no nodes; nodes run router by router */
    check_wiring(file_words(dir, "ring.net", ring_net, ""), 6, 10);
    check_wiring(file_words(dir, "ring.anynet", ring_anynet, ""), 6, 10);
    check_wiring(file_words(dir, "p.net", petersen_net, ""), 10, 10);
    struct saturn_config *cfg;
    struct net *n = make(file_words(dir, "ring.net", ring_net, ""), &cfg);
    const struct topo *t = &n->topo;
    assert_int_equal(t->radix, 3);
    assert_int_equal(t->conc, 2);
    assert_int_equal(topo_node_router(t, 8), 5);
    assert_int_equal(topo_router_nodes(t, 4), 0);
    assert_int_equal(topo_diameter(t), 3); /* 1 to 4 */
    /* the chord: its latency both ways, credits too, and its class */
    for (int p = 0; p < t->radix; p++) {
        uint32_t f;
        int fp;
        if (!topo_link(t, 0, p, &f, &fp) || f != 3)
            continue;
        assert_int_equal(n->ports[p].latency, 3);
        assert_int_equal(n->ports[(size_t)3 * n->P + fp].credit_lat, 3);
        assert_int_equal(topo_link_class(t, 0, p), TOPO_GLOBAL);
    }
    test_net_free(n, cfg);
}

/* Both deadlock rules: every path legal and acyclic; hop-indexed paths
 * are shortest. */
static void file_routing_acyclic(void **state)
{
    const char *dir = *state;
    assert_false(routing_has_cycle(file_words(dir, "p.net", petersen_net, "router.vcs=2"), 1,
                                   true, false, 2));
    assert_false(routing_has_cycle(
        file_words(dir, "p.net", petersen_net, "file.deadlock=updown router.vcs=1"), 1, false,
        false, 6));
    assert_false(routing_has_cycle(
        file_words(dir, "ring.net", ring_net, "file.deadlock=updown router.vcs=2"), 1, false,
        false, 6));
    assert_false(routing_has_cycle(file_words(dir, "d.net", dumbbell_net, "router.vcs=3"), 1,
                                   true, false, 3));
}

static void file_zero_load(void **state)
{
    const char *dir = *state;
    check_zero_load(file_words(dir, "p.net", petersen_net, "router.vcs=2 router.route_delay=1"),
                    1);
    check_zero_load(file_words(dir, "d.net", dumbbell_net,
                               "file.deadlock=updown router.vcs=1 router.link_latency=2 "
                               "router.credit_delay=2"),
                    1);
}

/* Uniform traffic over the dumbbell: the bridge carries 8 x 8 / 15 of a
 * node's load: 15/64 flits/node/cycle, the even split's bound too. */
static void file_saturation(void **state)
{
    const char *dir = *state;
    char *w = file_words(dir, "d.net", dumbbell_net,
                         "router.vcs=3 router.buf_flits=16 traffic.packet_length=4 "
                         "steady.warmup=2000 steady.measure=8000");
    double bound = uniform_bound(w, "");
    assert_true(fabs(bound - 15.0 / 64) < 1e-9);
    check_saturation_load(w, "", bound, 0.1);
}

static void file_bad_input(void **state)
{
    const char *dir = *state;
    expect_error("network.topology=file routing.algorithm=min", "file.path", "needs");
    expect_error(file_words(dir, "p.net", petersen_net, "router.vcs=1"), "router.vcs",
                 "diameter is 2");
    expect_error(file_words(dir, "x.net", "routers 4\nnodes all 1\nlink 0 1\nlink 2 3\n", ""),
                 "x.net", "disconnected: router 0 cannot reach router 2");
    expect_error(file_words(dir, "x.net", "routers 2\nnodes all 1\nlink 0 0\n", ""),
                 "x.net:3", "itself");
    expect_error(file_words(dir, "x.net", "routers 2\nnodes all 1\nlink 0 2\n", ""),
                 "x.net:3", "link A B");
    expect_error(file_words(dir, "x.net", "nodes all 1\n", ""), "x.net:1", "routers R");
    expect_error(file_words(dir, "x.net", "routers 2\nlink 0 1\n", ""), "x.net", "no nodes");
    expect_error(file_words(dir, "x.net", "routers 2\nnodes all 1\nlink 0 1 latency=0\n", ""),
                 "x.net:3", "latency=L");
    expect_error(file_words(dir, "x.anynet", "router 0 node 0 router 1\nnode 0 router 1\n", ""),
                 "x.anynet:2", "node 0 is on router 0");
    expect_error(file_words(dir, "x.anynet", "router 0 node 1 router 1\nrouter 1 node 2\n", ""),
                 "x.anynet", "node 0 is missing");
    expect_error(file_words(dir, "x.anynet", "router 0 node 0\nrouter 1 node 1\n", ""), "x.anynet",
                 "disconnected");
    expect_error("network.topology=file routing.algorithm=min file.path=/nonexistent/g.net",
                 "file.path", "cannot read");
    expect_error(file_words(dir, "p.net", petersen_net, "traffic.pattern=transpose"),
                 "traffic.pattern", "coordinates");
}

/* ---- Slim Fly ---------------------------------------------------------------- */

#define SF "network.topology=slimfly "

/* GF(q) for prime powers: addition and multiplication tables form a
 * field (associative, commutative, distributive, identities, inverses),
 * the modulus is irreducible of degree m, and the powers of xi are the
 * q - 1 non-zero elements; not a field for q with two prime factors. */
static void slimfly_field(void **state)
{
    (void)state;
    static struct gf f; /* 8 KiB of tables */
    const int qs[] = {2, 3, 4, 5, 7, 8, 9, 16, 25, 27, 32, 49, 64}, ms[] = {1, 1, 2, 1, 1, 3, 2,
                                                                         4, 2, 3, 5, 2, 6};
    for (int i = 0; i < 13; i++) {
        int q = qs[i];
        assert_int_equal(gf_init(&f, q), 0);
        assert_int_equal(f.q, q);
        assert_int_equal(f.m, ms[i]);
        assert_int_equal(f.poly[f.m], 1);
        for (int a = 0; a < q; a++) {
            assert_int_equal(f.add[a][0], a);
            assert_int_equal(f.mul[a][1], a);
            assert_int_equal(f.mul[a][0], 0);
            assert_int_equal(f.add[a][f.neg[a]], 0);
            int inverses = 0;
            for (int b = 0; b < q; b++) {
                assert_int_equal(f.add[a][b], f.add[b][a]);
                assert_int_equal(f.mul[a][b], f.mul[b][a]);
                inverses += f.mul[a][b] == 1;
                for (int c = 0; c < q; c++) {
                    assert_int_equal(f.add[f.add[a][b]][c], f.add[a][f.add[b][c]]);
                    assert_int_equal(f.mul[f.mul[a][b]][c], f.mul[a][f.mul[b][c]]);
                    assert_int_equal(f.mul[a][f.add[b][c]], f.add[f.mul[a][b]][f.mul[a][c]]);
                }
            }
            assert_int_equal(inverses, a ? 1 : 0);
        }
        /* characteristic p: p ones add to zero */
        int x = 0;
        for (int k = 0; k < f.p; k++)
            x = f.add[x][1];
        assert_int_equal(x, 0);
        bool seen[GF_MAX] = {false};
        for (int e = 0, y = 1; e < q - 1; e++, y = f.mul[y][f.xi]) {
            assert_false(seen[y]);
            seen[y] = true;
        }
    }
    const int bad[] = {0, 1, 6, 10, 12, 15, 18, 20, 24, 65};
    for (int i = 0; i < 10; i++)
        assert_int_equal(gf_init(&f, bad[i]), -1);
}

/* 2 q^2 routers of network radix (3q - d)/2, 2 q^2 p nodes, diameter 2,
 * for every prime power the field construction applies to (q = 4w + d,
 * d in {-1, 0, 1}). */
static void slimfly_wiring(void **state)
{
    (void)state;
    check_wiring(SF "slimfly.q=3 routing.algorithm=min router.vcs=2", 18, 54);
    check_wiring(SF "slimfly.q=5 slimfly.p=2 routing.algorithm=min router.vcs=2", 50, 100);
    check_wiring(SF "slimfly.q=4 slimfly.p=2 routing.algorithm=min router.vcs=2", 32, 64);
    const int qs[] = {4, 5, 7, 8, 9, 11, 13, 16, 17, 19, 23, 25, 27};
    for (int i = 0; i < 13; i++) {
        char w[256];
        int q = qs[i], d = q % 4 == 1 ? 1 : q % 4 == 3 ? -1 : 0, conc = 1 + i % 3;
        snprintf(w, sizeof w, SF "slimfly.q=%d slimfly.p=%d routing.algorithm=min router.vcs=2",
                 q, conc);
        struct saturn_config *cfg;
        struct net *n = make(w, &cfg);
        const struct topo *t = &n->topo;
        assert_int_equal(t->routers, (uint32_t)(2 * q * q));
        assert_int_equal(t->nodes, (uint32_t)(2 * q * q * conc));
        assert_int_equal(t->radix, (3 * q - d) / 2);
        assert_int_equal(topo_diameter(t), 2);
        for (uint32_t r = 0; r < t->routers; r++)
            for (int p = 0; p < t->radix; p++) { /* regular, simple, symmetric */
                uint32_t f, b;
                int fp, bp;
                assert_true(topo_link(t, r, p, &f, &fp));
                assert_true(f != r);
                assert_true(topo_link(t, f, fp, &b, &bp) && b == r && bp == p);
                for (int o = 0; o < p; o++)
                    assert_true(t->adj[(size_t)r * t->radix + o] != f);
            }
        test_net_free(n, cfg);
    }
    /* the default concentration is ceil(k'/2): 6 for q = 7 (k' = 11) and
     * for q = 8 (k' = 12) */
    const int defq[] = {7, 8}, defp[] = {6, 6};
    for (int i = 0; i < 2; i++) {
        char w[256];
        snprintf(w, sizeof w, SF "slimfly.q=%d routing.algorithm=min router.vcs=2", defq[i]);
        struct saturn_config *cfg;
        struct net *n = make(w, &cfg);
        assert_int_equal(n->topo.conc, defp[i]);
        assert_int_equal(n->topo.nodes, (uint32_t)(2 * defq[i] * defq[i] * defp[i]));
        test_net_free(n, cfg);
    }
}

/* min (2 VC classes), val and ugal (4, ugal under random queues): paths
 * end at the destination, min's exactly as long as the distance, no
 * channel dependency cycle. */
static void slimfly_routing_acyclic(void **state)
{
    (void)state;
    assert_false(routing_has_cycle(SF "slimfly.q=5 slimfly.p=1 routing.algorithm=min router.vcs=2",
                                   1, true, false, 2));
    assert_false(routing_has_cycle(SF "slimfly.q=3 slimfly.p=1 routing.algorithm=val router.vcs=4",
                                   18, false, false, 4));
    uint64_t longer = 0;
    assert_false(routing_has_cycle_n(SF "slimfly.q=3 slimfly.p=1 routing.algorithm=ugal "
                                        "router.vcs=4", 18, false, true, 4, &longer));
    assert_true(longer > 0);
}

static void slimfly_zero_load(void **state)
{
    (void)state;
    check_zero_load(SF "slimfly.q=3 routing.algorithm=min router.vcs=2", 2);
    check_zero_load(SF "slimfly.q=5 slimfly.p=1 routing.algorithm=min router.vcs=2 "
                       "router.route_delay=1 router.link_latency=3 router.credit_delay=3",
                    3);
}

/* The shift in a column: with q = 5 (X = {1, 4}, X' = {2, 3}) and a shift
 * of 2, a router of subgraph 0 reaches b + 2 only over b + 1 (1 + 1), so
 * the column's link b -> b + 1 carries the p nodes of b and of b - 1:
 * 1/(2p). Uniform: min against the even split's bound. */
static void slimfly_saturation(void **state)
{
    (void)state;
    const char *base = SF "slimfly.q=5 slimfly.p=4 " SAT_RUN;
    check_saturation_load(base, "routing.algorithm=min router.vcs=2 traffic.pattern=adversarial "
                                "traffic.adv_shift=2", 1.0 / 8, 0.1);
    double bound = fmin(uniform_bound(base, "routing.algorithm=min router.vcs=2"), 1);
    /* a radix-11 input-queued router reaches some 60 % of it (its
     * separable allocator); output buffers and a speedup of 2, 85 % */
    check_saturation(base, "routing.algorithm=min router.vcs=4 " OUTPUT_QUEUED, bound, 0.80, 1.0);
    /* ugal leaves the column's links */
    check_saturation(base, "routing.algorithm=ugal router.vcs=4 traffic.pattern=adversarial "
                           "traffic.adv_shift=2", 1.0 / 8, 1.5, 4);
}

static void slimfly_bad_input(void **state)
{
    (void)state;
    expect_error(SF "slimfly.q=6 routing.algorithm=min router.vcs=2", "slimfly.q", "prime power");
    expect_error(SF "slimfly.q=12 routing.algorithm=min router.vcs=2", "slimfly.q", "prime power");
    expect_error(SF "slimfly.q=2 routing.algorithm=min router.vcs=2", "slimfly.q", "4w + d");
    expect_error(SF "routing.algorithm=min router.vcs=1", "router.vcs", "too few VCs");
    expect_error(SF "routing.algorithm=val router.vcs=3", "router.vcs", "4");
    expect_error(SF "routing.algorithm=min router.vcs=2 file.deadlock=updown", "file.deadlock", NULL);
    expect_error(SF "routing.algorithm=min router.vcs=2 slimfly.q=23 slimfly.p=40", "slimfly.p",
                 "64");
    expect_error(SF "routing.algorithm=min router.vcs=2 traffic.pattern=adversarial "
                    "traffic.adv_shift=5", "traffic.adv_shift", NULL);
}

/* ---- megafly ---------------------------------------------------------------- */

#define MF "network.topology=megafly "

/* G = s h + 1 groups; every leaf on every spine of its group, one global
 * link between every two groups (of the global class), none elsewhere. */
static void megafly_wiring(void **state)
{
    (void)state;
    check_wiring(MF "megafly.p=2 megafly.a=3 megafly.s=2 megafly.h=2 routing.algorithm=min", 25, 30);
    check_wiring(MF "megafly.p=1 megafly.a=1 megafly.s=3 megafly.h=1 routing.algorithm=min", 16, 4);
    struct saturn_config *cfg;
    struct net *n = make(MF "routing.algorithm=min", &cfg);
    const struct topo *t = &n->topo;
    const uint32_t G = 17, A = 4, S = 4;
    assert_int_equal(t->routers, G * (A + S));
    assert_int_equal(t->nodes, G * A * 4);
    uint32_t *pairs = calloc(G * G, sizeof *pairs);
    for (uint32_t r = 0; r < t->routers; r++) {
        const bool leaf = r < G * A;
        const uint32_t g = leaf ? r / A : (r - G * A) / S;
        assert_int_equal(topo_router_nodes(t, r), leaf ? 4 : 0);
        int up = 0, down = 0, global = 0;
        for (int p = 0; p < t->radix; p++) {
            uint32_t f;
            int fp;
            if (!topo_link(t, r, p, &f, &fp))
                continue;
            const bool fleaf = f < G * A;
            const uint32_t fg = fleaf ? f / A : (f - G * A) / S;
            if (topo_link_class(t, r, p) == TOPO_GLOBAL) {
                assert_false(leaf || fleaf);
                assert_true(fg != g);
                pairs[g * G + fg]++;
                global++;
            } else {
                assert_int_equal(fg, g);
                assert_true(leaf != fleaf);
                up += leaf;
                down += !leaf;
            }
        }
        assert_int_equal(up, leaf ? (int)S : 0);
        assert_int_equal(down, leaf ? 0 : (int)A);
        assert_int_equal(global, leaf ? 0 : 4);
    }
    for (uint32_t g = 0; g < G; g++)
        for (uint32_t h = 0; h < G; h++)
            assert_int_equal(pairs[g * G + h], g != h);
    free(pairs);
    test_net_free(n, cfg);
}

/* min on one VC (up, global, down: no classes needed), val and ugal (2
 * classes; ugal under random queues takes both branches): no channel
 * dependency cycle; min's paths minimal, val's and ugal's some longer. */
static void megafly_routing_acyclic(void **state)
{
    (void)state;
    const char *m = MF "megafly.p=1 megafly.a=3 megafly.s=2 megafly.h=2";
    char w[WORDS];
    assert_false(routing_has_cycle(join(w, m, "routing.algorithm=min router.vcs=1"),
                                   3, true, false, 3));
    uint64_t longer = 0;
    assert_false(routing_has_cycle_n(join(w, m, "routing.algorithm=val router.vcs=2"),
                                     12, false, false, 6, &longer));
    assert_true(longer > 0);
    longer = 0;
    assert_false(routing_has_cycle_n(join(w, m, "routing.algorithm=ugal router.vcs=2"),
                                     6, false, true, 6, &longer));
    assert_true(longer > 0);
}

/* A minimal path between groups takes one global link of 9 cycles. */
static uint64_t megafly_global_excess(const struct net *n, uint32_t s, uint32_t d)
{
    const uint32_t per = (uint32_t)(n->topo.a * n->topo.p);
    return s / per != d / per ? 9 - n->link_latency : 0;
}

/* Zero load: the closed form over the minimal hop count (2 inside a group,
 * 3 between groups); megafly.global_latency adds its excess on the one
 * global hop between groups. */
static void megafly_zero_load(void **state)
{
    (void)state;
    check_zero_load(MF "megafly.p=2 megafly.a=3 megafly.s=2 megafly.h=2 routing.algorithm=min", 1);
    check_zero_load(MF "megafly.p=2 megafly.a=2 megafly.s=3 megafly.h=1 routing.algorithm=min "
                       "router.route_delay=1 router.link_latency=3 router.credit_delay=3",
                    1);
    check_zero_load_x(MF "megafly.p=2 megafly.a=2 megafly.s=2 megafly.h=2 routing.algorithm=min "
                         "megafly.global_latency=9 traffic.packet_length=4",
                      1, megafly_global_excess);
}

/* ADV+1 under min: a group's a p nodes share its one global link to the
 * next group: 1/(a p). Uniform: min against the even split's bound.
 * Valiant and UGAL-L spread ADV+1 over the other groups' links. */
static void megafly_saturation(void **state)
{
    (void)state;
    const char *base = MF "megafly.p=2 megafly.a=2 megafly.s=2 megafly.h=2 " SAT_RUN;
    const char *adv = "routing.algorithm=min traffic.pattern=adversarial";
    /* saturn model's estimate (every inter-group path is unique) */
    assert_true(fabs(model(base, adv, true) - 1.0 / 4) < 1e-9);
    check_saturation_load(base, adv, 1.0 / 4, 0.1);
    double bound = fmin(uniform_bound(base, "routing.algorithm=min"), 1);
    check_saturation(base, "routing.algorithm=min router.vcs=4 " OUTPUT_QUEUED, bound, 0.80, 1.0);
    /* with h = 4 (9 groups) a group has 8 global links for its 4 nodes:
     * Valiant's bound is 1 flit/node/cycle, min's still 1/(a p) = 1/4; an
     * input-queued router with a speedup of 2 reaches some 0.7 (val) and
     * 0.57 (ugal, whose minimal share stays on the one link) */
    const char *wide = MF "megafly.p=2 megafly.a=2 megafly.s=2 megafly.h=4 " SAT_RUN
                          " router.vcs=4 traffic.pattern=adversarial " OUTPUT_QUEUED;
    check_saturation(wide, "routing.algorithm=min", 1.0 / 4, 0.9, 1.01);
    check_saturation(wide, "routing.algorithm=val", 1.0 / 4, 2.2, 4);
    check_saturation(wide, "routing.algorithm=ugal", 1.0 / 4, 1.8, 4);
}

static void megafly_bad_input(void **state)
{
    (void)state;
    expect_error(MF "routing.algorithm=val router.vcs=1", "router.vcs", "2 VC classes");
    expect_error(MF "routing.algorithm=dor", "routing.algorithm", "min, val, ugal");
    expect_error(MF "routing.algorithm=min megafly.a=40 megafly.h=24", "megafly.h", "64");
    expect_error(MF "routing.algorithm=min traffic.pattern=adversarial traffic.adv_shift=17",
                 "traffic.adv_shift", NULL);
    expect_error(MF "routing.algorithm=min traffic.pattern=neighbor", "traffic.pattern", NULL);
    expect_error(MF "routing.algorithm=min val.intermediate=group", "val.intermediate", NULL);
}

/* ---- controllers and metrics on every topology ----------------------------- */

/* Every injection controller runs on every topology, beyond saturation,
 * delivers every measured packet (no deadlock, the audit on), and the
 * global ones throttle; the entropy circuit and metapackets (ring
 * mechanisms of a torus) are refused with the reason. */
static void controllers_everywhere(void **state)
{
    const char *dir = *state;
    char file[512];
    snprintf(file, sizeof file, "network.topology=file file.path=%s routing.algorithm=min "
                                "router.vcs=2",
             test_put_file(dir, "p.net", petersen_net));
    const char *nets[] = {FT "fattree.k=4 fattree.n=2 routing.algorithm=nca",
                          HX "hyperx.s=4,4 hyperx.t=1 routing.algorithm=ugal router.vcs=2",
                          SF "slimfly.q=3 slimfly.p=1 routing.algorithm=ugal router.vcs=4",
                          MF "megafly.p=2 megafly.a=2 megafly.s=2 megafly.h=1 "
                             "routing.algorithm=ugal router.vcs=2",
                          file};
    const char *ctls[] = {"noth", "base", "hyst", "gt.x", "gt.a", "static", "selftune", "alo"};
    for (int i = 0; i < 5; i++)
        for (int c = 0; c < 8; c++) {
            char w[2048];
            snprintf(w, sizeof w, "%s control.model=%s %s traffic.flit_rate=1 traffic.packet_length=4 "
                                  "steady.warmup=300 steady.measure=600 sim.check_invariants=true "
                                  "steady.drain_max=100000 sim.watchdog=5000",
                     nets[i], ctls[c],
                     c >= 1 && c <= 4 ? "entropy.info=ideal"
                     /* the default threshold (250 full buffers) suits a 16x16 torus, not
                      * these 16-node networks */
                     : c == 5         ? "static.threshold=4"
                                      : "");
            struct saturn_results r = run_words(w);
            if (!r.drained || r.measured_delivered != r.measured_packets)
                fail_msg("%s: %llu of %llu delivered", w, (unsigned long long)r.measured_delivered,
                         (unsigned long long)r.measured_packets);
            if ((c == 5 || c == 7) && !(r.throttled_mean > 0))
                fail_msg("%s: never throttled beyond saturation", w);
            saturn_results_free(&r);
        }
    /* one router (diameter 0): the side-band still takes a hop (a gather
     * period of 0 divided by zero) */
    for (int c = 5; c <= 6; c++) {
        char w[512];
        snprintf(w, sizeof w, FT "fattree.k=4 fattree.n=1 routing.algorithm=nca control.model=%s "
                                 "traffic.flit_rate=0.5 steady.warmup=100 steady.measure=300",
                 ctls[c]);
        struct saturn_results r = run_words(w);
        assert_true(r.drained && r.measured_delivered == r.measured_packets);
        saturn_results_free(&r);
    }
    expect_error(FT "routing.algorithm=nca control.model=base entropy.info=circuit", "entropy.info",
                 "on a fattree");
    expect_error(HX "routing.algorithm=dor gather.mode=metapacket control.model=static",
                 "gather.mode", "torus");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fattree_wiring),
        cmocka_unit_test(fattree_routing_acyclic),
        cmocka_unit_test(fattree_dmodk_paths),
        cmocka_unit_test(fattree_zero_load),
        cmocka_unit_test(fattree_saturation),
        cmocka_unit_test(fattree_bad_input),
        cmocka_unit_test(hyperx_wiring),
        cmocka_unit_test(hyperx_uniform_bound),
        cmocka_unit_test(hyperx_routing_acyclic),
        cmocka_unit_test(hyperx_zero_load),
        cmocka_unit_test(hyperx_saturation),
        cmocka_unit_test(hyperx_bad_input),
        cmocka_unit_test_setup_teardown(file_wiring, test_dir_setup, test_dir_teardown),
        cmocka_unit_test_setup_teardown(file_routing_acyclic, test_dir_setup, test_dir_teardown),
        cmocka_unit_test_setup_teardown(file_zero_load, test_dir_setup, test_dir_teardown),
        cmocka_unit_test_setup_teardown(file_saturation, test_dir_setup, test_dir_teardown),
        cmocka_unit_test_setup_teardown(file_bad_input, test_dir_setup, test_dir_teardown),
        cmocka_unit_test(slimfly_field),
        cmocka_unit_test(slimfly_wiring),
        cmocka_unit_test(slimfly_routing_acyclic),
        cmocka_unit_test(slimfly_zero_load),
        cmocka_unit_test(slimfly_saturation),
        cmocka_unit_test(slimfly_bad_input),
        cmocka_unit_test(megafly_wiring),
        cmocka_unit_test(megafly_routing_acyclic),
        cmocka_unit_test(megafly_zero_load),
        cmocka_unit_test(megafly_saturation),
        cmocka_unit_test(megafly_bad_input),
        cmocka_unit_test_setup_teardown(controllers_everywhere, test_dir_setup, test_dir_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
