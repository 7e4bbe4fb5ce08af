/* The web page and the HTTP API of cutboard serve, as a function from a
 * request to a response: option parsing (query strings and JSON), routing,
 * games, checks and errors. No sockets and no threads here: the HTTP
 * server (libmicrohttpd, src/cli/serve.c) reads requests, calls
 * cb_serve_handle from its worker threads and sends what comes back.
 * Nothing is kept between requests; the themes are loaded once and only
 * read. Internal to cutboard (not in cutboard.h). */
#ifndef CB_SERVE_H
#define CB_SERVE_H

#include <stddef.h>
#include "cutboard.h"

/* Request bodies larger than this are refused (413). */
#define CB_SERVE_MAX_BODY ((size_t)1 << 20)
/* Default per-request node cap (--max-nodes): posters stay a CLI job. */
#define CB_SERVE_MAX_NODES 5000
/* Longest seed accepted (bytes). */
#define CB_SERVE_MAX_SEED 200

typedef enum {
    CB_SERVE_PDF = 0, /* the PDF, as cutboard -o FILE.pdf writes it */
    CB_SERVE_SVG,     /* one sheet as SVG, as cutboard -o FILE.svg writes it */
    CB_SERVE_JSON,    /* the board file, as --json writes it */
    CB_SERVE_PREVIEW  /* for the page: every sheet's SVG in one JSON object */
} cb_serve_format;

/* A game request's options: the CLI's board options that the API takes. */
typedef struct {
    char seed[CB_SERVE_MAX_SEED + 1];
    int has_seed;
    int players;           /* 2..9, default 4 */
    int shared;
    char paper[40];        /* as --paper: a4 (default), letter, 300x200mm... */
    int portrait;
    int ink_friendly;
    char theme[64];        /* a theme's name; "" = the default theme */
    int first_game;
    int rules;             /* CB_RULES_PAGE_*; default LAST as in the CLI */
    cb_serve_format format;
    int sheet;             /* SVG: 1-based sheet; 0 = the first */
} cb_serve_options;

/* What is wrong with a request: the HTTP status, the field at fault ("" when
 * none) and a one-line message. */
/* How an answer's "error" names the field at fault: not at all (the
 * message says what it needs to), as "field: " or, as the command line
 * does, as its option "--field: ". */
typedef enum { CB_SERVE_UNNAMED = 0, CB_SERVE_AS_FIELD, CB_SERVE_AS_OPTION } cb_serve_naming;

typedef struct {
    int status;
    char field[32];
    cb_serve_naming naming;
    char message[256];  /* without the field's name (see NAMING) */
} cb_serve_fault;

void cb_serve_options_defaults(cb_serve_options *o);

/* Parses a query string (the part after '?', LEN bytes, percent-encoded,
 * '+' for space) into O, over what O holds. ONLY_FORMAT: only format and
 * sheet are allowed (a POST's query). 0, or -1 with F filled (400). */
int cb_serve_parse_query(const char *query, size_t len, int only_format, cb_serve_options *o,
                         cb_serve_fault *f);

/* Parses a JSON object of game options (LEN bytes) into O, over what O
 * holds. 0, or -1 with F filled (400). */
int cb_serve_parse_json(const char *body, size_t len, cb_serve_options *o, cb_serve_fault *f);

typedef struct {
    /* Folders to find themes in: each subfolder holding a theme.json is a
     * theme named by the subfolder; a folder that holds theme.json itself is
     * one theme named by its last path component. */
    const char *const *theme_dirs;
    size_t n_theme_dirs;
    const char *default_theme;  /* its name; NULL: "default", else the first */
    const char *font_path;      /* TTF to embed */
    size_t max_nodes;           /* per request, over all sheets; 0 = the default */
    int dated;                  /* as cb_render_options: SOURCE_DATE_EPOCH */
    long long source_date;
} cb_serve_config;

typedef struct cb_serve cb_serve;

/* Loads every theme CFG names. On success *out is new; the caller frees it
 * with cb_serve_free. Errors name the folder or theme at fault. */
cb_status cb_serve_new(const cb_serve_config *cfg, cb_serve **out, cb_error *err);
void cb_serve_free(cb_serve *s);

/* Themes loaded, by name in name order. */
size_t cb_serve_theme_count(const cb_serve *s);
const char *cb_serve_theme_name(const cb_serve *s, size_t k);

typedef struct {
    const char *method;     /* "GET", "POST", ... */
    const char *path;       /* without the query: "/api/game" */
    const char *query;      /* after '?', NULL or "" when none */
    const char *body;
    size_t body_len;
    /* Asked between generation attempts: non-zero ends the request with
     * 503 (the server's per-request time limit). May be NULL. */
    int (*stop)(void *ctx);
    void *stop_ctx;
} cb_serve_request;

typedef struct {
    int status;
    const char *content_type;   /* a static string */
    unsigned char *body;        /* malloc'd unless body_static */
    size_t len;
    int body_static;
    char disposition[320];      /* Content-Disposition, "" for none */
    char seed[3 * CB_SERVE_MAX_SEED + 1]; /* X-Cutboard-Seed (percent-encoded), "" for none */
    const char *allow;          /* Allow (405), NULL for none */
    int retry_after;            /* seconds (503), 0 for none */
} cb_serve_response;

/* Answers REQ into RESP (always filled: errors are JSON responses, out of
 * memory a static one). Free it with cb_serve_response_free. Safe to call
 * from several threads at once. */
void cb_serve_handle(const cb_serve *s, const cb_serve_request *req, cb_serve_response *resp);
void cb_serve_response_free(cb_serve_response *resp);

/* An error response {"error": ..., "page_error": ..., "field": FIELD} with
 * STATUS: "error" is MESSAGE after FIELD named as NAMING says, "page_error"
 * MESSAGE after the label the page's form gives FIELD (or "error" when it
 * has none). */
void cb_serve_error(cb_serve_response *resp, int status, const char *field,
                    cb_serve_naming naming, const char *message);

/* The page (src/serve/page.html, embedded at build time). */
extern const unsigned char cb_serve_page[];
extern const size_t cb_serve_page_len;

#endif
