/* SVG output: one sheet of a game as a standalone SVG document, the same
 * drawing as its PDF page (render.c), from the same geometry (sheet.c).
 *
 * The picture is in millimetres (viewBox units are mm, width and height
 * say "mm"), y down as on the board file. Each icon file is embedded once
 * per document as a <symbol> holding the PNG and drawn with <use>; the
 * label is text, measured with the same TrueType font as the PDF so it
 * lands in the same place. Elements carry the board's ids (data-id,
 * data-from, data-to) so scripts and tests can find nodes and edges. */
#include "cutboard.h"
#include "base/buf.h"
#include "base/board_geometry.h"
#include "base/error.h"
#include "io/icons.h"
#include "io/input.h"
#include "print/render.h"
#include "print/sheet.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CB_SVG_MAX_DOTS 16

/* Appends a string literal. */
#define CB_LIT(b, s) cb_buf_append((b), (s), sizeof(s) - 1)

/* One icon file, embedded the first time the sheet uses it. */
typedef struct {
    const char *path; /* borrowed from the theme */
    double w, h;      /* pixels, for the aspect ratio */
    int used;
} cb_svg_icon;

typedef struct {
    cb_buf out;
    const cb_game *game;
    const cb_theme *theme;
    const cb_render_options *opt;
    cb_svg_icon *icons; /* by path, in the theme's order: centre, types, missions */
    size_t n_icons;
    int *type_icon, *mission_icon, center_icon;
} cb_svg;

/* V (mm or a plain number) with at most 3 decimals and no trailing zeros. */
static void cb_svg_num(cb_buf *b, double v)
{
    char s[64];
    if (fabs(v) < 0.0005)
        v = 0;
    int n = snprintf(s, sizeof s, "%.3f", v);
    while (n > 0 && s[n - 1] == '0')
        s[--n] = '\0';
    if (n > 0 && s[n - 1] == '.')
        s[--n] = '\0';
    cb_buf_append(b, s, (size_t)n);
}

/* " NAME=\"V\"" */
static void cb_svg_attr(cb_buf *b, const char *name, double v)
{
    cb_buf_printf(b, " %s=\"", name);
    cb_svg_num(b, v);
    CB_LIT(b, "\"");
}

/* A colour as #rrggbb. */
static void cb_svg_colour(cb_buf *b, const char *name, cb_rgb c)
{
    double v[3] = {c.r, c.g, c.b};
    unsigned k[3];
    for (int i = 0; i < 3; i++)
        k[i] = (unsigned)lround(fmin(1, fmax(0, v[i])) * 255);
    cb_buf_printf(b, " %s=\"#%02x%02x%02x\"", name, k[0], k[1], k[2]);
}

/* TEXT with &, <, >, " and ' escaped (TEXT is valid UTF-8 without control
 * characters, as sheet.c makes it, or a theme name). */
static void cb_svg_text(cb_buf *b, const char *text)
{
    for (const char *p = text ? text : ""; *p; p++) {
        unsigned char c = (unsigned char)*p;
        if (c == '&')
            CB_LIT(b, "&amp;");
        else if (c == '<')
            CB_LIT(b, "&lt;");
        else if (c == '>')
            CB_LIT(b, "&gt;");
        else if (c == '"')
            CB_LIT(b, "&quot;");
        else if (c == '\'')
            CB_LIT(b, "&apos;");
        else if (c < 0x20)
            CB_LIT(b, " ");
        else
            cb_buf_append(b, p, 1);
    }
}

static double cb_svg_mm(double pt)
{
    return pt / CB_PT_PER_MM;
}

/* ---- icons ------------------------------------------------------------- */

/* The index of PATH's icon in S, decoding it (to check it and learn its
 * size) the first time; -1 for no icon. */
static cb_status cb_svg_icon_for(cb_svg *s, const char *path, int *out, cb_error *err)
{
    *out = -1;
    if (!path || !*path)
        return CB_OK;
    for (size_t k = 0; k < s->n_icons; k++)
        if (strcmp(s->icons[k].path, path) == 0) {
            *out = (int)k;
            return CB_OK;
        }
    cb_icon icon = {0, 0, NULL};
    cb_status st = cb_icon_load(path, &icon, err);
    if (st != CB_OK)
        return st;
    s->icons[s->n_icons] = (cb_svg_icon){path, icon.w, icon.h, 0};
    cb_icon_free(&icon);
    *out = (int)s->n_icons++;
    return CB_OK;
}

static cb_status cb_svg_load_icons(cb_svg *s, cb_error *err)
{
    const cb_theme *t = s->theme;
    s->center_icon = -1;
    if (!t)
        return CB_OK;
    s->icons = calloc(t->n_types + t->n_missions + 1, sizeof *s->icons);
    s->type_icon = calloc(t->n_types + 1, sizeof *s->type_icon);
    s->mission_icon = calloc(t->n_missions + 1, sizeof *s->mission_icon);
    if (!s->icons || !s->type_icon || !s->mission_icon)
        return cb_fail(err, CB_ERR_NOMEM, "SVG: out of memory");
    cb_status st = cb_svg_icon_for(s, t->center.icon, &s->center_icon, err);
    for (size_t i = 0; st == CB_OK && i < t->n_types; i++)
        st = cb_svg_icon_for(s, t->types[i].icon, &s->type_icon[i], err);
    for (size_t i = 0; st == CB_OK && i < t->n_missions; i++)
        st = cb_svg_icon_for(s, t->missions[i].icon, &s->mission_icon[i], err);
    return st;
}

/* Marks the icons board B uses. */
static void cb_svg_mark_used(cb_svg *s, const cb_board *b)
{
    if (!s->theme)
        return;
    for (size_t i = 0; i < b->n_nodes; i++) {
        const cb_node *n = &b->nodes[i];
        int k = -1;
        if (i == b->center || n->kind == CB_KIND_CENTER)
            k = s->center_icon;
        else if (n->kind == CB_KIND_START && n->mission >= 0)
            k = s->mission_icon[n->mission];
        else if (n->kind == CB_KIND_NODE && n->type >= 0)
            k = s->type_icon[n->type];
        if (k >= 0)
            s->icons[k].used = 1;
    }
}

static void cb_svg_base64(cb_buf *b, const unsigned char *d, size_t n)
{
    static const char abc[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char *o = cb_buf_room(b, (n + 2) / 3 * 4 + 1);
    if (!o)
        return;
    char *start = o;
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)d[i] << 16 | (i + 1 < n ? (uint32_t)d[i + 1] << 8 : 0) |
                     (i + 2 < n ? d[i + 2] : 0);
        *o++ = abc[v >> 18 & 63];
        *o++ = abc[v >> 12 & 63];
        *o++ = i + 1 < n ? abc[v >> 6 & 63] : '=';
        *o++ = i + 2 < n ? abc[v & 63] : '=';
    }
    b->len += (size_t)(o - start);
    b->data[b->len] = '\0';
}

/* <symbol id="iK"> holding icon K's PNG file as it is. */
static cb_status cb_svg_symbol(cb_svg *s, size_t k, cb_error *err)
{
    const cb_svg_icon *ic = &s->icons[k];
    FILE *f = NULL;
    off_t size = 0;
    cb_status opened = cb_input_open("icon", ic->path, &f, &size, err);
    if (opened != CB_OK)
        return opened;
    unsigned char *data = malloc(size > 0 ? (size_t)size : 1);
    size_t got = data ? fread(data, 1, (size_t)size, f) : 0;
    fclose(f);
    if (!data)
        return cb_fail(err, CB_ERR_NOMEM, "icon %s: out of memory", ic->path);
    if (got != (size_t)size) {
        free(data);
        return cb_fail(err, CB_ERR_NOINPUT, "icon %s: read error", ic->path);
    }
    cb_buf *b = &s->out;
    cb_buf_printf(b, "<symbol id=\"i%zu\" viewBox=\"0 0 %.0f %.0f\" preserveAspectRatio=\"none\">"
                     "<image width=\"%.0f\" height=\"%.0f\" xlink:href=\"data:image/png;base64,",
                  k, ic->w, ic->h, ic->w, ic->h);
    cb_svg_base64(b, data, got);
    cb_buf_printf(b, "\"/></symbol>\n");
    free(data);
    return CB_OK;
}

/* Icon K fitted into a square of SIDE mm centred on (X, Y), turned by
 * QUARTERS quarter turns counter-clockwise as seen on the page. */
static void cb_svg_use(cb_svg *s, int k, double x, double y, double side, int quarters)
{
    if (k < 0)
        return;
    cb_buf *b = &s->out;
    double wh[2];
    cb_sheet_icon_fit(s->icons[k].w, s->icons[k].h, side, wh);
    cb_buf_printf(b, "<use xlink:href=\"#i%d\"", k);
    if (quarters & 3) {
        CB_LIT(b, " transform=\"translate(");
        cb_svg_num(b, x);
        CB_LIT(b, " ");
        cb_svg_num(b, y);
        cb_buf_printf(b, ") rotate(%d)\"", -90 * (quarters & 3));
        x = y = 0;
    }
    cb_svg_attr(b, "x", x - wh[0] / 2);
    cb_svg_attr(b, "y", y - wh[1] / 2);
    cb_svg_attr(b, "width", wh[0]);
    cb_svg_attr(b, "height", wh[1]);
    CB_LIT(b, "/>");
}

/* ---- the drawing, back to front as render.c draws it ------------------- */

static void cb_svg_circle(cb_buf *b, double x, double y, double r)
{
    CB_LIT(b, "<circle");
    cb_svg_attr(b, "cx", x);
    cb_svg_attr(b, "cy", y);
    cb_svg_attr(b, "r", r);
}

static void cb_svg_edges(cb_svg *s, const cb_board *b)
{
    cb_buf *o = &s->out;
    CB_LIT(o, "<g class=\"edges\" fill=\"none\"");
    cb_svg_colour(o, "stroke", cb_ink);
    cb_svg_attr(o, "stroke-width", cb_svg_mm(CB_EDGE_PT));
    cb_buf_printf(o, " stroke-linecap=\"round\">\n");
    for (size_t e = 0; e < b->n_edges; e++) {
        const cb_node *a = &b->nodes[b->edges[e].a], *c = &b->nodes[b->edges[e].b];
        cb_buf_printf(o, "<line class=\"edge\" data-from=\"%u\" data-to=\"%u\"",
                      (unsigned)b->edges[e].a, (unsigned)b->edges[e].b);
        cb_svg_attr(o, "x1", a->x);
        cb_svg_attr(o, "y1", a->y);
        cb_svg_attr(o, "x2", c->x);
        cb_svg_attr(o, "y2", c->y);
        CB_LIT(o, "/>\n");
    }
    CB_LIT(o, "</g>\n");
}

/* A node's printed number, or a start's seat, bold on a white badge. */
static void cb_svg_number(cb_svg *s, const cb_board *b, const cb_node *n, cb_rgb c)
{
    if (n->number <= 0)
        return;
    cb_buf *o = &s->out;
    double nb[4];
    cb_sheet_number_badge(b, n, nb);
    cb_svg_circle(o, n->x + nb[0], n->y + nb[1], nb[2]);
    cb_svg_colour(o, "fill", cb_white);
    cb_svg_colour(o, "stroke", cb_sheet_outline(c, s->opt->ink_friendly));
    cb_svg_attr(o, "stroke-width", cb_svg_mm(CB_NODE_PT));
    CB_LIT(o, "/><text class=\"number\" text-anchor=\"middle\" font-weight=\"bold\"");
    cb_svg_attr(o, "x", n->x + nb[0]);
    cb_svg_attr(o, "y", n->y + nb[1] + 0.36 * cb_svg_mm(nb[3]));
    CB_LIT(o, " font-family=\"DejaVu Sans, sans-serif\"");
    cb_svg_attr(o, "font-size", cb_svg_mm(nb[3]));
    cb_svg_colour(o, "fill", cb_ink);
    cb_buf_printf(o, ">%d</text>", n->number);
}

static void cb_svg_start(cb_svg *s, const cb_board *b, size_t i)
{
    const cb_node *n = &b->nodes[i];
    cb_buf *o = &s->out;
    double rc[4];
    int quarters = cb_sheet_start_rect(b, n, rc);
    cb_rgb c = cb_plain;
    int k = -1;
    const char *mission = NULL;
    if (s->theme && n->mission >= 0) {
        c = cb_rgb_of(s->theme->missions[n->mission].rgb);
        k = s->mission_icon[n->mission];
        mission = s->theme->missions[n->mission].name;
    }
    cb_buf_printf(o, "<g class=\"start\" data-id=\"%zu\"", i);
    if (mission) {
        CB_LIT(o, " data-mission=\"");
        cb_svg_text(o, mission);
        CB_LIT(o, "\"");
    }
    CB_LIT(o, "><rect");
    cb_svg_attr(o, "x", rc[0]);
    cb_svg_attr(o, "y", rc[1]);
    cb_svg_attr(o, "width", rc[2]);
    cb_svg_attr(o, "height", rc[3]);
    cb_svg_colour(o, "fill", cb_sheet_fill(c, s->opt->ink_friendly));
    cb_svg_colour(o, "stroke", cb_sheet_outline(c, s->opt->ink_friendly));
    cb_svg_attr(o, "stroke-width", cb_svg_mm(CB_START_PT));
    CB_LIT(o, "/>");
    cb_svg_use(s, k, rc[0] + rc[2] / 2, rc[1] + rc[3] / 2, CB_ICON_SIDE * b->node_radius,
               quarters);
    cb_svg_number(s, b, n, c);
    CB_LIT(o, "</g>\n");
}

static void cb_svg_center(cb_svg *s, const cb_board *b, size_t i)
{
    const cb_node *n = &b->nodes[i];
    cb_buf *o = &s->out;
    double r = b->node_radius;
    cb_rgb c = s->theme ? cb_rgb_of(s->theme->center.rgb) : cb_plain_ctr;
    cb_buf_printf(o, "<g class=\"center\" data-id=\"%zu\">", i);
    cb_svg_circle(o, n->x, n->y, r);
    cb_svg_colour(o, "fill", cb_sheet_fill(c, s->opt->ink_friendly));
    cb_svg_colour(o, "stroke", cb_sheet_outline(c, s->opt->ink_friendly));
    cb_svg_attr(o, "stroke-width", cb_svg_mm(CB_CENTER_PT));
    CB_LIT(o, "/>");
    cb_svg_circle(o, n->x, n->y, CB_CENTER_RING * r);
    CB_LIT(o, " fill=\"none\"");
    cb_svg_colour(o, "stroke", cb_sheet_outline(c, s->opt->ink_friendly));
    cb_svg_attr(o, "stroke-width", cb_svg_mm(CB_CENTER_RING_PT));
    CB_LIT(o, "/>");
    cb_svg_use(s, s->center_icon, n->x, n->y, CB_CENTER_ICON * r, 0);
    CB_LIT(o, "</g>\n");
}

static void cb_svg_node(cb_svg *s, const cb_board *b, size_t i)
{
    const cb_node *n = &b->nodes[i];
    cb_buf *o = &s->out;
    cb_rgb c = cb_plain;
    int k = -1;
    const char *type = NULL;
    if (s->theme && n->type >= 0) {
        c = cb_rgb_of(s->theme->types[n->type].rgb);
        k = s->type_icon[n->type];
        type = s->theme->types[n->type].name;
    }
    cb_buf_printf(o, "<g class=\"node\" data-id=\"%zu\"", i);
    if (type) {
        CB_LIT(o, " data-type=\"");
        cb_svg_text(o, type);
        CB_LIT(o, "\"");
    }
    CB_LIT(o, ">");
    cb_svg_circle(o, n->x, n->y, b->node_radius);
    cb_svg_colour(o, "fill", type ? cb_type_fill(s->theme, n->type, s->opt->ink_friendly)
                                  : cb_sheet_fill(c, s->opt->ink_friendly));
    cb_svg_colour(o, "stroke", cb_sheet_outline(c, s->opt->ink_friendly));
    cb_svg_attr(o, "stroke-width",
                cb_svg_mm(s->opt->ink_friendly ? CB_NODE_INK_PT : CB_NODE_PT));
    CB_LIT(o, "/>");
    double dx, dy, side; /* moved inward on the trim line */
    cb_node_icon_place(b, n, &dx, &dy, &side);
    cb_svg_use(s, k, n->x + dx, n->y + dy, side, 0);
    cb_svg_number(s, b, n, c);
    CB_LIT(o, "</g>\n");
}

static void cb_svg_dots(cb_svg *s, const cb_board *b)
{
    cb_buf *o = &s->out;
    double xy[CB_SVG_MAX_DOTS][2];
    double r = cb_dot_radius(b->node_radius);
    cb_rgb fill = {CB_DOT_GREY, CB_DOT_GREY, CB_DOT_GREY};
    CB_LIT(o, "<g class=\"dots\"");
    cb_svg_colour(o, "fill", s->opt->ink_friendly ? cb_white : fill);
    cb_svg_colour(o, "stroke", cb_ink);
    cb_svg_attr(o, "stroke-width", cb_svg_mm(CB_DOT_PT));
    CB_LIT(o, ">\n");
    for (size_t i = 0; i < b->n_nodes; i++) {
        int k = cb_board_dot_positions(b, (uint32_t)i, xy, CB_SVG_MAX_DOTS);
        for (int d = 0; d < k && d < CB_SVG_MAX_DOTS; d++) {
            cb_svg_circle(o, xy[d][0], xy[d][1], r);
            cb_buf_printf(o, " data-node=\"%zu\"/>\n", i);
        }
    }
    CB_LIT(o, "</g>\n");
}

static double cb_svg_text_width(void *ctx, const char *text, double size)
{
    const cb_pdf *p = ctx;
    HPDF_TextWidth tw = HPDF_Font_TextWidth(p->font, (const HPDF_BYTE *)text,
                                            (HPDF_UINT)strlen(text));
    return (double)((HPDF_REAL)tw.width * (HPDF_REAL)size / (HPDF_REAL)1000);
}

/* The label, measured with the PDF's font (a libharu document that holds
 * only the font, never saved). */
static cb_status cb_svg_label(cb_svg *s, const cb_board *b, cb_error *err)
{
    cb_pdf p;
    memset(&p, 0, sizeof p);
    p.center_icon = -1;
    p.doc = cb_hpdf_new(&p);
    if (!p.doc)
        return cb_fail(err, CB_ERR_NOMEM, "SVG: out of memory loading the font");
    cb_render_options opt = *s->opt;
    opt.dated = 0;
    cb_status st = cb_pdf_setup(&p, &opt, err);
    cb_label lb;
    cb_strip strip;
    strip.n = 0;
    char family[128] = "";
    if (st == CB_OK) {
        cb_sheet_label(s->game, b, s->opt->safe_area, HPDF_Font_GetAscent(p.font),
                       HPDF_Font_GetDescent(p.font), cb_svg_text_width, &p, &lb);
        double lw = cb_svg_text_width(&p, lb.text, lb.size_pt) / CB_PT_PER_MM;
        cb_sheet_strip(b, s->theme, &lb, lw, s->opt->safe_area, HPDF_Font_GetAscent(p.font),
                       HPDF_Font_GetDescent(p.font), cb_svg_text_width, &p, &strip);
        const char *name = HPDF_Font_GetFontName(p.font);
        /* libharu names it "PostScriptName,Style" */
        snprintf(family, sizeof family, "%.*s", name ? (int)strcspn(name, ",") : 0,
                 name ? name : "");
    }
    HPDF_Free(p.doc);
    cb_render_free(&p);
    if (st != CB_OK)
        return st;
    cb_buf *o = &s->out;
    double h = b->page_h;
    if (lb.patch) {
        CB_LIT(o, "<rect");
        cb_svg_attr(o, "x", lb.patch_box[0]);
        cb_svg_attr(o, "y", h - lb.patch_box[1] - lb.patch_box[3]);
        cb_svg_attr(o, "width", lb.patch_box[2]);
        cb_svg_attr(o, "height", lb.patch_box[3]);
        CB_LIT(o, " fill=\"#ffffff\"/>\n");
    }
    /* The font's own name first (a PostScript name such as DejaVuSans),
     * then its family as most systems know it. */
    CB_LIT(o, "<text class=\"label\" xml:space=\"preserve\"");
    cb_svg_attr(o, "x", lb.x);
    cb_svg_attr(o, "y", h - lb.base);
    CB_LIT(o, " font-family=\"");
    cb_svg_text(o, family);
    CB_LIT(o, ", DejaVu Sans, sans-serif\"");
    cb_svg_attr(o, "font-size", cb_svg_mm(lb.size_pt));
    cb_svg_colour(o, "fill", (cb_rgb){CB_LABEL_GREY, CB_LABEL_GREY, CB_LABEL_GREY});
    CB_LIT(o, ">");
    cb_svg_text(o, lb.text);
    CB_LIT(o, "</text>\n");
    /* the legend strip, as the PDF draws it (sheet.c lays it out) */
    for (int i = 0; i < strip.n; i++) {
        const cb_strip_item *it = &strip.item[i];
        cb_rgb c = cb_rgb_of(s->theme->types[it->type].rgb);
        CB_LIT(o, "<g class=\"legend\">");
        cb_svg_circle(o, it->x, it->y, CB_STRIP_R);
        cb_svg_colour(o, "fill", cb_type_fill(s->theme, it->type, s->opt->ink_friendly));
        cb_svg_colour(o, "stroke", cb_sheet_outline(c, s->opt->ink_friendly));
        cb_svg_attr(o, "stroke-width",
                    cb_svg_mm(s->opt->ink_friendly ? CB_NODE_INK_PT : CB_NODE_PT));
        CB_LIT(o, "/>");
        cb_svg_use(s, s->type_icon[it->type], it->x, it->y, CB_ICON_SIDE * CB_STRIP_R, 0);
        CB_LIT(o, "<text xml:space=\"preserve\"");
        cb_svg_attr(o, "x", it->tx);
        cb_svg_attr(o, "y", it->base);
        CB_LIT(o, " font-family=\"");
        cb_svg_text(o, family);
        CB_LIT(o, ", DejaVu Sans, sans-serif\"");
        cb_svg_attr(o, "font-size", cb_svg_mm(CB_STRIP_PT));
        cb_svg_colour(o, "fill", cb_ink);
        CB_LIT(o, ">");
        cb_svg_text(o, it->text);
        CB_LIT(o, "</text></g>\n");
    }
    return CB_OK;
}

static cb_status cb_svg_sheet(cb_svg *s, const cb_board *b, cb_error *err)
{
    cb_buf *o = &s->out;
    double bl = s->opt->bleed > 0 ? s->opt->bleed : 0;
    double w = b->page_w + 2 * bl, h = b->page_h + 2 * bl;
    CB_LIT(o, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    CB_LIT(o, "<svg xmlns=\"http://www.w3.org/2000/svg\" "
              "xmlns:xlink=\"http://www.w3.org/1999/xlink\" version=\"1.1\"");
    CB_LIT(o, " width=\"");
    cb_svg_num(o, w);
    CB_LIT(o, "mm\" height=\"");
    cb_svg_num(o, h);
    CB_LIT(o, "mm\" viewBox=\"");
    cb_svg_num(o, -bl);
    CB_LIT(o, " ");
    cb_svg_num(o, -bl);
    CB_LIT(o, " ");
    cb_svg_num(o, w);
    CB_LIT(o, " ");
    cb_svg_num(o, h);
    cb_buf_printf(o, "\" data-nodes=\"%zu\" data-edges=\"%zu\">\n", b->n_nodes, b->n_edges);
    cb_buf_printf(o, "<title>cutboard " CB_VERSION " sheet: seed \"");
    cb_svg_text(o, b->seed);
    CB_LIT(o, "\"</title>\n");

    cb_svg_mark_used(s, b);
    int any = 0;
    for (size_t k = 0; k < s->n_icons; k++)
        any |= s->icons[k].used;
    if (any) {
        CB_LIT(o, "<defs>\n");
        for (size_t k = 0; k < s->n_icons; k++) {
            cb_status st = s->icons[k].used ? cb_svg_symbol(s, k, err) : CB_OK;
            if (st != CB_OK)
                return st;
        }
        CB_LIT(o, "</defs>\n");
    }

    /* The paper, white as the PDF page is; with a bleed, the margin's tint
     * out to the bleed edge around the trim. */
    CB_LIT(o, "<rect");
    cb_svg_attr(o, "x", -bl);
    cb_svg_attr(o, "y", -bl);
    cb_svg_attr(o, "width", w);
    cb_svg_attr(o, "height", h);
    CB_LIT(o, " fill=\"#ffffff\"/>\n");
    if (bl > 0) {
        CB_LIT(o, "<path fill-rule=\"evenodd\"");
        cb_svg_colour(o, "fill", (cb_rgb){CB_BLEED_GREY, CB_BLEED_GREY, CB_BLEED_GREY});
        CB_LIT(o, " d=\"M");
        cb_svg_num(o, -bl);
        CB_LIT(o, " ");
        cb_svg_num(o, -bl);
        CB_LIT(o, "h");
        cb_svg_num(o, w);
        CB_LIT(o, "v");
        cb_svg_num(o, h);
        CB_LIT(o, "h");
        cb_svg_num(o, -w);
        CB_LIT(o, "zM");
        cb_svg_num(o, b->board_x);
        CB_LIT(o, " ");
        cb_svg_num(o, b->board_y);
        CB_LIT(o, "h");
        cb_svg_num(o, b->board_w);
        CB_LIT(o, "v");
        cb_svg_num(o, b->board_h);
        CB_LIT(o, "h");
        cb_svg_num(o, -b->board_w);
        CB_LIT(o, "z\"/>\n");
    }
    /* The trim line players cut the margin off along. */
    CB_LIT(o, "<rect class=\"trim\"");
    cb_svg_attr(o, "x", b->board_x);
    cb_svg_attr(o, "y", b->board_y);
    cb_svg_attr(o, "width", b->board_w);
    cb_svg_attr(o, "height", b->board_h);
    CB_LIT(o, " fill=\"none\"");
    cb_svg_colour(o, "stroke", (cb_rgb){CB_TRIM_GREY, CB_TRIM_GREY, CB_TRIM_GREY});
    cb_svg_attr(o, "stroke-width", cb_svg_mm(CB_TRIM_PT));
    CB_LIT(o, "/>\n");

    cb_svg_edges(s, b);
    cb_svg_dots(s, b); /* under the nodes, as in the PDF */
    CB_LIT(o, "<g class=\"nodes\">\n");
    for (size_t i = 0; i < b->n_nodes; i++) {
        const cb_node *n = &b->nodes[i];
        if (i == b->center || n->kind == CB_KIND_CENTER)
            cb_svg_center(s, b, i);
        else if (n->kind == CB_KIND_START)
            cb_svg_start(s, b, i);
        else
            cb_svg_node(s, b, i);
    }
    CB_LIT(o, "</g>\n");
    cb_status st = cb_svg_label(s, b, err);
    if (st != CB_OK)
        return st;
    CB_LIT(o, "</svg>\n");
    return CB_OK;
}

cb_status cb_svg_render(const cb_game *game, size_t sheet, const cb_theme *theme,
                        const cb_render_options *opt, char **svg, size_t *len, cb_error *err)
{
    if (!svg || !len || !opt)
        return cb_fail(err, CB_ERR_INTERNAL, "SVG: no output buffer or options given");
    *svg = NULL;
    *len = 0;
    if (!opt->font_path || !*opt->font_path)
        return cb_fail(err, CB_ERR_USAGE, "font: no TrueType font file given");
    if (opt->cmyk)
        return cb_fail_option(err, "cmyk", "SVG is RGB; CMYK is for PDF output only");
    if (opt->crop_marks)
        return cb_fail_option(err, "crop_marks", "PDF output only, not SVG");
    if (opt->sheet_w > 0 || opt->sheet_h > 0)
        return cb_fail_option(err, "sheet", "imposition is PDF output only; SVG "
                                          "draws one board per file");
    cb_status st = cb_sheet_check_game(game, theme, "SVG", err);
    if (st == CB_OK && sheet >= game->n_sheets)
        st = cb_fail(err, CB_ERR_INTERNAL, "SVG: no sheet %zu", sheet + 1);
    if (st == CB_OK)
        st = cb_sheet_check_safe(game, opt->safe_area, err);
    cb_svg s;
    memset(&s, 0, sizeof s);
    s.game = game;
    s.theme = theme;
    s.opt = opt;
    if (st == CB_OK)
        st = cb_svg_load_icons(&s, err);
    if (st == CB_OK)
        st = cb_svg_sheet(&s, game->sheets[sheet], err);
    if (st == CB_OK && s.out.oom)
        st = cb_fail(err, CB_ERR_NOMEM, "SVG: out of memory");
    free(s.icons);
    free(s.type_icon);
    free(s.mission_icon);
    if (st != CB_OK) {
        cb_buf_free(&s.out);
        return st;
    }
    *svg = s.out.data;
    *len = s.out.len;
    return CB_OK;
}
