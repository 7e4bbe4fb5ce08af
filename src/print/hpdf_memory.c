/* libharu's errors and allocations: the error handler that records what
 * went wrong into a context we own, the allocator hooks with a per-thread
 * reserve that keeps libharu alive through a failed allocation, and the
 * status a libharu failure is reported as. */
#include "cutboard.h"
#include "base/board_geometry.h"
#include "base/error.h"
#include "board/deal.h"
#include "io/font.h"
#include "io/icon_cache.h"
#include "io/icons.h"
#include "io/theme.h"
#include "print/content.h"
#include "print/hpdf_internals.h"
#include "print/render.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

/* Records the first error only: later ones are usually consequences. */
void HPDF_STDCALL cb_hpdf_on_error(HPDF_STATUS error_no, HPDF_STATUS detail_no,
                                          void *user_data)
{
    cb_hpdf_errors *e = user_data;
    if (e->error_no == 0) {
        e->error_no = error_no;
        e->detail_no = detail_no;
    }
}

/* libharu's allocations, watched in the calling thread: when one fails,
 * libharu does not always call the error handler and may report a later,
 * unrelated error instead; any error after a failed allocation is then
 * reported as running out of memory.
 *
 * Nor does libharu 2.3.0 survive every failed allocation: its TrueType
 * font writes a font descriptor it has just freed when HPDF_Xref_Add fails
 * while the document is saved (a crash at 2 of the 15,000 allocation
 * points of a game), as HPDF_Page_TextOut does. So libharu never sees a
 * failure while a reserve lasts: a failed allocation is served from it,
 * the document is marked as out of memory, and cb_pdf_save (which every
 * document ends with) reports it instead of returning the file. */
static _Thread_local int hpdf_alloc_failed;
#define CB_HPDF_RESERVE (64 * 1024)
static _Thread_local _Alignas(16) unsigned char hpdf_reserve[CB_HPDF_RESERVE];
static _Thread_local size_t hpdf_reserve_used, hpdf_reserve_live;

static void *HPDF_STDCALL cb_hpdf_alloc(HPDF_UINT size)
{
    void *m = malloc(size);
    if (!m) {
        hpdf_alloc_failed = 1;
        size_t need = ((size_t)size + 15) & ~(size_t)15;
        if (need <= CB_HPDF_RESERVE - hpdf_reserve_used) {
            m = hpdf_reserve + hpdf_reserve_used;
            hpdf_reserve_used += need;
            hpdf_reserve_live++;
        }
    }
    return m;
}

static void HPDF_STDCALL cb_hpdf_dealloc(void *m)
{
    unsigned char *c = m;
    if (c >= hpdf_reserve && c < hpdf_reserve + CB_HPDF_RESERVE) {
        /* from the reserve: all of it is free again with its last block */
        if (--hpdf_reserve_live == 0)
            hpdf_reserve_used = 0;
        return;
    }
    free(m);
}

HPDF_Doc cb_hpdf_new(cb_pdf *p)
{
    hpdf_alloc_failed = 0;
    return HPDF_NewEx(cb_hpdf_on_error, cb_hpdf_alloc, cb_hpdf_dealloc, 0, &p->herr);
}

int cb_hpdf_alloc_failed(void)
{
    return hpdf_alloc_failed;
}

int cb_hpdf_out_of_memory(const cb_pdf *p)
{
    /* fopen's own allocation failing shows as a file open error with
     * errno in the detail */
    return p->herr.error_no == HPDF_FAILD_TO_ALLOC_MEM || hpdf_alloc_failed ||
           (p->herr.error_no == HPDF_FILE_OPEN_ERROR && p->herr.detail_no == ENOMEM);
}

/* Names the error the handler saw first, else the status a call returned
 * (some libharu calls fail without calling the handler). */
cb_status cb_hpdf_fail(const cb_pdf *p, HPDF_STATUS st, cb_error *err, const char *what)
{
    HPDF_STATUS no = p->herr.error_no ? p->herr.error_no : st;
    /* zlib's Z_MEM_ERROR (-4), from libharu's own deflating, too */
    int zlib_oom = no == HPDF_ZLIB_ERROR && (long)p->herr.detail_no == -4;
    if (no == HPDF_FAILD_TO_ALLOC_MEM || zlib_oom || cb_hpdf_out_of_memory(p))
        return cb_fail(err, CB_ERR_NOMEM, "PDF: out of memory %s", what);
    return cb_fail(err, CB_ERR_INTERNAL, "PDF: libharu error 0x%04lX (detail %lu) %s",
                   (unsigned long)no, (unsigned long)p->herr.detail_no, what);
}
