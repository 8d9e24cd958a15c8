/* The workload registry: what drives a simulation (sim.workload). A new
 * workload adds one entry to workload.c and its run function; sim.c and
 * the commands ask the registry instead of knowing each workload. */
#ifndef SATURN_WORKLOAD_H
#define SATURN_WORKLOAD_H

#include <stdbool.h>

#include "saturn/saturn.h"

struct saturn_sim;

/* Indices of sim.workload's values, in the registry's order. */
enum workload_id {
    WORKLOAD_STEADY,
    WORKLOAD_COLLECTIVE,
    WORKLOAD_RAMP,
    WORKLOAD_PHASES,
    WORKLOAD_TRACE,
    WORKLOAD_COUNT
};

struct workload {
    const char *name;
    int (*run)(struct saturn_sim *s, struct saturn_results *r, struct saturn_error *err);
    /* Its births come from traffic.process (only steady's do; the others
     * draw their own, so traffic.process is refused with them). */
    bool uses_traffic_process;
};

/* sim.workload's value names, NULL-terminated (the enum parameter's list). */
extern const char *const workload_names[];

const struct workload *workload_get(enum workload_id id);
/* The configured workload. */
enum workload_id workload_of(const struct saturn_config *cfg);

#endif
