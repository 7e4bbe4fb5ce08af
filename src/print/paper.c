/* Paper and pages: paper sizes by name or as WxH with a unit, lengths with
 * units, and where boards go on a page for print shops (bleed, crop marks,
 * N-up imposition on a larger sheet). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "base/error.h"

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
    /* Press sheets a little larger than A4/A3/A2, room for bleed and marks. */
    {"sra4", 320, 225},
    {"sra3", 450, 320},
    {"sra2", 640, 450},
};

/* Sides a page may have: libharu takes 3..14400 pt; below 10 mm nothing
 * fits. */
#define CB_SIDE_MIN_MM 10.0
#define CB_SIDE_MAX_MM (14400.0 * 25.4 / 72.0)

/* Crop marks: 0.25 pt lines 5 mm long, at least 3 mm (and at least the
 * bleed) outside the trim. */
#define CB_MARK_OFFSET_MM 3.0
#define CB_MARK_LENGTH_MM 5.0
#define CB_BLEED_MAX_MM 25.0
#define CB_GUTTER_DEFAULT_MM 6.0
#define CB_GUTTER_MAX_MM 100.0
#define CB_SAFE_MAX_MM 50.0

/* mm per unit for a unit suffix ("mm", "in", "pt"; "" when BARE is set),
 * else 0. */
static double cb_unit_mm(const char *unit, int bare)
{
    if (bare && *unit == '\0')
        return 1.0;
    if (strcmp(unit, "mm") == 0)
        return 1.0;
    if (strcmp(unit, "in") == 0)
        return 25.4;
    if (strcmp(unit, "pt") == 0)
        return 25.4 / 72.0;
    return 0;
}

/* A plain decimal number (no sign, no exponent, no hex, no inf or nan):
 * returns the end of it, or NULL. */
static const char *cb_number(const char *s, double *v)
{
    const char *c = s;
    int digits = 0;
    while (*c >= '0' && *c <= '9')
        c++, digits++;
    if (*c == '.') {
        c++;
        while (*c >= '0' && *c <= '9')
            c++, digits++;
    }
    if (!digits || c - s > 20)
        return NULL;
    char buf[32];
    memcpy(buf, s, (size_t)(c - s));
    buf[c - s] = '\0';
    *v = strtod(buf, NULL);
    return c;
}

cb_status cb_length_parse(const char *field, const char *text, double *mm, cb_error *err)
{
    double v;
    const char *end = text ? cb_number(text, &v) : NULL;
    double unit = end ? cb_unit_mm(end, 1) : 0;
    if (!end || unit == 0)
        return cb_fail_option(err, field,
                              "\"%.40s\" is not a length (such as 3mm, 0.125in, 9pt or 3)",
                              text ? text : "");
    *mm = v * unit;
    return CB_OK;
}

cb_status cb_size_parse(const char *field, const char *text, double *w_mm, double *h_mm,
                        cb_error *err)
{
    for (size_t i = 0; i < sizeof papers / sizeof papers[0]; i++)
        if (strcasecmp(text, papers[i].name) == 0) {
            *w_mm = papers[i].w;
            *h_mm = papers[i].h;
            return CB_OK;
        }
    double w, h, unit = 0;
    const char *end = cb_number(text, &w);
    if (end && (*end == 'x' || *end == 'X')) {
        end = cb_number(end + 1, &h);
        unit = end ? cb_unit_mm(end, 0) : 0;
    }
    if (unit == 0)
        return cb_fail_option(err, field,
                       "unknown paper \"%.40s\" (a5, a4, a3, a2, a1, a0, letter, legal, "
                       "tabloid, sra4, sra3, sra2, or WxH in mm, in or pt such as 300x200mm "
                       "or 8.5x11in)", text);
    w *= unit, h *= unit;
    double lo = fmin(w, h), hi = fmax(w, h);
    if (lo < CB_SIDE_MIN_MM || hi > CB_SIDE_MAX_MM)
        return cb_fail_option(err, field,
                       "\"%.40s\" is %gx%g mm; each side must be %.0f..%.0f mm", text,
                       w, h, CB_SIDE_MIN_MM, CB_SIDE_MAX_MM);
    *w_mm = hi;
    *h_mm = lo;
    return CB_OK;
}

cb_status cb_paper_parse(const char *name, double *w_mm, double *h_mm, cb_error *err)
{
    return cb_size_parse("paper", name, w_mm, h_mm, err);
}

/* Boards of CW x CH on a W x H area with gutter G between them. */
static int cb_fit(double cw, double ch, double w, double h, double g, int *cols, int *rows)
{
    /* A hair of slack so that exact fits (A5 twice on A4) are not lost to
     * rounding. */
    double eps = 1e-9;
    *cols = w + eps < cw ? 0 : 1 + (int)floor((w - cw + eps) / (cw + g));
    *rows = h + eps < ch ? 0 : 1 + (int)floor((h - ch + eps) / (ch + g));
    return *cols * *rows;
}

cb_status cb_page_layout_make(double board_w, double board_h, const cb_render_options *opt,
                              cb_page_layout *out, cb_error *err)
{
    memset(out, 0, sizeof *out);
    if (!(board_w > 0 && board_h > 0 && board_w < 1e6 && board_h < 1e6))
        return cb_fail(err, CB_ERR_DATA, "page: bad board paper %gx%g mm", board_w, board_h);
    double b = opt->bleed;
    if (!(b >= 0 && b <= CB_BLEED_MAX_MM))
        return cb_fail_option(err, "bleed", "%g mm is out of range (0..%.0f mm)", b,
                       CB_BLEED_MAX_MM);
    if (!(opt->safe_area >= 0 && opt->safe_area <= CB_SAFE_MAX_MM))
        return cb_fail_option(err, "safe_area", "%g mm is out of range (0..%.0f mm)",
                       opt->safe_area, CB_SAFE_MAX_MM);
    if (opt->crop_marks) {
        out->mark_offset = fmax(CB_MARK_OFFSET_MM, b);
        out->mark_length = CB_MARK_LENGTH_MM;
    }
    /* From the trim to the page edge: room for the bleed and the marks. */
    double ext = opt->crop_marks ? out->mark_offset + out->mark_length : b;
    out->cols = out->rows = 1;
    out->cell_w = board_w;
    out->cell_h = board_h;

    if (opt->sheet_w == 0 && opt->sheet_h == 0) {
        out->page_w = board_w + 2 * ext;
        out->page_h = board_h + 2 * ext;
        if (out->page_w > CB_SIDE_MAX_MM || out->page_h > CB_SIDE_MAX_MM)
            return cb_fail_option(err, "bleed",
                           "a %gx%g mm page with bleed and marks is larger than "
                           "%.0f mm", board_w, board_h, CB_SIDE_MAX_MM);
        out->trim[0] = out->trim[1] = ext;
    } else {
        double sw = opt->sheet_w, sh = opt->sheet_h;
        if (!(sw >= CB_SIDE_MIN_MM && sh >= CB_SIDE_MIN_MM && sw <= CB_SIDE_MAX_MM &&
              sh <= CB_SIDE_MAX_MM))
            return cb_fail_option(err, "sheet", "%gx%g mm is out of range (%.0f..%.0f mm)",
                           sw, sh, CB_SIDE_MIN_MM, CB_SIDE_MAX_MM);
        double g = opt->gutter < 0 ? fmax(CB_GUTTER_DEFAULT_MM, 2 * b) : opt->gutter;
        if (!(g <= CB_GUTTER_MAX_MM))
            return cb_fail_option(err, "gutter", "%g mm is out of range (0..%.0f mm)",
                           g, CB_GUTTER_MAX_MM);
        if (g + 1e-9 < 2 * b)
            return cb_fail_option(err, "gutter",
                           "%g mm is less than twice the bleed (%g mm): neighbouring "
                           "boards' bleeds would overlap", g, 2 * b);
        int c0, r0, c1, r1;
        int n0 = cb_fit(board_w, board_h, sw - 2 * ext, sh - 2 * ext, g, &c0, &r0);
        int n1 = cb_fit(board_h, board_w, sw - 2 * ext, sh - 2 * ext, g, &c1, &r1);
        if (n0 == 0 && n1 == 0)
            return cb_fail_option(err, "sheet",
                           "a %gx%g mm board does not fit on a %gx%g mm sheet "
                           "(%g mm kept for bleed and marks on every side)", board_w, board_h,
                           sw, sh, ext);
        out->rotated = n1 > n0;
        out->cols = out->rotated ? c1 : c0;
        out->rows = out->rotated ? r1 : r0;
        if (out->rotated) {
            out->cell_w = board_h;
            out->cell_h = board_w;
        }
        out->gutter = g;
        out->page_w = sw;
        out->page_h = sh;
        double gw = out->cols * out->cell_w + (out->cols - 1) * g;
        double gh = out->rows * out->cell_h + (out->rows - 1) * g;
        out->trim[0] = (sw - gw) / 2;
        out->trim[1] = (sh - gh) / 2;
    }
    out->trim[2] = out->cols * out->cell_w + (out->cols - 1) * out->gutter;
    out->trim[3] = out->rows * out->cell_h + (out->rows - 1) * out->gutter;
    out->bleed[0] = out->trim[0] - b;
    out->bleed[1] = out->trim[1] - b;
    out->bleed[2] = out->trim[2] + 2 * b;
    out->bleed[3] = out->trim[3] + 2 * b;
    return CB_OK;
}

void cb_page_layout_cell(const cb_page_layout *l, int k, double *x, double *y)
{
    int cols = l->cols > 0 ? l->cols : 1;
    *x = l->trim[0] + (k % cols) * (l->cell_w + l->gutter);
    *y = l->trim[1] + (k / cols) * (l->cell_h + l->gutter);
}

cb_status cb_spec_set_paper(cb_spec *spec, const char *name, int portrait, cb_error *err)
{
    cb_status st = cb_paper_parse(name, &spec->page_w, &spec->page_h, err);
    if (st != CB_OK)
        return st;
    if (portrait) {
        double t = spec->page_w;
        spec->page_w = spec->page_h;
        spec->page_h = t;
    }
    return cb_spec_check(spec, err);
}
