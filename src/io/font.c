/* TrueType checks before libharu sees a font; see font.h. Offsets and
 * lengths are checked in 64 bits so no sum can wrap. */
#include "io/font.h"
#include "io/input.h"

#include <errno.h>
#include <inttypes.h>
#include <libdeflate.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/error.h"

#define MAX_TABLES 256
#define MAX_CMAP_CODES 1000000 /* codes mapped, summed over the segments */

typedef struct {
    const unsigned char *p; /* the table's bytes */
    uint64_t len;
} table;

static unsigned u16(const unsigned char *p) { return (unsigned)p[0] << 8 | p[1]; }
static int s16(const unsigned char *p) { return (int)(int16_t)(uint16_t)u16(p); }
static uint32_t u32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

typedef struct {
    const unsigned char *data;
    size_t len;
    const char *name;
    cb_error *err;
} font;

static cb_status bad(const font *f, const char *what)
{
    return cb_fail(f->err, CB_ERR_DATA, "font %s: not a usable TrueType font: %s", f->name,
                   what);
}

/* The table TAG with at least MIN bytes. */
static int find(const font *f, const char *tag, uint64_t min, table *t)
{
    unsigned n = u16(f->data + 4);
    for (unsigned i = 0; i < n; i++) {
        const unsigned char *rec = f->data + 12 + 16 * (size_t)i;
        if (memcmp(rec, tag, 4) == 0) {
            t->p = f->data + u32(rec + 8);
            t->len = u32(rec + 12);
            return t->len >= min;
        }
    }
    return 0;
}

static cb_status check_cmap(const font *f, const table *cmap, unsigned glyphs)
{
    unsigned n = u16(cmap->p + 2);
    if (4 + 8 * (uint64_t)n > cmap->len)
        return bad(f, "cmap subtable list runs past the table");
    int found = 0;
    for (unsigned i = 0; i < n; i++) {
        const unsigned char *rec = cmap->p + 4 + 8 * (size_t)i;
        uint64_t off = u32(rec + 4);
        if (off + 4 > cmap->len)
            return bad(f, "cmap subtable outside the table");
        const unsigned char *s = cmap->p + off;
        if (u16(s) != 4)
            continue;
        /* libharu reads format 4 subtables; each must hold together. */
        uint64_t slen = u16(s + 2);
        if (off + 16 > cmap->len || slen < 16 || off + slen > cmap->len)
            return bad(f, "cmap format 4 subtable runs past the table");
        unsigned seg2 = u16(s + 6);
        if (seg2 == 0 || seg2 % 2 || 16 + 4 * (uint64_t)seg2 > slen)
            return bad(f, "cmap format 4 segment count does not fit");
        unsigned segs = seg2 / 2;
        const unsigned char *end = s + 14, *start = end + seg2 + 2, *delta = start + seg2,
                            *range = delta + seg2;
        uint64_t ids = (slen - 16 - 4 * (uint64_t)seg2) / 2, codes = 0;
        for (unsigned k = 0; k < segs; k++) {
            unsigned lo = u16(start + 2 * k), hi = u16(end + 2 * k);
            unsigned d = u16(delta + 2 * k), ro = u16(range + 2 * k);
            if (lo > hi)
                return bad(f, "cmap segment starts after its end");
            /* Sorted, the last ending at U+FFFF, as the format demands:
             * libharu reads one past the segments for a code above them
             * all, and cutboard finds a code's segment by binary search. */
            if (k > 0 && hi < u16(end + 2 * (k - 1)))
                return bad(f, "cmap segments out of order");
            if (k == segs - 1 && hi != 0xFFFF)
                return bad(f, "cmap's last segment does not end at U+FFFF");
            codes += hi - lo + 1;
            if (codes > MAX_CMAP_CODES)
                return bad(f, "cmap maps too many codes");
            for (unsigned c = lo; c <= hi; c++) {
                unsigned g;
                if (ro == 0) {
                    g = (c + d) & 0xFFFF;
                } else {
                    /* The glyph id array index, as libharu computes it. */
                    int64_t idx = (int64_t)(ro / 2) + (c - lo) - (int64_t)(segs - k);
                    if (ro % 2 || idx < 0 || (uint64_t)idx >= ids)
                        return bad(f, "cmap glyph index outside its array");
                    g = u16(range + 2 * k + ro + 2 * (c - lo));
                    g = g ? (g + d) & 0xFFFF : 0;
                }
                if (g >= glyphs)
                    return bad(f, "cmap maps a code to a glyph the font lacks");
            }
        }
        found |= u16(rec) == 3 && (u16(rec + 2) == 1 || u16(rec + 2) == 0);
    }
    if (!found)
        return bad(f, "no Windows Unicode (format 4) character map");
    return CB_OK;
}

/* Every glyph's outline lies inside glyf; a composite glyph's components are
 * glyphs of the font and its records stay inside the glyph. */
static cb_status check_glyphs(const font *f, const table *loca, const table *glyf, int long_loca,
                              unsigned glyphs)
{
    uint64_t prev = 0;
    for (unsigned g = 0; g <= glyphs; g++) {
        uint64_t off = long_loca ? u32(loca->p + 4 * (size_t)g) : 2 * (uint64_t)u16(loca->p + 2 * (size_t)g);
        if (off < prev || off > glyf->len)
            return bad(f, "loca points outside glyf");
        if (g > 0 && off > prev) {
            uint64_t len = off - prev;
            const unsigned char *gp = glyf->p + prev;
            if (len < 10)
                return bad(f, "a glyph is shorter than its header");
            if (s16(gp) < 0) {
                uint64_t at = 10;
                unsigned flags;
                do {
                    if (at + 4 > len)
                        return bad(f, "a composite glyph runs past its end");
                    flags = u16(gp + at);
                    if (u16(gp + at + 2) >= glyphs)
                        return bad(f, "a composite glyph names a glyph the font lacks");
                    at += (flags & 1) ? 8u : 6u;
                    at += (flags & 0x08) ? 2u : (flags & 0x40) ? 4u : (flags & 0x80) ? 8u : 0u;
                    if (at > len)
                        return bad(f, "a composite glyph runs past its end");
                } while (flags & 0x20);
            }
        }
        prev = off;
    }
    return CB_OK;
}

cb_status cb_font_check(const unsigned char *data, size_t len, const char *name, cb_error *err)
{
    font f = {data, len, name ? name : "(memory)", err};
    if (len > CB_MAX_FILE_BYTES)
        return cb_fail(err, CB_ERR_DATA, "font %s: %zu bytes, larger than the %d allowed",
                       f.name, len, CB_MAX_FILE_BYTES);
    if (!data || len < 12)
        return bad(&f, "too short");
    uint32_t version = u32(data);
    if (version != 0x00010000 && memcmp(data, "true", 4) != 0)
        return bad(&f, memcmp(data, "OTTO", 4) == 0 ? "CFF (OpenType) outlines" : "no TrueType header");
    unsigned n = u16(data + 4);
    if (n < 1 || n > MAX_TABLES || 12 + 16 * (uint64_t)n > len)
        return bad(&f, "the table directory does not fit");
    for (unsigned i = 0; i < n; i++) {
        const unsigned char *rec = data + 12 + 16 * (size_t)i;
        if ((uint64_t)u32(rec + 8) + u32(rec + 12) > len)
            return bad(&f, "a table runs past the end of the file");
    }
    table head, maxp, hhea, hmtx, loca, glyf, cmap, name_t, os2;
    if (!find(&f, "head", 54, &head))
        return bad(&f, "no head table");
    if (!find(&f, "maxp", 6, &maxp))
        return bad(&f, "no maxp table");
    if (!find(&f, "hhea", 36, &hhea))
        return bad(&f, "no hhea table");
    if (!find(&f, "hmtx", 0, &hmtx) || !find(&f, "loca", 0, &loca) ||
        !find(&f, "glyf", 0, &glyf))
        return bad(&f, "no hmtx, loca or glyf table");
    if (!find(&f, "cmap", 4, &cmap))
        return bad(&f, "no cmap table");
    if (!find(&f, "name", 6, &name_t))
        return bad(&f, "no name table");
    if (!find(&f, "OS/2", 78, &os2))
        return bad(&f, "no OS/2 table");
    unsigned units = u16(head.p + 18);
    int long_loca = s16(head.p + 50);
    if (units < 16 || units > 16384)
        return bad(&f, "units per em out of range");
    if (long_loca != 0 && long_loca != 1)
        return bad(&f, "unknown loca format");
    unsigned glyphs = u16(maxp.p + 4), metrics = u16(hhea.p + 34);
    if (glyphs < 1)
        return bad(&f, "no glyphs");
    if (metrics < 1 || metrics > glyphs ||
        4 * (uint64_t)metrics + 2 * (uint64_t)(glyphs - metrics) > hmtx.len)
        return bad(&f, "hmtx does not fit its glyph count");
    if ((uint64_t)(glyphs + 1) * (long_loca ? 4 : 2) > loca.len)
        return bad(&f, "loca does not fit its glyph count");
    cb_status st = check_glyphs(&f, &loca, &glyf, long_loca, glyphs);
    if (st != CB_OK)
        return st;
    unsigned names = u16(name_t.p + 2), strings = u16(name_t.p + 4);
    if (6 + 12 * (uint64_t)names > name_t.len || strings > name_t.len)
        return bad(&f, "the name table does not fit");
    for (unsigned i = 0; i < names; i++) {
        const unsigned char *rec = name_t.p + 6 + 12 * (size_t)i;
        if ((uint64_t)strings + u16(rec + 10) + u16(rec + 8) > name_t.len)
            return bad(&f, "a name runs past the name table");
    }
    return check_cmap(&f, &cmap, glyphs);
}

cb_status cb_font_read(const char *path, unsigned char **out, size_t *out_len, cb_error *err)
{
    *out = NULL;
    *out_len = 0;
    FILE *fp;
    off_t size;
    cb_status opened = cb_input_open("font", path, &fp, &size, err);
    if (opened != CB_OK)
        return opened;
    if ((uintmax_t)size > CB_MAX_FILE_BYTES) {
        fclose(fp);
        return cb_fail(err, CB_ERR_DATA, "font %s: %jd bytes, larger than the %d allowed", path,
                       (intmax_t)size, CB_MAX_FILE_BYTES);
    }
    size_t cap = (size_t)size;
    unsigned char *data = malloc(cap + 1);
    size_t len = data ? fread(data, 1, cap + 1, fp) : 0;
    int failed = ferror(fp);
    fclose(fp);
    if (!data)
        return cb_fail(err, CB_ERR_NOMEM, "font %s: out of memory", path);
    cb_status st = failed     ? cb_fail(err, CB_ERR_NOINPUT, "font %s: cannot read", path)
                   : len > cap ? cb_fail(err, CB_ERR_DATA, "font %s: changed while being read", path)
                               : cb_font_check(data, len, path, err);
    if (st != CB_OK) {
        free(data);
        return st;
    }
    *out = data;
    *out_len = len;
    return CB_OK;
}

cb_status cb_font_check_file(const char *path, cb_error *err)
{
    unsigned char *data;
    size_t len;
    cb_status st = cb_font_read(path, &data, &len, err);
    free(data);
    return st;
}

/* Fonts read and checked once per process (as board.c keeps its pilots):
 * a document of a deck or of the server finds its font here by a stat of
 * the file, which must still be the one read (device, inode, size, times);
 * a file changed since is read again, as a new entry. Entries are kept to
 * the end of the process: documents read them without holding anything. */
typedef struct shared_font {
    struct shared_font *next;
    char *path;
    struct stat sb;
    unsigned char *data;
    size_t len;
    char key[40];   /* a hash of the bytes: names what is made from them */
} shared_font;

static pthread_mutex_t shared_lock = PTHREAD_MUTEX_INITIALIZER;
static shared_font *shared; /* still reachable at exit: the process's fonts */

static int same_file(const struct stat *a, const struct stat *b)
{
    return a->st_dev == b->st_dev && a->st_ino == b->st_ino && a->st_size == b->st_size &&
           a->st_mtim.tv_sec == b->st_mtim.tv_sec && a->st_mtim.tv_nsec == b->st_mtim.tv_nsec &&
           a->st_ctim.tv_sec == b->st_ctim.tv_sec && a->st_ctim.tv_nsec == b->st_ctim.tv_nsec;
}

cb_status cb_font_shared(const char *path, const unsigned char **data, size_t *len,
                         const char **key, cb_error *err)
{
    struct stat before, after;
    int known = stat(path, &before) == 0;
    pthread_mutex_lock(&shared_lock);
    for (const shared_font *f = shared; known && f; f = f->next)
        if (strcmp(f->path, path) == 0 && same_file(&f->sb, &before)) {
            *data = f->data;
            *len = f->len;
            if (key)
                *key = f->key;
            pthread_mutex_unlock(&shared_lock);
            return CB_OK;
        }
    pthread_mutex_unlock(&shared_lock);
    unsigned char *bytes;
    size_t n;
    cb_status st = cb_font_read(path, &bytes, &n, err);
    if (st != CB_OK)
        return st;
    /* kept only when the file read is the one stat saw before and after */
    shared_font *f = malloc(sizeof *f);
    char *name = f ? strdup(path) : NULL;
    if (!name || !known || stat(path, &after) != 0 || !same_file(&before, &after)) {
        free(f);
        free(name);
        free(bytes);
        if (!name)
            return cb_fail(err, CB_ERR_NOMEM, "font %s: out of memory", path);
        return cb_fail(err, CB_ERR_DATA, "font %s: changed while being read", path);
    }
    *f = (shared_font){NULL, name, before, bytes, n, ""};
    snprintf(f->key, sizeof f->key, "%08x%08x-%zx", (unsigned)libdeflate_crc32(0, bytes, n),
             (unsigned)libdeflate_adler32(1, bytes, n), n);
    pthread_mutex_lock(&shared_lock);
    f->next = shared;
    shared = f;
    pthread_mutex_unlock(&shared_lock);
    *data = bytes;
    *len = n;
    if (key)
        *key = f->key;
    return CB_OK;
}
