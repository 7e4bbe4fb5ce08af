#include <math.h>
#include <stdlib.h>
#include "base/grid.h"

void cb_grid_shape(cb_grid *g, double x0, double y0, double w, double h,
                   double cell, size_t n)
{
    g->x0 = x0;
    g->y0 = y0;
    g->cell = cell;
    double cols = fmax(1, ceil(w / cell)), rows = fmax(1, ceil(h / cell));
    /* Keep the cell count linear in n even for a tiny cell size. */
    double most = fmax(16.0, 4.0 * (double)n);
    while (cols * rows > most) {
        g->cell *= 1.5;
        cols = fmax(1, ceil(w / g->cell));
        rows = fmax(1, ceil(h / g->cell));
    }
    g->cols = (uint32_t)cols;
    g->rows = (uint32_t)rows;
    g->start = g->items = g->cell_of = NULL;
    g->cap = 0;
}

int cb_grid_init(cb_grid *g, double x0, double y0, double w, double h,
                 double cell, size_t n)
{
    cb_grid_shape(g, x0, y0, w, h, cell, n);
    g->start = calloc((size_t)g->cols * g->rows + 1, sizeof *g->start);
    g->items = malloc((n ? n : 1) * sizeof *g->items);
    g->cell_of = malloc((n ? n : 1) * sizeof *g->cell_of);
    g->cap = n;
    if (!g->start || !g->items || !g->cell_of) {
        cb_grid_free(g);
        return -1;
    }
    return 0;
}

void cb_grid_fill(cb_grid *g, const cb_point *p, size_t n)
{
    size_t cells = (size_t)g->cols * g->rows;
    for (size_t i = 0; i <= cells; i++)
        g->start[i] = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t c = (uint32_t)cb_grid_cell(g, p[i]);
        g->cell_of[i] = c;
        g->start[c + 1]++;
    }
    for (size_t i = 0; i < cells; i++)
        g->start[i + 1] += g->start[i];
    /* Fill back to front: start[c+1] counts down to cell c's first slot, so
     * each cell lists its points in index order (determinism). */
    for (size_t i = n; i-- > 0;)
        g->items[--g->start[g->cell_of[i] + 1]] = (uint32_t)i;
    for (size_t c = 0; c < cells; c++)
        g->start[c] = g->start[c + 1];
    g->start[cells] = (uint32_t)n;
}

void cb_grid_free(cb_grid *g)
{
    free(g->start);
    free(g->items);
    free(g->cell_of);
    g->start = NULL;
    g->items = NULL;
    g->cell_of = NULL;
}
