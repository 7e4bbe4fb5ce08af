/* Step 3c: even out the starts' shortest cuts.
 *
 * A start's shortest cut (src/planar/cut.c) is the fewest printed edges
 * that, cut from the border, part it from the centre. In the drawing it is a
 * chain of printed edges from a border node to a border node, its inner
 * nodes off the border and avoiding the start and the centre, that closes
 * around the start with the border and leaves the centre outside. Which side
 * the centre lies on is a parity: with the segment from the centre to the
 * start as a reference, the chain plus the border arc through the start
 * meets that segment once at the start, so the centre is outside exactly
 * when the chain crosses the segment an odd number of times. So the shortest
 * cut is a breadth-first search over (node, parity) from every border node
 * but the start, to the first border node reached with odd parity: O(n) per
 * start, and the 12 starts' searches run as one over bit sets. (A walk that
 * loops around the centre also parts it from the start, so walks, not only
 * simple chains, may be counted; tests/test_contract.c checks the figures
 * on generated boards with a search of its own.)
 *
 * The search from the border gives dist[v][p], the fewest edges from the
 * border to v arriving with parity p, so an edge a-b lies on a shortest
 * chain of start s when dist[a][p] + 1 + dist[b][p ^ x ^ 1] equals the cut
 * (x: whether a-b crosses the reference segment), and an edge a-b added
 * would give the chain of that length. Deleting a printed edge merges two
 * pieces (a contraction in the dual) and can only raise cuts; adding a
 * triangulation edge splits a piece and can only lower them (test_cut.c,
 * test_edit_directions, tries every edge of a few boards). The step edits
 * greedily: each round it takes the first edit, ranked by how near they
 * bring the cuts to a band {c, c+1} with c >= CB_CUT_MIN (then by how they
 * draw them together), that truly does and keeps the hops fair, among
 * - the addition of a triangulation edge that shortens a chain of a start
 *   above the lowest band (exact from dist), where a full end gives up one
 *   of its other edges to make room (ranked by the addition, then checked);
 * - the removal of an edge on a shortest chain of a lowest start (ranked as
 *   raising by one each start it is on a shortest chain of, then searched);
 * - when neither helps, the move of such an edge: one end takes another
 *   triangulation neighbour instead, so it keeps its edges (it may have
 *   only 1 or 2) and, when that neighbour is one hop nearer the centre, its
 *   hops; a full neighbour makes room as an addition's full end does;
 * keeping every other clause the generator controls: the degree caps,
 * every node with 2 edges and reaching the centre, the start hop spread
 * (and band), no start behind a bridge. Triangulation edges never cross,
 * and the starts' own edges are not touched (steepness, neighbour rule).
 * When no edit brings the cuts nearer the band, up to MAX_PLATEAU times a
 * run takes the best edit that leaves them as near (a sideways step: it
 * changes which chains are shortest and which ends are full), and from then
 * on no edit may undo one the run made, so it cannot step back. It fails
 * (the next connection or attempt is tried) when no edit helps. */
#include <stdlib.h>
#include <string.h>
#include "board/hops.h"
#include "board/work.h"

#define MAX_ROUNDS 20
#define NO_CUT 1000     /* a start no cut parts from the centre */
/* dist of a (node, parity) the search did not reach before it stopped: at
 * least the cut away, which is all the tests below need, and above NO_CUT,
 * so a chain through it is never the shortest. */
#define UNREACHED 0xffff
#define MAX_CHAIN_EDGES 256 /* edges on the lowest starts' shortest chains */
/* Candidate edits kept per round. The first that works is nearly always
 * among the cheapest few: 16 instead of 64 cost 1.6 % less on 400 games,
 * and sheets failed no more often. At node cap 3, where most trials meet a
 * full end, 16 raised the attempts a board takes from 56 to 69 (1,000
 * seeds, when its cuts were still accepted 2 apart), so it keeps 64. */
#define MAX_TRIALS 64
#define FEW_TRIALS 16
/* Sideways steps a run may take (measured on 400 games: 1 and 2 saved 4 %
 * of a deck's instructions, 3 and more saved less: a run that is stuck
 * twice is seldom saved). */
#define MAX_PLATEAU 2

/* An edit of the graph: up to two edges removed, at most one added. */
typedef struct {
    int n_del;
    cb_edge del[2];
    int add;
    cb_edge ins;
} edit;

typedef struct {
    cb_work *w;
    int ns;
    uint32_t starts[CB_MAX_STARTS];
    int cut[CB_MAX_STARTS];
    uint16_t *dist;     /* ns * 2n: per start, per (node, parity); UNREACHED */
    uint16_t *dist_at[CB_MAX_STARTS]; /* start i's part of dist */
    uint16_t *up;       /* n: bit i, the node lies left of start i's reference segment */
    uint16_t *xm;       /* n * CB_MAX_DEG: bit i, v's j-th edge crosses start i's reference */
    uint32_t *allow;    /* n: the searches a node may enter (not its own start's, not the centre) */
    uint32_t *seen, *cur, *next; /* n each: search states */
    uint8_t *border;    /* n */
    uint8_t *mark;      /* 2n */
    cb_edge chain[MAX_CHAIN_EDGES];
    long n_chain;       /* edges in chain for the graph as it is; -1: not listed yet */
    uint32_t *sources;  /* the border nodes that are not dropped */
    size_t n_sources;
    uint32_t *queue;    /* 2n */
    uint32_t *scratch;  /* 6n for the bridge search */
    cb_pair_search pairs; /* the bridge search near an edit */
    cb_edge *inner;     /* the candidate edges between core nodes or the centre, in order */
    uint16_t *inner_x;  /* their crossing bits (places do not move here) */
    size_t n_inner;
    cb_hops hops;       /* w->hops, kept exact edit by edit */
} cutter;

static double orient(cb_point a, cb_point b, cb_point c)
{
    return (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
}

/* Does edge a-b cross start i's reference segment (centre to start)? When
 * its ends lie on either side of the line through the centre and the start,
 * it meets that line once, on the start's side of the centre exactly when
 * the centre lies on one given side of a-b; and every edge stays inside the
 * trim rectangle, where the line ends at the start. */
static inline int crosses(const cutter *k, int i, uint32_t a, uint32_t b)
{
    const cb_work *w = k->w;
    if (!((k->up[a] ^ k->up[b]) >> i & 1))
        return 0;
    return (orient(w->p[a], w->p[b], w->p[w->center]) > 0) == (k->up[b] >> i & 1);
}

/* crosses() for every start at once: bit i for start i. The side of a-b
 * the centre lies on is the same for every start. Worked out whether or
 * not the ends' sides differ for some start (a coin toss, not a branch). */
static inline unsigned crossing_bits(const cutter *k, uint32_t a, uint32_t b)
{
    const cb_work *w = k->w;
    unsigned differ = k->up[a] ^ k->up[b];
    unsigned side = orient(w->p[a], w->p[b], w->p[w->center]) > 0 ? k->up[b] : ~k->up[b];
    return differ & side;
}

static int same_edge(cb_edge e, uint32_t a, uint32_t b)
{
    return (e.a == a && e.b == b) || (e.a == b && e.b == a);
}

static uint16_t *dist_of(const cutter *k, int i)
{
    return k->dist_at[i];
}

/* The searches of the starts in WHICH (bit i: start i), all at once, on the
 * graph as it is: a breadth-first search level by
 * level whose state per node is a bit set, bit i for start i arriving with
 * parity 0 and bit 16 + i with parity 1; an edge's crossing bits swap the
 * two for the starts whose reference segment it crosses. Writes each
 * searched start's cut into CUT and, when RECORD, its dist. A start's
 * search stops once no shorter chain can come: every (node, parity) it
 * leaves at -1 is then at least the cut away. */
static void search(cutter *k, unsigned which, int *cut, int record)
{
    cb_work *w = k->w;
    size_t n = w->n;
    uint32_t *seen = k->seen, *cur = k->cur, *next = k->next;
    uint32_t *list = k->queue, *nlist = k->queue + n;
    size_t nl = 0;
    memset(seen, 0, n * sizeof *seen);
    memset(next, 0, n * sizeof *next);
    unsigned active = which;
    for (int i = 0; i < k->ns; i++)
        if (which >> i & 1) {
            cut[i] = NO_CUT;
            if (record)
                memset(dist_of(k, i), 0xff, 2 * n * sizeof(uint16_t)); /* UNREACHED */
        }
    for (size_t j = 0; j < k->n_sources; j++) {
        uint32_t v = k->sources[j];
        if (v == w->center || !w->deg[v])
            continue;
        uint32_t bits = which & k->allow[v];
        if (!bits)
            continue;
        cur[v] = seen[v] = bits;
        list[nl++] = v;
        if (record)
            for (int i = 0; i < k->ns; i++)
                if (bits >> i & 1)
                    dist_of(k, i)[2 * v] = 0;
    }
    for (int d = 0; nl && active; d++) {
        size_t nn = 0;
        unsigned done = 0;
        for (size_t j = 0; j < nl; j++) {
            uint32_t v = list[j], f = cur[v];
            f &= active | active << 16;
            if (!f)
                continue;
            const uint32_t *nv = w->adj + (size_t)v * CB_MAX_DEG;
            const uint16_t *xv = k->xm + (size_t)v * CB_MAX_DEG;
            int deg = w->deg[v];
            for (int e = 0; e < deg; e++) {
                uint32_t u = nv[e];
                /* The two parities trade places for the starts it crosses. */
                uint32_t swap = ((f ^ f >> 16) & xv[e]) * 0x10001u;
                uint32_t g = (f ^ swap) & k->allow[u];
                /* Masks, not branches: which way each test goes is hard
                 * to predict, and with g empty every step below is void. */
                uint32_t on_border = 0u - (uint32_t)k->border[u];
                done |= (g >> 16) & active & on_border; /* a chain ends: odd parity */
                g &= ~seen[u] & ~on_border;
                seen[u] |= g;
                nlist[nn] = u; /* kept when u enters the next level */
                nn += (size_t)((next[u] == 0) & (g != 0));
                next[u] |= g;
            }
        }
        /* Each (node, parity) a start reaches at d + 1 is in next once:
         * recorded here, node by node, rather than edge by edge. */
        if (record)
            for (size_t j = 0; j < nn; j++) {
                uint32_t u = nlist[j];
                for (uint32_t t = next[u]; t; t &= t - 1) {
                    int b = __builtin_ctz(t);
                    dist_of(k, b & 15)[2 * u + (uint32_t)(b >> 4)] = (uint16_t)(d + 1);
                }
            }
        /* Starts whose cut is d + 1 expand no further. */
        for (unsigned t = done; t; t &= t - 1) {
            int i = __builtin_ctz(t);
            if (cut[i] > d + 1)
                cut[i] = d + 1;
        }
        active &= ~done;
        for (size_t j = 0; j < nl; j++)
            cur[list[j]] = 0;
        for (size_t j = 0; j < nn; j++) {
            cur[nlist[j]] = next[nlist[j]];
            next[nlist[j]] = 0;
        }
        uint32_t *tl = list;
        list = nlist;
        nlist = tl;
        nl = nn;
    }
    for (size_t j = 0; j < nl; j++)
        cur[list[j]] = 0;
}

/* Node v's crossing bits for every start, from its edges as listed now. */
static void update_masks(cutter *k, uint32_t v)
{
    const cb_work *w = k->w;
    for (int j = 0; j < w->deg[v]; j++)
        k->xm[(size_t)v * CB_MAX_DEG + (size_t)j] =
            (uint16_t)crossing_bits(k, v, w->adj[(size_t)v * CB_MAX_DEG + (size_t)j]);
}

/* Searches the starts in WHICH again on the graph as it is. */
static void research(cutter *k, unsigned which)
{
    if (which)
        search(k, which, k->cut, 1);
}

/* The shortest chain of start i through edge a-b (present or not), X
 * being crosses(k, i, a, b) (callers that test many starts work it out
 * for all of them at once). None passes the start or the centre: no
 * search enters them, so their dist is UNREACHED. */
static inline int via_crossing(const cutter *k, int i, uint32_t a, uint32_t b, uint32_t x)
{
    const uint16_t *dist = k->dist_at[i];
    int l0 = dist[2 * a] + 1 + dist[2 * b + (x ^ 1)];
    int l1 = dist[2 * a + 1] + 1 + dist[2 * b + x];
    int best = l0 < l1 ? l0 : l1;
    return best < NO_CUT ? best : NO_CUT;
}

static inline int via(const cutter *k, int i, uint32_t a, uint32_t b)
{
    return via_crossing(k, i, a, b, (uint32_t)crosses(k, i, a, b));
}

/* The cuts after edit ED into CUT, as far as dist tells them; returns the
 * starts that must be searched again for the exact figure (with EXACT;
 * without, they take the addition's figure alone, an estimate that
 * apply_first checks). Only the starts the edit can change are looked at:
 * those with a removed edge on one of their shortest chains, or with a
 * shorter chain through the added edge. An addition alone is exact from
 * the chain through it; with removals that chain may have used a removed
 * edge. */
static unsigned cuts_known(const cutter *k, const edit *ed, int *cut, int exact)
{
    unsigned again = 0;
    /* The edges' crossings for every start at once (crosses() bit by bit). */
    unsigned xi = ed->add ? crossing_bits(k, ed->ins.a, ed->ins.b) : 0, xd[2] = {0, 0};
    for (int j = 0; j < ed->n_del; j++)
        xd[j] = crossing_bits(k, ed->del[j].a, ed->del[j].b);
    for (int i = 0; i < k->ns; i++) {
        cut[i] = k->cut[i];
        int shorter = ed->add ? via_crossing(k, i, ed->ins.a, ed->ins.b, xi >> i & 1) : NO_CUT;
        int on_chain = 0;
        for (int j = 0; j < ed->n_del; j++)
            on_chain |= via_crossing(k, i, ed->del[j].a, ed->del[j].b, xd[j] >> i & 1) ==
                        k->cut[i];
        if (shorter >= k->cut[i] && !on_chain)
            continue;
        if (!on_chain && (!ed->n_del || !exact))
            cut[i] = shorter; /* exact: the chains without it are as they were */
        else if (exact)
            again |= 1u << i;
        else if (shorter < k->cut[i])
            cut[i] = shorter;
    }
    return again;
}

/* The cuts after edit ED into CUT as far as dist tells them (see
 * cuts_known); 1 if any changed. */
static int cuts_after(const cutter *k, const edit *ed, int *cut)
{
    cuts_known(k, ed, cut, 0);
    int moved = 0;
    for (int i = 0; i < k->ns; i++)
        moved |= cut[i] != k->cut[i];
    return moved;
}

/* How far the cuts are from the nearest allowed band {c, .., c + width}, in
 * the high bits; below, their spread, so that among equal distances the search takes
 * the edit that draws the cuts together. */
static long long cost(const cutter *k, const int *cut)
{
    const cb_work *w = k->w;
    int lo = NO_CUT, hi = -1;
    long long s1 = 0, s2 = 0;
    for (int i = 0; i < k->ns; i++) {
        lo = cut[i] < lo ? cut[i] : lo;
        hi = cut[i] > hi ? cut[i] : hi;
        s1 += cut[i];
        s2 += (long long)cut[i] * cut[i];
    }
    /* The distance is convex in c, least for some c in lo - wd .. hi: once
     * it grows it grows on (hi is NO_CUT while a start has no cut). */
    int wd = w->cut_width;
    int c0 = lo - wd > w->cut_band_min ? lo - wd : w->cut_band_min;
    int c1 = hi < w->cut_band_max ? hi : w->cut_band_max;
    c0 = c0 < w->cut_band_max ? c0 : w->cut_band_max;
    c1 = c1 > c0 ? c1 : c0;
    long long best = -1;
    for (int c = c0; c <= c1; c++) {
        long long sum = 0;
        /* The distance outside {c, .., c + wd}: at most one of the two
         * differences is positive (wd >= 0), taken by max, not a branch. */
        for (int i = 0; i < k->ns; i++) {
            int under = c - cut[i], over = cut[i] - c - wd;
            int off = under > over ? under : over;
            sum += off > 0 ? off : 0;
        }
        if (best >= 0 && sum > best)
            break;
        best = best < 0 || sum < best ? sum : best;
    }
    return best << 32 | (k->ns * s2 - s1 * s1);
}

/* The hop clause after edit ED: every node reaches the centre, the starts'
 * hops lie in one allowed band {L, L+1}, no start sits behind a bridge
 * (looked for only after a removal: an addition makes no bridge). */
static int hops_fair(cutter *k, const edit *ed)
{
    cb_work *w = k->w;
    if (!cb_hops_all_reached(&k->hops))
        return 0;
    int lo = 1 << 30, hi = -1;
    for (int i = 0; i < k->ns; i++) {
        int h = w->hops[k->starts[i]];
        lo = h < lo ? h : lo;
        hi = h > hi ? h : hi;
    }
    /* The band {L, L+1} holding lo..hi must be an allowed one. */
    int l = hi - 1 > w->hop_band_min ? hi - 1 : w->hop_band_min;
    if (hi - lo > 1 || l > lo || l > w->hop_band_max)
        return 0;
    return !ed->n_del ||
           !cb_work_start_behind_bridge_after(w, ed->del, ed->n_del, &k->pairs, k->scratch);
}

typedef struct {
    long long cost;
    edit ed;
    int estimated;      /* cost from estimated cuts (see cuts_after) */
} trial;

static uint64_t edge_key(cb_edge e)
{
    return e.a < e.b ? (uint64_t)e.a << 32 | e.b : (uint64_t)e.b << 32 | e.a;
}

/* Cheapest first; ties: fewer edges changed, then by the edges. */
static int cmp_trial(const void *x, const void *y)
{
    const trial *a = x, *b = y;
    if (a->cost != b->cost)
        return a->cost < b->cost ? -1 : 1;
    int sa = a->ed.n_del + a->ed.add, sb = b->ed.n_del + b->ed.add;
    if (sa != sb)
        return sa < sb ? -1 : 1;
    if (a->ed.add != b->ed.add)
        return a->ed.add > b->ed.add ? -1 : 1;
    uint64_t ka = a->ed.add ? edge_key(a->ed.ins) : 0, kb = b->ed.add ? edge_key(b->ed.ins) : 0;
    if (ka != kb)
        return ka < kb ? -1 : 1;
    for (int j = 0; j < a->ed.n_del; j++) {
        ka = edge_key(a->ed.del[j]);
        kb = edge_key(b->ed.del[j]);
        if (ka != kb)
            return ka < kb ? -1 : 1;
    }
    return 0;
}

/* Keeps the CAP cheapest trials in T, sorted. */
static void keep(trial *t, size_t *nt, size_t cap, const trial *x)
{
    size_t j;
    if (*nt < cap)
        j = (*nt)++;
    else if (cmp_trial(x, &t[cap - 1]) >= 0)
        return; /* no cheaper than the dearest kept (a full list only) */
    else
        j = cap - 1;
    for (; j > 0 && cmp_trial(x, &t[j - 1]) < 0; j--)
        t[j] = t[j - 1];
    t[j] = *x;
}

static int core_or_centre(const cb_work *w, uint32_t v)
{
    return w->role[v] == CB_ROLE_CORE || v == w->center;
}

/* Edges of full node F that could go to make room: to a core node that
 * keeps 2 edges, not the new edge's other end. */
static int room_choices(const cb_work *w, uint32_t f, uint32_t other, cb_edge *out)
{
    int k = 0;
    if (!core_or_centre(w, f) || (f != w->center && w->deg[f] < 3))
        return 0;
    for (int j = 0; j < w->deg[f]; j++) {
        uint32_t x = w->adj[(size_t)f * CB_MAX_DEG + (size_t)j];
        if (x != other && w->role[x] == CB_ROLE_CORE && w->deg[x] >= 3)
            out[k++] = (cb_edge){f, x};
    }
    return k;
}

static size_t add_edge_once(cb_edge *e, size_t ne, size_t cap, uint32_t a, uint32_t b)
{
    cb_edge x = {a < b ? a : b, a < b ? b : a};
    for (size_t j = 0; j < ne; j++)
        if (e[j].a == x.a && e[j].b == x.b)
            return ne;
    if (ne < cap)
        e[ne++] = x;
    return ne;
}

/* Adds the edges on start i's shortest chains to E (holding NE, room for
 * CAP, each edge once, a < b), walking its search back from the border
 * nodes its chains end at; returns the new count. */
static size_t chain_edges(cutter *k, int i, cb_edge *e, size_t ne, size_t cap)
{
    const cb_work *w = k->w;
    uint32_t s = k->starts[i], c = w->center;
    const uint16_t *dist = dist_of(k, i);
    uint32_t *stack = k->queue;
    uint8_t *mark = k->mark;
    size_t top = 0;
    memset(mark, 0, 2 * w->n);
    for (uint32_t v = 0; v < w->n; v++)
        for (uint32_t p = 0; p < 2; p++) {
            if (dist[2 * v + p] != k->cut[i] - 1 || (k->border[v] && dist[2 * v + p] != 0))
                continue;
            for (int j = 0; j < w->deg[v]; j++) {
                uint32_t u = w->adj[(size_t)v * CB_MAX_DEG + (size_t)j];
                /* xm holds crosses() of v's edges for the graph as it is. */
                uint32_t x = k->xm[(size_t)v * CB_MAX_DEG + (size_t)j] >> i & 1;
                if (u == s || u == c || !k->border[u] || (p ^ x) != 1)
                    continue;
                ne = add_edge_once(e, ne, cap, v, u);
                if (!mark[2 * v + p]) {
                    mark[2 * v + p] = 1;
                    stack[top++] = 2 * v + p;
                }
            }
        }
    while (top) {
        uint32_t st = stack[--top], v = st >> 1, p = st & 1;
        int d = dist[st];
        if (d == 0)
            continue;
        for (int j = 0; j < w->deg[v]; j++) {
            uint32_t u = w->adj[(size_t)v * CB_MAX_DEG + (size_t)j];
            if (u == s || u == c)
                continue;
            uint32_t q = p ^ (uint32_t)(k->xm[(size_t)v * CB_MAX_DEG + (size_t)j] >> i & 1);
            if (dist[2 * u + q] != d - 1 || (k->border[u] && d - 1 != 0))
                continue;
            ne = add_edge_once(e, ne, cap, u, v);
            if (!mark[2 * u + q]) {
                mark[2 * u + q] = 1;
                stack[top++] = 2 * u + q;
            }
        }
    }
    return ne;
}

/* The edges on the shortest chains of the starts whose cut is LOWEST, into
 * k->chain; returns how many. Listed once a round: collect and
 * collect_moves ask for the same graph. */
static size_t lowest_chains(cutter *k, int lowest)
{
    if (k->n_chain >= 0)
        return (size_t)k->n_chain;
    size_t ne = 0;
    for (int i = 0; i < k->ns; i++)
        if (k->cut[i] == lowest)
            ne = chain_edges(k, i, k->chain, ne, MAX_CHAIN_EDGES);
    k->n_chain = (long)ne;
    return ne;
}

/* Does removing a-b lower the cost below CURRENT, ranked as if it raised
 * by one every start it is on a shortest chain of (apply_first searches
 * them)? Its cost into *C. */
static int removal_lowers(const cutter *k, uint32_t a, uint32_t b, long long current,
                          long long *c)
{
    int cut[CB_MAX_STARTS], moved = 0;
    unsigned x = crossing_bits(k, a, b);
    for (int i = 0; i < k->ns; i++) {
        cut[i] = k->cut[i] + (via_crossing(k, i, a, b, x >> i & 1) == k->cut[i]);
        moved |= cut[i] != k->cut[i];
    }
    return moved && (*c = cost(k, cut)) < current;
}

/* The edits that lower the cost, cheapest first, into T; returns how many. */
static size_t collect(cutter *k, long long current, trial *t, size_t cap)
{
    cb_work *w = k->w;
    size_t nt = 0;
    int cut[CB_MAX_STARTS];
    int lowest = NO_CUT, highest = -1;
    for (int i = 0; i < k->ns; i++) {
        lowest = k->cut[i] < lowest ? k->cut[i] : lowest;
        highest = k->cut[i] > highest ? k->cut[i] : highest;
    }
    /* Additions lower the cuts of the starts whose chains they shorten:
     * worth trying for a start above the lowest start's band, or above the
     * highest allowed band (a later sheet whose cuts are close together
     * but all too high). A full end makes room by giving up another of its
     * edges. */
    int too_high = lowest + w->cut_width;
    if (too_high > w->cut_band_max + w->cut_width)
        too_high = w->cut_band_max + w->cut_width;
    unsigned high = 0; /* the starts that are too high */
    for (int i = 0; i < k->ns; i++)
        high |= (unsigned)(k->cut[i] > too_high) << i;
    if (highest > w->cut_band_min + w->cut_width && highest > too_high)
        for (size_t j = 0; j < k->n_inner; j++) {
            cb_edge e = k->inner[j];
            if (cb_work_has_edge(w, e.a, e.b))
                continue;
            /* Only worth it when it shortens a chain of a start that is too
             * high. */
            unsigned xb = k->inner_x[j];
            int helps = 0;
            for (unsigned h = high; h && !helps; h &= h - 1) {
                int i = __builtin_ctz(h);
                helps = via_crossing(k, i, e.a, e.b, xb >> i & 1) < k->cut[i];
            }
            if (!helps)
                continue;
            trial x = {0, {0, {{0, 0}, {0, 0}}, 1, e}, 0};
            if (!cuts_after(k, &x.ed, cut) || (x.cost = cost(k, cut)) >= current)
                continue;
            int full_a = cb_work_room(w, e.a) <= 0, full_b = cb_work_room(w, e.b) <= 0;
            if (!full_a && !full_b) {
                keep(t, &nt, cap, &x);
                continue;
            }
            cb_edge ra[CB_MAX_DEG], rb[CB_MAX_DEG];
            int na = full_a ? room_choices(w, e.a, e.b, ra) : 1;
            int nb = full_b ? room_choices(w, e.b, e.a, rb) : 1;
            for (int ia = 0; ia < na; ia++)
                for (int ib = 0; ib < nb; ib++) {
                    x.ed.n_del = 0;
                    if (full_a)
                        x.ed.del[x.ed.n_del++] = ra[ia];
                    if (full_b) {
                        if (full_a && same_edge(ra[ia], rb[ib].a, rb[ib].b))
                            continue;
                        x.ed.del[x.ed.n_del++] = rb[ib];
                    }
                    /* Ranked by the addition alone; apply_first
                     * counts the removal in. */
                    x.estimated = 1;
                    keep(t, &nt, cap, &x);
                }
        }
    /* Removals raise the cuts of the starts whose every shortest chain
     * they are on: tried on the chains of the lowest starts. */
    if ((lowest < w->cut_band_min || highest > lowest + w->cut_width)) {
        size_t ne = lowest_chains(k, lowest);
        for (size_t j = 0; j < ne; j++) {
            uint32_t a = k->chain[j].a, b = k->chain[j].b;
            if (w->role[a] != CB_ROLE_CORE || w->deg[a] < 3 || w->role[b] != CB_ROLE_CORE ||
                w->deg[b] < 3)
                continue;
            trial x = {0, {1, {{a, b}, {0, 0}}, 0, {0, 0}}, 1};
            if (removal_lowers(k, a, b, current, &x.cost))
                keep(t, &nt, cap, &x);
        }
    }
    return nt;
}

/* When no single edit helps: the removals that a node with 2 edges or the
 * hops blocked. An edge a-b on a shortest chain of a lowest start is
 * moved: a gives up b and takes a triangulation neighbour z instead (a
 * full z gives up another edge, as for an addition), so a keeps its edges,
 * and a z one hop nearer the centre than a keeps the hops. Ranked by the
 * removal alone; apply_first searches. */
static size_t collect_moves(cutter *k, long long current, trial *t, size_t cap)
{
    cb_work *w = k->w;
    size_t nt = 0;
    int lowest = NO_CUT;
    for (int i = 0; i < k->ns; i++)
        lowest = k->cut[i] < lowest ? k->cut[i] : lowest;
    size_t ne = lowest_chains(k, lowest);
    for (size_t j = 0; j < ne; j++)
        for (int end = 0; end < 2; end++) {
            uint32_t a = end ? k->chain[j].b : k->chain[j].a;
            uint32_t b = end ? k->chain[j].a : k->chain[j].b;
            if (w->role[a] != CB_ROLE_CORE || w->role[b] != CB_ROLE_CORE ||
                w->deg[b] < 3)
                continue;
            trial x = {0, {1, {{a, b}, {0, 0}}, 1, {0, 0}}, 1};
            if (!removal_lowers(k, a, b, current, &x.cost))
                continue;
            for (uint32_t q = w->cand_off[a]; q < w->cand_off[a + 1]; q++) {
                uint32_t z = w->cand_nbr[q];
                if (z == b || !core_or_centre(w, z) || cb_work_has_edge(w, a, z))
                    continue;
                x.ed.ins = (cb_edge){a, z};
                x.ed.n_del = 1;
                if (cb_work_room(w, z) > 0) {
                    keep(t, &nt, cap, &x);
                    continue;
                }
                cb_edge rz[CB_MAX_DEG];
                int nz = room_choices(w, z, a, rz);
                x.ed.n_del = 2;
                for (int iz = 0; iz < nz; iz++) {
                    if (same_edge(rz[iz], a, b))
                        continue;
                    x.ed.del[1] = rz[iz];
                    keep(t, &nt, cap, &x);
                }
            }
        }
    return nt;
}

/* Puts b back at place I of a's neighbours (undoing cb_work_remove_edge
 * without changing the order the other steps read). */
static void put_back(cb_work *w, uint32_t a, uint32_t b, int i)
{
    uint32_t *na = w->adj + (size_t)a * CB_MAX_DEG;
    for (int j = w->deg[a]++; j > i; j--)
        na[j] = na[j - 1];
    na[i] = b;
}

static int index_of(const cb_work *w, uint32_t a, uint32_t b)
{
    const uint32_t *na = w->adj + (size_t)a * CB_MAX_DEG;
    for (int i = 0; i < w->deg[a]; i++)
        if (na[i] == b)
            return i;
    return -1;
}

/* Can edit ED change start i's search (its cut, or its dist below the cut)?
 * Only when it removes an edge some search path takes (the far end one
 * further than the near end) or adds one that would shorten one. */
static int needs_search(const cutter *k, int i, const edit *ed)
{
    for (int d = 0; d < ed->n_del; d++) {
        uint32_t a = ed->del[d].a, b = ed->del[d].b;
        if (via(k, i, a, b) == k->cut[i])
            return 1;
        uint32_t x = (uint32_t)crosses(k, i, a, b);
        const uint16_t *dist = dist_of(k, i);
        for (uint32_t p = 0; p < 2; p++) {
            int da = dist[2 * a + p], db = dist[2 * b + (p ^ x)];
            if ((da != UNREACHED && db == da + 1) || (db != UNREACHED && da == db + 1))
                return 1;
        }
    }
    if (ed->add) {
        uint32_t a = ed->ins.a, b = ed->ins.b;
        if (via(k, i, a, b) < k->cut[i])
            return 1;
        uint32_t x = (uint32_t)crosses(k, i, a, b);
        const uint16_t *dist = dist_of(k, i);
        for (uint32_t p = 0; p < 2; p++) {
            int da = dist[2 * a + p], db = dist[2 * b + (p ^ x)];
            if ((da != UNREACHED && db > da + 1) || (db != UNREACHED && da > db + 1))
                return 1;
        }
    }
    return 0;
}

/* The crossing bits of the nodes edit ED touches, for the graph as it is. */
static void update_edit_masks(cutter *k, const edit *ed)
{
    for (int d = 0; d < ed->n_del; d++) {
        update_masks(k, ed->del[d].a);
        update_masks(k, ed->del[d].b);
    }
    if (ed->add) {
        update_masks(k, ed->ins.a);
        update_masks(k, ed->ins.b);
    }
}

/* Makes the first of the trials that truly lowers the cost (they were
 * ranked by estimates) and keeps the hop clause; returns its index, or -1
 * when none does. Each is made first and its hops checked, then, when its
 * cost was estimated, searched on the edited graph: the hop check is the
 * cheaper, and the one that fails more often. */
static long apply_first(cutter *k, const trial *t, size_t nt, long long current)
{
    cb_work *w = k->w;
    int cut[CB_MAX_STARTS];
    for (size_t j = 0; j < nt; j++) {
        const edit *ed = &t[j].ed;
        int at[2][2];
        cb_hops_begin(&k->hops);
        for (int d = 0; d < ed->n_del; d++) {
            at[d][0] = index_of(w, ed->del[d].a, ed->del[d].b);
            at[d][1] = index_of(w, ed->del[d].b, ed->del[d].a);
            cb_work_remove_edge(w, ed->del[d].a, ed->del[d].b);
            cb_hops_removed(&k->hops, ed->del[d].a, ed->del[d].b);
        }
        /* An edge alone between nodes at most one hop apart moves no hop. */
        int dh = ed->add ? w->hops[ed->ins.a] - w->hops[ed->ins.b] : 2;
        if (ed->add) {
            cb_work_add_edge(w, ed->ins.a, ed->ins.b);
            cb_hops_added(&k->hops, ed->ins.a, ed->ins.b);
        }
        int fair = (ed->n_del == 0 && dh >= -1 && dh <= 1) || hops_fair(k, ed);
        if (fair && !t[j].estimated)
            return (long)j;
        if (fair) {
            update_edit_masks(k, ed);
            unsigned again = cuts_known(k, ed, cut, 1);
            if (again)
                search(k, again, cut, 0);
            if (cost(k, cut) < current)
                return (long)j;
        }
        cb_hops_undo(&k->hops);
        if (ed->add)
            cb_work_remove_edge(w, ed->ins.a, ed->ins.b);
        for (int d = ed->n_del; d-- > 0;) {
            put_back(w, ed->del[d].a, ed->del[d].b, at[d][0]);
            put_back(w, ed->del[d].b, ed->del[d].a, at[d][1]);
        }
        if (fair)
            update_edit_masks(k, ed);
    }
    return -1;
}

/* Drops the trials that undo an edit this run made (E: removed edges, then
 * added ones, flagged by ADDED). */
static size_t drop_undoing(trial *t, size_t nt, const cb_edge *e, const int *added, int ne)
{
    size_t out = 0;
    for (size_t j = 0; j < nt; j++) {
        const edit *ed = &t[j].ed;
        int undo = 0;
        for (int q = 0; q < ne && !undo; q++) {
            if (added[q])
                for (int d = 0; d < ed->n_del; d++)
                    undo |= same_edge(ed->del[d], e[q].a, e[q].b);
            else
                undo |= ed->add && same_edge(ed->ins, e[q].a, e[q].b);
        }
        if (!undo)
            t[out++] = t[j];
    }
    return out;
}

static void free_cutter(cutter *k)
{
    free(k->dist);
    free(k->up);
    free(k->border);
    free(k->xm);
    free(k->allow);
    free(k->queue);
    free(k->inner);
    free(k->inner_x);
    cb_pair_search_free(&k->pairs);
    cb_hops_free(&k->hops);
}

int cb_cut_balance(cb_work *w)
{
    size_t n = w->n;
    cutter k = {0};
    k.w = w;
    for (uint32_t v = 0; v < n; v++)
        if (w->role[v] == CB_ROLE_START) {
            if (k.ns == CB_MAX_STARTS) {
                w->failure = CB_FAIL_CUT_SPREAD;
                return -1;
            }
            k.starts[k.ns++] = v;
        }
    k.dist = malloc((size_t)k.ns * 2 * n * sizeof *k.dist);
    k.up = malloc(n * sizeof *k.up);
    k.border = malloc(3 * n);
    k.xm = malloc(n * CB_MAX_DEG * sizeof *k.xm);
    k.allow = malloc(4 * n * sizeof *k.allow);
    k.queue = malloc(9 * n * sizeof *k.queue);
    k.inner = malloc((w->n_cand ? w->n_cand : 1) * sizeof *k.inner);
    k.inner_x = malloc((w->n_cand ? w->n_cand : 1) * sizeof *k.inner_x);
    if (!k.dist || !k.up || !k.border || !k.xm || !k.allow || !k.queue || !k.inner ||
        !k.inner_x ||
        cb_pair_search_init(&k.pairs, n) != 0 || cb_hops_init(&k.hops, w) != 0) {
        free_cutter(&k);
        w->failure = CB_FAIL_NOMEM;
        return -1;
    }
    k.mark = k.border + n;
    /* Roles do not change here: the edges an addition may take are listed
     * once. */
    for (size_t j = 0; j < w->n_cand; j++)
        if (core_or_centre(w, w->cand[j].a) && core_or_centre(w, w->cand[j].b))
            k.inner[k.n_inner++] = w->cand[j];
    for (int i = 0; i < k.ns; i++)
        k.dist_at[i] = k.dist + (size_t)i * 2 * n;
    k.scratch = k.queue + 2 * n;
    k.sources = k.queue + 8 * n;
    k.seen = k.allow + n;
    k.cur = k.allow + 2 * n;
    k.next = k.allow + 3 * n;
    memset(k.cur, 0, n * sizeof *k.cur);
    uint32_t all = (1u << k.ns) - 1;
    for (uint32_t v = 0; v < n; v++)
        k.allow[v] = v == w->center ? 0 : all | all << 16;
    for (int i = 0; i < k.ns; i++)
        k.allow[k.starts[i]] &= ~(1u << i | 1u << (16 + i));
    for (uint32_t v = 0; v < n; v++) {
        k.border[v] = w->sides[v] != 0 && w->role[v] != CB_ROLE_DROPPED;
        if (k.border[v])
            k.sources[k.n_sources++] = v;
    }
    cb_point c = w->p[w->center];
    memset(k.up, 0, n * sizeof *k.up);
    for (int i = 0; i < k.ns; i++) {
        cb_point s = w->p[k.starts[i]];
        for (uint32_t v = 0; v < n; v++)
            k.up[v] |= (uint16_t)((orient(c, s, w->p[v]) > 0) << i);
    }
    for (uint32_t v = 0; v < n; v++)
        update_masks(&k, v);
    for (size_t j = 0; j < k.n_inner; j++)
        k.inner_x[j] = (uint16_t)crossing_bits(&k, k.inner[j].a, k.inner[j].b);
    research(&k, (1u << k.ns) - 1);
    trial t[MAX_TRIALS];
    size_t cap = w->node_cap <= 3 ? MAX_TRIALS : FEW_TRIALS;
    long long current = cost(&k, k.cut);
    int rounds = 0, plateau = 0;
    /* The edges this run removed (done_added 0) and added (1). */
    cb_edge done[3 * MAX_ROUNDS];
    int done_added[3 * MAX_ROUNDS], n_done = 0;
    for (; rounds < MAX_ROUNDS && current >> 32; rounds++) {
        k.n_chain = -1; /* the graph changed */
        long made = -1;
        /* Pass 0 wants the cost lower; pass 1, a sideways step, the cuts
         * no further from the band. */
        for (int pass = 0; pass < 2 && made < 0; pass++) {
            if (pass == 1 && plateau == MAX_PLATEAU)
                break;
            long long limit = pass ? ((current >> 32) + 1) << 32 : current;
            /* Single edits first, then edge moves (collect_moves). */
            for (int moves = 0; moves < 2 && made < 0; moves++) {
                size_t nt = moves ? collect_moves(&k, limit, t, cap) : collect(&k, limit, t, cap);
                if (plateau)
                    nt = drop_undoing(t, nt, done, done_added, n_done);
                made = apply_first(&k, t, nt, limit);
            }
            if (made >= 0 && pass)
                plateau++;
        }
        if (made < 0)
            break;
        /* The edit is made: the graph is the searches' plain graph. */
        const edit *ed = &t[made].ed;
        for (int d = 0; d < ed->n_del; d++) {
            done[n_done] = ed->del[d];
            done_added[n_done++] = 0;
        }
        if (ed->add) {
            done[n_done] = ed->ins;
            done_added[n_done++] = 1;
        }
        update_edit_masks(&k, ed);
        unsigned again = 0;
        for (int i = 0; i < k.ns; i++)
            if (needs_search(&k, i, &t[made].ed))
                again |= 1u << i;
        research(&k, again);
        current = cost(&k, k.cut);
    }
    int lo = NO_CUT, hi = -1;
    for (int i = 0; i < k.ns; i++) {
        lo = k.cut[i] < lo ? k.cut[i] : lo;
        hi = k.cut[i] > hi ? k.cut[i] : hi;
    }
    free_cutter(&k);
    if (current >> 32) { /* some start outside every allowed band */
        w->failure = CB_FAIL_CUT_SPREAD;
        return -1;
    }
    w->cut_lo = lo;
    w->cut_hi = hi;
    return 0;
}
