#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "base/board_geometry.h"
#include "board/work.h"

int cb_work_init(cb_work *w, size_t n)
{
    memset(w, 0, sizeof *w);
    w->n = n;
    w->p = calloc(n, sizeof *w->p);
    w->sides = calloc(n, 1);
    w->role = calloc(n, 1);
    w->deg = calloc(n, 1);
    w->reserved = calloc(n, 1);
    w->adj = calloc(n * CB_MAX_DEG, sizeof *w->adj);
    w->hops = malloc(n * sizeof *w->hops);
    w->start_side = malloc(n * sizeof *w->start_side);
    if (!w->p || !w->sides || !w->role || !w->deg || !w->reserved || !w->adj || !w->hops ||
        !w->start_side) {
        cb_work_free(w);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        w->start_side[i] = CB_SIDE_NONE;
    w->hop_band_max = w->cut_band_max = CB_BAND_ANY;
    w->cut_band_min = CB_CUT_MIN;
    w->cut_width = 1;
    return 0;
}

void cb_work_free(cb_work *w)
{
    free(w->p);
    free(w->sides);
    free(w->role);
    free(w->deg);
    free(w->reserved);
    free(w->adj);
    free(w->hops);
    free(w->start_side);
    free(w->cand);
    free(w->cand_off);
    free(w->cand_nbr);
    free(w->marked);
    free(w->scratch);
    memset(w, 0, sizeof *w);
}

/* Drops the first b from a's neighbours, keeping the others in order
 * (shift rather than swap, so neighbour order stays deterministic). One
 * pass that copies each kept neighbour down: no memmove call for a few words. */
static void unlink_one(uint32_t *na, uint8_t *deg, uint32_t b)
{
    int d = *deg, k = 0;
    for (int i = 0; i < d; i++)
        if (na[i] != b || k < i)
            na[k++] = na[i];
    *deg = (uint8_t)k;
}

void cb_work_remove_edge(cb_work *w, uint32_t a, uint32_t b)
{
    unlink_one(w->adj + (size_t)a * CB_MAX_DEG, &w->deg[a], b);
    unlink_one(w->adj + (size_t)b * CB_MAX_DEG, &w->deg[b], a);
}

void cb_work_start_rect(const cb_work *w, uint32_t v, cb_side side,
                        double *x0, double *y0, double *x1, double *y1)
{
    double d[4];
    cb_start_offsets(side, w->r, d);
    cb_point p = w->p[v];
    *x0 = p.x + d[0], *y0 = p.y + d[1], *x1 = p.x + d[2], *y1 = p.y + d[3];
}

void cb_work_hops(cb_work *w, uint32_t *queue)
{
    /* Locals, so that the stores to hops (which a uint8_t may alias) do
     * not reload the arrays and the degree on every neighbour. */
    int *hops = w->hops;
    const uint8_t *deg = w->deg, *role = w->role;
    const uint32_t *adj = w->adj;
    size_t n = w->n;
    uint32_t sink;
    for (size_t i = 0; i < n; i++)
        hops[i] = -1;
    size_t head = 0, tail = 0;
    queue[tail++] = w->center;
    hops[w->center] = 0;
    while (head < tail) {
        uint32_t v = queue[head++];
        const uint32_t *nv = adj + (size_t)v * CB_MAX_DEG;
        int next = hops[v] + 1;
        /* Without a branch: whether a neighbour is new is hard to
         * predict. Each is written at the tail and kept when new (once
         * the queue holds every node, into SINK: QUEUE has room for n). */
        for (int i = 0, dv = deg[v]; i < dv; i++) {
            uint32_t u = nv[i];
            int take = (hops[u] < 0) & (role[u] != CB_ROLE_DROPPED);
            hops[u] = take ? next : hops[u];
            *(tail < n ? queue + tail : &sink) = u;
            tail += (size_t)take;
        }
    }
}

int cb_work_steep_enough(const cb_work *w, uint32_t s, uint32_t a, cb_side side)
{
    double dx = w->p[a].x - w->p[s].x, dy = w->p[a].y - w->p[s].y;
    double inward = side == CB_SIDE_TOP ? dy : side == CB_SIDE_BOTTOM ? -dy
                    : side == CB_SIDE_LEFT ? dx : -dx;
    return inward >= sin(CB_START_MIN_ANGLE) * hypot(dx, dy);
}

int cb_work_shows(const cb_work *w, uint32_t a, uint32_t b, cb_side side)
{
    if (w->r < CB_DOT_MIN_NODE_RADIUS_MM)
        return 1;
    double dx = w->p[b].x - w->p[a].x, dy = w->p[b].y - w->p[a].y, len = sqrt(dx * dx + dy * dy);
    double ux = dx / len, uy = dy / len, t = w->r;
    if (side != CB_SIDE_NONE) {
        double d[4];
        cb_start_offsets(side, w->r, d);
        t = INFINITY;
        if (ux > 1e-12) t = fmin(t, d[2] / ux);
        if (ux < -1e-12) t = fmin(t, d[0] / ux);
        if (uy > 1e-12) t = fmin(t, d[3] / uy);
        if (uy < -1e-12) t = fmin(t, d[1] / uy);
    }
    return len - t - w->r >= CB_MIN_VISIBLE_MM + 0.05;
}

cb_side cb_side_of_mask(uint8_t sides)
{
    for (int i = 0; i < 4; i++)
        if (sides == (1u << i))
            return (cb_side)i;
    return CB_SIDE_NONE;
}

int cb_work_index_cand(cb_work *w)
{
    free(w->cand_off);
    free(w->cand_nbr);
    w->cand_off = calloc(w->n + 1, sizeof *w->cand_off);
    w->cand_nbr = malloc((w->n_cand ? 2 * w->n_cand : 1) * sizeof *w->cand_nbr);
    if (!w->cand_off || !w->cand_nbr)
        return -1;
    uint32_t *off = w->cand_off, *nbr = w->cand_nbr;
    const cb_edge *cand = w->cand;
    for (size_t k = 0; k < w->n_cand; k++) {
        off[cand[k].a + 1]++;
        off[cand[k].b + 1]++;
    }
    for (size_t v = 0; v < w->n; v++)
        off[v + 1] += off[v];
    /* In cand order, so each node's list stays shortest first. off[v]
     * serves as v's cursor and so ends at v + 1's start: shift back. */
    for (size_t k = 0; k < w->n_cand; k++) {
        nbr[off[cand[k].a]++] = cand[k].b;
        nbr[off[cand[k].b]++] = cand[k].a;
    }
    memmove(off + 1, off, w->n * sizeof *off);
    off[0] = 0;
    return 0;
}

void cb_work_reset_graph(cb_work *w)
{
    memset(w->role, 0, w->n);
    memset(w->deg, 0, w->n);
    memset(w->reserved, 0, w->n);
    for (size_t i = 0; i < w->n; i++)
        w->start_side[i] = CB_SIDE_NONE;
    free(w->cand);
    free(w->cand_off);
    free(w->cand_nbr);
    w->cand = NULL;
    w->cand_off = w->cand_nbr = NULL;
    w->n_cand = 0;
    w->failure = CB_FAIL_NONE;
}

void cb_work_retry(cb_work *w)
{
    memcpy(w->role, w->marked, w->n);
    memset(w->deg, 0, w->n);
    memset(w->reserved, 0, w->n);
    for (size_t i = 0; i < w->n; i++)
        w->start_side[i] = CB_SIDE_NONE;
    w->failure = CB_FAIL_NONE;
}

const char *cb_failure_text(cb_failure failure)
{
    switch (failure) {
    case CB_FAIL_NONE: return "none";
    case CB_FAIL_NOMEM: return "out of memory";
    case CB_FAIL_DISCONNECTED: return "disconnected";
    case CB_FAIL_DEGREE_CAP: return "a node over the degree cap";
    case CB_FAIL_FEW_START_CANDIDATES: return "too few start candidates on a side";
    case CB_FAIL_NO_FAIR_STARTS: return "no fair choice of starts";
    case CB_FAIL_START_BEHIND_BRIDGE: return "a start behind a bridge";
    case CB_FAIL_HOP_SPREAD: return "hop spread";
    case CB_FAIL_CUT_SPREAD: return "shortest-cut spread";
    }
    return "unknown";
}

int cb_work_start_behind_bridge(const cb_work *w, uint32_t *scratch)
{
    size_t n = w->n;
    uint32_t *disc = scratch, *low = scratch + n, *parent = scratch + 2 * n,
             *iter = scratch + 3 * n, *stack = scratch + 4 * n, *below = scratch + 5 * n;
    const uint32_t NONE = UINT32_MAX;
    for (size_t v = 0; v < n; v++) {
        disc[v] = NONE;
        below[v] = w->role[v] == CB_ROLE_START;
    }
    uint32_t time = 0;
    size_t top = 0;
    stack[top++] = w->center;
    disc[w->center] = low[w->center] = time++;
    parent[w->center] = NONE;
    iter[w->center] = 0;
    while (top) {
        uint32_t v = stack[top - 1];
        if (iter[v] < w->deg[v]) {
            uint32_t u = w->adj[(size_t)v * CB_MAX_DEG + iter[v]++];
            if (u == parent[v])
                continue;
            if (disc[u] == NONE) {
                disc[u] = low[u] = time++;
                parent[u] = v;
                iter[u] = 0;
                stack[top++] = u;
            } else if (disc[u] < low[v]) {
                low[v] = disc[u];
            }
        } else {
            top--;
            uint32_t p = parent[v];
            if (p == NONE)
                continue;
            if (low[v] > disc[p] && below[v])
                return 1;
            if (low[v] < low[p])
                low[p] = low[v];
            below[p] += below[v];
        }
    }
    return 0;
}

int cb_pair_search_init(cb_pair_search *ps, size_t n)
{
    ps->seen = calloc(2 * n, sizeof *ps->seen);
    ps->prev = malloc(2 * n * sizeof *ps->prev);
    ps->stamp = 0;
    if (!ps->seen || !ps->prev) {
        cb_pair_search_free(ps);
        return -1;
    }
    ps->on_path = ps->seen + n;
    ps->succ = ps->prev + n;
    return 0;
}

void cb_pair_search_free(cb_pair_search *ps)
{
    free(ps->seen);
    free(ps->prev);
    memset(ps, 0, sizeof *ps);
}

/* Nodes a search near a removed edge may visit before it gives up: the
 * faces on either side of the edge are small, so two paths between its
 * ends are nearly always found within a few hops. */
#define PAIR_LIMIT 128

/* One breadth-first search from a to b in the graph as it is, not taking
 * the steps the first path took (on_path and succ: unit capacities, so a
 * step of the first path may be taken backwards only); with FIRST, records
 * the path found in on_path and succ. 1 found, 0 not within PAIR_LIMIT. */
static int pair_path(const cb_work *w, cb_pair_search *ps, uint32_t a, uint32_t b,
                     uint32_t path, int first)
{
    uint32_t queue[PAIR_LIMIT];
    uint32_t stamp = ++ps->stamp;
    size_t head = 0, tail = 0;
    queue[tail++] = a;
    ps->seen[a] = stamp;
    while (head < tail) {
        uint32_t v = queue[head++];
        const uint32_t *nv = w->adj + (size_t)v * CB_MAX_DEG;
        int used = ps->on_path[v] == path;
        for (int i = 0, dv = w->deg[v]; i < dv; i++) {
            uint32_t u = nv[i];
            if (ps->seen[u] == stamp || (used && ps->succ[v] == u))
                continue;
            ps->prev[u] = v;
            if (u == b) {
                if (first)
                    for (uint32_t x = b; x != a; x = ps->prev[x]) {
                        ps->on_path[ps->prev[x]] = path;
                        ps->succ[ps->prev[x]] = x;
                    }
                return 1;
            }
            if (tail == PAIR_LIMIT)
                return 0;
            ps->seen[u] = stamp;
            queue[tail++] = u;
        }
    }
    return 0;
}

int cb_work_start_behind_bridge_after(const cb_work *w, const cb_edge *del, int n_del,
                                      cb_pair_search *ps, uint32_t *scratch)
{
    for (int j = 0; j < n_del; j++) {
        uint32_t path = ++ps->stamp;
        if (!pair_path(w, ps, del[j].a, del[j].b, path, 1) ||
            !pair_path(w, ps, del[j].a, del[j].b, path, 0))
            return cb_work_start_behind_bridge(w, scratch);
    }
    return 0;
}
