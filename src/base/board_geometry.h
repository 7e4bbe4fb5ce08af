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

/* A power dot's radius. */
#define CB_DOT_RADIUS 0.13

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

#endif
