/* Any graph, read from a file (file.path): routers, links, and the nodes on
 * each router. Two formats (file.format; auto tells them by the first
 * word):
 *
 * saturn's, one statement a line, # to the end of a line a comment:
 *   routers R               first: routers 0 .. R-1
 *   nodes all C             every router has C nodes (default 0) ...
 *   nodes R C               ... router R has C (later lines win)
 *   link A B [latency=L] [class=local|global]
 *                           a link between routers A and B, one channel
 *                           each way, L cycles each way (router.link_latency
 *                           when absent); repeat a line for parallel links
 * Nodes are numbered router by router: router 0's first.
 *
 * BookSim 2's anynet: each line "router X" or "node X" followed by what it
 * connects to, "router Y [latency]" and "node Z" (a node on the head
 * router, or the head node on router Y); a router pair is one link
 * however often it appears, its latency per direction as its head router's
 * line gives it (the other direction's when only one does, else
 * router.link_latency); node and router ids run from 0 without gaps.
 *
 * Ports: a router's links in the order the file gives them (anynet: by
 * router pair, lower ids first), then its nodes. Links of class global take file.global_vcs VCs and
 * file.global_buf_flits flit buffers (0: as the local ones). Credits take
 * a link's own latency back when the file gives one. Routing: min, val,
 * ugal (src/route/graph.c). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/textfile.h"
#include "topo/topo_internal.h"

#define FILE_MAX_ROUTERS 4096

static const char *const formats[] = {"auto", "saturn", "anynet", NULL};

const struct saturn_param topo_file_params[] = {
    {"file.path", SATURN_PARAM_STRING, "", 0, 0, NULL,
     "file: the graph's file (saturn's format or BookSim's anynet; docs/TOPOLOGIES.md)"},
    {"file.format", SATURN_PARAM_ENUM, "auto", 0, 0, formats,
     "file: saturn (routers, nodes, link lines), anynet (BookSim 2's) or auto (by the first "
     "word: routers or router/node)"},
    {"file.global_vcs", SATURN_PARAM_INT, "0", 0, 64, NULL,
     "file: VCs of links of class global; 0 = router.vcs"},
    {"file.global_buf_flits", SATURN_PARAM_INT, "0", 0, 1 << 20, NULL,
     "file: flits per input VC of links of class global; 0 = router.buf_flits"},
    {NULL, 0, NULL, 0, 0, NULL, NULL}};

struct edge {
    uint32_t a, b;
    uint16_t lat_ab, lat_ba; /* 0: router.link_latency */
    uint8_t global;
};

struct desc {
    uint32_t routers, nodes;
    uint32_t *node_rt; /* node -> router */
    int32_t *count;    /* saturn's format: nodes per router, -1 = the "all" value */
    struct edge *e;
    size_t ne, cap;
    int radix, conc;
};

static void desc_free(struct desc *d)
{
    free(d->node_rt);
    free(d->count);
    free(d->e);
    memset(d, 0, sizeof *d);
}

static int fail(struct saturn_error *err, const char *path, int no, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int fail(struct saturn_error *err, const char *path, int no, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (no > 0)
        return saturn_error_set(err, SATURN_EINPUT, "%s:%d: %s (file.path)", path, no, msg);
    return saturn_error_set(err, SATURN_EINPUT, "%s: %s (file.path)", path, msg);
}

/* A whole number in [0, max]. */
static bool number(const char *w, long long max, long long *v)
{
    char *end;
    if (!w || !*w || *w == '-' || *w == '+')
        return false;
    errno = 0;
    *v = strtoll(w, &end, 10);
    return !*end && errno == 0 && *v <= max;
}

static int add_edge(struct desc *d, uint32_t a, uint32_t b, long long lab, long long lba,
                    bool global)
{
    if (d->ne == d->cap) {
        size_t cap = d->cap ? 2 * d->cap : 64;
        struct edge *e = realloc(d->e, cap * sizeof *e);
        if (!e)
            return SATURN_ENOMEM;
        d->e = e;
        d->cap = cap;
    }
    d->e[d->ne++] = (struct edge){a, b, (uint16_t)lab, (uint16_t)lba, (uint8_t)global};
    return SATURN_OK;
}

/* Splits a line into at most 16 words, cut at '#'. */
static int words(char *p, char **w)
{
    char *hash = strchr(p, '#');
    if (hash)
        *hash = 0;
    int n = 0;
    for (char *save = NULL, *t = strtok_r(p, " \t", &save); t && n < 16;
         t = strtok_r(NULL, " \t", &save))
        w[n++] = t;
    return n;
}

static int parse_saturn(struct text_lines *tl, const char *path, struct desc *d,
                        struct saturn_error *err)
{
    bool nul;
    int32_t all = 0;
    for (char *p; (p = text_next(tl, &nul));) {
        char *w[16];
        int n = words(p, w), no = tl->no;
        long long a, b, v;
        if (n == 0)
            continue;
        if (!d->count && strcmp(w[0], "routers"))
            return fail(err, path, no, "'%s': the first statement must be 'routers R'", w[0]);
        if (!strcmp(w[0], "routers")) {
            if (d->count)
                return fail(err, path, no, "a second 'routers' line");
            if (n != 2 || !number(w[1], FILE_MAX_ROUTERS, &v) || v < 1)
                return fail(err, path, no, "expected 'routers R' with R in [1, %d]",
                            FILE_MAX_ROUTERS);
            d->routers = (uint32_t)v;
            d->count = malloc(d->routers * sizeof *d->count);
            if (!d->count)
                return saturn_error_set(err, SATURN_ENOMEM, "out of memory");
            for (uint32_t r = 0; r < d->routers; r++)
                d->count[r] = -1;
        } else if (!strcmp(w[0], "nodes")) {
            if (n != 3 || !number(w[2], 63, &v) ||
                (strcmp(w[1], "all") && (!number(w[1], d->routers - 1, &a))))
                return fail(err, path, no,
                            "expected 'nodes all C' or 'nodes R C' with R in [0, %u) and C in "
                            "[0, 63]", d->routers);
            if (!strcmp(w[1], "all")) {
                all = (int32_t)v;
                for (uint32_t r = 0; r < d->routers; r++)
                    d->count[r] = -1;
            } else {
                d->count[a] = (int32_t)v;
            }
        } else if (!strcmp(w[0], "link")) {
            if (n < 3 || !number(w[1], d->routers - 1, &a) || !number(w[2], d->routers - 1, &b))
                return fail(err, path, no, "expected 'link A B [latency=L] [class=local|global]' "
                            "with A and B in [0, %u)", d->routers);
            if (a == b)
                return fail(err, path, no, "a link from router %lld to itself", a);
            long long lat = 0;
            bool global = false;
            for (int i = 3; i < n; i++) {
                if (!strncmp(w[i], "latency=", 8) && number(w[i] + 8, 65535, &lat) && lat >= 1)
                    continue;
                if (!strcmp(w[i], "class=global") || !strcmp(w[i], "class=local")) {
                    global = w[i][6] == 'g';
                    continue;
                }
                return fail(err, path, no, "'%s': expected latency=L (L in [1, 65535]) or "
                            "class=local|global", w[i]);
            }
            if (add_edge(d, (uint32_t)a, (uint32_t)b, lat, lat, global))
                return saturn_error_set(err, SATURN_ENOMEM, "out of memory");
        } else {
            return fail(err, path, no, "'%s': expected routers, nodes or link", w[0]);
        }
    }
    if (nul)
        return fail(err, path, tl->no, "a NUL byte (is this a text file?)");
    if (!d->count)
        return fail(err, path, 0, "no 'routers R' line");
    uint64_t total = 0;
    for (uint32_t r = 0; r < d->routers; r++) {
        if (d->count[r] < 0)
            d->count[r] = all;
        total += (uint64_t)d->count[r];
    }
    if (total == 0)
        return fail(err, path, 0, "no nodes: add 'nodes all C' or 'nodes R C' lines");
    d->nodes = (uint32_t)total;
    d->node_rt = malloc(d->nodes * sizeof *d->node_rt);
    if (!d->node_rt)
        return saturn_error_set(err, SATURN_ENOMEM, "out of memory");
    uint32_t x = 0;
    for (uint32_t r = 0; r < d->routers; r++)
        for (int32_t j = 0; j < d->count[r]; j++)
            d->node_rt[x++] = r;
    return SATURN_OK;
}

/* anynet: one entry per ordered router pair; lat 0 = none given. */
struct pair {
    uint32_t a, b;
    uint16_t lat;
    int line;
};

/* By router pair (lower id, then higher), then direction, then line. */
static int pair_order(const void *x, const void *y)
{
    const struct pair *p = x, *q = y;
    uint32_t pa = p->a < p->b ? p->a : p->b, pb = p->a < p->b ? p->b : p->a;
    uint32_t qa = q->a < q->b ? q->a : q->b, qb = q->a < q->b ? q->b : q->a;
    if (pa != qa)
        return pa < qa ? -1 : 1;
    if (pb != qb)
        return pb < qb ? -1 : 1;
    if (p->a != q->a)
        return p->a < q->a ? -1 : 1;
    return p->line - q->line;
}

static int parse_anynet(struct text_lines *tl, const char *path, struct desc *d,
                        struct saturn_error *err)
{
    bool nul;
    struct pair *pr = NULL;
    size_t np = 0, cap = 0;
    int64_t *node_at = NULL; /* node -> router, -1 none */
    int *node_line = NULL;
    uint32_t nnodes = 0, maxr = 0;
    bool any_router = false;
    int rc = SATURN_OK;
    /* every node and router id is below this */
    const long long max_id = (1 << 22) - 1;
    for (char *p; rc == SATURN_OK && (p = text_next(tl, &nul));) {
        char *w[16];
        int n = words(p, w), no = tl->no;
        long long head, id, lat;
        if (n == 0)
            continue;
        bool head_router = !strcmp(w[0], "router");
        if ((!head_router && strcmp(w[0], "node")) || n < 2 || !number(w[1], max_id, &head)) {
            rc = fail(err, path, no, "expected 'router X ...' or 'node X ...' (anynet)");
            break;
        }
        if (head_router) {
            any_router = true;
            if ((uint32_t)head > maxr)
                maxr = (uint32_t)head;
        }
        for (int i = 2; i < n && rc == SATURN_OK; i++) {
            bool router = !strcmp(w[i], "router");
            if ((!router && strcmp(w[i], "node")) || i + 1 >= n ||
                !number(w[i + 1], max_id, &id)) {
                rc = fail(err, path, no, "'%s': expected 'router Y [latency]' or 'node Z'", w[i]);
                break;
            }
            i++;
            lat = 0;
            if (i + 1 < n && strcmp(w[i + 1], "router") && strcmp(w[i + 1], "node")) {
                if (!number(w[i + 1], 65535, &lat) || lat < 1) {
                    rc = fail(err, path, no, "'%s': a latency must be in [1, 65535]", w[i + 1]);
                    break;
                }
                i++;
            }
            if (!head_router && !router) {
                rc = fail(err, path, no, "node %lld connects to node %lld: nodes connect to "
                          "routers", head, id);
                break;
            }
            uint32_t r = (uint32_t)(head_router ? head : id);
            long long node = head_router ? id : head;
            if (r > maxr)
                maxr = r;
            if (router && head_router) { /* a link */
                if (head == id) {
                    rc = fail(err, path, no, "a link from router %lld to itself", head);
                    break;
                }
                if (np == cap) {
                    cap = cap ? 2 * cap : 64;
                    struct pair *q = realloc(pr, cap * sizeof *q);
                    if (!q) {
                        rc = saturn_error_set(err, SATURN_ENOMEM, "out of memory");
                        break;
                    }
                    pr = q;
                }
                pr[np++] = (struct pair){(uint32_t)head, (uint32_t)id, (uint16_t)lat, no};
                continue;
            }
            if ((uint32_t)node >= nnodes) { /* grow the node table */
                uint32_t nn = (uint32_t)node + 1 > 2 * nnodes ? (uint32_t)node + 1 : 2 * nnodes;
                int64_t *at = realloc(node_at, nn * sizeof *at);
                int *ln = at ? realloc(node_line, nn * sizeof *ln) : NULL;
                if (at)
                    node_at = at;
                if (!at || !ln) {
                    rc = saturn_error_set(err, SATURN_ENOMEM, "out of memory");
                    break;
                }
                node_line = ln;
                for (uint32_t k = nnodes; k < nn; k++)
                    node_at[k] = -1;
                nnodes = nn;
            }
            if (node_at[node] >= 0 && node_at[node] != (int64_t)r) {
                rc = fail(err, path, no, "node %lld is on router %lld (line %d) and router %u",
                          node, (long long)node_at[node], node_line[node], r);
                break;
            }
            node_at[node] = r;
            node_line[node] = no;
        }
    }
    if (rc == SATURN_OK && nul)
        rc = fail(err, path, tl->no, "a NUL byte (is this a text file?)");
    if (rc == SATURN_OK && !any_router)
        rc = fail(err, path, 0, "no 'router' line (anynet)");
    if (rc == SATURN_OK && maxr >= FILE_MAX_ROUTERS)
        rc = fail(err, path, 0, "router %u: at most %d routers", maxr, FILE_MAX_ROUTERS);
    uint32_t used = 0;
    for (uint32_t k = 0; rc == SATURN_OK && k < nnodes; k++)
        used = node_at[k] >= 0 ? k + 1 : used;
    for (uint32_t k = 0; rc == SATURN_OK && k < used; k++)
        if (node_at[k] < 0)
            rc = fail(err, path, 0, "node %u is missing: anynet numbers nodes from 0 without "
                      "gaps (%u nodes)", k, used);
    if (rc == SATURN_OK && used == 0)
        rc = fail(err, path, 0, "no nodes");
    if (rc == SATURN_OK) {
        d->routers = maxr + 1;
        d->nodes = used;
        d->node_rt = malloc(used * sizeof *d->node_rt);
        if (!d->node_rt)
            rc = saturn_error_set(err, SATURN_ENOMEM, "out of memory");
        for (uint32_t k = 0; rc == SATURN_OK && k < used; k++)
            d->node_rt[k] = (uint32_t)node_at[k];
    }
    /* one link per router pair, in the order of its first mention */
    if (rc == SATURN_OK && np)
        qsort(pr, np, sizeof *pr, pair_order);
    for (size_t i = 0; rc == SATURN_OK && i < np;) {
        uint32_t a = pr[i].a < pr[i].b ? pr[i].a : pr[i].b;
        uint32_t b = pr[i].a < pr[i].b ? pr[i].b : pr[i].a;
        uint16_t lab = 0, lba = 0;
        size_t j = i;
        for (; j < np && (pr[j].a == a || pr[j].b == a) && (pr[j].a == b || pr[j].b == b); j++) {
            uint16_t *lat = pr[j].a == a ? &lab : &lba;
            if (!*lat)
                *lat = pr[j].lat;
        }
        rc = add_edge(d, a, b, lab ? lab : lba, lba ? lba : lab, false);
        i = j;
    }
    free(pr);
    free(node_at);
    free(node_line);
    return rc;
}

/* Reads the file into d, with ports counted: radix (most links on a
 * router) and conc (most nodes). */
static int describe_file(const struct saturn_config *cfg, struct desc *d,
                         struct saturn_error *err)
{
    memset(d, 0, sizeof *d);
    const char *path = saturn_config_str(cfg, "file.path");
    if (!path[0])
        return saturn_config_fail(cfg, "file.path", err,
                                  "network.topology = file needs the graph's file "
                                  "(file.path; formats in docs/TOPOLOGIES.md)");
    struct text_lines tl;
    int e = text_open(&tl, path);
    if (e)
        return saturn_config_fail(cfg, "file.path", err, "cannot read: %s", strerror(e));
    int format = saturn_config_enum(cfg, "file.format");
    if (format == 0) { /* auto: the first word of the first statement */
        const char *p = tl.text;
        if ((unsigned char)p[0] == 0xef && (unsigned char)p[1] == 0xbb && (unsigned char)p[2] == 0xbf)
            p += 3;
        while (*p) {
            p += strspn(p, " \t\r\n");
            if (*p != '#')
                break;
            p += strcspn(p, "\r\n");
        }
        size_t w = strcspn(p, " \t\r\n#");
        format = (w == 6 && !strncmp(p, "router", 6)) || (w == 4 && !strncmp(p, "node", 4))
                     ? 2
                     : 1;
    }
    int rc = format == 2 ? parse_anynet(&tl, path, d, err) : parse_saturn(&tl, path, d, err);
    text_close(&tl);
    if (rc)
        return rc;
    int *deg = calloc(d->routers, sizeof *deg), *cnt = calloc(d->routers, sizeof *cnt);
    if (!deg || !cnt) {
        free(deg);
        free(cnt);
        return saturn_error_set(err, SATURN_ENOMEM, "out of memory");
    }
    for (size_t i = 0; i < d->ne; i++) {
        deg[d->e[i].a]++;
        deg[d->e[i].b]++;
    }
    for (uint32_t x = 0; x < d->nodes; x++)
        cnt[d->node_rt[x]]++;
    for (uint32_t r = 0; r < d->routers; r++) {
        if (deg[r] > d->radix)
            d->radix = deg[r];
        if (cnt[r] > d->conc)
            d->conc = cnt[r];
    }
    for (uint32_t r = 0; r < d->routers && rc == SATURN_OK; r++)
        if (deg[r] + d->conc > 64)
            rc = fail(err, path, 0, "router %u has %d links and the busiest router %d nodes: "
                      "saturn's routers have at most 64 ports (links of the busiest router + "
                      "nodes of the most loaded one)", r, deg[r], d->conc);
    free(deg);
    free(cnt);
    return rc;
}

static int file_size(const struct saturn_config *cfg, struct topo_size *s,
                     struct saturn_error *err)
{
    struct desc d;
    int rc = describe_file(cfg, &d, err);
    if (rc == SATURN_OK) {
        s->routers = d.routers;
        s->nodes = d.nodes;
        s->radix = d.radix;
        s->conc = d.conc;
        /* adjacency (5 bytes a port), latencies, and the distance table */
        s->words = (7 * d.radix + 3) / 4 + (int)(d.routers / 4) + 2;
    }
    desc_free(&d);
    return rc;
}

static int file_build(struct topo *t, const struct saturn_config *cfg,
                      struct saturn_error *err)
{
    struct desc d;
    int rc = describe_file(cfg, &d, err);
    if (rc) {
        desc_free(&d);
        return rc;
    }
    const char *path = saturn_config_str(cfg, "file.path");
    t->routers = d.routers;
    t->nodes = d.nodes;
    t->radix = d.radix > 0 ? d.radix : 1; /* a lone router: one unused port */
    t->conc = d.conc;
    const size_t R = d.routers;
    t->node_rt = malloc(d.nodes * sizeof *t->node_rt);
    t->node_lp = malloc(d.nodes);
    t->rt_node0 = calloc(R + 1, sizeof *t->rt_node0);
    t->rt_nodes = malloc(d.nodes * sizeof *t->rt_nodes);
    t->port_lat = calloc(R * (size_t)t->radix, sizeof *t->port_lat);
    t->adj_cls = calloc(R * (size_t)t->radix, 1);
    int *deg = calloc(R, sizeof *deg);
    if (!t->node_rt || !t->node_lp || !t->rt_node0 || !t->rt_nodes || !t->port_lat ||
        !t->adj_cls || !deg || graph_alloc(t)) {
        free(deg);
        desc_free(&d);
        return saturn_error_set(err, SATURN_ENOMEM, "out of memory (topology)");
    }
    /* nodes: router by router, in node order */
    for (uint32_t x = 0; x < d.nodes; x++)
        t->rt_node0[d.node_rt[x] + 1]++;
    for (size_t r = 0; r < R; r++)
        t->rt_node0[r + 1] += t->rt_node0[r];
    for (uint32_t x = 0; x < d.nodes; x++) {
        uint32_t r = d.node_rt[x];
        t->node_rt[x] = r;
        t->node_lp[x] = (uint8_t)deg[r];
        t->rt_nodes[t->rt_node0[r] + (uint32_t)deg[r]++] = x;
    }
    memset(deg, 0, R * sizeof *deg);
    for (size_t i = 0; i < d.ne; i++) {
        const struct edge *e = &d.e[i];
        int pa = deg[e->a]++, pb = deg[e->b]++;
        graph_connect(t, e->a, pa, e->b, pb);
        size_t ia = e->a * (size_t)t->radix + (size_t)pa, ib = e->b * (size_t)t->radix + (size_t)pb;
        t->port_lat[ia] = e->lat_ab;
        t->port_lat[ib] = e->lat_ba;
        t->adj_cls[ia] = t->adj_cls[ib] = e->global ? TOPO_GLOBAL : TOPO_LOCAL;
        if (e->lat_ab > t->max_latency)
            t->max_latency = e->lat_ab;
        if (e->lat_ba > t->max_latency)
            t->max_latency = e->lat_ba;
    }
    free(deg);
    desc_free(&d);
    t->global_vcs = (int)saturn_config_int(cfg, "file.global_vcs");
    t->global_buf = (uint32_t)saturn_config_int(cfg, "file.global_buf_flits");
    uint32_t from, to;
    rc = graph_bfs(t, &from, &to);
    if (rc == SATURN_ENOMEM)
        return saturn_error_set(err, rc, "out of memory (the distance table)");
    if (rc && to == TOPO_NONE)
        return fail(err, path, 0, "a shortest path from router %u is longer than 254 hops", from);
    if (rc)
        return fail(err, path, 0, "the graph is disconnected: router %u cannot reach router %u",
                    from, to);
    return SATURN_OK;
}

static void file_describe(const struct saturn_config *cfg, uint64_t nodes, char *buf,
                          size_t size)
{
    int at = snprintf(buf, size, "%s", saturn_config_str(cfg, "file.path"));
    if (nodes && at >= 0 && (size_t)at < size)
        snprintf(buf + at, size - (size_t)at, " (%llu nodes)", (unsigned long long)nodes);
}

const struct topo_ops topo_file_ops = {
    .name = "file",
    .kind = TOPO_FILE,
    .build = file_build,
    .size = file_size,
    .link = graph_link,
    .link_class = graph_link_class,
    .distance = graph_distance,
    .diameter = graph_diameter,
    .uniform_bound = graph_uniform_bound,
    .min_ports = graph_min_ports,
    .describe = file_describe,
};
