/* xoshiro256** (Blackman & Vigna) seeded through SplitMix64, as Lua's lmathlib does. */
#include "rng.h"

uint64_t cb_mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

uint64_t cb_hash_string(const char *s)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        h ^= *p;
        h *= 0x100000001b3ull;
    }
    return cb_mix64(h);
}

void cb_rng_seed(cb_rng *rng, uint64_t seed)
{
    for (int i = 0; i < 4; i++) {
        seed = cb_mix64(seed);
        rng->s[i] = seed;
    }
}

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

uint64_t cb_rng_next(cb_rng *rng)
{
    uint64_t *s = rng->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

double cb_rng_uniform(cb_rng *rng)
{
    /* 53 random bits: exact in a double, same on every machine. */
    return (double)(cb_rng_next(rng) >> 11) * 0x1.0p-53;
}

uint64_t cb_rng_below(cb_rng *rng, uint64_t n)
{
    /* Rejection on the top of the range keeps every value equally likely. */
    uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    uint64_t x;
    do {
        x = cb_rng_next(rng);
    } while (x >= limit);
    return x % n;
}

void cb_rng_shuffle(cb_rng *rng, uint32_t *v, size_t n)
{
    for (size_t i = n; i > 1; i--) {
        size_t j = (size_t)cb_rng_below(rng, i);
        uint32_t t = v[i - 1];
        v[i - 1] = v[j];
        v[j] = t;
    }
}
