/* JSON text written piece by piece, byte for byte as cJSON_Print (formatted)
 * would print the same tree: tabs, ":\t" after keys, ", " between array
 * items, cJSON's string escapes and its number format. Nothing is held but
 * a 64 KiB buffer, handed to a cb_write_fn as it fills. Internal. */
#ifndef CB_JSONWRITE_H
#define CB_JSONWRITE_H

#include <stddef.h>
#include "cutboard.h"

#define CB_JW_BUF (1 << 16)
#define CB_JW_DEPTH 16

typedef struct {
    cb_write_fn write;
    void *ctx;
    int failed;         /* the errno value the write function returned, or 0 */
    int depth;          /* open objects and arrays */
    int items[CB_JW_DEPTH]; /* items so far in each open container */
    char is_object[CB_JW_DEPTH];
    size_t len;
    char buf[CB_JW_BUF];
} cb_jw;

void cb_jw_init(cb_jw *w, cb_write_fn write, void *ctx);
void cb_jw_object_begin(cb_jw *w);
void cb_jw_object_end(cb_jw *w);
void cb_jw_array_begin(cb_jw *w);
void cb_jw_array_end(cb_jw *w);
/* A member's key in an object; its value follows. Values in an array need
 * no call: they are separated as they come. */
void cb_jw_key(cb_jw *w, const char *key);
/* cb_jw_key for a KEY of LEN bytes that needs no escape: a string literal
 * of letters, digits and underscores, as CB_JW_KEY passes it (a board
 * file's keys, millions on a poster, copied whole). */
void cb_jw_key_plain(cb_jw *w, const char *key, size_t len);
#define CB_JW_KEY(w, literal) cb_jw_key_plain((w), "" literal, sizeof(literal) - 1)
void cb_jw_number(cb_jw *w, double v);
void cb_jw_string(cb_jw *w, const char *s);
void cb_jw_bool(cb_jw *w, int v);
/* Hands what is buffered to the write function; 0 or its errno value. */
int cb_jw_flush(cb_jw *w);

/* V as cJSON prints a number ("%1.15g", or "%1.17g" when that does not read
 * back; "null" when not finite) into BUF (at least 32 bytes); its length. */
size_t cb_json_format_number(double v, char *buf);

#endif
