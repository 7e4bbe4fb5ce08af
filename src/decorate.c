/* Types follow the theme's rules: probability (weight), min and max count,
 * distance from the edge, whether allowed on the edge, and the largest
 * connected group of equal types. Missions are dealt evenly to the starts.
 * Power dots sit in the wide angular gaps between a node's edges. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "decorate.h"
#include "graph.h"
#include "work.h"

#define REFERENCE_NODES 88.0   /* theme counts are per board of this size */
#define DOT_RADIUS 0.13        /* in node radii */
#define DOT_RING 0.5           /* distance outside the node shape, node radii */
#define DOT_SPACING 0.5        /* between dot centres, node radii */
#define MIN_GAP (0.45 * M_PI)  /* narrower gaps between edges get no dots */
#define MIN_GAP_TRIM (0.22 * M_PI) /* on the trim line only half the turn is free */

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

int cb_dots_wanted(int players)
{
    return 1 + players / 3;
}

/* 0 on the trim line, 1 at the middle of the board. */
static double depth_of(const cb_board *b, const cb_node *v)
{
    double fx = fmin(v->x - b->board_x, b->board_x + b->board_w - v->x) / (b->board_w / 2);
    double fy = fmin(v->y - b->board_y, b->board_y + b->board_h - v->y) / (b->board_h / 2);
    return fmax(0, fmin(1, fmin(fx, fy)));
}

static int on_trim(const cb_board *b, const cb_node *v)
{
    return v->x <= b->board_x || v->x >= b->board_x + b->board_w ||
           v->y <= b->board_y || v->y >= b->board_y + b->board_h;
}

typedef struct {
    const cb_board *b;
    const cb_graph *g;
    const cb_theme *theme;
    int *count, *lo, *hi;
    uint32_t *stamp, *queue;
    uint32_t mark;
} typing;

static int eligible(typing *t, uint32_t v, size_t ty)
{
    const cb_node_type *nt = &t->theme->types[ty];
    const cb_node *node = &t->b->nodes[v];
    if (t->count[ty] >= t->hi[ty])
        return 0;
    if (on_trim(t->b, node) && !nt->on_edge)
        return 0;
    double dep = depth_of(t->b, node);
    if (dep < nt->min_edge - 1e-9 || dep > nt->max_edge + 1e-9)
        return 0;
    /* Size of the same-type group v would join: BFS over equal neighbours. */
    t->mark++;
    t->stamp[v] = t->mark;
    size_t head = 0, tail = 0;
    t->queue[tail++] = v;
    while (head < tail) {
        uint32_t x = t->queue[head++];
        for (uint32_t k = t->g->start[x]; k < t->g->start[x + 1]; k++) {
            uint32_t u = t->g->adj[k];
            if (t->stamp[u] != t->mark && t->b->nodes[u].kind == CB_KIND_NODE &&
                t->b->nodes[u].type == (int)ty) {
                t->stamp[u] = t->mark;
                t->queue[tail++] = u;
                if ((int)tail > nt->max_run)
                    return 0;
            }
        }
    }
    return 1;
}

static int assign_types(cb_board *b, const cb_graph *g, const cb_theme *theme,
                        cb_rng *rng, const char **why)
{
    size_t nt = theme->n_types, n = b->n_nodes;
    int *count = calloc(nt, sizeof *count), *lo = malloc(nt * sizeof *lo),
        *hi = malloc(nt * sizeof *hi);
    uint32_t *order = malloc(n * sizeof *order), *stamp = calloc(n, sizeof *stamp),
             *queue = malloc(n * sizeof *queue);
    double *weight = malloc(nt * sizeof *weight);
    int rc = -1;
    if (!count || !lo || !hi || !order || !stamp || !queue || !weight) {
        *why = "out of memory";
        goto done;
    }
    size_t regular = 0;
    for (uint32_t v = 0; v < n; v++)
        if (b->nodes[v].kind == CB_KIND_NODE)
            order[regular++] = v;
    double scale = (double)regular / REFERENCE_NODES;
    for (size_t t = 0; t < nt; t++) {
        lo[t] = (int)lround(theme->types[t].min * scale);
        hi[t] = (int)lround(theme->types[t].max * scale);
        if (hi[t] < lo[t])
            hi[t] = lo[t];
    }
    cb_rng_shuffle(rng, order, regular);
    typing ty = {b, g, theme, count, lo, hi, stamp, queue, 0};
    /* Minimums first, then weighted picks for the rest. */
    for (size_t t = 0; t < nt; t++) {
        for (size_t i = 0; i < regular && count[t] < lo[t]; i++) {
            uint32_t v = order[i];
            if (b->nodes[v].type < 0 && eligible(&ty, v, t)) {
                b->nodes[v].type = (int)t;
                count[t]++;
            }
        }
        if (count[t] < lo[t]) {
            *why = "a node type's minimum cannot be met";
            goto done;
        }
    }
    for (size_t i = 0; i < regular; i++) {
        uint32_t v = order[i];
        if (b->nodes[v].type >= 0)
            continue;
        double total = 0;
        for (size_t t = 0; t < nt; t++) {
            weight[t] = eligible(&ty, v, t) ? theme->types[t].probability : 0;
            total += weight[t];
        }
        if (total <= 0) {
            *why = "no node type fits a node";
            goto done;
        }
        double x = cb_rng_uniform(rng) * total;
        size_t pick = nt;
        for (size_t t = 0; t < nt; t++) {
            if (weight[t] <= 0)
                continue;
            pick = t;
            if (x < weight[t])
                break;
            x -= weight[t];
        }
        b->nodes[v].type = (int)pick;
        count[pick]++;
    }
    rc = 0;
done:
    free(count); free(lo); free(hi); free(order); free(stamp); free(queue); free(weight);
    return rc;
}

/* Missions dealt evenly: each appears floor(12/M) or ceil(12/M) times. */
static int assign_missions(cb_board *b, const cb_theme *theme, cb_rng *rng)
{
    size_t m = theme->n_missions, starts = 0;
    for (size_t v = 0; v < b->n_nodes; v++)
        starts += b->nodes[v].kind == CB_KIND_START;
    uint32_t *deal = malloc((starts + m + 1) * sizeof *deal);
    uint32_t *pick = malloc((m + 1) * sizeof *pick);
    if (!deal || !pick) {
        free(deal);
        free(pick);
        return -1;
    }
    for (uint32_t i = 0; i < m; i++)
        pick[i] = i;
    cb_rng_shuffle(rng, pick, m);
    for (size_t i = 0; i < starts; i++)
        deal[i] = pick[i % m];
    cb_rng_shuffle(rng, deal, starts);
    size_t k = 0;
    for (size_t v = 0; v < b->n_nodes; v++)
        if (b->nodes[v].kind == CB_KIND_START)
            b->nodes[v].mission = (int)deal[k++];
    free(deal);
    free(pick);
    return 0;
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, c = *(const double *)y;
    return (a > c) - (a < c);
}

/* Distance from a node's centre to the edge of its shape along angle th
 * (y down, as on the page). */
static double shape_reach(const cb_board *b, const cb_node *v, double th)
{
    double r = b->node_radius;
    if (v->kind != CB_KIND_START)
        return r;
    double dx = cos(th), dy = sin(th), in, along;
    switch (v->side) {
    case CB_SIDE_TOP: in = dy; along = dx; break;
    case CB_SIDE_BOTTOM: in = -dy; along = dx; break;
    case CB_SIDE_LEFT: in = dx; along = dy; break;
    default: in = -dx; along = dy; break;
    }
    double t = INFINITY;
    if (in > 1e-9) t = fmin(t, CB_START_DEPTH * r / in);
    if (fabs(along) > 1e-9) t = fmin(t, CB_START_HALF_WIDTH * r / fabs(along));
    return isfinite(t) ? t : r;
}

static int inside_trim(const cb_board *b, double x, double y, double margin)
{
    return x >= b->board_x + margin && x <= b->board_x + b->board_w - margin &&
           y >= b->board_y + margin && y <= b->board_y + b->board_h - margin;
}

/* Places up to WANT dots around node i into xy; returns how many fit. */
static int place_dots(const cb_board *b, uint32_t i, int want, double (*xy)[2], int max)
{
    const cb_node *v = &b->nodes[i];
    double r = b->node_radius;
    double ang[CB_DOTS_MAX_ANGLES];
    int na = 0;
    for (size_t e = 0; e < b->n_edges && na < CB_DOTS_MAX_ANGLES - 4; e++) {
        uint32_t u;
        if (b->edges[e].a == i) u = b->edges[e].b;
        else if (b->edges[e].b == i) u = b->edges[e].a;
        else continue;
        ang[na++] = atan2(b->nodes[u].y - v->y, b->nodes[u].x - v->x);
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
    if (want > max)
        want = max;
    if (want <= 0)
        return 0;
    qsort(ang, (size_t)na, sizeof *ang, cmp_double);
    /* Gaps between consecutive angles (a node with no edges: one full gap). */
    double gap_lo[CB_DOTS_MAX_ANGLES], gap_w[CB_DOTS_MAX_ANGLES];
    int cap[CB_DOTS_MAX_ANGLES], used[CB_DOTS_MAX_ANGLES];
    double ring[CB_DOTS_MAX_ANGLES], step[CB_DOTS_MAX_ANGLES];
    int ng = 0;
    for (int k = 0; k < (na ? na : 1); k++) {
        double lo = na ? ang[k] : 0;
        double w = na ? (k + 1 < na ? ang[k + 1] : ang[0] + 2 * M_PI) - lo : 2 * M_PI;
        double mid = lo + w / 2;
        double rho = shape_reach(b, v, mid) + DOT_RING * r;
        double px = v->x + rho * cos(mid), py = v->y + rho * sin(mid);
        /* The centre's one dot goes in its widest gap, however narrow. */
        double min_gap = v->kind == CB_KIND_CENTER ? 0 : on_trim(b, v) ? MIN_GAP_TRIM : MIN_GAP;
        if (w < min_gap ||
            !inside_trim(b, px, py, DOT_RADIUS * r))
            continue;
        double margin = asin(fmin(1, (DOT_RADIUS * r + 1.0) / rho));
        double dth = DOT_SPACING * r / rho;
        int c = (w - 2 * margin) >= 0 ? (int)floor((w - 2 * margin) / dth) + 1 : 0;
        if (c <= 0)
            continue;
        gap_lo[ng] = lo;
        gap_w[ng] = w;
        cap[ng] = c;
        used[ng] = 0;
        ring[ng] = rho;
        step[ng] = dth;
        ng++;
    }
    /* Each dot goes to the gap with the most room left per dot. */
    int placed = 0;
    for (; placed < want; placed++) {
        int best = -1;
        for (int k = 0; k < ng; k++)
            if (used[k] < cap[k] &&
                (best < 0 || gap_w[k] / (used[k] + 1) > gap_w[best] / (used[best] + 1)))
                best = k;
        if (best < 0)
            break;
        used[best]++;
    }
    int out = 0;
    for (int k = 0; k < ng; k++)
        for (int j = 0; j < used[k]; j++) {
            double th = gap_lo[k] + gap_w[k] / 2 + (j - (used[k] - 1) / 2.0) * step[k];
            double rho = fmax(ring[k], shape_reach(b, v, th) + DOT_RING * r);
            xy[out][0] = v->x + rho * cos(th);
            xy[out][1] = v->y + rho * sin(th);
            out++;
        }
    return out;
}

int cb_board_dot_positions(const cb_board *board, uint32_t node, double (*xy)[2], int max)
{
    if (node >= board->n_nodes)
        return 0;
    return place_dots(board, node, board->nodes[node].dots, xy, max);
}

int cb_decorate(cb_board *b, const cb_theme *theme, int players, cb_rng *rng,
                const char **why)
{
    for (size_t v = 0; v < b->n_nodes; v++) {
        b->nodes[v].type = -1;
        b->nodes[v].mission = -1;
    }
    if (theme && theme->n_types) {
        cb_graph g;
        cb_error err;
        if (cb_graph_build(&g, b, &err) != CB_OK) {
            *why = "bad graph";
            return -1;
        }
        int rc = assign_types(b, &g, theme, rng, why);
        cb_graph_free(&g);
        if (rc != 0)
            return -1;
    }
    if (theme && theme->n_missions && assign_missions(b, theme, rng) != 0) {
        *why = "out of memory";
        return -1;
    }
    double xy[CB_DOTS_MAX][2];
    for (uint32_t v = 0; v < b->n_nodes; v++) {
        int want = v == b->center ? 1 : cb_dots_wanted(players);
        b->nodes[v].dots = place_dots(b, v, want, xy, CB_DOTS_MAX);
    }
    return 0;
}
