/* xoshiro256** (Blackman & Vigna) seeded through SplitMix64, as Lua's lmathlib does. */
#include "base/rng.h"
#include "base/prefetch.h"

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
    /* The draws come in the same order as one per swap; drawing them
     * CB_PREFETCH_AHEAD swaps early lets the far slot of each swap (a cache
     * miss on a large array) load meanwhile. */
    size_t ahead[CB_PREFETCH_AHEAD], swaps = n > 1 ? n - 1 : 0, drawn = 0;
    for (; drawn < swaps && drawn < CB_PREFETCH_AHEAD; drawn++) {
        ahead[drawn] = (size_t)cb_rng_below(rng, n - drawn);
        CB_PREFETCH_WRITE(&v[ahead[drawn]]);
    }
    for (size_t s = 0; s < swaps; s++) {
        size_t i = n - s, j = ahead[s % CB_PREFETCH_AHEAD];
        if (drawn < swaps) {
            size_t k = (size_t)cb_rng_below(rng, n - drawn);
            ahead[drawn % CB_PREFETCH_AHEAD] = k;
            CB_PREFETCH_WRITE(&v[k]);
            drawn++;
        }
        uint32_t t = v[i - 1];
        v[i - 1] = v[j];
        v[j] = t;
    }
}
