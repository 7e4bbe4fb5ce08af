/* A document's icons: each theme icon embedded once per PDF, at the
 * resolution it prints at (from the theme's icon cache), flattened onto
 * its backdrop for CMYK, and checked before a game's pages use it. */
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
#include "print/render.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

/* CMYK: the icon composited onto its backdrop BG (RGB 0..1) and turned
 * into DeviceCMYK pixels, so it needs no soft mask and no transparency. */
static void cb_pdf_flatten_cmyk(const cb_icon *icon, const double bg[3], unsigned char *out)
{
    size_t n = (size_t)icon->w * icon->h;
    for (size_t i = 0; i < n; i++) {
        const unsigned char *px = icon->rgba + 4 * i;
        if (i > 0 && memcmp(px, px - 4, 4) == 0) { /* flat areas: the same again */
            memcpy(out + 4 * i, out + 4 * (i - 1), 4);
            continue;
        }
        double a = px[3] / 255.0, rgb[3], cmyk[4];
        for (int c = 0; c < 3; c++)
            rgb[c] = a * (px[c] / 255.0) + (1 - a) * bg[c];
        cb_render_cmyk(rgb, cmyk);
        for (int c = 0; c < 4; c++)
            out[4 * i + (size_t)c] = (unsigned char)lround(cmyk[c] * 255.0);
    }
}

/* A flattened CMYK pixel repeats every 4 bytes, which runs can't see:
 * those take level 1 (the theme's cache keeps RGB icons and masks deflated
 * by runs, which pack them better than libharu's level 6 in a quarter of
 * the time). */
#define CB_ICON_LEVEL 1

/* Icons are embedded at this resolution where printed largest (print
 * shops ask 300 dpi), or at the file's own when that is less: a 256-pixel
 * icon printed 8 mm across carried 3.4 times the pixels a printer uses.
 * Sizes go up to the next of a few classes, half again apart: a server
 * asked for any paper keeps a few sizes of each icon, not hundreds, and
 * boards whose nodes differ by a few per cent (a deck's games, or one
 * game alone) embed the same pixels. */
#define CB_ICON_DPI 300.0
static const uint32_t icon_sizes[] = {16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768,
                                      1024, 1536, 2048, 3072, 4096};

/* Makes icon SLOT's image objects (decoded when the document began): RGB
 * image plus its alpha as a DeviceGray soft mask (left out for fully opaque
 * icons, which need none); in CMYK mode one DeviceCMYK image flattened onto
 * its backdrop. Their pixels come at the end (cb_pdf_icons_finish), when
 * the size the icon is printed at is known. */
HPDF_STATUS cb_pdf_icon_embed(cb_pdf *p, int slot)
{
    cb_pdf_icon *ic = &p->icons[slot];
    if (ic->image)
        return HPDF_OK;
    if (ic->st != CB_OK || ic->w < 1 || ic->h < 1)
        return HPDF_INVALID_IMAGE; /* not decoded: pages never name it */
    unsigned w = (unsigned)ic->w, h = (unsigned)ic->h;
    HPDF_Image image =
        cb_hpdf_image_new(p->doc, w, h, p->cmyk ? HPDF_CS_DEVICE_CMYK : HPDF_CS_DEVICE_RGB);
    if (!image)
        return HPDF_INVALID_IMAGE;
    if (!p->cmyk && !ic->opaque) {
        HPDF_Image mask = cb_hpdf_image_new(p->doc, w, h, HPDF_CS_DEVICE_GRAY);
        if (!mask)
            return HPDF_INVALID_IMAGE;
        CB_HPDF(HPDF_Image_AddSMask(image, mask));
        ic->mask = mask;
    }
    ic->image = image;
    return HPDF_OK;
}

/* Notes that icon SLOT is printed SIDE_PT pt on its longer side. */
void cb_pdf_icon_printed(cb_pdf *p, int slot, double side_pt)
{
    if (slot >= 0 && side_pt > p->icons[slot].max_pt)
        p->icons[slot].max_pt = side_pt;
}

/* IMAGE's size in pixels and its pixels (deflated already when DEFLATED). */
static HPDF_STATUS cb_pdf_image_fill(cb_pdf *p, HPDF_Image image, uint32_t w, uint32_t h,
                                     const void *data, size_t len, int deflated)
{
    CB_HPDF(HPDF_Dict_AddNumber(image, "Width", (HPDF_INT32)w));
    CB_HPDF(HPDF_Dict_AddNumber(image, "Height", (HPDF_INT32)h));
    if (deflated)
        return cb_hpdf_stream_put(image, data, len, 1);
    return cb_pdf_put_deflated(p, image, data, len, CB_ICON_LEVEL, Z_DEFAULT_STRATEGY);
}

/* Fills in the pixels of every icon a page named, each at CB_ICON_DPI
 * where the document prints it largest: the theme's cache has them made
 * already when another document asked for that size. */
cb_status cb_pdf_icons_finish(cb_pdf *p, cb_error *err)
{
    for (size_t i = 0; i < p->n_icons; i++) {
        cb_pdf_icon *ic = &p->icons[i];
        if (!ic->image)
            continue;
        double px = ic->max_pt / 72.0 * CB_ICON_DPI;
        uint32_t side = 0; /* the file's */
        for (size_t k = 0; k < sizeof icon_sizes / sizeof icon_sizes[0] && !side; k++)
            if (px <= icon_sizes[k] + 1e-6)
                side = icon_sizes[k];
        const cb_icon_ready *r;
        cb_status st = cb_icon_cache_ready(p->icache, ic->path, side, p->cmyk, &r, err);
        if (st != CB_OK)
            return st;
        HPDF_STATUS hs;
        if (p->cmyk) {
            size_t n = (size_t)r->w * r->h;
            unsigned char *cmyk = malloc(n * 4);
            if (!cmyk)
                return cb_fail(err, CB_ERR_NOMEM, "PDF: out of memory embedding an icon");
            cb_pdf_flatten_cmyk(r->pixels, ic->bg, cmyk);
            hs = cb_pdf_image_fill(p, ic->image, r->w, r->h, cmyk, n * 4, 0);
            free(cmyk);
        } else {
            hs = cb_pdf_image_fill(p, ic->image, r->w, r->h, r->rgb, r->rgb_len, 1);
            if (hs == HPDF_OK && ic->mask)
                hs = cb_pdf_image_fill(p, ic->mask, r->w, r->h, r->alpha, r->alpha_len, 1);
        }
        if (hs != HPDF_OK)
            return cb_hpdf_fail(p, hs, err, "embedding an icon");
    }
    return CB_OK;
}

/* The slot for PATH drawn on node type TYPE (-1: a mission or the centre)
 * of colour RGB (NULL: none): a new one the first time PATH is seen (in
 * CMYK, once per backdrop it is flattened onto), decoded now; a file that
 * cannot be decoded keeps its error for the first page that would show it.
 * *out is -1 for a missing path (nothing to draw). */
static cb_status cb_pdf_icon_for(cb_pdf *p, const char *path, const double *rgb, int type,
                                 int *out)
{
    *out = -1;
    if (!path || !*path)
        return CB_OK;
    double bg[3] = {1, 1, 1};
    if (p->cmyk)
        cb_render_icon_backdrop(p, rgb, type, bg);
    for (size_t i = 0; i < p->n_icons; i++)
        if (strcmp(p->icons[i].path, path) == 0 &&
            memcmp(p->icons[i].bg, bg, sizeof bg) == 0) {
            *out = (int)i;
            return CB_OK;
        }
    cb_pdf_icon *ic = &p->icons[p->n_icons];
    memset(ic, 0, sizeof *ic);
    memcpy(ic->bg, bg, sizeof bg);
    ic->path = path;
    uint32_t w = 0, h = 0;
    ic->st = cb_icon_cache_source(p->icache, path, &w, &h, &ic->opaque, &ic->err);
    if (ic->st == CB_ERR_NOMEM)
        return CB_ERR_NOMEM;
    ic->w = w;
    ic->h = h;
    *out = (int)p->n_icons++;
    return CB_OK;
}

/* Every icon the theme names, decoded once (pages are drawn on any thread
 * and read this table only); a broken centre icon fails the document now,
 * a broken type or mission icon the first game that shows it. */
cb_status cb_pdf_alloc_icons(cb_pdf *p, cb_error *err)
{
    const cb_theme *t = p->theme;
    p->center_icon = -1;
    if (!t)
        return CB_OK;
    p->icache = t->icon_cache;
    if (!p->icache) {
        if (!(p->icache = cb_icon_cache_new()))
            return cb_fail(err, CB_ERR_NOMEM, "PDF: out of memory");
        p->own_icache = 1;
    }
    size_t cap = t->n_types + t->n_missions + 1;
    p->icons = calloc(cap, sizeof *p->icons);
    p->type_icon = malloc((t->n_types + 1) * sizeof *p->type_icon);
    p->mission_icon = malloc((t->n_missions + 1) * sizeof *p->mission_icon);
    if (!p->icons || !p->type_icon || !p->mission_icon)
        return cb_fail(err, CB_ERR_NOMEM, "PDF: out of memory");
    cb_status st = cb_pdf_icon_for(p, t->center.icon, t->center.rgb, -1, &p->center_icon);
    for (size_t i = 0; st == CB_OK && i < t->n_types; i++)
        st = cb_pdf_icon_for(p, t->types[i].icon, t->types[i].rgb, (int)i, &p->type_icon[i]);
    for (size_t i = 0; st == CB_OK && i < t->n_missions; i++)
        st = cb_pdf_icon_for(p, t->missions[i].icon, t->missions[i].rgb, -1,
                             &p->mission_icon[i]);
    if (st != CB_OK)
        return cb_fail(err, CB_ERR_NOMEM, "PDF: out of memory decoding the icons");
    if (p->center_icon >= 0 && p->icons[p->center_icon].st != CB_OK) {
        *err = p->icons[p->center_icon].err;
        return p->icons[p->center_icon].st;
    }
    return CB_OK;
}

/* The error of icon SLOT (-1: none) if it could not be decoded. */
cb_status cb_pdf_icon_ok(const cb_pdf *p, int slot, cb_error *err)
{
    if (slot < 0 || p->icons[slot].st == CB_OK)
        return CB_OK;
    *err = p->icons[slot].err;
    return p->icons[slot].st;
}

/* Whether every icon GAME's boards show could be decoded (the first error
 * otherwise). Reads P only. */
cb_status cb_pdf_check_icons(const cb_pdf *p, const cb_game *game, cb_error *err)
{
    if (!p->theme)
        return CB_OK;
    cb_status st = CB_OK;
    for (size_t s = 0; st == CB_OK && s < game->n_sheets; s++) {
        const cb_board *b = game->sheets[s];
        for (size_t i = 0; st == CB_OK && i < b->n_nodes; i++) {
            const cb_node *n = &b->nodes[i];
            if (i == b->center || n->kind == CB_KIND_CENTER)
                continue;
            if (n->kind == CB_KIND_NODE && n->type >= 0)
                st = cb_pdf_icon_ok(p, p->type_icon[n->type], err);
            else if (n->kind == CB_KIND_START && n->mission >= 0)
                st = cb_pdf_icon_ok(p, p->mission_icon[n->mission], err);
        }
    }
    return st;
}

/* Frees the icon table (and the icon cache when it is the document's). */
void cb_pdf_free_icons(cb_pdf *p)
{
    if (p->own_icache)
        cb_icon_cache_free(p->icache);
    p->icache = NULL;
    p->own_icache = 0;
    free(p->icons);
    free(p->type_icon);
    free(p->mission_icon);
    free((void *)p->widths);
    p->icons = NULL;
    p->type_icon = p->mission_icon = NULL;
    p->widths = NULL;
}
