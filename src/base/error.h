/* src/base/: the basics every other folder may use and which use nothing
 * above them: errors (this file), the seeded RNG, geometry and the uniform
 * grid, sorting, plain graph algorithms (BFS, bridges), and the lifecycle of
 * the shared board and game types. May include: cutboard.h only. */
/* Filling a cb_error: each returns the status it records, so callers can
 * `return cb_fail(...)`; ERR may be NULL. Messages are the library's words:
 * an option is named by err->field, never by a command-line flag. */
#ifndef CB_ERROR_H
#define CB_ERROR_H

#include "cutboard.h"

/* STATUS and the formatted one-line message; no field, no line. */
cb_status cb_fail(cb_error *err, cb_status status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* CB_ERR_USAGE for the option FIELD ("players"); the message says what is
 * wrong with its value without naming it ("12 is out of range (2..9)"). */
cb_status cb_fail_option(cb_error *err, const char *field, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* STATUS for the option FIELD (a folder it names is missing, say). */
cb_status cb_fail_field(cb_error *err, cb_status status, const char *field, const char *fmt,
                        ...) __attribute__((format(printf, 4, 5)));

/* STATUS at input line LINE; the message still names file and line, as
 * the readers have always written them ("board.obj:57: ..."). */
cb_status cb_fail_line(cb_error *err, cb_status status, long line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* CB_ERR_NOMEM: "WHAT: out of memory", or "out of memory" when WHAT is
 * NULL or "". */
cb_status cb_fail_nomem(cb_error *err, const char *what);

#endif
