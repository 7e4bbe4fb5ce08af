/* End-to-end: sizes cutboard cannot make fair are refused before any work,
 * with one line naming the option, exit 64 and no output file; the largest
 * paper at the default spacing is still accepted (checked by the library's
 * spec check, so the test needs no minutes-long poster). */
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

static void test_too_many_nodes_refused(void **state)
{
    (void)state;
    /* 10,000 and 100,000 nodes on A0; 1,000,000 on the largest page. */
    refused("--paper a0 --resolution 150 -o big.pdf", "--resolution", "big.pdf");
    refused("--paper a0 --resolution 380 -o big.pdf", "--resolution", "big.pdf");
    refused("--paper 2000x2000mm --resolution 1000 -o big.pdf", "--resolution", "big.pdf");
    refused("--paper a0 --resolution 150 -o big.pdf", "12000", "big.pdf");
    refused("--paper a0 --resolution 5000 -o big.pdf", "--resolution", "big.pdf");
    refused("--paper 3000x3000mm -o big.pdf", "--paper", "big.pdf");
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
    spec.resolution = 120; /* about 10,000 nodes: a poster, accepted */
    assert_int_equal(cb_spec_check(&spec, &err), CB_OK);
    spec.resolution = 150; /* about 15,500 nodes */
    assert_int_equal(cb_spec_check(&spec, &err), CB_ERR_USAGE);
    assert_non_null(strstr(err.message, "--resolution"));
    /* Refused before any work: generate fails at once with the same message. */
    cb_board *b = (cb_board *)&spec;
    assert_int_equal(cb_board_generate(&spec, "x", 1, &b, &err), CB_ERR_USAGE);
    assert_null(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_too_many_nodes_refused, cli_setup, cli_teardown),
        cmocka_unit_test(test_limits_in_the_library),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
