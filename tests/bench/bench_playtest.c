/* cutboard playtest: games a second, one core (one job).
 *
 * "play": 500 four-player A4 games with greedy agents on 25 games' boards
 * made beforehand (20 games a set of boards, each from its own seed), the
 * engine and the agents alone; "with boards": 500 games each on new boards,
 * as cutboard playtest runs them (generation included); "cut influence"
 * adds the replay of every game without cuts; "thinking" is 20 two-player
 * games of one thinking agent (16 look-aheads an option) against a greedy
 * one. The target (issue 29, doc/manual.md) is >= 500 games a second: the
 * first row, and the second, where a game makes its boards too. */
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"
#include "cutboard.h"

typedef struct {
    cb_spec spec;
    cb_playtest_options opt;
    cb_game *boards[25];
    int n_boards;
} play_work;

static int play(void *arg, int run)
{
    play_work *w = arg;
    cb_error err;
    cb_playtest_report r;
    char seed[64];
    snprintf(seed, sizeof seed, "bench playtest %d", run);
    w->spec.seed = seed;
    int games = w->opt.games, total = 0;
    if (w->n_boards) { /* the same share of games on each set of boards */
        cb_playtest_options o = w->opt;
        o.games = games / w->n_boards;
        for (int k = 0; k < w->n_boards; k++) {
            o.boards = w->boards[k];
            if (cb_playtest_run(&w->spec, &o, &r, &err) != CB_OK)
                goto failed;
            total += r.games;
        }
    } else {
        if (cb_playtest_run(&w->spec, &w->opt, &r, &err) != CB_OK)
            goto failed;
        total = r.games + r.skill_games;
    }
    return total == games + w->opt.skill_games ? 0 : 1;
failed:
    fprintf(stderr, "bench_playtest: %s\n", err.message);
    return 1;
}

int main(void)
{
    cb_theme *theme;
    cb_error err;
    if (cb_theme_load("icons/default", &theme, &err) != CB_OK) {
        fprintf(stderr, "bench_playtest: %s\n", err.message);
        return 1;
    }
    bench_header("playtest (one job)");
    bench_result r;
    play_work w = {0};
    cb_spec_defaults(&w.spec);
    w.spec.theme = theme;
    cb_playtest_defaults(&w.opt);
    w.opt.cut_influence = 0;
    w.opt.games = 500;
    w.n_boards = 25;
    for (int k = 0; k < w.n_boards; k++) {
        char seed[64];
        snprintf(seed, sizeof seed, "bench boards %d", k);
        w.spec.seed = seed;
        if (cb_game_generate(&w.spec, &w.boards[k], &err) != CB_OK) {
            fprintf(stderr, "bench_playtest: %s\n", err.message);
            return 1;
        }
    }
    bench_run(play, &w, 5, &r);
    bench_row_result("greedy, 4 players A4: play", 500, "game", &r, ">= 500 games/s",
                     !r.failed && r.median_s <= 1.0);
    for (int k = 0; k < w.n_boards; k++)
        cb_game_free(w.boards[k]);
    w.n_boards = 0;
    bench_run(play, &w, 5, &r);
    bench_row_result("greedy, 4 players A4: with boards", 500, "game", &r, ">= 500 games/s",
                     !r.failed && r.median_s <= 1.0);
    w.opt.cut_influence = 1;
    bench_run(play, &w, 5, &r);
    bench_row_result("greedy, 4 players A4: cut influence", 500, "game", &r, "-", -1);
    w.opt.cut_influence = 0;
    w.opt.games = 1;
    w.opt.skill_games = 20;
    w.spec.players = 2;
    bench_run(play, &w, 5, &r);
    bench_row_result("thinking vs greedy, 2 players", 21, "game", &r, "-", -1);
    cb_theme_free(theme);
    return 0;
}
