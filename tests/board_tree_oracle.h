/* The board file reader as it was before it streamed (src/io/board_read.c
 * and src/io/jsonparse.c at 3e1934e): the whole text as one cJSON tree,
 * every value checked in a fixed order, the first fault named. Kept as the
 * oracle the streaming reader (src/io/board_json.c) must match, verdict and
 * message. */
#ifndef BOARD_TREE_ORACLE_H
#define BOARD_TREE_ORACLE_H

#include <cjson/cJSON.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "board/decorate.h"
#include "io/board_read.h"
#include "io/jsonparse.h"

/* A key of an open object: its offset (the opening quote) and length. */
typedef struct {
    size_t at, len;
} key_at;

static const char *oracle_text; /* the text whose keys are sorted */

static int oracle_key_order(const void *a, const void *b)
{
    const char *text = oracle_text;
    const key_at *x = a, *y = b;
    size_t n = x->len < y->len ? x->len : y->len;
    int c = memcmp((const char *)text + x->at, (const char *)text + y->at, n);
    if (c || x->len != y->len)
        return c ? c : x->len < y->len ? -1 : 1;
    return x->at < y->at ? -1 : x->at > y->at;
}

static size_t oracle_duplicate_key(const char *text, size_t len, size_t *first, int *oom)
{
    /* KEYS holds the keys of every open object, innermost last; OPEN the
     * index where each open container's keys start (SIZE_MAX: an array). */
    key_at *keys = NULL;
    size_t *open = NULL, n_keys = 0, cap_keys = 0, depth = 0, cap_open = 0;
    size_t found = SIZE_MAX;
    int want_key = 0;
    *oom = 0;
    for (size_t i = 0; i < len && found == SIZE_MAX; i++) {
        char c = text[i];
        if (c == '{' || c == '[') {
            if (depth == cap_open) {
                size_t cap = cap_open ? 2 * cap_open : 16;
                size_t *more = realloc(open, cap * sizeof *more);
                if (!more)
                    goto oom;
                open = more, cap_open = cap;
            }
            open[depth++] = c == '{' ? n_keys : SIZE_MAX;
            want_key = c == '{';
        } else if (c == '}' || c == ']') {
            size_t start = depth ? open[--depth] : SIZE_MAX;
            if (start != SIZE_MAX && n_keys - start > 1) {
                key_at *k = keys + start;
                size_t n = n_keys - start;
                oracle_text = text;
                qsort(k, n, sizeof *k, oracle_key_order);
                for (size_t j = 1; j < n; j++)
                    if (k[j].len == k[j - 1].len &&
                        memcmp(text + k[j].at, text + k[j - 1].at, k[j].len) == 0 &&
                        k[j].at < found) {
                        found = k[j].at;
                        *first = k[j - 1].at; /* sorted by place among equals */
                        while (j + 1 < n && k[j + 1].len == k[j].len &&
                               memcmp(text + k[j + 1].at, text + k[j].at, k[j].len) == 0)
                            j++;
                    }
            }
            if (start != SIZE_MAX)
                n_keys = start;
            want_key = 0;
        } else if (c == ',') {
            want_key = depth && open[depth - 1] != SIZE_MAX;
        } else if (c == '"') {
            size_t at = i++;
            while (i < len && text[i] != '"')
                i += text[i] == '\\' ? 2 : 1;
            if (want_key) {
                if (n_keys == cap_keys) {
                    size_t cap = cap_keys ? 2 * cap_keys : 64;
                    key_at *more = realloc(keys, cap * sizeof *more);
                    if (!more)
                        goto oom;
                    keys = more, cap_keys = cap;
                }
                keys[n_keys++] = (key_at){at, i - at + 1};
                want_key = 0;
            }
        }
    }
    free(keys);
    free(open);
    return found;
oom:
    free(keys);
    free(open);
    *oom = 1;
    return SIZE_MAX;
}

typedef struct {
    const char *name;   /* the file, for messages */
    const cb_theme *theme;
    cb_error *err;
    char path[160];     /* the field being read, e.g. sheets[0].nodes[5] */
} t_reader;

static cb_status t_bad(t_reader *r, const char *field, const char *fmt, const char *what)
{
    char msg[256];
    snprintf(msg, sizeof msg, fmt, what);
    return cb_fail(r->err, CB_ERR_DATA, "%s: %s%s%s: %s", r->name, r->path,
                   *r->path && field && *field ? "." : "", field ? field : "", msg);
}

static const char *t_type_name(const cJSON *v)
{
    if (!v) return "missing";
    if (cJSON_IsNumber(v)) return "a number";
    if (cJSON_IsString(v)) return "a string";
    if (cJSON_IsBool(v)) return "a boolean";
    if (cJSON_IsNull(v)) return "null";
    if (cJSON_IsArray(v)) return "an array";
    return "an object";
}

static cb_status t_want(t_reader *r, const cJSON *obj, const char *key, int (*is)(const cJSON *),
                      const char *what, const cJSON **out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    *out = v;
    if (v && is(v))
        return CB_OK;
    char msg[96];
    snprintf(msg, sizeof msg, "%s, not %s", what, t_type_name(v));
    return t_bad(r, key, "%s", msg);
}

static int t_is_number(const cJSON *v) { return cJSON_IsNumber(v); }
static int t_is_string(const cJSON *v) { return cJSON_IsString(v) && v->valuestring; }
static int t_is_object(const cJSON *v) { return cJSON_IsObject(v); }
static int t_is_array(const cJSON *v) { return cJSON_IsArray(v); }

/* A finite t_number in [lo, hi]. */
static cb_status t_number(t_reader *r, const cJSON *obj, const char *key, double lo, double hi,
                        double *out)
{
    const cJSON *v;
    cb_status st = t_want(r, obj, key, t_is_number, "wants a number", &v);
    if (st != CB_OK)
        return st;
    double d = v->valuedouble;
    if (!isfinite(d) || d < lo || d > hi) {
        char msg[128];
        snprintf(msg, sizeof msg, "%g is out of range (%g..%g)", d, lo, hi);
        return t_bad(r, key, "%s", msg);
    }
    *out = d;
    return CB_OK;
}

/* A whole t_number in [lo, hi]. */
static cb_status t_integer(t_reader *r, const cJSON *obj, const char *key, double lo, double hi,
                         double *out)
{
    cb_status st = t_number(r, obj, key, lo, hi, out);
    if (st == CB_OK && *out != floor(*out)) {
        char msg[64];
        snprintf(msg, sizeof msg, "%g is not a whole number", *out);
        return t_bad(r, key, "%s", msg);
    }
    return st;
}

static int t_find_name(const char *name, const char *const *names, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(name, names[i]) == 0)
            return (int)i;
    return -1;
}

static const char *const t_kind_names[] = {"node", "start", "center"};
static const char *const t_side_names[] = {"top", "right", "bottom", "left"};

/* Node i's dots given as centres, [[x_mm, y_mm], ...], appended to
 * b->dot_xy (room made by the caller). */
static cb_status t_read_dots(t_reader *r, const cJSON *dots, cb_board *b, size_t i)
{
    int n = cJSON_GetArraySize(dots);
    if (n > CB_BOARD_MAX_DOTS) {
        char msg[96];
        snprintf(msg, sizeof msg, "%d positions is more than %d", n, CB_BOARD_MAX_DOTS);
        return t_bad(r, "dots", "%s", msg);
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
            return t_bad(r, "dots", "%s", msg);
        }
        b->dot_xy[b->n_dot_xy][0] = x->valuedouble;
        b->dot_xy[b->n_dot_xy][1] = y->valuedouble;
        b->n_dot_xy++;
    }
    return CB_OK;
}

/* How many dot positions the nodes give, and how many nodes give them. */
static size_t t_count_dot_positions(const cJSON *nodes, size_t *with)
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

static cb_status t_read_node(t_reader *r, const cJSON *o, cb_board *b, size_t i)
{
    cb_node *v = &b->nodes[i];
    double d;
    const cJSON *s;
    cb_status st;
    if (!cJSON_IsObject(o))
        return t_bad(r, NULL, "%s", "wants an object");
    if ((st = t_integer(r, o, "id", 0, 4294967295.0, &d)) != CB_OK)
        return st;
    if (d != (double)i) {
        char msg[128];
        snprintf(msg, sizeof msg, "%.0f where %zu belongs (ids run 0..n-1 in order)", d, i);
        return t_bad(r, "id", "%s", msg);
    }
    if ((st = t_number(r, o, "x_mm", 0, b->page_w, &v->x)) != CB_OK ||
        (st = t_number(r, o, "y_mm", 0, b->page_h, &v->y)) != CB_OK)
        return st;
    if ((st = t_want(r, o, "kind", t_is_string, "wants a string", &s)) != CB_OK)
        return st;
    int kind = t_find_name(s->valuestring, t_kind_names, 3);
    if (kind < 0)
        return t_bad(r, "kind", "\"%s\" is not node, start or center", s->valuestring);
    v->kind = (cb_kind)kind;
    v->side = CB_SIDE_NONE;
    v->type = v->mission = -1;
    const cJSON *side = cJSON_GetObjectItemCaseSensitive(o, "side");
    if (v->kind == CB_KIND_START) {
        if ((st = t_want(r, o, "side", t_is_string, "wants a string", &side)) != CB_OK)
            return st;
        int k = t_find_name(side->valuestring, t_side_names, 4);
        if (k < 0)
            return t_bad(r, "side", "\"%s\" is not top, right, bottom or left", side->valuestring);
        v->side = (cb_side)k;
    } else if (side) {
        return t_bad(r, "side", "%s", "is only for starts");
    }
    const cJSON *mission = cJSON_GetObjectItemCaseSensitive(o, "mission");
    if (mission) {
        if (v->kind != CB_KIND_START)
            return t_bad(r, "mission", "%s", "is only for starts");
        if ((st = t_want(r, o, "mission", t_is_string, "wants a string", &mission)) != CB_OK)
            return st;
        if (r->theme) {
            v->mission = cb_theme_mission_index(r->theme, mission->valuestring);
            if (v->mission < 0) {
                char msg[256];
                snprintf(msg, sizeof msg, "\"%.80s\" is not a mission of theme \"%.80s\"",
                         mission->valuestring, r->theme->name);
                return t_bad(r, "mission", "%s", msg);
            }
        }
    }
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(o, "type");
    if (type) {
        if ((st = t_want(r, o, "type", t_is_string, "wants a string", &type)) != CB_OK)
            return st;
        const char *t = type->valuestring;
        const char *fixed = v->kind == CB_KIND_START ? "start"
                            : v->kind == CB_KIND_CENTER ? "center" : NULL;
        if (fixed && strcmp(t, fixed) != 0) {
            char msg[160];
            snprintf(msg, sizeof msg, "\"%.80s\" on a %s (its type is \"%s\")", t, fixed, fixed);
            return t_bad(r, "type", "%s", msg);
        }
        if (!fixed && strcmp(t, "node") != 0 && r->theme) {
            v->type = cb_theme_type_index(r->theme, t);
            if (v->type < 0) {
                char msg[256];
                snprintf(msg, sizeof msg, "\"%.80s\" is not a node type of theme \"%.80s\"", t,
                         r->theme->name);
                return t_bad(r, "type", "%s", msg);
            }
        }
    }
    if (cJSON_GetObjectItemCaseSensitive(o, "number")) {
        if ((st = t_integer(r, o, "number", 1, CB_BOARD_MAX_NUMBER, &d)) != CB_OK)
            return st;
        v->number = (int)d;
    }
    const cJSON *dots = cJSON_GetObjectItemCaseSensitive(o, "dots");
    if (cJSON_IsArray(dots))
        return t_read_dots(r, dots, b, i);
    if (dots) {
        if ((st = t_integer(r, o, "dots", 0, CB_BOARD_MAX_DOTS, &d)) != CB_OK)
            return st;
        v->dots = (int)d;
    }
    return CB_OK;
}

static int t_cmp_u32(const void *x, const void *y)
{
    const cb_edge *a = x, *c = y;
    if (a->a != c->a)
        return a->a < c->a ? -1 : 1;
    return (a->b > c->b) - (a->b < c->b);
}

static cb_status t_read_edges(t_reader *r, const cJSON *edges, cb_board *b)
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
            return t_bad(r, NULL, "%s", "wants a pair of node ids [a, b]");
        for (int k = 0; k < 2; k++) {
            const cJSON *id = cJSON_GetArrayItem(pair, k);
            double d = cJSON_IsNumber(id) ? id->valuedouble : NAN;
            if (!(d >= 0 && d == floor(d)))
                return t_bad(r, NULL, "%s", "wants a pair of node ids [a, b]");
            if (d >= (double)b->n_nodes) {
                char msg[128];
                snprintf(msg, sizeof msg, "node %.0f does not exist (%zu nodes)", d, b->n_nodes);
                return t_bad(r, NULL, "%s", msg);
            }
            ends[k] = (uint32_t)d;
        }
        if (ends[0] == ends[1]) {
            char msg[64];
            snprintf(msg, sizeof msg, "joins node %u to itself", ends[0]);
            return t_bad(r, NULL, "%s", msg);
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
        qsort(sorted, m, sizeof *sorted, t_cmp_u32);
    for (size_t k = 1; k < m; k++)
        if (sorted[k].a == sorted[k - 1].a && sorted[k].b == sorted[k - 1].b) {
            char msg[96];
            snprintf(msg, sizeof msg, "edge %u-%u is listed twice", sorted[k].a, sorted[k].b);
            free(sorted);
            return t_bad(r, "edges", "%s", msg);
        }
    free(sorted);
    return CB_OK;
}

static cb_status t_read_sheet(t_reader *r, const cJSON *s, cb_board *b)
{
    const cJSON *page, *board, *nodes, *edges, *seed;
    double d;
    cb_status st;
    if (!cJSON_IsObject(s))
        return t_bad(r, NULL, "%s", "wants an object");
    if ((st = t_want(r, s, "seed", t_is_string, "wants a string", &seed)) != CB_OK)
        return st;
    if (!(b->seed = strdup(seed->valuestring)))
        return cb_fail(r->err, CB_ERR_NOMEM, "out of memory reading %s", r->name);
    if ((st = t_integer(r, s, "player", 0, 9, &d)) != CB_OK)
        return st;
    b->player = (int)d;
    size_t len = strlen(r->path);
    if ((st = t_want(r, s, "page", t_is_object, "wants an object", &page)) != CB_OK)
        return st;
    snprintf(r->path + len, sizeof r->path - len, ".page");
    if ((st = t_number(r, page, "width_mm", 1, CB_BOARD_MAX_MM, &b->page_w)) != CB_OK ||
        (st = t_number(r, page, "height_mm", 1, CB_BOARD_MAX_MM, &b->page_h)) != CB_OK)
        return st;
    r->path[len] = '\0';
    if ((st = t_want(r, s, "board", t_is_object, "wants an object", &board)) != CB_OK)
        return st;
    snprintf(r->path + len, sizeof r->path - len, ".board");
    if ((st = t_number(r, board, "x_mm", 0, b->page_w, &b->board_x)) != CB_OK ||
        (st = t_number(r, board, "y_mm", 0, b->page_h, &b->board_y)) != CB_OK ||
        (st = t_number(r, board, "width_mm", 1, b->page_w - b->board_x, &b->board_w)) != CB_OK ||
        (st = t_number(r, board, "height_mm", 1, b->page_h - b->board_y, &b->board_h)) != CB_OK)
        return st;
    r->path[len] = '\0';
    if ((st = t_number(r, s, "node_radius_mm", 0.1, 100, &b->node_radius)) != CB_OK)
        return st;
    if ((st = t_want(r, s, "nodes", t_is_array, "wants an array", &nodes)) != CB_OK ||
        (st = t_want(r, s, "edges", t_is_array, "wants an array", &edges)) != CB_OK)
        return st;
    size_t n = (size_t)cJSON_GetArraySize(nodes), i = 0;
    if (n == 0)
        return t_bad(r, "nodes", "%s", "is empty");
    if (n > CB_BOARD_MAX_NODES) {
        char msg[96];
        snprintf(msg, sizeof msg, "%zu nodes is more than %d", n, CB_BOARD_MAX_NODES);
        return t_bad(r, "nodes", "%s", msg);
    }
    if ((st = t_integer(r, s, "center", 0, (double)n - 1, &d)) != CB_OK)
        return st;
    b->center = (uint32_t)d;
    if (!(b->nodes = calloc(n, sizeof *b->nodes)))
        return cb_fail(r->err, CB_ERR_NOMEM, "out of memory reading %s", r->name);
    b->n_nodes = n;
    /* Dots come as positions on every node or on none (then they are
     * placed as the generator would). */
    size_t with = 0, positions = t_count_dot_positions(nodes, &with);
    if (with && with != n) {
        char msg[128];
        snprintf(msg, sizeof msg, "positions on %zu of %zu nodes; give them on every node or "
                 "on none", with, n);
        return t_bad(r, "nodes", "dots: %s", msg);
    }
    if (with && !(b->dot_xy = malloc((positions ? positions : 1) * sizeof *b->dot_xy)))
        return cb_fail(r->err, CB_ERR_NOMEM, "out of memory reading %s", r->name);
    for (const cJSON *o = nodes->child; o; o = o->next, i++) {
        snprintf(r->path + len, sizeof r->path - len, ".nodes[%zu]", i);
        if ((st = t_read_node(r, o, b, i)) != CB_OK)
            return st;
        int is_center = b->nodes[i].kind == CB_KIND_CENTER;
        if (is_center != (i == b->center)) {
            char msg[96];
            snprintf(msg, sizeof msg, "\"%s\", but \"center\" says node %u is the centre",
                     t_kind_names[b->nodes[i].kind], b->center);
            return t_bad(r, "kind", "%s", msg);
        }
    }
    r->path[len] = '\0';
    if ((st = t_read_edges(r, edges, b)) != CB_OK)
        return st;
    b->attempts = 1;
    if (cJSON_GetObjectItemCaseSensitive(s, "attempts")) {
        if ((st = t_integer(r, s, "attempts", 0, 1e9, &d)) != CB_OK)
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

static cb_status oracle_parse_json(const char *text, size_t len, const char *name,
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
    size_t first = 0, dup = oracle_duplicate_key(text, len, &first, &oom);
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
    t_reader r = {name, theme, err, ""};
    cb_game *g = calloc(1, sizeof *g);
    const cJSON *format, *seed, *sheets;
    double d;
    if (!g) {
        st = cb_fail(err, CB_ERR_NOMEM, "out of memory reading %s", name);
        goto done;
    }
    if (!cJSON_IsObject(root)) {
        st = cb_fail(err, CB_ERR_DATA, "%s: not a board file (the top level is %s, not an "
                     "object)", name, t_type_name(root));
        goto done;
    }
    if ((st = t_want(&r, root, "format", t_is_string, "wants a string", &format)) != CB_OK)
        goto done;
    if (strcmp(format->valuestring, "cutboard/1") != 0) {
        st = t_bad(&r, "format", "\"%.60s\" is not \"cutboard/1\"", format->valuestring);
        goto done;
    }
    if ((st = t_want(&r, root, "seed", t_is_string, "wants a string", &seed)) != CB_OK ||
        (st = t_integer(&r, root, "players", 2, 9, &d)) != CB_OK)
        goto done;
    g->players = (int)d;
    const cJSON *shared = cJSON_GetObjectItemCaseSensitive(root, "shared");
    if (shared && !cJSON_IsBool(shared)) {
        st = t_bad(&r, "shared", "wants true or false, not %s", t_type_name(shared));
        goto done;
    }
    g->shared = cJSON_IsTrue(shared);
    if (!(g->seed = strdup(seed->valuestring))) {
        st = cb_fail(err, CB_ERR_NOMEM, "out of memory reading %s", name);
        goto done;
    }
    if ((st = t_want(&r, root, "sheets", t_is_array, "wants an array", &sheets)) != CB_OK)
        goto done;
    size_t n = (size_t)cJSON_GetArraySize(sheets);
    if (n == 0 || n > 9) {
        st = t_bad(&r, "sheets", "%s", n ? "has more than 9 sheets" : "is empty");
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
        if ((st = t_read_sheet(&r, s, g->sheets[i])) != CB_OK)
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

#endif
