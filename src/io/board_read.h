/* src/io/: files in and out: the board file (JSON) and OBJ drawings, the
 * theme, icons (libpng), fonts, shared text checks, atomic output files.
 * May include: base/, planar/, board/. */
/* Reading board files (JSON and OBJ): what the two readers share. Internal. */
#ifndef CB_BOARD_READ_H
#define CB_BOARD_READ_H

#include <stddef.h>
#include "cutboard.h"
#include "base/error.h"
#include "io/text.h"
#include "io/theme.h"

#define CB_BOARD_MAX_NODES 2000000  /* as many as the generator makes */
#define CB_BOARD_MAX_MM 10000.0     /* largest page side a file may give */
#define CB_BOARD_MAX_DOTS 16        /* power dots per node */
#define CB_BOARD_MAX_NUMBER 999     /* a number printed on a node */

#endif
