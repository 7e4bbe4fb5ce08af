/* Icons made ready to print: scaling down keeps the picture (alpha-weighted
 * means in linear light, never larger than the file), and the theme's cache
 * makes each icon at each size once, for every thread. */
#include "test.h"

#include <dirent.h>
#include <sys/types.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "io/icon_cache.h"
#include "io/icon_scale.h"

static void test_scaled_size(void **state)
{
    (void)state;
    uint32_t w, h;
    cb_icon_scaled_size(256, 256, 96, &w, &h);
    assert_true(w == 96 && h == 96);
    cb_icon_scaled_size(256, 128, 96, &w, &h); /* the shape kept */
    assert_true(w == 96 && h == 48);
    cb_icon_scaled_size(256, 256, 300, &w, &h); /* never larger */
    assert_true(w == 256 && h == 256);
    cb_icon_scaled_size(200, 100, 0, &w, &h); /* 0: as it is */
    assert_true(w == 200 && h == 100);
    cb_icon_scaled_size(1000, 1, 10, &w, &h); /* at least a pixel */
    assert_true(w == 10 && h == 1);
}

static cb_icon make_icon(uint32_t w, uint32_t h)
{
    cb_icon ic = {w, h, calloc((size_t)w * h, 4)};
    assert_non_null(ic.rgba);
    return ic;
}

static void set_px(cb_icon *ic, uint32_t x, uint32_t y, int r, int g, int b, int a)
{
    unsigned char *p = ic->rgba + 4 * ((size_t)y * ic->w + x);
    p[0] = (unsigned char)r, p[1] = (unsigned char)g, p[2] = (unsigned char)b;
    p[3] = (unsigned char)a;
}

/* Clear pixels add no colour (no red halo round a black glyph), alpha is
 * the covered share, and black and white average to mid-grey in light
 * (188), not in bytes (128). */
static void test_scale_means(void **state)
{
    (void)state;
    cb_error err;
    cb_icon src = make_icon(4, 2), out;
    for (uint32_t x = 0; x < 4; x++)
        for (uint32_t y = 0; y < 2; y++)
            set_px(&src, x, y, 255, 0, 0, 0); /* clear red */
    set_px(&src, 0, 0, 0, 0, 0, 255);
    set_px(&src, 0, 1, 0, 0, 0, 255); /* left half of the left output pixel */
    set_px(&src, 2, 0, 255, 255, 255, 255);
    set_px(&src, 3, 0, 0, 0, 0, 255);
    set_px(&src, 2, 1, 255, 255, 255, 255);
    set_px(&src, 3, 1, 0, 0, 0, 255);
    assert_int_equal(cb_icon_scale(&src, 2, 1, &out, &err), CB_OK);
    assert_true(out.w == 2 && out.h == 1);
    const unsigned char *l = out.rgba, *r = out.rgba + 4;
    assert_true(l[0] == 0 && l[1] == 0 && l[2] == 0);
    assert_true(abs(l[3] - 128) <= 1);
    assert_int_equal(r[3], 255);
    assert_true(abs(r[0] - 188) <= 1 && r[0] == r[1] && r[1] == r[2]);
    cb_icon_free(&out);
    /* the same size: the same pixels */
    assert_int_equal(cb_icon_scale(&src, 4, 2, &out, &err), CB_OK);
    assert_memory_equal(out.rgba, src.rgba, 4 * 4 * 2);
    cb_icon_free(&out);
    /* larger: refused */
    assert_int_equal(cb_icon_scale(&src, 8, 4, &out, &err), CB_ERR_INTERNAL);
    assert_null(out.rgba);
    cb_icon_free(&src);
}

/* A flat colour stays that colour at any size, to the byte. */
static void test_scale_flat(void **state)
{
    (void)state;
    cb_error err;
    cb_icon src = make_icon(256, 256), out;
    for (uint32_t y = 0; y < 256; y++)
        for (uint32_t x = 0; x < 256; x++)
            set_px(&src, x, y, 200, 60, 17, 255);
    assert_int_equal(cb_icon_scale(&src, 95, 37, &out, &err), CB_OK);
    for (size_t i = 0; i < (size_t)95 * 37; i++) {
        const unsigned char *p = out.rgba + 4 * i;
        assert_true(p[0] == 200 && p[1] == 60 && p[2] == 17 && p[3] == 255);
    }
    cb_icon_free(&out);
    cb_icon_free(&src);
}

static void inflate_all(const unsigned char *z, size_t len, unsigned char *out, size_t n)
{
    uLongf got = (uLongf)n;
    assert_int_equal(uncompress(out, &got, z, (uLong)len), Z_OK);
    assert_int_equal(got, n);
}

/* Made once per size, never larger than the file, planes that inflate to
 * the pixels (clear ones white), and a file's error each time it is
 * asked for. */
static void test_cache(void **state)
{
    (void)state;
    cb_error err;
    cb_icon_cache *c = cb_icon_cache_new();
    assert_non_null(c);
    uint32_t w, h;
    int opaque;
    assert_int_equal(cb_icon_cache_source(c, "icons/default/key.png", &w, &h, &opaque, &err),
                     CB_OK);
    assert_true(w == 256 && h == 256 && !opaque);
    const cb_icon_ready *a, *b, *full, *again;
    assert_int_equal(cb_icon_cache_ready(c, "icons/default/key.png", 96, 1, &a, &err), CB_OK);
    assert_int_equal(cb_icon_cache_ready(c, "icons/default/key.png", 96, 0, &b, &err), CB_OK);
    assert_ptr_equal(a, b);
    assert_true(a->w == 96 && a->h == 96 && a->alpha);
    assert_int_equal(cb_icon_cache_ready(c, "icons/default/key.png", 0, 0, &full, &err), CB_OK);
    assert_int_equal(cb_icon_cache_ready(c, "icons/default/key.png", 5000, 0, &again, &err), CB_OK);
    assert_ptr_equal(full, again);
    assert_true(full->w == 256 && full->h == 256);
    size_t n = (size_t)a->w * a->h;
    unsigned char *rgb = malloc(3 * n), *alpha = malloc(n);
    assert_true(rgb && alpha);
    inflate_all(a->rgb, a->rgb_len, rgb, 3 * n);
    inflate_all(a->alpha, a->alpha_len, alpha, n);
    for (size_t i = 0; i < n; i++) {
        const unsigned char *p = a->pixels->rgba + 4 * i;
        assert_int_equal(alpha[i], p[3]);
        for (int k = 0; k < 3; k++)
            assert_int_equal(rgb[3 * i + (size_t)k], p[3] ? p[k] : 255);
    }
    free(rgb);
    free(alpha);
    for (int k = 0; k < 2; k++) {
        memset(&err, 0, sizeof err);
        assert_int_equal(cb_icon_cache_ready(c, "tests/data/icons/corrupt.png", 96, 0, &a, &err),
                         CB_ERR_DATA);
        assert_non_null(strstr(err.message, "corrupt.png"));
        assert_int_equal(cb_icon_cache_source(c, "nothere.png", &w, &h, &opaque, &err),
                         CB_ERR_NOINPUT);
    }
    cb_icon_cache_free(c);
    cb_icon_cache_free(NULL);
}

typedef struct {
    cb_icon_cache *c;
    const cb_icon_ready *got[8];
} race;

static void *ask(void *arg)
{
    race *r = arg;
    static const char *const names[] = {"icons/default/key.png", "icons/default/bridge.png"};
    cb_error err;
    for (int k = 0; k < 8; k++)
        if (cb_icon_cache_ready(r->c, names[k % 2], 60 + (uint32_t)(k / 2), 0, &r->got[k], &err) !=
            CB_OK)
            r->got[k] = NULL;
    return NULL;
}

/* Threads asking at once all get the one entry made. */
static void test_cache_threads(void **state)
{
    (void)state;
    cb_icon_cache *c = cb_icon_cache_new();
    race r[4];
    pthread_t t[4];
    for (int i = 0; i < 4; i++) {
        r[i].c = c;
        assert_int_equal(pthread_create(&t[i], NULL, ask, &r[i]), 0);
    }
    for (int i = 0; i < 4; i++)
        pthread_join(t[i], NULL);
    for (int k = 0; k < 8; k++) {
        assert_non_null(r[0].got[k]);
        for (int i = 1; i < 4; i++)
            assert_ptr_equal(r[i].got[k], r[0].got[k]);
    }
    cb_icon_cache_free(c);
}

/* The planes of KEY.PNG at 96 pixels from a cache over folder DIR (NULL:
 * memory only), in *RGB and *ALPHA (the caller frees them). */
static void planes(const char *dir, unsigned char **rgb, size_t *rgb_len, unsigned char **alpha,
                   size_t *alpha_len)
{
    cb_error err;
    cb_icon_cache *c = cb_icon_cache_new();
    assert_non_null(c);
    assert_int_equal(cb_icon_cache_set_dir(c, dir, &err), CB_OK);
    uint32_t w, h;
    int opaque;
    assert_int_equal(cb_icon_cache_source(c, "icons/default/key.png", &w, &h, &opaque, &err),
                     CB_OK);
    assert_true(w == 256 && h == 256 && !opaque);
    const cb_icon_ready *r;
    assert_int_equal(cb_icon_cache_ready(c, "icons/default/key.png", 96, 0, &r, &err), CB_OK);
    *rgb = malloc(r->rgb_len), *alpha = malloc(r->alpha_len);
    assert_true(*rgb && *alpha);
    memcpy(*rgb, r->rgb, *rgb_len = r->rgb_len);
    memcpy(*alpha, r->alpha, *alpha_len = r->alpha_len);
    /* asked for, the pixels come too */
    assert_int_equal(cb_icon_cache_ready(c, "icons/default/key.png", 96, 1, &r, &err), CB_OK);
    assert_non_null(r->pixels);
    assert_true(r->pixels->w == 96 && r->pixels->h == 96);
    cb_icon_cache_free(c);
}

/* The inode of the one *-96.icon file in DIR (0: none): a file made again
 * is a new one. */
static ino_t icon_file(const char *dir)
{
    DIR *d = opendir(dir);
    ino_t ino = 0;
    for (struct dirent *e; d && (e = readdir(d));) {
        size_t n = strlen(e->d_name);
        if (n > 8 && strcmp(e->d_name + n - 8, "-96.icon") == 0)
            ino = e->d_ino;
    }
    if (d)
        closedir(d);
    return ino;
}

static void assert_planes(const char *dir, const unsigned char *rgb, size_t rgb_len,
                          const unsigned char *alpha, size_t alpha_len, int from_disk)
{
    unsigned char *r, *a;
    size_t rl, al;
    ino_t before = icon_file(dir);
    planes(dir, &r, &rl, &a, &al);
    ino_t after = icon_file(dir);
    assert_true(after != 0);
    if (from_disk)
        assert_true(after == before);
    else
        assert_true(after != before);
    assert_true(rl == rgb_len && al == alpha_len);
    assert_memory_equal(r, rgb, rl);
    assert_memory_equal(a, alpha, al);
    free(r);
    free(a);
}

/* Files on disk give the same planes as making them; damaged ones are
 * made again and rewritten, never used. */
static void test_cache_on_disk(void **state)
{
    (void)state;
    char dir[] = "/tmp/cutboard-icon-cache-XXXXXX", sub[64], cmd[200];
    assert_non_null(mkdtemp(dir));
    snprintf(sub, sizeof sub, "%s/made/here", dir); /* made when missing */
    unsigned char *rgb, *alpha;
    size_t rgb_len, alpha_len;
    planes(NULL, &rgb, &rgb_len, &alpha, &alpha_len);
    assert_planes(sub, rgb, rgb_len, alpha, alpha_len, 0); /* made and written */
    assert_planes(sub, rgb, rgb_len, alpha, alpha_len, 1); /* read */
    /* every file damaged: one byte changed, or cut short */
    snprintf(cmd, sizeof cmd, "for f in %s/*; do printf x | dd of=$f bs=1 seek=9 conv=notrunc "
             "2>/dev/null; done", sub);
    assert_int_equal(system(cmd), 0);
    assert_planes(sub, rgb, rgb_len, alpha, alpha_len, 0);
    assert_planes(sub, rgb, rgb_len, alpha, alpha_len, 1); /* rewritten whole */
    snprintf(cmd, sizeof cmd, "for f in %s/*; do truncate -s 30 $f; done", sub);
    assert_int_equal(system(cmd), 0);
    assert_planes(sub, rgb, rgb_len, alpha, alpha_len, 0);
    /* no temporary file left behind */
    DIR *d = opendir(sub);
    assert_non_null(d);
    int files = 0;
    for (struct dirent *e; (e = readdir(d));)
        if (e->d_name[0] != '.')
            files++;
        else
            assert_true(strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0);
    closedir(d);
    assert_int_equal(files, 2);
    free(rgb);
    free(alpha);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

/* Other bytes kept with the icons (the font's program): recalled from
 * memory, from the folder in a later process (a new cache), never when
 * damaged; a name never kept gives none. */
static void test_kept_bytes(void **state)
{
    (void)state;
    char dir[] = "/tmp/cutboard-kept-XXXXXX", cmd[200];
    assert_non_null(mkdtemp(dir));
    unsigned char data[3000];
    for (size_t i = 0; i < sizeof data; i++)
        data[i] = (unsigned char)(i * 7 + i / 13);
    cb_error err;
    cb_icon_cache *c = cb_icon_cache_new();
    assert_non_null(c);
    assert_int_equal(cb_icon_cache_set_dir(c, dir, &err), CB_OK);
    size_t len = 0;
    assert_null(cb_icon_cache_recall(c, "prog", &len));
    cb_icon_cache_keep(c, "prog", data, sizeof data);
    for (int later = 0; later < 2; later++) { /* this process, then a later one */
        if (later) {
            cb_icon_cache_free(c);
            c = cb_icon_cache_new();
            assert_non_null(c);
            assert_int_equal(cb_icon_cache_set_dir(c, dir, &err), CB_OK);
        }
        unsigned char *got = cb_icon_cache_recall(c, "prog", &len);
        assert_non_null(got);
        assert_int_equal(len, sizeof data);
        assert_memory_equal(got, data, sizeof data);
        free(got);
        assert_null(cb_icon_cache_recall(c, "other", &len));
    }
    cb_icon_cache_free(c);
    snprintf(cmd, sizeof cmd, "printf x | dd of=%s/prog bs=1 seek=100 conv=notrunc 2>/dev/null",
             dir);
    assert_int_equal(system(cmd), 0);
    c = cb_icon_cache_new();
    assert_non_null(c);
    assert_int_equal(cb_icon_cache_set_dir(c, dir, &err), CB_OK);
    assert_null(cb_icon_cache_recall(c, "prog", &len));
    cb_icon_cache_free(c);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scaled_size),
        cmocka_unit_test(test_scale_means),
        cmocka_unit_test(test_scale_flat),
        cmocka_unit_test(test_cache),
        cmocka_unit_test(test_cache_threads),
        cmocka_unit_test(test_cache_on_disk),
        cmocka_unit_test(test_kept_bytes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
