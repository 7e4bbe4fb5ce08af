/* Seeded random numbers: xoshiro256** in a struct, seeded from strings. */
#ifndef CB_RNG_H
#define CB_RNG_H

#include <stdint.h>
#include <stddef.h>

typedef struct { uint64_t s[4]; } cb_rng;

/* FNV-1a over the bytes of S, then SplitMix64-finalized: stable everywhere. */
uint64_t cb_hash_string(const char *s);
void cb_rng_seed(cb_rng *rng, uint64_t seed);
/* Fisher-Yates shuffle of N uint32 values. */
void cb_rng_shuffle(cb_rng *rng, uint32_t *v, size_t n);

/* The per-draw functions are inline: the network models draw one number
 * per link, and a call costs as much as the draw. */

/* One SplitMix64 step: a well-mixed value from X (used to derive seeds). */
static inline uint64_t cb_mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

static inline uint64_t cb_rng_rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

static inline uint64_t cb_rng_next(cb_rng *rng)
{
    uint64_t *s = rng->s;
    uint64_t result = cb_rng_rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = cb_rng_rotl(s[3], 45);
    return result;
}

/* Uniform double in [0, 1). */
static inline double cb_rng_uniform(cb_rng *rng)
{
    /* 53 random bits: exact in a double, same on every machine. */
    return (double)(cb_rng_next(rng) >> 11) * 0x1.0p-53;
}

/* Uniform integer in [0, n) without modulo bias; n > 0. */
static inline uint64_t cb_rng_below(cb_rng *rng, uint64_t n)
{
    /* Rejection on the top of the range keeps every value equally likely. */
    uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    uint64_t x;
    do {
        x = cb_rng_next(rng);
    } while (x >= limit);
    return x % n;
}

#endif
