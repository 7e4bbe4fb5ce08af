/* A game request's options from a query string or a JSON object; see
 * serve.h. Each option has one name in both ("ink_friendly", "first_game")
 * and the values the CLI takes; anything else is a 400 naming the field. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/utf8.h"
#include "io/jsonparse.h"
#include "serve/serve.h"

void cb_serve_options_defaults(cb_serve_options *o)
{
    memset(o, 0, sizeof *o);
    o->players = 4;
    snprintf(o->paper, sizeof o->paper, "a4");
    o->rules = CB_RULES_PAGE_LAST;
    o->format = CB_SERVE_PDF;
}

static int fault_as(cb_serve_fault *f, const char *field, cb_serve_naming naming,
                    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* A 400 for FIELD; the message, in FMT, does not name the field: NAMING
 * says how cb_serve_error names it. */
static int fault_as(cb_serve_fault *f, const char *field, cb_serve_naming naming,
                    const char *fmt, ...)
{
    va_list ap;
    f->status = 400;
    f->naming = naming;
    snprintf(f->field, sizeof f->field, "%.31s", field);
    va_start(ap, fmt);
    vsnprintf(f->message, sizeof f->message, fmt, ap);
    va_end(ap);
    return -1;
}

#define fault(f, field, ...) fault_as(f, field, CB_SERVE_UNNAMED, __VA_ARGS__)

typedef enum { OPT_TEXT, OPT_INT, OPT_BOOL, OPT_RULES, OPT_FORMAT } opt_kind;

typedef struct {
    const char *name;
    opt_kind kind;
    int format_only;    /* allowed in a POST's query */
} opt_def;

static const opt_def opts[] = {
    {"seed", OPT_TEXT, 0},       {"players", OPT_INT, 0},   {"shared", OPT_BOOL, 0},
    {"paper", OPT_TEXT, 0},      {"portrait", OPT_BOOL, 0}, {"ink_friendly", OPT_BOOL, 0},
    {"theme", OPT_TEXT, 0},      {"first_game", OPT_BOOL, 0}, {"rules", OPT_RULES, 0},
    {"format", OPT_FORMAT, 1},   {"sheet", OPT_INT, 1},
};
#define N_OPTS (sizeof opts / sizeof opts[0])

static const opt_def *find_opt(const char *name)
{
    for (size_t k = 0; k < N_OPTS; k++)
        if (strcmp(opts[k].name, name) == 0)
            return &opts[k];
    return NULL;
}

/* A text value for option D into O; the checks the CLI's parsing would
 * make later are the library's (cb_paper_parse, cb_spec_check). */
static int set_text(const opt_def *d, const char *v, cb_serve_options *o, cb_serve_fault *f)
{
    size_t n = strlen(v);
    if (!cb_utf8_valid(v))
        return fault_as(f, d->name, CB_SERVE_AS_FIELD, "not valid UTF-8 text");
    if (strcmp(d->name, "seed") == 0) {
        if (n == 0)
            return fault_as(f, "seed", CB_SERVE_AS_FIELD, "empty (give any text)");
        if (n > CB_SERVE_MAX_SEED)
            return fault_as(f, "seed", CB_SERVE_AS_FIELD, "longer than %d bytes", CB_SERVE_MAX_SEED);
        memcpy(o->seed, v, n + 1);
        o->has_seed = 1;
    } else if (strcmp(d->name, "paper") == 0) {
        if (n == 0 || n >= sizeof o->paper)
            return fault_as(f, "paper", CB_SERVE_AS_OPTION, "\"%.40s\" is not a paper size", v);
        memcpy(o->paper, v, n + 1);
    } else { /* theme: a name, never a path */
        if (n == 0 || n >= sizeof o->theme || strchr(v, '/') || strchr(v, '\\') || v[0] == '.')
            return fault_as(f, "theme", CB_SERVE_AS_FIELD, "\"%.63s\" is not a theme name (see /api/themes)",
                         v);
        memcpy(o->theme, v, n + 1);
    }
    return 0;
}

static int set_int(const opt_def *d, long v, cb_serve_options *o, cb_serve_fault *f)
{
    if (strcmp(d->name, "players") == 0) {
        if (v < CB_PLAYERS_MIN || v > CB_PLAYERS_MAX)
            return fault_as(f, "players", CB_SERVE_AS_OPTION, "\"%ld\" is not a whole number from %d to %d",
                         v, CB_PLAYERS_MIN, CB_PLAYERS_MAX);
        o->players = (int)v;
    } else { /* sheet */
        if (v < 1 || v > CB_PLAYERS_MAX)
            return fault_as(f, "sheet", CB_SERVE_AS_FIELD, "%ld is not a sheet number (1..%d)", v,
                         CB_PLAYERS_MAX);
        o->sheet = (int)v;
    }
    return 0;
}

static int set_bool(const opt_def *d, int v, cb_serve_options *o)
{
    if (strcmp(d->name, "shared") == 0)
        o->shared = v;
    else if (strcmp(d->name, "portrait") == 0)
        o->portrait = v;
    else if (strcmp(d->name, "ink_friendly") == 0)
        o->ink_friendly = v;
    else
        o->first_game = v;
    return 0;
}

static int set_word(const opt_def *d, const char *v, cb_serve_options *o, cb_serve_fault *f)
{
    if (d->kind == OPT_RULES) {
        if (strcmp(v, "last") == 0)
            o->rules = CB_RULES_PAGE_LAST;
        else if (strcmp(v, "first") == 0)
            o->rules = CB_RULES_PAGE_FIRST;
        else if (strcmp(v, "none") == 0)
            o->rules = CB_RULES_PAGE_NONE;
        else
            return fault_as(f, "rules", CB_SERVE_AS_OPTION, "\"%.40s\" is not last, first or none", v);
        return 0;
    }
    static const char *const names[] = {"pdf", "svg", "json", "preview"};
    for (int k = 0; k < 4; k++)
        if (strcmp(v, names[k]) == 0) {
            o->format = (cb_serve_format)k;
            return 0;
        }
    return fault_as(f, "format", CB_SERVE_AS_FIELD, "\"%.40s\" is not pdf, svg, json or preview", v);
}

/* ---- query strings ---- */

static int hex(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Decodes N bytes of S (percent-encoding, '+' for space) into OUT (CAP
 * bytes, NUL-terminated); -1 on a bad escape, a NUL byte or no room. */
static int decode(const char *s, size_t n, char *out, size_t cap)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        int c = (unsigned char)s[i];
        if (c == '+') {
            c = ' ';
        } else if (c == '%') {
            if (i + 2 >= n)
                return -1;
            int a = hex((unsigned char)s[i + 1]), b = hex((unsigned char)s[i + 2]);
            if (a < 0 || b < 0)
                return -1;
            c = a * 16 + b;
            i += 2;
        }
        if (c == 0 || k + 1 >= cap)
            return -1;
        out[k++] = (char)c;
    }
    out[k] = 0;
    return 0;
}

/* A query value as a whole number; -1 when it is not one. */
static int parse_long(const char *v, long *out)
{
    char *end;
    errno = 0;
    long x = strtol(v, &end, 10);
    if (errno || end == v || *end || (v[0] != '-' && (v[0] < '0' || v[0] > '9')))
        return -1;
    *out = x;
    return 0;
}

int cb_serve_parse_query(const char *query, size_t len, int only_format, cb_serve_options *o,
                         cb_serve_fault *f)
{
    unsigned seen = 0;
    char name[40], value[CB_SERVE_MAX_SEED * 3 + 8];
    for (size_t i = 0; query && i < len;) {
        size_t end = i;
        while (end < len && query[end] != '&')
            end++;
        if (end == i) { /* "a=1&&b=2" */
            i = end + 1;
            continue;
        }
        size_t eq = i;
        while (eq < end && query[eq] != '=')
            eq++;
        if (decode(query + i, eq - i, name, sizeof name) != 0)
            return fault(f, "", "query: a parameter name is not valid");
        const opt_def *d = find_opt(name);
        if (!d)
            return fault(f, cb_utf8_valid(name) ? name : "",
                         "query: unknown parameter \"%.39s\"", cb_utf8_valid(name) ? name : "?");
        if (only_format && !d->format_only)
            return fault_as(f, d->name, CB_SERVE_AS_FIELD, "give the game's options in the JSON body (the query "
                         "takes format and sheet)");
        unsigned bit = 1u << (d - opts);
        if (seen & bit)
            return fault_as(f, d->name, CB_SERVE_AS_FIELD, "given twice");
        seen |= bit;
        int has_value = eq < end;
        if (decode(has_value ? query + eq + 1 : "", has_value ? end - eq - 1 : 0, value,
                   sizeof value) != 0)
            return fault_as(f, d->name, CB_SERVE_AS_FIELD, "the value is too long or not validly encoded");
        int rc = 0;
        long x;
        switch (d->kind) {
        case OPT_TEXT:
            rc = set_text(d, value, o, f);
            break;
        case OPT_INT:
            if (parse_long(value, &x) != 0 && strcmp(d->name, "players") == 0)
                return fault_as(f, d->name, CB_SERVE_AS_OPTION, "\"%.40s\" is not a whole number from "
                             "%d to %d", value, CB_PLAYERS_MIN, CB_PLAYERS_MAX);
            if (parse_long(value, &x) != 0)
                return fault_as(f, d->name, CB_SERVE_AS_FIELD, "\"%.40s\" is not a whole number",
                             value);
            rc = set_int(d, x, o, f);
            break;
        case OPT_BOOL: /* "shared", "shared=1", "shared=true", "shared=on" */
            if (!has_value || strcmp(value, "1") == 0 || strcmp(value, "true") == 0 ||
                strcmp(value, "on") == 0)
                rc = set_bool(d, 1, o);
            else if (strcmp(value, "0") == 0 || strcmp(value, "false") == 0)
                rc = set_bool(d, 0, o);
            else
                return fault_as(f, d->name, CB_SERVE_AS_FIELD, "\"%.40s\" is not true or false",
                                value);
            break;
        default:
            rc = set_word(d, value, o, f);
        }
        if (rc)
            return rc;
        i = end + 1;
    }
    return 0;
}

/* ---- JSON ---- */

int cb_serve_parse_json(const char *body, size_t len, cb_serve_options *o, cb_serve_fault *f)
{
    int oom = 0;
    const char *end = NULL;
    cJSON *root = cb_json_parse(body, len, &end, &oom);
    if (!root) {
        if (oom) {
            fault(f, "", "out of memory");
            f->status = 500;
            return -1;
        }
        size_t at = end && end >= body && end <= body + len ? (size_t)(end - body) : 0;
        return fault(f, "", "the body is not valid JSON (near byte %zu)", at);
    }
    if (!cJSON_IsObject(root)) {
        cJSON_Delete(root);
        return fault(f, "", "the body must be a JSON object of game options");
    }
    unsigned seen = 0;
    int rc = 0;
    for (cJSON *it = root->child; it && rc == 0; it = it->next) {
        const char *key = it->string ? it->string : "";
        const opt_def *d = find_opt(key);
        if (!d) {
            rc = fault(f, cb_utf8_valid(key) ? key : "", "unknown field \"%.39s\"",
                       cb_utf8_valid(key) ? key : "?");
            break;
        }
        unsigned bit = 1u << (d - opts);
        if (seen & bit) {
            rc = fault_as(f, d->name, CB_SERVE_AS_FIELD, "given twice");
            break;
        }
        seen |= bit;
        switch (d->kind) {
        case OPT_TEXT:
            if (!cJSON_IsString(it))
                rc = fault_as(f, d->name, CB_SERVE_AS_FIELD, "must be a string");
            else
                rc = set_text(d, it->valuestring, o, f);
            break;
        case OPT_INT: {
            double v = cJSON_IsNumber(it) ? it->valuedouble : NAN;
            if (!isfinite(v) || v != floor(v) || fabs(v) > 1e9)
                rc = fault_as(f, d->name, CB_SERVE_AS_FIELD, "must be a whole number");
            else
                rc = set_int(d, (long)v, o, f);
            break;
        }
        case OPT_BOOL:
            if (!cJSON_IsBool(it))
                rc = fault_as(f, d->name, CB_SERVE_AS_FIELD, "must be true or false");
            else
                rc = set_bool(d, cJSON_IsTrue(it), o);
            break;
        default:
            if (!cJSON_IsString(it))
                rc = fault_as(f, d->name, CB_SERVE_AS_FIELD, "must be a string");
            else
                rc = set_word(d, it->valuestring, o, f);
        }
    }
    cJSON_Delete(root);
    return rc;
}
