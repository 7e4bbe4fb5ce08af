/* Step 1: place points by repulsion relaxation on a uniform grid.
 *
 * Points start jittered on a grid, then each iteration pushes every pair
 * closer than the spacing apart; the largest move shrinks every iteration
 * so the points settle. Points near the trim line snap onto it and may only
 * slide along it, which gives every side enough edge nodes.
 *
 * The relaxation runs in a space where the board is squashed towards a
 * square (by `stretch`): hop counts to the centre then depend much less on
 * which side a start sits on, which is what makes a hop spread of 1 common. */
#include <math.h>
#include <stdlib.h>
#include "base/board_geometry.h"
#include "base/grid.h"
#include "board/work.h"

#define PAIR_SKIN 0.5 /* in spacings */
/* Edge nodes are set this many spacings apart along their side on boards
 * whose starts are chosen by the exact search (CB_EXACT_STARTS_NODES). A
 * start needs two neighbours inward of its own, and a node on the trim
 * line has only the triangulation edges inward: set a spacing apart, the
 * first row inside often sits straight over an edge node and leaves it
 * one. Wider, the row settles into the gaps and each edge node gets two (at 1, a 300-game deck dropped a sixth
 * of its placements for want of a fair choice of starts; at 1.3 a 100-game
 * deck dropped 1 in 45). 1.3 was best of 1 to 1.6: A4 attempts a board
 * 1.30 -> 1.05, node cap 3 110 -> 12, A2 (350 nodes) 2.11 -> 1.97 ms a
 * board; a little worse on the 9-player shared A4 board (1.30 -> 1.35
 * attempts, 1,000 seeds). Larger boards choose their starts greedily
 * among many candidates (starts.c) and lost by it: 1,000 nodes 5.6 -> 8.3
 * ms, 4,500 nodes 39 -> 68 ms; they keep edge nodes a spacing apart. */
#define EDGE_SPACING 1.3

/* Pairs of points closer than REACH: each pair once, from the lower cell of
 * a half stencil (same cell, then the right, lower-left, lower and
 * lower-right cells). The grid's cells are at least REACH wide. Returns the
 * number of pairs, or -1 when out of memory. */
typedef struct {
    uint32_t i, j;
} pair;

static long list_pairs(const cb_grid *g, const cb_point *u, double reach, pair **pairs,
                       size_t *cap, uint32_t *nbr)
{
    static const int stencil[4][2] = {{1, 0}, {-1, 1}, {0, 1}, {1, 1}};
    double reach2 = reach * reach;
    size_t np = 0;
    for (uint32_t r = 0; r < g->rows; r++)
        for (uint32_t c = 0; c < g->cols; c++) {
            size_t cell = (size_t)r * g->cols + c;
            uint32_t p0 = g->start[cell], p1 = g->start[cell + 1];
            if (p0 == p1)
                continue;
            /* The stencil's points, in stencil order, once for the cell. */
            size_t nb = 0;
            for (int k = 0; k < 4; k++) {
                long cc = (long)c + stencil[k][0], rr = (long)r + stencil[k][1];
                if (cc < 0 || cc >= (long)g->cols || rr >= (long)g->rows)
                    continue;
                size_t other = (size_t)rr * g->cols + (size_t)cc;
                for (uint32_t q = g->start[other]; q < g->start[other + 1]; q++)
                    nbr[nb++] = g->items[q];
            }
            size_t most = (size_t)(p1 - p0) * (p1 - p0 + nb);
            if (np + most > *cap) {
                size_t nc = *cap * 2 + most + 64;
                pair *grown = realloc(*pairs, nc * sizeof *grown);
                if (!grown)
                    return -1;
                *pairs = grown;
                *cap = nc;
            }
            /* Every candidate is written and kept only when near: whether
             * a pair is near is a coin toss the processor cannot predict,
             * and a store costs less than a miss. */
            pair *out = *pairs;
            for (uint32_t p = p0; p < p1; p++) {
                uint32_t i = g->items[p];
                cb_point ui = u[i];
                for (uint32_t q = p + 1; q < p1; q++) { /* same cell: later points only */
                    uint32_t j = g->items[q];
                    double dx = ui.x - u[j].x, dy = ui.y - u[j].y;
                    out[np].i = i;
                    out[np].j = j;
                    np += dx * dx + dy * dy < reach2;
                }
                for (size_t q = 0; q < nb; q++) {
                    uint32_t j = nbr[q];
                    double dx = ui.x - u[j].x, dy = ui.y - u[j].y;
                    out[np].i = i;
                    out[np].j = j;
                    np += dx * dx + dy * dy < reach2;
                }
            }
        }
    return (long)np;
}

/* A listed pair found within reach this iteration, with its offset. */
typedef struct {
    uint32_t i, j;
    double dx, dy, dist2;
} near_pair;

/* The push on every point from the listed pairs closer than REACH: both
 * ends move apart. Two passes: the pairs within reach are picked out
 * without a branch (whether one is, is a coin toss the processor cannot
 * predict), then pushed in list order, the same sums in the same order.
 * NEAR has room for NP. */
static void push_apart(const pair *pairs, size_t np, const cb_point *u, cb_point *move,
                       size_t n, double reach, near_pair *near)
{
    double reach2 = reach * reach;
    for (size_t i = 0; i < n; i++)
        move[i].x = move[i].y = 0;
    size_t nn = 0;
    for (size_t k = 0; k < np; k++) {
        uint32_t i = pairs[k].i, j = pairs[k].j;
        double dx = u[i].x - u[j].x, dy = u[i].y - u[j].y;
        double dist2 = dx * dx + dy * dy;
        near[nn] = (near_pair){i, j, dx, dy, dist2};
        nn += dist2 < reach2;
    }
    /* A point's pairs as first end are listed together: its push is summed
     * in registers over them (the same additions in the same order), not
     * through memory pair by pair; the second end is never the first. */
    for (size_t k = 0; k < nn;) {
        uint32_t i = near[k].i;
        double mx = move[i].x, my = move[i].y;
        for (; k < nn && near[k].i == i; k++) {
            uint32_t j = near[k].j;
            double dx = near[k].dx, dy = near[k].dy;
            double dist = sqrt(near[k].dist2);
            if (dist < 1e-9) { /* coincident: split by index */
                dx = i < j ? 1e-3 : -1e-3;
                dy = 0;
                dist = 1e-3;
            }
            double f = (reach - dist) * 0.5 / dist;
            mx += dx * f;
            my += dy * f;
            move[j].x -= dx * f;
            move[j].y -= dy * f;
        }
        move[i].x = mx;
        move[i].y = my;
    }
}

int cb_place(cb_work *w, const cb_place_params *pp, cb_rng *rng)
{
    size_t n = pp->n;
    /* Relaxation space: width W/s, height H*s, same area. */
    int wide = pp->bw >= pp->bh;
    double sx = wide ? pp->stretch : 1 / pp->stretch;
    double sy = 1 / sx;
    double uw = pp->bw / sx, uh = pp->bh / sy, d = pp->d;
    double snap = 0.3 * d;
    /* A point that does not snap keeps off the trim line by a start's depth,
     * a node radius and the least visible edge (the scissors clause), so
     * that an edge from a start to it shows (boards with power dots only). */
    double keep = w->r >= CB_DOT_MIN_NODE_RADIUS_MM
                      ? (CB_START_DEPTH + 1) * w->r + CB_MIN_VISIBLE_MM + 0.5 : 0;
    double keep_x = fmax(snap, keep / sx), keep_y = fmax(snap, keep / sy);

    cb_point *u = w->p; /* relax in place, map to mm at the end */
    /* move, then each point's place when the pairs were last listed */
    cb_point *move = malloc(2 * n * sizeof *move), *listed = move + n;
    cb_grid g;
    double reach = d; /* points push within one spacing */
    /* Pairs are listed within reach + SKIN and listed again once some point
     * has moved SKIN / 2: until then no pair outside the list can come
     * within reach. */
    double skin = PAIR_SKIN * d;
    pair *pairs = NULL;
    near_pair *near = NULL;
    size_t cap = 0, np = 0, near_cap = 0;
    int stale = 1;
    if (!move || cb_grid_init(&g, 0, 0, uw, uh, reach + skin, n) != 0) {
        free(move);
        w->failure = CB_FAIL_NOMEM;
        return -1;
    }
    /* Edge nodes first: each side gets as many as fit at their spacing,
     * evenly with jitter, already snapped (corners stay empty). */
    double edge_d = n <= CB_EXACT_STARTS_NODES ? EDGE_SPACING * d : d;
    size_t k = 0;
    for (int side = 0; side < 4 && k < n; side++) {
        int horizontal = side == CB_SIDE_TOP || side == CB_SIDE_BOTTOM;
        double len = horizontal ? uw : uh;
        int count = (int)floor(len / edge_d) - 1;
        for (int j = 0; j < count && k < n; j++, k++) {
            double t = (j + 1 + 0.5 * (cb_rng_uniform(rng) - 0.5)) * len / (count + 1);
            u[k].x = side == CB_SIDE_LEFT ? 0 : side == CB_SIDE_RIGHT ? uw : t;
            u[k].y = side == CB_SIDE_TOP ? 0 : side == CB_SIDE_BOTTOM ? uh : t;
            w->sides[k] = (uint8_t)(1u << side);
        }
    }
    /* The rest anywhere in distinct cells of a grid over the inside: jitter
     * over the whole cell, or rows and columns of the grid survive the
     * relaxation as a false equilibrium (seen on 9-player A3 boards). */
    size_t inner = n - k;
    double iw = uw - d, ih = uh - d;
    size_t cols = (size_t)fmax(1, round(sqrt((double)inner * iw / ih)));
    size_t rows = (inner + cols - 1) / cols;
    size_t cells = cols * rows;
    /* The shuffled cells, then room for list_pairs's stencil points. */
    uint32_t *order = malloc((cells + n + 1) * sizeof *order), *nbr = order ? order + cells : NULL;
    if (!order)
        goto nomem;
    for (size_t i = 0; i < cells; i++)
        order[i] = (uint32_t)i;
    cb_rng_shuffle(rng, order, cells);
    double cw = iw / (double)cols, ch = ih / (double)rows;
    for (size_t i = 0; i < inner; i++, k++) {
        size_t c = order[i] % cols, r = order[i] / cols;
        u[k].x = d / 2 + ((double)c + cb_rng_uniform(rng)) * cw;
        u[k].y = d / 2 + ((double)r + cb_rng_uniform(rng)) * ch;
    }
    /* The centre is the node nearest the middle, pinned there. */
    cb_point mid = {uw / 2, uh / 2};
    uint32_t center = (uint32_t)(n - inner); /* first inside point */
    for (uint32_t i = center + 1; i < n; i++)
        if (!w->sides[i] && cb_dist(u[i], mid) < cb_dist(u[center], mid))
            center = i;
    u[center] = mid;
    w->center = center;

    for (int it = 0; it < pp->iterations; it++) {
        double step = 0.5 * d * (1.0 - (double)it / pp->iterations);
        if (stale) {
            cb_grid_fill(&g, u, n);
            long got = list_pairs(&g, u, reach + skin, &pairs, &cap, nbr);
            if (got < 0)
                goto nomem;
            np = (size_t)got;
            if (np > near_cap) {
                near_pair *grown = realloc(near, np * sizeof *near);
                if (!grown)
                    goto nomem;
                near = grown;
                near_cap = np;
            }
            for (size_t i = 0; i < n; i++)
                listed[i] = u[i];
            stale = 0;
        }
        push_apart(pairs, np, u, move, n, reach, near);
        double limit2 = skin * skin / 4;
        for (size_t i = 0; i < n; i++) {
            if (i == center)
                continue;
            double fx = move[i].x, fy = move[i].y, len2 = fx * fx + fy * fy;
            if (len2 > step * step) {
                double f = step / sqrt(len2);
                fx *= f;
                fy *= f;
            }
            uint8_t s = w->sides[i];
            double x = u[i].x + fx, y = u[i].y + fy;
            x = x < 0 ? 0 : x > uw ? uw : x;
            y = y < 0 ? 0 : y > uh ? uh : y;
            /* Snapped points stay on their side but may slide along it. */
            if ((s & (1u << CB_SIDE_LEFT)) || x < snap) { x = 0; s |= 1u << CB_SIDE_LEFT; }
            if ((s & (1u << CB_SIDE_RIGHT)) || x > uw - snap) { x = uw; s |= 1u << CB_SIDE_RIGHT; }
            if ((s & (1u << CB_SIDE_TOP)) || y < snap) { y = 0; s |= 1u << CB_SIDE_TOP; }
            if ((s & (1u << CB_SIDE_BOTTOM)) || y > uh - snap) { y = uh; s |= 1u << CB_SIDE_BOTTOM; }
            if (!(s & (1u << CB_SIDE_LEFT | 1u << CB_SIDE_RIGHT)))
                x = x < keep_x ? keep_x : x > uw - keep_x ? uw - keep_x : x;
            if (!(s & (1u << CB_SIDE_TOP | 1u << CB_SIDE_BOTTOM)))
                y = y < keep_y ? keep_y : y > uh - keep_y ? uh - keep_y : y;
            w->sides[i] = s;
            u[i].x = x;
            u[i].y = y;
            double mx = x - listed[i].x, my = y - listed[i].y;
            stale |= mx * mx + my * my > limit2;
        }
    }
    for (size_t i = 0; i < n; i++) {
        u[i].x = pp->bx + u[i].x * sx;
        u[i].y = pp->by + u[i].y * sy;
    }
    /* Exact trim-line coordinates for snapped points (no rounding drift). */
    for (size_t i = 0; i < n; i++) {
        if (w->sides[i] & (1u << CB_SIDE_LEFT)) u[i].x = pp->bx;
        if (w->sides[i] & (1u << CB_SIDE_RIGHT)) u[i].x = pp->bx + pp->bw;
        if (w->sides[i] & (1u << CB_SIDE_TOP)) u[i].y = pp->by;
        if (w->sides[i] & (1u << CB_SIDE_BOTTOM)) u[i].y = pp->by + pp->bh;
    }
    w->p[center].x = pp->bx + pp->bw / 2;
    w->p[center].y = pp->by + pp->bh / 2;
    cb_grid_free(&g);
    free(pairs);
    free(near);
    free(order);
    free(move);
    return 0;

nomem:
    cb_grid_free(&g);
    free(pairs);
    free(near);
    free(order);
    free(move);
    w->failure = CB_FAIL_NOMEM;
    return -1;
}
