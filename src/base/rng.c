/* xoshiro256** (Blackman & Vigna) seeded through SplitMix64, as Lua's lmathlib does. */
#include "base/rng.h"

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

void cb_rng_shuffle(cb_rng *rng, uint32_t *v, size_t n)
{
    for (size_t i = n; i > 1; i--) {
        size_t j = (size_t)cb_rng_below(rng, i);
        uint32_t t = v[i - 1];
        v[i - 1] = v[j];
        v[j] = t;
    }
}
