/* Progress lines for long runs: the arithmetic (rate, ETA, when a line is
 * due) and the text. Pure functions of the reports and of the time they
 * are handed (tests inject the clock); the caller decides where the text
 * goes. No global state: a meter is the caller's. */
#ifndef SATURN_PROGRESS_H
#define SATURN_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "saturn/saturn.h"

enum progress_style {
    PROGRESS_OFF,   /* nothing */
    PROGRESS_LIVE,  /* one line redrawn in place (a terminal) */
    PROGRESS_PLAIN  /* a line now and then (a log file or a pipe) */
};

/* Seconds between live redraws, and the plain lines' bounds: a plain line
 * every tenth of the time elapsed, at least PLAIN_MIN and at most
 * PLAIN_MAX seconds apart (so a log of an hour's run holds ~ 70 lines). */
#define PROGRESS_LIVE_INTERVAL 0.25
#define PROGRESS_PLAIN_MIN 5.0
#define PROGRESS_PLAIN_MAX 60.0
/* Time constant of the smoothed rate (seconds). */
#define PROGRESS_RATE_TAU 10.0

struct progress_meter {
    enum progress_style style;
    double t0;          /* the task's start */
    double last_line;   /* when the last line was made (< t0: none yet) */
    unsigned lines;     /* lines made so far */
    /* the smoothed rate, in units per second, of the unit below */
    double rate;
    double t_prev;
    uint64_t done_prev;
    char unit[24];
    bool have_prev;
};

/* eager: the first report makes a line at once (progress asked for). */
void progress_init(struct progress_meter *m, enum progress_style style, double now);
void progress_eager(struct progress_meter *m);
/* Seconds a meter waits after its last line (or its start) before the next. */
double progress_interval(const struct progress_meter *m, double now);
/* Feeds a report made at `now`: updates the rate and, when a line is due,
 * writes it into buf (without a line break) and returns true. */
bool progress_update(struct progress_meter *m, const struct saturn_progress *p, double now,
                     char *buf, size_t n);
/* The closing line ("curve: done in 1m12s"): made for a meter that made a
 * line before, or when `force`; false otherwise. */
bool progress_finish(struct progress_meter *m, const char *task, double now, bool force,
                     char *buf, size_t n);

/* The pieces, exposed for tests. */
/* Seconds left at `rate` units per second (-1: unknown). */
double progress_eta(uint64_t done, uint64_t total, double rate);
/* "0s", "42s", "3m05s", "1h02m", "3d04h"; "?" when negative. */
void progress_duration(double seconds, char *buf, size_t n);
/* "850 cycles/s", "12.3 k cycles/s", "1.48 M cycles/s", "0.25 points/s". */
void progress_rate_text(double rate, const char *unit, char *buf, size_t n);
/* 1234567 -> "1,234,567". */
void progress_count(uint64_t v, char *buf, size_t n);
/* The whole line for a report. */
void progress_format(const struct saturn_progress *p, double rate, double elapsed, char *buf,
                     size_t n);

#endif
