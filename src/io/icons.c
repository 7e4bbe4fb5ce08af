/* Icons: PNG decoding with libpng, turning palette, grey, 16-bit and
 * interlaced files into one 8-bit RGBA layout. */
#include "io/icons.h"
#include "io/input.h"

#include "base/error.h"

#include <errno.h>
#include <inttypes.h>
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* libpng reads from memory through this, and reports errors by longjmp
 * back into cb_icon_decode with the message kept here. */
typedef struct {
    const unsigned char *data;
    size_t len, at;
    char message[200];
    int oom;        /* an allocation of libpng's failed */
} png_source;

/* libpng's allocations, watched so that running out of memory is not
 * reported as a broken file. */
static png_voidp png_watched_malloc(png_structp png, png_alloc_size_t size)
{
    void *p = malloc(size);
    if (!p) {
        png_source *src = png_get_mem_ptr(png);
        if (src)
            src->oom = 1;
    }
    return p;
}

static void png_watched_free(png_structp png, png_voidp p)
{
    (void)png;
    free(p);
}

static void png_read_memory(png_structp png, png_bytep out, size_t n)
{
    png_source *src = png_get_io_ptr(png);
    if (n > src->len - src->at)
        png_error(png, "the file ends too soon");
    memcpy(out, src->data + src->at, n);
    src->at += n;
}

static void png_on_error(png_structp png, png_const_charp msg)
{
    png_source *src = png_get_error_ptr(png);
    snprintf(src->message, sizeof src->message, "%s", msg);
    png_longjmp(png, 1);
}

static void png_on_warning(png_structp png, png_const_charp msg)
{
    (void)png;
    (void)msg;
}

/* The header is read first: its size is checked before a single pixel is
 * decoded or any pixel memory is asked for. Samples are taken as stored,
 * with no gamma conversion (libpng's simplified API treats a 16-bit file
 * without a gAMA chunk as linear light and lightens its mid-tones, where
 * every viewer shows them as stored); 16-bit samples are rounded to 8. */
cb_status cb_icon_decode(const void *data, size_t len, const char *file, cb_icon *out,
                         cb_error *err)
{
    if (!out)
        return cb_fail(err, CB_ERR_INTERNAL, "icon: no output given");
    memset(out, 0, sizeof *out);
    const char *volatile name = file ? file : "(memory)";
    if (!data || len == 0)
        return cb_fail(err, CB_ERR_DATA, "icon %s: not a valid PNG: empty file", name);
    if (len > CB_MAX_FILE_BYTES)
        return cb_fail(err, CB_ERR_DATA, "icon %s: %zu bytes, larger than the %d allowed",
                       name, len, CB_MAX_FILE_BYTES);
    if (len < 8 || png_sig_cmp(data, 0, 8) != 0)
        return cb_fail(err, CB_ERR_DATA, "icon %s: not a valid PNG: not a PNG file", name);

    png_source src = {data, len, 0, "unknown error", 0};
    png_structp png = png_create_read_struct_2(PNG_LIBPNG_VER_STRING, &src, png_on_error,
                                               png_on_warning, &src, png_watched_malloc,
                                               png_watched_free);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!info) {
        png_destroy_read_struct(&png, NULL, NULL);
        return cb_fail(err, CB_ERR_NOMEM, "icon %s: out of memory", name);
    }
    unsigned char *volatile rgba = NULL;
    png_bytep *volatile rows = NULL;
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, &info, NULL);
        free(rgba);
        free(rows);
        if (src.oom)
            return cb_fail(err, CB_ERR_NOMEM, "icon %s: out of memory", name);
        return cb_fail(err, CB_ERR_DATA, "icon %s: not a valid PNG: %s", name, src.message);
    }
    png_set_read_fn(png, &src, png_read_memory);
    png_set_chunk_malloc_max(png, 8u << 20); /* text and ICC chunks */
    png_set_chunk_cache_max(png, 1000);
    /* Chunks an icon has no use for are skipped unread: libpng 1.6 sizes
     * some (sPLT) by their declared length, so a forged one asked for 2 GB
     * (found by the png fuzz target). */
    static const png_byte unused[] = "sPLT\0hIST\0iCCP\0iTXt\0tEXt\0zTXt\0eXIf\0pCAL\0sCAL\0"
                                     "tIME\0pHYs\0oFFs\0sTER";
    png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, unused, (int)(sizeof unused / 5));
    /* Every chunk's CRC is still checked, the image data's too; zlib's own
     * checksum over the inflated bytes repeated that check at 30 % of the
     * decoding time. */
    png_set_option(png, PNG_IGNORE_ADLER32, PNG_OPTION_ON);
    png_read_info(png, info);
    uint32_t w = png_get_image_width(png, info), h = png_get_image_height(png, info);
    /* A forged IHDR must not make us reserve gigabytes. */
    if (w == 0 || h == 0 || w > CB_ICON_MAX_SIDE || h > CB_ICON_MAX_SIDE) {
        png_destroy_read_struct(&png, &info, NULL);
        return cb_fail(err, CB_ERR_DATA,
                       "icon %s: %ux%u pixels, icons must be 1x1 to %ux%u", name,
                       (unsigned)w, (unsigned)h, CB_ICON_MAX_SIDE, CB_ICON_MAX_SIDE);
    }
    int type = png_get_color_type(png, info), depth = png_get_bit_depth(png, info);
    int trns = png_get_valid(png, info, PNG_INFO_tRNS) != 0;
    if (depth == 16)
        png_set_scale_16(png);
    if (type == PNG_COLOR_TYPE_PALETTE)
        png_set_palette_to_rgb(png);
    if (type == PNG_COLOR_TYPE_GRAY && depth < 8)
        png_set_expand_gray_1_2_4_to_8(png);
    if (trns)
        png_set_tRNS_to_alpha(png);
    if (type == PNG_COLOR_TYPE_GRAY || type == PNG_COLOR_TYPE_GRAY_ALPHA)
        png_set_gray_to_rgb(png);
    if (!(type & PNG_COLOR_MASK_ALPHA) && !trns)
        png_set_add_alpha(png, 0xFF, PNG_FILLER_AFTER);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    if (png_get_rowbytes(png, info) != (size_t)w * 4)
        png_error(png, "unexpected pixel layout");
    rgba = malloc((size_t)w * h * 4);
    rows = malloc((size_t)h * sizeof *rows);
    if (!rgba || !rows) {
        png_destroy_read_struct(&png, &info, NULL);
        free(rgba);
        free(rows);
        return cb_fail(err, CB_ERR_NOMEM, "icon %s: out of memory", name);
    }
    for (uint32_t y = 0; y < h; y++)
        rows[y] = rgba + (size_t)y * w * 4;
    png_read_image(png, rows);
    png_read_end(png, NULL);
    png_destroy_read_struct(&png, &info, NULL);
    free(rows);
    out->w = w;
    out->h = h;
    out->rgba = rgba;
    return CB_OK;
}

cb_status cb_icon_read(const char *path, unsigned char **out, size_t *out_len, cb_error *err)
{
    *out = NULL;
    *out_len = 0;
    if (!path || !*path)
        return cb_fail(err, CB_ERR_NOINPUT, "icon: no file name given");

    /* We open the file ourselves so a missing file reports errno, not
     * libpng's generic read failure. */
    FILE *fp;
    off_t size;
    cb_status opened = cb_input_open("icon", path, &fp, &size, err);
    if (opened != CB_OK)
        return opened;
    /* The file size is checked before anything is read. */
    if ((uintmax_t)size > CB_MAX_FILE_BYTES) {
        fclose(fp);
        return cb_fail(err, CB_ERR_DATA, "icon %s: %jd bytes, larger than the %d allowed",
                       path, (intmax_t)size, CB_MAX_FILE_BYTES);
    }
    size_t cap = (size_t)size;
    unsigned char *data = malloc(cap + 1);
    size_t len = data ? fread(data, 1, cap + 1, fp) : 0;
    int bad = ferror(fp);
    fclose(fp);
    if (!data)
        return cb_fail(err, CB_ERR_NOMEM, "icon %s: out of memory", path);
    if (bad) {
        free(data);
        return cb_fail(err, CB_ERR_NOINPUT, "icon %s: cannot read", path);
    }
    if (len > cap) { /* it grew while we read it */
        free(data);
        return cb_fail(err, CB_ERR_DATA, "icon %s: changed while being read", path);
    }
    *out = data;
    *out_len = len;
    return CB_OK;
}

cb_status cb_icon_load(const char *path, cb_icon *out, cb_error *err)
{
    if (!out)
        return cb_fail(err, CB_ERR_INTERNAL, "icon: no output given");
    memset(out, 0, sizeof *out);
    unsigned char *data;
    size_t len;
    cb_status s = cb_icon_read(path, &data, &len, err);
    if (s != CB_OK)
        return s;
    s = cb_icon_decode(data, len, path, out, err);
    free(data);
    return s;
}

void cb_icon_free(cb_icon *icon)
{
    if (!icon)
        return;
    free(icon->rgba);
    icon->rgba = NULL;
    icon->w = icon->h = 0;
}
