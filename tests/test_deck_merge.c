/* Deck shards in the library: the slices cover the deck once, in order,
 * sizes within one game; the merge of hand-written manifests gives their
 * game lines in index order and a summary recomputed from them, and
 * refuses what is not one whole deck. */
#include "test.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cutboard.h"

static void test_slices_cover_the_deck_in_order(void **state)
{
    (void)state;
    for (size_t count = 1; count <= 40; count++)
        for (size_t n = 1; n <= count + 2; n++) {
            size_t next = 7, lo = (size_t)-1, hi = 0;
            for (size_t k = 0; k < n; k++) {
                size_t first, len;
                cb_deck_shard_slice(7, count, k, n, &first, &len);
                if (len == 0) {
                    assert_true(k >= count); /* only more shards than games */
                    continue;
                }
                assert_int_equal(first, next); /* contiguous, in order */
                next = first + len;
                lo = len < lo ? len : lo;
                hi = len > hi ? len : hi;
            }
            assert_int_equal(next, 7 + count); /* the whole deck, once */
            assert_true(hi - lo <= 1);
        }
    size_t first, len;
    cb_deck_shard_slice(0, 10, 4, 4, &first, &len); /* K out of range */
    assert_int_equal(len, 0);
}

/* A game line of master seed "m": index K, TRIES candidates, one sheet per
 * hash. */
static void game_line(char *out, size_t size, size_t k, int tries, int dup, const char *h1,
                      const char *h2)
{
    char seed[32];
    cb_deck_game_seed("m", k, tries - 1, seed, sizeof seed);
    snprintf(out, size,
             "{\"index\":%zu,\"seed\":\"%s\",\"file\":\"d.pdf\",\"tries\":%d,"
             "\"rejected\":{\"duplicate\":%d,\"missions\":%d,\"types\":0},"
             "\"sheets\":[{\"hash\":\"%s\"},{\"hash\":\"%s\"}]}\n",
             k, seed, tries, dup, tries - 1 - dup, h1, h2);
}

/* A manifest of games FIRST.. (one line each in LINES) with its summary:
 * STARTS start nodes, half of them mission a; REGULAR nodes, a third type
 * t. */
static char *manifest(const char *lines, size_t first, size_t n, size_t starts, size_t a,
                      size_t regular, size_t t, const char *extra)
{
    size_t cap = strlen(lines) + 1024;
    char *s = malloc(cap);
    assert_non_null(s);
    snprintf(s, cap,
             "%s{\"summary\":true,\"seed\":\"m\",\"start\":%zu,\"count\":%zu,\"done\":%zu,"
             "\"interrupted\":false,\"type_tolerance\":0.08,\"start_nodes\":%zu,"
             "\"missions\":{\"a\":{\"share\":0,\"target\":0.5,\"starts\":%zu},"
             "\"b\":{\"share\":0,\"target\":0.5,\"starts\":%zu}},\"regular_nodes\":%zu,"
             "\"types\":{\"t\":{\"share\":0,\"target\":0.3333,\"nodes\":%zu},"
             "\"u\":{\"share\":0,\"target\":0.6667,\"nodes\":%zu}}%s}\n",
             lines, first, n, n, starts, a, starts - a, regular, t, regular - t, extra);
    return s;
}

static double num(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItem(o, key);
    assert_true(cJSON_IsNumber(v));
    return v->valuedouble;
}

static void test_merge_recomputes_the_summary(void **state)
{
    (void)state;
    char l0[512], l1[512], l2[512], a[1100], b[600];
    game_line(l0, sizeof l0, 0, 1, 0, "0000000000000000", "00000000000000a1");
    game_line(l1, sizeof l1, 1, 3, 1, "00000000000000b0", "00000000000000b1");
    game_line(l2, sizeof l2, 2, 2, 0, "00000000000000c0", "00000000000000c1");
    snprintf(a, sizeof a, "%s%s", l0, l1);
    snprintf(b, sizeof b, "%s", l2);
    cb_deck_merge *m;
    cb_error err = {CB_OK, "", 0, ""};
    assert_int_equal(cb_deck_merge_new(&m, &err), CB_OK);
    /* Length 0: empty; the merge frees the text all the same. */
    assert_int_equal(cb_deck_merge_add(m, "b", manifest(b, 2, 1, 10, 4, 30, 9, ""), 0, &err),
                     CB_ERR_DATA);
    assert_string_equal(err.message, "b: empty: no manifest lines");
    cb_deck_merge_free(m);
    /* Given out of order: the later slice first. */
    assert_int_equal(cb_deck_merge_new(&m, &err), CB_OK);
    char *tb = manifest(b, 2, 1, 10, 4, 30, 9, ""), *ta = manifest(a, 0, 2, 20, 11, 60, 21, "");
    assert_int_equal(cb_deck_merge_add(m, "b", tb, strlen(tb), &err), CB_OK);
    assert_int_equal(cb_deck_merge_add(m, "a", ta, strlen(ta), &err), CB_OK);
    char *out;
    size_t len;
    assert_int_equal(cb_deck_merge_end(m, &out, &len, &err), CB_OK);
    cb_deck_merge_free(m);
    assert_int_equal(strlen(out), len);
    /* The game lines as they were, in index order. */
    size_t games = strlen(l0) + strlen(l1) + strlen(l2);
    assert_int_equal(strncmp(out, l0, strlen(l0)), 0);
    assert_int_equal(strncmp(out + strlen(l0), l1, strlen(l1)), 0);
    assert_int_equal(strncmp(out + strlen(l0) + strlen(l1), l2, strlen(l2)), 0);
    assert_int_equal(out[len - 1], '\n');
    cJSON *s = cJSON_Parse(out + games);
    assert_non_null(s);
    assert_int_equal(num(s, "start"), 0);
    assert_int_equal(num(s, "count"), 3);
    assert_int_equal(num(s, "done"), 3);
    assert_int_equal(num(s, "sheets"), 6);
    assert_int_equal(num(s, "tried"), 6);          /* 1 + 3 + 2 */
    assert_int_equal(num(s, "kept"), 3);
    assert_true(num(s, "yield") == 0.5);           /* 3 of 6 */
    cJSON *rej = cJSON_GetObjectItem(s, "rejected");
    assert_int_equal(num(rej, "duplicate"), 1);
    assert_int_equal(num(rej, "missions"), 2);     /* 0 + 1 + 1 */
    assert_int_equal(num(s, "start_nodes"), 30);
    cJSON *ma = cJSON_GetObjectItem(cJSON_GetObjectItem(s, "missions"), "a");
    assert_int_equal(num(ma, "starts"), 15);       /* 11 + 4 */
    assert_true(num(ma, "share") == 0.5);
    cJSON *tt = cJSON_GetObjectItem(cJSON_GetObjectItem(s, "types"), "t");
    assert_int_equal(num(tt, "nodes"), 30);        /* 21 + 9 of 90 */
    assert_true(num(tt, "share") == 0.3333);
    assert_true(num(tt, "target") == 0.3333);
    assert_true(num(s, "mission_max_deviation") == 0);
    assert_true(num(s, "type_tolerance") == 0.08);
    assert_null(cJSON_GetObjectItem(s, "shard"));
    cJSON_Delete(s);
    free(out);
}

/* Merging TEXTS (NAMES) must fail with CB_ERR_DATA and a message holding
 * WHAT. */
static void expect_refused(const char *const *names, char **texts, size_t n, const char *what)
{
    cb_deck_merge *m;
    cb_error err = {CB_OK, "", 0, ""};
    assert_int_equal(cb_deck_merge_new(&m, &err), CB_OK);
    cb_status st = CB_OK;
    for (size_t i = 0; i < n; i++) {
        if (st == CB_OK)
            st = cb_deck_merge_add(m, names[i], texts[i], strlen(texts[i]), &err);
        else
            free(texts[i]);
    }
    char *out = NULL;
    size_t len;
    if (st == CB_OK)
        st = cb_deck_merge_end(m, &out, &len, &err);
    cb_deck_merge_free(m);
    assert_null(out);
    assert_int_equal(st, CB_ERR_DATA);
    if (!strstr(err.message, what))
        fail_msg("\"%s\" not in \"%s\"", what, err.message);
}

static void test_merge_refuses(void **state)
{
    (void)state;
    char l0[512], l1[512], l1b[512], l2[512];
    game_line(l0, sizeof l0, 0, 1, 0, "0000000000000000", "00000000000000a1");
    game_line(l1, sizeof l1, 1, 1, 0, "00000000000000b0", "00000000000000b1");
    game_line(l1b, sizeof l1b, 1, 1, 0, "00000000000000b0", "0000000000000000");
    game_line(l2, sizeof l2, 2, 1, 0, "00000000000000c0", "00000000000000c1");
    const char *names[] = {"x.jsonl", "y.jsonl"};
    char *t[2];
    /* A sheet in two games, the zero hash too. */
    t[0] = manifest(l0, 0, 1, 2, 1, 2, 1, "");
    t[1] = manifest(l1b, 1, 1, 2, 1, 2, 1, "");
    expect_refused(names, t, 2, "game 0 (x.jsonl:1) and game 1 (y.jsonl:1) have the same sheet "
                   "(hash 0000000000000000)");
    /* A gap. */
    t[0] = manifest(l0, 0, 1, 2, 1, 2, 1, "");
    t[1] = manifest(l2, 2, 1, 2, 1, 2, 1, "");
    expect_refused(names, t, 2, "games 1..1 are missing, between x.jsonl and y.jsonl");
    /* A shard's summary that does not match its games. */
    t[0] = manifest(l0, 0, 1, 2, 1, 2, 1, ",\"shard\":{\"index\":1,\"of\":2,\"start\":0,"
                    "\"count\":2}");
    expect_refused(names, t, 1, "x.jsonl:2: shard 1/2 of games 0..1 is not games 0..0");
    /* Shard 1 of 2 alone: shard 0 is missing. */
    t[0] = manifest(l1, 1, 1, 2, 1, 2, 1, ",\"shard\":{\"index\":1,\"of\":2,\"start\":0,"
                    "\"count\":2}");
    expect_refused(names, t, 1, "games 0..0 are missing (shard 0/2 not given), before x.jsonl");
    /* A summary without the counts an older cutboard did not write. */
    char old[1024];
    snprintf(old, sizeof old, "%s{\"summary\":true,\"seed\":\"m\",\"start\":0,\"count\":1,"
             "\"done\":1,\"interrupted\":false,\"type_tolerance\":0.08,\"start_nodes\":2,"
             "\"regular_nodes\":2,\"missions\":{\"a\":{\"share\":1,\"target\":1}},"
             "\"types\":{}}\n", l0);
    t[0] = strdup(old);
    expect_refused(names, t, 1, "x.jsonl:2: missions.a: no \"target\" number and \"starts\" "
                   "count");
    /* Not one JSON object a line: the file and line are named. */
    static const char *const junk[] = {"{\"index\":0\n", "[1]\n", "{} x\n", "\n", "nul\n"};
    for (size_t i = 0; i < sizeof junk / sizeof *junk; i++) {
        t[0] = manifest(junk[i], 0, 1, 2, 1, 2, 1, "");
        if (strcmp(junk[i], "nul\n") == 0) {
            /* A NUL byte inside a line. */
            cb_deck_merge *m;
            cb_error err = {CB_OK, "", 0, ""};
            assert_int_equal(cb_deck_merge_new(&m, &err), CB_OK);
            size_t len = strlen(t[0]);
            t[0][1] = '\0';
            assert_int_equal(cb_deck_merge_add(m, "x.jsonl", t[0], len, &err), CB_ERR_DATA);
            assert_string_equal(err.message, "x.jsonl:1: not a manifest line (one JSON object "
                                             "a line)");
            cb_deck_merge_free(m);
            continue;
        }
        expect_refused(names, t, 1, "x.jsonl:1: not a manifest line");
    }
    /* A game whose seed is not its index's (another deck's line). */
    char moved[512];
    game_line(moved, sizeof moved, 0, 1, 0, "00000000000000f0", "00000000000000f1");
    moved[9] = '1'; /* {"index":1, with seed m#0 */
    t[0] = manifest(l0, 0, 1, 2, 1, 2, 1, "");
    t[1] = manifest(moved, 1, 1, 2, 1, 2, 1, "");
    expect_refused(names, t, 2, "y.jsonl:1: seed \"m#0\" is not game 1's candidate 1 of master "
                   "seed \"m\" (\"m#1\")");
}

/* A deck's manifest (game lines, then the summary) from the library, and
 * each game's seed in SEEDS (room for 8). */
static char *deck_manifest(size_t shard, size_t shards, char seeds[][32])
{
    cb_spec spec;
    cb_spec_defaults(&spec);
    spec.seed = "lib";
    spec.theme = default_theme;
    cb_deck_options opt;
    cb_deck_options_defaults(&opt);
    opt.count = 7;
    opt.jobs = 2;
    opt.shard = shard;
    opt.shards = shards;
    cb_deck *d = NULL;
    cb_error err = {CB_OK, "", 0, ""};
    assert_int_equal(cb_deck_new(&spec, &opt, &d, &err), CB_OK);
    size_t cap = 1 << 16, len = 0, n = 0;
    char *text = malloc(cap);
    assert_non_null(text);
    for (;;) {
        cb_deck_entry e;
        assert_int_equal(cb_deck_next(d, &e, &err), CB_OK);
        if (!e.game)
            break;
        size_t pages[CB_PLAYERS_MAX];
        for (size_t i = 0; i < CB_PLAYERS_MAX; i++)
            pages[i] = i + 1; /* one file per game: the same in any run */
        char *line;
        assert_int_equal(cb_deck_manifest_line(d, &e, "game.pdf", pages, &line, &err), CB_OK);
        assert_true(len + strlen(line) + 2 < cap);
        len += (size_t)sprintf(text + len, "%s\n", line);
        free(line);
        assert_true(n < 8);
        snprintf(seeds[n++], 32, "%s", e.seed);
    }
    char *sum;
    assert_int_equal(cb_deck_summary_line(d, 0, &sum, &err), CB_OK);
    assert_true(len + strlen(sum) + 2 < cap);
    len += (size_t)sprintf(text + len, "%s\n", sum);
    free(sum);
    cb_deck_free(d);
    return text;
}

static void test_library_shards_merge_to_the_deck(void **state)
{
    (void)state;
    char seeds[8][32], shard_seeds[3][8][32];
    char *whole = deck_manifest(0, 0, seeds);
    cb_deck_merge *m;
    cb_error err = {CB_OK, "", 0, ""};
    assert_int_equal(cb_deck_merge_new(&m, &err), CB_OK);
    for (size_t k = 0; k < 3; k++) {
        char *part = deck_manifest(k, 3, shard_seeds[k]);
        char name[16];
        snprintf(name, sizeof name, "shard-%zu", k);
        assert_int_equal(cb_deck_merge_add(m, name, part, strlen(part), &err), CB_OK);
    }
    /* 7 games in 3: 3, 2, 2, each game with the one-run deck's seed. */
    assert_string_equal(shard_seeds[0][2], seeds[2]);
    assert_string_equal(shard_seeds[1][0], seeds[3]);
    assert_string_equal(shard_seeds[2][1], seeds[6]);
    char *merged;
    size_t len;
    assert_int_equal(cb_deck_merge_end(m, &merged, &len, &err), CB_OK);
    cb_deck_merge_free(m);
    assert_string_equal(merged, whole);
    free(merged);
    free(whole);
    /* The library refuses a shard that is not one. */
    cb_spec spec;
    cb_spec_defaults(&spec);
    spec.seed = "lib";
    cb_deck_options opt;
    cb_deck_options_defaults(&opt);
    opt.count = 3;
    opt.shards = 4;
    cb_deck *d = NULL;
    assert_int_equal(cb_deck_new(&spec, &opt, &d, &err), CB_ERR_USAGE);
    assert_string_equal(err.field, "shard");
    assert_string_equal(err.message, "0/4 is not a shard of 3 games");
    opt.shards = 3;
    opt.shard = 3;
    assert_int_equal(cb_deck_new(&spec, &opt, &d, &err), CB_ERR_USAGE);
    assert_null(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_slices_cover_the_deck_in_order),
        cmocka_unit_test_setup_teardown(test_library_shards_merge_to_the_deck,
                                        load_default_theme, free_default_theme),
        cmocka_unit_test(test_merge_recomputes_the_summary),
        cmocka_unit_test(test_merge_refuses),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
