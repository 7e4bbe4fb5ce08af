/* src/serve/: request parsing, routing and answers without a socket (the
 * HTTP server itself is tested end to end by tests/serve_api.py). */
#include "test.h"

#include <string.h>

#include "serve/serve.h"

static cb_serve *serve;

static int setup(void **state)
{
    (void)state;
    const char *dirs[] = {"icons"};
    cb_serve_config cfg = {dirs, 1, NULL, "fonts/DejaVuSans.ttf", 0, 1, 1700000000LL};
    cb_error err;
    return cb_serve_new(&cfg, &serve, &err) == CB_OK ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    cb_serve_free(serve);
    return 0;
}

static void query_ok(const char *q, int only_format, cb_serve_options *o)
{
    cb_serve_fault f;
    cb_serve_options_defaults(o);
    if (cb_serve_parse_query(q, strlen(q), only_format, o, &f) != 0)
        fail_msg("%s: %s", q, f.message);
}

static void query_fails(const char *q, int only_format, const char *field)
{
    cb_serve_options o;
    cb_serve_fault f;
    cb_serve_options_defaults(&o);
    assert_int_equal(cb_serve_parse_query(q, strlen(q), only_format, &o, &f), -1);
    assert_int_equal(f.status, 400);
    assert_string_equal(f.field, field);
    assert_true(f.message[0] != 0);
}

static void test_query(void **state)
{
    (void)state;
    cb_serve_options o;
    query_ok("", 0, &o);
    assert_int_equal(o.players, 4);
    assert_false(o.has_seed);
    assert_string_equal(o.paper, "a4");
    assert_int_equal(o.rules, CB_RULES_PAGE_LAST);
    query_ok("seed=game+night%21&players=9&shared&portrait=1&ink_friendly=on&first_game=true"
             "&rules=none&paper=300x200mm&theme=default&format=svg&sheet=2&&",
             0, &o);
    assert_string_equal(o.seed, "game night!");
    assert_int_equal(o.players, 9);
    assert_true(o.shared && o.portrait && o.ink_friendly && o.first_game);
    assert_int_equal(o.rules, CB_RULES_PAGE_NONE);
    assert_string_equal(o.paper, "300x200mm");
    assert_string_equal(o.theme, "default");
    assert_int_equal(o.format, CB_SERVE_SVG);
    assert_int_equal(o.sheet, 2);
    query_ok("shared=0&format=preview", 0, &o);
    assert_false(o.shared);
    assert_int_equal(o.format, CB_SERVE_PREVIEW);
    query_ok("format=json", 1, &o);
    assert_int_equal(o.format, CB_SERVE_JSON);

    query_fails("seed=x&seed=y", 0, "seed");
    query_fails("colour=red", 0, "colour");
    query_fails("seed=%4", 0, "seed");
    query_fails("seed=%00", 0, "seed");
    query_fails("seed=", 0, "seed");
    query_fails("players=1", 0, "players");
    query_fails("players=10", 0, "players");
    query_fails("players=4x", 0, "players");
    query_fails("players=99999999999999999999999", 0, "players");
    query_fails("shared=maybe", 0, "shared");
    query_fails("rules=middle", 0, "rules");
    query_fails("format=png", 0, "format");
    query_fails("sheet=0", 0, "sheet");
    query_fails("theme=..%2Fetc", 0, "theme");
    query_fails("theme=.hidden", 0, "theme");
    query_fails("seed=x", 1, "seed"); /* a POST's query: format and sheet only */
    query_fails("seed=%FF", 0, "seed");
}

static void json_fails(const char *body, const char *field)
{
    cb_serve_options o;
    cb_serve_fault f;
    cb_serve_options_defaults(&o);
    assert_int_equal(cb_serve_parse_json(body, strlen(body), &o, &f), -1);
    assert_int_equal(f.status, 400);
    assert_string_equal(f.field, field);
}

static void test_json(void **state)
{
    (void)state;
    cb_serve_options o;
    cb_serve_fault f;
    const char *body = "{\"seed\": \"x\", \"players\": 3, \"shared\": true, \"paper\": \"letter\","
                       " \"portrait\": true, \"ink_friendly\": false, \"first_game\": true,"
                       " \"rules\": \"first\", \"theme\": \"default\"}";
    cb_serve_options_defaults(&o);
    assert_int_equal(cb_serve_parse_json(body, strlen(body), &o, &f), 0);
    assert_string_equal(o.seed, "x");
    assert_int_equal(o.players, 3);
    assert_true(o.shared && o.portrait && o.first_game && !o.ink_friendly);
    assert_string_equal(o.paper, "letter");
    assert_int_equal(o.rules, CB_RULES_PAGE_FIRST);
    /* not NUL-terminated: only LEN bytes are read */
    char buf[] = {'{', '}', 'x'};
    cb_serve_options_defaults(&o);
    assert_int_equal(cb_serve_parse_json(buf, 2, &o, &f), 0);

    json_fails("{\"seed\": ", "");
    json_fails("[1]", "");
    json_fails("", "");
    json_fails("{\"seed\": 5}", "seed");
    json_fails("{\"players\": \"4\"}", "players");
    json_fails("{\"players\": 2.5}", "players");
    json_fails("{\"players\": 1e300}", "players");
    json_fails("{\"shared\": 1}", "shared");
    json_fails("{\"seed\": \"x\", \"seed\": \"y\"}", "seed");
    json_fails("{\"bogus\": null}", "bogus");
    json_fails("{\"theme\": \"/etc\"}", "theme");
}

static void handle(const char *method, const char *path, const char *query, const char *body,
                   cb_serve_response *r)
{
    cb_serve_request req = {method, path, query, body, body ? strlen(body) : 0, NULL, NULL};
    cb_serve_handle(serve, &req, r);
}

static void assert_error(cb_serve_response *r, int status, const char *field)
{
    char want[64];
    assert_int_equal(r->status, status);
    assert_string_equal(r->content_type, "application/json");
    snprintf(want, sizeof want, "\"field\":\"%s\"}", field);
    assert_non_null(strstr((const char *)r->body, want));
    cb_serve_response_free(r);
}

static void test_routes(void **state)
{
    (void)state;
    cb_serve_response r;
    handle("GET", "/", NULL, NULL, &r);
    assert_int_equal(r.status, 200);
    assert_int_equal(r.len, cb_serve_page_len);
    assert_true(r.body_static);
    cb_serve_response_free(&r);
    handle("GET", "/api/themes", NULL, NULL, &r);
    assert_int_equal(r.status, 200);
    assert_non_null(strstr((const char *)r.body, "\"default\":\"default\""));
    cb_serve_response_free(&r);
    handle("GET", "/api/health", NULL, NULL, &r);
    assert_int_equal(r.status, 200);
    assert_non_null(strstr((const char *)r.body, "\"max_nodes\":5000"));
    cb_serve_response_free(&r);
    handle("GET", "/nope", NULL, NULL, &r);
    assert_error(&r, 404, "");
    handle("PUT", "/api/game", NULL, NULL, &r);
    assert_string_equal(r.allow, "GET, HEAD, POST");
    assert_error(&r, 405, "");
    handle("GET", "/api/check", NULL, NULL, &r);
    assert_error(&r, 405, "");
    handle("GET", "/api/game", "players=3", NULL, &r);
    assert_error(&r, 400, "seed");
    /* The page names a field as its form does; the API as the CLI does. */
    handle("GET", "/api/game", "seed=x&players=12", NULL, &r);
    assert_non_null(strstr((const char *)r.body, "\"error\":\"--players: \\\"12\\\" is not a whole number"));
    assert_non_null(strstr((const char *)r.body,
                           "\"page_error\":\"Players: \\\"12\\\" is not a whole number from 2 to 9\""));
    assert_error(&r, 400, "players");
    handle("POST", "/api/game", NULL, "{\"seed\": \"x\", \"rules\": \"middle\"}", &r);
    assert_non_null(strstr((const char *)r.body, "\"page_error\":\"Rules page in the PDF: \\\"middle\\\" is not"));
    assert_error(&r, 400, "rules");
    handle("GET", "/api/game", "seed=x&format=gif", NULL, &r);
    assert_non_null(strstr((const char *)r.body, "\"page_error\":\"format: \\\"gif\\\""));
    assert_error(&r, 400, "format");
    handle("GET", "/api/game", "seed=x&theme=none", NULL, &r);
    assert_error(&r, 400, "theme");
    handle("POST", "/api/game", NULL, "{\"seed\": \"x\", \"paper\": \"b9\"}", &r);
    assert_error(&r, 400, "paper");
    handle("POST", "/api/game", NULL, "{\"seed\": \"x\", \"players\": 9, \"paper\": \"a1\"}", &r);
    assert_error(&r, 422, "paper");
    handle("POST", "/api/check", NULL, "{\"format\": \"cutboard/1\"}", &r);
    assert_error(&r, 422, "");
}

/* The API's PDF is what the CLI's options make with the library. */
static void test_game_bytes(void **state)
{
    (void)state;
    cb_serve_response r;
    handle("GET", "/api/game", "seed=bytes&players=2&ink_friendly=1&rules=first", NULL, &r);
    assert_int_equal(r.status, 200);
    assert_string_equal(r.content_type, "application/pdf");
    assert_string_equal(r.seed, "bytes");

    cb_theme *theme;
    cb_error err;
    cb_game *g;
    cb_spec spec;
    assert_int_equal(cb_theme_load("icons/default", &theme, &err), CB_OK);
    cb_spec_defaults(&spec);
    spec.seed = "bytes";
    spec.players = 2;
    spec.theme = theme;
    assert_int_equal(cb_game_generate(&spec, &g, &err), CB_OK);
    cb_render_options opt = {.ink_friendly = 1, .font_path = "fonts/DejaVuSans.ttf",
                             .gutter = -1, .dated = 1, .source_date = 1700000000LL,
                             .rules = CB_RULES_PAGE_FIRST};
    unsigned char *pdf;
    size_t len;
    assert_int_equal(cb_pdf_render(g, theme, &opt, &pdf, &len, &err), CB_OK);
    assert_int_equal(len, r.len);
    assert_memory_equal(pdf, r.body, len);
    size_t nodes = 0;
    for (size_t k = 0; k < g->n_sheets; k++)
        nodes += g->sheets[k]->n_nodes;
    /* cb_spec_nodes, the --max-nodes estimate, is near the boards made */
    size_t est = cb_spec_nodes(&spec);
    assert_true(est * 10 > nodes * 9 && est * 10 < nodes * 11);
    free(pdf);
    cb_game_free(g);
    cb_theme_free(theme);
    cb_serve_response_free(&r);
}

static int always(void *ctx)
{
    (*(int *)ctx)++;
    return 1;
}

static void test_stop(void **state)
{
    (void)state;
    int asked = 0;
    cb_serve_request req = {"GET", "/api/game", "seed=stop", "", 0, always, &asked};
    cb_serve_response r;
    cb_serve_handle(serve, &req, &r);
    assert_int_equal(asked, 1);
    assert_int_equal(r.retry_after, 5);
    assert_error(&r, 503, "");
}

static void test_new(void **state)
{
    (void)state;
    cb_serve *s = NULL;
    cb_error err;
    const char *one[] = {"icons/default"};
    cb_serve_config cfg = {one, 1, NULL, "fonts/DejaVuSans.ttf", 0, 0, 0};
    assert_int_equal(cb_serve_new(&cfg, &s, &err), CB_OK);
    assert_int_equal(cb_serve_theme_count(s), 1);
    assert_string_equal(cb_serve_theme_name(s, 0), "default");
    cb_serve_free(s);
    const char *twice[] = {"icons", "icons/default"};
    cfg.theme_dirs = twice;
    cfg.n_theme_dirs = 2;
    assert_int_equal(cb_serve_new(&cfg, &s, &err), CB_ERR_USAGE);
    assert_null(s);
    assert_non_null(strstr(err.message, "\"default\""));
    const char *none[] = {"tests/no-such-folder"};
    cfg.theme_dirs = none;
    cfg.n_theme_dirs = 1;
    assert_int_equal(cb_serve_new(&cfg, &s, &err), CB_ERR_NOINPUT);
    const char *empty[] = {"src"};
    cfg.theme_dirs = empty;
    assert_int_equal(cb_serve_new(&cfg, &s, &err), CB_ERR_NOINPUT);
    assert_null(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_query),    cmocka_unit_test(test_json),
        cmocka_unit_test(test_routes),   cmocka_unit_test(test_game_bytes),
        cmocka_unit_test(test_stop),     cmocka_unit_test(test_new),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
