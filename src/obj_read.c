/* Wavefront OBJ drawings as boards: see README.md, "Drawing your own board". */
#include "board_read.h"

cb_status cb_game_parse_obj(const char *text, size_t len, const char *name,
                            const cb_theme *theme, cb_game **out, cb_error *err)
{
    (void)theme;
    *out = NULL;
    cb_status st = cb_text_check(text, len, name ? name : "OBJ file", err);
    if (st != CB_OK)
        return st;
    return cb_fail(err, CB_ERR_DATA, "%s: not a board file (OBJ drawings are not read yet)",
                   name ? name : "OBJ file");
}
