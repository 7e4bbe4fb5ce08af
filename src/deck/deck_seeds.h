/* A deck whose candidate seeds come from the caller: for tests that need
 * two candidates to make the same board (uniqueness), which no master seed
 * is known to do. Not in the public header: no program needs it. */
#ifndef CB_DECK_SEEDS_H
#define CB_DECK_SEEDS_H

#include "cutboard.h"

/* Writes the seed of game K's R-th candidate into OUT (LEN bytes); 0, or
 * -1 for the usual one (cb_deck_game_seed). */
typedef int (*cb_deck_seed_fn)(void *ctx, const char *master, size_t k, int r, char *out,
                               size_t len);

/* cb_deck_new with candidate seeds from SEED (CTX its argument). */
cb_status cb_deck_new_seeded(const cb_spec *spec, const cb_deck_options *opt,
                             cb_deck_seed_fn seed, void *ctx, cb_deck **out, cb_error *err);

#endif
