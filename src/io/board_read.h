/* Reading board files (JSON and OBJ): what the two readers share. Internal. */
#ifndef CB_BOARD_READ_H
#define CB_BOARD_READ_H

#include <stddef.h>
#include "cutboard.h"
#include "base/error.h"

#define CB_BOARD_MAX_NODES 2000000  /* as many as the generator makes */
#define CB_BOARD_MAX_MM 10000.0     /* largest page side a file may give */
#define CB_BOARD_MAX_DOTS 16        /* power dots per node */

/* The 1-based line of byte OFFSET in TEXT. */
size_t cb_text_line(const char *text, size_t len, size_t offset);

/* Rejects text that is too large, holds a NUL byte or is only white space,
 * naming NAME (and the line of the NUL). */
cb_status cb_text_check(const char *text, size_t len, const char *name, cb_error *err);

/* A theme's node type or mission by name; -1 when THEME is NULL or has none. */
int cb_theme_type_index(const cb_theme *theme, const char *name);
int cb_theme_mission_index(const cb_theme *theme, const char *name);

#endif
