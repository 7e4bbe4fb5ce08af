/* End-to-end tests of `cutboard network`: every model prints a PDF that
 * qpdf accepts, with the legend and the analysis on it; the JSON parses and
 * agrees with the map; the CSV is the adjacency matrix; bad parameters fail
 * with one line, exit 64 and no file. */
#include "cli_support.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const models[] = {"linear", "ring", "regular", "complete",
                                     "random", "anchored", "small-world", "scale-free"};

static cJSON *read_json(const char *name)
{
    size_t len;
    char *text = read_run_file(name, &len);
    cJSON *root = cJSON_Parse(text);
    free(text);
    if (!root)
        fail_msg("%s does not parse as JSON", name);
    return root;
}

static void check_map(const char *model, int geometric)
{
    char args[512], pdf[64], json[64];
    snprintf(pdf, sizeof pdf, "%s%s.pdf", model, geometric ? "-geo" : "");
    snprintf(json, sizeof json, "%s%s.json", model, geometric ? "-geo" : "");
    snprintf(args, sizeof args, "network --model %s --nodes 24 --seed m --analyze %s -o %s --json %s",
             model, geometric ? "--geometric" : "", pdf, json);
    if (cutboard(args) != 0)
        fail_msg("cutboard %s: %s", args, err_text);
    assert_string_equal(err_text, "");
    cJSON *root = read_json(json);
    assert_string_equal(cJSON_GetObjectItem(root, "format")->valuestring, "cutboard-network/1");
    assert_string_equal(cJSON_GetObjectItem(root, "model")->valuestring, model);
    assert_int_equal(cJSON_GetObjectItem(root, "nodes")->valueint, 24);
    cJSON *links = cJSON_GetObjectItem(root, "links"), *an = cJSON_GetObjectItem(root, "analysis");
    assert_non_null(an);
    assert_int_equal(cJSON_GetArraySize(links), cJSON_GetObjectItem(an, "links")->valueint);
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(root, "positions_mm")), 24);
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(an, "eccentricity")), 24);
    int crossings = cJSON_GetObjectItem(root, "crossings")->valueint;
    if (geometric)
        assert_int_equal(crossings, 0);
    NEED("qpdf");
    char cmd[256];
    snprintf(cmd, sizeof cmd, "qpdf --check %s", pdf);
    if (sh(cmd) != 0)
        fail_msg("qpdf --check %s: %s %s", pdf, out_text, err_text);
    NEED("pdftotext");
    snprintf(cmd, sizeof cmd, "pdftotext %s -", pdf);
    assert_int_equal(sh(cmd), 0);
    assert_contains(out_text, "Encounter map");
    assert_contains(out_text, "seed: m");
    assert_contains(out_text, "Analysis");
    assert_contains(out_text, "hubs (degree");
    if (crossings == 0)
        assert_contains(out_text, "no crossings");
    else
        assert_contains(out_text, "crossing");
    /* every node's number is printed */
    for (int v = 0; v < 24; v++) {
        char num[16];
        snprintf(num, sizeof num, "%d", v);
        assert_contains(out_text, num);
    }
    cJSON_Delete(root);
}

static void test_every_model(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof models / sizeof *models; i++)
        check_map(models[i], 0);
}

static void test_every_model_geometric(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof models / sizeof *models; i++)
        check_map(models[i], 1);
}

static void test_legend_parameters(void **state)
{
    (void)state;
    assert_int_equal(cutboard("network --model small-world --nodes 30 --k 6 --p 0.25 --seed q "
                              "-o sw.pdf"),
                     0);
    NEED("pdftotext");
    assert_int_equal(sh("pdftotext sw.pdf -"), 0);
    assert_contains(out_text, "small world (Watts–Strogatz)");
    assert_contains(out_text, "n=30 k=6 p=0.25");
    assert_true(strstr(out_text, "Analysis") == NULL); /* only with --analyze */
}

static void test_same_seed_same_bytes(void **state)
{
    (void)state;
    assert_int_equal(cutboard("network --model scale-free --nodes 50 --seed s --analyze -o a.pdf "
                              "--json a.json"), 0);
    assert_int_equal(cutboard("network --model scale-free --nodes 50 --seed s --analyze -o b.pdf "
                              "--json b.json"), 0);
    assert_int_equal(sh("cmp a.pdf b.pdf && cmp a.json b.json"), 0);
    assert_int_equal(cutboard("network --model scale-free --nodes 50 --seed t -o c.pdf"), 0);
    assert_int_not_equal(sh("cmp -s a.pdf c.pdf"), 0);
}

static void test_csv(void **state)
{
    (void)state;
    assert_int_equal(cutboard("network --model ring --nodes 7 --k 4 --csv ring.csv"), 0);
    size_t len;
    char *csv = read_run_file("ring.csv", &len);
    /* row 0: linked to 1, 2, 5, 6 */
    assert_memory_equal(csv, "0,1,1,0,0,1,1\n", 14);
    int ones = 0, lines = 0;
    for (size_t i = 0; i < len; i++)
        ones += csv[i] == '1', lines += csv[i] == '\n';
    assert_int_equal(ones, 2 * 14);
    assert_int_equal(lines, 7);
    free(csv);
}

/* Big networks: the JSON without distances, no PDF. */
static void test_big_json(void **state)
{
    (void)state;
    assert_int_equal(cutboard("network --model scale-free --nodes 100000 --seed b --json big.json"),
                     0);
    cJSON *root = read_json("big.json");
    cJSON *an = cJSON_GetObjectItem(root, "analysis");
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(root, "links")), 2 + (100000 - 3) * 2); /* m + (n - m - 1) m */
    assert_true(cJSON_IsFalse(cJSON_GetObjectItem(an, "distances")));
    assert_true(cJSON_GetObjectItem(an, "max_degree")->valueint > 100);
    cJSON_Delete(root);
}

static void test_errors(void **state)
{
    (void)state;
    expect_failure("network --nodes 10 -o bad.pdf", 64, "--model", "bad.pdf");
    expect_failure("network --model tree --nodes 10 -o bad.pdf", 64, "tree", "bad.pdf");
    expect_failure("network --model ring --nodes 10 --k 3 -o bad.pdf", 64, "--k: 3 is", "bad.pdf");
    expect_failure("network --model ring --nodes 10 --k 10 -o bad.pdf", 64, "--k: 10", "bad.pdf");
    expect_failure("network --model regular --nodes 9 --k 3 -o bad.pdf", 64, "n * k", "bad.pdf");
    expect_failure("network --model small-world --nodes 10 --p 1.5 -o bad.pdf", 64, "--p",
                   "bad.pdf");
    expect_failure("network --model small-world --nodes 10 --p x -o bad.pdf", 64, "--p",
                   "bad.pdf");
    expect_failure("network --model scale-free --nodes 10 --m 10 -o bad.pdf", 64, "--m: 10",
                   "bad.pdf");
    expect_failure("network --model complete --nodes 2001 --json bad.json", 64, "--nodes: 2001",
                   "bad.json");
    expect_failure("network --model random --nodes 10 --links 46 -o bad.pdf", 64, "--links: 46",
                   "bad.pdf");
    expect_failure("network --model random --nodes 10 --links 5 --p 0.1 -o bad.pdf", 64,
                   "not both", "bad.pdf");
    expect_failure("network --model ring --nodes 10 --m 2 -o bad.pdf", 64, "--m", "bad.pdf");
    expect_failure("network --model ring --nodes 0 -o bad.pdf", 64, "--nodes", "bad.pdf");
    expect_failure("network --model ring --nodes ten -o bad.pdf", 64, "--nodes", "bad.pdf");
    expect_failure("network --model ring --nodes 10", 64, "no output", NULL);
    expect_failure("network --model ring --nodes 10 --bogus -o bad.pdf", 64, "--bogus",
                   "bad.pdf");
    expect_failure("network --model ring --nodes 1000 --geometric -o bad.pdf", 64, "geometric map",
                   "bad.pdf");
    /* too big to draw: neither the PDF nor the JSON asked with it */
    expect_failure("network --model ring --nodes 500 -o bad.pdf --json bad.json", 64,
                   "too big to draw", "bad.pdf");
    assert_false(exists("bad.json"));
    expect_failure("network --model ring --nodes 6000 --csv bad.csv", 64, "--csv", "bad.csv");
    expect_failure("network --model ring --nodes 10 --font missing.ttf -o bad.pdf", 66,
                   "missing.ttf", "bad.pdf");
    expect_failure("network --model ring --nodes 10 -o no/such/dir/bad.pdf", 73, NULL, NULL);
}

static void test_help(void **state)
{
    (void)state;
    assert_int_equal(cutboard("network --help"), 0);
    assert_contains(out_text, "--geometric");
    assert_int_equal(cutboard("--help"), 0);
    assert_contains(out_text, "network");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_model),
        cmocka_unit_test(test_every_model_geometric),
        cmocka_unit_test(test_legend_parameters),
        cmocka_unit_test(test_same_seed_same_bytes),
        cmocka_unit_test(test_csv),
        cmocka_unit_test(test_big_json),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_help),
    };
    return cmocka_run_group_tests(tests, cli_setup, cli_teardown);
}
