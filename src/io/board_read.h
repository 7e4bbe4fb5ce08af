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

/* The fast reader (board_stream.c): reads a board file from F, or from the
 * LEN bytes of TEXT when F is NULL, in one pass with no JSON tree. It takes
 * only files the precise reader (cb_game_parse_json's cJSON path) takes,
 * and gives the same game. CB_OK with *out NULL: declined, the file is the
 * precise reader's (an error to name, or JSON it leaves to cJSON); F has
 * been read on. Otherwise a read error or out of memory. */
/* The precise reader: the whole text as one cJSON tree, every value checked
 * in a fixed order, the first fault named (NAME not NULL). */
cb_status cb_game_parse_json_tree(const char *text, size_t len, const char *name,
                                  const cb_theme *theme, cb_game **out, cb_error *err);

/* Refuses board B (sheet K, counted from 0, of file NAME) when it has more
 * edges than a crossing-free drawing can (3n - 6), or when more than
 * CB_BOARD_CELL_MAX of its nodes lie in one square as wide as two node
 * disks and their gap; every reader calls it before any work that looks at
 * a node's neighbours (placing dots), the check after. O(n log n). */
cb_status cb_board_limits_check(const cb_board *b, const char *name, size_t k,
                                 cb_error *err);

cb_status cb_board_stream_read(FILE *f, const char *text, size_t len, const char *name,
                               const cb_theme *theme, cb_game **out, cb_error *err);

#endif
