/* Fuzz target: the board file parser (cb_game_parse_json) on arbitrary
 * bytes; see board_target.h for what is checked. Also: the fast reader
 * (board_stream.c) takes only what the precise cJSON reader takes, and
 * reads it to the same game. */
#include <math.h>
#include "board_target.h"
#include "io/board_read.h"

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

static void fast_agrees(const char *text, size_t len)
{
    cb_game *fast = NULL, *tree = NULL;
    cb_error err;
    if (cb_board_stream_read(NULL, text, len, "fuzz.json", NULL, &fast, &err) != CB_OK || !fast)
        return;
    if (cb_game_parse_json_tree(text, len, "fuzz.json", NULL, &tree, &err) != CB_OK)
        abort(); /* the fast reader took a file the precise one refuses */
    int same = !strcmp(fast->seed, tree->seed) && fast->players == tree->players &&
               fast->shared == tree->shared && fast->n_sheets == tree->n_sheets;
    for (size_t i = 0; same && i < fast->n_sheets; i++)
        same = same_board(fast->sheets[i], tree->sheets[i]);
    if (!same)
        abort();
    cb_game_free(fast);
    cb_game_free(tree);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fast_agrees((const char *)data, size);
    return fuzz_board_file(cb_game_parse_json, "fuzz.json", data, size);
}
