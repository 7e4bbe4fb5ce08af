/* The board file (cutboard/1, doc/cutboard-board.5.scd) read as it streams
 * by (json_scan.h), straight into the game's arrays: a 1M-node poster's
 * 158 MB file reads in a 256 KiB window.
 *
 * Every value is checked, and the fault named is the first in a fixed
 * order whatever the order of the keys: the text's own faults (not JSON, a
 * key given twice, text after the document) before the board's; in an
 * object, its members in the order of the format (format, seed, players,
 * shared, sheets; a sheet's seed, player, page, board, node_radius_mm,
 * nodes, edges, center), then its nodes and edges in the order given. A
 * message names the file and the field ("sheets[0].nodes[5].x_mm") or the
 * line, and err->line is the line at fault. After a fault in a sheet, the
 * rest of it and the sheets after it are only scanned (for the text's
 * faults), never stored; a tenth sheet is refused unread; edges past
 * 3n - 6 on a sheet's n nodes are only counted (see edge_limit). */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "board/decorate.h"
#include "io/board_read.h"
#include "io/json_scan.h"

#define MAX_SHEETS 9

const char *const cb_board_kind_names[3] = {"node", "start", "center"};
const char *const cb_board_side_names[4] = {"top", "right", "bottom", "left"};

/* The first fault of a part of the file, held until the parts named
 * before it have been checked. */
typedef struct {
    cb_status st;
    cb_error err;
} fault;

typedef struct {
    cb_json_scan s;
    const char *name;
    const cb_theme *theme;
    fault *at;          /* where the next fault goes */
    char path[160];     /* the field being read, e.g. sheets[0].page */
    const char *item;   /* and in it, ITEM[INDEX] (NULL: none), e.g. nodes[5] */
    size_t index;
    int too_many_sheets;
    /* The members read in each kind of object (the *_keys lists below). */
    cb_json_names game_names, sheet_names, page_names, board_names, node_names;
} reader;

/* The members of each object the format has, in the writer's order (the
 * scanner tries them in turn from the last one found). */
enum { G_FORMAT, G_SEED, G_PLAYERS, G_SHARED, G_SHEETS };
static const char *const game_keys[] = {"format", "seed", "players", "shared", "sheets"};
enum { S_SEED, S_PLAYER, S_PAGE, S_BOARD, S_RADIUS, S_CENTER, S_NODES, S_EDGES, S_ATTEMPTS };
static const char *const sheet_keys[] = {"seed",   "player", "page",  "board",   "node_radius_mm",
                                         "center", "nodes",  "edges", "attempts"};
static const char *const page_keys[] = {"width_mm", "height_mm"};
static const char *const board_keys[] = {"x_mm", "y_mm", "width_mm", "height_mm"};
enum { N_ID, N_X, N_Y, N_KIND, N_SIDE, N_MISSION, N_TYPE, N_NUMBER, N_DOTS };
static const char *const node_keys[] = {"id",      "x_mm", "y_mm",   "kind", "side",
                                        "mission", "type", "number", "dots"};

/* A member's value as it was read: its type (CB_JSON_END when missing),
 * its number, and its line. */
typedef struct {
    cb_json_type type;
    double num;
    size_t line;
} field;

static cb_status bad(reader *r, size_t line, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* A fault in the board at LINE, in the field KEY (may be NULL) of the part
 * at r->path; kept only when it is the first. */
static cb_status bad(reader *r, size_t line, const char *key, const char *fmt, ...)
{
    if (r->at->st != CB_OK)
        return CB_ERR_DATA;
    char msg[256], path[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (r->item)
        snprintf(path, sizeof path, "%s.%s[%zu]", r->path, r->item, r->index);
    else
        snprintf(path, sizeof path, "%s", r->path);
    return r->at->st = cb_fail_line(&r->at->err, CB_ERR_DATA, (long)line, "%s: %s%s%s: %s",
                                    r->name, path, *path && key && *key ? "." : "",
                                    key ? key : "", msg);
}

static const char *type_name(cb_json_type t)
{
    static const char *const names[] = {"missing", "an object", "an array", "a string",
                                        "a number", "a boolean", "a boolean", "null"};
    return names[t];
}

/* Reads a member's value into F, its string (when it is one) into STR
 * (CAP bytes, cut short beyond); the first of two members of one name
 * counts (a key given twice is refused anyway, but "a" and "\u0061" are
 * two keys). 1, or 0 on a fault of the text. */
static int take(reader *r, field *f, char *str, size_t cap)
{
    if (f->type != CB_JSON_END)
        return cb_json_skip(&r->s, NULL);
    cb_json_type t = cb_json_peek(&r->s);
    f->line = r->s.line;
    if (t == CB_JSON_NUMBER) {
        if (!cb_json_number(&r->s, &f->num))
            return 0;
    } else if (t == CB_JSON_STRING && str) {
        if (!cb_json_string(&r->s))
            return 0;
        size_t n = r->s.str_len < cap - 1 ? r->s.str_len : cap - 1;
        memcpy(str, r->s.str, n);
        str[n] = '\0';
    } else if (!cb_json_skip(&r->s, &t)) {
        return 0;
    }
    f->type = t;
    return 1;
}

/* The same for a string kept whole (a seed), into *OUT (freed by the caller). */
static int take_string(reader *r, field *f, char **out)
{
    if (f->type != CB_JSON_END || cb_json_peek(&r->s) != CB_JSON_STRING)
        return take(r, f, NULL, 0);
    f->line = r->s.line;
    if (!cb_json_string(&r->s))
        return 0;
    f->type = CB_JSON_STRING;
    /* A \u0000 ends it, as it did when cJSON read it. */
    if (!(*out = strdup(r->s.str))) {
        r->s.fault = CB_JSON_NOMEM;
        return 0;
    }
    return 1;
}

/* ---- checks, in the words of the format ---------------------------------- */

static int want(reader *r, const field *f, const char *key, cb_json_type t, const char *what,
                size_t close_line)
{
    if (f->type == t)
        return 1;
    bad(r, f->type ? f->line : close_line, key, "%s, not %s", what, type_name(f->type));
    return 0;
}

/* A finite number in [lo, hi] (NUMBER), and whole too (INTEGER). */
static int number(reader *r, const field *f, const char *key, double lo, double hi,
                  size_t close_line)
{
    if (!want(r, f, key, CB_JSON_NUMBER, "wants a number", close_line))
        return 0;
    double d = f->num;
    if (!isfinite(d) || d < lo || d > hi) {
        bad(r, f->line, key, "%g is out of range (%g..%g)", d, lo, hi);
        return 0;
    }
    return 1;
}

static int integer(reader *r, const field *f, const char *key, double lo, double hi,
                   size_t close_line)
{
    if (!number(r, f, key, lo, hi, close_line))
        return 0;
    if (f->num != floor(f->num)) {
        bad(r, f->line, key, "%g is not a whole number", f->num);
        return 0;
    }
    return 1;
}

static int find_name(const char *name, const char *const *names, int n)
{
    for (int i = 0; i < n; i++)
        if (strcmp(name, names[i]) == 0)
            return i;
    return -1;
}

/* An array of exactly two numbers into XY: 1, 0 for any other value (read
 * past), -1 on a fault of the text. */
static int pair(reader *r, double xy[2])
{
    int fast = cb_json_pair(&r->s, xy); /* the common case */
    if (fast)
        return fast;
    if (cb_json_peek(&r->s) != CB_JSON_ARRAY)
        return cb_json_skip(&r->s, NULL) ? 0 : -1;
    int k = 0, ok = 1, more;
    if (!cb_json_open(&r->s))
        return -1;
    while ((more = cb_json_item(&r->s)) == 1) {
        if (k < 2 && cb_json_peek(&r->s) == CB_JSON_NUMBER) {
            if (!cb_json_number(&r->s, &xy[k]))
                return -1;
        } else if (!cb_json_skip(&r->s, NULL)) {
            return -1;
        } else {
            ok = 0;
        }
        k++;
    }
    return more < 0 ? -1 : ok && k == 2;
}

/* ---- a sheet ------------------------------------------------------------------ */

typedef struct {
    field id, x, y, kind, side, mission, type, number, dots;
    char kind_s[256], side_s[256], mission_s[256], type_s[256];
    int positions;          /* dots given as a list of this many */
    int bad_position;       /* the first that is not [x, y] on the page, or -1 */
} node_fields;

typedef struct {
    cb_board *b;
    size_t index;           /* the sheet's, from 0 */
    field seed, player, page, board, radius, center, nodes, edges, attempts;
    field page_w, page_h, board_x, board_y, board_w, board_h;
    size_t close_line;
    /* What the nodes and edges gave, as they came. */
    fault items;            /* the first fault in a node or an edge */
    size_t n_nodes;         /* nodes given, whether kept or not */
    size_t cap_nodes, cap_edges, cap_dots;
    size_t with_positions;  /* nodes that give their dots as positions */
    int page_later;         /* the page came after nodes: range checks wait */
    size_t bad_dot_node, bad_dot_line; /* ... and so does naming a bad position */
    int bad_dot;
    size_t edge_fault;      /* the edge of the first fault in a pair's shape */
    fault edge_bad;         /* ... named once the edges before it are checked */
    size_t huge_edge;       /* the first edge with an end past any node */
    double huge_end;
    size_t edges_given;     /* edges in the file, kept or not */
    size_t edge_limit;      /* ... of which only this many are kept */
    int keep;               /* nodes and edges are still stored */
    node_fields nf;
} sheet_reader;

static int grow(reader *r, void **p, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return 1;
    size_t cap2 = *cap ? *cap * 2 : 1024;
    while (cap2 < need)
        cap2 *= 2;
    void *q = realloc(*p, cap2 * size);
    if (!q) {
        r->s.fault = CB_JSON_NOMEM;
        return 0;
    }
    *p = q;
    *cap = cap2;
    return 1;
}

static int page_known(const sheet_reader *sr)
{
    return sr->page_w.type == CB_JSON_NUMBER && sr->page_h.type == CB_JSON_NUMBER;
}

/* A node's dots given as positions: counted, the first bad one noted, and
 * kept in b->dot_xy while the node is. */
static int dot_positions(reader *r, sheet_reader *sr, node_fields *nf, int keep)
{
    cb_board *b = sr->b;
    int more;
    if (!cb_json_open(&r->s))
        return 0;
    while ((more = cb_json_item(&r->s)) == 1) {
        double xy[2];
        int shape = pair(r, xy);
        if (shape < 0)
            return 0;
        int ok = shape && isfinite(xy[0]) && isfinite(xy[1]) && xy[0] >= 0 && xy[1] >= 0 &&
                 (!page_known(sr) || (xy[0] <= sr->page_w.num && xy[1] <= sr->page_h.num));
        if (!ok && nf->bad_position < 0)
            nf->bad_position = nf->positions;
        if (keep && ok && nf->positions < CB_BOARD_MAX_DOTS) {
            if (!grow(r, (void **)&b->dot_xy, &sr->cap_dots, b->n_dot_xy + 1, sizeof *b->dot_xy))
                return 0;
            b->dot_xy[b->n_dot_xy][0] = xy[0];
            b->dot_xy[b->n_dot_xy][1] = xy[1];
            b->n_dot_xy++;
        }
        nf->positions++;
    }
    return more == 0;
}

static int node_member(reader *r, sheet_reader *sr, node_fields *nf, int keep)
{
    switch (r->s.key) {
    case N_ID: return take(r, &nf->id, NULL, 0);
    case N_X: return take(r, &nf->x, NULL, 0);
    case N_Y: return take(r, &nf->y, NULL, 0);
    case N_KIND: return take(r, &nf->kind, nf->kind_s, 256);
    case N_SIDE: return take(r, &nf->side, nf->side_s, 256);
    case N_MISSION: return take(r, &nf->mission, nf->mission_s, 256);
    case N_TYPE: return take(r, &nf->type, nf->type_s, 256);
    case N_NUMBER: return take(r, &nf->number, NULL, 0);
    case N_DOTS:
        if (nf->dots.type == CB_JSON_END && cb_json_peek(&r->s) == CB_JSON_ARRAY) {
            nf->dots = (field){CB_JSON_ARRAY, 0, r->s.line};
            return dot_positions(r, sr, nf, keep);
        }
        return take(r, &nf->dots, NULL, 0);
    default: return cb_json_skip(&r->s, NULL);
    }
}

/* Node I's checks, in the format's order; 0 at its first fault. */
static int node_check(reader *r, sheet_reader *sr, node_fields *nf, cb_node *v, size_t i,
                      size_t close)
{
    const cb_theme *theme = r->theme;
    if (!integer(r, &nf->id, "id", 0, 4294967295.0, close))
        return 0;
    if (nf->id.num != (double)i)
        return !bad(r, nf->id.line, "id", "%.0f where %zu belongs (ids run 0..n-1 in order)",
                    nf->id.num, i);
    int ranged = page_known(sr);
    if (!number(r, &nf->x, "x_mm", 0, ranged ? sr->page_w.num : INFINITY, close) ||
        !number(r, &nf->y, "y_mm", 0, ranged ? sr->page_h.num : INFINITY, close))
        return 0;
    v->x = nf->x.num;
    v->y = nf->y.num;
    if (!want(r, &nf->kind, "kind", CB_JSON_STRING, "wants a string", close))
        return 0;
    int kind = find_name(nf->kind_s, cb_board_kind_names, 3);
    if (kind < 0)
        return !bad(r, nf->kind.line, "kind", "\"%s\" is not node, start or center", nf->kind_s);
    v->kind = (cb_kind)kind;
    v->side = CB_SIDE_NONE;
    v->type = v->mission = -1;
    if (v->kind == CB_KIND_START) {
        if (!want(r, &nf->side, "side", CB_JSON_STRING, "wants a string", close))
            return 0;
        int k = find_name(nf->side_s, cb_board_side_names, 4);
        if (k < 0)
            return !bad(r, nf->side.line, "side", "\"%s\" is not top, right, bottom or left",
                        nf->side_s);
        v->side = (cb_side)k;
    } else if (nf->side.type) {
        return !bad(r, nf->side.line, "side", "is only for starts");
    }
    if (nf->mission.type) {
        if (v->kind != CB_KIND_START)
            return !bad(r, nf->mission.line, "mission", "is only for starts");
        if (!want(r, &nf->mission, "mission", CB_JSON_STRING, "wants a string", close))
            return 0;
        if (theme && (v->mission = cb_theme_mission_index(theme, nf->mission_s)) < 0)
            return !bad(r, nf->mission.line, "mission",
                        "\"%.80s\" is not a mission of theme \"%.80s\"", nf->mission_s,
                        theme->name);
    }
    if (nf->type.type) {
        if (!want(r, &nf->type, "type", CB_JSON_STRING, "wants a string", close))
            return 0;
        const char *t = nf->type_s;
        const char *fixed = v->kind == CB_KIND_START ? "start"
                            : v->kind == CB_KIND_CENTER ? "center" : NULL;
        if (fixed && strcmp(t, fixed) != 0)
            return !bad(r, nf->type.line, "type", "\"%.80s\" on a %s (its type is \"%s\")", t,
                        fixed, fixed);
        if (!fixed && strcmp(t, "node") != 0 && theme &&
            (v->type = cb_theme_type_index(theme, t)) < 0)
            return !bad(r, nf->type.line, "type",
                        "\"%.80s\" is not a node type of theme \"%.80s\"", t, theme->name);
    }
    v->number = 0;
    if (nf->number.type) {
        if (!integer(r, &nf->number, "number", 1, CB_BOARD_MAX_NUMBER, close))
            return 0;
        v->number = (int)nf->number.num;
    }
    v->dots = 0;
    if (nf->dots.type == CB_JSON_ARRAY) {
        if (nf->positions > CB_BOARD_MAX_DOTS)
            return !bad(r, nf->dots.line, "dots", "%d positions is more than %d",
                        nf->positions, CB_BOARD_MAX_DOTS);
        if (nf->bad_position >= 0) {
            if (ranged)
                return !bad(r, nf->dots.line, "dots",
                            "position %d wants [x_mm, y_mm] on the page (%gx%g mm)",
                            nf->bad_position, sr->page_w.num, sr->page_h.num);
            /* named when the page is known */
            sr->bad_dot = nf->bad_position;
            sr->bad_dot_node = i;
            sr->bad_dot_line = nf->dots.line;
            r->at->st = CB_ERR_DATA;
            return 0;
        }
        v->dots = nf->positions;
    } else if (nf->dots.type) {
        if (!integer(r, &nf->dots, "dots", 0, CB_BOARD_MAX_DOTS, close))
            return 0;
        v->dots = (int)nf->dots.num;
    }
    if (sr->center.type == CB_JSON_NUMBER &&
        (v->kind == CB_KIND_CENTER) != ((double)i == sr->center.num))
        return !bad(r, close, "kind", "\"%s\", but \"center\" says node %.0f is the centre",
                    cb_board_kind_names[v->kind], sr->center.num);
    return 1;
}

static int read_node(reader *r, sheet_reader *sr)
{
    cb_board *b = sr->b;
    size_t i = sr->n_nodes++;
    int keep = sr->keep && i < CB_BOARD_MAX_NODES;
    if (keep && !grow(r, (void **)&b->nodes, &sr->cap_nodes, i + 1, sizeof *b->nodes))
        return 0;
    node_fields *nf = &sr->nf;
    nf->id.type = nf->x.type = nf->y.type = nf->kind.type = nf->side.type = CB_JSON_END;
    nf->mission.type = nf->type.type = nf->number.type = nf->dots.type = CB_JSON_END;
    nf->positions = 0;
    nf->bad_position = -1;
    size_t first_dot = b->n_dot_xy;
    if (cb_json_peek(&r->s) != CB_JSON_OBJECT) {
        size_t line = r->s.line;
        if (!cb_json_skip(&r->s, NULL))
            return 0;
        if (keep) {
            r->item = "nodes", r->index = i;
            bad(r, line, NULL, "wants an object");
            r->item = NULL;
            sr->keep = 0;
        }
        return 1;
    }
    int more;
    if (!cb_json_open(&r->s))
        return 0;
    while ((more = cb_json_member(&r->s, &r->node_names)) == 1)
        if (!node_member(r, sr, nf, keep))
            return 0;
    if (more < 0)
        return 0;
    sr->with_positions += nf->dots.type == CB_JSON_ARRAY;
    if (!keep)
        return 1;
    cb_node *v = &b->nodes[i];
    v->first_dot = (uint32_t)first_dot;
    r->item = "nodes", r->index = i;
    if (!node_check(r, sr, nf, v, i, r->s.line)) {
        sr->keep = 0;
        b->n_dot_xy = first_dot;
    } else {
        b->n_nodes = i + 1;
    }
    r->item = NULL;
    return 1;
}

static int read_nodes(reader *r, sheet_reader *sr)
{
    int more;
    sr->nodes = (field){CB_JSON_ARRAY, 0, r->s.line};
    sr->page_later = !page_known(sr);
    if (!cb_json_open(&r->s))
        return 0;
    while ((more = cb_json_item(&r->s)) == 1)
        if (!read_node(r, sr))
            return 0;
    return more == 0;
}

/* Edges past 3n - 6 on n nodes: no board that can be drawn has more, and
 * cb_board_edges_check refuses them, after the checks the format puts
 * first. The first edge past it is kept and checked like the ones before
 * (one given twice is named as such, as it is named on any sheet); those
 * after it are counted, not kept. N is the nodes read before the edges
 * (the writer puts them first); with fewer than 3 (or none yet), the most
 * a sheet may have stands in for it. */
static size_t edge_limit(const sheet_reader *sr)
{
    size_t n = sr->nodes.type == CB_JSON_ARRAY ? sr->n_nodes : 0;
    if (n < 3 || n > CB_BOARD_MAX_NODES)
        n = CB_BOARD_MAX_NODES;
    return 3 * n - 6;
}

static int read_edges(reader *r, sheet_reader *sr)
{
    cb_board *b = sr->b;
    int more;
    size_t e = 0;
    sr->edges = (field){CB_JSON_ARRAY, 0, r->s.line};
    sr->edge_limit = edge_limit(sr);
    if (!cb_json_open(&r->s))
        return 0;
    for (; (more = cb_json_item(&r->s)) == 1; e++) {
        double ends[2];
        size_t line = r->s.line;
        int shape = pair(r, ends);
        if (shape < 0)
            return 0;
        if (sr->edge_fault != SIZE_MAX || e > sr->edge_limit)
            continue; /* counted only */
        for (int k = 0; shape && k < 2; k++)
            shape = ends[k] >= 0 && ends[k] == floor(ends[k]);
        if (!shape) {
            fault *at = r->at;
            r->at = &sr->edge_bad;
            r->item = "edges", r->index = e;
            bad(r, line, NULL, "wants a pair of node ids [a, b]");
            r->item = NULL;
            r->at = at;
            sr->edge_fault = e;
            continue;
        }
        if (!grow(r, (void **)&b->edges, &sr->cap_edges, e + 1, sizeof *b->edges))
            return 0;
        uint32_t u[2];
        for (int k = 0; k < 2; k++) {
            u[k] = ends[k] < 4294967295.0 ? (uint32_t)ends[k] : UINT32_MAX;
            if (u[k] == UINT32_MAX && sr->huge_edge == SIZE_MAX) {
                sr->huge_edge = e;
                sr->huge_end = ends[k];
            }
        }
        b->edges[e] = (cb_edge){u[0], u[1]}; /* as given; ordered when checked */
        b->n_edges = e + 1;
    }
    sr->edges_given = e;
    return more == 0;
}

/* An object of numbers (the page, the board): the value of KEYS' name k
 * into OUT[k]. */
static int read_numbers(reader *r, field *f, const cb_json_names *keys, field *out)
{
    int more;
    if (f->type != CB_JSON_END || cb_json_peek(&r->s) != CB_JSON_OBJECT)
        return take(r, f, NULL, 0);
    *f = (field){CB_JSON_OBJECT, 0, r->s.line};
    if (!cb_json_open(&r->s))
        return 0;
    while ((more = cb_json_member(&r->s, keys)) == 1) {
        int k = r->s.key;
        if (!(k >= 0 ? take(r, &out[k], NULL, 0) : cb_json_skip(&r->s, NULL)))
            return 0;
    }
    return more == 0;
}

static int sheet_member(reader *r, sheet_reader *sr)
{
    switch (r->s.key) {
    case S_SEED: return take_string(r, &sr->seed, &sr->b->seed);
    case S_PLAYER: return take(r, &sr->player, NULL, 0);
    case S_PAGE: return read_numbers(r, &sr->page, &r->page_names, &sr->page_w);
    case S_BOARD: return read_numbers(r, &sr->board, &r->board_names, &sr->board_x);
    case S_RADIUS: return take(r, &sr->radius, NULL, 0);
    case S_CENTER: return take(r, &sr->center, NULL, 0);
    case S_ATTEMPTS: return take(r, &sr->attempts, NULL, 0);
    case S_NODES:
        if (!sr->nodes.type && cb_json_peek(&r->s) == CB_JSON_ARRAY) {
            fault *at = r->at;
            r->at = &sr->items;
            int ok = read_nodes(r, sr);
            r->at = at;
            return ok;
        }
        return take(r, &sr->nodes, NULL, 0);
    case S_EDGES:
        if (!sr->edges.type && cb_json_peek(&r->s) == CB_JSON_ARRAY)
            return read_edges(r, sr);
        return take(r, &sr->edges, NULL, 0);
    default: return cb_json_skip(&r->s, NULL);
    }
}

/* Edges [0, M): both ends nodes (in the order given), not one node twice;
 * then each ordered a < b. 0 at the first fault. */
static int check_edges(reader *r, sheet_reader *sr, size_t m)
{
    cb_board *b = sr->b;
    size_t n = b->n_nodes;
    r->item = "edges";
    for (size_t e = 0; e < m; e++) {
        uint32_t u[2] = {b->edges[e].a, b->edges[e].b};
        r->index = e;
        for (int k = 0; k < 2; k++)
            if (u[k] >= n) {
                double d = u[k] == UINT32_MAX && e == sr->huge_edge ? sr->huge_end : u[k];
                return !bad(r, sr->edges.line, NULL, "node %.0f does not exist (%zu nodes)", d,
                            n);
            }
        if (u[0] == u[1])
            return !bad(r, sr->edges.line, NULL, "joins node %u to itself", u[0]);
        b->edges[e] = (cb_edge){u[0] < u[1] ? u[0] : u[1], u[0] < u[1] ? u[1] : u[0]};
    }
    r->item = NULL;
    return 1;
}

static int u32_order(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return (a > b) - (a < b);
}

/* The least edge (in the order of its ends) listed twice: its ends in A, B;
 * 0 when none is, -1 out of memory. The edges bucketed by their first end
 * (a counting sort), each bucket searched. */
static int repeated_edge(const cb_board *b, uint32_t *a, uint32_t *c)
{
    size_t n = b->n_nodes, m = b->n_edges;
    uint32_t *start = calloc(n + 1, sizeof *start), *other = malloc((m ? m : 1) * sizeof *other);
    int found = 0;
    if (!start || !other) {
        free(start);
        free(other);
        return -1;
    }
    for (size_t e = 0; e < m; e++)
        start[b->edges[e].a + 1]++;
    for (size_t v = 0; v < n; v++)
        start[v + 1] += start[v];
    for (size_t e = 0; e < m; e++)
        other[start[b->edges[e].a]++] = b->edges[e].b;
    /* start[v] is now the end of v's bucket. */
    for (size_t v = 0, lo = 0; !found && v < n; lo = start[v], v++) {
        uint32_t *k = other + lo;
        size_t len = start[v] - lo;
        if (len > 8)
            qsort(k, len, sizeof *k, u32_order);
        else /* a node's few edges */
            for (size_t i = 1; i < len; i++)
                for (size_t j = i; j > 0 && k[j - 1] > k[j]; j--) {
                    uint32_t t = k[j];
                    k[j] = k[j - 1];
                    k[j - 1] = t;
                }
        for (size_t i = 1; !found && i < len; i++)
            if (k[i] == k[i - 1]) {
                *a = (uint32_t)v;
                *c = k[i];
                found = 1;
            }
    }
    free(start);
    free(other);
    return found;
}

/* The sheet's checks once it is read, in the format's order; 0 at the
 * first fault. */
static int sheet_check(reader *r, sheet_reader *sr)
{
    cb_board *b = sr->b;
    size_t close = sr->close_line, len = strlen(r->path);
    if (!want(r, &sr->seed, "seed", CB_JSON_STRING, "wants a string", close) ||
        !integer(r, &sr->player, "player", 0, 9, close) ||
        !want(r, &sr->page, "page", CB_JSON_OBJECT, "wants an object", close))
        return 0;
    b->player = (int)sr->player.num;
    snprintf(r->path + len, sizeof r->path - len, ".page");
    if (!number(r, &sr->page_w, "width_mm", 1, CB_BOARD_MAX_MM, close) ||
        !number(r, &sr->page_h, "height_mm", 1, CB_BOARD_MAX_MM, close))
        return 0;
    b->page_w = sr->page_w.num;
    b->page_h = sr->page_h.num;
    r->path[len] = '\0';
    if (!want(r, &sr->board, "board", CB_JSON_OBJECT, "wants an object", close))
        return 0;
    snprintf(r->path + len, sizeof r->path - len, ".board");
    if (!number(r, &sr->board_x, "x_mm", 0, b->page_w, close) ||
        !number(r, &sr->board_y, "y_mm", 0, b->page_h, close) ||
        !number(r, &sr->board_w, "width_mm", 1, b->page_w - sr->board_x.num, close) ||
        !number(r, &sr->board_h, "height_mm", 1, b->page_h - sr->board_y.num, close))
        return 0;
    r->path[len] = '\0';
    b->board_x = sr->board_x.num;
    b->board_y = sr->board_y.num;
    b->board_w = sr->board_w.num;
    b->board_h = sr->board_h.num;
    if (!number(r, &sr->radius, "node_radius_mm", 0.1, 100, close) ||
        !want(r, &sr->nodes, "nodes", CB_JSON_ARRAY, "wants an array", close) ||
        !want(r, &sr->edges, "edges", CB_JSON_ARRAY, "wants an array", close))
        return 0;
    b->node_radius = sr->radius.num;
    size_t n = sr->n_nodes;
    if (n == 0)
        return !bad(r, sr->nodes.line, "nodes", "is empty");
    if (n > CB_BOARD_MAX_NODES)
        return !bad(r, sr->nodes.line, "nodes", "%zu nodes is more than %d", n,
                    CB_BOARD_MAX_NODES);
    if (!integer(r, &sr->center, "center", 0, (double)n - 1, close))
        return 0;
    b->center = (uint32_t)sr->center.num;
    /* Dots come as positions on every node or on none (then they are
     * placed as the generator would). */
    size_t with = sr->with_positions;
    if (with && with != n)
        return !bad(r, sr->nodes.line, "nodes", "dots: positions on %zu of %zu nodes; give them "
                    "on every node or on none", with, n);
    /* What waited for the page or the centre, node by node up to the first
     * node at fault. */
    r->item = "nodes";
    for (size_t i = 0; i < b->n_nodes; i++) {
        const cb_node *v = &b->nodes[i];
        r->index = i;
        if (sr->page_later && !(v->x <= b->page_w))
            return !bad(r, sr->nodes.line, "x_mm", "%g is out of range (%g..%g)", v->x, 0.0,
                        b->page_w);
        if (sr->page_later && !(v->y <= b->page_h))
            return !bad(r, sr->nodes.line, "y_mm", "%g is out of range (%g..%g)", v->y, 0.0,
                        b->page_h);
        for (int k = 0; sr->page_later && k < v->dots && b->dot_xy; k++) {
            const double *p = b->dot_xy[v->first_dot + (size_t)k];
            if (p[0] > b->page_w || p[1] > b->page_h)
                return !bad(r, sr->nodes.line, "dots",
                            "position %d wants [x_mm, y_mm] on the page (%gx%g mm)", k,
                            b->page_w, b->page_h);
        }
        if ((v->kind == CB_KIND_CENTER) != (i == b->center))
            return !bad(r, sr->nodes.line, "kind",
                        "\"%s\", but \"center\" says node %u is the centre",
                        cb_board_kind_names[v->kind], b->center);
    }
    if (sr->bad_dot >= 0) {
        r->index = sr->bad_dot_node;
        return !bad(r, sr->bad_dot_line, "dots",
                    "position %d wants [x_mm, y_mm] on the page (%gx%g mm)", sr->bad_dot,
                    b->page_w, b->page_h);
    }
    r->item = NULL;
    if (sr->items.st != CB_OK) {
        *r->at = sr->items;
        return 0;
    }
    if (!check_edges(r, sr, sr->edge_fault < b->n_edges ? sr->edge_fault : b->n_edges))
        return 0;
    if (sr->edge_fault != SIZE_MAX) {
        *r->at = sr->edge_bad;
        return 0;
    }
    uint32_t a, c;
    int twice = repeated_edge(b, &a, &c);
    if (twice < 0) {
        r->s.fault = CB_JSON_NOMEM;
        return 0;
    }
    if (twice)
        return !bad(r, sr->edges.line, "edges", "edge %u-%u is listed twice", a, c);
    b->attempts = 1;
    if (sr->attempts.type) {
        if (!integer(r, &sr->attempts, "attempts", 0, 1e9, close))
            return 0;
        b->attempts = (int)sr->attempts.num;
    }
    /* Edges past the limit, counted and not kept: refused for their count
     * (on fewer than 3 nodes, the edges kept are faulty enough). */
    if (sr->edges_given > b->n_edges && n >= 3) {
        r->at->st = cb_board_edges_check(sr->edges_given, n, r->name, sr->index, &r->at->err);
        return 0;
    }
    if (!b->edges && !(b->edges = malloc(sizeof *b->edges))) {
        r->s.fault = CB_JSON_NOMEM;
        return 0;
    }
    if (sr->with_positions && !b->dot_xy && !(b->dot_xy = malloc(sizeof *b->dot_xy))) {
        r->s.fault = CB_JSON_NOMEM; /* every node gave an empty list: no dots, none placed */
        return 0;
    }
    /* The arrays grew by doubling: give back what is not used. */
    cb_node *nodes = realloc(b->nodes, n * sizeof *nodes);
    if (nodes)
        b->nodes = nodes;
    if (b->n_edges) {
        cb_edge *edges = realloc(b->edges, b->n_edges * sizeof *edges);
        if (edges)
            b->edges = edges;
    }
    cb_status st = cb_board_limits_check(b, r->name, sr->index, &r->at->err);
    if (st != CB_OK)
        r->at->st = st;
    return st == CB_OK;
}

/* Sheet INDEX into B (a sheet of its own, freed with the game). 1, or 0 on
 * a fault of the text. */
static int read_sheet(reader *r, cb_board *b, size_t index)
{
    sheet_reader *sr = calloc(1, sizeof *sr);
    if (!sr) {
        r->s.fault = CB_JSON_NOMEM;
        return 0;
    }
    sr->b = b;
    sr->index = index;
    sr->keep = 1;
    sr->bad_dot = -1;
    sr->edge_fault = sr->huge_edge = SIZE_MAX;
    snprintf(r->path, sizeof r->path, "sheets[%zu]", index);
    int ok, more;
    if (cb_json_peek(&r->s) != CB_JSON_OBJECT) {
        size_t line = r->s.line;
        ok = cb_json_skip(&r->s, NULL);
        if (ok)
            bad(r, line, NULL, "wants an object");
    } else if ((ok = cb_json_open(&r->s))) {
        while ((more = cb_json_member(&r->s, &r->sheet_names)) == 1 &&
               (ok = sheet_member(r, sr)))
            ;
        ok = ok && more == 0;
        sr->close_line = r->s.line;
        if (ok)
            sheet_check(r, sr);
    }
    r->path[0] = '\0';
    r->item = NULL;
    free(sr);
    return ok;
}

/* ---- the game ----------------------------------------------------------------- */

typedef struct {
    field format, seed, players, shared, sheets;
    char format_s[64];
    fault in_sheets;    /* the first fault in a sheet */
} game_reader;

static int read_sheets(reader *r, cb_game *g, game_reader *gr)
{
    int more;
    gr->sheets = (field){CB_JSON_ARRAY, 0, r->s.line};
    if (!cb_json_open(&r->s))
        return 0;
    if (!(g->sheets = calloc(MAX_SHEETS, sizeof *g->sheets))) {
        r->s.fault = CB_JSON_NOMEM;
        return 0;
    }
    fault *at = r->at;
    r->at = &gr->in_sheets;
    for (size_t i = 0; (more = cb_json_item(&r->s)) == 1; i++) {
        if (i == MAX_SHEETS) { /* refused here: the rest is never read */
            r->too_many_sheets = 1;
            r->at = at;
            return 0;
        }
        if (gr->in_sheets.st != CB_OK) { /* a sheet before is at fault */
            if (!cb_json_skip(&r->s, NULL))
                return 0;
            continue;
        }
        if (!(g->sheets[i] = calloc(1, sizeof **g->sheets))) {
            r->s.fault = CB_JSON_NOMEM;
            return 0;
        }
        g->n_sheets++;
        if (!read_sheet(r, g->sheets[i], i))
            return 0;
    }
    r->at = at;
    return more == 0;
}

static int game_member(reader *r, cb_game *g, game_reader *gr)
{
    switch (r->s.key) {
    case G_FORMAT: return take(r, &gr->format, gr->format_s, sizeof gr->format_s);
    case G_SEED: return take_string(r, &gr->seed, &g->seed);
    case G_PLAYERS: return take(r, &gr->players, NULL, 0);
    case G_SHARED: return take(r, &gr->shared, NULL, 0);
    case G_SHEETS:
        if (!gr->sheets.type && cb_json_peek(&r->s) == CB_JSON_ARRAY)
            return read_sheets(r, g, gr);
        return take(r, &gr->sheets, NULL, 0);
    default: return cb_json_skip(&r->s, NULL);
    }
}

/* The game's checks once it is read: its own members, then its sheets'. */
static void game_check(reader *r, cb_game *g, game_reader *gr, size_t close)
{
    if (!want(r, &gr->format, "format", CB_JSON_STRING, "wants a string", close))
        return;
    if (strcmp(gr->format_s, "cutboard/1") != 0) {
        bad(r, gr->format.line, "format", "\"%.60s\" is not \"cutboard/1\"", gr->format_s);
        return;
    }
    if (!want(r, &gr->seed, "seed", CB_JSON_STRING, "wants a string", close) ||
        !integer(r, &gr->players, "players", 2, 9, close))
        return;
    g->players = (int)gr->players.num;
    cb_json_type t = gr->shared.type;
    if (t && t != CB_JSON_TRUE && t != CB_JSON_FALSE) {
        bad(r, gr->shared.line, "shared", "wants true or false, not %s", type_name(t));
        return;
    }
    g->shared = t == CB_JSON_TRUE;
    if (!want(r, &gr->sheets, "sheets", CB_JSON_ARRAY, "wants an array", close))
        return;
    if (g->n_sheets == 0 && gr->in_sheets.st == CB_OK) {
        bad(r, gr->sheets.line, "sheets", "is empty");
        return;
    }
    if (gr->in_sheets.st != CB_OK)
        *r->at = gr->in_sheets;
}

/* The document: 1 when read to its end (faults of the board or not), 0 on
 * a fault of the text or too many sheets. */
static int read_game(reader *r, cb_game *g)
{
    game_reader *gr = calloc(1, sizeof *gr);
    if (!gr) {
        r->s.fault = CB_JSON_NOMEM;
        return 0;
    }
    int ok, more;
    cb_json_type t = cb_json_peek(&r->s);
    if (t != CB_JSON_OBJECT) {
        ok = t != CB_JSON_END && cb_json_skip(&r->s, &t) && cb_json_finish(&r->s);
        if (ok && r->at->st == CB_OK)
            r->at->st = cb_fail(&r->at->err, CB_ERR_DATA, "%s: not a board file (the top "
                                "level is %s, not an object)", r->name, type_name(t));
    } else if ((ok = cb_json_open(&r->s))) {
        while ((more = cb_json_member(&r->s, &r->game_names)) == 1 &&
               (ok = game_member(r, g, gr)))
            ;
        ok = ok && more == 0;
        size_t close = r->s.line;
        if (ok && (ok = cb_json_finish(&r->s)))
            game_check(r, g, gr, close);
    }
    free(gr);
    return ok;
}

/* The text's own fault, in ERR: 1 when there is one. */
static int text_fault(reader *r, cb_error *err)
{
    const cb_json_scan *s = &r->s;
    const char *name = r->name;
    long line = (long)s->fault_line;
    switch (s->fault) {
    case CB_JSON_OK:
        return 0;
    case CB_JSON_NOMEM:
        cb_fail(err, CB_ERR_NOMEM, "out of memory reading %s", name);
        break;
    case CB_JSON_IO:
        cb_fail(err, CB_ERR_NOINPUT, "%s: read error", name);
        break;
    case CB_JSON_TOO_LARGE:
        cb_fail(err, CB_ERR_DATA, "%s: too large (more than %zu MiB)", name,
                (size_t)(CB_BOARD_FILE_MAX >> 20));
        break;
    case CB_JSON_NUL:
        cb_fail_line(err, CB_ERR_DATA, line, "%s:%ld: not a text file (a NUL byte)", name, line);
        break;
    case CB_JSON_EMPTY:
        cb_fail(err, CB_ERR_DATA, "%s: empty file", name);
        break;
    case CB_JSON_SYNTAX:
        if (s->too_soon)
            cb_fail_line(err, CB_ERR_DATA, line, "%s:%ld: not valid JSON (it ends too soon)",
                         name, line);
        else
            cb_fail_line(err, CB_ERR_DATA, line, "%s:%ld: not valid JSON (at \"%s\")", name,
                         line, s->near);
        break;
    case CB_JSON_TRAILING:
        cb_fail_line(err, CB_ERR_DATA, line, "%s:%ld: text after the end of the board file "
                     "(at \"%s\"): one JSON document a file", name, line, s->near);
        break;
    case CB_JSON_DUPLICATE:
        cb_fail_line(err, CB_ERR_DATA, line, "%s:%ld: key %s given twice in one object (first "
                     "on line %zu)", name, line, s->dup_key, s->dup_first_line);
        break;
    }
    return 1;
}

cb_status cb_board_json_read(FILE *f, const char *text, size_t len, const char *name,
                             const cb_theme *theme, cb_game **out, cb_error *err)
{
    *out = NULL;
    reader *r = calloc(1, sizeof *r);
    fault board = {CB_OK, {0}};
    cb_game *g = calloc(1, sizeof *g);
    if (!r || !g || cb_json_scan_open(&r->s, f, text, len) != 0) {
        if (r)
            cb_json_scan_close(&r->s);
        free(r);
        free(g);
        return cb_fail(err, CB_ERR_NOMEM, "out of memory reading %s", name);
    }
    r->name = name;
    r->theme = theme;
    r->at = &board;
    cb_json_names_init(&r->game_names, game_keys, 5);
    cb_json_names_init(&r->sheet_names, sheet_keys, 9);
    cb_json_names_init(&r->page_names, page_keys, 2);
    cb_json_names_init(&r->board_names, board_keys, 4);
    cb_json_names_init(&r->node_names, node_keys, 9);
    if (!read_game(r, g))
        cb_json_drain(&r->s);
    cb_status st;
    if (text_fault(r, err))
        st = err->status;
    else if (r->too_many_sheets)
        st = cb_fail(err, CB_ERR_DATA, "%s: sheets: has more than 9 sheets", name);
    else if ((st = board.st) != CB_OK)
        *err = board.err;
    /* Counts only: the dots go where the generator would put them. */
    for (size_t i = 0; st == CB_OK && i < g->n_sheets; i++)
        if (!g->sheets[i]->dot_xy)
            st = cb_board_place_dots(g->sheets[i], err);
    cb_json_scan_close(&r->s);
    free(r);
    if (st != CB_OK) {
        cb_game_free(g);
        return st;
    }
    *out = g;
    return CB_OK;
}

cb_status cb_game_parse_json(const char *text, size_t len, const char *name,
                             const cb_theme *theme, cb_game **out, cb_error *err)
{
    *out = NULL;
    if (!name)
        name = "board file";
    cb_status st = cb_text_check(text, len, name, err);
    if (st != CB_OK)
        return st;
    return cb_board_json_read(NULL, text, len, name, theme, out, err);
}
