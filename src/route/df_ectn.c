/* Explicit Contention Notification (paper 004, III-D): Base's local
 * counters (ectn.threshold) for in-transit decisions, plus per router a
 * partial array with one counter per global link of its group, counting
 * the packets at the front of its injection queues and global input
 * queues whose destination is in another group, for the global link of
 * their minimal path out of this group, until their tail leaves the
 * queue. Every ectn.period cycles the routers broadcast their partial
 * arrays within the group; ectn.delay cycles later every router's
 * combined array is their sum. At injection a packet for another group is
 * misrouted globally when the combined counter of its minimal global link
 * reaches (contention.trigger) ectn.combined_threshold, through a random
 * available global link of the current router whose combined counter is
 * under it; else, and in transit, by Base's rule on the local counters. Paths and VCs of the
 * OLM family (dragonfly.h). The broadcast's own traffic is not simulated
 * (nor in the paper). */
#include <stdlib.h>
#include <string.h>

#include "route/contention.h"
#include "route/dragonfly.h"

static const char *const injection_names[] = {"combined", "either", NULL};

const struct saturn_param route_ectn_params[] = {
    {"ectn.threshold", SATURN_PARAM_INT, "6", 0, 65535, NULL,
     "ectn: in-transit misrouting when the minimal output's local counter exceeds this"},
    {"ectn.combined_threshold", SATURN_PARAM_INT, "10", 0, 65535, NULL,
     "ectn: misrouting at injection when the minimal global link's combined counter exceeds "
     "this"},
    {"ectn.period", SATURN_PARAM_INT, "100", 1, 1000000, NULL,
     "ectn: cycles between broadcasts of the partial arrays"},
    {"ectn.injection", SATURN_PARAM_ENUM, "combined", 0, 0, injection_names,
     "ectn: at the source router, misroute by the combined counters only (combined: the "
     "paper's 'for subsequent hops, the original counters from Base are used') or by them or "
     "the local counters (either: FOGSim's CA_REMOTE)"},
    {"ectn.delay", SATURN_PARAM_INT, "0", 0, 1000000, NULL,
     "ectn: cycles from a broadcast to the combined arrays using it (less than ectn.period)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL}};


static int ectn_init(void **state, const struct saturn_config *cfg, const struct net *n,
                     struct saturn_error *err)
{
    struct df_ectn *s = calloc(1, sizeof *s);
    if (!s)
        return saturn_error_set(err, SATURN_ENOMEM, "out of memory");
    *state = s;
    const struct topo *t = &n->topo;
    s->th = (unsigned)saturn_config_int(cfg, "ectn.threshold");
    s->thc = (unsigned)saturn_config_int(cfg, "ectn.combined_threshold");
    s->period = (uint64_t)saturn_config_int(cfg, "ectn.period");
    s->delay = (uint64_t)saturn_config_int(cfg, "ectn.delay");
    df_opts_read(cfg, n, &s->o);
    s->either = saturn_config_enum(cfg, "ectn.injection") == 1;
    if (t->kind == TOPO_DRAGONFLY && s->delay >= s->period)
        return saturn_config_fail(cfg, "ectn.delay", err,
                                  "must be less than ectn.period = %llu cycles",
                                  (unsigned long long)s->period);
    s->links = (uint32_t)(t->a * t->h);
    size_t nvc = (size_t)t->routers * (size_t)n->P * (size_t)n->V;
    s->partial = calloc((size_t)t->routers * s->links, sizeof *s->partial);
    s->pending = calloc((size_t)t->groups * s->links, sizeof *s->pending);
    s->combined = calloc((size_t)t->groups * s->links, sizeof *s->combined);
    s->held = malloc(nvc * sizeof *s->held);
    if (!s->partial || !s->pending || !s->combined || !s->held || contention_init(&s->cc, n))
        return saturn_error_set(err, SATURN_ENOMEM, "out of memory (ECtN counters)");
    for (size_t i = 0; i < nvc; i++)
        s->held[i] = -1;
    return df_check(cfg, n, 3, 2, "ectn", err);
}

static void ectn_free(void *state)
{
    struct df_ectn *s = state;
    if (s) {
        contention_free(&s->cc);
        free(s->partial);
        free(s->pending);
        free(s->combined);
        free(s->held);
    }
    free(s);
}

/* Broadcast: sum the group's partial arrays; apply it delay cycles later. */
static void ectn_cycle(void *state, const struct net *n)
{
    struct df_ectn *s = state;
    const struct topo *t = &n->topo;
    uint64_t phase = n->now % s->period;
    if (phase == 0) {
        memset(s->pending, 0, (size_t)t->groups * s->links * sizeof *s->pending);
        for (uint32_t r = 0; r < t->routers; r++) {
            uint16_t *sum = s->pending + (size_t)df_group(t, r) * s->links;
            const uint16_t *part = s->partial + (size_t)r * s->links;
            for (uint32_t k = 0; k < s->links; k++)
                sum[k] = (uint16_t)(sum[k] + part[k]);
        }
    }
    if (phase == s->delay)
        memcpy(s->combined, s->pending, (size_t)t->groups * s->links * sizeof *s->combined);
}

static void ectn_route(void *state, const struct net *n, uint32_t r, int in_port, int in_vc,
                       struct packet *p, struct route_result *out)
{
    struct df_ectn *s = state;
    const struct topo *t = &n->topo;
    struct df_plan plan;
    df_plan(n, &s->o, r, in_port, in_vc, p, &plan);
    const bool injected = in_port >= t->radix;
    size_t hi = ((size_t)r * (size_t)n->P + (size_t)in_port) * (size_t)n->V + (size_t)in_vc;
    if (plan.min_link != NET_NONE && s->held[hi] < 0 &&
        (injected || topo_port_class(t, in_port) == TOPO_GLOBAL)) {
        s->held[hi] = (int32_t)plan.min_link; /* once per head, however often routed */
        s->partial[(size_t)r * s->links + plan.min_link]++;
    }
    /* In transit Base's local counters; at the source router the combined
     * ones (ectn.injection = either: also the local ones, FOGSim's CA_REMOTE) */
    const bool at_source = injected && plan.global;
    int choice = -1;
    if (!at_source || s->either)
        choice = df_contention_choice(&s->cc, &s->o, n, r, in_port, in_vc, p, &plan, s->th);
    else if (plan.min_port >= 0)
        contention_add(&s->cc, r, in_port, in_vc, plan.min_port);
    const uint16_t *comb = s->combined + (size_t)df_group(t, r) * s->links;
    if (choice < 0 && at_source && df_fires(&s->o, comb[plan.min_link], s->thc)) {
        bool ok[64];
        uint32_t k0 = (uint32_t)df_index(t, r) * (uint32_t)t->h;
        for (int i = 0; i < plan.nopt; i++)
            ok[i] = comb[k0 + (uint32_t)(plan.opt[i].port - (t->a - 1))] < s->thc &&
                    (!s->o.room || df_cand_open(n, r, &plan.opt[i], p->len));
        choice = df_pick(&n->router_rng[r], ok, plan.nopt);
    }
    df_apply(n, r, &plan, choice, p, out);
}

static void ectn_tail(void *state, const struct net *n, uint32_t r, int in_port, int in_vc,
                      const struct packet *p)
{
    struct df_ectn *s = state;
    contention_remove(&s->cc, r, in_port, in_vc);
    size_t i = ((size_t)r * (size_t)n->P + (size_t)in_port) * (size_t)n->V + (size_t)in_vc;
    if (s->held[i] >= 0) {
        s->partial[(size_t)r * s->links + (size_t)s->held[i]]--;
        s->held[i] = -1;
    }
}

const struct route_ops route_df_ectn = {.name = "ectn",
                                        .init = ectn_init,
                                        .at_source = df_inflight_init,
                                        .route = ectn_route,
                                        .tail_left = ectn_tail,
                                        .cycle = ectn_cycle,
                                        .free = ectn_free,
                                        .dragonfly = true, .local_vcs = 3, .reroute = true};
