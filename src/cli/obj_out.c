/* --obj FILE and SVG output: a game's sheets as one file each; see cli.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"

void cli_obj_free(cli_output *outs, size_t n)
{
    for (size_t k = 0; outs && k < n; k++) {
        free((char *)outs[k].path);
        free((void *)outs[k].data);
    }
    free(outs);
}

/* Sheet K of G as text in *OUT (*LEN bytes), in the format of a writer. */
typedef cb_status (*sheet_writer)(const cb_game *g, size_t k, const cb_theme *theme,
                                  const cb_render_options *opt, char **out, size_t *len,
                                  cb_error *err);

static cb_status write_obj(const cb_game *g, size_t k, const cb_theme *theme,
                           const cb_render_options *opt, char **out, size_t *len, cb_error *err)
{
    (void)opt;
    cb_status st = cb_obj_render(g, k, theme, out, err);
    *len = st == CB_OK ? strlen(*out) : 0;
    return st;
}

/* One file per sheet: PATH itself for one sheet, else PATH with "-K"
 * before its extension for sheet K. */
static cb_status sheet_outputs(const cb_game *g, const cb_theme *theme,
                               const cb_render_options *opt, const char *path,
                               sheet_writer writer, cli_output **out, cb_error *err)
{
    *out = calloc(g->n_sheets ? g->n_sheets : 1, sizeof **out);
    if (!*out) {
        snprintf(err->message, sizeof err->message, "out of memory");
        return err->status = CB_ERR_NOMEM;
    }
    const char *slash = strrchr(path, '/'), *dot = strrchr(path, '.');
    size_t stem = dot && (!slash || dot > slash) && dot != path ? (size_t)(dot - path)
                                                                  : strlen(path);
    for (size_t k = 0; k < g->n_sheets; k++) {
        char *text = NULL;
        size_t text_len = 0;
        cb_status st = writer(g, k, theme, opt, &text, &text_len, err);
        size_t len = strlen(path) + 24;
        char *p = st == CB_OK ? malloc(len) : NULL;
        if (st == CB_OK && !p) {
            snprintf(err->message, sizeof err->message, "out of memory");
            st = err->status = CB_ERR_NOMEM;
        }
        if (st != CB_OK) {
            free(text);
            cli_obj_free(*out, k);
            *out = NULL;
            return st;
        }
        if (g->n_sheets == 1)
            snprintf(p, len, "%s", path);
        else
            snprintf(p, len, "%.*s-%zu%s", (int)stem, path, k + 1, path + stem);
        (*out)[k] = (cli_output){p, text, text_len};
    }
    return CB_OK;
}

cb_status cli_obj_outputs(const cb_game *g, const cb_theme *theme, const char *path,
                          cli_output **out, cb_error *err)
{
    return sheet_outputs(g, theme, NULL, path, write_obj, out, err);
}

cb_status cli_svg_outputs(const cb_game *g, const cb_theme *theme, const cb_render_options *opt,
                          const char *path, cli_output **out, cb_error *err)
{
    if (strcmp(path, "-") == 0 && g->n_sheets > 1) {
        snprintf(err->message, sizeof err->message,
                 "-o -: %zu sheets make %zu SVG files; standard output takes one (give "
                 "-o NAME.svg for NAME-1.svg, NAME-2.svg...)", g->n_sheets, g->n_sheets);
        return err->status = CB_ERR_USAGE;
    }
    return sheet_outputs(g, theme, opt, path, cb_svg_render, out, err);
}

int cli_output_format(const char *format, const char *path, int *svg)
{
    *svg = 0;
    if (format) {
        if (strcmp(format, "svg") == 0)
            *svg = 1;
        else if (strcmp(format, "pdf") != 0)
            return cli_fail(CB_ERR_USAGE, "--format: \"%s\" is not pdf or svg", format);
        return 0;
    }
    size_t n = path ? strlen(path) : 0;
    *svg = n > 4 && strcasecmp(path + n - 4, ".svg") == 0;
    return 0;
}
