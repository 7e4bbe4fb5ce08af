/* An encounter map as a one-page PDF: links, numbered nodes, and a legend
 * with the model, its parameters, the crossing count and (when asked) the
 * analysis with a degree histogram. The page is drawn with the boards' own
 * operators (content.c) and written by their writer (pdf.c), through
 * render.h. */
#include "base/error.h"
#include "net/network.h"
#include "print/content.h"
#include "print/render.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LEGEND_GAP_MM 4.0

typedef struct {
    cb_pdf *p;
    double page_h;
} pen;

static HPDF_REAL py(const pen *d, double mm)
{
    return cb_pt(d->page_h - mm);
}

/* S's width in mm at SIZE pt; measuring keeps its glyphs in the font. */
static double text_width(const pen *d, const char *s, double size)
{
    return cb_render_text_width(d->p, s, size) / CB_PT_PER_MM;
}

/* Text with its left end at (x, baseline y) mm, SIZE pt. */
static HPDF_STATUS text_at(const pen *d, double x, double y, double size, const char *s)
{
    text_width(d, s, size);
    cb_render_text(d->p, cb_pt(x), py(d, y), size, NULL, s);
    return d->p->cs.st;
}

/* Text centred on (x, y) mm. */
static HPDF_STATUS text_centred(const pen *d, double x, double y, double size, const char *s)
{
    double w = text_width(d, s, size);
    double h = 0.72 * size / CB_PT_PER_MM; /* digit height of DejaVu Sans */
    return text_at(d, x - w / 2, y + h / 2, size, s);
}

/* "1, 4, 7" from a list, at most MAX ids then "... (+N more)". */
static void id_list(const uint32_t *v, size_t n, size_t max, char *out, size_t len)
{
    size_t w = 0;
    out[0] = '\0';
    for (size_t i = 0; i < n && i < max && w < len; i++)
        w += (size_t)snprintf(out + w, len - w, "%s%u", i ? ", " : "", v[i]);
    if (n > max && w < len)
        snprintf(out + w, len - w, " … (+%zu more)", n - max);
}

static const char *model_long(cb_net_model m)
{
    switch (m) {
    case CB_NET_LINEAR: return "linear (a path)";
    case CB_NET_RING: return "ring lattice";
    case CB_NET_REGULAR: return "random k-regular";
    case CB_NET_COMPLETE: return "complete";
    case CB_NET_RANDOM: return "random (Erdős–Rényi)";
    case CB_NET_ANCHORED: return "anchored random";
    case CB_NET_SMALL_WORLD: return "small world (Watts–Strogatz)";
    case CB_NET_SCALE_FREE: return "scale free (Barabási–Albert)";
    }
    return "";
}

static HPDF_STATUS draw_node(const pen *d, double x, double y, double r, int centre, int hub)
{
    cb_pdf *p = d->p;
    CB_OP(p, "rg", 1, 1, 1);
    CB_OP(p, "RG", 0.1f, 0.1f, 0.1f);
    CB_OP(p, "w", hub ? 2.2f : 0.8f);
    cb_cs_circle(p, cb_pt(x), py(d, y), cb_pt(r));
    cb_cs_str(p, "B\n");
    if (centre) {
        CB_OP(p, "w", 0.6f);
        cb_cs_circle(p, cb_pt(x), py(d, y), cb_pt(r) + (hub ? 2.6f : 1.8f));
        cb_cs_str(p, "S\n");
    }
    return p->cs.st;
}

/* Centre and hubs are marked on the map only when they stand out: at most
 * a quarter of the nodes. */
static int marked(size_t count, size_t n)
{
    return count > 0 && 4 * count <= n;
}

static HPDF_STATUS draw_map(const pen *d, const cb_network *net, const cb_net_layout *l,
                            const cb_net_analysis *a)
{
    cb_pdf *p = d->p;
    const double *xy = l->xy;
    double lw = net->n_edges > 600 ? 0.5 : net->n_edges > 200 ? 0.75 : 1.0;
    CB_OP(p, "RG", 0.25f, 0.25f, 0.25f);
    CB_OP(p, "w", (HPDF_REAL)lw);
    cb_cs_str(p, "1 J\n"); /* round caps */
    for (size_t e = 0; e < net->n_edges; e++) {
        uint32_t u = net->edges[e].a, v = net->edges[e].b;
        CB_OP(p, "m", cb_pt(xy[2 * u]), py(d, xy[2 * u + 1]));
        CB_OP(p, "l", cb_pt(xy[2 * v]), py(d, xy[2 * v + 1]));
    }
    if (net->n_edges)
        cb_cs_str(p, "S\n");
    cb_cs_str(p, "0 J\n");
    CB_HPDF(p->cs.st);
    uint8_t *role = calloc(net->n, 1); /* 1 centre, 2 hub */
    if (!role)
        return HPDF_FAILD_TO_ALLOC_MEM;
    for (size_t i = 0; a && i < a->n_center && marked(a->n_center, net->n); i++)
        role[a->center[i]] |= 1;
    for (size_t i = 0; a && i < a->n_hubs && marked(a->n_hubs, net->n); i++)
        role[a->hubs[i]] |= 2;
    double r = l->node_radius;
    char label[24];
    snprintf(label, sizeof label, "%zu", net->n ? net->n - 1 : 0);
    double w10 = text_width(d, label, 10); /* widest label at 10 pt */
    double size = fmin(10 * 1.5 * r / w10, 2.2 * r * CB_PT_PER_MM * 0.55);
    HPDF_STATUS st = HPDF_OK;
    for (size_t v = 0; v < net->n && st == HPDF_OK; v++)
        st = draw_node(d, xy[2 * v], xy[2 * v + 1], r, role[v] & 1, (role[v] & 2) != 0);
    CB_OP(p, "rg", 0, 0, 0);
    for (size_t v = 0; v < net->n && st == HPDF_OK; v++) {
        snprintf(label, sizeof label, "%zu", v);
        st = text_centred(d, xy[2 * v], xy[2 * v + 1], size, label);
    }
    free(role);
    return st;
}

/* The legend in the box (x, y, w, h) mm: one line after another. */
typedef struct {
    const pen *d;
    double x, y, w, bottom;
} legend;

static HPDF_STATUS line(legend *g, double size, const char *s);

/* "LABEL: 1, 4, 7 … (+N more)" with as many ids as fit the legend's width. */
static HPDF_STATUS id_line(legend *g, double size, const char *label, const uint32_t *v,
                           size_t n)
{
    char s[512], ids[400];
    for (size_t max = n < 40 ? n : 40;; max--) {
        id_list(v, n, max, ids, sizeof ids);
        snprintf(s, sizeof s, "%s: %s", label, ids);
        if (max <= 1 || text_width(g->d, s, size) <= g->w)
            break;
    }
    return line(g, size, s);
}

static HPDF_STATUS line(legend *g, double size, const char *s)
{
    double adv = size / CB_PT_PER_MM * 1.35;
    if (g->y + adv > g->bottom)
        return HPDF_OK; /* out of room: the JSON has everything */
    g->y += adv;
    return text_at(g->d, g->x, g->y, size, s);
}

static HPDF_STATUS histogram(legend *g, const cb_net_analysis *a)
{
    cb_pdf *p = g->d->p;
    double h = 22, top = g->y + 5;
    if (top + h + 6 > g->bottom)
        return HPDF_OK;
    size_t bars = a->max_degree + 1, peak = 1;
    for (size_t i = 0; i < bars; i++)
        peak = a->degree_hist[i] > peak ? a->degree_hist[i] : peak;
    double bw = g->w / (double)bars;
    CB_OP(p, "rg", 0.45f, 0.45f, 0.45f);
    for (size_t i = 0; i < bars; i++) {
        double bh = h * (double)a->degree_hist[i] / (double)peak;
        if (bh <= 0)
            continue;
        CB_OP(p, "re", cb_pt(g->x + bw * (double)i + bw * 0.1), py(g->d, top + h),
              cb_pt(bw * 0.8), cb_pt(bh));
    }
    cb_cs_str(p, "f\n");
    CB_OP(p, "RG", 0, 0, 0);
    CB_OP(p, "w", 0.5f);
    CB_OP(p, "m", cb_pt(g->x), py(g->d, top + h));
    CB_OP(p, "l", cb_pt(g->x + g->w), py(g->d, top + h));
    cb_cs_str(p, "S\n");
    CB_OP(p, "rg", 0, 0, 0);
    CB_HPDF(p->cs.st);
    char s[64];
    snprintf(s, sizeof s, "0");
    CB_HPDF(text_at(g->d, g->x, top + h + 3.2, 6.5, s));
    snprintf(s, sizeof s, "degree %zu", a->max_degree);
    double w = text_width(g->d, s, 6.5);
    CB_HPDF(text_at(g->d, g->x + g->w - w, top + h + 3.2, 6.5, s));
    snprintf(s, sizeof s, "tallest bar: %zu nodes", peak);
    CB_HPDF(text_at(g->d, g->x, top - 0.8, 6.5, s));
    g->y = top + h + 4;
    return HPDF_OK;
}

static HPDF_STATUS draw_legend(const pen *d, const cb_network *net, const cb_net_spec *spec,
                               const cb_net_layout *l, const cb_net_analysis *a)
{
    legend g = {d, 0, 0, 0, 0};
    if (l->page_w >= l->page_h) {
        g.x = l->map_x + l->map_w + LEGEND_GAP_MM;
        g.y = l->map_y;
        g.w = l->page_w - 10 - g.x;
        g.bottom = l->page_h - 10;
    } else { /* a band under the map: two columns */
        g.x = l->map_x;
        g.y = l->map_y + l->map_h + LEGEND_GAP_MM;
        g.w = l->map_w / 2 - LEGEND_GAP_MM;
        g.bottom = l->page_h - 10;
    }
    double band_top = g.y;
    char s[512];
    CB_OP(d->p, "rg", 0, 0, 0);
    CB_HPDF(line(&g, 13, "Encounter map"));
    g.y += 1;
    snprintf(s, sizeof s, "%s%s", model_long(net->model), spec->geometric ? ", geometric" : "");
    CB_HPDF(line(&g, 9, s));
    cb_net_params_text(net, s, sizeof s);
    CB_HPDF(line(&g, 9, s));
    snprintf(s, sizeof s, "seed: %.60s", spec->seed ? spec->seed : "");
    CB_HPDF(line(&g, 8, s));
    snprintf(s, sizeof s, "%zu nodes, %zu links", net->n, net->n_edges);
    CB_HPDF(line(&g, 8, s));
    if (l->crossings)
        snprintf(s, sizeof s, "layout: %s, %zu crossing%s", l->method, l->crossings,
                 l->crossings == 1 ? "" : "s");
    else
        snprintf(s, sizeof s, "layout: %s, no crossings", l->method);
    CB_HPDF(line(&g, 8, s));
    if (!a)
        return HPDF_OK;
    if (l->page_w >= l->page_h) {
        g.y += 2;
    } else {
        g.x += l->map_w / 2;
        g.y = band_top;
    }
    CB_HPDF(line(&g, 10, "Analysis"));
    if (a->components > 1) {
        snprintf(s, sizeof s, "%zu components; distances in the largest (%zu nodes)",
                 a->components, a->largest);
        CB_HPDF(line(&g, 7.5, s));
    } else {
        CB_HPDF(line(&g, 8, "connected"));
    }
    if (a->has_distances) {
        snprintf(s, sizeof s, "radius %ld, diameter %ld", a->radius, a->diameter);
        CB_HPDF(line(&g, 8, s));
        snprintf(s, sizeof s, "average path length %.3f", a->avg_path_length);
        CB_HPDF(line(&g, 8, s));
        CB_HPDF(id_line(&g, 8, a->n_center == a->n ? "centre (all)"
                               : marked(a->n_center, a->n) ? "centre (double ring)" : "centre",
                        a->center, a->n_center));
    }
    snprintf(s, sizeof s, "hubs (degree %zu%s)", a->max_degree,
             marked(a->n_hubs, a->n) ? ", thick ring" : "");
    CB_HPDF(id_line(&g, 8, s, a->hubs, a->n_hubs));
    snprintf(s, sizeof s, "mean degree %.2f (min %zu, max %zu)", a->mean_degree, a->min_degree,
             a->max_degree);
    CB_HPDF(line(&g, 8, s));
    snprintf(s, sizeof s, "clustering %.3f, transitivity %.3f", a->avg_clustering,
             a->transitivity);
    CB_HPDF(line(&g, 8, s));
    g.y += 1;
    CB_HPDF(line(&g, 8, "degree distribution"));
    return histogram(&g, a);
}

/* The map and its legend: what cb_net_pdf_render draws. */
typedef struct {
    const cb_network *net;
    const cb_net_spec *spec;
    const cb_net_layout *layout;
    const cb_net_analysis *a;
} map_page;

static HPDF_STATUS draw_page(cb_pdf *p, const void *ctx)
{
    const map_page *m = ctx;
    pen d = {p, m->layout->page_h};
    CB_HPDF(draw_map(&d, m->net, m->layout, m->a));
    return draw_legend(&d, m->net, m->spec, m->layout, m->a);
}

cb_status cb_net_pdf_render(const cb_network *net, const cb_net_spec *spec,
                            const cb_net_layout *layout, const cb_net_analysis *a,
                            const cb_render_options *opt, unsigned char **pdf, size_t *len,
                            cb_error *err)
{
    *pdf = NULL;
    *len = 0;
    if (!opt->font_path || !*opt->font_path)
        return cb_fail(err, CB_ERR_USAGE, "font: no TrueType font file given");
    if (!net || !layout || !spec || layout->xy == NULL)
        return cb_fail(err, CB_ERR_INTERNAL, "PDF: no network or layout");
    map_page m = {net, spec, layout, a};
    cb_pdf_writer *w = NULL;
    cb_status st = cb_pdf_begin(NULL, opt, &w, err);
    if (st == CB_OK)
        st = cb_pdf_add_drawing(w, layout->page_w, layout->page_h, draw_page, &m,
                                "drawing the map", err);
    if (st == CB_OK)
        st = cb_pdf_end(w, pdf, len, err);
    cb_pdf_writer_free(w);
    return st;
}
