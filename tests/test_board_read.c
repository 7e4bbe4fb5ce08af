/* Tests for the board file reader (cb_game_parse_json, cb_game_load): what
 * cb_json_render writes reads back to the same board, and every malformed
 * file is rejected with a message naming the file and the line or field. */
#include "test.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cutboard.h"

/* A small valid board file; the malformed cases each change one thing. */
static const char small[] =
    "{\n"
    "  \"format\": \"cutboard/1\",\n"
    "  \"seed\": \"small\",\n"
    "  \"players\": 2,\n"
    "  \"shared\": false,\n"
    "  \"sheets\": [{\n"
    "    \"seed\": \"small/1\", \"player\": 1,\n"
    "    \"page\": {\"width_mm\": 297, \"height_mm\": 210},\n"
    "    \"board\": {\"x_mm\": 12, \"y_mm\": 12, \"width_mm\": 273, \"height_mm\": 186},\n"
    "    \"node_radius_mm\": 6.5,\n"
    "    \"center\": 1,\n"
    "    \"nodes\": [\n"
    "      {\"id\": 0, \"x_mm\": 12, \"y_mm\": 40, \"kind\": \"start\", \"side\": \"left\","
    " \"mission\": \"campfire\", \"type\": \"start\", \"dots\": 2},\n"
    "      {\"id\": 1, \"x_mm\": 148.5, \"y_mm\": 105, \"kind\": \"center\", \"type\": \"center\","
    " \"dots\": 1},\n"
    "      {\"id\": 2, \"x_mm\": 60, \"y_mm\": 60, \"kind\": \"node\", \"type\": \"tent\","
    " \"dots\": 0}\n"
    "    ],\n"
    "    \"edges\": [[0, 2], [1, 2]],\n"
    "    \"attempts\": 4\n"
    "  }]\n"
    "}\n";

/* SMALL with the first occurrence of FROM replaced by TO. */
static char *edit(const char *from, const char *to)
{
    const char *at = strstr(small, from);
    if (!at)
        fail_msg("\"%s\" is not in the small board", from);
    size_t head = (size_t)(at - small), n = strlen(small) - strlen(from) + strlen(to) + 1;
    char *s = malloc(n);
    assert_non_null(s);
    memcpy(s, small, head);
    strcpy(s + head, to);
    strcat(s, at + strlen(from));
    return s;
}

static void expect_error(const char *text, size_t len, const cb_theme *theme, cb_status code,
                         const char *what)
{
    cb_game *g = (cb_game *)1;
    cb_error err = {CB_OK, "", 0, ""};
    cb_status st = cb_game_parse_json(text, len, "b.json", theme, &g, &err);
    if (st != code || !strstr(err.message, what))
        fail_msg("wanted %d \"%s\", got %d \"%s\"", code, what, st, err.message);
    assert_null(g);
    assert_int_equal(err.status, code);
    assert_null(strchr(err.message, '\n'));
    assert_memory_equal(err.message, "b.json", 6); /* names the file */
}

static void expect_edit_error(const char *from, const char *to, const char *what)
{
    char *s = edit(from, to);
    expect_error(s, strlen(s), default_theme, CB_ERR_DATA, what);
    free(s);
}

static void test_small_board_reads(void **state)
{
    (void)state;
    cb_game *g = NULL;
    cb_error err = {CB_OK, "", 0, ""};
    if (cb_game_parse_json(small, strlen(small), "b.json", default_theme, &g, &err) != CB_OK)
        fail_msg("%s", err.message);
    assert_string_equal(g->seed, "small");
    assert_int_equal(g->players, 2);
    assert_int_equal(g->shared, 0);
    assert_int_equal(g->n_sheets, 1);
    const cb_board *b = g->sheets[0];
    assert_string_equal(b->seed, "small/1");
    assert_int_equal(b->player, 1);
    assert_true(b->page_w == 297 && b->page_h == 210);
    assert_true(b->board_x == 12 && b->board_y == 12 && b->board_w == 273 && b->board_h == 186);
    assert_true(b->node_radius == 6.5);
    assert_int_equal(b->center, 1);
    assert_int_equal(b->attempts, 4);
    assert_int_equal(b->n_nodes, 3);
    assert_int_equal(b->nodes[0].kind, CB_KIND_START);
    assert_int_equal(b->nodes[0].side, CB_SIDE_LEFT);
    assert_string_equal(default_theme->missions[b->nodes[0].mission].name, "campfire");
    assert_int_equal(b->nodes[0].type, -1);
    assert_int_equal(b->nodes[0].dots, 2);
    assert_int_equal(b->nodes[1].kind, CB_KIND_CENTER);
    assert_int_equal(b->nodes[1].side, CB_SIDE_NONE);
    assert_true(b->nodes[1].x == 148.5 && b->nodes[1].y == 105);
    assert_string_equal(default_theme->types[b->nodes[2].type].name, "tent");
    assert_int_equal(b->nodes[2].mission, -1);
    assert_int_equal(b->n_edges, 2);
    assert_true(b->edges[0].a == 0 && b->edges[0].b == 2);
    assert_true(b->edges[1].a == 1 && b->edges[1].b == 2);
    assert_non_null(b->dot_xy); /* counts only: placed as the generator would */
    cb_game_free(g);
    /* Without a theme, names are not resolved. */
    assert_int_equal(cb_game_parse_json(small, strlen(small), NULL, NULL, &g, &err), CB_OK);
    assert_int_equal(g->sheets[0]->nodes[2].type, -1);
    assert_int_equal(g->sheets[0]->nodes[0].mission, -1);
    cb_game_free(g);
}

/* Generated games read back to the same boards: the JSON written again is
 * the same text, and every value is within the file's 0.01 mm. */
static void round_trip(const char *seed, int players, int shared, const cb_theme *theme)
{
    cb_spec spec;
    cb_spec_defaults(&spec);
    spec.seed = seed;
    spec.players = players;
    spec.shared = shared;
    spec.theme = theme;
    cb_game *g = NULL, *back = NULL;
    cb_error err = {CB_OK, "", 0, ""};
    char *text = NULL, *again = NULL;
    if (cb_game_generate(&spec, &g, &err) != CB_OK)
        fail_msg("%s", err.message);
    assert_int_equal(cb_json_render(g, theme, &text, &err), CB_OK);
    if (cb_game_parse_json(text, strlen(text), "g.json", theme, &back, &err) != CB_OK)
        fail_msg("%s", err.message);
    assert_int_equal(cb_json_render(back, theme, &again, &err), CB_OK);
    assert_string_equal(text, again);
    assert_string_equal(back->seed, g->seed);
    assert_int_equal(back->players, g->players);
    assert_int_equal(back->shared, g->shared);
    assert_int_equal(back->n_sheets, g->n_sheets);
    for (size_t s = 0; s < g->n_sheets; s++) {
        const cb_board *a = g->sheets[s], *b = back->sheets[s];
        assert_string_equal(a->seed, b->seed);
        assert_int_equal(a->player, b->player);
        assert_int_equal(a->center, b->center);
        assert_int_equal(a->attempts, b->attempts);
        assert_true(fabs(a->node_radius - b->node_radius) <= 0.005 + 1e-9);
        assert_int_equal(a->n_nodes, b->n_nodes);
        for (size_t i = 0; i < a->n_nodes; i++) {
            const cb_node *p = &a->nodes[i], *q = &b->nodes[i];
            assert_true(fabs(p->x - q->x) <= 0.005 + 1e-9 && fabs(p->y - q->y) <= 0.005 + 1e-9);
            assert_int_equal(p->kind, q->kind);
            assert_int_equal(p->side, q->side);
            assert_int_equal(p->type, q->type);
            assert_int_equal(p->mission, q->mission);
            assert_int_equal(p->dots, q->dots);
        }
        assert_int_equal(a->n_edges, b->n_edges);
        assert_memory_equal(a->edges, b->edges, a->n_edges * sizeof *a->edges);
        /* The board read back still meets the contract. */
        cb_verdict v;
        assert_int_equal(cb_board_check(b, 2, 4, &v, &err), CB_OK);
        if (!v.ok)
            fail_msg("seed %s sheet %zu read back fails: %s", seed, s, v.failure);
    }
    free(text);
    free(again);
    cb_game_free(g);
    cb_game_free(back);
}

/* Metrics are derived figures, never read back: a file without them (as
 * SMALL) reads, and so does one with the shortest-cut metrics of a newer
 * or older writer, whatever they hold. */
static void test_metrics_not_read(void **state)
{
    (void)state;
    char *text = edit("\"attempts\": 4", "\"attempts\": 4, \"metrics\": {\"start_shortest_cuts\": "
                      "[4, -1], \"cut_band\": \"old\", \"hop_spread\": 9}");
    cb_game *g = NULL;
    cb_error err = {CB_OK, "", 0, ""};
    if (cb_game_parse_json(text, strlen(text), "b.json", default_theme, &g, &err) != CB_OK)
        fail_msg("%s", err.message);
    assert_int_equal(g->sheets[0]->n_nodes, 3);
    cb_game_free(g);
    free(text);
}

static void test_round_trips(void **state)
{
    (void)state;
    char seed[32];
    for (int k = 0; k < 20; k++) {
        snprintf(seed, sizeof seed, "read back %d", k);
        round_trip(seed, 2 + k % 3, 0, k % 2 ? default_theme : NULL);
    }
    round_trip("shared", 9, 1, default_theme);
}

static void test_not_json(void **state)
{
    (void)state;
    expect_error("", 0, NULL, CB_ERR_DATA, "b.json: empty file");
    expect_error(" \n\t\n", 4, NULL, CB_ERR_DATA, "b.json: empty file");
    static const char binary[] = "{\n\"format\x00\x01\x02\"";
    expect_error(binary, sizeof binary - 1, NULL, CB_ERR_DATA, "b.json:2: not a text file");
    /* The size limit is checked before a byte is read. */
    expect_error(small, CB_BOARD_FILE_MAX + 1, NULL, CB_ERR_DATA, "b.json: too large");
    expect_error("[1, 2]", 6, NULL, CB_ERR_DATA, "the top level is an array, not an object");
    expect_error("{\"format\": \"cutboard/1\",\n\"seed\": \"x\",\n\"players\": 2,\n\"sheets\": [}",
                 60, NULL, CB_ERR_DATA, "b.json:4: not valid JSON");
    expect_error("{\n\"format\": \"cutboard/1\"", 24, NULL, CB_ERR_DATA,
                 "b.json:2: not valid JSON (it ends too soon)");
    /* Not NUL-terminated: the parser keeps to LEN. */
    expect_error(small, 40, NULL, CB_ERR_DATA, "not valid JSON");
}

static void test_bad_numbers(void **state)
{
    (void)state;
    expect_edit_error("\"x_mm\": 148.5", "\"x_mm\": NaN", "b.json:14: not valid JSON");
    expect_edit_error("\"x_mm\": 148.5", "\"x_mm\": 1e999",
                      "sheets[0].nodes[1].x_mm: inf is out of range");
    expect_edit_error("\"y_mm\": 60", "\"y_mm\": 600", "sheets[0].nodes[2].y_mm: 600 is out of range");
    expect_edit_error("\"x_mm\": 148.5", "\"x_mm\": \"148.5\"",
                      "sheets[0].nodes[1].x_mm: wants a number, not a string");
    expect_edit_error("\"node_radius_mm\": 6.5", "\"node_radius_mm\": -1",
                      "sheets[0].node_radius_mm: -1 is out of range");
    expect_edit_error("\"width_mm\": 297", "\"width_mm\": 0", "sheets[0].page.width_mm");
    expect_edit_error("\"players\": 2", "\"players\": 2.5", "players: 2.5 is not a whole number");
    expect_edit_error("\"dots\": 0", "\"dots\": 99", "sheets[0].nodes[2].dots: 99 is out of range");
    expect_edit_error("\"height_mm\": 186", "\"height_mm\": 500", "sheets[0].board.height_mm");
}

static void test_bad_ids_and_edges(void **state)
{
    (void)state;
    expect_edit_error("\"id\": 2", "\"id\": 99999999999", "nodes[2].id: 1e+11 is out of range");
    expect_edit_error("\"id\": 2", "\"id\": 1", "nodes[2].id: 1 where 2 belongs");  /* duplicated */
    expect_edit_error("\"id\": 1", "\"id\": 2", "nodes[1].id: 2 where 1 belongs");  /* missing */
    expect_edit_error("[1, 2]]", "[1, 7]]", "sheets[0].edges[1]: node 7 does not exist (3 nodes)");
    expect_edit_error("[1, 2]]", "[2, 2]]", "sheets[0].edges[1]: joins node 2 to itself");
    expect_edit_error("[1, 2]]", "[2, 0]]", "edge 0-2 is listed twice");
    expect_edit_error("[1, 2]]", "[1, -2]]", "edges[1]: wants a pair of node ids");
    expect_edit_error("[1, 2]]", "[1, 2, 3]]", "edges[1]: wants a pair of node ids");
    expect_edit_error("\"center\": 1", "\"center\": 2", "nodes[1].kind: \"center\", but");
    expect_edit_error("\"center\": 1", "\"center\": 3", "sheets[0].center: 3 is out of range");
}

static void test_wrong_types_and_names(void **state)
{
    (void)state;
    expect_edit_error("cutboard/1", "cutboard/2", "format: \"cutboard/2\" is not");
    expect_edit_error("\"nodes\": [", "\"nodez\": [", "sheets[0].nodes: wants an array, not missing");
    expect_edit_error("\"kind\": \"node\"", "\"kind\": \"hub\"", "nodes[2].kind: \"hub\" is not");
    expect_edit_error("\"side\": \"left\"", "\"side\": \"west\"", "nodes[0].side: \"west\"");
    expect_edit_error("\"side\": \"left\",", "", "nodes[0].side: wants a string, not missing");
    expect_edit_error("\"type\": \"tent\"", "\"type\": \"castle\"",
                      "nodes[2].type: \"castle\" is not a node type of theme \"expedition\"");
    expect_edit_error("\"mission\": \"campfire\"", "\"mission\": \"dragon\"",
                      "nodes[0].mission: \"dragon\" is not a mission");
    expect_edit_error("\"shared\": false", "\"shared\": 0", "shared: wants true or false");
    expect_edit_error("\"seed\": \"small/1\"", "\"seed\": 7", "sheets[0].seed: wants a string");
    expect_edit_error("\"sheets\": [{", "\"sheets\": [7, {", "sheets[0]: wants an object");
}

static void test_load_files(void **state)
{
    (void)state;
    cb_game *g = NULL;
    cb_error err = {CB_OK, "", 0, ""};
    assert_int_equal(cb_game_load("/nonexistent/b.json", NULL, &g, &err), CB_ERR_NOINPUT);
    assert_non_null(strstr(err.message, "/nonexistent/b.json"));
    assert_null(g);
    assert_int_equal(cb_game_load("tests", NULL, &g, &err), CB_ERR_NOINPUT);
    char path[] = "/tmp/cb_board_read_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs(small, f);
    fclose(f);
    assert_int_equal(cb_game_load(path, default_theme, &g, &err), CB_OK);
    assert_int_equal(g->sheets[0]->n_nodes, 3);
    cb_game_free(g);
    remove(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_small_board_reads),
        cmocka_unit_test(test_round_trips),
        cmocka_unit_test(test_metrics_not_read),
        cmocka_unit_test(test_not_json),
        cmocka_unit_test(test_bad_numbers),
        cmocka_unit_test(test_bad_ids_and_edges),
        cmocka_unit_test(test_wrong_types_and_names),
        cmocka_unit_test(test_load_files),
    };
    return cmocka_run_group_tests(tests, load_default_theme, free_default_theme);
}
