/* PDF output: every sheet of a game as one page (drawn by render.c), with
 * libharu. Icons are decoded once per theme (its icon cache), embedded
 * once per document at the resolution they print at, and reused on every
 * page; the file carries no clock unless the options give a
 * source date (the CLI takes $SOURCE_DATE_EPOCH), so the same game gives the
 * same bytes.
 *
 * Pages are drawn into page records (cb_page_rec: content deflated, the
 * resources named) on any thread (cb_pdf_prepare), and only then put into
 * the document on the writer's thread: into libharu's document, or, for a
 * writer to a file (cb_pdf_begin_file), straight to the file through
 * pdfout.c, with the font, icons and shapes copied from libharu's document
 * at the end. */
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

/* Records the first error only: later ones are usually consequences. */
void HPDF_STDCALL cb_hpdf_on_error(HPDF_STATUS error_no, HPDF_STATUS detail_no,
                                          void *user_data)
{
    cb_hpdf_errors *e = user_data;
    if (e->error_no == 0) {
        e->error_no = error_no;
        e->detail_no = detail_no;
    }
}

/* libharu's allocations, watched in the calling thread: when one fails,
 * libharu does not always call the error handler and may report a later,
 * unrelated error instead; any error after a failed allocation is then
 * reported as running out of memory.
 *
 * Nor does libharu 2.3.0 survive every failed allocation: its TrueType
 * font writes a font descriptor it has just freed when HPDF_Xref_Add fails
 * while the document is saved (a crash at 2 of the 15,000 allocation
 * points of a game), as HPDF_Page_TextOut does. So libharu never sees a
 * failure while a reserve lasts: a failed allocation is served from it,
 * the document is marked as out of memory, and cb_pdf_save (which every
 * document ends with) reports it instead of returning the file. */
static _Thread_local int hpdf_alloc_failed;
#define CB_HPDF_RESERVE (64 * 1024)
static _Thread_local _Alignas(16) unsigned char hpdf_reserve[CB_HPDF_RESERVE];
static _Thread_local size_t hpdf_reserve_used, hpdf_reserve_live;

static void *HPDF_STDCALL cb_hpdf_alloc(HPDF_UINT size)
{
    void *m = malloc(size);
    if (!m) {
        hpdf_alloc_failed = 1;
        size_t need = ((size_t)size + 15) & ~(size_t)15;
        if (need <= CB_HPDF_RESERVE - hpdf_reserve_used) {
            m = hpdf_reserve + hpdf_reserve_used;
            hpdf_reserve_used += need;
            hpdf_reserve_live++;
        }
    }
    return m;
}

static void HPDF_STDCALL cb_hpdf_dealloc(void *m)
{
    unsigned char *c = m;
    if (c >= hpdf_reserve && c < hpdf_reserve + CB_HPDF_RESERVE) {
        /* from the reserve: all of it is free again with its last block */
        if (--hpdf_reserve_live == 0)
            hpdf_reserve_used = 0;
        return;
    }
    free(m);
}

HPDF_Doc cb_hpdf_new(cb_pdf *p)
{
    hpdf_alloc_failed = 0;
    return HPDF_NewEx(cb_hpdf_on_error, cb_hpdf_alloc, cb_hpdf_dealloc, 0, &p->herr);
}

int cb_hpdf_out_of_memory(const cb_pdf *p)
{
    /* fopen's own allocation failing shows as a file open error with
     * errno in the detail */
    return p->herr.error_no == HPDF_FAILD_TO_ALLOC_MEM || hpdf_alloc_failed ||
           (p->herr.error_no == HPDF_FILE_OPEN_ERROR && p->herr.detail_no == ENOMEM);
}

/* Names the error the handler saw first, else the status a call returned
 * (some libharu calls fail without calling the handler). */
cb_status cb_hpdf_fail(const cb_pdf *p, HPDF_STATUS st, cb_error *err, const char *what)
{
    HPDF_STATUS no = p->herr.error_no ? p->herr.error_no : st;
    /* zlib's Z_MEM_ERROR (-4), from libharu's own deflating, too */
    int zlib_oom = no == HPDF_ZLIB_ERROR && (long)p->herr.detail_no == -4;
    if (no == HPDF_FAILD_TO_ALLOC_MEM || zlib_oom || cb_hpdf_out_of_memory(p))
        return cb_fail(err, CB_ERR_NOMEM, "PDF: out of memory %s", what);
    return cb_fail(err, CB_ERR_INTERNAL, "PDF: libharu error 0x%04lX (detail %lu) %s",
                   (unsigned long)no, (unsigned long)p->herr.detail_no, what);
}

/* ---- icons ------------------------------------------------------------- */

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
static void cb_pdf_icon_printed(cb_pdf *p, int slot, double side_pt)
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
static cb_status cb_pdf_icons_finish(cb_pdf *p, cb_error *err)
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
static cb_status cb_pdf_alloc_icons(cb_pdf *p, cb_error *err)
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
static cb_status cb_pdf_icon_ok(const cb_pdf *p, int slot, cb_error *err)
{
    if (slot < 0 || p->icons[slot].st == CB_OK)
        return CB_OK;
    *err = p->icons[slot].err;
    return p->icons[slot].st;
}

/* Whether every icon GAME's boards show could be decoded (the first error
 * otherwise). Reads P only. */
static cb_status cb_pdf_check_icons(const cb_pdf *p, const cb_game *game, cb_error *err)
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
static void cb_pdf_free_icons(cb_pdf *p)
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

/* ---- pages into the document ------------------------------------------ */

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
    if (p->out && !(sh.id = cb_pdfout_reserve(p->out)))
        return NULL;
    p->shapes[p->n_shapes] = sh;
    return &p->shapes[p->n_shapes++];
}

/* "[ X0 Y0 X1 Y1 ]" as libharu writes a box. */
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
static HPDF_STATUS cb_pdf_stream_page(cb_pdf *p, const cb_page_rec *rec)
{
    cb_pdfout *o = p->out;
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

HPDF_STATUS cb_pdf_put_page(cb_pdf *p, const cb_page_rec *rec)
{
    for (int k = 0; k < rec->n_icons; k++)
        cb_pdf_icon_printed(p, rec->icons[k], rec->icon_pt[k]);
    if (p->out)
        return cb_pdf_stream_page(p, rec);
    HPDF_Page page = HPDF_AddPage(p->doc);
    if (!page)
        return cb_pdf_why(p, HPDF_FAILD_TO_ALLOC_MEM);
    CB_HPDF(HPDF_Page_SetWidth(page, rec->w));
    CB_HPDF(HPDF_Page_SetHeight(page, rec->h));
    if (rec->boxes) {
        if (cb_hpdf_page_set_box(page, "BleedBox", rec->bleed) != HPDF_OK ||
            cb_hpdf_page_set_box(page, "TrimBox", rec->trim) != HPDF_OK)
            return cb_pdf_why(p, HPDF_FAILD_TO_ALLOC_MEM);
    }
    if (rec->font) {
        const char *name = HPDF_Page_GetLocalFontName(page, p->font);
        if (!name || strcmp(name, "F1") != 0) /* the name the content uses */
            return cb_pdf_why(p, HPDF_PAGE_FONT_NOT_FOUND);
    }
    HPDF_Dict xo = rec->n_icons || rec->n_shapes ? cb_hpdf_page_xobjects(page) : NULL;
    if ((rec->n_icons || rec->n_shapes) && !xo)
        return cb_pdf_why(p, HPDF_FAILD_TO_ALLOC_MEM);
    char name[32];
    for (int k = 0; k < rec->n_icons; k++) {
        CB_HPDF(cb_pdf_icon_embed(p, rec->icons[k]));
        snprintf(name, sizeof name, "X%d", k + 1);
        CB_HPDF(HPDF_Dict_Add(xo, name, p->icons[rec->icons[k]].image));
    }
    for (int k = 0; k < rec->n_shapes; k++) {
        const cb_shape *sh = cb_pdf_shape(p, &rec->shapes[k]);
        if (!sh)
            return cb_pdf_why(p, p->cs.st != HPDF_OK ? p->cs.st : HPDF_FAILD_TO_ALLOC_MEM);
        snprintf(name, sizeof name, "%c%d", rec->shapes[k].paint == 'N' ? 'N' : 'C', k + 1);
        CB_HPDF(HPDF_Dict_Add(xo, name, sh->form));
    }
    CB_HPDF(cb_pdf_mark_glyphs(p, rec));
    return cb_hpdf_stream_put(cb_hpdf_page_contents(page), rec->data, rec->len, 1);
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

/* ---- document ---------------------------------------------------------- */

cb_status cb_source_date_parse(const char *text, long long *seconds, cb_error *err)
{
    long long t = 0;
    const char *c = text;
    for (; *c >= '0' && *c <= '9' && t <= 253402300799LL; c++)
        t = t * 10 + (*c - '0');
    if (c == text || *c || t > 253402300799LL) /* up to 9999-12-31 */
        return cb_fail(err, CB_ERR_USAGE,
                       "SOURCE_DATE_EPOCH: \"%.40s\" is not a count of seconds", text);
    *seconds = t;
    return CB_OK;
}

/* SECONDS after 1970-01-01 as a PDF date in UTC. */
static int pdf_date(long long seconds, HPDF_Date *date)
{
    time_t t = (time_t)seconds;
    struct tm tm;
    if (!gmtime_r(&t, &tm))
        return -1;
    memset(date, 0, sizeof *date);
    date->year = tm.tm_year + 1900;
    date->month = tm.tm_mon + 1;
    date->day = tm.tm_mday;
    date->hour = tm.tm_hour;
    date->minutes = tm.tm_min;
    date->seconds = tm.tm_sec;
    date->ind = 'Z';
    return 0;
}

cb_status cb_pdf_setup(cb_pdf *p, const cb_render_options *opt, cb_error *err)
{
    const char *font_path = opt->font_path;
    HPDF_Date date;
    int dated = opt->dated;
    if (dated && pdf_date(opt->source_date, &date) != 0)
        return cb_fail(err, CB_ERR_USAGE, "SOURCE_DATE_EPOCH: %lld is out of range",
                       opt->source_date);
    cb_status st;
    HPDF_STATUS hs = HPDF_SetCompressionMode(p->doc, HPDF_COMP_ALL);
    if (hs != HPDF_OK)
        return cb_hpdf_fail(p, hs, err, "turning on compression");
    if (dated && ((hs = HPDF_SetInfoDateAttr(p->doc, HPDF_INFO_CREATION_DATE, date)) != HPDF_OK ||
                  (hs = HPDF_SetInfoDateAttr(p->doc, HPDF_INFO_MOD_DATE, date)) != HPDF_OK))
        return cb_hpdf_fail(p, hs, err, "setting the dates from SOURCE_DATE_EPOCH");
    if ((hs = HPDF_UseUTFEncodings(p->doc)) != HPDF_OK ||
        (hs = HPDF_SetCurrentEncoder(p->doc, "UTF-8")) != HPDF_OK)
        return cb_hpdf_fail(p, hs, err, "turning on UTF-8");

    /* libharu only says "file open error", and trusts the file's offsets:
     * the file is read and checked here (once per process), and libharu
     * loads it from memory. */
    const unsigned char *font_data;
    size_t font_len;
    const char *font_key;
    st = cb_font_shared(font_path, &font_data, &font_len, &font_key, err);
    if (st != CB_OK)
        return st;
    snprintf(p->font_key, sizeof p->font_key, "%s", font_key);
    const char *name = cb_hpdf_load_ttf(p->doc, font_data, font_len);
    p->font = name ? HPDF_GetFont(p->doc, name, "UTF-8") : NULL;
    if (!p->font && cb_hpdf_out_of_memory(p))
        return cb_fail(err, CB_ERR_NOMEM, "font %s: out of memory loading it", font_path);
    if (!p->font)
        return cb_fail(err, CB_ERR_DATA,
                       "font %s: not a usable TrueType font (libharu error 0x%04lX)",
                       font_path, (unsigned long)p->herr.error_no);
    if ((hs = cb_hpdf_fix_tounicode(p->font)) != HPDF_OK)
        return cb_hpdf_fail(p, hs, err, "writing the font's ToUnicode map");
    return CB_OK;
}

cb_status cb_pdf_save(cb_pdf *p, unsigned char **pdf, size_t *len, cb_error *err)
{
    HPDF_STATUS hs;
    if ((hs = HPDF_SaveToStream(p->doc)) != HPDF_OK || (hs = HPDF_ResetStream(p->doc)) != HPDF_OK)
        return cb_hpdf_fail(p, hs, err, "writing the document");
    HPDF_UINT32 size = HPDF_GetStreamSize(p->doc), got = size;
    unsigned char *buf = malloc(size ? size : 1);
    if (!buf)
        return cb_fail(err, CB_ERR_NOMEM, "PDF: out of memory for %lu bytes",
                       (unsigned long)size);
    /* Reading the last byte may report "end of stream": that is success. */
    hs = HPDF_ReadFromStream(p->doc, buf, &got);
    if ((hs != HPDF_OK && hs != HPDF_STREAM_EOF) || got != size || size == 0) {
        free(buf);
        return cb_hpdf_fail(p, hs, err, "reading the document back");
    }
    if (hpdf_alloc_failed) { /* served from the reserve: libharu never knew */
        free(buf);
        return cb_fail(err, CB_ERR_NOMEM, "PDF: out of memory writing the document");
    }
    *pdf = buf;
    *len = size;
    return CB_OK;
}

struct cb_pdf_writer {
    cb_pdf p;
    size_t pages;        /* boards added */
    size_t *sheet_page;  /* the page each sheet of the last game landed on */
    size_t sheet_cap;
    size_t rules_pages;  /* rules pages added */
    unsigned char *seen; /* per theme type: on a board since the last rules page */
    int route_hops;      /* the route length of every game since then (goals
                            count from it); 0 none yet, -1 they differ */
    int last_shared, last_players;
    double last_w, last_h; /* the last game's board paper */
    char *name;          /* the file pages stream to (cb_pdf_begin_file) */
};

cb_status cb_pdf_begin(const cb_theme *theme, const cb_render_options *opt,
                       cb_pdf_writer **out, cb_error *err)
{
    *out = NULL;
    if (!opt || !opt->font_path || !*opt->font_path)
        return cb_fail(err, CB_ERR_USAGE, "font: no TrueType font file given");
    if (opt->rules < CB_RULES_PAGE_NONE || opt->rules > CB_RULES_PAGE_FIRST)
        return cb_fail_option(err, "rules", "%d is not none, last or first", opt->rules);
    cb_pdf_writer *w = calloc(1, sizeof *w);
    if (!w)
        return cb_fail(err, CB_ERR_NOMEM, "PDF: out of memory creating the document");
    w->p.theme = theme;
    w->p.ink = opt->ink_friendly != 0;
    w->p.cmyk = opt->cmyk != 0;
    w->p.opt = *opt;
    w->p.shop = opt->bleed != 0 || opt->crop_marks || opt->cmyk || opt->sheet_w != 0 ||
                opt->sheet_h != 0;
    w->p.center_icon = -1;
    /* The print-shop values are checked now, on a board of the smallest
     * size; whether a board fits a sheet is known when it comes. */
    cb_status lst = cb_page_layout_make(10, 10, opt, &w->p.layout, err);
    if (lst != CB_OK) {
        free(w);
        return lst;
    }
    w->p.doc = cb_hpdf_new(&w->p);
    if (!w->p.doc) {
        free(w);
        return cb_fail(err, CB_ERR_NOMEM, "PDF: out of memory creating the document");
    }
    cb_status st = cb_pdf_setup(&w->p, opt, err);
    if (st == CB_OK)
        st = cb_pdf_alloc_icons(&w->p, err);
    uint16_t *widths = st == CB_OK ? malloc(256 * sizeof *widths) : NULL;
    w->p.font_used = st == CB_OK ? calloc(65536 / 64, sizeof *w->p.font_used) : NULL;
    if (st == CB_OK && (!widths || !w->p.font_used))
        st = cb_fail(err, CB_ERR_NOMEM, "PDF: out of memory");
    for (unsigned c = 0; widths && c < 256; c++) /* the common ones, looked up once */
        widths[c] = (uint16_t)cb_hpdf_char_width(w->p.font, c);
    w->p.widths = widths;
    if (st != CB_OK) {
        cb_pdf_writer_free(w);
        return st;
    }
    *out = w;
    return CB_OK;
}

/* Makes the layout for board B's paper when it differs from the current
 * one; boards of another size start a new page. */
static cb_status cb_pdf_layout_for(cb_pdf *p, const cb_board *b, cb_error *err)
{
    if (p->layout_w == b->page_w && p->layout_h == b->page_h)
        return CB_OK;
    cb_status st = cb_page_layout_make(b->page_w, b->page_h, &p->opt, &p->layout, err);
    if (st != CB_OK)
        return st;
    p->layout_w = b->page_w;
    p->layout_h = b->page_h;
    p->sheet = 0;
    return CB_OK;
}

/* Marks in SEEN each theme type a node of GAME has. */
static void mark_types(const cb_theme *t, const cb_game *game, unsigned char *seen)
{
    for (size_t s = 0; s < game->n_sheets; s++) {
        const cb_board *b = game->sheets[s];
        for (size_t i = 0; i < b->n_nodes; i++) {
            const cb_node *n = &b->nodes[i];
            if (i != b->center && n->kind == CB_KIND_NODE && n->type >= 0 &&
                (size_t)n->type < t->n_types)
                seen[n->type] = 1;
        }
    }
}

/* The missions GAME's starts show, in SEEN[m]. */
static void mark_missions(const cb_theme *t, const cb_game *game, unsigned char *seen)
{
    for (size_t s = 0; s < game->n_sheets; s++) {
        const cb_board *b = game->sheets[s];
        for (size_t i = 0; i < b->n_nodes; i++) {
            const cb_node *n = &b->nodes[i];
            if (n->kind == CB_KIND_START && n->mission >= 0 && (size_t)n->mission < t->n_missions)
                seen[n->mission] = 1;
        }
    }
}

cb_status cb_pdf_add_rules(cb_pdf_writer *w, const cb_game *game, cb_error *err)
{
    cb_pdf *p = &w->p;
    const cb_theme *t = p->theme;
    if (!t)
        return cb_fail(err, CB_ERR_USAGE, "rules page: no theme, so no rules or legend");
    cb_status st = CB_OK;
    if (game) {
        st = cb_sheet_check_game(game, t, "PDF", err);
        if (st != CB_OK)
            return st;
    } else if (w->last_w <= 0) {
        return cb_fail(err, CB_ERR_USAGE, "rules page: no game added yet");
    }
    unsigned char *present = calloc(t->n_types + t->n_missions + 1, 1);
    if (!present)
        return cb_fail(err, CB_ERR_NOMEM, "PDF: out of memory");
    if (game)
        mark_types(t, game, present), mark_missions(t, game, present + t->n_types);
    else if (w->seen)
        memcpy(present, w->seen, t->n_types);
    if (!game) /* a deck's rules: every mission */
        memset(present + t->n_types, 1, t->n_missions);
    /* a deck's page gives its games' numbers when they are all the same */
    int hops = !cb_theme_counts_hops(t) ? 0
               : game                    ? cb_game_route_hops(game)
               : w->route_hops > 0       ? w->route_hops
                                         : 0;
    if (hops < 0) {
        free(present);
        return cb_fail(err, CB_ERR_NOMEM, "PDF: out of memory");
    }
    /* the pages before it go in first: the icons they embed are the ones
     * the rules page's example node may use */
    HPDF_STATUS fs = cb_render_finish(p);
    if (fs == HPDF_OK)
        fs = cb_pdf_flush_pages(p);
    if (fs != HPDF_OK)
        st = cb_hpdf_fail(p, fs, err, "writing the pages before the rules page");
    /* the icons of the legend: the types shown and every mission */
    for (size_t i = 0; st == CB_OK && i < t->n_types; i++)
        if (present[i] && (st = cb_pdf_icon_ok(p, p->type_icon[i], err)) == CB_OK &&
            p->type_icon[i] >= 0 && (fs = cb_pdf_icon_embed(p, p->type_icon[i])) != HPDF_OK)
            st = cb_hpdf_fail(p, fs, err, "embedding an icon");
    for (size_t i = 0; st == CB_OK && i < t->n_missions; i++)
        if (present[t->n_types + i] && (st = cb_pdf_icon_ok(p, p->mission_icon[i], err)) == CB_OK &&
            p->mission_icon[i] >= 0 && (fs = cb_pdf_icon_embed(p, p->mission_icon[i])) != HPDF_OK)
            st = cb_hpdf_fail(p, fs, err, "embedding an icon");
    cb_board paper = {0};
    paper.page_w = game ? game->sheets[0]->page_w : w->last_w;
    paper.page_h = game ? game->sheets[0]->page_h : w->last_h;
    if (st == CB_OK)
        st = cb_pdf_layout_for(p, &paper, err);
    if (st == CB_OK) {
        /* N-up: the rules get a whole sheet of their own, not a board's slot */
        cb_page_layout saved = p->layout;
        double pw = paper.page_w, ph = paper.page_h;
        if (p->opt.sheet_w > 0 || p->opt.sheet_h > 0) {
            cb_page_layout one;
            memset(&one, 0, sizeof one);
            pw = one.page_w = one.cell_w = saved.page_w;
            ph = one.page_h = one.cell_h = saved.page_h;
            one.trim[2] = one.bleed[2] = pw;
            one.trim[3] = one.bleed[3] = ph;
            one.cols = one.rows = 1;
            p->layout = one;
        }
        HPDF_STATUS hs = cb_render_rules(p, pw, ph, game ? game->shared : w->last_shared,
                                         game ? game->players : w->last_players, hops, present);
        if (hs == HPDF_OK)
            hs = cb_render_finish(p);
        if (hs == HPDF_OK)
            hs = cb_pdf_flush_pages(p);
        p->layout = saved;
        if (hs != HPDF_OK)
            st = cb_hpdf_fail(p, hs, err, "drawing the rules page");
        w->rules_pages++;
    }
    free(present);
    if (st == CB_OK && w->seen)
        memset(w->seen, 0, t->n_types);
    if (st == CB_OK)
        w->route_hops = 0;
    return st;
}

/* What must hold before GAME's pages are drawn with P's options: a sane
 * game, clear of the safe area, on paper the layout takes, its icons
 * decoded. Reads P only. */
static cb_status cb_pdf_check(const cb_pdf *p, const cb_game *game, cb_error *err)
{
    cb_status st = cb_sheet_check_game(game, p->theme, "PDF", err);
    if (st == CB_OK)
        st = cb_sheet_check_safe(game, p->opt.safe_area, err);
    for (size_t s = 0; st == CB_OK && s < game->n_sheets; s++)
        if (s == 0 || game->sheets[s]->page_w != game->sheets[s - 1]->page_w ||
            game->sheets[s]->page_h != game->sheets[s - 1]->page_h) {
            cb_page_layout l;
            st = cb_page_layout_make(game->sheets[s]->page_w, game->sheets[s]->page_h, &p->opt,
                                     &l, err);
        }
    if (st == CB_OK)
        st = cb_pdf_check_icons(p, game, err);
    return st;
}

/* A game's pages drawn away from the document (cb_pdf_prepare). */
struct cb_pdf_prepared {
    cb_page_rec *pages;
    size_t n_pages;
    size_t *sheet_page; /* per sheet: its page among PAGES, 1-based */
};

/* A drawing thread's state: a document of its own that shares the
 * writer's read-only parts. */
struct cb_pdf_scratch {
    cb_pdf pdf;
};

void cb_pdf_prepared_free(cb_pdf_prepared *pp)
{
    if (!pp)
        return;
    for (size_t i = 0; i < pp->n_pages; i++)
        cb_page_rec_free(&pp->pages[i]);
    free(pp->pages);
    free(pp->sheet_page);
    free(pp);
}

void cb_pdf_scratch_free(cb_pdf_scratch *scratch)
{
    if (!scratch)
        return;
    cb_render_free(&scratch->pdf);
    free(scratch);
}

cb_status cb_pdf_prepare(const cb_pdf_writer *w, cb_pdf_scratch **scratch, const cb_game *game,
                         cb_pdf_prepared **out, cb_error *err)
{
    const cb_pdf *src = &w->p;
    *out = NULL;
    cb_status st = cb_pdf_check(src, game, err);
    for (size_t s = 0; st == CB_OK && s < game->n_sheets; s++) {
        cb_page_layout l;
        st = cb_page_layout_make(game->sheets[s]->page_w, game->sheets[s]->page_h, &src->opt,
                                 &l, err);
        if (st == CB_OK && l.cols * l.rows != 1)
            return CB_OK; /* N-up: a page holds boards of several games */
    }
    if (st != CB_OK)
        return st;
    if (!*scratch && !(*scratch = calloc(1, sizeof **scratch)))
        return cb_fail(err, CB_ERR_NOMEM, "PDF: out of memory");
    cb_pdf *q = &(*scratch)->pdf;
    /* the document's read-only parts; the page being drawn is Q's own */
    q->font = src->font;
    q->theme = src->theme;
    q->ink = src->ink;
    q->cmyk = src->cmyk;
    q->shop = src->shop;
    q->opt = src->opt;
    q->icons = src->icons;
    q->n_icons = src->n_icons;
    q->type_icon = src->type_icon;
    q->mission_icon = src->mission_icon;
    q->center_icon = src->center_icon;
    q->widths = src->widths;
    q->game = game;
    q->layout_w = q->layout_h = 0;
    q->sheet = 0;
    q->n_pages = 0;
    q->cs.st = HPDF_OK;
    q->cs.text.len = 0;
    q->cs.open = 0;
    q->n_chars = 0;
    if (q->measured)
        memset(q->measured, 0, 65536 / 8);
    cb_pdf_prepared *pp = calloc(1, sizeof *pp);
    if (!pp || !(pp->sheet_page = malloc(game->n_sheets * sizeof *pp->sheet_page))) {
        free(pp);
        return cb_fail(err, CB_ERR_NOMEM, "PDF: out of memory");
    }
    HPDF_STATUS hs = HPDF_OK;
    for (size_t s = 0; st == CB_OK && hs == HPDF_OK && s < game->n_sheets; s++) {
        st = cb_pdf_layout_for(q, game->sheets[s], err);
        if (st == CB_OK)
            hs = cb_render_sheet(q, game->sheets[s]);
        pp->sheet_page[s] = q->n_pages;
    }
    if (st == CB_OK && hs == HPDF_OK)
        hs = cb_render_finish(q);
    pp->pages = q->done;
    pp->n_pages = q->n_done;
    q->done = NULL;
    q->n_done = q->done_cap = 0;
    q->game = NULL;
    if (st == CB_OK && hs != HPDF_OK)
        st = cb_fail(err, CB_ERR_NOMEM, "PDF: out of memory drawing a page");
    if (st != CB_OK) {
        cb_pdf_prepared_free(pp);
        cb_page_rec_free(&q->page);
        return st;
    }
    *out = pp;
    return CB_OK;
}

cb_status cb_pdf_add_prepared(cb_pdf_writer *w, const cb_game *game, cb_pdf_prepared *pp,
                              cb_error *err)
{
    cb_status st = pp ? CB_OK : cb_pdf_check(&w->p, game, err);
    if (st == CB_OK && game->n_sheets > w->sheet_cap) {
        size_t *grown = realloc(w->sheet_page, game->n_sheets * sizeof *grown);
        if (!grown)
            return cb_fail(err, CB_ERR_NOMEM, "PDF: out of memory");
        w->sheet_page = grown;
        w->sheet_cap = game->n_sheets;
    }
    if (st == CB_OK && w->p.theme && !w->seen &&
        !(w->seen = calloc(w->p.theme->n_types + 1, 1)))
        return cb_fail(err, CB_ERR_NOMEM, "PDF: out of memory");
    if (st == CB_OK && w->seen)
        mark_types(w->p.theme, game, w->seen);
    int hops = st == CB_OK && cb_theme_counts_hops(w->p.theme) ? cb_game_route_hops(game) : 0;
    if (hops < 0)
        return cb_fail(err, CB_ERR_NOMEM, "PDF: out of memory");
    if (st == CB_OK) {
        w->route_hops = w->route_hops == 0 || w->route_hops == hops ? hops : -1;
        w->last_shared = game->shared;
        w->last_players = game->players;
        w->last_w = game->sheets[0]->page_w;
        w->last_h = game->sheets[0]->page_h;
    }
    if (st == CB_OK && pp) {
        /* drawn already: the page being filled goes in first, then these */
        HPDF_STATUS hs = cb_render_finish(&w->p);
        if (hs == HPDF_OK)
            hs = cb_pdf_flush_pages(&w->p);
        size_t first = w->p.n_pages;
        for (size_t i = 0; hs == HPDF_OK && i < pp->n_pages; i++)
            hs = cb_pdf_put_page(&w->p, &pp->pages[i]);
        if (hs != HPDF_OK) {
            char what[64];
            snprintf(what, sizeof what, "writing page %zu", first + 1);
            return cb_hpdf_fail(&w->p, hs, err, what);
        }
        int e = w->p.out ? cb_pdfout_error(w->p.out) : 0;
        if (e == ENOMEM)
            return cb_fail(err, CB_ERR_NOMEM, "PDF: out of memory writing the document");
        if (e)
            return cb_fail(err, CB_ERR_IO, "%s: write failed: %s", w->name, strerror(e));
        for (size_t s = 0; s < game->n_sheets; s++)
            w->sheet_page[s] = first + pp->sheet_page[s];
        w->p.n_pages = first + pp->n_pages;
        w->p.sheet = 0;
        w->pages += game->n_sheets;
        return CB_OK;
    }
    w->p.game = game;
    for (size_t s = 0; st == CB_OK && s < game->n_sheets; s++) {
        st = cb_pdf_layout_for(&w->p, game->sheets[s], err);
        if (st != CB_OK)
            break;
        HPDF_STATUS hs = cb_render_sheet(&w->p, game->sheets[s]);
        if (hs != HPDF_OK) {
            char what[64];
            snprintf(what, sizeof what, "drawing page %zu", w->pages + 1);
            st = cb_hpdf_fail(&w->p, hs, err, what);
        }
        w->sheet_page[s] = w->p.n_pages;
        w->pages++;
    }
    w->p.game = NULL;
    if (st == CB_OK) {
        HPDF_STATUS hs = cb_pdf_flush_pages(&w->p);
        if (hs != HPDF_OK)
            st = cb_hpdf_fail(&w->p, hs, err, "writing the pages");
    }
    return st;
}

cb_status cb_pdf_add_game(cb_pdf_writer *w, const cb_game *game, cb_error *err)
{
    return cb_pdf_add_prepared(w, game, NULL, err);
}

cb_status cb_pdf_begin_file(const cb_theme *theme, const cb_render_options *opt, int fd,
                            const char *name, cb_pdf_writer **out, cb_error *err)
{
    cb_status st = cb_pdf_begin(theme, opt, out, err);
    if (st != CB_OK)
        return st;
    cb_pdf_writer *w = *out;
    w->p.out = cb_pdfout_new(fd);
    w->name = strdup(name ? name : "PDF");
    if (!w->p.out || !w->name || !(w->p.font_id = cb_pdfout_reserve(w->p.out))) {
        cb_pdf_writer_free(w);
        *out = NULL;
        return cb_fail(err, CB_ERR_NOMEM, "PDF: out of memory creating the document");
    }
    return CB_OK;
}

/* The end of a file the pages went to: the font, icons and shapes (made in
 * P's document, which holds no page, and copied over with their object
 * numbers), the page tree, the cross-reference table. */
static cb_status cb_pdf_end_file(cb_pdf_writer *w, size_t *len, cb_error *err)
{
    cb_pdf *p = &w->p;
    unsigned char *res = NULL;
    size_t res_len = 0;
    cb_status st = cb_pdf_save(p, &res, &res_len, err);
    size_t n = 0, cap = 1 + p->n_icons + (size_t)p->n_shapes;
    uint32_t *from = st == CB_OK ? malloc(2 * cap * sizeof *from) : NULL, *to = NULL;
    if (st == CB_OK && !from)
        st = cb_fail(err, CB_ERR_NOMEM, "PDF: out of memory writing the document");
    if (st == CB_OK) {
        to = from + cap;
        from[n] = cb_hpdf_obj_id(p->font), to[n++] = p->font_id;
        for (size_t i = 0; i < p->n_icons; i++)
            if (p->icons[i].id)
                from[n] = cb_hpdf_obj_id(p->icons[i].image), to[n++] = p->icons[i].id;
        for (int i = 0; i < p->n_shapes; i++)
            if (p->shapes[i].id)
                from[n] = cb_hpdf_obj_id(p->shapes[i].form), to[n++] = p->shapes[i].id;
        uint32_t info = 0;
        if (cb_pdfout_copy(p->out, res, res_len, from, to, n, &info) != 0)
            st = cb_pdfout_error(p->out) && cb_pdfout_error(p->out) != ENOMEM
                     ? CB_OK
                     : cb_fail(err, CB_ERR_NOMEM, "PDF: out of memory writing the document");
        if (st == CB_OK) {
            int e = cb_pdfout_finish(p->out, info);
            if (e == ENOMEM)
                st = cb_fail(err, CB_ERR_NOMEM, "PDF: out of memory writing the document");
            else if (e)
                st = cb_fail(err, CB_ERR_IO, "%s: write failed: %s", w->name, strerror(e));
        }
    }
    free(from);
    free(res);
    *len = 0;
    return st;
}

cb_status cb_pdf_end(cb_pdf_writer *w, unsigned char **pdf, size_t *len, cb_error *err)
{
    if (!pdf || !len)
        return cb_fail(err, CB_ERR_INTERNAL, "PDF: no output buffer given");
    *pdf = NULL;
    *len = 0;
    if (w->pages == 0 && w->rules_pages == 0)
        return cb_fail(err, CB_ERR_DATA, "PDF: the document has no pages");
    HPDF_STATUS hs = cb_render_finish(&w->p);
    if (hs == HPDF_OK)
        hs = cb_pdf_flush_pages(&w->p);
    if (hs != HPDF_OK)
        return cb_hpdf_fail(&w->p, hs, err, "compressing the last page");
    cb_status st = cb_pdf_icons_finish(&w->p, err);
    if (st != CB_OK)
        return st;
    if ((hs = cb_hpdf_font_slim(w->p.font, w->p.font_used, w->p.icache, w->p.font_key)) != HPDF_OK)
        return cb_hpdf_fail(&w->p, hs, err, "writing the font");
    if (w->p.out)
        return cb_pdf_end_file(w, len, err);
    return cb_pdf_save(&w->p, pdf, len, err);
}

void cb_pdf_writer_free(cb_pdf_writer *w)
{
    if (!w)
        return;
    HPDF_Free(w->p.doc);
    cb_pdfout_free(w->p.out);
    free(w->name);
    cb_render_free(&w->p);
    cb_pdf_free_icons(&w->p);
    free(w->sheet_page);
    free(w->seen);
    free(w->p.font_used);
    free(w);
}

size_t cb_pdf_sheet_page(const cb_pdf_writer *w, size_t sheet)
{
    return sheet < w->sheet_cap ? w->sheet_page[sheet] : 0;
}

size_t cb_pdf_page_count(const cb_pdf_writer *w)
{
    return w->p.n_pages;
}

cb_status cb_pdf_render(const cb_game *game, const cb_theme *theme,
                        const cb_render_options *opt, unsigned char **pdf, size_t *len,
                        cb_error *err)
{
    cb_pdf_writer *w = NULL;
    if (pdf && len) {
        *pdf = NULL;
        *len = 0;
    }
    cb_status st = cb_pdf_begin(theme, opt, &w, err);
    int rules = theme && opt ? opt->rules : CB_RULES_PAGE_NONE;
    if (st == CB_OK && rules == CB_RULES_PAGE_FIRST)
        st = cb_pdf_add_rules(w, game, err);
    if (st == CB_OK)
        st = cb_pdf_add_game(w, game, err);
    if (st == CB_OK && rules == CB_RULES_PAGE_LAST)
        st = cb_pdf_add_rules(w, game, err);
    if (st == CB_OK)
        st = cb_pdf_end(w, pdf, len, err);
    cb_pdf_writer_free(w);
    return st;
}
