/* Benchmark: cutboard beside what a user would reach for instead, in one
 * run, as ratios.
 *
 * Drawing: 200 four-player games are written as board files the way a user
 * gets them (`cutboard --seed peers#K --players 4 --json game-K.json`, two
 * at a time), and their 800 sheets are drawn into one PDF by
 *   - `cutboard render game-*.json -o out.pdf` (one call),
 *   - the same, one call per game (`--rules none`; how it was done before
 *     render took several files; skipped with BENCH_QUICK=1),
 *   - a short pycairo script (tests/bench/peer_pycairo.py) and a short
 *     ReportLab script (tests/bench/peer_reportlab.py) drawing the same
 *     sheets (what they leave out is said at their top).
 * Rounds alternate the tools (A B C D, B C D A, ...): BENCH_RUNS rounds
 * (default 3), medians of wall time and of CPU time (user + sys of the whole
 * process, so other work on a shared machine counts less), peak RSS, and
 * bytes per sheet (file size / 800: cutboard's one call also holds its rules
 * page). Each output's page count is checked with pdfinfo where present.
 *
 * Triangulation floor: one board of 1,000,000 nodes (the 4000 x 2830 mm
 * poster, --margin 15 --resolution 1190.7; BENCH_QUICK=1: the 100,000-node
 * A0 poster) is generated (cb_board_generate, CPU time, median of 3 seeds);
 * its node coordinates go to a file, and scipy's Delaunay (qhull) and
 * cutboard's own triangulator (src/planar/delaunay.c) triangulate exactly
 * those points (CPU time, median of 3).
 *
 * A peer whose Python module is missing (make bench installs the Debian
 * packages) is skipped with a one-line message. The figures go to stdout. */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE /* wait4, mkdtemp */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "cutboard.h"
#include "planar/delaunay.h"

#define GAMES 200
#define PLAYERS 4
#define SHEETS (GAMES * PLAYERS)

static char dir[64];            /* the scratch folder */
static const char *cutboard_bin;

/* What one process cost. */
typedef struct {
    double wall_s, cpu_s, peak_mb;
} cost;

static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Starts ARGV with standard output to /dev/null (the tools' progress and
 * PDFs to "-" are not wanted); the child's pid, or -1. */
static pid_t start(char *const argv[])
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0)
            dup2(null, STDOUT_FILENO);
        execvp(argv[0], argv);
        fprintf(stderr, "bench_peers: %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    return pid;
}

/* Waits for PID; adds its costs to C. 0 when it exited 0. */
static int finish(pid_t pid, cost *c)
{
    int status;
    struct rusage ru;
    while (wait4(pid, &status, 0, &ru) < 0)
        if (errno != EINTR)
            return -1;
    c->cpu_s += (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
                (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
    double mb = (double)ru.ru_maxrss / 1024.0;
    c->peak_mb = mb > c->peak_mb ? mb : c->peak_mb;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

/* Runs ARGV to the end: 0 when it exited 0; its costs in C. */
static int run(char *const argv[], cost *c)
{
    memset(c, 0, sizeof *c);
    double t0 = bench_now();
    pid_t pid = start(argv);
    int rc = pid < 0 ? -1 : finish(pid, c);
    c->wall_s = bench_now() - t0;
    return rc;
}

/* The first python3 that imports MODULE (the PATH's, else Debian's, where
 * make bench installs the peers), or NULL. */
static const char *python_with(const char *module)
{
    static const char *const pythons[] = {"python3", "/usr/bin/python3"};
    for (size_t p = 0; p < sizeof pythons / sizeof *pythons; p++) {
        char cmd[256];
        snprintf(cmd, sizeof cmd, "%s -c 'import %s' >/dev/null 2>&1", pythons[p], module);
        if (system(cmd) == 0)
            return pythons[p];
    }
    return NULL;
}

/* The first line PYTHON prints for CODE, in OUT ("?" when none). */
static void python_says(const char *python, const char *code, char *out, size_t len)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s -c '%s' 2>/dev/null", python, code);
    FILE *f = popen(cmd, "r");
    snprintf(out, len, "?");
    if (f && fgets(out, (int)len, f))
        out[strcspn(out, "\n")] = '\0';
    if (f)
        pclose(f);
}

/* Pages of PDF by pdfinfo; -1 when pdfinfo is missing or fails. */
static long pdf_pages(const char *pdf)
{
    char cmd[512], line[256];
    snprintf(cmd, sizeof cmd, "pdfinfo '%s' 2>/dev/null", pdf);
    FILE *f = popen(cmd, "r");
    long pages = -1;
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "Pages:", 6) == 0)
            pages = atol(line + 6);
    if (f)
        pclose(f);
    return pages;
}

static long file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

/* Writes the 200 games' board files, two cutboard processes at a time. */
static int make_board_files(char **files)
{
    pid_t running[2] = {0, 0};
    cost c = {0, 0, 0};
    int bad = 0;
    for (int k = 0; k <= GAMES + 1; k++) {
        int slot = k % 2;
        if (running[slot] > 0 && finish(running[slot], &c) != 0)
            bad = 1;
        running[slot] = 0;
        if (k >= GAMES || bad)
            continue;
        char seed[32];
        snprintf(seed, sizeof seed, "peers#%d", k);
        char *argv[] = {(char *)cutboard_bin, "--seed", seed, "--players", "4", "--json",
                        files[k], "-o", "-", NULL};
        running[slot] = start(argv);
        bad |= running[slot] < 0;
    }
    return bad ? -1 : 0;
}

enum { CB_ONE_CALL, CB_PER_GAME, PYCAIRO, REPORTLAB, TOOLS };

typedef struct {
    const char *name;
    const char *python;         /* the peers' interpreter; NULL: skipped */
    char out[96];               /* the PDF it writes */
    int calls;
    double wall[BENCH_MAX_RUNS], cpu[BENCH_MAX_RUNS];
    double peak_mb;
    long bytes;
    int runs, failed;
} tool;

/* One run of tool T over FILES. */
static void run_tool(tool *t, int which, char **files)
{
    cost c = {0, 0, 0};
    int rc = 0;
    char theme[] = "icons/default", font[] = "fonts/DejaVuSans.ttf";
    if (which == CB_PER_GAME) {
        /* one call per game, one after another, as a shell loop runs them */
        t->bytes = 0;
        for (int k = 0; k < GAMES && rc == 0; k++) {
            char out[128];
            cost one;
            snprintf(out, sizeof out, "%s/one-%05d.pdf", dir, k);
            char *argv[] = {(char *)cutboard_bin, "render", files[k], "--rules", "none", "-o",
                            out, NULL};
            rc = run(argv, &one);
            c.wall_s += one.wall_s;
            c.cpu_s += one.cpu_s;
            c.peak_mb = one.peak_mb > c.peak_mb ? one.peak_mb : c.peak_mb;
            t->bytes += file_size(out);
            if (k == 0 && pdf_pages(out) >= 0 && pdf_pages(out) != PLAYERS)
                rc = -1;
        }
    } else {
        char **argv = calloc(GAMES + 8, sizeof *argv);
        int n = 0;
        if (!argv) {
            t->failed = 1;
            return;
        }
        if (which == CB_ONE_CALL) {
            argv[n++] = (char *)cutboard_bin;
            argv[n++] = "render";
        } else {
            argv[n++] = (char *)t->python;
            argv[n++] = which == PYCAIRO ? "tests/bench/peer_pycairo.py"
                                         : "tests/bench/peer_reportlab.py";
            argv[n++] = theme;
            if (which == REPORTLAB)
                argv[n++] = font;
            argv[n++] = t->out;
        }
        for (int k = 0; k < GAMES; k++)
            argv[n++] = files[k];
        if (which == CB_ONE_CALL) {
            argv[n++] = "-o";
            argv[n++] = t->out;
        }
        argv[n] = NULL;
        unlink(t->out);
        rc = run(argv, &c);
        free(argv);
        t->bytes = file_size(t->out);
        long pages = pdf_pages(t->out), want = SHEETS + (which == CB_ONE_CALL);
        if (pages >= 0 && pages != want) {
            fprintf(stderr, "bench_peers: %s: %ld pages, %ld wanted\n", t->name, pages, want);
            rc = -1;
        }
    }
    if (rc != 0) {
        t->failed = 1;
        return;
    }
    t->wall[t->runs] = c.wall_s;
    t->cpu[t->runs] = c.cpu_s;
    t->peak_mb = c.peak_mb > t->peak_mb ? c.peak_mb : t->peak_mb;
    t->runs++;
}

static int drawing(int runs)
{
    char *files[GAMES];
    static char names[GAMES][96];
    for (int k = 0; k < GAMES; k++) {
        snprintf(names[k], sizeof names[k], "%s/game-%05d.json", dir, k);
        files[k] = names[k];
    }
    double t0 = bench_now();
    if (make_board_files(files) != 0) {
        fprintf(stderr, "bench_peers: cannot write the board files with %s\n", cutboard_bin);
        return 1;
    }
    double setup = bench_now() - t0;
    char cairo_v[32] = "", rl_v[32] = "";
    tool tools[TOOLS];
    memset(tools, 0, sizeof tools);
    tools[CB_ONE_CALL].name = "cutboard render, one call";
    tools[CB_ONE_CALL].calls = 1;
    tools[CB_PER_GAME].name = "cutboard render, one call per game";
    tools[CB_PER_GAME].calls = GAMES;
    tools[PYCAIRO].python = python_with("cairo");
    tools[REPORTLAB].python = python_with("reportlab");
    if (tools[PYCAIRO].python)
        python_says(tools[PYCAIRO].python, "import cairo; print(cairo.version)", cairo_v,
                    sizeof cairo_v);
    if (tools[REPORTLAB].python)
        python_says(tools[REPORTLAB].python, "import reportlab; print(reportlab.Version)", rl_v,
                    sizeof rl_v);
    static char cairo_name[128], rl_name[128];
    snprintf(cairo_name, sizeof cairo_name, "pycairo %s script (peer_pycairo.py)", cairo_v);
    snprintf(rl_name, sizeof rl_name, "ReportLab %s script (peer_reportlab.py)", rl_v);
    tools[PYCAIRO].name = cairo_name;
    tools[PYCAIRO].calls = 1;
    tools[REPORTLAB].name = rl_name;
    tools[REPORTLAB].calls = 1;
    static const char *const outs[TOOLS] = {"cutboard.pdf", "-", "pycairo.pdf", "reportlab.pdf"};
    for (int t = 0; t < TOOLS; t++)
        snprintf(tools[t].out, sizeof tools[t].out, "%s/%s", dir, outs[t]);
    int active[TOOLS] = {1, !bench_quick(), tools[PYCAIRO].python != NULL,
                         tools[REPORTLAB].python != NULL};
    if (!active[PYCAIRO])
        printf("pycairo: no python3 imports cairo (Debian: python3-cairo): no pycairo comparison\n");
    if (!active[REPORTLAB])
        printf("ReportLab: no python3 imports reportlab (Debian: python3-reportlab): no "
               "ReportLab comparison\n");
    for (int r = 0; r < runs; r++)
        for (int i = 0; i < TOOLS; i++) {
            int t = (r + i) % TOOLS;
            if (active[t] && !tools[t].failed)
                run_tool(&tools[t], t, files);
        }
    printf("\nDrawing %d sheets (%d four-player games; board files written by `cutboard "
           "--json`, %.1f s for all) into one PDF: median of %d alternating runs, wall and "
           "CPU (user + sys) time of the whole process\n\n",
           SHEETS, GAMES, setup, runs);
    printf("| tool | calls | wall | sheets/s | CPU | sheets/s of CPU | peak MB | bytes/sheet | "
           "cutboard's one call is |\n");
    printf("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
    double base = 0, base_cpu = 0;
    int failed = 0;
    for (int t = 0; t < TOOLS; t++) {
        tool *x = &tools[t];
        if (!active[t])
            continue;
        if (x->failed || x->runs == 0) {
            printf("| %s | %d | FAILED | - | - | - | - | - | - |\n", x->name, x->calls);
            failed |= t == CB_ONE_CALL;
            continue;
        }
        double wall = bench_median(x->wall, x->runs), cpu = bench_median(x->cpu, x->runs);
        if (t == CB_ONE_CALL)
            base = wall, base_cpu = cpu;
        char ratio[64] = "-";
        if (t != CB_ONE_CALL && base > 0)
            snprintf(ratio, sizeof ratio, "%.1fx faster (CPU %.1fx)", wall / base,
                     cpu / base_cpu);
        printf("| %s | %d | %.2f s | %.0f | %.2f s | %.0f | %.1f | %.0f | %s |\n", x->name,
               x->calls, wall, SHEETS / wall, cpu, SHEETS / cpu, x->peak_mb,
               (double)x->bytes / SHEETS, ratio);
    }
    fflush(stdout);
    return failed;
}

/* ---- the triangulation floor ------------------------------------------ */

typedef struct {
    cb_spec spec;
    const char *points;     /* where the last board's nodes go */
    size_t n, triangles;    /* nodes; triangles of cutboard's triangulation */
    double cpu[BENCH_MAX_RUNS], dt_cpu[BENCH_MAX_RUNS];
} floor_work;

/* Generates the board of seed K, timed; then triangulates its points with
 * cutboard's own triangulator, timed; the last run writes the points. */
static int board_and_points(floor_work *w, int k, int last)
{
    char seed[32];
    snprintf(seed, sizeof seed, "peers floor %d", k);
    cb_board *b = NULL;
    cb_error err;
    double t0 = cpu_now();
    if (cb_board_generate(&w->spec, seed, 1, &b, &err) != CB_OK) {
        fprintf(stderr, "bench_peers: board: %s\n", err.message);
        return -1;
    }
    w->cpu[k] = cpu_now() - t0;
    double *xy = malloc(2 * b->n_nodes * sizeof *xy);
    if (!xy) {
        cb_board_free(b);
        return -1;
    }
    for (size_t i = 0; i < b->n_nodes; i++)
        xy[2 * i] = b->nodes[i].x, xy[2 * i + 1] = b->nodes[i].y;
    w->n = b->n_nodes;
    cb_board_free(b);
    cb_delaunay dt;
    t0 = cpu_now();
    int rc = cb_delaunay_build(&dt, xy, w->n);
    w->dt_cpu[k] = cpu_now() - t0;
    w->triangles = dt.n_triangles;
    cb_delaunay_free(&dt);
    FILE *f = last && rc == 0 ? fopen(w->points, "wb") : NULL;
    if (last && (!f || fwrite(xy, sizeof *xy, 2 * w->n, f) != 2 * w->n))
        rc = -1;
    if (f && fclose(f) != 0)
        rc = -1;
    free(xy);
    return rc;
}

/* "4.1x faster" or "1.3x slower": time T against qhull's Q. */
static void vs_qhull(double t, double q, char *out, size_t len)
{
    if (t <= q)
        snprintf(out, len, "%.1fx faster", q / t);
    else
        snprintf(out, len, "%.1fx slower", t / q);
}

static int triangulation_floor(int runs)
{
    cb_theme *theme = NULL;
    cb_error err;
    if (cb_theme_load("icons/default", &theme, &err) != CB_OK) {
        fprintf(stderr, "bench_peers: %s\n", err.message);
        return 1;
    }
    floor_work w;
    memset(&w, 0, sizeof w);
    cb_spec_defaults(&w.spec);
    int quick = bench_quick();
    w.spec.page_w = quick ? 1189 : 4000;
    w.spec.page_h = quick ? 841 : 2830;
    w.spec.margin = 15;
    w.spec.resolution = quick ? 378.0 : 1190.7;
    w.spec.theme = theme;
    const char *board = quick ? "A0 --margin 15 --resolution 378" :
                                "4000x2830mm --margin 15 --resolution 1190.7";
    char points[96];
    snprintf(points, sizeof points, "%s/points.f64", dir);
    w.points = points;
    int bad = 0;
    for (int k = 0; k < runs && !bad; k++)
        bad = board_and_points(&w, k, k == runs - 1) != 0;
    cb_theme_free(theme);
    if (bad)
        return 1;
    double ours = bench_median(w.cpu, runs), dt = bench_median(w.dt_cpu, runs);
    const char *python = python_with("scipy.spatial");
    double qhull = -1;
    long qhull_triangles = 0;
    char qhull_v[64] = "?";
    if (!python) {
        printf("\nscipy: no python3 imports scipy.spatial (Debian: python3-scipy): no "
               "triangulation floor\n");
    } else {
        python_says(python, "import scipy; print(scipy.__version__)", qhull_v, sizeof qhull_v);
        char cmd[512], line[128] = "";
        snprintf(cmd, sizeof cmd, "%s tests/bench/peer_qhull.py '%s' %d", python, points, runs);
        FILE *f = popen(cmd, "r");
        if (f && fgets(line, sizeof line, f))
            qhull = atof(line);
        if (f && fgets(line, sizeof line, f))
            qhull_triangles = atol(line);
        if (f && pclose(f) != 0)
            qhull = -1;
        if (qhull <= 0)
            fprintf(stderr, "bench_peers: %s failed\n", cmd);
    }
    printf("\nTriangulation floor: one board of %zu nodes (%s), median CPU time of %d "
           "seeds; the same points triangulated\n\n", w.n, board, runs);
    printf("| work | median CPU | per node | than qhull |\n| --- | ---: | ---: | ---: |\n");
    char q[64] = "-";
    if (qhull > 0)
        vs_qhull(ours, qhull, q, sizeof q);
    printf("| cutboard: the whole board (cb_board_generate: place, connect, starts, contract "
           "check, decoration) | %.3f s | %.2f us | %s |\n", ours, ours / (double)w.n * 1e6, q);
    if (qhull > 0)
        vs_qhull(dt, qhull, q, sizeof q);
    printf("| cutboard's own Delaunay (src/planar/delaunay.c; %zu triangles) on its points | "
           "%.3f s | %.2f us | %s |\n", w.triangles, dt, dt / (double)w.n * 1e6, q);
    if (qhull > 0)
        printf("| scipy %s Delaunay (qhull; %ld triangles) on its points | %.3f s | %.2f us | "
               "- |\n", qhull_v, qhull_triangles, qhull, qhull / (double)w.n * 1e6);
    fflush(stdout);
    return 0;
}

int main(void)
{
    cutboard_bin = getenv("CUTBOARD") ? getenv("CUTBOARD") : "./cutboard";
    snprintf(dir, sizeof dir, "/tmp/cutboard-peers-XXXXXX");
    if (!mkdtemp(dir)) {
        fprintf(stderr, "bench_peers: cannot make a scratch folder: %s\n", strerror(errno));
        return 1;
    }
    int runs = bench_runs(3);
    printf("\nPeers, side by side in one run (figures from this machine, shared: see the "
           "CPU columns)\n");
    int failed = drawing(runs);
    failed |= triangulation_floor(runs);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "bench_peers: could not remove %s\n", dir);
    return failed;
}
