/* What a deck run (deck.c) and the merge of its shards (deck_merge.c)
 * share: the slice a shard makes, and the manifest's summary line from its
 * totals (see deck_summary.h), written here only, so that a deck run and a
 * merge of its shards agree byte for byte. Shares are rounded to 4
 * decimals; the counts they come from are written too, so that shards'
 * summaries add up exactly. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include "base/error.h"
#include "deck/deck_summary.h"

void cb_deck_shard_slice(size_t start, size_t count, size_t k, size_t n, size_t *first,
                         size_t *len)
{
    if (n == 0 || k >= n) {
        *first = start + count;
        *len = 0;
        return;
    }
    size_t base = count / n, extra = count % n;
    *first = start + k * base + (k < extra ? k : extra);
    *len = base + (k < extra ? 1 : 0);
}

static double four(double x)
{
    return round(x * 1e4) / 1e4;
}

static double share(size_t part, size_t whole)
{
    return whole ? (double)part / (double)whole : 0;
}

double cb_deck_totals_mission_deviation(const cb_deck_totals *t)
{
    size_t nm = t->n_missions;
    double worst = 0, target = nm ? 1.0 / (double)nm : 0;
    for (size_t i = 0; i < nm && t->start_nodes; i++) {
        double off = (share(t->missions[i].count, t->start_nodes) - target) / target;
        if (off < 0)
            off = -off;
        if (off > worst)
            worst = off;
    }
    return worst;
}

/* {"share": S, "target": T, COUNT_KEY: N} for each tally, under KEY in O. */
static int add_shares(cJSON *o, const char *key, const cb_deck_share *v, size_t n,
                      size_t whole, const char *count_key)
{
    cJSON *all = cJSON_AddObjectToObject(o, key);
    for (size_t i = 0; all && i < n; i++) {
        cJSON *s = cJSON_CreateObject();
        if (!s || !cJSON_AddNumberToObject(s, "share", four(share(v[i].count, whole))) ||
            !cJSON_AddNumberToObject(s, "target", four(v[i].target)) ||
            !cJSON_AddNumberToObject(s, count_key, (double)v[i].count) ||
            !cJSON_AddItemToObject(all, v[i].name, s)) {
            cJSON_Delete(s);
            return 0;
        }
    }
    return all != NULL;
}

static int add_count(cJSON *o, const char *key, size_t n)
{
    return cJSON_AddNumberToObject(o, key, (double)n) != NULL;
}

cb_status cb_deck_totals_line(const cb_deck_totals *t, char **line, cb_error *err)
{
    cJSON *o = cJSON_CreateObject(), *rej = NULL, *shard = NULL;
    int ok = o && cJSON_AddTrueToObject(o, "summary") &&
             cJSON_AddStringToObject(o, "seed", t->seed) && add_count(o, "start", t->start) &&
             add_count(o, "count", t->count) && add_count(o, "done", t->done) &&
             cJSON_AddBoolToObject(o, "interrupted", t->interrupted) &&
             add_count(o, "sheets", t->sheets) && add_count(o, "tried", t->tried) &&
             add_count(o, "kept", t->kept) &&
             cJSON_AddNumberToObject(o, "yield", four(share(t->kept, t->tried))) &&
             (rej = cJSON_AddObjectToObject(o, "rejected")) &&
             add_count(rej, "duplicate", t->rej_duplicate) &&
             add_count(rej, "missions", t->rej_missions) &&
             add_count(rej, "types", t->rej_types) &&
             add_count(o, "start_nodes", t->start_nodes) &&
             add_shares(o, "missions", t->missions, t->n_missions, t->start_nodes, "starts") &&
             cJSON_AddNumberToObject(o, "mission_max_deviation",
                                     four(cb_deck_totals_mission_deviation(t))) &&
             add_count(o, "regular_nodes", t->regular_nodes) &&
             add_shares(o, "types", t->types, t->n_types, t->regular_nodes, "nodes") &&
             cJSON_AddNumberToObject(o, "type_tolerance", four(t->type_tolerance));
    if (ok && t->shards)
        ok = (shard = cJSON_AddObjectToObject(o, "shard")) && add_count(shard, "index", t->shard) &&
             add_count(shard, "of", t->shards) && add_count(shard, "start", t->deck_start) &&
             add_count(shard, "count", t->deck_count);
    *line = ok ? cJSON_PrintUnformatted(o) : NULL;
    cJSON_Delete(o);
    return *line ? CB_OK : cb_fail(err, CB_ERR_NOMEM, "out of memory writing the manifest");
}
