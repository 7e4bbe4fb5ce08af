/* One board drawn as one PDF page: trim line, edges, nodes, starts, the
 * centre, power dots and the label.
 *
 * Boards are in millimetres with y pointing down; PDF user space is in points
 * with y pointing up, so every coordinate goes through cb_x / cb_y. */
#include "render.h"
#include "work.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define CB_LABEL_PT 7.0
#define CB_LABEL_BASELINE_MM 6.0
#define CB_EDGE_CLEAR_MM 5.0 /* home printers can't print closer to the edge */
#define CB_MAX_DOTS 16

typedef struct {
    double r, g, b;
} cb_rgb;

static const cb_rgb cb_white = {1.0, 1.0, 1.0};
static const cb_rgb cb_ink = {0.1, 0.1, 0.1};       /* edges and dots */
static const cb_rgb cb_plain = {0.5, 0.5, 0.5};     /* types without a theme */
static const cb_rgb cb_plain_ctr = {0.25, 0.25, 0.25};

static HPDF_REAL cb_x(double mm)
{
    return cb_pt(mm);
}

static HPDF_REAL cb_y(const cb_board *b, double mm)
{
    return cb_pt(b->page_h - mm);
}

static cb_rgb cb_tint(cb_rgb c)
{
    cb_rgb t = {0.22 * c.r + 0.78, 0.22 * c.g + 0.78, 0.22 * c.b + 0.78};
    return t;
}

/* Clamped to 0..1: libharu rejects anything else, failing the whole page. */
static double cb_unit(double v)
{
    return v > 0 ? (v < 1 ? v : 1) : 0; /* NaN too becomes 0 */
}

static cb_rgb cb_rgb_of(const double v[3])
{
    cb_rgb c = {cb_unit(v[0]), cb_unit(v[1]), cb_unit(v[2])};
    return c;
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

/* Lines and text that are black or grey on screen: in CMYK they are 100 %
 * K, never a screened grey or a rich black. */
static cb_rgb cb_line_ink(const cb_pdf *p, cb_rgb c)
{
    static const cb_rgb black = {0, 0, 0};
    return p->cmyk ? black : c;
}

static HPDF_STATUS cb_set_fill(const cb_pdf *p, HPDF_Page page, cb_rgb c)
{
    if (p->cmyk) {
        double v[4];
        cb_render_cmyk((const double[3]){c.r, c.g, c.b}, v);
        return HPDF_Page_SetCMYKFill(page, (HPDF_REAL)v[0], (HPDF_REAL)v[1], (HPDF_REAL)v[2],
                                     (HPDF_REAL)v[3]);
    }
    return HPDF_Page_SetRGBFill(page, (HPDF_REAL)c.r, (HPDF_REAL)c.g, (HPDF_REAL)c.b);
}

static HPDF_STATUS cb_set_stroke(const cb_pdf *p, HPDF_Page page, cb_rgb c, double width_pt)
{
    if (p->cmyk) {
        double v[4];
        cb_render_cmyk((const double[3]){c.r, c.g, c.b}, v);
        CB_HPDF(HPDF_Page_SetCMYKStroke(page, (HPDF_REAL)v[0], (HPDF_REAL)v[1], (HPDF_REAL)v[2],
                                        (HPDF_REAL)v[3]));
    } else {
        CB_HPDF(HPDF_Page_SetRGBStroke(page, (HPDF_REAL)c.r, (HPDF_REAL)c.g, (HPDF_REAL)c.b));
    }
    return HPDF_Page_SetLineWidth(page, (HPDF_REAL)width_pt);
}

void cb_render_icon_backdrop(const cb_pdf *p, const double *rgb, double out[3])
{
    cb_rgb c = p->ink ? cb_white : cb_tint(rgb ? cb_rgb_of(rgb) : cb_plain);
    out[0] = c.r, out[1] = c.g, out[2] = c.b;
}

/* Saves the graphics state and moves the origin to (x, y) pt. Shapes drawn
 * about the origin repeat byte for byte from node to node, which Flate
 * compresses far better (and faster) than the same shapes in page space. */
static HPDF_STATUS cb_begin_at(HPDF_Page page, HPDF_REAL x, HPDF_REAL y)
{
    CB_HPDF(HPDF_Page_GSave(page));
    return HPDF_Page_Concat(page, 1, 0, 0, 1, x, y);
}

/* A filled, outlined disk about the origin. */
static HPDF_STATUS cb_disk(const cb_pdf *p, HPDF_Page page, double r_pt, cb_rgb fill,
                           cb_rgb stroke, double width_pt)
{
    CB_HPDF(cb_set_fill(p, page, fill));
    CB_HPDF(cb_set_stroke(p, page, stroke, width_pt));
    CB_HPDF(HPDF_Page_Circle(page, 0, 0, (HPDF_REAL)r_pt));
    return HPDF_Page_FillStroke(page);
}

/* Draws icon SLOT centred on (x, y) pt, fitted into a square of SIDE pt and
 * turned by QUARTERS quarter turns counter-clockwise. */
static HPDF_STATUS cb_icon_draw(const cb_pdf *p, HPDF_Page page, int slot, HPDF_REAL x,
                                HPDF_REAL y, double side, int quarters)
{
    /* Exact matrices: cos/sin of multiples of 90 degrees are not exact. */
    static const HPDF_REAL rot[4][4] = {
        {1, 0, 0, 1}, {0, 1, -1, 0}, {-1, 0, 0, -1}, {0, -1, 1, 0}};
    if (slot < 0)
        return HPDF_OK;
    const cb_pdf_icon *ic = &p->icons[slot];
    double w = side, h = side;
    if (ic->w > ic->h)
        h = side * ic->h / ic->w;
    else if (ic->h > ic->w)
        w = side * ic->w / ic->h;
    HPDF_REAL x0 = (HPDF_REAL)(-w / 2), y0 = (HPDF_REAL)(-h / 2);
    if (quarters == 0 && x == 0 && y == 0) /* already placed by cb_begin_at */
        return HPDF_Page_DrawImage(page, ic->image, x0, y0, (HPDF_REAL)w, (HPDF_REAL)h);
    const HPDF_REAL *m = rot[quarters & 3];
    CB_HPDF(HPDF_Page_GSave(page));
    CB_HPDF(HPDF_Page_Concat(page, m[0], m[1], m[2], m[3], x, y));
    CB_HPDF(HPDF_Page_DrawImage(page, ic->image, x0, y0, (HPDF_REAL)w, (HPDF_REAL)h));
    return HPDF_Page_GRestore(page);
}

static HPDF_STATUS cb_draw_edges(const cb_pdf *p, HPDF_Page page, const cb_board *b)
{
    if (b->n_edges == 0)
        return HPDF_OK;
    CB_HPDF(cb_set_stroke(p, page, cb_line_ink(p, cb_ink), 1.6));
    CB_HPDF(HPDF_Page_SetLineCap(page, HPDF_ROUND_END));
    for (size_t e = 0; e < b->n_edges; e++) {
        const cb_node *a = &b->nodes[b->edges[e].a], *c = &b->nodes[b->edges[e].b];
        CB_HPDF(HPDF_Page_MoveTo(page, cb_x(a->x), cb_y(b, a->y)));
        CB_HPDF(HPDF_Page_LineTo(page, cb_x(c->x), cb_y(b, c->y)));
    }
    CB_HPDF(HPDF_Page_Stroke(page));
    return HPDF_Page_SetLineCap(page, HPDF_BUTT_END);
}

/* A start's rectangle (mm, top-left corner and size): it stands on the trim
 * line, the size the generator keeps clear for it (work.h). Returns the quarter turns
 * that point its icon's top at the board's centre. */
static int cb_start_rect(const cb_board *b, const cb_node *n, double rect[4])
{
    double r = b->node_radius, along = 2 * CB_START_HALF_WIDTH * r, in = CB_START_DEPTH * r;
    double x0, y0, w, h;
    int quarters;
    switch (n->side) {
    case CB_SIDE_TOP: /* icon upside down */
        x0 = n->x - along / 2, y0 = n->y, w = along, h = in, quarters = 2;
        break;
    case CB_SIDE_BOTTOM: /* upright */
        x0 = n->x - along / 2, y0 = n->y - in, w = along, h = in, quarters = 0;
        break;
    case CB_SIDE_LEFT: /* top points right */
        x0 = n->x, y0 = n->y - along / 2, w = in, h = along, quarters = 3;
        break;
    default: /* right side: top points left */
        x0 = n->x - in, y0 = n->y - along / 2, w = in, h = along, quarters = 1;
        break;
    }
    rect[0] = x0, rect[1] = y0, rect[2] = w, rect[3] = h;
    return quarters;
}

/* A start is a rectangle on the trim line, its mission icon turned so its
 * top faces the board's centre. */
static HPDF_STATUS cb_draw_start(const cb_pdf *p, HPDF_Page page, const cb_board *b,
                                 const cb_node *n)
{
    double rc[4], r = b->node_radius;
    int quarters = cb_start_rect(b, n, rc);
    double x0 = rc[0], y0 = rc[1], w = rc[2], h = rc[3];
    cb_rgb c = cb_plain;
    int slot = -1;
    if (p->theme && n->mission >= 0) {
        c = cb_rgb_of(p->theme->missions[n->mission].rgb);
        slot = p->mission_icon[n->mission];
    }
    CB_HPDF(cb_set_fill(p, page, p->ink ? cb_white : cb_tint(c)));
    CB_HPDF(cb_set_stroke(p, page, c, 1.4));
    CB_HPDF(HPDF_Page_Rectangle(page, cb_x(x0), cb_y(b, y0 + h), cb_pt(w), cb_pt(h)));
    CB_HPDF(HPDF_Page_FillStroke(page));
    return cb_icon_draw(p, page, slot, cb_x(x0 + w / 2), cb_y(b, y0 + h / 2), cb_pt(1.25 * r),
                        quarters);
}

static HPDF_STATUS cb_draw_center(const cb_pdf *p, HPDF_Page page, const cb_board *b,
                                  const cb_node *n)
{
    double r = cb_pt(b->node_radius);
    cb_rgb c = p->theme ? cb_rgb_of(p->theme->center.rgb) : cb_plain_ctr;
    CB_HPDF(cb_begin_at(page, cb_x(n->x), cb_y(b, n->y)));
    CB_HPDF(cb_disk(p, page, r, p->ink ? cb_white : cb_tint(c), c, 2.4));
    CB_HPDF(cb_set_stroke(p, page, c, 0.8));
    CB_HPDF(HPDF_Page_Circle(page, 0, 0, (HPDF_REAL)(0.78 * r)));
    CB_HPDF(HPDF_Page_Stroke(page));
    CB_HPDF(cb_icon_draw(p, page, p->center_icon, 0, 0, 1.1 * r, 0));
    return HPDF_Page_GRestore(page);
}

static HPDF_STATUS cb_draw_node(const cb_pdf *p, HPDF_Page page, const cb_board *b,
                                const cb_node *n)
{
    double r = cb_pt(b->node_radius);
    cb_rgb c = cb_plain;
    int slot = -1;
    if (p->theme && n->type >= 0) {
        c = cb_rgb_of(p->theme->types[n->type].rgb);
        slot = p->type_icon[n->type];
    }
    CB_HPDF(cb_begin_at(page, cb_x(n->x), cb_y(b, n->y)));
    if (p->ink)
        CB_HPDF(cb_disk(p, page, r, cb_white, c, 1.2));
    else
        CB_HPDF(cb_disk(p, page, r, cb_tint(c), c, 1.0));
    CB_HPDF(cb_icon_draw(p, page, slot, 0, 0, 1.25 * r, 0));
    return HPDF_Page_GRestore(page);
}

static HPDF_STATUS cb_draw_dots(const cb_pdf *p, HPDF_Page page, const cb_board *b)
{
    double xy[CB_MAX_DOTS][2];
    HPDF_REAL r = (HPDF_REAL)(0.13 * cb_pt(b->node_radius));
    CB_HPDF(cb_set_fill(p, page, cb_line_ink(p, cb_ink)));
    for (size_t i = 0; i < b->n_nodes; i++) {
        int k = cb_board_dot_positions(b, (uint32_t)i, xy, CB_MAX_DOTS);
        for (int d = 0; d < k && d < CB_MAX_DOTS; d++) {
            CB_HPDF(cb_begin_at(page, cb_x(xy[d][0]), cb_y(b, xy[d][1])));
            CB_HPDF(HPDF_Page_Circle(page, 0, 0, r));
            CB_HPDF(HPDF_Page_Fill(page));
            CB_HPDF(HPDF_Page_GRestore(page));
        }
    }
    return HPDF_OK;
}

/* Copies at most MAX_CPS code points of IN as valid UTF-8 that libharu can
 * show: invalid bytes, control characters and code points beyond the BMP
 * (libharu's UTF-8 encoder is 16-bit) become U+FFFD; a cut adds an ellipsis.
 * OUT needs room for 3 * MAX_CPS + 4 bytes. */
static void cb_utf8_clean(const char *in, char *out, size_t max_cps)
{
    const unsigned char *s = (const unsigned char *)(in ? in : "");
    size_t o = 0, cps = 0;
    while (*s) {
        if (cps == max_cps) {
            memcpy(out + o, "\xE2\x80\xA6", 3);
            o += 3;
            break;
        }
        unsigned cp = 0;
        size_t len = 0;
        if (s[0] < 0x80)
            cp = s[0], len = 1;
        else if ((s[0] & 0xE0) == 0xC0)
            cp = s[0] & 0x1Fu, len = 2;
        else if ((s[0] & 0xF0) == 0xE0)
            cp = s[0] & 0x0Fu, len = 3;
        size_t j = 1;
        for (; j < len && (s[j] & 0xC0) == 0x80; j++)
            cp = (cp << 6) | (s[j] & 0x3Fu);
        int ok = len > 0 && j == len && cp >= 0x20 && cp != 0x7F &&
                 !(len == 2 && cp < 0x80) && !(len == 3 && cp < 0x800) &&
                 !(cp >= 0xD800 && cp <= 0xDFFF);
        if (ok) {
            memcpy(out + o, s, len);
            o += len;
            s += len;
        } else {
            memcpy(out + o, "\xEF\xBF\xBD", 3);
            o += 3;
            /* Skip the whole bad sequence: a lead byte and its continuations. */
            s++;
            while ((*s & 0xC0) == 0x80)
                s++;
        }
        cps++;
    }
    out[o] = '\0';
}

void cb_render_node_box(const cb_board *b, const cb_node *n, double box[4])
{
    double r = b->node_radius;
    if (n->kind == CB_KIND_START) {
        cb_start_rect(b, n, box);
        return;
    }
    box[0] = n->x - r, box[1] = n->y - r, box[2] = box[3] = 2 * r;
}

/* The leftmost x (mm) from the trim line's left end where WIDTH mm of label
 * between LO and HI mm (from the paper's top) clears every node and start
 * reaching into the margin (nodes may sit on the trim line), ending before
 * RIGHT; -1 when there is no such gap. */
static double cb_label_x(const cb_board *b, double lo, double hi, double width, double right)
{
    double best = -1;
    for (size_t c = 0; c <= b->n_nodes; c++) {
        double x = b->board_x; /* candidates: the trim's end, then after each node */
        if (c > 0) {
            double bb[4];
            cb_render_node_box(b, &b->nodes[c - 1], bb);
            if (bb[1] + bb[3] < lo || bb[1] > hi || bb[0] + bb[2] < b->board_x)
                continue;
            x = bb[0] + bb[2] + 1.0;
        }
        if (x + width > right || (best >= 0 && x >= best))
            continue;
        int clear = 1;
        for (size_t i = 0; i < b->n_nodes && clear; i++) {
            double bb[4];
            cb_render_node_box(b, &b->nodes[i], bb);
            clear = bb[1] + bb[3] < lo || bb[1] > hi || bb[0] + bb[2] + 1.0 <= x ||
                    bb[0] - 1.0 >= x + width;
        }
        if (clear)
            best = x;
    }
    return best;
}

/* "cutboard 0.1.0 · player P of N · seed "SEED" · sheet SHEETSEED", 7 pt,
 * baseline 6 mm above the paper's bottom edge, left-aligned on the trim
 * line; seeds are shortened only when the line would come closer than 5 mm
 * to the right edge. Nodes may sit on the trim line and reach into the
 * margin, so the label moves right to the first gap that holds it, else to
 * a gap in the top margin, else it stays put on a white patch (what it
 * covers is outside the trim and gets cut off). A margin too narrow for
 * 7 pt gets a smaller font between 5 mm and the trim line, and below 4 pt
 * the label is centred in the margin (closer than 5 mm to the edge, where a
 * printer may clip it) rather than put on the board. */
static HPDF_STATUS cb_draw_label(const cb_pdf *p, HPDF_Page page, const cb_board *b)
{
    enum { MAX_CPS = 120 };
    char seed[3 * MAX_CPS + 4], sheet[3 * MAX_CPS + 4], who[64], text[1024];
    const cb_game *g = p->game;
    if (g->shared)
        snprintf(who, sizeof who, "shared board for %d players", g->players);
    else
        snprintf(who, sizeof who, "player %d of %d", b->player, g->players);

    /* Font extent in mm per pt of size; libharu gives 1/1000 em. */
    double up = HPDF_Font_GetAscent(p->font) / 1000.0 / CB_PT_PER_MM;
    double down = -HPDF_Font_GetDescent(p->font) / 1000.0 / CB_PT_PER_MM;
    double margin = fmin(b->board_y, b->page_h - b->board_y - b->board_h);
    double clear = p->opt.safe_area > 0 ? p->opt.safe_area : CB_EDGE_CLEAR_MM;
    double size = CB_LABEL_PT, base = fmax(CB_LABEL_BASELINE_MM, clear + down * size);
    if (base + up * size + 0.5 > margin) {
        size = (margin - 0.5 - clear) / (up + down);
        base = clear + down * size;
        if (size < 4.0) {
            size = 4.0;
            base = (margin - (up + down) * size) / 2 + down * size;
        }
    }
    double edge = base - down * size, tall = (up + down) * size; /* text box, mm */

    double right = b->page_w - clear, width = 0;
    CB_HPDF(HPDF_Page_SetFontAndSize(page, p->font, (HPDF_REAL)size));
    for (size_t cps = MAX_CPS;; cps = cps * 3 / 4) {
        cb_utf8_clean(g->seed, seed, cps);
        cb_utf8_clean(b->seed, sheet, cps);
        snprintf(text, sizeof text,
                 "cutboard " CB_VERSION " \xC2\xB7 %s \xC2\xB7 seed \"%s\" \xC2\xB7 sheet %s", who,
                 seed, sheet);
        width = HPDF_Page_TextWidth(page, text) / CB_PT_PER_MM;
        if (cps == 0 || b->board_x + width <= right)
            break;
    }

    double y = base; /* baseline, mm above the bottom edge */
    double x = cb_label_x(b, b->page_h - edge - tall, b->page_h - edge, width, right);
    if (x < 0) {
        x = cb_label_x(b, edge, edge + tall, width, right);
        y = b->page_h - edge - up * size;
    }
    if (x < 0) {
        x = b->board_x;
        y = base;
        CB_HPDF(cb_set_fill(p, page, cb_white));
        CB_HPDF(HPDF_Page_Rectangle(page, cb_x(x - 1), cb_pt(edge - 0.3), cb_pt(width + 2),
                                    cb_pt(tall + 0.6)));
        CB_HPDF(HPDF_Page_Fill(page));
    }
    CB_HPDF(cb_set_fill(p, page, cb_line_ink(p, (cb_rgb){0.55, 0.55, 0.55})));
    CB_HPDF(HPDF_Page_BeginText(page));
    CB_HPDF(HPDF_Page_TextOut(page, cb_x(x), cb_pt(y), text));
    return HPDF_Page_EndText(page);
}

/* With a bleed, the margin players cut off gets a pale tint that runs
 * from the board's trim line out to the bleed edge: the artwork that
 * reaches the paper edge, so a trim a little off leaves no white sliver. */
static HPDF_STATUS cb_draw_margin_tint(const cb_pdf *p, HPDF_Page page, const cb_board *b)
{
    double bl = p->opt.bleed;
    if (bl <= 0)
        return HPDF_OK;
    CB_HPDF(cb_set_fill(p, page, (cb_rgb){0.92, 0.92, 0.92}));
    CB_HPDF(HPDF_Page_Rectangle(page, cb_pt(-bl), cb_pt(-bl), cb_pt(b->page_w + 2 * bl),
                                cb_pt(b->page_h + 2 * bl)));
    CB_HPDF(HPDF_Page_Rectangle(page, cb_x(b->board_x), cb_y(b, b->board_y + b->board_h),
                                cb_pt(b->board_w), cb_pt(b->board_h)));
    return HPDF_Page_Eofill(page);
}

/* Back to front: margin tint, trim line, edges, nodes over the edges'
 * ends, dots, label; in the board's own coordinates (its paper's
 * bottom-left corner at the origin). */
static HPDF_STATUS cb_draw_board(const cb_pdf *p, HPDF_Page page, const cb_board *b)
{
    CB_HPDF(cb_draw_margin_tint(p, page, b));
    /* The trim line players cut the margin off along. */
    if (p->cmyk)
        CB_HPDF(cb_set_stroke(p, page, cb_line_ink(p, cb_white), 0.5));
    else
        CB_HPDF(HPDF_Page_SetGrayStroke(page, 0.55f));
    CB_HPDF(HPDF_Page_SetLineWidth(page, 0.5f));
    CB_HPDF(HPDF_Page_Rectangle(page, cb_x(b->board_x), cb_y(b, b->board_y + b->board_h),
                                cb_pt(b->board_w), cb_pt(b->board_h)));
    CB_HPDF(HPDF_Page_Stroke(page));

    CB_HPDF(cb_draw_edges(p, page, b));
    for (size_t i = 0; i < b->n_nodes; i++) {
        const cb_node *n = &b->nodes[i];
        if (i == b->center || n->kind == CB_KIND_CENTER)
            CB_HPDF(cb_draw_center(p, page, b, n));
        else if (n->kind == CB_KIND_START)
            CB_HPDF(cb_draw_start(p, page, b, n));
        else
            CB_HPDF(cb_draw_node(p, page, b, n));
    }
    CB_HPDF(cb_draw_dots(p, page, b));
    return cb_draw_label(p, page, b);
}

/* A page box from a layout rectangle (mm, from the top-left). */
static HPDF_STATUS cb_page_box(const cb_pdf *p, HPDF_Page page, const char *name,
                               const double r[4])
{
    double ph = p->layout.page_h;
    HPDF_Box box = {cb_pt(r[0]), cb_pt(ph - r[1] - r[3]), cb_pt(r[0] + r[2]), cb_pt(ph - r[1])};
    HPDF_Array a = HPDF_Box_Array_New(page->mmgr, box);
    if (!a)
        return p->herr.error_no ? p->herr.error_no : HPDF_FAILD_TO_ALLOC_MEM;
    return HPDF_Dict_Add(page, name, a);
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
static HPDF_STATUS cb_draw_marks(const cb_pdf *p, HPDF_Page page)
{
    const cb_page_layout *l = &p->layout;
    if (l->mark_length <= 0)
        return HPDF_OK;
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
    if (p->cmyk)
        CB_HPDF(HPDF_Page_SetCMYKStroke(page, 1, 1, 1, 1));
    else
        CB_HPDF(HPDF_Page_SetRGBStroke(page, 0, 0, 0));
    CB_HPDF(HPDF_Page_SetLineWidth(page, 0.25f));
    double ph = l->page_h, off = l->mark_offset, len = l->mark_length;
    double top = l->trim[1], bottom = l->trim[1] + l->trim[3];
    double left = l->trim[0], right = l->trim[0] + l->trim[2];
    for (int i = 0; i < nx; i++) {
        HPDF_REAL x = cb_pt(xs[i]);
        CB_HPDF(HPDF_Page_MoveTo(page, x, cb_pt(ph - (top - off))));
        CB_HPDF(HPDF_Page_LineTo(page, x, cb_pt(ph - (top - off - len))));
        CB_HPDF(HPDF_Page_MoveTo(page, x, cb_pt(ph - (bottom + off))));
        CB_HPDF(HPDF_Page_LineTo(page, x, cb_pt(ph - (bottom + off + len))));
    }
    for (int i = 0; i < ny; i++) {
        HPDF_REAL y = cb_pt(ph - ys[i]);
        CB_HPDF(HPDF_Page_MoveTo(page, cb_pt(left - off), y));
        CB_HPDF(HPDF_Page_LineTo(page, cb_pt(left - off - len), y));
        CB_HPDF(HPDF_Page_MoveTo(page, cb_pt(right + off), y));
        CB_HPDF(HPDF_Page_LineTo(page, cb_pt(right + off + len), y));
    }
    return HPDF_Page_Stroke(page);
}

/* A new page of the layout's size, with its boxes and marks. */
static HPDF_STATUS cb_new_page(cb_pdf *p)
{
    HPDF_Page page = HPDF_AddPage(p->doc);
    if (!page)
        return p->herr.error_no ? p->herr.error_no : HPDF_FAILD_TO_ALLOC_MEM;
    CB_HPDF(HPDF_Page_SetWidth(page, cb_pt(p->layout.page_w)));
    CB_HPDF(HPDF_Page_SetHeight(page, cb_pt(p->layout.page_h)));
    if (p->shop) {
        CB_HPDF(cb_page_box(p, page, "BleedBox", p->layout.bleed));
        CB_HPDF(cb_page_box(p, page, "TrimBox", p->layout.trim));
    }
    CB_HPDF(cb_draw_marks(p, page));
    p->sheet = page;
    p->slot = 0;
    p->n_pages++;
    return HPDF_OK;
}

HPDF_STATUS cb_render_sheet(cb_pdf *p, const cb_board *b)
{
    const cb_page_layout *l = &p->layout;
    if (!p->sheet || p->slot >= l->cols * l->rows)
        CB_HPDF(cb_new_page(p));
    HPDF_Page page = p->sheet;
    double x, y;
    cb_page_layout_cell(l, p->slot++, &x, &y);
    /* The board's paper goes into the slot: its bottom-left corner at
     * (tx, ty) pt, or turned a quarter turn counter-clockwise. */
    HPDF_REAL tx = cb_pt(x), ty = cb_pt(l->page_h - y - l->cell_h);
    if (l->rotated) {
        CB_HPDF(HPDF_Page_GSave(page));
        CB_HPDF(HPDF_Page_Concat(page, 0, 1, -1, 0, cb_pt(x + l->cell_w), ty));
    } else if (tx != 0 || ty != 0) {
        CB_HPDF(HPDF_Page_GSave(page));
        CB_HPDF(HPDF_Page_Concat(page, 1, 0, 0, 1, tx, ty));
    } else {
        return cb_draw_board(p, page, b);
    }
    CB_HPDF(cb_draw_board(p, page, b));
    return HPDF_Page_GRestore(page);
}
