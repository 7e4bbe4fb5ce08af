/* What the board-file fuzz targets share: parse the bytes with PARSE (with
 * the default theme's names when it loads); a failure must be one clean
 * line, a game that loads is checked against the contract, diagnosed and
 * written back out, as cutboard render does. */
#ifndef BOARD_TARGET_H
#define BOARD_TARGET_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cutboard.h"

typedef cb_status (*board_parser)(const char *text, size_t len, const char *name,
                                  const cb_theme *theme, cb_game **out, cb_error *err);

static int fuzz_board_file(board_parser parse, const char *name, const uint8_t *data,
                           size_t size)
{
    static cb_theme *theme;
    static int tried;
    cb_error err = {CB_OK, "", 0, ""};
    if (!tried) {
        tried = 1;
        if (cb_theme_load("icons/default", &theme, &err) != CB_OK)
            theme = NULL; /* names then stay unresolved: still worth fuzzing */
    }
    cb_game *game = NULL;
    cb_status st = parse((const char *)data, size, name, theme, &game, &err);
    if (st != CB_OK) {
        if (game || err.status != st || !err.message[0] || strchr(err.message, '\n'))
            abort();
        return 0;
    }
    if (!game)
        abort();
    for (size_t s = 0; s < game->n_sheets; s++) {
        const cb_board *b = game->sheets[s];
        for (size_t e = 0; e < b->n_edges; e++)
            if (b->edges[e].a >= b->n_nodes || b->edges[e].b >= b->n_nodes)
                abort();
        cb_verdict v;
        cb_board_check(b, 4, 8, &v, &err);
        char *report = NULL;
        size_t lines = 0;
        if (cb_board_diagnose(b, 4, 8, &report, &lines, &err) == CB_OK)
            free(report);
    }
    char *json = NULL;
    if (cb_json_render(game, theme, &json, &err) == CB_OK)
        free(json);
    cb_game_free(game);
    return 0;
}

#endif
