#include "core/order.h"

void order_by_key(const uint32_t *key, uint32_t n, uint32_t nkeys, uint32_t *first,
                  uint32_t *order)
{
    for (uint32_t k = 0; k <= nkeys; k++)
        first[k] = 0;
    for (uint32_t i = 0; i < n; i++) /* key k's count in first[k + 1] */
        first[key[i] + 1]++;
    for (uint32_t k = 0; k < nkeys; k++)
        first[k + 1] += first[k];
    /* first[k] as key k's cursor ends at key k + 1's start: shifted back after */
    for (uint32_t i = 0; i < n; i++)
        order[first[key[i]]++] = i;
    for (uint32_t k = nkeys; k > 0; k--)
        first[k] = first[k - 1];
    first[0] = 0;
}
