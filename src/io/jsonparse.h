/* Parsing JSON text with cJSON and telling a syntax error from running out
 * of memory (cJSON returns NULL for both). Internal. */
#ifndef CB_JSONPARSE_H
#define CB_JSONPARSE_H

#include <cjson/cJSON.h>
#include <stddef.h>

/* cJSON_ParseWithLengthOpts (no trailing-NUL rule), for one JSON document:
 * anything but white space after it is a syntax error there (*END points
 * at it). On NULL, *OOM says whether an allocation failed. */
cJSON *cb_json_parse(const char *text, size_t len, const char **end, int *oom);

/* Where a key appears a second time in one object of TEXT (LEN bytes of
 * valid JSON, as cb_json_parse took it): the offset of its opening quote,
 * and in *FIRST that of the first; SIZE_MAX when no key does, or when out
 * of memory (*OOM set). Keys are compared as written (cJSON keeps both and
 * its lookups see only the first, so a reader must refuse them). Time
 * O(n log k) for n bytes and k keys in the largest object. */
size_t cb_json_duplicate_key(const char *text, size_t len, size_t *first, int *oom);

#endif
