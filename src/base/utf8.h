/* UTF-8 text checks. */
#ifndef CB_UTF8_H
#define CB_UTF8_H

/* 1 when S is well-formed UTF-8 (no overlong forms, no surrogates, nothing
 * past U+10FFFF), as JSON files and PDF text need. */
int cb_utf8_valid(const char *s);

#endif
