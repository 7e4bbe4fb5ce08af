/* Delaunay triangulation of 2-D points (sweep-hull / "delaunator" algorithm). */
#ifndef CB_DELAUNAY_H
#define CB_DELAUNAY_H

#include <stddef.h>
#include <stdint.h>

/* Marks "no such half-edge" (a hull edge has no twin). */
#define CB_DT_NONE UINT32_MAX

/* Result of cb_delaunay_build; owns its arrays (release with cb_delaunay_free). */
typedef struct {
    uint32_t *triangles;   /* 3 * n_triangles point indices; each triangle counter-clockwise in a y-UP frame (i.e. orient2d > 0 with the usual (bx-ax)*(cy-ay)-(by-ay)*(cx-ax)) */
    uint32_t *halfedges;   /* 3 * n_triangles: halfedges[e] is the opposite half-edge in the adjacent triangle, or CB_DT_NONE on the hull */
    size_t n_triangles;
    uint32_t *hull;        /* convex hull point indices, in order (counter-clockwise, y up, when there are triangles) */
    size_t n_hull;
} cb_delaunay;

/* Triangulates n points xy[2*i], xy[2*i+1]. Returns 0 on success, -1 if out of memory (d is then empty).
   Fewer than 3 points, or all points collinear, give 0 triangles (and success); the hull then lists the points
   sorted along the line. Half-edge e goes from triangles[e] to triangles[next(e)], next(e) = e%3==2 ? e-2 : e+1.
   Coordinates must be finite. Duplicate points are skipped (they get no triangles, and only one of them can be
   on the hull). -1 is also returned if n is too large for 32-bit half-edge indices (n > 715,000,000). */
int cb_delaunay_build(cb_delaunay *d, const double *xy, size_t n);

/* Frees the arrays; d may be NULL or already freed (idempotent: pointers set to NULL). */
void cb_delaunay_free(cb_delaunay *d);

/* Next half-edge in the same triangle (counter-clockwise). */
static inline uint32_t cb_dt_next(uint32_t e)
{
    return e % 3 == 2 ? e - 2 : e + 1;
}

/* Previous half-edge in the same triangle. */
static inline uint32_t cb_dt_prev(uint32_t e)
{
    return e % 3 == 0 ? e + 2 : e - 1;
}

#endif /* CB_DELAUNAY_H */
