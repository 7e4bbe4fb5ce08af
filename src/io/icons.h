/* Icons: PNG files decoded to 8-bit RGBA for the PDF renderer. */
#ifndef CB_ICONS_H
#define CB_ICONS_H

#include <stddef.h>
#include <stdint.h>

#include "cutboard.h"

/* Largest icon side we accept: bigger files are mistakes, not icons. */
#define CB_ICON_MAX_SIDE ((unsigned)CB_MAX_ICON_SIDE)

typedef struct {
    uint32_t w, h;
    unsigned char *rgba; /* w * h * 4 bytes, rows top to bottom */
} cb_icon;

/* Decodes the PNG at PATH (any bit depth, palette, grey, interlaced) into
 * *out as straight (not premultiplied) RGBA. A missing or unreadable file
 * gives CB_ERR_NOINPUT; a file that is not a PNG, is damaged, or is bigger
 * than CB_ICON_MAX_SIDE on a side gives CB_ERR_DATA. On error *out is empty.
 * The caller frees a loaded icon with cb_icon_free. */
cb_status cb_icon_load(const char *path, cb_icon *out, cb_error *err);

/* Reads the file at PATH as cb_icon_load does before decoding it: errors
 * as there (CB_ERR_NOINPUT, CB_ERR_DATA for a file over CB_MAX_FILE_BYTES).
 * On success *DATA holds its *LEN bytes; the caller frees it. */
cb_status cb_icon_read(const char *path, unsigned char **data, size_t *len, cb_error *err);

/* Decodes LEN bytes of PNG at DATA like cb_icon_load; NAME (may be NULL)
 * names the icon in errors. Inputs over CB_MAX_FILE_BYTES are refused. */
cb_status cb_icon_decode(const void *data, size_t len, const char *name, cb_icon *out,
                         cb_error *err);

/* Frees the pixels and empties the icon; NULL or an empty icon is fine. */
void cb_icon_free(cb_icon *icon);

#endif
