/* cutboard deck merge: the manifests of a deck's shards (or of any slices
 * that together make one deck) as one manifest, in index order, with one
 * summary; the library (cb_deck_merge) checks and merges, this file parses
 * the command line and writes the result all-or-nothing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char usage[] =
    "usage: cutboard deck merge MANIFEST... -o DECK.jsonl\n"
    "\n"
    "Merges the manifests of a deck's shards (cutboard deck --shard K/N\n"
    "--manifest ...), given in any order, into the manifest of the whole deck:\n"
    "every game line as it was, in index order, then one summary over all of\n"
    "them, as one run of the whole deck writes it. Checks that the manifests\n"
    "are of one deck (master seed, type tolerance, missions and node types,\n"
    "shards, sheets a game: other options are not in a manifest), that every\n"
    "game is there once, and that no sheet is in two games (by its hash):\n"
    "shards cannot see each other's boards.\n"
    "\n"
    "  -o, --output FILE    the merged manifest (- for standard output)\n"
    "  -h, --help           this help\n"
    "\n"
    "Exit codes: 0 ok, 64 bad option, 65 a manifest is malformed, stopped or of\n"
    "another deck, games are missing or twice, or a sheet is in two games (the\n"
    "message names the file:line, the games and the hash), 66 missing input,\n"
    "70 out of memory, 73 cannot create output, 74 write error. Nothing is\n"
    "written on error.\n";

int cli_deck_merge_parse(int argc, char **argv, const char **inputs, size_t *n_inputs,
                         const char **output)
{
    cli_args a;
    size_t n = 0;
    *output = NULL;
    *n_inputs = 0;
    cli_args_init(&a, argc, argv);
    while (cli_args_next(&a)) {
        if (cli_help_version(&a, usage))
            return 0;
        if (cli_value(&a, "-o|--output"))
            *output = a.val;
        else if (a.bad)
            return CLI_EXIT_USAGE;
        else if (a.arg[0] == '-' && a.arg[1])
            return cli_unknown("deck merge", a.arg);
        else
            inputs[n++] = a.arg;
    }
    if (a.bad)
        return CLI_EXIT_USAGE;
    if (!*output)
        return cli_fail(CB_ERR_USAGE, "deck merge: give -o FILE (or -o - for standard output)");
    if (n == 0)
        return cli_fail(CB_ERR_USAGE, "deck merge: give the manifests to merge");
    for (size_t i = 0; i < n; i++)
        if (strcmp(*output, "-") != 0 && cli_same_file(inputs[i], *output))
            return cli_fail(CB_ERR_USAGE, "-o %s is also an input: write the merge to a file "
                            "of its own", *output);
    *n_inputs = n;
    return -1;
}

int cli_deck_merge(int argc, char **argv)
{
    const char *output, **inputs = malloc((size_t)argc * sizeof *inputs);
    size_t n;
    if (!inputs)
        return cli_fail(CB_ERR_NOMEM, "out of memory");
    int rc = cli_deck_merge_parse(argc, argv, inputs, &n, &output);
    cb_error err = {CB_OK, "", 0, ""};
    cb_deck_merge *m = NULL;
    char *text = NULL;
    size_t len = 0;
    cb_status st = rc >= 0 ? CB_OK : cb_deck_merge_new(&m, &err);
    for (size_t i = 0; rc < 0 && st == CB_OK && i < n; i++)
        st = cb_deck_merge_add_file(m, inputs[i], &err);
    if (rc < 0 && st == CB_OK)
        st = cb_deck_merge_end(m, &text, &len, &err);
    cb_deck_merge_free(m);
    free(inputs);
    if (rc < 0 && st == CB_OK) {
        cli_output out = {output, text, len};
        st = cli_write_all(&out, 1, &err);
    }
    free(text);
    if (rc >= 0)
        return rc;
    return st == CB_OK ? 0 : cli_error(st, &err);
}
