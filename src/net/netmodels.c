/* The classic models on plain node numbers: linear, ring lattice, complete,
 * random k-regular, Erdos-Renyi G(n, m) and G(n, p), anchored random,
 * Watts-Strogatz and Barabasi-Albert, each in O(n + links). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "net/netmodels.h"

void cb_net_linear(elist *l, uint32_t n)
{
    el_reserve(l, n);
    for (uint32_t i = 0; i + 1 < n; i++)
        el_add(l, i, i + 1);
}

/* Ring lattice: every u linked to u + j (mod n) for j = 1..k/2 (k < n),
 * written straight in sorted order: node a's higher ends are a + j for
 * j = 1..k/2 while below n, then the wrapped ones a + n - j for j = k/2
 * down to a + 1. */
void cb_net_ring(elist *l, uint32_t n, uint32_t k)
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

void cb_net_complete(elist *l, uint32_t n)
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
void cb_net_gnp(elist *l, uint32_t n, double p, cb_rng *rng, const eset *skip)
{
    if (p <= 0 || n < 2)
        return;
    el_reserve(l, l->n + (size_t)(p * cb_net_pairs(n) * 1.1) + 16);
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
int cb_net_random_links(elist *l, uint32_t n, size_t total, cb_rng *rng)
{
    double pairs = cb_net_pairs(n);
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
            if (cb_net_sort_edges_scratch(cand, d, n, NULL) != 0) {
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
int cb_net_regular(elist *l, uint32_t n, uint32_t k, cb_rng *rng)
{
    if (2 * (size_t)k > (size_t)n - 1) {
        /* dense: the complement of a random (n-1-k)-regular graph, where
         * switching has room to work */
        elist c = {0};
        eset s;
        int rc = k + 1 < n ? cb_net_regular(&c, n, n - 1 - k, rng) : 0;
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
int cb_net_small_world(elist *l, uint32_t n, uint32_t k, double p, cb_rng *rng_out)
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
    if (cb_net_sort_edges_scratch(mv, nmoved, n, nmoved <= lat - nmoved ? l->e : NULL) != 0)
        goto out;
    /* Write each node's lattice links still in place (in cb_net_ring()'s sorted
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
int cb_net_scale_free(elist *l, uint32_t n, uint32_t m, cb_rng *rng)
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
int cb_net_anchored(elist *l, uint32_t n, long links, double p, cb_rng *rng)
{
    uint32_t *perm = malloc((size_t)n * sizeof *perm);
    size_t expect = links >= 0 ? (size_t)links : (size_t)(n - 1) + (size_t)(p * cb_net_pairs(n) * 1.1);
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
                       cb_net_random_links(l, n, (size_t)links, rng) != 0 || l->oom ? -1 : 0;
    eset s;
    if (es_init(&s, n) != 0)
        return -1;
    for (size_t i = 0; i < l->n; i++)
        es_add(&s, l->e[i].a, l->e[i].b);
    cb_net_gnp(l, n, p, rng, &s);
    free(s.k);
    return l->oom ? -1 : 0;
}
