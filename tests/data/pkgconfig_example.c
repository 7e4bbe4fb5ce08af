/* A game written as PDF with the installed library (tests/install.sh
 * builds it with pkg-config): cutboard_example DATADIR OUT.pdf */
#include <cutboard.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    char theme_dir[4096], font[4096];
    cb_spec spec;
    cb_theme *theme = NULL;
    cb_game *game = NULL;
    unsigned char *pdf = NULL;
    size_t len = 0;
    cb_error err = {CB_OK, "", 0, ""};
    if (argc != 3)
        return 64;
    snprintf(theme_dir, sizeof theme_dir, "%s/icons/default", argv[1]);
    snprintf(font, sizeof font, "%s/fonts/DejaVuSans.ttf", argv[1]);
    cb_spec_defaults(&spec);
    spec.seed = "pkg-config";
    cb_render_options opt = {.font_path = font};
    cb_status st = cb_theme_load(theme_dir, &theme, &err);
    spec.theme = theme;
    if (st == CB_OK)
        st = cb_game_generate(&spec, &game, &err);
    if (st == CB_OK)
        st = cb_pdf_render(game, theme, &opt, &pdf, &len, &err);
    if (st == CB_OK)
        st = cb_file_write_atomic(argv[2], pdf, len, &err);
    if (st != CB_OK)
        fprintf(stderr, "example: %s\n", err.message);
    else
        printf("%zu sheets, %zu bytes of PDF\n", game->n_sheets, len);
    free(pdf);
    cb_game_free(game);
    cb_theme_free(theme);
    return st == CB_OK ? 0 : (int)st;
}
