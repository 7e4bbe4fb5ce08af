#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "base/error.h"
#include "base/utf8.h"

static void fill(cb_error *err, cb_status status, const char *field, long line,
                 const char *fmt, va_list ap)
{
    char raw[sizeof err->message];
    vsnprintf(raw, sizeof raw, fmt, ap);
    /* One line whatever the input held: names and keys from a file or
     * a path from argv may carry newlines, terminal escapes or bytes
     * that are not UTF-8. */
    cb_text_shown(raw, err->message, sizeof err->message);
    snprintf(err->field, sizeof err->field, "%s", field ? field : "");
    err->line = line;
    err->status = status;
}

cb_status cb_fail(cb_error *err, cb_status status, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        fill(err, status, NULL, 0, fmt, ap);
        va_end(ap);
    }
    return status;
}

cb_status cb_fail_option(cb_error *err, const char *field, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        fill(err, CB_ERR_USAGE, field, 0, fmt, ap);
        va_end(ap);
    }
    return CB_ERR_USAGE;
}

cb_status cb_fail_field(cb_error *err, cb_status status, const char *field, const char *fmt,
                        ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        fill(err, status, field, 0, fmt, ap);
        va_end(ap);
    }
    return status;
}

cb_status cb_fail_line(cb_error *err, cb_status status, long line, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        fill(err, status, NULL, line, fmt, ap);
        va_end(ap);
    }
    return status;
}

cb_status cb_fail_nomem(cb_error *err, const char *what)
{
    return what && *what ? cb_fail(err, CB_ERR_NOMEM, "%s: out of memory", what)
                         : cb_fail(err, CB_ERR_NOMEM, "out of memory");
}

const char *cb_status_name(cb_status status)
{
    switch (status) {
    case CB_OK: return "no error";
    case CB_ERR_USAGE: return "bad option";
    case CB_ERR_DATA: return "bad data";
    case CB_ERR_NOINPUT: return "missing input";
    case CB_ERR_NOMEM: return "out of memory";
    case CB_ERR_CANTCREAT: return "cannot create output";
    case CB_ERR_IO: return "cannot write output";
    case CB_ERR_INFEASIBLE: return "cannot be met";
    case CB_ERR_STOPPED: return "stopped";
    case CB_ERR_INTERNAL: return "internal error";
    }
    return "unknown error";
}
