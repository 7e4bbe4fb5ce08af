/* The contract report: every violation of a board, one precise line each.
 * The verdict is cb_board_check's (fair.c); this file finds the edges,
 * nodes and starts behind each failing clause. Each kind of violation is
 * listed up to REPORT_MAX times, then counted. */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/buf.h"
#include "base/error.h"
#include "base/geom.h"
#include "base/graph.h"
#include "base/grid.h"

#define REPORT_MAX 20

typedef struct {
    cb_buf text;
    size_t lines;
    size_t kind_count; /* lines of the current kind */
    size_t kind_more;  /* left out of the current kind */
} report;

static void line(report *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void line(report *r, const char *fmt, ...)
{
    if (r->text.oom)
        return;
    if (r->kind_count >= REPORT_MAX) {
        r->kind_more++;
        return;
    }
    char buf[320];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    cb_buf_printf(&r->text, "%s\n", buf);
    r->lines++;
    r->kind_count++;
}

/* Ends a kind of violation: "... and N more" when some were left out. */
static void end_kind(report *r, const char *what)
{
    size_t more = r->kind_more;
    r->kind_count = 0;
    r->kind_more = 0;
    if (more)
        line(r, "... and %zu more %s", more, what);
    r->kind_count = 0;
}

static cb_point pt(const cb_board *b, uint32_t i)
{
    cb_point p = {b->nodes[i].x, b->nodes[i].y};
    return p;
}

typedef struct { double lo, hi; uint32_t i; } span;

static int cmp_span(const void *x, const void *y)
{
    const span *a = x, *c = y;
    if (a->lo != c->lo)
        return a->lo < c->lo ? -1 : 1;
    return (a->i > c->i) - (a->i < c->i);
}

/* The lines of a kind are the first REPORT_MAX in the order of a sweep over
 * x (the order this report has always listed them in), but the pairs are
 * found on a grid, in its order: a sweep compares everything in one strip
 * of x, all pairs of a column of nodes. So each pair found gets its place
 * in the sweep's order as a key, and the REPORT_MAX least are kept. */
typedef struct {
    uint64_t key;
    uint32_t a, b;
} found;

typedef struct {
    found least[REPORT_MAX];  /* by key */
    size_t n, total;
} firsts;

static void firsts_add(firsts *f, uint64_t key, uint32_t a, uint32_t b)
{
    f->total++;
    if (f->n == REPORT_MAX && key >= f->least[REPORT_MAX - 1].key)
        return;
    size_t i = f->n < REPORT_MAX ? f->n++ : REPORT_MAX - 1;
    for (; i > 0 && f->least[i - 1].key > key; i--)
        f->least[i] = f->least[i - 1];
    f->least[i] = (found){key, a, b};
}

static uint64_t pair_key(uint32_t first, uint32_t second)
{
    return (uint64_t)first << 32 | second;
}

/* Each item's place in the order of the sweep over x: by SPAN's lo, then
 * index (N items); NULL when out of memory. */
static uint32_t *sweep_ranks(span *s, size_t n)
{
    uint32_t *rank = malloc((n ? n : 1) * sizeof *rank);
    if (!rank)
        return NULL;
    qsort(s, n, sizeof *s, cmp_span);
    for (size_t k = 0; k < n; k++)
        rank[s[k].i] = (uint32_t)k;
    return rank;
}

/* Edge E's box in cells of G. */
static void edge_box(const cb_grid *g, const cb_board *b, uint32_t e, uint32_t *c0,
                     uint32_t *r0, uint32_t *c1, uint32_t *r1)
{
    cb_point p = pt(b, b->edges[e].a), q = pt(b, b->edges[e].b);
    cb_grid_box(g, fmin(p.x, q.x), fmin(p.y, q.y), fmax(p.x, q.x), fmax(p.y, q.y), c0, r0, c1,
                r1);
}

/* Pairs of edges that cross. Candidates are pairs whose boxes share a cell
 * of a grid of squares as wide as two node disks and their gap (what the
 * board limits bound), as the verdict finds them (fair.c): each row lists
 * the edges whose box covers it by first column, so an edge meets those
 * after it up to the first that starts right of its last column, and a
 * pair is tested in the first row both boxes cover. The test is the
 * sweep's, in its order. */
static int crossings(report *r, const cb_board *b)
{
    size_t m = b->n_edges;
    span *s = malloc((m ? m : 1) * sizeof *s);
    if (!s)
        return -1;
    for (size_t e = 0; e < m; e++) {
        double xa = b->nodes[b->edges[e].a].x, xb = b->nodes[b->edges[e].b].x;
        s[e] = (span){fmin(xa, xb), fmax(xa, xb), (uint32_t)e};
    }
    uint32_t *rank = sweep_ranks(s, m);
    free(s);
    cb_grid g;
    cb_grid_shape(&g, 0, 0, b->page_w, b->page_h, 2 * b->node_radius + CB_NODE_GAP_MM, m);
    size_t cells = (size_t)g.cols * g.rows, refs = 0;
    uint32_t *start = rank ? calloc(cells + 2, sizeof *start) : NULL;
    uint32_t c0, r0, c1, r1;
    for (uint32_t e = 0; start && e < m; e++) {
        edge_box(&g, b, e, &c0, &r0, &c1, &r1);
        for (uint32_t y = r0; y <= r1; y++)
            start[(size_t)y * g.cols + c0 + 2]++;
        refs += r1 - r0 + 1;
    }
    uint32_t *items = start && refs <= UINT32_MAX ? malloc((refs ? refs : 1) * sizeof *items)
                                                  : NULL;
    if (!items) {
        free(rank);
        free(start);
        return -1;
    }
    for (size_t k = 0; k < cells; k++)
        start[k + 2] += start[k + 1];
    for (uint32_t e = 0; e < m; e++) {
        edge_box(&g, b, e, &c0, &r0, &c1, &r1);
        for (uint32_t y = r0; y <= r1; y++)
            items[start[(size_t)y * g.cols + c0 + 1]++] = e;
    }
    firsts f = {{{0, 0, 0}}, 0, 0};
    for (uint32_t y = 0; y < g.rows; y++) {
        size_t end = start[(size_t)(y + 1) * g.cols];
        for (size_t i = start[(size_t)y * g.cols]; i < end; i++) {
            uint32_t e = items[i], ec0, er0, ec1, er1;
            edge_box(&g, b, e, &ec0, &er0, &ec1, &er1);
            for (size_t j = i + 1; j < end; j++) {
                uint32_t h = items[j], hc0, hr0, hc1, hr1;
                edge_box(&g, b, h, &hc0, &hr0, &hc1, &hr1);
                if (hc0 > ec1)
                    break; /* this and the rest start right of e's box */
                if ((er0 > hr0 ? er0 : hr0) != y)
                    continue; /* met in an earlier row */
                uint32_t k = rank[e] < rank[h] ? e : h, l = rank[e] < rank[h] ? h : e;
                cb_edge ek = b->edges[k], el = b->edges[l];
                if (cb_segments_cross(pt(b, ek.a), pt(b, ek.b), pt(b, el.a), pt(b, el.b)))
                    firsts_add(&f, pair_key(rank[k], rank[l]), k, l);
            }
        }
    }
    free(start);
    free(items);
    free(rank);
    for (size_t i = 0; i < f.n; i++) {
        uint32_t k = f.least[i].a, l = f.least[i].b;
        cb_edge e = b->edges[k], h = b->edges[l];
        cb_point p = pt(b, e.a), q = pt(b, e.b), u = pt(b, h.a), v = pt(b, h.b);
        cb_edge first = k < l ? e : h, second = k < l ? h : e;
        /* crossing and on one line: they overlap */
        if (cb_orient(p, q, u) == 0 && cb_orient(p, q, v) == 0) {
            line(r, "edge %u-%u overlaps edge %u-%u", first.a, first.b, second.a, second.b);
        } else {
            cb_point x = cb_segment_intersection(p, q, u, v);
            line(r, "edge %u-%u crosses edge %u-%u at (%.1f, %.1f) mm", first.a, first.b,
                 second.a, second.b, x.x, x.y);
        }
    }
    r->kind_more += f.total - f.n;
    end_kind(r, "crossings");
    return 0;
}

/* Edges through foreign nodes and nodes too close, on a grid of squares
 * as wide as two node disks and their gap (no square holds more than
 * CB_BOARD_CELL_MAX nodes of a board read from a file). */
static int grazes_overlaps(report *r, const cb_board *b, int grazes, int overlaps)
{
    size_t n = b->n_nodes, m = b->n_edges;
    double rad = b->node_radius, near = 2 * rad + CB_NODE_GAP_MM;
    span *s = malloc((n ? n : 1) * sizeof *s);
    cb_point *p = malloc((n ? n : 1) * sizeof *p);
    if (!s || !p) {
        free(s);
        free(p);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        s[i] = (span){b->nodes[i].x, b->nodes[i].x, (uint32_t)i};
        p[i] = pt(b, (uint32_t)i);
    }
    uint32_t *rank = sweep_ranks(s, n);
    free(s);
    cb_grid g;
    if (!rank || cb_grid_init(&g, 0, 0, b->page_w, b->page_h, near, n) != 0) {
        free(rank);
        free(p);
        return -1;
    }
    cb_grid_fill(&g, p, n);
    uint32_t c0, r0, c1, r1, k0, k1;
    if (overlaps) {
        firsts f = {{{0, 0, 0}}, 0, 0};
        for (uint32_t i = 0; i < n; i++) {
            cb_grid_range(&g, p[i].x, p[i].y, near, near, &c0, &r0, &c1, &r1);
            for (uint32_t y = r0; y <= r1; y++) {
                cb_grid_row(&g, y, c0, c1, &k0, &k1);
                for (uint32_t k = k0; k < k1; k++) {
                    uint32_t c = g.items[k];
                    if (c > i && cb_dist(p[i], p[c]) < near)
                        firsts_add(&f, rank[i] < rank[c] ? pair_key(rank[i], rank[c])
                                                         : pair_key(rank[c], rank[i]), i, c);
                }
            }
        }
        for (size_t i = 0; i < f.n; i++)
            line(r, "nodes %u and %u overlap (%.1f mm apart, at least %.1f)", f.least[i].a,
                 f.least[i].b, cb_dist(p[f.least[i].a], p[f.least[i].b]), near);
        r->kind_more += f.total - f.n;
        end_kind(r, "overlapping nodes");
    }
    if (grazes) {
        firsts f = {{{0, 0, 0}}, 0, 0};
        for (uint32_t e = 0; e < m; e++) {
            cb_edge ed = b->edges[e];
            cb_point pa = p[ed.a], pb = p[ed.b];
            cb_grid_box(&g, fmin(pa.x, pb.x) - rad, fmin(pa.y, pb.y) - rad,
                        fmax(pa.x, pb.x) + rad, fmax(pa.y, pb.y) + rad, &c0, &r0, &c1, &r1);
            for (uint32_t y = r0; y <= r1; y++) {
                cb_grid_row(&g, y, c0, c1, &k0, &k1);
                for (uint32_t k = k0; k < k1; k++) {
                    uint32_t v = g.items[k];
                    if (v != ed.a && v != ed.b && cb_point_segment_dist(p[v], pa, pb) < rad)
                        firsts_add(&f, pair_key(e, rank[v]), e, v);
                }
            }
        }
        for (size_t i = 0; i < f.n; i++) {
            cb_edge ed = b->edges[f.least[i].a];
            uint32_t v = f.least[i].b;
            line(r, "edge %u-%u passes through node %u (%.1f mm from its centre, "
                    "radius %.1f)", ed.a, ed.b, v, cb_point_segment_dist(p[v], p[ed.a], p[ed.b]),
                 rad);
        }
        r->kind_more += f.total - f.n;
        end_kind(r, "edges through nodes");
    }
    cb_grid_free(&g);
    free(rank);
    free(p);
    return 0;
}

static const char *const side_names[] = {"top", "right", "bottom", "left"};

static double trim(const cb_board *b, int side)
{
    return side == CB_SIDE_TOP ? b->board_y
           : side == CB_SIDE_BOTTOM ? b->board_y + b->board_h
           : side == CB_SIDE_LEFT ? b->board_x : b->board_x + b->board_w;
}

static int starts_and_fairness(report *r, const cb_board *b, const cb_graph *g,
                               int start_cap, int node_cap)
{
    size_t n = b->n_nodes;
    int *hops = malloc((n ? n : 1) * sizeof *hops);
    uint32_t *owner = malloc((n ? n : 1) * sizeof *owner);
    uint32_t *starts = malloc((n ? n : 1) * sizeof *starts);
    if (!hops || !owner || !starts) {
        free(hops);
        free(owner);
        free(starts);
        return -1;
    }
    if (cb_graph_hops(g, b->center, hops) != 0) {
        free(hops);
        free(owner);
        free(starts);
        return -1;
    }
    for (uint32_t i = 0; i < n; i++)
        if (hops[i] < 0)
            line(r, "node %u is not connected to the centre", i);
    end_kind(r, "unconnected nodes");

    size_t ns = 0;
    int per_side[4] = {0, 0, 0, 0};
    for (uint32_t i = 0; i < n; i++) {
        const cb_node *v = &b->nodes[i];
        int deg = (int)cb_graph_degree(g, i);
        int cap = v->kind == CB_KIND_START ? start_cap : node_cap;
        if (i != b->center && deg > cap)
            line(r, "%s %u has %d edges, cap is %d", v->kind == CB_KIND_START ? "start" : "node",
                 i, deg, cap);
        if (v->kind == CB_KIND_START)
            starts[ns++] = i;
    }
    end_kind(r, "nodes over their cap");
    for (size_t k = 0; k < ns; k++) {
        const cb_node *v = &b->nodes[starts[k]];
        if (v->side < CB_SIDE_TOP || v->side > CB_SIDE_LEFT) {
            line(r, "start %u has no side", starts[k]);
            continue;
        }
        int vertical = v->side == CB_SIDE_LEFT || v->side == CB_SIDE_RIGHT;
        double off = vertical ? v->x - trim(b, v->side) : v->y - trim(b, v->side);
        double along = vertical ? v->y : v->x;
        double lo = vertical ? b->board_y : b->board_x;
        double hi = lo + (vertical ? b->board_h : b->board_w);
        if (fabs(off) >= 1e-6)
            line(r, "start %u is %.2f mm off the %s trim line", starts[k], fabs(off),
                 side_names[v->side]);
        else if (!(along > lo && along < hi))
            line(r, "start %u is past the end of the %s trim line", starts[k],
                 side_names[v->side]);
        else
            per_side[v->side]++;
    }
    end_kind(r, "starts off the trim line");
    if (ns != CB_STARTS)
        line(r, "%zu starts, %d wanted (%d on each side)", ns, CB_STARTS,
             CB_STARTS_PER_SIDE);
    for (int s = 0; s < 4; s++)
        if (per_side[s] != CB_STARTS_PER_SIDE)
            line(r, "the %s side has %d start%s on its trim line, %d wanted", side_names[s],
                 per_side[s], per_side[s] == 1 ? "" : "s", CB_STARTS_PER_SIDE);
    end_kind(r, "start count problems");

    for (size_t i = 0; i < n; i++)
        owner[i] = UINT32_MAX;
    for (size_t k = 0; k < ns; k++) {
        uint32_t i = starts[k];
        for (uint32_t j = g->start[i]; j < g->start[i + 1]; j++) {
            uint32_t u = g->adj[j];
            if (b->nodes[u].kind == CB_KIND_START && u > i)
                line(r, "starts %u and %u are adjacent", i, u);
            if (owner[u] != UINT32_MAX && owner[u] != i)
                line(r, "starts %u and %u share neighbour %u", owner[u], i, u);
            owner[u] = i;
        }
    }
    end_kind(r, "start neighbour problems");

    /* Hops: the band of the others for each start more than 1 off. The
     * others' band is all starts' but for the start that holds its least
     * or its most: then the second least or most. */
    size_t low1 = SIZE_MAX, low2 = SIZE_MAX, high1 = SIZE_MAX, high2 = SIZE_MAX;
    for (size_t t = 0; t < ns; t++) {
        int h = hops[starts[t]];
        if (h < 0)
            continue;
        if (low1 == SIZE_MAX || h < hops[starts[low1]])
            low2 = low1, low1 = t;
        else if (low2 == SIZE_MAX || h < hops[starts[low2]])
            low2 = t;
        if (high1 == SIZE_MAX || h > hops[starts[high1]])
            high2 = high1, high1 = t;
        else if (high2 == SIZE_MAX || h > hops[starts[high2]])
            high2 = t;
    }
    for (size_t k = 0; k < ns; k++) {
        uint32_t i = starts[k];
        size_t lo_at = k == low1 ? low2 : low1, hi_at = k == high1 ? high2 : high1;
        int lo = lo_at == SIZE_MAX ? INT32_MAX : hops[starts[lo_at]];
        int hi = hi_at == SIZE_MAX ? -1 : hops[starts[hi_at]];
        if (hops[i] < 0)
            line(r, "start %u does not reach the centre", i);
        else if (hi >= 0 && (hops[i] > lo + 1 || hops[i] < hi - 1))
            line(r, "start %u is %d hops from the centre, others %d..%d", i, hops[i], lo, hi);
    }
    end_kind(r, "unfair hop counts");
    /* Fewer than 2 edge-disjoint paths to the centre: a bridge between
     * them (one pass for all starts, not a flow for each). */
    uint32_t *comp = owner; /* done with the owners */
    if (cb_graph_bridge_components(g, comp) != 0) {
        free(hops);
        free(owner);
        free(starts);
        return -1;
    }
    for (size_t k = 0; k < ns; k++) {
        uint32_t i = starts[k];
        if (hops[i] < 0)
            continue;
        int paths = i == b->center ? cb_graph_edge_disjoint(g, i, b->center, 2)
                    : comp[i] == comp[b->center] ? 2 : 1;
        if (paths < 0) {
            free(hops);
            free(owner);
            free(starts);
            return -1;
        }
        if (paths < 2)
            line(r, "start %u has %d edge-disjoint path%s to the centre, 2 wanted (one cut "
                    "severs it)", i, paths, paths == 1 ? "" : "s");
    }
    end_kind(r, "starts with too few paths");
    free(hops);
    free(owner);
    free(starts);
    return 0;
}

cb_status cb_board_diagnose(const cb_board *b, int start_cap, int node_cap, char **text,
                            size_t *count, cb_error *err)
{
    *text = NULL;
    *count = 0;
    cb_verdict v;
    cb_status st = cb_board_check(b, start_cap, node_cap, &v, err);
    if (st != CB_OK)
        return st;
    report r = {{0}, 0, 0, 0};
    cb_buf_append(&r.text, "", 0); /* "" when nothing is wrong */
    cb_graph g;
    if ((st = cb_graph_build(&g, b, err)) != CB_OK) {
        cb_buf_free(&r.text);
        return st;
    }
    int rc = 0;
    if (!r.text.oom && v.crossings)
        rc = crossings(&r, b);
    if (!r.text.oom && rc == 0 && (v.grazes || v.overlaps))
        rc = grazes_overlaps(&r, b, v.grazes > 0, v.overlaps > 0);
    if (!r.text.oom && rc == 0)
        rc = starts_and_fairness(&r, b, &g, start_cap, node_cap);
    cb_graph_free(&g);
    if (r.text.oom || rc != 0) {
        cb_buf_free(&r.text);
        return cb_fail(err, CB_ERR_NOMEM, "out of memory checking the board");
    }
    /* The verdict decides; a clause it fails that no line explains is named. */
    if (!v.ok && r.lines == 0)
        line(&r, "%s", v.failure);
    if (r.text.oom) {
        cb_buf_free(&r.text);
        return cb_fail(err, CB_ERR_NOMEM, "out of memory checking the board");
    }
    *text = r.text.data;
    *count = r.lines;
    return CB_OK;
}
