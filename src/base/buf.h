/* A growable text buffer, the one every writer of text uses (manifest lines,
 * OBJ files, contract reports). Writes after a failed allocation do nothing
 * and set oom, so a writer checks once at the end. The text stays
 * NUL-terminated. */
#ifndef CB_BUF_H
#define CB_BUF_H

#include <stddef.h>

typedef struct {
    char *data;     /* NULL until the first write */
    size_t len, cap;
    int oom;        /* an allocation failed: the text is incomplete */
} cb_buf;

void cb_buf_append(cb_buf *b, const void *data, size_t len);
/* Room for N more bytes at the end, for a writer that formats in place: it
 * writes at the pointer and adds what it wrote to len (at most N; the text
 * is then not NUL-terminated). NULL, with oom set, when out of memory. */
char *cb_buf_room(cb_buf *b, size_t n);
void cb_buf_printf(cb_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void cb_buf_free(cb_buf *b);

#endif
