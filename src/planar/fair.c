/* The board contract: every clause recomputed from the board alone. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/geom.h"
#include "base/grid.h"
#include "base/graph.h"
#include "planar/dots_check.h"
#include "planar/fair.h"
#include "planar/halfedge.h"

static cb_point node_point(const cb_board *b, uint32_t i)
{
    cb_point p = {b->nodes[i].x, b->nodes[i].y};
    return p;
}

/* cb_segments_cross for edges X and Y between points P, answering its common
 * cases here from the same orientations, computed the same way (no
 * tolerance changes):
 * - edges that meet at a node (whose coordinates are not NaN) and end apart
 *   only touch there, unless the far end of Y lies on X's line;
 * - otherwise, when the ends of one segment lie strictly on one side of the
 *   other's line and no end lies on a line, they have no common point. */
static int edges_cross(const cb_point *p, const cb_edge *x, const cb_edge *y)
{
    cb_point a = p[x->a], z = p[x->b], c = p[y->a], d = p[y->b];
    if (x->a == y->a || x->a == y->b || x->b == y->a || x->b == y->b) {
        int at_a = x->a == y->a || x->a == y->b;
        cb_point s = at_a ? a : z, u = at_a ? z : a;
        cb_point w = y->a == x->a || y->a == x->b ? d : c;
        if (s.x == s.x && s.y == s.y && !(u.x == w.x && u.y == w.y) && cb_orient(a, z, w) != 0)
            return 0;
    } else {
        double o1 = cb_orient(a, z, c), o2 = cb_orient(a, z, d);
        double o3 = cb_orient(c, d, a), o4 = cb_orient(c, d, z);
        if ((o1 * o2 > 0 && o3 != 0 && o4 != 0) || (o3 * o4 > 0 && o1 != 0 && o2 != 0))
            return 0;
    }
    /* Read again rather than kept: the common paths above run faster. */
    return cb_segments_cross(p[x->a], p[x->b], p[y->a], p[y->b]);
}

/* The grid cells an edge's box covers: columns c0..c1, rows r0..r1. */
typedef struct {
    uint32_t c0, r0, c1, r1;
} span;

/* An edge listed in a grid row, with its first column. */
typedef struct {
    uint32_t e, c0;
} listed;

/* Pairs of crossing edges. The pairs tested are those whose boxes share a
 * cell of a grid as fine as the mean edge length, each once: in the first
 * row both boxes cover. Each row lists the edges whose box covers it by
 * first column, so the edges whose columns meet an edge's follow it until
 * the first one that starts right of its last column. Rows, not columns:
 * boards number their nodes row by row or near it (the lattice does), so
 * a row's edges lie close together in memory. */
static int count_crossings(const cb_board *b, const cb_point *p, size_t *out)
{
    size_t m = b->n_edges;
    *out = 0;
    if (m < 2)
        return 0;
    double total = 0;
    for (size_t e = 0; e < m; e++)
        total += cb_dist(p[b->edges[e].a], p[b->edges[e].b]);
    cb_grid g;
    cb_grid_shape(&g, 0, 0, b->page_w, b->page_h, fmax(total / (double)m, 1e-3), m);
    /* Lists keyed by row, then first column: one slot per cell. */
    size_t cells = (size_t)g.cols * g.rows, refs = 0;
    span *sp = malloc(m * sizeof *sp);
    size_t *start = malloc(2 * (cells + 1) * sizeof *start), *fill = start + cells + 1;
    if (!sp || !start) {
        free(sp);
        free(start);
        return -1;
    }
    memset(start, 0, (cells + 1) * sizeof *start);
    for (size_t e = 0; e < m; e++) {
        cb_point u = p[b->edges[e].a], w = p[b->edges[e].b];
        uint32_t c0, r0, c1, r1;
        cb_grid_range(&g, (u.x + w.x) / 2, (u.y + w.y) / 2, fabs(u.x - w.x) / 2,
                      fabs(u.y - w.y) / 2, &c0, &r0, &c1, &r1);
        sp[e].c0 = c0;
        sp[e].r0 = r0;
        sp[e].c1 = c1;
        sp[e].r1 = r1;
        for (uint32_t r = r0; r <= r1; r++)
            start[(size_t)r * g.cols + c0 + 1]++;
        refs += r1 - r0 + 1;
    }
    for (size_t k = 0; k < cells; k++)
        start[k + 1] += start[k];
    listed *items = malloc(refs * sizeof *items);
    if (!items) {
        free(sp);
        free(start);
        return -1;
    }
    memcpy(fill, start, cells * sizeof *fill);
    for (uint32_t e = 0; e < m; e++)
        for (uint32_t r = sp[e].r0; r <= sp[e].r1; r++) {
            listed *it = &items[fill[(size_t)r * g.cols + sp[e].c0]++];
            it->e = e;
            it->c0 = sp[e].c0;
        }
    const cb_edge *edges = b->edges;
    size_t n = 0;
    for (uint32_t r = 0; r < g.rows; r++) {
        size_t end = start[(size_t)(r + 1) * g.cols];
        for (size_t i = start[(size_t)r * g.cols]; i < end; i++) {
            uint32_t e = items[i].e, first = sp[e].r0, last = sp[e].c1;
            for (size_t j = i + 1; j < end && items[j].c0 <= last; j++) {
                uint32_t f = items[j].e;
                if ((first > sp[f].r0 ? first : sp[f].r0) != r)
                    continue; /* met in an earlier row */
                /* The earlier edge first: cb_segments_cross rounds asymmetrically. */
                n += (size_t)edges_cross(p, &edges[e < f ? e : f], &edges[e < f ? f : e]);
            }
        }
    }
    *out = n;
    free(sp);
    free(start);
    free(items);
    return 0;
}

/* Edges passing through a foreign node's disk, and pairs of nodes too close
 * (nodes at P). */
static int count_grazes_overlaps(const cb_board *b, const cb_point *p, size_t *grazes,
                                 size_t *overlaps)
{
    size_t n = b->n_nodes;
    double r = b->node_radius, near = 2 * r + CB_NODE_GAP_MM;
    cb_grid g;
    if (cb_grid_init(&g, 0, 0, b->page_w, b->page_h, near, n) != 0)
        return -1;
    cb_grid_fill(&g, p, n);
    *grazes = *overlaps = 0;
    uint32_t c0, r0, c1, r1;
    for (size_t i = 0; i < n; i++) {
        cb_grid_range(&g, p[i].x, p[i].y, near, near, &c0, &r0, &c1, &r1);
        for (uint32_t y = r0; y <= r1; y++) {
            uint32_t k0, k1;
            cb_grid_row(&g, y, c0, c1, &k0, &k1);
            for (uint32_t k = k0; k < k1; k++)
                if (g.items[k] > i && cb_dist(p[i], p[g.items[k]]) < near)
                    (*overlaps)++;
        }
    }
    for (size_t e = 0; e < b->n_edges; e++) {
        uint32_t ea = b->edges[e].a, eb = b->edges[e].b;
        cb_point pa = p[ea], pb = p[eb];
        cb_grid_range(&g, (pa.x + pb.x) / 2, (pa.y + pb.y) / 2,
                      fabs(pa.x - pb.x) / 2 + r, fabs(pa.y - pb.y) / 2 + r,
                      &c0, &r0, &c1, &r1);
        for (uint32_t y = r0; y <= r1; y++) {
            uint32_t k0, k1;
            cb_grid_row(&g, y, c0, c1, &k0, &k1);
            for (uint32_t k = k0; k < k1; k++) {
                uint32_t v = g.items[k];
                if (v != ea && v != eb && cb_point_segment_dist(p[v], pa, pb) < r)
                    (*grazes)++;
            }
        }
    }
    cb_grid_free(&g);
    return 0;
}

static double trim_coord(const cb_board *b, cb_side side)
{
    switch (side) {
    case CB_SIDE_TOP: return b->board_y;
    case CB_SIDE_BOTTOM: return b->board_y + b->board_h;
    case CB_SIDE_LEFT: return b->board_x;
    default: return b->board_x + b->board_w;
    }
}

static int start_on_side(const cb_board *b, const cb_node *s)
{
    const double eps = 1e-6;
    if (s->side == CB_SIDE_TOP || s->side == CB_SIDE_BOTTOM)
        return fabs(s->y - trim_coord(b, s->side)) < eps && s->x > b->board_x &&
               s->x < b->board_x + b->board_w;
    if (s->side == CB_SIDE_LEFT || s->side == CB_SIDE_RIGHT)
        return fabs(s->x - trim_coord(b, s->side)) < eps && s->y > b->board_y &&
               s->y < b->board_y + b->board_h;
    return 0;
}

/* The plane-drawing clause: the board and its trim rectangle as half-edges,
 * Euler's formula, the faces and the largest piece of paper. */
static cb_status planar_verdict(const cb_board *b, cb_verdict *v, cb_error *err)
{
    v->faces = 0;
    v->largest_piece = 0;
    v->planar = 0;
    cb_planar p;
    cb_error why;
    cb_status st = cb_planar_build(&p, b, &why);
    if (st == CB_ERR_DATA)
        return CB_OK; /* not a plane drawing inside its trim: planar stays 0 */
    if (st != CB_OK)
        return cb_fail(err, st, "%s", why.message);
    v->faces = p.n_faces;
    v->planar = p.euler_ok;
    for (size_t f = 1; f < p.n_faces; f++)
        if (p.area[f] > v->largest_piece)
            v->largest_piece = p.area[f];
    cb_planar_free(&p);
    return CB_OK;
}

static void fail(cb_verdict *v, const char *what)
{
    if (v->ok) {
        v->ok = 0;
        v->failure = what;
    }
}

static cb_status check_with(const cb_board *b, const cb_graph *g, int start_cap, int node_cap,
                            const cb_verdict *drawn, cb_verdict *v, cb_error *err);

cb_status cb_board_check(const cb_board *b, int start_cap, int node_cap,
                         cb_verdict *v, cb_error *err)
{
    memset(v, 0, sizeof *v);
    v->ok = 1;
    v->failure = "";
    /* The plane drawing first, its faces freed before the graph is built:
     * the two are the check's largest structures, and a board read from a
     * file has no graph to share. */
    cb_verdict drawn;
    memset(&drawn, 0, sizeof drawn);
    cb_status st = planar_verdict(b, &drawn, err);
    if (st != CB_OK)
        return st;
    cb_graph gr;
    st = cb_graph_build(&gr, b, err);
    if (st != CB_OK)
        return st;
    st = check_with(b, &gr, start_cap, node_cap, &drawn, v, err);
    cb_graph_free(&gr);
    return st;
}

cb_status cb_board_check_graph(const cb_board *b, const cb_graph *g, int start_cap,
                               int node_cap, cb_verdict *v, cb_error *err)
{
    return check_with(b, g, start_cap, node_cap, NULL, v, err);
}

/* The check with G, and the plane drawing's figures from DRAWN when it
 * was looked at already (else NULL). */
static cb_status check_with(const cb_board *b, const cb_graph *g, int start_cap, int node_cap,
                            const cb_verdict *drawn, cb_verdict *v, cb_error *err)
{
    memset(v, 0, sizeof *v);
    v->ok = 1;
    v->failure = "";
    cb_status st;
    size_t n = b->n_nodes;
    int *hops = malloc((n ? n : 1) * sizeof *hops);
    cb_point *p = malloc((n ? n : 1) * sizeof *p); /* the nodes' places */
    for (size_t i = 0; p && i < n; i++)
        p[i] = node_point(b, (uint32_t)i);
    if (!hops || !p || count_crossings(b, p, &v->crossings) != 0 ||
        count_grazes_overlaps(b, p, &v->grazes, &v->overlaps) != 0) {
        free(hops);
        free(p);
        return cb_fail(err, CB_ERR_INTERNAL, "out of memory checking the board");
    }
    free(p);
    if (cb_graph_hops(g, b->center, hops) != 0) {
        free(hops);
        return cb_fail(err, CB_ERR_INTERNAL, "out of memory checking the board");
    }
    v->connected = 1;
    for (size_t i = 0; i < n; i++)
        if (hops[i] < 0)
            v->connected = 0;
    if (!v->connected)
        fail(v, "not connected");
    if (v->crossings)
        fail(v, "edges cross");
    if (v->grazes)
        fail(v, "an edge passes through a node");
    if (v->overlaps)
        fail(v, "nodes overlap");
    if (drawn) {
        v->faces = drawn->faces;
        v->largest_piece = drawn->largest_piece;
        v->planar = drawn->planar;
        st = CB_OK;
    } else {
        st = planar_verdict(b, v, err);
    }
    if (st != CB_OK) {
        free(hops);
        return st;
    }
    if (!v->planar)
        fail(v, "not a plane drawing inside the trim rectangle (Euler's formula fails)");

    int per_side[4] = {0, 0, 0, 0};
    v->starts_ok = v->caps_ok = v->neighbours_ok = 1;
    v->hop_min = INT32_MAX;
    v->hop_max = -1;
    v->min_disjoint = INT32_MAX;
    uint32_t *owner = malloc((n ? n : 1) * sizeof *owner);
    uint32_t *comp = malloc((n ? n : 1) * sizeof *comp);
    if (!owner || !comp || cb_graph_bridge_components(g, comp) != 0) {
        free(owner);
        free(comp);
        free(hops);
        return cb_fail(err, CB_ERR_INTERNAL, "out of memory checking the board");
    }
    for (size_t i = 0; i < n; i++)
        owner[i] = UINT32_MAX;
    for (uint32_t i = 0; i < n; i++) {
        const cb_node *s = &b->nodes[i];
        int deg = (int)cb_graph_degree(g, i);
        if (i != b->center && deg > (s->kind == CB_KIND_START ? start_cap : node_cap))
            v->caps_ok = 0;
        if (s->kind != CB_KIND_START)
            continue;
        if (start_on_side(b, s))
            per_side[s->side]++;
        else
            v->starts_ok = 0;
        for (uint32_t k = g->start[i]; k < g->start[i + 1]; k++) {
            uint32_t u = g->adj[k];
            if (b->nodes[u].kind == CB_KIND_START || owner[u] != UINT32_MAX)
                v->neighbours_ok = 0;
            owner[u] = i;
        }
        int h = hops[i];
        /* With 2 edges or fewer the count follows from the bridges alone;
         * more edges need the max-flow. */
        int paths = deg > 2 ? cb_graph_edge_disjoint(g, i, b->center, deg)
                    : h < 0 ? 0
                    : comp[i] == comp[b->center] ? deg : (deg > 0);
        if (paths < 0) { /* out of memory, not a path count */
            free(owner);
            free(comp);
            free(hops);
            return cb_fail(err, CB_ERR_INTERNAL, "out of memory checking the board");
        }
        if (v->starts < CB_STARTS) {
            v->hops[v->starts] = h;
            v->disjoint[v->starts] = paths;
        }
        v->starts++;
        if (h >= 0 && h < v->hop_min) v->hop_min = h;
        if (h > v->hop_max) v->hop_max = h;
        if (paths < v->min_disjoint) v->min_disjoint = paths;
    }
    free(owner);
    free(comp);
    for (int s = 0; s < 4; s++)
        if (per_side[s] != CB_STARTS_PER_SIDE)
            v->starts_ok = 0;
    if (v->starts != CB_STARTS || !v->starts_ok)
        fail(v, "not 3 starts on each side's trim line");
    if (!v->caps_ok)
        fail(v, "a node has more edges than its cap");
    if (!v->neighbours_ok)
        fail(v, "two starts are adjacent or share a neighbour");
    if (v->starts == 0) {
        v->hop_min = v->hop_max = 0;
        v->min_disjoint = 0;
    }
    if (v->hop_min < 0 || v->hop_max - v->hop_min > 1)
        fail(v, "start hop counts differ by more than 1");
    if (v->min_disjoint < 2)
        fail(v, "a start has fewer than 2 edge-disjoint paths to the centre");
    free(hops);
    st = cb_dots_verdict(b, g, v, err);
    if (st != CB_OK)
        return st;
    if (!v->dots_ok)
        fail(v, v->dot_failure);
    return CB_OK;
}
