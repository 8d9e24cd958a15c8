/* Co-simulation of parameter sets (saturn_run_shared).
 *
 * Runs that differ only in an injection controller's thresholds are the
 * same run until the first gate decision on which they differ: the
 * controller touches the network only through may_start (or the gate
 * that stands for it: ctl_ops.observe). One run is
 * simulated (the leader, the first unresolved configuration) while the
 * controller follows every other one along it (ctl_ops.follow); those still
 * attached at the end had every decision the leader had, so their run is
 * the leader's, bit for bit. The detached ones are run again the same way,
 * until none is left: one simulation per distinct run.
 *
 * Which keys may differ: the controller's follow_keys (entropy throttling:
 * entropy.rth, entropy.ron, entropy.roff and entropy.rn), its name read as
 * its share_as (base(Rth, Rn) as hyst(Rth, Rth, Rn), the same rule:
 * src/control/entropy.c). Everything else, the guard time and the way sums
 * travel included, must be equal. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "control/control.h"
#include "core/params.h"
#include "experiment/sim.h"

enum { FOLLOW_KEYS_MAX = 16 };

/* What the key of a configuration's controller needs: registry indices
 * looked up once per configuration, not once per value compared. */
struct key_spec {
    size_t np;                     /* saturn_param_count() */
    size_t model;                  /* control.model */
    const char *as;                /* the controller's name as the key reads it */
    size_t thr[FOLLOW_KEYS_MAX];   /* its follow_keys */
    size_t nthr;
};

/* The key's spec for c's controller; false when that controller cannot
 * follow (its configurations run alone). */
static bool key_spec_find(struct key_spec *k, const struct saturn_config *c)
{
    long m = params_index("control.model");
    if (m < 0)
        return false;
    const struct ctl_ops *ops = ctl_find(config_str_at(c, (size_t)m));
    if (!ops || !ops->follow || !ops->follow_keys)
        return false;
    k->np = saturn_param_count();
    k->model = (size_t)m;
    k->as = ops->share_as ? ops->share_as : ops->name;
    k->nthr = 0;
    for (const char *const *key = ops->follow_keys; *key; key++) {
        long i = params_index(*key);
        if (i < 0 || k->nthr == FOLLOW_KEYS_MAX)
            return false;
        k->thr[k->nthr++] = (size_t)i;
    }
    return true;
}

static bool is_threshold(const struct key_spec *k, size_t i)
{
    for (size_t t = 0; t < k->nthr; t++)
        if (i == k->thr[t])
            return true;
    return false;
}

/* Parameter i's value as the key reads it: the controller as its share_as. */
static const char *key_value(const struct saturn_config *c, const struct key_spec *k, size_t i)
{
    if (i != k->model)
        return config_str_at(c, i);
    const struct ctl_ops *ops = ctl_find(config_str_at(c, i));
    return ops && ops->share_as ? ops->share_as : config_str_at(c, i);
}

/* A hash of every value but the thresholds, the controller as its share_as
 * (k is c's spec). Configurations that may share a run have the same hash;
 * same_key tells whether they do (a hash says nothing alone). */
static uint64_t key_hash(const struct saturn_config *c, const struct key_spec *k)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a, 0x1f after each value */
    for (size_t i = 0; i < k->np; i++) {
        if (is_threshold(k, i))
            continue;
        for (const char *p = i == k->model ? k->as : config_str_at(c, i); *p; p++)
            h = (h ^ (unsigned char)*p) * 1099511628211ull;
        h = (h ^ 0x1f) * 1099511628211ull;
    }
    return h ? h : 1;
}

/* Whether a and b (a's spec k) have every value but the thresholds equal,
 * the controllers read as their share_as (controllers read as one name have
 * the same follow_keys): their runs are one until a gate decision. */
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
    return key_spec_find(&k, c) ? key_hash(c, &k) : 0;
}

bool saturn_share_same(const struct saturn_config *a, const struct saturn_config *b)
{
    struct key_spec ka, kb;
    return key_spec_find(&ka, a) && key_spec_find(&kb, b) && same_key(a, b, &ka);
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
    return saturn_run_shared_split(cfgs, n, cutoff, fn, user, NULL, st, err);
}

int saturn_run_shared_split(const struct saturn_config *const *cfgs, size_t n,
                            const uint64_t *cutoff, saturn_shared_fn fn, void *user,
                            const struct saturn_share_split *split,
                            struct saturn_share_stats *st, struct saturn_error *err)
{
    struct saturn_share_stats local;
    if (!st)
        st = &local;
    memset(st, 0, sizeof *st);
    struct key_spec *ks = malloc((n ? n : 1) * sizeof *ks);
    uint64_t *keys = calloc(n ? n : 1, sizeof *keys);
    size_t *idx = malloc((n ? n : 1) * sizeof *idx), *rest = malloc((n ? n : 1) * sizeof *rest);
    const struct saturn_config **fcfg = malloc((n ? n : 1) * sizeof *fcfg);
    uint64_t *fcut = malloc((n ? n : 1) * sizeof *fcut);
    bool *done = calloc(n ? n : 1, sizeof *done);
    int rc = ks && keys && idx && rest && fcfg && fcut && done ? SATURN_OK : SATURN_ENOMEM;
    for (size_t i = 0; !rc && i < n; i++)
        keys[i] = key_spec_find(&ks[i], cfgs[i]) ? key_hash(cfgs[i], &ks[i]) : 0; /* 0: alone */
    /* classes of equal keys, in order of their first configuration */
    for (size_t i = 0; !rc && i < n; i++) {
        if (done[i])
            continue;
        size_t m = 0;
        for (size_t j = i; j < n; j++)
            if (!done[j] && (j == i || (keys[i] && keys[j] == keys[i] &&
                                        same_key(cfgs[i], cfgs[j], &ks[i])))) {
                idx[m++] = j;
                done[j] = true;
            }
        while (!rc && m) {
            size_t nrest = 0;
            rc = run_leader(cfgs, cutoff, idx, m, rest, &nrest, fcfg, fcut, fn, user, st, err);
            /* the caller has an idle thread: the last half of the ones that
             * left go to it (a run they would have shared may then be made
             * on both sides: more simulations, the same results) */
            if (!rc && split && nrest >= 2 && split->want(split->user)) {
                const size_t k = nrest / 2;
                rc = split->take(split->user, rest + nrest - k, k);
                nrest -= k;
            }
            memcpy(idx, rest, nrest * sizeof *idx);
            m = nrest;
        }
    }
    if (rc == SATURN_ENOMEM && !err->code)
        saturn_error_set(err, rc, "out of memory");
    free(ks);
    free(keys);
    free(idx);
    free(rest);
    free(fcfg);
    free(fcut);
    free(done);
    return rc;
}
