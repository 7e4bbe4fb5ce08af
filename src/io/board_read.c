/* Reading boards back: a file is told apart by its first character (a JSON
 * value is a cutboard/1 board file, read as it streams by in board_json.c;
 * anything else a Wavefront OBJ drawing, read whole, up to
 * CB_BOARD_FILE_MAX, see obj_read.c) and parsed into a cb_game. Every value
 * is checked; a message names the file, the line where there is one and
 * the field at fault. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include "io/board_read.h"
#include "io/input.h"

/* ---- limits --------------------------------------------------------------- */

/* The limits on an OBJ drawing's game (*OUT), which is freed and cleared
 * when over one (the board file's reader checks its own). */
static cb_status within_limits(cb_status st, cb_game **out, const char *name, cb_error *err)
{
    for (size_t k = 0; st == CB_OK && *out && k < (*out)->n_sheets; k++)
        st = cb_board_limits_check((*out)->sheets[k], name ? name : "board file", k, err);
    if (st != CB_OK && *out) {
        cb_game_free(*out);
        *out = NULL;
    }
    return st;
}

/* ---- files --------------------------------------------------------------- */

/* Whether TEXT (its first LEN bytes) starts a board file: 1 for JSON, 0 for
 * an OBJ drawing, or the error for a byte order mark. */
static int is_json(const char *text, size_t len, const char *name, cb_error *err, cb_status *st)
{
    *st = CB_OK;
    if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0)
        *st = cb_fail_line(err, CB_ERR_DATA, 1, "%s:1: a UTF-8 byte order mark before the "
                           "JSON: save the board file without it", name ? name : "board file");
    else if (len >= 2 && (memcmp(text, "\xFF\xFE", 2) == 0 || memcmp(text, "\xFE\xFF", 2) == 0))
        *st = cb_fail_line(err, CB_ERR_DATA, 1, "%s:1: UTF-16 text (a byte order mark): save "
                           "the board file as UTF-8", name ? name : "board file");
    if (*st != CB_OK)
        return 0;
    size_t i = 0;
    while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' || text[i] == '\n'))
        i++;
    /* JSON by what it starts with: any JSON value (a board file's top level
     * must be an object, and the JSON reader says so); an OBJ drawing
     * starts with a statement or a comment, never with these. */
    static const char *const words[] = {"null", "true", "false"};
    int json = i < len && strchr("{[\"-0123456789", text[i]);
    for (size_t w = 0; w < 3 && !json; w++) {
        size_t n = strlen(words[w]);
        json = len - i >= n && memcmp(text + i, words[w], n) == 0 &&
               (len - i == n || !isalnum((unsigned char)text[i + n]));
    }
    return json;
}

cb_status cb_game_parse(const char *text, size_t len, const char *name, const cb_theme *theme,
                        cb_game **out, cb_error *err)
{
    *out = NULL;
    cb_status st;
    if (is_json(text, len, name, err, &st))
        return cb_game_parse_json(text, len, name, theme, out, err);
    if (st != CB_OK)
        return st;
    return within_limits(cb_game_parse_obj(text, len, name, theme, out, err), out, name, err);
}

/* Reads F on into *BUF (*LEN bytes so far, *CAP allocated): to its end
 * when WANT is 0, else until a byte that is not white space has WANT bytes
 * after it. */
static cb_status read_on(FILE *f, const char *name, char **buf, size_t *len, size_t *cap,
                         size_t want, cb_error *err)
{
    int nomem = 0;
    while (*len <= CB_BOARD_FILE_MAX) {
        if (*len == *cap) {
            char *bigger = realloc(*buf, *cap * 2);
            if (!bigger) {
                nomem = 1;
                break;
            }
            *buf = bigger;
            *cap *= 2;
        }
        size_t room = *cap - *len, got = fread(*buf + *len, 1, room, f);
        *len += got;
        if (got < room)
            break;
        if (want) {
            size_t i = 0;
            while (i < *len && strchr(" \t\r\n", (*buf)[i]))
                i++;
            if (i + want <= *len)
                break;
        }
    }
    if (ferror(f))
        return cb_fail(err, CB_ERR_NOINPUT, "%s: read error", name);
    if (*len > CB_BOARD_FILE_MAX)
        return cb_fail(err, CB_ERR_DATA, "%s: too large (more than %zu MiB)", name,
                       (size_t)(CB_BOARD_FILE_MAX >> 20));
    if (nomem)
        return cb_fail(err, CB_ERR_NOMEM, "out of memory reading %s", name);
    return CB_OK;
}

cb_status cb_game_read(FILE *f, const char *name, const cb_theme *theme, cb_game **out,
                       cb_error *err)
{
    *out = NULL;
    /* Enough of the start to tell JSON from OBJ: a board file is then read
     * on as it streams by, an OBJ drawing whole. */
    size_t cap = 1 << 12, len = 0;
    char *buf = malloc(cap);
    if (!buf)
        return cb_fail(err, CB_ERR_NOMEM, "out of memory reading %s", name);
    cb_status st = read_on(f, name, &buf, &len, &cap, 8, err);
    if (st == CB_OK && is_json(buf, len, name, err, &st))
        st = cb_board_json_read(f, buf, len, name, theme, out, err);
    else if (st == CB_OK && (st = read_on(f, name, &buf, &len, &cap, 0, err)) == CB_OK)
        st = within_limits(cb_game_parse_obj(buf, len, name, theme, out, err), out, name, err);
    free(buf);
    return st;
}

cb_status cb_game_load(const char *path, const cb_theme *theme, cb_game **out, cb_error *err)
{
    *out = NULL;
    FILE *f;
    off_t size;
    cb_status opened = cb_input_open("", path, &f, &size, err);
    if (opened != CB_OK)
        return opened;
    /* A file known to be too large is refused before anything is read. */
    cb_status st = (uintmax_t)size > CB_BOARD_FILE_MAX
                       ? cb_fail(err, CB_ERR_DATA, "%s: too large (more than %zu MiB)", path,
                                 (size_t)(CB_BOARD_FILE_MAX >> 20))
                       : cb_game_read(f, path, theme, out, err);
    fclose(f);
    return st;
}
