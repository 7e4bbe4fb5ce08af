/* Output files appear whole or not at all: write a temporary file next to
 * the target, flush it to disk, then rename it over the target. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "error.h"

cb_status cb_file_write_atomic(const char *path, const void *data, size_t len, cb_error *err)
{
    struct stat sb;
    if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode))
        return cb_fail(err, CB_ERR_CANTCREAT, "%s: is a directory", path);
    /* A device such as /dev/full or /dev/null is written in place. */
    int device = stat(path, &sb) == 0 && !S_ISREG(sb.st_mode);
    size_t tlen = strlen(path) + 16;
    char *tmp = malloc(tlen);
    if (!tmp)
        return cb_fail(err, CB_ERR_INTERNAL, "out of memory");
    int fd;
    if (device) {
        snprintf(tmp, tlen, "%s", path);
        fd = open(path, O_WRONLY);
    } else {
        snprintf(tmp, tlen, "%s.XXXXXX", path);
        fd = mkstemp(tmp);
    }
    if (fd < 0) {
        cb_status st = cb_fail(err, CB_ERR_CANTCREAT, "%s: cannot create: %s", path,
                               strerror(errno));
        free(tmp);
        return st;
    }
    const char *p = data;
    size_t left = len;
    int failed = 0;
    while (left > 0) {
        ssize_t n = write(fd, p, left);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            failed = errno ? errno : EIO;
            break;
        }
        p += n;
        left -= (size_t)n;
    }
    if (!failed && !device && fsync(fd) != 0)
        failed = errno;
    if (!device && !failed && fchmod(fd, 0644) != 0)
        failed = errno;
    if (close(fd) != 0 && !failed)
        failed = errno;
    if (!failed && !device && rename(tmp, path) != 0)
        failed = errno;
    if (failed) {
        if (!device)
            unlink(tmp);
        free(tmp);
        return cb_fail(err, CB_ERR_IO, "%s: write failed: %s", path, strerror(failed));
    }
    free(tmp);
    return CB_OK;
}
