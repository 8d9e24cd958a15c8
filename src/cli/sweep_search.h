/* saturn sweep --search (sweep_search.c). */
#ifndef SATURN_CLI_SWEEP_SEARCH_H
#define SATURN_CLI_SWEEP_SEARCH_H

#include <stdbool.h>

#include "experiment/search.h"
#include "saturn/sweep.h"

/* Runs the search for the summary options o into csv (and its .partial.csv
 * and .cut.csv companions), racing when race_z > 0 (search_race; race_eq > 0:
 * search_race_equiv); SATURN_OK
 * or an error in err. */
int sweep_search(const struct saturn_sweep *sw, const struct saturn_summary_opts *o,
                 enum search_goal goal, double race_z, size_t race_min, double race_eq,
                 const char *csv,
                 int jobs, bool share, bool quiet, struct saturn_error *err);

#endif
