/* src/io/: the commit journal that makes a set of renames all-or-nothing
 * even under SIGKILL (commit_journal.c), for atomic.c. */
#ifndef CB_COMMIT_JOURNAL_H
#define CB_COMMIT_JOURNAL_H

#include <stddef.h>
#include <sys/types.h>

#include "cutboard.h"

/* The start of every hidden name this process makes beside an output:
 * ".cutboard-" HOST "-" PID "-" (HOST: 8 hex digits hashed from the host
 * name and the pid namespace), so a later run can tell whether the process
 * that left a file there is still alive. Into BUF; its length, or 0 when it does not fit. */
size_t cb_hidden_owner(char *buf, size_t len);
/* A fresh hidden name in PATH's folder: the owner, 12 random hex digits
 * and SUFFIX (malloc'd; NULL when out of memory). Short whatever PATH's
 * length, and random so that two files of one run do not meet. */
char *cb_hidden_name(const char *path, const char *suffix);

/* One output of a set being committed: TARGET takes the file now at
 * STAGED (inode INO on device DEV); where no exchange is possible the old
 * target is kept as a hard link at BACKUP first. Paths as the caller
 * gave them (relative to the working folder). */
typedef struct {
    const char *target, *staged, *backup;
    dev_t dev;
    ino_t ino;
} cb_journal_entry;

typedef struct cb_journal cb_journal;

/* Writes the journal of ENTRIES[0..n-1] into the folder of every target,
 * flushed to disk, before any target changes: a run killed from here on
 * is rolled back by the next one (cb_file_recover). NOMEM or IO. */
cb_status cb_journal_begin(const cb_journal_entry *entries, size_t n, cb_journal **out,
                           cb_error *err);
/* Marks J done once every target has its new file: a run killed from here
 * on is rolled forward (only the backups go). 0 or an errno value. */
int cb_journal_done(cb_journal *j);
/* Removes J's files (all of them when done, or when the rollback put every
 * target back) and frees it; KEEP leaves them for the next run's recovery
 * (a rollback that failed half way). NULL is a no-op. */
void cb_journal_end(cb_journal *j, int keep);

#endif
