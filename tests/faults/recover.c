/* recover FOLDER...: what the next run does first in each folder it writes
 * to (cb_file_recover), alone, so kill.sh can look at the folders as the
 * next run finds them. Exit 0, or 1 after a line on stderr. */
#include <stdio.h>

#include "cutboard.h"

int main(int argc, char **argv)
{
    int rc = 0;
    for (int i = 1; i < argc; i++) {
        cb_error err = {CB_OK, "", 0, ""};
        if (cb_file_recover(argv[i], &err) != CB_OK) {
            fprintf(stderr, "recover: %s\n", err.message);
            rc = 1;
        }
    }
    return rc;
}
