/* A board's edges as a compressed adjacency list, for searches. */
#ifndef CB_GRAPH_H
#define CB_GRAPH_H

#include "base/board_geometry.h"
#include "cutboard.h"
#include "base/error.h"


typedef struct {
    size_t n, m;
    uint32_t *start;    /* n + 1 offsets */
    uint32_t *adj;      /* neighbour per slot */
    uint32_t *eid;      /* board edge index per slot */
} cb_graph;

/* Builds the graph; CB_ERR_DATA names an edge with a bad id, a loop or a
 * duplicate. */
cb_status cb_graph_build(cb_graph *g, const cb_board *b, cb_error *err);
void cb_graph_free(cb_graph *g);
size_t cb_graph_degree(const cb_graph *g, uint32_t v);
/* BFS hop counts from SRC into hops (n entries; -1 unreachable); -1 when
 * out of memory (then no count is known), else 0. */
int cb_graph_hops(const cb_graph *g, uint32_t src, int *hops);
/* Edge-disjoint paths from S to T, counting at most LIMIT (unit-capacity
 * max-flow with BFS augmenting paths); -1 when out of memory. */
int cb_graph_edge_disjoint(const cb_graph *g, uint32_t s, uint32_t t, int limit);
/* Joins, in the union-find UP (each node its own link before), each node
 * reached in HOPS (a breadth-first forest; -1 unreached) to its parent
 * unless the edge between them is a bridge; TREE has a bit per slot of G,
 * set on the slot of each node's edge to its parent. */
void cb_graph_join_cycles(const cb_graph *g, const int *hops, const uint8_t *tree, uint32_t *up);
/* Labels each node with its 2-edge-connected component (the nodes joined
 * without crossing a bridge) in O(n + m): two nodes with the same label have
 * at least 2 edge-disjoint paths between them, others at most 1. 0, or -1
 * when out of memory. */
int cb_graph_bridge_components(const cb_graph *g, uint32_t *comp);

#endif
