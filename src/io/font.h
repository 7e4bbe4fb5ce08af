/* Fonts: a TrueType file is checked here, table by table, before libharu
 * parses it, because libharu trusts the file's offsets and counts (a text
 * file handed to it as a font crashes it). */
#ifndef CB_FONT_H
#define CB_FONT_H

#include <stddef.h>

#include "cutboard.h"

/* Checks that LEN bytes at DATA are a TrueType font whose tables libharu can
 * read without going out of bounds: the table directory, head, maxp, hhea,
 * hmtx, loca, glyf (composite glyphs included), cmap (a Windows Unicode
 * format 4 subtable), name and OS/2. NAME names the font in errors
 * (CB_ERR_DATA). */
cb_status cb_font_check(const unsigned char *data, size_t len, const char *name,
                        cb_error *err);

/* Opens PATH, refuses it if it is not a regular file (CB_ERR_NOINPUT) or
 * is larger than CB_MAX_FILE_BYTES, reads it and runs cb_font_check. */
cb_status cb_font_check_file(const char *path, cb_error *err);

/* cb_font_check_file, keeping what it read: on success *DATA holds the
 * font's *LEN bytes, checked; the caller frees it. */
cb_status cb_font_read(const char *path, unsigned char **data, size_t *len, cb_error *err);

/* The font at PATH read and checked (cb_font_read) once per process, for
 * every document and thread: *DATA (LEN bytes) stays valid and unchanged
 * to the end of the process, and so does *KEY (unless KEY is NULL), a
 * hash of those bytes that names what is made from them; the caller frees
 * neither. A file changed
 * on disk since it was read is read again; one that changes while it is
 * read is refused (CB_ERR_DATA). */
cb_status cb_font_shared(const char *path, const unsigned char **data, size_t *len,
                         const char **key, cb_error *err);

#endif
