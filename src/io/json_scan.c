/* JSON read as it streams by (see json_scan.h). What is taken is what
 * cJSON 1.7 takes, which read board files before: JSON, and also control
 * bytes between tokens and in strings, and numbers as strtod reads them
 * ("01", "1."). A fault is where cJSON found it, kept as its line and a
 * few bytes of the text there. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "cutboard.h"
#include "io/json_scan.h"

#define WINDOW (1 << 18)    /* bytes read at a time */
#define TOKEN 4096          /* bytes in the window ahead of any token */
#define MAX_DEPTH 1000      /* nesting, as cJSON allows */
#define MAX_NUMBER 63       /* the longest number taken, as cJSON reads them */

static int stopped(const cb_json_scan *s)
{
    return s->fault != CB_JSON_OK && s->fault != CB_JSON_DUPLICATE;
}

/* Records fault F unless one as serious or worse is there already. */
static int fail(cb_json_scan *s, cb_json_fault f)
{
    if (s->fault == CB_JSON_OK || f < s->fault)
        s->fault = f;
    return 0;
}

/* Keeps what is left of the window and reads on after it: the text first,
 * then the file. */
static void refill(cb_json_scan *s)
{
    size_t keep = (size_t)(s->end - s->p), room = WINDOW - keep, got = 0;
    if (s->p > s->buf)
        s->before = s->p[-1];
    memmove(s->buf, s->p, keep);
    if (s->text_pos < s->text_len) {
        got = s->text_len - s->text_pos < room ? s->text_len - s->text_pos : room;
        memcpy(s->buf + keep, s->text + s->text_pos, got);
        s->text_pos += got;
    }
    if (s->f && got < room) {
        size_t want = room - got, more = fread(s->buf + keep + got, 1, want, s->f);
        got += more;
        if (more < want) {
            s->eof = 1;
            if (ferror(s->f))
                fail(s, CB_JSON_IO);
        }
    } else if (!s->f) {
        s->eof = s->text_pos == s->text_len;
    }
    s->total += got;
    s->p = s->buf;
    s->end = s->buf + keep + got;
    *s->end = '\0'; /* the sentinel: no scan runs past it */
    if (s->total > CB_BOARD_FILE_MAX) {
        s->eof = 1;
        fail(s, CB_JSON_TOO_LARGE);
    }
}

int cb_json_scan_open(cb_json_scan *s, FILE *f, const char *text, size_t len)
{
    memset(s, 0, sizeof *s);
    s->f = f;
    s->text = text;
    s->text_len = len;
    s->line = 1;
    if (!(s->buf = malloc(WINDOW + 1)))
        return -1;
    s->p = s->end = s->buf;
    *s->end = '\0';
    return 0;
}

void cb_json_scan_close(cb_json_scan *s)
{
    free(s->buf);
    free(s->str_buf);
    free(s->keys);
    free(s->arena);
    free(s->frames);
    s->buf = s->str_buf = s->arena = NULL;
    s->keys = NULL;
    s->frames = NULL;
}

/* White space from P (bytes 1..32, as cJSON skips them), lines counted:
 * the byte after it. Most calls find none; the tabs that indent a written
 * file's lines are skipped by a loop of their own. */
static inline char *skip_space(cb_json_scan *s, char *p)
{
    if ((unsigned char)(*p - 1) >= ' ')
        return p;
    size_t line = s->line; /* not through S: a char store may alias it */
    do {
        line += *p++ == '\n';
        while (*p == '\t')
            p++;
    } while ((unsigned char)(*p - 1) < ' ');
    s->line = line;
    return p;
}

/* The next byte after white space, with TOKEN bytes in the window unless
 * the text ends first; -1 at the end. */
static int ahead_slow(cb_json_scan *s)
{
    for (;;) {
        char *p = s->p = skip_space(s, s->p);
        if (stopped(s))
            return -1;
        if (s->end - p < TOKEN && !s->eof) {
            refill(s);
            continue;
        }
        return p < s->end ? (unsigned char)*p : -1;
    }
}

/* The same, at once when there is room after the white space. */
static inline int ahead(cb_json_scan *s)
{
    char *p = s->p = skip_space(s, s->p);
    return s->end - p >= TOKEN ? (unsigned char)*p : ahead_slow(s);
}

/* The text at P, up to 20 bytes of its line, for a message. */
static void keep_near(cb_json_scan *s)
{
    size_t k = 0;
    for (const char *q = s->p; k < 20 && q < s->end && *q != '\n' && *q != '\r'; q++)
        s->near[k++] = *q;
    s->near[k] = '\0';
}

/* A fault of kind F at P: a NUL byte is the one to name, wherever it is. */
static int fault_here(cb_json_scan *s, cb_json_fault f)
{
    if (s->p < s->end && *s->p == '\0')
        f = CB_JSON_NUL;
    if (stopped(s) && s->fault <= f)
        return 0;
    fail(s, f);
    s->fault_line = s->line;
    /* At the end, the fault is the last byte's, on its line. */
    char last = s->p > s->buf ? s->p[-1] : s->before;
    if (s->p == s->end && last == '\n' && s->line > 1)
        s->fault_line--;
    s->too_soon = s->eof && s->end - s->p <= 1;
    keep_near(s);
    return 0;
}

static int syntax(cb_json_scan *s)
{
    return fault_here(s, CB_JSON_SYNTAX);
}

cb_json_type cb_json_peek(cb_json_scan *s)
{
    int c = ahead(s);
    if (c < 0 && !stopped(s) && !s->started) /* nothing but white space */
        return (cb_json_type)fail(s, CB_JSON_EMPTY);
    switch (c) {
    case '{': return CB_JSON_OBJECT;
    case '[': return CB_JSON_ARRAY;
    case '"': return CB_JSON_STRING;
    case 't': return CB_JSON_TRUE;
    case 'f': return CB_JSON_FALSE;
    case 'n': return CB_JSON_NULL;
    default:
        if (c == '-' || (c >= '0' && c <= '9'))
            return CB_JSON_NUMBER;
        return (cb_json_type)syntax(s);
    }
}

static const double pow10_exact[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                     1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                     1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

static int digit(char c)
{
    return c >= '0' && c <= '9';
}

static int number_byte(char c)
{
    return digit(c) || c == '+' || c == '-' || c == 'e' || c == 'E' || c == '.';
}

/* A number as cJSON reads one: the run of number bytes (up to 63) that
 * strtod takes. */
static int strtod_number(cb_json_scan *s, double *out)
{
    char tmp[MAX_NUMBER + 1], *after;
    size_t n = 0;
    while (n < MAX_NUMBER && number_byte(s->p[n]))
        n++;
    memcpy(tmp, s->p, n);
    tmp[n] = '\0';
    *out = strtod(tmp, &after);
    if (after == tmp)
        return syntax(s);
    s->p += after - tmp;
    return 1;
}

/* The number at P, which starts with '-' or a digit. */
static int number_at(cb_json_scan *s, double *out)
{
    /* JSON's own numbers, read here; anything else as cJSON reads it. */
    const char *q = s->p;
    int neg = *q == '-';
    q += neg;
    uint64_t mant = 0;
    int digits = 0, frac = 0;
    if (*q == '0') {
        q++;
        digits = 1;
    } else {
        for (; digit(*q) && digits < 16; q++, digits++)
            mant = mant * 10 + (uint64_t)(*q - '0');
    }
    if (*q == '.' && digit(q[1]))
        for (q++; digit(*q) && digits < 16; q++, digits++, frac++)
            mant = mant * 10 + (uint64_t)(*q - '0');
    /* Up to 15 digits, the mantissa and the power of ten are exact doubles:
     * one division is the correctly rounded value, the one strtod gives. */
    if (!digits || digits > 15 || number_byte(*q))
        return strtod_number(s, out);
    double v = (double)mant;
    if (frac)
        v /= pow10_exact[frac];
    *out = neg ? -v : v;
    s->p = (char *)q;
    return 1;
}

int cb_json_number(cb_json_scan *s, double *out)
{
    if (ahead(s) < 0)
        return syntax(s);
    s->started = 1;
    return number_at(s, out);
}

/* White space from P, lines counted, in the window only: the byte after,
 * or -1 when too near the window's end for a pair to be read at once. */
static int ws_in_window(cb_json_scan *s)
{
    char *p = s->p = skip_space(s, s->p);
    return s->end - p >= 2 * MAX_NUMBER || (s->eof && p < s->end) ? (unsigned char)*p : -1;
}

int cb_json_pair(cb_json_scan *s, double xy[2])
{
    if (ahead(s) != '[')
        return 0;
    char *open = s->p;
    size_t line = s->line;
    s->p++;
    for (int k = 0; k < 2; k++) {
        int c = ws_in_window(s);
        if (c != '-' && !(c >= '0' && c <= '9'))
            break;
        if (!number_at(s, &xy[k]))
            return -1;
        if (ws_in_window(s) != (k ? ']' : ','))
            break;
        s->p++;
        if (k)
            return 1;
    }
    s->p = open; /* not "[x, y]": for the caller to read as it reads any */
    s->line = line;
    return 0;
}

int cb_json_literal(cb_json_scan *s)
{
    int c = ahead(s);
    const char *word = c == 't' ? "true" : c == 'f' ? "false" : "null";
    size_t n = strlen(word);
    if (c < 0 || strncmp(s->p, word, n) != 0)
        return syntax(s);
    s->started = 1;
    s->p += n;
    return 1;
}

/* ---- strings ---------------------------------------------------------------- */

static int reserve(cb_json_scan *s, char **p, size_t *cap, size_t need)
{
    if (need <= *cap)
        return 1;
    size_t cap2 = *cap ? *cap : 256;
    while (cap2 < need)
        cap2 *= 2;
    char *q = realloc(*p, cap2);
    if (!q)
        return fail(s, CB_JSON_NOMEM);
    *p = q;
    *cap = cap2;
    return 1;
}

static int add_str(cb_json_scan *s, const char *b, size_t n)
{
    if (!reserve(s, &s->str_buf, &s->str_cap, s->str_len + n + 1))
        return 0;
    memcpy(s->str_buf + s->str_len, b, n);
    s->str_len += n;
    return 1;
}

static int add_raw(cb_json_scan *s, const char *b, size_t n)
{
    if (!reserve(s, &s->arena, &s->arena_cap, s->arena_len + n))
        return 0;
    memcpy(s->arena + s->arena_len, b, n);
    s->arena_len += n;
    return 1;
}

static int hex4(const char *q, unsigned *out)
{
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        char c = q[i];
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
                : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0)
            return 0;
        v = v << 4 | (unsigned)d;
    }
    *out = v;
    return 1;
}

/* The escape at P (after its backslash) decoded into the string; the bytes
 * it took, or 0 when it is not one. */
static size_t escape(cb_json_scan *s, const char *p)
{
    static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
    const char *k = *p ? strchr(from, *p) : NULL;
    if (k)
        return add_str(s, &to[k - from], 1) ? 1 : 0;
    unsigned c, lo;
    size_t took = 5;
    if (*p != 'u' || !hex4(p + 1, &c) || (c >= 0xDC00 && c <= 0xDFFF))
        return 0;
    if (c >= 0xD800 && c <= 0xDBFF) { /* a surrogate pair, or nothing */
        if (p[5] != '\\' || p[6] != 'u' || !hex4(p + 7, &lo) || lo < 0xDC00 || lo > 0xDFFF)
            return 0;
        c = 0x10000 + ((c - 0xD800) << 10) + (lo - 0xDC00);
        took = 11;
    }
    char u[4];
    size_t n = c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
    if (n == 1) {
        u[0] = (char)c;
    } else {
        for (size_t i = n - 1; i > 0; i--, c >>= 6)
            u[i] = (char)(0x80 | (c & 0x3F));
        u[0] = (char)((n == 2 ? 0xC0 : n == 3 ? 0xE0 : 0xF0) | c);
    }
    return add_str(s, u, n) ? took : 0;
}

/* Back to byte AT of the text (on line LINE) when the window still holds
 * it, for a fault cJSON names there. */
static void back_to(cb_json_scan *s, size_t at, size_t line)
{
    size_t window = s->total - (size_t)(s->end - s->buf);
    if (at >= window && at - window <= (size_t)(s->end - s->buf)) {
        s->p = s->buf + (at - window);
        s->line = line;
    }
}

/* A string that never ends: cJSON names the byte after its quote, AT. */
static int unterminated(cb_json_scan *s, size_t at, size_t line)
{
    back_to(s, at, line);
    return syntax(s);
}

/* The bytes a string holds as they are: not a control byte, '"' or '\\'. */
#define ONES4 1, 1, 1, 1
#define ONES16 ONES4, ONES4, ONES4, ONES4
static const unsigned char plain_byte[256] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* 0x00: control bytes */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    1, 1, 0, 1, ONES4, ONES4, ONES4,                /* 0x20: '"' */
    ONES16, ONES16,
    ONES4, ONES4, ONES4, 0, 1, 1, 1,                /* 0x50: '\\' */
    ONES16, ONES16, ONES16, ONES16, ONES16,         /* 0x60.. */
    ONES16, ONES16, ONES16, ONES16, ONES16,
};

/* The rest of the string scan_string began, from Q, the first byte it
 * could not take in place: decoded into s->str_buf. */
static int scan_string_slow(cb_json_scan *s, int key, char *q)
{
    /* The string starts at P, on this line, after its quote at AFTER_QUOTE - 1. */
    size_t line = s->line, after_quote = s->total - (size_t)(s->end - s->p);
    s->str_len = 0;
    for (;;) {
        size_t n = (size_t)(q - s->p);
        if (!add_str(s, s->p, n) || (key && !add_raw(s, s->p, n)))
            return 0;
        s->p = q;
        if (*q == '"')
            break;
        if (q == s->end || (*q == '\\' && s->end - q < 12 && !s->eof)) {
            if (s->eof)
                return unterminated(s, after_quote, line);
            refill(s);
            if (stopped(s))
                return 0;
            q = s->p;
        } else if (*q == '\\') {
            size_t took = q + 1 < s->end ? escape(s, q + 1) : 0;
            if (!took) {
                if (stopped(s))
                    return 0;
                /* cJSON names a bad escape where it is, in a string that ends */
                const char *e = q + 1;
                while (e < s->end && *e != '"')
                    e += *e == '\\' ? 2 : 1;
                return e >= s->end && s->eof ? unterminated(s, after_quote, line) : syntax(s);
            }
            if (key && !add_raw(s, q, took + 1))
                return 0;
            s->escaped = 1;
            s->p = q += took + 1;
        } else if (*q == '\0') {
            return syntax(s); /* a NUL byte */
        } else { /* a control byte: cJSON keeps it */
            s->line += *q == '\n';
            if (!add_str(s, q, 1) || (key && !add_raw(s, q, 1)))
                return 0;
            s->p = ++q;
        }
        while (plain_byte[(unsigned char)*q])
            q++;
    }
    if (!add_str(s, "", 1))
        return 0;
    s->str_len--;
    s->str = s->str_buf;
    s->p++;
    return 1;
}

/* The string at P, decoded into s->str: read in place when it can be (no
 * escape, all in the window), else into s->str_buf, with its raw bytes
 * also in the arena when it is a KEY. */
static int scan_string(cb_json_scan *s, int key)
{
    if (ahead(s) != '"') {
        if (s->p < s->end && *s->p)
            s->p++; /* where cJSON names it */
        return syntax(s);
    }
    s->started = 1;
    char *q = ++s->p;
    while (plain_byte[(unsigned char)*q])
        q++;
    s->escaped = 0;
    if (*q == '"') { /* the common case: read in place */
        *q = '\0';
        s->str = s->p;
        s->str_len = (size_t)(q - s->p);
        s->p = q + 1;
        return 1;
    }
    return scan_string_slow(s, key, q);
}

int cb_json_string(cb_json_scan *s)
{
    return scan_string(s, 0);
}

/* ---- objects and arrays ----------------------------------------------------- */

int cb_json_open(cb_json_scan *s)
{
    int c = ahead(s);
    if ((c != '{' && c != '[') || s->n_frames >= MAX_DEPTH)
        return syntax(s);
    s->started = 1;
    if (s->n_frames == s->cap_frames) {
        size_t cap = s->cap_frames ? 2 * s->cap_frames : 32;
        cb_json_frame *more = realloc(s->frames, cap * sizeof *more);
        if (!more)
            return fail(s, CB_JSON_NOMEM);
        s->frames = more;
        s->cap_frames = cap;
    }
    cb_json_frame *fr = &s->frames[s->n_frames++];
    fr->first_key = s->n_keys;
    fr->count = 0;
    fr->object = c == '{';
    fr->hint = 0;
    fr->seen = 0;
    fr->twice_at = SIZE_MAX;
    s->p++;
    return 1;
}

void cb_json_names_init(cb_json_names *t, const char *const *names, int n)
{
    t->n = n < CB_JSON_NAMES ? n : CB_JSON_NAMES;
    for (int k = 0; k < t->n; k++) {
        t->name[k] = names[k];
        t->len[k] = (unsigned short)strlen(names[k]);
    }
}

/* KEY (LEN bytes) among NAMES: its index, or -1. The names are tried from
 * the one after the last found, so keys in the order of NAMES, as the
 * writer gives them, are found at the first try. */
static int name_index(const cb_json_names *names, cb_json_frame *fr, const char *key,
                      size_t len)
{
    int n = names->n;
    for (int i = 0, k = fr->hint < n ? fr->hint : 0; i < n; i++, k = k + 1 < n ? k + 1 : 0) {
        const char *name = names->name[k];
        if (names->len[k] != len || name[0] != key[0])
            continue;
        size_t b = 1;
        while (b < len && name[b] == key[b])
            b++;
        if (b >= len) {
            fr->hint = k + 1;
            return k;
        }
    }
    return -1;
}

static int same_key(const cb_json_scan *s, const cb_json_key *a, const cb_json_key *b)
{
    return a->len == b->len && memcmp(s->arena + a->at, s->arena + b->at, a->len) == 0;
}

/* A key to sort: its bytes and its place in its object. */
typedef struct {
    const char *bytes;
    size_t len, index;
} sort_key;

static int key_order(const void *x, const void *y)
{
    const sort_key *a = x, *b = y;
    if (a->len != b->len)
        return a->len < b->len ? -1 : 1;
    int c = memcmp(a->bytes, b->bytes, a->len);
    return c ? c : (a->index > b->index) - (a->index < b->index);
}

/* Keys K[0..N): the first that repeats an earlier one (its index), and in
 * *FIRST that earlier one; N when none does. A plain search for the few
 * keys of a board file's objects, a sort for many (O(n log n) whatever the
 * keys, as a hostile file may choose them). */
static size_t repeated_key(cb_json_scan *s, const cb_json_key *k, size_t n, size_t *first)
{
    if (n <= 16) {
        for (size_t j = 1; j < n; j++)
            for (size_t i = 0; i < j; i++)
                if (same_key(s, &k[i], &k[j]))
                    return *first = i, j;
        return n;
    }
    sort_key *sorted = malloc(n * sizeof *sorted);
    if (!sorted)
        return fail(s, CB_JSON_NOMEM), n;
    for (size_t i = 0; i < n; i++)
        sorted[i] = (sort_key){s->arena + k[i].at, k[i].len, i};
    qsort(sorted, n, sizeof *sorted, key_order);
    size_t found = n;
    for (size_t i = 0, j; i < n; i = j) { /* each run of one key, in place order */
        for (j = i + 1; j < n && sorted[j].len == sorted[i].len &&
                        memcmp(sorted[j].bytes, sorted[i].bytes, sorted[i].len) == 0;
             j++)
            ;
        if (j - i > 1 && sorted[i + 1].index < found) {
            found = sorted[i + 1].index;
            *first = sorted[i].index;
        }
    }
    free(sorted);
    return found;
}

/* Closes the innermost container: a key its object gives twice is the
 * fault, unless one was found before. */
static int close_frame(cb_json_scan *s)
{
    cb_json_frame *fr = &s->frames[--s->n_frames];
    size_t n = s->n_keys - fr->first_key, first = 0;
    /* (no keys read yet: KEYS is still NULL, and NULL + 0 is undefined) */
    const cb_json_key *k = n ? s->keys + fr->first_key : NULL;
    if (fr->object && s->fault == CB_JSON_OK) {
        /* The first key to repeat one before it: among the names (found as
         * they were read) or among the other keys. */
        size_t j = n > 1 ? repeated_key(s, k, n, &first) : n;
        if (s->fault != CB_JSON_OK) {
            /* out of memory */
        } else if (j < n && k[j].index < fr->twice_at) {
            size_t len = k[j].len < 62 ? k[j].len : 62;
            snprintf(s->dup_key, sizeof s->dup_key, "\"%.*s%s", (int)len, s->arena + k[j].at,
                     k[j].len < 63 ? "\"" : "");
            s->fault = CB_JSON_DUPLICATE;
            s->fault_line = k[j].line;
            s->dup_first_line = k[first].line;
        } else if (fr->twice_at != SIZE_MAX) {
            snprintf(s->dup_key, sizeof s->dup_key, "\"%.62s\"", fr->twice_name);
            s->fault = CB_JSON_DUPLICATE;
            s->fault_line = fr->twice_line;
            s->dup_first_line = fr->twice_first_line;
        }
    }
    if (n)
        s->arena_len = k[0].at;
    s->n_keys = fr->first_key;
    s->p++;
    return 0;
}

/* Before a member or an item: 1 when one follows (after its comma), 0 when
 * the container closes here. */
static int next_in(cb_json_scan *s, int close)
{
    cb_json_frame *fr = &s->frames[s->n_frames - 1];
    int c = ahead(s);
    if (stopped(s))
        return -1;
    if (c == close)
        return close_frame(s);
    if (fr->count++ > 0) {
        if (c != ',')
            return syntax(s), -1;
        s->p++;
        ahead(s); /* at the next one, on its line */
    }
    return 1;
}

/* The ':' after a key: 1, or -1 on a fault. */
static int colon(cb_json_scan *s)
{
    if (ahead(s) != ':')
        return syntax(s), -1;
    s->p++;
    return 1;
}

int cb_json_member(cb_json_scan *s, const cb_json_names *names)
{
    int r = next_in(s, '}');
    if (r <= 0)
        return r;
    cb_json_frame *fr = &s->frames[s->n_frames - 1];
    size_t at = s->arena_len, line = s->line;
    if (!scan_string(s, 1))
        return -1;
    int in_place = s->str != s->str_buf; /* then its raw bytes are not in the arena */
    s->key = names ? name_index(names, fr, s->str, in_place ? s->str_len : strlen(s->str))
                   : -1;
    if (s->key >= 0 && !s->escaped) { /* a name: a bit, not its bytes */
        unsigned bit = 1u << s->key;
        s->arena_len = at;
        if (!(fr->seen & bit)) {
            fr->seen |= bit;
            fr->seen_line[s->key] = line;
        } else if (fr->twice_at == SIZE_MAX) {
            fr->twice_at = fr->count - 1;
            fr->twice_line = line;
            fr->twice_first_line = fr->seen_line[s->key];
            fr->twice_name = names->name[s->key];
        }
        return colon(s);
    }
    if (in_place && !add_raw(s, s->str, s->str_len))
        return -1;
    if (s->n_keys == s->cap_keys) {
        size_t cap = s->cap_keys ? 2 * s->cap_keys : 64;
        cb_json_key *more = realloc(s->keys, cap * sizeof *more);
        if (!more)
            return fail(s, CB_JSON_NOMEM), -1;
        s->keys = more;
        s->cap_keys = cap;
    }
    size_t len = s->arena_len - at;
    s->keys[s->n_keys++] = (cb_json_key){len, at, line, fr->count - 1};
    return colon(s);
}

int cb_json_item(cb_json_scan *s)
{
    return next_in(s, ']');
}

int cb_json_skip(cb_json_scan *s, cb_json_type *type)
{
    double d;
    int r;
    cb_json_type t = cb_json_peek(s);
    if (type)
        *type = t;
    switch (t) {
    case CB_JSON_END: return 0;
    case CB_JSON_NUMBER: return cb_json_number(s, &d);
    case CB_JSON_STRING: return cb_json_string(s);
    case CB_JSON_OBJECT:
        if (!cb_json_open(s))
            return 0;
        while ((r = cb_json_member(s, NULL)) == 1)
            if (!cb_json_skip(s, NULL))
                return 0;
        return r == 0;
    case CB_JSON_ARRAY:
        if (!cb_json_open(s))
            return 0;
        while ((r = cb_json_item(s)) == 1)
            if (!cb_json_skip(s, NULL))
                return 0;
        return r == 0;
    default: return cb_json_literal(s);
    }
}

int cb_json_finish(cb_json_scan *s)
{
    if (ahead(s) < 0)
        return !stopped(s);
    return fault_here(s, CB_JSON_TRAILING);
}

void cb_json_drain(cb_json_scan *s)
{
    if (s->fault != CB_JSON_SYNTAX && s->fault != CB_JSON_TRAILING)
        return;
    size_t line = s->fault_line;
    for (char *q = s->p;; q++) {
        if (q == s->end) {
            if (s->eof)
                return;
            s->p = q;
            refill(s);
            if (s->fault != CB_JSON_SYNTAX && s->fault != CB_JSON_TRAILING)
                return; /* out of memory, a read error, too large */
            q = s->p;
            if (q == s->end)
                return;
        }
        if (*q == '\n')
            line++;
        else if (*q == '\0') {
            s->fault = CB_JSON_NUL;
            s->fault_line = line;
            return;
        }
    }
}
