/* Running collectives with per-node start offsets (saturn ga, cupstack). */
#ifndef SATURN_CLI_COLLECTIVE_EVAL_H
#define SATURN_CLI_COLLECTIVE_EVAL_H

#include <stdint.h>

#include "saturn/saturn.h"

/* One collective of cfg with these offsets (NULL: cfg's schedule; else one
 * per node). Fills duration, thickness and (unless NULL) the number of
 * nodes; SATURN_OK or an error in err. */
int collective_eval(const struct saturn_config *cfg, const int64_t *offsets, uint64_t *duration,
                    uint64_t *thickness, size_t *nodes, struct saturn_error *err);
/* Offsets as a "node,offset" CSV, written atomically. */
int schedule_write(const char *path, const int64_t *off, size_t n, struct saturn_error *err);

#endif
