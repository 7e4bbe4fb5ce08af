#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/buf.h"

/* Room for N more bytes and the NUL; 0, or -1 (oom set) when out of memory. */
static int reserve(cb_buf *b, size_t n)
{
    if (b->oom)
        return -1;
    if (b->len + n < b->cap)
        return 0;
    size_t cap = b->cap ? b->cap : 256;
    while (cap <= b->len + n) {
        if (cap > (size_t)-1 / 2) {
            b->oom = 1;
            return -1;
        }
        cap *= 2;
    }
    char *bigger = realloc(b->data, cap);
    if (!bigger) {
        b->oom = 1;
        return -1;
    }
    b->data = bigger;
    b->cap = cap;
    return 0;
}

char *cb_buf_room(cb_buf *b, size_t n)
{
    return reserve(b, n) == 0 ? b->data + b->len : NULL;
}

void cb_buf_append(cb_buf *b, const void *data, size_t len)
{
    if (reserve(b, len) != 0)
        return;
    memcpy(b->data + b->len, data, len);
    b->len += len;
    b->data[b->len] = '\0';
}

void cb_buf_printf(cb_buf *b, const char *fmt, ...)
{
    if (b->oom)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(b->data ? b->data + b->len : NULL, b->data ? b->cap - b->len : 0, fmt, ap);
    va_end(ap);
    if (n < 0) {
        b->oom = 1;
        return;
    }
    if (b->data && b->len + (size_t)n < b->cap) {
        b->len += (size_t)n;
        return;
    }
    if (reserve(b, (size_t)n) != 0)
        return;
    va_start(ap, fmt);
    vsnprintf(b->data + b->len, b->cap - b->len, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

void cb_buf_free(cb_buf *b)
{
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
    b->oom = 0;
}
