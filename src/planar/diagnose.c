/* The contract report: every violation of a board, one precise line each.
 * The verdict is cb_board_check's (fair.c); this file finds the edges,
 * nodes and starts behind each failing clause. Each kind of violation is
 * listed up to REPORT_MAX times, then counted. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/buf.h"
#include "base/error.h"
#include "base/geom.h"
#include "base/graph.h"

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

/* Pairs of edges that cross, by a sweep over x. */
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
    qsort(s, m, sizeof *s, cmp_span);
    for (size_t k = 0; k < m; k++)
        for (size_t j = k + 1; j < m && s[j].lo <= s[k].hi; j++) {
            cb_edge e = b->edges[s[k].i], f = b->edges[s[j].i];
            cb_point p = pt(b, e.a), q = pt(b, e.b), u = pt(b, f.a), v = pt(b, f.b);
            if (!cb_segments_cross(p, q, u, v))
                continue;
            cb_edge first = s[k].i < s[j].i ? e : f, second = s[k].i < s[j].i ? f : e;
            /* crossing and on one line: they overlap */
            if (cb_orient(p, q, u) == 0 && cb_orient(p, q, v) == 0) {
                line(r, "edge %u-%u overlaps edge %u-%u", first.a, first.b, second.a, second.b);
            } else {
                cb_point x = cb_segment_intersection(p, q, u, v);
                line(r, "edge %u-%u crosses edge %u-%u at (%.1f, %.1f) mm", first.a, first.b,
                     second.a, second.b, x.x, x.y);
            }
        }
    free(s);
    end_kind(r, "crossings");
    return 0;
}

/* Edges through foreign nodes and nodes too close, by a sweep over x. */
static int grazes_overlaps(report *r, const cb_board *b, int grazes, int overlaps)
{
    size_t n = b->n_nodes, m = b->n_edges;
    double rad = b->node_radius, near = 2 * rad + CB_NODE_GAP_MM;
    span *s = malloc((n ? n : 1) * sizeof *s);
    if (!s)
        return -1;
    for (size_t i = 0; i < n; i++)
        s[i] = (span){b->nodes[i].x, b->nodes[i].x, (uint32_t)i};
    qsort(s, n, sizeof *s, cmp_span);
    if (overlaps) {
        for (size_t k = 0; k < n; k++)
            for (size_t j = k + 1; j < n && s[j].lo - s[k].lo < near; j++) {
                uint32_t a = s[k].i < s[j].i ? s[k].i : s[j].i;
                uint32_t c = s[k].i < s[j].i ? s[j].i : s[k].i;
                double d = cb_dist(pt(b, a), pt(b, c));
                if (d < near)
                    line(r, "nodes %u and %u overlap (%.1f mm apart, at least %.1f)", a, c, d,
                         near);
            }
        end_kind(r, "overlapping nodes");
    }
    if (grazes) {
        for (size_t e = 0; e < m; e++) {
            cb_edge ed = b->edges[e];
            cb_point p = pt(b, ed.a), q = pt(b, ed.b);
            double lo = fmin(p.x, q.x) - rad, hi = fmax(p.x, q.x) + rad;
            /* first node with x >= lo */
            size_t a = 0, z = n;
            while (a < z) {
                size_t mid = (a + z) / 2;
                if (s[mid].lo < lo)
                    a = mid + 1;
                else
                    z = mid;
            }
            for (size_t k = a; k < n && s[k].lo <= hi; k++) {
                uint32_t v = s[k].i;
                double d;
                if (v != ed.a && v != ed.b && (d = cb_point_segment_dist(pt(b, v), p, q)) < rad)
                    line(r, "edge %u-%u passes through node %u (%.1f mm from its centre, "
                            "radius %.1f)", ed.a, ed.b, v, d, rad);
            }
        }
        end_kind(r, "edges through nodes");
    }
    free(s);
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

    /* Hops: the band of the others for each start more than 1 off. */
    for (size_t k = 0; k < ns; k++) {
        uint32_t i = starts[k];
        int lo = INT32_MAX, hi = -1;
        for (size_t t = 0; t < ns; t++)
            if (t != k && hops[starts[t]] >= 0) {
                lo = hops[starts[t]] < lo ? hops[starts[t]] : lo;
                hi = hops[starts[t]] > hi ? hops[starts[t]] : hi;
            }
        if (hops[i] < 0)
            line(r, "start %u does not reach the centre", i);
        else if (hi >= 0 && (hops[i] > lo + 1 || hops[i] < hi - 1))
            line(r, "start %u is %d hops from the centre, others %d..%d", i, hops[i], lo, hi);
    }
    end_kind(r, "unfair hop counts");
    for (size_t k = 0; k < ns; k++) {
        uint32_t i = starts[k];
        if (hops[i] < 0)
            continue;
        int paths = cb_graph_edge_disjoint(g, i, b->center, 2);
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
