/* Icons scaled down for print: fewer pixels where more would not show. */
#ifndef CB_ICON_SCALE_H
#define CB_ICON_SCALE_H

#include <stdint.h>

#include "cutboard.h"
#include "io/icons.h"

/* The size of an icon of W x H pixels whose longer side is at most SIDE
 * pixels (SIDE 0: unchanged), its shape kept, never larger than it is. */
void cb_icon_scaled_size(uint32_t w, uint32_t h, uint32_t side, uint32_t *out_w,
                         uint32_t *out_h);

/* SRC scaled to W x H (each at most SRC's) into *OUT by area averaging:
 * each new pixel the mean of the source area it covers, colours weighed by
 * their alpha and averaged in linear light, so edges neither darken nor
 * grow halos. Straight RGBA in and out. CB_ERR_NOMEM when out of
 * memory (*out empty); the caller frees *out with cb_icon_free. */
cb_status cb_icon_scale(const cb_icon *src, uint32_t w, uint32_t h, cb_icon *out,
                        cb_error *err);

#endif
