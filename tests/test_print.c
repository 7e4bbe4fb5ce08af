/* Print-shop pages: lengths and sizes with units, page boxes exact to
 * 0.01 pt, crop marks, CMYK without RGB or soft masks, N-up counts and
 * placement, the safe area, bad option values, and reproducible files.
 * Set CB_TEST_PDF=DIR to keep each rendered PDF there for a look. */
#include "test.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "print/render.h" /* cb_render_cmyk */

#define FONT "fonts/DejaVuSans.ttf"
#define PT (72.0 / 25.4)

/* ---- helpers ----------------------------------------------------------- */

typedef struct {
    unsigned char *data;
    size_t len;
} pdf_buf;

static cb_game *make_game(double page_w, double page_h, int players, double resolution)
{
    cb_spec spec;
    cb_spec_defaults(&spec);
    spec.seed = "print shop";
    spec.players = players;
    spec.page_w = page_w;
    spec.page_h = page_h;
    spec.resolution = resolution;
    spec.theme = default_theme;
    cb_game *g = NULL;
    cb_error err = {CB_OK, "", 0, ""};
    if (cb_game_generate(&spec, &g, &err) != CB_OK)
        fail_msg("generating: %s", err.message);
    return g;
}

static cb_render_options options(void)
{
    cb_render_options o = {0};
    o.font_path = FONT;
    o.gutter = -1;
    return o;
}

static pdf_buf render_ok(const cb_game *g, const cb_render_options *o, const char *name)
{
    pdf_buf out = {NULL, 0};
    cb_error err = {CB_OK, "", 0, ""};
    if (cb_pdf_render(g, default_theme, o, &out.data, &out.len, &err) != CB_OK)
        fail_msg("render %s: %s", name, err.message);
    keep_pdf(name, out.data, out.len);
    return out;
}

static const char *find(const char *hay, const char *end, const char *needle)
{
    size_t k = strlen(needle);
    for (; hay + k <= end; hay++)
        if (memcmp(hay, needle, k) == 0)
            return hay;
    return NULL;
}

static size_t count(const pdf_buf *b, const char *needle)
{
    size_t n = 0;
    const char *p = (const char *)b->data, *end = p + b->len;
    while ((p = find(p, end, needle)) != NULL)
        n++, p++;
    return n;
}

/* Pages in the file: "/Type /Page" not followed by "s". */
static int pages(const pdf_buf *b)
{
    int n = 0;
    const char *p = (const char *)b->data, *end = p + b->len;
    while ((p = find(p, end, "/Type /Page")) != NULL) {
        if (p + 11 >= end || p[11] != 's')
            n++;
        p++;
    }
    return n;
}

/* The K-th (0-based) array NAME ("/TrimBox") in the file, as 4 numbers. */
static int box(const pdf_buf *b, const char *name, int k, double v[4])
{
    const char *p = (const char *)b->data, *end = p + b->len;
    char key[32];
    snprintf(key, sizeof key, "%s [", name);
    for (int i = 0; i <= k; i++, p++)
        if ((p = find(p, end, key)) == NULL)
            return 0;
    return sscanf(p - 1 + strlen(key), "%lf %lf %lf %lf", &v[0], &v[1], &v[2], &v[3]) == 4;
}

static void expect_box(const pdf_buf *b, const char *name, int k, double x0, double y0,
                       double x1, double y1)
{
    double v[4];
    if (!box(b, name, k, v))
        fail_msg("page %d has no %s", k + 1, name);
    double want[4] = {x0, y0, x1, y1};
    for (int i = 0; i < 4; i++)
        if (fabs(v[i] - want[i]) > 0.01)
            fail_msg("page %d %s [%g %g %g %g], expected [%.4f %.4f %.4f %.4f]", k + 1, name,
                     v[0], v[1], v[2], v[3], x0, y0, x1, y1);
}

/* Every Flate stream of the file inflated, with its dictionary: calls FN
 * for each (DICT..DICT_END is the dictionary text). */
typedef void (*stream_fn)(const char *dict, const char *dict_end, const unsigned char *data,
                          size_t len, void *ctx);

static void each_stream(const pdf_buf *b, stream_fn fn, void *ctx)
{
    const char *p = (const char *)b->data, *end = p + b->len, *obj;
    size_t cap = 4u << 20;
    unsigned char *buf = malloc(cap);
    assert_non_null(buf);
    for (const char *s = p; (obj = find(s, end, " obj")) != NULL; s = obj + 4) {
        const char *next = find(obj + 4, end, "endobj");
        const char *st = find(obj, next ? next : end, "stream\r\n");
        if (!next || !st || !find(obj, st, "/FlateDecode"))
            continue;
        const char *data = st + 8, *stop = find(data, next, "endstream");
        assert_non_null(stop);
        uLongf out = (uLongf)cap;
        if (uncompress(buf, &out, (const Bytef *)data, (uLong)(stop - data)) == Z_OK)
            fn(obj, st, buf, out, ctx);
    }
    free(buf);
}

typedef struct {
    int content_streams, images, gray_ops, rgb_ops, k_lines, reg_marks, white_corners;
    int bad_images;
} colour_census;

/* Whether WORD occurs in TEXT as a whole token (between white space). */
static int has_token(const char *text, size_t len, const char *word)
{
    size_t k = strlen(word);
    for (size_t i = 0; i + k <= len; i++)
        if (memcmp(text + i, word, k) == 0 &&
            (i == 0 || strchr(" \n\r\t", text[i - 1])) &&
            (i + k == len || strchr(" \n\r\t", text[i + k])))
            return 1;
    return 0;
}

static void census_fn(const char *dict, const char *dict_end, const unsigned char *data,
                      size_t len, void *ctx)
{
    colour_census *c = ctx;
    if (find(dict, dict_end, "/Subtype /Image")) {
        c->images++;
        int w = 0, h = 0;
        const char *pw = find(dict, dict_end, "/Width "), *ph = find(dict, dict_end, "/Height ");
        if (pw)
            w = atoi(pw + 7);
        if (ph)
            h = atoi(ph + 8);
        if (!find(dict, dict_end, "/ColorSpace /DeviceCMYK") ||
            len != (size_t)w * (size_t)h * 4)
            c->bad_images++;
        else if (data[0] == 0 && data[1] == 0 && data[2] == 0 && data[3] == 0)
            c->white_corners++; /* the top-left pixel, transparent in the PNG */
        return;
    }
    if (find(dict, dict_end, "/Length1") || memchr(data, 0, len))
        return; /* the font file and binary maps */
    const char *t = (const char *)data;
    c->content_streams++;
    static const char *const gray[] = {"g", "G"};
    static const char *const rgb[] = {"rg", "RG", "cs", "CS", "sc", "SC", "scn", "SCN"};
    for (size_t i = 0; i < 2; i++)
        c->gray_ops += has_token(t, len, gray[i]);
    for (size_t i = 0; i < sizeof rgb / sizeof *rgb; i++)
        c->rgb_ops += has_token(t, len, rgb[i]);
    char *copy = malloc(len + 1);
    assert_non_null(copy);
    memcpy(copy, data, len);
    copy[len] = '\0';
    if (strstr(copy, "\n0 0 0 1 K\n"))
        c->k_lines++;
    if (strncmp(copy, "1 1 1 1 K\n", 10) == 0 || strstr(copy, "\n1 1 1 1 K\n"))
        c->reg_marks++;
    free(copy);
}

/* ---- lengths and sizes ------------------------------------------------- */

static void test_lengths(void **state)
{
    (void)state;
    static const struct { const char *text; double mm; } good[] = {
        {"3mm", 3}, {"3", 3}, {"0.125in", 3.175}, {"9pt", 3.175}, {"0", 0}, {"2.5", 2.5},
        {"1in", 25.4}, {"72pt", 25.4}, {".5mm", 0.5}};
    for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
        double mm = -1;
        cb_error err = {CB_OK, "", 0, ""};
        if (cb_length_parse("bleed", good[i].text, &mm, &err) != CB_OK)
            fail_msg("\"%s\": %s", good[i].text, err.message);
        if (fabs(mm - good[i].mm) > 1e-12)
            fail_msg("\"%s\" is %g mm, expected %g", good[i].text, mm, good[i].mm);
    }
    static const char *const bad[] = {"", "mm", "-3mm", "3 mm", " 3mm", "3cm", "3MM", "1e3",
                                      "inf", "nan", "0x10", "3mmm", "3in;", ".", "+3"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        double mm = 42;
        cb_error err = {CB_OK, "", 0, ""};
        if (cb_length_parse("gutter", bad[i], &mm, &err) != CB_ERR_USAGE)
            fail_msg("\"%s\" was accepted as %g mm", bad[i], mm);
        assert_true(mm == 42);
        assert_string_equal(err.field, "gutter");
        assert_null(strchr(err.message, '\n'));
    }
}

static void test_sizes(void **state)
{
    (void)state;
    static const struct { const char *text; double w, h; } good[] = {
        {"8.5x11in", 279.4, 215.9}, {"11x8.5in", 279.4, 215.9}, {"612x792pt", 279.4, 215.9},
        {"300x200mm", 300, 200},    {"sra3", 450, 320},         {"SRA4", 320, 225},
        {"a3", 420, 297},           {"10x10mm", 10, 10}};
    for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
        double w = 0, h = 0;
        cb_error err = {CB_OK, "", 0, ""};
        if (cb_size_parse("sheet", good[i].text, &w, &h, &err) != CB_OK)
            fail_msg("\"%s\": %s", good[i].text, err.message);
        if (fabs(w - good[i].w) > 1e-9 || fabs(h - good[i].h) > 1e-9)
            fail_msg("\"%s\" is %gx%g, expected %gx%g", good[i].text, w, h, good[i].w,
                     good[i].h);
    }
    static const char *const bad[] = {"8.5x11",  "8.5x11cm", "9x9mm",    "6000x10mm",
                                      "0x10in",  "x11in",    "8.5xin",   "sra9",
                                      "8.5x11in ", "-8x11in", "1e2x1e2mm", "200x0.1in"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        double w = 7, h = 7;
        cb_error err = {CB_OK, "", 0, ""};
        if (cb_size_parse("sheet", bad[i], &w, &h, &err) != CB_ERR_USAGE)
            fail_msg("\"%s\" was accepted as %gx%g", bad[i], w, h);
        assert_true(w == 7 && h == 7);
        assert_string_equal(err.field, "sheet");
    }
    /* --paper goes through the same parser. */
    double w, h;
    cb_error err;
    assert_int_equal(cb_paper_parse("8.5x11in", &w, &h, &err), CB_OK);
    assert_true(fabs(w - 279.4) < 1e-9 && fabs(h - 215.9) < 1e-9);
}

/* ---- layout ------------------------------------------------------------ */

static cb_page_layout layout_ok(double bw, double bh, const cb_render_options *o)
{
    cb_page_layout l;
    cb_error err = {CB_OK, "", 0, ""};
    if (cb_page_layout_make(bw, bh, o, &l, &err) != CB_OK)
        fail_msg("layout %gx%g: %s", bw, bh, err.message);
    return l;
}

static void expect_nup(double bw, double bh, double sw, double sh, double gutter, double bleed,
                       int marks, int cols, int rows, int rotated)
{
    cb_render_options o = options();
    o.sheet_w = sw, o.sheet_h = sh, o.gutter = gutter, o.bleed = bleed, o.crop_marks = marks;
    cb_page_layout l = layout_ok(bw, bh, &o);
    if (l.cols != cols || l.rows != rows || l.rotated != rotated)
        fail_msg("%gx%g on %gx%g (gutter %g, bleed %g, marks %d): %dx%d%s, expected %dx%d%s",
                 bw, bh, sw, sh, gutter, bleed, marks, l.cols, l.rows,
                 l.rotated ? " turned" : "", cols, rows, rotated ? " turned" : "");
}

static void test_nup_counts(void **state)
{
    (void)state;
    expect_nup(210, 148, 420, 297, 0, 0, 0, 2, 2, 0);  /* A5 on A3, no gutter: 4 */
    expect_nup(210, 148, 420, 297, -1, 0, 0, 2, 1, 1); /* default 6 mm gutter: 2 */
    expect_nup(210, 148, 450, 320, -1, 3, 1, 2, 2, 0); /* A5 on SRA3, bleed, marks: 4 */
    expect_nup(297, 210, 420, 297, 0, 0, 0, 2, 1, 1);  /* A4 on A3: 2, turned */
    expect_nup(105, 74, 297, 210, 0, 0, 0, 4, 2, 1);   /* A7 on A4: 8 turned beat 4 */
    expect_nup(279.4, 215.9, 431.8, 279.4, 0, 0, 0, 2, 1, 1); /* letter on tabloid */
    expect_nup(297, 210, 297, 210, 0, 0, 0, 1, 1, 0);  /* exactly one */
}

/* Over many board and sheet sizes: the count is the best of the two
 * turns, every board lies inside the sheet less the room for bleed and
 * marks, neighbours are a gutter apart, and the block is centred. */
static void test_nup_property(void **state)
{
    (void)state;
    uint64_t x = 0x9E3779B97F4A7C15u;
    int tried = 0;
    for (int i = 0; i < 3000; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        double bw = 40 + (double)(x % 2600) / 10, bh = 30 + (double)((x >> 16) % 2000) / 10;
        double sw = 100 + (double)((x >> 32) % 6000) / 10;
        double sh = 100 + (double)((x >> 44) % 4000) / 10;
        double bleed = (double)((x >> 56) % 5);
        cb_render_options o = options();
        o.sheet_w = sw, o.sheet_h = sh, o.bleed = bleed, o.crop_marks = (int)(x & 1);
        o.gutter = (x & 2) ? -1 : 2 * bleed + (double)((x >> 8) % 10);
        cb_page_layout l;
        cb_error err = {CB_OK, "", 0, ""};
        double ext = o.crop_marks ? fmax(3, bleed) + 5 : bleed;
        double g = o.gutter < 0 ? fmax(6, 2 * bleed) : o.gutter;
        int best = 0;
        for (int turn = 0; turn < 2; turn++) {
            double cw = turn ? bh : bw, ch = turn ? bw : bh;
            int c = 0, r = 0;
            while ((c + 1) * cw + c * g <= sw - 2 * ext + 1e-9)
                c++;
            while ((r + 1) * ch + r * g <= sh - 2 * ext + 1e-9)
                r++;
            if (c * r > best)
                best = c * r;
        }
        cb_status st = cb_page_layout_make(bw, bh, &o, &l, &err);
        if (best == 0) {
            assert_int_equal(st, CB_ERR_USAGE);
            assert_string_equal(err.field, "sheet");
            continue;
        }
        tried++;
        assert_int_equal(st, CB_OK);
        assert_int_equal(l.cols * l.rows, best);
        assert_true(l.cell_w == (l.rotated ? bh : bw) && l.cell_h == (l.rotated ? bw : bh));
        for (int k = 0; k < best; k++) {
            double cx, cy;
            cb_page_layout_cell(&l, k, &cx, &cy);
            assert_true(cx >= ext - 1e-9 && cy >= ext - 1e-9);
            assert_true(cx + l.cell_w <= sw - ext + 1e-9 && cy + l.cell_h <= sh - ext + 1e-9);
            if (k % l.cols) { /* the left neighbour ends a gutter before */
                double px, py;
                cb_page_layout_cell(&l, k - 1, &px, &py);
                assert_true(fabs(cx - (px + l.cell_w + g)) < 1e-9 && py == cy);
            }
        }
        assert_true(fabs(l.trim[0] - (sw - l.trim[2]) / 2) < 1e-9);
        assert_true(fabs(l.trim[1] - (sh - l.trim[3]) / 2) < 1e-9);
        assert_true(fabs(l.bleed[0] - (l.trim[0] - bleed)) < 1e-9);
        assert_true(fabs(l.bleed[2] - (l.trim[2] + 2 * bleed)) < 1e-9);
    }
    assert_true(tried > 1000);
}

static void expect_bad_layout(double bleed, double gutter, double sw, double sh, double safe,
                              const char *what)
{
    cb_render_options o = options();
    o.bleed = bleed, o.gutter = gutter, o.sheet_w = sw, o.sheet_h = sh, o.safe_area = safe;
    cb_page_layout l;
    cb_error err = {CB_OK, "", 0, ""};
    if (cb_page_layout_make(297, 210, &o, &l, &err) != CB_ERR_USAGE)
        fail_msg("bleed %g gutter %g sheet %gx%g safe %g accepted", bleed, gutter, sw, sh, safe);
    if (strcmp(err.field, what) != 0)
        fail_msg("\"%s\" (field \"%s\") is not for %s", err.message, err.field, what);
    /* The streaming writer refuses them up front too. */
    cb_pdf_writer *w = (cb_pdf_writer *)&l;
    if (strcmp(what, "sheet") != 0 || sw < 10) {
        assert_int_equal(cb_pdf_begin(default_theme, &o, &w, &err), CB_ERR_USAGE);
        assert_null(w);
    }
}

static void test_bad_values(void **state)
{
    (void)state;
    expect_bad_layout(-1, -1, 0, 0, 0, "bleed");
    expect_bad_layout(26, -1, 0, 0, 0, "bleed");
    expect_bad_layout(NAN, -1, 0, 0, 0, "bleed");
    expect_bad_layout(3, 5.9, 420, 297, 0, "gutter");   /* bleeds would overlap */
    expect_bad_layout(0, 101, 420, 297, 0, "gutter");
    expect_bad_layout(0, -1, 210, 148, 0, "sheet");     /* A4 board, A5 sheet */
    expect_bad_layout(0, -1, 5, 5, 0, "sheet");
    expect_bad_layout(0, -1, 0, 0, 51, "safe_area");
    expect_bad_layout(0, -1, 0, 0, -2, "safe_area");

    /* A board that does not fit the sheet fails in cb_pdf_add_game, and
     * the document gets no page. */
    cb_game *g = make_game(297, 210, 2, 0);
    cb_render_options o = options();
    o.sheet_w = 210, o.sheet_h = 148;
    cb_pdf_writer *w = NULL;
    cb_error err = {CB_OK, "", 0, ""};
    assert_int_equal(cb_pdf_begin(default_theme, &o, &w, &err), CB_OK);
    assert_int_equal(cb_pdf_add_game(w, g, &err), CB_ERR_USAGE);
    assert_string_equal(err.field, "sheet");
    unsigned char *pdf = NULL;
    size_t len = 0;
    assert_int_equal(cb_pdf_end(w, &pdf, &len, &err), CB_ERR_DATA);
    assert_null(pdf);
    cb_pdf_writer_free(w);
    cb_game_free(g);
}

/* ---- page boxes -------------------------------------------------------- */

static void test_boxes_a4_3mm(void **state)
{
    (void)state;
    cb_game *g = make_game(297, 210, 2, 0);
    cb_render_options o = options();
    o.bleed = 3;
    pdf_buf a = render_ok(g, &o, "a4-bleed");
    assert_int_equal(pages(&a), 2);
    double W = 297 * PT, H = 210 * PT, b = 3 * PT;
    for (int k = 0; k < 2; k++) {
        expect_box(&a, "/MediaBox", k, 0, 0, W + 2 * b, H + 2 * b);
        expect_box(&a, "/BleedBox", k, 0, 0, W + 2 * b, H + 2 * b);
        expect_box(&a, "/TrimBox", k, b, b, W + b, H + b);
    }
    /* Literally: not rounded to whole points. */
    assert_int_equal(count(&a, "/TrimBox [ 8.50394 8.50394 850.39368 603.77954 ]"), 2);

    /* With crop marks the page grows by the marks: 3 mm offset + 5 mm. */
    o.crop_marks = 1;
    pdf_buf m = render_ok(g, &o, "a4-bleed-marks");
    double e = 8 * PT;
    for (int k = 0; k < 2; k++) {
        expect_box(&m, "/MediaBox", k, 0, 0, W + 2 * e, H + 2 * e);
        expect_box(&m, "/BleedBox", k, e - b, e - b, W + e + b, H + e + b);
        expect_box(&m, "/TrimBox", k, e, e, W + e, H + e);
    }
    /* A bleed wider than 3 mm pushes the marks out with it. */
    o.bleed = 5;
    pdf_buf m5 = render_ok(g, &o, "a4-bleed5-marks");
    expect_box(&m5, "/MediaBox", 0, 0, 0, W + 20 * PT, H + 20 * PT);
    expect_box(&m5, "/TrimBox", 0, 10 * PT, 10 * PT, W + 10 * PT, H + 10 * PT);

    /* Home pages carry no extra boxes. */
    cb_render_options plain = options();
    pdf_buf h = render_ok(g, &plain, "a4-plain");
    assert_int_equal(count(&h, "/TrimBox"), 0);
    assert_int_equal(count(&h, "/BleedBox"), 0);
    expect_box(&h, "/MediaBox", 0, 0, 0, W, H);
    free(a.data);
    free(m.data);
    free(m5.data);
    free(h.data);
    cb_game_free(g);
}

static void test_boxes_letter_eighth_inch(void **state)
{
    (void)state;
    cb_game *g = make_game(279.4, 215.9, 2, 0);
    cb_render_options o = options();
    assert_int_equal(cb_length_parse("bleed", "0.125in", &o.bleed, &(cb_error){0}), CB_OK);
    pdf_buf a = render_ok(g, &o, "letter-bleed");
    for (int k = 0; k < 2; k++) {
        expect_box(&a, "/MediaBox", k, 0, 0, 810, 630);
        expect_box(&a, "/BleedBox", k, 0, 0, 810, 630);
        expect_box(&a, "/TrimBox", k, 9, 9, 801, 621);
    }
    free(a.data);
    cb_game_free(g);
}

/* The page contents, inflated and joined (text streams only). */
static void contents_fn(const char *dict, const char *dict_end, const unsigned char *data,
                        size_t len, void *ctx)
{
    char **all = ctx;
    if (find(dict, dict_end, "/Subtype") || find(dict, dict_end, "/Length1") ||
        memchr(data, 0, len))
        return;
    size_t have = *all ? strlen(*all) : 0;
    char *more = realloc(*all, have + len + 1);
    assert_non_null(more);
    memcpy(more + have, data, len);
    more[have + len] = '\0';
    *all = more;
}

static char *contents(const pdf_buf *b)
{
    char *all = NULL;
    each_stream(b, contents_fn, &all);
    assert_non_null(all);
    return all;
}

/* With a bleed the board moves in by the bleed, and the margin tint is a
 * rectangle from the bleed edge (-bleed in the board's coordinates) to the
 * far bleed edge, less the board's trim (even-odd fill). */
static void test_bleed_artwork(void **state)
{
    (void)state;
    cb_game *g = make_game(297, 210, 2, 0);
    cb_render_options o = options();
    o.bleed = 3;
    pdf_buf a = render_ok(g, &o, "a4-tint");
    char *c = contents(&a);
    assert_non_null(strstr(c, "1 0 0 1 8.50394 8.50394 cm"));
    assert_non_null(strstr(c, "-8.50394 -8.50394 858.89764 612.28345 re"));
    assert_non_null(strstr(c, "f*"));
    free(c);
    cb_render_options plain = options();
    pdf_buf h = render_ok(g, &plain, "a4-notint");
    c = contents(&h);
    assert_null(strstr(c, "f*"));
    free(c);
    free(a.data);
    free(h.data);
    cb_game_free(g);
}

/* ---- CMYK -------------------------------------------------------------- */

static void test_cmyk_clean(void **state)
{
    (void)state;
    cb_game *g = make_game(297, 210, 3, 0);
    cb_render_options o = options();
    o.cmyk = 1, o.bleed = 3, o.crop_marks = 1;
    pdf_buf a = render_ok(g, &o, "cmyk");
    assert_int_equal(count(&a, "/DeviceRGB"), 0);
    assert_int_equal(count(&a, "/SMask"), 0);
    assert_int_equal(count(&a, "/DeviceGray"), 0);
    assert_int_equal(count(&a, "/ExtGState"), 0); /* no transparency settings */
    colour_census c = {0};
    each_stream(&a, census_fn, &c);
    assert_true(c.content_streams >= 3); /* the pages, and the font's ToUnicode map */
    assert_int_equal(c.rgb_ops, 0);
    assert_int_equal(c.gray_ops, 0);
    assert_int_equal(c.k_lines, 3);   /* edges in 100 % K on every page */
    assert_int_equal(c.reg_marks, 3); /* crop marks on every separation */
    assert_true(c.images >= 10);
    assert_int_equal(c.bad_images, 0);
    assert_int_equal(c.white_corners, 0); /* flattened onto tinted fills */

    /* Ink-friendly fills are white: icons flatten onto white. */
    o.ink_friendly = 1;
    pdf_buf w = render_ok(g, &o, "cmyk-ink");
    colour_census ci = {0};
    each_stream(&w, census_fn, &ci);
    assert_int_equal(ci.bad_images, 0);
    assert_int_equal(ci.rgb_ops + ci.gray_ops, 0);
    assert_int_equal(ci.white_corners, ci.images);

    /* The same boards without --cmyk do use RGB and soft masks: the census
     * can see them. */
    cb_render_options rgb = options();
    pdf_buf r = render_ok(g, &rgb, "rgb");
    colour_census cr = {0};
    each_stream(&r, census_fn, &cr);
    assert_true(cr.rgb_ops > 0 && count(&r, "/SMask") > 0 && count(&r, "/DeviceRGB") > 0);
    free(a.data);
    free(w.data);
    free(r.data);
    cb_game_free(g);
}

static void test_cmyk_conversion(void **state)
{
    (void)state;
    static const double cases[][7] = {
        /* r g b -> c m y k */
        {0, 0, 0, 0, 0, 0, 1},       {1, 1, 1, 0, 0, 0, 0},    {0.5, 0.5, 0.5, 0, 0, 0, 0.5},
        {1, 0, 0, 0, 1, 1, 0},       {0, 0.5, 1, 1, 0.5, 0, 0}, {0.75, 0.25, 0.25, 0, 2.0 / 3, 2.0 / 3, 0.25}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        double v[4];
        cb_render_cmyk(cases[i], v);
        for (int c = 0; c < 4; c++)
            if (fabs(v[c] - cases[i][3 + c]) > 1e-12)
                fail_msg("rgb %g %g %g: cmyk %g %g %g %g", cases[i][0], cases[i][1],
                         cases[i][2], v[0], v[1], v[2], v[3]);
        assert_true(v[0] + v[1] + v[2] + v[3] <= 3.0);
    }
}

/* ---- N-up documents ---------------------------------------------------- */

/* Quarter-turn matrices in the page contents. */
static size_t turns(const pdf_buf *b)
{
    char *text = contents(b);
    size_t n = 0;
    for (const char *t = text; (t = strstr(t, "0 1 -1 0 ")) != NULL; t++)
        n++;
    free(text);
    return n;
}

static void test_nup_pages(void **state)
{
    (void)state;
    cb_game *g = make_game(297, 210, 4, 0);
    cb_render_options o = options();
    o.sheet_w = 594, o.sheet_h = 420, o.gutter = 0; /* A4 on A2: 4 per sheet */
    pdf_buf a = render_ok(g, &o, "nup-a2");
    assert_int_equal(pages(&a), 1);
    expect_box(&a, "/MediaBox", 0, 0, 0, 594 * PT, 420 * PT);
    expect_box(&a, "/TrimBox", 0, 0, 0, 594 * PT, 420 * PT);

    o.gutter = -1; /* 6 mm: 2 per sheet, turned */
    pdf_buf b = render_ok(g, &o, "nup-a2-gutter");
    assert_int_equal(pages(&b), 2);
    /* Every board turned: 4 more quarter turns than the same boards
     * upright (start icons turn too). */
    assert_int_equal(turns(&b), turns(&a) + 4);
    /* The block of two turned A4s with 6 mm between, centred. */
    double gw = 2 * 210 + 6, gh = 297;
    double x0 = (594 - gw) / 2, y0 = (420 - gh) / 2;
    for (int k = 0; k < 2; k++)
        expect_box(&b, "/TrimBox", k, x0 * PT, y0 * PT, (x0 + gw) * PT, (y0 + gh) * PT);

    o.sheet_w = 640, o.sheet_h = 450, o.bleed = 3, o.crop_marks = 1, o.cmyk = 1;
    pdf_buf c = render_ok(g, &o, "nup-sra2"); /* 4 A4s with bleed and marks on SRA2 */
    assert_int_equal(pages(&c), 1);
    gw = 2 * 297 + 6, gh = 2 * 210 + 6;
    x0 = (640 - gw) / 2, y0 = (450 - gh) / 2;
    expect_box(&c, "/TrimBox", 0, x0 * PT, y0 * PT, (x0 + gw) * PT, (y0 + gh) * PT);
    expect_box(&c, "/BleedBox", 0, (x0 - 3) * PT, (y0 - 3) * PT, (x0 + gw + 3) * PT,
               (y0 + gh + 3) * PT);
    colour_census cc = {0};
    each_stream(&c, census_fn, &cc);
    assert_int_equal(cc.rgb_ops + cc.gray_ops, 0);

    /* Three boards on a 4-up sheet: one page, the last slot empty. */
    cb_board *last = g->sheets[3];
    g->n_sheets = 3;
    o.cmyk = 0;
    pdf_buf d = render_ok(g, &o, "nup-three");
    assert_int_equal(pages(&d), 1);
    g->n_sheets = 4;
    g->sheets[3] = last;
    free(a.data);
    free(b.data);
    free(c.data);
    free(d.data);
    cb_game_free(g);
}

/* The streaming writer fills sheets across games: 4 games of 2 boards on a
 * 4-up sheet make 2 pages, the same bytes as one call per sheet pair. */
static void test_nup_streaming(void **state)
{
    (void)state;
    cb_game *g = make_game(297, 210, 2, 0);
    cb_render_options o = options();
    o.sheet_w = 594, o.sheet_h = 420, o.gutter = 0;
    cb_pdf_writer *w = NULL;
    cb_error err = {CB_OK, "", 0, ""};
    assert_int_equal(cb_pdf_begin(default_theme, &o, &w, &err), CB_OK);
    for (int i = 0; i < 3; i++)
        assert_int_equal(cb_pdf_add_game(w, g, &err), CB_OK);
    pdf_buf a = {NULL, 0};
    assert_int_equal(cb_pdf_end(w, &a.data, &a.len, &err), CB_OK);
    cb_pdf_writer_free(w);
    assert_int_equal(pages(&a), 2); /* 6 boards, 4 to a sheet */
    free(a.data);
    cb_game_free(g);
}

/* One writer: a game's PDF in memory (cb_pdf_render, the server's) is the
 * file a writer onto a file descriptor makes (decks'), byte for byte. */
static void test_memory_is_the_file(void **state)
{
    (void)state;
    cb_game *g = make_game(297, 210, 2, 0);
    cb_render_options o = options();
    o.rules = CB_RULES_PAGE_LAST, o.bleed = 3, o.crop_marks = 1;
    pdf_buf a = render_ok(g, &o, "memory");
    FILE *f = tmpfile();
    assert_non_null(f);
    cb_pdf_writer *w = NULL;
    cb_error err = {CB_OK, "", 0, ""};
    assert_int_equal(cb_pdf_begin_file(default_theme, &o, fileno(f), "tmp", &w, &err), CB_OK);
    assert_int_equal(cb_pdf_add_game(w, g, &err), CB_OK);
    assert_int_equal(cb_pdf_add_rules(w, g, &err), CB_OK);
    unsigned char *none = NULL;
    size_t none_len = 1;
    assert_int_equal(cb_pdf_end(w, &none, &none_len, &err), CB_OK);
    cb_pdf_writer_free(w);
    assert_null(none);
    assert_int_equal(none_len, 0);
    pdf_buf b = {malloc(a.len + 1), 0};
    assert_non_null(b.data);
    rewind(f);
    b.len = fread(b.data, 1, a.len + 1, f);
    fclose(f);
    assert_int_equal(b.len, a.len);
    assert_memory_equal(a.data, b.data, a.len);
    assert_int_equal(pages(&a), 3); /* two boards and the rules */
    free(a.data);
    free(b.data);
    cb_game_free(g);
}

/* ---- safe area ----------------------------------------------------------- */

static void test_safe_area(void **state)
{
    (void)state;
    cb_game *g = make_game(297, 210, 2, 0);
    /* Edge nodes sit on the trim line 12 mm in: their disks reach to 12 - r. */
    double r = g->sheets[0]->node_radius, reach = 12 - r;
    cb_render_options o = options();
    o.safe_area = floor(reach * 10) / 10;
    pdf_buf a = render_ok(g, &o, "safe-ok");
    free(a.data);
    o.safe_area = reach + 0.5;
    pdf_buf b = {NULL, 0};
    cb_error err = {CB_OK, "", 0, ""};
    assert_int_equal(cb_pdf_render(g, default_theme, &o, &b.data, &b.len, &err), CB_ERR_USAGE);
    assert_null(b.data);
    assert_string_equal(err.field, "safe_area");
    assert_non_null(strstr(err.message, "a margin of"));
    cb_game_free(g);
}

/* ---- reproducible files -------------------------------------------------- */

static void test_reproducible(void **state)
{
    (void)state;
    cb_game *g = make_game(297, 210, 2, 0);
    cb_render_options o = options();
    o.bleed = 3, o.crop_marks = 1, o.cmyk = 1, o.sheet_w = 640, o.sheet_h = 450;
    assert_int_equal(unsetenv("SOURCE_DATE_EPOCH"), 0);
    pdf_buf a = render_ok(g, &o, "repro-a");
    pdf_buf b = render_ok(g, &o, "repro-b");
    assert_true(a.len == b.len && memcmp(a.data, b.data, a.len) == 0);
    assert_int_equal(count(&a, "/ID"), 0);
    assert_int_equal(count(&a, "Date"), 0);
    o.dated = 1, o.source_date = 86400;
    pdf_buf c = render_ok(g, &o, "repro-dated");
    assert_int_equal(count(&c, "/CreationDate (D:19700102000000Z"), 1);
    assert_int_equal(count(&c, "/ModDate (D:19700102000000Z"), 1);
    assert_int_equal(count(&c, "/ID"), 0);
    free(a.data);
    free(b.data);
    free(c.data);
    cb_game_free(g);
}

/* The rules page through the library: off by default, last or first on
 * request (one page more, the same bytes twice), a bad value or no theme
 * refused with the option named, and a deck's page for the games so far. */
static void test_rules_page(void **state)
{
    (void)state;
    cb_game *g = make_game(297, 210, 2, 0);
    cb_render_options o = options();
    pdf_buf none = render_ok(g, &o, "rules-none");
    assert_int_equal(pages(&none), 2);
    o.rules = CB_RULES_PAGE_LAST;
    pdf_buf last = render_ok(g, &o, "rules-last"), again = render_ok(g, &o, "rules-again");
    assert_int_equal(pages(&last), 3);
    assert_true(last.len == again.len && memcmp(last.data, again.data, last.len) == 0);
    o.rules = CB_RULES_PAGE_FIRST;
    pdf_buf first = render_ok(g, &o, "rules-first");
    assert_int_equal(pages(&first), 3);
    assert_true(first.len != last.len || memcmp(first.data, last.data, last.len) != 0);
    cb_error err = {CB_OK, "", 0, ""};
    unsigned char *pdf = NULL;
    size_t len = 0;
    o.rules = 7;
    assert_int_equal(cb_pdf_render(g, default_theme, &o, &pdf, &len, &err), CB_ERR_USAGE);
    assert_string_equal(err.field, "rules");
    assert_null(pdf);
    /* the writer: no theme, no rules page; none before a game is added */
    cb_pdf_writer *w = NULL;
    o.rules = CB_RULES_PAGE_NONE;
    assert_int_equal(cb_pdf_begin(NULL, &o, &w, &err), CB_OK);
    assert_int_equal(cb_pdf_add_rules(w, g, &err), CB_ERR_USAGE);
    assert_non_null(strstr(err.message, "theme"));
    cb_pdf_writer_free(w);
    assert_int_equal(cb_pdf_begin(default_theme, &o, &w, &err), CB_OK);
    assert_int_equal(cb_pdf_add_rules(w, NULL, &err), CB_ERR_USAGE);
    assert_int_equal(cb_pdf_add_game(w, g, &err), CB_OK);
    assert_int_equal(cb_pdf_add_game(w, g, &err), CB_OK);
    assert_int_equal(cb_pdf_add_rules(w, NULL, &err), CB_OK);
    assert_int_equal(cb_pdf_page_count(w), 5);
    assert_int_equal(cb_pdf_end(w, &pdf, &len, &err), CB_OK);
    cb_pdf_writer_free(w);
    free(pdf);
    free(none.data);
    free(last.data);
    free(again.data);
    free(first.data);
    cb_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rules_page),
        cmocka_unit_test(test_lengths),
        cmocka_unit_test(test_sizes),
        cmocka_unit_test(test_nup_counts),
        cmocka_unit_test(test_nup_property),
        cmocka_unit_test(test_bad_values),
        cmocka_unit_test(test_boxes_a4_3mm),
        cmocka_unit_test(test_boxes_letter_eighth_inch),
        cmocka_unit_test(test_bleed_artwork),
        cmocka_unit_test(test_cmyk_clean),
        cmocka_unit_test(test_cmyk_conversion),
        cmocka_unit_test(test_nup_pages),
        cmocka_unit_test(test_nup_streaming),
        cmocka_unit_test(test_memory_is_the_file),
        cmocka_unit_test(test_safe_area),
        cmocka_unit_test(test_reproducible),
    };
    return cmocka_run_group_tests(tests, load_default_theme, free_default_theme);
}
