/* The models' geometric versions: nodes placed on the page, links taken
 * from a Delaunay triangulation of them (so the drawing has no crossings),
 * paths and cycles as a crossing-free tour. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/geom.h"
#include "base/rng.h"
#include "base/unionfind.h"
#include "net/netmodels.h"
#include "planar/delaunay.h"

/* N points in distinct cells of a grid over the W x H box, jittered inside
 * their cell, numbered row by row (so nearby numbers are near each other). */
static int place_points(double *xy, uint32_t n, double w, double h, cb_rng *rng)
{
    uint32_t cols = (uint32_t)fmax(1, ceil(sqrt((double)n * w / h)));
    uint32_t rows = (n + cols - 1) / cols;
    uint32_t cells = cols * rows;
    uint32_t *cell = malloc((size_t)cells * sizeof *cell);
    uint8_t *used = calloc(cells, 1);
    if (!cell || !used) {
        free(cell);
        free(used);
        return -1;
    }
    for (uint32_t i = 0; i < cells; i++)
        cell[i] = i;
    cb_rng_shuffle(rng, cell, cells);
    for (uint32_t i = 0; i < n; i++)
        used[cell[i]] = 1;
    double cw = w / cols, ch = h / rows;
    uint32_t k = 0;
    for (uint32_t c = 0; c < cells; c++) {
        if (!used[c])
            continue;
        double jx = 0.7 * (cb_rng_uniform(rng) - 0.5), jy = 0.7 * (cb_rng_uniform(rng) - 0.5);
        xy[2 * k] = ((c % cols) + 0.5 + jx) * cw;
        xy[2 * k + 1] = ((c / cols) + 0.5 + jy) * ch;
        k++;
    }
    free(cell);
    free(used);
    return 0;
}

static double dist_xy(const double *xy, uint32_t a, uint32_t b)
{
    return hypot(xy[2 * a] - xy[2 * b], xy[2 * a + 1] - xy[2 * b + 1]);
}

/* A closed tour through every point without self-crossings: nearest
 * neighbour from point 0, then 2-opt moves while any shortens the tour.
 * Two crossing tour edges are always a shortening move, so the result has
 * none. */
static int tour(const double *xy, uint32_t n, uint32_t *t)
{
    uint8_t *seen = calloc(n, 1);
    if (!seen)
        return -1;
    t[0] = 0;
    seen[0] = 1;
    for (uint32_t i = 1; i < n; i++) {
        uint32_t best = 0;
        double bd = INFINITY;
        for (uint32_t v = 0; v < n; v++)
            if (!seen[v] && dist_xy(xy, t[i - 1], v) < bd)
                bd = dist_xy(xy, t[i - 1], v), best = v;
        t[i] = best;
        seen[best] = 1;
    }
    free(seen);
    for (int improved = 1; improved;) {
        improved = 0;
        for (uint32_t i = 0; i + 2 < n; i++)
            for (uint32_t j = i + 2; j < n; j++) {
                uint32_t a = t[i], b = t[i + 1], c = t[j], d = t[(j + 1) % n];
                if (d == a)
                    continue;
                double delta = dist_xy(xy, a, c) + dist_xy(xy, b, d) - dist_xy(xy, a, b) -
                               dist_xy(xy, c, d);
                if (delta < -1e-12) {
                    for (uint32_t x = i + 1, y = j; x < y; x++, y--) {
                        uint32_t tmp = t[x];
                        t[x] = t[y];
                        t[y] = tmp;
                    }
                    improved = 1;
                }
            }
    }
    return 0;
}

typedef struct {
    cb_edge *e;       /* triangulation links, sorted */
    size_t m;
    cb_net_csr g;     /* triangulation adjacency */
} dt_links;

static int dt_links_build(dt_links *d, const double *xy, uint32_t n, double clear)
{
    cb_delaunay dt = {0};
    memset(d, 0, sizeof *d);
    if (cb_delaunay_build(&dt, xy, n) != 0)
        return -1;
    size_t he = 3 * dt.n_triangles;
    d->e = malloc((he + 1) * sizeof *d->e);
    if (!d->e) {
        cb_delaunay_free(&dt);
        return -1;
    }
    for (uint32_t e = 0; e < he; e++)
        if (dt.halfedges[e] == CB_DT_NONE || e > dt.halfedges[e]) {
            uint32_t a = dt.triangles[e], b = dt.triangles[cb_dt_next(e)];
            d->e[d->m].a = a < b ? a : b;
            d->e[d->m++].b = a < b ? b : a;
        }
    cb_delaunay_free(&dt);
    /* Links of flat hull triangles can graze a third node: leave out links
     * closer than CLEAR to another node, unless that would disconnect. */
    uint8_t *graze = calloc(d->m + 1, 1);
    uint32_t *parent = malloc(n * sizeof *parent);
    if (!graze || !parent) {
        free(graze), free(parent), free(d->e);
        return -1;
    }
    for (size_t i = 0; i < d->m; i++) {
        cb_point a = {xy[2 * d->e[i].a], xy[2 * d->e[i].a + 1]};
        cb_point b = {xy[2 * d->e[i].b], xy[2 * d->e[i].b + 1]};
        for (uint32_t v = 0; v < n && !graze[i]; v++) {
            cb_point c = {xy[2 * v], xy[2 * v + 1]};
            graze[i] = v != d->e[i].a && v != d->e[i].b && cb_point_segment_dist(c, a, b) < clear;
        }
    }
    for (uint32_t v = 0; v < n; v++)
        parent[v] = v;
    size_t parts = n;
    for (size_t i = 0; i < d->m; i++) {
        uint32_t ra = cb_uf_find(parent, d->e[i].a), rb = cb_uf_find(parent, d->e[i].b);
        if (!graze[i] && ra != rb)
            parent[ra] = rb, parts--;
    }
    if (parts == 1) {
        size_t k = 0;
        for (size_t i = 0; i < d->m; i++)
            if (!graze[i])
                d->e[k++] = d->e[i];
        d->m = k;
    }
    free(graze);
    free(parent);
    cb_network tmp = {.n = n, .n_edges = d->m, .edges = d->e};
    if (cb_net_sort_edges(d->e, d->m, n) != 0 || cb_net_csr_build(&d->g, &tmp) != 0) {
        free(d->e);
        return -1;
    }
    return 0;
}

static void dt_links_free(dt_links *d)
{
    free(d->e);
    cb_net_csr_free(&d->g);
}

/* Triangulation links shortest first (ties by index) kept while both ends
 * have fewer than K: as regular as the flat map allows. */
static int geo_regular(elist *l, const dt_links *d, const double *xy, uint32_t n, uint32_t k)
{
    size_t *order = malloc((d->m + 1) * sizeof *order);
    double *len = malloc((d->m + 1) * sizeof *len);
    uint32_t *deg = calloc(n, sizeof *deg);
    if (!order || !len || !deg) {
        free(order);
        free(len);
        free(deg);
        return -1;
    }
    for (size_t i = 0; i < d->m; i++) {
        order[i] = i;
        len[i] = dist_xy(xy, d->e[i].a, d->e[i].b);
    }
    /* insertion sort is plenty for a printed map (n <= 400) */
    for (size_t i = 1; i < d->m; i++) {
        size_t x = order[i], j = i;
        while (j > 0 && (len[order[j - 1]] > len[x] ||
                         (len[order[j - 1]] == len[x] && order[j - 1] > x))) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = x;
    }
    for (size_t i = 0; i < d->m; i++) {
        cb_edge e = d->e[order[i]];
        if (deg[e.a] < k && deg[e.b] < k) {
            el_add(l, e.a, e.b);
            deg[e.a]++;
            deg[e.b]++;
        }
    }
    free(order);
    free(len);
    free(deg);
    return l->oom ? -1 : 0;
}

/* A random spanning tree of the triangulation (Kruskal in a random order),
 * then the other triangulation links kept with probability p, or in a random
 * order up to LINKS in all. */
static int geo_random(elist *l, const dt_links *d, uint32_t n, long links, double p,
                      cb_rng *rng)
{
    uint32_t *order = malloc((d->m + 1) * sizeof *order), *parent = malloc(n * sizeof *parent);
    uint8_t *in = calloc(d->m + 1, 1);
    if (!order || !parent || !in) {
        free(order);
        free(parent);
        free(in);
        return -1;
    }
    for (uint32_t i = 0; i < d->m; i++)
        order[i] = i;
    for (uint32_t v = 0; v < n; v++)
        parent[v] = v;
    cb_rng_shuffle(rng, order, d->m);
    for (size_t i = 0; i < d->m; i++) {
        cb_edge e = d->e[order[i]];
        uint32_t ra = cb_uf_find(parent, e.a), rb = cb_uf_find(parent, e.b);
        if (ra != rb) {
            parent[ra] = rb;
            in[order[i]] = 1;
            el_add(l, e.a, e.b);
        }
    }
    for (size_t i = 0; i < d->m; i++) {
        if (in[order[i]])
            continue;
        int keep = links >= 0 ? l->n < (size_t)links : cb_rng_uniform(rng) < p;
        if (keep)
            el_add(l, d->e[order[i]].a, d->e[order[i]].b);
    }
    free(order);
    free(parent);
    free(in);
    return l->oom ? -1 : 0;
}

/* Watts-Strogatz on the triangulation: the geometric k-lattice, then each
 * link's far end moves with probability p to a triangulation neighbour of
 * its near end that is not linked to it yet. */
static int geo_small_world(elist *l, const dt_links *d, const double *xy, uint32_t n,
                           uint32_t k, double p, cb_rng *rng)
{
    if (geo_regular(l, d, xy, n, k) != 0)
        return -1;
    eset s;
    uint32_t *cand = malloc(n * sizeof *cand);
    if (!cand || es_init(&s, 2 * l->n) != 0) {
        free(cand);
        return -1;
    }
    for (size_t i = 0; i < l->n; i++)
        es_add(&s, l->e[i].a, l->e[i].b);
    for (size_t i = 0; i < l->n; i++) {
        if (!(cb_rng_uniform(rng) < p))
            continue;
        int flip = (int)(cb_rng_next(rng) >> 63);
        uint32_t u = flip ? l->e[i].b : l->e[i].a, v = flip ? l->e[i].a : l->e[i].b;
        size_t nc = 0;
        for (uint32_t j = d->g.start[u]; j < d->g.start[u + 1]; j++)
            if (d->g.adj[j] != v && !es_has(&s, u, d->g.adj[j]))
                cand[nc++] = d->g.adj[j];
        if (nc == 0)
            continue;
        uint32_t w = cand[cb_rng_below(rng, nc)];
        es_del(&s, u, v);
        es_add(&s, u, w);
        l->e[i].a = u < w ? u : w;
        l->e[i].b = u < w ? w : u;
    }
    free(cand);
    free(s.k);
    return 0;
}

/* Preferential attachment on the triangulation: nodes join in a random
 * growth order (each next node a random triangulation neighbour of the
 * nodes already in), and each links to up to M of its neighbours already in,
 * chosen one by one with probability proportional to degree (at least 1). */
static int geo_scale_free(elist *l, const dt_links *d, uint32_t n, uint32_t m, cb_rng *rng)
{
    uint8_t *state = calloc(n, 1); /* 0 out, 1 in the frontier, 2 in */
    uint32_t *front = malloc(n * sizeof *front), *deg = calloc(n, sizeof *deg);
    uint32_t *cand = malloc(n * sizeof *cand);
    if (!state || !front || !deg || !cand) {
        free(state);
        free(front);
        free(deg);
        free(cand);
        return -1;
    }
    size_t nf = 0;
    front[nf++] = (uint32_t)cb_rng_below(rng, n);
    state[front[0]] = 1;
    while (nf) {
        size_t pick = (size_t)cb_rng_below(rng, nf);
        uint32_t v = front[pick];
        front[pick] = front[--nf];
        state[v] = 2;
        size_t nc = 0;
        for (uint32_t j = d->g.start[v]; j < d->g.start[v + 1]; j++) {
            uint32_t w = d->g.adj[j];
            if (state[w] == 2)
                cand[nc++] = w;
            else if (state[w] == 0) {
                state[w] = 1;
                front[nf++] = w;
            }
        }
        for (uint32_t t = 0; t < m && nc; t++) {
            double total = 0;
            for (size_t i = 0; i < nc; i++)
                total += deg[cand[i]] ? deg[cand[i]] : 1;
            double x = cb_rng_uniform(rng) * total;
            size_t i = 0;
            for (; i + 1 < nc; i++) {
                x -= deg[cand[i]] ? deg[cand[i]] : 1;
                if (x < 0)
                    break;
            }
            uint32_t w = cand[i];
            cand[i] = cand[--nc];
            el_add(l, v, w);
            deg[v]++;
            deg[w]++;
        }
    }
    free(state);
    free(front);
    free(deg);
    free(cand);
    return l->oom ? -1 : 0;
}

int cb_net_build_geometric(elist *l, const cb_net_spec *s, const params *q, double *xy,
                           cb_rng *rng)
{
    uint32_t n = (uint32_t)q->n;
    if (place_points(xy, n, s->width, s->height, rng) != 0)
        return -1;
    if (s->model == CB_NET_LINEAR || s->model == CB_NET_RING) {
        uint32_t *t = malloc(n * sizeof *t);
        if (!t || tour(xy, n, t) != 0) {
            free(t);
            return -1;
        }
        if (s->model == CB_NET_RING) {
            for (uint32_t i = 0; i < n; i++)
                el_add(l, t[i], t[(i + 1) % n]);
        } else { /* the tour without its longest link */
            uint32_t cut = 0;
            for (uint32_t i = 1; i < n; i++)
                if (dist_xy(xy, t[i], t[(i + 1) % n]) > dist_xy(xy, t[cut], t[(cut + 1) % n]))
                    cut = i;
            for (uint32_t i = 1; i < n; i++)
                el_add(l, t[(cut + i) % n], t[(cut + i + 1) % n]);
        }
        free(t);
        return l->oom ? -1 : 0;
    }
    dt_links d;
    if (dt_links_build(&d, xy, n, 0.3 * sqrt(s->width * s->height / n)) != 0)
        return -1;
    int rc = 0;
    switch (s->model) {
    case CB_NET_COMPLETE:
        for (size_t i = 0; i < d.m; i++)
            el_add(l, d.e[i].a, d.e[i].b);
        break;
    case CB_NET_REGULAR:
        rc = geo_regular(l, &d, xy, n, (uint32_t)q->k);
        break;
    case CB_NET_RANDOM:
    case CB_NET_ANCHORED:
        rc = geo_random(l, &d, n, q->links, q->p, rng);
        break;
    case CB_NET_SMALL_WORLD:
        rc = geo_small_world(l, &d, xy, n, (uint32_t)q->k, q->p, rng);
        break;
    case CB_NET_SCALE_FREE:
        rc = geo_scale_free(l, &d, n, (uint32_t)q->m, rng);
        break;
    default:
        break;
    }
    dt_links_free(&d);
    return rc || l->oom ? -1 : 0;
}
