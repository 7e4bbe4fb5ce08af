#include <stdarg.h>
#include <stdio.h>
#include "base/error.h"
#include "base/utf8.h"

cb_status cb_fail(cb_error *err, cb_status status, const char *fmt, ...)
{
    if (err) {
        char raw[sizeof err->message];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(raw, sizeof raw, fmt, ap);
        va_end(ap);
        /* One line whatever the input held: names and keys from a file or
         * a path from argv may carry newlines, terminal escapes or bytes
         * that are not UTF-8. */
        cb_text_shown(raw, err->message, sizeof err->message);
        err->status = status;
    }
    return status;
}
