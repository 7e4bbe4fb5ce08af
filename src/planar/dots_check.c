/* The power-dot clause of the contract, from the board alone: every placed
 * dot is a circle of the size board_geometry.h gives, touching its own
 * node's shape (disk or start rectangle), inside the trim rectangle, and
 * clear of every edge and every other dot by CB_DOT_CLEARANCE_MM and of
 * every other node by CB_DOT_OWNER_MARGIN_MM. Distances are read to
 * DOT_SLACK_MM: the board file keeps positions and the radius to 0.01 mm.
 * A grid of node centres keeps it O(dots): an edge that comes near a dot
 * has an end within the longest edge's length of it. */
#include <math.h>
#include <stdlib.h>
#include "base/board_geometry.h"
#include "base/geom.h"
#include "base/graph.h"
#include "base/grid.h"
#include "planar/dots_check.h"

#define DOT_SLACK_MM 0.02

/* Distance from p to node j's printed shape (0 inside it). */
static double shape_dist(const cb_board *b, uint32_t j, cb_point p)
{
    const cb_node *v = &b->nodes[j];
    if (v->kind != CB_KIND_START) {
        double d = hypot(p.x - v->x, p.y - v->y) - b->node_radius;
        return d > 0 ? d : 0;
    }
    double o[4];
    cb_start_offsets(v->side, b->node_radius, o);
    return cb_point_rect_dist(p, v->x + o[0], v->y + o[1], v->x + o[2], v->y + o[3]);
}

static void dot_fails(cb_verdict *v, const char *why)
{
    if (v->dots_ok)
        v->dot_failure = why;
    v->dots_ok = 0;
}

/* Checks dot k of node i at p against the nodes, edges and dots near it. */
static void check_dot(const cb_board *b, const cb_graph *g, const cb_grid *grid, double reach,
                      uint32_t i, size_t k, cb_point p, cb_verdict *v)
{
    double dr = cb_dot_radius(b->node_radius);
    double own = shape_dist(b, i, p);
    if (fabs(own - dr) > DOT_SLACK_MM)
        dot_fails(v, "a power dot does not touch its node's rim");
    if (p.x - b->board_x < dr + CB_DOT_CLEARANCE_MM - DOT_SLACK_MM ||
        b->board_x + b->board_w - p.x < dr + CB_DOT_CLEARANCE_MM - DOT_SLACK_MM ||
        p.y - b->board_y < dr + CB_DOT_CLEARANCE_MM - DOT_SLACK_MM ||
        b->board_y + b->board_h - p.y < dr + CB_DOT_CLEARANCE_MM - DOT_SLACK_MM)
        dot_fails(v, "a power dot touches the trim line");
    uint32_t c0, r0, c1, r1;
    cb_grid_range(grid, p.x, p.y, reach, reach, &c0, &r0, &c1, &r1);
    for (uint32_t y = r0; y <= r1; y++) {
        uint32_t k0, k1;
        cb_grid_row(grid, y, c0, c1, &k0, &k1);
        for (uint32_t t = k0; t < k1; t++) {
            uint32_t j = grid->items[t];
            if (j != i) {
                double margin = shape_dist(b, j, p) - own;
                if (margin < v->dot_margin)
                    v->dot_margin = margin;
                if (margin < CB_DOT_OWNER_MARGIN_MM - DOT_SLACK_MM)
                    dot_fails(v, "a power dot is not clearly nearer its own node");
            }
            /* each edge once: from its lower end */
            for (uint32_t e = g->start[j]; e < g->start[j + 1]; e++) {
                uint32_t u = g->adj[e];
                if (u < j)
                    continue;
                cb_point a = {b->nodes[j].x, b->nodes[j].y}, c = {b->nodes[u].x, b->nodes[u].y};
                double lim = dr + CB_DOT_CLEARANCE_MM - DOT_SLACK_MM;
                if (cb_point_segment_dist2(p, a, c) < lim * lim)
                    dot_fails(v, "a power dot touches an edge");
            }
            const cb_node *n = &b->nodes[j];
            for (int q = 0; q < n->dots; q++) {
                size_t other = n->first_dot + (size_t)q;
                if (other == k || other >= b->n_dot_xy)
                    continue;
                double lim = 2 * dr + CB_DOT_CLEARANCE_MM - DOT_SLACK_MM;
                double dx = b->dot_xy[other][0] - p.x, dy = b->dot_xy[other][1] - p.y;
                if (dx * dx + dy * dy < lim * lim)
                    dot_fails(v, "two power dots touch");
            }
        }
    }
}

cb_status cb_dots_verdict(const cb_board *b, const cb_graph *g, cb_verdict *v, cb_error *err)
{
    v->dots_ok = 1;
    v->dot_failure = "";
    v->dot_margin = INFINITY;
    v->dot_diameter = b->dot_xy ? 2 * cb_dot_radius(b->node_radius) : 0;
    if (!b->dot_xy)
        return CB_OK;
    size_t n = b->n_nodes;
    double longest = 0;
    for (size_t e = 0; e < b->n_edges; e++) {
        const cb_node *a = &b->nodes[b->edges[e].a], *c = &b->nodes[b->edges[e].b];
        double l = hypot(a->x - c->x, a->y - c->y);
        longest = l > longest ? l : longest;
    }
    double dr = cb_dot_radius(b->node_radius);
    double shape = fmax(1, fmax(CB_START_DEPTH, CB_START_HALF_WIDTH)) * b->node_radius;
    /* nodes whose shape, edges or dots can come within the limits of a dot */
    double reach = fmax(longest, shape + 2 * (shape + 2 * dr)) + 2 * dr + CB_DOT_OWNER_MARGIN_MM;
    cb_point *p = malloc((n ? n : 1) * sizeof *p);
    cb_grid grid;
    if (!p || cb_grid_init(&grid, b->board_x, b->board_y, b->board_w, b->board_h,
                           fmax(reach / 2, b->node_radius), n) != 0) {
        free(p);
        return cb_fail(err, CB_ERR_INTERNAL, "out of memory checking the power dots");
    }
    for (size_t i = 0; i < n; i++)
        p[i] = (cb_point){b->nodes[i].x, b->nodes[i].y};
    cb_grid_fill(&grid, p, n);
    free(p);
    for (uint32_t i = 0; i < n; i++) {
        const cb_node *node = &b->nodes[i];
        if (node->dots < 0 || node->first_dot + (size_t)node->dots > b->n_dot_xy) {
            dot_fails(v, "a node's power dots are missing");
            continue;
        }
        for (int q = 0; q < node->dots; q++) {
            size_t k = node->first_dot + (size_t)q;
            cb_point at = {b->dot_xy[k][0], b->dot_xy[k][1]};
            check_dot(b, g, &grid, reach, i, k, at, v);
            v->dots++;
        }
    }
    cb_grid_free(&grid);
    return CB_OK;
}
