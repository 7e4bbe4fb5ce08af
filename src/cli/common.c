/* The command line's shared parts; see cli.h. */
#define _XOPEN_SOURCE 700 /* realpath */
#include "cli.h"
#include "base/utf8.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio_ext.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#ifndef CB_DATADIR
#define CB_DATADIR "/usr/local/share/cutboard"
#endif

/* "cutboard: " and the message, made safe for a terminal, as one line. */
static void vnote(const char *fmt, va_list ap)
{
    char raw[2048], shown[sizeof raw];
    vsnprintf(raw, sizeof raw, fmt, ap);
    fprintf(stderr, "cutboard: %s\n", cb_text_shown(raw, shown, sizeof shown));
}

int cli_exit_code(cb_status status)
{
    switch (status) {
    case CB_OK: return 0;
    case CB_ERR_USAGE: return CLI_EXIT_USAGE;
    case CB_ERR_DATA: return CLI_EXIT_DATA;
    case CB_ERR_NOINPUT: return CLI_EXIT_NOINPUT;
    case CB_ERR_CANTCREAT: return CLI_EXIT_CANTCREAT;
    case CB_ERR_IO: return CLI_EXIT_IO;
    case CB_ERR_NOMEM:
    case CB_ERR_INFEASIBLE:
    case CB_ERR_STOPPED:
    case CB_ERR_INTERNAL: break;
    }
    return CLI_EXIT_SOFTWARE;
}

const char *cli_option_of(const char *field, char *out, size_t cap)
{
    if (strcmp(field, "output") == 0) {
        snprintf(out, cap, "-o");
        return out;
    }
    size_t k = 0;
    for (const char *p = "--"; *p && k + 1 < cap; p++)
        out[k++] = *p;
    for (const char *p = field; *p && k + 1 < cap; p++)
        out[k++] = *p == '_' ? '-' : *p;
    out[k] = '\0';
    return out;
}

int cli_error(cb_status status, const cb_error *err)
{
    const char *message = err->message[0] ? err->message : "out of memory";
    char option[sizeof err->field + 4];
    if (err->field[0])
        return cli_fail(status, "%s: %s", cli_option_of(err->field, option, sizeof option),
                        message);
    return cli_fail(status, "%s", message);
}

int cli_fail(cb_status code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vnote(fmt, ap);
    va_end(ap);
    return cli_exit_code(code);
}

void cli_note(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vnote(fmt, ap);
    va_end(ap);
}

void cli_args_init(cli_args *a, int argc, char **argv)
{
    a->argc = argc;
    a->argv = argv;
    a->i = 0;
    a->arg = NULL;
    a->val = NULL;
    a->bad = 0;
}

int cli_args_next(cli_args *a)
{
    if (a->bad || a->i + 1 >= a->argc)
        return 0;
    a->arg = a->argv[++a->i];
    return 1;
}

/* Whether ARG is one of the names in "-o|--output"; *eq is set to the value
 * after '=' for "--name=value". */
static int matches(const char *arg, const char *names, const char **eq)
{
    *eq = NULL;
    for (const char *p = names; *p;) {
        const char *bar = strchr(p, '|');
        size_t n = bar ? (size_t)(bar - p) : strlen(p);
        if (strncmp(arg, p, n) == 0) {
            if (arg[n] == 0)
                return 1;
            if (arg[n] == '=' && n > 2 && p[1] == '-') {
                *eq = arg + n + 1;
                return 1;
            }
        }
        p += n + (bar != NULL);
    }
    return 0;
}

int cli_flag(const cli_args *a, const char *names)
{
    const char *eq;
    return matches(a->arg, names, &eq) && !eq;
}

int cli_value(cli_args *a, const char *names)
{
    const char *eq;
    if (!matches(a->arg, names, &eq))
        return 0;
    if (eq) {
        a->val = eq;
        return 1;
    }
    if (a->i + 1 >= a->argc) {
        cli_fail(CB_ERR_USAGE, "%s needs a value", a->arg);
        a->bad = 1;
        return 0;
    }
    a->val = a->argv[++a->i];
    return 1;
}

int cli_rules_value(const char *s, int *out)
{
    if (strcmp(s, "last") == 0)
        *out = CB_RULES_PAGE_LAST;
    else if (strcmp(s, "first") == 0)
        *out = CB_RULES_PAGE_FIRST;
    else if (strcmp(s, "none") == 0)
        *out = CB_RULES_PAGE_NONE;
    else {
        cli_fail(CB_ERR_USAGE, "--rules: \"%.40s\" is not last, first or none", s);
        return -1;
    }
    return 0;
}

int cli_int(const char *opt, const char *s, int lo, int hi, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi) {
        cli_fail(CB_ERR_USAGE, "%s: \"%s\" is not a whole number from %d to %d", opt, s, lo,
                 hi);
        return -1;
    }
    *out = (int)v;
    return 0;
}

int cli_double(const char *opt, const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || !isfinite(v)) {
        cli_fail(CB_ERR_USAGE, "%s: \"%s\" is not a number", opt, s);
        return -1;
    }
    *out = v;
    return 0;
}

int cli_help_version(cli_args *a, const char *usage)
{
    if (cli_flag(a, "-h|--help")) {
        fputs(usage, stdout);
        return 1;
    }
    if (cli_flag(a, "-V|--version")) {
        printf("cutboard %s\n", CB_VERSION);
        return 1;
    }
    return 0;
}

int cli_unknown(const char *command, const char *arg)
{
    const char *gap = *command ? " " : "";
    if (arg[0] == '-')
        return cli_fail(CB_ERR_USAGE, "unknown option \"%s\" (see cutboard %s%s--help)", arg,
                        command, gap);
    return cli_fail(CB_ERR_USAGE, "unexpected argument \"%s\" (see cutboard %s%s--help)", arg,
                    command, gap);
}

int cli_is_dir(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
}

int cli_data_path(const char *rel, char *out, size_t len)
{
    cb_error err = {CB_OK, "", 0, ""};
    if (cb_data_find(rel, out, len, &err) != CB_OK)
        return cli_error(err.status, &err);
    return 0;
}

int cli_theme_path(const char *theme, char *out, size_t len)
{
    cb_error err = {CB_OK, "", 0, ""};
    if (cb_theme_find(theme, out, len, &err) != CB_OK)
        return cli_fail(err.status, "--theme: %s", err.message);
    return 0;
}

/* Random words are easy to read back from a printed sheet. */
void cli_random_seed(char *out, size_t len)
{
    static const char *const words[] = {
        "amber", "birch", "cedar", "delta", "ember", "fjord", "grove", "heron",
        "iris", "jade", "kelp", "lark", "maple", "north", "opal", "pine",
        "quartz", "river", "stone", "tide", "umber", "vale", "willow", "yarrow"};
    unsigned char r[4] = {0, 0, 0, 0};
    FILE *f = fopen("/dev/urandom", "rb");
    if (f) {
        if (fread(r, 1, sizeof r, f) != sizeof r)
            r[0] = r[1] = r[2] = r[3] = 0;
        fclose(f);
    }
    snprintf(out, len, "%s-%s-%u", words[r[0] % 24], words[r[1] % 24],
             (unsigned)(r[2] << 8 | r[3]) % 1000);
}

int cli_source_date(cb_render_options *o)
{
    const char *env = getenv("SOURCE_DATE_EPOCH");
    cb_error err = {CB_OK, "", 0, ""};
    o->dated = 0;
    if (!env)
        return 0;
    if (cb_source_date_parse(env, &o->source_date, &err) != CB_OK)
        return cli_error(err.status, &err);
    o->dated = 1;
    return 0;
}

int cli_theme_cache(cb_theme *theme)
{
    char dir[4096];
    const char *env = getenv("CUTBOARD_CACHE"), *xdg = getenv("XDG_CACHE_HOME"),
               *home = getenv("HOME");
    int n = -1;
    if (env) /* "" or "off": none */
        n = *env && strcmp(env, "off") != 0 ? snprintf(dir, sizeof dir, "%s", env) : -1;
    else if (xdg && xdg[0] == '/') /* relative ones are to be ignored */
        n = snprintf(dir, sizeof dir, "%s/cutboard", xdg);
    else if (home && home[0] == '/')
        n = snprintf(dir, sizeof dir, "%s/.cache/cutboard", home);
    if (n < 0 || (size_t)n >= sizeof dir)
        return 0;
    cb_error err = {CB_OK, "", 0, ""};
    if (cb_theme_cache_dir(theme, dir, &err) != CB_OK)
        return cli_error(err.status, &err);
    return 0;
}

/* Test hooks, compiled only into the test build (-DCB_TEST_HOOKS, make's
 * build/cutboard-hooks): with $NAME=N the CLI waits at that point up to
 * N ms (at most 10 s), so a test can deliver a signal there. The wait ends
 * as soon as SIGINT, SIGTERM or SIGHUP is pending (where they are held), so
 * the test need not sleep out the delay; where they are not held, the
 * signal ends the process during the wait. With $CUTBOARD_TEST_HOLD_MARK
 * set, the file it names is created when the wait begins: a test that runs
 * the CLI under valgrind cannot tell from outside when its start-up ends. */
#ifndef CB_TEST_HOOKS
void cli_test_hold(const char *name)
{
    (void)name; /* the program as shipped reads no test variables */
}
#else
void cli_test_hold(const char *name)
{
    const char *env = getenv(name);
    long ms = env ? strtol(env, NULL, 10) : 0;
    const char *mark = getenv("CUTBOARD_TEST_HOLD_MARK");
    if (ms > 0 && mark) {
        FILE *f = fopen(mark, "w");
        if (f)
            fclose(f);
    }
    for (long waited = 0; waited < (ms > 10000 ? 10000 : ms); waited++) {
        sigset_t pending;
        if (sigpending(&pending) == 0 &&
            (sigismember(&pending, SIGINT) == 1 || sigismember(&pending, SIGTERM) == 1 ||
             sigismember(&pending, SIGHUP) == 1))
            return;
        struct timespec t = {0, 1000000L};
        nanosleep(&t, NULL);
    }
}
#endif

/* The files this run reads, so that no output replaces one of them. */
static const char **read_paths; /* still reachable at exit: the run's length */
static size_t n_read_paths;

/* PATH with its folder resolved (the file itself need not exist), in OUT;
 * PATH itself when the folder cannot be resolved. */
static void resolved(const char *path, char *out, size_t len)
{
    char dir[PATH_MAX], real[PATH_MAX];
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    size_t n = slash ? (size_t)(slash - path) : 0;
    snprintf(dir, sizeof dir, "%.*s", (int)(n ? n : 1), slash ? path : ".");
    if (slash == path)
        snprintf(dir, sizeof dir, "/");
    if (realpath(dir, real))
        snprintf(out, len, "%s/%s", real, base);
    else
        snprintf(out, len, "%s", path);
}

int cli_same_file(const char *a, const char *b)
{
    char ra[PATH_MAX + 256], rb[PATH_MAX + 256];
    struct stat sa, sb;
    if (strcmp(a, b) == 0)
        return 1;
    resolved(a, ra, sizeof ra);
    resolved(b, rb, sizeof rb);
    return strcmp(ra, rb) == 0 ||
           (stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
            sa.st_ino == sb.st_ino && S_ISREG(sa.st_mode));
}

int cli_distinct_outputs(const char *const *opts, const char *const *paths, size_t n)
{
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; paths[i] && j < i; j++) {
            if (!paths[j])
                continue;
            int same = cli_same_file(paths[i], paths[j]);
            if (same && strcmp(paths[i], "-") == 0)
                return cli_fail(CB_ERR_USAGE, "%s and %s: only one output can go to standard "
                                "output (-)", opts[j], opts[i]);
            if (same)
                return cli_fail(CB_ERR_USAGE, "%s and %s both name %s: give each output its own "
                                "file", opts[j], opts[i], paths[i]);
        }
    return 0;
}

/* Writes LEN bytes to standard output; 0 or an errno value (EPIPE when
 * the reader has gone: SIGPIPE is ignored, see main.c). */
static int write_stdout(const void *data, size_t len)
{
    const char *p = data;
    while (len > 0) {
        ssize_t k = write(STDOUT_FILENO, p, len); /* EINTR: deck's SIGINT stops it */
        if (k <= 0)
            return k < 0 ? errno : EIO;
        p += k;
        len -= (size_t)k;
    }
    return 0;
}

/* Writes to standard output, keeping the first error in *CTX. */
static int stdout_sink(void *ctx, const void *data, size_t len)
{
    int *failed = ctx;
    if (!*failed)
        *failed = write_stdout(data, len);
    return *failed;
}

cb_status cli_board_json_write(void *arg, cb_write_fn write, void *ctx, cb_error *err)
{
    const cli_board_json *b = arg;
    return cb_json_write(b->game, b->theme, write, ctx, err);
}

/* An output of either kind: bytes in memory, or made as written. */
typedef struct {
    const char *path;
    const void *data;
    size_t len;
    cb_produce_fn produce;
    void *arg;
} any_output;

/* Discards the staged files in PRE[0..n-1] (PRE may be NULL). */
static void discard_pre(cb_staged_file *const *pre, size_t n)
{
    for (size_t k = 0; pre && k < n; k++)
        cb_file_discard(pre[k]);
}

static cb_status write_outputs(const cli_output *given, size_t n_given, cb_staged_file *const *pre,
                               const cli_stream *streams, size_t n_streams, cb_error *err);

cb_status cli_write_all(const cli_output *outs, size_t n, cb_error *err)
{
    return write_outputs(outs, n, NULL, NULL, 0, err);
}

cb_status cli_write_all_streams(const cli_output *outs, size_t n, const cli_stream *streams,
                                size_t n_streams, cb_error *err)
{
    return write_outputs(outs, n, NULL, streams, n_streams, err);
}

cb_status cli_write_staged(const cli_output *outs, size_t n, cb_staged_file *const *pre,
                           cb_error *err)
{
    return write_outputs(outs, n, pre, NULL, 0, err);
}

/* GIVEN's outputs in memory (PRE[k], when PRE and it are not NULL, is
 * given[k] staged and written already) and STREAMS' made as written. */
static cb_status write_outputs(const cli_output *given, size_t n_given, cb_staged_file *const *pre,
                               const cli_stream *streams, size_t n_streams, cb_error *err)
{
    cb_staged_file *staged[32] = {NULL};
    any_output outs[32];
    size_t n = n_given + n_streams;
    cb_status st = CB_OK;
    if (n > sizeof staged / sizeof staged[0]) {
        discard_pre(pre, n_given);
        err->status = CB_ERR_INTERNAL;
        snprintf(err->message, sizeof err->message, "too many output files (%zu)", n);
        return CB_ERR_INTERNAL;
    }
    for (size_t k = 0; pre && k < n_given; k++)
        staged[k] = pre[k]; /* ours now: committed or discarded below */
    for (size_t k = 0; k < n_given; k++)
        outs[k] = (any_output){given[k].path, given[k].data, given[k].len, NULL, NULL};
    for (size_t k = 0; k < n_streams; k++)
        outs[n_given + k] = (any_output){streams[k].path, NULL, 0, streams[k].produce,
                                         streams[k].arg};
    const any_output *out_std = NULL; /* the one output to standard output, "-" */
    for (size_t k = 0; k < n; k++) {
        if (strcmp(outs[k].path, "-") != 0)
            continue;
        if (out_std) {
            for (size_t j = 0; j < n; j++)
                cb_file_discard(staged[j]);
            err->status = CB_ERR_USAGE;
            snprintf(err->message, sizeof err->message,
                     "only one output can go to standard output (-)");
            return CB_ERR_USAGE;
        }
        out_std = &outs[k];
    }
    /* Names made per sheet can meet another output's or an input's. */
    const char *clash = NULL, *input = NULL;
    for (size_t k = 0; k < n && !clash; k++) {
        for (size_t j = 0; j < k && !clash && &outs[k] != out_std; j++)
            if (cli_same_file(outs[k].path, outs[j].path))
                clash = outs[k].path;
        for (size_t j = 0; j < n_read_paths && !clash && &outs[k] != out_std; j++)
            if (cli_same_file(outs[k].path, read_paths[j]))
                clash = outs[k].path, input = read_paths[j];
    }
    if (clash) {
        for (size_t j = 0; j < n; j++)
            cb_file_discard(staged[j]);
        err->status = CB_ERR_USAGE;
        if (input)
            snprintf(err->message, sizeof err->message, "%s: an output would replace the "
                     "input %s; give the output another name", clash, input);
        else
            snprintf(err->message, sizeof err->message, "%s: two outputs would be written to "
                     "this file; give each output its own name", clash);
        return CB_ERR_USAGE;
    }
    /* Staged files vanish if the process dies, so SIGINT, SIGTERM and SIGHUP
     * may end it while they are written, even while a write blocks on a
     * FIFO or a stalled pipe. They are held from the first name given to a
     * staged file to the last rename: if one arrived, the staged files are
     * discarded instead of renamed, so an interrupted run leaves every
     * existing output as it was, and then dies of the signal as usual. */
    size_t k;
    for (k = 0; k < n && st == CB_OK; k++)
        if (&outs[k] != out_std && !staged[k])
            st = outs[k].produce ? cb_file_stage_stream(outs[k].path, outs[k].produce,
                                                        outs[k].arg, &staged[k], err)
                                 : cb_file_stage(outs[k].path, outs[k].data, outs[k].len,
                                                 &staged[k], err);
    int e = 0;
    if (st == CB_OK && out_std && out_std->produce) {
        cb_status ps = out_std->produce(out_std->arg, stdout_sink, &e, err);
        if (ps != CB_OK && !e)
            st = ps;
    } else if (st == CB_OK && out_std) {
        e = write_stdout(out_std->data, out_std->len);
    }
    if (e) {
        err->status = st = CB_ERR_IO;
        snprintf(err->message, sizeof err->message, "standard output: %s", strerror(e));
    }
    sigset_t stop, old, pending;
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    sigaddset(&stop, SIGHUP);
    sigprocmask(SIG_BLOCK, &stop, &old);
    if (st == CB_OK)
        cli_test_hold("CUTBOARD_TEST_STAGE_DELAY_MS");
    /* Only a signal that will end the process (default action) throws the
     * files away; a command with its own handler (deck) decides itself. */
    int interrupted = 0;
    static const int stops[] = {SIGINT, SIGTERM, SIGHUP};
    for (size_t i = 0; i < sizeof stops / sizeof *stops; i++) {
        struct sigaction now;
        interrupted |= sigpending(&pending) == 0 && sigismember(&pending, stops[i]) == 1 &&
                       sigaction(stops[i], NULL, &now) == 0 && now.sa_handler == SIG_DFL;
    }
    if (st == CB_OK && interrupted) {
        err->status = st = CB_ERR_IO;
        snprintf(err->message, sizeof err->message, "%s: interrupted, nothing written",
                 outs[0].path);
    }
    if (st == CB_OK)
        st = cb_file_commit_all(staged, n, err);
    else
        for (k = 0; k < n; k++)
            cb_file_discard(staged[k]);
    sigprocmask(SIG_SETMASK, &old, NULL); /* a pending signal ends us here */
    return st;
}

cb_status cli_game_read(const char *path, const cb_theme *theme, cb_game **game, cb_error *err)
{
    if (strcmp(path, "-") == 0)
        return cb_game_read(stdin, "standard input", theme, game, err);
    return cb_game_load(path, theme, game, err);
}

void cli_reads(const char *path)
{
    if (strcmp(path, "-") == 0)
        return;
    const char **more = realloc(read_paths, (n_read_paths + 1) * sizeof *more);
    if (more) /* out of memory: the check misses this one, nothing worse */
        (read_paths = more)[n_read_paths++] = path;
}

int cli_inputs_add(cli_inputs *in, int argc, const char *path)
{
    if (!in->paths && !(in->paths = calloc(argc > 0 ? (size_t)argc : 1, sizeof *in->paths)))
        return cli_fail(CB_ERR_NOMEM, "out of memory reading the arguments");
    if (strcmp(path, "-") == 0)
        for (size_t k = 0; k < in->n; k++)
            if (strcmp(in->paths[k], "-") == 0)
                return cli_fail(CB_ERR_USAGE, "-: standard input is given twice; it can be "
                                              "read once");
    in->paths[in->n++] = path;
    cli_reads(path);
    return 0;
}

void cli_inputs_free(cli_inputs *in)
{
    free(in->paths);
    in->paths = NULL;
    in->n = 0;
}

int cli_load_board(const char *path, const char *theme_dir, cb_theme **theme, cb_game **game)
{
    char buf[4096];
    cb_error err = {CB_OK, "", 0, ""};
    int rc = cli_theme_path(theme_dir, buf, sizeof buf);
    if (rc)
        return rc;
    if (cb_theme_load(buf, theme, &err) != CB_OK)
        return cli_error(err.status, &err);
    if (cli_game_read(path, *theme, game, &err) != CB_OK) {
        cb_theme_free(*theme);
        *theme = NULL;
        return cli_error(err.status, &err);
    }
    return 0;
}

/* Nothing written and a closed descriptor is no failure (gnulib's
 * close_stdout does the same). */
int cli_close_stdout(int rc)
{
    int pending = __fpending(stdout) != 0, failed = ferror(stdout) != 0;
    errno = 0;
    int closed = fclose(stdout) == 0;
    int e = errno;
    if (!failed && (closed || (!pending && e == EBADF)))
        return rc;
    if (rc != 0) /* its own error said what went wrong first */
        return rc;
    return cli_fail(CB_ERR_IO, "standard output: write failed: %s",
                    strerror(failed && !e ? EIO : e ? e : EIO));
}
