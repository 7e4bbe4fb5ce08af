/* Colour on the page (colour.c). Internal to src/print/. */
#ifndef CB_COLOUR_H
#define CB_COLOUR_H

#include "print/render.h"

typedef struct {
    double r, g, b;
} cb_rgb;

static const cb_rgb cb_white = {1.0, 1.0, 1.0};
static const cb_rgb cb_ink = {0.1, 0.1, 0.1};       /* edges and dots */
static const cb_rgb cb_plain = {0.5, 0.5, 0.5};     /* types without a theme */
static const cb_rgb cb_plain_ctr = {0.25, 0.25, 0.25};

/* The light tint a node of colour C is filled with. */
cb_rgb cb_tint(cb_rgb c);
/* A theme colour, each channel clamped to 0..1 (libharu rejects others). */
cb_rgb cb_rgb_of(const double v[3]);
/* Lines and text that are black or grey on screen: in CMYK they are 100 %
 * K, never a screened grey or a rich black. */
cb_rgb cb_line_ink(const cb_pdf *p, cb_rgb c);
/* The fill colour, and the stroke colour with the line width (pt), as
 * operators on P's page: RGB, or CMYK in P's CMYK mode. */
void cb_set_fill(cb_pdf *p, cb_rgb c);
void cb_set_stroke(cb_pdf *p, cb_rgb c, double width_pt);

#endif
