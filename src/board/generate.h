/* The generator's figures beside a game, for the deck and the playtest
 * (internal). */
#ifndef CB_GENERATE_H
#define CB_GENERATE_H

#include "cutboard.h"
#include "planar/halfedge.h"

/* cb_game_generate, and when HOP_SPREAD is not NULL a new array (the
 * caller frees it) with each sheet's hop spread, its starts' most hops to
 * the centre less their fewest, as the contract check counted them. When
 * PLANES is not NULL (room for every sheet) it gets each sheet's plane
 * drawing as the check built it (on success only; the caller frees each
 * with cb_planar_free, before the game): a game played on the sheets
 * needs them again. */
cb_status cb_game_generate_figures(const cb_spec *spec, cb_game **out, int **hop_spread,
                                   cb_planar *planes, cb_error *err);

#endif
