/* SVG rendering through the library: a generated game's sheet as SVG (the
 * drawing's parts counted against the board), text escaped, the same
 * options give the same bytes, and what SVG cannot do refused with a clear
 * error. tests/svg_check.py checks the CLI's files as XML and as pictures. */
#include "test.h"

#include <string.h>

#define FONT "fonts/DejaVuSans.ttf"

static size_t count(const char *s, const char *what)
{
    size_t n = 0;
    for (const char *p = strstr(s, what); p; p = strstr(p + 1, what))
        n++;
    return n;
}

static cb_game *game_of(const char *seed, int players)
{
    cb_spec spec;
    cb_spec_defaults(&spec);
    spec.seed = seed;
    spec.players = players;
    spec.theme = default_theme;
    cb_game *g = NULL;
    cb_error err;
    assert_int_equal(cb_game_generate(&spec, &g, &err), CB_OK);
    return g;
}

static void test_sheet_as_svg(void **state)
{
    (void)state;
    cb_game *g = game_of("svg <&> \"seed\"", 2);
    cb_render_options opt = {0};
    opt.font_path = FONT;
    cb_error err;
    char *svg = NULL, *again = NULL;
    size_t len = 0, len2 = 0;
    assert_int_equal(cb_svg_render(g, 1, default_theme, &opt, &svg, &len, &err), CB_OK);
    assert_int_equal(strlen(svg), len);
    const cb_board *b = g->sheets[1];
    assert_int_equal(count(svg, "<line class=\"edge\""), b->n_edges);
    size_t starts = 0, dots = 0;
    for (size_t i = 0; i < b->n_nodes; i++) {
        starts += b->nodes[i].kind == CB_KIND_START;
        double xy[16][2];
        dots += (size_t)cb_board_dot_positions(b, (uint32_t)i, xy, 16);
    }
    assert_int_equal(count(svg, "<g class=\"start\""), starts);
    assert_int_equal(count(svg, "<g class=\"center\""), 1);
    assert_int_equal(count(svg, "<g class=\"node\""), b->n_nodes - starts - 1);
    assert_int_equal(count(svg, " data-node=\""), dots);
    /* every icon file once, however many nodes show it */
    assert_true(count(svg, "<symbol ") <= default_theme->n_types + default_theme->n_missions + 1);
    assert_int_equal(count(svg, "<symbol "), count(svg, "<image "));
    assert_true(count(svg, "<use ") > count(svg, "<symbol "));
    /* the seed's markup characters are escaped in the title and the label */
    assert_non_null(strstr(svg, "seed &quot;svg &lt;&amp;&gt; &quot;seed&quot;&quot;"));
    assert_null(strstr(svg, "<&>"));
    assert_non_null(strstr(svg, "width=\"297mm\" height=\"210mm\" viewBox=\"0 0 297 210\""));
    /* reproducible */
    assert_int_equal(cb_svg_render(g, 1, default_theme, &opt, &again, &len2, &err), CB_OK);
    assert_int_equal(len, len2);
    assert_memory_equal(svg, again, len);
    free(again);
    /* ink-friendly: other fills, same drawing */
    opt.ink_friendly = 1;
    assert_int_equal(cb_svg_render(g, 1, default_theme, &opt, &again, &len2, &err), CB_OK);
    assert_int_equal(count(again, "<line class=\"edge\""), b->n_edges);
    assert_true(count(again, "fill=\"#ffffff\"") > b->n_nodes);
    free(again);
    free(svg);
    cb_game_free(g);
}

static void test_refused(void **state)
{
    (void)state;
    cb_game *g = game_of("refused", 2);
    cb_render_options opt = {0};
    cb_error err;
    char *svg = (char *)"untouched";
    size_t len = 7;
    opt.font_path = FONT;
    opt.cmyk = 1;
    assert_int_equal(cb_svg_render(g, 0, default_theme, &opt, &svg, &len, &err), CB_ERR_USAGE);
    assert_null(svg);
    assert_string_equal(err.field, "cmyk");
    opt.cmyk = 0;
    opt.crop_marks = 1;
    assert_int_equal(cb_svg_render(g, 0, default_theme, &opt, &svg, &len, &err), CB_ERR_USAGE);
    opt.crop_marks = 0;
    assert_int_equal(cb_svg_render(g, 2, default_theme, &opt, &svg, &len, &err),
                     CB_ERR_INTERNAL);
    assert_non_null(strstr(err.message, "no sheet 3"));
    opt.font_path = "fonts/no-such-font.ttf";
    assert_int_not_equal(cb_svg_render(g, 0, default_theme, &opt, &svg, &len, &err), CB_OK);
    assert_non_null(strstr(err.message, "no-such-font.ttf"));
    opt.font_path = FONT;
    opt.safe_area = 40;
    assert_int_equal(cb_svg_render(g, 0, default_theme, &opt, &svg, &len, &err), CB_ERR_USAGE);
    assert_string_equal(err.field, "safe_area");
    cb_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sheet_as_svg),
        cmocka_unit_test(test_refused),
    };
    return cmocka_run_group_tests(tests, load_default_theme, free_default_theme);
}
