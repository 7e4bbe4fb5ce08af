/* End-to-end tests: run the built cutboard binary the way a user does, in a
 * scratch folder, and check its files, its exit codes and its messages.
 * The binary comes from $CUTBOARD (default ./cutboard; it may carry a
 * wrapper such as valgrind). PDF checks use poppler-utils and qpdf and are
 * skipped with a message when those are not installed. */
#include "cli_support.h"

#include <cjson/cJSON.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cutboard.h"

/* ---- a user's runs ------------------------------------------------------ */

static void test_four_players_a4(void **state)
{
    (void)state;
    assert_int_equal(cutboard("--players 4 --seed x -o four.pdf"), 0);
    assert_string_equal(err_text, ""); /* quiet when stderr is not a terminal */
    size_t len;
    char *pdf = read_run_file("four.pdf", &len);
    assert_true(len > 1000);
    assert_memory_equal(pdf, "%PDF-", 5);
    assert_non_null(strstr(pdf + len - 32, "%%EOF"));
    free(pdf);
    assert_int_equal(count_prefixed("four.pdf"), 1); /* no temporary file left */
    NEED("pdfinfo");
    pdfinfo("four.pdf");
    assert_contains(out_text, "Pages:           5\n"); /* 4 sheets, the rules page */
    assert_contains(out_text, "Page size:       841.89 x 595.276 pts");
}

static void test_letter(void **state)
{
    (void)state;
    assert_int_equal(cutboard("--paper letter --seed x -o letter.pdf"), 0);
    NEED("pdfinfo");
    pdfinfo("letter.pdf");
    assert_contains(out_text, "Page size:       792 x 612 pts");
}

static void test_portrait(void **state)
{
    (void)state;
    assert_int_equal(cutboard("--portrait --seed x -o portrait.pdf"), 0);
    NEED("pdfinfo");
    pdfinfo("portrait.pdf");
    assert_contains(out_text, "Page size:       595.276 x 841.89 pts");
}

static void test_three_players(void **state)
{
    (void)state;
    assert_int_equal(cutboard("--players 3 --seed x -o three.pdf"), 0);
    NEED("pdfinfo");
    pdfinfo("three.pdf");
    assert_contains(out_text, "Pages:           4\n");
}

static void test_shared_board(void **state)
{
    (void)state;
    assert_int_equal(cutboard("--shared --players 6 --seed x -o shared.pdf"), 0);
    NEED("pdfinfo");
    pdfinfo("shared.pdf");
    assert_contains(out_text, "Pages:           2\n");
}

/* The seed is printed on every sheet so any board can be made again. */
static void test_seed_on_every_sheet(void **state)
{
    (void)state;
    assert_int_equal(cutboard("--players 3 --seed 'game night' -o night.pdf"), 0);
    NEED("pdftotext");
    for (int page = 1; page <= 3; page++) {
        char cmd[128], want[64];
        snprintf(cmd, sizeof cmd, "pdftotext -f %d -l %d night.pdf -", page, page);
        assert_int_equal(sh(cmd), 0);
        snprintf(want, sizeof want, "game night/%d", page);
        assert_contains(out_text, want);
    }
}

static void test_font_embedded(void **state)
{
    (void)state;
    assert_int_equal(cutboard("--seed x -o fonts.pdf"), 0);
    NEED("pdffonts");
    assert_int_equal(sh("pdffonts fonts.pdf"), 0);
    /* Rows after the dashes: name type... emb sub uni objnum gen. */
    int fonts = 0;
    char *line = strstr(out_text, "\n---");
    assert_non_null(line);
    line = strchr(line + 1, '\n');
    while (line && line[1]) {
        line++;
        char *end = strchr(line, '\n');
        if (end)
            *end = 0;
        char *w[32];
        int n = 0;
        for (char *save = NULL, *t = strtok_r(line, " ", &save); t && n < 32;
             t = strtok_r(NULL, " ", &save))
            w[n++] = t;
        assert_true(n >= 6);
        if (strcmp(w[n - 5], "yes") != 0)
            fail_msg("font %s is not embedded", w[0]);
        fonts++;
        line = end;
    }
    assert_true(fonts >= 1);
}

static void test_same_seed_same_bytes(void **state)
{
    (void)state;
    assert_int_equal(cutboard("--players 3 --seed again -o a1.pdf --json a1.json"), 0);
    assert_int_equal(cutboard("--players 3 --seed again -o a2.pdf --json a2.json"), 0);
    assert_int_equal(cutboard("--players 3 --seed other -o a3.pdf"), 0);
    size_t l1, l2, l3;
    char *p1 = read_run_file("a1.pdf", &l1), *p2 = read_run_file("a2.pdf", &l2);
    char *p3 = read_run_file("a3.pdf", &l3);
    assert_int_equal(l1, l2);
    assert_memory_equal(p1, p2, l1);
    assert_true(l1 != l3 || memcmp(p1, p3, l1) != 0);
    free(p1);
    free(p2);
    free(p3);
    char *j1 = read_run_file("a1.json", &l1), *j2 = read_run_file("a2.json", &l2);
    assert_int_equal(l1, l2);
    assert_memory_equal(j1, j2, l1);
    free(j1);
    free(j2);
}

static const cJSON *field(const cJSON *obj, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v)
        fail_msg("field \"%s\" is missing", key);
    return v;
}

static double number(const cJSON *obj, const char *key)
{
    const cJSON *v = field(obj, key);
    assert_true(cJSON_IsNumber(v));
    return v->valuedouble;
}

static const char *string(const cJSON *obj, const char *key)
{
    const cJSON *v = field(obj, key);
    assert_true(cJSON_IsString(v));
    return v->valuestring;
}

static void test_json_board_file(void **state)
{
    (void)state;
    assert_int_equal(cutboard("--players 5 --seed js -o js.pdf --json js.json"), 0);
    size_t len;
    char *text = read_run_file("js.json", &len);
    cJSON *root = cJSON_Parse(text);
    assert_non_null(root);
    assert_string_equal(string(root, "format"), "cutboard/1");
    assert_string_equal(string(root, "seed"), "js");
    assert_int_equal((int)number(root, "players"), 5);
    const cJSON *sheets = field(root, "sheets");
    assert_true(cJSON_IsArray(sheets));
    assert_int_equal(cJSON_GetArraySize(sheets), 5);
    int k = 0;
    for (const cJSON *s = sheets->child; s; s = s->next, k++) {
        char want_seed[32];
        snprintf(want_seed, sizeof want_seed, "js/%d", k + 1);
        assert_string_equal(string(s, "seed"), want_seed);
        const cJSON *page = field(s, "page"), *board = field(s, "board");
        assert_true(number(page, "width_mm") == 297 && number(page, "height_mm") == 210);
        double bx = number(board, "x_mm"), by = number(board, "y_mm");
        double bw = number(board, "width_mm"), bh = number(board, "height_mm");
        assert_true(bx >= 5 && by >= 5 && bx + bw <= 297 && by + bh <= 210);
        assert_true(number(s, "node_radius_mm") > 0);
        assert_true(number(s, "attempts") >= 1);
        const cJSON *metrics = field(s, "metrics");
        assert_true(number(metrics, "hop_spread") <= 1);
        assert_int_equal(cJSON_GetArraySize(field(metrics, "start_center_hops")), 12);
        const cJSON *nodes = field(s, "nodes"), *edges = field(s, "edges");
        int n = cJSON_GetArraySize(nodes), starts = 0, centres = 0;
        int center = (int)number(s, "center");
        assert_true(n > 13 && center >= 0 && center < n);
        int id = 0;
        for (const cJSON *v = nodes->child; v; v = v->next, id++) {
            assert_int_equal((int)number(v, "id"), id);
            double x = number(v, "x_mm"), y = number(v, "y_mm");
            assert_true(x >= bx - 0.01 && x <= bx + bw + 0.01 && y >= by - 0.01 &&
                        y <= by + bh + 0.01);
            const char *kind = string(v, "kind");
            assert_true(cJSON_IsArray(field(v, "dots"))); /* the dot centres */
            assert_true(strlen(string(v, "type")) > 0);
            if (strcmp(kind, "start") == 0) {
                starts++;
                const char *side = string(v, "side");
                assert_true(strcmp(side, "top") == 0 || strcmp(side, "right") == 0 ||
                            strcmp(side, "bottom") == 0 || strcmp(side, "left") == 0);
                assert_true(strlen(string(v, "mission")) > 0);
                assert_string_equal(string(v, "type"), "start");
            } else if (strcmp(kind, "center") == 0) {
                centres++;
                assert_int_equal(id, center);
            } else {
                assert_string_equal(kind, "node");
                assert_null(cJSON_GetObjectItemCaseSensitive(v, "side"));
            }
        }
        assert_int_equal(starts, 12);
        assert_int_equal(centres, 1);
        assert_true(cJSON_GetArraySize(edges) >= n - 1);
        for (const cJSON *e = edges->child; e; e = e->next) {
            assert_int_equal(cJSON_GetArraySize(e), 2);
            int a = cJSON_GetArrayItem(e, 0)->valueint, b = cJSON_GetArrayItem(e, 1)->valueint;
            assert_true(a >= 0 && a < n && b >= 0 && b < n && a != b);
        }
    }
    cJSON_Delete(root);
    free(text);
}

/* --first-game: the same boards as without it, every start with the
 * theme's first-game mission; a theme that names none is refused. */
static void test_first_game(void **state)
{
    (void)state;
    assert_int_equal(cutboard("--players 3 --seed fg --first-game -o fg.pdf --json fg.json"), 0);
    assert_int_equal(cutboard("--players 3 --seed fg -o nfg.pdf --json nfg.json"), 0);
    size_t la, lb;
    char *a = read_run_file("fg.json", &la), *b = read_run_file("nfg.json", &lb);
    cJSON *first = cJSON_Parse(a), *usual = cJSON_Parse(b);
    assert_non_null(first);
    assert_non_null(usual);
    int starts = 0, differ = 0;
    const cJSON *s = field(first, "sheets")->child, *t = field(usual, "sheets")->child;
    for (; s && t; s = s->next, t = t->next) {
        char *e1 = cJSON_PrintUnformatted(field(s, "edges"));
        char *e2 = cJSON_PrintUnformatted(field(t, "edges"));
        assert_string_equal(e1, e2);
        free(e1);
        free(e2);
        const cJSON *v = field(s, "nodes")->child, *w = field(t, "nodes")->child;
        for (; v && w; v = v->next, w = w->next)
            if (strcmp(string(v, "kind"), "start") == 0) {
                starts++;
                assert_string_equal(string(v, "mission"), "traveler");
                differ += strcmp(string(w, "mission"), "traveler") != 0;
            }
    }
    assert_int_equal(starts, 36);
    assert_true(differ > 0); /* without it the missions are dealt */
    cJSON_Delete(first);
    cJSON_Delete(usual);
    free(a);
    free(b);
    copy_default_theme("nofirst");
    assert_int_equal(sh("python3 -c 'import json; p=\"nofirst/theme.json\"; t=json.load(open(p)); "
                        "t.pop(\"first_game\"); json.dump(t, open(p, \"w\"))'"), 0);
    expect_failure("--theme nofirst --first-game -o nf.pdf", 64, "--first-game", "nf.pdf");
}

/* A theme type with a printed number: each of its nodes gets one in the
 * type's range, in the board file and printed on the sheet (the SVG's
 * number texts), and a board file read back keeps them; other types none. */
static void test_printed_numbers(void **state)
{
    (void)state;
    copy_default_theme("numbered");
    assert_int_equal(sh("python3 -c 'import json; p=\"numbered/theme.json\"; t=json.load(open(p)); "
                        "t[\"node_types\"][0][\"number\"]={\"rule\": \"As many as the number.\", "
                        "\"min\": 2, \"max\": 4}; json.dump(t, open(p, \"w\"))'"), 0);
    assert_int_equal(cutboard("--theme numbered --players 2 --seed nb -o nb.svg --json nb.json"), 0);
    assert_int_equal(cutboard("render nb.json --theme numbered -o nb2.svg --json nb2.json"), 0);
    size_t len, len2;
    char *text = read_run_file("nb.json", &len), *again = read_run_file("nb2.json", &len2);
    assert_string_equal(text, again); /* the numbers survive a board file */
    cJSON *root = cJSON_Parse(text);
    assert_non_null(root);
    const cJSON *sheet = field(root, "sheets")->child;
    const char *first_type = NULL;
    int numbered = 0;
    char *svg = read_run_file("nb-1.svg", &len);
    for (const cJSON *v = field(sheet, "nodes")->child; v; v = v->next) {
        const cJSON *num = cJSON_GetObjectItemCaseSensitive(v, "number");
        const char *type = string(v, "type");
        if (num && strcmp(string(v, "kind"), "start") == 0) {
            assert_int_equal(num->valueint, 1); /* sheet 1's seat: player 1 */
            continue;
        }
        if (!first_type && num)
            first_type = type;
        if (num) {
            numbered++;
            assert_true(num->valueint >= 2 && num->valueint <= 4);
            assert_string_equal(type, first_type); /* one numbered type only */
        }
    }
    assert_true(numbered >= 2);
    int printed = 0;
    for (const char *p = svg; (p = strstr(p, "<text class=\"number\"")); p++)
        printed++;
    assert_int_equal(printed, numbered + 1); /* and the seat on the start */
    free(svg);
    cJSON_Delete(root);
    free(text);
    free(again);
}

static void test_qpdf_check(void **state)
{
    (void)state;
    assert_int_equal(cutboard("--players 2 --ink-friendly --seed q -o q.pdf"), 0);
    NEED("qpdf");
    if (sh("qpdf --check q.pdf") != 0)
        fail_msg("qpdf --check: %s %s", out_text, err_text);
}

/* Each icon is embedded once per file and reused on every page. */
static void test_icons_embedded_once(void **state)
{
    (void)state;
    assert_int_equal(cutboard("--players 4 --seed icons -o icons.pdf"), 0);
    NEED("pdfimages");
    assert_int_equal(sh("pdfimages -list icons.pdf"), 0);
    char theme_dir[PATH_MAX + 16];
    snprintf(theme_dir, sizeof theme_dir, "%s/icons/default", cli_repo);
    cb_theme *theme = NULL;
    cb_error err;
    assert_int_equal(cb_theme_load(theme_dir, &theme, &err), CB_OK);
    int icons = (int)(theme->n_types + theme->n_missions + 1);
    cb_theme_free(theme);
    /* Rows: page num type width height color comp bpc enc interp object gen ... */
    int ids[512], n_ids = 0, rows = 0, image_ids[512], n_image_ids = 0;
    for (char *save = NULL, *line = strtok_r(out_text, "\n", &save); line;
         line = strtok_r(NULL, "\n", &save)) {
        int page, num, w, h, comp, bpc, obj, gen;
        char type[16], color[16], enc[16], interp[16];
        if (sscanf(line, "%d %d %15s %d %d %15s %d %d %15s %15s %d %d", &page, &num, type, &w,
                   &h, color, &comp, &bpc, enc, interp, &obj, &gen) != 12)
            continue;
        rows++;
        int seen = 0;
        for (int i = 0; i < n_ids; i++)
            seen |= ids[i] == obj;
        if (!seen && n_ids < 512)
            ids[n_ids++] = obj;
        if (strcmp(type, "image") == 0) {
            seen = 0;
            for (int i = 0; i < n_image_ids; i++)
                seen |= image_ids[i] == obj;
            if (!seen && n_image_ids < 512)
                image_ids[n_image_ids++] = obj;
        }
    }
    print_message("pdfimages: %d placements, %d distinct objects, %d distinct images "
                  "(theme has %d icons)\n", rows, n_ids, n_image_ids, icons);
    assert_true(n_image_ids >= 2);
    assert_true(n_image_ids <= icons);
    assert_true(n_ids <= 2 * icons);          /* each image and its soft mask */
    assert_true(rows > 2 * n_ids);            /* 4 pages share them */
}

static void test_help_and_version(void **state)
{
    (void)state;
    static const char *const options[] = {
        "-o", "--output", "-s", "--seed", "-p", "--players", "--shared", "--theme", "--paper",
        "--portrait", "--margin", "--resolution", "--start-cap", "--node-cap", "--fair-cuts", "--ink-friendly",
        "--font", "--json", "--help", "--version", NULL};
    assert_int_equal(cutboard("--help"), 0);
    for (int i = 0; options[i]; i++)
        assert_contains(out_text, options[i]);
    assert_int_equal(cutboard("-h"), 0);
    assert_contains(out_text, "--players");
    assert_int_equal(cutboard("--version"), 0);
    assert_contains(out_text, CB_VERSION);
    assert_int_equal(cutboard("-V"), 0);
    assert_contains(out_text, CB_VERSION);
    /* help COMMAND [SUBCOMMAND] */
    assert_int_equal(cutboard("help deck"), 0);
    assert_contains(out_text, "--shard");
    assert_int_equal(cutboard("help deck merge"), 0);
    assert_contains(out_text, "deck merge");
    expect_failure("help nothing", 64, "nothing", NULL);
}

/* ---- failures ----------------------------------------------------------- */

static void test_bad_options(void **state)
{
    (void)state;
    expect_failure("--bogus -o bad.pdf", 64, "--bogus", "bad.pdf");
    expect_failure("--players 1 -o bad.pdf", 64, "--players", "bad.pdf");
    expect_failure("--players 10 -o bad.pdf", 64, "--players", "bad.pdf");
    expect_failure("--players four -o bad.pdf", 64, "--players", "bad.pdf");
    expect_failure("--paper foo -o bad.pdf", 64, "foo", "bad.pdf");
    expect_failure("--margin 2 -o bad.pdf", 64, "--margin", "bad.pdf");
    expect_failure("-o bad.pdf --seed", 64, "--seed", "bad.pdf");
    expect_failure("--players 3", 64, "-o", NULL); /* no output file named */
    assert_int_equal(count_prefixed("bad.pdf"), 0);
}

static void test_theme_missing(void **state)
{
    (void)state;
    expect_failure("--theme /nonexistent -o t.pdf", 66, "/nonexistent", "t.pdf");
}

/* --theme NAME is an installed theme (the web API's names), from any
 * folder; --theme PATH a folder; what --help says. */
static void test_theme_by_name(void **state)
{
    (void)state;
    assert_int_equal(cutboard("--seed x -o d.pdf --json d.json"), 0);
    assert_int_equal(cutboard("--theme default --seed x -o n.pdf"), 0);
    assert_true(same_files("d.pdf", "n.pdf"));
    assert_int_equal(cutboard("render d.json --theme default -o r.pdf"), 0);
    assert_int_equal(cutboard("check d.json --theme default"), 0);
    expect_failure("--theme nosuch -o t.pdf", 66, "--theme: nosuch: no theme of that name", "t.pdf");
    copy_default_theme("mine");
    assert_int_equal(cutboard("--theme ./mine --seed x -o m.pdf"), 0);
    assert_true(same_files("d.pdf", "m.pdf"));
    assert_int_equal(cutboard("--help"), 0);
    assert_contains(out_text, "--theme THEME    an installed theme's name, or a folder");
    assert_true(strstr(out_text, "icons/default") == NULL);
}

static void test_theme_invalid_json(void **state)
{
    (void)state;
    assert_int_equal(sh("mkdir -p badjson"), 0);
    write_file("badjson/theme.json",
               "{\n  \"format\": \"cutboard-theme/1\",\n  \"name\": \"broken\",\n"
               "  \"center\": {\"name\": \"c\", \"icon\": \"c.png\" \"color\": \"#000000\"},\n"
               "  \"node_types\": [],\n  \"missions\": []\n}\n");
    expect_failure("--theme badjson -o t.pdf", 65, "theme.json", "t.pdf");
    assert_contains(err_text, ":4"); /* the line with the missing comma */
}

static void test_theme_corrupt_icon(void **state)
{
    (void)state;
    copy_default_theme("corrupt");
    char cmd[PATH_MAX * 2];
    snprintf(cmd, sizeof cmd, "cp '%s/tests/data/icons/corrupt.png' corrupt/compass.png", cli_repo);
    assert_int_equal(sh(cmd), 0);
    expect_failure("--theme corrupt -o t.pdf", 65, "compass.png", "t.pdf");
}

static void test_theme_missing_icon(void **state)
{
    (void)state;
    copy_default_theme("noicon");
    assert_int_equal(sh("rm noicon/crystal.png"), 0);
    expect_failure("--theme noicon -o t.pdf", 66, "crystal.png", "t.pdf");
}

static void test_output_errors(void **state)
{
    (void)state;
    expect_failure("--seed x -o nowhere/out.pdf", 73, "nowhere/out.pdf", NULL);
    assert_false(exists("nowhere"));
    assert_int_equal(sh("mkdir -p outdir"), 0);
    expect_failure("--seed x -o outdir", 73, "outdir", NULL);
    assert_int_equal(sh("ls -A outdir | wc -l"), 0);
    assert_string_equal(out_text, "0\n"); /* nothing written inside it */
    struct stat sb;
    if (stat("/dev/full", &sb) == 0)
        expect_failure("--seed x -o /dev/full", 74, "/dev/full", NULL);
    else
        print_message("/dev/full is missing: skipping the write-error case\n");
}

static const char precious[] = "the board we printed yesterday\n";

/* KEEP holds what write_file put there, and nothing else is next to it. */
static void assert_untouched(const char *keep, const char *run, int rc)
{
    size_t len;
    char *text = read_run_file(keep, &len);
    if (len != strlen(precious) || memcmp(text, precious, len) != 0)
        fail_msg("cutboard %s (exit %d) replaced the existing %s", run, rc, keep);
    free(text);
    assert_int_equal(count_prefixed(keep), 1);
}

/* A run that fails leaves an existing output file as it was. */
static void test_existing_output_untouched(void **state)
{
    (void)state;
    copy_default_theme("broken");
    assert_int_equal(sh("rm broken/key.png"), 0);
    static const char *const runs[] = {
        "--players 10 -o keep.pdf",
        "--paper foo -o keep.pdf",
        "--theme broken -o keep.pdf",
        "--theme /nonexistent -o keep.pdf",
        "--seed x --font /nonexistent.ttf -o keep.pdf",
        NULL};
    for (int i = 0; runs[i]; i++) {
        write_file("keep.pdf", precious);
        int rc = cutboard(runs[i]);
        if (rc == 0)
            fail_msg("cutboard %s succeeded", runs[i]);
        assert_untouched("keep.pdf", runs[i], rc);
    }
}

/* The PDF can be written but the board file (--json) cannot: the run fails
 * (73), so it must neither create the PDF nor replace an existing one. */
static void test_json_write_failure_writes_no_pdf(void **state)
{
    (void)state;
    expect_failure("--seed x -o half.pdf --json nowhere/half.json", 73, "nowhere/half.json",
                   "half.pdf");
    static const char run[] = "--seed x -o kept.pdf --json nowhere/kept.json";
    write_file("kept.pdf", precious);
    int rc = cutboard(run);
    assert_int_equal(rc, 73);
    assert_untouched("kept.pdf", run, rc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_four_players_a4),
        cmocka_unit_test(test_letter),
        cmocka_unit_test(test_portrait),
        cmocka_unit_test(test_three_players),
        cmocka_unit_test(test_shared_board),
        cmocka_unit_test(test_seed_on_every_sheet),
        cmocka_unit_test(test_font_embedded),
        cmocka_unit_test(test_same_seed_same_bytes),
        cmocka_unit_test(test_json_board_file),
        cmocka_unit_test(test_first_game),
        cmocka_unit_test(test_printed_numbers),
        cmocka_unit_test(test_qpdf_check),
        cmocka_unit_test(test_icons_embedded_once),
        cmocka_unit_test(test_help_and_version),
        cmocka_unit_test(test_bad_options),
        cmocka_unit_test(test_theme_missing),
        cmocka_unit_test(test_theme_by_name),
        cmocka_unit_test(test_theme_invalid_json),
        cmocka_unit_test(test_theme_corrupt_icon),
        cmocka_unit_test(test_theme_missing_icon),
        cmocka_unit_test(test_output_errors),
        cmocka_unit_test(test_existing_output_untouched),
        cmocka_unit_test(test_json_write_failure_writes_no_pdf),
    };
    return cmocka_run_group_tests(tests, cli_setup, cli_teardown);
}
