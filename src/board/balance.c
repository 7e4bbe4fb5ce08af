/* Step 3b: even out the starts' hop counts.
 *
 * The core graph is a sparse, degree-capped subgraph of the triangulation,
 * so hop counts are noisy: two starts at the same distance from the centre
 * can differ by three hops. A descent search edits the core until every
 * start's hop count lies in {L, L+1}: it adds a triangulation edge
 * (shortening the paths of starts that are too far), removes the fewest
 * edges that lengthen the path of a start that is too near, moves one of a
 * start's two edges to another neighbour, removes one edge, or adds an edge
 * to a full node in place of another of its edges, keeping the degree caps,
 * every node connected, and no bridge between a start and the centre. */
#include <stdlib.h>
#include <string.h>
#include "board/hops.h"
#include "board/work.h"

#define MAX_ROUNDS 80

typedef struct {
    cb_work *w;
    cb_hops hops;       /* w->hops, updated edit by edit */
    uint32_t *queue, *starts;
    int n_starts;
    /* bridge search scratch */
    uint32_t *disc, *low, *parent, *iter, *stack, *below;
    uint8_t *flow;
    uint8_t *near;      /* large boards: nodes within NEAR_HOPS of a start */
    uint8_t *on_path;   /* nodes on some shortest path from the centre to a start */
    cb_pair_search pairs; /* the bridge search near an edit */
    int reached;        /* every node reaches the centre before the edit */
} balancer;

/* Marks the nodes on shortest paths to the starts: from each start, up the
 * edges to neighbours one hop nearer the centre. Removing an edge whose far
 * end is not marked changes no start's hop count, so it is not tried. */
static void mark_paths(balancer *b)
{
    cb_work *w = b->w;
    uint32_t *q = b->stack, head = 0, tail = 0;
    memset(b->on_path, 0, w->n);
    for (int i = 0; i < b->n_starts; i++) {
        b->on_path[b->starts[i]] = 1;
        q[tail++] = b->starts[i];
    }
    while (head < tail) {
        uint32_t v = q[head++];
        const uint32_t *nv = w->adj + (size_t)v * CB_MAX_DEG;
        for (int k = 0; k < w->deg[v]; k++) {
            uint32_t u = nv[k];
            if (!b->on_path[u] && w->hops[u] == w->hops[v] - 1 && w->hops[u] >= 0) {
                b->on_path[u] = 1;
                q[tail++] = u;
            }
        }
    }
}

/* On a large board each round would try every edge with a full search:
 * O(n^2). Only edges near a start can change a start's hops cheaply, so the
 * additions and removals tried are those with both ends this close to one. */
#define LARGE_BOARD 400
#define NEAR_HOPS 4

static void mark_near(balancer *b)
{
    cb_work *w = b->w;
    uint32_t *q = b->stack, *depth = b->below, head = 0, tail = 0;
    memset(b->near, 0, w->n);
    for (int i = 0; i < b->n_starts; i++) {
        b->near[b->starts[i]] = 1;
        depth[b->starts[i]] = 0;
        q[tail++] = b->starts[i];
    }
    while (head < tail) {
        uint32_t v = q[head++];
        if (depth[v] == NEAR_HOPS)
            continue;
        for (int k = 0; k < w->deg[v]; k++) {
            uint32_t u = w->adj[(size_t)v * CB_MAX_DEG + (size_t)k];
            if (!b->near[u]) {
                b->near[u] = 1;
                depth[u] = depth[v] + 1;
                q[tail++] = u;
            }
        }
    }
}

static int far_edge(const balancer *b, cb_edge e)
{
    return b->near && !(b->near[e.a] && b->near[e.b]);
}

/* Hops outside the best band {L, L+1}, summed over the starts, in the high
 * bits; below them the spread of the hops (n * sum h^2 - (sum h)^2), so that
 * among edits that leave the first unchanged the search still takes one that
 * draws the starts together: with hops {5,5,5,6,...,6,7} lengthening one 5
 * leaves the first figure at 1, but three such edits make it 0. */
#define SPREAD_BITS 32
#define COST_SPAN 64 /* hop spreads counted by histogram */

static long long cost(const balancer *b)
{
    int lo = 1 << 30, hi = -1;
    long long sum = 0, sum2 = 0;
    for (int i = 0; i < b->n_starts; i++) {
        int h = b->w->hops[b->starts[i]];
        if (h < 0)
            return (long long)1 << 60;
        lo = h < lo ? h : lo;
        hi = h > hi ? h : hi;
        sum += h;
        sum2 += (long long)h * h;
    }
    /* Band {L, L+1}: L = hi is never better than hi - 1, nor L < lo than lo. */
    int best = hi - lo <= 1 ? 0 : 1 << 30;
    const cb_work *w = b->w;
    if (w->hop_band_min > 0 || w->hop_band_max < CB_BAND_ANY) {
        /* A game's later sheet: L within the game's band (the distance is
         * convex in L, least for some L in lo - 1 .. hi). */
        int l0 = lo - 1 > w->hop_band_min ? lo - 1 : w->hop_band_min;
        int l1 = hi < w->hop_band_max ? hi : w->hop_band_max;
        l0 = l0 < w->hop_band_max ? l0 : w->hop_band_max;
        l1 = l1 > l0 ? l1 : l0;
        best = 1 << 30;
        for (int L = l0; L <= l1; L++) {
            int c = 0;
            for (int i = 0; i < b->n_starts; i++) {
                int h = w->hops[b->starts[i]];
                c += h < L ? L - h : h > L + 1 ? h - L - 1 : 0;
            }
            best = c < best ? c : best;
        }
    } else if (best > 0 && hi - lo < COST_SPAN) {
        /* From the hop counts: c(L+1) = c(L) + #{h <= L} - #{h >= L+2}. */
        int cnt[COST_SPAN + 1];
        for (int t = 0; t <= hi - lo; t++)
            cnt[t] = 0;
        for (int i = 0; i < b->n_starts; i++)
            cnt[b->w->hops[b->starts[i]] - lo]++;
        int c = 0, below = 0, above = 0; /* c(lo); #{h <= L}; #{h >= L+2} */
        for (int t = 2; t <= hi - lo; t++) {
            c += (t - 1) * cnt[t];
            above += cnt[t];
        }
        best = c;
        for (int L = lo; L + 1 < hi && best > 0; L++) {
            below += cnt[L - lo];
            c += below - above;
            above -= cnt[L + 2 - lo];
            best = c < best ? c : best;
        }
    } else {
        for (int L = lo; L < hi && best > 0; L++) { /* wide spreads */
            int c = 0;
            for (int i = 0; i < b->n_starts; i++) {
                int h = b->w->hops[b->starts[i]];
                c += h < L ? L - h : h > L + 1 ? h - L - 1 : 0;
            }
            best = c < best ? c : best;
        }
    }
    long long spread = b->n_starts * sum2 - sum * sum;
    if (spread >= (long long)1 << SPREAD_BITS)
        spread = ((long long)1 << SPREAD_BITS) - 1;
    return (long long)best << SPREAD_BITS | spread;
}

/* The hops outside the band alone: 0 when the starts are fair. */
static int unfair(long long c)
{
    return (int)(c >> SPREAD_BITS);
}

/* Did the trial edit move a start? Only starts' hops enter the cost, so an
 * edit that moves none leaves it as it was and cannot be the best. */
static int moved_start(const balancer *b)
{
    const cb_hops *h = &b->hops;
    for (size_t i = 0; i < h->n_log; i++)
        if (b->w->role[h->log_v[i]] == CB_ROLE_START)
            return 1;
    return 0;
}

static int all_reached(const balancer *b)
{
    return cb_hops_all_reached(&b->hops);
}

/* 1 when, after removing DEL (N_DEL edges) in a trial edit, some bridge
 * separates a start from the centre (see work.h). */
static int start_behind_bridge(balancer *b, const cb_edge *del, int n_del)
{
    if (!b->reached)
        return cb_work_start_behind_bridge(b->w, b->disc);
    return cb_work_start_behind_bridge_after(b->w, del, n_del, &b->pairs, b->disc);
}

static int editable(const cb_work *w, uint32_t v)
{
    return w->role[v] == CB_ROLE_CORE;
}

/* Is v already a start's neighbour (starts may not share one)? */
static int near_start(const cb_work *w, uint32_t v)
{
    const uint32_t *nv = w->adj + (size_t)v * CB_MAX_DEG;
    for (int i = 0; i < w->deg[v]; i++)
        if (w->role[nv[i]] == CB_ROLE_START)
            return 1;
    return 0;
}

/* Lengthens start s's path to the centre: every shortest path runs down the
 * DAG of edges u->v with hops[v] = hops[u] - 1; a minimum edge cut of that
 * DAG between s and the centre (unit-capacity max-flow) is the fewest edges
 * whose removal adds a hop. Writes the cut into CUT (at most MAX_CUT edges)
 * and returns its size, or 0 when the cut touches an edge that may not go. */
#define MAX_CUT 4

static int shortest_path_cut(balancer *b, uint32_t s, cb_edge *cut)
{
    cb_work *w = b->w;
    size_t n = w->n;
    /* flow[v*MAX_DEG+i] = 1: one unit runs along v's i-th edge, downhill. */
    uint8_t *flow = b->flow;
    memset(flow, 0, n * CB_MAX_DEG);
    uint32_t *prev = b->parent, *slot = b->iter, *queue = b->stack;
    int paths = 0;
    size_t tail = 0;
    for (;;) {
        for (size_t v = 0; v < n; v++)
            prev[v] = UINT32_MAX;
        size_t head = 0;
        tail = 0;
        queue[tail++] = s;
        prev[s] = s;
        while (head < tail && prev[w->center] == UINT32_MAX) {
            uint32_t v = queue[head++];
            for (int i = 0; i < w->deg[v]; i++) {
                uint32_t u = w->adj[(size_t)v * CB_MAX_DEG + (size_t)i];
                int down = w->hops[u] == w->hops[v] - 1;
                int up = w->hops[u] == w->hops[v] + 1;
                int residual = 0;
                /* The start's own edges never saturate: the cut must lie in
                 * the core, where edges may be removed. */
                if (down && (v == s || !flow[(size_t)v * CB_MAX_DEG + (size_t)i]))
                    residual = 1;
                if (up) { /* undo flow u->v */
                    for (int j = 0; j < w->deg[u]; j++)
                        if (w->adj[(size_t)u * CB_MAX_DEG + (size_t)j] == v &&
                            flow[(size_t)u * CB_MAX_DEG + (size_t)j])
                            residual = 1;
                }
                if (!residual || prev[u] != UINT32_MAX)
                    continue;
                prev[u] = v;
                slot[u] = (uint32_t)i;
                queue[tail++] = u;
            }
        }
        if (prev[w->center] == UINT32_MAX)
            break;
        if (++paths > MAX_CUT)
            return 0;
        for (uint32_t v = w->center; v != s; v = prev[v]) {
            uint32_t p = prev[v];
            if (w->hops[v] == w->hops[p] - 1) {
                if (p != s)
                    flow[(size_t)p * CB_MAX_DEG + slot[v]] = 1;
            } else { /* cancel the flow v->p */
                for (int j = 0; j < w->deg[v]; j++)
                    if (w->adj[(size_t)v * CB_MAX_DEG + (size_t)j] == p)
                        flow[(size_t)v * CB_MAX_DEG + (size_t)j] = 0;
            }
        }
    }
    /* The cut: downhill edges from the residual-reachable side (prev set,
     * the last search's queue) to the rest, in node order and each node's
     * edge order. */
    int k = 0, at[MAX_CUT];
    for (size_t q = 0; q < tail; q++) {
        uint32_t v = queue[q];
        for (int i = 0; i < w->deg[v]; i++) {
            uint32_t u = w->adj[(size_t)v * CB_MAX_DEG + (size_t)i];
            if (w->hops[u] != w->hops[v] - 1 || prev[u] != UINT32_MAX)
                continue;
            if (k == MAX_CUT || !editable(w, v) || !editable(w, u))
                return 0;
            int j = k++;
            for (; j > 0 && (cut[j - 1].a > v || (cut[j - 1].a == v && at[j - 1] > i)); j--) {
                cut[j] = cut[j - 1];
                at[j] = at[j - 1];
            }
            cut[j].a = v;
            cut[j].b = u;
            at[j] = i;
        }
    }
    return k;
}

/* Removes the cut if every end keeps 2 edges; undone when the board breaks. */
static int try_cut(balancer *b, const cb_edge *cut, int k)
{
    cb_work *w = b->w;
    for (int i = 0; i < k; i++) {
        if (w->deg[cut[i].a] < 3 || w->deg[cut[i].b] < 3) {
            for (int j = 0; j < i; j++)
                cb_work_add_edge(w, cut[j].a, cut[j].b);
            cb_hops_undo(&b->hops);
            return 0;
        }
        cb_work_remove_edge(w, cut[i].a, cut[i].b);
        cb_hops_removed(&b->hops, cut[i].a, cut[i].b);
    }
    return 1;
}

static void undo_cut(balancer *b, const cb_edge *cut, int k)
{
    for (int i = 0; i < k; i++)
        cb_work_add_edge(b->w, cut[i].a, cut[i].b);
    cb_hops_undo(&b->hops);
}

/* An edit of the core and the cost it leads to. */
typedef struct {
    long long cost;
    int kind;           /* 0: none yet; see apply_edit */
    cb_edge edge;       /* the edge added or removed; re-attachment: s-a removed */
    cb_edge swap;       /* re-attachment: s-c added */
    cb_edge cut[MAX_CUT];
    int k;              /* cut edges */
} edit;

enum { EDIT_NONE, EDIT_ADD, EDIT_REMOVE, EDIT_REATTACH, EDIT_CUT };

/* The cost with edge E added (CURRENT when no start moves); the core is
 * left as it was. */
static long long cost_with(balancer *b, cb_edge e, long long current)
{
    cb_work *w = b->w;
    cb_work_add_edge(w, e.a, e.b);
    cb_hops_added(&b->hops, e.a, e.b);
    long long c = moved_start(b) ? cost(b) : current;
    cb_work_remove_edge(w, e.a, e.b);
    cb_hops_undo(&b->hops);
    return c;
}

/* Additions: triangulation edges whose ends differ by 2+ hops. */
static void try_additions(balancer *b, long long current, edit *best)
{
    cb_work *w = b->w;
    for (size_t k = 0; k < w->n_cand; k++) {
        cb_edge e = w->cand[k];
        if (far_edge(b, e)) continue;
        if (!editable(w, e.a) && e.a != w->center) continue;
        if (!editable(w, e.b) && e.b != w->center) continue;
        int d = w->hops[e.a] - w->hops[e.b];
        if ((d < 2 && d > -2) || cb_work_has_edge(w, e.a, e.b) ||
            cb_work_room(w, e.a) <= 0 || cb_work_room(w, e.b) <= 0)
            continue;
        long long c = cost_with(b, e, current);
        if (c < best->cost) {
            best->cost = c;
            best->kind = EDIT_ADD;
            best->edge = e;
        }
    }
}

/* Removals: core edges on shortest paths to starts (ends differ by one
 * hop). */
static void try_removals(balancer *b, long long current, edit *best)
{
    cb_work *w = b->w;
    mark_paths(b);
    for (size_t k = 0; k < w->n_cand; k++) {
        cb_edge e = w->cand[k];
        if (far_edge(b, e) || !editable(w, e.a) || !editable(w, e.b))
            continue;
        int d = w->hops[e.a] - w->hops[e.b];
        if ((d != 1 && d != -1) || w->deg[e.a] < 3 || w->deg[e.b] < 3 ||
            !b->on_path[d > 0 ? e.a : e.b] || !cb_work_has_edge(w, e.a, e.b))
            continue;
        cb_work_remove_edge(w, e.a, e.b);
        long long c = cb_hops_removed_trial(&b->hops, e.a, e.b) ? cost(b) : current;
        if (c < best->cost && all_reached(b) && !start_behind_bridge(b, &e, 1)) {
            best->cost = c;
            best->kind = EDIT_REMOVE;
            best->edge = e;
        }
        cb_work_add_edge(w, e.a, e.b);
        cb_hops_undo(&b->hops);
    }
}

/* Cuts: lengthen the path of each start that is nearest the centre. */
static void try_cuts(balancer *b, long long current, edit *best)
{
    cb_work *w = b->w;
    cb_edge cut[MAX_CUT];
    int nearest = INT32_MAX;
    for (int i = 0; i < b->n_starts; i++)
        nearest = w->hops[b->starts[i]] < nearest ? w->hops[b->starts[i]] : nearest;
    for (int i = 0; i < b->n_starts; i++) {
        uint32_t s = b->starts[i];
        if (w->hops[s] != nearest)
            continue;
        int k = shortest_path_cut(b, s, cut);
        if (k == 0 || !try_cut(b, cut, k))
            continue;
        long long c = moved_start(b) ? cost(b) : current;
        if (c < best->cost && all_reached(b) && !start_behind_bridge(b, cut, k)) {
            best->cost = c;
            best->kind = EDIT_CUT;
            best->k = k;
            memcpy(best->cut, cut, sizeof cut);
        }
        undo_cut(b, cut, k);
    }
}

/* Re-attachments: start s trades neighbour a for a free neighbour c. */
static void try_reattachments(balancer *b, long long current, edit *best)
{
    cb_work *w = b->w;
    for (int i = 0; i < b->n_starts; i++) {
        uint32_t s = b->starts[i];
        for (uint32_t k = w->cand_off[s]; k < w->cand_off[s + 1]; k++) {
            uint32_t c = w->cand_nbr[k];
            if (!editable(w, c) || cb_work_room(w, c) <= 0 || cb_work_has_edge(w, s, c) ||
                near_start(w, c) || !cb_work_steep_enough(w, s, c, w->start_side[s]))
                continue;
            for (int j = 0; j < 2; j++) {
                uint32_t a = w->adj[(size_t)s * CB_MAX_DEG + (size_t)j];
                cb_work_remove_edge(w, s, a);
                cb_hops_removed(&b->hops, s, a);
                cb_work_add_edge(w, s, c);
                cb_hops_added(&b->hops, s, c);
                long long cst = moved_start(b) ? cost(b) : current;
                cb_edge gone = {s, a};
                if (cst < best->cost && all_reached(b) && !start_behind_bridge(b, &gone, 1)) {
                    best->cost = cst;
                    best->kind = EDIT_REATTACH;
                    best->edge = gone;
                    best->swap = (cb_edge){s, c};
                }
                cb_work_remove_edge(w, s, c);
                cb_work_add_edge(w, s, a);
                cb_hops_undo(&b->hops);
                /* remove+add moved a to the end; restore the original order */
                if (j == 0) {
                    uint32_t *ns = w->adj + (size_t)s * CB_MAX_DEG;
                    uint32_t t = ns[0];
                    ns[0] = ns[1];
                    ns[1] = t;
                }
            }
        }
    }
}

/* Additions to a full node: triangulation edges whose ends differ by 2+
 * hops where one end has no room, made room for by removing another of its
 * edges. Tried last, when no single edit helps: degree caps block many
 * additions. */
static void try_evictions(balancer *b, long long current, edit *best)
{
    cb_work *w = b->w;
    for (size_t k = 0; k < w->n_cand; k++) {
        cb_edge e = w->cand[k];
        if (far_edge(b, e) || !editable(w, e.a) || !editable(w, e.b))
            continue;
        int d = w->hops[e.a] - w->hops[e.b];
        int room_a = cb_work_room(w, e.a), room_b = cb_work_room(w, e.b);
        if ((d < 2 && d > -2) || (room_a > 0) == (room_b > 0) || cb_work_has_edge(w, e.a, e.b))
            continue;
        uint32_t f = room_a > 0 ? e.b : e.a; /* the full end */
        /* The addition must do some good by itself first. */
        if (w->deg[f] < 3 || cost_with(b, e, current) >= current)
            continue;
        uint32_t nf[CB_MAX_DEG]; /* the trials below reorder f's list */
        int deg = w->deg[f];
        memcpy(nf, w->adj + (size_t)f * CB_MAX_DEG, (size_t)deg * sizeof *nf);
        for (int i = 0; i < deg; i++) {
            uint32_t c = nf[i];
            if (!editable(w, c) || w->deg[c] < 3 || c == e.a || c == e.b)
                continue;
            cb_work_remove_edge(w, f, c);
            cb_hops_removed(&b->hops, f, c);
            cb_work_add_edge(w, e.a, e.b);
            cb_hops_added(&b->hops, e.a, e.b);
            long long cst = moved_start(b) ? cost(b) : current;
            cb_edge gone = {f, c};
            if (cst < best->cost && all_reached(b) && !start_behind_bridge(b, &gone, 1)) {
                best->cost = cst;
                best->kind = EDIT_REATTACH;
                best->edge = gone;
                best->swap = e;
            }
            cb_work_remove_edge(w, e.a, e.b);
            cb_work_add_edge(w, f, c);
            cb_hops_undo(&b->hops);
        }
    }
}

/* Makes edit E, its hops updated edit by edit as in the trials. */
static void apply_edit(balancer *b, const edit *e)
{
    cb_work *w = b->w;
    switch (e->kind) {
    case EDIT_ADD:
        cb_work_add_edge(w, e->edge.a, e->edge.b);
        cb_hops_added(&b->hops, e->edge.a, e->edge.b);
        break;
    case EDIT_REMOVE:
        cb_work_remove_edge(w, e->edge.a, e->edge.b);
        cb_hops_removed(&b->hops, e->edge.a, e->edge.b);
        break;
    case EDIT_REATTACH:
        cb_work_remove_edge(w, e->edge.a, e->edge.b);
        cb_hops_removed(&b->hops, e->edge.a, e->edge.b);
        cb_work_add_edge(w, e->swap.a, e->swap.b);
        cb_hops_added(&b->hops, e->swap.a, e->swap.b);
        break;
    case EDIT_CUT:
        try_cut(b, e->cut, e->k);
        break;
    }
    cb_hops_begin(&b->hops); /* kept: the next trial's undo comes back here */
}

/* Makes the edit that lowers the cost most (ties: the first in edge
 * order) of the first kind, in the order below, that has one: trying every
 * kind each round cost a third more and balanced no more boards (measured
 * on 1,000 A4 boards); removals, whose trials move the most hops, come last
 * (this order was the cheapest of those measured). Returns 1 if an edit
 * was made. */
static int improve(balancer *b, long long *current)
{
    typedef void (*try_fn)(balancer *, long long, edit *);
    static const try_fn kinds[] = {try_additions, try_cuts, try_evictions, try_reattachments,
                                   try_removals};
    edit best = {.cost = *current};
    if (b->near)
        mark_near(b);
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0] && !best.kind; i++)
        kinds[i](b, *current, &best);
    if (!best.kind)
        return 0;
    apply_edit(b, &best);
    b->reached = 1; /* and no start behind a bridge: the edit was checked */
    *current = best.cost;
    return 1;
}

int cb_balance(cb_work *w)
{
    size_t n = w->n;
    if (cb_close_bridges(w) != 0)
        return -1;
    balancer b = {0};
    b.w = w;
    uint32_t *mem = malloc(8 * n * sizeof *mem);
    b.flow = malloc(n * CB_MAX_DEG + n);
    b.on_path = b.flow ? b.flow + n * CB_MAX_DEG : NULL;
    b.near = n > LARGE_BOARD ? malloc(n) : NULL;
    if (!mem || !b.flow || (n > LARGE_BOARD && !b.near) || cb_hops_init(&b.hops, w) != 0 ||
        cb_pair_search_init(&b.pairs, n) != 0) {
        cb_hops_free(&b.hops);
        cb_pair_search_free(&b.pairs);
        free(mem);
        free(b.flow);
        free(b.near);
        w->failure = CB_FAIL_NOMEM;
        return -1;
    }
    b.queue = mem;
    b.starts = mem + n;
    b.disc = mem + 2 * n;
    b.low = mem + 3 * n;
    b.parent = mem + 4 * n;
    b.iter = mem + 5 * n;
    b.stack = mem + 6 * n;
    b.below = mem + 7 * n;
    for (uint32_t v = 0; v < n; v++)
        if (w->role[v] == CB_ROLE_START)
            b.starts[b.n_starts++] = v;
    long long c = cost(&b);
    /* Every edit below keeps a start that has two edge-disjoint ways to the
     * centre so; one behind a bridge that cb_close_bridges could not close
     * stays there. */
    if (cb_work_start_behind_bridge(w, b.disc)) {
        cb_pair_search_free(&b.pairs);
        cb_hops_free(&b.hops);
        free(mem);
        free(b.flow);
        free(b.near);
        w->failure = CB_FAIL_START_BEHIND_BRIDGE;
        return -1;
    }
    b.reached = all_reached(&b);
    for (int round = 0; round < MAX_ROUNDS && unfair(c) > 0; round++)
        if (!improve(&b, &c))
            break;
    cb_pair_search_free(&b.pairs);
    cb_hops_free(&b.hops);
    free(mem);
    free(b.flow);
    free(b.near);
    if (unfair(c) > 0) {
        w->failure = CB_FAIL_HOP_SPREAD;
        return -1;
    }
    return 0;
}
