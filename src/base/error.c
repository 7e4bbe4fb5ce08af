#include <stdarg.h>
#include <stdio.h>
#include "base/error.h"

cb_status cb_fail(cb_error *err, cb_status status, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
        /* One line whatever the input held: names and keys from a file or
         * a path from argv may carry newlines or terminal escapes. */
        for (char *c = err->message; *c; c++)
            if ((unsigned char)*c < 0x20 || *c == 0x7f)
                *c = '?';
        err->status = status;
    }
    return status;
}
