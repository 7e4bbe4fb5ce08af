/* Decks at library level: the canonical hash, seeds and slices, thread
 * independence, forced duplicates, curation over a 500-game deck, the
 * manifest lines and the errors. */
#include "test.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "deck/deck_seeds.h"

/* ---- helpers ---- */

/* Page numbers for a game whose sheets start on page FIRST, one a page. */
static void consecutive_pages(size_t *pages, size_t first)
{
    for (size_t s = 0; s < CB_PLAYERS_MAX; s++)
        pages[s] = first + s;
}

static void shared_spec(cb_spec *s, const char *seed)
{
    cb_spec_defaults(s);
    s->seed = seed;
    s->shared = 1;
    s->theme = default_theme;
}

typedef struct {
    size_t n;
    size_t index[600];
    char seed[600][64];
    uint64_t hash[600];
    char *line[600];
    char *summary;
    size_t pages;          /* pages so far, as if the games went into one PDF */
} run_result;

/* Runs a deck and records every entry (and its manifest line). */
static void run_deck(const cb_spec *spec, const cb_deck_options *opt, run_result *r)
{
    cb_deck *d = NULL;
    cb_error err;
    memset(r, 0, sizeof *r);
    assert_int_equal(cb_deck_new(spec, opt, &d, &err), CB_OK);
    for (;;) {
        cb_deck_entry e;
        assert_int_equal(cb_deck_next(d, &e, &err), CB_OK);
        if (!e.game)
            break;
        assert_true(r->n < 600);
        r->index[r->n] = e.index;
        snprintf(r->seed[r->n], sizeof r->seed[0], "%s", e.seed);
        r->hash[r->n] = e.hash;
        size_t pages[CB_PLAYERS_MAX];
        consecutive_pages(pages, r->pages + 1);
        r->pages += e.game->n_sheets;
        assert_int_equal(cb_deck_manifest_line(d, &e, "deck.pdf", pages, &r->line[r->n], &err),
                         CB_OK);
        r->n++;
    }
    assert_int_equal(cb_deck_summary_line(d, 0, &r->summary, &err), CB_OK);
    cb_deck_free(d);
}

static void free_run(run_result *r)
{
    for (size_t i = 0; i < r->n; i++)
        free(r->line[i]);
    free(r->summary);
}

/* A copy of B mirrored (MX, MY) and/or transposed (T) about its trim centre. */
static cb_board *transformed(const cb_board *b, int mx, int my, int t)
{
    cb_board *c = calloc(1, sizeof *c);
    *c = *b;
    c->seed = NULL;
    c->dot_xy = NULL;
    c->nodes = malloc(b->n_nodes * sizeof *c->nodes);
    c->edges = malloc(b->n_edges * sizeof *c->edges);
    memcpy(c->nodes, b->nodes, b->n_nodes * sizeof *c->nodes);
    memcpy(c->edges, b->edges, b->n_edges * sizeof *c->edges);
    double cx = b->board_x + b->board_w / 2, cy = b->board_y + b->board_h / 2;
    for (size_t v = 0; v < b->n_nodes; v++) {
        double u = b->nodes[v].x - cx, w = b->nodes[v].y - cy;
        if (mx)
            u = -u;
        if (my)
            w = -w;
        if (t) {
            double s = u;
            u = w;
            w = s;
        }
        c->nodes[v].x = cx + u;
        c->nodes[v].y = cy + w;
    }
    /* Renumber the nodes in reverse so ids do not line up either. */
    for (size_t v = 0; v < b->n_nodes / 2; v++) {
        cb_node tmp = c->nodes[v];
        c->nodes[v] = c->nodes[b->n_nodes - 1 - v];
        c->nodes[b->n_nodes - 1 - v] = tmp;
    }
    for (size_t e = 0; e < b->n_edges; e++) {
        c->edges[e].a = (uint32_t)(b->n_nodes - 1 - b->edges[e].b);
        c->edges[e].b = (uint32_t)(b->n_nodes - 1 - b->edges[e].a);
    }
    return c;
}

/* ---- canonical hash ---- */

/* FAR puts one node 30 km out, past what the fast path packs into 64 bits,
 * so the general path is the one tested. TWIN puts two nodes of different
 * kinds on one spot (the kind orders them, whatever the symmetry): no
 * symmetry's order is then another's reversed, and each is sorted. */
static void hash_symmetries(double w, double h, int square, int far, int twin)
{
    cb_spec s;
    shared_spec(&s, "canon");
    s.page_w = w;
    s.page_h = h;
    cb_board *b = NULL;
    cb_error err;
    assert_int_equal(cb_board_generate(&s, "canon", 0, &b, &err), CB_OK);
    if (far)
        b->nodes[3].x += 3e7;
    if (twin) {
        b->nodes[7].x = b->nodes[5].x;
        b->nodes[7].y = b->nodes[5].y;
        b->nodes[7].kind = b->nodes[5].kind == CB_KIND_NODE ? CB_KIND_START : CB_KIND_NODE;
    }
    uint64_t h0 = cb_board_canonical_hash(b);
    for (int t = 1; t < (square ? 8 : 4); t++) {
        cb_board *c = transformed(b, t & 1, t & 2, t & 4);
        assert_true(cb_board_canonical_hash(c) == h0);
        cb_board_free(c);
    }
    if (!square) { /* a quarter turn of a rectangle is another page */
        cb_board *c = transformed(b, 0, 0, 1);
        assert_true(cb_board_canonical_hash(c) != h0);
        cb_board_free(c);
    }
    /* One node moved by 0.1 mm, or one edge gone: another board. */
    double x = b->nodes[5].x;
    b->nodes[5].x += 0.1;
    assert_true(cb_board_canonical_hash(b) != h0);
    b->nodes[5].x = x;
    assert_true(cb_board_canonical_hash(b) == h0);
    b->n_edges--;
    assert_true(cb_board_canonical_hash(b) != h0);
    b->n_edges++;
    cb_board_free(b);
}

/* The canonical hash as canon.c defines it, plainly: every symmetry's nodes
 * sorted by qsort, its edges too, one FNV-1a chain at a time. */
typedef struct {
    long long x, y;
    int kind;
    uint32_t id;
} plain_node;

static int plain_node_cmp(const void *p, const void *q)
{
    const plain_node *a = p, *b = q;
    if (a->x != b->x)
        return a->x < b->x ? -1 : 1;
    if (a->y != b->y)
        return a->y < b->y ? -1 : 1;
    if (a->kind != b->kind)
        return a->kind < b->kind ? -1 : 1;
    return (a->id > b->id) - (a->id < b->id);
}

static int plain_u64_cmp(const void *p, const void *q)
{
    uint64_t a = *(const uint64_t *)p, b = *(const uint64_t *)q;
    return (a > b) - (a < b);
}

static uint64_t plain_fnv(uint64_t h, long long v)
{
    for (int i = 0; i < 8; i++)
        h = (h ^ (((uint64_t)v >> (8 * i)) & 0xff)) * 0x100000001b3ull;
    return h;
}

static uint64_t plain_canonical_hash(const cb_board *b)
{
    size_t n = b->n_nodes, m = b->n_edges;
    plain_node *q = malloc(n * sizeof *q);
    uint32_t *rank = malloc(n * sizeof *rank);
    uint64_t *e = malloc(m * sizeof *e);
    assert_non_null(q);
    assert_non_null(rank);
    assert_non_null(e);
    long long qw = llround(b->board_w * 100), qh = llround(b->board_h * 100);
    double cx = b->board_x + b->board_w / 2, cy = b->board_y + b->board_h / 2;
    uint64_t best = UINT64_MAX;
    for (int t = 0; t < (qw == qh ? 8 : 4); t++) {
        for (size_t v = 0; v < n; v++) {
            long long u = llround((b->nodes[v].x - cx) * 100);
            long long w = llround((b->nodes[v].y - cy) * 100);
            if (t & 1)
                u = -u;
            if (t & 2)
                w = -w;
            q[v] = t & 4 ? (plain_node){w, u, (int)b->nodes[v].kind, (uint32_t)v}
                         : (plain_node){u, w, (int)b->nodes[v].kind, (uint32_t)v};
        }
        qsort(q, n, sizeof *q, plain_node_cmp);
        for (size_t i = 0; i < n; i++)
            rank[q[i].id] = (uint32_t)i;
        for (size_t i = 0; i < m; i++) {
            uint32_t x = rank[b->edges[i].a], y = rank[b->edges[i].b];
            e[i] = (uint64_t)(x < y ? x : y) << 32 | (x < y ? y : x);
        }
        qsort(e, m, sizeof *e, plain_u64_cmp);
        uint64_t h = 0xcbf29ce484222325ull;
        h = plain_fnv(h, qw < qh ? qw : qh);
        h = plain_fnv(h, qw < qh ? qh : qw);
        h = plain_fnv(h, (long long)n);
        h = plain_fnv(h, (long long)m);
        for (size_t i = 0; i < n; i++) {
            h = plain_fnv(h, q[i].x);
            h = plain_fnv(h, q[i].y);
            h = plain_fnv(h, q[i].kind);
        }
        for (size_t i = 0; i < m; i++)
            h = plain_fnv(h, (long long)e[i]);
        h = cb_mix64(h);
        best = h < best ? h : best;
    }
    free(q);
    free(rank);
    free(e);
    return best;
}

/* The fast paths (packed keys, lanes side by side, reversed orders, edges
 * by a counting sort) give the plain hash: rectangles and squares, with
 * and without two nodes on one spot. */
static void test_hash_matches_plain(void **state)
{
    (void)state;
    const double papers[2][2] = {{297, 210}, {260, 260}};
    char seed[32];
    for (int k = 0; k < 12; k++) {
        cb_spec s;
        snprintf(seed, sizeof seed, "plain%d", k);
        shared_spec(&s, seed);
        s.page_w = papers[k % 2][0];
        s.page_h = papers[k % 2][1];
        cb_board *b = NULL;
        cb_error err;
        assert_int_equal(cb_board_generate(&s, seed, 0, &b, &err), CB_OK);
        assert_true(cb_board_canonical_hash(b) == plain_canonical_hash(b));
        b->nodes[7].x = b->nodes[5].x; /* twins, of one kind or not */
        b->nodes[7].y = b->nodes[5].y;
        b->nodes[7].kind = k % 4 < 2 ? b->nodes[5].kind : CB_KIND_START;
        assert_true(cb_board_canonical_hash(b) == plain_canonical_hash(b));
        cb_board_free(b);
    }
}

static void test_hash_rectangle(void **state)
{
    (void)state;
    hash_symmetries(297, 210, 0, 0, 0);
}

static void test_hash_square(void **state)
{
    (void)state;
    hash_symmetries(260, 260, 1, 0, 0);
}

static void test_hash_far_node(void **state)
{
    (void)state;
    hash_symmetries(297, 210, 0, 1, 0);
    hash_symmetries(260, 260, 1, 1, 0);
}

static void test_hash_twin_nodes(void **state)
{
    (void)state;
    hash_symmetries(297, 210, 0, 0, 1);
    hash_symmetries(260, 260, 1, 0, 1);
}

/* Over many boards of a deck, no two distinct boards share a hash. */
static void test_hash_separates_boards(void **state)
{
    (void)state;
    cb_spec s;
    shared_spec(&s, "separate");
    cb_deck_options o;
    cb_deck_options_defaults(&o);
    o.count = 60;
    o.jobs = 2;
    run_result r;
    run_deck(&s, &o, &r);
    for (size_t i = 0; i < r.n; i++)
        for (size_t j = 0; j < i; j++)
            assert_true(r.hash[i] != r.hash[j]);
    free_run(&r);
}

/* ---- seeds, slices, threads ---- */

static void test_seed_derivation(void **state)
{
    (void)state;
    char buf[64];
    assert_int_equal(cb_deck_game_seed("shop", 42, 0, buf, sizeof buf), 7);
    assert_string_equal(buf, "shop#42");
    cb_deck_game_seed("shop", 42, 3, buf, sizeof buf);
    assert_string_equal(buf, "shop#42~3");
}

/* Game k is the game of its seed: cb_game_generate with the recorded seed
 * gives the same boards (so the printed seed reprints it). */
static void test_game_is_its_seed(void **state)
{
    (void)state;
    cb_spec s;
    cb_spec_defaults(&s);
    s.seed = "reprint";
    s.players = 2;
    s.theme = default_theme;
    cb_deck_options o;
    cb_deck_options_defaults(&o);
    o.start = 7;
    o.count = 3;
    cb_deck *d = NULL;
    cb_error err;
    assert_int_equal(cb_deck_new(&s, &o, &d, &err), CB_OK);
    for (size_t k = 7; k < 10; k++) {
        cb_deck_entry e;
        assert_int_equal(cb_deck_next(d, &e, &err), CB_OK);
        assert_non_null(e.game);
        assert_int_equal(e.index, k);
        cb_spec again = s;
        again.seed = e.seed;
        cb_game *g = NULL;
        assert_int_equal(cb_game_generate(&again, &g, &err), CB_OK);
        char *a = NULL, *b = NULL;
        assert_int_equal(cb_json_render(e.game, default_theme, &a, &err), CB_OK);
        assert_int_equal(cb_json_render(g, default_theme, &b, &err), CB_OK);
        assert_string_equal(a, b);
        free(a);
        free(b);
        cb_game_free(g);
    }
    cb_deck_entry e;
    assert_int_equal(cb_deck_next(d, &e, &err), CB_OK);
    assert_null(e.game);
    cb_deck_free(d);
}

/* --jobs 1, 2 and 5 give the same games and the same manifest lines; a
 * slice and a single game give the same games as the full deck. */
static void test_jobs_and_slices(void **state)
{
    (void)state;
    cb_spec s;
    shared_spec(&s, "slices");
    cb_deck_options o;
    cb_deck_options_defaults(&o);
    o.count = 24;
    run_result one, two, five, slice, only;
    run_deck(&s, &o, &one);
    o.jobs = 2;
    run_deck(&s, &o, &two);
    o.jobs = 5;
    run_deck(&s, &o, &five);
    assert_int_equal(one.n, 24);
    assert_int_equal(two.n, 24);
    assert_int_equal(five.n, 24);
    for (size_t i = 0; i < one.n; i++) {
        assert_int_equal(one.index[i], i);
        assert_string_equal(one.line[i], two.line[i]);
        assert_string_equal(one.line[i], five.line[i]);
    }
    assert_string_equal(one.summary, two.summary);
    assert_string_equal(one.summary, five.summary);
    o.start = 9;
    o.count = 6;
    o.jobs = 2;
    run_deck(&s, &o, &slice);
    assert_int_equal(slice.n, 6);
    for (size_t i = 0; i < slice.n; i++) {
        assert_int_equal(slice.index[i], 9 + i);
        assert_string_equal(slice.seed[i], one.seed[9 + i]);
        assert_true(slice.hash[i] == one.hash[9 + i]);
    }
    o.start = 17;
    o.count = 1;
    run_deck(&s, &o, &only);
    assert_int_equal(only.n, 1);
    assert_true(only.hash[0] == one.hash[17]);
    assert_string_equal(only.seed[0], one.seed[17]);
    free_run(&one);
    free_run(&two);
    free_run(&five);
    free_run(&slice);
    free_run(&only);
}

/* ---- uniqueness ---- */

/* The hook makes game 3's first candidate the same as game 1. */
static int force_duplicate(void *ctx, const char *master, size_t k, int r, char *out,
                           size_t len)
{
    (void)ctx;
    if (k == 3 && r == 0) {
        cb_deck_game_seed(master, 1, 0, out, len);
        return 0;
    }
    return -1;
}

static void test_forced_duplicate(void **state)
{
    (void)state;
    cb_spec s;
    shared_spec(&s, "dup");
    cb_deck_options o;
    cb_deck_options_defaults(&o);
    o.count = 6;
    o.jobs = 2;
    o.type_tolerance = 1; /* so that game 1's first candidate is kept */
    cb_deck *d = NULL;
    cb_error err;
    assert_int_equal(cb_deck_new_seeded(&s, &o, force_duplicate, NULL, &d, &err), CB_OK);
    uint64_t hashes[6];
    for (size_t k = 0; k < 6; k++) {
        cb_deck_entry e;
        assert_int_equal(cb_deck_next(d, &e, &err), CB_OK);
        hashes[k] = e.hashes[0];
        if (k == 3) {
            assert_int_equal(e.rejected_duplicate, 1);
            assert_int_equal(e.duplicate_of, 1);
            assert_int_equal(e.tries, 2);
            assert_string_equal(e.seed, "dup#3~1");
            char *line = NULL;
            size_t pages[CB_PLAYERS_MAX];
            consecutive_pages(pages, 4);
            assert_int_equal(cb_deck_manifest_line(d, &e, "x.pdf", pages, &line, &err), CB_OK);
            cJSON *j = cJSON_Parse(line);
            assert_non_null(j);
            assert_int_equal(cJSON_GetObjectItem(j, "duplicate_of")->valueint, 1);
            cJSON *rej = cJSON_GetObjectItem(j, "rejected");
            assert_int_equal(cJSON_GetObjectItem(rej, "duplicate")->valueint, 1);
            cJSON_Delete(j);
            free(line);
        } else {
            assert_int_equal(e.rejected_duplicate, 0);
            assert_int_equal(e.duplicate_of, -1);
        }
    }
    for (size_t i = 0; i < 6; i++)
        for (size_t j = 0; j < i; j++)
            assert_true(hashes[i] != hashes[j]);
    char *sum = NULL;
    assert_int_equal(cb_deck_summary_line(d, 0, &sum, &err), CB_OK);
    cJSON *j = cJSON_Parse(sum);
    assert_int_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(j, "rejected"), "duplicate")->valueint,
                     1);
    assert_int_equal(cJSON_GetObjectItem(j, "tried")->valueint, 7);
    assert_int_equal(cJSON_GetObjectItem(j, "kept")->valueint, 6);
    cJSON_Delete(j);
    free(sum);
    cb_deck_free(d);
}

/* ---- pages drawn on the deck's threads ---- */

/* A deck whose threads draw and compress the pages (with a duplicate,
 * redrawn on the caller's thread) makes the same PDF, byte for byte, as
 * one writer drawing the same games in order; with N-up sheets nothing is
 * drawn ahead (a sheet holds several games' boards) and the bytes agree
 * too. */
static void test_prepared_pages_same_bytes(void **state)
{
    (void)state;
    for (int nup = 0; nup <= 1; nup++) {
        cb_spec s;
        shared_spec(&s, "dup");
        s.shared = 0;
        s.players = 2;
        cb_render_options ro = {0};
        ro.font_path = "fonts/DejaVuSans.ttf";
        ro.gutter = -1;
        if (nup)
            ro.sheet_w = 450, ro.sheet_h = 320;
        cb_error err;
        cb_pdf_writer *threads = NULL, *inorder = NULL;
        assert_int_equal(cb_pdf_begin(default_theme, &ro, &threads, &err), CB_OK);
        assert_int_equal(cb_pdf_begin(default_theme, &ro, &inorder, &err), CB_OK);
        cb_deck_options o;
        cb_deck_options_defaults(&o);
        o.count = 6;
        o.jobs = 3;
        o.type_tolerance = 1;
        o.prepare = cb_deck_pdf_prepare;
        o.free_prepared = cb_deck_pdf_free_prepared;
        o.free_scratch = cb_deck_pdf_free_scratch;
        o.work_ctx = threads;
        cb_deck *d = NULL;
        assert_int_equal(cb_deck_new_seeded(&s, &o, force_duplicate, NULL, &d, &err), CB_OK);
        size_t dups = 0;
        for (;;) {
            cb_deck_entry e;
            assert_int_equal(cb_deck_next(d, &e, &err), CB_OK);
            if (!e.game)
                break;
            dups += e.rejected_duplicate > 0;
            if (nup)
                assert_null(e.prepared);
            else
                assert_non_null(e.prepared);
            assert_int_equal(cb_pdf_add_prepared(threads, e.game, e.prepared, &err), CB_OK);
            assert_int_equal(cb_pdf_add_game(inorder, e.game, &err), CB_OK);
            assert_int_equal(cb_pdf_sheet_page(threads, 1), cb_pdf_sheet_page(inorder, 1));
            if (e.index == 2) { /* a rules page between the games */
                assert_int_equal(cb_pdf_add_rules(threads, e.game, &err), CB_OK);
                assert_int_equal(cb_pdf_add_rules(inorder, e.game, &err), CB_OK);
            }
        }
        assert_int_equal(dups, 1);
        cb_deck_free(d);
        unsigned char *a = NULL, *b = NULL;
        size_t la = 0, lb = 0;
        assert_int_equal(cb_pdf_end(threads, &a, &la, &err), CB_OK);
        assert_int_equal(cb_pdf_end(inorder, &b, &lb, &err), CB_OK);
        assert_int_equal(cb_pdf_page_count(threads), cb_pdf_page_count(inorder));
        if (!nup)
            assert_int_equal(cb_pdf_page_count(threads), 13);
        assert_true(la > 10000);
        assert_int_equal(la, lb);
        assert_memory_equal(a, b, la);
        free(a);
        free(b);
        cb_pdf_writer_free(threads);
        cb_pdf_writer_free(inorder);
    }
}

/* ---- curation over a 500-game deck ---- */

/* A theme with 5 missions: 12 starts do not split evenly, so balance is
 * the deck's work, not a given. */
static void test_curation_500_games(void **state)
{
    (void)state;
    size_t nm = default_theme->n_missions;
    default_theme->n_missions = 5;
    cb_spec s;
    shared_spec(&s, "balance");
    cb_deck_options o;
    cb_deck_options_defaults(&o);
    o.count = 500;
    o.jobs = 2;
    cb_deck *d = NULL;
    cb_error err;
    assert_int_equal(cb_deck_new(&s, &o, &d, &err), CB_OK);
    size_t missions[5] = {0}, starts = 0, tried = 0, rejected = 0;
    size_t nt = default_theme->n_types, deck_types[16] = {0}, deck_regular = 0;
    double total_w = 0;
    for (size_t t = 0; t < nt; t++)
        total_w += default_theme->types[t].probability;
    for (size_t k = 0; k < 500; k++) {
        cb_deck_entry e;
        assert_int_equal(cb_deck_next(d, &e, &err), CB_OK);
        assert_int_equal(e.index, k);
        tried += (size_t)e.tries;
        rejected += (size_t)(e.rejected_duplicate + e.rejected_missions + e.rejected_types);
        /* Check every kept game against the rules independently. */
        size_t m[5] = {0}, types[16] = {0}, regular = 0, st = 0;
        for (size_t i = 0; i < e.game->n_sheets; i++) {
            const cb_board *b = e.game->sheets[i];
            for (size_t v = 0; v < b->n_nodes; v++) {
                if (b->nodes[v].kind == CB_KIND_START) {
                    assert_in_range(b->nodes[v].mission, 0, 4);
                    m[b->nodes[v].mission]++;
                    st++;
                } else if (b->nodes[v].kind == CB_KIND_NODE) {
                    types[b->nodes[v].type]++;
                    regular++;
                }
            }
        }
        for (size_t i = 0; i < 5; i++) {
            assert_true(m[i] * 5 >= st - 4 && m[i] * 5 <= st + 4); /* floor/ceil of st/5 */
            missions[i] += m[i];
        }
        starts += st;
        for (size_t t = 0; t < nt; t++) {
            double share = (double)types[t] / (double)regular;
            double target = default_theme->types[t].probability / total_w;
            assert_true(fabs(share - target) <= o.type_tolerance + 1e-12);
            deck_types[t] += types[t];
        }
        deck_regular += regular;
    }
    /* Across the deck every type's share is within 10 % of its weight's. */
    for (size_t t = 0; t < nt; t++) {
        double share = (double)deck_types[t] / (double)deck_regular;
        double target = default_theme->types[t].probability / total_w;
        if (fabs(share - target) > 0.10 * target)
            fail_msg("type %s: %.4f of the deck's nodes, target %.4f",
                     default_theme->types[t].name, share, target);
    }
    assert_int_equal(tried, 500 + rejected);
    for (size_t i = 0; i < 5; i++) {
        double share = (double)missions[i] / (double)starts;
        assert_true(fabs(share - 0.2) <= 0.05 * 0.2); /* within +-5 % of the target */
    }
    assert_true(cb_deck_mission_deviation(d) <= 0.05);
    char *sum = NULL;
    assert_int_equal(cb_deck_summary_line(d, 0, &sum, &err), CB_OK);
    cJSON *j = cJSON_Parse(sum);
    assert_non_null(j);
    assert_int_equal(cJSON_GetObjectItem(j, "kept")->valueint, 500);
    assert_int_equal((size_t)cJSON_GetObjectItem(j, "tried")->valueint, tried);
    double yield = cJSON_GetObjectItem(j, "yield")->valuedouble;
    assert_true(fabs(yield - 500.0 / (double)tried) < 1e-4);
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(j, "missions")), 5);
    print_message("500 games: %zu tried, yield %.3f, mission deviation %.4f\n", tried, yield,
                  cb_deck_mission_deviation(d));
    cJSON_Delete(j);
    free(sum);
    cb_deck_free(d);
    default_theme->n_missions = nm;
}

/* ---- manifest ---- */

static void test_manifest_line_fields(void **state)
{
    (void)state;
    cb_spec s;
    cb_spec_defaults(&s);
    s.seed = "say \"hi\"\\";
    s.players = 3;
    s.theme = default_theme;
    cb_deck_options o;
    cb_deck_options_defaults(&o);
    o.start = 2;
    o.count = 2;
    run_result r;
    run_deck(&s, &o, &r);
    size_t page = 1;
    for (size_t i = 0; i < r.n; i++) {
        cJSON *j = cJSON_Parse(r.line[i]);
        assert_non_null(j);
        assert_int_equal(cJSON_GetObjectItem(j, "index")->valueint, 2 + i);
        assert_string_equal(cJSON_GetObjectItem(j, "seed")->valuestring, r.seed[i]);
        assert_string_equal(cJSON_GetObjectItem(j, "file")->valuestring, "deck.pdf");
        assert_int_equal(cJSON_GetObjectItem(j, "first_page")->valueint, page);
        assert_int_equal(cJSON_GetObjectItem(j, "pages")->valueint, 3);
        cJSON *sheets = cJSON_GetObjectItem(j, "sheets");
        assert_int_equal(cJSON_GetArraySize(sheets), 3);
        int nodes = 0;
        for (int k = 0; k < 3; k++) {
            cJSON *sh = cJSON_GetArrayItem(sheets, k);
            char want[128];
            snprintf(want, sizeof want, "%s/%d", r.seed[i], k + 1);
            assert_string_equal(cJSON_GetObjectItem(sh, "seed")->valuestring, want);
            assert_int_equal(cJSON_GetObjectItem(sh, "page")->valueint, page + (size_t)k);
            nodes += cJSON_GetObjectItem(sh, "nodes")->valueint;
            assert_int_equal(strlen(cJSON_GetObjectItem(sh, "hash")->valuestring), 16);
        }
        assert_int_equal(cJSON_GetObjectItem(j, "nodes")->valueint, nodes);
        assert_in_range(cJSON_GetObjectItem(j, "hop_spread")->valueint, 0, 1);
        assert_true(cJSON_GetObjectItem(j, "attempts")->valueint >= 3);
        page += 3; /* the next game's sheets follow this one's */
        cJSON_Delete(j);
    }
    cJSON *sum = cJSON_Parse(r.summary);
    assert_non_null(sum);
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(sum, "summary")));
    assert_true(cJSON_IsFalse(cJSON_GetObjectItem(sum, "interrupted")));
    assert_string_equal(cJSON_GetObjectItem(sum, "seed")->valuestring, s.seed);
    assert_int_equal(cJSON_GetObjectItem(sum, "sheets")->valueint, 6);
    cJSON_Delete(sum);
    free_run(&r);
}

/* ---- errors and early stops ---- */

static void test_errors(void **state)
{
    (void)state;
    cb_spec s;
    shared_spec(&s, "errors");
    cb_deck_options o;
    cb_deck_options_defaults(&o);
    cb_deck *d = NULL;
    cb_error err;
    o.jobs = 0;
    assert_int_equal(cb_deck_new(&s, &o, &d, &err), CB_ERR_USAGE);
    assert_string_equal(err.field, "jobs");
    assert_null(d);
    o.jobs = 1;
    o.count = 0;
    assert_int_equal(cb_deck_new(&s, &o, &d, &err), CB_ERR_USAGE);
    assert_string_equal(err.field, "count");
    /* No candidate can pass a tolerance of 0: a clear error, not a hang. */
    o.count = 3;
    o.type_tolerance = 0;
    o.max_tries = 2;
    assert_int_equal(cb_deck_new(&s, &o, &d, &err), CB_OK);
    cb_deck_entry e;
    assert_int_equal(cb_deck_next(d, &e, &err), CB_ERR_INFEASIBLE);
    assert_non_null(strstr(err.message, "game 0"));
    assert_non_null(strstr(err.message, "2 tries"));
    cb_deck_free(d);
}

/* Freeing a deck mid-run stops its threads (what an interrupt does). */
static void test_free_mid_run(void **state)
{
    (void)state;
    cb_spec s;
    shared_spec(&s, "stop");
    cb_deck_options o;
    cb_deck_options_defaults(&o);
    o.count = 100000;
    o.jobs = 3;
    cb_deck *d = NULL;
    cb_error err;
    assert_int_equal(cb_deck_new(&s, &o, &d, &err), CB_OK);
    for (int i = 0; i < 3; i++) {
        cb_deck_entry e;
        assert_int_equal(cb_deck_next(d, &e, &err), CB_OK);
        assert_int_equal(e.index, (size_t)i);
    }
    cb_deck_free(d);
    cb_deck_free(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hash_rectangle),
        cmocka_unit_test(test_hash_square),
        cmocka_unit_test(test_hash_far_node),
        cmocka_unit_test(test_hash_twin_nodes),
        cmocka_unit_test(test_hash_matches_plain),
        cmocka_unit_test(test_hash_separates_boards),
        cmocka_unit_test(test_seed_derivation),
        cmocka_unit_test(test_game_is_its_seed),
        cmocka_unit_test(test_jobs_and_slices),
        cmocka_unit_test(test_forced_duplicate),
        cmocka_unit_test(test_prepared_pages_same_bytes),
        cmocka_unit_test(test_curation_500_games),
        cmocka_unit_test(test_manifest_line_fields),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_free_mid_run),
    };
    return cmocka_run_group_tests(tests, load_default_theme, free_default_theme);
}
