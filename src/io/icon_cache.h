/* A theme's icons made ready to print once and shared by every document
 * of the theme, on any thread: each PNG decoded once, and at each size a
 * document asks for, its colour and alpha planes deflated once. */
#ifndef CB_ICON_CACHE_H
#define CB_ICON_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "cutboard.h"
#include "io/icons.h"

typedef struct cb_icon_cache cb_icon_cache;

/* One icon at one size. RGB holds the colour rows (invisible pixels
 * white: their colour never shows, and equal bytes pack better), ALPHA the
 * alpha rows (NULL when every pixel is opaque), each a zlib stream
 * deflated by runs (Z_RLE, level 1). PIXELS are the straight RGBA at that
 * size (for CMYK flattening; NULL unless asked for). Valid until the cache
 * is freed. */
typedef struct {
    uint32_t w, h;
    const cb_icon *pixels;
    const unsigned char *rgb, *alpha;
    size_t rgb_len, alpha_len;
} cb_icon_ready;

/* A new, empty cache; NULL when out of memory. */
cb_icon_cache *cb_icon_cache_new(void);

/* Frees the cache and all it made; NULL is fine. */
void cb_icon_cache_free(cb_icon_cache *c);

/* The icon at PATH decoded (the first time it is asked for): its size in
 * pixels and whether every pixel is opaque. A file that cannot be decoded
 * gives cb_icon_load's error, each time it is asked for. */
cb_status cb_icon_cache_source(cb_icon_cache *c, const char *path, uint32_t *w, uint32_t *h,
                               int *opaque, cb_error *err);

/* The icon at PATH with its longer side at most SIDE pixels (0: as the
 * file has it; never larger than the file), made the first time it is
 * asked for; its PIXELS too when asked (else they may be NULL: planes read
 * from the disk). CB_ERR_NOMEM when out of memory; a file the disk
 * knew but that no longer decodes gives its error. */
cb_status cb_icon_cache_ready(cb_icon_cache *c, const char *path, uint32_t side, int pixels,
                              const cb_icon_ready **out, cb_error *err);

/* Keeps what C makes in folder DIR too (made if missing; NULL or "": no
 * longer), and reads it from there before making it: later processes skip
 * decoding, scaling and deflating. Files are named by a hash of the icon
 * file's bytes and checked when read; one that does not hold is made
 * again. A folder that cannot be read or written costs the speed only.
 * CB_ERR_NOMEM when out of memory. */
cb_status cb_icon_cache_set_dir(cb_icon_cache *c, const char *dir, cb_error *err);

/* Other bytes a theme's documents make alike, kept with the icons (the
 * font's program): those kept under NAME (named by a hash of all they were
 * made from), from memory or from the folder, checked whole; a new buffer
 * of *LEN bytes the caller frees, or NULL when none holds (or out of
 * memory: they are made again). */
unsigned char *cb_icon_cache_recall(cb_icon_cache *c, const char *name, size_t *len);

/* Keeps LEN bytes at DATA under NAME: in memory (the last few) and in the
 * folder when C has one. Failing costs only the work again. */
void cb_icon_cache_keep(cb_icon_cache *c, const char *name, const unsigned char *data,
                        size_t len);

#endif
