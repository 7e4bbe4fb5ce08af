/* Step 3: choose 3 start nodes per side and attach them (balance.c then
 * evens out their hop counts).
 *
 * The core graph is built without the start candidates, so the hop count of
 * a start attached to core nodes a and b is exactly 1 + min(hops[a], hops[b]).
 * That lets a small search pick, for every side, three well-spread
 * candidates and their two neighbours each such that all 12 hop counts lie in
 * the narrowest band {T..T+k}, no two starts share a neighbour, and every start has two edges
 * (two edge-disjoint ways in, since the core has no bridges). Among the
 * solutions for every T, the one with the most even spacing wins.
 *
 * Candidates not chosen become ordinary nodes, attached only by edges that
 * change no hop count, so the fairness found here survives. */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "base/sort.h"
#include "board/work.h"

#define MAX_CANDS 48       /* candidates per side considered */
#define MAX_ATTACH 8       /* core neighbours per candidate */
#define MAX_TRIPLES 512
#define SEARCH_BUDGET 20000
#define MAX_BAND 4          /* widest hop band the search accepts */

typedef struct {
    uint32_t v;
    double pos;                 /* 0..1 along the side */
    uint32_t attach[MAX_ATTACH];
    int n_attach;
    uint64_t hops;              /* bit h: some pair of attach gives hop count h (63: >= 63) */
} cand;

typedef struct { int i, j, k; double score; } triple;

typedef struct {
    cb_work *w;
    cand cands[4][MAX_CANDS];
    int n_cands[4];
    triple *triples[4];
    int n_triples[4];
    uint16_t live[4][MAX_TRIPLES]; /* the triples whose starts reach the band */
    int n_live[4];
    int T, band;                /* hops allowed: T .. T + band */
    uint64_t band_mask;         /* hop_bits(T, T + band) */
    long budget;
    uint8_t *used;              /* core nodes already a start's neighbour */
    /* current and best solution: per side, triple and the pair per start */
    int cur_triple[4], cur_pair[4][3][2];
    int best_triple[4], best_pair[4][3][2];
    double cur_score, best_score;
    int found;
    int alone;                  /* searching one side by itself (side_possible) */
} search;

static const double ideal[3] = {0.22, 0.5, 0.78};

static int cmp_cand(const void *x, const void *y)
{
    const cand *a = x, *b = y;
    if (a->pos != b->pos)
        return a->pos < b->pos ? -1 : 1;
    return (a->v > b->v) - (a->v < b->v);
}

static int cmp_triple(const void *x, const void *y)
{
    const triple *a = x, *b = y;
    if (a->score != b->score)
        return a->score < b->score ? -1 : 1;
    if (a->i != b->i) return a->i - b->i;
    if (a->j != b->j) return a->j - b->j;
    return a->k - b->k;
}

/* Insertion sort on cmp_cand (a total order, so the result is qsort's): a
 * side has a few candidates. */
static void sort_cands(cand *c, int n)
{
    for (int i = 1; i < n; i++) {
        cand x = c[i];
        int j = i;
        for (; j > 0 && cmp_cand(&x, &c[j - 1]) < 0; j--)
            c[j] = c[j - 1];
        c[j] = x;
    }
}

static int triple_less(const triple *a, const triple *b)
{
    return cmp_triple(a, b) < 0;
}

/* cmp_triple's order with the comparison inlined. */
CB_DEFINE_SORT(merge_triples, triple, triple_less)

static void sort_triples(triple *t, int n)
{
    triple tmp[MAX_TRIPLES];
    merge_triples(t, tmp, (size_t)n);
}

/* Position of edge node v along its side, 0..1. */
static double side_pos(const cb_work *w, uint32_t v, cb_side side)
{
    return side == CB_SIDE_TOP || side == CB_SIDE_BOTTOM ? (w->p[v].x - w->bx) / w->bw
                                                         : (w->p[v].y - w->by) / w->bh;
}

static int collect(search *s)
{
    cb_work *w = s->w;
    for (uint32_t v = 0; v < w->n; v++) {
        if (w->role[v] != CB_ROLE_CANDIDATE)
            continue;
        cb_side side = cb_side_of_mask(w->sides[v]);
        if (side == CB_SIDE_NONE || s->n_cands[side] >= MAX_CANDS)
            continue;
        cand *c = &s->cands[side][s->n_cands[side]++];
        c->v = v;
        c->pos = side_pos(w, v, side);
        c->n_attach = 0;
    }
    /* Attachable neighbours: core nodes joined by a usable edge. */
    for (int side = 0; side < 4; side++)
        for (int i = 0; i < s->n_cands[side]; i++) {
            cand *c = &s->cands[side][i];
            for (uint32_t k = w->cand_off[c->v]; k < w->cand_off[c->v + 1]; k++) {
                uint32_t u = w->cand_nbr[k];
                if (w->role[u] == CB_ROLE_CORE && w->hops[u] >= 0 && c->n_attach < MAX_ATTACH &&
                    cb_work_room(w, u) > 0 && cb_work_steep_enough(w, c->v, u, (cb_side)side) &&
                    cb_work_shows(w, c->v, u, (cb_side)side))
                    c->attach[c->n_attach++] = u;
            }
        }
    double min_sep = fmax(2 * CB_START_HALF_WIDTH * w->r + 2 * CB_NODE_GAP_MM, 0.8 * w->d);
    for (int side = 0; side < 4; side++) {
        sort_cands(s->cands[side], s->n_cands[side]);
        double len = side == CB_SIDE_TOP || side == CB_SIDE_BOTTOM ? w->bw : w->bh;
        double sep = min_sep / len;
        int m = s->n_cands[side], nt = 0;
        cand *cs = s->cands[side];
        for (int i = 0; i < m; i++)
            for (int j = i + 1; j < m; j++) {
                if (cs[j].pos - cs[i].pos < sep)
                    continue;
                for (int k = j + 1; k < m && nt < MAX_TRIPLES; k++) {
                    if (cs[k].pos - cs[j].pos < sep)
                        continue;
                    triple *t = &s->triples[side][nt++];
                    t->i = i;
                    t->j = j;
                    t->k = k;
                    t->score = fabs(cs[i].pos - ideal[0]) + fabs(cs[j].pos - ideal[1]) +
                               fabs(cs[k].pos - ideal[2]);
                }
            }
        sort_triples(s->triples[side], nt);
        s->n_triples[side] = nt;
    }
    return 0;
}

static int hop_via(const cb_work *w, uint32_t a, uint32_t b)
{
    int h = w->hops[a] < w->hops[b] ? w->hops[a] : w->hops[b];
    return h + 1;
}

static void solve_side(search *s, int side);

/* Chooses the pair for start `slot` of the current triple on `side`. */
static void solve_start(search *s, int side, int slot)
{
    if (slot == 3) {
        if (s->alone)
            s->found = 1;
        else
            solve_side(s, side + 1);
        return;
    }
    const triple *t = &s->triples[side][s->cur_triple[side]];
    const int of_slot[3] = {t->i, t->j, t->k}; /* read by index, not by branches */
    int idx = of_slot[slot];
    const cand *c = &s->cands[side][idx];
    const cb_work *w = s->w;
    for (int x = 0; x < c->n_attach; x++) {
        uint32_t a = c->attach[x];
        if (s->used[a])
            continue;
        for (int y = x + 1; y < c->n_attach; y++) {
            uint32_t b = c->attach[y];
            if (s->used[b] || s->budget-- <= 0)
                continue;
            int h = hop_via(w, a, b);
            if (h < s->T || h > s->T + s->band)
                continue;
            s->used[a] = s->used[b] = 1;
            s->cur_pair[side][slot][0] = x;
            s->cur_pair[side][slot][1] = y;
            solve_start(s, side, slot + 1);
            s->used[a] = s->used[b] = 0;
            if (s->found || s->budget <= 0)
                return;
        }
    }
}

static void solve_side(search *s, int side)
{
    if (side == 4) {
        s->found = 1;
        if (s->cur_score < s->best_score) {
            s->best_score = s->cur_score;
            memcpy(s->best_triple, s->cur_triple, sizeof s->best_triple);
            memcpy(s->best_pair, s->cur_pair, sizeof s->best_pair);
        }
        return;
    }
    for (int l = 0; l < s->n_live[side] && s->budget > 0; l++) {
        int t = s->live[side][l];
        s->cur_triple[side] = t;
        double before = s->cur_score;
        s->cur_score += s->triples[side][t].score;
        solve_start(s, side, 0);
        s->cur_score = before;
        if (s->found)
            return;
    }
}

/* Can SIDE seat three starts in the band by itself (no other side's
 * starts taking neighbours)? When not, the search over all sides would try
 * every choice for the sides before it in vain. 1 also when the budget ran
 * out before the answer. */
#define ALONE_BUDGET 2000

static int side_possible(search *s, int side)
{
    s->alone = 1;
    s->found = 0;
    s->budget = ALONE_BUDGET;
    for (int l = 0; l < s->n_live[side] && s->budget > 0 && !s->found; l++) {
        s->cur_triple[side] = s->live[side][l];
        solve_start(s, side, 0);
    }
    s->alone = 0;
    int possible = s->found || s->budget <= 0;
    s->found = 0;
    return possible;
}

/* Are x and u joined by two edge-disjoint paths besides the edge x-u? Then
 * removing x-u leaves no new bridge (a new bridge f would make {x-u, f} a
 * cut between x and u), so no start is cut off by it; on A4, spare edges
 * taken with only one other path left a start behind a bridge in a third of
 * cb_balance's failures. A unit-capacity max-flow of two breadth-first
 * searches, each giving up after SPARE_REACH nodes (the answer "no" may
 * then be a long detour: the edge is kept). SEEN and FROM: n words, SEEN
 * all UINT32_MAX on entry and on return. */
#define SPARE_REACH 128

static int path_in_residual(const cb_work *w, uint32_t x, uint32_t u, const uint32_t *used,
                            int n_used, uint32_t *seen, uint32_t *from, uint32_t *queue)
{
    size_t head = 0, tail = 0;
    int found = 0;
    queue[tail++] = x;
    seen[x] = 1;
    while (head < tail && !found) {
        uint32_t v = queue[head++];
        const uint32_t *nv = w->adj + (size_t)v * CB_MAX_DEG;
        for (int i = 0; i < w->deg[v] && !found; i++) {
            uint32_t y = nv[i];
            if ((v == x && y == u) || seen[y] != UINT32_MAX || w->role[y] == CB_ROLE_DROPPED)
                continue;
            int full = 0; /* the first path runs v -> y: no room left that way */
            for (int k = 0; k < n_used && !full; k++)
                full = used[2 * k] == v && used[2 * k + 1] == y;
            if (full || tail == SPARE_REACH)
                continue;
            seen[y] = 1;
            from[y] = v;
            queue[tail++] = y;
            found = y == u;
        }
    }
    for (size_t k = 0; k < tail; k++)
        seen[queue[k]] = UINT32_MAX;
    return found;
}

static int two_other_paths(const cb_work *w, uint32_t x, uint32_t u, uint32_t *seen,
                           uint32_t *from)
{
    uint32_t queue[SPARE_REACH], used[2 * SPARE_REACH];
    int n_used = 0;
    if (!path_in_residual(w, x, u, NULL, 0, seen, from, queue))
        return 0;
    for (uint32_t v = u; v != x; v = from[v], n_used++) {
        used[2 * n_used] = from[v];
        used[2 * n_used + 1] = v;
    }
    return path_in_residual(w, x, u, used, n_used, seen, from, queue);
}

/* A full core neighbour u of v can give up one edge u-x when x keeps at
 * least 3 edges and two other ways to u; returns x or UINT32_MAX. */
static uint32_t spare_edge(cb_work *w, uint32_t u, uint32_t *seen, uint32_t *from)
{
    const uint32_t *nu = w->adj + (size_t)u * CB_MAX_DEG;
    for (int i = 0; i < w->deg[u]; i++) {
        uint32_t x = nu[i];
        if (w->role[x] != CB_ROLE_CORE || x == w->center || w->deg[x] < 3)
            continue;
        if (two_other_paths(w, x, u, seen, from))
            return x;
    }
    return UINT32_MAX;
}

/* Ordinary edge node: joined to its lowest-hop core neighbour (taking over a
 * spare edge of a full one if none has room), plus one more edge that changes
 * no hop count (|hop difference| <= 1). Neither changes any other node's hop
 * count, so hops are recomputed only after a spare edge moved. */
static void attach_rest(cb_work *w, uint32_t *queue, uint32_t *seen, uint32_t *from)
{
    for (size_t v = 0; v < w->n; v++)
        seen[v] = UINT32_MAX;
    cb_work_hops(w, queue);
    for (uint32_t v = 0; v < w->n; v++) {
        if (w->role[v] != CB_ROLE_CANDIDATE)
            continue;
        w->role[v] = CB_ROLE_CORE;
        uint32_t best = UINT32_MAX;
        for (uint32_t k = w->cand_off[v]; k < w->cand_off[v + 1]; k++) {
            uint32_t u = w->cand_nbr[k];
            if (w->role[u] == CB_ROLE_CORE && w->hops[u] >= 0 && cb_work_room(w, u) > 0 &&
                (best == UINT32_MAX || w->hops[u] < w->hops[best]))
                best = u;
        }
        /* None has room: the first full one that can spare an edge. */
        for (uint32_t k = w->cand_off[v]; k < w->cand_off[v + 1] && best == UINT32_MAX; k++) {
            uint32_t u = w->cand_nbr[k], spare;
            if (w->role[u] != CB_ROLE_CORE || w->hops[u] < 0 || u == w->center ||
                (spare = spare_edge(w, u, seen, from)) == UINT32_MAX)
                continue;
            cb_work_remove_edge(w, u, spare);
            cb_work_hops(w, queue);
            best = u;
        }
        if (best == UINT32_MAX) {
            w->role[v] = CB_ROLE_DROPPED;
            continue;
        }
        cb_work_add_edge(w, v, best);
        w->hops[v] = w->hops[best] + 1;
        for (uint32_t k = w->cand_off[v]; k < w->cand_off[v + 1] && w->deg[v] < 2; k++) {
            uint32_t u = w->cand_nbr[k];
            if (u == best || w->role[u] != CB_ROLE_CORE || w->hops[u] < 0 ||
                cb_work_room(w, u) <= 0 || abs(w->hops[u] - w->hops[v]) > 1)
                continue;
            cb_work_add_edge(w, v, u);
        }
    }
}

/* ---- large boards ---------------------------------------------------- */

/* A side of a large board has hundreds of candidates: too many for the
 * exact search, and hop counts along a side vary by many hops, so the few
 * candidates near the ideal positions rarely share a band. Instead, for
 * each band {T..T+band}, every side takes for each ideal position the
 * nearest candidate that can be attached inside the band (to core nodes no
 * other start uses, far enough from the starts already taken); the T with
 * the most even spacing wins. Each T costs one pass over the candidates. */
typedef struct {
    uint32_t v, a, b;
    double pos;
} pick;

/* A pair of v's attachable core neighbours, unused, that puts v's hop
 * count in T..T+band; 0 if there is none. */
static int pair_in_band(const cb_work *w, const uint8_t *used, uint32_t v, cb_side side,
                        int T, int band, uint32_t *a, uint32_t *b)
{
    uint32_t at[MAX_ATTACH];
    int n = 0;
    for (uint32_t k = w->cand_off[v]; k < w->cand_off[v + 1] && n < MAX_ATTACH; k++) {
        uint32_t u = w->cand_nbr[k];
        if (w->role[u] == CB_ROLE_CORE && w->hops[u] >= 0 && !used[u] &&
            cb_work_room(w, u) > 0 && cb_work_steep_enough(w, v, u, side))
            at[n++] = u;
    }
    for (int x = 0; x < n; x++)
        for (int y = x + 1; y < n; y++) {
            int h = hop_via(w, at[x], at[y]);
            if (h >= T && h <= T + band) {
                *a = at[x];
                *b = at[y];
                return 1;
            }
        }
    return 0;
}

/* Three starts on SIDE for band T..T+band into OUT (their neighbours
 * marked in USED); returns 0 when the side has no such three. */
static int pick_side(const cb_work *w, const uint32_t *cands, size_t m, cb_side side, int T,
                     int band, double sep, uint8_t *used, pick out[3], double *score)
{
    for (int slot = 0; slot < 3; slot++) {
        double best = INFINITY;
        pick p = {0, 0, 0, 0};
        for (size_t i = 0; i < m; i++) {
            double pos = side_pos(w, cands[i], side), d = fabs(pos - ideal[slot]);
            int clear = d < best;
            for (int j = 0; j < slot && clear; j++)
                clear = fabs(pos - out[j].pos) >= sep;
            uint32_t a, b;
            if (clear && pair_in_band(w, used, cands[i], side, T, band, &a, &b)) {
                best = d;
                p = (pick){cands[i], a, b, pos};
            }
        }
        if (best == INFINITY)
            return 0;
        out[slot] = p;
        used[p.a] = used[p.b] = 1;
        *score += best;
    }
    return 1;
}

/* Chooses and attaches the 12 starts of a large board; -1 (with
 * w->failure set) when there is no choice. */
static int choose_large(cb_work *w, uint8_t *used)
{
    uint32_t *cands[4] = {NULL, NULL, NULL, NULL};
    size_t m[4] = {0, 0, 0, 0};
    int rc = -1, hmin = INT32_MAX, hmax = 0;
    uint32_t *all = malloc(w->n * sizeof *all);
    if (!all) {
        w->failure = CB_FAIL_NOMEM;
        return -1;
    }
    /* Candidates grouped by side, in node order. */
    size_t off = 0;
    for (int side = 0; side < 4; side++) {
        cands[side] = all + off;
        for (uint32_t v = 0; v < w->n; v++)
            if (w->role[v] == CB_ROLE_CANDIDATE && cb_side_of_mask(w->sides[v]) == side)
                cands[side][m[side]++] = v;
        off += m[side];
    }
    for (uint32_t u = 0; u < w->n; u++)
        if (w->role[u] == CB_ROLE_CORE && w->hops[u] >= 0) {
            hmin = w->hops[u] < hmin ? w->hops[u] : hmin;
            hmax = w->hops[u] > hmax ? w->hops[u] : hmax;
        }
    double min_sep = fmax(2 * CB_START_HALF_WIDTH * w->r + 2 * CB_NODE_GAP_MM, 0.8 * w->d);
    pick best[4][3], cur[4][3];
    double best_score = INFINITY;
    for (int band = 1; band <= MAX_BAND && best_score == INFINITY; band++)
        for (int T = hmin + 1; T <= hmax + 1; T++) {
            double score = 0;
            int side = 0;
            for (; side < 4; side++) {
                double len = side == CB_SIDE_TOP || side == CB_SIDE_BOTTOM ? w->bw : w->bh;
                if (!pick_side(w, cands[side], m[side], (cb_side)side, T, band, min_sep / len,
                               used, cur[side], &score))
                    break;
            }
            memset(used, 0, w->n); /* this try's neighbours */
            if (side == 4 && score < best_score) {
                best_score = score;
                memcpy(best, cur, sizeof best);
            }
        }
    if (best_score == INFINITY) {
        w->failure = CB_FAIL_NO_FAIR_STARTS;
        goto done;
    }
    for (int side = 0; side < 4; side++)
        for (int k = 0; k < 3; k++) {
            w->role[best[side][k].v] = CB_ROLE_START;
            w->start_side[best[side][k].v] = (cb_side)side;
            cb_work_add_edge(w, best[side][k].v, best[side][k].a);
            cb_work_add_edge(w, best[side][k].v, best[side][k].b);
        }
    rc = 0;
done:
    free(all);
    return rc;
}

static uint64_t hop_bits(int lo, int hi)
{
    uint64_t m = 0;
    for (int h = lo < 0 ? 0 : lo; h <= hi; h++)
        m |= (uint64_t)1 << (h < 63 ? h : 63);
    return m;
}

/* Lists each side's triples whose starts each reach the band (the search
 * tries no others). Can every side seat one, leaving aside shared
 * neighbours? When not, the search for the band would only spend its
 * budget and find nothing, so it is skipped. */
static int band_possible(search *s, uint64_t band)
{
    for (int side = 0; side < 4; side++) {
        const cand *cs = s->cands[side];
        int n = 0;
        for (int t = 0; t < s->n_triples[side]; t++) {
            const triple *tr = &s->triples[side][t];
            if ((cs[tr->i].hops & band) && (cs[tr->j].hops & band) && (cs[tr->k].hops & band))
                s->live[side][n++] = (uint16_t)t;
        }
        s->n_live[side] = n;
        if (n == 0)
            return 0;
    }
    return 1;
}

/* The exact search over the few candidates of each side; attaches the
 * starts and returns 1 when it finds a choice, 0 when there is none, -1
 * (with w->failure set) on an error. */
static int choose_exact(search *s)
{
    cb_work *w = s->w;
    if (collect(s) != 0) {
        w->failure = CB_FAIL_NOMEM;
        return -1;
    }
    for (int side = 0; side < 4; side++)
        if (s->n_triples[side] == 0) {
            w->failure = CB_FAIL_FEW_START_CANDIDATES;
            return 0;
        }
    /* Start hop counts lie between those of the attachable nodes, + 1. */
    int hmin = INT32_MAX, hmax = 0;
    for (int side = 0; side < 4; side++)
        for (int i = 0; i < s->n_cands[side]; i++) {
            cand *c = &s->cands[side][i];
            c->hops = 0;
            for (int x = 0; x < c->n_attach; x++) {
                int h = w->hops[c->attach[x]];
                hmin = h < hmin ? h : hmin;
                hmax = h > hmax ? h : hmax;
                for (int y = x + 1; y < c->n_attach; y++)
                    c->hops |= hop_bits(hop_via(w, c->attach[x], c->attach[y]),
                                        hop_via(w, c->attach[x], c->attach[y]));
            }
        }
    w->failure = CB_FAIL_NO_FAIR_STARTS;
    if (hmin == INT32_MAX)
        return 0;
    /* The narrowest band of hop counts any choice reaches; cb_balance
     * narrows it to 1 afterwards by editing the core's edges. */
    s->best_score = INFINITY;
    int any = 0;
    for (s->band = 1; s->band <= MAX_BAND && !any; s->band++)
        for (int T = hmin + 1; T <= hmax + 1; T++) {
            s->band_mask = hop_bits(T, T + s->band);
            if (!band_possible(s, s->band_mask))
                continue;
            s->T = T;
            int side = 0;
            while (side < 4 && side_possible(s, side))
                side++;
            if (side < 4)
                continue;
            s->T = T;
            s->found = 0;
            s->cur_score = 0;
            s->budget = SEARCH_BUDGET;
            solve_side(s, 0);
            any |= s->found;
        }
    if (!any)
        return 0;
    w->failure = CB_FAIL_NONE;
    for (int side = 0; side < 4; side++) {
        const triple *t = &s->triples[side][s->best_triple[side]];
        int idx[3] = {t->i, t->j, t->k};
        for (int slot = 0; slot < 3; slot++) {
            const cand *c = &s->cands[side][idx[slot]];
            w->role[c->v] = CB_ROLE_START;
            w->start_side[c->v] = (cb_side)side;
            for (int e = 0; e < 2; e++)
                cb_work_add_edge(w, c->v, c->attach[s->best_pair[side][slot][e]]);
        }
    }
    return 1;
}

int cb_starts_choose(cb_work *w)
{
    /* Zeroed but for the candidates and live triples, written before they
     * are read: clearing all of it cost more than the rest of a search. */
    search *s = malloc(sizeof *s);
    if (s) {
        memset(s, 0, offsetof(search, cands));
        memset(&s->n_cands, 0, offsetof(search, live) - offsetof(search, n_cands));
        memset(&s->n_live, 0, sizeof *s - offsetof(search, n_live));
    }
    uint8_t *used = calloc(w->n, 1);
    triple *tri = malloc(4 * MAX_TRIPLES * sizeof *tri);
    uint32_t *queue = malloc(3 * w->n * sizeof *queue); /* and attach_rest's seen, from */
    int rc = -1;
    if (!s || !used || !tri || !queue) {
        w->failure = CB_FAIL_NOMEM;
        goto done;
    }
    s->w = w;
    s->used = used;
    for (int side = 0; side < 4; side++)
        s->triples[side] = tri + side * MAX_TRIPLES;
    memset(w->reserved, 0, w->n);
    /* A side with more candidates than the exact search holds can only be
     * on a large board, so the node count alone picks the method. */
    int found = w->n > CB_EXACT_STARTS_NODES ? choose_large(w, used) == 0 : choose_exact(s);
    if (found == 1) {
        attach_rest(w, queue, queue + w->n, queue + 2 * w->n);
        rc = 0;
    }
done:
    free(queue);
    free(tri);
    free(used);
    free(s);
    return rc;
}
