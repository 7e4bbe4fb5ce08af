/* cJSON's allocator hooks are process-wide: ours allocate with malloc and
 * free, as cJSON's defaults do, and only note a failure in the calling
 * thread, so other users of cJSON in the process see no difference. */
#define _GNU_SOURCE /* qsort_r */
#include <pthread.h>
#include <stdint.h>
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

/* A key of an open object: its offset (the opening quote) and length. */
typedef struct {
    size_t at, len;
} key_at;

static int key_order(const void *a, const void *b, void *text)
{
    const key_at *x = a, *y = b;
    size_t n = x->len < y->len ? x->len : y->len;
    int c = memcmp((const char *)text + x->at, (const char *)text + y->at, n);
    if (c || x->len != y->len)
        return c ? c : x->len < y->len ? -1 : 1;
    return x->at < y->at ? -1 : x->at > y->at;
}

size_t cb_json_duplicate_key(const char *text, size_t len, size_t *first, int *oom)
{
    /* KEYS holds the keys of every open object, innermost last; OPEN the
     * index where each open container's keys start (SIZE_MAX: an array). */
    key_at *keys = NULL;
    size_t *open = NULL, n_keys = 0, cap_keys = 0, depth = 0, cap_open = 0;
    size_t found = SIZE_MAX;
    int want_key = 0;
    *oom = 0;
    for (size_t i = 0; i < len && found == SIZE_MAX; i++) {
        char c = text[i];
        if (c == '{' || c == '[') {
            if (depth == cap_open) {
                size_t cap = cap_open ? 2 * cap_open : 16;
                size_t *more = realloc(open, cap * sizeof *more);
                if (!more)
                    goto oom;
                open = more, cap_open = cap;
            }
            open[depth++] = c == '{' ? n_keys : SIZE_MAX;
            want_key = c == '{';
        } else if (c == '}' || c == ']') {
            size_t start = depth ? open[--depth] : SIZE_MAX;
            if (start != SIZE_MAX && n_keys - start > 1) {
                key_at *k = keys + start;
                size_t n = n_keys - start;
                qsort_r(k, n, sizeof *k, key_order, (void *)text);
                for (size_t j = 1; j < n; j++)
                    if (k[j].len == k[j - 1].len &&
                        memcmp(text + k[j].at, text + k[j - 1].at, k[j].len) == 0 &&
                        k[j].at < found) {
                        found = k[j].at;
                        *first = k[j - 1].at; /* sorted by place among equals */
                        while (j + 1 < n && k[j + 1].len == k[j].len &&
                               memcmp(text + k[j + 1].at, text + k[j].at, k[j].len) == 0)
                            j++;
                    }
            }
            if (start != SIZE_MAX)
                n_keys = start;
            want_key = 0;
        } else if (c == ',') {
            want_key = depth && open[depth - 1] != SIZE_MAX;
        } else if (c == '"') {
            size_t at = i++;
            while (i < len && text[i] != '"')
                i += text[i] == '\\' ? 2 : 1;
            if (want_key) {
                if (n_keys == cap_keys) {
                    size_t cap = cap_keys ? 2 * cap_keys : 64;
                    key_at *more = realloc(keys, cap * sizeof *more);
                    if (!more)
                        goto oom;
                    keys = more, cap_keys = cap;
                }
                keys[n_keys++] = (key_at){at, i - at + 1};
                want_key = 0;
            }
        }
    }
    free(keys);
    free(open);
    return found;
oom:
    free(keys);
    free(open);
    *oom = 1;
    return SIZE_MAX;
}
