/* Power dots: how many a node holds and where they go (dots.c). */
#ifndef CB_DOTS_H
#define CB_DOTS_H

#include "cutboard.h"
#include "base/graph.h"

#define CB_DOTS_MAX 16         /* dots a node may have in a board file */
#define CB_DOTS_MAX_ANGLES 40  /* edges and trim lines around one node */

/* Dots an ordinary node gets for PLAYERS players. */
int cb_dots_wanted(int players);
/* The dots node V of board B holds in a game of PLAYERS: cb_dots_wanted,
 * but at most CB_DOTS_ON_TRIM on a start or another node on the trim line
 * (half its turn is off the board: 4 dots of full size do not fit there),
 * one on the centre, none on a board too fine for dots. */
#define CB_DOTS_ON_TRIM 2
int cb_node_dots_wanted(const cb_board *b, uint32_t v, int players);

/* Places every dot of board B (graph G) into b->dot_xy: each node's
 * cb_node_dots_wanted for PLAYERS, or with PLAYERS < 0 the count it has.
 * 0 when every node holds its dots; 1 when one cannot and STRICT (the
 * generator then throws the board away), else such a node keeps the dots
 * that fit; -1 when out of memory. */
int cb_dots_place_all(cb_board *b, const cb_graph *g, int players, int strict);

/* Places the power dots of a board read from a file that gives only their
 * counts, as the generator would; a node keeps the dots that fit. */
cb_status cb_board_place_dots(cb_board *b, cb_error *err);

#endif
