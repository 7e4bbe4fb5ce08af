/* A document's icons (pdf_icons.c), for the writer (pdf.c) and its pages
 * (pdf_pages.c). Internal to src/print/. */
#ifndef CB_PDF_ICONS_H
#define CB_PDF_ICONS_H

#include "print/render.h"

/* Notes that icon SLOT prints SIDE_PT points wide somewhere: it is
 * embedded at the size its largest print needs. */
void cb_pdf_icon_printed(cb_pdf *p, int slot, double side_pt);
/* The icons' pixels, at the sizes they print at, once every page is in. */
cb_status cb_pdf_icons_finish(cb_pdf *p, cb_error *err);
/* P's icon slots for its theme's centre, types and missions. */
cb_status cb_pdf_alloc_icons(cb_pdf *p, cb_error *err);
/* CB_OK when icon SLOT could be read (or there is none). */
cb_status cb_pdf_icon_ok(const cb_pdf *p, int slot, cb_error *err);
/* CB_OK when every icon GAME's sheets show could be read. */
cb_status cb_pdf_check_icons(const cb_pdf *p, const cb_game *game, cb_error *err);
void cb_pdf_free_icons(cb_pdf *p);

#endif
