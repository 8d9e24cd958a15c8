/* The summary of a sweep as text (a readable report) and as CSV. */
#define _GNU_SOURCE /* open_memstream */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/csv.h"
#include "saturn/sweep.h"

/* "key=value key=value" of a set's non-empty parameters, else none. */
static void print_params(FILE *f, const struct saturn_summary *s, size_t set, const char *none)
{
    int shown = 0;
    for (size_t p = 0; p < s->nparams; p++)
        if (s->sets[set].values[p][0])
            fprintf(f, "%s%s=%s", shown++ ? " " : "", s->params[p], s->sets[set].values[p]);
    if (!shown)
        fputs(none, f);
}

static bool has_params(const struct saturn_summary *s, size_t set)
{
    for (size_t p = 0; p < s->nparams; p++)
        if (s->sets[set].values[p][0])
            return true;
    return false;
}

static void print_group_name(FILE *f, const struct saturn_summary *s, size_t g)
{
    if (s->has_group)
        fprintf(f, "%s=%s", s->opts.group, s->groups[g].name);
    else
        fprintf(f, "all rows");
}

static int pattern_width(const struct saturn_summary *s)
{
    size_t w = 8;
    for (size_t p = 0; p < s->npatterns; p++)
        if (strlen(s->patterns[p]) > w)
            w = strlen(s->patterns[p]);
    return (int)w;
}

static void print_stat(FILE *f, int w, const char *pattern, const struct saturn_summary_stat *st)
{
    fprintf(f, "    %-*s %4zu %12.6g %11.4g", w, pattern[0] ? pattern : "-", st->n, st->mean, st->std);
}

void saturn_summary_print(const struct saturn_summary *s, FILE *f)
{
    int w = pattern_width(s);
    fprintf(f, "summary: %s, %s is better; speed-up = %s\n", s->opts.metric,
            s->higher_better ? "higher" : "lower",
            s->higher_better ? "mean / baseline mean" : "baseline mean / mean");
    fprintf(f, "  patterns (%s):", s->opts.across);
    for (size_t p = 0; p < s->npatterns; p++)
        fprintf(f, " %s", s->patterns[p][0] ? s->patterns[p] : "-");
    fprintf(f, "\n  %zu parameter sets in %zu group%s; mean and sample std over %s\n",
            s->nsets, s->ngroups, s->ngroups == 1 ? "" : "s",
            s->has_seeds ? s->opts.seeds : "the rows of a set (no seed key varied)");
    fprintf(f, "\nbaseline %s", s->opts.baseline);
    if (has_params(s, s->baseline_set)) {
        fprintf(f, " (");
        print_params(f, s, s->baseline_set, "");
        fprintf(f, ")");
    }
    fprintf(f, "\n    %-*s %4s %12s %11s\n", w, "pattern", "n", "mean", "std");
    for (size_t p = 0; p < s->npatterns; p++) {
        print_stat(f, w, s->patterns[p], &s->sets[s->baseline_set].stat[p]);
        fputc('\n', f);
    }
    for (size_t g = 0; g < s->ngroups; g++) {
        const struct saturn_summary_group *gr = &s->groups[g];
        fprintf(f, "\n");
        print_group_name(f, s, g);
        fprintf(f, ": individual best (per pattern)\n    %-*s %4s %12s %11s %9s  parameters\n",
                w, "pattern", "n", "mean", "std", "speed-up");
        for (size_t p = 0; p < s->npatterns; p++) {
            if (gr->best[p] == SIZE_MAX) {
                fprintf(f, "    %-*s no data\n", w, s->patterns[p]);
                continue;
            }
            const struct saturn_summary_stat *st = &s->sets[gr->best[p]].stat[p];
            print_stat(f, w, s->patterns[p], st);
            fprintf(f, " %9.4f  ", st->speedup);
            print_params(f, s, gr->best[p], "-");
            fputc('\n', f);
        }
        fprintf(f, "    geometric mean of the individual-best speed-ups: %.4f (%zu of %zu patterns)\n",
                gr->best_geomean, gr->nbest, s->npatterns);
        print_group_name(f, s, g);
        if (gr->average == SIZE_MAX) {
            fprintf(f, ": average best: none (no parameter set has every pattern)\n");
            continue;
        }
        const struct saturn_summary_set *x = &s->sets[gr->average];
        fprintf(f, ": average best ");
        print_params(f, s, gr->average, "(no other key varied)");
        fprintf(f, ", geometric mean of its speed-ups %.4f\n    %-*s %4s %12s %11s %9s\n",
                x->geomean, w, "pattern", "n", "mean", "std", "speed-up");
        for (size_t p = 0; p < s->npatterns; p++) {
            print_stat(f, w, s->patterns[p], &x->stat[p]);
            fprintf(f, " %9.4f\n", x->stat[p].speedup);
        }
    }
}

/* One row: group, kind, pattern, the set's parameters (none: empty), then
 * the statistic (NULL: only the speed-up x). */
static void csv_row(FILE *f, const struct saturn_summary *s, size_t g, const char *kind,
                    const char *pattern, size_t set, const struct saturn_summary_stat *st, double x)
{
    csv_cell(f, s->groups[g].name);
    fprintf(f, ",%s,", kind);
    csv_cell(f, pattern);
    for (size_t p = 0; p < s->nparams; p++) {
        fputc(',', f);
        if (set != SIZE_MAX)
            csv_cell(f, s->sets[set].values[p]);
    }
    if (st)
        fprintf(f, ",%zu,%.6g,%.6g,%.6g\n", st->n, st->mean, st->std, st->speedup);
    else
        fprintf(f, ",,,,%.6g\n", x);
}

char *saturn_summary_csv(const struct saturn_summary *s)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    fprintf(f, "group,kind,pattern");
    for (size_t p = 0; p < s->nparams; p++) {
        fputc(',', f);
        csv_cell(f, s->params[p]);
    }
    fprintf(f, ",n,mean,std,speedup\n");
    const struct saturn_summary_set *b = &s->sets[s->baseline_set];
    for (size_t p = 0; p < s->npatterns; p++)
        csv_row(f, s, b->group, "baseline", s->patterns[p], s->baseline_set, &b->stat[p], 0);
    for (size_t g = 0; g < s->ngroups; g++) {
        const struct saturn_summary_group *gr = &s->groups[g];
        for (size_t p = 0; p < s->npatterns; p++)
            if (gr->best[p] != SIZE_MAX)
                csv_row(f, s, g, "individual", s->patterns[p], gr->best[p],
                        &s->sets[gr->best[p]].stat[p], 0);
        csv_row(f, s, g, "individual_geomean", "", SIZE_MAX, NULL, gr->best_geomean);
        if (gr->average == SIZE_MAX)
            continue;
        for (size_t p = 0; p < s->npatterns; p++)
            csv_row(f, s, g, "average", s->patterns[p], gr->average,
                    &s->sets[gr->average].stat[p], 0);
        csv_row(f, s, g, "average_geomean", "", gr->average, NULL, s->sets[gr->average].geomean);
    }
    if (fclose(f)) {
        free(buf);
        return NULL;
    }
    return buf;
}
