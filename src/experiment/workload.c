/* The workload registry (see workload.h). */
#include "experiment/workload.h"

#include "experiment/sim.h"

const char *const workload_names[WORKLOAD_COUNT + 1] = {
    [WORKLOAD_STEADY] = "steady",   [WORKLOAD_COLLECTIVE] = "collective",
    [WORKLOAD_RAMP] = "ramp",       [WORKLOAD_PHASES] = "phases",
    [WORKLOAD_TRACE] = "trace",     [WORKLOAD_COUNT] = NULL};

static const struct workload workloads[WORKLOAD_COUNT] = {
    [WORKLOAD_STEADY] = {"steady", steady_run, true},
    [WORKLOAD_COLLECTIVE] = {"collective", collective_run, false},
    [WORKLOAD_RAMP] = {"ramp", ramp_run, false},
    [WORKLOAD_PHASES] = {"phases", phases_run, false},
    [WORKLOAD_TRACE] = {"trace", replay_run, false},
};

const struct workload *workload_get(enum workload_id id) { return &workloads[id]; }

enum workload_id workload_of(const struct saturn_config *cfg)
{
    return (enum workload_id)saturn_config_enum(cfg, "sim.workload");
}
