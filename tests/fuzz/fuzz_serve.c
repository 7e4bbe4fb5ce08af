/* Fuzz target: the request parsing cutboard serve does itself
 * (src/serve/request.c): query strings and JSON game options. The first
 * byte picks what the rest is: bit 0 clear, a query string (bit 2: a
 * POST's query, format and sheet only); bit 0 set, a JSON body; bit 1 set,
 * both: the query up to the first NUL byte, then the JSON. Whatever the
 * input, a parse either fails with a 400 (or 500: out of memory) and a
 * message, or gives options the server can use as they are. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/utf8.h"
#include "serve/serve.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_fault(const cb_serve_fault *f)
{
    if ((f->status != 400 && f->status != 500) || !f->message[0] ||
        !memchr(f->message, 0, sizeof f->message) || !memchr(f->field, 0, sizeof f->field))
        abort();
}

static void check_options(const cb_serve_options *o)
{
    if (o->players < CB_PLAYERS_MIN || o->players > CB_PLAYERS_MAX)
        abort();
    if (o->has_seed && (!o->seed[0] || strlen(o->seed) > CB_SERVE_MAX_SEED ||
                        !cb_utf8_valid(o->seed)))
        abort();
    if (!o->paper[0] || !cb_utf8_valid(o->paper) || !cb_utf8_valid(o->theme))
        abort();
    /* a theme is a name: never a path */
    if (strchr(o->theme, '/') || strchr(o->theme, '\\') || o->theme[0] == '.')
        abort();
    if (o->sheet < 0 || o->sheet > CB_PLAYERS_MAX || (unsigned)o->format > CB_SERVE_PREVIEW ||
        o->rules < CB_RULES_PAGE_NONE || o->rules > CB_RULES_PAGE_FIRST)
        abort();
    if ((o->shared | o->portrait | o->ink_friendly | o->first_game) & ~1)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    int mode = data[0];
    const char *text = (const char *)data + 1;
    size_t len = size - 1;
    cb_serve_options o;
    cb_serve_fault f;
    cb_serve_options_defaults(&o);
    memset(&f, 0, sizeof f);
    /* the query in its own buffer, so reading past LEN is caught */
    size_t qlen = len, jstart = len;
    if (mode & 2) {
        const char *nul = memchr(text, 0, len);
        qlen = nul ? (size_t)(nul - text) : len;
        jstart = nul ? qlen + 1 : len;
    }
    int rc = 0;
    if (!(mode & 1) || (mode & 2)) {
        char *q = malloc(qlen ? qlen : 1);
        if (!q)
            return 0;
        memcpy(q, text, qlen);
        rc = cb_serve_parse_query(q, qlen, (mode & 4) != 0, &o, &f);
        free(q);
    }
    if (rc == 0 && (mode & 1)) {
        const char *j = (mode & 2) ? text + jstart : text;
        size_t jlen = (mode & 2) ? len - jstart : len;
        char *b = malloc(jlen ? jlen : 1);
        if (!b)
            return 0;
        memcpy(b, j, jlen);
        rc = cb_serve_parse_json(b, jlen, &o, &f);
        free(b);
    }
    if (rc != 0 && rc != -1)
        abort();
    if (rc)
        check_fault(&f);
    else
        check_options(&o);
    return 0;
}
