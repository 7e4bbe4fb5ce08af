/* Limits on boards read from files that bound the work done on them after
 * reading (see cb_board_limits_check in board_read.h). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include "base/sort.h"
#include "io/board_read.h"

/* A node's cell in a grid of squares as wide as two node disks and the gap
 * between them, as one sortable key. */
static uint64_t cell_key(double x, double y, double side)
{
    double cx = floor(x / side), cy = floor(y / side);
    cx = cx < 0 ? 0 : cx > 4e9 ? 4e9 : cx;
    cy = cy < 0 ? 0 : cy > 4e9 ? 4e9 : cy;
    return (uint64_t)cx << 32 | (uint64_t)cy;
}

static int key_less(const uint64_t *a, const uint64_t *b)
{
    return *a < *b;
}
CB_DEFINE_SORT(sort_keys, uint64_t, key_less)

/* A drawing with no two edges crossing has at most 3n - 6 of them. */
cb_status cb_board_edges_check(size_t edges, size_t nodes, const char *name, size_t k,
                               cb_error *err)
{
    size_t n = nodes;
    if (n >= 3 && edges > 3 * n - 6)
        return cb_fail(err, CB_ERR_DATA, "%s: sheet %zu: %zu edges on %zu nodes: more than "
                       "3 x %zu - 6 = %zu, so some must cross; no board that can be drawn has "
                       "that many", name ? name : "board file", k + 1, edges, n, n, 3 * n - 6);
    return CB_OK;
}

/* Refuses a sheet with more than CB_BOARD_CELL_MAX nodes in one square as
 * wide as two node disks and their gap: no drawable board has more than 4
 * there, and every check after reading looks at a node's neighbours in such
 * squares, so this bounds its work by a constant a node (a file of 300,000
 * nodes 0.2 mm apart took minutes). O(n log n), before anything else. */
cb_status cb_board_limits_check(const cb_board *b, const char *name, size_t k,
                                 cb_error *err)
{
    size_t n = b->n_nodes;
    double side = 2 * b->node_radius + CB_NODE_GAP_MM;
    cb_status st = cb_board_edges_check(b->n_edges, n, name, k, err);
    if (st != CB_OK)
        return st;
    /* What the checks after reading spend on an edge grows with the cells
     * its box covers (the power dots' index lists it in each): short edges
     * cover a few, a fan of long edges crossing the page each hundreds of
     * thousands. Refused beyond CB_BOARD_CELL_MAX cells a node and an edge
     * on average, plus the page's own cells, which a crossing-free board of
     * long straight edges needs at most. */
    double covered = 0;
    for (size_t e = 0; e < b->n_edges; e++) {
        const cb_node *u = &b->nodes[b->edges[e].a], *w = &b->nodes[b->edges[e].b];
        covered += (fabs(floor(u->x / side) - floor(w->x / side)) + 1) *
                   (fabs(floor(u->y / side) - floor(w->y / side)) + 1);
    }
    double allowed = (double)CB_BOARD_CELL_MAX * (double)(n + b->n_edges) +
                     (b->page_w / side + 1) * (b->page_h / side + 1);
    if (covered > allowed)
        return cb_fail(err, CB_ERR_DATA, "%s: sheet %zu: the edges' boxes cover %.0f squares "
                       "of %.1f mm, more than the %.0f allowed for %zu nodes and %zu edges on "
                       "this page: too many long edges across the board", name ? name :
                       "board file", k + 1, covered, side, allowed, n, b->n_edges);
    if (n <= CB_BOARD_CELL_MAX)
        return CB_OK;
    uint64_t *keys = malloc(2 * n * sizeof *keys);
    if (!keys)
        return cb_fail(err, CB_ERR_NOMEM, "out of memory reading %s",
                       name ? name : "board file");
    for (size_t i = 0; i < n; i++)
        keys[i] = cell_key(b->nodes[i].x, b->nodes[i].y, side);
    sort_keys(keys, keys + n, n);
    size_t run = 1, worst = 1;
    uint64_t at = keys[0];
    for (size_t i = 1; i < n; i++) {
        run = keys[i] == keys[i - 1] ? run + 1 : 1;
        if (run > worst)
            worst = run, at = keys[i];
    }
    free(keys);
    if (worst > CB_BOARD_CELL_MAX)
        return cb_fail(err, CB_ERR_DATA, "%s: sheet %zu: %zu nodes within one %.1f mm "
                       "square (at x %.0f mm, y %.0f mm): more than %d is denser than any "
                       "board that can be drawn (it holds 4)", name ? name : "board file",
                       k + 1, worst, side, (double)(at >> 32) * side,
                       (double)(at & 0xffffffffu) * side, CB_BOARD_CELL_MAX);
    return CB_OK;
}
