/* Tests for plane geometry (geom.h): the segment crossing test the contract
 * depends on, and the distances used for grazes and start rectangles. */
#include "test.h"

#include <math.h>

#include "base/geom.h"

static cb_point P(double x, double y)
{
    cb_point p = {x, y};
    return p;
}

/* cb_segments_cross(ab, cd), which must not depend on the order of the
 * segments or of their ends: all 8 orders give the same answer. */
static int cross(cb_point a, cb_point b, cb_point c, cb_point d)
{
    int r = cb_segments_cross(a, b, c, d);
    assert_int_equal(cb_segments_cross(b, a, c, d), r);
    assert_int_equal(cb_segments_cross(a, b, d, c), r);
    assert_int_equal(cb_segments_cross(b, a, d, c), r);
    assert_int_equal(cb_segments_cross(c, d, a, b), r);
    assert_int_equal(cb_segments_cross(d, c, a, b), r);
    assert_int_equal(cb_segments_cross(c, d, b, a), r);
    assert_int_equal(cb_segments_cross(d, c, b, a), r);
    return r;
}

static void test_orient(void **state)
{
    (void)state;
    assert_true(cb_orient(P(0, 0), P(1, 0), P(0, 1)) == 1);   /* counter-clockwise, y up */
    assert_true(cb_orient(P(0, 0), P(0, 1), P(1, 0)) == -1);
    assert_true(cb_orient(P(0, 0), P(1, 1), P(3, 3)) == 0);
    assert_true(cb_orient(P(1, 1), P(4, 1), P(2, 5)) == 12); /* twice the area 6 */
}

static void test_proper_cross(void **state)
{
    (void)state;
    assert_int_equal(cross(P(0, 0), P(10, 10), P(0, 10), P(10, 0)), 1);
    /* Nearly parallel, crossing near one end. */
    assert_int_equal(cross(P(0, 0), P(100, 1), P(0, 0.5), P(100, 0.4)), 1);
    /* The lines cross but the segments stop short. */
    assert_int_equal(cross(P(0, 0), P(4, 4), P(0, 10), P(10, 0)), 0);
    assert_int_equal(cross(P(0, 0), P(10, 0), P(5, 1), P(5, 10)), 0);
}

static void test_t_touch(void **state)
{
    (void)state;
    /* An end of one segment on the inside of the other: they share a point
     * that is not a common endpoint. */
    assert_int_equal(cross(P(0, 0), P(10, 0), P(5, 0), P(5, 7)), 1);
    assert_int_equal(cross(P(0, 0), P(10, 10), P(5, 5), P(0, 9)), 1);
    /* Just short of touching. */
    assert_int_equal(cross(P(0, 0), P(10, 0), P(5, 0.001), P(5, 7)), 0);
}

static void test_shared_endpoint(void **state)
{
    (void)state;
    /* Two edges of a node: allowed. */
    assert_int_equal(cross(P(0, 0), P(10, 0), P(0, 0), P(0, 10)), 0);
    assert_int_equal(cross(P(0, 0), P(10, 0), P(10, 0), P(20, 5)), 0);
    /* Collinear, going opposite ways from the shared node: a straight path. */
    assert_int_equal(cross(P(0, 0), P(10, 0), P(10, 0), P(20, 0)), 0);
    assert_int_equal(cross(P(-3, -3), P(0, 0), P(0, 0), P(7, 7)), 0);
    /* Collinear and the same way: one lies along the other. */
    assert_int_equal(cross(P(0, 0), P(10, 0), P(0, 0), P(5, 0)), 1);
    assert_int_equal(cross(P(0, 0), P(10, 0), P(0, 0), P(20, 0)), 1);
    assert_int_equal(cross(P(0, 0), P(4, 4), P(0, 0), P(2, 2)), 1);
}

/* The same segment twice shares every point, not only its ends (geom.h:
 * "1 when segments ab and cd share any point other than a common endpoint"). */
static void test_identical_segments(void **state)
{
    (void)state;
    assert_int_equal(cross(P(1, 2), P(3, 5), P(1, 2), P(3, 5)), 1);
    assert_int_equal(cross(P(0, 0), P(10, 0), P(0, 0), P(10, 0)), 1);
}

static void test_collinear(void **state)
{
    (void)state;
    /* Overlapping without a shared endpoint. */
    assert_int_equal(cross(P(0, 0), P(10, 0), P(5, 0), P(15, 0)), 1);
    assert_int_equal(cross(P(0, 0), P(10, 0), P(2, 0), P(8, 0)), 1);  /* one inside the other */
    assert_int_equal(cross(P(0, 0), P(0, 10), P(0, 3), P(0, 30)), 1); /* vertical */
    /* Disjoint on the same line. */
    assert_int_equal(cross(P(0, 0), P(10, 0), P(11, 0), P(20, 0)), 0);
    assert_int_equal(cross(P(0, 0), P(3, 3), P(4, 4), P(9, 9)), 0);
    /* Touching end to end at a point that is not a shared node can only
     * happen with distinct points, so this is disjoint. */
    assert_int_equal(cross(P(0, 0), P(10, 0), P(10.5, 0), P(20, 0)), 0);
}

static void test_parallel(void **state)
{
    (void)state;
    assert_int_equal(cross(P(0, 0), P(10, 0), P(0, 1), P(10, 1)), 0);
    assert_int_equal(cross(P(0, 0), P(10, 10), P(1, 0), P(11, 10)), 0);
    assert_int_equal(cross(P(0, 0), P(0, 10), P(1e-9, 0), P(1e-9, 10)), 0);
}

static void test_point_segment_dist(void **state)
{
    (void)state;
    /* Foot of the perpendicular inside the segment. */
    assert_true(fabs(cb_point_segment_dist(P(5, 3), P(0, 0), P(10, 0)) - 3) < 1e-12);
    assert_true(fabs(cb_point_segment_dist(P(1, 1), P(-1, 1), P(1, -1)) - sqrt(2)) < 1e-12);
    /* Beyond either end: distance to that end, not to the line. */
    assert_true(fabs(cb_point_segment_dist(P(13, 4), P(0, 0), P(10, 0)) - 5) < 1e-12);
    assert_true(fabs(cb_point_segment_dist(P(-3, -4), P(0, 0), P(10, 0)) - 5) < 1e-12);
    /* On the segment, and a segment of length zero. */
    assert_true(cb_point_segment_dist(P(7, 0), P(0, 0), P(10, 0)) == 0);
    assert_true(fabs(cb_point_segment_dist(P(4, 5), P(1, 1), P(1, 1)) - 5) < 1e-12);
    /* Symmetric in the segment's ends. */
    assert_true(cb_point_segment_dist(P(2, 9), P(0, 0), P(10, 3)) ==
                cb_point_segment_dist(P(2, 9), P(10, 3), P(0, 0)));
}

static void test_point_rect_dist(void **state)
{
    (void)state;
    assert_true(cb_point_rect_dist(P(1, 1), 0, 0, 2, 2) == 0);      /* inside */
    assert_true(cb_point_rect_dist(P(2, 1), 0, 0, 2, 2) == 0);      /* on the border */
    assert_true(fabs(cb_point_rect_dist(P(5, 1), 0, 0, 2, 2) - 3) < 1e-12);
    assert_true(fabs(cb_point_rect_dist(P(5, 6), 0, 0, 2, 2) - 5) < 1e-12); /* to a corner */
}

static void test_segment_rect_dist(void **state)
{
    (void)state;
    double x0 = 0, y0 = 0, x1 = 4, y1 = 2;
    /* Through the rectangle, no end inside. */
    assert_true(cb_segment_rect_dist(P(-5, 1), P(10, 1), x0, y0, x1, y1) == 0);
    /* Entirely inside. */
    assert_true(cb_segment_rect_dist(P(1, 1), P(3, 1.5), x0, y0, x1, y1) == 0);
    /* One end inside. */
    assert_true(cb_segment_rect_dist(P(2, 1), P(20, 30), x0, y0, x1, y1) == 0);
    /* Parallel to a side, above it. */
    assert_true(fabs(cb_segment_rect_dist(P(-1, 5), P(5, 5), x0, y0, x1, y1) - 3) < 1e-12);
    /* Passing a corner diagonally: the closest point is inside the segment,
     * not at either end (x + y = 9 against the corner (4, 2)). */
    assert_true(fabs(cb_segment_rect_dist(P(9, 0), P(0, 9), x0, y0, x1, y1) - 3 / sqrt(2)) <
                1e-12);
    /* Ends closest: segment pointing away. */
    assert_true(fabs(cb_segment_rect_dist(P(7, 6), P(10, 10), x0, y0, x1, y1) - 5) < 1e-12);
    /* Touching a corner exactly. */
    assert_true(cb_segment_rect_dist(P(4, 2), P(9, 9), x0, y0, x1, y1) == 0);
    assert_true(cb_segment_rect_dist(P(2, 4), P(6, 0), x0, y0, x1, y1) == 0);
}

static void test_segment_intersection(void **state)
{
    (void)state;
    cb_point p = cb_segment_intersection(P(0, 0), P(10, 10), P(0, 10), P(10, 0));
    assert_true(fabs(p.x - 5) < 1e-12 && fabs(p.y - 5) < 1e-12);
    p = cb_segment_intersection(P(0, 0), P(8, 0), P(2, -1), P(2, 3));
    assert_true(fabs(p.x - 2) < 1e-12 && fabs(p.y) < 1e-12);
}

static void test_dist(void **state)
{
    (void)state;
    assert_true(cb_dist(P(1, 1), P(4, 5)) == 5);
    assert_true(cb_dist(P(-2, 3), P(-2, 3)) == 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_orient),
        cmocka_unit_test(test_proper_cross),
        cmocka_unit_test(test_t_touch),
        cmocka_unit_test(test_shared_endpoint),
        cmocka_unit_test(test_identical_segments),
        cmocka_unit_test(test_collinear),
        cmocka_unit_test(test_parallel),
        cmocka_unit_test(test_point_segment_dist),
        cmocka_unit_test(test_point_rect_dist),
        cmocka_unit_test(test_segment_rect_dist),
        cmocka_unit_test(test_segment_intersection),
        cmocka_unit_test(test_dist),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
