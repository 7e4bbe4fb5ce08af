/* src/io/: files in and out: the board file (JSON) and OBJ drawings, the
 * theme, icons (libpng), fonts, shared text checks, atomic output files.
 * May include: base/, planar/, board/. */
/* Reading board files (JSON and OBJ): what the readers share. Internal. */
#ifndef CB_BOARD_READ_H
#define CB_BOARD_READ_H

#include <stddef.h>
#include <stdio.h>
#include "cutboard.h"
#include "base/error.h"
#include "io/text.h"
#include "io/theme.h"

#define CB_BOARD_MAX_NODES 2000000  /* as many as the generator makes */
#define CB_BOARD_MAX_MM 10000.0     /* largest page side a file may give */
#define CB_BOARD_MAX_DOTS 16        /* power dots per node */
#define CB_BOARD_MAX_NUMBER 999     /* a number printed on a node */

/* The board file's names of node kinds (in cb_kind's order) and of the
 * trim's sides (cb_side's): the reader's and the writer's (json.c). */
extern const char *const cb_board_kind_names[3];
extern const char *const cb_board_side_names[4];

/* The board file reader (board_json.c): the LEN bytes of TEXT (may be
 * NULL), then F (may be NULL) to its end, read as they stream by. Its
 * errors name the file and the line or field at fault. */
cb_status cb_board_json_read(FILE *f, const char *text, size_t len, const char *name,
                             const cb_theme *theme, cb_game **out, cb_error *err);

/* Refuses board B (sheet K, counted from 0, of file NAME) when it has more
 * edges than a crossing-free drawing can (3n - 6), or when more than
 * CB_BOARD_CELL_MAX of its nodes lie in one square as wide as two node
 * disks and their gap; every reader calls it before any work that looks at
 * a node's neighbours (placing dots), the check after. O(n log n). */
cb_status cb_board_limits_check(const cb_board *b, const char *name, size_t k,
                                 cb_error *err);

/* The first of those limits alone: EDGES edges on NODES nodes (sheet K of
 * NAME) are refused when NODES >= 3 and EDGES > 3 x NODES - 6. For a
 * reader that stops keeping edges past the limit and only counts them. */
cb_status cb_board_edges_check(size_t edges, size_t nodes, const char *name, size_t k,
                               cb_error *err);

#endif
