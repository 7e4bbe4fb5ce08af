/* Types follow the theme's rules: probability (weight), min and max count,
 * distance from the edge, whether allowed on the edge, and the largest
 * connected group of equal types. Missions are dealt evenly to the starts.
 * Power dots are placed last (dots.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "board/decorate.h"
#include "base/board_geometry.h"
#include "base/geom.h"
#include "base/graph.h"
#include "base/grid.h"
#include "base/prefetch.h"
#include "board/work.h"

#define REFERENCE_NODES 88.0   /* theme counts are per board of this size */

/* 0 on the trim line, 1 at the middle of the board. */
static double min2(double a, double b)
{
    return a < b ? a : b; /* fmin is a library call at -O2; no NaN here */
}

static double depth_of(const cb_board *b, const cb_node *v)
{
    double fx = min2(v->x - b->board_x, b->board_x + b->board_w - v->x) / (b->board_w / 2);
    double fy = min2(v->y - b->board_y, b->board_y + b->board_h - v->y) / (b->board_h / 2);
    double d = min2(1, min2(fx, fy));
    return d > 0 ? d : 0;
}

static int on_trim(const cb_board *b, const cb_node *v)
{
    return cb_on_trim(b, v);
}

typedef struct {
    const cb_graph *g;
    const cb_theme *theme;
    int *count, *lo, *hi;
    uint32_t *stamp, *queue;
    uint32_t mark;
    /* Per node: its type + 1 once typed, 0 for untyped nodes, starts and
     * the centre. Two bytes a node, so the random-order tests below find a
     * neighbour's type in cache even on the largest boards (the nodes
     * themselves are 48 bytes apiece). */
    uint16_t *code;
} typing;

/* The rules a node meets or not whatever its neighbours are: the edge and
 * the distance from it (DEPTH, see depth_of). */
static int fits_place(const cb_node_type *nt, int trim, double depth)
{
    if (trim && !nt->on_edge)
        return 0;
    return depth >= nt->min_edge - 1e-9 && depth <= nt->max_edge + 1e-9;
}

/* Groups up to this size are told apart from the queue itself (every
 * shipped theme's largest group is 4 nodes or fewer): a stamp per node is
 * one more cache miss per neighbour on a large board. */
#define SMALL_RUN 32

static int queued(const uint32_t *queue, size_t tail, uint32_t u)
{
    for (size_t i = 0; i < tail; i++)
        if (queue[i] == u)
            return 1;
    return 0;
}

/* The rules that depend on the nodes typed so far: the type's maximum and
 * its largest group. */
static int fits_now(typing *t, uint32_t v, size_t ty)
{
    const cb_node_type *nt = &t->theme->types[ty];
    if (t->count[ty] >= t->hi[ty])
        return 0;
    /* Size of the same-type group v would join: BFS over equal neighbours
     * (the type test first: it turns most neighbours away). V is untyped,
     * so it never passes the test itself and needs no mark. */
    int small = nt->max_run <= SMALL_RUN;
    if (!small)
        t->mark++;
    size_t head = 0, tail = 0;
    t->queue[tail++] = v;
    uint16_t code = (uint16_t)(ty + 1);
    while (head < tail) {
        uint32_t x = t->queue[head++];
        for (uint32_t k = t->g->start[x]; k < t->g->start[x + 1]; k++) {
            uint32_t u = t->g->adj[k];
            if (t->code[u] != code || (small ? queued(t->queue, tail, u) : t->stamp[u] == t->mark))
                continue;
            if (!small)
                t->stamp[u] = t->mark;
            t->queue[tail++] = u;
            if ((int)tail > nt->max_run)
                return 0;
        }
    }
    return 1;
}

/* What fits_now reads of node V, asked for ahead of the deal (a random
 * order, so each node is a cache miss on a large board), in three steps
 * whose addresses each follow from the one before: its slots in the graph,
 * then its neighbours, then their types. Macros, not functions: GCC 12
 * deems a function that only prefetches free of effects and drops calls
 * to it. */
#define WARM_SLOTS(t, v) CB_PREFETCH(&(t)->g->start[v])
#define WARM_NEIGHBOURS(t, v)                                                      \
    do {                                                                           \
        CB_PREFETCH(&(t)->g->adj[(t)->g->start[v]]);                               \
        CB_PREFETCH(&(t)->code[v]);                                                \
    } while (0)
#define WARM_TYPES(t, v)                                                           \
    do {                                                                           \
        for (uint32_t k_ = (t)->g->start[v]; k_ < (t)->g->start[(v) + 1]; k_++)   \
            CB_PREFETCH(&(t)->code[(t)->g->adj[k_]]);                              \
    } while (0)

/* Warms the nodes a scan reaches at steps I + 2 * AHEAD, I + AHEAD and
 * I + AHEAD / 2 (of N), those for which WANTED is true; NODE is the node
 * at step w_. */
#define AHEAD CB_PREFETCH_AHEAD
#define WARM_AHEAD(t, i, n, wanted, node)                                          \
    do {                                                                           \
        size_t w_;                                                                 \
        if ((w_ = (i) + 2 * AHEAD) < (n) && (wanted))                              \
            WARM_SLOTS((t), (node));                                               \
        if ((w_ = (i) + AHEAD) < (n) && (wanted))                                  \
            WARM_NEIGHBOURS((t), (node));                                          \
        if ((w_ = (i) + AHEAD / 2) < (n) && (wanted))                              \
            WARM_TYPES((t), (node));                                               \
    } while (0)

/* How many positions of the deal a type's scan lists at a time. */
#define DUE_CHUNK 1024

/* A position's place class once its node is typed (by a type's scan). */
#define TYPED UINT16_MAX

/* The positions from *FROM on (of N) that are untyped and may take type T
 * (any type when T is NT), at most DUE_CHUNK of them, into DUE; returns how
 * many and moves *FROM past the last position looked at. CLS is each
 * position's place class, FITS the types each class may take (NT a class).
 * A scan types only the position it is at, so the ones listed ahead stay
 * due. */
static size_t next_due(const uint16_t *cls, const uint8_t *fits, size_t nt, size_t t, size_t n,
                       size_t *from, uint32_t *due)
{
    size_t k = 0, i = *from, any = t == nt, tt = any ? 0 : t;
    /* Kept without a branch (which ones are due is a coin toss); a typed position
     * reads class 0's row (there is one: a scratch row follows the last),
     * unused. */
    for (; i < n && k < DUE_CHUNK; i++) {
        size_t c = cls[i] != TYPED ? cls[i] : 0;
        due[k] = (uint32_t)i;
        k += (size_t)((cls[i] != TYPED) & (any || fits[c * nt + tt]));
    }
    *from = i;
    return k;
}

/* Type indices by how many nodes they may take, fewest first (ties by
 * index, so the order is total). N is a theme's type count: small. */
static void sort_by_room(size_t *by_room, const size_t *room, size_t n)
{
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0; j--) {
            size_t a = by_room[j - 1], c = by_room[j];
            if (room[a] < room[c] || (room[a] == room[c] && a < c))
                break;
            by_room[j - 1] = c;
            by_room[j] = a;
        }
}

/* The rules a node meets or not whatever its neighbours are (the edge and
 * the distance from it), for every regular node: nodes whose rules allow
 * the same types share a place class, so the deal's scans test two bytes a
 * position and a table of a few rows, not a byte a position and type (on a
 * large board those were the largest arrays of decoration, and a random-
 * order gather of them). Worked out in the pass that resets the nodes, so
 * the 48-byte nodes are read once. */
typedef struct {
    size_t nt;       /* the theme's types */
    uint8_t *fits;   /* class C may take type T: fits[C * nt + T]; a scratch row after the last */
    size_t n_cls, cap;
    uint16_t *cls;   /* per node: its class (regular nodes only) */
    uint32_t *order; /* the regular nodes, in node order until the deal shuffles them */
    size_t regular;
    size_t last;     /* the class found last: nodes in node order mostly share it */
} places;

static int places_init(places *pl, const cb_theme *theme, size_t n)
{
    memset(pl, 0, sizeof *pl);
    pl->nt = theme->n_types;
    pl->cap = 16;
    pl->fits = malloc(pl->cap * pl->nt);
    pl->cls = malloc((n + 1) * sizeof *pl->cls);
    pl->order = malloc((n + 1) * sizeof *pl->order);
    return pl->fits && pl->cls && pl->order ? 0 : -1;
}

static void places_free(places *pl)
{
    free(pl->fits);
    free(pl->cls);
    free(pl->order);
}

/* Whether rows A and B (NT bytes) are the same: a few bytes, where a
 * memcmp call would cost more than the test. */
static int same_row(const uint8_t *a, const uint8_t *b, size_t nt)
{
    for (size_t t = 0; t < nt; t++)
        if (a[t] != b[t])
            return 0;
    return 1;
}

/* Lists regular node V and finds its class; 0 when done, -1 out of memory,
 * 1 when the theme's rules tell more places apart than 16-bit classes hold
 * (only a theme of thousands of types could). */
static int place_node(places *pl, const cb_board *b, const cb_theme *theme, uint32_t v)
{
    size_t nt = pl->nt;
    uint8_t *want = &pl->fits[pl->n_cls * nt];
    const cb_node *node = &b->nodes[v];
    int trim = on_trim(b, node);
    double depth = depth_of(b, node);
    for (size_t t = 0; t < nt; t++)
        want[t] = (uint8_t)fits_place(&theme->types[t], trim, depth);
    size_t c = pl->last;
    if (c >= pl->n_cls || !same_row(&pl->fits[c * nt], want, nt))
        for (c = 0; c < pl->n_cls && !same_row(&pl->fits[c * nt], want, nt); c++)
            ;
    if (c == pl->n_cls) { /* a new class: the scratch row is its row */
        if (c == TYPED)
            return 1;
        if (++pl->n_cls == pl->cap) {
            uint8_t *grown = realloc(pl->fits, 2 * pl->cap * nt);
            if (!grown)
                return -1;
            pl->fits = grown;
            pl->cap *= 2;
        }
    }
    pl->cls[v] = (uint16_t)c;
    pl->last = c;
    pl->order[pl->regular++] = v;
    return 0;
}

static int assign_types(cb_board *b, const cb_graph *g, const cb_theme *theme,
                        cb_rng *rng, places *pl, const char **why)
{
    size_t nt = theme->n_types, n = b->n_nodes, regular = pl->regular;
    int *count = calloc(nt, sizeof *count), *lo = malloc(nt * sizeof *lo),
        *hi = malloc(nt * sizeof *hi);
    uint32_t *order = pl->order, *stamp = calloc(n, sizeof *stamp),
             *queue = malloc(n * sizeof *queue);
    double *weight = malloc(nt * sizeof *weight); /* the count each type is dealt */
    size_t *room = malloc(nt * sizeof *room), *by_room = malloc(nt * sizeof *by_room);
    size_t *in_cls = calloc(pl->n_cls + 1, sizeof *in_cls);
    uint16_t *cls = malloc((regular + 1) * sizeof *cls); /* by position; TYPED once typed */
    uint16_t *code = calloc(n + 1, sizeof *code);
    const uint8_t *fits = pl->fits;
    int rc = -1;
    if (!count || !lo || !hi || !stamp || !queue || !weight || !room || !by_room || !in_cls ||
        !cls || !code) {
        *why = "out of memory";
        goto done;
    }
    double scale = (double)regular / REFERENCE_NODES;
    for (size_t t = 0; t < nt; t++) {
        lo[t] = (int)lround(theme->types[t].min * scale);
        hi[t] = (int)lround(theme->types[t].max * scale);
        if (hi[t] < lo[t])
            hi[t] = lo[t];
    }
    cb_rng_shuffle(rng, order, regular);
    typing ty = {g, theme, count, lo, hi, stamp, queue, 0, code};
    /* Each position's class (the scans below then touch a node's
     * neighbours, memory all over a large board, only where a type can
     * stand), and ROOM: how many nodes each type may take (none when it
     * may take none: nothing is typed yet, so there is no group to join). */
    for (size_t i = 0; i < regular; i++) {
        if (i + AHEAD < regular)
            CB_PREFETCH(&pl->cls[order[i + AHEAD]]);
        cls[i] = pl->cls[order[i]];
        in_cls[cls[i]]++;
    }
    for (size_t t = 0; t < nt; t++) {
        room[t] = 0;
        for (size_t c = 0; hi[t] > 0 && c < pl->n_cls; c++)
            room[t] += fits[c * nt + t] ? in_cls[c] : 0;
    }
    /* Each type is dealt its share of the nodes (its weight, within its
     * min..max), so shares across a deck match the weights: a weighted
     * random pick per node would let the types with few eligible nodes
     * (deep inside, never on the edge) fall short. The most constrained
     * types are dealt first, to random eligible nodes; the nodes left over
     * go to the type furthest below its share. */
    double total_weight = 0;
    for (size_t t = 0; t < nt; t++)
        total_weight += theme->types[t].probability;
    for (size_t t = 0; t < nt; t++) {
        double share = total_weight > 0 ? theme->types[t].probability / total_weight : 0;
        /* Rounded up with the probability of the fraction, so a deck's
         * shares match the weights, not just each board's rounding. */
        double want = share * (double)regular, whole = floor(want);
        whole += cb_rng_uniform(rng) < want - whole;
        weight[t] = fmin(fmax(whole, lo[t]), hi[t]);
        by_room[t] = t;
    }
    sort_by_room(by_room, room, nt);
    uint32_t due[DUE_CHUNK];
    for (size_t k = 0; k < nt; k++) {
        size_t t = by_room[k];
        /* Position by position, as the deal lists them, those that may
         * take the type; the nodes of the positions listed ahead warmed. */
        size_t from = 0, have = 0, at = 0;
        while (count[t] < weight[t]) {
            if (at == have) {
                have = next_due(cls, fits, nt, t, regular, &from, due);
                at = 0;
                if (!have)
                    break;
            }
            WARM_AHEAD(&ty, at, have, 1, order[due[w_]]);
            uint32_t i = due[at++], v = order[i];
            if (fits_now(&ty, v, t)) {
                code[v] = (uint16_t)(t + 1);
                cls[i] = TYPED;
                count[t]++;
            }
        }
        if (count[t] < lo[t]) {
            *why = "a node type's minimum cannot be met";
            rc = 1;
            goto done;
        }
    }
    size_t from = 0, have = 0, at = 0;
    for (;;) {
        if (at == have) {
            have = next_due(cls, fits, nt, nt, regular, &from, due);
            at = 0;
            if (!have)
                break;
        }
        WARM_AHEAD(&ty, at, have, 1, order[due[w_]]);
        uint32_t i = due[at++], v = order[i];
        const uint8_t *fit = &fits[(size_t)cls[i] * nt];
        size_t pick = nt;
        for (size_t t = 0; t < nt; t++)
            if (fit[t] && fits_now(&ty, v, t) &&
                (pick == nt || weight[t] - count[t] > weight[pick] - count[pick]))
                pick = t;
        if (pick == nt) {
            *why = "no node type fits a node";
            rc = 1;
            goto done;
        }
        code[v] = (uint16_t)(pick + 1);
        count[pick]++;
    }
    /* The types into the nodes in node order (48 bytes a node: written in
     * the deal's order, each would be a miss of its own). */
    for (size_t v = 0; v < n; v++)
        if (code[v])
            b->nodes[v].type = code[v] - 1;
    rc = 0;
done:
    free(count); free(lo); free(hi); free(stamp); free(queue); free(weight);
    free(room); free(by_room); free(in_cls); free(cls); free(code);
    return rc;
}

/* Missions dealt evenly to the board's STARTS: each appears floor(12/M)
 * or ceil(12/M) times. */
static int assign_missions(cb_board *b, const cb_theme *theme, size_t starts, cb_rng *rng)
{
    size_t m = theme->n_missions;
    uint32_t *deal = malloc((starts + m + 1) * sizeof *deal);
    uint32_t *pick = malloc((m + 1) * sizeof *pick);
    if (!deal || !pick) {
        free(deal);
        free(pick);
        return -1;
    }
    for (uint32_t i = 0; i < m; i++)
        pick[i] = i;
    cb_rng_shuffle(rng, pick, m);
    for (size_t i = 0; i < starts; i++)
        deal[i] = pick[i % m];
    cb_rng_shuffle(rng, deal, starts);
    size_t k = 0;
    for (size_t v = 0; v < b->n_nodes; v++)
        if (b->nodes[v].kind == CB_KIND_START)
            b->nodes[v].mission = (int)deal[k++];
    free(deal);
    free(pick);
    return 0;
}

/* What cb_dots_place_all leaves on a board whose nodes are too small for
 * dots (posters of 3 mm nodes): none anywhere (the nodes' part is done
 * with the first pass of cb_decorate_graph), and an empty dot list, not
 * NULL (the board file tells the two apart). Its spatial index would cost
 * more than the rest of decoration on the largest boards. -1 when out of
 * memory. */
static int no_dots(cb_board *b)
{
    free(b->dot_xy);
    b->n_dot_xy = 0;
    b->dot_xy = malloc(sizeof *b->dot_xy);
    return b->dot_xy ? 0 : -1;
}

int cb_decorate_graph(cb_board *b, const cb_graph *g, const cb_theme *theme, int players,
                      cb_rng *rng, const char **why)
{
    /* Each pass over the nodes (48 bytes apiece) is a read of the whole
     * board from memory on the largest boards: as few as can be. */
    int dots = cb_board_has_dots(b);
    int deal = theme && theme->n_types;
    if (deal && theme->n_types >= UINT16_MAX) { /* codes below are 16-bit */
        *why = "a theme with more than 65,534 node types";
        return 1;
    }
    places pl;
    if (deal && places_init(&pl, theme, b->n_nodes) != 0) {
        places_free(&pl);
        *why = "out of memory";
        return -1;
    }
    size_t starts = 0;
    int rc = 0;
    for (size_t v = 0; v < b->n_nodes; v++) {
        cb_node *node = &b->nodes[v];
        node->type = -1;
        node->mission = -1;
        node->number = 0;
        if (!dots)
            node->dots = 0, node->first_dot = 0;
        starts += node->kind == CB_KIND_START;
        if (deal && rc == 0 && node->kind == CB_KIND_NODE)
            rc = place_node(&pl, b, theme, (uint32_t)v);
    }
    if (rc != 0)
        *why = rc < 0 ? "out of memory" : "a theme whose edge rules tell more than 65,534 places apart";
    else if (deal)
        rc = assign_types(b, g, theme, rng, &pl, why);
    if (deal)
        places_free(&pl);
    if (rc != 0)
        return rc;
    int numbers = 0;
    for (size_t t = 0; theme && t < theme->n_types; t++)
        numbers |= theme->types[t].number_rule != NULL;
    /* A type with a printed number: each of its nodes gets one in the
     * type's range (themes without numbers draw nothing here). */
    for (size_t v = 0; numbers && v < b->n_nodes; v++) {
        int t = b->nodes[v].type;
        if (t >= 0 && theme->types[t].number_rule) {
            const cb_node_type *nt = &theme->types[t];
            b->nodes[v].number =
                nt->number_min + (int)cb_rng_below(rng, (uint64_t)(nt->number_max - nt->number_min + 1));
        }
    }
    if (theme && theme->n_missions && assign_missions(b, theme, starts, rng) != 0) {
        *why = "out of memory";
        return -1;
    }
    rc = dots ? cb_dots_place_all(b, g, players, 1) : no_dots(b);
    if (rc != 0)
        *why = rc < 0 ? "out of memory" : "a node without room for its power dots";
    return rc;
}

int cb_decorate(cb_board *b, const cb_theme *theme, int players, cb_rng *rng,
                const char **why)
{
    cb_graph g;
    cb_error err;
    if (cb_graph_build(&g, b, &err) != CB_OK) {
        *why = err.status == CB_ERR_NOMEM ? "out of memory" : "bad graph";
        return err.status == CB_ERR_NOMEM ? -1 : 1;
    }
    int rc = cb_decorate_graph(b, &g, theme, players, rng, why);
    cb_graph_free(&g);
    return rc;
}
