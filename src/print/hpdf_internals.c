/* See hpdf_internals.h: the one file that reads and writes libharu's
 * structs. Moving to another libharu means checking each function here
 * against its sources, then adding its version below. */
#include <hpdf.h>
#include <hpdf_utils.h>
#include <hpdf_version.h>
#include <libdeflate.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "print/hpdf_internals.h"

#if HPDF_VERSION_ID != 20300
#error "cutboard reaches into libharu's structs (src/print/hpdf_internals.c) and was tested with libharu 2.3.0 only: check that file against this libharu, then allow its HPDF_VERSION_ID"
#endif

/* Propagates the first failing libharu call. */
#define TRY(call)                                                                           \
    do {                                                                                    \
        HPDF_STATUS st_ = (call);                                                           \
        if (st_ != HPDF_OK)                                                                 \
            return st_;                                                                     \
    } while (0)

HPDF_Dict cb_hpdf_dict_new(HPDF_Doc doc)
{
    return HPDF_Dict_New(doc->mmgr);
}

HPDF_Dict cb_hpdf_form_new(HPDF_Doc doc, HPDF_REAL e, HPDF_Dict *res)
{
    HPDF_MMgr mm = doc->mmgr;
    HPDF_Dict f = HPDF_DictStream_New(mm, doc->xref);
    HPDF_Box box = {-e, -e, e, e};
    HPDF_Array bbox = f ? HPDF_Box_Array_New(mm, box) : NULL;
    *res = bbox ? HPDF_Dict_New(mm) : NULL;
    if (!*res || HPDF_Dict_AddName(f, "Type", "XObject") != HPDF_OK ||
        HPDF_Dict_AddName(f, "Subtype", "Form") != HPDF_OK ||
        HPDF_Dict_Add(f, "BBox", bbox) != HPDF_OK || HPDF_Dict_Add(f, "Resources", *res) != HPDF_OK)
        return NULL;
    return f;
}

HPDF_Image cb_hpdf_image_new(HPDF_Doc doc, unsigned w, unsigned h, HPDF_ColorSpace cs)
{
    static const HPDF_BYTE pixel[4];
    HPDF_Image image = HPDF_LoadRawImageFromMem(doc, pixel, 1, 1, cs, 8);
    if (!image || HPDF_Dict_AddNumber(image, "Width", (HPDF_INT32)w) != HPDF_OK ||
        HPDF_Dict_AddNumber(image, "Height", (HPDF_INT32)h) != HPDF_OK)
        return NULL;
    return image;
}

/* Writes "/Filter [ /FlateDecode ]" into a stream's dictionary: its bytes
 * are compressed already, so libharu must copy them as they are (its filter
 * is off) yet name the filter. */
static HPDF_STATUS flate_name(HPDF_Dict dict, HPDF_Stream out)
{
    (void)dict;
    return HPDF_Stream_WriteStr(out, "/Filter [ /FlateDecode ]\012");
}

int cb_hpdf_writes_itself(HPDF_Dict dict)
{
    return dict->write_fn && dict->write_fn != flate_name;
}

HPDF_STATUS cb_hpdf_stream_put(HPDF_Dict dict, const void *data, size_t len, int predeflated)
{
    HPDF_MemStream_FreeData(dict->stream);
    if (!cb_hpdf_writes_itself(dict)) {
        dict->filter = HPDF_STREAM_FILTER_NONE;
        if (predeflated)
            dict->write_fn = flate_name;
    }
    return HPDF_Stream_Write(dict->stream, data, (HPDF_UINT)len);
}

/* With the UTF-8 encoder a code is the character's UTF-16 value, so the
 * right map is the identity. libharu 2.3.0's is a copy of its encoding CMap
 * (every code to CID 0): poppler warns on every run and text can't be
 * copied. The stream is rewritten in place. */
HPDF_STATUS cb_hpdf_fix_tounicode(HPDF_Font font)
{
    HPDF_Dict tu = HPDF_Dict_GetItem(font, "ToUnicode", HPDF_OCLASS_DICT);
    if (!tu || !tu->stream)
        return HPDF_OK; /* a libharu that doesn't write one: nothing to mend */
    static const char *const drop[] = {"Type", "CMapName", "CIDSystemInfo", "WMode"};
    for (size_t i = 0; i < sizeof drop / sizeof *drop; i++) {
        HPDF_STATUS hs = HPDF_Dict_RemoveElement(tu, drop[i]);
        if (hs != HPDF_OK && hs != HPDF_DICT_ITEM_NOT_FOUND)
            return hs;
    }
    HPDF_MemStream_FreeData(tu->stream);
    TRY(HPDF_Stream_WriteStr(
        tu->stream, "/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n"
                    "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n"
                    "/CMapName /Adobe-Identity-UCS def\n/CMapType 2 def\n"
                    "1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange\n"));
    /* A bfrange may only vary in its last byte: one range per high byte,
     * at most 100 to a block, surrogates (D8..DF) left out. */
    char line[64];
    unsigned done = 0, total = 256 - 8, block = 0;
    for (unsigned hi = 0; hi < 256; hi++) {
        if (hi >= 0xD8 && hi <= 0xDF)
            continue;
        if (block == 0) {
            block = total - done < 100 ? total - done : 100;
            snprintf(line, sizeof line, "%u beginbfrange\n", block);
            TRY(HPDF_Stream_WriteStr(tu->stream, line));
        }
        snprintf(line, sizeof line, "<%02X00> <%02XFF> <%02X00>\n", hi, hi, hi);
        TRY(HPDF_Stream_WriteStr(tu->stream, line));
        done++;
        if (--block == 0)
            TRY(HPDF_Stream_WriteStr(tu->stream, "endbfrange\n"));
    }
    return HPDF_Stream_WriteStr(tu->stream, "endcmap\nCMapName currentdict /CMap "
                                            "defineresource pop\nend\nend\n");
}

/* Takes the place of libharu's own HPDF_TTFontDef_GetGlyphid in every
 * program linked with libcutboard: libharu calls it through the dynamic
 * linker, which binds the name to the program's definition first (a
 * libharu built to bind its calls to itself keeps its own, slower, one).
 * libharu's walks the cmap's segments one by one, and making the UTF-8
 * font asks for all 65,536 codes: 61 M instructions in every PDF, 1 % of a
 * 300-game deck. This finds the same segment, the first that ends at or
 * above the code, by binary search, as the TrueType format prescribes and
 * viewers do: the segments must be sorted and the last end at U+FFFF,
 * which cb_font_check demands of every font before libharu reads it. The
 * rest is libharu's arithmetic, so every glyph id is libharu's
 * (tests/test_content.c compares all 65,536 for both shipped fonts); a
 * code past the segments or the glyph array gets glyph 0, where libharu
 * would read past its arrays. */
HPDF_UINT16 HPDF_TTFontDef_GetGlyphid(HPDF_FontDef fontdef, HPDF_UINT16 unicode)
{
    HPDF_TTFontDefAttr attr = (HPDF_TTFontDefAttr)fontdef->attr;
    const HPDF_TTF_CmapRange *cmap = &attr->cmap;
    if (cmap->format == 0)
        return cmap->glyph_id_array[unicode & 0xFF];
    HPDF_UINT segs = cmap->seg_count_x2 / 2;
    if (segs == 0) {
        HPDF_SetError(fontdef->error, HPDF_TTF_INVALID_CMAP, 0);
        return 0;
    }
    /* libharu asks for every code in turn when it makes a font (and a
     * page's text is mostly of a few segments): the segment found last, or
     * the one after it, is checked before searching. The hint only saves
     * the search; the segment is the same. */
    static _Thread_local HPDF_UINT hint;
    HPDF_UINT k = hint, lo = 0, hi = segs;
    const HPDF_UINT16 *end = cmap->end_count;
    if (k < segs && end[k] >= unicode && (k == 0 || end[k - 1] < unicode))
        lo = hi = k;
    else if (k + 1 < segs && end[k + 1] >= unicode && end[k] < unicode)
        lo = hi = k + 1;
    while (lo < hi) {
        HPDF_UINT mid = lo + (hi - lo) / 2;
        if (end[mid] < unicode)
            lo = mid + 1;
        else
            hi = mid;
    }
    hint = lo;
    if (lo == segs || cmap->start_count[lo] > unicode)
        return 0;
    if (cmap->id_range_offset[lo] == 0)
        return (HPDF_UINT16)(unicode + cmap->id_delta[lo]);
    HPDF_UINT idx = cmap->id_range_offset[lo] / 2 + (HPDF_UINT)(unicode - cmap->start_count[lo]) -
                    (segs - lo);
    if (idx >= cmap->glyph_id_array_count)
        return 0;
    return (HPDF_UINT16)(cmap->glyph_id_array[idx] + cmap->id_delta[lo]);
}

/* HPDF_TTFontDef_GetCharWidth without its one write (marking the glyph
 * used), so any thread may measure while another thread's page marks; the
 * same arithmetic, so the same widths. */
unsigned cb_hpdf_char_width(HPDF_Font font, unsigned code)
{
    HPDF_FontAttr attr = (HPDF_FontAttr)font->attr;
    HPDF_FontDef def = attr->fontdef;
    if (def->type != HPDF_FONTDEF_TYPE_TRUETYPE || attr->writing_mode != HPDF_WMODE_HORIZONTAL)
        return 0;
    HPDF_TTFontDefAttr ta = (HPDF_TTFontDefAttr)def->attr;
    if (ta->cmap.format != 0 && ta->cmap.seg_count_x2 == 0)
        return 0; /* GetGlyphid would record an error */
    HPDF_UINT16 gid = HPDF_TTFontDef_GetGlyphid(def, (HPDF_UINT16)code);
    if (gid >= ta->num_glyphs)
        return (HPDF_UINT)(HPDF_INT)def->missing_width;
    HPDF_UINT16 aw = (HPDF_UINT16)((HPDF_UINT)ta->h_metric[gid].advance_width * 1000 /
                                   ta->header.units_per_em);
    return (HPDF_UINT)(HPDF_INT)(HPDF_INT16)aw;
}

unsigned cb_hpdf_obj_id(const void *obj)
{
    return ((const HPDF_Obj_Header *)obj)->obj_id & 0x00FFFFFF;
}

/* A font file in memory as libharu reads one: its file reader's
 * behaviour (a read past the end zero-fills, is cut short and says
 * HPDF_STREAM_EOF) over bytes shared by every document, with the 'post'
 * table's version read as 3.0 (see cb_hpdf_load_ttf). */
typedef struct {
    const unsigned char *data;
    size_t len, at;
    size_t post;        /* where the post table starts; 0: left as it is */
} font_reader;

static HPDF_STATUS font_read(HPDF_Stream stream, HPDF_BYTE *out, HPDF_UINT *size)
{
    font_reader *r = stream->attr;
    size_t want = *size, got = r->at < r->len ? r->len - r->at : 0;
    if (got > want)
        got = want;
    /* libharu reads the tables a number (2 or 4 bytes) at a time, about
     * 20,000 reads a document: those are copied in place */
    const unsigned char *from = r->data + r->at;
    if (got <= 8)
        for (size_t k = 0; k < got; k++)
            out[k] = from[k];
    else
        memcpy(out, from, got);
    if (got < want)
        memset(out + got, 0, want - got);
    if (r->post && r->post + 4 > r->at && r->post < r->at + got)
        for (size_t k = 0; k < 4; k++) /* the version, 00 03 00 00 */
            if (r->post + k >= r->at && r->post + k < r->at + got)
                out[r->post + k - r->at] = k == 1 ? 3 : 0;
    r->at += got;
    if (got < want) {
        *size = (HPDF_UINT)got;
        return HPDF_STREAM_EOF;
    }
    return HPDF_OK;
}

static HPDF_STATUS font_seek(HPDF_Stream stream, HPDF_INT pos, HPDF_WhenceMode mode)
{
    font_reader *r = stream->attr;
    long long at = mode == HPDF_SEEK_CUR ? (long long)r->at + pos
                   : mode == HPDF_SEEK_END ? (long long)r->len + pos
                                           : pos;
    if (at < 0)
        return HPDF_SetError(stream->error, HPDF_FILE_IO_ERROR, 0);
    r->at = (size_t)at;
    return HPDF_OK;
}

static HPDF_INT32 font_tell(HPDF_Stream stream)
{
    return (HPDF_INT32)((font_reader *)stream->attr)->at;
}

static HPDF_UINT32 font_size(HPDF_Stream stream)
{
    return (HPDF_UINT32)((font_reader *)stream->attr)->len;
}

static void font_free(HPDF_Stream stream)
{
    free(stream->attr);
}

const char *cb_hpdf_load_ttf(HPDF_Doc doc, const unsigned char *data, size_t len)
{
    /* Glyph names are of no use to a PDF viewer, which finds glyphs by
     * their ids (CIDToGIDMap) and text by /ToUnicode: the 'post' table
     * is read as format 3, its 32-byte header without names (they were
     * half of DejaVu Sans's program). cb_font_check has made sure the
     * table directory fits. */
    unsigned tables = (unsigned)data[4] << 8 | data[5];
    HPDF_UINT32 post = 0, post_len = 0;
    for (unsigned i = 0; i < tables; i++) {
        const unsigned char *rec = data + 12 + 16 * (size_t)i;
        HPDF_UINT32 off = (HPDF_UINT32)rec[8] << 24 | (HPDF_UINT32)rec[9] << 16 |
                          (HPDF_UINT32)rec[10] << 8 | rec[11];
        HPDF_UINT32 n = (HPDF_UINT32)rec[12] << 24 | (HPDF_UINT32)rec[13] << 16 |
                        (HPDF_UINT32)rec[14] << 8 | rec[15];
        if (memcmp(rec, "post", 4) == 0 && n > 32 && off > 0)
            post = off, post_len = n;
    }
    /* libharu's HPDF_LoadTTFontFromFile, from memory: it reads the tables
     * a number at a time, through stdio from a file */
    font_reader *r = malloc(sizeof *r);
    HPDF_Stream stream = r ? HPDF_CallbackReader_New(doc->mmgr, font_read, font_seek, font_tell,
                                                     font_size, r)
                           : NULL;
    if (!stream) {
        free(r);
        HPDF_SetError(&doc->error, HPDF_FAILD_TO_ALLOC_MEM, 0);
        HPDF_CheckError(&doc->error);
        return NULL;
    }
    *r = (font_reader){data, len, 0, post_len ? post : 0};
    stream->free_fn = font_free;
    HPDF_FontDef def = HPDF_TTFontDef_Load(doc->mmgr, stream, HPDF_TRUE);
    if (!def) {
        HPDF_CheckError(&doc->error);
        return NULL;
    }
    HPDF_FontDef known = HPDF_Doc_FindFontDef(doc, def->base_font);
    if (known) {
        HPDF_FontDef_Free(def);
        return known->base_font;
    }
    if (HPDF_List_Add(doc->fontdef_list, def) != HPDF_OK) {
        HPDF_FontDef_Free(def);
        HPDF_CheckError(&doc->error);
        return NULL;
    }
    if (doc->ttfont_tag[0] == 0) {
        memcpy(doc->ttfont_tag, "HPDFAA", 6);
    } else {
        for (int i = 5; i >= 0; i--) {
            doc->ttfont_tag[i] += 1;
            if (doc->ttfont_tag[i] > 'Z')
                doc->ttfont_tag[i] = 'A';
            else
                break;
        }
    }
    HPDF_TTFontDef_SetTagName(def, (char *)doc->ttfont_tag);
    HPDF_TTFontDefAttr ta = (HPDF_TTFontDefAttr)def->attr;
    for (HPDF_UINT i = 0; post_len && i < ta->offset_tbl.num_tables; i++)
        if (memcmp(ta->offset_tbl.table[i].tag, "post", 4) == 0)
            ta->offset_tbl.table[i].length = 32;
    return def->base_font;
}

/* The font program (libharu's subset of the font file) deflated by
 * libdeflate at level 6, in a third of the time libharu's zlib takes when
 * it writes the document: into *Z (*ZLEN bytes, the caller frees it), its
 * Length1 into the font. */
static HPDF_STATUS program_make(HPDF_Font font, unsigned char **z, size_t *zlen)
{
    HPDF_FontAttr fa = (HPDF_FontAttr)font->attr;
    HPDF_Stream raw = HPDF_MemStream_New(font->mmgr, 64 * 1024);
    if (!raw)
        return HPDF_FAILD_TO_ALLOC_MEM;
    HPDF_STATUS st = HPDF_TTFontDef_SaveFontData(fa->fontdef, raw);
    HPDF_UINT32 n = st == HPDF_OK ? HPDF_Stream_Size(raw) : 0;
    unsigned char *bytes = st == HPDF_OK ? malloc(n ? n : 1) : NULL;
    struct libdeflate_compressor *c = bytes ? libdeflate_alloc_compressor(6) : NULL;
    size_t zcap = c ? libdeflate_zlib_compress_bound(c, n) : 0;
    *z = NULL;
    if (st == HPDF_OK && (!c || !(*z = malloc(zcap))))
        st = HPDF_FAILD_TO_ALLOC_MEM;
    HPDF_UINT got = n;
    if (st == HPDF_OK && (st = HPDF_Stream_Seek(raw, 0, HPDF_SEEK_SET)) == HPDF_OK) {
        st = HPDF_Stream_Read(raw, bytes, &got);
        if (st == HPDF_STREAM_EOF && got == n)
            st = HPDF_OK;
    }
    if (st == HPDF_OK && !(*zlen = libdeflate_zlib_compress(c, bytes, n, *z, zcap)))
        st = HPDF_FAILD_TO_ALLOC_MEM;
    libdeflate_free_compressor(c);
    free(bytes);
    HPDF_Stream_Free(raw);
    if (st != HPDF_OK) {
        free(*z);
        *z = NULL;
    }
    return st;
}

static void put32(unsigned char *p, uint32_t v)
{
    for (int k = 0; k < 4; k++)
        p[k] = (unsigned char)(v >> (8 * k));
}

static uint32_t get32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The font program as program_make makes it, from CACHE when a document of
 * the same font file (FONT_KEY) kept it for the same subset, else made and
 * kept. Besides the file, libharu's HPDF_TTFontDef_SaveFontData reads only
 * the subset's tag (in the name table) and the glyphs marked used: the
 * record kept starts with both, checked byte for byte, so two subsets that
 * share a name by chance are told apart; then Length1 and the program. */
static HPDF_STATUS program_bytes(HPDF_Font font, cb_icon_cache *cache, const char *font_key,
                                 unsigned char **rec, const unsigned char **z, size_t *zlen)
{
    HPDF_FontAttr fa = (HPDF_FontAttr)font->attr;
    HPDF_TTFontDefAttr ta = (HPDF_TTFontDefAttr)fa->fontdef->attr;
    size_t glyphs = ta->num_glyphs, head = 4 + sizeof ta->tag_name + glyphs;
    char name[128];
    uint32_t h = libdeflate_crc32(0, ta->tag_name, sizeof ta->tag_name);
    h = libdeflate_crc32(h, ta->glyph_tbl.flgs, glyphs);
    snprintf(name, sizeof name, "%.80s-%08x.font1", font_key ? font_key : "", (unsigned)h);
    size_t len = 0;
    *rec = cache && font_key ? cb_icon_cache_recall(cache, name, &len) : NULL;
    if (*rec && len >= head + 4 && get32(*rec) == glyphs &&
        memcmp(*rec + 4, ta->tag_name, sizeof ta->tag_name) == 0 &&
        memcmp(*rec + 4 + sizeof ta->tag_name, ta->glyph_tbl.flgs, glyphs) == 0) {
        ta->length1 = get32(*rec + head);
        *z = *rec + head + 4;
        *zlen = len - head - 4;
        return HPDF_OK;
    }
    free(*rec);
    /* made: the flags first, as SaveFontData marks composite glyphs' parts */
    *rec = malloc(head + 4);
    if (!*rec)
        return HPDF_FAILD_TO_ALLOC_MEM;
    put32(*rec, (uint32_t)glyphs);
    memcpy(*rec + 4, ta->tag_name, sizeof ta->tag_name);
    memcpy(*rec + 4 + sizeof ta->tag_name, ta->glyph_tbl.flgs, glyphs);
    unsigned char *made = NULL;
    size_t made_len = 0;
    HPDF_STATUS st = program_make(font, &made, &made_len);
    unsigned char *grown = st == HPDF_OK ? realloc(*rec, head + 4 + made_len) : NULL;
    if (!grown) {
        free(made);
        return st != HPDF_OK ? st : HPDF_FAILD_TO_ALLOC_MEM;
    }
    *rec = grown;
    put32(*rec + head, (uint32_t)ta->length1);
    memcpy(*rec + head + 4, made, made_len);
    free(made);
    if (cache && font_key)
        cb_icon_cache_keep(cache, name, *rec, head + 4 + made_len);
    *z = *rec + head + 4;
    *zlen = made_len;
    return HPDF_OK;
}

/* The font program, deflated (program_bytes): the same descriptor and
 * stream libharu's CIDFontType2 makes when first written, made now, so
 * that it finds one and keeps it. */
static HPDF_STATUS embed_program(HPDF_Font font, cb_icon_cache *cache, const char *font_key)
{
    HPDF_FontAttr fa = (HPDF_FontAttr)font->attr;
    HPDF_FontDef def = fa->fontdef;
    HPDF_TTFontDefAttr ta = (HPDF_TTFontDefAttr)def->attr;
    if (def->descriptor || !ta->embedding)
        return HPDF_OK;
    HPDF_Dict font_data = HPDF_DictStream_New(font->mmgr, fa->xref);
    if (!font_data)
        return HPDF_FAILD_TO_ALLOC_MEM;
    unsigned char *rec = NULL;
    const unsigned char *z = NULL;
    size_t zlen = 0;
    HPDF_STATUS st = program_bytes(font, cache, font_key, &rec, &z, &zlen);
    if (st == HPDF_OK)
        st = cb_hpdf_stream_put(font_data, z, zlen, 1);
    free(rec);
    if (st != HPDF_OK)
        return st;
    /* as CIDFontType2_BeforeWrite_Func (hpdf_font_cid.c) makes it */
    HPDF_Dict descriptor = HPDF_Dict_New(font->mmgr);
    if (!descriptor)
        return HPDF_FAILD_TO_ALLOC_MEM;
    st = HPDF_Dict_Add(descriptor, "FontFile2", font_data);
    st += HPDF_Dict_AddNumber(font_data, "Length1", (HPDF_INT32)ta->length1);
    st += HPDF_Dict_AddNumber(font_data, "Length2", 0);
    st += HPDF_Dict_AddNumber(font_data, "Length3", 0);
    st += HPDF_Xref_Add(fa->xref, descriptor);
    st += HPDF_Dict_AddName(descriptor, "Type", "FontDescriptor");
    st += HPDF_Dict_AddNumber(descriptor, "Ascent", def->ascent);
    st += HPDF_Dict_AddNumber(descriptor, "Descent", def->descent);
    st += HPDF_Dict_AddNumber(descriptor, "Flags", (HPDF_INT32)def->flags);
    HPDF_Array box = HPDF_Box_Array_New(font->mmgr, def->font_bbox);
    st += box ? HPDF_Dict_Add(descriptor, "FontBBox", box) : HPDF_FAILD_TO_ALLOC_MEM;
    st += HPDF_Dict_AddName(descriptor, "FontName", ta->base_font);
    st += HPDF_Dict_AddNumber(descriptor, "ItalicAngle", def->italic_angle);
    st += HPDF_Dict_AddNumber(descriptor, "StemV", def->stemv);
    st += HPDF_Dict_AddNumber(descriptor, "XHeight", def->x_height);
    if (st != HPDF_OK)
        return HPDF_FAILD_TO_ALLOC_MEM;
    def->descriptor = descriptor;
    return HPDF_OK;
}

HPDF_STATUS cb_hpdf_font_slim(HPDF_Font font, const uint64_t *used, cb_icon_cache *cache,
                              const char *font_key)
{
    HPDF_FontAttr fa = (HPDF_FontAttr)font->attr;
    HPDF_FontDef def = fa->fontdef;
    if (def->type != HPDF_FONTDEF_TYPE_TRUETYPE || !fa->descendant_font)
        return HPDF_OK;
    HPDF_Dict desc = fa->descendant_font;
    HPDF_Array w = HPDF_Array_New(desc->mmgr);
    if (!w)
        return HPDF_FAILD_TO_ALLOC_MEM;
    TRY(HPDF_Dict_Add(desc, "W", w));
    /* widths as libharu lists them ("code [w w ...]" for each run of codes
     * off the default width), for the codes the document shows only */
    HPDF_Array run = NULL;
    HPDF_UINT last = 0, prev = 0;
    HPDF_BYTE *map = fa->map_stream ? calloc(65535, 2) : NULL;
    if (fa->map_stream && !map)
        return HPDF_FAILD_TO_ALLOC_MEM;
    HPDF_STATUS st = HPDF_OK;
    for (HPDF_UINT c = 0; st == HPDF_OK && c < 65535; c++) {
        if (!(used[c >> 6] >> (c & 63) & 1))
            continue;
        HPDF_UINT16 gid = HPDF_TTFontDef_GetGlyphid(def, (HPDF_UINT16)c);
        if (map)
            map[2 * c] = (HPDF_BYTE)(gid >> 8), map[2 * c + 1] = (HPDF_BYTE)gid;
        HPDF_INT width = HPDF_TTFontDef_GetGidWidth(def, gid);
        last = c;
        if (width == def->missing_width) {
            run = NULL;
            continue;
        }
        if (!run || c != prev + 1) {
            run = HPDF_Array_New(desc->mmgr);
            if (!run || HPDF_Array_AddNumber(w, (HPDF_INT32)c) != HPDF_OK ||
                HPDF_Array_Add(w, run) != HPDF_OK) {
                st = HPDF_FAILD_TO_ALLOC_MEM;
                break;
            }
        }
        st = HPDF_Array_AddNumber(run, width);
        prev = c;
    }
    /* the glyph of each code shown, up to the last one shown (the codes
     * after it, never shown, need none); the others glyph 0 */
    if (st == HPDF_OK && map) {
        HPDF_MemStream_FreeData(fa->map_stream->stream);
        st = HPDF_Stream_Write(fa->map_stream->stream, map, 2 * (last + 1));
    }
    free(map);
    return st == HPDF_OK ? embed_program(font, cache, font_key) : st;
}

/* libharu's HPDF_MemCpy and HPDF_MemSet, replaced in every program linked
 * with libcutboard as HPDF_TTFontDef_GetGlyphid is: libharu's copy a byte
 * at a time, and every stream, the font's tables and the glyph map of
 * every document go through them. The same results: the end of what was written; a copy onto an overlapping
 * destination further on repeats the bytes, as the byte loop does. */
HPDF_BYTE *HPDF_MemCpy(HPDF_BYTE *out, const HPDF_BYTE *in, HPDF_UINT n)
{
    /* a few bytes (a glyph id at a time, 65,535 times a document: the
     * CIDToGIDMap libharu makes) are copied by the byte loop itself */
    if (n <= 16 || (out > in && out < in + n)) {
        for (HPDF_UINT i = 0; i < n; i++)
            out[i] = in[i];
    } else if (n) {
        memmove(out, in, n);
    }
    return out + n;
}

void *HPDF_MemSet(void *s, HPDF_BYTE c, HPDF_UINT n)
{
    if (n)
        memset(s, c, n);
    return (HPDF_BYTE *)s + n;
}
