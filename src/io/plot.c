/* gnuplot scripts (plot.h). */
#define _GNU_SOURCE /* open_memstream */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/plot.h"
#include "saturn/sweep.h"

int plot_curve_add(struct plot_curve *c, double offered, double accepted, double latency,
                   bool saturated)
{
    if (c->n == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 16;
        double *o = realloc(c->offered, cap * sizeof *o);
        if (o)
            c->offered = o;
        double *a = realloc(c->accepted, cap * sizeof *a);
        if (a)
            c->accepted = a;
        double *l = realloc(c->latency, cap * sizeof *l);
        if (l)
            c->latency = l;
        bool *s = realloc(c->saturated, cap * sizeof *s);
        if (s)
            c->saturated = s;
        if (!o || !a || !l || !s)
            return SATURN_ENOMEM;
        c->cap = cap;
    }
    c->offered[c->n] = offered;
    c->accepted[c->n] = accepted;
    c->latency[c->n] = latency;
    c->saturated[c->n++] = saturated;
    return SATURN_OK;
}

void plot_curve_free(struct plot_curve *c)
{
    free(c->title);
    free(c->offered);
    free(c->accepted);
    free(c->latency);
    free(c->saturated);
    memset(c, 0, sizeof *c);
}

static long column(const struct saturn_table *t, const char *name)
{
    for (size_t c = 0; c < t->ncols; c++)
        if (!strcmp(t->cols[c], name))
            return (long)c;
    return -1;
}

static bool load_key(const char *k)
{
    return !strcmp(k, "traffic.flit_rate") || !strcmp(k, "traffic.packet_rate");
}

/* A key column that takes more than one value: one that names curves. */
static bool varies(const struct saturn_table *t, size_t k)
{
    for (size_t r = 1; r < t->nrows; r++)
        if (strcmp(t->cells[r * t->ncols + k], t->cells[k]))
            return true;
    return false;
}

int plot_curves_from_table(const struct saturn_table *t, struct plot_curve **out, size_t *n,
                           struct saturn_error *err)
{
    *out = NULL;
    *n = 0;
    long co = column(t, "offered"), ca = column(t, "accepted"), cl = column(t, "latency_mean"),
         cs = column(t, "saturated");
    if (co < 0 || ca < 0 || cl < 0 || cs < 0)
        return saturn_error_set(err, SATURN_EINPUT, "the sweep's CSV has no offered, accepted, "
                                                    "latency_mean and saturated columns to plot");
    struct plot_curve *cv = calloc(t->nrows ? t->nrows : 1, sizeof *cv);
    size_t ncv = 0;
    int rc = cv ? SATURN_OK : SATURN_ENOMEM;
    for (size_t r = 0; r < t->nrows && !rc; r++) {
        char **row = t->cells + r * t->ncols, title[1024] = "";
        size_t used = 0;
        for (size_t k = t->key_begin; k < t->key_end && used < sizeof title; k++)
            if (!load_key(t->cols[k]) && row[k][0] && varies(t, k))
                used += (size_t)snprintf(title + used, sizeof title - used, "%s%s=%s",
                                         used ? ", " : "", t->cols[k], row[k]);
        if (!used)
            snprintf(title, sizeof title, "all points");
        size_t c = 0;
        while (c < ncv && strcmp(cv[c].title, title))
            c++;
        if (c == ncv && !(cv[ncv++].title = strdup(title)))
            rc = SATURN_ENOMEM;
        if (!rc)
            rc = plot_curve_add(&cv[c], atof(row[co]), atof(row[ca]), atof(row[cl]),
                                atoi(row[cs]) != 0);
    }
    if (rc) {
        for (size_t c = 0; c < ncv; c++)
            plot_curve_free(&cv[c]);
        free(cv);
        return saturn_error_set(err, SATURN_ENOMEM, "out of memory");
    }
    *out = cv;
    *n = ncv;
    return SATURN_OK;
}

int plot_terminal(const char *opt, const char *path, char *buf, size_t n,
                  struct saturn_error *err)
{
    const char *dot = strrchr(path, '.');
    const char *slash = strrchr(path, '/');
    if (dot && (!slash || dot > slash)) {
        /* noenhanced: keys such as traffic.flit_rate keep their underscores */
        if (!strcasecmp(dot, ".png")) {
            snprintf(buf, n, "pngcairo size 1000,700 noenhanced font 'DejaVu Sans,11'");
            return SATURN_OK;
        }
        if (!strcasecmp(dot, ".svg")) {
            snprintf(buf, n, "svg size 1000,700 noenhanced font 'DejaVu Sans,11' background '#ffffff'");
            return SATURN_OK;
        }
        if (!strcasecmp(dot, ".pdf")) {
            snprintf(buf, n, "pdfcairo size 10in,7in noenhanced font 'DejaVu Sans,11'");
            return SATURN_OK;
        }
    }
    return saturn_error_set(err, SATURN_EINPUT,
                            "%s '%s': give a .png, .svg or .pdf file (the figure's format)", opt,
                            path);
}

void plot_quote(const char *s, char *buf, size_t n)
{
    size_t o = 0;
    if (n < 3) {
        if (n)
            buf[0] = 0;
        return;
    }
    buf[o++] = '\'';
    for (; *s && o + 3 < n; s++) {
        if (*s == '\'')
            buf[o++] = '\'';
        buf[o++] = *s;
    }
    buf[o++] = '\'';
    buf[o] = 0;
}

/* Points in offered-load order (insertion sort: a curve has tens). */
static size_t *order(const struct plot_curve *c)
{
    size_t *ix = malloc((c->n ? c->n : 1) * sizeof *ix);
    if (!ix)
        return NULL;
    for (size_t i = 0; i < c->n; i++) {
        size_t j = i;
        for (; j > 0 && c->offered[ix[j - 1]] > c->offered[i]; j--)
            ix[j] = ix[j - 1];
        ix[j] = i;
    }
    return ix;
}

/* The head every figure shares: terminal, output, title (if any). */
static int head(FILE *f, const char *figure, const char *out, const char *title,
                struct saturn_error *err)
{
    char term[160], q[4200], t[1100];
    if (plot_terminal("--plot", figure, term, sizeof term, err))
        return SATURN_EINPUT;
    plot_quote(out, q, sizeof q);
    fprintf(f, "set terminal %s\nset output %s\n", term, q);
    if (title) {
        plot_quote(title, t, sizeof t);
        fprintf(f, "set title %s\n", t);
    }
    fprintf(f, "set grid xtics ytics mytics back lw 1 lc rgb '#dddddd'\nset border lc rgb '#404040'\n");
    return SATURN_OK;
}

/* A script in memory, begun with its head; NULL after setting err. */
static FILE *begin(char **text, size_t *len, const char *figure, const char *out,
                   const char *title, struct saturn_error *err)
{
    FILE *f = open_memstream(text, len);
    if (!f) {
        saturn_error_set(err, SATURN_ENOMEM, "out of memory");
        return NULL;
    }
    if (head(f, figure, out, title, err)) {
        fclose(f);
        free(*text);
        *text = NULL;
        return NULL;
    }
    return f;
}

/* Closes the memory stream: its text, complete (fclose sets *text). */
static char *finish(FILE *f, char **text, struct saturn_error *err)
{
    if (fclose(f) || !*text) {
        free(*text);
        saturn_error_set(err, SATURN_ENOMEM, "out of memory");
        return NULL;
    }
    return *text;
}

char *plot_curves_script(const char *figure, const char *out, const char *title,
                         const struct plot_curve *curves, size_t ncurves,
                         struct saturn_error *err)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = begin(&text, &len, figure, out, title, err);
    if (!f)
        return NULL;
    double best = 0;
    for (size_t k = 0; k < ncurves; k++) {
        size_t *ix = order(&curves[k]);
        if (!ix) {
            fclose(f);
            free(text);
            saturn_error_set(err, SATURN_ENOMEM, "out of memory");
            return NULL;
        }
        /* offered accepted latency saturated, in offered-load order */
        fprintf(f, "$d%zu << EOD\n", k + 1);
        for (size_t i = 0; i < curves[k].n; i++) {
            size_t p = ix[i];
            fprintf(f, "%.9g %.9g %.9g %d\n", curves[k].offered[p], curves[k].accepted[p],
                    curves[k].latency[p], curves[k].saturated[p] ? 1 : 0);
            if (curves[k].accepted[p] > best)
                best = curves[k].accepted[p];
        }
        fprintf(f, "EOD\n");
        free(ix);
    }
    fprintf(f, "set xlabel 'accepted load (flits/node/cycle)'\n"
               "set ylabel 'mean packet latency (cycles)'\n"
               "set logscale y\nset xrange [0:*]\n"
               "set style line 100 lc rgb '#303030' pt 6 ps 1.5\n");
    /* one curve rises away from the top left; several may cross it: beside */
    if (ncurves == 1)
        fprintf(f, "set key top left box opaque Left reverse spacing 1.2\n");
    else
        fprintf(f, "set key outside right top box Left reverse spacing 1.2\n");
    if (ncurves == 1 && best > 0) /* where the curve saturates */
        fprintf(f, "set arrow from %.9g, graph 0 to %.9g, graph 1 nohead dt 2 lc rgb '#808080'\n"
                   "set label sprintf('saturation throughput %%.4f', %.9g) at %.9g, graph 0.04 "
                   "right offset -0.5,0 tc rgb '#606060'\n",
                best, best, best, best);
    fprintf(f, "plot \\\n");
    for (size_t k = 0; k < ncurves; k++) {
        char t[600];
        plot_quote(curves[k].title ? curves[k].title : "", t, sizeof t);
        /* the line through every point; stable points filled; saturated hollow */
        fprintf(f, "  $d%zu using 2:($3 > 0 ? $3 : 1/0) with lines lc %zu lw 1.5 notitle, \\\n"
                   "  $d%zu using 2:($4 == 0 && $3 > 0 ? $3 : 1/0) with points lc %zu pt 7 ps 1.3 "
                   "title %s, \\\n"
                   "  $d%zu using 2:($4 == 1 && $3 > 0 ? $3 : 1/0) with points lc %zu pt 6 ps 1.6 "
                   "lw 1.5 notitle, \\\n",
                k + 1, k + 1, k + 1, k + 1, t, k + 1, k + 1);
    }
    fprintf(f, "  NaN with points ls 100 title 'hollow: saturated'\n");
    return finish(f, &text, err);
}

char *plot_series_script(const char *figure, const char *out, const char *title,
                         const char *csv, bool ramp, struct saturn_error *err)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = begin(&text, &len, figure, out, NULL, err);
    if (!f)
        return NULL;
    char q[4200], t[1100];
    plot_quote(csv, q, sizeof q);
    plot_quote(title ? title : "", t, sizeof t);
    /* columns by name: the CSV's header (saturn run --series) */
    fprintf(f, "set datafile separator ','\nset key top left box opaque Left reverse spacing 1.2\n"
               "set multiplot layout 2,1 title %s\n"
               "set lmargin 12\nset rmargin 12\n", t);
    fprintf(f, "set ylabel 'flits/node/cycle'\nset format x ''\nset yrange [0:*]\n"
               "plot %s using 'cycle':'offered' with lines lc rgb '#7b68ee' title 'offered', \\\n"
               "  '' using 'cycle':'accepted' with lines lc rgb '#2e8b57' title 'accepted'",
            q);
    /* the smooth lines last, on top of the noisy ones */
    if (ramp)
        fprintf(f, ", \\\n  '' using 'cycle':'nominal' with lines lc rgb '#202020' dt 2 lw 2 "
                   "title 'nominal (ramp)', \\\n"
                   "  '' using 'cycle':'accepted_ma' with lines lc rgb '#e07000' lw 2.5 "
                   "title 'accepted, smoothed'");
    /* packets in flight behind, in grey; latency over them */
    fprintf(f, "\nset format x '%%g'\nset xlabel 'cycle'\nset ylabel 'mean latency (cycles)'\n"
               "set y2label 'packets in the network'\nset ytics nomirror\nset y2tics\n"
               "set yrange [0:*]\nset y2range [0:*]\n"
               "plot %s using 'cycle':'inflight' axes x1y2 with lines lc rgb '#b8b8b8' "
               "title 'packets in the network (right)', \\\n"
               "  '' using 'cycle':(column('latency') > 0 ? column('latency') : 1/0) "
               "with lines lc rgb '#8a2be2' lw 1.5 title 'latency of the packets delivered'\n"
               "unset multiplot\n",
            q);
    return finish(f, &text, err);
}
