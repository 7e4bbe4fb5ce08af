/* The geometric predicates (base/geom.h, base/exact.c) against exact
 * integer arithmetic: points on a grid of 2^-20 mm, so every coordinate and
 * every difference is a double without rounding and the determinants can be
 * computed exactly in 128-bit integers here. The cases are near-degenerate
 * on purpose (nearly collinear, nearly cocircular, duplicated points), and
 * the test also counts how often the plain double formula gets the sign
 * wrong on them, to show they are hard. */
#include "test.h"
#include "base/geom.h"
#include "base/rng.h"

typedef __int128 i128;

#define UNIT (1.0 / 1048576.0) /* 2^-20 mm */

static double coord(int64_t n)
{
    return (double)n * UNIT;
}

static int sign128(i128 v)
{
    return (v > 0) - (v < 0);
}

static int sign(double v)
{
    return (v > 0) - (v < 0);
}

typedef struct {
    int64_t x, y;
} ipt;

static cb_point pt(ipt p)
{
    return (cb_point){coord(p.x), coord(p.y)};
}

static i128 orient_int(ipt a, ipt b, ipt c)
{
    return (i128)(b.x - a.x) * (c.y - a.y) - (i128)(b.y - a.y) * (c.x - a.x);
}

static i128 in_circle_int(ipt a, ipt b, ipt c, ipt d)
{
    i128 adx = a.x - d.x, ady = a.y - d.y, bdx = b.x - d.x, bdy = b.y - d.y;
    i128 cdx = c.x - d.x, cdy = c.y - d.y;
    i128 al = adx * adx + ady * ady, bl = bdx * bdx + bdy * bdy, cl = cdx * cdx + cdy * cdy;
    return al * (bdx * cdy - bdy * cdx) + bl * (cdx * ady - cdy * adx) +
           cl * (adx * bdy - ady * bdx);
}

static double naive_orient(cb_point a, cb_point b, cb_point c)
{
    return (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
}

static double naive_in_circle(cb_point a, cb_point b, cb_point c, cb_point d)
{
    double dx = a.x - d.x, dy = a.y - d.y, ex = b.x - d.x, ey = b.y - d.y;
    double fx = c.x - d.x, fy = c.y - d.y;
    double ap = dx * dx + dy * dy, bp = ex * ex + ey * ey, cp = fx * fx + fy * fy;
    return dx * (ey * cp - bp * fy) - dy * (ex * cp - bp * fx) + ap * (ex * fy - ey * fx);
}

/* A point of the grid within a 2,000 mm page, offset by up to 3,000 mm so
 * the coordinates carry many significant bits. */
static ipt random_point(cb_rng *rng, int64_t offset)
{
    return (ipt){offset + (int64_t)cb_rng_below(rng, (uint64_t)2000 << 20),
                 offset + (int64_t)cb_rng_below(rng, (uint64_t)2000 << 20)};
}

static void test_orientation_is_exact(void **state)
{
    (void)state;
    cb_rng rng;
    cb_rng_seed(&rng, 42);
    int zero = 0;
    for (int k = 0; k < 200000; k++) {
        int64_t offset = (int64_t)cb_rng_below(&rng, (uint64_t)3000 << 20);
        ipt a = random_point(&rng, offset), b = random_point(&rng, offset);
        /* c on the line ab, nudged by at most a few grid steps */
        int64_t t = (int64_t)cb_rng_below(&rng, 1u << 10);
        ipt c = {a.x + (b.x - a.x) / 1024 * t + (int64_t)cb_rng_below(&rng, 5) - 2,
                 a.y + (b.y - a.y) / 1024 * t + (int64_t)cb_rng_below(&rng, 5) - 2};
        if (k % 7 == 0)
            c = a; /* a duplicated point */
        int want = sign128(orient_int(a, b, c));
        zero += want == 0;
        int got = sign(cb_orient(pt(a), pt(b), pt(c)));
        if (got != want)
            fail_msg("orient #%d: %d, exactly %d", k, got, want);
        /* every rotation and reflection of the triple agrees */
        assert_int_equal(sign(cb_orient(pt(b), pt(c), pt(a))), want);
        assert_int_equal(sign(cb_orient(pt(b), pt(a), pt(c))), -want);
    }
    assert_true(zero > 1000);
}

/* Kettner et al., "Classroom examples of robustness problems in geometric
 * computations" (2008): p = (0.5 + i u, 0.5 + j u), u = 2^-53, against q
 * and r on the line y = x. Exactly, orient(p, q, r) = (r - q)(j - i) u (in
 * either coordinate), so its sign is known without computing it; the plain
 * double formula gets many of these wrong. */
static void test_orientation_near_a_line(void **state)
{
    (void)state;
    static const double ends[][2] = {{12, 24}, {24, 12}, {17.5, -3.25}, {0.75, 1e3}};
    const double u = 0x1p-53;
    int naive_wrong = 0, cases = 0;
    for (size_t e = 0; e < sizeof ends / sizeof *ends; e++) {
        cb_point q = {ends[e][0], ends[e][0]}, r = {ends[e][1], ends[e][1]};
        for (int i = 0; i < 256; i++)
            for (int j = 0; j < 256; j++) {
                cb_point p = {0.5 + i * u, 0.5 + j * u};
                int want = (r.x > q.x ? 1 : -1) * ((j > i) - (j < i));
                int got = sign(cb_orient(p, q, r));
                if (got != want)
                    fail_msg("orient(p(%d, %d), q, r) with q, r on y = x at %g, %g: %d, exactly %d",
                             i, j, q.x, r.x, got, want);
                naive_wrong += sign(naive_orient(p, q, r)) != want;
                cases++;
            }
    }
    print_message("orientation: %d points near a line; plain double got %d signs wrong\n",
                  cases, naive_wrong);
    assert_true(naive_wrong > 1000); /* the cases are hard enough to matter */
}

static void test_in_circle_is_exact(void **state)
{
    (void)state;
    cb_rng rng;
    cb_rng_seed(&rng, 7);
    int naive_wrong = 0, zero = 0, checked = 0;
    for (int k = 0; k < 40000; k++) {
        /* four of the eight points (+-x, +-y), (+-y, +-x) of one
         * Pythagorean triple about an integer centre: exactly cocircular;
         * then the fourth is nudged by a grid step, or not */
        static const int64_t triples[][2] = {{3, 4}, {5, 12}, {8, 15}, {7, 24}, {20, 21}};
        const int64_t *t = triples[cb_rng_below(&rng, 5)];
        int64_t scale = 1 + (int64_t)cb_rng_below(&rng, (uint64_t)1 << 14);
        ipt centre = random_point(&rng, (int64_t)cb_rng_below(&rng, (uint64_t)3000 << 20));
        int pick[8] = {0, 1, 2, 3, 4, 5, 6, 7};
        for (int i = 0; i < 4; i++) { /* four distinct variants */
            int j = i + (int)cb_rng_below(&rng, (uint64_t)(8 - i));
            int tmp = pick[i];
            pick[i] = pick[j];
            pick[j] = tmp;
        }
        ipt p[4];
        for (int i = 0; i < 4; i++) {
            int v = pick[i];
            int64_t x = scale * t[0], y = scale * t[1];
            int64_t sx = v & 1 ? -1 : 1, sy = v & 2 ? -1 : 1;
            p[i] = v & 4 ? (ipt){centre.x + sx * y, centre.y + sy * x}
                         : (ipt){centre.x + sx * x, centre.y + sy * y};
        }
        p[3].x += (int64_t)cb_rng_below(&rng, 3) - 1;
        i128 o = orient_int(p[0], p[1], p[2]);
        if (o == 0)
            continue;
        if (o < 0) { /* make abc counter-clockwise */
            ipt swap = p[1];
            p[1] = p[2];
            p[2] = swap;
        }
        int want = sign128(in_circle_int(p[0], p[1], p[2], p[3]));
        zero += want == 0;
        checked++;
        int got = sign(cb_in_circle(pt(p[0]), pt(p[1]), pt(p[2]), pt(p[3])));
        if (got != want)
            fail_msg("in_circle #%d: %d, exactly %d", k, got, want);
        assert_int_equal(sign(cb_in_circle_exact(pt(p[0]), pt(p[1]), pt(p[2]), pt(p[3]))), want);
        naive_wrong += sign(naive_in_circle(pt(p[0]), pt(p[1]), pt(p[2]), pt(p[3]))) != want;
    }
    print_message("in-circle: %d near-cocircular quadruples (%d exactly cocircular); "
                  "plain double got %d signs wrong\n", checked, zero, naive_wrong);
    assert_true(checked > 30000);
    assert_true(zero > 1000);
    assert_true(naive_wrong > 0);
}

/* The segment test on touching, overlapping and nearly touching segments. */
static void test_segments_on_one_line(void **state)
{
    (void)state;
    double x = coord(123456789), y = coord(987654321);
    cb_point a = {x, y}, b = {x + 3, y + 1}, c = {x + 6, y + 2}, d = {x + 9, y + 3};
    assert_false(cb_segments_cross(a, b, c, d)); /* one line, apart */
    assert_false(cb_segments_cross(a, b, b, c)); /* one line, end to end */
    assert_true(cb_segments_cross(a, c, b, d));  /* one line, overlapping */
    cb_point e = {x + 6, y + 2 + UNIT}; /* a grid step off the line */
    assert_false(cb_segments_cross(a, b, c, e));
    /* a-e passes x + 3 at y + 1 + UNIT / 2: between the ends of this one */
    assert_true(cb_segments_cross(a, e, (cb_point){x + 3, y + 1 + UNIT}, (cb_point){x + 3, y}));
    assert_false(cb_segments_cross(a, e, b, (cb_point){x + 3, y}));
    assert_true(cb_orient(a, b, c) == 0 && cb_orient(a, b, e) != 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_orientation_is_exact),
        cmocka_unit_test(test_orientation_near_a_line),
        cmocka_unit_test(test_in_circle_is_exact),
        cmocka_unit_test(test_segments_on_one_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
