/* PDF rendering of a hand-made game: valid, reproducible, one page per
 * sheet, each icon embedded once, and clear errors for missing inputs.
 * Set CB_TEST_PDF=DIR to keep each rendered PDF there for a look. */
#include "test.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "cutboard.h"

#define FONT "fonts/DejaVuSans.ttf"
#define ICONS "icons/default/"

/* ---- a small hand-made game -------------------------------------------- */

typedef struct {
    cb_node_type types[4];
    cb_mission missions[4];
    cb_theme theme;
    cb_node nodes[14];
    cb_edge edges[17];
    cb_board sheets[3];
    cb_board *sheet_ptrs[3];
    cb_game game;
} fixture;

static void set_type(cb_node_type *t, const char *name, const char *icon, double r, double g,
                     double b)
{
    t->name = (char *)name;
    t->icon = (char *)icon;
    t->rgb[0] = r, t->rgb[1] = g, t->rgb[2] = b;
}

static void set_mission(cb_mission *m, const char *name, const char *icon, double r, double g,
                        double b)
{
    m->name = (char *)name;
    m->icon = (char *)icon;
    m->rgb[0] = r, m->rgb[1] = g, m->rgb[2] = b;
}

/* A4 portrait, trim 10 mm in: one start per side, a centre, nine nodes.
 * Type 3 and mission 3 are unused and name files that don't exist; the
 * key icon serves both type 2 and mission 2. */
static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    assert_non_null(f);
    set_type(&f->types[0], "blade", ICONS "blade.png", 0.75, 0.22, 0.17);
    set_type(&f->types[1], "lantern", ICONS "lantern.png", 0.72, 0.47, 0.12);
    set_type(&f->types[2], "key", ICONS "key.png", 0.55, 0.55, 0.12);
    set_type(&f->types[3], "ghost", ICONS "no-such-ghost.png", 0.5, 0.5, 0.5);
    set_mission(&f->missions[0], "traveler", ICONS "traveler.png", 0.0, 0.45, 0.7);
    set_mission(&f->missions[1], "treasure", ICONS "treasure.png", 0.77, 0.5, 0.0);
    set_mission(&f->missions[2], "keeper", ICONS "key.png", 0.0, 0.53, 0.37);
    set_mission(&f->missions[3], "phantom", ICONS "no-such-phantom.png", 0.3, 0.3, 0.3);
    f->theme.name = (char *)"test";
    f->theme.dir = (char *)ICONS;
    set_mission(&f->theme.center, "summit", ICONS "summit.png", 0.17, 0.24, 0.31);
    f->theme.types = f->types;
    f->theme.n_types = 4;
    f->theme.missions = f->missions;
    f->theme.n_missions = 4;

    static const struct {
        double x, y;
        cb_kind kind;
        cb_side side;
        int type, mission, dots;
    } n[14] = {
        {105, 10, CB_KIND_START, CB_SIDE_TOP, -1, 0, 1},
        {200, 148, CB_KIND_START, CB_SIDE_RIGHT, -1, 1, 1},
        {105, 287, CB_KIND_START, CB_SIDE_BOTTOM, -1, 2, 1},
        {10, 148, CB_KIND_START, CB_SIDE_LEFT, -1, 0, 1},
        {105, 148, CB_KIND_CENTER, CB_SIDE_NONE, -1, -1, 1},
        {105, 50, CB_KIND_NODE, CB_SIDE_NONE, 0, -1, 2},
        {160, 148, CB_KIND_NODE, CB_SIDE_NONE, 1, -1, 0},
        {105, 240, CB_KIND_NODE, CB_SIDE_NONE, 2, -1, 3},
        {50, 148, CB_KIND_NODE, CB_SIDE_NONE, 0, -1, 1},
        {60, 80, CB_KIND_NODE, CB_SIDE_NONE, 1, -1, 2},
        {150, 80, CB_KIND_NODE, CB_SIDE_NONE, 2, -1, 0},
        {60, 220, CB_KIND_NODE, CB_SIDE_NONE, 0, -1, 4},
        {150, 220, CB_KIND_NODE, CB_SIDE_NONE, 1, -1, 1},
        {105, 100, CB_KIND_NODE, CB_SIDE_NONE, -1, -1, 2},
    };
    for (size_t i = 0; i < 14; i++) {
        cb_node *d = &f->nodes[i];
        d->x = n[i].x, d->y = n[i].y, d->kind = n[i].kind, d->side = n[i].side;
        d->type = n[i].type, d->mission = n[i].mission, d->dots = n[i].dots;
    }
    static const uint32_t e[17][2] = {{0, 5}, {5, 13}, {4, 13}, {1, 6},  {4, 6},  {2, 7},
                                      {4, 7}, {3, 8},  {4, 8},  {5, 9},  {8, 9},  {5, 10},
                                      {6, 10}, {7, 11}, {8, 11}, {7, 12}, {6, 12}};
    for (size_t i = 0; i < 17; i++)
        f->edges[i].a = e[i][0], f->edges[i].b = e[i][1];

    static char *const seeds[3] = {"sheet-one", "sheet-two", "sheet-three"};
    for (int s = 0; s < 3; s++) {
        cb_board *b = &f->sheets[s];
        b->seed = seeds[s];
        b->player = s + 1;
        b->page_w = 210, b->page_h = 297;
        b->board_x = 10, b->board_y = 10, b->board_w = 190, b->board_h = 277;
        b->node_radius = 6;
        b->center = 4;
        b->nodes = f->nodes, b->n_nodes = 14;
        b->edges = f->edges, b->n_edges = 17;
        b->attempts = 1;
        f->sheet_ptrs[s] = b;
    }
    f->game.sheets = f->sheet_ptrs;
    f->game.n_sheets = 1;
    f->game.seed = (char *)"game night";
    f->game.players = 2;
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    free(*state);
    return 0;
}

/* ---- helpers ----------------------------------------------------------- */

typedef struct {
    unsigned char *data;
    size_t len;
} pdf_buf;

static cb_status render(const fixture *f, const cb_theme *theme, int ink, const char *font,
                        pdf_buf *out, cb_error *err)
{
    cb_render_options opt = {.ink_friendly = ink, .font_path = font};
    memset(err, 0, sizeof *err);
    return cb_pdf_render(&f->game, theme, &opt, &out->data, &out->len, err);
}

static pdf_buf render_ok(const fixture *f, const cb_theme *theme, int ink, const char *name)
{
    pdf_buf out;
    cb_error err;
    cb_status st = render(f, theme, ink, FONT, &out, &err);
    if (st != CB_OK)
        fail_msg("render failed (%d): %s", st, err.message);
    assert_non_null(out.data);
    assert_true(out.len > 1000);
    keep_pdf(name, out.data, out.len);
    return out;
}

static size_t count(const pdf_buf *b, const char *needle, const char *not_followed_by)
{
    size_t n = 0, k = strlen(needle);
    for (size_t i = 0; i + k <= b->len; i++)
        if (memcmp(b->data + i, needle, k) == 0 &&
            !(not_followed_by && i + k < b->len && strchr(not_followed_by, b->data[i + k])))
            n++;
    return n;
}

static int contains(const pdf_buf *b, const char *needle)
{
    return count(b, needle, NULL) > 0;
}

static const char *find(const char *hay, const char *end, const char *needle)
{
    size_t k = strlen(needle);
    for (; hay + k <= end; hay++)
        if (memcmp(hay, needle, k) == 0)
            return hay;
    return NULL;
}

/* The page content streams and the form XObjects they draw (nodes are
 * drawn by a form per type), inflated and joined: the Flate streams that
 * are no image and no font file (Length1), and which inflate to text (not
 * the binary CIDToGIDMap). */
static char *page_contents(const pdf_buf *b)
{
    size_t cap = 1 << 20, used = 0;
    char *all = calloc(cap, 1);
    assert_non_null(all);
    const char *p = (const char *)b->data, *end = p + b->len, *obj;
    for (const char *s = p; (obj = find(s, end, " obj")) != NULL; s = obj + 4) {
        const char *next = find(obj + 4, end, "endobj");
        const char *st = find(obj, next ? next : end, "stream\r\n");
        if (!next || !st)
            continue;
        if (find(obj, st, "/Subtype /Image") || find(obj, st, "/Length1") ||
            !find(obj, st, "/FlateDecode"))
            continue;
        const char *data = st + 8, *stop = find(data, next, "endstream");
        assert_non_null(stop);
        uLongf out = (uLongf)(cap - used - 1);
        if (uncompress((Bytef *)all + used, &out, (const Bytef *)data,
                       (uLong)(stop - data)) == Z_OK &&
            !memchr(all + used, 0, out))
            used += out;
        memset(all + used, 0, cap - used);
    }
    return all;
}

static size_t count_str(const char *hay, const char *needle)
{
    size_t n = 0;
    for (const char *s = hay; (s = strstr(s, needle)) != NULL; s++)
        n++;
    return n;
}

/* ASCII text as libharu writes it with the UTF-8 encoder: 4 hex digits per
 * character; a trailing '>' stays as the string's end. Static buffer. */
static const char *hex16(const char *text)
{
    static char out[512];
    size_t o = 0;
    for (; *text && o + 5 < sizeof out; text++)
        o += (size_t)(*text == '>' ? snprintf(out + o, 2, ">")
                                   : snprintf(out + o, 5, "%04X", (unsigned char)*text));
    out[o] = '\0';
    return out;
}

/* ---- tests ------------------------------------------------------------- */

static void test_one_page(void **state)
{
    fixture *f = *state;
    pdf_buf a = render_ok(f, &f->theme, 0, "one-page");
    assert_memory_equal(a.data, "%PDF-", 5);
    assert_int_equal(count(&a, "/Type /Page", "s"), 1);
    /* No clock in the file: no dates, no /ID. */
    assert_false(contains(&a, "CreationDate"));
    assert_false(contains(&a, "ModDate"));
    assert_false(contains(&a, "/ID"));
    /* A4 in points, not rounded to whole points. */
    assert_true(contains(&a, "595.27"));
    assert_true(contains(&a, "841.88"));
    /* The font is embedded. */
    assert_true(contains(&a, "/FontFile2"));
    /* The label, as UTF-16 hex codes: version, player, both seeds. */
    char *c = page_contents(&a);
    assert_non_null(strstr(c, hex16("cutboard " CB_VERSION " ")));
    assert_non_null(strstr(c, hex16(" player 1 of 2 ")));
    assert_non_null(strstr(c, hex16(" seed \"game night\" ")));
    assert_non_null(strstr(c, hex16(" sheet sheet-one>")));
    assert_non_null(strstr(c, "00B7")); /* the middle dots */
    /* The ToUnicode map is libharu's mended one, so text can be copied. */
    assert_int_equal(count_str(c, "begincidrange"), 0);
    assert_int_equal(count_str(c, "beginbfrange"), 3);
    free(c);
    free(a.data);
}

static void test_reproducible(void **state)
{
    fixture *f = *state;
    f->game.n_sheets = 2;
    pdf_buf a = render_ok(f, &f->theme, 0, "twice-a"), b = render_ok(f, &f->theme, 0, "twice-b");
    assert_int_equal(a.len, b.len);
    assert_memory_equal(a.data, b.data, a.len);
    free(a.data);
    free(b.data);
}

/* The images each page of B draws, as poppler's pdfimages lists them
 * (inside forms too): per page (1-based, up to MAX_PAGES) the images drawn
 * and the sum of their object numbers, and the distinct image objects of
 * the file. -1 when pdfimages is not there. */
#define MAX_PAGES 8
typedef struct {
    size_t drawn[MAX_PAGES + 1], masks[MAX_PAGES + 1];
    long objects[MAX_PAGES + 1];
    size_t distinct;
} image_list;

static int list_images(const pdf_buf *b, image_list *l)
{
    memset(l, 0, sizeof *l);
    if (system("command -v pdfimages >/dev/null 2>&1") != 0)
        return -1;
    char path[] = "/tmp/cb-render-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(b->data, 1, b->len, f), b->len);
    assert_int_equal(fclose(f), 0);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "pdfimages -list %s", path);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    int seen[256], n_seen = 0;
    char line[256];
    while (fgets(line, sizeof line, p)) {
        int page, num, w, h, obj;
        char type[16];
        if (sscanf(line, "%d %d %15s %d %d %*s %*d %*d %*s %*s %d", &page, &num, type, &w, &h,
                   &obj) != 6 || page < 1 || page > MAX_PAGES)
            continue;
        if (strcmp(type, "smask") == 0) {
            l->masks[page]++;
            continue;
        }
        l->drawn[page]++;
        l->objects[page] += obj;
        int known = 0;
        for (int k = 0; k < n_seen; k++)
            known |= seen[k] == obj;
        if (!known && n_seen < 256)
            seen[n_seen++] = obj;
    }
    assert_int_equal(pclose(p), 0);
    unlink(path);
    l->distinct = (size_t)n_seen;
    return 0;
}

/* blade, lantern, key (type and mission), traveler, treasure, summit: six
 * distinct files, each one RGB image plus one soft mask, embedded once
 * whatever the page count; the unused type and mission (missing files) are
 * never loaded. Every page draws its 13 icons (untyped node 13 has none),
 * each with its mask, the same images on every page. */
static void test_icons_once(void **state)
{
    fixture *f = *state;
    for (size_t sheets = 1; sheets <= 3; sheets++) {
        f->game.n_sheets = sheets;
        pdf_buf a = render_ok(f, &f->theme, 0, "icons-once");
        assert_int_equal(count(&a, "/Type /Page", "s"), sheets);
        assert_int_equal(count(&a, "/Subtype /Image", NULL), 12);
        assert_int_equal(count(&a, "/SMask", NULL), 6);
        image_list l;
        if (list_images(&a, &l) == 0) {
            assert_int_equal(l.distinct, 6);
            for (size_t page = 1; page <= sheets; page++) {
                assert_int_equal(l.drawn[page], 13);
                assert_int_equal(l.masks[page], 13);
                assert_int_equal(l.objects[page], l.objects[1]);
            }
            assert_int_equal(l.drawn[sheets + 1], 0);
        }
        free(a.data);
    }
}

/* Starts turn their icon towards the centre: 180 degrees on the top side,
 * a quarter turn either way on the left and right sides. */
static void test_start_rotation(void **state)
{
    fixture *f = *state;
    pdf_buf a = render_ok(f, &f->theme, 0, "rotation");
    char *c = page_contents(&a);
    assert_int_equal(count_str(c, "-1 0 0 -1 297.63779 800.36218 cm"), 1); /* top */
    assert_int_equal(count_str(c, "0 -1 1 0 41.52756 422.36221 cm"), 1);  /* left */
    assert_int_equal(count_str(c, "0 1 -1 0 553.74805 422.36221 cm"), 1);  /* right */
    /* Line widths: never a hairline, never under 0.5 pt. */
    for (const char *s = c; (s = strstr(s, " w\n")) != NULL; s++) {
        const char *num = s;
        while (num > c && num[-1] != '\n' && num[-1] != ' ')
            num--;
        assert_true(strtod(num, NULL) >= 0.5);
    }
    free(c);
    free(a.data);
}

static void test_without_theme(void **state)
{
    fixture *f = *state;
    f->game.n_sheets = 2;
    pdf_buf a = render_ok(f, NULL, 0, "no-theme");
    assert_int_equal(count(&a, "/Type /Page", "s"), 2);
    assert_int_equal(count(&a, "/Subtype /Image", NULL), 0);
    pdf_buf b = render_ok(f, &f->theme, 0, "themed");
    assert_true(a.len < b.len);
    free(a.data);
    free(b.data);
}

static void test_ink_friendly(void **state)
{
    fixture *f = *state;
    pdf_buf a = render_ok(f, &f->theme, 0, "colour"), b = render_ok(f, &f->theme, 1, "ink");
    assert_true(a.len != b.len || memcmp(a.data, b.data, a.len) != 0);
    /* Ordinary nodes fill white and stroke 1.2 pt (in the form of each of
     * the four node types). */
    char *ca = page_contents(&a), *cb = page_contents(&b);
    assert_int_equal(count_str(ca, "1.2 w"), 0);
    assert_int_equal(count_str(cb, "1.2 w"), 4);
    assert_true(count_str(cb, "1 1 1 rg") > count_str(ca, "1 1 1 rg"));
    free(ca);
    free(cb);
    free(a.data);
    free(b.data);
}

static void test_shared_and_odd_seeds(void **state)
{
    fixture *f = *state;
    f->game.shared = 1;
    f->game.players = 5;
    /* Quotes, a parenthesis, invalid UTF-8, an emoji, a control character
     * and a seed far longer than the page is wide. */
    static char odd[600];
    memset(odd, 'x', sizeof odd - 1);
    static const char head[] = "\"(k\xC3\xA4se\xFF\xF0\x9F\x8E\xB2\t";
    memcpy(odd, head, sizeof head - 1);
    f->game.seed = odd;
    f->sheets[0].seed = (char *)"\xE6\xA3\x8B\xE7\x9B\xA4";
    pdf_buf a = render_ok(f, &f->theme, 0, "odd-seeds");
    assert_int_equal(count(&a, "/Type /Page", "s"), 1);
    free(a.data);
}

/* The label sits in the bottom margin, 5 mm clear of the paper's edge and
 * clear of the trim line; narrow margins shrink it (DejaVu Sans: ascent
 * 0.928 em, descent 0.235 em). */
static void test_label_placement(void **state)
{
    fixture *f = *state;
    const double k = 72 / 25.4;
    static const double margins[] = {20, 10, 8, 7, 5};
    for (size_t i = 0; i < sizeof margins / sizeof *margins; i++) {
        double m = margins[i];
        cb_board *b = &f->sheets[0];
        b->board_x = b->board_y = m;
        b->board_w = 210 - 2 * m, b->board_h = 297 - 2 * m;
        pdf_buf a = render_ok(f, &f->theme, 0, "label");
        char *c = page_contents(&a);
        const char *tf = strstr(c, " Tf\n"), *td = strstr(c, " Td\n");
        assert_non_null(tf);
        assert_non_null(td);
        while (tf[-1] != ' ')
            tf--;
        double size = strtod(tf, NULL), x, y;
        while (td[-1] != '\n')
            td--;
        assert_int_equal(sscanf(td, "%lf %lf Td", &x, &y), 2);
        double top = y / k + 0.928 * size / k, bottom = y / k - 0.235 * size / k;
        assert_true(fabs(x / k - m) < 0.01);     /* left-aligned on the trim line */
        assert_true(top <= m - 0.49);            /* never on the board */
        if (m >= 9) {
            assert_true(fabs(size - 7) < 1e-9);
            assert_true(fabs(y / k - 6) < 0.01); /* baseline 6 mm up */
        } else {
            assert_true(size < 7);
            assert_true(size >= 4);
        }
        if (m >= 8) /* room for 4 pt or more between 5 mm and the trim */
            assert_true(bottom >= 4.99);
        else
            assert_true(bottom > 0.5);
        free(c);
        free(a.data);
    }
}

/* Reads the label's position (pt) from the page: the "x y Td" in BT..ET. */
static void label_at(const pdf_buf *a, double *x, double *y, int *patched)
{
    char *c = page_contents(a);
    const char *bt = strstr(c, "BT\n");
    assert_non_null(bt);
    assert_int_equal(sscanf(bt + 3, "%lf %lf Td", x, y), 2);
    /* A white patch under the text: "1 1 1 rg", a rectangle, a fill. */
    const char *from = bt - 80 > c ? bt - 80 : c;
    char before[96] = {0};
    memcpy(before, from, (size_t)(bt - from));
    *patched = strstr(before, "1 1 1 rg") && strstr(before, " re\nf\n");
    free(c);
}

/* Nodes sitting on the trim line reach into the margin: the label moves
 * right past them, then to the top margin, and only then overlaps them. */
static void test_label_dodges_nodes(void **state)
{
    fixture *f = *state;
    const double k = 72 / 25.4;
    double x, y;
    int patched;

    pdf_buf a = render_ok(f, &f->theme, 0, "label-free");
    label_at(&a, &x, &y, &patched);
    assert_true(fabs(x - 10 * k) < 0.01 && fabs(y - 6 * k) < 0.01 && !patched);
    free(a.data);

    f->nodes[5].x = 25, f->nodes[5].y = 287; /* one node on the bottom trim */
    a = render_ok(f, &f->theme, 0, "label-moved");
    label_at(&a, &x, &y, &patched);
    assert_true(x >= (25 + 6 + 1) * k - 0.01 && fabs(y - 6 * k) < 0.01 && !patched);
    free(a.data);

    static const double xs[3] = {45, 95, 150}; /* gaps too narrow for the label */
    for (int i = 0; i < 3; i++)
        f->nodes[5 + i].x = xs[i], f->nodes[5 + i].y = 287;
    a = render_ok(f, &f->theme, 0, "label-top");
    label_at(&a, &x, &y, &patched);
    assert_true(y > 280 * k && y < (297 - 5) * k && !patched);
    free(a.data);

    for (int i = 0; i < 3; i++)
        f->nodes[8 + i].x = xs[i], f->nodes[8 + i].y = 10;
    a = render_ok(f, &f->theme, 0, "label-patched");
    label_at(&a, &x, &y, &patched);
    assert_true(fabs(x - 10 * k) < 0.01 && fabs(y - 6 * k) < 0.01 && patched);
    free(a.data);
}

/* The dates come from the options, never from the environment. */
static void test_source_date_epoch(void **state)
{
    fixture *f = *state;
    long long t = 0;
    cb_error err;
    assert_int_equal(cb_source_date_parse("1700000000", &t, &err), CB_OK);
    assert_true(t == 1700000000LL);
    cb_render_options opt = {.font_path = FONT, .dated = 1, .source_date = t};
    pdf_buf a;
    assert_int_equal(setenv("SOURCE_DATE_EPOCH", "86400", 1), 0); /* ignored */
    assert_int_equal(cb_pdf_render(&f->game, &f->theme, &opt, &a.data, &a.len, &err), CB_OK);
    assert_int_equal(unsetenv("SOURCE_DATE_EPOCH"), 0);
    /* 1700000000 s is 2023-11-14 22:13:20 UTC. */
    assert_true(contains(&a, "/CreationDate (D:20231114221320Z"));
    assert_true(contains(&a, "/ModDate (D:20231114221320Z"));
    static const char *const bad[] = {"soon", "", "-1", "12 ", "1e9", "99999999999999999999"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        assert_int_equal(cb_source_date_parse(bad[i], &t, &err), CB_ERR_USAGE);
        assert_non_null(strstr(err.message, "SOURCE_DATE_EPOCH"));
    }
    free(a.data);
}

static void test_bad_font(void **state)
{
    fixture *f = *state;
    pdf_buf out;
    cb_error err;
    assert_int_equal(render(f, &f->theme, 0, "fonts/NoSuchFont.ttf", &out, &err),
                     CB_ERR_NOINPUT);
    assert_int_equal(err.status, CB_ERR_NOINPUT);
    assert_non_null(strstr(err.message, "fonts/NoSuchFont.ttf"));
    assert_null(out.data);
    assert_int_equal(out.len, 0);
    /* A file that exists but is no font. */
    assert_int_equal(render(f, &f->theme, 0, "tests/data/icons/notpng.png", &out, &err),
                     CB_ERR_DATA);
    assert_non_null(strstr(err.message, "tests/data/icons/notpng.png"));
    assert_null(out.data);
    assert_int_equal(render(f, &f->theme, 0, "fonts", &out, &err), CB_ERR_NOINPUT);
    assert_non_null(strstr(err.message, "font fonts: "));
    assert_int_equal(render(f, &f->theme, 0, NULL, &out, &err), CB_ERR_USAGE);
}

static void test_bad_icon(void **state)
{
    fixture *f = *state;
    pdf_buf out;
    cb_error err;
    f->types[1].icon = (char *)ICONS "lost-lantern.png";
    assert_int_equal(render(f, &f->theme, 0, FONT, &out, &err), CB_ERR_NOINPUT);
    assert_non_null(strstr(err.message, ICONS "lost-lantern.png"));
    assert_null(out.data);
    f->missions[1].icon = (char *)"tests/data/icons/truncated.png";
    f->types[1].icon = (char *)ICONS "lantern.png";
    assert_int_equal(render(f, &f->theme, 0, FONT, &out, &err), CB_ERR_DATA);
    assert_non_null(strstr(err.message, "tests/data/icons/truncated.png"));
    f->theme.center.icon = (char *)"tests/data/icons/corrupt.png";
    f->missions[1].icon = (char *)ICONS "treasure.png";
    assert_int_equal(render(f, &f->theme, 0, FONT, &out, &err), CB_ERR_DATA);
    assert_non_null(strstr(err.message, "tests/data/icons/corrupt.png"));
}

static void test_bad_board(void **state)
{
    fixture *f = *state;
    pdf_buf out;
    cb_error err;
    f->nodes[6].type = 9; /* not in the theme */
    assert_int_equal(render(f, &f->theme, 0, FONT, &out, &err), CB_ERR_DATA);
    assert_non_null(strstr(err.message, "node 6"));
    f->nodes[6].type = 1;
    f->edges[3].b = 99;
    assert_int_equal(render(f, &f->theme, 0, FONT, &out, &err), CB_ERR_DATA);
    assert_non_null(strstr(err.message, "edge 3"));
    f->edges[3].b = 6;
    f->game.n_sheets = 0;
    assert_int_equal(render(f, &f->theme, 0, FONT, &out, &err), CB_ERR_DATA);
    assert_null(out.data);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_one_page, setup, teardown),
        cmocka_unit_test_setup_teardown(test_reproducible, setup, teardown),
        cmocka_unit_test_setup_teardown(test_icons_once, setup, teardown),
        cmocka_unit_test_setup_teardown(test_start_rotation, setup, teardown),
        cmocka_unit_test_setup_teardown(test_without_theme, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ink_friendly, setup, teardown),
        cmocka_unit_test_setup_teardown(test_shared_and_odd_seeds, setup, teardown),
        cmocka_unit_test_setup_teardown(test_label_placement, setup, teardown),
        cmocka_unit_test_setup_teardown(test_label_dodges_nodes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_source_date_epoch, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bad_font, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bad_icon, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bad_board, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
