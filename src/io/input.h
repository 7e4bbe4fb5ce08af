/* Opening input files (themes, icons, fonts, board files). Internal. */
#ifndef CB_INPUT_H
#define CB_INPUT_H

#include <stdio.h>
#include <sys/types.h>
#include "cutboard.h"

/* Opens PATH for reading if it is a regular file, deciding that before
 * anything can block on it (a plain fopen of a FIFO with no writer hangs):
 * CB_OK with *OUT open and *SIZE its size in bytes. Otherwise *OUT is NULL
 * and ERR says "WHAT PATH: cannot open: REASON" (CB_ERR_NOINPUT; REASON
 * "not a regular file" for a folder, FIFO, device or socket) or "WHAT PATH:
 * out of memory opening it" (CB_ERR_NOMEM); WHAT names the kind of file
 * ("font", "icon") or is "" for none. */
cb_status cb_input_open(const char *what, const char *path, FILE **out, off_t *size,
                        cb_error *err);

/* The status for a file that cannot be opened or read with errno E: a
 * lack of memory is CB_ERR_NOMEM, of other resources
 * (descriptors, disk) CB_ERR_INTERNAL
 * (exit 70: try again), anything else CB_ERR_NOINPUT (exit 66). */
cb_status cb_input_errno_status(int e);

#endif
