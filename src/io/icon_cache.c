/* See icon_cache.h. One lock guards the cache; an entry, once made, keeps
 * what it handed out unchanged, so that is read without the lock.
 *
 * On disk (cb_icon_cache_set_dir), a file per icon file's bytes and one
 * per size made of it, named by a hash of those bytes: "<key>.src" holds
 * the size and opacity, "<key>-<side>.icon" the deflated planes. Each ends
 * with a CRC-32 of the rest and is checked whole before use; anything
 * short, damaged or of another format is made again and written anew. */
#include "io/icon_cache.h"
#include "io/icon_scale.h"

#include "base/error.h"

#include <errno.h>
#include <fcntl.h>
#include <libdeflate.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

/* The files' format: change the digit whenever the bytes made from an icon
 * file change (scaling, planes, deflating), so old files go unused. */
#define DISK_MAGIC "cbicon1\n"
#define DISK_MAX ((size_t)64 << 20)

typedef struct {
    uint32_t side;
    cb_icon px;
    unsigned char *rgb, *alpha;
    cb_icon_ready ready;
} sized;

typedef struct {
    char *path;
    cb_status st;   /* reading and decoding the file; its error below */
    cb_error err;
    uint32_t w, h;
    int opaque;
    cb_icon px;     /* decoded; empty until needed when the disk knew it */
    unsigned char *png; /* the file's bytes, while PX is empty */
    size_t png_len;
    char key[40];   /* the bytes' hash, naming its files on disk */
    sized **sizes;
    size_t n_sizes;
} source;

/* Bytes kept under a name (cb_icon_cache_keep). */
typedef struct {
    char *name;
    unsigned char *data;
    size_t len;
} kept;

/* The kept bytes held in memory: a server's documents mostly ask for one
 * or two (the font program of the glyphs its pages use). */
#define KEPT_IN_MEMORY 4

struct cb_icon_cache {
    pthread_mutex_t lock;
    source **src;
    size_t n_src;
    kept kept[KEPT_IN_MEMORY];
    unsigned next_kept;
    char *dir;      /* NULL: memory only */
    unsigned written; /* files written, for unique temporary names */
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
        free(s->png);
        free(s->path);
        free(s);
    }
    free(c->src);
    for (int i = 0; i < KEPT_IN_MEMORY; i++) {
        free(c->kept[i].name);
        free(c->kept[i].data);
    }
    free(c->dir);
    pthread_mutex_destroy(&c->lock);
    free(c);
}

/* Makes folder DIR (and its parent) when missing, as private to the user. */
static void make_dirs(const char *dir)
{
    char parent[4096];
    size_t n = strlen(dir);
    while (n > 1 && dir[n - 1] == '/')
        n--;
    while (n > 0 && dir[n - 1] != '/')
        n--;
    if (n > 1 && n < sizeof parent) {
        memcpy(parent, dir, n - 1);
        parent[n - 1] = '\0';
        (void)mkdir(parent, 0700);
    }
    (void)mkdir(dir, 0700);
}

cb_status cb_icon_cache_set_dir(cb_icon_cache *c, const char *dir, cb_error *err)
{
    char *copy = dir && *dir ? strdup(dir) : NULL;
    if (dir && *dir && !copy)
        return cb_fail(err, CB_ERR_NOMEM, "icon cache: out of memory");
    if (copy)
        make_dirs(copy);
    pthread_mutex_lock(&c->lock);
    free(c->dir);
    c->dir = copy;
    pthread_mutex_unlock(&c->lock);
    return CB_OK;
}

/* ---- files on disk ------------------------------------------------------ */

static void put32(unsigned char *p, uint32_t v)
{
    for (int k = 0; k < 4; k++)
        p[k] = (unsigned char)(v >> (8 * k));
}

static uint32_t get32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The file NAME of C's folder whole, if it has the format's magic and its
 * CRC holds: a new buffer of *LEN bytes (the CRC left off), else NULL. */
static unsigned char *disk_read(const cb_icon_cache *c, const char *name, size_t *len)
{
    char path[4200];
    if (snprintf(path, sizeof path, "%s/%s", c->dir, name) >= (int)sizeof path)
        return NULL;
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    struct stat sb;
    unsigned char *data = NULL;
    size_t n = 0;
    if (fstat(fileno(f), &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size >= 12 &&
        (size_t)sb.st_size <= DISK_MAX && (data = malloc((size_t)sb.st_size + 1)))
        n = fread(data, 1, (size_t)sb.st_size + 1, f);
    fclose(f);
    if (!data || n != (size_t)sb.st_size || memcmp(data, DISK_MAGIC, 8) != 0 ||
        libdeflate_crc32(0, data, n - 4) != get32(data + n - 4)) {
        free(data);
        return NULL;
    }
    *len = n - 4;
    return data;
}

/* Writes LEN bytes of DATA (room for 4 more: the CRC) as file NAME of C's
 * folder, whole or not at all; a failure only costs the next process the
 * work again. Called with the lock held. */
static void disk_write(cb_icon_cache *c, const char *name, unsigned char *data, size_t len)
{
    char path[4200], tmp[4300];
    put32(data + len, libdeflate_crc32(0, data, len));
    len += 4;
    if (snprintf(path, sizeof path, "%s/%s", c->dir, name) >= (int)sizeof path ||
        snprintf(tmp, sizeof tmp, "%s/.%s.%ld.%u.tmp", c->dir, name, (long)getpid(),
                 c->written++) >= (int)sizeof tmp)
        return;
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0)
        return;
    size_t done = 0;
    while (done < len) {
        ssize_t w = write(fd, data + done, len - done);
        if (w <= 0 && errno != EINTR)
            break;
        done += w > 0 ? (size_t)w : 0;
    }
    if (close(fd) != 0 || done < len || rename(tmp, path) != 0)
        (void)unlink(tmp);
}

/* S's size and opacity from the disk; 0 when it has none that holds. */
static int src_read(const cb_icon_cache *c, source *s)
{
    char name[64];
    snprintf(name, sizeof name, "%s.src", s->key);
    size_t len;
    unsigned char *d = disk_read(c, name, &len);
    int ok = d && len == 20;
    if (ok) {
        s->w = get32(d + 8), s->h = get32(d + 12), s->opaque = (int)get32(d + 16);
        ok = s->w >= 1 && s->h >= 1 && s->w <= CB_ICON_MAX_SIDE && s->h <= CB_ICON_MAX_SIDE &&
             (s->opaque == 0 || s->opaque == 1);
    }
    free(d);
    return ok;
}

static void src_write(cb_icon_cache *c, const source *s)
{
    char name[64];
    unsigned char d[24];
    memcpy(d, DISK_MAGIC, 8);
    put32(d + 8, s->w), put32(d + 12, s->h), put32(d + 16, (uint32_t)s->opaque);
    snprintf(name, sizeof name, "%s.src", s->key);
    disk_write(c, name, d, 20);
}

/* Z's planes (W x H) from the disk; 0 when it has none that holds. */
static int sized_read(const cb_icon_cache *c, const source *s, sized *z, uint32_t w, uint32_t h)
{
    char name[80];
    snprintf(name, sizeof name, "%s-%u.icon", s->key, (unsigned)z->side);
    size_t len;
    unsigned char *d = disk_read(c, name, &len);
    if (!d || len < 24 || get32(d + 8) != w || get32(d + 12) != h) {
        free(d);
        return 0;
    }
    size_t rgb_len = get32(d + 16), alpha_len = get32(d + 20);
    if (rgb_len == 0 || (alpha_len == 0) != (s->opaque != 0) || rgb_len > len - 24 ||
        alpha_len != len - 24 - rgb_len || !(z->rgb = malloc(rgb_len)) ||
        (alpha_len && !(z->alpha = malloc(alpha_len)))) {
        free(z->rgb);
        z->rgb = NULL;
        free(d);
        return 0;
    }
    memcpy(z->rgb, d + 24, rgb_len);
    if (alpha_len)
        memcpy(z->alpha, d + 24 + rgb_len, alpha_len);
    z->ready.rgb_len = rgb_len;
    z->ready.alpha_len = alpha_len;
    free(d);
    return 1;
}

static void sized_write(cb_icon_cache *c, const source *s, const sized *z)
{
    size_t len = 24 + z->ready.rgb_len + z->ready.alpha_len;
    unsigned char *d = malloc(len + 4);
    if (!d)
        return;
    memcpy(d, DISK_MAGIC, 8);
    put32(d + 8, z->ready.w), put32(d + 12, z->ready.h);
    put32(d + 16, (uint32_t)z->ready.rgb_len), put32(d + 20, (uint32_t)z->ready.alpha_len);
    memcpy(d + 24, z->rgb, z->ready.rgb_len);
    if (z->alpha)
        memcpy(d + 24 + z->ready.rgb_len, z->alpha, z->ready.alpha_len);
    char name[80];
    snprintf(name, sizeof name, "%s-%u.icon", s->key, (unsigned)z->side);
    disk_write(c, name, d, len);
    free(d);
}

/* ---- making icons ready --------------------------------------------------- */

/* S's pixels decoded (when the disk knew its size, only now). CB_OK,
 * or the decoding's error (which S keeps from then on). */
static cb_status decode(source *s, cb_error *err)
{
    if (s->px.rgba)
        return CB_OK;
    cb_status st = cb_icon_decode(s->png, s->png_len, s->path, &s->px, &s->err);
    if (st == CB_ERR_NOMEM) {
        *err = s->err;
        return st;
    }
    free(s->png);
    s->png = NULL;
    if ((s->st = st) != CB_OK) {
        *err = s->err;
        return st;
    }
    s->w = s->px.w, s->h = s->px.h;
    s->opaque = 1;
    size_t n = (size_t)s->px.w * s->px.h;
    for (size_t i = 0; i < n && s->opaque; i++)
        s->opaque = s->px.rgba[4 * i + 3] == 255;
    return CB_OK;
}

/* PATH's entry, read (and decoded, unless the disk knows its size) the
 * first time; NULL when out of memory. Called with the lock held. */
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
    cb_error err;
    s->st = cb_icon_read(path, &s->png, &s->png_len, &s->err);
    if (s->st == CB_OK) {
        snprintf(s->key, sizeof s->key, "%08x%08x-%zx",
                 (unsigned)libdeflate_crc32(0, s->png, s->png_len),
                 (unsigned)libdeflate_adler32(1, s->png, s->png_len), s->png_len);
        if (!c->dir || !src_read(c, s)) {
            if (decode(s, &err) == CB_ERR_NOMEM)
                s->st = CB_ERR_NOMEM;
            else if (c->dir && s->st == CB_OK)
                src_write(c, s);
        }
    }
    if (s->st == CB_ERR_NOMEM) { /* out of memory: not the file's fault */
        free(s->png);
        free(s->path);
        free(s);
        return NULL;
    }
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

/* Z's pixels: S's scaled to Z's size. */
static cb_status sized_pixels(source *s, sized *z, cb_error *err)
{
    if (z->px.rgba)
        return CB_OK;
    cb_status st = decode(s, err);
    if (st == CB_OK)
        st = cb_icon_scale(&s->px, z->ready.w, z->ready.h, &z->px, err);
    if (st == CB_OK)
        z->ready.pixels = &z->px;
    return st;
}

/* S at SIDE: from the disk, or scaled, split into planes and deflated (and
 * then written to the disk); its pixels too when PIXELS. NULL and *ST when
 * it cannot be made. */
static sized *sized_make(cb_icon_cache *c, source *s, uint32_t side, int pixels, cb_status *st,
                         cb_error *err)
{
    sized *z = calloc(1, sizeof *z);
    if (!z) {
        *st = cb_fail(err, CB_ERR_NOMEM, "icon %s: out of memory preparing it", s->path);
        return NULL;
    }
    z->side = side;
    cb_icon_scaled_size(s->w, s->h, side, &z->ready.w, &z->ready.h);
    int from_disk = c->dir && sized_read(c, s, z, z->ready.w, z->ready.h);
    *st = from_disk && !pixels ? CB_OK : sized_pixels(s, z, err);
    if (*st != CB_OK) {
        sized_free(z);
        return NULL;
    }
    if (!from_disk) {
        size_t n = (size_t)z->ready.w * z->ready.h;
        unsigned char *rgb = malloc(n * 3), *alpha = malloc(n);
        for (size_t i = 0; rgb && alpha && i < n; i++) {
            const unsigned char *px = z->px.rgba + 4 * i;
            alpha[i] = px[3];
            for (int k = 0; k < 3; k++)
                rgb[3 * i + (size_t)k] = px[3] ? px[k] : 255;
        }
        if (rgb && alpha)
            z->rgb = deflate_runs(rgb, n * 3, &z->ready.rgb_len);
        if (z->rgb && !s->opaque)
            z->alpha = deflate_runs(alpha, n, &z->ready.alpha_len);
        free(rgb);
        free(alpha);
        if (!z->rgb || (!s->opaque && !z->alpha)) {
            sized_free(z);
            *st = cb_fail(err, CB_ERR_NOMEM, "icon %s: out of memory preparing it", s->path);
            return NULL;
        }
        if (c->dir)
            sized_write(c, s, z);
        if (!pixels) { /* the planes are what documents want */
            cb_icon_free(&z->px);
            z->ready.pixels = NULL;
        }
    }
    z->ready.rgb = z->rgb;
    z->ready.alpha = z->alpha;
    return z;
}

cb_status cb_icon_cache_source(cb_icon_cache *c, const char *path, uint32_t *w, uint32_t *h,
                               int *opaque, cb_error *err)
{
    pthread_mutex_lock(&c->lock);
    const source *s = source_of(c, path);
    cb_status st = !s ? cb_fail(err, CB_ERR_NOMEM, "icon %s: out of memory", path)
                   : s->st != CB_OK ? (*err = s->err, s->st)
                                    : CB_OK;
    if (st == CB_OK) {
        *w = s->w;
        *h = s->h;
        *opaque = s->opaque;
    }
    pthread_mutex_unlock(&c->lock);
    return st;
}

cb_status cb_icon_cache_ready(cb_icon_cache *c, const char *path, uint32_t side, int pixels,
                              const cb_icon_ready **out, cb_error *err)
{
    pthread_mutex_lock(&c->lock);
    source *s = source_of(c, path);
    cb_status st = !s ? cb_fail(err, CB_ERR_NOMEM, "icon %s: out of memory", path)
                   : s->st != CB_OK ? (*err = s->err, s->st)
                                    : CB_OK;
    if (st == CB_OK) {
        uint32_t big = s->w > s->h ? s->w : s->h;
        if (side == 0 || side > big)
            side = big; /* never larger than the file */
        sized *z = NULL;
        for (size_t k = 0; k < s->n_sizes && !z; k++)
            if (s->sizes[k]->side == side)
                z = s->sizes[k];
        if (z && pixels) {
            st = sized_pixels(s, z, err);
        } else if (!z) {
            sized **grown = realloc(s->sizes, (s->n_sizes + 1) * sizeof *grown);
            if (!grown)
                st = cb_fail(err, CB_ERR_NOMEM, "icon %s: out of memory preparing it", path);
            else if ((s->sizes = grown, z = sized_make(c, s, side, pixels, &st, err)))
                s->sizes[s->n_sizes++] = z;
        }
        if (st == CB_OK)
            *out = &z->ready;
    }
    pthread_mutex_unlock(&c->lock);
    return st;
}

/* ---- other bytes kept with the icons -------------------------------------- */

unsigned char *cb_icon_cache_recall(cb_icon_cache *c, const char *name, size_t *len)
{
    unsigned char *out = NULL;
    pthread_mutex_lock(&c->lock);
    for (int i = 0; i < KEPT_IN_MEMORY && !out; i++)
        if (c->kept[i].name && strcmp(c->kept[i].name, name) == 0 &&
            (out = malloc(c->kept[i].len ? c->kept[i].len : 1))) {
            memcpy(out, c->kept[i].data, c->kept[i].len);
            *len = c->kept[i].len;
        }
    size_t n;
    unsigned char *file = !out && c->dir ? disk_read(c, name, &n) : NULL;
    pthread_mutex_unlock(&c->lock);
    if (file) { /* the magic left off */
        memmove(file, file + 8, n - 8);
        *len = n - 8;
        out = file;
    }
    return out;
}

void cb_icon_cache_keep(cb_icon_cache *c, const char *name, const unsigned char *data,
                        size_t len)
{
    char *nm = strdup(name);
    unsigned char *copy = malloc(len ? len : 1);
    unsigned char *file = c->dir ? malloc(8 + len + 4) : NULL;
    if (!nm || !copy) {
        free(nm);
        free(copy);
        free(file);
        return;
    }
    memcpy(copy, data, len);
    pthread_mutex_lock(&c->lock);
    kept *k = &c->kept[c->next_kept];
    c->next_kept = (c->next_kept + 1) % KEPT_IN_MEMORY;
    free(k->name);
    free(k->data);
    *k = (kept){nm, copy, len};
    if (file && c->dir) {
        memcpy(file, DISK_MAGIC, 8);
        memcpy(file + 8, data, len);
        disk_write(c, name, file, 8 + len);
    }
    pthread_mutex_unlock(&c->lock);
    free(file);
}
