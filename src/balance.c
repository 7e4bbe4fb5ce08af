/* Step 3b: even out the starts' hop counts.
 *
 * The core graph is a sparse, degree-capped subgraph of the triangulation,
 * so hop counts are noisy: two starts at the same distance from the centre
 * can differ by three hops. A steepest-descent search edits the core until
 * every start's hop count lies in {L, L+1}: it adds a triangulation edge
 * (shortening the paths of starts that are too far) or removes one
 * (lengthening the paths of starts that are too near), keeping the degree
 * caps, every node connected, and no bridge between a start and the centre. */
#include <stdlib.h>
#include <string.h>
#include "work.h"

#define MAX_ROUNDS 80

typedef struct {
    cb_work *w;
    uint32_t *queue, *starts;
    int n_starts;
    /* bridge search scratch */
    uint32_t *disc, *low, *parent, *iter, *stack, *below;
} balancer;

/* Hops outside the best band {L, L+1}, summed over the starts. */
static int cost(const balancer *b)
{
    int lo = 1 << 30, hi = -1;
    for (int i = 0; i < b->n_starts; i++) {
        int h = b->w->hops[b->starts[i]];
        if (h < 0)
            return 1 << 30;
        lo = h < lo ? h : lo;
        hi = h > hi ? h : hi;
    }
    int best = 1 << 30;
    for (int L = lo; L <= hi; L++) {
        int c = 0;
        for (int i = 0; i < b->n_starts; i++) {
            int h = b->w->hops[b->starts[i]];
            c += h < L ? L - h : h > L + 1 ? h - L - 1 : 0;
        }
        best = c < best ? c : best;
    }
    return best;
}

static int all_reached(const cb_work *w)
{
    for (size_t v = 0; v < w->n; v++)
        if (w->role[v] != CB_ROLE_DROPPED && w->hops[v] < 0)
            return 0;
    return 1;
}

/* 1 when some bridge separates a start from the centre (Tarjan from the
 * centre; a tree edge p-c is such a bridge when low[c] > disc[p] and c's
 * subtree holds a start). */
static int start_behind_bridge(balancer *b)
{
    cb_work *w = b->w;
    const uint32_t NONE = UINT32_MAX;
    for (size_t v = 0; v < w->n; v++) {
        b->disc[v] = NONE;
        b->below[v] = w->role[v] == CB_ROLE_START;
    }
    uint32_t time = 0;
    size_t top = 0;
    b->stack[top++] = w->center;
    b->disc[w->center] = b->low[w->center] = time++;
    b->parent[w->center] = NONE;
    b->iter[w->center] = 0;
    while (top) {
        uint32_t v = b->stack[top - 1];
        if (b->iter[v] < w->deg[v]) {
            uint32_t u = w->adj[(size_t)v * CB_MAX_DEG + b->iter[v]++];
            if (u == b->parent[v])
                continue;
            if (b->disc[u] == NONE) {
                b->disc[u] = b->low[u] = time++;
                b->parent[u] = v;
                b->iter[u] = 0;
                b->stack[top++] = u;
            } else if (b->disc[u] < b->low[v]) {
                b->low[v] = b->disc[u];
            }
        } else {
            top--;
            uint32_t p = b->parent[v];
            if (p == NONE)
                continue;
            if (b->low[v] > b->disc[p] && b->below[v])
                return 1;
            if (b->low[v] < b->low[p])
                b->low[p] = b->low[v];
            b->below[p] += b->below[v];
        }
    }
    return 0;
}

static int editable(const cb_work *w, uint32_t v)
{
    return w->role[v] == CB_ROLE_CORE;
}

/* Tries every useful single-edge edit and keeps the one that lowers the
 * cost most (ties: the first in edge order). Returns 1 if one was made. */
static int improve(balancer *b, int *current)
{
    cb_work *w = b->w;
    int best = *current, best_kind = 0;
    cb_edge best_edge = {0, 0};
    /* Additions: triangulation edges whose ends differ by 2+ hops. */
    for (size_t k = 0; k < w->n_cand; k++) {
        cb_edge e = w->cand[k];
        if (!editable(w, e.a) && e.a != w->center) continue;
        if (!editable(w, e.b) && e.b != w->center) continue;
        int d = w->hops[e.a] - w->hops[e.b];
        if ((d < 2 && d > -2) || cb_work_has_edge(w, e.a, e.b) ||
            cb_work_room(w, e.a) <= 0 || cb_work_room(w, e.b) <= 0)
            continue;
        cb_work_add_edge(w, e.a, e.b);
        cb_work_hops(w, b->queue);
        int c = cost(b);
        cb_work_remove_edge(w, e.a, e.b);
        if (c < best) {
            best = c;
            best_kind = 1;
            best_edge = e;
        }
    }
    /* Removals: core edges on shortest paths (ends differ by one hop). */
    cb_work_hops(w, b->queue);
    for (size_t k = 0; k < w->n_cand; k++) {
        cb_edge e = w->cand[k];
        if (!editable(w, e.a) || !editable(w, e.b) || !cb_work_has_edge(w, e.a, e.b))
            continue;
        int d = w->hops[e.a] - w->hops[e.b];
        if ((d != 1 && d != -1) || w->deg[e.a] < 3 || w->deg[e.b] < 3)
            continue;
        cb_work_remove_edge(w, e.a, e.b);
        cb_work_hops(w, b->queue);
        int c = cost(b);
        if (c < best && all_reached(w) && !start_behind_bridge(b)) {
            best = c;
            best_kind = 2;
            best_edge = e;
        }
        cb_work_add_edge(w, e.a, e.b);
        cb_work_hops(w, b->queue);
    }
    if (best_kind == 1)
        cb_work_add_edge(w, best_edge.a, best_edge.b);
    else if (best_kind == 2)
        cb_work_remove_edge(w, best_edge.a, best_edge.b);
    cb_work_hops(w, b->queue);
    *current = best;
    return best_kind != 0;
}

int cb_balance(cb_work *w)
{
    size_t n = w->n;
    balancer b = {0};
    b.w = w;
    uint32_t *mem = malloc(8 * n * sizeof *mem);
    if (!mem) {
        w->failure = "out of memory";
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
    cb_work_hops(w, b.queue);
    int c = cost(&b);
    for (int round = 0; round < MAX_ROUNDS && c > 0; round++)
        if (!improve(&b, &c))
            break;
    free(mem);
    if (c > 0) {
        w->failure = "hop spread";
        return -1;
    }
    return 0;
}
