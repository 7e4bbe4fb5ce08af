/* What cmocka 1.1 needs before <cmocka.h>, and small helpers shared by tests. */
#ifndef CB_TEST_H
#define CB_TEST_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>
#include "cutboard.h"

/* The default theme, loaded once per test group (cmocka group fixtures). */
static cb_theme *default_theme;

static inline int load_default_theme(void **state)
{
    (void)state;
    cb_error err;
    return cb_theme_load("icons/default", &default_theme, &err) == CB_OK ? 0 : -1;
}

static inline int free_default_theme(void **state)
{
    (void)state;
    cb_theme_free(default_theme);
    return 0;
}

/* With CB_TEST_PDF=DIR set, a test's PDF is also written to DIR/NAME.pdf,
 * to look at by eye. */
static inline void keep_pdf(const char *name, const unsigned char *data, size_t len)
{
    const char *dir = getenv("CB_TEST_PDF");
    if (!dir)
        return;
    char path[512];
    snprintf(path, sizeof path, "%s/%s.pdf", dir, name);
    FILE *fp = fopen(path, "wb");
    if (fp) {
        fwrite(data, 1, len, fp);
        fclose(fp);
    }
}

#endif
