/* Analytic models: the mean-field model of Levitin & Rykalova (paper 002)
 * and throughput bounds that hold for any configuration. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "net/net.h"
#include "saturn/saturn.h"
#include "traffic/pattern.h"
#include "traffic/process.h"

double saturn_levitin_lambda_cr(double l, double m) { return 4.0 / (l * m); }

double saturn_levitin_latency(double lambda, double l, double m)
{
    double rho = lambda * l * m / 4.0;
    if (rho >= 1.0)
        return INFINITY;
    return (l + 1) * (rho / (1 - rho) + 3) + m;
}

struct load_walk {
    const struct net *n;
    uint32_t src;
    double *load;       /* per output port (routers * P) */
    double *split;      /* the same, choices split evenly (minimal_split) */
    double *in_weight;  /* per node */
    double hops;
    uint32_t tie_masks;
};

/* Weight w from router r onwards, split evenly over the candidate ports of
 * every routing decision (a minimal adaptive routing's choices). */
static void split_walk(struct load_walk *lw, uint32_t r, int in_port, const struct packet *p,
                       double w, int depth)
{
    const struct net *n = lw->n;
    struct packet q = *p;
    struct route_result res;
    n->rops->route(n->rstate, n, r, in_port, 0, &q, &res);
    int ports[ROUTE_MAX_CANDS], np = 0;
    for (int i = 0; i < res.n; i++) {
        if (res.c[i].port >= n->topo.radix)
            return; /* ejection */
        bool seen = false;
        for (int j = 0; j < np; j++)
            seen |= ports[j] == res.c[i].port;
        if (!seen)
            ports[np++] = res.c[i].port;
    }
    if (depth > 255)
        return;
    for (int i = 0; i < np; i++) {
        uint32_t fr;
        int fp;
        lw->split[(size_t)r * n->P + ports[i]] += w / np;
        if (!topo_link(&n->topo, r, ports[i], &fr, &fp))
            continue;
        struct packet next = q;
        next.hops++;
        split_walk(lw, fr, fp, &next, w / np, depth + 1);
    }
}

/* Add the path of src -> dst (weight w) to the channel loads, following
 * the configured deterministic routing (every tie mask, equally likely,
 * when ties are random). */
static void walk_path(void *user, uint32_t dst, double w)
{
    struct load_walk *lw = user;
    const struct net *n = lw->n;
    lw->in_weight[dst] += w;
    lw->hops += w * topo_distance(&n->topo, lw->src, dst);
    if (lw->split) {
        struct packet p;
        memset(&p, 0, sizeof p);
        p.src = lw->src;
        p.dst = dst;
        p.len = 1;
        if (n->rops->at_source)
            n->rops->at_source(n->rstate, n, &p, 0);
        split_walk(lw, topo_node_router(&n->topo, lw->src), topo_node_port(&n->topo, lw->src), &p,
                   w, 0);
    }
    if (!lw->load)
        return;
    for (uint32_t mask = 0; mask < lw->tie_masks; mask++) {
        struct packet p;
        memset(&p, 0, sizeof p);
        p.src = lw->src;
        p.dst = dst;
        p.len = 1;
        p.route[0] = lw->tie_masks > 1 ? mask : 0;
        if (lw->tie_masks == 1 && n->rops->at_source)
            n->rops->at_source(n->rstate, n, &p, 0);
        uint32_t r = topo_node_router(&n->topo, lw->src);
        int in_port = topo_node_port(&n->topo, lw->src);
        for (int guard = 0; guard < 1 << 20; guard++) {
            struct route_result res;
            n->rops->route(n->rstate, n, r, in_port, 0, &p, &res);
            int port = res.c[0].port;
            if (port >= n->topo.radix)
                break;
            lw->load[(size_t)r * n->P + port] += w / lw->tie_masks;
            uint32_t fr;
            if (!topo_link(&n->topo, r, port, &fr, &in_port))
                break;
            r = fr;
            p.hops++;
        }
    }
}

int saturn_bounds(const struct saturn_config *cfg, struct saturn_bounds *b,
                  struct saturn_error *err)
{
    memset(b, 0, sizeof *b);
    struct net *n = calloc(1, sizeof *n);
    struct pattern pat;
    memset(&pat, 0, sizeof pat);
    if (!n)
        return saturn_error_set(err, SATURN_ENOMEM, "out of memory");
    uint64_t seed = (uint64_t)saturn_config_int(cfg, "sim.seed");
    int rc = net_create(n, cfg, seed, err);
    if (!rc)
        rc = pattern_init(&pat, cfg, &n->topo, seed, err);
    if (rc)
        goto out;
    double m = (double)saturn_config_int(cfg, "traffic.packet_length");
    /* the oblivious, single-path routings: DOR, the Dragonfly's MIN, and
     * those that say so */
    bool deterministic = n->rops->single_path ||
                         (n->rops->dragonfly && strcmp(n->rops->name, "min") == 0);
    struct load_walk lw = {.n = n, .tie_masks = 1};
    size_t nports = (size_t)n->topo.routers * n->P;
    lw.in_weight = calloc(n->nnodes, sizeof *lw.in_weight);
    if (deterministic) {
        lw.load = calloc(nports, sizeof *lw.load);
        if (saturn_config_enum(cfg, "routing.tie") == 1 && n->topo.kind <= TOPO_MESH)
            /* random: every mask */
            lw.tie_masks = 1u << n->topo.n;
    }
    /* every pair's paths: up to 2,048 nodes (seconds at most) */
    const bool split = !deterministic && n->rops->minimal_split && n->nnodes <= 2048;
    if (split)
        lw.split = calloc(nports, sizeof *lw.split);
    if (!lw.in_weight || (deterministic && !lw.load) || (split && !lw.split)) {
        rc = saturn_error_set(err, SATURN_ENOMEM, "out of memory");
        goto done;
    }
    for (uint32_t s = 0; s < n->nnodes; s++) {
        lw.src = s;
        pattern_distribution(&pat, s, walk_path, &lw);
    }
    uint64_t channels = 0;
    for (size_t i = 0; i < nports; i++)
        channels += n->ports[i].kind == PORT_NET && (int)(i % (size_t)n->P) < n->topo.radix;
    b->mean_hops = lw.hops / n->nnodes;
    /* per unit of packet rate per node, a channel carries load x m flits */
    b->channel_any = b->mean_hops > 0 ? (double)channels / ((double)n->nnodes * m * b->mean_hops) : INFINITY;
    double maxload = 0;
    for (size_t i = 0; lw.load && i < nports; i++)
        if (lw.load[i] > maxload)
            maxload = lw.load[i];
    b->channel_routing = maxload > 0 ? 1.0 / (m * maxload) : 0;
    double maxsplit = 0;
    for (size_t i = 0; lw.split && i < nports; i++)
        if (lw.split[i] > maxsplit)
            maxsplit = lw.split[i];
    b->channel_split = maxsplit > 0 ? 1.0 / (m * maxsplit) : 0;
    double maxin = 0;
    for (uint32_t d = 0; d < n->nnodes; d++)
        if (lw.in_weight[d] > maxin)
            maxin = lw.in_weight[d];
    b->injection = 1.0 / m;
    b->ejection = maxin > 0 ? 1.0 / (m * maxin) : INFINITY;
    b->ejection_peak = maxin;
    /* the smallest binds */
    b->predicted = b->injection;
    b->binding = "the injection channel";
    if (b->ejection < b->predicted - 1e-12) {
        b->predicted = b->ejection;
        b->binding = "the ejection channel of the busiest node";
    } else if (fabs(b->ejection - b->predicted) <= 1e-12) {
        b->binding = "the injection and ejection channels";
    }
    double ch = b->channel_routing > 0 ? b->channel_routing : b->channel_any;
    if (ch < b->predicted - 1e-12) {
        b->predicted = ch;
        b->binding = b->channel_routing > 0 ? "the busiest channel under this routing"
                                            : "the network channels (average load, any routing)";
    }
done:
    free(lw.load);
    free(lw.split);
    free(lw.in_weight);
out:
    pattern_free(&pat);
    net_destroy(n);
    free(n);
    return rc;
}
