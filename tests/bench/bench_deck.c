/* Decks: the full pipeline of `cutboard deck` for a 200-game deck (games
 * generated and curated by cb_deck with 1 or 2 generator threads, rendered
 * in index order into one PDF held in memory), and the rendering alone.
 * Prints rows of the benchmark table
 *
 *   | workload | n | median | per node | peak MB | target | ok |
 *
 * (n counts pages here; "per node" is the wall time per page, the pages per
 * second, and the CPU time per page over all threads; peak MB is the
 * process's peak resident memory so far). Median of >= 5 runs; BENCH_RUNS=N
 * overrides the number of runs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "cutboard.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* CPU seconds of the whole process (all threads): on a shared machine the
 * wall time also counts other people's work. */
static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

static double peak_mb(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_maxrss / 1024.0;
}

typedef struct {
    cb_spec spec;
    cb_render_options render;
    const cb_theme *theme;
    int jobs;
    size_t games;
    cb_game **keep;       /* render-only: the games, made once */
    size_t pages, bytes;  /* of the last run */
} work;

/* One deck to PDF; 0 or -1. */
static int deck_run(work *w, int run)
{
    char seed[64];
    snprintf(seed, sizeof seed, "bench deck %d", run);
    cb_spec spec = w->spec;
    spec.seed = seed;
    cb_deck_options o;
    cb_deck_options_defaults(&o);
    o.count = w->games;
    o.jobs = w->jobs;
    cb_deck *d = NULL;
    cb_pdf_writer *pw = NULL;
    cb_error err;
    unsigned char *pdf = NULL;
    size_t len = 0;
    w->pages = 0;
    cb_status st = cb_deck_new(&spec, &o, &d, &err);
    if (st == CB_OK)
        st = cb_pdf_begin(w->theme, &w->render, &pw, &err);
    while (st == CB_OK) {
        cb_deck_entry e;
        st = cb_deck_next(d, &e, &err);
        if (st != CB_OK || !e.game)
            break;
        st = cb_pdf_add_game(pw, e.game, &err);
        w->pages += e.game->n_sheets;
    }
    if (st == CB_OK)
        st = cb_pdf_end(pw, &pdf, &len, &err);
    cb_pdf_writer_free(pw);
    cb_deck_free(d);
    free(pdf);
    w->bytes = len;
    if (st != CB_OK)
        fprintf(stderr, "bench_deck: %s\n", err.message);
    return st == CB_OK ? 0 : -1;
}

/* The same games rendered again: the PDF side alone. */
static int render_run(work *w, int run)
{
    (void)run;
    cb_pdf_writer *pw = NULL;
    cb_error err;
    unsigned char *pdf = NULL;
    size_t len = 0;
    w->pages = 0;
    cb_status st = cb_pdf_begin(w->theme, &w->render, &pw, &err);
    for (size_t i = 0; st == CB_OK && i < w->games; i++) {
        st = cb_pdf_add_game(pw, w->keep[i], &err);
        w->pages += w->keep[i]->n_sheets;
    }
    if (st == CB_OK)
        st = cb_pdf_end(pw, &pdf, &len, &err);
    cb_pdf_writer_free(pw);
    free(pdf);
    w->bytes = len;
    return st == CB_OK ? 0 : -1;
}

static int runs_wanted(void)
{
    const char *e = getenv("BENCH_RUNS");
    int n = e && *e ? atoi(e) : 5;
    return n < 1 ? 1 : n > 101 ? 101 : n;
}

static void row(const char *name, work *w, int (*fn)(work *, int), double target_pps,
                int *failed)
{
    int runs = runs_wanted();
    double t[101], c[101];
    for (int r = 0; r < runs; r++) {
        double t0 = now(), c0 = cpu_now();
        if (fn(w, r) != 0) {
            printf("| %s | - | FAIL | - | - | - | NO |\n", name);
            *failed = 1;
            return;
        }
        t[r] = now() - t0;
        c[r] = cpu_now() - c0;
    }
    qsort(c, (size_t)runs, sizeof *c, cmp_double);
    double cpu = runs % 2 ? c[runs / 2] : (c[runs / 2 - 1] + c[runs / 2]) / 2;
    qsort(t, (size_t)runs, sizeof *t, cmp_double);
    double med = runs % 2 ? t[runs / 2] : (t[runs / 2 - 1] + t[runs / 2]) / 2;
    double pps = (double)w->pages / med;
    char target[64] = "-", ok[8] = "-";
    if (target_pps > 0) {
        snprintf(target, sizeof target, ">= %.0f pages/s", target_pps);
        snprintf(ok, sizeof ok, "%s", pps >= target_pps ? "yes" : "NO");
    }
    printf("| %s | %zu pages | %.2f s | %.2f ms/page (%.0f pages/s; CPU %.2f ms/page) | %.1f | "
           "%s | %s |\n", name, w->pages, med, med / (double)w->pages * 1e3, pps,
           cpu / (double)w->pages * 1e3, peak_mb(), target, ok);
    printf("| %s: size | %zu pages | - | %.1f KB/page | - | <= 25 KB/page | %s |\n", name,
           w->pages, (double)w->bytes / (double)w->pages / 1024.0,
           (double)w->bytes / (double)w->pages <= 25 * 1024 ? "yes" : "NO");
    fflush(stdout);
}

int main(void)
{
    cb_theme *theme = NULL;
    cb_error err;
    const char *dir = getenv("CUTBOARD_THEME") ? getenv("CUTBOARD_THEME") : "icons/default";
    if (cb_theme_load(dir, &theme, &err) != CB_OK) {
        fprintf(stderr, "bench_deck: %s\n", err.message);
        return 1;
    }
    work w;
    memset(&w, 0, sizeof w);
    cb_spec_defaults(&w.spec);
    w.spec.theme = theme;
    w.theme = theme;
    w.render.font_path = getenv("CUTBOARD_FONT") ? getenv("CUTBOARD_FONT")
                                                 : "fonts/DejaVuSans.ttf";
    w.games = 200;
    int failed = 0;
    printf("\nDeck to PDF (cb_deck + cb_pdf_writer, 200 games on A4, default theme; median of "
           "%d runs, each with its own master seed)\n\n", runs_wanted());
    printf("| workload | n | median | per node | peak MB | target | ok |\n");
    printf("| --- | ---: | ---: | ---: | ---: | --- | --- |\n");
    w.jobs = 1;
    row("deck, 200 games x 4 players, --jobs 1", &w, deck_run, 500, &failed);
    w.jobs = 2;
    row("deck, 200 games x 4 players, --jobs 2", &w, deck_run, 0, &failed);
    w.spec.shared = 1;
    row("deck, 200 shared boards, --jobs 2", &w, deck_run, 0, &failed);
    /* Rendering alone, one core: the same 200 four-player games. */
    w.spec.shared = 0;
    w.keep = calloc(w.games, sizeof *w.keep);
    for (size_t i = 0; i < w.games && !failed; i++) {
        char seed[64];
        snprintf(seed, sizeof seed, "bench render %zu", i);
        cb_spec s = w.spec;
        s.seed = seed;
        if (cb_game_generate(&s, &w.keep[i], &err) != CB_OK) {
            fprintf(stderr, "bench_deck: %s\n", err.message);
            failed = 1;
        }
    }
    if (!failed)
        row("render only, 200 games x 4 players, one core", &w, render_run, 500, &failed);
    for (size_t i = 0; i < w.games; i++)
        cb_game_free(w.keep[i]);
    free(w.keep);
    cb_theme_free(theme);
    return failed;
}
