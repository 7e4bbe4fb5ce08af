/* End-to-end: the rules and legend page as a new player meets it. Its text
 * is read back with pdftotext (every present type's name and action, every
 * mission's goal, the centre, the rules for the game's mode; no absent
 * type), its font sizes and text boxes are read from the PDF itself, and
 * --rules / deck --rules are counted in pages. */
#include "cli_support.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The page count pdfinfo printed (in out_text). */
static int pages(void)
{
    const char *p = strstr(out_text, "Pages:");
    return p ? atoi(p + 6) : -1;
}

static int pdf_pages(const char *pdf)
{
    pdfinfo(pdf);
    return pages();
}

/* TEXT with every run of white space made one space, in place. */
static char *squash(char *text)
{
    char *o = text;
    int space = 0;
    for (const char *c = text; *c; c++) {
        if (*c == ' ' || *c == '\n' || *c == '\t' || *c == '\f' || *c == '\r') {
            space = o != text;
            continue;
        }
        if (space)
            *o++ = ' ';
        space = 0;
        *o++ = *c;
    }
    *o = 0;
    return text;
}

/* Page PAGE of PDF as text, white space squashed, into a malloc'd copy. */
static char *page_text(const char *pdf, int page)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "pdftotext -f %d -l %d %s -", page, page, pdf);
    assert_int_equal(sh(cmd), 0);
    char *t = strdup(out_text);
    assert_non_null(t);
    return squash(t);
}

static void contains(const char *text, const char *what)
{
    char *w = strdup(what);
    assert_non_null(w);
    squash(w);
    if (!strstr(text, w))
        fail_msg("\"%s\" is not on the rules page", w);
    free(w);
}

/* Which theme type names the board file's sheets use. */
static int board_has_type(const cJSON *board, const char *type)
{
    const cJSON *sheets = cJSON_GetObjectItem(board, "sheets"), *s, *n;
    cJSON_ArrayForEach(s, sheets)
    {
        cJSON_ArrayForEach(n, cJSON_GetObjectItem(s, "nodes"))
        {
            const cJSON *ty = cJSON_GetObjectItem(n, "type");
            if (cJSON_IsString(ty) && strcmp(ty->valuestring, type) == 0)
                return 1;
        }
    }
    return 0;
}

/* The game's route length, counted here: the most edges from a numbered
 * start (every start when none is numbered) to its sheet's centre. */
static int route_hops(const cJSON *board)
{
    int most = 0, numbered = 0;
    const cJSON *sheets = cJSON_GetObjectItem(board, "sheets"), *s, *n, *e;
    cJSON_ArrayForEach(s, sheets)
    {
        cJSON_ArrayForEach(n, cJSON_GetObjectItem(s, "nodes"))
        numbered |= cJSON_GetObjectItem(n, "number") != NULL;
    }
    cJSON_ArrayForEach(s, sheets)
    {
        int count = cJSON_GetArraySize(cJSON_GetObjectItem(s, "nodes"));
        int *dist = malloc((size_t)count * sizeof *dist), *queue = malloc((size_t)count * sizeof *queue);
        assert_non_null(dist);
        assert_non_null(queue);
        for (int v = 0; v < count; v++)
            dist[v] = -1;
        int head = 0, tail = 0, center = cJSON_GetObjectItem(s, "center")->valueint;
        dist[center] = 0, queue[tail++] = center;
        while (head < tail) {
            int v = queue[head++];
            cJSON_ArrayForEach(e, cJSON_GetObjectItem(s, "edges"))
            {
                int a = cJSON_GetArrayItem(e, 0)->valueint, b = cJSON_GetArrayItem(e, 1)->valueint;
                int w = a == v ? b : b == v ? a : -1;
                if (w >= 0 && dist[w] < 0)
                    dist[w] = dist[v] + 1, queue[tail++] = w;
            }
        }
        cJSON_ArrayForEach(n, cJSON_GetObjectItem(s, "nodes"))
        {
            const cJSON *kind = cJSON_GetObjectItem(n, "kind");
            int id = cJSON_GetObjectItem(n, "id")->valueint;
            if (cJSON_IsString(kind) && strcmp(kind->valuestring, "start") == 0 &&
                (cJSON_GetObjectItem(n, "number") || !numbered) && dist[id] > most)
                most = dist[id];
        }
        free(dist);
        free(queue);
    }
    return most;
}

/* The default theme with an extra type "ghost" that no board can hold
 * (probability 0, min 0): a type that is never present. */
static void ghost_theme(void)
{
    copy_default_theme("ghost");
    cJSON *t = read_run_json("ghost/theme.json");
    cJSON *types = cJSON_GetObjectItem(t, "node_types");
    cJSON *g = cJSON_Duplicate(cJSON_GetArrayItem(types, 0), 1);
    cJSON_ReplaceItemInObject(g, "name", cJSON_CreateString("ghost"));
    cJSON_ReplaceItemInObject(g, "probability", cJSON_CreateNumber(0));
    cJSON_ReplaceItemInObject(g, "min", cJSON_CreateNumber(0));
    cJSON_DeleteItemFromObject(g, "action");
    cJSON_DeleteItemFromObject(g, "short");
    cJSON_AddItemToObject(g, "action", cJSON_CreateString("Haunt 2 lanterns near you."));
    cJSON_AddItemToObject(g, "short", cJSON_CreateString("haunt"));
    cJSON_AddItemToArray(types, g);
    char *text = cJSON_Print(t);
    write_file("ghost/theme.json", text);
    free(text);
    cJSON_Delete(t);
}

/* The theme in the run folder's DIR, as the library loads it (a
 * cutboard-theme/3 theme's texts are written from its effects). */
static cb_theme *load_theme(const char *dir)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", cli_rundir, dir);
    cb_theme *t;
    cb_error err;
    if (cb_theme_load(path, &t, &err) != CB_OK)
        fail_msg("%s", err.message);
    return t;
}

/* Every present type's name and action, every mission's goal, the centre's
 * text, every section for the game's mode, as the theme (loaded by the
 * library: a cutboard-theme/3 theme writes its rules from its effects)
 * words them; the absent type is not there. */
static void check_words(const char *pdf, const char *json, const char *theme_dir, int shared)
{
    int last = pdf_pages(pdf);
    char *text = page_text(pdf, last);
    cJSON *board = read_run_json(json);
    cb_theme *theme = load_theme(theme_dir);
    int shown = 0;
    for (size_t i = 0; i < theme->n_types; i++) {
        const char *name = theme->types[i].name, *action = theme->types[i].action;
        char entry[200];
        snprintf(entry, sizeof entry, "%s: %s", name, action);
        squash(entry);
        if (board_has_type(board, name)) {
            contains(text, entry);
            shown++;
        } else if (strstr(text, action) || strstr(text, entry)) {
            fail_msg("type %s is on no board but in the legend", name);
        }
    }
    assert_true(shown >= 5);
    int hops = route_hops(board), counted = 0;
    int players = cJSON_GetObjectItem(board, "players")->valueint;
    assert_true(hops >= 3);
    for (size_t i = 0; i < theme->n_missions; i++) {
        /* a shared board plays the mission's shared goal, when it has one */
        const cb_mission *mission = &theme->missions[i];
        const cb_goal *goal =
            shared && mission->has_shared_goal ? &mission->shared_goal : &mission->goal;
        int by_players = mission->has_shared_goal;
        for (int q = CB_PLAYERS_MIN; goal->n_listed && q <= CB_PLAYERS_MAX; q++)
            by_players |= goal->n_players[q] != goal->n_players[CB_PLAYERS_MIN] ||
                          goal->n_types_players[q] != 0;
        /* this player count's types: its "n" entry's own, else the goal's */
        const int *types = goal->n_types_players[players] ? goal->types_players[players]
                                                           : goal->types;
        int n_types = goal->n_types_players[players] ? goal->n_types_players[players]
                                                     : goal->n_types;
        contains(text, theme->missions[i].name);
        if (!goal->plus_hops && !by_players) {
            contains(text, theme->missions[i].text);
            continue;
        }
        /* this game's number, not the rule */
        int n = (goal->n_listed ? goal->n_players[players] : goal->n) +
                (goal->plus_hops ? hops : 0);
        char want[120];
        const char *name = theme->missions[i].name;
        /* the types a board can have that a set or actions goal leaves out */
        int possible = 0, left_out[64], n_left_out = 0;
        for (int t = 0; t < (int)theme->n_types && t < 64; t++) {
            if (theme->types[t].probability <= 0 && theme->types[t].min <= 0)
                continue;
            int listed = 0;
            for (int k = 0; k < n_types; k++)
                listed |= types[k] == t;
            possible++;
            if (!listed)
                left_out[n_left_out++] = t;
        }
        switch (goal->kind) {
        case CB_GOAL_VISIT: snprintf(want, sizeof want, "%s: Mark %d nodes before", name, n); break;
        case CB_GOAL_ACTIONS:
            if (goal->n_types && possible >= 5 && n_left_out == 0) /* all of them */
                snprintf(want, sizeof want, "%s: Mark %d nodes before", name, n);
            else if (goal->n_types && possible >= 5 && n_left_out <= 4 && n_left_out < n_types)
                snprintf(want, sizeof want, "%s: Mark %d nodes, not counting %s", name, n,
                         theme->types[left_out[0]].name);
            else if (goal->n_types) /* "Mark 4 anchor or shield nodes" */
                snprintf(want, sizeof want, "%s: Mark %d %s", name, n,
                         theme->types[types[0]].name);
            else
                snprintf(want, sizeof want, "%s: Mark %d nodes whose action", name, n);
            break;
        case CB_GOAL_TYPES:
            snprintf(want, sizeof want, "%s: Mark nodes of %d different types", name, n);
            break;
        case CB_GOAL_SET: {
            if (possible >= 5 && n_left_out >= 1 && n_left_out <= 2) { /* named by those */
                int len = snprintf(want, sizeof want,
                                   "%s: Mark nodes of %d different types, not counting %s", name,
                                   n, theme->types[left_out[0]].name);
                if (n_left_out == 2)
                    snprintf(want + len, sizeof want - (size_t)len, " or %s",
                             theme->types[left_out[1]].name);
            } else if (n == n_types)
                snprintf(want, sizeof want, "%s: Mark one %s", name,
                         theme->types[types[0]].name);
            else
                snprintf(want, sizeof want, "%s: Mark nodes of %d of these types: %s", name, n,
                         theme->types[types[0]].name);
            break;
        }
        default: snprintf(want, sizeof want, "%s: Cut loose %d piece", name, n);
        }
        contains(text, want);
        counted++;
    }
    assert_null(strstr(text, "N is"));
    assert_null(strstr(text, "gives N"));
    assert_true(counted >= 1);
    contains(text, theme->center.text);
    const cb_rules *rules = theme->rules;
    contains(text, rules->title);
    contains(text, rules->summary);
    for (int k = 0; k < CB_RULES_SECTIONS; k++) {
        const char *mine = shared ? rules->sections[k].shared : rules->sections[k].own;
        const char *other = shared ? rules->sections[k].own : rules->sections[k].shared;
        char *want = strdup(mine);
        contains(text, squash(want));
        free(want);
        if (strcmp(mine, other) != 0) {
            char *not = strdup(other);
            assert_null(strstr(text, squash(not)));
            free(not);
        }
    }
    contains(text, shared ? "one shared board" : "one sheet per player");
    free(text);
    cJSON_Delete(board);
    cb_theme_free(theme);
}

static void test_words_one_sheet_each(void **state)
{
    (void)state;
    NEED("pdftotext");
    ghost_theme();
    assert_int_equal(cutboard("--seed words --players 3 --theme ghost -o w.pdf --json w.json"), 0);
    assert_int_equal(pdf_pages("w.pdf"), 4);
    check_words("w.pdf", "w.json", "ghost", 0);
    char *text = page_text("w.pdf", 4);
    assert_null(strstr(text, "ghost"));
    assert_null(strstr(text, "Haunt"));
    free(text);
    /* the boards' pages carry no rules */
    text = page_text("w.pdf", 1);
    assert_null(strstr(text, "What you need"));
    free(text);
}

static void test_words_shared_letter(void **state)
{
    (void)state;
    NEED("pdftotext");
    assert_int_equal(cutboard("--seed shared --shared --players 6 --paper letter -o s.pdf "
                              "--json s.json"),
                     0);
    assert_int_equal(pdf_pages("s.pdf"), 2);
    copy_default_theme("t");
    check_words("s.pdf", "s.json", "t", 1);
}

/* Two players: the default theme's campfire names types of its own there. */
static void test_words_two_players(void **state)
{
    (void)state;
    NEED("pdftotext");
    assert_int_equal(cutboard("--seed pair --players 2 -o two.pdf --json two.json"), 0);
    assert_int_equal(pdf_pages("two.pdf"), 3);
    copy_default_theme("t2");
    check_words("two.pdf", "two.json", "t2", 0);
}

/* Nine players: the default theme's map names types of its own there (all
 * but blade and tent). */
static void test_words_nine_players(void **state)
{
    (void)state;
    NEED("pdftotext");
    assert_int_equal(cutboard("--seed nine --players 9 --shared --paper a3 -o nine.pdf "
                              "--json nine.json"),
                     0);
    copy_default_theme("t9");
    check_words("nine.pdf", "nine.json", "t9", 1);
}

/* The rules page's font sizes (Tf operands of its content stream) are all
 * at least 9 pt, on A4 and Letter, landscape and portrait, and each word's
 * box (pdftotext -bbox) lies inside the page, 5 mm clear of its edges. */
static void check_sizes_and_boxes(const char *args, double page_w, double page_h)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "--seed sizes --players 2 %s -o z.pdf", args);
    assert_int_equal(cutboard(cmd), 0);
    int last = pdf_pages("z.pdf");
    assert_int_equal(last, 3);
    snprintf(cmd, sizeof cmd,
             "qpdf --qdf --object-streams=disable z.pdf z.q.pdf; "
             "awk '/^%%%% Contents for page %d/{c=1} /^endstream/{c=0} c' z.q.pdf | "
             "awk '$NF == \"Tf\" {print $(NF-1)}' | sort -n | head -n 1",
             last);
    assert_int_equal(sh(cmd), 0);
    double smallest = atof(out_text);
    if (smallest < 9.0)
        fail_msg("%s: the rules page has text at %g pt", args, smallest);
    snprintf(cmd, sizeof cmd, "pdftotext -bbox -f %d -l %d z.pdf -", last, last);
    assert_int_equal(sh(cmd), 0);
    double edge = 5 * 72 / 25.4;
    int words = 0;
    for (const char *w = strstr(out_text, "<word "); w; w = strstr(w + 1, "<word ")) {
        double x0 = atof(strstr(w, "xMin=\"") + 6), y0 = atof(strstr(w, "yMin=\"") + 6);
        double x1 = atof(strstr(w, "xMax=\"") + 6), y1 = atof(strstr(w, "yMax=\"") + 6);
        if (x0 < edge || y0 < edge || x1 > page_w - edge || y1 > page_h - edge)
            fail_msg("%s: a word at %.1f,%.1f..%.1f,%.1f is outside the page's safe area",
                     args, x0, y0, x1, y1);
        words++;
    }
    assert_true(words > 300);
}

static void test_sizes_and_boxes(void **state)
{
    (void)state;
    NEED("pdftotext");
    NEED("qpdf");
    check_sizes_and_boxes("", 841.89, 595.276);
    check_sizes_and_boxes("--portrait", 595.276, 841.89);
    check_sizes_and_boxes("--paper letter", 792, 612);
    check_sizes_and_boxes("--paper letter --portrait --ink-friendly", 612, 792);
    /* print shop: bleed and marks widen the page; the words stay inside */
    check_sizes_and_boxes("--bleed 3mm --crop-marks", 841.89 + 2 * 3 * 72 / 25.4 + 60,
                          595.276 + 2 * 3 * 72 / 25.4 + 60);
}

/* --rules first / none; SVG and bad values. */
static void test_rules_option(void **state)
{
    (void)state;
    NEED("pdftotext");
    assert_int_equal(cutboard("--seed opt --players 2 --rules first -o f.pdf"), 0);
    assert_int_equal(pdf_pages("f.pdf"), 3);
    char *text = page_text("f.pdf", 1);
    contains(text, "What you need");
    free(text);
    text = page_text("f.pdf", 3);
    assert_null(strstr(text, "What you need"));
    free(text);
    assert_int_equal(cutboard("--seed opt --players 2 --rules none -o n.pdf"), 0);
    assert_int_equal(pdf_pages("n.pdf"), 2);
    /* the sheets are the same bytes whichever page the rules take */
    assert_int_equal(cutboard("--seed opt --players 2 --rules last -o l.pdf"), 0);
    assert_int_equal(sh("pdftotext -f 1 -l 2 l.pdf a.txt && pdftotext -f 2 -l 3 f.pdf b.txt && "
                        "cmp a.txt b.txt"),
                     0);
    expect_failure("--seed opt --rules sometimes -o x.pdf", 64, "--rules", "x.pdf");
    expect_failure("--seed opt --rules last -o x.svg", 64, "--rules", "x.svg");
    assert_int_equal(cutboard("--seed opt --players 2 -o pic.svg"), 0); /* the default is fine */
    expect_failure("deck --seed d --rules last -o x.pdf", 64, "--rules", "x.pdf");
}

/* render prints the rules page too. */
static void test_render(void **state)
{
    (void)state;
    NEED("pdftotext");
    assert_int_equal(cutboard("--seed rr --players 2 -o g.pdf --json g.json"), 0);
    assert_int_equal(cutboard("render g.json -o r.pdf"), 0);
    assert_int_equal(pdf_pages("r.pdf"), 3);
    assert_int_equal(sh("pdftotext -f 3 -l 3 g.pdf a.txt && pdftotext -f 3 -l 3 r.pdf b.txt && "
                        "cmp a.txt b.txt && grep -q 'What you need' b.txt"),
                     0);
    assert_int_equal(cutboard("render g.json --rules none -o r0.pdf"), 0);
    assert_int_equal(pdf_pages("r0.pdf"), 2);
}

/* deck: once at the end of one PDF (its legend: every type of the deck),
 * each after every game, each file's last page with --out-dir, none. */
static void test_deck_pages(void **state)
{
    (void)state;
    NEED("pdftotext");
    assert_int_equal(cutboard("deck --seed dk --count 3 --players 2 -o once.pdf"), 0);
    assert_int_equal(pdf_pages("once.pdf"), 7);
    char *text = page_text("once.pdf", 7);
    contains(text, "What you need");
    /* one page for games of one route length: their number */
    assert_null(strstr(text, "N is"));
    contains(text, "traveler: Mark");
    free(text);
    /* for games of different lengths: the rule for the number */
    assert_int_equal(cutboard("deck --seed a --count 3 --players 2 -o mixed.pdf"), 0);
    text = page_text("mixed.pdf", 7);
    contains(text, "more than the edges from your start to the summit.");
    free(text);
    assert_int_equal(cutboard("deck --seed dk --count 3 --players 2 --rules each "
                              "--manifest each.jsonl -o each.pdf"),
                     0);
    assert_int_equal(pdf_pages("each.pdf"), 9);
    /* the manifest's pages skip the rules pages: game 2 starts on page 4 */
    size_t len;
    char *m = read_run_file("each.jsonl", &len);
    assert_non_null(strstr(m, "\"first_page\":4"));
    assert_non_null(strstr(m, "\"first_page\":7"));
    free(m);
    text = page_text("each.pdf", 3);
    contains(text, "What you need");
    free(text);
    assert_int_equal(cutboard("deck --seed dk --count 3 --players 2 --rules none -o none.pdf"),
                     0);
    assert_int_equal(pdf_pages("none.pdf"), 6);
    assert_int_equal(cutboard("deck --seed dk --count 2 --players 2 --out-dir games"), 0);
    assert_int_equal(pdf_pages("games/game-00000.pdf"), 3);
    assert_int_equal(pdf_pages("games/game-00001.pdf"), 3);
    assert_int_equal(cutboard("deck --seed dk --count 2 --players 2 --rules once "
                              "--out-dir once"),
                     0);
    assert_int_equal(pdf_pages("once/game-00000.pdf"), 3);
    assert_int_equal(pdf_pages("once/game-00001.pdf"), 2);
}

/* A version 1 theme: the page is the legend with a note that there are no
 * rules. */
static void test_version1_theme(void **state)
{
    (void)state;
    NEED("pdftotext");
    copy_default_theme("old");
    cJSON *t = read_run_json("old/theme.json");
    cJSON_ReplaceItemInObject(t, "format", cJSON_CreateString("cutboard-theme/1"));
    cJSON_DeleteItemFromObject(t, "rules");
    cJSON_DeleteItemFromObject(t, "first_game");
    cJSON_DeleteItemFromObject(cJSON_GetObjectItem(t, "center"), "text");
    cJSON *x;
    cJSON_DeleteItemFromObject(t, "play");
    cJSON_ArrayForEach(x, cJSON_GetObjectItem(t, "node_types"))
    {
        cJSON_DeleteItemFromObject(x, "action");
        cJSON_DeleteItemFromObject(x, "short");
        cJSON_DeleteItemFromObject(x, "effect");
    }
    cJSON_ArrayForEach(x, cJSON_GetObjectItem(t, "missions"))
    {
        cJSON_DeleteItemFromObject(x, "goal");
        cJSON_DeleteItemFromObject(x, "shared_goal");
    }
    char *text = cJSON_Print(t);
    write_file("old/theme.json", text);
    free(text);
    cJSON_Delete(t);
    assert_int_equal(cutboard("--seed v1 --players 2 --theme old -o v1.pdf"), 0);
    assert_int_equal(pdf_pages("v1.pdf"), 3);
    text = page_text("v1.pdf", 3);
    contains(text, "carries no rules");
    contains(text, "blade");
    contains(text, "traveler");
    free(text);
}

/* CMYK: the rules page too is DeviceCMYK only. */
static void test_cmyk(void **state)
{
    (void)state;
    NEED("qpdf");
    assert_int_equal(cutboard("--seed c --players 2 --cmyk --rules first -o c.pdf"), 0);
    assert_int_equal(sh("qpdf --qdf --object-streams=disable c.pdf c.q.pdf && "
                        "awk '/^%% Contents for page 1/{c=1} /^endstream/{c=0} c' c.q.pdf "
                        "> p1.txt && grep -c -E '(^| )(rg|RG|g|G)$' p1.txt"),
                     1); /* grep found none */
    assert_int_equal(sh("grep -c -E ' (k|K)$' p1.txt"), 0);
}

/* The legend strip: every type on a sheet has its short label in that
 * sheet's margin, no word of the sheet lies on the board (inside the trim
 * line) or closer than 5 mm to the paper's edge, and the strip's text is
 * at least 6 pt. */
static void check_strip(const char *args, int expect_strip)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "--seed strip --players 2 %s -o st.pdf --json st.json", args);
    assert_int_equal(cutboard(cmd), 0);
    cJSON *board = read_run_json("st.json");
    cb_theme *theme = load_theme("t");
    const cJSON *sheet = cJSON_GetArrayItem(cJSON_GetObjectItem(board, "sheets"), 0);
    const cJSON *trim = cJSON_GetObjectItem(sheet, "board");
    double pt = 72 / 25.4;
    double bx = cJSON_GetObjectItem(trim, "x_mm")->valuedouble * pt;
    double by = cJSON_GetObjectItem(trim, "y_mm")->valuedouble * pt;
    double bw = cJSON_GetObjectItem(trim, "width_mm")->valuedouble * pt;
    double bh = cJSON_GetObjectItem(trim, "height_mm")->valuedouble * pt;
    const cJSON *page = cJSON_GetObjectItem(sheet, "page");
    double pw = cJSON_GetObjectItem(page, "width_mm")->valuedouble * pt;
    double ph = cJSON_GetObjectItem(page, "height_mm")->valuedouble * pt;
    /* bleed and marks widen the page about the board's paper */
    pdfinfo("st.pdf");
    const char *size = strstr(out_text, "Page size:");
    assert_non_null(size);
    double off = (atof(size + 10) - pw) / 2;
    bx += off, by += off;
    char *text = page_text("st.pdf", 1);
    int shown = 0;
    for (size_t i = 0; i < theme->n_types; i++) {
        const char *name = theme->types[i].name, *label = theme->types[i].short_label;
        int on = 0;
        const cJSON *n;
        cJSON_ArrayForEach(n, cJSON_GetObjectItem(sheet, "nodes"))
        {
            const cJSON *t = cJSON_GetObjectItem(n, "type");
            on |= cJSON_IsString(t) && strcmp(t->valuestring, name) == 0;
        }
        if (on && expect_strip) {
            contains(text, label);
            shown++;
        }
    }
    if (expect_strip)
        assert_true(shown >= 5);
    else
        assert_null(strstr(text, "cut 2"));
    free(text);
    assert_int_equal(sh("pdftotext -bbox -f 1 -l 1 st.pdf -"), 0);
    double edge = 5 * pt;
    int above = 0, below = 0; /* the strip's words in the top and bottom margins */
    for (const char *w = strstr(out_text, "<word "); w; w = strstr(w + 1, "<word ")) {
        double x0 = atof(strstr(w, "xMin=\"") + 6), y0 = atof(strstr(w, "yMin=\"") + 6);
        double x1 = atof(strstr(w, "xMax=\"") + 6), y1 = atof(strstr(w, "yMax=\"") + 6);
        const char *word = strchr(w, '>') + 1;
        for (size_t i = 0; i < theme->n_types; i++) {
            const char *label = theme->types[i].short_label;
            size_t first = strcspn(label, " ");
            if (strncmp(word, label, first) == 0 && word[first] == '<') {
                above += y1 <= by;
                below += y0 >= by + bh;
                break;
            }
        }
        if (x0 < off + edge || y0 < off + edge || x1 > off + pw - edge || y1 > off + ph - edge)
            fail_msg("%s: a word at %.1f,%.1f is within 5 mm of the paper edge", args, x0, y0);
        /* a start's seat number is part of the board's drawing */
        int digits = 1;
        for (const char *c = word; *c != '<'; c++)
            digits &= *c >= '0' && *c <= '9';
        if (digits)
            continue;
        if (x1 > bx && x0 < bx + bw && y1 > by && y0 < by + bh)
            fail_msg("%s: a word at %.1f,%.1f..%.1f,%.1f is on the board", args, x0, y0, x1, y1);
    }
    /* the strip stays together: one margin, never split between two */
    if (above && below)
        fail_msg("%s: the strip is split: %d words above the board, %d below", args, above,
                 below);
    assert_int_equal(sh("qpdf --qdf --object-streams=disable st.pdf st.q.pdf; "
                        "awk '/^%% Contents for page 1/{c=1} /^endstream/{c=0} c' st.q.pdf | "
                        "awk '$NF == \"Tf\" {print $(NF-1)}' | sort -n | head -n 1"),
                     0);
    assert_true(atof(out_text) >= 6.0);
    cJSON_Delete(board);
    cb_theme_free(theme);
}

static void test_strip(void **state)
{
    (void)state;
    NEED("pdftotext");
    NEED("qpdf");
    copy_default_theme("t");
    check_strip("", 1);
    check_strip("--paper letter --portrait", 1);
    check_strip("--paper a4 --portrait", 1);
    check_strip("--paper a3 --shared --players 9", 1);
    check_strip("--bleed 3mm --crop-marks --cmyk", 1);
    /* SVG: the same strip as text */
    assert_int_equal(cutboard("--seed strip --players 2 -o st.svg"), 0);
    size_t len;
    char *svg = read_run_file("st-1.svg", &len);
    assert_non_null(strstr(svg, "<g class=\"legend\">"));
    assert_non_null(strstr(svg, ">cut 2</text>"));
    free(svg);
    /* a crowded margin has no strip (the rules page has everything) */
    check_strip("--resolution 30 --margin 9", 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_words_one_sheet_each),
        cmocka_unit_test(test_words_shared_letter),
        cmocka_unit_test(test_words_two_players),
        cmocka_unit_test(test_words_nine_players),
        cmocka_unit_test(test_sizes_and_boxes),
        cmocka_unit_test(test_rules_option),
        cmocka_unit_test(test_render),
        cmocka_unit_test(test_deck_pages),
        cmocka_unit_test(test_version1_theme),
        cmocka_unit_test(test_cmyk),
        cmocka_unit_test(test_strip),
    };
    return cmocka_run_group_tests(tests, cli_setup, cli_teardown);
}
