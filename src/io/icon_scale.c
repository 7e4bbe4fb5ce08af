/* Area-average downscaling of icons (see icon_scale.h): two separable
 * passes over premultiplied linear-light pixels in float. */
#include "io/icon_scale.h"

#include "base/error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void cb_icon_scaled_size(uint32_t w, uint32_t h, uint32_t side, uint32_t *out_w,
                         uint32_t *out_h)
{
    uint32_t big = w > h ? w : h;
    if (side == 0 || side >= big) {
        *out_w = w, *out_h = h;
        return;
    }
    double s = (double)side / big;
    uint32_t nw = (uint32_t)lround(w * s), nh = (uint32_t)lround(h * s);
    *out_w = nw ? nw : 1;
    *out_h = nh ? nh : 1;
}

/* sRGB byte to linear light, and back by the nearest byte in linear light. */
static void srgb_table(float lin[256])
{
    for (int i = 0; i < 256; i++) {
        double c = i / 255.0;
        lin[i] = (float)(c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4));
    }
}

static unsigned char to_srgb(const float lin[256], float v)
{
    int lo = 0, hi = 255;
    while (lo < hi) { /* the first byte at or above V */
        int mid = (lo + hi) / 2;
        if (lin[mid] < v)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo > 0 && v - lin[lo - 1] <= lin[lo] - v)
        lo--;
    return (unsigned char)lo;
}

/* The source pixels output pixel I of N covers out of M, with the share of
 * each: FIRST[i], COUNT[i] and COUNT[i] weights from W[i * stride]. */
typedef struct {
    uint32_t *first, *count;
    float *w;
    uint32_t stride;
} taps;

static int taps_make(uint32_t m, uint32_t n, taps *t)
{
    double step = (double)m / n;
    t->stride = (uint32_t)ceil(step) + 1;
    t->first = malloc(n * sizeof *t->first);
    t->count = malloc(n * sizeof *t->count);
    t->w = malloc((size_t)n * t->stride * sizeof *t->w);
    if (!t->first || !t->count || !t->w)
        return -1;
    for (uint32_t i = 0; i < n; i++) {
        double a = i * step, b = (i + 1) * step;
        uint32_t f = (uint32_t)floor(a), k = 0;
        if (f >= m)
            f = m - 1;
        t->first[i] = f;
        for (uint32_t j = f; j < m && j < b && k < t->stride; j++, k++) {
            double lo = j > a ? j : a, hi = j + 1 < b ? j + 1 : b;
            t->w[(size_t)i * t->stride + k] = (float)((hi - lo) / step);
        }
        t->count[i] = k;
    }
    return 0;
}

static void taps_free(taps *t)
{
    free(t->first);
    free(t->count);
    free(t->w);
}

cb_status cb_icon_scale(const cb_icon *src, uint32_t w, uint32_t h, cb_icon *out,
                        cb_error *err)
{
    memset(out, 0, sizeof *out);
    if (!src->rgba || w == 0 || h == 0 || w > src->w || h > src->h)
        return cb_fail(err, CB_ERR_INTERNAL, "icon: cannot scale %ux%u to %ux%u",
                       (unsigned)src->w, (unsigned)src->h, (unsigned)w, (unsigned)h);
    size_t n = (size_t)w * h * 4;
    out->rgba = malloc(n);
    if (!out->rgba)
        return cb_fail(err, CB_ERR_NOMEM, "icon: out of memory scaling it");
    out->w = w, out->h = h;
    if (w == src->w && h == src->h) {
        memcpy(out->rgba, src->rgba, n);
        return CB_OK;
    }
    float lin[256];
    srgb_table(lin);
    taps tx = {0}, ty = {0};
    /* rows of the source scaled across, premultiplied linear RGBA */
    float *mid = malloc((size_t)w * src->h * 4 * sizeof *mid);
    if (!mid || taps_make(src->w, w, &tx) != 0 || taps_make(src->h, h, &ty) != 0) {
        free(mid);
        taps_free(&tx);
        taps_free(&ty);
        cb_icon_free(out);
        return cb_fail(err, CB_ERR_NOMEM, "icon: out of memory scaling it");
    }
    for (uint32_t y = 0; y < src->h; y++) {
        const unsigned char *row = src->rgba + (size_t)y * src->w * 4;
        for (uint32_t x = 0; x < w; x++) {
            float acc[4] = {0, 0, 0, 0};
            const float *wt = tx.w + (size_t)x * tx.stride;
            for (uint32_t k = 0; k < tx.count[x]; k++) {
                const unsigned char *px = row + 4 * (size_t)(tx.first[x] + k);
                if (!px[3]) /* most of an icon: adds nothing */
                    continue;
                float a = px[3] / 255.0f * wt[k];
                acc[0] += lin[px[0]] * a;
                acc[1] += lin[px[1]] * a;
                acc[2] += lin[px[2]] * a;
                acc[3] += a;
            }
            memcpy(mid + ((size_t)y * w + x) * 4, acc, sizeof acc);
        }
    }
    for (uint32_t y = 0; y < h; y++) {
        const float *wt = ty.w + (size_t)y * ty.stride;
        for (uint32_t x = 0; x < w; x++) {
            float acc[4] = {0, 0, 0, 0};
            for (uint32_t k = 0; k < ty.count[y]; k++) {
                const float *px = mid + ((size_t)(ty.first[y] + k) * w + x) * 4;
                for (int c = 0; c < 4; c++)
                    acc[c] += px[c] * wt[k];
            }
            unsigned char *o = out->rgba + ((size_t)y * w + x) * 4;
            float a = acc[3] * 255.0f + 0.5f;
            o[3] = (unsigned char)(a < 0 ? 0 : a >= 255 ? 255 : (int)a);
            for (int c = 0; c < 3; c++)
                o[c] = acc[3] > 0 ? to_srgb(lin, acc[c] / acc[3]) : 0;
        }
    }
    free(mid);
    taps_free(&tx);
    taps_free(&ty);
    return CB_OK;
}
