/* Whether libmicrohttpd's parse of a request's head hid bytes behind a NUL
 * (src/cli/serve_head.c). Only the server program includes it. */
#ifndef CB_SERVE_HEAD_H
#define CB_SERVE_HEAD_H

#include <stddef.h>
#include <stdint.h>
#include <microhttpd.h>

/* The request target as MHD_OPTION_URI_LOG_CALLBACK saw it, before
 * libmicrohttpd splits and unescapes it in place. */
typedef struct {
    uintptr_t at;   /* where it starts in the connection's read buffer */
    size_t len;     /* its length up to the first NUL */
} serve_head_uri;

/* Notes URI (the log callback's argument; NULL when the line has none). */
void serve_head_note_uri(serve_head_uri *note, const char *uri);

/* 1 when every byte of the request line and the header lines reached the
 * handler (METHOD, URL, VERSION as the access handler got them, NOTE from
 * the log callback); 0 when a NUL cut one of them short or a header line
 * was folded. Call on the handler's first call for a request. */
int serve_head_plain(struct MHD_Connection *c, const serve_head_uri *note, const char *method,
                     const char *url, const char *version);

#endif
