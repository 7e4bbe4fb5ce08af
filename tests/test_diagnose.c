/* Tests for the contract report (cb_board_diagnose): hand-made boards with
 * violations worked out by hand get exactly those lines; generated boards,
 * which meet the contract, get none; edits of them get the line naming the
 * edit. */
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cutboard.h"

static char *diagnose(const cb_board *b, size_t *count)
{
    char *text = NULL;
    cb_error err = {CB_OK, "", 0, ""};
    if (cb_board_diagnose(b, 2, 4, &text, count, &err) != CB_OK)
        fail_msg("%s", err.message);
    assert_non_null(text);
    return text;
}

static cb_game *drawing(const char *obj)
{
    cb_game *g = NULL;
    cb_error err = {CB_OK, "", 0, ""};
    if (cb_game_parse_obj(obj, strlen(obj), "d.obj", NULL, &g, &err) != CB_OK)
        fail_msg("%s", err.message);
    return g;
}

static void assert_has(const char *text, const char *line)
{
    if (!strstr(text, line))
        fail_msg("\"%s\" is not in the report:\n%s", line, text);
}

/* A 200 x 100 mm drawing (1:1, trim at x 48.5..248.5, y 55..155) whose
 * diagonals cross at the centre of the page; corners are nodes 0..3. */
static void test_crossing_worked_by_hand(void **state)
{
    (void)state;
    cb_game *g = drawing("v 0 0\nv 200 0\nv 200 100\nv 0 100\ng center\nv 100 80\n"
                         "l 1 3\nl 2 4\nl 1 5\n");
    size_t n;
    char *text = diagnose(g->sheets[0], &n);
    assert_has(text, "edge 0-2 crosses edge 1-3 at (148.5, 105.0) mm\n");
    /* 0-4 runs from (0, 0) to (100, 80): it meets 1-3 at (76.9, 61.5). */
    assert_has(text, "edge 1-3 crosses edge 0-4 at (125.4, 93.5) mm\n");
    assert_has(text, "0 starts, 12 wanted (3 on each side)\n");
    assert_has(text, "the top side has 0 starts on its trim line, 3 wanted\n");
    assert_true(n >= 6);
    /* The verdict says the same. */
    cb_verdict v;
    cb_error err;
    assert_int_equal(cb_board_check(g->sheets[0], 2, 4, &v, &err), CB_OK);
    assert_false(v.ok);
    assert_int_equal(v.crossings, 2);
    free(text);
    cb_game_free(g);
}

/* A hub with 6 spokes; two nodes 5 mm apart; an edge through both (the
 * drawing is 200 x 100 mm: trim at x 48.5, y 55, page y = 155 - y). */
static void test_caps_overlaps_grazes(void **state)
{
    (void)state;
    cb_game *g = drawing("g center\nv 100 50\ng\n"
                         "v 0 0\nv 200 0\nv 200 100\nv 0 100\nv 100 0\nv 100 100\n"
                         "v 40 50\nv 45 50\n"             /* 8, 9: 5 mm apart */
                         "l 2 3 4 5 2\nl 8 1\nl 1 9\n"     /* node 2 (200,0)... */
                         "v 150 20\nl 10 2\nl 10 3\nl 10 4\nl 10 5\nl 10 6\nl 10 7\n"
                         "v 42 0\nv 42 100\nl 11 12\n");   /* 10-11 along x = 42 */
    size_t n;
    char *text = diagnose(g->sheets[0], &n);
    assert_has(text, "node 9 has 6 edges, cap is 4\n");
    assert_has(text, "nodes 7 and 8 overlap (5.0 mm apart, at least 14.5)\n");
    assert_has(text, "edge 10-11 passes through node 7 (2.0 mm from its centre, radius 6.5)\n");
    assert_has(text, "edge 10-11 passes through node 8 (3.0 mm from its centre, radius 6.5)\n");
    assert_has(text, "edge 0-7 crosses edge 10-11 at (90.5, 105.0) mm\n");
    free(text);
    cb_game_free(g);
}

static cb_game *generated(const char *seed)
{
    cb_spec spec;
    cb_spec_defaults(&spec);
    spec.seed = seed;
    spec.shared = 1;
    cb_game *g = NULL;
    cb_error err;
    if (cb_game_generate(&spec, &g, &err) != CB_OK)
        fail_msg("%s", err.message);
    return g;
}

static void test_generated_boards_are_clean(void **state)
{
    (void)state;
    char seed[32];
    for (int k = 0; k < 40; k++) {
        snprintf(seed, sizeof seed, "diagnose %d", k);
        cb_game *g = generated(seed);
        size_t n = 99;
        char *text = diagnose(g->sheets[0], &n);
        if (n != 0 || *text)
            fail_msg("seed %s: %s", seed, text);
        free(text);
        cb_game_free(g);
    }
}

static uint32_t first_start(const cb_board *b, int skip)
{
    for (uint32_t i = 0; i < b->n_nodes; i++)
        if (b->nodes[i].kind == CB_KIND_START && skip-- == 0)
            return i;
    fail_msg("no start");
    return 0;
}

/* Each edit of a good board is named: a start moved off its line, a start
 * cut down to one edge, an extra edge over a cap. */
static void test_edits_are_named(void **state)
{
    (void)state;
    cb_game *g = generated("diagnose edits");
    cb_board *b = g->sheets[0];
    char want[160], *text;
    size_t n;

    uint32_t s = first_start(b, 0);
    cb_node saved = b->nodes[s];
    static const char *const sides[] = {"top", "right", "bottom", "left"};
    if (saved.side == CB_SIDE_TOP || saved.side == CB_SIDE_BOTTOM)
        b->nodes[s].y += saved.side == CB_SIDE_TOP ? 4.25 : -4.25;
    else
        b->nodes[s].x += saved.side == CB_SIDE_LEFT ? 4.25 : -4.25;
    text = diagnose(b, &n);
    snprintf(want, sizeof want, "start %u is 4.25 mm off the %s trim line\n", s, sides[saved.side]);
    assert_has(text, want);
    snprintf(want, sizeof want, "the %s side has 2 starts on its trim line, 3 wanted\n",
             sides[saved.side]);
    assert_has(text, want);
    free(text);
    b->nodes[s] = saved;

    /* Drop one of the start's two edges: one path left. */
    size_t e = 0;
    while (b->edges[e].a != s && b->edges[e].b != s)
        e++;
    cb_edge dropped = b->edges[e];
    b->edges[e] = b->edges[b->n_edges - 1];
    b->n_edges--;
    text = diagnose(b, &n);
    snprintf(want, sizeof want,
             "start %u has 1 edge-disjoint path to the centre, 2 wanted (one cut severs it)\n", s);
    assert_has(text, want);
    free(text);
    b->edges[b->n_edges++] = b->edges[e];
    b->edges[e] = dropped;

    text = diagnose(b, &n);
    assert_int_equal(n, 0);
    free(text);
    cb_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_crossing_worked_by_hand),
        cmocka_unit_test(test_caps_overlaps_grazes),
        cmocka_unit_test(test_generated_boards_are_clean),
        cmocka_unit_test(test_edits_are_named),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
