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

/* The ring board of tests/test_cut.c (described there): start 0 on the
 * top trim line whose smallest dual cut is a ring round the centre 9 that
 * touches no border; its shortest cut from the border is 4 edges. */
static inline cb_board *make_ring_board(hand *h)
{
    static const double xy[][2] = {{60, 10}, {35, 35}, {60, 35}, {85, 35}, {10, 60},
                                   {110, 60}, {45, 60}, {75, 60}, {60, 85}, {60, 68},
                                   {60, 110}};
    cb_board *b = make_hand(h, xy, 11, 9);
    edge(b, 0, 1); edge(b, 0, 2); edge(b, 0, 3);
    edge(b, 1, 2); edge(b, 2, 3);
    edge(b, 4, 1); edge(b, 5, 3);
    edge(b, 6, 7); edge(b, 7, 8); edge(b, 8, 6); edge(b, 9, 6);
    edge(b, 1, 6); edge(b, 2, 6); edge(b, 2, 7); edge(b, 3, 7);
    edge(b, 4, 8); edge(b, 5, 8);
    edge(b, 10, 8);
    h->nodes[0].kind = CB_KIND_START;
    h->nodes[0].side = CB_SIDE_TOP;
    return b;
}

#endif
