/* The rules and legend page: the theme's rules for the game's mode, then a
 * legend of every node type on the game's boards (its node as printed, its
 * name and action), every mission (its start and goal), the centre, the
 * power dots and a drawn example of a legal cut.
 *
 * The text is real text in the embedded font, wrapped to columns: three
 * on A4 landscape, two on portrait. The body size is the largest of 10,
 * 9.5 and 9 pt at which everything fits one page; at 9 pt what does not
 * fit flows onto further pages (small paper), so nothing is ever shrunk
 * below 9 pt or drawn outside the page. */
#include "base/board_geometry.h"
#include "io/theme.h"
#include "print/colour.h"
#include "print/content.h"
#include "print/render.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RULES_MARGIN_MM 12.0
#define RULES_GAP_MM 7.0
#define RULES_COL_MIN_MM 75.0
#define RULES_LINE 1.24       /* line height, in font sizes */
#define RULES_PARA 0.45       /* space after a paragraph, in font sizes */
#define RULES_NODE_R 9.0      /* pt: a legend node's radius */
#define RULES_ICON_COL 27.0   /* pt: the legend's icon column */
#define RULES_CUT_W 118.0     /* pt: the cut example drawing */
#define RULES_CUT_H 72.0
#define LINE_BYTES 240

typedef struct {
    double x, base;     /* pt from the piece's left and top */
    double size;
    int bold;           /* bytes of TEXT drawn bold */
    char text[LINE_BYTES + 4];
} line;

typedef struct {
    double h;           /* pt */
    double before;      /* space above it unless it starts a column */
    int first, n;       /* its lines */
    char draw;          /* 0, 'n' node, 'm' mission, 'c' centre, 'd' dots, 'x' cut */
    int index;
    double draw_h;
    int keep_next;      /* a heading: never last in a column */
    int page, col;      /* where it went */
    double y;           /* its top, pt below the column's top */
} piece;

typedef struct {
    cb_pdf *p;
    line *lines;
    size_t n_lines, cap_lines;
    piece *pieces;
    size_t n_pieces, cap_pieces;
    int oom;
    double k;           /* drawings' scale: larger type on larger paper */
} layout;

/* A new zeroed element at the end of *ARRAY (*N of SIZE bytes, room for
 * *CAP, doubled from FIRST); NULL with L->oom set when out of memory. */
static void *push(layout *L, void *array, size_t *n, size_t *cap, size_t size, size_t first)
{
    char *a;
    memcpy(&a, array, sizeof a); /* ARRAY points at a piece * or a line * */
    if (*n == *cap) {
        size_t grown = *cap ? 2 * *cap : first;
        char *g = realloc(a, grown * size);
        if (!g) {
            L->oom = 1;
            return NULL;
        }
        a = g;
        memcpy(array, &a, sizeof a);
        *cap = grown;
    }
    char *e = a + (*n)++ * size;
    memset(e, 0, size);
    return e;
}

static piece *new_piece(layout *L, double before, char draw, int index)
{
    piece *pc = push(L, &L->pieces, &L->n_pieces, &L->cap_pieces, sizeof *pc, 64);
    if (!pc)
        return NULL;
    pc->before = before;
    pc->first = (int)L->n_lines;
    pc->draw = draw;
    pc->index = index;
    return pc;
}

static line *new_line(layout *L)
{
    return push(L, &L->lines, &L->n_lines, &L->cap_lines, sizeof(line), 128);
}

/* Bytes of the UTF-8 character at S. */
static size_t char_len(const char *s)
{
    unsigned char c = (unsigned char)*s;
    size_t n = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : 1;
    for (size_t i = 1; i < n; i++)
        if (!s[i])
            return i;
    return n;
}

/* Adds to PC the line TEXT (LEN bytes, the first BOLD of them bold) at X,
 * its top Y pt below the piece's; 0 when out of memory. */
static int emit_line(layout *L, piece *pc, const char *text, size_t len, size_t bold, double x,
                     double size, double y)
{
    line *l = new_line(L);
    if (!l)
        return 0;
    l->x = x, l->size = size;
    l->base = y + size * 0.93;
    memcpy(l->text, text, len + 1);
    l->bold = (int)bold;
    pc->n++;
    return 1;
}

/* Wraps BOLD (may be NULL) and TEXT (may be NULL) into lines of at most
 * WIDTH pt at SIZE, starting at X in the piece, the first baseline at TOP
 * + ascent; returns the height used (pt). Words longer than a line are
 * broken between characters. */
static double wrap(layout *L, piece *pc, const char *bold, const char *text, double size,
                   double x, double top, double width)
{
    char buf[LINE_BYTES + 4], cand[LINE_BYTES + 4];
    /* the words of BOLD then TEXT, walked by one cursor over both */
    const char *src[2] = {bold ? bold : "", text ? text : ""};
    int part = 0;
    const char *s = src[0];
    size_t bold_used = 0; /* bold bytes at the start of BUF */
    double y = top;
    size_t len = 0;
    buf[0] = 0;
    for (;;) {
        while (*s == ' ')
            s++;
        if (!*s) {
            if (part == 1)
                break;
            part = 1, s = src[1];
            continue;
        }
        size_t w = 0;
        while (s[w] && s[w] != ' ')
            w++;
        /* the candidate line: BUF + " " + word */
        size_t clen = len;
        memcpy(cand, buf, len);
        if (clen && clen < LINE_BYTES)
            cand[clen++] = ' ';
        size_t take = w;
        if (clen + take > LINE_BYTES)
            take = LINE_BYTES - clen;
        memcpy(cand + clen, s, take);
        cand[clen + take] = 0;
        int fits = take == w && cb_render_text_width(L->p, cand, size) <= width;
        if (fits) {
            memcpy(buf, cand, clen + take + 1);
            len = clen + take;
            s += w;
            if (part == 0)
                bold_used = len;
            continue;
        }
        if (len == 0) {
            /* a word longer than the line: as many characters as fit */
            size_t k = 0;
            while (s[k] && s[k] != ' ' && k < LINE_BYTES - 4) {
                size_t c = char_len(s + k);
                memcpy(cand, s, k + c);
                cand[k + c] = 0;
                if (k > 0 && cb_render_text_width(L->p, cand, size) > width)
                    break;
                k += c;
            }
            memcpy(buf, s, k);
            buf[k] = 0;
            len = k;
            s += k;
            if (part == 0)
                bold_used = len;
        }
        if (!emit_line(L, pc, buf, len, bold_used, x, size, y - top))
            return 0;
        y += size * RULES_LINE;
        len = 0, buf[0] = 0, bold_used = 0;
    }
    if (len) {
        if (!emit_line(L, pc, buf, len, bold_used, x, size, y - top))
            return 0;
        y += size * RULES_LINE;
    }
    return y - top;
}

/* A paragraph: each line its own piece, so it may run on into the next
 * column. */
static void paragraph(layout *L, const char *bold, const char *text, double size,
                      double width, double before)
{
    /* wrap into one scratch piece, then split it line by line */
    piece *pc = new_piece(L, before, 0, 0);
    if (!pc)
        return;
    size_t at = L->n_pieces - 1;
    int first = pc->first;
    wrap(L, pc, bold, text, size, 0, 0, width);
    if (L->oom)
        return;
    int n = L->pieces[at].n;
    L->n_pieces--; /* replaced by one piece per line */
    for (int i = 0; i < n; i++) {
        piece *q = new_piece(L, i == 0 ? before : 0, 0, 0);
        if (!q)
            return;
        line *l = &L->lines[first + i];
        q->first = first + i;
        q->n = 1;
        double top = l->base - size * 0.93;
        l->base -= top;
        q->h = size * RULES_LINE + (i == n - 1 ? size * RULES_PARA : 0);
    }
}

static void heading(layout *L, const char *text, double size, double width, double before)
{
    piece *pc = new_piece(L, before, 0, 0);
    if (!pc)
        return;
    size_t at = L->n_pieces - 1;
    double h = wrap(L, pc, text, NULL, size, 0, 0, width);
    L->pieces[at].h = h + size * 0.15;
    L->pieces[at].keep_next = 1;
}

/* A legend entry: a drawing DRAW of height DH in a column of ICON_W pt,
 * then BOLD and TEXT beside it. */
static void entry(layout *L, char draw, int index, double dh, double icon_w, const char *bold,
                  const char *text, double size, double width)
{
    piece *pc = new_piece(L, size * 0.3, draw, index);
    if (!pc)
        return;
    size_t at = L->n_pieces - 1;
    double th = wrap(L, pc, bold, text, size, icon_w, 0, width - icon_w);
    pc = &L->pieces[at];
    pc->draw_h = dh;
    pc->h = fmax(th, dh) + size * 0.25;
}

/* The game's words: everything the page says, as pieces at body SIZE. */
static void build(layout *L, double size, double width, int shared, int players, int hops,
                  const unsigned char *present)
{
    const cb_theme *t = L->p->theme;
    const cb_rules *r = t->rules;
    char who[160];
    double k = L->k = fmax(1.0, size / 10.0), nr = RULES_NODE_R * k, col = RULES_ICON_COL * k;
    heading(L, r ? r->title : t->name, size * 1.9, width, 0);
    if (L->oom)
        return; /* the title's piece may not exist */
    L->pieces[L->n_pieces - 1].keep_next = 0;
    if (shared)
        snprintf(who, sizeof who, "This game: one shared board for %d players.", players);
    else
        snprintf(who, sizeof who, "This game: one sheet per player, %d players.", players);
    if (r)
        paragraph(L, NULL, r->summary, size, width, 0);
    else
        paragraph(L, NULL,
                  "This theme (cutboard-theme/1) carries no rules: the legend below names "
                  "its pictures. Its author can add rules with cutboard-theme/2.",
                  size, width, 0);
    paragraph(L, who, NULL, size, width, 0);
    if (r) {
        for (int id = 0; id < CB_RULES_SECTIONS; id++) {
            const cb_rules_section *sec = &r->sections[id];
            heading(L, sec->heading, size * 1.15, width, size * 0.5);
            if (id == CB_RULES_DOTS) {
                entry(L, 'd', 0, 2 * nr + 4, col, NULL,
                      shared ? sec->shared : sec->own, size, width);
                continue;
            }
            paragraph(L, NULL, shared ? sec->shared : sec->own, size, width, 0);
            if (id == CB_RULES_CUTTING)
                entry(L, 'x', 0, RULES_CUT_H * k, RULES_CUT_W * k + 6, NULL, r->cut_example, size,
                      width);
        }
    }
    char name[160], what[1024];
    heading(L, "Nodes on these boards", size * 1.15, width, size * 0.6);
    for (size_t i = 0; i < t->n_types; i++) {
        const cb_node_type *ty = &t->types[i];
        if (!present[i])
            continue;
        snprintf(name, sizeof name, "%s%s", ty->name, ty->action ? ":" : "");
        if (ty->number_rule)
            snprintf(what, sizeof what, "%s Number (%d-%d): %s", ty->action ? ty->action : "",
                     ty->number_min, ty->number_max, ty->number_rule);
        else
            snprintf(what, sizeof what, "%s", ty->action ? ty->action : "");
        entry(L, 'n', (int)i, 2 * nr + 3, col, name, what, size, width);
    }
    heading(L, "Missions: the icon on your start", size * 1.15, width, size * 0.6);
    for (size_t i = 0; i < t->n_missions; i++) {
        const cb_mission *m = &t->missions[i];
        if (!present[t->n_types + i])
            continue; /* a first game shows its one mission */
        snprintf(name, sizeof name, "%s%s", m->name, m->text ? ":" : "");
        char *text = NULL;
        if (cb_mission_per_game(m)) { /* this game's number */
            cb_goal_sentence(t, cb_mission_goal(m, shared), hops, players, what, sizeof what);
            if (!(text = strdup(what)) || cb_theme_name_centre(&text, t->center.name) != 0) {
                free(text);
                L->oom = 1;
                return;
            }
        }
        entry(L, 'm', (int)i, 2 * nr + 3, col, name, text ? text : m->text, size, width);
        free(text);
    }
    heading(L, "The centre", size * 1.15, width, size * 0.6);
    snprintf(name, sizeof name, "%s%s", t->center.name, t->center.text ? ":" : "");
    entry(L, 'c', 0, 2 * nr + 4, col, name, t->center.text, size, width);
}

/* Puts the pieces into NCOLS columns COL_H pt tall, page after page;
 * returns the pages used. */
static int place(layout *L, int ncols, double col_h)
{
    int page = 0, col = 0;
    double y = 0;
    for (size_t i = 0; i < L->n_pieces; i++) {
        piece *pc = &L->pieces[i];
        double before = y > 0 ? pc->before : 0;
        double need = pc->h;
        if (pc->keep_next && i + 1 < L->n_pieces)
            need += L->pieces[i + 1].before + L->pieces[i + 1].h;
        if (y > 0 && y + before + need > col_h) {
            y = 0, before = 0;
            if (++col == ncols)
                col = 0, page++;
        }
        pc->page = page, pc->col = col;
        pc->y = y + before;
        y = pc->y + pc->h;
    }
    return page + 1;
}

static void set_ink(cb_pdf *p)
{
    cb_rgb ink = cb_line_ink(p, cb_ink);
    cb_set_fill(p, ink);
    cb_set_stroke(p, ink, 0.3);
}

/* Power dots as the sheets draw them (render.c): light circles with a dark
 * outline touching a node's rim from outside, under the node; the first
 * is filled in, as a player marks it. */
static void draw_dots(cb_pdf *p, double x, double y, double scale)
{
    double r = RULES_NODE_R * 0.82 * scale;
    int type = -1;
    for (size_t i = 0; p->theme && i < p->theme->n_types; i++)
        if (p->type_icon[i] >= 0 && p->icons[p->type_icon[i]].image) {
            type = (int)i;
            break;
        }
    double dr = CB_DOT_RADIUS * r, ang[2] = {0.3, 2.84};
    double cx[2], cy[2];
    for (int k = 0; k < 2; k++) {
        cx[k] = x + (r + dr) * cos(ang[k]), cy[k] = y + (r + dr) * sin(ang[k]);
        cb_set_fill(p, p->ink ? cb_white : (cb_rgb){CB_DOT_GREY, CB_DOT_GREY, CB_DOT_GREY});
        cb_set_stroke(p, cb_line_ink(p, cb_ink), CB_DOT_PT);
        cb_cs_circle(p, (HPDF_REAL)cx[k], (HPDF_REAL)cy[k], (HPDF_REAL)dr);
        cb_cs_str(p, "B\n");
    }
    /* a filled dot, as the rules ask (an X is a guarded edge's mark) */
    cb_set_fill(p, cb_line_ink(p, cb_ink));
    cb_cs_circle(p, (HPDF_REAL)cx[0], (HPDF_REAL)cy[0], (HPDF_REAL)(dr * 0.62));
    cb_cs_str(p, "f\n");
    cb_render_node_at(p, type, x, y, r);
}

/* A small board piece by the paper's edge, and a cut of three edges that
 * starts at the edge and follows printed lines: (X, Y) is the drawing's
 * top-left corner, pt, y up. */
static void draw_cut(cb_pdf *p, double x0, double y0, double scale)
{
    /* drawn about its top-left corner, scaled by SCALE */
    cb_cs_str(p, "q\n");
    CB_OP(p, "cm", (HPDF_REAL)scale, 0, 0, (HPDF_REAL)scale, (HPDF_REAL)x0, (HPDF_REAL)y0);
    double x = 0, y = 0;
    static const double node[][2] = {{10, 30}, {42, 16}, {76, 34}, {108, 14},
                                     {38, 58}, {100, 60}, {70, 4}};
    static const int edge[][2] = {{0, 1}, {1, 2}, {2, 3}, {0, 4}, {4, 2},
                                  {2, 5}, {1, 6}, {6, 3}, {4, 5}};
    static const int cut[] = {0, 1, 2, 5};
    double w = RULES_CUT_W, h = RULES_CUT_H;
    cb_rgb grey = cb_line_ink(p, (cb_rgb){0.55, 0.55, 0.55});
    /* the margin beyond the trim line, pale, and the trim line */
    cb_set_fill(p, p->cmyk ? (cb_rgb){0.92, 0.92, 0.92} : (cb_rgb){0.92, 0.92, 0.92});
    CB_OP(p, "re", (HPDF_REAL)x, (HPDF_REAL)(y - h), (HPDF_REAL)10, (HPDF_REAL)h);
    cb_cs_str(p, "f\n");
    if (p->cmyk)
        cb_set_stroke(p, cb_line_ink(p, cb_white), 0.5);
    else
        cb_set_stroke(p, grey, 0.5);
    CB_OP(p, "m", (HPDF_REAL)(x + 10), (HPDF_REAL)y);
    CB_OP(p, "l", (HPDF_REAL)(x + 10), (HPDF_REAL)(y - h));
    cb_cs_str(p, "S\n");
    /* printed edges */
    cb_set_stroke(p, cb_line_ink(p, cb_ink), 1.2);
    for (size_t e = 0; e < sizeof edge / sizeof edge[0]; e++) {
        const double *a = node[edge[e][0]], *b = node[edge[e][1]];
        CB_OP(p, "m", (HPDF_REAL)(x + a[0]), (HPDF_REAL)(y - a[1]));
        CB_OP(p, "l", (HPDF_REAL)(x + b[0]), (HPDF_REAL)(y - b[1]));
    }
    cb_cs_str(p, "S\n");
    /* the cut: a heavy dashed line over the edges it follows */
    cb_rgb red = {0.80, 0.10, 0.10};
    cb_set_stroke(p, p->ink ? cb_line_ink(p, cb_ink) : red, 2.6);
    cb_cs_str(p, "[4 2.5] 0 d\n1 J\n");
    for (size_t k = 0; k + 1 < sizeof cut / sizeof cut[0]; k++) {
        const double *a = node[cut[k]], *b = node[cut[k + 1]];
        if (k == 0)
            CB_OP(p, "m", (HPDF_REAL)(x + a[0]), (HPDF_REAL)(y - a[1]));
        CB_OP(p, "l", (HPDF_REAL)(x + b[0]), (HPDF_REAL)(y - b[1]));
    }
    cb_cs_str(p, "S\n[] 0 d\n0 J\n");
    /* nodes */
    for (size_t i = 0; i < sizeof node / sizeof node[0]; i++) {
        cb_set_fill(p, cb_white);
        cb_set_stroke(p, cb_line_ink(p, cb_ink), 0.8);
        cb_cs_circle(p, (HPDF_REAL)(x + node[i][0]), (HPDF_REAL)(y - node[i][1]), 4);
        cb_cs_str(p, "B\n");
    }
    cb_cs_str(p, "Q\n");
    (void)w;
}

static void draw_piece(layout *L, const piece *pc, double x0, double top)
{
    cb_pdf *p = L->p;
    double y = top - pc->y; /* the piece's top, pt up from the paper's bottom */
    if (pc->draw) {
        double k = L->k, nr = RULES_NODE_R * k;
        double cx = x0 + RULES_ICON_COL * k / 2 - 1, cy = y - pc->draw_h / 2;
        switch (pc->draw) {
        case 'n':
            cb_render_node_at(p, pc->index, cx, cy, nr);
            break;
        case 'm':
            cb_render_start_at(p, pc->index, cx, cy, 2.3 * nr, 1.7 * nr, 1.4 * nr);
            break;
        case 'c':
            cb_render_center_at(p, cx, cy, nr + 1);
            break;
        case 'd':
            draw_dots(p, cx, cy, k);
            break;
        case 'x':
            draw_cut(p, x0, y, k);
            break;
        }
    }
    for (int i = 0; i < pc->n; i++) {
        const line *l = &L->lines[pc->first + i];
        char bold[LINE_BYTES + 4];
        memcpy(bold, l->text, (size_t)l->bold);
        bold[l->bold] = 0;
        set_ink(p);
        cb_render_text(p, x0 + l->x, y - l->base, l->size, bold, l->text + l->bold);
    }
}

HPDF_STATUS cb_render_rules(cb_pdf *p, double w, double h, int shared, int players, int hops,
                            const unsigned char *present)
{
    layout L = {p, NULL, 0, 0, NULL, 0, 0, 0, 1.0};
    double margin = fmax(RULES_MARGIN_MM, p->opt.safe_area + 3.0);
    double area_w = cb_pt(fmax(w - 2 * margin, 20)), col_h = cb_pt(fmax(h - 2 * margin, 20));
    double gap = cb_pt(RULES_GAP_MM);
    int ncols = (int)floor((area_w + gap) / (cb_pt(RULES_COL_MIN_MM) + gap));
    ncols = ncols < 1 ? 1 : ncols > 3 ? 3 : ncols;
    double col_w = (area_w - (ncols - 1) * gap) / ncols;
    /* larger paper, larger type: up to 10 pt per A4 (by area), 14 at most */
    static const double sizes[] = {14.0, 13.0, 12.0, 11.0, 10.0, 9.5, 9.0};
    double most = 10.0 * sqrt(w * h / (210.0 * 297.0));
    int pages = 1;
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        if (sizes[k] > most + 1e-9 && sizes[k] > 10.0)
            continue;
        L.n_lines = L.n_pieces = 0;
        build(&L, sizes[k], col_w, shared, players, hops, present);
        if (L.oom)
            break;
        pages = place(&L, ncols, col_h);
        p->rules_pt = sizes[k];
        if (pages == 1)
            break;
    }
    HPDF_STATUS st = L.oom ? HPDF_FAILD_TO_ALLOC_MEM : HPDF_OK;
    size_t next = 0;
    for (int pg = 0; st == HPDF_OK && pg < pages; pg++) {
        int moved;
        p->sheet = 0; /* a page of its own */
        st = cb_render_cell_begin(p, &moved);
        if (st != HPDF_OK)
            break;
        double top = cb_pt(h - margin);
        for (; next < L.n_pieces && L.pieces[next].page == pg; next++) {
            const piece *pc = &L.pieces[next];
            draw_piece(&L, pc, cb_pt(margin) + pc->col * (col_w + gap), top);
        }
        cb_render_cell_end(p, moved);
        st = p->cs.st;
    }
    p->sheet = 0; /* the boards that follow start a page of their own */
    free(L.lines);
    free(L.pieces);
    return st;
}
