/* Flits per packet as the run's workload makes them, from the configuration
 * alone: the engine checks its virtual cut-through buffers against it and
 * the workloads make their packets with it, so it sits below both. */
#ifndef SATURN_CORE_PACKET_FLITS_H
#define SATURN_CORE_PACKET_FLITS_H

#include <stdint.h>

#include "saturn/config.h"

/* traffic.packet_length, or for a sliced collective (sim.workload =
 * collective with collective.payload or .slices set) floor(p/s) + 1, p the
 * payload (traffic.packet_length - 1 when 0). *what names the rule, for
 * messages (may be NULL). */
uint32_t config_packet_flits(const struct saturn_config *cfg, const char **what);

#endif
