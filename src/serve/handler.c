/* cutboard serve's answers: routing, games, checks, themes and errors; see
 * serve.h. A game is made exactly as the CLI makes it (the same spec and
 * render options), so the API's PDF, SVG and board file are byte for byte
 * the CLI's for the same options. */
#define _POSIX_C_SOURCE 200809L
#include <cjson/cJSON.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/error.h"
#include "serve/serve.h"

typedef struct {
    char *name;
    cb_theme *theme;
} serve_theme;

struct cb_serve {
    serve_theme *themes;
    size_t n_themes;
    size_t default_theme;
    char *font_path;
    size_t max_nodes;
    int dated;
    long long source_date;
};

/* ---- themes ---- */

static int has_theme_json(const char *dir)
{
    char path[4200];
    struct stat sb;
    int n = snprintf(path, sizeof path, "%s/theme.json", dir);
    return n > 0 && (size_t)n < sizeof path && stat(path, &sb) == 0 && S_ISREG(sb.st_mode);
}

static cb_status add_theme(cb_serve *s, const char *name, const char *dir, cb_error *err)
{
    for (size_t k = 0; k < s->n_themes; k++)
        if (strcmp(s->themes[k].name, name) == 0) {
            return cb_fail_option(err, "theme_dir", "two themes are named \"%s\" (the second "
                                  "in %s)", name, dir);
        }
    serve_theme *bigger = realloc(s->themes, (s->n_themes + 1) * sizeof *bigger);
    if (!bigger)
        goto oom;
    s->themes = bigger;
    serve_theme *t = &s->themes[s->n_themes];
    t->theme = NULL;
    if (!(t->name = strdup(name)))
        goto oom;
    cb_status st = cb_theme_load(dir, &t->theme, err);
    if (st != CB_OK) {
        free(t->name);
        return st;
    }
    s->n_themes++;
    return CB_OK;
oom:
    return cb_fail_nomem(err, "loading themes");
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int cmp_themes(const void *a, const void *b)
{
    return strcmp(((const serve_theme *)a)->name, ((const serve_theme *)b)->name);
}

/* The themes of folder DIR: DIR itself, or each subfolder with a theme.json. */
static cb_status add_folder(cb_serve *s, const char *dir, cb_error *err)
{
    if (has_theme_json(dir)) {
        const char *end = dir + strlen(dir);
        while (end > dir && end[-1] == '/')
            end--;
        const char *start = end;
        while (start > dir && start[-1] != '/')
            start--;
        char name[256];
        snprintf(name, sizeof name, "%.*s", (int)(end - start), start);
        return add_theme(s, name, dir, err);
    }
    DIR *d = opendir(dir);
    if (!d) {
        return cb_fail_field(err, CB_ERR_NOINPUT, "theme_dir", "%s is not a folder", dir);
    }
    char **names = NULL;
    size_t n = 0;
    cb_status st = CB_OK;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.')
            continue;
        char **bigger = realloc(names, (n + 1) * sizeof *names);
        if (!bigger || !(bigger[n] = strdup(e->d_name))) {
            names = bigger ? bigger : names;
            st = cb_fail(err, CB_ERR_NOMEM, "out of memory loading themes");
            break;
        }
        names = bigger;
        n++;
    }
    closedir(d);
    if (n)
        qsort(names, n, sizeof *names, cmp_names);
    for (size_t k = 0; k < n; k++) {
        char path[4200];
        snprintf(path, sizeof path, "%s/%s", dir, names[k]);
        if (st == CB_OK && strlen(names[k]) < 64 && has_theme_json(path))
            st = add_theme(s, names[k], path, err);
        free(names[k]);
    }
    free(names);
    return st;
}

cb_status cb_serve_new(const cb_serve_config *cfg, cb_serve **out, cb_error *err)
{
    *out = NULL;
    cb_serve *s = calloc(1, sizeof *s);
    if (!s || !(s->font_path = strdup(cfg->font_path ? cfg->font_path : ""))) {
        free(s);
        return cb_fail_nomem(err, NULL);
    }
    s->max_nodes = cfg->max_nodes ? cfg->max_nodes : CB_SERVE_MAX_NODES;
    s->dated = cfg->dated;
    s->source_date = cfg->source_date;
    for (size_t k = 0; k < cfg->n_theme_dirs; k++) {
        cb_status st = add_folder(s, cfg->theme_dirs[k], err);
        if (st != CB_OK) {
            cb_serve_free(s);
            return st;
        }
    }
    if (s->n_themes == 0) {
        cb_serve_free(s);
        return cb_fail_field(err, CB_ERR_NOINPUT, "theme_dir",
                             "no themes found (a theme is a folder with a theme.json)");
    }
    qsort(s->themes, s->n_themes, sizeof *s->themes, cmp_themes);
    const char *want = cfg->default_theme ? cfg->default_theme : "default";
    for (size_t k = 0; k < s->n_themes; k++)
        if (strcmp(s->themes[k].name, want) == 0)
            s->default_theme = k;
    *out = s;
    return CB_OK;
}

void cb_serve_free(cb_serve *s)
{
    if (!s)
        return;
    for (size_t k = 0; k < s->n_themes; k++) {
        free(s->themes[k].name);
        cb_theme_free(s->themes[k].theme);
    }
    free(s->themes);
    free(s->font_path);
    free(s);
}

size_t cb_serve_theme_count(const cb_serve *s)
{
    return s->n_themes;
}

const char *cb_serve_theme_name(const cb_serve *s, size_t k)
{
    return k < s->n_themes ? s->themes[k].name : NULL;
}

static const serve_theme *find_theme(const cb_serve *s, const char *name)
{
    if (!name || !*name)
        return &s->themes[s->default_theme];
    for (size_t k = 0; k < s->n_themes; k++)
        if (strcmp(s->themes[k].name, name) == 0)
            return &s->themes[k];
    return NULL;
}

/* ---- responses ---- */

static const char oom_json[] = "{\"error\":\"out of memory\",\"field\":\"\"}";

void cb_serve_response_free(cb_serve_response *resp)
{
    if (!resp->body_static)
        free(resp->body);
    resp->body = NULL;
    resp->len = 0;
}

static void respond_static(cb_serve_response *r, int status, const char *type,
                           const void *body, size_t len)
{
    r->status = status;
    r->content_type = type;
    r->body = (unsigned char *)(uintptr_t)body;
    r->len = len;
    r->body_static = 1;
}

/* Takes TEXT (malloc'd, NUL-terminated; NULL: out of memory). */
static void respond_text(cb_serve_response *r, int status, const char *type, char *text)
{
    if (!text) {
        respond_static(r, 500, "application/json", oom_json, sizeof oom_json - 1);
        return;
    }
    r->status = status;
    r->content_type = type;
    r->body = (unsigned char *)text;
    r->len = strlen(text);
    r->body_static = 0;
}

/* Takes JSON (NULL: out of memory) and answers it as compact text. */
static void respond_json(cb_serve_response *r, int status, cJSON *json)
{
    char *text = json ? cJSON_PrintUnformatted(json) : NULL;
    cJSON_Delete(json);
    respond_text(r, status, "application/json", text);
}

/* The page's words for a field: the label its form shows. The API's
 * "error" keeps the CLI's wording (--players: ...); "page_error" names the
 * field as the page does (Players: ...). */
static const struct {
    const char *field, *label;
} page_labels[] = {
    {"seed", "Seed"},           {"players", "Players"},       {"shared", "Boards"},
    {"paper", "Paper"},         {"portrait", "Orientation"},  {"theme", "Theme"},
    {"ink_friendly", "Ink-friendly"}, {"first_game", "First game"},
    {"rules", "Rules page in the PDF"},
};

/* The option FIELD as the command line spells it ("first_game" is
 * "--first-game"), for "error" to keep the CLI's wording. */
static void option_of(const char *field, char *out, size_t cap)
{
    size_t k = 0;
    for (const char *p = "--"; *p && k + 1 < cap; p++)
        out[k++] = *p;
    for (const char *p = field; *p && k + 1 < cap; p++)
        out[k++] = *p == '_' ? '-' : *p;
    out[k] = 0;
}

static const char *page_label(const char *field)
{
    for (size_t k = 0; field && k < sizeof page_labels / sizeof *page_labels; k++)
        if (!strcmp(field, page_labels[k].field))
            return page_labels[k].label;
    return NULL;
}

void cb_serve_error(cb_serve_response *resp, int status, const char *field,
                    cb_serve_naming naming, const char *message)
{
    char name[48] = "", error[640], page[640];
    if (field && *field && naming == CB_SERVE_AS_OPTION)
        option_of(field, name, sizeof name);
    else if (field && *field && naming == CB_SERVE_AS_FIELD)
        snprintf(name, sizeof name, "%s", field);
    if (name[0])
        snprintf(error, sizeof error, "%s: %s", name, message);
    else
        snprintf(error, sizeof error, "%s", message);
    const char *label = page_label(field);
    if (label)
        snprintf(page, sizeof page, "%s: %s", label, message);
    else
        snprintf(page, sizeof page, "%s", error);
    cJSON *o = cJSON_CreateObject();
    if (o && (!cJSON_AddStringToObject(o, "error", error) ||
              !cJSON_AddStringToObject(o, "page_error", page) ||
              !cJSON_AddStringToObject(o, "field", field ? field : ""))) {
        cJSON_Delete(o);
        o = NULL;
    }
    respond_json(resp, status, o);
}

/* The HTTP status for a library error of kind STATUS. */
static int http_status(cb_status status)
{
    switch (status) {
    case CB_ERR_USAGE:
        return 400; /* a bad option */
    case CB_ERR_DATA:
        return 422; /* a board file or theme that cannot be read */
    case CB_ERR_STOPPED:
        return 503; /* the time limit */
    default:
        return 500; /* out of memory, no board found, a library's failure */
    }
}

/* A library error: its kind says the status, its field the field at
 * fault (named as the CLI's option in "error"). */
static void library_error(cb_serve_response *r, const cb_error *err)
{
    cb_serve_error(r, http_status(err->status), err->field,
                   err->field[0] ? CB_SERVE_AS_OPTION : CB_SERVE_UNNAMED, err->message);
}

/* SEED with everything but letters, digits and "-_." percent-encoded (a
 * header value and a file name that need no quoting). */
static void safe_seed(const char *seed, char *out, size_t cap, int for_file)
{
    size_t k = 0;
    for (const unsigned char *p = (const unsigned char *)seed; *p && k + 4 < cap; p++) {
        int plain = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
                    (*p >= '0' && *p <= '9') || *p == '-' || *p == '_' || *p == '.';
        if (plain)
            out[k++] = (char)*p;
        else if (for_file)
            out[k++] = '_';
        else
            k += (size_t)snprintf(out + k, cap - k, "%%%02X", *p);
    }
    out[k] = 0;
}

/* ---- GET /api/themes, /api/health ---- */

static cJSON *rules_json(const cb_rules *rules)
{
    cJSON *o = cJSON_CreateObject(), *secs = NULL;
    if (!o || !cJSON_AddStringToObject(o, "title", rules->title ? rules->title : "") ||
        !cJSON_AddStringToObject(o, "summary", rules->summary ? rules->summary : "") ||
        !(secs = cJSON_AddArrayToObject(o, "sections"))) {
        cJSON_Delete(o);
        return NULL;
    }
    for (int k = 0; k < CB_RULES_SECTIONS; k++) {
        const cb_rules_section *s = &rules->sections[k];
        cJSON *sec = cJSON_CreateObject();
        if (!sec || !cJSON_AddItemToArray(secs, sec) ||
            !cJSON_AddStringToObject(sec, "heading", s->heading ? s->heading : "") ||
            !cJSON_AddStringToObject(sec, "shared", s->shared ? s->shared : "") ||
            !cJSON_AddStringToObject(sec, "own", s->own ? s->own : "")) {
            cJSON_Delete(o);
            return NULL;
        }
    }
    return o;
}

static cJSON *theme_json(const serve_theme *st)
{
    const cb_theme *t = st->theme;
    cJSON *o = cJSON_CreateObject(), *types = NULL, *missions = NULL;
    if (!o || !cJSON_AddStringToObject(o, "name", st->name) ||
        !cJSON_AddStringToObject(o, "title", t->name ? t->name : st->name) ||
        !cJSON_AddBoolToObject(o, "first_game", t->first_game >= 0) ||
        !(types = cJSON_AddArrayToObject(o, "node_types")) ||
        !(missions = cJSON_AddArrayToObject(o, "missions")))
        goto fail;
    for (size_t k = 0; k < t->n_types; k++) {
        cJSON *ty = cJSON_CreateObject();
        if (!ty || !cJSON_AddItemToArray(types, ty) ||
            !cJSON_AddStringToObject(ty, "name", t->types[k].name) ||
            !cJSON_AddStringToObject(ty, "action", t->types[k].action ? t->types[k].action : ""))
            goto fail;
    }
    for (size_t k = 0; k < t->n_missions; k++) {
        cJSON *m = cJSON_CreateObject();
        if (!m || !cJSON_AddItemToArray(missions, m) ||
            !cJSON_AddStringToObject(m, "name", t->missions[k].name) ||
            !cJSON_AddStringToObject(m, "text", t->missions[k].text ? t->missions[k].text : ""))
            goto fail;
    }
    if (t->rules) {
        cJSON *r = rules_json(t->rules);
        if (!r || !cJSON_AddItemToObject(o, "rules", r)) {
            cJSON_Delete(r);
            goto fail;
        }
    } else if (!cJSON_AddNullToObject(o, "rules")) {
        goto fail;
    }
    return o;
fail:
    cJSON_Delete(o);
    return NULL;
}

static void themes(const cb_serve *s, cb_serve_response *r)
{
    cJSON *o = cJSON_CreateObject(), *arr = NULL;
    if (!o || !cJSON_AddStringToObject(o, "default", s->themes[s->default_theme].name) ||
        !(arr = cJSON_AddArrayToObject(o, "themes"))) {
        cJSON_Delete(o);
        respond_json(r, 500, NULL);
        return;
    }
    for (size_t k = 0; k < s->n_themes; k++) {
        cJSON *t = theme_json(&s->themes[k]);
        if (!t || !cJSON_AddItemToArray(arr, t)) {
            cJSON_Delete(t);
            cJSON_Delete(o);
            respond_json(r, 500, NULL);
            return;
        }
    }
    respond_json(r, 200, o);
}

static void health(const cb_serve *s, cb_serve_response *r)
{
    cJSON *o = cJSON_CreateObject();
    if (o && (!cJSON_AddStringToObject(o, "status", "ok") ||
              !cJSON_AddStringToObject(o, "version", CB_VERSION) ||
              !cJSON_AddNumberToObject(o, "themes", (double)s->n_themes) ||
              !cJSON_AddNumberToObject(o, "max_nodes", (double)s->max_nodes))) {
        cJSON_Delete(o);
        o = NULL;
    }
    respond_json(r, 200, o);
}

/* ---- /api/game ---- */

typedef struct {
    const cb_serve_request *req;
    int stopped;
} stop_state;

static int stop_asked(void *ctx)
{
    stop_state *st = ctx;
    if (!st->stopped && st->req->stop && st->req->stop(st->req->stop_ctx))
        st->stopped = 1;
    return st->stopped;
}

/* Every sheet's SVG in one object, for the page's preview. */
static void preview(const cb_game *g, const cb_theme *theme, const cb_render_options *opt,
                    cb_serve_response *r)
{
    cb_error err = {CB_OK, "", 0, ""};
    cJSON *o = cJSON_CreateObject(), *sheets = NULL;
    size_t nodes = 0, edges = 0;
    if (!o || !cJSON_AddStringToObject(o, "seed", g->seed) ||
        !cJSON_AddNumberToObject(o, "players", g->players) ||
        !cJSON_AddBoolToObject(o, "shared", g->shared) ||
        !(sheets = cJSON_AddArrayToObject(o, "sheets"))) {
        cJSON_Delete(o);
        respond_json(r, 500, NULL);
        return;
    }
    for (size_t k = 0; k < g->n_sheets; k++) {
        char *svg = NULL;
        size_t len = 0;
        if (cb_svg_render(g, k, theme, opt, &svg, &len, &err) != CB_OK) {
            cJSON_Delete(o);
            library_error(r, &err);
            return;
        }
        cJSON *str = cJSON_CreateString(svg);
        free(svg);
        if (!str || !cJSON_AddItemToArray(sheets, str)) {
            cJSON_Delete(str);
            cJSON_Delete(o);
            respond_json(r, 500, NULL);
            return;
        }
        nodes += g->sheets[k]->n_nodes;
        edges += g->sheets[k]->n_edges;
    }
    if (!cJSON_AddNumberToObject(o, "nodes", (double)nodes) ||
        !cJSON_AddNumberToObject(o, "edges", (double)edges)) {
        cJSON_Delete(o);
        o = NULL;
    }
    respond_json(r, 200, o);
}

static void game(const cb_serve *s, const cb_serve_request *req, const cb_serve_options *o,
                 cb_serve_response *r)
{
    cb_error err = {CB_OK, "", 0, ""};
    const serve_theme *st = find_theme(s, o->theme);
    char msg[512];
    if (!st) {
        snprintf(msg, sizeof msg, "no theme named \"%s\" (see /api/themes)", o->theme);
        cb_serve_error(r, 400, "theme", CB_SERVE_AS_FIELD, msg);
        return;
    }
    if (!o->has_seed) {
        cb_serve_error(r, 400, "seed", CB_SERVE_AS_FIELD, "missing (any text; the same seed gives the "
                                       "same boards)");
        return;
    }
    cb_spec spec;
    cb_spec_defaults(&spec);
    spec.seed = o->seed;
    spec.players = o->players;
    spec.shared = o->shared;
    spec.first_game = o->first_game;
    spec.theme = st->theme;
    if (cb_spec_set_paper(&spec, o->paper, o->portrait, &err) != CB_OK) {
        library_error(r, &err);
        return;
    }
    size_t nodes = cb_spec_nodes(&spec);
    if (nodes > s->max_nodes) {
        snprintf(msg, sizeof msg, "the game would have about %zu nodes; this server makes at "
                 "most %zu a request (smaller paper or fewer sheets; posters: the cutboard "
                 "command)", nodes, s->max_nodes);
        cb_serve_error(r, 422, "paper", CB_SERVE_UNNAMED, msg);
        return;
    }
    if (o->format == CB_SERVE_SVG && o->sheet > (o->shared ? 1 : o->players)) {
        snprintf(msg, sizeof msg, "%d is past the last sheet (%d)", o->sheet,
                 o->shared ? 1 : o->players);
        cb_serve_error(r, 400, "sheet", CB_SERVE_AS_FIELD, msg);
        return;
    }
    stop_state stop = {req, 0};
    spec.stop = stop_asked;
    spec.stop_ctx = &stop;
    cb_game *g = NULL;
    if (cb_game_generate(&spec, &g, &err) != CB_OK) {
        if (err.status == CB_ERR_STOPPED) {
            cb_serve_error(r, 503, "", CB_SERVE_UNNAMED, "the request took longer than this server's time "
                                       "limit");
            r->retry_after = 5;
        } else {
            library_error(r, &err);
        }
        return;
    }
    /* The render options of cli_board_options_init and cli_game_parse. */
    cb_render_options opt;
    memset(&opt, 0, sizeof opt);
    opt.gutter = -1;
    opt.ink_friendly = o->ink_friendly;
    opt.font_path = s->font_path;
    opt.dated = s->dated;
    opt.source_date = s->source_date;
    opt.rules = o->rules;
    char file[120];
    safe_seed(o->seed, file, 80, 1);
    safe_seed(o->seed, r->seed, sizeof r->seed, 0);
    cb_status rc = CB_OK;
    if (o->format == CB_SERVE_PDF) {
        unsigned char *pdf = NULL;
        size_t len = 0;
        if ((rc = cb_pdf_render(g, st->theme, &opt, &pdf, &len, &err)) == CB_OK) {
            r->status = 200;
            r->content_type = "application/pdf";
            r->body = pdf;
            r->len = len;
            snprintf(r->disposition, sizeof r->disposition,
                     "attachment; filename=\"cutboard-%s.pdf\"", file);
        }
    } else if (o->format == CB_SERVE_SVG) {
        char *svg = NULL;
        size_t len = 0;
        opt.rules = CB_RULES_PAGE_NONE;
        if ((rc = cb_svg_render(g, o->sheet ? (size_t)o->sheet - 1 : 0, st->theme, &opt, &svg,
                                &len, &err)) == CB_OK) {
            respond_text(r, 200, "image/svg+xml", svg);
            snprintf(r->disposition, sizeof r->disposition,
                     "inline; filename=\"cutboard-%s-%d.svg\"", file, o->sheet ? o->sheet : 1);
        }
    } else if (o->format == CB_SERVE_JSON) {
        char *json = NULL;
        if ((rc = cb_json_render(g, st->theme, &json, &err)) == CB_OK) {
            respond_text(r, 200, "application/json", json);
            snprintf(r->disposition, sizeof r->disposition,
                     "attachment; filename=\"cutboard-%s.json\"", file);
        }
    } else {
        opt.rules = CB_RULES_PAGE_NONE;
        preview(g, st->theme, &opt, r);
    }
    if (rc != CB_OK)
        library_error(r, &err);
    cb_game_free(g);
}

/* ---- POST /api/check ---- */

static const char *const side_names[] = {"top", "right", "bottom", "left"};

static double tenth(double x)
{
    return round(x * 10) / 10;
}

static cJSON *sheet_verdict(const cb_board *b, size_t k, cb_error *err, int *ok)
{
    cb_verdict v;
    int *cuts = NULL;
    size_t n_cuts = 0;
    if (cb_board_check(b, 2, 4, &v, err) != CB_OK)
        return NULL;
    if (cb_board_shortest_cuts(b, &cuts, &n_cuts, err) != CB_OK) {
        if (err->status != CB_ERR_DATA)
            return NULL;
        cuts = NULL; /* a node outside the trim: no pieces, no cut figures */
        n_cuts = 0;
    }
    *ok = v.ok;
    cJSON *o = cJSON_CreateObject(), *starts = NULL;
    int lo = -1, hi = -1;
    if (!o || !cJSON_AddNumberToObject(o, "sheet", (double)(k + 1)) ||
        !cJSON_AddStringToObject(o, "seed", b->seed ? b->seed : "") ||
        !cJSON_AddBoolToObject(o, "ok", v.ok) ||
        !cJSON_AddStringToObject(o, "failure", v.ok ? "" : v.failure) ||
        !cJSON_AddNumberToObject(o, "nodes", (double)b->n_nodes) ||
        !cJSON_AddNumberToObject(o, "edges", (double)b->n_edges) ||
        !cJSON_AddNumberToObject(o, "faces", (double)v.faces) ||
        !cJSON_AddNumberToObject(o, "largest_piece_mm2", tenth(v.largest_piece)) ||
        !cJSON_AddNumberToObject(o, "smallest_piece_mm2", tenth(v.smallest_piece)) ||
        !cJSON_AddNumberToObject(o, "shortest_visible_edge_mm", tenth(v.shortest_visible)) ||
        !cJSON_AddBoolToObject(o, "planar", v.planar) ||
        !cJSON_AddNumberToObject(o, "hop_min", v.hop_min) ||
        !cJSON_AddNumberToObject(o, "hop_max", v.hop_max) ||
        !cJSON_AddNumberToObject(o, "min_disjoint_paths", v.min_disjoint) ||
        !(starts = cJSON_AddArrayToObject(o, "starts")))
        goto fail;
    int ks = 0;
    for (uint32_t i = 0; i < b->n_nodes; i++) {
        const cb_node *nd = &b->nodes[i];
        if (nd->kind != CB_KIND_START)
            continue;
        int cut = cuts && (size_t)ks < n_cuts ? cuts[ks] : -1;
        if (cut >= 0) {
            lo = lo < 0 || cut < lo ? cut : lo;
            hi = cut > hi ? cut : hi;
        }
        cJSON *s = cJSON_CreateObject();
        if (!s || !cJSON_AddItemToArray(starts, s) ||
            !cJSON_AddNumberToObject(s, "node", i) ||
            !cJSON_AddStringToObject(s, "side", nd->side >= 0 && nd->side <= 3
                                                    ? side_names[nd->side] : "") ||
            !cJSON_AddNumberToObject(s, "hops", ks < CB_VERDICT_STARTS ? v.hops[ks] : -1) ||
            !cJSON_AddNumberToObject(s, "paths",
                                     ks < CB_VERDICT_STARTS ? v.disjoint[ks] : -1) ||
            !cJSON_AddNumberToObject(s, "cut", cut))
            goto fail;
        ks++;
    }
    if (!cJSON_AddNumberToObject(o, "cut_min", lo) || !cJSON_AddNumberToObject(o, "cut_max", hi))
        goto fail;
    if (v.dots && (!cJSON_AddNumberToObject(o, "dots", (double)v.dots) ||
                   !cJSON_AddNumberToObject(o, "dot_diameter_mm", tenth(v.dot_diameter)) ||
                   !cJSON_AddNumberToObject(o, "dot_margin_mm",
                                            round(v.dot_margin * 100) / 100)))
        goto fail;
    free(cuts);
    return o;
fail:
    free(cuts);
    cJSON_Delete(o);
    cb_fail_nomem(err, NULL);
    return NULL;
}

static void check(const cb_serve *s, const cb_serve_request *req, cb_serve_response *r)
{
    cb_serve_options o;
    cb_serve_fault f;
    cb_serve_options_defaults(&o);
    if (req->query && cb_serve_parse_query(req->query, strlen(req->query), 0, &o, &f) != 0) {
        cb_serve_error(r, f.status, f.field, f.naming, f.message);
        return;
    }
    const serve_theme *st = find_theme(s, o.theme);
    if (!st) {
        cb_serve_error(r, 400, "theme", CB_SERVE_AS_FIELD, "no such theme (see /api/themes)");
        return;
    }
    if (req->body_len == 0) {
        cb_serve_error(r, 400, "", CB_SERVE_UNNAMED, "no board file: POST a cutboard/1 board file or an OBJ "
                                   "drawing");
        return;
    }
    cb_error err = {CB_OK, "", 0, ""};
    cb_game *g = NULL;
    if (cb_game_parse(req->body, req->body_len, "board", st->theme, &g, &err) != CB_OK) {
        cb_serve_error(r, err.status == CB_ERR_NOMEM || err.status == CB_ERR_INTERNAL ? 500 : 422,
                       "", CB_SERVE_UNNAMED, err.message);
        return;
    }
    cJSON *o_json = cJSON_CreateObject(), *sheets = NULL;
    int all = 1;
    if (!o_json || !(sheets = cJSON_AddArrayToObject(o_json, "sheets"))) {
        cJSON_Delete(o_json);
        cb_game_free(g);
        respond_json(r, 500, NULL);
        return;
    }
    for (size_t k = 0; k < g->n_sheets; k++) {
        int ok = 0;
        cJSON *v = sheet_verdict(g->sheets[k], k, &err, &ok);
        if (!v || !cJSON_AddItemToArray(sheets, v)) {
            cJSON_Delete(v);
            cJSON_Delete(o_json);
            cb_game_free(g);
            library_error(r, &err);
            return;
        }
        all &= ok;
    }
    cb_game_free(g);
    /* "ok" first would read better; cJSON appends, so it goes last. */
    if (!cJSON_AddBoolToObject(o_json, "ok", all)) {
        cJSON_Delete(o_json);
        o_json = NULL;
    }
    respond_json(r, 200, o_json);
}

/* ---- routing ---- */

static int is(const char *a, const char *b)
{
    return a && strcmp(a, b) == 0;
}

void cb_serve_handle(const cb_serve *s, const cb_serve_request *req, cb_serve_response *r)
{
    memset(r, 0, sizeof *r);
    const char *m = req->method ? req->method : "";
    int get = is(m, "GET") || is(m, "HEAD"), post = is(m, "POST");
    const char *path = req->path ? req->path : "";
    const char *query = req->query ? req->query : "";
    if (is(path, "/") || is(path, "/index.html")) {
        if (!get) {
            r->allow = "GET, HEAD";
            cb_serve_error(r, 405, "", CB_SERVE_UNNAMED, "method not allowed (GET /)");
            return;
        }
        respond_static(r, 200, "text/html; charset=utf-8", cb_serve_page, cb_serve_page_len);
    } else if (is(path, "/api/health") || is(path, "/api/themes")) {
        if (!get) {
            r->allow = "GET, HEAD";
            cb_serve_error(r, 405, "", CB_SERVE_UNNAMED, "method not allowed (GET only)");
        } else if (is(path, "/api/health")) {
            health(s, r);
        } else {
            themes(s, r);
        }
    } else if (is(path, "/api/game")) {
        cb_serve_options o;
        cb_serve_fault f;
        cb_serve_options_defaults(&o);
        if (!get && !post) {
            r->allow = "GET, HEAD, POST";
            cb_serve_error(r, 405, "", CB_SERVE_UNNAMED, "method not allowed (GET or POST /api/game)");
            return;
        }
        int bad = cb_serve_parse_query(query, strlen(query), post, &o, &f) != 0;
        if (!bad && post)
            bad = cb_serve_parse_json(req->body ? req->body : "", req->body_len, &o, &f) != 0;
        if (bad)
            cb_serve_error(r, f.status, f.field, f.naming, f.message);
        else
            game(s, req, &o, r);
    } else if (is(path, "/api/check")) {
        if (!post) {
            r->allow = "POST";
            cb_serve_error(r, 405, "", CB_SERVE_UNNAMED, "method not allowed (POST a board file to /api/check)");
            return;
        }
        check(s, req, r);
    } else {
        cb_serve_error(r, 404, "", CB_SERVE_UNNAMED, "not found (the page is /, the API under /api/: game, "
                                   "check, themes, health)");
    }
}
