/* Links sorted by (a, b) in O(n + links), and the compressed adjacency
 * list built from sorted links. */
#include <stdlib.h>
#include <string.h>

#include "net/network.h"

static int sort_radix(cb_edge *e, size_t m, size_t n, cb_edge *tmp)
{
    unsigned bits = 1;
    while (bits < 32 && ((size_t)1 << bits) < n)
        bits++;
    unsigned passes = (2 * bits + 11) / 12, dig = (2 * bits + passes - 1) / passes;
    size_t buckets = (size_t)1 << dig, mask = buckets - 1;
    size_t *count = calloc(passes * buckets, sizeof *count);
    if (!count)
        return -1;
    for (size_t i = 0; i < m; i++) {
        uint64_t key = (uint64_t)e[i].a << bits | e[i].b;
        for (unsigned p = 0; p < passes; p++)
            count[p * buckets + (key >> (p * dig) & mask)]++;
    }
    cb_edge *src = e, *dst = tmp;
    for (unsigned p = 0; p < passes; p++) {
        size_t *c = count + p * buckets;
        unsigned shift = p * dig;
        if (c[((uint64_t)src[0].a << bits | src[0].b) >> shift & mask] == m)
            continue; /* the same digit in every key */
        for (size_t d = 0, sum = 0; d < buckets; d++) {
            size_t t = c[d];
            c[d] = sum;
            sum += t;
        }
        for (size_t i = 0; i < m; i++)
            dst[c[((uint64_t)src[i].a << bits | src[i].b) >> shift & mask]++] = src[i];
        cb_edge *t = src;
        src = dst;
        dst = t;
    }
    if (src != e)
        memcpy(e, src, m * sizeof *e);
    free(count);
    return 0;
}

static int sort_counting(cb_edge *e, size_t m, size_t n, cb_edge *tmp)
{
    int b_sorted = 1;
    for (size_t i = 1; i < m && b_sorted; i++)
        b_sorted = e[i - 1].b <= e[i].b;
    uint32_t *ca = calloc(n + 1, sizeof *ca), *cb = b_sorted ? NULL : calloc(n + 1, sizeof *cb);
    if (!ca || (!b_sorted && !cb)) {
        free(ca);
        free(cb);
        return -1;
    }
    for (size_t i = 0; i < m; i++)
        ca[e[i].a + 1]++;
    for (size_t v = 0; v < n; v++)
        ca[v + 1] += ca[v];
    if (b_sorted) {
        for (size_t i = 0; i < m; i++)
            tmp[ca[e[i].a]++] = e[i];
        memcpy(e, tmp, m * sizeof *e);
    } else {
        for (size_t i = 0; i < m; i++)
            cb[e[i].b + 1]++;
        for (size_t v = 0; v < n; v++)
            cb[v + 1] += cb[v];
        for (size_t i = 0; i < m; i++)
            tmp[cb[e[i].b]++] = e[i];
        for (size_t i = 0; i < m; i++)
            e[ca[tmp[i].a]++] = tmp[i];
    }
    free(ca);
    free(cb);
    return 0;
}

/* Sorts M links (ends below N) by (a, b). SCRATCH holds M links or is NULL.
 * Few links among many nodes: LSD radix on the key a << bits | b in digits
 * of at most 12 bits (no n-sized counts to clear). Otherwise a stable
 * counting pass by b, then one by a; links that come in order of b (G(n, p),
 * scale-free) need only the second. */
int cb_net_sort_edges_scratch(cb_edge *e, size_t m, size_t n, cb_edge *scratch)
{
    size_t i = 1;
    while (i < m && ((uint64_t)e[i - 1].a << 32 | e[i - 1].b) < ((uint64_t)e[i].a << 32 | e[i].b))
        i++;
    if (i >= m) /* already sorted (linear, ring, complete, small-world) */
        return 0;
    cb_edge *tmp = scratch ? scratch : malloc(m * sizeof *tmp);
    if (!tmp)
        return -1;
    int rc = m < n / 4 ? sort_radix(e, m, n, tmp) : sort_counting(e, m, n, tmp);
    if (tmp != scratch)
        free(tmp);
    return rc;
}

int cb_net_sort_edges(cb_edge *e, size_t m, size_t n)
{
    return cb_net_sort_edges_scratch(e, m, n, NULL);
}

int cb_net_csr_build(cb_net_csr *g, const cb_network *net)
{
    size_t n = net->n, m = net->n_edges;
    g->n = n;
    g->start = calloc(n + 1, sizeof *g->start);
    g->adj = malloc((2 * m + 1) * sizeof *g->adj);
    if (!g->start || !g->adj) {
        cb_net_csr_free(g);
        return -1;
    }
    for (size_t i = 0; i < m; i++) {
        g->start[net->edges[i].a + 1]++;
        g->start[net->edges[i].b + 1]++;
    }
    for (size_t v = 0; v < n; v++)
        g->start[v + 1] += g->start[v];
    /* Links sorted by (a, b): filling in link order keeps each list ascending
     * when the lower ends (from links (x, v), x < v) go first. */
    uint32_t *fill = malloc((n + 1) * sizeof *fill);
    if (!fill) {
        cb_net_csr_free(g);
        return -1;
    }
    memcpy(fill, g->start, (n + 1) * sizeof *fill);
    for (size_t i = 0; i < m; i++) /* v's lower neighbours, ascending */
        g->adj[fill[net->edges[i].b]++] = net->edges[i].a;
    for (size_t i = 0; i < m; i++) /* then its higher ones, ascending */
        g->adj[fill[net->edges[i].a]++] = net->edges[i].b;
    free(fill);
    return 0;
}

void cb_net_csr_free(cb_net_csr *g)
{
    free(g->start);
    free(g->adj);
    g->start = g->adj = NULL;
}
