#include "cutboard.h"

/* The version linked in, for programs built against another header. */
const char *cb_version(int *number)
{
    if (number)
        *number = CB_VERSION_NUMBER;
    return CB_VERSION;
}
