/* Links while a model builds them: a growable list and a hash set of
 * links, inline because the models call them in their inner loops.
 * Internal to src/net/. */
#ifndef CB_NETLINKS_H
#define CB_NETLINKS_H

#include <stdint.h>
#include <stdlib.h>

#include "cutboard.h"

typedef struct {
    cb_edge *e;
    size_t n, cap;
    int oom;
} elist;

static inline void el_reserve(elist *l, size_t cap)
{
    if (l->oom || cap <= l->cap)
        return;
    cb_edge *e = realloc(l->e, cap * sizeof *e);
    if (!e) {
        l->oom = 1;
        return;
    }
    l->e = e;
    l->cap = cap;
}

static inline void el_add(elist *l, uint32_t a, uint32_t b)
{
    if (l->n == l->cap)
        el_reserve(l, l->cap ? 2 * l->cap : 64);
    if (l->oom)
        return;
    cb_edge e = {a < b ? a : b, a < b ? b : a};
    l->e[l->n++] = e;
}

/* Open addressing on 64-bit keys (a << 32 | b) + 1; 0 marks an empty slot,
 * UINT64_MAX a removed one. */
typedef struct {
    uint64_t *k;
    size_t mask;
} eset;

#define ES_GONE UINT64_MAX

static inline int es_init(eset *s, size_t expected)
{
    size_t cap = 16;
    while (cap < 2 * expected + 16)
        cap *= 2;
    s->k = calloc(cap, sizeof *s->k);
    s->mask = cap - 1;
    return s->k ? 0 : -1;
}

static inline uint64_t es_key(uint32_t a, uint32_t b)
{
    return a < b ? ((uint64_t)a << 32 | b) + 1 : ((uint64_t)b << 32 | a) + 1;
}

/* The slot holding KEY, or the empty slot where it would go. */
static inline size_t es_find(const eset *s, uint64_t key)
{
    size_t i = (size_t)cb_mix64(key) & s->mask;
    while (s->k[i] != 0 && s->k[i] != key)
        i = (i + 1) & s->mask;
    return i;
}

static inline int es_has(const eset *s, uint32_t a, uint32_t b)
{
    return s->k[es_find(s, es_key(a, b))] != 0;
}

/* Adds a-b; 1 when it was not there. The set is sized for every key it will
 * hold (removed slots are not reused, so lookups stay short). */
static inline int es_add(eset *s, uint32_t a, uint32_t b)
{
    uint64_t key = es_key(a, b);
    size_t i = es_find(s, key);
    if (s->k[i])
        return 0;
    s->k[i] = key;
    return 1;
}

static inline void es_del(eset *s, uint32_t a, uint32_t b)
{
    size_t i = es_find(s, es_key(a, b));
    if (s->k[i])
        s->k[i] = ES_GONE;
}

/* Adds a-b to a set that grows: *COUNT keys held, kept at most half full.
 * 1 when added, 0 when there already, -1 when out of memory. */
static inline int es_add_grow(eset *s, size_t *count, uint32_t a, uint32_t b)
{
    if (2 * (*count + 1) > s->mask + 1) {
        eset t;
        if (es_init(&t, (s->mask + 1) / 2) != 0) /* twice the slots */
            return -1;
        for (size_t i = 0; i <= s->mask; i++)
            if (s->k[i] != 0 && s->k[i] != ES_GONE)
                t.k[es_find(&t, s->k[i])] = s->k[i];
        free(s->k);
        *s = t;
    }
    int added = es_add(s, a, b);
    *count += (size_t)added;
    return added;
}

#endif
