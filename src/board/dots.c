/* Power dots: where each node's go (on its rim, in the gaps between its
 * edges, clear of everything else) and how many a node holds. The sizes
 * and clearances are base/board_geometry.h's; the contract's check of them
 * is planar/dots_check.c. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "board/dots.h"
#include "base/geom.h"
#include "base/grid.h"
#include "board/work.h"

#define MIN_GAP (0.3 * M_PI)   /* narrower gaps between edges get no dots */
#define MIN_GAP_TRIM (0.22 * M_PI) /* on the trim line only half the turn is free */
#define SLOT_STEPS 6            /* a gap offers a dot 2 * SLOT_STEPS + 1 places */
#define OUT_TOLERANCE 1e-6     /* radians: see points_out */

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

static double sq(double x)
{
    return x * x;
}

static double min2(double a, double b)
{
    return a < b ? a : b; /* fmin is a library call at -O2; no NaN here */
}

static double max2(double a, double b)
{
    return a > b ? a : b; /* likewise fmax */
}

/* One more dot for every 3 players, up to 3: 4 dots of full size do not
 * fit around a node with 4 edges once its edges are unevenly spread. */
int cb_dots_wanted(int players)
{
    int n = 1 + players / 3;
    return n < 3 ? n : 3;
}

int cb_node_dots_wanted(const cb_board *b, uint32_t v, int players)
{
    if (!cb_board_has_dots(b))
        return 0;
    if (v == b->center)
        return 1;
    /* nodes so small that dots keep their least size hold one each */
    int each = CB_DOT_RADIUS * b->node_radius < CB_DOT_MIN_RADIUS_MM ? 1 : cb_dots_wanted(players);
    const cb_node *n = &b->nodes[v];
    if (n->kind == CB_KIND_START || cb_on_trim(b, n))
        return each < CB_DOTS_ON_TRIM ? each : CB_DOTS_ON_TRIM;
    return each;
}

/* Insertion sort: a node has a handful of edge angles. */
static void sort_angles(double *a, int n)
{
    for (int i = 1; i < n; i++) {
        double x = a[i];
        int j = i;
        for (; j > 0 && a[j - 1] > x; j--)
            a[j] = a[j - 1];
        a[j] = x;
    }
}

/* Distance from a node's centre to the edge of its shape along the unit
 * direction (dx, dy) (y down, as on the page): one radius but for a start's
 * rectangle. */
static double shape_reach(const cb_board *b, const cb_node *v, double dx, double dy)
{
    double r = b->node_radius;
    if (v->kind != CB_KIND_START)
        return r;
    double in, along;
    switch (v->side) {
    case CB_SIDE_TOP: in = dy; along = dx; break;
    case CB_SIDE_BOTTOM: in = -dy; along = dx; break;
    case CB_SIDE_LEFT: in = dx; along = dy; break;
    default: in = -dx; along = dy; break;
    }
    double t = INFINITY;
    if (in > 1e-9) t = min2(t, CB_START_DEPTH * r / in);
    if (fabs(along) > 1e-9) t = min2(t, CB_START_HALF_WIDTH * r / fabs(along));
    return isfinite(t) ? t : r;
}

static int inside_trim(const cb_board *b, double x, double y, double margin)
{
    return x >= b->board_x + margin && x <= b->board_x + b->board_w - margin &&
           y >= b->board_y + margin && y <= b->board_y + b->board_h - margin;
}

/* Is node j's printed shape (disk or start rectangle) closer than LIM to p? */
static int node_within(const cb_board *b, uint32_t j, cb_point p, double lim)
{
    const cb_node *v = &b->nodes[j];
    double r = b->node_radius;
    if (v->kind != CB_KIND_START) {
        cb_point c = {v->x, v->y};
        return cb_dist2(p, c) < (lim + r) * (lim + r);
    }
    double o[4];
    cb_start_offsets(v->side, r, o);
    return cb_point_rect_dist(p, v->x + o[0], v->y + o[1], v->x + o[2], v->y + o[3]) < lim;
}

#define NO_DOT UINT32_MAX
#define NO_REF UINT32_MAX

typedef struct { uint32_t c0, r0, c1, r1; } cell_box; /* cells [c0,c1] x [r0,r1] */
typedef struct { double x0, y0, x1, y1; } edge_box;  /* open box: x0 < x < x1, y0 < y < y1 */
typedef struct { uint32_t edge, next; } edge_ref;      /* an edge listed in a cell */

/* Nodes, edges and the dots placed so far bucketed by cell, and the
 * adjacency, so that a dot is checked only against what is near it: O(1)
 * per dot instead of O(n + E). */
typedef struct {
    const cb_graph *g;
    cb_grid nodes;          /* node centres */
    double node_near;       /* nodes further than this on either axis never block a dot */
    uint32_t *edge_head;    /* per cell of `nodes`: its first edge_ref, or NO_REF */
    edge_ref *edge_refs;    /* each cell's edges whose box touches it, linked */
    edge_box *ebox;         /* per edge: where a dot may come too close to it */
    double (*dot_xy)[2];    /* the dots placed so far */
    uint32_t n_dots;
    uint32_t *dot_next;     /* per dot: the one placed before it in its cell, or NO_DOT */
    uint32_t *dot_head;     /* per cell: the last dot placed in it, or NO_DOT */
} dot_index;

static double dot_reach(const cb_board *b)
{
    double r = b->node_radius;
    return (CB_START_DEPTH + 1) * r + 2 * cb_dot_radius(r);
}

/* How near an edge or the trim line a dot of radius DR may be: its centre
 * at least this far, with a little to spare for the board file's 0.01 mm
 * (so the file, read back, still shows the full clearance). */
#define ROUNDING_SPARE_MM 0.01
static double edge_apart(double dr)
{
    return dr + CB_DOT_LINE_CLEARANCE_MM + ROUNDING_SPARE_MM;
}

/* How near each other two dots of radius DR may be, centre to centre. */
static double dots_apart(double dr)
{
    return 2 * dr + CB_DOT_CLEARANCE_MM;
}

/* How near another node's shape a dot of radius DR may be, centre to
 * shape: the ownership margin past the dot's own rim. */
static double others_apart(double dr)
{
    return dr + CB_DOT_OWNER_MARGIN_MM;
}

/* Edge e's bounding box grown by LIM: no point outside it is within LIM of
 * the edge. Plain comparisons: fmin/fmax are library calls at -O2. */
static edge_box edge_box_of(const cb_board *b, size_t e, double lim)
{
    const cb_node *u = &b->nodes[b->edges[e].a], *v = &b->nodes[b->edges[e].b];
    double xlo = u->x < v->x ? u->x : v->x, xhi = u->x < v->x ? v->x : u->x;
    double ylo = u->y < v->y ? u->y : v->y, yhi = u->y < v->y ? v->y : u->y;
    return (edge_box){xlo - lim, ylo - lim, xhi + lim, yhi + lim};
}

static int box_holds(const edge_box *bx, cb_point p)
{
    /* One branch for the four tests where it is used (each alone is hard
     * to predict). */
    return (p.x > bx->x0) & (p.x < bx->x1) & (p.y > bx->y0) & (p.y < bx->y1);
}

/* Is p within LIM of edge e? */
static int edge_within(const cb_board *b, size_t e, cb_point p, double lim)
{
    const cb_node *u = &b->nodes[b->edges[e].a], *v = &b->nodes[b->edges[e].b];
    cb_point a = {u->x, u->y}, c = {v->x, v->y};
    return cb_point_segment_dist2(p, a, c) < lim * lim;
}

/* The cells of G that hold the points of box BX: cb_grid_cell's arithmetic
 * rises with the coordinate, so a point inside the box lies in one of them. */
static cell_box cells_of(const cb_grid *g, const edge_box *bx)
{
    cell_box cells;
    cb_grid_box(g, bx->x0, bx->y0, bx->x1, bx->y1, &cells.c0, &cells.r0, &cells.c1, &cells.r1);
    return cells;
}

static void dot_index_free(dot_index *ix)
{
    cb_grid_free(&ix->nodes);
    free(ix->edge_head);
    free(ix->edge_refs);
    free(ix->ebox);
    free(ix->dot_xy);
    free(ix->dot_next);
    free(ix->dot_head);
}

/* Indexes B's nodes and edges, with room for MAX_DOTS dots. */
static int dot_index_build(dot_index *ix, const cb_board *b, const cb_graph *g, size_t max_dots)
{
    memset(ix, 0, sizeof *ix);
    ix->g = g;
    /* A node blocks a dot when its shape comes within the dot's radius and
     * clearance; the shape reaches from the centre along either axis at
     * most the start rectangle's depth or half width, or the disk's radius
     * (a nanometre spare for the rounding of the rectangle's corners). */
    double r = b->node_radius, dr = cb_dot_radius(r);
    double extent = fmax(1, fmax(CB_START_DEPTH, CB_START_HALF_WIDTH)) * r;
    ix->node_near = extent + others_apart(dr) + 1e-6;
    size_t n = b->n_nodes, m = b->n_edges;
    cb_point *p = malloc((n ? n : 1) * sizeof *p);
    if (!p || cb_grid_init(&ix->nodes, b->board_x, b->board_y, b->board_w, b->board_h,
                           dot_reach(b), n) != 0) {
        free(p);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        p[i].x = b->nodes[i].x;
        p[i].y = b->nodes[i].y;
    }
    cb_grid_fill(&ix->nodes, p, n);
    free(p);
    const cb_grid *gr = &ix->nodes;
    double lim = edge_apart(dr);
    size_t cells = (size_t)gr->cols * gr->rows;
    ix->edge_head = malloc(cells * sizeof *ix->edge_head);
    ix->ebox = malloc((m ? m : 1) * sizeof *ix->ebox);
    ix->dot_xy = malloc((max_dots ? max_dots : 1) * sizeof *ix->dot_xy);
    ix->dot_next = malloc((max_dots ? max_dots : 1) * sizeof *ix->dot_next);
    ix->dot_head = malloc(cells * sizeof *ix->dot_head);
    cell_box *box = malloc((m ? m : 1) * sizeof *box); /* each edge's cells */
    if (!ix->edge_head || !ix->ebox || !ix->dot_xy || !ix->dot_next || !ix->dot_head || !box) {
        free(box);
        return -1;
    }
    for (size_t c = 0; c < cells; c++) {
        ix->edge_head[c] = NO_REF;
        ix->dot_head[c] = NO_DOT;
    }
    /* Each edge's cells, then the edge on each of their lists: a point
     * the edge can block is in its box, so in one of its cells. */
    size_t refs = 0;
    for (size_t e = 0; e < m; e++) {
        ix->ebox[e] = edge_box_of(b, e, lim);
        box[e] = cells_of(gr, &ix->ebox[e]);
        refs += (size_t)(box[e].c1 - box[e].c0 + 1) * (box[e].r1 - box[e].r0 + 1);
    }
    ix->edge_refs = malloc((refs ? refs : 1) * sizeof *ix->edge_refs);
    if (!ix->edge_refs) {
        free(box);
        return -1;
    }
    uint32_t k = 0;
    for (size_t e = 0; e < m; e++)
        for (uint32_t y = box[e].r0; y <= box[e].r1; y++)
            for (uint32_t x = box[e].c0; x <= box[e].c1; x++) {
                size_t c = (size_t)y * gr->cols + x;
                ix->edge_refs[k] = (edge_ref){(uint32_t)e, ix->edge_head[c]};
                ix->edge_head[c] = k++;
            }
    free(box);
    return 0;
}

/* Places a dot at p, in CELL of the index. */
static void dot_index_add(dot_index *ix, cb_point p, size_t cell)
{
    uint32_t k = ix->n_dots++;
    ix->dot_xy[k][0] = p.x;
    ix->dot_xy[k][1] = p.y;
    ix->dot_next[k] = ix->dot_head[cell];
    ix->dot_head[cell] = k;
}

/* Does node j, if nearer than REACH to p on both axes, block a dot of
 * node SELF at p? */
static int node_blocks(const cb_board *b, uint32_t j, uint32_t self, cb_point p, double reach,
                       double dr)
{
    const cb_node *v = &b->nodes[j];
    return j != self && fabs(v->x - p.x) < reach && fabs(v->y - p.y) < reach &&
           node_within(b, j, p, others_apart(dr));
}

static int edge_blocks(const cb_board *b, size_t e, cb_point p, double dr)
{
    double lim = edge_apart(dr);
    edge_box bx = edge_box_of(b, e, lim);
    return box_holds(&bx, p) && edge_within(b, e, p, lim);
}

static int dot_blocks(const double *q, cb_point p, double dr)
{
    double dx = q[0] - p.x, dy = q[1] - p.y, lim = dots_apart(dr);
    return dx * dx + dy * dy < lim * lim;
}

/* May a dot of node SELF go at p: inside the trim, clear of every other
 * node, every edge and, with an index, the dots placed on it so far? Then
 * *CELL is p's cell in the index. Without one (a node placed alone) every
 * node and edge is checked. */
static int dot_fits(const cb_board *b, const dot_index *ix, uint32_t self, cb_point p,
                    size_t *cell)
{
    double dr = cb_dot_radius(b->node_radius);
    if (!inside_trim(b, p.x, p.y, edge_apart(dr)))
        return 0;
    double reach = dot_reach(b);
    if (!ix) {
        for (uint32_t j = 0; j < b->n_nodes; j++)
            if (node_blocks(b, j, self, p, reach, dr))
                return 0;
        for (size_t e = 0; e < b->n_edges; e++)
            if (edge_blocks(b, e, p, dr))
                return 0;
        return 1;
    }
    const cb_grid *g = &ix->nodes;
    uint32_t c0, r0, c1, r1;
    /* An edge is listed in every cell within the clearance of its box, so
     * p's own cell lists every edge that can block it. */
    size_t here = cb_grid_cell(g, p);
    double lim = edge_apart(dr);
    for (uint32_t k = ix->edge_head[here]; k != NO_REF; k = ix->edge_refs[k].next) {
        uint32_t e = ix->edge_refs[k].edge;
        if (box_holds(&ix->ebox[e], p) && edge_within(b, e, p, lim))
            return 0;
    }
    /* A node blocks p only if nearer than node_near on both axes, a dot
     * only if nearer than dots_apart, which is less (two dot radii are less
     * than a node's): the cells in this range hold every one that can. */
    cb_grid_range(g, p.x, p.y, ix->node_near, ix->node_near, &c0, &r0, &c1, &r1);
    /* node_blocks's first test, made tighter: a node that blocks p is
     * within node_near anyway, and the reach still holds. */
    double near = ix->node_near < reach ? ix->node_near : reach;
    double others = others_apart(dr);
    for (uint32_t y = r0; y <= r1; y++) {
        size_t row = (size_t)y * g->cols;
        uint32_t k0, k1;
        cb_grid_row(g, y, c0, c1, &k0, &k1);
        /* node_blocks in two passes: the nodes near on both axes picked
         * out without a branch (which are is hard to predict), then their
         * shapes measured. */
        uint32_t maybe[64];
        while (k0 < k1) {
            uint32_t end = k1 - k0 > 64 ? k0 + 64 : k1, nm = 0;
            for (uint32_t k = k0; k < end; k++) {
                uint32_t j = g->items[k];
                const cb_node *v = &b->nodes[j];
                maybe[nm] = j;
                nm += (uint32_t)((j != self) & (fabs(v->x - p.x) < near) &
                                 (fabs(v->y - p.y) < near));
            }
            for (uint32_t k = 0; k < nm; k++)
                if (node_within(b, maybe[k], p, others))
                    return 0;
            k0 = end;
        }
        for (uint32_t x = c0; x <= c1; x++)
            for (uint32_t k = ix->dot_head[row + x]; k != NO_DOT; k = ix->dot_next[k])
                if (dot_blocks(ix->dot_xy[k], p, dr))
                    return 0;
    }
    *cell = here;
    return 1;
}

/* Is p clear of the node's own dots placed so far? */
static int own_dots_clear(const cb_board *b, cb_point p, double (*xy)[2], int out)
{
    double dr = cb_dot_radius(b->node_radius);
    for (int k = 0; k < out; k++)
        if (dot_blocks(xy[k], p, dr))
            return 0;
    return 1;
}

/* How far from node v's centre, along the unit direction (dx, dy), the
 * centre of a dot of radius DR lies when the dot touches the node's shape
 * from outside: a radius further for a disk. For a start's rectangle (the
 * node's centre on or in it), the distance from the point RHO along the
 * ray to the rectangle is sqrt(ex^2 + ey^2), ex = max(0, rho |dx| - Ex)
 * with Ex the centre's distance to the side the ray heads for, and ey
 * alike: it grows with RHO, so it reaches DR once, first on one axis
 * alone (a side of the rectangle) or else on both (near a corner: a
 * quadratic). Solved exactly, then moved out by as little as it takes for
 * the distance, as computed, to be at least DR. */
static double touching_rho(const cb_board *b, const cb_node *v, double dx, double dy, double dr)
{
    double reach = shape_reach(b, v, dx, dy);
    if (v->kind != CB_KIND_START)
        return reach + dr;
    double o[4];
    cb_start_offsets(v->side, b->node_radius, o);
    /* squared distance from the point RHO along the ray to the rectangle */
#define RECT_DIST2(rho)                                                        \
    (sq(max2(max2(o[0] - (rho) * dx, 0), (rho) * dx - o[2])) +                \
     sq(max2(max2(o[1] - (rho) * dy, 0), (rho) * dy - o[3])))
    double ax = fabs(dx), ay = fabs(dy), dr2 = dr * dr;
    double ex = dx > 0 ? o[2] : -o[0], ey = dy > 0 ? o[3] : -o[1];
    double tx = ax > 0 ? ex / ax : INFINITY, ty = ay > 0 ? ey / ay : INFINITY;
    double rho;
    if (tx <= ty && (ex + dr) / ax <= ty) {
        rho = (ex + dr) / ax; /* past the side it heads for, not the other */
    } else if (ty < tx && (ey + dr) / ay <= tx) {
        rho = (ey + dr) / ay;
    } else { /* past both: |rho (ax, ay) - (ex, ey)| = dr */
        double half_b = ax * ex + ay * ey, c = ex * ex + ey * ey - dr2;
        rho = half_b + sqrt(fmax(0, half_b * half_b - c));
    }
    if (rho < reach)
        rho = reach;
    /* A few steps of the last bit; growing ones if a grazing ray ever
     * needs more, so that it ends. */
    for (int k = 0; RECT_DIST2(rho) < dr2; k++)
        rho = k < 16 ? nextafter(rho, INFINITY) : rho + ldexp(rho * DBL_EPSILON, k - 16);
#undef RECT_DIST2
    return rho;
}

/* One angular gap between a node's edges and the places a dot may take in
 * it: SLOT_STEPS * 2 + 1 angles spread evenly over the part of the gap a
 * dot clears the edges in, tried from the middle out (0, +1, -1, +2, ...),
 * or from the sides in (see cb_dots_place_all). Measured only when its
 * first place comes up. */
typedef struct {
    double lo, w;       /* start angle and width */
    int placed;         /* dots placed in it */
    int next;           /* rank of the next place to try */
    int cap;            /* places it has; -1 until measured */
    double mid, rho, step; /* middle angle, ring radius, angle between places */
    double cos_mid, sin_mid;
} dot_gap;

static void gap_measure(const cb_board *b, const cb_node *v, dot_gap *gap)
{
    double dr = cb_dot_radius(b->node_radius);
    gap->mid = gap->lo + gap->w / 2;
    gap->cos_mid = cos(gap->mid);
    gap->sin_mid = sin(gap->mid);
    gap->rho = touching_rho(b, v, gap->cos_mid, gap->sin_mid, dr);
    double room = gap->w - 2 * asin(min2(1, edge_apart(dr) / gap->rho));
    gap->cap = room < 0 ? 0 : 2 * SLOT_STEPS + 1;
    gap->step = room / (2 * SLOT_STEPS);
}

static double slot_angle(const dot_gap *gap, int rank, int sides_first)
{
    if (sides_first)
        rank = 2 * SLOT_STEPS - rank; /* -SLOT_STEPS, +SLOT_STEPS, ... 0 */
    double off = (rank + 1) / 2;
    /* The side by a sign, not a branch (ranks alternate): off * -1 is -off
     * to the bit, -0 included. */
    double side = (double)(rank % 2 * 2 - 1);
    return gap->mid + off * side * gap->step;
}

/* The gap to try next, or -1 when every place is tried: one dot in every
 * gap before any gets a second, wider gaps first, ties to the lower gap. */
static int next_gap(const dot_gap *gaps, int n)
{
    int best = -1;
    for (int k = 0; k < n; k++) {
        const dot_gap *gap = &gaps[k];
        if (gap->cap >= 0 && gap->next >= gap->cap)
            continue;
        if (best < 0 || gap->placed < gaps[best].placed ||
            (gap->placed == gaps[best].placed && gap->w > gaps[best].w))
            best = k;
    }
    return best;
}

/* Does direction TH (radians, in any turn) point out of the board across a
 * trim line V sits on, by more than OUT_TOLERANCE (angles are good to about
 * 1e-15 here)? A dot that way has its centre on or beyond the trim line,
 * which dot_fits refuses (a dot's radius is positive): no need to work out
 * where it would go. */
static int points_out(const cb_board *b, const cb_node *v, double th)
{
    while (th > M_PI)
        th -= 2 * M_PI;
    while (th <= -M_PI)
        th += 2 * M_PI;
    double tol = OUT_TOLERANCE;
    if (v->x <= b->board_x && fabs(th) > M_PI / 2 + tol) /* leftward */
        return 1;
    if (v->x >= b->board_x + b->board_w && fabs(th) < M_PI / 2 - tol) /* rightward */
        return 1;
    if (v->y <= b->board_y && th < -tol && th > -M_PI + tol) /* upward (y down) */
        return 1;
    return v->y >= b->board_y + b->board_h && th > tol && th < M_PI - tol; /* downward */
}

/* Places up to WANT dots around node i into xy, checking each against the
 * board and, with an index, the dots placed on it (where it then places
 * them too); returns how many fit. Candidate slots fill the angular gaps
 * between the node's edges from the middle out (with SIDES_FIRST from the
 * sides in); wider gaps come first, one dot per gap before any gap gets a
 * second. */
static int place_dots(const cb_board *b, dot_index *ix, uint32_t i, int want,
                      double (*xy)[2], int max, int sides_first)
{
    const cb_node *v = &b->nodes[i];
    double dr = cb_dot_radius(b->node_radius);
    double ang[CB_DOTS_MAX_ANGLES];
    int na = 0;
    if (want > max)
        want = max;
    if (want <= 0 || !cb_board_has_dots(b))
        return 0;
    if (ix) { /* the graph lists i's edges in edge order, as the scan below */
        for (uint32_t k = ix->g->start[i]; k < ix->g->start[i + 1] && na < CB_DOTS_MAX_ANGLES - 4;
             k++) {
            uint32_t u = ix->g->adj[k];
            ang[na++] = atan2(b->nodes[u].y - v->y, b->nodes[u].x - v->x);
        }
    } else {
        for (size_t e = 0; e < b->n_edges && na < CB_DOTS_MAX_ANGLES - 4; e++) {
            uint32_t u;
            if (b->edges[e].a == i) u = b->edges[e].b;
            else if (b->edges[e].b == i) u = b->edges[e].a;
            else continue;
            ang[na++] = atan2(b->nodes[u].y - v->y, b->nodes[u].x - v->x);
        }
    }
    /* The trim line blocks like an edge in both directions along it. */
    if (v->x <= b->board_x || v->x >= b->board_x + b->board_w) {
        ang[na++] = M_PI / 2;
        ang[na++] = -M_PI / 2;
    }
    if (v->y <= b->board_y || v->y >= b->board_y + b->board_h) {
        ang[na++] = 0;
        ang[na++] = M_PI;
    }
    sort_angles(ang, na);
    dot_gap gaps[CB_DOTS_MAX_ANGLES];
    int ng = 0;
    /* The centre's one dot goes in any gap, however narrow. */
    int trim = cb_on_trim(b, v);
    double min_gap = v->kind == CB_KIND_CENTER ? 0 : trim ? MIN_GAP_TRIM : MIN_GAP;
    for (int k = 0; k < (na ? na : 1); k++) {
        double lo = na ? ang[k] : 0;
        double w = na ? (k + 1 < na ? ang[k + 1] : ang[0] + 2 * M_PI) - lo : 2 * M_PI;
        if (w < min_gap)
            continue;
        gaps[ng++] = (dot_gap){.lo = lo, .w = w, .placed = 0, .next = 0, .cap = -1};
    }
    int out = 0;
    while (out < want) {
        int k = next_gap(gaps, ng);
        if (k < 0)
            break;
        dot_gap *gap = &gaps[k];
        if (gap->cap < 0) {
            gap_measure(b, v, gap);
            if (gap->next >= gap->cap)
                continue;
        }
        double th = slot_angle(gap, gap->next++, sides_first);
        if (trim && points_out(b, v, th))
            continue;
        /* The middle place's direction was worked out with the gap (the
         * same angle, bit for bit, -0 included). */
        int at_mid = th == gap->mid && !signbit(th) == !signbit(gap->mid);
        double dx = at_mid ? gap->cos_mid : cos(th), dy = at_mid ? gap->sin_mid : sin(th);
        /* a start's rectangle reaches further in some directions than others */
        double rho = v->kind == CB_KIND_START ? touching_rho(b, v, dx, dy, dr) : gap->rho;
        cb_point p = {v->x + rho * dx, v->y + rho * dy};
        size_t cell;
        /* With an index, the node's own dots are on it already. */
        if (!dot_fits(b, ix, i, p, &cell) || (!ix && !own_dots_clear(b, p, xy, out)))
            continue;
        xy[out][0] = p.x;
        xy[out][1] = p.y;
        out++;
        gap->placed++;
        if (ix)
            dot_index_add(ix, p, cell);
    }
    return out;
}

int cb_board_dot_positions(const cb_board *board, uint32_t node, double (*xy)[2], int max)
{
    if (node >= board->n_nodes)
        return 0;
    const cb_node *v = &board->nodes[node];
    if (!board->dot_xy) /* a board made by hand: place this node's alone */
        return place_dots(board, NULL, node, v->dots, xy, max, 0);
    int k = 0;
    for (; k < v->dots && k < max && v->first_dot + (size_t)k < board->n_dot_xy; k++) {
        xy[k][0] = board->dot_xy[v->first_dot + (size_t)k][0];
        xy[k][1] = board->dot_xy[v->first_dot + (size_t)k][1];
    }
    return k;
}

/* Places all dots of board B (graph G): cb_node_dots_wanted for PLAYERS,
 * or with PLAYERS < 0 the count each node has. Every node holds its dots
 * at full size, or with STRICT the board is refused (1) like any other
 * that breaks the contract; otherwise a node keeps the dots that fit.
 * Nodes on the trim line go first: half their turn is off the board, so
 * they have the least room, and the nodes inside have room to give way.
 * Each node's dots land in its own EACH places of dot_xy, packed into node
 * order after. -1 when out of memory. */
/* Empties the index of dots (nodes and edges stay). */
static void dot_index_clear(dot_index *ix)
{
    size_t cells = (size_t)ix->nodes.cols * ix->nodes.rows;
    for (size_t c = 0; c < cells; c++)
        ix->dot_head[c] = NO_DOT;
    ix->n_dots = 0;
}

/* A node that fell short is placed first in the next round, at most this
 * many rounds (measured on the first attempts of 1,000 A4 boards: 7.5 %
 * were thrown away for their dots with one round, 3.5 % with four). */
#define DOT_ROUNDS 4

/* One round: the nodes of FIRST, then those on the trim line (half their
 * turn is off the board, so they have the least room; the nodes inside
 * have room to give way), the starts and the rest, each node's dots into
 * its own EACH places of dot_xy; node SPREAD's from the sides of its gaps
 * in. Returns the first node that fell short (with STRICT), or
 * UINT32_MAX. */
static uint32_t place_round(cb_board *b, dot_index *ix, int players, const uint8_t *counts,
                            int each, int strict, const uint32_t *first, int n_first,
                            uint32_t spread)
{
    for (int pass = -1; pass < 3; pass++)
        for (uint32_t k = 0; k < (pass < 0 ? (uint32_t)n_first : b->n_nodes); k++) {
            uint32_t v = pass < 0 ? first[k] : k;
            const cb_node *n = &b->nodes[v];
            int order = n->kind == CB_KIND_START ? 1 : cb_on_trim(b, n) ? 0 : 2;
            int placed_first = 0;
            for (int f = 0; f < n_first; f++)
                placed_first |= first[f] == v;
            if (pass >= 0 && (order != pass || placed_first))
                continue;
            int want = players >= 0 ? cb_node_dots_wanted(b, v, players) : counts[v];
            want = want < each ? want : each;
            b->nodes[v].dots = place_dots(b, ix, v, want, b->dot_xy + (size_t)v * (size_t)each,
                                          want, v == spread);
            if (strict && b->nodes[v].dots < want)
                return v;
        }
    return UINT32_MAX;
}

int cb_dots_place_all(cb_board *b, const cb_graph *g, int players, int strict)
{
    int each = players >= 0 ? cb_dots_wanted(players) : 1;
    for (size_t v = 0; players < 0 && v < b->n_nodes; v++)
        each = b->nodes[v].dots > each ? b->nodes[v].dots : each;
    if (each > CB_DOTS_MAX)
        each = CB_DOTS_MAX;
    free(b->dot_xy);
    b->n_dot_xy = 0;
    size_t max_dots = b->n_nodes * (size_t)each + 1;
    b->dot_xy = malloc(max_dots * sizeof *b->dot_xy);
    dot_index ix;
    if (!b->dot_xy || dot_index_build(&ix, b, g, max_dots) != 0) {
        if (b->dot_xy)
            dot_index_free(&ix);
        return -1;
    }
    /* The rounds stop at a node short of dots even when not STRICT, so that
     * a board read back places its dots as the generator did. */
    /* Without PLAYERS, each node's count as it came (a round overwrites it). */
    uint8_t *counts = players < 0 ? malloc(b->n_nodes ? b->n_nodes : 1) : NULL;
    if (players < 0 && !counts) {
        dot_index_free(&ix);
        return -1;
    }
    for (size_t v = 0; counts && v < b->n_nodes; v++)
        counts[v] = (uint8_t)(b->nodes[v].dots < 0 ? 0 : b->nodes[v].dots > each ? each
                                                                      : b->nodes[v].dots);
    uint32_t first[DOT_ROUNDS];
    int n_first = 0;
    uint32_t short_of_dots;
    while ((short_of_dots = place_round(b, &ix, players, counts, each, 1, first, n_first,
                                        UINT32_MAX)) != UINT32_MAX &&
           n_first < DOT_ROUNDS - 1) {
        first[n_first++] = short_of_dots;
        dot_index_clear(&ix);
    }
    /* A node still short is nearly always on the trim line with one wide
     * gap inside (about 0.6 of a half turn between its 2 edges): the dot
     * in its middle leaves no room for a second either side, while two
     * from its sides fit. So a last round places that node first, from
     * the sides in (measured on a 300-game deck: 85 boards of 1,303
     * thrown away for their dots before, 14 after). */
    if (short_of_dots != UINT32_MAX) {
        dot_index_clear(&ix);
        first[0] = short_of_dots;
        short_of_dots = place_round(b, &ix, players, counts, each, 1, first, 1, first[0]);
        if (short_of_dots != UINT32_MAX && !strict) { /* every node keeps what fits */
            dot_index_clear(&ix);
            short_of_dots = place_round(b, &ix, players, counts, each, 0, first, 1, first[0]);
        }
    }
    for (uint32_t v = 0; v < b->n_nodes && short_of_dots == UINT32_MAX; v++) {
        b->nodes[v].first_dot = (uint32_t)b->n_dot_xy;
        memmove(b->dot_xy + b->n_dot_xy, b->dot_xy + (size_t)v * (size_t)each,
                (size_t)b->nodes[v].dots * sizeof *b->dot_xy);
        b->n_dot_xy += (size_t)b->nodes[v].dots;
    }
    free(counts);
    dot_index_free(&ix);
    return short_of_dots != UINT32_MAX;
}

cb_status cb_board_place_dots(cb_board *b, cb_error *err)
{
    cb_graph g;
    cb_status st = cb_graph_build(&g, b, err);
    if (st != CB_OK)
        return st;
    int rc = cb_dots_place_all(b, &g, -1, 0);
    cb_graph_free(&g);
    return rc < 0 ? cb_fail(err, CB_ERR_NOMEM, "out of memory placing power dots") : CB_OK;
}
