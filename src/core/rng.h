/* xoshiro256** streams seeded by splitmix64 from (seed, stream id): one
 * stream per node and per router keeps results identical whatever the
 * partitioning of the work. */
#ifndef SATURN_RNG_H
#define SATURN_RNG_H

#include <stdint.h>

struct rng {
    uint64_t s[4];
};

static inline uint64_t rng_splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Distinct (seed, stream) pairs give independent-looking streams. */
static inline void rng_seed(struct rng *r, uint64_t seed, uint64_t stream)
{
    uint64_t x = seed ^ (0xd1b54a32d192ed03ULL * (stream + 1));
    for (int i = 0; i < 4; i++)
        r->s[i] = rng_splitmix64(&x);
}

static inline uint64_t rng_rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t rng_next(struct rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rng_rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rng_rotl(s[3], 45);
    return result;
}

/* Uniform in [0, 1). */
static inline double rng_uniform(struct rng *r)
{
    return (double)(rng_next(r) >> 11) * 0x1.0p-53;
}

/* Uniform integer in [0, n), n > 0, without modulo bias (Lemire). */
static inline uint64_t rng_below(struct rng *r, uint64_t n)
{
    __uint128_t m = (__uint128_t)rng_next(r) * n;
    uint64_t l = (uint64_t)m;
    if (l < n) {
        uint64_t t = -n % n;
        while (l < t) {
            m = (__uint128_t)rng_next(r) * n;
            l = (uint64_t)m;
        }
    }
    return (uint64_t)(m >> 64);
}

/* Stream ids: nodes use [0, N), routers RNG_STREAM_ROUTER + r, set-up
 * draws (random permutations) RNG_STREAM_SETUP, injection control
 * RNG_STREAM_CONTROL + node. */
#define RNG_STREAM_ROUTER (1ULL << 40)
#define RNG_STREAM_SETUP (1ULL << 50)
#define RNG_STREAM_CONTROL (1ULL << 51)

#endif
