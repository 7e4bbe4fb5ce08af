/* --obj FILE: a game's sheets as OBJ files; see cli.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

void cli_obj_free(cli_output *outs, size_t n)
{
    for (size_t k = 0; outs && k < n; k++) {
        free((char *)outs[k].path);
        free((void *)outs[k].data);
    }
    free(outs);
}

cb_status cli_obj_outputs(const cb_game *g, const cb_theme *theme, const char *path,
                          cli_output **out, cb_error *err)
{
    *out = calloc(g->n_sheets ? g->n_sheets : 1, sizeof **out);
    if (!*out) {
        snprintf(err->message, sizeof err->message, "out of memory");
        return err->status = CB_ERR_INTERNAL;
    }
    const char *slash = strrchr(path, '/'), *dot = strrchr(path, '.');
    size_t stem = dot && (!slash || dot > slash) && dot != path ? (size_t)(dot - path)
                                                                  : strlen(path);
    for (size_t k = 0; k < g->n_sheets; k++) {
        char *obj = NULL;
        cb_status st = cb_obj_render(g, k, theme, &obj, err);
        size_t len = strlen(path) + 24;
        char *p = st == CB_OK ? malloc(len) : NULL;
        if (st == CB_OK && !p) {
            snprintf(err->message, sizeof err->message, "out of memory");
            st = err->status = CB_ERR_INTERNAL;
        }
        if (st != CB_OK) {
            free(obj);
            cli_obj_free(*out, k);
            *out = NULL;
            return st;
        }
        if (g->n_sheets == 1)
            snprintf(p, len, "%s", path);
        else
            snprintf(p, len, "%.*s-%zu%s", (int)stem, path, k + 1, path + stem);
        (*out)[k] = (cli_output){p, obj, strlen(obj)};
    }
    return CB_OK;
}
