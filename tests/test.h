/* What cmocka 1.1 needs before <cmocka.h>, and small helpers shared by tests. */
#ifndef CB_TEST_H
#define CB_TEST_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#endif
