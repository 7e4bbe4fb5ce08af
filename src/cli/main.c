/* cutboard: the command line. Picks the subcommand and hands it the rest of
 * argv; with no subcommand it makes a game (one sheet per player). */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const char usage[] =
    "usage: cutboard [game] [options] -o FILE.pdf   one sheet per player\n"
    "       cutboard COMMAND --help                 a command's options\n"
    "\n"
    "Commands:\n"
    "  game       a game: one board per player, or one shared board (default)\n"
    "  render     print a board file or an OBJ drawing again, checked\n"
    "  check      a board file's contract verdict and fairness figures\n"
    "  cut        simulate cuts on a board file: which pieces fall off\n"
    "  deck       many unique games from one seed, with a manifest (print shops)\n"
    "  playtest   play many games with agents: is the game fair, does it end?\n"
    "  network    an encounter map from a classic network model, with its analysis\n"
    "  serve      the web page and the HTTP API (http://127.0.0.1:8080/)\n"
    "\n"
    "  help [COMMAND]  the help of cutboard or of one command (also: help deck merge)\n"
    "  -h, --help      this help, then the game's options\n"
    "  -V, --version   the version\n";

typedef struct {
    const char *name;
    int (*run)(int argc, char **argv);
} command;

static const command commands[] = {
    {"game", cli_game},
    {"render", cli_render},
    {"check", cli_check},
    {"cut", cli_cut},
    {"deck", cli_deck},
    {"playtest", cli_playtest},
    {"network", cli_network},
    {"serve", cli_serve_exec},
};

/* The commands, then the game's options (the default command). */
static int top_help(void)
{
    char *game_help[] = {"game", "--help", NULL};
    fputs(usage, stdout);
    fputs("\n", stdout);
    return cli_game(2, game_help);
}

static int run_command(int argc, char **argv);

int main(int argc, char **argv)
{
    return cli_close_stdout(run_command(argc, argv));
}

static int run_command(int argc, char **argv)
{
    /* A closed pipe on standard output is a write error (exit 74), not a
     * silent death. */
    signal(SIGPIPE, SIG_IGN);
    size_t n = sizeof commands / sizeof commands[0];
    if (argc >= 2 && argv[1][0] != '-' && strcmp(argv[1], "help") != 0) {
        for (size_t k = 0; k < n; k++)
            if (strcmp(argv[1], commands[k].name) == 0)
                return commands[k].run(argc - 1, argv + 1);
        return cli_fail(CB_ERR_USAGE, "unknown command \"%s\" (see cutboard --help)", argv[1]);
    }
    if (argc == 2 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0))
        return top_help();
    /* cutboard help [COMMAND [SUBCOMMAND]] is cutboard [COMMAND [SUBCOMMAND]] --help */
    if (argc >= 2 && argc <= 4 && strcmp(argv[1], "help") == 0) {
        if (argc == 2)
            return top_help();
        char *sub[] = {argv[2], argc == 4 ? argv[3] : "--help", "--help", NULL};
        for (size_t k = 0; k < n; k++)
            if (strcmp(argv[2], commands[k].name) == 0)
                return commands[k].run(argc - 1, sub);
        return cli_fail(CB_ERR_USAGE, "help: no command \"%s\" (see cutboard --help)", argv[2]);
    }
    if (argc == 3 && strcmp(argv[1], "--help") == 0) {
        char *sub[] = {argv[2], "--help", NULL};
        for (size_t k = 0; k < n; k++)
            if (strcmp(argv[2], commands[k].name) == 0)
                return commands[k].run(2, sub);
    }
    if (argc == 2 && (strcmp(argv[1], "-V") == 0 || strcmp(argv[1], "--version") == 0)) {
        printf("cutboard %s\n", CB_VERSION);
        return 0;
    }
    return cli_game(argc, argv);
}
