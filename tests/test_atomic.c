/* Tests for cb_file_write_atomic: the output appears whole or not at all,
 * replaces an old file by renaming (never by rewriting it), and failures
 * return the right status and leave neither temporary files nor a damaged
 * old file. */
#define _GNU_SOURCE /* renameat2, to cut a commit short by hand */
#include "test.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cutboard.h"
#include "io/commit_journal.h"

static char dir[64];

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/cutboard-atomic-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static void path_of(char *out, size_t len, const char *name)
{
    snprintf(out, len, "%s/%s", dir, name);
}

/* Entries in the scratch folder, except . and .. */
static int entries(void)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return n;
}

static void remove_all(void)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'/* '%s'/.[!.]*", dir, dir);
    assert_int_equal(system(cmd), 0);
    assert_int_equal(entries(), 0);
}

static void assert_file_is(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    char *buf = malloc(len + 16);
    assert_non_null(buf);
    size_t n = fread(buf, 1, len + 16, f);
    fclose(f);
    assert_int_equal(n, len);
    if (len)
        assert_memory_equal(buf, data, len);
    free(buf);
}

static void write_ok(const char *path, const void *data, size_t len)
{
    cb_error err = {CB_OK, "", 0, ""};
    if (cb_file_write_atomic(path, data, len, &err) != CB_OK)
        fail_msg("%s: %s", path, err.message);
}

static void test_writes_new_file(void **state)
{
    (void)state;
    remove_all();
    char path[128];
    path_of(path, sizeof path, "board.pdf");
    write_ok(path, "hello", 5);
    assert_file_is(path, "hello", 5);
    struct stat sb;
    assert_int_equal(stat(path, &sb), 0);
    assert_int_equal(sb.st_mode & 0777, 0644); /* not mkstemp's 0600 */
    assert_int_equal(entries(), 1);
    /* Empty and large contents. */
    path_of(path, sizeof path, "empty");
    write_ok(path, "", 0);
    assert_file_is(path, "", 0);
    size_t big = 3u << 20;
    unsigned char *data = malloc(big);
    assert_non_null(data);
    for (size_t i = 0; i < big; i++)
        data[i] = (unsigned char)(i * 2654435761u >> 13);
    path_of(path, sizeof path, "big");
    write_ok(path, data, big);
    assert_file_is(path, data, big);
    free(data);
    assert_int_equal(entries(), 3);
}

static void test_replaces_by_rename(void **state)
{
    (void)state;
    remove_all();
    char path[128];
    path_of(path, sizeof path, "game.pdf");
    write_ok(path, "the old, longer contents", 24);
    /* A reader holding the old file keeps seeing all of it. */
    int fd = open(path, O_RDONLY);
    assert_true(fd >= 0);
    struct stat before, after;
    assert_int_equal(fstat(fd, &before), 0);
    write_ok(path, "new", 3);
    assert_file_is(path, "new", 3); /* no tail of the old contents */
    assert_int_equal(stat(path, &after), 0);
    assert_true(before.st_ino != after.st_ino);
    char buf[32];
    ssize_t n = pread(fd, buf, sizeof buf, 0);
    close(fd);
    assert_int_equal(n, 24);
    assert_memory_equal(buf, "the old, longer contents", 24);
    assert_int_equal(entries(), 1);
}

static void test_directory_path(void **state)
{
    (void)state;
    remove_all();
    char path[128];
    path_of(path, sizeof path, "folder");
    assert_int_equal(mkdir(path, 0755), 0);
    cb_error err = {CB_OK, "", 0, ""};
    assert_int_equal(cb_file_write_atomic(path, "x", 1, &err), CB_ERR_CANTCREAT);
    assert_int_equal(err.status, CB_ERR_CANTCREAT);
    assert_non_null(strstr(err.message, path));
    struct stat sb;
    assert_int_equal(stat(path, &sb), 0);
    assert_true(S_ISDIR(sb.st_mode));
    assert_int_equal(entries(), 1);
    assert_int_equal(rmdir(path), 0); /* still empty */
}

static void test_missing_folder(void **state)
{
    (void)state;
    remove_all();
    char path[128];
    path_of(path, sizeof path, "nowhere/board.pdf");
    cb_error err = {CB_OK, "", 0, ""};
    assert_int_equal(cb_file_write_atomic(path, "x", 1, &err), CB_ERR_CANTCREAT);
    assert_non_null(strstr(err.message, path));
    assert_int_equal(entries(), 0);
}

static void test_dev_full(void **state)
{
    (void)state;
    struct stat sb;
    if (stat("/dev/full", &sb) != 0 || !S_ISCHR(sb.st_mode)) {
        print_message("/dev/full is missing: skipping\n");
        skip();
    }
    cb_error err = {CB_OK, "", 0, ""};
    assert_int_equal(cb_file_write_atomic("/dev/full", "data", 4, &err), CB_ERR_IO);
    assert_int_equal(err.status, CB_ERR_IO);
    assert_non_null(strstr(err.message, "/dev/full"));
    assert_int_equal(stat("/dev/full", &sb), 0);
    assert_true(S_ISCHR(sb.st_mode)); /* still the device */
}

/* A write that fails half way (the file size limit stands in for a full
 * disk) leaves the old file whole and no temporary file behind. */
static void test_failed_write_keeps_old_file(void **state)
{
    (void)state;
    remove_all();
    char path[128];
    path_of(path, sizeof path, "keep.pdf");
    static const char precious[] = "yesterday's board";
    write_ok(path, precious, sizeof precious);
    size_t big = 1u << 20;
    char *data = calloc(1, big);
    assert_non_null(data);
    struct rlimit old, small;
    assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
    small = old;
    small.rlim_cur = 64 * 1024;
    void (*prev)(int) = signal(SIGXFSZ, SIG_IGN);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
    cb_error err = {CB_OK, "", 0, ""};
    cb_status st = cb_file_write_atomic(path, data, big, &err);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
    signal(SIGXFSZ, prev);
    free(data);
    assert_int_equal(st, CB_ERR_IO);
    assert_non_null(strstr(err.message, path));
    assert_file_is(path, precious, sizeof precious);
    assert_int_equal(entries(), 1);
}

/* The one hidden entry (".cutboard-...") in the scratch folder holding
 * DATA (LEN bytes), into OUT; 1 when found. */
static int hidden_holding(const char *data, size_t len, char *out, size_t out_len)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    int found = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (strncmp(e->d_name, ".cutboard-", 10) != 0)
            continue;
        char p[512], buf[64];
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        FILE *f = fopen(p, "rb");
        size_t n = f ? fread(buf, 1, sizeof buf, f) : 0;
        if (f)
            fclose(f);
        if (n == len && memcmp(buf, data, len) == 0) {
            snprintf(out, out_len, "%s", p);
            found = 1;
        }
    }
    closedir(d);
    return found;
}

/* Several files commit all or none: when the second cannot take its place
 * (its staged file is gone), the first, already swapped in, is put back,
 * and no hidden file is left; with nothing in the way all are replaced. */
static void test_commit_all_rolls_back(void **state)
{
    (void)state;
    remove_all();
    char a[128], b[128], c[128], gone[512];
    path_of(a, sizeof a, "game.pdf");
    path_of(b, sizeof b, "game.json");
    path_of(c, sizeof c, "new.obj"); /* no old file: removed on rollback */
    write_ok(a, "old pdf", 7);
    write_ok(b, "old json", 8);
    cb_staged_file *f[3];
    cb_error err = {CB_OK, "", 0, ""};
    assert_int_equal(cb_file_stage(c, "new obj", 7, &f[0], &err), CB_OK);
    assert_int_equal(cb_file_stage(a, "new pdf", 7, &f[1], &err), CB_OK);
    assert_int_equal(cb_file_stage(b, "new json", 8, &f[2], &err), CB_OK);
    for (int k = 0; k < 3; k++)
        assert_int_equal(cb_file_ready(f[k], &err), CB_OK);
    assert_true(hidden_holding("new json", 8, gone, sizeof gone));
    assert_int_equal(unlink(gone), 0); /* the third swap cannot happen */
    assert_int_equal(cb_file_commit_all(f, 3, &err), CB_ERR_IO);
    assert_non_null(strstr(err.message, "game.json"));
    assert_file_is(a, "old pdf", 7);
    assert_file_is(b, "old json", 8);
    assert_int_equal(access(c, F_OK), -1);
    assert_int_equal(entries(), 2); /* nothing hidden left */

    /* and with nothing in the way, all three */
    assert_int_equal(cb_file_stage(c, "new obj", 7, &f[0], &err), CB_OK);
    assert_int_equal(cb_file_stage(a, "new pdf", 7, &f[1], &err), CB_OK);
    assert_int_equal(cb_file_stage(b, "new json", 8, &f[2], &err), CB_OK);
    assert_int_equal(cb_file_commit_all(f, 3, &err), CB_OK);
    assert_file_is(a, "new pdf", 7);
    assert_file_is(b, "new json", 8);
    assert_file_is(c, "new obj", 7);
    assert_int_equal(entries(), 3);
}

/* In a child process: stages new contents over a, b and c (c has no old
 * file), writes the commit journal, makes the first SWAPS of the three
 * swaps, marks the journal done when DONE, and dies without cleaning up,
 * as a run killed at that point would. */
static void commit_then_die(int swaps, int done)
{
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid > 0) {
        int status;
        assert_int_equal(waitpid(pid, &status, 0), pid);
        assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
        return;
    }
    static const char *const names[] = {"a", "b", "c"};
    static const char *const news[] = {"new a", "new b", "new c"};
    char target[3][128], staged[3][512], backup[3][1600];
    cb_journal_entry en[3];
    cb_error err = {CB_OK, "", 0, ""};
    for (int k = 0; k < 3; k++) {
        cb_staged_file *f;
        struct stat sb;
        path_of(target[k], sizeof target[k], names[k]);
        if (cb_file_stage(target[k], news[k], 5, &f, &err) != CB_OK ||
            cb_file_ready(f, &err) != CB_OK || !hidden_holding(news[k], 5, staged[k], 512) ||
            stat(staged[k], &sb) != 0)
            _exit(1);
        snprintf(backup[k], sizeof backup[k], "%s~", staged[k]);
        en[k] = (cb_journal_entry){target[k], staged[k], backup[k], sb.st_dev, sb.st_ino};
        free(f); /* dropped as a kill would: no cb_file_discard, nothing removed */
    }
    cb_journal *j;
    if (cb_journal_begin(en, 3, &j, &err) != CB_OK)
        _exit(1);
    for (int k = 0; k < swaps; k++)
        if (renameat2(AT_FDCWD, staged[k], AT_FDCWD, target[k], k < 2 ? RENAME_EXCHANGE : 0))
            _exit(1);
    if (done && cb_journal_done(j) != 0)
        _exit(1);
    raise(SIGKILL); /* killed: nothing freed, nothing removed */
    _exit(1);
}

/* A commit killed half way is undone by the next run's cb_file_recover
 * (every target old again, the new one with no old file gone), or finished
 * once its journal says done; either way no hidden file is left. The
 * hidden files of a process still alive are not touched. */
static void test_recover_after_kill(void **state)
{
    (void)state;
    char a[128], b[128], c[128], mine[512];
    path_of(a, sizeof a, "a");
    path_of(b, sizeof b, "b");
    path_of(c, sizeof c, "c");
    cb_error err = {CB_OK, "", 0, ""};
    for (int swaps = 0; swaps <= 3; swaps++) {
        remove_all();
        write_ok(a, "old a", 5);
        write_ok(b, "old b", 5);
        commit_then_die(swaps, 0);
        assert_true(entries() > 2); /* the journal and the hidden files */
        assert_int_equal(cb_file_recover(dir, &err), CB_OK);
        assert_file_is(a, "old a", 5);
        assert_file_is(b, "old b", 5);
        assert_int_equal(access(c, F_OK), -1);
        assert_int_equal(entries(), 2);
    }
    remove_all();
    write_ok(a, "old a", 5);
    write_ok(b, "old b", 5);
    commit_then_die(3, 1);
    assert_int_equal(cb_file_recover(dir, &err), CB_OK);
    assert_file_is(a, "new a", 5);
    assert_file_is(b, "new b", 5);
    assert_file_is(c, "new c", 5);
    assert_int_equal(entries(), 3);

    /* ours, alive: kept */
    cb_staged_file *f;
    assert_int_equal(cb_file_stage(a, "live!", 5, &f, &err), CB_OK);
    assert_int_equal(cb_file_ready(f, &err), CB_OK);
    assert_true(hidden_holding("live!", 5, mine, sizeof mine));
    assert_int_equal(cb_file_recover(dir, &err), CB_OK);
    assert_int_equal(access(mine, F_OK), 0);
    cb_file_discard(f);
    assert_int_equal(entries(), 3);
}

/* A name of 255 bytes (NAME_MAX) is an output like any other: the stage's
 * hidden name does not lengthen it. */
static void test_longest_name(void **state)
{
    (void)state;
    remove_all();
    char name[256], path[512];
    memset(name, 'n', 255);
    name[255] = '\0';
    snprintf(path, sizeof path, "%s/%s", dir, name);
    write_ok(path, "first", 5);
    write_ok(path, "second", 6);
    assert_file_is(path, "second", 6);
    assert_int_equal(entries(), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_writes_new_file),
        cmocka_unit_test(test_replaces_by_rename),
        cmocka_unit_test(test_directory_path),
        cmocka_unit_test(test_missing_folder),
        cmocka_unit_test(test_dev_full),
        cmocka_unit_test(test_failed_write_keeps_old_file),
        cmocka_unit_test(test_commit_all_rolls_back),
        cmocka_unit_test(test_longest_name),
        cmocka_unit_test(test_recover_after_kill),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
