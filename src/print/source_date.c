/* SOURCE_DATE_EPOCH: the one clock a PDF may carry, parsed strictly and
 * turned into the PDF's CreationDate and ModDate. */
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

cb_status cb_source_date_parse(const char *text, long long *seconds, cb_error *err)
{
    long long t = 0;
    const char *c = text;
    for (; *c >= '0' && *c <= '9' && t <= 253402300799LL; c++)
        t = t * 10 + (*c - '0');
    if (c == text || *c || t > 253402300799LL) /* up to 9999-12-31 */
        return cb_fail(err, CB_ERR_USAGE,
                       "SOURCE_DATE_EPOCH: \"%.40s\" is not a count of seconds", text);
    *seconds = t;
    return CB_OK;
}

/* SECONDS after 1970-01-01 as a PDF date in UTC. */
int cb_pdf_date(long long seconds, HPDF_Date *date)
{
    time_t t = (time_t)seconds;
    struct tm tm;
    if (!gmtime_r(&t, &tm))
        return -1;
    memset(date, 0, sizeof *date);
    date->year = tm.tm_year + 1900;
    date->month = tm.tm_mon + 1;
    date->day = tm.tm_mday;
    date->hour = tm.tm_hour;
    date->minutes = tm.tm_min;
    date->seconds = tm.tm_sec;
    date->ind = 'Z';
    return 0;
}
