/* src/net/: encounter maps: classic network models, their layout and
 * analysis, the network file and drawing. May include everything below it,
 * print/ too (for the page). */
/* What the network modules (network.c, netmodels.c, netgeo.c, netsort.c,
 * netanalysis.c, netlayout.c, netrender.c) share. Internal to the library. */
#ifndef CB_NETWORK_H
#define CB_NETWORK_H

#include <stddef.h>
#include <stdint.h>

#include "cutboard.h"

/* A network's links as a compressed adjacency list. */
typedef struct {
    size_t n;
    uint32_t *start; /* n + 1 offsets */
    uint32_t *adj;   /* neighbours, ascending within a node */
} cb_net_csr;

/* 0, or -1 when out of memory (csr is then empty). */
int cb_net_csr_build(cb_net_csr *g, const cb_network *net);
void cb_net_csr_free(cb_net_csr *g);

/* Sorts N links by (a, b) in O(n + links) (counting passes). 0 or -1
 * when out of memory. */
int cb_net_sort_edges(cb_edge *e, size_t n_edges, size_t n_nodes);
/* The same with caller's SCRATCH space for n_edges links (NULL: allocated). */
int cb_net_sort_edges_scratch(cb_edge *e, size_t n_edges, size_t n_nodes, cb_edge *scratch);

/* The parameters of SPEC's model as one line ("n=20 k=4 p=0.1"). */
void cb_net_params_text(const cb_network *net, char *out, size_t len);

#endif
