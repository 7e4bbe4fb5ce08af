/* The pilots board.c runs to choose a game's bands, open to tests: the
 * ones it knows beforehand, and running one afresh. */
#ifndef CB_PILOT_H
#define CB_PILOT_H

#include <stddef.h>

#include "cutboard.h"

/* How many pilots board.c knows beforehand. */
size_t cb_pilot_known_count(void);

/* Known pilot I (below cb_pilot_known_count): the spec it is for (the
 * defaults but for paper, margin, spacing and caps) in *SPEC, and its bands
 * (hops min, max, cuts min, max) in WANT. */
void cb_pilot_known(size_t i, cb_spec *spec, int want[4]);

/* Runs SPEC's pilot afresh (no table, no cache): its bands in GOT. 0, or
 * -1 when out of memory. */
int cb_pilot_run(const cb_spec *spec, int got[4]);

#endif
