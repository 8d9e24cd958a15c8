/* Items ordered by a small integer key (a stable counting sort): the
 * control policies walk routers and nodes class by class. */
#ifndef SATURN_ORDER_H
#define SATURN_ORDER_H

#include <stdint.h>

/* order[first[k] .. first[k + 1]) are the items 0..n-1 whose key is k, in
 * ascending index; first has nkeys + 1 entries, every key[i] < nkeys. */
void order_by_key(const uint32_t *key, uint32_t n, uint32_t nkeys, uint32_t *first,
                  uint32_t *order);

#endif
