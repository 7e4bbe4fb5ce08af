#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "base/error.h"
#include "io/input.h"

/* 0, an errno value, or -1: no regular file. */
static int open_regular(const char *path, FILE **out, off_t *size)
{
    *out = NULL;
    /* O_NONBLOCK: opening a FIFO returns at once instead of waiting for a
     * writer; the file is refused below anyway. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return errno;
    struct stat sb;
    if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
        close(fd);
        return -1;
    }
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) < 0 || !(*out = fdopen(fd, "rb"))) {
        int e = errno ? errno : EIO;
        close(fd);
        return e;
    }
    *size = sb.st_size;
    return 0;
}

cb_status cb_input_errno_status(int e)
{
    return e == ENOMEM                                            ? CB_ERR_NOMEM
           : e == EMFILE || e == ENFILE || e == ENOSPC || e == EAGAIN ? CB_ERR_INTERNAL
                                                                      : CB_ERR_NOINPUT;
}

cb_status cb_input_open(const char *what, const char *path, FILE **out, off_t *size,
                        cb_error *err)
{
    int e = open_regular(path, out, size);
    const char *sep = *what ? " " : "";
    if (e == ENOMEM)
        return cb_fail(err, CB_ERR_NOMEM, "%s%s%s: out of memory opening it", what, sep, path);
    if (e != 0)
        return cb_fail(err, e > 0 ? cb_input_errno_status(e) : CB_ERR_NOINPUT,
                       "%s%s%s: cannot open: %s", what, sep, path,
                       e > 0 ? strerror(e) : "not a regular file");
    return CB_OK;
}
