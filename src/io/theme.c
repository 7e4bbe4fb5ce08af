/* The theme file: node types and missions with their icons and rules. */
#include <cjson/cJSON.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "base/error.h"
#include "base/utf8.h"
#include "io/icon_cache.h"
#include "io/input.h"
#include "io/jsonparse.h"
#include "io/theme.h"

#define MAX_TYPES 64

void cb_theme_free(cb_theme *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->n_types; i++) {
        free(t->types[i].name);
        free(t->types[i].icon);
        free(t->types[i].action);
        free(t->types[i].short_label);
        free(t->types[i].number_rule);
    }
    for (size_t i = 0; i < t->n_missions; i++) {
        free(t->missions[i].name);
        free(t->missions[i].icon);
        free(t->missions[i].text);
    }
    free(t->center.name);
    free(t->center.icon);
    free(t->center.text);
    if (t->rules) {
        free(t->rules->title);
        free(t->rules->summary);
        free(t->rules->cut_example);
        for (int k = 0; k < CB_RULES_SECTIONS; k++) {
            free(t->rules->sections[k].heading);
            free(t->rules->sections[k].shared);
            free(t->rules->sections[k].own);
        }
        free(t->rules);
    }
    free(t->types);
    free(t->missions);
    free(t->name);
    free(t->dir);
    cb_icon_cache_free(t->icon_cache);
    free(t);
}

static char *read_file(const char *path, size_t limit, size_t *len, cb_error *err,
                       cb_status *st)
{
    FILE *f;
    off_t size;
    if ((*st = cb_input_open("", path, &f, &size, err)) != CB_OK)
        return NULL;
    /* The size is checked before anything is read or allocated. */
    if ((uintmax_t)size > limit) {
        fclose(f);
        *st = cb_fail(err, CB_ERR_DATA, "%s: %jd bytes, larger than the %zu allowed", path,
                      (intmax_t)size, limit);
        return NULL;
    }
    char *buf = malloc(limit + 1);
    size_t n = buf ? fread(buf, 1, limit + 1, f) : 0;
    int bad = ferror(f);
    fclose(f);
    if (!buf) {
        *st = cb_fail(err, CB_ERR_NOMEM, "%s: out of memory reading it", path);
        return NULL;
    }
    if (bad) {
        free(buf);
        *st = cb_fail(err, CB_ERR_NOINPUT, "%s: cannot read", path);
        return NULL;
    }
    if (n > limit) { /* it grew while we read it */
        free(buf);
        *st = cb_fail(err, CB_ERR_DATA, "%s: larger than %zu bytes", path, limit);
        return NULL;
    }
    buf[n] = 0;
    *len = n;
    return buf;
}

/* Line number of byte offset OFF in TEXT, for error messages. */
static int line_of(const char *text, size_t len, size_t off)
{
    int line = 1;
    for (size_t i = 0; i < off && i < len && text[i]; i++)
        line += text[i] == '\n';
    return line;
}

typedef struct {
    const char *path, *dir;
    int check_icons;
    int version;      /* the file's format: 1, 2 or 3 */
    const char *centre; /* the centre's name, for the sentences /3 writes */
    cb_error *err;
    cb_status st;
} loader;

static int bad(loader *l, const char *where, const char *what)
{
    l->st = cb_fail(l->err, CB_ERR_DATA, "%s: %s: %s", l->path, where, what);
    return -1;
}

static int get_string(loader *l, const cJSON *obj, const char *key, const char *where,
                      char **out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    char msg[96];
    if (!cJSON_IsString(v) || !v->valuestring[0]) {
        snprintf(msg, sizeof msg, "\"%s\" must be a non-empty string", key);
        return bad(l, where, msg);
    }
    *out = strdup(v->valuestring);
    if (!*out) {
        l->st = cb_fail(l->err, CB_ERR_NOMEM, "out of memory");
        return -1;
    }
    return 0;
}

static int get_number(loader *l, const cJSON *obj, const char *key, const char *where,
                      double lo, double hi, double fallback, double *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    char msg[128];
    if (!v) {
        if (isnan(fallback)) {
            snprintf(msg, sizeof msg, "\"%s\" is missing", key);
            return bad(l, where, msg);
        }
        *out = fallback;
        return 0;
    }
    if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) || v->valuedouble < lo ||
        v->valuedouble > hi) {
        snprintf(msg, sizeof msg, "\"%s\" must be a number from %g to %g", key, lo, hi);
        return bad(l, where, msg);
    }
    *out = v->valuedouble;
    return 0;
}

static int get_color(loader *l, const cJSON *obj, const char *where, double rgb[3])
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, "color");
    unsigned r, g, b;
    char tail;
    /* sscanf's %x alone would take "#33-288" (a sign) or "# 1 2 3". */
    int hex = cJSON_IsString(v) && strlen(v->valuestring) == 7 && v->valuestring[0] == '#';
    for (int i = 1; hex && i < 7; i++)
        hex = isxdigit((unsigned char)v->valuestring[i]) != 0;
    if (!hex || sscanf(v->valuestring, "#%2x%2x%2x%c", &r, &g, &b, &tail) != 3)
        return bad(l, where, "\"color\" must be \"#RRGGBB\"");
    rgb[0] = r / 255.0;
    rgb[1] = g / 255.0;
    rgb[2] = b / 255.0;
    return 0;
}

/* The icon path resolved against the theme folder; it must be a file. */
static int get_icon(loader *l, const cJSON *obj, const char *where, char **out)
{
    char *name;
    if (get_string(l, obj, "icon", where, &name) != 0)
        return -1;
    if (strstr(name, "..") || name[0] == '/') {
        free(name);
        return bad(l, where, "\"icon\" must be a file name inside the theme folder");
    }
    size_t len = strlen(l->dir) + strlen(name) + 2;
    *out = malloc(len);
    if (!*out) {
        free(name);
        l->st = cb_fail(l->err, CB_ERR_NOMEM, "out of memory");
        return -1;
    }
    snprintf(*out, len, "%s/%s", l->dir, name);
    free(name);
    struct stat sb;
    if (l->check_icons && (stat(*out, &sb) != 0 || !S_ISREG(sb.st_mode))) {
        l->st = cb_fail(l->err, CB_ERR_NOINPUT, "%s: %s: icon %s is missing", l->path,
                        where, *out);
        return -1;
    }
    return 0;
}

static const char *const type_keys[] = {
    "name", "icon", "color", "probability", "min", "max", "min_edge_distance",
    "max_edge_distance", "on_edge", "max_run", NULL};
static const char *const type_keys2[] = {
    "name", "icon", "color", "probability", "min", "max", "min_edge_distance",
    "max_edge_distance", "on_edge", "max_run", "action", "short", "number", NULL};
static const char *const mission_keys[] = {"name", "icon", "color", NULL};
static const char *const mission_keys2[] = {"name", "icon", "color", "goal", NULL};
static const char *const type_keys3[] = {
    "name", "icon", "color", "probability", "min", "max", "min_edge_distance",
    "max_edge_distance", "on_edge", "max_run", "action", "short", "number", "effect", NULL};
static const char *const mission_keys3[] = {"name", "icon", "color", "goal", "shared_goal",
                                            "text", NULL};
static const char *const top_keys3[] = {"format", "name", "center", "node_types",
                                        "missions", "rules", "first_game", "play", NULL};
static const char *const center_keys2[] = {"name", "icon", "color", "text", NULL};
static const char *const top_keys[] = {"format", "name", "center", "node_types",
                                       "missions", NULL};
static const char *const top_keys2[] = {"format", "name", "center", "node_types",
                                        "missions", "rules", "first_game", NULL};
static const char *const number_keys[] = {"rule", "min", "max", NULL};
static const char *const section_keys[] = {"heading", "text", "shared", "own", NULL};

/* The rules object's sections, in cb_rules_section_id order, with the
 * heading printed when a section gives none. */
static const char *const section_names[CB_RULES_SECTIONS] = {
    "need", "setup", "turn", "cutting", "losing", "winning", "dots"};
static const char *const section_headings[CB_RULES_SECTIONS] = {
    "What you need", "Setup", "A turn", "Cutting", "Losing paper", "Winning", "Power dots"};
static const char *const rules_keys[] = {"title", "summary", "cut_example", "need", "setup",
                                         "turn", "cutting", "losing", "winning", "dots", NULL};
/* A /3 theme gives only these: the other sections are written from its play
 * rules (theme_play.c), so the page says what the engine plays. */
static const char *const rules_keys3[] = {"title", "summary", "cut_example", "need", NULL};

/* Longest "action" (characters) and "short" label (words). */
#define CB_ACTION_MAX 90
#define CB_SHORT_WORDS 3
#define CB_SHORT_MAX 24
#define CB_TEXT_MAX 2000
/* Longest name of a theme, node type or mission (characters): a mission's
 * sentence may list up to CB_GOAL_SET_MAX of them. */
#define CB_NAME_MAX 32

static int known_keys(loader *l, const cJSON *obj, const char *const *keys, const char *where)
{
    for (const cJSON *c = obj->child; c; c = c->next) {
        int found = 0;
        for (int i = 0; keys[i]; i++)
            found |= c->string && strcmp(c->string, keys[i]) == 0;
        if (!found) {
            char msg[128];
            snprintf(msg, sizeof msg, "unknown key \"%.60s\"", c->string ? c->string : "");
            return bad(l, where, msg);
        }
    }
    return 0;
}

/* Characters (UTF-8 code points) in S. */
static size_t utf8_chars(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

/* A /2 text: a non-empty string of at most MAX characters, without control
 * characters; absent is fine (NULL) unless REQUIRED. */
static int get_text(loader *l, const cJSON *obj, const char *key, const char *where,
                    size_t max, int required, char **out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    char msg[160];
    *out = NULL;
    if (!v && !required)
        return 0;
    if (!v) {
        snprintf(msg, sizeof msg, "\"%s\" is missing (cutboard-theme/2 needs it)", key);
        return bad(l, where, msg);
    }
    if (!cJSON_IsString(v) || !v->valuestring[0]) {
        snprintf(msg, sizeof msg, "\"%s\" must be a non-empty string", key);
        return bad(l, where, msg);
    }
    if (!cb_utf8_valid(v->valuestring)) {
        snprintf(msg, sizeof msg, "\"%s\" is not valid UTF-8", key);
        return bad(l, where, msg);
    }
    for (const unsigned char *c = (const unsigned char *)v->valuestring; *c; c++)
        if (*c >= 0xF0) {
            snprintf(msg, sizeof msg, "\"%s\" holds a character beyond U+FFFF (the PDF "
                     "font cannot show it)", key);
            return bad(l, where, msg);
        } else if (*c < 0x20 || *c == 0x7F) {
            snprintf(msg, sizeof msg, "\"%s\" holds a control character (write one line)",
                     key);
            return bad(l, where, msg);
        }
    if (utf8_chars(v->valuestring) > max) {
        snprintf(msg, sizeof msg, "\"%s\" is %zu characters, longer than the %zu allowed", key,
                 utf8_chars(v->valuestring), max);
        return bad(l, where, msg);
    }
    *out = strdup(v->valuestring);
    if (!*out) {
        l->st = cb_fail(l->err, CB_ERR_NOMEM, "out of memory");
        return -1;
    }
    return 0;
}

/* A name: printed in the legend, the rules and the missions' sentences, so
 * one short line of text. */
static int get_name(loader *l, const cJSON *obj, const char *where, char **out)
{
    if (!cJSON_GetObjectItemCaseSensitive(obj, "name"))
        return bad(l, where, "\"name\" must be a non-empty string");
    return get_text(l, obj, "name", where, CB_NAME_MAX, 1, out);
}

/* A mission (KIND 'm') or the centre ('c'): a /2 mission needs its "goal",
 * the centre its "text". */
static int load_mission(loader *l, const cJSON *obj, const char *where, int kind, cb_mission *m)
{
    if (!cJSON_IsObject(obj))
        return bad(l, where, "must be an object");
    const char *const *keys = l->version < 2 ? mission_keys
                              : kind == 'c'   ? center_keys2
                              : l->version < 3 ? mission_keys2
                                               : mission_keys3;
    if (known_keys(l, obj, keys, where) != 0 ||
        get_name(l, obj, where, &m->name) != 0 ||
        get_color(l, obj, where, m->rgb) != 0 || get_icon(l, obj, where, &m->icon) != 0)
        return -1;
    if (l->version >= 3) {
        char w[160];
        snprintf(w, sizeof w, "%s (%s \"%.40s\")", where, kind == 'c' ? "centre" : "mission",
                 m->name);
        if (get_text(l, obj, "text", w, 240, 0, &m->text) != 0)
            return -1;
        if (kind == 'c')
            return 0;
        /* The goal is read once every node type is known (a set names them). */
        return 0;
    }
    if (l->version >= 2) {
        char w[160];
        snprintf(w, sizeof w, "%s (%s \"%.40s\")", where, kind == 'c' ? "centre" : "mission",
                 m->name);
        if (get_text(l, obj, kind == 'c' ? "text" : "goal", w, 240, 1, &m->text) != 0)
            return -1;
    }
    return 0;
}

/* A /3 type's "effect"; the texts come from it when the theme gives none. */
static int load_type_effect(loader *l, const cJSON *obj, const char *where, cb_node_type *t)
{
    const cJSON *e = cJSON_GetObjectItemCaseSensitive(obj, "effect");
    if (!e)
        return bad(l, where, "\"effect\" is missing (cutboard-theme/3 needs it)");
    l->st = cb_theme_read_effect(e, l->path, where, &t->effect, l->err);
    return l->st == CB_OK ? 0 : -1;
}

/* A /3 type's "action" and "short": written from its effect when absent;
 * an "action" the theme writes must name the effect's number, so that the
 * page and the engine cannot disagree on it. */
static int effect_texts(loader *l, const char *where, cb_node_type *t)
{
    char text[128], msg[200];
    if (t->action && t->effect.n > 0) {
        char digits[16];
        snprintf(digits, sizeof digits, "%d", t->effect.n);
        const char *hit = strstr(t->action, digits);
        if (!hit || (hit[1] >= '0' && hit[1] <= '9') ||
            (hit > t->action && hit[-1] >= '0' && hit[-1] <= '9')) {
            snprintf(msg, sizeof msg, "\"action\" does not say the effect's number %d (write "
                     "it, or leave \"action\" out to have it written from the effect)",
                     t->effect.n);
            return bad(l, where, msg);
        }
    }
    if (!t->action) {
        cb_effect_sentence(&t->effect, text, sizeof text);
        if (!(t->action = strdup(text)) || cb_theme_name_centre(&t->action, l->centre) != 0)
            goto oom;
    }
    if (!t->short_label) {
        cb_effect_short(&t->effect, text, sizeof text);
        if (!(t->short_label = strdup(text)))
            goto oom;
    }
    return 0;
oom:
    l->st = cb_fail(l->err, CB_ERR_NOMEM, "out of memory");
    return -1;
}

/* The /2 fields of node type T: "action", "short" and the optional "number". */
static int load_type_texts(loader *l, const cJSON *obj, const char *where, cb_node_type *t)
{
    char w[160], msg[128];
    snprintf(w, sizeof w, "%s (node type \"%.40s\")", where, t->name);
    if (l->version >= 3 && load_type_effect(l, obj, w, t) != 0)
        return -1;
    int required = l->version < 3;
    if (get_text(l, obj, "action", w, CB_ACTION_MAX, required, &t->action) != 0 ||
        get_text(l, obj, "short", w, CB_SHORT_MAX, required, &t->short_label) != 0 ||
        (!required && effect_texts(l, w, t) != 0))
        return -1;
    int words = 0;
    for (const char *c = t->short_label; *c; c++)
        words += *c != ' ' && (c == t->short_label || c[-1] == ' ');
    if (words < 1 || words > CB_SHORT_WORDS || t->short_label[0] == ' ' ||
        t->short_label[strlen(t->short_label) - 1] == ' ') {
        snprintf(msg, sizeof msg, "\"short\" must be 1 to %d words (it is \"%.30s\")",
                 CB_SHORT_WORDS, t->short_label);
        return bad(l, w, msg);
    }
    const cJSON *num = cJSON_GetObjectItemCaseSensitive(obj, "number");
    if (!num)
        return 0;
    char nw[192];
    snprintf(nw, sizeof nw, "%s.number (node type \"%.40s\")", where, t->name);
    if (!cJSON_IsObject(num))
        return bad(l, w, "\"number\" must be an object: {\"rule\", \"min\", \"max\"}");
    double lo, hi;
    if (known_keys(l, num, number_keys, nw) != 0 ||
        get_text(l, num, "rule", nw, CB_ACTION_MAX, 1, &t->number_rule) != 0 ||
        get_number(l, num, "min", nw, 1, 99, NAN, &lo) != 0 ||
        get_number(l, num, "max", nw, 1, 99, NAN, &hi) != 0)
        return -1;
    if (lo > hi || lo != floor(lo) || hi != floor(hi))
        return bad(l, nw, "\"min\" and \"max\" must be whole numbers, min <= max");
    t->number_min = (int)lo;
    t->number_max = (int)hi;
    return 0;
}

/* The /2 "rules" object: title, summary and every section, each a string
 * (both modes) or {"heading", "text"} or {"heading", "shared", "own"}. */
static int load_rules(loader *l, const cJSON *obj, cb_rules *r)
{
    if (!obj)
        return bad(l, "top level", "\"rules\" is missing (cutboard-theme/2 needs it)");
    if (!cJSON_IsObject(obj))
        return bad(l, "rules", "must be an object");
    if (known_keys(l, obj, l->version >= 3 ? rules_keys3 : rules_keys, "rules") != 0 ||
        get_text(l, obj, "title", "rules", 60, 1, &r->title) != 0 ||
        get_text(l, obj, "summary", "rules", 200, 1, &r->summary) != 0 ||
        get_text(l, obj, "cut_example", "rules", 200, 0, &r->cut_example) != 0)
        return -1;
    for (int k = 0; k < CB_RULES_SECTIONS; k++) {
        cb_rules_section *sec = &r->sections[k];
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, section_names[k]);
        char w[64], msg[160];
        snprintf(w, sizeof w, "rules.%s", section_names[k]);
        if (!v && l->version >= 3 && k != CB_RULES_NEED) {
            if (!(sec->heading = strdup(section_headings[k]))) {
                l->st = cb_fail(l->err, CB_ERR_NOMEM, "out of memory");
                return -1;
            }
            continue;
        }
        if (!v) {
            snprintf(msg, sizeof msg, "section \"%s\" is missing", section_names[k]);
            return bad(l, "rules", msg);
        }
        if (cJSON_IsString(v)) {
            if (get_text(l, obj, section_names[k], "rules", CB_TEXT_MAX, 1, &sec->shared) != 0 ||
                get_text(l, obj, section_names[k], "rules", CB_TEXT_MAX, 1, &sec->own) != 0)
                return -1;
        } else if (cJSON_IsObject(v)) {
            if (known_keys(l, v, section_keys, w) != 0 ||
                get_text(l, v, "heading", w, 40, 0, &sec->heading) != 0)
                return -1;
            const cJSON *text = cJSON_GetObjectItemCaseSensitive(v, "text");
            int sh = cJSON_GetObjectItemCaseSensitive(v, "shared") != NULL;
            int own = cJSON_GetObjectItemCaseSensitive(v, "own") != NULL;
            if (text && (sh || own))
                return bad(l, w, "give \"text\" (both modes) or \"shared\" and \"own\", "
                                 "not both");
            if (text) {
                if (get_text(l, v, "text", w, CB_TEXT_MAX, 1, &sec->shared) != 0 ||
                    get_text(l, v, "text", w, CB_TEXT_MAX, 1, &sec->own) != 0)
                    return -1;
            } else if (!sh || !own) {
                return bad(l, w, "needs \"text\", or both \"shared\" (one board for the "
                                 "table) and \"own\" (one sheet per player)");
            } else if (get_text(l, v, "shared", w, CB_TEXT_MAX, 1, &sec->shared) != 0 ||
                       get_text(l, v, "own", w, CB_TEXT_MAX, 1, &sec->own) != 0) {
                return -1;
            }
        } else {
            return bad(l, w, "must be a string or an object");
        }
        if (!sec->heading && !(sec->heading = strdup(section_headings[k]))) {
            l->st = cb_fail(l->err, CB_ERR_NOMEM, "out of memory");
            return -1;
        }
    }
    return 0;
}

static int load_type(loader *l, const cJSON *obj, const char *where, cb_node_type *t)
{
    double min, max, run, lo, hi;
    if (!cJSON_IsObject(obj))
        return bad(l, where, "must be an object");
    if (known_keys(l, obj, l->version < 2 ? type_keys : l->version < 3 ? type_keys2 : type_keys3,
                   where) != 0 ||
        get_name(l, obj, where, &t->name) != 0 ||
        get_color(l, obj, where, t->rgb) != 0 || get_icon(l, obj, where, &t->icon) != 0 ||
        get_number(l, obj, "probability", where, 0, 1e6, NAN, &t->probability) != 0 ||
        get_number(l, obj, "min", where, 0, 1e6, 0, &min) != 0 ||
        get_number(l, obj, "max", where, 0, 1e6, 1e6, &max) != 0 ||
        get_number(l, obj, "min_edge_distance", where, 0, 1, 0, &lo) != 0 ||
        get_number(l, obj, "max_edge_distance", where, 0, 1, 1, &hi) != 0 ||
        get_number(l, obj, "max_run", where, 1, 1e6, 1e6, &run) != 0)
        return -1;
    if (min > max)
        return bad(l, where, "\"min\" is larger than \"max\"");
    if (lo > hi)
        return bad(l, where, "\"min_edge_distance\" is larger than \"max_edge_distance\"");
    const cJSON *edge = cJSON_GetObjectItemCaseSensitive(obj, "on_edge");
    if (edge && !cJSON_IsBool(edge))
        return bad(l, where, "\"on_edge\" must be true or false");
    t->on_edge = !edge || cJSON_IsTrue(edge);
    t->min = (int)min;
    t->max = (int)max;
    t->max_run = (int)run;
    t->min_edge = lo;
    t->max_edge = hi;
    return l->version >= 2 ? load_type_texts(l, obj, where, t) : 0;
}

/* The /3 parts read once the types are known: each mission's goal (and its
 * text, written from the goal when the theme gives none), the centre's text,
 * the play rules and the rules sections written from them. */
static int load_play(loader *l, const cJSON *root, cb_theme *t)
{
    const cJSON *missions = cJSON_GetObjectItemCaseSensitive(root, "missions");
    char text[1024];
    for (size_t i = 0; i < t->n_missions; i++) {
        cb_mission *m = &t->missions[i];
        char where[160];
        snprintf(where, sizeof where, "missions[%zu] (mission \"%.40s\")", i, m->name);
        const cJSON *goal = cJSON_GetObjectItemCaseSensitive(
            cJSON_GetArrayItem(missions, (int)i), "goal");
        if (!goal)
            return bad(l, where, "\"goal\" is missing (cutboard-theme/3 needs it)");
        if ((l->st = cb_theme_read_goal(goal, t, l->path, where, &m->goal, l->err)) != CB_OK)
            return -1;
        const cJSON *shared = cJSON_GetObjectItemCaseSensitive(
            cJSON_GetArrayItem(missions, (int)i), "shared_goal");
        if (shared) {
            char where_shared[200];
            snprintf(where_shared, sizeof where_shared, "%s \"shared_goal\"", where);
            if ((l->st = cb_theme_read_goal(shared, t, l->path, where_shared, &m->shared_goal,
                                            l->err)) != CB_OK)
                return -1;
            m->has_shared_goal = 1;
        }
        if (m->text && cb_mission_per_game(m))
            return bad(l, where, "a goal whose number is the game's (\"plus\", \"n\" by "
                                 "players, or a \"shared_goal\") is written per game by "
                                 "cutboard: leave out \"text\"");
        if (!m->text) {
            cb_goal_sentence(t, &m->goal, 0, 0, text, sizeof text);
            if (m->has_shared_goal) { /* no game known: both, when they read apart */
                char own[sizeof text / 2 - 40], on_shared[sizeof own];
                cb_goal_sentence(t, &m->goal, 0, 0, own, sizeof own);
                cb_goal_sentence(t, &m->shared_goal, 0, 0, on_shared, sizeof on_shared);
                if (strcmp(own, on_shared) != 0)
                    snprintf(text, sizeof text, "On your own sheet: %s On a shared board: %s",
                             own, on_shared);
            }
            if (!(m->text = strdup(text)) || cb_theme_name_centre(&m->text, t->center.name) != 0)
                goto oom;
        }
    }
    if (!t->center.text &&
        !(t->center.text = strdup("The goal in the middle: enter it with your mission "
                                  "done.")))
        goto oom;
    if ((l->st = cb_theme_read_play(cJSON_GetObjectItemCaseSensitive(root, "play"), l->path,
                                    &t->play, l->err)) != CB_OK)
        return -1;
    if (cb_theme_write_rules(t) != 0)
        goto oom;
    return 0;
oom:
    l->st = cb_fail(l->err, CB_ERR_NOMEM, "out of memory");
    return -1;
}

static char *theme_path(const char *dir)
{
    size_t plen = strlen(dir) + sizeof "/theme.json";
    char *path = malloc(plen);
    if (path)
        snprintf(path, plen, "%s/theme.json", dir);
    return path;
}

cb_status cb_theme_load(const char *dir, cb_theme **out, cb_error *err)
{
    *out = NULL;
    char *path = theme_path(dir);
    if (!path)
        return cb_fail(err, CB_ERR_NOMEM, "out of memory");
    size_t len;
    cb_status st = CB_OK;
    char *text = read_file(path, CB_MAX_THEME_BYTES, &len, err, &st);
    free(path);
    if (!text)
        return st;
    st = cb_theme_parse(text, len, dir, 1, out, err);
    free(text);
    return st;
}

cb_status cb_theme_parse(const char *text, size_t len, const char *dir, int check_icons,
                         cb_theme **out, cb_error *err)
{
    *out = NULL;
    if (len > CB_MAX_THEME_BYTES)
        return cb_fail(err, CB_ERR_DATA, "%s/theme.json: %zu bytes, larger than the %d allowed",
                       dir, len, CB_MAX_THEME_BYTES);
    char *path = theme_path(dir);
    if (!path)
        return cb_fail(err, CB_ERR_NOMEM, "out of memory");
    loader l = {path, dir, check_icons, 1, "summit", err, CB_OK};
    cb_theme *t = NULL;
    const char *end = NULL;
    int oom;
    cJSON *root = cb_json_parse(text, len, &end, &oom);
    if (!root && oom) {
        l.st = cb_fail(err, CB_ERR_NOMEM, "%s: out of memory reading it", path);
        goto done;
    }
    if (!root) {
        size_t off = end ? (size_t)(end - text) : 0;
        l.st = cb_fail_line(err, CB_ERR_DATA, line_of(text, len, off), "%s:%d: not valid JSON",
                            path, line_of(text, len, off));
        goto done;
    }
    if (!cJSON_IsObject(root)) {
        bad(&l, "top level", "must be an object");
        goto done;
    }
    const cJSON *format = cJSON_GetObjectItemCaseSensitive(root, "format");
    if (cJSON_IsString(format) && strcmp(format->valuestring, "cutboard-theme/3") == 0)
        l.version = 3;
    else if (cJSON_IsString(format) && strcmp(format->valuestring, "cutboard-theme/2") == 0)
        l.version = 2;
    else if (!cJSON_IsString(format) || strcmp(format->valuestring, "cutboard-theme/1") != 0) {
        bad(&l, "format", "must be \"cutboard-theme/1\", \"cutboard-theme/2\" or "
                          "\"cutboard-theme/3\"");
        goto done;
    }
    if (known_keys(&l, root, l.version < 2 ? top_keys : l.version < 3 ? top_keys2 : top_keys3,
                   "top level") != 0)
        goto done;
    const cJSON *types = cJSON_GetObjectItemCaseSensitive(root, "node_types");
    const cJSON *missions = cJSON_GetObjectItemCaseSensitive(root, "missions");
    const cJSON *center = cJSON_GetObjectItemCaseSensitive(root, "center");
    int nt = cJSON_GetArraySize(types), nm = cJSON_GetArraySize(missions);
    if (!cJSON_IsArray(types) || nt < 1 || nt > MAX_TYPES) {
        bad(&l, "node_types", "must be an array of 1 to 64 node types");
        goto done;
    }
    if (!cJSON_IsArray(missions) || nm < 1 || nm > MAX_TYPES) {
        bad(&l, "missions", "must be an array of 1 to 64 missions");
        goto done;
    }
    t = calloc(1, sizeof *t);
    if (!t || !(t->types = calloc((size_t)nt, sizeof *t->types)) ||
        !(t->missions = calloc((size_t)nm, sizeof *t->missions)) || !(t->dir = strdup(dir))) {
        l.st = cb_fail(err, CB_ERR_NOMEM, "out of memory");
        goto done;
    }
    t->version = l.version;
    t->first_game = -1;
    if (get_name(&l, root, "top level", &t->name) != 0 ||
        load_mission(&l, center, "center", 'c', &t->center) != 0)
        goto done;
    l.centre = t->center.name;
    double weight = 0;
    for (int i = 0; i < nt; i++) {
        char where[48];
        snprintf(where, sizeof where, "node_types[%d]", i);
        t->n_types++; /* counted first, so a half-read entry is freed too */
        if (load_type(&l, cJSON_GetArrayItem(types, i), where, &t->types[i]) != 0)
            goto done;
        for (int j = 0; j < i; j++)
            if (strcmp(t->types[j].name, t->types[i].name) == 0) {
                l.st = cb_fail(err, CB_ERR_DATA, "%s: %s: node type \"%.60s\" is named twice",
                               path, where, t->types[i].name);
                goto done;
            }
        weight += t->types[i].probability;
    }
    if (weight <= 0) {
        bad(&l, "node_types", "the probabilities add up to 0");
        goto done;
    }
    for (int i = 0; i < nm; i++) {
        char where[48];
        snprintf(where, sizeof where, "missions[%d]", i);
        t->n_missions++;
        if (load_mission(&l, cJSON_GetArrayItem(missions, i), where, 'm', &t->missions[i]) != 0)
            goto done;
        for (int j = 0; j < i; j++)
            if (strcmp(t->missions[j].name, t->missions[i].name) == 0) {
                l.st = cb_fail(err, CB_ERR_DATA, "%s: %s: mission \"%.60s\" is named twice",
                               path, where, t->missions[i].name);
                goto done;
            }
    }
    if (l.version >= 2) {
        const cJSON *first = cJSON_GetObjectItemCaseSensitive(root, "first_game");
        if (first && (!cJSON_IsString(first) ||
                      (t->first_game = cb_theme_mission_index(t, first->valuestring)) < 0)) {
            bad(&l, "first_game", "must name one of the theme's missions");
            goto done;
        }
        if (!(t->rules = calloc(1, sizeof *t->rules))) {
            l.st = cb_fail(err, CB_ERR_NOMEM, "out of memory");
            goto done;
        }
        if (load_rules(&l, cJSON_GetObjectItemCaseSensitive(root, "rules"), t->rules) != 0)
            goto done;
    }
    if (l.version >= 3 && load_play(&l, root, t) != 0)
        goto done;
    if (!(t->icon_cache = cb_icon_cache_new()))
        l.st = cb_fail(err, CB_ERR_NOMEM, "out of memory");
done:
    cJSON_Delete(root);
    free(path);
    if (l.st != CB_OK) {
        cb_theme_free(t);
        return l.st;
    }
    *out = t;
    return CB_OK;
}

cb_status cb_theme_cache_dir(cb_theme *theme, const char *dir, cb_error *err)
{
    if (!theme->icon_cache)
        return CB_OK;
    return cb_icon_cache_set_dir(theme->icon_cache, dir, err);
}

int cb_theme_type_index(const cb_theme *t, const char *name)
{
    for (size_t i = 0; t && i < t->n_types; i++)
        if (strcmp(t->types[i].name, name) == 0)
            return (int)i;
    return -1;
}

int cb_theme_mission_index(const cb_theme *t, const char *name)
{
    for (size_t i = 0; t && i < t->n_missions; i++)
        if (strcmp(t->missions[i].name, name) == 0)
            return (int)i;
    return -1;
}
