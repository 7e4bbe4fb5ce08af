/* What a sheet shows, whatever the output format: the sizes, line widths
 * and colours of every mark, where a start's rectangle and its icon go, how
 * an icon fits its square, and the label's text and place. The PDF
 * renderer (render.c) and the SVG renderer (svg.c) both draw from these,
 * so the two formats show the same drawing. Lengths are mm (y down from
 * the paper's top) unless a name says pt. Internal to src/print/. */
#ifndef CB_SHEET_H
#define CB_SHEET_H

#include "cutboard.h"

#define CB_PT_PER_MM (72.0 / 25.4)

typedef struct {
    double r, g, b;
} cb_rgb;

static const cb_rgb cb_white = {1.0, 1.0, 1.0};
static const cb_rgb cb_ink = {0.1, 0.1, 0.1};       /* edges and dots */
static const cb_rgb cb_plain = {0.5, 0.5, 0.5};     /* types without a theme */
static const cb_rgb cb_plain_ctr = {0.25, 0.25, 0.25};

/* The light tint a node of colour C is filled with: CB_TINT of C over
 * white. 35 % keeps a black glyph readable and the fills of the default
 * theme apart for colour-blind players (tests/test_palette.c). */
#define CB_TINT 0.35
cb_rgb cb_tint(cb_rgb c);
/* What a node, start or centre of colour C is filled and outlined with: a
 * tint and C itself, or ink-friendly white and black (the glyph alone then
 * tells types apart). */
cb_rgb cb_sheet_fill(cb_rgb c, int ink_friendly);
cb_rgb cb_sheet_outline(cb_rgb c, int ink_friendly);
/* What a node of theme T's type TYPE is filled with: its colour's hue at a
 * grey level of its own, so that every type prints apart in black and
 * white without its glyph. The types' levels step evenly from
 * CB_FILL_LIGHTEST down to CB_FILL_DARKEST, the lightest colour lightest
 * (poppler's grey: 0.3 R + 0.59 G + 0.11 B). Ink-friendly: white. */
#define CB_FILL_LIGHTEST 0.97
#define CB_FILL_DARKEST 0.45
cb_rgb cb_type_fill(const cb_theme *t, int type, int ink_friendly);
/* A theme colour, each channel clamped to 0..1 (libharu rejects others). */
cb_rgb cb_rgb_of(const double v[3]);

/* Line widths (pt) and grey levels of the drawing. */
#define CB_TRIM_PT 0.5          /* the trim line, grey CB_TRIM_GREY */
#define CB_TRIM_GREY 0.55
#define CB_EDGE_PT 1.6          /* edges, colour cb_ink, round caps */
#define CB_START_PT 1.4         /* a start's outline, its mission's colour */
#define CB_NODE_PT 1.0          /* a node's outline, its type's colour */
#define CB_NODE_INK_PT 1.2      /* the same, ink-friendly */
#define CB_CENTER_PT 2.4        /* the centre's outline */
#define CB_CENTER_RING_PT 0.8   /* the centre's inner ring */
#define CB_CENTER_RING 0.78     /* its radius, in node radii */
#define CB_CENTER_ICON 1.1      /* the centre icon's square, in node radii */
#define CB_LABEL_GREY 0.55      /* the label's text */
#define CB_DOT_PT 0.5           /* a power dot's outline, colour cb_ink */
#define CB_DOT_GREY 0.88        /* its fill: 12 % black, light enough to write on
                                   (white ink-friendly; K only in CMYK) */
#define CB_BLEED_GREY 0.92      /* the margin's tint out to the bleed edge */

/* A start's rectangle (x, y, w, h): it stands on the trim line, the size
 * the generator keeps clear for it (base/board_geometry.h). Returns the
 * quarter turns (counter-clockwise as seen on the page) that point its
 * icon's top at the board's centre. */
int cb_sheet_start_rect(const cb_board *b, const cb_node *n, double rect[4]);

/* A node's printed number (its type's "number") sits on a small white
 * badge: where (OUT[0], OUT[1]: offset from the node's centre, mm, y
 * down), its radius (OUT[2], mm) and the digits' size (OUT[3], pt). Upper
 * right inside the disk; on the trim line beside the moved icon, in the
 * half of the disk that stays when the margin is cut off. */
#define CB_NUMBER_BADGE 0.32    /* the badge's radius, in node radii */
#define CB_START_BADGE 0.42     /* a start's seat number: its badge's radius */
#define CB_START_BADGE_MIN_MM 1.4 /* ...never less: its digit stays >= 6 pt */
void cb_sheet_number_badge(const cb_board *b, const cb_node *n, double out[4]);

/* An icon of W x H pixels fitted into a square of SIDE (any unit), its
 * aspect kept: its width and height in OUT. */
void cb_sheet_icon_fit(double w, double h, double side, double out[2]);

/* The label printed small on every sheet: "cutboard VERSION · player P of
 * N · seed "SEED" · sheet SHEETSEED". */
typedef struct {
    char text[1024];   /* UTF-8 of the BMP only (what libharu can show) */
    double size_pt;    /* font size */
    double x, base;    /* left end; baseline, mm above the paper's bottom */
    int patch;         /* 1: a white patch goes under it first */
    double patch_box[4]; /* x, y above the bottom, w, h (mm) */
} cb_label;

/* Width in pt of TEXT at SIZE pt in the font the label is set in. */
typedef double (*cb_text_width_fn)(void *ctx, const char *text, double size_pt);

/* Lays out board B's label of game G: ASCENT and DESCENT are the font's in
 * 1/1000 em (descent negative), SAFE the safe area (0: none), WIDTH
 * measures text. See cb_draw_label in render.c for the rules. */
void cb_sheet_label(const cb_game *g, const cb_board *b, double safe, double ascent,
                    double descent, cb_text_width_fn width, void *ctx, cb_label *out);

/* The legend strip in a sheet's margin: for each node type on the sheet, a
 * small node of its look and its short label, at CB_STRIP_PT. The strip
 * stays together in one margin, the top one or else the bottom one: items
 * go left to right, in the theme's order, into gaps clear of the trim
 * line, of nodes and starts reaching into the margin, of the label and of
 * the paper edge (5 mm, or the safe area), wrapping to a second row where
 * the margin is deep enough; where they cannot all go, the sheet has no
 * strip (n = 0): the rules page has everything. A version 1 theme has no
 * short labels, so no strip. */
#define CB_STRIP_PT 6.5
#define CB_STRIP_ROW_GAP_MM 0.4
#define CB_STRIP_R 1.35         /* mm: an item's node radius */
#define CB_STRIP_MAX 64
typedef struct {
    int type;
    const char *text;  /* the type's short label */
    double x, y;       /* its node's centre, mm (y down) */
    double tx, base;   /* its text's left end and baseline, mm (y down) */
} cb_strip_item;
typedef struct {
    int n;
    cb_strip_item item[CB_STRIP_MAX];
} cb_strip;
/* LABEL as laid out by cb_sheet_label, LABEL_W mm wide; the other
 * arguments as there. */
void cb_sheet_strip(const cb_board *b, const cb_theme *theme, const cb_label *label,
                    double label_w, double safe, double ascent, double descent,
                    cb_text_width_fn width, void *ctx, cb_strip *out);

/* A node's extent: its disk's box, or a start's rectangle (x, y, w, h). */
void cb_render_node_box(const cb_board *b, const cb_node *n, double box[4]);

/* Refuses what would make a renderer fail or the drawing nonsense, naming
 * FORMAT ("PDF", "SVG"), the sheet and the node. */
cb_status cb_sheet_check_game(const cb_game *game, const cb_theme *theme, const char *format,
                              cb_error *err);

/* --safe-area: every node, start and icon at least SAFE mm inside the
 * paper edge (0: not checked). */
cb_status cb_sheet_check_safe(const cb_game *game, double safe, cb_error *err);

#endif
