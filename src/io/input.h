/* Opening input files (themes, icons, fonts, board files). Internal. */
#ifndef CB_INPUT_H
#define CB_INPUT_H

#include <stdio.h>
#include <sys/types.h>

/* Opens PATH for reading if it is a regular file, deciding that before
 * anything can block on it (a plain fopen of a FIFO with no writer hangs).
 * Returns 0 with *OUT open and *SIZE its size in bytes; an errno value when
 * it cannot be opened (ENOMEM: out of memory); or -1 when it is no regular
 * file (a folder, FIFO, device or socket). */
int cb_input_open(const char *path, FILE **out, off_t *size);

#endif
