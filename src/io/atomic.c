/* Output files appear whole or not at all, and several files of one run
 * all together or not at all. Staging writes the bytes to an unnamed file
 * in the target's folder (Linux's O_TMPFILE) and flushes them to disk, so a
 * run killed at any moment while staging (even by SIGKILL) leaves nothing.
 * Readying gives each staged file a short hidden name in its folder
 * (cb_hidden_name: it adds nothing to the target's name, so any name the
 * file system accepts can be an output). One file is committed by a plain
 * rename. Several are committed under a journal (commit_journal.c), each
 * swapped into place with renameat2(RENAME_EXCHANGE), which leaves the old
 * file under the hidden name as a backup; if any swap fails, the ones done
 * are swapped back, so the targets are all old or all new; the backups go
 * only once every swap is done and the journal says so. A run killed
 * between two swaps is undone (or finished) by the next one, which calls
 * cb_file_recover on its folders first. Where the folder's file system has
 * no O_TMPFILE, the stage is a hidden named file from the start; where it
 * cannot exchange, the backup is a hard link made before the rename. New
 * files get mode 0666 less the umask, as every Unix tool's do. */
#define _GNU_SOURCE /* O_TMPFILE */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "base/error.h"
#include "io/commit_journal.h"

struct cb_staged_file {
    char *path;
    int fd;         /* an unnamed staged file, still open; -1 when none */
    char *tmp;      /* the staged file's hidden name once it has one, or NULL */
    char *old;      /* after a swap: the hidden name the old target now has */
    char *backup;   /* where no exchange is possible: the old target's hard link */
    int fresh;      /* after a swap: there was no old target */
    int wfd;        /* where the bytes go until cb_file_stage_end; -1 after */
    int device;     /* the target is a device: written to in place */
};

void cb_file_discard(cb_staged_file *f)
{
    if (!f)
        return;
    if (f->wfd >= 0 && f->wfd != f->fd)
        close(f->wfd);
    if (f->fd >= 0)
        close(f->fd); /* an unnamed file vanishes with its last descriptor */
    if (f->tmp)
        unlink(f->tmp);
    free(f->tmp);
    free(f->old);
    free(f->backup);
    free(f->path);
    free(f);
}

static int write_all(int fd, const char *p, size_t left)
{
    while (left > 0) {
        ssize_t n = write(fd, p, left); /* EINTR stops it, as in pdfout.c */
        if (n <= 0)
            return errno ? errno : EIO;
        p += n;
        left -= (size_t)n;
    }
    return 0;
}

/* The process's umask, read without changing it (umask(2) can only be
 * read by setting it, which would race with other threads); 022 if
 * /proc is not there. */
static mode_t current_umask(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[128];
    unsigned mask = 022;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "Umask: %o", &mask) == 1)
            break;
    if (f)
        fclose(f);
    return (mode_t)mask & 0777;
}

/* The folder PATH is in, in BUF. */
static const char *folder_of(const char *path, char *buf, size_t len)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return ".";
    size_t n = slash == path ? 1 : (size_t)(slash - path);
    if (n >= len)
        return NULL;
    memcpy(buf, path, n);
    buf[n] = '\0';
    return buf;
}

/* A hidden file beside PATH, created empty with mode 0600: the stage where
 * the folder has no O_TMPFILE. Its name in *TMP. */
static int named_temp(const char *path, char **tmp)
{
    for (int tries = 0; tries < 16; tries++) {
        if (!(*tmp = cb_hidden_name(path, ""))) {
            errno = ENOMEM;
            return -1;
        }
        int fd = open(*tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
        int e = errno;
        if (fd >= 0)
            return fd;
        free(*tmp);
        *tmp = NULL;
        errno = e;
        if (e != EEXIST)
            return -1;
    }
    return -1;
}

cb_status cb_file_stage_open(const char *path, cb_staged_file **out, cb_error *err)
{
    *out = NULL;
    struct stat sb;
    int exists = stat(path, &sb) == 0;
    if (exists && S_ISDIR(sb.st_mode))
        return cb_fail(err, CB_ERR_CANTCREAT, "%s: is a directory", path);
    cb_staged_file *f = calloc(1, sizeof *f);
    if (!f || !(f->path = strdup(path))) {
        free(f);
        return cb_fail(err, CB_ERR_NOMEM, "out of memory");
    }
    f->fd = f->wfd = -1;
    int device = exists && !S_ISREG(sb.st_mode);
    int fd = -1;
    char dir[4096];
    const char *folder = device ? NULL : folder_of(path, dir, sizeof dir);
    if (device) {
        fd = open(path, O_WRONLY | O_CLOEXEC);
    } else if (folder && access("/proc/self/fd", X_OK) == 0 && /* to link it at commit */
               (fd = open(folder, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666)) >= 0) {
        f->fd = fd; /* the kernel applied the umask to 0666 */
    } else if ((fd = named_temp(path, &f->tmp)) < 0 && errno == ENOMEM) {
        cb_file_discard(f);
        return cb_fail(err, CB_ERR_NOMEM, "out of memory");
    }
    if (fd < 0) {
        cb_status st = cb_fail(err, CB_ERR_CANTCREAT, "%s: cannot create: %s", path,
                               strerror(errno));
        cb_file_discard(f);
        return st;
    }
    f->wfd = fd;
    f->device = device;
    *out = f;
    return CB_OK;
}

int cb_file_fd(const cb_staged_file *f)
{
    return f->wfd;
}

int cb_file_append(cb_staged_file *f, const void *data, size_t len)
{
    return write_all(f->wfd, data, len);
}

cb_status cb_file_stage_end(cb_staged_file *f, int failed, cb_error *err)
{
    int fd = f->wfd;
    if (!failed && !f->device && fsync(fd) != 0)
        failed = errno;
    if (!failed && f->tmp && fchmod(fd, 0666 & ~current_umask()) != 0)
        failed = errno;
    f->wfd = -1;
    if (f->fd < 0 && close(fd) != 0 && !failed)
        failed = errno;
    if (failed)
        return cb_fail(err, CB_ERR_IO, "%s: write failed: %s", f->path, strerror(failed));
    return CB_OK;
}

cb_status cb_file_stage(const char *path, const void *data, size_t len,
                        cb_staged_file **out, cb_error *err)
{
    cb_staged_file *f;
    *out = NULL;
    cb_status st = cb_file_stage_open(path, &f, err);
    if (st != CB_OK)
        return st;
    st = cb_file_stage_end(f, write_all(f->wfd, data, len), err);
    if (st != CB_OK) {
        cb_file_discard(f);
        return st;
    }
    *out = f;
    return CB_OK;
}

/* The staged file's descriptor and the first write error, for the write
 * function a producer is given. */
typedef struct {
    int fd;
    int failed;
} stage_sink;

static int sink_write(void *ctx, const void *data, size_t len)
{
    stage_sink *s = ctx;
    if (!s->failed)
        s->failed = write_all(s->fd, data, len);
    return s->failed;
}

cb_status cb_file_stage_stream(const char *path, cb_produce_fn produce, void *arg,
                               cb_staged_file **out, cb_error *err)
{
    cb_staged_file *f;
    *out = NULL;
    cb_status st = cb_file_stage_open(path, &f, err);
    if (st != CB_OK)
        return st;
    stage_sink sink = {f->wfd, 0};
    st = produce(arg, sink_write, &sink, err);
    /* A write that failed is the file's error, named by its path. */
    if (st == CB_OK || sink.failed)
        st = cb_file_stage_end(f, sink.failed, err);
    if (st != CB_OK) {
        cb_file_discard(f);
        return st;
    }
    *out = f;
    return CB_OK;
}

/* Gives the unnamed file F->fd a fresh hidden name, F->tmp, ready for the
 * swap; 0 or an errno value. Nothing is created but the link itself, so a
 * failure leaves nothing behind. */
static int link_unnamed(cb_staged_file *f)
{
    char proc[64];
    snprintf(proc, sizeof proc, "/proc/self/fd/%d", f->fd);
    for (int tries = 0; tries < 16; tries++) {
        if (!(f->tmp = cb_hidden_name(f->path, "")))
            return ENOMEM;
        if (linkat(AT_FDCWD, proc, AT_FDCWD, f->tmp, AT_SYMLINK_FOLLOW) == 0)
            return 0;
        int e = errno;
        free(f->tmp);
        f->tmp = NULL;
        if (e != EEXIST)
            return e;
    }
    return EEXIST;
}

cb_status cb_file_ready(cb_staged_file *f, cb_error *err)
{
    if (f->fd < 0)
        return CB_OK;
    int e = link_unnamed(f);
    /* Closed before the rename: a file system that reports an error only
     * on close then leaves the target as it was. */
    if (close(f->fd) != 0 && e == 0)
        e = errno;
    f->fd = -1;
    if (e == ENOMEM) /* the temporary name could not be made */
        return cb_fail(err, CB_ERR_NOMEM, "%s: out of memory", f->path);
    return e ? cb_fail(err, CB_ERR_IO, "%s: cannot replace: %s", f->path, strerror(e)) : CB_OK;
}

/* Puts F's staged file in place of its target, keeping the old target (if
 * any) under a hidden name in F->old; 0 or an errno value, with nothing
 * changed on failure. */
static int swap_in(cb_staged_file *f)
{
    if (!f->tmp)
        return 0; /* a device, written in place */
    if (renameat2(AT_FDCWD, f->tmp, AT_FDCWD, f->path, RENAME_EXCHANGE) == 0) {
        f->old = f->tmp; /* the exchange left the old target there */
        f->tmp = NULL;
        return 0;
    }
    int e = errno;
    if (e == ENOENT) { /* no target yet: nothing to keep */
        if (renameat2(AT_FDCWD, f->tmp, AT_FDCWD, f->path, RENAME_NOREPLACE) != 0)
            return errno;
        free(f->tmp);
        f->tmp = NULL;
        f->fresh = 1;
        return 0;
    }
    if (e != EINVAL && e != ENOSYS && e != EOPNOTSUPP)
        return e;
    /* No exchange here: a hard link at the name the journal gave keeps the
     * old target, then a rename. */
    if (link(f->path, f->backup) == 0) {
        f->old = f->backup;
        f->backup = NULL;
    } else if (errno == ENOENT) {
        f->fresh = 1;
    } else {
        return errno;
    }
    if (rename(f->tmp, f->path) != 0) {
        e = errno;
        if (f->old && unlink(f->old) == 0) {
            free(f->old);
            f->old = NULL;
        }
        f->fresh = 0;
        return e;
    }
    free(f->tmp);
    f->tmp = NULL;
    return 0;
}

/* Undoes swap_in: the old target back in place, or the new file gone when
 * there was none. 0 or an errno value. */
static int swap_back(cb_staged_file *f)
{
    if (f->old) {
        if (rename(f->old, f->path) != 0)
            return errno;
        free(f->old);
        f->old = NULL;
    } else if (f->fresh) {
        if (unlink(f->path) != 0)
            return errno;
        f->fresh = 0;
    }
    return 0;
}

/* Drops the backup swap_in kept; tried twice, as nothing else can be done
 * about it once the new files are in place (the next run's recovery
 * removes it if this fails). */
static int drop_backup(cb_staged_file *f)
{
    if (!f->old)
        return 0;
    if (unlink(f->old) != 0 && unlink(f->old) != 0)
        return errno;
    free(f->old);
    f->old = NULL;
    return 0;
}

/* Clears what killed runs left in the folders of FILES (best effort: a
 * folder that cannot be read is left as it is, and the commit goes on). */
static void recover_folders(cb_staged_file *const *files, size_t n)
{
    char seen[4][4096], dir[4096];
    size_t n_seen = 0;
    for (size_t k = 0; k < n; k++) {
        if (!files[k] || files[k]->device)
            continue;
        const char *folder = folder_of(files[k]->path, dir, sizeof dir);
        size_t s = 0;
        while (folder && s < n_seen && strcmp(seen[s], folder) != 0)
            s++;
        if (!folder || s < n_seen)
            continue;
        cb_file_recover(folder, NULL);
        if (n_seen < sizeof seen / sizeof *seen)
            snprintf(seen[n_seen++], sizeof seen[0], "%s", folder);
    }
}

/* The one file of a set that has a target: a plain rename, which is all
 * or nothing by itself and leaves no backup behind. */
static cb_status commit_one(cb_staged_file *f, cb_error *err)
{
    if (!f->tmp || rename(f->tmp, f->path) == 0) {
        free(f->tmp);
        f->tmp = NULL;
        return CB_OK;
    }
    return cb_fail(err, CB_ERR_IO, "%s: cannot replace: %s", f->path, strerror(errno));
}

/* Writes the journal of FILES' swaps (see commit_journal.c): the name of
 * each one's backup is chosen here, so the journal can say where the old
 * file will be. */
static cb_status journal_swaps(cb_staged_file *const *files, size_t n, cb_journal **out,
                               cb_error *err)
{
    cb_journal_entry *en = calloc(n, sizeof *en);
    size_t m = 0;
    cb_status st = en ? CB_OK : cb_fail_nomem(err, NULL);
    for (size_t k = 0; st == CB_OK && k < n; k++) {
        cb_staged_file *f = files[k];
        struct stat sb;
        if (!f || !f->tmp)
            continue;
        size_t len = strlen(f->tmp);
        if (!(f->backup = malloc(len + 2)))
            st = cb_fail_nomem(err, NULL);
        else if (stat(f->tmp, &sb) != 0)
            st = cb_fail(err, CB_ERR_IO, "%s: cannot replace: %s", f->path, strerror(errno));
        if (st != CB_OK)
            break;
        memcpy(f->backup, f->tmp, len);
        memcpy(f->backup + len, "~", 2);
        en[m++] = (cb_journal_entry){f->path, f->tmp, f->backup, sb.st_dev, sb.st_ino};
    }
    if (st == CB_OK)
        st = cb_journal_begin(en, m, out, err);
    free(en);
    return st;
}

cb_status cb_file_commit_all(cb_staged_file *const *files, size_t n, cb_error *err)
{
    cb_status st = CB_OK;
    size_t k, swapped = 0, named = 0;
    cb_journal *journal = NULL;
    recover_folders(files, n);
    for (k = 0; k < n && st == CB_OK; k++)
        if (files[k])
            st = cb_file_ready(files[k], err);
    for (k = 0; k < n; k++)
        named += files[k] && files[k]->tmp;
    if (st == CB_OK && named <= 1) {
        for (k = 0; k < n && st == CB_OK; k++)
            if (files[k])
                st = commit_one(files[k], err);
        for (k = 0; k < n; k++)
            cb_file_discard(files[k]);
        return st;
    }
    if (st == CB_OK)
        st = journal_swaps(files, n, &journal, err);
    for (k = 0; k < n && st == CB_OK; k++) {
        int e = files[k] ? swap_in(files[k]) : 0;
        if (e)
            st = cb_fail(err, e == ENOMEM ? CB_ERR_NOMEM : CB_ERR_IO,
                         "%s: cannot replace: %s", files[k]->path, strerror(e));
        else
            swapped = k + 1;
    }
    if (st == CB_OK && cb_journal_done(journal) != 0)
        st = cb_fail(err, CB_ERR_IO, "%s: cannot replace: the commit journal: %s",
                     files[0] ? files[0]->path : "output", strerror(errno));
    int keep_journal = 0;
    if (st != CB_OK) {
        /* All old again: the new files that went in come out, last first. */
        for (k = swapped; k-- > 0;) {
            int e = files[k] ? swap_back(files[k]) : 0;
            if (e) { /* a second fault: say which target is not as it was */
                cb_fail(err, CB_ERR_IO, "%s: cannot replace, and cannot put the old file "
                        "back: %s (it is in %s; the next run puts it back)", files[k]->path,
                        strerror(e), files[k]->old ? files[k]->old : "no file");
                keep_journal = 1;
            }
        }
    } else {
        /* All new, and the journal says so: a run killed from here on is
         * finished by the next one, not undone. */
        for (k = 0; k < n; k++) {
            int e = files[k] ? drop_backup(files[k]) : 0;
            if (e && !keep_journal)
                st = cb_fail(err, CB_ERR_IO, "%s: written, but its old copy %s cannot be "
                             "removed: %s (the next run removes it)", files[k]->path,
                             files[k]->old, strerror(e));
            keep_journal |= e != 0;
        }
    }
    cb_journal_end(journal, keep_journal);
    for (k = 0; k < n; k++) {
        if (files[k] && files[k]->old && keep_journal) {
            free(files[k]->old); /* kept for the next run's recovery */
            files[k]->old = NULL;
        }
        cb_file_discard(files[k]);
    }
    return st;
}

cb_status cb_file_commit(cb_staged_file *f, cb_error *err)
{
    return cb_file_commit_all(&f, 1, err);
}

cb_status cb_file_write_atomic(const char *path, const void *data, size_t len, cb_error *err)
{
    cb_staged_file *f;
    cb_status st = cb_file_stage(path, data, len, &f, err);
    return st == CB_OK ? cb_file_commit(f, err) : st;
}
