/* The best-parameter summary of a sweep (paper 000's method).
 *
 * Rows are grouped into parameter sets (every varied key but the pattern,
 * the seed and the group key), per set and pattern the metric is averaged
 * over seeds, and each mean is compared with the baseline set's mean on
 * the same pattern. Per group: the individual best set of every pattern
 * and the geometric mean of those speed-ups; the average best set (largest
 * geometric mean of its own speed-ups over all patterns). */
#define _GNU_SOURCE /* strdup */
#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "experiment/search.h"
#include "saturn/sweep.h"

/* ---- a string -> index map (first-appearance numbering) ---- */

struct strmap {
    size_t cap, n;
    char **keys;
    size_t *vals;
};

static uint64_t hash(const char *s)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

/* The index of key, numbering new keys 0, 1, ... (SIZE_MAX: no memory). */
static size_t strmap_index(struct strmap *m, const char *key)
{
    if (2 * (m->n + 1) > m->cap) {
        struct strmap b = {.cap = m->cap ? 2 * m->cap : 64};
        b.keys = calloc(b.cap, sizeof *b.keys);
        b.vals = calloc(b.cap, sizeof *b.vals);
        if (!b.keys || !b.vals) {
            free(b.keys);
            free(b.vals);
            return SIZE_MAX;
        }
        for (size_t i = 0; i < m->cap; i++) {
            if (!m->keys[i])
                continue;
            size_t j = hash(m->keys[i]) & (b.cap - 1);
            while (b.keys[j])
                j = (j + 1) & (b.cap - 1);
            b.keys[j] = m->keys[i];
            b.vals[j] = m->vals[i];
        }
        free(m->keys);
        free(m->vals);
        b.n = m->n;
        *m = b;
    }
    size_t j = hash(key) & (m->cap - 1);
    for (; m->keys[j]; j = (j + 1) & (m->cap - 1))
        if (!strcmp(m->keys[j], key))
            return m->vals[j];
    if (!(m->keys[j] = strdup(key)))
        return SIZE_MAX;
    return m->vals[j] = m->n++;
}

static void strmap_free(struct strmap *m)
{
    for (size_t i = 0; i < m->cap; i++)
        free(m->keys[i]);
    free(m->keys);
    free(m->vals);
}

/* ---- the computation ---- */

struct cond {
    long col;
    const char *value;
};

struct work {
    const struct saturn_table *t;
    struct saturn_summary *s;
    long metric, across, group, seeds;
    size_t *param_cols;
    size_t *row_set, *row_pattern;
    struct strmap patterns, groups, sets;
    struct cond conds[32];
    size_t nconds;
    char cond_text[sizeof ((struct saturn_summary_opts *)0)->baseline];
};

static long key_col(const struct saturn_table *t, const char *name)
{
    for (size_t c = t->key_begin; name[0] && c < t->key_end; c++)
        if (!strcmp(t->cols[c], name))
            return (long)c;
    return -1;
}

static const char *cell(const struct saturn_table *t, size_t r, long c)
{
    return c < 0 ? "" : t->cells[r * t->ncols + (size_t)c];
}

static int parse_baseline(struct work *w, struct saturn_error *err)
{
    const struct saturn_summary_opts *o = &w->s->opts;
    if (!o->baseline[0])
        return saturn_error_set(err, SATURN_EINPUT,
                                "summary: no baseline: set baseline = key=value in [summary] "
                                "or --baseline key=value (the rows speed-ups are relative to)");
    strcpy(w->cond_text, o->baseline);
    char *save = NULL;
    for (char *t = strtok_r(w->cond_text, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(t, '=');
        if (!eq || w->nconds == sizeof w->conds / sizeof w->conds[0])
            return saturn_error_set(err, SATURN_EINPUT, "summary: baseline = %s: '%s' is not key=value",
                                    o->baseline, t);
        *eq = 0;
        char *k = t, *v = eq + 1;
        while (isspace((unsigned char)*k))
            k++;
        while (isspace((unsigned char)*v))
            v++;
        for (char *e = eq; e > k && isspace((unsigned char)e[-1]);)
            *--e = 0;
        for (size_t n = strlen(v); n && isspace((unsigned char)v[n - 1]);)
            v[--n] = 0;
        long c = key_col(w->t, k);
        if (c < 0 || c == w->across || c == w->seeds)
            return saturn_error_set(err, SATURN_EINPUT,
                                    "summary: baseline = %s: %s is %s", o->baseline, k,
                                    c < 0 ? "not a key this sweep varies"
                                          : "the pattern or seed key; it cannot pick the baseline");
        w->conds[w->nconds++] = (struct cond){c, v};
    }
    return SATURN_OK;
}

/* Numbers every row's pattern, group and parameter set. */
static int classify(struct work *w, struct saturn_error *err)
{
    const struct saturn_table *t = w->t;
    struct saturn_summary *s = w->s;
    size_t nk = t->key_end - t->key_begin;
    w->param_cols = calloc(nk ? nk : 1, sizeof *w->param_cols);
    s->params = calloc(nk ? nk : 1, sizeof *s->params);
    w->row_set = calloc(t->nrows ? t->nrows : 1, sizeof *w->row_set);
    w->row_pattern = calloc(t->nrows ? t->nrows : 1, sizeof *w->row_pattern);
    if (!w->param_cols || !s->params || !w->row_set || !w->row_pattern)
        return saturn_error_set(err, SATURN_ENOMEM, "out of memory");
    for (size_t c = t->key_begin; c < t->key_end; c++)
        if ((long)c != w->across && (long)c != w->seeds && (long)c != w->group) {
            w->param_cols[s->nparams] = c;
            if (!(s->params[s->nparams++] = strdup(t->cols[c])))
                return saturn_error_set(err, SATURN_ENOMEM, "out of memory");
        }
    char *key = NULL;
    size_t keycap = 0;
    int rc = SATURN_OK;
    for (size_t r = 0; r < t->nrows && !rc; r++) {
        /* The set's identity: group, then every parameter, 0x1f-separated. */
        size_t len = strlen(cell(t, r, w->group)) + 2;
        for (size_t p = 0; p < s->nparams; p++)
            len += strlen(cell(t, r, (long)w->param_cols[p])) + 1;
        if (len > keycap) {
            free(key);
            keycap = 2 * len;
            if (!(key = malloc(keycap)))
                return saturn_error_set(err, SATURN_ENOMEM, "out of memory");
        }
        char *k = stpcpy(key, cell(t, r, w->group));
        for (size_t p = 0; p < s->nparams; p++) {
            *k++ = 0x1f;
            k = stpcpy(k, cell(t, r, (long)w->param_cols[p]));
        }
        size_t g = strmap_index(&w->groups, cell(t, r, w->group));
        size_t pat = strmap_index(&w->patterns, cell(t, r, w->across));
        size_t set = strmap_index(&w->sets, key);
        if (g == SIZE_MAX || pat == SIZE_MAX || set == SIZE_MAX) {
            rc = saturn_error_set(err, SATURN_ENOMEM, "out of memory");
            break;
        }
        w->row_pattern[r] = pat;
        w->row_set[r] = set;
        if (set == s->nsets) { /* a new set: record it */
            struct saturn_summary_set *x = realloc(s->sets, (s->nsets + 1) * sizeof *x);
            if (!x) {
                rc = saturn_error_set(err, SATURN_ENOMEM, "out of memory");
                break;
            }
            s->sets = x;
            x += s->nsets++;
            memset(x, 0, sizeof *x);
            x->group = g;
            x->values = calloc(s->nparams ? s->nparams : 1, sizeof *x->values);
            for (size_t p = 0; x->values && p < s->nparams; p++)
                if (!(x->values[p] = strdup(cell(t, r, (long)w->param_cols[p]))))
                    rc = saturn_error_set(err, SATURN_ENOMEM, "out of memory");
            if (!x->values)
                rc = saturn_error_set(err, SATURN_ENOMEM, "out of memory");
        }
    }
    free(key);
    return rc;
}

/* The names of a map's keys by index. */
static char **names_of(const struct strmap *m)
{
    char **v = calloc(m->n ? m->n : 1, sizeof *v);
    for (size_t i = 0; v && i < m->cap; i++)
        if (m->keys[i] && !(v[m->vals[i]] = strdup(m->keys[i]))) {
            for (size_t j = 0; j < m->n; j++)
                free(v[j]);
            free(v);
            return NULL;
        }
    return v;
}

/* Mean and sample standard deviation per set and pattern (Welford). */
static int accumulate(struct work *w, struct saturn_error *err)
{
    const struct saturn_table *t = w->t;
    struct saturn_summary *s = w->s;
    for (size_t i = 0; i < s->nsets; i++) {
        s->sets[i].stat = calloc(s->npatterns, sizeof *s->sets[i].stat);
        if (!s->sets[i].stat)
            return saturn_error_set(err, SATURN_ENOMEM, "out of memory");
    }
    for (size_t r = 0; r < t->nrows; r++) {
        const char *text = cell(t, r, w->metric);
        char *end;
        double x = strtod(text, &end);
        if (end == text || *end || !isfinite(x))
            return saturn_error_set(err, SATURN_EINPUT,
                                    "summary: row %zu: %s = '%s' is not a number", r + 1,
                                    s->opts.metric, text);
        struct saturn_summary_stat *st = &s->sets[w->row_set[r]].stat[w->row_pattern[r]];
        st->n++;
        double d = x - st->mean;
        st->mean += d / (double)st->n;
        st->std += d * (x - st->mean); /* sum of squares until finished */
    }
    for (size_t i = 0; i < s->nsets; i++)
        for (size_t p = 0; p < s->npatterns; p++) {
            struct saturn_summary_stat *st = &s->sets[i].stat[p];
            st->std = st->n > 1 ? sqrt(st->std / (double)(st->n - 1)) : 0;
            st->speedup = NAN;
        }
    return SATURN_OK;
}

static int find_baseline(struct work *w, struct saturn_error *err)
{
    const struct saturn_table *t = w->t;
    struct saturn_summary *s = w->s;
    size_t found = SIZE_MAX, other = SIZE_MAX;
    for (size_t r = 0; r < t->nrows; r++) {
        size_t c = 0;
        while (c < w->nconds && !strcmp(cell(t, r, w->conds[c].col), w->conds[c].value))
            c++;
        if (c < w->nconds)
            continue;
        if (found == SIZE_MAX)
            found = w->row_set[r];
        else if (w->row_set[r] != found && other == SIZE_MAX)
            other = w->row_set[r];
    }
    if (found == SIZE_MAX)
        return saturn_error_set(err, SATURN_EINPUT, "summary: baseline %s matches no row",
                                s->opts.baseline);
    if (other != SIZE_MAX)
        return saturn_error_set(err, SATURN_EINPUT,
                                "summary: baseline %s matches several parameter sets; add "
                                "key=value conditions to pick one", s->opts.baseline);
    s->baseline_set = found;
    for (size_t p = 0; p < s->npatterns; p++) {
        const struct saturn_summary_stat *b = &s->sets[found].stat[p];
        if (!b->n)
            return saturn_error_set(err, SATURN_EINPUT,
                                    "summary: baseline %s has no row with %s = %s%s",
                                    s->opts.baseline, s->opts.across,
                                    s->patterns[p][0] ? s->patterns[p] : "(not varied)",
                                    s->patterns[p][0] ? "" : ", as other rows have");
        if (!(b->mean > 0))
            return saturn_error_set(err, SATURN_EINPUT,
                                    "summary: baseline %s has %s = %g on %s; speed-ups need "
                                    "a positive metric", s->opts.baseline, s->opts.metric,
                                    b->mean, s->patterns[p]);
    }
    return SATURN_OK;
}

static double geomean(const double *x, size_t n)
{
    double sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += log(x[i]);
    return n ? exp(sum / (double)n) : NAN;
}

/* Speed-ups, geometric means, and the picks of every group. */
static int pick(struct saturn_summary *s, struct saturn_error *err)
{
    double *buf = calloc(s->npatterns, sizeof *buf);
    if (!buf)
        return saturn_error_set(err, SATURN_ENOMEM, "out of memory");
    for (size_t i = 0; i < s->nsets; i++) {
        struct saturn_summary_set *x = &s->sets[i];
        size_t n = 0;
        for (size_t p = 0; p < s->npatterns; p++) {
            struct saturn_summary_stat *st = &x->stat[p];
            double base = s->sets[s->baseline_set].stat[p].mean;
            double up = s->higher_better ? st->mean / base : base / st->mean;
            if (st->n && isfinite(up) && up > 0)
                buf[n++] = st->speedup = up;
        }
        x->geomean = n == s->npatterns ? geomean(buf, n) : NAN;
    }
    for (size_t g = 0; g < s->ngroups; g++) {
        struct saturn_summary_group *gr = &s->groups[g];
        gr->average = SIZE_MAX;
        if (!(gr->best = malloc(s->npatterns * sizeof *gr->best))) {
            free(buf);
            return saturn_error_set(err, SATURN_ENOMEM, "out of memory");
        }
        for (size_t p = 0; p < s->npatterns; p++) {
            gr->best[p] = SIZE_MAX;
            for (size_t i = 0; i < s->nsets; i++) /* ties: the first set wins */
                if (s->sets[i].group == g && !isnan(s->sets[i].stat[p].speedup) &&
                    (gr->best[p] == SIZE_MAX ||
                     s->sets[i].stat[p].speedup > s->sets[gr->best[p]].stat[p].speedup))
                    gr->best[p] = i;
            if (gr->best[p] != SIZE_MAX)
                buf[gr->nbest++] = s->sets[gr->best[p]].stat[p].speedup;
        }
        gr->best_geomean = geomean(buf, gr->nbest);
        for (size_t i = 0; i < s->nsets; i++)
            if (s->sets[i].group == g && !isnan(s->sets[i].geomean) &&
                (gr->average == SIZE_MAX || s->sets[i].geomean > s->sets[gr->average].geomean))
                gr->average = i;
    }
    free(buf);
    return SATURN_OK;
}

int summary_compute_rows(const struct saturn_table *t, const struct saturn_summary_opts *o,
                         struct saturn_summary **out, size_t *row_set, size_t *row_pattern,
                         struct saturn_error *err)
{
    *out = NULL;
    struct saturn_summary *s = calloc(1, sizeof *s);
    if (!s)
        return saturn_error_set(err, SATURN_ENOMEM, "out of memory");
    struct work w = {.t = t, .s = s};
    s->opts = *o;
    s->higher_better = saturn_summary_higher_better(o);
    w.metric = -1;
    for (size_t c = 0; c < t->ncols; c++)
        if (!strcmp(t->cols[c], o->metric) && (c < t->key_begin || c >= t->key_end))
            w.metric = (long)c;
    w.across = key_col(t, o->across);
    w.group = key_col(t, o->group);
    w.seeds = key_col(t, o->seeds);
    s->has_group = w.group >= 0;
    s->has_seeds = w.seeds >= 0;
    int rc = SATURN_OK;
    if (w.metric < 0)
        rc = saturn_error_set(err, SATURN_EINPUT, "summary: no column '%s' (the metric)", o->metric);
    else if (t->nrows == 0)
        rc = saturn_error_set(err, SATURN_EINPUT, "summary: no rows");
    else if ((w.across >= 0 && (w.across == w.group || w.across == w.seeds)) ||
             (w.group >= 0 && w.group == w.seeds))
        rc = saturn_error_set(err, SATURN_EINPUT,
                              "summary: across, group and seeds must be different keys");
    if (!rc)
        rc = parse_baseline(&w, err);
    if (!rc)
        rc = classify(&w, err);
    if (!rc) {
        s->npatterns = w.patterns.n;
        s->ngroups = w.groups.n;
        s->patterns = names_of(&w.patterns);
        char **gnames = names_of(&w.groups);
        s->groups = calloc(s->ngroups, sizeof *s->groups);
        for (size_t g = 0; s->groups && gnames && g < s->ngroups; g++)
            s->groups[g].name = gnames[g];
        if (!s->groups && gnames)
            for (size_t g = 0; g < s->ngroups; g++)
                free(gnames[g]);
        free(gnames);
        if (!s->patterns || !gnames || !s->groups)
            rc = saturn_error_set(err, SATURN_ENOMEM, "out of memory");
    }
    if (!rc)
        rc = accumulate(&w, err);
    if (!rc)
        rc = find_baseline(&w, err);
    if (!rc)
        rc = pick(s, err);
    if (!rc && row_set)
        memcpy(row_set, w.row_set, t->nrows * sizeof *row_set);
    if (!rc && row_pattern)
        memcpy(row_pattern, w.row_pattern, t->nrows * sizeof *row_pattern);
    strmap_free(&w.patterns);
    strmap_free(&w.groups);
    strmap_free(&w.sets);
    free(w.param_cols);
    free(w.row_set);
    free(w.row_pattern);
    if (rc)
        saturn_summary_free(s);
    else
        *out = s;
    return rc;
}

int saturn_summary_compute(const struct saturn_table *t, const struct saturn_summary_opts *o,
                           struct saturn_summary **out, struct saturn_error *err)
{
    return summary_compute_rows(t, o, out, NULL, NULL, err);
}

void saturn_summary_free(struct saturn_summary *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->nsets; i++) {
        for (size_t p = 0; s->sets[i].values && p < s->nparams; p++)
            free(s->sets[i].values[p]);
        free(s->sets[i].values);
        free(s->sets[i].stat);
    }
    for (size_t p = 0; s->patterns && p < s->npatterns; p++)
        free(s->patterns[p]);
    for (size_t g = 0; s->groups && g < s->ngroups; g++) {
        free(s->groups[g].name);
        free(s->groups[g].best);
    }
    for (size_t p = 0; s->params && p < s->nparams; p++)
        free(s->params[p]);
    free(s->sets);
    free(s->patterns);
    free(s->groups);
    free(s->params);
    free(s);
}
