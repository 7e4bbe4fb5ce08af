/* Our page content writer (src/print/content.c) against libharu's own page
 * operators: the same drawing made with libharu's on an uncompressed page
 * and with ours must give the same bytes. Our pages have spelt numbers and
 * operators as libharu's did since it stopped writing them, so every page
 * kept its bytes; and the fenced libharu internals
 * (src/print/hpdf_internals.c) are checked on the libharu they were built
 * against. */
#define _GNU_SOURCE /* RTLD_NEXT */
#include "test.h"
#include <dlfcn.h>
#include <hpdf.h>
#include <hpdf_doc.h>
#include <hpdf_utils.h>
#include <math.h>
#include <string.h>
#include "print/content.h"
#include "print/hpdf_internals.h"

/* Numbers where libharu's formatting has edges: zero, negatives, more than
 * five decimals, rounding up, the clamp at +-32767, tiny values. */
static const HPDF_REAL values[] = {0.0F,       1.0F,      -1.0F,     0.5F,    2.25F,
                                   123.456789F, -98.7654F, 0.000004F, 0.99999F, 32767.9F,
                                   -40000.0F,  595.28F,   1e-7F,     7.1F,    841.89F};
enum { NV = sizeof values / sizeof values[0] };

static HPDF_REAL v(int i)
{
    return values[i % NV];
}

static void draw_with_libharu(HPDF_Page page)
{
    for (int i = 0; i < NV; i++) {
        HPDF_Page_SetLineWidth(page, v(i) < 0 ? -v(i) : v(i) > 100 ? 1 : v(i));
        HPDF_Page_SetRGBFill(page, 0.1F, 0.2F, 0.3F);
        HPDF_Page_SetRGBStroke(page, 0.25F, 0.5F, 0.75F);
        HPDF_Page_MoveTo(page, v(i), v(i + 1));
        HPDF_Page_LineTo(page, v(i + 2), v(i + 3));
        HPDF_Page_CurveTo(page, v(i + 4), v(i + 5), v(i + 6), v(i + 7), v(i + 8), v(i + 9));
        HPDF_Page_Stroke(page);
        HPDF_Page_Rectangle(page, v(i + 1), v(i + 2), 10, 20);
        HPDF_Page_FillStroke(page);
        HPDF_Page_GSave(page);
        HPDF_Page_Concat(page, 1, 0, 0, 1, v(i + 3), v(i + 4));
        HPDF_Page_Circle(page, 0, 0, v(i + 5) < 0 ? -v(i + 5) : v(i + 5));
        HPDF_Page_Fill(page);
        HPDF_Page_GRestore(page);
        HPDF_Page_SetCMYKFill(page, 0, 0, 0, 1);
        HPDF_Page_SetCMYKStroke(page, 0.1F, 0.2F, 0.3F, 0.4F);
    }
}

static void draw_with_our_writer(cb_pdf *p)
{
    for (int i = 0; i < NV; i++) {
        CB_OP(p, "w", v(i) < 0 ? -v(i) : v(i) > 100 ? 1 : v(i));
        CB_OP(p, "rg", 0.1F, 0.2F, 0.3F);
        CB_OP(p, "RG", 0.25F, 0.5F, 0.75F);
        CB_OP(p, "m", v(i), v(i + 1));
        CB_OP(p, "l", v(i + 2), v(i + 3));
        CB_OP(p, "c", v(i + 4), v(i + 5), v(i + 6), v(i + 7), v(i + 8), v(i + 9));
        cb_cs_str(p, "S\n");
        CB_OP(p, "re", v(i + 1), v(i + 2), 10, 20);
        cb_cs_str(p, "B\n");
        cb_cs_str(p, "q\n");
        CB_OP(p, "cm", 1, 0, 0, 1, v(i + 3), v(i + 4));
        cb_cs_circle(p, 0, 0, v(i + 5) < 0 ? -v(i + 5) : v(i + 5));
        cb_cs_str(p, "f\n");
        cb_cs_str(p, "Q\n");
        CB_OP(p, "k", 0, 0, 0, 1);
        CB_OP(p, "K", 0.1F, 0.2F, 0.3F, 0.4F);
    }
}

static const char *find(const char *at, size_t len, const char *what, size_t n)
{
    for (size_t i = 0; i + n <= len; i++)
        if (memcmp(at + i, what, n) == 0)
            return at + i;
    return NULL;
}

/* The text between "stream" and "endstream" of the K-th stream (0-based)
 * of an uncompressed PDF, as a pointer into PDF and its length. */
static const char *nth_stream(const char *pdf, size_t len, int k, size_t *out_len)
{
    const char *at = pdf, *end = pdf + len;
    for (int i = 0; i <= k; i++) {
        const char *s = find(at, (size_t)(end - at), "stream\r\n", 8);
        size_t skip = 8;
        if (!s) {
            s = find(at, (size_t)(end - at), "stream\n", 7);
            skip = 7;
        }
        assert_non_null(s);
        const char *e = find(s, (size_t)(end - s), "endstream", 9);
        assert_non_null(e);
        if (i == k) {
            *out_len = (size_t)(e - (s + skip));
            return s + skip;
        }
        at = e + 9;
    }
    return NULL;
}

static void test_writer_matches_libharu_operators(void **state)
{
    (void)state;
    cb_pdf p;
    memset(&p, 0, sizeof p);
    p.doc = HPDF_New(NULL, NULL);
    assert_non_null(p.doc);
    assert_int_equal(HPDF_SetCompressionMode(p.doc, HPDF_COMP_NONE), HPDF_OK);
    HPDF_Page api = HPDF_AddPage(p.doc);
    assert_non_null(api);
    draw_with_libharu(api);
    draw_with_our_writer(&p);
    assert_int_equal(p.cs.st, HPDF_OK);
    assert_int_equal(HPDF_SaveToStream(p.doc), HPDF_OK);
    HPDF_UINT32 size = HPDF_GetStreamSize(p.doc);
    char *pdf = malloc(size);
    assert_non_null(pdf);
    HPDF_UINT32 got = size;
    assert_int_equal(HPDF_ReadFromStream(p.doc, (HPDF_BYTE *)pdf, &got), HPDF_OK);
    size_t la, lo = p.cs.text.len;
    const char *a = nth_stream(pdf, got, 0, &la), *o = p.cs.text.data;
    while (la > lo && (a[la - 1] == '\n' || a[la - 1] == '\r'))
        la--; /* the end of line libharu puts before "endstream" */
    assert_true(la > 1000);
    if (la != lo || memcmp(a, o, la) != 0) {
        size_t i = 0;
        while (i < la && i < lo && a[i] == o[i])
            i++;
        fail_msg("content differs at byte %zu: libharu \"%.40s\" vs ours \"%.40s\"", i, a + i,
                 o + i);
    }
    free(pdf);
    cb_buf_free(&p.cs.text);
    HPDF_Free(p.doc);
}

/* The comparison can fail: one number written differently is caught. */
static void test_a_different_number_is_caught(void **state)
{
    (void)state;
    char a[16], b[16];
    *cb_ftoa(a, 0.5F) = 0;
    *cb_ftoa(b, 0.50001F) = 0;
    assert_string_equal(a, "0.5");
    assert_string_not_equal(a, b);
}

/* cb_ftoa against libharu's HPDF_FToA, number by number: every multiple of
 * 1/64 pt from -33000 to 33000 (past the clamp at +-32767), a million
 * pseudo-random floats between -1000 and 1000 or below 1, and the edge
 * values above. */
enum { STEPS = 33000 * 64, RANDOM = 1000000 };

/* Number I of those, for I from -STEPS to STEPS + RANDOM + NV (X: the
 * pseudo-random state). */
static HPDF_REAL number(long i, uint32_t *x)
{
    if (i <= STEPS)
        return (HPDF_REAL)i / 64.0F;
    if (i <= STEPS + RANDOM) {
        *x = *x * 1664525u + 1013904223u;
        float unit = (float)(*x >> 8) / 16777216.0F; /* [0, 1) */
        return i % 2 ? unit * 2000.0F - 1000.0F : unit;
    }
    return values[i - STEPS - RANDOM - 1];
}

static void test_ftoa_matches_libharu(void **state)
{
    (void)state;
    char ours[32], theirs[32];
    uint32_t x = 12345;
    long checked = 0;
    for (long i = -STEPS; i <= STEPS + RANDOM + NV; i++) {
        HPDF_REAL val = number(i, &x);
        *cb_ftoa(ours, val) = 0;
        *HPDF_FToA(theirs, val, theirs + sizeof theirs - 1) = 0;
        if (strcmp(ours, theirs) != 0)
            fail_msg("%.9g: ours \"%s\", libharu \"%s\"", (double)val, ours, theirs);
        checked++;
    }
    assert_int_equal(checked, 2L * STEPS + 1 + RANDOM + NV);
}

/* snprintf's "%.2f" of V with trailing zeros and a bare point dropped,
 * and no "-0". */
static void two_decimals(char *out, size_t len, double v)
{
    snprintf(out, len, "%.2f", v);
    char *end = out + strlen(out);
    while (end[-1] == '0')
        *--end = 0;
    if (end[-1] == '.')
        *--end = 0;
    if (!strcmp(out, "-0"))
        strcpy(out, "0");
}

/* Places on the page to 0.01 pt (cb_ptoa): the same numbers as snprintf
 * rounds them to, but where V is within a hair of half a hundredth (there
 * snprintf rounds the exact binary value, cb_ptoa the product by 100),
 * and never more than half a hundredth off; clamped as cb_ftoa. */
static void test_ptoa_writes_hundredths(void **state)
{
    (void)state;
    char ours[32], want[32];
    uint32_t x = 987;
    long compared = 0;
    for (long i = -STEPS; i <= STEPS + RANDOM + NV; i++) {
        HPDF_REAL val = number(i, &x);
        char *end = cb_ptoa(ours, val);
        assert_true(end - ours <= 10);
        *end = 0;
        double v = val > 32767 ? 32767 : val < -32767 ? -32767 : (double)val;
        double back = strtod(ours, NULL);
        if (fabs(back - v) > 0.005 + 1e-9)
            fail_msg("%.9g written \"%s\"", (double)val, ours);
        double hundredths = fabs(v) * 100, frac = hundredths - floor(hundredths);
        if (fabs(frac - 0.5) < 1e-6)
            continue;
        two_decimals(want, sizeof want, v);
        if (strcmp(ours, want) != 0)
            fail_msg("%.9g: ours \"%s\", snprintf \"%s\"", (double)val, ours, want);
        compared++;
    }
    assert_true(compared > 2L * STEPS);
    *cb_ptoa(ours, (HPDF_REAL)NAN) = 0;
    assert_string_equal(ours, "0");
    *cb_ptoa(ours, -0.004F) = 0;
    assert_string_equal(ours, "0");
    *cb_ptoa(ours, 12.5F) = 0;
    assert_string_equal(ours, "12.5");
}

typedef HPDF_UINT16 (*glyph_lookup)(HPDF_FontDef, HPDF_UINT16);

/* Our binary-search HPDF_TTFontDef_GetGlyphid (hpdf_internals.c) against
 * libharu's own, found behind it, for every code of both shipped fonts. */
static void test_glyph_lookup_matches_libharu(void **state)
{
    (void)state;
    glyph_lookup libharus = (glyph_lookup)dlsym(RTLD_NEXT, "HPDF_TTFontDef_GetGlyphid");
    assert_non_null(libharus);
    assert_true(libharus != HPDF_TTFontDef_GetGlyphid);
    static const char *const fonts[] = {"fonts/DejaVuSans.ttf", "fonts/DejaVuSans-Bold.ttf"};
    for (size_t f = 0; f < sizeof fonts / sizeof *fonts; f++) {
        HPDF_Doc doc = HPDF_New(NULL, NULL);
        assert_non_null(doc);
        const char *name = HPDF_LoadTTFontFromFile(doc, fonts[f], HPDF_TRUE);
        assert_non_null(name);
        HPDF_FontDef def = HPDF_Doc_FindFontDef(doc, name);
        assert_non_null(def);
        long mapped = 0;
        for (unsigned code = 0; code <= 0xFFFF; code++) {
            HPDF_UINT16 ours = HPDF_TTFontDef_GetGlyphid(def, (HPDF_UINT16)code);
            HPDF_UINT16 theirs = libharus(def, (HPDF_UINT16)code);
            if (ours != theirs)
                fail_msg("%s U+%04X: glyph %u, libharu %u", fonts[f], code, ours, theirs);
            mapped += ours != 0;
        }
        assert_true(mapped > 3000); /* DejaVu Sans has thousands */
        HPDF_Free(doc);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_writer_matches_libharu_operators),
        cmocka_unit_test(test_ftoa_matches_libharu),
        cmocka_unit_test(test_a_different_number_is_caught),
        cmocka_unit_test(test_ptoa_writes_hundredths),
        cmocka_unit_test(test_glyph_lookup_matches_libharu),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
