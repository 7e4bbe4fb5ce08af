/* cutboard game: one board per player (or one shared board) as a PDF, and
 * optionally the board file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static const char usage[] =
    "usage: cutboard [game] [options] -o FILE.pdf|FILE.svg\n"
    "\n"
    "Generates printable, cuttable game boards: one sheet per player (or one\n"
    "shared board), each meeting the board contract, written as PDF or SVG.\n"
    "\n"
    "  -o, --output FILE    the PDF to write (required; - for standard output);\n"
    "                       FILE.svg writes SVG instead\n"
    "      --format F       pdf or svg (default: from FILE's extension); SVG is one\n"
    "                       picture per sheet: FILE-1.svg, FILE-2.svg... when\n"
    "                       there are several\n"
    "      --json FILE      also write the board file (format cutboard/1)\n"
    "      --obj FILE       also write each sheet as an OBJ drawing (Blender opens\n"
    "                       it; FILE-1.obj, FILE-2.obj... when there are several)\n"
    "      --rules WHERE    the rules and legend page: last (default), first or\n"
    "                       none (PDF only: SVG pictures are the sheets alone)\n";

static const char usage_end[] =
    "  -h, --help           this help\n"
    "  -V, --version        the version\n"
    "\n"
    "Exit codes: 0 ok, 64 bad option, 65 bad input data, 66 missing input,\n"
    "70 internal error, 73 cannot create output, 74 write error.\n";

int cli_game_parse(int argc, char **argv, cli_game_options *g)
{
    cli_board_options *o = &g->board;
    cli_args a;
    g->output = g->json_path = g->obj_path = g->format = NULL;
    g->svg = 0;
    g->rules_given = 0;
    cli_board_options_init(o);
    o->render.rules = CB_RULES_PAGE_LAST;
    cli_args_init(&a, argc, argv);
    while (cli_args_next(&a)) {
        int got = cli_board_option(&a, o);
        if (got < 0)
            return CLI_EXIT_USAGE;
        if (got)
            continue;
        if (cli_flag(&a, "-h|--help")) {
            printf("%s%s%s", usage, cli_board_options_help, usage_end);
            return 0;
        } else if (cli_flag(&a, "-V|--version")) {
            printf("cutboard %s\n", CB_VERSION);
            return 0;
        } else if (cli_value(&a, "-o|--output")) {
            g->output = a.val;
        } else if (cli_value(&a, "--format")) {
            g->format = a.val;
        } else if (cli_value(&a, "--json")) {
            g->json_path = a.val;
        } else if (cli_value(&a, "--obj")) {
            g->obj_path = a.val;
        } else if (cli_value(&a, "--rules")) {
            if (cli_rules_value(a.val, &o->render.rules))
                return CLI_EXIT_USAGE;
            g->rules_given = o->render.rules != CB_RULES_PAGE_NONE;
        } else {
            return a.bad ? CLI_EXIT_USAGE : cli_unknown("", a.arg);
        }
    }
    if (a.bad)
        return CLI_EXIT_USAGE;
    if (!g->output)
        return cli_fail(CB_ERR_USAGE, "no output file: give -o FILE.pdf (see cutboard --help)");
    int rc = cli_output_format(g->format, g->output, &g->svg);
    if (rc)
        return rc;
    if (g->svg && g->rules_given)
        return cli_fail(CB_ERR_USAGE, "--rules: SVG output is the sheets alone; the rules "
                                      "page is PDF only (or give --rules none)");
    const char *opts[] = {"-o", "--json", "--obj"};
    const char *paths[] = {g->output, g->json_path, g->obj_path};
    rc = cli_distinct_outputs(opts, paths, 3);
    if (rc)
        return rc;
    rc = cli_board_options_check(o);
    return rc ? rc : -1;
}

int cli_game(int argc, char **argv)
{
    cli_game_options g;
    int rc = cli_game_parse(argc, argv, &g);
    if (rc >= 0)
        return rc;
    cli_board_options *o = &g.board;
    const char *output = g.output, *json_path = g.json_path, *obj_path = g.obj_path;
    rc = cli_board_options_finish(o);
    if (rc) {
        cli_board_options_free(o);
        return rc;
    }

    cb_error err = {CB_OK, "", 0, ""};
    cb_game *game = NULL;
    unsigned char *pdf = NULL;
    size_t pdf_len = 0;
    cli_board_json board_json = {NULL, o->theme};
    cli_output *objs = NULL, *svgs = NULL;
    size_t n_obj = 0, n_svg = 0;
    cli_test_hold("CUTBOARD_TEST_GENERATE_HOLD_MS");
    cb_status st = cb_game_generate(&o->spec, &game, &err);
    board_json.game = game;
    /* The board file goes first, to its staged file, while only the board is
     * in memory: its metrics (the planar map for the shortest cuts) and the
     * drawing of a poster then never take memory at the same time. Standard
     * output gets it last, as ever. */
    cb_staged_file *json_staged = NULL;
    int json_first = json_path && strcmp(json_path, "-") != 0;
    if (st == CB_OK && json_first)
        st = cb_file_stage_stream(json_path, cli_board_json_write, &board_json, &json_staged,
                                  &err);
    if (st == CB_OK && g.svg) {
        st = cli_svg_outputs(game, o->theme, &o->render, output, &svgs, &err);
        n_svg = st == CB_OK ? game->n_sheets : 0;
    } else if (st == CB_OK) {
        st = cb_pdf_render(game, o->theme, &o->render, &pdf, &pdf_len, &err);
    }
    if (st == CB_OK && obj_path) {
        st = cli_obj_outputs(game, o->theme, obj_path, &objs, &err);
        n_obj = st == CB_OK ? game->n_sheets : 0;
    }
    if (st == CB_OK) {
        cli_output outs[32] = {{output, pdf, pdf_len}};
        size_t n = n_svg ? 0 : 1;
        for (size_t k = 0; k < n_svg && n < 16; k++)
            outs[n++] = svgs[k];
        for (size_t k = 0; k < n_obj && n < (json_path ? 31 : 32); k++)
            outs[n++] = objs[k];
        if (json_first) {
            cb_staged_file *pre[32] = {NULL};
            pre[n] = json_staged;
            json_staged = NULL; /* cli_write_staged's now */
            outs[n++] = (cli_output){json_path, NULL, 0};
            st = cli_write_staged(outs, n, pre, &err);
        } else {
            cli_stream json_out = {json_path, cli_board_json_write, &board_json};
            st = cli_write_all_streams(outs, n, &json_out, json_path ? 1 : 0, &err);
        }
    }
    cb_file_discard(json_staged);
    if (st == CB_OK && isatty(STDERR_FILENO))
        cli_note("wrote %s: %zu sheet%s, seed \"%s\"", output,
                 game->n_sheets, game->n_sheets == 1 ? "" : "s", o->spec.seed);
    cli_obj_free(objs, n_obj);
    cli_obj_free(svgs, n_svg);
    free(pdf);
    cb_game_free(game);
    cli_board_options_free(o);
    if (st != CB_OK)
        return cli_error(st, &err);
    return 0;
}
