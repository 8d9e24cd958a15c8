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
#include "core/order.h"
#include "core/params.h"
#include "core/rng.h"
#include "net/net.h"

enum model { M_BASE, M_HYST, M_GTX, M_GTA };

/* Followers (ctl_ops.follow): other threshold sets run alongside, one bit
 * each. The rule is monotone in every threshold, so per node and cycle
 * three binary searches over the sets' sorted distinct thresholds give the
 * masks of the sets for which Ra < Ron, Ra < Roff and Nv < Rn x routers;
 * the comparisons are the very ones entropy_next_state makes, so a
 * follower's bit is the throttle it would have. */
struct thresholds {
    size_t n;          /* distinct values, ascending */
    double *v;         /* compared as they are: Ra < v (ron, roff), Nv < v (rn x routers) */
    uint64_t *ge;      /* (n + 1) x words: followers whose value has rank >= k */
};

/* The ranks of one (Nv, Na) pair. Many nodes see the same pair in a cycle
 * (on the circuit, every router as far from the root), so follow_node
 * keeps the last pair of each of FOLLOW_MEMO slots: the ranks are a
 * function of the pair, and a hit gives exactly what the searches would. */
#define FOLLOW_MEMO 64
struct rank_memo {
    int64_t nv, na; /* nv < 0: empty */
    uint32_t on, off, rn;
};

struct followers {
    size_t n, words;
    struct thresholds on, off, rn;
    struct rank_memo memo[FOLLOW_MEMO];
    uint64_t *state;    /* nodes x words: throttle on */
    uint64_t *attached; /* words */
    uint32_t *live;     /* the words with an attached follower, ascending */
    size_t nlive;
    uint64_t *left;     /* per follower: the cycle it detached */
    /* per class: the cycle + 1 in which may_start last compared its
     * followers; the rest of that cycle a node of the class finds none that
     * differs (states change in observe, and only the differing ones left) */
    uint64_t *compared;
};

struct entropy {
    enum model model;
    double ron, roff, rn; /* fractions; base: ron = roff = Rth */
    uint32_t tg;
    struct gsum sums;
    uint8_t *on;           /* per class (below): throttle on */
    uint64_t *guard_until; /* per node: first cycle the guard lets a new packet start */
    /* per node: on ? UINT64_MAX : guard_until, the first cycle may_start
     * says yes; published as the net's gate (n->ctl_gate) while no
     * follower is attached, so that a node's question costs a comparison */
    uint64_t *gate;
    struct rng *rng;       /* gt.a: per node */
    uint32_t nthrottled;
    struct followers *fl;  /* NULL: none */
    /* Nodes whose throttles always agree keep one state, a class's. On the
     * circuit by lags (gsum's lag path) every node at one lag sees the same
     * sums from the same start (unthrottled), so its throttle, and every
     * follower's, is its lag's: classes are lags. Otherwise a class is a
     * node. */
    uint32_t ncls;
    uint32_t *cls;       /* per node: its class (NULL: the node itself) */
    uint32_t *cls_first; /* per class and one more: its first node in cls_list */
    uint32_t *cls_list;  /* the nodes, class by class */
};

static inline uint32_t class_of(const struct entropy *e, uint32_t node)
{
    return e->cls ? e->cls[node] : node;
}

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
    e->ncls = n->nnodes;
    if (e->sums.lag) {
        e->ncls = e->sums.lag_max + 1;
        e->cls = malloc(n->nnodes * sizeof *e->cls);
        e->cls_first = malloc((e->ncls + 1) * sizeof *e->cls_first);
        e->cls_list = malloc(n->nnodes * sizeof *e->cls_list);
        if (!e->cls || !e->cls_first || !e->cls_list)
            return saturn_error_set(err, SATURN_ENOMEM, "out of memory");
        for (uint32_t i = 0; i < n->nnodes; i++)
            e->cls[i] = e->sums.lag[topo_node_router(&n->topo, i)];
        order_by_key(e->cls, n->nnodes, e->ncls, e->cls_first, e->cls_list);
    }
    e->on = calloc(e->ncls, 1);
    e->guard_until = calloc(n->nnodes, sizeof *e->guard_until);
    e->gate = calloc(n->nnodes, sizeof *e->gate); /* unthrottled, no guard */
    if (!e->on || !e->guard_until || !e->gate)
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

/* The number of values of t that x is not below: x < t->v[k] holds exactly
 * for k >= the result (t->v ascending, the comparison monotone). */
static size_t rank_below(const struct thresholds *t, double x)
{
    size_t lo = 0, hi = t->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (x < t->v[mid])
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

/* Every attached follower's throttle at one node, as entropy_next_state
 * (only the words that hold one: a detached follower's bits are never read).
 * Returns the attached followers whose throttle differs from on, the
 * run's. */
static uint64_t follow_node(struct followers *f, uint64_t *st, int64_t snv, int64_t sna,
                            bool on_run)
{
    struct rank_memo *m =
        &f->memo[((uint64_t)snv * 0x9E3779B97F4A7C15ull ^ (uint64_t)sna) % FOLLOW_MEMO];
    if (m->nv != snv || m->na != sna) {
        double nv = (double)snv, na = (double)sna;
        double ra = nv > 0 ? na / nv : 1.0;
        m->nv = snv;
        m->na = sna;
        m->on = (uint32_t)rank_below(&f->on, ra);
        m->off = (uint32_t)rank_below(&f->off, ra);
        /* Nv < Rn x routers (released) for the sets of rank >= k */
        m->rn = (uint32_t)rank_below(&f->rn, nv);
    }
    const uint64_t *on = f->on.ge + m->on * f->words;
    const uint64_t *off = f->off.ge + m->off * f->words;
    const uint64_t *rel = f->rn.ge + m->rn * f->words;
    const uint64_t flip = on_run ? ~0ULL : 0; /* st ^ flip: differs from the run's */
    uint64_t differ = 0;
    for (size_t j = 0; j < f->nlive; j++) {
        size_t w = f->live[j];
        st[w] = ~rel[w] & ((st[w] & off[w]) | (~st[w] & on[w]));
        differ |= f->attached[w] & (st[w] ^ flip);
    }
    return differ;
}

/* The gate of a node from its class's throttle and its guard. */
static inline void gate_node(struct entropy *e, uint32_t node, bool on)
{
    e->gate[node] = on ? UINT64_MAX : e->guard_until[node];
}

/* Class c's throttle has just changed (to on): its nodes' gates. */
static void gate_class(struct entropy *e, uint32_t c, bool on)
{
    if (!e->cls) {
        gate_node(e, c, on);
        return;
    }
    const uint32_t *k = e->cls_list + e->cls_first[c], *end = e->cls_list + e->cls_first[c + 1];
    if (on) /* a class may turn on and off every cycle (Ron > Roff): two plain loops */
        for (; k < end; k++)
            e->gate[*k] = UINT64_MAX;
    else
        for (; k < end; k++)
            e->gate[*k] = e->guard_until[*k];
}

static void entropy_observe(void *state, struct net *n)
{
    struct entropy *e = state;
    gsum_step(&e->sums, n);
    const double nr = (double)n->topo.routers;
    uint32_t count = 0;
    bool follow = e->fl && e->fl->nlive;
    uint64_t differ = 0;
    for (uint32_t c = 0; c < e->ncls; c++) {
        struct gsum_pair s = e->cls ? gsum_seen_at_lag(&e->sums, c)
                                    : gsum_seen(&e->sums, topo_node_router(&n->topo, c));
        bool on = entropy_next_state(e->on[c], (double)s.nv, (double)s.na, nr,
                                     e->ron, e->roff, e->rn);
        if (on != e->on[c])
            gate_class(e, c, on);
        e->on[c] = on;
        count += on ? (e->cls ? e->cls_first[c + 1] - e->cls_first[c] : 1) : 0;
        if (follow)
            differ |= follow_node(e->fl, e->fl->state + (size_t)c * e->fl->words, s.nv, s.na,
                                  on);
    }
    e->nthrottled = count;
    /* An attached follower that differs leaves in may_start (it is called).
     * With none, no one can leave this cycle (states change only here) and
     * may_start's answer is the gate's. */
    n->ctl_gate = differ ? NULL : e->gate;
}

static bool entropy_may_start(void *state, const struct net *n, uint32_t node)
{
    struct entropy *e = state;
    if (n->now < e->guard_until[node])
        return false; /* the guard is every follower's too */
    /* A follower deciding otherwise leaves the run here, unless the node
     * could not start a packet anyway (no injection VC can take it). */
    const uint32_t c = class_of(e, node);
    if (e->fl && e->fl->nlive && e->fl->compared[c] != n->now + 1 && net_can_start(n, node)) {
        struct followers *f = e->fl;
        f->compared[c] = n->now + 1;
        const uint64_t *st = f->state + (size_t)c * f->words;
        size_t kept = 0;
        for (size_t j = 0; j < f->nlive; j++) {
            size_t w = f->live[j];
            uint64_t differ = f->attached[w] & (e->on[c] ? ~st[w] : st[w]);
            f->attached[w] &= ~differ;
            for (; differ; differ &= differ - 1)
                f->left[w * 64 + (size_t)__builtin_ctzll(differ)] = n->now;
            if (f->attached[w])
                f->live[kept++] = (uint32_t)w;
        }
        f->nlive = kept;
    }
    return !e->on[c];
}

static void entropy_packet_sent(void *state, const struct net *n, uint32_t node)
{
    struct entropy *e = state;
    if (e->model == M_GTX)
        e->guard_until[node] = n->now + 1 + e->tg;
    else if (e->model == M_GTA)
        e->guard_until[node] = n->now + 1 + rng_below(&e->rng[node], 2 * (uint64_t)e->tg + 1);
    else
        return;
    gate_node(e, node, e->on[class_of(e, node)]);
}

static void entropy_report(const void *state, struct saturn_results *r)
{
    const struct gsum *g = &((const struct entropy *)state)->sums;
    r->sums_age_mean = g->age_n ? g->age_sum / (double)g->age_n : 0;
    r->sums_age_max = g->age_max;
    r->sums_hops_free = g->hops_tried ? (double)g->hops_made / (double)g->hops_tried : 1;
}

static uint32_t entropy_throttled(const void *state)
{
    return ((const struct entropy *)state)->nthrottled;
}

static void thresholds_free(struct thresholds *t)
{
    free(t->v);
    free(t->ge);
}

static void followers_free(struct followers *f)
{
    if (!f)
        return;
    thresholds_free(&f->on);
    thresholds_free(&f->off);
    thresholds_free(&f->rn);
    free(f->state);
    free(f->attached);
    free(f->live);
    free(f->left);
    free(f->compared);
    free(f);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Distinct values of x (n of them) and the rank masks. */
static int thresholds_build(struct thresholds *t, const double *x, size_t n, size_t words)
{
    t->v = malloc(n * sizeof *t->v);
    if (!t->v)
        return SATURN_ENOMEM;
    memcpy(t->v, x, n * sizeof *x);
    qsort(t->v, n, sizeof *t->v, cmp_double);
    t->n = 0;
    for (size_t i = 0; i < n; i++)
        if (t->n == 0 || t->v[t->n - 1] != t->v[i])
            t->v[t->n++] = t->v[i];
    t->ge = calloc((t->n + 1) * words, sizeof *t->ge);
    if (!t->ge)
        return SATURN_ENOMEM;
    for (size_t i = 0; i < n; i++) {
        size_t r = 0;
        while (t->v[r] != x[i])
            r++;
        for (size_t k = 0; k <= r; k++)
            t->ge[k * words + i / 64] |= 1ULL << (i % 64);
    }
    return SATURN_OK;
}

/* The keys in which a follower may differ (ctl_ops.follow_keys), in the
 * order threshold_keys_find reads them. */
static const char *const follow_keys[] = {"entropy.rth", "entropy.ron", "entropy.roff",
                                          "entropy.rn", NULL};

/* The registry indices of the keys a follower's thresholds are read from:
 * looked up once for all the followers (a lookup by name walks the registry). */
struct threshold_keys {
    size_t model, rth, ron, roff, rn;
};

static bool threshold_keys_find(struct threshold_keys *k)
{
    long i[5] = {params_index("control.model")};
    for (int j = 0; j < 4; j++)
        i[j + 1] = params_index(follow_keys[j]);
    for (int j = 0; j < 5; j++)
        if (i[j] < 0)
            return false;
    *k = (struct threshold_keys){(size_t)i[0], (size_t)i[1], (size_t)i[2], (size_t)i[3],
                                 (size_t)i[4]};
    return true;
}

/* The thresholds of a configuration as this controller holds them. */
static void model_thresholds(const struct saturn_config *c, const struct threshold_keys *k,
                             double *ron, double *roff, double *rn)
{
    if (!strcmp(config_str_at(c, k->model), "base")) {
        *ron = *roff = config_real_at(c, k->rth) / 100.0;
    } else {
        *ron = config_real_at(c, k->ron) / 100.0;
        *roff = config_real_at(c, k->roff) / 100.0;
    }
    *rn = config_real_at(c, k->rn) / 100.0;
}

static int entropy_follow(void *state, const struct saturn_config *const *cfgs, size_t n,
                          const struct net *net, struct saturn_error *err)
{
    struct entropy *e = state;
    followers_free(e->fl);
    e->fl = NULL;
    if (n == 0)
        return SATURN_OK;
    struct threshold_keys keys;
    if (!threshold_keys_find(&keys))
        return saturn_error_set(err, SATURN_EINPUT, "internal error: no entropy thresholds");
    struct followers *f = calloc(1, sizeof *f);
    double *x = malloc(3 * n * sizeof *x);
    int rc = f && x ? SATURN_OK : SATURN_ENOMEM;
    if (!rc) {
        f->n = n;
        f->words = (n + 63) / 64;
        for (size_t i = 0; i < n; i++) {
            model_thresholds(cfgs[i], &keys, &x[i], &x[n + i], &x[2 * n + i]);
            x[2 * n + i] *= (double)net->topo.routers; /* as entropy_next_state's rn * routers */
        }
        f->state = calloc((size_t)e->ncls * f->words, sizeof *f->state); /* per class */
        f->attached = calloc(f->words, sizeof *f->attached);
        f->live = malloc(f->words * sizeof *f->live);
        f->left = calloc(n, sizeof *f->left);
        f->compared = calloc(e->ncls, sizeof *f->compared);
        if (!f->state || !f->attached || !f->live || !f->left || !f->compared ||
            thresholds_build(&f->on, x, n, f->words) ||
            thresholds_build(&f->off, x + n, n, f->words) ||
            thresholds_build(&f->rn, x + 2 * n, n, f->words))
            rc = SATURN_ENOMEM;
    }
    free(x);
    if (rc) {
        followers_free(f);
        return saturn_error_set(err, rc, "out of memory");
    }
    for (size_t i = 0; i < n; i++)
        f->attached[i / 64] |= 1ULL << (i % 64);
    for (size_t w = 0; w < f->words; w++)
        f->live[f->nlive++] = (uint32_t)w;
    for (size_t k = 0; k < FOLLOW_MEMO; k++)
        f->memo[k].nv = -1;
    /* every class starts unthrottled, as e->on */
    e->fl = f;
    return SATURN_OK;
}

static bool entropy_attached(const void *state, size_t i, uint64_t *left)
{
    const struct followers *f = ((const struct entropy *)state)->fl;
    if (!f || i >= f->n)
        return false;
    bool on = f->attached[i / 64] >> (i % 64) & 1;
    if (left)
        *left = on ? 0 : f->left[i];
    return on;
}

static void entropy_free(void *state)
{
    struct entropy *e = state;
    if (!e)
        return;
    followers_free(e->fl);
    gsum_free(&e->sums);
    free(e->on);
    free(e->cls);
    free(e->cls_first);
    free(e->cls_list);
    free(e->gate);
    free(e->guard_until);
    free(e->rng);
    free(e);
}

/* base(Rth, Rn) is hyst(Rth, Rth, Rn): the shared runs' key reads base as hyst. */
#define ENTROPY_OPS(var, str, initfn, as)                                                      \
    const struct ctl_ops var = {.name = str,                                                   \
                                .init = initfn,                                                \
                                .observe = entropy_observe,                                    \
                                .may_start = entropy_may_start,                                \
                                .packet_sent = entropy_packet_sent,                            \
                                .throttled = entropy_throttled,                                \
                                .report = entropy_report,                                      \
                                .follow = entropy_follow,                                      \
                                .attached = entropy_attached,                                  \
                                .follow_keys = follow_keys,                                    \
                                .share_as = as,                                                \
                                .free = entropy_free}

ENTROPY_OPS(ctl_base, "base", init_base, "hyst");
ENTROPY_OPS(ctl_hyst, "hyst", init_hyst, NULL);
ENTROPY_OPS(ctl_gtx, "gt.x", init_gtx, NULL);
ENTROPY_OPS(ctl_gta, "gt.a", init_gta, NULL);
