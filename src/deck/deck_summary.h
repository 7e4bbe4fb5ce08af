/* src/deck/: decks, the print shop's product line: many games from one
 * master seed (deck.c), their manifests (deck_summary.c) and the merge of
 * shards (deck_merge.c). Uses print/ and everything below it.
 *
 * A deck manifest's summary line, from its totals: written by a deck run
 * (deck.c) and by the merge of shard manifests (deck_merge.c) alike, so a
 * merged deck's summary is the one-run deck's, byte for byte. Internal. */
#ifndef CB_DECK_SUMMARY_H
#define CB_DECK_SUMMARY_H

#include "cutboard.h"

/* A mission's or node type's tally: how many start (regular) nodes have
 * it, and its target share. */
typedef struct {
    const char *name;
    size_t count;
    double target;
} cb_deck_share;

typedef struct {
    const char *seed;
    size_t start, count, done;
    int interrupted;
    size_t sheets, tried, kept;
    size_t rej_duplicate, rej_missions, rej_types;
    size_t start_nodes, regular_nodes;  /* the shares' denominators */
    const cb_deck_share *missions, *types;
    size_t n_missions, n_types;
    double type_tolerance;
    /* A shard's slice (shards > 0): slice SHARD of SHARDS of games
     * deck_start .. deck_start+deck_count-1. */
    size_t shard, shards, deck_start, deck_count;
} cb_deck_totals;

/* The largest relative deviation of a mission's share from 1/M. */
double cb_deck_totals_mission_deviation(const cb_deck_totals *t);

/* The summary line of T (JSON, no newline) in *line, which the caller
 * frees. */
cb_status cb_deck_totals_line(const cb_deck_totals *t, char **line, cb_error *err);

#endif
