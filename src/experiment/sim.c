/* saturn_sim: build, run the configured workload, collect results. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "experiment/sim.h"

static const char *const workload_names[] = {"steady", "collective", NULL};

const struct saturn_param sim_params[] = {
    {"sim.workload", SATURN_PARAM_ENUM, "steady", 0, 0, workload_names,
     "steady (Bernoulli load: warm-up, measure, drain) or collective (N packets per node at cycle 0)"},
    {"sim.seed", SATURN_PARAM_INT, "1", 0, 4.6e18, NULL,
     "random seed; a seed fixes the result bit for bit"},
    {"sim.watchdog", SATURN_PARAM_INT, "10000", 1, 1e12, NULL,
     "deadlock watchdog: stop when flits are in the network and none moved for this many cycles"},
    {"sim.check_invariants", SATURN_PARAM_BOOL, "false", 0, 0, NULL,
     "audit conservation and credit invariants every cycle (slow; always on in debug builds)"},
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

static void on_deliver(void *user, struct net *n, uint32_t pid)
{
    struct saturn_sim *s = user;
    const struct packet *p = &n->pk[pid];
    s->last_delivery = n->now;
    if (!p->measured && !s->count_all)
        return;
    hist_add(&s->lat, n->now - p->t_gen);
    hist_add(&s->netlat, n->now - p->t_inj);
    s->hops_sum += p->hops;
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
    int rc = net_create(&s->net, s->cfg, s->seed, err);
    if (!rc)
        rc = pattern_init(&s->pat, s->cfg, &s->net.topo, s->seed, err);
    if (rc) {
        saturn_sim_free(s);
        return rc;
    }
    s->net.deliver = on_deliver;
    s->net.deliver_user = s;
    hist_init(&s->lat);
    hist_init(&s->netlat);
    *out = s;
    return SATURN_OK;
}

void saturn_sim_set_progress(struct saturn_sim *s, saturn_progress_fn fn, void *user)
{
    s->progress = fn;
    s->progress_user = user;
}

void saturn_sim_free(struct saturn_sim *s)
{
    if (!s)
        return;
    net_destroy(&s->net);
    pattern_free(&s->pat);
    saturn_config_free(s->cfg);
    free(s);
}

void sim_progress(struct saturn_sim *s, const char *phase)
{
    if (s->progress && (s->net.now & 0xffff) == 0)
        s->progress(s->progress_user, s->net.now, phase);
}

int sim_step(struct saturn_sim *s, struct saturn_error *err)
{
    int rc = net_step(&s->net);
    if (rc == SATURN_OK)
        return rc;
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
    r->hist = hist_buckets(&s->lat, &r->hist_n);
    r->wall_seconds = sim_clock() - t0;
    r->flit_hops = n->flit_hops;
    r->router_cycles = (uint64_t)n->topo.routers * n->now;
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) == 0)
        r->peak_rss_kb = ru.ru_maxrss;
}

int saturn_sim_run(struct saturn_sim *s, struct saturn_results *r,
                   struct saturn_error *err)
{
    memset(r, 0, sizeof *r);
    switch (saturn_config_enum(s->cfg, "sim.workload")) {
    case 0:
        return steady_run(s, r, err);
    default:
        return collective_run(s, r, err);
    }
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
