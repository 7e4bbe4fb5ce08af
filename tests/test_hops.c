/* Incremental hop counts (src/board/hops.c) against a full breadth-first
 * search written here: random additions, removals and undone trials on
 * random sparse graphs, with starts and dropped nodes (which, as in the
 * generator, have no edges), compared after every edit. */
#include "test.h"
#include <string.h>
#include "base/rng.h"
#include "board/hops.h"

enum { N = 160, EDITS = 4000, GRAPHS = 12 };

/* Hops from the centre over nodes that are not dropped; -1 unreached. */
static void bfs(const cb_work *w, int *hop)
{
    uint32_t queue[N];
    size_t head = 0, tail = 0;
    for (size_t v = 0; v < w->n; v++)
        hop[v] = -1;
    hop[w->center] = 0;
    queue[tail++] = w->center;
    while (head < tail) {
        uint32_t u = queue[head++];
        for (int i = 0; i < w->deg[u]; i++) {
            uint32_t x = w->adj[(size_t)u * CB_MAX_DEG + (size_t)i];
            if (w->role[x] != CB_ROLE_DROPPED && hop[x] < 0) {
                hop[x] = hop[u] + 1;
                queue[tail++] = x;
            }
        }
    }
}

static void assert_hops_exact(const cb_hops *h, const char *what, int step)
{
    int want[N];
    bfs(h->w, want);
    int all = 1;
    for (size_t v = 0; v < h->w->n; v++) {
        if (h->w->role[v] == CB_ROLE_DROPPED)
            continue;
        all &= want[v] >= 0;
        if (h->w->hops[v] != want[v])
            fail_msg("%s at edit %d: node %zu has hop %d, a full BFS says %d", what, step, v,
                     h->w->hops[v], want[v]);
    }
    if (cb_hops_all_reached(h) != all)
        fail_msg("%s at edit %d: all_reached %d, a full BFS says %d", what, step,
                 cb_hops_all_reached(h), all);
}

static int random_edge(cb_work *w, cb_rng *rng, uint32_t *a, uint32_t *b)
{
    for (int tries = 0; tries < 100; tries++) {
        *a = (uint32_t)cb_rng_below(rng, N);
        *b = (uint32_t)cb_rng_below(rng, N);
        if (*a != *b && !cb_work_has_edge(w, *a, *b) && w->deg[*a] < 6 && w->deg[*b] < 6 &&
            w->role[*a] != CB_ROLE_DROPPED && w->role[*b] != CB_ROLE_DROPPED)
            return 1;
    }
    return 0;
}

static int existing_edge(const cb_work *w, cb_rng *rng, uint32_t *a, uint32_t *b)
{
    for (int tries = 0; tries < 100; tries++) {
        *a = (uint32_t)cb_rng_below(rng, N);
        if (w->deg[*a] > 0) {
            *b = w->adj[(size_t)*a * CB_MAX_DEG + cb_rng_below(rng, w->deg[*a])];
            return 1;
        }
    }
    return 0;
}

static void run_graph(uint64_t seed, int *added, int *removed, int *trials)
{
    cb_rng rng;
    cb_rng_seed(&rng, seed);
    cb_work w;
    assert_int_equal(cb_work_init(&w, N), 0);
    w.center = (uint32_t)cb_rng_below(&rng, N);
    for (uint32_t v = 0; v < N; v++) {
        uint64_t r = cb_rng_below(&rng, 20);
        w.role[v] = v == w.center ? CB_ROLE_CORE
                    : r == 0      ? CB_ROLE_DROPPED
                    : r < 4       ? CB_ROLE_START
                                  : CB_ROLE_CORE;
    }
    for (int i = 0; i < 2 * N; i++) {
        uint32_t a, b;
        if (random_edge(&w, &rng, &a, &b))
            cb_work_add_edge(&w, a, b);
    }
    cb_hops h;
    assert_int_equal(cb_hops_init(&h, &w), 0);
    assert_hops_exact(&h, "init", 0);
    for (int step = 1; step <= EDITS; step++) {
        uint32_t a, b;
        switch (cb_rng_below(&rng, 4)) {
        case 0: /* an addition that stays */
            if (!random_edge(&w, &rng, &a, &b))
                break;
            cb_work_add_edge(&w, a, b);
            cb_hops_added(&h, a, b);
            assert_hops_exact(&h, "addition", step);
            cb_hops_begin(&h);
            (*added)++;
            break;
        case 1: /* a removal that stays */
            if (!existing_edge(&w, &rng, &a, &b))
                break;
            cb_work_remove_edge(&w, a, b);
            cb_hops_removed(&h, a, b);
            assert_hops_exact(&h, "removal", step);
            cb_hops_begin(&h);
            (*removed)++;
            break;
        case 2: /* a trial: remove and add, then undo both */
            if (!existing_edge(&w, &rng, &a, &b))
                break;
            cb_work_remove_edge(&w, a, b);
            cb_hops_removed(&h, a, b);
            assert_hops_exact(&h, "trial removal", step);
            uint32_t c, d;
            int more = random_edge(&w, &rng, &c, &d);
            if (more) {
                cb_work_add_edge(&w, c, d);
                cb_hops_added(&h, c, d);
                assert_hops_exact(&h, "trial addition", step);
                cb_work_remove_edge(&w, c, d);
            }
            cb_work_add_edge(&w, a, b);
            cb_hops_undo(&h);
            assert_hops_exact(&h, "undo", step);
            (*trials)++;
            break;
        default: { /* a removal trial that only asks about starts */
            if (!existing_edge(&w, &rng, &a, &b))
                break;
            int before[N];
            memcpy(before, w.hops, sizeof before);
            cb_work_remove_edge(&w, a, b);
            int want[N];
            bfs(&w, want);
            int start_moves = 0;
            for (size_t v = 0; v < N; v++)
                start_moves |= w.role[v] == CB_ROLE_START && want[v] != before[v];
            int said = cb_hops_removed_trial(&h, a, b);
            if (said != start_moves)
                fail_msg("removal trial at edit %d: says %d, a full BFS says a start moved: %d",
                         step, said, start_moves);
            if (said)
                assert_hops_exact(&h, "removal trial", step);
            cb_work_add_edge(&w, a, b);
            cb_hops_undo(&h);
            assert_hops_exact(&h, "removal trial undone", step);
            (*trials)++;
        }
        }
    }
    cb_hops_free(&h);
    cb_work_free(&w);
}

static void test_incremental_hops_equal_full_bfs(void **state)
{
    (void)state;
    int added = 0, removed = 0, trials = 0;
    for (uint64_t g = 1; g <= GRAPHS; g++)
        run_graph(0x5eed0000 + g, &added, &removed, &trials);
    /* the walk must have exercised every kind of edit */
    assert_true(added > 1000 && removed > 1000 && trials > 2000);
    print_message("%d additions, %d removals, %d trials checked\n", added, removed, trials);
}

/* The comparison itself can fail: a hop changed behind the structure's back
 * is caught. */
static void test_a_stale_hop_is_caught_by_the_bfs(void **state)
{
    (void)state;
    cb_work w;
    assert_int_equal(cb_work_init(&w, 3), 0);
    w.center = 0;
    cb_work_add_edge(&w, 0, 1);
    cb_work_add_edge(&w, 1, 2);
    cb_hops h;
    assert_int_equal(cb_hops_init(&h, &w), 0);
    int want[N];
    bfs(&w, want);
    assert_int_equal(want[2], 2);
    assert_int_equal(w.hops[2], 2);
    cb_work_remove_edge(&w, 1, 2); /* not reported to cb_hops */
    bfs(&w, want);
    assert_int_equal(want[2], -1);
    assert_int_not_equal(w.hops[2], want[2]);
    cb_hops_free(&h);
    cb_work_free(&w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_incremental_hops_equal_full_bfs),
        cmocka_unit_test(test_a_stale_hop_is_caught_by_the_bfs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
