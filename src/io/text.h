/* Text files read whole: checks and line numbers shared by the readers. Internal. */
#ifndef CB_TEXT_H
#define CB_TEXT_H

#include <stddef.h>
#include "cutboard.h"
#include "base/error.h"

/* The 1-based line of byte OFFSET in TEXT. */
size_t cb_text_line(const char *text, size_t len, size_t offset);

/* Rejects text that is too large, holds a NUL byte or is only white space,
 * naming NAME (and the line of the NUL). */
cb_status cb_text_check(const char *text, size_t len, const char *name, cb_error *err);

#endif
