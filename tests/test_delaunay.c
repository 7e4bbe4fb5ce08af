/* Tests for the Delaunay triangulation: structural invariants (twins, ccw,
 * Euler, hull, area) and the empty-circumcircle property. */
#include "test.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "planar/delaunay.h"

/* Small local PRNG (xorshift64) so runs are reproducible. */
static double rnd(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return (double)(*s >> 11) / 9007199254740992.0; /* [0, 1) */
}

static double *random_points(size_t n, uint64_t seed)
{
    double *xy = malloc(2 * n * sizeof *xy);
    assert_non_null(xy);
    for (size_t i = 0; i < 2 * n; i++) xy[i] = rnd(&seed) * 1000.0;
    return xy;
}

/* w x h unit grid, each coordinate moved by up to +-jitter. */
static double *grid_points(size_t w, size_t h, double jitter, uint64_t seed)
{
    double *xy = malloc(2 * w * h * sizeof *xy);
    assert_non_null(xy);
    for (size_t y = 0; y < h; y++)
        for (size_t x = 0; x < w; x++) {
            size_t i = y * w + x;
            xy[2 * i] = (double)x + jitter * (2 * rnd(&seed) - 1);
            xy[2 * i + 1] = (double)y + jitter * (2 * rnd(&seed) - 1);
        }
    return xy;
}

static double orient(const double *xy, uint32_t a, uint32_t b, uint32_t c)
{
    const double *pa = xy + 2 * (size_t)a, *pb = xy + 2 * (size_t)b, *pc = xy + 2 * (size_t)c;
    return (pb[0] - pa[0]) * (pc[1] - pa[1]) - (pb[1] - pa[1]) * (pc[0] - pa[0]);
}

/* Checks every structural property; returns nothing, fails the test on error. */
static void check_valid(const cb_delaunay *d, const double *xy, size_t n)
{
    size_t ne = 3 * d->n_triangles;
    size_t hull_edges = 0;
    double tri_area = 0;
    for (size_t t = 0; t < d->n_triangles; t++) {
        uint32_t a = d->triangles[3 * t], b = d->triangles[3 * t + 1], c = d->triangles[3 * t + 2];
        assert_true(a < n && b < n && c < n);
        assert_true(orient(xy, a, b, c) > 0); /* counter-clockwise, y up */
        tri_area += orient(xy, a, b, c) / 2;
    }
    /* Twins are symmetric and run the other way. */
    for (uint32_t e = 0; e < ne; e++) {
        uint32_t o = d->halfedges[e];
        if (o == CB_DT_NONE) {
            hull_edges++;
            continue;
        }
        assert_true(o < ne);
        assert_int_equal(d->halfedges[o], e);
        assert_int_equal(d->triangles[e], d->triangles[cb_dt_next(o)]);
        assert_int_equal(d->triangles[cb_dt_next(e)], d->triangles[o]);
    }
    if (d->n_triangles == 0) return;
    /* The untwinned edges are exactly the hull edges, in hull order. */
    assert_int_equal(hull_edges, d->n_hull);
    for (uint32_t e = 0; e < ne; e++) {
        if (d->halfedges[e] != CB_DT_NONE) continue;
        uint32_t a = d->triangles[e], b = d->triangles[cb_dt_next(e)];
        size_t k = 0;
        while (k < d->n_hull && d->hull[k] != a) k++;
        assert_true(k < d->n_hull);
        assert_int_equal(d->hull[(k + 1) % d->n_hull], b);
    }
    /* The hull is convex, counter-clockwise and holds every point. */
    double hull_area = 0;
    for (size_t k = 0; k < d->n_hull; k++) {
        uint32_t a = d->hull[k], b = d->hull[(k + 1) % d->n_hull];
        hull_area += orient(xy, d->hull[0], a, b) / 2;
        assert_true(orient(xy, a, b, d->hull[(k + 2) % d->n_hull]) >= 0);
        for (uint32_t p = 0; p < n; p++) assert_true(orient(xy, a, b, p) >= -1e-9);
    }
    /* Positive triangles that tile the hull exactly cannot overlap. */
    assert_true(fabs(tri_area - hull_area) <= 1e-9 * hull_area);
}

/* No point strictly inside any triangle's circumcircle (relative tolerance). */
static void check_delaunay(const cb_delaunay *d, const double *xy, size_t n)
{
    for (size_t t = 0; t < d->n_triangles; t++) {
        const double *a = xy + 2 * (size_t)d->triangles[3 * t];
        const double *b = xy + 2 * (size_t)d->triangles[3 * t + 1];
        const double *c = xy + 2 * (size_t)d->triangles[3 * t + 2];
        double bx = b[0] - a[0], by = b[1] - a[1], cx = c[0] - a[0], cy = c[1] - a[1];
        double bl = bx * bx + by * by, cl = cx * cx + cy * cy, k = 0.5 / (bx * cy - by * cx);
        double ux = a[0] + (cy * bl - by * cl) * k, uy = a[1] + (bx * cl - cx * bl) * k;
        double r2 = (a[0] - ux) * (a[0] - ux) + (a[1] - uy) * (a[1] - uy);
        for (size_t p = 0; p < n; p++) {
            double dx = xy[2 * p] - ux, dy = xy[2 * p + 1] - uy;
            assert_true(dx * dx + dy * dy >= r2 * (1 - 1e-9));
        }
    }
}

/* Every point index appears in some triangle. */
static void check_all_used(const cb_delaunay *d, size_t n)
{
    char *used = calloc(n, 1);
    assert_non_null(used);
    for (size_t e = 0; e < 3 * d->n_triangles; e++) used[d->triangles[e]] = 1;
    for (size_t i = 0; i < n; i++) assert_true(used[i]);
    free(used);
}

static void test_random(void **state)
{
    (void)state;
    size_t n = 2000;
    double *xy = random_points(n, 42);
    cb_delaunay d;
    assert_int_equal(cb_delaunay_build(&d, xy, n), 0);
    check_valid(&d, xy, n);
    check_delaunay(&d, xy, n);
    check_all_used(&d, n);
    assert_int_equal(d.n_triangles, 2 * n - 2 - d.n_hull); /* Euler */
    cb_delaunay_free(&d);
    free(xy);
}

static void test_euler_sizes(void **state)
{
    (void)state;
    for (size_t n = 3; n < 300; n += 7) {
        double *xy = random_points(n, 1000 + n);
        cb_delaunay d;
        assert_int_equal(cb_delaunay_build(&d, xy, n), 0);
        check_valid(&d, xy, n);
        check_delaunay(&d, xy, n);
        assert_int_equal(d.n_triangles, 2 * n - 2 - d.n_hull);
        cb_delaunay_free(&d);
        free(xy);
    }
}

static void test_jittered_grid(void **state)
{
    (void)state;
    size_t w = 45, h = 45, n = w * h;
    double *xy = grid_points(w, h, 1e-6, 7);
    cb_delaunay d;
    assert_int_equal(cb_delaunay_build(&d, xy, n), 0);
    check_valid(&d, xy, n);
    check_delaunay(&d, xy, n);
    check_all_used(&d, n);
    assert_int_equal(d.n_triangles, 2 * n - 2 - d.n_hull);
    cb_delaunay_free(&d);
    free(xy);
}

static void test_square_grid(void **state)
{
    (void)state;
    size_t w = 30, n = w * w;
    double *xy = grid_points(w, w, 0, 1);
    cb_delaunay d;
    assert_int_equal(cb_delaunay_build(&d, xy, n), 0);
    check_valid(&d, xy, n);   /* includes sum of areas == hull area */
    check_delaunay(&d, xy, n);
    check_all_used(&d, n);
    assert_int_equal(d.n_hull, 4 * (w - 1)); /* straight hull points are kept */
    assert_int_equal(d.n_triangles, 2 * (w - 1) * (w - 1));
    cb_delaunay_free(&d);
    free(xy);
}

static void test_few_points(void **state)
{
    (void)state;
    double xy[] = {1, 2, 5, 3, 4, 4};
    cb_delaunay d;
    assert_int_equal(cb_delaunay_build(&d, xy, 0), 0);
    assert_int_equal(d.n_triangles, 0);
    assert_int_equal(d.n_hull, 0);
    cb_delaunay_free(&d);
    assert_int_equal(cb_delaunay_build(&d, xy, 1), 0);
    assert_int_equal(d.n_triangles, 0);
    assert_int_equal(d.n_hull, 1);
    assert_int_equal(d.hull[0], 0);
    cb_delaunay_free(&d);
    assert_int_equal(cb_delaunay_build(&d, xy, 2), 0);
    assert_int_equal(d.n_triangles, 0);
    assert_int_equal(d.n_hull, 2);
    cb_delaunay_free(&d);
    assert_int_equal(cb_delaunay_build(&d, xy, 3), 0);
    assert_int_equal(d.n_triangles, 1);
    assert_int_equal(d.n_hull, 3);
    check_valid(&d, xy, 3);
    cb_delaunay_free(&d);
    cb_delaunay_free(&d); /* idempotent */
    cb_delaunay_free(NULL);
    assert_null(d.triangles);
    assert_null(d.hull);
}

/* Hull of a collinear set must list its points in order along the line. */
static void check_line(const double *xy, size_t n, size_t expect_hull)
{
    cb_delaunay d;
    assert_int_equal(cb_delaunay_build(&d, xy, n), 0);
    assert_int_equal(d.n_triangles, 0);
    assert_int_equal(d.n_hull, expect_hull);
    if (expect_hull >= 2) {
        const double *a = xy + 2 * (size_t)d.hull[0], *b = xy + 2 * (size_t)d.hull[1];
        double ux = b[0] - a[0], uy = b[1] - a[1], prev = -1;
        for (size_t k = 0; k < d.n_hull; k++) {
            const double *p = xy + 2 * (size_t)d.hull[k];
            double t = (p[0] - a[0]) * ux + (p[1] - a[1]) * uy;
            assert_true(t > prev);
            prev = t;
        }
    }
    cb_delaunay_free(&d);
}

static void test_collinear(void **state)
{
    (void)state;
    double three[] = {0, 0, 2, 2, 1, 1};
    check_line(three, 3, 3);
    double xy[200];
    uint64_t s = 99;
    for (int dir = 0; dir < 3; dir++) {
        for (size_t i = 0; i < 100; i++) {
            /* Shuffled positions along horizontal, vertical, diagonal lines. */
            double t = (double)((i * 37) % 100);
            xy[2 * i] = dir == 1 ? 5.0 : t * 0.5;
            xy[2 * i + 1] = dir == 0 ? -3.0 : (dir == 1 ? t : 2.0 + t * 1.5);
        }
        check_line(xy, 100, 100);
    }
    for (size_t i = 0; i < 100; i++) xy[2 * i] = xy[2 * i + 1] = (double)(size_t)(rnd(&s) * 10);
    check_line(xy, 100, 10); /* on y = x, with repeats: distinct values only */
    for (size_t i = 0; i < 100; i++) xy[2 * i] = 3, xy[2 * i + 1] = 4;
    check_line(xy, 100, 1); /* all equal */
}

static void test_duplicates(void **state)
{
    (void)state;
    double small[] = {0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 1, 0};
    cb_delaunay d;
    assert_int_equal(cb_delaunay_build(&d, small, 7), 0);
    check_valid(&d, small, 7);
    assert_int_equal(d.n_triangles, 1);
    assert_int_equal(d.n_hull, 3);
    cb_delaunay_free(&d);

    /* Each of m random points three times, shuffled: same mesh size as m. */
    size_t m = 500, n = 3 * m;
    double *base = random_points(m, 5);
    double *xy = malloc(2 * n * sizeof *xy);
    assert_non_null(xy);
    uint64_t s = 11;
    for (size_t i = 0; i < n; i++) {
        xy[2 * i] = base[2 * (i % m)];
        xy[2 * i + 1] = base[2 * (i % m) + 1];
    }
    for (size_t i = n - 1; i > 0; i--) {
        size_t j = (size_t)(rnd(&s) * (double)(i + 1));
        double tx = xy[2 * i], ty = xy[2 * i + 1];
        xy[2 * i] = xy[2 * j], xy[2 * i + 1] = xy[2 * j + 1];
        xy[2 * j] = tx, xy[2 * j + 1] = ty;
    }
    assert_int_equal(cb_delaunay_build(&d, xy, n), 0);
    check_valid(&d, xy, n);
    check_delaunay(&d, xy, n);
    assert_int_equal(d.n_triangles, 2 * m - 2 - d.n_hull);
    /* No location is used by two different indices. */
    for (size_t e = 0; e < 3 * d.n_triangles; e++)
        for (size_t f = 0; f < 3 * d.n_triangles; f++) {
            uint32_t a = d.triangles[e], b = d.triangles[f];
            if (a != b) assert_false(xy[2 * a] == xy[2 * b] && xy[2 * a + 1] == xy[2 * b + 1]);
        }
    cb_delaunay_free(&d);
    free(xy);
    free(base);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random),
        cmocka_unit_test(test_euler_sizes),
        cmocka_unit_test(test_jittered_grid),
        cmocka_unit_test(test_square_grid),
        cmocka_unit_test(test_few_points),
        cmocka_unit_test(test_collinear),
        cmocka_unit_test(test_duplicates),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
