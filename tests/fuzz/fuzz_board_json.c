/* Fuzz target: the board file parser (cb_game_parse_json) on arbitrary
 * bytes; see board_target.h for what is checked. Also: it takes what the
 * cJSON reader it replaced takes (tests/board_tree_oracle.h), and reads it
 * to the same game. */
#include <math.h>
#include "board_target.h"
#include "../board_tree_oracle.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int same_board(const cb_board *a, const cb_board *b)
{
    int same = !strcmp(a->seed, b->seed) && a->player == b->player && a->page_w == b->page_w &&
               a->page_h == b->page_h && a->board_x == b->board_x && a->board_y == b->board_y &&
               a->board_w == b->board_w && a->board_h == b->board_h &&
               a->node_radius == b->node_radius && a->center == b->center &&
               a->attempts == b->attempts && a->n_nodes == b->n_nodes &&
               a->n_edges == b->n_edges && a->n_dot_xy == b->n_dot_xy &&
               !a->dot_xy == !b->dot_xy;
    for (size_t i = 0; same && i < a->n_nodes; i++) {
        const cb_node *u = &a->nodes[i], *v = &b->nodes[i];
        same = u->x == v->x && u->y == v->y && signbit(u->x) == signbit(v->x) &&
               signbit(u->y) == signbit(v->y) && u->kind == v->kind && u->side == v->side &&
               u->type == v->type && u->mission == v->mission && u->dots == v->dots &&
               u->number == v->number && u->first_dot == v->first_dot;
    }
    for (size_t e = 0; same && e < a->n_edges; e++)
        same = a->edges[e].a == b->edges[e].a && a->edges[e].b == b->edges[e].b;
    for (size_t k = 0; same && k < a->n_dot_xy; k++)
        same = a->dot_xy[k][0] == b->dot_xy[k][0] && a->dot_xy[k][1] == b->dot_xy[k][1];
    return same;
}

static void oracle_agrees(const char *text, size_t len)
{
    cb_game *now = NULL, *old = NULL;
    cb_error err;
    cb_status ns = cb_game_parse_json(text, len, "fuzz.json", NULL, &now, &err);
    cb_status os = oracle_parse_json(text, len, "fuzz.json", NULL, &old, &err);
    if ((ns == CB_OK) != (os == CB_OK))
        abort(); /* one reader took a file the other refuses */
    int same = 1;
    if (now && old) {
        same = !strcmp(now->seed, old->seed) && now->players == old->players &&
               now->shared == old->shared && now->n_sheets == old->n_sheets;
        for (size_t i = 0; same && i < now->n_sheets; i++)
            same = same_board(now->sheets[i], old->sheets[i]);
    }
    if (!same)
        abort();
    cb_game_free(now);
    cb_game_free(old);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    oracle_agrees((const char *)data, size);
    return fuzz_board_file(cb_game_parse_json, "fuzz.json", data, size);
}
