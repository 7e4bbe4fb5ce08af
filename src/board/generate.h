/* The generator's figures beside a game, for the deck (internal). */
#ifndef CB_GENERATE_H
#define CB_GENERATE_H

#include "cutboard.h"

/* cb_game_generate, and when HOP_SPREAD is not NULL a new array (the
 * caller frees it) with each sheet's hop spread, its starts' most hops to
 * the centre less their fewest, as the contract check counted them. */
cb_status cb_game_generate_figures(const cb_spec *spec, cb_game **out, int **hop_spread,
                                   cb_error *err);

#endif
