/* The network analysis: hand-computed values on small graphs, and a
 * cross-check against NetworkX (tests/networkx_check.py) on fixed graphs
 * from every model, skipped with a message when python3 has no networkx. */
#define _XOPEN_SOURCE 700 /* mkdtemp */
#include "test.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static cb_net_analysis *analyze_edges(size_t n, const cb_edge *e, size_t m)
{
    cb_network net = {.n = n, .n_edges = m, .edges = (cb_edge *)e, .k = -1, .m = -1,
                      .links = -1, .p = -1};
    cb_net_analysis *a = NULL;
    cb_error err;
    assert_int_equal(cb_net_analyze(&net, &a, &err), CB_OK);
    assert_true(a->has_distances);
    return a;
}

static void assert_ids(const uint32_t *got, size_t n_got, const uint32_t *want, size_t n_want)
{
    assert_int_equal(n_got, n_want);
    for (size_t i = 0; i < n_want; i++)
        assert_int_equal(got[i], want[i]);
}

static void test_path(void **state)
{
    (void)state;
    cb_edge e[] = {{0, 1}, {1, 2}, {2, 3}, {3, 4}};
    cb_net_analysis *a = analyze_edges(5, e, 4);
    long ecc[] = {4, 3, 2, 3, 4};
    for (int v = 0; v < 5; v++)
        assert_int_equal(a->eccentricity[v], ecc[v]);
    assert_int_equal(a->radius, 2);
    assert_int_equal(a->diameter, 4);
    uint32_t c[] = {2}, h[] = {1, 2, 3};
    assert_ids(a->center, a->n_center, c, 1);
    assert_ids(a->hubs, a->n_hubs, h, 3);
    assert_float_equal(a->avg_path_length, 2.0, 1e-12); /* (n + 1) / 3 */
    assert_float_equal(a->avg_clustering, 0, 0);
    assert_float_equal(a->transitivity, 0, 0);
    assert_int_equal(a->max_degree, 2);
    assert_int_equal(a->degree_hist[1], 2);
    assert_int_equal(a->degree_hist[2], 3);
    assert_int_equal(a->components, 1);
    cb_net_analysis_free(a);
}

static void test_star(void **state)
{
    (void)state;
    cb_edge e[] = {{0, 1}, {0, 2}, {0, 3}, {0, 4}};
    cb_net_analysis *a = analyze_edges(5, e, 4);
    assert_int_equal(a->radius, 1);
    assert_int_equal(a->diameter, 2);
    uint32_t c[] = {0};
    assert_ids(a->center, a->n_center, c, 1);
    assert_ids(a->hubs, a->n_hubs, c, 1);
    assert_int_equal(a->max_degree, 4);
    assert_int_equal(a->min_degree, 1);
    assert_float_equal(a->mean_degree, 1.6, 1e-12);
    assert_float_equal(a->avg_path_length, 32.0 / 20, 1e-12);
    cb_net_analysis_free(a);
}

static void test_cycle(void **state)
{
    (void)state;
    cb_edge e[] = {{0, 1}, {0, 5}, {1, 2}, {2, 3}, {3, 4}, {4, 5}};
    cb_net_analysis *a = analyze_edges(6, e, 6);
    for (int v = 0; v < 6; v++)
        assert_int_equal(a->eccentricity[v], 3);
    assert_int_equal(a->radius, 3);
    assert_int_equal(a->diameter, 3);
    assert_int_equal(a->n_center, 6);
    assert_int_equal(a->n_hubs, 6);
    assert_float_equal(a->avg_path_length, 1.8, 1e-12);
    cb_net_analysis_free(a);
}

static void test_k4(void **state)
{
    (void)state;
    cb_edge e[] = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};
    cb_net_analysis *a = analyze_edges(4, e, 6);
    assert_int_equal(a->radius, 1);
    assert_int_equal(a->diameter, 1);
    assert_float_equal(a->avg_clustering, 1.0, 1e-12);
    assert_float_equal(a->transitivity, 1.0, 1e-12);
    assert_float_equal(a->avg_path_length, 1.0, 1e-12);
    assert_int_equal(a->max_degree, 3);
    assert_int_equal(a->degree_hist[3], 4);
    assert_int_equal(a->degree_hist[0], 0);
    cb_net_analysis_free(a);
}

/* A triangle 0-1-2 with a tail 2-3-4. */
static void test_hand_graph(void **state)
{
    (void)state;
    cb_edge e[] = {{0, 1}, {0, 2}, {1, 2}, {2, 3}, {3, 4}};
    cb_net_analysis *a = analyze_edges(5, e, 5);
    long ecc[] = {3, 3, 2, 2, 3};
    for (int v = 0; v < 5; v++)
        assert_int_equal(a->eccentricity[v], ecc[v]);
    uint32_t c[] = {2, 3}, h[] = {2};
    assert_ids(a->center, a->n_center, c, 2);
    assert_ids(a->hubs, a->n_hubs, h, 1);
    assert_int_equal(a->radius, 2);
    assert_int_equal(a->diameter, 3);
    assert_float_equal(a->avg_clustering, 7.0 / 15, 1e-12); /* (1 + 1 + 1/3) / 5 */
    assert_float_equal(a->transitivity, 0.5, 1e-12);         /* 3 * 1 / 6 */
    assert_float_equal(a->avg_path_length, 34.0 / 20, 1e-12);
    cb_net_analysis_free(a);
}

/* Triangle 0-1-2, link 3-4, node 5 alone: distances are the triangle's. */
static void test_disconnected(void **state)
{
    (void)state;
    cb_edge e[] = {{0, 1}, {0, 2}, {1, 2}, {3, 4}};
    cb_net_analysis *a = analyze_edges(6, e, 4);
    assert_int_equal(a->components, 3);
    assert_int_equal(a->largest, 3);
    assert_int_equal(a->radius, 1);
    assert_int_equal(a->diameter, 1);
    uint32_t c[] = {0, 1, 2};
    assert_ids(a->center, a->n_center, c, 3);
    assert_int_equal(a->eccentricity[3], 1);
    assert_int_equal(a->eccentricity[5], 0);
    assert_float_equal(a->avg_path_length, 1.0, 1e-12);
    assert_int_equal(a->min_degree, 0);
    assert_int_equal(a->degree_hist[0], 1);
    cb_net_analysis_free(a);
    /* two equal components: the one with the smallest node counts */
    cb_edge f[] = {{0, 3}, {1, 2}};
    a = analyze_edges(4, f, 2);
    uint32_t c2[] = {0, 3};
    assert_ids(a->center, a->n_center, c2, 2);
    cb_net_analysis_free(a);
}

/* The CSV is the adjacency matrix: symmetric, 0/1, one 1 per link end. */
static void test_csv(void **state)
{
    (void)state;
    cb_edge e[] = {{0, 1}, {0, 2}, {1, 2}, {2, 3}};
    cb_network net = {.n = 4, .n_edges = 4, .edges = e};
    char *csv;
    size_t len;
    cb_error err;
    assert_int_equal(cb_net_csv_render(&net, &csv, &len, &err), CB_OK);
    assert_string_equal(csv, "0,1,1,0\n1,0,1,0\n1,1,0,1\n0,0,1,0\n");
    assert_int_equal(len, strlen(csv));
    free(csv);
    net.n = CB_NET_MAX_CSV_NODES + 1;
    assert_int_equal(cb_net_csv_render(&net, &csv, &len, &err), CB_ERR_USAGE);
    assert_string_equal(err.field, "csv");
}

/* Distances are skipped (not hung on) above the work bound. */
static void test_distance_bound(void **state)
{
    (void)state;
    cb_net_spec s;
    cb_net_spec_defaults(&s);
    s.model = CB_NET_RING;
    s.n = 100000;
    s.seed = "big";
    cb_network *net;
    cb_net_analysis *a;
    cb_error err;
    assert_int_equal(cb_network_build(&s, &net, &err), CB_OK);
    assert_int_equal(cb_net_analyze(net, &a, &err), CB_OK);
    assert_false(a->has_distances);
    assert_null(a->eccentricity);
    assert_int_equal(a->radius, -1);
    assert_int_equal(a->n_hubs, 100000);
    assert_int_equal(a->components, 1);
    char *json;
    assert_int_equal(cb_net_json_render(net, &s, NULL, a, &json, &err), CB_OK);
    cJSON *root = cJSON_Parse(json);
    assert_non_null(root);
    cJSON *an = cJSON_GetObjectItem(root, "analysis");
    assert_true(cJSON_IsFalse(cJSON_GetObjectItem(an, "distances")));
    assert_null(cJSON_GetObjectItem(an, "radius"));
    cJSON_Delete(root);
    free(json);
    cb_net_analysis_free(a);
    cb_network_free(net);
}

/* ---- NetworkX ------------------------------------------------------------ */

static int write_json(const char *dir, int idx, const cb_network *net, const cb_net_spec *s)
{
    cb_net_analysis *a = NULL;
    char *json = NULL, path[512];
    cb_error err;
    if (cb_net_analyze(net, &a, &err) != CB_OK ||
        cb_net_json_render(net, s, NULL, a, &json, &err) != CB_OK)
        fail_msg("%s", err.message);
    snprintf(path, sizeof path, "%s/g%03d.json", dir, idx);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(json, f);
    fclose(f);
    free(json);
    cb_net_analysis_free(a);
    return idx + 1;
}

static void test_networkx(void **state)
{
    (void)state;
    /* The PATH's python3 may be another build than Debian's, which is
     * where `make deps` installs python3-networkx. */
    const char *python = NULL;
    if (system("python3 -c 'import networkx' >/dev/null 2>&1") == 0)
        python = "python3";
    else if (system("/usr/bin/python3 -c 'import networkx' >/dev/null 2>&1") == 0)
        python = "/usr/bin/python3";
    if (!python) {
        print_message("python3 with networkx is not installed: skipping the NetworkX "
                      "cross-check (apt-get install python3-networkx)\n");
        skip();
    }
    char dir[] = "/tmp/cutboard-nx-XXXXXX";
    assert_non_null(mkdtemp(dir));
    int idx = 0;
    /* every model, plain and geometric, several sizes and seeds; sparse
     * random graphs are disconnected, which tests the component rules */
    long sizes[] = {5, 12, 40, 150};
    for (int model = 0; model < CB_NET_MODELS; model++)
        for (int geo = 0; geo < 2; geo++)
            for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
                for (int seed = 0; seed < 3; seed++) {
                    cb_net_spec s;
                    cb_net_spec_defaults(&s);
                    s.model = (cb_net_model)model;
                    s.n = sizes[i];
                    s.geometric = geo;
                    s.width = 190;
                    s.height = 180;
                    char sd[16];
                    snprintf(sd, sizeof sd, "nx%d", seed);
                    s.seed = sd;
                    if (model == CB_NET_RANDOM && !geo)
                        s.links = sizes[i] * (seed + 1) / 2; /* sparse: many components */
                    if (model == CB_NET_REGULAR && !geo && sizes[i] % 2)
                        s.k = 4;
                    cb_network *net;
                    cb_error err;
                    if (cb_network_build(&s, &net, &err) != CB_OK)
                        fail_msg("%s", err.message);
                    idx = write_json(dir, idx, net, &s);
                    cb_network_free(net);
                }
    /* hand graphs: empty, one node, two equal components */
    cb_edge e2[] = {{0, 3}, {1, 2}};
    cb_network hand[] = {{.n = 1}, {.n = 4}, {.n = 4, .n_edges = 2, .edges = e2}};
    cb_net_spec s;
    cb_net_spec_defaults(&s);
    for (size_t i = 0; i < sizeof hand / sizeof *hand; i++) {
        hand[i].k = hand[i].m = hand[i].links = -1;
        hand[i].p = -1;
        idx = write_json(dir, idx, &hand[i], &s);
    }
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s tests/networkx_check.py %s/g*.json", python, dir);
    int rc = system(cmd);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        print_message("could not remove %s\n", dir);
    assert_int_equal(rc, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_path),          cmocka_unit_test(test_star),
        cmocka_unit_test(test_cycle),         cmocka_unit_test(test_k4),
        cmocka_unit_test(test_hand_graph),    cmocka_unit_test(test_disconnected),
        cmocka_unit_test(test_csv),           cmocka_unit_test(test_distance_bound),
        cmocka_unit_test(test_networkx),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
