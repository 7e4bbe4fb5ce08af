/* Classic network models for encounter maps: linear, ring lattice, random
 * k-regular, complete, Erdos-Renyi G(n, m) and G(n, p), anchored random,
 * Watts-Strogatz and Barabasi-Albert, each in O(n + links), plus their
 * "geometric" versions built on a Delaunay triangulation of placed points so
 * that their drawing has no crossings. Every random choice comes from the
 * project's RNG seeded from the seed text; links come out sorted. */
#include "base/unionfind.h"
#include "planar/delaunay.h"
#include "base/error.h"
#include "base/geom.h"
#include "net/network.h"
#include "base/rng.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const model_names[CB_NET_MODELS] = {
    "linear", "ring", "regular", "complete", "random", "anchored", "small-world", "scale-free"};

const char *cb_net_model_name(cb_net_model model)
{
    return (unsigned)model < CB_NET_MODELS ? model_names[model] : "unknown";
}

int cb_net_model_parse(const char *name)
{
    for (int i = 0; name && i < CB_NET_MODELS; i++)
        if (strcmp(name, model_names[i]) == 0)
            return i;
    return -1;
}

void cb_net_spec_defaults(cb_net_spec *spec)
{
    memset(spec, 0, sizeof *spec);
    spec->model = CB_NET_RING;
    spec->seed = "";
    spec->n = 20;
    spec->k = spec->m = spec->links = -1;
    spec->p = -1;
    spec->width = 1.5;
    spec->height = 1;
}

/* ---- parameters --------------------------------------------------------- */

enum { P_K = 1, P_P = 2, P_M = 4, P_LINKS = 8 };

static int model_params(cb_net_model m)
{
    switch (m) {
    case CB_NET_RING: return P_K;
    case CB_NET_REGULAR: return P_K;
    case CB_NET_RANDOM: return P_P | P_LINKS;
    case CB_NET_ANCHORED: return P_P | P_LINKS;
    case CB_NET_SMALL_WORLD: return P_K | P_P;
    case CB_NET_SCALE_FREE: return P_M;
    default: return 0;
    }
}

static double pairs_of(double n)
{
    return n * (n - 1) / 2;
}

/* The parameters as used: defaults filled in. */
typedef struct {
    long n, k, m, links;
    double p;
} params;

static void resolve(const cb_net_spec *s, params *q)
{
    q->n = s->n;
    q->k = s->k;
    q->m = s->m;
    q->links = s->links;
    q->p = s->p;
    switch (s->model) {
    case CB_NET_RING:
        if (q->k < 0)
            q->k = 2;
        break;
    case CB_NET_REGULAR:
        if (q->k < 0)
            q->k = 3;
        break;
    case CB_NET_SMALL_WORLD:
        if (q->k < 0)
            q->k = 4;
        if (q->p < 0)
            q->p = 0.1;
        break;
    case CB_NET_SCALE_FREE:
        if (q->m < 0)
            q->m = 2;
        break;
    case CB_NET_RANDOM:
        if (s->geometric && q->p < 0 && q->links < 0)
            q->p = 0.3;
        else if (q->p < 0 && q->links < 0)
            q->links = (long)fmin(pairs_of((double)q->n), floor(1.5 * (double)q->n));
        break;
    case CB_NET_ANCHORED:
        if (s->geometric && q->p < 0 && q->links < 0)
            q->p = 0.3;
        else if (q->p < 0 && q->links < 0)
            q->links = (long)fmin(pairs_of((double)q->n), floor(1.5 * (double)q->n));
        break;
    default:
        break;
    }
}

cb_status cb_net_spec_check(const cb_net_spec *s, cb_error *err)
{
    if (!s || (unsigned)s->model >= CB_NET_MODELS)
        return cb_fail(err, CB_ERR_USAGE, "--model: unknown model");
    const char *name = model_names[s->model];
    int allowed = model_params(s->model);
    static const struct { int bit; const char *opt; } opts[] = {
        {P_K, "--k"}, {P_P, "--p"}, {P_M, "--m"}, {P_LINKS, "--links"}};
    int given = (s->k >= 0 ? P_K : 0) | (s->p >= 0 || isnan(s->p) ? P_P : 0) |
                (s->m >= 0 ? P_M : 0) | (s->links >= 0 ? P_LINKS : 0);
    for (size_t i = 0; i < sizeof opts / sizeof *opts; i++)
        if ((given & opts[i].bit) && !(allowed & opts[i].bit))
            return cb_fail(err, CB_ERR_USAGE, "%s is not a parameter of the %s model", opts[i].opt,
                           name);
    long n = s->n;
    if (n < 1 || n > CB_NET_MAX_NODES)
        return cb_fail(err, CB_ERR_USAGE, "--nodes %ld: give 1..%d nodes", n, CB_NET_MAX_NODES);
    if (s->geometric) {
        if (n < 3 || n > CB_NET_MAX_DRAWN_NODES)
            return cb_fail(err, CB_ERR_USAGE,
                           "--nodes %ld: a --geometric map has 3..%d nodes", n,
                           CB_NET_MAX_DRAWN_NODES);
        /* A positive, finite box, not so thin that the point grid's column
         * count overflows (the net fuzzer's 1e300 x 1e-300 box). */
        if (!(s->width > 0) || !(s->height > 0) || !isfinite(s->width) || !isfinite(s->height) ||
            !(s->width / s->height <= 1e6) || !(s->height / s->width <= 1e6))
            return cb_fail(err, CB_ERR_USAGE,
                           "geometric box %gx%g is not a positive size (sides within 1e6 "
                           "of each other)", s->width, s->height);
    }
    if (given & P_P) {
        if (!(s->p >= 0 && s->p <= 1))
            return cb_fail(err, CB_ERR_USAGE, "--p %g: a probability is in [0, 1]", s->p);
    }
    if ((given & P_P) && (given & P_LINKS))
        return cb_fail(err, CB_ERR_USAGE, "the %s model takes --links or --p, not both", name);
    params q;
    resolve(s, &q);
    double pairs = pairs_of((double)n);
    switch (s->model) {
    case CB_NET_LINEAR:
        break;
    case CB_NET_COMPLETE:
        if (n > CB_NET_MAX_COMPLETE)
            return cb_fail(err, CB_ERR_USAGE,
                           "--nodes %ld: a complete network has at most %d nodes", n,
                           CB_NET_MAX_COMPLETE);
        break;
    case CB_NET_RING:
    case CB_NET_SMALL_WORLD:
        if (q.k < 2 || q.k % 2)
            return cb_fail(err, CB_ERR_USAGE,
                           "--k %ld: the %s model needs an even k >= 2 (k/2 neighbours on "
                           "each side)", q.k, name);
        if (q.k >= n && !(s->geometric && s->model == CB_NET_SMALL_WORLD))
            return cb_fail(err, CB_ERR_USAGE, "--k %ld: k must be less than --nodes %ld", q.k,
                           n);
        if ((double)n * (double)q.k / 2 > CB_NET_MAX_LINKS)
            return cb_fail(err, CB_ERR_USAGE, "--k %ld: more than %d links", q.k,
                           CB_NET_MAX_LINKS);
        break;
    case CB_NET_REGULAR:
        if (q.k < 1)
            return cb_fail(err, CB_ERR_USAGE, "--k %ld: a k-regular network needs k >= 1", q.k);
        if (q.k >= n && !s->geometric) /* geometric: k is a cap */
            return cb_fail(err, CB_ERR_USAGE, "--k %ld: k must be less than --nodes %ld", q.k,
                           n);
        if (!s->geometric && (n * q.k) % 2)
            return cb_fail(err, CB_ERR_USAGE,
                           "--k %ld: n * k must be even for a k-regular network (n = %ld)",
                           q.k, n);
        if ((double)n * (double)q.k / 2 > CB_NET_MAX_LINKS)
            return cb_fail(err, CB_ERR_USAGE, "--k %ld: more than %d links", q.k,
                           CB_NET_MAX_LINKS);
        break;
    case CB_NET_SCALE_FREE:
        if (q.m < 1 || q.m >= n)
            return cb_fail(err, CB_ERR_USAGE, "--m %ld: the scale-free model needs 1 <= m < "
                           "--nodes %ld", q.m, n);
        if ((double)n * (double)q.m > CB_NET_MAX_LINKS)
            return cb_fail(err, CB_ERR_USAGE, "--m %ld: more than %d links", q.m,
                           CB_NET_MAX_LINKS);
        break;
    case CB_NET_RANDOM:
    case CB_NET_ANCHORED:
        if (q.links >= 0) {
            double lo = s->model == CB_NET_ANCHORED ? (double)n - 1 : 0;
            if ((double)q.links < lo || (double)q.links > pairs)
                return cb_fail(err, CB_ERR_USAGE, "--links %ld: the %s model on %ld nodes has "
                               "%.0f..%.0f links", q.links, name, n, lo, pairs);
            if (q.links > CB_NET_MAX_LINKS)
                return cb_fail(err, CB_ERR_USAGE, "--links %ld: at most %d links", q.links,
                               CB_NET_MAX_LINKS);
        } else if (q.p * pairs > CB_NET_MAX_LINKS) {
            return cb_fail(err, CB_ERR_USAGE, "--p %g: about %.0f links expected, at most %d",
                           q.p, q.p * pairs, CB_NET_MAX_LINKS);
        }
        break;
    }
    return CB_OK;
}

/* ---- links: a growable list and a hash set ----------------------------- */

typedef struct {
    cb_edge *e;
    size_t n, cap;
    int oom;
} elist;

static void el_reserve(elist *l, size_t cap)
{
    if (l->oom || cap <= l->cap)
        return;
    cb_edge *e = realloc(l->e, cap * sizeof *e);
    if (!e) {
        l->oom = 1;
        return;
    }
    l->e = e;
    l->cap = cap;
}

static void el_add(elist *l, uint32_t a, uint32_t b)
{
    if (l->n == l->cap)
        el_reserve(l, l->cap ? 2 * l->cap : 64);
    if (l->oom)
        return;
    cb_edge e = {a < b ? a : b, a < b ? b : a};
    l->e[l->n++] = e;
}

/* Open addressing on 64-bit keys (a << 32 | b) + 1; 0 marks an empty slot,
 * UINT64_MAX a removed one. */
typedef struct {
    uint64_t *k;
    size_t mask;
} eset;

#define ES_GONE UINT64_MAX

static int es_init(eset *s, size_t expected)
{
    size_t cap = 16;
    while (cap < 2 * expected + 16)
        cap *= 2;
    s->k = calloc(cap, sizeof *s->k);
    s->mask = cap - 1;
    return s->k ? 0 : -1;
}

static uint64_t es_key(uint32_t a, uint32_t b)
{
    return a < b ? ((uint64_t)a << 32 | b) + 1 : ((uint64_t)b << 32 | a) + 1;
}

/* The slot holding KEY, or the empty slot where it would go. */
static size_t es_find(const eset *s, uint64_t key)
{
    size_t i = (size_t)cb_mix64(key) & s->mask;
    while (s->k[i] != 0 && s->k[i] != key)
        i = (i + 1) & s->mask;
    return i;
}

static int es_has(const eset *s, uint32_t a, uint32_t b)
{
    return s->k[es_find(s, es_key(a, b))] != 0;
}

/* Adds a-b; 1 when it was not there. The set is sized for every key it will
 * hold (removed slots are not reused, so lookups stay short). */
static int es_add(eset *s, uint32_t a, uint32_t b)
{
    uint64_t key = es_key(a, b);
    size_t i = es_find(s, key);
    if (s->k[i])
        return 0;
    s->k[i] = key;
    return 1;
}

static void es_del(eset *s, uint32_t a, uint32_t b)
{
    size_t i = es_find(s, es_key(a, b));
    if (s->k[i])
        s->k[i] = ES_GONE;
}

/* ---- sorting and adjacency --------------------------------------------- */

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
static int sort_edges(cb_edge *e, size_t m, size_t n, cb_edge *scratch)
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
    return sort_edges(e, m, n, NULL);
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

/* ---- the models ---------------------------------------------------------- */

static void linear(elist *l, uint32_t n)
{
    el_reserve(l, n);
    for (uint32_t i = 0; i + 1 < n; i++)
        el_add(l, i, i + 1);
}

/* Ring lattice: every u linked to u + j (mod n) for j = 1..k/2 (k < n),
 * written straight in sorted order: node a's higher ends are a + j for
 * j = 1..k/2 while below n, then the wrapped ones a + n - j for j = k/2
 * down to a + 1. */
static void ring(elist *l, uint32_t n, uint32_t k)
{
    uint32_t h = k / 2;
    el_reserve(l, l->n + (size_t)n * h);
    if (l->oom)
        return;
    cb_edge *e = l->e + l->n;
    for (uint32_t a = 0; a < n; a++) {
        for (uint32_t j = 1; j <= h && a + j < n; j++)
            e->a = a, (e++)->b = a + j;
        for (uint32_t j = h; j > a; j--)
            e->a = a, (e++)->b = a + n - j;
    }
    l->n = (size_t)(e - l->e);
}

static void complete(elist *l, uint32_t n)
{
    el_reserve(l, (size_t)n * (n - 1) / 2);
    if (l->oom)
        return;
    for (uint32_t a = 0; a < n; a++)
        for (uint32_t b = a + 1; b < n; b++)
            l->e[l->n].a = a, l->e[l->n++].b = b;
}

/* G(n, p) by geometric skipping (Batagelj & Brandes 2005, NetworkX's
 * fast_gnp_random_graph). Links already in SKIP (may be NULL) are left out. */
static void gnp(elist *l, uint32_t n, double p, cb_rng *rng, const eset *skip)
{
    if (p <= 0 || n < 2)
        return;
    el_reserve(l, l->n + (size_t)(p * pairs_of(n) * 1.1) + 16);
    if (p >= 1) {
        for (uint32_t a = 0; a < n; a++)
            for (uint32_t b = a + 1; b < n; b++)
                if (!skip || !es_has(skip, a, b))
                    el_add(l, a, b);
        return;
    }
    double lp = log1p(-p);
    int64_t v = 1, w = -1;
    while (v < n) {
        double lr = log1p(-cb_rng_uniform(rng));
        double jump = floor(lr / lp);
        w += 1 + (jump > 4e18 ? (int64_t)4e18 : (int64_t)jump);
        while (w >= v && v < n) {
            w -= v;
            v++;
        }
        if (v < n && (!skip || !es_has(skip, (uint32_t)v, (uint32_t)w)))
            el_add(l, (uint32_t)v, (uint32_t)w);
    }
}

static uint64_t link_key(cb_edge e)
{
    return (uint64_t)e.a << 32 | e.b;
}

/* The union of sorted distinct links L and sorted links C (repeats allowed)
 * into OUT, sorted and distinct; returns its size. */
static size_t merge_links(const cb_edge *l, size_t nl, const cb_edge *c, size_t nc, cb_edge *out)
{
    size_t i = 0, o = 0;
    for (size_t x = 0; x < nc; x++) {
        uint64_t k = link_key(c[x]);
        if (x > 0 && k == link_key(c[x - 1]))
            continue;
        while (i < nl && link_key(l[i]) < k)
            out[o++] = l[i++];
        if (i < nl && link_key(l[i]) == k)
            continue;
        out[o++] = c[x];
    }
    while (i < nl)
        out[o++] = l[i++];
    return o;
}

/* Adds uniformly random new links (no loops, none already in L) until L
 * holds TOTAL; L is sorted and distinct before and after. While few pairs
 * are taken: rounds of as many uniform pairs as links are missing, sorted
 * and merged into L (repeats and links already there dropped), until none
 * is missing. Every step treats the free pairs alike, so the links added are
 * a uniform choice among them, as one-by-one rejection would give, with no
 * hash set: memory is read in order. Else a shuffle of the free pairs. */
static int add_random_links(elist *l, uint32_t n, size_t total, cb_rng *rng)
{
    double pairs = pairs_of(n);
    if (total <= l->n)
        return 0;
    el_reserve(l, total);
    if (l->oom)
        return -1;
    if ((double)total <= pairs / 2) {
        size_t want = total - l->n;
        cb_edge *cand = malloc(want * sizeof *cand), *out = malloc(total * sizeof *out);
        int rc = cand && out ? 0 : -1;
        while (rc == 0 && l->n < total) {
            size_t d = total - l->n;
            for (size_t x = 0; x < d; x++) {
                uint32_t a, b;
                do {
                    a = (uint32_t)cb_rng_below(rng, n);
                    b = (uint32_t)cb_rng_below(rng, n);
                } while (a == b);
                cand[x].a = a < b ? a : b;
                cand[x].b = a < b ? b : a;
            }
            if (sort_edges(cand, d, n, NULL) != 0) {
                rc = -1;
                break;
            }
            l->n = merge_links(l->e, l->n, cand, d, out);
            cb_edge *t = l->e;
            l->e = out;
            l->cap = total; /* both buffers hold at least that */
            out = t;
        }
        free(cand);
        free(out);
        return rc;
    }
    size_t nfree = (size_t)pairs - l->n, want = total - l->n, have = l->n;
    cb_edge *fr = malloc((nfree ? nfree : 1) * sizeof *fr);
    if (!fr)
        return -1;
    size_t f = 0, i = 0; /* L is sorted: walk it along the pairs */
    for (uint32_t a = 0; a < n; a++)
        for (uint32_t b = a + 1; b < n; b++) {
            if (i < have && l->e[i].a == a && l->e[i].b == b)
                i++;
            else
                fr[f].a = a, fr[f++].b = b;
        }
    for (i = 0; i < want && i < f; i++) { /* partial Fisher-Yates */
        size_t j = i + (size_t)cb_rng_below(rng, f - i);
        cb_edge t = fr[i];
        fr[i] = fr[j];
        fr[j] = t;
        el_add(l, fr[i].a, fr[i].b);
    }
    free(fr);
    return l->oom || cb_net_sort_edges(l->e, l->n, n) != 0 ? -1 : 0;
}

/* Random k-regular: the configuration model (stubs shuffled and paired),
 * then every loop or repeated link is replaced by a double-edge switch with
 * a random good link that creates no new loop or repeat. */
static int regular(elist *l, uint32_t n, uint32_t k, cb_rng *rng)
{
    if (2 * (size_t)k > (size_t)n - 1) {
        /* dense: the complement of a random (n-1-k)-regular graph, where
         * switching has room to work */
        elist c = {0};
        eset s;
        int rc = k + 1 < n ? regular(&c, n, n - 1 - k, rng) : 0;
        if (rc == 0 && es_init(&s, c.n) == 0) {
            for (size_t i = 0; i < c.n; i++)
                es_add(&s, c.e[i].a, c.e[i].b);
            el_reserve(l, (size_t)n * k / 2);
            for (uint32_t a = 0; a < n; a++)
                for (uint32_t b = a + 1; b < n; b++)
                    if (!es_has(&s, a, b))
                        el_add(l, a, b);
            free(s.k);
            rc = l->oom ? -1 : 0;
        } else if (rc == 0) {
            rc = -1;
        }
        free(c.e);
        return rc;
    }
    size_t m = (size_t)n * k / 2;
    uint32_t *stub = malloc(2 * m * sizeof *stub);
    uint8_t *bad = calloc(m ? m : 1, 1);
    uint32_t *badlist = malloc((m ? m : 1) * sizeof *badlist);
    eset s = {0};
    int rc = -1;
    if (!stub || !bad || !badlist || es_init(&s, 2 * m) != 0)
        goto out;
    for (int attempt = 0; attempt < 20; attempt++) {
        memset(s.k, 0, (s.mask + 1) * sizeof *s.k);
        memset(bad, 0, m);
        for (size_t i = 0; i < 2 * m; i++)
            stub[i] = (uint32_t)(i / k);
        cb_rng_shuffle(rng, stub, 2 * m);
        size_t nbad = 0;
        for (size_t e = 0; e < m; e++) {
            uint32_t a = stub[2 * e], b = stub[2 * e + 1];
            if (a == b || !es_add(&s, a, b)) {
                bad[e] = 1;
                badlist[nbad++] = (uint32_t)e;
            }
        }
        size_t fixed = 0;
        for (; fixed < nbad; fixed++) {
            size_t e = badlist[fixed];
            int done = 0;
            for (int tries = 0; tries < 10000 && !done; tries++) {
                size_t f = (size_t)cb_rng_below(rng, m);
                if (bad[f])
                    continue;
                uint32_t a = stub[2 * e], b = stub[2 * e + 1];
                int flip = (int)(cb_rng_next(rng) >> 63);
                uint32_t c = stub[2 * f + (size_t)flip], d = stub[2 * f + 1 - (size_t)flip];
                if (a == c || b == d || es_key(a, c) == es_key(b, d) || es_has(&s, a, c) ||
                    es_has(&s, b, d))
                    continue;
                es_del(&s, c, d);
                es_add(&s, a, c);
                es_add(&s, b, d);
                stub[2 * e] = a, stub[2 * e + 1] = c;
                stub[2 * f] = b, stub[2 * f + 1] = d;
                bad[e] = 0;
                done = 1;
            }
            if (!done)
                break;
        }
        if (fixed == nbad) {
            el_reserve(l, m);
            for (size_t e = 0; e < m; e++)
                el_add(l, stub[2 * e], stub[2 * e + 1]);
            rc = l->oom ? -1 : 0;
            goto out;
        }
        /* Tombstones pile up in the set: rebuild it for the next attempt. */
    }
    rc = 1; /* no simple graph found */
out:
    free(stub);
    free(bad);
    free(badlist);
    free(s.k);
    return rc;
}

/* Adds a-b to a set that grows: *COUNT keys held, kept at most half full.
 * 1 when added, 0 when there already, -1 when out of memory. */
static int es_add_grow(eset *s, size_t *count, uint32_t a, uint32_t b)
{
    if (2 * (*count + 1) > s->mask + 1) {
        eset t;
        if (es_init(&t, (s->mask + 1) / 2) != 0) /* twice the slots */
            return -1;
        for (size_t i = 0; i <= s->mask; i++)
            if (s->k[i] != 0 && s->k[i] != ES_GONE)
                t.k[es_find(&t, s->k[i])] = s->k[i];
        free(s->k);
        *s = t;
    }
    int added = es_add(s, a, b);
    *count += (size_t)added;
    return added;
}

/* The small-world state: which lattice links u-(u+j) (bit (j-1) n + u) have
 * moved away, and the set of the moved links' new ends. */
typedef struct {
    uint32_t n, h;
    uint64_t *gone;
    eset moved;
} sw_state;

static int sw_gone(const sw_state *w, uint32_t j, uint32_t u)
{
    size_t bit = (size_t)(j - 1) * w->n + u;
    return (int)(w->gone[bit >> 6] >> (bit & 63) & 1);
}

/* Whether u-w (u != w) is a link now. */
static int sw_linked(const sw_state *w, uint32_t u, uint32_t x)
{
    uint32_t d = x > u ? x - u : x + w->n - u; /* from u forward to x */
    if (d <= w->h && !sw_gone(w, d, u))
        return 1;
    if (w->n - d <= w->h && !sw_gone(w, w->n - d, x))
        return 1;
    return es_has(&w->moved, u, x);
}

/* Degree - k of every node: the lattice links still in place and the moved
 * links MV. NULL when out of memory. */
static int32_t *sw_degrees(const sw_state *w, const cb_edge *mv, size_t nmv, uint32_t k)
{
    int32_t *extra = malloc((size_t)w->n * sizeof *extra);
    if (!extra)
        return NULL;
    for (uint32_t x = 0; x < w->n; x++)
        extra[x] = -(int32_t)k;
    for (uint32_t j = 1; j <= w->h; j++)
        for (uint32_t u = 0; u < w->n; u++)
            if (!sw_gone(w, j, u)) {
                extra[u]++;
                extra[u + j < w->n ? u + j : u + j - w->n]++;
            }
    for (size_t i = 0; i < nmv; i++) {
        extra[mv[i].a]++;
        extra[mv[i].b]++;
    }
    return extra;
}

/* Watts-Strogatz as NetworkX's watts_strogatz_graph: the ring lattice, then
 * for j = 1..k/2 and every u, with probability p the link u-(u+j) moves its
 * far end to a uniform node w that is not u nor already linked to u (the
 * move is skipped when u is linked to every node). The lattice is never
 * built as a list: a bit per lattice link says whether it moved, a small set
 * holds the moved links, which wait at the end of the output until they are
 * sorted and merged with the lattice links in place. */
static int small_world(elist *l, uint32_t n, uint32_t k, double p, cb_rng *rng_out)
{
    cb_rng rng_copy = *rng_out, *rng = &rng_copy; /* stays in registers */
    uint32_t h = k / 2;
    size_t lat = (size_t)n * h, nmoved = 0;
    sw_state st = {n, h, calloc(lat / 64 + 1, sizeof(uint64_t)), {0}};
    /* Degree - k of every node, counted only once some node could be linked
     * to all others: a degree is at most k + the moves so far. */
    int32_t *extra = NULL;
    int rc = -1;
    el_reserve(l, lat); /* l is empty */
    if (!st.gone || l->oom || es_init(&st.moved, (size_t)(p * (double)lat) + 16) != 0)
        goto out;
    cb_edge *mv = l->e + lat; /* moved links: l->e[lat - nmoved, lat) */
    for (uint32_t j = 1; j <= h; j++)
        for (uint32_t u = 0; u < n; u++) {
            if (!(cb_rng_uniform(rng) < p))
                continue;
            if (!extra && (size_t)k + nmoved >= (size_t)n - 1 &&
                !(extra = sw_degrees(&st, mv, nmoved, k)))
                goto out;
            if (extra && (int64_t)k + extra[u] >= (int64_t)n - 1)
                continue;
            uint32_t w;
            do
                w = (uint32_t)cb_rng_below(rng, n);
            while (w == u || sw_linked(&st, u, w));
            size_t bit = (size_t)(j - 1) * n + u;
            st.gone[bit >> 6] |= (uint64_t)1 << (bit & 63);
            if (extra) {
                extra[u + j < n ? u + j : u + j - n]--;
                extra[w]++;
            }
            if (es_add_grow(&st.moved, &nmoved, u, w) < 0)
                goto out;
            mv--;
            mv->a = u < w ? u : w;
            mv->b = u < w ? w : u;
        }
    /* The free head of l is scratch for the sort when big enough. */
    if (sort_edges(mv, nmoved, n, nmoved <= lat - nmoved ? l->e : NULL) != 0)
        goto out;
    /* Write each node's lattice links still in place (in ring()'s sorted
     * order), then insert its moved links. The write end stays behind the
     * moved links not read yet: it is ahead of them by the lattice links in
     * place, at most lat - nmoved. While far behind, a lattice link is
     * written whether or not it moved and kept only if it did not (no
     * branch to mispredict). */
    cb_edge *e = l->e, *mv_end = l->e + lat;
    for (uint32_t a = 0; a < n; a++) {
        cb_edge *first = e;
        uint32_t jmax = n - 1 - a < h ? n - 1 - a : h;
        if (e + 2 * h <= mv) {
            for (uint32_t j = 1; j <= jmax; j++) {
                e->a = a, e->b = a + j;
                e += !sw_gone(&st, j, a);
            }
            for (uint32_t j = h; j > a; j--) {
                e->a = a, e->b = a + n - j;
                e += !sw_gone(&st, j, a + n - j);
            }
        } else {
            for (uint32_t j = 1; j <= jmax; j++)
                if (!sw_gone(&st, j, a))
                    e->a = a, (e++)->b = a + j;
            for (uint32_t j = h; j > a; j--)
                if (!sw_gone(&st, j, a + n - j))
                    e->a = a, (e++)->b = a + n - j;
        }
        while (mv < mv_end && mv->a == a) {
            cb_edge x = *mv++, *y = e++;
            for (; y > first && y[-1].b > x.b; y--)
                *y = y[-1];
            *y = x;
        }
    }
    l->n = (size_t)(e - l->e);
    rc = 0;
out:
    *rng_out = rng_copy;
    free(st.gone);
    free(st.moved.k);
    free(extra);
    return rc;
}

/* Barabasi-Albert as NetworkX's barabasi_albert_graph: a star on m + 1
 * nodes, then each new node links to m distinct nodes drawn from the list
 * holding every node once per link end (so with probability proportional
 * to degree). */
static int scale_free(elist *l, uint32_t n, uint32_t m, cb_rng *rng)
{
    size_t total = (size_t)m + (size_t)(n - m - 1) * m;
    el_reserve(l, total);
    uint32_t *rep = malloc(2 * total * sizeof *rep);
    uint32_t *mark = malloc((size_t)n * sizeof *mark);
    uint32_t *targets = malloc((size_t)m * sizeof *targets);
    if (!rep || !mark || !targets || l->oom) {
        free(rep);
        free(mark);
        free(targets);
        return -1;
    }
    size_t r = 0;
    for (uint32_t i = 1; i <= m; i++) {
        el_add(l, 0, i);
        rep[r++] = 0;
        rep[r++] = i;
    }
    for (uint32_t v = 0; v < n; v++)
        mark[v] = UINT32_MAX;
    for (uint32_t src = m + 1; src < n; src++) {
        uint32_t t = 0;
        while (t < m) {
            uint32_t x = rep[cb_rng_below(rng, r)];
            if (mark[x] != src) {
                mark[x] = src;
                targets[t++] = x;
            }
        }
        for (uint32_t i = 0; i < m; i++) {
            el_add(l, src, targets[i]);
            rep[r++] = targets[i];
            rep[r++] = src;
        }
    }
    free(rep);
    free(mark);
    free(targets);
    return 0;
}

/* Anchored random: a random recursive tree over the nodes in a random order
 * (connected, every node has a link), then random links: G(n, p) on the
 * other pairs, or uniform new links up to LINKS in all. */
static int anchored(elist *l, uint32_t n, long links, double p, cb_rng *rng)
{
    uint32_t *perm = malloc((size_t)n * sizeof *perm);
    size_t expect = links >= 0 ? (size_t)links : (size_t)(n - 1) + (size_t)(p * pairs_of(n) * 1.1);
    if (!perm)
        return -1;
    for (uint32_t i = 0; i < n; i++)
        perm[i] = i;
    cb_rng_shuffle(rng, perm, n);
    el_reserve(l, expect);
    for (uint32_t i = 1; i < n; i++)
        el_add(l, perm[i], perm[cb_rng_below(rng, i)]);
    free(perm);
    if (l->oom)
        return -1;
    if (links >= 0) /* the tree sorted, then the random links merged in */
        return cb_net_sort_edges(l->e, l->n, n) != 0 ||
                       add_random_links(l, n, (size_t)links, rng) != 0 || l->oom ? -1 : 0;
    eset s;
    if (es_init(&s, n) != 0)
        return -1;
    for (size_t i = 0; i < l->n; i++)
        es_add(&s, l->e[i].a, l->e[i].b);
    gnp(l, n, p, rng, &s);
    free(s.k);
    return l->oom ? -1 : 0;
}

/* ---- geometric versions ------------------------------------------------- */

/* N points in distinct cells of a grid over the W x H box, jittered inside
 * their cell, numbered row by row (so nearby numbers are near each other). */
static int place_points(double *xy, uint32_t n, double w, double h, cb_rng *rng)
{
    uint32_t cols = (uint32_t)fmax(1, ceil(sqrt((double)n * w / h)));
    uint32_t rows = (n + cols - 1) / cols;
    uint32_t cells = cols * rows;
    uint32_t *cell = malloc((size_t)cells * sizeof *cell);
    uint8_t *used = calloc(cells, 1);
    if (!cell || !used) {
        free(cell);
        free(used);
        return -1;
    }
    for (uint32_t i = 0; i < cells; i++)
        cell[i] = i;
    cb_rng_shuffle(rng, cell, cells);
    for (uint32_t i = 0; i < n; i++)
        used[cell[i]] = 1;
    double cw = w / cols, ch = h / rows;
    uint32_t k = 0;
    for (uint32_t c = 0; c < cells; c++) {
        if (!used[c])
            continue;
        double jx = 0.7 * (cb_rng_uniform(rng) - 0.5), jy = 0.7 * (cb_rng_uniform(rng) - 0.5);
        xy[2 * k] = ((c % cols) + 0.5 + jx) * cw;
        xy[2 * k + 1] = ((c / cols) + 0.5 + jy) * ch;
        k++;
    }
    free(cell);
    free(used);
    return 0;
}

static double dist_xy(const double *xy, uint32_t a, uint32_t b)
{
    return hypot(xy[2 * a] - xy[2 * b], xy[2 * a + 1] - xy[2 * b + 1]);
}

/* A closed tour through every point without self-crossings: nearest
 * neighbour from point 0, then 2-opt moves while any shortens the tour.
 * Two crossing tour edges are always a shortening move, so the result has
 * none. */
static int tour(const double *xy, uint32_t n, uint32_t *t)
{
    uint8_t *seen = calloc(n, 1);
    if (!seen)
        return -1;
    t[0] = 0;
    seen[0] = 1;
    for (uint32_t i = 1; i < n; i++) {
        uint32_t best = 0;
        double bd = INFINITY;
        for (uint32_t v = 0; v < n; v++)
            if (!seen[v] && dist_xy(xy, t[i - 1], v) < bd)
                bd = dist_xy(xy, t[i - 1], v), best = v;
        t[i] = best;
        seen[best] = 1;
    }
    free(seen);
    for (int improved = 1; improved;) {
        improved = 0;
        for (uint32_t i = 0; i + 2 < n; i++)
            for (uint32_t j = i + 2; j < n; j++) {
                uint32_t a = t[i], b = t[i + 1], c = t[j], d = t[(j + 1) % n];
                if (d == a)
                    continue;
                double delta = dist_xy(xy, a, c) + dist_xy(xy, b, d) - dist_xy(xy, a, b) -
                               dist_xy(xy, c, d);
                if (delta < -1e-12) {
                    for (uint32_t x = i + 1, y = j; x < y; x++, y--) {
                        uint32_t tmp = t[x];
                        t[x] = t[y];
                        t[y] = tmp;
                    }
                    improved = 1;
                }
            }
    }
    return 0;
}

typedef struct {
    cb_edge *e;       /* triangulation links, sorted */
    size_t m;
    cb_net_csr g;     /* triangulation adjacency */
} dt_links;

static int dt_links_build(dt_links *d, const double *xy, uint32_t n, double clear)
{
    cb_delaunay dt = {0};
    memset(d, 0, sizeof *d);
    if (cb_delaunay_build(&dt, xy, n) != 0)
        return -1;
    size_t he = 3 * dt.n_triangles;
    d->e = malloc((he + 1) * sizeof *d->e);
    if (!d->e) {
        cb_delaunay_free(&dt);
        return -1;
    }
    for (uint32_t e = 0; e < he; e++)
        if (dt.halfedges[e] == CB_DT_NONE || e > dt.halfedges[e]) {
            uint32_t a = dt.triangles[e], b = dt.triangles[cb_dt_next(e)];
            d->e[d->m].a = a < b ? a : b;
            d->e[d->m++].b = a < b ? b : a;
        }
    cb_delaunay_free(&dt);
    /* Links of flat hull triangles can graze a third node: leave out links
     * closer than CLEAR to another node, unless that would disconnect. */
    uint8_t *graze = calloc(d->m + 1, 1);
    uint32_t *parent = malloc(n * sizeof *parent);
    if (!graze || !parent) {
        free(graze), free(parent), free(d->e);
        return -1;
    }
    for (size_t i = 0; i < d->m; i++) {
        cb_point a = {xy[2 * d->e[i].a], xy[2 * d->e[i].a + 1]};
        cb_point b = {xy[2 * d->e[i].b], xy[2 * d->e[i].b + 1]};
        for (uint32_t v = 0; v < n && !graze[i]; v++) {
            cb_point c = {xy[2 * v], xy[2 * v + 1]};
            graze[i] = v != d->e[i].a && v != d->e[i].b && cb_point_segment_dist(c, a, b) < clear;
        }
    }
    for (uint32_t v = 0; v < n; v++)
        parent[v] = v;
    size_t parts = n;
    for (size_t i = 0; i < d->m; i++) {
        uint32_t ra = cb_uf_find(parent, d->e[i].a), rb = cb_uf_find(parent, d->e[i].b);
        if (!graze[i] && ra != rb)
            parent[ra] = rb, parts--;
    }
    if (parts == 1) {
        size_t k = 0;
        for (size_t i = 0; i < d->m; i++)
            if (!graze[i])
                d->e[k++] = d->e[i];
        d->m = k;
    }
    free(graze);
    free(parent);
    cb_network tmp = {.n = n, .n_edges = d->m, .edges = d->e};
    if (cb_net_sort_edges(d->e, d->m, n) != 0 || cb_net_csr_build(&d->g, &tmp) != 0) {
        free(d->e);
        return -1;
    }
    return 0;
}

static void dt_links_free(dt_links *d)
{
    free(d->e);
    cb_net_csr_free(&d->g);
}

/* Triangulation links shortest first (ties by index) kept while both ends
 * have fewer than K: as regular as the flat map allows. */
static int geo_regular(elist *l, const dt_links *d, const double *xy, uint32_t n, uint32_t k)
{
    size_t *order = malloc((d->m + 1) * sizeof *order);
    double *len = malloc((d->m + 1) * sizeof *len);
    uint32_t *deg = calloc(n, sizeof *deg);
    if (!order || !len || !deg) {
        free(order);
        free(len);
        free(deg);
        return -1;
    }
    for (size_t i = 0; i < d->m; i++) {
        order[i] = i;
        len[i] = dist_xy(xy, d->e[i].a, d->e[i].b);
    }
    /* insertion sort is plenty for a printed map (n <= 400) */
    for (size_t i = 1; i < d->m; i++) {
        size_t x = order[i], j = i;
        while (j > 0 && (len[order[j - 1]] > len[x] ||
                         (len[order[j - 1]] == len[x] && order[j - 1] > x))) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = x;
    }
    for (size_t i = 0; i < d->m; i++) {
        cb_edge e = d->e[order[i]];
        if (deg[e.a] < k && deg[e.b] < k) {
            el_add(l, e.a, e.b);
            deg[e.a]++;
            deg[e.b]++;
        }
    }
    free(order);
    free(len);
    free(deg);
    return l->oom ? -1 : 0;
}

/* A random spanning tree of the triangulation (Kruskal in a random order),
 * then the other triangulation links kept with probability p, or in a random
 * order up to LINKS in all. */
static int geo_random(elist *l, const dt_links *d, uint32_t n, long links, double p,
                      cb_rng *rng)
{
    uint32_t *order = malloc((d->m + 1) * sizeof *order), *parent = malloc(n * sizeof *parent);
    uint8_t *in = calloc(d->m + 1, 1);
    if (!order || !parent || !in) {
        free(order);
        free(parent);
        free(in);
        return -1;
    }
    for (uint32_t i = 0; i < d->m; i++)
        order[i] = i;
    for (uint32_t v = 0; v < n; v++)
        parent[v] = v;
    cb_rng_shuffle(rng, order, d->m);
    for (size_t i = 0; i < d->m; i++) {
        cb_edge e = d->e[order[i]];
        uint32_t ra = cb_uf_find(parent, e.a), rb = cb_uf_find(parent, e.b);
        if (ra != rb) {
            parent[ra] = rb;
            in[order[i]] = 1;
            el_add(l, e.a, e.b);
        }
    }
    for (size_t i = 0; i < d->m; i++) {
        if (in[order[i]])
            continue;
        int keep = links >= 0 ? l->n < (size_t)links : cb_rng_uniform(rng) < p;
        if (keep)
            el_add(l, d->e[order[i]].a, d->e[order[i]].b);
    }
    free(order);
    free(parent);
    free(in);
    return l->oom ? -1 : 0;
}

/* Watts-Strogatz on the triangulation: the geometric k-lattice, then each
 * link's far end moves with probability p to a triangulation neighbour of
 * its near end that is not linked to it yet. */
static int geo_small_world(elist *l, const dt_links *d, const double *xy, uint32_t n,
                           uint32_t k, double p, cb_rng *rng)
{
    if (geo_regular(l, d, xy, n, k) != 0)
        return -1;
    eset s;
    uint32_t *cand = malloc(n * sizeof *cand);
    if (!cand || es_init(&s, 2 * l->n) != 0) {
        free(cand);
        return -1;
    }
    for (size_t i = 0; i < l->n; i++)
        es_add(&s, l->e[i].a, l->e[i].b);
    for (size_t i = 0; i < l->n; i++) {
        if (!(cb_rng_uniform(rng) < p))
            continue;
        int flip = (int)(cb_rng_next(rng) >> 63);
        uint32_t u = flip ? l->e[i].b : l->e[i].a, v = flip ? l->e[i].a : l->e[i].b;
        size_t nc = 0;
        for (uint32_t j = d->g.start[u]; j < d->g.start[u + 1]; j++)
            if (d->g.adj[j] != v && !es_has(&s, u, d->g.adj[j]))
                cand[nc++] = d->g.adj[j];
        if (nc == 0)
            continue;
        uint32_t w = cand[cb_rng_below(rng, nc)];
        es_del(&s, u, v);
        es_add(&s, u, w);
        l->e[i].a = u < w ? u : w;
        l->e[i].b = u < w ? w : u;
    }
    free(cand);
    free(s.k);
    return 0;
}

/* Preferential attachment on the triangulation: nodes join in a random
 * growth order (each next node a random triangulation neighbour of the
 * nodes already in), and each links to up to M of its neighbours already in,
 * chosen one by one with probability proportional to degree (at least 1). */
static int geo_scale_free(elist *l, const dt_links *d, uint32_t n, uint32_t m, cb_rng *rng)
{
    uint8_t *state = calloc(n, 1); /* 0 out, 1 in the frontier, 2 in */
    uint32_t *front = malloc(n * sizeof *front), *deg = calloc(n, sizeof *deg);
    uint32_t *cand = malloc(n * sizeof *cand);
    if (!state || !front || !deg || !cand) {
        free(state);
        free(front);
        free(deg);
        free(cand);
        return -1;
    }
    size_t nf = 0;
    front[nf++] = (uint32_t)cb_rng_below(rng, n);
    state[front[0]] = 1;
    while (nf) {
        size_t pick = (size_t)cb_rng_below(rng, nf);
        uint32_t v = front[pick];
        front[pick] = front[--nf];
        state[v] = 2;
        size_t nc = 0;
        for (uint32_t j = d->g.start[v]; j < d->g.start[v + 1]; j++) {
            uint32_t w = d->g.adj[j];
            if (state[w] == 2)
                cand[nc++] = w;
            else if (state[w] == 0) {
                state[w] = 1;
                front[nf++] = w;
            }
        }
        for (uint32_t t = 0; t < m && nc; t++) {
            double total = 0;
            for (size_t i = 0; i < nc; i++)
                total += deg[cand[i]] ? deg[cand[i]] : 1;
            double x = cb_rng_uniform(rng) * total;
            size_t i = 0;
            for (; i + 1 < nc; i++) {
                x -= deg[cand[i]] ? deg[cand[i]] : 1;
                if (x < 0)
                    break;
            }
            uint32_t w = cand[i];
            cand[i] = cand[--nc];
            el_add(l, v, w);
            deg[v]++;
            deg[w]++;
        }
    }
    free(state);
    free(front);
    free(deg);
    free(cand);
    return l->oom ? -1 : 0;
}

static int build_geometric(elist *l, const cb_net_spec *s, const params *q, double *xy,
                           cb_rng *rng)
{
    uint32_t n = (uint32_t)q->n;
    if (place_points(xy, n, s->width, s->height, rng) != 0)
        return -1;
    if (s->model == CB_NET_LINEAR || s->model == CB_NET_RING) {
        uint32_t *t = malloc(n * sizeof *t);
        if (!t || tour(xy, n, t) != 0) {
            free(t);
            return -1;
        }
        if (s->model == CB_NET_RING) {
            for (uint32_t i = 0; i < n; i++)
                el_add(l, t[i], t[(i + 1) % n]);
        } else { /* the tour without its longest link */
            uint32_t cut = 0;
            for (uint32_t i = 1; i < n; i++)
                if (dist_xy(xy, t[i], t[(i + 1) % n]) > dist_xy(xy, t[cut], t[(cut + 1) % n]))
                    cut = i;
            for (uint32_t i = 1; i < n; i++)
                el_add(l, t[(cut + i) % n], t[(cut + i + 1) % n]);
        }
        free(t);
        return l->oom ? -1 : 0;
    }
    dt_links d;
    if (dt_links_build(&d, xy, n, 0.3 * sqrt(s->width * s->height / n)) != 0)
        return -1;
    int rc = 0;
    switch (s->model) {
    case CB_NET_COMPLETE:
        for (size_t i = 0; i < d.m; i++)
            el_add(l, d.e[i].a, d.e[i].b);
        break;
    case CB_NET_REGULAR:
        rc = geo_regular(l, &d, xy, n, (uint32_t)q->k);
        break;
    case CB_NET_RANDOM:
    case CB_NET_ANCHORED:
        rc = geo_random(l, &d, n, q->links, q->p, rng);
        break;
    case CB_NET_SMALL_WORLD:
        rc = geo_small_world(l, &d, xy, n, (uint32_t)q->k, q->p, rng);
        break;
    case CB_NET_SCALE_FREE:
        rc = geo_scale_free(l, &d, n, (uint32_t)q->m, rng);
        break;
    default:
        break;
    }
    dt_links_free(&d);
    return rc || l->oom ? -1 : 0;
}

/* ---- building ------------------------------------------------------------ */

cb_status cb_network_build(const cb_net_spec *spec, cb_network **out, cb_error *err)
{
    *out = NULL;
    cb_status st = cb_net_spec_check(spec, err);
    if (st != CB_OK)
        return st;
    params q;
    resolve(spec, &q);
    cb_rng rng;
    char tag[64];
    snprintf(tag, sizeof tag, "network/%s/", model_names[spec->model]);
    cb_rng_seed(&rng, cb_hash_string(spec->seed ? spec->seed : "") ^ cb_hash_string(tag));
    cb_network *net = calloc(1, sizeof *net);
    if (!net)
        return cb_fail(err, CB_ERR_INTERNAL, "network: out of memory");
    net->model = spec->model;
    net->n = (size_t)q.n;
    int allowed = model_params(spec->model);
    net->k = allowed & P_K ? q.k : -1;
    net->m = allowed & P_M ? q.m : -1;
    net->links = allowed & P_LINKS ? q.links : -1;
    net->p = allowed & P_P ? q.p : -1;
    if (net->links >= 0)
        net->p = -1;
    elist l = {0};
    uint32_t n = (uint32_t)q.n;
    int rc = 0;
    if (spec->geometric) {
        net->xy = malloc(2 * (size_t)n * sizeof *net->xy);
        rc = net->xy ? build_geometric(&l, spec, &q, net->xy, &rng) : -1;
    } else {
        switch (spec->model) {
        case CB_NET_LINEAR: linear(&l, n); break;
        case CB_NET_RING: ring(&l, n, (uint32_t)q.k); break;
        case CB_NET_REGULAR: rc = regular(&l, n, (uint32_t)q.k, &rng); break;
        case CB_NET_COMPLETE: complete(&l, n); break;
        case CB_NET_RANDOM:
            if (q.links >= 0) {
                rc = add_random_links(&l, n, (size_t)q.links, &rng);
            } else {
                gnp(&l, n, q.p, &rng, NULL);
            }
            break;
        case CB_NET_ANCHORED: rc = anchored(&l, n, q.links, q.p, &rng); break;
        case CB_NET_SMALL_WORLD: rc = small_world(&l, n, (uint32_t)q.k, q.p, &rng); break;
        case CB_NET_SCALE_FREE: rc = scale_free(&l, n, (uint32_t)q.m, &rng); break;
        }
    }
    if (rc == 0 && (l.oom || cb_net_sort_edges(l.e, l.n, n) != 0))
        rc = -1;
    if (rc != 0) {
        free(l.e);
        cb_network_free(net);
        if (rc > 0)
            return cb_fail(err, CB_ERR_INTERNAL,
                           "regular: no simple %ld-regular network on %ld nodes found", q.k,
                           q.n);
        return cb_fail(err, CB_ERR_INTERNAL, "network: out of memory for %ld nodes", q.n);
    }
    net->edges = l.e;
    net->n_edges = l.n;
    *out = net;
    return CB_OK;
}

void cb_network_free(cb_network *net)
{
    if (!net)
        return;
    free(net->edges);
    free(net->xy);
    free(net);
}

void cb_net_params_text(const cb_network *net, char *out, size_t len)
{
    int w = snprintf(out, len, "n=%zu", net->n);
    if (net->k >= 0 && w >= 0 && (size_t)w < len)
        w += snprintf(out + w, len - (size_t)w, " k=%ld", net->k);
    if (net->p >= 0 && w >= 0 && (size_t)w < len)
        w += snprintf(out + w, len - (size_t)w, " p=%g", net->p);
    if (net->m >= 0 && w >= 0 && (size_t)w < len)
        w += snprintf(out + w, len - (size_t)w, " m=%ld", net->m);
    if (net->links >= 0 && w >= 0 && (size_t)w < len)
        snprintf(out + w, len - (size_t)w, " links=%ld", net->links);
}
