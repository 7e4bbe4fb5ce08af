/* Decks in shards: the merge of the shards' manifests into the manifest
 * of the whole deck (the slice a shard makes is in deck_summary.c).
 *
 * A shard is a contiguous slice of the deck's games, made by a run of its
 * own, so it checks uniqueness within the slice only; the merge checks it
 * across slices, by the sheets' canonical hashes in the game lines. The
 * game lines are copied as they are (their bytes are the one-run deck's);
 * the summary is recomputed from the game lines (games, sheets, candidates
 * tried, rejections) and from the summaries' exact counts of start and
 * regular nodes per mission and node type, and written by the deck's own
 * summary writer (deck_summary.c). */
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/error.h"
#include "base/rng.h"
#include "io/input.h"
#include "io/jsonparse.h"
#include "deck/deck_summary.h"

/* ---- the merge's state ---- */

typedef struct {
    char *name;
    char *text;            /* the manifest, until its game lines are copied */
    size_t body;           /* bytes of its game lines, from the text's start */
    size_t start, done;    /* its games: start .. start+done-1 */
    size_t order;          /* when it was added: ties in the sort */
    int sharded;
    size_t shard, shards, deck_start, deck_count;
} part;

/* A kept sheet's hash, the game that has it and the part (1 + its number;
 * 0: an empty cell). */
typedef struct {
    uint64_t key;
    size_t index;
    size_t part;
} sheet_cell;

typedef struct {
    char *name;
    double target;
    size_t count;
} tally;

struct cb_deck_merge {
    part *parts;
    size_t n_parts, cap_parts;
    /* What every manifest must share: the first one's. */
    char *seed;
    double tolerance;
    tally *missions, *types;
    size_t n_missions, n_types;
    /* Totals over the game lines and the summaries' counts. */
    size_t sheets, tried, kept, rej_duplicate, rej_missions, rej_types;
    size_t start_nodes, regular_nodes;
    sheet_cell *cells;
    size_t n_cells, cap_cells;
    /* Sheets a game (players, or 1 shared board): the first game's, with
     * its place for messages. */
    int per_game;
    size_t per_game_index, per_game_line;
    const char *per_game_file;
    /* The first sheet found in two games, and how many more were. */
    int dup;
    uint64_t dup_hash;
    sheet_cell dup_a, dup_b;
    size_t dup_more;
};

/* CB_ERR_DATA with "NAME:LINE: " (or "NAME: " for line 0) before the
 * message. */
static cb_status bad(cb_error *err, const char *name, size_t line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static cb_status bad(cb_error *err, const char *name, size_t line, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (line)
        return cb_fail(err, CB_ERR_DATA, "%.200s:%zu: %s", name, line, msg);
    return cb_fail(err, CB_ERR_DATA, "%.200s: %s", name, msg);
}

static cb_status no_memory(cb_error *err)
{
    return cb_fail(err, CB_ERR_NOMEM, "out of memory merging manifests");
}

cb_status cb_deck_merge_new(cb_deck_merge **out, cb_error *err)
{
    *out = calloc(1, sizeof **out);
    if (!*out)
        return no_memory(err);
    (*out)->cap_cells = 1024;
    (*out)->cells = calloc((*out)->cap_cells, sizeof *(*out)->cells);
    if (!(*out)->cells) {
        free(*out);
        *out = NULL;
        return no_memory(err);
    }
    return CB_OK;
}

static void free_tallies(tally *v, size_t n)
{
    for (size_t i = 0; v && i < n; i++)
        free(v[i].name);
    free(v);
}

void cb_deck_merge_free(cb_deck_merge *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->n_parts; i++) {
        free(m->parts[i].name);
        free(m->parts[i].text);
    }
    free(m->parts);
    free(m->seed);
    free_tallies(m->missions, m->n_missions);
    free_tallies(m->types, m->n_types);
    free(m->cells);
    free(m);
}

/* ---- sheet hashes: every one must be new ---- */

static sheet_cell *cell_find(const cb_deck_merge *m, uint64_t key)
{
    size_t mask = m->cap_cells - 1, i = (size_t)cb_mix64(key) & mask;
    while (m->cells[i].part && m->cells[i].key != key)
        i = (i + 1) & mask;
    return &m->cells[i];
}

/* Records KEY for game INDEX of part PART (0-based); -1 when out of
 * memory. A key seen before is a duplicate: the first is kept for the
 * message, the others counted. */
static int add_sheet(cb_deck_merge *m, uint64_t key, size_t index, size_t part_no)
{
    if (2 * (m->n_cells + 1) > m->cap_cells) {
        sheet_cell *old = m->cells;
        size_t old_cap = m->cap_cells;
        if (!(m->cells = calloc(2 * old_cap, sizeof *m->cells))) {
            m->cells = old;
            return -1;
        }
        m->cap_cells = 2 * old_cap;
        for (size_t i = 0; i < old_cap; i++)
            if (old[i].part)
                *cell_find(m, old[i].key) = old[i];
        free(old);
    }
    sheet_cell *c = cell_find(m, key);
    if (c->part) {
        if (m->dup) {
            m->dup_more++;
        } else {
            m->dup = 1;
            m->dup_hash = key;
            m->dup_a = *c;
            m->dup_b = (sheet_cell){key, index, part_no + 1};
        }
        return 0;
    }
    *c = (sheet_cell){key, index, part_no + 1};
    m->n_cells++;
    return 0;
}

/* ---- reading one line's fields ---- */

typedef struct {
    const char *name; /* the manifest's */
    size_t line;
    cb_error *err;
} where;

/* A whole number 0 .. 2^53 under KEY; -1 (error set) when missing or not
 * one. */
static int get_count(const where *w, const cJSON *o, const char *key, size_t *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    double x = cJSON_IsNumber(v) ? v->valuedouble : -1;
    if (!(x >= 0 && x <= 9007199254740992.0 && x == (double)(uint64_t)x)) {
        bad(w->err, w->name, w->line, "\"%s\" is missing or not a whole number 0 or more", key);
        return -1;
    }
    *out = (size_t)x;
    return 0;
}

static const char *get_string(const where *w, const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!cJSON_IsString(v)) {
        bad(w->err, w->name, w->line, "\"%s\" is missing or not a string", key);
        return NULL;
    }
    return v->valuestring;
}

static int get_number(const where *w, const cJSON *o, const char *key, double *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!cJSON_IsNumber(v)) {
        bad(w->err, w->name, w->line, "\"%s\" is missing or not a number", key);
        return -1;
    }
    *out = v->valuedouble;
    return 0;
}

/* A sheet hash: 16 lowercase hex digits, as the manifest writes them. */
static int parse_hash(const char *s, uint64_t *out)
{
    uint64_t h = 0;
    size_t i = 0;
    for (; s[i] && i < 17; i++) {
        int c = s[i];
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
        if (d < 0)
            return -1;
        h = h << 4 | (uint64_t)d;
    }
    if (i != 16)
        return -1;
    *out = h;
    return 0;
}

/* LINE (LEN bytes, no newline) as a JSON object, or NULL (error set). */
static cJSON *parse_line(const where *w, const char *line, size_t len)
{
    const char *end = NULL;
    int oom = 0;
    cJSON *o = len ? cb_json_parse(line, len, &end, &oom) : NULL;
    if (oom) {
        no_memory(w->err);
        return NULL;
    }
    if (o && end)
        while (end < line + len && (*end == ' ' || *end == '\t' || *end == '\r'))
            end++;
    if (!cJSON_IsObject(o) || end != line + len) {
        cJSON_Delete(o);
        bad(w->err, w->name, w->line, "not a manifest line (one JSON object a line)");
        return NULL;
    }
    return o;
}

/* ---- one manifest ---- */

/* The mission or node type tallies of summary S under KEY, each with a
 * target and the count under COUNT_KEY, into *out (*n of them). */
static int get_tallies(const where *w, const cJSON *s, const char *key, const char *count_key,
                       tally **out, size_t *n)
{
    const cJSON *all = cJSON_GetObjectItemCaseSensitive(s, key);
    *out = NULL;
    *n = 0;
    if (!cJSON_IsObject(all)) {
        bad(w->err, w->name, w->line, "\"%s\" is missing or not an object", key);
        return -1;
    }
    size_t k = (size_t)cJSON_GetArraySize(all);
    if (!(*out = calloc(k + 1, sizeof **out))) {
        no_memory(w->err);
        return -1;
    }
    for (const cJSON *c = all->child; c; c = c->next) {
        tally *t = &(*out)[(*n)++];
        const cJSON *target = cJSON_GetObjectItemCaseSensitive(c, "target");
        const cJSON *count = cJSON_GetObjectItemCaseSensitive(c, count_key);
        double x = cJSON_IsNumber(count) ? count->valuedouble : -1;
        if (!cJSON_IsNumber(target) ||
            !(x >= 0 && x <= 9007199254740992.0 && x == (double)(uint64_t)x)) {
            bad(w->err, w->name, w->line, "%s.%.40s: no \"target\" number and \"%s\" count "
                "(a manifest of an older cutboard? make it again)", key,
                c->string ? c->string : "", count_key);
            return -1;
        }
        t->target = target->valuedouble;
        t->count = (size_t)x;
        if (!(t->name = strdup(c->string ? c->string : ""))) {
            no_memory(w->err);
            return -1;
        }
    }
    return 0;
}

static int same_tallies(const tally *a, size_t na, const tally *b, size_t nb)
{
    if (na != nb)
        return 0;
    for (size_t i = 0; i < na; i++)
        if (strcmp(a[i].name, b[i].name) != 0 || a[i].target != b[i].target)
            return 0;
    return 1;
}

/* The summary line S of manifest P: its settings into P and (first
 * manifest) M, checked against the first manifest's otherwise. */
static cb_status read_summary(cb_deck_merge *m, part *p, const where *w, const cJSON *s)
{
    cb_error *err = w->err;
    if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(s, "summary")))
        return bad(err, w->name, w->line,
                   "the last line is not a summary line: not a whole deck manifest");
    const cJSON *stopped = cJSON_GetObjectItemCaseSensitive(s, "interrupted");
    const char *seed = get_string(w, s, "seed");
    size_t count, done, starts, regular;
    double tolerance;
    if (!seed || get_count(w, s, "start", &p->start) || get_count(w, s, "count", &count) ||
        get_count(w, s, "done", &done) || get_number(w, s, "type_tolerance", &tolerance) ||
        get_count(w, s, "start_nodes", &starts) || get_count(w, s, "regular_nodes", &regular))
        return err->status;
    if (!cJSON_IsBool(stopped))
        return bad(err, w->name, w->line, "\"interrupted\" is missing or not true or false");
    if (cJSON_IsTrue(stopped) || done != count)
        return bad(err, w->name, w->line,
                   "the deck was stopped after %zu of %zu games: make it again", done, count);
    if (done == 0)
        return bad(err, w->name, w->line, "a deck of no games");
    p->done = done;
    const cJSON *shard = cJSON_GetObjectItemCaseSensitive(s, "shard");
    if (shard) {
        size_t first, len;
        if (!cJSON_IsObject(shard))
            return bad(err, w->name, w->line, "\"shard\" is not an object");
        if (get_count(w, shard, "index", &p->shard) || get_count(w, shard, "of", &p->shards) ||
            get_count(w, shard, "start", &p->deck_start) ||
            get_count(w, shard, "count", &p->deck_count))
            return err->status;
        cb_deck_shard_slice(p->deck_start, p->deck_count, p->shard, p->shards, &first, &len);
        if (p->shard >= p->shards || first != p->start || len != done)
            return bad(err, w->name, w->line,
                       "shard %zu/%zu of games %zu..%zu is not games %zu..%zu", p->shard,
                       p->shards, p->deck_start, p->deck_start + p->deck_count - 1, p->start,
                       p->start + done - 1);
        p->sharded = 1;
    }
    tally *missions = NULL, *types = NULL;
    size_t nm = 0, nt = 0;
    cb_status st = CB_OK;
    if (get_tallies(w, s, "missions", "starts", &missions, &nm) ||
        get_tallies(w, s, "types", "nodes", &types, &nt)) {
        st = err->status;
    } else if (m->n_parts == 1) { /* the first: its settings are the deck's */
        m->seed = strdup(seed);
        m->tolerance = tolerance;
        m->missions = missions;
        m->n_missions = nm;
        m->types = types;
        m->n_types = nt;
        missions = types = NULL;
        if (!m->seed)
            st = no_memory(err);
    } else {
        const part *f = &m->parts[0];
        if (strcmp(seed, m->seed) != 0)
            st = bad(err, w->name, 0, "master seed \"%.80s\", but %.200s has \"%.80s\": not "
                     "one deck", seed, f->name, m->seed);
        else if (tolerance != m->tolerance)
            st = bad(err, w->name, 0, "type tolerance %g, but %.200s has %g: not one deck",
                     tolerance, f->name, m->tolerance);
        else if (!same_tallies(missions, nm, m->missions, m->n_missions) ||
                 !same_tallies(types, nt, m->types, m->n_types))
            st = bad(err, w->name, 0, "its missions or node types are not those of %.200s "
                     "(another theme?): not one deck", f->name);
        else if (p->sharded != f->sharded)
            st = bad(err, w->name, 0, "%s, but %.200s is %s: not one deck",
                     p->sharded ? "a shard" : "not a shard", f->name,
                     f->sharded ? "a shard" : "not a shard");
        else if (p->sharded && (p->shards != f->shards || p->deck_start != f->deck_start ||
                                p->deck_count != f->deck_count))
            st = bad(err, w->name, 0, "shard %zu/%zu of games %zu..%zu, but %.200s is shard "
                     "%zu/%zu of games %zu..%zu: not one deck", p->shard, p->shards,
                     p->deck_start, p->deck_start + p->deck_count - 1, f->name, f->shard,
                     f->shards, f->deck_start, f->deck_start + f->deck_count - 1);
        for (size_t i = 0; st == CB_OK && i < nm; i++)
            m->missions[i].count += missions[i].count;
        for (size_t i = 0; st == CB_OK && i < nt; i++)
            m->types[i].count += types[i].count;
    }
    free_tallies(missions, nm);
    free_tallies(types, nt);
    if (st == CB_OK) {
        m->start_nodes += starts;
        m->regular_nodes += regular;
    }
    return st;
}

/* Game line O, the K-th (0-based) of part P, number PART_NO. */
static cb_status read_game(cb_deck_merge *m, const part *p, size_t part_no, const where *w,
                           const cJSON *o, size_t k)
{
    cb_error *err = w->err;
    if (cJSON_GetObjectItemCaseSensitive(o, "summary"))
        return bad(err, w->name, w->line, "a summary line before the last line (give each "
                   "manifest as a file of its own)");
    size_t index, tries, dup, mis, typ;
    const cJSON *rej = cJSON_GetObjectItemCaseSensitive(o, "rejected");
    const cJSON *sheets = cJSON_GetObjectItemCaseSensitive(o, "sheets");
    const char *seed = get_string(w, o, "seed");
    if (!seed || get_count(w, o, "index", &index) || get_count(w, o, "tries", &tries))
        return err->status;
    if (!cJSON_IsObject(rej))
        return bad(err, w->name, w->line, "\"rejected\" is missing or not an object");
    if (get_count(w, rej, "duplicate", &dup) || get_count(w, rej, "missions", &mis) ||
        get_count(w, rej, "types", &typ))
        return err->status;
    if (index != p->start + k)
        return bad(err, w->name, w->line, "game %zu where game %zu should be (the summary "
                   "says games %zu..%zu)", index, p->start + k, p->start,
                   p->start + p->done - 1);
    if (tries < 1 || tries > 100000)
        return bad(err, w->name, w->line, "\"tries\" is %zu, not 1..100000", tries);
    char want[512];
    int n = cb_deck_game_seed(m->seed ? m->seed : "", index, (int)tries - 1, want, sizeof want);
    if (n < 0 || (size_t)n >= sizeof want || strcmp(seed, want) != 0)
        return bad(err, w->name, w->line, "seed \"%.80s\" is not game %zu's candidate %zu of "
                   "master seed \"%.80s\" (\"%.120s\")", seed, index, tries, m->seed, want);
    int n_sheets = cJSON_IsArray(sheets) ? cJSON_GetArraySize(sheets) : 0;
    if (n_sheets < 1)
        return bad(err, w->name, w->line, "\"sheets\" is missing or not a list of sheets");
    /* The one deck option a game line shows: its sheets (--players, --shared). */
    if (!m->per_game) {
        m->per_game = n_sheets;
        m->per_game_index = index;
        m->per_game_line = w->line;
        m->per_game_file = p->name;
    } else if (n_sheets != m->per_game) {
        return bad(err, w->name, w->line, "game %zu has %d sheets, but game %zu (%.200s:%zu) "
                   "has %d: not one deck (other players or shared?)", index, n_sheets,
                   m->per_game_index, m->per_game_file, m->per_game_line, m->per_game);
    }
    for (const cJSON *s = sheets->child; s; s = s->next) {
        const cJSON *h = cJSON_GetObjectItemCaseSensitive(s, "hash");
        uint64_t key;
        if (!cJSON_IsString(h) || parse_hash(h->valuestring, &key) != 0)
            return bad(err, w->name, w->line, "a sheet's \"hash\" is missing or not 16 hex "
                       "digits");
        if (add_sheet(m, key, index, part_no) != 0)
            return no_memory(err);
    }
    m->kept++;
    m->sheets += (size_t)n_sheets;
    m->tried += tries;
    m->rej_duplicate += dup;
    m->rej_missions += mis;
    m->rej_types += typ;
    return CB_OK;
}

cb_status cb_deck_merge_add(cb_deck_merge *m, const char *name, char *text, size_t len,
                            cb_error *err)
{
    if (m->n_parts == m->cap_parts) {
        size_t cap = m->cap_parts ? 2 * m->cap_parts : 16;
        part *grown = realloc(m->parts, cap * sizeof *grown);
        if (!grown) {
            free(text);
            return no_memory(err);
        }
        m->parts = grown;
        m->cap_parts = cap;
    }
    size_t part_no = m->n_parts++;
    part *p = &m->parts[part_no];
    memset(p, 0, sizeof *p);
    p->text = text;
    p->order = part_no;
    if (!(p->name = strdup(name)))
        return no_memory(err);
    /* The lines: the last (past a final newline) is the summary. */
    size_t end = len;
    if (end && text[end - 1] == '\n')
        end--;
    if (end == 0)
        return bad(err, name, 0, "empty: no manifest lines");
    size_t lines = 1, last = 0;
    for (size_t i = 0; i < end; i++)
        if (text[i] == '\n') {
            lines++;
            last = i + 1;
        }
    where w = {name, lines, err};
    cJSON *s = parse_line(&w, text + last, end - last);
    cb_status st = s ? read_summary(m, p, &w, s) : err->status;
    cJSON_Delete(s);
    p->body = last;
    size_t from = 0;
    for (size_t k = 0; st == CB_OK && k + 1 < lines; k++) {
        const char *nl = memchr(text + from, '\n', last - from);
        size_t to = (size_t)(nl - text);
        w.line = k + 1;
        cJSON *o = parse_line(&w, text + from, to - from);
        st = o ? read_game(m, p, part_no, &w, o, k) : err->status;
        cJSON_Delete(o);
        from = to + 1;
    }
    if (st == CB_OK && p->done != lines - 1)
        st = bad(err, name, lines, "the summary says %zu games but %zu lines come before it",
                 p->done, lines - 1);
    return st;
}

cb_status cb_deck_merge_add_file(cb_deck_merge *m, const char *path, cb_error *err)
{
    FILE *f = NULL;
    off_t size = 0;
    cb_status opened = cb_input_open("", path, &f, &size, err);
    if (opened != CB_OK)
        return opened;
    /* Read to the end whatever the size said: the file may have grown. */
    size_t cap = (size_t)size + 1, len = 0;
    char *text = malloc(cap);
    while (text) {
        len += fread(text + len, 1, cap - len, f);
        if (len < cap)
            break;
        char *grown = realloc(text, 2 * cap);
        if (!grown)
            free(text);
        text = grown;
        cap *= 2;
    }
    int failed = text && ferror(f);
    fclose(f);
    if (!text)
        return no_memory(err);
    if (failed) {
        free(text);
        return cb_fail(err, CB_ERR_NOINPUT, "%s: cannot read it", path);
    }
    return cb_deck_merge_add(m, path, text, len, err);
}

/* ---- the whole deck ---- */

static int by_start(const void *a, const void *b)
{
    const part *x = a, *y = b;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

/* The shard of P's deck whose slice starts at game FIRST, or -1. */
static long shard_at(const part *p, size_t first)
{
    for (size_t k = 0; k < p->shards; k++) {
        size_t s, len;
        cb_deck_shard_slice(p->deck_start, p->deck_count, k, p->shards, &s, &len);
        if (s == first && len)
            return (long)k;
    }
    return -1;
}

static cb_status missing(cb_error *err, const part *p, size_t from, size_t to,
                         const char *where_text)
{
    long k = p->sharded ? shard_at(p, from) : -1;
    char which[64] = "";
    if (k >= 0)
        snprintf(which, sizeof which, " (shard %ld/%zu not given)", k, p->shards);
    return cb_fail(err, CB_ERR_DATA, "games %zu..%zu are missing%s, %s", from, to, which,
                   where_text);
}

/* Every game of the deck once: no gap, no overlap. */
static cb_status check_cover(cb_deck_merge *m, cb_error *err)
{
    part *v = m->parts;
    char at[600];
    if (v[0].sharded && v[0].start > v[0].deck_start) {
        snprintf(at, sizeof at, "before %.200s", v[0].name);
        return missing(err, &v[0], v[0].deck_start, v[0].start - 1, at);
    }
    size_t end = v[0].start + v[0].done;
    for (size_t i = 1; i < m->n_parts; i++) {
        if (v[i].start > end) {
            snprintf(at, sizeof at, "between %.200s and %.200s", v[i - 1].name, v[i].name);
            return missing(err, &v[i], end, v[i].start - 1, at);
        }
        if (v[i].start < end) {
            size_t last = v[i].start + v[i].done < end ? v[i].start + v[i].done : end;
            return cb_fail(err, CB_ERR_DATA, "games %zu..%zu are in both %.200s and %.200s",
                           v[i].start, last - 1, v[i - 1].name, v[i].name);
        }
        end = v[i].start + v[i].done;
    }
    const part *l = &v[m->n_parts - 1];
    if (l->sharded && end < l->deck_start + l->deck_count) {
        snprintf(at, sizeof at, "after %.200s", l->name);
        return missing(err, l, end, l->deck_start + l->deck_count - 1, at);
    }
    return CB_OK;
}

/* Game INDEX's place for messages: "game 17 (m-0.jsonl:18)". */
static void game_at(const cb_deck_merge *m, const sheet_cell *c, char *out, size_t len)
{
    const part *p = NULL;
    for (size_t i = 0; i < m->n_parts; i++)
        if (m->parts[i].order == c->part - 1)
            p = &m->parts[i];
    snprintf(out, len, "game %zu (%.200s:%zu)", c->index, p ? p->name : "?",
             p ? c->index - p->start + 1 : 0);
}

cb_status cb_deck_merge_end(cb_deck_merge *m, char **out, size_t *len, cb_error *err)
{
    *out = NULL;
    *len = 0;
    if (m->n_parts == 0)
        return cb_fail(err, CB_ERR_USAGE, "no manifest to merge");
    qsort(m->parts, m->n_parts, sizeof *m->parts, by_start);
    cb_status st = check_cover(m, err);
    if (st != CB_OK)
        return st;
    if (m->dup) {
        char a[300], b[300], more[64] = "";
        game_at(m, &m->dup_a, a, sizeof a);
        game_at(m, &m->dup_b, b, sizeof b);
        if (m->dup_more)
            snprintf(more, sizeof more, " (and %zu more sheets seen twice)", m->dup_more);
        return cb_fail(err, CB_ERR_DATA, "%s and %s have the same sheet (hash %016llx)%s: a "
                       "one-run deck would have made the later game again from its next seed",
                       a, b, (unsigned long long)m->dup_hash, more);
    }
    cb_deck_share *shares = calloc(m->n_missions + m->n_types + 1, sizeof *shares);
    if (!shares)
        return no_memory(err);
    for (size_t i = 0; i < m->n_missions; i++)
        shares[i] = (cb_deck_share){m->missions[i].name, m->missions[i].count,
                                    m->missions[i].target};
    for (size_t i = 0; i < m->n_types; i++)
        shares[m->n_missions + i] = (cb_deck_share){m->types[i].name, m->types[i].count,
                                                    m->types[i].target};
    cb_deck_totals t = {
        .seed = m->seed, .start = m->parts[0].start, .count = m->kept, .done = m->kept,
        .sheets = m->sheets, .tried = m->tried, .kept = m->kept,
        .rej_duplicate = m->rej_duplicate, .rej_missions = m->rej_missions,
        .rej_types = m->rej_types, .start_nodes = m->start_nodes,
        .regular_nodes = m->regular_nodes, .missions = shares, .n_missions = m->n_missions,
        .types = shares + m->n_missions, .n_types = m->n_types, .type_tolerance = m->tolerance};
    char *summary = NULL;
    st = cb_deck_totals_line(&t, &summary, err);
    free(shares);
    if (st != CB_OK)
        return st;
    size_t total = strlen(summary) + 2;
    for (size_t i = 0; i < m->n_parts; i++)
        total += m->parts[i].body;
    char *text = malloc(total);
    if (!text) {
        free(summary);
        return no_memory(err);
    }
    /* Each manifest's text is freed once copied: the merge holds about one
     * copy of the deck's manifest at a time. */
    size_t at = 0;
    for (size_t i = 0; i < m->n_parts; i++) {
        memcpy(text + at, m->parts[i].text, m->parts[i].body);
        at += m->parts[i].body;
        free(m->parts[i].text);
        m->parts[i].text = NULL;
    }
    at += (size_t)sprintf(text + at, "%s\n", summary);
    free(summary);
    *out = text;
    *len = at;
    return CB_OK;
}
