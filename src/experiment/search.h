/* The best-parameter search: the summary's individual and average bests
 * (sweep_summary.c) without running every point, exactly.
 *
 * The metric is a duration (lower is better, whole cycles) with a known
 * lower bound per point (saturn_collective_bound; 0 will do). The points
 * are run in waves, one seed at a time; a set stops being run on a
 * pattern once even its best case cannot beat (nor tie) a set already
 * complete, on that pattern (individual best) and over all patterns
 * (average best); a run may be cut off once its duration alone shows as
 * much. What is kept: every (set, pattern) that was run on all its seeds;
 * the individual-best set of every pattern and the average-best set of
 * every group are among them, complete, so that the summary of the kept
 * rows picks the very sets, means, deviations and speed-ups the summary of
 * the whole sweep would. What is not: the other sets, and the average-best
 * of a group with a tolerance of 1e-9 on the geometric mean (logarithms).
 *
 * Waves: (1) the baseline set, every seed; (2) every set on the first seed;
 * (3) per group and pattern the set best on that seed, and per group the
 * set with the best geometric mean on it, on every seed (they set the
 * bars); (4) each further seed for the sets still in the race, with
 * cut-offs. The waves and their cut-offs depend only on the results, so
 * the search is deterministic whatever the order in which a wave's
 * results come in. */
#ifndef SATURN_SEARCH_H
#define SATURN_SEARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "saturn/sweep.h"

/* saturn_summary_compute, and each row's set and pattern (nrows each). */
int summary_compute_rows(const struct saturn_table *t, const struct saturn_summary_opts *o,
                         struct saturn_summary **out, size_t *row_set, size_t *row_pattern,
                         struct saturn_error *err);

enum search_goal { SEARCH_INDIVIDUAL = 1, SEARCH_AVERAGE = 2, SEARCH_BOTH = 3 };

struct search;

/* rows: a table of the varied keys and the metric column (any positive
 * value), one row per set and pattern at least (the seed column left
 * empty); point x is the point of row point_row[x] and seed point_seed[x]
 * (< nseed, numbered in the order the seeds come); lb[x] a lower bound on
 * its metric. Errors as the summary's (no baseline, ...), and
 * SATURN_EINPUT unless the metric is duration, lower better, or when two
 * points share a set, pattern and seed. */
int search_new(const struct saturn_table *rows, const size_t *point_row,
               const size_t *point_seed, size_t npoints, size_t nseed,
               const struct saturn_summary_opts *o, enum search_goal goal, const uint64_t *lb,
               struct search **out, struct saturn_error *err);
void search_free(struct search *s);
/* The next wave: its points and cut-offs (UINT64_MAX: none), at most
 * search_points() of them; 0 when the search is over. */
size_t search_next(struct search *s, size_t *points, uint64_t *cutoff);
/* A point's result: its exact value, or (cut) a lower bound above its cut-off. */
void search_record(struct search *s, size_t point, uint64_t value, bool cut);
/* Once over: whether the point's row belongs to the kept (complete) ones. */
bool search_kept(const struct search *s, size_t point);
size_t search_points(const struct search *s);

/* Racing (not exact, off by default): from min_seeds seeds on, a set whose
 * paired differences to the group's leader on the seeds so far (the
 * duration per pattern; for the average best, the sum of the log
 * durations over the patterns) have a mean more than z standard errors
 * above 0 leaves the race. It may drop the true best; it makes the number
 * of seeds a clearly worse set is run on small. */
void search_race(struct search *s, double z, size_t min_seeds);
/* With equiv > 0 (racing on, individual bests only), a set also leaves a
 * pattern's race once it is as good as the leader to within equiv: its
 * paired differences' mean plus z standard errors is at most equiv times
 * the leader's mean. Among sets that the seeds cannot tell apart the race
 * then keeps the leader instead of running them all to the last seed; the
 * pick is one of them, its mean within about that margin of the best's. */
void search_race_equiv(struct search *s, double equiv);

struct search_stats {
    size_t waves, run, cut, exact; /* points handed out; of them cut and exact */
    size_t raced;                  /* (set, pattern) or set left by the race */
    size_t equiv;                  /* of them, left as the leader's equal (search_race_equiv) */
};
void search_stats(const struct search *s, struct search_stats *st);

#endif
