/* End-to-end test support: each test_cli*.c runs the built cutboard binary
 * the way a user does, in a scratch folder made by cli_setup and removed by
 * cli_teardown. The binary comes from $CUTBOARD (default ./cutboard; it may
 * carry a wrapper such as valgrind). */
#ifndef CLI_SUPPORT_H
#define CLI_SUPPORT_H

#include "test.h"

#include <stddef.h>

extern char cli_base[];     /* the scratch folder */
extern char cli_rundir[];   /* the user's working folder, inside it */
extern char cli_repo[];     /* where the tests were started (the source tree) */
extern char cli_binary[];   /* $CUTBOARD with its paths made absolute */
extern char err_text[];     /* stderr of the last run */
extern char out_text[];     /* stdout of the last run */

/* Group setup and teardown: make and remove the scratch folder. */
int cli_setup(void **state);
int cli_teardown(void **state);

/* Whether TOOL is on the PATH. */
int have(const char *tool);

/* Skips the test with a message when TOOL is not installed. */
#define NEED(tool)                                                      \
    do {                                                                \
        if (!have(tool)) {                                              \
            print_message("%s is not installed: skipping\n", tool);     \
            skip();                                                     \
        }                                                               \
    } while (0)

/* A file's whole contents, NUL-terminated; NULL if it cannot be read. */
char *slurp(const char *path, size_t *len);

/* Runs shell command CMD in the run folder; its output lands in out_text and
 * err_text. Returns the exit status. */
int sh(const char *cmd);

/* Runs cutboard with ARGS (shell words) in the run folder. */
int cutboard(const char *args);

/* Whether NAME exists in the run folder. */
int exists(const char *name);

/* How many files in the run folder start with PREFIX. */
int count_prefixed(const char *prefix);

/* Writes TEXT to NAME in the run folder. */
void write_file(const char *name, const char *text);

/* Reads NAME from the run folder; fails the test if it cannot. */
char *read_run_file(const char *name, size_t *len);

/* NAME in the run folder parsed as JSON; fails the test if it is not. The
 * caller frees it with cJSON_Delete. */
struct cJSON *read_run_json(const char *name);

/* Whether files A and B in the run folder hold the same bytes. */
int same_files(const char *a, const char *b);

/* Exactly one line on stderr, naming the program. */
void assert_one_error_line(void);
void assert_contains(const char *text, const char *what);

/* A command that must fail with CODE and a message holding WHAT (or NULL),
 * leaving neither OUTPUT nor OUTPUT.* behind (OUTPUT may be NULL). */
void expect_failure(const char *args, int code, const char *what, const char *output);

/* pdfinfo on PDF must succeed; its output is in out_text. */
void pdfinfo(const char *pdf);

/* Copies icons/default to DIR in the run folder. */
void copy_default_theme(const char *dir);

#endif
