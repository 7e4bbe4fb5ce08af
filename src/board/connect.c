/* Step 2: connect the nodes.
 *
 * Every edge is an edge of the Delaunay triangulation, so no two edges can
 * cross. Edges that run along the trim line, are long, or pass too close to
 * a third node are filtered out first. On that graph: a minimum spanning tree
 * (Kruskal; the Euclidean MST is a subgraph of the triangulation), fill edges
 * to each node's nearest unconnected neighbour under the degree caps, the
 * centre's edges, and finally edges that close bridges, so that no single
 * cut separates a part of the board from the centre.
 *
 * Start candidates (edge nodes where a start may go) stay out of this core
 * graph; cb_starts_choose attaches them afterwards. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "base/board_geometry.h"
#include "base/unionfind.h"
#include "planar/delaunay.h"
#include "base/grid.h"
#include "board/work.h"

#define MAX_EDGE_SPACINGS 2.2  /* longest edge, in node spacings */
#define EDGE_CLEARANCE_MM 1.2  /* gap between an edge and a foreign node */
#define FILL_RATIO 0.5
#define START_BAND 0.08        /* starts stay this fraction away from corners */
#define CENTER_MAX_DEG 8
#define MAX_RESERVED 1         /* slots a core node keeps for edge nodes */
/* Where a box test stands in for an exact distance, the box is this much
 * larger, so that rounding in either can never make them disagree. */
#define ROUNDING_SLACK_MM 1e-3

/* Position along the side, 0..1, and the side's length. */
static double side_fraction(const cb_work *w, uint32_t v, cb_side side)
{
    cb_point p = w->p[v];
    if (side == CB_SIDE_TOP || side == CB_SIDE_BOTTOM)
        return (p.x - w->bx) / w->bw;
    return (p.y - w->by) / w->bh;
}

/* An edge under test: its ends, direction and length. */
typedef struct {
    cb_point a, b;
    double ux, uy, len;
} segment;

/* How far (x, y) lies to the left of the line through s, times s's length. */
static double left_of(const segment *s, double x, double y)
{
    return s->ux * (y - s->a.y) - s->uy * (x - s->a.x);
}

/* The rectangle [x0,x1]x[y0,y1] is certainly further than FAR from the
 * segment: their boxes are, or all four corners are on one side of its
 * line. Much cheaper than the distance itself. */
static int rect_far(const segment *s, double x0, double y0, double x1, double y1,
                    double far)
{
    cb_point a = s->a, b = s->b;
    if (x0 - (a.x > b.x ? a.x : b.x) > far || (a.x < b.x ? a.x : b.x) - x1 > far ||
        y0 - (a.y > b.y ? a.y : b.y) > far || (a.y < b.y ? a.y : b.y) - y1 > far)
        return 1;
    double reach = far * s->len;
    double l00 = left_of(s, x0, y0), l10 = left_of(s, x1, y0);
    double l01 = left_of(s, x0, y1), l11 = left_of(s, x1, y1);
    return (l00 > reach && l10 > reach && l01 > reach && l11 > reach) ||
           (l00 < -reach && l10 < -reach && l01 < -reach && l11 < -reach);
}

/* Some point of node v's shape (a disk, or a start's rectangle for start
 * candidates) is closer than EDGE_CLEARANCE_MM to the segment. The cheap
 * tests first: few nodes near an edge are anywhere near this close. */
static int node_near_edge(const cb_work *w, uint32_t v, const segment *s)
{
    if (w->role[v] == CB_ROLE_CANDIDATE) {
        double x0, y0, x1, y1;
        cb_work_start_rect(w, v, cb_side_of_mask(w->sides[v]), &x0, &y0, &x1, &y1);
        if (rect_far(s, x0, y0, x1, y1, EDGE_CLEARANCE_MM + ROUNDING_SLACK_MM))
            return 0;
        return cb_segment_rect_dist(s->a, s->b, x0, y0, x1, y1) < EDGE_CLEARANCE_MM;
    }
    cb_point q = w->p[v];
    if (fabs(left_of(s, q.x, q.y)) > (w->r + EDGE_CLEARANCE_MM + ROUNDING_SLACK_MM) * s->len)
        return 0;
    return cb_point_segment_dist(q, s->a, s->b) - w->r < EDGE_CLEARANCE_MM;
}

/* Marks edge nodes in the middle of a side whose start rectangle keeps clear
 * of every other node as start candidates. */
static void mark_candidates(cb_work *w, const cb_grid *g)
{
    double gap = w->r + CB_NODE_GAP_MM;
    for (uint32_t v = 0; v < w->n; v++) {
        if (!w->sides[v]) /* inside: most nodes */
            continue;
        cb_side side = cb_side_of_mask(w->sides[v]);
        if (side == CB_SIDE_NONE || v == w->center)
            continue;
        double f = side_fraction(w, v, side);
        if (f < START_BAND || f > 1 - START_BAND)
            continue;
        double x0, y0, x1, y1;
        cb_work_start_rect(w, v, side, &x0, &y0, &x1, &y1);
        /* A node centre outside the rectangle grown by the gap is at least
         * the gap away along one axis, so only these need the distance. */
        double grow = gap + ROUNDING_SLACK_MM;
        double lx = x0 - grow, ly = y0 - grow, hx = x1 + grow, hy = y1 + grow;
        int clear = 1;
        uint32_t c0, r0, c1, r1;
        cb_grid_box(g, lx, ly, hx, hy, &c0, &r0, &c1, &r1);
        for (uint32_t r = r0; r <= r1 && clear; r++) {
            uint32_t k, end;
            cb_grid_row(g, r, c0, c1, &k, &end);
            for (; k < end && clear; k++) {
                uint32_t u = g->items[k];
                cb_point q = w->p[u];
                if (q.x < lx || q.x > hx || q.y < ly || q.y > hy || u == v)
                    continue;
                clear = !(cb_point_rect_dist(q, x0, y0, x1, y1) < gap);
            }
        }
        if (clear)
            w->role[v] = CB_ROLE_CANDIDATE;
    }
}

/* No node but a and b comes closer than EDGE_CLEARANCE_MM to the edge s
 * between them. NEAR: room for n node ids. */
static int edge_clear(const cb_work *w, const cb_grid *g, uint32_t a, uint32_t b,
                      const segment *s, uint32_t *near)
{
    cb_point pa = s->a, pb = s->b;
    /* A node's shape lies within this of its centre along either axis:
     * nodes further than it from the edge's box cannot come near the edge. */
    double shape = CB_START_DEPTH * w->r + EDGE_CLEARANCE_MM;
    double xlo = (pa.x < pb.x ? pa.x : pb.x) - shape, xhi = (pa.x < pb.x ? pb.x : pa.x) + shape;
    double ylo = (pa.y < pb.y ? pa.y : pb.y) - shape, yhi = (pa.y < pb.y ? pb.y : pa.y) + shape;
    /* node_near_edge's first test for a disk, here for every node. */
    double disk_far = (w->r + EDGE_CLEARANCE_MM + ROUNDING_SLACK_MM) * s->len;
    uint32_t c0, r0, c1, r1;
    cb_grid_box(g, xlo, ylo, xhi, yhi, &c0, &r0, &c1, &r1);
    /* The nodes that may come near, picked out without a branch (whether
     * each does is hard to predict), then tested in the same order. */
    size_t nn = 0;
    for (uint32_t r = r0; r <= r1; r++) {
        uint32_t k, end;
        cb_grid_row(g, r, c0, c1, &k, &end);
        for (; k < end; k++) {
            uint32_t v = g->items[k];
            cb_point q = w->p[v];
            int out = (q.x < xlo) | (q.x > xhi) | (q.y < ylo) | (q.y > yhi) | (v == a) | (v == b);
            int disk_clear = (w->role[v] != CB_ROLE_CANDIDATE) &
                             (fabs(left_of(s, q.x, q.y)) > disk_far);
            near[nn] = v;
            nn += (size_t)((out | disk_clear) == 0);
        }
    }
    for (size_t i = 0; i < nn; i++)
        if (node_near_edge(w, near[i], s))
            return 0;
    return 1;
}

/* An edge with its length; ab = a << 32 | b breaks ties in one compare. */
typedef struct {
    double len;
    uint64_t ab;
} sized_edge;

static int sized_less(const sized_edge *x, const sized_edge *y)
{
    return x->len < y->len || (x->len == y->len && x->ab < y->ab);
}

/* Sorts the K edges es, none longer than LONGEST, by (length, a, b) into
 * out, with count[0..k] as scratch: a counting sort into K buckets that
 * split [0, longest] evenly (the bucket grows with the length, so buckets
 * come in length order), then an insertion sort that has only each
 * bucket's few edges to order. Linear on average, unlike a merge sort. */
static void sort_sized(const sized_edge *es, size_t k, double longest, uint32_t *count,
                       sized_edge *out)
{
    double scale = (double)k / longest;
    memset(count, 0, (k + 1) * sizeof *count);
    for (size_t i = 0; i < k; i++) {
        size_t b = (size_t)(es[i].len * scale);
        count[(b < k ? b : k - 1) + 1]++;
    }
    for (size_t b = 0; b < k; b++)
        count[b + 1] += count[b];
    for (size_t i = 0; i < k; i++) {
        size_t b = (size_t)(es[i].len * scale);
        out[count[b < k ? b : k - 1]++] = es[i];
    }
    for (size_t i = 1; i < k; i++) {
        sized_edge v = out[i];
        size_t j = i;
        for (; j > 0 && sized_less(&v, &out[j - 1]); j--)
            out[j] = out[j - 1];
        out[j] = v;
    }
}

/* Scratch of 11 n words, kept in the work for the next try. */
static uint32_t *scratch_of(cb_work *w)
{
    if (!w->scratch)
        w->scratch = malloc(11 * (w->n ? w->n : 1) * sizeof *w->scratch);
    return w->scratch;
}

/* Room for a piece of paper of CB_MIN_PIECE_MM2 (the scissors clause), with
 * a little to spare for the board file's 0.01 mm. */
#define SCISSORS_SPARE_MM2 2.0

/* Marks in SMALL (a bit per half-edge of DT) one edge of every triangle
 * too small to be a piece of paper, its longest that does not run along the
 * trim line, and its twin: with it left out, no piece can be that triangle
 * alone. */
static void mark_small_triangles(const cb_work *w, const cb_delaunay *dt, uint8_t *small)
{
    for (size_t t = 0; t < dt->n_triangles; t++) {
        uint32_t v[3];
        for (int k = 0; k < 3; k++)
            v[k] = dt->triangles[3 * t + (size_t)k];
        cb_point p0 = w->p[v[0]], p1 = w->p[v[1]], p2 = w->p[v[2]];
        double area = fabs((p1.x - p0.x) * (p2.y - p0.y) - (p2.x - p0.x) * (p1.y - p0.y)) / 2;
        if (area >= CB_MIN_PIECE_MM2 + SCISSORS_SPARE_MM2)
            continue;
        double longest = -1;
        uint32_t pick = CB_DT_NONE;
        for (int k = 0; k < 3; k++) {
            uint32_t a = v[k], b = v[(k + 1) % 3];
            if (w->sides[a] & w->sides[b])
                continue; /* the trim line, not an edge */
            double len = cb_dist(w->p[a], w->p[b]);
            if (len > longest) {
                longest = len;
                pick = (uint32_t)(3 * t + (size_t)k);
            }
        }
        if (pick == CB_DT_NONE)
            continue;
        small[pick / 8] = (uint8_t)(small[pick / 8] | 1u << pick % 8);
        uint32_t twin = dt->halfedges[pick];
        if (twin != CB_DT_NONE)
            small[twin / 8] = (uint8_t)(small[twin / 8] | 1u << twin % 8);
    }
}

/* The usable triangulation edges, shortest first. */
static int candidate_edges(cb_work *w, const cb_grid *g)
{
    double *xy = malloc(2 * w->n * sizeof *xy);
    if (!xy)
        return -1;
    for (size_t i = 0; i < w->n; i++) {
        xy[2 * i] = w->p[i].x;
        xy[2 * i + 1] = w->p[i].y;
    }
    cb_delaunay dt;
    int rc = cb_delaunay_build(&dt, xy, w->n);
    free(xy);
    if (rc != 0)
        return -1;
    /* At most m edges, then their sorted copy; the sort's count takes
     * edges + 1 < 3 n words of the scratch. */
    size_t m = 3 * dt.n_triangles;
    sized_edge *es = malloc((m ? 2 * m : 1) * sizeof *es);
    uint32_t *count = scratch_of(w);
    uint32_t *near = count ? count + 3 * w->n : NULL; /* for edge_clear, past the count */
    int scissors = w->r >= CB_DOT_MIN_NODE_RADIUS_MM;
    uint8_t *small = scissors ? calloc(m / 8 + 1, 1) : NULL;
    if (!es || !count || (scissors && !small)) {
        free(es);
        free(small);
        cb_delaunay_free(&dt);
        return -1;
    }
    if (small)
        mark_small_triangles(w, &dt, small);
    size_t k = 0;
    double longest = MAX_EDGE_SPACINGS * w->d;
    /* Each edge once (from its first half-edge), none along the trim line:
     * picked out without a branch (which half-edge comes first is a coin
     * toss), into the end of es, then tried in order. */
    uint32_t *half = (uint32_t *)(es + m);
    size_t nh = 0;
    for (size_t e = 0; e < m; e++) {
        uint32_t twin = dt.halfedges[e];
        uint32_t a = dt.triangles[e], b = dt.triangles[cb_dt_next((uint32_t)e)];
        half[nh] = (uint32_t)e;
        nh += (size_t)(((twin == CB_DT_NONE) | (twin > e)) & ((w->sides[a] & w->sides[b]) == 0));
    }
    for (size_t h = 0; h < nh; h++) {
        size_t e = half[h];
        uint32_t a = dt.triangles[e], b = dt.triangles[cb_dt_next((uint32_t)e)];
        if (a > b) { uint32_t t = a; a = b; b = t; }
        cb_point pa = w->p[a], pb = w->p[b];
        segment s = {pa, pb, pb.x - pa.x, pb.y - pa.y, 0};
        s.len = sqrt(s.ux * s.ux + s.uy * s.uy); /* cb_dist(pa, pb), bit for bit */
        if (s.len > longest || !edge_clear(w, g, a, b, &s, near))
            continue;
        if (small && ((small[e / 8] >> e % 8 & 1) || !cb_work_shows(w, a, b, CB_SIDE_NONE)))
            continue;
        es[k].len = s.len;
        es[k++].ab = (uint64_t)a << 32 | b;
    }
    cb_delaunay_free(&dt);
    free(small);
    sized_edge *sorted = es + m;
    sort_sized(es, k, longest, count, sorted);
    w->cand = malloc((k ? k : 1) * sizeof *w->cand);
    if (!w->cand) {
        free(es);
        return -1;
    }
    for (size_t i = 0; i < k; i++) {
        w->cand[i].a = (uint32_t)(sorted[i].ab >> 32);
        w->cand[i].b = (uint32_t)sorted[i].ab;
    }
    w->n_cand = k;
    free(es);
    return 0;
}

static int is_core(const cb_work *w, uint32_t v)
{
    return w->role[v] == CB_ROLE_CORE;
}

/* In the graph built so far: the core, and the starts once chosen (while
 * the core is built there are none, so this is is_core then). */
static int in_graph(const cb_work *w, uint32_t v)
{
    return w->role[v] == CB_ROLE_CORE || w->role[v] == CB_ROLE_START;
}

static int full(const cb_work *w, uint32_t v)
{
    return v != w->center && w->deg[v] >= w->node_cap;
}

/* Kruskal over the core's candidate edges, within the degree cap (a
 * Euclidean minimum spanning tree can give a node 5 or 6 edges): a second
 * pass joins what the cap kept apart, and the candidate then fails. -1 if
 * the core is not connected or a node is over the cap. */
static int spanning_tree(cb_work *w, uint32_t *parent)
{
    size_t core = 0, joined = 0;
    for (uint32_t v = 0; v < w->n; v++) {
        parent[v] = v;
        core += (size_t)is_core(w, v);
    }
    /* Each pass stops once the tree spans the core: no later edge joins. */
    for (int pass = 0; pass < 2 && joined + 1 < core; pass++)
        for (size_t i = 0; i < w->n_cand && joined + 1 < core; i++) {
            cb_edge e = w->cand[i];
            if (!is_core(w, e.a) || !is_core(w, e.b) ||
                (pass == 0 && (full(w, e.a) || full(w, e.b))))
                continue;
            uint32_t ra = cb_uf_find(parent, e.a), rb = cb_uf_find(parent, e.b);
            if (ra == rb)
                continue;
            parent[ra] = rb;
            cb_work_add_edge(w, e.a, e.b);
            joined++;
        }
    if (joined + 1 != core) {
        w->failure = CB_FAIL_DISCONNECTED;
        return -1;
    }
    for (uint32_t v = 0; v < w->n; v++)
        if (is_core(w, v) && w->deg[v] > w->node_cap && v != w->center) {
            w->failure = CB_FAIL_DEGREE_CAP;
            return -1;
        }
    return 0;
}

/* The seed's "random fill tree": visit nodes in random order, connect each to
 * its nearest candidate neighbour it is not yet connected to, until enough
 * edges are added. Candidate edges are sorted by length, so the first usable
 * one per node is its nearest. */
static void fill_edges(cb_work *w, cb_rng *rng, uint32_t *order)
{
    size_t core = 0;
    for (uint32_t v = 0; v < w->n; v++)
        if (is_core(w, v))
            order[core++] = v;
    cb_rng_shuffle(rng, order, core);
    size_t want = (size_t)(FILL_RATIO * (double)core), added = 0;
    int progress = 1;
    while (added < want && progress) {
        progress = 0;
        for (size_t i = 0; i < core && added < want; i++) {
            uint32_t v = order[i];
            if (v == w->center || cb_work_room(w, v) <= 0)
                continue;
            for (uint32_t k = w->cand_off[v]; k < w->cand_off[v + 1]; k++) {
                uint32_t u = w->cand_nbr[k];
                if (!is_core(w, u) || u == w->center || cb_work_room(w, u) <= 0 ||
                    cb_work_has_edge(w, v, u))
                    continue;
                cb_work_add_edge(w, v, u);
                added++;
                progress = 1;
                break;
            }
        }
    }
}

static void center_edges(cb_work *w)
{
    for (uint32_t k = w->cand_off[w->center]; k < w->cand_off[w->center + 1]; k++) {
        uint32_t u = w->cand_nbr[k];
        if (w->deg[w->center] >= CENTER_MAX_DEG)
            break;
        if (is_core(w, u) && cb_work_room(w, u) > 0 && !cb_work_has_edge(w, u, w->center))
            cb_work_add_edge(w, w->center, u);
    }
}

/* Two-edge-connected components of the core graph: comp[v], plus for each
 * component its parent in the bridge tree rooted at the centre, and depth. */
typedef struct {
    uint32_t *comp, *tparent, *depth;
    uint32_t n_comp;
} bridge_tree;

static int build_bridge_tree(cb_work *w, bridge_tree *bt, uint32_t *scratch)
{
    size_t n = w->n;
    uint32_t *disc = scratch, *low = scratch + n, *parent = scratch + 2 * n;
    uint32_t *iter = scratch + 3 * n, *order = scratch + 4 * n; /* discovery order */
    const uint32_t NONE = UINT32_MAX;
    for (size_t v = 0; v < n; v++) {
        disc[v] = NONE;
        bt->comp[v] = NONE;
    }
    /* Iterative Tarjan from the centre: a tree edge p-c is a bridge when
     * low[c] > disc[p]. Nodes are numbered in discovery order. The parent
     * links are the DFS stack; the node being scanned keeps its parent,
     * low and next neighbour in locals (stored while a child is scanned).
     * Locals too for the arrays: the stores to the uint32_t arrays could
     * otherwise alias the uint8_t degrees and roles. */
    const uint8_t *deg = w->deg, *role = w->role;
    const uint32_t *adj = w->adj;
    uint32_t time = 0, v = w->center, pv = NONE, lv = 0, i = 0;
    order[time] = v;
    disc[v] = time++;
    parent[v] = NONE;
    for (;;) {
        /* Scan v's neighbours from i up to the first one not discovered. */
        const uint32_t *nv = adj + (size_t)v * CB_MAX_DEG;
        uint32_t dv = deg[v];
        for (; i < dv; i++) {
            uint32_t u = nv[i];
            if ((role[u] != CB_ROLE_CORE && role[u] != CB_ROLE_START) || u == pv)
                continue;
            if (disc[u] == NONE)
                break;
            if (disc[u] < lv)
                lv = disc[u];
        }
        if (i < dv) { /* down to that child */
            uint32_t u = nv[i];
            iter[v] = i + 1;
            low[v] = lv;
            parent[u] = v;
            order[time] = u;
            disc[u] = lv = time++;
            pv = v;
            v = u;
            i = 0;
            continue;
        }
        low[v] = lv;
        if (pv == NONE)
            break;
        /* Back up to the parent, which takes the child's low if lower. */
        uint32_t child_low = lv;
        v = pv;
        pv = parent[v];
        lv = low[v] < child_low ? low[v] : child_low;
        i = iter[v];
    }
    /* Components in discovery order: a node starts a new component when the
     * edge from its parent is a bridge; otherwise it joins its parent's. */
    bt->n_comp = 0;
    for (uint32_t k = 0; k < time; k++) {
        uint32_t x = order[k], p = parent[x];
        if (p == NONE || low[x] > disc[p]) {
            uint32_t c = bt->n_comp++;
            bt->comp[x] = c;
            bt->tparent[c] = p == NONE ? c : bt->comp[p];
            bt->depth[c] = p == NONE ? 0 : bt->depth[bt->comp[p]] + 1;
        } else {
            bt->comp[x] = bt->comp[p];
        }
    }
    return 0;
}

/* Union-find over bridge-tree components; each set remembers its top-most
 * component so that adding an edge can merge the whole tree path at once. */
static uint32_t top_of(uint32_t *uf, const uint32_t *top, uint32_t c)
{
    return top[cb_uf_find(uf, c)];
}

static void close_bridges_in(cb_work *w, uint32_t *scratch)
{
    size_t n = w->n;
    bridge_tree bt;
    bt.comp = scratch + 6 * n;
    bt.tparent = scratch + 7 * n;
    bt.depth = scratch + 8 * n;
    uint32_t *uf = scratch + 9 * n, *top = scratch + 10 * n;
    build_bridge_tree(w, &bt, scratch);
    if (bt.n_comp <= 1)
        return;
    for (uint32_t c = 0; c < bt.n_comp; c++)
        uf[c] = top[c] = c;
    const uint32_t *comp = bt.comp;
    for (const cb_edge *c = w->cand, *end = c + w->n_cand; c < end; c++) {
        uint32_t ca = comp[c->a], cb = comp[c->b];
        if (ca == cb)
            continue; /* ends in one component (most edges): on a cycle already */
        cb_edge e = *c;
        if (ca == UINT32_MAX || cb == UINT32_MAX || !in_graph(w, e.a) || !in_graph(w, e.b))
            continue;
        uint32_t a = top_of(uf, top, ca), b = top_of(uf, top, cb);
        if (a == b || cb_work_room(w, e.a) <= 0 || cb_work_room(w, e.b) <= 0 ||
            cb_work_has_edge(w, e.a, e.b))
            continue;
        cb_work_add_edge(w, e.a, e.b);
        /* Every bridge on the tree path from a to b is now on a cycle. */
        while (a != b) {
            if (bt.depth[a] < bt.depth[b]) { uint32_t t = a; a = b; b = t; }
            uint32_t up = top_of(uf, top, bt.tparent[a]);
            uint32_t ra = cb_uf_find(uf, a), rp = cb_uf_find(uf, up);
            uf[ra] = rp;
            top[rp] = up;
            a = up;
        }
    }
}

int cb_connect_prepare(cb_work *w)
{
    cb_grid g;
    if (cb_grid_init(&g, w->bx, w->by, w->bw, w->bh, w->d, w->n) != 0) {
        w->failure = CB_FAIL_NOMEM;
        return -1;
    }
    cb_grid_fill(&g, w->p, w->n);
    mark_candidates(w, &g);
    int rc = candidate_edges(w, &g);
    cb_grid_free(&g);
    if (rc == 0)
        rc = cb_work_index_cand(w);
    if (rc == 0 && !w->marked)
        rc = (w->marked = malloc(w->n ? w->n : 1)) ? 0 : -1;
    if (rc != 0) {
        w->failure = CB_FAIL_NOMEM;
        return -1;
    }
    memcpy(w->marked, w->role, w->n);
    return 0;
}

int cb_connect_core(cb_work *w, cb_rng *rng)
{
    uint32_t *scratch = scratch_of(w);
    if (!scratch) {
        w->failure = CB_FAIL_NOMEM;
        return -1;
    }
    /* Keep slots free next to start candidates: starts and the edge nodes
     * not chosen need them once the core is built. One slot per candidate
     * edge between a candidate and a core node, up to MAX_RESERVED: the
     * candidates' own edge lists hold all such edges. */
    for (uint32_t c = 0; c < w->n; c++) {
        if (w->role[c] != CB_ROLE_CANDIDATE)
            continue;
        for (uint32_t k = w->cand_off[c]; k < w->cand_off[c + 1]; k++) {
            uint32_t u = w->cand_nbr[k];
            if (w->role[u] == CB_ROLE_CORE && w->reserved[u] < MAX_RESERVED)
                w->reserved[u]++;
        }
    }
    if (spanning_tree(w, scratch) != 0)
        return -1;
    fill_edges(w, rng, scratch);
    center_edges(w);
    close_bridges_in(w, scratch);
    cb_work_hops(w, scratch);
    return 0;
}

int cb_connect(cb_work *w, cb_rng *rng)
{
    if (cb_connect_prepare(w) != 0)
        return -1;
    return cb_connect_core(w, rng);
}

int cb_close_bridges(cb_work *w)
{
    uint32_t *scratch = scratch_of(w);
    if (!scratch) {
        w->failure = CB_FAIL_NOMEM;
        return -1;
    }
    close_bridges_in(w, scratch);
    return 0;
}
