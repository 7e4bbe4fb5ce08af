/* Whether a request's head reached the handler whole. libmicrohttpd 0.9.x
 * hands the request target, the method and each header over as C strings
 * cut out of its read buffer, so a NUL byte sent by the client silently
 * ends one early ("GET /api/health\0x" arrives as /api/health); no option
 * of 0.9.75 refuses it (1.0 does, itself).
 *
 * What 0.9.75-0.9.77 leave in the read buffer (connection.c,
 * get_next_header_line, parse_initial_message_line, process_header_line)
 * is what this reads: the head is one block, from the method to just past
 * the blank line (MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE bytes), with
 * every CR and LF that ends a line, the space after the method, the space
 * before the version and each header's colon overwritten with NUL; spaces
 * the parser skips stay. So the head is plain exactly when the strings the
 * handler got, laid end to end with those separators, cover the block:
 * the method, NUL and spaces up to the target; the target as the log
 * callback saw it (before it is split and unescaped in place), whose NUL
 * must be the one before the version; the version; then per header line a
 * line end (1 or 2 NULs), the name, NUL, spaces or tabs, the value; and a
 * last line end plus the blank line (2 to 4 NULs) up to the block's end. A
 * client's NUL that cuts a string short leaves its following bytes in a
 * gap, where a non-NUL byte or a gap too long gives it away. (A client's
 * NUL right before a bare LF reads as a CR: it cuts nothing off.) A
 * folded header line is moved out of the block by 0.9.75 and so refused
 * too, as RFC 9112 allows. Any other layout also fails the walk: it can
 * refuse a request of a parser it was not read for, never let a hidden
 * byte through. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "serve_head.h"

void serve_head_note_uri(serve_head_uri *note, const char *uri)
{
    note->at = (uintptr_t)uri;
    note->len = uri ? strlen(uri) : 0;
}

/* The head's block and how far the walk has accounted for it. */
typedef struct {
    const char *base;   /* the block's first byte (the method's) */
    size_t size;        /* its length */
    size_t at;          /* the first byte not yet accounted for */
    int ok;
} walk;

/* Where P is in the block: 0 and *OFF, or -1 outside it. Compared as
 * integers: P may be anywhere in a layout this was not read for. */
static int offset_of(const walk *w, const char *p, size_t *off)
{
    uintptr_t a = (uintptr_t)p, lo = (uintptr_t)w->base;
    if (a < lo || a - lo >= w->size)
        return -1;
    *off = (size_t)(a - lo);
    return 0;
}

/* The walk steps over a gap of MIN..MAX NULs to END. */
static int nuls_to(walk *w, size_t end, size_t min, size_t max)
{
    if (end < w->at + min || end > w->at + max)
        return 0;
    for (size_t i = w->at; i < end; i++)
        if (w->base[i] != 0)
            return 0;
    w->at = end;
    return 1;
}

/* One header line (MHD_get_connection_values' iterator, in line order). */
static enum MHD_Result header_line(void *cls, enum MHD_ValueKind kind, const char *key,
                                   const char *value)
{
    walk *w = cls;
    size_t k, v;
    (void)kind;
    if (offset_of(w, key, &k) || offset_of(w, value, &v) || !nuls_to(w, k, 1, 2))
        return w->ok = 0, MHD_NO;
    size_t colon = k + strlen(key);
    if (v <= colon)
        return w->ok = 0, MHD_NO;
    for (size_t i = colon + 1; i < v; i++)
        if (w->base[i] != ' ' && w->base[i] != '\t')
            return w->ok = 0, MHD_NO;
    w->at = v + strlen(value);
    return MHD_YES;
}

/* libmicrohttpd 1.0 and later refuse a NUL in the head themselves, with
 * another layout. */
static int parser_hides_nuls(void)
{
    const char *v = MHD_get_version();
    return v && strtoul(v, NULL, 10) < 1;
}

int serve_head_plain(struct MHD_Connection *c, const serve_head_uri *note, const char *method,
                     const char *url, const char *version)
{
    if (!parser_hides_nuls())
        return 1;
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(c, MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE);
    if (!info || !method || !url || !version || note->at != (uintptr_t)url)
        return 0;
    walk w = {method, info->header_size, 0, 1};
    size_t target, ver;
    if (offset_of(&w, url, &target) || offset_of(&w, version, &ver))
        return 0;
    /* the method, its NUL, the spaces skipped */
    w.at = strlen(method) + 1;
    while (w.at < target && w.base[w.at] == ' ')
        w.at++;
    if (w.at != target || ver != target + note->len + 1)
        return 0;
    w.at = ver + strlen(version);
    MHD_get_connection_values(c, MHD_HEADER_KIND, header_line, &w);
    return w.ok && nuls_to(&w, w.size, 2, 4);
}
