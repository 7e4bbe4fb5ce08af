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
    cb_error err = {CB_OK, ""};
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
    /* cutboard-theme/2: every text there, within its limits; /1: none */
    if ((t->version == 2) != (t->rules != NULL) || t->first_game >= (int)t->n_missions ||
        (t->version == 1 && t->first_game != -1))
        abort();
    for (size_t i = 0; i < t->n_types; i++) {
        const cb_node_type *ty = &t->types[i];
        if ((t->version == 2) != (ty->action && ty->short_label) ||
            (ty->action && (!ty->action[0] || strlen(ty->action) > 4 * 90)))
            abort();
    }
    for (size_t i = 0; t->rules && i < CB_RULES_SECTIONS; i++)
        if (!t->rules->sections[i].heading || !t->rules->sections[i].shared ||
            !t->rules->sections[i].own)
            abort();
    cb_theme_free(t);
    return 0;
}
