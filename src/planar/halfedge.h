/* src/planar/: the board as a planar drawing: Delaunay triangulation,
 * half-edges and faces, shortest cuts and cut simulation, the contract check
 * (fair.c) and its diagnosis. May include: base/. */
/* A board as a planar subdivision of its paper: the half-edge (winged-edge)
 * structure of the printed edges together with the trim rectangle.
 *
 * The model. The drawing is the board's printed edges plus the boundary of
 * the trim rectangle (the paper the players cut from). Its vertices are the
 * board's nodes (ids 0..n_nodes-1) followed by the trim corners that are not
 * nodes. The boundary is split at every vertex that lies on it (start nodes
 * and other edge nodes, within CB_PLANAR_EPS_MM) into border segments; a
 * printed edge that runs along the trim between two neighbouring border
 * vertices is that border segment (it is not doubled). Its edges are the
 * printed edges followed by the border segments. Its faces are the regions
 * the drawing cuts the plane into: face 0 is the outside of the paper, every
 * other face is a piece of paper bounded by printed edges and the paper
 * border (a component of the drawing that does not reach the border is a hole
 * in the face around it). With V vertices, E edges, F faces (the outside
 * included) and C connected components (an isolated node is one), Euler's
 * formula for a plane drawing is
 *
 *     V - E + F = 1 + C,
 *
 * and the pieces' areas add up to the trim rectangle's. A generated board is
 * connected and touches the border, so C = 1 and V - E + F = 2.
 *
 * Half-edges. Printed edge e = {a, b} gives half-edges 2e (a -> b) and 2e+1
 * (b -> a); border segment k gives 2(m+k) (along the border clockwise on the
 * page, paper on its side) and its twin. The twin of h is h ^ 1; next(h) is
 * the half-edge that follows h around face(h): at h's head, the outgoing
 * half-edge just before twin(h) in increasing page angle. Pieces are traced
 * clockwise on the page (a positive shoelace area with y down).
 *
 * Built in O(n log n): one sort of outgoing half-edges by angle per node and
 * one sort of the border vertices along the perimeter. Holes (components
 * away from the border, isolated nodes) are located by a point-in-polygon
 * test against every piece, O(holes * n); generated boards have none.
 *
 * Memory. The structure keeps what its users read and no more: the places
 * and the printed edges' ends are the board's own (read through
 * cb_planar_xy and cb_planar_origin; the board must outlive the structure
 * and not change), and the rotation is next alone (a vertex's outgoing
 * half-edges are first_out's and those next leads to, see
 * cb_planar_vertex_faces). That is 8 bytes a half-edge (next, face), 5 a
 * vertex and 12 a face, and the build needs no more (the angle sort's
 * lists are freed before the faces are traced), but on boards with holes
 * or isolated nodes: placing them takes another 4 bytes a vertex and 48 a
 * piece for a while. */
#ifndef CB_HALFEDGE_H
#define CB_HALFEDGE_H

#include "cutboard.h"
#include "base/geom.h"

/* How far from the trim line a node still counts as on it (the board file
 * stores 0.01 mm). */
#define CB_PLANAR_EPS_MM 0.01

typedef struct {
    const cb_board *board; /* the nodes' places and the printed edges' ends */
    size_t n_nodes;     /* board nodes: vertices 0..n_nodes-1 */
    size_t n_verts;     /* nodes, then the trim corners that are not nodes */
    cb_point corner[4]; /* places of vertices n_nodes..n_verts-1 */
    uint8_t *on_border; /* per vertex: on the trim line */
    size_t n_printed;   /* board edges: half-edges 0 .. 2*n_printed-1 */
    size_t n_segments;  /* border segments that are not printed edges */
    size_t n_half;      /* 2 * (n_printed + n_segments) */
    uint32_t *seg_end;  /* per border half-edge 2*n_printed + k: its origin */
    uint32_t *next;     /* per half-edge: the next one around its face */
    uint32_t *first_out;/* per vertex: its outgoing half-edge of least page
                           angle, UINT32_MAX for an isolated vertex */
    uint32_t *face;     /* per half-edge: the face on its side */
    size_t n_isolated;
    uint32_t (*isolated)[2]; /* per isolated vertex, by vertex: it and the
                                face it lies in (0: none) */
    size_t n_faces;     /* face 0 is the outside */
    double *area;       /* per face, mm^2 (0 for the outside) */
    uint32_t *face_half;/* per face: a half-edge on its outer boundary */
    size_t n_components;
    int euler_ok;       /* V - E + F == 1 + C and the pieces tile the trim */
} cb_planar;

/* Builds the structure of BOARD, which P reads from until it is freed.
 * CB_ERR_DATA names an edge with a bad node id or a loop, or a node outside
 * the trim rectangle. On failure P is left empty (cb_planar_free is still
 * fine). */
cb_status cb_planar_build(cb_planar *p, const cb_board *board, cb_error *err);
void cb_planar_free(cb_planar *p);
/* Frees all but the faces of the half-edges (face), on_border and what
 * cb_planar_origin reads, for users that need no more: next, first_out,
 * the isolated vertices and the per-face arrays go (NULL), and with them
 * cb_planar_vertex_faces. */
void cb_planar_keep_faces(cb_planar *p);

static inline uint32_t cb_planar_twin(uint32_t h) { return h ^ 1u; }

/* The vertex half-edge H leaves. */
static inline uint32_t cb_planar_origin(const cb_planar *p, uint32_t h)
{
    if (h < 2 * p->n_printed) {
        const cb_edge *e = &p->board->edges[h >> 1];
        return h & 1u ? e->b : e->a;
    }
    return p->seg_end[h - 2 * p->n_printed];
}

/* Where vertex V lies on the page (mm). */
static inline cb_point cb_planar_xy(const cb_planar *p, uint32_t v)
{
    if (v < p->n_nodes) {
        cb_point q = {p->board->nodes[v].x, p->board->nodes[v].y};
        return q;
    }
    return p->corner[v - p->n_nodes];
}

/* The board edge of half-edge H, or -1 for a border segment. */
static inline long cb_planar_edge(const cb_planar *p, uint32_t h)
{
    return h < 2 * p->n_printed ? (long)(h / 2) : -1;
}

/* Lists the pieces (faces other than 0) that touch vertex V into FACES
 * (room for its degree + 1 entries), without repeats, going round V from
 * first_out against the page angle (next of each outgoing half-edge's
 * twin is the outgoing one before it); returns how many. */
size_t cb_planar_vertex_faces(const cb_planar *p, uint32_t v, uint32_t *faces);

/* cb_board_shortest_cuts as the measure first read (src/planar/cut.c):
 * when a start's least cut does not reach the border, a flow from scratch
 * for every border piece, which is quadratic on some dense boards. Tests
 * check that the two agree. */
cb_status cb_planar_shortest_cuts_reference(const cb_board *b, int **cuts, size_t *n_starts,
                                            cb_error *err);

#endif
