#include <stdarg.h>
#include <stdio.h>
#include "error.h"

cb_status cb_fail(cb_error *err, cb_status status, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
        err->status = status;
    }
    return status;
}
