/* The rules engine (see engine.h): the state of a game and its turns. */
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "board/deal.h"
#include "game/engine.h"
#include "io/theme.h"
#include "planar/halfedge.h"

static uint32_t paper_groups(const gm_sheet *sh, const uint8_t *faces, const uint8_t *edges,
                             uint32_t *cls);
static void marks_rescan(const gm_game *g, gm_state *s, int p);

/* ---- the fixed picture ---- */

static void sheet_free(gm_sheet *sh)
{
    free(sh->adj_off); free(sh->adj_e); free(sh->adj_w); free(sh->ends); free(sh->eface);
    free(sh->vf_off); free(sh->vf); free(sh->fe_off); free(sh->fe); free(sh->farea); free(sh->trim); free(sh->trim_edge);
    free(sh->type); free(sh->dots);
    memset(sh, 0, sizeof *sh);
}

void gm_game_free(gm_game *g)
{
    for (int k = 0; k < g->n_sheets; k++)
        sheet_free(&g->sheets[k]);
    g->n_sheets = 0;
}

/* Frees P unless it is KEPT, the caller's. */
static void plane_done(cb_planar *p, const cb_planar *kept)
{
    if (!kept)
        cb_planar_free(p);
}

/* SH from board B, with B's plane drawing KEPT (or NULL: built here). */
static cb_status sheet_init(gm_sheet *sh, const cb_board *b, const cb_planar *kept,
                            cb_error *err)
{
    cb_planar own;
    if (!kept) {
        cb_status st = cb_planar_build(&own, b, err);
        if (st != CB_OK)
            return st;
    }
    const cb_planar *p = kept ? kept : &own;
    uint32_t n = (uint32_t)b->n_nodes, m = (uint32_t)b->n_edges, nf = (uint32_t)p->n_faces;
    sh->board = b;
    sh->n = n, sh->m = m, sh->nf = nf, sh->center = b->center;
    sh->adj_off = calloc(n + 1, sizeof *sh->adj_off);
    sh->adj_e = malloc((2 * (size_t)m + 1) * sizeof *sh->adj_e);
    sh->adj_w = malloc((2 * (size_t)m + 1) * sizeof *sh->adj_w);
    sh->ends = malloc(((size_t)m + 1) * sizeof *sh->ends);
    sh->eface = malloc(((size_t)m + 1) * sizeof *sh->eface);
    sh->vf_off = calloc(n + 1, sizeof *sh->vf_off);
    sh->vf = malloc((2 * (size_t)m + n + 1) * sizeof *sh->vf);
    sh->fe_off = calloc((size_t)nf + 1, sizeof *sh->fe_off);
    sh->fe = malloc((2 * (size_t)m + 1) * sizeof *sh->fe);
    sh->farea = malloc(((size_t)nf + 1) * sizeof *sh->farea);
    sh->trim = calloc(n + 1, 1);
    sh->trim_edge = calloc((size_t)m + 1, 1);
    sh->type = malloc(((size_t)n + 1) * sizeof *sh->type);
    sh->dots = calloc(n + 1, 1);
    if (!sh->adj_off || !sh->adj_e || !sh->adj_w || !sh->ends || !sh->eface || !sh->vf_off || !sh->vf ||
        !sh->fe_off || !sh->fe ||
        !sh->farea || !sh->trim || !sh->trim_edge || !sh->type || !sh->dots) {
        plane_done(&own, kept);
        return cb_fail(err, CB_ERR_NOMEM, "out of memory setting up a game");
    }
    for (uint32_t e = 0; e < m; e++) {
        sh->ends[e][0] = b->edges[e].a, sh->ends[e][1] = b->edges[e].b;
        sh->eface[e][0] = p->face[2 * e], sh->eface[e][1] = p->face[2 * e + 1];
        sh->trim_edge[e] = sh->eface[e][0] == 0 || sh->eface[e][1] == 0;
        sh->adj_off[b->edges[e].a + 1]++, sh->adj_off[b->edges[e].b + 1]++;
    }
    for (uint32_t v = 0; v < n; v++)
        sh->adj_off[v + 1] += sh->adj_off[v];
    uint32_t *fill = calloc(n + 1, sizeof *fill);
    if (!fill) {
        plane_done(&own, kept);
        return cb_fail(err, CB_ERR_NOMEM, "out of memory setting up a game");
    }
    for (uint32_t e = 0; e < m; e++)
        for (int k = 0; k < 2; k++) {
            uint32_t v = sh->ends[e][k];
            sh->adj_w[sh->adj_off[v] + fill[v]] = sh->ends[e][1 - k];
            sh->adj_e[sh->adj_off[v] + fill[v]++] = e;
        }
    free(fill);
    for (uint32_t v = 0; v < n; v++) {
        sh->vf_off[v + 1] = sh->vf_off[v] + (uint32_t)cb_planar_vertex_faces(p, v,
                                                                         sh->vf + sh->vf_off[v]);
        sh->trim[v] = p->on_border[v];
        const cb_node *node = &b->nodes[v];
        sh->type[v] = (int16_t)(node->kind == CB_KIND_NODE ? node->type : -1);
        sh->dots[v] = (uint8_t)(node->dots > 0 ? node->dots : 0);
        if (node->kind == CB_KIND_START && sh->n_starts < CB_VERDICT_STARTS)
            sh->starts[sh->n_starts++] = v;
    }
    for (uint32_t f = 0; f < nf; f++)
        sh->farea[f] = p->area[f];
    for (uint32_t e = 0; e < m; e++)
        for (int k = 0; k < 2; k++)
            sh->fe_off[sh->eface[e][k] + 1]++;
    for (uint32_t f = 0; f < nf; f++)
        sh->fe_off[f + 1] += sh->fe_off[f];
    for (uint32_t e = 0; e < m; e++) /* fe_off[f] runs ahead while filling, then back */
        for (int k = 0; k < 2; k++)
            sh->fe[sh->fe_off[sh->eface[e][k]]++] = e;
    for (uint32_t f = nf; f > 0; f--)
        sh->fe_off[f] = sh->fe_off[f - 1];
    sh->fe_off[0] = 0;
    plane_done(&own, kept);
    for (int k = 0; k < GM_MAX_PLAYERS; k++)
        sh->seat_start[k] = GM_NONE;
    for (int i = 0; i < sh->n_starts; i++) {
        int num = b->nodes[sh->starts[i]].number;
        if (num >= 1 && num <= GM_MAX_PLAYERS)
            sh->seat_start[num - 1] = sh->starts[i];
    }
    return CB_OK;
}

cb_status gm_game_init(gm_game *g, const cb_game *game, const cb_planar *planes,
                       const cb_theme *theme, cb_error *err)
{
    memset(g, 0, sizeof *g);
    if (!theme || theme->version < 3)
        return cb_fail(err, CB_ERR_DATA, "the theme's rules are not data (cutboard-theme/3 "
                                         "needed to play them)");
    g->theme = theme;
    g->play = theme->play;
    g->players = game->players;
    g->shared = game->shared;
    size_t want = game->shared ? 1 : (size_t)game->players;
    if (game->players < CB_PLAYERS_MIN || game->players > CB_PLAYERS_MAX ||
        game->n_sheets != want)
        return cb_fail(err, CB_ERR_DATA, "%zu sheets for %d players %s", game->n_sheets,
                       game->players, game->shared ? "at one board" : "on own sheets");
    size_t off = 0;
    for (size_t k = 0; k < game->n_sheets; k++) {
        gm_sheet *sh = &g->sheets[k];
        cb_status st = sheet_init(sh, game->sheets[k], planes ? &planes[k] : NULL, err);
        g->n_sheets = (int)k + 1;
        if (st != CB_OK) {
            gm_game_free(g);
            return st;
        }
        if (sh->n > GM_MAX_NODES) {
            gm_game_free(g);
            return cb_fail(err, CB_ERR_DATA, "sheet %zu has %u nodes; games are played on "
                           "boards of up to %d", k + 1, sh->n, GM_MAX_NODES);
        }
        if (sh->n_starts == 0) {
            gm_game_free(g);
            return cb_fail(err, CB_ERR_DATA, "sheet %zu has no start", k + 1);
        }
        sh->paper_nodes = 1;
        for (uint32_t v = 0; v < sh->n; v++) {
            int inner = 0;
            for (uint32_t i = sh->vf_off[v]; i < sh->vf_off[v + 1]; i++)
                inner |= sh->vf[i] != 0;
            sh->paper_nodes &= inner && sh->adj_off[v + 1] > sh->adj_off[v];
        }
        {
            uint8_t faces[sh->nf ? sh->nf : 1], edges[sh->m ? sh->m : 1];
            uint32_t cls[sh->nf ? sh->nf : 1];
            memset(faces, 1, sh->nf ? sh->nf : 1);
            faces[0] = 0;
            memset(edges, 0, sh->m ? sh->m : 1);
            sh->paper_joined = paper_groups(sh, faces, edges, cls) <= 1;
        }
        sh->off_edge = off, off += sh->m;
        sh->off_face = off, off += sh->nf;
        sh->off_node = off, off += sh->n;
        sh->off_dots = off, off += sh->n;
        off = (off + 1) & ~(size_t)1;
        sh->off_marks = off, off += 2 * (size_t)sh->n;
    }
    g->mem_len = off;
    int hops = cb_theme_counts_hops(theme) ? cb_game_route_hops(game) : 0;
    if (hops < 0) {
        gm_game_free(g);
        return cb_fail(err, CB_ERR_NOMEM, "out of memory setting up a game");
    }
    /* Seats without a numbered start (a board file from before the deal):
     * the starts in node order. */
    for (int p = 0; p < g->players; p++) {
        gm_sheet *sh = &g->sheets[g->shared ? 0 : p];
        if (sh->seat_start[p] == GM_NONE) {
            int own = g->shared ? p : 0;
            sh->seat_start[p] = sh->starts[own % sh->n_starts];
        }
        int mission = sh->board->nodes[sh->seat_start[p]].mission;
        g->mission[p] = mission >= 0 && (size_t)mission < theme->n_missions ? mission : -1;
        if (g->mission[p] >= 0) {
            g->goal[p] = cb_goal_for_game(cb_mission_goal(&theme->missions[mission], g->shared),
                                          hops, g->players);
        }
    }
    return CB_OK;
}

/* ---- states ---- */

gm_state *gm_state_new(const gm_game *g, uint64_t seed)
{
    gm_state *s = calloc(1, sizeof *s);
    if (!s || !(s->mem = malloc(g->mem_len ? g->mem_len : 1))) {
        free(s);
        return NULL;
    }
    s->mem_len = g->mem_len;
    cb_rng_seed(&s->rng, seed);
    for (int k = 0; k < g->n_sheets; k++) {
        const gm_sheet *sh = &g->sheets[k];
        memset(gm_edges(g, s, k), 0, sh->m);
        memset(gm_faces(g, s, k), 1, sh->nf);
        gm_faces(g, s, k)[0] = 0;
        memset(gm_nodes(g, s, k), 1, sh->n);
        memcpy(gm_dots(g, s, k), sh->dots, sh->n);
        memset(gm_marks(g, s, k), 0, 2 * (size_t)sh->n);
    }
    for (int p = 0; p < g->players; p++) {
        gm_player *P = &s->players[p];
        P->sheet = g->shared ? 0 : p;
        const gm_sheet *sh = &g->sheets[P->sheet];
        P->at = (int32_t)sh->seat_start[p];
        P->camp = P->shield = -1;
        if (gm_dots(g, s, P->sheet)[P->at] > 0) /* "fill in its dot" */
            gm_mark(g, s, p, (uint32_t)P->at);
    }
    for (int k = 0; k < g->n_sheets; k++)
        s->paper_joined[k] = (uint8_t)g->sheets[k].paper_joined;
    s->round = 1;
    return s;
}

void gm_state_free(gm_state *s)
{
    if (s)
        free(s->mem);
    free(s);
}

void gm_state_copy(gm_state *dst, const gm_state *src)
{
    uint8_t *mem = dst->mem;
    memcpy(dst, src, sizeof *dst);
    dst->mem = mem;
    memcpy(dst->mem, src->mem, src->mem_len);
}

/* ---- the paper ---- */

static int shielded(const gm_game *g, const gm_state *s, int sheet, uint32_t v)
{
    for (int p = 0; p < g->players; p++)
        if (s->players[p].shield == (int32_t)v && s->players[p].sheet == sheet)
            return 1;
    return 0;
}

int gm_cuttable(const gm_game *g, const gm_state *s, int sheet, uint32_t e)
{
    const gm_sheet *sh = &g->sheets[sheet];
    return !sh->trim_edge[e] && sh->ends[e][0] != sh->center && sh->ends[e][1] != sh->center &&
           !(gm_edges(g, s, sheet)[e] & (GM_GUARD | GM_MEND)) &&
           gm_walkable(g, s, sheet, e) && !shielded(g, s, sheet, sh->ends[e][0]) &&
           !shielded(g, s, sheet, sh->ends[e][1]);
}

void gm_cuttable_edges(const gm_game *g, const gm_state *s, int sheet, uint8_t *ok)
{
    const gm_sheet *sh = &g->sheets[sheet];
    const uint8_t *edges = gm_edges(g, s, sheet), *faces = gm_faces(g, s, sheet);
    /* the shields on this sheet, looked up once rather than per edge end */
    uint32_t shield[GM_MAX_PLAYERS];
    int n_shield = 0;
    for (int p = 0; p < g->players; p++)
        if (s->players[p].shield >= 0 && s->players[p].sheet == sheet)
            shield[n_shield++] = (uint32_t)s->players[p].shield;
    for (uint32_t e = 0; e < sh->m; e++) {
        uint32_t a = sh->ends[e][0], b = sh->ends[e][1];
        int can = !sh->trim_edge[e] && a != sh->center && b != sh->center &&
                  !(edges[e] & (GM_CUT | GM_GUARD | GM_MEND)) &&
                  (faces[sh->eface[e][0]] || faces[sh->eface[e][1]]);
        for (int i = 0; can && i < n_shield; i++)
            can = shield[i] != a && shield[i] != b;
        ok[e] = (uint8_t)can;
    }
}

int gm_paper_edge(const gm_game *g, const gm_state *s, int sheet, uint32_t v)
{
    const gm_sheet *sh = &g->sheets[sheet];
    if (!gm_nodes(g, s, sheet)[v])
        return 0;
    if (sh->trim[v])
        return 1;
    const uint8_t *edges = gm_edges(g, s, sheet), *faces = gm_faces(g, s, sheet);
    for (uint32_t i = sh->adj_off[v]; i < sh->adj_off[v + 1]; i++)
        if (edges[sh->adj_e[i]] & GM_CUT)
            return 1;
    for (uint32_t i = sh->vf_off[v]; i < sh->vf_off[v + 1]; i++)
        if (!faces[sh->vf[i]])
            return 1;
    return 0;
}

/* Labels each piece of paper on SHEET with the lowest-numbered piece it is
 * still joined to (CLS; joined: an uncut edge between them), as a
 * union-find that always keeps the lower root would; returns how many
 * groups there are. A flood over the pieces' edges. */
static uint32_t paper_groups(const gm_sheet *sh, const uint8_t *faces, const uint8_t *edges,
                             uint32_t *cls)
{
    uint32_t nf = sh->nf, groups = 0;
    uint32_t stack[nf ? nf : 1];
    for (uint32_t f = 0; f < nf; f++)
        cls[f] = f; /* dead pieces stay alone */
    uint8_t seen[nf ? nf : 1];
    memset(seen, 0, nf ? nf : 1);
    for (uint32_t root = 1; root < nf; root++) {
        if (!faces[root] || seen[root])
            continue;
        groups++;
        uint32_t top = 0;
        seen[root] = 1;
        stack[top++] = root;
        while (top > 0) {
            uint32_t f = stack[--top];
            cls[f] = root;
            for (uint32_t i = sh->fe_off[f]; i < sh->fe_off[f + 1]; i++) {
                uint32_t e = sh->fe[i];
                uint32_t o = sh->eface[e][0] == f ? sh->eface[e][1] : sh->eface[e][0];
                if ((edges[e] & GM_CUT) || !faces[o] || seen[o])
                    continue;
                seen[o] = 1;
                stack[top++] = o;
            }
        }
    }
    return groups;
}

static void paper_fall(const gm_game *g, gm_state *s, int sheet, int cutter)
{
    const gm_sheet *sh = &g->sheets[sheet];
    uint8_t *faces = gm_faces(g, s, sheet), *nodes = gm_nodes(g, s, sheet);
    const uint8_t *edges = gm_edges(g, s, sheet);
    uint32_t nf = sh->nf, cls[nf ? nf : 1];
    uint32_t groups = paper_groups(sh, faces, edges, cls);
    if (groups <= 1) { /* most cuts: one piece, and it falls only without the summit */
        int holds_summit = groups == 0;
        for (uint32_t i = sh->vf_off[sh->center]; i < sh->vf_off[sh->center + 1]; i++)
            holds_summit |= faces[sh->vf[i]] != 0;
        if (holds_summit)
            return;
    }
    double area[nf ? nf : 1];
    for (uint32_t f = 0; f < nf; f++)
        area[f] = 0;
    for (uint32_t f = 1; f < nf; f++)
        if (faces[f])
            area[cls[f]] += sh->farea[f];
    /* The piece that stays: the largest touching the summit. */
    uint32_t keep = GM_NONE;
    for (uint32_t i = sh->vf_off[sh->center]; i < sh->vf_off[sh->center + 1]; i++) {
        uint32_t f = sh->vf[i];
        if (!faces[f])
            continue;
        uint32_t c = cls[f];
        if (keep == GM_NONE || area[c] > area[keep] || (area[c] == area[keep] && c < keep))
            keep = c;
    }
    uint8_t fell[nf ? nf : 1];
    int any = 0;
    for (uint32_t f = 1; f < nf; f++) {
        fell[f] = faces[f] && cls[f] != keep;
        if (fell[f])
            faces[f] = 0, any = 1;
    }
    if (!any)
        return;
    s->paper_version[sheet]++;
    /* The pieces that fell (one class each), kept by whoever cut them. */
    uint8_t counted[nf ? nf : 1];
    memset(counted, 0, nf ? nf : 1);
    for (uint32_t f = 1; f < nf; f++)
        if (fell[f] && !counted[cls[f]]) {
            counted[cls[f]] = 1;
            s->tally.pieces++;
            if (cutter >= 0)
                s->players[cutter].pieces++;
        }
    /* Nodes left without paper, and the players whose marks fell with them:
     * on a sheet whose every node touches paper at first, only nodes of the
     * pieces that fell can be (in any order: each node's changes are its
     * own), else every node is looked at. */
    unsigned lost_marks = 0;
    uint32_t n_near = 0, near[sh->paper_nodes ? sh->n : 1];
    uint8_t seen[sh->paper_nodes ? sh->n : 1];
    if (sh->paper_nodes) {
        memset(seen, 0, sh->n);
        for (uint32_t f = 1; f < nf; f++)
            for (uint32_t i = fell[f] ? sh->fe_off[f] : 0; fell[f] && i < sh->fe_off[f + 1]; i++)
                for (int k = 0; k < 2; k++) {
                    uint32_t v = sh->ends[sh->fe[i]][k];
                    if (!seen[v])
                        seen[v] = 1, near[n_near++] = v;
                }
    }
    for (uint32_t j = 0; j < (sh->paper_nodes ? n_near : sh->n); j++) {
        uint32_t v = sh->paper_nodes ? near[j] : j;
        if (!nodes[v])
            continue;
        int alive = 0;
        for (uint32_t i = sh->vf_off[v]; i < sh->vf_off[v + 1]; i++)
            alive |= faces[sh->vf[i]] != 0;
        if (alive)
            continue;
        nodes[v] = 0;
        if (sh->type[v] >= 0)
            lost_marks |= gm_marks(g, s, sheet)[v];
        for (int p = 0; p < g->players; p++) {
            gm_player *P = &s->players[p];
            if (P->sheet != sheet)
                continue;
            if (P->at == (int32_t)v) {
                P->at = -1;
                s->tally.ever_stranded[p] = 1;
            }
            if (P->camp == (int32_t)v)
                P->camp = -1;
            if (P->shield == (int32_t)v)
                P->shield = -1;
        }
    }
    for (int p = 0; p < g->players; p++)
        if ((lost_marks >> p & 1) && s->players[p].sheet == sheet)
            marks_rescan(g, s, p);
}

void gm_paper_fall(const gm_game *g, gm_state *s, int sheet, int cutter)
{
    paper_fall(g, s, sheet, cutter);
    s->paper_joined[sheet] = 1; /* what stays is one piece, or none */
}

/* Whether pieces A and B of SHEET are joined across uncut edges: a search
 * from both at once, one piece each in turn, so it ends within twice the
 * smaller side when they are parted, and soon when a short cut only
 * notches the paper. SIDE: nf zeros, left so. */
static int joined(const gm_sheet *sh, const uint8_t *faces, const uint8_t *edges, uint32_t a,
                  uint32_t b, uint8_t *side, uint32_t *queue)
{
    uint32_t nf = sh->nf;
    /* A's queue from the front, B's from the back */
    uint32_t ha = 0, ta = 0, hb = nf, tb = nf;
    side[a] = 1, queue[ta++] = a;
    side[b] = 2, queue[--tb] = b;
    int met = 0;
    while (!met && ha < ta && hb > tb) {
        for (int k = 1; k <= 2 && !met; k++) {
            uint32_t f = k == 1 ? queue[ha++] : queue[--hb];
            for (uint32_t i = sh->fe_off[f]; i < sh->fe_off[f + 1]; i++) {
                uint32_t e = sh->fe[i];
                uint32_t o = sh->eface[e][0] == f ? sh->eface[e][1] : sh->eface[e][0];
                if ((edges[e] & GM_CUT) || !faces[o] || side[o] == k)
                    continue;
                if (side[o]) {
                    met = 1;
                    break;
                }
                side[o] = (uint8_t)k;
                if (k == 1)
                    queue[ta++] = o;
                else
                    queue[--tb] = o;
            }
        }
    }
    for (uint32_t i = 0; i < ta; i++)
        side[queue[i]] = 0;
    for (uint32_t i = tb; i < nf; i++)
        side[queue[i]] = 0;
    return met;
}

void gm_paper_fall_cut(const gm_game *g, gm_state *s, int sheet, int cutter,
                       const uint32_t *cut, int n_cut)
{
    const gm_sheet *sh = &g->sheets[sheet];
    const uint8_t *faces = gm_faces(g, s, sheet), *edges = gm_edges(g, s, sheet);
    if (s->paper_joined[sheet] && sh->nf > 0) {
        uint32_t nf = sh->nf, queue[nf];
        uint8_t side[nf];
        memset(side, 0, nf);
        int whole = 1;
        for (int i = 0; whole && i < n_cut; i++) {
            uint32_t a = sh->eface[cut[i]][0], b = sh->eface[cut[i]][1];
            if (a != b && faces[a] && faces[b])
                whole = joined(sh, faces, edges, a, b, side, queue);
        }
        /* still one piece: it stays when it touches the summit */
        for (uint32_t i = sh->vf_off[sh->center]; whole && i < sh->vf_off[sh->center + 1]; i++)
            if (faces[sh->vf[i]])
                return;
    }
    gm_paper_fall(g, s, sheet, cutter);
}

/* ---- distances ---- */

static void bfs(const gm_game *g, const gm_state *s, int sheet, uint32_t from, int *dist,
                uint32_t *queue)
{
    const gm_sheet *sh = &g->sheets[sheet];
    memset(dist, 0xff, sh->n * sizeof *dist); /* -1 everywhere */
    if (!gm_nodes(g, s, sheet)[from])
        return;
    uint32_t head = 0, tail = 0;
    dist[from] = 0;
    queue[tail++] = from;
    const uint8_t *edges = gm_edges(g, s, sheet), *faces = gm_faces(g, s, sheet);
    const uint32_t *adj_off = sh->adj_off, *adj_e = sh->adj_e, *adj_w = sh->adj_w;
    const uint32_t(*eface)[2] = sh->eface;
    while (head < tail) {
        uint32_t v = queue[head++];
        if (v == sh->center && v != from)
            continue; /* nobody walks through the summit */
        int next = dist[v] + 1;
        /* gm_walkable, spelled out and without a branch: whether a
         * neighbour is new is a coin toss the processor cannot predict. The
         * neighbour is written past the queue's end either way and kept
         * when new (the queue has room for one more than the nodes). */
        for (uint32_t i = adj_off[v], end = adj_off[v + 1]; i < end; i++) {
            uint32_t e = adj_e[i], w = adj_w[i];
            int old = dist[w];
            uint32_t fresh = (uint32_t)(old < 0) & !(edges[e] & GM_CUT) &
                             ((faces[eface[e][0]] | faces[eface[e][1]]) != 0);
            dist[w] = fresh ? next : old;
            queue[tail] = w;
            tail += fresh;
        }
    }
}

void gm_dist_to_summit(const gm_game *g, const gm_state *s, int sheet, int *dist,
                       uint32_t *queue)
{
    bfs(g, s, sheet, g->sheets[sheet].center, dist, queue);
}

void gm_dist_from(const gm_game *g, const gm_state *s, int sheet, uint32_t from, int *dist,
                  uint32_t *queue)
{
    bfs(g, s, sheet, from, dist, queue);
}

/* ---- missions ---- */

static const cb_goal *goal_of(const gm_game *g, int p)
{
    static const cb_goal none = {.kind = CB_GOAL_NONE};
    return g->mission[p] >= 0 ? &g->goal[p] : &none;
}

static int in_set(const cb_goal *goal, int t)
{
    for (int i = 0; i < goal->n_types; i++)
        if (goal->types[i] == t)
            return 1;
    return 0;
}

/* Whether a mark on type T counts for an "actions" goal: a type it names,
 * else one of its family (cut, or guard and shield). */
static int type_counts(const gm_game *g, int t, const cb_goal *goal)
{
    if (goal->n_types)
        return in_set(goal, t);
    cb_effect_kind k = g->theme->types[t].effect.kind;
    return goal->cut_family ? cb_effect_is_cut(k) : cb_effect_is_guard(k);
}

/* P's marks still on its sheet, counted afresh into the state's summary
 * (mark_count, mark_types, mark_family): after paper with marks on it fell. */
static void marks_rescan(const gm_game *g, gm_state *s, int p)
{
    int sheet = s->players[p].sheet;
    const gm_sheet *sh = &g->sheets[sheet];
    const uint16_t *marks = gm_marks(g, s, sheet);
    const uint8_t *nodes = gm_nodes(g, s, sheet);
    const cb_goal *goal = goal_of(g, p);
    uint16_t bit = (uint16_t)(1u << p);
    int count = 0, family = 0;
    uint64_t types = 0;
    for (uint32_t v = 0; v < sh->n; v++) {
        int t = sh->type[v];
        if (t < 0 || !nodes[v] || !(marks[v] & bit))
            continue;
        count++;
        types |= 1ull << (t & 63);
        if (goal->kind == CB_GOAL_ACTIONS)
            family += type_counts(g, t, goal);
    }
    s->mark_count[p] = count, s->mark_types[p] = types, s->mark_family[p] = family;
}

void gm_mark(const gm_game *g, gm_state *s, int p, uint32_t v)
{
    int sheet = s->players[p].sheet;
    gm_dots(g, s, sheet)[v]--;
    gm_marks(g, s, sheet)[v] |= (uint16_t)(1u << p);
    int t = g->sheets[sheet].type[v];
    if (t < 0 || !gm_nodes(g, s, sheet)[v])
        return;
    const cb_goal *goal = goal_of(g, p);
    s->mark_count[p]++;
    s->mark_types[p] |= 1ull << (t & 63);
    if (goal->kind == CB_GOAL_ACTIONS)
        s->mark_family[p] += type_counts(g, t, goal);
}

/* P's marks still on its sheet: how many, the types (a bit each), and how
 * many count for an "actions" goal (the state keeps them). */
static void marks_summary(const gm_game *g, const gm_state *s, int p, int *count,
                          uint64_t *types, int *family)
{
    (void)g;
    *count = s->mark_count[p], *types = s->mark_types[p], *family = s->mark_family[p];
}

/* gm_mission_left from P's marks_summary (COUNT, TYPES, FAMILY), for the
 * callers that need the summary too. */
static int left_of(const gm_game *g, const gm_state *s, int p, int count, uint64_t types,
                   int family)
{
    const cb_goal *goal = goal_of(g, p);
    int left = 0;
    switch (goal->kind) {
    case CB_GOAL_CUT_LOOSE: left = goal->n - s->players[p].pieces; break;
    case CB_GOAL_VISIT: left = goal->n - count; break;
    case CB_GOAL_TYPES: left = goal->n - __builtin_popcountll(types); break;
    case CB_GOAL_SET: /* N of the listed types */
        left = goal->n;
        for (int i = 0; i < goal->n_types; i++)
            left -= (int)((types >> (goal->types[i] & 63)) & 1);
        break;
    case CB_GOAL_ACTIONS: left = goal->n - family; break;
    default: left = 0;
    }
    return left > 0 ? left : 0;
}

int gm_mission_left(const gm_game *g, const gm_state *s, int p)
{
    int count = 0, family = 0;
    uint64_t types = 0;
    if (goal_of(g, p)->kind != CB_GOAL_CUT_LOOSE) /* pieces alone count */
        marks_summary(g, s, p, &count, &types, &family);
    return left_of(g, s, p, count, types, family);
}

int gm_marks_of(const gm_game *g, const gm_state *s, int p)
{
    int sheet = s->players[p].sheet;
    const gm_sheet *sh = &g->sheets[sheet];
    const uint16_t *marks = gm_marks(g, s, sheet);
    const uint8_t *nodes = gm_nodes(g, s, sheet);
    int n = 0;
    for (uint32_t v = 0; v < sh->n; v++)
        n += nodes[v] && (marks[v] >> p & 1);
    return n;
}

/* Whether P's mark on a node of type T would count, given the types P has
 * marked (a node's own state aside: see wanted_node). */
static int wants_type(const gm_game *g, int p, int t, uint64_t types)
{
    const cb_goal *goal = goal_of(g, p);
    switch (goal->kind) {
    case CB_GOAL_VISIT: return 1;
    case CB_GOAL_TYPES: return !((types >> (t & 63)) & 1);
    case CB_GOAL_SET: return in_set(goal, t) && !((types >> (t & 63)) & 1);
    case CB_GOAL_ACTIONS: return type_counts(g, t, goal);
    case CB_GOAL_CUT_LOOSE: return cb_effect_is_cut(g->theme->types[t].effect.kind);
    default: return 0;
    }
}

/* What P's mark on a node counts for depends on its type alone, so the
 * scans over every node look the answer up per type (WANTED, the theme's
 * n_types entries). */
static void wanted_types(const gm_game *g, int p, uint64_t types, uint8_t *wanted)
{
    for (size_t t = 0; t < g->theme->n_types; t++)
        wanted[t] = (uint8_t)wants_type(g, p, (int)t, types);
}

/* Whether P's mark on V of SHEET would count (WANTED from wanted_types). */
static inline int wanted_node(const gm_sheet *sh, const uint8_t *nodes, const uint8_t *dots,
                              const uint16_t *marks, int p, uint32_t v, const uint8_t *wanted)
{
    int t = sh->type[v];
    return t >= 0 && wanted[t] && nodes[v] && dots[v] && !(marks[v] >> p & 1);
}

/* The nodes whose mark would count for P: as a mask over P's sheet (WANT,
 * when not NULL) and as a list (LIST, when not NULL); returns how many. */
static int scan_wanted(const gm_game *g, const gm_state *s, int p, uint8_t *want,
                       uint32_t *list)
{
    int sheet = s->players[p].sheet;
    const gm_sheet *sh = &g->sheets[sheet];
    int count, family, n = 0;
    uint64_t types;
    marks_summary(g, s, p, &count, &types, &family);
    if (left_of(g, s, p, count, types, family) == 0) {
        if (want)
            memset(want, 0, sh->n);
        return 0;
    }
    uint8_t wanted[g->theme->n_types + 1];
    wanted_types(g, p, types, wanted);
    const uint8_t *nodes = gm_nodes(g, s, sheet), *dots = gm_dots(g, s, sheet);
    const uint16_t *marks = gm_marks(g, s, sheet);
    for (uint32_t v = 0; v < sh->n; v++) {
        int w = wanted_node(sh, nodes, dots, marks, p, v, wanted);
        if (want)
            want[v] = (uint8_t)w;
        if (list && w)
            list[n] = v;
        n += w;
    }
    return n;
}

int gm_mission_wanted(const gm_game *g, const gm_state *s, int p, uint8_t *want)
{
    return scan_wanted(g, s, p, want, NULL);
}

int gm_mission_wanted_nodes(const gm_game *g, const gm_state *s, int p, uint32_t *list)
{
    return scan_wanted(g, s, p, NULL, list);
}

int gm_may_enter_summit(const gm_game *g, const gm_state *s, int p)
{
    int left = gm_mission_left(g, s, p);
    if (left == 0)
        return 1;
    const gm_player *P = &s->players[p];
    if (P->at < 0)
        return 0;
    const gm_sheet *sh = &g->sheets[P->sheet];
    int dist[sh->n];
    uint32_t queue[sh->n + 1];
    bfs(g, s, P->sheet, (uint32_t)P->at, dist, queue);
    int count, family;
    uint64_t types, reach = 0;
    marks_summary(g, s, p, &count, &types, &family);
    (void)count;
    int could = 0;
    uint8_t wanted[g->theme->n_types + 1];
    wanted_types(g, p, types, wanted);
    const uint8_t *nodes = gm_nodes(g, s, P->sheet), *dots = gm_dots(g, s, P->sheet);
    const uint16_t *marks = gm_marks(g, s, P->sheet);
    for (uint32_t v = 0; v < sh->n; v++)
        if (dist[v] >= 0 && wanted_node(sh, nodes, dots, marks, p, v, wanted)) {
            could++;
            reach |= 1ull << (sh->type[v] & 63);
        }
    const cb_goal *goal = goal_of(g, p);
    switch (goal->kind) {
    case CB_GOAL_TYPES: return __builtin_popcountll(reach) < left;
    case CB_GOAL_SET: {
        int can = 0; /* listed types marked or still in reach */
        for (int i = 0; i < goal->n_types; i++)
            can += (int)(((types | reach) >> (goal->types[i] & 63)) & 1);
        return can < goal->n;
    }
    case CB_GOAL_CUT_LOOSE: return could == 0;
    default: return could < left;
    }
}
