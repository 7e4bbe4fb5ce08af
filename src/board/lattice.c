/* Poster boards on a diamond lattice.
 *
 * Nodes sit at the lattice points (X, Y), X = Y (mod 2), of the square
 * |X|, |Y| <= R, and each links to its four diagonal neighbours
 * (X +- 1, Y +- 1); the square is then stretched onto the trim rectangle.
 * Walking a diagonal step changes max(|X|, |Y|) by exactly one, so the hop
 * count from the centre (0, 0) to any node is max(|X|, |Y|): every node on
 * the border of the square, and so every start, is exactly R hops from the
 * centre. The small-board generator has to search for a hop spread of 1;
 * here it is 0 by construction, at any size, in linear time.
 *
 * To break the grid up, edges are removed where that cannot change a hop
 * count or cut anything off: an edge goes only if its far end (from the
 * centre) keeps another edge one hop nearer, and only if both faces beside
 * it are still whole diamonds. Merging two whole faces never leaves an edge
 * with the same face on both sides, so the board stays 2-edge-connected and
 * every start keeps two edge-disjoint paths to the centre (Menger). Border
 * edges stay, so every border node keeps its two edges. Last, every node
 * but the centre is jittered by less than the gap and clearance the contract
 * leaves; border nodes slide along the trim line only. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "base/prefetch.h"
#include "board/lattice.h"

#define JITTER_OF_SPACING 0.2  /* most a node moves, as a share of the spacing */
#define START_STEP 4           /* lattice units between starts: no shared neighbour */
/* No edge goes within this many lattice units of a start, so every start
 * sits in the same pattern and the starts' shortest cuts (4 edges, found
 * within 2 units) are equal: the boards are cut-fair by construction. */
#define START_KEEP 6

typedef struct {
    int R, width;           /* half side in lattice units; 2R + 1 */
    double sx, sy;          /* mm per lattice unit */
} frame;

enum { DOWN_LEFT = 1, DOWN_RIGHT = 2 }; /* a node's edges to the next row */

static frame frame_of(const cb_lattice_params *lp)
{
    frame f;
    /* The square holds about 2R^2 + 2R nodes. */
    f.R = (int)lround(sqrt((double)lp->n / 2));
    if (f.R < 2)
        f.R = 2;
    f.width = 2 * f.R + 1;
    f.sx = lp->bw / (2.0 * f.R);
    f.sy = lp->bh / (2.0 * f.R);
    return f;
}

/* The middle start of a side sits on the border point nearest the side's
 * middle: 0, or +-1 when R is odd. */
static int middle_start(const frame *f, cb_rng *rng)
{
    return f->R % 2 ? (cb_rng_uniform(rng) < 0.5 ? -1 : 1) : 0;
}

/* The outer starts of two sides share a neighbour unless they are 3 units
 * from the corner. */
static int room_for_starts(const frame *f)
{
    return (f->R % 2 ? 1 : 0) + START_STEP + 3 <= f->R;
}

int cb_lattice_has_room(const cb_lattice_params *lp)
{
    frame f = frame_of(lp);
    return room_for_starts(&f);
}

double cb_lattice_slack(const cb_lattice_params *lp)
{
    frame f = frame_of(lp);
    double edge = hypot(f.sx, f.sy);
    double nearest = fmin(edge, 2 * fmin(f.sx, f.sy));
    double height = 2 * f.sx * f.sy / edge; /* a node to the far sides of its diamonds */
    return fmin((nearest - 2 * lp->r - CB_NODE_GAP_MM) / 2, (height - lp->r) / 2);
}

static size_t cell(const frame *f, int x, int y)
{
    return (size_t)(y + f->R) * (size_t)f->width + (size_t)(x + f->R);
}

static int hop_of(int x, int y)
{
    return abs(x) > abs(y) ? abs(x) : abs(y);
}

static int is_node(const frame *f, int x, int y)
{
    if (abs(x) > f->R || abs(y) > f->R || ((x ^ y) & 1))
        return 0;
    return !(abs(x) == f->R && abs(y) == f->R); /* a corner would hang by one edge */
}

/* Edges from the centre's side into node (x, y): its neighbours one hop
 * nearer. */
static uint8_t parents_of(const frame *f, int x, int y)
{
    int h = hop_of(x, y);
    uint8_t k = 0;
    for (int dy = -1; dy <= 1; dy += 2)
        for (int dx = -1; dx <= 1; dx += 2)
            k = (uint8_t)(k + (is_node(f, x + dx, y + dy) && hop_of(x + dx, y + dy) == h - 1));
    return k;
}

static int near_starts(const frame *f, int x, int y, int mid)
{
    int reach = START_STEP + START_KEEP;
    return ((f->R - abs(y) <= START_KEEP && abs(x - mid) <= reach) ||
            (f->R - abs(x) <= START_KEEP && abs(y - mid) <= reach));
}

/* thin_edges keeps what it knows of a cell in its byte of EDGES, beside the
 * cell's down-edges: whether the diamond centred on it lost an edge, and
 * how many edges it keeps from the centre's side. One byte a cell, so each
 * step of the random-order pass below reads two cache lines (the cell's row
 * and the next), not six. */
enum { FACE_GONE = 4, PARENT_SHIFT = 3, DOWN_EDGES = DOWN_LEFT | DOWN_RIGHT };

static int parents_in(uint8_t cell_state)
{
    return cell_state >> PARENT_SHIFT;
}

/* Candidate K (cell * 2 + down-right) as its cell and grid position. */
static size_t candidate_cell(const frame *f, uint32_t k, int *x, int *y, int *dx)
{
    size_t c = k / 2;
    *dx = k % 2 ? 1 : -1;
    *x = (int)(c % (size_t)f->width) - f->R;
    *y = (int)(c / (size_t)f->width) - f->R;
    return c;
}

/* Removes edges as the header comment says. EDGES holds the down-edges of
 * each cell; only they are left in it. */
static int thin_edges(const frame *f, uint8_t *edges, int mid, cb_rng *rng)
{
    size_t cells = (size_t)f->width * (size_t)f->width;
    size_t n_cand = 0;
    uint32_t *cand = malloc(cells * 2 * sizeof *cand);
    if (!cand)
        return -1;
    /* Candidates: edges between two inner nodes, as cell * 2 + (down-right). */
    for (int y = -f->R + 1; y < f->R - 1; y++)
        for (int x = -f->R + 1; x < f->R; x++) {
            if (!is_node(f, x, y))
                continue;
            edges[cell(f, x, y)] |= (uint8_t)(parents_of(f, x, y) << PARENT_SHIFT);
            if (x - 1 > -f->R)
                cand[n_cand++] = (uint32_t)(cell(f, x, y) * 2);
            if (x + 1 < f->R)
                cand[n_cand++] = (uint32_t)(cell(f, x, y) * 2 + 1);
        }
    for (int x = -f->R + 1; x < f->R; x++) /* the last inner row's parents */
        if (is_node(f, x, f->R - 1))
            edges[cell(f, x, f->R - 1)] |= (uint8_t)(parents_of(f, x, f->R - 1) << PARENT_SHIFT);
    cb_rng_shuffle(rng, cand, n_cand);
    for (size_t i = 0; i < n_cand; i++) {
        int x, y, dx;
        if (i + CB_PREFETCH_AHEAD < n_cand) { /* the cells a later step reads */
            size_t later = cand[i + CB_PREFETCH_AHEAD] / 2;
            CB_PREFETCH_WRITE(&edges[later]);
            CB_PREFETCH_WRITE(&edges[later + (size_t)f->width]);
        }
        size_t c = candidate_cell(f, cand[i], &x, &y, &dx);
        size_t up = c, down = cell(f, x + dx, y + 1);
        size_t face_a = cell(f, x + dx, y), face_b = cell(f, x, y + 1);
        size_t child = hop_of(x, y) > hop_of(x + dx, y + 1) ? up : down;
        if ((edges[face_a] & FACE_GONE) || (edges[face_b] & FACE_GONE) ||
            parents_in(edges[child]) < 2 || near_starts(f, x, y, mid) ||
            near_starts(f, x + dx, y + 1, mid))
            continue;
        edges[up] &= (uint8_t)~(dx < 0 ? DOWN_LEFT : DOWN_RIGHT);
        edges[face_a] |= FACE_GONE;
        edges[face_b] |= FACE_GONE;
        edges[child] = (uint8_t)(edges[child] - (1u << PARENT_SHIFT));
    }
    for (size_t c = 0; c < cells; c++)
        edges[c] &= DOWN_EDGES;
    free(cand);
    return 0;
}

/* Jitter in [-j, j]. */
static double jitter(cb_rng *rng, double j)
{
    return (2 * cb_rng_uniform(rng) - 1) * j;
}

/* The side whose start node (x, y) is, or CB_SIDE_NONE: each side has
 * starts at MID and MID +- START_STEP along it. */
static cb_side start_side(const frame *f, int x, int y, int mid)
{
    int along;
    cb_side side;
    if (y == -f->R) { side = CB_SIDE_TOP; along = x - mid; }
    else if (y == f->R) { side = CB_SIDE_BOTTOM; along = x - mid; }
    else if (x == -f->R) { side = CB_SIDE_LEFT; along = y - mid; }
    else if (x == f->R) { side = CB_SIDE_RIGHT; along = y - mid; }
    else return CB_SIDE_NONE;
    return abs(along) <= START_STEP && along % START_STEP == 0 ? side : CB_SIDE_NONE;
}

int cb_lattice_board(cb_board *b, const cb_lattice_params *lp, cb_rng *rng, const char **why)
{
    frame f = frame_of(lp);
    int mid = middle_start(&f, rng);
    if (!room_for_starts(&f)) {
        *why = "the lattice has no room for 3 starts a side";
        return 1;
    }
    size_t cells = (size_t)f.width * (size_t)f.width;
    uint32_t *id = malloc(cells * sizeof *id);
    uint8_t *edges = calloc(cells, 1);
    if (!id || !edges)
        goto oom;
    size_t n = 0, m = 0;
    for (int y = -f.R; y <= f.R; y++)
        for (int x = -f.R; x <= f.R; x++) {
            size_t c = cell(&f, x, y);
            id[c] = is_node(&f, x, y) ? (uint32_t)n++ : UINT32_MAX;
            if (id[c] == UINT32_MAX)
                continue;
            if (is_node(&f, x - 1, y + 1))
                edges[c] |= DOWN_LEFT;
            if (is_node(&f, x + 1, y + 1))
                edges[c] |= DOWN_RIGHT;
        }
    if (thin_edges(&f, edges, mid, rng) != 0)
        goto oom;
    for (size_t c = 0; c < cells; c++)
        m += (edges[c] & DOWN_LEFT) != 0 && (edges[c] & DOWN_RIGHT) != 0 ? 2 : edges[c] != 0;
    b->nodes = calloc(n, sizeof *b->nodes);
    b->edges = malloc((m ? m : 1) * sizeof *b->edges);
    if (!b->nodes || !b->edges)
        goto oom;

    double slack = cb_lattice_slack(lp);
    double j = fmin(JITTER_OF_SPACING * hypot(f.sx, f.sy),
                    fmax(0, fmin(0.9 * slack, slack - CB_LATTICE_ROUNDING_MM)));
    if (j < 0)
        j = 0;
    for (int y = -f.R; y <= f.R; y++)
        for (int x = -f.R; x <= f.R; x++) {
            size_t c = cell(&f, x, y);
            if (id[c] == UINT32_MAX)
                continue;
            cb_node *v = &b->nodes[id[c]];
            v->x = lp->bx + (x + f.R) * f.sx;
            v->y = lp->by + (y + f.R) * f.sy;
            v->type = v->mission = -1;
            v->side = start_side(&f, x, y, mid);
            v->kind = v->side != CB_SIDE_NONE ? CB_KIND_START : CB_KIND_NODE;
            if (x == 0 && y == 0) {
                v->kind = CB_KIND_CENTER;
                b->center = id[c];
            } else if (abs(y) == f.R) {
                v->x += jitter(rng, j);
            } else if (abs(x) == f.R) {
                v->y += jitter(rng, j);
            } else {
                v->x += jitter(rng, j * sqrt(0.5));
                v->y += jitter(rng, j * sqrt(0.5));
            }
            /* Border nodes exactly on the trim line. */
            if (x == -f.R) v->x = lp->bx;
            if (x == f.R) v->x = lp->bx + lp->bw;
            if (y == -f.R) v->y = lp->by;
            if (y == f.R) v->y = lp->by + lp->bh;
            /* Edges to the next row, in ascending id order. */
            if (edges[c] & DOWN_LEFT)
                b->edges[b->n_edges++] = (cb_edge){id[c], id[cell(&f, x - 1, y + 1)]};
            if (edges[c] & DOWN_RIGHT)
                b->edges[b->n_edges++] = (cb_edge){id[c], id[cell(&f, x + 1, y + 1)]};
        }
    b->n_nodes = n;
    free(id);
    free(edges);
    return 0;
oom:
    free(id);
    free(edges);
    return -1;
}
