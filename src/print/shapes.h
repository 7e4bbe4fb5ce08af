/* Shapes every page shares, as form XObjects (shapes.c). Internal to
 * src/print/. */
#ifndef CB_SHAPES_H
#define CB_SHAPES_H

#include "print/render.h"

/* Shape (R, PAINT, TYPE) on the page P is drawing, listed there the first
 * time (PAD: how far its line reaches past R); its page-local index, or
 * -1 when the page names CB_MAX_SHAPES shapes already (draw it inline). */
int cb_page_shape(cb_pdf *p, HPDF_REAL r, HPDF_REAL pad, char paint, int type);
/* "/Name Do" of the page's shape K; 0, or -1 for K < 0 (nothing written). */
int cb_shape_do(cb_pdf *p, int k);
/* A circle of radius R about the origin painted by PAINT ('f' fill, 'B'
 * fill and stroke, whose line reaches PAD past R) with the current
 * colours: "/Ck Do" of a shared shape, else the path itself. */
void cb_circle(cb_pdf *p, HPDF_REAL r, char paint, HPDF_REAL pad);

#endif
