/* Hop counts remembered between look-aheads. Tokens move far more often
 * than the paper changes, and a thinking agent's rollouts start from the
 * same state again and again, so most breadth-first searches an agent asks
 * for have been done before on the same paper.
 *
 * An entry is keyed by the sheet's walkable picture (its edge, piece and
 * node bytes, compared whole, so a state copied or rewound by a look-ahead
 * can never be mistaken for another) and the node the search starts from.
 * The cache holds copies, never pointers into a state. */
#ifndef CB_GM_DISTCACHE_H
#define CB_GM_DISTCACHE_H

#include "game/engine.h"

typedef struct gm_dist_cache gm_dist_cache;

/* A cache for game G's sheets that holds SEARCHES searches (and an eighth
 * as many pictures); NULL out of memory. */
gm_dist_cache *gm_dist_cache_new(const gm_game *g, int searches);
void gm_dist_cache_free(gm_dist_cache *c);

/* DIST (the sheet's n entries) becomes what gm_dist_from(SHEET, FROM) gives
 * in state S (FROM the summit: gm_dist_to_summit). C may be NULL: then it
 * is searched afresh. */
void gm_dist_cached(gm_dist_cache *c, const gm_game *g, const gm_state *s, int sheet,
                    uint32_t from, int *dist);

/* A number for SHEET's picture in S that C gives no other picture (the
 * same number, the same picture; never 0): a key for what callers remember
 * about a picture. */
uint64_t gm_dist_picture(gm_dist_cache *c, const gm_state *s, int sheet);

#endif
