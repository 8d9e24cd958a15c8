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

#include "core/packet_flits.h"
#include "core/textfile.h"
#include "experiment/sim.h"
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
        *len = config_packet_flits(s->cfg, NULL);
    }
    return SATURN_OK;
}

/* A lower bound on the duration that holds for any injection control and
 * schedule: the run's own packets (the destinations and routing draws are
 * made per node in slice order, so they do not depend on timing) and the
 * fact that an injection channel, an ejection channel and (single-path,
 * state-independent routing: DOR) a network link each move at most one
 * flit a cycle (out_speedup on a link). A channel's M flits take it at
 * distinct cycles, none before its head, the earliest cycle any packet's
 * head can reach it (the packet starts at 0 or later, reaches its router
 * inject_latency later, crosses each link in its latency or more), so the
 * last at head + ceil(M / speed) - 1 or later; its packet is then delivered
 * tail cycles later at least, the least time from the channel to a delivery
 * over its packets (the links after it, eject_latency; a packet's later
 * flits follow on the channel, so its own tail flit is the last). That is
 * Jackson's bound with heads and tails for the set of all the channel's
 * flits; the sets of flits with later heads or longer tails gave the same
 * on paper 000's network (README). With loads, also each network port's
 * (router * P + port) flits, head and tail under DOR, NULL otherwise: what
 * is left of them bounds the rest of a run (cut_bound). */
static int collective_loads(const struct saturn_config *cfg, uint64_t *lb, uint64_t **loads,
                            uint32_t **heads, uint32_t **tails, struct saturn_error *err)
{
    *lb = 0;
    if (loads)
        *loads = NULL, *heads = NULL, *tails = NULL;
    struct saturn_sim *s = NULL;
    int rc = saturn_sim_create(cfg, &s, err);
    if (rc)
        return rc;
    struct net *n = &s->net;
    uint64_t per = 0;
    uint32_t slices = 0, len = 0;
    /* channels: the network ports, then each node's injection, then its ejection */
    size_t nports = (size_t)n->topo.routers * n->P, nch = nports + 2 * (size_t)n->nnodes;
    size_t npath = 0, pcap = 0;
    uint64_t *load = calloc(nch, sizeof *load);
    uint32_t *head = malloc(nch * sizeof *head), *tail = malloc(nch * sizeof *tail);
    uint32_t *path = NULL; /* the packet's ports, each with its latency */
    bool walk = !strcmp(n->rops->name, "dor");
    if (workload_of(s->cfg) != WORKLOAD_COLLECTIVE)
        rc = saturn_config_fail(s->cfg, "sim.workload", err, "the bound is a collective's");
    else if ((rc = collective_shape(s, &per, &slices, &len, err)))
        ;
    else if (!load || !head || !tail)
        rc = saturn_error_set(err, SATURN_ENOMEM, "out of memory");
    for (size_t x = 0; !rc && x < nch; x++)
        head[x] = tail[x] = UINT32_MAX;
    for (uint32_t i = 0; !rc && i < n->nnodes; i++) {
        uint32_t dst = 0;
        for (uint64_t k = 0; !rc && k < per * slices; k++) {
            if (k % slices == 0)
                dst = pattern_dest(&s->pat, i, &n->node_rng[i]);
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
            uint64_t at = n->inject_latency, total = at + lat + n->eject_latency;
            if (total > UINT32_MAX / 2) /* absurd latencies: no heads or tails */
                at = total = lat = 0;
            /* (channel, head, tail): each link on the path, the injection, the ejection */
            for (size_t h = 0; h <= npath + 2; h += 2) {
                size_t x = h < npath ? path[h] : h == npath ? nports + i : nports + n->nnodes + dst;
                uint64_t hd = h < npath ? at : h == npath ? 0 : total;
                load[x] += len;
                head[x] = hd < head[x] ? (uint32_t)hd : head[x];
                tail[x] = total - hd < tail[x] ? (uint32_t)(total - hd) : tail[x];
                if (h < npath && lat)
                    at += path[h + 1];
            }
        }
    }
    uint64_t speed = n->out_speedup > 1 ? (uint64_t)n->out_speedup : 1, most = 0;
    for (size_t x = 0; !rc && x < nch; x++) {
        uint64_t sp = x < nports ? speed : 1;
        uint64_t v = load[x] ? head[x] + (load[x] + sp - 1) / sp - 1 + tail[x] : 0;
        most = v > most ? v : most;
    }
    *lb = most;
    if (!rc && loads && walk) {
        *loads = load, *heads = head, *tails = tail;
        load = NULL, head = tail = NULL;
    }
    free(load);
    free(head);
    free(tail);
    free(path);
    saturn_sim_free(s);
    return rc;
}

int saturn_collective_bound(const struct saturn_config *cfg, uint64_t *lb,
                            struct saturn_error *err)
{
    return collective_loads(cfg, lb, NULL, NULL, NULL, err);
}

/* A lower bound on the duration of a run at the start of cycle now, from the
 * flits its links still have to carry: R more on a link cross it in cycles
 * now (or its head, if later), ... (out_speedup a cycle at most), the last
 * ceil(R / speed) - 1 later or later still, and that flit's packet is
 * delivered the link's tail after that at least. The links' counts
 * (link_busy) hold the crossings of the cycles before now. Only a search's
 * cut-offs use it: a run that cannot finish by its cut-off stops at once
 * instead of at the cut-off. */
static uint64_t cut_bound(const struct net *n, const uint64_t *load, const uint32_t *head,
                          const uint32_t *tail)
{
    size_t nports = (size_t)n->topo.routers * n->P;
    uint64_t speed = n->out_speedup > 1 ? (uint64_t)n->out_speedup : 1, most = n->now;
    for (size_t i = 0; i < nports; i++)
        if (load[i] > n->link_busy[i]) {
            uint64_t from = head[i] > n->now ? head[i] : n->now;
            uint64_t v = from + (load[i] - n->link_busy[i] + speed - 1) / speed - 1 + tail[i];
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
    uint32_t *head = NULL, *tail = NULL;
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
    /* made in (node, slice) order: without offsets or an interval that is
     * already the release order (its keys are unique, so the sort would
     * leave it as it is; 26 M instructions for 10,240 releases) */
    size_t sorted = 1;
    while (sorted < nr && release_order(&rel[sorted - 1], &rel[sorted]) < 0)
        sorted++;
    if (sorted < nr)
        qsort(rel, nr, sizeof *rel, release_order);
    r->measured_packets = total;
    size_t next = 0;
    uint64_t at_least = 0, lb0;
    /* under a search's cut-off: what the links have left to carry, checked every 32 cycles */
    if (s->stop_after != UINT64_MAX && (rc = collective_loads(s->cfg, &lb0, &load, &head, &tail, err)))
        goto out;
    while (n->packets_delivered < total) {
        if (sim_cut_now(s)) { /* a search's cut-off: the duration is at least now */
            r->cut = true;
            at_least = n->now;
            break;
        }
        if (load && (n->now & 31) == 0) {
            uint64_t b = cut_bound(n, load, head, tail);
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
                dst[(size_t)i * per + q] = pattern_dest(&s->pat, i, &n->node_rng[i]);
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
    free(head);
    free(tail);
    return rc;
}
