/* Output files appear whole or not at all. Staging writes the bytes to an
 * unnamed file in the target's folder (Linux's O_TMPFILE) and flushes them
 * to disk; committing gives it a name and renames it over the target. So a
 * run killed at any moment (even by SIGKILL, which no handler sees) leaves
 * the target as it was and no temporary file behind, but for the instant
 * between the link and the rename. Where the folder's file system has no
 * O_TMPFILE, a named temporary file next to the target is used instead.
 * Staging and committing are separate so that several files can all be
 * written before any of them replaces what was there. New files get mode
 * 0666 less the umask, as every Unix tool's do. */
#define _GNU_SOURCE /* O_TMPFILE */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "base/error.h"

struct cb_staged_file {
    char *path;
    int fd;         /* an unnamed staged file, still open; -1 when none */
    char *tmp;      /* a named staged file (no O_TMPFILE), or NULL */
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
    free(f->path);
    free(f);
}

static int write_all(int fd, const char *p, size_t left)
{
    while (left > 0) {
        ssize_t n = write(fd, p, left);
        if (n < 0 && errno == EINTR)
            continue;
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

/* PATH with ".XXXXXX" made unique, created empty with mode 0600: the named
 * stage, and the name an unnamed stage is linked under before its rename. */
static int named_temp(const char *path, char **tmp)
{
    size_t len = strlen(path) + 8;
    if (!(*tmp = malloc(len))) {
        errno = ENOMEM;
        return -1;
    }
    snprintf(*tmp, len, "%s.XXXXXX", path);
    int fd = mkstemp(*tmp);
    if (fd < 0) {
        int e = errno;
        free(*tmp);
        *tmp = NULL;
        errno = e;
    }
    return fd;
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
        return cb_fail(err, CB_ERR_INTERNAL, "out of memory");
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
        return cb_fail(err, CB_ERR_INTERNAL, "out of memory");
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

/* Gives the unnamed file F->fd the name F->tmp (made unique), ready for
 * the rename; 0 or an errno value. */
static int link_unnamed(cb_staged_file *f)
{
    char proc[64];
    snprintf(proc, sizeof proc, "/proc/self/fd/%d", f->fd);
    for (int tries = 0; tries < 16; tries++) {
        int fd = named_temp(f->path, &f->tmp); /* reserves a unique name */
        if (fd < 0)
            return errno;
        close(fd);
        unlink(f->tmp);
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
        return cb_fail(err, CB_ERR_INTERNAL, "%s: out of memory", f->path);
    return e ? cb_fail(err, CB_ERR_IO, "%s: cannot replace: %s", f->path, strerror(e)) : CB_OK;
}

cb_status cb_file_commit(cb_staged_file *f, cb_error *err)
{
    cb_status st = cb_file_ready(f, err);
    if (st == CB_OK && f->tmp && rename(f->tmp, f->path) != 0)
        st = cb_fail(err, CB_ERR_IO, "%s: cannot replace: %s", f->path, strerror(errno));
    else if (st == CB_OK && f->tmp) {
        free(f->tmp);
        f->tmp = NULL; /* renamed: nothing left to unlink */
    }
    cb_file_discard(f);
    return st;
}

cb_status cb_file_write_atomic(const char *path, const void *data, size_t len, cb_error *err)
{
    cb_staged_file *f;
    cb_status st = cb_file_stage(path, data, len, &f, err);
    return st == CB_OK ? cb_file_commit(f, err) : st;
}
