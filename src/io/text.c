/* Text files read whole (board files, OBJ drawings): the checks every
 * reader makes before parsing, and line numbers for messages. */
#include <string.h>
#include "io/text.h"

size_t cb_text_line(const char *text, size_t len, size_t offset)
{
    size_t line = 1;
    if (offset > len)
        offset = len;
    for (size_t i = 0; i < offset; i++)
        line += text[i] == '\n';
    return line;
}

cb_status cb_text_check(const char *text, size_t len, const char *name, cb_error *err)
{
    if (len > CB_BOARD_FILE_MAX)
        return cb_fail(err, CB_ERR_DATA, "%s: too large (%zu bytes; at most %zu MiB)", name, len,
                       (size_t)(CB_BOARD_FILE_MAX >> 20));
    const char *nul = memchr(text, '\0', len);
    if (nul)
        return cb_fail_line(err, CB_ERR_DATA, (long)cb_text_line(text, len, (size_t)(nul - text)),
                            "%s:%zu: not a text file (a NUL byte)", name,
                       cb_text_line(text, len, (size_t)(nul - text)));
    size_t i = 0;
    while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' || text[i] == '\n'))
        i++;
    if (i == len)
        return cb_fail(err, CB_ERR_DATA, "%s: empty file", name);
    return CB_OK;
}
