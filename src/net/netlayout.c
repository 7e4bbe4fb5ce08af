/* Where a network's nodes go on the page. Paths are drawn as a snake, cycles
 * as a circle and trees radially (all crossing-free for the usual shapes);
 * geometric networks keep their own positions (crossing-free by
 * construction); anything else gets a deterministic Fruchterman-Reingold
 * layout, the better (fewer crossings) of two starts. Every layout reports
 * its crossing count. */
#include "base/error.h"
#include "base/geom.h"
#include "net/network.h"
#include "base/rng.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PAGE_MARGIN_MM 10.0
#define LEGEND_MM 78.0      /* legend column (landscape) or band (portrait) */
#define FR_ITERATIONS 400
#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

void cb_net_layout_free(cb_net_layout *l)
{
    if (!l)
        return;
    free(l->xy);
    free(l);
}

static int links_share_node(cb_edge e, cb_edge f)
{
    return e.a == f.a || e.a == f.b || e.b == f.a || e.b == f.b;
}

size_t cb_net_crossings(const cb_network *net, const double *xy)
{
    size_t count = 0, m = net->n_edges;
    for (size_t i = 0; i < m; i++) {
        cb_edge e = net->edges[i];
        cb_point a = {xy[2 * e.a], xy[2 * e.a + 1]}, b = {xy[2 * e.b], xy[2 * e.b + 1]};
        double x0 = fmin(a.x, b.x), x1 = fmax(a.x, b.x), y0 = fmin(a.y, b.y),
               y1 = fmax(a.y, b.y);
        for (size_t j = i + 1; j < m; j++) {
            cb_edge f = net->edges[j];
            if (links_share_node(e, f))
                continue;
            cb_point c = {xy[2 * f.a], xy[2 * f.a + 1]}, d = {xy[2 * f.b], xy[2 * f.b + 1]};
            if (fmax(c.x, d.x) < x0 || fmin(c.x, d.x) > x1 || fmax(c.y, d.y) < y0 ||
                fmin(c.y, d.y) > y1)
                continue;
            count += cb_segments_cross(a, b, c, d) != 0;
        }
    }
    return count;
}

/* ---- shapes ----------------------------------------------------------------- */

static size_t degree(const cb_net_csr *g, size_t v)
{
    return g->start[v + 1] - g->start[v];
}

/* Nodes in BFS order from S into ORDER with parent and depth; returns how
 * many were reached. */
static size_t bfs_order(const cb_net_csr *g, uint32_t s, uint32_t *order, uint32_t *parent,
                        uint32_t *depth)
{
    for (size_t v = 0; v < g->n; v++)
        depth[v] = UINT32_MAX;
    size_t head = 0, tail = 0;
    order[tail++] = s;
    depth[s] = 0;
    parent[s] = UINT32_MAX;
    while (head < tail) {
        uint32_t v = order[head++];
        for (uint32_t j = g->start[v]; j < g->start[v + 1]; j++) {
            uint32_t w = g->adj[j];
            if (depth[w] == UINT32_MAX) {
                depth[w] = depth[v] + 1;
                parent[w] = v;
                order[tail++] = w;
            }
        }
    }
    return tail;
}

/* Positions go into the unit square [0,1]^2 (or a box of the map's aspect
 * for the force layout) and are fitted to the map at the end. */

/* A path: rows of COLS nodes, every other row right to left. */
static void snake(const cb_net_csr *g, const uint32_t *order, double aspect, double *u)
{
    size_t n = g->n;
    size_t cols = (size_t)fmax(1, ceil(sqrt((double)n * aspect)));
    size_t rows = (n + cols - 1) / cols;
    for (size_t i = 0; i < n; i++) {
        size_t r = i / cols, c = i % cols;
        if (r % 2)
            c = cols - 1 - c;
        u[2 * order[i]] = cols > 1 ? (double)c / (double)(cols - 1) : 0.5;
        u[2 * order[i] + 1] = rows > 1 ? (double)r / (double)(rows - 1) : 0.5;
    }
}

/* A cycle: walk it from node 0 and put the nodes on a circle in that order. */
static void circle_cycle(const cb_net_csr *g, double *u)
{
    size_t n = g->n;
    uint32_t prev = UINT32_MAX, v = 0;
    for (size_t i = 0; i < n; i++) {
        double t = 2 * M_PI * (double)i / (double)n;
        u[2 * v] = 0.5 + 0.5 * sin(t);
        u[2 * v + 1] = 0.5 - 0.5 * cos(t);
        uint32_t a = g->adj[g->start[v]], b = g->adj[g->start[v] + 1];
        uint32_t next = a != prev ? a : b;
        prev = v;
        v = next;
    }
}

/* A tree, radially: the root (middle of a longest path) in the centre, each
 * subtree in a wedge as wide as its share of the leaves, depth on rings. */
static int radial_tree(const cb_net_csr *g, double *u)
{
    size_t n = g->n;
    uint32_t *order = malloc(n * sizeof *order), *parent = malloc(n * sizeof *parent),
             *depth = malloc(n * sizeof *depth);
    double *leaves = malloc(n * sizeof *leaves), *lo = malloc(n * sizeof *lo);
    if (!order || !parent || !depth || !leaves || !lo) {
        free(order), free(parent), free(depth), free(leaves), free(lo);
        return -1;
    }
    bfs_order(g, 0, order, parent, depth);
    uint32_t far = order[n - 1];
    bfs_order(g, far, order, parent, depth);
    uint32_t end = order[n - 1], root = end;
    for (uint32_t steps = depth[end] / 2; steps > 0; steps--)
        root = parent[root];
    bfs_order(g, root, order, parent, depth);
    uint32_t maxdepth = depth[order[n - 1]];
    for (size_t v = 0; v < n; v++)
        leaves[v] = 0;
    for (size_t i = n; i-- > 1;) {
        uint32_t v = order[i];
        if (leaves[v] == 0)
            leaves[v] = 1;
        leaves[parent[v]] += leaves[v];
    }
    if (leaves[root] == 0)
        leaves[root] = 1;
    lo[root] = 0;
    u[2 * root] = u[2 * root + 1] = 0.5;
    /* children take consecutive slices of their parent's wedge, in BFS
     * (ascending id) order */
    double *next = malloc(n * sizeof *next);
    if (!next) {
        free(order), free(parent), free(depth), free(leaves), free(lo);
        return -1;
    }
    for (size_t v = 0; v < n; v++)
        next[v] = 0;
    next[root] = lo[root];
    for (size_t i = 1; i < n; i++) {
        uint32_t v = order[i], p = parent[v];
        double share = leaves[v] / leaves[root];
        lo[v] = next[p];
        next[p] += share;
        next[v] = lo[v];
        double t = 2 * M_PI * (lo[v] + share / 2);
        double r = 0.5 * depth[v] / (double)maxdepth;
        u[2 * v] = 0.5 + r * sin(t);
        u[2 * v + 1] = 0.5 - r * cos(t);
    }
    free(order), free(parent), free(depth), free(leaves), free(lo), free(next);
    return 0;
}

/* Fruchterman-Reingold (1991) in a W x 1 box: repulsion k^2/d between all
 * pairs, attraction d^2/k along links, moves capped by a temperature that
 * cools linearly. Exact O(n^2) repulsion: a printed map has <= 400 nodes. */
static int force(const cb_network *net, double w, double *u)
{
    size_t n = net->n;
    double *disp = calloc(2 * n, sizeof *disp);
    if (!disp)
        return -1;
    double k = 0.9 * sqrt(w / (double)n), k2 = k * k;
    for (int it = 0; it < FR_ITERATIONS; it++) {
        double temp = 0.1 * w * (1.0 - (double)it / FR_ITERATIONS) + 1e-4;
        memset(disp, 0, 2 * n * sizeof *disp);
        for (size_t i = 0; i < n; i++)
            for (size_t j = i + 1; j < n; j++) {
                double dx = u[2 * i] - u[2 * j], dy = u[2 * i + 1] - u[2 * j + 1];
                double d2 = dx * dx + dy * dy;
                if (d2 < 1e-12) { /* coincident: push apart along a fixed axis */
                    dx = 1e-3 * (double)(1 + (i + j) % 7);
                    dy = 1e-3;
                    d2 = dx * dx + dy * dy;
                }
                double f = k2 / d2; /* (k^2 / d) / d */
                disp[2 * i] += dx * f;
                disp[2 * i + 1] += dy * f;
                disp[2 * j] -= dx * f;
                disp[2 * j + 1] -= dy * f;
            }
        for (size_t e = 0; e < net->n_edges; e++) {
            size_t a = net->edges[e].a, b = net->edges[e].b;
            double dx = u[2 * a] - u[2 * b], dy = u[2 * a + 1] - u[2 * b + 1];
            double d = sqrt(dx * dx + dy * dy);
            double f = d / k; /* (d^2 / k) / d */
            disp[2 * a] -= dx * f;
            disp[2 * a + 1] -= dy * f;
            disp[2 * b] += dx * f;
            disp[2 * b + 1] += dy * f;
        }
        for (size_t v = 0; v < n; v++) {
            double dx = disp[2 * v], dy = disp[2 * v + 1];
            double d = sqrt(dx * dx + dy * dy);
            if (d > 0) {
                double s = fmin(d, temp) / d;
                u[2 * v] += dx * s;
                u[2 * v + 1] += dy * s;
            }
        }
    }
    free(disp);
    return 0;
}

/* Crossings of the links at V with all other links. */
static size_t node_crossings(const cb_network *net, const cb_net_csr *g, const double *u,
                             uint32_t v)
{
    size_t c = 0;
    cb_point a = {u[2 * v], u[2 * v + 1]};
    for (uint32_t j = g->start[v]; j < g->start[v + 1]; j++) {
        uint32_t w = g->adj[j];
        cb_point b = {u[2 * w], u[2 * w + 1]};
        for (size_t e = 0; e < net->n_edges; e++) {
            cb_edge f = net->edges[e];
            if (f.a == v || f.b == v || f.a == w || f.b == w)
                continue;
            cb_point p = {u[2 * f.a], u[2 * f.a + 1]}, q = {u[2 * f.b], u[2 * f.b + 1]};
            if (fmax(p.x, q.x) < fmin(a.x, b.x) || fmin(p.x, q.x) > fmax(a.x, b.x) ||
                fmax(p.y, q.y) < fmin(a.y, b.y) || fmin(p.y, q.y) > fmax(a.y, b.y))
                continue;
            c += cb_segments_cross(a, b, p, q) != 0;
        }
    }
    return c;
}

/* Whether V at its place keeps CLEAR from every other node, and its links
 * keep CLEAR / 2 from nodes they don't join. */
static int node_clear(const cb_net_csr *g, const double *u, uint32_t v, double clear)
{
    cb_point a = {u[2 * v], u[2 * v + 1]};
    for (size_t x = 0; x < g->n; x++) {
        if (x == v)
            continue;
        cb_point c = {u[2 * x], u[2 * x + 1]};
        if (cb_dist(a, c) < clear)
            return 0;
        for (uint32_t j = g->start[v]; j < g->start[v + 1]; j++) {
            uint32_t w = g->adj[j];
            cb_point b = {u[2 * w], u[2 * w + 1]};
            if (x != w && cb_point_segment_dist(c, a, b) < clear / 2)
                return 0;
        }
    }
    return 1;
}

/* Local search after the forces: moves a node with crossings to the
 * barycentre of its neighbours or to a nearby spot when that lowers its
 * crossings and keeps it clear of the others. Deterministic (RNG). */
#define UNCROSS_WORK 2e7 /* link pairs looked at: a fraction of a second */

static void uncross(const cb_network *net, const cb_net_csr *g, double *u, double k,
                    cb_rng *rng)
{
    size_t n = net->n;
    double work = 0;
    for (int pass = 0; pass < 12 && work < UNCROSS_WORK; pass++) {
        int moved = 0;
        for (uint32_t v = 0; v < n && work < UNCROSS_WORK; v++) {
            work += 11.0 * (double)degree(g, v) * (double)net->n_edges + (double)n;
            size_t before = node_crossings(net, g, u, v);
            if (before == 0 || degree(g, v) == 0)
                continue;
            double ox = u[2 * v], oy = u[2 * v + 1], bx = 0, by = 0;
            for (uint32_t j = g->start[v]; j < g->start[v + 1]; j++)
                bx += u[2 * g->adj[j]], by += u[2 * g->adj[j] + 1];
            bx /= (double)degree(g, v);
            by /= (double)degree(g, v);
            size_t best = before;
            double best_x = ox, best_y = oy;
            for (int c = 0; c < 10; c++) {
                if (c == 0) {
                    u[2 * v] = bx, u[2 * v + 1] = by;
                } else {
                    double t = 2 * M_PI * cb_rng_uniform(rng), r = k * (0.5 + 2 * cb_rng_uniform(rng));
                    double cx = c < 5 ? ox : bx, cy = c < 5 ? oy : by;
                    u[2 * v] = cx + r * cos(t), u[2 * v + 1] = cy + r * sin(t);
                }
                if (!node_clear(g, u, v, 0.8 * k))
                    continue;
                size_t after = node_crossings(net, g, u, v);
                if (after < best)
                    best = after, best_x = u[2 * v], best_y = u[2 * v + 1];
            }
            u[2 * v] = best_x, u[2 * v + 1] = best_y;
            moved |= best < before;
        }
        if (!moved)
            break;
    }
}

/* Fits positions U (any box) into the map, keeping their aspect. */
static void fit(const cb_net_layout *l, size_t n, const double *u, double *xy)
{
    double x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY;
    for (size_t v = 0; v < n; v++) {
        x0 = fmin(x0, u[2 * v]), x1 = fmax(x1, u[2 * v]);
        y0 = fmin(y0, u[2 * v + 1]), y1 = fmax(y1, u[2 * v + 1]);
    }
    double pad = l->node_radius + 1.0;
    double mw = l->map_w - 2 * pad, mh = l->map_h - 2 * pad;
    double sw = x1 - x0, sh = y1 - y0;
    double s = fmin(sw > 1e-12 ? mw / sw : INFINITY, sh > 1e-12 ? mh / sh : INFINITY);
    if (!isfinite(s))
        s = 0;
    double ox = l->map_x + pad + (mw - s * sw) / 2, oy = l->map_y + pad + (mh - s * sh) / 2;
    for (size_t v = 0; v < n; v++) {
        xy[2 * v] = ox + s * (u[2 * v] - x0);
        xy[2 * v + 1] = oy + s * (u[2 * v + 1] - y0);
    }
}

cb_status cb_net_layout_make(const cb_network *net, const char *seed, double page_w,
                             double page_h, cb_net_layout **out, cb_error *err)
{
    *out = NULL;
    size_t n = net->n;
    if (n > CB_NET_MAX_DRAWN_NODES || net->n_edges > CB_NET_MAX_DRAWN_LINKS)
        return cb_fail_option(err, "output",
                       "a map of %zu nodes and %zu links is too big to draw on one page "
                       "(at most %d nodes and %d links); write only its network file or "
                       "its matrix",
                       n, net->n_edges, CB_NET_MAX_DRAWN_NODES, CB_NET_MAX_DRAWN_LINKS);
    if (!(page_w >= 100 && page_h >= 100))
        return cb_fail_option(err, "paper", "a map needs a page of at least 100x100 mm");
    cb_net_layout *l = calloc(1, sizeof *l);
    double *u = malloc(2 * n * sizeof *u), *best = malloc(2 * n * sizeof *best);
    cb_net_csr g = {0};
    if (!l || !u || !best || cb_net_csr_build(&g, net) != 0) {
        free(u), free(best), cb_net_layout_free(l);
        return cb_fail(err, CB_ERR_NOMEM, "layout: out of memory");
    }
    l->page_w = page_w;
    l->page_h = page_h;
    l->map_x = l->map_y = PAGE_MARGIN_MM;
    l->map_w = page_w - 2 * PAGE_MARGIN_MM;
    l->map_h = page_h - 2 * PAGE_MARGIN_MM;
    if (page_w >= page_h)
        l->map_w -= LEGEND_MM;
    else
        l->map_h -= LEGEND_MM;
    double spacing = sqrt(l->map_w * l->map_h / (double)n);
    l->node_radius = fmin(6.0, fmax(1.6, 0.26 * spacing));
    l->xy = malloc(2 * n * sizeof *l->xy);
    int rc = l->xy ? 0 : -1;

    size_t maxd = 0, connected = 0;
    uint32_t *order = malloc(n * sizeof *order), *parent = malloc(n * sizeof *parent),
             *depth = malloc(n * sizeof *depth);
    if (!order || !parent || !depth)
        rc = -1;
    if (rc == 0) {
        for (size_t v = 0; v < n; v++)
            maxd = degree(&g, v) > maxd ? degree(&g, v) : maxd;
        connected = bfs_order(&g, 0, order, parent, depth) == n;
    }
    int tree = connected && net->n_edges == n - 1;
    if (rc == 0 && net->xy) {
        l->method = "geometric";
        fit(l, n, net->xy, l->xy);
    } else if (rc == 0 && tree && maxd <= 2) {
        l->method = "snake";
        uint32_t end = 0;
        for (size_t v = 0; v < n; v++)
            if (degree(&g, v) <= 1) {
                end = (uint32_t)v;
                break;
            }
        bfs_order(&g, end, order, parent, depth);
        snake(&g, order, l->map_w / l->map_h, u);
        fit(l, n, u, l->xy);
    } else if (rc == 0 && connected && maxd == 2 && net->n_edges == n) {
        l->method = "circle";
        circle_cycle(&g, u);
        fit(l, n, u, l->xy);
    } else if (rc == 0 && tree) {
        l->method = "tree";
        rc = radial_tree(&g, u);
        if (rc == 0)
            fit(l, n, u, l->xy);
    } else if (rc == 0) {
        /* two starts: the nodes on a circle in id order (good for lattices),
         * and random positions from the seed; the one with fewer crossings */
        double w = l->map_w / l->map_h;
        cb_rng rng;
        cb_rng_seed(&rng, cb_hash_string(seed ? seed : "") ^ cb_hash_string("layout"));
        size_t best_cross = SIZE_MAX;
        for (int start = 0; start < 2 && rc == 0; start++) {
            for (size_t v = 0; v < n; v++) {
                double t = 2 * M_PI * (double)v / (double)n;
                u[2 * v] = start ? w * cb_rng_uniform(&rng) : w * (0.5 + 0.45 * sin(t));
                u[2 * v + 1] = start ? cb_rng_uniform(&rng) : 0.5 - 0.45 * cos(t);
            }
            rc = force(net, w, u);
            if (rc == 0)
                uncross(net, &g, u, 0.9 * sqrt(w / (double)n), &rng);
            fit(l, n, u, best);
            size_t c = cb_net_crossings(net, best);
            if (rc == 0 && c < best_cross) {
                best_cross = c;
                memcpy(l->xy, best, 2 * n * sizeof *best);
            }
        }
        l->method = "force";
    }
    free(order), free(parent), free(depth), free(u), free(best);
    cb_net_csr_free(&g);
    if (rc != 0) {
        cb_net_layout_free(l);
        return cb_fail(err, CB_ERR_NOMEM, "layout: out of memory");
    }
    /* nodes no bigger than 0.4 of the closest distance between two nodes */
    double closest = INFINITY;
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++)
            closest = fmin(closest, hypot(l->xy[2 * i] - l->xy[2 * j],
                                          l->xy[2 * i + 1] - l->xy[2 * j + 1]));
    l->node_radius = fmax(1.6, fmin(l->node_radius, 0.4 * closest));
    l->crossings = cb_net_crossings(net, l->xy);
    *out = l;
    return CB_OK;
}
