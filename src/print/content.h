/* Writing a page's content stream (content.c). Internal to src/print/. */
#ifndef CB_CONTENT_H
#define CB_CONTENT_H

#include <string.h>
#include "print/render.h"

/* Deflate level for page content: the shapes repeat byte for byte, so the
 * fast levels find nearly all of the matches at a fraction of the cost.
 * Pages go through libdeflate at its level 1: on a deck's pages 5.0 KB a
 * page in 68 us, against zlib's 5.3 KB in 141 us at level 3 (zlib level
 * 1: 5.5 KB, 122 us). Shapes keep zlib at CB_CONTENT_LEVEL. */
#define CB_CONTENT_LEVEL 3
#define CB_PAGE_LEVEL 1

/* cb_cs_room when the text has to grow. */
char *cb_cs_grow(cb_pdf *p, size_t n);
/* Room for N more bytes at the end of P's content; NULL (the status set)
 * when out of memory. Inline: a page asks for room about 1,300 times, and
 * nearly always has it. */
static inline char *cb_cs_room(cb_pdf *p, size_t n)
{
    cb_buf *t = &p->cs.text;
    if (!t->oom && t->len + n < t->cap)
        return t->data + t->len;
    return cb_cs_grow(p, n);
}
/* VAL as libharu's HPDF_FToA writes it into S; returns the end (at most
 * 12 bytes). */
char *cb_ftoa(char *s, HPDF_REAL val);
/* U in decimal into S; returns the end (at most 10 bytes). */
char *cb_utoa(char *s, uint32_t u);
/* VAL to 0.01 pt into S, trailing zeros and a bare point dropped, clamped
 * and NaN as cb_ftoa; returns the end (at most 10 bytes). For places on
 * the page, most of a board's text: 0.01 pt is 3.5 um, finer than any
 * printer's dot and than the board file's 0.01 mm. Scales and colours keep
 * cb_ftoa's five decimals. */
char *cb_ptoa(char *s, HPDF_REAL val);
/* "X Y OP" and a newline, X and Y by cb_ptoa. */
void cb_cs_xy(cb_pdf *p, HPDF_REAL x, HPDF_REAL y, const char *op, size_t oplen);
#define CB_XY(p, op, x, y) cb_cs_xy((p), (x), (y), (op), sizeof(op) - 1)
/* N numbers, then the operator OP (OPLEN bytes) and a newline. */
void cb_cs_op(cb_pdf *p, const HPDF_REAL *v, int n, const char *op, size_t oplen);
/* CB_OP(p, "m", x, y): OP a string literal. */
#define CB_OP(p, op, ...) \
    cb_cs_op((p), (const HPDF_REAL[]){__VA_ARGS__}, \
             (int)(sizeof((const HPDF_REAL[]){__VA_ARGS__}) / sizeof(HPDF_REAL)), (op), \
             sizeof(op) - 1)

/* TEXT as it is. Inline: nearly all are literals, whose length and copy
 * the compiler then works out. */
static inline void cb_cs_str(cb_pdf *p, const char *text)
{
    size_t n = strlen(text);
    char *s = cb_cs_room(p, n);
    if (s) {
        memcpy(s, text, n);
        p->cs.text.len += n;
    }
}
/* "/<PREFIX><K> Do" and a newline: paints the XObject so named (K >= 0). */
void cb_cs_do(cb_pdf *p, char prefix, int k);
/* TEXT (valid UTF-8 of the BMP, as cb_utf8_clean makes it) as a hex string
 * of 16-bit codes, the way libharu's UTF-8 encoder shows it: "<0063...>",
 * into OUT (room for 4 strlen(TEXT) + 2 bytes); returns its length. */
size_t cb_text_hex(const char *text, char *out);
/* A circle path about (X, Y) as HPDF_Page_Circle draws it. */
void cb_cs_circle(cb_pdf *p, HPDF_REAL x, HPDF_REAL y, HPDF_REAL r);

#endif
