/* cutboard render: prints a board file (JSON) or an OBJ drawing again.
 * The board is checked against the contract first; each violation is one
 * line on stderr and nothing is written (exit 65), unless --force. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static const char usage[] =
    "usage: cutboard render FILE.json|FILE.obj|- -o FILE.pdf|FILE.svg [options]\n"
    "\n"
    "Prints an edited board file or a drawing (Wavefront OBJ, see README.md,\n"
    "\"Drawing your own board\") after checking it against the board contract.\n"
    "FILE - reads the board file from standard input.\n"
    "\n"
    "  -o, --output FILE    the PDF to write (required; - for standard output);\n"
    "                       FILE.svg writes SVG instead\n"
    "      --format F       pdf or svg (default: from FILE's extension); SVG is one\n"
    "                       picture per sheet: FILE-1.svg, FILE-2.svg... when\n"
    "                       there are several\n"
    "      --force          print even when the board breaks the contract\n"
    "      --json FILE      also write the board file (format cutboard/1)\n"
    "      --obj FILE       also write the board as OBJ (one file per sheet:\n"
    "                       FILE-1.obj, FILE-2.obj... when there are several)\n"
    "      --rules WHERE    the rules and legend page: last (default), first or\n"
    "                       none (PDF only: SVG pictures are the sheets alone)\n"
    "      --theme DIR      theme folder with theme.json (default icons/default)\n"
    "      --ink-friendly   white fills, black outlines (the least ink)\n"
    "      --font FILE      TTF font to embed (default fonts/DejaVuSans.ttf)\n"
    "      --start-cap N    most edges per start node, 2..4 (default 2)\n"
    "      --node-cap N     most edges per other node, 3..8 (default 4)\n"
    "  -h, --help           this help\n"
    "  -V, --version        the version\n"
    "\n"
    "Exit codes: 0 ok, 64 bad option, 65 bad board file or contract broken,\n"
    "66 missing input, 70 internal error, 73 cannot create output, 74 write error.\n";

int cli_render_parse(int argc, char **argv, cli_render_options *o)
{
    cli_args a;
    const char *format = NULL;
    int rules_given = 0;
    memset(o, 0, sizeof *o);
    o->start_cap = 2;
    o->node_cap = 4;
    cb_render_options *ropt = &o->ropt;
    ropt->rules = CB_RULES_PAGE_LAST;
    cli_args_init(&a, argc, argv);
    while (cli_args_next(&a)) {
        if (cli_help_version(&a, usage)) {
            return 0;
        } else if (cli_value(&a, "-o|--output")) {
            o->output = a.val;
        } else if (cli_value(&a, "--format")) {
            format = a.val;
        } else if (cli_value(&a, "--json")) {
            o->json_path = a.val;
        } else if (cli_value(&a, "--obj")) {
            o->obj_path = a.val;
        } else if (cli_value(&a, "--theme")) {
            o->theme_dir = a.val;
        } else if (cli_value(&a, "--rules")) {
            if (cli_rules_value(a.val, &ropt->rules))
                return CB_ERR_USAGE;
            rules_given = ropt->rules != CB_RULES_PAGE_NONE;
        } else if (cli_value(&a, "--font")) {
            ropt->font_path = a.val;
        } else if (cli_flag(&a, "--ink-friendly")) {
            ropt->ink_friendly = 1;
        } else if (cli_flag(&a, "--force")) {
            o->force = 1;
        } else if (cli_value(&a, "--start-cap")) {
            if (cli_int("--start-cap", a.val, 2, 4, &o->start_cap))
                return CB_ERR_USAGE;
        } else if (cli_value(&a, "--node-cap")) {
            if (cli_int("--node-cap", a.val, 3, 8, &o->node_cap))
                return CB_ERR_USAGE;
        } else if (!a.bad && (a.arg[0] != '-' || strcmp(a.arg, "-") == 0) && !o->input) {
            o->input = a.arg;
        } else {
            return a.bad ? CB_ERR_USAGE : cli_unknown("render", a.arg);
        }
    }
    if (a.bad)
        return CB_ERR_USAGE;
    if (!o->input)
        return cli_fail(CB_ERR_USAGE, "render: no board file: give FILE.json or FILE.obj "
                                      "(see cutboard render --help)");
    if (!o->output)
        return cli_fail(CB_ERR_USAGE, "render: no output file: give -o FILE.pdf");
    int same;
    if ((same = cli_output_format(format, o->output, &o->svg)))
        return same;
    if (o->svg && rules_given)
        return cli_fail(CB_ERR_USAGE, "--rules: SVG output is the sheets alone; the rules "
                                      "page is PDF only (or give --rules none)");
    const char *opts[] = {"FILE", "-o", "--json", "--obj"};
    const char *paths[] = {strcmp(o->input, "-") ? o->input : NULL, o->output, o->json_path,
                           o->obj_path};
    same = cli_distinct_outputs(opts, paths, 4);
    return same ? same : -1;
}

int cli_render(int argc, char **argv)
{
    cli_render_options o;
    int rc = cli_render_parse(argc, argv, &o);
    if (rc >= 0)
        return rc;
    const char *input = o.input, *output = o.output, *json_path = o.json_path,
               *obj_path = o.obj_path, *theme_dir = o.theme_dir;
    int force = o.force, start_cap = o.start_cap, node_cap = o.node_cap, svg = o.svg;
    cb_render_options ropt = o.ropt;
    char theme_buf[4096], font_buf[4096];
    if (!theme_dir) {
        if ((rc = cli_data_path("icons/default", theme_buf, sizeof theme_buf)))
            return rc;
        theme_dir = theme_buf;
    } else if (!cli_is_dir(theme_dir)) {
        return cli_fail(CB_ERR_NOINPUT, "--theme: %s is not a folder", theme_dir);
    }
    if (!ropt.font_path) {
        if ((rc = cli_data_path("fonts/DejaVuSans.ttf", font_buf, sizeof font_buf)))
            return rc;
        ropt.font_path = font_buf;
    }
    rc = cli_source_date(&ropt);
    if (rc)
        return rc;

    cb_error err = {CB_OK, ""};
    cb_theme *theme = NULL;
    cb_game *game = NULL;
    unsigned char *pdf = NULL;
    size_t pdf_len = 0, n_obj = 0, n_svg = 0, broken = 0;
    char *json = NULL;
    cli_output *objs = NULL, *svgs = NULL;
    cb_status st = cb_theme_load(theme_dir, &theme, &err);
    if (st == CB_OK)
        st = cli_game_read(input, theme, &game, &err);
    for (size_t k = 0; st == CB_OK && k < game->n_sheets; k++) {
        char *report = NULL;
        size_t lines = 0;
        st = cb_board_diagnose(game->sheets[k], start_cap, node_cap, &report, &lines, &err);
        for (char *p = report, *nl; st == CB_OK && p && (nl = strchr(p, '\n')); p = nl + 1) {
            *nl = '\0';
            if (game->n_sheets > 1)
                fprintf(stderr, "cutboard: %s: sheet %zu: %s\n", input, k + 1, p);
            else
                fprintf(stderr, "cutboard: %s: %s\n", input, p);
        }
        broken += lines;
        free(report);
    }
    if (st == CB_OK && broken && !force) {
        cb_game_free(game);
        cb_theme_free(theme);
        return cli_fail(CB_ERR_DATA, "%s: the board breaks the contract (%zu problem%s above); "
                                     "nothing written (--force prints it anyway)",
                        input, broken, broken == 1 ? "" : "s");
    }
    if (st == CB_OK && broken)
        fprintf(stderr, "cutboard: warning: %s breaks the contract (%zu problem%s); printing "
                        "it anyway (--force)\n", input, broken, broken == 1 ? "" : "s");
    if (st == CB_OK && svg) {
        st = cli_svg_outputs(game, theme, &ropt, output, &svgs, &err);
        n_svg = st == CB_OK ? game->n_sheets : 0;
    } else if (st == CB_OK) {
        st = cb_pdf_render(game, theme, &ropt, &pdf, &pdf_len, &err);
    }
    if (st == CB_OK && json_path)
        st = cb_json_render(game, theme, &json, &err);
    if (st == CB_OK && obj_path) {
        st = cli_obj_outputs(game, theme, obj_path, &objs, &err);
        n_obj = st == CB_OK ? game->n_sheets : 0;
    }
    if (st == CB_OK) {
        cli_output outs[32];
        size_t n = 0;
        if (!svg)
            outs[n++] = (cli_output){output, pdf, pdf_len};
        for (size_t k = 0; k < n_svg && n < 16; k++)
            outs[n++] = svgs[k];
        if (json_path)
            outs[n++] = (cli_output){json_path, json, strlen(json)};
        for (size_t k = 0; k < n_obj && n < 32; k++)
            outs[n++] = objs[k];
        st = cli_write_all(outs, n, &err);
    }
    if (st == CB_OK && isatty(STDERR_FILENO))
        fprintf(stderr, "cutboard: wrote %s: %zu sheet%s from %s\n", output, game->n_sheets,
                game->n_sheets == 1 ? "" : "s", input);
    cli_obj_free(objs, n_obj);
    cli_obj_free(svgs, n_svg);
    free(json);
    free(pdf);
    cb_game_free(game);
    cb_theme_free(theme);
    if (st != CB_OK)
        return cli_fail(st, "%s", err.message);
    return 0;
}
