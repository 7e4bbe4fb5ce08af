/* Hop counts remembered between look-aheads (see distcache.h). */
#include <stdlib.h>
#include <string.h>

#include "game/distcache.h"

typedef struct {
    int sheet;              /* -1: empty */
    uint64_t serial;        /* never given to another picture (gm_dist_picture) */
    uint64_t hash;          /* of the bytes, to find a picture without comparing all */
    int next;               /* the next picture in its hash bucket, -1 none */
    uint8_t *bytes;         /* the sheet's edge, piece and node bytes */
    int32_t *search_of;     /* per node: its search from there, -1 none */
    uint64_t *walk;         /* per node: its walkable neighbours as bits (or NULL) */
    int walk_ready;         /* whether WALK is this picture's */
} picture;

typedef struct {
    int picture;            /* -1: empty */
    uint32_t from;
    int *dist;
} search;

/* Both are replaced oldest first (a ring): cheaper than least recently used
 * and, at these sizes, as good. */
struct gm_dist_cache {
    const gm_game *g;
    int n_pictures, n_searches, next_picture, next_search;
    uint64_t serials;       /* pictures made so far */
    int last[GM_MAX_PLAYERS]; /* per sheet: the picture matched last */
    int *bucket;            /* n_buckets (a power of two) first pictures by hash */
    uint64_t n_buckets;
    picture *pictures;
    search *searches;
    uint8_t *bytes;
    int *dists;
    int32_t *search_of;
    int words;              /* words of a node's neighbour bits; 0: no bits */
    uint64_t *walks;
};

/* Sheets of up to MASK_WORDS * 64 nodes are searched a level at a time
 * over bit sets of walkable neighbours, built once for each picture (a
 * picture is searched from several nodes): a neighbour then costs a bit,
 * not a test of its edge and pieces. Larger sheets are searched node by
 * node (gm_dist_from), which costs less than N * N / 64 words. */
#define MASK_WORDS 4

/* A sheet's edge, piece and node bytes lie one after another in a state. */
static size_t picture_len(const gm_sheet *sh)
{
    return (size_t)sh->m + sh->nf + sh->n;
}

gm_dist_cache *gm_dist_cache_new(const gm_game *g, int searches)
{
    size_t len = 1, n = 1;
    for (int k = 0; k < g->n_sheets; k++) {
        const gm_sheet *sh = &g->sheets[k];
        if (sh->off_face != sh->off_edge + sh->m || sh->off_node != sh->off_face + sh->nf)
            return NULL; /* the layout this cache relies on changed */
        len = picture_len(sh) > len ? picture_len(sh) : len;
        n = sh->n > n ? sh->n : n;
    }
    int words = (int)((n + 63) / 64);
    gm_dist_cache *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->g = g;
    c->n_searches = searches > 8 ? searches : 8;
    c->n_pictures = c->n_searches / 8;
    size_t np = (size_t)c->n_pictures, ns = (size_t)c->n_searches;
    c->pictures = calloc(np, sizeof *c->pictures);
    c->searches = calloc(ns, sizeof *c->searches);
    c->bytes = malloc(np * len);
    c->dists = malloc(ns * n * sizeof *c->dists);
    c->search_of = malloc(np * n * sizeof *c->search_of);
    c->words = words <= MASK_WORDS ? words : 0;
    c->walks = c->words ? malloc(np * n * (size_t)c->words * sizeof *c->walks) : NULL;
    for (c->n_buckets = 1; c->n_buckets < 2 * np; c->n_buckets *= 2)
        ;
    c->bucket = malloc(c->n_buckets * sizeof *c->bucket);
    if (!c->pictures || !c->searches || !c->bytes || !c->dists || !c->search_of || !c->bucket ||
        (c->words && !c->walks)) {
        gm_dist_cache_free(c);
        return NULL;
    }
    for (size_t i = 0; i < np; i++) {
        picture *pic = &c->pictures[i];
        pic->sheet = -1, pic->bytes = c->bytes + i * len, pic->search_of = c->search_of + i * n;
        pic->walk = c->walks ? c->walks + i * n * (size_t)c->words : NULL;
    }
    for (size_t i = 0; i < ns; i++)
        c->searches[i].picture = -1, c->searches[i].dist = c->dists + i * n;
    for (int k = 0; k < GM_MAX_PLAYERS; k++)
        c->last[k] = -1;
    for (uint64_t b = 0; b < c->n_buckets; b++)
        c->bucket[b] = -1;
    return c;
}

void gm_dist_cache_free(gm_dist_cache *c)
{
    if (!c)
        return;
    free(c->pictures);
    free(c->searches);
    free(c->bytes);
    free(c->dists);
    free(c->search_of);
    free(c->walks);
    free(c->bucket);
    free(c);
}

/* FNV-1a over 8-byte words (a short tail byte by byte), the sheet mixed in. */
static uint64_t hash_of(const uint8_t *b, size_t len, int sheet)
{
    uint64_t h = UINT64_C(1469598103934665603) ^ (uint64_t)sheet;
    size_t i = 0;
    for (; i + 8 <= len; i += 8) {
        uint64_t w;
        memcpy(&w, b + i, 8);
        h = (h ^ w) * UINT64_C(1099511628211);
    }
    for (; i < len; i++)
        h = (h ^ b[i]) * UINT64_C(1099511628211);
    return h;
}

/* The picture of SHEET in S, made (in place of the oldest) when none
 * matches; the searches of the one it replaces are forgotten. */
static int find_picture(gm_dist_cache *c, const gm_state *s, int sheet)
{
    const gm_sheet *sh = &c->g->sheets[sheet];
    const uint8_t *now = s->mem + sh->off_edge;
    size_t len = picture_len(sh);
    int last = c->last[sheet];
    if (last >= 0 && c->pictures[last].sheet == sheet &&
        memcmp(c->pictures[last].bytes, now, len) == 0)
        return last;
    uint64_t h = hash_of(now, len, sheet);
    for (int i = c->bucket[h & (c->n_buckets - 1)]; i >= 0; i = c->pictures[i].next) {
        picture *pic = &c->pictures[i];
        if (pic->hash == h && pic->sheet == sheet && memcmp(pic->bytes, now, len) == 0)
            return c->last[sheet] = i;
    }
    int k = c->next_picture;
    c->next_picture = (k + 1) % c->n_pictures;
    picture *pic = &c->pictures[k];
    if (pic->sheet >= 0) {
        for (uint32_t v = 0; v < c->g->sheets[pic->sheet].n; v++)
            if (pic->search_of[v] >= 0)
                c->searches[pic->search_of[v]].picture = -1;
        int *at = &c->bucket[pic->hash & (c->n_buckets - 1)]; /* out of its bucket */
        while (*at != k)
            at = &c->pictures[*at].next;
        *at = pic->next;
    }
    pic->next = c->bucket[h & (c->n_buckets - 1)];
    c->bucket[h & (c->n_buckets - 1)] = k;
    pic->sheet = sheet;
    pic->serial = ++c->serials;
    pic->hash = h;
    memcpy(pic->bytes, now, len);
    pic->walk_ready = 0;
    for (uint32_t v = 0; v < sh->n; v++)
        pic->search_of[v] = -1;
    return c->last[sheet] = k;
}

/* PIC's walkable neighbours, as gm_walkable tells them in S: each edge
 * once, a bit at both ends. */
static void build_walk(const gm_dist_cache *c, const gm_state *s, int sheet, picture *pic)
{
    const gm_sheet *sh = &c->g->sheets[sheet];
    size_t words = (size_t)c->words;
    uint64_t *walk = pic->walk;
    memset(walk, 0, sh->n * words * sizeof *walk);
    for (uint32_t e = 0; e < sh->m; e++) {
        if (!gm_walkable(c->g, s, sheet, e))
            continue;
        uint32_t a = sh->ends[e][0], b = sh->ends[e][1];
        walk[a * words + b / 64] |= 1ull << (b % 64);
        walk[b * words + a / 64] |= 1ull << (a % 64);
    }
    pic->walk_ready = 1;
}

/* What gm_dist_from gives, over WALK, neighbour bits of WORDS words a node
 * (a constant where inlined): each level is the union of the last one's
 * neighbours, less the nodes reached before. */
static inline void search_bits(const gm_sheet *sh, const uint64_t *walk, int words,
                               uint32_t from, int *dist)
{
    uint64_t seen[MASK_WORDS] = {0}, level[MASK_WORDS] = {0};
    seen[from / 64] = level[from / 64] = 1ull << (from % 64);
    dist[from] = 0;
    /* nobody walks through the summit: it is reached, never left */
    uint32_t summit = sh->center;
    uint64_t through[MASK_WORDS];
    for (int k = 0; k < words; k++)
        through[k] = ~0ull;
    if (summit != from)
        through[summit / 64] &= ~(1ull << (summit % 64));
    for (int d = 1;; d++) {
        uint64_t next[MASK_WORDS] = {0}, any = 0;
        for (int k = 0; k < words; k++)
            for (uint64_t bits = level[k] & through[k]; bits; bits &= bits - 1) {
                uint32_t v = (uint32_t)(k * 64 + __builtin_ctzll(bits));
                const uint64_t *near = walk + (size_t)v * (size_t)words;
                for (int j = 0; j < words; j++)
                    next[j] |= near[j];
            }
        for (int k = 0; k < words; k++) {
            level[k] = next[k] & ~seen[k];
            seen[k] |= level[k];
            any |= level[k];
        }
        if (!any)
            return;
        for (int k = 0; k < words; k++)
            for (uint64_t bits = level[k]; bits; bits &= bits - 1)
                dist[k * 64 + __builtin_ctzll(bits)] = d;
    }
}

/* gm_dist_from over PIC's neighbour bits. */
static void search_picture(const gm_dist_cache *c, const gm_state *s, int sheet,
                           const picture *pic, uint32_t from, int *dist)
{
    const gm_sheet *sh = &c->g->sheets[sheet];
    memset(dist, 0xff, sh->n * sizeof *dist); /* -1 everywhere */
    if (!gm_nodes(c->g, s, sheet)[from])
        return;
    switch (c->words) {
    case 1: search_bits(sh, pic->walk, 1, from, dist); break;
    case 2: search_bits(sh, pic->walk, 2, from, dist); break;
    case 3: search_bits(sh, pic->walk, 3, from, dist); break;
    default: search_bits(sh, pic->walk, MASK_WORDS, from, dist); break;
    }
}

void gm_dist_cached(gm_dist_cache *c, const gm_game *g, const gm_state *s, int sheet,
                    uint32_t from, int *dist)
{
    const gm_sheet *sh = &g->sheets[sheet];
    if (!c) {
        uint32_t queue[GM_MAX_NODES + 1];
        gm_dist_from(g, s, sheet, from, dist, queue);
        return;
    }
    picture *pic = &c->pictures[find_picture(c, s, sheet)];
    int found = pic->search_of[from];
    if (found >= 0) {
        memcpy(dist, c->searches[found].dist, sh->n * sizeof *dist);
        return;
    }
    int k = c->next_search;
    c->next_search = (k + 1) % c->n_searches;
    search *se = &c->searches[k];
    if (se->picture >= 0)
        c->pictures[se->picture].search_of[se->from] = -1;
    if (pic->walk) {
        if (!pic->walk_ready)
            build_walk(c, s, sheet, pic);
        search_picture(c, s, sheet, pic, from, se->dist);
    } else {
        uint32_t queue[GM_MAX_NODES + 1];
        gm_dist_from(g, s, sheet, from, se->dist, queue);
    }
    se->picture = (int)(pic - c->pictures), se->from = from;
    pic->search_of[from] = k;
    memcpy(dist, se->dist, sh->n * sizeof *dist);
}

uint64_t gm_dist_picture(gm_dist_cache *c, const gm_state *s, int sheet)
{
    return c->pictures[find_picture(c, s, sheet)].serial;
}
