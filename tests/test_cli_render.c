/* End-to-end tests of cutboard render and --obj: a generated board's file
 * prints again and reads back to the same file; an OBJ drawing prints;
 * contract failures are listed one per line and nothing is written unless
 * --force; malformed files name the line. Several files make one PDF, in
 * order; a bad one among them is named and nothing is written. */
#include "cli_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void assert_same_file(const char *a, const char *b)
{
    size_t la, lb;
    char *x = read_run_file(a, &la), *y = read_run_file(b, &lb);
    if (la != lb || memcmp(x, y, la) != 0)
        fail_msg("%s and %s differ", a, b);
    free(x);
    free(y);
}

/* The board file prints again; its --json is the same file, and printing
 * that gives the same PDF byte for byte (the print of a file is stable). */
static void test_render_json_again(void **state)
{
    (void)state;
    assert_int_equal(cutboard("--players 3 --seed again -o g.pdf --json g.json"), 0);
    assert_int_equal(cutboard("render g.json -o r.pdf --json r.json"), 0);
    assert_string_equal(err_text, "");
    assert_same_file("g.json", "r.json");
    assert_int_equal(cutboard("render r.json -o r2.pdf"), 0);
    assert_same_file("r.pdf", "r2.pdf");
    NEED("pdfinfo");
    pdfinfo("r.pdf");
    assert_contains(out_text, "Pages:           4\n"); /* 3 sheets and the rules */
}

/* --obj on the game command: one file per sheet; each renders back to the
 * same sheet as the JSON says. */
static void test_obj_export_and_back(void **state)
{
    (void)state;
    assert_int_equal(cutboard("--players 2 --seed objs -o g2.pdf --json g2.json --obj g2.obj"), 0);
    assert_true(exists("g2-1.obj") && exists("g2-2.obj"));
    assert_false(exists("g2.obj"));
    assert_int_equal(cutboard("--shared --seed one -o s.pdf --json s.json --obj s.obj"), 0);
    assert_true(exists("s.obj"));
    assert_int_equal(cutboard("render s.obj -o s2.pdf --json s2.json --obj s2.obj"), 0);
    assert_same_file("s.json", "s2.json");
    /* OBJ -> JSON -> OBJ: the file holds 0.01 mm, so compare through JSON. */
    assert_int_equal(cutboard("render s2.obj -o s3.pdf --json s3.json"), 0);
    assert_same_file("s.json", "s3.json");
    size_t len;
    char *obj = read_run_file("s.obj", &len);
    assert_non_null(strstr(obj, "\no board\nv "));
    assert_non_null(strstr(obj, "\no center\nv "));
    assert_non_null(strstr(obj, "\no start_"));
    assert_non_null(strstr(obj, "\nl 1 "));
    free(obj);
}

/* The sample drawing meets the contract and prints. */
static void test_render_sample_drawing(void **state)
{
    (void)state;
    char args[4096];
    snprintf(args, sizeof args, "render '%s/samples/drawn.obj' -o drawn.pdf --json drawn.json",
             cli_repo);
    assert_int_equal(cutboard(args), 0);
    assert_string_equal(err_text, "");
    size_t len;
    char *json = read_run_file("drawn.json", &len);
    assert_non_null(strstr(json, "\"kind\":\t\"center\""));
    assert_non_null(strstr(json, "\"mission\":\t\"telescope\""));
    assert_non_null(strstr(json, "\"type\":\t\"anchor\""));
    free(json);
}

static const char crossing[] =
    "o Board\nv 0 0\nv 200 0\nv 200 100\nv 0 100\nv 100 80\nl 1 3\nl 2 4\nl 1 5\n"
    "o center\nv 100 80\n";

static void test_contract_failures_listed(void **state)
{
    (void)state;
    write_file("x.obj", crossing);
    int rc = cutboard("render x.obj -o x.pdf");
    assert_int_equal(rc, 65);
    assert_contains(err_text, "cutboard: x.obj: edge 0-2 crosses edge 1-3 at (148.5, 105.0) mm\n");
    assert_contains(err_text, "cutboard: x.obj: node 1 is not connected to the centre\n");
    assert_contains(err_text, "cutboard: x.obj: 0 starts, 12 wanted (3 on each side)\n");
    assert_contains(err_text, "nothing written (--force prints it anyway)\n");
    assert_false(exists("x.pdf"));
    assert_int_equal(count_prefixed("x.pdf"), 0);
    /* --force prints it anyway, with a warning. */
    assert_int_equal(cutboard("render x.obj -o x.pdf --force --json x.json"), 0);
    assert_contains(err_text, "cutboard: warning: x.obj breaks the contract (9 problems)");
    assert_true(exists("x.pdf") && exists("x.json"));
    /* An edited board file: a start's edge removed. */
    NEED("python3");
    assert_int_equal(cutboard("--shared --seed edit -o e.pdf --json e.json"), 0);
    assert_int_equal(sh("python3 -c \"import json; d=json.load(open('e.json')); "
                        "s=d['sheets'][0]; st=[n['id'] for n in s['nodes'] if n['kind']=='start'][0]; "
                        "s['edges']=[e for e in s['edges'] if st not in e][1:] + "
                        "[e for e in s['edges'] if st in e][1:]; "
                        "json.dump(d, open('e2.json','w'))\" || exit 3"), 0);
    assert_int_equal(cutboard("render e2.json -o e2.pdf"), 65);
    assert_contains(err_text, "edge-disjoint path to the centre, 2 wanted (one cut severs it)");
    assert_false(exists("e2.pdf"));
}

static void test_bad_files_named(void **state)
{
    (void)state;
    write_file("bad.obj", "o Board\nv 0 0 0\nv 1 x 0\n");
    expect_failure("render bad.obj -o bad.pdf", 65, "cutboard: bad.obj:3: v: \"x\" is not a coordinate",
                   "bad.pdf");
    write_file("far.obj", "v 0 0\nv 10 10\nl 1 300\n");
    expect_failure("render far.obj -o far.pdf", 65, "far.obj:3: line refers to vertex 300, file has 2",
                   "far.pdf");
    write_file("bad.json", "{\n  \"format\": \"cutboard/1\",\n  \"seed\": x\n}\n");
    expect_failure("render bad.json -o bad.pdf", 65, "bad.json:3: not valid JSON", "bad.pdf");
    write_file("empty.obj", "");
    expect_failure("render empty.obj -o em.pdf", 65, "empty.obj: empty file", "em.pdf");
    expect_failure("render missing.json -o m.pdf", 66, "missing.json", "m.pdf");
    expect_failure("render -o m.pdf", 64, "no board file", "m.pdf");
    expect_failure("render s.json", 64, "no output file", NULL);
    /* Several files: the first that cannot be read is named. */
    expect_failure("render a.json b.json -o m.pdf", 66, "a.json", "m.pdf");
}

/* The text pdftotext finds on page PAGE of PDF. */
static void page_text(const char *pdf, int page)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "pdftotext -f %d -l %d %s -", page, page, pdf);
    assert_int_equal(sh(cmd), 0);
}

/* Three four-player games (12 sheets, more than one game holds) print in
 * one call, their sheets in argument order, then one rules page. */
static void test_render_many_files(void **state)
{
    (void)state;
    static const char *const seeds[] = {"m1", "m2", "m3"};
    for (int g = 0; g < 3; g++) {
        char args[256];
        snprintf(args, sizeof args, "--players 4 --seed %s -o %s.pdf --json %s.json", seeds[g],
                 seeds[g], seeds[g]);
        assert_int_equal(cutboard(args), 0);
    }
    assert_int_equal(cutboard("render m3.json m1.json m2.json -o all.pdf"), 0);
    assert_string_equal(err_text, "");
    NEED("pdfinfo");
    pdfinfo("all.pdf");
    assert_contains(out_text, "Pages:           13\n");
    NEED("pdftotext");
    /* page 4k + s + 1 is sheet s + 1 of the k-th file given: m3, m1, m2 */
    static const int order[] = {2, 0, 1};
    for (int k = 0; k < 3; k++)
        for (int s = 0; s < 4; s++) {
            char label[64];
            page_text("all.pdf", 4 * k + s + 1);
            snprintf(label, sizeof label, "sheet %s/%d", seeds[order[k]], s + 1);
            assert_contains(out_text, label);
        }
    page_text("all.pdf", 13);
    assert_contains(out_text, "What you need");
    /* --rules none: the sheets alone; the file given twice prints twice */
    assert_int_equal(cutboard("render m1.json m1.json --rules none -o twice.pdf"), 0);
    pdfinfo("twice.pdf");
    assert_contains(out_text, "Pages:           8\n");
}

/* A bad third file: its name (and field) in one line, the exit code it
 * alone would give, and no output at all. */
static void test_render_many_errors(void **state)
{
    (void)state;
    assert_int_equal(cutboard("--players 2 --seed e1 -o e1.pdf --json e1.json"), 0);
    assert_int_equal(cutboard("--players 2 --seed e2 -o e2.pdf --json e2.json"), 0);
    write_file("third.json", "{\"format\": \"cutboard/1\", \"seed\": \"x\", \"players\": 2, "
                             "\"sheets\": [{\"seed\": 7}]}\n");
    expect_failure("render e1.json e2.json third.json -o out3.pdf", 65,
                   "third.json: sheets[0].seed: wants a string", "out3.pdf");
    expect_failure("render e1.json e2.json gone.json e1.json -o out3.pdf", 66,
                   "gone.json", "out3.pdf");
    /* a third file that breaks the contract: its problems, then the verdict */
    write_file("x.obj", crossing);
    assert_int_equal(cutboard("render e1.json e2.json x.obj -o out3.pdf"), 65);
    assert_contains(err_text, "cutboard: x.obj: node 1 is not connected to the centre\n");
    assert_contains(err_text, "cutboard: x.obj: the board breaks the contract");
    assert_false(exists("out3.pdf"));
    assert_int_equal(count_prefixed("out3.pdf"), 0);
    /* an output that exists stays as it was */
    assert_int_equal(cutboard("render e1.json -o kept.pdf"), 0);
    size_t before_len, after_len;
    char *before = read_run_file("kept.pdf", &before_len);
    assert_int_equal(cutboard("render e2.json e1.json third.json -o kept.pdf"), 65);
    char *after = read_run_file("kept.pdf", &after_len);
    assert_true(before_len == after_len && memcmp(before, after, before_len) == 0);
    free(before);
    free(after);
    /* what takes one file */
    expect_failure("render e1.json e2.json -o out3.pdf --json out3.json", 64,
                   "--json takes one board file, not 2", "out3.pdf");
    expect_failure("render e1.json e2.json -o out3.pdf --obj out3.obj", 64, "--obj", "out3.pdf");
    expect_failure("render e1.json e2.json -o out3.svg", 64, "SVG output", "out3");
    expect_failure("render e1.json e2.json -o out3.pdf --rules first", 64, "--rules first",
                   "out3.pdf");
    expect_failure("render - e1.json - -o out3.pdf", 64, "standard input is given twice",
                   "out3.pdf");
    expect_failure("render e1.json e2.json -o e2.json", 64, "both name e2.json", NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_render_json_again),
        cmocka_unit_test(test_obj_export_and_back),
        cmocka_unit_test(test_render_sample_drawing),
        cmocka_unit_test(test_contract_failures_listed),
        cmocka_unit_test(test_bad_files_named),
        cmocka_unit_test(test_render_many_files),
        cmocka_unit_test(test_render_many_errors),
    };
    return cmocka_run_group_tests(tests, cli_setup, cli_teardown);
}
