/* Benchmark: every network model at n = 100,000 (complete: 2,000), the
 * median of RUNS builds, side by side with NetworkX (tests/bench/
 * bench_networkx.py) and igraph's C core (tests/bench/bench_igraph.py)
 * building the same model, each where a python3 has it. Prints one row per
 * model. BENCH_RUNS (default 5) sets the number of runs of each side.
 *
 * What is timed, on every side: building the model's graph from its
 * parameters (our cb_network_build: checks, generation, links sorted; no
 * analysis), in CPU time of the process (CLOCK_PROCESS_CPUTIME_ID here,
 * time.process_time() in the scripts), so that other processes on a shared
 * machine do not count; every side is single-threaded. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cutboard.h"

#define N 100000

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

typedef struct {
    const char *name;   /* as bench_networkx.py prints it */
    cb_net_model model;
    long n, k, m, links;
    double p;
    const char *params;
} row;

/* Runs SCRIPT with the first python3 that imports MODULE (the PATH's, else
 * Debian's: make deps installs python3-networkx there) and reads its
 * "<model> <ms>" lines into MS by row name. 0 when no python3 has MODULE. */
static int other_side(const char *module, const char *script, int runs, const row *rows,
                      size_t nrows, double *ms)
{
    const char *pythons[] = {"python3", "/usr/bin/python3"};
    for (size_t p = 0; p < sizeof pythons / sizeof *pythons; p++) {
        char cmd[256];
        snprintf(cmd, sizeof cmd, "%s -c 'import %s' >/dev/null 2>&1", pythons[p], module);
        if (system(cmd) != 0)
            continue;
        snprintf(cmd, sizeof cmd, "%s %s %d", pythons[p], script, runs);
        FILE *f = popen(cmd, "r");
        char name[64];
        double t;
        while (f && fscanf(f, "%63s %lf", name, &t) == 2)
            for (size_t r = 0; r < nrows; r++)
                if (strcmp(name, rows[r].name) == 0)
                    ms[r] = t;
        if (f)
            pclose(f);
        return 1;
    }
    return 0;
}

int main(void)
{
    const char *env = getenv("BENCH_RUNS");
    int runs = env ? atoi(env) : 5;
    if (runs < 1 || runs > 100)
        runs = 5;
    const row rows[] = {
        {"linear", CB_NET_LINEAR, N, -1, -1, -1, -1, ""},
        {"ring", CB_NET_RING, N, 4, -1, -1, -1, "k=4"},
        {"regular", CB_NET_REGULAR, N, 3, -1, -1, -1, "k=3"},
        {"complete", CB_NET_COMPLETE, 2000, -1, -1, -1, -1, ""},
        {"random", CB_NET_RANDOM, N, -1, -1, 3 * N / 2, -1, "G(n,m) m=1.5n"},
        {"random-p", CB_NET_RANDOM, N, -1, -1, -1, 3.0 / (N - 1), "G(n,p) p=3/(n-1)"},
        {"anchored", CB_NET_ANCHORED, N, -1, -1, 3 * N / 2, -1, "links=1.5n"},
        {"small-world", CB_NET_SMALL_WORLD, N, 4, -1, -1, 0.1, "k=4 p=0.1"},
        {"scale-free", CB_NET_SCALE_FREE, N, -1, 2, -1, -1, "m=2"},
    };
    size_t nrows = sizeof rows / sizeof *rows;
    double ours[16], theirs[16], ig[16];
    for (size_t r = 0; r < nrows; r++) {
        double t[100];
        for (int i = 0; i < runs; i++) {
            cb_net_spec s;
            cb_net_spec_defaults(&s);
            s.model = rows[r].model;
            s.n = rows[r].n;
            s.k = rows[r].k;
            s.p = rows[r].p;
            s.m = rows[r].m;
            s.links = rows[r].links;
            char seed[16];
            snprintf(seed, sizeof seed, "bench%d", i);
            s.seed = seed;
            cb_network *net;
            cb_error err;
            double t0 = now_ms();
            if (cb_network_build(&s, &net, &err) != CB_OK) {
                fprintf(stderr, "bench_network: %s: %s\n", rows[r].name, err.message);
                return 1;
            }
            t[i] = now_ms() - t0;
            cb_network_free(net);
        }
        qsort(t, (size_t)runs, sizeof *t, cmp_double);
        ours[r] = t[runs / 2];
        theirs[r] = ig[r] = -1;
    }
    int have_nx = other_side("networkx", "tests/bench/bench_networkx.py", runs, rows, nrows,
                             theirs);
    int have_ig = other_side("igraph", "tests/bench/bench_igraph.py", runs, rows, nrows, ig);
    printf("network models, median CPU time of %d runs (n = %d; complete n = 2000)%s%s\n", runs,
           N, have_nx ? "" : "; NetworkX not installed: no comparison",
           have_ig ? "" : "; igraph not installed: no comparison");
    printf("| model | parameters | cutboard ms | NetworkX ms | vs NetworkX | igraph ms | "
           "vs igraph |\n");
    printf("| --- | --- | ---: | ---: | ---: | ---: | ---: |\n");
    for (size_t r = 0; r < nrows; r++) {
        double us = ours[r] > 0.001 ? ours[r] : 0.001;
        printf("| %s | %s | %.2f |", rows[r].name, rows[r].params, ours[r]);
        if (theirs[r] >= 0)
            printf(" %.1f | %.0fx |", theirs[r], theirs[r] / us);
        else
            printf(" - | - |");
        if (ig[r] >= 0)
            printf(" %.1f | %.1fx |\n", ig[r], ig[r] / us);
        else
            printf(" - | - |\n");
    }
    return 0;
}
