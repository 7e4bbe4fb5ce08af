/* Print-shop PDF output speed: a 200-page document (50 games of 4 boards,
 * generated once) rendered through the streaming writer with each set of
 * page options; prints pages per second and bytes per page. Targets
 * (doc/manual.md, Performance): >= 500 pages/s on one core, <= 25 KB per page. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "cutboard.h"

#define GAMES 50
#define REPEAT 3

static double now(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(void)
{
    cb_error err;
    cb_theme *theme = NULL;
    if (cb_theme_load("icons/default", &theme, &err) != CB_OK) {
        fprintf(stderr, "bench_print: %s\n", err.message);
        return 1;
    }
    cb_spec spec;
    cb_spec_defaults(&spec);
    spec.theme = theme;
    cb_game *games[GAMES];
    size_t pages = 0;
    for (int g = 0; g < GAMES; g++) {
        char seed[32];
        snprintf(seed, sizeof seed, "bench %d", g);
        spec.seed = seed;
        if (cb_game_generate(&spec, &games[g], &err) != CB_OK) {
            fprintf(stderr, "bench_print: %s\n", err.message);
            return 1;
        }
        pages += games[g]->n_sheets;
    }
    static const struct {
        const char *name;
        double bleed;
        int marks, cmyk;
        double sheet_w, sheet_h;
    } runs[] = {
        {"plain (home printer)", 0, 0, 0, 0, 0},
        {"--bleed 3mm --crop-marks", 3, 1, 0, 0, 0},
        {"--bleed 3mm --crop-marks --cmyk", 3, 1, 1, 0, 0},
        {"--cmyk --sheet sra2 (4-up)", 3, 1, 1, 640, 450},
    };
    printf("%-36s %6s %10s %12s %11s\n", "PDF output, 200 A4 boards", "pages", "pages/s",
           "pages/cpu-s", "bytes/page");
    for (size_t r = 0; r < sizeof runs / sizeof *runs; r++) {
        cb_render_options o = {0};
        o.font_path = "fonts/DejaVuSans.ttf";
        o.bleed = runs[r].bleed;
        o.crop_marks = runs[r].marks;
        o.cmyk = runs[r].cmyk;
        o.sheet_w = runs[r].sheet_w;
        o.sheet_h = runs[r].sheet_h;
        o.gutter = -1;
        double best = 1e30, best_cpu = 1e30;
        size_t len = 0;
        for (int k = 0; k < REPEAT; k++) {
            double t0 = now(CLOCK_MONOTONIC), c0 = now(CLOCK_PROCESS_CPUTIME_ID);
            cb_pdf_writer *w = NULL;
            unsigned char *pdf = NULL;
            cb_status st = cb_pdf_begin(theme, &o, &w, &err);
            for (int g = 0; st == CB_OK && g < GAMES; g++)
                st = cb_pdf_add_game(w, games[g], &err);
            if (st == CB_OK)
                st = cb_pdf_end(w, &pdf, &len, &err);
            cb_pdf_writer_free(w);
            free(pdf);
            if (st != CB_OK) {
                fprintf(stderr, "bench_print: %s\n", err.message);
                return 1;
            }
            double t = now(CLOCK_MONOTONIC) - t0, c = now(CLOCK_PROCESS_CPUTIME_ID) - c0;
            if (t < best)
                best = t;
            if (c < best_cpu)
                best_cpu = c;
        }
        size_t out_pages = runs[r].sheet_w > 0 ? (pages + 3) / 4 : pages;
        printf("%-36s %6zu %10.0f %12.0f %11.0f\n", runs[r].name, out_pages,
               (double)pages / best, (double)pages / best_cpu, (double)len / (double)pages);
    }
    printf("(boards drawn per second of wall clock and of CPU time, one thread; bytes per\n"
           " board; best of %d)\n", REPEAT);
    for (int g = 0; g < GAMES; g++)
        cb_game_free(games[g]);
    cb_theme_free(theme);
    return 0;
}
