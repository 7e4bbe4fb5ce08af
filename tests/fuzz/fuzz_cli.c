/* Fuzz target: the command line's parse stage (cli_game_parse: the option
 * walker, number and paper parsing, the spec check) on arbitrary argv. The
 * input is split into arguments on NUL bytes; nothing is generated or
 * written. Its output (errors, --help) goes to /dev/null. */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_ARGS 64

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

    /* Quiet while parsing: the parser prints its errors and --help. */
    fflush(stdout);
    fflush(stderr);
    int out = dup(1), err = dup(2), null = open("/dev/null", O_WRONLY);
    if (null >= 0) {
        dup2(null, 1);
        dup2(null, 2);
    }
    cli_game_options g;
    int rc = cli_game_parse(argc, argv, &g);
    fflush(stdout);
    fflush(stderr);
    if (out >= 0)
        dup2(out, 1), close(out);
    if (err >= 0)
        dup2(err, 2), close(err);
    if (null >= 0)
        close(null);

    if (rc == -1) {
        /* Going on to generate: the spec must be one the library accepts. */
        cb_error e = {CB_OK, ""};
        if (!g.output || !g.board.spec.seed || cb_spec_check(&g.board.spec, &e) != CB_OK)
            abort();
    } else if (rc != 0 && rc != CB_ERR_USAGE && rc != CB_ERR_NOINPUT) {
        abort();
    }
    cli_board_options_free(&g.board);
    free(text);
    return 0;
}
