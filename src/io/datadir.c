/* Where the installed data (themes, the font) is: the search the program
 * and any other user of the library share, so that a program built against
 * the library finds the themes wherever they were installed. */
#define _XOPEN_SOURCE 700 /* readlink */
#include "base/error.h"

#include <limits.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef CB_DATADIR
#define CB_DATADIR "/usr/local/share/cutboard"
#endif

/* REL under DIR in OUT; 1 when it is there. */
static int data_at(const char *dir, const char *rel, char *out, size_t len)
{
    int k = snprintf(out, len, "%s/%s", dir, rel);
    return k > 0 && (size_t)k < len && access(out, R_OK) == 0;
}

cb_status cb_data_find(const char *rel, char *out, size_t len, cb_error *err)
{
    if (!rel || !out || len == 0)
        return cb_fail(err, CB_ERR_USAGE, "cb_data_find: no file name or no room");
    out[0] = 0;
    const char *env = getenv("CUTBOARD_DATA");
    if (env && *env) {
        if (data_at(env, rel, out, len))
            return CB_OK;
        out[0] = 0;
        return cb_fail(err, CB_ERR_NOINPUT, "%s: not found in $CUTBOARD_DATA (%s)", rel, env);
    }
    /* Next to the running program (a source tree), then in the share folder
     * beside its bin folder (an installed tree, wherever it was moved; for
     * the server program, in libexec/cutboard, beside that libexec folder),
     * then where the library was installed. */
    char exe[PATH_MAX], up[PATH_MAX + 32];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    char *slash = n > 0 ? (exe[n] = 0, strrchr(exe, '/')) : NULL;
    if (slash) {
        *slash = 0;
        if (data_at(exe, rel, out, len))
            return CB_OK;
        static const char helper[] = "/libexec/cutboard";
        size_t k = strlen(exe), h = sizeof helper - 1;
        int in_libexec = k >= h && strcmp(exe + k - h, helper) == 0;
        snprintf(up, sizeof up, "%s/%s../share/cutboard", exe, in_libexec ? "../" : "");
        if (data_at(up, rel, out, len))
            return CB_OK;
    }
    if (data_at(CB_DATADIR, rel, out, len))
        return CB_OK;
    out[0] = 0;
    return cb_fail(err, CB_ERR_NOINPUT,
                   "%s: not found next to the program (%s), in %s/../share/cutboard or in %s; "
                   "set CUTBOARD_DATA to the folder that holds icons/ and fonts/",
                   rel, slash ? exe : "?", slash ? exe : "?", CB_DATADIR);
}

static int is_dir(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
}

cb_status cb_theme_find(const char *theme, char *out, size_t len, cb_error *err)
{
    if (!theme || !*theme)
        theme = "default";
    if (!out || len == 0)
        return cb_fail(err, CB_ERR_USAGE, "cb_theme_find: no room for the folder");
    /* A path names a folder. */
    if (strchr(theme, '/') || !strcmp(theme, ".") || !strcmp(theme, "..")) {
        int k = snprintf(out, len, "%s", theme);
        if (k < 0 || (size_t)k >= len)
            return cb_fail(err, CB_ERR_USAGE, "%.200s: path too long", theme);
        if (!is_dir(out)) {
            out[0] = 0;
            return cb_fail(err, CB_ERR_NOINPUT, "%.200s: not a folder", theme);
        }
        return CB_OK;
    }
    /* A name: an installed theme; or else a folder of that name here, as
     * command lines written before themes had names meant. */
    char rel[NAME_MAX + 8];
    if (strlen(theme) > NAME_MAX)
        return cb_fail(err, CB_ERR_USAGE, "%.200s...: not a theme name", theme);
    snprintf(rel, sizeof rel, "icons/%s", theme);
    if (cb_data_find(rel, out, len, NULL) == CB_OK && is_dir(out))
        return CB_OK;
    if (is_dir(theme) && strlen(theme) < len) {
        snprintf(out, len, "%s", theme);
        return CB_OK;
    }
    char themes[PATH_MAX];
    cb_error none = {CB_OK, "", 0, ""};
    out[0] = 0;
    if (cb_data_find("icons", themes, sizeof themes, &none) != CB_OK)
        return cb_fail(err, CB_ERR_NOINPUT, "%s: no installed theme of that name (%s)", theme,
                       none.message);
    return cb_fail(err, CB_ERR_NOINPUT,
                   "%s: no theme of that name in %s, nor a folder of that name here", theme,
                   themes);
}
