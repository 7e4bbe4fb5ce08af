#include "base/utf8.h"

int cb_utf8_valid(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        unsigned c = *p++;
        int more;
        unsigned min;
        if (c < 0x80)
            continue;
        else if (c >= 0xC2 && c <= 0xDF)
            more = 1, min = 0x80, c &= 0x1F;
        else if (c >= 0xE0 && c <= 0xEF)
            more = 2, min = 0x800, c &= 0x0F;
        else if (c >= 0xF0 && c <= 0xF4)
            more = 3, min = 0x10000, c &= 0x07;
        else
            return 0;
        for (int i = 0; i < more; i++, p++) {
            if ((*p & 0xC0) != 0x80)
                return 0;
            c = c << 6 | (*p & 0x3Fu);
        }
        if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
            return 0;
    }
    return 1;
}
