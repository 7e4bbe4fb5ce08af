/* Decks: many games from one master seed, curated, unique, in index order.
 *
 * Game k's candidates come from the seeds "<master>#<k>", "<master>#<k>~1",
 * "<master>#<k>~2", ... (cb_deck_game_seed). A generator thread takes the
 * next index, makes candidates until one passes the curation rules (which
 * look at that candidate alone, so the choice is a function of k), does the
 * caller's work on it (opt.prepare: drawing and compressing its pages, so
 * that work scales with the threads too) and parks the game in a ring of
 * slots. The caller takes games in index order with
 * cb_deck_next; there each game's sheets are checked against the canonical
 * hashes of every earlier game of the run, and a duplicate is regenerated
 * (and prepared) on the caller's thread from the next retry. Threads never run more than the
 * ring's size ahead of the caller, so memory stays bounded and the output
 * does not depend on the number of threads. */
#include <cjson/cJSON.h>
#include <math.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/error.h"
#include "base/rng.h"
#include "board/generate.h"
#include "deck/deck_seeds.h"
#include "deck/deck_summary.h"

#define MAX_JOBS 64
#define SLOTS_PER_JOB 4

enum { SLOT_EMPTY = 0, SLOT_WORKING, SLOT_READY };

typedef struct {
    int state;
    size_t index;          /* absolute game index */
    cb_game *game;
    char *seed;
    int tries;             /* candidates 0 .. tries-1 were made */
    int rej_dup, rej_missions, rej_types, rej_playtest;
    double seat_wins[CB_PLAYERS_MAX]; /* opt.playtest's figures */
    int rounds;
    long dup_of;
    uint64_t *hashes;
    int *spread;           /* hop spread per sheet */
    void *prepared;        /* opt.prepare's work on the game */
    cb_status st;
    cb_error err;
} slot;

typedef struct { uint64_t key; size_t index; } hash_cell;

struct cb_deck {
    cb_spec spec;
    cb_deck_options opt;
    cb_deck_seed_fn game_seed; /* NULL: cb_deck_game_seed (cb_deck_new_seeded) */
    void *seed_ctx;
    const cb_theme *theme;
    double *type_target;   /* weight share per node type */

    pthread_mutex_t lock;
    pthread_cond_t space, ready;
    pthread_t *threads;
    int n_threads;
    int stop;
    size_t claimed;        /* games handed to threads (relative to start) */
    size_t released;       /* games whose slots are free again */
    size_t next;           /* the next game cb_deck_next returns */
    int holding;           /* the slot of game next-1 is still the caller's */
    slot *slots;
    size_t n_slots;

    hash_cell *seen;       /* canonical hashes of kept sheets */
    size_t seen_n, seen_cap;
    void *scratch;         /* the caller's for opt.prepare (duplicates) */

    /* Figures over the games returned so far. */
    size_t kept, tried, pages;
    size_t rej_dup, rej_missions, rej_types;
    size_t *mission_count, starts;
    size_t *type_count, regular;

    size_t deck_start, deck_count; /* a shard's whole deck (opt: its slice) */
};

void cb_deck_options_defaults(cb_deck_options *o)
{
    memset(o, 0, sizeof *o);
    o->count = 1;
    o->jobs = 1;
    o->type_tolerance = 0.08;
    o->max_tries = 100;
}

int cb_deck_game_seed(const char *master, size_t k, int r, char *out, size_t len)
{
    if (r == 0)
        return snprintf(out, len, "%s#%zu", master, k);
    return snprintf(out, len, "%s#%zu~%d", master, k, r);
}

/* ---- one candidate game and the curation rules ---- */

static size_t seed_len(const cb_deck *d)
{
    return strlen(d->spec.seed) + 64;
}

/* The curation rules a candidate game can break. */
typedef enum {
    CURATE_PASS, CURATE_DUPLICATE, CURATE_MISSIONS, CURATE_TYPES, CURATE_PLAYTEST
} curation;

static const char *const curation_words[] = {"none", "duplicate", "missions", "types",
                                             "playtest"};

/* Median of the report's game lengths. */
static int median_rounds(const cb_playtest_report *r)
{
    long seen = 0;
    for (int k = 0; k <= CB_PLAYTEST_MAX_ROUNDS; k++)
        if ((seen += r->rounds[k]) * 2 >= r->games)
            return k;
    return CB_PLAYTEST_MAX_ROUNDS;
}

/* Plays opt.playtest games on G (noisy greedy agents) into S's figures:
 * CURATE_PLAYTEST when a seat surely wins under half or over twice its
 * share (its win rate's 95 % Wilson interval lies wholly outside), or (2-4
 * players) the median game is outside 8-20 rounds. */
static curation playtest(const cb_deck *d, const cb_game *g, slot *s, cb_status *st)
{
    cb_playtest_options o;
    cb_playtest_defaults(&o);
    o.games = d->opt.playtest;
    o.boards = g;
    o.cut_influence = 0;
    o.noise = 0.15;
    cb_spec spec = d->spec;
    spec.seed = g->seed;
    cb_playtest_report r;
    if ((*st = cb_playtest_run(&spec, &o, &r, &s->err)) != CB_OK)
        return CURATE_PLAYTEST;
    s->rounds = median_rounds(&r);
    int bad = g->players <= 4 && (s->rounds < 8 || s->rounds > 20);
    double fair = 1.0 / g->players, z = 1.96, n = r.games;
    for (int p = 0; p < g->players; p++) {
        s->seat_wins[p] = r.seat_wins[p];
        double w = r.seat_wins[p] / n, den = 1 + z * z / n;
        double mid = (w + z * z / (2 * n)) / den;
        double half = z * sqrt(w * (1 - w) / n + z * z / (4 * n * n)) / den;
        bad |= mid + half < fair / 2 || mid - half > 2 * fair;
    }
    return bad ? CURATE_PLAYTEST : CURATE_PASS;
}

/* Which rule a candidate breaks, or CURATE_PASS. COUNTS is scratch of
 * n_missions + n_types entries. */
static curation curate(const cb_deck *d, const cb_game *g, const uint64_t *hashes,
                       size_t *counts)
{
    for (size_t i = 0; i < g->n_sheets; i++)
        for (size_t j = 0; j < i; j++)
            if (hashes[i] == hashes[j])
                return CURATE_DUPLICATE;
    const cb_theme *th = d->theme;
    if (!th)
        return CURATE_PASS;
    size_t nm = th->n_missions, nt = th->n_types, starts = 0, regular = 0;
    memset(counts, 0, (nm + nt) * sizeof *counts);
    for (size_t s = 0; s < g->n_sheets; s++) {
        const cb_board *b = g->sheets[s];
        for (size_t v = 0; v < b->n_nodes; v++) {
            const cb_node *node = &b->nodes[v];
            if (node->kind == CB_KIND_START) {
                starts++;
                if (node->mission >= 0 && (size_t)node->mission < nm)
                    counts[node->mission]++;
            } else if (node->kind == CB_KIND_NODE) {
                regular++;
                if (node->type >= 0 && (size_t)node->type < nt)
                    counts[nm + (size_t)node->type]++;
            }
        }
    }
    if (nm) {
        size_t lo = starts / nm, hi = (starts + nm - 1) / nm;
        for (size_t i = 0; i < nm; i++)
            if (counts[i] < lo || counts[i] > hi)
                return CURATE_MISSIONS;
    }
    if (nt && regular && d->opt.type_tolerance < 1) {
        for (size_t i = 0; i < nt; i++) {
            double share = (double)counts[nm + i] / (double)regular;
            double off = share - d->type_target[i];
            if (off > d->opt.type_tolerance || -off > d->opt.type_tolerance)
                return CURATE_TYPES;
        }
    }
    return CURATE_PASS;
}

static void slot_clear(const cb_deck *d, slot *s)
{
    if (s->prepared && d->opt.free_prepared)
        d->opt.free_prepared(d->opt.work_ctx, s->prepared);
    cb_game_free(s->game);
    free(s->seed);
    free(s->hashes);
    free(s->spread);
    memset(s, 0, sizeof *s);
}

/* Makes candidates for game K from retry R on until one passes curation,
 * filling S (whose rejection counts carry on). Thread-safe: it touches only
 * S and read-only parts of D. */
static void produce(const cb_deck *d, size_t k, int r, slot *s)
{
    size_t len = seed_len(d);
    size_t nm = d->theme ? d->theme->n_missions : 0, nt = d->theme ? d->theme->n_types : 0;
    size_t *counts = malloc((nm + nt + 1) * sizeof *counts);
    char *seed = malloc(len);
    curation why = CURATE_PASS;
    s->index = k;
    s->st = CB_OK;
    if (!counts || !seed) {
        free(counts);
        free(seed);
        s->st = cb_fail(&s->err, CB_ERR_NOMEM, "out of memory");
        return;
    }
    for (; r < d->opt.max_tries; r++) {
        if (!d->game_seed || d->game_seed(d->seed_ctx, d->spec.seed, k, r, seed, len) != 0)
            cb_deck_game_seed(d->spec.seed, k, r, seed, len);
        cb_spec spec = d->spec;
        spec.seed = seed;
        cb_game *g = NULL;
        int *sp = NULL;
        cb_status st = cb_game_generate_figures(&spec, &g, &sp, NULL, &s->err);
        if (st != CB_OK) {
            char msg[sizeof s->err.message];
            snprintf(msg, sizeof msg, "%s", s->err.message);
            s->st = cb_fail(&s->err, st, "game %zu: %s", k, msg);
            break;
        }
        uint64_t *h = malloc(g->n_sheets * sizeof *h);
        if (!h) {
            free(h);
            free(sp);
            cb_game_free(g);
            s->st = cb_fail(&s->err, CB_ERR_NOMEM, "out of memory");
            break;
        }
        for (size_t i = 0; i < g->n_sheets; i++)
            h[i] = cb_board_canonical_hash(g->sheets[i]);
        why = curate(d, g, h, counts);
        if (why == CURATE_PASS && d->opt.playtest > 0) {
            why = playtest(d, g, s, &st);
            if (st != CB_OK) {
                free(h);
                free(sp);
                cb_game_free(g);
                char msg[sizeof s->err.message];
                snprintf(msg, sizeof msg, "%s", s->err.message);
                s->st = cb_fail(&s->err, st, "game %zu: playtest: %s", k, msg);
                break;
            }
        }
        if (why == CURATE_PASS) {
            free(s->seed);
            free(s->hashes);
            free(s->spread);
            cb_game_free(s->game);
            s->game = g;
            s->hashes = h;
            s->spread = sp;
            s->seed = seed;
            s->tries = r + 1;
            free(counts);
            return;
        }
        s->rej_dup += why == CURATE_DUPLICATE;
        s->rej_missions += why == CURATE_MISSIONS;
        s->rej_types += why == CURATE_TYPES;
        s->rej_playtest += why == CURATE_PLAYTEST;
        free(h);
        free(sp);
        cb_game_free(g);
    }
    if (s->st == CB_OK)
        s->st = cb_fail(&s->err, CB_ERR_INFEASIBLE,
                        "game %zu: no candidate passed curation in %d tries (last: %s; "
                        "try a larger type tolerance)", k, d->opt.max_tries, curation_words[why]);
    free(seed);
    free(counts);
}

/* The work opt.prepare does on S's game (pages drawn, say), with the
 * calling thread's SCRATCH; a failure fails the game. */
static void prepare(const cb_deck *d, void **scratch, slot *s)
{
    if (s->st != CB_OK || !s->game || !d->opt.prepare)
        return;
    if (s->prepared && d->opt.free_prepared)
        d->opt.free_prepared(d->opt.work_ctx, s->prepared);
    s->prepared = NULL;
    s->st = d->opt.prepare(d->opt.work_ctx, scratch, s->index, s->game, &s->prepared, &s->err);
}

/* ---- threads ---- */

static void *worker(void *arg)
{
    cb_deck *d = arg;
    void *scratch = NULL;
    pthread_mutex_lock(&d->lock);
    for (;;) {
        while (!d->stop && d->claimed < d->opt.count &&
               d->claimed >= d->released + d->n_slots)
            pthread_cond_wait(&d->space, &d->lock);
        if (d->stop || d->claimed >= d->opt.count)
            break;
        size_t i = d->claimed++;
        slot *s = &d->slots[i % d->n_slots];
        s->state = SLOT_WORKING;
        pthread_mutex_unlock(&d->lock);
        slot made;
        memset(&made, 0, sizeof made);
        made.dup_of = -1;
        produce(d, d->opt.start + i, 0, &made);
        prepare(d, &scratch, &made);
        pthread_mutex_lock(&d->lock);
        *s = made;
        s->state = SLOT_READY;
        pthread_cond_broadcast(&d->ready);
    }
    pthread_mutex_unlock(&d->lock);
    if (scratch && d->opt.free_scratch)
        d->opt.free_scratch(d->opt.work_ctx, scratch);
    return NULL;
}

static void stop_threads(cb_deck *d)
{
    pthread_mutex_lock(&d->lock);
    d->stop = 1;
    pthread_cond_broadcast(&d->space);
    pthread_mutex_unlock(&d->lock);
    for (int t = 0; t < d->n_threads; t++)
        pthread_join(d->threads[t], NULL);
    d->n_threads = 0;
}

void cb_deck_free(cb_deck *d)
{
    if (!d)
        return;
    stop_threads(d);
    if (d->slots)
        for (size_t i = 0; i < d->n_slots; i++)
            slot_clear(d, &d->slots[i]);
    pthread_mutex_destroy(&d->lock);
    pthread_cond_destroy(&d->space);
    pthread_cond_destroy(&d->ready);
    if (d->scratch && d->opt.free_scratch)
        d->opt.free_scratch(d->opt.work_ctx, d->scratch);
    free(d->slots);
    free(d->threads);
    free(d->seen);
    free(d->type_target);
    free(d->mission_count);
    free(d->type_count);
    free((char *)d->spec.seed);
    free(d);
}

cb_status cb_deck_new(const cb_spec *spec, const cb_deck_options *opt, cb_deck **out,
                      cb_error *err)
{
    return cb_deck_new_seeded(spec, opt, NULL, NULL, out, err);
}

cb_status cb_deck_new_seeded(const cb_spec *spec, const cb_deck_options *opt,
                             cb_deck_seed_fn game_seed, void *seed_ctx, cb_deck **out,
                             cb_error *err)
{
    *out = NULL;
    cb_status st = cb_spec_check(spec, err);
    if (st != CB_OK)
        return st;
    if (opt->jobs < 1 || opt->jobs > MAX_JOBS)
        return cb_fail_option(err, "jobs", "%d is out of range (1..%d)", opt->jobs,
                       MAX_JOBS);
    if (opt->count < 1)
        return cb_fail_option(err, "count", "must be at least 1");
    if (opt->start > (size_t)1 << 48 || opt->count > (size_t)1 << 48)
        return cb_fail_option(err, "count", "too large (start and count at most 2^48)");
    if (!(opt->type_tolerance >= 0))
        return cb_fail_option(err, "type_tolerance", "must be 0 or more");
    if (opt->max_tries < 1 || opt->max_tries > 100000)
        return cb_fail_option(err, "tries", "%d is out of range (1..100000)",
                       opt->max_tries);
    if (opt->shards > opt->count || (opt->shards && opt->shard >= opt->shards))
        return cb_fail_option(err, "shard", "%zu/%zu is not a shard of %zu games",
                       opt->shard, opt->shards, opt->count);
    cb_deck *d = calloc(1, sizeof *d);
    if (!d)
        return cb_fail(err, CB_ERR_NOMEM, "out of memory");
    pthread_mutex_init(&d->lock, NULL);
    pthread_cond_init(&d->space, NULL);
    pthread_cond_init(&d->ready, NULL);
    d->spec = *spec;
    d->spec.seed = strdup(spec->seed);
    d->opt = *opt;
    d->game_seed = game_seed;
    d->seed_ctx = seed_ctx;
    d->deck_start = opt->start;
    d->deck_count = opt->count;
    if (opt->shards)
        cb_deck_shard_slice(opt->start, opt->count, opt->shard, opt->shards, &d->opt.start,
                            &d->opt.count);
    d->theme = spec->theme;
    size_t nm = d->theme ? d->theme->n_missions : 0, nt = d->theme ? d->theme->n_types : 0;
    d->n_slots = (size_t)opt->jobs * SLOTS_PER_JOB;
    d->slots = calloc(d->n_slots, sizeof *d->slots);
    d->threads = calloc((size_t)opt->jobs, sizeof *d->threads);
    d->type_target = calloc(nt + 1, sizeof *d->type_target);
    d->mission_count = calloc(nm + 1, sizeof *d->mission_count);
    d->type_count = calloc(nt + 1, sizeof *d->type_count);
    d->seen_cap = 1024;
    d->seen = calloc(d->seen_cap, sizeof *d->seen);
    if (!d->spec.seed || !d->slots || !d->threads || !d->type_target || !d->mission_count ||
        !d->type_count || !d->seen) {
        cb_deck_free(d);
        return cb_fail(err, CB_ERR_NOMEM, "out of memory");
    }
    double total = 0;
    for (size_t i = 0; i < nt; i++)
        total += d->theme->types[i].probability;
    for (size_t i = 0; i < nt; i++)
        d->type_target[i] = total > 0 ? d->theme->types[i].probability / total : 0;
    /* The threads take no signals: the caller's thread handles them. */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    int why = 0;
    for (int t = 0; t < opt->jobs; t++) {
        if ((why = pthread_create(&d->threads[t], NULL, worker, d)) != 0)
            break;
        d->n_threads++;
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (d->n_threads < opt->jobs) {
        cb_deck_free(d);
        /* EAGAIN: no memory (or thread slots) for another thread's stack */
        return cb_fail(err, CB_ERR_NOMEM, "cannot start %d threads: %s", opt->jobs,
                       why == EAGAIN || why == ENOMEM ? "out of memory or thread slots"
                                                      : strerror(why));
    }
    *out = d;
    return CB_OK;
}

/* ---- uniqueness: canonical hashes of the kept sheets ---- */

static hash_cell *seen_find(cb_deck *d, uint64_t key)
{
    size_t mask = d->seen_cap - 1, i = (size_t)cb_mix64(key) & mask;
    while (d->seen[i].key && d->seen[i].key != key)
        i = (i + 1) & mask;
    return &d->seen[i];
}

static int seen_add(cb_deck *d, uint64_t key, size_t index)
{
    key = key ? key : 1;
    if (2 * (d->seen_n + 1) > d->seen_cap) {
        hash_cell *old = d->seen;
        size_t old_cap = d->seen_cap;
        d->seen = calloc(2 * old_cap, sizeof *d->seen);
        if (!d->seen) {
            d->seen = old;
            return -1;
        }
        d->seen_cap = 2 * old_cap;
        for (size_t i = 0; i < old_cap; i++)
            if (old[i].key)
                *seen_find(d, old[i].key) = old[i];
        free(old);
    }
    hash_cell *c = seen_find(d, key);
    if (!c->key)
        d->seen_n++;
    c->key = key;
    c->index = index;
    return 0;
}

/* The earlier game one of S's sheets repeats, or -1. */
static long seen_dup(cb_deck *d, const slot *s)
{
    for (size_t i = 0; i < s->game->n_sheets; i++) {
        hash_cell *c = seen_find(d, s->hashes[i] ? s->hashes[i] : 1);
        if (c->key)
            return (long)c->index;
    }
    return -1;
}

cb_status cb_deck_next(cb_deck *d, cb_deck_entry *e, cb_error *err)
{
    memset(e, 0, sizeof *e);
    e->duplicate_of = -1;
    pthread_mutex_lock(&d->lock);
    if (d->holding) {
        slot_clear(d, &d->slots[(d->next - 1) % d->n_slots]);
        d->released = d->next;
        d->holding = 0;
        pthread_cond_broadcast(&d->space);
    }
    if (d->next >= d->opt.count) {
        pthread_mutex_unlock(&d->lock);
        return CB_OK;
    }
    slot *s = &d->slots[d->next % d->n_slots];
    while (s->state != SLOT_READY)
        pthread_cond_wait(&d->ready, &d->lock);
    d->holding = 1;
    d->next++;
    pthread_mutex_unlock(&d->lock);
    if (s->st != CB_OK) {
        *err = s->err;
        return s->st;
    }
    /* Uniqueness against every earlier game of this run. */
    for (long j; (j = seen_dup(d, s)) >= 0;) {
        s->rej_dup++;
        if (s->dup_of < 0)
            s->dup_of = j;
        produce(d, s->index, s->tries, s);
        prepare(d, &d->scratch, s);
        if (s->st != CB_OK) {
            *err = s->err;
            return s->st;
        }
    }
    for (size_t i = 0; i < s->game->n_sheets; i++)
        if (seen_add(d, s->hashes[i], s->index) != 0)
            return cb_fail(err, CB_ERR_NOMEM, "out of memory");

    const cb_game *g = s->game;
    e->index = s->index;
    e->game = g;
    e->seed = s->seed;
    e->tries = s->tries;
    e->rejected_duplicate = s->rej_dup;
    e->rejected_missions = s->rej_missions;
    e->rejected_types = s->rej_types;
    e->rejected_playtest = s->rej_playtest;
    memcpy(e->playtest_seat_wins, s->seat_wins, sizeof e->playtest_seat_wins);
    e->playtest_rounds = s->rounds;
    e->duplicate_of = s->dup_of;
    e->hashes = s->hashes;
    e->prepared = s->prepared;
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < g->n_sheets; i++) {
        const cb_board *b = g->sheets[i];
        h = cb_mix64(h ^ s->hashes[i]);
        e->nodes += b->n_nodes;
        e->edges += b->n_edges;
        e->attempts += b->attempts;
        if (s->spread[i] > e->hop_spread)
            e->hop_spread = s->spread[i];
    }
    e->hash = h;

    d->kept++;
    d->tried += (size_t)s->tries;
    d->pages += g->n_sheets;
    d->rej_dup += (size_t)s->rej_dup;
    d->rej_missions += (size_t)s->rej_missions;
    d->rej_types += (size_t)s->rej_types;
    size_t nm = d->theme ? d->theme->n_missions : 0, nt = d->theme ? d->theme->n_types : 0;
    for (size_t i = 0; i < g->n_sheets; i++) {
        const cb_board *b = g->sheets[i];
        for (size_t v = 0; v < b->n_nodes; v++) {
            const cb_node *node = &b->nodes[v];
            if (node->kind == CB_KIND_START) {
                d->starts++;
                if (node->mission >= 0 && (size_t)node->mission < nm)
                    d->mission_count[node->mission]++;
            } else if (node->kind == CB_KIND_NODE) {
                d->regular++;
                if (node->type >= 0 && (size_t)node->type < nt)
                    d->type_count[node->type]++;
            }
        }
    }
    return CB_OK;
}

/* ---- manifest lines (cJSON, so every string is escaped as JSON wants) ---- */

static cJSON *counts(int duplicate, int missions, int types)
{
    cJSON *o = cJSON_CreateObject();
    if (o && (!cJSON_AddNumberToObject(o, "duplicate", duplicate) ||
              !cJSON_AddNumberToObject(o, "missions", missions) ||
              !cJSON_AddNumberToObject(o, "types", types))) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

static int add_hash(cJSON *o, const char *key, uint64_t hash)
{
    char hex[17];
    snprintf(hex, sizeof hex, "%016llx", (unsigned long long)hash);
    return cJSON_AddStringToObject(o, key, hex) != NULL;
}

/* O as one line in *LINE (malloc'd); O is freed. */
static cb_status print_line(cJSON *o, int ok, char **line, cb_error *err)
{
    *line = ok && o ? cJSON_PrintUnformatted(o) : NULL;
    cJSON_Delete(o);
    return *line ? CB_OK : cb_fail(err, CB_ERR_NOMEM, "out of memory writing the manifest");
}

cb_status cb_deck_manifest_line(const cb_deck *d, const cb_deck_entry *e, const char *file,
                                const size_t *sheet_pages, char **line, cb_error *err)
{
    const cb_game *g = e->game;
    cJSON *o = cJSON_CreateObject(), *sheets = NULL;
    int ok = o && cJSON_AddNumberToObject(o, "index", (double)e->index) &&
             cJSON_AddStringToObject(o, "seed", e->seed) &&
             cJSON_AddStringToObject(o, "file", file ? file : "") &&
             cJSON_AddNumberToObject(o, "first_page", (double)sheet_pages[0]) &&
             cJSON_AddNumberToObject(o, "pages",
                                     (double)(sheet_pages[g->n_sheets - 1] - sheet_pages[0] + 1)) &&
             cJSON_AddNumberToObject(o, "nodes", (double)e->nodes) &&
             cJSON_AddNumberToObject(o, "edges", (double)e->edges) &&
             cJSON_AddNumberToObject(o, "hop_spread", e->hop_spread) &&
             cJSON_AddNumberToObject(o, "attempts", e->attempts) &&
             cJSON_AddNumberToObject(o, "tries", e->tries);
    cJSON *rej = ok ? counts(e->rejected_duplicate, e->rejected_missions, e->rejected_types)
                    : NULL;
    ok = rej && (!d->opt.playtest ||
                 cJSON_AddNumberToObject(rej, "playtest", e->rejected_playtest)) &&
         cJSON_AddItemToObject(o, "rejected", rej);
    if (!ok)
        cJSON_Delete(rej);
    if (ok && d->opt.playtest) {
        cJSON *pt = cJSON_AddObjectToObject(o, "playtest"), *wins = NULL;
        ok = pt && cJSON_AddNumberToObject(pt, "games", d->opt.playtest) &&
             (wins = cJSON_AddArrayToObject(pt, "seat_wins")) &&
             cJSON_AddNumberToObject(pt, "rounds_median", e->playtest_rounds);
        for (int p = 0; ok && p < g->players; p++) {
            cJSON *w = cJSON_CreateNumber(e->playtest_seat_wins[p]);
            ok = w && cJSON_AddItemToArray(wins, w);
        }
    }
    if (ok && e->duplicate_of >= 0)
        ok = cJSON_AddNumberToObject(o, "duplicate_of", (double)e->duplicate_of) != NULL;
    ok = ok && add_hash(o, "hash", e->hash) && (sheets = cJSON_AddArrayToObject(o, "sheets"));
    for (size_t i = 0; ok && i < g->n_sheets; i++) {
        const cb_board *s = g->sheets[i];
        cJSON *sh = cJSON_CreateObject();
        ok = sh && cJSON_AddNumberToObject(sh, "page", (double)sheet_pages[i]) &&
             cJSON_AddStringToObject(sh, "seed", s->seed) &&
             cJSON_AddNumberToObject(sh, "nodes", (double)s->n_nodes) &&
             cJSON_AddNumberToObject(sh, "edges", (double)s->n_edges) &&
             cJSON_AddNumberToObject(sh, "attempts", s->attempts) &&
             add_hash(sh, "hash", e->hashes[i]) && cJSON_AddItemToArray(sheets, sh);
        if (!ok)
            cJSON_Delete(sh);
    }
    return print_line(o, ok, line, err);
}

static double share(size_t part, size_t whole)
{
    return whole ? (double)part / (double)whole : 0;
}

double cb_deck_mission_deviation(const cb_deck *d)
{
    size_t nm = d->theme ? d->theme->n_missions : 0;
    double worst = 0, target = nm ? 1.0 / (double)nm : 0;
    for (size_t i = 0; i < nm && d->starts; i++) {
        double off = (share(d->mission_count[i], d->starts) - target) / target;
        if (off < 0)
            off = -off;
        if (off > worst)
            worst = off;
    }
    return worst;
}

cb_status cb_deck_summary_line(const cb_deck *d, int interrupted, char **line, cb_error *err)
{
    size_t nm = d->theme ? d->theme->n_missions : 0, nt = d->theme ? d->theme->n_types : 0;
    cb_deck_share *shares = calloc(nm + nt + 1, sizeof *shares);
    if (!shares)
        return cb_fail(err, CB_ERR_NOMEM, "out of memory writing the manifest");
    for (size_t i = 0; i < nm; i++)
        shares[i] = (cb_deck_share){d->theme->missions[i].name, d->mission_count[i],
                                    1.0 / (double)nm};
    for (size_t i = 0; i < nt; i++)
        shares[nm + i] = (cb_deck_share){d->theme->types[i].name, d->type_count[i],
                                         d->type_target[i]};
    cb_deck_totals t = {
        .seed = d->spec.seed, .start = d->opt.start, .count = d->opt.count, .done = d->kept,
        .interrupted = interrupted, .sheets = d->pages, .tried = d->tried, .kept = d->kept,
        .rej_duplicate = d->rej_dup, .rej_missions = d->rej_missions,
        .rej_types = d->rej_types, .start_nodes = d->starts, .regular_nodes = d->regular,
        .missions = shares, .n_missions = nm, .types = shares + nm, .n_types = nt,
        .type_tolerance = d->opt.type_tolerance, .shard = d->opt.shard,
        .shards = d->opt.shards, .deck_start = d->deck_start, .deck_count = d->deck_count};
    cb_status st = cb_deck_totals_line(&t, line, err);
    free(shares);
    return st;
}

cb_status cb_deck_pdf_prepare(void *writer, void **scratch, size_t k, const cb_game *game,
                              void **prepared, cb_error *err)
{
    cb_pdf_scratch *s = *scratch;
    cb_pdf_prepared *pages = NULL;
    (void)k;
    cb_status st = cb_pdf_prepare(writer, &s, game, &pages, err);
    *scratch = s;
    *prepared = pages;
    return st;
}

void cb_deck_pdf_free_prepared(void *writer, void *prepared)
{
    (void)writer;
    cb_pdf_prepared_free(prepared);
}

void cb_deck_pdf_free_scratch(void *writer, void *scratch)
{
    (void)writer;
    cb_pdf_scratch_free(scratch);
}
