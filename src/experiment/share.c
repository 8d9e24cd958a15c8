/* Co-simulation of parameter sets (saturn_run_shared).
 *
 * Runs that differ only in an injection controller's thresholds are the
 * same run until the first gate decision on which they differ: the
 * controller touches the network only through may_start. One run is
 * simulated (the leader, the first unresolved configuration) while the
 * controller follows every other one along it (ctl_ops.follow); those still
 * attached at the end had every decision the leader had, so their run is
 * the leader's, bit for bit. The detached ones are run again the same way,
 * until none is left: one simulation per distinct run.
 *
 * Which keys may differ: entropy.rth, entropy.ron, entropy.roff and
 * entropy.rn, with base(Rth, Rn) taken as hyst(Rth, Rth, Rn) (the same
 * rule, src/control/entropy.c). Everything else, the guard time and the
 * way sums travel included, must be equal. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/params.h"
#include "experiment/sim.h"

static const char *const threshold_keys[] = {"entropy.rth", "entropy.ron", "entropy.roff",
                                             "entropy.rn"};

/* The registry indices the key needs, looked up once for many configurations. */
struct key_spec {
    size_t np;     /* saturn_param_count() */
    size_t model;  /* control.model */
    size_t thr[4]; /* threshold_keys */
};

static bool key_spec_find(struct key_spec *k)
{
    long m = params_index("control.model");
    k->np = saturn_param_count();
    k->model = (size_t)m;
    for (size_t t = 0; t < 4; t++) {
        long i = params_index(threshold_keys[t]);
        if (i < 0)
            return false;
        k->thr[t] = (size_t)i;
    }
    return m >= 0;
}

static bool is_threshold(const struct key_spec *k, size_t i)
{
    return i == k->thr[0] || i == k->thr[1] || i == k->thr[2] || i == k->thr[3];
}

static bool follows(const char *model)
{
    return !strcmp(model, "base") || !strcmp(model, "hyst") || !strcmp(model, "gt.x") ||
           !strcmp(model, "gt.a");
}

/* Parameter i's value as the key reads it: base as hyst. */
static const char *key_value(const struct saturn_config *c, const struct key_spec *k, size_t i)
{
    const char *v = config_str_at(c, i);
    return i == k->model && !strcmp(v, "base") ? "hyst" : v;
}

/* A hash of every value but the thresholds, base as hyst; 0 when the
 * controller cannot follow. Configurations that may share a run have the
 * same hash; same_key tells whether they do (a hash says nothing alone). */
static uint64_t key_hash(const struct saturn_config *c, const struct key_spec *k)
{
    if (!follows(config_str_at(c, k->model)))
        return 0;
    uint64_t h = 1469598103934665603ull; /* FNV-1a, 0x1f after each value */
    for (size_t i = 0; i < k->np; i++) {
        if (is_threshold(k, i))
            continue;
        for (const char *p = key_value(c, k, i); *p; p++)
            h = (h ^ (unsigned char)*p) * 1099511628211ull;
        h = (h ^ 0x1f) * 1099511628211ull;
    }
    return h ? h : 1;
}

/* Whether a and b (both with a nonzero key_hash) have every value but the
 * thresholds equal, base as hyst: their runs are one until a gate decision. */
static bool same_key(const struct saturn_config *a, const struct saturn_config *b,
                     const struct key_spec *k)
{
    for (size_t i = 0; i < k->np; i++)
        if (!is_threshold(k, i) && strcmp(key_value(a, k, i), key_value(b, k, i)))
            return false;
    return true;
}

uint64_t saturn_share_key(const struct saturn_config *c)
{
    struct key_spec k;
    return key_spec_find(&k) ? key_hash(c, &k) : 0;
}

bool saturn_share_same(const struct saturn_config *a, const struct saturn_config *b)
{
    struct key_spec k;
    return key_spec_find(&k) && follows(config_str_at(a, k.model)) &&
           follows(config_str_at(b, k.model)) && same_key(a, b, &k);
}

/* One leader with its followers; the detached ones are left in *rest. */
static int run_leader(const struct saturn_config *const *cfgs, const uint64_t *cutoff,
                      size_t *idx, size_t n, size_t *rest, size_t *nrest,
                      const struct saturn_config **fcfg, uint64_t *fcut, saturn_shared_fn fn,
                      void *user, struct saturn_share_stats *st, struct saturn_error *err)
{
    size_t lead = idx[0];
    for (size_t i = 1; i < n; i++) {
        fcfg[i - 1] = cfgs[idx[i]];
        fcut[i - 1] = cutoff ? cutoff[idx[i]] : UINT64_MAX;
    }
    struct saturn_sim *s = NULL;
    struct saturn_results r;
    memset(&r, 0, sizeof r);
    int rc = saturn_sim_create(cfgs[lead], &s, err);
    if (!rc)
        rc = sim_follow(s, fcfg, n - 1, cutoff ? cutoff[lead] : UINT64_MAX,
                        cutoff ? fcut : NULL, err);
    if (!rc)
        rc = saturn_sim_run(s, &r, err);
    if (!rc) {
        st->runs++;
        st->run_cycles += r.cycles;
        rc = fn(user, lead, &r, false);
    }
    double wall = r.wall_seconds;
    r.wall_seconds = 0; /* what a follower cost */
    for (size_t i = 1; !rc && i < n; i++) {
        uint64_t left = 0;
        if (sim_attached(s, i - 1, &left)) {
            st->shared++;
            rc = fn(user, idx[i], &r, true);
        } else {
            st->detached++;
            st->left_cycles += left;
            rest[(*nrest)++] = idx[i];
        }
    }
    r.wall_seconds = wall;
    saturn_results_free(&r);
    saturn_sim_free(s);
    return rc;
}

int saturn_run_shared(const struct saturn_config *const *cfgs, size_t n, const uint64_t *cutoff,
                      saturn_shared_fn fn, void *user, struct saturn_share_stats *st,
                      struct saturn_error *err)
{
    struct saturn_share_stats local;
    if (!st)
        st = &local;
    memset(st, 0, sizeof *st);
    struct key_spec ks;
    bool have_keys = key_spec_find(&ks);
    uint64_t *keys = calloc(n ? n : 1, sizeof *keys);
    size_t *idx = malloc((n ? n : 1) * sizeof *idx), *rest = malloc((n ? n : 1) * sizeof *rest);
    const struct saturn_config **fcfg = malloc((n ? n : 1) * sizeof *fcfg);
    uint64_t *fcut = malloc((n ? n : 1) * sizeof *fcut);
    bool *done = calloc(n ? n : 1, sizeof *done);
    int rc = keys && idx && rest && fcfg && fcut && done ? SATURN_OK : SATURN_ENOMEM;
    for (size_t i = 0; !rc && i < n; i++)
        keys[i] = have_keys ? key_hash(cfgs[i], &ks) : 0; /* 0: runs alone */
    /* classes of equal keys, in order of their first configuration */
    for (size_t i = 0; !rc && i < n; i++) {
        if (done[i])
            continue;
        size_t m = 0;
        for (size_t j = i; j < n; j++)
            if (!done[j] && (j == i || (keys[i] && keys[j] == keys[i] &&
                                        same_key(cfgs[i], cfgs[j], &ks)))) {
                idx[m++] = j;
                done[j] = true;
            }
        while (!rc && m) {
            size_t nrest = 0;
            rc = run_leader(cfgs, cutoff, idx, m, rest, &nrest, fcfg, fcut, fn, user, st, err);
            memcpy(idx, rest, nrest * sizeof *idx);
            m = nrest;
        }
    }
    if (rc == SATURN_ENOMEM && !err->code)
        saturn_error_set(err, rc, "out of memory");
    free(keys);
    free(idx);
    free(rest);
    free(fcfg);
    free(fcut);
    free(done);
    return rc;
}
