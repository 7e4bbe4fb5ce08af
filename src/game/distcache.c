/* Hop counts remembered between look-aheads (see distcache.h). */
#include <stdlib.h>
#include <string.h>

#include "game/distcache.h"

/* Enough pictures for every sheet of a 9-player game and the trial cuts
 * tried on them; enough searches for every token and goal on them. */
#define PICTURES 24
#define SEARCHES 96

typedef struct {
    int sheet;              /* -1: empty */
    uint64_t used;          /* when last matched (least recently used goes) */
    uint8_t *bytes;         /* the sheet's edge, piece and node bytes */
    int16_t *search_of;     /* per node: its search from there, -1 none */
} picture;

typedef struct {
    int picture;            /* -1: empty */
    uint32_t from;
    uint64_t used;
    int *dist;
} search;

struct gm_dist_cache {
    const gm_game *g;
    uint64_t clock;
    int last[GM_MAX_PLAYERS]; /* per sheet: the picture matched last */
    picture pictures[PICTURES];
    search searches[SEARCHES];
    uint8_t *bytes;
    int *dists;
    int16_t *search_of;
};

/* A sheet's edge, piece and node bytes lie one after another in a state. */
static size_t picture_len(const gm_sheet *sh)
{
    return (size_t)sh->m + sh->nf + sh->n;
}

gm_dist_cache *gm_dist_cache_new(const gm_game *g)
{
    size_t len = 1, n = 1;
    for (int k = 0; k < g->n_sheets; k++) {
        const gm_sheet *sh = &g->sheets[k];
        if (sh->off_face != sh->off_edge + sh->m || sh->off_node != sh->off_face + sh->nf)
            return NULL; /* the layout this cache relies on changed */
        len = picture_len(sh) > len ? picture_len(sh) : len;
        n = sh->n > n ? sh->n : n;
    }
    gm_dist_cache *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->g = g;
    c->bytes = malloc(PICTURES * len);
    c->dists = malloc(SEARCHES * n * sizeof *c->dists);
    c->search_of = malloc(PICTURES * n * sizeof *c->search_of);
    if (!c->bytes || !c->dists || !c->search_of) {
        gm_dist_cache_free(c);
        return NULL;
    }
    for (int i = 0; i < PICTURES; i++)
        c->pictures[i].sheet = -1, c->pictures[i].bytes = c->bytes + (size_t)i * len,
        c->pictures[i].search_of = c->search_of + (size_t)i * n;
    for (int i = 0; i < SEARCHES; i++)
        c->searches[i].picture = -1, c->searches[i].dist = c->dists + (size_t)i * n;
    for (int k = 0; k < GM_MAX_PLAYERS; k++)
        c->last[k] = -1;
    return c;
}

void gm_dist_cache_free(gm_dist_cache *c)
{
    if (!c)
        return;
    free(c->bytes);
    free(c->dists);
    free(c->search_of);
    free(c);
}

/* The picture of SHEET in S, made (in place of the least recently used)
 * when none matches; its searches are forgotten then. */
static int find_picture(gm_dist_cache *c, const gm_state *s, int sheet)
{
    const gm_sheet *sh = &c->g->sheets[sheet];
    const uint8_t *now = s->mem + sh->off_edge;
    size_t len = picture_len(sh);
    int last = c->last[sheet];
    if (last >= 0 && c->pictures[last].sheet == sheet &&
        memcmp(c->pictures[last].bytes, now, len) == 0)
        return last;
    int oldest = 0;
    for (int i = 0; i < PICTURES; i++) {
        picture *pic = &c->pictures[i];
        if (pic->sheet == sheet && i != last && memcmp(pic->bytes, now, len) == 0)
            return c->last[sheet] = i;
        if (pic->used < c->pictures[oldest].used)
            oldest = i;
    }
    picture *pic = &c->pictures[oldest];
    pic->sheet = sheet;
    pic->used = 0;
    memcpy(pic->bytes, now, len);
    for (uint32_t v = 0; v < sh->n; v++)
        pic->search_of[v] = -1;
    for (int i = 0; i < SEARCHES; i++)
        if (c->searches[i].picture == oldest)
            c->searches[i].picture = -1, c->searches[i].used = 0; /* first to go */
    return c->last[sheet] = oldest;
}

void gm_dist_cached(gm_dist_cache *c, const gm_game *g, const gm_state *s, int sheet,
                    uint32_t from, int *dist)
{
    const gm_sheet *sh = &g->sheets[sheet];
    if (!c) {
        uint32_t queue[GM_MAX_NODES];
        gm_dist_from(g, s, sheet, from, dist, queue);
        return;
    }
    int pic = find_picture(c, s, sheet);
    picture *pc = &c->pictures[pic];
    pc->used = ++c->clock;
    int found = pc->search_of[from];
    if (found >= 0) {
        c->searches[found].used = c->clock;
        memcpy(dist, c->searches[found].dist, sh->n * sizeof *dist);
        return;
    }
    int oldest = 0; /* empty searches have used 0 */
    for (int i = 1; i < SEARCHES; i++)
        if (c->searches[i].used < c->searches[oldest].used)
            oldest = i;
    search *se = &c->searches[oldest];
    if (se->picture >= 0)
        c->pictures[se->picture].search_of[se->from] = -1;
    uint32_t queue[GM_MAX_NODES];
    gm_dist_from(g, s, sheet, from, se->dist, queue);
    se->picture = pic, se->from = from, se->used = c->clock;
    pc->search_of[from] = (int16_t)oldest;
    memcpy(dist, se->dist, sh->n * sizeof *dist);
}
