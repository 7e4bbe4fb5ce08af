/* Icons: PNG decoding through libpng's simplified API, which turns palette,
 * grey, 16-bit and interlaced files into one 8-bit RGBA layout for us. */
#include "icons.h"

#include "error.h"

#include <errno.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_stdio(&image, fp)) {
        /* libpng has already released the image on failure. */
        fclose(fp);
        return cb_fail(err, CB_ERR_DATA, "icon %s: not a valid PNG: %s", path,
                       image.message);
    }
    /* Check the header's size before allocating: a forged IHDR must not
     * make us reserve gigabytes. */
    if (image.width == 0 || image.height == 0 || image.width > CB_ICON_MAX_SIDE ||
        image.height > CB_ICON_MAX_SIDE) {
        uint32_t w = image.width, h = image.height;
        png_image_free(&image);
        fclose(fp);
        return cb_fail(err, CB_ERR_DATA,
                       "icon %s: %ux%u pixels, icons must be 1x1 to %ux%u", path,
                       (unsigned)w, (unsigned)h, CB_ICON_MAX_SIDE, CB_ICON_MAX_SIDE);
    }

    image.format = PNG_FORMAT_RGBA;
    size_t size = PNG_IMAGE_SIZE(image);
    unsigned char *rgba = malloc(size);
    if (!rgba) {
        png_image_free(&image);
        fclose(fp);
        return cb_fail(err, CB_ERR_INTERNAL, "icon %s: out of memory", path);
    }
    if (!png_image_finish_read(&image, NULL, rgba, 0, NULL)) {
        fclose(fp);
        free(rgba);
        return cb_fail(err, CB_ERR_DATA, "icon %s: not a valid PNG: %s", path,
                       image.message);
    }
    fclose(fp);
    out->w = image.width;
    out->h = image.height;
    out->rgba = rgba;
    return CB_OK;
}

void cb_icon_free(cb_icon *icon)
{
    if (!icon)
        return;
    free(icon->rgba);
    icon->rgba = NULL;
    icon->w = icon->h = 0;
}
