/* Tests for the contract check (cb_board_check) on hand-made boards: a
 * "wheel" board that meets every clause, then one change at a time that
 * breaks exactly one clause; tiny boards for exact geometric counts. */
#include "test.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cutboard.h"
#include "base/graph.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* The wheel: centre 0 in the middle of a 200 mm square board; ring nodes
 * 1..24 on a circle of 55 mm, each joined to the centre and to its ring
 * neighbours; 12 starts 25..36, 3 per side, start k sitting on the trim line
 * in the direction 30k degrees and joined to ring nodes 2k+1 and 2k+2
 * (at 30k -+ 7.5 degrees). Every start is 2 hops from the centre with two
 * edge-disjoint paths; ring nodes have 4 edges. */
#define RING 24
#define STARTS 12
#define N_NODES (1 + RING + STARTS)
#define MAX_EDGES 96

typedef struct {
    cb_board b;
    cb_node nodes[N_NODES];
    cb_edge edges[MAX_EDGES];
} wheel;

static uint32_t ring(int i)
{
    return (uint32_t)(1 + ((i % RING) + RING) % RING);
}

static uint32_t start(int k)
{
    return (uint32_t)(1 + RING + k);
}

static void add_edge(cb_board *b, uint32_t u, uint32_t v)
{
    assert_true(b->n_edges < MAX_EDGES);
    b->edges[b->n_edges].a = u < v ? u : v;
    b->edges[b->n_edges].b = u < v ? v : u;
    b->n_edges++;
}

static void remove_edge(cb_board *b, uint32_t u, uint32_t v)
{
    for (size_t e = 0; e < b->n_edges; e++)
        if ((b->edges[e].a == u && b->edges[e].b == v) || (b->edges[e].a == v && b->edges[e].b == u)) {
            b->edges[e] = b->edges[--b->n_edges];
            return;
        }
    fail_msg("no edge %u-%u to remove", u, v);
}

static cb_board *make_wheel(wheel *w)
{
    memset(w, 0, sizeof *w);
    cb_board *b = &w->b;
    b->nodes = w->nodes;
    b->edges = w->edges;
    b->seed = "wheel";
    b->page_w = b->page_h = 220;
    b->board_x = b->board_y = 10;
    b->board_w = b->board_h = 200;
    b->node_radius = 5;
    b->center = 0;
    b->n_nodes = N_NODES;
    b->attempts = 1;
    double cx = 110, cy = 110, rho = 55;
    for (uint32_t v = 0; v < N_NODES; v++) {
        w->nodes[v].kind = CB_KIND_NODE;
        w->nodes[v].side = CB_SIDE_NONE;
        w->nodes[v].type = w->nodes[v].mission = -1;
    }
    w->nodes[0].kind = CB_KIND_CENTER;
    w->nodes[0].x = cx;
    w->nodes[0].y = cy;
    for (int i = 0; i < RING; i++) {
        double th = (-7.5 + 15.0 * i) * M_PI / 180; /* y up, as on a map */
        w->nodes[ring(i)].x = cx + rho * cos(th);
        w->nodes[ring(i)].y = cy - rho * sin(th);
        add_edge(b, 0, ring(i));
        add_edge(b, ring(i), ring(i + 1));
    }
    for (int k = 0; k < STARTS; k++) {
        double ph = 30.0 * k * M_PI / 180, c = cos(ph), s = sin(ph);
        cb_node *v = &w->nodes[start(k)];
        v->kind = CB_KIND_START;
        v->mission = 0;
        if (fabs(c) > fabs(s)) {
            v->side = c > 0 ? CB_SIDE_RIGHT : CB_SIDE_LEFT;
            v->x = c > 0 ? 210 : 10;
            v->y = cy - 100 * s / fabs(c);
        } else {
            v->side = s > 0 ? CB_SIDE_TOP : CB_SIDE_BOTTOM;
            v->y = s > 0 ? 10 : 210;
            v->x = cx + 100 * c / fabs(s);
        }
        add_edge(b, start(k), ring(2 * k));
        add_edge(b, start(k), ring(2 * k + 1));
    }
    return b;
}

static cb_verdict check(const cb_board *b, int start_cap, int node_cap)
{
    cb_verdict v;
    cb_error err = {CB_OK, "", 0, ""};
    if (cb_board_check(b, start_cap, node_cap, &v, &err) != CB_OK)
        fail_msg("cb_board_check: %s", err.message);
    if (!v.ok)
        assert_true(strlen(v.failure) > 0);
    return v;
}

static void test_wheel_meets_contract(void **state)
{
    (void)state;
    wheel w;
    cb_board *b = make_wheel(&w);
    cb_verdict v = check(b, 2, 4);
    if (!v.ok)
        fail_msg("the hand-made board fails: %s", v.failure);
    assert_true(v.connected);
    assert_int_equal(v.crossings, 0);
    assert_int_equal(v.grazes, 0);
    assert_int_equal(v.overlaps, 0);
    assert_int_equal(v.starts, 12);
    assert_true(v.starts_ok && v.caps_ok && v.neighbours_ok);
    assert_int_equal(v.hop_min, 2);
    assert_int_equal(v.hop_max, 2);
    assert_int_equal(v.min_disjoint, 2);
    for (int k = 0; k < 12; k++) {
        assert_int_equal(v.hops[k], 2);
        assert_int_equal(v.disjoint[k], 2);
    }
}

static void test_crossing(void **state)
{
    (void)state;
    wheel w;
    cb_board *b = make_wheel(&w);
    add_edge(b, ring(0), ring(2)); /* a chord across the spoke to ring(1) */
    cb_verdict v = check(b, 2, 8);
    assert_false(v.ok);
    assert_true(v.crossings >= 1);
}

/* A tiny board for exact geometric counts: N nodes, radius R. */
typedef struct {
    cb_board b;
    cb_node nodes[8];
    cb_edge edges[8];
} tiny;

static cb_board *make_tiny(tiny *t, const double (*xy)[2], size_t n, double r)
{
    memset(t, 0, sizeof *t);
    t->b.nodes = t->nodes;
    t->b.edges = t->edges;
    t->b.n_nodes = n;
    t->b.page_w = t->b.page_h = 100;
    t->b.board_w = t->b.board_h = 100;
    t->b.node_radius = r;
    for (size_t i = 0; i < n; i++) {
        t->nodes[i].x = xy[i][0];
        t->nodes[i].y = xy[i][1];
        t->nodes[i].side = CB_SIDE_NONE;
        t->nodes[i].type = t->nodes[i].mission = -1;
    }
    return &t->b;
}

static void test_crossing_counts(void **state)
{
    (void)state;
    tiny t;
    static const double square[][2] = {{10, 10}, {60, 60}, {10, 60}, {60, 10}};
    cb_board *b = make_tiny(&t, square, 4, 2);
    add_edge(b, 0, 1);
    add_edge(b, 2, 3); /* the two diagonals */
    assert_int_equal(check(b, 2, 4).crossings, 1);
    b->n_edges = 0;
    add_edge(b, 0, 3);
    add_edge(b, 2, 1); /* two parallel sides */
    add_edge(b, 0, 2);
    assert_int_equal(check(b, 2, 4).crossings, 0);
    /* Collinear edges from one node, one along the other. */
    static const double line[][2] = {{10, 10}, {50, 10}, {90, 10}};
    b = make_tiny(&t, line, 3, 2);
    add_edge(b, 0, 2);
    add_edge(b, 0, 1);
    assert_int_equal(check(b, 2, 4).crossings, 1);
    /* A straight path through the middle node is fine. */
    b->n_edges = 0;
    add_edge(b, 0, 1);
    add_edge(b, 1, 2);
    assert_int_equal(check(b, 2, 4).crossings, 0);
}

static void test_graze(void **state)
{
    (void)state;
    tiny t;
    static const double near[][2] = {{10, 10}, {50, 10}, {30, 12}};
    cb_board *b = make_tiny(&t, near, 3, 3);
    add_edge(b, 0, 1);
    cb_verdict v = check(b, 2, 4);
    assert_int_equal(v.grazes, 1);
    assert_int_equal(v.crossings, 0);
    assert_int_equal(v.overlaps, 0);
    /* 3.5 mm from the edge with a 3 mm radius: clear. */
    static const double clear[][2] = {{10, 10}, {50, 10}, {30, 13.5}};
    b = make_tiny(&t, clear, 3, 3);
    add_edge(b, 0, 1);
    assert_int_equal(check(b, 2, 4).grazes, 0);
    /* Beyond the end of the edge, 2 mm from the line but 5 from the segment. */
    static const double beyond[][2] = {{10, 10}, {50, 10}, {55, 12}};
    b = make_tiny(&t, beyond, 3, 3);
    add_edge(b, 0, 1);
    assert_int_equal(check(b, 2, 4).grazes, 0);
}

static void test_overlap(void **state)
{
    (void)state;
    tiny t;
    /* Radius 5 with the 1.5 mm gap: centres need 11.5 mm. */
    static const double close[][2] = {{10, 10}, {21, 10}, {80, 80}};
    cb_verdict v = check(make_tiny(&t, close, 3, 5), 2, 4);
    assert_int_equal(v.overlaps, 1);
    assert_int_equal(v.grazes, 0);
    static const double apart[][2] = {{10, 10}, {21.6, 10}, {80, 80}};
    assert_int_equal(check(make_tiny(&t, apart, 3, 5), 2, 4).overlaps, 0);
    static const double three[][2] = {{10, 10}, {10, 20}, {10, 30}, {80, 80}};
    assert_int_equal(check(make_tiny(&t, three, 4, 5), 2, 4).overlaps, 2);
}

static void test_missing_or_misplaced_start(void **state)
{
    (void)state;
    wheel w;
    cb_board *b = make_wheel(&w);
    w.nodes[start(4)].kind = CB_KIND_NODE;
    w.nodes[start(4)].side = CB_SIDE_NONE;
    cb_verdict v = check(b, 2, 4);
    assert_int_equal(v.starts, 11);
    assert_false(v.starts_ok);
    assert_false(v.ok);
    /* A start a hair inside its trim line. */
    b = make_wheel(&w);
    w.nodes[start(0)].x -= 0.01;
    v = check(b, 2, 4);
    assert_int_equal(v.starts, 12);
    assert_false(v.starts_ok);
    assert_false(v.ok);
    /* A start labelled with the wrong side. */
    b = make_wheel(&w);
    w.nodes[start(0)].side = CB_SIDE_TOP;
    v = check(b, 2, 4);
    assert_false(v.starts_ok);
    assert_false(v.ok);
}

static void test_adjacent_starts(void **state)
{
    (void)state;
    wheel w;
    cb_board *b = make_wheel(&w);
    add_edge(b, start(11), start(0)); /* along the right trim line */
    cb_verdict v = check(b, 3, 4);
    assert_false(v.neighbours_ok);
    assert_true(v.caps_ok);
    assert_int_equal(v.crossings, 0);
    assert_int_equal(v.grazes, 0);
    assert_false(v.ok);
}

static void test_shared_neighbour(void **state)
{
    (void)state;
    wheel w;
    cb_board *b = make_wheel(&w);
    /* Start 1 leaves ring(2) for ring(1), which start 0 already uses. */
    remove_edge(b, start(1), ring(2));
    add_edge(b, start(1), ring(1));
    cb_verdict v = check(b, 2, 5);
    assert_false(v.neighbours_ok);
    assert_true(v.caps_ok);
    assert_int_equal(v.crossings, 0);
    assert_int_equal(v.grazes, 0);
    assert_int_equal(v.min_disjoint, 2);
    assert_false(v.ok);
}

static void test_hop_spread(void **state)
{
    (void)state;
    wheel w;
    /* Start 0's ring nodes lose their spokes: 3 hops against 2, allowed. */
    cb_board *b = make_wheel(&w);
    remove_edge(b, 0, ring(0));
    remove_edge(b, 0, ring(1));
    cb_verdict v = check(b, 2, 4);
    if (!v.ok)
        fail_msg("spread 1 must pass: %s", v.failure);
    assert_int_equal(v.hops[0], 3);
    assert_int_equal(v.hop_max - v.hop_min, 1);
    /* And their ring neighbours too: 4 hops against 2, not allowed. */
    remove_edge(b, 0, ring(-1));
    remove_edge(b, 0, ring(2));
    v = check(b, 2, 4);
    assert_int_equal(v.hops[0], 4);
    assert_int_equal(v.hop_min, 2);
    assert_int_equal(v.hop_max, 4);
    assert_int_equal(v.min_disjoint, 2);
    assert_true(v.connected && v.starts_ok && v.neighbours_ok && v.caps_ok);
    assert_false(v.ok);
}

static void test_bridge(void **state)
{
    (void)state;
    wheel w;
    cb_board *b = make_wheel(&w);
    /* ring(0) and ring(1) now reach the centre only through ring(0)-ring(-1). */
    remove_edge(b, 0, ring(0));
    remove_edge(b, 0, ring(1));
    remove_edge(b, ring(1), ring(2));
    cb_verdict v = check(b, 2, 4);
    assert_true(v.connected);
    assert_int_equal(v.hops[0], 3);
    assert_true(v.hop_max - v.hop_min <= 1);
    assert_int_equal(v.disjoint[0], 1);
    assert_int_equal(v.disjoint[1], 2);
    assert_int_equal(v.min_disjoint, 1);
    assert_false(v.ok);
}

static void test_disconnected_and_caps(void **state)
{
    (void)state;
    wheel w;
    cb_board *b = make_wheel(&w);
    remove_edge(b, start(3), ring(6));
    remove_edge(b, start(3), ring(7));
    cb_verdict v = check(b, 2, 4);
    assert_false(v.connected);
    assert_false(v.ok);
    /* Ring nodes have 4 edges: a cap of 3 is broken, the centre is exempt. */
    b = make_wheel(&w);
    v = check(b, 2, 3);
    assert_false(v.caps_ok);
    assert_false(v.ok);
    assert_true(check(b, 2, 4).caps_ok);
}

static void test_bad_edges_are_data_errors(void **state)
{
    (void)state;
    wheel w;
    cb_board *b = make_wheel(&w);
    w.edges[3].b = N_NODES + 5;
    cb_verdict v;
    cb_error err = {CB_OK, "", 0, ""};
    assert_int_equal(cb_board_check(b, 2, 4, &v, &err), CB_ERR_DATA);
    assert_true(strlen(err.message) > 0);
}

/* Hops from SRC over the board's edges, by a plain BFS over an edge list
 * scan (quadratic, and independent of the library's graph). */
static void own_hops(const cb_board *b, uint32_t src, int *hop)
{
    for (size_t v = 0; v < b->n_nodes; v++)
        hop[v] = -1;
    hop[src] = 0;
    for (int level = 0, grew = 1; grew; level++) {
        grew = 0;
        for (size_t e = 0; e < b->n_edges; e++) {
            uint32_t x = b->edges[e].a, y = b->edges[e].b;
            if (hop[x] == level && hop[y] < 0)
                hop[y] = level + 1, grew = 1;
            else if (hop[y] == level && hop[x] < 0)
                hop[x] = level + 1, grew = 1;
        }
    }
}

/* The verdict's figures on generated boards against this file's own
 * counts: the starts in node order, each one's hops to the centre, and the
 * hop band. (Whether the boards meet the contract is test_contract's job,
 * with its own checker.) */
static void test_verdict_figures_match_own_counts(void **state)
{
    (void)state;
    cb_spec spec;
    cb_spec_defaults(&spec);
    for (int i = 0; i < 20; i++) {
        char seed[32];
        snprintf(seed, sizeof seed, "fair-%d", i);
        cb_board *b = NULL;
        cb_error err;
        assert_int_equal(cb_board_generate(&spec, seed, 1, &b, &err), CB_OK);
        cb_verdict v = check(b, spec.start_cap, spec.node_cap);
        int *hop = malloc(b->n_nodes * sizeof *hop);
        assert_non_null(hop);
        own_hops(b, b->center, hop);
        int k = 0, lo = INT32_MAX, hi = -1;
        for (uint32_t s = 0; s < b->n_nodes; s++) {
            if (b->nodes[s].kind != CB_KIND_START)
                continue;
            if (k < CB_VERDICT_STARTS && v.hops[k] != hop[s])
                fail_msg("%s: start %u (#%d) has %d hops, the verdict says %d", seed, s, k,
                         hop[s], v.hops[k]);
            lo = hop[s] < lo ? hop[s] : lo;
            hi = hop[s] > hi ? hop[s] : hi;
            k++;
        }
        assert_int_equal(v.starts, k);
        assert_int_equal(v.hop_min, lo);
        assert_int_equal(v.hop_max, hi);
        free(hop);
        cb_board_free(b);
    }
}

/* The path counts of starts with 2 edges or fewer come from the bridges
 * (the check's tree walk); on generated boards with edges taken away, so
 * that bridges appear, they must be what a max-flow counts. */
static void test_bridges_match_max_flow(void **state)
{
    (void)state;
    cb_spec spec;
    cb_spec_defaults(&spec);
    int ones = 0, twos = 0;
    for (int i = 0; i < 40; i++) {
        char seed[32];
        snprintf(seed, sizeof seed, "bridges-%d", i);
        cb_board *b = NULL;
        cb_error err = {CB_OK, "", 0, ""};
        if (cb_board_generate(&spec, seed, 1, &b, &err) != CB_OK)
            fail_msg("seed %s: %s", seed, err.message);
        /* Take away every edge whose index is 3 + i % 5 modulo 6 + i % 5. */
        size_t kept = 0, step = 6 + (size_t)i % 5;
        for (size_t e = 0; e < b->n_edges; e++)
            if (e % step != 3 + (size_t)i % 5)
                b->edges[kept++] = b->edges[e];
        b->n_edges = kept;
        cb_verdict v;
        assert_int_equal(cb_board_check(b, 2, 4, &v, &err), CB_OK);
        cb_graph g;
        assert_int_equal(cb_graph_build(&g, b, &err), CB_OK);
        int k = 0;
        for (uint32_t s = 0; s < b->n_nodes && k < CB_STARTS; s++) {
            if (b->nodes[s].kind != CB_KIND_START)
                continue;
            int deg = (int)cb_graph_degree(&g, s);
            int flow = cb_graph_edge_disjoint(&g, s, b->center, deg);
            if (v.disjoint[k] != flow)
                fail_msg("%s: start %u has %d edge-disjoint paths, the verdict says %d",
                         seed, s, flow, v.disjoint[k]);
            ones += flow == 1;
            twos += flow == 2;
            k++;
        }
        cb_graph_free(&g);
        cb_board_free(b);
    }
    /* Both kinds were met. */
    assert_true(ones > 0 && twos > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wheel_meets_contract),
        cmocka_unit_test(test_crossing),
        cmocka_unit_test(test_crossing_counts),
        cmocka_unit_test(test_graze),
        cmocka_unit_test(test_overlap),
        cmocka_unit_test(test_missing_or_misplaced_start),
        cmocka_unit_test(test_adjacent_starts),
        cmocka_unit_test(test_shared_neighbour),
        cmocka_unit_test(test_hop_spread),
        cmocka_unit_test(test_bridge),
        cmocka_unit_test(test_bridges_match_max_flow),
        cmocka_unit_test(test_disconnected_and_caps),
        cmocka_unit_test(test_bad_edges_are_data_errors),
        cmocka_unit_test(test_verdict_figures_match_own_counts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
