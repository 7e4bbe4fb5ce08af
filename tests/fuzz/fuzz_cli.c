/* Fuzz target: the command line's parse stage of every subcommand (the
 * option walker, number, paper and path parsing, the spec checks) on
 * arbitrary argv. The input is split into arguments on NUL bytes; when the
 * first is a subcommand's name (deck, deck merge, render, check, cut,
 * network) the rest goes to that command's parser, else all of it to
 * game's. Nothing is generated, read or written. The parsers' output
 * (errors, --help) goes to /dev/null. Every parser must return an exit code
 * it documents, or -1 (go on) with options its run stage can use. */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_ARGS 64

/* An exit code a parser may give: done (0) or refused. */
static void expect_code(int rc)
{
    if (rc != 0 && rc != CLI_EXIT_USAGE && rc != CLI_EXIT_NOINPUT)
        abort();
}

static void parse_game(int argc, char **argv)
{
    cli_game_options g;
    int rc = cli_game_parse(argc, argv, &g);
    if (rc == -1) {
        /* Going on to generate: the spec must be one the library accepts. */
        cb_error e = {CB_OK, "", 0, ""};
        if (!g.output || !g.board.spec.seed || cb_spec_check(&g.board.spec, &e) != CB_OK)
            abort();
    } else {
        expect_code(rc);
    }
    cli_board_options_free(&g.board);
}

static void parse_deck(int argc, char **argv)
{
    cli_board_options o;
    cli_deck_args da;
    int rc = cli_deck_parse(argc, argv, &o, &da);
    if (rc == -1) {
        cb_error e = {CB_OK, "", 0, ""};
        if (!da.output == !da.out_dir || da.count < 1 || da.jobs < 1 ||
            cb_spec_check(&o.spec, &e) != CB_OK ||
            (da.shards && (da.shard >= da.shards || da.shards > da.count)))
            abort();
    } else {
        expect_code(rc);
    }
    cli_board_options_free(&o);
}

/* deck merge: argv[0] is "merge". */
static void parse_deck_merge(int argc, char **argv)
{
    const char **inputs = malloc((size_t)argc * sizeof *inputs), *output = NULL;
    size_t n = 0;
    if (!inputs)
        return;
    int rc = cli_deck_merge_parse(argc, argv, inputs, &n, &output);
    if (rc == -1 ? !output || n < 1 || n >= (size_t)argc : 0)
        abort();
    if (rc != -1)
        expect_code(rc);
    free(inputs);
}

static void parse_render(int argc, char **argv)
{
    cli_render_options o;
    int rc = cli_render_parse(argc, argv, &o);
    if (rc == -1 ? o.inputs.n == 0 || !o.output || o.start_cap < 2 || o.node_cap < 3 : 0)
        abort();
    if (rc != -1)
        expect_code(rc);
    cli_render_options_free(&o);
}

static void parse_check(int argc, char **argv)
{
    cli_check_options o;
    int rc = cli_check_parse(argc, argv, &o);
    if (rc == -1 ? o.inputs.n == 0 : 0)
        abort();
    if (rc != -1)
        expect_code(rc);
    cli_check_options_free(&o);
}

static void parse_cut(int argc, char **argv)
{
    cli_cut_options o;
    int rc = cli_cut_parse(argc, argv, &o);
    if (rc == -1) {
        if (!o.path || o.n_paths < 1 || o.n_paths > CLI_MAX_CUTS || o.sheet < 1)
            abort();
        for (size_t i = 0; i < o.n_paths; i++)
            if (o.paths[i].n < 1 || !o.paths[i].nodes) /* the library wants 2 */
                abort();
    } else {
        expect_code(rc);
    }
    cli_cut_options_free(&o);
}

static void parse_network(int argc, char **argv)
{
    cli_network_options o;
    int rc = cli_network_parse(argc, argv, &o);
    if (rc == -1) {
        cb_error e = {CB_OK, "", 0, ""};
        if ((!o.output && !o.json_path && !o.csv_path) || !o.spec.seed ||
            cb_net_spec_check(&o.spec, &e) != CB_OK)
            abort();
    } else {
        expect_code(rc);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    char *argv[MAX_ARGS + 2];
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = 0;
    int argc = 0;
    argv[argc++] = "game";
    for (size_t i = 0; i <= size && argc < MAX_ARGS + 1;) {
        argv[argc++] = text + i;
        i += strlen(text + i) + 1;
    }
    argv[argc] = NULL;
    static const struct {
        const char *name;
        void (*parse)(int, char **);
    } commands[] = {{"deck", parse_deck},   {"render", parse_render},
                    {"check", parse_check}, {"cut", parse_cut},
                    {"network", parse_network}};
    void (*parse)(int, char **) = parse_game;
    char **args = argv;
    int n = argc;
    for (size_t k = 0; k < sizeof commands / sizeof *commands; k++)
        if (argc > 1 && strcmp(argv[1], commands[k].name) == 0) {
            parse = commands[k].parse;
            args = argv + 1; /* the command's name stands where the program's did */
            n = argc - 1;
        }
    if (argc > 2 && strcmp(argv[1], "deck") == 0 && strcmp(argv[2], "merge") == 0) {
        parse = parse_deck_merge;
        args = argv + 2;
        n = argc - 2;
    }

    /* Quiet while parsing: the parsers print their errors and --help. */
    fflush(stdout);
    fflush(stderr);
    int out = dup(1), err = dup(2), null = open("/dev/null", O_WRONLY);
    if (null >= 0) {
        dup2(null, 1);
        dup2(null, 2);
    }
    parse(n, args);
    fflush(stdout);
    fflush(stderr);
    if (out >= 0)
        dup2(out, 1), close(out);
    if (err >= 0)
        dup2(err, 2), close(err);
    if (null >= 0)
        close(null);
    free(text);
    return 0;
}
