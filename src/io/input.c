#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include "io/input.h"

int cb_input_open(const char *path, FILE **out, off_t *size)
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
