/* The power-dot clause of the board contract (see dots_check.c). */
#ifndef CB_DOTS_CHECK_H
#define CB_DOTS_CHECK_H

#include "cutboard.h"
#include "base/graph.h"

/* Fills the dot fields of V for board B (whose graph is G); a board
 * without placed dots (dot_xy NULL) passes with none. */
cb_status cb_dots_verdict(const cb_board *b, const cb_graph *g, cb_verdict *v, cb_error *err);
/* The same verdict without measuring v->dot_paper (left at infinity): the
 * generator's, which needs the verdict only (the measure is 30 % of an A4
 * board's generation). */
cb_status cb_dots_verdict_only(const cb_board *b, const cb_graph *g, cb_verdict *v,
                               cb_error *err);

#endif
