/* The bad-input matrix at library level: every hostile or unusual input
 * gets the right status and a one-line message naming what is at fault, and
 * every valid variant decodes to exactly the pixels it holds.
 *   PNGs: corrupt, truncated, 16-bit, palette, grey, interlaced, oversized.
 *   Fonts: missing, a folder, empty, text, truncated, CFF, oversized.
 *   Themes: wrong types, negative probabilities, min > max, unknown keys,
 *           missing icons, control characters, oversized.
 *   Options: 0 players, a node radius too large for the page, no room for
 *            the starts, too many nodes, paper out of range.
 *   Board files: NaN and infinite coordinates, huge ids, duplicated nodes
 *                and edges, oversized. */
#include "test.h"

#include <math.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/error.h"
#include "base/utf8.h"
#include "io/font.h"
#include "io/icons.h"

static char scratch[64];

static int make_scratch(void **state)
{
    (void)state;
    snprintf(scratch, sizeof scratch, "/tmp/cb_badinput_XXXXXX");
    return mkdtemp(scratch) ? load_default_theme(state) : -1;
}

static int remove_scratch(void **state)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", scratch);
    free_default_theme(state);
    return system(cmd) == 0 ? 0 : -1;
}

static const char *scratch_path(const char *name)
{
    static char path[4][256];
    static int k;
    k = (k + 1) % 4;
    snprintf(path[k], sizeof path[k], "%s/%s", scratch, name);
    return path[k];
}

static void write_bytes(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

/* A sparse file of SIZE bytes: big on paper, nothing on disk. */
static void write_sparse(const char *path, off_t size)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(ftruncate(fileno(f), size), 0);
    assert_int_equal(fclose(f), 0);
}

static void assert_message(const cb_error *err, const char *a, const char *b)
{
    if ((a && !strstr(err->message, a)) || (b && !strstr(err->message, b)))
        fail_msg("message \"%s\" lacks \"%s\" / \"%s\"", err->message, a ? a : "",
                 b ? b : "");
    assert_null(strchr(err->message, '\n'));
}

/* ---- PNGs --------------------------------------------------------------- */

/* Writes a PNG with libpng's own writer: W x H pixels of colour TYPE and bit
 * DEPTH, rows given as raw samples (big-endian for 16 bits). */
static void write_png(const char *path, uint32_t w, uint32_t h, int type, int depth,
                      int interlace, const unsigned char *samples, size_t row_bytes,
                      const png_color *palette, int n_palette, const unsigned char *trns,
                      int n_trns)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png_create_info_struct(png);
    assert_non_null(info);
    if (setjmp(png_jmpbuf(png)))
        fail_msg("libpng could not write %s", path);
    png_init_io(png, f);
    png_set_IHDR(png, info, w, h, depth, type,
                 interlace ? PNG_INTERLACE_ADAM7 : PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    if (palette)
        png_set_PLTE(png, info, palette, n_palette);
    if (trns)
        png_set_tRNS(png, info, trns, n_trns, NULL);
    png_write_info(png, info);
    png_bytep rows[64];
    assert_true(h <= 64);
    for (uint32_t y = 0; y < h; y++)
        rows[y] = (png_bytep)(samples + y * row_bytes);
    png_write_image(png, rows);
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    assert_int_equal(fclose(f), 0);
}

static void assert_pixel(const cb_icon *icon, uint32_t x, uint32_t y, int r, int g, int b,
                         int a)
{
    const unsigned char *p = icon->rgba + 4 * ((size_t)y * icon->w + x);
    if (p[0] != r || p[1] != g || p[2] != b || p[3] != a)
        fail_msg("pixel (%u,%u) is %d,%d,%d,%d; expected %d,%d,%d,%d", x, y, p[0], p[1],
                 p[2], p[3], r, g, b, a);
}

static void load_ok(const char *path, cb_icon *icon, uint32_t w, uint32_t h)
{
    cb_error err = {CB_OK, "", 0, ""};
    if (cb_icon_load(path, icon, &err) != CB_OK)
        fail_msg("%s: %s", path, err.message);
    assert_int_equal(icon->w, w);
    assert_int_equal(icon->h, h);
}

static void test_png_gray8(void **state)
{
    (void)state;
    const unsigned char px[] = {0, 85, 170, 255};
    const char *path = scratch_path("gray8.png");
    write_png(path, 2, 2, PNG_COLOR_TYPE_GRAY, 8, 0, px, 2, NULL, 0, NULL, 0);
    cb_icon icon;
    load_ok(path, &icon, 2, 2);
    assert_pixel(&icon, 0, 0, 0, 0, 0, 255);
    assert_pixel(&icon, 1, 0, 85, 85, 85, 255);
    assert_pixel(&icon, 0, 1, 170, 170, 170, 255);
    assert_pixel(&icon, 1, 1, 255, 255, 255, 255);
    cb_icon_free(&icon);
}

static void test_png_gray1(void **state)
{
    (void)state;
    const unsigned char px[] = {0xA0}; /* 1 0 1 0 */
    const char *path = scratch_path("gray1.png");
    write_png(path, 4, 1, PNG_COLOR_TYPE_GRAY, 1, 0, px, 1, NULL, 0, NULL, 0);
    cb_icon icon;
    load_ok(path, &icon, 4, 1);
    assert_pixel(&icon, 0, 0, 255, 255, 255, 255);
    assert_pixel(&icon, 1, 0, 0, 0, 0, 255);
    assert_pixel(&icon, 2, 0, 255, 255, 255, 255);
    assert_pixel(&icon, 3, 0, 0, 0, 0, 255);
    cb_icon_free(&icon);
}

static void test_png_palette(void **state)
{
    (void)state;
    const png_color pal[3] = {{200, 10, 20}, {0, 128, 255}, {7, 8, 9}};
    const unsigned char trns[2] = {0, 128};
    /* Indices 0, 1, 2, 2 (2-bit): 00 01 10 10. */
    const unsigned char idx[] = {0x1A};
    const char *path = scratch_path("palette.png");
    write_png(path, 4, 1, PNG_COLOR_TYPE_PALETTE, 2, 0, idx, 1, pal, 3, trns, 2);
    cb_icon icon;
    load_ok(path, &icon, 4, 1);
    assert_pixel(&icon, 0, 0, 200, 10, 20, 0);
    assert_pixel(&icon, 1, 0, 0, 128, 255, 128);
    assert_pixel(&icon, 2, 0, 7, 8, 9, 255);
    assert_pixel(&icon, 3, 0, 7, 8, 9, 255);
    cb_icon_free(&icon);
}

/* 16-bit samples are shown as stored, rounded to 8 bits: 0x8080 is 128,
 * not the lighter value a linear-light reading would give. */
static void test_png_rgb16(void **state)
{
    (void)state;
    const unsigned char px[] = {0x80, 0x80, 0x40, 0x40, 0xFF, 0xFF, 0x00, 0x00, 0x12, 0x34,
                                0xFE, 0xFF};
    const char *path = scratch_path("rgb16.png");
    write_png(path, 2, 1, PNG_COLOR_TYPE_RGB, 16, 0, px, 12, NULL, 0, NULL, 0);
    cb_icon icon;
    load_ok(path, &icon, 2, 1);
    assert_pixel(&icon, 0, 0, 128, 64, 255, 255);
    assert_pixel(&icon, 1, 0, 0, 18, 254, 255);
    cb_icon_free(&icon);
}

static void test_png_gray_alpha16(void **state)
{
    (void)state;
    const unsigned char px[] = {0x80, 0x80, 0x80, 0x80, 0xFF, 0xFF, 0x00, 0x00};
    const char *path = scratch_path("ga16.png");
    write_png(path, 2, 1, PNG_COLOR_TYPE_GRAY_ALPHA, 16, 0, px, 8, NULL, 0, NULL, 0);
    cb_icon icon;
    load_ok(path, &icon, 2, 1);
    assert_pixel(&icon, 0, 0, 128, 128, 128, 128); /* straight, not premultiplied */
    assert_pixel(&icon, 1, 0, 255, 255, 255, 0);
    cb_icon_free(&icon);
}

/* Adam7 spreads the pixels over 7 passes; each must land in its place. */
static void test_png_interlaced(void **state)
{
    (void)state;
    enum { W = 11, H = 9 };
    unsigned char px[W * H * 4];
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            unsigned char *p = px + 4 * (y * W + x);
            p[0] = (unsigned char)(x * 20);
            p[1] = (unsigned char)(y * 25);
            p[2] = (unsigned char)(x + y);
            p[3] = (unsigned char)(255 - x - y);
        }
    const char *path = scratch_path("adam7.png");
    write_png(path, W, H, PNG_COLOR_TYPE_RGB_ALPHA, 8, 1, px, W * 4, NULL, 0, NULL, 0);
    cb_icon icon;
    load_ok(path, &icon, W, H);
    assert_memory_equal(icon.rgba, px, sizeof px);
    cb_icon_free(&icon);
}

static void assert_icon_fails(const char *path, cb_status want, const char *what)
{
    cb_icon icon;
    cb_error err = {CB_OK, "", 0, ""};
    assert_int_equal(cb_icon_load(path, &icon, &err), want);
    assert_null(icon.rgba);
    assert_message(&err, path, what);
}

static void test_png_broken(void **state)
{
    (void)state;
    /* A valid file, then cut and damaged copies of it. */
    unsigned char px[8 * 8 * 4];
    for (size_t i = 0; i < sizeof px; i++)
        px[i] = (unsigned char)(i * 7);
    const char *good = scratch_path("good.png");
    write_png(good, 8, 8, PNG_COLOR_TYPE_RGB_ALPHA, 8, 0, px, 32, NULL, 0, NULL, 0);
    size_t len;
    FILE *f = fopen(good, "rb");
    assert_non_null(f);
    unsigned char buf[4096];
    len = fread(buf, 1, sizeof buf, f);
    fclose(f);
    assert_true(len > 60 && len < sizeof buf);

    const char *cut = scratch_path("truncated.png");
    write_bytes(cut, buf, len - 20);
    assert_icon_fails(cut, CB_ERR_DATA, "not a valid PNG");

    unsigned char bad[4096];
    memcpy(bad, buf, len);
    bad[45] ^= 0x55; /* inside IDAT: the CRC no longer matches */
    const char *crc = scratch_path("crc.png");
    write_bytes(crc, bad, len);
    assert_icon_fails(crc, CB_ERR_DATA, "not a valid PNG");

    const char *header = scratch_path("header_only.png");
    write_bytes(header, buf, 8);
    assert_icon_fails(header, CB_ERR_DATA, "not a valid PNG");

    const char *empty = scratch_path("empty.png");
    write_bytes(empty, "", 0);
    assert_icon_fails(empty, CB_ERR_DATA, "not a valid PNG");

    const char *text = scratch_path("text.png");
    write_bytes(text, "hello, I am not a picture\n", 26);
    assert_icon_fails(text, CB_ERR_DATA, "not a PNG file");

    assert_icon_fails("tests/data/icons/corrupt.png", CB_ERR_DATA, "not a valid PNG");
    assert_icon_fails("tests/data/icons/truncated.png", CB_ERR_DATA, "not a valid PNG");
    assert_icon_fails(scratch_path("missing.png"), CB_ERR_NOINPUT, "cannot open");
}

/* A 17 MiB file is refused from its size alone: nothing is read. */
static void test_png_oversized_file(void **state)
{
    (void)state;
    const char *big = scratch_path("big.png");
    write_sparse(big, (off_t)CB_MAX_FILE_BYTES + 1);
    assert_icon_fails(big, CB_ERR_DATA, "larger than");
    unlink(big);
}

/* ---- fonts -------------------------------------------------------------- */

static unsigned char *font_bytes(size_t *len)
{
    FILE *f = fopen("fonts/DejaVuSans.ttf", "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    *len = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *b = malloc(*len);
    assert_non_null(b);
    assert_int_equal(fread(b, 1, *len, f), *len);
    fclose(f);
    return b;
}

static unsigned get16(const unsigned char *p)
{
    return (unsigned)p[0] << 8 | p[1];
}

static void put16(unsigned char *p, unsigned v)
{
    p[0] = (unsigned char)(v >> 8);
    p[1] = (unsigned char)v;
}

static uint32_t get32(const unsigned char *p)
{
    return (uint32_t)get16(p) << 16 | get16(p + 2);
}

/* The first format 4 subtable of font B's cmap, and its segment count. */
static unsigned char *cmap_format4(unsigned char *b, unsigned *segs)
{
    for (unsigned i = 0; i < get16(b + 4); i++) {
        const unsigned char *rec = b + 12 + 16 * (size_t)i;
        if (memcmp(rec, "cmap", 4) != 0)
            continue;
        unsigned char *cmap = b + get32(rec + 8);
        for (unsigned k = 0; k < get16(cmap + 2); k++) {
            unsigned char *sub = cmap + get32(cmap + 4 + 8 * (size_t)k + 4);
            if (get16(sub) == 4) {
                *segs = get16(sub + 6) / 2;
                return sub;
            }
        }
    }
    fail_msg("no format 4 cmap");
    return NULL;
}

/* A cmap must be what the format demands, sorted and ending at U+FFFF:
 * libharu reads past the segments for a code above them all, and our
 * glyph lookup (hpdf_internals.c) searches them by halves. */
static void test_font_cmap_order(void **state)
{
    (void)state;
    cb_error err = {CB_OK, "", 0, ""};
    size_t len;
    unsigned char *b = font_bytes(&len), *c = malloc(len);
    assert_non_null(c);
    memcpy(c, b, len);
    unsigned segs;
    unsigned char *sub = cmap_format4(c, &segs);
    unsigned char *end = sub + 14, *start = end + 2 * segs + 2, *delta = start + 2 * segs,
                  *range = delta + 2 * segs;
    /* Two neighbouring segments of plain deltas swapped: each still maps
     * its codes to the same glyphs, only the order is wrong. */
    unsigned k = 1;
    while (k < segs && (get16(range + 2 * (k - 1)) || get16(range + 2 * k)))
        k++;
    assert_true(k < segs - 1);
    for (unsigned char *a = end; a <= range; a += 2 * segs + (a == end ? 2 : 0)) {
        unsigned x = get16(a + 2 * (k - 1));
        put16(a + 2 * (k - 1), get16(a + 2 * k));
        put16(a + 2 * k, x);
    }
    assert_int_equal(cb_font_check(c, len, "swapped.ttf", &err), CB_ERR_DATA);
    assert_message(&err, "swapped.ttf", "cmap segments out of order");
    /* The last segment (U+FFFF to glyph 0) ending one code short. */
    memcpy(c, b, len);
    sub = cmap_format4(c, &segs);
    end = sub + 14, start = end + 2 * segs + 2, delta = start + 2 * segs;
    assert_int_equal(get16(end + 2 * (segs - 1)), 0xFFFF);
    put16(end + 2 * (segs - 1), 0xFFFE);
    put16(start + 2 * (segs - 1), 0xFFFE);
    put16(delta + 2 * (segs - 1), 2); /* 0xFFFE + 2: glyph 0 still */
    assert_int_equal(cb_font_check(c, len, "short.ttf", &err), CB_ERR_DATA);
    assert_message(&err, "short.ttf", "last segment does not end at U+FFFF");
    free(c);
    free(b);
}

static void assert_font_fails(const char *path, cb_status want, const char *what)
{
    cb_error err = {CB_OK, "", 0, ""};
    assert_int_equal(cb_font_check_file(path, &err), want);
    assert_message(&err, path, what);
}

static void test_fonts(void **state)
{
    (void)state;
    cb_error err = {CB_OK, "", 0, ""};
    assert_int_equal(cb_font_check_file("fonts/DejaVuSans.ttf", &err), CB_OK);
    assert_int_equal(cb_font_check_file("fonts/DejaVuSans-Bold.ttf", &err), CB_OK);
    assert_font_fails(scratch_path("nofont.ttf"), CB_ERR_NOINPUT, "cannot open");
    assert_font_fails(scratch, CB_ERR_NOINPUT, "not a regular file");
    const char *p = scratch_path("empty.ttf");
    write_bytes(p, "", 0);
    assert_font_fails(p, CB_ERR_DATA, "too short");
    p = scratch_path("text.ttf");
    write_bytes(p, "not a font at all, just text\n", 29);
    assert_font_fails(p, CB_ERR_DATA, "no TrueType header");
    p = scratch_path("otto.ttf");
    write_bytes(p, "OTTO\0\1\0\0\0\0\0\0", 12);
    assert_font_fails(p, CB_ERR_DATA, "CFF");

    size_t len;
    unsigned char *b = font_bytes(&len);
    p = scratch_path("cut.ttf");
    write_bytes(p, b, len / 2);
    assert_font_fails(p, CB_ERR_DATA, "runs past the end");
    /* Table count claiming more records than the file holds. */
    unsigned char *c = malloc(len);
    assert_non_null(c);
    memcpy(c, b, len);
    c[4] = 0xFF, c[5] = 0xFF;
    assert_int_equal(cb_font_check(c, 200, "many.ttf", &err), CB_ERR_DATA);
    assert_message(&err, "many.ttf", "table directory");
    /* Every byte of the header and directory flipped in turn: never a
     * crash, and either still a font or a CB_ERR_DATA naming it. */
    for (size_t i = 0; i < 12 + 16 * 20; i++) {
        memcpy(c, b, len);
        c[i] ^= 0xA5;
        cb_status st = cb_font_check(c, len, "flip.ttf", &err);
        assert_true(st == CB_OK || st == CB_ERR_DATA);
        if (st != CB_OK)
            assert_message(&err, "flip.ttf", "not a usable TrueType font");
    }
    free(c);
    free(b);

    p = scratch_path("huge.ttf");
    write_sparse(p, (off_t)CB_MAX_FILE_BYTES + 1);
    assert_font_fails(p, CB_ERR_DATA, "larger than");
    unlink(p);
}

/* The PDF writer refuses a bad font with its name, before libharu sees it. */
static void test_pdf_with_bad_font(void **state)
{
    (void)state;
    cb_spec spec;
    cb_spec_defaults(&spec);
    spec.seed = "font";
    spec.players = 2;
    spec.theme = default_theme;
    cb_game *game = NULL;
    cb_error err = {CB_OK, "", 0, ""};
    assert_int_equal(cb_game_generate(&spec, &game, &err), CB_OK);
    const char *p = scratch_path("bad.ttf");
    write_bytes(p, "not a font\n", 11);
    cb_render_options opt;
    memset(&opt, 0, sizeof opt);
    opt.font_path = p;
    unsigned char *pdf = NULL;
    size_t len = 0;
    assert_int_equal(cb_pdf_render(game, default_theme, &opt, &pdf, &len, &err), CB_ERR_DATA);
    assert_null(pdf);
    assert_message(&err, p, "not a usable TrueType font");
    opt.font_path = scratch_path("none.ttf");
    assert_int_equal(cb_pdf_render(game, default_theme, &opt, &pdf, &len, &err),
                     CB_ERR_NOINPUT);
    assert_null(pdf);
    assert_message(&err, "none.ttf", "cannot open");
    cb_game_free(game);
}

/* ---- themes ------------------------------------------------------------- */

#define TYPE_OK "{\"name\": \"a\", \"icon\": \"a.png\", \"color\": \"#ff8000\", \"probability\": 1"
#define MISSION_OK "{\"name\": \"m\", \"icon\": \"b.png\", \"color\": \"#112233\"}"

static char theme_text[4096];

static const char *theme_with(const char *type, const char *mission, const char *extra)
{
    snprintf(theme_text, sizeof theme_text,
             "{\"format\": \"cutboard-theme/1\", \"name\": \"t\",%s\n"
             " \"center\": {\"name\": \"c\", \"icon\": \"c.png\", \"color\": \"#000000\"},\n"
             " \"node_types\": [%s],\n \"missions\": [%s]}\n",
             extra, type, mission);
    return theme_text;
}

static void assert_theme_fails(const char *text, cb_status want, const char *what)
{
    cb_theme *t = (cb_theme *)1;
    cb_error err = {CB_OK, "", 0, ""};
    cb_status st = cb_theme_parse(text, strlen(text), "dir", 0, &t, &err);
    if (st != want)
        fail_msg("theme gave %d (%s), expected %d for: %s", st, err.message, want, text);
    assert_null(t);
    assert_message(&err, "dir/theme.json", what);
}

static void test_theme_fields(void **state)
{
    (void)state;
    cb_theme *t = NULL;
    cb_error err = {CB_OK, "", 0, ""};
    const char *ok = theme_with(TYPE_OK "}", MISSION_OK, "");
    assert_int_equal(cb_theme_parse(ok, strlen(ok), "dir", 0, &t, &err), CB_OK);
    assert_string_equal(t->types[0].icon, "dir/a.png");
    cb_theme_free(t);

    static const struct { const char *type, *what; } types[] = {
        {"{\"name\": 5, \"icon\": \"a.png\", \"color\": \"#ff8000\", \"probability\": 1}",
         "\"name\" must be a non-empty string"},
        {"{\"name\": \"a\", \"icon\": [], \"color\": \"#ff8000\", \"probability\": 1}", "\"icon\""},
        {"{\"name\": \"a\", \"icon\": \"a.png\", \"color\": 16744448, \"probability\": 1}",
         "\"color\" must be"},
        {"{\"name\": \"a\", \"icon\": \"a.png\", \"color\": \"#33-288\", \"probability\": 1}",
         "\"color\" must be"},
        {"{\"name\": \"a\", \"icon\": \"a.png\", \"color\": \"# 1 2 3\", \"probability\": 1}",
         "\"color\" must be"},
        {TYPE_OK ", \"min\": \"2\"}", "\"min\" must be a number"},
        {"{\"name\": \"a\", \"icon\": \"a.png\", \"color\": \"#ff8000\", \"probability\": true}",
         "\"probability\""},
        {TYPE_OK ", \"on_edge\": 1}", "\"on_edge\" must be true or false"},
        {"{\"name\": \"a\", \"icon\": \"a.png\", \"color\": \"#ff8000\", \"probability\": -0.5}",
         "\"probability\" must be a number from 0"},
        {"{\"name\": \"a\", \"icon\": \"a.png\", \"color\": \"#ff8000\", \"probability\": 0}",
         "add up to 0"},
        {TYPE_OK ", \"min\": 5, \"max\": 2}", "\"min\" is larger than \"max\""},
        {TYPE_OK ", \"min_edge_distance\": 0.8, \"max_edge_distance\": 0.2}",
         "\"min_edge_distance\" is larger"},
        {TYPE_OK ", \"max_run\": 0}", "\"max_run\""},
        {TYPE_OK ", \"min\": 1e300}", "\"min\" must be a number from 0"},
        {TYPE_OK ", \"weight\": 3}", "unknown key \"weight\""},
        {TYPE_OK ", \"bad\\nkey\": 3}", "unknown key \"bad\\x0akey\""}, /* stays one line */
        {"{\"name\": \"a\", \"icon\": \"../a.png\", \"color\": \"#ff8000\", \"probability\": 1}",
         "inside the theme folder"},
        {"{\"name\": \"a\", \"icon\": \"/etc/passwd\", \"color\": \"#ff8000\", \"probability\": 1}",
         "inside the theme folder"},
        {"7", "node_types[0]: must be an object"},
    };
    for (size_t i = 0; i < sizeof types / sizeof *types; i++)
        assert_theme_fails(theme_with(types[i].type, MISSION_OK, ""), CB_ERR_DATA,
                           types[i].what);
    assert_theme_fails(theme_with(TYPE_OK "}, " TYPE_OK "}", MISSION_OK, ""), CB_ERR_DATA,
                       "named twice");
    assert_theme_fails(theme_with(TYPE_OK "}", MISSION_OK, " \"colour\": 1,"), CB_ERR_DATA,
                       "unknown key \"colour\"");
    assert_theme_fails(theme_with(TYPE_OK "}", "{\"name\": \"m\"}", ""), CB_ERR_DATA,
                       "missions[0]");
    assert_theme_fails(theme_with("", MISSION_OK, ""), CB_ERR_DATA, "node_types");
    assert_theme_fails("[]", CB_ERR_DATA, "must be an object");
    assert_theme_fails("{\"format\": \"cutboard-theme/9\"}", CB_ERR_DATA, "format");
    assert_theme_fails("{\"format\": ", CB_ERR_DATA, "not valid JSON");
    assert_theme_fails("", CB_ERR_DATA, "not valid JSON");
}

/* Icons named by a theme must exist when it is loaded from a folder. */
static void test_theme_missing_icons(void **state)
{
    (void)state;
    const char *dir = scratch_path("theme");
    char path[300];
    mkdir(dir, 0755);
    const char *text = theme_with(TYPE_OK "}", MISSION_OK, "");
    snprintf(path, sizeof path, "%s/theme.json", dir);
    write_bytes(path, text, strlen(text));
    cb_theme *t = NULL;
    cb_error err = {CB_OK, "", 0, ""};
    assert_int_equal(cb_theme_load(dir, &t, &err), CB_ERR_NOINPUT);
    assert_null(t);
    assert_message(&err, "c.png", "is missing");
    /* With the icons there, it loads; without the check it loads anyway. */
    static const char *const icons[] = {"a.png", "b.png", "c.png"};
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, icons[i]);
        write_bytes(path, "x", 1);
    }
    assert_int_equal(cb_theme_load(dir, &t, &err), CB_OK);
    cb_theme_free(t);
    snprintf(path, sizeof path, "%s/b.png", dir);
    unlink(path);
    assert_int_equal(cb_theme_load(dir, &t, &err), CB_ERR_NOINPUT);
    assert_message(&err, "b.png", "is missing");
    assert_int_equal(cb_theme_parse(text, strlen(text), dir, 0, &t, &err), CB_OK);
    cb_theme_free(t);
}

static void test_theme_oversized(void **state)
{
    (void)state;
    const char *dir = scratch_path("bigtheme");
    char path[300];
    mkdir(dir, 0755);
    snprintf(path, sizeof path, "%s/theme.json", dir);
    write_sparse(path, (off_t)CB_MAX_THEME_BYTES + 1);
    cb_theme *t = NULL;
    cb_error err = {CB_OK, "", 0, ""};
    assert_int_equal(cb_theme_load(dir, &t, &err), CB_ERR_DATA);
    assert_message(&err, "theme.json", "larger than");
    char *big = calloc(CB_MAX_THEME_BYTES + 2, 1);
    assert_non_null(big);
    memset(big, ' ', CB_MAX_THEME_BYTES + 1);
    assert_int_equal(cb_theme_parse(big, CB_MAX_THEME_BYTES + 1, dir, 0, &t, &err),
                     CB_ERR_DATA);
    assert_message(&err, "theme.json", "larger than");
    free(big);
}

/* ---- impossible options -------------------------------------------------- */

/* ERR names the option FIELD in its field, not in its message. */
static void assert_field(const cb_error *err, const char *field)
{
    assert_int_equal(err->status, CB_ERR_USAGE);
    assert_string_equal(err->field, field);
    assert_null(strstr(err->message, "--"));
}

/* SPEC is refused: for the option FIELD ("players"), or with WHAT in the
 * message (FIELD NULL). */
static void assert_spec_fails(const cb_spec *spec, const char *field, const char *what)
{
    cb_error err = {CB_OK, "", 0, ""};
    assert_int_equal(cb_spec_check(spec, &err), CB_ERR_USAGE);
    if (field)
        assert_field(&err, field);
    assert_message(&err, what, NULL);
    cb_board *b = (cb_board *)1;
    assert_int_equal(cb_board_generate(spec, "x", 1, &b, &err), CB_ERR_USAGE);
}

/* Errors are values: the kind, the option or the line at fault, and a
 * message that names neither a command-line flag nor the field again. */
static int stop_now(void *ctx)
{
    (void)ctx;
    return 1;
}

static void test_error_values(void **state)
{
    (void)state;
    cb_error err = {CB_OK, "", 0, ""};
    static const char obj[] = "g center\nv 0 0 0\nv 9 9 0\n";
    cb_game *g = NULL;
    assert_int_equal(cb_game_parse_obj(obj, sizeof obj - 1, "d.obj", NULL, &g, &err),
                     CB_ERR_DATA);
    assert_int_equal(err.line, 3);
    assert_string_equal(err.field, "");
    assert_string_equal(err.message, "d.obj:3: a second centre (the first is on line 2)");
    cb_spec s;
    cb_spec_defaults(&s);
    s.players = 12;
    assert_int_equal(cb_spec_check(&s, &err), CB_ERR_USAGE);
    assert_string_equal(err.field, "players");
    assert_int_equal(err.line, 0);
    assert_string_equal(err.message, "12 is out of range (2..9)");
    cb_spec_defaults(&s);
    s.stop = stop_now;
    assert_int_equal(cb_game_generate(&s, &g, &err), CB_ERR_STOPPED);
    assert_null(g);
    assert_string_equal(err.field, "");
    assert_string_equal(cb_status_name(CB_ERR_NOMEM), "out of memory");
    assert_string_equal(cb_status_name(CB_ERR_INFEASIBLE), "cannot be met");
    int number = 0;
    assert_string_equal(cb_version(&number), CB_VERSION);
    assert_int_equal(number, CB_VERSION_NUMBER);
    char v[32];
    snprintf(v, sizeof v, "%d.%d.%d", CB_VERSION_MAJOR, CB_VERSION_MINOR, CB_VERSION_PATCH);
    assert_string_equal(v, CB_VERSION);
}

static void test_impossible_options(void **state)
{
    (void)state;
    cb_spec s;
    cb_spec_defaults(&s);
    cb_error err = {CB_OK, "", 0, ""};
    assert_int_equal(cb_spec_check(&s, &err), CB_OK);

    s.players = 0;
    assert_spec_fails(&s, "players", NULL);
    s.players = -3;
    assert_spec_fails(&s, "players", NULL);
    cb_spec_defaults(&s);
    /* Four nodes across A4: no room for 3 starts a side, whatever the
     * margin. */
    s.resolution = 4;
    assert_spec_fails(&s, NULL, "11 works");
    s.margin = 30;
    assert_spec_fails(&s, NULL, "starts");
    cb_spec_defaults(&s);
    /* Ten: each node's radius (7.2 mm) no longer fits the 12 mm margin. */
    s.resolution = 10;
    assert_spec_fails(&s, "margin", NULL);
    cb_spec_defaults(&s);
    s.page_w = 110, s.page_h = 90; /* a tiny card: no room for 12 starts */
    assert_spec_fails(&s, NULL, "too small for 3 starts a side");
    cb_spec_defaults(&s);
    s.resolution = 1999; /* millions of nodes */
    s.page_w = 2000, s.page_h = 2000;
    assert_spec_fails(&s, "resolution", NULL);
    cb_spec_defaults(&s);
    s.resolution = NAN;
    assert_spec_fails(&s, "resolution", NULL);
    cb_spec_defaults(&s);
    s.margin = NAN;
    assert_spec_fails(&s, "margin", NULL);
    cb_spec_defaults(&s);
    s.page_w = 1e9;
    assert_spec_fails(&s, "paper", NULL);
    cb_spec_defaults(&s);
    s.page_w = INFINITY;
    assert_spec_fails(&s, "paper", NULL);
    cb_spec_defaults(&s);
    s.start_cap = 1;
    assert_spec_fails(&s, "start_cap", NULL);

    double w, h;
    static const char *const papers[] = {"0x0mm", "-5x100mm", "nanxnanmm", "infx1mm",
                                         "1e400x2mm", "x", "", "300x", "300x200", NULL};
    for (int i = 0; papers[i]; i++) {
        assert_int_equal(cb_paper_parse(papers[i], &w, &h, &err), CB_ERR_USAGE);
        assert_field(&err, "paper");
    }
}

/* Network models: more nodes or links than the limits is refused before
 * anything is built, naming the option. */
static void test_network_limits(void **state)
{
    (void)state;
    cb_net_spec s;
    cb_error err = {CB_OK, "", 0, ""};
    cb_net_spec_defaults(&s);
    s.model = CB_NET_RANDOM;
    s.n = CB_NET_MAX_NODES;
    s.links = CB_NET_MAX_LINKS;
    assert_int_equal(cb_net_spec_check(&s, &err), CB_OK);
    s.n = CB_NET_MAX_NODES + 1;
    assert_int_equal(cb_net_spec_check(&s, &err), CB_ERR_USAGE);
    assert_field(&err, "nodes");
    s.n = CB_NET_MAX_NODES;
    s.links = CB_NET_MAX_LINKS + 1;
    assert_int_equal(cb_net_spec_check(&s, &err), CB_ERR_USAGE);
    assert_field(&err, "links");
    /* A dense ring lattice: n * k / 2 links over the limit. */
    cb_net_spec_defaults(&s);
    s.model = CB_NET_SMALL_WORLD;
    s.n = 100000;
    s.k = 400;
    assert_int_equal(cb_net_spec_check(&s, &err), CB_ERR_USAGE);
    assert_field(&err, "k");
    s.n = -5;
    assert_int_equal(cb_net_spec_check(&s, &err), CB_ERR_USAGE);
    cb_net_spec_defaults(&s);
    s.model = (cb_net_model)CB_NET_MODELS;
    assert_int_equal(cb_net_spec_check(&s, &err), CB_ERR_USAGE);
    /* A geometric box too thin for the point grid (found by the fuzzer). */
    cb_net_spec_defaults(&s);
    s.model = CB_NET_RANDOM;
    s.n = 50;
    s.geometric = 1;
    assert_int_equal(cb_net_spec_check(&s, &err), CB_OK);
    s.width = 1e300;
    s.height = 1e-300;
    assert_int_equal(cb_net_spec_check(&s, &err), CB_ERR_USAGE);
    assert_message(&err, "box", NULL);
    assert_string_equal(err.field, "geometric");
    s.width = NAN;
    assert_int_equal(cb_net_spec_check(&s, &err), CB_ERR_USAGE);
}

/* ---- board files ---------------------------------------------------------- */

static const char board_ok[] =
    "{\"format\": \"cutboard/1\", \"seed\": \"m\", \"players\": 2, \"sheets\": [{\"seed\": "
    "\"m\", \"player\": 1, \"page\": {\"width_mm\": 297, \"height_mm\": 210}, \"board\": "
    "{\"x_mm\": 10, \"y_mm\": 10, \"width_mm\": 277, \"height_mm\": 190}, "
    "\"node_radius_mm\": 6, \"center\": 0, \"nodes\": ["
    "{\"id\": 0, \"x_mm\": 100, \"y_mm\": 100, \"kind\": \"center\"}, "
    "{\"id\": 1, \"x_mm\": 10, \"y_mm\": 50, \"kind\": \"start\", \"side\": \"left\"}, "
    "{\"id\": 2, \"x_mm\": 60, \"y_mm\": 60, \"kind\": \"node\"}], "
    "\"edges\": [[0, 1], [1, 2], [0, 2]]}]}";

/* BOARD_OK with FROM replaced by TO. */
static char *board_with(const char *from, const char *to)
{
    const char *at = strstr(board_ok, from);
    assert_non_null(at);
    size_t head = (size_t)(at - board_ok);
    char *s = malloc(sizeof board_ok + strlen(to));
    assert_non_null(s);
    memcpy(s, board_ok, head);
    strcpy(s + head, to);
    strcat(s, at + strlen(from));
    return s;
}

static void assert_board_fails(const char *from, const char *to, const char *what)
{
    char *text = board_with(from, to);
    cb_game *g = (cb_game *)1;
    cb_error err = {CB_OK, "", 0, ""};
    cb_status st = cb_game_parse_json(text, strlen(text), "hostile.json", NULL, &g, &err);
    if (st != CB_ERR_DATA)
        fail_msg("%s -> %s: status %d (%s)", from, to, st, err.message);
    assert_null(g);
    assert_message(&err, "hostile.json", what);
    free(text);
}

static void test_hostile_board_files(void **state)
{
    (void)state;
    cb_game *g = NULL;
    cb_error err = {CB_OK, "", 0, ""};
    assert_int_equal(cb_game_parse_json(board_ok, strlen(board_ok), "ok.json", NULL, &g, &err),
                     CB_OK);
    assert_int_equal(g->sheets[0]->n_nodes, 3);
    cb_game_free(g);

    assert_board_fails("\"x_mm\": 100", "\"x_mm\": NaN", "not valid JSON");
    assert_board_fails("\"x_mm\": 100", "\"x_mm\": 1e999", "x_mm");
    assert_board_fails("\"x_mm\": 100", "\"x_mm\": -1e308", "x_mm");
    assert_board_fails("\"id\": 2,", "\"id\": 99999999999,", "id");
    assert_board_fails("\"id\": 2,", "\"id\": 1,", "id");   /* a duplicated node */
    assert_board_fails("[0, 1]", "[0, 4294967296]", "4294967296");
    assert_board_fails("[0, 1]", "[0, 3]", "does not exist");
    assert_board_fails("[0, 1]", "[-1, 1]", "edges[0]");
    assert_board_fails("[0, 1]", "[1, 1]", "itself");
    assert_board_fails("[0, 2]]", "[0, 2], [2, 0]]", "twice"); /* a duplicated edge */
    assert_board_fails("\"center\": 0", "\"center\": 3", "center");
    assert_board_fails("\"node_radius_mm\": 6", "\"node_radius_mm\": 1e6", "node_radius_mm");
    assert_board_fails("\"width_mm\": 297", "\"width_mm\": 1e9", "width_mm");

    /* Duplicated nodes in an OBJ drawing: same place, an edge between them. */
    static const char obj[] = "o center\nv 5 5 0\nv 5 5 0\nl 1 2\n";
    g = (cb_game *)1;
    assert_int_equal(cb_game_parse_obj(obj, strlen(obj), "dup.obj", NULL, &g, &err),
                     CB_ERR_DATA);
    assert_null(g);
    assert_message(&err, "dup.obj", NULL);
    static const char obj_nan[] = "o center\nv nan 5 0\nv 1 2 0\nl 1 2\n";
    assert_int_equal(cb_game_parse_obj(obj_nan, strlen(obj_nan), "nan.obj", NULL, &g, &err),
                     CB_ERR_DATA);
    assert_message(&err, "nan.obj:2", NULL);
    static const char obj_big[] = "o center\nv 0 0 0\nv 1 2 0\nl 1 99999999999\n";
    assert_int_equal(cb_game_parse_obj(obj_big, strlen(obj_big), "big.obj", NULL, &g, &err),
                     CB_ERR_DATA);
    assert_message(&err, "big.obj:4", NULL);

    /* A board file larger than the cap is refused from its size alone. */
    const char *p = scratch_path("huge.json");
    write_sparse(p, (off_t)CB_BOARD_FILE_MAX + 1);
    assert_int_equal(cb_game_load(p, NULL, &g, &err), CB_ERR_DATA);
    assert_message(&err, p, "too large");
    unlink(p);
}

/* Seeds go into JSON files, manifests and onto the page: they must be
 * UTF-8, and a byte string that is not is refused naming --seed. */
static void test_seed_must_be_utf8(void **state)
{
    (void)state;
    static const char *const good[] = {"", "plain", "caf\xc3\xa9", "\xe2\x98\x83 snow",
                                       "\xf0\x9f\x8e\xb2 dice", "\x7f del"};
    static const char *const bad[] = {"\xff", "a\xc3", "\xc0\xaf", "\xe0\x80\xaf",
                                      "\xed\xa0\x80", "\xf4\x90\x80\x80", "\x80",
                                      "ok\xe2\x98"};
    for (size_t i = 0; i < sizeof good / sizeof *good; i++)
        assert_true(cb_utf8_valid(good[i]));
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        assert_false(cb_utf8_valid(bad[i]));
    cb_spec spec;
    cb_spec_defaults(&spec);
    spec.seed = "caf\xc3\xa9";
    cb_error err = {CB_OK, "", 0, ""};
    assert_int_equal(cb_spec_check(&spec, &err), CB_OK);
    spec.seed = "caf\xe9";
    assert_int_equal(cb_spec_check(&spec, &err), CB_ERR_USAGE);
    assert_field(&err, "seed");
}

/* Text shown to a person: well-formed UTF-8 printable characters pass as
 * they are; control characters (C0, DEL, C1) and bytes that are not UTF-8
 * become \xHH, byte by byte; the result is cut at a whole character. The
 * expected strings are written out by hand, not computed. */
static void test_text_shown(void **state)
{
    (void)state;
    static const struct {
        const char *in, *out;
    } cases[] = {
        {"plain seed", "plain seed"},
        {"caf\xc3\xa9 \xe2\x98\x83", "caf\xc3\xa9 \xe2\x98\x83"},
        {"\x1b]0;pwned\x07\x1b[2J", "\\x1b]0;pwned\\x07\\x1b[2J"},
        {"a\nb\tc\rd", "a\\x0ab\\x09c\\x0dd"},
        {"del\x7f", "del\\x7f"},
        {"csi\xc2\x9b" "2J", "csi\\xc2\\x9b2J"},      /* C1 control U+009B */
        {"nbsp\xc2\xa0", "nbsp\xc2\xa0"},             /* U+00A0 is printable */
        {"bad\xff\xfe", "bad\\xff\\xfe"},
        {"cut\xe2\x98", "cut\\xe2\\x98"},            /* a character cut short */
        {"\xc0\xaf", "\\xc0\\xaf"},                    /* overlong */
        {"\xed\xa0\x80", "\\xed\\xa0\\x80"},           /* surrogate */
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char out[128];
        assert_string_equal(cb_text_shown(cases[i].in, out, sizeof out), cases[i].out);
    }
    /* cut short at a whole character or escape, never inside one */
    char small[8];
    assert_string_equal(cb_text_shown("ab\x1b", small, sizeof small), "ab\\x1b");
    assert_string_equal(cb_text_shown("abcd\x1b", small, sizeof small), "abcd");
    assert_string_equal(cb_text_shown("abcde\xe2\x98\x83", small, sizeof small), "abcde");
    /* an error message built from such text is one escaped line */
    cb_error err;
    cb_fail(&err, CB_ERR_DATA, "key %s", "x\ny\xff");
    assert_string_equal(err.message, "key x\\x0ay\\xff");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seed_must_be_utf8),
        cmocka_unit_test(test_text_shown),
        cmocka_unit_test(test_png_gray8),
        cmocka_unit_test(test_png_gray1),
        cmocka_unit_test(test_png_palette),
        cmocka_unit_test(test_png_rgb16),
        cmocka_unit_test(test_png_gray_alpha16),
        cmocka_unit_test(test_png_interlaced),
        cmocka_unit_test(test_png_broken),
        cmocka_unit_test(test_png_oversized_file),
        cmocka_unit_test(test_fonts),
        cmocka_unit_test(test_font_cmap_order),
        cmocka_unit_test(test_pdf_with_bad_font),
        cmocka_unit_test(test_theme_fields),
        cmocka_unit_test(test_theme_missing_icons),
        cmocka_unit_test(test_theme_oversized),
        cmocka_unit_test(test_impossible_options),
        cmocka_unit_test(test_error_values),
        cmocka_unit_test(test_network_limits),
        cmocka_unit_test(test_hostile_board_files),
    };
    return cmocka_run_group_tests(tests, make_scratch, remove_scratch);
}
