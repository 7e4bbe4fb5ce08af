/* Poster boards: a fair board of any size built on a diamond lattice, where
 * the fairness the small-board generator has to search for holds by
 * construction (see lattice.c). */
#ifndef CB_LATTICE_H
#define CB_LATTICE_H

#include <stddef.h>
#include "cutboard.h"
#include "base/rng.h"

/* Boards with more nodes than this are built on the lattice (so are boards
 * with nodes closer than 9 mm, see board.c): above it the search for 12
 * starts in one hop band fails more and more often (1 seed in 3 at 10,000
 * nodes after 200 attempts and 40 s). */
#define CB_LATTICE_NODES 5000

typedef struct {
    double bx, by, bw, bh;  /* trim rectangle, mm */
    size_t n;               /* about this many nodes */
    double r;               /* node radius, mm */
} cb_lattice_params;

/* Fills B's nodes (kinds and sides set, no types), edges (a < b, sorted)
 * and centre; 0, 1 when the lattice has no room for 3 starts a side (*why
 * says so), or -1 when out of memory. */
int cb_lattice_board(cb_board *b, const cb_lattice_params *lp, cb_rng *rng, const char **why);

/* Does the lattice have room for 3 starts a side, clear of the corners? */
int cb_lattice_has_room(const cb_lattice_params *lp);

/* Half the nodes' spacing on the lattice that the contract leaves for
 * jitter: below 0 the nodes cannot keep the gap between their disks. */
double cb_lattice_slack(const cb_lattice_params *lp);

/* How far rounding to the board file's 0.01 mm moves a place (half a
 * cell's diagonal, rounded up): the jitter leaves it to spare, and a
 * lattice needs more slack than this. */
#define CB_LATTICE_ROUNDING_MM 0.0071

#endif
