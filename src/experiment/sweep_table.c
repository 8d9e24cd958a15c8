/* Sweep summaries: the metric names, the options, and in-memory tables. */
#define _GNU_SOURCE /* strdup */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "saturn/sweep.h"

const char *const saturn_sweep_metrics[] = {
    "duration", "accepted", "offered", "latency_mean", "latency_p99",
    "network_latency_mean", "hops_mean", "saturated", "cycles", "wall_seconds", NULL};

/* ---- options ---- */

void saturn_summary_opts_default(struct saturn_summary_opts *o)
{
    memset(o, 0, sizeof *o);
    strcpy(o->metric, "duration");
    strcpy(o->across, "traffic.pattern");
    strcpy(o->group, "control.model");
    strcpy(o->seeds, "sim.seed");
}

bool saturn_summary_higher_better(const struct saturn_summary_opts *o)
{
    if (o->better != SATURN_BETTER_AUTO)
        return o->better == SATURN_BETTER_HIGHER;
    return !strcmp(o->metric, "accepted") || !strcmp(o->metric, "offered");
}

static int copy_opt(char *dst, size_t n, const char *v, const char *where,
                    const char *name, struct saturn_error *err)
{
    if (strlen(v) >= n)
        return saturn_error_set(err, SATURN_EINPUT, "%s: %s = %s: too long", where, name, v);
    strcpy(dst, v);
    return SATURN_OK;
}

/* "key=value, key=value": every key known and every value valid for it. */
static int check_baseline(const char *v, const char *file, int line, const char *where,
                          struct saturn_error *err)
{
    struct saturn_config *c = saturn_config_new();
    char *copy = strdup(v);
    int rc = c && copy ? SATURN_OK : saturn_error_set(err, SATURN_ENOMEM, "out of memory");
    char *save = NULL;
    for (char *t = copy ? strtok_r(copy, ",", &save) : NULL; t && !rc;
         t = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(t, '=');
        if (!eq) {
            rc = saturn_error_set(err, SATURN_EINPUT, "%s: baseline = %s: '%s' is not key=value",
                                  where, v, t);
            break;
        }
        *eq = 0;
        while (isspace((unsigned char)*t))
            t++;
        for (char *e = eq; e > t && isspace((unsigned char)e[-1]);)
            *--e = 0;
        rc = saturn_config_set(c, t, eq + 1, file, file ? line : 0, err);
    }
    free(copy);
    saturn_config_free(c);
    return rc;
}

int saturn_summary_opts_set(struct saturn_summary_opts *o, const char *name,
                            const char *value, const char *file, int line,
                            struct saturn_error *err)
{
    char where[600];
    if (file)
        snprintf(where, sizeof where, "%s:%d", file, line);
    else
        snprintf(where, sizeof where, "command line");
    while (isspace((unsigned char)*value))
        value++;
    char v[600];
    snprintf(v, sizeof v, "%s", value);
    for (size_t n = strlen(v); n && isspace((unsigned char)v[n - 1]);)
        v[--n] = 0;
    if (!strcmp(name, "metric")) {
        for (const char *const *m = saturn_sweep_metrics; *m; m++)
            if (!strcmp(*m, v))
                return copy_opt(o->metric, sizeof o->metric, v, where, name, err);
        return saturn_error_set(err, SATURN_EINPUT,
                                "%s: metric = %s: unknown metric; allowed: one of duration|"
                                "accepted|offered|latency_mean|latency_p99|network_latency_mean|"
                                "hops_mean|saturated|cycles|wall_seconds", where, v);
    }
    if (!strcmp(name, "better")) {
        if (!strcmp(v, "lower") || !strcmp(v, "higher") || !strcmp(v, "auto")) {
            o->better = v[0] == 'l' ? SATURN_BETTER_LOWER
                      : v[0] == 'h' ? SATURN_BETTER_HIGHER : SATURN_BETTER_AUTO;
            return SATURN_OK;
        }
        return saturn_error_set(err, SATURN_EINPUT,
                                "%s: better = %s: allowed: lower, higher or auto", where, v);
    }
    char *dst = !strcmp(name, "across") ? o->across
              : !strcmp(name, "group") ? o->group
              : !strcmp(name, "seeds") ? o->seeds : NULL;
    if (dst) {
        if (!strcmp(v, "none") && dst != o->across)
            v[0] = 0; /* no group / no seed averaging */
        else if (!saturn_param_find(v))
            return saturn_error_set(err, SATURN_EINPUT,
                                    "%s: %s = %s: not a configuration key (saturn config --list)%s",
                                    where, name, v, dst == o->across ? "" : ", or none");
        return copy_opt(dst, sizeof o->across, v, where, name, err);
    }
    if (!strcmp(name, "baseline")) {
        int rc = check_baseline(v, file, line, where, err);
        return rc ? rc : copy_opt(o->baseline, sizeof o->baseline, v, where, name, err);
    }
    return saturn_error_set(err, SATURN_EINPUT,
                            "%s: unknown summary option '%s'; allowed: metric, better, across, "
                            "group, seeds, baseline", where, name);
}

/* ---- tables ---- */

struct saturn_table *saturn_table_new(size_t ncols, const char *const *cols,
                                      size_t key_begin, size_t key_end)
{
    struct saturn_table *t = calloc(1, sizeof *t);
    if (!t || !(t->cols = calloc(ncols ? ncols : 1, sizeof *t->cols))) {
        free(t);
        return NULL;
    }
    t->ncols = ncols;
    t->key_begin = key_begin;
    t->key_end = key_end;
    for (size_t c = 0; c < ncols; c++)
        if (!(t->cols[c] = strdup(cols[c]))) {
            saturn_table_free(t);
            return NULL;
        }
    return t;
}

int saturn_table_add(struct saturn_table *t, const char *const *cells)
{
    if (t->nrows == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 64;
        char **x = realloc(t->cells, cap * t->ncols * sizeof *x);
        if (!x)
            return SATURN_ENOMEM;
        t->cells = x;
        t->cap = cap;
    }
    char **row = t->cells + t->nrows * t->ncols;
    for (size_t c = 0; c < t->ncols; c++)
        if (!(row[c] = strdup(cells[c] ? cells[c] : ""))) {
            while (c-- > 0)
                free(row[c]);
            return SATURN_ENOMEM;
        }
    t->nrows++;
    return SATURN_OK;
}

void saturn_table_free(struct saturn_table *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->nrows * t->ncols; i++)
        free(t->cells[i]);
    for (size_t c = 0; c < t->ncols; c++)
        free(t->cols[c]);
    free(t->cells);
    free(t->cols);
    free(t);
}
