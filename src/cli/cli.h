/* The command line's shared parts: option parsing, data paths, errors and
 * all-or-nothing file writes. Each subcommand lives in its own file and is
 * called from main.c with the arguments after its name. */
#ifndef CB_CLI_H
#define CB_CLI_H

#include <stddef.h>
#include "cutboard.h"

/* Subcommands: argv[0] is the subcommand's name. Each returns an exit code. */
int cli_game(int argc, char **argv);
int cli_render(int argc, char **argv);
int cli_check(int argc, char **argv);
int cli_cut(int argc, char **argv);
int cli_deck(int argc, char **argv);
int cli_network(int argc, char **argv);
int cli_playtest(int argc, char **argv);
int cli_serve(int argc, char **argv);   /* in the server program, cutboard-serve */
/* cutboard serve: runs the server program (cutboard-serve, which alone
 * links libmicrohttpd) in this process with the same arguments; returns
 * only when it cannot (66 not found, 70 not run). */
int cli_serve_exec(int argc, char **argv);

/* Standard output's buffered reports reach it, or exit 74 with one line:
 * a full disk, a closed descriptor (>&-) or a reader gone is a failed run.
 * Returns RC when they do. */
int cli_close_stdout(int rc);

/* Exit codes (sysexits.h's values; README.md lists them). */
enum {
    CLI_EXIT_USAGE = 64,    /* a bad option or option value */
    CLI_EXIT_DATA = 65,     /* bad input data; check: a board breaks the contract */
    CLI_EXIT_NOINPUT = 66,  /* an input is missing or unreadable */
    CLI_EXIT_SOFTWARE = 70, /* out of memory, no board found, stopped, a library failed */
    CLI_EXIT_CANTCREAT = 73,/* an output cannot be created */
    CLI_EXIT_IO = 74        /* writing an output failed */
};

/* The exit code for a library error of kind STATUS (0 for CB_OK). */
int cli_exit_code(cb_status status);

/* The command-line option of a library field ("start_cap" is
 * "--start-cap", "output" is "-o") in OUT, CAP bytes. */
const char *cli_option_of(const char *field, char *out, size_t cap);

/* Prints ERR's line ("--players: 12 is out of range (2..9)" when an option
 * is at fault, else its message; "out of memory" when it has none) and
 * returns the exit code for STATUS (usually err->status). */
int cli_error(cb_status status, const cb_error *err);

/* Prints "cutboard: " and the formatted message as one line on stderr and
 * returns the exit code for CODE. */
/* A line on standard error ("cutboard: " and the formatted text), with
 * control characters and bytes that are not UTF-8 escaped (\xHH), as
 * cli_fail's: every text from an input or argv reaches the terminal
 * through one of the two. */
void cli_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int cli_fail(cb_status code, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Walks argv one option at a time. Long options also take "--name=value". */
typedef struct {
    int argc;
    char **argv;
    int i;              /* index of the current argument */
    const char *arg;    /* the current argument */
    const char *val;    /* the value of the option just matched */
    int bad;            /* an option was missing its value (error printed) */
} cli_args;

void cli_args_init(cli_args *a, int argc, char **argv);

/* Advances to the next argument; 0 at the end. */
int cli_args_next(cli_args *a);

/* 1 when the current argument is one of NAMES ("-o|--output"), a flag. */
int cli_flag(const cli_args *a, const char *names);

/* 1 when the current argument is one of NAMES and has a value, which goes to
 * a->val (consuming the next argument unless given as --name=value). A
 * missing value prints an error, sets a->bad and returns 0. */
int cli_value(cli_args *a, const char *names);

/* Number parsing for option OPT; print a one-line error and return -1 when
 * S is not a number in range. */
int cli_int(const char *opt, const char *s, int lo, int hi, int *out);
int cli_double(const char *opt, const char *s, double *out);

/* --rules VALUE for the game and render commands: last, first or none
 * (CB_RULES_PAGE_*); prints a one-line error and returns -1 otherwise. */
int cli_rules_value(const char *s, int *out);

/* An unknown option or stray argument: prints the error, returns 64. */
int cli_unknown(const char *command, const char *arg);

/* -h/--help prints USAGE, -V/--version the version, both to standard
 * output: 1 when the current argument was one of them. */
int cli_help_version(cli_args *a, const char *usage);

/* Whether PATH is a folder. */
int cli_is_dir(const char *path);

/* The installed data file or folder REL (e.g. "icons/default") in OUT, as
 * cb_data_find finds it. 0, or the exit code after one error line naming
 * where it looked. */
int cli_data_path(const char *rel, char *out, size_t len);

/* The folder of --theme THEME (NULL: the default theme) in OUT, as
 * cb_theme_find finds it: a path is a folder, a name an installed theme.
 * 0, or the exit code after one error line. */
int cli_theme_path(const char *theme, char *out, size_t len);

/* Reads a board file or OBJ drawing: PATH, or standard input for "-". */
cb_status cli_game_read(const char *path, const cb_theme *theme, cb_game **game, cb_error *err);

/* A seed made of two random words and a number, for when none is given. */
void cli_random_seed(char *out, size_t len);

/* The board files a command reads, in argument order; "-" (standard
 * input) at most once. */
typedef struct {
    const char **paths;
    size_t n;
} cli_inputs;

/* Adds PATH, an argument of a command given ARGC arguments (room for them
 * all is made on the first call). 0, or the exit code after the error line. */
int cli_inputs_add(cli_inputs *in, int argc, const char *path);
void cli_inputs_free(cli_inputs *in);

/* Loads the theme in THEME_DIR (NULL: the default; for type names) and the
 * board file PATH. Returns 0 or an exit code (the error is printed); on
 * success the caller frees *theme and *game. */
int cli_load_board(const char *path, const char *theme_dir, cb_theme **theme, cb_game **game);

/* One output file of a command: PATH gets LEN bytes of DATA. */
typedef struct {
    const char *path;
    const void *data;
    size_t len;
} cli_output;

/* An output made as it is written: PATH gets what PRODUCE(ARG, ...) writes. */
typedef struct {
    const char *path;
    cb_produce_fn produce;
    void *arg;
} cli_stream;

/* A board file made as it is written: cli_stream's PRODUCE for ARG a
 * cli_board_json (cb_json_write of GAME). */
typedef struct {
    const cb_game *game;
    const cb_theme *theme;
} cli_board_json;
cb_status cli_board_json_write(void *arg, cb_write_fn write, void *ctx, cb_error *err);

/* Writes every output all-or-nothing: two outputs naming one file, or an
 * output naming a file the run reads (cli_reads), are refused first
 * (CB_ERR_USAGE); then each is staged and flushed to disk (a stop signal
 * may end the process meanwhile: nothing is committed), then all are
 * committed together by cb_file_commit_all with SIGINT/SIGTERM/SIGHUP held.
 * On failure every output is as it was and err says why; a signal with its
 * default action that arrives while held discards them all (the process
 * then dies of it). Test hook: $CUTBOARD_TEST_STAGE_DELAY_MS waits between
 * the two. */
cb_status cli_write_all(const cli_output *outs, size_t n, cb_error *err);
/* The same with streamed outputs too, all-or-nothing over both lists. */
cb_status cli_write_all_streams(const cli_output *outs, size_t n, const cli_stream *streams,
                                size_t n_streams, cb_error *err);
/* The same, where PRE[k] (PRE may be NULL) is outs[k] staged and written
 * already (its data unused): committed with the others, or discarded. */
cb_status cli_write_staged(const cli_output *outs, size_t n, cb_staged_file *const *pre,
                           cb_error *err);

/* Refuses two outputs that name one file (OPTS[k] gave PATHS[k]; NULL
 * paths are skipped), before any work: 0, or the exit code after the
 * error line. */
int cli_distinct_outputs(const char *const *opts, const char *const *paths, size_t n);
/* 1 when paths A and B name one file: the same text, the same resolved
 * folder and name, or (both existing) the same device and inode. */
int cli_same_file(const char *a, const char *b);
/* Notes PATH as a file this run reads: no output of the run may replace it
 * (cli_write_all and friends refuse with CB_ERR_USAGE). */
void cli_reads(const char *path);

/* Reads $SOURCE_DATE_EPOCH into O (no dates when unset); 0, or the exit
 * code after printing the error. */
int cli_source_date(cb_render_options *o);
/* Keeps THEME's icons made ready to print in the user's cache folder:
 * $CUTBOARD_CACHE ("" or "off": none), else $XDG_CACHE_HOME/cutboard, else
 * $HOME/.cache/cutboard. 0, or the exit code after an error line. */
int cli_theme_cache(cb_theme *theme);

/* Test hook: waits up to $NAME ms (at most 10 s) or until a stop signal is
 * pending; nothing when $NAME is unset. Only in the test build
 * (-DCB_TEST_HOOKS); a no-op in the program as shipped. */
void cli_test_hold(const char *name);

/* --obj PATH: one OBJ file per sheet of G, PATH itself for one sheet, else
 * PATH with "-K" before its extension for sheet K. *outs (n_sheets entries,
 * paths and data malloc'd) is freed by cli_obj_free. */
cb_status cli_obj_outputs(const cb_game *g, const cb_theme *theme, const char *path,
                          cli_output **outs, cb_error *err);
void cli_obj_free(cli_output *outs, size_t n);

/* SVG output: one SVG file per sheet of G, named as cli_obj_outputs names
 * them (freed by cli_obj_free); "-" (standard output) takes one sheet. */
cb_status cli_svg_outputs(const cb_game *g, const cb_theme *theme, const cb_render_options *opt,
                          const char *path, cli_output **outs, cb_error *err);

/* The output format: --format FORMAT when given ("pdf" or "svg"), else SVG
 * when PATH ends in .svg. *svg is 1 for SVG; 0, or the exit code after the
 * error line. */
int cli_output_format(const char *format, const char *path, int *svg);

/* The board options every generating command shares (seed, players, paper,
 * theme, font, caps...): their help text, their parsing and their
 * resolution into a spec, a loaded theme and render options. */
typedef struct {
    cb_spec spec;
    cb_render_options render;
    const char *theme_dir;
    const char *paper;
    int portrait;
    char seed_buf[64];
    char theme_buf[4096];
    char font_buf[4096];
    cb_theme *theme;        /* loaded by cli_board_options_finish */
    int checked;            /* cli_board_options_check has passed */
} cli_board_options;

extern const char cli_board_options_help[];

void cli_board_options_init(cli_board_options *o);

/* 1 when the current argument was one of the board options, 0 when it is
 * not, -1 when its value was bad (the error is printed). */
int cli_board_option(cli_args *a, cli_board_options *o);

/* Applies paper and orientation, picks a random seed if none was given and
 * checks the spec, touching no file. Returns 0 or an exit code (the error
 * is printed). */
int cli_board_options_check(cli_board_options *o);

/* Runs cli_board_options_check if it has not run, finds the default theme
 * and font, and loads the theme. Returns 0 or an exit code (the error is
 * printed). */
int cli_board_options_finish(cli_board_options *o);
void cli_board_options_free(cli_board_options *o);

/* The game command's parse stage, with no file touched (the fuzz target
 * tests/fuzz/fuzz_cli.c drives it): fills G from argv and checks the
 * options. Returns -1 when the command should go on to generate, else the
 * exit code (0 after --help or --version; the error is printed). */
typedef struct {
    cli_board_options board;
    const char *output, *json_path, *obj_path, *format;
    int svg;            /* the output is SVG, one file per sheet */
    int rules_given;    /* --rules was on the command line */
} cli_game_options;
int cli_game_parse(int argc, char **argv, cli_game_options *g);

/* The other commands' parse stages, the same way (fuzz_cli.c drives them
 * too): -1 to go on and run, else the exit code. */
typedef struct {
    cli_inputs inputs;      /* the board files, checked one after another */
    const char *theme_dir;
    int start_cap, node_cap;
} cli_check_options;
int cli_check_parse(int argc, char **argv, cli_check_options *o);
/* Frees what cli_check_parse allocated (after it, whatever it returned). */
void cli_check_options_free(cli_check_options *o);

#define CLI_MAX_CUTS 64
typedef struct {
    const char *path, *theme_dir, *json_path;
    int sheet;
    cb_cut_path paths[CLI_MAX_CUTS];
    uint32_t *owned[CLI_MAX_CUTS];  /* the paths' node lists */
    size_t n_paths;
} cli_cut_options;
int cli_cut_parse(int argc, char **argv, cli_cut_options *o);
/* Frees what cli_cut_parse allocated (after it, whatever it returned). */
void cli_cut_options_free(cli_cut_options *o);

typedef struct {
    cli_inputs inputs;          /* the board files, pages in this order */
    const char *output, *json_path, *obj_path, *theme_dir;
    int force, start_cap, node_cap;
    int svg;                    /* the output is SVG, one file per sheet */
    cb_render_options ropt;     /* --rules, --font, --ink-friendly */
} cli_render_options;
int cli_render_parse(int argc, char **argv, cli_render_options *o);
/* Frees what cli_render_parse allocated (after it, whatever it returned). */
void cli_render_options_free(cli_render_options *o);

enum { CLI_DECK_RULES_DEFAULT = 0, CLI_DECK_RULES_EACH, CLI_DECK_RULES_ONCE, CLI_DECK_RULES_NONE };
typedef struct {
    const char *output, *out_dir, *manifest;
    size_t start, count;
    int jobs, quiet, max_tries;
    int playtest;           /* --playtest N: games per candidate */
    double tolerance;   /* a fraction */
    int rules;          /* CLI_DECK_RULES_* */
    size_t shard, shards; /* --shard K/N (shards 0: none); start/count: the deck */
} cli_deck_args;
/* BOARD gets the board options (checked, no theme loaded yet), DA the rest. */
int cli_deck_parse(int argc, char **argv, cli_board_options *board, cli_deck_args *da);
/* cutboard deck merge (argv[0] "merge"): INPUTS (room for ARGC) gets the
 * manifests, *output the -o file; -1 to go on, else the exit code. */
int cli_deck_merge_parse(int argc, char **argv, const char **inputs, size_t *n_inputs,
                         const char **output);
int cli_deck_merge(int argc, char **argv);

typedef struct {
    cb_net_spec spec;       /* checked; its seed may point into seed_buf */
    const char *output, *json_path, *csv_path, *font, *model;
    int analyze;
    double page_w, page_h;  /* mm, orientation applied */
    char seed_buf[64];
} cli_network_options;
int cli_network_parse(int argc, char **argv, cli_network_options *o);

#endif
