/* End-to-end tests of the print-shop options: bleed, crop marks, CMYK,
 * safe area, sizes with units and N-up sheets, checked with the tools a
 * print shop's preflight would use (pdfinfo -box, qpdf, pdfimages). */
#include "cli_support.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PT (72.0 / 25.4)

/* Whether LEN bytes of HAY hold NEEDLE. */
static int holds(const char *hay, size_t len, const char *needle)
{
    size_t k = strlen(needle);
    for (size_t i = 0; i + k <= len; i++)
        if (memcmp(hay + i, needle, k) == 0)
            return 1;
    return 0;
}

/* The box NAME ("TrimBox") of page PAGE as pdfinfo -box reports it. */
static void pdf_box(const char *pdf, int page, const char *name, double v[4])
{
    char cmd[PATH_MAX];
    snprintf(cmd, sizeof cmd, "pdfinfo -box -f %d -l %d '%s'", page, page, pdf);
    assert_int_equal(sh(cmd), 0);
    char key[64];
    snprintf(key, sizeof key, "Page %4d %s:", page, name);
    const char *at = strstr(out_text, key);
    if (!at)
        fail_msg("%s: no %s on page %d in:\n%s", pdf, name, page, out_text);
    assert_int_equal(sscanf(at + strlen(key), "%lf %lf %lf %lf", &v[0], &v[1], &v[2], &v[3]),
                     4);
}

/* pdfinfo prints boxes to 0.01 pt: each must be within that of the exact
 * value. */
static void expect_box(const char *pdf, int page, const char *name, double x0, double y0,
                       double x1, double y1)
{
    double v[4], want[4] = {x0, y0, x1, y1};
    pdf_box(pdf, page, name, v);
    for (int i = 0; i < 4; i++)
        if (v[i] < want[i] - 0.0051 || v[i] > want[i] + 0.0051)
            fail_msg("%s page %d %s: %.2f %.2f %.2f %.2f, expected %.4f %.4f %.4f %.4f", pdf,
                     page, name, v[0], v[1], v[2], v[3], x0, y0, x1, y1);
}

static void qpdf_check(const char *pdf)
{
    NEED("qpdf");
    char cmd[PATH_MAX];
    snprintf(cmd, sizeof cmd, "qpdf --check '%s'", pdf);
    if (sh(cmd) != 0)
        fail_msg("qpdf --check %s: %s %s", pdf, out_text, err_text);
    assert_contains(out_text, "No syntax or stream encoding errors");
}

static void test_bleed_a4(void **state)
{
    (void)state;
    assert_int_equal(cutboard("--seed x --players 2 --bleed 3mm -o bleed.pdf"), 0);
    NEED("pdfinfo");
    double W = 297 * PT, H = 210 * PT, b = 3 * PT;
    for (int page = 1; page <= 2; page++) {
        expect_box("bleed.pdf", page, "MediaBox", 0, 0, W + 2 * b, H + 2 * b);
        expect_box("bleed.pdf", page, "BleedBox", 0, 0, W + 2 * b, H + 2 * b);
        expect_box("bleed.pdf", page, "TrimBox", b, b, W + b, H + b);
    }
    qpdf_check("bleed.pdf");
}

static void test_bleed_letter_inch_and_marks(void **state)
{
    (void)state;
    assert_int_equal(cutboard("--seed x --players 2 --paper 8.5x11in --bleed 0.125in "
                              "--crop-marks -o letter.pdf"),
                     0);
    NEED("pdfinfo");
    /* Marks: 3.175 mm (the bleed, > 3 mm) off the trim, 5 mm long. */
    double e = (3.175 + 5) * PT;
    expect_box("letter.pdf", 1, "MediaBox", 0, 0, 792 + 2 * e, 612 + 2 * e);
    expect_box("letter.pdf", 1, "BleedBox", e - 9, e - 9, 792 + e + 9, 612 + e + 9);
    expect_box("letter.pdf", 2, "TrimBox", e, e, 792 + e, 612 + e);
    qpdf_check("letter.pdf");
}

static void test_cmyk(void **state)
{
    (void)state;
    assert_int_equal(cutboard("--seed x --players 2 --bleed 3mm --crop-marks --cmyk --rules none -o cmyk.pdf"),
                     0);
    qpdf_check("cmyk.pdf");
    NEED("pdfimages");
    assert_int_equal(sh("pdfimages -list cmyk.pdf"), 0);
    assert_null(strstr(out_text, "smask"));
    assert_null(strstr(out_text, " rgb "));
    assert_null(strstr(out_text, " gray "));
    assert_contains(out_text, " cmyk ");
    /* The page contents, decompressed by qpdf: no RGB or grey colour
     * operator, edges in 100 % K. */
    assert_int_equal(sh("qpdf --qdf --object-streams=disable cmyk.pdf cmyk.q.pdf"), 0);
    assert_int_equal(sh("(awk '/^%% Contents for page/{c=1} /^endstream/{c=0} c' cmyk.q.pdf "
                        "> contents.txt)"),
                     0);
    assert_int_equal(sh("grep -c -E '(^| )(rg|RG|g|G|cs|CS|sc|SC|scn|SCN)$' contents.txt"), 1);
    assert_int_equal(sh("grep -c '^0 0 0 1 K$' contents.txt"), 0);
    assert_string_equal(out_text, "6\n"); /* trim line, edges and dot outlines, on both pages */
    assert_int_equal(sh("grep -c -E ' k$' contents.txt"), 0);       /* fills are CMYK */
    assert_int_equal(sh("grep -c -E 'DeviceRGB|SMask|DeviceGray' cmyk.q.pdf"), 1);
    /* The same run without --cmyk has RGB operators: the check can fail. */
    assert_int_equal(cutboard("--seed x --players 2 -o rgb.pdf"), 0);
    assert_int_equal(sh("qpdf --qdf --object-streams=disable rgb.pdf rgb.q.pdf && "
                        "grep -q -E ' (rg|RG)$' rgb.q.pdf && grep -q SMask rgb.q.pdf"),
                     0);
}

static void test_nup(void **state)
{
    (void)state;
    /* Four A5 boards with bleed and marks fit an SRA3 sheet. */
    assert_int_equal(cutboard("--seed x --players 4 --board-size a5 "
                              "--sheet sra3 --bleed 3mm --crop-marks -o nup.pdf"),
                     0);
    NEED("pdfinfo");
    pdfinfo("nup.pdf");
    assert_contains(out_text, "Pages:           2\n"); /* the rules on a sheet of their own */
    expect_box("nup.pdf", 1, "MediaBox", 0, 0, 450 * PT, 320 * PT);
    double gw = 2 * 210 + 6, gh = 2 * 148 + 6, x0 = (450 - gw) / 2, y0 = (320 - gh) / 2;
    expect_box("nup.pdf", 1, "TrimBox", x0 * PT, y0 * PT, (x0 + gw) * PT, (y0 + gh) * PT);
    qpdf_check("nup.pdf");
    /* Eight A4 boards two to an A3 sheet (turned): 4 pages, and the rules. */
    assert_int_equal(cutboard("--seed x --players 8 --sheet a3 --gutter 0 -o a3.pdf"), 0);
    pdfinfo("a3.pdf");
    assert_contains(out_text, "Pages:           5\n");
    assert_contains(out_text, "Page size:       1190.55 x 841.89 pts (A3)");
}

static void test_safe_area(void **state)
{
    (void)state;
    assert_int_equal(cutboard("--seed x --players 2 --safe-area 5mm -o safe.pdf"), 0);
    expect_failure("--seed x --players 2 --safe-area 9mm -o unsafe.pdf", 64, "--safe-area",
                   "unsafe.pdf");
    assert_contains(err_text, "a margin of");
    /* A wider margin makes room. */
    assert_int_equal(cutboard("--seed x --players 2 --safe-area 9mm --margin 16 -o safe2.pdf"),
                     0);
}

static void test_bad_values(void **state)
{
    (void)state;
    expect_failure("--seed x --bleed 3cm -o bad.pdf", 64, "--bleed", "bad.pdf");
    expect_failure("--seed x --bleed -3mm -o bad.pdf", 64, "--bleed", "bad.pdf");
    expect_failure("--seed x --bleed 30mm -o bad.pdf", 64, "--bleed", "bad.pdf");
    expect_failure("--seed x --safe-area x -o bad.pdf", 64, "--safe-area", "bad.pdf");
    expect_failure("--seed x --sheet a5 -o bad.pdf", 64, "does not fit", "bad.pdf");
    expect_failure("--seed x --sheet huge -o bad.pdf", 64, "--sheet", "bad.pdf");
    expect_failure("--seed x --sheet a2 --bleed 3mm --gutter 5mm -o bad.pdf", 64, "--gutter",
                   "bad.pdf");
    expect_failure("--seed x --gutter 5mm -o bad.pdf", 64, "--sheet", "bad.pdf");
    expect_failure("--seed x --paper 8.5x11 -o bad.pdf", 64, "--paper", "bad.pdf");
    expect_failure("--seed x --board-size 5x5in -o bad.pdf", 64, "--paper", "bad.pdf");
    expect_failure("--seed x --bleed -o bad.pdf", 64, "--bleed", "bad.pdf");
}

/* Same options, same bytes; no dates unless SOURCE_DATE_EPOCH, no /ID. */
static void test_reproducible(void **state)
{
    (void)state;
    const char *opts = "--seed x --players 2 --bleed 3mm --crop-marks --cmyk --sheet sra2";
    char cmd[PATH_MAX * 2];
    snprintf(cmd, sizeof cmd, "env -u SOURCE_DATE_EPOCH %s %s -o r1.pdf && "
             "env -u SOURCE_DATE_EPOCH %s %s -o r2.pdf && cmp r1.pdf r2.pdf",
             cli_binary, opts, cli_binary, opts);
    assert_int_equal(sh(cmd), 0);
    size_t len;
    char *pdf = read_run_file("r1.pdf", &len);
    assert_false(holds(pdf, len, "Date"));
    assert_false(holds(pdf, len, "/ID"));
    free(pdf);
    snprintf(cmd, sizeof cmd, "SOURCE_DATE_EPOCH=1700000000 %s %s -o r3.pdf", cli_binary, opts);
    assert_int_equal(sh(cmd), 0);
    pdf = read_run_file("r3.pdf", &len);
    assert_true(holds(pdf, len, "/CreationDate (D:20231114221320Z"));
    assert_false(holds(pdf, len, "/ID"));
    free(pdf);
}

static void test_help_lists_options(void **state)
{
    (void)state;
    assert_int_equal(cutboard("--help"), 0);
    static const char *const opts[] = {"--bleed", "--crop-marks", "--cmyk", "--safe-area",
                                       "--board-size", "--sheet", "--gutter"};
    for (size_t i = 0; i < sizeof opts / sizeof *opts; i++)
        assert_contains(out_text, opts[i]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bleed_a4),
        cmocka_unit_test(test_bleed_letter_inch_and_marks),
        cmocka_unit_test(test_cmyk),
        cmocka_unit_test(test_nup),
        cmocka_unit_test(test_safe_area),
        cmocka_unit_test(test_bad_values),
        cmocka_unit_test(test_reproducible),
        cmocka_unit_test(test_help_lists_options),
    };
    return cmocka_run_group_tests(tests, cli_setup, cli_teardown);
}
