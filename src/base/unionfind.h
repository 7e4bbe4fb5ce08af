/* Union-find over a caller's parent array (parent[v] == v for a root), with
 * path halving. Callers do their own unions, so each keeps its own rule for
 * which root wins (that choice is part of what makes boards deterministic). */
#ifndef CB_UNIONFIND_H
#define CB_UNIONFIND_H

#include <stdint.h>

static inline uint32_t cb_uf_find(uint32_t *parent, uint32_t v)
{
    while (parent[v] != v) {
        parent[v] = parent[parent[v]];
        v = parent[v];
    }
    return v;
}

#endif
