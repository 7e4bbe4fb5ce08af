/* One board drawn as one PDF page: trim line, edges, nodes, starts, the
 * centre, power dots and the label.
 *
 * Boards are in millimetres with y pointing down; PDF user space is in points
 * with y pointing up, so every coordinate goes through cb_x / cb_y. */
#include "print/colour.h"
#include "print/content.h"
#include "print/hpdf_internals.h"
#include "print/render.h"
#include "print/shapes.h"
#include "base/board_geometry.h"

#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <libdeflate.h>
#include <zlib.h>

#define CB_MAX_DOTS 16

static HPDF_REAL cb_x(double mm)
{
    return cb_pt(mm);
}

static HPDF_REAL cb_y(const cb_board *b, double mm)
{
    return cb_pt(b->page_h - mm);
}

void cb_render_free(cb_pdf *p)
{
    if (p->cs.z)
        deflateEnd(p->cs.z);
    free(p->cs.z);
    libdeflate_free_compressor(p->cs.ld);
    cb_buf_free(&p->cs.text);
    free(p->cs.out);
    memset(&p->cs, 0, sizeof p->cs);
    cb_page_rec_free(&p->page);
    for (size_t i = 0; i < p->n_done; i++)
        cb_page_rec_free(&p->done[i]);
    free(p->done);
    free(p->icon_on_page);
    free(p->measured);
    free(p->chars);
    free(p->shapes);
    p->done = NULL;
    p->n_done = p->done_cap = 0;
    p->icon_on_page = NULL;
    p->measured = NULL;
    p->chars = NULL;
    p->n_chars = p->chars_cap = 0;
    p->shapes = NULL;
    p->n_shapes = p->shapes_cap = 0;
}

/* Saves the graphics state and moves the origin to (x, y) pt. Shapes drawn
 * about the origin repeat byte for byte from node to node, which Flate
 * compresses far better (and faster) than the same shapes in page space. */
static void cb_begin_at(cb_pdf *p, HPDF_REAL x, HPDF_REAL y)
{
    cb_cs_str(p, "q\n1 0 0 1 ");
    CB_XY(p, "cm", x, y);
}

/* A filled, outlined disk about the origin. */
static void cb_disk(cb_pdf *p, double r_pt, cb_rgb fill, cb_rgb stroke, double width_pt)
{
    cb_set_fill(p, fill);
    cb_set_stroke(p, stroke, width_pt);
    cb_circle(p, (HPDF_REAL)r_pt, 'B', (HPDF_REAL)(width_pt + 1));
}

/* Icon SLOT's number on the page being drawn, listed there the first
 * time ("/X<k>"); 0 when out of memory. */
static int cb_icon_on_page(cb_pdf *p, int slot)
{
    if (p->icon_on_page[slot])
        return p->icon_on_page[slot];
    cb_page_rec *pg = &p->page;
    if (!pg->icons) {
        /* both or neither: a later icon of the page must not find one */
        int *icons = malloc((p->n_icons + 1) * sizeof *pg->icons);
        float *pt = icons ? malloc((p->n_icons + 1) * sizeof *pg->icon_pt) : NULL;
        if (!pt) {
            free(icons);
            p->cs.st = HPDF_FAILD_TO_ALLOC_MEM;
            return 0;
        }
        pg->icons = icons;
        pg->icon_pt = pt;
    }
    pg->icon_pt[pg->n_icons] = 0;
    pg->icons[pg->n_icons++] = slot;
    return p->icon_on_page[slot] = pg->n_icons;
}

/* "q w 0 0 h x y cm /Name Do Q", as HPDF_Page_DrawImage writes it. */
static void cb_image(cb_pdf *p, int slot, HPDF_REAL x, HPDF_REAL y, HPDF_REAL w, HPDF_REAL h)
{
    int k = cb_icon_on_page(p, slot);
    if (!k)
        return;
    float side = (float)fmax(fabs(w), fabs(h));
    if (side > p->page.icon_pt[k - 1])
        p->page.icon_pt[k - 1] = side;
    cb_cs_str(p, "q\n");
    CB_OP(p, "cm", w, 0, 0, h, x, y);
    cb_cs_do(p, 'X', k);
    cb_cs_str(p, "Q\n");
}

/* Icon SLOT's size (pt) fitted into a square of SIDE pt, and the corner
 * that centres it on the origin. */
static void cb_icon_box(const cb_pdf *p, int slot, double side, HPDF_REAL box[4])
{
    const cb_pdf_icon *ic = &p->icons[slot];
    double wh[2];
    cb_sheet_icon_fit(ic->w, ic->h, side, wh);
    double w = wh[0], h = wh[1];
    box[0] = (HPDF_REAL)(-w / 2), box[1] = (HPDF_REAL)(-h / 2);
    box[2] = (HPDF_REAL)w, box[3] = (HPDF_REAL)h;
}

/* Draws icon SLOT centred on (x, y) pt, fitted into a square of SIDE pt and
 * turned by QUARTERS quarter turns counter-clockwise. */
static void cb_icon_draw(cb_pdf *p, int slot, HPDF_REAL x, HPDF_REAL y,
                         double side, int quarters)
{
    /* Exact matrices: cos/sin of multiples of 90 degrees are not exact. */
    static const HPDF_REAL rot[4][4] = {
        {1, 0, 0, 1}, {0, 1, -1, 0}, {-1, 0, 0, -1}, {0, -1, 1, 0}};
    if (slot < 0)
        return;
    HPDF_REAL box[4];
    cb_icon_box(p, slot, side, box);
    if (quarters == 0 && x == 0 && y == 0) { /* already placed by cb_begin_at */
        cb_image(p, slot, box[0], box[1], box[2], box[3]);
        return;
    }
    const HPDF_REAL *m = rot[quarters & 3];
    cb_cs_str(p, "q\n");
    CB_OP(p, "cm", m[0], m[1], m[2], m[3], x, y);
    cb_image(p, slot, box[0], box[1], box[2], box[3]);
    cb_cs_str(p, "Q\n");
}

static void cb_draw_edges(cb_pdf *p, const cb_board *b)
{
    if (b->n_edges == 0)
        return;
    cb_set_stroke(p, cb_line_ink(p, cb_ink), CB_EDGE_PT);
    cb_cs_str(p, "1 J\n");
    for (size_t e = 0; e < b->n_edges; e++) {
        const cb_node *a = &b->nodes[b->edges[e].a], *c = &b->nodes[b->edges[e].b];
        CB_XY(p, "m", cb_x(a->x), cb_y(b, a->y));
        CB_XY(p, "l", cb_x(c->x), cb_y(b, c->y));
    }
    cb_cs_str(p, "S\n0 J\n");
}

/* A node's printed number, or a start's seat, bold on a white badge. */
static void cb_draw_number(cb_pdf *p, const cb_board *b, const cb_node *n, cb_rgb c)
{
    if (n->number <= 0)
        return;
    double nb[4];
    char digits[16];
    cb_sheet_number_badge(b, n, nb);
    snprintf(digits, sizeof digits, "%d", n->number);
    HPDF_REAL x = cb_x(n->x + nb[0]), y = cb_y(b, n->y + nb[1]);
    cb_begin_at(p, x, y);
    cb_disk(p, cb_pt(nb[2]), cb_white, cb_sheet_outline(c, p->ink), CB_NODE_PT);
    cb_cs_str(p, "Q\n");
    cb_set_fill(p, cb_line_ink(p, cb_ink));
    double w = cb_render_text_width(p, digits, nb[3]);
    cb_render_text(p, x - w / 2, y - 0.36 * nb[3], nb[3], digits, NULL);
}

/* A start is a rectangle on the trim line, its mission icon turned so its
 * top faces the board's centre. */
static void cb_draw_start(cb_pdf *p, const cb_board *b, const cb_node *n)
{
    double rc[4], r = b->node_radius;
    int quarters = cb_sheet_start_rect(b, n, rc);
    double x0 = rc[0], y0 = rc[1], w = rc[2], h = rc[3];
    cb_rgb c = cb_plain;
    int slot = -1;
    if (p->theme && n->mission >= 0) {
        c = cb_rgb_of(p->theme->missions[n->mission].rgb);
        slot = p->mission_icon[n->mission];
    }
    cb_set_fill(p, cb_sheet_fill(c, p->ink));
    cb_set_stroke(p, cb_sheet_outline(c, p->ink), CB_START_PT);
    CB_OP(p, "re", cb_x(x0), cb_y(b, y0 + h), cb_pt(w), cb_pt(h));
    cb_cs_str(p, "B\n");
    cb_icon_draw(p, slot, cb_x(x0 + w / 2), cb_y(b, y0 + h / 2), cb_pt(CB_ICON_SIDE * r),
                 quarters);
    cb_draw_number(p, b, n, c);
}

static void cb_draw_center(cb_pdf *p, const cb_board *b, const cb_node *n)
{
    cb_render_center_at(p, cb_x(n->x), cb_y(b, n->y), cb_pt(b->node_radius));
}

/* A node of theme type TYPE (-1: none) and radius R pt, drawn whole about
 * the origin (fill, outline, icon) as a shape every page shares: the
 * nodes are most of a page, and a page then names each in one line.
 * Returns the shape's index on the page, or -1 (draw the node inline). */
static int cb_node_shape(cb_pdf *p, int type, double r)
{
    double width = p->ink ? CB_NODE_INK_PT : CB_NODE_PT;
    return cb_page_shape(p, (HPDF_REAL)r, (HPDF_REAL)(width + 1), 'N', type);
}

HPDF_Dict cb_shape_form(cb_pdf *p, const cb_shape *sh)
{
    HPDF_Dict res, xo = NULL;
    HPDF_Dict f = cb_hpdf_form_new(p->doc, sh->r + sh->pad, &res);
    if (!f)
        return NULL;
    size_t start = p->cs.text.len;
    HPDF_STATUS st;
    if (sh->paint != 'N') {
        cb_cs_circle(p, 0, 0, sh->r);
        cb_cs_str(p, sh->paint == 'f' ? "f\n" : "B\n");
        st = p->cs.st != HPDF_OK ? p->cs.st
                                 : cb_hpdf_stream_put(f, p->cs.text.data + start,
                                                      p->cs.text.len - start, 0);
        p->cs.text.len = start;
        return st == HPDF_OK ? f : NULL;
    }
    int type = sh->type;
    cb_rgb c = type >= 0 ? cb_rgb_of(p->theme->types[type].rgb) : cb_plain;
    int slot = type >= 0 ? p->type_icon[type] : -1;
    if (slot >= 0) { /* embedded first by the caller (cb_pdf_shape) */
        xo = p->icons[slot].image ? cb_hpdf_dict_new(p->doc) : NULL;
        if (!xo || HPDF_Dict_Add(res, "XObject", xo) != HPDF_OK ||
            HPDF_Dict_Add(xo, "I", p->icons[slot].image) != HPDF_OK)
            return NULL;
    }
    cb_set_fill(p, type >= 0 ? cb_type_fill(p->theme, type, p->ink) : cb_sheet_fill(c, p->ink));
    cb_set_stroke(p, cb_sheet_outline(c, p->ink), sh->pad - 1);
    cb_cs_circle(p, 0, 0, sh->r);
    cb_cs_str(p, "B\n");
    if (slot >= 0) {
        HPDF_REAL box[4];
        cb_icon_box(p, slot, CB_ICON_SIDE * sh->r, box);
        cb_cs_str(p, "q\n");
        CB_OP(p, "cm", box[2], 0, 0, box[3], box[0], box[1]);
        cb_cs_str(p, "/I Do\nQ\n");
    }
    st = p->cs.st != HPDF_OK ? p->cs.st
                             : cb_pdf_put_deflated(p, f, p->cs.text.data + start,
                                                   p->cs.text.len - start, CB_CONTENT_LEVEL,
                                                   Z_DEFAULT_STRATEGY);
    p->cs.text.len = start;
    return st == HPDF_OK ? f : NULL;
}

static void cb_draw_node(cb_pdf *p, const cb_board *b, const cb_node *n)
{
    double r = cb_pt(b->node_radius);
    cb_rgb c = cb_plain;
    int slot = -1, type = -1;
    if (p->theme && n->type >= 0) {
        type = n->type;
        c = cb_rgb_of(p->theme->types[n->type].rgb);
        slot = p->type_icon[n->type];
    }
    double dx, dy, side;
    cb_node_icon_place(b, n, &dx, &dy, &side);
    cb_begin_at(p, cb_x(n->x), cb_y(b, n->y));
    /* A node on the trim line has its icon moved inward: drawn here, not
     * from the shape every other node of its type shares. */
    if (cb_on_trim(b, n) || cb_shape_do(p, cb_node_shape(p, type, r)) != 0) {
        cb_disk(p, r, type >= 0 ? cb_type_fill(p->theme, type, p->ink) : cb_sheet_fill(c, p->ink),
                cb_sheet_outline(c, p->ink), p->ink ? CB_NODE_INK_PT : CB_NODE_PT);
        cb_icon_draw(p, slot, cb_pt(dx), -cb_pt(dy), cb_pt(side), 0);
    }
    cb_cs_str(p, "Q\n");
    cb_draw_number(p, b, n, c);
}

/* Power dots: light circles with a dark outline, touching their nodes
 * from outside; drawn before the nodes, so a node's outline covers the
 * point where its dot touches it. */
static void cb_draw_dots(cb_pdf *p, const cb_board *b)
{
    double xy[CB_MAX_DOTS][2];
    HPDF_REAL r = (HPDF_REAL)cb_pt(cb_dot_radius(b->node_radius));
    cb_rgb fill = {CB_DOT_GREY, CB_DOT_GREY, CB_DOT_GREY};
    cb_set_fill(p, p->ink ? cb_white : fill);
    cb_set_stroke(p, cb_line_ink(p, cb_ink), CB_DOT_PT);
    for (size_t i = 0; i < b->n_nodes; i++) {
        int k = cb_board_dot_positions(b, (uint32_t)i, xy, CB_MAX_DOTS);
        for (int d = 0; d < k && d < CB_MAX_DOTS; d++) {
            cb_begin_at(p, cb_x(xy[d][0]), cb_y(b, xy[d][1]));
            cb_circle(p, r, 'B', (HPDF_REAL)(CB_DOT_PT / 2));
            cb_cs_str(p, "Q\n");
        }
    }
}

/* TEXT as a hex string of 16-bit codes (cb_text_hex). */
static void cb_cs_text(cb_pdf *p, const char *text)
{
    char *s = cb_cs_room(p, 4 * strlen(text) + 2);
    if (s)
        p->cs.text.len += cb_text_hex(text, s);
}

/* The font's resource name on the page being drawn: it has one font. */
static const char *cb_font_name(cb_pdf *p)
{
    p->page.font = 1;
    return "F1";
}

/* Remembers character CODE as measured: the page that ends next lists it,
 * so the document keeps its glyph in the embedded font. */
static void cb_measured(cb_pdf *p, unsigned code)
{
    if (!p->measured && !(p->measured = calloc(65536 / 64, sizeof *p->measured))) {
        p->cs.st = HPDF_FAILD_TO_ALLOC_MEM;
        return;
    }
    uint64_t bit = (uint64_t)1 << (code & 63);
    if (p->measured[code >> 6] & bit)
        return;
    if (p->n_chars == p->chars_cap) {
        size_t cap = p->chars_cap ? 2 * p->chars_cap : 128;
        uint16_t *c = realloc(p->chars, cap * sizeof *c);
        if (!c) {
            p->cs.st = HPDF_FAILD_TO_ALLOC_MEM;
            return;
        }
        p->chars = c;
        p->chars_cap = cap;
    }
    p->measured[code >> 6] |= bit;
    p->chars[p->n_chars++] = (uint16_t)code;
}

/* TEXT's width in pt at SIZE, as HPDF_Page_TextWidth computes it: the
 * UTF-8 read as libharu's encoder reads it (a bad lead byte skipped,
 * anything past the BMP a space), the widths summed in 1/1000 em. Its
 * characters are remembered, so the embedded font keeps their glyphs. */
static double cb_text_width(void *ctx, const char *text, double size)
{
    cb_pdf *p = ctx;
    unsigned total = 0;
    for (const unsigned char *c = (const unsigned char *)text; *c;) {
        unsigned cp, more;
        if (c[0] < 0x80)
            cp = c[0], more = 0;
        else if ((c[0] & 0xE0) == 0xC0)
            cp = c[0] & 0x1Fu, more = 1;
        else if ((c[0] & 0xF0) == 0xE0)
            cp = c[0] & 0x0Fu, more = 2;
        else if ((c[0] & 0xF8) == 0xF0)
            cp = c[0] & 0x07u, more = 3;
        else {
            c++;
            continue;
        }
        c++;
        unsigned k = 0;
        for (; k < more && *c; k++, c++)
            cp = cp << 6 | (*c & 0x3Fu);
        if (k < more)
            break; /* cut short: libharu counts nothing for it either */
        if (more == 3)
            cp = 32; /* past the BMP (libharu's arithmetic always lands there) */
        total += cp < 256 && p->widths ? p->widths[cp] : cb_hpdf_char_width(p->font, cp);
        cb_measured(p, cp);
    }
    return (double)((HPDF_REAL)total * (HPDF_REAL)size / (HPDF_REAL)1000);
}

/* The label, laid out by cb_sheet_label (sheet.c). */
static void cb_draw_label(cb_pdf *p, const cb_board *b)
{
    cb_label lb;
    cb_sheet_label(p->game, b, p->opt.safe_area, HPDF_Font_GetAscent(p->font),
                   HPDF_Font_GetDescent(p->font), cb_text_width, p, &lb);
    cb_cs_str(p, "/");
    cb_cs_str(p, cb_font_name(p));
    cb_cs_str(p, " ");
    CB_OP(p, "Tf", (HPDF_REAL)lb.size_pt);
    if (lb.patch) {
        cb_set_fill(p, cb_white);
        CB_OP(p, "re", cb_x(lb.patch_box[0]), cb_pt(lb.patch_box[1]), cb_pt(lb.patch_box[2]),
              cb_pt(lb.patch_box[3]));
        cb_cs_str(p, "f\n");
    }
    cb_set_fill(p, cb_line_ink(p, (cb_rgb){CB_LABEL_GREY, CB_LABEL_GREY, CB_LABEL_GREY}));
    cb_cs_str(p, "BT\n");
    CB_OP(p, "Td", cb_x(lb.x), cb_pt(lb.base));
    cb_cs_text(p, lb.text);
    cb_cs_str(p, " Tj\nET\n");
}

/* The legend strip in the margin, laid out by cb_sheet_strip (sheet.c). */
static void cb_draw_strip(cb_pdf *p, const cb_board *b)
{
    if (!p->theme)
        return;
    cb_label lb;
    cb_strip st;
    double asc = HPDF_Font_GetAscent(p->font), desc = HPDF_Font_GetDescent(p->font);
    cb_sheet_label(p->game, b, p->opt.safe_area, asc, desc, cb_text_width, p, &lb);
    double lw = cb_text_width(p, lb.text, lb.size_pt) / CB_PT_PER_MM;
    cb_sheet_strip(b, p->theme, &lb, lw, p->opt.safe_area, asc, desc, cb_text_width, p, &st);
    for (int i = 0; i < st.n; i++) {
        const cb_strip_item *it = &st.item[i];
        cb_render_node_at(p, it->type, cb_x(it->x), cb_y(b, it->y), cb_pt(CB_STRIP_R));
        cb_rgb ink = cb_line_ink(p, cb_ink);
        cb_set_fill(p, ink);
        cb_render_text(p, cb_x(it->tx), cb_y(b, it->base), CB_STRIP_PT, NULL, it->text);
    }
}

/* With a bleed, the margin players cut off gets a pale tint that runs
 * from the board's trim line out to the bleed edge: the artwork that
 * reaches the paper edge, so a trim a little off leaves no white sliver. */
static void cb_draw_margin_tint(cb_pdf *p, const cb_board *b)
{
    double bl = p->opt.bleed;
    if (bl <= 0)
        return;
    cb_set_fill(p, (cb_rgb){CB_BLEED_GREY, CB_BLEED_GREY, CB_BLEED_GREY});
    CB_OP(p, "re", cb_pt(-bl), cb_pt(-bl), cb_pt(b->page_w + 2 * bl), cb_pt(b->page_h + 2 * bl));
    CB_OP(p, "re", cb_x(b->board_x), cb_y(b, b->board_y + b->board_h), cb_pt(b->board_w),
          cb_pt(b->board_h));
    cb_cs_str(p, "f*\n");
}

/* Back to front: margin tint, trim line, edges, dots, nodes over the
 * edges' ends and the dots' rims, label; in the board's own coordinates (its paper's
 * bottom-left corner at the origin). */
static void cb_draw_board(cb_pdf *p, const cb_board *b)
{
    cb_draw_margin_tint(p, b);
    /* The trim line players cut the margin off along. */
    if (p->cmyk)
        cb_set_stroke(p, cb_line_ink(p, cb_white), 0.5);
    else
        cb_cs_str(p, "0.55 G\n"); /* CB_TRIM_GREY */
    cb_cs_str(p, "0.5 w\n");      /* CB_TRIM_PT */
    CB_OP(p, "re", cb_x(b->board_x), cb_y(b, b->board_y + b->board_h), cb_pt(b->board_w),
          cb_pt(b->board_h));
    cb_cs_str(p, "S\n");

    cb_draw_edges(p, b);
    cb_draw_dots(p, b);
    for (size_t i = 0; i < b->n_nodes; i++) {
        const cb_node *n = &b->nodes[i];
        if (i == b->center || n->kind == CB_KIND_CENTER)
            cb_draw_center(p, b, n);
        else if (n->kind == CB_KIND_START)
            cb_draw_start(p, b, n);
        else
            cb_draw_node(p, b, n);
    }
    cb_draw_label(p, b);
    cb_draw_strip(p, b);
}

/* A page box from a layout rectangle (mm, from the top-left). */
static HPDF_Box cb_page_box(const cb_pdf *p, const double r[4])
{
    double ph = p->layout.page_h;
    return (HPDF_Box){cb_pt(r[0]), cb_pt(ph - r[1] - r[3]), cb_pt(r[0] + r[2]), cb_pt(ph - r[1])};
}

/* Distinct values of V (sorted ascending, so equal ones are neighbours). */
static int cb_distinct(double *v, int n)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        if (k == 0 || fabs(v[i] - v[k - 1]) > 1e-9)
            v[k++] = v[i];
    return k;
}

/* Crop marks: every trim line of the page's boards, extended outside the
 * block of boards, starting mark_offset past the trim, in registration
 * black (every separation) for CMYK. */
static void cb_draw_marks(cb_pdf *p)
{
    const cb_page_layout *l = &p->layout;
    if (l->mark_length <= 0)
        return;
    enum { MAX_LINES = 512 };
    double xs[MAX_LINES], ys[MAX_LINES];
    int nx = 0, ny = 0;
    for (int c = 0; c < l->cols && nx + 2 <= MAX_LINES; c++) {
        double x = l->trim[0] + c * (l->cell_w + l->gutter);
        xs[nx++] = x;
        xs[nx++] = x + l->cell_w;
    }
    for (int r = 0; r < l->rows && ny + 2 <= MAX_LINES; r++) {
        double y = l->trim[1] + r * (l->cell_h + l->gutter);
        ys[ny++] = y;
        ys[ny++] = y + l->cell_h;
    }
    nx = cb_distinct(xs, nx);
    ny = cb_distinct(ys, ny);
    cb_cs_str(p, p->cmyk ? "1 1 1 1 K\n0.25 w\n" : "0 0 0 RG\n0.25 w\n");
    double ph = l->page_h, off = l->mark_offset, len = l->mark_length;
    double top = l->trim[1], bottom = l->trim[1] + l->trim[3];
    double left = l->trim[0], right = l->trim[0] + l->trim[2];
    for (int i = 0; i < nx; i++) {
        HPDF_REAL x = cb_pt(xs[i]);
        CB_OP(p, "m", x, cb_pt(ph - (top - off)));
        CB_OP(p, "l", x, cb_pt(ph - (top - off - len)));
        CB_OP(p, "m", x, cb_pt(ph - (bottom + off)));
        CB_OP(p, "l", x, cb_pt(ph - (bottom + off + len)));
    }
    for (int i = 0; i < ny; i++) {
        HPDF_REAL y = cb_pt(ph - ys[i]);
        CB_OP(p, "m", cb_pt(left - off), y);
        CB_OP(p, "l", cb_pt(left - off - len), y);
        CB_OP(p, "m", cb_pt(right + off), y);
        CB_OP(p, "l", cb_pt(right + off + len), y);
    }
    cb_cs_str(p, "S\n");
}

HPDF_STATUS cb_render_page_begin(cb_pdf *p, HPDF_REAL w_pt, HPDF_REAL h_pt)
{
    CB_HPDF(cb_render_finish(p));
    p->page.w = w_pt;
    p->page.h = h_pt;
    p->cs.open = 1;
    p->n_pages++;
    return p->cs.st;
}

/* A new page of the layout's size, with its boxes and marks. */
static HPDF_STATUS cb_new_page(cb_pdf *p)
{
    CB_HPDF(cb_render_page_begin(p, cb_pt(p->layout.page_w), cb_pt(p->layout.page_h)));
    if (p->theme && !p->icon_on_page &&
        !(p->icon_on_page = calloc(p->n_icons + 1, sizeof *p->icon_on_page)))
        return HPDF_FAILD_TO_ALLOC_MEM;
    if (p->icon_on_page)
        memset(p->icon_on_page, 0, (p->n_icons + 1) * sizeof *p->icon_on_page);
    cb_page_rec *pg = &p->page;
    pg->boxes = p->shop;
    if (p->shop) {
        pg->bleed = cb_page_box(p, p->layout.bleed);
        pg->trim = cb_page_box(p, p->layout.trim);
    }
    cb_draw_marks(p);
    p->sheet = 1;
    p->slot = 0;
    return p->cs.st;
}

/* Starts the next slot of P's layout (a new page when the current one is
 * full, always without N-up) and moves the origin to its paper's
 * bottom-left corner; *MOVED says whether cb_render_cell_end has a "Q" to
 * write. */
HPDF_STATUS cb_render_cell_begin(cb_pdf *p, int *moved)
{
    const cb_page_layout *l = &p->layout;
    if (!p->sheet || p->slot >= l->cols * l->rows)
        CB_HPDF(cb_new_page(p));
    double x, y;
    cb_page_layout_cell(l, p->slot++, &x, &y);
    /* The board's paper goes into the slot: its bottom-left corner at
     * (tx, ty) pt, or turned a quarter turn counter-clockwise. */
    HPDF_REAL tx = cb_pt(x), ty = cb_pt(l->page_h - y - l->cell_h);
    *moved = l->rotated || tx != 0 || ty != 0;
    if (*moved) {
        cb_cs_str(p, "q\n");
        if (l->rotated)
            CB_OP(p, "cm", 0, 1, -1, 0, cb_pt(x + l->cell_w), ty);
        else
            CB_OP(p, "cm", 1, 0, 0, 1, tx, ty);
    }
    return p->cs.st;
}

void cb_render_cell_end(cb_pdf *p, int moved)
{
    if (moved)
        cb_cs_str(p, "Q\n");
}

HPDF_STATUS cb_render_sheet(cb_pdf *p, const cb_board *b)
{
    int moved;
    CB_HPDF(cb_render_cell_begin(p, &moved));
    cb_draw_board(p, b);
    cb_render_cell_end(p, moved);
    return p->cs.st;
}

/* ---- for the rules page and the legend strip ------------------------- */

double cb_render_text_width(cb_pdf *p, const char *text, double size_pt)
{
    return cb_text_width(p, text, size_pt);
}

void cb_render_text(cb_pdf *p, double x_pt, double y_pt, double size_pt, const char *bold,
                    const char *text)
{
    cb_cs_str(p, "BT\n/");
    cb_cs_str(p, cb_font_name(p));
    cb_cs_str(p, " ");
    CB_OP(p, "Tf", (HPDF_REAL)size_pt);
    CB_OP(p, "Td", (HPDF_REAL)x_pt, (HPDF_REAL)y_pt);
    if (bold && *bold) {
        /* fill and stroke: a bolder face from the one font embedded */
        CB_OP(p, "w", (HPDF_REAL)(size_pt * 0.035));
        cb_cs_str(p, "2 Tr\n");
        cb_cs_text(p, bold);
        cb_cs_str(p, " Tj\n0 Tr\n");
    }
    if (text && *text) {
        cb_cs_text(p, text);
        cb_cs_str(p, " Tj\n");
    }
    cb_cs_str(p, "ET\n");
}

void cb_render_node_at(cb_pdf *p, int type, double x_pt, double y_pt, double r_pt)
{
    cb_rgb c = cb_plain;
    int slot = -1;
    if (p->theme && type >= 0) {
        c = cb_rgb_of(p->theme->types[type].rgb);
        slot = p->type_icon[type];
    }
    cb_begin_at(p, (HPDF_REAL)x_pt, (HPDF_REAL)y_pt);
    if (cb_shape_do(p, cb_node_shape(p, type, r_pt)) != 0) {
        cb_disk(p, r_pt,
                p->theme && type >= 0 ? cb_type_fill(p->theme, type, p->ink)
                                      : cb_sheet_fill(c, p->ink),
                cb_sheet_outline(c, p->ink), p->ink ? CB_NODE_INK_PT : CB_NODE_PT);
        cb_icon_draw(p, slot, 0, 0, CB_ICON_SIDE * r_pt, 0);
    }
    cb_cs_str(p, "Q\n");
}

void cb_render_start_at(cb_pdf *p, int mission, double x_pt, double y_pt, double w_pt,
                        double h_pt, double icon_pt)
{
    cb_rgb c = cb_plain;
    int slot = -1;
    if (p->theme && mission >= 0) {
        c = cb_rgb_of(p->theme->missions[mission].rgb);
        slot = p->mission_icon[mission];
    }
    cb_set_fill(p, cb_sheet_fill(c, p->ink));
    cb_set_stroke(p, cb_sheet_outline(c, p->ink), CB_START_PT);
    CB_OP(p, "re", (HPDF_REAL)(x_pt - w_pt / 2), (HPDF_REAL)(y_pt - h_pt / 2), (HPDF_REAL)w_pt,
          (HPDF_REAL)h_pt);
    cb_cs_str(p, "B\n");
    cb_icon_draw(p, slot, (HPDF_REAL)x_pt, (HPDF_REAL)y_pt, icon_pt, 0);
}

void cb_render_center_at(cb_pdf *p, double x_pt, double y_pt, double r_pt)
{
    cb_rgb c = p->theme ? cb_rgb_of(p->theme->center.rgb) : cb_plain_ctr;
    cb_begin_at(p, (HPDF_REAL)x_pt, (HPDF_REAL)y_pt);
    cb_disk(p, r_pt, cb_sheet_fill(c, p->ink), cb_sheet_outline(c, p->ink), CB_CENTER_PT);
    cb_set_stroke(p, cb_sheet_outline(c, p->ink), CB_CENTER_RING_PT);
    cb_cs_circle(p, 0, 0, (HPDF_REAL)(CB_CENTER_RING * r_pt));
    cb_cs_str(p, "S\n");
    cb_icon_draw(p, p->center_icon, 0, 0, CB_CENTER_ICON * r_pt, 0);
    cb_cs_str(p, "Q\n");
}
