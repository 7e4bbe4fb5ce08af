/* Plane geometry on points in millimetres. */
#ifndef CB_GEOM_H
#define CB_GEOM_H

#include <float.h>
#include <math.h>

typedef struct { double x, y; } cb_point;

/* Shewchuk's bound on the rounding error of the orientation determinant
 * below, relative to |l| + |r|. */
#define CB_ORIENT_ERR ((3.0 + 16.0 * (DBL_EPSILON / 2)) * (DBL_EPSILON / 2))

/* The exact predicates (exact.c), for when the double result is within its
 * rounding error: the sign is exact, the value close. */
double cb_orient_exact(cb_point a, cb_point b, cb_point c);
/* > 0 when d lies inside the circle through a, b, c (counter-clockwise),
 * < 0 outside, 0 on it. */
double cb_in_circle_exact(cb_point a, cb_point b, cb_point c, cb_point d);

/* Twice the signed area of abc: > 0 when a, b, c turn counter-clockwise (y up),
 * 0 exactly when they are collinear. The double result is used when its
 * rounding error cannot change its sign, else the exact one. Inline: the
 * contract check's crossing test asks for four per edge pair. */
static inline double cb_orient(cb_point a, cb_point b, cb_point c)
{
    double l = (b.x - a.x) * (c.y - a.y), r = (b.y - a.y) * (c.x - a.x);
    double det = l - r;
    if (fabs(det) > CB_ORIENT_ERR * (fabs(l) + fabs(r)) || (l == 0 && r == 0))
        return det;
    return cb_orient_exact(a, b, c);
}
/* A bound on the rounding error of cb_in_circle's double determinant,
 * relative to its permanent (the same sum with every product's absolute
 * value): at most about 11 roundings along any path; 16 leaves room. */
#define CB_IN_CIRCLE_ERR ((16.0 + 256.0 * (DBL_EPSILON / 2)) * (DBL_EPSILON / 2))

/* > 0 when d lies inside the circle through a, b, c (counter-clockwise,
 * y up), < 0 outside, 0 exactly when on it: the double determinant when its
 * rounding error cannot change its sign, else the exact one. */
static inline double cb_in_circle(cb_point a, cb_point b, cb_point c, cb_point d)
{
    double dx = a.x - d.x, dy = a.y - d.y;
    double ex = b.x - d.x, ey = b.y - d.y;
    double fx = c.x - d.x, fy = c.y - d.y;
    double ap = dx * dx + dy * dy, bp = ex * ex + ey * ey, cp = fx * fx + fy * fy;
    double det = dx * (ey * cp - bp * fy) - dy * (ex * cp - bp * fx) + ap * (ex * fy - ey * fx);
    double perm = fabs(dx) * (fabs(ey * cp) + fabs(bp * fy)) +
                  fabs(dy) * (fabs(ex * cp) + fabs(bp * fx)) +
                  ap * (fabs(ex * fy) + fabs(ey * fx));
    if (fabs(det) > CB_IN_CIRCLE_ERR * perm)
        return det;
    return cb_in_circle_exact(a, b, c, d);
}

/* 1 when segments ab and cd share any point other than a common endpoint. */
int cb_segments_cross(cb_point a, cb_point b, cb_point c, cb_point d);
/* Distance from p to the segment ab. */
double cb_point_segment_dist(cb_point p, cb_point a, cb_point b);
/* Distance between segment ab and the axis-aligned rectangle [x0,x1]x[y0,y1]
 * (0 when they touch or overlap). */
double cb_segment_rect_dist(cb_point a, cb_point b, double x0, double y0,
                            double x1, double y1);
/* Distance from p to the rectangle (0 inside). */
double cb_point_rect_dist(cb_point p, double x0, double y0, double x1, double y1);
double cb_dist(cb_point a, cb_point b);
/* Squared distances, for comparisons: no square root (cb_dist's hypot is
 * slow); compare with the squared limit. */
double cb_dist2(cb_point a, cb_point b);
double cb_point_segment_dist2(cb_point p, cb_point a, cb_point b);
/* The point where segments ab and cd cross (they must cross). */
cb_point cb_segment_intersection(cb_point a, cb_point b, cb_point c, cb_point d);

#endif
