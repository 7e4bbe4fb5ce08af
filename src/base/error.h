/* src/base/: the basics every other folder may use and which use nothing
 * above them: errors (this file), the seeded RNG, geometry and the uniform
 * grid, sorting, plain graph algorithms (BFS, bridges), and the lifecycle of
 * the shared board and game types. May include: cutboard.h only. */
/* Filling a cb_error. */
#ifndef CB_ERROR_H
#define CB_ERROR_H

#include "cutboard.h"

/* Records STATUS and the formatted one-line message in ERR (may be NULL);
 * returns STATUS so callers can `return cb_fail(...)`. */
cb_status cb_fail(cb_error *err, cb_status status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
