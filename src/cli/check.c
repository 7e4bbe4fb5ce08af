/* cutboard check FILE...: the contract verdict of each board file (JSON or
 * OBJ) and its fairness figures, start by start; exits 65 when one fails.
 * The files are read one at a time; a bad one is reported and the next
 * checked. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "base/utf8.h"

static const char usage[] =
    "usage: cutboard check FILE|- [FILE...] [options]   (- reads standard input)\n"
    "\n"
    "Checks board files (cutboard/1 JSON or Wavefront OBJ drawings) against\n"
    "the board contract and prints, for each start, its hop distance to the\n"
    "centre, its number of edge-disjoint paths to the centre and its shortest\n"
    "cut (the fewest printed edges to cut, from the paper border, to part it\n"
    "from the centre; - when no cut can), and for the board its number of\n"
    "faces (pieces of paper plus the outside) and its largest piece.\n"
    "\n"
    "      --theme THEME    theme for type names: a name or a folder (default: default)\n"
    "      --start-cap N    most edges a start may have (default 2)\n"
    "      --node-cap N     most edges another node may have (default 4)\n"
    "  -h, --help           this help\n"
    "  -V, --version        the version\n"
    "\n"
    "Exit codes: 0 every sheet meets the contract, 65 one does not (or a\n"
    "file is bad), 64 bad option, 66 missing file, 70 internal error; with\n"
    "several files, the highest of theirs.\n";

static const char *const side_names[] = {"top", "right", "bottom", "left"};


/* Prints one sheet's verdict and figures; returns whether it passes. */
static int check_sheet(const char *path, size_t k, size_t n_sheets, const cb_board *b,
                       int start_cap, int node_cap, int *rc)
{
    cb_verdict v;
    cb_error err = {CB_OK, "", 0, ""};
    int *cuts = NULL;
    size_t n_starts = 0;
    if (cb_board_check(b, start_cap, node_cap, &v, &err) != CB_OK) {
        *rc = cli_fail(err.status, "%s: sheet %zu: %s", path, k + 1, err.message);
        return 0;
    }
    if (cb_board_shortest_cuts(b, &cuts, &n_starts, &err) != CB_OK) {
        if (err.status != CB_ERR_DATA) {
            *rc = cli_fail(err.status, "%s: sheet %zu: %s", path, k + 1, err.message);
            return 0;
        }
        cuts = NULL; /* a node outside the trim: no pieces, no cut figures */
        n_starts = 0;
    }
    /* The cut clause: every start can be cut off, by at least 3 edges,
     * and the 12 shortest cuts differ by at most one. */
    int least = -1, most = -1, uncuttable = 0;
    for (size_t i = 0; i < n_starts; i++) {
        uncuttable += cuts[i] < 0;
        if (cuts[i] >= 0) {
            least = least < 0 || cuts[i] < least ? cuts[i] : least;
            most = cuts[i] > most ? cuts[i] : most;
        }
    }
    const char *why = !v.ok ? v.failure
                      : !cuts ? NULL
                      : uncuttable ? "a start cannot be cut off from the centre"
                      : least >= 0 && least < 3 ? "a start is cut off by fewer than 3 edges"
                      : most - least > 1 ? "the starts' shortest cuts differ by more than 1"
                      : NULL;
    char shown_path[1024], shown_seed[1024], shown_why[1024];
    cb_text_shown(path, shown_path, sizeof shown_path);
    if (n_sheets > 1)
        printf("%s sheet %zu (seed \"%s\"): ", shown_path, k + 1,
               cb_text_shown(b->seed ? b->seed : "", shown_seed, sizeof shown_seed));
    else
        printf("%s: ", shown_path);
    printf("%s%s\n", why ? "FAILS the contract: " : "meets the contract",
           why ? cb_text_shown(why, shown_why, sizeof shown_why) : "");
    printf("  %zu nodes, %zu edges; %zu faces (%zu pieces of paper + the outside), "
           "largest piece %.1f mm^2%s\n", b->n_nodes, b->n_edges, v.faces,
           v.faces ? v.faces - 1 : 0, v.largest_piece, v.planar ? "" : " (not planar)");
    printf("  start  node  side    hops  paths  cut\n");
    int k_start = 0, lo = -1, hi = -1;
    size_t c = 0;
    for (uint32_t i = 0; i < b->n_nodes; i++) {
        const cb_node *s = &b->nodes[i];
        if (s->kind != CB_KIND_START)
            continue;
        char hops[16] = "-", paths[16] = "-", cut[16] = "-";
        if (k_start < CB_VERDICT_STARTS) {
            if (v.hops[k_start] >= 0)
                snprintf(hops, sizeof hops, "%d", v.hops[k_start]);
            snprintf(paths, sizeof paths, "%d", v.disjoint[k_start]);
        }
        if (cuts && c < n_starts && cuts[c] >= 0) {
            snprintf(cut, sizeof cut, "%d", cuts[c]);
            lo = lo < 0 || cuts[c] < lo ? cuts[c] : lo;
            hi = cuts[c] > hi ? cuts[c] : hi;
        }
        printf("  %5d %5u  %-6s %5s %6s %4s\n", k_start + 1, i,
               s->side >= 0 && s->side <= 3 ? side_names[s->side] : "-", hops, paths, cut);
        k_start++;
        c++;
    }
    if (v.starts)
        printf("  hops %d..%d, edge-disjoint paths >= %d", v.hop_min, v.hop_max, v.min_disjoint);
    if (hi >= 0)
        printf(", shortest cuts %d..%d edges", lo, hi);
    if (v.starts)
        printf("\n");
    if (v.dots)
        printf("  %zu power dots %.1f mm across; each at least %.2f mm nearer its own node\n",
               v.dots, v.dot_diameter, v.dot_margin);
    if (v.faces > 1 && b->n_edges) {
        printf("  scissors: smallest piece %.1f mm^2, every edge shows %.2f mm or more between "
               "its nodes", v.smallest_piece, v.shortest_visible);
        if (v.dots)
            printf(", dots %.2f mm or more from a line", v.dot_paper);
        printf("\n");
    }
    free(cuts);
    return !why;
}

int cli_check_parse(int argc, char **argv, cli_check_options *o)
{
    cli_args a;
    memset(o, 0, sizeof *o);
    o->start_cap = 2;
    o->node_cap = 4;
    cli_args_init(&a, argc, argv);
    while (cli_args_next(&a)) {
        if (cli_help_version(&a, usage)) {
            return 0;
        } else if (cli_value(&a, "--theme")) {
            o->theme_dir = a.val;
        } else if (cli_value(&a, "--start-cap")) {
            if (cli_int("--start-cap", a.val, 1, 64, &o->start_cap) != 0)
                return CLI_EXIT_USAGE;
        } else if (cli_value(&a, "--node-cap")) {
            if (cli_int("--node-cap", a.val, 1, 64, &o->node_cap) != 0)
                return CLI_EXIT_USAGE;
        } else if (a.arg[0] != '-' || strcmp(a.arg, "-") == 0) {
            int rc = cli_inputs_add(&o->inputs, argc, a.arg);
            if (rc)
                return rc;
        } else {
            return a.bad ? CLI_EXIT_USAGE : cli_unknown("check", a.arg);
        }
    }
    if (a.bad)
        return CLI_EXIT_USAGE;
    if (o->inputs.n == 0)
        return cli_fail(CB_ERR_USAGE, "check: no board file given (see cutboard check --help)");
    return -1;
}

void cli_check_options_free(cli_check_options *o)
{
    cli_inputs_free(&o->inputs);
}

/* Checks every sheet of file PATH: 0, or the exit code of its worst. */
static int check_file(const char *path, const cb_theme *theme, const cli_check_options *o)
{
    cb_error err = {CB_OK, "", 0, ""};
    cb_game *game = NULL;
    if (cli_game_read(path, theme, &game, &err) != CB_OK) {
        fflush(stdout); /* the line lands after the files before it */
        return cli_error(err.status, &err);
    }
    int rc = 0, all = 1;
    for (size_t k = 0; k < game->n_sheets && rc == 0; k++)
        all &= check_sheet(path, k, game->n_sheets, game->sheets[k], o->start_cap, o->node_cap,
                           &rc);
    cb_game_free(game);
    return rc ? rc : all ? 0 : CLI_EXIT_DATA;
}

int cli_check(int argc, char **argv)
{
    cli_check_options o;
    int rc = cli_check_parse(argc, argv, &o);
    if (rc >= 0) {
        cli_check_options_free(&o);
        return rc;
    }
    const char *theme_dir = o.theme_dir;
    char buf[4096];
    cb_error err = {CB_OK, "", 0, ""};
    cb_theme *theme = NULL;
    rc = cli_theme_path(theme_dir, buf, sizeof buf);
    if (rc == 0 && cb_theme_load(buf, &theme, &err) != CB_OK)
        rc = cli_error(err.status, &err);
    /* Every file is checked; the exit code is the worst (highest) of them. */
    int worst = rc;
    for (size_t k = 0; rc == 0 && k < o.inputs.n; k++) {
        int file_rc = check_file(o.inputs.paths[k], theme, &o);
        worst = file_rc > worst ? file_rc : worst;
    }
    cb_theme_free(theme);
    cli_check_options_free(&o);
    return worst;
}
