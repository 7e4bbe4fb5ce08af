/* The half-edge structure of a board and its paper (see halfedge.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "base/error.h"
#include "planar/halfedge.h"
#include "base/sort.h"
#include "base/unionfind.h"

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

/* An edge's ends as one number, the smaller end first. */
static uint64_t ends_key(cb_edge e)
{
    return e.a < e.b ? (uint64_t)e.a << 32 | e.b : (uint64_t)e.b << 32 | e.a;
}

/* The edge joining LO < HI among the M EDGES listed strictly by ends_key,
 * or SIZE_MAX. */
static size_t edge_between(const cb_edge *edges, size_t m, uint32_t lo, uint32_t hi)
{
    uint64_t want = (uint64_t)lo << 32 | hi;
    size_t first = 0, last = m;
    while (first < last) {
        size_t mid = first + (last - first) / 2;
        uint64_t k = ends_key(edges[mid]);
        if (k == want)
            return mid;
        if (k < want)
            first = mid + 1;
        else
            last = mid;
    }
    return SIZE_MAX;
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
    free(p->out);
    free(p->out_start);
    free(p->face);
    free(p->vface);
    free(p->area);
    free(p->face_half);
    memset(p, 0, sizeof *p);
}

static cb_point node_point_of(const cb_board *b, uint32_t v)
{
    cb_point q = {b->nodes[v].x, b->nodes[v].y};
    return q;
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

/* The vertex and half-edge arrays a build returns, but for the places and
 * the faces, for NV vertices and at most NH half-edges. */
static int planar_alloc(cb_planar *p, size_t nv, size_t nh)
{
    p->on_border = calloc(nv, 1);
    p->origin = malloc(nh * sizeof *p->origin);
    p->next = malloc(nh * sizeof *p->next);
    p->out = malloc(nh * sizeof *p->out);
    p->out_start = calloc(nv + 1, sizeof *p->out_start);
    return p->on_border && p->origin && p->next && p->out && p->out_start ? 0 : -1;
}

/* Bounding boxes of the cycles, for locate: only boards with holes or
 * isolated nodes need them. NULL when out of memory. */
static double (*cycle_boxes(const cb_planar *p, const uint32_t *cyc_half, size_t n_cycles))[4]
{
    double (*box)[4] = malloc((n_cycles ? n_cycles : 1) * sizeof *box);
    if (!box)
        return NULL;
    for (size_t c = 0; c < n_cycles; c++) {
        double bx0 = INFINITY, by0 = INFINITY, bx1 = -INFINITY, by1 = -INFINITY;
        uint32_t g = cyc_half[c];
        do {
            cb_point a = p->xy[p->origin[g]];
            bx0 = fmin(bx0, a.x); by0 = fmin(by0, a.y);
            bx1 = fmax(bx1, a.x); by1 = fmax(by1, a.y);
            g = p->next[g];
        } while (g != cyc_half[c]);
        box[c][0] = bx0; box[c][1] = by0;
        box[c][2] = bx1; box[c][3] = by1;
    }
    return box;
}

/* Components of the drawing: COMP gets each vertex's smallest vertex in
 * its component; returns how many. Union-find over the edges in their
 * order (the smaller root wins), not a search: on a large board a search's
 * stack jumps all over memory, while the edges of a generated board come
 * in node order. */
static size_t components(const cb_planar *p, uint32_t *comp)
{
    size_t nv = p->n_verts, n = 0;
    for (uint32_t v = 0; v < nv; v++)
        comp[v] = v;
    for (size_t h = 0; h < p->n_half; h += 2) {
        uint32_t a = cb_uf_find(comp, p->origin[h]), c = cb_uf_find(comp, p->origin[h + 1]);
        if (a < c)
            comp[c] = a;
        else if (c < a)
            comp[a] = c;
    }
    for (uint32_t v = 0; v < nv; v++) {
        comp[v] = cb_uf_find(comp, v);
        n += comp[v] == v;
    }
    return n;
}

/* Faces: trace every cycle of next, then name the pieces and put each
 * hole (a cycle that is not a piece) into the piece around it. */
static cb_status trace_faces(cb_planar *p, const cb_board *b, uint32_t outside_half,
                             cb_error *err)
{
    size_t nh = p->n_half, nv = p->n_verts;
    p->face = malloc((nh ? nh : 1) * sizeof *p->face);
    p->vface = malloc(nv * sizeof *p->vface);
    /* One scratch block: per cycle (at most one per half-edge) its area,
     * a half-edge, face and component, per vertex its component. Each
     * half-edge's cycle goes where its face will (FACE), until the faces
     * are known. */
    double *cyc_area = malloc((nh ? nh : 1) * (sizeof *cyc_area + 3 * sizeof(uint32_t)) +
                              nv * sizeof(uint32_t));
    if (!p->face || !p->vface || !cyc_area) {
        free(cyc_area);
        return oom(p, err);
    }
    uint32_t *cyc = p->face, *cyc_half = (uint32_t *)(cyc_area + (nh ? nh : 1));
    uint32_t *cyc_face = cyc_half + nh, *cyc_comp = cyc_face + nh, *comp = cyc_comp + nh;
    p->n_components = components(p, comp);

    size_t n_cycles = 0;
    for (uint32_t h = 0; h < nh; h++)
        cyc[h] = UINT32_MAX;
    for (uint32_t h = 0; h < nh; h++) {
        if (cyc[h] != UINT32_MAX)
            continue;
        double twice = 0;
        uint32_t g = h;
        do {
            cb_point a = p->xy[p->origin[g]], c = p->xy[p->origin[g ^ 1u]];
            twice += a.x * c.y - c.x * a.y;
            cyc[g] = (uint32_t)n_cycles;
            g = p->next[g];
        } while (g != h);
        cyc_half[n_cycles] = h;
        cyc_area[n_cycles] = twice / 2;
        cyc_comp[n_cycles] = comp[p->origin[h]];
        n_cycles++;
    }
    /* Pieces: positive cycles, numbered in order of their first half-edge. */
    size_t faces = 1;
    int holes = 0;
    for (size_t c = 0; c < n_cycles; c++) {
        cyc_face[c] = c == cyc[outside_half] ? 0
                      : cyc_area[c] > AREA_EPS_MM2 ? (uint32_t)faces++ : UINT32_MAX;
        holes |= cyc_face[c] == UINT32_MAX;
    }
    for (uint32_t v = 0; v < nv; v++)
        holes |= p->out_start[v] == p->out_start[v + 1];
    p->n_faces = faces;
    p->area = calloc(faces, sizeof *p->area);
    p->face_half = malloc(faces * sizeof *p->face_half);
    double (*box)[4] = holes ? cycle_boxes(p, cyc_half, n_cycles) : NULL;
    if (!p->area || !p->face_half || (holes && !box)) {
        free(box);
        free(cyc_area);
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
        p->face[h] = cyc_face[cyc[h]]; /* in place: CYC is FACE */
    for (size_t c = 0; c < n_cycles; c++)
        if (cyc_face[c] != 0)
            p->area[cyc_face[c]] += cyc_area[c];
    for (uint32_t v = 0; v < nv; v++)
        p->vface[v] = p->out_start[v] == p->out_start[v + 1]
                      ? locate(p, p->xy[v], comp[v], cyc_comp, cyc_face, cyc_half, cyc_area,
                               (const double (*)[4])box, n_cycles)
                      : UINT32_MAX;
    free(box);
    free(cyc_area);
    double paper = 0, trim = b->board_w * b->board_h;
    for (size_t f = 1; f < faces; f++)
        paper += p->area[f];
    long euler = (long)nv - (long)(nh / 2) + (long)faces;
    p->euler_ok = euler == 1 + (long)p->n_components &&
                  fabs(paper - trim) <= 1e-9 * trim + AREA_EPS_MM2;
    return CB_OK;
}

/* By key, then by id: insertion sort for the few edges of a node, else qsort
 * (the same total order either way, for keys that are not NaN). */
static void sort_keyed(keyed *a, size_t n)
{
    if (n > 16) {
        qsort(a, n, sizeof *a, cmp_keyed);
        return;
    }
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && cmp_keyed(&a[j - 1], &a[j]) > 0; j--) {
            keyed t = a[j];
            a[j] = a[j - 1];
            a[j - 1] = t;
        }
}

/* Keys more than this apart order their directions' atan2 the same way
 * (see diamond). */
#define ANGLE_GAP 1e-9

/* A stand-in for atan2(dy, dx) that orders directions the same way on
 * (-pi, pi] without trigonometry: dy / (|dx| + |dy|) on the right half
 * plane ([-1, 1]), continued to (-2, -1) below and (1, 2] above on the left.
 * It grows with the angle, never faster (its derivative is
 * 1 / (|sin| + |cos|)^2 <= 1), and is computed to within 1e-15. So keys
 * more than ANGLE_GAP apart belong to angles almost as far apart, far more
 * than atan2's error of a few ulps: their atan2 come in the same order.
 * NaN for a zero or huge vector. */
static double diamond(double dx, double dy)
{
    double sum = fabs(dx) + fabs(dy);
    if (!(sum > 0 && sum < INFINITY))
        return NAN;
    double t = dy / sum;
    if (dx >= 0)
        return t;
    return signbit(dy) ? -2 - t : 2 - t; /* atan2(-0, dx < 0) is -pi */
}

/* Half-edge ID before half-edge OTHER around their common origin U, in the
 * order of atan2 of their directions on (-pi, pi] and then of id, decided
 * exactly: by half plane, then by the sign of cb_orient. */
static int exact_before(const cb_planar *p, uint32_t id, uint32_t other)
{
    cb_point u = p->xy[p->origin[id]];
    cb_point a = p->xy[p->origin[id ^ 1u]], b = p->xy[p->origin[other ^ 1u]];
    /* lower half plane (-pi, 0) first, then [0, pi] */
    int ha = a.y - u.y >= 0, hb = b.y - u.y >= 0;
    if (ha != hb)
        return ha < hb;
    double turn = cb_orient(u, a, b);
    if (turn != 0)
        return turn > 0; /* b lies counter-clockwise of a: a comes first */
    return id < other;
}

/* Sorts the N half-edges leaving one vertex, keyed by diamond, by page
 * angle as sorting by atan2 of their direction and then by id does: by the
 * diamond keys when they stand apart, else (near-parallel edges) by the
 * exact order of their directions. */
static void sort_rotation(const cb_planar *p, keyed *a, size_t n)
{
    /* qsort needs keys that compare; the insertion sort copes with NaN,
     * which then fails the gap test below. */
    int apart = 1;
    for (size_t i = 0; i < n && n > 16; i++)
        apart &= !isnan(a[i].key);
    if (apart) {
        sort_keyed(a, n);
        for (size_t i = 1; i < n && apart; i++)
            apart = a[i].key - a[i - 1].key > ANGLE_GAP;
    }
    if (apart)
        return;
    for (size_t i = 1; i < n; i++) {
        keyed k = a[i];
        size_t j = i;
        for (; j > 0 && exact_before(p, k.id, a[j - 1].id); j--)
            a[j] = a[j - 1];
        a[j] = k;
    }
}

static int less_keyed(const keyed *a, const keyed *b)
{
    return cmp_keyed(a, b) < 0;
}

CB_DEFINE_SORT(sort_border, keyed, less_keyed)

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
    /* Vertices: nodes, then the free corners; their places are read from
     * the nodes once (48 bytes a node: on the largest boards each pass is a
     * read of the whole board from memory). Scratch until the border is
     * joined up: the border vertices by place along the perimeter (their
     * count bounds the border segments), room to sort them, the printed
     * edges by their ends. */
    cb_point corner[4] = {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
    int taken[4] = {0, 0, 0, 0};
    size_t room = n + 4;
    p->xy = malloc(room * sizeof *p->xy);
    keyed *bv = malloc(2 * room * sizeof *bv + (m ? m : 1) * sizeof(edge_key));
    if (!p->xy || !bv) {
        free(bv);
        return oom(p, err);
    }
    edge_key *keys = (edge_key *)(bv + 2 * room);
    size_t n_bv = 0;
    for (uint32_t v = 0; v < n; v++) {
        cb_point q = node_point_of(b, v);
        double x = q.x, y = q.y;
        p->xy[v] = q;
        if (!(x >= x0 - eps && x <= x1 + eps && y >= y0 - eps && y <= y1 + eps)) {
            free(bv);
            cb_planar_free(p);
            return cb_fail(err, CB_ERR_DATA,
                           "node %u at (%.2f, %.2f) mm lies outside the trim rectangle "
                           "(%.2f, %.2f)-(%.2f, %.2f) mm", v, x, y, x0, y0, x1, y1);
        }
        double t = perimeter_pos(b, q);
        if (t >= 0) {
            bv[n_bv].key = t;
            bv[n_bv++].id = v;
        }
        if (fabs(x - x0) > eps && fabs(x - x1) > eps)
            continue; /* on neither side: no corner */
        for (int c = 0; c < 4; c++)
            if (fabs(x - corner[c].x) <= eps && fabs(y - corner[c].y) <= eps)
                taken[c] = 1;
    }
    size_t nv = n;
    for (int c = 0; c < 4; c++) {
        if (taken[c])
            continue;
        double t = perimeter_pos(b, corner[c]);
        if (t >= 0) {
            bv[n_bv].key = t;
            bv[n_bv++].id = (uint32_t)nv;
        }
        p->xy[nv++] = corner[c];
    }
    p->n_nodes = n;
    p->n_verts = nv;
    sort_border(bv, bv + room, n_bv);
    /* Half-edges: printed edges, then at most one border segment per border
     * vertex. */
    size_t max_half = 2 * (m + n_bv);
    if (planar_alloc(p, nv, max_half) != 0) {
        free(bv);
        return oom(p, err);
    }
    for (size_t k = 0; k < n_bv; k++)
        p->on_border[bv[k].id] = 1;
    /* Printed edges by their ends, to spot those that run along the trim:
     * generated boards list them strictly by their ends already, and are
     * searched as they are; others through a sorted copy (on the largest
     * boards the copy is fresh pages). */
    size_t in_order = 1;
    while (in_order < m && ends_key(b->edges[in_order - 1]) < ends_key(b->edges[in_order]))
        in_order++;
    int copy = in_order < m;
    for (size_t e = 0; copy && e < m; e++) {
        uint32_t a = b->edges[e].a, c = b->edges[e].b;
        keys[e].lo = a < c ? a : c;
        keys[e].hi = a < c ? c : a;
        keys[e].e = (uint32_t)e;
    }
    size_t sorted = 1;
    while (copy && sorted < m && cmp_pair(&keys[sorted - 1], &keys[sorted]) < 0)
        sorted++;
    if (copy && sorted < m)
        qsort(keys, m, sizeof *keys, cmp_pair);
    for (size_t e = 0; e < m; e++) {
        p->origin[2 * e] = b->edges[e].a;
        p->origin[2 * e + 1] = b->edges[e].b;
    }
    size_t nh = 2 * m;
    uint32_t outside_half = UINT32_MAX;
    for (size_t k = 0; k < n_bv; k++) {
        uint32_t u = bv[k].id, w = bv[(k + 1) % n_bv].id;
        size_t along = SIZE_MAX; /* the printed edge that is this segment */
        if (u < n && w < n && m) {
            edge_key want = {u < w ? u : w, u < w ? w : u, 0};
            const edge_key *found = copy ? bsearch(&want, keys, m, sizeof *keys, cmp_ends) : NULL;
            along = copy ? (found ? found->e : SIZE_MAX) : edge_between(b->edges, m, want.lo, want.hi);
        }
        uint32_t fwd;
        if (along != SIZE_MAX) {
            fwd = (uint32_t)(2 * along + (b->edges[along].a == u ? 0u : 1u));
        } else {
            fwd = (uint32_t)nh;
            p->origin[nh++] = u;
            p->origin[nh++] = w;
        }
        if (k == 0)
            outside_half = fwd ^ 1u;
    }
    free(bv);
    p->n_printed = m;
    p->n_half = nh;
    p->n_segments = nh / 2 - m;
    /* Rotation: outgoing half-edges of each vertex by page angle. First
     * each vertex's half-edges by id (a counting sort), then each vertex's
     * sorted by angle in a buffer as long as the largest degree: keys for
     * every half-edge at once would be the largest array of the check. */
    uint32_t *fill = malloc(nv * sizeof *fill);
    if (!fill)
        return oom(p, err);
    for (size_t h = 0; h < nh; h++)
        p->out_start[p->origin[h] + 1]++;
    size_t most = 1;
    for (size_t v = 0; v < nv; v++) {
        if (p->out_start[v + 1] > most)
            most = p->out_start[v + 1];
        p->out_start[v + 1] += p->out_start[v];
    }
    memcpy(fill, p->out_start, nv * sizeof *fill);
    for (uint32_t h = 0; h < nh; h++)
        p->out[fill[p->origin[h]]++] = h;
    free(fill);
    keyed *ang = malloc(most * sizeof *ang);
    if (!ang)
        return oom(p, err);
    /* next(h) is the half-edge just before twin(h) around h's head. */
    for (size_t v = 0; v < nv; v++) {
        uint32_t first = p->out_start[v], last = p->out_start[v + 1];
        cb_point a = p->xy[v];
        for (uint32_t k = first; k < last; k++) {
            cb_point c = p->xy[p->origin[p->out[k] ^ 1u]];
            ang[k - first].key = diamond(c.x - a.x, c.y - a.y);
            ang[k - first].id = p->out[k];
        }
        if (last - first > 1)
            sort_rotation(p, ang, last - first);
        for (uint32_t k = first; k < last; k++) {
            p->out[k] = ang[k - first].id;
            p->next[ang[k - first].id ^ 1u] = ang[k == first ? last - 1 - first : k - 1 - first].id;
        }
    }
    free(ang);
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
