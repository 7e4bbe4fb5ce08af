/* Hop counts from the centre (w->hops) kept exact under single-edge edits,
 * with an undo log, so that trying an edit costs the nodes it moves rather
 * than a breadth-first search over the whole board. */
#ifndef CB_HOPS_H
#define CB_HOPS_H

#include <stddef.h>
#include <stdint.h>
#include "board/work.h"

typedef struct {
    cb_work *w;
    uint32_t *logged;   /* == trial: the node's hop before the trial is in the log */
    uint32_t *log_v;
    int *log_h;
    size_t n_log;
    uint32_t trial;
    uint32_t *mark;     /* == mark_id: the node lost its shortest paths */
    uint32_t mark_id;
    uint32_t *aff, *seeds, *queue, *count;
    int *tent;          /* best hop through unaffected neighbours */
    size_t unreached, saved_unreached;
} cb_hops;

/* Allocates the scratch and computes every hop; -1 when out of memory. */
int cb_hops_init(cb_hops *h, cb_work *w);
void cb_hops_free(cb_hops *h);
/* Recomputes every hop (after edits not reported below); clears the log. */
void cb_hops_reset(cb_hops *h);
/* Starts a trial: cb_hops_undo restores the hops of this moment. */
void cb_hops_begin(cb_hops *h);
void cb_hops_undo(cb_hops *h);
/* Report an edit right after cb_work_add_edge / cb_work_remove_edge. */
void cb_hops_added(cb_hops *h, uint32_t a, uint32_t b);
void cb_hops_removed(cb_hops *h, uint32_t a, uint32_t b);
/* cb_hops_removed for a trial that is undone at once and only matters when
 * it moves a start: returns 0, leaving every hop as it was (those of the
 * nodes that lost their shortest paths then stale), when no start's hop
 * changes; else updates the hops as cb_hops_removed and returns 1. */
int cb_hops_removed_trial(cb_hops *h, uint32_t a, uint32_t b);
/* 1 when every node that is not dropped reaches the centre. */
int cb_hops_all_reached(const cb_hops *h);

#endif
