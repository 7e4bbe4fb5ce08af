/* Icons: PNG decoding through libpng's simplified API, which turns palette,
 * grey, 16-bit and interlaced files into one 8-bit RGBA layout for us. */
#include "icons.h"

#include "error.h"

#include <errno.h>
#include <inttypes.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The header is read first: its size is checked before a single pixel is
 * decoded or any pixel memory is asked for. */
cb_status cb_icon_decode(const void *data, size_t len, const char *name, cb_icon *out,
                         cb_error *err)
{
    if (!out)
        return cb_fail(err, CB_ERR_INTERNAL, "icon: no output given");
    memset(out, 0, sizeof *out);
    if (!name)
        name = "(memory)";
    if (!data || len == 0)
        return cb_fail(err, CB_ERR_DATA, "icon %s: not a valid PNG: empty file", name);
    if (len > CB_MAX_FILE_BYTES)
        return cb_fail(err, CB_ERR_DATA, "icon %s: %zu bytes, larger than the %d allowed",
                       name, len, CB_MAX_FILE_BYTES);

    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_memory(&image, data, len)) {
        /* libpng has already released the image on failure. */
        return cb_fail(err, CB_ERR_DATA, "icon %s: not a valid PNG: %s", name,
                       image.message);
    }
    /* A forged IHDR must not make us reserve gigabytes. */
    if (image.width == 0 || image.height == 0 || image.width > CB_ICON_MAX_SIDE ||
        image.height > CB_ICON_MAX_SIDE) {
        uint32_t w = image.width, h = image.height;
        png_image_free(&image);
        return cb_fail(err, CB_ERR_DATA,
                       "icon %s: %ux%u pixels, icons must be 1x1 to %ux%u", name,
                       (unsigned)w, (unsigned)h, CB_ICON_MAX_SIDE, CB_ICON_MAX_SIDE);
    }

    image.format = PNG_FORMAT_RGBA;
    size_t size = PNG_IMAGE_SIZE(image);
    unsigned char *rgba = malloc(size);
    if (!rgba) {
        png_image_free(&image);
        return cb_fail(err, CB_ERR_INTERNAL, "icon %s: out of memory", name);
    }
    if (!png_image_finish_read(&image, NULL, rgba, 0, NULL)) {
        free(rgba);
        return cb_fail(err, CB_ERR_DATA, "icon %s: not a valid PNG: %s", name,
                       image.message);
    }
    out->w = image.width;
    out->h = image.height;
    out->rgba = rgba;
    return CB_OK;
}

cb_status cb_icon_load(const char *path, cb_icon *out, cb_error *err)
{
    if (!out)
        return cb_fail(err, CB_ERR_INTERNAL, "icon: no output given");
    memset(out, 0, sizeof *out);
    if (!path || !*path)
        return cb_fail(err, CB_ERR_NOINPUT, "icon: no file name given");

    /* We open the file ourselves so a missing file reports errno, not
     * libpng's generic read failure. */
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return cb_fail(err, CB_ERR_NOINPUT, "icon %s: cannot open: %s",
                       path, strerror(errno));
    struct stat st;
    if (fstat(fileno(fp), &st) != 0 || !S_ISREG(st.st_mode)) {
        fclose(fp);
        return cb_fail(err, CB_ERR_NOINPUT, "icon %s: cannot open: not a regular file",
                       path);
    }
    /* The file size is checked before anything is read. */
    if ((uintmax_t)st.st_size > CB_MAX_FILE_BYTES) {
        fclose(fp);
        return cb_fail(err, CB_ERR_DATA, "icon %s: %jd bytes, larger than the %d allowed",
                       path, (intmax_t)st.st_size, CB_MAX_FILE_BYTES);
    }
    size_t cap = (size_t)st.st_size;
    unsigned char *data = malloc(cap + 1);
    size_t len = data ? fread(data, 1, cap + 1, fp) : 0;
    int bad = ferror(fp);
    fclose(fp);
    if (!data)
        return cb_fail(err, CB_ERR_INTERNAL, "icon %s: out of memory", path);
    if (bad) {
        free(data);
        return cb_fail(err, CB_ERR_NOINPUT, "icon %s: cannot read", path);
    }
    if (len > cap) { /* it grew while we read it */
        free(data);
        return cb_fail(err, CB_ERR_DATA, "icon %s: changed while being read", path);
    }
    cb_status s = cb_icon_decode(data, len, path, out, err);
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
