/* Tests for the half-edge structure (src/planar/halfedge.c): faces of small
 * hand-made boards worked out by hand (counts, which half-edges, areas,
 * holes), boards it must refuse, and Euler's formula on generated boards
 * over 1,000 seeds. */
#include "test.h"
#include "hand_board.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "planar/halfedge.h"

static void build(cb_planar *p, const cb_board *b)
{
    cb_error err = {CB_OK, "", 0, ""};
    if (cb_planar_build(p, b, &err) != CB_OK)
        fail_msg("cb_planar_build: %s", err.message);
}

/* A bent line across the paper: left border node 0 (10,60), node 2 (60,40),
 * right border node 1 (110,60); edges 0-2 (half-edges 0: 0->2, 1: 2->0) and
 * 1-2 (2: 1->2, 3: 2->1). Vertices: 3 nodes + 4 corners = 7. Border
 * vertices in perimeter order: TL, TR, node 1, BR, BL, node 0: 6 segments,
 * so E = 2 + 6 = 8. Faces: the piece above the line, the piece below, the
 * outside: F = 3, and 7 - 8 + 3 = 2 = 1 + C with C = 1. Areas: the line
 * dips 20 mm over a 100 mm base, so above = 100*50 - 100*20/2 = 4000 mm^2
 * and below = 6000 mm^2. Pieces run clockwise on the page, so the
 * rightward half-edges 0 (0->2) and 3 (2->1) bound the piece below. */
static const double bent[][2] = {{10, 60}, {110, 60}, {60, 40}};

static void test_bent_line(void **state)
{
    (void)state;
    hand h;
    cb_board *b = make_hand(&h, bent, 3, 0);
    edge(b, 0, 2);
    edge(b, 1, 2);
    cb_planar p;
    build(&p, b);
    assert_int_equal(p.n_verts, 7);
    assert_int_equal(p.n_half, 16);
    assert_int_equal(p.n_segments, 6);
    assert_int_equal(p.n_faces, 3);
    assert_int_equal(p.n_components, 1);
    assert_true(p.euler_ok);
    assert_int_equal(cb_planar_origin(&p, 0), 0);
    assert_int_equal(cb_planar_origin(&p, 3), 2);
    uint32_t below = p.face[0], above = p.face[1];
    assert_int_not_equal(below, above);
    assert_true(below != 0 && above != 0);
    assert_int_equal(p.face[3], below);
    assert_int_equal(p.face[2], above);
    assert_true(fabs(p.area[below] - 6000) < 1e-9);
    assert_true(fabs(p.area[above] - 4000) < 1e-9);
    assert_true(p.area[0] == 0);
    /* next: 0->2 continues as 2->1; 1->2 continues as 2->0. */
    assert_int_equal(p.next[0], 3);
    assert_int_equal(p.next[2], 1);
    /* Every half-edge's twin is its partner, and next stays on one face. */
    for (uint32_t e = 0; e < p.n_half; e++) {
        assert_int_equal(cb_planar_origin(&p, cb_planar_twin(e)),
                         cb_planar_origin(&p, p.next[e]));
        assert_int_equal(p.face[p.next[e]], p.face[e]);
    }
    /* Border segments: one side paper, the other the outside. */
    for (uint32_t e = 4; e < p.n_half; e += 2)
        assert_true((p.face[e] == 0) != (p.face[e + 1] == 0));
    assert_true(p.on_border[0] && p.on_border[1] && !p.on_border[2]);
    uint32_t faces[8];
    assert_int_equal(cb_planar_vertex_faces(&p, 2, faces), 2);
    assert_int_equal(cb_planar_vertex_faces(&p, 0, faces), 2); /* outside not listed */
    cb_planar_free(&p);
    cb_planar_free(&p); /* freeing twice is fine */
}

/* The bent line, plus a triangle 3 (40,80), 4 (80,80), 5 (60,100) floating
 * in the piece below, plus an isolated node 6 (60,20) in the piece above.
 * V = 7 + 4 = 11, E = 8 + 3 = 11, C = 3 (the border with the line, the
 * triangle, node 6), F = above, below, the triangle's inside, the outside
 * = 4: 11 - 11 + 4 = 4 = 1 + 3. The triangle (base 40, height 20) has
 * 400 mm^2; it is a hole in the piece below, which keeps 6000 - 400. */
static void test_holes(void **state)
{
    (void)state;
    static const double xy[][2] = {{10, 60}, {110, 60}, {60, 40}, {40, 80},
                                   {80, 80}, {60, 100}, {60, 20}};
    hand h;
    cb_board *b = make_hand(&h, xy, 7, 0);
    edge(b, 0, 2);
    edge(b, 1, 2);
    edge(b, 3, 4); /* half-edges 4: 3->4, 5: 4->3 */
    edge(b, 4, 5);
    edge(b, 3, 5);
    cb_planar p;
    build(&p, b);
    assert_int_equal(p.n_verts, 11);
    assert_int_equal(p.n_half / 2, 11);
    assert_int_equal(p.n_components, 3);
    assert_int_equal(p.n_faces, 4);
    assert_true(p.euler_ok);
    uint32_t below = p.face[0], above = p.face[1];
    /* 3->4 runs rightwards along the triangle's top: clockwise around the
     * triangle's inside; 4->3 is on the hole's outer side, in the piece below. */
    uint32_t inside = p.face[4];
    assert_int_equal(p.face[5], below);
    assert_true(inside != below && inside != above && inside != 0);
    assert_true(fabs(p.area[inside] - 400) < 1e-9);
    assert_true(fabs(p.area[below] - 5600) < 1e-9);
    assert_true(fabs(p.area[above] - 4000) < 1e-9);
    assert_int_equal(p.n_isolated, 1);
    assert_int_equal(p.isolated[0][0], 6);
    assert_int_equal(p.isolated[0][1], above);
    uint32_t faces[8];
    assert_int_equal(cb_planar_vertex_faces(&p, 6, faces), 1);
    assert_int_equal(faces[0], above);
    assert_int_equal(cb_planar_vertex_faces(&p, 3, faces), 2);
    cb_planar_free(&p);
}

/* Two holes in one piece and an isolated node: the bent line, triangles
 * 3-4-5 and 6-7-8 (base 20, height 20: 200 mm^2 each) in the piece below,
 * node 9 in the piece above. V = 10 + 4 = 14, E = 8 + 6 = 14, C = 4:
 * F = 5. The piece below keeps 6000 - 2 * 200; its area is the sum of its
 * cycles in the order of their first half-edges, the holes' after its
 * outer one. cb_planar_keep_faces keeps the faces and drops the rest. */
static void test_two_holes_and_keep_faces(void **state)
{
    (void)state;
    static const double xy[][2] = {{10, 60}, {110, 60}, {60, 40}, {20, 80}, {40, 80},
                                   {30, 100}, {70, 80}, {90, 80}, {80, 100}, {60, 20}};
    hand h;
    cb_board *b = make_hand(&h, xy, 10, 0);
    edge(b, 0, 2);
    edge(b, 1, 2);
    edge(b, 3, 4);
    edge(b, 4, 5);
    edge(b, 3, 5);
    edge(b, 6, 7);
    edge(b, 7, 8);
    edge(b, 6, 8);
    cb_planar p;
    build(&p, b);
    assert_int_equal(p.n_components, 4);
    assert_int_equal(p.n_faces, 5);
    assert_true(p.euler_ok);
    uint32_t below = p.face[0], above = p.face[1];
    uint32_t in_a = p.face[4], in_b = p.face[10];
    assert_int_equal(p.face[5], below); /* 4->3: the hole's outer side */
    assert_int_equal(p.face[11], below);
    assert_true(in_a != in_b && in_a != below && in_b != below);
    assert_true(fabs(p.area[in_a] - 200) < 1e-9);
    assert_true(fabs(p.area[in_b] - 200) < 1e-9);
    assert_true(fabs(p.area[below] - 5600) < 1e-9);
    assert_true(fabs(p.area[above] - 4000) < 1e-9);
    assert_int_equal(p.n_isolated, 1);
    uint32_t faces[8];
    assert_int_equal(cb_planar_vertex_faces(&p, 9, faces), 1);
    assert_int_equal(faces[0], above);
    assert_int_equal(cb_planar_vertex_faces(&p, 7, faces), 2);
    uint32_t kept[32];
    assert_true(p.n_half <= 32);
    memcpy(kept, p.face, p.n_half * sizeof *kept);
    cb_planar_keep_faces(&p);
    assert_null(p.next);
    assert_null(p.first_out);
    assert_null(p.area);
    assert_memory_equal(kept, p.face, p.n_half * sizeof *kept);
    assert_int_equal(cb_planar_origin(&p, 4), 3);
    assert_true(p.on_border[0] && !p.on_border[9]);
    cb_planar_free(&p);
}

/* A printed edge along the trim is that stretch of the border, not a
 * second edge beside it: the bent line plus node 3 (10,20) on the left
 * border joined to node 0 (10,60). Border vertices: TL, TR, 1, BR, BL, 0,
 * 3: 7 links, one of them the printed edge 0-3, so 6 border segments.
 * V = 8, E = 3 + 6 = 9, F = 3: 8 - 9 + 3 = 2. The edge has the piece above
 * on one side and the outside on the other. */
static void test_edge_along_border(void **state)
{
    (void)state;
    static const double xy[][2] = {{10, 60}, {110, 60}, {60, 40}, {10, 20}};
    hand h;
    cb_board *b = make_hand(&h, xy, 4, 0);
    edge(b, 0, 2);
    edge(b, 1, 2);
    edge(b, 0, 3); /* half-edges 4: 0->3 (up the left border), 5: 3->0 */
    cb_planar p;
    build(&p, b);
    assert_int_equal(p.n_segments, 6);
    assert_int_equal(p.n_faces, 3);
    assert_true(p.euler_ok);
    assert_int_equal(p.face[4], p.face[1]); /* up the left side: the piece above */
    assert_int_equal(p.face[5], 0);
    assert_true(fabs(p.area[p.face[1]] - 4000) < 1e-9);
    cb_planar_free(&p);
}

/* A node at a corner replaces that corner; a board with no edges is one
 * piece: V = 4, E = 4, F = 2. */
static void test_corner_node_and_empty(void **state)
{
    (void)state;
    static const double xy[][2] = {{10, 10}, {110, 110}};
    hand h;
    cb_board *b = make_hand(&h, xy, 2, 0);
    edge(b, 0, 1); /* the diagonal: two triangles of 5000 */
    cb_planar p;
    build(&p, b);
    assert_int_equal(p.n_verts, 4);
    assert_int_equal(p.n_faces, 3);
    assert_true(p.euler_ok);
    assert_true(fabs(p.area[p.face[0]] - 5000) < 1e-9);
    assert_true(fabs(p.area[p.face[1]] - 5000) < 1e-9);
    cb_planar_free(&p);
    b = make_hand(&h, xy, 0, 0);
    build(&p, b);
    assert_int_equal(p.n_verts, 4);
    assert_int_equal(p.n_half, 8);
    assert_int_equal(p.n_faces, 2);
    assert_true(p.euler_ok);
    assert_true(fabs(p.area[1] - 10000) < 1e-9);
    cb_planar_free(&p);
}

/* Crossing edges give no plane drawing: Euler's formula (or the tiling
 * of the trim by the pieces) fails. */
static void test_crossing_is_not_planar(void **state)
{
    (void)state;
    static const double xy[][2] = {{10, 60}, {110, 60}, {60, 10}, {60, 110}};
    hand h;
    cb_board *b = make_hand(&h, xy, 4, 0);
    edge(b, 0, 1);
    edge(b, 2, 3);
    cb_planar p;
    build(&p, b);
    assert_false(p.euler_ok);
    cb_planar_free(&p);
}

static void test_refuses_bad_boards(void **state)
{
    (void)state;
    hand h;
    cb_board *b = make_hand(&h, bent, 3, 0);
    h.nodes[2].x = 130;
    cb_planar p;
    cb_error err = {CB_OK, "", 0, ""};
    assert_int_equal(cb_planar_build(&p, b, &err), CB_ERR_DATA);
    assert_non_null(strstr(err.message, "node 2 at (130.00, 40.00) mm lies outside"));
    cb_planar_free(&p);
    b = make_hand(&h, bent, 3, 0);
    edge(b, 0, 7);
    assert_int_equal(cb_planar_build(&p, b, &err), CB_ERR_DATA);
    assert_non_null(strstr(err.message, "refers to node 7"));
    b = make_hand(&h, bent, 3, 0);
    h.edges[0].a = h.edges[0].b = 1;
    b->n_edges = 1;
    assert_int_equal(cb_planar_build(&p, b, &err), CB_ERR_DATA);
    assert_non_null(strstr(err.message, "joins node 1 to itself"));
    /* The contract check reports it as a failed clause. */
    b = make_hand(&h, bent, 3, 0);
    h.nodes[2].y = 0;
    cb_verdict v;
    assert_int_equal(cb_board_check(b, 2, 4, &v, &err), CB_OK);
    assert_false(v.planar);
    assert_false(v.ok);
}

/* Vertex V's outgoing half-edges in increasing page angle into OUT (room
 * for all): first_out's, then the others, which next gives in the other
 * direction; returns how many. */
static uint32_t rotation(const cb_planar *p, uint32_t v, uint32_t *out)
{
    uint32_t n = 0, h0 = p->first_out[v], h = h0;
    if (h0 == UINT32_MAX)
        return 0;
    do {
        out[n++] = h;
        h = p->next[h ^ 1u];
    } while (h != h0);
    for (uint32_t i = 1, j = n - 1; i < j; i++, j--) {
        uint32_t t = out[i];
        out[i] = out[j];
        out[j] = t;
    }
    return n;
}

/* Each vertex's outgoing half-edges come in the order sorting by atan2 of
 * their direction, then by half-edge, gives (the build sorts by a cheaper
 * key and must agree, ties and near-parallel edges included). */
static void assert_atan2_rotation(const cb_planar *p)
{
    uint32_t *out = malloc(p->n_half * sizeof *out);
    assert_non_null(out);
    for (uint32_t v = 0; v < p->n_verts; v++) {
        uint32_t n = rotation(p, v, out);
        for (uint32_t i = 0; i + 1 < n; i++) {
            uint32_t g = out[i], h = out[i + 1];
            cb_point a = cb_planar_xy(p, v), c = cb_planar_xy(p, cb_planar_origin(p, g ^ 1u));
            cb_point d = cb_planar_xy(p, cb_planar_origin(p, h ^ 1u));
            double tg = atan2(c.y - a.y, c.x - a.x), th = atan2(d.y - a.y, d.x - a.x);
            if (tg > th)
                fail_msg("vertex %u: half-edge %u (%.17g) before %u (%.17g)", v, g, tg, h, th);
        }
    }
    free(out);
}

/* A hub with spokes in awkward directions: along the axes, two on one ray
 * (a tie), two 1e-10 rad apart, two on one line through decimal points,
 * and spokes to the border, whose segments run along the axes. */
static const double star[][2] = {
    {60, 60}, {90, 60}, {75, 60}, {30, 60}, {60, 90}, {60, 30}, {90, 90},
    {90, 90.000000003}, {60.3, 60.1}, {60.6, 60.2}, {35.1, 84.7}, {10, 60},
    {110, 35}, {60, 110}, {10, 10}, {47.2, 12.9}};

/* Where vertex V's rotation puts half-edge H. */
static uint32_t place_of(const cb_planar *p, uint32_t v, uint32_t h)
{
    uint32_t out[32], n = rotation(p, v, out);
    for (uint32_t i = 0; i < n; i++)
        if (out[i] == h)
            return i;
    fail_msg("half-edge %u does not leave vertex %u", h, v);
    return 0;
}

/* Two spokes whose atan2 are equal although their directions differ: a sort
 * by atan2 put them in id order (0->1 first), which is the wrong way round;
 * the exact order puts 0->2 first. */
static const double rounding[][2] = {
    {60, 60}, {59.282423755751189, 71.418810561960015}, {59.282423755751189, 71.418810561960044},
    {90, 60}, {30, 30}};

static void test_rotation_is_angle_order(void **state)
{
    (void)state;
    hand h;
    cb_board *b = make_hand(&h, star, 16, 0);
    for (uint32_t v = 1; v < 16; v++)
        edge(b, 0, v);
    edge(b, 11, 3);  /* 10,60 -> 30,60: on the ray of 0-3, the other way */
    edge(b, 12, 1);
    edge(b, 14, 15);
    cb_planar p;
    build(&p, b);
    assert_atan2_rotation(&p);
    uint32_t out[32];
    assert_int_equal(rotation(&p, 0, out), 15);
    /* 0->1 and 0->2 lie on one ray: the tie goes by id */
    assert_true(place_of(&p, 0, 0) < place_of(&p, 0, 2));
    cb_planar_free(&p);
    b = make_hand(&h, rounding, 5, 0);
    for (uint32_t v = 1; v < 5; v++)
        edge(b, 0, v);
    build(&p, b);
    assert_atan2_rotation(&p);
    /* atan2 cannot tell 0->1 from 0->2, but they differ: 0->2 is the more
     * upright of the two (same dx < 0, larger dy), so its angle is smaller
     * and it comes first, exactly. */
    assert_int_equal(rotation(&p, 0, out), 4);
    assert_int_equal(out[2], 2);
    assert_int_equal(out[3], 0);
    cb_planar_free(&p);
    cb_spec spec;
    cb_spec_defaults(&spec);
    for (int i = 0; i < 20; i++) {
        char seed[32];
        snprintf(seed, sizeof seed, "rotation-%d", i);
        cb_error err = {CB_OK, "", 0, ""};
        if (cb_board_generate(&spec, seed, 1, &b, &err) != CB_OK)
            fail_msg("seed %s: %s", seed, err.message);
        build(&p, b);
        assert_atan2_rotation(&p);
        cb_planar_free(&p);
        cb_board_free(b);
    }
}

/* Euler's formula on every generated board, 1,000 seeds, and the pieces
 * tile the trim; the contract check agrees. */
static void test_euler_1000_seeds(void **state)
{
    (void)state;
    cb_spec spec;
    cb_spec_defaults(&spec);
    spec.theme = default_theme;
    size_t faces_min = SIZE_MAX, faces_max = 0;
    for (int i = 0; i < 1000; i++) {
        char seed[32];
        snprintf(seed, sizeof seed, "euler-%d", i);
        cb_board *b = NULL;
        cb_error err = {CB_OK, "", 0, ""};
        if (cb_board_generate(&spec, seed, 1, &b, &err) != CB_OK)
            fail_msg("seed %s: %s", seed, err.message);
        cb_planar p;
        build(&p, b);
        long v = (long)p.n_verts, e = (long)(p.n_half / 2), f = (long)p.n_faces;
        if (v - e + f != 1 + (long)p.n_components || p.n_components != 1 || !p.euler_ok)
            fail_msg("seed %s: V %ld - E %ld + F %ld != 1 + C %zu", seed, v, e, f,
                     p.n_components);
        double paper = 0;
        for (size_t k = 1; k < p.n_faces; k++) {
            assert_true(p.area[k] > 0);
            paper += p.area[k];
        }
        assert_true(fabs(paper - b->board_w * b->board_h) < 1e-6 * paper);
        /* Every printed edge has paper on both sides (no edge on the trim). */
        for (size_t h = 0; h < 2 * p.n_printed; h++)
            assert_int_not_equal(p.face[h], 0);
        cb_verdict vd;
        assert_int_equal(cb_board_check(b, spec.start_cap, spec.node_cap, &vd, &err), CB_OK);
        assert_true(vd.planar);
        assert_int_equal(vd.faces, p.n_faces);
        faces_min = p.n_faces < faces_min ? p.n_faces : faces_min;
        faces_max = p.n_faces > faces_max ? p.n_faces : faces_max;
        cb_planar_free(&p);
        cb_board_free(b);
    }
    printf("1000 boards: Euler holds on all; %zu..%zu faces\n", faces_min, faces_max);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bent_line),
        cmocka_unit_test(test_holes),
        cmocka_unit_test(test_two_holes_and_keep_faces),
        cmocka_unit_test(test_edge_along_border),
        cmocka_unit_test(test_corner_node_and_empty),
        cmocka_unit_test(test_crossing_is_not_planar),
        cmocka_unit_test(test_refuses_bad_boards),
        cmocka_unit_test(test_rotation_is_angle_order),
        cmocka_unit_test(test_euler_1000_seeds),
    };
    return cmocka_run_group_tests(tests, load_default_theme, free_default_theme);
}
