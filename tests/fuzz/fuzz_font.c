/* Fuzz target: fonts. cb_font_check runs on arbitrary bytes; whatever it
 * accepts is handed to libharu the way the PDF writer does (load, embed,
 * draw text, save), since libharu trusts a font's offsets. */
#include <hpdf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/font.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void use_font(const char *path)
{
    HPDF_Doc doc = HPDF_New(NULL, NULL);
    if (!doc)
        return;
    HPDF_SetCompressionMode(doc, HPDF_COMP_ALL);
    if (HPDF_UseUTFEncodings(doc) == HPDF_OK && HPDF_SetCurrentEncoder(doc, "UTF-8") == HPDF_OK) {
        const char *name = HPDF_LoadTTFontFromFile(doc, path, HPDF_TRUE);
        HPDF_Font font = name ? HPDF_GetFont(doc, name, "UTF-8") : NULL;
        HPDF_Page page = font ? HPDF_AddPage(doc) : NULL;
        if (page && HPDF_Page_SetFontAndSize(page, font, 10) == HPDF_OK &&
            HPDF_Page_BeginText(page) == HPDF_OK) {
            HPDF_Page_ShowText(page, "cutboard 0.1.0 \xc3\xa9 seed/1 0123456789");
            HPDF_Page_EndText(page);
            HPDF_Page_TextWidth(page, "cutboard");
        }
        if (page)
            HPDF_SaveToStream(doc);
    }
    HPDF_Free(doc);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cb_error err = {CB_OK, "", 0, ""};
    if (cb_font_check(data, size, "fuzz.ttf", &err) != CB_OK) {
        if (err.status != CB_ERR_DATA || !strstr(err.message, "fuzz.ttf"))
            abort();
        return 0;
    }
    char path[64];
    snprintf(path, sizeof path, "/tmp/cb_fuzz_font_%ld.ttf", (long)getpid());
    FILE *f = fopen(path, "wb");
    if (!f)
        return 0;
    size_t wrote = fwrite(data, 1, size, f);
    if (fclose(f) == 0 && wrote == size)
        use_font(path);
    unlink(path);
    return 0;
}
