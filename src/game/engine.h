/* src/game/: the rules engine and the agents that play it. May include:
 * base/, planar/, board/, io/. */
/* The rules engine: a game of a cutboard-theme/3 theme played on a
 * generated game's sheets, exactly as the printed rules page says.
 *
 * A game (gm_game) is what does not change while it is played: each sheet's
 * nodes, edges and pieces of paper (faces of the planar drawing, see
 * planar/halfedge.h), the players' seats, starts and missions, and the
 * theme's effects. A state (gm_state) is everything that does: tokens,
 * filled dots, cut, guarded and mended edges, the paper still joined to the
 * summit, whose turn it is. A state is one block of memory, so a look-ahead
 * copies it whole (gm_state_copy).
 *
 * A turn asks its player's agent for each choice the rules leave open
 * (where to move, whether to use a node, which edge to cut next...); the
 * engine lists the legal options and applies the one chosen, so an agent
 * can never break a rule. */
#ifndef CB_GM_ENGINE_H
#define CB_GM_ENGINE_H

#include <stdint.h>

#include "base/rng.h"
#include "cutboard.h"
#include "planar/halfedge.h"

#define GM_MAX_PLAYERS CB_PLAYERS_MAX
#define GM_NONE UINT32_MAX

/* One sheet's fixed picture. */
typedef struct {
    const cb_board *board;
    uint32_t n, m, nf, center;
    uint32_t *adj_off;      /* n + 1 offsets into adj_e */
    uint32_t *adj_e;        /* incident edges per node */
    uint32_t *adj_w;        /* beside adj_e: the edge's other end */
    uint32_t (*ends)[2];    /* per edge */
    uint32_t (*eface)[2];   /* the pieces on an edge's two sides (0: outside) */
    uint32_t *vf_off, *vf;  /* the pieces touching each node */
    uint32_t *fe_off, *fe;  /* the edges around each piece */
    double *farea;          /* per piece, mm^2 */
    uint8_t *trim;          /* per node: on the trim line */
    uint8_t *trim_edge;     /* per edge: runs along the trim (outside beside it) */
    int16_t *type;          /* per node: theme type, -1 for starts and the summit */
    uint8_t *dots;          /* per node: power dots */
    int paper_joined;       /* the uncut paper is one piece (as boards are) */
    int paper_nodes;        /* every node has an edge and touches a piece */
    uint32_t starts[CB_VERDICT_STARTS];
    int n_starts;
    uint32_t seat_start[GM_MAX_PLAYERS]; /* the start numbered k + 1, or GM_NONE */
    /* where this sheet's dynamic arrays sit in a state's block */
    size_t off_edge, off_face, off_node, off_dots, off_marks;
} gm_sheet;

/* The choices a turn may ask for. */
typedef enum {
    GM_ASK_MOVE = 0,    /* options: nodes to move to */
    GM_ASK_USE,         /* 0: decline the node's action, 1: take it */
    GM_ASK_TARGET,      /* a step, cross or jump: nodes */
    GM_ASK_SHEET,       /* own sheets: whose sheet a cut goes on (players) */
    GM_ASK_CUT,         /* the next edge of a cut (GM_NONE: stop) */
    GM_ASK_GUARD,       /* the next edge to guard (GM_NONE: stop) */
    GM_ASK_RESTART,     /* where a stranded token goes: nodes */
    GM_ASK_KINDS
} gm_ask;

typedef struct gm_game gm_game;
typedef struct gm_state gm_state;

/* An agent answers a choice with an option's index. CTX is its own;
 * TURN_START (may be NULL) sees the state as each of its turns begins. */
typedef struct {
    int (*choose)(void *ctx, const gm_game *g, gm_state *s, int player, gm_ask ask,
                  const uint32_t *options, int n);
    void (*turn_start)(void *ctx, const gm_game *g, const gm_state *s, int player);
    void *ctx;
} gm_agent;

/* Choices a turn has made so far, and choices to replay: a look-ahead
 * starts again from the turn's beginning with the same choices. */
#define GM_TRACE_MAX 64

/* What one game counted, for the playtest report. */
typedef struct {
    unsigned winners;       /* a bit per seat (1 << seat): players tied at
                               the end share the win */
    int rounds;             /* rounds begun */
    int by_limit;           /* ended at the round limit */
    int pieces;             /* pieces of paper holding a node that fell off */
    int cut_actions;        /* cut actions taken */
    int ever_stranded[GM_MAX_PLAYERS];
    int ever_stuck[GM_MAX_PLAYERS];   /* stranded for want of a walkable edge */
    int mission_done[GM_MAX_PLAYERS]; /* at the end */
    int landings[CB_EFFECT_KINDS];    /* actions a player could take... */
    int legal[CB_EFFECT_KINDS];       /* ...and of those, with a legal effect */
    int used[CB_EFFECT_KINDS];        /* ...and taken */
} gm_tally;

typedef struct {
    int32_t at;             /* node, or -1 stranded (off the paper), -2 out */
    int32_t sheet;          /* the sheet the token walks */
    int32_t camp;           /* node, -1 none */
    int32_t shield;         /* node whose edges may not be cut, -1 none */
    int32_t pieces;         /* pieces holding a node this player cut loose */
    int32_t on_summit;      /* round + 1 when the summit was reached, else 0 */
} gm_player;

struct gm_state {
    gm_player players[GM_MAX_PLAYERS];
    int turn;               /* whose turn: seat */
    int first;              /* who began this round */
    int pos;                /* turns taken in this round */
    int round;              /* rounds begun, 1-based */
    int extra;              /* the player takes another turn */
    int over;               /* the game has ended */
    uint32_t paper_version[GM_MAX_PLAYERS]; /* per sheet, bumped when it changes */
    uint8_t paper_joined[GM_MAX_PLAYERS]; /* per sheet: its paper is known to be one
                               piece at most (gm_paper_fall_cut may skip the flood) */
    /* per seat, P's marks on typed nodes still on the paper, kept as marks
     * are made (gm_mark) and paper falls: how many, their types (a bit each,
     * type & 63) and how many an "actions" goal counts */
    int32_t mark_count[GM_MAX_PLAYERS], mark_family[GM_MAX_PLAYERS];
    uint64_t mark_types[GM_MAX_PLAYERS];
    cb_rng rng;             /* the agents' and the engine's chances */
    gm_tally tally;
    int no_cuts;            /* a replay with every cut action declined */
    int16_t trace[GM_TRACE_MAX];
    int n_trace;
    int16_t forced[GM_TRACE_MAX];
    int n_forced, forced_pos;
    uint8_t *mem;           /* the sheets' arrays (gm_sheet offsets) */
    size_t mem_len;
};

struct gm_game {
    const cb_theme *theme;
    cb_play_rules play;
    int players, shared;
    int n_sheets;
    gm_sheet sheets[GM_MAX_PLAYERS];
    int mission[GM_MAX_PLAYERS]; /* per seat */
    cb_goal goal[GM_MAX_PLAYERS]; /* per seat, its count for this game's hops */
    size_t mem_len;
};

/* Edge state bits. */
#define GM_CUT 1u
#define GM_GUARD 2u
#define GM_MEND 4u

/* Builds the fixed picture of GAME for THEME (a /3 theme), with each
 * sheet's plane drawing from PLANES when the generator kept them
 * (cb_game_generate_figures; else NULL: built here). Starts without seat
 * numbers (an older board file) are dealt as the generator deals them.
 * CB_ERR_DATA when the board cannot be played (names the sheet). */
cb_status gm_game_init(gm_game *g, const cb_game *game, const cb_planar *planes,
                       const cb_theme *theme, cb_error *err);
void gm_game_free(gm_game *g);

/* A new state at the start of the game (tokens on their starts, their dots
 * filled), chances from SEED. NULL out of memory. */
gm_state *gm_state_new(const gm_game *g, uint64_t seed);
void gm_state_free(gm_state *s);
/* DST (made by gm_state_new for the same game) becomes a copy of SRC. */
void gm_state_copy(gm_state *dst, const gm_state *src);

/* Boards of at most this many nodes are played (the engine keeps a few
 * arrays of this size on the stack). */
#define GM_MAX_NODES 4096

/* Plays the current player's turn (and whatever it leads to) with AGENTS,
 * one per seat. */
void gm_turn(const gm_game *g, gm_state *s, gm_agent *agents);
/* Plays turns until the game ends. */
void gm_play(const gm_game *g, gm_state *s, gm_agent *agents);

/* The sheet's arrays in state S. */
static inline uint8_t *gm_edges(const gm_game *g, const gm_state *s, int sheet)
{
    return s->mem + g->sheets[sheet].off_edge;
}
static inline uint8_t *gm_faces(const gm_game *g, const gm_state *s, int sheet)
{
    return s->mem + g->sheets[sheet].off_face;
}
static inline uint8_t *gm_nodes(const gm_game *g, const gm_state *s, int sheet)
{
    return s->mem + g->sheets[sheet].off_node;
}
static inline uint8_t *gm_dots(const gm_game *g, const gm_state *s, int sheet)
{
    return s->mem + g->sheets[sheet].off_dots;
}
static inline uint16_t *gm_marks(const gm_game *g, const gm_state *s, int sheet)
{
    return (uint16_t *)(void *)(s->mem + g->sheets[sheet].off_marks);
}

/* Whether edge E of SHEET can be walked: uncut, with paper beside it (the
 * outside, piece 0, never has paper). Inline: agents ask it most. */
static inline int gm_walkable(const gm_game *g, const gm_state *s, int sheet, uint32_t e)
{
    const gm_sheet *sh = &g->sheets[sheet];
    const uint8_t *faces = gm_faces(g, s, sheet);
    return !(gm_edges(g, s, sheet)[e] & GM_CUT) &&
           (faces[sh->eface[e][0]] || faces[sh->eface[e][1]]);
}
/* Whether edge E of SHEET is cut with paper on both sides (a cross may walk
 * and mend it). */
static inline int gm_mendable(const gm_game *g, const gm_state *s, int sheet, uint32_t e)
{
    const gm_sheet *sh = &g->sheets[sheet];
    const uint8_t *faces = gm_faces(g, s, sheet);
    return (gm_edges(g, s, sheet)[e] & GM_CUT) && faces[sh->eface[e][0]] &&
           faces[sh->eface[e][1]];
}
/* Whether edge E of SHEET may be cut now. */
int gm_cuttable(const gm_game *g, const gm_state *s, int sheet, uint32_t e);
/* OK (the sheet's m entries) says for every edge of SHEET whether it may be
 * cut now: gm_cuttable for all at once. */
void gm_cuttable_edges(const gm_game *g, const gm_state *s, int sheet, uint8_t *ok);
/* Whether node V of SHEET is on the paper's edge (a cut may start there). */
int gm_paper_edge(const gm_game *g, const gm_state *s, int sheet, uint32_t v);
/* The other end of edge E from V. */
static inline uint32_t gm_other(const gm_sheet *sh, uint32_t e, uint32_t v)
{
    return sh->ends[e][0] == v ? sh->ends[e][1] : sh->ends[e][0];
}

/* Mission progress of seat P: how many more marks (or pieces) it needs, 0
 * when done. */
int gm_mission_left(const gm_game *g, const gm_state *s, int p);
/* Marks in WANT (n entries) the nodes whose mark would count towards P's
 * mission; returns how many. */
int gm_mission_wanted(const gm_game *g, const gm_state *s, int p, uint8_t *want);
/* The same nodes listed in LIST (room for the sheet's n), in node order. */
int gm_mission_wanted_nodes(const gm_game *g, const gm_state *s, int p, uint32_t *list);
/* Whether P may enter the summit: mission done, or no node P can still
 * reach could finish it. */
int gm_may_enter_summit(const gm_game *g, const gm_state *s, int p);
/* Marks of P still on the paper. */
int gm_marks_of(const gm_game *g, const gm_state *s, int p);

/* Hop counts to the summit of SHEET along walkable edges (DIST: n
 * entries, -1 where none), not passing through the summit. QUEUE has room
 * for n + 1 nodes. */
void gm_dist_to_summit(const gm_game *g, const gm_state *s, int sheet, int *dist,
                       uint32_t *queue);
/* Hop counts from node FROM of SHEET along walkable edges, not through the
 * summit (QUEUE as above). */
void gm_dist_from(const gm_game *g, const gm_state *s, int sheet, uint32_t from, int *dist,
                  uint32_t *queue);

/* A cut's first edges on SHEET, as GM_ASK_CUT lists them: (edge << 1 | k)
 * for a cuttable edge whose end 1 - k is on the paper's edge, the cut
 * running to end k; ANYWHERE: every cuttable edge, k = 1. At most ROOM.
 * CUTTABLE: from gm_cuttable_edges, or NULL to work it out here. */
int gm_first_cut_options(const gm_game *g, const gm_state *s, int sheet, int anywhere,
                         const uint8_t *cuttable, uint32_t *opts, int room);

/* Recomputes which paper is still joined to the summit on SHEET after cuts
 * (what falls off, whose token is stranded, who cut it loose: CUTTER). */
void gm_paper_fall(const gm_game *g, gm_state *s, int sheet, int cutter);
/* gm_paper_fall after cutting the N_CUT edges CUT (and no others since the
 * last gm_paper_fall on SHEET): the same result, but when the paper was one
 * piece and each cut edge's two sides are still joined around it, nothing
 * can fall and the flood over the whole sheet is skipped. */
void gm_paper_fall_cut(const gm_game *g, gm_state *s, int sheet, int cutter,
                       const uint32_t *cut, int n_cut);

/* P fills in a dot of node V on its sheet (V has one P has not filled):
 * one dot fewer, P's mark, and the state's summary of P's marks. */
void gm_mark(const gm_game *g, gm_state *s, int p, uint32_t v);

#endif
