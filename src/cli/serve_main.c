/* cutboard-serve: the server program that `cutboard serve` runs in its
 * place (src/cli/serve_exec.c); installed in libexec/cutboard, not on the
 * PATH. It alone links libmicrohttpd. */
#include <signal.h>

#include "cli.h"

int main(int argc, char **argv)
{
    /* A closed pipe is a write error (exit 74), not a silent death. */
    signal(SIGPIPE, SIG_IGN);
    return cli_close_stdout(cli_serve(argc, argv));
}
