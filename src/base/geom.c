#include <math.h>
#include "base/geom.h"

/* sqrt, not hypot: several times faster, and millimetre coordinates are
 * nowhere near overflowing a square. */
double cb_dist(cb_point a, cb_point b)
{
    double dx = a.x - b.x, dy = a.y - b.y;
    return sqrt(dx * dx + dy * dy);
}

static int same_point(cb_point a, cb_point b)
{
    return a.x == b.x && a.y == b.y;
}

static int on_segment(cb_point p, cb_point a, cb_point b)
{
    return fmin(a.x, b.x) <= p.x && p.x <= fmax(a.x, b.x) &&
           fmin(a.y, b.y) <= p.y && p.y <= fmax(a.y, b.y);
}

int cb_segments_cross(cb_point a, cb_point b, cb_point c, cb_point d)
{
    /* Edges that meet at a shared node are allowed to touch there, unless
     * they overlap along a line (collinear and pointing the same way). */
    int shared = same_point(a, c) || same_point(a, d) || same_point(b, c) ||
                 same_point(b, d);
    double o1 = cb_orient(a, b, c), o2 = cb_orient(a, b, d);
    double o3 = cb_orient(c, d, a), o4 = cb_orient(c, d, b);
    if (shared) {
        if ((same_point(a, c) && same_point(b, d)) || (same_point(a, d) && same_point(b, c)))
            return 1; /* the same segment twice */
        if (o1 != 0 || o2 != 0)
            return 0;
        /* Collinear with a shared end: they overlap if one end of either
         * lies strictly inside the other segment. */
        cb_point pts[4] = {a, b, c, d};
        for (int i = 0; i < 4; i++) {
            cb_point p = pts[i];
            cb_point s0 = i < 2 ? c : a, s1 = i < 2 ? d : b;
            if (!same_point(p, s0) && !same_point(p, s1) && on_segment(p, s0, s1))
                return 1;
        }
        return 0;
    }
    if (((o1 > 0 && o2 < 0) || (o1 < 0 && o2 > 0)) &&
        ((o3 > 0 && o4 < 0) || (o3 < 0 && o4 > 0)))
        return 1;
    if (o1 == 0 && on_segment(c, a, b)) return 1;
    if (o2 == 0 && on_segment(d, a, b)) return 1;
    if (o3 == 0 && on_segment(a, c, d)) return 1;
    if (o4 == 0 && on_segment(b, c, d)) return 1;
    return 0;
}

double cb_point_segment_dist(cb_point p, cb_point a, cb_point b)
{
    double dx = b.x - a.x, dy = b.y - a.y;
    double len2 = dx * dx + dy * dy;
    double t = len2 > 0 ? ((p.x - a.x) * dx + (p.y - a.y) * dy) / len2 : 0;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    cb_point q = {a.x + t * dx, a.y + t * dy};
    return cb_dist(p, q);
}

double cb_dist2(cb_point a, cb_point b)
{
    double dx = a.x - b.x, dy = a.y - b.y;
    return dx * dx + dy * dy;
}

double cb_point_segment_dist2(cb_point p, cb_point a, cb_point b)
{
    double dx = b.x - a.x, dy = b.y - a.y;
    double len2 = dx * dx + dy * dy;
    double t = len2 > 0 ? ((p.x - a.x) * dx + (p.y - a.y) * dy) / len2 : 0;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    cb_point q = {a.x + t * dx, a.y + t * dy};
    return cb_dist2(p, q);
}

double cb_point_rect_dist(cb_point p, double x0, double y0, double x1, double y1)
{
    double dx = fmax(fmax(x0 - p.x, 0), p.x - x1);
    double dy = fmax(fmax(y0 - p.y, 0), p.y - y1);
    /* Beside a side one of them is 0, and hypot(x, 0) is fabs(x) (C11
     * F.10.4.3): no library call for the commonest case. */
    if (dx == 0)
        return fabs(dy);
    if (dy == 0)
        return fabs(dx);
    return hypot(dx, dy);
}

double cb_segment_rect_dist(cb_point a, cb_point b, double x0, double y0,
                            double x1, double y1)
{
    cb_point c[4] = {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
    if (cb_point_rect_dist(a, x0, y0, x1, y1) == 0 ||
        cb_point_rect_dist(b, x0, y0, x1, y1) == 0)
        return 0;
    double best = fmin(cb_point_rect_dist(a, x0, y0, x1, y1),
                       cb_point_rect_dist(b, x0, y0, x1, y1));
    for (int i = 0; i < 4; i++) {
        if (cb_segments_cross(a, b, c[i], c[(i + 1) % 4]))
            return 0;
        best = fmin(best, cb_point_segment_dist(c[i], a, b));
    }
    return best;
}

cb_point cb_segment_intersection(cb_point a, cb_point b, cb_point c, cb_point d)
{
    double den = (b.x - a.x) * (d.y - c.y) - (b.y - a.y) * (d.x - c.x);
    double t = den != 0 ? ((c.x - a.x) * (d.y - c.y) - (c.y - a.y) * (d.x - c.x)) / den : 0;
    cb_point p = {a.x + t * (b.x - a.x), a.y + t * (b.y - a.y)};
    return p;
}
