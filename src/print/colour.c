/* Colour on the page: RGB, or DeviceCMYK with full black generation for
 * print shops; tints for node fills; lines in 100 % K in CMYK. */
#include <math.h>
#include "print/colour.h"
#include "print/content.h"

/* Clamped to 0..1: libharu rejects anything else, failing the whole page. */
static double cb_unit(double v)
{
    return v > 0 ? (v < 1 ? v : 1) : 0; /* NaN too becomes 0 */
}

void cb_render_cmyk(const double rgb[3], double cmyk[4])
{
    double r = cb_unit(rgb[0]), g = cb_unit(rgb[1]), b = cb_unit(rgb[2]);
    double hi = fmax(r, fmax(g, b)), k = 1 - hi;
    cmyk[3] = k;
    if (hi <= 0) {
        cmyk[0] = cmyk[1] = cmyk[2] = 0;
        return;
    }
    cmyk[0] = (hi - r) / hi;
    cmyk[1] = (hi - g) / hi;
    cmyk[2] = (hi - b) / hi;
}

cb_rgb cb_line_ink(const cb_pdf *p, cb_rgb c)
{
    static const cb_rgb black = {0, 0, 0};
    return p->cmyk ? black : c;
}

void cb_set_fill(cb_pdf *p, cb_rgb c)
{
    if (p->cmyk) {
        double v[4];
        cb_render_cmyk((const double[3]){c.r, c.g, c.b}, v);
        CB_OP(p, "k", (HPDF_REAL)v[0], (HPDF_REAL)v[1], (HPDF_REAL)v[2], (HPDF_REAL)v[3]);
    } else {
        CB_OP(p, "rg", (HPDF_REAL)c.r, (HPDF_REAL)c.g, (HPDF_REAL)c.b);
    }
}

void cb_set_stroke(cb_pdf *p, cb_rgb c, double width_pt)
{
    if (p->cmyk) {
        double v[4];
        cb_render_cmyk((const double[3]){c.r, c.g, c.b}, v);
        CB_OP(p, "K", (HPDF_REAL)v[0], (HPDF_REAL)v[1], (HPDF_REAL)v[2], (HPDF_REAL)v[3]);
    } else {
        CB_OP(p, "RG", (HPDF_REAL)c.r, (HPDF_REAL)c.g, (HPDF_REAL)c.b);
    }
    CB_OP(p, "w", (HPDF_REAL)width_pt);
}

void cb_render_icon_backdrop(const cb_pdf *p, const double *rgb, int type, double out[3])
{
    cb_rgb c = type >= 0 && p->theme ? cb_type_fill(p->theme, type, p->ink)
                                     : cb_sheet_fill(rgb ? cb_rgb_of(rgb) : cb_plain, p->ink);
    out[0] = c.r, out[1] = c.g, out[2] = c.b;
}
