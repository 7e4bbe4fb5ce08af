/* cJSON's allocator hooks are process-wide: ours allocate with malloc and
 * free, as cJSON's defaults do, and only note a failure in the calling
 * thread, so other users of cJSON in the process see no difference. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "io/jsonparse.h"

static _Thread_local int failed;

static void *watched_malloc(size_t size)
{
    void *p = malloc(size);
    if (!p)
        failed = 1;
    return p;
}

static void install_hooks(void)
{
    cJSON_Hooks hooks = {watched_malloc, free};
    cJSON_InitHooks(&hooks);
}

cJSON *cb_json_parse(const char *text, size_t len, const char **end, int *oom)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, install_hooks);
    failed = 0;
    cJSON *root = cJSON_ParseWithLengthOpts(text, len, end, 0);
    *oom = !root && failed;
    if (root && *end && *end >= text) {
        const char *p = *end;
        while (p < text + len && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
            p++;
        if (p < text + len) { /* a second document, or garbage */
            cJSON_Delete(root);
            *end = p;
            return NULL;
        }
    }
    return root;
}
