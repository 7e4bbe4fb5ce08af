/* Hand-made boards for tests: up to 16 nodes on a 120 mm page with the trim
 * (10,10)-(110,110), nodes placed from a table, edges added one by one. */
#ifndef HAND_BOARD_H
#define HAND_BOARD_H

#include <stdint.h>
#include <string.h>

#include "cutboard.h"

typedef struct {
    cb_board b;
    cb_node nodes[16];
    cb_edge edges[40];
} hand;

/* N nodes at XY, all plain except CENTER. */
static inline cb_board *make_hand(hand *h, const double (*xy)[2], size_t n, uint32_t center)
{
    memset(h, 0, sizeof *h);
    h->b.nodes = h->nodes;
    h->b.edges = h->edges;
    h->b.seed = "hand";
    h->b.page_w = h->b.page_h = 120;
    h->b.board_x = h->b.board_y = 10;
    h->b.board_w = h->b.board_h = 100;
    h->b.node_radius = 3;
    h->b.n_nodes = n;
    h->b.center = center;
    for (size_t i = 0; i < n; i++) {
        h->nodes[i].x = xy[i][0];
        h->nodes[i].y = xy[i][1];
        h->nodes[i].side = CB_SIDE_NONE;
        h->nodes[i].type = h->nodes[i].mission = -1;
        h->nodes[i].kind = i == center ? CB_KIND_CENTER : CB_KIND_NODE;
    }
    return &h->b;
}

/* Adds the edge u-v (stored with a < b). */
static inline void edge(cb_board *b, uint32_t u, uint32_t v)
{
    b->edges[b->n_edges].a = u < v ? u : v;
    b->edges[b->n_edges].b = u < v ? v : u;
    b->n_edges++;
}

#endif
