/* cutboard serve runs the server program, cutboard-serve, in its place
 * (exec: the same process, so the same pid for signals, the same
 * arguments, standard streams and exit code). Only that program links
 * libmicrohttpd: every other command starts without loading it and the
 * TLS libraries under it (about 0.8 ms of a one-game run). */
#define _XOPEN_SOURCE 700 /* readlink */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

#ifndef CB_LIBEXECDIR
#define CB_LIBEXECDIR "/usr/local/libexec/cutboard"
#endif
#define SERVER "cutboard-serve"

/* PATH when it is a program this process may run. */
static int runnable(const char *path)
{
    return access(path, X_OK) == 0;
}

int cli_serve_exec(int argc, char **argv)
{
    /* Beside the running program, named after it (a build folder: cutboard
     * runs cutboard-serve, the test hooks' build its own); then in
     * ../libexec/cutboard beside its bin folder (an installed tree, even
     * one moved elsewhere); then where make install put it. */
    char exe[PATH_MAX], path[PATH_MAX + 64];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    char *slash = n > 0 ? (exe[n] = 0, strrchr(exe, '/')) : NULL;
    const char *tried[3] = {NULL, NULL, NULL};
    char beside[PATH_MAX + 64], up[PATH_MAX + 64];
    if (slash) {
        snprintf(beside, sizeof beside, "%s-serve", exe);
        *slash = 0;
        snprintf(up, sizeof up, "%s/../libexec/cutboard/" SERVER, exe);
        tried[0] = beside;
        tried[1] = up;
    }
    tried[2] = CB_LIBEXECDIR "/" SERVER;
    for (int i = 0; i < 3; i++) {
        if (!tried[i] || !runnable(tried[i]))
            continue;
        snprintf(path, sizeof path, "%s", tried[i]);
        /* its own name first, then this command's ARGC arguments */
        char **args = malloc(((size_t)argc + 1) * sizeof *args);
        if (!args)
            return cli_fail(CB_ERR_NOMEM, "out of memory");
        args[0] = path;
        for (int k = 1; k < argc; k++)
            args[k] = argv[k];
        args[argc] = NULL;
        fflush(NULL);
        execv(path, args);
        int e = errno;
        free(args);
        return cli_fail(CB_ERR_INTERNAL, "serve: cannot run %s: %s", path, strerror(e));
    }
    return cli_fail(CB_ERR_NOINPUT, "serve: the server program " SERVER " is not beside the "
                    "program (%s), in its ../libexec/cutboard or in %s: install it with "
                    "make install", slash ? exe : "?", CB_LIBEXECDIR);
}
