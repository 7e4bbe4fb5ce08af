/* An LD_PRELOAD library that makes the K-th output-file system call of a
 * process fail, for the I/O fault tests (tests/faults/io.sh): open or
 * openat for writing, write (not to standard output or error), fsync,
 * close (of files past standard error), linkat, link, rename, renameat2
 * and unlink.
 *   CB_FAIL_IO=K        the K-th such call fails with EIO (ENOSPC for write)
 *   CB_COUNT_IO=FILE    at exit, the number of such calls is written to FILE
 * Test code only: it is never linked into cutboard. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

typedef int (*open_fn)(const char *, int, ...);
typedef ssize_t (*write_fn)(int, const void *, size_t);
typedef int (*fd_fn)(int);
typedef int (*linkat_fn)(int, const char *, int, const char *, int);
typedef int (*rename_fn)(const char *, const char *);
typedef int (*renameat2_fn)(int, const char *, int, const char *, unsigned);
typedef int (*unlink_fn)(const char *);

static atomic_long calls;
static long fail_at = -1;

__attribute__((constructor)) static void start(void)
{
    const char *k = getenv("CB_FAIL_IO");
    fail_at = k ? atol(k) : -1;
}

__attribute__((destructor)) static void stop(void)
{
    const char *path = getenv("CB_COUNT_IO");
    if (!path)
        return;
    int fd = ((open_fn)dlsym(RTLD_NEXT, "open"))(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
        char line[32];
        int n = snprintf(line, sizeof line, "%ld\n", atomic_load(&calls));
        if (((write_fn)dlsym(RTLD_NEXT, "write"))(fd, line, (size_t)n) < 0)
            n = 0;
        ((fd_fn)dlsym(RTLD_NEXT, "close"))(fd);
    }
}

/* Counts a call; 1 when it is the one to fail (errno set to E). */
static int fail_now(int e)
{
    if (atomic_fetch_add(&calls, 1) + 1 != fail_at)
        return 0;
    errno = e;
    return 1;
}

/* The next definition of NAME (libc's), looked up once. */
#define REAL(name, type)                                                    \
    static type real_##name;                                                \
    if (!real_##name)                                                       \
    real_##name = (type)dlsym(RTLD_NEXT, #name)

static int writing(int flags)
{
    return (flags & (O_WRONLY | O_RDWR)) != 0;
}

int open(const char *path, int flags, ...)
{
    REAL(open, open_fn);
    va_list ap;
    va_start(ap, flags);
    mode_t mode = (mode_t)va_arg(ap, int);
    va_end(ap);
    if (writing(flags) && fail_now(EIO))
        return -1;
    return real_open(path, flags, mode);
}

int open64(const char *path, int flags, ...)
{
    REAL(open64, open_fn);
    va_list ap;
    va_start(ap, flags);
    mode_t mode = (mode_t)va_arg(ap, int);
    va_end(ap);
    if (writing(flags) && fail_now(EIO))
        return -1;
    return real_open64(path, flags, mode);
}

ssize_t write(int fd, const void *buf, size_t len)
{
    REAL(write, write_fn);
    if (fd > 2 && fail_now(ENOSPC))
        return -1;
    return real_write(fd, buf, len);
}

int fsync(int fd)
{
    REAL(fsync, fd_fn);
    if (fail_now(EIO))
        return -1;
    return real_fsync(fd);
}

int close(int fd)
{
    REAL(close, fd_fn);
    if (fd > 2 && fail_now(EIO)) {
        real_close(fd); /* as Linux does: the descriptor is gone either way */
        errno = EIO;
        return -1;
    }
    return real_close(fd);
}

int linkat(int olddirfd, const char *oldpath, int newdirfd, const char *newpath, int flags)
{
    REAL(linkat, linkat_fn);
    if (fail_now(EIO))
        return -1;
    return real_linkat(olddirfd, oldpath, newdirfd, newpath, flags);
}

int rename(const char *from, const char *to)
{
    REAL(rename, rename_fn);
    if (fail_now(EIO))
        return -1;
    return real_rename(from, to);
}

int renameat2(int olddirfd, const char *from, int newdirfd, const char *to, unsigned flags)
{
    REAL(renameat2, renameat2_fn);
    if (fail_now(EIO))
        return -1;
    return real_renameat2(olddirfd, from, newdirfd, to, flags);
}

int link(const char *from, const char *to)
{
    REAL(link, rename_fn);
    if (fail_now(EIO))
        return -1;
    return real_link(from, to);
}

int unlink(const char *path)
{
    REAL(unlink, unlink_fn);
    if (fail_now(EIO))
        return -1;
    return real_unlink(path);
}
