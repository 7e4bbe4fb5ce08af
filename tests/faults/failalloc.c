/* An LD_PRELOAD library that makes the K-th heap allocation of a process
 * fail, for the allocation-failure tests (tests/faults/alloc.sh). It wraps
 * malloc, calloc and realloc (libharu, libpng, cJSON and zlib allocate
 * through them too):
 *   CB_FAIL_ALLOC=K      the K-th call (counting from 1) returns NULL
 *   CB_COUNT_ALLOC=FILE  at exit, the number of calls is written to FILE
 *   CB_FAIL_TRACE=1      the failing call's stack goes to stderr
 * Test code only: it is never linked into cutboard. */
#define _GNU_SOURCE
#include <errno.h>
#include <execinfo.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t size);

static atomic_long calls;
static long fail_at = -1;

__attribute__((constructor)) static void start(void)
{
    const char *k = getenv("CB_FAIL_ALLOC");
    fail_at = k ? atol(k) : -1;
    atomic_store(&calls, 0);
}

__attribute__((destructor)) static void stop(void)
{
    const char *path = getenv("CB_COUNT_ALLOC");
    FILE *f = path ? fopen(path, "w") : NULL;
    if (f) {
        fprintf(f, "%ld\n", atomic_load(&calls));
        fclose(f);
    }
}

static int fail_now(void)
{
    if (atomic_fetch_add(&calls, 1) + 1 != fail_at)
        return 0;
    errno = ENOMEM; /* as the real allocator does */
    if (getenv("CB_FAIL_TRACE")) { /* where it failed, for a person */
        void *frames[24];
        int n = backtrace(frames, 24);
        backtrace_symbols_fd(frames, n, 2);
    }
    return 1;
}

void *malloc(size_t size)
{
    return fail_now() ? NULL : __libc_malloc(size);
}

void *calloc(size_t n, size_t size)
{
    return fail_now() ? NULL : __libc_calloc(n, size);
}

void *realloc(void *p, size_t size)
{
    return fail_now() ? NULL : __libc_realloc(p, size);
}
