/* The board's lifecycle and the generate-and-test loop: each attempt runs
 * place -> connect -> starts, the contract check decides, and a failed
 * candidate is replaced by one from the next derived seed. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "board/deal.h"
#include "board/generate.h"
#include "board/decorate.h"
#include "base/graph.h"
#include "planar/dots_check.h"
#include "planar/fair.h"
#include "base/error.h"
#include "base/utf8.h"
#include "board/lattice.h"
#include "board/pilot.h"
#include "board/work.h"

#define DEFAULT_SPACING_MM 24.5  /* about 88 nodes on A4 landscape */
#define RADIUS_PER_SPACING 0.265
#define RELAX_ITERATIONS 25
/* Connections tried per placement (an attempt is one derived seed: one
 * placement, connected up to this many times); see organic_candidate. A
 * later connection of a placement succeeds less often than the first (in
 * a 300-game deck 52 % of first connections, 46 % of second, 35 % of
 * third, 19-31 % of later ones), so a new placement soon pays better: 3
 * instead of 8 took 2 % less time a deck, at 1.28 attempts a board instead
 * of 1.22 (1,000 A4 seeds). Not at node cap 3: there 3 took 147 attempts a
 * board instead of 110 (300 seeds), and longer. */
#define CONNECT_TRIES 3
#define CAP3_CONNECT_TRIES 8
#define ORGANIC_MIN_SPACING_MM 9.0 /* closer boards are built on the lattice */
/* The most nodes a board may have: the largest paper (5,080 mm, PDF's
 * 14,400 pt) at the closest spacing that keeps the gap between node disks
 * holds about 2.4 million; memory grows linearly, about 215 bytes a node at
 * the peak of the contract check. */
#define MAX_NODES 3000000
/* The largest paper side: PDF's page limit of 14,400 pt. */
#define MAX_PAPER_MM 5080.0

/* At node cap 3 pieces are large and few edges can be added: a sheet's cuts
 * reach one band {c, c+1} (the game's) in about 1 candidate of 25, so a
 * sheet gets 5 times the attempts (measured over 300 games: 25.5 attempts
 * a sheet, at most 305; see doc/manual.md, "How fairness is guaranteed"). */
#define CAP3_ATTEMPTS 5
/* Nor does node cap 3 find fair starts on small boards: none in 1,000
 * attempts at 69 nodes (a 260x200 mm paper: 1 seed of 4), every seed at 73. */
#define CAP3_MIN_NODES 72
/* How often a game may start again from its first sheet's next candidate
 * when a later sheet cannot fit the first's bands (see cb_game_generate). */
#define GAME_RESTARTS 4

/* The bands a sheet must fit: its starts' hops in {L, L+1} for some L in
 * hop_min..hop_max, their shortest cuts in {c, .., c + spread} for some c
 * in cut_min..cut_max. A game's later sheets get the first's. */
typedef struct {
    int hop_min, hop_max, cut_min, cut_max;
} bands;

/* What a sheet got: its starts' hops and shortest cuts (cut_lo -1: not
 * measured, on the lattice, where every cut is 4 by construction), and
 * when KEEP_HOPS asks for them each node's hops from the centre as the
 * check counted them (malloc'd; the deal and the deck need them again);
 * when PLANE is not NULL, the plane drawing the check built (a game played
 * on the board needs it again). */
typedef struct {
    int hop_lo, hop_hi, cut_lo, cut_hi;
    int keep_hops;
    int *hops;
    cb_planar *plane;
} sheet_figures;

static const bands any_band = {0, CB_BAND_ANY, CB_CUT_MIN, CB_BAND_ANY};

void cb_spec_defaults(cb_spec *spec)
{
    memset(spec, 0, sizeof *spec);
    spec->seed = "cutboard";
    spec->players = 4;
    spec->page_w = 297;
    spec->page_h = 210;
    spec->margin = 12; /* edge nodes reach 6.5 mm past the trim line */
    spec->start_cap = 2;
    spec->node_cap = 4;
    spec->max_attempts = 200;
}

/* The default spacing adapts where the paper needs it: a shared board
 * gets more nodes for more players, but not so close that its triangles
 * fall under the least piece of paper (at 16 mm apart most shared
 * 9-player A3 boards had one); a small paper (A5) gets closer nodes, so
 * that 3 starts a side and their neighbours fit across its shorter side. */
#define SHARED_MIN_SPACING_MM 18.0
/* Organic boards with power dots need their nodes this far apart to meet
 * the scissors clauses (A4, 40 seeds a spacing: 31-33 boards at 17-18 mm
 * in one attempt, 12 at 16 mm, 1 at 15 mm; a square 140 mm paper none at
 * 17.2 mm): closer, their dots, starts and pieces no longer fit. Boards
 * without dots (nodes under about 12 mm apart) are not held to them. */
#define CUT_MIN_SPACING_MM 18.0
#define SHORT_SIDE_SPACINGS 6.75
/* Nor do fewer nodes than this find 12 fair starts, whatever the shape: at
 * 24.5 mm apart, 51-60 nodes (200x180 and 230x180 mm papers) found them in
 * 2 candidates of 60, squares of 67 nodes in 15 of 40, of 85 in 27 of 40;
 * A5 at 68 nodes in 1 of 3. */
#define DEFAULT_MIN_NODES 68.0
/* Nor do organic boards much longer than wide: of 40 candidates, 14 find
 * 12 fair starts at 1.87 to 1 (Legal, margin 28), 10 at 1.93 (a 500x270 mm
 * paper), 1 to 4 at 1.89-1.95 where the shorter side holds 7 spacings or
 * less (Legal, margin 30-34), none at 2.14 (400x200 mm), whatever the
 * spacing. */
#define MAX_ASPECT 1.85

static double spacing(const cb_spec *spec, double bw, double bh)
{
    if (spec->resolution > 0)
        return fmax(bw, bh) / spec->resolution;
    double d = DEFAULT_SPACING_MM;
    if (spec->shared && spec->players > 4)
        d = fmax(d * sqrt(4.0 / spec->players), SHARED_MIN_SPACING_MM);
    return fmin(fmin(d, fmin(bw, bh) / SHORT_SIDE_SPACINGS), sqrt(bw * bh / DEFAULT_MIN_NODES));
}

/* The node radius at spacing D, to the board file's 0.01 mm: the board is
 * made and checked with the radius its file will hold. */
static double radius_at(double d)
{
    return round(RADIUS_PER_SPACING * d * 100) / 100;
}

static size_t node_count(double bw, double bh, double d)
{
    return (size_t)llround(bw * bh / (d * d));
}

size_t cb_spec_nodes(const cb_spec *spec)
{
    double bw = spec->page_w - 2 * spec->margin, bh = spec->page_h - 2 * spec->margin;
    if (!(bw > 0 && bh > 0))
        return 0;
    double d = spacing(spec, bw, bh);
    if (!(d > 0))
        return 0;
    size_t sheets = spec->shared ? 1 : (size_t)(spec->players > 0 ? spec->players : 1);
    return node_count(bw, bh, d) * sheets;
}

/* Boards too big or too dense for the organic generator: above 5,000 nodes
 * its search for 12 starts in one hop band mostly fails, and below 9 mm
 * between nodes the gap between node disks leaves too few placements
 * (measured on A4: 1-13 attempts at 13.6 mm, up to 112 at 9.1 mm, none in
 * 200 below 8.5 mm). */
static int on_lattice(const cb_spec *spec, double bw, double bh)
{
    double d = spacing(spec, bw, bh);
    return node_count(bw, bh, d) > CB_LATTICE_NODES || d < ORGANIC_MIN_SPACING_MM;
}

/* The closest spacing at which a lattice board keeps the gap between node
 * disks (the slack shrinks with the spacing), to 0.01 mm. */
static double closest_lattice_spacing(double margin, double bw, double bh)
{
    double lo = 0.1, hi = 100;
    while (hi - lo > 0.01) {
        double d = (lo + hi) / 2;
        cb_lattice_params lp = {margin, margin, bw, bh, node_count(bw, bh, d),
                                radius_at(d)};
        if (cb_lattice_slack(&lp) > CB_LATTICE_ROUNDING_MM)
            hi = d;
        else
            lo = d;
    }
    return hi;
}

static cb_status check_geometry(const cb_spec *spec, cb_error *err, int suggest);

cb_status cb_spec_check(const cb_spec *spec, cb_error *err)
{
    if (!spec->seed)
        return cb_fail_option(err, "seed", "missing");
    if (!cb_utf8_valid(spec->seed)) /* it goes into JSON files and onto the page */
        return cb_fail_option(err, "seed", "not valid UTF-8 text");
    if (spec->players < CB_PLAYERS_MIN || spec->players > CB_PLAYERS_MAX)
        return cb_fail_option(err, "players", "%d is out of range (2..9)", spec->players);
    if (!(spec->margin >= 5) || spec->margin > 50)
        return cb_fail_option(err, "margin", "%g mm is out of range (5..50 mm)", spec->margin);
    if (!(spec->page_w >= 80 && spec->page_h >= 80) || spec->page_w > MAX_PAPER_MM ||
        spec->page_h > MAX_PAPER_MM)
        return cb_fail_option(err, "paper",
                       "%gx%g mm is out of range (80..%g mm a side)",
                       spec->page_w, spec->page_h, MAX_PAPER_MM);
    if (spec->start_cap < 2 || spec->start_cap > 4)
        return cb_fail_option(err, "start_cap",
                       "%d is out of range (2..4; a start needs 2 edges)",
                       spec->start_cap);
    if (spec->node_cap < 3 || spec->node_cap > 8)
        return cb_fail_option(err, "node_cap", "%d is out of range (3..8)", spec->node_cap);
    /* (without a theme there are no missions: nothing to choose) */
    if (spec->first_game && spec->theme && spec->theme->first_game < 0)
        return cb_fail_option(err, "first_game",
                       "theme \"%s\" names no first-game mission (\"first_game\" "
                       "in its theme.json)", spec->theme->name);
    if (spec->max_attempts < 1 || spec->max_attempts > 100000)
        return cb_fail_option(err, "attempts", "%d is out of range (1..100000)",
                       spec->max_attempts);
    if (spec->resolution < 0 || spec->resolution > 2000 || isnan(spec->resolution))
        return cb_fail_option(err, "resolution", "%g is out of range (7..2000)",
                       spec->resolution);
    return check_geometry(spec, err, 1);
}

/* Whether SPEC's paper, margin and spacing pass (no suggestion sought). */
static int geometry_works(const cb_spec *spec)
{
    cb_error e;
    return check_geometry(spec, &e, 0) == CB_OK;
}

/* The first --resolution from FROM towards TO (steps of 1) with which SPEC
 * passes, or -1: the value a refusal names is one that works. */
static double resolution_that_works(const cb_spec *spec, double from, double to)
{
    cb_spec s = *spec;
    double step = to >= from ? 1 : -1;
    for (double r = from; step > 0 ? r <= to : r >= to; r += step) {
        s.resolution = r;
        if (r >= 1 && geometry_works(&s))
            return r;
    }
    return -1;
}

/* The first --margin from FROM towards TO (steps of 0.1 mm, in tenths to
 * stay exact) with which SPEC passes, or -1. */
static double margin_that_works(const cb_spec *spec, double from, double to)
{
    cb_spec s = *spec;
    long a = lround(from * 10), z = lround(to * 10), step = z >= a ? 1 : -1;
    for (long k = a; step > 0 ? k <= z : k >= z; k += step) {
        s.margin = (double)k / 10;
        if (s.margin >= 5 && s.margin <= 50 && geometry_works(&s))
            return s.margin;
    }
    return -1;
}

static cb_status check_geometry(const cb_spec *spec, cb_error *err, int suggest)
{
    double bw = spec->page_w - 2 * spec->margin, bh = spec->page_h - 2 * spec->margin;
    if (!(bw > 0 && bh > 0))
        return cb_fail_option(err, "margin",
                       "%g mm leaves no board on a %gx%g mm paper (it must be "
                       "under half the shorter side)", spec->margin, spec->page_w, spec->page_h);
    double d = spacing(spec, bw, bh);
    /* Three well-spaced starts per side, each with two neighbours of its
     * own, need room along the shorter side: SHORT_SIDE_SPACINGS (at 5,
     * --resolution 8 and 9 on A4 found no fair starts in 200 attempts). At
     * the default spacing the board always has it. */
    if (fmin(bw, bh) < SHORT_SIDE_SPACINGS * d - 1e-9) {
        double least = ceil(SHORT_SIDE_SPACINGS * fmax(bw, bh) / fmin(bw, bh) - 1e-9);
        double works = suggest ? resolution_that_works(spec, least, 2000) : -1;
        if (works > 0)
            return cb_fail_option(err, "resolution",
                           "%g leaves no room for 3 starts a side across this "
                           "board (%gx%g mm); %g works", spec->resolution, bw, bh, works);
        return cb_fail_option(err, "resolution",
                       "%g leaves no room for 3 starts a side across this "
                       "board (%gx%g mm); at least %.0f", spec->resolution, bw, bh, least);
    }
    /* Between CUT_MIN_SPACING_MM and the spacing where dots end, no board
     * can be cut as the contract asks; at the default spacing, a board too
     * small for it would be (it adapts down to it, not past). */
    double no_dots = CB_DOT_MIN_NODE_RADIUS_MM / RADIUS_PER_SPACING;
    if (spec->resolution > 0 && d < CUT_MIN_SPACING_MM && d >= no_dots &&
        !on_lattice(spec, bw, bh)) {
        double below = suggest ? resolution_that_works(spec, floor(fmax(bw, bh) /
                                                                   CUT_MIN_SPACING_MM), 1)
                               : -1;
        double above = suggest ? resolution_that_works(spec, floor(fmax(bw, bh) / no_dots) + 1,
                                                       2000)
                               : -1;
        if (below > 0 && above > 0)
            return cb_fail_option(err, "resolution",
                           "%g puts nodes %.1f mm apart, too close for "
                           "scissors and power dots; %g works, or %g (no dots)",
                           spec->resolution, d, below, above);
        if (above > 0)
            return cb_fail_option(err, "resolution",
                           "%g puts nodes %.1f mm apart, too close for "
                           "scissors and power dots; %g works (no dots)", spec->resolution, d,
                           above);
        return cb_fail_option(err, "resolution",
                       "%g puts nodes %.1f mm apart, too close for scissors "
                       "and power dots (%.0f mm at least, or under %.1f mm)", spec->resolution,
                       d, CUT_MIN_SPACING_MM, no_dots);
    }
    if (spec->resolution == 0 && d < CUT_MIN_SPACING_MM) {
        double most = suggest ? margin_that_works(spec, floor(spec->margin * 10) / 10, 5) : -1;
        if (most > 0)
            return cb_fail_option(err, "margin",
                           "%g mm leaves too small a board for 3 starts a side; "
                           "%g mm works (at most)", spec->margin, most);
        return cb_fail_option(err, "paper",
                       "%gx%g mm is too small for 3 starts a side at the default "
                       "spacing: the board needs %.1f mm across and %.0f mm^2 (a5 or larger)",
                       spec->page_w, spec->page_h, SHORT_SIDE_SPACINGS * CUT_MIN_SPACING_MM,
                       DEFAULT_MIN_NODES * CUT_MIN_SPACING_MM * CUT_MIN_SPACING_MM);
    }
    /* Edge nodes sit on the trim line, so they reach into the margin. */
    if (spec->margin < 5 + radius_at(d) - 1e-9) {
        double least = ceil((5 + radius_at(d)) * 10 - 1e-6) / 10;
        double works = suggest ? margin_that_works(spec, least, 50) : -1;
        return cb_fail_option(err, "margin",
                       "%g mm puts edge nodes closer than 5 mm to the paper edge "
                       "(at least %g mm)", spec->margin, works > 0 ? works : least);
    }
    size_t n = node_count(bw, bh, d);
    if (n > MAX_NODES)
        return cb_fail_option(err, "resolution",
                       "the board would have %zu nodes; at most %d can be "
                       "made fair (use a lower resolution or a smaller paper)",
                       n, MAX_NODES);
    if (!on_lattice(spec, bw, bh)) {
        if (fmax(bw, bh) > MAX_ASPECT * fmin(bw, bh)) {
            double m = suggest ? margin_that_works(spec, floor(spec->margin * 10) / 10 - 0.1,
                                                   5)
                               : -1;
            if (m > 0)
                return cb_fail_option(err, "margin",
                               "%g mm makes a board %.2f times as long as wide (at "
                               "most %.2f); %g mm works", spec->margin,
                               fmax(bw, bh) / fmin(bw, bh), MAX_ASPECT, m);
            double w = spec->page_w, h = spec->page_h; /* the longer side cut down */
            if (bw > bh)
                w = floor(MAX_ASPECT * bh + 2 * spec->margin);
            else
                h = floor(MAX_ASPECT * bw + 2 * spec->margin);
            return cb_fail_option(err, "paper",
                           "%gx%g mm makes a board %.2f times as long as wide; at "
                           "most %.2f (%gx%gmm)", spec->page_w, spec->page_h,
                           fmax(bw, bh) / fmin(bw, bh), MAX_ASPECT, w, h);
        }
        if (spec->node_cap < 4 && n < CAP3_MIN_NODES)
            return cb_fail_option(err, "node_cap",
                           "3 needs a board of at least %d nodes (this one: %zu); "
                           "4 works", CAP3_MIN_NODES, n);
        return CB_OK;
    }
    if (spec->node_cap < 4)
        return cb_fail_option(err, "node_cap",
                       "boards of more than %d nodes or under %g mm apart "
                       "need a cap of at least 4 (this one: %zu nodes, %.1f mm apart)",
                       CB_LATTICE_NODES, ORGANIC_MIN_SPACING_MM, n, d);
    cb_lattice_params lp = {spec->margin, spec->margin, bw, bh, n, radius_at(d)};
    if (!cb_lattice_has_room(&lp))
        return cb_fail_option(err, "paper",
                       "the board (%gx%g mm) has no room for 3 starts a side "
                       "%.1f mm apart; use a larger paper or a lower resolution", bw, bh, d);
    if (cb_lattice_slack(&lp) <= CB_LATTICE_ROUNDING_MM) {
        double about = floor(fmax(bw, bh) / closest_lattice_spacing(spec->margin, bw, bh));
        double works = suggest && spec->resolution > 0
                           ? resolution_that_works(spec, fmin(about, spec->resolution - 1), 1)
                           : -1;
        if (works > 0)
            return cb_fail_option(err, "resolution",
                           "nodes %.2f mm apart cannot keep %.1f mm between "
                           "their disks; %g works on this paper", d, CB_NODE_GAP_MM, works);
        return cb_fail_option(err, "resolution",
                       "nodes %.2f mm apart cannot keep %.1f mm between their "
                       "disks; at most about %.0f across this paper", d, CB_NODE_GAP_MM, about);
    }
    return CB_OK;
}

/* The surviving nodes and edges of a candidate as a board. */
static cb_board *board_from_work(const cb_work *w, const cb_spec *spec, const char *seed)
{
    cb_board *b = calloc(1, sizeof *b);
    uint32_t *id = malloc(w->n * sizeof *id);
    if (!b || !id)
        goto oom;
    size_t n = 0, m = 0;
    for (size_t v = 0; v < w->n; v++) {
        id[v] = w->role[v] == CB_ROLE_DROPPED ? UINT32_MAX : (uint32_t)n++;
        if (id[v] != UINT32_MAX)
            for (int k = 0; k < w->deg[v]; k++)
                m += w->adj[v * CB_MAX_DEG + (size_t)k] > v;
    }
    b->seed = strdup(seed);
    b->nodes = calloc(n ? n : 1, sizeof *b->nodes);
    b->edges = malloc((m ? m : 1) * sizeof *b->edges);
    if (!b->seed || !b->nodes || !b->edges)
        goto oom;
    b->page_w = spec->page_w;
    b->page_h = spec->page_h;
    b->board_x = w->bx;
    b->board_y = w->by;
    b->board_w = w->bw;
    b->board_h = w->bh;
    b->node_radius = w->r;
    b->center = id[w->center];
    for (size_t v = 0; v < w->n; v++) {
        if (id[v] == UINT32_MAX)
            continue;
        cb_node *node = &b->nodes[id[v]];
        node->x = w->p[v].x;
        node->y = w->p[v].y;
        node->kind = v == w->center ? CB_KIND_CENTER
                     : w->role[v] == CB_ROLE_START ? CB_KIND_START : CB_KIND_NODE;
        node->side = node->kind == CB_KIND_START ? w->start_side[v] : CB_SIDE_NONE;
        node->type = node->mission = -1;
        /* Ids keep the node order, so edges listed node by node, each
         * node's by the far end, come out sorted by (a, b). */
        size_t first = b->n_edges;
        for (int k = 0; k < w->deg[v]; k++) {
            uint32_t u = w->adj[v * CB_MAX_DEG + (size_t)k];
            if (u > v && id[u] != UINT32_MAX) {
                size_t j = b->n_edges++;
                for (; j > first && b->edges[j - 1].b > id[u]; j--)
                    b->edges[j] = b->edges[j - 1];
                b->edges[j].a = id[v];
                b->edges[j].b = id[u];
            }
        }
    }
    b->n_nodes = n;
    free(id);
    return b;
oom:
    free(id);
    cb_board_free(b);
    return NULL;
}

/* A poster board on the lattice (lattice.c); NULL with *why or *oom. */
static cb_board *lattice_candidate(const cb_spec *spec, const char *seed, cb_rng *rng,
                                   const char **why, int *oom)
{
    double bx = spec->margin, by = spec->margin;
    double bw = spec->page_w - 2 * bx, bh = spec->page_h - 2 * by;
    double d = spacing(spec, bw, bh);
    cb_lattice_params lp = {bx, by, bw, bh, node_count(bw, bh, d), radius_at(d)};
    cb_board *b = calloc(1, sizeof *b);
    if (!b || !(b->seed = strdup(seed))) {
        cb_board_free(b);
        *oom = 1;
        return NULL;
    }
    b->page_w = spec->page_w;
    b->page_h = spec->page_h;
    b->board_x = bx;
    b->board_y = by;
    b->board_w = bw;
    b->board_h = bh;
    b->node_radius = lp.r;
    int rc = cb_lattice_board(b, &lp, rng, why);
    if (rc != 0) {
        *oom = rc < 0;
        cb_board_free(b);
        return NULL;
    }
    return b;
}

/* The organic board of place.c .. balance.c; NULL with *why or *oom. */
static cb_board *organic_candidate(const cb_spec *spec, const char *seed, cb_rng *rng,
                                   const bands *want, sheet_figures *got, const char **why,
                                   int *oom)
{
    double bx = spec->margin, by = spec->margin;
    double bw = spec->page_w - 2 * bx, bh = spec->page_h - 2 * by;
    double d = spacing(spec, bw, bh);
    /* Relax with the long side squashed a little past square (measured:
     * fewest attempts on A4 and Letter); see place.c. */
    cb_place_params pp = {bx, by, bw, bh, node_count(bw, bh, d), d,
                          pow(fmax(bw, bh) / fmin(bw, bh), 0.65), RELAX_ITERATIONS};
    cb_work w;
    if (cb_work_init(&w, pp.n) != 0) {
        *oom = 1;
        return NULL;
    }
    w.bx = bx; w.by = by; w.bw = bw; w.bh = bh;
    w.d = d;
    w.r = radius_at(d);
    w.start_cap = spec->start_cap;
    w.node_cap = spec->node_cap;
    w.hop_band_min = want->hop_min;
    w.hop_band_max = want->hop_max;
    w.cut_band_min = want->cut_min;
    w.cut_band_max = want->cut_max;
    cb_board *b = NULL;
    int ok = 0;
    if (cb_place(&w, &pp, rng) == 0 && cb_connect_prepare(&w) == 0) {
        int tries = spec->node_cap <= 3 ? CAP3_CONNECT_TRIES : CONNECT_TRIES;
        for (int t = 0; t < tries; t++) {
            if (t > 0)
                cb_work_retry(&w);
            ok = cb_connect_core(&w, rng) == 0 && cb_starts_choose(&w) == 0 &&
                 cb_balance(&w) == 0 && cb_cut_balance(&w) == 0;
            /* A placement whose hops would not balance is connected again
             * with other fill edges; one without fair starts is dropped. */
            if (ok || (w.failure != CB_FAIL_HOP_SPREAD && w.failure != CB_FAIL_CUT_SPREAD &&
                       w.failure != CB_FAIL_START_BEHIND_BRIDGE))
                break;
        }
    }
    if (ok) {
        got->cut_lo = w.cut_lo;
        got->cut_hi = w.cut_hi;
        got->hop_lo = INT32_MAX;
        got->hop_hi = -1;
        for (size_t v = 0; v < w.n; v++)
            if (w.role[v] == CB_ROLE_START) {
                got->hop_lo = w.hops[v] < got->hop_lo ? w.hops[v] : got->hop_lo;
                got->hop_hi = w.hops[v] > got->hop_hi ? w.hops[v] : got->hop_hi;
            }
        b = board_from_work(&w, spec, seed);
        if (!b)
            *oom = 1;
    } else {
        *why = cb_failure_text(w.failure);
        *oom = w.failure == CB_FAIL_NOMEM;
    }
    cb_work_free(&w);
    return b;
}

/* The bands a game's first sheet aims at. A later sheet fits the first's
 * bands far more cheaply when they are the bands most sheets of that paper
 * land in (measured on A4, 4 players, 900 games: half the first sheets land
 * in hops {5, 6} and cuts {4, 5}, and a later sheet then takes 0.82-0.94 ms;
 * after any other bands 1.2-4.3 ms, up to 27 connections a sheet). So the
 * commonest bands are found by a pilot: PILOT_CANDIDATES candidates of fixed
 * seeds, made with any band, each voting for every band its figures fit. It
 * depends only on the spec's paper, spacing and caps, so every game of a
 * spec gets the same bands, from the CLI, a deck on any number of threads
 * or the server; a process keeps the last PILOT_CACHE results. Pilots cost
 * about PILOT_NODES nodes of generation: boards too big for 8 candidates
 * in that get none (any band, as before). */
#define PILOT_CANDIDATES 24
#define PILOT_MIN_BOARDS 8
#define PILOT_NODES 2400
#define PILOT_CACHE 8
#define PILOT_MAX_BAND 64 /* hops and cuts counted in a pilot's votes */

typedef struct {
    double page_w, page_h, margin, resolution;
    int start_cap, node_cap;
} pilot_key;

static pthread_mutex_t pilot_lock = PTHREAD_MUTEX_INITIALIZER;
static pilot_key pilot_keys[PILOT_CACHE];
static bands pilot_results[PILOT_CACHE];
static int pilots_kept, pilot_next;

/* The value most votes go to (ties: the smaller); -1 when none has one.
 * With HIGHER, the highest value with at least half as many votes. */
static int most_voted(const int votes[PILOT_MAX_BAND], int higher)
{
    int best = -1;
    for (int v = 0; v < PILOT_MAX_BAND; v++)
        if (votes[v] > 0 && (best < 0 || votes[v] > votes[best]))
            best = v;
    for (int v = PILOT_MAX_BAND - 1; higher && best >= 0 && v > best; v--)
        if (2 * votes[v] >= votes[best])
            return v;
    return best;
}

/* One vote for every value from FROM to TO. */
static void vote(int votes[PILOT_MAX_BAND], int from, int to)
{
    for (int v = from < 0 ? 0 : from; v <= to && v < PILOT_MAX_BAND; v++)
        votes[v]++;
}

/* The pilot for SPEC, whose boards have about NODES nodes: its bands, or
 * any band when too few of its candidates made a board. *OOM on memory. */
static bands pilot_bands(const cb_spec *spec, size_t nodes, int *oom)
{
    bands b = any_band;
    int candidates = (int)(PILOT_NODES / (nodes ? nodes : 1));
    if (candidates > PILOT_CANDIDATES)
        candidates = PILOT_CANDIDATES;
    if (candidates < PILOT_MIN_BOARDS)
        return b;
    int hop_votes[PILOT_MAX_BAND] = {0}, cut_votes[PILOT_MAX_BAND] = {0}, boards = 0;
    uint64_t base = cb_hash_string("cutboard pilot");
    for (int j = 0; j < candidates; j++) {
        cb_rng rng;
        cb_rng_seed(&rng, cb_mix64(base + (uint64_t)j));
        sheet_figures got;
        const char *why;
        cb_board *board = organic_candidate(spec, "pilot", &rng, &any_band, &got, &why, oom);
        if (*oom)
            return b;
        if (!board)
            continue;
        cb_board_free(board);
        boards++;
        vote(hop_votes, got.hop_hi - 1, got.hop_lo);
        vote(cut_votes, got.cut_hi - 1, got.cut_lo);
    }
    if (boards < PILOT_MIN_BOARDS)
        return b;
    /* Hops are raised more easily than lowered (a removal against an
     * addition that must fit the caps and cross nothing): of two common
     * hop bands the higher is the cheaper to fit (measured at node cap 5:
     * 11 pilot boards in {4, 5}, 7 in {5, 6}; a 200-game deck aimed at
     * {5, 6} took 10 % less than one aimed at {4, 5}). */
    int l = most_voted(hop_votes, 1), c = most_voted(cut_votes, 0);
    if (l >= 0)
        b.hop_min = b.hop_max = l;
    if (c >= CB_CUT_MIN)
        b.cut_min = b.cut_max = c;
    return b;
}

/* Pilots run beforehand, for the papers the help lists that a pilot costs
 * time on, at the default margin, spacing and caps: a process making one
 * game does not pay for one (24 boards, about a third of a one-game run).
 * tests/test_pilot.c runs each again and names any gone stale (the
 * generator changed) with the line that belongs here. */
static const struct {
    pilot_key key;
    bands b;
} pilots_known[] = {
    {{0x1.29p+8, 0x1.a4p+7, 12, 0, 2, 4}, {5, 5, 4, 4}}, /* A4 */
    {{0x1.a4p+7, 0x1.29p+8, 12, 0, 2, 4}, {5, 5, 4, 4}},
    {{0x1.1766666666666p+8, 0x1.afccccccccccdp+7, 12, 0, 2, 4}, {5, 5, 4, 4}}, /* Letter */
    {{0x1.afccccccccccdp+7, 0x1.1766666666666p+8, 12, 0, 2, 4}, {5, 5, 4, 4}},
    {{0x1.a4p+8, 0x1.29p+8, 12, 0, 2, 4}, {8, 8, 4, 4}}, /* A3 */
    {{0x1.29p+8, 0x1.a4p+8, 12, 0, 2, 4}, {8, 8, 4, 4}},
    {{0x1.a4p+7, 0x1.28p+7, 12, 0, 2, 4}, {0, CB_BAND_ANY, CB_CUT_MIN, CB_BAND_ANY}}, /* A5 */
    {{0x1.28p+7, 0x1.a4p+7, 12, 0, 2, 4}, {0, CB_BAND_ANY, CB_CUT_MIN, CB_BAND_ANY}},
    {{0x1.639999999999ap+8, 0x1.afccccccccccdp+7, 12, 0, 2, 4}, {6, 6, 4, 4}}, /* Legal */
    {{0x1.afccccccccccdp+7, 0x1.639999999999ap+8, 12, 0, 2, 4}, {6, 6, 4, 4}},
    {{0x1.afccccccccccdp+8, 0x1.1766666666666p+8, 12, 0, 2, 4}, {8, 8, 4, 4}}, /* Tabloid */
    {{0x1.1766666666666p+8, 0x1.afccccccccccdp+8, 12, 0, 2, 4}, {8, 8, 4, 4}},
    {{0x1.4p+8, 0x1.c2p+7, 12, 0, 2, 4}, {6, 6, 4, 4}}, /* SRA4 */
    {{0x1.c2p+7, 0x1.4p+8, 12, 0, 2, 4}, {6, 6, 4, 4}},
    {{0x1.c2p+8, 0x1.4p+8, 12, 0, 2, 4}, {10, 10, 4, 4}}, /* SRA3 */
    {{0x1.4p+8, 0x1.c2p+8, 12, 0, 2, 4}, {9, 9, 4, 4}},
};

size_t cb_pilot_known_count(void)
{
    return sizeof pilots_known / sizeof *pilots_known;
}

void cb_pilot_known(size_t i, cb_spec *spec, int want[4])
{
    const pilot_key *k = &pilots_known[i].key;
    cb_spec_defaults(spec);
    spec->page_w = k->page_w, spec->page_h = k->page_h;
    spec->margin = k->margin, spec->resolution = k->resolution;
    spec->start_cap = k->start_cap, spec->node_cap = k->node_cap;
    const bands *b = &pilots_known[i].b;
    want[0] = b->hop_min, want[1] = b->hop_max, want[2] = b->cut_min, want[3] = b->cut_max;
}

int cb_pilot_run(const cb_spec *spec, int got[4])
{
    double bw = spec->page_w - 2 * spec->margin, bh = spec->page_h - 2 * spec->margin;
    int oom = 0;
    bands b = pilot_bands(spec, node_count(bw, bh, spacing(spec, bw, bh)), &oom);
    got[0] = b.hop_min, got[1] = b.hop_max, got[2] = b.cut_min, got[3] = b.cut_max;
    return oom ? -1 : 0;
}

/* The bands of a game's first sheet (see pilot_bands): one run beforehand
 * (pilots_known), or from the cache when this spec's pilot ran before. */
static bands first_sheet_bands(const cb_spec *spec, int *oom)
{
    double bw = spec->page_w - 2 * spec->margin, bh = spec->page_h - 2 * spec->margin;
    if (spec->shared || on_lattice(spec, bw, bh))
        return any_band; /* one sheet, or bands by construction */
    pilot_key key;
    memset(&key, 0, sizeof key); /* compared whole, padding too */
    key.page_w = spec->page_w;
    key.page_h = spec->page_h;
    key.margin = spec->margin;
    key.resolution = spec->resolution;
    key.start_cap = spec->start_cap;
    key.node_cap = spec->node_cap;
    for (size_t i = 0; i < sizeof pilots_known / sizeof *pilots_known; i++)
        if (memcmp(&pilots_known[i].key, &key, sizeof key) == 0)
            return pilots_known[i].b;
    pthread_mutex_lock(&pilot_lock);
    for (int i = 0; i < pilots_kept; i++)
        if (memcmp(&pilot_keys[i], &key, sizeof key) == 0) {
            bands b = pilot_results[i];
            pthread_mutex_unlock(&pilot_lock);
            return b;
        }
    /* Made under the lock: threads of one deck all wait for the same. */
    bands b = pilot_bands(spec, node_count(bw, bh, spacing(spec, bw, bh)), oom);
    if (!*oom) {
        int i = pilots_kept < PILOT_CACHE ? pilots_kept++ : pilot_next;
        pilot_next = (i + 1) % PILOT_CACHE;
        pilot_keys[i] = key;
        pilot_results[i] = b;
    }
    pthread_mutex_unlock(&pilot_lock);
    return b;
}

/* One candidate from one derived seed, fitting WANT: NULL with *why when
 * it fails. */
static cb_board *candidate(const cb_spec *spec, const char *seed, uint64_t rng_seed,
                           const bands *want, sheet_figures *got, const char **why, int *oom)
{
    double bw = spec->page_w - 2 * spec->margin, bh = spec->page_h - 2 * spec->margin;
    cb_rng rng;
    cb_rng_seed(&rng, rng_seed);
    got->cut_lo = got->cut_hi = -1;
    if (got->plane)
        memset(got->plane, 0, sizeof *got->plane);
    cb_board *b = on_lattice(spec, bw, bh)
                      ? lattice_candidate(spec, seed, &rng, why, oom)
                      : organic_candidate(spec, seed, &rng, want, got, why, oom);
    if (!b)
        return NULL;
    /* Places as the board file keeps them (0.01 mm), so that the check here
     * is the check of the file. */
    for (size_t i = 0; i < b->n_nodes; i++) {
        b->nodes[i].x = round(b->nodes[i].x * 100) / 100;
        b->nodes[i].y = round(b->nodes[i].y * 100) / 100;
    }
    /* One graph for the check, decoration and the dot check: on the
     * largest boards each build is a pass over all edges and fresh memory. */
    cb_verdict v;
    cb_error err;
    cb_graph g;
    int *hops = got->keep_hops ? malloc((b->n_nodes ? b->n_nodes : 1) * sizeof *hops) : NULL;
    cb_status st = cb_graph_build(&g, b, &err);
    if (st == CB_OK && got->keep_hops && !hops)
        st = cb_fail(&err, CB_ERR_NOMEM, "out of memory");
    if (st == CB_OK)
        st = cb_board_check_graph(b, &g, spec->start_cap, spec->node_cap, &v, hops, got->plane,
                                  &err);
    if (st != CB_OK || !v.ok) {
        /* the check fails only for memory on a board the generator made */
        *oom = st != CB_OK;
        *why = st != CB_OK ? "out of memory" : v.failure; /* a constant string */
        goto rejected;
    }
    /* The hop band of the game (organic boards aim for it already). */
    int l_lo = v.hop_max - 1 > want->hop_min ? v.hop_max - 1 : want->hop_min;
    int l_hi = v.hop_min < want->hop_max ? v.hop_min : want->hop_max;
    if (l_lo > l_hi) {
        *why = "hops outside the band of the game's first sheet";
        goto rejected;
    }
    got->hop_lo = v.hop_min;
    got->hop_hi = v.hop_max;
    /* Dots a node needs: one per player who may use it. On one player's own
     * sheet a /3 theme says how many (its "dots_own"); cb_dots_wanted gives
     * 1 + players / 3. */
    int dot_players = spec->players;
    if (spec->theme && spec->theme->version >= 3)
        dot_players = spec->shared ? spec->players + 3 : 3 * (spec->theme->play.dots_own - 1) + 1;
    int rc = cb_decorate_graph(b, &g, spec->theme, dot_players, &rng, why);
    if (rc != 0) {
        *oom = rc < 0;
        goto rejected;
    }
    /* A first game: missions dealt as ever (the same boards), then one goal
     * for every start. */
    for (size_t i = 0; spec->first_game && spec->theme && i < b->n_nodes; i++)
        if (b->nodes[i].kind == CB_KIND_START)
            b->nodes[i].mission = spec->theme->first_game;
    /* The dots decorate placed, tested like the rest of the contract. */
    st = cb_dots_verdict_only(b, &g, &v, &err);
    if (st != CB_OK || !v.dots_ok) {
        *oom = st != CB_OK;
        *why = st != CB_OK ? "out of memory" : v.dot_failure;
        goto rejected;
    }
    cb_graph_free(&g);
    got->hops = hops;
    return b;
rejected:
    cb_graph_free(&g);
    if (got->plane)
        cb_planar_free(got->plane);
    cb_board_free(b);
    free(hops);
    return NULL;
}

/* A sheet from SEED fitting WANT, trying its candidates from FIRST on; its
 * figures into GOT. *EXHAUSTED says it failed only for want of a candidate
 * that fits (not for memory or a stop). */
static cb_status generate_sheet(const cb_spec *spec, const char *seed, int player,
                                const bands *want, int first, sheet_figures *got,
                                cb_board **out, int *exhausted, cb_error *err)
{
    *out = NULL;
    *exhausted = 0;
    cb_status st = cb_spec_check(spec, err);
    if (st != CB_OK)
        return st;
    uint64_t base = cb_hash_string(seed);
    const char *why = "no attempt";
    int limit = spec->max_attempts * (spec->node_cap <= 3 ? CAP3_ATTEMPTS : 1);
    for (int attempt = first; attempt <= limit; attempt++) {
        if (spec->stop && spec->stop(spec->stop_ctx))
            return cb_fail(err, CB_ERR_STOPPED, "seed \"%s\": stopped after %d attempts",
                           seed, attempt - 1);
        int oom = 0;
        cb_board *b = candidate(spec, seed, cb_mix64(base + (uint64_t)attempt), want, got, &why,
                                &oom);
        if (oom)
            return cb_fail(err, CB_ERR_NOMEM, "out of memory generating a board");
        if (b) {
            b->attempts = attempt;
            b->player = player;
            *out = b;
            return CB_OK;
        }
    }
    *exhausted = 1;
    return cb_fail(err, CB_ERR_INFEASIBLE,
                   "seed \"%s\": no board met the contract in %d attempts (last: %s)",
                   seed, limit, why ? why : "unknown");
}

cb_status cb_board_generate(const cb_spec *spec, const char *seed, int player,
                            cb_board **out, cb_error *err)
{
    sheet_figures got = {0};
    int exhausted;
    return generate_sheet(spec, seed, player, &any_band, 1, &got, out, &exhausted, err);
}

/* Frees the plane drawings of the first N sheets (when kept). */
static void planes_free(cb_planar *planes, size_t n)
{
    for (size_t i = 0; planes && i < n; i++)
        cb_planar_free(&planes[i]);
}

/* Frees G, the hops the check counted and the plane drawings of its first
 * N sheets, and the sheets' SPREAD. */
static void game_free_with(cb_game *g, int **hops, cb_planar *planes, size_t n, int *spread)
{
    for (size_t i = 0; hops && i < n; i++)
        free(hops[i]);
    free(hops);
    planes_free(planes, n);
    free(spread);
    cb_game_free(g);
}

cb_status cb_game_generate(const cb_spec *spec, cb_game **out, cb_error *err)
{
    return cb_game_generate_figures(spec, out, NULL, NULL, err);
}

cb_status cb_game_generate_figures(const cb_spec *spec, cb_game **out, int **hop_spread,
                                   cb_planar *planes, cb_error *err)
{
    *out = NULL;
    if (hop_spread)
        *hop_spread = NULL;
    cb_status st = cb_spec_check(spec, err);
    if (st != CB_OK)
        return st;
    cb_game *g = calloc(1, sizeof *g);
    size_t sheets = spec->shared ? 1 : (size_t)spec->players;
    /* Each sheet's hops as the check counted them, for the deal. */
    int **hops = calloc(sheets, sizeof *hops);
    int *spread = calloc(sheets, sizeof *spread);
    if (!g || !hops || !spread || !(g->sheets = calloc(sheets, sizeof *g->sheets)) ||
        !(g->seed = strdup(spec->seed))) {
        game_free_with(g, hops, planes, 0, spread);
        return cb_fail(err, CB_ERR_NOMEM, "out of memory");
    }
    g->players = spec->players;
    g->shared = spec->shared;
    /* The first sheet sets the bands, aiming at the commonest ones (see
     * pilot_bands; any band when it cannot reach them); each later one is
     * made to fit them and narrows them to its own figures, so that one hop
     * band {L, L+1} and one cut band hold every sheet. A first sheet whose
     * bands a later one cannot reach (measured at node cap 3: about 1 game
     * in 300) gives way to its own next candidate, and the game starts
     * again. */
    int first = 1, oom = 0;
    bands aim = first_sheet_bands(spec, &oom);
    if (oom) {
        game_free_with(g, hops, planes, 0, spread);
        return cb_fail(err, CB_ERR_NOMEM, "out of memory generating a board");
    }
    for (int restart = 0;; restart++) {
        bands want = aim;
        int exhausted = 0;
        while (g->n_sheets < sheets) {
            size_t i = g->n_sheets;
            /* A sheet's seed says how to make it again: "<game seed>/<player>". */
            size_t len = strlen(spec->seed) + 16;
            char *seed = malloc(len);
            if (!seed) {
                game_free_with(g, hops, planes, g->n_sheets, spread);
                return cb_fail(err, CB_ERR_NOMEM, "out of memory");
            }
            if (spec->shared)
                snprintf(seed, len, "%s", spec->seed);
            else
                snprintf(seed, len, "%s/%zu", spec->seed, i + 1);
            sheet_figures got = {0};
            got.keep_hops = 1;
            got.plane = planes ? &planes[i] : NULL;
            st = generate_sheet(spec, seed, spec->shared ? 0 : (int)i + 1, &want,
                                i == 0 ? first : 1, &got, &g->sheets[i], &exhausted, err);
            free(seed);
            if (st != CB_OK)
                break;
            hops[i] = got.hops;
            spread[i] = got.hop_hi - got.hop_lo;
            want.hop_min = got.hop_hi - 1 > want.hop_min ? got.hop_hi - 1 : want.hop_min;
            want.hop_max = got.hop_lo < want.hop_max ? got.hop_lo : want.hop_max;
            if (got.cut_lo >= 0) {
                want.cut_min = got.cut_hi - 1 > want.cut_min ? got.cut_hi - 1 : want.cut_min;
                want.cut_max = got.cut_lo < want.cut_max ? got.cut_lo : want.cut_max;
            }
            g->n_sheets++;
        }
        if (st == CB_OK)
            break;
        if (exhausted && g->n_sheets == 0 && memcmp(&aim, &any_band, sizeof aim) != 0) {
            aim = any_band; /* the first sheet cannot reach the pilot's bands */
            continue;
        }
        if (!exhausted || g->n_sheets == 0 || restart == GAME_RESTARTS) {
            game_free_with(g, hops, planes, g->n_sheets, spread);
            return st;
        }
        first = g->sheets[0]->attempts + 1;
        planes_free(planes, g->n_sheets);
        for (size_t i = 0; i < g->n_sheets; i++) {
            cb_board_free(g->sheets[i]);
            free(hops[i]);
            hops[i] = NULL;
        }
        g->n_sheets = 0;
    }
    /* The players' starts, numbered on the sheets (a /3 theme's rules say
     * "start on the rectangle with your number"). */
    if (spec->theme && spec->theme->version >= 3 && cb_game_deal(g, hops) != 0) {
        game_free_with(g, hops, planes, sheets, spread);
        return cb_fail(err, CB_ERR_NOMEM, "out of memory dealing the starts");
    }
    for (size_t i = 0; i < sheets; i++)
        free(hops[i]);
    free(hops);
    if (hop_spread)
        *hop_spread = spread;
    else
        free(spread);
    *out = g;
    return CB_OK;
}
