/* cutboard render: prints board files (JSON) or OBJ drawings again, any
 * number of them into one PDF, pages in argument order. Each board is
 * checked against the contract first; each violation is one line on stderr
 * and nothing is written (exit 65), unless --force. The files are read and
 * drawn one at a time, so only one is held in memory. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static const char usage[] =
    "usage: cutboard render FILE|- [FILE...] -o OUT.pdf|OUT.svg [options]\n"
    "\n"
    "Prints an edited board file (FILE.json) or a drawing (FILE.obj, Wavefront\n"
    "OBJ, see README.md, \"Drawing your own board\") after checking it against\n"
    "the board contract; - reads a board file from standard input. Several\n"
    "files make one PDF, their sheets in the order given, then one rules page\n"
    "whose legend has every file's node types; --json, --obj, SVG output and\n"
    "--rules first take one file.\n"
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
    "      --theme THEME    an installed theme's name, or a folder (with a /) that\n"
    "                       holds a theme.json (default: default)\n"
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
    int rules_given = 0, rc;
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
                return CLI_EXIT_USAGE;
            rules_given = ropt->rules != CB_RULES_PAGE_NONE;
        } else if (cli_value(&a, "--font")) {
            ropt->font_path = a.val;
        } else if (cli_flag(&a, "--ink-friendly")) {
            ropt->ink_friendly = 1;
        } else if (cli_flag(&a, "--force")) {
            o->force = 1;
        } else if (cli_value(&a, "--start-cap")) {
            if (cli_int("--start-cap", a.val, 2, 4, &o->start_cap))
                return CLI_EXIT_USAGE;
        } else if (cli_value(&a, "--node-cap")) {
            if (cli_int("--node-cap", a.val, 3, 8, &o->node_cap))
                return CLI_EXIT_USAGE;
        } else if (!a.bad && (a.arg[0] != '-' || strcmp(a.arg, "-") == 0)) {
            if ((rc = cli_inputs_add(&o->inputs, argc, a.arg)))
                return rc;
        } else {
            return a.bad ? CLI_EXIT_USAGE : cli_unknown("render", a.arg);
        }
    }
    if (a.bad)
        return CLI_EXIT_USAGE;
    size_t n = o->inputs.n;
    if (n == 0)
        return cli_fail(CB_ERR_USAGE, "render: no board file: give FILE.json or FILE.obj "
                                      "(see cutboard render --help)");
    if (!o->output)
        return cli_fail(CB_ERR_USAGE, "render: no output file: give -o FILE.pdf");
    if ((rc = cli_output_format(format, o->output, &o->svg)))
        return rc;
    if (o->svg && rules_given)
        return cli_fail(CB_ERR_USAGE, "--rules: SVG output is the sheets alone; the rules "
                                      "page is PDF only (or give --rules none)");
    /* Several files make one PDF; the per-game outputs take one file. */
    const char *one_only = o->json_path ? "--json" : o->obj_path ? "--obj"
                           : o->svg ? "SVG output" : ropt->rules == CB_RULES_PAGE_FIRST
                           ? "--rules first" : NULL;
    if (n > 1 && one_only)
        return cli_fail(CB_ERR_USAGE, "%s takes one board file, not %zu (several files make "
                                      "one PDF, the rules page last)", one_only, n);
    for (size_t k = 0; k < n; k++) {
        const char *opts[] = {"FILE", "-o", "--json", "--obj"};
        const char *in = o->inputs.paths[k];
        const char *paths[] = {strcmp(in, "-") ? in : NULL, o->output, o->json_path,
                               o->obj_path};
        if ((rc = cli_distinct_outputs(opts, paths, 4)))
            return rc;
    }
    return -1;
}

void cli_render_options_free(cli_render_options *o)
{
    cli_inputs_free(&o->inputs);
}

/* Prints GAME's contract problems, one line each, and adds their number to
 * *BROKEN. */
static cb_status report_problems(const char *input, const cb_game *game,
                                 const cli_render_options *o, size_t *broken, cb_error *err)
{
    cb_status st = CB_OK;
    for (size_t k = 0; st == CB_OK && k < game->n_sheets; k++) {
        char *report = NULL;
        size_t lines = 0;
        st = cb_board_diagnose(game->sheets[k], o->start_cap, o->node_cap, &report, &lines, err);
        for (char *p = report, *nl; st == CB_OK && p && (nl = strchr(p, '\n')); p = nl + 1) {
            *nl = '\0';
            if (game->n_sheets > 1)
                cli_note("%s: sheet %zu: %s", input, k + 1, p);
            else
                cli_note("%s: %s", input, p);
        }
        *broken += lines;
        free(report);
    }
    return st;
}

/* A library error while drawing file INPUT of several (reading it names
 * it already): the message names the file. */
static void name_input(const char *input, size_t n_inputs, cb_error *err)
{
    if (strcmp(input, "-") == 0)
        input = "standard input";
    if (n_inputs < 2)
        return;
    char msg[sizeof err->message];
    if (snprintf(msg, sizeof msg, "%s: %s", input, err->message) > 0) /* cut if long */
        memcpy(err->message, msg, sizeof msg);
}

/* The files' outputs, once every file has been read, checked and drawn. */
typedef struct {
    cb_pdf_writer *pdf;         /* NULL for SVG */
    cb_game *last;              /* the last file's game (the only one when
                                   --json, --obj or SVG ask for it) */
    size_t sheets;
} render_run;

/* Reads, checks and draws every input in order, freeing each game before
 * the next is read (the last is kept in run->last). 0, or the exit code
 * after the error line. */
static int draw_inputs(const cli_render_options *o, const cb_theme *theme,
                       const cb_render_options *ropt, render_run *run)
{
    cb_error err = {CB_OK, "", 0, ""};
    cb_status st = o->svg ? CB_OK : cb_pdf_begin(theme, ropt, &run->pdf, &err);
    for (size_t k = 0; st == CB_OK && k < o->inputs.n; k++) {
        const char *input = o->inputs.paths[k];
        size_t broken = 0;
        cb_game_free(run->last);
        run->last = NULL;
        st = cli_game_read(input, theme, &run->last, &err);
        int read = st == CB_OK;
        if (st == CB_OK)
            st = report_problems(input, run->last, o, &broken, &err);
        if (st == CB_OK && broken && !o->force)
            return cli_fail(CB_ERR_DATA, "%s: the board breaks the contract (%zu problem%s "
                                         "above); nothing written (--force prints it anyway)",
                            input, broken, broken == 1 ? "" : "s");
        if (st == CB_OK && broken)
            cli_note("warning: %s breaks the contract (%zu problem%s); "
                     "printing it anyway (--force)", input, broken,
                     broken == 1 ? "" : "s");
        if (st == CB_OK && run->pdf && ropt->rules == CB_RULES_PAGE_FIRST)
            st = cb_pdf_add_rules(run->pdf, run->last, &err);
        if (st == CB_OK && run->pdf)
            st = cb_pdf_add_game(run->pdf, run->last, &err);
        if (st == CB_OK)
            run->sheets += run->last->n_sheets;
        else if (read)
            name_input(input, o->inputs.n, &err);
    }
    /* One file: its own legend (the same page cb_pdf_render makes); several:
     * the node types of them all, on the last file's paper. */
    if (st == CB_OK && run->pdf && ropt->rules == CB_RULES_PAGE_LAST)
        st = cb_pdf_add_rules(run->pdf, o->inputs.n == 1 ? run->last : NULL, &err);
    return st == CB_OK ? 0 : cli_error(st, &err);
}

/* The outputs of RUN: the PDF (or one SVG per sheet), --json and --obj,
 * written all-or-nothing. */
static cb_status write_outputs(const cli_render_options *o, const cb_theme *theme,
                               const cb_render_options *ropt, render_run *run, cb_error *err)
{
    unsigned char *pdf = NULL;
    size_t pdf_len = 0, n_obj = 0, n_svg = 0, n = 0;
    char *json = NULL;
    cli_output *objs = NULL, *svgs = NULL;
    const cb_game *game = run->last;
    cb_status st = CB_OK;
    if (o->svg) {
        st = cli_svg_outputs(game, theme, ropt, o->output, &svgs, err);
        n_svg = st == CB_OK ? game->n_sheets : 0;
    } else {
        st = cb_pdf_end(run->pdf, &pdf, &pdf_len, err);
    }
    if (st == CB_OK && o->json_path)
        st = cb_json_render(game, theme, &json, err);
    if (st == CB_OK && o->obj_path) {
        st = cli_obj_outputs(game, theme, o->obj_path, &objs, err);
        n_obj = st == CB_OK ? game->n_sheets : 0;
    }
    cli_output *outs = st == CB_OK ? calloc(n_svg + n_obj + 2, sizeof *outs) : NULL;
    if (st == CB_OK && !outs) {
        snprintf(err->message, sizeof err->message, "out of memory");
        st = err->status = CB_ERR_NOMEM;
    }
    if (st == CB_OK) {
        if (!o->svg)
            outs[n++] = (cli_output){o->output, pdf, pdf_len};
        for (size_t k = 0; k < n_svg; k++)
            outs[n++] = svgs[k];
        if (o->json_path)
            outs[n++] = (cli_output){o->json_path, json, strlen(json)};
        for (size_t k = 0; k < n_obj; k++)
            outs[n++] = objs[k];
        st = cli_write_all(outs, n, err);
    }
    free(outs);
    cli_obj_free(objs, n_obj);
    cli_obj_free(svgs, n_svg);
    free(json);
    free(pdf);
    return st;
}

static int render(const cli_render_options *o)
{
    cb_render_options ropt = o->ropt;
    const char *theme_dir = o->theme_dir;
    char theme_buf[4096], font_buf[4096];
    int rc;
    if ((rc = cli_theme_path(theme_dir, theme_buf, sizeof theme_buf)))
        return rc;
    theme_dir = theme_buf;
    if (!ropt.font_path) {
        if ((rc = cli_data_path("fonts/DejaVuSans.ttf", font_buf, sizeof font_buf)))
            return rc;
        ropt.font_path = font_buf;
    }
    if ((rc = cli_source_date(&ropt)))
        return rc;
    cb_error err = {CB_OK, "", 0, ""};
    cb_theme *theme = NULL;
    if (cb_theme_load(theme_dir, &theme, &err) != CB_OK)
        return cli_error(err.status, &err);
    render_run run = {NULL, NULL, 0};
    if ((rc = cli_theme_cache(theme)) == 0)
        rc = draw_inputs(o, theme, &ropt, &run);
    if (rc == 0 && write_outputs(o, theme, &ropt, &run, &err) != CB_OK)
        rc = cli_error(err.status, &err);
    if (rc == 0 && isatty(STDERR_FILENO)) {
        if (o->inputs.n == 1)
            cli_note("wrote %s: %zu sheet%s from %s", o->output, run.sheets,
                     run.sheets == 1 ? "" : "s", o->inputs.paths[0]);
        else
            cli_note("wrote %s: %zu sheets from %zu files", o->output,
                     run.sheets, o->inputs.n);
    }
    cb_pdf_writer_free(run.pdf);
    cb_game_free(run.last);
    cb_theme_free(theme);
    return rc;
}

int cli_render(int argc, char **argv)
{
    cli_render_options o;
    int rc = cli_render_parse(argc, argv, &o);
    if (rc < 0)
        rc = render(&o);
    cli_render_options_free(&o);
    return rc;
}
