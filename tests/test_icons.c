/* Icon loading: every PNG flavour decodes to the same RGBA, every broken
 * file fails with the right status and its path in the message. */
#include "test.h"

#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "io/icons.h"

#define FIXTURES "tests/data/icons/"

static void test_default_theme_icon(void **state)
{
    (void)state;
    cb_icon icon;
    cb_error err = {0};
    assert_int_equal(cb_icon_load("icons/default/key.png", &icon, &err), CB_OK);
    assert_int_equal(icon.w, 256);
    assert_int_equal(icon.h, 256);
    assert_non_null(icon.rgba);
    cb_icon_free(&icon);
    assert_null(icon.rgba);
    assert_int_equal(icon.w, 0);
    cb_icon_free(&icon); /* freeing twice is harmless */
    cb_icon_free(NULL);
}

/* A glyph on a transparent square: clear corners, some solid dark pixels. */
static void assert_plausible_glyph(const cb_icon *icon)
{
    size_t n = (size_t)icon->w * icon->h, clear = 0, solid_dark = 0;
    for (size_t i = 0; i < n; i++) {
        const unsigned char *p = icon->rgba + 4 * i;
        clear += p[3] == 0;
        solid_dark += p[3] == 255 && p[0] < 64 && p[1] < 64 && p[2] < 64;
    }
    assert_int_equal(icon->rgba[3], 0);     /* top-left corner */
    assert_int_equal(icon->rgba[4 * n - 1], 0); /* bottom-right corner */
    assert_true(clear > n / 5);
    assert_true(solid_dark > n / 50);
}

static void test_png_flavours(void **state)
{
    (void)state;
    static const char *const names[] = {"gray8.png", "palette.png", "rgb16.png",
                                        "interlaced.png"};
    cb_icon ref = {0};
    for (size_t f = 0; f < sizeof names / sizeof *names; f++) {
        char path[256];
        snprintf(path, sizeof path, FIXTURES "%s", names[f]);
        cb_icon icon;
        cb_error err = {0};
        cb_status st = cb_icon_load(path, &icon, &err);
        if (st != CB_OK)
            fail_msg("%s: %s", path, err.message);
        assert_int_equal(icon.w, 256);
        assert_int_equal(icon.h, 256);
        assert_plausible_glyph(&icon);
        /* The fixtures are one picture stored four ways: each must decode to
         * the same pixels (16-bit may round by one step). */
        if (f == 0) {
            ref = icon;
            continue;
        }
        size_t bytes = (size_t)icon.w * icon.h * 4, worst = 0;
        for (size_t i = 0; i < bytes; i++) {
            size_t d = (size_t)abs(icon.rgba[i] - ref.rgba[i]);
            worst = d > worst ? d : worst;
        }
        if (worst > 1)
            fail_msg("%s differs from %s by %zu", names[f], names[0], worst);
        cb_icon_free(&icon);
    }
    cb_icon_free(&ref);
}

static void assert_fails(const char *path, cb_status want, const char *text)
{
    cb_icon icon;
    memset(&icon, 0xAB, sizeof icon);
    cb_error err = {0};
    assert_int_equal(cb_icon_load(path, &icon, &err), want);
    assert_int_equal(err.status, want);
    assert_null(icon.rgba);
    if (!strstr(err.message, path) || !strstr(err.message, text))
        fail_msg("message \"%s\" lacks \"%s\" or \"%s\"", err.message, path, text);
    assert_null(strchr(err.message, '\n'));
}

static void test_broken_files(void **state)
{
    (void)state;
    assert_fails(FIXTURES "corrupt.png", CB_ERR_DATA, "not a valid PNG: ");
    assert_fails(FIXTURES "truncated.png", CB_ERR_DATA, "not a valid PNG: ");
    assert_fails(FIXTURES "notpng.png", CB_ERR_DATA, "not a valid PNG: ");
    assert_fails(FIXTURES "missing.png", CB_ERR_NOINPUT, "cannot open: No such file");
    assert_fails("tests/data/icons", CB_ERR_NOINPUT, "cannot open");
}

/* Writes a W x H RGBA PNG into a new temporary file; the caller unlinks. */
static void write_png(char *path, uint32_t w, uint32_t h)
{
    strcpy(path, "/tmp/cb_icon_XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    png_image img;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    img.width = w;
    img.height = h;
    img.format = PNG_FORMAT_RGBA;
    unsigned char *px = calloc((size_t)w * h, 4);
    assert_non_null(px);
    px[0] = 200, px[3] = 255;
    assert_true(png_image_write_to_file(&img, path, 0, px, 0, NULL));
    free(px);
}

static void test_generated_png(void **state)
{
    (void)state;
    char path[32];
    write_png(path, 3, 2);
    cb_icon icon;
    cb_error err = {0};
    assert_int_equal(cb_icon_load(path, &icon, &err), CB_OK);
    assert_int_equal(icon.w, 3);
    assert_int_equal(icon.h, 2);
    assert_int_equal(icon.rgba[0], 200);
    assert_int_equal(icon.rgba[3], 255);
    assert_int_equal(icon.rgba[7], 0);
    cb_icon_free(&icon);
    unlink(path);
}

static void test_too_wide(void **state)
{
    (void)state;
    char path[32];
    write_png(path, 4097, 1);
    assert_fails(path, CB_ERR_DATA, "4097x1");
    unlink(path);
    write_png(path, 4096, 1); /* the largest side allowed */
    cb_icon icon;
    cb_error err = {0};
    assert_int_equal(cb_icon_load(path, &icon, &err), CB_OK);
    cb_icon_free(&icon);
    unlink(path);
}

/* A header claiming 60000x60000 pixels over a tiny file must be refused
 * from the header alone, before 14 GB are asked for. */
static void test_forged_header(void **state)
{
    (void)state;
    char path[32];
    write_png(path, 16, 16);
    FILE *f = fopen(path, "r+b");
    assert_non_null(f);
    unsigned char ihdr[17]; /* "IHDR" + 13 data bytes, at offset 12 */
    assert_int_equal(fseek(f, 12, SEEK_SET), 0);
    assert_int_equal(fread(ihdr, 1, sizeof ihdr, f), sizeof ihdr);
    const unsigned char big[8] = {0, 0, 0xEA, 0x60, 0, 0, 0xEA, 0x60};
    memcpy(ihdr + 4, big, sizeof big);
    uLong crc = crc32(0L, ihdr, sizeof ihdr);
    unsigned char crcb[4] = {(unsigned char)(crc >> 24), (unsigned char)(crc >> 16),
                             (unsigned char)(crc >> 8), (unsigned char)crc};
    assert_int_equal(fseek(f, 12, SEEK_SET), 0);
    assert_int_equal(fwrite(ihdr, 1, sizeof ihdr, f), sizeof ihdr);
    assert_int_equal(fwrite(crcb, 1, sizeof crcb, f), sizeof crcb);
    assert_int_equal(fclose(f), 0);
    cb_icon icon;
    cb_error err = {0};
    assert_int_equal(cb_icon_load(path, &icon, &err), CB_ERR_DATA);
    assert_non_null(strstr(err.message, path));
    assert_non_null(strstr(err.message, "60000x60000"));
    assert_null(icon.rgba);
    unlink(path);
}

static void test_bad_arguments(void **state)
{
    (void)state;
    cb_icon icon;
    cb_error err = {0};
    assert_int_equal(cb_icon_load(NULL, &icon, &err), CB_ERR_NOINPUT);
    assert_int_equal(cb_icon_load("", &icon, &err), CB_ERR_NOINPUT);
    assert_int_equal(cb_icon_load("icons/default/key.png", NULL, &err), CB_ERR_INTERNAL);
    /* No error struct: still a status, and no crash. */
    assert_int_equal(cb_icon_load(FIXTURES "notpng.png", &icon, NULL), CB_ERR_DATA);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_default_theme_icon),
        cmocka_unit_test(test_png_flavours),
        cmocka_unit_test(test_broken_files),
        cmocka_unit_test(test_generated_png),
        cmocka_unit_test(test_too_wide),
        cmocka_unit_test(test_forged_header),
        cmocka_unit_test(test_bad_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
