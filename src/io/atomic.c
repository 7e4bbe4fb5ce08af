/* Output files appear whole or not at all: write a temporary file next to
 * the target, flush it to disk, then rename it over the target. Staging and
 * committing are separate so that several files can all be written before
 * any of them replaces what was there. */
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
    char *tmp;      /* NULL for a device written in place, e.g. /dev/null */
};

void cb_file_discard(cb_staged_file *f)
{
    if (!f)
        return;
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

cb_status cb_file_stage(const char *path, const void *data, size_t len,
                        cb_staged_file **out, cb_error *err)
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
    int device = exists && !S_ISREG(sb.st_mode);
    int fd;
    if (device) {
        fd = open(path, O_WRONLY);
    } else {
        size_t tlen = strlen(path) + 8;
        if (!(f->tmp = malloc(tlen))) {
            cb_file_discard(f);
            return cb_fail(err, CB_ERR_INTERNAL, "out of memory");
        }
        snprintf(f->tmp, tlen, "%s.XXXXXX", path);
        fd = mkstemp(f->tmp);
        if (fd < 0) {
            free(f->tmp);
            f->tmp = NULL; /* nothing to unlink */
        }
    }
    if (fd < 0) {
        cb_status st = cb_fail(err, CB_ERR_CANTCREAT, "%s: cannot create: %s", path,
                               strerror(errno));
        cb_file_discard(f);
        return st;
    }
    int failed = write_all(fd, data, len);
    if (!failed && !device && fsync(fd) != 0)
        failed = errno;
    if (!failed && !device && fchmod(fd, 0644) != 0)
        failed = errno;
    if (close(fd) != 0 && !failed)
        failed = errno;
    if (failed) {
        cb_file_discard(f);
        return cb_fail(err, CB_ERR_IO, "%s: write failed: %s", path, strerror(failed));
    }
    *out = f;
    return CB_OK;
}

cb_status cb_file_commit(cb_staged_file *f, cb_error *err)
{
    cb_status st = CB_OK;
    if (f->tmp && rename(f->tmp, f->path) != 0)
        st = cb_fail(err, CB_ERR_IO, "%s: cannot replace: %s", f->path, strerror(errno));
    else if (f->tmp) {
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
