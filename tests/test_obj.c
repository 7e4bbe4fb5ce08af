/* Tests for OBJ drawings: the reader (cb_game_parse_obj) places a hand-made
 * drawing exactly as README.md says, the writer (cb_obj_render) gives back
 * the same board (JSON -> OBJ -> JSON), and every malformed drawing is
 * rejected with a message naming the line. */
#include "test.h"

#include <cjson/cJSON.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cutboard.h"

static cb_game *parse(const char *text, const cb_theme *theme)
{
    cb_game *g = NULL;
    cb_error err = {CB_OK, "", 0, ""};
    if (cb_game_parse_obj(text, strlen(text), "b.obj", theme, &g, &err) != CB_OK)
        fail_msg("%s", err.message);
    return g;
}

static void expect_error(const char *text, size_t len, const char *what)
{
    cb_game *g = (cb_game *)1;
    cb_error err = {CB_OK, "", 0, ""};
    cb_status st = cb_game_parse_obj(text, len, "b.obj", default_theme, &g, &err);
    if (st != CB_ERR_DATA || !strstr(err.message, what))
        fail_msg("wanted 65 \"%s\", got %d \"%s\"", what, st, err.message);
    assert_null(g);
    assert_null(strchr(err.message, '\n'));
}

#define BAD(text, what) expect_error(text, strlen(text), what)

/* A 100 x 80 mm square with the centre in the middle, a start at the middle
 * of the left side and a face; marks by loose vertices in their own objects. */
static const char square[] =
    "# a hand-drawn board\n"
    "mtllib square.mtl\n"
    "o Board\n"
    "v 0 0 0\n"            /* 1: bottom left */
    "v 100 0 0\n"          /* 2 */
    "v 100 80 0\n"         /* 3: top right */
    "v 0 80 0\n"           /* 4 */
    "v 50 40 0\n"          /* 5: middle */
    "v 0 40 0\n"           /* 6: left side */
    "vn 0 0 1\n"
    "s off\n"
    "l 6 5\n"
    "l 1 2 3\n"
    "f 5/1/1 3/2/1 4/3/1\n"  /* edges 5-3, 3-4, 4-5 (3-4 and 5-3 once) */
    "l 3 5\n"
    "o center\n"
    "v 50 40 0\n"
    "o start_campfire.001\n"
    "v 0 40 0\n"
    "g tent dots_3\n"
    "v 100 80 0\n";

static void test_square_placed_exactly(void **state)
{
    (void)state;
    cb_game *g = parse(square, default_theme);
    assert_int_equal(g->n_sheets, 1);
    assert_string_equal(g->seed, "b.obj");
    assert_int_equal(g->shared, 1);
    assert_int_equal(g->players, 4);
    const cb_board *b = g->sheets[0];
    /* 100 x 80 fits A4 landscape's 273 x 186 trim area: 1:1, centred. */
    assert_true(b->page_w == 297 && b->page_h == 210);
    assert_true(b->board_x == 98.5 && b->board_y == 65 && b->board_w == 100 && b->board_h == 80);
    assert_true(b->node_radius == 6.5);
    assert_int_equal(b->n_nodes, 6);
    static const double want[6][2] = {{98.5, 145}, {198.5, 145}, {198.5, 65},
                                      {98.5, 65},  {148.5, 105}, {98.5, 105}};
    for (int i = 0; i < 6; i++)
        if (b->nodes[i].x != want[i][0] || b->nodes[i].y != want[i][1])
            fail_msg("node %d at (%g, %g)", i, b->nodes[i].x, b->nodes[i].y);
    assert_int_equal(b->center, 4);
    assert_int_equal(b->nodes[4].kind, CB_KIND_CENTER);
    assert_int_equal(b->nodes[4].dots, 1);
    assert_int_equal(b->nodes[5].kind, CB_KIND_START);
    assert_int_equal(b->nodes[5].side, CB_SIDE_LEFT);
    assert_string_equal(default_theme->missions[b->nodes[5].mission].name, "campfire");
    assert_int_equal(b->nodes[5].dots, 2); /* 4 players: 1 + 4 / 3 */
    assert_string_equal(default_theme->types[b->nodes[2].type].name, "tent");
    assert_true(b->nodes[2].dots >= 1 && b->nodes[2].dots <= 3); /* dots_3: the ones that fit */
    assert_int_equal(b->nodes[0].type, -1);
    for (int i = 0; i < 4; i++)
        assert_int_equal(b->nodes[i].kind, CB_KIND_NODE);
    /* Edges in file order, each once: 6-5, 1-2, 2-3, 5-3, 3-4, 4-5. */
    static const uint32_t edges[6][2] = {{4, 5}, {0, 1}, {1, 2}, {2, 4}, {2, 3}, {3, 4}};
    assert_int_equal(b->n_edges, 6);
    for (int e = 0; e < 6; e++)
        if (b->edges[e].a != edges[e][0] || b->edges[e].b != edges[e][1])
            fail_msg("edge %d is %u-%u", e, b->edges[e].a, b->edges[e].b);
    cb_game_free(g);
}

/* Blender's default export ("Y up") puts the drawing in the xz plane with
 * Blender's y as -z; it reads to the same board. */
static void test_blender_y_up_plane(void **state)
{
    (void)state;
    char *xz = malloc(sizeof square * 2);
    assert_non_null(xz);
    xz[0] = '\0';
    const char *line = square;
    while (*line) {
        const char *nl = strchr(line, '\n');
        double x, y, z;
        if (sscanf(line, "v %lf %lf %lf", &x, &y, &z) == 3) {
            char v[64];
            snprintf(v, sizeof v, "v %g 0 %g\n", x, y == 0 ? 0.0 : -y);
            strcat(xz, v);
        } else {
            strncat(xz, line, (size_t)(nl - line + 1));
        }
        line = nl + 1;
    }
    cb_game *a = parse(square, default_theme), *b = parse(xz, default_theme);
    const cb_board *p = a->sheets[0], *q = b->sheets[0];
    assert_int_equal(p->n_nodes, q->n_nodes);
    for (size_t i = 0; i < p->n_nodes; i++) {
        assert_true(p->nodes[i].x == q->nodes[i].x && p->nodes[i].y == q->nodes[i].y);
        assert_int_equal(p->nodes[i].kind, q->nodes[i].kind);
    }
    assert_memory_equal(p->edges, q->edges, p->n_edges * sizeof *p->edges);
    cb_game_free(a);
    cb_game_free(b);
    free(xz);
}

static void test_scaled_to_fit(void **state)
{
    (void)state;
    /* Too big: 1000 x 500 is scaled by 0.273 to the 273 mm wide trim area. */
    cb_game *g = parse("v 0 0\nv 1000 0\nv 1000 500\nv 0 500\ng center\nv 500 250\nl 1 5\n",
                       NULL);
    const cb_board *b = g->sheets[0];
    assert_true(fabs(b->board_w - 273) < 1e-9 && fabs(b->board_h - 136.5) < 1e-9);
    assert_true(fabs(b->board_x - 12) < 1e-9 && fabs(b->board_y - 36.75) < 1e-9);
    assert_true(fabs(b->node_radius - 6.5 * 0.273) < 1e-9);
    assert_true(fabs(b->nodes[4].x - 148.5) < 1e-9 && fabs(b->nodes[4].y - 105) < 1e-9);
    cb_game_free(g);
    /* Too small to be millimetres (Blender's metres): scaled up, radius kept. */
    g = parse("v 0 0\nv 2 0\nv 2 3\nv 0 3\ng center\nv 1 1.5\nl 1 5\n", NULL);
    b = g->sheets[0];
    assert_true(b->page_w == 210 && b->page_h == 297); /* taller than wide: portrait */
    assert_true(fabs(b->board_h - 273) < 1e-9 && fabs(b->board_w - 182) < 1e-9);
    assert_true(b->node_radius == 6.5);
    cb_game_free(g);
}

/* JSON -> OBJ -> JSON keeps the board: same text for one-sheet games, same
 * values for every sheet of the others. */
/* A board file's text with every node's "dots" taken out. */
static char *without_dots(const char *json)
{
    cJSON *root = cJSON_Parse(json);
    assert_non_null(root);
    const cJSON *sheets = cJSON_GetObjectItemCaseSensitive(root, "sheets"), *sheet;
    cJSON_ArrayForEach(sheet, sheets) {
        cJSON *node;
        cJSON_ArrayForEach(node, cJSON_GetObjectItemCaseSensitive(sheet, "nodes"))
            cJSON_DeleteItemFromObjectCaseSensitive(node, "dots");
    }
    char *text = cJSON_Print(root);
    cJSON_Delete(root);
    assert_non_null(text);
    return text;
}

static void round_trip(const char *seed, int players, int shared, const cb_theme *theme)
{
    cb_spec spec;
    cb_spec_defaults(&spec);
    spec.seed = seed;
    spec.players = players;
    spec.shared = shared;
    spec.theme = theme;
    cb_game *g = NULL, *from_json = NULL;
    cb_error err = {CB_OK, "", 0, ""};
    char *json = NULL;
    if (cb_game_generate(&spec, &g, &err) != CB_OK)
        fail_msg("%s", err.message);
    assert_int_equal(cb_json_render(g, theme, &json, &err), CB_OK);
    assert_int_equal(cb_game_parse_json(json, strlen(json), "g.json", theme, &from_json, &err),
                     CB_OK);
    for (size_t s = 0; s < g->n_sheets; s++) {
        char *obj = NULL, *again = NULL;
        cb_game *back = NULL;
        assert_int_equal(cb_obj_render(from_json, s, theme, &obj, &err), CB_OK);
        if (cb_game_parse_obj(obj, strlen(obj), "g.obj", theme, &back, &err) != CB_OK)
            fail_msg("%s", err.message);
        assert_string_equal(back->seed, g->seed);
        assert_int_equal(back->players, g->players);
        assert_int_equal(back->shared, g->shared);
        const cb_board *a = from_json->sheets[s], *b = back->sheets[0];
        int lost = 0;
        assert_string_equal(a->seed, b->seed);
        assert_int_equal(a->player, b->player);
        assert_int_equal(a->attempts, b->attempts);
        assert_true(a->page_w == b->page_w && a->page_h == b->page_h);
        assert_true(a->board_x == b->board_x && a->board_w == b->board_w);
        assert_true(a->board_y == b->board_y && a->board_h == b->board_h);
        assert_true(a->node_radius == b->node_radius);
        assert_int_equal(a->center, b->center);
        assert_int_equal(a->n_nodes, b->n_nodes);
        for (size_t i = 0; i < a->n_nodes; i++) {
            const cb_node *p = &a->nodes[i], *q = &b->nodes[i];
            assert_true(fabs(p->x - q->x) < 1e-9 && fabs(p->y - q->y) < 1e-9);
            assert_int_equal(p->kind, q->kind);
            assert_int_equal(p->side, q->side);
            assert_int_equal(p->type, q->type);
            assert_int_equal(p->mission, q->mission);
            /* placed again (see below): a node whose last dot stood at a
             * limit may have room for one fewer */
            assert_true(q->dots <= p->dots && q->dots >= p->dots - 1);
            lost += p->dots - q->dots;
        }
        assert_true(lost <= 2);
        /* An OBJ has no dot positions: they are placed again from nodes
         * kept to 0.01 mm (a dot near a limit may take the next place), and
         * meet the dot clause as placed. */
        cb_verdict v;
        assert_int_equal(cb_board_check(b, 64, 64, &v, &err), CB_OK);
        assert_true(v.dots_ok);
        assert_int_equal(a->n_edges, b->n_edges);
        assert_memory_equal(a->edges, b->edges, a->n_edges * sizeof *a->edges);
        if (g->n_sheets == 1) {
            assert_int_equal(cb_json_render(back, theme, &again, &err), CB_OK);
            char *x = without_dots(json), *y = without_dots(again);
            assert_string_equal(x, y);
            free(x);
            free(y);
        }
        free(again);
        free(obj);
        cb_game_free(back);
    }
    free(json);
    cb_game_free(g);
    cb_game_free(from_json);
}

static void test_round_trips(void **state)
{
    (void)state;
    char seed[32];
    for (int k = 0; k < 12; k++) {
        snprintf(seed, sizeof seed, "obj %d", k);
        round_trip(seed, 2 + k % 8, k % 3 == 0, k % 2 ? default_theme : NULL);
    }
}

static void test_bad_drawings(void **state)
{
    (void)state;
    char big[4096] = "o Board\n";
    for (int i = 0; i < 120; i++)
        snprintf(big + strlen(big), sizeof big - strlen(big), "v %d %d 0\n", i, i % 7);
    strcat(big, "l 1 2\nl 3 300\n");
    BAD(big, "b.obj:123: line refers to vertex 300, file has 120");
    BAD("v 0 0 0\nv 1 abc 0\n", "b.obj:2: v: \"abc\" is not a coordinate");
    BAD("v 0 0 0\nv nan 0 0\n", "b.obj:2: v: \"nan\" is not a coordinate");
    BAD("v 0 0 0\n\nv 0 -inf 0\n", "b.obj:3: v: \"-inf\" is not a coordinate");
    BAD("v 0 0 0\nv 1e300 0 0\n", "b.obj:2: v: \"1e300\"");
    BAD("v 0 0 0\nv 1\n", "b.obj:2: v wants x y [z]");
    BAD("v 0 0 0\nv 1 1 1 1 1 1 1 1\n", "b.obj:2: v wants x y [z]");
    BAD("v 0 0 0\nv 1 0 0\nf 1 2\n", "b.obj:3: face wants 3 or more vertices");
    BAD("v 0 0 0\nv 1 0 0\nl 1\n", "b.obj:3: line wants 2 or more vertices");
    BAD("v 0 0 0\nv 1 0 0\nl 0 1\n", "b.obj:3: line refers to vertex 0");
    BAD("v 0 0 0\nl -5 1\nv 1 0 0\n", "b.obj:2: line refers to vertex -5, only 1 come before it");
    BAD("v 0 0 0\nv 1 0 0\nl 1 x\n", "b.obj:3: line: \"x\" is not a vertex number");
    BAD("v 0 0 0\nv 1 0 0\nl 1 99999999999999999999\n", "b.obj:3: line");
    BAD("v 0 0 0\nv 1 1 0\nl 2 2\ng center\nv 0 0 0\n", "b.obj:3: edge from vertex 2 to itself");
    BAD("v 0 0 0\nv 1 1 0\nv 0 0 0\nl 1 3\ng center\nv 1 1 0\n",
        "b.obj:4: edge between vertices 1 and 3, which are at the same place");
    BAD("", "b.obj: empty file");
    BAD("  \r\n\n", "b.obj: empty file");
    static const char binary[] = "v 0 0 0\nv 1\x00\x7f 0 0\n";
    expect_error(binary, sizeof binary - 1, "b.obj:2: not a text file");
    expect_error(square, CB_BOARD_FILE_MAX + 1, "b.obj: too large");
    BAD("hello world\n", "b.obj: no vertices");
    BAD("v 0 0 0\nv 10 10 0\nl 1 2\n", "b.obj: no centre");
    BAD("g center\nv 0 0 0\ng board\nv 10 10 0\ng centre\nv 5 5 0\n",
        "b.obj:6: a second centre (the first is on line 2)");
    BAD("g center\nv 0 0 0\nv 10 10 0\n",
        "b.obj:3: a second centre (the first is on line 2)");
    BAD("g center\nv 0 0 0\ng start\nv 0 0 0\ng\nv 10 10 0\n",
        "b.obj:4: this vertex marks a node as both a start and the centre");
    BAD("g center\nv 0 0 0\nv 10 10 5\nv 5 5 3\n", "b.obj: the drawing is not flat");
    BAD("g center\nv 0 0 0\ng\nv 10 0 0\n", "b.obj: the drawing has no area");
    BAD("v 0 0 0\ng start_dragon\nv 1 1 0\n", "b.obj:2: \"start_dragon\": \"dragon\" is not a mission");
    BAD("v 0 0 0\ng type_castle\nv 1 1 0\n", "b.obj:2: \"type_castle\": \"castle\" is not a node type");
    BAD("v 0 0 0\ng dots_99\nv 1 1 0\n", "b.obj:2: \"dots_99\"");
    BAD("# cutboard page 0 0\nv 0 0 0\n", "b.obj:1: \"# cutboard page\"");
    BAD("v 0 0 0\n# cutboard pager 1\n", "b.obj:2: unknown \"# cutboard pager\"");
    BAD("# cutboard radius 6.5 7\nv 0 0 0\n", "b.obj:1: \"# cutboard radius\": \"7\" is one value");
    BAD("# cutboard players 12\nv 0 0 0\n", "b.obj:1: \"# cutboard players\": out of range");
    BAD("# cutboard board 1 1 10 10\ng center\nv 0 0 0\ng\nv 1 1 0\n",
        "\"# cutboard board\" needs \"# cutboard page\"");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_square_placed_exactly),
        cmocka_unit_test(test_blender_y_up_plane),
        cmocka_unit_test(test_scaled_to_fit),
        cmocka_unit_test(test_round_trips),
        cmocka_unit_test(test_bad_drawings),
    };
    return cmocka_run_group_tests(tests, load_default_theme, free_default_theme);
}
