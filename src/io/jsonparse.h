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

#endif
