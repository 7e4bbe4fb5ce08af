/* The canonical hash of a board: the same number for the board and for its
 * mirror images and rotations on the page, so that a deck can tell two
 * boards apart "up to symmetry".
 *
 * Each symmetry of the trim rectangle (4 for a rectangle: identity, the two
 * mirrors, the half turn; 8 for a square: also the quarter turns and the
 * diagonal mirrors) maps the nodes, taken relative to the rectangle's
 * centre. The mapped nodes are quantized to 0.01 mm, sorted (a total order:
 * position, kind, then original id, which only matters for nodes that sit on
 * the same spot) and renumbered, the edges are renumbered and sorted, and the
 * whole is hashed. The smallest of the 4 or 8 hashes is the same for every
 * member of the board's orbit, so it is the canonical hash. Mirroring a
 * coordinate negates it exactly and llround rounds halves away from zero, so
 * quantization does not break the symmetry. */
#include <math.h>
#include <stdlib.h>
#include "cutboard.h"
#include "rng.h"

#define QUANTUM_PER_MM 100.0

typedef struct {
    long long x, y;
    int kind;
    uint32_t id;
} qnode;

typedef struct { uint32_t a, b; } qedge;

static int cmp_qnode(const void *p, const void *q)
{
    const qnode *a = p, *b = q;
    if (a->x != b->x)
        return a->x < b->x ? -1 : 1;
    if (a->y != b->y)
        return a->y < b->y ? -1 : 1;
    if (a->kind != b->kind)
        return a->kind < b->kind ? -1 : 1;
    return (a->id > b->id) - (a->id < b->id);
}

static int cmp_qedge(const void *p, const void *q)
{
    const qedge *a = p, *b = q;
    if (a->a != b->a)
        return a->a < b->a ? -1 : 1;
    return (a->b > b->b) - (a->b < b->b);
}

static uint64_t fnv(uint64_t h, long long v)
{
    uint64_t u = (uint64_t)v;
    for (int i = 0; i < 8; i++) {
        h ^= (u >> (8 * i)) & 0xff;
        h *= 0x100000001b3ull;
    }
    return h;
}

static long long quantize(double mm)
{
    return llround(mm * QUANTUM_PER_MM);
}

uint64_t cb_board_canonical_hash(const cb_board *b)
{
    size_t n = b->n_nodes, m = b->n_edges;
    qnode *q = malloc((n ? n : 1) * sizeof *q);
    uint32_t *rank = malloc((n ? n : 1) * sizeof *rank);
    qedge *e = malloc((m ? m : 1) * sizeof *e);
    long long qw = quantize(b->board_w), qh = quantize(b->board_h);
    uint64_t best = UINT64_MAX;
    if (!q || !rank || !e) {
        /* Out of memory: a hash of the sizes alone still never merges two
         * boards that differ in them. */
        best = cb_mix64(fnv(fnv(0xcbf29ce484222325ull, (long long)n), (long long)m));
        goto done;
    }
    double cx = b->board_x + b->board_w / 2, cy = b->board_y + b->board_h / 2;
    int symmetries = qw == qh ? 8 : 4;
    for (int t = 0; t < symmetries; t++) {
        for (size_t v = 0; v < n; v++) {
            double u = b->nodes[v].x - cx, w = b->nodes[v].y - cy;
            if (t & 1)
                u = -u;
            if (t & 2)
                w = -w;
            if (t & 4) {
                double s = u;
                u = w;
                w = s;
            }
            q[v].x = quantize(u);
            q[v].y = quantize(w);
            q[v].kind = (int)b->nodes[v].kind;
            q[v].id = (uint32_t)v;
        }
        qsort(q, n, sizeof *q, cmp_qnode);
        for (size_t i = 0; i < n; i++)
            rank[q[i].id] = (uint32_t)i;
        size_t k = 0;
        for (size_t i = 0; i < m; i++) {
            if (b->edges[i].a >= n || b->edges[i].b >= n)
                continue;
            uint32_t x = rank[b->edges[i].a], y = rank[b->edges[i].b];
            e[k].a = x < y ? x : y;
            e[k].b = x < y ? y : x;
            k++;
        }
        qsort(e, k, sizeof *e, cmp_qedge);
        uint64_t h = 0xcbf29ce484222325ull;
        h = fnv(h, qw < qh ? qw : qh);
        h = fnv(h, qw < qh ? qh : qw);
        h = fnv(h, (long long)n);
        h = fnv(h, (long long)k);
        for (size_t i = 0; i < n; i++) {
            h = fnv(h, q[i].x);
            h = fnv(h, q[i].y);
            h = fnv(h, q[i].kind);
        }
        for (size_t i = 0; i < k; i++)
            h = fnv(h, (long long)e[i].a << 32 | e[i].b);
        h = cb_mix64(h);
        if (h < best)
            best = h;
    }
done:
    free(q);
    free(rank);
    free(e);
    return best;
}
