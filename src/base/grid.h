/* A uniform grid over points: neighbours of a point in O(1) cells. */
#ifndef CB_GRID_H
#define CB_GRID_H

#include <stddef.h>
#include <stdint.h>
#include "base/geom.h"

typedef struct {
    double x0, y0, cell;
    uint32_t cols, rows;
    uint32_t *start;    /* cols * rows + 1 offsets into items */
    uint32_t *items;    /* point indices, bucketed by cell */
    uint32_t *cell_of;  /* each point's cell, as of the last fill */
    size_t cap;         /* points items can hold */
} cb_grid;

/* The cell size, columns and rows cb_grid_init would choose, without
 * allocating (start, items and cell_of stay NULL): for callers that only
 * need cell ranges. */
void cb_grid_shape(cb_grid *g, double x0, double y0, double w, double h,
                   double cell, size_t n);
/* Sizes a grid over [x0, x0+w] x [y0, y0+h] for up to N points; -1 when out of memory. */
int cb_grid_init(cb_grid *g, double x0, double y0, double w, double h,
                 double cell, size_t n);
/* Buckets the N points (counting sort, stable: items keep index order per cell). */
void cb_grid_fill(cb_grid *g, const cb_point *p, size_t n);
void cb_grid_free(cb_grid *g);
/* The cell V (in cells from the origin) falls in, clamped to [0, n). */
static inline uint32_t cb_grid_clamp(double v, uint32_t n)
{
    if (!(v > 0)) /* also catches NaN */
        return 0;
    if (v >= (double)n)
        return n - 1;
    return (uint32_t)v;
}

/* The cell that holds p (as cb_grid_fill files it). */
static inline size_t cb_grid_cell(const cb_grid *g, cb_point p)
{
    uint32_t c = cb_grid_clamp((p.x - g->x0) / g->cell, g->cols);
    uint32_t r = cb_grid_clamp((p.y - g->y0) / g->cell, g->rows);
    return (size_t)r * g->cols + c;
}

/* The cell range [c0,c1]x[r0,r1] whose cells hold every point of the box
 * [x0,x1]x[y0,y1] (exactly: a point's cell is computed the same way).
 * Inline: the filters in connect.c ask once per edge. */
static inline void cb_grid_box(const cb_grid *g, double x0, double y0, double x1, double y1,
                               uint32_t *c0, uint32_t *r0, uint32_t *c1, uint32_t *r1)
{
    *c0 = cb_grid_clamp((x0 - g->x0) / g->cell, g->cols);
    *c1 = cb_grid_clamp((x1 - g->x0) / g->cell, g->cols);
    *r0 = cb_grid_clamp((y0 - g->y0) / g->cell, g->rows);
    *r1 = cb_grid_clamp((y1 - g->y0) / g->cell, g->rows);
}

/* The cell range [c0,c1]x[r0,r1] that covers the box around (x, y) of
 * half-size R. Inline: the contract check asks for hundreds per board. */
static inline void cb_grid_range(const cb_grid *g, double x, double y, double rx, double ry,
                                 uint32_t *c0, uint32_t *r0, uint32_t *c1, uint32_t *r1)
{
    cb_grid_box(g, x - rx, y - ry, x + rx, y + ry, c0, r0, c1, r1);
}

/* The points of cells c0..c1 in row r: items[*k0 .. *k1). Cells are stored
 * row by row, so a run of cells in a row is one run of items. */
static inline void cb_grid_row(const cb_grid *g, uint32_t r, uint32_t c0, uint32_t c1,
                               uint32_t *k0, uint32_t *k1)
{
    size_t row = (size_t)r * g->cols;
    *k0 = g->start[row + c0];
    *k1 = g->start[row + c1 + 1];
}

#endif
