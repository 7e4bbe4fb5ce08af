/*
 * cutboard: printable, cuttable game boards.
 *
 * The library generates boards (nodes, edges, start nodes, centre, decorations)
 * that meet the board contract, and writes them as PDF and JSON. It never
 * prints and never exits: every call that can fail returns a cb_status, the
 * kind of error, and fills a cb_error with the option or input line at fault
 * and a one-line message (see cb_error below).
 *
 * Coordinates are millimetres from the top-left corner of the page, y down.
 */
#ifndef CUTBOARD_H
#define CUTBOARD_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#define CB_VERSION "0.1.0"
#define CB_VERSION_MAJOR 0
#define CB_VERSION_MINOR 1
#define CB_VERSION_PATCH 0
/* One number that grows with every release: 0.1.0 is 100 (10000 * major +
 * 100 * minor + patch), for #if CB_VERSION_NUMBER >= ... */
#define CB_VERSION_NUMBER \
    (CB_VERSION_MAJOR * 10000 + CB_VERSION_MINOR * 100 + CB_VERSION_PATCH)

/* The version of the library linked in ("0.1.0"), which can differ from
 * the CB_VERSION a program was compiled with; *number (may be NULL) gets
 * its CB_VERSION_NUMBER. */
const char *cb_version(int *number);

/* What went wrong: the kind of an error. A caller decides what each kind
 * means to its user (the cutboard program maps them to exit codes, its
 * HTTP server to statuses); the library never exits or prints. */
typedef enum {
    CB_OK = 0,
    CB_ERR_USAGE,       /* a bad option value, or options that do not go
                           together: err->field names the option */
    CB_ERR_DATA,        /* bad input data: a theme, an icon, a board file,
                           a manifest (the message names file and line) */
    CB_ERR_NOINPUT,     /* an input file or folder is missing or unreadable */
    CB_ERR_NOMEM,       /* out of memory */
    CB_ERR_CANTCREAT,   /* an output file cannot be created */
    CB_ERR_IO,          /* writing the output failed */
    CB_ERR_INFEASIBLE,  /* a valid request that cannot be met: no board met
                           the contract within the attempts allowed */
    CB_ERR_STOPPED,     /* the caller's stop or progress callback said stop */
    CB_ERR_INTERNAL     /* a library underneath failed (libharu), or a
                           caller passed no output */
} cb_status;

/* An error as a value: its kind, where it is, and one line saying it. */
typedef struct {
    cb_status status;   /* the kind; CB_OK when nothing failed */
    char field[32];     /* the option at fault as its struct field, in
                           snake_case ("players", "start_cap", "safe_area");
                           "" when the fault is not an option's */
    long line;          /* the input line at fault (1-based); 0 when none */
    char message[512];  /* one line, escaped for a terminal; when FIELD is
                           set it does not repeat the field's name, so show
                           it as "FIELD: MESSAGE" in the caller's terms */
} cb_error;

/* The kind's name in a few words ("bad option", "out of memory"). */
const char *cb_status_name(cb_status status);

/* ---- theme ------------------------------------------------------------ */

/* The game's rules as data (cutboard-theme/3): what a node does when a
 * player uses it, what a mission asks, and how a game ends. The rules page,
 * the legend and the rules engine (cb_playtest_run) all read these. */
typedef enum {
    CB_EFFECT_NONE = 0,
    CB_EFFECT_STEP,         /* move N more edges at once, using those nodes too */
    CB_EFFECT_CROSS,        /* move 1 more edge, along a cut one too, mending it */
    CB_EFFECT_JUMP,         /* to a node N edges away along any printed edges */
    CB_EFFECT_CUT,          /* cut up to N edges in a row from the paper's edge */
    CB_EFFECT_CUT_ANYWHERE, /* cut N edges anywhere */
    CB_EFFECT_GUARD,        /* guard up to N uncut edges touching your node */
    CB_EFFECT_SHIELD,       /* edges touching your node uncuttable until your turn */
    CB_EFFECT_CAMP,         /* where you restart when stranded */
    CB_EFFECT_EXTRA_TURN,   /* another whole turn right after this one */
    CB_EFFECT_KINDS
} cb_effect_kind;

typedef struct {
    cb_effect_kind kind;
    int n;                  /* edges, steps or cuts; 0 where the kind has none */
} cb_effect;

typedef enum {
    CB_GOAL_NONE = 0,
    CB_GOAL_VISIT,          /* mark N nodes */
    CB_GOAL_TYPES,          /* mark nodes of N different types */
    CB_GOAL_SET,            /* mark a node of each of the listed types */
    CB_GOAL_ACTIONS,        /* mark N nodes that cut (or that guard) */
    CB_GOAL_CUT_LOOSE,      /* cut loose N pieces of paper */
    CB_GOAL_KINDS
} cb_goal_kind;

#define CB_GOAL_SET_MAX 16

/* Players per game, so also sheets per game. */
#define CB_PLAYERS_MIN 2
#define CB_PLAYERS_MAX 9

typedef struct {
    cb_goal_kind kind;
    int n;
    int cut_family;         /* CB_GOAL_ACTIONS without types: 1 = nodes that
                               cut, 0 = nodes that guard or shield */
    int types[CB_GOAL_SET_MAX]; /* CB_GOAL_SET, and CB_GOAL_ACTIONS when it
                               names them: theme type indices */
    int n_types;
    int n_listed;           /* the theme gives N as a list by player count: */
    int n_players[CB_PLAYERS_MAX + 1]; /* ...N for 2..9 players (by index) */
    /* An entry of that list may name its own types ({"n": 4, "types": [...]}):
     * the types for that player count (by index; 0 of them: the goal's). */
    int n_types_players[CB_PLAYERS_MAX + 1];
    int types_players[CB_PLAYERS_MAX + 1][CB_GOAL_SET_MAX];
    int plus_hops;          /* VISIT, ACTIONS: N more than the hops from the
                               game's starts to the centre (printed per game) */
} cb_goal;

/* How a game ends: at the first player to mark the summit, or at the end of
 * that round (everyone has had as many turns; ties go to the player with
 * the most marks, then to the one later in turn order). */
typedef enum { CB_END_FIRST = 0, CB_END_ROUND } cb_end_rule;

/* Who wins when the game ends with a player on the summit: those on it
 * (NEVER), or, on a shared board (SHARED) or always (ALWAYS), the players
 * with their mission done first, then the fewest edges from the summit (0
 * on it), as at the round limit. */
typedef enum { CB_MISSION_FIRST_NEVER = 0, CB_MISSION_FIRST_SHARED, CB_MISSION_FIRST_ALWAYS }
    cb_mission_first;

typedef struct {
    cb_end_rule end;
    int round_limit;        /* after this many rounds the game ends anyway */
    int dots_own;           /* power dots a node has on one player's own sheet */
    int calm_rounds;        /* opening rounds in which nobody cuts */
    int rotate;             /* each round begins one seat further round */
    cb_mission_first mission_first; /* when a done mission beats the summit */
} cb_play_rules;

typedef struct {
    char *name;
    char *icon;             /* PNG path, resolved against the theme folder */
    double rgb[3];          /* 0..1 */
    double probability;     /* relative weight */
    int min, max;           /* count per board of about 88 nodes */
    double min_edge, max_edge; /* 0 = on the board edge .. 1 = at the centre */
    int on_edge;            /* may sit on the board edge */
    int max_run;            /* largest connected group of this type */
    /* cutboard-theme/2 (NULL in a version 1 theme): */
    char *action;           /* what the node does: one sentence, <= 90 chars */
    char *short_label;      /* 1-3 words for a sheet's legend strip ("short") */
    char *number_rule;      /* optional printed number: what it means; NULL: none */
    int number_min, number_max; /* its range, when number_rule is set */
    cb_effect effect;       /* /3: what using the node does; NONE before /3 */
} cb_node_type;

typedef struct {
    char *name;
    char *icon;
    double rgb[3];
    char *text;             /* /2: a mission's goal, or the centre's text;
                               NULL in a version 1 theme */
    cb_goal goal;           /* /3: what the mission asks; NONE before /3 */
    cb_goal shared_goal;    /* /3: what it asks on a shared board, when */
    int has_shared_goal;    /* the theme gives that apart ("shared_goal") */
} cb_mission;

/* The sections of a theme's rules, in the order the rules page prints them. */
typedef enum {
    CB_RULES_NEED = 0,      /* what you need */
    CB_RULES_SETUP,
    CB_RULES_TURN,          /* a turn */
    CB_RULES_CUTTING,
    CB_RULES_LOSING,        /* losing paper */
    CB_RULES_WINNING,
    CB_RULES_DOTS,          /* power dots */
    CB_RULES_SECTIONS
} cb_rules_section_id;

typedef struct {
    char *heading;          /* as printed ("Setup") */
    char *shared;           /* the text for one board shared by the table */
    char *own;              /* the text for one sheet per player (may be
                               the same words as SHARED) */
} cb_rules_section;

typedef struct {
    char *title;
    char *summary;          /* one line */
    char *cut_example;      /* caption of the drawn example cut; may be NULL */
    cb_rules_section sections[CB_RULES_SECTIONS];
} cb_rules;

typedef struct {
    char *name;
    char *dir;
    cb_mission center;      /* how the centre node is drawn */
    cb_node_type *types;
    size_t n_types;
    cb_mission *missions;
    size_t n_missions;
    cb_rules *rules;        /* /2 only; NULL for a version 1 theme (no rules) */
    int first_game;         /* mission every start gets for a first game
                               ("first_game"), -1 when the theme names none */
    int version;            /* 1, 2 or 3: the theme file's format; only a /3
                               theme's rules are data the engine can play */
    cb_play_rules play;     /* /3 */
    struct cb_icon_cache *icon_cache; /* internal: the icons made ready to
                               print once for every document of the theme,
                               on any thread; NULL: each document makes its
                               own */
} cb_theme;

/* Loads DIR/theme.json and checks that every icon it names exists.
 * On success *out is a new theme the caller frees with cb_theme_free. */
cb_status cb_theme_load(const char *dir, cb_theme **out, cb_error *err);

/* Keeps the icons THEME's documents embed (decoded, scaled to print and
 * compressed once per process) in folder DIR too, made if missing (NULL
 * or "": memory only, the default), so that later processes read them
 * instead of making them again: files named by a hash of each icon file's
 * bytes, each checked whole when read (one that does not hold is made
 * again and rewritten, never used). The output is the same either way; a
 * folder that cannot be written only costs the speed. CB_ERR_NOMEM
 * when out of memory. */
cb_status cb_theme_cache_dir(cb_theme *theme, const char *dir, cb_error *err);

/* The installed data file or folder REL (e.g. "fonts/DejaVuSans.ttf") in
 * OUT, LEN bytes, found as the cutboard program finds it: in
 * $CUTBOARD_DATA when set; else next to the running program, in the
 * share/cutboard folder beside its bin folder, or in the data folder of the
 * prefix the library was installed under. CB_ERR_NOINPUT names where it
 * looked. */
cb_status cb_data_find(const char *rel, char *out, size_t len, cb_error *err);

/* The folder of THEME in OUT, LEN bytes: a path (with a '/') is a folder
 * as it is; a name is an installed theme (icons/NAME, by cb_data_find), or
 * else a folder of that name in the current folder; NULL or "" is
 * "default". CB_ERR_NOINPUT when there is none. */
cb_status cb_theme_find(const char *theme, char *out, size_t len, cb_error *err);
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
    int number;         /* printed on the node (its type's "number", 1..99);
                           0: none, so a zeroed node has none */
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
    int max_attempts;       /* candidates per sheet before giving up (5 times
                               as many at node_cap 3) */
    const cb_theme *theme;  /* may be NULL: no types or missions */
    int first_game;         /* every start gets the theme's first-game mission
                               (the same boards, one goal for all: a first game) */
    /* Asked before each attempt; when it returns non-zero generation stops
     * with CB_ERR_STOPPED. NULL (the default): never. A
     * server's per-request time limit; the boards made do not depend on it. */
    int (*stop)(void *ctx);
    void *stop_ctx;
} cb_spec;

void cb_spec_defaults(cb_spec *spec);

/* Checks a spec's values; err->field names the one at fault ("players"). */
cb_status cb_spec_check(const cb_spec *spec, cb_error *err);

/* About how many nodes a game of SPEC has over all its sheets (the count
 * the spacing and paper aim at; boards come out within a few per cent):
 * for refusing work before it starts. 0 when the paper is smaller than the
 * margins. */
size_t cb_spec_nodes(const cb_spec *spec);

/* Generates one board from SEED, trying derived seeds until one meets the
 * contract (CB_ERR_INFEASIBLE when none does in the attempts allowed). On
 * success *out is a new board the caller frees. */
cb_status cb_board_generate(const cb_spec *spec, const char *seed, int player,
                            cb_board **out, cb_error *err);

typedef struct {
    cb_board **sheets;
    size_t n_sheets;
    char *seed;
    int players;
    int shared;
} cb_game;

/* One board per player (or one shared board). The first sheet sets the
 * game's hop band and shortest-cut band; every later sheet is made to fit
 * them. Caller frees with cb_game_free. */
cb_status cb_game_generate(const cb_spec *spec, cb_game **out, cb_error *err);
void cb_game_free(cb_game *game);

/* ---- the contract ----------------------------------------------------- */

/* The contract's starts: 3 on each side of the board. */
#define CB_VERDICT_STARTS 12

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
    int min_disjoint;        /* fewest edge-disjoint start-centre paths (a
                                start past the 12th is counted up to 2) */
    int hops[CB_VERDICT_STARTS]; /* per start, in node order */
    int disjoint[CB_VERDICT_STARTS];
    int ok;                  /* every clause holds */
    const char *failure;     /* the first clause that fails ("" when ok) */
    /* The board as pieces of paper (see the planar section below). */
    size_t faces;            /* pieces of paper + the outside */
    double largest_piece;    /* mm^2 */
    /* Scissors: on a board with power dots (node radius >= 3.2 mm; posters
     * finer than that are figures only), every piece >= 120 mm^2, every edge
     * visible >= 3 mm between its nodes' rims, every dot's outline >= 1 mm of
     * paper from an edge's or the trim line's stroke. */
    double smallest_piece;   /* mm^2 */
    double shortest_visible; /* mm of an edge between its nodes' shapes */
    double dot_paper;        /* least paper between a dot and a printed line, mm */
    int cuttable;            /* the scissors clauses hold (or do not apply) */
    int planar;              /* inside its trim, V - E + F = 1 + C and the
                                pieces tile the trim rectangle */
    /* Power dots, when the board has them placed (dot_xy). */
    size_t dots;             /* dots checked */
    double dot_diameter;     /* mm */
    double dot_margin;       /* smallest (gap to another node) - (gap to its own), mm */
    int dots_ok;             /* each touches its node, clear of edges, dots and
                                the trim line, at least 1 mm nearer its own node */
    const char *dot_failure; /* the first dot rule broken ("" when dots_ok) */
} cb_verdict;

/* Checks BOARD against the contract with caps START_CAP and NODE_CAP. */
cb_status cb_board_check(const cb_board *board, int start_cap, int node_cap,
                         cb_verdict *verdict, cb_error *err);

/* Where a node's power dots go: fills up to MAX centres (mm) and returns
 * how many there are. A dot is a circle 0.35 node radii (at least 1.5 mm)
 * in radius that touches its node's rim from outside, in a wide gap
 * between the node's edges, clear of edges, other dots and the trim line
 * and nearer its own node than any other by at least 1 mm. */
int cb_board_dot_positions(const cb_board *board, uint32_t node,
                           double (*xy)[2], int max);

/* Minimum gap between node disks, in mm, that the contract asks for. */
#define CB_NODE_GAP_MM 1.5
/* The most nodes a board read from a file may have in one square as wide
 * as two node disks and their gap (a drawable board has at most 4): denser
 * boards are refused as they are read, so checking one stays linear. */
#define CB_BOARD_CELL_MAX 64

/* Paper by name (a4, a5, a3, letter, tabloid, case-insensitive) or as
 * "WxHmm" (e.g. "210x297mm"), also in in or pt: cb_size_parse for the field
 * "paper"; sets width >= height (landscape). */
cb_status cb_paper_parse(const char *name, double *w_mm, double *h_mm, cb_error *err);
/* The last step of filling a spec, the same for every caller (the CLI's
 * board options, its decks, the server's form): SPEC's page from the paper
 * NAME (cb_paper_parse), turned to portrait when PORTRAIT, then
 * cb_spec_check. Its errors are theirs. */
cb_status cb_spec_set_paper(cb_spec *spec, const char *name, int portrait, cb_error *err);

/* ---- reading boards ------------------------------------------------- */

/* Reads a board file: a cutboard/1 board file (JSON) or a Wavefront OBJ
 * drawing, told apart by content. THEME (may be NULL) resolves type and
 * mission names. On success *out is a new game the caller frees with
 * cb_game_free; errors name the file and line at fault. */
cb_status cb_game_load(const char *path, const cb_theme *theme, cb_game **out,
                       cb_error *err);
/* The same from an open stream F (standard input, say), NAME naming it in
 * messages; F is read to its end and not closed. A board file is read as
 * it streams by, in a 256 KiB window (a pipe too); an OBJ drawing whole. */
cb_status cb_game_read(FILE *f, const char *name, const cb_theme *theme, cb_game **out,
                       cb_error *err);

/* ---- output ----------------------------------------------------------- */

typedef struct {
    int ink_friendly;       /* white fills, black outlines */
    const char *font_path;  /* TTF to embed */
    /* Print-shop output (all 0 = a plain home-printer page). */
    double bleed;           /* mm of artwork past the trim on every side */
    int crop_marks;         /* trim marks outside the bleed */
    int cmyk;               /* DeviceCMYK only: text and lines 100 % K, icons
                               flattened, no transparency */
    double safe_area;       /* mm inside the paper edge that nodes, icons and
                               the label keep clear of; a board that comes
                               closer is an error (0 = not checked) */
    double sheet_w, sheet_h; /* N-up: boards imposed on sheets this size, mm
                               (0 = one board per page) */
    double gutter;          /* mm between imposed boards' trims; < 0 = the
                               default, 6 mm or twice the bleed if more */
    /* Reproducible dates: when DATED is set, CreationDate and ModDate are
     * SOURCE_DATE seconds after 1970-01-01 UTC (what $SOURCE_DATE_EPOCH
     * says, see cb_source_date_parse); otherwise the file has no date. */
    int dated;
    long long source_date;
    /* The rules and legend page cb_pdf_render adds (cb_pdf_add_rules):
     * CB_RULES_PAGE_NONE (0, the default), _LAST or _FIRST. A theme is
     * needed; a version 1 theme gets a legend page that says it has no
     * rules. */
    int rules;
} cb_render_options;

enum { CB_RULES_PAGE_NONE = 0, CB_RULES_PAGE_LAST, CB_RULES_PAGE_FIRST };

/* Reads a SOURCE_DATE_EPOCH value: a plain count of seconds up to
 * 9999-12-31 (reproducible-builds.org asks tools to fail on anything
 * else), naming SOURCE_DATE_EPOCH in the error. */
cb_status cb_source_date_parse(const char *text, long long *seconds, cb_error *err);

/* Renders every sheet of GAME as one page each (or imposed several to a
 * page when OPT asks for N-up sheets) into a PDF held in memory.
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
/* A writer whose pages go to the file open for writing at FD as they are
 * made (NAME names it in errors), so memory does not grow with the pages;
 * cb_pdf_end then writes the rest (the font, the page tree, the
 * cross-reference table) and gives *pdf NULL and *len 0. The same bytes
 * as cb_pdf_begin's writer, which writes them into memory. */
cb_status cb_pdf_begin_file(const cb_theme *theme, const cb_render_options *opt, int fd,
                            const char *name, cb_pdf_writer **out, cb_error *err);
/* Adds the rules and legend page (more pages only when small paper cannot
 * hold it at 9 pt) on a page of its own, on the board paper of GAME: the
 * theme's rules for GAME's mode (shared board or one sheet each), a legend
 * of the node types on GAME's boards, every mission, the centre, the power
 * dots and an example cut. GAME NULL: the node types of every game added
 * since the last rules page, the mode and paper of the last game added.
 * CB_ERR_USAGE without a theme. */
cb_status cb_pdf_add_rules(cb_pdf_writer *w, const cb_game *game, cb_error *err);
void cb_pdf_writer_free(cb_pdf_writer *w);

/* A game's pages drawn and compressed away from the document, so several
 * threads can draw while one assembles: cb_pdf_prepare reads W only (safe
 * on any thread while another adds pages to W) and sets *prepared, or
 * leaves it NULL where pages can't be drawn alone (N-up: a sheet holds
 * boards of several games); *scratch (NULL at first) is the calling
 * thread's drawing state, kept between calls, freed by
 * cb_pdf_scratch_free. cb_pdf_add_prepared adds the game as
 * cb_pdf_add_game does (PREPARED NULL: it draws the game itself), the
 * same bytes either way; the caller still frees PREPARED with
 * cb_pdf_prepared_free. */
typedef struct cb_pdf_prepared cb_pdf_prepared;
typedef struct cb_pdf_scratch cb_pdf_scratch;
cb_status cb_pdf_prepare(const cb_pdf_writer *w, cb_pdf_scratch **scratch, const cb_game *game,
                         cb_pdf_prepared **prepared, cb_error *err);
cb_status cb_pdf_add_prepared(cb_pdf_writer *w, const cb_game *game, cb_pdf_prepared *prepared,
                              cb_error *err);
void cb_pdf_prepared_free(cb_pdf_prepared *prepared);
void cb_pdf_scratch_free(cb_pdf_scratch *scratch);

/* The PDF page (1-based) sheet SHEET of the game last added landed on
 * (several sheets share a page with N-up imposition); 0 if no such sheet. */
size_t cb_pdf_sheet_page(const cb_pdf_writer *w, size_t sheet);

/* Pages in the document so far. */
size_t cb_pdf_page_count(const cb_pdf_writer *w);

/* Renders sheet SHEET (0-based) of GAME as a standalone SVG document: the
 * same drawing as its PDF page, in millimetres (width/height in mm, viewBox
 * units mm, y down), each icon embedded once as a <symbol>, the label as
 * text (measured with OPT's font, named by its font-family). A bleed in
 * OPT widens the picture and tints the margin as in the PDF; CMYK, crop
 * marks and N-up sheets are PDF only (CB_ERR_USAGE). Nodes, starts, the
 * centre and edges carry the board's ids (data-id, data-from/data-to).
 * On success *svg is a malloc'd NUL-terminated text of *len bytes the
 * caller frees. */
cb_status cb_svg_render(const cb_game *game, size_t sheet, const cb_theme *theme,
                        const cb_render_options *opt, char **svg, size_t *len,
                        cb_error *err);

/* Serializes GAME as a board file (format cutboard/1). The caller frees. */
cb_status cb_json_render(const cb_game *game, const cb_theme *theme,
                         char **json, cb_error *err);

/* Where output written piece by piece goes: called with each piece in
 * order; returns 0, or an errno value that stops the writer. */
typedef int (*cb_write_fn)(void *ctx, const void *data, size_t len);

/* The same bytes as cb_json_render, handed to WRITE in pieces of up to
 * 64 KiB as they are made, so no copy of the whole text is held (a poster's
 * board file is hundreds of MB). CB_ERR_IO when WRITE fails (the message
 * gives its errno), CB_ERR_NOMEM when out of memory; WRITE may have had
 * part of the file by then. */
cb_status cb_json_write(const cb_game *game, const cb_theme *theme, cb_write_fn write,
                        void *ctx, cb_error *err);

/* Writing several files all-or-nothing: stage each (the bytes go to a
 * temporary file next to PATH and are flushed to disk), then commit each
 * (renamed over PATH), or discard them all if any stage failed. A staged file
 * is freed by commit or discard. Devices such as /dev/null are written in
 * place when staged. */
typedef struct cb_staged_file cb_staged_file;
cb_status cb_file_stage(const char *path, const void *data, size_t len,
                        cb_staged_file **out, cb_error *err);
/* A staged file written as it is made: cb_file_stage_open gives one whose
 * descriptor (cb_file_fd) takes the bytes; cb_file_stage_end flushes them
 * to disk (FAILED: an errno value of a write that failed, 0 if none), after
 * which it is a staged file like cb_file_stage's. Until committed nothing
 * is visible under PATH, even if the process is killed. */
cb_status cb_file_stage_open(const char *path, cb_staged_file **out, cb_error *err);
int cb_file_fd(const cb_staged_file *f);
/* Writes LEN bytes of DATA to F's descriptor, all of them: 0, or the errno
 * value of the write that failed (for cb_file_stage_end). */
int cb_file_append(cb_staged_file *f, const void *data, size_t len);
cb_status cb_file_stage_end(cb_staged_file *f, int failed, cb_error *err);
/* Gives a staged file its temporary name and closes it: what can fail
 * before the rename, so several files can all be readied before any of
 * them replaces its target. cb_file_commit does it when not done. */
cb_status cb_file_ready(cb_staged_file *f, cb_error *err);
cb_status cb_file_commit(cb_staged_file *f, cb_error *err);
/* Commits FILES[0..n-1] (NULL entries skipped) all or none: each takes its
 * target's place while the old target is kept under a hidden name; if any
 * cannot, those already in place are put back, so every target is as it
 * was. A journal written first into each target's folder lets the next
 * run finish the work of one killed half way (cb_file_recover), which this
 * call does first for its own folders. Frees every file, committed or not. */
cb_status cb_file_commit_all(cb_staged_file *const *files, size_t n, cb_error *err);
/* Clears what runs killed while writing into FOLDER left there (their
 * processes gone, on this host): a commit cut short is rolled back to the
 * old files, or forward to the new ones once every new file was in place;
 * then their hidden files (".cutboard-*") are removed. Files of runs still
 * alive, or made on another host or in another pid namespace, are not
 * touched. CB_ERR_IO when something could not be undone
 * (it is tried again next time); a missing FOLDER is CB_OK. */
cb_status cb_file_recover(const char *folder, cb_error *err);
void cb_file_discard(cb_staged_file *f);

/* cb_file_stage for output made piece by piece: PRODUCE is called once with
 * a write function (and its context) that puts the bytes into the staged
 * file. A status PRODUCE returns, or a failed write, discards the file;
 * a failed write is reported as CB_ERR_IO naming PATH. */
typedef cb_status (*cb_produce_fn)(void *arg, cb_write_fn write, void *ctx, cb_error *err);
cb_status cb_file_stage_stream(const char *path, cb_produce_fn produce, void *arg,
                               cb_staged_file **out, cb_error *err);

/* Writes LEN bytes to PATH through a temporary file in the same folder that
 * is renamed over PATH only when every byte is on disk. */
cb_status cb_file_write_atomic(const char *path, const void *data, size_t len,
                               cb_error *err);

/* ---- planar structure: pieces of paper, shortest cuts, cut simulation -- */

/* A board is a planar drawing: its printed edges plus the border of the trim
 * rectangle. Its faces are the pieces of paper the printed edges and the
 * border enclose, plus the outside (V - E + F = 1 + C; see src/planar/halfedge.h).
 * A cut runs along printed edges and must start at the paper border or at an
 * earlier cut; a piece of paper no longer joined (across uncut edges) to the
 * piece that holds the centre falls off. cb_board_check reports the faces,
 * the largest piece and planarity in its verdict. */

/* The shortest cut of every start, in node order: the fewest printed edges
 * whose cutting (from the border) leaves no piece touching the start joined
 * to a piece touching the centre; -1 when no cut can do it, and for every
 * start past the CB_VERDICT_STARTS-th (a board has 12: more are not
 * measured, so a hostile file costs no flow per node). On success *cuts is
 * a malloc'd array of *n_starts values the caller frees. */
cb_status cb_board_shortest_cuts(const cb_board *board, int **cuts, size_t *n_starts,
                                 cb_error *err);

/* One cut: a chain of node ids, each pair joined by a printed edge. */
typedef struct {
    const uint32_t *nodes;
    size_t n;
} cb_cut_path;

typedef struct {
    uint32_t *nodes;        /* the nodes it touches (input ids), ascending */
    size_t n_nodes;
    double area;            /* mm^2 */
} cb_piece;

typedef struct {
    cb_piece *fallen;       /* pieces that fell off, by their smallest node */
    size_t n_fallen;
    uint32_t *lost;         /* nodes left without paper (every piece they touch
                               fell off), ascending */
    size_t n_lost;
    double remaining_area;  /* mm^2 of the piece that holds the centre */
    cb_board *remaining;    /* the board left: lost nodes and the edges with no
                               paper left beside them removed, ids renumbered
                               in order */
    uint32_t *new_id;       /* per input node: its id in remaining, or
                               UINT32_MAX when lost */
} cb_cut_result;

/* Cuts BOARD along PATHS in order. Each path's first node must be on the
 * paper border or on an earlier path; a path that does not follow printed
 * edges is CB_ERR_USAGE naming the pair. If a cut passes through the centre
 * node, the largest piece touching it stays. On success *out is a new result
 * the caller frees with cb_cut_result_free (NULL is fine). */
cb_status cb_board_cut(const cb_board *board, const cb_cut_path *paths, size_t n_paths,
                       cb_cut_result **out, cb_error *err);
void cb_cut_result_free(cb_cut_result *r);

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

/* ---- print-shop pages ------------------------------------------------- */

/* A length for the option FIELD ("bleed"): "3mm", "0.125in", "9pt" or a
 * bare number of mm. *mm gets millimetres; a bad or negative value is
 * CB_ERR_USAGE with err->field FIELD. */
cb_status cb_length_parse(const char *field, const char *text, double *mm, cb_error *err);

/* A paper size for the option FIELD ("sheet"): a name as for cb_paper_parse (plus sra4,
 * sra3, sra2) or "WxH" in mm, in or pt ("300x200mm", "8.5x11in"); each side
 * 10..5080 mm. Sets width >= height. Errors (CB_ERR_USAGE) have err->field FIELD. */
cb_status cb_size_parse(const char *field, const char *text, double *w_mm, double *h_mm,
                        cb_error *err);

/* Where boards go on a PDF page, in mm from the page's top-left corner. */
typedef struct {
    double page_w, page_h;   /* the page: MediaBox */
    double trim[4];          /* TrimBox as x, y, w, h: the board's paper, or
                                the block of all boards on an N-up sheet */
    double bleed[4];         /* BleedBox: the trim grown by the bleed */
    int cols, rows;          /* boards per page: 1 x 1 without N-up */
    int rotated;             /* boards turned a quarter turn on the sheet */
    double cell_w, cell_h;   /* one board's paper as placed on the page */
    double gutter;           /* between neighbouring boards' trims */
    double mark_offset;      /* crop marks: trim to mark, and mark length */
    double mark_length;      /*   (both 0 without crop marks) */
} cb_page_layout;

/* Lays out boards whose paper is BOARD_W x BOARD_H mm on pages per OPT
 * (bleed, crop marks, N-up sheet and gutter; the rotation that fits most
 * boards wins). CB_ERR_USAGE naming the option when a value is out of range
 * or a board does not fit on the sheet. */
cb_status cb_page_layout_make(double board_w, double board_h, const cb_render_options *opt,
                              cb_page_layout *out, cb_error *err);

/* The top-left corner (mm) of board slot K (0 .. cols * rows - 1, row by
 * row from the top left) of LAYOUT. */
void cb_page_layout_cell(const cb_page_layout *layout, int k, double *x, double *y);
/* ---- decks ------------------------------------------------------------ */

/* A deck: games k = start .. start+count-1 made from one master seed, for
 * print shops. Game k is cb_game_generate with the game seed
 * cb_deck_game_seed(master, k, r): "<master>#<k>" for its first candidate
 * (r = 0) and "<master>#<k>~<r>" for the r-th retry, so each sheet prints a
 * seed ("<master>#<k>/<player>") that makes it again.
 *
 * A candidate game is kept when (curation, a function of k alone):
 *   - no two of its sheets are the same board (cb_board_canonical_hash);
 *   - every mission starts on floor(S/M) or ceil(S/M) of its S start nodes
 *     (M missions), so each slice of the deck deals missions evenly;
 *   - every node type's share of its regular nodes is within
 *     type_tolerance of the type's target share (its weight / all weights).
 * and (uniqueness, checked in index order within one run) none of its
 * sheets is the same board as a sheet of an earlier game of the run. A
 * rejected candidate is replaced by the next retry. Curation retries depend
 * on k only, so any slice gives the same games as the full deck; a game
 * regenerated as a duplicate of an earlier game of the same run (only
 * possible when two seeds make one board) is recorded in its entry, and a
 * slice that does not hold the earlier game keeps the first candidate. */

typedef struct {
    size_t start, count;    /* games start .. start+count-1 */
    int jobs;               /* generator threads, 1..64 */
    double type_tolerance;  /* allowed |share - target| per node type, 0..1
                               (>= 1: no type check) */
    int max_tries;          /* candidate games per index before failing */
    /* Sharding, both 0 in a one-run deck: with shards = N (1..count) the
     * deck makes slice SHARD (0 .. N-1) of games start .. start+count-1
     * (cb_deck_shard_slice) and its summary line says which, for
     * cb_deck_merge. Uniqueness is then checked within the slice only. */
    size_t shard, shards;
    /* Work on each kept game done by the generator threads too (NULL: none),
     * e.g. drawing its pages (cb_pdf_prepare): PREPARE sets *out for game
     * K, with *scratch the calling thread's own state (NULL at first);
     * FREE_PREPARED and FREE_SCRATCH free them. An error fails that game. */
    cb_status (*prepare)(void *work_ctx, void **scratch, size_t k, const cb_game *g, void **out,
                         cb_error *err);
    void (*free_prepared)(void *work_ctx, void *prepared);
    void (*free_scratch)(void *work_ctx, void *scratch);
    void *work_ctx;
    /* Games played on each candidate by noisy greedy agents (0: none, the
     * default); a candidate where a seat surely wins less than half or more
     * than twice its share (1/players; its 95 % interval wholly outside) is
     * rejected, as are games of 2-4 players whose median length falls
     * outside 8-20 rounds. The theme must be cutboard-theme/3. */
    int playtest;
} cb_deck_options;

/* Defaults: start 0, count 1, 1 job, type_tolerance 0.08, max_tries 100. */
void cb_deck_options_defaults(cb_deck_options *o);

/* The work hooks that draw and compress each game's PDF pages on the
 * deck's threads: set prepare, free_prepared and free_scratch to these and
 * work_ctx to the cb_pdf_writer the pages go to; cb_pdf_add_prepared then
 * adds entry.prepared (cb_pdf_prepare does the work). */
cb_status cb_deck_pdf_prepare(void *writer, void **scratch, size_t k, const cb_game *game,
                              void **prepared, cb_error *err);
void cb_deck_pdf_free_prepared(void *writer, void *prepared);
void cb_deck_pdf_free_scratch(void *writer, void *scratch);

/* Writes the seed of game K's candidate R into OUT; returns its length
 * (as snprintf does). */
int cb_deck_game_seed(const char *master, size_t k, int r, char *out, size_t len);

/* A 64-bit hash of a board's drawing (node positions quantized to 0.01 mm
 * from the trim rectangle's centre, node kinds, edges) that is the same for
 * the board's mirror images and rotations: the 4 symmetries of a rectangular
 * trim, the 8 of a square one. */
uint64_t cb_board_canonical_hash(const cb_board *b);

/* One kept game, in index order. Its pointers stay valid until the next
 * cb_deck_next or cb_deck_free. */
typedef struct {
    size_t index;           /* k */
    const cb_game *game;    /* its sheets, ready to render */
    const char *seed;       /* the game seed that made it */
    int tries;              /* candidate games tried (1 = the first kept) */
    int rejected_duplicate, rejected_missions, rejected_types, rejected_playtest;
    long duplicate_of;      /* earlier game a candidate repeated, or -1 */
    /* options.playtest: its games' figures (all 0 without) */
    double playtest_seat_wins[CB_PLAYERS_MAX]; /* a shared win counts 1/k */
    int playtest_rounds;    /* median */
    const uint64_t *hashes; /* canonical hash per sheet */
    uint64_t hash;          /* the game's hash, from its sheets' hashes */
    size_t nodes, edges;    /* over its sheets */
    int hop_spread;         /* largest start-to-centre hop spread of a sheet */
    int attempts;           /* generator attempts over its sheets */
    void *prepared;         /* what options.prepare made of it, or NULL */
} cb_deck_entry;

typedef struct cb_deck cb_deck;

/* Checks SPEC and OPT and starts OPT->jobs generator threads working ahead
 * of the caller. On success *out is a deck the caller frees with
 * cb_deck_free. SPEC and its theme must outlive the deck. */
cb_status cb_deck_new(const cb_spec *spec, const cb_deck_options *opt, cb_deck **out,
                      cb_error *err);

/* The next game in index order into *entry: CB_OK, or an error
 * (CB_ERR_INFEASIBLE: no candidate passed in max_tries; out of memory).
 * After the last game it returns CB_OK with entry->game NULL. */
cb_status cb_deck_next(cb_deck *d, cb_deck_entry *entry, cb_error *err);

/* The manifest line (JSON, no newline) of ENTRY: index, seed, file, first
 * page, pages, nodes, edges, hop spread, attempts, tries, rejections, hash
 * and its sheets. The caller frees *line. */
cb_status cb_deck_manifest_line(const cb_deck *d, const cb_deck_entry *entry,
                                const char *file, const size_t *sheet_pages, char **line,
                                cb_error *err);

/* The manifest's summary line for the games returned so far: counts, yield
 * (candidates tried against kept), rejections by reason, mission and node
 * type shares against their targets; INTERRUPTED marks a run stopped early.
 * The caller frees *line. */
cb_status cb_deck_summary_line(const cb_deck *d, int interrupted, char **line,
                               cb_error *err);

/* The largest relative deviation of a mission's share of the start nodes
 * (over the games returned so far) from its target 1/M: 0.05 = 5 %. */
double cb_deck_mission_deviation(const cb_deck *d);

/* Stops the threads and frees the deck; NULL is fine. */
void cb_deck_free(cb_deck *d);

/* ---- decks to files (src/deck/deck_write.c) ---- */

/* The rules and legend page of a deck: after every game; once, at the end
 * of the one PDF (its legend every node type of the deck) or in the first
 * game's file of a folder; or none. */
typedef enum { CB_DECK_RULES_ONCE, CB_DECK_RULES_EACH, CB_DECK_RULES_NONE } cb_deck_rules;

/* Where a deck goes: one PDF with every game in index order (OUTPUT) or
 * one PDF per game (OUT_DIR/game-00042.pdf, cb_deck_game_path; the folder
 * must exist), and a manifest (cb_deck_manifest_line per game, then
 * cb_deck_summary_line) or NULL. OUTPUT and MANIFEST are the names the
 * manifest records; with PDF_IN_MEMORY or MANIFEST_IN_MEMORY that output
 * comes back in memory instead of staged at its name. */
typedef struct {
    const char *output, *out_dir, *manifest;
    int pdf_in_memory, manifest_in_memory;
    cb_deck_rules rules;
    const cb_theme *theme;
    const cb_render_options *render;
    /* Both may be NULL. PROGRESS after each game (DONE of TOTAL);
     * SHOULD_STOP before the first game, after each and after the last:
     * nonzero stops the deck there, as SIGINT does (no one PDF; the games
     * of a folder made so far and a manifest saying "interrupted"). */
    void (*progress)(void *ctx, size_t done, size_t total);
    int (*should_stop)(void *ctx);
    void *ctx;
} cb_deck_files;

/* What cb_deck_stage made, nothing of it visible yet: the games' files of
 * a folder, the one PDF's staged file or its bytes in memory, the
 * manifest's staged file or its text in memory (each NULL when not made). */
typedef struct {
    cb_staged_file **games;
    size_t n_games;
    cb_staged_file *pdf_file, *manifest_file;
    unsigned char *pdf;
    size_t pdf_len;
    char *manifest;
    size_t manifest_len;
    size_t done, total;     /* games made, of this run's */
    size_t pages;           /* pages of the one PDF (a folder: its games) */
    int stopped;            /* should_stop said stop */
} cb_deck_staged;

/* Makes the deck SPEC and OPT describe (OPT's work hooks are replaced by
 * the drawing of its pages) and stages its files as FILES says into *OUT,
 * for the caller to commit together (cb_file_commit_all) or free. On error
 * nothing is left staged (out->done says how far it got). */
cb_status cb_deck_stage(const cb_spec *spec, const cb_deck_options *opt,
                        const cb_deck_files *files, cb_deck_staged *out, cb_error *err);
/* cb_deck_stage, then every staged file committed together; *OUT keeps
 * the figures and the outputs in memory. */
cb_status cb_deck_write(const cb_spec *spec, const cb_deck_options *opt,
                        const cb_deck_files *files, cb_deck_staged *out, cb_error *err);
/* Discards what was not committed and frees the rest; NULL is fine. */
void cb_deck_staged_free(cb_deck_staged *s);
/* DIR's file for game K into PATH (LEN bytes): DIR/game-00042.pdf. */
void cb_deck_game_path(const char *dir, size_t k, char *path, size_t len);

/* ---- deck shards and their merge (src/deck/deck_merge.c) ---- */

/* Slice K (0-based) of N of the COUNT games from START: contiguous, the
 * first COUNT % N slices one game longer than the others, so slices 0 .. N-1
 * in order are the whole range in index order. *len is 0 when K >= COUNT. */
void cb_deck_shard_slice(size_t start, size_t count, size_t k, size_t n, size_t *first,
                         size_t *len);

/* Merges deck manifests (cb_deck_manifest_line and cb_deck_summary_line as
 * JSON lines, the summary last), e.g. one per shard, into one: every game
 * line as it was (bytes unchanged) in index order, then one summary line
 * recomputed from the game lines and the summaries' counts, as a one-run
 * deck of the whole range writes it. CB_ERR_DATA, the message naming
 * "file:line", for: a line that is not what a deck writes (game seeds as
 * cb_deck_game_seed makes them); an
 * interrupted deck; different master seeds, type tolerances, missions, node
 * types, shard sets or sheets a game; games missing or given twice; and a
 * sheet hash in two games (both games, their lines and the hash). After an
 * error the merge can only be freed. */
typedef struct cb_deck_merge cb_deck_merge;
cb_status cb_deck_merge_new(cb_deck_merge **out, cb_error *err);
/* Adds the manifest NAME (used in messages): TEXT, LEN bytes, malloc'd;
 * the merge owns TEXT from the call on (even on error) and frees it. */
cb_status cb_deck_merge_add(cb_deck_merge *m, const char *name, char *text, size_t len,
                            cb_error *err);
/* Reads the manifest file PATH and adds it: CB_ERR_NOINPUT when it cannot
 * be read. */
cb_status cb_deck_merge_add_file(cb_deck_merge *m, const char *path, cb_error *err);
/* The merged manifest in *out (malloc'd, *len bytes, NUL-terminated). */
cb_status cb_deck_merge_end(cb_deck_merge *m, char **out, size_t *len, cb_error *err);
void cb_deck_merge_free(cb_deck_merge *m);

/* ---- networks ----------------------------------------------------------- */

/* Encounter maps from classic network models (see README, Encounter maps). */
typedef enum {
    CB_NET_LINEAR = 0,  /* path 0-1-...-(n-1) */
    CB_NET_RING,        /* ring lattice: each node linked to its k nearest on a circle */
    CB_NET_REGULAR,     /* random simple k-regular graph */
    CB_NET_COMPLETE,    /* every pair linked */
    CB_NET_RANDOM,      /* Erdos-Renyi G(n, m) or G(n, p) */
    CB_NET_ANCHORED,    /* random spanning tree plus random links: connected */
    CB_NET_SMALL_WORLD, /* Watts-Strogatz */
    CB_NET_SCALE_FREE   /* Barabasi-Albert */
} cb_net_model;

#define CB_NET_MODELS 8
#define CB_NET_MAX_NODES 1000000    /* any model */
#define CB_NET_MAX_COMPLETE 2000    /* complete graphs */
#define CB_NET_MAX_LINKS 5000000    /* links in any network; 50 M took > 4 GB
                                       and > 60 s (issue 7) */

/* What to build. Fill with cb_net_spec_defaults, then change fields;
 * a parameter left at -1 takes the model's default. */
typedef struct {
    cb_net_model model;
    const char *seed;   /* any text */
    long n;             /* nodes */
    long k;             /* neighbours per node: ring, regular, small-world */
    double p;           /* probability: random G(n,p), anchored, small-world */
    long m;             /* links per new node: scale-free */
    long links;         /* total links: random G(n,m), anchored */
    int geometric;      /* build on a Delaunay triangulation of placed points */
    double width, height; /* box the geometric points are placed in (any unit) */
} cb_net_spec;

typedef struct {
    cb_net_model model;
    size_t n, n_edges;
    cb_edge *edges;     /* sorted by (a, b), a < b, no duplicates */
    double *xy;         /* 2n positions in the spec's box (geometric only), else NULL */
    long k, m, links;   /* parameters as used (-1 when the model has none) */
    double p;           /* -1 when the model has none */
} cb_network;

void cb_net_spec_defaults(cb_net_spec *spec);
/* The model's name ("small-world", ...) and back; -1 for an unknown name. */
const char *cb_net_model_name(cb_net_model model);
int cb_net_model_parse(const char *name);

/* Checks SPEC; CB_ERR_USAGE with err->field the parameter at fault ("nodes",
 * "k", "p", "m", "links", "model"). */
cb_status cb_net_spec_check(const cb_net_spec *spec, cb_error *err);

/* Builds the network SPEC describes, deterministically from spec->seed.
 * On success *out is a new network the caller frees with cb_network_free. */
cb_status cb_network_build(const cb_net_spec *spec, cb_network **out, cb_error *err);
void cb_network_free(cb_network *net);

/* The analysis. A node's eccentricity is measured inside its own connected
 * component; radius, diameter, centre and average path length are those of
 * the largest component (ties: the one holding the smallest node id), as
 * NetworkX gives them for that component. Distances are computed only when
 * n * (n + links) <= CB_NET_MAX_BFS_WORK (has_distances says whether). */
#define CB_NET_MAX_BFS_WORK 400000000.0
typedef struct {
    size_t n, n_edges;
    size_t *degree_hist;        /* max_degree + 1 counts */
    size_t min_degree, max_degree;
    double mean_degree;
    size_t components, largest; /* number of components, size of the largest */
    int has_distances;
    long *eccentricity;         /* n entries, or NULL without distances */
    long radius, diameter;      /* -1 without distances */
    uint32_t *center;           /* nodes of least eccentricity, ascending */
    size_t n_center;
    uint32_t *hubs;             /* nodes of the largest degree, ascending */
    size_t n_hubs;
    double avg_clustering;      /* mean local clustering, as nx.average_clustering */
    double transitivity;        /* 3 triangles / connected triples */
    double avg_path_length;     /* -1 without distances */
} cb_net_analysis;

/* Analyses NET. On success *out is new; the caller frees with cb_net_analysis_free. */
cb_status cb_net_analyze(const cb_network *net, cb_net_analysis **out, cb_error *err);
void cb_net_analysis_free(cb_net_analysis *a);

/* A drawing of a network on a page: positions in mm, y down. */
typedef struct {
    double page_w, page_h;      /* mm */
    double map_x, map_y, map_w, map_h; /* where the nodes go */
    double node_radius;         /* mm */
    double *xy;                 /* 2n node centres */
    size_t crossings;           /* pairs of links that cross */
    const char *method;         /* "snake", "circle", "tree", "geometric", "force" */
} cb_net_layout;

#define CB_NET_MAX_DRAWN_NODES 400
#define CB_NET_MAX_DRAWN_LINKS 2000

/* Lays NET out on a PAGE_W x PAGE_H mm page (crossing-free for paths,
 * cycles, trees and geometric networks; else force-directed, deterministic
 * from SEED). On success *out is new; the caller frees with cb_net_layout_free. */
cb_status cb_net_layout_make(const cb_network *net, const char *seed, double page_w,
                             double page_h, cb_net_layout **out, cb_error *err);
void cb_net_layout_free(cb_net_layout *l);
/* Pairs of links of NET that cross when drawn at XY (2n coordinates). */
size_t cb_net_crossings(const cb_network *net, const double *xy);

/* The map as a one-page PDF: numbered nodes, the legend (model, parameters,
 * crossings) and, when A is not NULL, the analysis. SPEC gives the seed and
 * parameters shown. *pdf is a malloc'd buffer of *len bytes the caller frees. */
cb_status cb_net_pdf_render(const cb_network *net, const cb_net_spec *spec,
                            const cb_net_layout *layout, const cb_net_analysis *a,
                            const cb_render_options *opt, unsigned char **pdf, size_t *len,
                            cb_error *err);

/* The network file (format cutboard-network/1: model, parameters, links,
 * positions when LAYOUT is given, and the analysis A). The caller frees. */
cb_status cb_net_json_render(const cb_network *net, const cb_net_spec *spec,
                             const cb_net_layout *layout, const cb_net_analysis *a,
                             char **json, cb_error *err);

/* The adjacency matrix as CSV: n lines of n comma-separated 0/1 values.
 * Refused above CB_NET_MAX_CSV_NODES nodes. The caller frees. */
#define CB_NET_MAX_CSV_NODES 5000
cb_status cb_net_csv_render(const cb_network *net, char **csv, size_t *len, cb_error *err);

/* ---- playtest: the game played by agents (src/game/) ------------------- */

/* Who sits at the table: players choosing at random among legal moves,
 * greedy ones (the shortest way, the mission's nearest node, every action,
 * the cut that slows the leader most), or thinking ones (each choice weighed
 * by playing it out several times on the real engine). */
typedef enum { CB_AGENT_RANDOM = 0, CB_AGENT_GREEDY, CB_AGENT_THINKING } cb_agent_kind;

typedef struct {
    int games;              /* games to play, >= 1 */
    cb_agent_kind agents;   /* every seat */
    int skill_games;        /* also this many games of one thinking agent (its
                               seat turning round the table) against greedy ones */
    int cut_influence;      /* replay every game with each cut action declined */
    double noise;           /* a greedy agent's chance of a random choice (0..1) */
    int rollouts;           /* a thinking agent's look-aheads per option (>= 1) */
    int horizon;            /* rounds each look-ahead plays; 0: by the table
                               (8 rounds; 2 on a board shared by 7-9) */
    int jobs;               /* threads, 1..64; the report does not depend on it */
    const cb_game *boards;  /* NULL: a new game from the spec for each game played
                               (seed "<seed>/playtest/<k>"); else these sheets for
                               every game */
    /* Called now and then with the games done; non-zero stops the run
     * (CB_ERR_STOPPED). May be NULL. */
    int (*progress)(void *ctx, long done, long total);
    void *progress_ctx;
} cb_playtest_options;

/* Defaults: 1,000 greedy games, the cut-influence replay, no skill games,
 * 16 look-aheads with the table's horizon, no noise, 1 job, new boards from
 * the spec. */
void cb_playtest_defaults(cb_playtest_options *opt);

#define CB_PLAYTEST_MAX_ROUNDS 64
#define CB_PLAYTEST_MAX_MISSIONS 64

typedef struct {
    int games, players, shared, round_limit;
    double seat_wins[CB_PLAYERS_MAX]; /* a win shared by k players counts 1/k */
    int no_winner;
    int shared_wins;        /* games whose win was shared (a tie) */
    double winner_done;     /* wins by a player with its mission done */
    int rounds[CB_PLAYTEST_MAX_ROUNDS + 1]; /* games lasting r rounds */
    int by_limit;           /* games ended by the round limit */
    long player_games;      /* games x players */
    long stuck, stranded;   /* players ever stuck (no edge to walk), stranded */
    long pieces;            /* pieces of paper holding a node that fell off */
    long cut_actions;
    int influence_games, influence_changed; /* winner changed without cuts */
    int mission_games[CB_PLAYTEST_MAX_MISSIONS], mission_done[CB_PLAYTEST_MAX_MISSIONS];
    double mission_wins[CB_PLAYTEST_MAX_MISSIONS];
    long landings[CB_EFFECT_KINDS], legal[CB_EFFECT_KINDS], used[CB_EFFECT_KINDS];
    int skill_games;
    double skill_wins;      /* the thinking agent's games and wins */
} cb_playtest_report;

/* Plays OPT->games games of SPEC's kind (SPEC->theme a cutboard-theme/3
 * theme) and fills *OUT. The same spec and options give the same report
 * for any number of jobs. */
cb_status cb_playtest_run(const cb_spec *spec, const cb_playtest_options *opt,
                          cb_playtest_report *out, cb_error *err);

/* ---- robustness: limits and in-memory parsers ------------------------ */

/* Inputs larger than these are refused, before they are read, with a
 * message naming the file (board files: CB_BOARD_FILE_MAX). Icons are also
 * refused when larger than CB_MAX_ICON_SIDE pixels a side, from the PNG
 * header alone. */
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
