/* What the end-to-end tests share: running the built cutboard binary the way
 * a user does, in a scratch folder, and checking its files, exit codes and
 * messages. See cli_support.h. */
#define _XOPEN_SOURCE 700 /* realpath */
#include "cli_support.h"

#include <cjson/cJSON.h>

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

char cli_base[PATH_MAX];     /* mkdtemp folder */
char cli_rundir[PATH_MAX + 8]; /* the user's working folder */
char cli_repo[PATH_MAX];     /* where the tests were started */
char cli_binary[4096];       /* $CUTBOARD with paths made absolute */
char err_text[8192];     /* stderr of the last run */
char out_text[1 << 20];  /* stdout of the last run */

/* ---- helpers ------------------------------------------------------------ */

int have(const char *tool)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "command -v %s >/dev/null 2>&1", tool);
    return system(cmd) == 0;
}


static void read_text(const char *path, char *buf, size_t len)
{
    FILE *f = fopen(path, "rb");
    size_t n = f ? fread(buf, 1, len - 1, f) : 0;
    if (f)
        fclose(f);
    buf[n] = 0;
}

char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    buf[n] = 0;
    *len = (size_t)n;
    return buf;
}

/* Runs the shell command CMD in the run folder; stdout and stderr go to
 * out_text and err_text. Returns the exit status. */
int sh(const char *cmd)
{
    char full[16384], out_path[PATH_MAX + 16], err_path[PATH_MAX + 16];
    snprintf(out_path, sizeof out_path, "%s/stdout", cli_base);
    snprintf(err_path, sizeof err_path, "%s/stderr", cli_base);
    snprintf(full, sizeof full, "cd '%s' && %s >'%s' 2>'%s'", cli_rundir, cmd, out_path, err_path);
    int rc = system(full);
    read_text(out_path, out_text, sizeof out_text);
    read_text(err_path, err_text, sizeof err_text);
    assert_true(WIFEXITED(rc));
    return WEXITSTATUS(rc);
}

/* Runs cutboard with ARGS (shell words). */
int cutboard(const char *args)
{
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "%s %s", cli_binary, args);
    return sh(cmd);
}

cJSON *read_run_json(const char *name)
{
    size_t len;
    char *text = read_run_file(name, &len);
    cJSON *j = cJSON_Parse(text);
    free(text);
    assert_non_null(j);
    return j;
}

int exists(const char *name)
{
    char path[PATH_MAX * 2];
    snprintf(path, sizeof path, "%s/%s", cli_rundir, name);
    struct stat sb;
    return lstat(path, &sb) == 0;
}

/* Files in the run folder whose name starts with PREFIX. */
int count_prefixed(const char *prefix)
{
    DIR *d = opendir(cli_rundir);
    assert_non_null(d);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        n += strncmp(e->d_name, prefix, strlen(prefix)) == 0;
    closedir(d);
    return n;
}

void write_file(const char *name, const char *text)
{
    char path[PATH_MAX * 2];
    snprintf(path, sizeof path, "%s/%s", cli_rundir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

char *read_run_file(const char *name, size_t *len)
{
    char path[PATH_MAX * 2];
    snprintf(path, sizeof path, "%s/%s", cli_rundir, name);
    char *text = slurp(path, len);
    assert_non_null(text);
    return text;
}

/* Exactly one line on stderr, naming the program. */
void assert_one_error_line(void)
{
    size_t len = strlen(err_text);
    assert_true(len > 1);
    assert_int_equal(err_text[len - 1], '\n');
    if (strchr(err_text, '\n') != err_text + len - 1)
        fail_msg("more than one line on stderr: %s", err_text);
    assert_non_null(strstr(err_text, "cutboard"));
}

void assert_contains(const char *text, const char *what)
{
    if (!strstr(text, what))
        fail_msg("\"%s\" not found in: %s", what, text);
}

/* A command that must fail with CODE and a message holding WHAT, leaving
 * neither OUTPUT nor OUTPUT.* behind. */
void expect_failure(const char *args, int code, const char *what, const char *output)
{
    int rc = cutboard(args);
    if (rc != code)
        fail_msg("cutboard %s: exit %d, expected %d (stderr: %s)", args, rc, code, err_text);
    assert_one_error_line();
    if (what)
        assert_contains(err_text, what);
    if (output) {
        char prefix[256];
        snprintf(prefix, sizeof prefix, "%s.", output);
        if (exists(output))
            fail_msg("cutboard %s failed (exit %d) but wrote %s", args, rc, output);
        if (count_prefixed(prefix) != 0)
            fail_msg("cutboard %s left a temporary %s* behind", args, prefix);
    }
}

void pdfinfo(const char *pdf)
{
    char cmd[PATH_MAX];
    snprintf(cmd, sizeof cmd, "pdfinfo '%s'", pdf);
    assert_int_equal(sh(cmd), 0);
}

/* Copies icons/default to DIR in the run folder. */
void copy_default_theme(const char *dir)
{
    char cmd[PATH_MAX * 3];
    snprintf(cmd, sizeof cmd, "rm -rf '%s' && cp -r '%s/icons/default' '%s'", dir, cli_repo, dir);
    assert_int_equal(sh(cmd), 0);
}

/* $CUTBOARD with every word that names an existing relative path made
 * absolute, so it can be run from the scratch folder. */
static void resolve_binary(void)
{
    const char *env = getenv("CUTBOARD");
    char words[4096];
    snprintf(words, sizeof words, "%s", env && *env ? env : "./cutboard");
    cli_binary[0] = 0;
    for (char *save = NULL, *w = strtok_r(words, " \t", &save); w;
         w = strtok_r(NULL, " \t", &save)) {
        char abs[PATH_MAX];
        const char *use = w;
        if (w[0] != '-' && w[0] != '/' && strchr(w, '/') && realpath(w, abs))
            use = abs;
        size_t len = strlen(cli_binary);
        assert_true(len + strlen(use) + 2 < sizeof cli_binary);
        if (len)
            cli_binary[len++] = ' ';
        memcpy(cli_binary + len, use, strlen(use) + 1);
    }
}

/* The cli_binary finds its themes and fonts next to itself (or through
 * $CUTBOARD_DATA). A build in another folder (make check's build-san/) has
 * none there, so it is pointed at the source tree. */
static void find_data(void)
{
    char dir[4096], probe[4200];
    const char *last = strrchr(cli_binary, ' ');
    snprintf(dir, sizeof dir, "%s", last ? last + 1 : cli_binary);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = 0;
    snprintf(probe, sizeof probe, "%s/icons/default/theme.json", dir);
    if (access(probe, R_OK) != 0)
        setenv("CUTBOARD_DATA", cli_repo, 0);
}

int cli_setup(void **state)
{
    (void)state;
    if (!getcwd(cli_repo, sizeof cli_repo))
        return -1;
    resolve_binary();
    find_data();
    snprintf(cli_base, sizeof cli_base, "/tmp/cutboard-cli-XXXXXX");
    if (!mkdtemp(cli_base))
        return -1;
    snprintf(cli_rundir, sizeof cli_rundir, "%s/run", cli_base);
    return mkdir(cli_rundir, 0755);
}

int cli_teardown(void **state)
{
    (void)state;
    char cmd[PATH_MAX + 16];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", cli_base);
    return system(cmd) == 0 ? 0 : -1;
}

int same_files(const char *a, const char *b)
{
    size_t la, lb;
    char *x = read_run_file(a, &la), *y = read_run_file(b, &lb);
    int same = la == lb && memcmp(x, y, la) == 0;
    free(x);
    free(y);
    return same;
}
