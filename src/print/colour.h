/* Colour on the page (colour.c). Internal to src/print/. */
#ifndef CB_COLOUR_H
#define CB_COLOUR_H

#include "print/render.h"

/* Lines and text that are black or grey on screen: in CMYK they are 100 %
 * K, never a screened grey or a rich black. */
cb_rgb cb_line_ink(const cb_pdf *p, cb_rgb c);
/* The fill colour, and the stroke colour with the line width (pt), as
 * operators on P's page: RGB, or CMYK in P's CMYK mode. */
void cb_set_fill(cb_pdf *p, cb_rgb c);
void cb_set_stroke(cb_pdf *p, cb_rgb c, double width_pt);

#endif
