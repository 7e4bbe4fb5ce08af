/* cutboard-theme/3: the game's rules as data. Reads a node type's
 * "effect", a mission's "goal" and the theme's "play" object, and writes the
 * sentences the rules page and the legend print from them, so the printed
 * page and the rules engine read one source. */
#include <cjson/cJSON.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "io/theme.h"

typedef struct {
    const char *name;   /* as the theme file writes it */
    int max_n;          /* 0: takes no number */
    const char *short_one, *short_many; /* legend labels; %d is n */
} effect_word;

static const effect_word effect_words[CB_EFFECT_KINDS] = {
    [CB_EFFECT_NONE] = {"none", 0, "no action", "no action"},
    [CB_EFFECT_STEP] = {"step", 3, "step again", "step %d"},
    [CB_EFFECT_CROSS] = {"cross", 0, "cross", "cross"},
    [CB_EFFECT_JUMP] = {"jump", 4, "jump %d", "jump %d"},
    [CB_EFFECT_CUT] = {"cut", 6, "cut %d", "cut %d"},
    [CB_EFFECT_CUT_ANYWHERE] = {"cut_anywhere", 3, "free cut", "%d free cuts"},
    [CB_EFFECT_GUARD] = {"guard", 4, "guard %d", "guard %d"},
    [CB_EFFECT_SHIELD] = {"shield", 0, "shield", "shield"},
    [CB_EFFECT_CAMP] = {"camp", 0, "camp", "camp"},
    [CB_EFFECT_EXTRA_TURN] = {"extra_turn", 0, "extra turn", "extra turn"},
};

static const char *const goal_words[CB_GOAL_KINDS] = {
    [CB_GOAL_NONE] = "none", [CB_GOAL_VISIT] = "visit", [CB_GOAL_TYPES] = "types",
    [CB_GOAL_SET] = "set", [CB_GOAL_ACTIONS] = "actions", [CB_GOAL_CUT_LOOSE] = "cut_loose"};

const char *cb_effect_name(cb_effect_kind kind)
{
    return kind < CB_EFFECT_KINDS ? effect_words[kind].name : "?";
}

static cb_status bad(cb_error *err, const char *path, const char *where, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static cb_status bad(cb_error *err, const char *path, const char *where, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return cb_fail(err, CB_ERR_DATA, "%s: %s: %s", path, where, msg);
}

/* OBJ[KEY] as a whole number from LO to HI, or FALLBACK when absent
 * (FALLBACK < LO: required). */
static cb_status whole(const cJSON *obj, const char *key, int lo, int hi, int fallback,
                       int *out, const char *path, const char *where, cb_error *err)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v && fallback >= lo) {
        *out = fallback;
        return CB_OK;
    }
    if (!v)
        return bad(err, path, where, "\"%s\" is missing", key);
    if (!cJSON_IsNumber(v) || v->valuedouble != (double)(int)v->valuedouble ||
        v->valuedouble < lo || v->valuedouble > hi)
        return bad(err, path, where, "\"%s\" must be a whole number from %d to %d", key, lo, hi);
    *out = (int)v->valuedouble;
    return CB_OK;
}

static cb_status only_keys(const cJSON *obj, const char *const *keys, const char *path,
                           const char *where, cb_error *err)
{
    for (const cJSON *c = obj->child; c; c = c->next) {
        int found = 0;
        for (int i = 0; keys[i]; i++)
            found |= c->string && strcmp(c->string, keys[i]) == 0;
        if (!found)
            return bad(err, path, where, "unknown key \"%.60s\"", c->string ? c->string : "");
    }
    return CB_OK;
}

cb_status cb_theme_read_effect(const cJSON *obj, const char *path, const char *where,
                               cb_effect *e, cb_error *err)
{
    static const char *const keys[] = {"do", "n", NULL};
    if (!cJSON_IsObject(obj))
        return bad(err, path, where, "\"effect\" must be an object: {\"do\": ..., \"n\": ...}");
    if (only_keys(obj, keys, path, where, err) != CB_OK)
        return CB_ERR_DATA;
    const cJSON *d = cJSON_GetObjectItemCaseSensitive(obj, "do");
    e->kind = CB_EFFECT_KINDS;
    for (int k = 1; cJSON_IsString(d) && k < CB_EFFECT_KINDS; k++)
        if (strcmp(d->valuestring, effect_words[k].name) == 0)
            e->kind = (cb_effect_kind)k;
    if (e->kind == CB_EFFECT_KINDS)
        return bad(err, path, where, "\"effect\".\"do\" must be one of step, cross, jump, cut, "
                                     "cut_anywhere, guard, shield, camp, extra_turn");
    int max = effect_words[e->kind].max_n;
    if (!max) {
        if (cJSON_GetObjectItemCaseSensitive(obj, "n"))
            return bad(err, path, where, "effect \"%s\" takes no \"n\"", effect_words[e->kind].name);
        e->n = 0;
        return CB_OK;
    }
    return whole(obj, "n", 1, max, -1, &e->n, path, where, err);
}

/* A "types" LIST (of a "set" or "actions" goal, or of an "n" entry; LABEL
 * names it in errors) into TYPES and *N_TYPES: names of T's node types, each
 * once. */
static cb_status read_types(const cJSON *list, const cb_theme *t, const char *path,
                            const char *where, const char *label, int *types, int *n_types,
                            cb_error *err)
{
    int n = cJSON_GetArraySize(list);
    if (!cJSON_IsArray(list) || n < 1 || n > CB_GOAL_SET_MAX)
        return bad(err, path, where, "%s needs \"types\": 1 to %d node type names", label,
                   CB_GOAL_SET_MAX);
    *n_types = 0;
    for (int i = 0; i < n; i++) {
        const cJSON *v = cJSON_GetArrayItem(list, i);
        int k = -1;
        for (size_t j = 0; cJSON_IsString(v) && j < t->n_types && k < 0; j++)
            if (strcmp(t->types[j].name, v->valuestring) == 0)
                k = (int)j;
        if (k < 0)
            return bad(err, path, where, "%s: types[%d] is not a node type of the theme", label,
                       i);
        for (int j = 0; j < *n_types; j++)
            if (types[j] == k)
                return bad(err, path, where, "%s: types[%d] (%s) is listed twice", label, i,
                           v->valuestring);
        types[(*n_types)++] = k;
    }
    return CB_OK;
}

/* Entry K of a goal's "n" list, V, for K + 2 players into G: a whole number
 * from LO to HI, or {"n": N, "types": [...]} on a goal that names types (a
 * set then asks at most that entry's types). */
static cb_status read_n_entry(const cJSON *v, int k, const cb_theme *t, const char *path,
                              const char *where, int lo, int hi, cb_goal *g, cb_error *err)
{
    static const char *const keys[] = {"n", "types", NULL};
    int players = k + CB_PLAYERS_MIN;
    char label[64];
    snprintf(label, sizeof label, "goal \"n\"[%d] (%d players)", k, players);
    if (cJSON_IsObject(v)) {
        if (!g->n_types)
            return bad(err, path, where, "%s: an entry with its own \"types\" needs a goal "
                       "that names types (\"set\", or \"actions\" with \"types\")", label);
        if (only_keys(v, keys, path, where, err) != CB_OK)
            return CB_ERR_DATA;
        if (read_types(cJSON_GetObjectItemCaseSensitive(v, "types"), t, path, where, label,
                       g->types_players[players], &g->n_types_players[players], err) != CB_OK)
            return CB_ERR_DATA;
        if (g->kind == CB_GOAL_SET)
            hi = g->n_types_players[players];
        v = cJSON_GetObjectItemCaseSensitive(v, "n");
    }
    if (!cJSON_IsNumber(v) || v->valuedouble != (double)(int)v->valuedouble ||
        v->valuedouble < lo || v->valuedouble > hi)
        return bad(err, path, where, "%s must be a whole number from %d to %d", label, lo, hi);
    g->n_players[players] = (int)v->valuedouble;
    return CB_OK;
}

cb_status cb_theme_read_goal(const cJSON *obj, const cb_theme *t, const char *path,
                             const char *where, cb_goal *g, cb_error *err)
{
    static const char *const keys[] = {"do", "n", "of", "types", "plus", NULL};
    memset(g, 0, sizeof *g);
    if (!cJSON_IsObject(obj))
        return bad(err, path, where, "\"goal\" must be an object: {\"do\": ..., \"n\": ...}");
    if (only_keys(obj, keys, path, where, err) != CB_OK)
        return CB_ERR_DATA;
    const cJSON *d = cJSON_GetObjectItemCaseSensitive(obj, "do");
    g->kind = CB_GOAL_KINDS;
    for (int k = 1; cJSON_IsString(d) && k < CB_GOAL_KINDS; k++)
        if (strcmp(d->valuestring, goal_words[k]) == 0)
            g->kind = (cb_goal_kind)k;
    if (g->kind == CB_GOAL_KINDS)
        return bad(err, path, where, "\"goal\".\"do\" must be one of visit, types, set, actions, "
                                     "cut_loose");
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(obj, "types");
    if (g->kind == CB_GOAL_SET || (g->kind == CB_GOAL_ACTIONS && list)) {
        char label[32];
        snprintf(label, sizeof label, "goal \"%s\"", goal_words[g->kind]);
        if (read_types(list, t, path, where, label, g->types, &g->n_types, err) != CB_OK)
            return CB_ERR_DATA;
        if (g->kind == CB_GOAL_SET && !cJSON_GetObjectItemCaseSensitive(obj, "n")) {
            g->n = g->n_types;
            return CB_OK;
        }
    }
    if (g->kind == CB_GOAL_ACTIONS) {
        const cJSON *of = cJSON_GetObjectItemCaseSensitive(obj, "of");
        if (of && list)
            return bad(err, path, where, "goal \"actions\" takes \"of\" or \"types\", not both");
        if (!list && (!cJSON_IsString(of) || (strcmp(of->valuestring, "cut") != 0 &&
                                              strcmp(of->valuestring, "guard") != 0)))
            return bad(err, path, where, "goal \"actions\" needs \"of\": \"cut\" or \"guard\", "
                                         "or \"types\": node type names");
        g->cut_family = of && strcmp(of->valuestring, "cut") == 0;
    } else if (g->kind != CB_GOAL_SET && list) {
        return bad(err, path, where, "goal \"%s\" takes no \"types\"", goal_words[g->kind]);
    }
    const cJSON *plus = cJSON_GetObjectItemCaseSensitive(obj, "plus");
    if (plus && (!cJSON_IsString(plus) || strcmp(plus->valuestring, "hops") != 0 ||
                 (g->kind != CB_GOAL_VISIT && g->kind != CB_GOAL_ACTIONS)))
        return bad(err, path, where, "goal \"plus\" may only be \"hops\", on a \"visit\" or "
                                     "\"actions\" goal");
    g->plus_hops = plus != NULL;
    int lo = g->plus_hops ? 0 : 1, hi = g->kind == CB_GOAL_SET ? g->n_types : 40;
    const cJSON *n = cJSON_GetObjectItemCaseSensitive(obj, "n");
    if (!cJSON_IsArray(n))
        return whole(obj, "n", lo, hi, -1, &g->n, path, where, err);
    /* one for each player count, 2 to 9 */
    if (cJSON_GetArraySize(n) != CB_PLAYERS_MAX - CB_PLAYERS_MIN + 1)
        return bad(err, path, where, "goal \"n\" as a list needs %d whole numbers, for %d to %d "
                   "players", CB_PLAYERS_MAX - CB_PLAYERS_MIN + 1, CB_PLAYERS_MIN, CB_PLAYERS_MAX);
    for (int k = 0; k <= CB_PLAYERS_MAX - CB_PLAYERS_MIN; k++)
        if (read_n_entry(cJSON_GetArrayItem(n, k), k, t, path, where, lo, hi, g, err) != CB_OK)
            return CB_ERR_DATA;
    g->n_listed = 1;
    g->n = g->n_players[CB_PLAYERS_MIN];
    return CB_OK;
}

cb_status cb_theme_read_play(const cJSON *obj, const char *path, cb_play_rules *p,
                             cb_error *err)
{
    static const char *const keys[] = {"end",    "round_limit", "dots_own",      "calm_rounds",
                                       "rotate", "mission_first", NULL};
    p->end = CB_END_ROUND;
    p->round_limit = 20;
    p->dots_own = 1;
    p->calm_rounds = 0;
    p->mission_first = CB_MISSION_FIRST_NEVER;
    p->rotate = 0;
    if (!obj)
        return CB_OK;
    if (!cJSON_IsObject(obj))
        return bad(err, path, "play", "must be an object");
    if (only_keys(obj, keys, path, "play", err) != CB_OK)
        return CB_ERR_DATA;
    const cJSON *end = cJSON_GetObjectItemCaseSensitive(obj, "end");
    if (end && (!cJSON_IsString(end) || (strcmp(end->valuestring, "first") != 0 &&
                                         strcmp(end->valuestring, "round") != 0)))
        return bad(err, path, "play", "\"end\" must be \"first\" or \"round\"");
    if (end)
        p->end = strcmp(end->valuestring, "first") == 0 ? CB_END_FIRST : CB_END_ROUND;
    const cJSON *rotate = cJSON_GetObjectItemCaseSensitive(obj, "rotate");
    if (rotate && !cJSON_IsBool(rotate))
        return bad(err, path, "play", "\"rotate\" must be true or false");
    p->rotate = rotate && cJSON_IsTrue(rotate);
    static const char *const firsts[] = {"never", "shared", "always"};
    const cJSON *first = cJSON_GetObjectItemCaseSensitive(obj, "mission_first");
    if (first) {
        int k = 0;
        while (k < 3 && !(cJSON_IsString(first) && strcmp(first->valuestring, firsts[k]) == 0))
            k++;
        if (k == 3)
            return bad(err, path, "play", "\"mission_first\" must be \"never\", \"shared\" or "
                                          "\"always\"");
        p->mission_first = (cb_mission_first)k;
    }
    if (whole(obj, "round_limit", 5, 60, 20, &p->round_limit, path, "play", err) != CB_OK ||
        whole(obj, "dots_own", 1, 3, 1, &p->dots_own, path, "play", err) != CB_OK ||
        whole(obj, "calm_rounds", 0, 5, 0, &p->calm_rounds, path, "play", err) != CB_OK)
        return CB_ERR_DATA;
    return CB_OK;
}

/* ---- the sentences ---- */

int cb_effect_is_cut(cb_effect_kind k)
{
    return k == CB_EFFECT_CUT || k == CB_EFFECT_CUT_ANYWHERE;
}

int cb_effect_is_guard(cb_effect_kind k)
{
    return k == CB_EFFECT_GUARD || k == CB_EFFECT_SHIELD;
}

void cb_effect_sentence(const cb_effect *e, char *out, size_t len)
{
    int n = e->n;
    switch (e->kind) {
    case CB_EFFECT_STEP:
        if (n == 1)
            snprintf(out, len, "Move 1 more edge at once; you use that node too.");
        else
            snprintf(out, len, "Move up to %d more edges at once, using those nodes too.", n);
        break;
    case CB_EFFECT_CROSS:
        snprintf(out, len, "Move 1 more edge, a cut one too: draw = across it (mended).");
        break;
    case CB_EFFECT_JUMP:
        snprintf(out, len, "Jump to a node %d edges away, even across cuts (not the summit); "
                 "use it too.", n);
        break;
    case CB_EFFECT_CUT:
        snprintf(out, len, "Cut up to %d printed edges in a row.", n);
        break;
    case CB_EFFECT_CUT_ANYWHERE:
        if (n == 1)
            snprintf(out, len, "Cut 1 printed edge anywhere, even away from other cuts.");
        else
            snprintf(out, len, "Cut %d printed edges anywhere, one at a time.", n);
        break;
    case CB_EFFECT_GUARD:
        snprintf(out, len, "Guard up to %d edges next to you: draw an X on each; never cut.", n);
        break;
    case CB_EFFECT_SHIELD:
        snprintf(out, len, "Until your next turn, no edge touching your node may be cut.");
        break;
    case CB_EFFECT_CAMP:
        snprintf(out, len, "Make camp (circle your dot): if you are ever stranded, you restart "
                 "here.");
        break;
    case CB_EFFECT_EXTRA_TURN:
        snprintf(out, len, "Take another whole turn right after this one.");
        break;
    default:
        snprintf(out, len, "No action.");
    }
}

void cb_effect_short(const cb_effect *e, char *out, size_t len)
{
    const effect_word *w = &effect_words[e->kind < CB_EFFECT_KINDS ? e->kind : 0];
    snprintf(out, len, e->n > 1 ? w->short_many : w->short_one, e->n);
}

/* Whether player count P plays G with types of its own. */
static int own_types(const cb_goal *g, int p)
{
    return g->n_listed && p >= CB_PLAYERS_MIN && p <= CB_PLAYERS_MAX && g->n_types_players[p];
}

/* Whether G's types differ by player count. */
static int types_by_players(const cb_goal *g)
{
    for (int p = CB_PLAYERS_MIN; p <= CB_PLAYERS_MAX; p++)
        if (own_types(g, p))
            return 1;
    return 0;
}

static int by_players(const cb_goal *g)
{
    if (!g->n_listed)
        return 0;
    for (int p = CB_PLAYERS_MIN + 1; p <= CB_PLAYERS_MAX; p++)
        if (g->n_players[p] != g->n_players[CB_PLAYERS_MIN])
            return 1;
    return types_by_players(g);
}

int cb_goal_per_game(const cb_goal *g)
{
    return g->plus_hops || by_players(g);
}

const cb_goal *cb_mission_goal(const cb_mission *m, int shared)
{
    return shared && m->has_shared_goal ? &m->shared_goal : &m->goal;
}

int cb_mission_per_game(const cb_mission *m)
{
    return m->has_shared_goal || cb_goal_per_game(&m->goal);
}

int cb_theme_counts_hops(const cb_theme *t)
{
    for (size_t i = 0; t && i < t->n_missions; i++)
        if (t->missions[i].goal.plus_hops || t->missions[i].shared_goal.plus_hops)
            return 1;
    return 0;
}

int cb_goal_count(const cb_goal *g, int hops, int players)
{
    int n = g->n_listed && players >= CB_PLAYERS_MIN && players <= CB_PLAYERS_MAX
                ? g->n_players[players]
                : g->n;
    return n + (g->plus_hops && hops > 0 ? hops : 0);
}

cb_goal cb_goal_for_game(const cb_goal *g, int hops, int players)
{
    cb_goal out = *g;
    out.n = cb_goal_count(g, hops, players);
    if (own_types(g, players)) {
        out.n_types = g->n_types_players[players];
        memcpy(out.types, g->types_players[players], sizeof out.types);
    }
    out.n_listed = 0;
    out.plus_hops = 0;
    memset(out.n_players, 0, sizeof out.n_players);
    memset(out.n_types_players, 0, sizeof out.n_types_players);
    return out;
}

/* The types a board can have (probability or min above 0) that G leaves
 * out, written into NAMES as "a, b or c"; returns how many, or -1 when
 * there are more than MOST of them, or fewer than five types a board can
 * have. Types no board can have are not named. */
static int left_out(const cb_theme *t, const cb_goal *g, int most, char *names, size_t len)
{
    uint64_t listed = 0;
    for (int i = 0; i < g->n_types; i++)
        listed |= 1ull << (g->types[i] & 63);
    int out_of_set[CB_GOAL_SET_MAX], n_out = 0;
    size_t n_types = 0; /* that a board can have */
    for (size_t k = 0; k < t->n_types && k < 64; k++) {
        if (t->types[k].probability <= 0 && t->types[k].min <= 0)
            continue;
        n_types++;
        if (!(listed >> k & 1) && n_out++ < most)
            out_of_set[n_out - 1] = (int)k;
    }
    if (n_types < 5 || t->n_types > 64 || n_out > most)
        return -1;
    size_t used = 0;
    names[0] = '\0';
    for (int i = 0; i < n_out && used < len; i++)
        used += (size_t)snprintf(names + used, len - used, "%s%s",
                                 i == 0 ? "" : i + 1 == n_out ? " or " : ", ",
                                 t->types[out_of_set[i]].name);
    return n_out;
}

/* A set that names all of the theme's types but one or two is written by
 * the ones it leaves out ("... 8 different types, not counting blade"): a
 * shorter sentence, and the one a player checks a node against. Returns
 * whether it wrote OUT. */
static int set_by_exception(const cb_theme *t, const cb_goal *g, const char *n,
                            const char *then, char *out, size_t len)
{
    char names[2 * 40 + 8];
    if (left_out(t, g, 2, names, sizeof names) < 1)
        return 0;
    snprintf(out, len, "Mark nodes of %s different types, not counting %s, %s", n, names, then);
    return 1;
}

/* Marks on nodes of all but a few types, repeats counting, are written the
 * same way: "Mark 13 nodes, not counting crystal or key, ..." (all of
 * them: "Mark 13 nodes ..."). Returns whether it wrote OUT. */
static int actions_by_exception(const cb_theme *t, const cb_goal *g, const char *n,
                                const char *then, char *out, size_t len)
{
    char names[4 * 40 + 16];
    int n_out = left_out(t, g, 4, names, sizeof names);
    if (n_out < 0 || n_out >= g->n_types)
        return 0;
    if (n_out == 0)
        snprintf(out, len, "Mark %s nodes %s", n, then);
    else
        snprintf(out, len, "Mark %s nodes, not counting %s, %s", n, names, then);
    return 1;
}

/* Appends G's types to OUT (USED of LEN written) as " a, b LAST c";
 * returns the length written so far. */
static size_t name_types(const cb_theme *t, const cb_goal *g, const char *last, char *out,
                         size_t len, size_t used)
{
    for (int i = 0; i < g->n_types && used < len; i++) {
        const char *sep = i == 0 ? " " : i + 1 == g->n_types ? last : ", ";
        used += (size_t)snprintf(out + used, len - used, "%s%s", sep,
                                 t->types[g->types[i]].name);
    }
    return used;
}

void cb_goal_sentence(const cb_theme *t, const cb_goal *goal, int hops, int players, char *out,
                      size_t len)
{
    /* a number the game decides, with the game unknown: the rule for it */
    int no_players = by_players(goal) && (players < CB_PLAYERS_MIN || players > CB_PLAYERS_MAX);
    int no_hops = goal->plus_hops && hops <= 0;
    /* this player count's types (the goal's own, the game unknown) */
    cb_goal typed = *goal;
    if (own_types(goal, players))
        typed = cb_goal_for_game(goal, 0, players);
    const cb_goal *g = &typed;
    char then[200] = "before you enter the summit.", n[16] = "N";
    if (no_players)
        snprintf(then, sizeof then, "before you enter the summit (the game's rules page gives "
                 "N%s).", types_by_players(goal) ? " and the types" : "");
    else if (no_hops && cb_goal_count(goal, 0, players) == 0)
        snprintf(then, sizeof then, "before you enter the summit; N is the number of edges "
                 "from your start to the summit.");
    else if (no_hops)
        snprintf(then, sizeof then, "before you enter the summit; N is %d more than the edges "
                 "from your start to the summit.", cb_goal_count(goal, 0, players));
    else
        snprintf(n, sizeof n, "%d", cb_goal_count(goal, hops, players));
    switch (g->kind) {
    case CB_GOAL_VISIT:
        snprintf(out, len, "Mark %s nodes %s", n, then);
        break;
    case CB_GOAL_TYPES:
        snprintf(out, len, "Mark nodes of %s different types %s", n, then);
        break;
    case CB_GOAL_SET: {
        if (set_by_exception(t, g, n, then, out, len))
            break;
        int all = !no_players && cb_goal_count(goal, hops, players) == g->n_types;
        size_t used = all ? (size_t)snprintf(out, len, "Mark one")
                          : (size_t)snprintf(out, len, "Mark nodes of %s of these types:", n);
        used = name_types(t, g, " and ", out, len, used);
        if (used < len)
            snprintf(out + used, len - used, "%s %s", all ? " node" : ",", then);
        break;
    }
    case CB_GOAL_ACTIONS: {
        if (!g->n_types) {
            snprintf(out, len, "Mark %s nodes whose action %s %s", n,
                     g->cut_family ? "cuts" : "guards or shields", then);
            break;
        }
        if (actions_by_exception(t, g, n, then, out, len))
            break;
        /* marks on these types, repeats counting: "Mark 5 anchor, shield or lantern nodes" */
        size_t used = name_types(t, g, " or ", out, len, (size_t)snprintf(out, len, "Mark %s", n));
        if (used < len)
            snprintf(out + used, len - used, " nodes %s", then);
        break;
    }
    case CB_GOAL_CUT_LOOSE:
    {
        int one = !no_players && cb_goal_count(goal, hops, players) == 1;
        snprintf(out, len, "Cut loose %s piece%s of paper (keep %s) %s", n, one ? "" : "s",
                 one ? "it" : "them", then);
        break;
    }
    default:
        snprintf(out, len, "Reach the summit.");
    }
}

int cb_theme_name_centre(char **text, const char *name)
{
    static const char word[] = "summit";
    size_t wl = sizeof word - 1, nl = strlen(name), count = 0;
    if (!*text || strcmp(name, word) == 0)
        return *text ? 0 : -1;
    for (const char *c = strstr(*text, word); c; c = strstr(c + wl, word))
        count++;
    if (!count)
        return 0;
    char *out = malloc(strlen(*text) + count * nl + 1), *o = out;
    if (!out) {
        free(*text);
        *text = NULL;
        return -1;
    }
    const char *c = *text;
    for (const char *hit = strstr(c, word); hit; hit = strstr(c, word)) {
        memcpy(o, c, (size_t)(hit - c));
        o += hit - c;
        memcpy(o, name, nl);
        o += nl;
        c = hit + wl;
    }
    strcpy(o, c);
    free(*text);
    *text = out;
    return 0;
}

/* Appends the formatted text to the growing string *S (NULL on OOM). */
static void cat(char **s, size_t *used, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void cat(char **s, size_t *used, const char *fmt, ...)
{
    if (!*s)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *grown = realloc(*s, *used + (size_t)n + 1);
    if (!grown) {
        free(*s);
        *s = NULL;
        return;
    }
    *s = grown;
    va_start(ap, fmt);
    vsnprintf(*s + *used, (size_t)n + 1, fmt, ap);
    va_end(ap);
    *used += (size_t)n;
}

static char *start_text(void)
{
    char *s = malloc(1);
    if (s)
        s[0] = 0;
    return s;
}

/* The round track: boxes to tick, in groups of five. */
static void round_track(char **s, size_t *used, int rounds)
{
    for (int r = 0; r < rounds; r++)
        cat(s, used, "%s\u25a1", r == 0 ? "" : r % 5 == 0 ? "  " : "");
}

/* The name of the first node type that makes camp, for the losing rule. */
static const char *camp_names(const cb_theme *t)
{
    for (size_t i = 0; i < t->n_types; i++)
        if (t->types[i].effect.kind == CB_EFFECT_CAMP)
            return t->types[i].name;
    return "camp";
}

/* Writes the rules sections the engine plays by (setup, a turn, cutting,
 * losing paper, winning, power dots) from T's play rules: 0, or -1 out of
 * memory. Every sentence here is a rule gm_turn (src/game/turn.c) plays. */
int cb_theme_write_rules(cb_theme *t)
{
    const cb_play_rules *p = &t->play;
    cb_rules *r = t->rules;
    for (int mode = 0; mode < 2; mode++) { /* 0 shared, 1 own sheets */
        char *s[CB_RULES_SECTIONS] = {NULL};
        size_t u[CB_RULES_SECTIONS] = {0};
        for (int k = CB_RULES_SETUP; k < CB_RULES_SECTIONS; k++)
            s[k] = start_text();
        char **x = &s[CB_RULES_SETUP];
        size_t *n = &u[CB_RULES_SETUP];
        if (mode == 0)
            cat(x, n, "One board for the table. Choose a first player: 1, then clockwise 2, "
                      "3 and on. Put your token on the start rectangle showing your number "
                      "and fill in its dot; its icon is your mission.");
        else
            cat(x, n, "One sheet per player, trimmed along the grey line. Choose a first "
                      "player: 1, then clockwise 2, 3 and on. Take the sheet whose start "
                      "shows your number, put your token on that start and fill in its dot; "
                      "its icon is your mission. You walk only your own sheet; your cuts go "
                      "on a rival's sheet of your choice (say which edges, hand the scissors "
                      "over).");
        x = &s[CB_RULES_TURN], n = &u[CB_RULES_TURN];
        if (p->rotate)
            cat(x, n, "Round 1 begins with player 1, round 2 with player 2, and so on round "
                      "the table; everyone has one turn a round, clockwise. ");
        else
            cat(x, n, "Every round begins with player 1; everyone has one turn, clockwise. ");
        cat(x, n, "On your turn, move your token along one uncut printed edge to a "
                  "neighbouring node. If it has a free dot and none of its dots is yours, "
                  "fill one in: you may then take the node's action (see the legend). "
                  "Tokens may share a node.");
        x = &s[CB_RULES_CUTTING], n = &u[CB_RULES_CUTTING];
        if (p->calm_rounds == 1)
            cat(x, n, "Nobody cuts in round 1: skip cut actions. ");
        else if (p->calm_rounds == 2)
            cat(x, n, "Nobody cuts in rounds 1 and 2: skip cut actions. ");
        else if (p->calm_rounds > 2)
            cat(x, n, "Nobody cuts in rounds 1 to %d: skip cut actions. ", p->calm_rounds);
        cat(x, n, "A cut follows printed edges node to node in one unbroken line from the "
                  "paper's edge (the trim line, an earlier cut, or where paper fell off). "
                  "Never cut edges along the trim line, edges of the summit, guarded (X) or "
                  "mended (=) edges. A cut edge can no longer be walked.");
        x = &s[CB_RULES_LOSING], n = &u[CB_RULES_LOSING];
        cat(x, n, "A piece of paper no longer joined to the summit's piece falls off; whoever "
                  "cut it keeps it, with the marks on it. You are stranded if the paper under "
                  "your token falls, or if no edge from your node can be walked when your "
                  "turn begins. Then, instead of your next move (at once, if it happens in "
                  "your own turn), put your token back on your camp (your latest circled "
                  "%s dot), else your own start, else any start, else any node at the "
                  "paper's edge: the first of these still on the paper with a walkable edge. "
                  "If there is none, you are out.", camp_names(t));
        x = &s[CB_RULES_WINNING], n = &u[CB_RULES_WINNING];
        cat(x, n, "You may enter the summit only with your mission done (count your marks "
                  "still on the paper), or when no node you can still walk to could finish "
                  "it. ");
        int mission_first = p->mission_first == CB_MISSION_FIRST_ALWAYS ||
                            (p->mission_first == CB_MISSION_FIRST_SHARED && mode == 0);
        if (mission_first && p->end == CB_END_FIRST)
            cat(x, n, "The first player to enter it ends the game at once. ");
        else if (mission_first)
            cat(x, n, "Write your mark beside it and finish the round; then the game ends. ");
        else if (p->end == CB_END_FIRST)
            cat(x, n, "The first player to enter it wins. ");
        else
            cat(x, n, "Write your mark beside it and finish the round: of the players on the "
                      "summit, the one with the most marks on the paper wins; players still "
                      "tied share the win. ");
        cat(x, n, "Whoever begins a round ticks the round track: ");
        round_track(x, n, p->round_limit);
        if (mission_first)
            cat(x, n, ". After round %d the game ends anyway. When the game ends, of the "
                      "players with their mission done (else of all), the fewest uncut edges "
                      "from the summit wins (on the summit: 0; stranded: last), then the most "
                      "marks; players still tied share the win.",
                p->round_limit);
        else
            cat(x, n, ". After round %d the game ends anyway: of the players with their "
                      "mission done (else of all), the fewest uncut edges from the summit "
                      "wins (stranded: last), then the most marks; players still tied share "
                      "the win.",
                p->round_limit);
        x = &s[CB_RULES_DOTS], n = &u[CB_RULES_DOTS];
        cat(x, n, "Circles on a node's rim. Fill one in (a filled dot: an X marks a guarded "
                  "edge) to use the node. ");
        if (mode == 0)
            cat(x, n, "Each player uses a node once; a full node gives no action but can be "
                      "passed. ");
        else
            cat(x, n, "You use each node once; a used node gives no action but can be "
                      "passed. ");
        cat(x, n, "Missions count your marks on the paper: marks on fallen paper no longer "
                  "count.");
        int oom = 0;
        for (int k = CB_RULES_SETUP; k < CB_RULES_SECTIONS; k++)
            oom |= !s[k] || cb_theme_name_centre(&s[k], t->center.name) != 0;
        if (oom) { /* nothing handed over yet */
            for (int j = CB_RULES_SETUP; j < CB_RULES_SECTIONS; j++)
                free(s[j]);
            return -1;
        }
        for (int k = CB_RULES_SETUP; k < CB_RULES_SECTIONS; k++) {
            char **slot = mode == 0 ? &r->sections[k].shared : &r->sections[k].own;
            free(*slot);
            *slot = s[k];
        }
    }
    return 0;
}
