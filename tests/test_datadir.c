/* cb_data_find and cb_theme_find: the data the program uses, found the way
 * the program finds it ($CUTBOARD_DATA, else beside the running program or
 * under the installed prefix), and --theme's two forms: a path is a folder,
 * a name an installed theme (or else a folder of that name here). */
#define _XOPEN_SOURCE 700 /* mkdtemp, setenv */
#include "test.h"

#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char top[PATH_MAX];  /* the source tree, where the tests start */
static char work[PATH_MAX]; /* an empty folder, the current one in each test */

static int setup(void **state)
{
    (void)state;
    if (!getcwd(top, sizeof top))
        return -1;
    snprintf(work, sizeof work, "/tmp/cb-datadir-XXXXXX");
    if (!mkdtemp(work) || chdir(work) != 0)
        return -1;
    return setenv("CUTBOARD_DATA", top, 1);
}

static int teardown(void **state)
{
    (void)state;
    int rc = chdir(top);
    char cmd[PATH_MAX + 16];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", work);
    rc |= system(cmd);
    unsetenv("CUTBOARD_DATA");
    return rc != 0;
}

static void test_data_find_in_cutboard_data(void **state)
{
    (void)state;
    char out[PATH_MAX], want[PATH_MAX + 128];
    cb_error err = {CB_OK, "", 0, ""};
    assert_int_equal(cb_data_find("fonts/DejaVuSans.ttf", out, sizeof out, &err), CB_OK);
    snprintf(want, sizeof want, "%s/fonts/DejaVuSans.ttf", top);
    assert_string_equal(out, want);
    /* Missing: CB_ERR_NOINPUT, naming the file and the variable. */
    assert_int_equal(cb_data_find("fonts/Nothing.ttf", out, sizeof out, &err), CB_ERR_NOINPUT);
    assert_non_null(strstr(err.message, "fonts/Nothing.ttf"));
    assert_non_null(strstr(err.message, "$CUTBOARD_DATA"));
    assert_string_equal(out, "");
    /* No room for the path: refused, not cut short. */
    char small[8];
    assert_int_equal(cb_data_find("fonts/DejaVuSans.ttf", small, sizeof small, &err),
                     CB_ERR_NOINPUT);
    assert_int_equal(cb_data_find(NULL, out, sizeof out, &err), CB_ERR_USAGE);
}

static void test_theme_by_name_and_by_path(void **state)
{
    (void)state;
    char out[PATH_MAX], want[PATH_MAX + 128];
    cb_error err = {CB_OK, "", 0, ""};
    snprintf(want, sizeof want, "%s/icons/default", top);
    assert_int_equal(cb_theme_find("default", out, sizeof out, &err), CB_OK);
    assert_string_equal(out, want);
    assert_int_equal(cb_theme_find(NULL, out, sizeof out, &err), CB_OK); /* the default */
    assert_string_equal(out, want);
    assert_int_equal(cb_theme_find("", out, sizeof out, &err), CB_OK);
    assert_string_equal(out, want);
    /* A path is taken as it is, from wherever the program runs. */
    assert_int_equal(cb_theme_find(want, out, sizeof out, &err), CB_OK);
    assert_string_equal(out, want);
    cb_theme *theme = NULL;
    assert_int_equal(cb_theme_load(out, &theme, &err), CB_OK);
    cb_theme_free(theme);
    assert_int_equal(cb_theme_find("./nowhere", out, sizeof out, &err), CB_ERR_NOINPUT);
    assert_string_equal(err.message, "./nowhere: not a folder");
    /* A name that is no installed theme: the message says where themes are. */
    assert_int_equal(cb_theme_find("nosuch", out, sizeof out, &err), CB_ERR_NOINPUT);
    snprintf(want, sizeof want,
             "nosuch: no theme of that name in %s/icons, nor a folder of that name here", top);
    assert_string_equal(err.message, want);
}

static void test_theme_name_falls_back_to_a_folder_here(void **state)
{
    (void)state;
    char out[PATH_MAX];
    cb_error err = {CB_OK, "", 0, ""};
    assert_int_equal(mkdir("mine", 0777), 0);
    assert_int_equal(cb_theme_find("mine", out, sizeof out, &err), CB_OK);
    assert_string_equal(out, "mine");
    /* An installed theme wins over a folder of the same name here. */
    assert_int_equal(mkdir("default", 0777), 0);
    assert_int_equal(cb_theme_find("default", out, sizeof out, &err), CB_OK);
    assert_string_not_equal(out, "default");
    assert_non_null(strstr(out, "/icons/default"));
    assert_int_equal(cb_theme_find("./default", out, sizeof out, &err), CB_OK);
    assert_string_equal(out, "./default");
}

static void test_without_cutboard_data(void **state)
{
    (void)state;
    char out[PATH_MAX];
    cb_error err = {CB_OK, "", 0, ""};
    unsetenv("CUTBOARD_DATA");
    /* This test binary lives in build/, with no data beside it or in
     * build/../share/cutboard: the answer is the installed prefix's, or a
     * message naming every place looked in. */
    cb_status st = cb_data_find("icons/default/theme.json", out, sizeof out, &err);
    if (st == CB_OK) {
        assert_non_null(strstr(out, "/share/cutboard/icons/default/theme.json"));
    } else {
        assert_int_equal(st, CB_ERR_NOINPUT);
        assert_non_null(strstr(err.message, "not found next to the program ("));
        assert_non_null(strstr(err.message, "/share/cutboard"));
        assert_non_null(strstr(err.message, "set CUTBOARD_DATA"));
    }
    /* An empty $CUTBOARD_DATA is as good as none. */
    setenv("CUTBOARD_DATA", "", 1);
    cb_error err2 = {CB_OK, "", 0, ""};
    assert_int_equal(cb_data_find("icons/default/theme.json", out, sizeof out, &err2), st);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_data_find_in_cutboard_data, setup, teardown),
        cmocka_unit_test_setup_teardown(test_theme_by_name_and_by_path, setup, teardown),
        cmocka_unit_test_setup_teardown(test_theme_name_falls_back_to_a_folder_here, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_without_cutboard_data, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
