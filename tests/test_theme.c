/* Tests for the theme loader (cb_theme_load): the default theme, and bad
 * themes written into a scratch folder, each rejected with the right status
 * and a message naming the file and the field at fault. */
#include "test.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cutboard.h"
#include "io/theme.h"

static char dir[64];

static void write_text(const char *name, const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/cutboard-theme-XXXXXX");
    if (!mkdtemp(dir))
        return -1;
    /* The loader only checks that icons exist; decoding is icons.c's job. */
    write_text("a.png", "");
    write_text("b.png", "");
    write_text("c.png", "");
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

#define GOOD_TYPE                                                                        \
    "{\"name\": \"x\", \"icon\": \"a.png\", \"color\": \"#ff8000\", \"probability\": 1, " \
    "\"min\": 0, \"max\": 5, \"min_edge_distance\": 0, \"max_edge_distance\": 1, "      \
    "\"on_edge\": true, \"max_run\": 2}"

/* A theme.json whose node type list is TYPES. */
static void write_theme(const char *types)
{
    char text[4096];
    snprintf(text, sizeof text,
             "{\n"
             "  \"format\": \"cutboard-theme/1\",\n"
             "  \"name\": \"t\",\n"
             "  \"center\": {\"name\": \"c\", \"icon\": \"c.png\", \"color\": \"#000000\"},\n"
             "  \"node_types\": [\n    %s\n  ],\n"
             "  \"missions\": [{\"name\": \"m\", \"icon\": \"b.png\", \"color\": \"#112233\"}]\n"
             "}\n",
             types);
    write_text("theme.json", text);
}

/* Loading fails with STATUS and a message holding every string in WHAT. */
static void expect_error(cb_status status, const char *what1, const char *what2)
{
    cb_theme *t = (cb_theme *)&t; /* must be reset to NULL */
    cb_error err = {CB_OK, "", 0, ""};
    cb_status st = cb_theme_load(dir, &t, &err);
    if (st == CB_OK) {
        cb_theme_free(t);
        fail_msg("the theme loaded; expected status %d naming %s", status, what2 ? what2 : what1);
    }
    if (st != status)
        fail_msg("status %d, expected %d (%s)", st, status, err.message);
    assert_int_equal(err.status, status);
    assert_null(t);
    assert_null(strchr(err.message, '\n'));
    if (what1 && !strstr(err.message, what1))
        fail_msg("\"%s\" not in \"%s\"", what1, err.message);
    if (what2 && !strstr(err.message, what2))
        fail_msg("\"%s\" not in \"%s\"", what2, err.message);
}

static void test_default_theme(void **state)
{
    (void)state;
    cb_theme *t = NULL;
    cb_error err = {CB_OK, "", 0, ""};
    if (cb_theme_load("icons/default", &t, &err) != CB_OK)
        fail_msg("icons/default: %s", err.message);
    assert_string_equal(t->name, "expedition");
    assert_true(t->n_types >= 9);
    assert_true(t->n_missions >= 6);
    assert_string_equal(t->center.name, "summit");
    const cb_node_type *blade = NULL, *crystal = NULL;
    for (size_t i = 0; i < t->n_types; i++) {
        const cb_node_type *ty = &t->types[i];
        if (strcmp(ty->name, "blade") == 0) blade = ty;
        if (strcmp(ty->name, "crystal") == 0) crystal = ty;
        for (size_t j = 0; j < i; j++)
            assert_string_not_equal(ty->name, t->types[j].name);
        assert_true(ty->probability > 0 && ty->min <= ty->max && ty->max_run >= 1);
        assert_true(ty->min_edge >= 0 && ty->min_edge <= ty->max_edge && ty->max_edge <= 1);
        assert_int_equal(access(ty->icon, R_OK), 0);
        for (int c = 0; c < 3; c++)
            assert_true(ty->rgb[c] >= 0 && ty->rgb[c] <= 1);
    }
    for (size_t i = 0; i < t->n_missions; i++)
        assert_int_equal(access(t->missions[i].icon, R_OK), 0);
    assert_int_equal(access(t->center.icon, R_OK), 0);
    /* Values as written in icons/default/theme.json. */
    assert_non_null(blade);
    assert_true(fabs(blade->probability - 0.22) < 1e-12);
    assert_int_equal(blade->min, 6);
    assert_int_equal(blade->max, 30);
    assert_int_equal(blade->max_run, 2);
    assert_true(blade->on_edge);
    assert_true(fabs(blade->rgb[0] - 0xf1 / 255.0) < 1e-12 &&
                fabs(blade->rgb[1] - 0x44 / 255.0) < 1e-12 &&
                fabs(blade->rgb[2] - 0x7d / 255.0) < 1e-12);
    assert_non_null(strstr(blade->icon, "icons/default/blade.png"));
    assert_non_null(crystal);
    assert_false(crystal->on_edge);
    assert_true(fabs(crystal->min_edge - 0.4) < 1e-12);
    assert_int_equal(crystal->max_run, 1);
    cb_theme_free(t);
    cb_theme_free(NULL);
}

/* The default theme is cutboard-theme/3 and carries a complete rule set,
 * written from its effects: every type an effect, an action (distinct,
 * <= 90 characters, naming the effect's number) and a short label of 1-3
 * words, every mission a goal and its sentence, the centre its text, every
 * section of the rules for both modes, and a first-game mission. */
static void test_default_theme_rules(void **state)
{
    (void)state;
    cb_theme *t = NULL;
    cb_error err = {CB_OK, "", 0, ""};
    if (cb_theme_load("icons/default", &t, &err) != CB_OK)
        fail_msg("icons/default: %s", err.message);
    assert_int_equal(t->version, 3);
    assert_non_null(t->rules);
    int cuts = 0, moves = 0, guards = 0;
    for (size_t i = 0; i < t->n_types; i++) {
        const cb_node_type *ty = &t->types[i];
        assert_true(ty->effect.kind > CB_EFFECT_NONE && ty->effect.kind < CB_EFFECT_KINDS);
        if (ty->effect.n > 0) {
            char digits[16];
            snprintf(digits, sizeof digits, "%d", ty->effect.n);
            assert_non_null(strstr(ty->action, digits));
        }
    }
    for (size_t i = 0; i < t->n_missions; i++)
        assert_true(t->missions[i].goal.kind > CB_GOAL_NONE &&
                    t->missions[i].goal.kind < CB_GOAL_KINDS);
    for (size_t i = 0; i < t->n_types; i++) {
        const cb_node_type *ty = &t->types[i];
        assert_non_null(ty->action);
        assert_non_null(ty->short_label);
        assert_true(strlen(ty->action) <= 90 && strlen(ty->action) >= 10);
        assert_true(strlen(ty->short_label) <= 24);
        for (size_t j = 0; j < i; j++) {
            assert_string_not_equal(ty->action, t->types[j].action);
            assert_string_not_equal(ty->short_label, t->types[j].short_label);
        }
        cuts += strstr(ty->action, "Cut") != NULL;
        moves += strstr(ty->action, "Move") != NULL || strstr(ty->action, "Jump") != NULL;
        guards += strstr(ty->action, "uard") != NULL || strstr(ty->action, "cut.") != NULL;
    }
    /* some cut, some move, some protect */
    assert_true(cuts >= 2 && moves >= 2 && guards >= 2);
    for (size_t i = 0; i < t->n_missions; i++) {
        assert_non_null(t->missions[i].text);
        assert_non_null(strstr(t->missions[i].text, "summit"));
    }
    assert_non_null(t->center.text);
    assert_true(t->first_game >= 0 && (size_t)t->first_game < t->n_missions);
    assert_string_equal(t->missions[t->first_game].name, "traveler");
    assert_non_null(t->rules->title);
    assert_non_null(t->rules->summary);
    for (int k = 0; k < CB_RULES_SECTIONS; k++) {
        const cb_rules_section *sec = &t->rules->sections[k];
        assert_non_null(sec->heading);
        assert_non_null(sec->shared);
        assert_non_null(sec->own);
    }
    assert_string_equal(t->rules->sections[CB_RULES_SETUP].heading, "Setup");
    /* the setup differs by mode, and says how the players of separate
     * sheets meet: cuts go on a rival's sheet */
    assert_string_not_equal(t->rules->sections[CB_RULES_SETUP].shared,
                            t->rules->sections[CB_RULES_SETUP].own);
    assert_non_null(strstr(t->rules->sections[CB_RULES_SETUP].own, "rival's sheet"));
    cb_theme_free(t);
}

/* A version 1 theme still loads: no rules, no texts, no first game. */
static void test_version1_has_no_rules(void **state)
{
    (void)state;
    write_theme(GOOD_TYPE);
    cb_theme *t = NULL;
    cb_error err = {CB_OK, "", 0, ""};
    if (cb_theme_load(dir, &t, &err) != CB_OK)
        fail_msg("%s", err.message);
    assert_int_equal(t->version, 1);
    assert_null(t->rules);
    assert_int_equal(t->first_game, -1);
    assert_null(t->types[0].action);
    assert_null(t->types[0].short_label);
    assert_null(t->missions[0].text);
    assert_null(t->center.text);
    cb_theme_free(t);
    /* the /2 keys are not version 1 keys */
    write_theme("{\"name\": \"x\", \"icon\": \"a.png\", \"color\": \"#ff8000\", "
                "\"probability\": 1, \"action\": \"Cut.\"}");
    expect_error(CB_ERR_DATA, "node_types[0]", "\"action\"");
}

#define V2_TYPE(name, extra)                                                              \
    "{\"name\": \"" name "\", \"icon\": \"a.png\", \"color\": \"#ff8000\", "              \
    "\"probability\": 1" extra "}"
#define V2_RULES                                                                          \
    "\"rules\": {\"title\": \"T\", \"summary\": \"S.\", \"need\": \"Paper.\", "          \
    "\"setup\": {\"shared\": \"Pick a start.\", \"own\": \"Take a sheet.\"}, "             \
    "\"turn\": \"Move.\", \"cutting\": \"Cut.\", \"losing\": \"Lose.\", "                 \
    "\"winning\": {\"heading\": \"Victory\", \"text\": \"Win.\"}, \"dots\": \"Dots.\"}"

/* A cutboard-theme/2 file: TYPES, the centre's and mission's fields
 * CENTER and MISSION, and TAIL (top-level keys, each ending in a comma). */
static void write_theme2(const char *types, const char *center, const char *mission,
                         const char *tail)
{
    char text[8192];
    snprintf(text, sizeof text,
             "{\"format\": \"cutboard-theme/2\", \"name\": \"t\", %s\n"
             " \"center\": {\"name\": \"c\", \"icon\": \"c.png\", \"color\": \"#000000\"%s},\n"
             " \"node_types\": [%s],\n"
             " \"missions\": [{\"name\": \"m\", \"icon\": \"b.png\", \"color\": \"#112233\"%s}]}\n",
             tail, center, types, mission);
    write_text("theme.json", text);
}

static const char act[] = ", \"action\": \"Cut 2 edges.\", \"short\": \"cut 2\"";

static void test_version2(void **state)
{
    (void)state;
    char ty[512];
    snprintf(ty, sizeof ty, V2_TYPE("blade", "%s, \"number\": {\"rule\": \"Cut this many.\", "
                                             "\"min\": 1, \"max\": 3}"), act);
    write_theme2(ty, ", \"text\": \"Goal.\"", ", \"goal\": \"Mark it.\"",
                 "\"first_game\": \"m\", " V2_RULES ",");
    cb_theme *t = NULL;
    cb_error err = {CB_OK, "", 0, ""};
    if (cb_theme_load(dir, &t, &err) != CB_OK)
        fail_msg("%s", err.message);
    assert_int_equal(t->version, 2);
    assert_string_equal(t->types[0].action, "Cut 2 edges.");
    assert_string_equal(t->types[0].short_label, "cut 2");
    assert_string_equal(t->types[0].number_rule, "Cut this many.");
    assert_int_equal(t->types[0].number_min, 1);
    assert_int_equal(t->types[0].number_max, 3);
    assert_string_equal(t->missions[0].text, "Mark it.");
    assert_string_equal(t->center.text, "Goal.");
    assert_int_equal(t->first_game, 0);
    assert_string_equal(t->rules->sections[CB_RULES_WINNING].heading, "Victory");
    assert_string_equal(t->rules->sections[CB_RULES_WINNING].own, "Win.");
    assert_string_equal(t->rules->sections[CB_RULES_TURN].heading, "A turn");
    assert_string_equal(t->rules->sections[CB_RULES_SETUP].own, "Take a sheet.");
    assert_null(t->rules->cut_example);
    cb_theme_free(t);
    /* without first_game: -1 */
    snprintf(ty, sizeof ty, V2_TYPE("blade", "%s"), act);
    write_theme2(ty, ", \"text\": \"Goal.\"", ", \"goal\": \"Mark it.\"", V2_RULES ",");
    if (cb_theme_load(dir, &t, &err) != CB_OK)
        fail_msg("%s", err.message);
    assert_int_equal(t->first_game, -1);
    cb_theme_free(t);
}

/* The full example in icons/README.md is a theme that loads. */
static void test_readme_example(void **state)
{
    (void)state;
    FILE *f = fopen("icons/README.md", "rb");
    assert_non_null(f);
    static char text[65536];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = 0;
    char *start = strstr(text, "```json\n");
    assert_non_null(start);
    start += 8;
    char *end = strstr(start, "```");
    assert_non_null(end);
    cb_theme *t = NULL;
    cb_error err = {CB_OK, "", 0, ""};
    if (cb_theme_parse(start, (size_t)(end - start), "icons/example", 0, &t, &err) != CB_OK)
        fail_msg("icons/README.md example: %s", err.message);
    assert_int_equal(t->version, 3);
    assert_int_equal(t->n_types, 2);
    assert_int_equal(t->types[0].effect.kind, CB_EFFECT_CUT);
    assert_int_equal(t->types[0].effect.n, 2);
    assert_string_equal(t->types[0].action, "Cut up to 2 printed edges in a row.");
    assert_string_equal(t->types[1].short_label, "step again"); /* its own label */
    assert_int_equal(t->missions[0].goal.kind, CB_GOAL_VISIT);
    assert_string_equal(t->missions[0].text, "Mark 8 nodes before you enter the peak.");
    assert_non_null(strstr(t->rules->sections[CB_RULES_WINNING].own, "enter the peak only"));
    assert_null(strstr(t->rules->sections[CB_RULES_WINNING].own, "summit"));
    assert_int_equal(t->play.round_limit, 20);
    assert_true(t->play.rotate);
    assert_non_null(strstr(t->rules->sections[CB_RULES_CUTTING].own, "rounds 1 and 2"));
    assert_int_equal(t->first_game, 0);
    cb_theme_free(t);
}

/* The README example with its first OLD replaced by NEW: cb_theme_parse's
 * status, the theme in *OUT. */
static cb_status parse_edited(const char *old, const char *new, cb_theme **out, cb_error *err)
{
    static char text[65536], edited[65536];
    FILE *f = fopen("icons/README.md", "rb");
    assert_non_null(f);
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = 0;
    char *start = strstr(text, "```json\n") + 8, *end = strstr(start, "```");
    *end = 0;
    char *at = strstr(start, old);
    assert_non_null(at);
    snprintf(edited, sizeof edited, "%.*s%s%s", (int)(at - start), start, new, at + strlen(old));
    *out = NULL;
    return cb_theme_parse(edited, strlen(edited), "icons/example", 0, out, err);
}

/* The README example with its mission's goal (and the mission's extra
 * members) set to GOAL. */
static cb_status parse_goal(const char *goal, cb_theme **out, cb_error *err)
{
    return parse_edited("\"goal\": {\"do\": \"visit\", \"n\": 8}", goal, out, err);
}

/* Each REFUSED[i][0] as parse_goal's GOAL is refused, naming the mission
 * and REFUSED[i][1]. */
static void expect_goals_refused(const char *const (*refused)[2], size_t n)
{
    for (size_t i = 0; i < n; i++) {
        cb_theme *t;
        cb_error err = {CB_OK, "", 0, ""};
        if (parse_goal(refused[i][0], &t, &err) != CB_ERR_DATA)
            fail_msg("accepted: %s", refused[i][0]);
        assert_null(t);
        if (!strstr(err.message, refused[i][1]) || !strstr(err.message, "\"runner\""))
            fail_msg("%s: %s", refused[i][0], err.message);
    }
}

/* Numbers a game decides: "plus": "hops" on a visit or actions goal, "n"
 * as a list by player count, a set's "n" of its types; the theme's sentence
 * then gives the rule (each game's page the number). Anything else, or a
 * theme-written text, is refused with the mission named. */
static void test_goal_numbers(void **state)
{
    (void)state;
    cb_theme *t;
    cb_error err = {CB_OK, "", 0, ""};
    if (parse_goal("\"goal\": {\"do\": \"visit\", \"n\": 5, \"plus\": \"hops\"}", &t, &err) !=
        CB_OK)
        fail_msg("%s", err.message);
    assert_true(t->missions[0].goal.plus_hops);
    assert_int_equal(t->missions[0].goal.n, 5);
    assert_string_equal(t->missions[0].text, "Mark N nodes before you enter the peak; N is 5 "
                                             "more than the edges from your start to the peak.");
    cb_theme_free(t);
    if (parse_goal("\"goal\": {\"do\": \"actions\", \"of\": \"cut\", \"n\": 0, \"plus\": "
                   "\"hops\"}", &t, &err) != CB_OK)
        fail_msg("%s", err.message);
    assert_int_equal(t->missions[0].goal.n, 0);
    assert_string_equal(t->missions[0].text, "Mark N nodes whose action cuts before you enter "
                                             "the peak; N is the number of edges from your "
                                             "start to the peak.");
    cb_theme_free(t);
    if (parse_goal("\"goal\": {\"do\": \"visit\", \"n\": [7, 6, 5, 5, 4, 4, 4, 3], \"plus\": "
                   "\"hops\"}", &t, &err) != CB_OK)
        fail_msg("%s", err.message);
    assert_int_equal(t->missions[0].goal.n_players[2], 7);
    assert_int_equal(t->missions[0].goal.n_players[9], 3);
    assert_int_equal(cb_goal_count(&t->missions[0].goal, 5, 9), 8);
    cb_theme_free(t);
    /* a list may ask nothing beyond the route at some player counts */
    if (parse_goal("\"goal\": {\"do\": \"visit\", \"n\": [3, 0, 0, 0, 0, 0, 0, 0], \"plus\": "
                   "\"hops\"}", &t, &err) != CB_OK)
        fail_msg("%s", err.message);
    assert_int_equal(cb_goal_count(&t->missions[0].goal, 5, 2), 8);
    assert_int_equal(cb_goal_count(&t->missions[0].goal, 5, 3), 5);
    assert_string_equal(t->missions[0].text, "Mark N nodes before you enter the peak (the game's "
                                             "rules page gives N).");
    cb_theme_free(t);
    if (parse_goal("\"goal\": {\"do\": \"set\", \"types\": [\"blade\", \"boots\"], \"n\": 1}",
                   &t, &err) != CB_OK)
        fail_msg("%s", err.message);
    assert_int_equal(t->missions[0].goal.n, 1);
    assert_string_equal(t->missions[0].text, "Mark nodes of 1 of these types: blade and boots, "
                                             "before you enter the peak.");
    cb_theme_free(t);
    /* marks on named types, repeats counting */
    if (parse_goal("\"goal\": {\"do\": \"actions\", \"types\": [\"boots\", \"blade\"], "
                   "\"n\": [5, 4, 4, 4, 3, 3, 3, 3]}", &t, &err) != CB_OK)
        fail_msg("%s", err.message);
    assert_int_equal(t->missions[0].goal.n_types, 2);
    assert_int_equal(t->missions[0].goal.types[0], 1); /* boots, the theme's second type */
    assert_int_equal(t->missions[0].goal.types[1], 0);
    char line[200];
    cb_goal_sentence(t, &t->missions[0].goal, 0, 3, line, sizeof line);
    assert_string_equal(line, "Mark 4 boots or blade nodes before you enter the summit.");
    cb_theme_free(t);
    /* an "n" entry naming its own types: that player count's goal */
    if (parse_goal("\"goal\": {\"do\": \"actions\", \"types\": [\"boots\", \"blade\"], "
                   "\"n\": [{\"n\": 3, \"types\": [\"blade\"]}, 5, 5, 5, 5, 5, 5, 5]}", &t,
                   &err) != CB_OK)
        fail_msg("%s", err.message);
    cb_goal_sentence(t, &t->missions[0].goal, 0, 2, line, sizeof line);
    assert_string_equal(line, "Mark 3 blade nodes before you enter the summit.");
    cb_goal_sentence(t, &t->missions[0].goal, 0, 3, line, sizeof line);
    assert_string_equal(line, "Mark 5 boots or blade nodes before you enter the summit.");
    assert_string_equal(t->missions[0].text, "Mark N boots or blade nodes before you enter the "
                                             "peak (the game's rules page gives N and the "
                                             "types).");
    cb_goal two = cb_goal_for_game(&t->missions[0].goal, 0, 2);
    assert_int_equal(two.n, 3);
    assert_int_equal(two.n_types, 1);
    assert_int_equal(two.types[0], 0);
    cb_goal four = cb_goal_for_game(&t->missions[0].goal, 0, 4);
    assert_int_equal(four.n, 5);
    assert_int_equal(four.n_types, 2);
    cb_theme_free(t);
    /* the same number at every count, types of its own at one: still the game's */
    if (parse_goal("\"goal\": {\"do\": \"set\", \"types\": [\"boots\", \"blade\"], "
                   "\"n\": [1, 1, 1, 1, 1, 1, 1, {\"n\": 1, \"types\": [\"boots\"]}]}", &t,
                   &err) != CB_OK)
        fail_msg("%s", err.message);
    cb_goal_sentence(t, &t->missions[0].goal, 0, 9, line, sizeof line);
    assert_string_equal(line, "Mark one boots node before you enter the summit.");
    cb_theme_free(t);
    static const char *const refused[][2] = {
        {"\"goal\": {\"do\": \"visit\", \"n\": [{\"n\": 3, \"types\": [\"blade\"]}, 5, 5, "
         "5, 5, 5, 5, 5]}", "\"n\"[0] (2 players): an entry with its own \"types\" needs a goal"},
        {"\"goal\": {\"do\": \"actions\", \"of\": \"cut\", \"n\": [5, {\"n\": 3, \"types\": "
         "[\"blade\"]}, 5, 5, 5, 5, 5, 5]}", "\"n\"[1] (3 players): an entry with its own"},
        {"\"goal\": {\"do\": \"set\", \"types\": [\"boots\", \"blade\"], \"n\": [{\"n\": 2, "
         "\"types\": [\"blade\"]}, 1, 1, 1, 1, 1, 1, 1]}", "\"n\"[0] (2 players) must be a whole "
         "number from 1 to 1"},
        {"\"goal\": {\"do\": \"actions\", \"types\": [\"blade\"], \"n\": [{\"n\": 2, "
         "\"types\": [\"anvil\"]}, 1, 1, 1, 1, 1, 1, 1]}",
         "goal \"n\"[0] (2 players): types[0] is not a node type"},
        {"\"goal\": {\"do\": \"actions\", \"types\": [\"blade\"], \"n\": [{\"n\": 2, "
         "\"types\": []}, 1, 1, 1, 1, 1, 1, 1]}", "(2 players) needs \"types\": 1 to 16"},
        {"\"goal\": {\"do\": \"actions\", \"types\": [\"blade\"], \"n\": [{\"n\": 2, "
         "\"types\": [\"blade\"], \"twice\": 1}, 1, 1, 1, 1, 1, 1, 1]}", "unknown key \"twice\""},
        {"\"goal\": {\"do\": \"actions\", \"of\": \"cut\", \"types\": [\"blade\"], \"n\": 2}",
         "\"of\" or \"types\", not both"},
        {"\"goal\": {\"do\": \"actions\", \"n\": 2}", "needs \"of\""},
        {"\"goal\": {\"do\": \"actions\", \"types\": [\"blade\", \"blade\"], \"n\": 2}",
         "types[1] (blade) is listed twice"},
        {"\"goal\": {\"do\": \"actions\", \"types\": [\"anvil\"], \"n\": 2}",
         "goal \"actions\": types[0] is not a node type"},
        {"\"goal\": {\"do\": \"visit\", \"types\": [\"blade\"], \"n\": 2}",
         "goal \"visit\" takes no \"types\""},
        {"\"goal\": {\"do\": \"types\", \"n\": 3, \"plus\": \"hops\"}", "\"plus\" may only be"},
        {"\"goal\": {\"do\": \"visit\", \"n\": 3, \"plus\": \"players\"}", "\"plus\" may only be"},
        {"\"goal\": {\"do\": \"cut_loose\", \"n\": 2, \"plus\": \"hops\"}", "\"plus\" may only be"},
        {"\"goal\": {\"do\": \"visit\", \"n\": 0}", "\"n\" must be a whole number from 1"},
        {"\"goal\": {\"do\": \"visit\", \"n\": 41, \"plus\": \"hops\"}", "from 0 to 40"},
        {"\"text\": \"Mark 9.\", \"goal\": {\"do\": \"visit\", \"n\": 3, \"plus\": \"hops\"}",
         "leave out \"text\""},
        {"\"text\": \"Mark 9.\", \"goal\": {\"do\": \"visit\", \"n\": [9, 9, 9, 9, 9, 9, 9, 8]}",
         "leave out \"text\""},
        {"\"goal\": {\"do\": \"visit\", \"n\": [9, 9, 9]}", "needs 8 whole numbers"},
        {"\"goal\": {\"do\": \"visit\", \"n\": [9, 0, 9, 9, 9, 9, 9, 9]}", "\"n\"[1] (3 players)"},
        {"\"goal\": {\"do\": \"set\", \"types\": [\"blade\", \"boots\"], \"n\": 3}",
         "from 1 to 2"},
        {"\"goal\": {\"do\": \"set\", \"types\": [\"a\", \"b\", \"c\", \"d\", \"e\", \"f\", "
         "\"g\", \"h\", \"i\", \"j\", \"k\", \"l\", \"m\", \"n\", \"o\", \"p\", \"q\"]}",
         "1 to 16 node type names"},
    };
    expect_goals_refused(refused, sizeof refused / sizeof refused[0]);
}

/* A mission's "shared_goal": what it asks on a shared board, the "goal" on
 * own sheets; read like a goal, refused (naming it) like one, and the
 * mission's sentence then comes per game. */
static void test_shared_goal(void **state)
{
    (void)state;
    cb_theme *t;
    cb_error err = {CB_OK, "", 0, ""};
    if (parse_goal("\"goal\": {\"do\": \"visit\", \"n\": 5}, \"shared_goal\": {\"do\": "
                   "\"actions\", \"types\": [\"blade\"], \"n\": [3, 3, 3, 3, 4, 3, 3, 3]}",
                   &t, &err) != CB_OK)
        fail_msg("%s", err.message);
    const cb_mission *m = &t->missions[0];
    assert_true(m->has_shared_goal);
    assert_true(cb_mission_per_game(m));
    assert_false(cb_goal_per_game(&m->goal));
    assert_ptr_equal(cb_mission_goal(m, 0), &m->goal);
    assert_ptr_equal(cb_mission_goal(m, 1), &m->shared_goal);
    assert_int_equal(cb_goal_count(cb_mission_goal(m, 0), 0, 6), 5);
    assert_int_equal(cb_goal_count(cb_mission_goal(m, 1), 0, 6), 4);
    assert_int_equal(cb_goal_count(cb_mission_goal(m, 1), 0, 5), 3);
    /* no game known: both sentences */
    assert_string_equal(m->text, "On your own sheet: Mark 5 nodes before you enter the peak. "
                                 "On a shared board: Mark N blade nodes before you enter the "
                                 "peak (the game's rules page gives N).");
    cb_theme_free(t);
    /* the same sentence either way: written once */
    if (parse_goal("\"goal\": {\"do\": \"visit\", \"n\": [5, 5, 5, 5, 5, 5, 5, 4]}, "
                   "\"shared_goal\": {\"do\": \"visit\", \"n\": [5, 5, 5, 5, 4, 5, 5, 4]}",
                   &t, &err) != CB_OK)
        fail_msg("%s", err.message);
    assert_string_equal(t->missions[0].text, "Mark N nodes before you enter the peak (the "
                                             "game's rules page gives N).");
    cb_theme_free(t);
    /* without one, a shared board plays the goal */
    if (parse_goal("\"goal\": {\"do\": \"visit\", \"n\": 5}", &t, &err) != CB_OK)
        fail_msg("%s", err.message);
    assert_false(t->missions[0].has_shared_goal);
    assert_false(cb_mission_per_game(&t->missions[0]));
    assert_ptr_equal(cb_mission_goal(&t->missions[0], 1), &t->missions[0].goal);
    cb_theme_free(t);
    static const char *const refused[][2] = {
        {"\"goal\": {\"do\": \"visit\", \"n\": 5}, \"shared_goal\": {\"do\": \"visit\", "
         "\"n\": 0}", "\"shared_goal\": \"n\" must be a whole number from 1"},
        {"\"goal\": {\"do\": \"visit\", \"n\": 5}, \"shared_goal\": 4",
         "\"shared_goal\": \"goal\" must be an object"},
        {"\"goal\": {\"do\": \"visit\", \"n\": 5}, \"shared_goal\": {\"do\": \"set\", "
         "\"types\": [\"anvil\"]}", "types[0] is not a node type"},
        {"\"text\": \"Mark 5.\", \"goal\": {\"do\": \"visit\", \"n\": 5}, "
         "\"shared_goal\": {\"do\": \"visit\", \"n\": 4}", "leave out \"text\""},
    };
    expect_goals_refused(refused, sizeof refused / sizeof refused[0]);
}

/* "mission_first": on a shared board (or always) a done mission beats an
 * undone player on the summit, and that board's winning rules say so. */
static void test_mission_first(void **state)
{
    (void)state;
    static const char *const values[] = {"never", "shared", "always"};
    const char *ranked = "of the players with their mission done (else of all), the fewest "
                         "uncut edges from the peak wins (on the peak: 0;";
    for (int k = 0; k < 3; k++) {
        cb_theme *t;
        cb_error err = {CB_OK, "", 0, ""};
        char play[80];
        snprintf(play, sizeof play, "\"rotate\": true, \"mission_first\": \"%s\"}", values[k]);
        if (parse_edited("\"rotate\": true}", play, &t, &err) != CB_OK)
            fail_msg("%s: %s", values[k], err.message);
        assert_int_equal((int)t->play.mission_first, k);
        const cb_rules_section *win = &t->rules->sections[CB_RULES_WINNING];
        assert_true((strstr(win->shared, ranked) != NULL) == (k >= 1));
        assert_true((strstr(win->own, ranked) != NULL) == (k == 2));
        assert_true((strstr(win->shared, "of the players on the peak") != NULL) == (k == 0));
        cb_theme_free(t);
    }
    cb_theme *t;
    cb_error err = {CB_OK, "", 0, ""};
    assert_int_equal(parse_edited("\"rotate\": true}", "\"rotate\": true, \"mission_first\": 1}",
                                  &t, &err),
                     CB_ERR_DATA);
    assert_null(t);
    assert_non_null(strstr(err.message, "\"mission_first\" must be \"never\""));
}

/* A set of all the theme's types but one or two, and marks on all of them
 * but up to four, are written by the ones left out (marks on all of them
 * as any marks); fewer types are listed. */
static void test_goal_sentences(void **state)
{
    (void)state;
    cb_theme *t = NULL;
    cb_error err = {CB_OK, "", 0, ""};
    if (cb_theme_load("icons/default", &t, &err) != CB_OK)
        fail_msg("icons/default: %s", err.message);
    static const struct {
        cb_goal_kind kind;
        int left_out, n;
        const char *sentence;
    } cases[] = {
        {CB_GOAL_SET, 1, 8, "Mark nodes of 8 different types, not counting blade, before you "
                            "enter the summit."},
        {CB_GOAL_SET, 2, 7, "Mark nodes of 7 different types, not counting blade or lantern, "
                            "before you enter the summit."},
        {CB_GOAL_SET, 3, 2, "Mark nodes of 2 of these types: tent, crystal, bridge, anchor, key, "
                            "shield and hourglass, before you enter the summit."},
        {CB_GOAL_ACTIONS, 0, 13, "Mark 13 nodes before you enter the summit."},
        {CB_GOAL_ACTIONS, 1, 12, "Mark 12 nodes, not counting blade, before you enter the "
                                 "summit."},
        {CB_GOAL_ACTIONS, 4, 9, "Mark 9 nodes, not counting blade, lantern, compass or tent, "
                                "before you enter the summit."},
        {CB_GOAL_ACTIONS, 5, 6, "Mark 6 bridge, anchor, key, shield or hourglass nodes before "
                                "you enter the summit."},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        cb_goal g = {.kind = cases[c].kind, .n = cases[c].n};
        for (size_t k = (size_t)cases[c].left_out; k < t->n_types; k++)
            g.types[g.n_types++] = (int)k;
        char text[1024];
        cb_goal_sentence(t, &g, 0, 4, text, sizeof text);
        assert_string_equal(text, cases[c].sentence);
    }
    cb_theme_free(t);
}

/* Each /2 error names the type, mission, section or field at fault. */
static void test_version2_errors(void **state)
{
    (void)state;
    char ty[512];
    const char *ctr = ", \"text\": \"Goal.\"", *mis = ", \"goal\": \"Mark it.\"";
    /* a type without "action" names the type */
    write_theme2(V2_TYPE("lantern", ", \"short\": \"step\""), ctr, mis, V2_RULES ",");
    expect_error(CB_ERR_DATA, "\"lantern\"", "\"action\" is missing");
    write_theme2(V2_TYPE("lantern", ", \"action\": \"Step.\""), ctr, mis, V2_RULES ",");
    expect_error(CB_ERR_DATA, "\"lantern\"", "\"short\" is missing");
    /* too long an action; too many words in the short label */
    write_theme2(V2_TYPE("blade", ", \"short\": \"cut\", \"action\": \"Cut 2 printed edges in a row, "
                                  "then cut 2 more, then take another turn and cut 2 more again.\""),
                 ctr, mis, V2_RULES ",");
    expect_error(CB_ERR_DATA, "\"blade\"", "longer than the 90");
    /* a name a mission's sentence could not hold */
    snprintf(ty, sizeof ty, V2_TYPE("a-very-long-name-for-a-node-type!", "%s"), act);
    write_theme2(ty, ctr, mis, V2_RULES ",");
    expect_error(CB_ERR_DATA, "node_types[0]", "\"name\" is 33 characters, longer than the 32");
    write_theme2(V2_TYPE("blade", ", \"short\": \"cut two edges now\", \"action\": \"Cut.\""), ctr,
                 mis, V2_RULES ",");
    expect_error(CB_ERR_DATA, "\"blade\"", "\"short\" must be 1 to 3 words");
    /* a mission without its goal; the centre without its text */
    snprintf(ty, sizeof ty, V2_TYPE("blade", "%s"), act);
    write_theme2(ty, ctr, "", V2_RULES ",");
    expect_error(CB_ERR_DATA, "mission \"m\"", "\"goal\" is missing");
    write_theme2(ty, "", mis, V2_RULES ",");
    expect_error(CB_ERR_DATA, "centre \"c\"", "\"text\" is missing");
    /* no rules; a missing section; one mode only; an unknown mission */
    write_theme2(ty, ctr, mis, "");
    expect_error(CB_ERR_DATA, "\"rules\" is missing", NULL);
    write_theme2(ty, ctr, mis,
                 "\"rules\": {\"title\": \"T\", \"summary\": \"S.\", \"need\": \"P.\", "
                 "\"setup\": \"S.\", \"turn\": \"M.\", \"cutting\": \"C.\", \"winning\": \"W.\", "
                 "\"dots\": \"D.\"},");
    expect_error(CB_ERR_DATA, "rules", "section \"losing\" is missing");
    write_theme2(ty, ctr, mis,
                 "\"rules\": {\"title\": \"T\", \"summary\": \"S.\", \"need\": \"P.\", "
                 "\"setup\": {\"shared\": \"S.\"}, \"turn\": \"M.\", \"cutting\": \"C.\", "
                 "\"losing\": \"L.\", \"winning\": \"W.\", \"dots\": \"D.\"},");
    expect_error(CB_ERR_DATA, "rules.setup", "\"own\"");
    write_theme2(ty, ctr, mis, "\"first_game\": \"nobody\", " V2_RULES ",");
    expect_error(CB_ERR_DATA, "first_game", "missions");
    /* a bad number */
    snprintf(ty, sizeof ty, V2_TYPE("blade", "%s, \"number\": {\"rule\": \"N.\", \"min\": 3, "
                                             "\"max\": 1}"), act);
    write_theme2(ty, ctr, mis, V2_RULES ",");
    expect_error(CB_ERR_DATA, "number (node type \"blade\")", "min <= max");
    /* a line break inside a text */
    snprintf(ty, sizeof ty, V2_TYPE("blade", ", \"short\": \"cut\", \"action\": \"Cut\\n2.\""));
    write_theme2(ty, ctr, mis, V2_RULES ",");
    expect_error(CB_ERR_DATA, "\"blade\"", "control character");
    /* text the PDF font cannot show */
    snprintf(ty, sizeof ty, V2_TYPE("blade", ", \"short\": \"cut\", \"action\": \"Cut \xF0\x9F\x98\x80.\""));
    write_theme2(ty, ctr, mis, V2_RULES ",");
    expect_error(CB_ERR_DATA, "\"blade\"", "beyond U+FFFF");
}

static void test_minimal_type_defaults(void **state)
{
    (void)state;
    write_theme("{\"name\": \"x\", \"icon\": \"a.png\", \"color\": \"#FFFFFF\", "
                "\"probability\": 0.5}");
    cb_theme *t = NULL;
    cb_error err = {CB_OK, "", 0, ""};
    if (cb_theme_load(dir, &t, &err) != CB_OK)
        fail_msg("%s", err.message);
    assert_int_equal(t->n_types, 1);
    assert_int_equal(t->n_missions, 1);
    const cb_node_type *ty = &t->types[0];
    assert_int_equal(ty->min, 0);
    assert_true(ty->max >= 1000);       /* no limit */
    assert_true(ty->max_run >= 1000);
    assert_true(ty->on_edge);
    assert_true(ty->min_edge == 0 && ty->max_edge == 1);
    assert_true(ty->rgb[0] == 1 && ty->rgb[1] == 1 && ty->rgb[2] == 1);
    cb_theme_free(t);
}

static void test_bad_node_types(void **state)
{
    (void)state;
    static const struct { const char *type, *field; } cases[] = {
        {"{\"name\": \"x\", \"icon\": \"a.png\", \"color\": \"#ff8000\", \"probability\": \"high\"}",
         "probability"},
        {"{\"name\": \"x\", \"icon\": \"a.png\", \"color\": \"#ff8000\", \"probability\": -0.5}",
         "probability"},
        {"{\"name\": \"x\", \"icon\": \"a.png\", \"color\": \"#ff8000\"}", "probability"},
        {"{\"name\": \"x\", \"icon\": \"a.png\", \"color\": \"#ff8000\", \"probability\": 1, "
         "\"min\": 5, \"max\": 2}", "min"},
        {"{\"name\": \"x\", \"icon\": \"a.png\", \"color\": \"#ff8000\", \"probability\": 1, "
         "\"colour\": \"#ff0000\"}", "colour"},
        {"{\"name\": \"x\", \"icon\": \"a.png\", \"color\": \"#ff8000\", \"probability\": 1, "
         "\"on_edge\": \"yes\"}", "on_edge"},
        {"{\"name\": \"x\", \"icon\": \"a.png\", \"color\": \"#ff8000\", \"probability\": 1, "
         "\"max_run\": 0}", "max_run"},
        {"{\"name\": \"x\", \"icon\": \"a.png\", \"color\": \"#ff8000\", \"probability\": 1, "
         "\"min_edge_distance\": 1.5}", "min_edge_distance"},
        {"{\"name\": \"x\", \"icon\": \"a.png\", \"color\": \"#ff8000\", \"probability\": 1, "
         "\"min_edge_distance\": 0.8, \"max_edge_distance\": 0.2}", "min_edge_distance"},
        {"{\"name\": \"x\", \"icon\": \"a.png\", \"color\": \"#ff8000\", \"probability\": 1, "
         "\"max\": \"many\"}", "max"},
        {"{\"name\": \"x\", \"icon\": \"a.png\", \"color\": \"red\", \"probability\": 1}", "color"},
        {"{\"name\": 3, \"icon\": \"a.png\", \"color\": \"#ff8000\", \"probability\": 1}", "name"},
        {"{\"name\": \"\", \"icon\": \"a.png\", \"color\": \"#ff8000\", \"probability\": 1}", "name"},
        {"{\"name\": \"x\", \"icon\": \"../a.png\", \"color\": \"#ff8000\", \"probability\": 1}",
         "icon"},
        {"{\"name\": \"x\", \"icon\": \"a.png\", \"color\": \"#ff8000\", \"probability\": 0}",
         "probabilit"}, /* all weights zero */
        {"\"just a string\"", "node_types[0]"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        write_theme(cases[i].type);
        expect_error(CB_ERR_DATA, "theme.json", cases[i].field);
    }
    /* The index of the bad entry is named. */
    write_theme(GOOD_TYPE ",\n    {\"name\": \"g2\", \"icon\": \"b.png\", \"color\": \"#0080ff\", "
                "\"probability\": 1},\n    {\"name\": \"y\"}");
    expect_error(CB_ERR_DATA, "node_types[2]", NULL);
}

/* icons/README.md: every entry's name is unique in the theme; a board file
 * naming a type "lantern" must mean one set of rules. */
static void test_duplicate_type_name(void **state)
{
    (void)state;
    write_theme("{\"name\": \"lantern\", \"icon\": \"a.png\", \"color\": \"#ff8000\", "
                "\"probability\": 1},\n    "
                "{\"name\": \"lantern\", \"icon\": \"b.png\", \"color\": \"#0080ff\", "
                "\"probability\": 2, \"max_run\": 1}");
    expect_error(CB_ERR_DATA, "theme.json", "lantern");
}

static void test_bad_top_level(void **state)
{
    (void)state;
    write_text("theme.json", "{\"format\": \"cutboard-theme/9\", \"name\": \"t\"}\n");
    expect_error(CB_ERR_DATA, "theme.json", "format");
    write_text("theme.json", "{\"name\": \"t\"}\n");
    expect_error(CB_ERR_DATA, "theme.json", "format");
    write_text("theme.json", "[1, 2, 3]\n");
    expect_error(CB_ERR_DATA, "theme.json", NULL);
    write_theme("");
    expect_error(CB_ERR_DATA, "theme.json", "node_types");
    write_text("theme.json",
               "{\"format\": \"cutboard-theme/1\", \"name\": \"t\", \"author\": \"me\",\n"
               " \"center\": {\"name\": \"c\", \"icon\": \"c.png\", \"color\": \"#000000\"},\n"
               " \"node_types\": [" GOOD_TYPE "],\n"
               " \"missions\": [{\"name\": \"m\", \"icon\": \"b.png\", \"color\": \"#112233\"}]}\n");
    expect_error(CB_ERR_DATA, "theme.json", "author");
}

static void test_invalid_json_names_line(void **state)
{
    (void)state;
    /* Line 3 has a stray character. */
    write_text("theme.json",
               "{\n  \"format\": \"cutboard-theme/1\",\n  \"name\": @\"t\",\n  \"center\": {}\n}\n");
    expect_error(CB_ERR_DATA, "theme.json:3", NULL);
    /* Line 6: the object never ends. */
    write_text("theme.json", "{\n  \"format\": \"cutboard-theme/1\",\n\n\n  \"name\": \"t\"\n");
    expect_error(CB_ERR_DATA, "theme.json:", NULL);
    write_text("theme.json", "");
    expect_error(CB_ERR_DATA, "theme.json", NULL);
}

static void test_missing_icon(void **state)
{
    (void)state;
    write_theme("{\"name\": \"x\", \"icon\": \"nothere.png\", \"color\": \"#ff8000\", "
                "\"probability\": 1}");
    expect_error(CB_ERR_NOINPUT, "nothere.png", "theme.json");
    /* A folder where an icon should be is not an icon. */
    char sub[128];
    snprintf(sub, sizeof sub, "%s/folder.png", dir);
    assert_int_equal(mkdir(sub, 0755), 0);
    write_theme("{\"name\": \"x\", \"icon\": \"folder.png\", \"color\": \"#ff8000\", "
                "\"probability\": 1}");
    expect_error(CB_ERR_NOINPUT, "folder.png", NULL);
    rmdir(sub);
}

static void test_missing_folder_or_file(void **state)
{
    (void)state;
    cb_theme *t = (cb_theme *)&t;
    cb_error err = {CB_OK, "", 0, ""};
    assert_int_equal(cb_theme_load("/nonexistent/theme", &t, &err), CB_ERR_NOINPUT);
    assert_null(t);
    assert_non_null(strstr(err.message, "/nonexistent/theme"));
    /* A folder without theme.json. */
    char empty[80];
    snprintf(empty, sizeof empty, "%s/empty", dir);
    assert_int_equal(mkdir(empty, 0755), 0);
    t = (cb_theme *)&t;
    assert_int_equal(cb_theme_load(empty, &t, &err), CB_ERR_NOINPUT);
    assert_null(t);
    assert_non_null(strstr(err.message, "theme.json"));
    rmdir(empty);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_default_theme),
        cmocka_unit_test(test_default_theme_rules),
        cmocka_unit_test(test_version1_has_no_rules),
        cmocka_unit_test(test_version2),
        cmocka_unit_test(test_version2_errors),
        cmocka_unit_test(test_readme_example),
        cmocka_unit_test(test_goal_numbers),
        cmocka_unit_test(test_shared_goal),
        cmocka_unit_test(test_mission_first),
        cmocka_unit_test(test_goal_sentences),
        cmocka_unit_test(test_minimal_type_defaults),
        cmocka_unit_test(test_bad_node_types),
        cmocka_unit_test(test_duplicate_type_name),
        cmocka_unit_test(test_bad_top_level),
        cmocka_unit_test(test_invalid_json_names_line),
        cmocka_unit_test(test_missing_icon),
        cmocka_unit_test(test_missing_folder_or_file),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
