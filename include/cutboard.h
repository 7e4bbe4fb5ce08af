/*
 * cutboard: printable, cuttable game boards.
 *
 * The library generates boards (nodes, edges, start nodes, centre, decorations)
 * that meet the board contract, and writes them as PDF and JSON. It never
 * prints and never exits: every call that can fail returns a cb_status and
 * fills a cb_error with a one-line message naming what is at fault.
 *
 * Coordinates are millimetres from the top-left corner of the page, y down.
 */
#ifndef CUTBOARD_H
#define CUTBOARD_H

#include <stddef.h>
#include <stdint.h>

#define CB_VERSION "0.1.0"

/* Status codes are the sysexits values the CLI exits with. */
typedef enum {
    CB_OK = 0,
    CB_ERR_USAGE = 64,     /* a bad option or option value */
    CB_ERR_DATA = 65,      /* bad input data: theme, icon, board file */
    CB_ERR_NOINPUT = 66,   /* an input file is missing or unreadable */
    CB_ERR_INTERNAL = 70,  /* out of memory, library failure, no board found */
    CB_ERR_CANTCREAT = 73, /* the output file cannot be created */
    CB_ERR_IO = 74         /* writing the output failed */
} cb_status;

typedef struct {
    cb_status status;
    char message[512];
} cb_error;

/* ---- theme ------------------------------------------------------------ */

typedef struct {
    char *name;
    char *icon;             /* PNG path, resolved against the theme folder */
    double rgb[3];          /* 0..1 */
    double probability;     /* relative weight */
    int min, max;           /* count per board of about 88 nodes */
    double min_edge, max_edge; /* 0 = on the board edge .. 1 = at the centre */
    int on_edge;            /* may sit on the board edge */
    int max_run;            /* largest connected group of this type */
} cb_node_type;

typedef struct {
    char *name;
    char *icon;
    double rgb[3];
} cb_mission;

typedef struct {
    char *name;
    char *dir;
    cb_mission center;      /* how the centre node is drawn */
    cb_node_type *types;
    size_t n_types;
    cb_mission *missions;
    size_t n_missions;
} cb_theme;

/* Loads DIR/theme.json and checks that every icon it names exists.
 * On success *out is a new theme the caller frees with cb_theme_free. */
cb_status cb_theme_load(const char *dir, cb_theme **out, cb_error *err);
void cb_theme_free(cb_theme *theme);

/* ---- boards ----------------------------------------------------------- */

typedef enum { CB_KIND_NODE = 0, CB_KIND_START, CB_KIND_CENTER } cb_kind;
typedef enum {
    CB_SIDE_NONE = -1, CB_SIDE_TOP = 0, CB_SIDE_RIGHT, CB_SIDE_BOTTOM, CB_SIDE_LEFT
} cb_side;

typedef struct {
    double x, y;        /* mm on the page */
    cb_kind kind;
    cb_side side;       /* board edge a start sits on, else CB_SIDE_NONE */
    int type;           /* theme node type, -1 for starts and the centre */
    int mission;        /* theme mission for starts, else -1 */
    int dots;           /* power dots drawn around the node */
    uint32_t first_dot; /* its first position in the board's dot_xy */
} cb_node;

typedef struct { uint32_t a, b; } cb_edge; /* a < b */

typedef struct {
    char *seed;                 /* this sheet's derived seed */
    int player;                 /* 1-based; 0 on a shared board */
    double page_w, page_h;
    double board_x, board_y, board_w, board_h; /* trim rectangle */
    double node_radius;
    uint32_t center;
    cb_node *nodes;
    size_t n_nodes;
    cb_edge *edges;
    size_t n_edges;
    int attempts;               /* candidates generated to find this board */
    double (*dot_xy)[2];        /* power dot centres (mm), node by node; may be NULL */
    size_t n_dot_xy;
} cb_board;

void cb_board_free(cb_board *board);

/* What a game is made of. Fill with cb_spec_defaults, then change fields. */
typedef struct {
    const char *seed;
    int players;            /* 2..9 */
    int shared;             /* one board for the whole table */
    double page_w, page_h;  /* mm, orientation applied */
    double margin;          /* mm between paper edge and trim line */
    double resolution;      /* nodes across the longer side; 0 = default */
    int start_cap;          /* most edges a start node may have */
    int node_cap;           /* most edges any other node may have */
    int max_attempts;       /* candidates per sheet before giving up */
    const cb_theme *theme;  /* may be NULL: no types or missions */
} cb_spec;

void cb_spec_defaults(cb_spec *spec);

/* Checks a spec's values; the message names the option at fault. */
cb_status cb_spec_check(const cb_spec *spec, cb_error *err);

/* Generates one board from SEED, trying derived seeds until one meets the
 * contract. On success *out is a new board the caller frees. */
cb_status cb_board_generate(const cb_spec *spec, const char *seed, int player,
                            cb_board **out, cb_error *err);

typedef struct {
    cb_board **sheets;
    size_t n_sheets;
    char *seed;
    int players;
    int shared;
} cb_game;

/* One board per player (or one shared board). Caller frees with cb_game_free. */
cb_status cb_game_generate(const cb_spec *spec, cb_game **out, cb_error *err);
void cb_game_free(cb_game *game);

/* ---- the contract ----------------------------------------------------- */

typedef struct {
    int connected;
    size_t crossings;        /* pairs of edges that cross */
    size_t grazes;           /* edges that pass through a foreign node */
    size_t overlaps;         /* pairs of nodes closer than 2r + gap */
    int starts;              /* number of start nodes */
    int starts_ok;           /* 3 per side, on the trim line */
    int caps_ok;             /* degree caps respected */
    int neighbours_ok;       /* no adjacent starts, no shared neighbours */
    int hop_min, hop_max;    /* start-to-centre hops */
    int min_disjoint;        /* fewest edge-disjoint start-centre paths */
    int hops[12];            /* per start, in node order */
    int disjoint[12];
    int ok;                  /* every clause holds */
    const char *failure;     /* the first clause that fails ("" when ok) */
} cb_verdict;

/* Checks BOARD against the contract with caps START_CAP and NODE_CAP. */
cb_status cb_board_check(const cb_board *board, int start_cap, int node_cap,
                         cb_verdict *verdict, cb_error *err);

/* Where a node's power dots go: fills up to MAX positions (mm) and returns
 * how many there are. Dots sit in the widest gaps between the node's edges,
 * clear of other nodes, edges, other dots and the trim line. */
int cb_board_dot_positions(const cb_board *board, uint32_t node,
                           double (*xy)[2], int max);

/* Minimum gap between node disks, in mm, that the contract asks for. */
#define CB_NODE_GAP_MM 1.5

/* Paper by name (a4, a5, a3, letter, tabloid, case-insensitive) or as
 * "WxHmm" (e.g. "210x297mm"); sets width >= height (landscape). */
cb_status cb_paper_parse(const char *name, double *w_mm, double *h_mm, cb_error *err);

/* ---- reading boards ------------------------------------------------- */

/* Reads a board file: a cutboard/1 board file (JSON) or a Wavefront OBJ
 * drawing, told apart by content. THEME (may be NULL) resolves type and
 * mission names. On success *out is a new game the caller frees with
 * cb_game_free; errors name the file and line at fault. */
cb_status cb_game_load(const char *path, const cb_theme *theme, cb_game **out,
                       cb_error *err);

/* ---- output ----------------------------------------------------------- */

typedef struct {
    int ink_friendly;       /* white fills, colours only as outlines */
    const char *font_path;  /* TTF to embed */
    /* Print-shop output (all 0 = a plain home-printer page). */
    double bleed;           /* mm of artwork past the trim on every side */
    int crop_marks;         /* trim marks outside the bleed */
    int cmyk;               /* DeviceCMYK only: text and lines 100 % K, icons
                               flattened, no transparency */
    int safe_area;          /* show the safe area inside the trim */
    double sheet_w, sheet_h; /* N-up: boards imposed on sheets this size, mm
                               (0 = one board per page) */
    double gutter;          /* mm between imposed boards */
} cb_render_options;

/* Renders every sheet of GAME as one page each into a PDF held in memory.
 * On success *pdf is a malloc'd buffer of *len bytes the caller frees. */
cb_status cb_pdf_render(const cb_game *game, const cb_theme *theme,
                        const cb_render_options *opt, unsigned char **pdf,
                        size_t *len, cb_error *err);

/* A PDF built game by game, for documents too big to assemble as one
 * cb_game (a deck): begin, add games in page order, end, free. Each icon is
 * embedded once, the first time a page uses it. cb_pdf_end fills a malloc'd
 * buffer the caller frees; the writer is freed by cb_pdf_writer_free (NULL
 * is fine) whether or not the calls succeeded. */
typedef struct cb_pdf_writer cb_pdf_writer;
cb_status cb_pdf_begin(const cb_theme *theme, const cb_render_options *opt,
                       cb_pdf_writer **out, cb_error *err);
cb_status cb_pdf_add_game(cb_pdf_writer *w, const cb_game *game, cb_error *err);
cb_status cb_pdf_end(cb_pdf_writer *w, unsigned char **pdf, size_t *len, cb_error *err);
void cb_pdf_writer_free(cb_pdf_writer *w);

/* Serializes GAME as a board file (format cutboard/1). The caller frees. */
cb_status cb_json_render(const cb_game *game, const cb_theme *theme,
                         char **json, cb_error *err);

/* Writing several files all-or-nothing: stage each (the bytes go to a
 * temporary file next to PATH and are flushed to disk), then commit each
 * (renamed over PATH), or discard them all if any stage failed. A staged file
 * is freed by commit or discard. Devices such as /dev/null are written in
 * place when staged. */
typedef struct cb_staged_file cb_staged_file;
cb_status cb_file_stage(const char *path, const void *data, size_t len,
                        cb_staged_file **out, cb_error *err);
cb_status cb_file_commit(cb_staged_file *f, cb_error *err);
void cb_file_discard(cb_staged_file *f);

/* Writes LEN bytes to PATH through a temporary file in the same folder that
 * is renamed over PATH only when every byte is on disk. */
cb_status cb_file_write_atomic(const char *path, const void *data, size_t len,
                               cb_error *err);

/* ---- board files: parsing in memory, OBJ, contract report ---- */

/* Largest board file cb_game_load and the parsers accept (bytes). */
#define CB_BOARD_FILE_MAX ((size_t)256 << 20)

/* Parses LEN bytes of a cutboard/1 board file (JSON; TEXT need not be
 * NUL-terminated). NAME (may be NULL) is the file named in messages. THEME
 * (may be NULL) resolves type and mission names. On success *out is a new
 * game the caller frees with cb_game_free; on error *out is NULL and err
 * names the file, the line or field ("sheets[0].nodes[5].x_mm") at fault. */
cb_status cb_game_parse_json(const char *text, size_t len, const char *name,
                             const cb_theme *theme, cb_game **out, cb_error *err);

/* Parses LEN bytes of a Wavefront OBJ drawing into a one-sheet game (the
 * convention is in README.md, "Drawing your own board"). Same ownership and
 * errors as cb_game_parse_json; messages name the line ("board.obj:57: ..."). */
cb_status cb_game_parse_obj(const char *text, size_t len, const char *name,
                            const cb_theme *theme, cb_game **out, cb_error *err);

/* Either parser, chosen by content: '{' first is JSON, anything else OBJ. */
cb_status cb_game_parse(const char *text, size_t len, const char *name,
                        const cb_theme *theme, cb_game **out, cb_error *err);

/* Writes sheet SHEET (0-based) of GAME as a Wavefront OBJ drawing that
 * Blender opens and cb_game_parse_obj reads back to the same board. On
 * success *obj is a NUL-terminated malloc'd text the caller frees. */
cb_status cb_obj_render(const cb_game *game, size_t sheet, const cb_theme *theme,
                        char **obj, cb_error *err);

/* Every contract violation of BOARD, one line each, e.g. "edge 12-40
 * crosses edge 3-7 at (81.2, 40.5) mm", "node 5 has 6 edges, cap is 4",
 * "start 3 is 7 hops from the centre, others 5..6" (numbers are node ids;
 * each kind is listed up to 20 times, then counted). The verdict is
 * cb_board_check's: the report is empty exactly when the board meets the
 * contract. On success *report is a malloc'd text of *count lines, each
 * ending in '\n' (empty when all is well), the caller frees. */
cb_status cb_board_diagnose(const cb_board *board, int start_cap, int node_cap,
                            char **report, size_t *count, cb_error *err);

/* ---- robustness: limits and in-memory parsers ------------------------ */

/* Inputs larger than these are refused, before they are read, with a
 * message naming the file (board files: CB_BOARD_FILE_MAX). Icons are also refused when larger than
 * CB_MAX_ICON_SIDE pixels a side, from the PNG header alone. */
#define CB_MAX_THEME_BYTES (1 << 20)      /* theme.json: 1 MiB */
#define CB_MAX_FILE_BYTES (16 << 20)      /* icons and fonts: 16 MiB */
#define CB_MAX_ICON_SIDE 4096

/* Parses theme JSON TEXT (LEN bytes, need not be NUL-terminated) as if read
 * from DIR/theme.json: icon paths are resolved against DIR and, when
 * CHECK_ICONS is non-zero, must be files. On success *out is a new theme the
 * caller frees with cb_theme_free. cb_theme_load reads the file and calls
 * this. */
cb_status cb_theme_parse(const char *text, size_t len, const char *dir, int check_icons,
                         cb_theme **out, cb_error *err);

#endif
