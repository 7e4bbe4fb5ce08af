/* End-to-end: sizes cutboard cannot make fair are refused before any work,
 * with one line naming the option, exit 64 and no output file; posters far
 * past the small-board generator (the lattice, src/board/lattice.c) are made,
 * printed and pass `cutboard check`. */
#include "test.h"

#include <stdio.h>
#include <string.h>

#include "cli_support.h"
#include "cutboard.h"

static void refused(const char *args, const char *names, const char *out)
{
    int rc = cutboard(args);
    assert_int_equal(rc, 64);
    assert_one_error_line();
    assert_contains(err_text, names);
    assert_false(exists(out));
    assert_int_equal(count_prefixed(out), 0); /* no temporary left either */
}

static void test_impossible_sizes_refused(void **state)
{
    (void)state;
    /* Nodes closer than the 1.5 mm gap between their disks allows. */
    refused("--paper a0 --resolution 400 -o big.pdf", "--resolution", "big.pdf");
    refused("--paper a0 --resolution 400 -o big.pdf", "1.5 mm", "big.pdf");
    refused("--paper 5000x5000mm --resolution 2000 -o big.pdf", "--resolution", "big.pdf");
    refused("--paper a0 --resolution 5000 -o big.pdf", "--resolution", "big.pdf");
    /* Past PDF's 14,400 pt page. */
    refused("--paper 6000x3000mm -o big.pdf", "--paper", "big.pdf");
    /* Lattice boards have nodes of 4 edges. */
    refused("--paper a0 --resolution 150 --node-cap 3 -o big.pdf", "--node-cap", "big.pdf");
}

/* A 10,000-node A0 poster through the CLI: PDF and board file, and the
 * board file passes the independent `cutboard check`. */
static void test_poster_made_and_checked(void **state)
{
    (void)state;
    assert_int_equal(cutboard("--paper a0 --resolution 120 --shared --fair-cuts --seed wall "
                              "-o poster.pdf --json poster.json"), 0);
    assert_true(exists("poster.pdf"));
    assert_int_equal(cutboard("check poster.json"), 0);
    assert_contains(out_text, "meets the contract");
}

static void test_limits_in_the_library(void **state)
{
    (void)state;
    cb_spec spec;
    cb_error err;
    cb_spec_defaults(&spec);
    spec.page_w = 1189; /* A0 landscape, default spacing: 1,586 nodes */
    spec.page_h = 841;
    assert_int_equal(cb_spec_check(&spec, &err), CB_OK);
    spec.resolution = 378; /* about 100,000 nodes, 3.07 mm apart */
    assert_int_equal(cb_spec_check(&spec, &err), CB_OK);
    spec.resolution = 400; /* 2.9 mm apart: the disks come within 1.5 mm */
    assert_int_equal(cb_spec_check(&spec, &err), CB_ERR_USAGE);
    assert_non_null(strstr(err.message, "--resolution"));
    /* Refused before any work: generate fails at once with the same message. */
    cb_board *b = (cb_board *)&spec;
    assert_int_equal(cb_board_generate(&spec, "x", 1, &b, &err), CB_ERR_USAGE);
    assert_null(b);
    /* A million nodes need a 4 x 2.8 m banner. */
    spec.page_w = 4000;
    spec.page_h = 2830;
    spec.margin = 15;
    spec.resolution = 1190.7;
    assert_int_equal(cb_spec_check(&spec, &err), CB_OK);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_impossible_sizes_refused, cli_setup, cli_teardown),
        cmocka_unit_test_setup_teardown(test_poster_made_and_checked, cli_setup, cli_teardown),
        cmocka_unit_test(test_limits_in_the_library),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
