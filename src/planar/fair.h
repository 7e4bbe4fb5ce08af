/* The board contract (fair.c) for callers that have the board's graph. */
#ifndef CB_FAIR_H
#define CB_FAIR_H

#include "cutboard.h"
#include "base/graph.h"
#include "planar/halfedge.h"

/* cb_board_check with G, B's graph, already built (the generator builds it
 * once for the check, decoration and the dot check); G is not freed. When
 * HOPS is not NULL (room for every node) it gets each node's hops from the
 * centre (-1: unreached), as the check counted them. When PLANE is not
 * NULL it gets the plane drawing the check built (empty when none could
 * be; the caller frees it, and it reads B until then). */
cb_status cb_board_check_graph(const cb_board *b, const cb_graph *g, int start_cap,
                               int node_cap, cb_verdict *v, int *hops, cb_planar *plane,
                               cb_error *err);

#endif
