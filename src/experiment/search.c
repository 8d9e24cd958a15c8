/* The best-parameter search (search.h): waves of points, bounds, cut-offs.
 *
 * Per set s and pattern p, with n(s,p) seeds: the total T = sum of the
 * durations, and its lower bound L = the known durations (or, for a cut
 * run, the bound it reported) plus the per-point bounds of the points not
 * run. The individual best of p in group g is the least mean T / n; a
 * complete set sets the bar U (its mean), and (s,p) is out of the race
 * once L / n > U (strictly: a tie stays in). The average best of g is the
 * largest geometric mean over the patterns of base(p) / (T / n); set s is
 * out once even the means L / n give less than the best complete set's,
 * by more than a relative 1e-9. A point of seed j is then cut off at the
 * duration d beyond which (s,p) would be out of every race it is in. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "experiment/search.h"

#define NONE UINT32_MAX
#define NO_CUT UINT64_MAX

enum { ST_NONE, ST_EXACT, ST_CUT };
enum { PH_BASE, PH_FIRST, PH_PROBE, PH_WAVE, PH_FINAL, PH_DONE };

struct search {
    enum search_goal goal;
    size_t npoints, nsets, npat, nseed, ngroups;
    size_t baseline;
    size_t *set_group;
    uint32_t *cell;     /* [s][p][j]: the point, or NONE */
    uint32_t *nsp;      /* [s][p]: seeds present */
    const uint64_t *lb; /* per point */
    uint64_t *val;
    uint8_t *st;
    size_t *pt_sp;      /* per point: s * npat + p */
    bool *dead_ind;     /* [s][p] */
    bool *dead_avg;     /* [s] */
    double *base;       /* [p]: the baseline's mean */
    uint64_t *u_tot;    /* [g][p]: the best complete total, over u_n seeds */
    uint32_t *u_n;      /* 0: none yet */
    double *u_avg;      /* [g]: the best complete geometric mean, 0: none yet */
    int phase;
    size_t wave;        /* PH_WAVE: the seed index */
    double race_z;      /* > 0: race (search_race) */
    size_t race_min;
    double race_eq;     /* > 0: equivalent sets leave too (search_race_equiv) */
    double *diff;       /* scratch: paired differences, nseed */
    struct search_stats stats;
};

static size_t SP(const struct search *s, size_t set, size_t p) { return set * s->npat + p; }

static uint32_t cell(const struct search *s, size_t set, size_t p, size_t j)
{
    return s->cell[SP(s, set, p) * s->nseed + j];
}

void search_free(struct search *s)
{
    if (!s)
        return;
    free(s->set_group);
    free(s->cell);
    free(s->nsp);
    free(s->val);
    free(s->st);
    free(s->pt_sp);
    free(s->dead_ind);
    free(s->dead_avg);
    free(s->base);
    free(s->u_tot);
    free(s->u_n);
    free(s->u_avg);
    free(s->diff);
    free(s);
}

void search_race(struct search *s, double z, size_t min_seeds)
{
    s->race_z = z;
    s->race_min = min_seeds < 2 ? 2 : min_seeds;
}

void search_race_equiv(struct search *s, double equiv)
{
    s->race_eq = equiv;
}

int search_new(const struct saturn_table *rows, const size_t *point_row,
               const size_t *point_seed, size_t npoints, size_t nseed,
               const struct saturn_summary_opts *o, enum search_goal goal, const uint64_t *lb,
               struct search **out, struct saturn_error *err)
{
    *out = NULL;
    if (strcmp(o->metric, "duration") || saturn_summary_higher_better(o))
        return saturn_error_set(err, SATURN_EINPUT,
                                "the search finds the least duration: metric = duration, "
                                "better = lower (not %s, %s)", o->metric,
                                saturn_summary_higher_better(o) ? "higher" : "lower");
    if (npoints >= NONE)
        return saturn_error_set(err, SATURN_EINPUT, "the search takes fewer than 2^32 points");
    struct search *s = calloc(1, sizeof *s);
    size_t nr = rows->nrows, n = npoints;
    size_t *row_set = malloc((nr ? nr : 1) * sizeof *row_set);
    size_t *row_pat = malloc((nr ? nr : 1) * sizeof *row_pat);
    struct saturn_summary *sum = NULL;
    int rc = s && row_set && row_pat ? SATURN_OK : SATURN_ENOMEM;
    if (!rc)
        rc = summary_compute_rows(rows, o, &sum, row_set, row_pat, err);
    if (!rc) {
        s->goal = goal;
        s->lb = lb;
        s->npoints = n;
        s->nseed = nseed ? nseed : 1;
        s->nsets = sum->nsets;
        s->npat = sum->npatterns;
        s->ngroups = sum->ngroups;
        s->baseline = sum->baseline_set;
        size_t nsp = s->nsets * s->npat;
        s->set_group = malloc(s->nsets * sizeof *s->set_group);
        s->cell = malloc(nsp * s->nseed * sizeof *s->cell);
        s->nsp = calloc(nsp, sizeof *s->nsp);
        s->val = calloc(n ? n : 1, sizeof *s->val);
        s->st = calloc(n ? n : 1, 1);
        s->pt_sp = malloc((n ? n : 1) * sizeof *s->pt_sp);
        s->dead_ind = calloc(nsp, sizeof *s->dead_ind);
        s->dead_avg = calloc(s->nsets, sizeof *s->dead_avg);
        s->base = calloc(s->npat, sizeof *s->base);
        s->u_tot = calloc(s->ngroups * s->npat, sizeof *s->u_tot);
        s->u_n = calloc(s->ngroups * s->npat, sizeof *s->u_n);
        s->u_avg = calloc(s->ngroups, sizeof *s->u_avg);
        s->diff = calloc(s->nseed, sizeof *s->diff);
        if (!s->diff || !s->set_group || !s->cell || !s->nsp || !s->val || !s->st || !s->pt_sp ||
            !s->dead_ind || !s->dead_avg || !s->base || !s->u_tot || !s->u_n || !s->u_avg)
            rc = SATURN_ENOMEM;
    }
    if (!rc) {
        for (size_t i = 0; i < s->nsets; i++)
            s->set_group[i] = sum->sets[i].group;
        for (size_t i = 0; i < s->nsets * s->npat * s->nseed; i++)
            s->cell[i] = NONE;
        for (size_t x = 0; x < n && !rc; x++) {
            size_t sp = SP(s, row_set[point_row[x]], row_pat[point_row[x]]);
            size_t c = sp * s->nseed + point_seed[x];
            if (point_seed[x] >= s->nseed || s->cell[c] != NONE)
                rc = saturn_error_set(err, SATURN_EINPUT,
                                      "search: point %zu: a second point for the same set, "
                                      "pattern and seed", x);
            s->pt_sp[x] = sp;
            s->cell[c] = (uint32_t)x;
            s->nsp[sp]++;
        }
        for (size_t i = 0; i < s->nsets; i++) /* a set missing a pattern has no average */
            for (size_t p = 0; p < s->npat; p++)
                s->dead_avg[i] |= s->nsp[SP(s, i, p)] == 0 || !(goal & SEARCH_AVERAGE);
        for (size_t i = 0; i < s->nsets * s->npat; i++)
            s->dead_ind[i] = s->nsp[i] == 0 || !(goal & SEARCH_INDIVIDUAL);
    }
    if (rc == SATURN_ENOMEM)
        saturn_error_set(err, rc, "out of memory");
    saturn_summary_free(sum);
    free(row_set);
    free(row_pat);
    if (rc)
        search_free(s);
    else
        *out = s;
    return rc;
}

size_t search_points(const struct search *s) { return s->npoints; }

void search_record(struct search *s, size_t point, uint64_t value, bool cut)
{
    s->val[point] = value;
    s->st[point] = cut ? ST_CUT : ST_EXACT;
    s->stats.cut += cut;
    s->stats.exact += !cut;
}

/* Sum of the known values (exact or bounds) and of the bounds of the rest;
 * whether every point is exact. */
static uint64_t lower_total(const struct search *s, size_t set, size_t p, bool *complete)
{
    uint64_t t = 0;
    bool all = true;
    for (size_t j = 0; j < s->nseed; j++) {
        uint32_t x = cell(s, set, p, j);
        if (x == NONE)
            continue;
        t += s->st[x] == ST_NONE ? s->lb[x] : s->val[x];
        all &= s->st[x] == ST_EXACT;
    }
    if (complete)
        *complete = all;
    return t;
}

static bool complete(const struct search *s, size_t set, size_t p)
{
    bool c;
    lower_total(s, set, p, &c);
    return c && s->nsp[SP(s, set, p)] > 0;
}

bool search_kept(const struct search *s, size_t point)
{
    size_t sp = s->pt_sp[point];
    return complete(s, sp / s->npat, sp % s->npat);
}

/* log of the speed-up of (set, p) if its mean were total / n. */
static double log_speedup(const struct search *s, size_t set, size_t p, uint64_t total)
{
    return log(s->base[p] * (double)s->nsp[SP(s, set, p)] / (double)total);
}

/* The bars from the complete sets, then who is out. */
static void update(struct search *s)
{
    for (size_t i = 0; i < s->nsets; i++) {
        size_t g = s->set_group[i];
        bool all = s->nsp[SP(s, i, 0)] > 0;
        double logsum = 0;
        for (size_t p = 0; p < s->npat; p++) {
            bool c;
            uint64_t t = lower_total(s, i, p, &c);
            all &= c && s->nsp[SP(s, i, p)] > 0;
            if (!c || !s->nsp[SP(s, i, p)])
                continue;
            logsum += log_speedup(s, i, p, t);
            size_t u = g * s->npat + p;
            uint32_t n = s->nsp[SP(s, i, p)];
            if (!s->u_n[u] || t * s->u_n[u] < s->u_tot[u] * n) {
                s->u_tot[u] = t;
                s->u_n[u] = n;
            }
        }
        double gm = exp(logsum / (double)s->npat);
        if (all && s->phase > PH_BASE && gm > s->u_avg[g])
            s->u_avg[g] = gm;
    }
    for (size_t i = 0; i < s->nsets; i++) {
        size_t g = s->set_group[i];
        double logsum = 0;
        for (size_t p = 0; p < s->npat; p++) {
            size_t sp = SP(s, i, p), u = g * s->npat + p;
            if (!s->nsp[sp])
                continue;
            uint64_t L = lower_total(s, i, p, NULL);
            if (!s->dead_ind[sp] && s->u_n[u] && L * s->u_n[u] > s->u_tot[u] * s->nsp[sp])
                s->dead_ind[sp] = true;
            logsum += log_speedup(s, i, p, L);
        }
        if (!s->dead_avg[i] && s->u_avg[g] > 0 &&
            exp(logsum / (double)s->npat) < s->u_avg[g] * (1 - 1e-9))
            s->dead_avg[i] = true;
    }
}

/* The value of seed j of (set, p) for the race: the duration, or for the
 * average race the sum over the patterns of its logarithm; NAN unless
 * exact. */
static double race_value(const struct search *s, size_t set, long p, size_t j)
{
    double v = 0;
    for (size_t q = p < 0 ? 0 : (size_t)p; q < (p < 0 ? s->npat : (size_t)p + 1); q++) {
        uint32_t x = cell(s, set, q, j);
        if (x == NONE || s->st[x] != ST_EXACT)
            return NAN;
        v += p < 0 ? log((double)s->val[x]) : (double)s->val[x];
    }
    return v;
}

/* The mean and standard error of set a's paired differences to set b over
 * the first n seeds; false unless both are exact on all of them and n is at
 * least race_min. */
static bool paired(const struct search *s, size_t a, size_t b, long p, size_t n, double *mean,
                   double *se)
{
    size_t k = 0;
    double mu = 0, m2 = 0;
    for (size_t j = 0; j < n; j++) {
        double x = race_value(s, a, p, j), y = race_value(s, b, p, j);
        if (isnan(x) || isnan(y))
            return false;
        double d = x - y, delta = d - mu;
        mu += delta / (double)++k;
        m2 += delta * (d - mu);
    }
    if (k < s->race_min)
        return false;
    *mean = mu;
    *se = sqrt(m2 / (double)(k - 1) / (double)k);
    return true;
}

/* The race (not exact; off unless search_race): in every group, the set
 * whose first n seeds are best (all exact) leads; a set behind it (paired
 * test) leaves the race. Per pattern for the individual best; on the sum
 * over patterns of the log durations, seed by seed, for the average. */
static void race(struct search *s, size_t n)
{
    for (size_t g = 0; g < s->ngroups; g++)
        for (long p = -1; p < (long)s->npat; p++) {
            if (p < 0 ? !(s->goal & SEARCH_AVERAGE) : !(s->goal & SEARCH_INDIVIDUAL))
                continue;
            size_t lead = SIZE_MAX;
            double best = 0;
            for (size_t i = 0; i < s->nsets; i++) {
                if (s->set_group[i] != g ||
                    (p < 0 ? s->dead_avg[i] : s->dead_ind[SP(s, i, (size_t)p)]))
                    continue;
                double t = 0;
                for (size_t j = 0; j < n && !isnan(t); j++)
                    t += race_value(s, i, p, j);
                if (!isnan(t) && (lead == SIZE_MAX || t < best))
                    lead = i, best = t;
            }
            /* search_race_equiv: the leader's mean per seed sets the margin */
            const double eq = p >= 0 && s->race_eq > 0 ? s->race_eq * best / (double)n : -1;
            for (size_t i = 0; lead != SIZE_MAX && i < s->nsets; i++) {
                bool *dead = p < 0 ? &s->dead_avg[i] : &s->dead_ind[SP(s, i, (size_t)p)];
                double mean, se;
                if (s->set_group[i] != g || *dead || i == lead || !paired(s, i, lead, p, n, &mean, &se))
                    continue;
                if (mean - s->race_z * se > 0) { /* behind the leader */
                    *dead = true;
                    s->stats.raced++;
                } else if (mean + s->race_z * se <= eq) { /* the leader's equal */
                    *dead = true;
                    s->stats.raced++;
                    s->stats.equiv++;
                }
            }
        }
}

static bool needed(const struct search *s, size_t set, size_t p)
{
    return !s->dead_ind[SP(s, set, p)] || !s->dead_avg[set];
}

/* The largest duration of point (set, p, j) that keeps (set, p) in a race. */
static uint64_t cutoff(const struct search *s, size_t set, size_t p, size_t j)
{
    size_t sp = SP(s, set, p), g = s->set_group[set], u = g * s->npat + p;
    uint32_t x = cell(s, set, p, j);
    uint64_t others = lower_total(s, set, p, NULL) - s->lb[x]; /* the rest of (set, p) */
    uint64_t best = 0;
    bool any = false;
    if (!s->dead_ind[sp]) {
        if (!s->u_n[u])
            return NO_CUT;
        uint64_t lim = s->u_tot[u] * s->nsp[sp] / s->u_n[u]; /* L <= lim stays in */
        if (lim >= others && lim - others > best)
            best = lim - others;
        any = true;
    }
    if (!s->dead_avg[set]) {
        if (s->u_avg[g] <= 0)
            return NO_CUT;
        double rest = 0;
        for (size_t q = 0; q < s->npat; q++)
            if (q != p)
                rest += log_speedup(s, set, q, lower_total(s, set, q, NULL));
        /* stays in while log(base n / L) >= npat log(u (1 - 1e-9)) - rest */
        double k = (double)s->npat * log(s->u_avg[g] * (1 - 1e-9)) - rest;
        double lim = s->base[p] * (double)s->nsp[sp] * exp(-k) * (1 + 1e-12);
        if (lim >= (double)others) {
            double d = floor(lim - (double)others);
            uint64_t c = d >= 1.8e19 ? NO_CUT : (uint64_t)d;
            if (c > best)
                best = c;
        }
        any = true;
    }
    return any ? best : 0;
}

static size_t add(size_t k, size_t *points, uint64_t *cut, size_t point, uint64_t c)
{
    points[k] = point;
    cut[k] = c;
    return k + 1;
}

size_t search_next(struct search *s, size_t *points, uint64_t *cut)
{
    for (;;) {
        size_t k = 0;
        switch (s->phase) {
        case PH_BASE:
            for (size_t p = 0; p < s->npat; p++)
                for (size_t j = 0; j < s->nseed; j++) {
                    uint32_t x = cell(s, s->baseline, p, j);
                    if (x != NONE && s->st[x] != ST_EXACT)
                        k = add(k, points, cut, x, NO_CUT);
                }
            if (k)
                break;
            for (size_t p = 0; p < s->npat; p++) {
                s->base[p] = (double)lower_total(s, s->baseline, p, NULL) /
                             (double)s->nsp[SP(s, s->baseline, p)];
                if (!(s->base[p] > 0))
                    s->base[p] = 1; /* the summary refuses it anyway */
            }
            s->phase = PH_FIRST;
            continue;
        case PH_FIRST: /* every set's first seed, no bars yet */
            for (size_t i = 0; i < s->nsets; i++)
                for (size_t p = 0; p < s->npat; p++) {
                    size_t j = 0;
                    while (j < s->nseed && cell(s, i, p, j) == NONE)
                        j++;
                    uint32_t x = j < s->nseed ? cell(s, i, p, j) : NONE;
                    if (x != NONE && s->st[x] == ST_NONE && needed(s, i, p))
                        k = add(k, points, cut, x, NO_CUT);
                }
            if (k)
                break;
            s->phase = PH_PROBE;
            { /* the bars: the sets best on what is known so far, on every seed */
                bool *probe = calloc(s->nsets * s->npat, sizeof *probe);
                if (!probe)
                    return 0; /* out of memory: no further waves */
                for (size_t g = 0; g < s->ngroups; g++) {
                    size_t avg = SIZE_MAX;
                    double avg_v = 0;
                    for (size_t p = 0; p < s->npat; p++) {
                        size_t best = SIZE_MAX;
                        double best_v = 0;
                        for (size_t i = 0; i < s->nsets; i++) {
                            if (s->set_group[i] != g || !s->nsp[SP(s, i, p)])
                                continue;
                            double v = (double)lower_total(s, i, p, NULL) /
                                       (double)s->nsp[SP(s, i, p)];
                            if (best == SIZE_MAX || v < best_v)
                                best = i, best_v = v;
                        }
                        if (best != SIZE_MAX && (s->goal & SEARCH_INDIVIDUAL))
                            probe[SP(s, best, p)] = true;
                    }
                    for (size_t i = 0; (s->goal & SEARCH_AVERAGE) && i < s->nsets; i++) {
                        if (s->set_group[i] != g || s->dead_avg[i])
                            continue;
                        double l = 0;
                        for (size_t p = 0; p < s->npat; p++)
                            l += log_speedup(s, i, p, lower_total(s, i, p, NULL));
                        if (avg == SIZE_MAX || l > avg_v)
                            avg = i, avg_v = l;
                    }
                    for (size_t p = 0; avg != SIZE_MAX && p < s->npat; p++)
                        probe[SP(s, avg, p)] = true;
                }
                for (size_t sp = 0; sp < s->nsets * s->npat; sp++)
                    for (size_t j = 0; probe[sp] && j < s->nseed; j++) {
                        uint32_t x = s->cell[sp * s->nseed + j];
                        if (x != NONE && s->st[x] != ST_EXACT)
                            k = add(k, points, cut, x, NO_CUT);
                    }
                free(probe);
            }
            if (k)
                break;
            continue;
        case PH_PROBE:
            update(s);
            s->phase = PH_WAVE;
            s->wave = 0;
            continue;
        case PH_WAVE:
            update(s);
            if (s->race_z > 0 && s->wave + 1 >= s->race_min)
                race(s, s->wave + 1);
            if (++s->wave >= s->nseed) {
                s->phase = PH_FINAL;
                continue;
            }
            for (size_t i = 0; i < s->nsets; i++)
                for (size_t p = 0; p < s->npat; p++) {
                    uint32_t x = cell(s, i, p, s->wave);
                    if (x != NONE && s->st[x] == ST_NONE && needed(s, i, p))
                        k = add(k, points, cut, x, cutoff(s, i, p, s->wave));
                }
            if (k)
                break;
            continue;
        case PH_FINAL: /* whatever is still in a race but not exact (cut too early) */
            update(s);
            for (size_t i = 0; i < s->nsets; i++)
                for (size_t p = 0; p < s->npat; p++)
                    for (size_t j = 0; needed(s, i, p) && j < s->nseed; j++) {
                        uint32_t x = cell(s, i, p, j);
                        if (x != NONE && s->st[x] != ST_EXACT)
                            k = add(k, points, cut, x, NO_CUT);
                    }
            if (k)
                break;
            s->phase = PH_DONE;
            return 0;
        default:
            return 0;
        }
        s->stats.waves++;
        s->stats.run += k;
        return k;
    }
}

void search_stats(const struct search *s, struct search_stats *st) { *st = s->stats; }
