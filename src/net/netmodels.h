/* What network.c (the spec and the build) shares with the model files
 * netmodels.c and netgeo.c. Internal to src/net/. Each model adds its links
 * to an elist (netlinks.h) and returns 0, or -1 when out of memory (l->oom
 * may be set instead); regular returns 1 when no simple graph was found. */
#ifndef CB_NETMODELS_H
#define CB_NETMODELS_H

#include <stdint.h>

#include "base/rng.h"
#include "net/netlinks.h"
#include "net/network.h"

/* The parameters as used: defaults filled in. */
typedef struct {
    long n, k, m, links;
    double p;
} params;

/* How many pairs N nodes have. */
static inline double cb_net_pairs(double n)
{
    return n * (n - 1) / 2;
}

void cb_net_linear(elist *l, uint32_t n);
void cb_net_ring(elist *l, uint32_t n, uint32_t k);
void cb_net_complete(elist *l, uint32_t n);
/* G(n, p); links already in SKIP (when not NULL) are left out. */
void cb_net_gnp(elist *l, uint32_t n, double p, cb_rng *rng, const eset *skip);
/* Adds random links until L holds TOTAL (G(n, m) from an empty list). */
int cb_net_random_links(elist *l, uint32_t n, size_t total, cb_rng *rng);
int cb_net_regular(elist *l, uint32_t n, uint32_t k, cb_rng *rng);
int cb_net_small_world(elist *l, uint32_t n, uint32_t k, double p, cb_rng *rng);
int cb_net_scale_free(elist *l, uint32_t n, uint32_t m, cb_rng *rng);
int cb_net_anchored(elist *l, uint32_t n, long links, double p, cb_rng *rng);

/* The geometric version of S's model: places Q->n points into XY (2n
 * doubles, mm) and adds links that do not cross. */
int cb_net_build_geometric(elist *l, const cb_net_spec *s, const params *q, double *xy,
                           cb_rng *rng);

#endif
