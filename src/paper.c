/* Paper sizes by name or as WxHmm. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "error.h"

static const struct { const char *name; double w, h; } papers[] = {
    {"a5", 210, 148},
    {"a4", 297, 210},
    {"a3", 420, 297},
    {"a2", 594, 420},
    {"a1", 841, 594},
    {"a0", 1189, 841},
    {"letter", 279.4, 215.9},
    {"legal", 355.6, 215.9},
    {"tabloid", 431.8, 279.4},
};

cb_status cb_paper_parse(const char *name, double *w_mm, double *h_mm, cb_error *err)
{
    for (size_t i = 0; i < sizeof papers / sizeof papers[0]; i++)
        if (strcasecmp(name, papers[i].name) == 0) {
            *w_mm = papers[i].w;
            *h_mm = papers[i].h;
            return CB_OK;
        }
    char *end;
    double w = strtod(name, &end);
    if (end != name && (*end == 'x' || *end == 'X')) {
        const char *rest = end + 1;
        double h = strtod(rest, &end);
        if (end != rest && strcmp(end, "mm") == 0 && isfinite(w) && isfinite(h) && w > 0 &&
            h > 0) {
            *w_mm = fmax(w, h);
            *h_mm = fmin(w, h);
            return CB_OK;
        }
    }
    return cb_fail(err, CB_ERR_USAGE,
                   "--paper: unknown paper \"%s\" (a5, a4, a3, a2, a1, a0, letter, legal, "
                   "tabloid, or WxHmm such as 300x200mm)", name);
}
