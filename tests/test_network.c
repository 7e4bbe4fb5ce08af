/* The network models: each model's defining properties over many seeds,
 * the parameter checks, determinism, and crossing-free drawings where the
 * map promises them (--geometric, paths, cycles, trees). */
#include "test.h"
#include "net/network.h"
#include "base/rng.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static cb_network *build(cb_net_model model, long n, const char *seed, long k, double p,
                         long m, long links, int geometric)
{
    cb_net_spec s;
    cb_net_spec_defaults(&s);
    s.model = model;
    s.n = n;
    s.seed = seed;
    s.k = k;
    s.p = p;
    s.m = m;
    s.links = links;
    s.geometric = geometric;
    s.width = 190;
    s.height = 180;
    cb_network *net = NULL;
    cb_error err = {CB_OK, "", 0, ""};
    cb_status st = cb_network_build(&s, &net, &err);
    if (st != CB_OK)
        fail_msg("%s n=%ld: %s", cb_net_model_name(model), n, err.message);
    return net;
}

/* Links strictly sorted, a < b < n (so no loops and no repeats); returns the
 * degree of every node in DEG (n entries) and checks the degree sum. */
static void check_simple(const cb_network *net, size_t *deg)
{
    memset(deg, 0, net->n * sizeof *deg);
    for (size_t i = 0; i < net->n_edges; i++) {
        cb_edge e = net->edges[i];
        assert_true(e.a < e.b);
        assert_true(e.b < net->n);
        if (i > 0) {
            cb_edge f = net->edges[i - 1];
            assert_true(f.a < e.a || (f.a == e.a && f.b < e.b));
        }
        deg[e.a]++;
        deg[e.b]++;
    }
    size_t sum = 0;
    for (size_t v = 0; v < net->n; v++)
        sum += deg[v];
    assert_int_equal(sum, 2 * net->n_edges);
}

static cb_net_analysis *analyze(const cb_network *net)
{
    cb_net_analysis *a = NULL;
    cb_error err;
    assert_int_equal(cb_net_analyze(net, &a, &err), CB_OK);
    return a;
}

static void test_edge_counts(void **state)
{
    (void)state;
    size_t *deg = malloc(3000 * sizeof *deg);
    for (int seed = 0; seed < 40; seed++) {
        char sd[16];
        snprintf(sd, sizeof sd, "s%d", seed);
        long n = 20 + 61 * seed; /* 20 .. 2399 */
        cb_network *net;

        net = build(CB_NET_LINEAR, n, sd, -1, -1, -1, -1, 0);
        check_simple(net, deg);
        assert_int_equal(net->n_edges, n - 1);
        for (long v = 0; v + 1 < n; v++)
            assert_true(net->edges[v].a == (uint32_t)v && net->edges[v].b == (uint32_t)v + 1);
        cb_network_free(net);

        long k = 2 + 2 * (seed % 4);
        net = build(CB_NET_RING, n, sd, k, -1, -1, -1, 0);
        check_simple(net, deg);
        assert_int_equal(net->n_edges, n * k / 2);
        for (long v = 0; v < n; v++)
            assert_int_equal(deg[v], k);
        cb_network_free(net);

        long kr = 1 + seed % 7;
        long nr = (n * kr) % 2 ? n + 1 : n;
        net = build(CB_NET_REGULAR, nr, sd, kr, -1, -1, -1, 0);
        check_simple(net, deg);
        assert_int_equal(net->n_edges, nr * kr / 2);
        for (long v = 0; v < nr; v++)
            assert_int_equal(deg[v], kr);
        cb_network_free(net);

        long links = (seed * 37) % (3 * n);
        net = build(CB_NET_RANDOM, n, sd, -1, -1, -1, links, 0);
        check_simple(net, deg);
        assert_int_equal(net->n_edges, links);
        cb_network_free(net);

        long al = n - 1 + (seed * 13) % n;
        net = build(CB_NET_ANCHORED, n, sd, -1, -1, -1, al, 0);
        check_simple(net, deg);
        assert_int_equal(net->n_edges, al);
        cb_network_free(net);

        net = build(CB_NET_SMALL_WORLD, n, sd, k, 0.05 * (seed % 10), -1, -1, 0);
        check_simple(net, deg);
        assert_int_equal(net->n_edges, n * k / 2);
        cb_network_free(net);

        long m = 1 + seed % 5;
        net = build(CB_NET_SCALE_FREE, n, sd, -1, -1, m, -1, 0);
        check_simple(net, deg);
        assert_int_equal(net->n_edges, m + (n - m - 1) * m);
        cb_network_free(net);
    }
    free(deg);
}

static void test_complete(void **state)
{
    (void)state;
    size_t deg[200];
    for (long n = 1; n <= 200; n += 13) {
        cb_network *net = build(CB_NET_COMPLETE, n, "k", -1, -1, -1, -1, 0);
        check_simple(net, deg);
        assert_int_equal(net->n_edges, n * (n - 1) / 2);
        for (long v = 0; v < n; v++)
            assert_int_equal(deg[v], n - 1);
        cb_network_free(net);
    }
}

/* Every feasible (n, k), sparse (switching) and dense (complement). */
static void test_regular_all_k(void **state)
{
    (void)state;
    size_t deg[40];
    for (long n = 2; n <= 40; n++)
        for (long k = 1; k < n; k++) {
            if ((n * k) % 2)
                continue;
            cb_network *net = build(CB_NET_REGULAR, n, "r", k, -1, -1, -1, 0);
            check_simple(net, deg);
            for (long v = 0; v < n; v++)
                assert_int_equal(deg[v], k);
            cb_network_free(net);
        }
}

/* Dense G(n, m) goes through the complement; the count stays exact. */
static void test_gnm_dense(void **state)
{
    (void)state;
    size_t deg[60];
    long pairs = 60 * 59 / 2;
    long want[] = {0, 1, pairs / 2, pairs / 2 + 1, pairs - 1, pairs};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        cb_network *net = build(CB_NET_RANDOM, 60, "dense", -1, -1, -1, want[i], 0);
        check_simple(net, deg);
        assert_int_equal(net->n_edges, want[i]);
        cb_network_free(net);
    }
}

/* G(n, p): over 200 seeds the mean link count is within 4 standard errors
 * of p * n(n-1)/2, and every single run within 6 standard deviations. */
static void test_gnp_mean(void **state)
{
    (void)state;
    double n = 400, p = 0.02, pairs = n * (n - 1) / 2, mu = p * pairs;
    double sd = sqrt(pairs * p * (1 - p)), sum = 0;
    int runs = 200;
    size_t deg[400];
    for (int s = 0; s < runs; s++) {
        char sd_[16];
        snprintf(sd_, sizeof sd_, "gnp%d", s);
        cb_network *net = build(CB_NET_RANDOM, 400, sd_, -1, p, -1, -1, 0);
        check_simple(net, deg);
        assert_true(fabs((double)net->n_edges - mu) < 6 * sd);
        sum += (double)net->n_edges;
        cb_network_free(net);
    }
    assert_true(fabs(sum / runs - mu) < 4 * sd / sqrt(runs));
    cb_network *net = build(CB_NET_RANDOM, 50, "x", -1, 0, -1, -1, 0);
    assert_int_equal(net->n_edges, 0);
    cb_network_free(net);
    net = build(CB_NET_RANDOM, 50, "x", -1, 1, -1, -1, 0);
    assert_int_equal(net->n_edges, 50 * 49 / 2);
    cb_network_free(net);
}

static void test_ws_p0_is_ring(void **state)
{
    (void)state;
    for (long k = 2; k <= 10; k += 2) {
        cb_network *ws = build(CB_NET_SMALL_WORLD, 101, "w", k, 0, -1, -1, 0);
        cb_network *ring = build(CB_NET_RING, 101, "other seed", k, -1, -1, -1, 0);
        assert_int_equal(ws->n_edges, ring->n_edges);
        assert_memory_equal(ws->edges, ring->edges, ws->n_edges * sizeof *ws->edges);
        cb_network_free(ws);
        cb_network_free(ring);
    }
}

/* Rewiring keeps the link count and node 0..n-1's lower ends; p = 1 moves
 * about every link; the result has no loops or repeats (check_simple). */
static void test_ws_rewires(void **state)
{
    (void)state;
    size_t deg[500];
    for (int s = 0; s < 30; s++) {
        char sd[16];
        snprintf(sd, sizeof sd, "ws%d", s);
        cb_network *ws = build(CB_NET_SMALL_WORLD, 500, sd, 4, 1.0, -1, -1, 0);
        cb_network *ring = build(CB_NET_RING, 500, sd, 4, -1, -1, -1, 0);
        check_simple(ws, deg);
        assert_int_equal(ws->n_edges, 1000);
        size_t same = 0;
        for (size_t i = 0, j = 0; i < ws->n_edges && j < ring->n_edges;) {
            cb_edge a = ws->edges[i], b = ring->edges[j];
            if (a.a == b.a && a.b == b.b)
                same++, i++, j++;
            else if (a.a < b.a || (a.a == b.a && a.b < b.b))
                i++;
            else
                j++;
        }
        assert_true(same < 30); /* a rewired link lands on a lattice link rarely */
        cb_network_free(ws);
        cb_network_free(ring);
    }
}

/* Small-world is NetworkX's loop, draw for draw: a plain version on an
 * adjacency matrix, fed by the RNG seeded as cb_network_build seeds it,
 * gives the same links for every n, k, p and seed (small n reach the
 * "linked to every node" skip; big p the moved links' growing set). */
static void test_ws_reference(void **state)
{
    (void)state;
    const long ns[] = {3, 4, 5, 6, 7, 9, 12, 33, 200, 1000};
    const double ps[] = {0, 0.1, 0.5, 0.9, 1};
    for (size_t ni = 0; ni < sizeof ns / sizeof *ns; ni++)
        for (long k = 2; k <= 8 && k < ns[ni]; k += 2)
            for (size_t pi = 0; pi < sizeof ps / sizeof *ps; pi++)
                for (int sd = 0; sd < 3; sd++) {
                    uint32_t n = (uint32_t)ns[ni];
                    char seed[16];
                    snprintf(seed, sizeof seed, "ref%d", sd);
                    cb_rng rng;
                    cb_rng_seed(&rng, cb_hash_string(seed) ^ cb_hash_string("network/small-world/"));
                    uint8_t *adj = calloc((size_t)n * n, 1);
                    uint32_t *deg = calloc(n, sizeof *deg);
                    assert_non_null(adj);
                    assert_non_null(deg);
                    for (uint32_t j = 1; j <= (uint32_t)k / 2; j++)
                        for (uint32_t u = 0; u < n; u++) {
                            uint32_t v = (u + j) % n;
                            adj[(size_t)u * n + v] = adj[(size_t)v * n + u] = 1;
                            deg[u]++, deg[v]++;
                        }
                    for (uint32_t j = 1; j <= (uint32_t)k / 2; j++)
                        for (uint32_t u = 0; u < n; u++) {
                            if (!(cb_rng_uniform(&rng) < ps[pi]) || deg[u] >= n - 1)
                                continue;
                            uint32_t v = (u + j) % n, w;
                            do
                                w = (uint32_t)cb_rng_below(&rng, n);
                            while (w == u || adj[(size_t)u * n + w]);
                            adj[(size_t)u * n + v] = adj[(size_t)v * n + u] = 0;
                            adj[(size_t)u * n + w] = adj[(size_t)w * n + u] = 1;
                            deg[v]--, deg[w]++;
                        }
                    cb_network *ws = build(CB_NET_SMALL_WORLD, (long)n, seed, k, ps[pi], -1, -1, 0);
                    size_t i = 0;
                    for (uint32_t a = 0; a < n; a++)
                        for (uint32_t b = a + 1; b < n; b++)
                            if (adj[(size_t)a * n + b]) {
                                assert_true(i < ws->n_edges);
                                assert_int_equal(ws->edges[i].a, a);
                                assert_int_equal(ws->edges[i].b, b);
                                i++;
                            }
                    assert_int_equal(i, ws->n_edges);
                    cb_network_free(ws);
                    free(adj);
                    free(deg);
                }
}

static int cmp_edge(const void *x, const void *y)
{
    const cb_edge *e = x, *f = y;
    return e->a != f->a ? (e->a > f->a) - (e->a < f->a) : (e->b > f->b) - (e->b < f->b);
}

/* The link sort against qsort: few links among many nodes (radix), about as
 * many as nodes (two counting passes), links already in order of b (one),
 * ends all low (radix digits that are the same in every key). */
static void test_sort_edges(void **state)
{
    (void)state;
    cb_rng rng;
    cb_rng_seed(&rng, 7);
    const size_t cases[][2] = {{10, 1}, {1000, 3}, {100000, 20000}, {100000, 150000},
                               {1000, 20000}, {5, 9}, {1 << 20, 1000}};
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++)
        for (int mode = 0; mode < 3; mode++) {
            size_t n = cases[c][0], m = cases[c][1], top = mode == 2 && n > 200 ? 200 : n;
            cb_edge *e = malloc(m * sizeof *e), *want = malloc(m * sizeof *want);
            assert_non_null(e);
            assert_non_null(want);
            for (size_t i = 0; i < m; i++) {
                uint32_t b = mode == 1 ? (uint32_t)(1 + i * (n - 1) / m)
                                       : (uint32_t)(1 + cb_rng_below(&rng, top - 1));
                e[i].b = b;
                e[i].a = (uint32_t)cb_rng_below(&rng, b);
            }
            memcpy(want, e, m * sizeof *e);
            qsort(want, m, sizeof *want, cmp_edge);
            assert_int_equal(cb_net_sort_edges(e, m, n), 0);
            assert_memory_equal(e, want, m * sizeof *e);
            free(e);
            free(want);
        }
}

static void test_anchored_connected(void **state)
{
    (void)state;
    for (int s = 0; s < 300; s++) {
        char sd[16];
        snprintf(sd, sizeof sd, "a%d", s);
        long n = 2 + s;
        cb_network *net = s % 2 ? build(CB_NET_ANCHORED, n, sd, -1, -1, -1, n - 1, 0)
                                : build(CB_NET_ANCHORED, n, sd, -1, 0.01, -1, -1, 0);
        cb_net_analysis *a = analyze(net);
        assert_int_equal(a->components, 1);
        assert_true(a->min_degree >= 1);
        cb_net_analysis_free(a);
        cb_network_free(net);
    }
}

/* Barabasi-Albert is heavy-tailed: the biggest hub far above the mean, and
 * many more high-degree nodes than G(n, m) with the same links has. */
static void test_ba_heavy_tail(void **state)
{
    (void)state;
    double ratio_sum = 0;
    size_t tail_ba = 0, tail_er = 0;
    int runs = 40;
    size_t *deg = malloc(3000 * sizeof *deg);
    for (int s = 0; s < runs; s++) {
        char sd[16];
        snprintf(sd, sizeof sd, "ba%d", s);
        cb_network *ba = build(CB_NET_SCALE_FREE, 3000, sd, -1, -1, 2, -1, 0);
        cb_network *er = build(CB_NET_RANDOM, 3000, sd, -1, -1, -1, (long)ba->n_edges, 0);
        double mean = 2.0 * (double)ba->n_edges / 3000;
        size_t max_ba = 0, max_er = 0;
        check_simple(ba, deg);
        for (size_t v = 0; v < 3000; v++) {
            max_ba = deg[v] > max_ba ? deg[v] : max_ba;
            tail_ba += deg[v] >= 20;
        }
        check_simple(er, deg);
        for (size_t v = 0; v < 3000; v++) {
            max_er = deg[v] > max_er ? deg[v] : max_er;
            tail_er += deg[v] >= 20;
        }
        assert_true((double)max_ba > 8 * mean);
        assert_true((double)max_er < 5 * mean);
        ratio_sum += (double)max_ba / mean;
        cb_network_free(ba);
        cb_network_free(er);
    }
    free(deg);
    assert_true(ratio_sum / runs > 15);
    assert_true(tail_ba > 3000 * (size_t)runs / 100); /* > 1% of nodes at degree >= 20 */
    assert_int_equal(tail_er, 0);
}

static void test_deterministic(void **state)
{
    (void)state;
    for (int model = 0; model < CB_NET_MODELS; model++) {
        for (int geo = 0; geo < 2; geo++) {
            cb_network *a = build((cb_net_model)model, 60, "same", -1, -1, -1, -1, geo);
            cb_network *b = build((cb_net_model)model, 60, "same", -1, -1, -1, -1, geo);
            cb_network *c = build((cb_net_model)model, 60, "other", -1, -1, -1, -1, geo);
            assert_int_equal(a->n_edges, b->n_edges);
            assert_memory_equal(a->edges, b->edges, a->n_edges * sizeof *a->edges);
            int random = model != CB_NET_LINEAR && model != CB_NET_RING &&
                         model != CB_NET_COMPLETE;
            if (random || geo)
                assert_true(a->n_edges != c->n_edges ||
                            memcmp(a->edges, c->edges, a->n_edges * sizeof *a->edges) != 0);
            cb_network_free(a);
            cb_network_free(b);
            cb_network_free(c);
        }
    }
}

/* Big networks build (no timing here: see tests/bench/bench_network.c). */
static void test_large(void **state)
{
    (void)state;
    size_t *deg = malloc(100000 * sizeof *deg);
    for (int model = 0; model < CB_NET_MODELS; model++) {
        long n = model == CB_NET_COMPLETE ? 2000 : 100000;
        cb_network *net = build((cb_net_model)model, n, "big", -1, -1, -1, -1, 0);
        check_simple(net, deg);
        cb_network_free(net);
    }
    free(deg);
}

/* The spec is refused for the parameter FIELD, the message holding WHAT. */
static void expect_bad(cb_net_model model, long n, long k, double p, long m, long links,
                       int geo, const char *field, const char *what)
{
    cb_net_spec s;
    cb_net_spec_defaults(&s);
    s.model = model;
    s.n = n;
    s.k = k;
    s.p = p;
    s.m = m;
    s.links = links;
    s.geometric = geo;
    cb_error err = {CB_OK, "", 0, ""};
    cb_network *net = (cb_network *)&s; /* must be reset to NULL */
    assert_int_equal(cb_network_build(&s, &net, &err), CB_ERR_USAGE);
    assert_null(net);
    assert_int_equal(err.status, CB_ERR_USAGE);
    assert_string_equal(err.field, field);
    if (!strstr(err.message, what))
        fail_msg("\"%s\" does not say %s", err.message, what);
    assert_null(strchr(err.message, '\n'));
}

static void test_bad_parameters(void **state)
{
    (void)state;
    expect_bad(CB_NET_RING, 0, -1, -1, -1, -1, 0, "nodes", "");
    expect_bad(CB_NET_RING, 10, 3, -1, -1, -1, 0, "k", "even");
    expect_bad(CB_NET_RING, 10, 10, -1, -1, -1, 0, "k", "10 is");
    expect_bad(CB_NET_RING, 2, -1, -1, -1, -1, 0, "k", "2 is");
    expect_bad(CB_NET_SMALL_WORLD, 10, 4, 1.5, -1, -1, 0, "p", "");
    expect_bad(CB_NET_SMALL_WORLD, 10, 4, NAN, -1, -1, 0, "p", "");
    expect_bad(CB_NET_REGULAR, 11, 3, -1, -1, -1, 0, "k", "n * k");
    expect_bad(CB_NET_REGULAR, 11, 0, -1, -1, -1, 0, "k", "");
    expect_bad(CB_NET_SCALE_FREE, 5, -1, -1, 5, -1, 0, "m", "5 is");
    expect_bad(CB_NET_SCALE_FREE, 5, -1, -1, 0, -1, 0, "m", "0 is");
    expect_bad(CB_NET_COMPLETE, 2001, -1, -1, -1, -1, 0, "nodes", "2001");
    expect_bad(CB_NET_RANDOM, 10, -1, -1, -1, 46, 0, "links", "46 is");
    expect_bad(CB_NET_RANDOM, 10, -1, 0.5, -1, 5, 0, "p", "not both");
    expect_bad(CB_NET_ANCHORED, 10, -1, -1, -1, 8, 0, "links", "8 is");
    expect_bad(CB_NET_LINEAR, 10, 2, -1, -1, -1, 0, "k", "not a parameter");
    expect_bad(CB_NET_RING, 10, -1, -1, 2, -1, 0, "m", "not a parameter");
    expect_bad(CB_NET_SCALE_FREE, 10, -1, 0.2, -1, -1, 0, "p", "not a parameter");
    expect_bad(CB_NET_RANDOM, 1000, -1, -1, -1, -1, 1, "nodes", "geometric");
    expect_bad(CB_NET_RANDOM, 100000, -1, 0.5, -1, -1, 0, "p", "0.5 means");
    assert_int_equal(cb_net_model_parse("small-world"), CB_NET_SMALL_WORLD);
    assert_int_equal(cb_net_model_parse("smallworld"), -1);
}

/* --geometric maps have no crossings: every model, many seeds and sizes. */
static void test_geometric_no_crossings(void **state)
{
    (void)state;
    size_t deg[400];
    for (int s = 0; s < 60; s++) {
        char sd[16];
        snprintf(sd, sizeof sd, "g%d", s);
        long n = 3 + (s * 47) % 240;
        for (int model = 0; model < CB_NET_MODELS; model++) {
            cb_network *net = build((cb_net_model)model, n, sd, -1, -1, -1, -1, 1);
            check_simple(net, deg);
            assert_non_null(net->xy);
            size_t c = cb_net_crossings(net, net->xy);
            if (c)
                fail_msg("%s seed %s n=%ld: %zu crossings", cb_net_model_name(net->model), sd,
                         n, c);
            if (model == CB_NET_RING) {
                assert_int_equal(net->n_edges, n);
                for (long v = 0; v < n; v++)
                    assert_int_equal(deg[v], 2);
            }
            if (model == CB_NET_LINEAR)
                assert_int_equal(net->n_edges, n - 1);
            if (model == CB_NET_RANDOM || model == CB_NET_ANCHORED || model == CB_NET_RING ||
                model == CB_NET_LINEAR || model == CB_NET_SCALE_FREE) {
                cb_net_analysis *a = analyze(net);
                assert_int_equal(a->components, 1);
                cb_net_analysis_free(a);
            }
            if (model == CB_NET_REGULAR)
                for (long v = 0; v < n; v++)
                    assert_true(deg[v] <= 3);
            cb_network_free(net);
        }
    }
}

/* Paths, cycles and trees are drawn without crossings; every layout keeps
 * the nodes inside the map and reports the crossings it has. */
static void test_layout_planar_shapes(void **state)
{
    (void)state;
    for (int s = 0; s < 40; s++) {
        char sd[16];
        snprintf(sd, sizeof sd, "l%d", s);
        long n = 3 + (s * 29) % 300;
        cb_network *nets[4] = {
            build(CB_NET_LINEAR, n, sd, -1, -1, -1, -1, 0),
            build(CB_NET_RING, n, sd, 2, -1, -1, -1, 0),
            build(CB_NET_ANCHORED, n, sd, -1, -1, -1, n - 1, 0),
            build(CB_NET_SCALE_FREE, n, sd, -1, -1, 1, -1, 0),
        };
        for (int i = 0; i < 4; i++) {
            cb_net_layout *l = NULL;
            cb_error err;
            assert_int_equal(cb_net_layout_make(nets[i], sd, 297, 210, &l, &err), CB_OK);
            if (l->crossings)
                fail_msg("%s n=%ld seed %s: %zu crossings (%s)",
                         cb_net_model_name(nets[i]->model), n, sd, l->crossings, l->method);
            for (long v = 0; v < n; v++) {
                assert_true(l->xy[2 * v] >= l->map_x && l->xy[2 * v] <= l->map_x + l->map_w);
                assert_true(l->xy[2 * v + 1] >= l->map_y &&
                            l->xy[2 * v + 1] <= l->map_y + l->map_h);
            }
            cb_net_layout_free(l);
            cb_network_free(nets[i]);
        }
    }
}

static void test_layout_force(void **state)
{
    (void)state;
    cb_network *net = build(CB_NET_SMALL_WORLD, 40, "f", 4, 0.2, -1, -1, 0);
    cb_net_layout *l = NULL, *l2 = NULL;
    cb_error err;
    assert_int_equal(cb_net_layout_make(net, "f", 297, 210, &l, &err), CB_OK);
    assert_string_equal(l->method, "force");
    assert_int_equal(l->crossings, cb_net_crossings(net, l->xy));
    assert_int_equal(cb_net_layout_make(net, "f", 297, 210, &l2, &err), CB_OK);
    assert_memory_equal(l->xy, l2->xy, 2 * net->n * sizeof *l->xy);
    /* K4 drawn as a square has 1 crossing: the counter sees it */
    cb_edge k4[6] = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};
    double sq[8] = {0, 0, 1, 0, 1, 1, 0, 1};
    cb_network k = {.n = 4, .n_edges = 6, .edges = k4};
    assert_int_equal(cb_net_crossings(&k, sq), 1);
    cb_net_layout_free(l);
    cb_net_layout_free(l2);
    cb_network_free(net);
    net = build(CB_NET_COMPLETE, 400, "big", -1, -1, -1, -1, 0);
    assert_int_equal(cb_net_layout_make(net, "f", 297, 210, &l, &err), CB_ERR_USAGE);
    assert_non_null(strstr(err.message, "too big to draw"));
    assert_null(l);
    cb_network_free(net);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_edge_counts),
        cmocka_unit_test(test_complete),
        cmocka_unit_test(test_regular_all_k),
        cmocka_unit_test(test_gnm_dense),
        cmocka_unit_test(test_gnp_mean),
        cmocka_unit_test(test_ws_p0_is_ring),
        cmocka_unit_test(test_ws_rewires),
        cmocka_unit_test(test_ws_reference),
        cmocka_unit_test(test_sort_edges),
        cmocka_unit_test(test_anchored_connected),
        cmocka_unit_test(test_ba_heavy_tail),
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_large),
        cmocka_unit_test(test_bad_parameters),
        cmocka_unit_test(test_geometric_no_crossings),
        cmocka_unit_test(test_layout_planar_shapes),
        cmocka_unit_test(test_layout_force),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
