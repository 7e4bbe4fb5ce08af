/* Wavefront OBJ drawings as boards (README.md, "Drawing your own board").
 *
 * `v` lines are nodes, `l` lines and the sides of `f` faces are edges. The
 * names of `o` and `g` lines mark the vertices that follow them: "start"
 * (optionally "start_MISSION"), "center" / "centre", a theme node type
 * ("tent" or "type_tent") and "dots_N". A vertex at exactly the place of an
 * earlier one is the same node (so marks can be given by loose vertices in
 * objects of their own, as Blender keeps edges inside one object). The
 * drawing lies in the xy plane (y up) or the xz plane (Blender's default
 * "Y up" export: Blender's y is -z); "# cutboard KEY VALUE" comment lines
 * give the page, trim rectangle, radius and seeds exactly (cb_obj_render
 * writes them); without them the drawing is placed as millimetres on A4, or
 * scaled to fit its trim area. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "io/board_read.h"
#include "board/decorate.h"

#define OBJ_MAX_COORD 1e6
#define DEFAULT_PAGE_W 297.0
#define DEFAULT_PAGE_H 210.0
#define DEFAULT_MARGIN 12.0
#define DEFAULT_RADIUS 6.5
#define SMALL_DRAWING 50.0  /* a drawing smaller than this is scaled up */

typedef struct {
    int kind;       /* -1 none, else cb_kind */
    int type, mission, dots, number; /* -1 none */
} mark;

typedef struct {
    double x, y, z;
    mark m;
    size_t line;
} vert;

typedef struct {
    uint32_t a, b;  /* vertex indices, 0-based */
    size_t line;
    size_t order;
} ref_edge;

typedef struct {
    const char *name;
    const cb_theme *theme;
    cb_error *err;
    size_t line;
    /* directives */
    int has_page, has_board, has_radius, players, player, shared, attempts;
    double page_w, page_h, bx, by, bw, bh, radius;
    char *game_seed, *sheet_seed;
    vert *v;
    size_t nv, total_v;
    ref_edge *e;
    size_t ne, cap_e;
    mark cur;
} obj;

static cb_status at_line(obj *o, const char *fmt, const char *a, const char *b)
{
    char msg[320];
    snprintf(msg, sizeof msg, fmt, a, b);
    return cb_fail_line(o->err, CB_ERR_DATA, (long)o->line, "%s:%zu: %s", o->name, o->line,
                        msg);
}

static cb_status oom(obj *o)
{
    return cb_fail(o->err, CB_ERR_NOMEM, "out of memory reading %s", o->name);
}

/* The next whitespace-separated word of [*p, end) into buf; 0 at the end. */
static int word(const char **p, const char *end, char *buf, size_t cap)
{
    const char *s = *p;
    while (s < end && (*s == ' ' || *s == '\t'))
        s++;
    if (s == end) {
        *p = s;
        return 0;
    }
    size_t n = 0;
    while (s < end && *s != ' ' && *s != '\t') {
        if (n + 1 < cap)
            buf[n++] = *s;
        s++;
    }
    buf[n] = '\0';
    *p = s;
    return 1;
}

static int parse_double(const char *w, double *out)
{
    char *endp;
    double d = strtod(w, &endp);
    if (endp == w || *endp || !isfinite(d) || fabs(d) > OBJ_MAX_COORD)
        return -1;
    *out = d;
    return 0;
}

static int lower_eq(const char *a, const char *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (tolower((unsigned char)a[i]) != tolower((unsigned char)b[i]) || !b[i])
            return 0;
    return 1;
}

/* Applies one object/group name to mark M. */
static cb_status name_mark(obj *o, const char *raw, mark *m)
{
    char name[128];
    snprintf(name, sizeof name, "%s", raw);
    /* Blender's ".001" suffix on duplicated names. */
    size_t n = strlen(name), k = n;
    while (k > 0 && isdigit((unsigned char)name[k - 1]))
        k--;
    if (k > 0 && k < n && name[k - 1] == '.')
        name[k - 1] = '\0';
    n = strlen(name);
    const char *rest = NULL;
    if (n >= 5 && lower_eq(name, "start", 5)) {
        if (n == 5 || name[5] == '_' || name[5] == '-' || name[5] == '.') {
            m->kind = CB_KIND_START;
            rest = n > 5 ? name + 6 : NULL;
            if (rest && *rest) {
                int k2 = cb_theme_mission_index(o->theme, rest);
                if (o->theme && k2 < 0)
                    return at_line(o, "\"%s\": \"%s\" is not a mission of the theme", raw, rest);
                m->mission = k2;
            }
            return CB_OK;
        }
    }
    if ((n == 6 && (lower_eq(name, "center", 6) || lower_eq(name, "centre", 6)))) {
        m->kind = CB_KIND_CENTER;
        return CB_OK;
    }
    if (n > 5 && lower_eq(name, "dots", 4) && (name[4] == '_' || name[4] == '-')) {
        char *endp;
        long d = strtol(name + 5, &endp, 10);
        if (*endp || d < 0 || d > CB_BOARD_MAX_DOTS)
            return at_line(o, "\"%s\": dots_N wants N in 0..16", raw, "");
        m->dots = (int)d;
        return CB_OK;
    }
    if (n > 7 && lower_eq(name, "number", 6) && (name[6] == '_' || name[6] == '-')) {
        char *endp;
        long d = strtol(name + 7, &endp, 10);
        if (*endp || d < 1 || d > CB_BOARD_MAX_NUMBER)
            return at_line(o, "\"%s\": number_N wants N in 1..999", raw, "");
        m->number = (int)d;
        return CB_OK;
    }
    const char *type = name;
    if (n > 5 && lower_eq(name, "type", 4) && (name[4] == '_' || name[4] == '-'))
        type = name + 5;
    int t = cb_theme_type_index(o->theme, type);
    if (t >= 0) {
        m->type = t;
        m->kind = CB_KIND_NODE;
    } else if (type != name && o->theme) {
        return at_line(o, "\"%s\": \"%s\" is not a node type of the theme", raw, type);
    }
    /* Any other name ("Board", "Plane") marks nothing. */
    return CB_OK;
}

static cb_status directive(obj *o, const char *p, const char *end)
{
    char key[32], w[64];
    double d[4];
    if (!word(&p, end, key, sizeof key))
        return at_line(o, "\"# cutboard\" without a key", "", "");
    struct { const char *key; int n; } nums[] = {
        {"page", 2}, {"board", 4}, {"radius", 1}, {"players", 1}, {"player", 1},
        {"shared", 1}, {"attempts", 1}};
    if (strcmp(key, "seed") == 0 || strcmp(key, "game") == 0) {
        while (p < end && (*p == ' ' || *p == '\t'))
            p++;
        char **dst = key[0] == 's' ? &o->sheet_seed : &o->game_seed;
        free(*dst);
        *dst = strndup(p, (size_t)(end - p));
        return *dst ? CB_OK : oom(o);
    }
    int n = -1;
    for (size_t k = 0; k < sizeof nums / sizeof nums[0]; k++)
        if (strcmp(key, nums[k].key) == 0)
            n = nums[k].n;
    if (n < 0)
        return at_line(o, "unknown \"# cutboard %s\" (page, board, radius, seed, game, "
                          "players, player, shared, attempts)", key, "");
    for (int k = 0; k < n; k++)
        if (!word(&p, end, w, sizeof w) || parse_double(w, &d[k]) != 0)
            return at_line(o, "\"# cutboard %s\" wants %s number(s)", key,
                           n == 1 ? "1" : n == 2 ? "2" : "4");
    if (word(&p, end, w, sizeof w))
        return at_line(o, "\"# cutboard %s\": \"%s\" is one value too many", key, w);
    if (strcmp(key, "page") == 0) {
        if (!(d[0] >= 1 && d[1] >= 1 && d[0] <= CB_BOARD_MAX_MM && d[1] <= CB_BOARD_MAX_MM))
            return at_line(o, "\"# cutboard page\": sizes run 1..10000 mm", "", "");
        o->has_page = 1, o->page_w = d[0], o->page_h = d[1];
    } else if (strcmp(key, "board") == 0) {
        if (!(d[2] >= 1 && d[3] >= 1 && d[0] >= 0 && d[1] >= 0))
            return at_line(o, "\"# cutboard board\": x y width height, in mm", "", "");
        o->has_board = 1, o->bx = d[0], o->by = d[1], o->bw = d[2], o->bh = d[3];
    } else if (strcmp(key, "radius") == 0) {
        if (!(d[0] >= 0.1 && d[0] <= 100))
            return at_line(o, "\"# cutboard radius\": 0.1..100 mm", "", "");
        o->has_radius = 1, o->radius = d[0];
    } else {
        double lo = strcmp(key, "players") == 0 ? 2 : 0;
        double hi = strcmp(key, "attempts") == 0 ? 1e9 : strcmp(key, "shared") == 0 ? 1 : 9;
        if (!(d[0] >= lo && d[0] <= hi && d[0] == floor(d[0])))
            return at_line(o, "\"# cutboard %s\": out of range", key, "");
        int v = (int)d[0];
        if (key[0] == 'a') o->attempts = v;
        else if (key[0] == 's') o->shared = v;
        else if (strcmp(key, "players") == 0) o->players = v;
        else o->player = v;
    }
    return CB_OK;
}

/* A vertex reference of an l, f or p line: "7", "-1", "7/2/3". */
static cb_status vertex_ref(obj *o, const char *w, const char *what, uint32_t *out)
{
    char num[64];
    size_t k = 0;
    while (w[k] && w[k] != '/' && k + 1 < sizeof num) {
        num[k] = w[k];
        k++;
    }
    num[k] = '\0';
    char *endp;
    long long i = strtoll(num, &endp, 10);
    if (!*num || *endp)
        return at_line(o, "%s: \"%s\" is not a vertex number", what, w);
    if (i == 0)
        return at_line(o, "%s refers to vertex 0 (OBJ counts from 1)", what, "");
    long long idx = i > 0 ? i - 1 : (long long)o->nv + i;
    if (i > 0 && (unsigned long long)i > o->total_v) {
        char msg[160];
        snprintf(msg, sizeof msg, "%s refers to vertex %lld, file has %zu", what, i, o->total_v);
        return at_line(o, "%s", msg, "");
    }
    if (idx < 0) {
        char msg[160];
        snprintf(msg, sizeof msg, "%s refers to vertex %lld, only %zu come before it", what, i,
                 o->nv);
        return at_line(o, "%s", msg, "");
    }
    *out = (uint32_t)idx;
    return CB_OK;
}

static cb_status add_edge(obj *o, uint32_t a, uint32_t b)
{
    if (o->ne == o->cap_e) {
        size_t cap = o->cap_e ? o->cap_e * 2 : 256;
        ref_edge *bigger = realloc(o->e, cap * sizeof *bigger);
        if (!bigger)
            return oom(o);
        o->e = bigger;
        o->cap_e = cap;
    }
    o->e[o->ne] = (ref_edge){a, b, o->line, o->ne};
    o->ne++;
    return CB_OK;
}

static cb_status parse_line(obj *o, const char *p, const char *end)
{
    char key[16], w[128];
    const char *s = p;
    while (s < end && (*s == ' ' || *s == '\t'))
        s++;
    if (s == end)
        return CB_OK;
    if (*s == '#') {
        static const char tag[] = "# cutboard ";
        if ((size_t)(end - s) >= sizeof tag - 1 && memcmp(s, tag, sizeof tag - 1) == 0)
            return directive(o, s + sizeof tag - 1, end);
        return CB_OK;
    }
    if (!word(&s, end, key, sizeof key))
        return CB_OK;
    if (strcmp(key, "v") == 0) {
        double c[3] = {0, 0, 0};
        int n = 0;
        while (word(&s, end, w, sizeof w)) {
            double d;
            if (parse_double(w, &d) != 0)
                return at_line(o, "v: \"%s\" is not a coordinate (a finite number, at most "
                                  "1e6 in size)", w, "");
            if (n < 3)
                c[n] = d;
            n++;
        }
        if (n < 2 || n > 7)
            return at_line(o, "v wants x y [z], not %s", n < 2 ? "fewer numbers" : "more", "");
        vert *v = &o->v[o->nv++];
        v->x = c[0], v->y = c[1], v->z = c[2];
        v->m = o->cur;
        v->line = o->line;
        return CB_OK;
    }
    int is_l = strcmp(key, "l") == 0, is_f = strcmp(key, "f") == 0, is_p = strcmp(key, "p") == 0;
    if (is_l || is_f || is_p) {
        const char *what = is_l ? "line" : is_f ? "face" : "point";
        uint32_t first = 0, prev = 0, cur = 0;
        int n = 0;
        cb_status st;
        while (word(&s, end, w, sizeof w)) {
            if ((st = vertex_ref(o, w, what, &cur)) != CB_OK)
                return st;
            if (n == 0)
                first = cur;
            else if (!is_p && (st = add_edge(o, prev, cur)) != CB_OK)
                return st;
            prev = cur;
            n++;
        }
        if (is_f && n >= 3 && (st = add_edge(o, prev, first)) != CB_OK)
            return st;
        if ((is_l && n < 2) || (is_f && n < 3) || n == 0)
            return at_line(o, "%s wants %s vertices", what, is_f ? "3 or more" : "2 or more");
        return CB_OK;
    }
    if (strcmp(key, "o") == 0 || strcmp(key, "g") == 0) {
        o->cur = (mark){-1, -1, -1, -1, -1};
        while (word(&s, end, w, sizeof w)) {
            cb_status st = name_mark(o, w, &o->cur);
            if (st != CB_OK)
                return st;
        }
        return CB_OK;
    }
    /* vn, vt, s, usemtl, mtllib and the rest describe looks, not the board. */
    return CB_OK;
}


typedef struct { double x, y, z; uint32_t i; } vkey;

static int cmp_vkey(const void *x, const void *y)
{
    const vkey *a = x, *b = y;
    if (a->x != b->x) return a->x < b->x ? -1 : 1;
    if (a->y != b->y) return a->y < b->y ? -1 : 1;
    if (a->z != b->z) return a->z < b->z ? -1 : 1;
    return (a->i > b->i) - (a->i < b->i);
}

static int cmp_edge_order(const void *x, const void *y)
{
    const ref_edge *a = x, *b = y;
    if (a->a != b->a) return a->a < b->a ? -1 : 1;
    if (a->b != b->b) return a->b < b->b ? -1 : 1;
    return (a->order > b->order) - (a->order < b->order);
}

static int cmp_order(const void *x, const void *y)
{
    const ref_edge *a = x, *b = y;
    return (a->order > b->order) - (a->order < b->order);
}

/* Vertices to nodes (coincident vertices are one node), marks merged, edges
 * mapped and deduplicated, the drawing placed on the page. */
static cb_status build(obj *o, cb_board *b)
{
    size_t n = o->nv;
    uint32_t *node_of = malloc(n * sizeof *node_of);
    vkey *keys = malloc(n * sizeof *keys);
    if (!node_of || !keys) {
        free(node_of);
        free(keys);
        return oom(o);
    }
    for (size_t i = 0; i < n; i++)
        keys[i] = (vkey){o->v[i].x, o->v[i].y, o->v[i].z, (uint32_t)i};
    qsort(keys, n, sizeof *keys, cmp_vkey);
    /* first[i]: the earliest vertex at i's place. */
    for (size_t k = 0; k < n;) {
        size_t j = k;
        while (j < n && keys[j].x == keys[k].x && keys[j].y == keys[k].y && keys[j].z == keys[k].z)
            j++;
        for (size_t t = k; t < j; t++)
            node_of[keys[t].i] = keys[k].i; /* sorted by index within a place */
        k = j;
    }
    free(keys);
    size_t nn = 0;
    for (size_t i = 0; i < n; i++)
        node_of[i] = node_of[i] == i ? (uint32_t)nn++ : node_of[node_of[i]];
    /* Which plane: z constant (xy, y up) or y constant (xz, Blender's y = -z). */
    int z_flat = 1, y_flat = 1;
    for (size_t i = 1; i < n; i++) {
        z_flat &= o->v[i].z == o->v[0].z;
        y_flat &= o->v[i].y == o->v[0].y;
    }
    if (!z_flat && !y_flat) {
        free(node_of);
        return cb_fail(o->err, CB_ERR_DATA,
                       "%s: the drawing is not flat (neither every z nor every y is the same; "
                       "draw in Blender's top view)", o->name);
    }
    b->nodes = calloc(nn, sizeof *b->nodes);
    if (!b->nodes) {
        free(node_of);
        return oom(o);
    }
    b->n_nodes = nn;
    for (size_t i = 0; i < nn; i++) {
        b->nodes[i].kind = CB_KIND_NODE;
        b->nodes[i].type = b->nodes[i].mission = b->nodes[i].dots = -1;
    }
    int centre = -1;
    size_t centre_line = 0;
    for (size_t i = 0; i < n; i++) {
        const vert *v = &o->v[i];
        cb_node *d = &b->nodes[node_of[i]];
        d->x = v->x;
        d->y = z_flat ? v->y : -v->z; /* "up" for now */
        o->line = v->line;
        if (v->m.kind == CB_KIND_CENTER) {
            if (centre >= 0 && (uint32_t)centre != node_of[i]) {
                char msg[160];
                snprintf(msg, sizeof msg, "a second centre (the first is on line %zu)",
                         centre_line);
                free(node_of);
                return at_line(o, "%s", msg, "");
            }
            centre = (int)node_of[i];
            centre_line = v->line;
        }
        if ((v->m.kind == CB_KIND_CENTER && d->kind == CB_KIND_START) ||
            (v->m.kind == CB_KIND_START && d->kind == CB_KIND_CENTER)) {
            free(node_of);
            return at_line(o, "this vertex marks a node as both a start and the centre", "", "");
        }
        if (v->m.kind == CB_KIND_START || v->m.kind == CB_KIND_CENTER)
            d->kind = (cb_kind)v->m.kind;
        if (v->m.type >= 0)
            d->type = v->m.type;
        if (v->m.mission >= 0)
            d->mission = v->m.mission;
        if (v->m.dots >= 0)
            d->dots = v->m.dots;
        if (v->m.number >= 0)
            d->number = v->m.number;
    }
    if (centre < 0) {
        free(node_of);
        return cb_fail(o->err, CB_ERR_DATA,
                       "%s: no centre (put the centre's vertex in an object or group named "
                       "\"center\")", o->name);
    }
    b->center = (uint32_t)centre;
    /* Edges: mapped to nodes, loops rejected, duplicates dropped, file order kept. */
    size_t m = 0;
    for (size_t k = 0; k < o->ne; k++) {
        ref_edge e = o->e[k];
        uint32_t a = node_of[e.a], c = node_of[e.b];
        o->line = e.line;
        if (a == c) {
            char va[32], vb[32];
            snprintf(va, sizeof va, "%u", e.a + 1);
            snprintf(vb, sizeof vb, "%u", e.b + 1);
            free(node_of);
            if (e.a == e.b)
                return at_line(o, "edge from vertex %s to itself", va, "");
            return at_line(o, "edge between vertices %s and %s, which are at the same place",
                           va, vb);
        }
        o->e[m++] = (ref_edge){a < c ? a : c, a < c ? c : a, e.line, k};
    }
    free(node_of);
    if (m)
        qsort(o->e, m, sizeof *o->e, cmp_edge_order);
    size_t kept = 0;
    for (size_t k = 0; k < m; k++)
        if (kept == 0 || o->e[k].a != o->e[kept - 1].a || o->e[k].b != o->e[kept - 1].b)
            o->e[kept++] = o->e[k];
    if (kept)
        qsort(o->e, kept, sizeof *o->e, cmp_order);
    b->edges = malloc((kept ? kept : 1) * sizeof *b->edges);
    if (!b->edges)
        return oom(o);
    for (size_t k = 0; k < kept; k++)
        b->edges[k] = (cb_edge){o->e[k].a, o->e[k].b};
    b->n_edges = kept;

    /* Placing the drawing: x right, "up" up, onto a page with y down. */
    double minx = INFINITY, maxx = -INFINITY, minu = INFINITY, maxu = -INFINITY;
    for (size_t i = 0; i < nn; i++) {
        minx = fmin(minx, b->nodes[i].x), maxx = fmax(maxx, b->nodes[i].x);
        minu = fmin(minu, b->nodes[i].y), maxu = fmax(maxu, b->nodes[i].y);
    }
    double w = maxx - minx, h = maxu - minu;
    if (o->has_board && !o->has_page)
        return cb_fail(o->err, CB_ERR_DATA, "%s: \"# cutboard board\" needs \"# cutboard page\"",
                       o->name);
    if (o->has_page && o->has_board) {
        if (o->bx + o->bw > o->page_w || o->by + o->bh > o->page_h)
            return cb_fail(o->err, CB_ERR_DATA, "%s: the board rectangle is off the page",
                           o->name);
        b->page_w = o->page_w, b->page_h = o->page_h;
        b->board_x = o->bx, b->board_y = o->by, b->board_w = o->bw, b->board_h = o->bh;
        b->node_radius = o->has_radius ? o->radius : DEFAULT_RADIUS;
        for (size_t i = 0; i < nn; i++)
            b->nodes[i].y = b->page_h - b->nodes[i].y;
    } else {
        if (!(w > 0 && h > 0))
            return cb_fail(o->err, CB_ERR_DATA,
                           "%s: the drawing has no area (%g x %g); a board needs nodes on "
                           "four sides", o->name, w, h);
        b->page_w = o->has_page ? o->page_w : w >= h ? DEFAULT_PAGE_W : DEFAULT_PAGE_H;
        b->page_h = o->has_page ? o->page_h : w >= h ? DEFAULT_PAGE_H : DEFAULT_PAGE_W;
        double aw = b->page_w - 2 * DEFAULT_MARGIN, ah = b->page_h - 2 * DEFAULT_MARGIN;
        if (!(aw > 0 && ah > 0))
            return cb_fail(o->err, CB_ERR_DATA, "%s: the page is smaller than its margins",
                           o->name);
        double s = 1;
        if (w > aw || h > ah || fmax(w, h) < SMALL_DRAWING)
            s = fmin(aw / w, ah / h);
        b->board_w = s * w, b->board_h = s * h;
        b->board_x = (b->page_w - b->board_w) / 2, b->board_y = (b->page_h - b->board_h) / 2;
        for (size_t i = 0; i < nn; i++) {
            b->nodes[i].x = b->board_x + s * (b->nodes[i].x - minx);
            b->nodes[i].y = b->board_y + s * (maxu - b->nodes[i].y);
        }
        b->node_radius = o->has_radius ? o->radius : DEFAULT_RADIUS * (s < 1 ? s : 1);
    }
    /* Sides of starts: the trim line each sits on, else the nearest. */
    int mission = 0;
    for (size_t i = 0; i < nn; i++) {
        cb_node *v = &b->nodes[i];
        if (v->kind == CB_KIND_START) {
            double d[4] = {fabs(v->y - b->board_y), fabs(v->x - (b->board_x + b->board_w)),
                           fabs(v->y - (b->board_y + b->board_h)), fabs(v->x - b->board_x)};
            int best = 0;
            for (int k = 1; k < 4; k++)
                if (d[k] < d[best])
                    best = k;
            v->side = (cb_side)best;
            v->type = -1;
            if (v->mission < 0 && o->theme && o->theme->n_missions)
                v->mission = (int)((size_t)mission % o->theme->n_missions);
            mission++;
        } else {
            v->side = CB_SIDE_NONE;
            v->mission = -1;
            if (v->kind == CB_KIND_CENTER)
                v->type = -1;
        }
        if (v->dots < 0)
            v->dots = cb_node_dots_wanted(b, (uint32_t)i, o->players);
    }
    cb_status st = cb_board_limits_check(b, o->name, 0, o->err);
    return st == CB_OK ? cb_board_place_dots(b, o->err) : st;
}

cb_status cb_game_parse_obj(const char *text, size_t len, const char *name,
                            const cb_theme *theme, cb_game **out, cb_error *err)
{
    *out = NULL;
    if (!name)
        name = "OBJ file";
    cb_status st = cb_text_check(text, len, name, err);
    if (st != CB_OK)
        return st;
    obj o;
    memset(&o, 0, sizeof o);
    o.name = name, o.theme = theme, o.err = err;
    o.players = 4, o.shared = 1, o.attempts = 1;
    o.cur = (mark){-1, -1, -1, -1, -1};
    /* First pass: how many vertices, so references name the total. */
    for (size_t i = 0; i < len;) {
        size_t j = i;
        while (j < len && text[j] != '\n')
            j++;
        size_t k = i;
        while (k < j && (text[k] == ' ' || text[k] == '\t'))
            k++;
        if (k + 1 < j && text[k] == 'v' && (text[k + 1] == ' ' || text[k + 1] == '\t'))
            o.total_v++;
        i = j + 1;
    }
    if (o.total_v == 0)
        return cb_fail(err, CB_ERR_DATA, "%s: no vertices (\"v x y z\" lines); not an OBJ drawing",
                       name);
    if (o.total_v > CB_BOARD_MAX_NODES)
        return cb_fail(err, CB_ERR_DATA, "%s: %zu vertices is more than %d", name, o.total_v,
                       CB_BOARD_MAX_NODES);
    o.v = malloc(o.total_v * sizeof *o.v);
    cb_game *g = calloc(1, sizeof *g);
    cb_board *b = calloc(1, sizeof *b);
    if (!o.v || !g || !b || !(g->sheets = calloc(1, sizeof *g->sheets))) {
        st = oom(&o);
        goto done;
    }
    g->sheets[0] = b;
    g->n_sheets = 1;
    b = NULL;
    for (size_t i = 0; i < len;) {
        size_t j = i;
        while (j < len && text[j] != '\n')
            j++;
        size_t e = j;
        if (e > i && text[e - 1] == '\r')
            e--;
        o.line++;
        if ((st = parse_line(&o, text + i, text + e)) != CB_OK)
            goto done;
        i = j + 1;
    }
    o.line = 0;
    b = g->sheets[0];
    if ((st = build(&o, b)) != CB_OK) {
        b = NULL;
        goto done;
    }
    b = NULL;
    g->players = o.players;
    g->shared = o.shared;
    g->sheets[0]->player = o.shared ? 0 : o.player;
    g->sheets[0]->attempts = o.attempts;
    {
        const char *base = strrchr(name, '/');
        base = base ? base + 1 : name;
        g->seed = strdup(o.game_seed ? o.game_seed : base);
        g->sheets[0]->seed = strdup(o.sheet_seed ? o.sheet_seed : g->seed ? g->seed : "");
        if (!g->seed || !g->sheets[0]->seed)
            st = oom(&o);
    }
done:
    free(o.v);
    free(o.e);
    free(o.game_seed);
    free(o.sheet_seed);
    cb_board_free(b);
    if (st != CB_OK) {
        cb_game_free(g);
        return st;
    }
    *out = g;
    return CB_OK;
}
