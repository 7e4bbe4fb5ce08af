/* PDF output: the writer's life, and the one writer of every PDF cutboard
 * makes (games, rules pages, decks, encounter maps; to a file or into
 * memory for cb_pdf_render and the server). A document is begun, each
 * game's sheets are drawn into page records (cb_page_rec: content
 * deflated, the resources named) on any thread (cb_pdf_prepare) and only
 * then added on the writer's thread, the rules and legend page after them
 * (or a page drawn by a caller, cb_pdf_add_drawing), and the document is
 * ended and freed. The rest of the PDF is elsewhere, one job a file: the
 * file itself as it is made, object by object (pdfout.c), pages into it
 * (pdf_pages.c), their operators (content.c), the icons embedded once per
 * document (pdf_icons.c), libharu's errors and allocations (hpdf_memory.c),
 * and the source date, the one clock a file may carry (source_date.c), so
 * the same game gives the same bytes.
 *
 * What libharu still does, and only this: it reads the TrueType font
 * (glyph ids, widths, ascent) and makes its objects (the Type0 and
 * CIDFontType2 dictionaries, /W and the CIDToGIDMap, which we trim to the
 * codes shown, the /ToUnicode map, which we rewrite, the descriptor, and
 * the glyph subset of the font program, which we deflate and cache); it
 * makes the dictionaries of the icons' image XObjects and of the shapes'
 * form XObjects, whose streams we fill; and the /Info dictionary (producer,
 * dates). Those live in a libharu document that never holds a page; at the
 * end it is saved to memory (cb_pdf_save) and its objects are copied into
 * our file with new numbers (cb_pdfout_copy). The header, every page, its
 * content and resources, the page tree, catalog, cross-reference table and
 * trailer are ours. hpdf_internals.c is the one file that reaches into
 * libharu's structs to do it. */
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
#include "print/pdf_icons.h"

cb_status cb_pdf_setup(cb_pdf *p, const cb_render_options *opt, cb_error *err)
{
    const char *font_path = opt->font_path;
    HPDF_Date date;
    int dated = opt->dated;
    if (dated && cb_pdf_date(opt->source_date, &date) != 0)
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
    if (cb_hpdf_alloc_failed()) { /* served from the reserve: libharu never knew */
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
    char *name;          /* the file in errors: cb_pdf_begin_file's, or "PDF" */
};

/* A writer whose pages go to FD, named NAME in errors, or into memory
 * when FD is -1. */
static cb_status cb_pdf_begin_on(const cb_theme *theme, const cb_render_options *opt, int fd,
                                 const char *name, cb_pdf_writer **out, cb_error *err)
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
    if (st == CB_OK) {
        w->p.out = cb_pdfout_new(fd);
        w->name = strdup(name);
        if (!w->p.out || !w->name || !(w->p.font_id = cb_pdfout_reserve(w->p.out)))
            st = cb_fail(err, CB_ERR_NOMEM, "PDF: out of memory creating the document");
    }
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
        int e = cb_pdfout_error(w->p.out);
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

cb_status cb_pdf_add_drawing(cb_pdf_writer *w, double w_mm, double h_mm, cb_pdf_draw_fn draw,
                            const void *ctx, const char *what, cb_error *err)
{
    cb_pdf *p = &w->p;
    HPDF_STATUS hs = cb_render_page_begin(p, cb_pt(w_mm), cb_pt(h_mm));
    if (hs == HPDF_OK)
        hs = draw(p, ctx);
    if (hs == HPDF_OK)
        hs = cb_render_finish(p);
    if (hs == HPDF_OK)
        hs = cb_pdf_flush_pages(p);
    if (hs != HPDF_OK)
        return cb_hpdf_fail(p, hs, err, what);
    p->sheet = 0; /* a board after it starts a page of its own */
    w->pages++;
    return CB_OK;
}

cb_status cb_pdf_begin(const cb_theme *theme, const cb_render_options *opt,
                       cb_pdf_writer **out, cb_error *err)
{
    return cb_pdf_begin_on(theme, opt, -1, "PDF", out, err);
}

cb_status cb_pdf_begin_file(const cb_theme *theme, const cb_render_options *opt, int fd,
                            const char *name, cb_pdf_writer **out, cb_error *err)
{
    return cb_pdf_begin_on(theme, opt, fd, name ? name : "PDF", out, err);
}

/* The end of the file the pages went to: the font, icons and shapes (made
 * in P's document, which holds no page, and copied over with their object
 * numbers), the page tree, the cross-reference table; into *PDF (*LEN
 * bytes) when the file is in memory. */
static cb_status cb_pdf_end_file(cb_pdf_writer *w, unsigned char **pdf, size_t *len,
                                 cb_error *err)
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
    if (st == CB_OK)
        *pdf = cb_pdfout_take(p->out, len);
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
    return cb_pdf_end_file(w, pdf, len, err);
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
