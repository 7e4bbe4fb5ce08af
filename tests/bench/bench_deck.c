/* Decks: the full pipeline of `cutboard deck -o FILE` for a 300-game deck
 * (games generated, curated, drawn and compressed by cb_deck's threads,
 * put into one PDF streamed to a file in index order by the caller, the
 * rules page last), and the rendering alone. One pinned core, --jobs 1
 * and --jobs 2 run paired and alternating (1 2 3 1 2 3 ...), and the
 * speed-up of --jobs 2 over one pinned core is printed with the CPU share
 * of each stage. Prints rows of the benchmark table
 *
 *   | workload | n | median | per node | peak MB | target | ok |
 *
 * (n counts pages here; "per node" is the wall time per page, the pages per
 * second, and the CPU time per page over all threads; peak MB is the
 * process's peak resident memory so far). Median of >= 5 runs; BENCH_RUNS=N
 * overrides the number of runs. */
#define _GNU_SOURCE /* sched_setaffinity */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

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

/* CPU seconds of the calling thread. */
static double thread_cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
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
    cb_pdf_writer *pw;    /* the document the threads draw for */
    pthread_mutex_t lock;
    double draw_cpu;      /* stages of the last run, CPU seconds: drawing and
                             compressing on the threads, */
    double put_cpu;       /* putting pages into the document, */
    double save_cpu;      /* writing the document out */
} work;

/* Drawing and compressing on the deck's threads (as the CLI does), timed
 * on the thread. */
static cb_status prepare(void *ctx, void **scratch, size_t k, const cb_game *g, void **out,
                         cb_error *err)
{
    work *w = ctx;
    double c0 = thread_cpu();
    cb_status st = cb_deck_pdf_prepare(w->pw, scratch, k, g, out, err);
    double c = thread_cpu() - c0;
    pthread_mutex_lock(&w->lock);
    w->draw_cpu += c;
    pthread_mutex_unlock(&w->lock);
    return st;
}

/* The deck options every run here uses: COUNT games on JOBS threads, each
 * page drawn and compressed by the threads (prepare). */
static void deck_options(work *w, cb_deck_options *o, size_t count, int jobs)
{
    cb_deck_options_defaults(o);
    o->count = count;
    o->jobs = jobs;
    o->prepare = prepare;
    o->free_prepared = cb_deck_pdf_free_prepared;
    o->free_scratch = cb_deck_pdf_free_scratch;
    o->work_ctx = w;
}

/* Puts every game of D into PW, as cutboard deck does; counts the pages
 * into *PAGES and the thread's CPU time putting them into *PUT_CPU. */
static cb_status put_games(cb_deck *d, cb_pdf_writer *pw, size_t *pages, double *put_cpu,
                           cb_error *err)
{
    for (;;) {
        cb_deck_entry e;
        cb_status st = cb_deck_next(d, &e, err);
        if (st != CB_OK || !e.game)
            return st;
        double c0 = thread_cpu();
        st = cb_pdf_add_prepared(pw, e.game, e.prepared, err);
        *put_cpu += thread_cpu() - c0;
        *pages += e.game->n_sheets;
        if (st != CB_OK)
            return st;
    }
}

/* One deck to PDF as `cutboard deck -o FILE` makes it: pages streamed to
 * a file as they come, the rules page last; 0 or -1. */
static int deck_run(work *w, int run)
{
    char seed[64];
    snprintf(seed, sizeof seed, "bench deck %d", run);
    cb_spec spec = w->spec;
    spec.seed = seed;
    cb_deck_options o;
    deck_options(w, &o, w->games, w->jobs);
    cb_deck *d = NULL;
    cb_pdf_writer *pw = NULL;
    cb_error err = {CB_OK, "", 0, ""};
    unsigned char *none = NULL;
    size_t len = 0;
    w->pages = 0;
    w->draw_cpu = w->put_cpu = w->save_cpu = 0;
    FILE *f = tmpfile();
    cb_status st = f ? cb_pdf_begin_file(w->theme, &w->render, fileno(f), "bench", &pw, &err)
                     : CB_ERR_IO;
    w->pw = pw;
    if (st == CB_OK)
        st = cb_deck_new(&spec, &o, &d, &err);
    if (st == CB_OK)
        st = put_games(d, pw, &w->pages, &w->put_cpu, &err);
    double c0 = thread_cpu();
    if (st == CB_OK && (st = cb_pdf_add_rules(pw, NULL, &err)) == CB_OK)
        w->pages++;
    if (st == CB_OK)
        st = cb_pdf_end(pw, &none, &len, &err);
    w->save_cpu = thread_cpu() - c0;
    cb_deck_free(d);
    cb_pdf_writer_free(pw);
    struct stat sb;
    w->bytes = f && fstat(fileno(f), &sb) == 0 ? (size_t)sb.st_size : 0;
    if (f)
        fclose(f);
    if (st != CB_OK)
        fprintf(stderr, "bench_deck: %s\n", f ? err.message : "no temporary file");
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

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* One configuration's figures over the runs. */
typedef struct {
    const char *name;
    int jobs, pinned;
    double target;        /* pages/s, 0: none */
    double t[101], c[101], draw[101], put[101], save[101];
    size_t pages, bytes;
    double pps;
} config;

/* The first CPU of SET (0 when it has none). */
static size_t first_cpu(const cpu_set_t *set)
{
    for (size_t k = 0; k < CPU_SETSIZE; k++)
        if (CPU_ISSET(k, set))
            return k;
    return 0;
}

/* Runs FN once for C (run R): pinned to one CPU when C asks, its threads
 * too: the first the process may use, so that `taskset -c 1` keeps it off
 * a core another job is busy on. */
static int measure(config *c, work *w, int (*fn)(work *, int), int r)
{
    cpu_set_t all, one;
    sched_getaffinity(0, sizeof all, &all);
    if (c->pinned) {
        CPU_ZERO(&one);
        CPU_SET(first_cpu(&all), &one);
        sched_setaffinity(0, sizeof one, &one);
    }
    w->jobs = c->jobs;
    double t0 = now(), c0 = cpu_now();
    int rc = fn(w, r);
    c->t[r] = now() - t0;
    c->c[r] = cpu_now() - c0;
    c->draw[r] = w->draw_cpu;
    c->put[r] = w->put_cpu;
    c->save[r] = w->save_cpu;
    c->pages = w->pages;
    c->bytes = w->bytes;
    if (c->pinned)
        sched_setaffinity(0, sizeof all, &all);
    return rc;
}

static void print_row(config *c, int runs)
{
    double target_pps = c->target;
    double med = median(c->t, runs), cpu = median(c->c, runs);
    double pps = (double)c->pages / med;
    c->pps = pps;
    char target[64] = "-", ok[8] = "-";
    if (target_pps > 0) {
        snprintf(target, sizeof target, ">= %.0f pages/s", target_pps);
        snprintf(ok, sizeof ok, "%s", pps >= target_pps ? "yes" : "NO");
    }
    printf("| %s | %zu pages | %.2f s | %.2f ms/page (%.0f pages/s; CPU %.2f ms/page) | %.1f | "
           "%s | %s |\n", c->name, c->pages, med, med / (double)c->pages * 1e3, pps,
           cpu / (double)c->pages * 1e3, peak_mb(), target, ok);
    fflush(stdout);
}

/* Runs the configurations paired and alternating; prints their rows. */
static void paired(config *cs, int n, work *w, int (*fn)(work *, int), int *failed)
{
    int runs = runs_wanted();
    for (int r = 0; r < runs; r++)
        for (int i = 0; i < n; i++)
            if (measure(&cs[i], w, fn, r) != 0) {
                printf("| %s | - | FAIL | - | - | - | NO |\n", cs[i].name);
                *failed = 1;
                return;
            }
    for (int i = 0; i < n; i++)
        print_row(&cs[i], runs);
    printf("| deck: size | %zu pages | - | %.1f KB/page | - | <= 25 KB/page | %s |\n",
           cs[0].pages, (double)cs[0].bytes / (double)cs[0].pages / 1024.0,
           (double)cs[0].bytes / (double)cs[0].pages <= 25 * 1024 ? "yes" : "NO");
}

/* The CPU share of each stage (median run of C): generating and curating
 * (on the threads: all that is not timed apart), drawing and compressing
 * (threads), putting pages into the document and writing it out (the
 * caller's thread: the serial part). */
static void stages(config *c, int runs)
{
    double cpu = median(c->c, runs), draw = median(c->draw, runs), put = median(c->put, runs),
           save = median(c->save, runs);
    double gen = cpu - draw - put - save;
    printf("\nCPU per stage (%s, median run): generate %.0f %%, draw and compress %.0f %%, "
           "assemble %.1f %%, write %.1f %% (%.2f / %.3f / %.3f / %.3f ms per page); the "
           "serial part (assemble and write) bounds the speed-up at %.0fx\n",
           c->name, 100 * gen / cpu, 100 * draw / cpu, 100 * put / cpu, 100 * save / cpu,
           gen / (double)c->pages * 1e3, draw / (double)c->pages * 1e3,
           put / (double)c->pages * 1e3, save / (double)c->pages * 1e3, cpu / (put + save));
}

static void row(const char *name, work *w, int (*fn)(work *, int), double target_pps,
                int *failed)
{
    config c;
    memset(&c, 0, sizeof c);
    c.name = name;
    c.jobs = w->jobs;
    c.target = target_pps;
    paired(&c, 1, w, fn, failed);
}

/* Peak memory of a deck of GAMES games with 2 jobs written to a file as
 * `cutboard deck -o` does (pages streamed to it), in a child process of
 * its own: MB, or -1. */
static double deck_peak_mb(work *w, size_t games, double *seconds, size_t *pages)
{
    int pipefd[2];
    if (pipe(pipefd) != 0)
        return -1;
    double t0 = now();
    pid_t pid = fork();
    if (pid == 0) {
        close(pipefd[0]);
        FILE *f = tmpfile();
        cb_deck_options o;
        deck_options(w, &o, games, 2);
        cb_spec spec = w->spec;
        spec.seed = "bench deck memory";
        cb_deck *d = NULL;
        cb_pdf_writer *pw = NULL;
        cb_error err;
        size_t n = 0;
        cb_status st = f ? cb_pdf_begin_file(w->theme, &w->render, fileno(f), "bench", &pw, &err)
                         : CB_ERR_IO;
        w->pw = pw;
        if (st == CB_OK)
            st = cb_deck_new(&spec, &o, &d, &err);
        double put_cpu = 0;
        if (st == CB_OK)
            st = put_games(d, pw, &n, &put_cpu, &err);
        if (st == CB_OK)
            st = cb_pdf_add_rules(pw, NULL, &err);
        unsigned char *none = NULL;
        size_t len = 0;
        if (st == CB_OK)
            st = cb_pdf_end(pw, &none, &len, &err);
        cb_deck_free(d);
        cb_pdf_writer_free(pw);
        if (write(pipefd[1], &n, sizeof n) != (ssize_t)sizeof n)
            _exit(2);
        _exit(st == CB_OK ? 0 : 1);
    }
    close(pipefd[1]);
    if (pid < 0) {
        close(pipefd[0]);
        return -1;
    }
    *pages = 0;
    if (read(pipefd[0], pages, sizeof *pages) != (ssize_t)sizeof *pages)
        *pages = 0;
    close(pipefd[0]);
    int status;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return -1;
    *seconds = now() - t0;
    return (double)ru.ru_maxrss / 1024.0;
}

/* Issue 33: the candidates a sheet takes (its attempts: derived seeds
 * tried until one meets the contract and the game's bands), by its place
 * in the game, over the GAMES games of KEEP. */
static void attempts_row(cb_game *const *keep, size_t games)
{
    enum { MAX_SHEETS = 9 };
    long sum[MAX_SHEETS] = {0}, n[MAX_SHEETS] = {0}, all = 0, sheets = 0, most = 0;
    for (size_t i = 0; i < games; i++)
        for (size_t s = 0; s < keep[i]->n_sheets && s < MAX_SHEETS; s++) {
            long a = keep[i]->sheets[s]->attempts;
            sum[s] += a, n[s]++, all += a, sheets++;
            most = a > most ? a : most;
        }
    char by[128] = "", *p = by;
    for (int s = 0; s < MAX_SHEETS && n[s]; s++)
        p += snprintf(p, (size_t)(by + sizeof by - p), "%s%.2f", s ? " / " : "",
                      (double)sum[s] / (double)n[s]);
    double mean = sheets ? (double)all / (double)sheets : 0;
    printf("| attempts a sheet, %zu games x 4 players (sheets 1 / 2 / 3 / 4: %s) | %ld sheets | "
           "- | %.3f (at most %ld) | - | <= 1.15 | %s |\n", games, by, sheets, mean, most,
           mean <= 1.15 ? "yes" : "NO");
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
    w.games = 300;
    int failed = 0;
    printf("\nDeck to PDF (cb_deck + cb_pdf_writer, 300 games on A4, default theme; median of "
           "%d runs, each with its own master seed)\n\n", runs_wanted());
    printf("| workload | n | median | per node | peak MB | target | ok |\n");
    printf("| --- | ---: | ---: | ---: | ---: | --- | --- |\n");
    pthread_mutex_init(&w.lock, NULL);
    static config cs[3];
    /* Issue 33's target: 2,500 pages/s on one core (issue 14's was 1,500). */
    cs[0] = (config){.name = "deck, 300 games x 4 players, one pinned core", .jobs = 1, .pinned = 1,
                       .target = 2500};
    cs[1] = (config){.name = "deck, 300 games x 4 players, --jobs 1", .jobs = 1};
    cs[2] = (config){.name = "deck, 300 games x 4 players, --jobs 2", .jobs = 2};
    paired(cs, 3, &w, deck_run, &failed);
    if (!failed) {
        double up = cs[2].pps / cs[0].pps;
        printf("| deck: --jobs 2 against one pinned core | - | - | %.2fx | - | >= 1.70x | %s |\n",
               up, up >= 1.7 ? "yes" : "NO");
        stages(&cs[1], runs_wanted());
    }
    printf("\n| workload | n | median | per node | peak MB | target | ok |\n");
    printf("| --- | ---: | ---: | ---: | ---: | --- | --- |\n");
    /* Peak memory of one-file decks (pages streamed to the file): it must
     * not grow with the deck. 20,000 games take minutes: not with
     * BENCH_QUICK. */
    const char *quick = getenv("BENCH_QUICK");
    size_t sizes[] = {1000, 20000};
    for (size_t i = 0; i < (quick && *quick && *quick != '0' ? 1u : 2u) && !failed; i++) {
        double secs = 0;
        size_t pages = 0;
        double mb = deck_peak_mb(&w, sizes[i], &secs, &pages);
        if (mb < 0) {
            printf("| deck to a file, %zu games, --jobs 2 | - | FAIL | - | - | - | NO |\n",
                   sizes[i]);
            failed = 1;
            break;
        }
        printf("| deck to a file, %zu games x 4 players, --jobs 2 | %zu pages | %.1f s | %.0f "
               "pages/s | %.1f | <= 100 MB | %s |\n", sizes[i], pages, secs,
               (double)pages / secs, mb, mb <= 100 ? "yes" : "NO");
        fflush(stdout);
    }
    w.jobs = 2;
    w.spec.shared = 1;
    row("deck, 300 shared boards, --jobs 2", &w, deck_run, 0, &failed);
    /* Rendering alone, one core: the same 300 four-player games. */
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
        attempts_row(w.keep, w.games);
    if (!failed)
        row("render only, 300 games x 4 players, one core", &w, render_run, 500, &failed);
    for (size_t i = 0; i < w.games; i++)
        cb_game_free(w.keep[i]);
    free(w.keep);
    cb_theme_free(theme);
    return failed;
}
