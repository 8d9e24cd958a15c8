/* saturn_sim: build, run the configured workload, collect results. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "control/metapacket.h"
#include "experiment/sim.h"
#include "experiment/workload.h"
#include "route/disha_lane.h"
#include "traffic/process.h"


/* sim.huge_pages and sim.vc_runs (net.c reads them in this order: enum huge_mode, runs_mode) */
static const char *const auto_on_off[] = {"auto", "on", "off", NULL};

const struct saturn_param sim_params[] = {
    {"sim.workload", SATURN_PARAM_ENUM, "steady", 0, 0, workload_names,
     "steady (Bernoulli load: warm-up, measure, drain), collective (N packets per node at "
     "cycle 0) ramp (load rising linearly; critical load ratio), phases (a sequence of "
     "rate/pattern phases: bursty load, phases.*) or trace (messages replayed from a file, "
     "with dependencies: trace.*)"},
    {"sim.seed", SATURN_PARAM_INT, "1", 0, 4.6e18, NULL,
     "random seed; a seed fixes the result bit for bit"},
    {"sim.watchdog", SATURN_PARAM_INT, "10000", 1, 1e12, NULL,
     "deadlock watchdog: stop when flits are in the network and none moved for this many cycles"},
    {"sim.threads", SATURN_PARAM_INT, "1", 1, 256, NULL,
     "threads that step this one network (routers split into blocks of 64, so at most one "
     "thread per 64 routers is used); the result is the same bit for bit for any number"},
    {"sim.block_cycles", SATURN_PARAM_INT, "16", 0, 1024, NULL,
     "step the routers in partitions of 64, each up to this many cycles in a row where no link "
     "or credit between two partitions is shorter (a large Dragonfly: its lines stay in the "
     "caches), the partitions shared among sim.threads threads; the result is the same bit for "
     "bit but for packet ids (0: cycle by cycle)"},
    {"sim.huge_pages", SATURN_PARAM_ENUM, "auto", 0, 0, auto_on_off,
     "ask the kernel (Linux's transparent huge pages) for 2 MiB pages for the network's arrays "
     "of 4 MiB or more, so that a large network's random accesses miss the TLB less: on, off, "
     "or auto (on when the routers' ports and VCs take 16 MiB or more: measured 4 % faster on "
     "paper 004's 16,512 nodes, up to 8 % slower on a 1,056-node Dragonfly); a speed hint only, "
     "the result is the same bit for bit either way"},
    {"sim.vc_runs", SATURN_PARAM_ENUM, "auto", 0, 0, auto_on_off,
     "keep the flits of a packet that arrive one after another at an empty input VC as a count "
     "instead of writing each into the VC's ring, so that a large network touches one line "
     "less per flit-hop: on, off, or auto (on when the routers' ports, VCs and rings take more "
     "than 2 MiB, a core's L2: measured 5.6-27 % faster from a 32x32 torus up, level to 5 % "
     "slower on smaller networks); a speed hint only, the result is the same bit for bit either "
     "way"},
    {"sim.check_invariants", SATURN_PARAM_BOOL, "false", 0, 0, NULL,
     "audit conservation and credit invariants every cycle (slow; always on in debug builds)"},
    {"sim.entropy_window", SATURN_PARAM_INT, "100", 1, 1e9, NULL,
     "cycles per packet-entropy window: E = mean log2(1 + hops made in the window) over the "
     "packets in the network for the whole window"},
    {"sim.generation_bin", SATURN_PARAM_INT, "10", 1, 1e12, NULL,
     "cycles of generation time per row of saturn run --by-generation PATH"},
    {"sim.series_interval", SATURN_PARAM_INT, "1", 1, 1e12, NULL,
     "cycles per row of the time series (saturn run --series PATH)"},
    {"sim.memory_check", SATURN_PARAM_BOOL, "true", 0, 0, NULL,
     "refuse up front (exit 2) a configuration whose memory estimate (saturn model prints it) "
     "exceeds the memory available to saturn (MemAvailable, the cgroup's limit, ulimit -v); "
     "false runs it anyway"},
    {"debug.allow_deadlock", SATURN_PARAM_BOOL, "false", 0, 0, NULL,
     "test only: accept configurations that can deadlock, to exercise the watchdog"},
    {NULL, 0, NULL, 0, 0, NULL, NULL}};

const char *saturn_version(void) { return SATURN_VERSION; }

double sim_clock(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void sim_on_deliver(void *user, struct net *n, uint32_t pid)
{
    struct saturn_sim *s = user;
    const struct packet *p = &n->pk[pid];
    if (n->now > s->last_delivery) /* (a block delivers out of cycle order) */
        s->last_delivery = n->now;
    s->lat_total += (double)(n->now - p->t_gen);
    s->lat_count++;
    if (s->gen_bin) {
        uint64_t b = p->t_gen / s->gen_bin;
        if (b >= s->ngen) {
            uint64_t cap = s->ngen ? s->ngen : 64;
            while (cap <= b)
                cap *= 2;
            struct sim_gen *g = realloc(s->gen, cap * sizeof *g);
            if (g) {
                memset(g + s->ngen, 0, (cap - s->ngen) * sizeof *g);
                s->gen = g;
                s->ngen = cap;
            }
        }
        if (b < s->ngen) {
            s->gen[b].packets++;
            s->gen[b].lat += (double)(n->now - p->t_gen);
            s->gen[b].global += (p->misroute & PACKET_MISROUTED_GLOBAL) != 0;
            s->gen[b].local += (p->misroute & PACKET_MISROUTED_LOCAL) != 0;
        }
    }
    if (s->by_delivery ? n->now < s->win_lo || n->now >= s->win_hi
                       : !p->measured && !s->count_all)
        return;
    hist_add(&s->lat, n->now - p->t_gen);
    hist_add(&s->netlat, n->now - p->t_inj);
    s->hops_sum += p->hops;
    s->mis_global += (p->misroute & PACKET_MISROUTED_GLOBAL) != 0;
    s->mis_local += (p->misroute & PACKET_MISROUTED_LOCAL) != 0;
}

int saturn_sim_record_generations(struct saturn_sim *s, uint64_t bin)
{
    if (!bin)
        return SATURN_EINPUT;
    s->gen_bin = bin;
    return SATURN_OK;
}

int sim_net_create(struct net *n, const struct saturn_config *cfg, uint64_t seed,
                   struct saturn_error *err)
{
    int rc = net_create(n, cfg, seed, err);
    if (!rc && n->meta_bit) /* net_create reserved the side VC for them */
        rc = metapacket_attach(n, cfg, err);
    return rc;
}

int saturn_sim_create(const struct saturn_config *cfg, struct saturn_sim **out,
                      struct saturn_error *err)
{
    *out = NULL;
    struct saturn_sim *s = calloc(1, sizeof *s);
    if (!s || !(s->cfg = saturn_config_clone(cfg))) {
        free(s);
        return saturn_error_set(err, SATURN_ENOMEM, "out of memory");
    }
    s->seed = (uint64_t)saturn_config_int(cfg, "sim.seed");
    int rc = sim_net_create(&s->net, s->cfg, s->seed, err);
    if (!rc)
        rc = pattern_init(&s->pat, s->cfg, &s->net.topo, s->seed, err);
    if (rc) {
        saturn_sim_free(s);
        return rc;
    }
    s->net.deliver = sim_on_deliver;
    s->net.deliver_user = s;
    hist_init(&s->lat);
    hist_init(&s->netlat);
    s->entropy_window = (uint64_t)saturn_config_int(cfg, "sim.entropy_window");
    s->series_interval = (uint64_t)saturn_config_int(cfg, "sim.series_interval");
    s->last_entropy = -1;
    /* progress reports about 2^18 router-cycles apart, a power of two apart */
    uint64_t every = 1;
    while (every * 2 * s->net.topo.routers <= (1u << 18))
        every *= 2;
    s->progress_mask = every - 1;
    s->stop_after = s->own_cut = UINT64_MAX;
    *out = s;
    return SATURN_OK;
}

void saturn_sim_set_progress(struct saturn_sim *s, saturn_progress_fn fn, void *user)
{
    s->progress = fn;
    s->progress_user = user;
}

size_t saturn_sim_nodes(const struct saturn_sim *s) { return s->net.nnodes; }

int saturn_sim_set_offsets(struct saturn_sim *s, const int64_t *offsets, size_t n)
{
    if (n != s->net.nnodes)
        return SATURN_EINPUT;
    free(s->offsets);
    s->offsets = malloc(n * sizeof *s->offsets);
    if (!s->offsets)
        return SATURN_ENOMEM;
    memcpy(s->offsets, offsets, n * sizeof *offsets);
    return SATURN_OK;
}

void saturn_sim_record_chart(struct saturn_sim *s) { s->chart = true; }

int sim_follow(struct saturn_sim *s, const struct saturn_config *const *cfgs, size_t n,
               uint64_t own, const uint64_t *cut, struct saturn_error *err)
{
    const struct ctl_ops *c = s->net.ctl;
    if (n && !c->follow)
        return saturn_error_set(err, SATURN_EINPUT,
                                "control.model = %s cannot run other configurations alongside",
                                c->name);
    int rc = n ? c->follow(s->net.ctl_state, cfgs, n, &s->net, err) : SATURN_OK;
    if (rc)
        return rc;
    s->nfollow = n;
    s->follow_cut = cut;
    s->own_cut = cut ? own : UINT64_MAX;
    s->stop_after = s->own_cut;
    for (size_t i = 0; cut && i < n; i++)
        if (cut[i] > s->stop_after)
            s->stop_after = cut[i];
    return SATURN_OK;
}

bool sim_attached(const struct saturn_sim *s, size_t i, uint64_t *left)
{
    const struct ctl_ops *c = s->net.ctl;
    return i < s->nfollow && c->attached && c->attached(s->net.ctl_state, i, left);
}

bool sim_cut_now(struct saturn_sim *s)
{
    uint64_t now = s->net.now;
    if (s->follow_cut && (now & 63) == 0 && s->stop_after >= now) {
        uint64_t m = s->own_cut;
        for (size_t i = 0; i < s->nfollow; i++)
            if (s->follow_cut[i] > m && sim_attached(s, i, NULL))
                m = s->follow_cut[i];
        s->stop_after = m;
    }
    return now > s->stop_after;
}

int saturn_sim_chart(const struct saturn_sim *s, struct saturn_link_trace *out)
{
    memset(out, 0, sizeof *out);
    const struct net_trace *t = s->net.trace;
    if (!t)
        return SATURN_EINPUT;
    out->links = t->links;
    out->cycles = t->rows;
    out->cell = malloc((size_t)t->rows * t->links + 1);
    out->router = malloc(t->links * sizeof *out->router + 1);
    out->port = malloc(t->links + 1);
    if (!out->cell || !out->router || !out->port) {
        saturn_link_trace_free(out);
        return SATURN_ENOMEM;
    }
    if (t->rows)
        memcpy(out->cell, t->cell, (size_t)t->rows * t->links);
    size_t nports = (size_t)s->net.topo.routers * s->net.P;
    for (size_t i = 0; i < nports; i++) {
        uint32_t l = t->link_of_port[i];
        if (l == NET_NONE)
            continue;
        out->router[l] = (uint32_t)(i / (size_t)s->net.P);
        out->port[l] = (uint8_t)(i % (size_t)s->net.P);
    }
    return SATURN_OK;
}

void saturn_sim_free(struct saturn_sim *s)
{
    if (!s)
        return;
    free(s->offsets);
    free(s->gen);
    free(s->ent_count);
    net_destroy(&s->net);
    pattern_free(&s->pat);
    saturn_config_free(s->cfg);
    free(s);
}

void saturn_sim_set_series(struct saturn_sim *s, uint64_t interval, saturn_series_fn fn,
                           void *user)
{
    s->series = fn;
    s->series_user = user;
    s->series_interval = interval ? interval : 1;
    memset(&s->sa, 0, sizeof s->sa);
}

void sim_accumulate(struct saturn_sim *s, bool on)
{
    s->acc_on = on;
    meta_count(&s->net, on); /* gather times over the same window */
}

/* Packet entropy (paper 000, eqs. 1-2) over the window that ends now:
 * the packets in the network for the whole window, each contributing
 * log2(1 + hops its head made in it); the 1 keeps blocked packets finite
 * (the paper's log2(dP) is -infinity for them). Then a new window opens.
 * The packets are counted by hops made and the terms summed by hops, so
 * that the sum does not depend on which packet has which id (a block of
 * cycles, net/block.c, gives its packets other ids than cycle by cycle). */
static void entropy_window_end(struct saturn_sim *s)
{
    struct net *n = &s->net;
    if (!s->ent_count && !(s->ent_count = calloc(UINT16_MAX + 1, sizeof *s->ent_count))) {
        fprintf(stderr, "saturn: out of memory (packet entropy)\n");
        abort();
    }
    uint32_t *by_hops = s->ent_count, most = 0;
    uint64_t count = 0;
    for (uint32_t i = 0; i < n->pk_cap; i++) {
        struct packet *p = &n->pk[i];
        if (!p->alive || !p->injected)
            continue;
        if (p->marked) {
            const uint16_t d = (uint16_t)(p->hops - p->hops_mark);
            by_hops[d]++;
            if (d > most)
                most = d;
            count++;
        }
        p->marked = 1;
        p->hops_mark = p->hops;
    }
    double sum = 0;
    if (count)
        for (uint32_t d = 0; d <= most; d++) {
            if (by_hops[d])
                sum += (double)by_hops[d] * log2(1.0 + (double)d);
            by_hops[d] = 0;
        }
    if (count) {
        s->last_entropy = sum / (double)count;
        if (s->acc_on) {
            s->acc_entropy += s->last_entropy;
            s->acc_windows++;
        }
    }
}

/* Bookkeeping after the cycle n->now - 1. */
static void after_cycle(struct saturn_sim *s)
{
    struct net *n = &s->net;
    uint64_t t = n->now - 1;
    double thr = n->ctl->throttled ? (double)n->ctl->throttled(n->ctl_state) : 0;
    if (s->acc_on) {
        s->acc_nv += (double)n->cyc_nv;
        s->acc_na += (double)n->cyc_na;
        s->acc_thr += thr;
        s->acc_cycles++;
    }
    if ((t + 1) % s->entropy_window == 0)
        entropy_window_end(s);
    if (!s->series && !s->series_decorate)
        return;
    struct series_acc *a = &s->sa;
    a->nv += (double)n->cyc_nv;
    a->na += (double)n->cyc_na;
    a->thr += thr;
    a->cycles++;
    if ((t + 1) % s->series_interval != 0)
        return;
    double nodes = (double)n->nnodes, c = (double)a->cycles;
    struct saturn_series_row row = {
        .cycle = t,
        .inflight = n->packets_in_net,
        .queued = n->queued_packets,
        .valid_per_router = a->nv / c / (double)n->topo.routers,
        .mobility = a->nv > 0 ? a->na / a->nv : 1.0,
        .throttled = a->thr / c / nodes,
        .accepted = (double)(n->flits_ejected - a->ejected0) / nodes / c,
        .offered = (double)(n->flits_generated - a->generated0) / nodes / c,
        .latency = s->lat_count > a->lat_count0
                       ? (s->lat_total - a->lat_total0) / (double)(s->lat_count - a->lat_count0)
                       : 0,
        .entropy = s->last_entropy,
        .nominal = -1,
        .smoothed_offered = -1,
        .smoothed_accepted = -1,
        .smoothed_latency = -1,
        .threshold = -1,
        .estimate = -1,
    };
    if (n->ctl->probe)
        n->ctl->probe(n->ctl_state, &row.threshold, &row.estimate);
    if (s->series_decorate)
        s->series_decorate(s, &row);
    if (s->series)
        s->series(s->series_user, &row);
    memset(a, 0, sizeof *a);
    a->ejected0 = n->flits_ejected;
    a->generated0 = n->flits_generated;
    a->lat_total0 = s->lat_total;
    a->lat_count0 = s->lat_count;
}

void sim_progress(struct saturn_sim *s, const char *phase, uint64_t done, uint64_t total,
                  const char *unit)
{
    if (!sim_progress_due(s))
        return;
    struct saturn_progress p = {.task = saturn_config_str(s->cfg, "sim.workload"),
                                .phase = phase, .cycle = s->net.now, .done = done,
                                .total = total, .unit = unit};
    s->progress(s->progress_user, &p);
}

void sim_progress_since(struct saturn_sim *s, uint64_t from, const char *phase, uint64_t done,
                        uint64_t total, const char *unit)
{
    if (!sim_progress_due_since(s, from))
        return;
    struct saturn_progress p = {.task = saturn_config_str(s->cfg, "sim.workload"),
                                .phase = phase, .cycle = s->net.now, .done = done,
                                .total = total, .unit = unit};
    s->progress(s->progress_user, &p);
}

static int step_failed(struct saturn_sim *s, int rc, struct saturn_error *err);

int sim_step(struct saturn_sim *s, struct saturn_error *err)
{
    int rc = net_step(&s->net);
    if (rc == SATURN_OK) {
        after_cycle(s);
        return rc;
    }
    return step_failed(s, rc, err);
}

uint32_t sim_block_len(const struct saturn_sim *s, uint64_t until)
{
    if (s->series || s->series_decorate)
        return 0;
    const uint64_t window_end = (s->net.now / s->entropy_window + 1) * s->entropy_window;
    return net_block_len(&s->net, window_end < until ? window_end : until);
}

int sim_block_run(struct saturn_sim *s, struct saturn_error *err)
{
    struct net *n = &s->net;
    const uint32_t len = n->blk_len;
    int rc = net_block_run(n);
    if (rc != SATURN_OK)
        return step_failed(s, rc, err);
    s->block_cycles += len;
    /* after_cycle for each of them: no controller, no series (net_block_plan, sim_block_len) */
    if (s->acc_on) {
        s->acc_nv += (double)n->cyc_nv;
        s->acc_na += (double)n->cyc_na;
        s->acc_cycles += len;
    }
    if (n->now % s->entropy_window == 0)
        entropy_window_end(s);
    return SATURN_OK;
}

static int step_failed(struct saturn_sim *s, int rc, struct saturn_error *err)
{
    if (rc == SATURN_EDEADLOCK) {
        char report[3500];
        net_deadlock_report(&s->net, report, sizeof report);
        return saturn_error_set(err, rc, "cycle %llu: %s",
                                (unsigned long long)s->net.now, report);
    }
    return saturn_error_set(err, rc, "internal error at cycle %llu: %s",
                            (unsigned long long)s->net.now, s->net.fail_msg);
}

void sim_finish(struct saturn_sim *s, struct saturn_results *r, double t0)
{
    const struct net *n = &s->net;
    r->seed = s->seed;
    r->nodes = n->nnodes;
    r->routers = n->topo.routers;
    r->cycles = n->now;
    hist_summary(&s->lat, &r->packet_latency);
    hist_summary(&s->netlat, &r->network_latency);
    r->hops_mean = s->lat.n ? s->hops_sum / (double)s->lat.n : 0;
    r->misrouted_global = s->lat.n ? (double)s->mis_global / (double)s->lat.n : 0;
    r->misrouted_local = s->lat.n ? (double)s->mis_local / (double)s->lat.n : 0;
    uint64_t last = s->ngen;
    while (last > 0 && s->gen[last - 1].packets == 0)
        last--;
    if (last && (r->gen = calloc(last, sizeof *r->gen))) {
        r->ngen = last;
        for (uint64_t b = 0; b < last; b++) {
            const struct sim_gen *g = &s->gen[b];
            double k = g->packets ? (double)g->packets : 1.0;
            r->gen[b] = (struct saturn_gen_row){b * s->gen_bin, g->packets, g->lat / k,
                                                (double)g->global / k, (double)g->local / k};
        }
    }
    r->hist = hist_buckets(&s->lat, &r->hist_n);
    r->mobility_mean = s->acc_nv > 0 ? s->acc_na / s->acc_nv : 1.0;
    r->valid_per_router = s->acc_cycles > 0 ? s->acc_nv / s->acc_cycles / (double)n->topo.routers : 0;
    r->throttled_mean = s->acc_cycles > 0 ? s->acc_thr / s->acc_cycles / (double)n->nnodes : 0;
    if (n->ctl->report)
        n->ctl->report(n->ctl_state, r);
    r->entropy_mean = s->acc_windows ? s->acc_entropy / (double)s->acc_windows : -1;
    r->wall_seconds = sim_clock() - t0;
    r->flit_hops = n->flit_hops;
    r->recoveries = disha_lane_count(n);
    r->recovery_busy = disha_lane_busy_cycles(n);
    r->metapackets = meta_stats(n, &r->gathers, &r->gather_min, &r->gather_mean, &r->gather_max);
    r->router_cycles = (uint64_t)n->topo.routers * n->now;
    r->threads = n->nthreads;
    r->block_cycles = s->block_cycles;
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) == 0)
        r->peak_rss_kb = ru.ru_maxrss;
}

int saturn_sim_run(struct saturn_sim *s, struct saturn_results *r,
                   struct saturn_error *err)
{
    memset(r, 0, sizeof *r);
    const struct workload *w = workload_get(workload_of(s->cfg));
    int rc = w->uses_traffic_process ? SATURN_OK
                                     : traffic_process_bernoulli_only(s->cfg, w->name, err);
    return rc ? rc : w->run(s, r, err);
}

int saturn_run(const struct saturn_config *cfg, struct saturn_results *res,
               struct saturn_error *err)
{
    struct saturn_sim *s;
    memset(res, 0, sizeof *res);
    int rc = saturn_sim_create(cfg, &s, err);
    if (rc)
        return rc;
    rc = saturn_sim_run(s, res, err);
    saturn_sim_free(s);
    return rc;
}
