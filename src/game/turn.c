/* A turn, as the rules page says it: move (or restart when stranded), fill
 * in a dot, take the node's action; then the next player, the round, and
 * the end of the game. */
#include <string.h>

#include "game/engine.h"
#include "io/theme.h"

/* Options of one choice: nodes, edges, seats; a cut of a few edges at most. */
#define MAX_OPTIONS 4096
/* Edges of one cut listed for gm_paper_fall_cut (a longer cut floods). */
#define CUT_LIST 64

static int ask(const gm_game *g, gm_state *s, gm_agent *agents, int p, gm_ask what,
               const uint32_t *opts, int n)
{
    int i;
    if (s->forced_pos < s->n_forced)
        i = s->forced[s->forced_pos++];
    else if (n == 1 && what != GM_ASK_USE)
        i = 0;
    else
        i = agents[p].choose(agents[p].ctx, g, s, p, what, opts, n);
    if (i < 0 || i >= n)
        i = 0;
    if (s->n_trace < GM_TRACE_MAX)
        s->trace[s->n_trace++] = (int16_t)i;
    return i;
}

/* Nodes P may step to from V along walkable edges (the summit only when P
 * may enter it); WITH_CUT adds cut edges with paper on both sides (a cross). */
static int step_options(const gm_game *g, const gm_state *s, int p, uint32_t v, int with_cut,
                        uint32_t *opts)
{
    int sheet = s->players[p].sheet, n = 0, summit = -1;
    const gm_sheet *sh = &g->sheets[sheet];
    for (uint32_t i = sh->adj_off[v]; i < sh->adj_off[v + 1]; i++) {
        uint32_t e = sh->adj_e[i], w = gm_other(sh, e, v);
        if (!gm_walkable(g, s, sheet, e) && !(with_cut && gm_mendable(g, s, sheet, e)))
            continue;
        if (w == sh->center) {
            if (summit < 0)
                summit = gm_may_enter_summit(g, s, p);
            if (!summit)
                continue;
        }
        opts[n++] = w;
    }
    return n;
}

/* Nodes exactly N printed edges from V (through cut edges too, over paper
 * still there), not V nor the summit. */
static int jump_options(const gm_game *g, const gm_state *s, int p, uint32_t v, int n_edges,
                        uint32_t *opts)
{
    int sheet = s->players[p].sheet;
    const gm_sheet *sh = &g->sheets[sheet];
    const uint8_t *nodes = gm_nodes(g, s, sheet), *faces = gm_faces(g, s, sheet);
    int dist[sh->n];
    uint32_t queue[sh->n];
    for (uint32_t w = 0; w < sh->n; w++)
        dist[w] = -1;
    uint32_t head = 0, tail = 0;
    dist[v] = 0;
    queue[tail++] = v;
    int n = 0;
    while (head < tail) {
        uint32_t x = queue[head++];
        if (dist[x] == n_edges)
            continue;
        for (uint32_t i = sh->adj_off[x]; i < sh->adj_off[x + 1]; i++) {
            uint32_t e = sh->adj_e[i], w = gm_other(sh, e, x);
            uint32_t a = sh->eface[e][0], b = sh->eface[e][1];
            if (dist[w] >= 0 || !nodes[w] || !((a && faces[a]) || (b && faces[b])))
                continue;
            dist[w] = dist[x] + 1;
            queue[tail++] = w;
            if (dist[w] == n_edges && w != sh->center)
                opts[n++] = w;
        }
    }
    return n;
}

/* The sheets a cut of P's may go on: its own on a shared board, else every
 * rival's. */
static int cut_sheets(const gm_game *g, int p, uint32_t *opts)
{
    if (g->shared) {
        opts[0] = 0;
        return 1;
    }
    int n = 0;
    for (int q = 0; q < g->players; q++)
        if (q != p)
            opts[n++] = (uint32_t)q;
    return n;
}

int gm_first_cut_options(const gm_game *g, const gm_state *s, int sheet, int anywhere,
                         const uint8_t *cuttable, uint32_t *opts, int room)
{
    const gm_sheet *sh = &g->sheets[sheet];
    uint8_t own[cuttable ? 1 : sh->m + 1];
    int8_t edge_of_paper[sh->n + 1]; /* per node, -1 until asked: nodes have several edges */
    if (!cuttable) {
        gm_cuttable_edges(g, s, sheet, own);
        cuttable = own;
    }
    memset(edge_of_paper, -1, sh->n);
    int n = 0;
    for (uint32_t e = 0; e < sh->m && n + 2 <= room; e++) {
        if (!cuttable[e])
            continue;
        if (anywhere) {
            opts[n++] = e << 1 | 1u;
            continue;
        }
        for (int k = 0; k < 2; k++) {
            uint32_t v = sh->ends[e][1 - k];
            if (edge_of_paper[v] < 0)
                edge_of_paper[v] = (int8_t)gm_paper_edge(g, s, sheet, v);
            if (edge_of_paper[v])
                opts[n++] = e << 1 | (uint32_t)k;
        }
    }
    return n;
}

/* Whether gm_first_cut_options would list anything on SHEET: it stops at
 * the first option. */
static int cut_may_start(const gm_game *g, const gm_state *s, int sheet, int anywhere)
{
    const gm_sheet *sh = &g->sheets[sheet];
    for (uint32_t e = 0; e < sh->m; e++)
        if (gm_cuttable(g, s, sheet, e) &&
            (anywhere || gm_paper_edge(g, s, sheet, sh->ends[e][0]) ||
             gm_paper_edge(g, s, sheet, sh->ends[e][1])))
            return 1;
    return 0;
}

static int can_cut(const gm_game *g, const gm_state *s, int p, int anywhere)
{
    uint32_t sheets[GM_MAX_PLAYERS];
    int ns = cut_sheets(g, p, sheets);
    for (int i = 0; i < ns; i++)
        if (cut_may_start(g, s, (int)sheets[i], anywhere))
            return 1;
    return 0;
}

/* Edges touching V of P's sheet that may be guarded: walkable, not along the
 * trim, not guarded or mended yet. */
static int guard_options(const gm_game *g, const gm_state *s, int p, uint32_t v, uint32_t *opts)
{
    int sheet = s->players[p].sheet, n = 0;
    const gm_sheet *sh = &g->sheets[sheet];
    const uint8_t *edges = gm_edges(g, s, sheet);
    for (uint32_t i = sh->adj_off[v]; i < sh->adj_off[v + 1]; i++) {
        uint32_t e = sh->adj_e[i];
        if (!sh->trim_edge[e] && !(edges[e] & (GM_GUARD | GM_MEND)) &&
            gm_walkable(g, s, sheet, e))
            opts[n++] = e;
    }
    return n;
}

static void enter(const gm_game *g, gm_state *s, gm_agent *agents, int p, uint32_t v);

/* The cut action of effect E: whose sheet, then edge after edge. */
static void do_cut(const gm_game *g, gm_state *s, gm_agent *agents, int p, const cb_effect *e)
{
    uint32_t sheets[GM_MAX_PLAYERS], opts[MAX_OPTIONS];
    int anywhere = e->kind == CB_EFFECT_CUT_ANYWHERE;
    int ns = 0;
    uint32_t cand[GM_MAX_PLAYERS];
    int nc = cut_sheets(g, p, cand);
    for (int i = 0; i < nc; i++)
        if (cut_may_start(g, s, (int)cand[i], anywhere))
            sheets[ns++] = cand[i];
    if (ns == 0)
        return;
    int sheet = g->shared ? 0 : (int)sheets[ask(g, s, agents, p, GM_ASK_SHEET, sheets, ns)];
    const gm_sheet *sh = &g->sheets[sheet];
    uint8_t *edges = gm_edges(g, s, sheet);
    uint32_t end = GM_NONE;
    uint32_t cut[CUT_LIST]; /* the edges cut, for gm_paper_fall_cut */
    int n_cut = 0;
    for (int k = 0; k < e->n; k++) {
        int n = 0;
        if (k == 0 || anywhere) {
            n = gm_first_cut_options(g, s, sheet, anywhere, NULL, opts, MAX_OPTIONS);
        } else {
            for (uint32_t i = sh->adj_off[end]; i < sh->adj_off[end + 1]; i++) {
                uint32_t x = sh->adj_e[i];
                if (gm_cuttable(g, s, sheet, x))
                    opts[n++] = x << 1 | (sh->ends[x][1] != end);
            }
        }
        if (n == 0)
            break;
        if (k > 0)
            opts[n++] = GM_NONE; /* "up to N": stop here */
        uint32_t o = opts[ask(g, s, agents, p, GM_ASK_CUT, opts, n)];
        if (o == GM_NONE)
            break;
        uint32_t x = o >> 1;
        edges[x] |= GM_CUT;
        if (n_cut++ < CUT_LIST)
            cut[n_cut - 1] = x;
        end = sh->ends[x][o & 1];
    }
    s->paper_version[sheet]++;
    s->tally.cut_actions++;
    if (n_cut <= CUT_LIST)
        gm_paper_fall_cut(g, s, sheet, p, cut, n_cut);
    else
        gm_paper_fall(g, s, sheet, p);
}

/* Whether effect E of the node P stands on can change anything now. */
static int has_effect(const gm_game *g, const gm_state *s, int p, uint32_t v, const cb_effect *e)
{
    uint32_t opts[64];
    switch (e->kind) {
    case CB_EFFECT_STEP: return step_options(g, s, p, v, 0, opts) > 0;
    case CB_EFFECT_CROSS: return step_options(g, s, p, v, 1, opts) > 0;
    case CB_EFFECT_JUMP: {
        uint32_t many[MAX_OPTIONS];
        return jump_options(g, s, p, v, e->n, many) > 0;
    }
    case CB_EFFECT_CUT: return can_cut(g, s, p, 0);
    case CB_EFFECT_CUT_ANYWHERE: return can_cut(g, s, p, 1);
    case CB_EFFECT_GUARD: return guard_options(g, s, p, v, opts) > 0;
    case CB_EFFECT_SHIELD: {
        int sheet = s->players[p].sheet;
        const gm_sheet *sh = &g->sheets[sheet];
        for (uint32_t i = sh->adj_off[v]; i < sh->adj_off[v + 1]; i++)
            if (gm_cuttable(g, s, sheet, sh->adj_e[i]))
                return 1;
        return 0;
    }
    case CB_EFFECT_CAMP: return s->players[p].camp != (int32_t)v;
    case CB_EFFECT_EXTRA_TURN: return 1;
    default: return 0;
    }
}

/* Takes (or declines) the action of node V that P just marked. */
static void act(const gm_game *g, gm_state *s, gm_agent *agents, int p, uint32_t v)
{
    gm_player *P = &s->players[p];
    const cb_effect *e = &g->theme->types[g->sheets[P->sheet].type[v]].effect;
    s->tally.landings[e->kind]++;
    if (!has_effect(g, s, p, v, e))
        return;
    s->tally.legal[e->kind]++;
    if ((s->no_cuts || s->round <= g->play.calm_rounds) && cb_effect_is_cut(e->kind))
        return;
    static const uint32_t yes_no[2] = {0, 1};
    if (!ask(g, s, agents, p, GM_ASK_USE, yes_no, 2))
        return;
    s->tally.used[e->kind]++;
    uint32_t opts[MAX_OPTIONS];
    int n;
    switch (e->kind) {
    case CB_EFFECT_STEP:
        for (int k = 0; k < e->n && P->at == (int32_t)v && !P->on_summit; k++) {
            if ((n = step_options(g, s, p, v, 0, opts)) == 0)
                break;
            if (k > 0)
                opts[n++] = GM_NONE; /* "up to N": stop here */
            uint32_t w = opts[ask(g, s, agents, p, GM_ASK_TARGET, opts, n)];
            if (w == GM_NONE)
                break;
            enter(g, s, agents, p, v = w);
        }
        break;
    case CB_EFFECT_CROSS: {
        if ((n = step_options(g, s, p, v, 1, opts)) == 0)
            break;
        uint32_t w = opts[ask(g, s, agents, p, GM_ASK_TARGET, opts, n)];
        const gm_sheet *sh = &g->sheets[P->sheet];
        uint8_t *edges = gm_edges(g, s, P->sheet);
        for (uint32_t i = sh->adj_off[v]; i < sh->adj_off[v + 1]; i++) {
            uint32_t x = sh->adj_e[i];
            if (gm_other(sh, x, v) == w && (edges[x] & GM_CUT)) {
                edges[x] = (uint8_t)((edges[x] & ~GM_CUT) | GM_MEND);
                s->paper_version[P->sheet]++;
            }
        }
        enter(g, s, agents, p, w);
        break;
    }
    case CB_EFFECT_JUMP:
        if ((n = jump_options(g, s, p, v, e->n, opts)) > 0)
            enter(g, s, agents, p, opts[ask(g, s, agents, p, GM_ASK_TARGET, opts, n)]);
        break;
    case CB_EFFECT_CUT:
    case CB_EFFECT_CUT_ANYWHERE:
        do_cut(g, s, agents, p, e);
        break;
    case CB_EFFECT_GUARD: {
        uint8_t *edges = gm_edges(g, s, P->sheet);
        for (int k = 0; k < e->n; k++) {
            if ((n = guard_options(g, s, p, v, opts)) == 0)
                break;
            if (k > 0)
                opts[n++] = GM_NONE;
            uint32_t x = opts[ask(g, s, agents, p, GM_ASK_GUARD, opts, n)];
            if (x == GM_NONE)
                break;
            edges[x] |= GM_GUARD;
        }
        s->paper_version[P->sheet]++;
        break;
    }
    case CB_EFFECT_SHIELD:
        P->shield = (int32_t)v;
        break;
    case CB_EFFECT_CAMP:
        P->camp = (int32_t)v;
        break;
    case CB_EFFECT_EXTRA_TURN:
        s->extra = 1;
        break;
    default:
        break;
    }
}

/* P's token arrives at V: the summit, or a node whose dot P may fill. */
static void enter(const gm_game *g, gm_state *s, gm_agent *agents, int p, uint32_t v)
{
    gm_player *P = &s->players[p];
    const gm_sheet *sh = &g->sheets[P->sheet];
    P->at = (int32_t)v;
    if (v == sh->center) {
        P->on_summit = s->round;
        if (g->play.end == CB_END_FIRST) {
            s->over = 1;
            s->tally.winners = 1u << p;
        }
        return;
    }
    const uint8_t *dots = gm_dots(g, s, P->sheet);
    const uint16_t *marks = gm_marks(g, s, P->sheet);
    if (!dots[v] || (marks[v] >> p & 1))
        return;
    gm_mark(g, s, p, v);
    if (sh->type[v] >= 0)
        act(g, s, agents, p, v);
}

/* Whether a token on V can walk anywhere. */
static int can_walk_from(const gm_game *g, const gm_state *s, int sheet, uint32_t v)
{
    const gm_sheet *sh = &g->sheets[sheet];
    if (!gm_nodes(g, s, sheet)[v] || v == sh->center)
        return 0;
    for (uint32_t i = sh->adj_off[v]; i < sh->adj_off[v + 1]; i++)
        if (gm_walkable(g, s, sheet, sh->adj_e[i]))
            return 1;
    return 0;
}

/* Where stranded P may restart, tier by tier as the rules list them. */
static int restart_options(const gm_game *g, const gm_state *s, int p, uint32_t *opts)
{
    const gm_player *P = &s->players[p];
    int sheet = P->sheet;
    const gm_sheet *sh = &g->sheets[sheet];
    if (P->camp >= 0 && can_walk_from(g, s, sheet, (uint32_t)P->camp)) {
        opts[0] = (uint32_t)P->camp;
        return 1;
    }
    if (can_walk_from(g, s, sheet, sh->seat_start[p])) {
        opts[0] = sh->seat_start[p];
        return 1;
    }
    int n = 0;
    for (int i = 0; i < sh->n_starts; i++)
        if (can_walk_from(g, s, sheet, sh->starts[i]))
            opts[n++] = sh->starts[i];
    if (n)
        return n;
    for (uint32_t v = 0; v < sh->n && n < MAX_OPTIONS; v++)
        if (gm_paper_edge(g, s, sheet, v) && can_walk_from(g, s, sheet, v))
            opts[n++] = v;
    return n;
}

/* The winners when the game ends (a bit per seat): of the players on the
 * summit (unless the rules rank missions first), else of those with their
 * mission done, else of everyone, the fewest walkable edges from the summit
 * (0 on it), then the most marks; players still tied share the win. */
static unsigned decide(const gm_game *g, gm_state *s)
{
    unsigned winners = 0;
    long best_key = 0;
    int any_summit = 0, any_done = 0;
    int mission_first = g->play.mission_first == CB_MISSION_FIRST_ALWAYS ||
                        (g->play.mission_first == CB_MISSION_FIRST_SHARED && g->shared);
    for (int p = 0; p < g->players; p++) {
        any_summit |= s->players[p].on_summit != 0 && !mission_first;
        any_done |= gm_mission_left(g, s, p) == 0;
    }
    int dist[GM_MAX_NODES];
    uint32_t queue[GM_MAX_NODES + 1];
    for (int p = 0; p < g->players; p++) {
        const gm_player *P = &s->players[p];
        long key;
        if (any_summit) {
            if (!P->on_summit)
                continue;
            key = 0;
        } else {
            if (any_done && gm_mission_left(g, s, p) != 0)
                continue;
            int d = 1 << 20;
            if (P->on_summit) {
                d = 0;
            } else if (P->at >= 0) {
                gm_dist_to_summit(g, s, P->sheet, dist, queue);
                if (dist[P->at] >= 0)
                    d = dist[P->at];
            }
            key = (long)d << 16;
        }
        key -= gm_marks_of(g, s, p);
        if (!winners || key < best_key)
            winners = 1u << p, best_key = key;
        else if (key == best_key)
            winners |= 1u << p;
    }
    return winners;
}

void gm_turn(const gm_game *g, gm_state *s, gm_agent *agents)
{
    int p = s->turn;
    gm_player *P = &s->players[p];
    s->n_trace = 0;
    P->shield = -1;
    if (agents[p].turn_start && !P->on_summit && P->at != -2)
        agents[p].turn_start(agents[p].ctx, g, s, p);
    if (P->on_summit || P->at == -2) {
        /* no turn */
    } else {
        if (P->at >= 0) {
            uint32_t opts[64];
            int n = step_options(g, s, p, (uint32_t)P->at, 0, opts);
            if (n == 0) { /* stuck: stranded, and this turn restarts */
                P->at = -1;
                s->tally.ever_stranded[p] = s->tally.ever_stuck[p] = 1;
            } else {
                enter(g, s, agents, p, opts[ask(g, s, agents, p, GM_ASK_MOVE, opts, n)]);
            }
        }
        if (P->at == -1 && !s->over) {
            uint32_t opts[MAX_OPTIONS];
            int n = restart_options(g, s, p, opts);
            if (n == 0)
                P->at = -2; /* out of the game */
            else
                P->at = (int32_t)opts[ask(g, s, agents, p, GM_ASK_RESTART, opts, n)];
            s->extra = 0;
        }
    }
    if (s->over)
        return;
    if (s->extra && P->at >= 0 && !P->on_summit) {
        s->extra = 0;
        return; /* the same player again */
    }
    s->extra = 0;
    s->turn = (s->turn + 1) % g->players;
    if (++s->pos < g->players)
        return;
    /* The round is over: the game too, or the next round begins (with a
     * rotating start, one seat on). */
    int playing = 0, summit = 0;
    for (int q = 0; q < g->players; q++) {
        playing += s->players[q].at != -2 && !s->players[q].on_summit;
        summit += s->players[q].on_summit != 0;
    }
    if (summit > 0 || playing == 0 || s->round >= g->play.round_limit) {
        s->over = 1;
        s->tally.by_limit = summit == 0;
        s->tally.winners = decide(g, s);
        return;
    }
    s->pos = 0;
    if (g->play.rotate)
        s->first = (s->first + 1) % g->players;
    s->turn = s->first;
    s->round++;
}

void gm_play(const gm_game *g, gm_state *s, gm_agent *agents)
{
    while (!s->over)
        gm_turn(g, s, agents);
    s->tally.rounds = s->round;
    for (int p = 0; p < g->players; p++)
        s->tally.mission_done[p] = gm_mission_left(g, s, p) == 0;
}
