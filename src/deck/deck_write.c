/* A deck to files: one PDF with every game, or one PDF per game in a
 * folder, and the manifest. The deck's threads make each game and draw
 * and compress its pages too (one PDF: cb_pdf_prepare; a folder: the
 * game's whole file), so the caller's thread only assembles and writes, in
 * index order. Everything is staged (nothing shows under an output's name)
 * until the caller commits it, all together, or cb_deck_write does. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "base/buf.h"
#include "base/error.h"

/* DIR's file for game K into PATH. */
static void game_path(const char *dir, size_t k, char *path, size_t len)
{
    size_t dl = strlen(dir);
    while (dl > 1 && dir[dl - 1] == '/')
        dl--;
    snprintf(path, len, "%.*s/game-%05zu.pdf", (int)dl, dir, k);
}

void cb_deck_game_path(const char *dir, size_t k, char *path, size_t len)
{
    game_path(dir, k, path, len);
}

/* The manifest, line by line: into its staged file as the games come, so
 * memory does not grow with the deck (into memory when asked for). */
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

/* Renders one game as a PDF of its own into a staged file at PATH (the
 * same writer as the one-file deck, so the same bytes as a one-game deck),
 * with the rules page last when RULES. */
static cb_status single_pdf(const cb_deck_files *df, const cb_game *g, int rules,
                            const char *path, cb_staged_file **out, cb_error *err)
{
    cb_pdf_writer *w = NULL;
    cb_staged_file *f = NULL;
    unsigned char *none = NULL;
    size_t len = 0;
    cb_status st = cb_file_stage_open(path, &f, err);
    if (st == CB_OK)
        st = cb_pdf_begin_file(df->theme, df->render, cb_file_fd(f), path, &w, err);
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

typedef struct {
    const cb_deck_files *df;
    size_t first;     /* the first game of the run, for rules "once" */
    cb_pdf_writer *w; /* one PDF; NULL with a folder */
} deck_work;

typedef struct {
    cb_staged_file *staged; /* NULL once taken */
} game_file;

static cb_status prepare(void *ctx, void **scratch, size_t k, const cb_game *g, void **out,
                         cb_error *err)
{
    const deck_work *dw = ctx;
    if (dw->w)
        return cb_deck_pdf_prepare(dw->w, scratch, k, g, out, err);
    int rules = dw->df->rules == CB_DECK_RULES_EACH ||
                (dw->df->rules == CB_DECK_RULES_ONCE && k == dw->first);
    char path[4096];
    game_path(dw->df->out_dir, k, path, sizeof path);
    game_file *f = calloc(1, sizeof *f);
    cb_status st = f ? single_pdf(dw->df, g, rules, path, &f->staged, err)
                     : cb_fail(err, CB_ERR_NOMEM, "out of memory");
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

static void free_scratch(void *ctx, void *scratch)
{
    const deck_work *dw = ctx;
    cb_deck_pdf_free_scratch(dw->w, scratch);
}


/* The whole temporary file F into *PDF (malloc'd). */
static cb_status read_back(FILE *f, unsigned char **pdf, size_t *len, cb_error *err)
{
    long size = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    if (size <= 0 || fseek(f, 0, SEEK_SET) != 0)
        return cb_fail(err, CB_ERR_IO, "standard output: temporary file: %s",
                       strerror(errno ? errno : EIO));
    if (!(*pdf = malloc((size_t)size)))
        return cb_fail(err, CB_ERR_NOMEM, "out of memory");
    if (fread(*pdf, 1, (size_t)size, f) != (size_t)size)
        return cb_fail(err, CB_ERR_IO, "standard output: temporary file: %s",
                       strerror(errno ? errno : EIO));
    *len = (size_t)size;
    return CB_OK;
}

/* While there are descriptors to spare the games' staged files stay
 * unnamed (nothing to clean up if the run is killed); past this many each
 * is given its hidden name and closed as it comes. */
static size_t open_budget(void)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
        return 1024;
    return rl.rlim_cur > 256 ? (size_t)rl.rlim_cur - 256 : 0;
}

/* Keeps F in OUT's games (ours now, discarded on failure). */
static cb_status keep_game(cb_deck_staged *out, size_t *cap, size_t budget, cb_staged_file *f,
                           cb_error *err)
{
    if (out->n_games == *cap) {
        size_t more_cap = *cap ? 2 * *cap : 64;
        cb_staged_file **more = realloc(out->games, more_cap * sizeof *more);
        if (!more) {
            cb_file_discard(f);
            return cb_fail(err, CB_ERR_NOMEM, "out of memory");
        }
        out->games = more;
        *cap = more_cap;
    }
    out->games[out->n_games++] = f;
    return out->n_games > budget ? cb_file_ready(f, err) : CB_OK;
}

void cb_deck_staged_free(cb_deck_staged *s)
{
    if (!s)
        return;
    for (size_t k = 0; k < s->n_games; k++)
        cb_file_discard(s->games[k]);
    free(s->games);
    cb_file_discard(s->pdf_file);
    cb_file_discard(s->manifest_file);
    free(s->pdf);
    free(s->manifest);
    memset(s, 0, sizeof *s);
}

cb_status cb_deck_stage(const cb_spec *spec, const cb_deck_options *opt,
                        const cb_deck_files *df, cb_deck_staged *out, cb_error *err)
{
    memset(out, 0, sizeof *out);
    if (!df->output == !df->out_dir)
        return cb_fail(err, CB_ERR_USAGE, "a deck goes to one PDF or to one folder");
    cb_deck_options dopt = *opt;
    size_t first = opt->start, total = opt->count; /* this run's games */
    if (opt->shards)
        cb_deck_shard_slice(opt->start, opt->count, opt->shard, opt->shards, &first, &total);
    deck_work work = {df, first, NULL};
    dopt.prepare = prepare;
    dopt.free_prepared = free_prepared;
    dopt.free_scratch = free_scratch;
    dopt.work_ctx = &work;

    cb_deck *deck = NULL;
    cb_pdf_writer *w = NULL;
    manifest_out manifest = {NULL, 0, {0}};
    size_t cap = 0, budget = open_budget();
    char path[4096];

    /* One PDF streams into a staged file as its pages come (into memory:
     * a temporary file, read back at the end): nothing shows under the
     * name until committed. */
    FILE *to_memory = NULL;
    cb_status st = CB_OK;
    if (df->output && df->pdf_in_memory) {
        if (!(to_memory = tmpfile()))
            st = cb_fail(err, CB_ERR_CANTCREAT, "standard output: no temporary file: %s",
                         strerror(errno));
        else
            st = cb_pdf_begin_file(df->theme, df->render, fileno(to_memory), "standard output",
                                   &w, err);
    } else if (df->output) {
        st = cb_file_stage_open(df->output, &out->pdf_file, err);
        if (st == CB_OK)
            st = cb_pdf_begin_file(df->theme, df->render, cb_file_fd(out->pdf_file), df->output,
                                   &w, err);
    }
    if (st == CB_OK && df->manifest && !df->manifest_in_memory)
        st = cb_file_stage_open(df->manifest, &manifest.file, err);
    work.w = w;
    if (st == CB_OK)
        st = cb_deck_new(spec, &dopt, &deck, err);
    int stop = df->should_stop && df->should_stop(df->ctx);
    while (st == CB_OK && !stop) {
        cb_deck_entry e;
        st = cb_deck_next(deck, &e, err);
        if (st != CB_OK || !e.game)
            break;
        const char *file = df->output;
        size_t pages[CB_PLAYERS_MAX];
        if (df->out_dir) {
            game_path(df->out_dir, e.index, path, sizeof path);
            file = path;
            for (size_t s = 0; s < e.game->n_sheets; s++)
                pages[s] = s + 1;
            game_file *f = e.prepared;
            st = keep_game(out, &cap, budget, f->staged, err);
            f->staged = NULL; /* kept: committed with the manifest, or discarded */
        } else {
            st = cb_pdf_add_prepared(w, e.game, e.prepared, err);
            for (size_t s = 0; st == CB_OK && s < e.game->n_sheets; s++)
                pages[s] = cb_pdf_sheet_page(w, s);
            if (st == CB_OK && df->rules == CB_DECK_RULES_EACH)
                st = cb_pdf_add_rules(w, e.game, err);
        }
        if (st == CB_OK && df->manifest) {
            char *line = NULL;
            st = cb_deck_manifest_line(deck, &e, file, pages, &line, err);
            if (st == CB_OK && manifest_line(&manifest, line) != 0)
                st = cb_fail_nomem(err, NULL);
            free(line);
        }
        if (st != CB_OK)
            break;
        out->done++;
        if (df->progress)
            df->progress(df->ctx, out->done, total);
        stop = df->should_stop && df->should_stop(df->ctx);
    }
    out->total = total;
    out->stopped = stop;
    if (st == CB_OK && !stop && w && df->rules == CB_DECK_RULES_ONCE && out->done > 0)
        st = cb_pdf_add_rules(w, NULL, err);
    if (st == CB_OK && !stop && w) {
        unsigned char *none = NULL; /* streamed: the bytes are in the file */
        size_t none_len = 0;
        st = cb_pdf_end(w, &none, &none_len, err);
        free(none);
    }
    out->pages = w ? cb_pdf_page_count(w) : out->done;
    if (st == CB_OK && !stop && to_memory)
        st = read_back(to_memory, &out->pdf, &out->pdf_len, err);
    if (st == CB_OK && !stop && out->pdf_file)
        st = cb_file_stage_end(out->pdf_file, 0, err);
    if (stop || st != CB_OK) { /* no PDF of a deck cut short */
        cb_file_discard(out->pdf_file);
        out->pdf_file = NULL;
    }
    if (st == CB_OK && df->manifest) {
        char *line = NULL;
        st = cb_deck_summary_line(deck, stop, &line, err);
        if (st == CB_OK && manifest_line(&manifest, line) != 0)
            st = cb_fail_nomem(err, NULL);
        free(line);
    }
    if (st == CB_OK && manifest.file) {
        st = cb_file_stage_end(manifest.file, manifest.failed, err);
        if (st == CB_OK)
            out->manifest_file = manifest.file;
        else
            cb_file_discard(manifest.file);
        manifest.file = NULL;
    }
    if (st == CB_OK && df->manifest && df->manifest_in_memory) {
        out->manifest = manifest.text.data;
        out->manifest_len = manifest.text.len;
        manifest.text.data = NULL;
    }
    if (to_memory)
        fclose(to_memory);
    cb_file_discard(manifest.file); /* not staged whole: failed */
    cb_buf_free(&manifest.text);
    cb_deck_free(deck); /* its threads first: they read the writer */
    cb_pdf_writer_free(w);
    if (st != CB_OK) {
        size_t done = out->done;
        cb_deck_staged_free(out);
        out->done = done;
        out->total = total;
    }
    return st;
}

cb_status cb_deck_write(const cb_spec *spec, const cb_deck_options *opt,
                        const cb_deck_files *df, cb_deck_staged *out, cb_error *err)
{
    cb_status st = cb_deck_stage(spec, opt, df, out, err);
    if (st != CB_OK)
        return st;
    size_t n = out->n_games;
    cb_staged_file **all = realloc(out->games, (n + 2) * sizeof *all);
    if (!all) {
        cb_deck_staged_free(out);
        return cb_fail_nomem(err, NULL);
    }
    all[n++] = out->pdf_file;
    all[n++] = out->manifest_file;
    out->games = NULL;
    out->n_games = 0;
    out->pdf_file = out->manifest_file = NULL;
    st = cb_file_commit_all(all, n, err);
    free(all);
    return st;
}
