/* cutboard deck end to end: byte-identical output for any --jobs, --only
 * and slices against the full deck, the manifest against the PDF, one file
 * per game, interrupts and bad options. */
#include "cli_support.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The manifest's lines parsed; returns how many (at most MAX). */
static int manifest_lines(const char *name, cJSON **out, int max)
{
    size_t len;
    char *text = read_run_file(name, &len);
    int n = 0;
    for (char *line = strtok(text, "\n"); line && n < max; line = strtok(NULL, "\n")) {
        out[n] = cJSON_Parse(line);
        assert_non_null(out[n]);
        n++;
    }
    free(text);
    return n;
}

static void free_lines(cJSON **v, int n)
{
    for (int i = 0; i < n; i++)
        cJSON_Delete(v[i]);
}

static const char *str(cJSON *o, const char *key)
{
    cJSON *v = cJSON_GetObjectItem(o, key);
    assert_true(cJSON_IsString(v));
    return v->valuestring;
}

static int num(cJSON *o, const char *key)
{
    cJSON *v = cJSON_GetObjectItem(o, key);
    assert_true(cJSON_IsNumber(v));
    return v->valueint;
}

/* ---- determinism ---- */

/* The threads draw and compress the pages too: --jobs 1 to 8 give the
 * same bytes, for plain pages, print-shop pages, N-up sheets (drawn by the
 * assembling thread) and one file per game. */
static void test_jobs_identical_bytes(void **state)
{
    (void)state;
    const char *common = "deck --seed shop --count 12 --players 2 --manifest m.jsonl -o deck.pdf";
    char args[320];
    snprintf(args, sizeof args, "%s --jobs 1", common);
    assert_int_equal(cutboard(args), 0);
    assert_string_equal(err_text, ""); /* quiet: stderr is not a terminal */
    assert_int_equal(sh("mv deck.pdf j1.pdf && mv m.jsonl j1.jsonl"), 0);
    for (int jobs = 2; jobs <= 8; jobs++) {
        snprintf(args, sizeof args, "%s --jobs %d", common, jobs);
        assert_int_equal(cutboard(args), 0);
        assert_true(same_files("deck.pdf", "j1.pdf"));
        assert_true(same_files("m.jsonl", "j1.jsonl"));
    }
    static const char *const variants[] = {
        "--rules each --cmyk --bleed 3mm --crop-marks",
        "--ink-friendly --rules none",
        "--sheet sra3 --bleed 3mm --crop-marks --rules each",
    };
    for (size_t v = 0; v < sizeof variants / sizeof *variants; v++) {
        snprintf(args, sizeof args, "deck --seed var --count 5 --players 2 %s --jobs 1 -o v1.pdf",
                 variants[v]);
        assert_int_equal(cutboard(args), 0);
        snprintf(args, sizeof args, "deck --seed var --count 5 --players 2 %s --jobs 3 -o v3.pdf",
                 variants[v]);
        assert_int_equal(cutboard(args), 0);
        assert_true(same_files("v1.pdf", "v3.pdf"));
    }
    assert_int_equal(cutboard("deck --seed od --count 5 --players 2 --jobs 1 --out-dir od1"), 0);
    assert_int_equal(cutboard("deck --seed od --count 5 --players 2 --jobs 4 --out-dir od4"), 0);
    for (int k = 0; k < 5; k++) {
        char a[64], b[64];
        snprintf(a, sizeof a, "od1/game-%05d.pdf", k);
        snprintf(b, sizeof b, "od4/game-%05d.pdf", k);
        assert_true(same_files(a, b));
    }
    /* Another master seed, another deck. */
    assert_int_equal(cutboard("deck --seed other --count 12 --players 2 -o other.pdf"), 0);
    assert_false(same_files("other.pdf", "j1.pdf"));
}

/* The one-file deck is written as its pages come (its memory does not
 * grow with the deck): the file is a valid PDF with the font embedded and
 * every page's text, standard output gets the same bytes, and --rules
 * once, print-shop pages and N-up sheets stream too. */
static void test_streamed_file(void **state)
{
    (void)state;
    assert_int_equal(cutboard("deck --seed stream --count 3 --players 2 --jobs 2 -o s.pdf"), 0);
    assert_int_equal(cutboard("deck --seed stream --count 3 --players 2 -o -"), 0);
    size_t len, olen;
    char *file = read_run_file("s.pdf", &len), path[4200];
    snprintf(path, sizeof path, "%s/stdout", cli_base);
    char *piped = slurp(path, &olen);
    assert_int_equal(olen, len);
    assert_memory_equal(piped, file, len);
    assert_memory_equal(file + len - 6, "%%EOF\n", 6);
    free(file);
    free(piped);
    NEED("qpdf");
    NEED("pdffonts");
    NEED("pdftotext");
    assert_int_equal(sh("qpdf --check s.pdf"), 0);
    assert_contains(out_text, "No syntax or stream encoding errors");
    assert_int_equal(sh("pdffonts s.pdf"), 0);
    assert_contains(out_text, "CID TrueType      Identity-H       yes yes yes");
    for (int page = 1; page <= 6; page++) {
        char cmd[96], want[64];
        snprintf(cmd, sizeof cmd, "pdftotext -f %d -l %d s.pdf -", page, page);
        assert_int_equal(sh(cmd), 0);
        snprintf(want, sizeof want, "stream#%d/%d", (page - 1) / 2, (page - 1) % 2 + 1);
        assert_contains(out_text, want);
    }
    assert_int_equal(sh("pdfinfo s.pdf"), 0);
    assert_contains(out_text, "Pages:           7\n"); /* and the rules page */
    assert_int_equal(cutboard("deck --seed stream --count 3 --players 2 --cmyk --bleed 3mm "
                              "--crop-marks --sheet sra3 --rules each -o shop.pdf"), 0);
    assert_int_equal(sh("qpdf --check shop.pdf"), 0);
    assert_int_equal(sh("pdfinfo -box shop.pdf"), 0);
    assert_contains(out_text, "TrimBox:");
    assert_contains(out_text, "Pages:           6\n");
}

/* ---- manifest against the PDF ---- */

static void test_manifest_matches_pdf(void **state)
{
    (void)state;
    assert_int_equal(cutboard("deck --seed mf --start 5 --count 4 --players 3 --jobs 2 "
                              "--manifest mf.jsonl -o mf.pdf"), 0);
    cJSON *l[16];
    int n = manifest_lines("mf.jsonl", l, 16);
    assert_int_equal(n, 5); /* 4 games + the summary */
    int page = 1;
    for (int i = 0; i < 4; i++) {
        assert_int_equal(num(l[i], "index"), 5 + i);
        assert_string_equal(str(l[i], "file"), "mf.pdf");
        assert_int_equal(num(l[i], "first_page"), page);
        assert_int_equal(num(l[i], "pages"), 3);
        assert_int_equal(strlen(str(l[i], "hash")), 16);
        assert_in_range(num(l[i], "hop_spread"), 0, 1);
        assert_true(num(l[i], "attempts") >= 3);
        assert_true(num(l[i], "nodes") > 3 * 60);
        assert_true(num(l[i], "edges") > num(l[i], "nodes"));
        char want[64];
        snprintf(want, sizeof want, "mf#%d", 5 + i);
        /* the seed is "mf#k", or "mf#k~r" after rejected candidates */
        assert_int_equal(strncmp(str(l[i], "seed"), want, strlen(want)), 0);
        page += 3;
    }
    cJSON *sum = l[4];
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(sum, "summary")));
    assert_true(cJSON_IsFalse(cJSON_GetObjectItem(sum, "interrupted")));
    assert_int_equal(num(sum, "done"), 4);
    assert_int_equal(num(sum, "sheets"), 12);
    NEED("pdfinfo");
    pdfinfo("mf.pdf");
    assert_contains(out_text, "Pages:           13\n"); /* and the rules, once at the end */
    NEED("pdftotext");
    /* Each sheet's seed is printed on the page the manifest names. */
    for (int i = 0; i < 4; i++) {
        cJSON *sheets = cJSON_GetObjectItem(l[i], "sheets");
        for (int k = 0; k < 3; k++) {
            cJSON *s = cJSON_GetArrayItem(sheets, k);
            char cmd[128];
            int p = num(s, "page");
            assert_int_equal(p, num(l[i], "first_page") + k);
            snprintf(cmd, sizeof cmd, "pdftotext -f %d -l %d mf.pdf -", p, p);
            assert_int_equal(sh(cmd), 0);
            assert_contains(out_text, str(s, "seed"));
        }
    }
    free_lines(l, n);
}

/* ---- --only, slices, --out-dir ---- */

/* With N-up imposition several boards share a page: the manifest gives the
 * page each sheet landed on, and the last one is the PDF's last page. */
static void test_manifest_pages_nup(void **state)
{
    (void)state;
    NEED("pdfinfo");
    assert_int_equal(cutboard("deck --seed nup --count 3 --players 3 --board-size a5 "
                              "--sheet a3 --manifest nup.jsonl -o nup.pdf"),
                     0);
    pdfinfo("nup.pdf");
    /* 9 A5 boards, 2 to an A3 sheet (with the 6 mm gutter 2 x 2 does not fit),
     * then the rules on a sheet of their own */
    assert_contains(out_text, "Pages:           6\n");
    cJSON *l[4];
    assert_int_equal(manifest_lines("nup.jsonl", l, 4), 4);
    int expect[9] = {1, 1, 2, 2, 3, 3, 4, 4, 5};
    for (int g = 0; g < 3; g++) {
        cJSON *sheets = cJSON_GetObjectItem(l[g], "sheets");
        assert_int_equal(cJSON_GetArraySize(sheets), 3);
        assert_int_equal(num(l[g], "first_page"), expect[3 * g]);
        for (int k = 0; k < 3; k++)
            assert_int_equal(num(cJSON_GetArrayItem(sheets, k), "page"), expect[3 * g + k]);
    }
    free_lines(l, 4);
}

static void test_only_and_slices(void **state)
{
    (void)state;
    assert_int_equal(cutboard("deck --seed sl --count 6 --players 2 --manifest full.jsonl "
                              "-o full.pdf"), 0);
    assert_int_equal(cutboard("deck --seed sl --start 3 --count 3 --players 2 "
                              "--manifest part.jsonl -o part.pdf"), 0);
    assert_int_equal(cutboard("deck --seed sl --only 4 --players 2 --manifest one.jsonl "
                              "-o one.pdf"), 0);
    assert_int_equal(cutboard("deck --seed sl --count 6 --players 2 --jobs 2 --out-dir games"),
                     0);
    cJSON *full[8], *part[8], *one[4];
    assert_int_equal(manifest_lines("full.jsonl", full, 8), 7);
    assert_int_equal(manifest_lines("part.jsonl", part, 8), 4);
    assert_int_equal(manifest_lines("one.jsonl", one, 4), 2);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(num(part[i], "index"), 3 + i);
        assert_string_equal(str(part[i], "seed"), str(full[3 + i], "seed"));
        assert_string_equal(str(part[i], "hash"), str(full[3 + i], "hash"));
    }
    assert_int_equal(num(one[0], "index"), 4);
    assert_string_equal(str(one[0], "hash"), str(full[4], "hash"));
    int first = num(full[4], "first_page");
    assert_int_equal(first, 9);
    /* One file per game: game 4's file is the --only file, byte for byte. */
    for (int k = 0; k < 6; k++) {
        char name[64];
        snprintf(name, sizeof name, "games/game-%05d.pdf", k);
        assert_true(exists(name));
    }
    assert_true(same_files("games/game-00004.pdf", "one.pdf"));
    free_lines(full, 7);
    free_lines(part, 4);
    free_lines(one, 2);
    /* The pages of --only 4 look exactly like pages 9 and 10 of the deck. */
    NEED("pdftoppm");
    assert_int_equal(sh("pdftoppm -png -r 30 -f 9 -l 10 full.pdf deckpage && "
                        "pdftoppm -png -r 30 one.pdf onepage"), 0);
    assert_true(same_files("deckpage-09.png", "onepage-1.png"));
    assert_true(same_files("deckpage-10.png", "onepage-2.png"));
    assert_false(same_files("deckpage-09.png", "onepage-2.png"));
}

/* ---- interrupts ---- */

/* Starts cutboard ARGS in the run folder; returns its pid. */
static pid_t spawn(const char *args)
{
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "cd '%s' && exec %s %s 2>'%s/stderr'", cli_rundir, cli_binary,
             args, cli_base);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    return pid;
}

/* Waits until process PID runs at least N threads (the deck's generator
 * threads are up, so its signal handlers are installed). */
static void wait_threads(pid_t pid, int n)
{
    char dir[64];
    snprintf(dir, sizeof dir, "/proc/%d/task", (int)pid);
    for (int tries = 0; tries < 6000; tries++) {
        DIR *d = opendir(dir);
        int count = 0;
        if (d) {
            for (struct dirent *e; (e = readdir(d));)
                count += e->d_name[0] != '.';
            closedir(d);
        }
        if (count >= n)
            return;
        struct timespec ts = {0, 10000000};
        nanosleep(&ts, NULL);
    }
    fail_msg("the deck never started its threads");
}

static int stop_with(pid_t pid, int sig)
{
    struct timespec ts = {0, 300000000}; /* let a few games be made */
    nanosleep(&ts, NULL);
    assert_int_equal(kill(pid, sig), 0);
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    assert_true(WIFEXITED(status));
    return WEXITSTATUS(status);
}

static void check_interrupted_manifest(const char *name, int *done)
{
    cJSON *l[4096];
    int n = manifest_lines(name, l, 4096);
    assert_true(n >= 1);
    cJSON *sum = l[n - 1];
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(sum, "summary")));
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(sum, "interrupted")));
    assert_int_equal(num(sum, "done"), n - 1);
    assert_int_equal(num(sum, "count"), 100000);
    for (int i = 0; i < n - 1; i++)
        assert_int_equal(num(l[i], "index"), i);
    *done = n - 1;
    free_lines(l, n);
}

static void test_sigint_no_partial_pdf(void **state)
{
    (void)state;
    pid_t pid = spawn("deck --seed big --count 100000 --jobs 2 --manifest big.jsonl "
                      "-o big.pdf");
    wait_threads(pid, 3);
    assert_int_equal(stop_with(pid, SIGINT), 130);
    assert_false(exists("big.pdf"));
    assert_int_equal(count_prefixed("big.pdf"), 0); /* no temporary file either */
    int done;
    check_interrupted_manifest("big.jsonl", &done);
    size_t len;
    char *err = read_run_file("../stderr", &len);
    assert_non_null(strstr(err, "stopped by SIGINT"));
    free(err);
}

/* With --out-dir the games finished before SIGTERM are complete files, and
 * the manifest names exactly those. */
static void test_sigterm_out_dir(void **state)
{
    (void)state;
    pid_t pid = spawn("deck --seed big --count 100000 --jobs 1 --shared --manifest dir.jsonl "
                      "--out-dir many");
    wait_threads(pid, 2);
    assert_int_equal(stop_with(pid, SIGTERM), 143);
    int done;
    check_interrupted_manifest("dir.jsonl", &done);
    char dir[8192];
    snprintf(dir, sizeof dir, "%s/many", cli_rundir);
    DIR *d = opendir(dir);
    assert_non_null(d);
    int files = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.')
            continue;
        files++;
        assert_int_equal(strncmp(e->d_name, "game-", 5), 0);
        assert_non_null(strstr(e->d_name, ".pdf"));
        assert_null(strstr(e->d_name, ".pdf.")); /* no temporary file */
    }
    closedir(d);
    assert_int_equal(files, done);
    if (done > 0 && have("qpdf")) {
        assert_int_equal(sh("qpdf --check many/game-00000.pdf"), 0);
    }
}

/* ---- bad options ---- */

static void test_bad_options(void **state)
{
    (void)state;
    expect_failure("deck --count 3", 64, "-o FILE.pdf or --out-dir", NULL);
    expect_failure("deck --count 3 -o x.pdf --out-dir d", 64, "one of", "x.pdf");
    expect_failure("deck --only 3 --start 2 -o x.pdf", 64, "--only", "x.pdf");
    expect_failure("deck --count 0 -o x.pdf", 64, "--count", "x.pdf");
    expect_failure("deck --count 2 --jobs 0 -o x.pdf", 64, "--jobs", "x.pdf");
    expect_failure("deck --count 2 --jobs 65 -o x.pdf", 64, "--jobs", "x.pdf");
    expect_failure("deck --count 2 --type-tolerance -1 -o x.pdf", 64, "--type-tolerance",
                   "x.pdf");
    expect_failure("deck --count 2 --bogus -o x.pdf", 64, "--bogus", "x.pdf");
    expect_failure("deck --count 2 --players 12 -o x.pdf", 64, "--players", "x.pdf");
    /* No candidate can meet a tolerance of 0: exit 70, no files. */
    expect_failure("deck --count 2 --type-tolerance 0 --tries 2 --manifest t.jsonl -o x.pdf",
                   70, "no candidate passed", "x.pdf");
    assert_false(exists("t.jsonl"));
    expect_failure("deck --count 2 -o no/such/dir/x.pdf", 73, NULL, NULL);
    assert_int_equal(cutboard("deck --help"), 0);
    assert_contains(out_text, "--manifest");
    assert_contains(out_text, "--only");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_jobs_identical_bytes),
        cmocka_unit_test(test_streamed_file),
        cmocka_unit_test(test_manifest_matches_pdf),
        cmocka_unit_test(test_manifest_pages_nup),
        cmocka_unit_test(test_only_and_slices),
        cmocka_unit_test(test_sigint_no_partial_pdf),
        cmocka_unit_test(test_sigterm_out_dir),
        cmocka_unit_test(test_bad_options),
    };
    return cmocka_run_group_tests(tests, cli_setup, cli_teardown);
}
