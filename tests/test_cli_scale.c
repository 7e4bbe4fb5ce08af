/* End-to-end: sizes cutboard cannot make fair are refused before any work,
 * with one line naming the option, exit 64 and no output file; posters far
 * past the small-board generator (the lattice, src/board/lattice.c) are made,
 * printed and pass `cutboard check`, and a poster's page holds every edge. */
#include "test.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "cli_support.h"
#include "cutboard.h"

static void refused(const char *args, const char *names, const char *out)
{
    int rc = cutboard(args);
    assert_int_equal(rc, 64);
    assert_one_error_line();
    assert_contains(err_text, names);
    assert_false(exists(out));
    assert_int_equal(count_prefixed(out), 0); /* no temporary left either */
}

static void test_impossible_sizes_refused(void **state)
{
    (void)state;
    /* Nodes closer than the 1.5 mm gap between their disks allows. */
    refused("--paper a0 --resolution 400 -o big.pdf", "--resolution", "big.pdf");
    refused("--paper a0 --resolution 400 -o big.pdf", "1.5 mm", "big.pdf");
    refused("--paper 5000x5000mm --resolution 2000 -o big.pdf", "--resolution", "big.pdf");
    refused("--paper a0 --resolution 5000 -o big.pdf", "--resolution", "big.pdf");
    /* Past PDF's 14,400 pt page. */
    refused("--paper 6000x3000mm -o big.pdf", "--paper", "big.pdf");
    /* Lattice boards have nodes of 4 edges. */
    refused("--paper a0 --resolution 150 --node-cap 3 -o big.pdf", "--node-cap", "big.pdf");
}

/* The largest paper the generator takes, 5,080 mm (PDF's 14,400 pt), is
 * printed too: the PDF writer once compared it in millimetres and refused
 * what the generator had made. */
static void test_largest_paper_printed(void **state)
{
    (void)state;
    assert_int_equal(cutboard("--paper 5080x3000mm --resolution 60 --margin 30 --shared "
                              "-o wide.pdf"), 0);
    assert_true(exists("wide.pdf"));
    if (have("pdfinfo")) {
        assert_int_equal(sh("pdfinfo wide.pdf | grep -q '^Page size: *14400 x'"), 0);
    }
}

/* A 10,000-node A0 poster through the CLI: PDF and board file, and the
 * board file passes the independent `cutboard check`. */
static void test_poster_made_and_checked(void **state)
{
    (void)state;
    assert_int_equal(cutboard("--paper a0 --resolution 120 --shared --fair-cuts --seed wall "
                              "-o poster.pdf --json poster.json"), 0);
    assert_true(exists("poster.pdf"));
    assert_int_equal(cutboard("check poster.json"), 0);
    assert_contains(out_text, "meets the contract");
}

/* The first NEEDLE (N bytes) in HAY's LEN bytes, or NULL. */
static const void *find(const void *hay, size_t len, const char *needle, size_t n)
{
    const char *h = hay;
    for (size_t i = 0; i + n <= len; i++)
        if (h[i] == needle[0] && memcmp(h + i, needle, n) == 0)
            return h + i;
    return NULL;
}

/* The longest stream of PDF that inflates, inflated (malloc'd, *LEN bytes),
 * and its deflated size in *PACKED; NULL when none does. */
static unsigned char *largest_stream(const char *pdf, size_t len, size_t *out_len, size_t *packed)
{
    unsigned char *best = NULL;
    *out_len = *packed = 0;
    for (const char *s = pdf; (s = find(s, len - (size_t)(s - pdf), "stream", 6)) != NULL;) {
        s += 6;
        s += *s == '\r';
        s += *s == '\n';
        const char *e = find(s, len - (size_t)(s - pdf), "endstream", 9);
        if (!e)
            break;
        size_t cap = 1 << 16, got = 0;
        unsigned char *out = malloc(cap);
        z_stream z = {0};
        int zr = out && inflateInit(&z) == Z_OK ? Z_OK : Z_MEM_ERROR;
        z.next_in = (Bytef *)(uintptr_t)s;
        z.avail_in = (uInt)(e - s);
        while (zr == Z_OK) {
            if (got == cap) {
                unsigned char *bigger = realloc(out, cap *= 2);
                if (!bigger)
                    break;
                out = bigger;
            }
            z.next_out = out + got;
            z.avail_out = (uInt)(cap - got);
            zr = inflate(&z, Z_NO_FLUSH);
            got = cap - z.avail_out;
        }
        inflateEnd(&z);
        if (zr == Z_STREAM_END && got > *out_len) {
            free(best);
            best = out;
            *out_len = got;
            *packed = (size_t)(e - s);
        } else {
            free(out);
        }
        s = e + 9;
    }
    return best;
}

/* A 100,000-node poster's page is deflated a piece at a time (content.c):
 * the stream must still inflate whole, with one line segment for every
 * edge of the board the library makes from the same seed. */
static void test_poster_page_whole(void **state)
{
    (void)state;
    assert_int_equal(cutboard("--paper a0 --margin 15 --resolution 378 --shared --seed whole "
                              "-o whole.pdf"), 0);
    size_t len = 0, text_len = 0, packed = 0;
    char path[PATH_MAX * 2];
    snprintf(path, sizeof path, "%s/whole.pdf", cli_rundir);
    char *pdf = slurp(path, &len);
    assert_non_null(pdf);
    unsigned char *text = largest_stream(pdf, len, &text_len, &packed);
    assert_non_null(text);
    assert_true(packed > (size_t)1 << 20); /* more than one 1 MB piece */
    size_t segments = 0;
    for (const unsigned char *t = text; (t = find(t, text_len - (size_t)(t - text), " l\n", 3));
         t += 3)
        segments++;
    cb_spec spec;
    cb_error err;
    cb_spec_defaults(&spec);
    spec.page_w = 1189;
    spec.page_h = 841;
    spec.margin = 15;
    spec.resolution = 378;
    spec.shared = 1;
    spec.seed = "whole";
    cb_game *g = NULL;
    assert_int_equal(cb_game_generate(&spec, &g, &err), CB_OK);
    assert_true(g->sheets[0]->n_edges > 100000);
    assert_int_equal(segments, g->sheets[0]->n_edges);
    cb_game_free(g);
    free(text);
    free(pdf);
}

static void test_limits_in_the_library(void **state)
{
    (void)state;
    cb_spec spec;
    cb_error err;
    cb_spec_defaults(&spec);
    spec.page_w = 1189; /* A0 landscape, default spacing: 1,586 nodes */
    spec.page_h = 841;
    assert_int_equal(cb_spec_check(&spec, &err), CB_OK);
    spec.resolution = 378; /* about 100,000 nodes, 3.07 mm apart */
    assert_int_equal(cb_spec_check(&spec, &err), CB_OK);
    spec.resolution = 400; /* 2.9 mm apart: the disks come within 1.5 mm */
    assert_int_equal(cb_spec_check(&spec, &err), CB_ERR_USAGE);
    assert_string_equal(err.field, "resolution");
    /* Refused before any work: generate fails at once with the same message. */
    cb_board *b = (cb_board *)&spec;
    assert_int_equal(cb_board_generate(&spec, "x", 1, &b, &err), CB_ERR_USAGE);
    assert_null(b);
    /* A million nodes need a 4 x 2.8 m banner. */
    spec.page_w = 4000;
    spec.page_h = 2830;
    spec.margin = 15;
    spec.resolution = 1190.7;
    assert_int_equal(cb_spec_check(&spec, &err), CB_OK);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_impossible_sizes_refused, cli_setup, cli_teardown),
        cmocka_unit_test_setup_teardown(test_largest_paper_printed, cli_setup, cli_teardown),
        cmocka_unit_test_setup_teardown(test_poster_made_and_checked, cli_setup, cli_teardown),
        cmocka_unit_test_setup_teardown(test_poster_page_whole, cli_setup, cli_teardown),
        cmocka_unit_test(test_limits_in_the_library),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
