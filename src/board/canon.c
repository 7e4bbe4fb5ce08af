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
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "cutboard.h"
#include "base/rng.h"
#include "base/sort.h"

#define QUANTUM_PER_MM 100.0

/* A node as two sort keys, compared as unsigned integers: KEY is x then y
 * (each offset by 2^31, so the order is the signed order), TIE is kind
 * (offset the same way) then the original id. Positions beyond +-2^31 quanta (21 km) cannot be
 * packed; such boards fall back to the quantized values themselves. */
typedef struct {
    uint64_t key, tie;
} qnode;

#define CB_CANON_PACK_MAX 2147483647LL

static int qnode_less(const qnode *a, const qnode *b)
{
    return a->key != b->key ? a->key < b->key : a->tie < b->tie;
}

CB_DEFINE_SORT(sort_qnodes, qnode, qnode_less)

/* Symmetry T of the page (bit 0: mirror x, bit 1: mirror y, bit 2: swap
 * the axes) applied to the point (U, W). */
static void symmetry(int t, long long *u, long long *w)
{
    if (t & 1)
        *u = -*u;
    if (t & 2)
        *w = -*w;
    if (t & 4) {
        long long s = *u;
        *u = *w;
        *w = s;
    }
}

/* FNV-1a over the 8 bytes of V, low byte first (unrolled: the hash is a
 * chain of multiplications, the loop's own work was as large again). */
static uint64_t fnv(uint64_t h, long long v)
{
    const uint64_t prime = 0x100000001b3ull;
    uint64_t u = (uint64_t)v;
    h = (h ^ (u & 0xff)) * prime;
    h = (h ^ ((u >> 8) & 0xff)) * prime;
    h = (h ^ ((u >> 16) & 0xff)) * prime;
    h = (h ^ ((u >> 24) & 0xff)) * prime;
    h = (h ^ ((u >> 32) & 0xff)) * prime;
    h = (h ^ ((u >> 40) & 0xff)) * prime;
    h = (h ^ ((u >> 48) & 0xff)) * prime;
    return (h ^ (u >> 56)) * prime;
}

/* fnv() of V[l] into H[l] for the LANES chains at once, byte by byte
 * across the lanes. */
#define LANES 4
static void fnv_lanes(uint64_t h[LANES], const long long v[LANES])
{
    const uint64_t prime = 0x100000001b3ull;
    for (int byte = 0; byte < 8; byte++)
        for (int l = 0; l < LANES; l++)
            h[l] = (h[l] ^ (((uint64_t)v[l] >> (8 * byte)) & 0xff)) * prime;
}

/* fnv_lanes() of values whose bytes 1..7 are zero (kinds 0..255): the
 * zero bytes leave the xor out, so the byte's product and the seven after
 * it are one by the prime's eighth power (exact: arithmetic modulo 2^64). */
static void fnv_lanes_byte(uint64_t h[LANES], const long long v[LANES])
{
    const uint64_t prime8 = 0x1efac7090aef4a21ull; /* 0x100000001b3^8 */
    for (int l = 0; l < LANES; l++)
        h[l] = (h[l] ^ (uint64_t)v[l]) * prime8;
}

/* fnv_lanes() of ranked edges (lo << 32 | hi) whose ranks are below 2^16:
 * bytes 2, 3, 6 and 7 are zero and fold into the products before them. */
static void fnv_lanes_edge16(uint64_t h[LANES], const uint64_t e[LANES])
{
    const uint64_t prime = 0x100000001b3ull;
    const uint64_t prime3 = 0x08a97b0004e7feabull; /* prime^3 */
    for (int l = 0; l < LANES; l++) {
        uint64_t u = e[l], x = h[l];
        x = (x ^ (u & 0xff)) * prime;
        x = (x ^ ((u >> 8) & 0xff)) * prime3;
        x = (x ^ ((u >> 32) & 0xff)) * prime;
        h[l] = (x ^ ((u >> 40) & 0xff)) * prime3;
    }
}

/* Values in [-2^15, 2^15) (a coordinate on any paper up to 655 mm): bytes
 * 2..7 are all the sign byte. For 0 they fold into one product by the
 * prime's sixth power. For 0xff each xor changes only the low byte, and a
 * product's low byte depends only on the factors' low bytes, so the six
 * steps give h * prime^6 plus a number that depends on h's low byte alone:
 * SIGN_FOLD[h & 0xff] (exact: arithmetic modulo 2^64). */
#define SHORT_LIMIT 32768
static uint64_t sign_fold[256];
static pthread_once_t sign_fold_once = PTHREAD_ONCE_INIT;

static void sign_fold_fill(void)
{
    const uint64_t prime = 0x100000001b3ull;
    for (uint64_t low = 0; low < 256; low++) {
        uint64_t h = low, plain = low;
        for (int byte = 0; byte < 6; byte++) {
            h = (h ^ 0xff) * prime;
            plain *= prime;
        }
        sign_fold[low] = h - plain;
    }
}

static void fnv_lanes_short(uint64_t h[LANES], const long long v[LANES])
{
    const uint64_t prime = 0x100000001b3ull;
    const uint64_t prime6 = 0xdc966432edf1c639ull; /* prime^6 */
    for (int l = 0; l < LANES; l++) {
        uint64_t u = (uint64_t)v[l], negative = -(uint64_t)(v[l] < 0), x = h[l];
        x = (x ^ (u & 0xff)) * prime;
        x = (x ^ ((u >> 8) & 0xff)) * prime;
        h[l] = x * prime6 + (sign_fold[x & 0xff] & negative);
    }
}

static long long quantize(double mm)
{
    return llround(mm * QUANTUM_PER_MM);
}

/* The edges as pairs of node ranks, lower first, sorted into E (TMP: m
 * words and COUNT: n + 1 of scratch); edges naming a missing node are left
 * out. Returns how many there are. A counting sort by the lower rank, then
 * an insertion sort that only orders each lower rank's few edges: the keys
 * come out in the one sorted order whatever the method. */
static size_t ranked_edges(const cb_board *b, const uint32_t *rank, uint64_t *e, uint64_t *tmp,
                           uint32_t *count)
{
    size_t n = b->n_nodes, m = b->n_edges, k = 0;
    memset(count, 0, (n + 1) * sizeof *count);
    for (size_t i = 0; i < m; i++) {
        if (b->edges[i].a >= n || b->edges[i].b >= n)
            continue;
        uint32_t x = rank[b->edges[i].a], y = rank[b->edges[i].b];
        uint32_t lo = x < y ? x : y;
        tmp[k++] = (uint64_t)lo << 32 | (x < y ? y : x);
        count[lo + 1]++;
    }
    for (size_t r = 0; r < n; r++)
        count[r + 1] += count[r];
    for (size_t i = 0; i < k; i++)
        e[count[tmp[i] >> 32]++] = tmp[i];
    for (size_t i = 1; i < k; i++) {
        uint64_t v = e[i];
        size_t j = i;
        for (; j > 0 && e[j - 1] > v; j--)
            e[j] = e[j - 1];
        e[j] = v;
    }
    return k;
}

/* One symmetry's hash begins with the trim's size (either way round) and
 * the counts, goes on with the nodes in rank order and ends here with the
 * ranked edges. */
static uint64_t hash_start(long long qw, long long qh, size_t n, size_t k)
{
    uint64_t h = 0xcbf29ce484222325ull;
    h = fnv(h, qw < qh ? qw : qh);
    h = fnv(h, qw < qh ? qh : qw);
    h = fnv(h, (long long)n);
    return fnv(h, (long long)k);
}

static uint64_t hash_end(uint64_t h, const uint64_t *e, size_t k)
{
    for (size_t i = 0; i < k; i++)
        h = fnv(h, (long long)e[i]);
    return cb_mix64(h);
}

/* Boards too large to pack: the same hash from the quantized coordinates
 * with the general comparator (qsort; never met by real paper sizes). */
typedef struct {
    long long x, y;
    int kind;
    uint32_t id;
} wnode;

static int cmp_wnode(const void *p, const void *q)
{
    const wnode *a = p, *b = q;
    if (a->x != b->x)
        return a->x < b->x ? -1 : 1;
    if (a->y != b->y)
        return a->y < b->y ? -1 : 1;
    if (a->kind != b->kind)
        return a->kind < b->kind ? -1 : 1;
    return (a->id > b->id) - (a->id < b->id);
}

static uint64_t canonical_hash_wide(const cb_board *b, const long long *qx, const long long *qy,
                                    long long qw, long long qh)
{
    size_t n = b->n_nodes, m = b->n_edges;
    wnode *q = malloc((n ? n : 1) * sizeof *q);
    uint32_t *rank = malloc((n ? n : 1) * sizeof *rank);
    uint64_t *e = malloc((m ? m : 1) * 2 * sizeof *e);
    uint32_t *count = malloc((n + 1) * sizeof *count);
    uint64_t best = UINT64_MAX;
    if (!q || !rank || !e || !count) {
        best = hash_end(hash_start(0, 0, n, m), NULL, 0);
        goto done;
    }
    int symmetries = qw == qh ? 8 : 4;
    for (int t = 0; t < symmetries; t++) {
        for (size_t v = 0; v < n; v++) {
            long long u = qx[v], w = qy[v];
            symmetry(t, &u, &w);
            q[v].x = u;
            q[v].y = w;
            q[v].kind = (int)b->nodes[v].kind;
            q[v].id = (uint32_t)v;
        }
        qsort(q, n, sizeof *q, cmp_wnode);
        for (size_t i = 0; i < n; i++)
            rank[q[i].id] = (uint32_t)i;
        size_t k = ranked_edges(b, rank, e, e + m, count);
        uint64_t h = hash_start(qw, qh, n, k);
        for (size_t i = 0; i < n; i++) {
            h = fnv(h, q[i].x);
            h = fnv(h, q[i].y);
            h = fnv(h, q[i].kind);
        }
        h = hash_end(h, e, k);
        if (h < best)
            best = h;
    }
done:
    free(q);
    free(rank);
    free(e);
    free(count);
    return best;
}

/* The symmetries' hashes are computed side by side, LANES at a time: each
 * is a chain of dependent multiplications, and independent chains overlap
 * in the processor where one chain would wait on each product. */

uint64_t cb_board_canonical_hash(const cb_board *b)
{
    size_t n = b->n_nodes, m = b->n_edges;
    size_t n1 = n ? n : 1, m1 = m ? m : 1;
    /* Per symmetry of a lane group its sorted nodes and ranked edges, then
     * one array of each as the sorts' scratch. */
    qnode *q = malloc((LANES + 1) * n1 * sizeof *q);
    uint32_t *rank = malloc((2 * n1 + 1) * sizeof *rank), *count = rank ? rank + n1 : NULL;
    uint64_t *e = malloc((LANES + 1) * m1 * sizeof *e);
    long long *qx = malloc(n1 * 2 * sizeof *qx), *qy = qx ? qx + n1 : NULL;
    long long qw = quantize(b->board_w), qh = quantize(b->board_h);
    uint64_t best = UINT64_MAX;
    if (!q || !rank || !e || !qx) {
        /* Out of memory: a hash of the sizes alone still never merges two
         * boards that differ in them. */
        best = hash_end(hash_start(0, 0, n, m), NULL, 0);
        goto done;
    }
    double cx = b->board_x + b->board_w / 2, cy = b->board_y + b->board_h / 2;
    int symmetries = qw == qh ? 8 : 4;
    /* Mirroring negates a coordinate exactly, and llround rounds halves
     * away from zero, so every symmetry's quantized coordinates are the
     * identity's, negated and/or swapped. */
    int packable = 1, byte_kinds = 1, short_places = 1;
    for (size_t v = 0; v < n; v++) {
        byte_kinds &= (unsigned)b->nodes[v].kind < 256u;
        qx[v] = quantize(b->nodes[v].x - cx);
        qy[v] = quantize(b->nodes[v].y - cy);
        short_places &= qx[v] >= -SHORT_LIMIT && qx[v] < SHORT_LIMIT && qy[v] >= -SHORT_LIMIT &&
                        qy[v] < SHORT_LIMIT;
        if (qx[v] > CB_CANON_PACK_MAX || -qx[v] > CB_CANON_PACK_MAX ||
            qy[v] > CB_CANON_PACK_MAX || -qy[v] > CB_CANON_PACK_MAX)
            packable = 0;
    }
    if (short_places)
        pthread_once(&sign_fold_once, sign_fold_fill);
    if (!packable) {
        best = canonical_hash_wide(b, qx, qy, qw, qh);
        goto done;
    }
    for (int t0 = 0; t0 < symmetries; t0 += LANES) {
        size_t k = 0; /* the same for every symmetry */
        int distinct[LANES] = {0};
        for (int l = 0; l < LANES; l++) {
            qnode *ql = q + (size_t)l * n1, *tmp = q + LANES * n1;
            /* Symmetry t ^ 3 negates both coordinates of t: when t's places
             * are all distinct, its order is t's reversed (lanes 2 and 3
             * of 1 and 0); otherwise ties by kind and id need the sort. */
            int mirror = l >= 2 && distinct[l ^ 3];
            /* Symmetry 1 negates x alone: its order is the identity's (lane
             * 0) with the runs of equal x taken last run first; within a
             * run y, kind and id rise as before. */
            int flip_x = t0 + l == 1;
            qnode *fill = mirror || flip_x ? tmp : ql;
            for (size_t v = 0; v < n; v++) {
                long long u = qx[v], w = qy[v];
                symmetry(t0 + l, &u, &w);
                fill[v].key = (uint64_t)(u + 2147483648LL) << 32 | (uint64_t)(w + 2147483648LL);
                fill[v].tie = (uint64_t)((long long)b->nodes[v].kind + 2147483648LL) << 32 |
                              (uint64_t)(uint32_t)v;
            }
            if (mirror) {
                const qnode *other = q + (size_t)(l ^ 3) * n1;
                for (size_t i = 0; i < n; i++)
                    ql[i] = tmp[(uint32_t)other[n - 1 - i].tie];
            } else if (flip_x) {
                size_t out = 0;
                for (size_t end = n; end > 0;) {
                    size_t first = end - 1;
                    while (first > 0 && q[first - 1].key >> 32 == q[end - 1].key >> 32)
                        first--;
                    for (size_t i = first; i < end; i++)
                        ql[out++] = tmp[(uint32_t)q[i].tie];
                    end = first;
                }
                distinct[l] = distinct[0];
            } else {
                sort_qnodes(ql, tmp, n);
                distinct[l] = 1;
                for (size_t i = 1; i < n; i++)
                    distinct[l] &= ql[i].key != ql[i - 1].key;
            }
            for (size_t i = 0; i < n; i++)
                rank[(uint32_t)ql[i].tie] = (uint32_t)i;
            k = ranked_edges(b, rank, e + (size_t)l * m1, e + LANES * m1, count);
        }
        uint64_t h[LANES];
        h[0] = hash_start(qw, qh, n, k);
        for (int l = 1; l < LANES; l++)
            h[l] = h[0];
        long long v[3][LANES];
        for (size_t i = 0; i < n; i++) {
            for (int l = 0; l < LANES; l++) {
                const qnode *x = &q[(size_t)l * n1 + i];
                v[0][l] = (long long)(x->key >> 32) - 2147483648LL;
                v[1][l] = (long long)(x->key & 0xFFFFFFFFu) - 2147483648LL;
                v[2][l] = (long long)(x->tie >> 32) - 2147483648LL;
            }
            if (short_places) {
                fnv_lanes_short(h, v[0]);
                fnv_lanes_short(h, v[1]);
            } else {
                fnv_lanes(h, v[0]);
                fnv_lanes(h, v[1]);
            }
            if (byte_kinds)
                fnv_lanes_byte(h, v[2]);
            else
                fnv_lanes(h, v[2]);
        }
        for (size_t i = 0; i < k; i++) {
            uint64_t el[LANES];
            for (int l = 0; l < LANES; l++)
                el[l] = e[(size_t)l * m1 + i];
            if (n <= 65536) {
                fnv_lanes_edge16(h, el);
            } else {
                for (int l = 0; l < LANES; l++)
                    v[0][l] = (long long)el[l];
                fnv_lanes(h, v[0]);
            }
        }
        for (int l = 0; l < LANES; l++) {
            uint64_t hl = cb_mix64(h[l]);
            if (hl < best)
                best = hl;
        }
    }
done:
    free(q);
    free(rank);
    free(e);
    free(qx);
    return best;
}
