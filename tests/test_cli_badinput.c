/* The bad-input matrix end to end: the built binary on hostile icons, fonts,
 * themes, options and board files, and on output that cannot be written or
 * is interrupted by a signal. Every failure is one line on stderr naming
 * what is at fault, a distinct exit code, no output file, no temporary file
 * left behind, and an existing output file left exactly as it was. */
#include "cli_support.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cutboard.h"
#include "io/icons.h"

static const char precious[] = "the board we printed yesterday\n";

static void assert_untouched(const char *keep)
{
    size_t len;
    char *text = read_run_file(keep, &len);
    if (len != strlen(precious) || memcmp(text, precious, len) != 0)
        fail_msg("%s was replaced", keep);
    free(text);
    char prefix[256];
    snprintf(prefix, sizeof prefix, "%s.", keep);
    if (count_prefixed(prefix) != 0)
        fail_msg("a temporary %s* was left behind", prefix);
}

/* Runs ARGS (which write -o keep.pdf) over an existing keep.pdf: it must
 * fail with CODE naming WHAT, and keep.pdf must be as it was. */
static void expect_kept(const char *args, int code, const char *what)
{
    write_file("keep.pdf", precious);
    char full[2048];
    snprintf(full, sizeof full, "%s -o keep.pdf", args);
    int rc = cutboard(full);
    if (rc != code)
        fail_msg("cutboard %s: exit %d, expected %d (stderr: %s)", full, rc, code, err_text);
    assert_one_error_line();
    if (what)
        assert_contains(err_text, what);
    assert_untouched("keep.pdf");
}

/* A copy of the default theme in DIR with every icon replaced by FIXTURE. */
static void theme_with_icons(const char *dir, const char *fixture)
{
    copy_default_theme(dir);
    char cmd[PATH_MAX * 3];
    snprintf(cmd, sizeof cmd, "for f in '%s'/*.png; do cp '%s/tests/data/icons/%s' \"$f\"; done",
             dir, cli_repo, fixture);
    assert_int_equal(sh(cmd), 0);
}

/* ---- icons -------------------------------------------------------------- */

/* The fixtures are one picture stored as 8-bit grey, palette, 16-bit RGBA
 * and interlaced RGBA. A theme made of each prints, and the picture that
 * lands in the PDF is the same whichever way it was stored. */
static void test_png_flavours_render_alike(void **state)
{
    (void)state;
    static const char *const fixtures[] = {"gray8.png", "palette.png", "rgb16.png",
                                           "interlaced.png"};
    cb_icon ref_color = {0}, ref_mask = {0};
    for (int i = 0; i < 4; i++) {
        char dir[32], args[128];
        snprintf(dir, sizeof dir, "flavour%d", i);
        theme_with_icons(dir, fixtures[i]);
        snprintf(args, sizeof args, "--players 2 --seed png --theme %s -o %s.pdf", dir, dir);
        if (cutboard(args) != 0)
            fail_msg("%s: %s", fixtures[i], err_text);
        NEED("pdfimages");
        char cmd[256];
        snprintf(cmd, sizeof cmd, "pdfimages -f 1 -l 1 -png %s.pdf %s", dir, dir);
        assert_int_equal(sh(cmd), 0);
        /* The first image and its soft mask (the alpha channel). */
        char color_path[PATH_MAX * 2], mask_path[PATH_MAX * 2];
        snprintf(color_path, sizeof color_path, "%s/%s-000.png", cli_rundir, dir);
        snprintf(mask_path, sizeof mask_path, "%s/%s-001.png", cli_rundir, dir);
        cb_icon color, mask;
        cb_error err;
        if (cb_icon_load(color_path, &color, &err) != CB_OK ||
            cb_icon_load(mask_path, &mask, &err) != CB_OK)
            fail_msg("%s: %s", fixtures[i], err.message);
        /* 256-pixel files, printed at about 8 mm: embedded at 300 dpi */
        assert_true(color.w >= 80 && color.w < 256);
        assert_int_equal(mask.w, color.w);
        assert_int_equal(mask.h, color.h);
        if (i > 0)
            assert_int_equal(color.w, ref_color.w);
        /* Some pixels opaque, some clear: the alpha channel made it. */
        size_t opaque = 0, clear = 0, n = (size_t)mask.w * mask.h;
        for (size_t k = 0; k < n; k++) {
            opaque += mask.rgba[4 * k] == 255;
            clear += mask.rgba[4 * k] == 0;
        }
        assert_true(opaque > n / 50 && clear > n / 5);
        if (i == 0) {
            ref_color = color;
            ref_mask = mask;
            continue;
        }
        int worst = 0;
        for (size_t k = 0; k < 4 * n; k++) {
            int d = abs(color.rgba[k] - ref_color.rgba[k]);
            int m = abs(mask.rgba[k] - ref_mask.rgba[k]);
            /* Colour under a clear pixel is invisible: only compare where
             * the picture shows. */
            if (ref_mask.rgba[k - k % 4] > 0 && d > worst)
                worst = d;
            if (m > worst)
                worst = m;
        }
        if (worst > 1)
            fail_msg("%s prints differently from %s (by %d)", fixtures[i], fixtures[0], worst);
        cb_icon_free(&color);
        cb_icon_free(&mask);
    }
    cb_icon_free(&ref_color);
    cb_icon_free(&ref_mask);
}

static void test_broken_icons_named(void **state)
{
    (void)state;
    static const char *const fixtures[] = {"corrupt.png", "truncated.png", "notpng.png", NULL};
    for (int i = 0; fixtures[i]; i++) {
        copy_default_theme("broken");
        char cmd[PATH_MAX * 2];
        snprintf(cmd, sizeof cmd, "cp '%s/tests/data/icons/%s' broken/lantern.png", cli_repo,
                 fixtures[i]);
        assert_int_equal(sh(cmd), 0);
        expect_kept("--seed x --theme broken", 65, "lantern.png");
        assert_contains(err_text, "not a valid PNG");
    }
    /* An icon claiming 60000x60000 pixels, and a 17 MiB icon file: both
     * refused before any pixel is decoded. */
    copy_default_theme("huge");
    char cmd[PATH_MAX * 2];
    snprintf(cmd, sizeof cmd, "cp '%s/tests/fuzz/png/forged_huge.png' huge/lantern.png", cli_repo);
    assert_int_equal(sh(cmd), 0);
    expect_kept("--seed x --theme huge", 65, "lantern.png");
    assert_contains(err_text, "60000x60000");
    assert_int_equal(sh("truncate -s 17M huge/lantern.png"), 0);
    expect_kept("--seed x --theme huge", 65, "lantern.png");
    assert_contains(err_text, "larger than");
}

/* ---- fonts -------------------------------------------------------------- */

static void test_bad_fonts(void **state)
{
    (void)state;
    write_file("text.ttf", "not a font, just words\n");
    expect_kept("--seed x --font text.ttf", 65, "text.ttf"); /* libharu crashed on it */
    write_file("empty.ttf", "");
    expect_kept("--seed x --font empty.ttf", 65, "empty.ttf");
    char cmd[PATH_MAX * 2];
    snprintf(cmd, sizeof cmd, "head -c 100000 '%s/fonts/DejaVuSans.ttf' > cut.ttf", cli_repo);
    assert_int_equal(sh(cmd), 0);
    expect_kept("--seed x --font cut.ttf", 65, "cut.ttf");
    snprintf(cmd, sizeof cmd, "cp '%s/tests/data/icons/gray8.png' png.ttf", cli_repo);
    assert_int_equal(sh(cmd), 0);
    expect_kept("--seed x --font png.ttf", 65, "png.ttf");
    expect_kept("--seed x --font missing.ttf", 66, "missing.ttf");
    assert_int_equal(sh("mkdir -p fontdir"), 0);
    expect_kept("--seed x --font fontdir", 66, "fontdir");
    assert_int_equal(sh("truncate -s 17M big.ttf"), 0);
    expect_kept("--seed x --font big.ttf", 65, "big.ttf");
}

/* ---- themes ------------------------------------------------------------- */

/* A copy of the default theme whose theme.json has FROM replaced by TO. */
static void edited_theme(const char *from, const char *to)
{
    copy_default_theme("edited");
    char cmd[PATH_MAX * 2];
    snprintf(cmd, sizeof cmd,
             "python3 -c 'import sys; p=\"edited/theme.json\"; s=open(p).read(); "
             "assert sys.argv[1] in s; open(p,\"w\").write(s.replace(sys.argv[1], sys.argv[2], 1))' "
             "'%s' '%s'", from, to);
    if (sh(cmd) != 0)
        fail_msg("could not edit the theme: %s", err_text);
}

static void test_malformed_themes(void **state)
{
    (void)state;
    NEED("python3");
    static const struct { const char *from, *to, *what; int code; } cases[] = {
        {"\"probability\": 0.22", "\"probability\": \"0.22\"", "\"probability\"", 65},
        {"\"probability\": 0.22", "\"probability\": -0.22", "\"probability\"", 65},
        {"\"min\": 6, \"max\": 30", "\"min\": 30, \"max\": 6", "\"min\" is larger than \"max\"", 65},
        {"\"max_run\": 2", "\"max_run\": 2, \"maxrun\": 2", "unknown key \"maxrun\"", 65},
        {"\"name\": \"expedition\"", "\"name\": [1]", "\"name\"", 65},
        {"\"on_edge\": true", "\"on_edge\": \"yes\"", "\"on_edge\"", 65},
        {"\"color\": \"#f1447d\"", "\"color\": \"#f1447\"", "\"color\"", 65},
        {"\"icon\": \"blade.png\"", "\"icon\": \"sword.png\"", "sword.png", 66},
        {"\"icon\": \"blade.png\"", "\"icon\": \"../../blade.png\"", "inside the theme folder", 65},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        edited_theme(cases[i].from, cases[i].to);
        expect_kept("--seed x --theme edited", cases[i].code, cases[i].what);
        assert_contains(err_text, "edited/theme.json");
    }
    assert_int_equal(sh("truncate -s 2M edited/theme.json"), 0);
    expect_kept("--seed x --theme edited", 65, "larger than");
}

/* ---- impossible options -------------------------------------------------- */

static void test_impossible_options(void **state)
{
    (void)state;
    expect_kept("--players 0", 64, "--players");
    expect_kept("--shared --players 0", 64, "--players");
    /* Too few nodes across for 3 starts a side: the least that works. */
    expect_kept("--resolution 4", 64, "11 works");
    expect_kept("--resolution 9", 64, "11 works");
    /* A node radius too large for the margin: the least margin, rounded up. */
    expect_kept("--resolution 10", 64, "--margin: 12 mm puts edge nodes closer than 5 mm to the "
                                       "paper edge (at least 12.3 mm)");
    /* Nodes too close for scissors and dots, yet with dots. */
    expect_kept("--resolution 17", 64, "15 works, or 23 (no dots)");
    /* A margin that leaves no room: the most that does, rounded down. */
    expect_kept("--margin 50", 64, "44.2 mm works (at most)");
    /* A board too long for its width: the margin that works. */
    expect_kept("--paper legal --margin 40", 64, "25.7 mm works");
    expect_kept("--paper 400x200mm", 64, "(349x200mm)");
    /* Node cap 3 on a board too small for it. */
    expect_kept("--paper a5 --node-cap 3", 64, "4 works");
    /* More starts than the edge has room for. */
    expect_kept("--paper 110x90mm", 64, "too small for 3 starts a side");
    expect_kept("--paper 99999x99999mm", 64, "--paper");
    expect_kept("--paper 2000x2000mm --resolution 1999", 64, "--resolution");
    expect_kept("--resolution nan", 64, "--resolution");
    expect_kept("--margin -inf", 64, "--margin");
    expect_kept("--start-cap 99999999999999999999", 64, "--start-cap");
}

/* ---- hostile board files -------------------------------------------------- */

static void test_hostile_board_files(void **state)
{
    (void)state;
    assert_int_equal(cutboard("--seed hostile --players 2 -o h.pdf --json h.json"), 0);
    NEED("python3");
    static const struct { const char *edit, *what; } cases[] = {
        {"s['sheets'][0]['nodes'][3]['x_mm'] = float('nan')", "not valid JSON"},
        {"s['sheets'][0]['nodes'][3]['x_mm'] = float('inf')", "x_mm"},
        {"s['sheets'][0]['nodes'][3]['id'] = 10**12", "id"},
        {"s['sheets'][0]['edges'][0][1] = 2**32", "4294967296"},
        {"s['sheets'][0]['nodes'].insert(3, s['sheets'][0]['nodes'][3])", "id"},
        {"s['sheets'][0]['edges'].append(s['sheets'][0]['edges'][0])", "twice"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char cmd[1024];
        snprintf(cmd, sizeof cmd,
                 "python3 -c \"import json; s=json.load(open('h.json')); %s; "
                 "open('bad.json','w').write(json.dumps(s).replace('Infinity', '1e999'))\"", cases[i].edit);
        assert_int_equal(sh(cmd), 0);
        expect_kept("render bad.json", 65, "bad.json");
        assert_contains(err_text, cases[i].what);
    }
    assert_int_equal(sh("truncate -s 300M big.json"), 0);
    expect_kept("render big.json", 65, "too large");
    assert_int_equal(sh("rm -f big.json"), 0);
}

/* ---- output faults ---------------------------------------------------------- */

static void test_output_faults(void **state)
{
    (void)state;
    struct stat sb;
    if (stat("/dev/full", &sb) == 0) {
        expect_failure("--seed x -o /dev/full", 74, "/dev/full", NULL);
        assert_contains(err_text, "No space left");
        /* The PDF could be written, the board file could not: the existing
         * PDF stays as it was. */
        expect_kept("--seed x --json /dev/full", 74, "/dev/full");
    } else {
        print_message("/dev/full is missing: skipping the full-disk cases\n");
    }
    /* Folders root cannot write to either: a path through a regular file,
     * a folder that does not exist, a read-only file system (/proc). */
    write_file("file.txt", "a file, not a folder\n");
    expect_failure("--seed x -o file.txt/out.pdf", 73, "file.txt/out.pdf", NULL);
    expect_failure("--seed x -o nowhere/out.pdf", 73, "nowhere/out.pdf", NULL);
    expect_failure("--seed x -o /proc/cutboard-test.pdf", 73, "/proc/cutboard-test.pdf", NULL);
    expect_kept("--seed x --json file.txt/out.json", 73, "file.txt/out.json");
    expect_kept("--seed x --json /proc/cutboard-test.json", 73, "cutboard-test.json");
    /* The output is a folder: refused, nothing written inside it. */
    assert_int_equal(sh("mkdir -p out.pdf"), 0);
    expect_failure("--seed x -o out.pdf", 73, "is a directory", NULL);
    assert_int_equal(sh("ls -A out.pdf | wc -l"), 0);
    assert_string_equal(out_text, "0\n");
    expect_kept("--seed x --json out.pdf", 73, "is a directory");
}

/* Starts cutboard ARGS in the run folder with the test hook HOOK (an
 * environment variable, NULL: none) set to DELAY_MS and signals at their
 * defaults; returns its pid. */
static pid_t start_cutboard(const char *args, const char *hook, int delay_ms)
{
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "cd '%s' && exec %s %s 2>/dev/null", cli_rundir, cli_binary, args);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        if (hook) {
            char ms[16];
            snprintf(ms, sizeof ms, "%d", delay_ms);
            setenv(hook, ms, 1);
        }
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    return pid;
}

static void sleep_ms(int ms)
{
    struct timespec t = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

/* Staged files the process PID holds in the run folder: unnamed files
 * (O_TMPFILE, shown as "#inode (deleted)") or named "NAME.XXXXXX" ones. */
static int staged_files(pid_t pid)
{
    char dir[64];
    snprintf(dir, sizeof dir, "/proc/%d/fd", (int)pid);
    DIR *d = opendir(dir);
    int count = 0;
    for (struct dirent *e; d && (e = readdir(d));) {
        char link[PATH_MAX + 64], target[PATH_MAX];
        snprintf(link, sizeof link, "%s/%s", dir, e->d_name);
        ssize_t n = readlink(link, target, sizeof target - 1);
        if (n <= 0)
            continue;
        target[n] = '\0';
        count += strncmp(target, cli_rundir, strlen(cli_rundir)) == 0 &&
                 strstr(target, " (deleted)") != NULL;
    }
    if (d)
        closedir(d);
    return count + count_prefixed("keep.pdf.") + count_prefixed("keep.json.");
}

/* A signal while the new files are staged (written and flushed, not yet
 * in place): the run dies of the signal, nothing staged is left, and the
 * existing outputs are as they were. */
static void interrupt_while_staged(int sig)
{
    write_file("keep.pdf", precious);
    write_file("keep.json", precious);
    pid_t pid = start_cutboard("--seed sig -o keep.pdf --json keep.json",
                               "CUTBOARD_TEST_STAGE_DELAY_MS", 10000);
    int staged = 0;
    for (int waited = 0; waited < 120000 && !staged; waited += 20) {
        staged = staged_files(pid) >= 2;
        if (!staged)
            sleep_ms(20);
    }
    if (!staged) {
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
        fail_msg("the staged files never appeared");
    }
    assert_int_equal(kill(pid, sig), 0);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    if (!WIFSIGNALED(status) || WTERMSIG(status) != sig)
        fail_msg("cutboard did not die of signal %d (status 0x%x)", sig, status);
    assert_untouched("keep.pdf");
    assert_untouched("keep.json");
    assert_int_equal(count_prefixed("keep.pdf."), 0);
    assert_int_equal(count_prefixed("keep.json."), 0);
}

static void test_sigint_while_staged(void **state)
{
    (void)state;
    interrupt_while_staged(SIGINT);
}

static void test_sigterm_while_staged(void **state)
{
    (void)state;
    interrupt_while_staged(SIGTERM);
}

/* A signal before the files are staged (the run held just before it
 * generates the boards): the process dies of it and nothing is written. */
static void test_sigterm_while_generating(void **state)
{
    (void)state;
    write_file("keep.pdf", precious);
    char mark[PATH_MAX];
    snprintf(mark, sizeof mark, "%s/held.mark", cli_rundir);
    unlink(mark);
    setenv("CUTBOARD_TEST_HOLD_MARK", mark, 1);
    pid_t pid = start_cutboard("--seed long --players 9 -o keep.pdf",
                               "CUTBOARD_TEST_GENERATE_HOLD_MS", 10000);
    unsetenv("CUTBOARD_TEST_HOLD_MARK");
    /* Wait until cutboard holds (it then holds for 10 s): it says so with
     * the mark, since under valgrind the process is not cutboard's own
     * until valgrind has started, which can take seconds. */
    for (int waited = 0; waited < 20000 && access(mark, F_OK) != 0; waited += 10)
        sleep_ms(10);
    kill(pid, SIGTERM);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    int held = access(mark, F_OK) == 0;
    unlink(mark);
    assert_true(held);
    if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGTERM)
        fail_msg("cutboard did not die of SIGTERM (status 0x%x)", status);
    assert_untouched("keep.pdf");
}

/* Inputs that are no regular file (a FIFO with no writer, a folder, a
 * device) are refused at once with exit 66, never waited on. */
static void test_odd_input_files_refused(void **state)
{
    (void)state;
    assert_int_equal(sh("rm -rf fifo.ttf fifo.json dir.json odd && mkfifo fifo.ttf fifo.json && "
                        "mkdir dir.json"), 0);
    copy_default_theme("odd");
    assert_int_equal(sh("rm odd/theme.json && mkfifo odd/theme.json"), 0);
    static const char *const args[] = {
        "--seed x --font fifo.ttf -o keep.pdf", "--seed x --font /dev/zero -o keep.pdf",
        "--seed x --theme odd -o keep.pdf",     "render fifo.json -o keep.pdf",
        "render dir.json -o keep.pdf",          "check fifo.json",
        "check /dev/zero"};
    for (size_t i = 0; i < sizeof args / sizeof *args; i++) {
        write_file("keep.pdf", precious);
        char cmd[1024];
        snprintf(cmd, sizeof cmd, "timeout 20 %s %s", cli_binary, args[i]);
        int rc = sh(cmd);
        if (rc != 66)
            fail_msg("cutboard %s: exit %d, expected 66 (124: it hung); stderr: %s", args[i], rc,
                     err_text);
        assert_contains(err_text, "not a regular file");
        assert_untouched("keep.pdf");
    }
}

/* Two outputs that name one file (spelled alike or not) are refused
 * before any work, and nothing is written. */
static void test_one_file_named_twice(void **state)
{
    (void)state;
    static const char *const args[] = {
        "--seed x -o same.out --json same.out", "--seed x -o same.out --json ./same.out",
        "--seed x -o same.out --obj same.out", "deck --count 2 -o same.out --manifest same.out",
        "network --model ring --nodes 10 -o same.out --csv same.out"};
    for (size_t i = 0; i < sizeof args / sizeof *args; i++) {
        int rc = cutboard(args[i]);
        if (rc != 64)
            fail_msg("cutboard %s: exit %d, expected 64", args[i], rc);
        assert_contains(err_text, "both name");
        assert_false(exists("same.out"));
    }
    assert_int_equal(cutboard("--seed x -o one.pdf --json one.json"), 0);
}

/* SIGKILL while staged, which no handler sees: still the outputs are as
 * they were and no staged file is left behind (the staged files are
 * unnamed until they are renamed into place). */
static void test_sigkill_while_staged_leaves_nothing(void **state)
{
    (void)state;
    interrupt_while_staged(SIGKILL);
}

/* New output files get 0666 less the umask, as every Unix tool's do. */
static void test_output_mode_follows_umask(void **state)
{
    (void)state;
    static const struct {
        const char *mask;
        mode_t mode;
    } cases[] = {{"022", 0644}, {"027", 0640}, {"002", 0664}, {"077", 0600}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char cmd[512];
        snprintf(cmd, sizeof cmd, "rm -f m.pdf m.json && umask %s && %s --seed m -o m.pdf "
                 "--json m.json", cases[i].mask, cli_binary);
        assert_int_equal(sh(cmd), 0);
        const char *files[] = {"m.pdf", "m.json"};
        for (int k = 0; k < 2; k++) {
            char path[PATH_MAX];
            snprintf(path, sizeof path, "%s/%s", cli_rundir, files[k]);
            struct stat sb;
            assert_int_equal(stat(path, &sb), 0);
            if ((sb.st_mode & 0777) != cases[i].mode)
                fail_msg("umask %s: %s has mode %03o, not %03o", cases[i].mask, files[k],
                         (unsigned)(sb.st_mode & 0777), (unsigned)cases[i].mode);
        }
    }
}

/* With the hook and no signal, the run completes and replaces the file. */
static void test_stage_delay_without_signal(void **state)
{
    (void)state;
    write_file("keep.pdf", precious);
    pid_t pid = start_cutboard("--seed calm -o keep.pdf", "CUTBOARD_TEST_STAGE_DELAY_MS", 200);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    size_t len;
    char *pdf = read_run_file("keep.pdf", &len);
    assert_memory_equal(pdf, "%PDF-", 5);
    free(pdf);
    assert_int_equal(count_prefixed("keep.pdf."), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_png_flavours_render_alike),
        cmocka_unit_test(test_broken_icons_named),
        cmocka_unit_test(test_bad_fonts),
        cmocka_unit_test(test_malformed_themes),
        cmocka_unit_test(test_impossible_options),
        cmocka_unit_test(test_hostile_board_files),
        cmocka_unit_test(test_output_faults),
        cmocka_unit_test(test_sigint_while_staged),
        cmocka_unit_test(test_sigterm_while_staged),
        cmocka_unit_test(test_sigterm_while_generating),
        cmocka_unit_test(test_sigkill_while_staged_leaves_nothing),
        cmocka_unit_test(test_odd_input_files_refused),
        cmocka_unit_test(test_one_file_named_twice),
        cmocka_unit_test(test_output_mode_follows_umask),
        cmocka_unit_test(test_stage_delay_without_signal),
    };
    return cmocka_run_group_tests(tests, cli_setup, cli_teardown);
}
