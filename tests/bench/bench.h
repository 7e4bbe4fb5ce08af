/* Shared helpers for tests/bench/bench_*.c: every benchmark prints rows of
 * one table,
 *
 *   | workload | n | median | per node | peak MB | target | ok |
 *
 * where "median" is the median wall time of >= 5 runs (CLOCK_MONOTONIC),
 * "per node" is that median divided by the workload's unit count (nodes,
 * pages, ...: the column header stays, the unit is printed with the figure),
 * "peak MB" is the peak resident memory (getrusage ru_maxrss) of a child
 * process that ran only this workload, "target" is the target (doc/manual.md, Performance) as
 * text and "ok" is yes/NO/-.
 *
 * Usage:
 *
 *   static int work(void *arg, int run) { ...; return 0; }  // nonzero: failed
 *   bench_result r;
 *   bench_header("board generation");               // once per file
 *   bench_run(work, &my_arg, 5, &r);                // forks, runs 5 times
 *   bench_row_result("board A4", 88, "node", &r, "< 0.5 ms", r.median_s < 0.5e-3);
 *
 * Environment: BENCH_RUNS=N overrides the number of runs (at least 5 when
 * set lower it is still honoured, for quick looks); BENCH_QUICK=1 lets a
 * benchmark skip its largest workloads (each file decides).
 *
 * Header-only (static functions) so each bench_*.c stays one file. */
#ifndef CB_BENCH_H
#define CB_BENCH_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define BENCH_MAX_RUNS 101

typedef struct {
    int runs;           /* runs that were timed */
    double median_s;    /* median wall time of one run, seconds */
    double min_s, max_s;
    double peak_mb;     /* peak RSS of the child that ran the workload, MB */
    int failed;         /* a run returned nonzero, or the child died */
} bench_result;

/* A workload: one run, numbered from 0 (use it to vary the seed). Returns 0,
 * or nonzero when the run failed (the row then says FAIL). */
typedef int (*bench_fn)(void *arg, int run);

static inline double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int bench_cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* Median of n values (sorts them in place); 0 when n is 0. */
static inline double bench_median(double *v, int n)
{
    if (n <= 0)
        return 0;
    qsort(v, (size_t)n, sizeof *v, bench_cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* BENCH_RUNS when set, else WANT; clamped to 1..BENCH_MAX_RUNS. */
static inline int bench_runs(int want)
{
    const char *e = getenv("BENCH_RUNS");
    int n = e && *e ? atoi(e) : want;
    return n < 1 ? 1 : n > BENCH_MAX_RUNS ? BENCH_MAX_RUNS : n;
}

static inline int bench_quick(void)
{
    const char *e = getenv("BENCH_QUICK");
    return e && *e && strcmp(e, "0") != 0;
}

/* Runs FN(arg, 0..runs-1) in a forked child, timing each run; the child
 * sends the times and its ru_maxrss back through a pipe. The parent's
 * memory does not count, and one workload's peak does not leak into the
 * next row. Returns 0, or -1 when the child could not be run. */
static inline int bench_run(bench_fn fn, void *arg, int runs, bench_result *out)
{
    memset(out, 0, sizeof *out);
    if (runs > BENCH_MAX_RUNS)
        runs = BENCH_MAX_RUNS;
    int fd[2];
    if (pipe(fd) != 0)
        return -1;
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        close(fd[0]);
        close(fd[1]);
        return -1;
    }
    if (pid == 0) {
        close(fd[0]);
        double msg[BENCH_MAX_RUNS + 2];
        int done = 0, bad = 0;
        for (; done < runs; done++) {
            double t0 = bench_now();
            bad = fn(arg, done);
            msg[2 + done] = bench_now() - t0;
            if (bad)
                break;
        }
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        msg[0] = bad ? -(double)done : (double)done;
        msg[1] = (double)ru.ru_maxrss / 1024.0; /* Linux: kilobytes */
        size_t len = (size_t)(2 + done) * sizeof(double);
        const char *p = (const char *)msg;
        while (len) {
            ssize_t w = write(fd[1], p, len);
            if (w <= 0)
                _exit(1);
            p += w;
            len -= (size_t)w;
        }
        _exit(0);
    }
    close(fd[1]);
    double msg[BENCH_MAX_RUNS + 2];
    size_t got = 0;
    for (;;) {
        ssize_t r = read(fd[0], (char *)msg + got, sizeof msg - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        got += (size_t)r;
    }
    close(fd[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (got < 2 * sizeof(double) || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        out->failed = 1;
        return 0;
    }
    int done = (int)(msg[0] < 0 ? -msg[0] : msg[0]);
    out->failed = msg[0] < 0 || done < runs;
    if ((size_t)(2 + done) * sizeof(double) > got)
        done = (int)(got / sizeof(double)) - 2;
    out->runs = done;
    out->peak_mb = msg[1];
    if (done > 0) {
        out->min_s = out->max_s = msg[2];
        for (int i = 0; i < done; i++) {
            out->min_s = msg[2 + i] < out->min_s ? msg[2 + i] : out->min_s;
            out->max_s = msg[2 + i] > out->max_s ? msg[2 + i] : out->max_s;
        }
        out->median_s = bench_median(msg + 2, done);
    }
    return 0;
}

/* A duration in the unit that suits it: "412 ns", "3.40 us", "1.23 ms", "4.56 s". */
static inline const char *bench_fmt_time(double s, char *buf, size_t len)
{
    if (s < 1e-6)
        snprintf(buf, len, "%.0f ns", s * 1e9);
    else if (s < 1e-3)
        snprintf(buf, len, "%.2f us", s * 1e6);
    else if (s < 1)
        snprintf(buf, len, "%.2f ms", s * 1e3);
    else
        snprintf(buf, len, "%.2f s", s);
    return buf;
}

/* The table's title line and header; call once per benchmark file. */
static inline void bench_header(const char *title)
{
    printf("\n%s\n\n", title);
    printf("| workload | n | median | per node | peak MB | target | ok |\n");
    printf("| --- | ---: | ---: | ---: | ---: | --- | --- |\n");
    fflush(stdout);
}

/* One row with preformatted cells (any may be "-"). */
static inline void bench_row(const char *workload, const char *n, const char *median,
                             const char *per, const char *peak_mb, const char *target,
                             const char *ok)
{
    printf("| %s | %s | %s | %s | %s | %s | %s |\n", workload, n, median, per, peak_mb,
           target, ok);
    fflush(stdout);
}

/* One row from a result: N units of UNIT ("node", "page", ...), the median
 * per unit, peak MB, the target text and whether it was met (-1: no target). */
static inline void bench_row_result(const char *workload, double n, const char *unit,
                                    const bench_result *r, const char *target, int ok)
{
    char ns[32], med[32], per[48], t[32], mb[32];
    if (n >= 1e6 && (double)(long long)(n / 1e6) * 1e6 == n)
        snprintf(ns, sizeof ns, "%lldM", (long long)(n / 1e6));
    else
        snprintf(ns, sizeof ns, "%.0f", n);
    if (r->failed) {
        bench_row(workload, ns, "FAIL", "-", "-", target ? target : "-", "NO");
        return;
    }
    bench_fmt_time(r->median_s, med, sizeof med);
    snprintf(per, sizeof per, "%s/%s", bench_fmt_time(n > 0 ? r->median_s / n : 0, t, sizeof t),
             unit);
    snprintf(mb, sizeof mb, "%.1f", r->peak_mb);
    bench_row(workload, ns, med, per, mb, target ? target : "-",
              ok < 0 ? "-" : ok ? "yes" : "NO");
}

#endif
