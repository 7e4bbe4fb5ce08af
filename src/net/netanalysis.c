/* What a game master asks of a map: degree distribution, hubs, components,
 * eccentricity (a BFS from every node), radius, diameter, centre, average
 * path length, clustering and transitivity. The definitions are NetworkX's;
 * on a disconnected map the distance figures are those of its largest
 * component (see cutboard.h). */
#include "base/error.h"
#include "net/network.h"

#include <stdlib.h>
#include <string.h>

void cb_net_analysis_free(cb_net_analysis *a)
{
    if (!a)
        return;
    free(a->degree_hist);
    free(a->eccentricity);
    free(a->center);
    free(a->hubs);
    free(a);
}

/* Component label per node (labels in order of their smallest node); returns
 * the number of components, the largest's label in *big (ties: lowest). */
static size_t components(const cb_net_csr *g, uint32_t *comp, uint32_t *queue, size_t *big,
                         size_t *big_size)
{
    size_t n = g->n, nc = 0;
    *big = 0;
    *big_size = 0;
    for (size_t v = 0; v < n; v++)
        comp[v] = UINT32_MAX;
    for (size_t s = 0; s < n; s++) {
        if (comp[s] != UINT32_MAX)
            continue;
        size_t head = 0, tail = 0;
        queue[tail++] = (uint32_t)s;
        comp[s] = (uint32_t)nc;
        while (head < tail) {
            uint32_t v = queue[head++];
            for (uint32_t j = g->start[v]; j < g->start[v + 1]; j++)
                if (comp[g->adj[j]] == UINT32_MAX) {
                    comp[g->adj[j]] = (uint32_t)nc;
                    queue[tail++] = g->adj[j];
                }
        }
        if (tail > *big_size) {
            *big_size = tail;
            *big = nc;
        }
        nc++;
    }
    return nc;
}

/* BFS from S: returns its eccentricity inside its component and adds the
 * sum of its distances to *sum. DIST must be all -1 on entry and is left so. */
static long bfs(const cb_net_csr *g, uint32_t s, long *dist, uint32_t *queue, uint64_t *sum)
{
    size_t head = 0, tail = 0;
    queue[tail++] = s;
    dist[s] = 0;
    long ecc = 0;
    uint64_t total = 0;
    while (head < tail) {
        uint32_t v = queue[head++];
        long d = dist[v];
        ecc = d;
        total += (uint64_t)d;
        for (uint32_t j = g->start[v]; j < g->start[v + 1]; j++)
            if (dist[g->adj[j]] < 0) {
                dist[g->adj[j]] = d + 1;
                queue[tail++] = g->adj[j];
            }
    }
    for (size_t i = 0; i < tail; i++)
        dist[queue[i]] = -1;
    *sum += total;
    return ecc;
}

/* Triangles through each node: every triangle counted once from its
 * lowest-ranked corner (rank: degree, then id), O(m sqrt m). */
static void triangles(const cb_net_csr *g, uint64_t *tri, uint32_t *mark)
{
    size_t n = g->n;
#define DEG(v) (g->start[(v) + 1] - g->start[v])
#define ABOVE(u, v) (DEG(u) > DEG(v) || (DEG(u) == DEG(v) && (u) > (v)))
    for (size_t v = 0; v < n; v++)
        mark[v] = UINT32_MAX;
    for (uint32_t v = 0; v < n; v++) {
        for (uint32_t j = g->start[v]; j < g->start[v + 1]; j++)
            mark[g->adj[j]] = v;
        for (uint32_t j = g->start[v]; j < g->start[v + 1]; j++) {
            uint32_t u = g->adj[j];
            if (!ABOVE(u, v))
                continue;
            for (uint32_t i = g->start[u]; i < g->start[u + 1]; i++) {
                uint32_t w = g->adj[i];
                if (ABOVE(w, u) && mark[w] == v) {
                    tri[v]++;
                    tri[u]++;
                    tri[w]++;
                }
            }
        }
    }
#undef ABOVE
#undef DEG
}

cb_status cb_net_analyze(const cb_network *net, cb_net_analysis **out, cb_error *err)
{
    *out = NULL;
    if (!net || net->n == 0)
        return cb_fail(err, CB_ERR_DATA, "analysis: the network has no nodes");
    size_t n = net->n;
    cb_net_csr g = {0};
    cb_net_analysis *a = calloc(1, sizeof *a);
    uint32_t *comp = malloc(n * sizeof *comp), *queue = malloc(n * sizeof *queue);
    uint64_t *tri = calloc(n, sizeof *tri);
    long *dist = malloc(n * sizeof *dist);
    if (!a || !comp || !queue || !tri || !dist || cb_net_csr_build(&g, net) != 0)
        goto oom;
    a->n = n;
    a->n_edges = net->n_edges;
    a->radius = a->diameter = -1;
    a->avg_path_length = -1;

    /* degrees and hubs */
    size_t maxd = 0, mind = SIZE_MAX;
    for (size_t v = 0; v < n; v++) {
        size_t d = g.start[v + 1] - g.start[v];
        maxd = d > maxd ? d : maxd;
        mind = d < mind ? d : mind;
    }
    a->min_degree = mind;
    a->max_degree = maxd;
    a->mean_degree = 2.0 * (double)net->n_edges / (double)n;
    a->degree_hist = calloc(maxd + 1, sizeof *a->degree_hist);
    if (!a->degree_hist)
        goto oom;
    for (size_t v = 0; v < n; v++)
        a->degree_hist[g.start[v + 1] - g.start[v]]++;
    a->n_hubs = a->degree_hist[maxd];
    a->hubs = malloc(a->n_hubs * sizeof *a->hubs);
    if (!a->hubs)
        goto oom;
    for (size_t v = 0, h = 0; v < n; v++)
        if (g.start[v + 1] - g.start[v] == maxd)
            a->hubs[h++] = (uint32_t)v;

    /* clustering */
    triangles(&g, tri, comp); /* comp is scratch here */
    double csum = 0;
    uint64_t tri3 = 0, triples = 0;
    for (size_t v = 0; v < n; v++) {
        uint64_t d = g.start[v + 1] - g.start[v];
        tri3 += tri[v];
        triples += d * (d - (d > 0)) / 2;
        if (d >= 2)
            csum += (double)(2 * tri[v]) / (double)(d * (d - 1));
    }
    a->avg_clustering = csum / (double)n;
    a->transitivity = triples ? (double)tri3 / (double)triples : 0; /* tri3 = 3 T */

    /* components and distances */
    size_t big, big_size;
    a->components = components(&g, comp, queue, &big, &big_size);
    a->largest = big_size;
    double work = (double)n * ((double)n + (double)net->n_edges);
    if (work <= CB_NET_MAX_BFS_WORK) {
        a->has_distances = 1;
        a->eccentricity = malloc(n * sizeof *a->eccentricity);
        if (!a->eccentricity)
            goto oom;
        for (size_t v = 0; v < n; v++)
            dist[v] = -1;
        uint64_t sum = 0, other = 0;
        long rad = -1, diam = -1;
        for (size_t v = 0; v < n; v++) {
            long e = bfs(&g, (uint32_t)v, dist, queue, comp[v] == big ? &sum : &other);
            a->eccentricity[v] = e;
            if (comp[v] != big)
                continue;
            rad = rad < 0 || e < rad ? e : rad;
            diam = e > diam ? e : diam;
        }
        a->radius = rad;
        a->diameter = diam;
        for (size_t v = 0; v < n; v++)
            a->n_center += comp[v] == big && a->eccentricity[v] == rad;
        a->center = malloc(a->n_center * sizeof *a->center);
        if (!a->center)
            goto oom;
        for (size_t v = 0, c = 0; v < n; v++)
            if (comp[v] == big && a->eccentricity[v] == rad)
                a->center[c++] = (uint32_t)v;
        a->avg_path_length =
            big_size > 1 ? (double)sum / ((double)big_size * (double)(big_size - 1)) : 0;
    }
    cb_net_csr_free(&g);
    free(comp);
    free(queue);
    free(tri);
    free(dist);
    *out = a;
    return CB_OK;
oom:
    cb_net_csr_free(&g);
    free(comp);
    free(queue);
    free(tri);
    free(dist);
    cb_net_analysis_free(a);
    return cb_fail(err, CB_ERR_NOMEM, "analysis: out of memory for %zu nodes", n);
}
