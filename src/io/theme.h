/* Theme look-ups for the readers of board files. Internal. */
#ifndef CB_THEME_H
#define CB_THEME_H

#include "cutboard.h"

/* A theme's node type or mission by name; -1 when THEME is NULL or has none. */
int cb_theme_type_index(const cb_theme *theme, const char *name);
int cb_theme_mission_index(const cb_theme *theme, const char *name);

/* cutboard-theme/3 (theme_play.c): the rules as data. Readers fill their
 * struct from a cJSON object and name PATH and WHERE in their one-line error. */
struct cJSON;
cb_status cb_theme_read_effect(const struct cJSON *obj, const char *path, const char *where,
                               cb_effect *e, cb_error *err);
cb_status cb_theme_read_goal(const struct cJSON *obj, const cb_theme *t, const char *path,
                             const char *where, cb_goal *g, cb_error *err);
cb_status cb_theme_read_play(const struct cJSON *obj, const char *path, cb_play_rules *p,
                             cb_error *err);
/* The effect's name in a theme file ("cut"). */
const char *cb_effect_name(cb_effect_kind kind);
/* Whether a node with this effect cuts (cut, cut_anywhere) or guards
 * (guard, shield): what a mission of "actions" counts. */
int cb_effect_is_cut(cb_effect_kind kind);
int cb_effect_is_guard(cb_effect_kind kind);
/* The printed sentences: a node's action and legend label, a mission's goal. */
void cb_effect_sentence(const cb_effect *e, char *out, size_t len);
void cb_effect_short(const cb_effect *e, char *out, size_t len);
/* HOPS: the game's start-to-centre hops for a goal counted from them, and
 * PLAYERS its player count for a goal that gives a number for each; 0 when
 * unknown (a deck's one rules page: the sentence says how to count, or
 * that each game's page gives the number). */
void cb_goal_sentence(const cb_theme *t, const cb_goal *g, int hops, int players, char *out,
                      size_t len);
/* How many a goal asks for in a game of PLAYERS whose starts are HOPS from
 * the centre. */
int cb_goal_count(const cb_goal *g, int hops, int players);
/* The goal as a game of PLAYERS whose starts are HOPS from the centre plays
 * it: its number counted (cb_goal_count) and that player count's types. */
cb_goal cb_goal_for_game(const cb_goal *g, int hops, int players);
/* Whether the goal's number or types are the game's (from its hops or
 * player count). */
int cb_goal_per_game(const cb_goal *g);
/* The goal M plays: on a shared board (SHARED) its "shared_goal" when the
 * theme gives one, else its goal. */
const cb_goal *cb_mission_goal(const cb_mission *m, int shared);
/* Whether M's goal is the game's: per game (cb_goal_per_game) or another
 * on a shared board. */
int cb_mission_per_game(const cb_mission *m);
/* Whether any of T's goals counts from the route length (cb_game_route_hops
 * is then worth its search). */
int cb_theme_counts_hops(const cb_theme *t);
/* Puts NAME (the centre's) for "summit" in the malloc'd *TEXT that the
 * sentences above wrote; 0, or -1 out of memory (*TEXT then freed). */
int cb_theme_name_centre(char **text, const char *name);
/* Writes T's rules sections from its play rules; -1 out of memory. */
int cb_theme_write_rules(cb_theme *t);

#endif
