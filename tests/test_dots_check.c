/* The power-dot clause of the check (src/planar/dots_check.c, which looks
 * only near each dot and finds the edges near a dot edge by edge) against
 * the clause computed here by brute force: every dot against every node,
 * dot and edge, in the check's order, so that the verdict and its first
 * failure must agree. The boards are generated ones whose dots are then
 * moved round their node's rim by random angles (a dot that stays on its
 * rim can fail every other part of the clause), and some moved off it. */
#include "test.h"
#include <math.h>
#include <string.h>
#include "base/board_geometry.h"
#include "base/rng.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif
#define SLACK 0.02 /* the check reads distances to this, in mm */

/* Distance from p to node j's shape, 0 inside it. */
static double shape_gap(const cb_board *b, uint32_t j, double x, double y)
{
    const cb_node *v = &b->nodes[j];
    if (v->kind != CB_KIND_START)
        return fmax(0, hypot(x - v->x, y - v->y) - b->node_radius);
    double o[4];
    cb_start_offsets(v->side, b->node_radius, o);
    double dx = fmax(0, fmax(v->x + o[0] - x, x - v->x - o[2]));
    double dy = fmax(0, fmax(v->y + o[1] - y, y - v->y - o[3]));
    return hypot(dx, dy);
}

static double segment_gap(double x, double y, const cb_node *a, const cb_node *c)
{
    double dx = c->x - a->x, dy = c->y - a->y, len2 = dx * dx + dy * dy;
    double t = len2 > 0 ? ((x - a->x) * dx + (y - a->y) * dy) / len2 : 0;
    t = fmin(1, fmax(0, t));
    return hypot(x - a->x - t * dx, y - a->y - t * dy);
}

enum { RIM = 1, TRIM = 2, OWNER = 4, DOTS = 8, EDGE = 16 };
static const char *const message[] = {
    "a power dot does not touch its node's rim", "a power dot is under 1 mm from the trim line",
    "a power dot is not clearly nearer its own node", "two power dots touch",
    "a power dot is under 1 mm from an edge"};

/* The parts of the clause the first failing dot (node by node, dot by
 * dot) breaks, or 0. */
static unsigned brute_force(const cb_board *b)
{
    double dr = cb_dot_radius(b->node_radius);
    double clear = dr + CB_DOT_LINE_CLEARANCE_MM - SLACK;
    double apart = 2 * dr + CB_DOT_CLEARANCE_MM - SLACK;
    for (uint32_t i = 0; i < b->n_nodes; i++)
        for (int q = 0; q < b->nodes[i].dots; q++) {
            size_t k = b->nodes[i].first_dot + (size_t)q;
            double x = b->dot_xy[k][0], y = b->dot_xy[k][1], own = shape_gap(b, i, x, y);
            unsigned bad = 0;
            if (fabs(own - dr) > SLACK)
                bad |= RIM;
            if (x - b->board_x < clear || b->board_x + b->board_w - x < clear ||
                y - b->board_y < clear || b->board_y + b->board_h - y < clear)
                bad |= TRIM;
            for (uint32_t j = 0; j < b->n_nodes; j++) {
                if (j != i && shape_gap(b, j, x, y) - own < CB_DOT_OWNER_MARGIN_MM - SLACK)
                    bad |= OWNER;
                for (int r = 0; r < b->nodes[j].dots; r++) {
                    size_t o = b->nodes[j].first_dot + (size_t)r;
                    if (o != k && hypot(b->dot_xy[o][0] - x, b->dot_xy[o][1] - y) < apart)
                        bad |= DOTS;
                }
            }
            for (size_t e = 0; e < b->n_edges; e++)
                if (segment_gap(x, y, &b->nodes[b->edges[e].a], &b->nodes[b->edges[e].b]) < clear)
                    bad |= EDGE;
            if (bad)
                return bad;
        }
    return 0;
}

/* The failure the check must report for a dot breaking the parts BAD: the
 * rim, the trim line, then the nearby nodes and their dots (in the order
 * the check meets them, so either), then the edges. */
static int reported(unsigned bad, const char *failure)
{
    unsigned first = bad & RIM ? RIM : bad & TRIM ? TRIM : bad & (OWNER | DOTS) ? bad & (OWNER | DOTS) : bad;
    for (int part = 0; part < 5; part++)
        if ((first >> part & 1) && !strcmp(failure, message[part]))
            return 1;
    return 0;
}

static cb_board *generated(const char *seed, const char *paper, int players)
{
    cb_spec spec;
    cb_spec_defaults(&spec);
    cb_error err = {CB_OK, "", 0, ""};
    if (cb_paper_parse(paper, &spec.page_w, &spec.page_h, &err) != CB_OK)
        fail_msg("%s", err.message);
    spec.seed = seed;
    spec.players = players;
    spec.theme = default_theme;
    cb_board *b = NULL;
    if (cb_board_generate(&spec, seed, 1, &b, &err) != CB_OK)
        fail_msg("%s", err.message);
    assert_non_null(b->dot_xy);
    return b;
}

/* Compares the check with the brute force on B as it is. */
static int agree(const cb_board *b, int *failed)
{
    cb_verdict v;
    cb_error err = {CB_OK, "", 0, ""};
    assert_int_equal(cb_board_check(b, 64, 64, &v, &err), CB_OK);
    unsigned bad = brute_force(b);
    *failed = bad != 0;
    if (v.dots_ok != !bad || (bad && !reported(bad, v.dot_failure))) {
        print_message("check: %s; brute force: parts %#x\n", v.dots_ok ? "ok" : v.dot_failure, bad);
        return 0;
    }
    return 1;
}

static void test_moved_dots_agree_with_brute_force(void **state)
{
    (void)state;
    static const struct {
        const char *paper;
        int players;
    } kinds[] = {{"a4", 4}, {"a4", 9}, {"letter", 2}, {"a3", 6}};
    cb_rng rng;
    cb_rng_seed(&rng, 7);
    int trials = 0, failures = 0, edge_failures = 0;
    for (size_t kind = 0; kind < sizeof kinds / sizeof *kinds; kind++)
        for (int s = 0; s < 4; s++) {
            char seed[32];
            snprintf(seed, sizeof seed, "dots %zu/%d", kind, s);
            cb_board *b = generated(seed, kinds[kind].paper, kinds[kind].players);
            int failed;
            assert_true(agree(b, &failed));
            assert_false(failed); /* as generated */
            double dr = cb_dot_radius(b->node_radius);
            for (int t = 0; t < 100; t++) {
                size_t k = (size_t)(cb_rng_uniform(&rng) * (double)b->n_dot_xy);
                uint32_t owner = 0;
                while (b->nodes[owner].first_dot + (size_t)b->nodes[owner].dots <= k)
                    owner++;
                double keep[2] = {b->dot_xy[k][0], b->dot_xy[k][1]};
                const cb_node *v = &b->nodes[owner];
                if (v->kind == CB_KIND_START && t % 10)
                    continue; /* a start's rim is not a circle: moved off it */
                /* round the rim (a disk's ring), one time in ten also in or out */
                double a = 2 * M_PI * cb_rng_uniform(&rng);
                double rho = b->node_radius + dr + (t % 10 ? 0 : 4 * cb_rng_uniform(&rng) - 2);
                b->dot_xy[k][0] = v->x + rho * cos(a);
                b->dot_xy[k][1] = v->y + rho * sin(a);
                if (!agree(b, &failed))
                    fail_msg("board \"%s\", dot %zu moved to (%.3f, %.3f)", seed, k,
                             b->dot_xy[k][0], b->dot_xy[k][1]);
                trials++;
                failures += failed;
                edge_failures += brute_force(b) == EDGE;
                b->dot_xy[k][0] = keep[0];
                b->dot_xy[k][1] = keep[1];
            }
            cb_board_free(b);
        }
    print_message("  %d moved dots, %d breaking the clause (%d by touching an edge alone)\n",
                  trials, failures, edge_failures);
    /* the moves must break each part often enough to test it */
    assert_true(edge_failures > trials / 10);
    assert_true(failures - edge_failures > trials / 10);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_moved_dots_agree_with_brute_force),
    };
    return cmocka_run_group_tests(tests, load_default_theme, free_default_theme);
}
