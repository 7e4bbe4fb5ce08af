/* A page's content stream, written here rather than through libharu's page
 * operators (see cb_content in render.h): the operators as text, byte for
 * byte what libharu writes (tests/test_content.c compares the two), then
 * deflated with one zlib state reused page to page. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "print/content.h"
#include "print/hpdf_internals.h"

/* Deflated output goes to libharu this many bytes at a time. */
#define CB_DEFLATE_PIECE ((size_t)1 << 20)
/* A page's operator buffer is kept for the next page up to this size (a
 * deck's pages take tens of KB; a million-node poster's, 117 MB). */
#define CB_CONTENT_KEEP ((size_t)8 << 20)

/* Room for N more bytes at the end of P's content; NULL (the status set)
 * when out of memory. */
char *cb_cs_room(cb_pdf *p, size_t n)
{
    cb_content *c = &p->cs;
    char *room = cb_buf_room(&c->text, n);
    if (!room && c->st == HPDF_OK)
        c->st = HPDF_FAILD_TO_ALLOC_MEM;
    return room;
}

/* VAL as libharu's HPDF_FToA writes it (same float arithmetic, so the same
 * digits): clamped to +-32767, at most 5 decimals, trailing zeros and a
 * bare point dropped. Returns the end; at most 12 bytes. */
char *cb_ftoa(char *s, HPDF_REAL val)
{
    if (val > HPDF_LIMIT_MAX_REAL)
        val = HPDF_LIMIT_MAX_REAL;
    else if (val < HPDF_LIMIT_MIN_REAL)
        val = HPDF_LIMIT_MIN_REAL;
    if (val < 0) {
        *s++ = '-';
        val = -val;
    }
    HPDF_INT32 ip = (HPDF_INT32)((double)val + 0.000005);
    HPDF_INT32 fp =
        (HPDF_INT32)((HPDF_REAL)((double)(val - (HPDF_REAL)ip) + 0.000005) * (HPDF_REAL)100000);
    /* Both are >= 0 here; libharu keeps the last 5 digits of FP. */
    unsigned u = (unsigned)ip, f = (unsigned)fp % 100000u;
    char digits[12];
    int n = 0;
    do {
        digits[n++] = (char)('0' + u % 10u);
        u /= 10u;
    } while (u > 0 && n < 12);
    while (n > 0)
        *s++ = digits[--n];
    if (f == 0)
        return s;
    int k = 5;
    while (f % 10u == 0) {
        f /= 10u;
        k--;
    }
    *s = '.';
    for (int i = k; i > 0; i--) {
        s[i] = (char)('0' + f % 10u);
        f /= 10u;
    }
    return s + k + 1;
}

/* N numbers, then the operator OP (OPLEN bytes) and a newline:
 * "1 0 0 1 x y cm". */
void cb_cs_op(cb_pdf *p, const HPDF_REAL *v, int n, const char *op, size_t oplen)
{
    char *s = cb_cs_room(p, (size_t)n * 13 + oplen + 1), *o = s;
    if (!s)
        return;
    for (int i = 0; i < n; i++) {
        o = cb_ftoa(o, v[i]);
        *o++ = ' ';
    }
    memcpy(o, op, oplen);
    o += oplen;
    *o++ = '\n';
    p->cs.text.len += (size_t)(o - s);
}

void cb_cs_str(cb_pdf *p, const char *text)
{
    size_t n = strlen(text);
    char *s = cb_cs_room(p, n);
    if (s) {
        memcpy(s, text, n);
        p->cs.text.len += n;
    }
}

/* A circle about (X, Y) as HPDF_Page_Circle draws it: four Bezier
 * quarters with libharu's kappa. */
void cb_cs_circle(cb_pdf *p, HPDF_REAL x, HPDF_REAL y, HPDF_REAL r)
{
    const HPDF_REAL k = 0.552F;
    CB_OP(p, "m", x - r, y);
    CB_OP(p, "c", x - r, y + r * k, x - r * k, y + r, x, y + r);
    CB_OP(p, "c", x + r * k, y + r, x + r, y + r * k, x + r, y);
    CB_OP(p, "c", x + r, y - r * k, x + r * k, y - r, x, y - r);
    CB_OP(p, "c", x - r * k, y - r, x - r, y - r * k, x - r, y);
}

HPDF_STATUS cb_pdf_put_deflated(cb_pdf *p, HPDF_Dict dict, const void *data, size_t len,
                                int level, int strategy)
{
    cb_content *c = &p->cs;
    if (cb_hpdf_writes_itself(dict)) /* libharu deflates those itself */
        return cb_hpdf_stream_put(dict, data, len, 0);
    z_stream *z = c->z;
    if (z && (c->z_level != level || c->z_strategy != strategy)) {
        deflateEnd(z);
        free(z);
        z = c->z = NULL;
    }
    if (!z) {
        z = calloc(1, sizeof *z);
        if (!z || deflateInit2(z, level, Z_DEFLATED, 15, 8, strategy) != Z_OK) {
            free(z);
            return HPDF_FAILD_TO_ALLOC_MEM;
        }
        c->z = z;
        c->z_level = level;
        c->z_strategy = strategy;
    } else if (deflateReset(z) != Z_OK) {
        return HPDF_FAILD_TO_ALLOC_MEM;
    }
    /* Deflated a piece at a time, so a poster's stream (tens of MB) is
     * never held twice; the bytes are the same as in one piece. */
    size_t bound = deflateBound(z, (uLong)len), piece = bound < CB_DEFLATE_PIECE ? bound : CB_DEFLATE_PIECE;
    if (piece > c->out_cap) {
        unsigned char *o = realloc(c->out, piece);
        if (!o)
            return HPDF_FAILD_TO_ALLOC_MEM;
        c->out = o;
        c->out_cap = piece;
    }
    z->next_in = (Bytef *)(uintptr_t)data;
    z->avail_in = (uInt)len;
    HPDF_STATUS st = HPDF_OK;
    for (int first = 1, zr = Z_OK; zr != Z_STREAM_END && st == HPDF_OK; first = 0) {
        z->next_out = c->out;
        z->avail_out = (uInt)c->out_cap;
        zr = deflate(z, Z_FINISH);
        if (zr != Z_OK && zr != Z_STREAM_END)
            return HPDF_FAILD_TO_ALLOC_MEM;
        size_t got = c->out_cap - z->avail_out;
        st = first ? cb_hpdf_stream_put(dict, c->out, got, 1)
                   : cb_hpdf_stream_append(dict, c->out, got);
    }
    return st;
}

HPDF_STATUS cb_render_finish(cb_pdf *p)
{
    cb_content *c = &p->cs;
    HPDF_Page page = c->page;
    if (c->st != HPDF_OK)
        return c->st;
    if (!page)
        return HPDF_OK;
    c->page = NULL;
    HPDF_STATUS st = cb_pdf_put_deflated(p, cb_hpdf_page_contents(page), c->text.data, c->text.len,
                                         CB_CONTENT_LEVEL, Z_DEFAULT_STRATEGY);
    c->text.len = 0;
    if (c->text.cap > CB_CONTENT_KEEP) /* a poster's: not kept for pages to come */
        cb_buf_free(&c->text);
    if (st != HPDF_OK)
        c->st = st;
    return st;
}

size_t cb_text_hex(const char *text, char *out)
{
    static const char hex[] = "0123456789ABCDEF";
    char *o = out;
    *o++ = '<';
    for (const unsigned char *c = (const unsigned char *)text; *c;) {
        unsigned cp;
        if (c[0] < 0x80)
            cp = c[0], c += 1;
        else if ((c[0] & 0xE0) == 0xC0 && c[1])
            cp = (c[0] & 0x1Fu) << 6 | (c[1] & 0x3Fu), c += 2;
        else if (c[1] && c[2])
            cp = (c[0] & 0x0Fu) << 12 | (c[1] & 0x3Fu) << 6 | (c[2] & 0x3Fu), c += 3;
        else
            break;
        for (int sh = 12; sh >= 0; sh -= 4)
            *o++ = hex[(cp >> sh) & 0xF];
    }
    *o++ = '>';
    return (size_t)(o - out);
}
