/* cutboard: the command line. Parses options, calls the library, writes the
 * files, and maps errors to exit codes (sysexits, see cutboard.h). */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cutboard.h"

#ifndef CB_DATADIR
#define CB_DATADIR "/usr/local/share/cutboard"
#endif

static const char usage[] =
    "usage: cutboard [options] -o FILE.pdf\n"
    "\n"
    "Generates printable, cuttable game boards: one sheet per player (or one\n"
    "shared board), each meeting the board contract, written as PDF.\n"
    "\n"
    "  -o, --output FILE    the PDF to write (required)\n"
    "  -s, --seed TEXT      any text; the same seed gives the same game\n"
    "                       (default: a random seed, printed on every sheet)\n"
    "  -p, --players N      2..9 players (default 4)\n"
    "      --shared         one board for the whole table instead of one each\n"
    "      --theme DIR      theme folder with theme.json (default icons/default)\n"
    "      --paper NAME     a4 (default), letter, a3, tabloid, a5..a0, legal or WxHmm\n"
    "      --portrait       portrait instead of landscape\n"
    "      --margin MM      paper edge to trim line (default 12; edge nodes need\n"
    "                       5 mm + a node radius)\n"
    "      --resolution R   nodes across the longer side (default: 24.5 mm spacing,\n"
    "                       about 88 nodes on A4)\n"
    "      --start-cap N    most edges per start node, 2..4 (default 2)\n"
    "      --node-cap N     most edges per other node, 3..8 (default 4)\n"
    "      --ink-friendly   white node fills, colours only as outlines\n"
    "      --font FILE      TTF font to embed (default fonts/DejaVuSans.ttf)\n"
    "      --json FILE      also write the board file (format cutboard/1)\n"
    "  -h, --help           this help\n"
    "  -V, --version        the version\n"
    "\n"
    "Exit codes: 0 ok, 64 bad option, 65 bad input data, 66 missing input,\n"
    "70 internal error, 73 cannot create output, 74 write error.\n";

static int fail(int code, const char *fmt, const char *a, const char *b)
{
    fprintf(stderr, "cutboard: ");
    fprintf(stderr, fmt, a, b);
    fputc('\n', stderr);
    return code;
}

static int takes_value(const char *opt)
{
    static const char *const with_value[] = {
        "-o", "--output", "-s", "--seed", "-p", "--players", "--theme", "--paper",
        "--margin", "--resolution", "--start-cap", "--node-cap", "--font", "--json", NULL};
    for (int i = 0; with_value[i]; i++)
        if (strcmp(opt, with_value[i]) == 0)
            return 1;
    return 0;
}

static int parse_int(const char *opt, const char *s, int lo, int hi, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi) {
        fprintf(stderr, "cutboard: %s: \"%s\" is not a whole number from %d to %d\n", opt, s,
                lo, hi);
        return -1;
    }
    *out = (int)v;
    return 0;
}

static int parse_double(const char *opt, const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || !isfinite(v)) {
        fprintf(stderr, "cutboard: %s: \"%s\" is not a number\n", opt, s);
        return -1;
    }
    *out = v;
    return 0;
}

static int is_dir(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
}

/* Where themes and fonts live: $CUTBOARD_DATA, the current folder, the
 * binary's folder, then the install prefix. */
static void data_path(const char *rel, char *out, size_t len)
{
    const char *env = getenv("CUTBOARD_DATA");
    char exe[PATH_MAX];
    ssize_t n;
    if (env && *env) {
        snprintf(out, len, "%s/%s", env, rel);
        return;
    }
    snprintf(out, len, "%s", rel);
    if (access(out, R_OK) == 0)
        return;
    n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = 0;
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = 0;
            int k = snprintf(out, len, "%s/%s", exe, rel);
            if (k > 0 && (size_t)k < len && access(out, R_OK) == 0)
                return;
        }
    }
    snprintf(out, len, "%s/%s", CB_DATADIR, rel);
}

/* A seed for when none is given: random words are easy to read back. */
static void random_seed(char *out, size_t len)
{
    static const char *const words[] = {
        "amber", "birch", "cedar", "delta", "ember", "fjord", "grove", "heron",
        "iris", "jade", "kelp", "lark", "maple", "north", "opal", "pine",
        "quartz", "river", "stone", "tide", "umber", "vale", "willow", "yarrow"};
    unsigned char r[4] = {0, 0, 0, 0};
    FILE *f = fopen("/dev/urandom", "rb");
    if (f) {
        if (fread(r, 1, sizeof r, f) != sizeof r)
            r[0] = r[1] = r[2] = r[3] = 0;
        fclose(f);
    }
    snprintf(out, len, "%s-%s-%u", words[r[0] % 24], words[r[1] % 24],
             (unsigned)(r[2] << 8 | r[3]) % 1000);
}

int main(int argc, char **argv)
{
    cb_spec spec;
    cb_spec_defaults(&spec);
    cb_render_options ropt = {0, NULL};
    const char *output = NULL, *json_path = NULL, *theme_dir = NULL, *paper = "a4";
    int portrait = 0;
    char seed_buf[64], theme_buf[PATH_MAX], font_buf[PATH_MAX];
    spec.seed = NULL;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = takes_value(a) && i + 1 < argc ? argv[i + 1] : NULL;
        if (takes_value(a) && !val)
            return fail(64, "%s needs a value%s", a, "");
#define TAKES_VALUE(name) (strcmp(a, name) == 0 && ++i)
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(usage, stdout);
            return 0;
        } else if (strcmp(a, "-V") == 0 || strcmp(a, "--version") == 0) {
            printf("cutboard %s\n", CB_VERSION);
            return 0;
        } else if (TAKES_VALUE("-o") || TAKES_VALUE("--output")) {
            output = val;
        } else if (TAKES_VALUE("-s") || TAKES_VALUE("--seed")) {
            spec.seed = val;
        } else if (TAKES_VALUE("-p") || TAKES_VALUE("--players")) {
            if (parse_int("--players", val, 2, 9, &spec.players) != 0)
                return 64;
        } else if (strcmp(a, "--shared") == 0) {
            spec.shared = 1;
        } else if (TAKES_VALUE("--theme")) {
            theme_dir = val;
        } else if (TAKES_VALUE("--paper")) {
            paper = val;
        } else if (strcmp(a, "--portrait") == 0) {
            portrait = 1;
        } else if (TAKES_VALUE("--margin")) {
            if (parse_double("--margin", val, &spec.margin) != 0)
                return 64;
        } else if (TAKES_VALUE("--resolution")) {
            if (parse_double("--resolution", val, &spec.resolution) != 0)
                return 64;
        } else if (TAKES_VALUE("--start-cap")) {
            if (parse_int("--start-cap", val, 2, 4, &spec.start_cap) != 0)
                return 64;
        } else if (TAKES_VALUE("--node-cap")) {
            if (parse_int("--node-cap", val, 3, 8, &spec.node_cap) != 0)
                return 64;
        } else if (strcmp(a, "--ink-friendly") == 0) {
            ropt.ink_friendly = 1;
        } else if (TAKES_VALUE("--font")) {
            ropt.font_path = val;
        } else if (TAKES_VALUE("--json")) {
            json_path = val;
        } else {
            return fail(64, "unknown option \"%s\"%s (see cutboard --help)", a, "");
        }
#undef TAKES_VALUE
    }
    if (!output)
        return fail(64, "no output file: give -o FILE.pdf%s%s (see cutboard --help)", "", "");

    cb_error err = {CB_OK, ""};
    if (cb_paper_parse(paper, &spec.page_w, &spec.page_h, &err) != CB_OK)
        return fail(err.status, "%s%s", err.message, "");
    if (portrait) {
        double t = spec.page_w;
        spec.page_w = spec.page_h;
        spec.page_h = t;
    }
    if (!spec.seed) {
        random_seed(seed_buf, sizeof seed_buf);
        spec.seed = seed_buf;
    }
    if (cb_spec_check(&spec, &err) != CB_OK)
        return fail(err.status, "%s%s", err.message, "");
    if (!theme_dir) {
        data_path("icons/default", theme_buf, sizeof theme_buf);
        theme_dir = theme_buf;
    } else if (!is_dir(theme_dir)) {
        return fail(66, "--theme: %s is not a folder%s", theme_dir, "");
    }
    if (!ropt.font_path) {
        data_path("fonts/DejaVuSans.ttf", font_buf, sizeof font_buf);
        ropt.font_path = font_buf;
    }

    cb_theme *theme = NULL;
    cb_game *game = NULL;
    unsigned char *pdf = NULL;
    size_t pdf_len = 0;
    char *json = NULL;
    cb_status st = cb_theme_load(theme_dir, &theme, &err);
    if (st == CB_OK) {
        spec.theme = theme;
        st = cb_game_generate(&spec, &game, &err);
    }
    if (st == CB_OK)
        st = cb_pdf_render(game, theme, &ropt, &pdf, &pdf_len, &err);
    if (st == CB_OK && json_path)
        st = cb_json_render(game, theme, &json, &err);
    /* Everything is in memory before the first file is touched. Ctrl-C and
     * SIGTERM wait the few milliseconds until the files are renamed into
     * place or cleaned up, so they never leave a temporary file behind. */
    sigset_t stop, old;
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    sigaddset(&stop, SIGHUP);
    sigprocmask(SIG_BLOCK, &stop, &old);
    cb_staged_file *pdf_file = NULL, *json_file = NULL;
    if (st == CB_OK)
        st = cb_file_stage(output, pdf, pdf_len, &pdf_file, &err);
    if (st == CB_OK && json_path)
        st = cb_file_stage(json_path, json, strlen(json), &json_file, &err);
    if (st == CB_OK) {
        st = cb_file_commit(pdf_file, &err);
        if (st == CB_OK && json_file)
            st = cb_file_commit(json_file, &err);
        else
            cb_file_discard(json_file);
    } else {
        cb_file_discard(pdf_file);
        cb_file_discard(json_file);
    }
    sigprocmask(SIG_SETMASK, &old, NULL);
    if (st == CB_OK && isatty(STDERR_FILENO))
        fprintf(stderr, "cutboard: wrote %s: %zu sheet%s, seed \"%s\"\n", output,
                game->n_sheets, game->n_sheets == 1 ? "" : "s", spec.seed);
    free(json);
    free(pdf);
    cb_game_free(game);
    cb_theme_free(theme);
    if (st != CB_OK)
        return fail(st, "%s%s", err.message, "");
    return 0;
}
