/* A PDF written object by object as it is made (pdfout.c), to a file, so a
 * deck's memory does not grow with its pages, or to memory (cb_pdf_render,
 * the server): each object's offset is kept, the page tree, the catalog,
 * the cross-reference table and the trailer come at the end. Every PDF of
 * boards is written by it. Internal to src/print/. */
#ifndef CB_PDFOUT_H
#define CB_PDFOUT_H

#include <stddef.h>
#include <stdint.h>

typedef struct cb_pdfout cb_pdfout;

/* A writer onto FD (open for writing, at its start), or into memory when
 * FD is -1 (cb_pdfout_take), the header written; objects 1 and 2 are the
 * catalog and the page tree. NULL when out of memory. */
cb_pdfout *cb_pdfout_new(int fd);
/* After cb_pdfout_finish succeeded on a writer into memory: the file's
 * bytes (*LEN of them, the caller frees them); NULL otherwise. */
unsigned char *cb_pdfout_take(cb_pdfout *o, size_t *len);
void cb_pdfout_free(cb_pdfout *o);
/* The first write error (an errno value), or 0; ENOMEM when a table could
 * not grow. Writes after an error do nothing. */
int cb_pdfout_error(const cb_pdfout *o);
/* A new object number (0 when out of memory). */
uint32_t cb_pdfout_reserve(cb_pdfout *o);
/* Starts object ID ("ID 0 obj"), recording its offset; ends it. */
void cb_pdfout_begin_obj(cb_pdfout *o, uint32_t id);
void cb_pdfout_end_obj(cb_pdfout *o);
void cb_pdfout_write(cb_pdfout *o, const void *data, size_t len);
void cb_pdfout_str(cb_pdfout *o, const char *text);
/* A stream object: its dictionary entries DICT (may be empty), /Length and
 * the LEN bytes of DATA. */
void cb_pdfout_stream(cb_pdfout *o, uint32_t id, const char *dict, const void *data, size_t len);
/* Page ID joins the page tree (its /Parent is object 2). */
void cb_pdfout_add_page(cb_pdfout *o, uint32_t id);
/* Copies objects of another PDF (LEN bytes at PDF, with a cross-reference
 * table, as libharu writes): object FROM[i] becomes TO[i] (reserved), and
 * every object they refer to, at any depth, a new number; *INFO gets the
 * new number of that PDF's /Info dictionary (copied too), 0 if none.
 * 0, or -1 when PDF is not what was expected (or out of memory). */
int cb_pdfout_copy(cb_pdfout *o, const unsigned char *pdf, size_t len, const uint32_t *from,
                   const uint32_t *to, size_t n, uint32_t *info);
/* The page tree, the catalog, the cross-reference table and the trailer
 * (/Info INFO unless 0), then everything flushed; the error, or 0. */
int cb_pdfout_finish(cb_pdfout *o, uint32_t info);

#endif
