/* Tests for paper sizes (cb_paper_parse): names, WxHmm, and bad strings. */
#include "test.h"

#include <stdio.h>
#include <string.h>

#include "cutboard.h"

static void expect_size(const char *name, double w, double h)
{
    double pw = -1, ph = -1;
    cb_error err = {CB_OK, "", 0, ""};
    if (cb_paper_parse(name, &pw, &ph, &err) != CB_OK)
        fail_msg("\"%s\": %s", name, err.message);
    if (pw != w || ph != h)
        fail_msg("\"%s\": %gx%g, expected %gx%g", name, pw, ph, w, h);
}

static void test_names(void **state)
{
    (void)state;
    /* Landscape: width >= height, in mm (ISO 216 and ANSI). */
    expect_size("a4", 297, 210);
    expect_size("a3", 420, 297);
    expect_size("a5", 210, 148);
    expect_size("letter", 279.4, 215.9);
    expect_size("legal", 355.6, 215.9);
    expect_size("tabloid", 431.8, 279.4);
    /* Case does not matter. */
    expect_size("A4", 297, 210);
    expect_size("Letter", 279.4, 215.9);
    expect_size("TABLOID", 431.8, 279.4);
}

static void test_width_x_height(void **state)
{
    (void)state;
    expect_size("300x200mm", 300, 200);
    expect_size("210x297mm", 297, 210); /* turned to landscape */
    expect_size("250X250mm", 250, 250);
    expect_size("297.5x210.25mm", 297.5, 210.25);
}

static void test_bad_strings(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "foo", "", "a44", "a4 ", " a4", "letters", "210x297", "210x297cm", "210x297mmm",
        "210*297mm", "x297mm", "210xmm", "0x297mm", "-210x297mm", "210x-297mm",
        "infx297mm", "nanx297mm", "210x297mm;rm", "mm", "1e400x2mm"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        double w = 123, h = 456;
        cb_error err = {CB_OK, "", 0, ""};
        cb_status st = cb_paper_parse(bad[i], &w, &h, &err);
        if (st != CB_ERR_USAGE)
            fail_msg("\"%s\": status %d (%gx%g), expected a usage error", bad[i], st, w, h);
        assert_int_equal(err.status, CB_ERR_USAGE);
        assert_string_equal(err.field, "paper");
        /* The message quotes what was given, and outputs are untouched. */
        char quoted[64];
        snprintf(quoted, sizeof quoted, "\"%s\"", bad[i]);
        assert_non_null(strstr(err.message, quoted));
        assert_true(w == 123 && h == 456);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_width_x_height),
        cmocka_unit_test(test_bad_strings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
