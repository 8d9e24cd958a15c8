/* Entropy throttling (Yokota et al., paper 000): throttle a node's new
 * packets when the network's mobility ratio Ra = Na / Nv is low.
 *
 * Every cycle each node's throttle is updated from the sums its router
 * sees (global_sum.h), with Nr = number of routers and parameters in
 * percent:
 *   base(Rth, Rn)          Nv < Rn Nr: off; else on iff Ra < Rth   (Fig. 2)
 *   hyst(Ron, Roff, Rn)    Nv < Rn Nr: off; off -> on when Ra < Ron;
 *                          on -> off when Ra >= Roff                 (Fig. 3)
 *   gt.x(tG, Ron, Roff, Rn) hyst, plus a guard time: after a node puts the
 *                          tail of a packet into its injection channel at
 *                          cycle t it may not start another packet before
 *                          t + 1 + tG, whatever the throttle says
 *   gt.a(tG, ...)          the same with the guard drawn per packet,
 *                          uniformly from the integers 0..2tG
 * Ra is taken as 1 when Nv = 0 (nothing waits, nothing is congested).
 * Fig. 3 as printed reads "if on: if Ra < Ron then on; else if Ra > Roff
 * then off", which never changes state; the text (section 6.2: on when
 * Ra < Ron, released when Ra exceeds Roff, and hyst with Ron = Roff is
 * base) fixes the reading used here. Release at Ra >= Roff (not >) makes
 * hyst(R, R) exactly base(R) and lets Roff = 100 % release an empty
 * network (Ra = 1) even with Rn = 0, where "> 100 %" would never fire. */
#include <stdlib.h>
#include <string.h>

#include "control/control.h"
#include "control/entropy.h"
#include "control/global_sum.h"
#include "core/rng.h"
#include "net/net.h"

enum model { M_BASE, M_HYST, M_GTX, M_GTA };

struct entropy {
    enum model model;
    double ron, roff, rn; /* fractions; base: ron = roff = Rth */
    uint32_t tg;
    struct gsum sums;
    uint8_t *on;           /* per node */
    uint64_t *guard_until; /* per node: first cycle a new packet may start */
    struct rng *rng;       /* gt.a: per node */
    uint32_t nthrottled;
};

static const char *const info_names[] = {"ideal", "circuit", "vcc", NULL};

const struct saturn_param entropy_params[] = {
    {"entropy.rth", SATURN_PARAM_REAL, "90", 0, 100, NULL,
     "base: throttle when Ra < Rth (percent)"},
    {"entropy.ron", SATURN_PARAM_REAL, "70", 0, 100, NULL,
     "hyst, gt.x, gt.a: throttle on when Ra < Ron (percent)"},
    {"entropy.roff", SATURN_PARAM_REAL, "90", 0, 100, NULL,
     "hyst, gt.x, gt.a: throttle off when Ra >= Roff (percent)"},
    {"entropy.rn", SATURN_PARAM_REAL, "30", 0, 10000, NULL,
     "forced release: no throttling while Nv < Rn x routers (percent)"},
    {"entropy.tg", SATURN_PARAM_INT, "16", 0, 1000000, NULL,
     "gt.x: guard time after each packet (cycles); gt.a: mean guard time, drawn from 0..2tG"},
    {"entropy.info", SATURN_PARAM_ENUM, "circuit", 0, 0, info_names,
     "how routers learn Nv and Na: ideal (same cycle), circuit (dedicated reduction/broadcast, "
     "1 hop/cycle), vcc (the same on the data links, only when they are idle)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL}};

/* A model-specific key set for another model is a mistake worth naming. */
static int reject_unused(const struct saturn_config *cfg, const char *key, const char *model,
                         struct saturn_error *err)
{
    if (saturn_config_is_set(cfg, key))
        return saturn_config_fail(cfg, key, err, "is not a parameter of control.model = %s",
                                  model);
    return SATURN_OK;
}

static int entropy_init(void **state, const struct saturn_config *cfg, struct net *n,
                        struct saturn_error *err, enum model model)
{
    const char *name = saturn_config_str(cfg, "control.model");
    struct entropy *e = calloc(1, sizeof *e);
    if (!e)
        return saturn_error_set(err, SATURN_ENOMEM, "out of memory");
    *state = e;
    e->model = model;
    int rc = 0;
    if (model == M_BASE) {
        e->ron = e->roff = saturn_config_real(cfg, "entropy.rth") / 100.0;
        if ((rc = reject_unused(cfg, "entropy.ron", name, err)) ||
            (rc = reject_unused(cfg, "entropy.roff", name, err)))
            return rc;
    } else {
        e->ron = saturn_config_real(cfg, "entropy.ron") / 100.0;
        e->roff = saturn_config_real(cfg, "entropy.roff") / 100.0;
        if ((rc = reject_unused(cfg, "entropy.rth", name, err)))
            return rc;
    }
    if (model != M_GTX && model != M_GTA && (rc = reject_unused(cfg, "entropy.tg", name, err)))
        return rc;
    e->rn = saturn_config_real(cfg, "entropy.rn") / 100.0;
    e->tg = (uint32_t)saturn_config_int(cfg, "entropy.tg");
    enum gsum_mode mode = (enum gsum_mode)saturn_config_enum(cfg, "entropy.info");
    if (mode != GSUM_IDEAL && n->topo.kind != TOPO_TORUS)
        return saturn_config_fail(cfg, "entropy.info", err,
                                  "the entropy circuit is modelled on a torus (its rings); use "
                                  "ideal on a %s", n->topo.name);
    if ((rc = gsum_init(&e->sums, mode, n)))
        return saturn_error_set(err, rc, "out of memory");
    e->on = calloc(n->nnodes, 1);
    e->guard_until = calloc(n->nnodes, sizeof *e->guard_until);
    if (!e->on || !e->guard_until)
        return saturn_error_set(err, SATURN_ENOMEM, "out of memory");
    if (model == M_GTA) {
        e->rng = malloc(n->nnodes * sizeof *e->rng);
        if (!e->rng)
            return saturn_error_set(err, SATURN_ENOMEM, "out of memory");
        uint64_t seed = (uint64_t)saturn_config_int(cfg, "sim.seed");
        for (uint32_t i = 0; i < n->nnodes; i++)
            rng_seed(&e->rng[i], seed, RNG_STREAM_CONTROL + i);
    }
    return SATURN_OK;
}

static int init_base(void **s, const struct saturn_config *c, struct net *n, struct saturn_error *e) { return entropy_init(s, c, n, e, M_BASE); }
static int init_hyst(void **s, const struct saturn_config *c, struct net *n, struct saturn_error *e) { return entropy_init(s, c, n, e, M_HYST); }
static int init_gtx(void **s, const struct saturn_config *c, struct net *n, struct saturn_error *e) { return entropy_init(s, c, n, e, M_GTX); }
static int init_gta(void **s, const struct saturn_config *c, struct net *n, struct saturn_error *e) { return entropy_init(s, c, n, e, M_GTA); }

/* The throttle of one node given the sums its router sees (exported for tests). */
bool entropy_next_state(bool on, double nv, double na, double routers, double ron,
                        double roff, double rn)
{
    if (nv < rn * routers)
        return false;
    double ra = nv > 0 ? na / nv : 1.0;
    return on ? ra < roff : ra < ron;
}

static void entropy_observe(void *state, struct net *n)
{
    struct entropy *e = state;
    gsum_step(&e->sums, n);
    const double nr = (double)n->topo.routers;
    uint32_t count = 0;
    for (uint32_t i = 0; i < n->nnodes; i++) {
        struct gsum_pair s = gsum_seen(&e->sums, topo_node_router(&n->topo, i));
        bool on = entropy_next_state(e->on[i], (double)s.nv, (double)s.na, nr,
                                     e->ron, e->roff, e->rn);
        e->on[i] = on;
        count += on;
    }
    e->nthrottled = count;
}

static bool entropy_may_start(void *state, const struct net *n, uint32_t node)
{
    const struct entropy *e = state;
    return !e->on[node] && n->now >= e->guard_until[node];
}

static void entropy_packet_sent(void *state, const struct net *n, uint32_t node)
{
    struct entropy *e = state;
    if (e->model == M_GTX)
        e->guard_until[node] = n->now + 1 + e->tg;
    else if (e->model == M_GTA)
        e->guard_until[node] = n->now + 1 + rng_below(&e->rng[node], 2 * (uint64_t)e->tg + 1);
}

static uint32_t entropy_throttled(const void *state)
{
    return ((const struct entropy *)state)->nthrottled;
}

static void entropy_free(void *state)
{
    struct entropy *e = state;
    if (!e)
        return;
    gsum_free(&e->sums);
    free(e->on);
    free(e->guard_until);
    free(e->rng);
    free(e);
}

#define ENTROPY_OPS(var, str, initfn)                                                          \
    const struct ctl_ops var = {.name = str,                                                   \
                                .init = initfn,                                                \
                                .observe = entropy_observe,                                    \
                                .may_start = entropy_may_start,                                \
                                .packet_sent = entropy_packet_sent,                            \
                                .throttled = entropy_throttled,                                \
                                .free = entropy_free}

ENTROPY_OPS(ctl_base, "base", init_base);
ENTROPY_OPS(ctl_hyst, "hyst", init_hyst);
ENTROPY_OPS(ctl_gtx, "gt.x", init_gtx);
ENTROPY_OPS(ctl_gta, "gt.a", init_gta);
