#include <stdlib.h>
#include <string.h>
#include "base/graph.h"
#include "base/prefetch.h"
#include "base/unionfind.h"

static int cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return (a > b) - (a < b);
}

/* An edge's ends as one number, the smaller end first. */
static uint64_t pair_key(cb_edge e)
{
    return e.a < e.b ? (uint64_t)e.a << 32 | e.b : (uint64_t)e.b << 32 | e.a;
}

cb_status cb_graph_build(cb_graph *g, const cb_board *b, cb_error *err)
{
    memset(g, 0, sizeof *g);
    size_t n = b->n_nodes, m = b->n_edges;
    g->n = n;
    g->m = m;
    for (size_t e = 0; e < m; e++) {
        cb_edge ed = b->edges[e];
        if (ed.a >= n || ed.b >= n)
            return cb_fail(err, CB_ERR_DATA, "edge %zu (%u-%u) refers to node %u, the board has %zu",
                           e, ed.a, ed.b, ed.a >= n ? ed.a : ed.b, n);
        if (ed.a == ed.b)
            return cb_fail(err, CB_ERR_DATA, "edge %zu joins node %u to itself", e, ed.a);
    }
    /* Duplicates: sort the normalized pairs. Generated boards list their
     * edges sorted already: strictly increasing pairs have no duplicates
     * and need no sorted copy (on the largest boards, fresh pages). */
    size_t sorted = 1;
    while (sorted < m && pair_key(b->edges[sorted - 1]) < pair_key(b->edges[sorted]))
        sorted++;
    uint64_t *keys = sorted < m ? malloc(m * sizeof *keys) : NULL;
    g->start = calloc(n + 1, sizeof *g->start);
    g->adj = malloc((m ? 2 * m : 1) * sizeof *g->adj);
    g->eid = malloc((m ? 2 * m : 1) * sizeof *g->eid);
    if ((sorted < m && !keys) || !g->start || !g->adj || !g->eid) {
        free(keys);
        cb_graph_free(g);
        return cb_fail(err, CB_ERR_NOMEM, "out of memory");
    }
    if (sorted < m) {
        for (size_t e = 0; e < m; e++)
            keys[e] = pair_key(b->edges[e]);
        qsort(keys, m, sizeof *keys, cmp_u64);
        for (size_t e = 1; e < m; e++)
            if (keys[e] == keys[e - 1]) {
                uint32_t a = (uint32_t)(keys[e] >> 32), c = (uint32_t)keys[e];
                free(keys);
                cb_graph_free(g);
                return cb_fail(err, CB_ERR_DATA, "edge %u-%u is listed twice", a, c);
            }
        free(keys);
    }
    for (size_t e = 0; e < m; e++) {
        g->start[b->edges[e].a + 1]++;
        g->start[b->edges[e].b + 1]++;
    }
    for (size_t v = 0; v < n; v++)
        g->start[v + 1] += g->start[v];
    uint32_t *fill = malloc((n ? n : 1) * sizeof *fill);
    if (!fill) {
        cb_graph_free(g);
        return cb_fail(err, CB_ERR_NOMEM, "out of memory");
    }
    memcpy(fill, g->start, n * sizeof *fill);
    for (size_t e = 0; e < m; e++) {
        uint32_t a = b->edges[e].a, c = b->edges[e].b;
        g->adj[fill[a]] = c;
        g->eid[fill[a]++] = (uint32_t)e;
        g->adj[fill[c]] = a;
        g->eid[fill[c]++] = (uint32_t)e;
    }
    free(fill);
    return CB_OK;
}

void cb_graph_free(cb_graph *g)
{
    free(g->start);
    free(g->adj);
    free(g->eid);
    memset(g, 0, sizeof *g);
}

size_t cb_graph_degree(const cb_graph *g, uint32_t v)
{
    return g->start[v + 1] - g->start[v];
}

/* From this many nodes on, the hop count asks for the memory of the
 * nodes queued ahead: on a large graph a step's neighbours lie rows apart,
 * most of them on pages not touched lately, and the hints let those misses
 * overlap. On smaller graphs everything is in cache and the hints only
 * cost (measured alone, cache warm: 39 % slower at 100,000 nodes, the
 * same at 1M, 14 % faster at 2.5M and 21 % at 4M). */
#define HOPS_WARM_NODES (1u << 21)

/* What a step of the search reads of node V, asked for ahead, in three
 * stages whose addresses follow from the one before (macros: GCC drops
 * calls to a function that only prefetches). */
#define HOPS_WARM_SLOTS(g, v) CB_PREFETCH(&(g)->start[v])
#define HOPS_WARM_NEIGHBOURS(g, v) CB_PREFETCH(&(g)->adj[(g)->start[v]])
#define HOPS_WARM_HOPS(g, hops, v)                                                 \
    do {                                                                           \
        for (uint32_t k_ = (g)->start[v]; k_ < (g)->start[(v) + 1]; k_++)         \
            CB_PREFETCH(&(hops)[(g)->adj[k_]]);                                    \
    } while (0)

int cb_graph_hops(const cb_graph *g, uint32_t src, int *hops)
{
    for (size_t i = 0; i < g->n; i++)
        hops[i] = -1;
    if (src >= g->n)
        return 0;
    /* hops doubles as the visited set; the queue reuses a plain array. */
    uint32_t *queue = malloc((g->n + 1) * sizeof *queue); /* +1: see the loop */
    if (!queue)
        return -1;
    size_t head = 0, tail = 0, ahead = CB_PREFETCH_AHEAD;
    int warm = g->n >= HOPS_WARM_NODES;
    queue[tail++] = src;
    hops[src] = 0;
    while (head < tail) {
        if (warm) {
            if (head + 2 * ahead < tail)
                HOPS_WARM_SLOTS(g, queue[head + 2 * ahead]);
            if (head + ahead < tail)
                HOPS_WARM_NEIGHBOURS(g, queue[head + ahead]);
            if (head + ahead / 2 < tail)
                HOPS_WARM_HOPS(g, hops, queue[head + ahead / 2]);
        }
        uint32_t v = queue[head++];
        int next = hops[v] + 1;
        /* Without a branch: whether a neighbour is new is hard to
         * predict. */
        for (uint32_t k = g->start[v]; k < g->start[v + 1]; k++) {
            uint32_t u = g->adj[k];
            int take = hops[u] < 0;
            hops[u] = take ? next : hops[u];
            queue[tail] = u;
            tail += (size_t)take;
        }
    }
    free(queue);
    return 0;
}

int cb_graph_edge_disjoint(const cb_graph *g, uint32_t s, uint32_t t, int limit)
{
    if (s >= g->n || t >= g->n || s == t)
        return 0;
    /* Each undirected edge carries flow -1, 0 or +1, where +1 runs from
     * first[e] (the lower-numbered end) to the other end. */
    int8_t *flow = calloc(g->m ? g->m : 1, 1);
    uint32_t *queue = malloc((g->n ? g->n : 1) * sizeof *queue);
    uint32_t *prev = malloc((g->n ? g->n : 1) * sizeof *prev);  /* BFS parent */
    uint32_t *pslot = malloc((g->n ? g->n : 1) * sizeof *pslot); /* its slot */
    if (!flow || !queue || !prev || !pslot) {
        free(flow); free(queue); free(prev); free(pslot);
        return -1;
    }
    int paths = 0;
    while (paths < limit) {
        for (size_t i = 0; i < g->n; i++)
            prev[i] = UINT32_MAX;
        size_t head = 0, tail = 0;
        queue[tail++] = s;
        prev[s] = s;
        while (head < tail && prev[t] == UINT32_MAX) {
            uint32_t v = queue[head++];
            for (uint32_t k = g->start[v]; k < g->start[v + 1]; k++) {
                uint32_t u = g->adj[k];
                int along = v < u ? 1 : -1;
                if (prev[u] != UINT32_MAX || flow[g->eid[k]] * along >= 1)
                    continue; /* visited, or already full in this direction */
                prev[u] = v;
                pslot[u] = k;
                queue[tail++] = u;
            }
        }
        if (prev[t] == UINT32_MAX)
            break;
        for (uint32_t v = t; v != s; v = prev[v]) {
            uint32_t e = g->eid[pslot[v]];
            flow[e] = (int8_t)(flow[e] + (prev[v] < v ? 1 : -1));
        }
        paths++;
    }
    free(flow); free(queue); free(prev); free(pslot);
    return paths;
}

/* Bit K of BITS. */
static int bit(const uint8_t *bits, size_t k)
{
    return (bits[k / 8] >> k % 8) & 1;
}

/* Joins, in the union-find UP, each node reached in HOPS (a breadth-first
 * forest: -1 unreached; TREE marks the slot of each node's edge to its
 * parent, a bit a slot) to its parent unless that edge is a bridge. Each
 * edge off the tree once, from its end further from the root or the
 * smaller of two ends as far: the tree path it closes a cycle with is
 * walked up from both ends to where they meet, and a stretch walked
 * before is skipped. */
void cb_graph_join_cycles(const cb_graph *g, const int *hops, const uint8_t *tree, uint32_t *up)
{
    for (uint32_t v = 0; v < (uint32_t)g->n; v++) {
        if (hops[v] < 0)
            continue;
        for (uint32_t k = g->start[v]; k < g->start[v + 1]; k++) {
            uint32_t u = g->adj[k];
            /* One branch for the three cases (each a coin toss). */
            int hu = hops[u], hv = hops[v];
            if ((hu > hv) | ((hu == hv) & (u < v)) | ((hu < hv) & bit(tree, k)))
                continue;
            uint32_t x = cb_uf_find(up, v), y = cb_uf_find(up, u);
            while (x != y) {
                if (hops[x] < hops[y]) {
                    uint32_t t = x;
                    x = y;
                    y = t;
                }
                /* the edge above x is on the cycle: x joins its parent */
                uint32_t s = g->start[x];
                while (!bit(tree, s))
                    s++;
                up[x] = g->adj[s];
                x = cb_uf_find(up, x);
            }
        }
    }
}

/* The 2-edge-connected components from a breadth-first forest rather than
 * Tarjan's depth-first search (which came back to nodes long after it left
 * them: 90 ms on a million-node poster, the largest share of its board
 * file's figures). Every bridge is a tree edge, and each edge off the
 * tree closes a cycle with the tree path between its ends, none of whose
 * edges is then a bridge: that path is walked up from both ends to where
 * they meet, joining each node to its parent (a union-find over COMP, so
 * a stretch walked before is skipped). What is left apart is parted by
 * bridges. A node's parent is its first neighbour one hop nearer its
 * tree's root; its edge to it is marked in TREE, a bit a slot. */
int cb_graph_bridge_components(const cb_graph *g, uint32_t *comp)
{
    size_t n = g->n, slots = g->start[n];
    int *hops = calloc(n ? n : 1, sizeof *hops); /* calloc: GCC cannot see the loop below fills it */
    uint32_t *queue = malloc((n ? n : 1) * sizeof *queue);
    uint8_t *tree = calloc(slots / 8 + 1, 1);
    if (!hops || !queue || !tree) {
        free(hops);
        free(queue);
        free(tree);
        return -1;
    }
    for (size_t v = 0; v < n; v++) {
        hops[v] = -1;
        comp[v] = (uint32_t)v;
    }
    for (size_t root = 0; root < n; root++) {
        if (hops[root] >= 0)
            continue;
        size_t head = 0, tail = 0;
        queue[tail++] = (uint32_t)root;
        hops[root] = 0;
        while (head < tail) {
            uint32_t v = queue[head++];
            int parent = hops[v] == 0;  /* a root has none */
            for (uint32_t k = g->start[v]; k < g->start[v + 1]; k++) {
                uint32_t u = g->adj[k];
                if (hops[u] < 0) {
                    hops[u] = hops[v] + 1;
                    queue[tail++] = u;
                } else if (!parent && hops[u] + 1 == hops[v]) {
                    tree[k / 8] = (uint8_t)(tree[k / 8] | 1u << k % 8);
                    parent = 1;
                }
            }
        }
    }
    cb_graph_join_cycles(g, hops, tree, comp);
    for (uint32_t v = 0; v < n; v++)
        comp[v] = cb_uf_find(comp, v);
    free(hops);
    free(queue);
    free(tree);
    return 0;
}
