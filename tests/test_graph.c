/* Tests for the adjacency graph (graph.h): input validation, BFS hops and
 * edge-disjoint path counts on small hand-made graphs. */
#include "test.h"

#include <stdlib.h>
#include <string.h>

#include "base/graph.h"

#define MAX_N 32
#define MAX_M 64

typedef struct {
    cb_board b;
    cb_node nodes[MAX_N];
    cb_edge edges[MAX_M];
} small;

/* A board with N nodes and the M edges listed as pairs in E (as given:
 * not normalized, so tests can pass a > b). */
static void make(small *s, size_t n, const uint32_t (*e)[2], size_t m)
{
    memset(s, 0, sizeof *s);
    assert_true(n <= MAX_N && m <= MAX_M);
    for (size_t i = 0; i < n; i++) {
        s->nodes[i].x = (double)i;
        s->nodes[i].side = CB_SIDE_NONE;
    }
    for (size_t i = 0; i < m; i++) {
        s->edges[i].a = e[i][0];
        s->edges[i].b = e[i][1];
    }
    s->b.nodes = s->nodes;
    s->b.edges = s->edges;
    s->b.n_nodes = n;
    s->b.n_edges = m;
}

static void build_ok(cb_graph *g, const small *s)
{
    cb_error err = {CB_OK, "", 0, ""};
    if (cb_graph_build(g, &s->b, &err) != CB_OK)
        fail_msg("cb_graph_build: %s", err.message);
}

static void expect_rejected(const uint32_t (*e)[2], size_t m, size_t n, const char *what)
{
    small s;
    make(&s, n, e, m);
    cb_graph g;
    cb_error err = {CB_OK, "", 0, ""};
    assert_int_equal(cb_graph_build(&g, &s.b, &err), CB_ERR_DATA);
    assert_int_equal(err.status, CB_ERR_DATA);
    if (!strstr(err.message, what))
        fail_msg("message \"%s\" does not name \"%s\"", err.message, what);
    assert_null(g.start); /* nothing left to free */
    assert_null(g.adj);
}

static void test_rejects_bad_edges(void **state)
{
    (void)state;
    static const uint32_t out_of_range[][2] = {{0, 1}, {1, 7}};
    expect_rejected(out_of_range, 2, 3, "7");
    static const uint32_t first_out[][2] = {{5, 1}};
    expect_rejected(first_out, 1, 3, "5");
    static const uint32_t huge[][2] = {{0, UINT32_MAX}};
    expect_rejected(huge, 1, 3, "4294967295");
    static const uint32_t loop[][2] = {{0, 1}, {2, 2}};
    expect_rejected(loop, 2, 3, "itself");
    static const uint32_t dup[][2] = {{0, 1}, {1, 2}, {0, 1}};
    expect_rejected(dup, 3, 3, "0-1");
    static const uint32_t dup_reversed[][2] = {{2, 0}, {1, 2}, {0, 2}};
    expect_rejected(dup_reversed, 3, 3, "0-2");
}

static void test_degrees_and_neighbours(void **state)
{
    (void)state;
    static const uint32_t e[][2] = {{0, 1}, {0, 2}, {3, 0}, {2, 1}};
    small s;
    make(&s, 5, e, 4);
    cb_graph g;
    build_ok(&g, &s);
    assert_int_equal(g.n, 5);
    assert_int_equal(g.m, 4);
    assert_int_equal(cb_graph_degree(&g, 0), 3);
    assert_int_equal(cb_graph_degree(&g, 1), 2);
    assert_int_equal(cb_graph_degree(&g, 3), 1);
    assert_int_equal(cb_graph_degree(&g, 4), 0);
    /* Each slot names a neighbour and the board edge joining them. */
    int seen[4] = {0, 0, 0, 0};
    for (uint32_t v = 0; v < 5; v++)
        for (uint32_t k = g.start[v]; k < g.start[v + 1]; k++) {
            cb_edge ed = s.edges[g.eid[k]];
            assert_true((ed.a == v && ed.b == g.adj[k]) || (ed.b == v && ed.a == g.adj[k]));
            seen[g.eid[k]]++;
        }
    for (int i = 0; i < 4; i++)
        assert_int_equal(seen[i], 2);
    cb_graph_free(&g);
    assert_null(g.start);
}

static void test_hops(void **state)
{
    (void)state;
    /*  0 - 1 - 2 - 3      6 (alone)
     *  |       |
     *  4 ----- 5          */
    static const uint32_t e[][2] = {{0, 1}, {1, 2}, {2, 3}, {0, 4}, {4, 5}, {5, 2}};
    small s;
    make(&s, 7, e, 6);
    cb_graph g;
    build_ok(&g, &s);
    int hops[7];
    cb_graph_hops(&g, 0, hops);
    static const int want0[7] = {0, 1, 2, 3, 1, 2, -1};
    assert_memory_equal(hops, want0, sizeof want0);
    cb_graph_hops(&g, 3, hops);
    static const int want3[7] = {3, 2, 1, 0, 3, 2, -1};
    assert_memory_equal(hops, want3, sizeof want3);
    cb_graph_hops(&g, 6, hops);
    static const int want6[7] = {-1, -1, -1, -1, -1, -1, 0};
    assert_memory_equal(hops, want6, sizeof want6);
    cb_graph_free(&g);
}

static int disjoint(const uint32_t (*e)[2], size_t m, size_t n, uint32_t s, uint32_t t, int limit)
{
    small b;
    make(&b, n, e, m);
    cb_graph g;
    build_ok(&g, &b);
    int k = cb_graph_edge_disjoint(&g, s, t, limit);
    /* Symmetric in s and t. */
    assert_int_equal(cb_graph_edge_disjoint(&g, t, s, limit), k);
    /* The bridge components agree with the max-flow: same component
     * exactly when there are 2 or more edge-disjoint paths. */
    if (s != t && s < n && t < n) {
        uint32_t comp[64];
        assert_true(n <= 64);
        assert_int_equal(cb_graph_bridge_components(&g, comp), 0);
        assert_int_equal(comp[s] == comp[t], cb_graph_edge_disjoint(&g, s, t, 8) >= 2);
    }
    cb_graph_free(&g);
    return k;
}

/* Random sparse graphs: the bridge components and the max-flow agree on
 * every pair of nodes. */
static void test_bridge_components_random(void **state)
{
    (void)state;
    uint64_t x = 88172645463325252ull;
    for (int round = 0; round < 200; round++) {
        uint32_t e[40][2];
        size_t n = 12, m = 0;
        while (m < 8 + (size_t)round % 12) {
            x ^= x << 13; x ^= x >> 7; x ^= x << 17;
            uint32_t a = (uint32_t)(x % n), b = (uint32_t)((x >> 20) % n);
            if (a == b)
                continue;
            if (a > b) { uint32_t t = a; a = b; b = t; }
            int dup = 0;
            for (size_t i = 0; i < m; i++)
                dup |= e[i][0] == a && e[i][1] == b;
            if (dup)
                continue;
            e[m][0] = a;
            e[m][1] = b;
            m++;
        }
        for (uint32_t s = 0; s < n; s++)
            for (uint32_t t = s + 1; t < n; t++)
                disjoint((const uint32_t (*)[2])e, m, n, s, t, 8);
    }
}

static void test_disjoint_cycle_path_k4(void **state)
{
    (void)state;
    static const uint32_t cycle[][2] = {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 0}};
    assert_int_equal(disjoint(cycle, 6, 6, 0, 3, 8), 2);
    assert_int_equal(disjoint(cycle, 6, 6, 1, 2, 8), 2); /* neighbours on the cycle */
    static const uint32_t path[][2] = {{0, 1}, {1, 2}, {2, 3}};
    assert_int_equal(disjoint(path, 3, 4, 0, 3, 8), 1);
    static const uint32_t k4[][2] = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};
    assert_int_equal(disjoint(k4, 6, 4, 0, 3, 8), 3);
    assert_int_equal(disjoint(k4, 6, 4, 1, 2, 8), 3);
    /* The limit caps the count. */
    assert_int_equal(disjoint(k4, 6, 4, 0, 3, 2), 2);
    assert_int_equal(disjoint(k4, 6, 4, 0, 3, 0), 0);
}

static void test_disjoint_bridge_and_disconnected(void **state)
{
    (void)state;
    /* Two triangles joined by the bridge 2-3. */
    static const uint32_t bowtie[][2] = {{0, 1}, {1, 2}, {2, 0}, {2, 3}, {3, 4}, {4, 5}, {5, 3}};
    assert_int_equal(disjoint(bowtie, 7, 6, 0, 5, 8), 1);
    assert_int_equal(disjoint(bowtie, 7, 6, 0, 1, 8), 2);
    /* Two triangles sharing one node: 2 edge-disjoint paths through it
     * (edge-disjoint, not node-disjoint). */
    static const uint32_t shared[][2] = {{0, 1}, {1, 2}, {2, 0}, {2, 3}, {3, 4}, {4, 2}};
    assert_int_equal(disjoint(shared, 6, 5, 0, 4, 8), 2);
    static const uint32_t apart[][2] = {{0, 1}, {2, 3}};
    assert_int_equal(disjoint(apart, 2, 4, 0, 3, 8), 0);
    /* s == t and ids out of range count no paths. */
    assert_int_equal(disjoint(apart, 2, 4, 1, 1, 8), 0);
    assert_int_equal(disjoint(apart, 2, 4, 0, 9, 8), 0);
}

static void test_disjoint_needs_flow_cancelling(void **state)
{
    (void)state;
    /* The shortest path s-a-b-t uses the cross edge a-b; the two disjoint
     * paths are s-a-x1-x2-t and s-y1-y2-b-t, found only by sending flow back
     * across a-b. s=0 a=1 b=2 t=3 x1=4 x2=5 y1=6 y2=7. */
    static const uint32_t e[][2] = {{0, 1}, {1, 2}, {2, 3}, {1, 4}, {4, 5},
                                    {5, 3}, {0, 6}, {6, 7}, {7, 2}};
    assert_int_equal(disjoint(e, 9, 8, 0, 3, 8), 2);
}

static void test_disjoint_grid(void **state)
{
    (void)state;
    /* A 4x4 grid: corner to opposite corner has 2 (corner degree), centre
     * node to centre node has 4. */
    uint32_t e[24][2];
    size_t m = 0;
    for (uint32_t y = 0; y < 4; y++)
        for (uint32_t x = 0; x < 4; x++) {
            uint32_t v = y * 4 + x;
            if (x < 3) { e[m][0] = v; e[m][1] = v + 1; m++; }
            if (y < 3) { e[m][0] = v; e[m][1] = v + 4; m++; }
        }
    assert_int_equal(m, 24);
    assert_int_equal(disjoint((const uint32_t (*)[2])e, m, 16, 0, 15, 8), 2);
    assert_int_equal(disjoint((const uint32_t (*)[2])e, m, 16, 5, 10, 8), 4);
    assert_int_equal(disjoint((const uint32_t (*)[2])e, m, 16, 1, 14, 8), 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rejects_bad_edges),
        cmocka_unit_test(test_degrees_and_neighbours),
        cmocka_unit_test(test_hops),
        cmocka_unit_test(test_disjoint_cycle_path_k4),
        cmocka_unit_test(test_disjoint_bridge_and_disconnected),
        cmocka_unit_test(test_disjoint_needs_flow_cancelling),
        cmocka_unit_test(test_disjoint_grid),
        cmocka_unit_test(test_bridge_components_random),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
