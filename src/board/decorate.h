/* Step 4: node types, missions and power dots from a theme (the dots
 * themselves: dots.h). */
#ifndef CB_DECORATE_H
#define CB_DECORATE_H

#include "cutboard.h"
#include "base/graph.h"
#include "base/rng.h"
#include "board/dots.h"

/* Assigns types and missions from THEME (may be NULL) and power dots.
 * Returns 0; 1 when the theme's limits cannot all be met on this board
 * (with *why set); -1 when out of memory. */
int cb_decorate(cb_board *b, const cb_theme *theme, int players, cb_rng *rng,
                const char **why);
/* cb_decorate with B's graph G already built (the generator builds it once
 * for the check, decoration and the dot check). */
int cb_decorate_graph(cb_board *b, const cb_graph *g, const cb_theme *theme, int players,
                      cb_rng *rng, const char **why);

#endif
