/* End-to-end tests of cutboard render and --obj: a generated board's file
 * prints again and reads back to the same file; an OBJ drawing prints;
 * contract failures are listed one per line and nothing is written unless
 * --force; malformed files name the line. */
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
    expect_failure("render a.json b.json -o m.pdf", 64, NULL, "m.pdf");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_render_json_again),
        cmocka_unit_test(test_obj_export_and_back),
        cmocka_unit_test(test_render_sample_drawing),
        cmocka_unit_test(test_contract_failures_listed),
        cmocka_unit_test(test_bad_files_named),
    };
    return cmocka_run_group_tests(tests, cli_setup, cli_teardown);
}
