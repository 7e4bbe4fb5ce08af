/* The property test: the real generator over many seeds, every board checked
 * against the board contract (doc/INTERNALS.md, "The contract") by an independent, deliberately
 * naive checker written here (O(n^2) / O(E^2); cb_board_check is not used).
 * Also prints figures: attempts, hop spread, board size, time per board. */
#include "test.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cutboard.h"
#include "board/decorate.h"
#include "hand_board.h"

#define REFERENCE_NODES 88.0 /* theme counts are per board of about this many nodes */
/* Distances at a limit: a dot may stand exactly there, and a - b >= c and
 * b <= a - c can round apart. */
#define EPS 1e-9

typedef struct {
    const cb_spec *spec;
    int starts_per_side;
} rules;

typedef struct {
    int hop_spread;
    double dot_diameter;  /* 0: no dots */
    double dot_margin;    /* smallest (gap to another node) - (gap to its own), mm */
    int hop_min, hop_max;
    int cut_min, cut_max;
} board_figures;

static cb_theme *theme;

/* ---- the independent checker ------------------------------------------ */

typedef struct {
    size_t n;
    size_t *off;    /* n + 1 */
    uint32_t *nbr;  /* neighbour per slot */
} adjacency;

static void adjacency_build(adjacency *g, const cb_board *b)
{
    g->n = b->n_nodes;
    g->off = calloc(g->n + 1, sizeof *g->off);
    g->nbr = malloc((2 * b->n_edges + 1) * sizeof *g->nbr);
    assert_non_null(g->off);
    assert_non_null(g->nbr);
    for (size_t e = 0; e < b->n_edges; e++) {
        g->off[b->edges[e].a + 1]++;
        g->off[b->edges[e].b + 1]++;
    }
    for (size_t v = 0; v < g->n; v++)
        g->off[v + 1] += g->off[v];
    size_t *fill = malloc((g->n + 1) * sizeof *fill);
    assert_non_null(fill);
    memcpy(fill, g->off, (g->n + 1) * sizeof *fill);
    for (size_t e = 0; e < b->n_edges; e++) {
        g->nbr[fill[b->edges[e].a]++] = b->edges[e].b;
        g->nbr[fill[b->edges[e].b]++] = b->edges[e].a;
    }
    free(fill);
}

static void adjacency_free(adjacency *g)
{
    free(g->off);
    free(g->nbr);
}

static size_t degree(const adjacency *g, uint32_t v)
{
    return g->off[v + 1] - g->off[v];
}

/* BFS from SRC, ignoring the undirected edge (skip_a, skip_b) when skip_a !=
 * UINT32_MAX. Fills dist (-1 unreached) and parent. */
static void bfs(const adjacency *g, uint32_t src, uint32_t skip_a, uint32_t skip_b, int *dist,
                uint32_t *parent, uint32_t *queue)
{
    for (size_t i = 0; i < g->n; i++) {
        dist[i] = -1;
        parent[i] = UINT32_MAX;
    }
    size_t head = 0, tail = 0;
    dist[src] = 0;
    queue[tail++] = src;
    while (head < tail) {
        uint32_t v = queue[head++];
        for (size_t k = g->off[v]; k < g->off[v + 1]; k++) {
            uint32_t u = g->nbr[k];
            if ((v == skip_a && u == skip_b) || (v == skip_b && u == skip_a))
                continue;
            if (dist[u] < 0) {
                dist[u] = dist[v] + 1;
                parent[u] = v;
                queue[tail++] = u;
            }
        }
    }
}

static double orient(double ax, double ay, double bx, double by, double cx, double cy)
{
    return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
}

static int sgn(double v)
{
    return (v > 0) - (v < 0);
}

static int within_box(double px, double py, double ax, double ay, double bx, double by)
{
    return fmin(ax, bx) <= px && px <= fmax(ax, bx) && fmin(ay, by) <= py && py <= fmax(ay, by);
}

/* 1 when edges e and f of B meet anywhere except at a shared end node; edges
 * that share an end conflict only when they overlap along a line. */
static int edges_conflict(const cb_board *b, cb_edge e, cb_edge f)
{
    const cb_node *n = b->nodes;
    uint32_t shared = UINT32_MAX, pe = 0, pf = 0;
    if (e.a == f.a) { shared = e.a; pe = e.b; pf = f.b; }
    else if (e.a == f.b) { shared = e.a; pe = e.b; pf = f.a; }
    else if (e.b == f.a) { shared = e.b; pe = e.a; pf = f.b; }
    else if (e.b == f.b) { shared = e.b; pe = e.a; pf = f.a; }
    if (shared != UINT32_MAX) {
        double sx = n[shared].x, sy = n[shared].y;
        double o = orient(sx, sy, n[pe].x, n[pe].y, n[pf].x, n[pf].y);
        double dot = (n[pe].x - sx) * (n[pf].x - sx) + (n[pe].y - sy) * (n[pf].y - sy);
        return o == 0 && dot > 0;
    }
    double ax = n[e.a].x, ay = n[e.a].y, bx = n[e.b].x, by = n[e.b].y;
    double cx = n[f.a].x, cy = n[f.a].y, dx = n[f.b].x, dy = n[f.b].y;
    int o1 = sgn(orient(ax, ay, bx, by, cx, cy)), o2 = sgn(orient(ax, ay, bx, by, dx, dy));
    int o3 = sgn(orient(cx, cy, dx, dy, ax, ay)), o4 = sgn(orient(cx, cy, dx, dy, bx, by));
    if (o1 * o2 < 0 && o3 * o4 < 0)
        return 1;
    /* Touching: an end of one lies on the other. */
    return (o1 == 0 && within_box(cx, cy, ax, ay, bx, by)) ||
           (o2 == 0 && within_box(dx, dy, ax, ay, bx, by)) ||
           (o3 == 0 && within_box(ax, ay, cx, cy, dx, dy)) ||
           (o4 == 0 && within_box(bx, by, cx, cy, dx, dy));
}

static double point_segment(double px, double py, double ax, double ay, double bx, double by)
{
    double vx = bx - ax, vy = by - ay, len2 = vx * vx + vy * vy;
    double t = len2 > 0 ? ((px - ax) * vx + (py - ay) * vy) / len2 : 0;
    if (t < 0) t = 0;
    if (t > 1) t = 1;
    return hypot(px - (ax + t * vx), py - (ay + t * vy));
}

static int on_trim_line(const cb_board *b, const cb_node *v)
{
    return v->x <= b->board_x || v->x >= b->board_x + b->board_w || v->y <= b->board_y ||
           v->y >= b->board_y + b->board_h;
}

/* A start's shortest cut, by a method of its own (not src/planar/cut.c's
 * max-flow over pieces of paper, nor src/board/cutbalance.c's bit sets): a
 * cut that parts start S from the centre C, run from the border, is a chain
 * of printed edges from a border node to a border node (inner nodes off the
 * border, never S or C) that closes around S with the border arc through S
 * and leaves C outside. The closed curve meets the straight segment C-S once
 * at S; C lies outside it exactly when the curve meets the segment an even
 * number of times, so when the chain crosses the segment an odd number of
 * times. A plain breadth-first search over (node, crossings mod 2) from
 * every border node but S, with the crossing of each edge tested as two
 * segments properly crossing, finds the fewest edges: -1 when none. */
static int segments_cross(const cb_node *a, const cb_node *b, const cb_node *c, const cb_node *d)
{
    double o1 = orient(a->x, a->y, b->x, b->y, c->x, c->y);
    double o2 = orient(a->x, a->y, b->x, b->y, d->x, d->y);
    double o3 = orient(c->x, c->y, d->x, d->y, a->x, a->y);
    double o4 = orient(c->x, c->y, d->x, d->y, b->x, b->y);
    /* C-D's ends on either side of A-B's line (an end exactly on it counts
     * as below, the same for every edge at that end: the half-open rule of
     * point-in-polygon tests), and A, B strictly on either side of C-D's. */
    return ((o1 > 0) != (o2 > 0)) && ((o3 > 0) != (o4 > 0)) && o3 != 0 && o4 != 0;
}

static int shortest_cut_by_parity(const cb_board *b, const adjacency *g, uint32_t s)
{
    size_t n = b->n_nodes;
    const cb_node *c = &b->nodes[b->center], *sn = &b->nodes[s];
    int *dist = malloc(2 * n * sizeof *dist);
    uint32_t *queue = malloc(2 * n * sizeof *queue);
    assert_non_null(dist);
    assert_non_null(queue);
    size_t head = 0, tail = 0;
    for (uint32_t v = 0; v < n; v++) {
        dist[2 * v] = dist[2 * v + 1] = -1;
        if (v != s && v != b->center && on_trim_line(b, &b->nodes[v])) {
            dist[2 * v] = 0;
            queue[tail++] = 2 * v;
        }
    }
    int best = -1;
    while (head < tail) {
        uint32_t st = queue[head++], v = st / 2, p = st % 2;
        for (size_t k = g->off[v]; k < g->off[v + 1]; k++) {
            uint32_t u = g->nbr[k];
            if (u == s || u == b->center)
                continue;
            uint32_t q = p ^ (uint32_t)segments_cross(c, sn, &b->nodes[v], &b->nodes[u]);
            if (on_trim_line(b, &b->nodes[u])) {
                if (q == 1 && (best < 0 || dist[st] + 1 < best))
                    best = dist[st] + 1;
                continue;
            }
            if (dist[2 * u + q] < 0) {
                dist[2 * u + q] = dist[st] + 1;
                queue[tail++] = 2 * u + q;
            }
        }
    }
    free(dist);
    free(queue);
    return best;
}

/* 0 on the trim line, 1 in the middle of the board (theme edge distances). */
static double edge_depth(const cb_board *b, const cb_node *v)
{
    double fx = fmin(v->x - b->board_x, b->board_x + b->board_w - v->x) / (b->board_w / 2);
    double fy = fmin(v->y - b->board_y, b->board_y + b->board_h - v->y) / (b->board_h / 2);
    return fmin(fx, fy);
}

#define REQUIRE(cond, ...)                               \
    do {                                                 \
        if (!(cond)) {                                   \
            snprintf(why, why_len, __VA_ARGS__);         \
            goto done;                                   \
        }                                                \
    } while (0)

/* The theme's rules on node types and missions; NULL when they hold. */
static const char *theme_violation(const cb_board *b, const adjacency *g, const cb_theme *t,
                                   char *why, size_t why_len)
{
    const char *bad = why;
    size_t n = b->n_nodes, regular = 0;
    int *count = calloc(t->n_types + t->n_missions, sizeof *count);
    int *group = malloc(n * sizeof *group);
    uint32_t *queue = malloc(n * sizeof *queue);
    assert_non_null(count);
    assert_non_null(group);
    assert_non_null(queue);
    for (size_t v = 0; v < n; v++) {
        const cb_node *node = &b->nodes[v];
        if (node->kind == CB_KIND_START) {
            REQUIRE(node->mission >= 0 && (size_t)node->mission < t->n_missions,
                    "start %zu has mission %d (theme has %zu)", v, node->mission, t->n_missions);
            count[t->n_types + (size_t)node->mission]++;
            continue;
        }
        if (node->kind != CB_KIND_NODE)
            continue;
        regular++;
        REQUIRE(node->type >= 0 && (size_t)node->type < t->n_types,
                "node %zu has type %d (theme has %zu)", v, node->type, t->n_types);
        const cb_node_type *nt = &t->types[node->type];
        count[node->type]++;
        REQUIRE(nt->on_edge || !on_trim_line(b, node),
                "node %zu of type %s sits on the trim line", v, nt->name);
        double depth = edge_depth(b, node);
        REQUIRE(depth >= nt->min_edge - 1e-9 && depth <= nt->max_edge + 1e-9,
                "node %zu of type %s at depth %.3f, allowed %.2f..%.2f", v, nt->name, depth,
                nt->min_edge, nt->max_edge);
    }
    double scale = (double)regular / REFERENCE_NODES;
    for (size_t k = 0; k < t->n_types; k++) {
        long lo = lround(t->types[k].min * scale), hi = lround(t->types[k].max * scale);
        if (hi < lo)
            hi = lo;
        REQUIRE(count[k] >= lo && count[k] <= hi, "type %s: %d nodes, allowed %ld..%ld",
                t->types[k].name, count[k], lo, hi);
    }
    /* Missions are dealt evenly: floor(12/M) or ceil(12/M) each. */
    int starts = 0;
    for (size_t k = 0; k < t->n_missions; k++)
        starts += count[t->n_types + k];
    int m = (int)t->n_missions;
    for (size_t k = 0; k < t->n_missions; k++) {
        int c = count[t->n_types + k];
        REQUIRE(c >= starts / m && c <= (starts + m - 1) / m,
                "mission %s dealt %d times to %d starts", t->missions[k].name, c, starts);
    }
    /* max_run: the largest connected group of one type. */
    for (size_t v = 0; v < n; v++)
        group[v] = -1;
    for (uint32_t v = 0; v < n; v++) {
        if (b->nodes[v].kind != CB_KIND_NODE || group[v] >= 0)
            continue;
        int ty = b->nodes[v].type;
        size_t head = 0, tail = 0;
        queue[tail++] = v;
        group[v] = (int)v;
        while (head < tail) {
            uint32_t x = queue[head++];
            for (size_t k = g->off[x]; k < g->off[x + 1]; k++) {
                uint32_t u = g->nbr[k];
                if (group[u] < 0 && b->nodes[u].kind == CB_KIND_NODE && b->nodes[u].type == ty) {
                    group[u] = (int)v;
                    queue[tail++] = u;
                }
            }
        }
        REQUIRE((int)tail <= t->types[ty].max_run, "a group of %zu %s nodes (max_run %d) at node %u",
                tail, t->types[ty].name, t->types[ty].max_run, v);
    }
    bad = NULL;
done:
    free(count);
    free(group);
    free(queue);
    return bad;
}

/* Every clause of the board contract; NULL when BOARD meets it, else what fails. */
/* Distance from (x, y) to node v's printed shape: its disk, or a start's
 * rectangle (2.5 x 1.55 radii, standing on the trim line, inward). */
static double node_gap(const cb_board *b, const cb_node *v, double x, double y)
{
    double r = b->node_radius;
    if (v->kind != CB_KIND_START)
        return fmax(0, hypot(x - v->x, y - v->y) - r);
    double x0, y0, x1, y1, hw = 1.25 * r, dep = 1.55 * r;
    switch (v->side) {
    case CB_SIDE_TOP: x0 = v->x - hw, x1 = v->x + hw, y0 = v->y, y1 = v->y + dep; break;
    case CB_SIDE_BOTTOM: x0 = v->x - hw, x1 = v->x + hw, y0 = v->y - dep, y1 = v->y; break;
    case CB_SIDE_LEFT: x0 = v->x, x1 = v->x + dep, y0 = v->y - hw, y1 = v->y + hw; break;
    default: x0 = v->x - dep, x1 = v->x, y0 = v->y - hw, y1 = v->y + hw; break;
    }
    double dx = fmax(0, fmax(x0 - x, x - x1)), dy = fmax(0, fmax(y0 - y, y - y1));
    return hypot(dx, dy);
}

/* The power dots, by brute force: how many each node has, their size, each
 * touching its own node, clear of every other dot by 0.5 mm, 1 mm of paper
 * from the strokes of the trim line (0.5 pt) and every edge (1.6 pt) to its
 * own 0.5 pt outline, and at least 1 mm nearer its own node than any other. */
static const char *dots_violation(const cb_board *b, const cb_spec *spec, board_figures *fig,
                                  char *why, size_t why_len)
{
    double r = b->node_radius;
    /* writable dots: 0.30 radii, never under 1.5 mm; none on boards of
     * nodes under 3.2 mm in radius; one a node where the least size holds */
    double dr = fmax(0.30 * r, 1.5);
    /* one dot a player who may use the node: with a cutboard-theme/3
     * theme, its owner's "dots_own" on an own sheet and one more than
     * 1 + players / 3 on a shared board */
    int more = spec->players / 3;
    if (spec->theme && spec->theme->version >= 3)
        more = spec->shared ? (spec->players + 3) / 3 : spec->theme->play.dots_own - 1;
    int each = r < 3.2 ? 0 : 0.30 * r < 1.5 ? 1 : 1 + more;
    const double pt = 25.4 / 72;
    double to_trim = dr + 1.0 + (0.5 + 0.5) * pt / 2, to_edge = dr + 1.0 + (1.6 + 0.5) * pt / 2;
    if (each > 3)
        each = 3;
    fig->dot_margin = INFINITY;
    fig->dot_diameter = each ? 2 * dr : 0;
    if (each && r >= 6.4) /* a default board's nodes: 6.49 mm */
        REQUIRE(2 * dr >= 3.5, "dots %.2f mm across on a default board", 2 * dr);
    REQUIRE(each == 0 || b->dot_xy, "no dot positions");
    for (uint32_t v = 0; v < b->n_nodes; v++) {
        const cb_node *node = &b->nodes[v];
        int want = v == b->center ? (each > 0) : each;
        if ((node->kind == CB_KIND_START || on_trim_line(b, node)) && want > 2)
            want = 2;
        REQUIRE(node->dots == want, "node %u has %d dots, not %d", v, node->dots, want);
        for (int k = 0; k < node->dots; k++) {
            const double *p = b->dot_xy[node->first_dot + (size_t)k];
            double x = p[0], y = p[1], own = node_gap(b, node, x, y);
            REQUIRE(fabs(own - dr) < 1e-6, "a dot of node %u is %.3f mm off its rim", v, own - dr);
            REQUIRE(x - b->board_x >= to_trim - EPS && b->board_x + b->board_w - x >= to_trim - EPS &&
                        y - b->board_y >= to_trim - EPS &&
                        b->board_y + b->board_h - y >= to_trim - EPS,
                    "a dot of node %u at (%.2f, %.2f) touches the trim line", v, x, y);
            for (uint32_t u = 0; u < b->n_nodes; u++) {
                if (u == v)
                    continue;
                double margin = node_gap(b, &b->nodes[u], x, y) - own;
                fig->dot_margin = fmin(fig->dot_margin, margin);
                REQUIRE(margin >= 1.0 - EPS, "a dot of node %u is %.2f mm nearer node %u than its own",
                        v, -margin, u);
                const cb_node *o = &b->nodes[u];
                for (int q = 0; q < o->dots; q++) {
                    const double *w = b->dot_xy[o->first_dot + (size_t)q];
                    REQUIRE(hypot(w[0] - x, w[1] - y) >= 2 * dr + 0.5 - EPS,
                            "dots of nodes %u and %u touch", v, u);
                }
            }
            for (int q = 0; q < k; q++) {
                const double *w = b->dot_xy[node->first_dot + (size_t)q];
                REQUIRE(hypot(w[0] - x, w[1] - y) >= 2 * dr + 0.5 - EPS, "two dots of node %u touch", v);
            }
            for (size_t e = 0; e < b->n_edges; e++) {
                const cb_node *a = &b->nodes[b->edges[e].a], *c = &b->nodes[b->edges[e].b];
                REQUIRE(point_segment(x, y, a->x, a->y, c->x, c->y) >= to_edge - EPS,
                        "a dot of node %u touches edge %u-%u", v, b->edges[e].a, b->edges[e].b);
            }
        }
    }
    return NULL;
done:
    return why;
}

static const char *contract_violation(const cb_board *b, const rules *r, board_figures *fig,
                                      char *why, size_t why_len)
{
    const cb_spec *spec = r->spec;
    const char *bad = why;
    size_t n = b->n_nodes, m = b->n_edges;
    double rad = b->node_radius;
    adjacency g = {0, NULL, NULL};
    int *dist = malloc((n + 1) * sizeof *dist), *dist2 = malloc((n + 1) * sizeof *dist2);
    uint32_t *parent = malloc((n + 1) * sizeof *parent), *parent2 = malloc((n + 1) * sizeof *parent2);
    uint32_t *queue = malloc((n + 1) * sizeof *queue);
    uint32_t *owner = malloc((n + 1) * sizeof *owner);
    assert_non_null(dist); assert_non_null(dist2); assert_non_null(parent);
    assert_non_null(parent2); assert_non_null(queue); assert_non_null(owner);

    /* The sheet itself. */
    REQUIRE(b->page_w == spec->page_w && b->page_h == spec->page_h, "page %gx%g, asked %gx%g",
            b->page_w, b->page_h, spec->page_w, spec->page_h);
    REQUIRE(b->board_x == spec->margin && b->board_y == spec->margin &&
                fabs(b->board_x + b->board_w - (spec->page_w - spec->margin)) < 1e-9 &&
                fabs(b->board_y + b->board_h - (spec->page_h - spec->margin)) < 1e-9,
            "trim rectangle %g,%g %gx%g does not match the margins", b->board_x, b->board_y,
            b->board_w, b->board_h);
    REQUIRE(rad > 0, "node radius %g", rad);
    REQUIRE(b->attempts >= 1 && b->attempts <= spec->max_attempts * (spec->node_cap <= 3 ? 5 : 1),
            "attempts %d", b->attempts);
    REQUIRE(n >= 13 && b->center < n, "%zu nodes, centre %u", n, b->center);

    /* Ids and edges: valid, a < b, no duplicates. */
    for (size_t e = 0; e < m; e++) {
        REQUIRE(b->edges[e].a < b->edges[e].b && b->edges[e].b < n, "edge %zu is %u-%u (%zu nodes)",
                e, b->edges[e].a, b->edges[e].b, n);
        for (size_t f = 0; f < e; f++)
            REQUIRE(b->edges[f].a != b->edges[e].a || b->edges[f].b != b->edges[e].b,
                    "edge %u-%u listed twice", b->edges[e].a, b->edges[e].b);
    }
    adjacency_build(&g, b);

    /* Kinds, sides and the centre. */
    int per_side[4] = {0, 0, 0, 0}, starts = 0, centres = 0;
    for (uint32_t v = 0; v < n; v++) {
        const cb_node *node = &b->nodes[v];
        REQUIRE(isfinite(node->x) && isfinite(node->y) && node->x >= b->board_x &&
                    node->x <= b->board_x + b->board_w && node->y >= b->board_y &&
                    node->y <= b->board_y + b->board_h,
                "node %u at (%g, %g) lies outside the trim rectangle", v, node->x, node->y);
        if (node->kind == CB_KIND_CENTER) {
            centres++;
            REQUIRE(v == b->center, "node %u is a centre, board centre is %u", v, b->center);
            REQUIRE(node->type == -1 && node->mission == -1 && node->side == CB_SIDE_NONE,
                    "centre has type %d mission %d side %d", node->type, node->mission, node->side);
            REQUIRE(fabs(node->x - (b->board_x + b->board_w / 2)) < b->board_w / 4 &&
                        fabs(node->y - (b->board_y + b->board_h / 2)) < b->board_h / 4,
                    "the centre (%g, %g) is far from the middle of the board", node->x, node->y);
        } else if (node->kind == CB_KIND_START) {
            starts++;
            REQUIRE(node->side >= CB_SIDE_TOP && node->side <= CB_SIDE_LEFT, "start %u side %d",
                    v, node->side);
            REQUIRE(node->type == -1, "start %u has type %d", v, node->type);
            per_side[node->side]++;
            double lx = b->board_x, rx = b->board_x + b->board_w;
            double ty = b->board_y, by = b->board_y + b->board_h;
            switch (node->side) {
            case CB_SIDE_TOP:
            case CB_SIDE_BOTTOM:
                REQUIRE(node->y == (node->side == CB_SIDE_TOP ? ty : by) && node->x > lx &&
                            node->x < rx,
                        "start %u (%.17g, %.17g) is not on the %s trim line", v, node->x, node->y,
                        node->side == CB_SIDE_TOP ? "top" : "bottom");
                break;
            default:
                REQUIRE(node->x == (node->side == CB_SIDE_LEFT ? lx : rx) && node->y > ty &&
                            node->y < by,
                        "start %u (%.17g, %.17g) is not on the %s trim line", v, node->x, node->y,
                        node->side == CB_SIDE_LEFT ? "left" : "right");
            }
        } else {
            REQUIRE(node->kind == CB_KIND_NODE, "node %u has kind %d", v, node->kind);
            REQUIRE(node->side == CB_SIDE_NONE && node->mission == -1,
                    "node %u has side %d mission %d", v, node->side, node->mission);
        }
    }
    REQUIRE(centres == 1, "%d centre nodes", centres);
    REQUIRE(starts == 4 * r->starts_per_side, "%d starts", starts);
    for (int s = 0; s < 4; s++)
        REQUIRE(per_side[s] == r->starts_per_side, "side %d has %d starts", s, per_side[s]);

    /* 1. Connected. */
    bfs(&g, b->center, UINT32_MAX, UINT32_MAX, dist, parent, queue);
    for (uint32_t v = 0; v < n; v++)
        REQUIRE(dist[v] >= 0, "node %u is not connected to the centre", v);

    /* 2. Drawable. */
    for (size_t e = 0; e < m; e++)
        for (size_t f = e + 1; f < m; f++)
            REQUIRE(!edges_conflict(b, b->edges[e], b->edges[f]), "edges %u-%u and %u-%u cross",
                    b->edges[e].a, b->edges[e].b, b->edges[f].a, b->edges[f].b);
    for (size_t e = 0; e < m; e++) {
        const cb_node *a = &b->nodes[b->edges[e].a], *c = &b->nodes[b->edges[e].b];
        for (uint32_t v = 0; v < n; v++) {
            if (v == b->edges[e].a || v == b->edges[e].b)
                continue;
            double d = point_segment(b->nodes[v].x, b->nodes[v].y, a->x, a->y, c->x, c->y);
            REQUIRE(d >= rad, "edge %u-%u passes %.3f mm from node %u (radius %.3f)",
                    b->edges[e].a, b->edges[e].b, d, v, rad);
        }
    }
    for (uint32_t v = 0; v < n; v++)
        for (uint32_t u = v + 1; u < n; u++) {
            double d = hypot(b->nodes[v].x - b->nodes[u].x, b->nodes[v].y - b->nodes[u].y);
            REQUIRE(d >= 2 * rad + CB_NODE_GAP_MM, "nodes %u and %u are %.3f mm apart (need %.3f)",
                    v, u, d, 2 * rad + CB_NODE_GAP_MM);
        }

    /* 3. Degree caps, no adjacent starts, no shared neighbours. */
    for (uint32_t v = 0; v < n; v++) {
        if (v == b->center)
            continue;
        int cap = b->nodes[v].kind == CB_KIND_START ? spec->start_cap : spec->node_cap;
        REQUIRE((int)degree(&g, v) <= cap, "node %u has %zu edges (cap %d)", v, degree(&g, v), cap);
    }
    for (size_t v = 0; v < n; v++)
        owner[v] = UINT32_MAX;
    for (uint32_t s = 0; s < n; s++) {
        if (b->nodes[s].kind != CB_KIND_START)
            continue;
        for (size_t k = g.off[s]; k < g.off[s + 1]; k++) {
            uint32_t u = g.nbr[k];
            REQUIRE(b->nodes[u].kind != CB_KIND_START, "starts %u and %u are adjacent", s, u);
            REQUIRE(owner[u] == UINT32_MAX, "starts %u and %u share neighbour %u", owner[u], s, u);
            owner[u] = s;
        }
    }

    /* 4. Fair: hop counts within 1; two edge-disjoint paths per start (Menger
     * for 2: no single edge separates the start from the centre). Only edges
     * on one start-centre path can separate them, so those are tried. */
    int hop_min = INT32_MAX, hop_max = -1;
    for (uint32_t s = 0; s < n; s++) {
        if (b->nodes[s].kind != CB_KIND_START)
            continue;
        if (dist[s] < hop_min) hop_min = dist[s];
        if (dist[s] > hop_max) hop_max = dist[s];
        for (uint32_t v = s; v != b->center; v = parent[v]) {
            bfs(&g, s, v, parent[v], dist2, parent2, queue);
            REQUIRE(dist2[b->center] >= 0,
                    "edge %u-%u is the only way from start %u to the centre", v, parent[v], s);
        }
    }
    REQUIRE(hop_max - hop_min <= 1, "start hop counts range from %d to %d", hop_min, hop_max);
    fig->hop_spread = hop_max - hop_min;
    fig->hop_min = hop_min;
    fig->hop_max = hop_max;

    /* 4, cuts: every start's shortest cut at least 3 edges, the 12 at most
     * at most 1 apart, by this file's own method;
     * cb_board_shortest_cuts (the dual max-flow that check and the board
     * file report) must give the same figures. */
    {
        int *lib = NULL;
        size_t n_lib = 0;
        cb_error err;
        assert_int_equal(cb_board_shortest_cuts(b, &lib, &n_lib, &err), CB_OK);
        int cut_min = INT32_MAX, cut_max = -1;
        size_t k = 0;
        int mismatch = -1, mine = 0, theirs = 0;
        for (uint32_t s = 0; s < n; s++) {
            if (b->nodes[s].kind != CB_KIND_START)
                continue;
            int cut = shortest_cut_by_parity(b, &g, s);
            if (k < n_lib && lib[k] != cut && mismatch < 0) {
                mismatch = (int)s;
                mine = cut;
                theirs = lib[k];
            }
            k++;
            cut_min = cut < cut_min ? cut : cut_min;
            cut_max = cut > cut_max ? cut : cut_max;
        }
        free(lib);
        REQUIRE(n_lib == k, "cb_board_shortest_cuts gives %zu starts, not %zu", n_lib, k);
        REQUIRE(mismatch < 0, "start %d: shortest cut %d here, %d from cb_board_shortest_cuts",
                mismatch, mine, theirs);
        REQUIRE(cut_min >= 3, "a start's shortest cut is %d edges (at least 3)", cut_min);
        REQUIRE(cut_max - cut_min <= 1, "start shortest cuts range from %d to %d",
                cut_min, cut_max);
        fig->cut_min = cut_min;
        fig->cut_max = cut_max;
    }

    /* Decoration. */
    if (spec->theme && theme_violation(b, &g, spec->theme, why, why_len))
        goto done;
    if (dots_violation(b, spec, fig, why, why_len))
        goto done;
    bad = NULL;
done:
    adjacency_free(&g);
    free(dist); free(dist2); free(parent); free(parent2); free(queue); free(owner);
    return bad;
}

/* ---- running the generator over seeds --------------------------------- */

typedef struct {
    int boards;
    long attempts_sum;
    int attempts_max;
    int attempts_hist[7];   /* 1, 2, 3, 4-5, 6-10, 11-20, >20 */
    int spread[2];
    int cut_spread[4];      /* boards by shortest-cut spread */
    int cut_least[16];      /* boards by their least shortest cut */
    long nodes_sum, edges_sum;
    double seconds;
    double dot_diameter_min, dot_margin_min; /* over boards with dots */
} figures;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t fingerprint(const cb_board *b)
{
    uint64_t h = 0xcbf29ce484222325ull;
    const unsigned char *p = (const unsigned char *)b->nodes;
    for (size_t i = 0; i < b->n_nodes * sizeof *b->nodes; i++)
        h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

static int cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, c = *(const uint64_t *)y;
    return (a > c) - (a < c);
}

/* COUNT seeds, or CUTBOARD_PROPERTY_SEEDS of them for every configuration
 * when it is set (a long run: CUTBOARD_PROPERTY_SEEDS=1000 takes minutes). */
static int seeds(int count)
{
    const char *e = getenv("CUTBOARD_PROPERTY_SEEDS");
    int n = e ? atoi(e) : 0;
    return n > 0 ? n : count;
}

/* Generates PREFIX-0 .. PREFIX-(count-1) with SPEC and checks each. */
static void run_seeds(const cb_spec *spec, const char *prefix, int count, figures *f)
{
    rules r = {spec, 3};
    uint64_t *prints = malloc((size_t)count * sizeof *prints);
    assert_non_null(prints);
    memset(f, 0, sizeof *f);
    for (int i = 0; i < count; i++) {
        char seed[64], why[256];
        snprintf(seed, sizeof seed, "%s-%d", prefix, i);
        cb_board *b = NULL;
        cb_error err = {CB_OK, "", 0, ""};
        double t0 = now();
        cb_status st = cb_board_generate(spec, seed, 1, &b, &err);
        f->seconds += now() - t0;
        if (st != CB_OK)
            fail_msg("seed \"%s\": status %d: %s", seed, st, err.message);
        assert_non_null(b);
        assert_string_equal(b->seed, seed);
        assert_int_equal(b->player, 1);
        board_figures bf = {0};
        const char *bad = contract_violation(b, &r, &bf, why, sizeof why);
        if (bad)
            fail_msg("seed \"%s\": %s", seed, bad);
        f->boards++;
        f->attempts_sum += b->attempts;
        if (b->attempts > f->attempts_max)
            f->attempts_max = b->attempts;
        int a = b->attempts;
        f->attempts_hist[a <= 3 ? a - 1 : a <= 5 ? 3 : a <= 10 ? 4 : a <= 20 ? 5 : 6]++;
        f->spread[bf.hop_spread]++;
        if (bf.dot_diameter > 0) {
            if (f->dot_diameter_min == 0 || bf.dot_diameter < f->dot_diameter_min)
                f->dot_diameter_min = bf.dot_diameter;
            if (f->dot_margin_min == 0 || bf.dot_margin < f->dot_margin_min)
                f->dot_margin_min = bf.dot_margin;
        }
        f->cut_spread[bf.cut_max - bf.cut_min]++;
        f->cut_least[bf.cut_min < 15 ? bf.cut_min : 15]++;
        f->nodes_sum += (long)b->n_nodes;
        f->edges_sum += (long)b->n_edges;
        prints[i] = fingerprint(b);
        cb_board_free(b);
    }
    /* Different seeds give different boards (the seed is not ignored). */
    qsort(prints, (size_t)count, sizeof *prints, cmp_u64);
    for (int i = 1; i < count; i++)
        assert_true(prints[i] != prints[i - 1]);
    free(prints);
}

static void print_figures(const char *what, const figures *f)
{
    print_message("%s: %d boards meet the contract\n", what, f->boards);
    print_message("  attempts: mean %.2f, max %d; histogram 1:%d 2:%d 3:%d 4-5:%d 6-10:%d "
                  "11-20:%d >20:%d\n",
                  (double)f->attempts_sum / f->boards, f->attempts_max, f->attempts_hist[0],
                  f->attempts_hist[1], f->attempts_hist[2], f->attempts_hist[3],
                  f->attempts_hist[4], f->attempts_hist[5], f->attempts_hist[6]);
    print_message("  hop spread: 0 on %d boards, 1 on %d boards\n", f->spread[0], f->spread[1]);
    if (f->dot_diameter_min > 0)
        print_message("  power dots at least %.2f mm across, each at least %.2f mm nearer its "
                      "own node than any other\n", f->dot_diameter_min, f->dot_margin_min);
    print_message("  shortest-cut spread: 0 on %d, 1 on %d, 2 on %d, 3 on %d boards; least cut:",
                  f->cut_spread[0], f->cut_spread[1], f->cut_spread[2], f->cut_spread[3]);
    for (int c = 0; c < 16; c++)
        if (f->cut_least[c])
            printf(" %d on %d", c, f->cut_least[c]);
    printf("\n");
    print_message("  mean %.1f nodes, %.1f edges; %.2f ms per board (information only)\n",
                  (double)f->nodes_sum / f->boards, (double)f->edges_sum / f->boards,
                  1000 * f->seconds / f->boards);
}

static void spec_for(cb_spec *spec)
{
    cb_spec_defaults(spec);
    spec->theme = theme;
}

static int load_theme(void **state)
{
    (void)state;
    cb_error err = {CB_OK, "", 0, ""};
    if (cb_theme_load("icons/default", &theme, &err) != CB_OK) {
        print_error("icons/default: %s\n", err.message);
        return -1;
    }
    return 0;
}

static int free_theme(void **state)
{
    (void)state;
    cb_theme_free(theme);
    theme = NULL;
    return 0;
}

/* ---- tests ------------------------------------------------------------ */

static void test_a4_landscape_1000_seeds(void **state)
{
    (void)state;
    cb_spec spec;
    spec_for(&spec);
    figures f;
    run_seeds(&spec, "prop", seeds(1000), &f);
    print_figures("A4 landscape, 4 players, seeds prop-0..prop-999", &f);
    assert_int_equal(f.boards, seeds(1000));
    /* Generate-and-test must stay cheap: at most 1.5 attempts a board on
     * average (1.23 measured). */
    assert_true(f.attempts_sum * 2 <= 3L * f.boards);
}

static void test_letter_landscape(void **state)
{
    (void)state;
    cb_spec spec;
    spec_for(&spec);
    spec.page_w = 279.4;
    spec.page_h = 215.9;
    figures f;
    run_seeds(&spec, "letter", seeds(100), &f);
    print_figures("Letter landscape", &f);
}

static void test_a4_portrait(void **state)
{
    (void)state;
    cb_spec spec;
    spec_for(&spec);
    spec.page_w = 210;
    spec.page_h = 297;
    figures f;
    run_seeds(&spec, "portrait", seeds(100), &f);
    print_figures("A4 portrait", &f);
}

static void test_a3_landscape(void **state)
{
    (void)state;
    cb_spec spec;
    spec_for(&spec);
    spec.page_w = 420;
    spec.page_h = 297;
    figures f;
    run_seeds(&spec, "a3", seeds(100), &f);
    print_figures("A3 landscape", &f);
}

static void test_shared_nine_players(void **state)
{
    (void)state;
    cb_spec spec;
    spec_for(&spec);
    spec.shared = 1;
    spec.players = 9;
    figures f;
    run_seeds(&spec, "shared9", seeds(100), &f);
    print_figures("A4 shared board, 9 players", &f);
    /* A shared board for 9 has more nodes than a board for one player. */
    cb_spec one;
    spec_for(&one);
    figures g;
    run_seeds(&one, "shared9", 20, &g);
    assert_true((double)f.nodes_sum / f.boards > 1.5 * (double)g.nodes_sum / g.boards);
}

/* Node caps 3 and 5 (the range the option allows is 3..8; 4 is the
 * default). At cap 3 the pieces are large and few edges can be added; the
 * cuts must still lie in one band {c, c+1}. */
static void test_node_cap_3(void **state)
{
    (void)state;
    cb_spec spec;
    spec_for(&spec);
    spec.node_cap = 3;
    figures f;
    run_seeds(&spec, "cap3", seeds(100), &f);
    print_figures("A4 landscape, --node-cap 3", &f);
}

static void test_node_cap_5(void **state)
{
    (void)state;
    cb_spec spec;
    spec_for(&spec);
    spec.node_cap = 5;
    figures f;
    run_seeds(&spec, "cap5", seeds(100), &f);
    print_figures("A4 landscape, --node-cap 5", &f);
}

/* Lattice boards of several sizes meet the cut clause by construction
 * (every start's shortest cut is 4: a start has 2 edges on the square
 * lattice, and the chain around it runs through its neighbours' cells), so
 * the generator does not measure it on posters; checked here on lattices
 * small enough to measure, with this file's own method and cut.c's. */
static void test_lattice_cuts_by_construction(void **state)
{
    (void)state;
    static const struct { double w, h, resolution; } cases[] = {
        {297, 210, 35}, {210, 297, 40}, {279.4, 215.9, 50}, {420, 297, 70}, {594, 420, 90},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cb_spec spec;
        spec_for(&spec);
        spec.page_w = cases[i].w;
        spec.page_h = cases[i].h;
        spec.resolution = cases[i].resolution;
        figures f;
        run_seeds(&spec, "lattice-cuts", 3, &f);
        assert_int_equal(f.cut_spread[0], f.boards);
        assert_int_equal(f.cut_least[4], f.boards);
    }
}

/* The sheets of a game share one hop band {L, L+1} and one cut band
 * {c, c+1} (the first sheet sets them), measured with this file's own
 * method. */
static void check_game_bands(cb_spec *spec, const char *prefix, int games)
{
    int hist[2] = {0, 0};
    for (int i = 0; i < games; i++) {
        char seed[64];
        snprintf(seed, sizeof seed, "%s-%d", prefix, i);
        spec->seed = seed;
        cb_game *g = NULL;
        cb_error err = {CB_OK, "", 0, ""};
        if (cb_game_generate(spec, &g, &err) != CB_OK)
            fail_msg("game \"%s\": %s", seed, err.message);
        rules r = {spec, 3};
        int hop_min = INT32_MAX, hop_max = -1, cut_min = INT32_MAX, cut_max = -1;
        for (size_t k = 0; k < g->n_sheets; k++) {
            char why[256];
            board_figures bf = {0};
            const char *bad = contract_violation(g->sheets[k], &r, &bf, why, sizeof why);
            if (bad)
                fail_msg("game \"%s\" sheet %zu: %s", seed, k + 1, bad);
            hop_min = bf.hop_min < hop_min ? bf.hop_min : hop_min;
            hop_max = bf.hop_max > hop_max ? bf.hop_max : hop_max;
            cut_min = bf.cut_min < cut_min ? bf.cut_min : cut_min;
            cut_max = bf.cut_max > cut_max ? bf.cut_max : cut_max;
        }
        if (hop_max - hop_min > 1 || cut_max - cut_min > 1)
            fail_msg("game \"%s\": sheets' hops %d..%d, shortest cuts %d..%d", seed, hop_min,
                     hop_max, cut_min, cut_max);
        hist[cut_max - cut_min]++;
        cb_game_free(g);
    }
    print_message("%s: %d games, every sheet in one hop band and one cut band "
                  "(cut spread over the game 0: %d, 1: %d)\n",
                  prefix, games, hist[0], hist[1]);
}

static void test_games_share_bands(void **state)
{
    (void)state;
    cb_spec spec;
    spec_for(&spec);
    check_game_bands(&spec, "game-a4", seeds(50));
    spec.players = 9;
    check_game_bands(&spec, "game-a4-9", seeds(10));
    spec_for(&spec);
    spec.page_w = 420;
    spec.page_h = 297;
    check_game_bands(&spec, "game-a3", seeds(10));
    spec_for(&spec);
    spec.node_cap = 3;
    check_game_bands(&spec, "game-cap3", seeds(5));
}

/* A game whose first sheet sets bands a later sheet cannot reach in its
 * attempts: found at 1,000 seeds, where "game-cap3-318" (node cap 3) failed
 * at its third sheet when the game could not start again from the first
 * sheet's next candidate (it can now). Its sheets meet the contract and
 * share one hop band and one cut band. */
static void test_game_starts_again(void **state)
{
    (void)state;
    cb_spec spec;
    spec_for(&spec);
    spec.node_cap = 3;
    spec.seed = "game-cap3-318";
    cb_game *g = NULL;
    cb_error err = {CB_OK, "", 0, ""};
    if (cb_game_generate(&spec, &g, &err) != CB_OK)
        fail_msg("game \"%s\": %s", spec.seed, err.message);
    assert_int_equal(g->n_sheets, 4);
    rules r = {&spec, 3};
    int hop_min = INT32_MAX, hop_max = -1, cut_min = INT32_MAX, cut_max = -1;
    for (size_t k = 0; k < g->n_sheets; k++) {
        char why[256];
        board_figures bf = {0};
        const char *bad = contract_violation(g->sheets[k], &r, &bf, why, sizeof why);
        if (bad)
            fail_msg("sheet %zu: %s", k + 1, bad);
        hop_min = bf.hop_min < hop_min ? bf.hop_min : hop_min;
        hop_max = bf.hop_max > hop_max ? bf.hop_max : hop_max;
        cut_min = bf.cut_min < cut_min ? bf.cut_min : cut_min;
        cut_max = bf.cut_max > cut_max ? bf.cut_max : cut_max;
    }
    assert_true(hop_max - hop_min <= 1);
    assert_true(cut_max - cut_min <= 1);
    cb_game_free(g);
}

static void assert_same_board(const cb_board *x, const cb_board *y)
{
    assert_string_equal(x->seed, y->seed);
    assert_int_equal(x->attempts, y->attempts);
    assert_int_equal(x->center, y->center);
    assert_true(x->node_radius == y->node_radius);
    assert_int_equal(x->n_nodes, y->n_nodes);
    assert_int_equal(x->n_edges, y->n_edges);
    assert_memory_equal(x->nodes, y->nodes, x->n_nodes * sizeof *x->nodes);
    assert_memory_equal(x->edges, y->edges, x->n_edges * sizeof *x->edges);
}

/* A game is the same whatever was generated before it: its first sheet's
 * bands come from a pilot that a process keeps for the last 8 specs, so
 * the A4 game is made again after 9 other papers have pushed its pilot
 * out, and once more with it kept. */
static void test_game_same_whatever_came_before(void **state)
{
    (void)state;
    cb_spec spec;
    spec_for(&spec);
    spec.seed = "pilot-kept";
    cb_game *first = NULL, *again = NULL;
    cb_error err = {CB_OK, "", 0, ""};
    assert_int_equal(cb_game_generate(&spec, &first, &err), CB_OK);
    for (int i = 0; i < 9; i++) {
        cb_spec other;
        spec_for(&other);
        other.seed = "other paper";
        other.players = 2;
        other.margin = 13 + i;
        cb_game *g = NULL;
        assert_int_equal(cb_game_generate(&other, &g, &err), CB_OK);
        cb_game_free(g);
    }
    for (int round = 0; round < 2; round++) {
        assert_int_equal(cb_game_generate(&spec, &again, &err), CB_OK);
        assert_int_equal(again->n_sheets, first->n_sheets);
        for (size_t k = 0; k < first->n_sheets; k++)
            assert_same_board(first->sheets[k], again->sheets[k]);
        cb_game_free(again);
    }
    cb_game_free(first);
}

/* A0 posters: thousands of nodes, where the starts are chosen greedily
 * over every candidate of a side and balancing looks only near the starts. */
static void test_a0_posters(void **state)
{
    (void)state;
    cb_spec spec;
    spec_for(&spec);
    spec.page_w = 1189;
    spec.page_h = 841;
    spec.resolution = 60;
    figures f;
    run_seeds(&spec, "poster", 3, &f);
    print_figures("A0 landscape, --resolution 60", &f);
    assert_true((double)f.nodes_sum / f.boards > 2000);
}

/* Poster boards above 5,000 nodes come from the lattice (src/board/lattice.c):
 * hop counts equal by construction, and so are the starts' shortest cuts. */
static void test_lattice_posters(void **state)
{
    (void)state;
    cb_spec spec;
    spec_for(&spec);
    spec.page_w = 841; /* A1 */
    spec.page_h = 594;
    spec.resolution = 100;
    figures f;
    run_seeds(&spec, "lattice", 10, &f);
    print_figures("A1 landscape, --resolution 100 (lattice)", &f);
    assert_true((double)f.nodes_sum / f.boards > 5000);
    assert_int_equal(f.spread[0], f.boards);
    assert_int_equal(f.attempts_max, 1);
    for (int i = 0; i < 3; i++) {
        char seed[32];
        snprintf(seed, sizeof seed, "lattice-cuts-%d", i);
        cb_board *b = NULL;
        cb_error err;
        assert_int_equal(cb_board_generate(&spec, seed, 1, &b, &err), CB_OK);
        int *cuts = NULL;
        size_t n = 0;
        assert_int_equal(cb_board_shortest_cuts(b, &cuts, &n, &err), CB_OK);
        assert_int_equal(n, 12);
        for (size_t k = 0; k < n; k++)
            assert_int_equal(cuts[k], cuts[0]);
        free(cuts);
        cb_board_free(b);
    }
}

/* Two edge-disjoint paths from S to T (Menger for 2): one BFS path, then a
 * BFS in the residual graph where that path's edges run only backwards. */
static int two_disjoint_paths(const adjacency *g, uint32_t s, uint32_t t, int *dist,
                              uint32_t *parent, uint32_t *queue, uint8_t *used)
{
    bfs(g, s, UINT32_MAX, UINT32_MAX, dist, parent, queue);
    if (dist[t] < 0)
        return 0;
    /* used[k] for slot k (v -> nbr) on the first path, v -> parent order */
    memset(used, 0, g->off[g->n]);
    for (uint32_t v = t; v != s; v = parent[v]) {
        uint32_t u = parent[v];
        for (size_t k = g->off[u]; k < g->off[u + 1]; k++)
            if (g->nbr[k] == v) {
                used[k] = 1; /* u -> v is taken: only v -> u remains */
                break;
            }
    }
    for (size_t i = 0; i < g->n; i++)
        dist[i] = -1;
    size_t head = 0, tail = 0;
    dist[s] = 0;
    queue[tail++] = s;
    while (head < tail) {
        uint32_t u = queue[head++];
        for (size_t k = g->off[u]; k < g->off[u + 1]; k++) {
            uint32_t v = g->nbr[k];
            if (used[k] || dist[v] >= 0)
                continue;
            dist[v] = dist[u] + 1;
            queue[tail++] = v;
        }
    }
    return dist[t] >= 0;
}

/* The contract on a board too large for the quadratic checker: every
 * whole-board clause (connected, caps, the starts' rules, hops, two
 * edge-disjoint paths) in linear time, and the geometric clauses
 * (crossings, grazes, overlaps) pairwise inside the window X0..X1, Y0..Y1
 * mm (edges with an end in it, nodes in or near it). NULL when it holds. */
static const char *poster_violation(const cb_board *b, const cb_spec *spec, double x0, double y0,
                                    double x1, double y1, size_t *window_edges, char *why,
                                    size_t why_len)
{
    const char *bad = why;
    size_t n = b->n_nodes, m = b->n_edges;
    double rad = b->node_radius, reach = 4 * rad + 50;
    adjacency g = {0, NULL, NULL};
    adjacency_build(&g, b);
    int *dist = malloc(n * sizeof *dist), *hop = malloc(n * sizeof *hop);
    uint32_t *parent = malloc(n * sizeof *parent), *queue = malloc(n * sizeof *queue);
    uint32_t *owner = malloc(n * sizeof *owner), *in = malloc((m + 1) * sizeof *in);
    uint8_t *used = malloc(2 * m + 1);
    assert_true(dist && hop && parent && queue && owner && in && used);
    bfs(&g, b->center, UINT32_MAX, UINT32_MAX, hop, parent, queue);
    int hop_min = INT32_MAX, hop_max = -1, starts = 0;
    for (uint32_t v = 0; v < n; v++) {
        REQUIRE(hop[v] >= 0, "node %u is not connected to the centre", v);
        owner[v] = UINT32_MAX;
        int cap = b->nodes[v].kind == CB_KIND_START ? spec->start_cap : spec->node_cap;
        REQUIRE(v == b->center || (int)degree(&g, v) <= cap, "node %u has %zu edges (cap %d)", v,
                degree(&g, v), cap);
    }
    for (uint32_t s = 0; s < n; s++) {
        if (b->nodes[s].kind != CB_KIND_START)
            continue;
        starts++;
        hop_min = hop[s] < hop_min ? hop[s] : hop_min;
        hop_max = hop[s] > hop_max ? hop[s] : hop_max;
        for (size_t k = g.off[s]; k < g.off[s + 1]; k++) {
            uint32_t u = g.nbr[k];
            REQUIRE(b->nodes[u].kind != CB_KIND_START, "starts %u and %u are adjacent", s, u);
            REQUIRE(owner[u] == UINT32_MAX, "starts %u and %u share neighbour %u", owner[u], s, u);
            owner[u] = s;
        }
        REQUIRE(two_disjoint_paths(&g, s, b->center, dist, parent, queue, used),
                "start %u has no two edge-disjoint paths to the centre", s);
    }
    REQUIRE(starts == 12, "%d starts", starts);
    REQUIRE(hop_max - hop_min <= 1, "start hop counts range from %d to %d", hop_min, hop_max);
    /* The geometry, pairwise in the window. */
    size_t k = 0;
    for (size_t e = 0; e < m; e++) {
        const cb_node *a = &b->nodes[b->edges[e].a], *c = &b->nodes[b->edges[e].b];
        if ((a->x >= x0 && a->x <= x1 && a->y >= y0 && a->y <= y1) ||
            (c->x >= x0 && c->x <= x1 && c->y >= y0 && c->y <= y1))
            in[k++] = (uint32_t)e;
    }
    *window_edges = k;
    for (size_t i = 0; i < k; i++)
        for (size_t j = i + 1; j < k; j++)
            REQUIRE(!edges_conflict(b, b->edges[in[i]], b->edges[in[j]]),
                    "edges %u-%u and %u-%u cross", b->edges[in[i]].a, b->edges[in[i]].b,
                    b->edges[in[j]].a, b->edges[in[j]].b);
    for (uint32_t v = 0; v < n; v++) {
        const cb_node *p = &b->nodes[v];
        if (p->x < x0 - reach || p->x > x1 + reach || p->y < y0 - reach || p->y > y1 + reach)
            continue;
        for (size_t i = 0; i < k; i++) {
            cb_edge e = b->edges[in[i]];
            if (v == e.a || v == e.b)
                continue;
            double d = point_segment(p->x, p->y, b->nodes[e.a].x, b->nodes[e.a].y,
                                     b->nodes[e.b].x, b->nodes[e.b].y);
            REQUIRE(d >= rad, "edge %u-%u passes %.3f mm from node %u", e.a, e.b, d, v);
        }
        for (uint32_t u = v + 1; u < n; u++) {
            const cb_node *q = &b->nodes[u];
            if (fabs(q->x - p->x) > reach || fabs(q->y - p->y) > reach)
                continue;
            double d = hypot(p->x - q->x, p->y - q->y);
            REQUIRE(d >= 2 * rad + CB_NODE_GAP_MM, "nodes %u and %u are %.3f mm apart", v, u, d);
        }
    }
    bad = NULL;
done:
    adjacency_free(&g);
    free(dist); free(hop); free(parent); free(queue); free(owner); free(in); free(used);
    return bad;
}

/* 100,000 nodes on A0: the whole-board clauses in linear time and the
 * geometry in two windows (the centre and a corner) by this file's own
 * checker, and the same board again from the same seed. */
static void test_lattice_100k(void **state)
{
    (void)state;
    cb_spec spec;
    spec_for(&spec);
    spec.page_w = 1189;
    spec.page_h = 841;
    spec.margin = 15;
    spec.resolution = 378;
    cb_board *a = NULL, *b = NULL;
    cb_error err;
    assert_int_equal(cb_board_generate(&spec, "big", 1, &a, &err), CB_OK);
    assert_true(a->n_nodes > 95000);
    char why[256];
    size_t edges_mid = 0, edges_corner = 0;
    double cx = a->board_x + a->board_w / 2, cy = a->board_y + a->board_h / 2;
    const char *bad = poster_violation(a, &spec, cx - 60, cy - 60, cx + 60, cy + 60, &edges_mid,
                                       why, sizeof why);
    if (bad)
        fail_msg("100k poster: %s", bad);
    bad = poster_violation(a, &spec, a->board_x, a->board_y, a->board_x + 100, a->board_y + 100,
                           &edges_corner, why, sizeof why);
    if (bad)
        fail_msg("100k poster: %s", bad);
    assert_true(edges_mid > 1000 && edges_corner > 1000); /* the windows hold real work */
    /* The checker can fail: a node in the window moved onto a neighbour's
     * edge is caught, and so is a start cut down to one path. */
    uint32_t moved = UINT32_MAX, near = UINT32_MAX;
    for (size_t e = 0; e < a->n_edges && moved == UINT32_MAX; e++) {
        const cb_node *p = &a->nodes[a->edges[e].a];
        if (fabs(p->x - cx) < 20 && fabs(p->y - cy) < 20)
            moved = a->edges[e].a, near = a->edges[e].b;
    }
    assert_true(moved != UINT32_MAX);
    double keep_x = a->nodes[moved].x, keep_y = a->nodes[moved].y;
    /* halfway to its neighbour: the two disks overlap */
    a->nodes[moved].x = (keep_x + a->nodes[near].x) / 2;
    a->nodes[moved].y = (keep_y + a->nodes[near].y) / 2;
    assert_non_null(poster_violation(a, &spec, cx - 60, cy - 60, cx + 60, cy + 60, &edges_mid,
                                     why, sizeof why));
    a->nodes[moved].x = keep_x, a->nodes[moved].y = keep_y;
    assert_null(poster_violation(a, &spec, cx - 60, cy - 60, cx + 60, cy + 60, &edges_mid, why,
                                 sizeof why));
    for (size_t e = 0; e < a->n_edges; e++) /* one of a start's two edges gone */
        if (a->nodes[a->edges[e].a].kind == CB_KIND_START ||
            a->nodes[a->edges[e].b].kind == CB_KIND_START) {
            a->edges[e] = a->edges[--a->n_edges];
            break;
        }
    assert_non_null(poster_violation(a, &spec, cx - 60, cy - 60, cx + 60, cy + 60, &edges_mid,
                                     why, sizeof why));
    cb_board_free(a);
    assert_int_equal(cb_board_generate(&spec, "big", 1, &a, &err), CB_OK);
    assert_int_equal(cb_board_generate(&spec, "big", 1, &b, &err), CB_OK);
    assert_same_board(a, b);
    cb_board_free(a);
    cb_board_free(b);
}

static void test_deterministic(void **state)
{
    (void)state;
    cb_spec spec;
    spec_for(&spec);
    for (int i = 0; i < 100; i++) {
        char seed[32], other[32];
        snprintf(seed, sizeof seed, "prop-%d", i * 7);
        snprintf(other, sizeof other, "det-%d", i);
        cb_board *a = NULL, *x = NULL, *b = NULL;
        cb_error err;
        assert_int_equal(cb_board_generate(&spec, seed, 2, &a, &err), CB_OK);
        assert_int_equal(cb_board_generate(&spec, other, 2, &x, &err), CB_OK);
        assert_int_equal(cb_board_generate(&spec, seed, 2, &b, &err), CB_OK);
        assert_same_board(a, b);
        assert_true(a->n_nodes != x->n_nodes ||
                    memcmp(a->nodes, x->nodes, a->n_nodes * sizeof *a->nodes) != 0);
        cb_board_free(a);
        cb_board_free(x);
        cb_board_free(b);
    }
}

/* The checker above must be able to fail: break a good board in several
 * ways and make sure each is caught. */
static void test_checker_catches_broken_boards(void **state)
{
    (void)state;
    cb_spec spec;
    spec_for(&spec);
    rules r = {&spec, 3};
    cb_board *b = NULL;
    cb_error err;
    char why[256];
    board_figures bf;
    assert_int_equal(cb_board_generate(&spec, "prop-1", 1, &b, &err), CB_OK);
    assert_null(contract_violation(b, &r, &bf, why, sizeof why));

    uint32_t start = 0;
    while (b->nodes[start].kind != CB_KIND_START)
        start++;
    /* A start moved off its trim line. */
    cb_node saved = b->nodes[start];
    if (saved.side == CB_SIDE_TOP || saved.side == CB_SIDE_BOTTOM)
        b->nodes[start].y += saved.side == CB_SIDE_TOP ? 0.001 : -0.001;
    else
        b->nodes[start].x += saved.side == CB_SIDE_LEFT ? 0.001 : -0.001;
    assert_non_null(contract_violation(b, &r, &bf, why, sizeof why));
    b->nodes[start] = saved;
    /* One start too few. */
    b->nodes[start].kind = CB_KIND_NODE;
    b->nodes[start].side = CB_SIDE_NONE;
    assert_non_null(contract_violation(b, &r, &bf, why, sizeof why));
    b->nodes[start] = saved;
    /* A start's edge removed: degree 1, a bridge. */
    size_t m = b->n_edges;
    size_t e = 0;
    while (b->edges[e].a != start && b->edges[e].b != start)
        e++;
    cb_edge cut = b->edges[e];
    b->edges[e] = b->edges[m - 1];
    b->n_edges--;
    assert_non_null(contract_violation(b, &r, &bf, why, sizeof why));
    b->edges[e] = cut;  /* duplicate edge instead */
    b->n_edges = m;
    cb_edge last = b->edges[m - 1];
    b->edges[m - 1] = cut;
    if (e != m - 1) {
        assert_non_null(contract_violation(b, &r, &bf, why, sizeof why));
        assert_non_null(strstr(why, "twice"));
    }
    b->edges[m - 1] = last;
    /* Two nodes on top of each other. */
    uint32_t v = b->center == 0 ? 1 : 0;
    cb_node keep = b->nodes[v];
    b->nodes[v].x = b->nodes[b->center].x + b->node_radius;
    b->nodes[v].y = b->nodes[b->center].y;
    assert_non_null(contract_violation(b, &r, &bf, why, sizeof why));
    b->nodes[v] = keep;
    /* A type that may not sit on the edge, put on the edge. */
    for (uint32_t k = 0; k < b->n_nodes; k++)
        if (b->nodes[k].kind == CB_KIND_NODE && on_trim_line(b, &b->nodes[k])) {
            int was = b->nodes[k].type;
            for (size_t t = 0; t < theme->n_types; t++)
                if (!theme->types[t].on_edge)
                    b->nodes[k].type = (int)t;
            assert_non_null(contract_violation(b, &r, &bf, why, sizeof why));
            b->nodes[k].type = was;
            break;
        }
    assert_null(contract_violation(b, &r, &bf, why, sizeof why));
    cb_board_free(b);
}

/* The cut method above on hand-made boards with known answers (the ring
 * board of tests/test_cut.c: cut 4; with two shortcut edges, 3). */
static void test_cut_method_known_answers(void **state)
{
    (void)state;
    hand h;
    cb_board *b = make_ring_board(&h);
    adjacency g;
    adjacency_build(&g, b);
    assert_int_equal(shortest_cut_by_parity(b, &g, 0), 4);
    adjacency_free(&g);
    edge(b, 4, 6);
    edge(b, 5, 7);
    adjacency_build(&g, b);
    assert_int_equal(shortest_cut_by_parity(b, &g, 0), 3);
    adjacency_free(&g);
    /* The start sharing a piece with the centre: no cut parts them. */
    static const double xy2[][2] = {{60, 10}, {40, 40}, {80, 40}, {60, 60}};
    b = make_hand(&h, xy2, 4, 3);
    edge(b, 0, 1); edge(b, 0, 2); edge(b, 1, 3);
    h.nodes[0].kind = CB_KIND_START;
    h.nodes[0].side = CB_SIDE_TOP;
    adjacency_build(&g, b);
    assert_int_equal(shortest_cut_by_parity(b, &g, 0), -1);
    adjacency_free(&g);
}

/* Break the cut clause of a good board on purpose: one added edge (with
 * the degree caps lifted, so that nothing else can fail) that gives a start
 * a short way round; the checker must name the shortest cuts, and
 * cb_board_shortest_cuts must agree that the board is no longer fair. */
static void test_checker_catches_unfair_cuts(void **state)
{
    (void)state;
    cb_spec spec;
    spec_for(&spec);
    cb_board *b = NULL;
    cb_error err;
    char why[256];
    board_figures bf;
    assert_int_equal(cb_board_generate(&spec, "prop-2", 1, &b, &err), CB_OK);
    cb_spec loose = spec;
    loose.node_cap = 8;
    rules r = {&loose, 3};
    assert_null(contract_violation(b, &r, &bf, why, sizeof why));
    cb_edge *edges = malloc((b->n_edges + 1) * sizeof *edges);
    assert_non_null(edges);
    memcpy(edges, b->edges, b->n_edges * sizeof *edges);
    cb_edge *kept = b->edges;
    b->edges = edges;
    int found = 0;
    double near = 2.5 * 24.5;
    for (uint32_t u = 0; u < b->n_nodes && !found; u++)
        for (uint32_t v = u + 1; v < b->n_nodes && !found; v++) {
            if (b->nodes[u].kind != CB_KIND_NODE || b->nodes[v].kind != CB_KIND_NODE ||
                hypot(b->nodes[u].x - b->nodes[v].x, b->nodes[u].y - b->nodes[v].y) > near)
                continue;
            int present = 0;
            for (size_t e = 0; e < b->n_edges; e++)
                present |= edges[e].a == u && edges[e].b == v;
            if (present)
                continue;
            /* Kept sorted by (a, b), as board files are. */
            size_t m = b->n_edges, at = m;
            while (at > 0 && (edges[at - 1].a > u || (edges[at - 1].a == u && edges[at - 1].b > v))) {
                edges[at] = edges[at - 1];
                at--;
            }
            edges[at].a = u;
            edges[at].b = v;
            b->n_edges++;
            const char *bad = contract_violation(b, &r, &bf, why, sizeof why);
            if (bad && strstr(why, "shortest cut")) {
                found = 1;
                int *cuts = NULL;
                size_t n = 0;
                assert_int_equal(cb_board_shortest_cuts(b, &cuts, &n, &err), CB_OK);
                int lo = INT32_MAX, hi = -1;
                for (size_t k = 0; k < n; k++) {
                    lo = cuts[k] < lo ? cuts[k] : lo;
                    hi = cuts[k] > hi ? cuts[k] : hi;
                }
                free(cuts);
                assert_true(lo < 3 || hi - lo > 1);
                print_message("edge %u-%u added: %s\n", u, v, why);
                break;
            }
            memmove(edges + at, edges + at + 1, (m - at) * sizeof *edges);
            b->n_edges = m;
        }
    assert_true(found);
    free(edges);
    b->edges = kept;
    cb_board_free(b);
}

/* The checker's own geometry on tiny cases. */
static void test_checker_geometry(void **state)
{
    (void)state;
    cb_node nodes[5] = {{0, 0, CB_KIND_NODE, CB_SIDE_NONE, -1, -1, 0, 0, 0},
                        {10, 10, CB_KIND_NODE, CB_SIDE_NONE, -1, -1, 0, 0, 0},
                        {0, 10, CB_KIND_NODE, CB_SIDE_NONE, -1, -1, 0, 0, 0},
                        {10, 0, CB_KIND_NODE, CB_SIDE_NONE, -1, -1, 0, 0, 0},
                        {5, 5, CB_KIND_NODE, CB_SIDE_NONE, -1, -1, 0, 0, 0}};
    cb_board b;
    memset(&b, 0, sizeof b);
    b.nodes = nodes;
    b.n_nodes = 5;
    cb_edge d1 = {0, 1}, d2 = {2, 3}, side = {0, 3}, top = {1, 2}, to_mid = {0, 4},
            mid_to_corner = {4, 1}, other = {2, 4};
    assert_true(edges_conflict(&b, d1, d2));            /* the diagonals cross */
    assert_false(edges_conflict(&b, side, top));        /* opposite sides */
    assert_false(edges_conflict(&b, d1, side));         /* share node 0 */
    assert_true(edges_conflict(&b, d1, to_mid));        /* 0-4 lies along 0-1 */
    assert_false(edges_conflict(&b, to_mid, mid_to_corner)); /* straight through 4 */
    assert_true(edges_conflict(&b, d2, to_mid));        /* 0-4 ends on 2-3 */
    assert_false(edges_conflict(&b, to_mid, other));    /* meet at node 4 */
    assert_true(point_segment(5, 5, 0, 0, 10, 10) == 0);
    assert_true(fabs(point_segment(0, 10, 0, 0, 10, 10) - sqrt(50)) < 1e-12);
    assert_true(point_segment(20, 0, 0, 0, 10, 0) == 10);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_checker_geometry),
        cmocka_unit_test(test_checker_catches_broken_boards),
        cmocka_unit_test(test_a4_landscape_1000_seeds),
        cmocka_unit_test(test_game_starts_again),
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_letter_landscape),
        cmocka_unit_test(test_a4_portrait),
        cmocka_unit_test(test_a3_landscape),
        cmocka_unit_test(test_shared_nine_players),
        cmocka_unit_test(test_a0_posters),
        cmocka_unit_test(test_lattice_posters),
        cmocka_unit_test(test_lattice_100k),
        cmocka_unit_test(test_node_cap_3),
        cmocka_unit_test(test_node_cap_5),
        cmocka_unit_test(test_lattice_cuts_by_construction),
        cmocka_unit_test(test_games_share_bands),
        cmocka_unit_test(test_game_same_whatever_came_before),
        cmocka_unit_test(test_cut_method_known_answers),
        cmocka_unit_test(test_checker_catches_unfair_cuts),
    };
    return cmocka_run_group_tests(tests, load_theme, free_theme);
}
