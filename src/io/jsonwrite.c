/* cJSON's formatted printing, streamed (see jsonwrite.h). The layout rules
 * are cJSON 1.7's print_object and print_array: an object opens with "{\n",
 * each member is its depth in tabs, the key, ":\t" and the value, members
 * are joined by ",\n", and the close is "\n" (when there were members),
 * one tab fewer and "}"; an array is "[" items joined by ", " "]". */
#include <float.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "io/jsonwrite.h"

void cb_jw_init(cb_jw *w, cb_write_fn write, void *ctx)
{
    w->write = write;
    w->ctx = ctx;
    w->failed = 0;
    w->depth = 0;
    w->len = 0;
}

int cb_jw_flush(cb_jw *w)
{
    if (w->len && !w->failed)
        w->failed = w->write(w->ctx, w->buf, w->len);
    w->len = 0;
    return w->failed;
}

static void put(cb_jw *w, const char *s, size_t n)
{
    if (w->len + n > sizeof w->buf)
        cb_jw_flush(w);
    if (n > sizeof w->buf) { /* a string longer than the buffer */
        if (!w->failed)
            w->failed = w->write(w->ctx, s, n);
        return;
    }
    memcpy(w->buf + w->len, s, n);
    w->len += n;
}

static void put_c(cb_jw *w, char c)
{
    if (w->len == sizeof w->buf)
        cb_jw_flush(w);
    w->buf[w->len++] = c;
}

static void tabs(cb_jw *w, int n)
{
    while (n-- > 0)
        put_c(w, '\t');
}

/* An array item's separator. */
static void before_value(cb_jw *w)
{
    if (w->depth == 0 || w->is_object[w->depth - 1])
        return;
    if (w->items[w->depth - 1]++ > 0)
        put(w, ", ", 2);
}

static void push(cb_jw *w, int object)
{
    /* Deeper than any board file: further levels share the last slot, which
     * only the separators would get wrong; the writers never go there. */
    int d = w->depth < CB_JW_DEPTH ? w->depth : CB_JW_DEPTH - 1;
    w->items[d] = 0;
    w->is_object[d] = (char)object;
    w->depth++;
}

void cb_jw_object_begin(cb_jw *w)
{
    before_value(w);
    put(w, "{\n", 2);
    push(w, 1);
}

void cb_jw_object_end(cb_jw *w)
{
    if (w->items[w->depth - 1] > 0)
        put_c(w, '\n');
    tabs(w, w->depth - 1);
    put_c(w, '}');
    w->depth--;
}

void cb_jw_array_begin(cb_jw *w)
{
    before_value(w);
    put_c(w, '[');
    push(w, 0);
}

void cb_jw_array_end(cb_jw *w)
{
    put_c(w, ']');
    w->depth--;
}

/* cJSON's print_string_ptr: quotes, backslash and the control characters
 * escaped (\b \f \n \r \t by name, the rest as \u00XX), all else as is. */
static void string_escaped(cb_jw *w, const char *s)
{
    put_c(w, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        unsigned char c = *p;
        const char *esc = NULL;
        switch (c) {
        case '"': esc = "\\\""; break;
        case '\\': esc = "\\\\"; break;
        case '\b': esc = "\\b"; break;
        case '\f': esc = "\\f"; break;
        case '\n': esc = "\\n"; break;
        case '\r': esc = "\\r"; break;
        case '\t': esc = "\\t"; break;
        default: break;
        }
        if (esc) {
            put(w, esc, 2);
        } else if (c < 32) {
            char u[8];
            snprintf(u, sizeof u, "\\u%04x", c);
            put(w, u, 6);
        } else {
            put_c(w, (char)c);
        }
    }
    put_c(w, '"');
}

/* The length of S when no byte of it needs an escape, else SIZE_MAX. */
static size_t plain_length(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    unsigned bad = 0;
    for (; *p; p++)
        bad |= (*p < 32) | (*p == '"') | (*p == '\\');
    return bad ? SIZE_MAX : (size_t)(p - (const unsigned char *)s);
}

/* S quoted: the keys and names of a board file (a poster's has millions)
 * need no escape and are copied whole. */
static void string_body(cb_jw *w, const char *s)
{
    size_t n = plain_length(s);
    if (n > sizeof w->buf - 2) {
        string_escaped(w, s);
        return;
    }
    if (w->len + n + 2 > sizeof w->buf)
        cb_jw_flush(w);
    char *o = w->buf + w->len;
    o[0] = '"';
    memcpy(o + 1, s, n);
    o[n + 1] = '"';
    w->len += n + 2;
}

void cb_jw_key(cb_jw *w, const char *key)
{
    if (w->items[w->depth - 1]++ > 0)
        put(w, ",\n", 2);
    tabs(w, w->depth);
    string_body(w, key);
    put(w, ":\t", 2);
}

void cb_jw_key_plain(cb_jw *w, const char *key, size_t len)
{
    size_t need = 2 + (size_t)w->depth + 1 + len + 3;
    if (need > sizeof w->buf) {
        cb_jw_key(w, key);
        return;
    }
    int first = w->items[w->depth - 1]++ == 0;
    if (w->len + need > sizeof w->buf)
        cb_jw_flush(w);
    char *o = w->buf + w->len;
    if (!first) {
        *o++ = ',';
        *o++ = '\n';
    }
    for (int t = 0; t < w->depth; t++)
        *o++ = '\t';
    *o++ = '"';
    memcpy(o, key, len);
    o += len;
    memcpy(o, "\":\t", 3);
    w->len = (size_t)(o + 3 - w->buf);
}

void cb_jw_string(cb_jw *w, const char *s)
{
    before_value(w);
    string_body(w, s);
}

void cb_jw_bool(cb_jw *w, int v)
{
    before_value(w);
    if (v)
        put(w, "true", 4);
    else
        put(w, "false", 5);
}

/* "00" .. "99": two digits a step. */
static const char digit_pairs[201] = "00010203040506070809101112131415161718192021222324"
                                     "25262728293031323334353637383940414243444546474849"
                                     "50515253545556575859606162636465666768697071727374"
                                     "75767778798081828384858687888990919293949596979899";

/* |K| digits, most significant first, into BUF; their count. */
static size_t digits(unsigned long long k, char *buf)
{
    char tmp[24], *end = tmp + sizeof tmp, *p = end;
    for (; k >= 100; k /= 100) {
        p -= 2;
        memcpy(p, digit_pairs + 2 * (k % 100), 2);
    }
    if (k >= 10) {
        p -= 2;
        memcpy(p, digit_pairs + 2 * k, 2);
    } else {
        *--p = (char)('0' + k);
    }
    size_t n = (size_t)(end - p);
    memcpy(buf, p, n);
    return n;
}

/* U (at least 1) in decimal into BUF, NUL-terminated; its length. */
static size_t whole_digits(uint32_t u, char *buf)
{
    size_t n = u >= 1000000000u ? 10 : u >= 100000000u ? 9 : u >= 10000000u ? 8
             : u >= 1000000u ? 7 : u >= 100000u ? 6 : u >= 10000u ? 5 : u >= 1000u ? 4
             : u >= 100u ? 3 : u >= 10u ? 2 : 1;
    char *p = buf + n;
    *p = '\0';
    for (; u >= 100; u /= 100) {
        p -= 2;
        memcpy(p, digit_pairs + 2 * (u % 100), 2);
    }
    if (u >= 10)
        memcpy(p - 2, digit_pairs + 2 * u, 2);
    else
        p[-1] = (char)('0' + u);
    return n;
}

size_t cb_json_format_number(double v, char *buf)
{
    /* Node ids, edge ends and counts, most of a board file's numbers:
     * whole and positive, their digits alone (as every path below writes
     * them). */
    if (v >= 1 && v < 4294967296.0 && (double)(uint32_t)v == v)
        return whole_digits((uint32_t)v, buf);
    if (!isfinite(v)) {
        memcpy(buf, "null", 5);
        return 4;
    }
    /* Fast paths, exactly what "%1.15g" prints and reads back for them:
     * whole numbers below 1e15 print as their digits, and the double
     * nearest to k/100 (what the board file's millimetres are) as k/100
     * without trailing zeros: 15 significant digits single it out. */
    if (fabs(v) < 1e13) {
        double k = round(v * 100);
        if (k / 100 == v) {
            size_t n = 0;
            if (signbit(v))
                buf[n++] = '-';
            unsigned long long a = (unsigned long long)fabs(k);
            n += digits(a / 100, buf + n);
            unsigned frac = (unsigned)(a % 100);
            if (frac) {
                buf[n++] = '.';
                buf[n++] = (char)('0' + frac / 10);
                if (frac % 10)
                    buf[n++] = (char)('0' + frac % 10);
            }
            buf[n] = '\0';
            return n;
        }
    }
    if (v == floor(v) && fabs(v) < 1e15) {
        size_t n = 0;
        if (signbit(v))
            buf[n++] = '-';
        n += digits((unsigned long long)fabs(v), buf + n);
        buf[n] = '\0';
        return n;
    }
    /* cJSON's own way: 15 digits, 17 when those do not read back within
     * a relative DBL_EPSILON. */
    int n = snprintf(buf, 32, "%1.15g", v);
    double back = strtod(buf, NULL);
    double most = fabs(back) > fabs(v) ? fabs(back) : fabs(v);
    if (!(fabs(back - v) <= most * DBL_EPSILON))
        n = snprintf(buf, 32, "%1.17g", v);
    return (size_t)n;
}

void cb_jw_number(cb_jw *w, double v)
{
    before_value(w);
    if (w->len + 32 > sizeof w->buf)
        cb_jw_flush(w);
    w->len += cb_json_format_number(v, w->buf + w->len);
}
