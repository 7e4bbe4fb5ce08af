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
    free(p->on_border);
    free(p->seg_end);
    free(p->next);
    free(p->first_out);
    free(p->face);
    free(p->isolated);
    free(p->area);
    free(p->face_half);
    memset(p, 0, sizeof *p);
}

void cb_planar_keep_faces(cb_planar *p)
{
    free(p->next);
    free(p->first_out);
    free(p->isolated);
    free(p->area);
    free(p->face_half);
    p->next = p->first_out = p->face_half = NULL;
    p->isolated = NULL;
    p->area = NULL;
    p->n_isolated = 0;
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
        cb_point a = cb_planar_xy(p, cb_planar_origin(p, g));
        cb_point c = cb_planar_xy(p, cb_planar_origin(p, g ^ 1u));
        if ((a.y > q.y) != (c.y > q.y)) {
            double x = a.x + (q.y - a.y) * (c.x - a.x) / (c.y - a.y);
            if (q.x < x)
                inside = !inside;
        }
        g = p->next[g];
    } while (g != h);
    return inside;
}

/* What locating a hole needs of a piece: its outer cycle's area (holes
 * not taken off), component and bounding box. */
typedef struct {
    double area, box[4];
    uint32_t comp;
} piece_info;

/* The piece (of another component) that holds point Q, the smallest if
 * they nest, the first of equal ones; 0 when none does. */
static uint32_t locate(const cb_planar *p, cb_point q, uint32_t comp, const piece_info *pc)
{
    uint32_t best = 0;
    double best_area = INFINITY;
    for (uint32_t f = 1; f < p->n_faces; f++) {
        const piece_info *c = &pc[f];
        if (c->comp == comp || c->area >= best_area)
            continue;
        if (q.x < c->box[0] || q.x > c->box[2] || q.y < c->box[1] || q.y > c->box[3])
            continue;
        if (cycle_contains(p, p->face_half[f], q)) {
            best = f;
            best_area = c->area;
        }
    }
    return best;
}

static cb_status oom(cb_planar *p, cb_error *err)
{
    cb_planar_free(p);
    return cb_fail(err, CB_ERR_NOMEM, "out of memory building the board's faces");
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
    for (uint32_t h = 0; h < p->n_half; h += 2) {
        uint32_t a = cb_uf_find(comp, cb_planar_origin(p, h));
        uint32_t c = cb_uf_find(comp, cb_planar_origin(p, h + 1));
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

/* A cycle that is not a piece: a hole in the piece around it (the outer
 * boundary of a component away from the border), found by its first
 * half-edge; its face is located once every piece is known. */
typedef struct {
    uint32_t half, face;
    double area;
} hole;

/* The half-edges of a hole until it is located. */
#define HOLE_FACE (UINT32_MAX - 1)

/* Puts the holes and the isolated vertices into the pieces around them,
 * and takes the holes' area off those pieces. Pieces' areas are added up
 * again in the order of the cycles' first half-edges (the pieces' outer
 * cycles and the holes together), as the sums always run. */
static int place_holes(cb_planar *p, hole *holes, size_t n_holes, size_t n_isolated)
{
    size_t nv = p->n_verts, nf = p->n_faces;
    uint32_t *comp = malloc(nv * sizeof *comp);
    piece_info *pc = malloc(nf * sizeof *pc);
    p->isolated = malloc((n_isolated ? n_isolated : 1) * sizeof *p->isolated);
    if (!comp || !pc || !p->isolated) {
        free(comp);
        free(pc);
        return -1;
    }
    components(p, comp);
    for (uint32_t f = 1; f < nf; f++) {
        double bx0 = INFINITY, by0 = INFINITY, bx1 = -INFINITY, by1 = -INFINITY;
        uint32_t g = p->face_half[f];
        do {
            cb_point a = cb_planar_xy(p, cb_planar_origin(p, g));
            bx0 = fmin(bx0, a.x); by0 = fmin(by0, a.y);
            bx1 = fmax(bx1, a.x); by1 = fmax(by1, a.y);
            g = p->next[g];
        } while (g != p->face_half[f]);
        pc[f].area = p->area[f];
        pc[f].box[0] = bx0; pc[f].box[1] = by0;
        pc[f].box[2] = bx1; pc[f].box[3] = by1;
        pc[f].comp = comp[cb_planar_origin(p, p->face_half[f])];
    }
    for (size_t i = 0; i < n_holes; i++) {
        uint32_t v = cb_planar_origin(p, holes[i].half);
        holes[i].face = locate(p, cb_planar_xy(p, v), comp[v], pc);
    }
    for (uint32_t v = 0; v < nv; v++)
        if (p->first_out[v] == UINT32_MAX) {
            p->isolated[p->n_isolated][0] = v;
            p->isolated[p->n_isolated++][1] = locate(p, cb_planar_xy(p, v), comp[v], pc);
        }
    for (size_t i = 0; i < n_holes; i++) {
        uint32_t g = holes[i].half;
        do {
            p->face[g] = holes[i].face;
            g = p->next[g];
        } while (g != holes[i].half);
    }
    /* Both lists run by first half-edge: merge them. */
    for (uint32_t f = 1; f < nf; f++)
        p->area[f] = 0;
    uint32_t f = 1;
    for (size_t i = 0; i <= n_holes; i++) {
        uint32_t until = i < n_holes ? holes[i].half : UINT32_MAX;
        for (; f < nf && p->face_half[f] < until; f++)
            p->area[f] += pc[f].area;
        if (i < n_holes && holes[i].face != 0)
            p->area[holes[i].face] += holes[i].area;
    }
    free(comp);
    free(pc);
    return 0;
}

/* Faces: trace every cycle of next, the outside's first (face 0), then the
 * others by first half-edge: a positive one is the next piece, any other a
 * hole. */
static cb_status trace_faces(cb_planar *p, const cb_board *b, uint32_t outside_half,
                             cb_error *err)
{
    size_t nh = p->n_half, nv = p->n_verts;
    p->face = malloc((nh ? nh : 1) * sizeof *p->face);
    /* Room for as many faces as Euler's formula gives a connected drawing;
     * grown if there are more. */
    size_t cap = nh / 2 + 2 > nv + 16 ? nh / 2 + 2 - nv : 16;
    p->area = malloc(cap * sizeof *p->area);
    p->face_half = malloc(cap * sizeof *p->face_half);
    if (!p->face || !p->area || !p->face_half)
        return oom(p, err);
    uint32_t *face = p->face;
    for (size_t h = 0; h < nh; h++)
        face[h] = UINT32_MAX;
    p->area[0] = 0;
    p->face_half[0] = outside_half;
    if (outside_half != UINT32_MAX) {
        uint32_t g = outside_half;
        do {
            face[g] = 0;
            p->face_half[0] = g < p->face_half[0] ? g : p->face_half[0];
            g = p->next[g];
        } while (g != outside_half);
    }
    size_t faces = 1, n_holes = 0, hole_cap = 0;
    hole *holes = NULL;
    for (uint32_t h = 0; h < nh; h++) {
        if (face[h] != UINT32_MAX)
            continue;
        /* The shoelace sum; each half-edge's head is its next one's origin. */
        double twice = 0;
        uint32_t g = h;
        cb_point a = cb_planar_xy(p, cb_planar_origin(p, h));
        do {
            uint32_t after = p->next[g];
            cb_point c = cb_planar_xy(p, cb_planar_origin(p, after));
            twice += a.x * c.y - c.x * a.y;
            face[g] = (uint32_t)faces;
            g = after;
            a = c;
        } while (g != h);
        double area = twice / 2;
        if (area > AREA_EPS_MM2) {
            if (faces == cap) {
                cap *= 2;
                double *ar = realloc(p->area, cap * sizeof *ar);
                if (ar)
                    p->area = ar;
                uint32_t *fh = realloc(p->face_half, cap * sizeof *fh);
                if (fh)
                    p->face_half = fh;
                if (!ar || !fh) {
                    free(holes);
                    return oom(p, err);
                }
            }
            p->area[faces] = area;
            p->face_half[faces++] = h;
            continue;
        }
        if (n_holes == hole_cap) {
            hole_cap = hole_cap ? 2 * hole_cap : 16;
            hole *more = realloc(holes, hole_cap * sizeof *more);
            if (!more) {
                free(holes);
                return oom(p, err);
            }
            holes = more;
        }
        holes[n_holes].half = h;
        holes[n_holes++].area = area;
        do {
            face[g] = HOLE_FACE;
            g = p->next[g];
        } while (g != h);
    }
    p->n_faces = faces;
    size_t n_isolated = 0;
    for (uint32_t v = 0; v < nv; v++)
        n_isolated += p->first_out[v] == UINT32_MAX;
    if ((n_holes || n_isolated) && place_holes(p, holes, n_holes, n_isolated) != 0) {
        free(holes);
        return oom(p, err);
    }
    free(holes);
    double paper = 0, trim = b->board_w * b->board_h;
    for (size_t f = 1; f < faces; f++)
        paper += p->area[f];
    long euler = (long)nv - (long)(nh / 2) + (long)faces;
    p->euler_ok = euler == 1 + (long)p->n_components &&
                  fabs(paper - trim) <= 1e-9 * trim + AREA_EPS_MM2;
    return CB_OK;
}

/* By key, then by id: for the few edges of a node each put at its rank
 * (how many come before it: no branch on a comparison, which is a coin
 * toss), or by insertion when a key is NaN; else qsort (the same total
 * order every way, for keys that are not NaN). */
static void sort_keyed(keyed *a, size_t n)
{
    if (n > 16) {
        qsort(a, n, sizeof *a, cmp_keyed);
        return;
    }
    int nan = 0;
    for (size_t i = 0; i < n; i++)
        nan |= isnan(a[i].key);
    if (!nan) {
        keyed in[16];
        size_t rank[16] = {0};
        memcpy(in, a, n * sizeof *a);
        for (size_t i = 0; i < n; i++)
            for (size_t j = i + 1; j < n; j++) {
                size_t before = (size_t)((in[j].key < in[i].key) |
                                         ((in[j].key == in[i].key) & (in[j].id < in[i].id)));
                rank[i] += before;
                rank[j] += 1 - before;
            }
        for (size_t i = 0; i < n; i++)
            a[rank[i]] = in[i];
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
    /* The half plane picked by index, not a branch (it is a coin toss):
     * copysign(2, dy) - t is -2 - t or 2 - t, as atan2(-0, dx < 0) is -pi. */
    double key[2] = {copysign(2, dy) - t, t};
    return key[dx >= 0];
}

/* Half-edge ID before half-edge OTHER around their common origin U, in the
 * order of atan2 of their directions on (-pi, pi] and then of id, decided
 * exactly: by half plane, then by the sign of cb_orient. */
static int exact_before(const cb_planar *p, uint32_t id, uint32_t other)
{
    cb_point u = cb_planar_xy(p, cb_planar_origin(p, id));
    cb_point a = cb_planar_xy(p, cb_planar_origin(p, id ^ 1u));
    cb_point b = cb_planar_xy(p, cb_planar_origin(p, other ^ 1u));
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

/* Adds border vertex ID at perimeter place T to the list *BV. */
static int add_border(keyed **bv, size_t *n, size_t *cap, double t, uint32_t id)
{
    if (*n == *cap) {
        size_t more = *cap ? 2 * *cap : 64;
        keyed *grown = realloc(*bv, 2 * more * sizeof *grown); /* and room to sort */
        if (!grown)
            return -1;
        *bv = grown;
        *cap = more;
    }
    (*bv)[*n].key = t;
    (*bv)[(*n)++].id = id;
    return 0;
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
    p->board = b;
    p->n_nodes = n;
    p->n_printed = m;
    /* Vertices: nodes, then the free corners. The border vertices by place
     * along the perimeter (their count bounds the border segments), with
     * room to sort them. */
    cb_point corner[4] = {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
    int taken[4] = {0, 0, 0, 0};
    keyed *bv = NULL;
    size_t n_bv = 0, bv_cap = 0;
    for (uint32_t v = 0; v < n; v++) {
        double x = b->nodes[v].x, y = b->nodes[v].y;
        if (!(x >= x0 - eps && x <= x1 + eps && y >= y0 - eps && y <= y1 + eps)) {
            free(bv);
            cb_planar_free(p);
            return cb_fail(err, CB_ERR_DATA,
                           "node %u at (%.2f, %.2f) mm lies outside the trim rectangle "
                           "(%.2f, %.2f)-(%.2f, %.2f) mm", v, x, y, x0, y0, x1, y1);
        }
        cb_point q = {x, y};
        double t = perimeter_pos(b, q);
        if (t >= 0 && add_border(&bv, &n_bv, &bv_cap, t, v) != 0) {
            free(bv);
            return oom(p, err);
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
        if (t >= 0 && add_border(&bv, &n_bv, &bv_cap, t, (uint32_t)nv) != 0) {
            free(bv);
            return oom(p, err);
        }
        p->corner[nv++ - n] = corner[c];
    }
    p->n_verts = nv;
    if (n_bv)
        sort_border(bv, bv + bv_cap, n_bv);
    /* Half-edges: printed edges, then at most one border segment per border
     * vertex. */
    p->on_border = calloc(nv ? nv : 1, 1);
    p->seg_end = malloc((n_bv ? 2 * n_bv : 1) * sizeof *p->seg_end);
    if (!p->on_border || !p->seg_end) {
        free(bv);
        return oom(p, err);
    }
    for (size_t k = 0; k < n_bv; k++)
        p->on_border[bv[k].id] = 1;
    /* Printed edges by their ends, to spot those that run along the trim:
     * generated boards list them strictly by their ends already, and are
     * searched as they are; others through a sorted copy. */
    size_t in_order = 1;
    while (in_order < m && ends_key(b->edges[in_order - 1]) < ends_key(b->edges[in_order]))
        in_order++;
    edge_key *keys = NULL;
    if (in_order < m) {
        keys = malloc(m * sizeof *keys);
        if (!keys) {
            free(bv);
            return oom(p, err);
        }
        for (size_t e = 0; e < m; e++) {
            uint32_t a = b->edges[e].a, c = b->edges[e].b;
            keys[e].lo = a < c ? a : c;
            keys[e].hi = a < c ? c : a;
            keys[e].e = (uint32_t)e;
        }
        size_t sorted = 1;
        while (sorted < m && cmp_pair(&keys[sorted - 1], &keys[sorted]) < 0)
            sorted++;
        if (sorted < m)
            qsort(keys, m, sizeof *keys, cmp_pair);
    }
    size_t nh = 2 * m;
    uint32_t outside_half = UINT32_MAX;
    for (size_t k = 0; k < n_bv; k++) {
        uint32_t u = bv[k].id, w = bv[(k + 1) % n_bv].id;
        size_t along = SIZE_MAX; /* the printed edge that is this segment */
        if (u < n && w < n && m) {
            edge_key want = {u < w ? u : w, u < w ? w : u, 0};
            const edge_key *found = keys ? bsearch(&want, keys, m, sizeof *keys, cmp_ends) : NULL;
            along = keys ? (found ? found->e : SIZE_MAX) : edge_between(b->edges, m, want.lo, want.hi);
        }
        uint32_t fwd;
        if (along != SIZE_MAX) {
            fwd = (uint32_t)(2 * along + (b->edges[along].a == u ? 0u : 1u));
        } else {
            fwd = (uint32_t)nh;
            p->seg_end[nh++ - 2 * m] = u;
            p->seg_end[nh++ - 2 * m] = w;
        }
        if (k == 0)
            outside_half = fwd ^ 1u;
    }
    free(keys);
    free(bv);
    p->n_half = nh;
    p->n_segments = nh / 2 - m;
    uint32_t *comp = malloc((nv ? nv : 1) * sizeof *comp);
    if (!comp)
        return oom(p, err);
    p->n_components = components(p, comp);
    free(comp);
    /* Rotation: outgoing half-edges of each vertex by page angle. First
     * each vertex's half-edges by id (a counting sort, filled back to
     * front), then each vertex's sorted by angle in a buffer as long as the
     * largest degree: keys for every half-edge at once would be the largest
     * array of the check. */
    uint32_t *out_start = calloc(nv + 1, sizeof *out_start);
    uint32_t *out = malloc((nh ? nh : 1) * sizeof *out);
    p->next = malloc((nh ? nh : 1) * sizeof *p->next);
    if (!out_start || !out || !p->next) {
        free(out_start);
        free(out);
        return oom(p, err);
    }
    for (uint32_t h = 0; h < nh; h++)
        out_start[cb_planar_origin(p, h) + 1]++;
    size_t most = 1;
    for (size_t v = 0; v < nv; v++) {
        if (out_start[v + 1] > most)
            most = out_start[v + 1];
        out_start[v + 1] += out_start[v];
    }
    for (uint32_t h = (uint32_t)nh; h-- > 0;)
        out[--out_start[cb_planar_origin(p, h) + 1]] = h;
    for (size_t v = 0; v < nv; v++)
        out_start[v] = out_start[v + 1];
    out_start[nv] = (uint32_t)nh;
    keyed *ang = malloc(most * sizeof *ang);
    if (!ang) {
        free(out_start);
        free(out);
        return oom(p, err);
    }
    /* next(h) is the half-edge just before twin(h) around h's head. Each
     * vertex's list is read once, so its start turns into first_out there. */
    for (size_t v = 0; v < nv; v++) {
        uint32_t first = out_start[v], last = out_start[v + 1];
        cb_point a = cb_planar_xy(p, (uint32_t)v);
        for (uint32_t k = first; k < last; k++) {
            cb_point c = cb_planar_xy(p, cb_planar_origin(p, out[k] ^ 1u));
            ang[k - first].key = diamond(c.x - a.x, c.y - a.y);
            ang[k - first].id = out[k];
        }
        if (last - first > 1)
            sort_rotation(p, ang, last - first);
        for (uint32_t k = first; k < last; k++)
            p->next[ang[k - first].id ^ 1u] = ang[k == first ? last - 1 - first : k - 1 - first].id;
        out_start[v] = last > first ? ang[0].id : UINT32_MAX;
    }
    free(ang);
    free(out);
    p->first_out = out_start;
    return trace_faces(p, b, outside_half, err);
}

size_t cb_planar_vertex_faces(const cb_planar *p, uint32_t v, uint32_t *faces)
{
    size_t k = 0;
    uint32_t h0 = p->first_out[v];
    if (h0 == UINT32_MAX) {
        size_t lo = 0, hi = p->n_isolated;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (p->isolated[mid][0] < v)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo < p->n_isolated && p->isolated[lo][0] == v && p->isolated[lo][1] != 0)
            faces[k++] = p->isolated[lo][1];
        return k;
    }
    uint32_t h = h0;
    do {
        uint32_t f = p->face[h];
        int seen = f == 0;
        for (size_t j = 0; j < k && !seen; j++)
            seen = faces[j] == f;
        if (!seen)
            faces[k++] = f;
        h = p->next[h ^ 1u];
    } while (h != h0);
    return k;
}
