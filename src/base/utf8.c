#include "base/utf8.h"

#include <string.h>

/* The length of the well-formed UTF-8 character at P (1..4), 0 if none. */
static size_t char_len(const unsigned char *p)
{
    unsigned c = *p;
    size_t more;
    unsigned min;
    if (c < 0x80)
        return 1;
    else if (c >= 0xC2 && c <= 0xDF)
        more = 1, min = 0x80, c &= 0x1F;
    else if (c >= 0xE0 && c <= 0xEF)
        more = 2, min = 0x800, c &= 0x0F;
    else if (c >= 0xF0 && c <= 0xF4)
        more = 3, min = 0x10000, c &= 0x07;
    else
        return 0;
    for (size_t i = 1; i <= more; i++) {
        if ((p[i] & 0xC0) != 0x80)
            return 0;
        c = c << 6 | (p[i] & 0x3Fu);
    }
    if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
        return 0;
    return more + 1;
}

const char *cb_text_shown(const char *s, char *out, size_t len)
{
    static const char hex[] = "0123456789abcdef";
    const unsigned char *p = (const unsigned char *)s;
    size_t o = 0;
    while (*p) {
        size_t n = char_len(p);
        int control = n == 1 ? (*p < 0x20 || *p == 0x7f) : n == 2 && p[0] == 0xC2 && p[1] < 0xA0;
        size_t raw = n ? n : 1, need = control || !n ? 4 * raw : raw;
        if (o + need >= len)
            break;
        for (size_t i = 0; i < raw; i++) {
            if (control || !n) {
                out[o++] = '\\';
                out[o++] = 'x';
                out[o++] = hex[p[i] >> 4];
                out[o++] = hex[p[i] & 15];
            } else {
                out[o++] = (char)p[i];
            }
        }
        p += raw;
    }
    out[o] = '\0';
    return out;
}

int cb_utf8_valid(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    for (size_t n; *p; p += n)
        if (!(n = char_len(p)))
            return 0;
    return 1;
}
