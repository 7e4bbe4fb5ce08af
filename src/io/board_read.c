/* Reading boards back: a file is loaded whole (up to CB_BOARD_FILE_MAX),
 * told apart by its first character ('{' is a cutboard/1 board file, anything
 * else a Wavefront OBJ drawing, see obj_read.c) and parsed into a cb_game.
 * Every value is checked; a message names the file, the line where there is
 * one and the field at fault. */
#include <ctype.h>
#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include "board/decorate.h"
#include "io/board_read.h"
#include "io/input.h"
#include "io/jsonparse.h"

/* ---- the JSON board file ------------------------------------------------ */

typedef struct {
    const char *name;   /* the file, for messages */
    const cb_theme *theme;
    cb_error *err;
    char path[160];     /* the field being read, e.g. sheets[0].nodes[5] */
} reader;

static cb_status bad(reader *r, const char *field, const char *fmt, const char *what)
{
    char msg[256];
    snprintf(msg, sizeof msg, fmt, what);
    return cb_fail(r->err, CB_ERR_DATA, "%s: %s%s%s: %s", r->name, r->path,
                   *r->path && field && *field ? "." : "", field ? field : "", msg);
}

static const char *type_name(const cJSON *v)
{
    if (!v) return "missing";
    if (cJSON_IsNumber(v)) return "a number";
    if (cJSON_IsString(v)) return "a string";
    if (cJSON_IsBool(v)) return "a boolean";
    if (cJSON_IsNull(v)) return "null";
    if (cJSON_IsArray(v)) return "an array";
    return "an object";
}

static cb_status want(reader *r, const cJSON *obj, const char *key, int (*is)(const cJSON *),
                      const char *what, const cJSON **out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    *out = v;
    if (v && is(v))
        return CB_OK;
    char msg[96];
    snprintf(msg, sizeof msg, "%s, not %s", what, type_name(v));
    return bad(r, key, "%s", msg);
}

static int is_number(const cJSON *v) { return cJSON_IsNumber(v); }
static int is_string(const cJSON *v) { return cJSON_IsString(v) && v->valuestring; }
static int is_object(const cJSON *v) { return cJSON_IsObject(v); }
static int is_array(const cJSON *v) { return cJSON_IsArray(v); }

/* A finite number in [lo, hi]. */
static cb_status number(reader *r, const cJSON *obj, const char *key, double lo, double hi,
                        double *out)
{
    const cJSON *v;
    cb_status st = want(r, obj, key, is_number, "wants a number", &v);
    if (st != CB_OK)
        return st;
    double d = v->valuedouble;
    if (!isfinite(d) || d < lo || d > hi) {
        char msg[128];
        snprintf(msg, sizeof msg, "%g is out of range (%g..%g)", d, lo, hi);
        return bad(r, key, "%s", msg);
    }
    *out = d;
    return CB_OK;
}

/* A whole number in [lo, hi]. */
static cb_status integer(reader *r, const cJSON *obj, const char *key, double lo, double hi,
                         double *out)
{
    cb_status st = number(r, obj, key, lo, hi, out);
    if (st == CB_OK && *out != floor(*out)) {
        char msg[64];
        snprintf(msg, sizeof msg, "%g is not a whole number", *out);
        return bad(r, key, "%s", msg);
    }
    return st;
}

static int find_name(const char *name, const char *const *names, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(name, names[i]) == 0)
            return (int)i;
    return -1;
}

static const char *const kind_names[] = {"node", "start", "center"};
static const char *const side_names[] = {"top", "right", "bottom", "left"};

/* Node i's dots given as centres, [[x_mm, y_mm], ...], appended to
 * b->dot_xy (room made by the caller). */
static cb_status read_dots(reader *r, const cJSON *dots, cb_board *b, size_t i)
{
    int n = cJSON_GetArraySize(dots);
    if (n > CB_BOARD_MAX_DOTS) {
        char msg[96];
        snprintf(msg, sizeof msg, "%d positions is more than %d", n, CB_BOARD_MAX_DOTS);
        return bad(r, "dots", "%s", msg);
    }
    cb_node *v = &b->nodes[i];
    v->dots = n;
    v->first_dot = (uint32_t)b->n_dot_xy;
    int k = 0;
    for (const cJSON *p = dots->child; p; p = p->next, k++) {
        const cJSON *x = cJSON_GetArrayItem(p, 0), *y = cJSON_GetArrayItem(p, 1);
        if (!cJSON_IsArray(p) || cJSON_GetArraySize(p) != 2 || !cJSON_IsNumber(x) ||
            !cJSON_IsNumber(y) || !isfinite(x->valuedouble) || !isfinite(y->valuedouble) ||
            x->valuedouble < 0 || x->valuedouble > b->page_w || y->valuedouble < 0 ||
            y->valuedouble > b->page_h) {
            char msg[128];
            snprintf(msg, sizeof msg, "position %d wants [x_mm, y_mm] on the page (%gx%g mm)", k,
                     b->page_w, b->page_h);
            return bad(r, "dots", "%s", msg);
        }
        b->dot_xy[b->n_dot_xy][0] = x->valuedouble;
        b->dot_xy[b->n_dot_xy][1] = y->valuedouble;
        b->n_dot_xy++;
    }
    return CB_OK;
}

/* How many dot positions the nodes give, and how many nodes give them. */
static size_t count_dot_positions(const cJSON *nodes, size_t *with)
{
    size_t total = 0;
    *with = 0;
    for (const cJSON *o = nodes->child; o; o = o->next) {
        const cJSON *dots = cJSON_GetObjectItemCaseSensitive(o, "dots");
        if (cJSON_IsArray(dots)) {
            int k = cJSON_GetArraySize(dots);
            total += k < CB_BOARD_MAX_DOTS ? (size_t)k : CB_BOARD_MAX_DOTS;
            (*with)++;
        }
    }
    return total;
}

static cb_status read_node(reader *r, const cJSON *o, cb_board *b, size_t i)
{
    cb_node *v = &b->nodes[i];
    double d;
    const cJSON *s;
    cb_status st;
    if (!cJSON_IsObject(o))
        return bad(r, NULL, "%s", "wants an object");
    if ((st = integer(r, o, "id", 0, 4294967295.0, &d)) != CB_OK)
        return st;
    if (d != (double)i) {
        char msg[128];
        snprintf(msg, sizeof msg, "%.0f where %zu belongs (ids run 0..n-1 in order)", d, i);
        return bad(r, "id", "%s", msg);
    }
    if ((st = number(r, o, "x_mm", 0, b->page_w, &v->x)) != CB_OK ||
        (st = number(r, o, "y_mm", 0, b->page_h, &v->y)) != CB_OK)
        return st;
    if ((st = want(r, o, "kind", is_string, "wants a string", &s)) != CB_OK)
        return st;
    int kind = find_name(s->valuestring, kind_names, 3);
    if (kind < 0)
        return bad(r, "kind", "\"%s\" is not node, start or center", s->valuestring);
    v->kind = (cb_kind)kind;
    v->side = CB_SIDE_NONE;
    v->type = v->mission = -1;
    const cJSON *side = cJSON_GetObjectItemCaseSensitive(o, "side");
    if (v->kind == CB_KIND_START) {
        if ((st = want(r, o, "side", is_string, "wants a string", &side)) != CB_OK)
            return st;
        int k = find_name(side->valuestring, side_names, 4);
        if (k < 0)
            return bad(r, "side", "\"%s\" is not top, right, bottom or left", side->valuestring);
        v->side = (cb_side)k;
    } else if (side) {
        return bad(r, "side", "%s", "is only for starts");
    }
    const cJSON *mission = cJSON_GetObjectItemCaseSensitive(o, "mission");
    if (mission) {
        if (v->kind != CB_KIND_START)
            return bad(r, "mission", "%s", "is only for starts");
        if ((st = want(r, o, "mission", is_string, "wants a string", &mission)) != CB_OK)
            return st;
        if (r->theme) {
            v->mission = cb_theme_mission_index(r->theme, mission->valuestring);
            if (v->mission < 0) {
                char msg[256];
                snprintf(msg, sizeof msg, "\"%.80s\" is not a mission of theme \"%.80s\"",
                         mission->valuestring, r->theme->name);
                return bad(r, "mission", "%s", msg);
            }
        }
    }
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(o, "type");
    if (type) {
        if ((st = want(r, o, "type", is_string, "wants a string", &type)) != CB_OK)
            return st;
        const char *t = type->valuestring;
        const char *fixed = v->kind == CB_KIND_START ? "start"
                            : v->kind == CB_KIND_CENTER ? "center" : NULL;
        if (fixed && strcmp(t, fixed) != 0) {
            char msg[160];
            snprintf(msg, sizeof msg, "\"%.80s\" on a %s (its type is \"%s\")", t, fixed, fixed);
            return bad(r, "type", "%s", msg);
        }
        if (!fixed && strcmp(t, "node") != 0 && r->theme) {
            v->type = cb_theme_type_index(r->theme, t);
            if (v->type < 0) {
                char msg[256];
                snprintf(msg, sizeof msg, "\"%.80s\" is not a node type of theme \"%.80s\"", t,
                         r->theme->name);
                return bad(r, "type", "%s", msg);
            }
        }
    }
    if (cJSON_GetObjectItemCaseSensitive(o, "number")) {
        if ((st = integer(r, o, "number", 1, CB_BOARD_MAX_NUMBER, &d)) != CB_OK)
            return st;
        v->number = (int)d;
    }
    const cJSON *dots = cJSON_GetObjectItemCaseSensitive(o, "dots");
    if (cJSON_IsArray(dots))
        return read_dots(r, dots, b, i);
    if (dots) {
        if ((st = integer(r, o, "dots", 0, CB_BOARD_MAX_DOTS, &d)) != CB_OK)
            return st;
        v->dots = (int)d;
    }
    return CB_OK;
}

static int cmp_u32(const void *x, const void *y)
{
    const cb_edge *a = x, *c = y;
    if (a->a != c->a)
        return a->a < c->a ? -1 : 1;
    return (a->b > c->b) - (a->b < c->b);
}

static cb_status read_edges(reader *r, const cJSON *edges, cb_board *b)
{
    size_t m = (size_t)cJSON_GetArraySize(edges), e = 0;
    b->edges = malloc((m ? m : 1) * sizeof *b->edges);
    if (!b->edges)
        return cb_fail(r->err, CB_ERR_NOMEM, "out of memory reading %s", r->name);
    size_t len = strlen(r->path);
    for (const cJSON *pair = edges->child; pair; pair = pair->next, e++) {
        snprintf(r->path + len, sizeof r->path - len, ".edges[%zu]", e);
        uint32_t ends[2];
        if (!cJSON_IsArray(pair) || cJSON_GetArraySize(pair) != 2)
            return bad(r, NULL, "%s", "wants a pair of node ids [a, b]");
        for (int k = 0; k < 2; k++) {
            const cJSON *id = cJSON_GetArrayItem(pair, k);
            double d = cJSON_IsNumber(id) ? id->valuedouble : NAN;
            if (!(d >= 0 && d == floor(d)))
                return bad(r, NULL, "%s", "wants a pair of node ids [a, b]");
            if (d >= (double)b->n_nodes) {
                char msg[128];
                snprintf(msg, sizeof msg, "node %.0f does not exist (%zu nodes)", d, b->n_nodes);
                return bad(r, NULL, "%s", msg);
            }
            ends[k] = (uint32_t)d;
        }
        if (ends[0] == ends[1]) {
            char msg[64];
            snprintf(msg, sizeof msg, "joins node %u to itself", ends[0]);
            return bad(r, NULL, "%s", msg);
        }
        b->edges[e].a = ends[0] < ends[1] ? ends[0] : ends[1];
        b->edges[e].b = ends[0] < ends[1] ? ends[1] : ends[0];
    }
    b->n_edges = m;
    r->path[len] = '\0';
    /* Duplicates, found on a sorted copy so the file's order is kept. */
    cb_edge *sorted = malloc((m ? m : 1) * sizeof *sorted);
    if (!sorted)
        return cb_fail(r->err, CB_ERR_NOMEM, "out of memory reading %s", r->name);
    memcpy(sorted, b->edges, m * sizeof *sorted);
    if (m)
        qsort(sorted, m, sizeof *sorted, cmp_u32);
    for (size_t k = 1; k < m; k++)
        if (sorted[k].a == sorted[k - 1].a && sorted[k].b == sorted[k - 1].b) {
            char msg[96];
            snprintf(msg, sizeof msg, "edge %u-%u is listed twice", sorted[k].a, sorted[k].b);
            free(sorted);
            return bad(r, "edges", "%s", msg);
        }
    free(sorted);
    return CB_OK;
}

static cb_status read_sheet(reader *r, const cJSON *s, cb_board *b)
{
    const cJSON *page, *board, *nodes, *edges, *seed;
    double d;
    cb_status st;
    if (!cJSON_IsObject(s))
        return bad(r, NULL, "%s", "wants an object");
    if ((st = want(r, s, "seed", is_string, "wants a string", &seed)) != CB_OK)
        return st;
    if (!(b->seed = strdup(seed->valuestring)))
        return cb_fail(r->err, CB_ERR_NOMEM, "out of memory reading %s", r->name);
    if ((st = integer(r, s, "player", 0, 9, &d)) != CB_OK)
        return st;
    b->player = (int)d;
    size_t len = strlen(r->path);
    if ((st = want(r, s, "page", is_object, "wants an object", &page)) != CB_OK)
        return st;
    snprintf(r->path + len, sizeof r->path - len, ".page");
    if ((st = number(r, page, "width_mm", 1, CB_BOARD_MAX_MM, &b->page_w)) != CB_OK ||
        (st = number(r, page, "height_mm", 1, CB_BOARD_MAX_MM, &b->page_h)) != CB_OK)
        return st;
    r->path[len] = '\0';
    if ((st = want(r, s, "board", is_object, "wants an object", &board)) != CB_OK)
        return st;
    snprintf(r->path + len, sizeof r->path - len, ".board");
    if ((st = number(r, board, "x_mm", 0, b->page_w, &b->board_x)) != CB_OK ||
        (st = number(r, board, "y_mm", 0, b->page_h, &b->board_y)) != CB_OK ||
        (st = number(r, board, "width_mm", 1, b->page_w - b->board_x, &b->board_w)) != CB_OK ||
        (st = number(r, board, "height_mm", 1, b->page_h - b->board_y, &b->board_h)) != CB_OK)
        return st;
    r->path[len] = '\0';
    if ((st = number(r, s, "node_radius_mm", 0.1, 100, &b->node_radius)) != CB_OK)
        return st;
    if ((st = want(r, s, "nodes", is_array, "wants an array", &nodes)) != CB_OK ||
        (st = want(r, s, "edges", is_array, "wants an array", &edges)) != CB_OK)
        return st;
    size_t n = (size_t)cJSON_GetArraySize(nodes), i = 0;
    if (n == 0)
        return bad(r, "nodes", "%s", "is empty");
    if (n > CB_BOARD_MAX_NODES) {
        char msg[96];
        snprintf(msg, sizeof msg, "%zu nodes is more than %d", n, CB_BOARD_MAX_NODES);
        return bad(r, "nodes", "%s", msg);
    }
    if ((st = integer(r, s, "center", 0, (double)n - 1, &d)) != CB_OK)
        return st;
    b->center = (uint32_t)d;
    if (!(b->nodes = calloc(n, sizeof *b->nodes)))
        return cb_fail(r->err, CB_ERR_NOMEM, "out of memory reading %s", r->name);
    b->n_nodes = n;
    /* Dots come as positions on every node or on none (then they are
     * placed as the generator would). */
    size_t with = 0, positions = count_dot_positions(nodes, &with);
    if (with && with != n) {
        char msg[128];
        snprintf(msg, sizeof msg, "positions on %zu of %zu nodes; give them on every node or "
                 "on none", with, n);
        return bad(r, "nodes", "dots: %s", msg);
    }
    if (with && !(b->dot_xy = malloc((positions ? positions : 1) * sizeof *b->dot_xy)))
        return cb_fail(r->err, CB_ERR_NOMEM, "out of memory reading %s", r->name);
    for (const cJSON *o = nodes->child; o; o = o->next, i++) {
        snprintf(r->path + len, sizeof r->path - len, ".nodes[%zu]", i);
        if ((st = read_node(r, o, b, i)) != CB_OK)
            return st;
        int is_center = b->nodes[i].kind == CB_KIND_CENTER;
        if (is_center != (i == b->center)) {
            char msg[96];
            snprintf(msg, sizeof msg, "\"%s\", but \"center\" says node %u is the centre",
                     kind_names[b->nodes[i].kind], b->center);
            return bad(r, "kind", "%s", msg);
        }
    }
    r->path[len] = '\0';
    if ((st = read_edges(r, edges, b)) != CB_OK)
        return st;
    b->attempts = 1;
    if (cJSON_GetObjectItemCaseSensitive(s, "attempts")) {
        if ((st = integer(r, s, "attempts", 0, 1e9, &d)) != CB_OK)
            return st;
        b->attempts = (int)d;
    }
    size_t sheet = 0;
    if (sscanf(r->path, "sheets[%zu]", &sheet) != 1)
        sheet = 0;
    if ((st = cb_board_limits_check(b, r->name, sheet, r->err)) != CB_OK)
        return st;
    /* counts only: the dots go where the generator would put them */
    return b->dot_xy ? CB_OK : cb_board_place_dots(b, r->err);
}

cb_status cb_game_parse_json_tree(const char *text, size_t len, const char *name,
                                  const cb_theme *theme, cb_game **out, cb_error *err)
{
    cb_status st = cb_text_check(text, len, name, err);
    if (st != CB_OK)
        return st;
    const char *end = NULL;
    int oom;
    cJSON *root = cb_json_parse(text, len, &end, &oom);
    if (!root && oom)
        return cb_fail(err, CB_ERR_NOMEM, "%s: out of memory reading it", name);
    if (!root) {
        size_t at = end && end >= text ? (size_t)(end - text) : len;
        char near[24];
        size_t k = 0;
        for (; k < 20 && at + k < len && text[at + k] != '\n' && text[at + k] != '\r'; k++)
            near[k] = text[at + k];
        near[k] = '\0';
        /* A whole document before AT: what follows is a second one, or
         * garbage. */
        int oom2 = 0;
        const char *end2 = NULL;
        cJSON *prefix = at < len ? cb_json_parse(text, at, &end2, &oom2) : NULL;
        cJSON_Delete(prefix);
        if (prefix)
            return cb_fail_line(err, CB_ERR_DATA, (long)cb_text_line(text, len, at),
                                "%s:%zu: text after the end of the board file "
                                "(at \"%s\"): one JSON document a file", name,
                           cb_text_line(text, len, at), near);
        /* cJSON points at the last byte when the text stops mid-value. */
        if (at + 1 >= len)
            return cb_fail_line(err, CB_ERR_DATA, (long)cb_text_line(text, len, at),
                                "%s:%zu: not valid JSON (it ends too soon)", name,
                           cb_text_line(text, len, at));
        return cb_fail_line(err, CB_ERR_DATA, (long)cb_text_line(text, len, at),
                            "%s:%zu: not valid JSON (at \"%s\")", name,
                       cb_text_line(text, len, at), near);
    }
    size_t first = 0, dup = cb_json_duplicate_key(text, len, &first, &oom);
    if (oom || dup != SIZE_MAX) {
        cJSON_Delete(root);
        if (oom)
            return cb_fail(err, CB_ERR_NOMEM, "%s: out of memory reading it", name);
        size_t klen = 1;
        while (dup + klen < len && text[dup + klen] != '"')
            klen += text[dup + klen] == '\\' ? 2 : 1;
        return cb_fail_line(err, CB_ERR_DATA, (long)cb_text_line(text, len, dup),
                            "%s:%zu: key %.*s given twice in one object (first "
                       "on line %zu)", name, cb_text_line(text, len, dup),
                       (int)(klen + 1 < 64 ? klen + 1 : 64), text + dup,
                       cb_text_line(text, len, first));
    }
    reader r = {name, theme, err, ""};
    cb_game *g = calloc(1, sizeof *g);
    const cJSON *format, *seed, *sheets;
    double d;
    if (!g) {
        st = cb_fail(err, CB_ERR_NOMEM, "out of memory reading %s", name);
        goto done;
    }
    if (!cJSON_IsObject(root)) {
        st = cb_fail(err, CB_ERR_DATA, "%s: not a board file (the top level is %s, not an "
                     "object)", name, type_name(root));
        goto done;
    }
    if ((st = want(&r, root, "format", is_string, "wants a string", &format)) != CB_OK)
        goto done;
    if (strcmp(format->valuestring, "cutboard/1") != 0) {
        st = bad(&r, "format", "\"%.60s\" is not \"cutboard/1\"", format->valuestring);
        goto done;
    }
    if ((st = want(&r, root, "seed", is_string, "wants a string", &seed)) != CB_OK ||
        (st = integer(&r, root, "players", 2, 9, &d)) != CB_OK)
        goto done;
    g->players = (int)d;
    const cJSON *shared = cJSON_GetObjectItemCaseSensitive(root, "shared");
    if (shared && !cJSON_IsBool(shared)) {
        st = bad(&r, "shared", "wants true or false, not %s", type_name(shared));
        goto done;
    }
    g->shared = cJSON_IsTrue(shared);
    if (!(g->seed = strdup(seed->valuestring))) {
        st = cb_fail(err, CB_ERR_NOMEM, "out of memory reading %s", name);
        goto done;
    }
    if ((st = want(&r, root, "sheets", is_array, "wants an array", &sheets)) != CB_OK)
        goto done;
    size_t n = (size_t)cJSON_GetArraySize(sheets);
    if (n == 0 || n > 9) {
        st = bad(&r, "sheets", "%s", n ? "has more than 9 sheets" : "is empty");
        goto done;
    }
    if (!(g->sheets = calloc(n, sizeof *g->sheets))) {
        st = cb_fail(err, CB_ERR_NOMEM, "out of memory reading %s", name);
        goto done;
    }
    size_t i = 0;
    for (const cJSON *s = sheets->child; s; s = s->next, i++) {
        snprintf(r.path, sizeof r.path, "sheets[%zu]", i);
        if (!(g->sheets[i] = calloc(1, sizeof **g->sheets))) {
            st = cb_fail(err, CB_ERR_NOMEM, "out of memory reading %s", name);
            goto done;
        }
        g->n_sheets++;
        if ((st = read_sheet(&r, s, g->sheets[i])) != CB_OK)
            goto done;
    }
done:
    cJSON_Delete(root);
    if (st != CB_OK) {
        cb_game_free(g);
        return st;
    }
    *out = g;
    return CB_OK;
}

/* Good files take the fast reader (board_stream.c); whatever it declines,
 * the precise one reads and names the fault. */
cb_status cb_game_parse_json(const char *text, size_t len, const char *name,
                             const cb_theme *theme, cb_game **out, cb_error *err)
{
    *out = NULL;
    if (!name)
        name = "board file";
    cb_status st = cb_board_stream_read(NULL, text, len, name, theme, out, err);
    if (st != CB_OK || *out)
        return st;
    return cb_game_parse_json_tree(text, len, name, theme, out, err);
}

/* ---- limits --------------------------------------------------------------- */

static cb_status density_check(const cb_game *g, const char *name, cb_error *err)
{
    cb_status st = CB_OK;
    for (size_t k = 0; st == CB_OK && k < g->n_sheets; k++)
        st = cb_board_limits_check(g->sheets[k], name, k, err);
    return st;
}

/* The limits on GAME (*OUT), which is freed and cleared when over one. */
static cb_status within_limits(cb_status st, cb_game **out, const char *name, cb_error *err)
{
    if (st != CB_OK || !*out)
        return st;
    st = density_check(*out, name ? name : "board file", err);
    if (st != CB_OK) {
        cb_game_free(*out);
        *out = NULL;
    }
    return st;
}

/* ---- files --------------------------------------------------------------- */

cb_status cb_game_parse(const char *text, size_t len, const char *name, const cb_theme *theme,
                        cb_game **out, cb_error *err)
{
    if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0)
        return cb_fail(err, CB_ERR_DATA, "%s:1: a UTF-8 byte order mark before the JSON: save "
                       "the board file without it", name ? name : "board file");
    if (len >= 2 && (memcmp(text, "\xFF\xFE", 2) == 0 || memcmp(text, "\xFE\xFF", 2) == 0))
        return cb_fail(err, CB_ERR_DATA, "%s:1: UTF-16 text (a byte order mark): save the "
                       "board file as UTF-8", name ? name : "board file");
    size_t i = 0;
    while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' || text[i] == '\n'))
        i++;
    /* JSON by what it starts with: any JSON value (a board file's top level
     * must be an object, and the JSON reader says so); an OBJ drawing
     * starts with a statement or a comment, never with these. */
    static const char *const words[] = {"null", "true", "false"};
    int json = i < len && strchr("{[\"-0123456789", text[i]);
    for (size_t w = 0; w < 3 && !json; w++) {
        size_t n = strlen(words[w]);
        json = len - i >= n && memcmp(text + i, words[w], n) == 0 &&
               (len - i == n || !isalnum((unsigned char)text[i + n]));
    }
    if (json)
        return within_limits(cb_game_parse_json(text, len, name, theme, out, err), out, name,
                             err);
    return within_limits(cb_game_parse_obj(text, len, name, theme, out, err), out, name, err);
}

/* The whole stream in memory, parsed by cb_game_parse. */
static cb_status read_whole(FILE *f, const char *name, const cb_theme *theme, cb_game **out,
                            cb_error *err)
{
    size_t cap = 1 << 16, len = 0, got;
    char *buf = malloc(cap);
    while (buf && (got = fread(buf + len, 1, cap - len, f)) > 0) {
        len += got;
        if (len > CB_BOARD_FILE_MAX)
            break;
        if (len == cap) {
            char *bigger = realloc(buf, cap * 2);
            if (!bigger) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = bigger;
            cap *= 2;
        }
    }
    if (!buf)
        return cb_fail(err, CB_ERR_NOMEM, "out of memory reading %s", name);
    if (ferror(f)) {
        free(buf);
        return cb_fail(err, CB_ERR_NOINPUT, "%s: read error", name);
    }
    if (len > CB_BOARD_FILE_MAX) {
        free(buf);
        return cb_fail(err, CB_ERR_DATA, "%s: too large (more than %zu MiB)", name,
                       (size_t)(CB_BOARD_FILE_MAX >> 20));
    }
    cb_status st = cb_game_parse(buf, len, name, theme, out, err);
    free(buf);
    return st;
}

cb_status cb_game_read(FILE *f, const char *name, const cb_theme *theme, cb_game **out,
                       cb_error *err)
{
    *out = NULL;
    /* A file that can be read again is first read in a window by the fast
     * reader, so a large board file is never held whole; a pipe is read
     * whole (either reader may need it). */
    off_t start = ftello(f);
    if (start < 0 || fseeko(f, start, SEEK_SET) != 0)
        return read_whole(f, name, theme, out, err);
    cb_status st = cb_board_stream_read(f, NULL, 0, name, theme, out, err);
    if (st != CB_OK || *out)
        return within_limits(st, out, name, err);
    clearerr(f);
    if (fseeko(f, start, SEEK_SET) != 0)
        return cb_fail(err, CB_ERR_NOINPUT, "%s: read error", name);
    return read_whole(f, name, theme, out, err);
}

cb_status cb_game_load(const char *path, const cb_theme *theme, cb_game **out, cb_error *err)
{
    *out = NULL;
    FILE *f;
    off_t size;
    cb_status opened = cb_input_open("", path, &f, &size, err);
    if (opened != CB_OK)
        return opened;
    /* A file known to be too large is refused before anything is read. */
    cb_status st = (uintmax_t)size > CB_BOARD_FILE_MAX
                       ? cb_fail(err, CB_ERR_DATA, "%s: too large (more than %zu MiB)", path,
                                 (size_t)(CB_BOARD_FILE_MAX >> 20))
                       : cb_game_read(f, path, theme, out, err);
    fclose(f);
    return st;
}
