/* Dynamic hop counts (unit-weight shortest paths from the centre) under edge
 * insertions and deletions, after Ramalingam and Reps: an insertion lowers
 * hops by a breadth-first search from the nearer end; a deletion first finds
 * the nodes that lost every shortest path (level by level), then settles
 * them again from their unaffected neighbours. Both touch only the nodes
 * whose hop changes, and the result equals a full BFS (cb_work_hops). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "board/hops.h"

int cb_hops_init(cb_hops *h, cb_work *w)
{
    size_t n = w->n ? w->n : 1;
    memset(h, 0, sizeof *h);
    h->w = w;
    h->logged = calloc(n, sizeof *h->logged);
    h->mark = calloc(n, sizeof *h->mark);
    h->log_v = malloc(n * sizeof *h->log_v);
    h->log_h = malloc(n * sizeof *h->log_h);
    h->aff = malloc(n * sizeof *h->aff);
    h->seeds = malloc(n * sizeof *h->seeds);
    h->queue = malloc(n * sizeof *h->queue);
    h->count = calloc(n + 2, sizeof *h->count);
    h->tent = calloc(n, sizeof *h->tent); /* read (masked off) before set */
    if (!h->logged || !h->mark || !h->log_v || !h->log_h || !h->aff || !h->seeds ||
        !h->queue || !h->count || !h->tent) {
        cb_hops_free(h);
        return -1;
    }
    cb_hops_reset(h);
    return 0;
}

void cb_hops_free(cb_hops *h)
{
    free(h->logged);
    free(h->mark);
    free(h->log_v);
    free(h->log_h);
    free(h->aff);
    free(h->seeds);
    free(h->queue);
    free(h->count);
    free(h->tent);
    memset(h, 0, sizeof *h);
}

void cb_hops_reset(cb_hops *h)
{
    cb_work *w = h->w;
    cb_work_hops(w, h->queue);
    h->unreached = 0;
    for (size_t v = 0; v < w->n; v++)
        h->unreached += w->role[v] != CB_ROLE_DROPPED && w->hops[v] < 0;
    cb_hops_begin(h);
}

void cb_hops_begin(cb_hops *h)
{
    h->n_log = 0;
    h->saved_unreached = h->unreached;
    if (++h->trial == 0) { /* wrapped: old stamps could collide */
        memset(h->logged, 0, h->w->n * sizeof *h->logged);
        h->trial = 1;
    }
}

void cb_hops_undo(cb_hops *h)
{
    for (size_t i = h->n_log; i-- > 0;)
        h->w->hops[h->log_v[i]] = h->log_h[i];
    h->unreached = h->saved_unreached;
    cb_hops_begin(h);
}

int cb_hops_all_reached(const cb_hops *h)
{
    return h->unreached == 0;
}

static void set_hop(cb_hops *h, uint32_t v, int hop)
{
    int *hops = h->w->hops;
    if (h->logged[v] != h->trial) {
        h->logged[v] = h->trial;
        h->log_v[h->n_log] = v;
        h->log_h[h->n_log++] = hops[v];
    }
    h->unreached -= hops[v] < 0;
    h->unreached += hop < 0;
    hops[v] = hop;
}

void cb_hops_added(cb_hops *h, uint32_t a, uint32_t b)
{
    cb_work *w = h->w;
    int *hops = w->hops;
    if (hops[a] < 0 || (hops[b] >= 0 && hops[b] < hops[a])) {
        uint32_t t = a;
        a = b;
        b = t;
    }
    if (hops[a] < 0 || (hops[b] >= 0 && hops[b] <= hops[a] + 1))
        return; /* neither end gets nearer */
    size_t head = 0, tail = 0;
    set_hop(h, b, hops[a] + 1);
    h->queue[tail++] = b;
    while (head < tail) {
        uint32_t x = h->queue[head++];
        const uint32_t *nx = w->adj + (size_t)x * CB_MAX_DEG;
        for (int i = 0; i < w->deg[x]; i++) {
            uint32_t y = nx[i];
            if (w->role[y] == CB_ROLE_DROPPED || (hops[y] >= 0 && hops[y] <= hops[x] + 1))
                continue;
            set_hop(h, y, hops[x] + 1);
            h->queue[tail++] = y;
        }
    }
}

/* Does v keep a neighbour one hop nearer the centre that is not affected? */
static int has_parent(const cb_hops *h, uint32_t v)
{
    const cb_work *w = h->w;
    const uint32_t *nv = w->adj + (size_t)v * CB_MAX_DEG;
    /* Every neighbour looked at, the tests joined without a branch: which
     * one passes, and whether any, is a coin toss. */
    int parent_hop = w->hops[v] - 1, found = 0;
    for (int i = 0, deg = w->deg[v]; i < deg; i++) {
        uint32_t z = nv[i];
        found |= (w->hops[z] == parent_hop) & (h->mark[z] != h->mark_id) &
                 (w->role[z] != CB_ROLE_DROPPED);
    }
    return found;
}

/* cb_hops_removed; with STARTS_ONLY, returns 0 without touching a hop when
 * no start is among the affected nodes, and 1 otherwise. */
static int removed(cb_hops *h, uint32_t a, uint32_t b, int starts_only)
{
    cb_work *w = h->w;
    int *hops = w->hops;
    if (hops[a] < 0 || hops[b] < 0 || hops[a] == hops[b])
        return 0; /* the edge was on no shortest path */
    uint32_t child = hops[a] > hops[b] ? a : b;
    if (++h->mark_id == 0) {
        memset(h->mark, 0, w->n * sizeof *h->mark);
        h->mark_id = 1;
    }
    if (has_parent(h, child))
        return 0;
    /* The affected nodes, level by level: a node is affected when every
     * neighbour one hop nearer is. All of a level is marked before the next
     * level is looked at, because the list grows in hop order. */
    size_t n_aff = 0;
    h->mark[child] = h->mark_id;
    h->aff[n_aff++] = child;
    for (size_t i = 0; i < n_aff; i++) {
        uint32_t x = h->aff[i];
        const uint32_t *nx = w->adj + (size_t)x * CB_MAX_DEG;
        /* The neighbours one hop further and not yet affected, picked out
         * without a branch (which ones qualify is a coin toss), then asked for
         * another parent in order, as before: marking one changes only
         * what has_parent sees. */
        uint32_t further[CB_MAX_DEG];
        int nf = 0, next = hops[x] + 1;
        for (int k = 0, deg = w->deg[x]; k < deg; k++) {
            uint32_t y = nx[k];
            further[nf] = y;
            nf += (hops[y] == next) & (h->mark[y] != h->mark_id) &
                  (w->role[y] != CB_ROLE_DROPPED);
        }
        for (int k = 0; k < nf; k++) {
            uint32_t y = further[k];
            if (has_parent(h, y))
                continue;
            h->mark[y] = h->mark_id;
            h->aff[n_aff++] = y;
        }
    }
    if (starts_only) {
        size_t i = 0;
        while (i < n_aff && w->role[h->aff[i]] != CB_ROLE_START)
            i++;
        if (i == n_aff)
            return 0;
    }
    /* Each affected node's best hop through unaffected neighbours. */
    int lo = INT_MAX, hi = -1;
    for (size_t i = 0; i < n_aff; i++) {
        uint32_t x = h->aff[i];
        const uint32_t *nx = w->adj + (size_t)x * CB_MAX_DEG;
        int t = INT_MAX;
        for (int k = 0, deg = w->deg[x]; k < deg; k++) {
            uint32_t z = nx[k];
            int via = hops[z] + 1;
            int take = (h->mark[z] != h->mark_id) & (hops[z] >= 0) &
                       (w->role[z] != CB_ROLE_DROPPED) & (via < t);
            t = take ? via : t;
        }
        h->tent[x] = t;
        if (t != INT_MAX) {
            lo = t < lo ? t : lo;
            hi = t > hi ? t : hi;
        }
    }
    for (size_t i = 0; i < n_aff; i++)
        set_hop(h, h->aff[i], -1);
    if (hi < 0)
        return 1; /* cut off from the centre */
    /* Seeds sorted by tentative hop (counting sort; hops are below n). */
    size_t n_seeds = 0;
    for (size_t i = 0; i < n_aff; i++)
        if (h->tent[h->aff[i]] != INT_MAX)
            h->count[h->tent[h->aff[i]] - lo + 1]++;
    for (int t = lo; t <= hi; t++)
        h->count[t - lo + 1] += h->count[t - lo];
    for (size_t i = 0; i < n_aff; i++) {
        uint32_t x = h->aff[i];
        if (h->tent[x] != INT_MAX) {
            h->seeds[h->count[h->tent[x] - lo]++] = x;
            n_seeds++;
        }
    }
    memset(h->count, 0, (size_t)(hi - lo + 2) * sizeof *h->count);
    /* Settle in hop order, merging the sorted seeds with a FIFO of nodes
     * reached from settled ones (its hops never decrease either). */
    size_t s = 0, head = 0, tail = 0, n = w->n;
    uint32_t sink;
    while (s < n_seeds || head < tail) {
        uint32_t v;
        int d;
        if (head == tail || (s < n_seeds && h->tent[h->seeds[s]] <= h->tent[h->queue[head]])) {
            v = h->seeds[s++];
        } else {
            v = h->queue[head++];
        }
        d = h->tent[v];
        if (hops[v] >= 0)
            continue; /* settled earlier at a smaller hop */
        set_hop(h, v, d);
        const uint32_t *nv = w->adj + (size_t)v * CB_MAX_DEG;
        /* Without a branch, as the scans above: each node is queued at
         * most once (d never falls), and written into SINK once the queue
         * holds n. */
        for (int k = 0, deg = w->deg[v]; k < deg; k++) {
            uint32_t y = nv[k];
            int take = (h->mark[y] == h->mark_id) & (hops[y] < 0) & (d + 1 < h->tent[y]);
            h->tent[y] = take ? d + 1 : h->tent[y];
            *(tail < n ? h->queue + tail : &sink) = y;
            tail += (size_t)take;
        }
    }
    return 1;
}

void cb_hops_removed(cb_hops *h, uint32_t a, uint32_t b)
{
    removed(h, a, b, 0);
}

int cb_hops_removed_trial(cb_hops *h, uint32_t a, uint32_t b)
{
    return removed(h, a, b, 1);
}
