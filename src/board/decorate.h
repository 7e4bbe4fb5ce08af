/* Step 4: node types, missions and power dots from a theme. */
#ifndef CB_DECORATE_H
#define CB_DECORATE_H

#include "cutboard.h"
#include "base/rng.h"

/* Power dots a node gets for PLAYERS players (the centre gets one). */
#define CB_DOTS_MAX 16
#define CB_DOTS_MAX_ANGLES 40

int cb_dots_wanted(int players);
/* The dots node V of board B holds in a game of PLAYERS: cb_dots_wanted,
 * but at most CB_DOTS_ON_TRIM on a start or another node on the trim line
 * (half its turn is off the board: 4 dots of full size do not fit there),
 * one on the centre, none on a board too fine for dots. */
#define CB_DOTS_ON_TRIM 2
int cb_node_dots_wanted(const cb_board *b, uint32_t v, int players);

/* Assigns types and missions from THEME (may be NULL) and power dots.
 * Returns 0; 1 when the theme's limits cannot all be met on this board
 * (with *why set); -1 when out of memory. */
int cb_decorate(cb_board *b, const cb_theme *theme, int players, cb_rng *rng,
                const char **why);

/* Places the power dots of a board read from a file that gives only their
 * counts, as the generator would; a node keeps the dots that fit. */
cb_status cb_board_place_dots(cb_board *b, cb_error *err);

#endif
