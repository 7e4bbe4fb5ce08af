/* See pdfout.h: a PDF written as it is made. Objects go out through a
 * buffer, to the file or to the bytes in memory; the offset of each is kept
 * (8 bytes an object), and the page tree's kids (4 bytes a page): a
 * 100,000-page deck streamed to a file keeps about 2 MB. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "print/pdfout.h"

#define OUT_BUF (64 * 1024)

struct cb_pdfout {
    int fd;            /* -1: into MEM */
    unsigned char *mem;
    size_t mem_len, mem_cap;
    int err;
    unsigned char buf[OUT_BUF];
    size_t used;
    uint64_t at;       /* offset of the next byte */
    uint64_t *off;     /* per object number: its offset, 0 = not written */
    uint32_t n_obj, cap_obj;
    uint32_t *kids;
    size_t n_kids, cap_kids;
};

/* The buffer's bytes appended to the ones in memory (ENOMEM when they
 * cannot grow). */
static void flush_to_memory(cb_pdfout *o)
{
    if (o->mem_cap - o->mem_len < o->used) {
        size_t cap = o->mem_cap ? o->mem_cap : OUT_BUF;
        while (cap - o->mem_len < o->used)
            cap *= 2;
        unsigned char *grown = realloc(o->mem, cap);
        if (!grown) {
            o->err = ENOMEM;
            return;
        }
        o->mem = grown;
        o->mem_cap = cap;
    }
    memcpy(o->mem + o->mem_len, o->buf, o->used);
    o->mem_len += o->used;
}

static void flush(cb_pdfout *o)
{
    const unsigned char *p = o->buf;
    size_t left = o->used;
    if (o->fd < 0 && !o->err)
        flush_to_memory(o);
    if (o->fd < 0)
        left = 0;
    while (!o->err && left > 0) {
        /* EINTR ends the write too: only a signal handler installed
         * without SA_RESTART causes it, by a caller that wants a write
         * blocked on a pipe to stop (deck's SIGINT). */
        ssize_t n = write(o->fd, p, left);
        if (n <= 0) {
            o->err = n < 0 && errno ? errno : EIO;
            break;
        }
        p += n;
        left -= (size_t)n;
    }
    o->used = 0;
}

void cb_pdfout_write(cb_pdfout *o, const void *data, size_t len)
{
    const unsigned char *p = data;
    if (o->err)
        return;
    o->at += len;
    while (len > 0) {
        if (o->used == OUT_BUF)
            flush(o);
        size_t k = OUT_BUF - o->used < len ? OUT_BUF - o->used : len;
        memcpy(o->buf + o->used, p, k);
        o->used += k;
        p += k;
        len -= k;
    }
}

void cb_pdfout_str(cb_pdfout *o, const char *text)
{
    cb_pdfout_write(o, text, strlen(text));
}

static void outf(cb_pdfout *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void outf(cb_pdfout *o, const char *fmt, ...)
{
    char line[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (n > 0)
        cb_pdfout_write(o, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
}

/* V in decimal, zero-padded to WIDTH digits: written by hand, as a deck
 * writes several numbers a page and one a object in its cross-reference
 * table, which vsnprintf made 1 % of a game's instructions. */
static void put_number(cb_pdfout *o, uint64_t v, int width)
{
    char digits[20];
    size_t n = 0;
    do
        digits[sizeof digits - 1 - n++] = (char)('0' + v % 10);
    while ((v /= 10) != 0);
    while (n < (size_t)width)
        digits[sizeof digits - 1 - n++] = '0';
    cb_pdfout_write(o, digits + sizeof digits - n, n);
}

cb_pdfout *cb_pdfout_new(int fd)
{
    cb_pdfout *o = calloc(1, sizeof *o);
    if (!o)
        return NULL;
    o->fd = fd;
    o->n_obj = 3; /* 0 free, 1 catalog, 2 page tree */
    o->cap_obj = 1024;
    o->off = calloc(o->cap_obj, sizeof *o->off);
    if (!o->off) {
        free(o);
        return NULL;
    }
    /* as libharu writes it: the version, then a comment of high bytes */
    cb_pdfout_str(o, "%PDF-1.3\n%\xB7\xBE\xAD\xAA\n");
    return o;
}

void cb_pdfout_free(cb_pdfout *o)
{
    if (!o)
        return;
    free(o->off);
    free(o->kids);
    free(o->mem);
    free(o);
}

unsigned char *cb_pdfout_take(cb_pdfout *o, size_t *len)
{
    unsigned char *mem = o->err ? NULL : o->mem;
    *len = mem ? o->mem_len : 0;
    if (mem)
        o->mem = NULL, o->mem_len = o->mem_cap = 0;
    return mem;
}

int cb_pdfout_error(const cb_pdfout *o)
{
    return o->err;
}

uint32_t cb_pdfout_reserve(cb_pdfout *o)
{
    if (o->n_obj == o->cap_obj) {
        uint64_t *grown = o->cap_obj < (1u << 30) ? realloc(o->off, 2 * (size_t)o->cap_obj *
                                                                        sizeof *grown)
                                                  : NULL;
        if (!grown) {
            if (!o->err)
                o->err = ENOMEM;
            return 0;
        }
        memset(grown + o->cap_obj, 0, o->cap_obj * sizeof *grown);
        o->off = grown;
        o->cap_obj *= 2;
    }
    return o->n_obj++;
}

void cb_pdfout_begin_obj(cb_pdfout *o, uint32_t id)
{
    if (id == 0 || id >= o->n_obj) {
        if (!o->err)
            o->err = ENOMEM; /* a number that was never reserved: out of memory earlier */
        return;
    }
    o->off[id] = o->at;
    put_number(o, id, 0);
    cb_pdfout_str(o, " 0 obj\n");
}

void cb_pdfout_end_obj(cb_pdfout *o)
{
    cb_pdfout_str(o, "endobj\n");
}

void cb_pdfout_stream(cb_pdfout *o, uint32_t id, const char *dict, const void *data, size_t len)
{
    cb_pdfout_begin_obj(o, id);
    cb_pdfout_str(o, "<<\n");
    cb_pdfout_str(o, dict);
    cb_pdfout_str(o, "/Length ");
    put_number(o, len, 0);
    cb_pdfout_str(o, "\n>>\nstream\r\n");
    cb_pdfout_write(o, data, len);
    cb_pdfout_str(o, "\r\nendstream\n");
    cb_pdfout_end_obj(o);
}

void cb_pdfout_add_page(cb_pdfout *o, uint32_t id)
{
    if (o->n_kids == o->cap_kids) {
        size_t cap = o->cap_kids ? 2 * o->cap_kids : 256;
        uint32_t *grown = realloc(o->kids, cap * sizeof *grown);
        if (!grown) {
            if (!o->err)
                o->err = ENOMEM;
            return;
        }
        o->kids = grown;
        o->cap_kids = cap;
    }
    o->kids[o->n_kids++] = id;
}

/* ---- copying another PDF's objects ---- */

typedef struct {
    const unsigned char *pdf;
    size_t len;
    uint64_t *off;     /* per object of PDF: its offset (0: none) */
    uint64_t *end;     /* where it ends (the next object, or the xref) */
    uint32_t *to;      /* its number here, 0 until known */
    uint32_t n;
} source;

/* The number at PDF[*at] (digits), moving *at past it; -1 if none. */
static long long number_at(const unsigned char *s, size_t len, size_t *at)
{
    size_t i = *at;
    long long v = 0;
    if (i >= len || s[i] < '0' || s[i] > '9')
        return -1;
    for (; i < len && s[i] >= '0' && s[i] <= '9' && v < (1LL << 40); i++)
        v = v * 10 + (s[i] - '0');
    *at = i;
    return v;
}

static const unsigned char *find(const unsigned char *s, size_t len, const char *what)
{
    size_t k = strlen(what);
    for (size_t i = 0; i + k <= len; i++)
        if (memcmp(s + i, what, k) == 0)
            return s + i;
    return NULL;
}

static const unsigned char *find_last(const unsigned char *s, size_t len, const char *what)
{
    size_t k = strlen(what);
    for (size_t i = len >= k ? len - k + 1 : 0; i-- > 0;)
        if (memcmp(s + i, what, k) == 0)
            return s + i;
    return NULL;
}

/* Reads the cross-reference table and the trailer's /Info; 0 or -1. */
static int read_xref(source *src, uint32_t *info)
{
    const unsigned char *s = src->pdf;
    const unsigned char *sx = find_last(s, src->len, "startxref");
    if (!sx)
        return -1;
    size_t at = (size_t)(sx - s) + 9;
    while (at < src->len && (s[at] == '\n' || s[at] == '\r' || s[at] == ' '))
        at++;
    long long x = number_at(s, src->len, &at);
    if (x < 0 || (size_t)x + 4 > src->len || memcmp(s + x, "xref", 4) != 0)
        return -1;
    at = (size_t)x + 4;
    while (at < src->len && (s[at] == '\n' || s[at] == '\r'))
        at++;
    long long first = number_at(s, src->len, &at);
    at++;
    long long count = number_at(s, src->len, &at);
    if (first != 0 || count < 1 || count > (1 << 24))
        return -1;
    while (at < src->len && (s[at] == '\n' || s[at] == '\r' || s[at] == ' '))
        at++;
    if (at + (size_t)count * 20 > src->len)
        return -1;
    src->n = (uint32_t)count;
    src->off = calloc((size_t)count, sizeof *src->off);
    src->end = calloc((size_t)count, sizeof *src->end);
    src->to = calloc((size_t)count, sizeof *src->to);
    if (!src->off || !src->end || !src->to)
        return -1;
    for (uint32_t i = 0; i < src->n; i++) {
        const unsigned char *e = s + at + (size_t)i * 20;
        size_t p = 0;
        long long o = number_at(e, 10, &p);
        if (o < 0 || e[17] != 'n' || (size_t)o >= (size_t)x)
            continue;
        src->off[i] = (uint64_t)o;
    }
    /* an object ends where the next one starts (they follow each other):
     * libharu writes them in number order, so that is the next number's;
     * objects in any other order are searched for it */
    int in_order = 1;
    for (uint32_t i = 0, last = 0; i < src->n && in_order; i++)
        if (src->off[i]) {
            in_order = !last || src->off[i] > src->off[last];
            last = i;
        }
    for (uint32_t i = src->n, next = 0; in_order && i-- > 0;)
        if (src->off[i]) {
            src->end[i] = next ? src->off[next] : (uint64_t)x;
            next = i;
        }
    for (uint32_t i = 0; !in_order && i < src->n; i++) {
        if (!src->off[i])
            continue;
        uint64_t end = (uint64_t)x;
        for (uint32_t j = 0; j < src->n; j++)
            if (src->off[j] > src->off[i] && src->off[j] < end)
                end = src->off[j];
        src->end[i] = end;
    }
    *info = 0;
    const unsigned char *tr = find(s + x, src->len - (size_t)x, "/Info ");
    if (tr) {
        size_t p = (size_t)(tr - s) + 6;
        long long v = number_at(s, src->len, &p);
        if (v > 0 && v < count)
            *info = (uint32_t)v;
    }
    return 0;
}

/* Copies object I of SRC (numbered src->to[I]), its references renumbered
 * (numbers reserved for the objects not met yet, which go on the queue
 * Q of *NQ entries). 0 or -1. */
static int copy_object(cb_pdfout *o, source *src, uint32_t i, uint32_t *q, uint32_t *nq)
{
    const unsigned char *s = src->pdf + src->off[i];
    size_t len = (size_t)(src->end[i] - src->off[i]);
    /* "N 0 obj\n" */
    const unsigned char *body = find(s, len < 32 ? len : 32, "obj");
    if (!body)
        return -1;
    body += 3;
    size_t blen = len - (size_t)(body - s);
    const unsigned char *st = find(body, blen, "stream\r\n");
    size_t dict_len = st ? (size_t)(st - body) : blen;
    cb_pdfout_begin_obj(o, src->to[i]);
    size_t from = 0;
    for (size_t k = 0; k < dict_len; k++) {
        if (body[k] < '0' || body[k] > '9' || (k > 0 && body[k - 1] >= '0' && body[k - 1] <= '9'))
            continue;
        size_t e = k;
        long long ref = number_at(body, dict_len, &e);
        if (e + 4 > dict_len || memcmp(body + e, " 0 R", 4) != 0 || ref <= 0 || ref >= src->n ||
            !src->off[ref])
            continue;
        if (!src->to[ref]) {
            if (!(src->to[ref] = cb_pdfout_reserve(o)))
                return -1;
            q[(*nq)++] = (uint32_t)ref;
        }
        cb_pdfout_write(o, body + from, k - from);
        put_number(o, src->to[ref], 0);
        from = e;
        k = e;
    }
    cb_pdfout_write(o, body + from, blen - from);
    return 0;
}

int cb_pdfout_copy(cb_pdfout *o, const unsigned char *pdf, size_t len, const uint32_t *from,
                   const uint32_t *to, size_t n, uint32_t *info)
{
    source src = {pdf, len, NULL, NULL, NULL, 0};
    uint32_t *q = NULL, nq = 0, src_info = 0;
    int rc = read_xref(&src, &src_info);
    if (rc == 0 && !(q = malloc(((size_t)src.n + 1) * sizeof *q)))
        rc = -1;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        if (from[i] == 0 || from[i] >= src.n || !src.off[from[i]]) {
            rc = -1;
            break;
        }
        if (src.to[from[i]])
            continue;
        src.to[from[i]] = to[i];
        q[nq++] = from[i];
    }
    *info = 0;
    if (rc == 0 && src_info && src.off[src_info] && !src.to[src_info]) {
        if (!(src.to[src_info] = cb_pdfout_reserve(o)))
            rc = -1;
        else
            q[nq++] = src_info;
    }
    if (rc == 0 && src_info)
        *info = src.to[src_info];
    for (uint32_t k = 0; rc == 0 && k < nq; k++)
        rc = copy_object(o, &src, q[k], q, &nq);
    free(q);
    free(src.off);
    free(src.end);
    free(src.to);
    return rc;
}

int cb_pdfout_finish(cb_pdfout *o, uint32_t info)
{
    o->off[2] = o->at;
    cb_pdfout_str(o, "2 0 obj\n<<\n/Type /Pages\n/Kids [ ");
    for (size_t i = 0; i < o->n_kids; i++) {
        put_number(o, o->kids[i], 0);
        cb_pdfout_str(o, i % 8 == 7 ? " 0 R\n" : " 0 R ");
    }
    outf(o, "]\n/Count %zu\n>>\nendobj\n", o->n_kids);
    o->off[1] = o->at;
    cb_pdfout_str(o, "1 0 obj\n<<\n/Type /Catalog\n/Pages 2 0 R\n>>\nendobj\n");
    uint64_t xref = o->at;
    outf(o, "xref\n0 %u\n0000000000 65535 f\r\n", (unsigned)o->n_obj);
    for (uint32_t i = 1; i < o->n_obj; i++) {
        if (!o->off[i] && !o->err)
            o->err = EINVAL; /* reserved, never written: a bug, not a PDF */
        put_number(o, o->off[i], 10);
        cb_pdfout_str(o, " 00000 n\r\n");
    }
    outf(o, "trailer\n<<\n/Root 1 0 R\n");
    if (info)
        outf(o, "/Info %u 0 R\n", (unsigned)info);
    outf(o, "/Size %u\n>>\nstartxref\n%llu\n%%%%EOF\n", (unsigned)o->n_obj,
         (unsigned long long)xref);
    flush(o);
    return o->err;
}
