/* gnuplot scripts for saturn's figures: latency against accepted load
 * (curves and sweeps) and a run's time series. Building the script is
 * pure (tested without gnuplot); src/cli/plot.c runs it. The data of a
 * latency-throughput figure goes inline ($d1 << EOD), so a figure needs
 * no file but its own. */
#ifndef SATURN_IO_PLOT_H
#define SATURN_IO_PLOT_H

#include <stdbool.h>
#include <stddef.h>

#include "saturn/error.h"

/* One line of a latency-throughput figure. */
struct plot_curve {
    char *title;
    size_t n, cap;
    double *offered, *accepted, *latency;
    bool *saturated;
};

/* Adds a point (drawn in offered-load order). */
int plot_curve_add(struct plot_curve *c, double offered, double accepted, double latency,
                   bool saturated);
void plot_curve_free(struct plot_curve *c);

struct saturn_table;
/* A sweep's rows as curves: one per combination of the varied keys but
 * the load (traffic.flit_rate, traffic.packet_rate), titled with it
 * ("router.vcs=2, traffic.pattern=uniform"; "all points" when only the
 * load varies), points in row order. *out is malloc'd (plot_curve_free
 * each, then free). */
int plot_curves_from_table(const struct saturn_table *t, struct plot_curve **out, size_t *n,
                           struct saturn_error *err);

/* The gnuplot terminal for a figure path by its extension: .png (pngcairo),
 * .svg, .pdf (pdfcairo). SATURN_EINPUT naming the option otherwise. */
int plot_terminal(const char *opt, const char *path, char *buf, size_t n,
                  struct saturn_error *err);
/* A path as a gnuplot single-quoted string ('' for a quote). */
void plot_quote(const char *s, char *buf, size_t n);

/* Latency (log scale) against accepted load, a colour per curve, a line
 * through its points in offered-load order, stable points filled and
 * saturated ones hollow; with one curve, a dashed line at its saturation
 * throughput (the highest accepted load). Written to `out` (a path given
 * to gnuplot: the caller's temporary name), titled `title`. malloc'd
 * text, or NULL (SATURN_EINPUT or SATURN_ENOMEM in err). */
char *plot_curves_script(const char *figure, const char *out, const char *title,
                         const struct plot_curve *curves, size_t ncurves,
                         struct saturn_error *err);

/* A run's time series from its --series CSV (read by gnuplot by column
 * name): accepted and offered load, and packets in flight, against the
 * cycle; a ramp adds its nominal load and smoothed accepted load; the mean
 * latency on the right axis. */
char *plot_series_script(const char *figure, const char *out, const char *title,
                         const char *csv, bool ramp, struct saturn_error *err);

#endif
