/* The generator's steps one by one (place, connect, starts, balance), each
 * checked for what it promises the next step, with this file's own
 * computations: the contract check only sees the finished board, and a step
 * that breaks its promise could still be rescued (or hidden) by a later one. */
#include "test.h"
#include <math.h>
#include <string.h>
#include "base/rng.h"
#include "board/work.h"

enum { SEEDS = 300 };

/* An A4 landscape board as the generator sets it up (12 mm margins). */
static const double BX = 12, BY = 12, BW = 273, BH = 186, D = 24.49;

static void setup(cb_work *w, cb_place_params *pp)
{
    *pp = (cb_place_params){BX, BY, BW, BH, (size_t)llround(BW * BH / (D * D)), D,
                            pow(BW / BH, 0.65), 25};
    assert_int_equal(cb_work_init(w, pp->n), 0);
    w->bx = BX; w->by = BY; w->bw = BW; w->bh = BH;
    w->d = D;
    w->r = 0.265 * D;
    w->start_cap = 2;
    w->node_cap = 4;
}

static int on_side(const cb_work *w, uint32_t v, int side)
{
    const double eps = 1e-9;
    switch (side) {
    case CB_SIDE_TOP: return fabs(w->p[v].y - w->by) < eps;
    case CB_SIDE_RIGHT: return fabs(w->p[v].x - (w->bx + w->bw)) < eps;
    case CB_SIDE_BOTTOM: return fabs(w->p[v].y - (w->by + w->bh)) < eps;
    default: return fabs(w->p[v].x - w->bx) < eps;
    }
}

static uint32_t nbr(const cb_work *w, uint32_t v, int i)
{
    return w->adj[(size_t)v * CB_MAX_DEG + (size_t)i];
}

/* Hops from the centre over every edge; -1 unreached. */
static void bfs(const cb_work *w, int *hop, uint32_t *queue)
{
    size_t head = 0, tail = 0;
    for (size_t v = 0; v < w->n; v++)
        hop[v] = -1;
    hop[w->center] = 0;
    queue[tail++] = w->center;
    while (head < tail) {
        uint32_t u = queue[head++];
        for (int i = 0; i < w->deg[u]; i++)
            if (hop[nbr(w, u, i)] < 0) {
                hop[nbr(w, u, i)] = hop[u] + 1;
                queue[tail++] = nbr(w, u, i);
            }
    }
}

static void check_placement(const cb_work *w, const char *seed)
{
    double closest = INFINITY;
    for (uint32_t v = 0; v < w->n; v++) {
        cb_point p = w->p[v];
        if (p.x < BX - 1e-9 || p.x > BX + BW + 1e-9 || p.y < BY - 1e-9 || p.y > BY + BH + 1e-9)
            fail_msg("%s: node %u at (%g, %g) is off the board", seed, v, p.x, p.y);
        for (int s = 0; s < 4; s++)
            if (w->sides[v] >> s & 1 && !on_side(w, v, s))
                fail_msg("%s: node %u is snapped to side %d but not on it", seed, v, s);
        for (uint32_t u = 0; u < v; u++)
            closest = fmin(closest, hypot(p.x - w->p[u].x, p.y - w->p[u].y));
    }
    /* the disks (radius 0.265 d) must not touch: the relaxation keeps points
     * well apart, measured at >= 0.7 d over these seeds */
    if (closest < 2 * w->r)
        fail_msg("%s: two nodes %.2f mm apart, disks of %.2f mm overlap", seed, closest, w->r);
    cb_point c = w->p[w->center];
    assert_true(fabs(c.x - (BX + BW / 2)) < 1e-9 && fabs(c.y - (BY + BH / 2)) < 1e-9);
}

static int is_candidate_edge(const cb_work *w, uint32_t a, uint32_t b)
{
    for (size_t i = 0; i < w->n_cand; i++)
        if ((w->cand[i].a == a && w->cand[i].b == b) || (w->cand[i].a == b && w->cand[i].b == a))
            return 1;
    return 0;
}

static void check_graph(const cb_work *w, const char *seed, const char *step)
{
    for (uint32_t v = 0; v < w->n; v++) {
        if (w->role[v] == CB_ROLE_DROPPED || w->role[v] == CB_ROLE_CANDIDATE)
            if (w->deg[v] != 0)
                fail_msg("%s after %s: node %u has edges but is not on the board", seed, step, v);
        int cap = v == w->center ? CB_MAX_DEG
                  : w->role[v] == CB_ROLE_START ? w->start_cap : w->node_cap;
        if (w->deg[v] > cap)
            fail_msg("%s after %s: node %u has %d edges (cap %d)", seed, step, v, w->deg[v], cap);
        for (int i = 0; i < w->deg[v]; i++) {
            uint32_t u = nbr(w, v, i);
            int back = 0;
            for (int j = 0; j < w->deg[u]; j++)
                back += nbr(w, u, j) == v;
            if (u == v || back != 1)
                fail_msg("%s after %s: edge %u-%u is a loop, one-way or doubled", seed, step, v, u);
            if (!is_candidate_edge(w, v, u))
                fail_msg("%s after %s: edge %u-%u is not a usable triangulation edge", seed,
                         step, v, u);
        }
    }
}

static void check_reach(const cb_work *w, const char *seed, const char *step, int *hop,
                        uint32_t *queue)
{
    bfs(w, hop, queue);
    for (uint32_t v = 0; v < w->n; v++)
        if ((w->role[v] == CB_ROLE_CORE || w->role[v] == CB_ROLE_START) && hop[v] < 0)
            fail_msg("%s after %s: node %u cannot reach the centre", seed, step, v);
}

static void check_starts(const cb_work *w, const char *seed)
{
    int per_side[4] = {0};
    for (uint32_t s = 0; s < w->n; s++) {
        if (w->role[s] != CB_ROLE_START)
            continue;
        int side = (int)w->start_side[s];
        assert_true(side >= 0 && side < 4);
        per_side[side]++;
        if (!on_side(w, s, side))
            fail_msg("%s: start %u is not on its side %d", seed, s, side);
        if (w->deg[s] < 1)
            fail_msg("%s: start %u has no edge", seed, s);
        /* no two starts adjacent or sharing a neighbour */
        for (int i = 0; i < w->deg[s]; i++) {
            uint32_t a = nbr(w, s, i);
            if (w->role[a] == CB_ROLE_START)
                fail_msg("%s: starts %u and %u are adjacent", seed, s, a);
            for (int j = 0; j < w->deg[a]; j++) {
                uint32_t t = nbr(w, a, j);
                if (t != s && w->role[t] == CB_ROLE_START)
                    fail_msg("%s: starts %u and %u share neighbour %u", seed, s, t, a);
            }
        }
    }
    for (int side = 0; side < 4; side++)
        if (per_side[side] != CB_STARTS_PER_SIDE)
            fail_msg("%s: side %d has %d starts", seed, side, per_side[side]);
}

static void test_each_step_keeps_its_promise(void **state)
{
    (void)state;
    int placed = 0, connected = 0, started = 0, balanced = 0;
    for (int k = 0; k < SEEDS; k++) {
        char seed[32];
        snprintf(seed, sizeof seed, "steps-%d", k);
        cb_rng rng;
        cb_rng_seed(&rng, cb_hash_string(seed));
        cb_work w;
        cb_place_params pp;
        setup(&w, &pp);
        int *hop = malloc(w.n * sizeof *hop);
        uint32_t *queue = malloc(w.n * sizeof *queue);
        assert_non_null(hop);
        assert_non_null(queue);
        if (cb_place(&w, &pp, &rng) == 0) {
            placed++;
            check_placement(&w, seed);
            if (cb_connect_prepare(&w) == 0 && cb_connect_core(&w, &rng) == 0) {
                connected++;
                check_graph(&w, seed, "connect");
                check_reach(&w, seed, "connect", hop, queue);
                if (cb_starts_choose(&w) == 0) {
                    started++;
                    check_graph(&w, seed, "starts");
                    check_starts(&w, seed);
                    if (cb_balance(&w) == 0) {
                        balanced++;
                        check_graph(&w, seed, "balance");
                        check_starts(&w, seed);
                        check_reach(&w, seed, "balance", hop, queue);
                        int lo = INT32_MAX, hi = -1;
                        for (uint32_t s = 0; s < w.n; s++)
                            if (w.role[s] == CB_ROLE_START) {
                                lo = hop[s] < lo ? hop[s] : lo;
                                hi = hop[s] > hi ? hop[s] : hi;
                            }
                        if (hi - lo > 1)
                            fail_msg("%s: balance left hops %d..%d", seed, lo, hi);
                    }
                }
            }
        }
        free(hop);
        free(queue);
        cb_work_free(&w);
    }
    print_message("%d seeds: %d placed, %d connected, %d with starts, %d balanced\n", SEEDS,
                  placed, connected, started, balanced);
    /* Each step must succeed on most inputs, or the checks above test little. */
    assert_int_equal(placed, SEEDS);
    assert_true(connected >= SEEDS * 9 / 10);
    assert_true(started >= SEEDS * 7 / 10);
    assert_true(balanced >= SEEDS / 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_each_step_keeps_its_promise),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
