/* Dealing the players' starts: which start rectangle each player begins on. */
#ifndef CB_DEAL_H
#define CB_DEAL_H

#include "cutboard.h"

/* Numbers the players' starts on GAME's sheets (cb_node.number of a start):
 * on a shared board starts 1..players, on own sheets start K on sheet K.
 * Dealt starts are as far from the centre as each other wherever the sheets
 * allow (when they cannot be, the nearer ones go to the later seats), hold
 * different missions where they can, and on a shared board spread round
 * its sides. Deterministic from the game's seed. HOPS, when not NULL, has
 * sheet by sheet each node's hops from the centre (a NULL entry: counted
 * here). 0, or -1 out of memory. */
int cb_game_deal(cb_game *game, int *const *hops);

/* The game's route length: the most edges from a dealt (numbered) start to
 * the centre, over every sheet, before any cut (every start's, on a board
 * file from before the deal); goals counted from the hops add it. 0 when
 * there is no start, -1 out of memory. */
int cb_game_route_hops(const cb_game *game);

#endif
