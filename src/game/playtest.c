/* cutboard playtest: many games played by agents, and what they show. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/error.h"
#include "base/rng.h"
#include "board/generate.h"
#include "game/agents.h"
#include "game/distcache.h"
#include "game/engine.h"

/* What one game left for the report. */
typedef struct {
    cb_status st;
    unsigned winners;       /* a bit per seat */
    int rounds, by_limit, pieces, cut_actions;
    int stuck, stranded;
    int mission[GM_MAX_PLAYERS], done[GM_MAX_PLAYERS];
    int landings[CB_EFFECT_KINDS], legal[CB_EFFECT_KINDS], used[CB_EFFECT_KINDS];
    int changed;            /* -1 not replayed; else the winners changed without cuts */
    int skill_seat;         /* -1, or the thinking agent's seat */
} game_result;

void cb_playtest_defaults(cb_playtest_options *opt)
{
    memset(opt, 0, sizeof *opt);
    opt->games = 1000;
    opt->agents = CB_AGENT_GREEDY;
    opt->cut_influence = 1;
    opt->rollouts = 16;
    opt->jobs = 1;
}

typedef struct {
    const cb_spec *spec;
    const cb_playtest_options *opt;
    game_result *results;
    long total;             /* balance games, then skill games */
    int jobs, job;
    atomic_long *done;
    atomic_int *stop;
    cb_error err;
} worker;

static gm_agent_kind kind_of(cb_agent_kind k)
{
    return k == CB_AGENT_RANDOM ? GM_RANDOM : k == CB_AGENT_THINKING ? GM_THINKING : GM_GREEDY;
}

/* Searches a thinking table's cache holds: its look-aheads try many cuts,
 * each a picture of its own with a few searches, and a search done again
 * costs far more than its room; up to 8192, in about 32 MB of hop counts. */
static int thinking_searches(const gm_game *g)
{
    uint32_t n = 1;
    for (int k = 0; k < g->n_sheets; k++)
        n = g->sheets[k].n > n ? g->sheets[k].n : n;
    size_t fit = ((size_t)32 << 20) / (n * sizeof(int));
    return fit > 8192 ? 8192 : fit < 1024 ? 1024 : (int)fit;
}

/* Rounds a thinking agent's look-ahead plays: 8, but 2 on a board shared
 * by 7-9 players, where every simulated cut changes the paper the whole
 * table searches: there 8 rounds make a game ten times dearer for a little
 * skill (the manual has the figures). */
static int horizon_of(const cb_playtest_options *opt, const gm_game *g)
{
    if (opt->horizon)
        return opt->horizon;
    return g->n_sheets == 1 && g->players > 6 ? 2 : 8;
}

/* Plays game G once from SEED with SEATS' kinds; NO_CUTS declines every cut. */
static cb_status play(const gm_game *g, const gm_agent_kind *seats, const cb_playtest_options *opt,
                      uint64_t seed, int no_cuts, gm_tally *tally, int *done, cb_error *err)
{
    gm_mind *minds[GM_MAX_PLAYERS] = {NULL};
    gm_agent agents[GM_MAX_PLAYERS];
    gm_state *s = gm_state_new(g, seed);
    cb_status st = CB_OK;
    /* one cache of hop counts for the whole table: the players search the
     * same paper (a thinking agent's look-aheads far more often) */
    int thinking = 0;
    for (int p = 0; p < g->players; p++)
        thinking |= seats[p] == GM_THINKING;
    gm_dist_cache *dists = s ? gm_dist_cache_new(g, thinking ? thinking_searches(g) : 128)
                             : NULL;
    int horizon = horizon_of(opt, g);
    for (int p = 0; dists && p < g->players; p++) {
        if (!(minds[p] = gm_mind_new_sharing(g, seats[p], seats[p] == GM_GREEDY ? opt->noise : 0,
                                             opt->rollouts, horizon, dists)))
            break;
        agents[p] = gm_mind_agent(minds[p]);
    }
    if (!s || !minds[g->players - 1]) {
        st = cb_fail(err, CB_ERR_NOMEM, "out of memory playing a game");
    } else {
        s->no_cuts = no_cuts;
        gm_play(g, s, agents);
        *tally = s->tally;
        for (int p = 0; p < g->players; p++)
            done[p] = tally->mission_done[p];
    }
    for (int p = 0; p < g->players; p++)
        gm_mind_free(minds[p]);
    gm_dist_cache_free(dists);
    gm_state_free(s);
    return st;
}

static cb_status one_game(worker *w, long k, game_result *r, cb_error *err)
{
    const cb_spec *spec = w->spec;
    const cb_playtest_options *opt = w->opt;
    int skill = k >= opt->games;
    cb_game *made = NULL;
    const cb_game *game = opt->boards;
    /* the plane drawings the generator's check built, for the engine */
    cb_planar planes[GM_MAX_PLAYERS];
    size_t n_planes = 0;
    char seed[600];
    memset(r, 0, sizeof *r);
    r->changed = r->skill_seat = -1;
    cb_status st;
    if (!game) {
        cb_spec one = *spec;
        snprintf(seed, sizeof seed, "%.500s/playtest/%ld", spec->seed, k);
        one.seed = seed;
        if ((st = cb_game_generate_figures(&one, &made, NULL, planes, err)) != CB_OK)
            return st;
        game = made;
        n_planes = made->n_sheets;
    }
    gm_game g;
    st = gm_game_init(&g, game, n_planes ? planes : NULL, spec->theme, err);
    for (size_t i = 0; i < n_planes; i++)
        cb_planar_free(&planes[i]);
    if (st != CB_OK) {
        cb_game_free(made);
        return st;
    }
    gm_agent_kind seats[GM_MAX_PLAYERS];
    for (int p = 0; p < g.players; p++)
        seats[p] = skill ? GM_GREEDY : kind_of(opt->agents);
    if (skill) {
        r->skill_seat = (int)(k % g.players);
        seats[r->skill_seat] = GM_THINKING;
    }
    snprintf(seed, sizeof seed, "%.500s/play/%ld", spec->seed, k);
    uint64_t play_seed = cb_hash_string(seed);
    gm_tally t;
    st = play(&g, seats, opt, play_seed, 0, &t, r->done, err);
    if (st == CB_OK) {
        r->winners = t.winners, r->rounds = t.rounds, r->by_limit = t.by_limit;
        r->pieces = t.pieces, r->cut_actions = t.cut_actions;
        for (int p = 0; p < g.players; p++) {
            r->stuck += t.ever_stuck[p];
            r->stranded += t.ever_stranded[p];
            r->mission[p] = g.mission[p];
        }
        memcpy(r->landings, t.landings, sizeof r->landings);
        memcpy(r->legal, t.legal, sizeof r->legal);
        memcpy(r->used, t.used, sizeof r->used);
    }
    if (st == CB_OK && opt->cut_influence && !skill) {
        gm_tally u;
        int done[GM_MAX_PLAYERS];
        st = play(&g, seats, opt, play_seed, 1, &u, done, err);
        r->changed = u.winners != t.winners;
    }
    gm_game_free(&g);
    cb_game_free(made);
    return st;
}

static void *work(void *arg)
{
    worker *w = arg;
    for (long k = w->job; k < w->total; k += w->jobs) {
        if (atomic_load(w->stop))
            break;
        game_result *r = &w->results[k];
        r->st = one_game(w, k, r, &w->err);
        if (r->st != CB_OK) {
            atomic_store(w->stop, 1);
            break;
        }
        atomic_fetch_add(w->done, 1);
    }
    return NULL;
}

/* Seat P's share of game R's win: 1 alone, 1/k of a k-way tie. */
static double share_of(const game_result *r, int p)
{
    return (r->winners >> p & 1) ? 1.0 / __builtin_popcount(r->winners) : 0.0;
}

static void add(cb_playtest_report *out, const game_result *r, int players)
{
    if (r->skill_seat >= 0) {
        out->skill_games++;
        out->skill_wins += share_of(r, r->skill_seat);
        return;
    }
    out->games++;
    if (!r->winners)
        out->no_winner++;
    out->shared_wins += __builtin_popcount(r->winners) > 1;
    for (int p = 0; p < players; p++) {
        out->seat_wins[p] += share_of(r, p);
        out->winner_done += share_of(r, p) * r->done[p];
    }
    out->rounds[r->rounds < CB_PLAYTEST_MAX_ROUNDS ? r->rounds : CB_PLAYTEST_MAX_ROUNDS]++;
    out->by_limit += r->by_limit;
    out->player_games += players;
    out->stuck += r->stuck;
    out->stranded += r->stranded;
    out->pieces += r->pieces;
    out->cut_actions += r->cut_actions;
    if (r->changed >= 0) {
        out->influence_games++;
        out->influence_changed += r->changed;
    }
    for (int p = 0; p < players; p++) {
        int m = r->mission[p];
        if (m < 0 || m >= CB_PLAYTEST_MAX_MISSIONS)
            continue;
        out->mission_games[m]++;
        out->mission_done[m] += r->done[p];
        out->mission_wins[m] += share_of(r, p);
    }
    for (int k = 0; k < CB_EFFECT_KINDS; k++) {
        out->landings[k] += r->landings[k];
        out->legal[k] += r->legal[k];
        out->used[k] += r->used[k];
    }
}

cb_status cb_playtest_run(const cb_spec *spec, const cb_playtest_options *opt,
                          cb_playtest_report *out, cb_error *err)
{
    memset(out, 0, sizeof *out);
    if (!spec->theme || spec->theme->version < 3)
        return cb_fail(err, CB_ERR_DATA, "the theme's rules are not data: a playtest needs a "
                                         "cutboard-theme/3 theme");
    if (opt->games < 1 || opt->games > 10000000 || opt->skill_games < 0 ||
        opt->skill_games > 10000000)
        return cb_fail(err, CB_ERR_USAGE, "games: from 1 to 10,000,000");
    if (opt->jobs < 1 || opt->jobs > 64)
        return cb_fail(err, CB_ERR_USAGE, "jobs: from 1 to 64");
    if (opt->noise < 0 || opt->noise > 1)
        return cb_fail(err, CB_ERR_USAGE, "noise: from 0 to 1");
    if (opt->rollouts < 1 || opt->rollouts > 1000)
        return cb_fail(err, CB_ERR_USAGE, "rollouts: from 1 to 1,000");
    if (opt->horizon < 0 || opt->horizon > CB_PLAYTEST_MAX_ROUNDS)
        return cb_fail(err, CB_ERR_USAGE, "horizon: from 1 to 64 rounds (0: by the table)");
    cb_status st = opt->boards ? CB_OK : cb_spec_check(spec, err);
    if (st != CB_OK)
        return st;
    long total = (long)opt->games + opt->skill_games;
    game_result *results = calloc((size_t)total, sizeof *results);
    worker *workers = calloc((size_t)opt->jobs, sizeof *workers);
    pthread_t *threads = calloc((size_t)opt->jobs, sizeof *threads);
    atomic_long done = 0;
    atomic_int stop = 0;
    if (!results || !workers || !threads) {
        free(results), free(workers), free(threads);
        return cb_fail(err, CB_ERR_NOMEM, "out of memory for %ld games", total);
    }
    int started = 0;
    for (int j = 0; j < opt->jobs; j++) {
        workers[j] = (worker){spec, opt, results, total, opt->jobs, j, &done, &stop, {CB_OK, "", 0, ""}};
        if (j > 0 && pthread_create(&threads[j], NULL, work, &workers[j]) != 0)
            break;
        started = j + 1;
    }
    if (started < opt->jobs)
        atomic_store(&stop, 1);
    if (started > 1 || opt->progress) {
        /* the first job's games on this thread, watching the others */
        pthread_t first;
        int own = pthread_create(&first, NULL, work, &workers[0]) == 0;
        if (!own)
            work(&workers[0]);
        long last = -1;
        for (;;) {
            long d = atomic_load(&done);
            if (opt->progress && d != last && opt->progress(opt->progress_ctx, d, total))
                atomic_store(&stop, 1);
            last = d;
            if (d >= total || atomic_load(&stop))
                break;
            struct timespec pause = {0, 50 * 1000000L};
            nanosleep(&pause, NULL);
        }
        if (own)
            pthread_join(first, NULL);
    } else {
        work(&workers[0]);
    }
    for (int j = 1; j < started; j++)
        pthread_join(threads[j], NULL);
    st = CB_OK;
    for (int j = 0; j < started && st == CB_OK; j++)
        if (workers[j].err.status != CB_OK) {
            *err = workers[j].err;
            st = err->status;
        }
    /* a job that could not start leaves its games unplayed: say why */
    if (st == CB_OK && started < opt->jobs)
        st = cb_fail(err, CB_ERR_NOMEM, "out of memory starting %d jobs (started %d)",
                     opt->jobs, started);
    if (st == CB_OK && atomic_load(&done) < total)
        st = cb_fail(err, CB_ERR_STOPPED, "stopped after %ld of %ld games", atomic_load(&done),
                     total);
    if (st == CB_OK) {
        out->players = spec->players;
        out->shared = spec->shared;
        out->round_limit = spec->theme->play.round_limit;
        if (opt->boards)
            out->players = opt->boards->players, out->shared = opt->boards->shared;
        for (long k = 0; k < total; k++)
            add(out, &results[k], out->players);
    }
    free(results), free(workers), free(threads);
    return st;
}
