/* Fuzz target: the theme loader's parser (cb_theme_parse) on arbitrary
 * bytes, as if they were DIR/theme.json. Icons are not looked up on disk, so
 * every field rule is reached. A theme that loads must keep the loader's
 * promises; one that does not must say why. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cutboard.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cb_theme *t = NULL;
    cb_error err = {CB_OK, "", 0, ""};
    cb_status st = cb_theme_parse((const char *)data, size, "fuzz", 0, &t, &err);
    if (st != CB_OK) {
        if (t || err.status != st || !err.message[0] || strchr(err.message, '\n'))
            abort();
        return 0;
    }
    if (!t || !t->name || t->n_types < 1 || t->n_types > 64 || t->n_missions < 1 ||
        !t->center.icon || strncmp(t->center.icon, "fuzz/", 5) != 0)
        abort();
    double weight = 0;
    for (size_t i = 0; i < t->n_types; i++) {
        const cb_node_type *ty = &t->types[i];
        if (!ty->name[0] || ty->probability < 0 || ty->min > ty->max ||
            ty->min_edge > ty->max_edge || ty->max_run < 1)
            abort();
        for (int c = 0; c < 3; c++)
            if (!(ty->rgb[c] >= 0 && ty->rgb[c] <= 1))
                abort();
        weight += ty->probability;
    }
    if (!(weight > 0))
        abort();
    /* cutboard-theme/2 and /3: every text there, within its limits; /1: none */
    if ((t->version >= 2) != (t->rules != NULL) || t->first_game >= (int)t->n_missions ||
        (t->version == 1 && t->first_game != -1))
        abort();
    for (size_t i = 0; i < t->n_types; i++) {
        const cb_node_type *ty = &t->types[i];
        if ((t->version >= 2) != (ty->action && ty->short_label) ||
            (ty->action && (!ty->action[0] || strlen(ty->action) > 4 * 90)))
            abort();
        /* cutboard-theme/3: every type does something the engine plays */
        if ((t->version == 3) != (ty->effect.kind > CB_EFFECT_NONE) ||
            ty->effect.kind >= CB_EFFECT_KINDS || ty->effect.n < 0)
            abort();
    }
    for (size_t i = 0; i < 2 * t->n_missions; i++) {
        /* each mission's goal, then its shared goal (only on version 3) */
        const cb_mission *m = &t->missions[i / 2];
        const cb_goal *g = i % 2 ? &m->shared_goal : &m->goal;
        if (i % 2 && !m->has_shared_goal) {
            if (g->kind != CB_GOAL_NONE)
                abort();
            continue;
        }
        if (i % 2 && t->version != 3)
            abort();
        if ((t->version == 3) != (g->kind > CB_GOAL_NONE) || g->kind >= CB_GOAL_KINDS ||
            (t->version == 3 && !m->text) || g->n_types > CB_GOAL_SET_MAX)
            abort();
        for (int k = 0; k < g->n_types; k++)
            if (g->types[k] < 0 || (size_t)g->types[k] >= t->n_types)
                abort();
        /* a set asks at most its types; numbers by players stay in range */
        if ((g->kind == CB_GOAL_SET && (g->n < 1 || g->n > g->n_types)) || g->n < 0)
            abort();
        for (int p = 0; p <= CB_PLAYERS_MAX; p++) {
            if (g->n_players[p] < 0 || g->n_players[p] > 40 ||
                (p < CB_PLAYERS_MIN && g->n_players[p] != 0))
                abort();
            /* an entry's own types: only where the goal names types */
            int own = g->n_types_players[p];
            if (own < 0 || own > CB_GOAL_SET_MAX || (own && !g->n_types) ||
                (p < CB_PLAYERS_MIN && own) ||
                (own && g->kind == CB_GOAL_SET && g->n_players[p] > own))
                abort();
            for (int k = 0; k < own; k++)
                if (g->types_players[p][k] < 0 || (size_t)g->types_players[p][k] >= t->n_types)
                    abort();
        }
    }
    if (t->version == 3 && (t->play.round_limit < 5 || t->play.dots_own < 1 ||
                            t->play.mission_first > CB_MISSION_FIRST_ALWAYS))
        abort();
    for (size_t i = 0; t->rules && i < CB_RULES_SECTIONS; i++)
        if (!t->rules->sections[i].heading || !t->rules->sections[i].shared ||
            !t->rules->sections[i].own)
            abort();
    cb_theme_free(t);
    return 0;
}
