/* Plane geometry on points in millimetres. */
#ifndef CB_GEOM_H
#define CB_GEOM_H

typedef struct { double x, y; } cb_point;

/* Twice the signed area of abc: > 0 when a, b, c turn counter-clockwise (y up).
 * Inline: the contract check's crossing test asks for four per edge pair. */
static inline double cb_orient(cb_point a, cb_point b, cb_point c)
{
    return (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
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
