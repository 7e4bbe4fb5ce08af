/* Shapes every page shares, as form XObjects (shapes.c). Internal to
 * src/print/. */
#ifndef CB_SHAPES_H
#define CB_SHAPES_H

#include "print/render.h"

/* Records a failed libharu call in P: the page then ends with that error
 * (libharu's objects may be half made, so nothing more is asked of them). */
void cb_pdf_failed(cb_pdf *p);

/* Moves what P's buffer holds past START into form F (deflated when
 * DEFLATE) and files it as a shape with key R, PAINT and TYPE; returns its
 * index, or -1. */
int cb_form_add(cb_pdf *p, HPDF_Dict f, size_t start, HPDF_REAL r, char paint, int type,
                int deflate);
/* "/Name Do" of shape K, listing it in PAGE's resources first; 0, or -1
 * when libharu fails (nothing written). */
int cb_shape_do(cb_pdf *p, HPDF_Page page, int k);
/* A circle of radius R about the origin painted by PAINT ('f' fill, 'B'
 * fill and stroke, whose line reaches PAD past R) with the current
 * colours: "/Ck Do" of a shared shape, else the path itself. */
void cb_circle(cb_pdf *p, HPDF_Page page, HPDF_REAL r, char paint, HPDF_REAL pad);

#endif
