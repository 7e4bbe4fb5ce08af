/* Board files (format cutboard/1) at poster sizes: writing one
 * (cb_json_write, streamed to a file) and reading one back (cb_game_load),
 * for a 100,000-node A0 board and (not with BENCH_QUICK=1) the 1,000,000-node
 * 4000 x 2830 mm poster of bench_board.c.
 *
 * Each size runs in a child of its own: it generates the game, writes its
 * board file 5 times (the median is the write's time; "peak MB" is what the
 * writes added to the peak RSS of the generated game; CPU counts both of
 * the writer's threads: the text, and the metrics beside it), then a fresh child
 * per run reads the file (its peak RSS is the reader's alone). The targets
 * (issue 18): writing adds <= 1 s and <= 64 MB; reading takes <= 2 s and
 * <= 2x the board's own memory, the bytes its arrays take (nodes, edges,
 * dot positions), printed below the table. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "bench.h"
#include "cutboard.h"

typedef struct {
    const char *name;
    double page_w, page_h, resolution, margin;
    double n;
    int big;
} size_row;

static double peak_mb(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_maxrss / 1024.0;
}

/* CPU seconds of this process so far, every thread's. */
static double cpu_s(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
           (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
}

static int to_file(void *ctx, const void *data, size_t len)
{
    return fwrite(data, 1, len, ctx) == len ? 0 : 5; /* EIO */
}

static double board_bytes(const cb_game *g)
{
    double bytes = 0;
    for (size_t i = 0; i < g->n_sheets; i++) {
        const cb_board *b = g->sheets[i];
        bytes += (double)b->n_nodes * sizeof *b->nodes + (double)b->n_edges * sizeof *b->edges +
                 (double)b->n_dot_xy * sizeof *b->dot_xy;
    }
    return bytes;
}

/* In a child: generates the game, writes PATH 5 times, prints the write row
 * and the board's own bytes (to the parent through FD). */
static int write_child(const size_row *r, const cb_theme *theme, const char *path, int fd)
{
    cb_spec spec;
    cb_spec_defaults(&spec);
    spec.page_w = r->page_w;
    spec.page_h = r->page_h;
    spec.resolution = r->resolution;
    spec.margin = r->margin;
    spec.theme = theme;
    spec.shared = 1;
    spec.seed = "bench board file";
    cb_game *g = NULL;
    cb_error err;
    if (cb_game_generate(&spec, &g, &err) != CB_OK) {
        fprintf(stderr, "bench_board_file: %s\n", err.message);
        return 1;
    }
    double before = peak_mb(), t[5], cpu[5];
    for (int k = 0; k < 5; k++) {
        FILE *f = fopen(path, "wb");
        double t0 = bench_now(), c0 = cpu_s();
        cb_status st = f ? cb_json_write(g, theme, to_file, f, &err) : CB_ERR_CANTCREAT;
        if (f && fclose(f) != 0)
            st = CB_ERR_IO;
        t[k] = bench_now() - t0;
        cpu[k] = cpu_s() - c0;
        if (st != CB_OK) {
            fprintf(stderr, "bench_board_file: writing %s failed\n", path);
            return 1;
        }
    }
    double added = peak_mb() - before, median = bench_median(t, 5), bytes = board_bytes(g);
    double median_cpu = bench_median(cpu, 5);
    char name[160], ns[32], med[32], per[32], mb[32];
    snprintf(name, sizeof name, "write %s", r->name);
    snprintf(ns, sizeof ns, "%.0f", r->n);
    snprintf(med, sizeof med, "%.3f s (CPU %.3f s)", median, median_cpu);
    snprintf(per, sizeof per, "%.2f us/node", median / r->n * 1e6);
    snprintf(mb, sizeof mb, "+%.1f", added);
    bench_row(name, ns, med, per, mb, "<= 1 s, <= +64 MB",
              median <= 1 && added <= 64 ? "yes" : "NO");
    fflush(stdout);
    if (write(fd, &bytes, sizeof bytes) != (ssize_t)sizeof bytes)
        return 1;
    cb_game_free(g);
    return 0;
}

static int read_work(void *arg, int run)
{
    (void)run;
    cb_game *g = NULL;
    cb_error err;
    if (cb_game_load(arg, NULL, &g, &err) != CB_OK) {
        fprintf(stderr, "bench_board_file: %s\n", err.message);
        return 1;
    }
    cb_game_free(g);
    return 0;
}

int main(void)
{
    cb_theme *theme = NULL;
    cb_error err;
    const char *dir = getenv("CUTBOARD_THEME") ? getenv("CUTBOARD_THEME") : "icons/default";
    if (cb_theme_load(dir, &theme, &err) != CB_OK) {
        fprintf(stderr, "bench_board_file: %s\n", err.message);
        return 1;
    }
    const size_row rows[] = {
        {"A0 --margin 15 --resolution 378.0 --shared", 1189, 841, 378.0, 15, 100000, 0},
        {"4000x2830mm --margin 15 --resolution 1190.7 --shared", 4000, 2830, 1190.7, 15, 1000000,
         1},
    };
    bench_header("Board files (cb_json_write to a file; cb_game_load back; median of 5)");
    char path[] = "/tmp/cutboard-bench-XXXXXX";
    int tmp = mkstemp(path);
    if (tmp < 0) {
        fprintf(stderr, "bench_board_file: no temporary file\n");
        return 1;
    }
    close(tmp);
    int failed = 0;
    char notes[2][160];
    size_t n_notes = 0;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0] && !failed; i++) {
        const size_row *r = &rows[i];
        if (r->big && bench_quick())
            continue;
        int p[2];
        double bytes = 0;
        if (pipe(p) != 0)
            return 1;
        pid_t pid = fork();
        if (pid == 0) {
            close(p[0]);
            _exit(write_child(r, theme, path, p[1]));
        }
        close(p[1]);
        int status = 0;
        if (pid < 0 || read(p[0], &bytes, sizeof bytes) != (ssize_t)sizeof bytes)
            failed = 1;
        close(p[0]);
        if (pid > 0)
            waitpid(pid, &status, 0);
        if (failed || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            failed = 1;
            break;
        }
        bench_result res;
        if (bench_run(read_work, path, bench_runs(5), &res) != 0)
            return 1;
        char name[160], target[64];
        double mb = bytes / (1024.0 * 1024.0);
        snprintf(name, sizeof name, "read %s", r->name);
        snprintf(target, sizeof target, "<= 2 s, <= %.0f MB", 2 * mb);
        bench_row_result(name, r->n, "node", &res, target,
                         !res.failed && res.median_s <= 2 && res.peak_mb <= 2 * mb);
        snprintf(notes[n_notes++], sizeof notes[0], "%.0f nodes: the board's own arrays are %.1f MB",
                 r->n, mb);
        failed |= res.failed;
    }
    for (size_t k = 0; k < n_notes; k++)
        printf("  (%s)\n", notes[k]);
    unlink(path);
    cb_theme_free(theme);
    return failed;
}
