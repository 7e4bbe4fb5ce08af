/* Boards as Wavefront OBJ drawings (the writer; obj_read.c reads them back).
 * One sheet per file: object "board" holds every node as a vertex (x right,
 * y up, z = 0, millimetres on the page) and every edge as an l line; the
 * objects "center", "start_MISSION", "type_NAME" and "dots_N" hold one loose
 * vertex at the place of each node they mark. "# cutboard" comment lines
 * keep the page, trim rectangle, radius and seeds. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "board/decorate.h"
#include "base/buf.h"
#include "base/error.h"

/* A seed on one line: line breaks become spaces. */
static void put_text(cb_buf *b, const char *key, const char *text)
{
    cb_buf_printf(b, "# cutboard %s ", key);
    for (const char *p = text; *p && !b->oom; p++)
        cb_buf_printf(b, "%c", *p == '\n' || *p == '\r' ? ' ' : *p);
    cb_buf_printf(b, "\n");
}

static void put_vertex(cb_buf *b, const cb_board *bd, const cb_node *v)
{
    cb_buf_printf(b, "v %.6f %.6f 0\n", v->x, bd->page_h - v->y);
}

cb_status cb_obj_render(const cb_game *game, size_t sheet, const cb_theme *theme, char **out,
                        cb_error *err)
{
    *out = NULL;
    if (sheet >= game->n_sheets)
        return cb_fail(err, CB_ERR_INTERNAL, "OBJ: no sheet %zu (the game has %zu)", sheet + 1,
                       game->n_sheets);
    const cb_board *bd = game->sheets[sheet];
    cb_buf b = {0};
    cb_buf_printf(&b, "# Made by cutboard %s: millimetres, x right, y up, z = 0.\n"
                      "# Blender: File > Import > Wavefront (.obj) with Forward Y and Up Z.\n",
                  CB_VERSION);
    put_text(&b, "game", game->seed);
    put_text(&b, "seed", bd->seed);
    cb_buf_printf(&b, "# cutboard players %d\n# cutboard shared %d\n# cutboard player %d\n"
                      "# cutboard attempts %d\n# cutboard page %.6f %.6f\n"
                      "# cutboard board %.6f %.6f %.6f %.6f\n# cutboard radius %.6f\n",
                  game->players, game->shared ? 1 : 0, bd->player, bd->attempts, bd->page_w,
                  bd->page_h, bd->board_x, bd->board_y, bd->board_w, bd->board_h,
                  bd->node_radius);
    cb_buf_printf(&b, "o board\n");
    for (size_t i = 0; i < bd->n_nodes; i++)
        put_vertex(&b, bd, &bd->nodes[i]);
    for (size_t e = 0; e < bd->n_edges; e++)
        cb_buf_printf(&b, "l %u %u\n", bd->edges[e].a + 1, bd->edges[e].b + 1);
    cb_buf_printf(&b, "o center\n");
    put_vertex(&b, bd, &bd->nodes[bd->center]);
    /* Starts, by mission (plain "start" when there is none). */
    size_t n_missions = theme ? theme->n_missions : 0;
    for (size_t k = 0; k <= n_missions; k++) {
        int first = 1, want = k < n_missions ? (int)k : -1;
        for (size_t i = 0; i < bd->n_nodes; i++) {
            const cb_node *v = &bd->nodes[i];
            int mission = v->mission >= 0 && (size_t)v->mission < n_missions ? v->mission : -1;
            if (v->kind != CB_KIND_START || mission != want)
                continue;
            if (first)
                cb_buf_printf(&b, want >= 0 ? "o start_%s\n" : "o start\n",
                              want >= 0 ? theme->missions[k].name : "");
            first = 0;
            put_vertex(&b, bd, v);
        }
    }
    for (size_t k = 0; theme && k < theme->n_types; k++) {
        int first = 1;
        for (size_t i = 0; i < bd->n_nodes; i++) {
            const cb_node *v = &bd->nodes[i];
            if (v->kind != CB_KIND_NODE || v->type != (int)k)
                continue;
            if (first)
                cb_buf_printf(&b, "o type_%s\n", theme->types[k].name);
            first = 0;
            put_vertex(&b, bd, v);
        }
    }
    /* Printed numbers (a numbered type's, a start's seat), a group each. */
    int most = 0;
    for (size_t i = 0; i < bd->n_nodes; i++)
        most = bd->nodes[i].number > most ? bd->nodes[i].number : most;
    for (int k = 1; k <= most; k++) {
        int first = 1;
        for (size_t i = 0; i < bd->n_nodes; i++) {
            const cb_node *v = &bd->nodes[i];
            if (v->number != k)
                continue;
            if (first)
                cb_buf_printf(&b, "o number_%d\n", k);
            first = 0;
            put_vertex(&b, bd, v);
        }
    }
    /* Power dots where they differ from what the reader assumes. */
    for (int d = 0; d <= CB_DOTS_MAX; d++) {
        int first = 1;
        for (size_t i = 0; i < bd->n_nodes; i++) {
            const cb_node *v = &bd->nodes[i];
            int dflt = cb_node_dots_wanted(bd, (uint32_t)i, game->players);
            if (v->dots != d || d == dflt)
                continue;
            if (first)
                cb_buf_printf(&b, "o dots_%d\n", d);
            first = 0;
            put_vertex(&b, bd, v);
        }
    }
    if (b.oom || !b.data) {
        cb_buf_free(&b);
        return cb_fail(err, CB_ERR_NOMEM, "out of memory writing an OBJ file");
    }
    *out = b.data;
    return CB_OK;
}
