#include <stdlib.h>
#include <string.h>

#include "core/histogram.h"

void hist_init(struct histogram *h)
{
    memset(h, 0, sizeof *h);
    h->min = UINT64_MAX;
}

static size_t bucket_of(uint64_t v)
{
    if (v < HIST_EXACT)
        return (size_t)v;
    int e = 63 - __builtin_clzll(v); /* >= 10 */
    size_t sub = (size_t)(v >> (e - 6)) & (HIST_SUB - 1);
    return HIST_EXACT + (size_t)(e - 10) * HIST_SUB + sub;
}

void hist_bucket_range(size_t i, uint64_t *lo, uint64_t *hi)
{
    if (i < HIST_EXACT) {
        *lo = *hi = i;
        return;
    }
    int e = (int)((i - HIST_EXACT) / HIST_SUB) + 10;
    uint64_t sub = (i - HIST_EXACT) % HIST_SUB;
    uint64_t width = 1ULL << (e - 6);
    *lo = (1ULL << e) + sub * width;
    *hi = *lo + width - 1;
}

void hist_add(struct histogram *h, uint64_t v)
{
    h->count[bucket_of(v)]++;
    h->n++;
    h->sum += (double)v;
    if (v < h->min)
        h->min = v;
    if (v > h->max)
        h->max = v;
}

double hist_quantile(const struct histogram *h, double q)
{
    if (h->n == 0)
        return 0;
    uint64_t rank = (uint64_t)(q * (double)h->n);
    if (rank >= h->n)
        rank = h->n - 1;
    uint64_t seen = 0;
    for (size_t i = 0; i < HIST_BUCKETS; i++) {
        seen += h->count[i];
        if (seen > rank) {
            uint64_t lo, hi;
            hist_bucket_range(i, &lo, &hi);
            return (double)(hi < h->max ? hi : h->max);
        }
    }
    return (double)h->max;
}

void hist_summary(const struct histogram *h, struct saturn_latency *out)
{
    memset(out, 0, sizeof *out);
    out->count = h->n;
    if (!h->n)
        return;
    out->mean = h->sum / (double)h->n;
    out->min = (double)h->min;
    out->max = (double)h->max;
    out->p50 = hist_quantile(h, 0.5);
    out->p99 = hist_quantile(h, 0.99);
}

struct saturn_bucket *hist_buckets(const struct histogram *h, size_t *n)
{
    size_t used = 0;
    for (size_t i = 0; i < HIST_BUCKETS; i++)
        used += h->count[i] != 0;
    struct saturn_bucket *b = calloc(used ? used : 1, sizeof *b);
    *n = 0;
    if (!b)
        return NULL;
    for (size_t i = 0; i < HIST_BUCKETS; i++)
        if (h->count[i]) {
            hist_bucket_range(i, &b[*n].lo, &b[*n].hi);
            b[(*n)++].count = h->count[i];
        }
    return b;
}
