/* CSV output shared by the sweep files (src/io/sweep_csv.c) and the sweep
 * summary (src/experiment/sweep_report.c). */
#ifndef SATURN_CSV_H
#define SATURN_CSV_H

#include <stdio.h>

/* Writes v as one CSV cell: as is, or quoted (with "" for a quote) when it
 * holds a comma, a quote or a line break. */
void csv_cell(FILE *f, const char *v);

#endif
