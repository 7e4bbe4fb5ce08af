/* Pages into the document: a page record (cb_page_rec, drawn on any
 * thread) written to the file (pdfout.c, on disk or in memory) with its
 * resources named, in the writer's thread. */
#include "print/pdf_icons.h"
#include "cutboard.h"
#include "base/board_geometry.h"
#include "base/error.h"
#include "board/deal.h"
#include "io/font.h"
#include "io/icon_cache.h"
#include "io/icons.h"
#include "io/theme.h"
#include "print/content.h"
#include "print/hpdf_internals.h"
#include "print/pdfout.h"
#include "print/render.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

/* The first error libharu's handler saw, else ST. */
static HPDF_STATUS cb_pdf_why(const cb_pdf *p, HPDF_STATUS st)
{
    return p->herr.error_no ? p->herr.error_no : st;
}

/* The document's shape KEY (its form made the first time); NULL on
 * failure. */
static const cb_shape *cb_pdf_shape(cb_pdf *p, const cb_shape *key)
{
    for (int k = 0; k < p->n_shapes; k++) {
        const cb_shape *sh = &p->shapes[k];
        if (sh->paint == key->paint && sh->type == key->type && sh->r == key->r)
            return sh;
    }
    if (p->n_shapes == p->shapes_cap) {
        int cap = p->shapes_cap ? 2 * p->shapes_cap : 16;
        cb_shape *grown = realloc(p->shapes, (size_t)cap * sizeof *grown);
        if (!grown)
            return NULL;
        p->shapes = grown;
        p->shapes_cap = cap;
    }
    cb_shape sh = *key;
    int slot = key->paint == 'N' && key->type >= 0 ? p->type_icon[key->type] : -1;
    if ((slot >= 0 && cb_pdf_icon_embed(p, slot) != HPDF_OK) || !(sh.form = cb_shape_form(p, key)))
        return NULL;
    if (slot >= 0) { /* the form draws it as cb_shape_form's icon box */
        double wh[2];
        cb_sheet_icon_fit(p->icons[slot].w, p->icons[slot].h, CB_ICON_SIDE * key->r, wh);
        cb_pdf_icon_printed(p, slot, fmax(wh[0], wh[1]));
    }
    if (!(sh.id = cb_pdfout_reserve(p->out)))
        return NULL;
    p->shapes[p->n_shapes] = sh;
    return &p->shapes[p->n_shapes++];
}

/* "[ X0 Y0 X1 Y1 ]", a page box. */
static void cb_pdf_box_text(char *out, HPDF_REAL x0, HPDF_REAL y0, HPDF_REAL x1, HPDF_REAL y1)
{
    char *o = out;
    const HPDF_REAL v[4] = {x0, y0, x1, y1};
    *o++ = '[';
    for (int i = 0; i < 4; i++) {
        *o++ = ' ';
        o = cb_ftoa(o, v[i]);
    }
    memcpy(o, " ]", 3);
}

/* The glyphs the page's text uses, marked in the font (measuring marks
 * them): the embedded font keeps them. */
static HPDF_STATUS cb_pdf_mark_glyphs(cb_pdf *p, const cb_page_rec *rec)
{
    if (!rec->n_chars)
        return HPDF_OK;
    unsigned char *u = malloc(3 * rec->n_chars), *o = u;
    if (!u)
        return HPDF_FAILD_TO_ALLOC_MEM;
    for (size_t i = 0; i < rec->n_chars; i++) {
        unsigned c = rec->chars[i];
        if (p->font_used)
            p->font_used[c >> 6] |= (uint64_t)1 << (c & 63);
        if (c < 0x80) {
            *o++ = (unsigned char)c;
        } else if (c < 0x800) {
            *o++ = (unsigned char)(0xC0 | c >> 6);
            *o++ = (unsigned char)(0x80 | (c & 0x3F));
        } else {
            *o++ = (unsigned char)(0xE0 | c >> 12);
            *o++ = (unsigned char)(0x80 | (c >> 6 & 0x3F));
            *o++ = (unsigned char)(0x80 | (c & 0x3F));
        }
    }
    HPDF_Font_TextWidth(p->font, u, (HPDF_UINT)(o - u));
    free(u);
    return HPDF_OK;
}

/* " /<PREFIX><K> <ID> 0 R" into OUT (room for 32 bytes): a page names up to
 * a few dozen XObjects, which snprintf took 0.7 % of a deck to write. */
static void xobject_ref(char *out, char prefix, int k, uint32_t id)
{
    char *o = out;
    *o++ = ' ';
    *o++ = '/';
    *o++ = prefix;
    o = cb_utoa(o, (uint32_t)k);
    *o++ = ' ';
    o = cb_utoa(o, id);
    memcpy(o, " 0 R", 5);
}

/* Page REC written straight to P's file: its content stream, then its
 * dictionary naming the font, icons and shapes by their object numbers
 * (reserved the first time a page names them; the objects themselves are
 * made in P's document and copied over at the end). */
HPDF_STATUS cb_pdf_put_page(cb_pdf *p, const cb_page_rec *rec)
{
    cb_pdfout *o = p->out;
    for (int k = 0; k < rec->n_icons; k++)
        cb_pdf_icon_printed(p, rec->icons[k], rec->icon_pt[k]);
    char line[160];
    uint32_t contents = cb_pdfout_reserve(o), page = cb_pdfout_reserve(o);
    if (!contents || !page)
        return HPDF_FAILD_TO_ALLOC_MEM;
    for (int k = 0; k < rec->n_icons; k++) {
        cb_pdf_icon *ic = &p->icons[rec->icons[k]];
        CB_HPDF(cb_pdf_icon_embed(p, rec->icons[k]));
        if (!ic->id && !(ic->id = cb_pdfout_reserve(o)))
            return HPDF_FAILD_TO_ALLOC_MEM;
    }
    uint32_t shape_id[CB_MAX_SHAPES];
    for (int k = 0; k < rec->n_shapes && k < CB_MAX_SHAPES; k++) {
        const cb_shape *sh = cb_pdf_shape(p, &rec->shapes[k]);
        if (!sh)
            return cb_pdf_why(p, p->cs.st != HPDF_OK ? p->cs.st : HPDF_FAILD_TO_ALLOC_MEM);
        shape_id[k] = sh->id;
    }
    CB_HPDF(cb_pdf_mark_glyphs(p, rec));
    cb_pdfout_stream(o, contents, "/Filter /FlateDecode\n", rec->data, rec->len);
    cb_pdfout_begin_obj(o, page);
    cb_pdfout_str(o, "<<\n/Type /Page\n/Parent 2 0 R\n/MediaBox ");
    cb_pdf_box_text(line, 0, 0, rec->w, rec->h);
    cb_pdfout_str(o, line);
    if (rec->boxes) {
        cb_pdfout_str(o, "\n/BleedBox ");
        cb_pdf_box_text(line, rec->bleed.left, rec->bleed.bottom, rec->bleed.right,
                        rec->bleed.top);
        cb_pdfout_str(o, line);
        cb_pdfout_str(o, "\n/TrimBox ");
        cb_pdf_box_text(line, rec->trim.left, rec->trim.bottom, rec->trim.right, rec->trim.top);
        cb_pdfout_str(o, line);
    }
    snprintf(line, sizeof line, "\n/Contents %u 0 R\n/Resources <<\n"
             "/ProcSet [ /PDF /Text /ImageB /ImageC /ImageI ]\n", (unsigned)contents);
    cb_pdfout_str(o, line);
    if (rec->font) {
        snprintf(line, sizeof line, "/Font << /F1 %u 0 R >>\n", (unsigned)p->font_id);
        cb_pdfout_str(o, line);
    }
    if (rec->n_icons || rec->n_shapes) {
        cb_pdfout_str(o, "/XObject <<");
        for (int k = 0; k < rec->n_icons; k++) {
            xobject_ref(line, 'X', k + 1, p->icons[rec->icons[k]].id);
            cb_pdfout_str(o, line);
        }
        for (int k = 0; k < rec->n_shapes && k < CB_MAX_SHAPES; k++) {
            xobject_ref(line, rec->shapes[k].paint == 'N' ? 'N' : 'C', k + 1, shape_id[k]);
            cb_pdfout_str(o, line);
        }
        cb_pdfout_str(o, " >>\n");
    }
    cb_pdfout_str(o, ">>\n>>\n");
    cb_pdfout_end_obj(o);
    cb_pdfout_add_page(o, page);
    return cb_pdfout_error(o) == ENOMEM ? HPDF_FAILD_TO_ALLOC_MEM : HPDF_OK;
}

HPDF_STATUS cb_pdf_flush_pages(cb_pdf *p)
{
    HPDF_STATUS st = HPDF_OK;
    for (size_t i = 0; i < p->n_done; i++) {
        if (st == HPDF_OK)
            st = cb_pdf_put_page(p, &p->done[i]);
        cb_page_rec_free(&p->done[i]);
    }
    p->n_done = 0;
    return st;
}
