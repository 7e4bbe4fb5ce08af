/* Tests for decoration (decorate.h): power dot counts and positions, and
 * node types and missions assigned from a default_theme. */
#include "test.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board/decorate.h"
#include "base/geom.h"
#include "board/work.h"

#define DOT_R 0.13 /* dot radius, in node radii */


static cb_board *generate_for(const char *seed, int players, int shared)
{
    cb_spec spec;
    cb_spec_defaults(&spec);
    spec.players = players;
    spec.shared = shared;
    spec.theme = default_theme;
    cb_board *b = NULL;
    cb_error err = {CB_OK, "", 0, ""};
    if (cb_board_generate(&spec, seed, 1, &b, &err) != CB_OK)
        fail_msg("%s: %s", seed, err.message);
    return b;
}

static cb_board *generate(const char *seed, int players)
{
    return generate_for(seed, players, 0);
}

static void test_dots_wanted_grows(void **state)
{
    (void)state;
    assert_true(cb_dots_wanted(2) >= 1);
    for (int p = 3; p <= 9; p++)
        assert_true(cb_dots_wanted(p) >= cb_dots_wanted(p - 1));
    assert_true(cb_dots_wanted(9) > cb_dots_wanted(2));
    assert_true(cb_dots_wanted(9) <= CB_DOTS_MAX);
}

/* A box around a start node's rectangle: it sits on the trim line, runs
 * along it by the half width and reaches inward by the depth (the part
 * beyond the trim line is cut away, so it may as well be included). */
static void start_rect(const cb_board *b, const cb_node *s, double r[4])
{
    double w = CB_START_HALF_WIDTH * b->node_radius, d = CB_START_DEPTH * b->node_radius;
    int horizontal = s->side == CB_SIDE_TOP || s->side == CB_SIDE_BOTTOM;
    double ax = horizontal ? w : d, ay = horizontal ? d : w;
    r[0] = s->x - ax;
    r[1] = s->y - ay;
    r[2] = s->x + ax;
    r[3] = s->y + ay;
}

typedef struct {
    long dots;
    int outside_trim, on_node, on_edge, crowded; /* dots breaking each rule */
    char first[200];                              /* the first one, described */
} dot_faults;

static void fault(dot_faults *f, int *count, const char *what, uint32_t v, int i, const double *p,
                  const char *detail, uint32_t other)
{
    if (!f->first[0])
        snprintf(f->first, sizeof f->first, "%s: dot %d of node %u at (%.2f, %.2f) %s %u", what,
                 i, v, p[0], p[1], detail, other);
    (*count)++;
}

/* Every dot of B: inside the trim, clear of every node's shape and of every
 * edge, and clear of the node's other dots. */
static void check_dots(const cb_board *b, const char *what, dot_faults *f)
{
    double r = b->node_radius, dr = DOT_R * r;
    for (uint32_t v = 0; v < b->n_nodes; v++) {
        double xy[CB_DOTS_MAX][2];
        int n = cb_board_dot_positions(b, v, xy, CB_DOTS_MAX);
        assert_int_equal(n, b->nodes[v].dots);
        f->dots += n;
        for (int i = 0; i < n; i++) {
            cb_point p = {xy[i][0], xy[i][1]};
            if (!(p.x - dr >= b->board_x && p.x + dr <= b->board_x + b->board_w &&
                  p.y - dr >= b->board_y && p.y + dr <= b->board_y + b->board_h))
                fault(f, &f->outside_trim, what, v, i, xy[i], "crosses the trim line, node", v);
            for (uint32_t u = 0; u < b->n_nodes; u++) {
                const cb_node *o = &b->nodes[u];
                double gap;
                if (o->kind == CB_KIND_START) {
                    double rc[4];
                    start_rect(b, o, rc);
                    gap = cb_point_rect_dist(p, rc[0], rc[1], rc[2], rc[3]);
                } else {
                    gap = hypot(p.x - o->x, p.y - o->y) - r;
                }
                if (gap <= dr)
                    fault(f, &f->on_node, what, v, i, xy[i], "lies on node", u);
            }
            for (size_t e = 0; e < b->n_edges; e++) {
                const cb_node *a = &b->nodes[b->edges[e].a], *c = &b->nodes[b->edges[e].b];
                cb_point pa = {a->x, a->y}, pc = {c->x, c->y};
                if (cb_point_segment_dist(p, pa, pc) <= dr)
                    fault(f, &f->on_edge, what, v, i, xy[i], "lies on the edge from node",
                          b->edges[e].a);
            }
            for (int j = 0; j < i; j++)
                if (hypot(p.x - xy[j][0], p.y - xy[j][1]) <= 2 * dr)
                    fault(f, &f->crowded, what, v, i, xy[i], "overlaps another dot of node", v);
        }
    }
}

static void test_dot_positions(void **state)
{
    (void)state;
    static const int players[] = {2, 4, 9};
    char first[200] = "";
    for (size_t k = 0; k < 3; k++) {
        dot_faults f;
        memset(&f, 0, sizeof f);
        for (int i = 0; i < 100; i++) {
            char seed[32], what[64];
            snprintf(seed, sizeof seed, "dots-%d", i);
            snprintf(what, sizeof what, "seed %s, %d players", seed, players[k]);
            cb_board *b = generate(seed, players[k]);
            check_dots(b, what, &f);
            assert_int_equal(b->nodes[b->center].dots, 1);
            for (uint32_t v = 0; v < b->n_nodes; v++)
                assert_true(b->nodes[v].dots <= cb_dots_wanted(players[k]));
            cb_board_free(b);
        }
        print_message("%d players, 100 boards, %ld dots: %d cross the trim line, %d lie on a "
                      "node, %d on an edge, %d overlap a dot of the same node\n",
                      players[k], f.dots, f.outside_trim, f.on_node, f.on_edge, f.crowded);
        if (!first[0])
            memcpy(first, f.first, sizeof first);
    }
    if (first[0])
        fail_msg("%s", first);
}

static void test_more_players_more_dots(void **state)
{
    (void)state;
    for (int i = 0; i < 10; i++) {
        char seed[32];
        snprintf(seed, sizeof seed, "dots-%d", i);
        /* One player walks an own sheet: one dot a node (the default
         * theme's "dots_own"), whatever the player count. */
        cb_board *own2 = generate(seed, 2), *own9 = generate(seed, 9);
        assert_int_equal(own2->n_nodes, own9->n_nodes);
        for (uint32_t v = 0; v < own2->n_nodes; v++)
            assert_int_equal(own2->nodes[v].dots, own9->nodes[v].dots);
        cb_board_free(own2);
        cb_board_free(own9);
        /* A shared board of 2 and of 4 (the same board: the spacing changes
         * above 4), decorated for its players. */
        cb_board *few = generate_for(seed, 2, 1), *many = generate_for(seed, 4, 1);
        assert_int_equal(few->n_nodes, many->n_nodes);
        int sum_few = 0, sum_many = 0, fewer = 0;
        for (uint32_t v = 0; v < few->n_nodes; v++) {
            sum_few += few->nodes[v].dots;
            sum_many += many->nodes[v].dots;
            fewer += many->nodes[v].dots < few->nodes[v].dots;
        }
        assert_int_equal(fewer, 0);
        assert_true(sum_many > sum_few);
        /* Most nodes get what the player count asks for. */
        int full = 0;
        for (uint32_t v = 0; v < many->n_nodes; v++)
            full += many->nodes[v].dots == cb_dots_wanted(4 + 3) || v == many->center;
        assert_true(full * 2 > (int)many->n_nodes);
        cb_board_free(few);
        cb_board_free(many);
    }
}

static void test_dot_positions_limits(void **state)
{
    (void)state;
    cb_board *b = generate("limits", 9);
    double xy[CB_DOTS_MAX][2];
    assert_int_equal(cb_board_dot_positions(b, (uint32_t)b->n_nodes, xy, CB_DOTS_MAX), 0);
    for (uint32_t v = 0; v < b->n_nodes; v++) {
        assert_true(cb_board_dot_positions(b, v, xy, 1) <= 1);
        assert_int_equal(cb_board_dot_positions(b, v, xy, 0), 0);
    }
    cb_board_free(b);
}

static void test_types_and_missions(void **state)
{
    (void)state;
    cb_board *b = generate("types", 4);
    /* Without a default_theme: no types, no missions, dots still placed. */
    cb_rng rng;
    cb_rng_seed(&rng, 1);
    const char *why = NULL;
    assert_int_equal(cb_decorate(b, NULL, 4, &rng, &why), 0);
    for (uint32_t v = 0; v < b->n_nodes; v++) {
        assert_int_equal(b->nodes[v].type, -1);
        assert_int_equal(b->nodes[v].mission, -1);
    }
    assert_int_equal(b->nodes[b->center].dots, 1);
    /* With the default_theme: the same rng seed gives the same decoration. */
    cb_rng_seed(&rng, 2);
    assert_int_equal(cb_decorate(b, default_theme, 4, &rng, &why), 0);
    cb_node *first = malloc(b->n_nodes * sizeof *first);
    assert_non_null(first);
    memcpy(first, b->nodes, b->n_nodes * sizeof *first);
    cb_rng_seed(&rng, 2);
    assert_int_equal(cb_decorate(b, default_theme, 4, &rng, &why), 0);
    assert_memory_equal(first, b->nodes, b->n_nodes * sizeof *first);
    free(first);
    for (uint32_t v = 0; v < b->n_nodes; v++) {
        const cb_node *n = &b->nodes[v];
        if (n->kind == CB_KIND_NODE)
            assert_true(n->type >= 0 && (size_t)n->type < default_theme->n_types && n->mission == -1);
        else if (n->kind == CB_KIND_START)
            assert_true(n->type == -1 && n->mission >= 0 &&
                        (size_t)n->mission < default_theme->n_missions);
        else
            assert_true(n->type == -1 && n->mission == -1);
    }
    cb_board_free(b);
}

static void test_impossible_theme(void **state)
{
    (void)state;
    cb_board *b = generate("impossible", 4);
    /* One type that must appear far more often than there are nodes. */
    cb_node_type ty = {.name = "only", .icon = "x.png", .probability = 1, .min = 1000,
                       .max = 2000, .min_edge = 0, .max_edge = 1, .on_edge = 1,
                       .max_run = 1000};
    cb_mission m = {.name = "m", .icon = "m.png"};
    cb_theme t = {.name = "t", .dir = ".", .center = m, .types = &ty, .n_types = 1,
                  .missions = &m, .n_missions = 1, .first_game = -1};
    cb_rng rng;
    cb_rng_seed(&rng, 3);
    const char *why = NULL;
    assert_int_equal(cb_decorate(b, &t, 4, &rng, &why), 1);
    assert_non_null(why);
    /* max_run 1 with a single type cannot fill a connected board either. */
    cb_node_type lone = {.name = "lone", .icon = "x.png", .probability = 1, .min = 0,
                         .max = 1000, .min_edge = 0, .max_edge = 1, .on_edge = 1,
                         .max_run = 1};
    t.types = &lone;
    why = NULL;
    assert_int_equal(cb_decorate(b, &t, 4, &rng, &why), 1);
    assert_non_null(why);
    cb_board_free(b);
}

/* The largest group of equal types, found here by a flood fill of the
 * board's own edge list. */
static int largest_group(const cb_board *b, int type)
{
    size_t n = b->n_nodes;
    uint32_t *label = malloc(n * sizeof *label), *size = calloc(n, sizeof *size);
    assert_non_null(label);
    assert_non_null(size);
    for (uint32_t v = 0; v < n; v++)
        label[v] = v;
    /* Relabel to a fixed point: each node takes the smallest label of its
     * equal-typed neighbours (slow and simple). */
    for (int changed = 1; changed;) {
        changed = 0;
        for (size_t e = 0; e < b->n_edges; e++) {
            uint32_t x = b->edges[e].a, y = b->edges[e].b;
            if (b->nodes[x].type != type || b->nodes[y].type != type || label[x] == label[y])
                continue;
            uint32_t lo = label[x] < label[y] ? label[x] : label[y];
            label[x] = label[y] = lo;
            changed = 1;
        }
    }
    int best = 0;
    for (uint32_t v = 0; v < n; v++)
        if (b->nodes[v].type == type && (int)++size[label[v]] > best)
            best = (int)size[label[v]];
    free(label);
    free(size);
    return best;
}

/* An A0 board of about 1,000 nodes from SEED (generate's, on A0). */
static cb_board *a0_board(const char *seed)
{
    cb_spec spec;
    cb_spec_defaults(&spec);
    spec.page_w = 1189;
    spec.page_h = 841;
    spec.margin = 15;
    spec.resolution = 37.8;
    cb_board *b = NULL;
    cb_error err = {CB_OK, "", 0, ""};
    if (cb_board_generate(&spec, seed, 1, &b, &err) != CB_OK)
        fail_msg("%s: %s", seed, err.message);
    return b;
}

/* Groups are bounded both ways decoration tells them apart: small runs
 * (checked against its queue) and large ones (a stamp per node). */
static void test_group_limits(void **state)
{
    (void)state;
    cb_board *b = a0_board("groups");
    cb_node_type ty[3] = {
        {.name = "small", .icon = "x.png", .probability = 1, .min = 0, .max = 88,
         .min_edge = 0, .max_edge = 1, .on_edge = 1, .max_run = 2},
        {.name = "large", .icon = "y.png", .probability = 4, .min = 0, .max = 88,
         .min_edge = 0, .max_edge = 1, .on_edge = 1, .max_run = 40},
        {.name = "any", .icon = "z.png", .probability = 1, .min = 0, .max = 88,
         .min_edge = 0, .max_edge = 1, .on_edge = 1, .max_run = 1000000},
    };
    cb_mission m = {.name = "m", .icon = "m.png"};
    cb_theme t = {.name = "t", .dir = ".", .center = m, .types = ty, .n_types = 3,
                  .missions = &m, .n_missions = 1, .first_game = -1};
    cb_rng rng;
    cb_rng_seed(&rng, 7);
    const char *why = NULL;
    assert_int_equal(cb_decorate(b, &t, 4, &rng, &why), 0);
    int small = largest_group(b, 0), large = largest_group(b, 1);
    printf("largest groups: %d (max 2), %d (max 40)\n", small, large);
    assert_true(small >= 1 && small <= 2);
    assert_true(large > 2 && large <= 40);
    cb_board_free(b);
}

/* A theme whose types stand in 40 bands of distance from the edge: more
 * kinds of place than decoration's first table of them holds (16), so it
 * grows. Every node still gets a type its place allows, checked here from
 * the node's own position. */
static void test_many_place_kinds(void **state)
{
    (void)state;
    cb_board *b = a0_board("bands");
    enum { BANDS = 40 };
    cb_node_type ty[BANDS];
    char names[BANDS][16];
    for (int k = 0; k < BANDS; k++) {
        snprintf(names[k], sizeof names[k], "b%d", k);
        ty[k] = (cb_node_type){.name = names[k], .icon = "x.png", .probability = 1, .min = 0,
                               .max = 1000, .min_edge = k / (double)BANDS,
                               .max_edge = (k + 1) / (double)BANDS, .on_edge = k == 0,
                               .max_run = 1000000};
    }
    cb_mission m = {.name = "m", .icon = "m.png"};
    cb_theme t = {.name = "t", .dir = ".", .center = m, .types = ty, .n_types = BANDS,
                  .missions = &m, .n_missions = 1, .first_game = -1};
    cb_rng rng;
    cb_rng_seed(&rng, 11);
    const char *why = NULL;
    assert_int_equal(cb_decorate(b, &t, 4, &rng, &why), 0);
    int used[BANDS] = {0}, kinds = 0;
    for (size_t v = 0; v < b->n_nodes; v++) {
        const cb_node *node = &b->nodes[v];
        if (node->kind != CB_KIND_NODE)
            continue;
        assert_true(node->type >= 0 && node->type < BANDS);
        double fx = fmin(node->x - b->board_x, b->board_x + b->board_w - node->x) / (b->board_w / 2);
        double fy = fmin(node->y - b->board_y, b->board_y + b->board_h - node->y) / (b->board_h / 2);
        double depth = fmax(0, fmin(1, fmin(fx, fy)));
        int trim = node->x <= b->board_x || node->x >= b->board_x + b->board_w ||
                   node->y <= b->board_y || node->y >= b->board_y + b->board_h;
        const cb_node_type *nt = &ty[node->type];
        assert_true(!trim || nt->on_edge);
        assert_true(depth >= nt->min_edge - 1e-9 && depth <= nt->max_edge + 1e-9);
        kinds += !used[node->type]++;
    }
    printf("%d of %d bands typed\n", kinds, BANDS);
    assert_true(kinds > 16);
    cb_board_free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dots_wanted_grows),
        cmocka_unit_test(test_dot_positions),
        cmocka_unit_test(test_more_players_more_dots),
        cmocka_unit_test(test_dot_positions_limits),
        cmocka_unit_test(test_types_and_missions),
        cmocka_unit_test(test_group_limits),
        cmocka_unit_test(test_many_place_kinds),
        cmocka_unit_test(test_impossible_theme),
    };
    return cmocka_run_group_tests(tests, load_default_theme, free_default_theme);
}
