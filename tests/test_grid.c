/* Tests for the uniform grid (grid.h): a query through the grid finds
 * exactly the points a brute-force scan finds. */
#include "test.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/grid.h"

static double rnd(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return (double)(*s >> 11) / 9007199254740992.0;
}

/* Indices within R of q, through the grid, in a 0/1 array. */
static void grid_query(const cb_grid *g, const cb_point *p, cb_point q, double r, char *hit)
{
    uint32_t c0, r0, c1, r1;
    cb_grid_range(g, q.x, q.y, r, r, &c0, &r0, &c1, &r1);
    assert_true(c0 <= c1 && c1 < g->cols && r0 <= r1 && r1 < g->rows);
    for (uint32_t y = r0; y <= r1; y++)
        for (uint32_t x = c0; x <= c1; x++) {
            size_t cell = (size_t)y * g->cols + x;
            for (uint32_t k = g->start[cell]; k < g->start[cell + 1]; k++) {
                uint32_t i = g->items[k];
                assert_int_equal(hit[i] & 2, 0); /* each point in one cell only */
                hit[i] |= 2;
                if (cb_dist(p[i], q) <= r)
                    hit[i] |= 1;
            }
        }
}

/* Points in the box [bx0,bx1]x[by0,by1], through cb_grid_box and the row
 * runs of cb_grid_row, in a 0/1 array. */
static void grid_box_query(const cb_grid *g, const cb_point *p, double bx0, double by0,
                           double bx1, double by1, char *hit)
{
    uint32_t c0, r0, c1, r1;
    cb_grid_box(g, bx0, by0, bx1, by1, &c0, &r0, &c1, &r1);
    assert_true(c0 <= c1 && c1 < g->cols && r0 <= r1 && r1 < g->rows);
    for (uint32_t y = r0; y <= r1; y++) {
        uint32_t k, end;
        cb_grid_row(g, y, c0, c1, &k, &end);
        for (; k < end; k++) {
            uint32_t i = g->items[k];
            assert_int_equal(hit[i] & 2, 0); /* each point in one run only */
            hit[i] |= 2;
            if (p[i].x >= bx0 && p[i].x <= bx1 && p[i].y >= by0 && p[i].y <= by1)
                hit[i] |= 1;
        }
    }
}

/* N random points in [x0, x0+w] x [y0, y0+h] (a few on the far borders and
 * some outside the box), queried at random places with radius R. */
static void check_against_brute_force(size_t n, double x0, double y0, double w, double h,
                                      double cell, double r, uint64_t seed)
{
    cb_point *p = malloc(n * sizeof *p);
    char *hit = malloc(n);
    assert_non_null(p);
    assert_non_null(hit);
    for (size_t i = 0; i < n; i++) {
        p[i].x = x0 + rnd(&seed) * w;
        p[i].y = y0 + rnd(&seed) * h;
        if (i % 17 == 0) p[i].x = x0 + w;          /* on the far border */
        if (i % 23 == 0) p[i].y = y0 + h;
        if (i % 29 == 0) p[i].x = x0 - 0.1 * w;    /* outside: clamped to an edge cell */
        if (i % 31 == 0) p[i].y = y0 + 1.1 * h;
    }
    cb_grid g;
    assert_int_equal(cb_grid_init(&g, x0, y0, w, h, cell, n), 0);
    cb_grid_fill(&g, p, n);
    /* Every point is bucketed once; each cell lists its points in index order. */
    assert_int_equal(g.start[0], 0);
    assert_int_equal(g.start[(size_t)g.cols * g.rows], n);
    for (size_t c = 0; c < (size_t)g.cols * g.rows; c++)
        for (uint32_t k = g.start[c]; k + 1 < g.start[c + 1]; k++)
            assert_true(g.items[k] < g.items[k + 1]);
    for (int t = 0; t < 300; t++) {
        cb_point q = {x0 + (rnd(&seed) * 1.2 - 0.1) * w, y0 + (rnd(&seed) * 1.2 - 0.1) * h};
        if (t < (int)n && t % 3 == 0)
            q = p[t]; /* centred on a point, as the checks do */
        memset(hit, 0, n);
        grid_query(&g, p, q, r, hit);
        for (size_t i = 0; i < n; i++) {
            int near = cb_dist(p[i], q) <= r;
            if (near != (hit[i] & 1))
                fail_msg("point %zu (%g, %g), query (%g, %g) r %g: brute force %d, grid %d", i,
                         p[i].x, p[i].y, q.x, q.y, r, near, hit[i] & 1);
        }
        /* A box from q to a point: corners exactly on points' coordinates. */
        cb_point o = p[(size_t)t % n];
        double bx0 = fmin(q.x, o.x), bx1 = fmax(q.x, o.x) + r * rnd(&seed);
        double by0 = fmin(q.y, o.y) - r * rnd(&seed), by1 = fmax(q.y, o.y);
        memset(hit, 0, n);
        grid_box_query(&g, p, bx0, by0, bx1, by1, hit);
        for (size_t i = 0; i < n; i++) {
            int in = p[i].x >= bx0 && p[i].x <= bx1 && p[i].y >= by0 && p[i].y <= by1;
            if (in != (hit[i] & 1))
                fail_msg("point %zu (%g, %g), box [%g, %g]x[%g, %g]: brute force %d, grid %d",
                         i, p[i].x, p[i].y, bx0, bx1, by0, by1, in, hit[i] & 1);
        }
    }
    cb_grid_free(&g);
    free(p);
    free(hit);
}

static void test_matches_brute_force(void **state)
{
    (void)state;
    /* Radius equal to the cell, as in the contract checks. */
    check_against_brute_force(500, 10, 10, 277, 190, 14.5, 14.5, 1);
    /* Radius larger and smaller than the cell. */
    check_against_brute_force(800, 0, 0, 100, 100, 5, 17, 2);
    check_against_brute_force(800, -50, 20, 300, 40, 20, 3, 3);
    /* Dense: many points per cell. */
    check_against_brute_force(3000, 0, 0, 50, 50, 10, 6, 4);
}

static void test_tiny_cell_is_capped(void **state)
{
    (void)state;
    /* A tiny cell would make millions of cells; the grid grows the cell
     * so that the cell count stays linear in n, and queries still work. */
    cb_grid g;
    assert_int_equal(cb_grid_init(&g, 0, 0, 1000, 1000, 0.001, 100), 0);
    assert_true((double)g.cols * g.rows <= 4.0 * 100 + 16);
    assert_true(g.cell * g.cols >= 1000 && g.cell * g.rows >= 1000);
    cb_grid_free(&g);
    check_against_brute_force(100, 0, 0, 1000, 1000, 0.001, 120, 5);
}

static void test_empty_and_refill(void **state)
{
    (void)state;
    cb_grid g;
    assert_int_equal(cb_grid_init(&g, 0, 0, 10, 10, 1, 0), 0);
    cb_grid_fill(&g, NULL, 0);
    for (size_t c = 0; c <= (size_t)g.cols * g.rows; c++)
        assert_int_equal(g.start[c], 0);
    cb_grid_free(&g);
    assert_null(g.start);
    cb_grid_free(&g); /* twice is harmless */

    /* Refilling with moved points forgets the old positions. */
    cb_point p[3] = {{1, 1}, {9, 9}, {5, 5}};
    assert_int_equal(cb_grid_init(&g, 0, 0, 10, 10, 2, 3), 0);
    cb_grid_fill(&g, p, 3);
    p[0].x = 9;
    p[0].y = 1;
    cb_grid_fill(&g, p, 3);
    char hit[3] = {0, 0, 0};
    grid_query(&g, p, (cb_point){1, 1}, 1.5, hit);
    assert_int_equal(hit[0] & 1, 0);
    memset(hit, 0, 3);
    grid_query(&g, p, (cb_point){9, 1}, 0.5, hit);
    assert_int_equal(hit[0] & 1, 1);
    cb_grid_free(&g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_matches_brute_force),
        cmocka_unit_test(test_tiny_cell_is_capped),
        cmocka_unit_test(test_empty_and_refill),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
