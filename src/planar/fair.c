/* The board contract: every clause recomputed from the board alone. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/board_geometry.h"
#include "base/geom.h"
#include "base/grid.h"
#include "base/graph.h"
#include "base/unionfind.h"
#include "planar/dots_check.h"
#include "planar/fair.h"
#include "planar/halfedge.h"

static int cmp_u32(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return (a > b) - (a < b);
}

static cb_point node_point(const cb_board *b, uint32_t i)
{
    cb_point p = {b->nodes[i].x, b->nodes[i].y};
    return p;
}

/* cb_segments_cross for edges X and Y of board B, answering its common
 * cases here from the same orientations, computed the same way (no
 * tolerance changes):
 * - edges that meet at a node (whose coordinates are not NaN) and end apart
 *   only touch there, unless the far end of Y lies on X's line;
 * - otherwise, when the ends of one segment lie strictly on one side of the
 *   other's line and no end lies on a line, they have no common point. */
static int edges_cross(const cb_board *b, const cb_edge *x, const cb_edge *y)
{
    cb_point a = node_point(b, x->a), z = node_point(b, x->b);
    cb_point c = node_point(b, y->a), d = node_point(b, y->b);
    /* One branch on whether the edges meet, not one a pair of ends. */
    int at_a = (x->a == y->a) | (x->a == y->b);
    if (at_a | (x->b == y->a) | (x->b == y->b)) {
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
    return cb_segments_cross(node_point(b, x->a), node_point(b, x->b), node_point(b, y->a),
                             node_point(b, y->b));
}

/* An edge listed in a grid row: the edge, its first column and, in the
 * top bit, whether this row is the first its box covers. */
typedef struct {
    uint32_t e, c0;
} listed;

#define FIRST_ROW 0x80000000u

/* The grid cells edge E's box covers: columns c0..c1, rows r0..r1 (the
 * same every time it is asked). */
static void edge_cells(const cb_grid *g, const cb_board *b, const cb_edge *e, uint32_t *c0,
                       uint32_t *r0, uint32_t *c1, uint32_t *r1)
{
    cb_point u = node_point(b, e->a), w = node_point(b, e->b);
    cb_grid_range(g, (u.x + w.x) / 2, (u.y + w.y) / 2, fabs(u.x - w.x) / 2,
                  fabs(u.y - w.y) / 2, c0, r0, c1, r1);
}

/* Pairs of crossing edges. The pairs tested are those whose boxes share a
 * cell of a grid as fine as the mean edge length, each once: in the first
 * row both boxes cover (the first row of one of them). Each row lists the
 * edges whose box covers it by first column, so the edges whose columns
 * meet an edge's follow it until the first one that starts right of its
 * last column. Rows, not columns: boards number their nodes row by row or
 * near it (the lattice does), so a row's edges lie close together in
 * memory. 8 bytes a listing and 4 a cell: on large boards an edge's cells
 * are worked out again where they are needed, and the places read from the
 * nodes, rather than kept. */
/* Boards with at most this many edges keep each edge's cells (16 bytes an
 * edge) rather than work them out three times; larger ones (posters) keep
 * to the listing's memory. */
#define KEPT_CELLS_EDGES 65536

static int count_crossings(const cb_board *b, size_t *out)
{
    size_t m = b->n_edges;
    *out = 0;
    if (m < 2)
        return 0;
    double total = 0;
    for (size_t e = 0; e < m; e++)
        total += cb_dist(node_point(b, b->edges[e].a), node_point(b, b->edges[e].b));
    cb_grid g;
    cb_grid_shape(&g, 0, 0, b->page_w, b->page_h, fmax(total / (double)m, 1e-3), m);
    /* Lists keyed by row, then first column: one slot per cell. */
    size_t cells = (size_t)g.cols * g.rows, refs = 0;
    uint32_t *start = calloc(cells + 1, sizeof *start);
    if (!start || g.cols >= FIRST_ROW) {
        free(start);
        return -1;
    }
    const cb_edge *edges = b->edges;
    uint32_t c0, r0, c1, r1;
    uint32_t (*kept)[4] = m <= KEPT_CELLS_EDGES ? malloc(m * sizeof *kept) : NULL;
    for (size_t e = 0; e < m; e++) {
        edge_cells(&g, b, &edges[e], &c0, &r0, &c1, &r1);
        if (kept) {
            kept[e][0] = c0;
            kept[e][1] = r0;
            kept[e][2] = c1;
            kept[e][3] = r1;
        }
        for (uint32_t r = r0; r <= r1; r++)
            start[(size_t)r * g.cols + c0 + 1]++;
        refs += r1 - r0 + 1;
    }
    if (refs > UINT32_MAX) {
        free(start);
        free(kept);
        return -1;
    }
    for (size_t k = 0; k < cells; k++)
        start[k + 1] += start[k];
    listed *items = malloc((refs ? refs : 1) * sizeof *items);
    if (!items) {
        free(start);
        free(kept);
        return -1;
    }
    /* Filled back to front: start[k + 1] counts down to cell k's first
     * slot, so each cell lists its edges in edge order. */
    for (uint32_t e = (uint32_t)m; e-- > 0;) {
        if (kept) {
            c0 = kept[e][0];
            r0 = kept[e][1];
            r1 = kept[e][3];
        } else {
            edge_cells(&g, b, &edges[e], &c0, &r0, &c1, &r1);
        }
        for (uint32_t r = r0; r <= r1; r++) {
            listed *it = &items[--start[(size_t)r * g.cols + c0 + 1]];
            it->e = e;
            it->c0 = c0 | (r == r0 ? FIRST_ROW : 0);
        }
    }
    for (size_t k = 0; k < cells; k++)
        start[k] = start[k + 1];
    start[cells] = (uint32_t)refs;
    size_t n = 0;
    for (uint32_t r = 0; r < g.rows; r++) {
        size_t end = start[(size_t)(r + 1) * g.cols];
        for (size_t i = start[(size_t)r * g.cols]; i < end; i++) {
            uint32_t e = items[i].e, first = items[i].c0 & FIRST_ROW, last;
            if (kept)
                last = kept[e][2];
            else
                edge_cells(&g, b, &edges[e], &c0, &r0, &last, &r1);
            for (size_t j = i + 1; j < end && (items[j].c0 & ~FIRST_ROW) <= last; j++) {
                if (!first && !(items[j].c0 & FIRST_ROW))
                    continue; /* met in an earlier row */
                uint32_t f = items[j].e;
                /* The earlier edge first: cb_segments_cross rounds asymmetrically. */
                n += (size_t)edges_cross(b, &edges[e < f ? e : f], &edges[e < f ? f : e]);
            }
        }
    }
    *out = n;
    free(start);
    free(items);
    free(kept);
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
    uint32_t *maybe = malloc((n ? n : 1) * sizeof *maybe);
    if (!maybe || cb_grid_init(&g, 0, 0, b->page_w, b->page_h, near, n) != 0) {
        free(maybe);
        return -1;
    }
    cb_grid_fill(&g, p, n);
    *grazes = *overlaps = 0;
    uint32_t c0, r0, c1, r1;
    /* Each scan first picks out, without a branch, the nodes a cheap test
     * cannot rule out, then measures those: a node as far as the limit
     * along one axis is at least that far (the square root of a rounded
     * square is the number itself), and one outside the edge's box grown
     * by the radius and a nanometre is further than the radius from it. */
    for (size_t i = 0; i < n; i++) {
        cb_grid_range(&g, p[i].x, p[i].y, near, near, &c0, &r0, &c1, &r1);
        size_t nm = 0;
        for (uint32_t y = r0; y <= r1; y++) {
            uint32_t k0, k1;
            cb_grid_row(&g, y, c0, c1, &k0, &k1);
            for (uint32_t k = k0; k < k1; k++) {
                uint32_t j = g.items[k];
                double dx = p[i].x - p[j].x, dy = p[i].y - p[j].y;
                maybe[nm] = j;
                nm += (size_t)((j > i) & (fabs(dx) < near) & (fabs(dy) < near));
            }
        }
        for (size_t k = 0; k < nm; k++)
            *overlaps += cb_dist(p[i], p[maybe[k]]) < near;
    }
    double slack = r + 1e-6;
    for (size_t e = 0; e < b->n_edges; e++) {
        uint32_t ea = b->edges[e].a, eb = b->edges[e].b;
        cb_point pa = p[ea], pb = p[eb];
        cb_grid_range(&g, (pa.x + pb.x) / 2, (pa.y + pb.y) / 2,
                      fabs(pa.x - pb.x) / 2 + r, fabs(pa.y - pb.y) / 2 + r,
                      &c0, &r0, &c1, &r1);
        double xlo = (pa.x < pb.x ? pa.x : pb.x) - slack, xhi = (pa.x < pb.x ? pb.x : pa.x) + slack;
        double ylo = (pa.y < pb.y ? pa.y : pb.y) - slack, yhi = (pa.y < pb.y ? pb.y : pa.y) + slack;
        size_t nm = 0;
        for (uint32_t y = r0; y <= r1; y++) {
            uint32_t k0, k1;
            cb_grid_row(&g, y, c0, c1, &k0, &k1);
            for (uint32_t k = k0; k < k1; k++) {
                uint32_t v = g.items[k];
                cb_point q = p[v];
                maybe[nm] = v;
                nm += (size_t)((v != ea) & (v != eb) & (q.x >= xlo) & (q.x <= xhi) &
                               (q.y >= ylo) & (q.y <= yhi));
            }
        }
        for (size_t k = 0; k < nm; k++)
            *grazes += cb_point_segment_dist(p[maybe[k]], pa, pb) < r;
    }
    cb_grid_free(&g);
    free(maybe);
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
 * Euler's formula, the faces and the largest piece of paper. *BUILT (when
 * not NULL) tells whether the drawing could be built: if so, every edge
 * joins two nodes of the board. KEEP (when not NULL) gets the structure
 * when it was built, else stays empty. */
static cb_status planar_verdict(const cb_board *b, cb_verdict *v, int *built, cb_planar *keep,
                                cb_error *err)
{
    v->faces = 0;
    v->largest_piece = 0;
    v->smallest_piece = 0;
    v->planar = 0;
    cb_planar p;
    cb_error why;
    cb_status st = cb_planar_build(&p, b, &why);
    if (built)
        *built = st == CB_OK;
    if (st == CB_ERR_DATA)
        return CB_OK; /* not a plane drawing inside its trim: planar stays 0 */
    if (st != CB_OK)
        return cb_fail(err, st, "%s", why.message);
    v->faces = p.n_faces;
    v->planar = p.euler_ok;
    v->smallest_piece = p.n_faces > 1 ? INFINITY : 0;
    for (size_t f = 1; f < p.n_faces; f++) {
        if (p.area[f] > v->largest_piece)
            v->largest_piece = p.area[f];
        if (p.area[f] < v->smallest_piece)
            v->smallest_piece = p.area[f];
    }
    if (keep)
        *keep = p;
    else
        cb_planar_free(&p);
    return CB_OK;
}

/* How far from node V's centre the line towards (ux, uy), a unit vector,
 * leaves its printed shape: its disk, or a start's rectangle. */
static double shape_exit(const cb_board *b, const cb_node *v, double ux, double uy)
{
    if (v->kind != CB_KIND_START)
        return b->node_radius;
    double o[4];
    cb_start_offsets(v->side, b->node_radius, o);
    double t = INFINITY;
    if (ux > 1e-12) t = fmin(t, o[2] / ux);
    if (ux < -1e-12) t = fmin(t, o[0] / ux);
    if (uy > 1e-12) t = fmin(t, o[3] / uy);
    if (uy < -1e-12) t = fmin(t, o[1] / uy);
    return t;
}

/* The least stretch of an edge printed between its nodes' shapes. */
static double shortest_visible(const cb_board *b)
{
    double least = INFINITY;
    for (size_t e = 0; e < b->n_edges; e++) {
        const cb_node *a = &b->nodes[b->edges[e].a], *c = &b->nodes[b->edges[e].b];
        double dx = c->x - a->x, dy = c->y - a->y, len = sqrt(dx * dx + dy * dy);
        if (!(len > 0))
            return 0;
        double ux = dx / len, uy = dy / len;
        least = fmin(least, len - shape_exit(b, a, ux, uy) - shape_exit(b, c, -ux, -uy));
    }
    return b->n_edges ? least : 0;
}

static void fail(cb_verdict *v, const char *what)
{
    if (v->ok) {
        v->ok = 0;
        v->failure = what;
    }
}

/* The clauses of the nodes' places alone: crossings, grazes and overlaps
 * into V. */
static cb_status places_verdict(const cb_board *b, cb_verdict *v, cb_error *err)
{
    size_t n = b->n_nodes;
    int bad = count_crossings(b, &v->crossings) != 0;
    cb_point *p = bad ? NULL : malloc((n ? n : 1) * sizeof *p); /* the grid's points */
    for (size_t i = 0; p && i < n; i++)
        p[i] = node_point(b, (uint32_t)i);
    bad = bad || !p || count_grazes_overlaps(b, p, &v->grazes, &v->overlaps) != 0;
    free(p);
    return bad ? cb_fail(err, CB_ERR_NOMEM, "out of memory checking the board") : CB_OK;
}

/* The tree edges that are not bridges of G, for the breadth-first tree of
 * HOPS (from its root, at 0 hops; a node's parent is its first neighbour
 * one hop nearer, whose slot gets its bit in TREE, one per slot of G): UP
 * gets each node's union-find link, which is the node itself exactly when
 * the edge to its parent is a bridge (or it has none). Every bridge is a
 * tree edge, and each edge off the tree closes a cycle with the tree path
 * between its ends: that path is walked up from both ends to where they
 * meet, each tree edge once (the union-find skips the stretches walked
 * before). So a reached node is joined to the root by 2 edge-disjoint
 * paths when no bridge lies on its tree path, that is when its link leads
 * to the root, as cb_graph_bridge_components would tell, with one tree
 * for the whole check. */
static void tree_bridges(const cb_graph *g, const int *hops, uint8_t *tree, uint32_t *up)
{
    uint32_t n = (uint32_t)g->n;
    memset(tree, 0, (g->start[n] + 7) / 8);
    for (uint32_t v = 0; v < n; v++) {
        up[v] = v;
        for (uint32_t k = g->start[v]; hops[v] > 0 && k < g->start[v + 1]; k++)
            if (hops[g->adj[k]] == hops[v] - 1) {
                tree[k / 8] = (uint8_t)(tree[k / 8] | 1u << k % 8);
                break;
            }
    }
    cb_graph_join_cycles(g, hops, tree, up);
}

/* Whether some node is a neighbour of two starts, or a start of a start
 * (the neighbours of every start, sorted). -1 when out of memory. */
static int starts_crowded(const cb_board *b, const cb_graph *g)
{
    size_t k = 0;
    for (uint32_t i = 0; i < b->n_nodes; i++)
        if (b->nodes[i].kind == CB_KIND_START)
            k += g->start[i + 1] - g->start[i];
    uint32_t *near = malloc((k ? k : 1) * sizeof *near);
    if (!near)
        return -1;
    int crowded = 0;
    k = 0;
    for (uint32_t i = 0; i < b->n_nodes; i++) {
        if (b->nodes[i].kind != CB_KIND_START)
            continue;
        for (uint32_t s = g->start[i]; s < g->start[i + 1]; s++) {
            near[k++] = g->adj[s];
            crowded |= b->nodes[g->adj[s]].kind == CB_KIND_START;
        }
    }
    qsort(near, k, sizeof *near, cmp_u32);
    for (size_t i = 1; i < k; i++)
        crowded |= near[i] == near[i - 1];
    free(near);
    return crowded;
}

static cb_status check_with(const cb_board *b, const cb_graph *g, int start_cap, int node_cap,
                            const cb_verdict *drawn, cb_verdict *v, int *hops_out,
                            cb_planar *plane, cb_error *err);

/* The scissors clauses, on boards made to be cut (those with power dots;
 * finer posters get the figures only). Pieces and edges are read to the
 * board file's 0.01 mm, as the dots are (dots_check.c). */
static void scissors_verdict(const cb_board *b, cb_verdict *v)
{
    v->shortest_visible = shortest_visible(b);
    v->cuttable = 1;
    if (!cb_board_has_dots(b))
        return;
    if (v->faces > 1 && v->smallest_piece < CB_MIN_PIECE_MM2 - 0.05) {
        v->cuttable = 0;
        fail(v, "a piece of paper is under 120 mm^2");
    }
    if (v->shortest_visible < CB_MIN_VISIBLE_MM - 0.02) {
        v->cuttable = 0;
        fail(v, "an edge shows under 3 mm between its nodes");
    }
}

cb_status cb_board_check(const cb_board *b, int start_cap, int node_cap,
                         cb_verdict *v, cb_error *err)
{
    memset(v, 0, sizeof *v);
    v->ok = 1;
    v->failure = "";
    /* The plane drawing first, then the clauses of the places, then the
     * graph's, each step's structures freed before the next one's are built
     * (a board read from a file has no graph to share). The places are
     * read along the edges: when the drawing could not be built, an edge
     * may name no node, and the graph's build says which first. */
    cb_verdict drawn;
    memset(&drawn, 0, sizeof drawn);
    int built = 0;
    cb_status st = planar_verdict(b, &drawn, &built, NULL, err);
    if (st == CB_OK && built)
        st = places_verdict(b, &drawn, err);
    if (st != CB_OK)
        return st;
    cb_graph gr;
    st = cb_graph_build(&gr, b, err);
    if (st != CB_OK)
        return st;
    if (!built)
        st = places_verdict(b, &drawn, err);
    if (st == CB_OK)
        st = check_with(b, &gr, start_cap, node_cap, &drawn, v, NULL, NULL, err);
    cb_graph_free(&gr);
    return st;
}

cb_status cb_board_check_graph(const cb_board *b, const cb_graph *g, int start_cap,
                               int node_cap, cb_verdict *v, int *hops, cb_planar *plane,
                               cb_error *err)
{
    if (plane)
        memset(plane, 0, sizeof *plane);
    cb_status st = check_with(b, g, start_cap, node_cap, NULL, v, hops, plane, err);
    if (plane && st != CB_OK)
        cb_planar_free(plane);
    return st;
}

/* The check with G, and the figures of the plane drawing and the places
 * from DRAWN when they were worked out already (else NULL); each node's
 * hops into HOPS_OUT when not NULL, the plane drawing into PLANE (when not
 * NULL and DRAWN is). */
static cb_status check_with(const cb_board *b, const cb_graph *g, int start_cap, int node_cap,
                            const cb_verdict *drawn, cb_verdict *v, int *hops_out,
                            cb_planar *plane, cb_error *err)
{
    memset(v, 0, sizeof *v);
    v->ok = 1;
    v->failure = "";
    cb_status st = CB_OK;
    size_t n = b->n_nodes;
    if (drawn) {
        v->crossings = drawn->crossings;
        v->grazes = drawn->grazes;
        v->overlaps = drawn->overlaps;
        v->faces = drawn->faces;
        v->largest_piece = drawn->largest_piece;
        v->smallest_piece = drawn->smallest_piece;
        v->planar = drawn->planar;
    } else {
        st = places_verdict(b, v, err);
    }
    if (st != CB_OK)
        return st;
    int *own = hops_out ? NULL : malloc((n ? n : 1) * sizeof *own);
    int *hops = hops_out ? hops_out : own;
    if (!hops || cb_graph_hops(g, b->center, hops) != 0) {
        free(own);
        return cb_fail(err, CB_ERR_NOMEM, "out of memory checking the board");
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
    if (!drawn)
        st = planar_verdict(b, v, NULL, plane, err);
    if (st != CB_OK) {
        free(own);
        return st;
    }
    if (!v->planar)
        fail(v, "not a plane drawing inside the trim rectangle (Euler's formula fails)");

    int per_side[4] = {0, 0, 0, 0};
    v->starts_ok = v->caps_ok = v->neighbours_ok = 1;
    v->hop_min = INT32_MAX;
    v->hop_max = -1;
    v->min_disjoint = INT32_MAX;
    /* The bridges, for the starts with 2 edges or fewer: those counts
     * follow from them alone; more edges need the max-flow. Starts past the
     * 12th (a board has 12) are counted up to 2 from the bridges too, so a
     * file of many starts costs no flow for each. */
    uint8_t *tree = NULL;
    uint32_t *up = NULL;
    size_t starts_seen = 0;
    for (uint32_t i = 0; i < n && !up; i++)
        if (b->nodes[i].kind == CB_KIND_START && ++starts_seen && hops[i] >= 0 &&
            (cb_graph_degree(g, i) <= 2 || starts_seen > CB_STARTS)) {
            tree = malloc(g->start[n] / 8 + 1);
            up = malloc(n * sizeof *up);
            if (!tree || !up) {
                free(tree);
                free(up);
                free(own);
                return cb_fail(err, CB_ERR_NOMEM, "out of memory checking the board");
            }
            tree_bridges(g, hops, tree, up);
            free(tree);
        }
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
        int h = hops[i], paths;
        if (deg > 2 && v->starts < CB_STARTS) {
            paths = cb_graph_edge_disjoint(g, i, b->center, deg);
        } else if (h < 0) {
            paths = 0;
        } else { /* joined: no bridge between the start and the centre */
            int joined = cb_uf_find(up, i) == b->center;
            paths = joined ? (deg < 2 ? deg : 2) : (deg > 0);
        }
        if (paths < 0) { /* out of memory, not a path count */
            free(up);
            free(own);
            return cb_fail(err, CB_ERR_NOMEM, "out of memory checking the board");
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
    free(up);
    free(own);
    int crowded = starts_crowded(b, g);
    if (crowded < 0)
        return cb_fail(err, CB_ERR_NOMEM, "out of memory checking the board");
    v->neighbours_ok = !crowded;
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
    st = cb_dots_verdict(b, g, v, err);
    if (st != CB_OK)
        return st;
    if (!v->dots_ok)
        fail(v, v->dot_failure);
    scissors_verdict(b, v);
    return CB_OK;
}
