/* The few things cutboard does inside libharu's objects (what libharu
 * still does for us is listed at the top of pdf.c), behind small
 * functions: making a form or image XObject, putting bytes we compressed
 * ourselves into a stream, loading the font from memory, mending the
 * font's /ToUnicode map, trimming the font to what a document shows, the
 * object number libharu gave an object, and faster glyph lookup and memory
 * copies that replace libharu's own (HPDF_TTFontDef_GetGlyphid,
 * HPDF_MemCpy, HPDF_MemSet).
 * libharu has no public call for these, so they read and write its
 * structs; hpdf_internals.c is the only file that does, and it refuses to
 * build against a libharu it was not tested with (tests/test_content.c
 * compares our page text with libharu's own operators, and our glyph ids
 * with libharu's). Internal to src/print/. */
#ifndef CB_HPDF_INTERNALS_H
#define CB_HPDF_INTERNALS_H

#include <hpdf.h>
#include <stddef.h>
#include <stdint.h>

#include "io/icon_cache.h"

/* A new empty dictionary owned by DOC; NULL on failure. */
HPDF_Dict cb_hpdf_dict_new(HPDF_Doc doc);
/* A new form XObject with a BBox of +-E about the origin and an empty
 * resource dictionary of its own (*RES); NULL on failure. */
HPDF_Dict cb_hpdf_form_new(HPDF_Doc doc, HPDF_REAL e, HPDF_Dict *res);
/* A new W x H image XObject in colour space CS, 8 bits a sample, whose
 * stream is still to be filled (cb_hpdf_stream_put): libharu's raw loader
 * would first copy every pixel in, only for the stream to be replaced by
 * the deflated ones. NULL on failure. */
HPDF_Image cb_hpdf_image_new(HPDF_Doc doc, unsigned w, unsigned h, HPDF_ColorSpace cs);
/* Does libharu write DICT's dictionary itself (images): it then deflates
 * the stream too, so only raw bytes may go in. */
int cb_hpdf_writes_itself(HPDF_Dict dict);
/* Replaces DICT's stream with LEN bytes of DATA: written as they are when
 * PREDEFLATED (the dictionary then names /FlateDecode itself), else with
 * no filter, or deflated by libharu where it writes the dictionary itself. */
HPDF_STATUS cb_hpdf_stream_put(HPDF_Dict dict, const void *data, size_t len, int predeflated);
/* Rewrites FONT's /ToUnicode stream as the identity map (libharu 2.3.0
 * writes a broken one for UTF-8 fonts). */
HPDF_STATUS cb_hpdf_fix_tounicode(HPDF_Font font);

/* The width (1/1000 em) of Unicode character CODE (BMP) in FONT, a
 * TrueType font with libharu's UTF-8 encoder, as HPDF_Font_TextWidth
 * counts it, but without marking its glyph used: measuring reads the font
 * only, so drawing threads may measure while the document's thread marks
 * glyphs (with HPDF_Font_TextWidth). 0 for other fonts. */
unsigned cb_hpdf_char_width(HPDF_Font font, unsigned code);

/* HPDF_LoadTTFontFromFile for the LEN bytes of a TrueType font at DATA,
 * checked by cb_font_check: loaded for embedding into DOC from memory,
 * which DOC reads until it is freed (DATA is not changed), its glyph names
 * left out (the 'post' table read as format 3). The font's name in DOC,
 * or NULL as libharu's call gives it. */
const char *cb_hpdf_load_ttf(HPDF_Doc doc, const unsigned char *data, size_t len);

/* Trims what FONT (a TrueType font with the UTF-8 encoder) will write
 * into the document to what the document shows: USED has a bit per
 * Unicode code (BMP) shown in its text. libharu lists the widths of all
 * 65,535 codes (24 KB) and their glyphs (CIDToGIDMap); after this, the
 * widths and glyphs of the codes shown only, and the font program is made
 * and deflated now, or taken from CACHE (NULL: none) where a document of
 * the same font file (FONT_KEY, a hash of its bytes) kept the program of
 * the same glyphs, and kept there when made. Call once, after the last
 * page and before the document is written. */
HPDF_STATUS cb_hpdf_font_slim(HPDF_Font font, const uint64_t *used, cb_icon_cache *cache,
                              const char *font_key);

/* The object number libharu gives OBJ (a font, image or form) in the file
 * it writes. */
unsigned cb_hpdf_obj_id(const void *obj);

#endif
