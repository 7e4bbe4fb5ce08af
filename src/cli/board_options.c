/* The board options the generating commands share; see cli.h. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

const char cli_board_options_help[] =
    "  -s, --seed TEXT      any text; the same seed gives the same boards\n"
    "                       (default: a random seed, printed on every sheet)\n"
    "  -p, --players N      2..9 players (default 4)\n"
    "      --shared         one board for the whole table instead of one each\n"
    "      --theme DIR      theme folder with theme.json (default icons/default)\n"
    "      --paper NAME     a4 (default), letter, a3, tabloid, a5..a0, legal or WxHmm\n"
    "      --portrait       portrait instead of landscape\n"
    "      --margin MM      paper edge to trim line (default 12; edge nodes need\n"
    "                       5 mm + a node radius)\n"
    "      --resolution R   nodes across the longer side (default: 24.5 mm spacing,\n"
    "                       about 88 nodes on A4)\n"
    "      --start-cap N    most edges per start node, 2..4 (default 2)\n"
    "      --node-cap N     most edges per other node, 3..8 (default 4)\n"
    "      --ink-friendly   white node fills, colours only as outlines\n"
    "      --font FILE      TTF font to embed (default fonts/DejaVuSans.ttf)\n";

void cli_board_options_init(cli_board_options *o)
{
    memset(o, 0, sizeof *o);
    cb_spec_defaults(&o->spec);
    o->spec.seed = NULL;
    o->paper = "a4";
}

int cli_board_option(cli_args *a, cli_board_options *o)
{
    cb_spec *s = &o->spec;
    if (cli_value(a, "-s|--seed"))
        s->seed = a->val;
    else if (cli_value(a, "-p|--players"))
        return cli_int("--players", a->val, 2, 9, &s->players) ? -1 : 1;
    else if (cli_flag(a, "--shared"))
        s->shared = 1;
    else if (cli_value(a, "--theme"))
        o->theme_dir = a->val;
    else if (cli_value(a, "--paper"))
        o->paper = a->val;
    else if (cli_flag(a, "--portrait"))
        o->portrait = 1;
    else if (cli_value(a, "--margin"))
        return cli_double("--margin", a->val, &s->margin) ? -1 : 1;
    else if (cli_value(a, "--resolution"))
        return cli_double("--resolution", a->val, &s->resolution) ? -1 : 1;
    else if (cli_value(a, "--start-cap"))
        return cli_int("--start-cap", a->val, 2, 4, &s->start_cap) ? -1 : 1;
    else if (cli_value(a, "--node-cap"))
        return cli_int("--node-cap", a->val, 3, 8, &s->node_cap) ? -1 : 1;
    else if (cli_flag(a, "--ink-friendly"))
        o->render.ink_friendly = 1;
    else if (cli_value(a, "--font"))
        o->render.font_path = a->val;
    else
        return a->bad ? -1 : 0;
    return 1;
}

int cli_board_options_check(cli_board_options *o)
{
    cb_error err = {CB_OK, ""};
    cb_spec *s = &o->spec;
    if (cb_paper_parse(o->paper, &s->page_w, &s->page_h, &err) != CB_OK)
        return cli_fail(err.status, "%s", err.message);
    if (o->portrait) {
        double t = s->page_w;
        s->page_w = s->page_h;
        s->page_h = t;
    }
    if (!s->seed) {
        cli_random_seed(o->seed_buf, sizeof o->seed_buf);
        s->seed = o->seed_buf;
    }
    if (cb_spec_check(s, &err) != CB_OK)
        return cli_fail(err.status, "%s", err.message);
    o->checked = 1;
    return 0;
}

int cli_board_options_finish(cli_board_options *o)
{
    cb_error err = {CB_OK, ""};
    cb_spec *s = &o->spec;
    if (!o->checked) {
        int rc = cli_board_options_check(o);
        if (rc)
            return rc;
    }
    if (!o->theme_dir) {
        cli_data_path("icons/default", o->theme_buf, sizeof o->theme_buf);
        o->theme_dir = o->theme_buf;
    } else if (!cli_is_dir(o->theme_dir)) {
        return cli_fail(CB_ERR_NOINPUT, "--theme: %s is not a folder", o->theme_dir);
    }
    if (!o->render.font_path) {
        cli_data_path("fonts/DejaVuSans.ttf", o->font_buf, sizeof o->font_buf);
        o->render.font_path = o->font_buf;
    }
    if (cb_theme_load(o->theme_dir, &o->theme, &err) != CB_OK)
        return cli_fail(err.status, "%s", err.message);
    s->theme = o->theme;
    return 0;
}

void cli_board_options_free(cli_board_options *o)
{
    cb_theme_free(o->theme);
    o->theme = NULL;
}
