/* cutboard deck --shard and deck merge end to end: 4 shards run at once
 * (xargs -P) give the one-run deck's games and, merged, its manifest byte for
 * byte; --shard auto reads the batch systems' index variables; bad --shard
 * values and bad manifests (a sheet in two shards, a missing shard, a
 * malformed line, another deck's shard) fail with one line and no output. */
#include "cli_support.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DECK "deck --seed par --count 10 --players 2"

/* sh() with CMD in a subshell: its own redirections and && chains keep
 * their meaning before sh's capture of the output. */
static int shell(const char *cmd)
{
    char full[8192];
    snprintf(full, sizeof full, "( %s )", cmd);
    return sh(full);
}

/* The batch systems' variables unset, so a test runner inside a Slurm or
 * Kubernetes job does not steer --shard auto. */
static void clear_shard_vars(void)
{
    unsetenv("JOB_COMPLETION_INDEX");
    unsetenv("SLURM_ARRAY_TASK_ID");
    unsetenv("AWS_BATCH_JOB_ARRAY_INDEX");
}

/* A manifest's lines without the keys that say where a game was printed
 * (the file, its first page, its sheets' pages): what -o shards share with
 * the one-run deck. Returns the game lines re-printed, one a line. */
static char *games_without_places(const char *name)
{
    size_t len;
    char *text = read_run_file(name, &len), *save = NULL;
    size_t cap = 2 * len + 1, at = 0;
    char *out = malloc(cap);
    assert_non_null(out);
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        cJSON *o = cJSON_Parse(line);
        assert_non_null(o);
        if (cJSON_GetObjectItem(o, "summary")) {
            cJSON_Delete(o);
            continue;
        }
        cJSON_DeleteItemFromObject(o, "file");
        cJSON_DeleteItemFromObject(o, "first_page");
        cJSON *sheets = cJSON_GetObjectItem(o, "sheets");
        for (cJSON *s = sheets ? sheets->child : NULL; s; s = s->next)
            cJSON_DeleteItemFromObject(s, "page");
        char *p = cJSON_PrintUnformatted(o);
        assert_true(at + strlen(p) + 2 < cap);
        at += (size_t)sprintf(out + at, "%s\n", p);
        free(p);
        cJSON_Delete(o);
    }
    free(text);
    return out;
}

/* ---- 4 shards at once against one run ---- */

static void test_parallel_shards_equal_one_run(void **state)
{
    (void)state;
    /* One run; its games and manifest are moved aside so the shards write
     * under the same names (the manifest names each game's file). */
    assert_int_equal(cutboard(DECK " --jobs 2 --manifest one.jsonl --out-dir games"), 0);
    assert_int_equal(shell("mv games one-games"), 0);
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "printf '0\\n1\\n2\\n3\\n' | xargs -P 4 -I K %s " DECK
             " --shard K/4 --manifest m-K.jsonl --out-dir games",
             cli_binary);
    assert_int_equal(shell(cmd), 0);
    /* Slices of 10 in 4: 3, 3, 2, 2 games, in index order. */
    assert_int_equal(shell("wc -l < m-0.jsonl && wc -l < m-3.jsonl"), 0);
    assert_string_equal(out_text, "4\n3\n");
    /* The shell's glob order (m-0 .. m-3) is not what merge relies on: give
     * them backwards. */
    assert_int_equal(cutboard("deck merge m-3.jsonl m-2.jsonl m-1.jsonl m-0.jsonl -o deck.jsonl"),
                     0);
    assert_string_equal(err_text, "");
    assert_true(same_files("deck.jsonl", "one.jsonl")); /* game lines and summary */
    /* Every game's PDF is the one-run deck's, byte for byte (and only the
     * first game's file has the rules: --rules once is the deck's). */
    assert_int_equal(shell("diff -r one-games games && ls games | wc -l"), 0);
    assert_string_equal(out_text, "10\n");

    /* One PDF per shard (-o): the games are the same, in the same order;
     * only where they are printed differs. */
    assert_int_equal(cutboard(DECK " --manifest one-o.jsonl -o one.pdf"), 0);
    snprintf(cmd, sizeof cmd,
             "printf '0\\n1\\n2\\n3\\n' | xargs -P 4 -I K %s " DECK
             " --shard K/4 --manifest o-K.jsonl -o shard-K.pdf", cli_binary);
    assert_int_equal(shell(cmd), 0);
    assert_int_equal(cutboard("deck merge o-*.jsonl -o deck-o.jsonl"), 0);
    char *a = games_without_places("deck-o.jsonl"), *b = games_without_places("one-o.jsonl");
    assert_string_equal(a, b);
    free(a);
    free(b);
    /* The summaries agree but for nothing: the same recomputed line. */
    assert_int_equal(shell("tail -n 1 deck-o.jsonl > s1 && tail -n 1 one-o.jsonl > s2"), 0);
    assert_true(same_files("s1", "s2"));
    /* A sheet's seed is printed on the page the merged manifest names, in
     * the shard's PDF (game 7 is shard 2's second game). */
    NEED("pdftotext");
    assert_int_equal(shell("grep '\"index\":7,' deck-o.jsonl"), 0);
    assert_contains(out_text, "\"file\":\"shard-2.pdf\",\"first_page\":3,");
    assert_int_equal(shell("pdftotext -f 3 -l 3 shard-2.pdf - && pdftotext -f 15 -l 15 one.pdf -"),
                     0);
    assert_contains(out_text, "par#7/1");
}

/* ---- --shard auto ---- */

/* cutboard ARGS with the variable assignments ENV (shell words) before it. */
static int with_env(const char *env, const char *args)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "%s %s %s", env, cli_binary, args);
    return sh(cmd);
}

static void test_shard_auto_reads_index_variables(void **state)
{
    (void)state;
    clear_shard_vars();
    assert_int_equal(cutboard(DECK " --shard 1/4 --manifest want.jsonl -o want.pdf"), 0);
    /* Kubernetes first: Slurm's value is not read when it is set. */
    assert_int_equal(with_env("JOB_COMPLETION_INDEX=1 SLURM_ARRAY_TASK_ID=9 "
                              "AWS_BATCH_JOB_ARRAY_INDEX=x",
                              DECK " --shard auto/4 --manifest k.jsonl -o k.pdf"), 0);
    assert_true(same_files("k.pdf", "want.pdf"));
    assert_int_equal(with_env("SLURM_ARRAY_TASK_ID=1 AWS_BATCH_JOB_ARRAY_INDEX=3",
                              DECK " --shard auto/4 -o s.pdf"), 0);
    assert_true(same_files("s.pdf", "want.pdf"));
    assert_int_equal(with_env("AWS_BATCH_JOB_ARRAY_INDEX=1", DECK " --shard auto/4 -o a.pdf"), 0);
    assert_true(same_files("a.pdf", "want.pdf"));
    /* The summary says which shard of which deck it is. */
    assert_int_equal(shell("tail -n 1 k.jsonl"), 0);
    assert_contains(out_text, "\"start\":3,\"count\":3,\"done\":3,");
    assert_contains(out_text, "\"shard\":{\"index\":1,\"of\":4,\"start\":0,\"count\":10}}");

    /* None set: the error names all three. */
    expect_failure(DECK " --shard auto/4 -o none.pdf", 64,
                   "--shard auto/4: none of JOB_COMPLETION_INDEX, SLURM_ARRAY_TASK_ID, "
                   "AWS_BATCH_JOB_ARRAY_INDEX is set", "none.pdf");
    /* Set but out of range or not a number: the error names the variable. */
    setenv("SLURM_ARRAY_TASK_ID", "4", 1);
    expect_failure(DECK " --shard auto/4 -o bad.pdf", 64,
                   "SLURM_ARRAY_TASK_ID is \"4\", not a shard number from 0 to 3", "bad.pdf");
    setenv("JOB_COMPLETION_INDEX", "", 1); /* set, empty: it is the one read */
    expect_failure(DECK " --shard auto/4 -o bad.pdf", 64, "JOB_COMPLETION_INDEX is \"\"",
                   "bad.pdf");
    clear_shard_vars();
    setenv("AWS_BATCH_JOB_ARRAY_INDEX", "-1", 1);
    expect_failure(DECK " --shard auto/4 -o bad.pdf", 64, "AWS_BATCH_JOB_ARRAY_INDEX is \"-1\"",
                   "bad.pdf");
    clear_shard_vars();
}

static void test_bad_shard_values(void **state)
{
    (void)state;
    clear_shard_vars();
    static const char *const bad[] = {"4/4", "1/0", "x", "1/", "/4", "-1/4", "1/-4", "+1/4",
                                      "1 /4", "1/4x", "auto", "auto/", "AUTO/4", "1/4/2"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char args[256];
        snprintf(args, sizeof args, DECK " --shard '%s' -o bad.pdf", bad[i]);
        expect_failure(args, 64, "--shard: \"", "bad.pdf");
        assert_contains(err_text, bad[i]);
    }
    expect_failure(DECK " --shard 0/11 -o bad.pdf", 64,
                   "--shard: 11 shards of 10 games: a shard would have no games", "bad.pdf");
    expect_failure("deck --seed par --only 3 --shard 0/1 -o bad.pdf", 64,
                   "--only: give either --only K or --shard K/N", "bad.pdf");
    expect_failure(DECK " --shard", 64, "--shard", NULL);
    /* N = count: one game a shard; the last shard is the last game. */
    assert_int_equal(cutboard(DECK " --shard 9/10 --manifest one.jsonl -o one.pdf"), 0);
    assert_int_equal(shell("head -c 12 one.jsonl"), 0);
    assert_string_equal(out_text, "{\"index\":9,\"");
}

/* ---- deck merge refuses what is not one whole deck ---- */

/* Four shards of "par" with manifests m-K.jsonl (made once per test). */
static void make_shards(void)
{
    for (int k = 0; k < 4; k++) {
        char args[256];
        snprintf(args, sizeof args, DECK " --shard %d/4 --manifest m-%d.jsonl -o s-%d.pdf", k,
                 k, k);
        assert_int_equal(cutboard(args), 0);
    }
}

static void test_merge_refuses_duplicate_across_shards(void **state)
{
    (void)state;
    make_shards();
    /* Game 7's first sheet (shard 2, line 2) gets game 1's second sheet's
     * hash (shard 0, line 2): as if two seeds had made one board. */
    assert_int_equal(shell("h=$(sed -n 2p m-0.jsonl | grep -o '\"hash\":\"[0-9a-f]*\"' | sed -n 3p) "
                        "&& echo \"$h\" && sed -i "
                        "\"2s/\\\"sheets\\\":\\[{\\([^]]*\\)\\\"hash\\\":\\\"[0-9a-f]*\\\"/"
                        "\\\"sheets\\\":[{\\1$h/\" m-2.jsonl"),
                     0);
    char hash[64];
    snprintf(hash, sizeof hash, "hash %.16s)", strstr(out_text, ":\"") + 2);
    assert_int_equal(shell("sed -n 2p m-2.jsonl | grep -c \"$(sed -n 2p m-0.jsonl | "
                        "grep -o '\"hash\":\"[0-9a-f]*\"' | sed -n 3p)\""), 0);
    expect_failure("deck merge m-0.jsonl m-1.jsonl m-2.jsonl m-3.jsonl -o deck.jsonl", 65,
                   "game 1 (m-0.jsonl:2) and game 7 (m-2.jsonl:2) have the same sheet",
                   "deck.jsonl");
    assert_contains(err_text, hash);
}

static void test_merge_refuses_gaps_and_overlaps(void **state)
{
    (void)state;
    make_shards();
    expect_failure("deck merge m-0.jsonl m-2.jsonl m-3.jsonl -o deck.jsonl", 65,
                   "games 3..5 are missing (shard 1/4 not given), between m-0.jsonl and "
                   "m-2.jsonl", "deck.jsonl");
    expect_failure("deck merge m-1.jsonl m-2.jsonl m-3.jsonl -o deck.jsonl", 65,
                   "games 0..2 are missing (shard 0/4 not given), before m-1.jsonl",
                   "deck.jsonl");
    expect_failure("deck merge m-0.jsonl m-1.jsonl m-2.jsonl -o deck.jsonl", 65,
                   "games 8..9 are missing (shard 3/4 not given), after m-2.jsonl",
                   "deck.jsonl");
    assert_int_equal(shell("cp m-1.jsonl again.jsonl"), 0);
    expect_failure("deck merge m-0.jsonl m-1.jsonl again.jsonl m-2.jsonl m-3.jsonl -o deck.jsonl",
                   65, "games 3..5 are in both m-1.jsonl and again.jsonl", "deck.jsonl");
    /* Plain --start/--count slices merge too; a gap between them is found. */
    assert_int_equal(cutboard(DECK " --start 0 --count 4 --manifest a.jsonl -o a.pdf"), 0);
    assert_int_equal(cutboard(DECK " --start 5 --count 5 --manifest b.jsonl -o b.pdf"), 0);
    expect_failure("deck merge a.jsonl b.jsonl -o deck.jsonl", 65,
                   "games 4..4 are missing, between a.jsonl and b.jsonl", "deck.jsonl");
    /* A shard and a plain slice are not one deck. */
    expect_failure("deck merge m-0.jsonl b.jsonl -o deck.jsonl", 65,
                   "b.jsonl: not a shard, but m-0.jsonl is a shard", "deck.jsonl");
}

static void test_merge_refuses_bad_manifests(void **state)
{
    (void)state;
    make_shards();
    /* A malformed line: file:line. */
    assert_int_equal(shell("cp m-1.jsonl broken.jsonl && sed -i '2s/.*/{\"index\":4,/' broken.jsonl"),
                     0);
    expect_failure("deck merge m-0.jsonl broken.jsonl m-2.jsonl m-3.jsonl -o deck.jsonl", 65,
                   "broken.jsonl:2: not a manifest line", "deck.jsonl");
    /* A game line whose field is wrong. */
    assert_int_equal(shell("cp m-1.jsonl tries.jsonl && sed -i '3s/\"tries\":[0-9]*/\"tries\":\"1\"/' "
                        "tries.jsonl"), 0);
    expect_failure("deck merge m-0.jsonl tries.jsonl m-2.jsonl m-3.jsonl -o deck.jsonl", 65,
                   "tries.jsonl:3: \"tries\" is missing or not a whole number", "deck.jsonl");
    /* Lines out of order. */
    assert_int_equal(shell("(sed -n 2p m-1.jsonl; sed -n 1p m-1.jsonl; sed -n '3,$p' m-1.jsonl) "
                        "> order.jsonl"), 0);
    expect_failure("deck merge m-0.jsonl order.jsonl m-2.jsonl m-3.jsonl -o deck.jsonl", 65,
                   "order.jsonl:1: game 4 where game 3 should be", "deck.jsonl");
    /* No summary (cut short), two manifests in one file. */
    assert_int_equal(shell("head -n 2 m-1.jsonl > short.jsonl && (sed -n 1p m-1.jsonl; "
                           "tail -n 1 m-1.jsonl; sed -n '2,$p' m-1.jsonl) > two.jsonl"), 0);
    expect_failure("deck merge m-0.jsonl short.jsonl -o deck.jsonl", 65,
                   "short.jsonl:2: the last line is not a summary line", "deck.jsonl");
    expect_failure("deck merge m-0.jsonl two.jsonl -o deck.jsonl", 65,
                   "two.jsonl:2: a summary line before the last line", "deck.jsonl");
    /* Another master seed's shard. */
    assert_int_equal(cutboard("deck --seed other --count 10 --players 2 --shard 1/4 "
                              "--manifest other.jsonl -o other.pdf"), 0);
    expect_failure("deck merge m-0.jsonl other.jsonl m-2.jsonl m-3.jsonl -o deck.jsonl", 65,
                   "other.jsonl: master seed \"other\", but m-0.jsonl has \"par\"", "deck.jsonl");
    /* A game line from another deck pasted in. */
    assert_int_equal(shell("(sed -n 1p m-1.jsonl; sed -n 1p other.jsonl | sed 's/other#3/other#4/;"
                        "s/\"index\":3/\"index\":4/'; sed -n '3,$p' m-1.jsonl) > pasted.jsonl"),
                     0);
    expect_failure("deck merge m-0.jsonl pasted.jsonl m-2.jsonl m-3.jsonl -o deck.jsonl", 65,
                   "pasted.jsonl:2: seed \"other#4", "deck.jsonl");
    /* Another type tolerance. */
    assert_int_equal(cutboard(DECK " --type-tolerance 9 --shard 1/4 --manifest tol.jsonl "
                              "-o tol.pdf"), 0);
    expect_failure("deck merge m-0.jsonl tol.jsonl -o deck.jsonl", 65,
                   "tol.jsonl: type tolerance 0.09, but m-0.jsonl has 0.08", "deck.jsonl");
    /* Another --players: the games' sheets differ. */
    assert_int_equal(cutboard("deck --seed par --count 10 --players 3 --shard 1/4 "
                              "--manifest three.jsonl -o three.pdf"), 0);
    expect_failure("deck merge m-0.jsonl three.jsonl -o deck.jsonl", 65,
                   "three.jsonl:1: game 3 has 3 sheets, but game 0 (m-0.jsonl:1) has 2: not "
                   "one deck (other players or shared?)", "deck.jsonl");
    /* Another count of shards of the same deck. */
    assert_int_equal(cutboard(DECK " --shard 1/2 --manifest half.jsonl -o half.pdf"), 0);
    expect_failure("deck merge m-0.jsonl half.jsonl -o deck.jsonl", 65,
                   "half.jsonl: shard 1/2 of games 0..9, but m-0.jsonl is shard 0/4 of games "
                   "0..9: not one deck", "deck.jsonl");
    /* Missing input, no -o, no inputs, the output among the inputs. */
    expect_failure("deck merge m-0.jsonl nothere.jsonl -o deck.jsonl", 66, "nothere.jsonl",
                   "deck.jsonl");
    expect_failure("deck merge m-0.jsonl", 64, "give -o FILE", NULL);
    expect_failure("deck merge -o deck.jsonl", 64, "give the manifests", "deck.jsonl");
    expect_failure("deck merge m-0.jsonl -o m-0.jsonl", 64, "also an input", NULL);
    expect_failure("deck merge --bogus m-0.jsonl -o deck.jsonl", 64, "--bogus", "deck.jsonl");
    /* An interrupted deck's manifest says so. */
    assert_int_equal(shell("sed -i '$s/\"interrupted\":false/\"interrupted\":true/' m-3.jsonl"), 0);
    expect_failure("deck merge m-0.jsonl m-1.jsonl m-2.jsonl m-3.jsonl -o deck.jsonl", 65,
                   "m-3.jsonl:3: the deck was stopped after 2 of 2 games", "deck.jsonl");
}

/* The merged manifest goes to standard output with -o -, and an old
 * merge is replaced only by a whole new one. */
static void test_merge_to_stdout_and_over_old(void **state)
{
    (void)state;
    make_shards();
    assert_int_equal(cutboard("deck merge m-0.jsonl m-1.jsonl m-2.jsonl m-3.jsonl -o -"), 0);
    assert_int_equal(strncmp(out_text, "{\"index\":0,", 11), 0);
    write_file("deck.jsonl", "old\n");
    expect_failure("deck merge m-0.jsonl m-1.jsonl -o deck.jsonl", 65, "games 6..9 are missing",
                   NULL);
    size_t len;
    char *old = read_run_file("deck.jsonl", &len);
    assert_string_equal(old, "old\n");
    free(old);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_parallel_shards_equal_one_run, cli_setup,
                                        cli_teardown),
        cmocka_unit_test_setup_teardown(test_shard_auto_reads_index_variables, cli_setup,
                                        cli_teardown),
        cmocka_unit_test_setup_teardown(test_bad_shard_values, cli_setup, cli_teardown),
        cmocka_unit_test_setup_teardown(test_merge_refuses_duplicate_across_shards, cli_setup,
                                        cli_teardown),
        cmocka_unit_test_setup_teardown(test_merge_refuses_gaps_and_overlaps, cli_setup,
                                        cli_teardown),
        cmocka_unit_test_setup_teardown(test_merge_refuses_bad_manifests, cli_setup,
                                        cli_teardown),
        cmocka_unit_test_setup_teardown(test_merge_to_stdout_and_over_old, cli_setup,
                                        cli_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
