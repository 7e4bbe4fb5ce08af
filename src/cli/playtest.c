/* cutboard playtest: plays many games with agents and reports whether the
 * game is fair, ends, and rewards cutting and thought. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "io/theme.h"

static const char usage[] =
    "usage: cutboard playtest [options] [BOARD.json]\n"
    "\n"
    "Plays many games of the theme's rules with agents, on new boards made with\n"
    "the board options below (or every game on BOARD.json), and reports seat and\n"
    "mission balance, game length, stranded players, cut influence and skill,\n"
    "each beside its target.\n"
    "\n"
    "  -n, --games N        games to play (default 1000)\n"
    "      --agents KIND    who plays: random, greedy (default) or thinking\n"
    "      --skill N        also N games of one thinking agent against greedy\n"
    "                       ones, its seat turning round the table (default 0)\n"
    "      --rollouts N     a thinking agent's look-ahead games per option\n"
    "                       (default 16)\n"
    "      --horizon N      rounds each look-ahead plays, 1..64 (default 8;\n"
    "                       2 on a board shared by 7-9 players)\n"
    "      --no-influence   skip the replay without cuts (cut influence)\n"
    "  -j, --jobs N         threads, 1..64 (default 1); the report is the same\n"
    "      --json FILE      also write the figures as JSON (- for standard output)\n"
    "  Board options (as for a game; the theme must be cutboard-theme/3):\n";

static const char usage_end[] =
    "  -h, --help           this help\n"
    "\n"
    "Exit codes: 0 ok, 64 bad option, 65 bad input data, 66 missing input,\n"
    "70 internal error, 73/74 cannot write.\n";

/* The targets the report checks (doc/manual.md, "The default theme,
 * measured"). */
#define SEAT_POINTS 4.0
#define MISSION_POINTS 5.0
#define DONE_SPREAD 15.0
#define ROUNDS_LO 8
#define ROUNDS_HI 20
#define INFLUENCE_MIN 25.0
#define LEGAL_MIN 70.0
#define SKILL_MIN 60.0

static int progress(void *ctx, long done, long total)
{
    (void)ctx;
    int width = 40, filled = total ? (int)(width * done / total) : width;
    fprintf(stderr, "\r[%.*s%*s] %ld/%ld games", filled,
            "########################################", width - filled, "", done, total);
    if (done >= total)
        fputs("\n", stderr);
    return 0;
}

/* Wilson's 95 % interval for K of N. */
static void wilson(double k, int n, double *lo, double *hi)
{
    double z = 1.96, p = n ? (double)k / n : 0, d = 1 + z * z / n;
    double c = (p + z * z / (2.0 * n)) / d;
    double h = z * sqrt(p * (1 - p) / n + z * z / (4.0 * n * n)) / d;
    *lo = 100 * (c - h);
    *hi = 100 * (c + h);
}

static int percentile(const cb_playtest_report *r, double q)
{
    long want = (long)ceil(q * r->games), seen = 0;
    for (int k = 0; k <= CB_PLAYTEST_MAX_ROUNDS; k++) {
        seen += r->rounds[k];
        if (seen >= want && seen > 0)
            return k;
    }
    return CB_PLAYTEST_MAX_ROUNDS;
}

static const char *mark(int ok)
{
    return ok ? "ok" : "MISSED";
}

/* A share K of N against the band [LO, HI] (percent): ok inside it, MISSED
 * when its 95 % interval lies wholly outside, else too few games to say. */
static const char *verdict(double k, int n, double lo, double hi)
{
    double w = n ? 100.0 * k / n : 0, a, b;
    wilson(k, n, &a, &b);
    if (w >= lo && w <= hi)
        return "ok";
    return b < lo || a > hi ? "MISSED" : "unsure (more games)";
}

/* The text report. */
static void print_report(FILE *f, const cb_playtest_report *r, const cb_theme *t,
                         const char *agents, const char *seed)
{
    int n = r->players;
    double fair = 100.0 / n;
    fprintf(f, "playtest: %d games, %d players, %s, %s agents, seed \"%s\"\n\n", r->games, n,
            r->shared ? "one shared board" : "own sheets", agents, seed);
    fprintf(f, "%-16s %-42s %s\n", "figure", "measured", "target");
    for (int p = 0; p < n; p++) {
        double lo, hi, w = r->games ? 100.0 * r->seat_wins[p] / r->games : 0;
        wilson(r->seat_wins[p], r->games, &lo, &hi);
        char label[32], val[64], target[32];
        snprintf(label, sizeof label, "seat %d wins", p + 1);
        snprintf(val, sizeof val, "%5.1f %% (95 %%: %.1f-%.1f)", w, lo, hi);
        snprintf(target, sizeof target, "%.1f +- %.0f", fair, SEAT_POINTS);
        fprintf(f, "%-16s %-42s %-16s %s\n", label, val, target,
                verdict(r->seat_wins[p], r->games, fair - SEAT_POINTS, fair + SEAT_POINTS));
    }
    int p10 = percentile(r, 0.1), p50 = percentile(r, 0.5), p90 = percentile(r, 0.9);
    char val[96], target[48];
    snprintf(val, sizeof val, "median %d, p10-p90 %d-%d", p50, p10, p90);
    int length_applies = n <= 4;
    snprintf(target, sizeof target, length_applies ? "median %d-%d" : "(2-4 players)", ROUNDS_LO,
             ROUNDS_HI);
    fprintf(f, "%-16s %-42s %-16s %s\n", "rounds", val, target,
            length_applies ? mark(p50 >= ROUNDS_LO && p50 <= ROUNDS_HI) : "");
    snprintf(val, sizeof val, "100 %%; %.1f %% at the round limit",
             r->games ? 100.0 * r->by_limit / r->games : 0);
    snprintf(target, sizeof target, "all by round %d", r->round_limit);
    fprintf(f, "%-16s %-42s %-16s %s\n", "games ended", val, target, mark(1));
    snprintf(val, sizeof val, "none %.1f %%, tied %.1f %%, mission done %.0f %%",
             r->games ? 100.0 * r->no_winner / r->games : 0,
             r->games ? 100.0 * r->shared_wins / r->games : 0,
             r->games ? 100.0 * r->winner_done / r->games : 0);
    fprintf(f, "%-16s %-42s %-16s %s\n", "winner", val, "every game", mark(r->no_winner == 0));
    snprintf(val, sizeof val, "%.1f %% stuck, %.1f %% stranded",
             r->player_games ? 100.0 * (double)r->stuck / (double)r->player_games : 0,
             r->player_games ? 100.0 * (double)r->stranded / (double)r->player_games : 0);
    fprintf(f, "%-16s %s\n", "players", val);
    snprintf(val, sizeof val, "%.2f a game (%.1f cut actions)",
             r->games ? (double)r->pieces / r->games : 0,
             r->games ? (double)r->cut_actions / r->games : 0);
    fprintf(f, "%-16s %s\n", "pieces cut loose", val);
    if (r->influence_games) {
        double inf = 100.0 * r->influence_changed / r->influence_games;
        snprintf(val, sizeof val, "%.1f %% of games", inf);
        snprintf(target, sizeof target, ">= %.0f %%", INFLUENCE_MIN);
        fprintf(f, "%-16s %-42s %-16s %s\n", "cut influence", val, target,
                mark(inf >= INFLUENCE_MIN));
    }
    if (r->skill_games) {
        double lo, hi, w = 100.0 * r->skill_wins / r->skill_games;
        wilson(r->skill_wins, r->skill_games, &lo, &hi);
        snprintf(val, sizeof val, "%.1f %% of %d (95 %%: %.1f-%.1f)", w, r->skill_games, lo, hi);
        int applies = n == 2;
        snprintf(target, sizeof target, applies ? ">= %.0f %%" : "> %.0f %% (1/N)",
                 applies ? SKILL_MIN : fair);
        fprintf(f, "%-16s %-42s %-16s %s\n", "skill", val, target,
                verdict(r->skill_wins, r->skill_games, applies ? SKILL_MIN : fair, 100));
    }
    /* missions */
    double mean_win = 0, lo_done = 100, hi_done = 0;
    int counted = 0;
    for (size_t m = 0; m < t->n_missions && m < CB_PLAYTEST_MAX_MISSIONS; m++)
        if (r->mission_games[m]) {
            mean_win += 100.0 * r->mission_wins[m] / r->mission_games[m];
            double d = 100.0 * r->mission_done[m] / r->mission_games[m];
            lo_done = d < lo_done ? d : lo_done;
            hi_done = d > hi_done ? d : hi_done;
            counted++;
        }
    mean_win = counted ? mean_win / counted : 0;
    fprintf(f, "\n%-16s %8s %8s %8s   target: wins %.1f +- %.0f, done within %.0f points\n",
            "mission", "played", "done", "wins", mean_win, MISSION_POINTS, DONE_SPREAD);
    for (size_t m = 0; m < t->n_missions && m < CB_PLAYTEST_MAX_MISSIONS; m++) {
        if (!r->mission_games[m])
            continue;
        double w = 100.0 * r->mission_wins[m] / r->mission_games[m];
        double d = 100.0 * r->mission_done[m] / r->mission_games[m];
        fprintf(f, "%-16s %8d %7.1f%% %7.1f%%   %s\n", t->missions[m].name, r->mission_games[m], d,
                w, verdict(r->mission_wins[m], r->mission_games[m], mean_win - MISSION_POINTS,
                           mean_win + MISSION_POINTS));
    }
    fprintf(f, "%-16s %8s %8s %8s   %s\n", "done spread", "", "", "",
            mark(hi_done - lo_done <= DONE_SPREAD));
    /* actions */
    fprintf(f, "\n%-16s %8s %8s %8s   target: legal effect >= %.0f %% of landings\n", "action",
            "landings", "legal", "taken", LEGAL_MIN);
    for (size_t ty = 0; ty < t->n_types; ty++) {
        cb_effect_kind k = t->types[ty].effect.kind;
        int dup = 0;
        for (size_t j = 0; j < ty; j++)
            dup |= t->types[j].effect.kind == k;
        if (dup || !r->landings[k])
            continue;
        double legal = 100.0 * (double)r->legal[k] / (double)r->landings[k];
        double used = 100.0 * (double)r->used[k] / (double)r->landings[k];
        fprintf(f, "%-16s %8ld %7.1f%% %7.1f%%   %s\n", cb_effect_name(k),
                r->landings[k], legal, used, mark(legal >= LEGAL_MIN));
    }
}

static void print_json(FILE *f, const cb_playtest_report *r, const cb_theme *t,
                       const char *agents, const char *seed)
{
    fprintf(f, "{\"format\": \"cutboard-playtest/1\", \"seed\": \"");
    for (const unsigned char *c = (const unsigned char *)seed; *c; c++) {
        if (*c == '"' || *c == '\\')
            fprintf(f, "\\%c", *c);
        else if (*c < 0x20)
            fprintf(f, "\\u%04x", *c);
        else
            fputc(*c, f);
    }
    fprintf(f, "\", \"agents\": \"%s\", \"games\": %d, \"players\": %d, \"shared\": %s,\n",
            agents, r->games, r->players, r->shared ? "true" : "false");
    fprintf(f, " \"seat_wins\": [");
    for (int p = 0; p < r->players; p++)
        fprintf(f, "%s%.6g", p ? ", " : "", r->seat_wins[p]);
    fprintf(f, "], \"no_winner\": %d, \"shared_wins\": %d, \"winner_done\": %.6g, "
               "\"by_limit\": %d, \"round_limit\": %d,\n",
            r->no_winner, r->shared_wins, r->winner_done, r->by_limit, r->round_limit);
    fprintf(f, " \"rounds\": {\"p10\": %d, \"median\": %d, \"p90\": %d},\n", percentile(r, 0.1),
            percentile(r, 0.5), percentile(r, 0.9));
    fprintf(f, " \"players_stuck\": %ld, \"players_stranded\": %ld, \"player_games\": %ld,\n",
            r->stuck, r->stranded, r->player_games);
    fprintf(f, " \"pieces\": %ld, \"cut_actions\": %ld,\n", r->pieces, r->cut_actions);
    fprintf(f, " \"cut_influence\": {\"games\": %d, \"changed\": %d},\n", r->influence_games,
            r->influence_changed);
    fprintf(f, " \"skill\": {\"games\": %d, \"wins\": %.6g},\n", r->skill_games, r->skill_wins);
    fprintf(f, " \"missions\": [");
    int first = 1;
    for (size_t m = 0; m < t->n_missions && m < CB_PLAYTEST_MAX_MISSIONS; m++) {
        fprintf(f, "%s\n  {\"name\": \"%s\", \"played\": %d, \"done\": %d, \"wins\": %.6g}",
                first ? "" : ",", t->missions[m].name, r->mission_games[m], r->mission_done[m],
                r->mission_wins[m]);
        first = 0;
    }
    fprintf(f, "],\n \"actions\": [");
    first = 1;
    for (int k = 1; k < CB_EFFECT_KINDS; k++) {
        if (!r->landings[k])
            continue;
        fprintf(f, "%s\n  {\"effect\": \"%s\", \"landings\": %ld, \"legal\": %ld, \"taken\": %ld}",
                first ? "" : ",", cb_effect_name((cb_effect_kind)k), r->landings[k], r->legal[k],
                r->used[k]);
        first = 0;
    }
    fprintf(f, "]}\n");
}

int cli_playtest(int argc, char **argv)
{
    cli_board_options o;
    cli_board_options_init(&o);
    cb_playtest_options opt;
    cb_playtest_defaults(&opt);
    const char *agents = "greedy", *json = NULL, *board_path = NULL;
    cli_args a;
    cli_args_init(&a, argc, argv);
    while (cli_args_next(&a)) {
        int got = cli_board_option(&a, &o);
        if (got < 0)
            return CLI_EXIT_USAGE;
        if (got)
            continue;
        if (cli_flag(&a, "-h|--help")) {
            printf("%s%s%s", usage, cli_board_options_help, usage_end);
            return 0;
        } else if (cli_value(&a, "-n|--games")) {
            if (cli_int("--games", a.val, 1, 10000000, &opt.games))
                return CLI_EXIT_USAGE;
        } else if (cli_value(&a, "--skill")) {
            if (cli_int("--skill", a.val, 0, 10000000, &opt.skill_games))
                return CLI_EXIT_USAGE;
        } else if (cli_value(&a, "--rollouts")) {
            if (cli_int("--rollouts", a.val, 1, 1000, &opt.rollouts))
                return CLI_EXIT_USAGE;
        } else if (cli_value(&a, "--horizon")) {
            if (cli_int("--horizon", a.val, 1, CB_PLAYTEST_MAX_ROUNDS, &opt.horizon))
                return CLI_EXIT_USAGE;
        } else if (cli_value(&a, "-j|--jobs")) {
            if (cli_int("--jobs", a.val, 1, 64, &opt.jobs))
                return CLI_EXIT_USAGE;
        } else if (cli_flag(&a, "--no-influence")) {
            opt.cut_influence = 0;
        } else if (cli_value(&a, "--json")) {
            json = a.val;
        } else if (cli_value(&a, "--agents")) {
            agents = a.val;
            if (strcmp(agents, "random") == 0)
                opt.agents = CB_AGENT_RANDOM;
            else if (strcmp(agents, "greedy") == 0)
                opt.agents = CB_AGENT_GREEDY;
            else if (strcmp(agents, "thinking") == 0)
                opt.agents = CB_AGENT_THINKING;
            else
                return cli_fail(CB_ERR_USAGE, "--agents: \"%s\" is not random, greedy or "
                                              "thinking", agents);
        } else if (a.arg[0] != '-' || strcmp(a.arg, "-") == 0) {
            if (board_path)
                return cli_fail(CB_ERR_USAGE, "playtest: one board file at most (\"%s\" and "
                                              "\"%s\")", board_path, a.arg);
            board_path = a.arg;
        } else {
            return a.bad ? CLI_EXIT_USAGE : cli_unknown("playtest", a.arg);
        }
    }
    if (a.bad)
        return CLI_EXIT_USAGE;
    if (json && board_path && strcmp(json, "-") != 0 && strcmp(board_path, "-") != 0 &&
        cli_same_file(json, board_path))
        return cli_fail(CB_ERR_USAGE, "--json and the board file both name %s: give the report "
                                      "its own file", json);
    int rc = cli_board_options_finish(&o);
    if (rc) {
        cli_board_options_free(&o);
        return rc;
    }
    cb_game *boards = NULL;
    cb_error err = {CB_OK, "", 0, ""};
    if (board_path) {
        cli_reads(board_path);
        cb_status st = cli_game_read(board_path, o.theme, &boards, &err);
        if (st != CB_OK) {
            cli_board_options_free(&o);
            return cli_error(st, &err);
        }
        opt.boards = boards;
    }
    if (isatty(STDERR_FILENO))
        opt.progress = progress;
    cb_playtest_report r;
    cb_status st = cb_playtest_run(&o.spec, &opt, &r, &err);
    if (st == CB_OK) {
        const char *seed = board_path ? boards->seed : o.spec.seed;
        char *text = NULL, *js = NULL;
        size_t text_len = 0, js_len = 0;
        FILE *tf = open_memstream(&text, &text_len);
        FILE *jf = json ? open_memstream(&js, &js_len) : NULL;
        if (!tf || (json && !jf)) {
            st = CB_ERR_NOMEM, snprintf(err.message, sizeof err.message, "out of memory writing the report");
        } else {
            print_report(tf, &r, o.theme, agents, seed);
            if (jf)
                print_json(jf, &r, o.theme, agents, seed);
        }
        if (tf)
            fclose(tf);
        if (jf)
            fclose(jf);
        if (st == CB_OK && json && strcmp(json, "-") != 0) {
            cli_output out = {json, js, js_len};
            st = cli_write_all(&out, 1, &err);
        }
        if (st == CB_OK) {
            FILE *to = json && strcmp(json, "-") == 0 ? stderr : stdout;
            if (fwrite(text, 1, text_len, to) != text_len || fflush(to) != 0)
                st = CB_ERR_IO, snprintf(err.message, sizeof err.message, "standard output: write failed");
            if (st == CB_OK && json && strcmp(json, "-") == 0 &&
                (fwrite(js, 1, js_len, stdout) != js_len || fflush(stdout) != 0))
                st = CB_ERR_IO, snprintf(err.message, sizeof err.message, "standard output: write failed");
        }
        free(text);
        free(js);
    }
    cb_game_free(boards);
    cli_board_options_free(&o);
    if (st != CB_OK)
        return cli_error(st, &err);
    return 0;
}
