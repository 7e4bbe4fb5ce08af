/* Shapes every page shares: circles and whole nodes as form XObjects, so a
 * page names each in a few bytes (see cb_shape in render.h). A page lists
 * the shapes it names by their key, in first-use order; the document makes
 * each form once (cb_shape_form, when the page goes in). */
#include <stdlib.h>
#include "print/content.h"
#include "print/shapes.h"

int cb_page_shape(cb_pdf *p, HPDF_REAL r, HPDF_REAL pad, char paint, int type)
{
    cb_page_rec *pg = &p->page;
    for (int k = 0; k < pg->n_shapes; k++)
        if (pg->shapes[k].paint == paint && pg->shapes[k].type == type && pg->shapes[k].r == r)
            return k;
    if (pg->n_shapes == CB_MAX_SHAPES || p->cs.st != HPDF_OK)
        return -1;
    if (!pg->shapes && !(pg->shapes = malloc(CB_MAX_SHAPES * sizeof *pg->shapes))) {
        p->cs.st = HPDF_FAILD_TO_ALLOC_MEM;
        return -1;
    }
    pg->shapes[pg->n_shapes] = (cb_shape){r, pad, paint, type, NULL, 0};
    return pg->n_shapes++;
}

int cb_shape_do(cb_pdf *p, int k)
{
    if (k < 0)
        return -1;
    cb_cs_do(p, p->page.shapes[k].paint == 'N' ? 'N' : 'C', k + 1);
    return 0;
}

void cb_circle(cb_pdf *p, HPDF_REAL r, char paint, HPDF_REAL pad)
{
    if (cb_shape_do(p, cb_page_shape(p, r, pad, paint, -1)) != 0) {
        cb_cs_circle(p, 0, 0, r);
        cb_cs_str(p, paint == 'f' ? "f\n" : "B\n");
    }
}
