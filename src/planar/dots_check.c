/* The power-dot clause of the contract, from the board alone: every placed
 * dot is a circle of the size board_geometry.h gives, touching its own
 * node's shape (disk or start rectangle), inside the trim rectangle, and
 * clear of every other dot by CB_DOT_CLEARANCE_MM, of every other node by
 * CB_DOT_OWNER_MARGIN_MM and of every edge and the trim line by
 * CB_DOT_LINE_CLEARANCE_MM. Distances are read to
 * DOT_SLACK_MM: the board file keeps positions and the radius to 0.01 mm.
 * Grids keep it O(dots): one of node centres for the nodes near a dot, one
 * of the dots for the dots near an edge. */
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
        double dx = p.x - v->x, dy = p.y - v->y;
        double d = sqrt(dx * dx + dy * dy) - b->node_radius; /* hypot is slower, and these are mm */
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

/* How far around a dot the check looks, on either axis, for the nodes whose
 * shape or dots may come within its limits (NODES) and for an end of every
 * edge that may (EDGES: the nearest point of an edge within the limit has
 * an end within half the longest edge of it). */
typedef struct {
    double nodes, edges;
} reach;

/* Checks dot k of node i at p against the nodes, edges and dots near it. */
static void check_dot(const cb_board *b, const cb_grid *grid, reach near, const uint8_t *touched,
                      uint32_t i, size_t k, cb_point p, cb_verdict *v)
{
    double dr = cb_dot_radius(b->node_radius);
    double own = shape_dist(b, i, p);
    if (fabs(own - dr) > DOT_SLACK_MM)
        dot_fails(v, "a power dot does not touch its node's rim");
    double clear = dr + CB_DOT_LINE_CLEARANCE_MM - DOT_SLACK_MM;
    double trim = fmin(fmin(p.x - b->board_x, b->board_x + b->board_w - p.x),
                       fmin(p.y - b->board_y, b->board_y + b->board_h - p.y));
    if (trim - dr - CB_LINE_AND_OUTLINE_MM < v->dot_paper)
        v->dot_paper = trim - dr - CB_LINE_AND_OUTLINE_MM;
    if (trim < clear)
        dot_fails(v, "a power dot is under 1 mm from the trim line");
    double apart = 2 * dr + CB_DOT_CLEARANCE_MM - DOT_SLACK_MM;
    uint32_t c0, r0, c1, r1;
    cb_grid_range(grid, p.x, p.y, near.nodes, near.nodes, &c0, &r0, &c1, &r1);
    for (uint32_t y = r0; y <= r1; y++) {
        uint32_t k0, k1;
        cb_grid_row(grid, y, c0, c1, &k0, &k1);
        for (uint32_t t = k0; t < k1; t++) {
            uint32_t j = grid->items[t];
            const cb_node *n = &b->nodes[j];
            if (j != i) {
                double margin = shape_dist(b, j, p) - own;
                if (margin < v->dot_margin)
                    v->dot_margin = margin;
                if (margin < CB_DOT_OWNER_MARGIN_MM - DOT_SLACK_MM)
                    dot_fails(v, "a power dot is not clearly nearer its own node");
            }
            for (int q = 0; q < n->dots; q++) {
                size_t other = n->first_dot + (size_t)q;
                if (other == k || other >= b->n_dot_xy)
                    continue;
                double dx = b->dot_xy[other][0] - p.x, dy = b->dot_xy[other][1] - p.y;
                if (dx * dx + dy * dy < apart * apart)
                    dot_fails(v, "two power dots touch");
            }
        }
    }
    if (touched[k])
        dot_fails(v, "a power dot is under 1 mm from an edge");
}

/* Is node j in the cells the check looks in for an end of an edge near p? */
static int end_near(const cb_grid *grid, reach near, cb_point p, uint32_t j)
{
    uint32_t c0, r0, c1, r1;
    cb_grid_range(grid, p.x, p.y, near.edges, near.edges, &c0, &r0, &c1, &r1);
    uint32_t cell = grid->cell_of[j], c = cell % grid->cols, r = cell / grid->cols;
    return c >= c0 && c <= c1 && r >= r0 && r <= r1;
}

/* Marks in TOUCHED the dots an edge comes within CLEAR of, and lowers
 * *LEAST to the least distance from a dot to an edge within CLEAR + 2 mm
 * (the figure the check reports). Edge by edge
 * over a grid of the dots: an edge has a few dots near it, while a dot
 * has every edge with an end within half the longest edge to look at.
 * Each edge is measured from an end near the dot (from both when both
 * are), as a walk from the dot over the node grid (NODES) would. Returns
 * -1 when out of memory. */
static int mark_touched(const cb_board *b, const cb_graph *g, const cb_grid *nodes, reach near,
                        double clear, uint8_t *touched, double *least)
{
    /* Without LEAST, only the dots within CLEAR matter. */
    size_t nd = b->n_dot_xy;
    cb_point *q = malloc((nd ? nd : 1) * sizeof *q);
    uint32_t *maybe = malloc((nd ? nd : 1) * sizeof *maybe);
    cb_grid dots;
    if (!q || !maybe || cb_grid_init(&dots, b->board_x, b->board_y, b->board_w, b->board_h,
                           fmax(near.nodes / 2, b->node_radius), nd) != 0) {
        free(q);
        free(maybe);
        return -1;
    }
    for (size_t k = 0; k < nd; k++)
        q[k] = (cb_point){b->dot_xy[k][0], b->dot_xy[k][1]};
    cb_grid_fill(&dots, q, nd);
    /* Further than CLEAR (and a nanometre) outside the edge's box is
     * further than that from the edge: most dots near an edge are. */
    double far = clear + (least ? 2 : 1e-6);
    for (uint32_t j = 0; j < b->n_nodes; j++) {
        cb_point a = {b->nodes[j].x, b->nodes[j].y};
        for (uint32_t e = g->start[j]; e < g->start[j + 1]; e++) {
            uint32_t i = g->adj[e];
            if (i < j)
                continue; /* each edge once */
            cb_point c = {b->nodes[i].x, b->nodes[i].y};
            double x0 = a.x < c.x ? a.x : c.x, x1 = a.x < c.x ? c.x : a.x;
            double y0 = a.y < c.y ? a.y : c.y, y1 = a.y < c.y ? c.y : a.y;
            uint32_t c0, r0, c1, r1;
            cb_grid_box(&dots, x0 - far, y0 - far, x1 + far, y1 + far, &c0, &r0, &c1, &r1);
            /* The dots the box tests leave are picked out without a branch
             * (which are is hard to predict), then measured in order; a
             * dot lies in one cell, so this edge marks each once. */
            size_t nm = 0;
            for (uint32_t y = r0; y <= r1; y++) {
                uint32_t k0, k1;
                cb_grid_row(&dots, y, c0, c1, &k0, &k1);
                for (uint32_t t = k0; t < k1; t++) {
                    uint32_t k = dots.items[t];
                    cb_point p = q[k];
                    maybe[nm] = k;
                    nm += (size_t)((((least == NULL) & (touched[k] != 0)) | (p.x < x0 - far) |
                                    (p.x > x1 + far) | (p.y < y0 - far) | (p.y > y1 + far)) == 0);
                }
            }
            for (size_t t = 0; t < nm; t++) {
                uint32_t k = maybe[t];
                cb_point p = q[k];
                double d2 = INFINITY;
                if (end_near(nodes, near, p, j))
                    d2 = cb_point_segment_dist2(p, a, c);
                if (end_near(nodes, near, p, i))
                    d2 = fmin(d2, cb_point_segment_dist2(p, c, a));
                if (least && d2 < *least * *least)
                    *least = sqrt(d2);
                touched[k] |= d2 < clear * clear;
            }
        }
    }
    cb_grid_free(&dots);
    free(q);
    free(maybe);
    return 0;
}

static cb_status dots_verdict(const cb_board *b, const cb_graph *g, cb_verdict *v,
                              int measure, cb_error *err)
{
    v->dots_ok = 1;
    v->dot_failure = "";
    v->dot_margin = INFINITY;
    v->dot_paper = INFINITY;
    v->dot_diameter = b->dot_xy ? 2 * cb_dot_radius(b->node_radius) : 0;
    if (!b->dot_xy)
        return CB_OK;
    size_t n = b->n_nodes;
    /* A board without dots (nodes too small for them) has nothing to
     * check beyond this scan: skip the grid, the largest boards' cost. */
    size_t with_dots = 0;
    for (size_t i = 0; i < n; i++)
        with_dots += b->nodes[i].dots != 0 || b->nodes[i].first_dot > b->n_dot_xy;
    if (with_dots == 0)
        return CB_OK;
    double longest2 = 0;
    for (size_t e = 0; e < b->n_edges; e++) {
        const cb_node *a = &b->nodes[b->edges[e].a], *c = &b->nodes[b->edges[e].b];
        double dx = a->x - c->x, dy = a->y - c->y;
        longest2 = fmax(longest2, dx * dx + dy * dy);
    }
    double dr = cb_dot_radius(b->node_radius), r = b->node_radius;
    /* a shape reaches at most a start's corner from its centre, its dots a
     * dot's width further */
    double corner = fmax(1, hypot(CB_START_DEPTH, CB_START_HALF_WIDTH)) * r;
    reach near = {corner + 2 * dr + fmax(CB_DOT_OWNER_MARGIN_MM, 2 * dr + CB_DOT_CLEARANCE_MM),
                  sqrt(longest2) / 2 + dr + CB_DOT_LINE_CLEARANCE_MM + (measure ? 2 : 0)};
    cb_point *p = malloc((n ? n : 1) * sizeof *p);
    uint8_t *touched = calloc(b->n_dot_xy ? b->n_dot_xy : 1, 1);
    cb_grid grid;
    if (!p || !touched ||
        cb_grid_init(&grid, b->board_x, b->board_y, b->board_w, b->board_h,
                     fmax(near.nodes / 2, r), n) != 0) {
        free(p);
        free(touched);
        return cb_fail(err, CB_ERR_NOMEM, "out of memory checking the power dots");
    }
    for (size_t i = 0; i < n; i++)
        p[i] = (cb_point){b->nodes[i].x, b->nodes[i].y};
    cb_grid_fill(&grid, p, n);
    free(p);
    double least = INFINITY;
    if (mark_touched(b, g, &grid, near, dr + CB_DOT_LINE_CLEARANCE_MM - DOT_SLACK_MM, touched,
                     measure ? &least : NULL) != 0) {
        cb_grid_free(&grid);
        free(touched);
        return cb_fail(err, CB_ERR_NOMEM, "out of memory checking the power dots");
    }
    for (uint32_t i = 0; i < n; i++) {
        const cb_node *node = &b->nodes[i];
        if (node->dots < 0 || node->first_dot + (size_t)node->dots > b->n_dot_xy) {
            dot_fails(v, "a node's power dots are missing");
            continue;
        }
        for (int q = 0; q < node->dots; q++) {
            size_t k = node->first_dot + (size_t)q;
            cb_point at = {b->dot_xy[k][0], b->dot_xy[k][1]};
            check_dot(b, &grid, near, touched, i, k, at, v);
            v->dots++;
        }
    }
    if (least - dr - CB_LINE_AND_OUTLINE_MM < v->dot_paper)
        v->dot_paper = least - dr - CB_LINE_AND_OUTLINE_MM;
    cb_grid_free(&grid);
    free(touched);
    return CB_OK;
}

cb_status cb_dots_verdict(const cb_board *b, const cb_graph *g, cb_verdict *v, cb_error *err)
{
    return dots_verdict(b, g, v, 1, err);
}

cb_status cb_dots_verdict_only(const cb_board *b, const cb_graph *g, cb_verdict *v,
                               cb_error *err)
{
    return dots_verdict(b, g, v, 0, err);
}
