/* A page's content stream (see cb_content in render.h), the one writer of
 * every page's operators: libharu writes none. Numbers and operators are
 * spelt as libharu's page operators spelt them when they wrote our pages
 * (tests/test_content.c holds the two together), so pages kept their bytes,
 * but for the places of a board's edges and shapes, written to 0.01 pt;
 * then deflated with one zlib state reused page to page. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <libdeflate.h>
#include <zlib.h>
#include "print/content.h"
#include "print/hpdf_internals.h"

/* A page with more text than this (a poster's) is deflated by zlib a
 * piece at a time into a buffer that grows as it fills, so its text is
 * never held twice at full size (libdeflate wants the whole output buffer
 * at once); its buffers are not kept for pages to come. */
#define CB_BIG_PAGE ((size_t)8 << 20)
#define CB_DEFLATE_PIECE ((size_t)1 << 20)

/* cb_cs_room's slow path: the text grown to hold N more bytes; NULL (the
 * status set) when out of memory. */
char *cb_cs_grow(cb_pdf *p, size_t n)
{
    cb_content *c = &p->cs;
    char *room = cb_buf_room(&c->text, n);
    if (!room && c->st == HPDF_OK)
        c->st = HPDF_FAILD_TO_ALLOC_MEM;
    return room;
}

/* "00" .. "99": two digits a step (a page writes about 2,800 numbers). */
static const char digit_pairs[201] = "00010203040506070809101112131415161718192021222324"
                                     "25262728293031323334353637383940414243444546474849"
                                     "50515253545556575859606162636465666768697071727374"
                                     "75767778798081828384858687888990919293949596979899";

/* U (below 100,000) in decimal. */
static char *put_small(char *s, unsigned u)
{
    if (u >= 10000) {
        *s++ = (char)('0' + u / 10000);
        u %= 10000;
        memcpy(s, digit_pairs + 2 * (u / 100), 2);
    } else if (u >= 1000) {
        memcpy(s, digit_pairs + 2 * (u / 100), 2);
    } else if (u >= 100) {
        *s++ = (char)('0' + u / 100);
        memcpy(s, digit_pairs + 2 * (u % 100), 2);
        return s + 2;
    } else if (u >= 10) {
        memcpy(s, digit_pairs + 2 * u, 2);
        return s + 2;
    } else {
        *s++ = (char)('0' + u);
        return s;
    }
    memcpy(s + 2, digit_pairs + 2 * (u % 100), 2);
    return s + 4;
}

/* VAL as libharu's HPDF_FToA writes it (same float arithmetic, so the same
 * digits; tests/test_content.c compares the two): clamped to +-32767, at
 * most 5 decimals, trailing zeros and a bare point dropped. NaN is written
 * as 0 (libharu's conversion of it is undefined). Returns the end; at most
 * 12 bytes. */
char *cb_ftoa(char *s, HPDF_REAL val)
{
    if (val > HPDF_LIMIT_MAX_REAL)
        val = HPDF_LIMIT_MAX_REAL;
    else if (val < HPDF_LIMIT_MIN_REAL)
        val = HPDF_LIMIT_MIN_REAL;
    else if (val != val)
        val = 0;
    if (val < 0) {
        *s++ = '-';
        val = -val;
    }
    HPDF_INT32 ip = (HPDF_INT32)((double)val + 0.000005);
    HPDF_INT32 fp =
        (HPDF_INT32)((HPDF_REAL)((double)(val - (HPDF_REAL)ip) + 0.000005) * (HPDF_REAL)100000);
    /* Both are >= 0 here, ip at most 32767; libharu keeps the last 5
     * digits of FP. */
    unsigned f = (unsigned)fp % 100000u;
    s = put_small(s, (unsigned)ip);
    if (f == 0)
        return s;
    /* The five decimals, then as many as the last that is not 0. */
    *s = '.';
    memcpy(s + 1, digit_pairs + 2 * (f / 1000), 2);
    memcpy(s + 3, digit_pairs + 2 * (f / 10 % 100), 2);
    s[5] = (char)('0' + f % 10);
    int k = 5;
    while (s[k] == '0')
        k--;
    return s + k + 1;
}

char *cb_ptoa(char *s, HPDF_REAL val)
{
    double v = (double)val;
    if (!(v >= HPDF_LIMIT_MIN_REAL)) /* also NaN, written as 0 */
        v = v < 0 ? HPDF_LIMIT_MIN_REAL : 0;
    else if (v > HPDF_LIMIT_MAX_REAL)
        v = HPDF_LIMIT_MAX_REAL;
    unsigned c = (unsigned)(fabs(v) * 100 + 0.5); /* in hundredths */
    if (v < 0 && c > 0)
        *s++ = '-';
    s = put_small(s, c / 100);
    unsigned f = c % 100;
    if (f == 0)
        return s;
    *s = '.';
    memcpy(s + 1, digit_pairs + 2 * f, 2);
    return s + (f % 10 ? 3 : 2);
}

/* Operator OP (OPLEN bytes, a literal) at O. The operators have one or two
 * letters: copied as two bytes, not by a call (a one-letter literal's NUL
 * second, written over by what follows; its room is the newline's). */
static void put_op(char *o, const char *op, size_t oplen)
{
    if (oplen <= 2)
        memcpy(o, op, 2);
    else
        memcpy(o, op, oplen);
}

void cb_cs_xy(cb_pdf *p, HPDF_REAL x, HPDF_REAL y, const char *op, size_t oplen)
{
    char *s = cb_cs_room(p, 2 * 10 + oplen + 1), *o = s;
    if (!s)
        return;
    o = cb_ptoa(o, x);
    *o++ = ' ';
    o = cb_ptoa(o, y);
    *o++ = ' ';
    put_op(o, op, oplen);
    o += oplen;
    *o++ = '\n';
    p->cs.text.len += (size_t)(o - s);
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
    put_op(o, op, oplen);
    o += oplen;
    *o++ = '\n';
    p->cs.text.len += (size_t)(o - s);
}

char *cb_utoa(char *s, uint32_t u)
{
    char digits[10];
    int n = 0;
    do
        digits[n++] = (char)('0' + u % 10);
    while ((u /= 10) != 0);
    while (n)
        *s++ = digits[--n];
    return s;
}

/* Written by hand: a page names up to a few hundred shapes, and snprintf
 * took 3.7 % of a deck's instructions doing it. */
void cb_cs_do(cb_pdf *p, char prefix, int k)
{
    char *s = cb_cs_room(p, 20);
    if (!s)
        return;
    char *o = s;
    *o++ = '/';
    *o++ = prefix;
    o = cb_utoa(o, (uint32_t)k);
    memcpy(o, " Do\n", 4);
    o += 4;
    p->cs.text.len += (size_t)(o - s);
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

/* Deflates LEN bytes of DATA at LEVEL with zlib STRATEGY into C's output
 * buffer as a zlib stream (one deflate state, kept while level and
 * strategy stay); the length, or 0 when out of memory. zlib deflates raw
 * and the wrapper is ours: the same two header bytes zlib writes, and the
 * Adler-32 from libdeflate, whose vector loop is over 15 times as fast as
 * zlib's (the bytes are the same as zlib's own stream). */
static size_t cb_deflate(cb_content *c, const void *data, size_t len, int level, int strategy)
{
    z_stream *z = c->z;
    if (z && (c->z_level != level || c->z_strategy != strategy)) {
        deflateEnd(z);
        free(z);
        z = c->z = NULL;
    }
    if (!z) {
        z = calloc(1, sizeof *z);
        if (!z || deflateInit2(z, level, Z_DEFLATED, -15, 8, strategy) != Z_OK) {
            free(z);
            return 0;
        }
        c->z = z;
        c->z_level = level;
        c->z_strategy = strategy;
    } else if (deflateReset(z) != Z_OK) {
        return 0;
    }
    size_t bound = 2 + deflateBound(z, (uLong)len) + 4;
    if (bound > c->out_cap) {
        unsigned char *o = realloc(c->out, bound);
        if (!o)
            return 0;
        c->out = o;
        c->out_cap = bound;
    }
    /* RFC 1950: 32K window, deflate, zlib's level hint, a multiple of 31 */
    unsigned hint = strategy >= Z_HUFFMAN_ONLY || level < 2 ? 0 : level < 6 ? 1 : level == 6 ? 2 : 3;
    unsigned header = 0x7800u | hint << 6;
    header += 31 - header % 31;
    c->out[0] = (unsigned char)(header >> 8);
    c->out[1] = (unsigned char)header;
    z->next_in = (Bytef *)(uintptr_t)data;
    z->avail_in = (uInt)len;
    z->next_out = c->out + 2;
    z->avail_out = (uInt)(c->out_cap - 2 - 4);
    if (deflate(z, Z_FINISH) != Z_STREAM_END)
        return 0;
    size_t n = (size_t)(z->next_out - c->out);
    uint32_t sum = libdeflate_adler32(1, data, len);
    for (int k = 0; k < 4; k++)
        c->out[n + (size_t)k] = (unsigned char)(sum >> (24 - 8 * k));
    return n + 4;
}

HPDF_STATUS cb_pdf_put_deflated(cb_pdf *p, HPDF_Dict dict, const void *data, size_t len,
                                int level, int strategy)
{
    if (cb_hpdf_writes_itself(dict)) /* libharu deflates those itself */
        return cb_hpdf_stream_put(dict, data, len, 0);
    size_t n = cb_deflate(&p->cs, data, len, level, strategy);
    return n ? cb_hpdf_stream_put(dict, p->cs.out, n, 1) : HPDF_FAILD_TO_ALLOC_MEM;
}

void cb_page_rec_free(cb_page_rec *page)
{
    free(page->data);
    free(page->icons);
    free(page->icon_pt);
    free(page->shapes);
    free(page->chars);
    memset(page, 0, sizeof *page);
}

/* C's text deflated by zlib a piece at a time into a new buffer (its
 * length into *LEN), or NULL when out of memory. */
static unsigned char *deflate_big(cb_content *c, size_t *len)
{
    z_stream z = {0};
    if (deflateInit2(&z, CB_CONTENT_LEVEL, Z_DEFLATED, 15, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        return NULL;
    unsigned char *out = NULL;
    size_t cap = 0, used = 0;
    const unsigned char *in = (const unsigned char *)c->text.data;
    size_t left = c->text.len;
    int zr = Z_OK;
    while (zr == Z_OK) {
        if (cap - used < CB_DEFLATE_PIECE) {
            size_t want = cap ? cap + cap / 2 : CB_DEFLATE_PIECE;
            unsigned char *o = realloc(out, want);
            if (!o)
                break;
            out = o;
            cap = want;
        }
        size_t step = left < CB_DEFLATE_PIECE ? left : CB_DEFLATE_PIECE;
        z.next_in = (Bytef *)(uintptr_t)in;
        z.avail_in = (uInt)step;
        z.next_out = out + used;
        z.avail_out = (uInt)(cap - used < UINT32_MAX ? cap - used : UINT32_MAX);
        zr = deflate(&z, step == left ? Z_FINISH : Z_NO_FLUSH);
        size_t took = step - z.avail_in;
        in += took;
        left -= took;
        used = (size_t)(z.next_out - out);
        if (zr == Z_BUF_ERROR) /* no room: more comes with the next piece */
            zr = Z_OK;
    }
    deflateEnd(&z);
    if (zr != Z_STREAM_END) {
        free(out);
        return NULL;
    }
    unsigned char *fit = realloc(out, used ? used : 1);
    *len = used;
    return fit ? fit : out;
}

HPDF_STATUS cb_render_finish(cb_pdf *p)
{
    cb_content *c = &p->cs;
    if (c->st != HPDF_OK)
        return c->st;
    if (!c->open)
        return HPDF_OK;
    c->open = 0;
    cb_page_rec *pg = &p->page;
    size_t n = 0;
    if (c->text.len > CB_BIG_PAGE) {
        pg->data = deflate_big(c, &n);
        cb_buf_free(&c->text);
    } else {
        if (!c->ld)
            c->ld = libdeflate_alloc_compressor(CB_PAGE_LEVEL);
        size_t bound = c->ld ? libdeflate_zlib_compress_bound(c->ld, c->text.len) : 0;
        if (bound > c->out_cap) {
            unsigned char *o = realloc(c->out, bound);
            if (o) {
                c->out = o;
                c->out_cap = bound;
            }
        }
        if (c->ld && bound <= c->out_cap)
            n = libdeflate_zlib_compress(c->ld, c->text.data, c->text.len, c->out, c->out_cap);
        if (n && (pg->data = malloc(n)))
            memcpy(pg->data, c->out, n);
    }
    c->text.len = 0;
    pg->len = n;
    /* the characters measured since the last page: this page shows them */
    if (pg->data && p->n_chars && (pg->chars = malloc(p->n_chars * sizeof *pg->chars))) {
        memcpy(pg->chars, p->chars, p->n_chars * sizeof *pg->chars);
        pg->n_chars = p->n_chars;
        p->n_chars = 0;
    }
    if (pg->data && p->n_done == p->done_cap) {
        size_t cap = p->done_cap ? 2 * p->done_cap : 4;
        cb_page_rec *d = realloc(p->done, cap * sizeof *d);
        if (d) {
            p->done = d;
            p->done_cap = cap;
        }
    }
    if (!pg->data || p->n_chars || p->n_done == p->done_cap) {
        cb_page_rec_free(pg);
        return c->st = HPDF_FAILD_TO_ALLOC_MEM;
    }
    p->done[p->n_done++] = *pg;
    memset(pg, 0, sizeof *pg);
    return HPDF_OK;
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
