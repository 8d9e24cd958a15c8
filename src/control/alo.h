/* At-Least-One injection limitation (Baydal, Lopez, Duato; as paper 001,
 * section 5.1, describes it), exported for tests. */
#ifndef SATURN_ALO_H
#define SATURN_ALO_H

#include <stdbool.h>
#include <stdint.h>

/* The rule on one packet's useful channels: vcfree[i] = the free VCs of
 * useful physical channel i (bit v), all = the mask of every VC. A node
 * may inject when every useful channel has a free VC, or some useful
 * channel has all its VCs free; with no useful channel (a packet for the
 * node's own router) always. */
bool alo_allows(int nuseful, const uint64_t *vcfree, uint64_t all);

#endif
