/* The rules engine: random legal play on many real boards, checked turn by
 * turn against invariants computed here from scratch (the paper still joined
 * to the summit, marks against dots, tokens on live paper), and every game
 * ends inside the stated bound with a winner. */
#include <math.h>
#include <string.h>

#include "test.h"
#include "game/agents.h"
#include "game/distcache.h"
#include "board/generate.h"
#include "game/engine.h"
#include "io/theme.h"
#include "planar/halfedge.h"
#include "base/unionfind.h"

/* Decisions made, over the whole test (the agents' choices). */
static long decisions;

typedef struct {
    gm_mind *mind;
    gm_agent inner;
} counting;

static int count_choose(void *ctx, const gm_game *g, gm_state *s, int p, gm_ask ask,
                        const uint32_t *opts, int n)
{
    counting *c = ctx;
    decisions++;
    assert_true(n >= 1);
    /* every option the engine offers is a real node or edge */
    for (int i = 0; i < n; i++) {
        const gm_sheet *sh = &g->sheets[s->players[p].sheet];
        if (ask == GM_ASK_MOVE || ask == GM_ASK_TARGET || ask == GM_ASK_RESTART)
            assert_true(opts[i] < sh->n);
    }
    int k = c->inner.choose(c->inner.ctx, g, s, p, ask, opts, n);
    assert_true(k >= 0 && k < n);
    return k;
}

/* Nodes of SHEET joined to the summit by paper, from scratch: the pieces of
 * the planar drawing joined across edges not cut now. */
static void alive_from_scratch(const gm_game *g, const gm_state *s, int sheet, uint8_t *alive)
{
    const gm_sheet *sh = &g->sheets[sheet];
    cb_planar p;
    cb_error err;
    assert_int_equal(cb_planar_build(&p, sh->board, &err), CB_OK);
    uint32_t *cls = malloc(p.n_faces * sizeof *cls);
    uint32_t *vf = malloc((2 * sh->m + 8) * sizeof *vf);
    assert_non_null(cls);
    assert_non_null(vf);
    for (uint32_t f = 0; f < p.n_faces; f++)
        cls[f] = f;
    const uint8_t *edges = gm_edges(g, s, sheet);
    for (uint32_t e = 0; e < sh->m; e++) {
        uint32_t a = p.face[2 * e], b = p.face[2 * e + 1];
        if ((edges[e] & GM_CUT) || !a || !b)
            continue;
        uint32_t x = cb_uf_find(cls, a), y = cb_uf_find(cls, b);
        cls[x] = y;
    }
    size_t k = cb_planar_vertex_faces(&p, sh->center, vf);
    uint32_t main = cb_uf_find(cls, vf[0]);
    for (size_t i = 1; i < k; i++) /* summit edges are never cut: one piece */
        assert_int_equal(cb_uf_find(cls, vf[i]), main);
    for (uint32_t v = 0; v < sh->n; v++) {
        k = cb_planar_vertex_faces(&p, v, vf);
        alive[v] = 0;
        for (size_t i = 0; i < k; i++)
            alive[v] |= cb_uf_find(cls, vf[i]) == main;
    }
    free(cls);
    free(vf);
    cb_planar_free(&p);
}

static void check_state(const gm_game *g, const gm_state *s, uint8_t (*was_alive)[GM_MAX_NODES])
{
    uint8_t alive[GM_MAX_NODES];
    for (int k = 0; k < g->n_sheets; k++) {
        const gm_sheet *sh = &g->sheets[k];
        const uint8_t *nodes = gm_nodes(g, s, k), *dots = gm_dots(g, s, k);
        const uint16_t *marks = gm_marks(g, s, k);
        const uint8_t *edges = gm_edges(g, s, k);
        int mended = 0;
        for (uint32_t e = 0; e < sh->m; e++)
            mended |= (edges[e] & GM_MEND) != 0;
        /* a mended edge joins paper the cuts had parted only while both
         * sides stayed: from scratch, it is simply uncut */
        alive_from_scratch(g, s, k, alive);
        for (uint32_t v = 0; v < sh->n; v++) {
            if (!mended)
                assert_int_equal(nodes[v], alive[v]);
            assert_true(nodes[v] <= was_alive[k][v]); /* paper only shrinks */
            was_alive[k][v] = nodes[v];
            int filled = __builtin_popcount(marks[v]);
            assert_true(filled + dots[v] == sh->dots[v]); /* marks <= dots */
        }
        assert_true(nodes[sh->center]); /* the summit never falls */
    }
    for (int p = 0; p < g->players; p++) {
        /* the summary of P's marks the state keeps, from scratch */
        const gm_player *P = &s->players[p];
        const gm_sheet *sh = &g->sheets[P->sheet];
        const uint8_t *nodes = gm_nodes(g, s, P->sheet);
        const uint16_t *marks = gm_marks(g, s, P->sheet);
        int count = 0, family = 0;
        uint64_t types = 0;
        for (uint32_t v = 0; v < sh->n; v++) {
            int t = sh->type[v];
            if (t < 0 || !nodes[v] || !(marks[v] >> p & 1))
                continue;
            count++;
            types |= 1ull << (t & 63);
            const cb_goal *goal = &g->goal[p];
            cb_effect_kind k = g->theme->types[t].effect.kind;
            int listed = 0;
            for (int i = 0; i < goal->n_types; i++)
                listed |= goal->types[i] == t;
            if (g->mission[p] >= 0 && goal->kind == CB_GOAL_ACTIONS)
                family += goal->n_types     ? listed
                          : goal->cut_family ? cb_effect_is_cut(k)
                                             : cb_effect_is_guard(k);
        }
        assert_int_equal(s->mark_count[p], count);
        assert_true(s->mark_types[p] == types);
        assert_int_equal(s->mark_family[p], family);
        assert_true(P->at >= -2);
        if (P->at >= 0)
            assert_true(gm_nodes(g, s, P->sheet)[P->at]); /* tokens on live paper */
        if (P->camp >= 0)
            assert_true(gm_nodes(g, s, P->sheet)[P->camp]);
    }
}

/* Plays one game of SPEC from SEED with KIND agents, checking every turn;
 * returns the rounds it lasted. */
static int play_checked(const cb_spec *spec, uint64_t seed, gm_agent_kind kind)
{
    cb_game *game;
    cb_error err;
    assert_int_equal(cb_game_generate(spec, &game, &err), CB_OK);
    gm_game g;
    assert_int_equal(gm_game_init(&g, game, NULL, spec->theme, &err), CB_OK);
    gm_state *s = gm_state_new(&g, seed);
    assert_non_null(s);
    counting c[GM_MAX_PLAYERS];
    gm_agent agents[GM_MAX_PLAYERS];
    for (int p = 0; p < g.players; p++) {
        c[p].mind = gm_mind_new(&g, kind, 0, 2, 2);
        assert_non_null(c[p].mind);
        c[p].inner = gm_mind_agent(c[p].mind);
        agents[p] = (gm_agent){count_choose, c[p].inner.turn_start, &c[p]};
        if (agents[p].turn_start)
            agents[p].ctx = c[p].mind, agents[p].choose = c[p].inner.choose;
    }
    static uint8_t was_alive[GM_MAX_PLAYERS][GM_MAX_NODES];
    memset(was_alive, 1, sizeof was_alive);
    /* starts: every token on its own numbered start, its dot filled */
    for (int p = 0; p < g.players; p++) {
        const gm_player *P = &s->players[p];
        assert_int_equal(P->at, (int32_t)g.sheets[P->sheet].seat_start[p]);
        assert_int_equal(g.sheets[P->sheet].board->nodes[P->at].number, p + 1);
    }
    long turns = 0, bound = (long)g.play.round_limit * g.players * 64;
    while (!s->over) {
        int round = s->round;
        gm_turn(&g, s, agents);
        check_state(&g, s, was_alive);
        assert_true(s->round >= round && s->round <= g.play.round_limit);
        assert_true(++turns < bound); /* no loop */
    }
    unsigned winners = s->tally.winners;
    assert_true(winners != 0 && winners < 1u << g.players); /* every game has a winner */
    /* who comes first, as the rules page says: the players on the summit,
     * or (missions first) those with their mission done; then the nearest
     * to the summit, which a player on it is */
    int mission_first = g.play.mission_first == CB_MISSION_FIRST_ALWAYS ||
                        (g.play.mission_first == CB_MISSION_FIRST_SHARED && g.shared);
    unsigned on_summit = 0, done = 0;
    for (int p = 0; p < g.players; p++) {
        on_summit |= (unsigned)(s->players[p].on_summit != 0) << p;
        done |= (unsigned)(gm_mission_left(&g, s, p) == 0) << p;
    }
    unsigned first = mission_first ? done : on_summit;
    if (first)
        assert_int_equal(winners & ~first, 0);
    if (mission_first && (on_summit & (done ? done : ~0u)))
        assert_int_equal(winners & ~on_summit, 0);
    /* a winner on the summit had its mission done, or could no longer do it */
    int rounds = s->round;
    for (int p = 0; p < g.players; p++)
        gm_mind_free(c[p].mind);
    gm_state_free(s);
    gm_game_free(&g);
    cb_game_free(game);
    return rounds;
}

static void random_play_keeps_every_rule(void **state)
{
    (void)state;
    int seeds = getenv("CUTBOARD_ENGINE_GAMES") ? atoi(getenv("CUTBOARD_ENGINE_GAMES")) : 6;
    decisions = 0;
    long games = 0;
    for (int shared = 0; shared < 2; shared++)
        for (int players = 2; players <= 9; players++)
            for (int k = 0; k < seeds; k++) {
                cb_spec spec;
                cb_spec_defaults(&spec);
                char seed[64];
                snprintf(seed, sizeof seed, "engine %d %d %d", shared, players, k);
                spec.seed = seed;
                spec.players = players;
                spec.shared = shared;
                if (shared && players > 6) {
                    spec.page_w = 420, spec.page_h = 297;
                }
                spec.theme = default_theme;
                for (int rep = 0; rep < 8; rep++, games++)
                    play_checked(&spec, (uint64_t)(k * 131 + rep), rep < 6 ? GM_RANDOM : GM_GREEDY);
            }
    printf("# %ld games, %ld decisions checked\n", games, decisions);
    assert_true(decisions > 10000);
}

/* The same seed plays the same game: a playtest report is the same for any
 * number of jobs. */
static void playtest_report_is_deterministic(void **state)
{
    (void)state;
    cb_spec spec;
    cb_spec_defaults(&spec);
    spec.seed = "same";
    spec.theme = default_theme;
    cb_playtest_options o;
    cb_playtest_defaults(&o);
    o.games = 40;
    o.skill_games = 4;
    o.rollouts = 2;
    cb_playtest_report a, b;
    cb_error err;
    assert_int_equal(cb_playtest_run(&spec, &o, &a, &err), CB_OK);
    o.jobs = 3;
    assert_int_equal(cb_playtest_run(&spec, &o, &b, &err), CB_OK);
    assert_memory_equal(&a, &b, sizeof a);
    double wins = 0;
    for (int p = 0; p < a.players; p++)
        wins += a.seat_wins[p];
    assert_true(fabs(wins + a.no_winner - 40) < 1e-9); /* shared wins add up to one */
    assert_int_equal(a.skill_games, 4);
}

/* Checks C's hop counts against a fresh search on every sheet of S, from
 * the summit, each token and every seventh node. */
static void check_cached(gm_dist_cache *c, const gm_game *g, const gm_state *s)
{
    int want[GM_MAX_NODES], got[GM_MAX_NODES];
    uint32_t queue[GM_MAX_NODES + 1];
    for (int k = 0; k < g->n_sheets; k++) {
        const gm_sheet *sh = &g->sheets[k];
        uint32_t from[GM_MAX_PLAYERS + GM_MAX_NODES / 7 + 2];
        int n = 0;
        from[n++] = sh->center;
        for (int p = 0; p < g->players; p++)
            if (s->players[p].sheet == k && s->players[p].at >= 0)
                from[n++] = (uint32_t)s->players[p].at;
        for (uint32_t v = 0; v < sh->n; v += 7)
            from[n++] = v;
        for (int i = 0; i < n; i++) {
            gm_dist_from(g, s, k, from[i], want, queue);
            gm_dist_cached(c, g, s, k, from[i], got);
            assert_memory_equal(want, got, sh->n * sizeof want[0]);
        }
    }
}

/* The hop-count cache gives what a fresh search gives: a small cache (so
 * entries are replaced all the time) asked about states that move on, and
 * about copies with a cut of their own that the game never makes. */
static void dist_cache_matches_fresh_search(void **state)
{
    (void)state;
    for (int shared = 0; shared < 2; shared++) {
        cb_spec spec;
        cb_spec_defaults(&spec);
        spec.seed = shared ? "cache shared" : "cache own";
        spec.players = 3;
        spec.shared = shared;
        spec.theme = default_theme;
        cb_game *game;
        cb_error err;
        assert_int_equal(cb_game_generate(&spec, &game, &err), CB_OK);
        gm_game g;
        assert_int_equal(gm_game_init(&g, game, NULL, spec.theme, &err), CB_OK);
        gm_dist_cache *c = gm_dist_cache_new(&g, 16);
        gm_state *s = gm_state_new(&g, 7), *trial = gm_state_new(&g, 0);
        assert_non_null(c);
        assert_non_null(s);
        assert_non_null(trial);
        gm_mind *minds[GM_MAX_PLAYERS];
        gm_agent agents[GM_MAX_PLAYERS];
        for (int p = 0; p < g.players; p++) {
            minds[p] = gm_mind_new(&g, p == 0 ? GM_GREEDY : GM_RANDOM, 0, 0, 0);
            assert_non_null(minds[p]);
            agents[p] = gm_mind_agent(minds[p]);
        }
        cb_rng pick;
        cb_rng_seed(&pick, 11);
        while (!s->over) {
            gm_turn(&g, s, agents);
            check_cached(c, &g, s);
            /* a copy with one more edge cut, then the game's state again */
            gm_state_copy(trial, s);
            int sheet = (int)cb_rng_below(&pick, (uint64_t)g.n_sheets);
            uint32_t e = (uint32_t)cb_rng_below(&pick, g.sheets[sheet].m);
            if (gm_cuttable(&g, trial, sheet, e)) {
                gm_edges(&g, trial, sheet)[e] |= GM_CUT;
                gm_paper_fall(&g, trial, sheet, -1);
            }
            check_cached(c, &g, trial);
            check_cached(c, &g, s);
        }
        for (int p = 0; p < g.players; p++)
            gm_mind_free(minds[p]);
        gm_state_free(trial);
        gm_state_free(s);
        gm_dist_cache_free(c);
        gm_game_free(&g);
        cb_game_free(game);
    }
}

/* A game set up from the plane drawings the generator's check kept is the
 * game set up from drawings built afresh: every fixed array the same. */
static void kept_planes_match_fresh(void **state)
{
    (void)state;
    for (int shared = 0; shared < 2; shared++) {
        cb_spec spec;
        cb_spec_defaults(&spec);
        spec.seed = shared ? "planes shared" : "planes own";
        spec.players = shared ? 6 : 4;
        spec.shared = shared;
        spec.theme = default_theme;
        cb_game *game;
        cb_planar planes[GM_MAX_PLAYERS];
        cb_error err;
        assert_int_equal(cb_game_generate_figures(&spec, &game, NULL, planes, &err), CB_OK);
        gm_game kept, fresh;
        assert_int_equal(gm_game_init(&kept, game, planes, spec.theme, &err), CB_OK);
        for (size_t k = 0; k < game->n_sheets; k++)
            cb_planar_free(&planes[k]);
        assert_int_equal(gm_game_init(&fresh, game, NULL, spec.theme, &err), CB_OK);
        assert_int_equal(kept.n_sheets, fresh.n_sheets);
        for (int k = 0; k < kept.n_sheets; k++) {
            const gm_sheet *a = &kept.sheets[k], *b = &fresh.sheets[k];
            assert_int_equal(a->nf, b->nf);
            assert_true(a->nf > 1);
            assert_memory_equal(a->eface, b->eface, a->m * sizeof a->eface[0]);
            assert_memory_equal(a->vf_off, b->vf_off, (a->n + 1) * sizeof a->vf_off[0]);
            assert_memory_equal(a->vf, b->vf, a->vf_off[a->n] * sizeof a->vf[0]);
            assert_memory_equal(a->fe_off, b->fe_off, (a->nf + 1) * sizeof a->fe_off[0]);
            assert_memory_equal(a->fe, b->fe, a->fe_off[a->nf] * sizeof a->fe[0]);
            assert_memory_equal(a->farea, b->farea, a->nf * sizeof a->farea[0]);
            assert_memory_equal(a->trim, b->trim, a->n);
            assert_memory_equal(a->trim_edge, b->trim_edge, a->m);
            assert_int_equal(a->paper_joined, b->paper_joined);
        }
        gm_game_free(&kept);
        gm_game_free(&fresh);
        cb_game_free(game);
    }
}

/* A theme before /3 cannot be played, and says so. */
static void older_theme_is_refused(void **state)
{
    (void)state;
    static const char v2[] =
        "{\"format\": \"cutboard-theme/1\", \"name\": \"x\", "
        "\"center\": {\"name\": \"c\", \"icon\": \"c.png\", \"color\": \"#000000\"}, "
        "\"node_types\": [{\"name\": \"a\", \"icon\": \"a.png\", \"color\": \"#ff0000\", "
        "\"probability\": 1}], "
        "\"missions\": [{\"name\": \"m\", \"icon\": \"m.png\", \"color\": \"#00ff00\"}]}";
    cb_theme *t;
    cb_error err;
    assert_int_equal(cb_theme_parse(v2, sizeof v2 - 1, "nowhere", 0, &t, &err), CB_OK);
    cb_spec spec;
    cb_spec_defaults(&spec);
    spec.seed = "old";
    spec.theme = t;
    cb_playtest_options o;
    cb_playtest_defaults(&o);
    o.games = 1;
    cb_playtest_report r;
    assert_int_equal(cb_playtest_run(&spec, &o, &r, &err), CB_ERR_DATA);
    assert_non_null(strstr(err.message, "cutboard-theme/3"));
    cb_theme_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(random_play_keeps_every_rule),
        cmocka_unit_test(playtest_report_is_deterministic),
        cmocka_unit_test(dist_cache_matches_fresh_search),
        cmocka_unit_test(kept_planes_match_fresh),
        cmocka_unit_test(older_theme_is_refused),
    };
    return cmocka_run_group_tests(tests, load_default_theme, free_default_theme);
}
