/* The half-edge structure of a board and its paper (see halfedge.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "error.h"
#include "halfedge.h"

#define AREA_EPS_MM2 1e-6

typedef struct {
    double key;
    uint32_t id;
} keyed;

/* A total order: by key, then by id. */
static int cmp_keyed(const void *x, const void *y)
{
    const keyed *a = x, *b = y;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return (a->id > b->id) - (a->id < b->id);
}

typedef struct {
    uint32_t lo, hi, e;
} edge_key;

static int cmp_ends(const void *x, const void *y)
{
    const edge_key *a = x, *b = y;
    if (a->lo != b->lo)
        return a->lo < b->lo ? -1 : 1;
    return (a->hi > b->hi) - (a->hi < b->hi);
}

/* By ends, then by edge index: a total order. */
static int cmp_pair(const void *x, const void *y)
{
    int c = cmp_ends(x, y);
    if (c)
        return c;
    const edge_key *a = x, *b = y;
    return (a->e > b->e) - (a->e < b->e);
}

void cb_planar_free(cb_planar *p)
{
    free(p->xy);
    free(p->on_border);
    free(p->origin);
    free(p->next);
    free(p->face);
    free(p->out);
    free(p->out_start);
    free(p->vface);
    free(p->area);
    free(p->face_half);
    memset(p, 0, sizeof *p);
}

/* Where a point on the trim line sits along the perimeter, clockwise on
 * the page from the top-left corner; -1 when it is not on the trim line. */
static double perimeter_pos(const cb_board *b, cb_point q)
{
    const double eps = CB_PLANAR_EPS_MM;
    double x0 = b->board_x, y0 = b->board_y, w = b->board_w, h = b->board_h;
    if (fabs(q.y - y0) <= eps)
        return fmin(fmax(q.x - x0, 0), w);
    if (fabs(q.x - (x0 + w)) <= eps)
        return w + fmin(fmax(q.y - y0, 0), h);
    if (fabs(q.y - (y0 + h)) <= eps)
        return w + h + fmin(fmax(x0 + w - q.x, 0), w);
    if (fabs(q.x - x0) <= eps)
        return 2 * w + h + fmin(fmax(y0 + h - q.y, 0), h);
    return -1;
}

static uint32_t uf_find(uint32_t *parent, uint32_t v)
{
    while (parent[v] != v) {
        parent[v] = parent[parent[v]];
        v = parent[v];
    }
    return v;
}

/* Crossing-number test of Q against the cycle through half-edge H. */
static int cycle_contains(const cb_planar *p, uint32_t h, cb_point q)
{
    int inside = 0;
    uint32_t g = h;
    do {
        cb_point a = p->xy[p->origin[g]], c = p->xy[p->origin[g ^ 1u]];
        if ((a.y > q.y) != (c.y > q.y)) {
            double x = a.x + (q.y - a.y) * (c.x - a.x) / (c.y - a.y);
            if (q.x < x)
                inside = !inside;
        }
        g = p->next[g];
    } while (g != h);
    return inside;
}

/* The piece (a positive cycle of another component) that holds point Q,
 * the smallest if they nest; 0 when none does. */
static uint32_t locate(const cb_planar *p, cb_point q, uint32_t comp, const uint32_t *cyc_comp,
                       const uint32_t *cyc_face, const uint32_t *cyc_half, const double *cyc_area,
                       const double (*box)[4], size_t n_cycles)
{
    uint32_t best = 0;
    double best_area = INFINITY;
    for (size_t c = 0; c < n_cycles; c++) {
        if (cyc_face[c] == 0 || cyc_area[c] <= AREA_EPS_MM2 || cyc_comp[c] == comp ||
            cyc_area[c] >= best_area)
            continue;
        if (q.x < box[c][0] || q.x > box[c][2] || q.y < box[c][1] || q.y > box[c][3])
            continue;
        if (cycle_contains(p, cyc_half[c], q)) {
            best = cyc_face[c];
            best_area = cyc_area[c];
        }
    }
    return best;
}

static cb_status oom(cb_planar *p, cb_error *err)
{
    cb_planar_free(p);
    return cb_fail(err, CB_ERR_INTERNAL, "out of memory building the board's faces");
}

/* Faces: trace every cycle of next, then name the pieces and put each
 * hole (a cycle that is not a piece) into the piece around it. */
static cb_status trace_faces(cb_planar *p, const cb_board *b, uint32_t outside_half,
                             cb_error *err)
{
    size_t nh = p->n_half, nv = p->n_verts;
    uint32_t *cyc = malloc((nh ? nh : 1) * sizeof *cyc);
    uint32_t *cyc_half = malloc((nh ? nh : 1) * sizeof *cyc_half);
    double *cyc_area = malloc((nh ? nh : 1) * sizeof *cyc_area);
    uint32_t *cyc_face = malloc((nh ? nh : 1) * sizeof *cyc_face);
    uint32_t *cyc_comp = malloc((nh ? nh : 1) * sizeof *cyc_comp);
    double (*box)[4] = malloc((nh ? nh : 1) * sizeof *box);
    uint32_t *parent = malloc(nv * sizeof *parent);
    p->face = malloc((nh ? nh : 1) * sizeof *p->face);
    p->vface = malloc(nv * sizeof *p->vface);
    if (!cyc || !cyc_half || !cyc_area || !cyc_face || !cyc_comp || !box || !parent ||
        !p->face || !p->vface) {
        free(cyc); free(cyc_half); free(cyc_area); free(cyc_face); free(cyc_comp);
        free(box); free(parent);
        return oom(p, err);
    }
    /* Components of the drawing. */
    for (uint32_t v = 0; v < nv; v++)
        parent[v] = v;
    for (uint32_t h = 0; h < nh; h += 2) {
        uint32_t x = uf_find(parent, p->origin[h]), y = uf_find(parent, p->origin[h + 1]);
        if (x != y)
            parent[x > y ? x : y] = x < y ? x : y;
    }
    p->n_components = 0;
    for (uint32_t v = 0; v < nv; v++)
        p->n_components += uf_find(parent, v) == v;

    size_t n_cycles = 0;
    for (uint32_t h = 0; h < nh; h++)
        cyc[h] = UINT32_MAX;
    for (uint32_t h = 0; h < nh; h++) {
        if (cyc[h] != UINT32_MAX)
            continue;
        double twice = 0;
        double bx0 = INFINITY, by0 = INFINITY, bx1 = -INFINITY, by1 = -INFINITY;
        uint32_t g = h;
        do {
            cb_point a = p->xy[p->origin[g]], c = p->xy[p->origin[g ^ 1u]];
            twice += a.x * c.y - c.x * a.y;
            bx0 = fmin(bx0, a.x); by0 = fmin(by0, a.y);
            bx1 = fmax(bx1, a.x); by1 = fmax(by1, a.y);
            cyc[g] = (uint32_t)n_cycles;
            g = p->next[g];
        } while (g != h);
        cyc_half[n_cycles] = h;
        cyc_area[n_cycles] = twice / 2;
        cyc_comp[n_cycles] = uf_find(parent, p->origin[h]);
        box[n_cycles][0] = bx0; box[n_cycles][1] = by0;
        box[n_cycles][2] = bx1; box[n_cycles][3] = by1;
        n_cycles++;
    }
    /* Pieces: positive cycles, numbered in order of their first half-edge. */
    size_t faces = 1;
    for (size_t c = 0; c < n_cycles; c++)
        cyc_face[c] = c == cyc[outside_half] ? 0
                      : cyc_area[c] > AREA_EPS_MM2 ? (uint32_t)faces++ : UINT32_MAX;
    p->n_faces = faces;
    p->area = calloc(faces, sizeof *p->area);
    p->face_half = malloc(faces * sizeof *p->face_half);
    if (!p->area || !p->face_half) {
        free(cyc); free(cyc_half); free(cyc_area); free(cyc_face); free(cyc_comp);
        free(box); free(parent);
        return oom(p, err);
    }
    for (size_t c = 0; c < n_cycles; c++)
        if (cyc_face[c] != UINT32_MAX)
            p->face_half[cyc_face[c]] = cyc_half[c];
    /* Holes: the outer boundary of a component away from the border. */
    for (size_t c = 0; c < n_cycles; c++)
        if (cyc_face[c] == UINT32_MAX)
            cyc_face[c] = locate(p, p->xy[p->origin[cyc_half[c]]], cyc_comp[c], cyc_comp,
                                 cyc_face, cyc_half, cyc_area, (const double (*)[4])box,
                                 n_cycles);
    for (uint32_t h = 0; h < nh; h++)
        p->face[h] = cyc_face[cyc[h]];
    for (size_t c = 0; c < n_cycles; c++)
        if (cyc_face[c] != 0)
            p->area[cyc_face[c]] += cyc_area[c];
    for (uint32_t v = 0; v < nv; v++)
        p->vface[v] = p->out_start[v] == p->out_start[v + 1]
                      ? locate(p, p->xy[v], uf_find(parent, v), cyc_comp, cyc_face, cyc_half,
                               cyc_area, (const double (*)[4])box, n_cycles)
                      : UINT32_MAX;
    double paper = 0, trim = b->board_w * b->board_h;
    for (size_t f = 1; f < faces; f++)
        paper += p->area[f];
    long euler = (long)nv - (long)(nh / 2) + (long)faces;
    p->euler_ok = euler == 1 + (long)p->n_components &&
                  fabs(paper - trim) <= 1e-9 * trim + AREA_EPS_MM2;
    free(cyc); free(cyc_half); free(cyc_area); free(cyc_face); free(cyc_comp);
    free(box); free(parent);
    return CB_OK;
}

cb_status cb_planar_build(cb_planar *p, const cb_board *b, cb_error *err)
{
    memset(p, 0, sizeof *p);
    size_t n = b->n_nodes, m = b->n_edges;
    const double eps = CB_PLANAR_EPS_MM;
    for (size_t e = 0; e < m; e++) {
        cb_edge ed = b->edges[e];
        if (ed.a >= n || ed.b >= n)
            return cb_fail(err, CB_ERR_DATA, "edge %zu (%u-%u) refers to node %u, the board has %zu",
                           e, ed.a, ed.b, ed.a >= n ? ed.a : ed.b, n);
        if (ed.a == ed.b)
            return cb_fail(err, CB_ERR_DATA, "edge %zu joins node %u to itself", e, ed.a);
    }
    double x0 = b->board_x, y0 = b->board_y, x1 = x0 + b->board_w, y1 = y0 + b->board_h;
    if (!(b->board_w > 0 && b->board_h > 0))
        return cb_fail(err, CB_ERR_DATA, "the trim rectangle is empty (%gx%g mm)",
                       b->board_w, b->board_h);
    for (size_t v = 0; v < n; v++) {
        double x = b->nodes[v].x, y = b->nodes[v].y;
        if (!(x >= x0 - eps && x <= x1 + eps && y >= y0 - eps && y <= y1 + eps))
            return cb_fail(err, CB_ERR_DATA,
                           "node %zu at (%.2f, %.2f) mm lies outside the trim rectangle "
                           "(%.2f, %.2f)-(%.2f, %.2f) mm", v, x, y, x0, y0, x1, y1);
    }
    /* Vertices: nodes, then the free corners. */
    cb_point corner[4] = {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
    int taken[4] = {0, 0, 0, 0};
    for (size_t v = 0; v < n; v++)
        for (int c = 0; c < 4; c++)
            if (fabs(b->nodes[v].x - corner[c].x) <= eps && fabs(b->nodes[v].y - corner[c].y) <= eps)
                taken[c] = 1;
    size_t nv = n;
    for (int c = 0; c < 4; c++)
        nv += !taken[c];
    p->n_nodes = n;
    p->n_verts = nv;
    p->xy = malloc(nv * sizeof *p->xy);
    p->on_border = calloc(nv, 1);
    keyed *bv = malloc(nv * sizeof *bv);
    edge_key *keys = malloc((m ? m : 1) * sizeof *keys);
    if (!p->xy || !p->on_border || !bv || !keys) {
        free(bv);
        free(keys);
        return oom(p, err);
    }
    size_t n_bv = 0;
    for (size_t v = 0; v < n; v++) {
        p->xy[v].x = b->nodes[v].x;
        p->xy[v].y = b->nodes[v].y;
    }
    for (int c = 0, k = 0; c < 4; c++)
        if (!taken[c])
            p->xy[n + (size_t)k++] = corner[c];
    for (uint32_t v = 0; v < nv; v++) {
        double t = perimeter_pos(b, p->xy[v]);
        if (t >= 0) {
            p->on_border[v] = 1;
            bv[n_bv].key = t;
            bv[n_bv++].id = v;
        }
    }
    qsort(bv, n_bv, sizeof *bv, cmp_keyed);
    /* Printed edges by their ends, to spot those that run along the trim. */
    for (size_t e = 0; e < m; e++) {
        uint32_t a = b->edges[e].a, c = b->edges[e].b;
        keys[e].lo = a < c ? a : c;
        keys[e].hi = a < c ? c : a;
        keys[e].e = (uint32_t)e;
    }
    size_t sorted = 1; /* generated boards list their edges sorted already */
    while (sorted < m && cmp_pair(&keys[sorted - 1], &keys[sorted]) < 0)
        sorted++;
    if (sorted < m)
        qsort(keys, m, sizeof *keys, cmp_pair);
    /* Half-edges: printed edges, then the border segments. */
    size_t max_half = 2 * (m + n_bv);
    p->origin = malloc((max_half ? max_half : 1) * sizeof *p->origin);
    int32_t *along = malloc((n_bv ? n_bv : 1) * sizeof *along); /* per link: edge or -1 */
    if (!p->origin || !along) {
        free(bv); free(keys); free(along);
        return oom(p, err);
    }
    for (size_t e = 0; e < m; e++) {
        p->origin[2 * e] = b->edges[e].a;
        p->origin[2 * e + 1] = b->edges[e].b;
    }
    size_t nh = 2 * m;
    uint32_t outside_half = UINT32_MAX;
    for (size_t k = 0; k < n_bv; k++) {
        uint32_t u = bv[k].id, w = bv[(k + 1) % n_bv].id;
        along[k] = -1;
        if (u < n && w < n) {
            edge_key want = {u < w ? u : w, u < w ? w : u, 0};
            const edge_key *hit = m ? bsearch(&want, keys, m, sizeof *keys, cmp_ends) : NULL;
            if (hit)
                along[k] = (int32_t)hit->e;
        }
        uint32_t fwd;
        if (along[k] >= 0) {
            fwd = 2 * (uint32_t)along[k] + (b->edges[along[k]].a == u ? 0u : 1u);
        } else {
            fwd = (uint32_t)nh;
            p->origin[nh++] = u;
            p->origin[nh++] = w;
        }
        if (k == 0)
            outside_half = fwd ^ 1u;
    }
    free(bv);
    free(keys);
    free(along);
    p->n_printed = m;
    p->n_half = nh;
    p->n_segments = nh / 2 - m;
    /* Rotation: outgoing half-edges of each vertex by page angle. */
    p->out_start = calloc(nv + 1, sizeof *p->out_start);
    p->out = malloc((nh ? nh : 1) * sizeof *p->out);
    p->next = malloc((nh ? nh : 1) * sizeof *p->next);
    keyed *ang = malloc((nh ? nh : 1) * sizeof *ang);
    uint32_t *pos = malloc((nh ? nh : 1) * sizeof *pos);
    if (!p->out_start || !p->out || !p->next || !ang || !pos) {
        free(ang);
        free(pos);
        return oom(p, err);
    }
    for (size_t h = 0; h < nh; h++)
        p->out_start[p->origin[h] + 1]++;
    for (size_t v = 0; v < nv; v++)
        p->out_start[v + 1] += p->out_start[v];
    uint32_t *fill = malloc(nv * sizeof *fill);
    if (!fill) {
        free(ang);
        free(pos);
        return oom(p, err);
    }
    memcpy(fill, p->out_start, nv * sizeof *fill);
    for (uint32_t h = 0; h < nh; h++) {
        cb_point a = p->xy[p->origin[h]], c = p->xy[p->origin[h ^ 1u]];
        size_t k = fill[p->origin[h]]++;
        ang[k].key = atan2(c.y - a.y, c.x - a.x);
        ang[k].id = h;
    }
    free(fill);
    for (size_t v = 0; v < nv; v++) {
        keyed *a = ang + p->out_start[v];
        size_t deg = p->out_start[v + 1] - p->out_start[v];
        if (deg > 16) {
            qsort(a, deg, sizeof *a, cmp_keyed);
            continue;
        }
        for (size_t i = 1; i < deg; i++) /* few edges a node: insertion sort */
            for (size_t j = i; j > 0 && cmp_keyed(&a[j - 1], &a[j]) > 0; j--) {
                keyed t = a[j];
                a[j] = a[j - 1];
                a[j - 1] = t;
            }
    }
    for (uint32_t k = 0; k < nh; k++) {
        p->out[k] = ang[k].id;
        pos[ang[k].id] = k;
    }
    free(ang);
    for (uint32_t h = 0; h < nh; h++) {
        uint32_t t = h ^ 1u, v = p->origin[t];
        uint32_t s = p->out_start[v], deg = p->out_start[v + 1] - s;
        p->next[h] = p->out[s + (pos[t] - s + deg - 1) % deg];
    }
    free(pos);
    return trace_faces(p, b, outside_half, err);
}

size_t cb_planar_vertex_faces(const cb_planar *p, uint32_t v, uint32_t *faces)
{
    size_t k = 0;
    if (p->out_start[v] == p->out_start[v + 1]) {
        if (p->vface[v] != 0 && p->vface[v] != UINT32_MAX)
            faces[k++] = p->vface[v];
        return k;
    }
    for (uint32_t i = p->out_start[v]; i < p->out_start[v + 1]; i++) {
        uint32_t f = p->face[p->out[i]];
        int seen = f == 0;
        for (size_t j = 0; j < k && !seen; j++)
            seen = faces[j] == f;
        if (!seen)
            faces[k++] = f;
    }
    return k;
}
