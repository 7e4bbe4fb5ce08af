/* src/print/: paper and pages, drawing sheets, the PDF document, decks.
 * May include: base/, planar/, board/, io/, game/. */
/* Drawing boards as PDF pages: what the document side (pdf.c) and the page
 * side (render.c) of the PDF output share. Internal to the library. */
#ifndef CB_RENDER_H
#define CB_RENDER_H

#include <hpdf.h>
#include <stddef.h>
#include <stdint.h>

#include "cutboard.h"
#include "base/buf.h"
#include "print/sheet.h"

/* Millimetres to PDF points. */
static inline HPDF_REAL cb_pt(double mm)
{
    return (HPDF_REAL)(mm * CB_PT_PER_MM);
}

/* Propagates the first failing libharu call out of a function that returns
 * HPDF_STATUS. */
#define CB_HPDF(call)                                                                       \
    do {                                                                                    \
        HPDF_STATUS cb_st_ = (call);                                                        \
        if (cb_st_ != HPDF_OK)                                                              \
            return cb_st_;                                                                  \
    } while (0)

/* Where libharu's error handler writes; owned by one render call. */
typedef struct {
    HPDF_STATUS error_no, detail_no;
} cb_hpdf_errors;

/* An icon file the document may show (on one backdrop, in CMYK): decoded
 * when the document begins (once per theme: the theme's icon cache), its
 * image objects made the first time a page names it, and their pixels
 * filled in when the document ends, at the resolution its largest print
 * needs (cb_pdf_icons_finish). */
typedef struct {
    const char *path; /* borrowed from the theme */
    double bg[3];     /* CMYK: the colour it was flattened onto (RGB 0..1) */
    HPDF_Image image; /* NULL until a page names it */
    HPDF_Image mask;  /* its soft mask (NULL: none) */
    double w, h;      /* the file's pixels, for the aspect ratio */
    int opaque;       /* every pixel opaque: no soft mask */
    double max_pt;    /* its longer side where printed largest, pt */
    cb_status st;     /* why it could not be decoded (CB_OK: it was) */
    cb_error err;
    uint32_t id;      /* its object number in the file (pdfout) */
} cb_pdf_icon;

/* A page's content stream, written by content.c itself: libharu's page
 * operators validate and format every number one byte at a time, which
 * cost more than everything else a page needs. The operators are spelt as
 * libharu's were, so the pages kept their bytes. */
typedef struct {
    cb_buf text;           /* the operators, text.len bytes */
    HPDF_STATUS st;        /* the first failure (out of memory, libharu) */
    int open;              /* TEXT is a page's (cb_render_finish ends it) */
    void *z;               /* zlib's deflate state (icons, shapes), reused */
    void *ld;              /* libdeflate's compressor (pages), reused */
    int z_level, z_strategy;
    unsigned char *out;    /* a page's compressed content */
    size_t out_cap;
} cb_content;

/* A form XObject the whole document shares, so a page names it in a few
 * bytes instead of spelling it out for every node and power dot: a circle
 * about the origin, filled ('f') or filled and outlined ('B') with the
 * colours and line width in force where it is drawn, or a whole node of
 * one type ('N': fill, outline and icon). Pages name shapes by their key;
 * the document makes each form the first time a page names it. */
typedef struct {
    HPDF_REAL r, pad;      /* radius; how far its line reaches past it */
    char paint;
    int type;              /* 'N': the theme type, -1 for none */
    HPDF_Dict form;        /* in the document: NULL until made */
    uint32_t id;           /* its object number in the file (pdfout) */
} cb_shape;

/* One page as drawing leaves it, before it goes into the file: its
 * content stream already deflated, and what that content names (page-local
 * names: "/F1" the font, "/X<k>" its k-th icon, "/C<k>" or "/N<k>" its
 * k-th shape). Drawing makes these on any thread; only writing them
 * (cb_pdf_flush_pages) touches libharu, which makes the icons and shapes
 * they name. */
typedef struct {
    HPDF_REAL w, h;        /* pt */
    int boxes;             /* has BleedBox and TrimBox */
    HPDF_Box bleed, trim;
    unsigned char *data;   /* content, deflated, LEN bytes */
    size_t len;
    int font;              /* names the font */
    int *icons;            /* icon slots, in first-use order */
    float *icon_pt;        /* per icon: its longer side drawn largest, pt */
    int n_icons;
    cb_shape *shapes;      /* shape keys, in first-use order */
    int n_shapes;
    uint16_t *chars;       /* characters measured: glyphs the font must keep */
    size_t n_chars;
} cb_page_rec;
#define CB_MAX_SHAPES 64

/* One document being written (or, with doc NULL, a drawing context that
 * makes pages for one: cb_pdf_prepare): the font and the icons every page
 * shares. */
typedef struct {
    HPDF_Doc doc;          /* libharu's: the font, icons and shapes, no page */
    cb_hpdf_errors herr;
    HPDF_Font font;
    const cb_game *game;
    const cb_theme *theme; /* may be NULL */
    int ink;               /* ink-friendly: white fills */
    int cmyk;              /* every colour DeviceCMYK, icons flattened */
    int shop;              /* print-shop pages: TrimBox and BleedBox */
    cb_render_options opt; /* strings borrowed from the caller */
    cb_page_layout layout; /* where boards go on the current page size */
    double layout_w, layout_h; /* the board paper LAYOUT was made for */
    int sheet;             /* a page is being filled (N-up) */
    size_t n_pages;        /* pages begun so far */
    int slot;              /* next free board slot on it */
    cb_pdf_icon *icons;    /* distinct icon files (and backdrops) */
    size_t n_icons;
    int *type_icon;        /* per theme type / mission: index in icons or -1 */
    int *mission_icon;
    int center_icon;
    const uint16_t *widths; /* per code below 256: its width, 1/1000 em */
    cb_content cs;         /* the current page's operators not yet written */
    cb_page_rec page;      /* the page being drawn */
    int *icon_on_page;     /* per icon: its number on the page (0: not yet) */
    uint64_t *measured;    /* bit per character measured since the last page */
    uint16_t *chars;       /* those characters, in order */
    size_t n_chars, chars_cap;
    cb_page_rec *done;     /* pages drawn, not yet in the file */
    size_t n_done, done_cap;
    cb_shape *shapes;      /* the document's shapes, in the order made */
    int n_shapes, shapes_cap;
    double rules_pt;       /* the body text size of the last rules page */
    struct cb_pdfout *out; /* the file pages go to, on disk or in memory */
    uint32_t font_id;      /* the font's object number there */
    uint64_t *font_used;   /* bit per character the document's text shows */
    char font_key[40];     /* a hash of the font file's bytes (its kept program's name) */
    struct cb_icon_cache *icache; /* the theme's, or OWN_ICACHE's */
    int own_icache;
} cb_pdf;

/* Draws board B (already checked by cb_pdf_add_game) in the next slot of
 * P's layout, starting a new page when the current one is full (always,
 * without N-up); returns the first libharu status that is not HPDF_OK. */
HPDF_STATUS cb_render_sheet(cb_pdf *p, const cb_board *b);

/* The next slot of P's layout, a page of its own when the layout is full
 * (always without N-up), with the origin at its paper's bottom-left
 * corner; end it with cb_render_cell_end(p, moved). */
HPDF_STATUS cb_render_cell_begin(cb_pdf *p, int *moved);
void cb_render_cell_end(cb_pdf *p, int moved);

/* Drawing pieces the rules page (rules.c) and the legend strip share with
 * the sheets, in pt on the current page (the origin where the cell put it):
 * TEXT's width at SIZE pt (measuring also keeps its glyphs in the embedded
 * font: measure every string drawn); a line of text with its left end of
 * baseline at (X, Y), BOLD (may be NULL) first in a bolder face, then TEXT;
 * a node of theme type TYPE, a start of MISSION (W x H pt, icon ICON pt)
 * and the centre, centred on (X, Y), as the sheets draw them. */
double cb_render_text_width(cb_pdf *p, const char *text, double size_pt);
void cb_render_text(cb_pdf *p, double x_pt, double y_pt, double size_pt,
                    const char *bold, const char *text);
void cb_render_node_at(cb_pdf *p, int type, double x_pt, double y_pt,
                       double r_pt);
void cb_render_start_at(cb_pdf *p, int mission, double x_pt, double y_pt,
                        double w_pt, double h_pt, double icon_pt);
void cb_render_center_at(cb_pdf *p, double x_pt, double y_pt, double r_pt);

/* Draws the rules and legend page(s) for the game mode SHARED with PLAYERS
 * players on paper of W x H mm (the game's board paper): PRESENT[t] is
 * non-zero for each theme type shown in the legend. HOPS: the game's route
 * length (cb_game_route_hops), for goals counted from it; 0 for a deck.
 * Returns the first libharu status that is not HPDF_OK. (rules.c) */
HPDF_STATUS cb_render_rules(cb_pdf *p, double w, double h, int shared, int players, int hops,
                            const unsigned char *present);

/* Begins a page of W x H pt with nothing on it (the page being filled
 * ended first): what follows is drawn on it until cb_render_finish. */
HPDF_STATUS cb_render_page_begin(cb_pdf *p, HPDF_REAL w_pt, HPDF_REAL h_pt);
/* Ends the page being filled: its content deflated, it joins P's pages
 * drawn (p->done). Call after the last cb_render_sheet. */
HPDF_STATUS cb_render_finish(cb_pdf *p);

/* Writes P's pages drawn (p->done) to its file, in order: each page with
 * its boxes, its resources (embedding icons and making shapes the first
 * time a page names them, marking the font's glyphs) and its content as it
 * was deflated. (pdf_pages.c) */
HPDF_STATUS cb_pdf_flush_pages(cb_pdf *p);
/* Writes one page drawn to P's file (cb_pdf_flush_pages). */
HPDF_STATUS cb_pdf_put_page(cb_pdf *p, const cb_page_rec *page);
/* Frees what a page drawn holds (not PAGE itself). (content.c) */
void cb_page_rec_free(cb_page_rec *page);

/* Draws a page of W x H mm that is not a board into W's document (an
 * encounter map, netrender.c): DRAW writes its content with content.c's
 * operators and cb_render_text, measuring every string it shows
 * (cb_render_text_width), and returns the first failure. WHAT names the
 * page in an error. */
typedef HPDF_STATUS (*cb_pdf_draw_fn)(cb_pdf *p, const void *ctx);
cb_status cb_pdf_add_drawing(cb_pdf_writer *w, double w_mm, double h_mm, cb_pdf_draw_fn draw,
                            const void *ctx, const char *what, cb_error *err);

/* Makes the form XObject of shape SH in P's document: its content drawn
 * with P's colours, its icon (embedded already) named "/I". NULL on
 * failure. */
HPDF_Dict cb_shape_form(cb_pdf *p, const cb_shape *sh);
/* Makes icon SLOT's image objects in P's document if they are not there
 * yet; their pixels come with cb_pdf_icons_finish (pdf_icons.c). */
HPDF_STATUS cb_pdf_icon_embed(cb_pdf *p, int slot);


/* Puts LEN bytes of DATA into stream dictionary DICT (an image, a form)
 * already deflated at LEVEL with zlib STRATEGY (P keeps one deflate
 * state), so libharu writes them as they are under /FlateDecode instead
 * of deflating them itself at level 6 through its memory stream. */
HPDF_STATUS cb_pdf_put_deflated(cb_pdf *p, HPDF_Dict dict, const void *data, size_t len,
                                int level, int strategy);

/* Frees what rendering allocated in P (not P itself). */
void cb_render_free(cb_pdf *p);

/* The colour (RGB 0..1) an icon of node type TYPE (-1: a mission or the
 * centre) of colour RGB (NULL: no theme colour) is drawn on: what CMYK
 * icons are flattened onto. */
void cb_render_icon_backdrop(const cb_pdf *p, const double *rgb, int type, double out[3]);

/* RGB 0..1 to DeviceCMYK 0..1 with full black generation: greys become K
 * only, and total ink stays under 300 %. */
void cb_render_cmyk(const double rgb[3], double cmyk[4]);

/* The libharu document behind a writer (and behind SVG's text
 * measures, svg.c): the error handler to give HPDF_New (user data:
 * &p->herr), the one-line error for a failed libharu call (those three in
 * hpdf_memory.c), the setup (compression, dates from OPT's source date,
 * UTF-8, the embedded font with a working ToUnicode map) and saving the
 * document, which holds no page, into a malloc'd buffer (pdf.c copies its
 * objects into the file). */
void HPDF_STDCALL cb_hpdf_on_error(HPDF_STATUS error_no, HPDF_STATUS detail_no,
                                   void *user_data);
cb_status cb_hpdf_fail(const cb_pdf *p, HPDF_STATUS st, cb_error *err, const char *what);
/* A new document for P with the error handler and watched allocations. */
HPDF_Doc cb_hpdf_new(cb_pdf *p);
/* Whether a libharu allocation in this thread failed since cb_hpdf_new
 * (served from the reserve, so libharu never knew). */
int cb_hpdf_alloc_failed(void);
/* Whether libharu ran out of memory in this thread since cb_hpdf_new. */
int cb_hpdf_out_of_memory(const cb_pdf *p);
cb_status cb_pdf_setup(cb_pdf *p, const cb_render_options *opt, cb_error *err);
/* SECONDS after 1970-01-01 as a PDF date in UTC (source_date.c): 0, or -1
 * when the C library cannot break it down. */
int cb_pdf_date(long long seconds, HPDF_Date *date);
cb_status cb_pdf_save(cb_pdf *p, unsigned char **pdf, size_t *len, cb_error *err);

#endif
