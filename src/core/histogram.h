/* A latency histogram in constant memory: exact below 1024, then 64
 * buckets per power of two (relative error under 1.6 %). */
#ifndef SATURN_HISTOGRAM_H
#define SATURN_HISTOGRAM_H

#include <stddef.h>
#include <stdint.h>

#include "saturn/results.h"

#define HIST_EXACT 1024
#define HIST_SUB 64
#define HIST_BUCKETS (HIST_EXACT + 54 * HIST_SUB)

struct histogram {
    uint64_t count[HIST_BUCKETS];
    uint64_t n;
    double sum;
    uint64_t min, max;
};

void hist_init(struct histogram *h);
void hist_add(struct histogram *h, uint64_t v);
/* Value at quantile q in [0, 1]: the upper edge of the bucket that holds it. */
double hist_quantile(const struct histogram *h, double q);
void hist_summary(const struct histogram *h, struct saturn_latency *out);
/* Non-empty buckets as a malloc'd array; *n set. */
struct saturn_bucket *hist_buckets(const struct histogram *h, size_t *n);
void hist_bucket_range(size_t i, uint64_t *lo, uint64_t *hi);

#endif
