/* Dealing the players' starts (see deal.h). */
#include <stdlib.h>
#include <string.h>

#include "base/graph.h"
#include "base/rng.h"
#include "board/deal.h"

typedef struct {
    uint32_t node;
    int hops;
    int side;
    int mission;
    double x, y;
} start_info;

/* Each node's hops from B's centre (-1 unreached), malloc'd; NULL out of
 * memory. */
static int *hops_from_centre(const cb_board *b)
{
    cb_graph g;
    if (cb_graph_build(&g, b, NULL) != CB_OK)
        return NULL;
    int *hops = malloc((b->n_nodes ? b->n_nodes : 1) * sizeof *hops);
    if (hops && cb_graph_hops(&g, b->center, hops) != 0) {
        free(hops);
        hops = NULL;
    }
    cb_graph_free(&g);
    return hops;
}

/* The starts of B with their hop counts from the centre (KNOWN, or
 * counted when NULL), in a seeded order (ties later go to the first in
 * it); -1 out of memory, else how many. */
static int starts_of(const cb_board *b, const int *known, cb_rng *rng, start_info *out,
                     int room)
{
    int *counted = known ? NULL : hops_from_centre(b);
    const int *hops = known ? known : counted;
    if (!hops)
        return -1;
    uint32_t order[64];
    int n = 0;
    for (size_t v = 0; v < b->n_nodes && n < room; v++)
        if (b->nodes[v].kind == CB_KIND_START)
            order[n++] = (uint32_t)v;
    cb_rng_shuffle(rng, order, (size_t)n);
    for (int i = 0; i < n; i++) {
        const cb_node *s = &b->nodes[order[i]];
        out[i] = (start_info){order[i], hops[order[i]] < 0 ? 1 << 20 : hops[order[i]],
                              (int)s->side, s->mission, s->x, s->y};
    }
    free(counted);
    return n;
}

/* The best start of LIST at HOPS (any when none is): on a side with the
 * fewest starts dealt (PER_SIDE, may be NULL: the players sit round a
 * shared board), then a mission no seat has yet (USED, a bit per mission),
 * then the first in the seeded order. -1 if LIST has no start left
 * (TAKEN). */
static int pick(const start_info *list, int n, const uint8_t *taken, int hops,
                uint64_t used, const int *per_side)
{
    int best = -1;
    long best_key = 0;
    for (int i = 0; i < n; i++) {
        if (taken[i])
            continue;
        long key = (list[i].hops == hops ? 0 : 1000L * (1 + labs((long)list[i].hops - hops)));
        key += list[i].mission >= 0 && list[i].mission < 64 && (used >> list[i].mission) & 1
                   ? 10 : 0;
        key += per_side && list[i].side >= 0 && list[i].side < 4 ? 100L * per_side[list[i].side]
                                                                  : 0;
        if (best < 0 || key < best_key)
            best = i, best_key = key;
    }
    return best;
}

/* Whether start A takes an earlier seat than B: farther from the centre,
 * then clockwise round the board seen from above (bottom, left, top,
 * right, and along each side the way the table turns). */
static int seat_before(const start_info *a, const start_info *b)
{
    static const int rank[4] = {[CB_SIDE_BOTTOM] = 0, [CB_SIDE_LEFT] = 1, [CB_SIDE_TOP] = 2,
                                [CB_SIDE_RIGHT] = 3};
    if (a->hops != b->hops)
        return a->hops > b->hops;
    int ra = a->side >= 0 && a->side < 4 ? rank[a->side] : 4;
    int rb = b->side >= 0 && b->side < 4 ? rank[b->side] : 4;
    if (ra != rb)
        return ra < rb;
    /* clockwise: bottom right to left, left bottom to top, top left to
     * right, right top to bottom */
    switch (a->side) {
    case CB_SIDE_BOTTOM: return a->x > b->x;
    case CB_SIDE_LEFT: return a->y > b->y;
    case CB_SIDE_TOP: return a->x < b->x;
    default: return a->y < b->y;
    }
}

/* The hop count most starts share, over the sheets that have it (a count
 * every sheet has first). */
static int common_hops(start_info (*lists)[64], const int *n, size_t sheets)
{
    int best = -1, best_sheets = -1, best_count = -1;
    for (int i = 0; i < n[0]; i++) {
        int h = lists[0][i].hops, on_sheets = 0, count = 0;
        for (size_t s = 0; s < sheets; s++) {
            int here = 0;
            for (int j = 0; j < n[s]; j++)
                here += lists[s][j].hops == h;
            on_sheets += here > 0;
            count += here;
        }
        if (on_sheets > best_sheets || (on_sheets == best_sheets && count > best_count) ||
            (on_sheets == best_sheets && count == best_count && h < best))
            best = h, best_sheets = on_sheets, best_count = count;
    }
    return best;
}

int cb_game_deal(cb_game *game, int *const *hops)
{
    size_t sheets = game->n_sheets;
    start_info (*lists)[64] = calloc(sheets ? sheets : 1, sizeof *lists);
    int *n = calloc(sheets ? sheets : 1, sizeof *n);
    int rc = -1;
    if (!lists || !n)
        goto done;
    cb_rng rng;
    cb_rng_seed(&rng, cb_hash_string(game->seed) ^ 0x6465616c73746172ull); /* "dealstar" */
    for (size_t s = 0; s < sheets; s++) {
        if ((n[s] = starts_of(game->sheets[s], hops ? hops[s] : NULL, &rng, lists[s], 64)) < 0)
            goto done;
        for (int i = 0; i < n[s]; i++)
            game->sheets[s]->nodes[lists[s][i].node].number = 0;
    }
    if (sheets == 0 || n[0] == 0) {
        rc = 0;
        goto done;
    }
    int h = common_hops(lists, n, sheets);
    uint64_t used = 0;
    if (game->shared) {
        uint8_t taken[64] = {0};
        int per_side[4] = {0}, chosen[CB_PLAYERS_MAX], k = 0;
        for (; k < game->players && k < n[0]; k++) {
            int i = pick(lists[0], n[0], taken, h, used, per_side);
            taken[i] = 1;
            chosen[k] = i;
            if (lists[0][i].mission >= 0 && lists[0][i].mission < 64)
                used |= 1ull << lists[0][i].mission;
            if (lists[0][i].side >= 0 && lists[0][i].side < 4)
                per_side[lists[0][i].side]++;
        }
        /* Seats clockwise round the table from the bottom side (players sit
         * at the sides); farther starts first, as the later seats move
         * later. */
        for (int a = 1; a < k; a++)
            for (int b = a; b > 0 && seat_before(&lists[0][chosen[b]], &lists[0][chosen[b - 1]]);
                 b--) {
                int t = chosen[b];
                chosen[b] = chosen[b - 1];
                chosen[b - 1] = t;
            }
        for (int seat = 0; seat < k; seat++)
            game->sheets[0]->nodes[lists[0][chosen[seat]].node].number = seat + 1;
    } else {
        for (size_t s = 0; s < sheets; s++) {
            uint8_t taken[64] = {0};
            int i = pick(lists[s], n[s], taken, h, used, NULL);
            if (i < 0)
                continue;
            if (lists[s][i].mission >= 0 && lists[s][i].mission < 64)
                used |= 1ull << lists[s][i].mission;
            game->sheets[s]->nodes[lists[s][i].node].number = (int)s + 1;
        }
    }
    rc = 0;
done:
    free(lists);
    free(n);
    return rc;
}

int cb_game_route_hops(const cb_game *game)
{
    int most = 0, numbered = 0;
    for (size_t k = 0; k < game->n_sheets; k++)
        for (size_t v = 0; v < game->sheets[k]->n_nodes; v++)
            numbered |= game->sheets[k]->nodes[v].kind == CB_KIND_START &&
                        game->sheets[k]->nodes[v].number > 0;
    for (size_t k = 0; k < game->n_sheets; k++) {
        const cb_board *b = game->sheets[k];
        int *hops = hops_from_centre(b);
        if (!hops)
            return -1;
        for (size_t v = 0; v < b->n_nodes; v++)
            if (b->nodes[v].kind == CB_KIND_START && (b->nodes[v].number > 0 || !numbered) &&
                hops[v] > most)
                most = hops[v];
        free(hops);
    }
    return most;
}
