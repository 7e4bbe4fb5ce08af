/* End-to-end: cutboard in pipelines and the command-line conventions a
 * script relies on: -o - and --json - to standard output, check - and
 * render - from standard input, a closed pipe as a clean write error,
 * --version on every command, cutboard help, and the hint after an unknown
 * option. */
#include "cli_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The page count pdfinfo printed (in out_text). */
static int pages(void)
{
    const char *p = strstr(out_text, "Pages:");
    return p ? atoi(p + 6) : -1;
}

static void test_pdf_to_standard_output(void **state)
{
    (void)state;
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "%s --seed pipe -o - | pdfinfo -", cli_binary);
    assert_int_equal(sh(cmd), 0);
    assert_int_equal(pages(), 5); /* 4 sheets and the rules page */
    /* the same bytes as a file */
    snprintf(cmd, sizeof cmd, "(%s --seed pipe -o - > a.pdf) && %s --seed pipe -o b.pdf && "
             "cmp a.pdf b.pdf", cli_binary, cli_binary);
    assert_int_equal(sh(cmd), 0);
    snprintf(cmd, sizeof cmd, "%s deck --count 2 --seed pipe -o - | pdfinfo -", cli_binary);
    assert_int_equal(sh(cmd), 0);
    assert_int_equal(pages(), 9); /* 8 sheets, the rules once at the end */
}

static void test_board_file_through_a_pipe(void **state)
{
    (void)state;
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "%s --seed pipe --json - -o p.pdf | %s check -", cli_binary,
             cli_binary);
    assert_int_equal(sh(cmd), 0);
    assert_non_null(strstr(out_text, "meets the contract"));
    snprintf(cmd, sizeof cmd, "%s --seed pipe --json - -o p.pdf | %s render - -o - | pdfinfo -",
             cli_binary, cli_binary);
    assert_int_equal(sh(cmd), 0);
    assert_int_equal(pages(), 5);
    snprintf(cmd, sizeof cmd, "echo '{bad' | %s check -", cli_binary);
    assert_int_equal(sh(cmd), 65);
    assert_non_null(strstr(err_text, "standard input:1: not valid JSON"));
}

static void test_closed_pipe_and_full_disk(void **state)
{
    (void)state;
    char cmd[4096];
    /* the reader goes away at once: exit 74 with one line, no crash */
    snprintf(cmd, sizeof cmd, "bash -c '%s --seed pipe -o - | head -c 10 > /dev/null; "
             "exit ${PIPESTATUS[0]}'", cli_binary);
    int rc = sh(cmd);
    if (rc != 74)
        fail_msg("closed pipe: exit %d, stderr: %s", rc, err_text);
    assert_non_null(strstr(err_text, "standard output: Broken pipe"));
    snprintf(cmd, sizeof cmd, "(%s --seed pipe -o - > /dev/full)", cli_binary);
    assert_int_equal(sh(cmd), 74);
    assert_non_null(strstr(err_text, "standard output: No space left on device"));
    /* two outputs cannot share standard output */
    snprintf(cmd, sizeof cmd, "%s --seed pipe -o - --json -", cli_binary);
    assert_int_equal(sh(cmd), 64);
    assert_non_null(strstr(err_text, "only one output can go to standard output"));
}

static void test_version_help_and_hints(void **state)
{
    (void)state;
    static const char *const commands[] = {"", "game ", "render ", "check ", "cut ", "deck ",
                                           "network "};
    char cmd[4096];
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++) {
        snprintf(cmd, sizeof cmd, "%s %s--version", cli_binary, commands[i]);
        assert_int_equal(sh(cmd), 0);
        assert_non_null(strstr(out_text, "cutboard " CB_VERSION));
    }
    snprintf(cmd, sizeof cmd, "%s help cut", cli_binary);
    assert_int_equal(sh(cmd), 0);
    assert_non_null(strstr(out_text, "usage: cutboard cut"));
    snprintf(cmd, sizeof cmd, "%s help", cli_binary);
    assert_int_equal(sh(cmd), 0);
    assert_non_null(strstr(out_text, "Commands:"));
    snprintf(cmd, sizeof cmd, "%s help nothing", cli_binary);
    assert_int_equal(sh(cmd), 64);
    snprintf(cmd, sizeof cmd, "%s cut x.json --bogus", cli_binary);
    assert_int_equal(sh(cmd), 64);
    assert_non_null(strstr(err_text, "(see cutboard cut --help)"));
    snprintf(cmd, sizeof cmd, "%s --bogus", cli_binary);
    assert_int_equal(sh(cmd), 64);
    assert_non_null(strstr(err_text, "(see cutboard --help)"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pdf_to_standard_output),
        cmocka_unit_test(test_board_file_through_a_pipe),
        cmocka_unit_test(test_closed_pipe_and_full_disk),
        cmocka_unit_test(test_version_help_and_hints),
    };
    return cmocka_run_group_tests(tests, cli_setup, cli_teardown);
}
