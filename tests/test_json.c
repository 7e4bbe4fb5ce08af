/* Tests for the board file writer (cb_json_render): the text parses back
 * (cJSON) and says exactly what the generated boards hold. */
#include "test.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cutboard.h"


static const cJSON *get(const cJSON *obj, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v)
        fail_msg("\"%s\" is missing", key);
    return v;
}

static double num(const cJSON *obj, const char *key)
{
    const cJSON *v = get(obj, key);
    assert_true(cJSON_IsNumber(v));
    return v->valuedouble;
}

static const char *str(const cJSON *obj, const char *key)
{
    const cJSON *v = get(obj, key);
    assert_true(cJSON_IsString(v));
    return v->valuestring;
}

/* Within the 0.01 mm the file keeps (half a step, plus float noise). */
static void assert_mm(double file, double board)
{
    if (fabs(file - board) > 0.005 + 1e-9)
        fail_msg("%.4f in the file, %.6f on the board", file, board);
}

static void check_sheet(const cJSON *s, const cb_board *b, const cb_theme *t)
{
    static const char *const kinds[] = {"node", "start", "center"};
    static const char *const sides[] = {"top", "right", "bottom", "left"};
    assert_string_equal(str(s, "seed"), b->seed);
    assert_int_equal((int)num(s, "player"), b->player);
    assert_mm(num(get(s, "page"), "width_mm"), b->page_w);
    assert_mm(num(get(s, "page"), "height_mm"), b->page_h);
    const cJSON *board = get(s, "board");
    assert_mm(num(board, "x_mm"), b->board_x);
    assert_mm(num(board, "y_mm"), b->board_y);
    assert_mm(num(board, "width_mm"), b->board_w);
    assert_mm(num(board, "height_mm"), b->board_h);
    assert_mm(num(s, "node_radius_mm"), b->node_radius);
    assert_int_equal((uint32_t)num(s, "center"), b->center);
    assert_int_equal((int)num(s, "attempts"), b->attempts);

    const cJSON *nodes = get(s, "nodes");
    assert_int_equal((size_t)cJSON_GetArraySize(nodes), b->n_nodes);
    size_t i = 0;
    for (const cJSON *o = nodes->child; o; o = o->next, i++) {
        const cb_node *v = &b->nodes[i];
        assert_int_equal((size_t)num(o, "id"), i);
        assert_mm(num(o, "x_mm"), v->x);
        assert_mm(num(o, "y_mm"), v->y);
        assert_string_equal(str(o, "kind"), kinds[v->kind]);
        /* dots: each centre, to 0.01 mm */
        const cJSON *dots = get(o, "dots");
        assert_true(cJSON_IsArray(dots));
        assert_int_equal(cJSON_GetArraySize(dots), v->dots);
        for (int k = 0; k < v->dots; k++) {
            const cJSON *xy = cJSON_GetArrayItem(dots, k);
            assert_true(cJSON_IsArray(xy) && cJSON_GetArraySize(xy) == 2);
            assert_mm(cJSON_GetArrayItem(xy, 0)->valuedouble, b->dot_xy[v->first_dot + (size_t)k][0]);
            assert_mm(cJSON_GetArrayItem(xy, 1)->valuedouble, b->dot_xy[v->first_dot + (size_t)k][1]);
        }
        const cJSON *side = cJSON_GetObjectItemCaseSensitive(o, "side");
        const cJSON *mission = cJSON_GetObjectItemCaseSensitive(o, "mission");
        if (v->kind == CB_KIND_START) {
            assert_non_null(side);
            assert_string_equal(side->valuestring, sides[v->side]);
            assert_string_equal(str(o, "type"), "start");
            if (t) {
                assert_non_null(mission);
                assert_string_equal(mission->valuestring, t->missions[v->mission].name);
            } else {
                assert_null(mission);
            }
        } else {
            assert_null(side);
            assert_null(mission);
            if (v->kind == CB_KIND_CENTER)
                assert_string_equal(str(o, "type"), "center");
            else if (t)
                assert_string_equal(str(o, "type"), t->types[v->type].name);
            else
                assert_string_equal(str(o, "type"), "node");
        }
    }
    const cJSON *edges = get(s, "edges");
    assert_int_equal((size_t)cJSON_GetArraySize(edges), b->n_edges);
    size_t e = 0;
    for (const cJSON *pair = edges->child; pair; pair = pair->next, e++) {
        assert_int_equal(cJSON_GetArraySize(pair), 2);
        assert_int_equal((uint32_t)cJSON_GetArrayItem(pair, 0)->valueint, b->edges[e].a);
        assert_int_equal((uint32_t)cJSON_GetArrayItem(pair, 1)->valueint, b->edges[e].b);
    }
    /* Metrics agree with the contract check. */
    cb_verdict v;
    cb_error err;
    assert_int_equal(cb_board_check(b, 64, 64, &v, &err), CB_OK);
    const cJSON *metrics = get(s, "metrics");
    assert_int_equal((int)num(metrics, "hop_spread"), v.hop_max - v.hop_min);
    const cJSON *hops = get(metrics, "start_center_hops");
    assert_int_equal(cJSON_GetArraySize(hops), 12);
    const cJSON *paths = get(metrics, "start_disjoint_paths");
    assert_int_equal(cJSON_GetArraySize(paths), 12);
    for (int k = 0; k < 12; k++) {
        assert_int_equal(cJSON_GetArrayItem(hops, k)->valueint, v.hops[k]);
        assert_int_equal(cJSON_GetArrayItem(paths, k)->valueint, v.disjoint[k]);
        assert_true(v.disjoint[k] >= 2);
    }
    /* Shortest cuts agree with cb_board_shortest_cuts, start by start, and
     * lie in the game's band [c, c+1], c >= 3. */
    int *cuts = NULL;
    size_t n = 0;
    assert_int_equal(cb_board_shortest_cuts(b, &cuts, &n, &err), CB_OK);
    const cJSON *sc = get(metrics, "start_shortest_cuts");
    assert_int_equal((size_t)cJSON_GetArraySize(sc), n);
    const cJSON *band = get(metrics, "cut_band");
    assert_int_equal(cJSON_GetArraySize(band), 2);
    int c0 = cJSON_GetArrayItem(band, 0)->valueint, c1 = cJSON_GetArrayItem(band, 1)->valueint;
    assert_true(c0 >= 3);
    assert_int_equal(c1, c0 + 1);
    for (size_t k = 0; k < n; k++) {
        assert_int_equal(cJSON_GetArrayItem(sc, (int)k)->valueint, cuts[k]);
        assert_true(cuts[k] >= c0 && cuts[k] <= c1);
    }
    free(cuts);
}

static void render_and_check(const cb_spec *spec, const cb_theme *t)
{
    cb_game *game = NULL;
    cb_error err = {CB_OK, "", 0, ""};
    if (cb_game_generate(spec, &game, &err) != CB_OK)
        fail_msg("cb_game_generate: %s", err.message);
    char *text = NULL;
    assert_int_equal(cb_json_render(game, t, &text, &err), CB_OK);
    assert_non_null(text);
    cJSON *root = cJSON_Parse(text);
    assert_non_null(root);
    assert_string_equal(str(root, "format"), "cutboard/1");
    assert_string_equal(str(root, "seed"), spec->seed);
    assert_int_equal((int)num(root, "players"), spec->players);
    assert_true(cJSON_IsBool(get(root, "shared")));
    assert_int_equal(cJSON_IsTrue(get(root, "shared")), spec->shared);
    const cJSON *sheets = get(root, "sheets");
    assert_int_equal((size_t)cJSON_GetArraySize(sheets), game->n_sheets);
    size_t i = 0;
    for (const cJSON *s = sheets->child; s; s = s->next, i++)
        check_sheet(s, game->sheets[i], t);
    /* The same game renders to the same text. */
    char *again = NULL;
    assert_int_equal(cb_json_render(game, t, &again, &err), CB_OK);
    assert_string_equal(text, again);
    free(again);
    cJSON_Delete(root);
    free(text);
    cb_game_free(game);
}

static void test_three_players_with_theme(void **state)
{
    (void)state;
    cb_spec spec;
    cb_spec_defaults(&spec);
    spec.seed = "json test";
    spec.players = 3;
    spec.theme = default_theme;
    render_and_check(&spec, default_theme);
}

static void test_shared_without_theme(void **state)
{
    (void)state;
    cb_spec spec;
    cb_spec_defaults(&spec);
    spec.seed = "json \"quoted\" \\ seed";
    spec.players = 6;
    spec.shared = 1;
    render_and_check(&spec, NULL);
}

static void test_letter_portrait(void **state)
{
    (void)state;
    cb_spec spec;
    cb_spec_defaults(&spec);
    spec.seed = "portrait";
    spec.players = 2;
    spec.page_w = 215.9;
    spec.page_h = 279.4;
    spec.theme = default_theme;
    render_and_check(&spec, default_theme);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_three_players_with_theme),
        cmocka_unit_test(test_shared_without_theme),
        cmocka_unit_test(test_letter_portrait),
    };
    return cmocka_run_group_tests(tests, load_default_theme, free_default_theme);
}
