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

#include "experiment/sim.h"

static const char *const threshold_keys[] = {"entropy.rth", "entropy.ron", "entropy.roff",
                                             "entropy.rn"};

static bool is_threshold(const char *name)
{
    for (size_t k = 0; k < sizeof threshold_keys / sizeof *threshold_keys; k++)
        if (!strcmp(name, threshold_keys[k]))
            return true;
    return false;
}

static bool follows(const char *model)
{
    return !strcmp(model, "base") || !strcmp(model, "hyst") || !strcmp(model, "gt.x") ||
           !strcmp(model, "gt.a");
}

/* Every value but the thresholds, base as hyst; NULL when the controller
 * cannot follow (or no memory). */
static char *key_text(const struct saturn_config *c)
{
    if (!follows(saturn_config_str(c, "control.model")))
        return NULL;
    size_t len = 0, cap = 4096, np = saturn_param_count();
    char *t = malloc(cap);
    for (size_t i = 0; t && i < np; i++) {
        const char *name = saturn_param_at(i)->name;
        if (is_threshold(name))
            continue;
        const char *v = saturn_config_value_text(c, i);
        if (!strcmp(name, "control.model") && !strcmp(v, "base"))
            v = "hyst";
        size_t ln = strlen(name), lv = strlen(v), need = ln + lv + 3;
        if (len + need >= cap) {
            char *x = realloc(t, cap = 2 * (len + need));
            if (!x) {
                free(t);
                return NULL;
            }
            t = x;
        }
        memcpy(t + len, name, ln); /* name=value\n, as sprintf would write it */
        t[len + ln] = '=';
        memcpy(t + len + ln + 1, v, lv);
        t[len + ln + 1 + lv] = '\n';
        len += need - 1;
        t[len] = '\0';
    }
    return t;
}

uint64_t saturn_share_key(const struct saturn_config *c)
{
    char *t = key_text(c);
    if (!t)
        return 0;
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (const char *p = t; *p; p++)
        h = (h ^ (unsigned char)*p) * 1099511628211ull;
    free(t);
    return h ? h : 1;
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
    char **keys = calloc(n ? n : 1, sizeof *keys);
    size_t *idx = malloc((n ? n : 1) * sizeof *idx), *rest = malloc((n ? n : 1) * sizeof *rest);
    const struct saturn_config **fcfg = malloc((n ? n : 1) * sizeof *fcfg);
    uint64_t *fcut = malloc((n ? n : 1) * sizeof *fcut);
    bool *done = calloc(n ? n : 1, sizeof *done);
    int rc = keys && idx && rest && fcfg && fcut && done ? SATURN_OK : SATURN_ENOMEM;
    for (size_t i = 0; !rc && i < n; i++)
        keys[i] = key_text(cfgs[i]); /* NULL: runs alone */
    /* classes of equal keys, in order of their first configuration */
    for (size_t i = 0; !rc && i < n; i++) {
        if (done[i])
            continue;
        size_t m = 0;
        for (size_t j = i; j < n; j++)
            if (!done[j] && (j == i || (keys[i] && keys[j] && !strcmp(keys[i], keys[j])))) {
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
    for (size_t i = 0; keys && i < n; i++)
        free(keys[i]);
    free(keys);
    free(idx);
    free(rest);
    free(fcfg);
    free(fcut);
    free(done);
    return rc;
}
