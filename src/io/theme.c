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
    }
    for (size_t i = 0; i < t->n_missions; i++) {
        free(t->missions[i].name);
        free(t->missions[i].icon);
    }
    free(t->center.name);
    free(t->center.icon);
    free(t->types);
    free(t->missions);
    free(t->name);
    free(t->dir);
    free(t);
}

static char *read_file(const char *path, size_t limit, size_t *len, cb_error *err,
                       cb_status *st)
{
    FILE *f;
    off_t size;
    int e = cb_input_open(path, &f, &size);
    if (e == ENOMEM) {
        *st = cb_fail(err, CB_ERR_INTERNAL, "%s: out of memory opening it", path);
        return NULL;
    }
    if (e != 0) {
        *st = cb_fail(err, CB_ERR_NOINPUT, "%s: cannot open: %s", path,
                      e > 0 ? strerror(e) : "not a regular file");
        return NULL;
    }
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
    if (!buf || bad) {
        free(buf);
        *st = cb_fail(err, buf ? CB_ERR_NOINPUT : CB_ERR_INTERNAL, "%s: cannot read", path);
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
        l->st = cb_fail(l->err, CB_ERR_INTERNAL, "out of memory");
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
        l->st = cb_fail(l->err, CB_ERR_INTERNAL, "out of memory");
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
static const char *const mission_keys[] = {"name", "icon", "color", NULL};
static const char *const top_keys[] = {"format", "name", "center", "node_types",
                                       "missions", NULL};

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

static int load_mission(loader *l, const cJSON *obj, const char *where, cb_mission *m)
{
    if (!cJSON_IsObject(obj))
        return bad(l, where, "must be an object");
    if (known_keys(l, obj, mission_keys, where) != 0 ||
        get_string(l, obj, "name", where, &m->name) != 0 ||
        get_color(l, obj, where, m->rgb) != 0 || get_icon(l, obj, where, &m->icon) != 0)
        return -1;
    return 0;
}

static int load_type(loader *l, const cJSON *obj, const char *where, cb_node_type *t)
{
    double min, max, run, lo, hi;
    if (!cJSON_IsObject(obj))
        return bad(l, where, "must be an object");
    if (known_keys(l, obj, type_keys, where) != 0 ||
        get_string(l, obj, "name", where, &t->name) != 0 ||
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
    return 0;
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
        return cb_fail(err, CB_ERR_INTERNAL, "out of memory");
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
        return cb_fail(err, CB_ERR_INTERNAL, "out of memory");
    loader l = {path, dir, check_icons, err, CB_OK};
    cb_theme *t = NULL;
    const char *end = NULL;
    int oom;
    cJSON *root = cb_json_parse(text, len, &end, &oom);
    if (!root && oom) {
        l.st = cb_fail(err, CB_ERR_INTERNAL, "%s: out of memory reading it", path);
        goto done;
    }
    if (!root) {
        size_t off = end ? (size_t)(end - text) : 0;
        l.st = cb_fail(err, CB_ERR_DATA, "%s:%d: not valid JSON", path, line_of(text, len, off));
        goto done;
    }
    if (!cJSON_IsObject(root)) {
        bad(&l, "top level", "must be an object");
        goto done;
    }
    const cJSON *format = cJSON_GetObjectItemCaseSensitive(root, "format");
    if (!cJSON_IsString(format) || strcmp(format->valuestring, "cutboard-theme/1") != 0) {
        bad(&l, "format", "must be \"cutboard-theme/1\"");
        goto done;
    }
    if (known_keys(&l, root, top_keys, "top level") != 0)
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
        l.st = cb_fail(err, CB_ERR_INTERNAL, "out of memory");
        goto done;
    }
    if (get_string(&l, root, "name", "top level", &t->name) != 0 ||
        load_mission(&l, center, "center", &t->center) != 0)
        goto done;
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
        if (load_mission(&l, cJSON_GetArrayItem(missions, i), where, &t->missions[i]) != 0)
            goto done;
        for (int j = 0; j < i; j++)
            if (strcmp(t->missions[j].name, t->missions[i].name) == 0) {
                l.st = cb_fail(err, CB_ERR_DATA, "%s: %s: mission \"%.60s\" is named twice",
                               path, where, t->missions[i].name);
                goto done;
            }
    }
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
