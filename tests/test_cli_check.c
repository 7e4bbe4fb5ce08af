/* End-to-end tests of cutboard check and cutboard cut: run the binary on
 * generated board files and on a small OBJ drawing worked out by hand. */
#include "cli_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A 100 x 80 mm square drawn in OBJ (y up): nodes 0 (0,0), 1 (100,0),
 * 2 (100,80), 3 (0,80), 4 the centre (50,40), 5 a start (0,40). Edges 5-4
 * across to the centre, 4-2 and 4-3 up to the top corners, and the border
 * edges 0-1, 1-2, 2-3. Pieces: the triangle 4-2-3 (100 x 40 / 2 = 2000
 * mm^2), the triangle 5-4-3 (50 x 40 / 2 = 1000) and the rest, 8000 - 3000
 * = 5000: 3 pieces + the outside = 4 faces.
 *
 * Cutting 5-4-2 parts the two triangles (still joined across 4-3, 3000
 * mm^2) from the rest (5000); both touch the centre, the larger stays. The
 * piece that falls touches nodes 2, 3, 4, 5; node 3 is lost. Left: 5 nodes
 * and 4 edges (5-4, 4-2 with paper on one side, 0-1, 1-2). */
static const char square[] =
    "o Board\n"
    "v 0 0 0\nv 100 0 0\nv 100 80 0\nv 0 80 0\nv 50 40 0\nv 0 40 0\n"
    "l 6 5\nl 1 2 3\nf 5 3 4\nl 3 5\n"
    "o center\nv 50 40 0\n"
    "o start_campfire.001\nv 0 40 0\n";

static void test_check_generated_board(void **state)
{
    (void)state;
    assert_int_equal(cutboard("--players 2 --seed chk --json chk.json -o chk.pdf"), 0);
    assert_int_equal(cutboard("check chk.json"), 0);
    assert_string_equal(err_text, "");
    assert_contains(out_text, "chk.json sheet 1 (seed \"chk/1\"): meets the contract\n");
    assert_contains(out_text, "chk.json sheet 2 (seed \"chk/2\"): meets the contract\n");
    assert_contains(out_text, "  start  node  side    hops  paths  cut\n");
    assert_contains(out_text, "pieces of paper + the outside), largest piece ");
    /* 12 start rows per sheet, each with a cut length. */
    int rows = 0;
    static const char *const sides[] = {"  top  ", "  right  ", "  bottom ", "  left  "};
    for (int k = 0; k < 4; k++)
        for (const char *p = out_text; (p = strstr(p, sides[k])) != NULL; p++)
            rows++;
    assert_int_equal(rows, 24);
    assert_contains(out_text, "shortest cuts ");
}

static void test_check_failing_board(void **state)
{
    (void)state;
    write_file("square.obj", square);
    assert_int_equal(cutboard("check square.obj"), 65);
    assert_contains(out_text, "square.obj: FAILS the contract: not 3 starts on each side's "
                              "trim line\n");
    assert_contains(out_text, "6 nodes, 6 edges; 4 faces (3 pieces of paper + the outside), "
                              "largest piece 5000.0 mm^2\n");
    /* The start shares the triangle 5-4-3 with the centre: no cut. */
    assert_contains(out_text, "      1     5  left       1      1    -\n");
}

static void test_check_errors(void **state)
{
    (void)state;
    expect_failure("check", 64, "no board file given", NULL);
    expect_failure("check nothing.json", 66, "nothing.json", NULL);
    expect_failure("check a.json", 66, "a.json", NULL);
    write_file("empty.json", "");
    int rc = cutboard("check empty.json");
    assert_int_equal(rc, 65);
    assert_one_error_line();
}

/* Lines of TEXT that start with PREFIX. */
static int lines_starting(const char *text, const char *prefix)
{
    int n = 0;
    size_t len = strlen(prefix);
    for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
        n += strncmp(p, prefix, len) == 0;
    return n;
}

/* Several files: every sheet of each reported in order, more sheets than
 * one game holds; a bad or missing file is one error line and the others
 * are still checked; the exit code is the worst. */
static void test_check_many_files(void **state)
{
    (void)state;
    assert_int_equal(cutboard("--players 4 --seed k1 --json k1.json -o k1.pdf"), 0);
    assert_int_equal(cutboard("--players 4 --seed k2 --json k2.json -o k2.pdf"), 0);
    assert_int_equal(cutboard("--shared --seed k3 --json k3.json -o k3.pdf"), 0);
    assert_int_equal(cutboard("check k1.json k2.json k3.json"), 0);
    assert_string_equal(err_text, "");
    assert_int_equal(lines_starting(out_text, "k1.json sheet "), 4);
    assert_int_equal(lines_starting(out_text, "k2.json sheet "), 4);
    assert_int_equal(lines_starting(out_text, "k3.json: meets the contract"), 1);
    const char *first = strstr(out_text, "k1.json sheet 4 (seed \"k1/4\"): meets the contract\n");
    const char *second = strstr(out_text, "k2.json sheet 1 (seed \"k2/1\"): meets the contract\n");
    assert_true(first && second && first < second);
    /* 9 sheets, a start table each */
    assert_int_equal(lines_starting(out_text, "  start  node  side"), 9);
    /* a failing drawing among them: 65, the others still reported */
    write_file("square.obj", square);
    assert_int_equal(cutboard("check k1.json square.obj k3.json"), 65);
    assert_contains(out_text, "square.obj: FAILS the contract");
    assert_int_equal(lines_starting(out_text, "k3.json: meets the contract"), 1);
    /* a bad third file: one line naming it and its field, 65 */
    write_file("third.json", "{\"format\": \"cutboard/1\", \"seed\": \"x\", \"players\": 2, "
                             "\"sheets\": [{\"seed\": 7}]}\n");
    assert_int_equal(cutboard("check k1.json k2.json third.json k3.json"), 65);
    assert_one_error_line();
    assert_contains(err_text, "third.json: sheets[0].seed: wants a string");
    assert_int_equal(lines_starting(out_text, "k3.json: meets the contract"), 1);
    /* missing (66) beats failing (65), whatever the order */
    assert_int_equal(cutboard("check gone.json square.obj"), 66);
    assert_int_equal(cutboard("check square.obj gone.json k1.json"), 66);
    assert_one_error_line();
    assert_contains(err_text, "gone.json");
    assert_int_equal(lines_starting(out_text, "k1.json sheet "), 4);
    expect_failure("check - k1.json -", 64, "standard input is given twice", NULL);
}

static void test_cut_square(void **state)
{
    (void)state;
    write_file("square.obj", square);
    assert_int_equal(cutboard("cut square.obj --path 5,4,2 --json left.json"), 0);
    assert_contains(out_text, "cut 1: 5-4-2\n");
    assert_contains(out_text, "piece 1 falls off: 3000.0 mm^2, nodes 2 3 4 5\n");
    assert_contains(out_text, "lost nodes: 3\n");
    assert_contains(out_text, "left: 5 nodes, 4 edges, 5000.0 mm^2 of paper holding the centre");
    assert_true(exists("left.json"));
    /* The remaining board is a board file again. */
    assert_int_equal(cutboard("check left.json"), 65);
    assert_contains(out_text, "5 nodes, 4 edges; 3 faces");
    /* 3-4 then 4-2 (starting on the first cut): with the border 2-3 they
     * close the triangle 4-2-3 (2000 mm^2), which falls; node 3 keeps the
     * triangle 5-4-3, still joined across 5-4, so no node is lost. */
    assert_int_equal(cutboard("cut square.obj --path 3,4 --path 4,2"), 0);
    assert_contains(out_text, "piece 1 falls off: 2000.0 mm^2, nodes 2 3 4\nlost nodes: none\n");
    assert_contains(out_text, "left: 6 nodes, 5 edges, 6000.0 mm^2");
    /* A cut that parts nothing. */
    assert_int_equal(cutboard("cut square.obj --path 5,4"), 0);
    assert_contains(out_text, "no piece falls off\nlost nodes: none\n");
}

static void test_cut_errors(void **state)
{
    (void)state;
    write_file("square.obj", square);
    expect_failure("cut square.obj --path 4,2 --json out.json", 64,
                   "starts at node 4, which is neither on the paper border nor on an earlier cut",
                   "out.json");
    expect_failure("cut square.obj --path 5,2 --json out.json", 64,
                   "nodes 5 and 2 are not joined by an edge", "out.json");
    expect_failure("cut square.obj --path 5,x --json out.json", 64,
                   "\"5,x\" is not a list of node ids", "out.json");
    expect_failure("cut square.obj --path 5,99", 64, "node 99 does not exist", NULL);
    expect_failure("cut square.obj", 64, "no --path given", NULL);
    expect_failure("cut --path 5,4", 64, "no board file given", NULL);
    expect_failure("cut square.obj --path 5,4 --sheet 2", 64, "has 1 sheet", NULL);
    expect_failure("cut missing.obj --path 5,4", 66, "missing.obj", NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_check_generated_board),
        cmocka_unit_test(test_check_failing_board),
        cmocka_unit_test(test_check_errors),
        cmocka_unit_test(test_check_many_files),
        cmocka_unit_test(test_cut_square),
        cmocka_unit_test(test_cut_errors),
    };
    return cmocka_run_group_tests(tests, cli_setup, cli_teardown);
}
