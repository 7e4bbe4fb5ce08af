/* The board file (format cutboard/1, doc/cutboard-board.5.scd), written as
 * it is made (jsonwrite.h): the same bytes cJSON_Print gave when the file
 * was built as one cJSON tree, with no tree and no whole copy of the text,
 * so a poster's million nodes cost a 64 KiB buffer. */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "base/error.h"
#include "base/graph.h"
#include "io/board_read.h"
#include "io/jsonwrite.h"


/* Millimetres to 0.01 mm: stable text, and far finer than any printer. */
static double mm(double v)
{
    return round(v * 100) / 100;
}

/* Members under a literal key (see CB_JW_KEY). */
#define member_number(w, key, v) member_number_at((w), "" key, sizeof(key) - 1, (v))
#define member_string(w, key, s) member_string_at((w), "" key, sizeof(key) - 1, (s))
#define member_ints(w, key, v, n) member_ints_at((w), "" key, sizeof(key) - 1, (v), (n))

static void member_number_at(cb_jw *w, const char *key, size_t len, double v)
{
    cb_jw_key_plain(w, key, len);
    cb_jw_number(w, v);
}

static void member_string_at(cb_jw *w, const char *key, size_t len, const char *s)
{
    cb_jw_key_plain(w, key, len);
    cb_jw_string(w, s);
}

static void member_ints_at(cb_jw *w, const char *key, size_t len, const int *v, size_t n)
{
    cb_jw_key_plain(w, key, len);
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
    CB_JW_KEY(w, "dots");
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
    member_string(w, "kind", cb_board_kind_names[v->kind]);
    if (v->kind == CB_KIND_START && v->side >= 0)
        member_string(w, "side", cb_board_side_names[v->side]);
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

/* The part of cb_board_check's verdict the file carries: each start's hops
 * to the centre and edge-disjoint paths to it, found exactly as the check
 * finds them, without the check's geometry (crossings, faces, dots), which
 * is most of its time on a poster. 0, or -1 when out of memory (then, as
 * when the check failed, the file has no metrics). */
typedef struct {
    int starts;
    int hop_min, hop_max;
    int hops[CB_VERDICT_STARTS], disjoint[CB_VERDICT_STARTS];
} start_metrics;

static int measure_starts(const cb_board *b, start_metrics *m)
{
    cb_graph gr;
    cb_error err;
    if (cb_graph_build(&gr, b, &err) != CB_OK)
        return -1;
    size_t n = b->n_nodes;
    int *hops = malloc((n ? n : 1) * sizeof *hops);
    uint32_t *comp = malloc((n ? n : 1) * sizeof *comp);
    int failed = !hops || !comp || cb_graph_hops(&gr, b->center, hops) != 0 ||
                 cb_graph_bridge_components(&gr, comp) != 0;
    m->starts = 0;
    m->hop_min = INT32_MAX;
    m->hop_max = -1;
    for (uint32_t i = 0; !failed && i < n; i++) {
        if (b->nodes[i].kind != CB_KIND_START)
            continue;
        int deg = (int)cb_graph_degree(&gr, i), h = hops[i];
        /* As cb_board_check counts them: the bridges decide up to 2 edges,
         * a max-flow above. */
        int paths = deg > 2 ? cb_graph_edge_disjoint(&gr, i, b->center, deg)
                    : h < 0 ? 0
                    : comp[i] == comp[b->center] ? deg : (deg > 0);
        if (paths < 0) {
            failed = 1;
            break;
        }
        if (m->starts < CB_VERDICT_STARTS) {
            m->hops[m->starts] = h;
            m->disjoint[m->starts] = paths;
        }
        m->starts++;
        if (h >= 0 && h < m->hop_min)
            m->hop_min = h;
        if (h > m->hop_max)
            m->hop_max = h;
    }
    if (m->starts == 0)
        m->hop_min = m->hop_max = 0;
    free(hops);
    free(comp);
    cb_graph_free(&gr);
    return failed ? -1 : 0;
}

/* What every sheet's metrics need of the whole game: each sheet's starts'
 * shortest cuts (NULL when it has none) and the game's cut band. Measured
 * on a thread of its own while the nodes and edges are written (on a
 * poster the cuts take longer than the text); the sheet's metrics wait for
 * it. The bytes do not depend on it. */
typedef struct {
    const cb_game *game;
    int **cuts;
    size_t *n_cuts;
    int band[2];
    int ok;             /* every sheet's cuts were found */
    int running;        /* the thread is still to be joined */
    pthread_t thread;
} game_metrics;

static void *measure_game(void *arg)
{
    game_metrics *gm = arg;
    const cb_game *g = gm->game;
    int lo = -1, hi = -1;
    gm->ok = 1;
    for (size_t i = 0; gm->ok && i < g->n_sheets; i++) {
        cb_error e;
        if (cb_board_shortest_cuts(g->sheets[i], &gm->cuts[i], &gm->n_cuts[i], &e) != CB_OK) {
            gm->ok = 0;
            break;
        }
        /* The game's cut band: [c, c+1] from the least cut of its sheets
         * when every cut fits (as on generated boards), else the range
         * they span. */
        for (size_t k = 0; k < gm->n_cuts[i]; k++) {
            int c = gm->cuts[i][k];
            if (c >= 0 && (lo < 0 || c < lo))
                lo = c;
            hi = c > hi ? c : hi;
        }
    }
    if (lo >= 0 && hi < lo + 1)
        hi = lo + 1;
    gm->band[0] = lo;
    gm->band[1] = hi;
    return NULL;
}

static void wait_metrics(game_metrics *gm)
{
    if (gm->running)
        pthread_join(gm->thread, NULL);
    gm->running = 0;
}

/* Sheet I. Out of memory measuring its starts leaves its metrics out. */
static void sheet_json(cb_jw *w, game_metrics *gm, const cb_theme *theme, size_t i)
{
    const cb_board *b = gm->game->sheets[i];
    cb_jw_object_begin(w);
    member_string(w, "seed", b->seed);
    member_number(w, "player", b->player);
    CB_JW_KEY(w, "page");
    cb_jw_object_begin(w);
    member_number(w, "width_mm", mm(b->page_w));
    member_number(w, "height_mm", mm(b->page_h));
    cb_jw_object_end(w);
    CB_JW_KEY(w, "board");
    cb_jw_object_begin(w);
    member_number(w, "x_mm", mm(b->board_x));
    member_number(w, "y_mm", mm(b->board_y));
    member_number(w, "width_mm", mm(b->board_w));
    member_number(w, "height_mm", mm(b->board_h));
    cb_jw_object_end(w);
    member_number(w, "node_radius_mm", mm(b->node_radius));
    member_number(w, "center", b->center);
    CB_JW_KEY(w, "nodes");
    cb_jw_array_begin(w);
    for (size_t k = 0; k < b->n_nodes && !w->failed; k++)
        node_json(w, b, theme, k);
    cb_jw_array_end(w);
    CB_JW_KEY(w, "edges");
    cb_jw_array_begin(w);
    for (size_t e = 0; e < b->n_edges && !w->failed; e++) {
        cb_jw_array_begin(w);
        cb_jw_number(w, (int)b->edges[e].a);
        cb_jw_number(w, (int)b->edges[e].b);
        cb_jw_array_end(w);
    }
    cb_jw_array_end(w);
    member_number(w, "attempts", b->attempts);
    start_metrics m, *v = &m;
    int starts_ok = !w->failed && measure_starts(b, &m) == 0;
    wait_metrics(gm);
    if (!gm->ok) {
        w->failed = -1; /* not a write error: the cuts could not be measured */
        return;
    }
    if (!w->failed && starts_ok) {
        size_t n = (size_t)(v->starts < CB_VERDICT_STARTS ? v->starts : CB_VERDICT_STARTS);
        CB_JW_KEY(w, "metrics");
        cb_jw_object_begin(w);
        member_ints(w, "start_center_hops", v->hops, n);
        member_number(w, "hop_spread", v->hop_max - v->hop_min);
        member_ints(w, "start_disjoint_paths", v->disjoint, n);
        /* Each start's shortest cut (-1: no cut parts it from the centre)
         * and the band {c, c+1} every sheet of the game keeps them in. */
        if (gm->cuts[i] && gm->n_cuts[i] <= (size_t)INT32_MAX) {
            member_ints(w, "start_shortest_cuts", gm->cuts[i], gm->n_cuts[i]);
            if (gm->band[0] >= 0)
                member_ints(w, "cut_band", gm->band, 2);
        }
        cb_jw_object_end(w);
    }
    cb_jw_object_end(w);
}

cb_status cb_json_write(const cb_game *game, const cb_theme *theme, cb_write_fn write,
                        void *ctx, cb_error *err)
{
    size_t n = game->n_sheets ? game->n_sheets : 1;
    game_metrics gm = {.game = game};
    gm.cuts = calloc(n, sizeof *gm.cuts);
    gm.n_cuts = calloc(n, sizeof *gm.n_cuts);
    cb_jw *w = malloc(sizeof *w);
    int failed = 0;
    if (w && gm.cuts && gm.n_cuts) {
        /* No thread (none to be had): measured first, in this one. */
        gm.running = pthread_create(&gm.thread, NULL, measure_game, &gm) == 0;
        if (!gm.running)
            measure_game(&gm);
        cb_jw_init(w, write, ctx);
        cb_jw_object_begin(w);
        member_string(w, "format", "cutboard/1");
        member_string(w, "seed", game->seed);
        member_number(w, "players", game->players);
        CB_JW_KEY(w, "shared");
        cb_jw_bool(w, game->shared);
        if (theme)
            member_string(w, "theme", theme->name);
        CB_JW_KEY(w, "sheets");
        cb_jw_array_begin(w);
        for (size_t i = 0; i < game->n_sheets && !w->failed; i++)
            sheet_json(w, &gm, theme, i);
        cb_jw_array_end(w);
        cb_jw_object_end(w);
        wait_metrics(&gm); /* a game with no sheets, or a write that failed */
        failed = w->failed ? w->failed : cb_jw_flush(w);
    } else {
        gm.ok = 0;
    }
    for (size_t i = 0; gm.cuts && i < game->n_sheets; i++)
        free(gm.cuts[i]);
    free(gm.cuts);
    free(gm.n_cuts);
    free(w);
    if (!gm.ok || failed < 0)
        return cb_fail(err, CB_ERR_NOMEM, "out of memory writing the board file");
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
            return cb_fail(err, CB_ERR_NOMEM, "out of memory writing the board file");
        return st;
    }
    *json = t.text;
    return CB_OK;
}
