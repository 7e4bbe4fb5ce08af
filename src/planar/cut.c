/* Cuts on the planar board (see halfedge.h for the model): the shortest cut
 * that separates each start from the centre, and cut simulation.
 *
 * Shortest cut. Cutting printed edge e parts the two pieces on its sides;
 * pieces stay joined across uncut printed edges and never across the paper
 * border. So a set K of printed edges separates start s from the centre c
 * when, in the dual graph (one vertex per piece, one edge per printed edge),
 * removing K leaves no path from a piece touching s to a piece touching c:
 * K is an edge cut between two sets of dual vertices. The game adds that a
 * cut starts at the border or at an earlier cut, so every connected part of
 * K (as printed edges) must reach the border; a minimal such K is a set of
 * chains of printed edges from the border back to the border.
 *
 * We compute the minimum dual cut by max-flow (unit capacity per printed
 * edge, augmenting paths from all of s's pieces to any of c's pieces);
 * its value is a lower bound for the game's cut. The cut it gives (the edges
 * leaving the pieces still reachable from s) is checked for reaching the
 * border; when it does, the bound is met and exact. When it does not (the
 * minimum is a ring around the centre, which no cut from the border can
 * make alone), the flow is run again with each border piece in turn added to
 * the centre's side, which forces the cut out to the border, and the
 * smallest cut that reaches the border is taken (each of those flows goes on
 * from the first, on one tree of what s reaches: see by_border_piece). A
 * start that shares a piece with the centre cannot be separated: -1.
 *
 * Cut simulation: union-find over pieces joined by uncut printed edges; the
 * class holding the centre stays (the largest one if the cut splits the
 * centre node), every other class falls off. */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "base/unionfind.h"
#include "base/error.h"
#include "base/graph.h"
#include "planar/halfedge.h"

/* The dual graph and scratch space for the flows of one board. A slot is
 * a printed edge seen from one of its pieces: the half-edge on that
 * piece's side, so the piece across is its twin's face and the slot runs
 * face[2e] -> face[2e+1] when the half-edge is 2e. */
typedef struct {
    const uint32_t *face; /* the planar map's faces, per half-edge */
    size_t nf, m;
    uint32_t *start;    /* nf + 1 offsets */
    uint32_t *slot;     /* per slot: the half-edge on the piece's side */
    uint32_t *to;       /* per slot: the piece across (its twin's face), kept
                           beside the slot: the flows' searches read it for
                           every slot they pass, and face[] is far off */
    int8_t *flow;       /* per printed edge: -1, 0, +1 */
    uint8_t *side;      /* per piece: 1 source, 2 sink */
    uint32_t *seen;     /* per piece: BFS stamp */
    uint32_t stamp;
    uint32_t *prev;     /* per piece: slot it was reached by */
    float *dist;        /* per piece: its squared distance to the centre
                           (mm^2, from one corner), set the first time a
                           search meets it (-1 until then) */
    const cb_board *board;
    double cx, cy;      /* the centre node */
    uint32_t *queue;
    /* So that a flow costs what its searches reach, not the whole board
     * (a board has a flow for each start): the pieces the last search
     * reached, and the printed edges given flow since the last reset (or
     * reset_all when that list could not grow). */
    uint32_t *reached;
    size_t n_reached;
    uint32_t *pushed;
    size_t n_pushed, pushed_cap;
    int reset_all;
    uint32_t *border_faces;
    size_t n_border_faces;
    /* The last cut's parts, grown as cuts need: the ends of its edges in
     * pairs, then its vertices once each with a union-find parent and a
     * flag each. */
    uint32_t *ends, *verts, *parent;
    uint8_t *good;
    size_t cap;         /* room in ends (2 a cut edge) and the others */
    /* The pieces the sources reach, kept as a tree while the flows to the
     * border pieces go on (see by_border_piece), made the first time a
     * start's least cut does not reach the border: */
    uint32_t *tpar;     /* per piece: the half-edge from its parent's side
                           (UINT32_MAX at a source) */
    uint8_t *tstate;    /* per piece: T_OUT, T_TREE, T_ORPHAN or T_FREE */
    uint8_t *queued;    /* per piece: in grow */
    uint32_t *rooted;   /* per piece: the repair it was last found rooted in */
    uint32_t repair;
    uint32_t *orphans;  /* a repair's orphans, in turn */
    uint32_t *grow;     /* a ring of pieces to grow the tree from */
    uint32_t *ring;     /* the least cut's half-edges, from its sources' side */
    size_t n_ring;
    uint32_t *log;      /* what a border piece's flow changed, to undo: */
    size_t n_log, log_cap; /* 3 words an entry */
    /* The walks from the border to the border (see odd_walk): */
    uint32_t *vstart;   /* per node + 1: offsets into vedge */
    uint32_t *vedge;    /* per node: the printed edges between two pieces */
    uint32_t *wdist;    /* per node and parity: edges from the border */
    uint32_t *wqueue;   /* 2 per node */
    uint8_t *crossed;   /* per printed edge: crossed by the dual path */
    int reference;      /* a flow from scratch per border piece, as it reads */
} dual;

enum { T_OUT, T_TREE, T_ORPHAN, T_FREE };

static void dual_free(dual *d)
{
    free(d->start); free(d->slot); free(d->to); free(d->flow); free(d->side); free(d->seen);
    free(d->prev); free(d->dist); free(d->queue); free(d->border_faces);
    free(d->reached); free(d->pushed);
    free(d->ends); free(d->verts); free(d->parent); free(d->good);
    free(d->tpar); free(d->tstate); free(d->queued); free(d->rooted); free(d->orphans);
    free(d->grow); free(d->ring); free(d->log);
    free(d->vstart); free(d->vedge); free(d->wdist); free(d->wqueue); free(d->crossed);
    memset(d, 0, sizeof *d);
}

/* The dual of P's pieces. Only P's faces are read, here and by the flows. */
static int dual_init(dual *d, const cb_planar *p)
{
    memset(d, 0, sizeof *d);
    d->face = p->face;
    d->nf = p->n_faces;
    d->m = p->n_printed;
    size_t nf = d->nf, m = d->m;
    const uint32_t *face = p->face;
    size_t slots = 0;
    for (size_t e = 0; e < m; e++) {
        uint32_t f = face[2 * e], g = face[2 * e + 1];
        slots += f != g && f && g ? 2 : 0;
    }
    d->start = calloc(nf + 1, sizeof *d->start);
    d->slot = malloc((slots ? slots : 1) * sizeof *d->slot);
    d->to = malloc((slots ? slots : 1) * sizeof *d->to);
    d->flow = calloc(m + 1, 1);
    d->side = calloc(nf, 1);
    d->seen = calloc(nf, sizeof *d->seen);
    d->prev = malloc(nf * sizeof *d->prev);
    d->dist = malloc(nf * sizeof *d->dist);
    d->board = p->board;
    for (size_t f = 0; d->dist && f < nf; f++)
        d->dist[f] = -1;
    d->queue = malloc(nf * sizeof *d->queue);
    d->reached = malloc(nf * sizeof *d->reached);
    if (!d->start || !d->slot || !d->to || !d->flow || !d->side || !d->seen || !d->prev ||
        !d->dist || !d->queue || !d->reached) {
        dual_free(d);
        return -1;
    }
    for (size_t e = 0; e < m; e++) {
        uint32_t f = face[2 * e], g = face[2 * e + 1];
        if (f != g && f && g) {
            d->start[f + 1]++;
            d->start[g + 1]++;
        }
    }
    for (size_t f = 0; f < nf; f++)
        d->start[f + 1] += d->start[f];
    /* Filled back to front: start[f + 1] counts down to piece f's first
     * slot, so each piece lists its edges in edge order. */
    for (uint32_t e = (uint32_t)m; e-- > 0;) {
        uint32_t f = face[2 * e], g = face[2 * e + 1];
        if (f == g || !f || !g)
            continue;
        d->to[--d->start[g + 1]] = f;
        d->slot[d->start[g + 1]] = 2 * e + 1;
        d->to[--d->start[f + 1]] = g;
        d->slot[d->start[f + 1]] = 2 * e;
    }
    for (size_t f = 0; f < nf; f++)
        d->start[f] = d->start[f + 1];
    d->start[nf] = (uint32_t)slots;
    /* Pieces along the paper border, in face order (side marks them). */
    for (uint32_t h = 0; h < p->n_half; h++)
        if (face[h ^ 1u] == 0 && face[h] != 0 && !d->side[face[h]]) {
            d->side[face[h]] = 1;
            d->n_border_faces++;
        }
    d->border_faces = malloc((d->n_border_faces ? d->n_border_faces : 1) *
                             sizeof *d->border_faces);
    if (!d->border_faces) {
        dual_free(d);
        return -1;
    }
    size_t k = 0;
    for (uint32_t f = 1; f < nf; f++)
        if (d->side[f])
            d->border_faces[k++] = f;
    memset(d->side, 0, nf);
    return 0;
}

/* Max-flow from the N_SRC source pieces SRC (d->side 1) to the sink
 * pieces (d->side 2); leaves d->seen == d->stamp on the pieces the last
 * search reached from the sources.
 *
 * Each augmenting path is searched best first: the piece nearest the
 * centre (d->dist, as the crow flies from a corner of it) goes next, so on
 * a large board a path runs more or less straight to the centre through a
 * few thousand pieces, where a breadth-first search reached a good share
 * of the board's million. (Hops in the dual guided it as well, but took a
 * search of the whole dual first: a fifth of a poster's 12 cuts.) Any
 * augmenting path will do: when none is left,
 * the pieces the sources reach (a search that finds no sink has reached
 * them all) are the same whichever maximum flow was found (the least
 * minimum cut), so the cut read from them is too. */
/* One unit of flow along half-edge H, from its piece to the one across. */
static inline void push_flow(dual *d, uint32_t h)
{
    uint32_t e = h >> 1;
    if (d->flow[e] == 0 && !d->reset_all) { /* listed for the next reset */
        if (d->n_pushed == d->pushed_cap) {
            size_t cap = d->pushed_cap ? 2 * d->pushed_cap : 256;
            uint32_t *more = realloc(d->pushed, cap * sizeof *more);
            if (more) {
                d->pushed = more;
                d->pushed_cap = cap;
            }
        }
        if (d->n_pushed < d->pushed_cap)
            d->pushed[d->n_pushed++] = e;
        else
            d->reset_all = 1;
    }
    d->flow[e] = (int8_t)(d->flow[e] + (h & 1u ? -1 : 1));
}

/* Every printed edge back to no flow. */
static void reset_flow(dual *d)
{
    if (d->reset_all)
        memset(d->flow, 0, d->m);
    else
        for (size_t i = 0; i < d->n_pushed; i++)
            d->flow[d->pushed[i]] = 0;
    d->n_pushed = 0;
    d->reset_all = 0;
}

/* Piece X's d->dist: from the first end of its first slot's edge. */
static void place_piece(dual *d, uint32_t x)
{
    if (d->dist[x] >= 0)
        return;
    if (d->start[x] == d->start[x + 1]) {
        d->dist[x] = INFINITY;
        return;
    }
    uint32_t h = d->slot[d->start[x]];
    const cb_edge *e = &d->board->edges[h >> 1];
    const cb_node *v = &d->board->nodes[h & 1u ? e->b : e->a];
    double dx = v->x - d->cx, dy = v->y - d->cy;
    d->dist[x] = (float)(dx * dx + dy * dy);
}

/* Whether piece A goes before piece B in the search: nearer the centre,
 * then the lower number. */
static int before(const dual *d, uint32_t a, uint32_t b)
{
    return d->dist[a] != d->dist[b] ? d->dist[a] < d->dist[b] : a < b;
}

/* The search's heap of pieces (d->queue, *N of them): add X. */
static void heap_push(dual *d, size_t *n, uint32_t x)
{
    uint32_t *q = d->queue;
    size_t i = (*n)++;
    while (i > 0 && before(d, x, q[(i - 1) / 2])) {
        q[i] = q[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    q[i] = x;
}

/* Takes the first piece off the heap. */
static uint32_t heap_pop(dual *d, size_t *n)
{
    uint32_t *q = d->queue, top = q[0], x = q[--*n];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= *n)
            break;
        if (c + 1 < *n && before(d, q[c + 1], q[c]))
            c++;
        if (!before(d, q[c], x))
            break;
        q[i] = q[c];
        i = c;
    }
    if (*n > 0)
        q[i] = x;
    return top;
}

static int max_flow(dual *d, const uint32_t *src, size_t n_src)
{
    reset_flow(d);
    int value = 0;
    for (;;) {
        uint32_t mark = ++d->stamp, sink = UINT32_MAX;
        size_t n = 0;
        d->n_reached = 0;
        for (size_t i = 0; i < n_src; i++)
            if (d->seen[src[i]] != mark) {
                d->seen[src[i]] = mark;
                d->prev[src[i]] = UINT32_MAX;
                d->reached[d->n_reached++] = src[i];
                place_piece(d, src[i]);
                heap_push(d, &n, src[i]);
            }
        while (n > 0 && sink == UINT32_MAX) {
            uint32_t x = heap_pop(d, &n);
            for (uint32_t k = d->start[x]; k < d->start[x + 1]; k++) {
                uint32_t h = d->slot[k], y = d->to[k];
                if (d->seen[y] == mark || d->flow[h >> 1] * (h & 1u ? -1 : 1) >= 1)
                    continue; /* reached, or no room left out of X that way */
                d->seen[y] = mark;
                d->prev[y] = k;
                if (d->side[y] == 2) {
                    sink = y;
                    break;
                }
                d->reached[d->n_reached++] = y;
                place_piece(d, y);
                heap_push(d, &n, y);
            }
        }
        if (sink == UINT32_MAX)
            return value;
        /* back from the sink to a source, a slot's half-edge on the side of
         * the piece it belongs to */
        for (uint32_t g = sink; d->prev[g] != UINT32_MAX;) {
            uint32_t h = d->slot[d->prev[g]];
            push_flow(d, h);
            g = d->face[h];
        }
        value++;
    }
}

static int cmp_u32(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return (a > b) - (a < b);
}

/* Where vertex V is in the N sorted VERTS. */
static uint32_t vert_index(const uint32_t *verts, size_t n, uint32_t v)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (verts[mid] < v)
            lo = mid + 1;
        else
            hi = mid;
    }
    return (uint32_t)lo;
}

/* Adds printed edge E to the cut whose ends d->ends holds (*NT of them);
 * -1 when out of memory. */
static int add_cut_edge(dual *d, const cb_planar *p, uint32_t e, size_t *nt)
{
    if (*nt == d->cap) {
        size_t cap = d->cap ? 2 * d->cap : 64;
        uint32_t *ends = realloc(d->ends, cap * sizeof *ends);
        if (ends)
            d->ends = ends;
        uint32_t *verts = realloc(d->verts, cap * sizeof *verts);
        if (verts)
            d->verts = verts;
        uint32_t *parent = realloc(d->parent, cap * sizeof *parent);
        if (parent)
            d->parent = parent;
        uint8_t *good = realloc(d->good, cap);
        if (good)
            d->good = good;
        if (!ends || !verts || !parent || !good)
            return -1;
        d->cap = cap;
    }
    d->ends[(*nt)++] = cb_planar_origin(p, 2 * e);
    d->ends[(*nt)++] = cb_planar_origin(p, 2 * e + 1);
    return 0;
}

/* Whether every part of the cut whose edges' ends d->ends holds (NT of
 * them, in pairs) reaches the paper border: P's vertices on the cut's
 * edges, joined by them (union-find), each part with one on the border. */
static int ends_reach_border(dual *d, const cb_planar *p, size_t nt)
{
    size_t nv = 0;
    if (nt) {
        memcpy(d->verts, d->ends, nt * sizeof *d->verts);
        qsort(d->verts, nt, sizeof *d->verts, cmp_u32);
        for (size_t i = 0; i < nt; i++)
            if (nv == 0 || d->verts[i] != d->verts[nv - 1])
                d->verts[nv++] = d->verts[i];
    }
    for (uint32_t i = 0; i < nv; i++) {
        d->parent[i] = i;
        d->good[i] = 0;
    }
    for (size_t i = 0; i < nt; i += 2) {
        uint32_t a = cb_uf_find(d->parent, vert_index(d->verts, nv, d->ends[i]));
        uint32_t b = cb_uf_find(d->parent, vert_index(d->verts, nv, d->ends[i + 1]));
        if (a != b)
            d->parent[a > b ? a : b] = a < b ? a : b;
    }
    /* A part reaches the border when one of its vertices lies on it. */
    for (uint32_t i = 0; i < nv; i++)
        if (p->on_border[d->verts[i]])
            d->good[cb_uf_find(d->parent, i)] = 1;
    for (uint32_t i = 0; i < nv; i++)
        if (!d->good[cb_uf_find(d->parent, i)])
            return 0;
    return 1;
}

/* Whether every part of the cut the last search left (the printed edges
 * between reached and unreached pieces) reaches the paper border; -1 when
 * out of memory. */
static int cut_reaches_border(dual *d, const cb_planar *p)
{
    size_t nt = 0;
    /* The cut's edges from the pieces reached: the slots out of them to
     * pieces not reached, each such edge once, from its reached side. */
    for (size_t i = 0; i < d->n_reached; i++)
        for (uint32_t k = d->start[d->reached[i]]; k < d->start[d->reached[i] + 1]; k++)
            if (d->seen[d->to[k]] != d->stamp && add_cut_edge(d, p, d->slot[k] >> 1, &nt) != 0)
                return -1;
    return ends_reach_border(d, p, nt);
}

/* ---- the least cut forced out to the border, border piece by border piece
 *
 * When a start's least cut X0 (the pieces its flow reaches: the least
 * minimum cut) does not reach the border, each border piece f is put in
 * turn on the centre's side, and the least minimum cut X_f of that flow is
 * kept when it reaches the border. Done as it reads, that is a flow across
 * the board per border piece. It costs what the flow to f changes instead,
 * with the same X_f, so the same figure:
 * - X_f lies within X0 (X0 and X_f are least minimum cuts, the latter for
 *   more sinks: uncross them). So a border piece outside X0 gives X_f = X0,
 *   which does not reach the border: skipped; and the flow to the centre
 *   still saturates X0's cut, so the centre's side gets no more flow.
 * - The flow to f starts from the flow to the centre, and the pieces the
 *   sources reach are kept as a tree of edges with room (Boykov and
 *   Kolmogorov's, 2004): one more unit to f runs down the tree's path to
 *   it; a tree edge that fills leaves its piece an orphan, which takes
 *   another parent the sources still reach, or else leaves the tree and
 *   orphans its children; then the tree grows back into any piece left out
 *   that it has room to reach. When f is out of the tree, the tree is
 *   exactly what the sources reach (X_f), and its cut is the least cut's
 *   edges from pieces still in it and the edges into the pieces that left.
 *   The flow and the tree are then put back (a log of what changed).
 * - A flow that reaches the best cut so far stops: it cannot be smaller.
 * - No cut that reaches the border is below a floor found in one search
 *   (odd_walk). A border piece f whose cut X0 less f already is below it
 *   is skipped (X_f is no larger, so it does not reach the border), and
 *   once the best cut is the floor, the rest are.
 * The figure is the same whichever path each unit takes: a maximum flow's
 * value and the pieces its sources reach do not depend on the paths. */

/* Whether half-edge H has room for one more unit from its piece across. */
static int room(const dual *d, uint32_t h)
{
    return d->flow[h >> 1] * (h & 1u ? -1 : 1) < 1;
}

/* Logs piece X's place in the tree (tag 0) or printed edge X's flow (tag
 * 1), to be put back; -1 when out of memory. */
static int log_change(dual *d, uint32_t tag, uint32_t x)
{
    if (d->n_log + 3 > d->log_cap) {
        size_t cap = d->log_cap ? 2 * d->log_cap : 768;
        uint32_t *more = realloc(d->log, cap * sizeof *more);
        if (!more)
            return -1;
        d->log = more;
        d->log_cap = cap;
    }
    d->log[d->n_log++] = tag ? 1u : (uint32_t)d->tstate[x] << 8;
    d->log[d->n_log++] = x;
    d->log[d->n_log++] = tag ? (uint32_t)(d->flow[x] + 1) : d->tpar[x];
    return 0;
}

/* Puts back every change logged; the pushed list to its length N_PUSHED. */
static void undo_changes(dual *d, size_t n_pushed)
{
    while (d->n_log > 0) {
        d->n_log -= 3;
        uint32_t x = d->log[d->n_log + 1], v = d->log[d->n_log + 2];
        if (d->log[d->n_log] == 1) {
            d->flow[x] = (int8_t)((int)v - 1);
        } else {
            d->tstate[x] = (uint8_t)(d->log[d->n_log] >> 8);
            d->tpar[x] = v;
        }
    }
    if (!d->reset_all)
        d->n_pushed = n_pushed;
}

/* The tree of what the N_SRC pieces SRC reach, breadth first (the queue
 * d->queue), and the least cut's half-edges out of it; -1 when out of
 * memory. */
static int tree_init(dual *d, const uint32_t *src, size_t n_src)
{
    size_t nf = d->nf;
    if (!d->tpar) {
        d->tpar = malloc(nf * sizeof *d->tpar);
        d->tstate = malloc(nf);
        d->queued = calloc(nf, 1);
        d->rooted = calloc(nf, sizeof *d->rooted);
        d->orphans = malloc(nf * sizeof *d->orphans);
        d->grow = malloc(nf * sizeof *d->grow);
        if (!d->tpar || !d->tstate || !d->queued || !d->rooted || !d->orphans || !d->grow)
            return -1;
    }
    memset(d->tstate, T_OUT, nf);
    size_t n = 0;
    for (size_t i = 0; i < n_src; i++)
        if (d->tstate[src[i]] == T_OUT) {
            d->tstate[src[i]] = T_TREE;
            d->tpar[src[i]] = UINT32_MAX;
            d->queue[n++] = src[i];
        }
    for (size_t i = 0; i < n; i++)
        for (uint32_t k = d->start[d->queue[i]]; k < d->start[d->queue[i] + 1]; k++) {
            uint32_t h = d->slot[k], y = d->to[k];
            if (d->tstate[y] == T_OUT && room(d, h)) {
                d->tstate[y] = T_TREE;
                d->tpar[y] = h;
                d->queue[n++] = y;
            }
        }
    /* The cut: the edges out of the tree (as many as the flow's value:
     * each is full, or the tree would go on). */
    size_t nr = 0;
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1) {
            free(d->ring);
            d->ring = malloc((nr ? nr : 1) * sizeof *d->ring);
            if (!d->ring)
                return -1;
        }
        nr = 0;
        for (size_t i = 0; i < n; i++)
            for (uint32_t k = d->start[d->queue[i]]; k < d->start[d->queue[i] + 1]; k++)
                if (d->tstate[d->to[k]] == T_OUT) {
                    if (pass == 1)
                        d->ring[nr] = d->slot[k];
                    nr++;
                }
    }
    d->n_ring = nr;
    return 0;
}

/* Whether tree piece X still hangs from a source (no orphan above it);
 * what it passes is marked so for the rest of this repair. */
static int is_rooted(dual *d, uint32_t x)
{
    uint32_t y = x;
    for (;;) {
        if (d->rooted[y] == d->repair || d->tpar[y] == UINT32_MAX)
            break;
        if (d->tstate[y] != T_TREE)
            return 0;
        y = d->face[d->tpar[y]];
    }
    for (; x != y; x = d->face[d->tpar[x]])
        d->rooted[x] = d->repair;
    return 1;
}

/* Marks tree piece X an orphan (the N_ORPH listed); -1 when out of memory. */
static int orphan(dual *d, uint32_t x, size_t *n_orph)
{
    if (log_change(d, 0, x) != 0)
        return -1;
    d->tstate[x] = T_ORPHAN;
    d->orphans[(*n_orph)++] = x;
    return 0;
}

/* Adds piece X to the ring of pieces to grow from (head *G0, *NG in it). */
static void to_grow(dual *d, uint32_t x, size_t g0, size_t *ng)
{
    if (d->queued[x])
        return;
    d->queued[x] = 1;
    d->grow[(g0 + (*ng)++) % d->nf] = x;
}

/* After a unit down the tree: the N_ORPH orphans adopted or dropped, then
 * the tree grown back into what it can reach; -1 when out of memory. */
static int repair_tree(dual *d, size_t n_orph)
{
    d->repair++;
    size_t g0 = 0, ng = 0;
    for (size_t i = 0; i < n_orph; i++) {
        uint32_t o = d->orphans[i], par = UINT32_MAX;
        for (uint32_t k = d->start[o]; k < d->start[o + 1] && par == UINT32_MAX; k++) {
            uint32_t h = d->slot[k] ^ 1u; /* from the piece across into o */
            if (d->tstate[d->to[k]] == T_TREE && room(d, h) && is_rooted(d, d->to[k]))
                par = h;
        }
        if (log_change(d, 0, o) != 0)
            return -1;
        if (par != UINT32_MAX) {
            d->tstate[o] = T_TREE;
            d->tpar[o] = par;
            continue;
        }
        d->tstate[o] = T_FREE;
        for (uint32_t k = d->start[o]; k < d->start[o + 1]; k++) {
            uint32_t h = d->slot[k], q = d->to[k];
            if (d->tstate[q] == T_TREE && d->tpar[q] == h && orphan(d, q, &n_orph) != 0)
                return -1;
            if ((d->tstate[q] == T_TREE || d->tstate[q] == T_ORPHAN) && room(d, h ^ 1u))
                to_grow(d, q, g0, &ng);
        }
    }
    while (ng > 0) {
        uint32_t x = d->grow[g0];
        g0 = (g0 + 1) % d->nf;
        ng--;
        d->queued[x] = 0;
        if (d->tstate[x] != T_TREE)
            continue;
        for (uint32_t k = d->start[x]; k < d->start[x + 1]; k++) {
            uint32_t h = d->slot[k], y = d->to[k];
            if (d->tstate[y] != T_FREE || !room(d, h))
                continue;
            if (log_change(d, 0, y) != 0)
                return -1;
            d->tstate[y] = T_TREE;
            d->tpar[y] = h;
            to_grow(d, y, g0, &ng);
        }
    }
    return 0;
}

/* The flow from the tree's sources to border piece F (a tree piece) on top
 * of the flow to the centre (value V): its value, or CAP as soon as it
 * reaches CAP (when CAP >= 0); -2 when out of memory. */
static int flow_to_piece(dual *d, uint32_t f, int v, int cap)
{
    while (d->tstate[f] == T_TREE) {
        if (cap >= 0 && v >= cap)
            return cap;
        size_t n_orph = 0;
        for (uint32_t y = f; d->tpar[y] != UINT32_MAX; y = d->face[d->tpar[y]]) {
            uint32_t h = d->tpar[y];
            if (log_change(d, 1, h >> 1) != 0)
                return -2;
            push_flow(d, h);
            if (!room(d, h) && orphan(d, y, &n_orph) != 0)
                return -2;
        }
        /* Nearest the sources first: once one takes a parent, the pieces
         * below it are rooted again for the next ones to hang from. */
        for (size_t i = 0; i < n_orph / 2; i++) {
            uint32_t t = d->orphans[i];
            d->orphans[i] = d->orphans[n_orph - 1 - i];
            d->orphans[n_orph - 1 - i] = t;
        }
        v++;
        if (repair_tree(d, n_orph) != 0)
            return -2;
    }
    return v;
}

/* Whether the cut of the tree as it is reaches the border: the least
 * cut's edges from pieces still in the tree, and the edges from the tree
 * into the pieces that left it (logged); -1 when out of memory. */
static int tree_cut_reaches_border(dual *d, const cb_planar *p)
{
    size_t nt = 0;
    for (size_t i = 0; i < d->n_ring; i++)
        if (d->tstate[d->face[d->ring[i]]] == T_TREE &&
            add_cut_edge(d, p, d->ring[i] >> 1, &nt) != 0)
            return -1;
    for (size_t i = 0; i < d->n_log; i += 3) {
        uint32_t x = d->log[i + 1];
        if (d->log[i] == 1 || d->tstate[x] != T_FREE || d->queued[x])
            continue;
        d->queued[x] = 1; /* once each (cleared below) */
        for (uint32_t k = d->start[x]; k < d->start[x + 1]; k++)
            if (d->tstate[d->to[k]] == T_TREE && add_cut_edge(d, p, d->slot[k] >> 1, &nt) != 0)
                return -1;
    }
    for (size_t i = 0; i < d->n_log; i += 3)
        if (d->log[i] != 1)
            d->queued[d->log[i + 1]] = 0;
    return ends_reach_border(d, p, nt);
}

/* A floor under every cut that reaches the border: the fewest printed
 * edges (between two pieces) on a walk from a border node to a border node
 * that crosses a dual path from the N_SRC pieces SRC to the centre's
 * (d->side 2) an odd number of times; INT_MAX when there is no such walk,
 * -2 when out of memory. A cut K parts the start from the centre, so the
 * dual path crosses it an odd number of times; when each part of K reaches
 * the border, K with the border drawn together to one node is connected
 * and every node has even degree in it (the pieces round a node alternate
 * sides at its cut edges, and the outside is on no side), so an Euler tour
 * of it from the border, split where it comes back to the border, is walks
 * from the border to the border, one of them crossing the path an odd
 * number of times: K has at least as many edges as that walk. Breadth
 * first over (node, parity) from every border node. */
static int odd_walk(dual *d, const cb_planar *p, const uint32_t *src, size_t n_src)
{
    size_t nv = p->n_nodes, m = d->m;
    if (!d->vstart) {
        d->vstart = calloc(nv + 1, sizeof *d->vstart);
        d->crossed = calloc(m + 1, 1);
        d->wdist = malloc((2 * nv + 1) * sizeof *d->wdist);
        d->wqueue = malloc((2 * nv + 1) * sizeof *d->wqueue);
        if (!d->vstart || !d->crossed || !d->wdist || !d->wqueue)
            return -2;
        size_t ne = 0;
        for (uint32_t e = 0; e < m; e++)
            if (d->face[2 * e] != d->face[2 * e + 1] && d->face[2 * e] && d->face[2 * e + 1]) {
                d->vstart[cb_planar_origin(p, 2 * e) + 1]++;
                d->vstart[cb_planar_origin(p, 2 * e + 1) + 1]++;
                ne += 2;
            }
        for (size_t v = 0; v < nv; v++)
            d->vstart[v + 1] += d->vstart[v];
        d->vedge = malloc((ne ? ne : 1) * sizeof *d->vedge);
        if (!d->vedge)
            return -2;
        for (uint32_t e = 0; e < m; e++)
            if (d->face[2 * e] != d->face[2 * e + 1] && d->face[2 * e] && d->face[2 * e + 1]) {
                d->vedge[d->vstart[cb_planar_origin(p, 2 * e)]++] = e;
                d->vedge[d->vstart[cb_planar_origin(p, 2 * e + 1)]++] = e;
            }
        for (size_t v = nv; v > 0; v--)
            d->vstart[v] = d->vstart[v - 1];
        d->vstart[0] = 0;
    }
    /* A dual path from the start's pieces to the centre's, breadth first. */
    uint32_t mark = ++d->stamp, sink = UINT32_MAX;
    size_t n = 0;
    for (size_t i = 0; i < n_src; i++)
        if (d->seen[src[i]] != mark) {
            d->seen[src[i]] = mark;
            d->prev[src[i]] = UINT32_MAX;
            d->queue[n++] = src[i];
        }
    for (size_t i = 0; i < n && sink == UINT32_MAX; i++)
        for (uint32_t k = d->start[d->queue[i]]; k < d->start[d->queue[i] + 1]; k++) {
            uint32_t y = d->to[k];
            if (d->seen[y] == mark)
                continue;
            d->seen[y] = mark;
            d->prev[y] = k;
            if (d->side[y] == 2) {
                sink = y;
                break;
            }
            d->queue[n++] = y;
        }
    if (sink == UINT32_MAX)
        return INT_MAX; /* (the flow found a way, so not so) */
    for (uint32_t g = sink; d->prev[g] != UINT32_MAX; g = d->face[d->slot[d->prev[g]]])
        d->crossed[d->slot[d->prev[g]] >> 1] ^= 1;
    memset(d->wdist, 0xff, 2 * nv * sizeof *d->wdist);
    size_t head = 0, tail = 0;
    int found = INT_MAX;
    for (uint32_t v = 0; v < nv; v++)
        if (p->on_border[v]) {
            d->wdist[2 * v] = 0;
            d->wqueue[tail++] = 2 * v;
        }
    while (head < tail && found == INT_MAX) {
        uint32_t st = d->wqueue[head++], v = st >> 1;
        for (uint32_t k = d->vstart[v]; k < d->vstart[v + 1]; k++) {
            uint32_t e = d->vedge[k];
            uint32_t w = cb_planar_origin(p, 2 * e) ^ cb_planar_origin(p, 2 * e + 1) ^ v;
            uint32_t t = 2 * w + ((st & 1u) ^ d->crossed[e]);
            if (d->wdist[t] != UINT32_MAX)
                continue;
            d->wdist[t] = d->wdist[st] + 1;
            if ((t & 1u) && p->on_border[w]) {
                found = (int)d->wdist[t];
                break;
            }
            d->wqueue[tail++] = t;
        }
    }
    for (uint32_t g = sink; d->prev[g] != UINT32_MAX; g = d->face[d->slot[d->prev[g]]])
        d->crossed[d->slot[d->prev[g]] >> 1] = 0;
    return found;
}

/* The smallest cut reaching the border among the least minimum cuts with
 * each border piece in turn on the centre's side (see above), when the
 * flow just found from the N_SRC pieces SRC (value V) does not reach it;
 * -1 when none does, -2 when out of memory. */
static int by_border_piece(dual *d, const cb_planar *p, const uint32_t *src, size_t n_src,
                           int v)
{
    if (tree_init(d, src, n_src) != 0)
        return -2;
    int floor = odd_walk(d, p, src, n_src);
    if (floor < 0)
        return -2;
    size_t n_pushed = d->n_pushed;
    int best = -1;
    for (size_t i = 0; i < d->n_border_faces && floor < INT_MAX; i++) {
        uint32_t f = d->border_faces[i];
        if (d->side[f] || d->tstate[f] != T_TREE)
            continue;
        if (best == floor)
            break; /* no cut that reaches the border is smaller */
        /* X0 less f is a cut with f on the centre's side: f's cut is no
         * larger, and when that is below the floor, it does not reach. */
        int u = v;
        for (uint32_t k = d->start[f]; k < d->start[f + 1]; k++)
            u += d->to[k] == f ? 0 : d->tstate[d->to[k]] == T_TREE ? 1 : -1;
        if (u < floor)
            continue;
        int w = flow_to_piece(d, f, v, best);
        int reaches = w >= 0 && (best < 0 || w < best) ? tree_cut_reaches_border(d, p) : 0;
        undo_changes(d, n_pushed);
        if (w == -2 || reaches < 0)
            return -2;
        if (reaches)
            best = w;
    }
    return best;
}

/* The shortest cut separating the N_S pieces S_FACES (around a start) from
 * the N_C pieces C_FACES (around the centre; see the top); -2 when out of
 * memory. */
static int cut_between(dual *d, const cb_planar *p, const uint32_t *s_faces, size_t n_s,
                        const uint32_t *c_faces, size_t n_c)
{
    for (size_t i = 0; i < n_s; i++)
        d->side[s_faces[i]] = 1;
    int separable = n_c > 0;
    for (size_t i = 0; i < n_c; i++) {
        if (d->side[c_faces[i]] == 1)
            separable = 0;
        d->side[c_faces[i]] = 2;
    }
    if (!separable)
        return -1;
    int best = max_flow(d, s_faces, n_s);
    int reaches = cut_reaches_border(d, p);
    if (reaches != 0)
        return reaches < 0 ? -2 : best;
    if (!d->reference)
        return by_border_piece(d, p, s_faces, n_s, best);
    best = -1;
    for (size_t i = 0; i < d->n_border_faces; i++) {
        uint32_t f = d->border_faces[i];
        if (d->side[f])
            continue;
        d->side[f] = 2;
        int v = max_flow(d, s_faces, n_s);
        if (best < 0 || v < best) {
            reaches = cut_reaches_border(d, p);
            if (reaches < 0)
                return -2;
            if (reaches)
                best = v;
        }
        d->side[f] = 0;
    }
    return best;
}

/* The shortest cut separating the N_S pieces S_FACES (around a start) from
 * the N_C pieces C_FACES (around the centre; see the top); -2 when out of
 * memory. The sides it marks are cleared after, one by one: a board has a
 * cut for each start, and each costs what its flows reach. */
static int shortest_cut(dual *d, const cb_planar *p, const uint32_t *s_faces, size_t n_s,
                        const uint32_t *c_faces, size_t n_c)
{
    int cut = cut_between(d, p, s_faces, n_s, c_faces, n_c);
    for (size_t i = 0; i < n_s; i++)
        d->side[s_faces[i]] = 0;
    for (size_t i = 0; i < n_c; i++)
        d->side[c_faces[i]] = 0;
    return cut;
}

/* The pieces around each start (in node order) and then the centre, listed
 * one after another: AROUND[k] .. AROUND[k + 1] in FACES. */
static int faces_around(const cb_board *b, const cb_planar *p, size_t n_starts,
                        uint32_t **faces, size_t **around)
{
    size_t total = 0;
    *faces = NULL;
    *around = calloc(n_starts + 2, sizeof **around);
    if (!*around)
        return -1;
    /* Room: each vertex's degree + 1. */
    for (uint32_t v = 0; v < b->n_nodes; v++) {
        int centre = v == b->center;
        if (b->nodes[v].kind != CB_KIND_START && !centre)
            continue;
        size_t deg = 0;
        uint32_t h0 = p->first_out[v], h = h0;
        if (h0 != UINT32_MAX)
            do {
                deg++;
                h = p->next[h ^ 1u];
            } while (h != h0);
        total += deg + 1;
    }
    *faces = malloc((total ? total : 1) * sizeof **faces);
    if (!*faces)
        return -1;
    size_t k = 0, at = 0;
    for (uint32_t v = 0; v < b->n_nodes; v++)
        if (b->nodes[v].kind == CB_KIND_START) {
            at += cb_planar_vertex_faces(p, v, *faces + at);
            (*around)[++k] = at;
        }
    if (b->center < b->n_nodes)
        at += cb_planar_vertex_faces(p, b->center, *faces + at);
    (*around)[n_starts + 1] = at;
    return 0;
}

static cb_status shortest_cuts(const cb_board *b, int reference, int **cuts, size_t *n_starts,
                               cb_error *err)
{
    *cuts = NULL;
    *n_starts = 0;
    cb_planar p;
    cb_status st = cb_planar_build(&p, b, err);
    if (st != CB_OK)
        return st;
    size_t n = 0;
    for (size_t v = 0; v < b->n_nodes; v++)
        n += b->nodes[v].kind == CB_KIND_START;
    /* The pieces around the starts and the centre are all the flows need
     * of the rotation: the rest of the map goes before the dual is built. */
    uint32_t *faces = NULL;
    size_t *around = NULL;
    int *out = malloc((n ? n : 1) * sizeof *out);
    dual d;
    memset(&d, 0, sizeof d);
    int ok = out && faces_around(b, &p, n, &faces, &around) == 0;
    if (ok)
        cb_planar_keep_faces(&p);
    ok = ok && dual_init(&d, &p) == 0;
    d.reference = reference;
    if (ok && b->center < b->n_nodes) {
        d.cx = b->nodes[b->center].x;
        d.cy = b->nodes[b->center].y;
    }
    for (size_t k = 0; ok && k < n; k++) {
        out[k] = b->center < b->n_nodes && k < CB_VERDICT_STARTS
                 ? shortest_cut(&d, &p, faces + around[k], around[k + 1] - around[k],
                                faces + around[n], around[n + 1] - around[n])
                 : -1;
        ok = out[k] != -2;
    }
    dual_free(&d);
    free(faces);
    free(around);
    cb_planar_free(&p);
    if (!ok) {
        free(out);
        return cb_fail(err, CB_ERR_NOMEM, "out of memory measuring cuts");
    }
    *cuts = out;
    *n_starts = n;
    return CB_OK;
}

cb_status cb_board_shortest_cuts(const cb_board *b, int **cuts, size_t *n_starts, cb_error *err)
{
    return shortest_cuts(b, 0, cuts, n_starts, err);
}

cb_status cb_planar_shortest_cuts_reference(const cb_board *b, int **cuts, size_t *n_starts,
                                            cb_error *err)
{
    return shortest_cuts(b, 1, cuts, n_starts, err);
}

/* ---- cut simulation ------------------------------------------------------ */

void cb_cut_result_free(cb_cut_result *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->n_fallen; i++)
        free(r->fallen[i].nodes);
    free(r->fallen);
    free(r->lost);
    free(r->new_id);
    cb_board_free(r->remaining);
    free(r);
}

typedef struct {
    uint32_t key;   /* smallest node of the piece, or n + its root face */
    uint32_t root;
} piece_key;

static int cmp_piece(const void *x, const void *y)
{
    const piece_key *a = x, *b = y;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return (a->root > b->root) - (a->root < b->root);
}

/* Marks the edges of PATHS in CUT; a bad path is CB_ERR_USAGE. */
static cb_status mark_cuts(const cb_board *b, const cb_planar *p, const cb_graph *g,
                           const cb_cut_path *paths, size_t n_paths, uint8_t *cut,
                           uint8_t *on_cut, cb_error *err)
{
    for (size_t k = 0; k < n_paths; k++) {
        const cb_cut_path *path = &paths[k];
        if (path->n < 2)
            return cb_fail_option(err, "path", "cut %zu has %zu node%s; a cut needs at "
                           "least two", k + 1, path->n, path->n == 1 ? "" : "s");
        for (size_t i = 0; i < path->n; i++)
            if (path->nodes[i] >= b->n_nodes)
                return cb_fail_option(err, "path", "node %u does not exist (the board "
                               "has %zu nodes)", path->nodes[i], b->n_nodes);
        uint32_t first = path->nodes[0];
        if (!p->on_border[first] && !on_cut[first])
            return cb_fail_option(err, "path", "the cut starts at node %u, which is "
                           "neither on the paper border nor on an earlier cut", first);
        for (size_t i = 0; i + 1 < path->n; i++) {
            uint32_t u = path->nodes[i], w = path->nodes[i + 1];
            uint32_t e = UINT32_MAX;
            for (uint32_t s = g->start[u]; s < g->start[u + 1]; s++)
                if (g->adj[s] == w)
                    e = g->eid[s];
            if (e == UINT32_MAX)
                return cb_fail_option(err, "path", "nodes %u and %u are not joined "
                               "by an edge", u, w);
            cut[e] = 1;
            on_cut[u] = on_cut[w] = 1;
        }
    }
    return CB_OK;
}

/* The remaining board: nodes that keep paper, edges with paper beside them. */
static cb_board *remaining_board(const cb_board *b, const cb_planar *p, const uint32_t *cls,
                                 uint32_t main_cls, const uint8_t *lost, uint32_t *new_id)
{
    cb_board *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    *r = *b;
    r->seed = NULL;
    r->nodes = NULL;
    r->edges = NULL;
    r->dot_xy = NULL;
    r->n_nodes = r->n_edges = r->n_dot_xy = 0;
    r->seed = strdup(b->seed ? b->seed : "");
    r->nodes = malloc((b->n_nodes ? b->n_nodes : 1) * sizeof *r->nodes);
    r->edges = malloc((b->n_edges ? b->n_edges : 1) * sizeof *r->edges);
    if (b->dot_xy && b->n_dot_xy)
        r->dot_xy = malloc(b->n_dot_xy * sizeof *r->dot_xy);
    if (!r->seed || !r->nodes || !r->edges || (b->dot_xy && b->n_dot_xy && !r->dot_xy)) {
        cb_board_free(r);
        return NULL;
    }
    for (uint32_t v = 0; v < b->n_nodes; v++) {
        new_id[v] = lost[v] ? UINT32_MAX : (uint32_t)r->n_nodes;
        if (lost[v])
            continue;
        cb_node nd = b->nodes[v];
        if (r->dot_xy) {
            uint32_t first = (uint32_t)r->n_dot_xy;
            for (int k = 0; k < nd.dots && nd.first_dot + (uint32_t)k < b->n_dot_xy; k++) {
                r->dot_xy[r->n_dot_xy][0] = b->dot_xy[nd.first_dot + (uint32_t)k][0];
                r->dot_xy[r->n_dot_xy][1] = b->dot_xy[nd.first_dot + (uint32_t)k][1];
                r->n_dot_xy++;
            }
            nd.first_dot = first;
        }
        r->nodes[r->n_nodes++] = nd;
    }
    for (size_t e = 0; e < b->n_edges; e++) {
        uint32_t f = p->face[2 * e], g = p->face[2 * e + 1];
        int paper = (f && cls[f] == main_cls) || (g && cls[g] == main_cls);
        uint32_t a = new_id[b->edges[e].a], c = new_id[b->edges[e].b];
        if (!paper || a == UINT32_MAX || c == UINT32_MAX)
            continue;
        r->edges[r->n_edges].a = a < c ? a : c;
        r->edges[r->n_edges].b = a < c ? c : a;
        r->n_edges++;
    }
    r->center = b->center < b->n_nodes && new_id[b->center] != UINT32_MAX
                ? new_id[b->center] : 0;
    return r;
}

cb_status cb_board_cut(const cb_board *b, const cb_cut_path *paths, size_t n_paths,
                       cb_cut_result **out, cb_error *err)
{
    *out = NULL;
    if (b->center >= b->n_nodes)
        return cb_fail(err, CB_ERR_DATA, "the centre (node %u) does not exist", b->center);
    cb_graph g;
    cb_status st = cb_graph_build(&g, b, err);
    if (st != CB_OK)
        return st;
    cb_planar p;
    st = cb_planar_build(&p, b, err);
    if (st != CB_OK) {
        cb_graph_free(&g);
        return st;
    }
    size_t n = b->n_nodes, nf = p.n_faces;
    uint8_t *cut = calloc(b->n_edges + 1, 1), *on_cut = calloc(n, 1), *lost = calloc(n, 1);
    uint32_t *cls = malloc(nf * sizeof *cls);
    double *cls_area = calloc(nf, sizeof *cls_area);
    uint32_t *vf = malloc((2 * b->n_edges + 8) * sizeof *vf);
    uint32_t *count = calloc(nf, sizeof *count), *minnode = malloc(nf * sizeof *minnode);
    cb_cut_result *r = calloc(1, sizeof *r);
    if (!cut || !on_cut || !lost || !cls || !cls_area || !vf || !count || !minnode || !r ||
        !(r->new_id = malloc((n ? n : 1) * sizeof *r->new_id))) {
        st = cb_fail(err, CB_ERR_NOMEM, "out of memory simulating the cut");
        goto done;
    }
    st = mark_cuts(b, &p, &g, paths, n_paths, cut, on_cut, err);
    if (st != CB_OK)
        goto done;
    /* Pieces joined across uncut printed edges. */
    for (uint32_t f = 0; f < nf; f++)
        cls[f] = f;
    for (size_t e = 0; e < b->n_edges; e++) {
        uint32_t f = p.face[2 * e], h = p.face[2 * e + 1];
        if (cut[e] || !f || !h)
            continue;
        uint32_t x = cb_uf_find(cls, f), y = cb_uf_find(cls, h);
        if (x != y)
            cls[x > y ? x : y] = x < y ? x : y;
    }
    for (uint32_t f = 0; f < nf; f++)
        cls[f] = cb_uf_find(cls, f);
    for (uint32_t f = 1; f < nf; f++)
        cls_area[cls[f]] += p.area[f];
    /* The piece that stays: the largest touching the centre. */
    uint32_t main_cls = UINT32_MAX;
    size_t k = cb_planar_vertex_faces(&p, b->center, vf);
    for (size_t i = 0; i < k; i++) {
        uint32_t c = cls[vf[i]];
        if (main_cls == UINT32_MAX || cls_area[c] > cls_area[main_cls] ||
            (cls_area[c] == cls_area[main_cls] && c < main_cls))
            main_cls = c;
    }
    r->remaining_area = main_cls == UINT32_MAX ? 0 : cls_area[main_cls];
    /* Nodes per fallen piece; a node is lost when no piece it touches stays. */
    for (uint32_t f = 0; f < nf; f++)
        minnode[f] = UINT32_MAX;
    for (uint32_t v = 0; v < n; v++) {
        k = cb_planar_vertex_faces(&p, v, vf);
        int keeps = 0;
        for (size_t i = 0; i < k; i++) {
            uint32_t c = cls[vf[i]];
            keeps |= c == main_cls;
            int dup = 0;
            for (size_t j = 0; j < i; j++)
                dup |= cls[vf[j]] == c;
            if (dup || c == main_cls)
                continue;
            count[c]++;
            if (minnode[c] == UINT32_MAX)
                minnode[c] = v;
        }
        lost[v] = k > 0 && !keeps;
        r->n_lost += lost[v];
    }
    size_t n_pieces = 0;
    for (uint32_t f = 1; f < nf; f++)
        n_pieces += cls[f] == f && f != main_cls;
    piece_key *order = malloc((n_pieces ? n_pieces : 1) * sizeof *order);
    r->fallen = calloc(n_pieces ? n_pieces : 1, sizeof *r->fallen);
    r->lost = malloc((r->n_lost ? r->n_lost : 1) * sizeof *r->lost);
    if (!order || !r->fallen || !r->lost) {
        free(order);
        st = cb_fail(err, CB_ERR_NOMEM, "out of memory simulating the cut");
        goto done;
    }
    size_t np = 0;
    for (uint32_t f = 1; f < nf; f++)
        if (cls[f] == f && f != main_cls) {
            order[np].key = minnode[f] != UINT32_MAX ? minnode[f] : (uint32_t)(n + f);
            order[np++].root = f;
        }
    qsort(order, np, sizeof *order, cmp_piece);
    for (size_t i = 0; i < np; i++) {
        uint32_t c = order[i].root;
        r->fallen[i].area = cls_area[c];
        r->fallen[i].nodes = malloc((count[c] ? count[c] : 1) * sizeof(uint32_t));
        if (!r->fallen[i].nodes) {
            r->n_fallen = i;
            free(order);
            st = cb_fail(err, CB_ERR_NOMEM, "out of memory simulating the cut");
            goto done;
        }
        count[c] = (uint32_t)i; /* from here on: the piece's place in fallen */
    }
    r->n_fallen = np;
    free(order);
    size_t nl = 0;
    for (uint32_t v = 0; v < n; v++) {
        k = cb_planar_vertex_faces(&p, v, vf);
        for (size_t i = 0; i < k; i++) {
            uint32_t c = cls[vf[i]];
            int dup = 0;
            for (size_t j = 0; j < i; j++)
                dup |= cls[vf[j]] == c;
            if (!dup && c != main_cls) {
                cb_piece *pc = &r->fallen[count[c]];
                pc->nodes[pc->n_nodes++] = v;
            }
        }
        if (lost[v])
            r->lost[nl++] = v;
    }
    r->remaining = remaining_board(b, &p, cls, main_cls, lost, r->new_id);
    if (!r->remaining)
        st = cb_fail(err, CB_ERR_NOMEM, "out of memory simulating the cut");
done:
    free(cut); free(on_cut); free(lost); free(cls); free(cls_area); free(vf);
    free(count); free(minnode);
    cb_planar_free(&p);
    cb_graph_free(&g);
    if (st != CB_OK) {
        cb_cut_result_free(r);
        return st;
    }
    *out = r;
    return CB_OK;
}
