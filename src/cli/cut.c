/* cutboard cut FILE --path 3,7,9: simulates cutting a board along chains
 * of edges, reports the pieces of paper that fall off and the nodes lost,
 * and writes the board that is left. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char usage[] =
    "usage: cutboard cut FILE --path N,N,... [--path ...] [options]\n"
    "\n"
    "Cuts a board (cutboard/1 JSON or OBJ) along chains of printed edges, in\n"
    "order. A cut must start on the paper border or on an earlier cut. Prints\n"
    "each piece of paper that falls off (no longer joined to the piece that\n"
    "holds the centre) with its nodes and area, and the nodes lost (all of\n"
    "their paper fell off).\n"
    "\n"
    "      --path LIST      node ids joined by edges, e.g. 3,7,9 (repeatable)\n"
    "      --sheet N        which sheet of the file (default 1)\n"
    "      --json OUT       write the remaining board (node ids renumbered)\n"
    "      --theme THEME    theme for type names: a name or a folder (default: default)\n"
    "  -h, --help           this help\n"
    "  -V, --version        the version\n"
    "\n"
    "Exit codes: 0 ok, 64 bad option or path, 65 bad board file, 66 missing\n"
    "file, 70 internal error, 73/74 cannot write OUT.\n";

/* Parses "3,7,9" into a new array; -1 with the error printed. */
static int parse_path(const char *s, uint32_t **out, size_t *n)
{
    size_t cap = 1;
    for (const char *p = s; *p; p++)
        cap += *p == ',';
    uint32_t *v = malloc(cap * sizeof *v);
    if (!v)
        return cli_fail(CB_ERR_NOMEM, "out of memory"), -1;
    size_t k = 0;
    const char *p = s;
    for (;;) {
        char *end;
        errno = 0;
        unsigned long x = strtoul(p, &end, 10);
        if (end == p || *p == '-' || *p == '+' || errno || x > UINT32_MAX ||
            (*end != ',' && *end != '\0')) {
            free(v);
            cli_fail(CB_ERR_USAGE, "--path: \"%s\" is not a list of node ids such as 3,7,9", s);
            return -1;
        }
        v[k++] = (uint32_t)x;
        if (*end == '\0')
            break;
        p = end + 1;
    }
    *out = v;
    *n = k;
    return 0;
}


static void print_nodes(const uint32_t *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        printf(" %u", v[i]);
    printf("\n");
}

static int run(const char *path, const char *theme_dir, int sheet, const cb_cut_path *paths,
               size_t n_paths, const char *json_path)
{
    cb_theme *theme = NULL;
    cb_game *game = NULL;
    int rc = cli_load_board(path, theme_dir, &theme, &game);
    if (rc)
        return rc;
    cb_error err = {CB_OK, "", 0, ""};
    cb_cut_result *r = NULL;
    if ((size_t)sheet > game->n_sheets) {
        rc = cli_fail(CB_ERR_USAGE, "--sheet: %s has %zu sheet%s", path, game->n_sheets,
                      game->n_sheets == 1 ? "" : "s");
        goto done;
    }
    cb_status st = cb_board_cut(game->sheets[sheet - 1], paths, n_paths, &r, &err);
    if (st == CB_OK && json_path) {
        cb_board *sheets[1] = {r->remaining};
        cb_game left = *game;
        left.sheets = sheets;
        left.n_sheets = 1;
        cli_board_json board_json = {&left, theme};
        cli_stream out = {json_path, cli_board_json_write, &board_json};
        st = cli_write_all_streams(NULL, 0, &out, 1, &err);
    }
    if (st != CB_OK) {
        rc = cli_error(st, &err);
        goto done;
    }
    for (size_t i = 0; i < n_paths; i++) {
        printf("cut %zu:", i + 1);
        for (size_t k = 0; k < paths[i].n; k++)
            printf("%s%u", k ? "-" : " ", paths[i].nodes[k]);
        printf("\n");
    }
    if (!r->n_fallen)
        printf("no piece falls off\n");
    for (size_t i = 0; i < r->n_fallen; i++) {
        printf("piece %zu falls off: %.1f mm^2, nodes", i + 1, r->fallen[i].area);
        print_nodes(r->fallen[i].nodes, r->fallen[i].n_nodes);
    }
    printf("lost nodes:");
    if (r->n_lost)
        print_nodes(r->lost, r->n_lost);
    else
        printf(" none\n");
    printf("left: %zu nodes, %zu edges, %.1f mm^2 of paper holding the centre%s%s\n",
           r->remaining->n_nodes, r->remaining->n_edges, r->remaining_area,
           json_path ? "; written to " : "", json_path ? json_path : "");
done:
    cb_cut_result_free(r);
    cb_game_free(game);
    cb_theme_free(theme);
    return rc;
}

int cli_cut_parse(int argc, char **argv, cli_cut_options *o)
{
    cli_args a;
    int rc = 0;
    memset(o, 0, sizeof *o);
    o->sheet = 1;
    cli_args_init(&a, argc, argv);
    while (rc == 0 && cli_args_next(&a)) {
        if (cli_help_version(&a, usage)) {
            return 0;
        } else if (cli_value(&a, "--path")) {
            if (o->n_paths == CLI_MAX_CUTS)
                return cli_fail(CB_ERR_USAGE, "--path: at most %d cuts", CLI_MAX_CUTS);
            if (parse_path(a.val, &o->owned[o->n_paths], &o->paths[o->n_paths].n) != 0)
                return CLI_EXIT_USAGE;
            o->paths[o->n_paths].nodes = o->owned[o->n_paths];
            o->n_paths++;
        } else if (cli_value(&a, "--json")) {
            o->json_path = a.val;
        } else if (cli_value(&a, "--theme")) {
            o->theme_dir = a.val;
        } else if (cli_value(&a, "--sheet")) {
            if (cli_int("--sheet", a.val, 1, 1000000, &o->sheet) != 0)
                rc = CLI_EXIT_USAGE;
        } else if ((a.arg[0] != '-' || strcmp(a.arg, "-") == 0) && !o->path) {
            o->path = a.arg;
        } else {
            rc = a.bad ? CLI_EXIT_USAGE : cli_unknown("cut", a.arg);
        }
    }
    if (rc == 0 && a.bad)
        rc = CLI_EXIT_USAGE;
    if (rc == 0 && !o->path)
        rc = cli_fail(CB_ERR_USAGE, "cut: no board file given (see cutboard cut --help)");
    if (rc == 0 && !o->n_paths)
        rc = cli_fail(CB_ERR_USAGE, "cut: no --path given, e.g. --path 3,7,9");
    return rc ? rc : -1;
}

void cli_cut_options_free(cli_cut_options *o)
{
    for (size_t i = 0; i < o->n_paths; i++)
        free(o->owned[i]);
    o->n_paths = 0;
}

int cli_cut(int argc, char **argv)
{
    cli_cut_options o;
    int rc = cli_cut_parse(argc, argv, &o);
    if (rc < 0)
        rc = run(o.path, o.theme_dir, o.sheet, o.paths, o.n_paths, o.json_path);
    cli_cut_options_free(&o);
    return rc;
}
