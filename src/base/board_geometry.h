/* The shape of a board that every part must agree on: the generator places
 * by it, the contract check checks it, and every renderer draws it. Sizes
 * are in node radii. */
#ifndef CB_BOARD_GEOMETRY_H
#define CB_BOARD_GEOMETRY_H

#include "cutboard.h"

#define CB_STARTS_PER_SIDE 3
#define CB_STARTS (4 * CB_STARTS_PER_SIDE)
_Static_assert(CB_STARTS == CB_VERDICT_STARTS, "the verdict holds one entry per start");

/* A start's rectangle: half its length along its side, and its depth
 * inward from the trim line. */
#define CB_START_HALF_WIDTH 1.25
#define CB_START_DEPTH 1.55

/* A power dot is an outlined circle a player draws a mark in: 0.35 node
 * radii (4.5 mm across on a default board), never under 1.5 mm (3 mm
 * across). It touches its own node's rim from outside and keeps clear of
 * everything else: other dots by CB_DOT_CLEARANCE_MM, other nodes by
 * CB_DOT_OWNER_MARGIN_MM, so that no dot can be read as a neighbour's, and
 * edges and the trim line by CB_DOT_LINE_CLEARANCE_MM (centre line to the
 * dot's circle): 1 mm of paper between the dot's outline and the line's
 * stroke, so a scissors slip along the line misses the dot. Sizes in mm. */
#define CB_DOT_RADIUS 0.30
#define CB_DOT_MIN_RADIUS_MM 1.5
#define CB_DOT_CLEARANCE_MM 0.5
#define CB_DOT_OWNER_MARGIN_MM 1.0
#define CB_DOT_PAPER_MM 1.0
/* Half the widest line a dot keeps clear of (an edge's 1.6 pt stroke) plus
 * half a dot's 0.5 pt outline, rounded up. */
#define CB_LINE_AND_OUTLINE_MM 0.38
#define CB_DOT_LINE_CLEARANCE_MM (CB_DOT_PAPER_MM + CB_LINE_AND_OUTLINE_MM)

/* The scissors clauses of the contract (boards with dots; see cb_verdict):
 * the least piece of paper and the least stretch of an edge between its
 * nodes' shapes. */
#define CB_MIN_PIECE_MM2 120.0
#define CB_MIN_VISIBLE_MM 3.0

/* Boards whose nodes are smaller than this (under about 12 mm apart:
 * posters, or --resolution above about 23 on A4) print no power dots: a
 * dot of the least size does not fit beside every node there (measured:
 * at 10.9 mm apart about one node a sheet has no room even for one). Where
 * dots keep their least size (nodes under 16 mm apart) a node holds one. */
#define CB_DOT_MIN_NODE_RADIUS_MM 3.2

static inline double cb_dot_radius(double node_radius)
{
    double dr = CB_DOT_RADIUS * node_radius;
    return dr > CB_DOT_MIN_RADIUS_MM ? dr : CB_DOT_MIN_RADIUS_MM;
}

/* Does node V stand on the trim line (where edge nodes are snapped)? Its
 * outer half is cut off with the margin. */
static inline int cb_on_trim(const cb_board *b, const cb_node *v)
{
    return v->x <= b->board_x || v->x >= b->board_x + b->board_w || v->y <= b->board_y ||
           v->y >= b->board_y + b->board_h;
}

static inline int cb_board_has_dots(const cb_board *b)
{
    return b->node_radius >= CB_DOT_MIN_NODE_RADIUS_MM;
}

/* The side of the square an icon is drawn in. */
#define CB_ICON_SIDE 1.25

/* A start's rectangle relative to its node, which stands on the trim line
 * of SIDE: D = x0, y0, x1, y1 offsets in mm (y down) for node radius R. */
static inline void cb_start_offsets(cb_side side, double r, double d[4])
{
    double hw = CB_START_HALF_WIDTH * r, dep = CB_START_DEPTH * r;
    switch (side) {
    case CB_SIDE_TOP: d[0] = -hw, d[1] = 0, d[2] = hw, d[3] = dep; break;
    case CB_SIDE_BOTTOM: d[0] = -hw, d[1] = -dep, d[2] = hw, d[3] = 0; break;
    case CB_SIDE_LEFT: d[0] = 0, d[1] = -hw, d[2] = dep, d[3] = hw; break;
    default: d[0] = -dep, d[1] = -hw, d[2] = 0, d[3] = hw; break;
    }
}

/* Where a node's icon goes, relative to its centre (mm, y down), and its
 * square's side: the middle, CB_ICON_SIDE radii across; on the trim line a
 * smaller square in the half of the disk that stays on the board (a
 * quarter in a corner), so trimming the margin leaves the whole icon. */
#define CB_TRIM_ICON_SIDE 0.85    /* node radii, in the half disk */
#define CB_CORNER_ICON_SIDE 0.65  /* in the quarter disk */
#define CB_TRIM_ICON_INSET 0.05   /* from the trim line to the square */
static inline void cb_node_icon_place(const cb_board *b, const cb_node *v, double *dx,
                                      double *dy, double *side)
{
    double r = b->node_radius;
    int ix = v->x <= b->board_x ? 1 : v->x >= b->board_x + b->board_w ? -1 : 0;
    int iy = v->y <= b->board_y ? 1 : v->y >= b->board_y + b->board_h ? -1 : 0;
    double s = (ix && iy ? CB_CORNER_ICON_SIDE : ix || iy ? CB_TRIM_ICON_SIDE : CB_ICON_SIDE) * r;
    double off = CB_TRIM_ICON_INSET * r + s / 2;
    *dx = ix * off;
    *dy = iy * off;
    *side = s;
}

#endif
