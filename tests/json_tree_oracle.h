/* The board file writer as it was before it streamed (src/io/json.c at 2ccc8d7):
 * the whole file built as one cJSON tree and printed with cJSON_Print. Kept
 * as the oracle the streaming writer must match byte for byte. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include "base/error.h"

static const char *const side_names[] = {"top", "right", "bottom", "left"};
static const char *const kind_names[] = {"node", "start", "center"};

/* Millimetres to 0.01 mm: stable text, and far finer than any printer. */
static double mm(double v)
{
    return round(v * 100) / 100;
}

static int add_number(cJSON *obj, const char *key, double v)
{
    return cJSON_AddNumberToObject(obj, key, v) != NULL;
}

/* A node's power dots: their centres where the board has them placed
 * ([[x_mm, y_mm], ...]), else how many. */
static int add_dots(cJSON *o, const cb_board *b, const cb_node *v)
{
    if (!b->dot_xy)
        return add_number(o, "dots", v->dots);
    cJSON *list = cJSON_AddArrayToObject(o, "dots");
    for (int k = 0; list && k < v->dots; k++) {
        const double *p = b->dot_xy[v->first_dot + (size_t)k];
        double xy[2] = {mm(p[0]), mm(p[1])};
        cJSON *pair = cJSON_CreateDoubleArray(xy, 2);
        if (!pair || !cJSON_AddItemToArray(list, pair))
            return 0;
    }
    return list != NULL;
}

/* A sheet's starts' shortest cuts (NULL when out of memory) and the game's
 * cut band. */
typedef struct {
    int *cuts;
    size_t n;
} sheet_cuts;

static cJSON *sheet_json(const cb_board *b, const cb_theme *theme, const sheet_cuts *sc,
                         const int *band)
{
    cJSON *s = cJSON_CreateObject();
    cJSON *page = NULL, *board = NULL, *nodes = NULL, *edges = NULL, *metrics = NULL;
    int ok = s && cJSON_AddStringToObject(s, "seed", b->seed) &&
             add_number(s, "player", b->player) &&
             (page = cJSON_AddObjectToObject(s, "page")) &&
             (board = cJSON_AddObjectToObject(s, "board")) &&
             add_number(page, "width_mm", mm(b->page_w)) &&
             add_number(page, "height_mm", mm(b->page_h)) &&
             add_number(board, "x_mm", mm(b->board_x)) && add_number(board, "y_mm", mm(b->board_y)) &&
             add_number(board, "width_mm", mm(b->board_w)) &&
             add_number(board, "height_mm", mm(b->board_h)) &&
             add_number(s, "node_radius_mm", mm(b->node_radius)) &&
             add_number(s, "center", b->center) && (nodes = cJSON_AddArrayToObject(s, "nodes")) &&
             (edges = cJSON_AddArrayToObject(s, "edges"));
    for (size_t i = 0; ok && i < b->n_nodes; i++) {
        const cb_node *v = &b->nodes[i];
        cJSON *o = cJSON_CreateObject();
        ok = o && cJSON_AddItemToArray(nodes, o) && add_number(o, "id", (double)i) &&
             add_number(o, "x_mm", mm(v->x)) && add_number(o, "y_mm", mm(v->y)) &&
             cJSON_AddStringToObject(o, "kind", kind_names[v->kind]);
        if (ok && v->kind == CB_KIND_START && v->side >= 0)
            ok = cJSON_AddStringToObject(o, "side", side_names[v->side]) != NULL;
        if (ok && v->kind == CB_KIND_START && theme && v->mission >= 0)
            ok = cJSON_AddStringToObject(o, "mission", theme->missions[v->mission].name) != NULL;
        const char *type = v->kind == CB_KIND_START ? "start"
                           : v->kind == CB_KIND_CENTER ? "center"
                           : theme && v->type >= 0 ? theme->types[v->type].name : "node";
        ok = ok && cJSON_AddStringToObject(o, "type", type) &&
             (v->number <= 0 || add_number(o, "number", v->number)) && add_dots(o, b, v);
    }
    for (size_t e = 0; ok && e < b->n_edges; e++) {
        int pair[2] = {(int)b->edges[e].a, (int)b->edges[e].b};
        cJSON *a = cJSON_CreateIntArray(pair, 2);
        ok = a && cJSON_AddItemToArray(edges, a);
    }
    ok = ok && add_number(s, "attempts", b->attempts);
    cb_verdict v;
    cb_error err;
    if (ok && cb_board_check(b, 64, 64, &v, &err) == CB_OK) {
        int n = v.starts < CB_VERDICT_STARTS ? v.starts : CB_VERDICT_STARTS;
        ok = (metrics = cJSON_AddObjectToObject(s, "metrics")) != NULL;
        cJSON *hops = ok ? cJSON_CreateIntArray(v.hops, n) : NULL;
        cJSON *paths = hops ? cJSON_CreateIntArray(v.disjoint, n) : NULL;
        ok = ok && hops && paths && cJSON_AddItemToObject(metrics, "start_center_hops", hops) &&
             add_number(metrics, "hop_spread", v.hop_max - v.hop_min) &&
             cJSON_AddItemToObject(metrics, "start_disjoint_paths", paths);
        /* Each start's shortest cut (-1: no cut parts it from the centre)
         * and the band {c, c+1} every sheet of the game keeps them in. */
        if (ok && sc->cuts && sc->n <= (size_t)INT32_MAX) {
            cJSON *cuts = cJSON_CreateIntArray(sc->cuts, (int)sc->n);
            ok = cuts && cJSON_AddItemToObject(metrics, "start_shortest_cuts", cuts);
            if (ok && band[0] >= 0) {
                cJSON *c = cJSON_CreateIntArray(band, 2);
                ok = c && cJSON_AddItemToObject(metrics, "cut_band", c);
            }
        }
    }
    if (!ok) {
        cJSON_Delete(s);
        return NULL;
    }
    return s;
}

static cb_status oracle_json_render(const cb_game *game, const cb_theme *theme, char **json, cb_error *err)
{
    *json = NULL;
    cJSON *root = cJSON_CreateObject();
    cJSON *sheets = NULL;
    int ok = root && cJSON_AddStringToObject(root, "format", "cutboard/1") &&
             cJSON_AddStringToObject(root, "seed", game->seed) &&
             add_number(root, "players", game->players) &&
             cJSON_AddBoolToObject(root, "shared", game->shared) &&
             (!theme || cJSON_AddStringToObject(root, "theme", theme->name)) &&
             (sheets = cJSON_AddArrayToObject(root, "sheets"));
    /* The game's cut band: [c, c+1] from the least cut of its sheets when
     * every cut fits (as on generated boards), else the range they span. */
    sheet_cuts *sc = calloc(game->n_sheets ? game->n_sheets : 1, sizeof *sc);
    int band[2] = {-1, -1};
    for (size_t i = 0; ok && sc && i < game->n_sheets; i++) {
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
    ok = ok && sc;
    for (size_t i = 0; ok && i < game->n_sheets; i++) {
        cJSON *s = sheet_json(game->sheets[i], theme, &sc[i], band);
        ok = s && cJSON_AddItemToArray(sheets, s);
        if (s && !ok)
            cJSON_Delete(s);
    }
    for (size_t i = 0; sc && i < game->n_sheets; i++)
        free(sc[i].cuts);
    free(sc);
    char *text = ok ? cJSON_Print(root) : NULL;
    cJSON_Delete(root);
    if (!text)
        return cb_fail(err, CB_ERR_NOMEM, "out of memory writing the board file");
    /* cJSON's allocator is malloc, so the caller's free() matches. */
    *json = text;
    return CB_OK;
}
