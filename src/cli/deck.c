/* cutboard deck: many games from one master seed, as one PDF or one PDF per
 * game, with a manifest. The library makes, draws and stages the deck
 * (cb_deck_stage); this file parses options, shows progress, commits the
 * outputs (standard output for "-") and handles SIGINT/SIGTERM: the deck
 * stops after the current game, no PDF that is not complete is written, the
 * manifest so far gets an "interrupted" summary, and the exit is 128 + the
 * signal (130, 143). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

static const char usage[] =
    "usage: cutboard deck --count N [options] -o DECK.pdf\n"
    "       cutboard deck --count N [options] --out-dir DIR\n"
    "       cutboard deck merge MANIFEST... -o DECK.jsonl   (see deck merge --help)\n"
    "\n"
    "Makes games start..start+N-1 from one master seed (--seed): game k is the\n"
    "game of seed \"<seed>#<k>\" (or \"<seed>#<k>~<r>\" when its first candidates\n"
    "were rejected), each board unique in the run, missions and node types\n"
    "balanced. One page per sheet; the same options give the same bytes for\n"
    "any --jobs.\n"
    "\n"
    "  -o, --output FILE    one PDF with every game, in index order\n"
    "      --out-dir DIR    one PDF per game instead: DIR/game-00042.pdf\n"
    "  -n, --count N        how many games (default 1)\n"
    "      --start K        the first game's index (default 0)\n"
    "      --only K         game K alone, the same pages as in the full deck\n"
    "      --shard K/N      slice K of N (0-based, K in 0..N-1) of the games: in\n"
    "                       order, sizes within one game of each other; its games\n"
    "                       are the full deck's unless a board repeats one of an\n"
    "                       earlier slice (deck merge finds it). auto/N: K from the\n"
    "                       first set of JOB_COMPLETION_INDEX (Kubernetes),\n"
    "                       SLURM_ARRAY_TASK_ID, AWS_BATCH_JOB_ARRAY_INDEX\n"
    "  -j, --jobs N         threads that make, draw and compress games, 1..64\n"
    "                       (default 1)\n"
    "      --manifest FILE  one JSON line per game, then a summary line\n"
    "      --type-tolerance PCT  a game's share of each node type may differ\n"
    "                       from the type's weight by PCT points (default 8;\n"
    "                       100 turns the check off)\n"
    "      --tries N        candidate games per index before giving up (default 100)\n"
    "      --playtest N     play N games on each candidate (noisy greedy agents);\n"
    "                       reject it when a seat surely wins under half or over\n"
    "                       twice its share (95 %% interval), or the median game\n"
    "                       leaves 8-20 rounds (2-4 players); the figures go into\n"
    "                       the manifest\n"
    "      --rules WHEN     the rules and legend page: each (after every game; the\n"
    "                       default with --out-dir), once (at the end of the PDF,\n"
    "                       its legend every node type of the deck; the default\n"
    "                       with -o; with --out-dir in the first game's file only)\n"
    "                       or none\n"
    "  -q, --quiet          no progress on stderr\n";

static const char usage_end[] =
    "  -h, --help           this help\n"
    "  -V, --version        the version\n"
    "\n"
    "Exit codes: 0 ok, 64 bad option, 65 bad input data, 66 missing input,\n"
    "70 internal error, 73 cannot create output, 74 write error,\n"
    "130 stopped by SIGINT, 143 stopped by SIGTERM (no PDF written; the\n"
    "manifest, if asked for, lists the games made and says \"interrupted\").\n";

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
    stop_signal = sig;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int parse_size(const char *opt, const char *s, size_t *out)
{
    int v;
    if (cli_int(opt, s, 0, 100000000, &v))
        return -1;
    *out = (size_t)v;
    return 0;
}

/* Progress on a terminal: at most 5 lines a second, and the last. */
typedef struct {
    int show;
    double t0, shown;
} deck_progress;

static void progress(void *ctx, size_t done, size_t total)
{
    deck_progress *p = ctx;
    if (!p->show || (now() - p->shown <= 0.2 && done != total))
        return;
    p->shown = now();
    double el = now() - p->t0, rate = el > 0 ? (double)done / el : 0;
    double left = rate > 0 ? (double)(total - done) / rate : 0;
    fprintf(stderr, "\r[%zu/%zu] %.1f games/s, %.0f s left   ", done, total, rate, left);
    fflush(stderr);
}

static int should_stop(void *ctx)
{
    (void)ctx;
    return stop_signal != 0;
}

/* Commits what cb_deck_stage made: a folder's games and the manifest
 * together; one PDF and the manifest through cli_write_staged (standard
 * output for "-"). S's staged files are taken. */
static cb_status commit(const cli_deck_args *da, cb_deck_staged *s, cb_error *err)
{
    cb_status st = CB_OK;
    if (da->out_dir) {
        size_t n = s->n_games;
        cb_staged_file **all = realloc(s->games, (n + 1) * sizeof *all);
        if (!all) {
            err->status = CB_ERR_NOMEM;
            snprintf(err->message, sizeof err->message, "out of memory");
            return CB_ERR_NOMEM;
        }
        all[n++] = s->manifest_file;
        s->games = NULL;
        s->n_games = 0;
        s->manifest_file = NULL;
        st = cb_file_commit_all(all, n, err);
        free(all);
        if (st == CB_OK && s->manifest)
            st = cli_write_all(&(cli_output){da->manifest, s->manifest, s->manifest_len}, 1, err);
        return st;
    }
    cli_output outs[2];
    cb_staged_file *pre[2] = {NULL, NULL};
    size_t n = 0;
    if (!s->stopped) {
        pre[n] = s->pdf_file;
        outs[n++] = (cli_output){da->output, s->pdf, s->pdf_len};
    }
    if (da->manifest) {
        pre[n] = s->manifest_file;
        outs[n++] = (cli_output){da->manifest, s->manifest, s->manifest_len};
    }
    s->pdf_file = s->manifest_file = NULL; /* cli_write_staged's now */
    return n ? cli_write_staged(outs, n, pre, err) : CB_OK;
}

static int run(cli_board_options *o, const cli_deck_args *da)
{
    cb_deck_options dopt;
    cb_deck_options_defaults(&dopt);
    dopt.start = da->start;
    dopt.count = da->count;
    dopt.jobs = da->jobs;
    dopt.type_tolerance = da->tolerance;
    dopt.max_tries = da->max_tries;
    dopt.playtest = da->playtest;
    dopt.shard = da->shard;
    dopt.shards = da->shards;
    deck_progress shown = {!da->quiet && isatty(STDERR_FILENO), now(), 0};
    cb_deck_files files = {
        .output = da->output, .out_dir = da->out_dir, .manifest = da->manifest,
        .pdf_in_memory = da->output && strcmp(da->output, "-") == 0,
        .manifest_in_memory = da->manifest && strcmp(da->manifest, "-") == 0,
        .rules = da->rules == CLI_DECK_RULES_EACH   ? CB_DECK_RULES_EACH
                 : da->rules == CLI_DECK_RULES_NONE ? CB_DECK_RULES_NONE
                                                    : CB_DECK_RULES_ONCE,
        .theme = o->theme, .render = &o->render,
        .progress = progress, .should_stop = should_stop, .ctx = &shown};

    struct sigaction sa, old_int, old_term;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sa.sa_flags = (int)SA_RESETHAND; /* a second Ctrl-C stops at once (still no partial PDF) */
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);

    cb_error err = {CB_OK, "", 0, ""};
    cb_deck_staged staged;
    cb_status st = cb_deck_stage(&o->spec, &dopt, &files, &staged, &err);
    if (shown.show && staged.done)
        fputc('\n', stderr);
    if (st == CB_OK)
        st = commit(da, &staged, &err);
    if (st == CB_OK && shown.show && !staged.stopped)
        cli_note("wrote %zu game%s (%zu pages) to %s in %.1f s", staged.done,
                 staged.done == 1 ? "" : "s", staged.pages,
                 da->output ? da->output : da->out_dir, now() - shown.t0);
    size_t done = staged.done, total = staged.total;
    cb_deck_staged_free(&staged); /* what was not committed: stopped or failed */
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    /* A signal first: a write it interrupted failed because of it. */
    if (st != CB_OK && !stop_signal)
        return cli_error(st, &err);
    int sig = stop_signal;
    if (sig) {
        cli_note("stopped by %s after %zu of %zu games; no PDF written%s",
                 sig == SIGINT ? "SIGINT" : "SIGTERM", done, total,
                 da->manifest && st == CB_OK ? ", manifest lists the games made" : "");
        return 128 + sig;
    }
    return 0;
}

/* A whole number of digits alone (no sign, no space), at most MAX. */
static int whole_number(const char *s, size_t len, size_t max, size_t *out)
{
    size_t v = 0;
    if (len == 0 || len > 12)
        return -1;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        v = v * 10 + (size_t)(s[i] - '0');
    }
    if (v > max)
        return -1;
    *out = v;
    return 0;
}

/* The batch systems' array index variables, in the order --shard auto
 * reads them: Kubernetes Indexed Job, Slurm job array, AWS Batch array. */
static const char *const shard_vars[] = {"JOB_COMPLETION_INDEX", "SLURM_ARRAY_TASK_ID",
                                         "AWS_BATCH_JOB_ARRAY_INDEX"};

/* --shard K/N or auto/N into *k and *n; 0, or 64 after the error line. */
static int parse_shard(const char *s, size_t *k, size_t *n)
{
    const char *slash = strchr(s, '/');
    int is_auto = slash && slash - s == 4 && strncmp(s, "auto", 4) == 0;
    if (!slash || whole_number(slash + 1, strlen(slash + 1), 100000000, n) != 0 || *n < 1 ||
        (!is_auto && (whole_number(s, (size_t)(slash - s), *n - 1, k) != 0)))
        return cli_fail(CB_ERR_USAGE, "--shard: \"%.40s\" is not K/N or auto/N (N at least 1, "
                        "K from 0 to N-1)", s);
    if (!is_auto)
        return 0;
    for (size_t i = 0; i < sizeof shard_vars / sizeof *shard_vars; i++) {
        const char *v = getenv(shard_vars[i]);
        if (!v)
            continue;
        if (whole_number(v, strlen(v), *n - 1, k) != 0)
            return cli_fail(CB_ERR_USAGE, "--shard auto/%zu: %s is \"%.40s\", not a shard "
                            "number from 0 to %zu", *n, shard_vars[i], v, *n - 1);
        return 0;
    }
    return cli_fail(CB_ERR_USAGE, "--shard auto/%zu: none of %s, %s, %s is set", *n,
                    shard_vars[0], shard_vars[1], shard_vars[2]);
}

int cli_deck_parse(int argc, char **argv, cli_board_options *board, cli_deck_args *out)
{
    cli_board_options *o = board; /* filled in place: its seed may point into it */
    cli_args a;
    cli_deck_args da = {NULL, NULL, NULL, 0, 1, 1, 0, 100, 0, 8, CLI_DECK_RULES_DEFAULT, 0, 0};
    int only = 0, have_start = 0, have_count = 0;
    size_t only_k = 0;
    cli_board_options_init(o);
    cli_args_init(&a, argc, argv);
    while (cli_args_next(&a)) {
        int got = cli_board_option(&a, o);
        if (got < 0)
            return CLI_EXIT_USAGE;
        if (got)
            continue;
        if (cli_flag(&a, "-h|--help")) {
            printf("%s%s%s", usage, cli_board_options_help, usage_end);
            return 0;
        } else if (cli_flag(&a, "-V|--version")) {
            printf("cutboard %s\n", CB_VERSION);
            return 0;
        } else if (cli_value(&a, "-o|--output")) {
            da.output = a.val;
        } else if (cli_value(&a, "--out-dir")) {
            da.out_dir = a.val;
        } else if (cli_value(&a, "--manifest")) {
            da.manifest = a.val;
        } else if (cli_value(&a, "-n|--count")) {
            if (parse_size("--count", a.val, &da.count))
                return CLI_EXIT_USAGE;
            if (da.count < 1)
                return cli_fail(CB_ERR_USAGE, "--count: must be at least 1");
            have_count = 1;
        } else if (cli_value(&a, "--start")) {
            if (parse_size("--start", a.val, &da.start))
                return CLI_EXIT_USAGE;
            have_start = 1;
        } else if (cli_value(&a, "--only")) {
            if (parse_size("--only", a.val, &only_k))
                return CLI_EXIT_USAGE;
            only = 1;
        } else if (cli_value(&a, "--shard")) {
            if (parse_shard(a.val, &da.shard, &da.shards))
                return CLI_EXIT_USAGE;
        } else if (cli_value(&a, "-j|--jobs")) {
            if (cli_int("--jobs", a.val, 1, 64, &da.jobs))
                return CLI_EXIT_USAGE;
        } else if (cli_value(&a, "--type-tolerance")) {
            if (cli_double("--type-tolerance", a.val, &da.tolerance))
                return CLI_EXIT_USAGE;
            if (da.tolerance < 0 || da.tolerance > 100)
                return cli_fail(CB_ERR_USAGE, "--type-tolerance: %g is out of range (0..100)",
                                da.tolerance);
        } else if (cli_value(&a, "--tries")) {
            if (cli_int("--tries", a.val, 1, 100000, &da.max_tries))
                return CLI_EXIT_USAGE;
        } else if (cli_value(&a, "--playtest")) {
            if (cli_int("--playtest", a.val, 1, 100000, &da.playtest))
                return CLI_EXIT_USAGE;
        } else if (cli_flag(&a, "-q|--quiet")) {
            da.quiet = 1;
        } else if (cli_value(&a, "--rules")) {
            if (strcmp(a.val, "each") == 0)
                da.rules = CLI_DECK_RULES_EACH;
            else if (strcmp(a.val, "once") == 0)
                da.rules = CLI_DECK_RULES_ONCE;
            else if (strcmp(a.val, "none") == 0)
                da.rules = CLI_DECK_RULES_NONE;
            else
                return cli_fail(CB_ERR_USAGE, "--rules: \"%.40s\" is not each, once or none",
                                a.val);
        } else {
            return a.bad ? CLI_EXIT_USAGE : cli_unknown("deck", a.arg);
        }
    }
    if (a.bad)
        return CLI_EXIT_USAGE;
    if (only && (have_start || have_count))
        return cli_fail(CB_ERR_USAGE, "--only: give either --only K or --start/--count");
    if (only && da.shards)
        return cli_fail(CB_ERR_USAGE, "--only: give either --only K or --shard K/N");
    if (only) {
        da.start = only_k;
        da.count = 1;
    }
    if (da.shards > da.count)
        return cli_fail(CB_ERR_USAGE, "--shard: %zu shards of %zu game%s: a shard would have "
                        "no games", da.shards, da.count, da.count == 1 ? "" : "s");
    if (!da.output == !da.out_dir)
        return cli_fail(CB_ERR_USAGE, "deck: give one of -o FILE.pdf or --out-dir DIR "
                                      "(see cutboard deck --help)");
    const char *opts[] = {"-o", "--manifest"};
    const char *paths[] = {da.output, da.manifest};
    int same = cli_distinct_outputs(opts, paths, 2);
    if (same)
        return same;
    da.tolerance /= 100;
    if (da.rules == CLI_DECK_RULES_DEFAULT)
        da.rules = da.out_dir ? CLI_DECK_RULES_EACH : CLI_DECK_RULES_ONCE;
    int rc = cli_board_options_check(o);
    *out = da;
    return rc ? rc : -1;
}

/* --manifest naming one of --out-dir's game files: refused (64) before any
 * work. */
static int manifest_clash(const cli_deck_args *da)
{
    const char *slash = strrchr(da->manifest, '/');
    const char *base = slash ? slash + 1 : da->manifest;
    size_t k;
    char again[64], path[4096];
    if (sscanf(base, "game-%zu.pdf", &k) != 1)
        return 0;
    snprintf(again, sizeof again, "game-%05zu.pdf", k);
    if (strcmp(again, base) != 0 || k < da->start || k - da->start >= da->count)
        return 0;
    cb_deck_game_path(da->out_dir, k, path, sizeof path);
    if (!cli_same_file(path, da->manifest))
        return 0;
    return cli_fail(CB_ERR_USAGE, "--manifest %s is game %zu's file in --out-dir %s: give the "
                    "manifest another name", da->manifest, k, da->out_dir);
}

/* First, what runs killed while writing DA's outputs left (see
 * cb_file_recover): a commit cut short finished or undone, their hidden
 * files gone. Best effort: the commit tries again. */
static void recover_outputs(const cli_deck_args *da)
{
    const char *paths[] = {da->output, da->manifest};
    char folder[4096];
    if (da->out_dir)
        cb_file_recover(da->out_dir, NULL);
    for (size_t k = 0; k < 2; k++) {
        if (!paths[k] || strcmp(paths[k], "-") == 0)
            continue;
        const char *slash = strrchr(paths[k], '/');
        size_t n = !slash ? 0 : slash == paths[k] ? 1 : (size_t)(slash - paths[k]);
        snprintf(folder, sizeof folder, "%.*s", (int)n, paths[k]);
        cb_file_recover(n ? folder : ".", NULL);
    }
}

int cli_deck(int argc, char **argv)
{
    if (argc >= 2 && strcmp(argv[1], "merge") == 0)
        return cli_deck_merge(argc - 1, argv + 1);
    cli_board_options o;
    cli_deck_args da;
    int rc = cli_deck_parse(argc, argv, &o, &da);
    if (rc >= 0)
        return rc;
    rc = cli_board_options_finish(&o);
    /* Shards started together race to make the directory: one that finds
     * it made by another goes on. */
    int made_dir = rc == 0 && da.out_dir && mkdir(da.out_dir, 0777) == 0;
    if (rc == 0 && da.out_dir && !made_dir && !(errno == EEXIST && cli_is_dir(da.out_dir)))
        rc = cli_fail(CB_ERR_CANTCREAT, "--out-dir: cannot create %s: %s", da.out_dir,
                      strerror(errno));
    if (rc == 0 && da.out_dir && da.manifest)
        rc = manifest_clash(&da);
    if (rc == 0)
        recover_outputs(&da);
    if (rc == 0)
        rc = run(&o, &da);
    if (rc != 0 && made_dir)
        rmdir(da.out_dir); /* only if empty: nothing of ours is in it */
    cli_board_options_free(&o);
    return rc;
}
