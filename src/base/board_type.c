/* The board and game types' lifecycle. The types are the data every layer
 * shares (the generator makes them, the check and the cuts read them, io and
 * print consume them), so freeing them lives here, below all of those. */
#include <stdlib.h>
#include "cutboard.h"

void cb_board_free(cb_board *b)
{
    if (!b)
        return;
    free(b->seed);
    free(b->nodes);
    free(b->edges);
    free(b->dot_xy);
    free(b);
}

void cb_game_free(cb_game *g)
{
    if (!g)
        return;
    for (size_t i = 0; i < g->n_sheets; i++)
        cb_board_free(g->sheets[i]);
    free(g->sheets);
    free(g->seed);
    free(g);
}
