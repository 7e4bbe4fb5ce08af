/* The players the playtest seats: random, greedy and thinking agents. */
#ifndef CB_GM_AGENTS_H
#define CB_GM_AGENTS_H

#include "game/distcache.h"
#include "game/engine.h"

typedef enum { GM_RANDOM = 0, GM_GREEDY, GM_THINKING, GM_AGENT_KINDS } gm_agent_kind;

/* An agent's own memory: one per seat per game (what a greedy agent
 * planned, a thinking agent's look-ahead states). */
typedef struct gm_mind gm_mind;

/* A new mind of KIND for game G; NULL out of memory. NOISE (0..1) is the
 * chance a greedy agent makes a random choice instead (look-aheads play
 * with a little, so their games differ). A thinking agent plays ROLLOUTS
 * games to the end (or HORIZON rounds on) for every option it weighs. */
gm_mind *gm_mind_new(const gm_game *g, gm_agent_kind kind, double noise, int rollouts,
                     int horizon);
/* As gm_mind_new, remembering its hop counts in DISTS (the caller's, freed
 * after the mind; shared by the minds of one game, never across threads). */
gm_mind *gm_mind_new_sharing(const gm_game *g, gm_agent_kind kind, double noise, int rollouts,
                             int horizon, gm_dist_cache *dists);
void gm_mind_free(gm_mind *m);
/* The agent that M plays. */
gm_agent gm_mind_agent(gm_mind *m);

/* How far seat P is from winning, in turns, as the greedy agent sees it:
 * hops to the summit plus two a missing mark (a "visit" goal: one a mark
 * the way there does not give); stranded and out players far. */
int gm_effort(const gm_game *g, const gm_state *s, int p);

#endif
