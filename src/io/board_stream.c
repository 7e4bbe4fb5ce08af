/* The fast board file reader: one pass over the text, straight into the
 * cb_board arrays, with no JSON tree and (reading a file) no copy of the
 * text: a 1M-node poster's 158 MB file reads in a 1 MiB window.
 *
 * It only ever says yes when the precise reader (board_read.c, on a cJSON
 * tree) would say yes with the same game: every check that reader makes is
 * made here too, and so is every rule of the JSON cJSON accepts. Anything
 * else (a value out of range, a missing field, a duplicated key, an escape
 * in a string, a key repeated, a number written as cJSON reads but JSON
 * does not) is declined, and the caller hands the text to the precise
 * reader, whose messages name the line and field at fault. So messages and
 * exit codes are the precise reader's, and only good files take this path. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "board/decorate.h"
#include "board/dots.h"
#include "io/board_read.h"

#define WINDOW (1 << 20)    /* bytes read at a time */
#define TOKEN 4096          /* any token the fast reader takes fits in this */
#define MAX_DEPTH 64        /* nesting of values it skips */

static const char *const kind_names[] = {"node", "start", "center"};
static const char *const side_names[] = {"top", "right", "bottom", "left"};

typedef struct {
    FILE *f;                /* the file, or NULL for TEXT */
    const char *text;
    size_t text_len, text_pos;
    char *buf;              /* WINDOW + 1 bytes; a NUL after the data */
    char *p, *end;
    int eof;
    int io_error;
    size_t total;           /* bytes read so far */
    int declined;           /* for the precise reader */
    int too_many_sheets;    /* refused at once, without reading the rest */
    int oom;
    const cb_theme *theme;
} scan;

static int decline(scan *s)
{
    s->declined = 1;
    return 0;
}

/* Keeps what is left of the window and reads on after it. */
static void refill(scan *s)
{
    size_t keep = (size_t)(s->end - s->p);
    memmove(s->buf, s->p, keep);
    size_t room = WINDOW - keep, got;
    if (s->f) {
        got = fread(s->buf + keep, 1, room, s->f);
        if (got < room) {
            s->eof = 1;
            s->io_error = ferror(s->f) != 0;
        }
    } else {
        got = s->text_len - s->text_pos < room ? s->text_len - s->text_pos : room;
        memcpy(s->buf + keep, s->text + s->text_pos, got);
        s->text_pos += got;
        s->eof = s->text_pos == s->text_len;
    }
    s->total += got;
    s->p = s->buf;
    s->end = s->buf + keep + got;
    *s->end = '\0'; /* the sentinel: no token runs past it */
    if (s->total > CB_BOARD_FILE_MAX)
        decline(s);
}

/* The next token's first byte after JSON white space, with at least TOKEN
 * bytes in the window unless the text ends first; 0 at the end or on a
 * byte cJSON would skip but JSON has no place for. */
static int next(scan *s)
{
    for (;;) {
        while (*s->p == ' ' || *s->p == '\n' || *s->p == '\t' || *s->p == '\r')
            s->p++;
        if (s->p == s->end && !s->eof) {
            refill(s);
            continue;
        }
        if (s->end - s->p < TOKEN && !s->eof)
            refill(s);
        if (s->declined)
            return 0;
        unsigned char c = (unsigned char)*s->p;
        if (c <= ' ' || c == 0x7f) /* control bytes, NUL, the end */
            return 0;
        return c;
    }
}

/* A list (array or object) closed by CLOSE that ends at once: consumed. */
static int list_empty(scan *s, int close)
{
    if (next(s) != close)
        return 0;
    s->p++;
    return 1;
}

/* After an item of a list closed by CLOSE: 1 when the list ends there, 0
 * when a comma brings another item, -1 (declined) for anything else. */
static int list_end(scan *s, int close)
{
    int c = next(s);
    s->p++;
    if (c == close)
        return 1;
    return c == ',' ? 0 : (decline(s), -1);
}

static int expect(scan *s, char c)
{
    if (next(s) != c)
        return decline(s);
    s->p++;
    return 1;
}

/* A string without escapes or control bytes, at most CAP - 1 bytes, into
 * OUT (NUL-terminated). */
static int string(scan *s, char *out, size_t cap)
{
    if (next(s) != '"')
        return decline(s);
    const char *q = ++s->p;
    while ((unsigned char)*q >= ' ' && *q != '"' && *q != '\\')
        q++;
    size_t n = (size_t)(q - s->p);
    if (*q != '"' || n >= cap) /* an escape, a control byte, the end, too long */
        return decline(s);
    memcpy(out, s->p, n);
    out[n] = '\0';
    s->p = (char *)q + 1;
    return 1;
}

static int is_number_byte(char c)
{
    return (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.' || c == 'e' || c == 'E';
}

static const double pow10_exact[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                     1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                     1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* A JSON number (RFC 8259's grammar, which cJSON's strtod reads the same),
 * as strtod reads it. */
static int number(scan *s, double *out)
{
    int c = next(s);
    if (c != '-' && !(c >= '0' && c <= '9'))
        return decline(s);
    const char *q = s->p;
    int neg = *q == '-';
    q += neg;
    uint64_t mant = 0;
    int digits = 0, frac = 0, exact = 1;
    if (*q == '0') {
        q++;
        digits = 1;
    } else if (*q >= '1' && *q <= '9') {
        while (*q >= '0' && *q <= '9') {
            if (digits < 19)
                mant = mant * 10 + (uint64_t)(*q - '0');
            else
                exact = 0;
            digits++;
            q++;
        }
    } else {
        return decline(s);
    }
    if (*q == '.') {
        q++;
        if (!(*q >= '0' && *q <= '9'))
            return decline(s);
        while (*q >= '0' && *q <= '9') {
            if (digits < 19)
                mant = mant * 10 + (uint64_t)(*q - '0');
            else
                exact = 0;
            digits++;
            frac++;
            q++;
        }
    }
    if (*q == 'e' || *q == 'E') {
        exact = 0;
        q++;
        if (*q == '+' || *q == '-')
            q++;
        if (!(*q >= '0' && *q <= '9'))
            return decline(s);
        while (*q >= '0' && *q <= '9')
            q++;
    }
    size_t len = (size_t)(q - s->p);
    /* cJSON reads the longest run of these bytes (up to 63) with strtod:
     * a run longer than the number is one it reads differently. */
    if (is_number_byte(*q) || len > 63)
        return decline(s);
    /* Up to 15 digits and 22 decimals: the mantissa and the power of ten
     * are exact doubles, so one division is the correctly rounded value,
     * which is what strtod returns. */
    if (exact && digits <= 15 && frac <= 22) {
        double v = (double)mant;
        if (frac)
            v /= pow10_exact[frac];
        *out = neg ? -v : v;
    } else {
        char tmp[64];
        memcpy(tmp, s->p, len);
        tmp[len] = '\0';
        *out = strtod(tmp, NULL);
    }
    s->p = (char *)q;
    return 1;
}

/* Skips any value (an unknown key's), declining strings with escapes. */
static int skip(scan *s, int depth)
{
    int c = next(s);
    if (depth > MAX_DEPTH)
        return decline(s);
    if (c == '"') {
        const char *q = s->p + 1;
        for (;;) {
            while ((unsigned char)*q >= ' ' && *q != '"' && *q != '\\')
                q++;
            if (*q == '"')
                break;
            if (*q != '\0' || q != s->end || s->eof)
                return decline(s);
            s->p = (char *)q; /* what was scanned is done with */
            refill(s);
            if (s->declined)
                return 0;
            q = s->p;
        }
        s->p = (char *)q + 1;
        return 1;
    }
    if (c == '{' || c == '[') {
        char close = c == '{' ? '}' : ']';
        s->p++;
        if (list_empty(s, close))
            return 1;
        for (;;) {
            if (c == '{') {
                char key[64];
                if (!string(s, key, sizeof key) || !expect(s, ':'))
                    return 0;
            }
            if (!skip(s, depth + 1))
                return 0;
            int end = list_end(s, close);
            if (end)
                return end > 0;
        }
    }
    if (c == 't' || c == 'f' || c == 'n') {
        const char *word = c == 't' ? "true" : c == 'f' ? "false" : "null";
        size_t n = strlen(word);
        if (strncmp(s->p, word, n) != 0)
            return decline(s);
        s->p += n;
        return 1;
    }
    double v;
    return number(s, &v);
}

/* The members of an object: calls MEMBER(s, key, ctx) for each, which reads
 * the value (or skips it). */
typedef int (*member_fn)(scan *s, const char *key, void *ctx);

static int object(scan *s, member_fn member, void *ctx)
{
    if (!expect(s, '{'))
        return 0;
    if (list_empty(s, '}'))
        return 1;
    for (;;) {
        char key[64];
        if (!string(s, key, sizeof key) || !expect(s, ':') || !member(s, key, ctx))
            return 0;
        int end = list_end(s, '}');
        if (end)
            return end > 0;
    }
}

/* Each bit a known key already read: a second one is the precise reader's
 * (cJSON takes the first; so could this, but it is rare enough). */
static int first_time(scan *s, unsigned *seen, unsigned bit)
{
    if (*seen & bit)
        return decline(s);
    *seen |= bit;
    return 1;
}

/* A member's number, refused when the member came before. */
static int number_once(scan *s, unsigned *seen, unsigned bit, double *out)
{
    return first_time(s, seen, bit) && number(s, out);
}

/* The precise reader's number(): finite, in [lo, hi]; integer(): whole. */
static int in_range(double d, double lo, double hi)
{
    return isfinite(d) && !(d < lo || d > hi);
}

static int whole(double d, double lo, double hi)
{
    return in_range(d, lo, hi) && d == floor(d);
}

/* ---- a node ------------------------------------------------------------------ */

typedef struct {
    cb_board *b;
    size_t cap_nodes, cap_dots;
    size_t with_positions;  /* nodes that give their dots as positions */
    size_t centers;         /* nodes of kind center */
    unsigned seen;
    double id;
    int has_side, has_mission, has_type;
    char side[16], type[256];
    int dots_as_list;
} node_reader;

enum { N_ID = 1, N_X = 2, N_Y = 4, N_KIND = 8, N_SIDE = 16, N_MISSION = 32, N_TYPE = 64,
       N_NUMBER = 128, N_DOTS = 256 };

static int grow(scan *s, void **p, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return 1;
    size_t cap2 = *cap ? *cap * 2 : 1024;
    while (cap2 < need)
        cap2 *= 2;
    void *q = realloc(*p, cap2 * size);
    if (!q) {
        s->oom = 1;
        return 0;
    }
    *p = q;
    *cap = cap2;
    return 1;
}

static int dot_positions(scan *s, node_reader *nr, cb_node *v)
{
    cb_board *b = nr->b;
    v->first_dot = (uint32_t)b->n_dot_xy;
    if (!expect(s, '['))
        return 0;
    if (list_empty(s, ']'))
        return 1;
    for (;;) {
        double x, y;
        if (v->dots == CB_BOARD_MAX_DOTS || !expect(s, '[') || !number(s, &x) ||
            !expect(s, ',') || !number(s, &y) || !expect(s, ']'))
            return decline(s);
        if (!isfinite(x) || !isfinite(y) || x < 0 || y < 0) /* the page is checked later */
            return decline(s);
        if (!grow(s, (void **)&b->dot_xy, &nr->cap_dots, b->n_dot_xy + 1, sizeof *b->dot_xy))
            return 0;
        b->dot_xy[b->n_dot_xy][0] = x;
        b->dot_xy[b->n_dot_xy][1] = y;
        b->n_dot_xy++;
        v->dots++;
        int end = list_end(s, ']');
        if (end)
            return end > 0;
    }
}

static int find_name(const char *name, const char *const *names, int n)
{
    for (int i = 0; i < n; i++)
        if (strcmp(name, names[i]) == 0)
            return i;
    return -1;
}

static int node_member(scan *s, const char *key, void *ctx)
{
    node_reader *nr = ctx;
    cb_node *v = &nr->b->nodes[nr->b->n_nodes];
    char text[256];
    double d;
    if (strcmp(key, "id") == 0)
        return number_once(s, &nr->seen, N_ID, &nr->id);
    if (strcmp(key, "x_mm") == 0)
        return number_once(s, &nr->seen, N_X, &v->x);
    if (strcmp(key, "y_mm") == 0)
        return number_once(s, &nr->seen, N_Y, &v->y);
    if (strcmp(key, "kind") == 0) {
        if (!first_time(s, &nr->seen, N_KIND) || !string(s, text, sizeof text))
            return 0;
        int k = find_name(text, kind_names, 3);
        if (k < 0)
            return decline(s);
        v->kind = (cb_kind)k;
        return 1;
    }
    if (strcmp(key, "side") == 0)
        return first_time(s, &nr->seen, N_SIDE) && string(s, nr->side, sizeof nr->side);
    if (strcmp(key, "mission") == 0) {
        if (!first_time(s, &nr->seen, N_MISSION) || !string(s, text, sizeof text))
            return 0;
        if (s->theme && (v->mission = cb_theme_mission_index(s->theme, text)) < 0)
            return decline(s);
        return 1;
    }
    if (strcmp(key, "type") == 0)
        return first_time(s, &nr->seen, N_TYPE) && string(s, nr->type, sizeof nr->type);
    if (strcmp(key, "number") == 0) {
        if (!first_time(s, &nr->seen, N_NUMBER) || !number(s, &d))
            return 0;
        if (!whole(d, 1, CB_BOARD_MAX_NUMBER))
            return decline(s);
        v->number = (int)d;
        return 1;
    }
    if (strcmp(key, "dots") == 0) {
        if (!first_time(s, &nr->seen, N_DOTS))
            return 0;
        if (next(s) == '[') {
            nr->dots_as_list = 1;
            return dot_positions(s, nr, v);
        }
        if (!number(s, &d))
            return 0;
        if (!whole(d, 0, CB_BOARD_MAX_DOTS))
            return decline(s);
        v->dots = (int)d;
        return 1;
    }
    return skip(s, 1);
}

/* The checks that need the whole node (its kind decides what it may have). */
static int node_done(scan *s, node_reader *nr, size_t i)
{
    cb_node *v = &nr->b->nodes[i];
    if ((nr->seen & (N_ID | N_X | N_Y | N_KIND)) != (N_ID | N_X | N_Y | N_KIND) ||
        nr->id != (double)i || !isfinite(v->x) || !isfinite(v->y))
        return decline(s);
    if (v->kind == CB_KIND_START) {
        int k = nr->seen & N_SIDE ? find_name(nr->side, side_names, 4) : -1;
        if (k < 0)
            return decline(s);
        v->side = (cb_side)k;
    } else if (nr->seen & (N_SIDE | N_MISSION)) {
        return decline(s);
    }
    if (nr->seen & N_TYPE) {
        const char *fixed = v->kind == CB_KIND_START ? "start"
                            : v->kind == CB_KIND_CENTER ? "center" : NULL;
        if (fixed && strcmp(nr->type, fixed) != 0)
            return decline(s);
        if (!fixed && strcmp(nr->type, "node") != 0 && s->theme &&
            (v->type = cb_theme_type_index(s->theme, nr->type)) < 0)
            return decline(s);
    }
    nr->with_positions += (size_t)nr->dots_as_list;
    nr->centers += v->kind == CB_KIND_CENTER;
    return 1;
}

static int nodes_array(scan *s, node_reader *nr)
{
    cb_board *b = nr->b;
    if (!expect(s, '['))
        return 0;
    if (next(s) == ']')
        return decline(s); /* no nodes */
    for (;;) {
        size_t i = b->n_nodes;
        if (i == CB_BOARD_MAX_NODES)
            return decline(s);
        if (!grow(s, (void **)&b->nodes, &nr->cap_nodes, i + 1, sizeof *b->nodes))
            return 0;
        b->nodes[i] = (cb_node){0};
        b->nodes[i].side = CB_SIDE_NONE;
        b->nodes[i].type = b->nodes[i].mission = -1;
        nr->seen = 0;
        nr->dots_as_list = 0;
        if (!object(s, node_member, nr) || !node_done(s, nr, i))
            return 0;
        b->n_nodes++;
        int end = list_end(s, ']');
        if (end)
            return end > 0;
    }
}

/* ---- edges ------------------------------------------------------------------- */

static int edges_array(scan *s, cb_board *b)
{
    size_t cap = 0;
    if (!expect(s, '['))
        return 0;
    if (list_empty(s, ']'))
        return 1;
    for (;;) {
        double a, c;
        if (!expect(s, '[') || !number(s, &a) || !expect(s, ',') || !number(s, &c) ||
            !expect(s, ']'))
            return decline(s);
        /* Whole, not negative, and a node id (the count is checked later). */
        if (!(a >= 0 && a == floor(a) && a < 4294967295.0) ||
            !(c >= 0 && c == floor(c) && c < 4294967295.0) || a == c)
            return decline(s);
        if (!grow(s, (void **)&b->edges, &cap, b->n_edges + 1, sizeof *b->edges))
            return 0;
        uint32_t x = (uint32_t)a, y = (uint32_t)c;
        b->edges[b->n_edges++] = (cb_edge){x < y ? x : y, x < y ? y : x};
        int end = list_end(s, ']');
        if (end)
            return end > 0;
    }
}

/* Whether two edges may be the same pair: edges bucketed by their first end
 * (a counting sort, no comparisons), then each short bucket searched; a
 * node with more than 64 edges is left to the precise reader too. */
static int may_have_duplicate(scan *s, const cb_board *b)
{
    size_t n = b->n_nodes, m = b->n_edges;
    uint32_t *start = calloc(n + 1, sizeof *start), *other = malloc((m ? m : 1) * sizeof *other);
    int dup = 0;
    if (!start || !other) {
        s->oom = 1;
        dup = 1;
    }
    for (size_t e = 0; !dup && e < m; e++)
        start[b->edges[e].a + 1]++;
    for (size_t v = 0; !dup && v < n; v++)
        start[v + 1] += start[v];
    for (size_t e = 0; !dup && e < m; e++)
        other[start[b->edges[e].a]++] = b->edges[e].b;
    /* start[v] is now the end of v's bucket. */
    for (size_t v = 0, lo = 0; !dup && v < n; lo = start[v], v++) {
        if (start[v] - lo > 64)
            dup = 1;
        for (size_t i = lo; !dup && i < start[v]; i++)
            for (size_t k = lo; k < i; k++)
                if (other[k] == other[i]) {
                    dup = 1;
                    break;
                }
    }
    free(start);
    free(other);
    return dup;
}

/* ---- a sheet ----------------------------------------------------------------- */

typedef struct {
    cb_board *b;
    node_reader nodes;
    unsigned seen;
    double player, page_w, page_h, x, y, w, h, radius, center, attempts;
} sheet_reader;

enum { S_SEED = 1, S_PLAYER = 2, S_PAGE = 4, S_BOARD = 8, S_RADIUS = 16, S_CENTER = 32,
       S_NODES = 64, S_EDGES = 128, S_ATTEMPTS = 256, P_W = 512, P_H = 1024, B_X = 2048,
       B_Y = 4096, B_W = 8192, B_H = 16384 };

static int page_member(scan *s, const char *key, void *ctx)
{
    sheet_reader *sr = ctx;
    if (strcmp(key, "width_mm") == 0)
        return number_once(s, &sr->seen, P_W, &sr->page_w);
    if (strcmp(key, "height_mm") == 0)
        return number_once(s, &sr->seen, P_H, &sr->page_h);
    return skip(s, 2);
}

static int board_member(scan *s, const char *key, void *ctx)
{
    sheet_reader *sr = ctx;
    if (strcmp(key, "x_mm") == 0)
        return number_once(s, &sr->seen, B_X, &sr->x);
    if (strcmp(key, "y_mm") == 0)
        return number_once(s, &sr->seen, B_Y, &sr->y);
    if (strcmp(key, "width_mm") == 0)
        return number_once(s, &sr->seen, B_W, &sr->w);
    if (strcmp(key, "height_mm") == 0)
        return number_once(s, &sr->seen, B_H, &sr->h);
    return skip(s, 2);
}

static int sheet_member(scan *s, const char *key, void *ctx)
{
    sheet_reader *sr = ctx;
    if (strcmp(key, "seed") == 0) {
        char seed[TOKEN];
        if (!first_time(s, &sr->seen, S_SEED) || !string(s, seed, sizeof seed))
            return 0;
        if (!(sr->b->seed = strdup(seed)))
            s->oom = 1;
        return sr->b->seed != NULL;
    }
    if (strcmp(key, "player") == 0)
        return number_once(s, &sr->seen, S_PLAYER, &sr->player);
    if (strcmp(key, "page") == 0)
        return first_time(s, &sr->seen, S_PAGE) && object(s, page_member, sr);
    if (strcmp(key, "board") == 0)
        return first_time(s, &sr->seen, S_BOARD) && object(s, board_member, sr);
    if (strcmp(key, "node_radius_mm") == 0)
        return number_once(s, &sr->seen, S_RADIUS, &sr->radius);
    if (strcmp(key, "center") == 0)
        return number_once(s, &sr->seen, S_CENTER, &sr->center);
    if (strcmp(key, "nodes") == 0)
        return first_time(s, &sr->seen, S_NODES) && nodes_array(s, &sr->nodes);
    if (strcmp(key, "edges") == 0)
        return first_time(s, &sr->seen, S_EDGES) && edges_array(s, sr->b);
    if (strcmp(key, "attempts") == 0)
        return number_once(s, &sr->seen, S_ATTEMPTS, &sr->attempts);
    return skip(s, 1);
}

/* What the precise reader checks of a sheet, in any order: it passes them
 * all or this declines. */
static int sheet_done(scan *s, sheet_reader *sr)
{
    cb_board *b = sr->b;
    unsigned all = S_SEED | S_PLAYER | S_PAGE | S_BOARD | S_RADIUS | S_CENTER | S_NODES |
                   S_EDGES | P_W | P_H | B_X | B_Y | B_W | B_H;
    if ((sr->seen & all) != all || !whole(sr->player, 0, 9) ||
        !in_range(sr->page_w, 1, CB_BOARD_MAX_MM) || !in_range(sr->page_h, 1, CB_BOARD_MAX_MM))
        return decline(s);
    b->player = (int)sr->player;
    b->page_w = sr->page_w;
    b->page_h = sr->page_h;
    if (!in_range(sr->x, 0, b->page_w) || !in_range(sr->y, 0, b->page_h) ||
        !in_range(sr->w, 1, b->page_w - sr->x) || !in_range(sr->h, 1, b->page_h - sr->y) ||
        !in_range(sr->radius, 0.1, 100))
        return decline(s);
    b->board_x = sr->x;
    b->board_y = sr->y;
    b->board_w = sr->w;
    b->board_h = sr->h;
    b->node_radius = sr->radius;
    size_t n = b->n_nodes;
    if (!whole(sr->center, 0, (double)n - 1))
        return decline(s);
    b->center = (uint32_t)sr->center;
    if (sr->nodes.centers != 1 || b->nodes[b->center].kind != CB_KIND_CENTER)
        return decline(s);
    /* Dots as positions on every node or on none. */
    size_t with = sr->nodes.with_positions;
    if (with && with != n)
        return decline(s);
    if (with && !b->dot_xy && !(b->dot_xy = malloc(sizeof *b->dot_xy))) {
        s->oom = 1; /* every node gave an empty list: no dots, none placed */
        return 0;
    }
    for (size_t i = 0; i < n; i++) {
        const cb_node *v = &b->nodes[i];
        if (!(v->x >= 0 && v->x <= b->page_w && v->y >= 0 && v->y <= b->page_h))
            return decline(s);
    }
    for (size_t k = 0; k < b->n_dot_xy; k++)
        if (b->dot_xy[k][0] > b->page_w || b->dot_xy[k][1] > b->page_h)
            return decline(s);
    for (size_t e = 0; e < b->n_edges; e++)
        if (b->edges[e].b >= n) /* b is the larger end */
            return decline(s);
    if (may_have_duplicate(s, b))
        return s->oom ? 0 : decline(s);
    b->attempts = 1;
    if (sr->seen & S_ATTEMPTS) {
        if (!whole(sr->attempts, 0, 1e9))
            return decline(s);
        b->attempts = (int)sr->attempts;
    }
    /* The arrays grew by doubling: give back what is not used. */
    cb_node *nodes = realloc(b->nodes, n * sizeof *nodes);
    if (nodes)
        b->nodes = nodes;
    if (b->n_edges) {
        cb_edge *edges = realloc(b->edges, b->n_edges * sizeof *edges);
        if (edges)
            b->edges = edges;
    } else if (!b->edges && !(b->edges = malloc(sizeof *b->edges))) {
        s->oom = 1;
        return 0;
    }
    return 1;
}

/* ---- the game ---------------------------------------------------------------- */

typedef struct {
    cb_game *g;
    unsigned seen;
    char format[16];
    double players;
    int shared;
} game_reader;

enum { G_FORMAT = 1, G_SEED = 2, G_PLAYERS = 4, G_SHARED = 8, G_SHEETS = 16 };

static int sheets_array(scan *s, cb_game *g)
{
    if (!expect(s, '['))
        return 0;
    if (next(s) == ']')
        return decline(s);
    if (!(g->sheets = calloc(9, sizeof *g->sheets))) {
        s->oom = 1;
        return 0;
    }
    for (;;) {
        if (g->n_sheets == 9) { /* refused here: the rest is never read */
            s->too_many_sheets = 1;
            return 0;
        }
        cb_board *b = calloc(1, sizeof *b);
        if (!b) {
            s->oom = 1;
            return 0;
        }
        g->sheets[g->n_sheets++] = b;
        sheet_reader sr = {.b = b};
        sr.nodes.b = b;
        if (!object(s, sheet_member, &sr) || !sheet_done(s, &sr))
            return 0;
        int end = list_end(s, ']');
        if (end)
            return end > 0;
    }
}

static int game_member(scan *s, const char *key, void *ctx)
{
    game_reader *gr = ctx;
    if (strcmp(key, "format") == 0)
        return first_time(s, &gr->seen, G_FORMAT) && string(s, gr->format, sizeof gr->format);
    if (strcmp(key, "seed") == 0) {
        char seed[TOKEN];
        if (!first_time(s, &gr->seen, G_SEED) || !string(s, seed, sizeof seed))
            return 0;
        if (!(gr->g->seed = strdup(seed)))
            s->oom = 1;
        return gr->g->seed != NULL;
    }
    if (strcmp(key, "players") == 0)
        return number_once(s, &gr->seen, G_PLAYERS, &gr->players);
    if (strcmp(key, "shared") == 0) {
        if (!first_time(s, &gr->seen, G_SHARED))
            return 0;
        int c = next(s);
        if (c == 't' && strncmp(s->p, "true", 4) == 0) {
            s->p += 4;
            gr->shared = 1;
            return 1;
        }
        if (c == 'f' && strncmp(s->p, "false", 5) == 0) {
            s->p += 5;
            return 1;
        }
        return decline(s);
    }
    if (strcmp(key, "sheets") == 0)
        return first_time(s, &gr->seen, G_SHEETS) && sheets_array(s, gr->g);
    return skip(s, 1);
}

static int read_game(scan *s, game_reader *gr)
{
    if (next(s) != '{' || !object(s, game_member, gr))
        return 0;
    unsigned all = G_FORMAT | G_SEED | G_PLAYERS | G_SHEETS;
    if ((gr->seen & all) != all || strcmp(gr->format, "cutboard/1") != 0 ||
        !whole(gr->players, 2, 9))
        return decline(s);
    gr->g->players = (int)gr->players;
    gr->g->shared = gr->shared;
    /* One document: only white space may follow (the precise reader
     * names what does). */
    for (;;) {
        for (const char *c = s->p; c < s->end; c++)
            if (*c != ' ' && *c != '\t' && *c != '\r' && *c != '\n')
                return decline(s);
        if (s->eof)
            break;
        s->p = s->end;
        refill(s);
        if (s->declined)
            return 0;
    }
    return 1;
}

cb_status cb_board_stream_read(FILE *f, const char *text, size_t len, const char *name,
                               const cb_theme *theme, cb_game **out, cb_error *err)
{
    *out = NULL;
    if (!f && len > CB_BOARD_FILE_MAX)
        return CB_OK; /* refused before a byte is read, by the precise reader */
    scan s = {.f = f, .text = text, .text_len = len, .theme = theme};
    cb_game *g = calloc(1, sizeof *g);
    if (!g || !(s.buf = malloc(WINDOW + 1))) {
        free(g);
        return cb_fail(err, CB_ERR_NOMEM, "out of memory reading %s", name);
    }
    s.p = s.end = s.buf;
    *s.end = '\0';
    game_reader gr = {.g = g};
    int ok = read_game(&s, &gr);
    /* The dots go where the generator would put them when only counts are
     * given, as the precise reader places them. */
    cb_status st = CB_OK;
    for (size_t i = 0; ok && st == CB_OK && i < g->n_sheets; i++)
        if ((st = cb_board_limits_check(g->sheets[i], name, i, err)) == CB_OK &&
            !g->sheets[i]->dot_xy)
            st = cb_board_place_dots(g->sheets[i], err);
    free(s.buf);
    if (s.io_error)
        st = cb_fail(err, CB_ERR_NOINPUT, "%s: read error", name);
    else if (s.too_many_sheets)
        st = cb_fail(err, CB_ERR_DATA, "%s: sheets: has more than 9 sheets", name);
    else if (s.oom)
        st = cb_fail(err, CB_ERR_NOMEM, "out of memory reading %s", name);
    if (ok && st == CB_OK) {
        *out = g;
        return CB_OK;
    }
    cb_game_free(g);
    return st; /* CB_OK with *out NULL: declined, for the precise reader */
}
