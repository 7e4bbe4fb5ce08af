/* UTF-8 text checks. */
#ifndef CB_UTF8_H
#define CB_UTF8_H

#include <stddef.h>

/* 1 when S is well-formed UTF-8 (no overlong forms, no surrogates, nothing
 * past U+10FFFF), as JSON files and PDF text need. */
int cb_utf8_valid(const char *s);

/* S made safe to print to a terminal, in OUT (LEN > 0 bytes, always ended,
 * cut short at a whole character): control characters (C0, DEL and the C1
 * range U+0080..U+009F) and bytes that are not well-formed UTF-8 become
 * \xHH, each byte. Returns OUT. Every text taken from an input and shown
 * to a person goes through it. */
const char *cb_text_shown(const char *s, char *out, size_t len);

#endif
