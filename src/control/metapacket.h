/* Metapacket gathering (src/control/metapacket.c): the global sums of the
 * gather controllers carried by the data network itself, on the side VC
 * the configuration reserves (gather.mode = metapacket). Side machinery on
 * the engine's hooks, attached by sim_net_create (src/experiment/sim.c). */
#ifndef SATURN_METAPACKET_H
#define SATURN_METAPACKET_H

#include "net/net.h"

struct meta_record {
    uint64_t start, end; /* sample cycle; cycle the last node knew the sum */
    double full, delivered;
};

int metapacket_attach(struct net *n, const struct saturn_config *cfg, struct saturn_error *err);
/* Completed gathers, oldest first (NULL, 0 without metapackets). */
const struct meta_record *meta_records(const struct net *n, size_t *count);
/* Gather times are counted while on (the measurement window). */
void meta_count(struct net *n, bool on);
/* false without metapackets. */
bool meta_stats(const struct net *n, uint64_t *count, double *min, double *mean, double *max);

#endif
