/* JSON read as it streams by, for the board file (the JSON cJSON took,
 * see json_scan.c): a pull scanner over a 256 KiB window of a file, or over
 * text in memory, that knows the line of every token, refuses a key given
 * twice in one object and what follows the one document, and never holds
 * more than the window, the open objects' keys that are not among the
 * names their caller reads (those are a bit each) and the string being
 * read. Internal. */
#ifndef CB_JSON_SCAN_H
#define CB_JSON_SCAN_H

#include <stddef.h>
#include <stdio.h>

typedef enum {
    CB_JSON_END = 0,    /* no value here: the text ended, or a fault */
    CB_JSON_OBJECT, CB_JSON_ARRAY, CB_JSON_STRING, CB_JSON_NUMBER,
    CB_JSON_TRUE, CB_JSON_FALSE, CB_JSON_NULL
} cb_json_type;

/* Why the scanner stopped, most serious first: a caller names the first
 * of these it finds, and a board file's own faults only when none is set. */
typedef enum {
    CB_JSON_OK = 0, CB_JSON_NOMEM, CB_JSON_IO, CB_JSON_TOO_LARGE, CB_JSON_NUL,
    CB_JSON_EMPTY, CB_JSON_SYNTAX, CB_JSON_TRAILING, CB_JSON_DUPLICATE
} cb_json_fault;

#define CB_JSON_NAMES 16     /* names a caller may give for one object */

/* The member names a caller reads in one kind of object, matched as each
 * key is read (by its length and bytes); filled by cb_json_names_init. */
typedef struct {
    int n;
    const char *name[CB_JSON_NAMES];
    unsigned short len[CB_JSON_NAMES];
} cb_json_names;

typedef struct {
    size_t len, at, line; /* raw bytes at ARENA + AT, on line LINE */
    size_t index;         /* its place among its object's members */
} cb_json_key;

typedef struct {
    size_t first_key;           /* its other keys: keys[first_key..n_keys) */
    size_t count;               /* members or items so far */
    int object;
    int hint;                   /* the name to try first for the next key */
    unsigned seen;              /* the names given so far, a bit each */
    size_t seen_line[CB_JSON_NAMES]; /* ... and the line of each */
    /* The first name given twice: its member's place (SIZE_MAX: none). */
    size_t twice_at, twice_line, twice_first_line;
    const char *twice_name;
} cb_json_frame;

typedef struct {
    FILE *f;                    /* read from, or NULL for TEXT */
    const char *text;
    size_t text_len, text_pos;
    char *buf;                  /* the window, a NUL after its data */
    char *p, *end;
    int eof;
    char before;                /* the byte before the window */
    size_t total;               /* bytes read into the window so far */
    size_t line;                /* of *p */
    int started;                /* a token was read */

    cb_json_fault fault;
    size_t fault_line;
    char near[24];              /* the text where the fault is (syntax) */
    int too_soon;               /* the text ended in the middle of a value */

    char *str;                  /* the string just read, NUL-terminated */
    size_t str_len;
    int key;                    /* the key just read: its name's index, or -1 */
    int escaped;                /* the string just read had an escape */
    char *str_buf;              /* where one is decoded when it must be */
    size_t str_cap;

    /* The keys of every open object that are not among its caller's names
     * (or are, but written with an escape), innermost last: their raw bytes
     * in ARENA, and where each open object's keys start (FRAMES). */
    cb_json_key *keys;
    size_t n_keys, cap_keys;
    char *arena;
    size_t arena_len, arena_cap;
    cb_json_frame *frames;
    size_t n_frames, cap_frames;
    char dup_key[72];           /* "key" as written, when given twice */
    size_t dup_first_line;
} cb_json_scan;

/* Reads the LEN bytes of TEXT (may be NULL), then F (may be NULL): text
 * in memory, a file, or the start of a file already read and the rest of
 * it; 0, or -1 when out of memory. cb_json_scan_close frees what it holds. */
int cb_json_scan_open(cb_json_scan *s, FILE *f, const char *text, size_t len);
void cb_json_scan_close(cb_json_scan *s);

/* The next value's type, nothing consumed; CB_JSON_END, with the fault
 * set, when there is none (an empty text, a byte no value starts with). */
cb_json_type cb_json_peek(cb_json_scan *s);

/* Each consumes one value of its type (after cb_json_peek said so); 1, or
 * 0 with the fault set. A string is in s->str (s->str_len bytes, with any
 * \u0000 in it) until the next call. */
int cb_json_number(cb_json_scan *s, double *out);
int cb_json_string(cb_json_scan *s);
int cb_json_literal(cb_json_scan *s);
/* "[x, y]", two numbers, read at once into XY: 1; 0 (nothing read) when
 * the next value is anything else, -1 on a fault. */
int cb_json_pair(cb_json_scan *s, double xy[2]);
/* Any value, whatever it holds; *TYPE (may be NULL) says which. */
int cb_json_skip(cb_json_scan *s, cb_json_type *type);

/* NAMES (N of them, at most CB_JSON_NAMES) into T, for cb_json_member. */
void cb_json_names_init(cb_json_names *t, const char *const *names, int n);

/* '{' or '['. Then each call of _member (_item) says 1 when a member (an
 * item) follows, its key in s->str (until its value is read) and the ':'
 * consumed, 0 when the object (array) closed, -1 on a fault. s->key is the
 * index in NAMES (may be NULL) of the key's name, as decoded (up to a
 * \u0000, as cJSON compared them), or -1. A key given twice (the same raw
 * bytes: "a" and "\u0061" are two keys) is found when its object closes
 * (the first such object to close is the one named, and in it the first
 * key that repeats one before it). */
int cb_json_open(cb_json_scan *s);
int cb_json_member(cb_json_scan *s, const cb_json_names *names);
int cb_json_item(cb_json_scan *s);

/* After the document: only white space may follow. 1, or 0 with the fault. */
int cb_json_finish(cb_json_scan *s);

/* After a fault that ends the reading: reads the text to its end looking
 * for a NUL byte, which is the fault to name if there is one. */
void cb_json_drain(cb_json_scan *s);

#endif
