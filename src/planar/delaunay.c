/* Delaunay triangulation by the sweep-hull ("delaunator") algorithm:
 * start from the seed triangle nearest the centre, add the other points in
 * order of distance from its circumcentre (so each new point lies outside the
 * current convex hull), fan it to the visible hull edges found through a hash
 * of hull points by angle, and restore the Delaunay property by edge flips. */
#include "base/geom.h"
#include "planar/delaunay.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NONE CB_DT_NONE

/* From this many points on they are renumbered by insertion rank (see
 * cb_delaunay_build). */
#define RENUMBER_MIN 2048

/* 3 * (2n - 5) half-edge ids must stay below NONE. */
#define MAX_POINTS ((size_t)715000000)

/* A point to insert, keyed by its distance from the seed circumcentre. */
typedef struct {
    double d;
    uint32_t i;
} dt_key;

/* Working state of one triangulation. */
typedef struct {
    const double *xy;
    uint32_t *tri, *half;  /* output arrays, filled up to nt half-edges */
    size_t nt;
    uint32_t *hprev, *hnext; /* hull as a circular list; hnext[i] == i: removed */
    uint32_t *htri;        /* half-edge leaving hull point i along the hull */
    uint32_t *hhash;       /* hull points bucketed by pseudo-angle */
    size_t hsize;
    uint32_t hstart;
    double cx, cy;
    uint32_t *stack;       /* edges still to legalize; a flip cascade around one
                              point never holds more than its degree, so n fits */
    size_t stack_cap;
} dt_state;

/* > 0 if a, b, c turn counter-clockwise (y up), < 0 clockwise, 0 when they
 * are collinear: exactly (cb_orient), so a hull walk never trusts a sign
 * that rounding produced. */
static double orient(const double *a, const double *b, const double *c)
{
    return cb_orient((cb_point){a[0], a[1]}, (cb_point){b[0], b[1]}, (cb_point){c[0], c[1]});
}

/* > 0 if p is inside the circumcircle of the counter-clockwise triangle abc,
 * exactly (cb_in_circle). */
static double in_circle(const double *a, const double *b, const double *c, const double *p)
{
    return cb_in_circle((cb_point){a[0], a[1]}, (cb_point){b[0], b[1]}, (cb_point){c[0], c[1]},
                        (cb_point){p[0], p[1]});
}

static double dist2(double ax, double ay, double bx, double by)
{
    double dx = ax - bx, dy = ay - by;
    return dx * dx + dy * dy;
}

/* Circumcentre of abc relative to a (in *ox, *oy). */
static void circum_offset(const double *a, const double *b, const double *c, double *ox, double *oy)
{
    double dx = b[0] - a[0], dy = b[1] - a[1];
    double ex = c[0] - a[0], ey = c[1] - a[1];
    double bl = dx * dx + dy * dy, cl = ex * ex + ey * ey;
    double k = 0.5 / (dx * ey - dy * ex);
    *ox = (ey * bl - dy * cl) * k;
    *oy = (dx * cl - ex * bl) * k;
}

/* Sorts keys by d: median-of-three quicksort (Hoare partition copes well with
 * the many equal distances of grids), recursing only into the smaller half. */
static void sort_keys(dt_key *a, size_t n)
{
    while (n > 16) {
        dt_key t;
        size_t m = n / 2, i = 0, j = n - 1;
#define SWAP(x, y) (t = a[x], a[x] = a[y], a[y] = t)
        if (a[m].d < a[0].d) SWAP(m, 0);
        if (a[n - 1].d < a[0].d) SWAP(n - 1, 0);
        if (a[n - 1].d < a[m].d) SWAP(n - 1, m);
        double p = a[m].d;
        for (;;) {
            while (a[i].d < p) i++;
            while (p < a[j].d) j--;
            if (i >= j) break;
            SWAP(i, j);
            i++;
            j--;
        }
#undef SWAP
        /* Now a[0..j] <= p <= a[j+1..n-1], both parts non-empty. */
        if (j + 1 < n - j - 1) {
            sort_keys(a, j + 1);
            a += j + 1;
            n -= j + 1;
        } else {
            sort_keys(a + j + 1, n - j - 1);
            n = j + 1;
        }
    }
    for (size_t i = 1; i < n; i++) {
        dt_key k = a[i];
        size_t j = i;
        for (; j > 0 && k.d < a[j - 1].d; j--) a[j] = a[j - 1];
        a[j] = k;
    }
}

/* Monotonic in the angle of (dx, dy), in [0, 1], without trigonometry. */
static inline size_t hash_key(const dt_state *s, const double *p)
{
    double dx = p[0] - s->cx, dy = p[1] - s->cy;
    double sum = fabs(dx) + fabs(dy);
    if (!(sum > 0)) return 0; /* the centre itself has no angle */
    double q = dx / sum;
    double angle = (dy > 0 ? 3.0 - q : 1.0 + q) / 4.0;
    size_t k = (size_t)(angle * (double)s->hsize);
    return k < s->hsize ? k : 0; /* angle 1 wraps round to 0 */
}

static void link_half(uint32_t *half, uint32_t a, uint32_t b)
{
    half[a] = b;
    if (b != NONE) half[b] = a;
}

/* Appends triangle (i0, i1, i2) whose edges have twins a, b, c; returns its first half-edge. */
static inline uint32_t add_triangle(dt_state *s, uint32_t i0, uint32_t i1, uint32_t i2,
                                    uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t t = (uint32_t)s->nt;
    s->tri[t] = i0;
    s->tri[t + 1] = i1;
    s->tri[t + 2] = i2;
    link_half(s->half, t, a);
    link_half(s->half, t + 1, b);
    link_half(s->half, t + 2, c);
    s->nt += 3;
    return t;
}

/* Flips edge a (opposite the newly inserted point) and, recursively through
 * an explicit stack, the edges the flips expose, until all are Delaunay.
 * Returns the half-edge that leaves the new point along the hull, which the
 * flips may have moved to another slot.
 *
 *           pl                    pl
 *          /||\                  /  \
 *       al/ || \bl            al/    \a
 *        /  ||  \              /      \
 *       /  a||b  \    flip    /___ar___\
 *     p0\   ||   /p1   =>   p0\---bl---/p1
 *        \  ||  /              \      /
 *       ar\ || /br             b\    /br
 *          \||/                  \  /
 *           pr                    pr
 */
static uint32_t legalize(dt_state *s, uint32_t a)
{
    uint32_t *tri = s->tri, *half = s->half, *stack = s->stack;
    const double *xy = s->xy;
    size_t sp = 0, cap = s->stack_cap;
    for (;;) {
        uint32_t b = half[a];
        uint32_t ar = cb_dt_prev(a);
        if (b != NONE) {
            uint32_t al = cb_dt_next(a), bl = cb_dt_prev(b);
            uint32_t p0 = tri[ar], pr = tri[a], pl = tri[al], p1 = tri[bl];
            if (in_circle(xy + 2 * (size_t)p0, xy + 2 * (size_t)pr, xy + 2 * (size_t)pl,
                          xy + 2 * (size_t)p1) > 0) {
                tri[a] = p1;
                tri[b] = p0;
                uint32_t hbl = half[bl];
                /* bl was the hull edge leaving p1: it now lives in slot a.
                 * (p1 is an old hull point, so htri[p1] is up to date and
                 * no hull walk is needed.) */
                if (hbl == NONE) s->htri[p1] = a;
                link_half(half, a, hbl);
                link_half(half, b, half[ar]);
                link_half(half, ar, bl);
                if (sp < cap) stack[sp++] = cb_dt_next(b);
                continue;
            }
        }
        if (sp == 0) return ar;
        a = stack[--sp];
    }
}

/* Inserts point i, which lies outside the current hull (or is skipped). */
static void insert_point(dt_state *s, uint32_t i)
{
    const double *xy = s->xy;
    const double *p = xy + 2 * (size_t)i;
    uint32_t *hnext = s->hnext, *hprev = s->hprev, *htri = s->htri;
#define PT(k) (xy + 2 * (size_t)(k))

    /* Find a hull point near p's angle; removed points linger in the hash. */
    uint32_t start = s->hstart;
    size_t pkey = hash_key(s, p), key = pkey;
    for (size_t j = 0; j < s->hsize; j++, key = key + 1 == s->hsize ? 0 : key + 1) {
        uint32_t h = s->hhash[key];
        if (h != NONE && hnext[h] != h) {
            start = h;
            break;
        }
    }

    /* Walk forward to the first edge that p certainly sees. */
    start = hprev[start];
    uint32_t e = start, q;
    while (q = hnext[e], orient(p, PT(e), PT(q)) >= 0) {
        e = q;
        if (e == start) return; /* sees no edge: (near-)duplicate or on the hull */
    }

    uint32_t t = add_triangle(s, e, i, hnext[e], NONE, NONE, htri[e]);
    htri[i] = legalize(s, t + 2);
    htri[e] = t;

    /* Fan forward over the further visible edges. */
    uint32_t n = hnext[e];
    while (q = hnext[n], orient(p, PT(n), PT(q)) < 0) {
        t = add_triangle(s, n, i, q, htri[i], NONE, htri[n]);
        htri[i] = legalize(s, t + 2);
        hnext[n] = n; /* mark as removed */
        n = q;
    }

    /* If the first edge checked was visible, earlier ones may be too. */
    if (e == start) {
        while (q = hprev[e], orient(p, PT(q), PT(e)) < 0) {
            t = add_triangle(s, q, i, e, NONE, htri[e], htri[q]);
            legalize(s, t + 2);
            htri[q] = t;
            hnext[e] = e;
            e = q;
        }
    }
#undef PT

    s->hstart = hprev[i] = e;
    hnext[e] = hprev[n] = i;
    hnext[i] = n;
    s->hhash[pkey] = i;
    s->hhash[hash_key(s, xy + 2 * (size_t)e)] = e;
}

/* No triangle possible: the hull is the distinct points sorted along the
 * line through i0 and i1 (or just i0 when i1 is NONE: all points equal). */
static int line_hull(cb_delaunay *d, const double *xy, size_t n, uint32_t i0, uint32_t i1)
{
    if (i1 == NONE) {
        if (!(d->hull = malloc(sizeof *d->hull))) return -1;
        d->hull[0] = i0;
        d->n_hull = 1;
        return 0;
    }
    dt_key *keys = malloc(n * sizeof *keys);
    uint32_t *hull = malloc(n * sizeof *hull);
    if (!keys || !hull) {
        free(keys);
        free(hull);
        return -1;
    }
    double ux = xy[2 * i1] - xy[2 * i0], uy = xy[2 * i1 + 1] - xy[2 * i0 + 1];
    for (size_t k = 0; k < n; k++) {
        keys[k].d = (xy[2 * k] - xy[2 * i0]) * ux + (xy[2 * k + 1] - xy[2 * i0 + 1]) * uy;
        keys[k].i = (uint32_t)k;
    }
    sort_keys(keys, n);
    size_t h = 0;
    for (size_t k = 0; k < n; k++)
        if (h == 0 || keys[k].d > keys[k - 1].d) hull[h++] = keys[k].i;
    free(keys);
    d->hull = hull;
    d->n_hull = h;
    return 0;
}

int cb_delaunay_build(cb_delaunay *d, const double *xy, size_t n)
{
    memset(d, 0, sizeof *d);
    if (n > MAX_POINTS) return -1;
    if (n == 0) return 0;

    double minx = INFINITY, miny = INFINITY, maxx = -INFINITY, maxy = -INFINITY;
    for (size_t k = 0; k < n; k++) {
        double x = xy[2 * k], y = xy[2 * k + 1];
        if (x < minx) minx = x;
        if (x > maxx) maxx = x;
        if (y < miny) miny = y;
        if (y > maxy) maxy = y;
    }
    double mx = (minx + maxx) / 2, my = (miny + maxy) / 2;

    /* Seed: the point nearest the centre, its nearest distinct neighbour, and
     * the third point giving the smallest circumcircle, so that the
     * first triangles are small and central. */
    uint32_t i0 = 0, i1 = NONE, i2 = NONE;
    double best = INFINITY;
    for (size_t k = 0; k < n; k++) {
        double dd = dist2(mx, my, xy[2 * k], xy[2 * k + 1]);
        if (dd < best) best = dd, i0 = (uint32_t)k;
    }
    const double *p0 = xy + 2 * (size_t)i0;
    best = INFINITY;
    for (size_t k = 0; k < n; k++) {
        double dd = dist2(p0[0], p0[1], xy[2 * k], xy[2 * k + 1]);
        if (dd > 0 && dd < best) best = dd, i1 = (uint32_t)k;
    }
    best = INFINITY;
    for (size_t k = 0; i1 != NONE && k < n; k++) {
        const double *pk = xy + 2 * k;
        double ox, oy;
        if (orient(p0, xy + 2 * (size_t)i1, pk) == 0) continue; /* no circle */
        circum_offset(p0, xy + 2 * (size_t)i1, pk, &ox, &oy);
        if (ox * ox + oy * oy < best) best = ox * ox + oy * oy, i2 = (uint32_t)k;
    }
    if (i2 == NONE) return line_hull(d, xy, n, i0, i1);
    if (orient(p0, xy + 2 * (size_t)i1, xy + 2 * (size_t)i2) < 0) {
        uint32_t tmp = i1;
        i1 = i2;
        i2 = tmp;
    }

    dt_state s = {0};
    size_t max_half = 3 * (2 * n - 5);
    s.hsize = (size_t)ceil(sqrt((double)n));
    s.stack_cap = n;
    s.tri = malloc(max_half * sizeof *s.tri);
    s.half = malloc(max_half * sizeof *s.half);
    /* Work on points renumbered by insertion rank: the hull and the fresh
     * triangles around it then involve recently inserted points, which sit
     * close together in memory (about 40% faster for 1M random points).
     * Below RENUMBER_MIN the arrays stay in the cache anyway and the copy
     * and the mapping back only cost (timed on random points: no faster
     * with the renumbering up to 2,500 points), so the ids stay. The
     * triangles are the same either way: nothing depends on the numbering. */
    int renumber = n >= RENUMBER_MIN;
    /* The hull links, the flip stack and the hash in one block: one
     * allocation instead of five, which counts for the small
     * triangulations the generator makes by the thousand. */
    s.hprev = malloc((4 * n + s.hsize) * sizeof *s.hprev);
    dt_key *keys = malloc(n * sizeof *keys);
    double *pts = renumber ? malloc(2 * n * sizeof *pts) : NULL;
    int rc = -1;
    if (!s.tri || !s.half || !s.hprev || !keys || (renumber && !pts))
        goto done;
    s.hnext = s.hprev + n;
    s.htri = s.hnext + n;
    s.stack = s.htri + n;
    s.hhash = s.stack + n;

    double ox, oy;
    circum_offset(p0, xy + 2 * (size_t)i1, xy + 2 * (size_t)i2, &ox, &oy);
    s.cx = p0[0] + ox;
    s.cy = p0[1] + oy;
    for (size_t k = 0; k < n; k++) {
        keys[k].d = dist2(s.cx, s.cy, xy[2 * k], xy[2 * k + 1]);
        keys[k].i = (uint32_t)k;
    }
    sort_keys(keys, n);

    uint32_t seed[3] = {i0, i1, i2};
    for (size_t k = 0; renumber && k < n; k++) {
        uint32_t i = keys[k].i;
        pts[2 * k] = xy[2 * (size_t)i];
        pts[2 * k + 1] = xy[2 * (size_t)i + 1];
        if (i == i0) seed[0] = (uint32_t)k;
        else if (i == i1) seed[1] = (uint32_t)k;
        else if (i == i2) seed[2] = (uint32_t)k;
    }
    i0 = seed[0], i1 = seed[1], i2 = seed[2];
    s.xy = renumber ? pts : xy;

    s.hstart = i0;
    s.hnext[i0] = s.hprev[i2] = i1;
    s.hnext[i1] = s.hprev[i0] = i2;
    s.hnext[i2] = s.hprev[i1] = i0;
    s.htri[i0] = 0;
    s.htri[i1] = 1;
    s.htri[i2] = 2;
    for (size_t k = 0; k < s.hsize; k++) s.hhash[k] = NONE;
    for (int j = 0; j < 3; j++) s.hhash[hash_key(&s, s.xy + 2 * (size_t)seed[j])] = seed[j];
    add_triangle(&s, i0, i1, i2, NONE, NONE, NONE);

    const double *prev = NULL;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t i = renumber ? k : keys[k].i;
        const double *p = s.xy + 2 * (size_t)i;
        /* Duplicates sort next to each other (equal distance); skip them
         * early, as delaunator does. Others fail the hull walk anyway. */
        int dup = prev && fabs(p[0] - prev[0]) <= DBL_EPSILON &&
                  fabs(p[1] - prev[1]) <= DBL_EPSILON;
        prev = p;
        if (dup || i == i0 || i == i1 || i == i2) continue;
        insert_point(&s, i);
    }

    size_t h = 0;
    uint32_t e = s.hstart;
    do h++, e = s.hnext[e]; while (e != s.hstart);
    if (!(d->hull = malloc(h * sizeof *d->hull))) goto done;
    for (size_t k = 0; k < h; k++, e = s.hnext[e]) d->hull[k] = renumber ? keys[e].i : e;
    for (size_t k = 0; renumber && k < s.nt; k++) s.tri[k] = keys[s.tri[k]].i; /* to input ids */
    d->n_hull = h;

    /* Give back the unused tail (fewer triangles when hull is large or
     * points are duplicated); keep the big block if shrinking fails. */
    uint32_t *shrunk = realloc(s.tri, s.nt * sizeof *s.tri);
    if (shrunk) s.tri = shrunk;
    shrunk = realloc(s.half, s.nt * sizeof *s.half);
    if (shrunk) s.half = shrunk;
    d->triangles = s.tri;
    d->halfedges = s.half;
    d->n_triangles = s.nt / 3;
    s.tri = s.half = NULL;
    rc = 0;
done:
    free(s.tri);
    free(s.half);
    free(s.hprev);
    free(keys);
    free(pts);
    return rc;
}

void cb_delaunay_free(cb_delaunay *d)
{
    if (!d) return;
    free(d->triangles);
    free(d->halfedges);
    free(d->hull);
    d->triangles = d->halfedges = d->hull = NULL;
    d->n_triangles = d->n_hull = 0;
}
