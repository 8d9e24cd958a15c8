/* Disha's deadlock-recovery lane (src/route/disha_lane.c), side machinery
 * on the engine's hooks, attached by the disha routing (route_ops.attach). */
#ifndef SATURN_DISHA_LANE_H
#define SATURN_DISHA_LANE_H

#include "net/net.h"

int disha_lane_attach(struct net *n, const struct saturn_config *cfg, struct saturn_error *err);
/* Recoveries started so far, and the cycles the token was held (0 without
 * the lane). */
uint64_t disha_lane_count(const struct net *n);
uint64_t disha_lane_busy_cycles(const struct net *n);
extern const struct saturn_param disha_lane_params[];

#endif
