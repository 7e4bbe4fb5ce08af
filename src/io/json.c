/* The board file (format cutboard/1), as described in DESIGN.md, written as
 * it is made (jsonwrite.h): the same bytes cJSON_Print gave when the file
 * was built as one cJSON tree, with no tree and no whole copy of the text,
 * so a poster's million nodes cost a 64 KiB buffer. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "base/error.h"
#include "io/jsonwrite.h"

static const char *const side_names[] = {"top", "right", "bottom", "left"};
static const char *const kind_names[] = {"node", "start", "center"};

/* Millimetres to 0.01 mm: stable text, and far finer than any printer. */
static double mm(double v)
{
    return round(v * 100) / 100;
}

static void member_number(cb_jw *w, const char *key, double v)
{
    cb_jw_key(w, key);
    cb_jw_number(w, v);
}

static void member_string(cb_jw *w, const char *key, const char *s)
{
    cb_jw_key(w, key);
    cb_jw_string(w, s);
}

static void member_ints(cb_jw *w, const char *key, const int *v, size_t n)
{
    cb_jw_key(w, key);
    cb_jw_array_begin(w);
    for (size_t i = 0; i < n; i++)
        cb_jw_number(w, v[i]);
    cb_jw_array_end(w);
}

/* A node's power dots: their centres where the board has them placed
 * ([[x_mm, y_mm], ...]), else how many. */
static void node_dots(cb_jw *w, const cb_board *b, const cb_node *v)
{
    if (!b->dot_xy) {
        member_number(w, "dots", v->dots);
        return;
    }
    cb_jw_key(w, "dots");
    cb_jw_array_begin(w);
    for (int k = 0; k < v->dots; k++) {
        const double *p = b->dot_xy[v->first_dot + (size_t)k];
        cb_jw_array_begin(w);
        cb_jw_number(w, mm(p[0]));
        cb_jw_number(w, mm(p[1]));
        cb_jw_array_end(w);
    }
    cb_jw_array_end(w);
}

static void node_json(cb_jw *w, const cb_board *b, const cb_theme *theme, size_t i)
{
    const cb_node *v = &b->nodes[i];
    cb_jw_object_begin(w);
    member_number(w, "id", (double)i);
    member_number(w, "x_mm", mm(v->x));
    member_number(w, "y_mm", mm(v->y));
    member_string(w, "kind", kind_names[v->kind]);
    if (v->kind == CB_KIND_START && v->side >= 0)
        member_string(w, "side", side_names[v->side]);
    if (v->kind == CB_KIND_START && theme && v->mission >= 0)
        member_string(w, "mission", theme->missions[v->mission].name);
    const char *type = v->kind == CB_KIND_START ? "start"
                       : v->kind == CB_KIND_CENTER ? "center"
                       : theme && v->type >= 0 ? theme->types[v->type].name : "node";
    member_string(w, "type", type);
    if (v->number > 0)
        member_number(w, "number", v->number);
    node_dots(w, b, v);
    cb_jw_object_end(w);
}

/* A sheet's starts' shortest cuts (NULL when it has none) and how many. */
typedef struct {
    int *cuts;
    size_t n;
} sheet_cuts;

/* One sheet. A check that fails (out of memory) leaves its metrics out. */
static void sheet_json(cb_jw *w, const cb_board *b, const cb_theme *theme, const sheet_cuts *sc,
                       const int *band)
{
    cb_jw_object_begin(w);
    member_string(w, "seed", b->seed);
    member_number(w, "player", b->player);
    cb_jw_key(w, "page");
    cb_jw_object_begin(w);
    member_number(w, "width_mm", mm(b->page_w));
    member_number(w, "height_mm", mm(b->page_h));
    cb_jw_object_end(w);
    cb_jw_key(w, "board");
    cb_jw_object_begin(w);
    member_number(w, "x_mm", mm(b->board_x));
    member_number(w, "y_mm", mm(b->board_y));
    member_number(w, "width_mm", mm(b->board_w));
    member_number(w, "height_mm", mm(b->board_h));
    cb_jw_object_end(w);
    member_number(w, "node_radius_mm", mm(b->node_radius));
    member_number(w, "center", b->center);
    cb_jw_key(w, "nodes");
    cb_jw_array_begin(w);
    for (size_t i = 0; i < b->n_nodes && !w->failed; i++)
        node_json(w, b, theme, i);
    cb_jw_array_end(w);
    cb_jw_key(w, "edges");
    cb_jw_array_begin(w);
    for (size_t e = 0; e < b->n_edges && !w->failed; e++) {
        cb_jw_array_begin(w);
        cb_jw_number(w, (int)b->edges[e].a);
        cb_jw_number(w, (int)b->edges[e].b);
        cb_jw_array_end(w);
    }
    cb_jw_array_end(w);
    member_number(w, "attempts", b->attempts);
    cb_verdict v;
    cb_error err;
    if (!w->failed && cb_board_check(b, 64, 64, &v, &err) == CB_OK) {
        size_t n = (size_t)(v.starts < CB_VERDICT_STARTS ? v.starts : CB_VERDICT_STARTS);
        cb_jw_key(w, "metrics");
        cb_jw_object_begin(w);
        member_ints(w, "start_center_hops", v.hops, n);
        member_number(w, "hop_spread", v.hop_max - v.hop_min);
        member_ints(w, "start_disjoint_paths", v.disjoint, n);
        /* Each start's shortest cut (-1: no cut parts it from the centre)
         * and the band {c, c+1} every sheet of the game keeps them in. */
        if (sc->cuts && sc->n <= (size_t)INT32_MAX) {
            member_ints(w, "start_shortest_cuts", sc->cuts, sc->n);
            if (band[0] >= 0)
                member_ints(w, "cut_band", band, 2);
        }
        cb_jw_object_end(w);
    }
    cb_jw_object_end(w);
}

cb_status cb_json_write(const cb_game *game, const cb_theme *theme, cb_write_fn write,
                        void *ctx, cb_error *err)
{
    /* The game's cut band: [c, c+1] from the least cut of its sheets when
     * every cut fits (as on generated boards), else the range they span.
     * Computed first: every sheet's metrics carry it. */
    sheet_cuts *sc = calloc(game->n_sheets ? game->n_sheets : 1, sizeof *sc);
    int band[2] = {-1, -1};
    int ok = sc != NULL;
    for (size_t i = 0; ok && i < game->n_sheets; i++) {
        cb_error e;
        if (cb_board_shortest_cuts(game->sheets[i], &sc[i].cuts, &sc[i].n, &e) != CB_OK)
            ok = 0;
        for (size_t k = 0; ok && k < sc[i].n; k++) {
            int c = sc[i].cuts[k];
            if (c >= 0 && (band[0] < 0 || c < band[0]))
                band[0] = c;
            band[1] = c > band[1] ? c : band[1];
        }
    }
    if (band[0] >= 0 && band[1] < band[0] + 1)
        band[1] = band[0] + 1;
    cb_jw *w = ok ? malloc(sizeof *w) : NULL;
    int failed = 0;
    if (w) {
        cb_jw_init(w, write, ctx);
        cb_jw_object_begin(w);
        member_string(w, "format", "cutboard/1");
        member_string(w, "seed", game->seed);
        member_number(w, "players", game->players);
        cb_jw_key(w, "shared");
        cb_jw_bool(w, game->shared);
        if (theme)
            member_string(w, "theme", theme->name);
        cb_jw_key(w, "sheets");
        cb_jw_array_begin(w);
        for (size_t i = 0; i < game->n_sheets && !w->failed; i++)
            sheet_json(w, game->sheets[i], theme, &sc[i], band);
        cb_jw_array_end(w);
        cb_jw_object_end(w);
        failed = cb_jw_flush(w);
        free(w);
    }
    for (size_t i = 0; sc && i < game->n_sheets; i++)
        free(sc[i].cuts);
    free(sc);
    if (!w)
        return cb_fail(err, CB_ERR_INTERNAL, "out of memory writing the board file");
    if (failed)
        return cb_fail(err, CB_ERR_IO, "writing the board file: %s", strerror(failed));
    return CB_OK;
}

/* ---- the whole text in memory --------------------------------------------- */

typedef struct {
    char *text;
    size_t len, cap;
} text_buf;

static int append(void *ctx, const void *data, size_t len)
{
    text_buf *t = ctx;
    if (t->len + len + 1 > t->cap) {
        size_t cap = t->cap ? t->cap : 1 << 16;
        while (cap < t->len + len + 1)
            cap *= 2;
        char *bigger = realloc(t->text, cap);
        if (!bigger)
            return ENOMEM;
        t->text = bigger;
        t->cap = cap;
    }
    memcpy(t->text + t->len, data, len);
    t->len += len;
    t->text[t->len] = '\0';
    return 0;
}

cb_status cb_json_render(const cb_game *game, const cb_theme *theme, char **json, cb_error *err)
{
    *json = NULL;
    text_buf t = {NULL, 0, 0};
    cb_status st = cb_json_write(game, theme, append, &t, err);
    if (st != CB_OK || !t.text) {
        free(t.text);
        if (st == CB_ERR_IO || st == CB_OK) /* only append fails, with ENOMEM */
            return cb_fail(err, CB_ERR_INTERNAL, "out of memory writing the board file");
        return st;
    }
    *json = t.text;
    return CB_OK;
}
