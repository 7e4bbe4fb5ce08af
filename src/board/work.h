/* src/board/: the generator pipeline: place, connect, starts, balance,
 * hops, decorate, lattice posters, the canonical hash, and the
 * generate-and-test loop (board.c). May include: base/, planar/. */
/* A board under construction, passed between the generator's steps
 * (place -> connect -> starts -> decorate) before it becomes a cb_board. */
#ifndef CB_WORK_H
#define CB_WORK_H

#include <stddef.h>
#include <stdint.h>
#include "cutboard.h"
#include "base/board_geometry.h"
#include "base/geom.h"
#include "base/rng.h"

#define CB_MAX_DEG 16
#define CB_MAX_STARTS 12
/* The least shortest cut a start may have (the contract). */
#define CB_CUT_MIN 3
/* No limit on a band (cb_work's hop_band_max, cut_band_max). */
#define CB_BAND_ANY (1 << 20)
/* Boards of up to this many nodes choose their starts by an exact search
 * over each side's few candidates (starts.c) and space their edge nodes
 * for it (place.c); larger ones choose greedily among many. */
#define CB_EXACT_STARTS_NODES 400

/* Why a step threw its candidate away: the generate-and-test loop branches
 * on these; cb_failure_text gives the words for messages. */
typedef enum {
    CB_FAIL_NONE = 0,
    CB_FAIL_NOMEM,
    CB_FAIL_DISCONNECTED,
    CB_FAIL_DEGREE_CAP,
    CB_FAIL_FEW_START_CANDIDATES,
    CB_FAIL_NO_FAIR_STARTS,
    CB_FAIL_START_BEHIND_BRIDGE,
    CB_FAIL_HOP_SPREAD,
    CB_FAIL_CUT_SPREAD,
} cb_failure;

const char *cb_failure_text(cb_failure failure);

enum { CB_ROLE_CORE = 0, CB_ROLE_CANDIDATE, CB_ROLE_START, CB_ROLE_DROPPED };

typedef struct {
    size_t n;
    cb_point *p;
    uint8_t *sides;      /* bit s set: snapped to trim side s */
    uint8_t *role;
    uint8_t *deg;
    uint8_t *reserved;   /* slots kept free for a start while the core is built */
    uint32_t *adj;       /* n * CB_MAX_DEG neighbours */
    int *hops;           /* from the centre, in the core graph */
    cb_side *start_side;
    uint32_t center;
    cb_edge *cand;       /* usable triangulation edges, shortest first */
    size_t n_cand;
    uint32_t *cand_off;  /* n + 1 offsets into cand_nbr */
    uint32_t *cand_nbr;  /* per node, its candidate neighbours, shortest edge first */
    double bx, by, bw, bh;  /* trim rectangle */
    double r, d;            /* node radius, node spacing */
    int start_cap, node_cap;
    cb_failure failure;     /* why the candidate was thrown away */
    uint8_t *marked;        /* roles as cb_connect_prepare marked them */
    uint32_t *scratch;      /* 11 n words for connect.c, kept between tries */
    /* Bands the starts may end in: hops in {L, L+1} with L in
     * hop_band_min..hop_band_max, shortest cuts in {c, c+1} with c in
     * cut_band_min..cut_band_max (a game's later sheets match its first). */
    int hop_band_min, hop_band_max, cut_band_min, cut_band_max;
    int cut_width;          /* the cuts must lie in {c, .., c + cut_width} */
    int cut_lo, cut_hi;     /* the starts' shortest cuts, after cb_cut_balance */
} cb_work;

int cb_work_init(cb_work *w, size_t n);
/* Forgets the edges, roles and start choice, keeping the placement. */
void cb_work_reset_graph(cb_work *w);
void cb_work_free(cb_work *w);
void cb_work_remove_edge(cb_work *w, uint32_t a, uint32_t b);

/* The three below are inline: every step asks them in its inner loops. */

/* The first four slots are compared without a branch a slot (where b
 * sits, and whether at all, is a coin toss); slots past the degree hold
 * old neighbours or 0 (cb_work_init clears them) and are masked off. */
static inline int cb_work_has_edge(const cb_work *w, uint32_t a, uint32_t b)
{
    const uint32_t *na = w->adj + (size_t)a * CB_MAX_DEG;
    int deg = w->deg[a];
    int found = ((na[0] == b) & (deg > 0)) | ((na[1] == b) & (deg > 1)) |
                ((na[2] == b) & (deg > 2)) | ((na[3] == b) & (deg > 3));
    for (int i = 4; i < deg; i++)
        found |= na[i] == b;
    return found;
}

static inline void cb_work_add_edge(cb_work *w, uint32_t a, uint32_t b)
{
    w->adj[(size_t)a * CB_MAX_DEG + w->deg[a]++] = b;
    w->adj[(size_t)b * CB_MAX_DEG + w->deg[b]++] = a;
}

/* Edges a node may still take: caps for starts, others, and the centre. */
static inline int cb_work_room(const cb_work *w, uint32_t v)
{
    int cap = v == w->center ? CB_MAX_DEG
              : w->role[v] == CB_ROLE_START ? w->start_cap : w->node_cap;
    if (cap > CB_MAX_DEG)
        cap = CB_MAX_DEG;
    return cap - w->deg[v] - w->reserved[v];
}
/* The start rectangle of node v if it sat on its side (mm). */
void cb_work_start_rect(const cb_work *w, uint32_t v, cb_side side,
                        double *x0, double *y0, double *x1, double *y1);
/* The side a node is snapped to, or CB_SIDE_NONE (none, or a corner). */
cb_side cb_side_of_mask(uint8_t sides);
/* Does edge s-a leave start s (on SIDE) at least CB_START_MIN_ANGLE away
 * from the trim line, so that it clearly exits the rectangle inward? */
int cb_work_steep_enough(const cb_work *w, uint32_t s, uint32_t a, cb_side side);
/* Does edge a-b show CB_MIN_VISIBLE_MM (and a little to spare, for the
 * board file's 0.01 mm) between a's shape (a start's rectangle on SIDE, or
 * with CB_SIDE_NONE its disk) and b's disk? Always on boards without power
 * dots (posters: the scissors clauses do not apply). */
int cb_work_shows(const cb_work *w, uint32_t a, uint32_t b, cb_side side);
/* Indexes w->cand per node (cand_off/cand_nbr); -1 when out of memory. */
int cb_work_index_cand(cb_work *w);
/* BFS hops from the centre over nodes whose role is not DROPPED (-1: unreached). */
void cb_work_hops(cb_work *w, uint32_t *queue);
/* 1 when some bridge separates a start from the centre, so that the start
 * has fewer than 2 edge-disjoint paths to it (Tarjan from the centre; a tree
 * edge p-c is such a bridge when low[c] > disc[p] and c's subtree holds a
 * start). SCRATCH: 6 n words. */
int cb_work_start_behind_bridge(const cb_work *w, uint32_t *scratch);

/* The same question after an edit of a graph that had every node reaching
 * the centre and no start behind a bridge, asked near the edit. If some
 * bridge f now parts a start from the centre, a path the start had that
 * avoided f used a removed edge whose ends f now parts: so when the ends of
 * each removed edge are still joined by two edge-disjoint paths, no start
 * is behind a bridge. Those are looked for near the edge (two searches of
 * at most 128 nodes); where they are not found there, the whole graph is
 * searched (cb_work_start_behind_bridge, SCRATCH 6 n words). */
typedef struct {
    uint32_t *seen, *on_path; /* n each: stamps, zero at first */
    uint32_t *prev, *succ;    /* n each */
    uint32_t stamp;
} cb_pair_search;

int cb_pair_search_init(cb_pair_search *ps, size_t n);
void cb_pair_search_free(cb_pair_search *ps);
int cb_work_start_behind_bridge_after(const cb_work *w, const cb_edge *del, int n_del,
                                      cb_pair_search *ps, uint32_t *scratch);

/* Steps of the generator; each returns 0, or -1 with w->failure set. */
typedef struct {
    double bx, by, bw, bh;
    size_t n;
    double d;           /* target spacing */
    double stretch;     /* >= 1: relax in a space squashed by this along the long side */
    int iterations;
} cb_place_params;

int cb_place(cb_work *w, const cb_place_params *pp, cb_rng *rng);
/* cb_connect is cb_connect_prepare (start candidates and the usable
 * triangulation edges: the same for every try on one placement) followed by
 * cb_connect_core (the core graph, which depends on RNG). */
int cb_connect(cb_work *w, cb_rng *rng);
int cb_connect_prepare(cb_work *w);
int cb_connect_core(cb_work *w, cb_rng *rng);
/* Undoes everything after cb_connect_prepare: edges, reservations, starts
 * and dropped nodes, for another try of cb_connect_core on the placement. */
void cb_work_retry(cb_work *w);
int cb_starts_choose(cb_work *w);
int cb_balance(cb_work *w);
/* Edits the graph until the starts' shortest cuts lie in an allowed band
 * (cutbalance.c); sets cut_lo, cut_hi. */
int cb_cut_balance(cb_work *w);
/* Adds usable edges, shortest first and within the degree caps, that put
 * bridges of the graph (core and starts) on a cycle; -1 when out of memory. */
int cb_close_bridges(cb_work *w);

#define CB_START_MIN_ANGLE 0.3 /* radians */

#endif
