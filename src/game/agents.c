/* The agents (see agents.h).
 *
 * Random: any legal option. Greedy: walks the shortest way to the nearest
 * node its mission still wants, then to the summit; uses every action; cuts
 * where the leader loses the most (each candidate cut tried on a copy of
 * the state), guards its own way. Thinking: flat Monte Carlo on the real
 * engine: every option of a choice is played out several times by noisy
 * greedy players from the start of the turn, and the option that wins most
 * is taken. */
#include <stdlib.h>
#include <string.h>

#include "game/agents.h"
#include "game/distcache.h"
#include "io/theme.h"

#define PLAN_MAX 8
#define CANDIDATES 2048
#define EXACT 4

typedef struct {
    uint32_t e[PLAN_MAX]; /* options as GM_ASK_CUT lists them */
    int len;
    int score;
    int pos;              /* in the order the search finds cuts */
} cut_path;

/* The cuts worth trying (cuts_to_try) remembered: what they depend on, the
 * sheet's picture (gm_dist_picture), the victim's node, the shields on the
 * sheet and the cut's kind, and what came out. */
typedef struct {
    uint64_t picture;     /* 0: empty */
    int32_t at, len, anywhere;
    int32_t shield[GM_MAX_PLAYERS]; /* per seat, on the sheet, else -1 */
    int n;
    cut_path tries[EXACT];
} cut_memo;
#define CUT_MEMOS 1024

/* Efforts remembered (effort): what a plan's moves depend on, the sheet's
 * picture (gm_dist_picture), the seat, its node, the marks it still needs
 * and the nodes that would count (a bitmap), and the moves. A slot is
 * 3 + words 64-bit words: picture, seat and node, marks left and moves,
 * the bitmap. */
typedef struct {
    int words;            /* bitmap words a slot */
    uint64_t *slots;      /* EFFORT_MEMOS slots; a picture of 0: empty */
} effort_memo;
#define EFFORT_MEMOS 2048

struct gm_mind {
    gm_agent_kind kind;
    const gm_game *g;
    double noise;
    int rollouts, horizon;
    /* a cut planned when the greedy agent said yes to it */
    int plan_sheet, plan_len, plan_pos, plan_anywhere;
    uint32_t plan[PLAN_MAX];
    /* scratch */
    int *dist, *dist2;          /* the largest sheet's n entries each, in one block */
    uint8_t *want;
    gm_state *trial;            /* a cut tried out */
    gm_state *snap, *sim;       /* thinking: the turn's start, a look-ahead */
    struct gm_mind *players[GM_MAX_PLAYERS]; /* thinking: the look-ahead's greedy minds */
    struct gm_mind *own;        /* thinking: its greedy plans (cuts, guards) */
    gm_dist_cache *dists;       /* shared by a thinking mind's greedy minds */
    int owns_dists;
    cut_memo *cuts;             /* thinking: CUT_MEMOS, shared the same way (or NULL) */
    effort_memo *efforts;       /* thinking: shared the same way (or NULL) */
    int owns_cuts;
};

static int pick_random(gm_state *s, int n)
{
    return (int)cb_rng_below(&s->rng, (uint64_t)n);
}

/* Moves P needs for the rest of its mission along a greedy plan: to the
 * nearest node that counts, from there to the next... then to the summit
 * (TO_SUMMIT: hops to it). A goal out of reach costs UNREACHABLE a mark;
 * past PLAN_STEPS nodes each costs what the plan's steps cost on average. */
#define UNREACHABLE 8
#define PLAN_STEPS 8
#define FAR 40 /* hops taken for a node cut off from the summit */

static int hops_or_far(const int *dist, uint32_t v)
{
    return dist[v] >= 0 ? dist[v] : FAR;
}

static int plan_moves(gm_dist_cache *c, const gm_game *g, const gm_state *s, int p, int left,
                      const int *to_summit, uint32_t *want, int n_want)
{
    const gm_player *P = &s->players[p];
    const gm_sheet *sh = &g->sheets[P->sheet];
    int dist[GM_MAX_NODES];
    int by_type = g->goal[p].kind == CB_GOAL_TYPES || g->goal[p].kind == CB_GOAL_SET;
    uint32_t cur = (uint32_t)P->at;
    int moves = 0;
    for (int steps = 0; left > 0; left--, steps++) {
        if (steps == PLAN_STEPS)
            return moves + (moves * left + steps - 1) / steps + hops_or_far(to_summit, cur);
        gm_dist_cached(c, g, s, P->sheet, cur, dist);
        uint32_t best = GM_NONE;
        int best_key = 0;
        for (int i = 0; i < n_want; i++) {
            uint32_t v = want[i];
            if (dist[v] <= 0)
                continue;
            int key = dist[v] * 64 + (to_summit[v] >= 0 ? to_summit[v] : 63);
            if (best == GM_NONE || key < best_key)
                best = v, best_key = key;
        }
        if (best == GM_NONE)
            return moves + UNREACHABLE * left + hops_or_far(to_summit, cur);
        moves += dist[best];
        cur = best;
        /* BEST no longer counts, nor (by type) any node of its type */
        int kept = 0;
        for (int i = 0; i < n_want; i++)
            if (want[i] != best && !(by_type && sh->type[want[i]] == sh->type[best]))
                want[kept++] = want[i];
        n_want = kept;
    }
    return moves + hops_or_far(to_summit, cur);
}

/* gm_effort, its searches remembered in M's cache and its plans in M's
 * efforts (M may be NULL, and either may be). */
static int effort(const gm_mind *m, const gm_game *g, const gm_state *s, int p)
{
    gm_dist_cache *c = m ? m->dists : NULL;
    const gm_player *P = &s->players[p];
    if (P->on_summit)
        return 0;
    if (P->at == -2)
        return 1000;
    int left = gm_mission_left(g, s, p);
    if (P->at == -1)
        return 12 + 2 * left;
    int dist[GM_MAX_NODES];
    if (!left) {
        gm_dist_cached(c, g, s, P->sheet, g->sheets[P->sheet].center, dist);
        return hops_or_far(dist, (uint32_t)P->at);
    }
    uint32_t want[GM_MAX_NODES]; /* the nodes that count, in node order */
    int n_want = gm_mission_wanted_nodes(g, s, p, want);
    uint64_t *slot = NULL, key[3 + GM_MAX_NODES / 64];
    effort_memo *memo = m && c ? m->efforts : NULL;
    if (memo) {
        int words = memo->words;
        key[0] = gm_dist_picture(c, s, P->sheet);
        key[1] = (uint64_t)(uint32_t)p << 32 | (uint32_t)P->at;
        key[2] = (uint64_t)(uint32_t)left << 32;
        memset(key + 3, 0, (size_t)words * sizeof key[0]);
        for (int i = 0; i < n_want; i++)
            key[3 + want[i] / 64] |= 1ull << (want[i] % 64);
        uint64_t h = key[0] * UINT64_C(0x9E3779B97F4A7C15) ^ key[1] ^ key[2];
        for (int i = 0; i < words; i++)
            h = (h ^ key[3 + i]) * UINT64_C(1099511628211);
        slot = memo->slots + (size_t)((h ^ h >> 31) % EFFORT_MEMOS) * (size_t)(3 + words);
        if (slot[0] == key[0] && slot[1] == key[1] && slot[2] >> 32 == key[2] >> 32 &&
            memcmp(slot + 3, key + 3, (size_t)words * sizeof key[0]) == 0)
            return (int)(uint32_t)slot[2];
    }
    gm_dist_cached(c, g, s, P->sheet, g->sheets[P->sheet].center, dist);
    int moves = plan_moves(c, g, s, p, left, dist, want, n_want);
    if (slot) {
        key[2] |= (uint32_t)moves;
        memcpy(slot, key, (size_t)(3 + memo->words) * sizeof key[0]);
    }
    return moves;
}

int gm_effort(const gm_game *g, const gm_state *s, int p)
{
    return effort(NULL, g, s, p);
}

/* ---- greedy ---- */

/* The node P heads for: the wanted node nearest on the way (hops from P
 * plus half its hops to the summit), or the summit; GM_NONE when P can
 * reach neither. Fills m->dist with hops to the summit. */
static uint32_t goal_node(gm_mind *m, const gm_state *s, int p)
{
    const gm_game *g = m->g;
    const gm_player *P = &s->players[p];
    const gm_sheet *sh = &g->sheets[P->sheet];
    gm_dist_cached(m->dists, g, s, P->sheet, sh->center, m->dist);
    if (P->at < 0 || gm_mission_left(g, s, p) == 0)
        return sh->center;
    gm_dist_cached(m->dists, g, s, P->sheet, (uint32_t)P->at, m->dist2);
    gm_mission_wanted(g, s, p, m->want);
    uint32_t best = GM_NONE;
    int best_key = 0;
    for (uint32_t v = 0; v < sh->n; v++) {
        if (m->dist2[v] <= 0 || !m->want[v])
            continue;
        int ds = m->dist[v] >= 0 ? m->dist[v] : 30;
        int key = 2 * m->dist2[v] + ds;
        if (best == GM_NONE || key < best_key)
            best = v, best_key = key;
    }
    if (best == GM_NONE && gm_may_enter_summit(g, s, p))
        return sh->center;
    return best;
}

/* The option (a node) that brings P nearest its goal. */
static int best_node(gm_mind *m, gm_state *s, int p, const uint32_t *opts, int n)
{
    const gm_game *g = m->g;
    int sheet = s->players[p].sheet;
    const gm_sheet *sh = &g->sheets[sheet];
    for (int i = 0; i < n; i++)
        if (opts[i] == sh->center)
            return i; /* offered only when P may enter it: the win */
    if (n > 1 && opts[n - 1] == GM_NONE)
        n--; /* a step may stop: greedy goes on */
    memset(m->want, 0, sh->n);
    uint32_t goal = goal_node(m, s, p);
    if (goal != GM_NONE && goal != sh->center)
        gm_dist_cached(m->dists, g, s, sheet, goal, m->dist2);
    const int *to = goal == GM_NONE || goal == sh->center ? m->dist : m->dist2;
    int best = 0;
    long best_key = 0;
    for (int i = 0; i < n; i++) {
        long d = to[opts[i]] >= 0 ? to[opts[i]] : 1000;
        long key = d * 16 - (m->want[opts[i]] ? 8 : 0) +
                   (long)(cb_rng_next(&s->rng) & 7);
        if (i == 0 || key < best_key)
            best = i, best_key = key;
    }
    return best;
}

/* The rival P would most like to slow down: the least effort from winning
 * (EFFORT_OF); among rivals tied for it, one at random (a fixed order would
 * always cut the lowest seat). */
static int leader(gm_mind *m, gm_state *s, int p, int sheet, int *effort_of)
{
    const gm_game *g = m->g;
    int best = -1, best_e = 0, tied = 0;
    for (int q = 0; q < g->players; q++) {
        if (q == p || (sheet >= 0 && s->players[q].sheet != sheet))
            continue;
        int e = effort(m, g, s, q);
        if (best < 0 || e < best_e)
            best = q, best_e = e, tied = 1;
        else if (e == best_e && cb_rng_below(&s->rng, (uint64_t)++tied) == 0)
            best = q;
    }
    *effort_of = best_e;
    return best;
}

/* How much cutting edge X slows VICTIM (whose way to the summit is TOTAL
 * hops; M->dist holds hops to the summit, M->dist2 hops from the victim):
 * edges on a shortest way score, the nearer the victim the more. */
static int edge_score(const gm_mind *m, const gm_sheet *sh, uint32_t x, int total)
{
    if (total < 0)
        return 0;
    uint32_t a = sh->ends[x][0], b = sh->ends[x][1];
    const int *to = m->dist, *from = m->dist2;
    int on = (from[a] >= 0 && to[b] >= 0 && from[a] + 1 + to[b] == total) ||
             (from[b] >= 0 && to[a] >= 0 && from[b] + 1 + to[a] == total);
    return on ? 64 - (from[a] < from[b] ? from[a] : from[b]) : 0;
}

/* Keeps what the choice of the EXACT best cuts can depend on: the first
 * EXACT cuts found (KEEP[0..EXACT-1], the places picks are swapped into)
 * and the EXACT best found after them (KEEP[EXACT..], best first, earlier
 * first among equals). */
static void keep_cut(cut_path *keep, int *n_later, const cut_path *c)
{
    if (c->pos < EXACT) {
        keep[c->pos] = *c;
        return;
    }
    cut_path *later = keep + EXACT;
    int i = *n_later;
    if (i == EXACT && c->score <= later[EXACT - 1].score)
        return;
    if (i == EXACT)
        i--;
    else
        (*n_later)++;
    for (; i > 0 && later[i - 1].score < c->score; i--)
        later[i] = later[i - 1];
    later[i] = *c;
}

/* The cuts on SHEET worth trying for real against VICTIM, in the order to
 * try them (at most EXACT; returns how many). Candidates are every path of
 * up to LEN edges from the first options (each single edge, for ANYWHERE),
 * at most CANDIDATES of them in depth-first order, scored by the edges on
 * VICTIM's shortest ways (edge_score, then length); the EXACT best by a
 * selection sort over them all. Only the cuts that selection can reach are
 * kept, so no candidate list is stored. */
static int find_cuts(gm_mind *m, const gm_state *s, int victim, int sheet, int len,
                     int anywhere, cut_path *tries)
{
    const gm_game *g = m->g;
    const gm_sheet *sh = &g->sheets[sheet];
    const gm_player *V = &s->players[victim];
    gm_dist_cached(m->dists, g, s, sheet, sh->center, m->dist);
    if (V->at >= 0)
        gm_dist_cached(m->dists, g, s, sheet, (uint32_t)V->at, m->dist2);
    int total = V->at >= 0 ? m->dist[V->at] : -1;
    uint32_t first[CANDIDATES];
    uint8_t cuttable[GM_MAX_NODES * 3]; /* a planar graph has under 3n edges */
    gm_cuttable_edges(g, s, sheet, cuttable);
    int nf = gm_first_cut_options(g, s, sheet, anywhere, cuttable, first, CANDIDATES);
    cut_path keep[2 * EXACT], cur;
    int n = 0, n_later = 0, prefix[PLAN_MAX + 1] = {0};
    /* per edge, the length of the path when it was last put on it: it is
     * on CUR's path when CUR's edge there is still it */
    uint8_t depth[GM_MAX_NODES * 3];
    memset(depth, 0, sh->m);
    /* depth-first: the path so far in CUR, a stack of (option, length) */
    struct { uint32_t opt; int len; } stack[64];
    for (int i = 0; i < nf && n < CANDIDATES; i++) {
        stack[0].opt = first[i], stack[0].len = 1;
        int top = 1;
        while (top > 0 && n < CANDIDATES) {
            top--;
            int l = stack[top].len;
            cur.e[l - 1] = stack[top].opt;
            cur.len = l;
            depth[stack[top].opt >> 1] = (uint8_t)l;
            prefix[l] = prefix[l - 1] + edge_score(m, sh, cur.e[l - 1] >> 1, total);
            cur.score = prefix[l] * 8 + l;
            cur.pos = n++;
            keep_cut(keep, &n_later, &cur);
            if (l >= len || anywhere)
                continue;
            uint32_t last = cur.e[l - 1], end = sh->ends[last >> 1][last & 1];
            for (uint32_t k = sh->adj_off[end]; k < sh->adj_off[end + 1] && top < 64; k++) {
                uint32_t x = sh->adj_e[k];
                int d = depth[x];
                if (!cuttable[x] || (d > 0 && d <= l && (cur.e[d - 1] >> 1) == x))
                    continue; /* not cuttable, or on the path already */
                stack[top].opt = x << 1 | (sh->ends[x][1] != end);
                stack[top++].len = l + 1;
            }
        }
    }
    /* the kept cuts in the order found, then the selection sort */
    int nk = n < EXACT ? n : EXACT;
    for (int i = 0; i < n_later; i++) {
        int j = nk++;
        for (; j > EXACT && keep[j - 1].pos > keep[EXACT + i].pos; j--)
            ;
        cut_path c = keep[EXACT + i];
        memmove(&keep[j + 1], &keep[j], (size_t)(nk - 1 - j) * sizeof keep[0]);
        keep[j] = c;
    }
    int n_tries = 0;
    for (int k = 0; k < EXACT && k < nk; k++) {
        int bi = k;
        for (int i = k + 1; i < nk; i++)
            if (keep[i].score > keep[bi].score)
                bi = i;
        cut_path t = keep[k];
        keep[k] = keep[bi];
        keep[bi] = t;
        tries[n_tries++] = keep[k];
    }
    return n_tries;
}

/* find_cuts, remembered in M->cuts (when it has them): a thinking agent's
 * look-aheads meet the same paper and victim again and again. */
static int cuts_to_try(gm_mind *m, const gm_state *s, int victim, int sheet, int len,
                       int anywhere, cut_path *tries)
{
    if (!m->cuts)
        return find_cuts(m, s, victim, sheet, len, anywhere, tries);
    const gm_game *g = m->g;
    cut_memo key;
    memset(&key, 0, sizeof key);
    key.picture = gm_dist_picture(m->dists, s, sheet);
    key.at = s->players[victim].at, key.len = len, key.anywhere = anywhere;
    uint64_t h = key.picture * UINT64_C(0x9E3779B97F4A7C15) ^
                 (uint64_t)(uint32_t)key.at * UINT64_C(0xC2B2AE3D27D4EB4F) ^
                 (uint64_t)(len * 2 + anywhere);
    for (int q = 0; q < GM_MAX_PLAYERS; q++) {
        key.shield[q] = q < g->players && s->players[q].sheet == sheet ? s->players[q].shield
                                                                         : -1;
        h = (h ^ (uint64_t)(uint32_t)key.shield[q]) * UINT64_C(1099511628211);
    }
    cut_memo *slot = &m->cuts[(h ^ h >> 29) % CUT_MEMOS];
    if (slot->picture == key.picture && slot->at == key.at && slot->len == key.len &&
        slot->anywhere == key.anywhere &&
        memcmp(slot->shield, key.shield, sizeof key.shield) == 0) {
        memcpy(tries, slot->tries, (size_t)slot->n * sizeof *tries);
        return slot->n;
    }
    key.n = find_cuts(m, s, victim, sheet, len, anywhere, key.tries);
    *slot = key;
    memcpy(tries, key.tries, (size_t)key.n * sizeof *tries);
    return key.n;
}

/* How much a cut of PATH on SHEET helps P: rivals' effort gained minus P's
 * own, pieces P cuts loose, tried on a copy of the state. */
static int cut_value(gm_mind *m, const gm_state *s, int p, int sheet, const cut_path *path,
                     int victim, int victim_before, int mine_before)
{
    const gm_game *g = m->g;
    gm_state_copy(m->trial, s);
    uint8_t *edges = gm_edges(g, m->trial, sheet);
    for (int j = 0; j < path->len; j++)
        edges[path->e[j] >> 1] |= GM_CUT;
    int pieces = m->trial->players[p].pieces;
    uint32_t cut[PLAN_MAX];
    for (int j = 0; j < path->len; j++)
        cut[j] = path->e[j] >> 1;
    gm_paper_fall_cut(g, m->trial, sheet, p, cut, path->len);
    int value = 3 * (effort(m, g, m->trial, victim) - victim_before);
    if (g->shared)
        value -= 4 * (effort(m, g, m->trial, p) - mine_before);
    if (m->trial->players[p].pieces > pieces && gm_mission_left(g, s, p) > 0 &&
        g->mission[p] >= 0 && g->goal[p].kind == CB_GOAL_CUT_LOOSE)
        value += 20;
    return value;
}

/* Plans P's best cut over the sheets it may cut (the action of node type
 * effect E): 1 when it is worth taking, the plan in M. */
static int plan_cut(gm_mind *m, gm_state *s, int p, const cb_effect *e)
{
    const gm_game *g = m->g;
    int anywhere = e->kind == CB_EFFECT_CUT_ANYWHERE;
    int len = anywhere ? 1 : (e->n < PLAN_MAX ? e->n : PLAN_MAX);
    int best_value = 0, found = 0;
    /* the leader's sheet (on own sheets, the only one worth the search) */
    int victim_before;
    int victim = leader(m, s, p, -1, &victim_before);
    if (victim < 0)
        return 0;
    /* only a shared board weighs P's own way (cut_value) */
    int mine_before = g->shared ? effort(m, g, s, p) : 0;
    int sheet = s->players[victim].sheet;
    cut_path tries[EXACT];
    int n = cuts_to_try(m, s, victim, sheet, len, anywhere, tries);
    if (n == 0)
        return 0;
    for (int k = 0; k < n; k++) {
        int v = cut_value(m, s, p, sheet, &tries[k], victim, victim_before, mine_before);
        if (!found || v > best_value) {
            found = 1;
            best_value = v;
            m->plan_sheet = sheet;
            m->plan_len = tries[k].len;
            memcpy(m->plan, tries[k].e, sizeof tries[k].e);
        }
    }
    m->plan_pos = 0;
    m->plan_anywhere = anywhere;
    return found && best_value > 0;
}

static int greedy_choose(void *ctx, const gm_game *g, gm_state *s, int p, gm_ask ask,
                         const uint32_t *opts, int n)
{
    gm_mind *m = ctx;
    if (m->noise > 0 && cb_rng_uniform(&s->rng) < m->noise)
        return pick_random(s, n);
    const gm_player *P = &s->players[p];
    switch (ask) {
    case GM_ASK_MOVE:
    case GM_ASK_TARGET:
    case GM_ASK_RESTART:
        return best_node(m, s, p, opts, n);
    case GM_ASK_USE: {
        const gm_sheet *sh = &g->sheets[P->sheet];
        const cb_effect *e = &g->theme->types[sh->type[P->at]].effect;
        if (cb_effect_is_cut(e->kind))
            return plan_cut(m, s, p, e);
        return 1;
    }
    case GM_ASK_SHEET:
        for (int i = 0; i < n; i++)
            if ((int)opts[i] == m->plan_sheet)
                return i;
        return 0;
    case GM_ASK_CUT:
        if (m->plan_pos < m->plan_len) {
            uint32_t want = m->plan[m->plan_pos++];
            for (int i = 0; i < n; i++)
                if (opts[i] == want)
                    return i;
        }
        for (int i = 0; i < n; i++)
            if (opts[i] == GM_NONE)
                return i;
        return 0;
    case GM_ASK_GUARD: {
        /* the edges of its own way to the summit, nearest first */
        const gm_sheet *sh = &g->sheets[P->sheet];
        gm_dist_cached(m->dists, g, s, P->sheet, sh->center, m->dist);
        int best = -1, best_d = 1 << 20;
        for (int i = 0; i < n; i++) {
            if (opts[i] == GM_NONE)
                continue;
            uint32_t w = gm_other(sh, opts[i], (uint32_t)P->at);
            int d = m->dist[w] >= 0 ? m->dist[w] : 1000;
            if (d < best_d)
                best = i, best_d = d;
        }
        return best >= 0 ? best : 0;
    }
    default:
        return 0;
    }
}

static int random_choose(void *ctx, const gm_game *g, gm_state *s, int p, gm_ask ask,
                         const uint32_t *opts, int n)
{
    (void)ctx, (void)g, (void)p, (void)ask, (void)opts;
    return pick_random(s, n);
}

/* ---- thinking ---- */

static void thinking_turn_start(void *ctx, const gm_game *g, const gm_state *s, int p)
{
    gm_mind *m = ctx;
    (void)g, (void)p;
    gm_state_copy(m->snap, s);
}

/* What a look-ahead's end is worth to P: a win 1; unfinished, by how far
 * P is from winning against the nearest rival. */
static double outcome(const gm_mind *m, const gm_game *g, const gm_state *s, int p)
{
    if (s->over)
        return (s->tally.winners >> p & 1) ? 1.0 / __builtin_popcount(s->tally.winners) : 0.0;
    int mine = effort(m, g, s, p), best = 1 << 20;
    for (int q = 0; q < g->players; q++)
        if (q != p) {
            int e = effort(m, g, s, q);
            best = e < best ? e : best;
        }
    double d = (double)(best - mine);
    return d > 0 ? 0.5 + 0.5 * d / (d + 2) : 0.5 - 0.5 * (-d) / (-d + 2);
}

static int thinking_choose(void *ctx, const gm_game *g, gm_state *s, int p, gm_ask ask,
                           const uint32_t *opts, int n)
{
    gm_mind *m = ctx;
    gm_mind *self = m->own;
    /* Cuts edge by edge and guards follow the greedy plan; the choices
     * that shape a turn are weighed. */
    if (n < 2 || ask == GM_ASK_CUT || ask == GM_ASK_GUARD || s->n_trace >= GM_TRACE_MAX - 1)
        return greedy_choose(self, g, s, p, ask, opts, n);
    int fallback = greedy_choose(self, g, s, p, ask, opts, n);
    gm_agent agents[GM_MAX_PLAYERS];
    for (int q = 0; q < g->players; q++)
        agents[q] = gm_mind_agent(m->players[q]);
    uint64_t base = cb_rng_next(&s->rng);
    double best = -1;
    int best_i = fallback;
    int limit = n < 12 ? n : 12;
    for (int i = 0; i < limit; i++) {
        double total = 0;
        for (int r = 0; r < m->rollouts; r++) {
            gm_state_copy(m->sim, m->snap);
            memcpy(m->sim->forced, s->trace, (size_t)s->n_trace * sizeof s->trace[0]);
            m->sim->forced[s->n_trace] = (int16_t)i;
            m->sim->n_forced = s->n_trace + 1;
            m->sim->forced_pos = 0;
            cb_rng_seed(&m->sim->rng, base + (uint64_t)r);
            int stop = m->sim->round + m->horizon;
            gm_turn(g, m->sim, agents);
            m->sim->n_forced = m->sim->forced_pos = 0;
            while (!m->sim->over && m->sim->round < stop)
                gm_turn(g, m->sim, agents);
            total += outcome(m, g, m->sim, p);
        }
        total += i == fallback ? 1e-6 : 0;
        if (total > best)
            best = total, best_i = i;
    }
    /* a cut the look-ahead takes follows the plan greedy_choose made */
    return best_i;
}

/* ---- minds ---- */

/* A mind remembering its searches in DISTS, or in a cache of its own
 * when DISTS is NULL. */
static effort_memo *effort_memo_new(const gm_game *g)
{
    uint32_t n = 1;
    for (int k = 0; k < g->n_sheets; k++)
        n = g->sheets[k].n > n ? g->sheets[k].n : n;
    effort_memo *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    e->words = (int)((n + 63) / 64);
    if (!(e->slots = calloc((size_t)EFFORT_MEMOS * (size_t)(3 + e->words), sizeof *e->slots))) {
        free(e);
        return NULL;
    }
    return e;
}

static void effort_memo_free(effort_memo *e)
{
    if (e)
        free(e->slots);
    free(e);
}

static gm_mind *mind_new(const gm_game *g, gm_agent_kind kind, double noise, int rollouts,
                         int horizon, gm_dist_cache *dists, cut_memo *cuts,
                         effort_memo *efforts)
{
    gm_mind *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    size_t n = 1;
    for (int k = 0; k < g->n_sheets; k++)
        n = g->sheets[k].n > n ? g->sheets[k].n : n;
    if (!(m->dist = malloc(n * (2 * sizeof *m->dist + sizeof *m->want)))) {
        free(m);
        return NULL;
    }
    m->dist2 = m->dist + n;
    m->want = (uint8_t *)(m->dist2 + n);
    m->kind = kind, m->g = g, m->noise = noise;
    m->rollouts = rollouts, m->horizon = horizon;
    m->dists = dists;
    if (!dists) {
        /* a thinking agent's rollouts revisit far more than one greedy player */
        if (!(m->dists = gm_dist_cache_new(g, kind == GM_THINKING ? 1024 : 64)))
            goto oom;
        m->owns_dists = 1;
    }
    m->cuts = cuts, m->efforts = efforts;
    if (!(m->trial = gm_state_new(g, 0)))
        goto oom;
    if (kind == GM_THINKING) {
        if (!(m->snap = gm_state_new(g, 0)) || !(m->sim = gm_state_new(g, 0)))
            goto oom;
        m->owns_cuts = 1;
        if (!(m->cuts = calloc(CUT_MEMOS, sizeof *m->cuts)) ||
            !(m->efforts = effort_memo_new(g)))
            goto oom;
        for (int q = 0; q < g->players; q++)
            if (!(m->players[q] = mind_new(g, GM_GREEDY, 0.1, 0, 0, m->dists, m->cuts,
                                           m->efforts)))
                goto oom;
        if (!(m->own = mind_new(g, GM_GREEDY, 0, 0, 0, m->dists, m->cuts, m->efforts)))
            goto oom;
    }
    return m;
oom:
    gm_mind_free(m);
    return NULL;
}

gm_mind *gm_mind_new(const gm_game *g, gm_agent_kind kind, double noise, int rollouts,
                     int horizon)
{
    return mind_new(g, kind, noise, rollouts, horizon, NULL, NULL, NULL);
}

gm_mind *gm_mind_new_sharing(const gm_game *g, gm_agent_kind kind, double noise, int rollouts,
                             int horizon, gm_dist_cache *dists)
{
    return mind_new(g, kind, noise, rollouts, horizon, dists, NULL, NULL);
}

void gm_mind_free(gm_mind *m)
{
    if (!m)
        return;
    gm_state_free(m->trial);
    gm_state_free(m->snap);
    gm_state_free(m->sim);
    for (int q = 0; q < GM_MAX_PLAYERS; q++)
        gm_mind_free(m->players[q]);
    gm_mind_free(m->own);
    if (m->owns_dists)
        gm_dist_cache_free(m->dists);
    if (m->owns_cuts) {
        free(m->cuts);
        effort_memo_free(m->efforts);
    }
    free(m->dist);
    free(m);
}

gm_agent gm_mind_agent(gm_mind *m)
{
    gm_agent a = {greedy_choose, NULL, m};
    if (m->kind == GM_RANDOM)
        a.choose = random_choose;
    else if (m->kind == GM_THINKING)
        a.choose = thinking_choose, a.turn_start = thinking_turn_start;
    return a;
}
