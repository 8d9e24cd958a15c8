/* Collective: every node sends N packets as fast as the network (and its
 * injection gate) allows; the result is the duration from cycle 0 to the
 * last delivery. Sliced (paper 003): each packet of p payload flits is
 * split into s slices of floor(p/s) + 1 flits; slice k of node i is
 * released at I_i + k x interval, I_i from a schedule (a file, or the
 * optimiser through saturn_sim_set_offsets), 0 by default. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/textfile.h"
#include "experiment/sim.h"
#include "traffic/process.h"
#include "experiment/workload.h"

/* Per-link use and the effective thickness T_e = max over links of the
 * time between the first and the last flit (paper 003, section 4.3); with
 * all, the nodes' injection and ejection channels count as links too. */
static int collect_links(const struct net *n, struct saturn_results *r, bool all)
{
    size_t nports = (size_t)n->topo.routers * n->P, used = 0;
    for (size_t i = 0; i < nports; i++)
        used += n->link_busy[i] > 0;
    r->links = calloc(used ? used : 1, sizeof *r->links);
    if (!r->links)
        return SATURN_ENOMEM;
    for (size_t i = 0; i < nports; i++) {
        if (!n->link_busy[i])
            continue;
        struct saturn_link_stat *l = &r->links[r->nlinks++];
        l->router = (uint32_t)(i / (size_t)n->P);
        l->port = (uint8_t)(i % (size_t)n->P);
        l->first = n->link_first[i] - 1;
        l->last = n->link_last[i] - 1;
        l->busy = n->link_busy[i];
        if (l->last - l->first > r->thickness)
            r->thickness = l->last - l->first;
    }
    for (uint32_t i = 0; all && i < n->nnodes; i++)
        for (int k = 0; k < 4; k += 2) {
            const uint64_t *sp = &n->node_span[4 * (size_t)i + (size_t)k];
            if (sp[0] && sp[1] - sp[0] > r->thickness)
                r->thickness = sp[1] - sp[0];
        }
    return SATURN_OK;
}

static const char *const link_sets[] = {"network", "all", NULL};

const struct saturn_param collective_params[] = {
    {"collective.packets", SATURN_PARAM_INT, "10", 1, 1e6, NULL,
     "packets each node sends (destinations from traffic.pattern)"},
    {"collective.slices", SATURN_PARAM_INT, "1", 1, 4096, NULL,
     "split every packet into this many slices of floor(p/s) + 1 flits (p = collective.payload)"},
    {"collective.payload", SATURN_PARAM_INT, "0", 0, 65534, NULL,
     "payload flits p of a packet before slicing; 0 = traffic.packet_length - 1"},
    {"collective.interval", SATURN_PARAM_INT, "0", 0, 1e9, NULL,
     "cycles between the releases of a node's successive slices (0: all at its start)"},
    {"collective.schedule", SATURN_PARAM_STRING, "", 0, 0, NULL,
     "CSV file of per-node start offsets I_i (lines: node,offset); empty = every node starts at 0"},
    {"collective.max_cycles", SATURN_PARAM_INT, "10000000", 1, 1e12, NULL,
     "give up (error) if the collective has not finished by then"},
    {"collective.links", SATURN_PARAM_ENUM, "network", 0, 0, link_sets,
     "links of the effective thickness T_e: network (router-to-router links) or all (also "
     "each node's injection and ejection channel)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL}};

struct release {
    uint64_t t;
    uint32_t node, k; /* slice k of the node: packet k / s, slice k % s */
};

static int release_order(const void *a, const void *b)
{
    const struct release *x = a, *y = b;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    if (x->node != y->node)
        return x->node < y->node ? -1 : 1;
    return x->k < y->k ? -1 : x->k > y->k;
}

/* Reads "node,offset" lines (a header line, blank lines and # comments are
 * skipped). */
static int read_schedule(struct saturn_sim *s, const char *path, int64_t *off,
                         struct saturn_error *err)
{
    struct text_lines tl;
    int e = text_open(&tl, path);
    if (e)
        return saturn_config_fail(s->cfg, "collective.schedule", err, "cannot read: %s",
                                  strerror(e));
    int rc = SATURN_OK;
    bool seen_data = false, nul;
    int *where = calloc(s->net.nnodes, sizeof *where); /* line of each node, 0: none */
    if (!where) {
        text_close(&tl);
        return saturn_error_set(err, SATURN_ENOMEM, "out of memory");
    }
    for (char *p; rc == SATURN_OK && (p = text_next(&tl, &nul));) {
        int no = tl.no;
        if (!*p || *p == '#' || (!seen_data && isalpha((unsigned char)*p)))
            continue;
        seen_data = true;
        long long node, o;
        char extra;
        if (sscanf(p, "%lld , %lld %c", &node, &o, &extra) != 2 || node < 0 ||
            node >= (long long)s->net.nnodes || o < 0 || o > 1000000000LL) {
            rc = saturn_error_set(err, SATURN_EINPUT,
                                  "%s:%d: '%.*s' is not 'node,offset' with a node in [0, %u) "
                                  "and an offset in [0, 1e9] (collective.schedule)",
                                  path, no, 200, p, s->net.nnodes);
            break;
        }
        if (where[node]) {
            rc = saturn_error_set(err, SATURN_EINPUT,
                                  "%s:%d: node %lld already has an offset (line %d) "
                                  "(collective.schedule)", path, no, node, where[node]);
            break;
        }
        where[node] = no;
        off[node] = o;
    }
    if (rc == SATURN_OK && nul)
        rc = saturn_error_set(err, SATURN_EINPUT, "%s:%d: a NUL byte (is this a text file?) "
                              "(collective.schedule)", path, tl.no);
    free(where);
    text_close(&tl);
    return rc;
}

/* Packets per node, slices per packet and flits per slice, checked. */
static int collective_shape(const struct saturn_sim *s, uint64_t *per, uint32_t *slices,
                            uint32_t *len, struct saturn_error *err)
{
    *per = (uint64_t)saturn_config_int(s->cfg, "collective.packets");
    *slices = (uint32_t)saturn_config_int(s->cfg, "collective.slices");
    *len = (uint32_t)saturn_config_int(s->cfg, "traffic.packet_length");
    int64_t payload = saturn_config_int(s->cfg, "collective.payload");
    if (payload > 0 || *slices > 1) {
        if (payload == 0)
            payload = (int64_t)*len - 1;
        else if (saturn_config_is_set(s->cfg, "traffic.packet_length"))
            return saturn_config_fail(s->cfg, "traffic.packet_length", err,
                                      "is set by collective.payload and collective.slices "
                                      "(floor(p/s) + 1 flits); give one or the other");
        if (payload < *slices)
            return saturn_config_fail(s->cfg, "collective.slices", err,
                                      "%u slices of a %lld-flit payload would leave slices "
                                      "without payload; at most collective.payload slices",
                                      *slices, (long long)payload);
        *len = traffic_packet_flits(s->cfg, NULL);
    }
    return SATURN_OK;
}

/* One packet's flits on one resource (a network port, a node's injection or
 * ejection channel): flit i (0 = head) can take it at cycle r0 + i at the
 * earliest, and once it has taken it at cycle c, the packet is delivered at
 * c + q0 + (len - 1 - i) at the earliest (its later flits follow one a cycle
 * on the resource, then the links after it and the ejection). */
struct use {
    uint32_t res, r0, q0;
};

/* The lower bound one resource gives (speed flits a cycle at most): for any
 * set S of its flits, all of them take it at distinct cycles (speed a
 * cycle) from min r over S on, the last at min r + ceil(|S| / speed) - 1 or
 * later, and its packet is delivered min q over S after that or later. The
 * maximum over the sets {r >= a, q >= b} (Jackson's bound with heads and
 * tails, preemptive), from a 2D suffix count; a range too wide for that
 * gives the set of all its flits. */
static uint64_t use_bound(const struct use *u, size_t n, uint32_t len, uint64_t speed,
                          uint32_t *hist, size_t hist_cap)
{
    uint64_t rmin = UINT64_MAX, rmax = 0, qmin = UINT64_MAX, qmax = 0, flits = (uint64_t)n * len;
    for (size_t k = 0; k < n; k++) {
        rmin = u[k].r0 < rmin ? u[k].r0 : rmin;
        rmax = u[k].r0 > rmax ? u[k].r0 : rmax;
        qmin = u[k].q0 < qmin ? u[k].q0 : qmin;
        qmax = u[k].q0 > qmax ? u[k].q0 : qmax;
    }
    uint64_t best = rmin + (flits + speed - 1) / speed - 1 + qmin;
    size_t w = (size_t)(rmax - rmin) + len, h = (size_t)(qmax - qmin) + len;
    if (w > hist_cap / h)
        return best;
    memset(hist, 0, w * h * sizeof *hist);
    for (size_t k = 0; k < n; k++)
        for (uint32_t i = 0; i < len; i++)
            hist[(u[k].r0 - rmin + i) * h + (u[k].q0 - qmin + len - 1 - i)]++;
    for (size_t a = w; a-- > 0;) /* hist[a][b]: the flits with r >= rmin + a, q >= qmin + b */
        for (size_t b = h; b-- > 0;) {
            uint32_t *c = &hist[a * h + b];
            *c += (a + 1 < w ? c[h] : 0) + (b + 1 < h ? c[1] : 0) -
                  (a + 1 < w && b + 1 < h ? c[h + 1] : 0);
            uint64_t v = *c ? rmin + a + (*c + speed - 1) / speed - 1 + qmin + b : 0;
            best = v > best ? v : best;
        }
    return best;
}

/* A lower bound on the duration that holds for any injection control and
 * schedule: the run's own packets (the destinations and routing draws are
 * made per node in slice order, so they do not depend on timing) and the
 * fact that an injection channel, an ejection channel and (single-path,
 * state-independent routing: DOR) a network link each move at most one
 * flit a cycle (out_speedup on a link). Each resource bounds the duration
 * through use_bound: its flits' earliest cycles there (a packet starts at
 * cycle 0 or later, reaches its router inject_latency later and crosses
 * each link in its latency or more) and the least time from there to their
 * delivery (the links after it, eject_latency). With loads, also the flits
 * per network port (router * P + port) under DOR and the least q0 of each
 * port (tails), NULL otherwise: what is left of them bounds the rest of a
 * run (cut_bound). */
static int collective_loads(const struct saturn_config *cfg, uint64_t *lb, uint64_t **loads,
                            uint32_t **tails, struct saturn_error *err)
{
    *lb = 0;
    if (loads)
        *loads = NULL, *tails = NULL;
    struct saturn_sim *s = NULL;
    int rc = saturn_sim_create(cfg, &s, err);
    if (rc)
        return rc;
    struct net *n = &s->net;
    uint64_t per = 0;
    uint32_t slices = 0, len = 0;
    size_t nports = (size_t)n->topo.routers * n->P, nres = nports + 2 * (size_t)n->nnodes;
    size_t nuse = 0, ucap = 0, npath = 0, pcap = 0, hist_cap = (size_t)1 << 16;
    struct use *use = NULL, *sorted = NULL;
    uint32_t *path = NULL, *hist = malloc(hist_cap * sizeof *hist); /* path: port, latency */
    size_t *first = calloc(nres + 1, sizeof *first);
    bool walk = !strcmp(n->rops->name, "dor");
    if (workload_of(s->cfg) != WORKLOAD_COLLECTIVE)
        rc = saturn_config_fail(s->cfg, "sim.workload", err, "the bound is a collective's");
    else if ((rc = collective_shape(s, &per, &slices, &len, err)))
        ;
    else if (!first || !hist)
        rc = saturn_error_set(err, SATURN_ENOMEM, "out of memory");
    for (uint32_t i = 0; !rc && i < n->nnodes; i++) {
        uint32_t dst = 0;
        for (uint64_t k = 0; !rc && k < per * slices; k++) {
            if (k % slices == 0)
                dst = pattern_dest(&s->pat, i, &n->nodes[i].rng);
            uint32_t pid = net_packet_new(n, i, dst, len, true);
            struct packet p = n->pk[pid];
            uint32_t r = topo_node_router(&n->topo, i);
            int in_port = topo_node_port(&n->topo, i);
            uint64_t lat = 0; /* the packet's links' latencies */
            npath = 0;
            for (int hop = 0; walk && hop < 1 << 20; hop++) {
                struct route_result res;
                n->rops->route(n->rstate, n, r, in_port, 0, &p, &res);
                int port = res.c[0].port;
                uint32_t fr;
                if (port >= n->topo.radix || !topo_link(&n->topo, r, port, &fr, &in_port))
                    break;
                if (npath + 2 > pcap) {
                    uint32_t *x = realloc(path, (pcap = pcap ? 2 * pcap : 64) * sizeof *x);
                    if (!x) {
                        rc = saturn_error_set(err, SATURN_ENOMEM, "out of memory");
                        break;
                    }
                    path = x;
                }
                size_t gop = (size_t)r * n->P + (size_t)port;
                path[npath++] = (uint32_t)gop;
                path[npath++] = n->ports[gop].latency;
                lat += n->ports[gop].latency;
                r = fr;
                p.hops++;
            }
            if (!rc && nuse + npath / 2 + 2 > ucap) {
                size_t c = 2 * ucap + npath / 2 + 2 + 1024;
                struct use *x = realloc(use, c * sizeof *x);
                if (x)
                    use = x, ucap = c;
                else
                    rc = saturn_error_set(err, SATURN_ENOMEM, "out of memory");
            }
            if (rc)
                break;
            uint64_t il = n->inject_latency, el = n->eject_latency, at = il, total = il + lat + el;
            if (total > UINT32_MAX / 2) { /* absurd latencies: no heads or tails */
                at = total = 0;
                for (size_t h = 1; h < npath; h += 2)
                    path[h] = 0;
            }
            for (size_t h = 0; h < npath; h += 2) { /* a link: reached at at, tail after */
                use[nuse++] = (struct use){path[h], (uint32_t)at, (uint32_t)(total - at)};
                at += path[h + 1];
            }
            use[nuse++] = (struct use){(uint32_t)(nports + i), 0, (uint32_t)total};
            use[nuse++] = (struct use){(uint32_t)(nports + n->nnodes + dst), (uint32_t)total, 0};
        }
    }
    /* the uses per resource: a counting sort */
    if (!rc && !(sorted = malloc((nuse ? nuse : 1) * sizeof *sorted)))
        rc = saturn_error_set(err, SATURN_ENOMEM, "out of memory");
    if (!rc) {
        for (size_t k = 0; k < nuse; k++)
            first[use[k].res + 1]++;
        for (size_t x = 0; x < nres; x++)
            first[x + 1] += first[x];
        for (size_t k = 0; k < nuse; k++)
            sorted[first[use[k].res]++] = use[k];
        for (size_t x = nres; x > 0; x--)
            first[x] = first[x - 1];
        first[0] = 0;
        uint64_t speed = n->out_speedup > 1 ? (uint64_t)n->out_speedup : 1, best = 0;
        /* the set of all its flits first, then the sets that may beat the best so far */
        for (int pass = 0; pass < 2; pass++)
            for (size_t x = 0; x < nres; x++) {
                size_t m = first[x + 1] - first[x];
                if (!m)
                    continue;
                uint64_t sp = x < nports ? speed : 1, most = 0;
                const struct use *u = sorted + first[x];
                for (size_t k = 0; k < m; k++)
                    most = u[k].r0 + u[k].q0 > most ? u[k].r0 + u[k].q0 : most;
                uint64_t cap = ((uint64_t)m * len + sp - 1) / sp - 1 + most + len - 1;
                if (pass ? cap > best : true) {
                    uint64_t v = use_bound(u, m, len, sp, hist, pass ? hist_cap : 0);
                    best = v > best ? v : best;
                }
            }
        *lb = best;
        if (loads && walk) {
            uint64_t *load = calloc(nports ? nports : 1, sizeof *load);
            uint32_t *tail = calloc(nports ? nports : 1, sizeof *tail);
            if (!load || !tail) {
                free(load);
                free(tail);
                rc = saturn_error_set(err, SATURN_ENOMEM, "out of memory");
            }
            for (size_t x = 0; !rc && x < nports; x++) {
                load[x] = (uint64_t)(first[x + 1] - first[x]) * len;
                tail[x] = UINT32_MAX;
                for (size_t k = first[x]; k < first[x + 1]; k++)
                    tail[x] = sorted[k].q0 < tail[x] ? sorted[k].q0 : tail[x];
            }
            if (!rc)
                *loads = load, *tails = tail;
        }
    }
    free(use);
    free(sorted);
    free(path);
    free(hist);
    free(first);
    saturn_sim_free(s);
    return rc;
}

int saturn_collective_bound(const struct saturn_config *cfg, uint64_t *lb,
                            struct saturn_error *err)
{
    return collective_loads(cfg, lb, NULL, NULL, err);
}

/* A lower bound on the duration of a run at the start of cycle now, from the
 * flits its links still have to carry: R more on a link cross it in cycles
 * now, now + 1, ... (out_speedup a cycle at most), the last at now +
 * ceil(R / speed) - 1 or later, and that flit's packet is delivered the
 * link's least tail later or later still. The links' counts (link_busy) hold
 * the crossings of the cycles before now. Only a search's cut-offs use it: a
 * run that cannot finish by its cut-off stops at once instead of at the
 * cut-off. */
static uint64_t cut_bound(const struct net *n, const uint64_t *load, const uint32_t *tail)
{
    size_t nports = (size_t)n->topo.routers * n->P;
    uint64_t speed = n->out_speedup > 1 ? (uint64_t)n->out_speedup : 1, most = n->now;
    for (size_t i = 0; i < nports; i++)
        if (load[i] > n->link_busy[i]) {
            uint64_t v = n->now + (load[i] - n->link_busy[i] + speed - 1) / speed - 1 + tail[i];
            most = v > most ? v : most;
        }
    return most;
}

int collective_run(struct saturn_sim *s, struct saturn_results *r, struct saturn_error *err)
{
    double t0 = sim_clock();
    struct net *n = &s->net;
    uint64_t cap = (uint64_t)saturn_config_int(s->cfg, "collective.max_cycles");
    uint64_t interval = (uint64_t)saturn_config_int(s->cfg, "collective.interval");
    uint64_t per;
    uint32_t slices, len;
    int rc0 = collective_shape(s, &per, &slices, &len, err);
    if (rc0)
        return rc0;
    int64_t *off = calloc(n->nnodes, sizeof *off);
    uint32_t *dst = calloc(n->nnodes * per, sizeof *dst);
    uint64_t total = per * slices * n->nnodes;
    struct release *rel = malloc(total * sizeof *rel);
    uint64_t *load = NULL; /* per network port, under a cut-off (collective_loads) */
    uint32_t *tail = NULL;
    int rc = SATURN_OK;
    if (!off || !dst || !rel) {
        rc = saturn_error_set(err, SATURN_ENOMEM, "out of memory");
        goto out;
    }
    const char *sched = saturn_config_str(s->cfg, "collective.schedule");
    if (sched[0] && (rc = read_schedule(s, sched, off, err)))
        goto out;
    if (s->offsets) /* set through the API (the GA) */
        memcpy(off, s->offsets, n->nnodes * sizeof *off);
    if ((rc = net_record_links(n, s->chart)))
        goto out;
    s->count_all = true;
    sim_accumulate(s, true);
    r->workload = "collective";
    r->collective_packets = per;
    r->collective_slices = slices;
    r->slice_flits = len;
    size_t nr = 0;
    for (uint32_t i = 0; i < n->nnodes; i++)
        for (uint32_t k = 0; k < per * slices; k++)
            rel[nr++] = (struct release){(uint64_t)off[i] + k * interval, i, k};
    qsort(rel, nr, sizeof *rel, release_order);
    r->measured_packets = total;
    size_t next = 0;
    uint64_t at_least = 0, lb0;
    /* under a search's cut-off: what the links have left to carry, checked every 32 cycles */
    if (s->stop_after != UINT64_MAX && (rc = collective_loads(s->cfg, &lb0, &load, &tail, err)))
        goto out;
    while (n->packets_delivered < total) {
        if (sim_cut_now(s)) { /* a search's cut-off: the duration is at least now */
            r->cut = true;
            at_least = n->now;
            break;
        }
        if (load && (n->now & 31) == 0) {
            uint64_t b = cut_bound(n, load, tail);
            if ((at_least = b > lb0 ? b : lb0) > s->stop_after) {
                r->cut = true; /* cannot finish by the cut-off: at least at_least */
                break;
            }
        }
        if (n->now >= cap) {
            rc = saturn_config_fail(s->cfg, "collective.max_cycles", err,
                                    "the collective did not finish: %llu of %llu packets "
                                    "delivered after %llu cycles",
                                    (unsigned long long)n->packets_delivered,
                                    (unsigned long long)total, (unsigned long long)cap);
            goto out;
        }
        /* Releases due now, in node then slice order (the order of the
         * random draws is the same whatever the schedule). */
        for (; next < nr && rel[next].t == n->now; next++) {
            uint32_t i = rel[next].node, q = rel[next].k / slices;
            if (rel[next].k % slices == 0)
                dst[(size_t)i * per + q] = pattern_dest(&s->pat, i, &n->nodes[i].rng);
            uint32_t pid = net_packet_new(n, i, dst[(size_t)i * per + q], len, true);
            n->pk[pid].slice = (uint16_t)rel[next].k;
        }
        if ((rc = sim_step(s, err)))
            goto out;
        sim_progress(s, "collective", n->packets_delivered, total, "packets");
    }
    r->measured_delivered = n->packets_delivered;
    r->drained = !r->cut;
    r->duration = r->cut ? at_least : s->last_delivery;
    r->measure = n->now;
    /* Throughput over the whole collective; no offered load applies. */
    r->accepted = (double)(total * len) / (double)n->nnodes / (double)(r->duration + 1);
    if ((rc = collect_links(n, r, saturn_config_enum(s->cfg, "collective.links") == 1)))
        rc = saturn_error_set(err, rc, "out of memory");
    else
        sim_finish(s, r, t0);
out:
    free(off);
    free(dst);
    free(rel);
    free(load);
    free(tail);
    return rc;
}
