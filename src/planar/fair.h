/* The board contract (fair.c) for callers that have the board's graph. */
#ifndef CB_FAIR_H
#define CB_FAIR_H

#include "cutboard.h"
#include "base/graph.h"

/* cb_board_check with G, B's graph, already built (the generator builds it
 * once for the check, decoration and the dot check); G is not freed. */
cb_status cb_board_check_graph(const cb_board *b, const cb_graph *g, int start_cap,
                               int node_cap, cb_verdict *v, cb_error *err);

#endif
