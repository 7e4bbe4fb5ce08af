/* What cmocka 1.1 needs before <cmocka.h>, and small helpers shared by tests. */
#ifndef CB_TEST_H
#define CB_TEST_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
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

#endif
