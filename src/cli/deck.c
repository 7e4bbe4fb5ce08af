/* cutboard deck: many games from one master seed, as one PDF or one PDF per
 * game, with a manifest. The library makes the games (cb_deck_*); this file
 * parses options, renders in index order, shows progress and handles
 * SIGINT/SIGTERM: it stops after the current game, writes no PDF that is not
 * complete, writes the manifest so far with an "interrupted" summary, and
 * exits 128 + the signal (130, 143). */
#include <errno.h>
#include <signal.h>
#include <sys/resource.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/buf.h"
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

/* The manifest, line by line: into its staged file as the games come, so
 * memory does not grow with the deck (standard output gets it whole at the
 * end, from TEXT). */
typedef struct {
    cb_staged_file *file; /* NULL: into TEXT */
    int failed;           /* errno of a write to FILE that failed */
    cb_buf text;
} manifest_out;

/* 0, or -1 when out of memory (a failed write waits for cb_file_stage_end). */
static int manifest_line(manifest_out *m, const char *line)
{
    if (m->file) {
        if (!m->failed)
            m->failed = cb_file_append(m->file, line, strlen(line));
        if (!m->failed)
            m->failed = cb_file_append(m->file, "\n", 1);
        return 0;
    }
    cb_buf_printf(&m->text, "%s\n", line);
    return m->text.oom ? -1 : 0;
}


static int parse_size(const char *opt, const char *s, size_t *out)
{
    int v;
    if (cli_int(opt, s, 0, 100000000, &v))
        return -1;
    *out = (size_t)v;
    return 0;
}

static void progress(size_t done, size_t total, double t0, int last)
{
    double el = now() - t0, rate = el > 0 ? (double)done / el : 0;
    double left = rate > 0 ? (double)(total - done) / rate : 0;
    fprintf(stderr, "\r[%zu/%zu] %.1f games/s, %.0f s left   %s", done, total, rate, left,
            last ? "\n" : "");
    fflush(stderr);
}

/* DA's file for game K (--out-dir) into PATH. */
static void game_path(const cli_deck_args *da, size_t k, char *path, size_t len)
{
    size_t dl = strlen(da->out_dir);
    while (dl > 1 && da->out_dir[dl - 1] == '/')
        dl--;
    snprintf(path, len, "%.*s/game-%05zu.pdf", (int)dl, da->out_dir, k);
}

/* Renders one game as a PDF of its own into a staged file at PATH (the
 * same writer as the one-file deck, so the same bytes as --only K), with
 * the rules page last when RULES. */
static cb_status single_pdf(const cli_board_options *o, const cb_game *g, int rules,
                            const char *path, cb_staged_file **out, cb_error *err)
{
    cb_pdf_writer *w = NULL;
    cb_staged_file *f = NULL;
    unsigned char *none = NULL;
    size_t len = 0;
    cb_status st = cb_file_stage_open(path, &f, err);
    if (st == CB_OK)
        st = cb_pdf_begin_file(o->theme, &o->render, cb_file_fd(f), path, &w, err);
    if (st == CB_OK)
        st = cb_pdf_add_game(w, g, err);
    if (st == CB_OK && rules)
        st = cb_pdf_add_rules(w, g, err);
    if (st == CB_OK)
        st = cb_pdf_end(w, &none, &len, err);
    cb_pdf_writer_free(w);
    if (st == CB_OK)
        st = cb_file_stage_end(f, 0, err);
    if (st != CB_OK)
        cb_file_discard(f);
    *out = st == CB_OK ? f : NULL;
    return st;
}

/* ERR set to STATUS and the message; returns STATUS. */
static cb_status cli_fail_status(cb_error *err, cb_status status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static cb_status cli_fail_status(cb_error *err, cb_status status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
    return err->status = status;
}

/* The deck's threads draw and compress each game's pages too (one PDF:
 * cb_pdf_prepare; --out-dir: the game's whole file), so this thread only
 * assembles and writes. */
typedef struct {
    const cli_board_options *o;
    const cli_deck_args *da;
    cb_pdf_writer *w;
} deck_work;

typedef struct {
    cb_staged_file *staged; /* NULL once committed */
} game_file;

static cb_status prepare(void *ctx, void **scratch, size_t k, const cb_game *g, void **out,
                         cb_error *err)
{
    const deck_work *dw = ctx;
    if (dw->w)
        return cb_deck_pdf_prepare(dw->w, scratch, k, g, out, err);
    int rules = dw->da->rules == CLI_DECK_RULES_EACH ||
                (dw->da->rules == CLI_DECK_RULES_ONCE && k == dw->da->start);
    char path[4096];
    game_path(dw->da, k, path, sizeof path);
    game_file *f = calloc(1, sizeof *f);
    cb_status st = f ? single_pdf(dw->o, g, rules, path, &f->staged, err)
                     : cli_fail_status(err, CB_ERR_NOMEM, "out of memory");
    if (st != CB_OK)
        free(f);
    *out = st == CB_OK ? f : NULL;
    return st;
}

static void free_prepared(void *ctx, void *prepared)
{
    const deck_work *dw = ctx;
    game_file *f = prepared;
    if (dw->w)
        cb_deck_pdf_free_prepared(dw->w, prepared);
    else if (f) {
        cb_file_discard(f->staged);
        free(f);
    }
}

/* The whole temporary file F into *PDF (malloc'd). */
static cb_status read_back(FILE *f, unsigned char **pdf, size_t *len, cb_error *err)
{
    long size = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    if (size <= 0 || fseek(f, 0, SEEK_SET) != 0)
        return cli_fail_status(err, CB_ERR_IO, "standard output: temporary file: %s",
                               strerror(errno ? errno : EIO));
    if (!(*pdf = malloc((size_t)size)))
        return cli_fail_status(err, CB_ERR_NOMEM, "out of memory");
    if (fread(*pdf, 1, (size_t)size, f) != (size_t)size)
        return cli_fail_status(err, CB_ERR_IO, "standard output: temporary file: %s",
                               strerror(errno ? errno : EIO));
    *len = (size_t)size;
    return CB_OK;
}

/* --out-dir: the games' staged files, kept until the run ends. While
 * there are descriptors to spare they stay unnamed (nothing to clean up
 * if the run is killed); past BUDGET each is given its hidden name and
 * closed as it comes. */
typedef struct {
    cb_staged_file **files;
    size_t n, cap, budget;
} kept_games;

static size_t open_budget(void)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
        return 1024;
    return rl.rlim_cur > 256 ? (size_t)rl.rlim_cur - 256 : 0;
}

/* Keeps F (ours now, discarded on failure). */
static cb_status keep_game(kept_games *g, cb_staged_file *f, cb_error *err)
{
    if (g->n == g->cap) {
        size_t cap = g->cap ? 2 * g->cap : 64;
        cb_staged_file **more = realloc(g->files, cap * sizeof *more);
        if (!more) {
            cb_file_discard(f);
            return cli_fail_status(err, CB_ERR_NOMEM, "out of memory");
        }
        g->files = more;
        g->cap = cap;
    }
    g->files[g->n++] = f;
    return g->n > g->budget ? cb_file_ready(f, err) : CB_OK;
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
    size_t first = da->start, total = da->count; /* this run's games */
    if (da->shards)
        cb_deck_shard_slice(da->start, da->count, da->shard, da->shards, &first, &total);
    deck_work work = {o, da, NULL};
    dopt.prepare = prepare;
    dopt.free_prepared = free_prepared;
    dopt.free_scratch = cb_deck_pdf_free_scratch;
    dopt.work_ctx = &work;

    cb_error err = {CB_OK, "", 0, ""};
    cb_deck *deck = NULL;
    cb_pdf_writer *w = NULL;
    manifest_out manifest = {NULL, 0, {0}};
    unsigned char *pdf = NULL;
    size_t pdf_len = 0, done = 0;
    int show = !da->quiet && isatty(STDERR_FILENO);
    double t0 = now(), shown = 0;
    char path[4096];
    kept_games games = {NULL, 0, 0, open_budget()};

    struct sigaction sa, old_int, old_term;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sa.sa_flags = (int)SA_RESETHAND; /* a second Ctrl-C stops at once (still no partial PDF) */
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);

    /* One PDF streams into a staged file as its pages come (standard output
     * gets it whole at the end): nothing shows under the name until done. */
    cb_staged_file *staged = NULL;
    FILE *to_stdout = NULL; /* standard output: the same bytes, passed on at the end */
    cb_status st = CB_OK;
    if (da->output && strcmp(da->output, "-") == 0) {
        if (!(to_stdout = tmpfile()))
            st = cli_fail_status(&err, CB_ERR_CANTCREAT, "standard output: no temporary file: %s",
                                 strerror(errno));
        else
            st = cb_pdf_begin_file(o->theme, &o->render, fileno(to_stdout), "standard output",
                                   &w, &err);
    } else if (da->output) {
        st = cb_file_stage_open(da->output, &staged, &err);
        if (st == CB_OK)
            st = cb_pdf_begin_file(o->theme, &o->render, cb_file_fd(staged), da->output, &w,
                                   &err);
    }
    if (st == CB_OK && da->manifest && strcmp(da->manifest, "-") != 0)
        st = cb_file_stage_open(da->manifest, &manifest.file, &err);
    work.w = w;
    if (st == CB_OK)
        st = cb_deck_new(&o->spec, &dopt, &deck, &err);
    while (st == CB_OK && !stop_signal) {
        cb_deck_entry e;
        st = cb_deck_next(deck, &e, &err);
        if (st != CB_OK || !e.game)
            break;
        const char *file = da->output;
        size_t pages[CB_PLAYERS_MAX];
        if (da->out_dir) {
            game_path(da, e.index, path, sizeof path);
            file = path;
            for (size_t s = 0; s < e.game->n_sheets; s++)
                pages[s] = s + 1;
            game_file *f = e.prepared;
            st = keep_game(&games, f->staged, &err);
            f->staged = NULL; /* kept: committed with the manifest, or discarded */
        } else {
            st = cb_pdf_add_prepared(w, e.game, e.prepared, &err);
            for (size_t s = 0; st == CB_OK && s < e.game->n_sheets; s++)
                pages[s] = cb_pdf_sheet_page(w, s);
            if (st == CB_OK && da->rules == CLI_DECK_RULES_EACH)
                st = cb_pdf_add_rules(w, e.game, &err);
        }
        if (st == CB_OK && da->manifest) {
            char *line = NULL;
            st = cb_deck_manifest_line(deck, &e, file, pages, &line, &err);
            if (st == CB_OK && manifest_line(&manifest, line) != 0)
                st = CB_ERR_NOMEM;
            free(line);
        }
        if (st != CB_OK)
            break;
        done++;
        if (show && (now() - shown > 0.2 || done == total)) {
            shown = now();
            progress(done, total, t0, 0);
        }
    }
    if (show && done)
        fputc('\n', stderr);
    int sig = stop_signal;
    if (st == CB_OK && !sig && w && da->rules == CLI_DECK_RULES_ONCE && done > 0)
        st = cb_pdf_add_rules(w, NULL, &err);
    if (st == CB_OK && !sig && w)
        st = cb_pdf_end(w, &pdf, &pdf_len, &err);
    if (st == CB_OK && !sig && to_stdout)
        st = read_back(to_stdout, &pdf, &pdf_len, &err);
    if (st == CB_OK && !sig && staged) {
        st = cb_file_stage_end(staged, 0, &err);
        if (st != CB_OK) {
            cb_file_discard(staged);
            staged = NULL;
        }
    }
    if (st == CB_OK && da->manifest) {
        char *line = NULL;
        st = cb_deck_summary_line(deck, sig != 0, &line, &err);
        if (st == CB_OK && manifest_line(&manifest, line) != 0)
            st = CB_ERR_NOMEM;
        free(line);
    }
    if (st == CB_OK && da->out_dir) {
        /* Every game's file and the manifest replace what was there
         * together, or none of them does. */
        if (da->manifest && manifest.file) {
            st = cb_file_stage_end(manifest.file, manifest.failed, &err);
            if (st == CB_OK)
                st = keep_game(&games, manifest.file, &err);
            else
                cb_file_discard(manifest.file);
            manifest.file = NULL;
        }
        if (st == CB_OK)
            st = cb_file_commit_all(games.files, games.n, &err);
        else
            for (size_t k = 0; k < games.n; k++)
                cb_file_discard(games.files[k]);
        games.n = 0;
        if (st == CB_OK && da->manifest && strcmp(da->manifest, "-") == 0)
            st = cli_write_all(&(cli_output){da->manifest, manifest.text.data,
                                             manifest.text.len}, 1, &err);
    } else if (st == CB_OK) {
        cli_output outs[2];
        cb_staged_file *pre[2] = {NULL, NULL};
        size_t n = 0;
        if (da->output && !sig) {
            pre[n] = staged;
            staged = NULL; /* cli_write_staged's now */
            outs[n++] = (cli_output){da->output, pdf, pdf_len};
        }
        if (da->manifest && manifest.file) {
            st = cb_file_stage_end(manifest.file, manifest.failed, &err);
            pre[n] = st == CB_OK ? manifest.file : NULL;
            manifest.file = st == CB_OK ? NULL : manifest.file; /* cli_write_staged's now */
            outs[n++] = (cli_output){da->manifest, NULL, 0};
        } else if (da->manifest) {
            outs[n++] = (cli_output){da->manifest, manifest.text.data, manifest.text.len};
        }
        if (st == CB_OK && n)
            st = cli_write_staged(outs, n, pre, &err);
        else if (st != CB_OK)
            for (size_t k = 0; k < n; k++)
                cb_file_discard(pre[k]);
    }
    if (st == CB_OK && show && !sig)
        cli_note("wrote %zu game%s (%zu pages) to %s in %.1f s", done,
                 done == 1 ? "" : "s", w ? cb_pdf_page_count(w) : done,
                 da->output ? da->output : da->out_dir, now() - t0);
    for (size_t k = 0; k < games.n; k++)
        cb_file_discard(games.files[k]); /* not committed: failed */
    free(games.files);
    free(pdf);
    cb_file_discard(staged); /* not committed: stopped or failed */
    if (to_stdout)
        fclose(to_stdout);
    cb_file_discard(manifest.file); /* not committed: stopped or failed */
    cb_buf_free(&manifest.text);
    cb_deck_free(deck); /* its threads first: they read the writer */
    cb_pdf_writer_free(w);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    /* A signal first: a write it interrupted failed because of it. */
    if (st != CB_OK && !stop_signal)
        return cli_error(st, &err);
    sig = stop_signal;
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
    game_path(da, k, path, sizeof path);
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
