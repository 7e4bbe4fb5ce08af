/* Shapes every page shares: circles and whole nodes as form XObjects, so a
 * page names each in a few bytes (see cb_shape in render.h). */
#include <stdio.h>
#include <zlib.h>
#include "print/content.h"
#include "print/hpdf_internals.h"
#include "print/shapes.h"

void cb_pdf_failed(cb_pdf *p)
{
    if (p->cs.st == HPDF_OK)
        p->cs.st = p->herr.error_no ? p->herr.error_no : HPDF_FAILD_TO_ALLOC_MEM;
}

/* The shape SHAPES[K] in the page's /XObject resources as "/C<K+1>",
 * for the page P is filling; 0 or -1 when libharu fails. */
static int cb_shape_list(cb_pdf *p, HPDF_Page page, int k)
{
    cb_shape *sh = &p->shapes[k];
    if (sh->page == p->n_pages)
        return 0;
    HPDF_Dict xobjects = cb_hpdf_page_xobjects(page);
    if (!xobjects || HPDF_Dict_Add(xobjects, sh->name, sh->form) != HPDF_OK) {
        cb_pdf_failed(p);
        return -1;
    }
    sh->page = p->n_pages;
    return 0;
}

/* Moves what P's buffer holds past START into form F (deflated when
 * DEFLATE; a bare circle is too short to gain) and files it as a shape
 * with key R, PAINT and TYPE; returns its index, or -1. */
int cb_form_add(cb_pdf *p, HPDF_Dict f, size_t start, HPDF_REAL r, char paint, int type,
                       int deflate)
{
    if (p->cs.st != HPDF_OK)
        return -1;
    const char *text = p->cs.text.data + start;
    size_t len = p->cs.text.len - start;
    HPDF_STATUS st;
    if (deflate) {
        st = cb_pdf_put_deflated(p, f, text, len, CB_CONTENT_LEVEL, Z_DEFAULT_STRATEGY);
    } else {
        st = cb_hpdf_stream_put(f, text, len, 0);
    }
    p->cs.text.len = start;
    if (st != HPDF_OK)
        return -1;
    cb_shape *sh = &p->shapes[p->n_shapes];
    sh->r = r;
    sh->paint = paint;
    sh->type = type;
    sh->form = f;
    sh->page = 0;
    snprintf(sh->name, sizeof sh->name, "%c%d", paint == 'N' ? 'N' : 'C', p->n_shapes + 1);
    return p->n_shapes++;
}

/* A new circle shape; its index, or -1 (the caller then draws the circle
 * itself). */
static int cb_shape_new(cb_pdf *p, HPDF_REAL r, char paint, HPDF_REAL pad)
{
    HPDF_Dict res;
    if (p->n_shapes == CB_MAX_SHAPES || p->cs.st != HPDF_OK)
        return -1;
    HPDF_Dict f = cb_hpdf_form_new(p->doc, r + pad, &res);
    if (!f) {
        cb_pdf_failed(p);
        return -1;
    }
    size_t start = p->cs.text.len;
    cb_cs_circle(p, 0, 0, r);
    cb_cs_str(p, paint == 'f' ? "f\n" : "B\n");
    return cb_form_add(p, f, start, r, paint, -1, 0);
}

/* "/Name Do" of shape K, listing it in PAGE's resources first; 0, or -1
 * when libharu fails (nothing written). */
int cb_shape_do(cb_pdf *p, HPDF_Page page, int k)
{
    if (k < 0 || cb_shape_list(p, page, k) != 0)
        return -1;
    cb_cs_str(p, "/");
    cb_cs_str(p, p->shapes[k].name);
    cb_cs_str(p, " Do\n");
    return 0;
}

/* A circle of radius R about the origin painted by PAINT ('f' fill, 'B'
 * fill and stroke, whose line reaches PAD past R) with the current
 * colours: "/Ck Do" of a shared shape, else the path itself. */
void cb_circle(cb_pdf *p, HPDF_Page page, HPDF_REAL r, char paint, HPDF_REAL pad)
{
    int k = 0;
    while (k < p->n_shapes && !(p->shapes[k].r == r && p->shapes[k].paint == paint))
        k++;
    if (k == p->n_shapes)
        k = cb_shape_new(p, r, paint, pad);
    if (cb_shape_do(p, page, k) != 0) {
        cb_cs_circle(p, 0, 0, r);
        cb_cs_str(p, paint == 'f' ? "f\n" : "B\n");
    }
}
