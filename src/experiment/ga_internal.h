/* Internals of the genetic optimiser (ga.c), exposed for the tests. */
#ifndef SATURN_GA_INTERNAL_H
#define SATURN_GA_INTERNAL_H

#include <stdint.h>

/* The k-th (k = 0, 1, ...) crossover pair as 1-based sorted ranks, a < b:
 * (1,2), (1,3), (2,3), (1,4), (2,4), (3,4), (1,5), ... — pairs are grouped
 * by the weaker rank b, and within a group the stronger rank a rises. */
void ga_pair(uint64_t k, uint32_t *a, uint32_t *b);

#endif
