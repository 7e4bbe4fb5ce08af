/* "Is a start behind a bridge?" after an edit (src/board/work.c,
 * cb_work_start_behind_bridge_after, which looks near the removed edges and
 * falls back to the whole-graph search) against the definition, computed
 * here by brute force: some edge whose removal leaves a start unreachable
 * from the centre. Random walks of edits on random sparse graphs and on
 * ladders bent into rings (where the ends of a removed rail edge have a
 * second path only the long way round, past the near search's limit), each edit kept only
 * when the graph still has every node reaching the centre and no start
 * behind a bridge, as the generator's balancing steps keep it. */
#include "test.h"
#include <string.h>
#include "base/rng.h"
#include "board/work.h"

enum { MAX_N = 400 };

/* Every node reaches the centre with edge (skip_a, skip_b) gone (none when
 * skip_a == skip_b); with STARTS_ONLY, every start does. */
static int reaches(const cb_work *w, uint32_t skip_a, uint32_t skip_b, int starts_only)
{
    static uint32_t queue[MAX_N];
    static uint8_t seen[MAX_N];
    memset(seen, 0, w->n);
    size_t head = 0, tail = 0;
    queue[tail++] = w->center;
    seen[w->center] = 1;
    while (head < tail) {
        uint32_t v = queue[head++];
        for (int i = 0; i < w->deg[v]; i++) {
            uint32_t u = w->adj[(size_t)v * CB_MAX_DEG + (size_t)i];
            if ((v == skip_a && u == skip_b) || (v == skip_b && u == skip_a) || seen[u])
                continue;
            seen[u] = 1;
            queue[tail++] = u;
        }
    }
    for (size_t v = 0; v < w->n; v++)
        if (!seen[v] && (!starts_only || w->role[v] == CB_ROLE_START))
            return 0;
    return 1;
}

/* The definition: some edge parts a start from the centre. */
static int behind_bridge_brute(const cb_work *w)
{
    for (uint32_t v = 0; v < w->n; v++)
        for (int i = 0; i < w->deg[v]; i++) {
            uint32_t u = w->adj[(size_t)v * CB_MAX_DEG + (size_t)i];
            if (v < u && !reaches(w, v, u, 1))
                return 1;
        }
    return 0;
}

static int random_pair(const cb_work *w, cb_rng *rng, uint32_t *a, uint32_t *b)
{
    for (int tries = 0; tries < 100; tries++) {
        *a = (uint32_t)cb_rng_below(rng, w->n);
        *b = (uint32_t)cb_rng_below(rng, w->n);
        if (*a != *b && !cb_work_has_edge(w, *a, *b) && w->deg[*a] < 6 && w->deg[*b] < 6)
            return 1;
    }
    return 0;
}

static int random_edge(const cb_work *w, cb_rng *rng, cb_edge *e)
{
    for (int tries = 0; tries < 100; tries++) {
        uint32_t a = (uint32_t)cb_rng_below(rng, w->n);
        if (w->deg[a] > 0) {
            e->a = a;
            e->b = w->adj[(size_t)a * CB_MAX_DEG + cb_rng_below(rng, w->deg[a])];
            return 1;
        }
    }
    return 0;
}

typedef struct {
    int asked, behind, clear, kept;
} tally;

/* A walk of EDITS edits from W's graph (every node reaching the centre, no
 * start behind a bridge): each removes one or two edges and may add one;
 * the answer is compared with the definition whenever every node still
 * reaches the centre (the generator asks only then). */
static void walk(cb_work *w, cb_rng *rng, int edits, tally *t)
{
    cb_pair_search ps;
    uint32_t scratch[6 * MAX_N];
    assert_int_equal(cb_pair_search_init(&ps, w->n), 0);
    assert_true(reaches(w, 0, 0, 0) && !behind_bridge_brute(w));
    for (int step = 0; step < edits; step++) {
        cb_edge del[2];
        int n_del = 1 + (int)cb_rng_below(rng, 2);
        if (!random_edge(w, rng, &del[0]))
            break;
        cb_work_remove_edge(w, del[0].a, del[0].b);
        if (n_del == 2 && !random_edge(w, rng, &del[1]))
            n_del = 1;
        if (n_del == 2)
            cb_work_remove_edge(w, del[1].a, del[1].b);
        uint32_t a = 0, b = 0;
        int add = cb_rng_below(rng, 2) && random_pair(w, rng, &a, &b);
        if (add)
            cb_work_add_edge(w, a, b);
        if (reaches(w, 0, 0, 0)) {
            int said = cb_work_start_behind_bridge_after(w, del, n_del, &ps, scratch);
            int truth = behind_bridge_brute(w);
            if (said != truth)
                fail_msg("edit %d (%d removed, %d added): says %d, brute force says %d", step,
                         n_del, add, said, truth);
            t->asked++;
            t->behind += truth;
            t->clear += !truth;
            if (!truth) { /* kept: the walk goes on from here */
                t->kept++;
                continue;
            }
        }
        if (add)
            cb_work_remove_edge(w, a, b);
        for (int d = n_del; d-- > 0;)
            cb_work_add_edge(w, del[d].a, del[d].b);
    }
    cb_pair_search_free(&ps);
}

/* Random sparse graphs: a spanning tree plus extra edges, so that every
 * node reaches the centre; retried until no start is behind a bridge. */
static void random_graph(cb_work *w, size_t n, cb_rng *rng)
{
    for (;;) {
        assert_int_equal(cb_work_init(w, n), 0);
        w->center = 0;
        for (uint32_t v = 1; v < n; v++) {
            cb_work_add_edge(w, v, (uint32_t)cb_rng_below(rng, v));
            w->role[v] = cb_rng_below(rng, 6) == 0 ? CB_ROLE_START : CB_ROLE_CORE;
        }
        for (size_t i = 0; i < 2 * n; i++) {
            uint32_t a, b;
            if (random_pair(w, rng, &a, &b))
                cb_work_add_edge(w, a, b);
        }
        if (!behind_bridge_brute(w))
            return;
        cb_work_free(w);
    }
}

/* A ladder bent into a ring, N / 2 rungs: after a rail edge goes, its
 * ends are joined the short way over two rungs and otherwise only around
 * the ring, past the near search's limit, so the whole-graph search
 * decides. */
static void ladder_graph(cb_work *w, size_t n, cb_rng *rng)
{
    uint32_t half = (uint32_t)(n / 2);
    assert_int_equal(cb_work_init(w, 2 * (size_t)half), 0);
    w->center = 0;
    for (uint32_t v = 0; v < half; v++) {
        cb_work_add_edge(w, v, (v + 1) % half);
        cb_work_add_edge(w, half + v, half + (v + 1) % half);
        cb_work_add_edge(w, v, half + v);
    }
    for (uint32_t v = 1; v < 2 * half; v++)
        w->role[v] = cb_rng_below(rng, 10) == 0 ? CB_ROLE_START : CB_ROLE_CORE;
}

static void test_bridge_after_edit_equals_definition(void **state)
{
    (void)state;
    tally t = {0};
    cb_rng rng;
    cb_rng_seed(&rng, 0xb41d6e);
    for (int g = 0; g < 12; g++) {
        cb_work w;
        random_graph(&w, 40 + 10 * (size_t)g, &rng);
        walk(&w, &rng, 1500, &t);
        cb_work_free(&w);
    }
    tally ladder = {0};
    for (int g = 0; g < 4; g++) {
        cb_work w;
        ladder_graph(&w, 300, &rng);
        walk(&w, &rng, 400, &ladder);
        cb_work_free(&w);
    }
    print_message("random graphs: %d edits asked, %d with a start behind a bridge, %d kept; "
                  "ladders: %d asked, %d behind, %d kept\n",
                  t.asked, t.behind, t.kept, ladder.asked, ladder.behind, ladder.kept);
    /* both answers came up often, on both kinds of graph */
    assert_true(t.behind > 500 && t.clear > 500 && t.kept > 500);
    assert_true(ladder.behind > 50 && ladder.clear > 50);
}

/* The definition can say yes: a start hanging by one edge is caught. */
static void test_a_pendant_start_is_behind_a_bridge(void **state)
{
    (void)state;
    cb_work w;
    assert_int_equal(cb_work_init(&w, 4), 0);
    w.center = 0;
    cb_work_add_edge(&w, 0, 1);
    cb_work_add_edge(&w, 1, 2);
    cb_work_add_edge(&w, 2, 0);
    cb_work_add_edge(&w, 2, 3);
    cb_work_add_edge(&w, 3, 1);
    w.role[3] = CB_ROLE_START;
    assert_int_equal(behind_bridge_brute(&w), 0);
    cb_work_remove_edge(&w, 3, 1);
    assert_int_equal(behind_bridge_brute(&w), 1);
    cb_pair_search ps;
    uint32_t scratch[6 * 4];
    assert_int_equal(cb_pair_search_init(&ps, 4), 0);
    cb_edge gone = {1, 3};
    assert_int_equal(cb_work_start_behind_bridge_after(&w, &gone, 1, &ps, scratch), 1);
    cb_pair_search_free(&ps);
    cb_work_free(&w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bridge_after_edit_equals_definition),
        cmocka_unit_test(test_a_pendant_start_is_behind_a_bridge),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
