/* The board options the generating commands share; see cli.h. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

const char cli_board_options_help[] =
    "  -s, --seed TEXT      any text; the same seed gives the same boards\n"
    "                       (default: a random seed, printed on every sheet)\n"
    "  -p, --players N      2..9 players (default 4)\n"
    "      --shared         one board for the whole table instead of one each\n"
    "      --first-game     every start gets the same mission (the theme names it;\n"
    "                       the default theme: traveler): for a first game\n"
    "      --theme THEME    an installed theme's name, or a folder (with a /) that\n"
    "                       holds a theme.json (default: default)\n"
    "      --paper NAME     a4 (default), letter, a3, tabloid, a5..a0, legal, sra4..\n"
    "                       sra2, or WxH in mm, in or pt (300x200mm, 8.5x11in);\n"
    "                       80..5080 mm a side; at the default spacing the board\n"
    "                       needs 121.5 mm across and 22,032 mm^2 (A5 has them)\n"
    "      --portrait       portrait instead of landscape\n"
    "      --margin MM      paper edge to trim line (default 12): at least 5 mm + a\n"
    "                       node radius, at most what leaves the board 121.5 mm\n"
    "                       across and 22,032 mm^2 (44.2 on A4)\n"
    "      --resolution R   nodes across the longer side (default: 24.5 mm apart,\n"
    "                       about 85 on A4; closer on A5 and shared boards); at\n"
    "                       least 6.75 x the board's long/short side; never 12 to\n"
    "                       18 mm apart (too close for scissors and dots); under\n"
    "                       9 mm apart or over 5,000 nodes a lattice (posters) with\n"
    "                       1.5 mm between disks: A4 11..15 or 23..91\n"
    "      --start-cap N    most edges per start node, 2..4 (default 2)\n"
    "      --node-cap N     most edges per other node, 3..8 (default 4; 3 needs\n"
    "                       72 nodes: A4, Letter and larger)\n"
    "      --fair-cuts      no effect: every board's starts have shortest cuts\n"
    "                       of at least 3 edges, at most 1 apart (accepted for\n"
    "                       older scripts)\n"
    "      --ink-friendly   white fills, black outlines (the least ink)\n"
    "      --font FILE      TTF font to embed (default fonts/DejaVuSans.ttf)\n"
    "  Print-shop pages (lengths: 3mm, 0.125in, 9pt or a bare number of mm):\n"
    "      --bleed LEN      bleed past the trim on every side; the margin is tinted\n"
    "                       out to the bleed edge; TrimBox and BleedBox on every page\n"
    "      --crop-marks     0.25 pt trim marks outside the bleed (page grows for them)\n"
    "      --cmyk           DeviceCMYK only: black lines and text 100 % K, icons\n"
    "                       flattened (no soft masks, no transparency)\n"
    "      --safe-area LEN  fail unless nodes, icons and the label keep this far\n"
    "                       inside the paper edge\n"
    "      --board-size NAME  same as --paper: the size of one board\n"
    "      --sheet NAME     N-up: boards imposed on sheets of this size (e.g. a3,\n"
    "                       sra3, 8.5x11in), as many as fit, turned if more fit\n"
    "      --gutter LEN     N-up: space between boards (default 6mm, or twice the\n"
    "                       bleed if more)\n";

void cli_board_options_init(cli_board_options *o)
{
    memset(o, 0, sizeof *o);
    cb_spec_defaults(&o->spec);
    o->spec.seed = NULL;
    o->paper = "a4";
    o->render.gutter = -1; /* the default */
}

/* A length option's value into *mm; 1 when parsed, -1 (error printed) when
 * not. */
static int cli_length(const char *field, const char *val, double *mm)
{
    cb_error err = {CB_OK, "", 0, ""};
    if (cb_length_parse(field, val, mm, &err) != CB_OK) {
        cli_error(err.status, &err);
        return -1;
    }
    return 1;
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
    else if (cli_flag(a, "--first-game"))
        s->first_game = 1;
    else if (cli_flag(a, "--fair-cuts"))
        ; /* accepted for older scripts: every board has fair cuts */
    else if (cli_value(a, "--theme"))
        o->theme_dir = a->val;
    else if (cli_value(a, "--paper|--board-size"))
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
    else if (cli_value(a, "--bleed"))
        return cli_length("bleed", a->val, &o->render.bleed);
    else if (cli_flag(a, "--crop-marks"))
        o->render.crop_marks = 1;
    else if (cli_flag(a, "--cmyk"))
        o->render.cmyk = 1;
    else if (cli_value(a, "--safe-area"))
        return cli_length("safe_area", a->val, &o->render.safe_area);
    else if (cli_value(a, "--gutter"))
        return cli_length("gutter", a->val, &o->render.gutter);
    else if (cli_value(a, "--sheet")) {
        cb_error err = {CB_OK, "", 0, ""};
        if (cb_size_parse("sheet", a->val, &o->render.sheet_w, &o->render.sheet_h, &err) !=
            CB_OK) {
            cli_error(err.status, &err);
            return -1;
        }
    } else
        return a->bad ? -1 : 0;
    return 1;
}

int cli_board_options_check(cli_board_options *o)
{
    cb_error err = {CB_OK, "", 0, ""};
    cb_spec *s = &o->spec;
    if (!s->seed) {
        cli_random_seed(o->seed_buf, sizeof o->seed_buf);
        s->seed = o->seed_buf;
    }
    if (cb_spec_set_paper(s, o->paper, o->portrait, &err) != CB_OK)
        return cli_error(err.status, &err);
    if (o->render.gutter >= 0 && o->render.sheet_w == 0)
        return cli_fail(CB_ERR_USAGE, "--gutter: only with --sheet (N-up imposition)");
    int rc = cli_source_date(&o->render);
    if (rc)
        return rc;
    /* Bleed, marks and sheet against the board's paper, before any work. */
    cb_page_layout layout;
    if (cb_page_layout_make(s->page_w, s->page_h, &o->render, &layout, &err) != CB_OK)
        return cli_error(err.status, &err);
    o->checked = 1;
    return 0;
}

int cli_board_options_finish(cli_board_options *o)
{
    cb_error err = {CB_OK, "", 0, ""};
    cb_spec *s = &o->spec;
    if (!o->checked) {
        int rc = cli_board_options_check(o);
        if (rc)
            return rc;
    }
    int rc;
    if (o->theme_dir != o->theme_buf) {
        if ((rc = cli_theme_path(o->theme_dir, o->theme_buf, sizeof o->theme_buf)))
            return rc;
        o->theme_dir = o->theme_buf;
    }
    if (!o->render.font_path) {
        if ((rc = cli_data_path("fonts/DejaVuSans.ttf", o->font_buf, sizeof o->font_buf)))
            return rc;
        o->render.font_path = o->font_buf;
    }
    if (cb_theme_load(o->theme_dir, &o->theme, &err) != CB_OK)
        return cli_error(err.status, &err);
    s->theme = o->theme;
    return cli_theme_cache(o->theme);
}

void cli_board_options_free(cli_board_options *o)
{
    cb_theme_free(o->theme);
    o->theme = NULL;
}
