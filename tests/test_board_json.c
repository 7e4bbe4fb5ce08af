/* Board files that stream: the writer (cb_json_write, cb_json_render) gives
 * the same bytes as the cJSON-tree writer it replaced (built here from
 * tests/json_tree_oracle.h), and the reader (board_json.c) the same verdict,
 * game and message as the cJSON-tree reader it replaced
 * (tests/board_tree_oracle.h), with the line at fault in err.line. */
#include "test.h"

#include <float.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "io/board_read.h"
#include "io/jsonwrite.h"
#include "board_tree_oracle.h"
#include "json_tree_oracle.h"

/* ---- the writer ------------------------------------------------------------ */

/* What cb_json_write hands over, in small pieces to test the joins. */
typedef struct {
    char *text;
    size_t len, cap;
    size_t calls;
} sink;

static int to_sink(void *ctx, const void *data, size_t len)
{
    sink *s = ctx;
    if (s->len + len + 1 > s->cap) {
        s->cap = (s->len + len + 1) * 2;
        s->text = realloc(s->text, s->cap);
        assert_non_null(s->text);
    }
    memcpy(s->text + s->len, data, len);
    s->len += len;
    s->text[s->len] = '\0';
    s->calls++;
    return 0;
}

/* Both writers on GAME: byte-identical, through cb_json_render and through
 * cb_json_write. */
static void expect_same_bytes(const cb_game *g, const cb_theme *theme, const char *what)
{
    cb_error err;
    char *old = NULL, *now = NULL;
    if (oracle_json_render(g, theme, &old, &err) != CB_OK)
        fail_msg("%s: the tree writer: %s", what, err.message);
    assert_int_equal(cb_json_render(g, theme, &now, &err), CB_OK);
    if (strcmp(old, now) != 0) {
        size_t k = 0;
        while (old[k] == now[k])
            k++;
        fail_msg("%s: the writers differ at byte %zu: \"%.40s\" vs \"%.40s\"", what, k,
                 old + k, now + k);
    }
    sink s = {0};
    assert_int_equal(cb_json_write(g, theme, to_sink, &s, &err), CB_OK);
    assert_int_equal(s.len, strlen(old));
    assert_memory_equal(s.text, old, s.len);
    free(s.text);
    free(old);
    free(now);
}

static cb_game *generate(const char *paper_seed, double w, double h, int players, int shared,
                         double resolution, const cb_theme *theme)
{
    cb_spec spec;
    cb_spec_defaults(&spec);
    spec.seed = paper_seed;
    spec.page_w = w;
    spec.page_h = h;
    spec.players = players;
    spec.shared = shared;
    spec.theme = theme;
    if (resolution > 0) {
        spec.resolution = resolution;
        spec.margin = 15;
    }
    cb_game *g = NULL;
    cb_error err;
    if (cb_game_generate(&spec, &g, &err) != CB_OK)
        fail_msg("%s: %s", paper_seed, err.message);
    return g;
}

static void test_writer_matches_cjson_tree(void **state)
{
    (void)state;
    static const struct {
        double w, h;
    } papers[] = {{297, 210}, {594, 420}, {420, 297}, {279.4, 215.9}};
    int cases = 0;
    for (size_t p = 0; p < sizeof papers / sizeof papers[0]; p++)
        for (int players = 2; players <= 9; players += 3)
            for (int shared = 0; shared < 2; shared++) {
                char seed[64];
                snprintf(seed, sizeof seed, "stream %zu/%d/%d", p, players, shared);
                const cb_theme *theme = (p + (size_t)players) % 2 ? default_theme : NULL;
                cb_game *g = generate(seed, papers[p].w, papers[p].h, players, shared, 0, theme);
                expect_same_bytes(g, theme, seed);
                /* Numbers on some nodes, and dots as counts, not positions. */
                for (size_t i = 0; i < g->sheets[0]->n_nodes; i += 3)
                    g->sheets[0]->nodes[i].number = (int)(i % 99) + 1;
                expect_same_bytes(g, theme, "numbers");
                free(g->sheets[0]->dot_xy);
                g->sheets[0]->dot_xy = NULL;
                expect_same_bytes(g, theme, "dot counts");
                cb_game_free(g);
                cases += 3;
            }
    /* A lattice poster (over 5,000 nodes). */
    cb_game *g = generate("stream lattice", 841, 594, 4, 1, 150, default_theme);
    assert_true(g->sheets[0]->n_nodes > 5000);
    expect_same_bytes(g, default_theme, "lattice");
    cb_game_free(g);
    assert_true(cases >= 48);
}

/* Values no generator makes: a seed with quotes, control characters and
 * UTF-8; dot positions of a hand-made board far off the page, and -0. */
static void test_writer_odd_values(void **state)
{
    (void)state;
    cb_game *g = generate("stream odd", 297, 210, 2, 0, 0, default_theme);
    free(g->seed);
    g->seed = strdup("a \"quoted\"\\ seed\twith\nnew\x01line\x1f \xc3\xa9\x7f/");
    cb_board *b = g->sheets[0];
    expect_same_bytes(g, default_theme, "seed");
    b->nodes[1].y += 1e-7;
    b->page_w += 0.004; /* rounds away */
    b->attempts = 2147483647;
    b->nodes[2].number = 999;
    expect_same_bytes(g, default_theme, "attempts");
    if (b->dot_xy && b->n_dot_xy > 1) {
        b->dot_xy[0][0] = 1.0 / 3;
        expect_same_bytes(g, default_theme, "1/3");
        b->dot_xy[1][1] = 1e300;
        b->dot_xy[0][1] = -0.001; /* rounds to -0 */
    }
    expect_same_bytes(g, default_theme, "odd values");
    cb_game_free(g);
}

/* The number format against cJSON's own on many doubles: whole, hundredths,
 * random bits, and the edges of the fast paths. */
static void test_number_format(void **state)
{
    (void)state;
    double fixed[] = {0.0,   -0.0,   1e13,  1e13 - 0.01, 1e15,    1e15 - 1, 1e-5, 0.1,
                      0.01,  -0.07,  2e9,   -2147483648.0, 2147483648.0, 1e300,
                      DBL_MIN, DBL_MAX, 5e-324, 0.30000000000000004, 123456789.12,
                      99999999999.99, NAN,  INFINITY, -INFINITY};
    uint64_t x = 0x9e3779b97f4a7c15u;
    for (int k = 0; k < 200000; k++) {
        double v;
        if (k < (int)(sizeof fixed / sizeof fixed[0])) {
            v = fixed[k];
        } else {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            switch (k % 4) {
            case 0: memcpy(&v, &x, sizeof v); break;
            case 1: v = round((double)(int64_t)(x % 2000000000000u) - 1e12) / 100; break;
            case 2: v = (double)(int64_t)(x % 4000000000000000u) - 2e15; break;
            default: v = (double)(x % 100000) / 100 + (double)(x >> 40); break;
            }
        }
        cJSON *n = cJSON_CreateNumber(v);
        char *want = cJSON_PrintUnformatted(n), got[32];
        cb_json_format_number(v, got);
        if (strcmp(want, got) != 0)
            fail_msg("%.17g: cJSON prints %s, the writer %s", v, want, got);
        free(want);
        cJSON_Delete(n);
    }
}

static int failing_sink(void *ctx, const void *data, size_t len)
{
    (void)data;
    size_t *left = ctx;
    if (len > *left)
        return 28; /* ENOSPC */
    *left -= len;
    return 0;
}

/* A write that fails stops the writer with CB_ERR_IO and its errno. */
static void test_writer_write_error(void **state)
{
    (void)state;
    cb_game *g = generate("stream full", 841, 594, 4, 1, 150, NULL);
    size_t left = 100000;
    cb_error err;
    assert_int_equal(cb_json_write(g, NULL, failing_sink, &left, &err), CB_ERR_IO);
    assert_non_null(strstr(err.message, "No space left"));
    cb_game_free(g);
}

/* ---- the reader ------------------------------------------------------------ */

static void expect_same_board(const cb_board *a, const cb_board *b)
{
    assert_string_equal(a->seed, b->seed);
    assert_int_equal(a->player, b->player);
    assert_true(a->page_w == b->page_w && a->page_h == b->page_h);
    assert_true(a->board_x == b->board_x && a->board_y == b->board_y);
    assert_true(a->board_w == b->board_w && a->board_h == b->board_h);
    assert_true(a->node_radius == b->node_radius);
    assert_int_equal(a->center, b->center);
    assert_int_equal(a->attempts, b->attempts);
    assert_int_equal(a->n_nodes, b->n_nodes);
    for (size_t i = 0; i < a->n_nodes; i++) {
        const cb_node *u = &a->nodes[i], *v = &b->nodes[i];
        if (memcmp(&u->x, &v->x, sizeof u->x) || memcmp(&u->y, &v->y, sizeof u->y) ||
            u->kind != v->kind || u->side != v->side || u->type != v->type ||
            u->mission != v->mission || u->dots != v->dots || u->number != v->number ||
            u->first_dot != v->first_dot)
            fail_msg("node %zu differs", i);
    }
    assert_int_equal(a->n_edges, b->n_edges);
    assert_memory_equal(a->edges, b->edges, a->n_edges * sizeof *a->edges);
    assert_int_equal(a->n_dot_xy, b->n_dot_xy);
    assert_int_equal(a->dot_xy == NULL, b->dot_xy == NULL);
    if (a->n_dot_xy)
        assert_memory_equal(a->dot_xy, b->dot_xy, a->n_dot_xy * sizeof *a->dot_xy);
}

static void expect_same_game(const cb_game *a, const cb_game *b)
{
    assert_string_equal(a->seed, b->seed);
    assert_int_equal(a->players, b->players);
    assert_int_equal(a->shared, b->shared);
    assert_int_equal(a->n_sheets, b->n_sheets);
    for (size_t i = 0; i < a->n_sheets; i++)
        expect_same_board(a->sheets[i], b->sheets[i]);
}

/* TEXT through the reader and the oracle: the same status and message, the
 * same game; a fault in the data names its line in err.line. Returns
 * whether the text read. */
static int differential(const char *text, size_t len, const cb_theme *theme)
{
    cb_game *now = NULL, *old = NULL;
    cb_error e1 = {CB_OK, "", 0, ""}, e2 = {CB_OK, "", 0, ""};
    cb_status ns = cb_game_parse_json(text, len, "t.json", theme, &now, &e1);
    cb_status os = oracle_parse_json(text, len, "t.json", theme, &old, &e2);
    if (ns != os || (ns != CB_OK && strcmp(e1.message, e2.message) != 0))
        fail_msg("the reader says %d \"%s\", the oracle %d \"%s\"", ns, e1.message, os,
                 e2.message);
    if (ns == CB_OK)
        expect_same_game(now, old);
    else if (ns == CB_ERR_DATA && e1.line <= 0 && !strstr(e1.message, ": not a board file") &&
             !strstr(e1.message, ": empty file") && !strstr(e1.message, ": sheet "))
        fail_msg("no line for \"%s\"", e1.message);
    cb_game_free(now);
    cb_game_free(old);
    return ns == CB_OK;
}

/* Every file the writer makes reads to the game the oracle reads. */
static void test_reader_takes_written_files(void **state)
{
    (void)state;
    for (int k = 0; k < 12; k++) {
        char seed[32];
        snprintf(seed, sizeof seed, "read %d", k);
        const cb_theme *theme = k % 3 ? default_theme : NULL;
        cb_game *g = generate(seed, k % 2 ? 297 : 420, k % 2 ? 210 : 297, 2 + k % 8, k % 4 == 0,
                              0, theme);
        if (k % 5 == 1)
            for (size_t i = 0; i < g->sheets[0]->n_nodes; i += 2)
                g->sheets[0]->nodes[i].number = (int)(i % 50) + 1;
        if (k % 6 == 2) {
            free(g->sheets[0]->dot_xy);
            g->sheets[0]->dot_xy = NULL;
        }
        char *text = NULL;
        cb_error err;
        assert_int_equal(cb_json_render(g, theme, &text, &err), CB_OK);
        if (!differential(text, strlen(text), theme))
            fail_msg("%s: a written file does not read", seed);
        cb_game_free(g);
        free(text);
    }
}

/* The JSON a person may write: other key orders, unknown keys, exponents,
 * escapes, compact layout; and what is refused, with its line. */
static void test_reader_other_forms(void **state)
{
    (void)state;
    static const char *const forms[] = {
        /* keys in another order, an unknown key, an exponent */
        "{\"sheets\":[{\"edges\":[[0,2],[2,1]],\"nodes\":[{\"y_mm\":4e1,\"x_mm\":12,\"id\":0,"
        "\"kind\":\"start\",\"side\":\"left\",\"note\":{\"a\":[1,true,null,\"x\"]}},"
        "{\"id\":1,\"x_mm\":148.5,\"y_mm\":105,\"kind\":\"center\"},{\"id\":2,\"x_mm\":60,"
        "\"y_mm\":60,\"kind\":\"node\",\"number\":7,\"dots\":3}],\"center\":1,"
        "\"node_radius_mm\":6.5,\"board\":{\"height_mm\":186,\"width_mm\":273,\"y_mm\":12,"
        "\"x_mm\":12},\"page\":{\"height_mm\":210,\"width_mm\":297},\"player\":1,"
        "\"seed\":\"s/1\"}],\"shared\":false,\"players\":2,\"seed\":\"s\","
        "\"format\":\"cutboard/1\"}",
        /* escapes in a seed and in keys, numbers as cJSON read them */
        "{\"format\":\"cutboard/1\",\"seed\":\"s\\u0041\\ud83c\\udfb2\\n\",\"pl\\u0061yers\":2,"
        "\"sheets\":[{\"seed\":\"s\",\"player\":0,\"page\":{\"width_mm\":297.,\"height_mm\":"
        "0210},\"board\":{\"x_mm\":12,\"y_mm\":12,\"width_mm\":273,\"height_mm\":186},"
        "\"node_radius_mm\":6.5,\"center\":0,\"nodes\":[{\"id\":0,\"x_mm\":100,\"y_mm\":100,"
        "\"kind\":\"center\"},{\"id\":1,\"x_mm\":20,\"y_mm\":20,\"kind\":\"node\"}],"
        "\"edges\":[[1,0]]}]}",
    };
    static const struct {
        const char *text, *message;
        long line;
    } refused[] = {
        {"{\"format\":\"cutboard/1\",\"seed\":\"s\",\n\"seed\":\"t\",\"players\":2,\"sheets\":[{"
         "\"seed\":\"s\",\"player\":0,\"page\":{\"width_mm\":297,\"height_mm\":210},\"board\":{"
         "\"x_mm\":12,\"y_mm\":12,\"width_mm\":273,\"height_mm\":186},\"node_radius_mm\":6.5,"
         "\"center\":0,\"nodes\":[{\"id\":0,\"x_mm\":100,\"y_mm\":100,\"kind\":\"center\"}],"
         "\"edges\":[]}]}",
         "f.json:2: key \"seed\" given twice in one object (first on line 1)", 2},
        {"{\"format\":\"cutboard/1\",\"seed\":\"s\",\"players\":2,\"sheets\":[{"
         "\"seed\":\"s\",\"player\":0,\"page\":{\"width_mm\":297,\"height_mm\":210},\"board\":{"
         "\"x_mm\":12,\"y_mm\":12,\"width_mm\":273,\"height_mm\":186},\"node_radius_mm\":6.5,"
         "\"center\":0,\"nodes\":[{\"id\":0,\"x_mm\":100,\"y_mm\":100,\"kind\":\"center\"},"
         "{\"id\":1,\"x_mm\":20,\"y_mm\":20,\"kind\":\"node\",\"x_mm\":30}],"
         "\"edges\":[[1,0]]}]}",
         "f.json:1: key \"x_mm\" given twice in one object (first on line 1)", 1},
        {"{\"format\":\"cutboard/1\",\"seed\":\"s\",\"players\":2,\"sheets\":[{"
         "\"seed\":\"s\",\"player\":0,\"page\":{\"width_mm\":297,\"height_mm\":210},\"board\":{"
         "\"x_mm\":12,\"y_mm\":12,\"width_mm\":273,\"height_mm\":186},\"node_radius_mm\":6.5,"
         "\"center\":0,\"nodes\":[{\"id\":0,\"x_mm\":100,\"y_mm\":100,\"kind\":\"center\"}],"
         "\"edges\":[]}]} trailing",
         "f.json:1: text after the end of the board file (at \"trailing\")", 1},
        /* the text's faults come before the board's, as with the oracle */
        {"{\"format\":\"cutboard/2\",\n\"a\":1,\n\"a\":2}", "f.json:3: key \"a\" given twice", 3},
        {"{\"format\":\"cutboard/2\",\n\"a\":1}\n\n{", "f.json:4: text after the end", 4},
        /* the board's, with the line of the value at fault */
        {"{\"format\":\"cutboard/1\",\"seed\":\"s\",\"players\":2,\"sheets\":[{\n"
         "\"seed\":\"s\",\"player\":0,\"page\":{\"width_mm\":297,\"height_mm\":210},\"board\":{"
         "\"x_mm\":12,\"y_mm\":12,\"width_mm\":273,\"height_mm\":186},\"node_radius_mm\":6.5,"
         "\"center\":0,\"nodes\":[\n{\"id\":0,\"x_mm\":100,\"y_mm\":100,\"kind\":\"center\"},\n"
         "{\"id\":1,\"x_mm\":\n900,\"y_mm\":20,\"kind\":\"node\"}],\"edges\":[]}]}",
         "f.json: sheets[0].nodes[1].x_mm: 900 is out of range (0..297)", 5},
    };
    for (size_t k = 0; k < sizeof refused / sizeof refused[0]; k++) {
        cb_game *g = NULL;
        cb_error err;
        const char *t = refused[k].text;
        assert_int_equal(cb_game_parse_json(t, strlen(t), "f.json", default_theme, &g, &err),
                         CB_ERR_DATA);
        assert_null(g);
        if (!strstr(err.message, refused[k].message) || err.line != refused[k].line)
            fail_msg("wanted \"%s\" on line %ld, got \"%s\" on line %ld", refused[k].message,
                     refused[k].line, err.message, err.line);
        differential(t, strlen(t), default_theme);
    }
    for (size_t k = 0; k < sizeof forms / sizeof forms[0]; k++)
        if (!differential(forms[k], strlen(forms[k]), default_theme))
            fail_msg("form %zu does not read", k);
}

/* Keys given twice in objects of many keys, and in nested objects: the
 * one named is the oracle's (the first object to close, the earliest
 * second key in it). */
static void test_reader_keys_twice(void **state)
{
    (void)state;
    static const char *const nested[] = {
        "{\"a\":1,\"a\":2,\"b\":{\"c\":1,\n\"c\":2}}",
        "{\"a\":{\"b\":1,\"b\":2},\"c\":1,\"c\":2}",
        "{\"format\":\"cutboard/1\",\"x\":[{\"q\":1,\"r\":1,\"q\":1}],\"x\":0}",
    };
    for (size_t k = 0; k < sizeof nested / sizeof nested[0]; k++)
        differential(nested[k], strlen(nested[k]), NULL);
    /* In a node, whose names the reader knows (a bit each) and other keys
     * (kept as bytes): the first key to repeat one before it is named,
     * whichever kind it is; a name written with an escape is another key. */
    static const struct {
        const char *members, *twice;
        long line;
    } node[] = {
        {",\"zz\":1,\n\"zz\":2,\n\"x_mm\":3", "key \"zz\" given twice in one object (first on line 1)", 2},
        {",\"zz\":1,\n\"x_mm\":3,\n\"zz\":2", "key \"x_mm\" given twice in one object (first on line 1)", 2},
        {",\n\"kind\":\"node\",\"zz\":1,\"zz\":2", "key \"kind\" given twice in one object (first on line 1)", 2},
        {",\"x\\u005fmm\":3", NULL, 0},
        {",\"x\\u005fmm\":3,\n\"x\\u005fmm\":4", "key \"x\\u005fmm\" given twice in one object (first on line 1)", 2},
        {",\"format\":1,\"sheets\":2,\"seed\":3", NULL, 0},
    };
    for (size_t k = 0; k < sizeof node / sizeof node[0]; k++) {
        char text[1024];
        snprintf(text, sizeof text, "{\"format\":\"cutboard/1\",\"seed\":\"s\",\"players\":2,"
                 "\"sheets\":[{\"seed\":\"s\",\"player\":0,\"page\":{\"width_mm\":297,"
                 "\"height_mm\":210},\"board\":{\"x_mm\":12,\"y_mm\":12,\"width_mm\":273,"
                 "\"height_mm\":186},\"node_radius_mm\":6.5,\"center\":0,\"nodes\":[{\"id\":0,"
                 "\"x_mm\":100,\"y_mm\":100,\"kind\":\"center\"%s}],\"edges\":[]}],"
                 "\"seed\":\"t\"}", node[k].members);
        cb_game *g = NULL;
        cb_error err;
        cb_status st = cb_game_parse_json(text, strlen(text), "n.json", NULL, &g, &err);
        if (!node[k].twice) {
            /* a game's names in a node are other keys; the game's "seed" twice */
            assert_int_equal(st, CB_ERR_DATA);
            assert_non_null(strstr(err.message, "key \"seed\" given twice"));
        } else if (st != CB_ERR_DATA || !strstr(err.message, node[k].twice) ||
                   err.line != node[k].line) {
            fail_msg("%zu: wanted \"%s\" on line %ld, got \"%s\" on line %ld", k,
                     node[k].twice, node[k].line, st ? err.message : "none", err.line);
        }
        cb_game_free(g);
        differential(text, strlen(text), NULL);
    }
    size_t cap = 1 << 16, len = 0;
    char *t = malloc(cap);
    assert_non_null(t);
    len += (size_t)snprintf(t, cap, "{\"format\":\"cutboard/2\"");
    for (int i = 0; i < 2000; i++)
        len += (size_t)snprintf(t + len, cap - len, ",\n\"k%d\":%d", (i * 7919) % 1999, i);
    t[len++] = '}';
    cb_game *g = NULL;
    cb_error err;
    assert_int_equal(cb_game_parse_json(t, len, "k.json", NULL, &g, &err), CB_ERR_DATA);
    assert_non_null(strstr(err.message, "given twice in one object"));
    differential(t, len, NULL);
    free(t);
}

/* A sheet with more edges than 3n - 6: those after the first past it are
 * counted, not kept, and the count is refused as the oracle refuses it,
 * the nodes before the edges or after them; a fault in an edge up to the
 * first past the limit is named first, one after it is not looked for. */
#define K5 "[0,1],[0,2],[0,3],[0,4],[1,2],[1,3],[1,4],[2,3],[2,4],[3,4]"
static void test_reader_edges_past_limit(void **state)
{
    (void)state;
    static const char *const head =
        "{\"format\":\"cutboard/1\",\"seed\":\"s\",\"players\":2,\"sheets\":[{\"seed\":\"s\","
        "\"player\":0,\"page\":{\"width_mm\":297,\"height_mm\":210},\"board\":{\"x_mm\":12,"
        "\"y_mm\":12,\"width_mm\":273,\"height_mm\":186},\"node_radius_mm\":6.5,\"center\":0,";
    static const char *const nodes =
        "\"nodes\":[{\"id\":0,\"x_mm\":100,\"y_mm\":100,\"kind\":\"center\"},{\"id\":1,"
        "\"x_mm\":20,\"y_mm\":20,\"kind\":\"node\"},{\"id\":2,\"x_mm\":20,\"y_mm\":60,"
        "\"kind\":\"node\"},{\"id\":3,\"x_mm\":60,\"y_mm\":20,\"kind\":\"node\"},{\"id\":4,"
        "\"x_mm\":60,\"y_mm\":60,\"kind\":\"node\"}]";
    static const struct {
        const char *edges, *message;
        int nodes_first, oracle;
    } cases[] = {
        /* the complete graph on 5 nodes: 10 edges, 9 at most */
        {K5, "10 edges on 5 nodes: more than 3 x 5 - 6 = 9", 1, 1},
        {K5, "10 edges on 5 nodes: more than 3 x 5 - 6 = 9", 0, 1},
        {"[0,1],[0,2],[0,3],[0,4],[1,2],[1,3],[1,4],[2,3],[2,4]", NULL, 1, 1},
        {"[0,1],[0,9],[0,3],[0,4],[1,2],[1,3],[1,4],[2,3],[2,4],[3,4]",
         "edges[1]: node 9 does not exist", 1, 1},
        /* the first past the limit checked, the next only counted (the
         * oracle names node 9) */
        {K5 ",[0,9]", "11 edges on 5 nodes: more than", 1, 0},
        {"[0,1],[0,2],[0,3],[0,4],[1,2],[1,3],[1,4],[2,3],[2,4],[2,1]",
         "edges: edge 1-2 is listed twice", 1, 1},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char text[2048];
        snprintf(text, sizeof text, "%s%s,\"edges\":[%s]%s%s}]}", head,
                 cases[k].nodes_first ? nodes : "\"x\":0", cases[k].edges,
                 cases[k].nodes_first ? "" : ",", cases[k].nodes_first ? "" : nodes);
        cb_game *g = NULL;
        cb_error err;
        cb_status st = cb_game_parse_json(text, strlen(text), "e.json", NULL, &g, &err);
        if (!cases[k].message)
            assert_int_equal(st, CB_OK);
        else if (st != CB_ERR_DATA || !strstr(err.message, cases[k].message))
            fail_msg("%zu: wanted \"%s\", got \"%s\"", k, cases[k].message,
                     st ? err.message : "none");
        cb_game_free(g);
        if (cases[k].oracle)
            differential(text, strlen(text), NULL);
    }
}

/* Mutations of a written file (bytes changed, dropped, doubled): the
 * reader's verdict and message are the oracle's. */
static void test_reader_mutations(void **state)
{
    (void)state;
    cb_game *g = generate("mutate", 297, 210, 2, 0, 0, default_theme);
    char *text = NULL;
    cb_error err;
    assert_int_equal(cb_json_render(g, default_theme, &text, &err), CB_OK);
    cb_game_free(g);
    size_t len = strlen(text);
    char *m = malloc(len + 2);
    assert_non_null(m);
    static const char bytes[] = "0123456789.-+eE\"{}[],: \t\nxtfn\\\x01";
    uint64_t x = 88172645463325252u;
    int read = 0, refused = 0;
    for (int k = 0; k < 3000; k++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        size_t at = (size_t)(x % len), n = len;
        memcpy(m, text, len);
        switch ((x >> 32) % 3) {
        case 0: m[at] = bytes[(x >> 40) % (sizeof bytes - 1)]; break;
        case 1: memmove(m + at, m + at + 1, len - at - 1); n--; break;
        default: memmove(m + at + 1, m + at, len - at); n++; break;
        }
        if (differential(m, n, default_theme))
            read++;
        else
            refused++;
    }
    free(m);
    free(text);
    assert_true(read > 100 && refused > 100); /* both kinds were tried */
}

/* A file several windows long, read from disk by cb_game_load and from a
 * stream by cb_game_read (tokens across the 256 KiB window, a 3 MB unknown
 * string with escapes across it) is the game the oracle reads from the
 * same text; a fault deep in it is named by field and line. */
static void test_load_large_file(void **state)
{
    (void)state;
    cb_game *g = generate("stream big", 841, 594, 4, 1, 150, default_theme);
    char *text = NULL;
    cb_error err;
    assert_int_equal(cb_json_render(g, default_theme, &text, &err), CB_OK);
    cb_game_free(g);
    size_t len = strlen(text), pad = 3 << 20;
    assert_true(len > (2u << 20));
    char path[] = "/tmp/cb-stream-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "wb");
    /* {"note": "xxx\"xx\u0041...", <the rest of the file> */
    fputs("{\"note\": \"", f);
    for (size_t i = 0; i < pad; i++)
        fputs(i % 1000 == 999 ? "\\\"" : i % 777 == 776 ? "\\u0041" : "x", f);
    fputs("\",", f);
    fwrite(text + 1, 1, len - 1, f);
    fclose(f);
    cb_game *loaded = NULL, *streamed = NULL, *old = NULL;
    assert_int_equal(cb_game_load(path, default_theme, &loaded, &err), CB_OK);
    f = fopen(path, "rb");
    assert_int_equal(cb_game_read(f, path, default_theme, &streamed, &err), CB_OK);
    fclose(f);
    assert_int_equal(oracle_parse_json(text, len, "t", default_theme, &old, &err), CB_OK);
    expect_same_game(loaded, old);
    expect_same_game(streamed, old);
    cb_game_free(loaded);
    cb_game_free(streamed);
    cb_game_free(old);
    char *bad = strstr(text, "\"id\":\t4000,");
    assert_non_null(bad);
    memcpy(bad, "\"id\":\t4001,", 11);
    long line = 1;
    for (const char *c = text; c < bad; c++)
        line += *c == '\n';
    f = fopen(path, "wb");
    fwrite(text, 1, len, f);
    fclose(f);
    assert_int_equal(cb_game_load(path, default_theme, &loaded, &err), CB_ERR_DATA);
    assert_non_null(strstr(err.message, "sheets[0].nodes[4000].id: 4001 where 4000 belongs"));
    assert_int_equal(err.line, line);
    unlink(path);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_writer_matches_cjson_tree),
        cmocka_unit_test(test_writer_odd_values),
        cmocka_unit_test(test_number_format),
        cmocka_unit_test(test_writer_write_error),
        cmocka_unit_test(test_reader_takes_written_files),
        cmocka_unit_test(test_reader_other_forms),
        cmocka_unit_test(test_reader_keys_twice),
        cmocka_unit_test(test_reader_mutations),
        cmocka_unit_test(test_reader_edges_past_limit),
        cmocka_unit_test(test_load_large_file),
    };
    return cmocka_run_group_tests(tests, load_default_theme, free_default_theme);
}
