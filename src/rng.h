/* Seeded random numbers: xoshiro256** in a struct, seeded from strings. */
#ifndef CB_RNG_H
#define CB_RNG_H

#include <stdint.h>
#include <stddef.h>

typedef struct { uint64_t s[4]; } cb_rng;

/* FNV-1a over the bytes of S, then SplitMix64-finalized: stable everywhere. */
uint64_t cb_hash_string(const char *s);
/* One SplitMix64 step: a well-mixed value from X (used to derive seeds). */
uint64_t cb_mix64(uint64_t x);
void cb_rng_seed(cb_rng *rng, uint64_t seed);
uint64_t cb_rng_next(cb_rng *rng);
/* Uniform double in [0, 1). */
double cb_rng_uniform(cb_rng *rng);
/* Uniform integer in [0, n) without modulo bias; n > 0. */
uint64_t cb_rng_below(cb_rng *rng, uint64_t n);
/* Fisher-Yates shuffle of N uint32 values. */
void cb_rng_shuffle(cb_rng *rng, uint32_t *v, size_t n);

#endif
