/* What a sheet shows, whatever the output format; see sheet.h. */
#include "print/sheet.h"
#include "base/board_geometry.h"
#include "base/error.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CB_LABEL_PT 7.0
#define CB_LABEL_BASELINE_MM 6.0
#define CB_EDGE_CLEAR_MM 5.0 /* home printers can't print closer to the edge */
/* libharu refuses pages outside 3..14400 pt; say so in millimetres first. */
#define CB_PAGE_MIN_MM (3.0 / CB_PT_PER_MM)
#define CB_PAGE_MAX_MM (14400.0 / CB_PT_PER_MM)

cb_rgb cb_tint(cb_rgb c)
{
    cb_rgb t = {CB_TINT * c.r + 1 - CB_TINT, CB_TINT * c.g + 1 - CB_TINT,
                CB_TINT * c.b + 1 - CB_TINT};
    return t;
}

cb_rgb cb_sheet_fill(cb_rgb c, int ink_friendly)
{
    return ink_friendly ? cb_white : cb_tint(c);
}

static double cb_grey_of(cb_rgb c)
{
    return 0.3 * c.r + 0.59 * c.g + 0.11 * c.b;
}

cb_rgb cb_type_fill(const cb_theme *t, int type, int ink_friendly)
{
    if (ink_friendly)
        return cb_white;
    cb_rgb c = cb_rgb_of(t->types[type].rgb);
    double g = cb_grey_of(c);
    size_t rank = 0; /* types lighter than this one, ties by index */
    for (size_t k = 0; k < t->n_types; k++) {
        double gk = cb_grey_of(cb_rgb_of(t->types[k].rgb));
        rank += gk > g || (gk == g && k < (size_t)type);
    }
    double want = t->n_types > 1 ? CB_FILL_LIGHTEST - (double)rank *
                                       (CB_FILL_LIGHTEST - CB_FILL_DARKEST) /
                                       (double)(t->n_types - 1)
                                 : CB_FILL_LIGHTEST;
    /* Towards white when the colour is darker than wanted, towards black
     * when lighter: the grey is linear in either mix. */
    if (g <= want) {
        double a = g < 1 ? (1 - want) / (1 - g) : 0;
        cb_rgb f = {a * c.r + 1 - a, a * c.g + 1 - a, a * c.b + 1 - a};
        return f;
    }
    double k = want / g;
    cb_rgb f = {k * c.r, k * c.g, k * c.b};
    return f;
}

cb_rgb cb_sheet_outline(cb_rgb c, int ink_friendly)
{
    static const cb_rgb black = {0, 0, 0};
    return ink_friendly ? black : c;
}

/* Clamped to 0..1: libharu rejects anything else, failing the whole page. */
static double cb_unit(double v)
{
    return v > 0 ? (v < 1 ? v : 1) : 0; /* NaN too becomes 0 */
}

cb_rgb cb_rgb_of(const double v[3])
{
    cb_rgb c = {cb_unit(v[0]), cb_unit(v[1]), cb_unit(v[2])};
    return c;
}

/* A start's number (the seat that begins there): on the inner corner of its
 * rectangle farther from its power dots, a little larger than a node's. */
static void start_badge(const cb_board *b, const cb_node *n, double out[4])
{
    double rc[4], r = b->node_radius;
    cb_sheet_start_rect(b, n, rc);
    double cx[2], cy[2];
    if (n->side == CB_SIDE_TOP || n->side == CB_SIDE_BOTTOM) {
        double y = n->side == CB_SIDE_TOP ? rc[1] + rc[3] : rc[1];
        cx[0] = rc[0], cx[1] = rc[0] + rc[2], cy[0] = cy[1] = y;
    } else {
        double x = n->side == CB_SIDE_LEFT ? rc[0] + rc[2] : rc[0];
        cy[0] = rc[1], cy[1] = rc[1] + rc[3], cx[0] = cx[1] = x;
    }
    double far[2] = {0, 0};
    for (int k = 0; k < 2; k++) {
        far[k] = 1e300;
        for (int d = 0; b->dot_xy && d < n->dots; d++) {
            const double *q = b->dot_xy[n->first_dot + (uint32_t)d];
            double dd = (q[0] - cx[k]) * (q[0] - cx[k]) + (q[1] - cy[k]) * (q[1] - cy[k]);
            far[k] = dd < far[k] ? dd : far[k];
        }
    }
    int k = far[1] > far[0] ? 1 : 0;
    out[0] = cx[k] - n->x;
    out[1] = cy[k] - n->y;
    out[2] = fmax(CB_START_BADGE * r, CB_START_BADGE_MIN_MM);
    out[3] = 1.1 * out[2] / 0.72 * CB_PT_PER_MM;
}

void cb_sheet_number_badge(const cb_board *b, const cb_node *n, double out[4])
{
    if (n->kind == CB_KIND_START) {
        start_badge(b, n, out);
        return;
    }
    double r = b->node_radius, dx, dy, side;
    cb_node_icon_place(b, n, &dx, &dy, &side);
    /* the inward direction of a node on the trim line, (0, 0) inside */
    double nx = dx > 0 ? 1 : dx < 0 ? -1 : 0, ny = dy > 0 ? 1 : dy < 0 ? -1 : 0;
    if (nx == 0 && ny == 0) {
        out[0] = 0.5 * r;
        out[1] = -0.5 * r;
    } else if (nx != 0 && ny != 0) { /* a corner: further in along the diagonal */
        out[0] = 0.62 * r * nx;
        out[1] = 0.62 * r * ny;
    } else { /* along the trim line beside the icon, a little inward */
        out[0] = 0.62 * r * fabs(ny) + 0.35 * r * nx;
        out[1] = 0.62 * r * fabs(nx) + 0.35 * r * ny;
    }
    out[2] = CB_NUMBER_BADGE * r;
    /* digits (0.72 em tall in DejaVu Sans) about 1.1 badge radii tall */
    out[3] = 1.1 * out[2] / 0.72 * CB_PT_PER_MM;
}

int cb_sheet_start_rect(const cb_board *b, const cb_node *n, double rect[4])
{
    double d[4];
    cb_start_offsets(n->side, b->node_radius, d);
    rect[0] = n->x + d[0], rect[1] = n->y + d[1], rect[2] = d[2] - d[0], rect[3] = d[3] - d[1];
    /* the icon's top towards the centre: upside down on the top side,
     * upright on the bottom, pointing right on the left, left on the right */
    return n->side == CB_SIDE_TOP ? 2 : n->side == CB_SIDE_BOTTOM ? 0
           : n->side == CB_SIDE_LEFT ? 3 : 1;
}

void cb_sheet_icon_fit(double w_px, double h_px, double side, double out[2])
{
    double w = side, h = side;
    if (w_px > h_px)
        h = side * h_px / w_px;
    else if (h_px > w_px)
        w = side * w_px / h_px;
    out[0] = w, out[1] = h;
}

void cb_render_node_box(const cb_board *b, const cb_node *n, double box[4])
{
    double r = b->node_radius;
    if (n->kind == CB_KIND_START) {
        cb_sheet_start_rect(b, n, box);
        return;
    }
    box[0] = n->x - r, box[1] = n->y - r, box[2] = box[3] = 2 * r;
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

/* 7 pt, baseline 6 mm above the paper's bottom edge, left-aligned on the
 * trim line; seeds are shortened only when the line would come closer than
 * 5 mm to the right edge. Nodes may sit on the trim line and reach into
 * the margin, so the label moves right to the first gap that holds it, else
 * to a gap in the top margin, else it stays put on a white patch (what it
 * covers is outside the trim and gets cut off). A margin too narrow for
 * 7 pt gets a smaller font between 5 mm and the trim line, and below 4 pt
 * the label is centred in the margin (closer than 5 mm to the edge, where a
 * printer may clip it) rather than put on the board. */
void cb_sheet_label(const cb_game *g, const cb_board *b, double safe, double ascent,
                    double descent, cb_text_width_fn measure, void *ctx, cb_label *out)
{
    enum { MAX_CPS = 120 };
    char seed[3 * MAX_CPS + 4], sheet[3 * MAX_CPS + 4], who[64];
    if (g->shared)
        snprintf(who, sizeof who, "shared board for %d players", g->players);
    else
        snprintf(who, sizeof who, "player %d of %d", b->player, g->players);

    /* Font extent in mm per pt of size; the font gives 1/1000 em. */
    double up = ascent / 1000.0 / CB_PT_PER_MM;
    double down = -descent / 1000.0 / CB_PT_PER_MM;
    double margin = fmin(b->board_y, b->page_h - b->board_y - b->board_h);
    double clear = safe > 0 ? safe : CB_EDGE_CLEAR_MM;
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
    for (size_t cps = MAX_CPS;; cps = cps * 3 / 4) {
        cb_utf8_clean(g->seed, seed, cps);
        cb_utf8_clean(b->seed, sheet, cps);
        snprintf(out->text, sizeof out->text,
                 "cutboard " CB_VERSION " \xC2\xB7 %s \xC2\xB7 seed \"%s\" \xC2\xB7 sheet %s", who,
                 seed, sheet);
        width = measure(ctx, out->text, size) / CB_PT_PER_MM;
        if (cps == 0 || b->board_x + width <= right)
            break;
    }

    double y = base; /* baseline, mm above the bottom edge */
    double x = cb_label_x(b, b->page_h - edge - tall, b->page_h - edge, width, right);
    if (x < 0) {
        x = cb_label_x(b, edge, edge + tall, width, right);
        y = b->page_h - edge - up * size;
    }
    out->patch = 0;
    if (x < 0) {
        x = b->board_x;
        y = base;
        out->patch = 1;
        out->patch_box[0] = x - 1, out->patch_box[1] = edge - 0.3;
        out->patch_box[2] = width + 2, out->patch_box[3] = tall + 0.6;
    }
    out->size_pt = size;
    out->x = x;
    out->base = y;
}

/* ---- the legend strip ----------------------------------------------------- */

static int cb_box_near(const double bb[4], double x0, double x1, double y0, double y1)
{
    return x0 < bb[0] + bb[2] + 1.0 && x1 > bb[0] - 1.0 && y0 < bb[1] + bb[3] + 1.0 &&
           y1 > bb[1] - 1.0;
}

/* Whether the box X0..X1 x Y0..Y1 (mm, y down) keeps 1 mm from every node
 * and start box of B (those in BOXES, see band_boxes, when not NULL) and
 * from the label box LB (x, y, w, h). */
static int cb_strip_clear(const cb_board *b, const double (*boxes)[4], size_t n_boxes,
                          const double lb[4], double x0, double x1, double y0, double y1)
{
    if (x0 < lb[0] + lb[2] + 1.0 && x1 > lb[0] - 1.0 && y0 < lb[1] + lb[3] + 0.5 &&
        y1 > lb[1] - 0.5)
        return 0;
    for (size_t i = 0; boxes && i < n_boxes; i++)
        if (cb_box_near(boxes[i], x0, x1, y0, y1))
            return 0;
    for (size_t i = 0; !boxes && i < b->n_nodes; i++) {
        double bb[4];
        cb_render_node_box(b, &b->nodes[i], bb);
        if (cb_box_near(bb, x0, x1, y0, y1))
            return 0;
    }
    return 1;
}

/* The node and start boxes of B that come within 1 mm of the rows Y0..Y1,
 * into OUT when not NULL; returns how many. The strip tries thousands of
 * places along a poster's margin: only these few (the border nodes) can be
 * in the way, and scanning every node for each place took most of the time
 * of a million-node PDF. */
static size_t band_boxes(const cb_board *b, double y0, double y1, double (*out)[4])
{
    size_t k = 0;
    for (size_t i = 0; i < b->n_nodes; i++) {
        double bb[4];
        cb_render_node_box(b, &b->nodes[i], bb);
        if (!(y0 < bb[1] + bb[3] + 1.0 && y1 > bb[1] - 1.0))
            continue;
        if (out)
            memcpy(out[k], bb, sizeof bb);
        k++;
    }
    return k;
}

void cb_sheet_strip(const cb_board *b, const cb_theme *t, const cb_label *label,
                    double label_w, double safe, double ascent, double descent,
                    cb_text_width_fn measure, void *ctx, cb_strip *out)
{
    out->n = 0;
    if (!t || t->n_types == 0)
        return;
    unsigned char on[CB_STRIP_MAX] = {0};
    int want = 0;
    for (size_t i = 0; i < b->n_nodes; i++) {
        const cb_node *n = &b->nodes[i];
        if (i != b->center && n->kind == CB_KIND_NODE && n->type >= 0 &&
            n->type < CB_STRIP_MAX && (size_t)n->type < t->n_types && !on[n->type]) {
            on[n->type] = 1;
            want++;
        }
    }
    if (want == 0)
        return;
    double up = ascent / 1000.0 / CB_PT_PER_MM * CB_STRIP_PT;
    double down = -descent / 1000.0 / CB_PT_PER_MM * CB_STRIP_PT;
    double clear = safe > 0 ? safe : CB_EDGE_CLEAR_MM;
    double tall = fmax(2 * CB_STRIP_R, up + down); /* an item's height */
    double right = b->page_w - clear;
    /* the label's box, y down */
    double lb[4] = {label->x, b->page_h - label->base - up / CB_STRIP_PT * label->size_pt,
                    label_w, (up + down) / CB_STRIP_PT * label->size_pt};
    /* The two margins, the top one first: the whole strip goes into one,
     * in reading order, on one row or, where the margin is deep enough,
     * two (the second further from the trim line). */
    double band[2][2] = {{clear, b->board_y - 0.8},
                         {b->board_y + b->board_h + 0.8, b->page_h - clear}};
    double (*boxes)[4] = NULL; /* the boxes near row BOXES_ROW */
    size_t n_boxes = 0;
    int boxes_row = -1;
    for (int band_k = 0; band_k < 2; band_k++) {
        double y0 = band[band_k][0], y1 = band[band_k][1];
        if (y1 - y0 < tall)
            continue;
        /* rows centred nearer the trim line when the margin is deep */
        double rows[2];
        int n_rows = 1;
        rows[0] = band_k == 0 ? fmax(y0 + tall / 2, y1 - 0.5 - tall / 2)
                              : fmin(y1 - tall / 2, y0 + 0.5 + tall / 2);
        /* two rows when they fit, the first then against the band's inner
         * edge if need be */
        double step = tall + CB_STRIP_ROW_GAP_MM;
        if (y1 - y0 >= tall + step - 1e-9) {
            if (y1 - y0 < tall + step + 0.5)
                rows[0] = band_k == 0 ? y1 - tall / 2 : y0 + tall / 2;
            rows[1] = band_k == 0 ? rows[0] - step : rows[0] + step;
            n_rows = 2;
            if (rows[1] < rows[0]) { /* read from the upper row down */
                double upper = rows[1];
                rows[1] = rows[0];
                rows[0] = upper;
            }
        }
        int row = 0;
        double x = b->board_x;
        out->n = 0;
        for (size_t k = 0; k < t->n_types && k < CB_STRIP_MAX && row < n_rows; k++) {
            if (!on[k])
                continue;
            const char *text = t->types[k].short_label;
            if (!text) /* a version 1 theme: no short labels, no strip */
                goto none;
            double w = 2 * CB_STRIP_R + 1.0 + measure(ctx, text, CB_STRIP_PT) / CB_PT_PER_MM;
            while (row < n_rows) {
                double mid = rows[row];
                if (boxes_row != 2 * band_k + row) {
                    free(boxes);
                    n_boxes = band_boxes(b, mid - tall / 2, mid + tall / 2, NULL);
                    /* without memory every node is tested: slower, the same strip */
                    boxes = malloc((n_boxes ? n_boxes : 1) * sizeof *boxes);
                    if (boxes)
                        band_boxes(b, mid - tall / 2, mid + tall / 2, boxes);
                    boxes_row = 2 * band_k + row;
                }
                while (x + w <= right &&
                       !cb_strip_clear(b, (const double (*)[4])boxes, n_boxes, lb, x, x + w,
                                       mid - tall / 2, mid + tall / 2))
                    x += 0.5;
                if (x + w > right) { /* on to the next row */
                    row++;
                    x = b->board_x;
                    continue;
                }
                cb_strip_item *it = &out->item[out->n];
                it->type = (int)k;
                it->text = text;
                it->x = x + CB_STRIP_R;
                it->y = mid;
                it->tx = x + 2 * CB_STRIP_R + 1.0;
                it->base = mid + (up - down) / 2;
                out->n++;
                x += w + 3.0;
                break;
            }
        }
        if (out->n == want) {
            free(boxes);
            return;
        }
    }
none:
    free(boxes);
    out->n = 0;
}

/* ---- input checks ------------------------------------------------------ */

static int cb_finite(double v)
{
    return isfinite(v) != 0;
}

/* A page side libharu takes. Compared in points, with room for rounding:
 * the largest paper the generator allows, 5,080 mm, is 14,400 pt to within
 * 1e-12 (and exactly 14,400 in libharu's float). */
static int page_side_ok(double mm)
{
    double pt = mm * CB_PT_PER_MM;
    return cb_finite(mm) && pt >= 3 - 1e-6 && pt <= 14400 + 1e-6;
}

/* Rejects what would make libharu fail or the drawing nonsense, naming the
 * sheet and node, before any PDF object exists. */
cb_status cb_sheet_check_game(const cb_game *game, const cb_theme *theme, const char *format,
                              cb_error *err)
{
    if (!game || !game->sheets || game->n_sheets == 0)
        return cb_fail(err, CB_ERR_DATA, "%s: the game has no sheets", format);
    for (size_t s = 0; s < game->n_sheets; s++) {
        const cb_board *b = game->sheets[s];
        if (!b)
            return cb_fail(err, CB_ERR_DATA, "%s: sheet %zu is missing", format, s + 1);
        if (!page_side_ok(b->page_w) || !page_side_ok(b->page_h))
            return cb_fail(err, CB_ERR_DATA,
                           "%s: sheet %zu: page %gx%g mm is outside %.2f..%.0f mm", format, s + 1,
                           b->page_w, b->page_h, CB_PAGE_MIN_MM, CB_PAGE_MAX_MM);
        if (!cb_finite(b->board_x) || !cb_finite(b->board_y) || !cb_finite(b->board_w) ||
            !cb_finite(b->board_h) || b->board_w <= 0 || b->board_h <= 0)
            return cb_fail(err, CB_ERR_DATA, "%s: sheet %zu: bad board rectangle", format, s + 1);
        if (!cb_finite(b->node_radius) || b->node_radius <= 0)
            return cb_fail(err, CB_ERR_DATA, "%s: sheet %zu: bad node radius %g", format, s + 1,
                           b->node_radius);
        if (b->n_nodes == 0 || !b->nodes || b->center >= b->n_nodes)
            return cb_fail(err, CB_ERR_DATA, "%s: sheet %zu: no nodes or no centre", format,
                           s + 1);
        if (b->n_edges && !b->edges)
            return cb_fail(err, CB_ERR_DATA, "%s: sheet %zu: edges missing", format, s + 1);
        for (size_t e = 0; e < b->n_edges; e++)
            if (b->edges[e].a >= b->n_nodes || b->edges[e].b >= b->n_nodes)
                return cb_fail(err, CB_ERR_DATA,
                               "%s: sheet %zu: edge %zu joins a node that does not exist", format,
                               s + 1, e);
        for (size_t i = 0; i < b->n_nodes; i++) {
            const cb_node *n = &b->nodes[i];
            if (!cb_finite(n->x) || !cb_finite(n->y))
                return cb_fail(err, CB_ERR_DATA, "%s: sheet %zu node %zu: bad position", format,
                               s + 1, i);
            if (n->kind != CB_KIND_NODE && n->kind != CB_KIND_START && n->kind != CB_KIND_CENTER)
                return cb_fail(err, CB_ERR_DATA, "%s: sheet %zu node %zu: unknown kind %d", format,
                               s + 1, i, (int)n->kind);
            if (n->kind == CB_KIND_START &&
                (n->side < CB_SIDE_TOP || n->side > CB_SIDE_LEFT))
                return cb_fail(err, CB_ERR_DATA,
                               "%s: sheet %zu node %zu: start without a board side", format,
                               s + 1, i);
            if (!theme)
                continue;
            if (n->kind == CB_KIND_NODE && n->type >= 0 && (size_t)n->type >= theme->n_types)
                return cb_fail(err, CB_ERR_DATA,
                               "%s: sheet %zu node %zu: type %d is not in theme %s", format,
                               s + 1, i, n->type, theme->name ? theme->name : "");
            if (n->kind == CB_KIND_START && n->mission >= 0 &&
                (size_t)n->mission >= theme->n_missions)
                return cb_fail(err, CB_ERR_DATA,
                               "%s: sheet %zu node %zu: mission %d is not in theme %s", format,
                               s + 1, i, n->mission, theme->name ? theme->name : "");
        }
    }
    return CB_OK;
}

/* --safe-area: every node, start and icon at least that far inside the
 * paper edge. */
cb_status cb_sheet_check_safe(const cb_game *game, double safe, cb_error *err)
{
    if (safe <= 0)
        return CB_OK;
    for (size_t s = 0; s < game->n_sheets; s++) {
        const cb_board *b = game->sheets[s];
        for (size_t i = 0; i < b->n_nodes; i++) {
            double bb[4];
            cb_render_node_box(b, &b->nodes[i], bb);
            double d = fmin(fmin(bb[0], bb[1]),
                            fmin(b->page_w - bb[0] - bb[2], b->page_h - bb[1] - bb[3]));
            if (d < safe - 1e-6) {
                double margin = fmin(fmin(b->board_x, b->board_y),
                                     fmin(b->page_w - b->board_x - b->board_w,
                                          b->page_h - b->board_y - b->board_h));
                return cb_fail_option(err, "safe_area",
                               "sheet %zu node %zu is %.1f mm from the paper "
                               "edge, inside the %g mm safe area (a margin of %.1f mm "
                               "would do)", s + 1, i, d, safe, ceil((margin + safe - d) * 10) / 10);
            }
        }
    }
    return CB_OK;
}
