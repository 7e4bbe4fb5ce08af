/* End-to-end tests of cutboard playtest and deck --playtest: the report as
 * a user sees it, its JSON, its determinism, and its errors. */
#include "cli_support.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int number(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    assert_true(cJSON_IsNumber(v));
    return v->valueint;
}

/* The table names every row and target; the JSON adds up. */
static void test_report(void **state)
{
    (void)state;
    assert_int_equal(cutboard("playtest --seed pt -n 60 --skill 4 --rollouts 2 --json pt.json"),
                     0);
    assert_contains(out_text, "playtest: 60 games, 4 players, own sheets, greedy agents, "
                              "seed \"pt\"\n");
    static const char *const rows[] = {"seat 1 wins", "seat 4 wins", "rounds", "games ended",
                                       "cut influence", "skill", "traveler", "telescope",
                                       "legal effect >= 70 %", "done spread"};
    for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++)
        assert_contains(out_text, rows[k]);
    cJSON *j = read_run_json("pt.json");
    assert_int_equal(number(j, "games"), 60);
    double wins = 0;
    const cJSON *w;
    cJSON_ArrayForEach(w, cJSON_GetObjectItem(j, "seat_wins"))
        wins += w->valuedouble;
    /* a tie shares one win; the JSON gives each seat's to 4 decimals */
    assert_true(fabs(wins + number(j, "no_winner") - 60) < 1e-3);
    int played = 0;
    cJSON_ArrayForEach(w, cJSON_GetObjectItem(j, "missions"))
        played += number(w, "played");
    assert_int_equal(played, 60 * 4); /* every seat has a mission */
    const cJSON *ci = cJSON_GetObjectItem(j, "cut_influence");
    assert_int_equal(number(ci, "games"), 60);
    assert_int_equal(number(cJSON_GetObjectItem(j, "skill"), "games"), 4);
    const cJSON *r = cJSON_GetObjectItem(j, "rounds");
    assert_true(number(r, "p10") <= number(r, "median") &&
                number(r, "median") <= number(r, "p90") && number(r, "p90") <= 20);
    cJSON_Delete(j);
}

/* The same report for any number of jobs; a board file plays its sheets. */
static void test_jobs_and_board_file(void **state)
{
    (void)state;
    assert_int_equal(cutboard("playtest --seed same -p 3 --shared -n 30 --json a.json"), 0);
    char *one = strdup(out_text);
    assert_int_equal(cutboard("playtest --seed same -p 3 --shared -n 30 -j 3 --json b.json"),
                     0);
    assert_string_equal(one, out_text);
    assert_true(same_files("a.json", "b.json"));
    free(one);
    assert_int_equal(cutboard("--seed bf --players 2 -o bf.pdf --json bf.json"), 0);
    assert_int_equal(cutboard("playtest bf.json -n 20 --no-influence"), 0);
    assert_contains(out_text, "playtest: 20 games, 2 players, own sheets, greedy agents, "
                              "seed \"bf\"\n");
    assert_null(strstr(out_text, "cut influence"));
}

/* A thinking agent's look-ahead: 8 rounds by default, 2 on a board shared
 * by 7-9 players; --horizon sets it, and a different one plays different
 * games. */
static void test_horizon(void **state)
{
    (void)state;
    static const char *const tables[][3] = {
        {"7", "8", "2"}, {"7 --shared", "2", "8"}, {"6 --shared", "8", "2"}};
    for (int t = 0; t < 3; t++) {
        char cmd[200];
        const char *base = "playtest --seed hz -n 2 --agents thinking --rollouts 2 "
                           "--no-influence";
        snprintf(cmd, sizeof cmd, "%s -p %s --json d.json", base, tables[t][0]);
        assert_int_equal(cutboard(cmd), 0);
        snprintf(cmd, sizeof cmd, "%s -p %s --horizon %s --json e.json", base, tables[t][0],
                 tables[t][1]);
        assert_int_equal(cutboard(cmd), 0);
        assert_true(same_files("d.json", "e.json"));
        snprintf(cmd, sizeof cmd, "%s -p %s --horizon %s --json f.json", base, tables[t][0],
                 tables[t][2]);
        assert_int_equal(cutboard(cmd), 0);
        assert_false(same_files("d.json", "f.json"));
    }
    expect_failure("playtest --horizon 0 -n 5", 64, "--horizon", NULL);
    expect_failure("playtest --horizon 65 -n 5", 64, "--horizon", NULL);
}

/* Bad requests: one line, the right code, no report file. */
static void test_errors(void **state)
{
    (void)state;
    expect_failure("playtest --agents clever -n 5", 64, "--agents", NULL);
    expect_failure("playtest -n 0", 64, "--games", NULL);
    expect_failure("playtest a.json b.json", 64, "one board file", NULL);
    expect_failure("playtest nothere.json -n 5", 66, "nothere.json", NULL);
    /* the report never replaces the board file it plays */
    assert_int_equal(cutboard("--seed own --players 2 -o own.pdf --json own.json"), 0);
    assert_int_equal(sh("cp own.json kept.json"), 0);
    expect_failure("playtest own.json -n 2 --json ./own.json", 64, "own.json", NULL);
    assert_true(same_files("own.json", "kept.json"));
    /* a theme whose rules are not data cannot be played */
    copy_default_theme("old");
    assert_int_equal(sh("python3 -c 'import json; p=\"old/theme.json\"; t=json.load(open(p)); "
                        "t[\"format\"]=\"cutboard-theme/1\"; t.pop(\"rules\"); t.pop(\"play\"); "
                        "t.pop(\"first_game\"); [ty.pop(\"effect\") for ty in t[\"node_types\"]]; "
                        "[(m.pop(\"goal\"), m.pop(\"shared_goal\", 0)) for m in t[\"missions\"]]; "
                        "json.dump(t, open(p, \"w\"))'"),
                     0);
    expect_failure("playtest --theme old -n 5 --json r.json", 65, "cutboard-theme/3", "r.json");
    /* the report to a full disk is a write error */
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "(%s playtest --seed full -n 5 --no-influence > /dev/full)",
             cli_binary);
    assert_int_equal(sh(cmd), 74);
    assert_one_error_line();
    assert_contains(err_text, "standard output");
}

/* deck --playtest: each game's figures in the manifest. */
static void test_deck_playtest(void **state)
{
    (void)state;
    assert_int_equal(cutboard("deck --seed dp --count 3 --playtest 20 --manifest m.jsonl "
                              "-o d.pdf"),
                     0);
    size_t len;
    char *text = read_run_file("m.jsonl", &len);
    int games = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        cJSON *j = cJSON_Parse(line);
        assert_non_null(j);
        const cJSON *pt = cJSON_GetObjectItem(j, "playtest");
        if (pt) {
            games++;
            assert_int_equal(number(pt, "games"), 20);
            double wins = 0;
            const cJSON *w;
            cJSON_ArrayForEach(w, cJSON_GetObjectItem(pt, "seat_wins"))
            {
                /* the bound deck --playtest keeps: 20 games cannot show a
                 * seat of 1/4 sure to win under 1/8 with none or over 1/2 */
                assert_true(w->valuedouble <= 17);
                wins += w->valuedouble;
            }
            assert_true(fabs(wins - 20) < 1e-6);
            int rounds = number(pt, "rounds_median");
            assert_true(rounds >= 8 && rounds <= 20);
            assert_non_null(cJSON_GetObjectItem(cJSON_GetObjectItem(j, "rejected"), "playtest"));
        }
        cJSON_Delete(j);
    }
    assert_int_equal(games, 3);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_report),
        cmocka_unit_test(test_jobs_and_board_file),
        cmocka_unit_test(test_horizon),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_deck_playtest),
    };
    return cmocka_run_group_tests(tests, cli_setup, cli_teardown);
}
