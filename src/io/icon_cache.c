/* See icon_cache.h. One lock guards the cache; an entry, once made, never
 * changes, so what it hands out is read without the lock. */
#include "io/icon_cache.h"
#include "io/icon_scale.h"

#include "base/error.h"

#include <libdeflate.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

typedef struct {
    uint32_t side;
    cb_icon px;
    unsigned char *rgb, *alpha;
    cb_icon_ready ready;
} sized;

typedef struct {
    char *path;
    cb_status st;   /* the decoding's; its error below */
    cb_error err;
    cb_icon px;
    int opaque;
    sized **sizes;
    size_t n_sizes;
} source;

struct cb_icon_cache {
    pthread_mutex_t lock;
    source **src;
    size_t n_src;
};

cb_icon_cache *cb_icon_cache_new(void)
{
    cb_icon_cache *c = calloc(1, sizeof *c);
    if (c && pthread_mutex_init(&c->lock, NULL) != 0) {
        free(c);
        return NULL;
    }
    return c;
}

static void sized_free(sized *z)
{
    if (!z)
        return;
    cb_icon_free(&z->px);
    free(z->rgb);
    free(z->alpha);
    free(z);
}

void cb_icon_cache_free(cb_icon_cache *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->n_src; i++) {
        source *s = c->src[i];
        for (size_t k = 0; k < s->n_sizes; k++)
            sized_free(s->sizes[k]);
        free(s->sizes);
        cb_icon_free(&s->px);
        free(s->path);
        free(s);
    }
    free(c->src);
    pthread_mutex_destroy(&c->lock);
    free(c);
}

/* PATH's entry, decoded the first time; NULL when out of memory. Called
 * with the lock held. */
static source *source_of(cb_icon_cache *c, const char *path)
{
    for (size_t i = 0; i < c->n_src; i++)
        if (strcmp(c->src[i]->path, path) == 0)
            return c->src[i];
    source **grown = realloc(c->src, (c->n_src + 1) * sizeof *grown);
    if (!grown)
        return NULL;
    c->src = grown;
    source *s = calloc(1, sizeof *s);
    if (!s || !(s->path = strdup(path))) {
        free(s);
        return NULL;
    }
    s->st = cb_icon_load(path, &s->px, &s->err);
    if (s->st == CB_ERR_INTERNAL) { /* out of memory: not the file's fault */
        free(s->path);
        free(s);
        return NULL;
    }
    s->opaque = 1;
    size_t n = (size_t)s->px.w * s->px.h;
    for (size_t i = 0; s->st == CB_OK && i < n && s->opaque; i++)
        s->opaque = s->px.rgba[4 * i + 3] == 255;
    c->src[c->n_src++] = s;
    return s;
}

/* LEN bytes at DATA as a zlib stream deflated by runs at level 1, into a
 * new buffer (*OUT_LEN bytes); NULL when out of memory. */
static unsigned char *deflate_runs(const unsigned char *data, size_t len, size_t *out_len)
{
    z_stream z = {0};
    if (deflateInit2(&z, 1, Z_DEFLATED, -15, 8, Z_RLE) != Z_OK)
        return NULL;
    size_t bound = 2 + deflateBound(&z, (uLong)len) + 4;
    unsigned char *out = malloc(bound);
    if (!out) {
        deflateEnd(&z);
        return NULL;
    }
    /* RFC 1950: 32K window, deflate, the fastest level, a multiple of 31 */
    unsigned header = 0x7800u;
    header += 31 - header % 31;
    out[0] = (unsigned char)(header >> 8);
    out[1] = (unsigned char)header;
    z.next_in = (Bytef *)(uintptr_t)data;
    z.avail_in = (uInt)len;
    z.next_out = out + 2;
    z.avail_out = (uInt)(bound - 6);
    int zr = deflate(&z, Z_FINISH);
    size_t n = (size_t)(z.next_out - out);
    deflateEnd(&z);
    if (zr != Z_STREAM_END) {
        free(out);
        return NULL;
    }
    uint32_t sum = libdeflate_adler32(1, data, len);
    for (int k = 0; k < 4; k++)
        out[n + (size_t)k] = (unsigned char)(sum >> (24 - 8 * k));
    *out_len = n + 4;
    return out;
}

/* S at SIDE: scaled, split into planes, deflated; NULL when out of memory. */
static sized *sized_make(const source *s, uint32_t side)
{
    sized *z = calloc(1, sizeof *z);
    if (!z)
        return NULL;
    z->side = side;
    uint32_t w, h;
    cb_icon_scaled_size(s->px.w, s->px.h, side, &w, &h);
    cb_error err;
    size_t n = (size_t)w * h;
    unsigned char *rgb = malloc(n * 3), *alpha = malloc(n);
    if (!rgb || !alpha || cb_icon_scale(&s->px, w, h, &z->px, &err) != CB_OK) {
        free(rgb);
        free(alpha);
        sized_free(z);
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        const unsigned char *px = z->px.rgba + 4 * i;
        alpha[i] = px[3];
        for (int k = 0; k < 3; k++)
            rgb[3 * i + (size_t)k] = px[3] ? px[k] : 255;
    }
    z->rgb = deflate_runs(rgb, n * 3, &z->ready.rgb_len);
    if (z->rgb && !s->opaque)
        z->alpha = deflate_runs(alpha, n, &z->ready.alpha_len);
    free(rgb);
    free(alpha);
    if (!z->rgb || (!s->opaque && !z->alpha)) {
        sized_free(z);
        return NULL;
    }
    z->ready.w = w;
    z->ready.h = h;
    z->ready.pixels = &z->px;
    z->ready.rgb = z->rgb;
    z->ready.alpha = z->alpha;
    return z;
}

cb_status cb_icon_cache_source(cb_icon_cache *c, const char *path, uint32_t *w, uint32_t *h,
                               int *opaque, cb_error *err)
{
    pthread_mutex_lock(&c->lock);
    const source *s = source_of(c, path);
    cb_status st = !s ? cb_fail(err, CB_ERR_INTERNAL, "icon %s: out of memory", path)
                   : s->st != CB_OK ? (*err = s->err, s->st)
                                    : CB_OK;
    if (st == CB_OK) {
        *w = s->px.w;
        *h = s->px.h;
        *opaque = s->opaque;
    }
    pthread_mutex_unlock(&c->lock);
    return st;
}

cb_status cb_icon_cache_ready(cb_icon_cache *c, const char *path, uint32_t side,
                              const cb_icon_ready **out, cb_error *err)
{
    pthread_mutex_lock(&c->lock);
    source *s = source_of(c, path);
    cb_status st = !s ? cb_fail(err, CB_ERR_INTERNAL, "icon %s: out of memory", path)
                   : s->st != CB_OK ? (*err = s->err, s->st)
                                    : CB_OK;
    if (st == CB_OK) {
        uint32_t big = s->px.w > s->px.h ? s->px.w : s->px.h;
        if (side == 0 || side > big)
            side = big; /* never larger than the file */
        sized *z = NULL;
        for (size_t k = 0; k < s->n_sizes && !z; k++)
            if (s->sizes[k]->side == side)
                z = s->sizes[k];
        sized **grown = z ? NULL : realloc(s->sizes, (s->n_sizes + 1) * sizeof *grown);
        if (!z && grown) {
            s->sizes = grown;
            if ((z = sized_make(s, side)))
                s->sizes[s->n_sizes++] = z;
        }
        if (z)
            *out = &z->ready;
        else
            st = cb_fail(err, CB_ERR_INTERNAL, "icon %s: out of memory preparing it", path);
    }
    pthread_mutex_unlock(&c->lock);
    return st;
}
