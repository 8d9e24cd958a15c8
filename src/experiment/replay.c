/* Trace replay (sim.workload = trace): messages from a CSV file
 * (trace.file), one a line,
 *
 *   cycle,src,dst,flits[,id[,after]]
 *
 * a message of `flits` flits from node src to node dst, released at
 * `cycle`; sent as packets of at most traffic.packet_length flits (the last
 * shorter), all queued at src when the message is released. With `after`
 * (the id of another message of the trace) the message waits for that one:
 * it is released `cycle` cycles after the cycle following the arrival of
 * that message's last flit, so a trace can say "send after receiving"
 * (a collective's steps). Blank lines, # comments and a first line that
 * starts with a letter (a header) are skipped. Every packet counts; the run
 * ends when every message has arrived. Results: duration (the last
 * arrival), throughput (flits per node per cycle up to it), packet
 * latencies, and the messages' mean latency (release to last flit). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/textfile.h"
#include "experiment/sim.h"

const struct saturn_param trace_params[] = {
    {"trace.file", SATURN_PARAM_STRING, "", 0, 0, NULL,
     "sim.workload = trace: CSV of messages, cycle,src,dst,flits[,id[,after]] (after: the id "
     "of a message to receive first; cycle then counts from the cycle after it arrived)"},
    {"trace.max_cycles", SATURN_PARAM_INT, "10000000", 1, 1e12, NULL,
     "give up (error) if the trace has not finished by then"},
    {NULL, 0, NULL, 0, 0, NULL, NULL}};

#define NO_ID UINT64_MAX

struct msg {
    uint64_t cycle;    /* release cycle, or delay after the dependency */
    uint32_t src, dst, flits;
    uint64_t id;       /* NO_ID: none */
    uint64_t after_id; /* NO_ID: none */
    uint32_t after;    /* index of the message it waits for, or UINT32_MAX */
    uint32_t first_dep, ndep; /* the messages waiting for it: deps[first_dep ..] */
    uint32_t left;     /* packets not yet arrived */
    uint64_t released;
    int line;
};

struct replay {
    struct saturn_sim *s;
    struct msg *m;
    uint32_t nm;
    uint32_t *deps;
    uint32_t *msg_of;  /* packet id -> message */
    uint32_t msg_cap;
    /* releases waiting: a binary heap by (cycle, message index) */
    struct rel { uint64_t t; uint32_t m; } *heap;
    uint32_t nheap;
    uint32_t done;
    uint64_t total_flits;
    double lat_sum;
};

static bool rel_less(const struct rel *a, const struct rel *b)
{
    return a->t != b->t ? a->t < b->t : a->m < b->m;
}

static void heap_push(struct replay *rp, uint64_t t, uint32_t m)
{
    uint32_t i = rp->nheap++;
    rp->heap[i] = (struct rel){t, m};
    while (i && rel_less(&rp->heap[i], &rp->heap[(i - 1) / 2])) {
        struct rel x = rp->heap[i];
        rp->heap[i] = rp->heap[(i - 1) / 2];
        rp->heap[(i - 1) / 2] = x;
        i = (i - 1) / 2;
    }
}

static struct rel heap_pop(struct replay *rp)
{
    struct rel top = rp->heap[0];
    rp->heap[0] = rp->heap[--rp->nheap];
    for (uint32_t i = 0;;) {
        uint32_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < rp->nheap && rel_less(&rp->heap[l], &rp->heap[m]))
            m = l;
        if (r < rp->nheap && rel_less(&rp->heap[r], &rp->heap[m]))
            m = r;
        if (m == i)
            break;
        struct rel x = rp->heap[i];
        rp->heap[i] = rp->heap[m];
        rp->heap[m] = x;
        i = m;
    }
    return top;
}

/* Messages sorted by id, for the lookups of `after`. */
struct by_id {
    uint64_t id;
    uint32_t m;
};

static int cmp_id(const void *a, const void *b)
{
    const struct by_id *x = a, *y = b;
    return x->id < y->id ? -1 : x->id > y->id ? 1 : (x->m < y->m ? -1 : x->m > y->m);
}

static int bad(struct saturn_error *err, const char *path, int line, const char *what)
{
    return saturn_error_set(err, SATURN_EINPUT, "%s:%d: %s (trace.file)", path, line, what);
}

/* Reads the file, resolves `after`, refuses cycles of dependencies. */
static int load(struct replay *rp, const char *path, struct saturn_error *err)
{
    const struct saturn_sim *s = rp->s;
    struct text_lines tl;
    int e = text_open(&tl, path);
    if (e)
        return saturn_config_fail(s->cfg, "trace.file", err, "cannot read: %s", strerror(e));
    uint32_t cap = 0;
    bool nul, seen = false;
    int rc = SATURN_OK;
    char msg[300];
    for (char *p; rc == SATURN_OK && (p = text_next(&tl, &nul));) {
        char *hash = strchr(p, '#');
        if (hash)
            *hash = 0;
        if (!*p || (!seen && isalpha((unsigned char)*p)))
            continue;
        seen = true;
        unsigned long long f[6];
        int nf = 0, used = 0;
        const char *q = p;
        for (; nf < 6; nf++) {
            while (*q == ' ' || *q == '\t')
                q++;
            if (!isdigit((unsigned char)*q) || sscanf(q, "%llu%n", &f[nf], &used) != 1)
                break;
            q += used;
            while (*q == ' ' || *q == '\t')
                q++;
            if (*q != ',') {
                nf++;
                break;
            }
            q++;
        }
        while (*q == ' ' || *q == '\t' || *q == '\r')
            q++;
        if (nf < 4 || *q) {
            snprintf(msg, sizeof msg, "'%.120s' is not cycle,src,dst,flits[,id[,after]] "
                     "(whole numbers)", p);
            rc = bad(err, path, tl.no, msg);
            break;
        }
        if (f[1] >= rp->s->net.nnodes || f[2] >= rp->s->net.nnodes) {
            snprintf(msg, sizeof msg, "node %llu: this network has nodes 0 to %u",
                     f[1] >= rp->s->net.nnodes ? f[1] : f[2], rp->s->net.nnodes - 1);
            rc = bad(err, path, tl.no, msg);
            break;
        }
        if (f[3] < 1 || f[3] > (1ULL << 30) || f[0] > 1000000000000ULL) {
            rc = bad(err, path, tl.no, "flits must be in [1, 2^30] and the cycle at most 1e12");
            break;
        }
        if (rp->nm == cap) {
            cap = cap ? 2 * cap : 1024;
            struct msg *x = realloc(rp->m, cap * sizeof *x);
            if (!x) {
                rc = saturn_error_set(err, SATURN_ENOMEM, "out of memory");
                break;
            }
            rp->m = x;
        }
        rp->m[rp->nm++] = (struct msg){.cycle = f[0], .src = (uint32_t)f[1], .dst = (uint32_t)f[2],
                                       .flits = (uint32_t)f[3], .id = nf > 4 ? f[4] : NO_ID,
                                       .after_id = nf > 5 ? f[5] : NO_ID, .after = UINT32_MAX,
                                       .line = tl.no};
    }
    if (rc == SATURN_OK && nul)
        rc = bad(err, path, tl.no, "a NUL byte (is this a text file?)");
    text_close(&tl);
    if (rc)
        return rc;
    if (rp->nm == 0)
        return saturn_config_fail(s->cfg, "trace.file", err, "holds no message");
    /* ids: unique; every `after` names one */
    struct by_id *ids = malloc(rp->nm * sizeof *ids);
    uint32_t nid = 0;
    if (!ids)
        return saturn_error_set(err, SATURN_ENOMEM, "out of memory");
    for (uint32_t i = 0; i < rp->nm; i++)
        if (rp->m[i].id != NO_ID)
            ids[nid++] = (struct by_id){rp->m[i].id, i};
    qsort(ids, nid, sizeof *ids, cmp_id);
    for (uint32_t i = 1; i < nid && rc == SATURN_OK; i++)
        if (ids[i].id == ids[i - 1].id) {
            snprintf(msg, sizeof msg, "message id %llu again (line %d)",
                     (unsigned long long)ids[i].id, rp->m[ids[i - 1].m].line);
            rc = bad(err, path, rp->m[ids[i].m].line, msg);
        }
    for (uint32_t i = 0; i < rp->nm && rc == SATURN_OK; i++) {
        struct msg *x = &rp->m[i];
        if (x->after_id == NO_ID)
            continue;
        struct by_id key = {x->after_id, 0};
        uint32_t lo = 0, hi = nid;
        while (lo < hi) {
            uint32_t mid = (lo + hi) / 2;
            if (ids[mid].id < key.id)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo == nid || ids[lo].id != x->after_id) {
            snprintf(msg, sizeof msg, "after = %llu: no message has that id",
                     (unsigned long long)x->after_id);
            rc = bad(err, path, x->line, msg);
            break;
        }
        x->after = ids[lo].m;
        rp->m[x->after].ndep++;
    }
    free(ids);
    if (rc)
        return rc;
    /* the dependents of each message, and a check that every message can
     * be released (Kahn's order over the dependencies) */
    rp->deps = malloc((rp->nm + 1) * sizeof *rp->deps);
    uint32_t *fill = calloc(rp->nm, sizeof *fill), *queue = malloc(rp->nm * sizeof *queue);
    if (!rp->deps || !fill || !queue) {
        free(fill);
        free(queue);
        return saturn_error_set(err, SATURN_ENOMEM, "out of memory");
    }
    uint32_t at = 0, head = 0, tail = 0;
    for (uint32_t i = 0; i < rp->nm; i++) {
        rp->m[i].first_dep = at;
        at += rp->m[i].ndep;
    }
    for (uint32_t i = 0; i < rp->nm; i++) {
        const struct msg *x = &rp->m[i];
        if (x->after != UINT32_MAX)
            rp->deps[rp->m[x->after].first_dep + fill[x->after]++] = i;
        else
            queue[tail++] = i;
    }
    while (head < tail) {
        const struct msg *x = &rp->m[queue[head++]];
        for (uint32_t k = 0; k < x->ndep; k++)
            queue[tail++] = rp->deps[x->first_dep + k];
    }
    if (tail < rp->nm) {
        for (uint32_t i = 0; i < rp->nm; i++)
            fill[i] = 0;
        for (uint32_t k = 0; k < tail; k++)
            fill[queue[k]] = 1;
        uint32_t i = 0;
        while (fill[i])
            i++;
        snprintf(msg, sizeof msg, "the message waits, through `after`, for itself: a cycle "
                 "of dependencies never starts");
        rc = bad(err, path, rp->m[i].line, msg);
    }
    free(fill);
    free(queue);
    return rc;
}

static void release(struct replay *rp, uint32_t mi)
{
    struct net *n = &rp->s->net;
    struct msg *x = &rp->m[mi];
    const uint32_t L = (uint32_t)saturn_config_int(rp->s->cfg, "traffic.packet_length");
    x->released = n->now;
    x->left = (x->flits + L - 1) / L;
    for (uint32_t left = x->flits; left > 0;) {
        uint32_t len = left < L ? left : L;
        uint32_t pid = net_packet_new(n, x->src, x->dst, len, true);
        if (pid >= rp->msg_cap) {
            uint32_t cap = rp->msg_cap ? rp->msg_cap : 1024;
            while (cap <= pid)
                cap *= 2;
            uint32_t *m = realloc(rp->msg_of, cap * sizeof *m);
            if (!m) {
                fprintf(stderr, "saturn: out of memory\n");
                abort();
            }
            rp->msg_of = m;
            rp->msg_cap = cap;
        }
        rp->msg_of[pid] = mi;
        left -= len;
    }
}

static void on_deliver(void *user, struct net *n, uint32_t pid)
{
    struct replay *rp = user;
    sim_on_deliver(rp->s, n, pid);
    struct msg *x = &rp->m[rp->msg_of[pid]];
    rp->total_flits += n->pk[pid].len;
    if (--x->left)
        return;
    rp->done++;
    rp->lat_sum += (double)(n->now - x->released);
    for (uint32_t k = 0; k < x->ndep; k++) {
        uint32_t d = rp->deps[x->first_dep + k];
        heap_push(rp, n->now + 1 + rp->m[d].cycle, d);
    }
}

int replay_run(struct saturn_sim *s, struct saturn_results *r, struct saturn_error *err)
{
    double t0 = sim_clock();
    struct net *n = &s->net;
    const char *path = saturn_config_str(s->cfg, "trace.file");
    if (!path[0])
        return saturn_config_fail(s->cfg, "trace.file", err,
                                  "sim.workload = trace needs the trace's file");
    struct replay rp = {.s = s};
    int rc = load(&rp, path, err);
    if (rc == SATURN_OK && !(rp.heap = malloc(rp.nm * sizeof *rp.heap)))
        rc = saturn_error_set(err, SATURN_ENOMEM, "out of memory");
    if (rc)
        goto out;
    for (uint32_t i = 0; i < rp.nm; i++)
        if (rp.m[i].after == UINT32_MAX)
            heap_push(&rp, rp.m[i].cycle, i);
    n->deliver = on_deliver;
    n->deliver_user = &rp;
    s->count_all = true;
    sim_accumulate(s, true);
    r->workload = "trace";
    uint64_t cap = (uint64_t)saturn_config_int(s->cfg, "trace.max_cycles");
    while (rp.done < rp.nm) {
        if (n->now >= cap) {
            rc = saturn_config_fail(s->cfg, "trace.max_cycles", err,
                                    "the trace did not finish: %u of %u messages arrived "
                                    "after %llu cycles", rp.done, rp.nm,
                                    (unsigned long long)cap);
            goto out;
        }
        while (rp.nheap && rp.heap[0].t <= n->now)
            release(&rp, heap_pop(&rp).m);
        if ((rc = sim_step(s, err)))
            goto out;
        sim_progress(s, "trace", rp.done, rp.nm, "messages");
    }
    r->measured_packets = r->measured_delivered = n->packets_delivered;
    r->drained = true;
    r->duration = s->last_delivery;
    r->measure = n->now;
    r->trace_messages = rp.nm;
    r->message_latency_mean = rp.lat_sum / rp.nm;
    r->accepted = r->offered =
        (double)rp.total_flits / (double)n->nnodes / (double)(r->duration + 1);
    sim_finish(s, r, t0);
out:
    n->deliver_user = s; /* the workload's state goes; sim's callback stays valid */
    n->deliver = sim_on_deliver;
    free(rp.m);
    free(rp.deps);
    free(rp.msg_of);
    free(rp.heap);
    return rc;
}
