/* Several renames, all or nothing, even when the process is killed half
 * way (SIGKILL, the OOM killer, a power cut after the journal is on disk).
 * No file system can rename many files in one step, so the commit writes
 * a journal first: each target, the staged file that replaces it (by
 * inode, so a later run can see whether the swap happened) and where its
 * old file is kept. A copy goes into the folder of every target, flushed to
 * disk before the first target changes. When every target has its new
 * file the copies are renamed from ".journal" to ".done"; the backups go,
 * then the copies.
 *
 * The next run that writes into one of those folders (cb_file_recover)
 * finds the journal of a process that is no longer alive: not done, it
 * puts every old file back (all old); done, it removes the backups (all
 * new). Either way it then removes every hidden file that process left
 * there. Hidden names carry the host (and pid namespace) and the process
 * id that made them (cb_hidden_owner), so a run never touches the files of
 * one still alive (another shard writing into the same folder) nor those
 * another machine or container made in a shared folder. Why a journal and not a swap of whole folders:
 * shards of one deck write into one --out-dir at once, the folder may hold
 * the user's own files or be someone's working folder, and the manifest
 * may live elsewhere; a journal covers all of those, at the price that
 * between the kill and the next run the folder can hold a mix. */
#define _GNU_SOURCE
#include "io/commit_journal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/error.h"

#define HIDDEN ".cutboard-"
#define HIDDEN_LEN (sizeof HIDDEN - 1)
#define JOURNAL_MAGIC "cutboard-journal/1\n"

/* The host name and the process-id namespace hashed (FNV-1a) to 8 hex
 * digits: a process id means something only on the machine, and in the
 * container, that gave it (two containers may share a host name and a
 * folder, never a pid namespace). */
static unsigned host_hash(void)
{
    char host[256] = "", ns[64] = "";
    if (gethostname(host, sizeof host - 1) != 0)
        host[0] = '\0';
    ssize_t n = readlink("/proc/self/ns/pid", ns, sizeof ns - 1);
    ns[n > 0 ? n : 0] = '\0';
    unsigned h = 2166136261u;
    for (const char *p = host; *p; p++)
        h = (h ^ (unsigned char)*p) * 16777619u;
    h = (h ^ '/') * 16777619u;
    for (const char *p = ns; *p; p++)
        h = (h ^ (unsigned char)*p) * 16777619u;
    return h;
}

size_t cb_hidden_owner(char *buf, size_t len)
{
    int n = snprintf(buf, len, HIDDEN "%08x-%ld-", host_hash(), (long)getpid());
    return n > 0 && (size_t)n < len ? (size_t)n : 0;
}

/* 12 random hex digits into OUT (13 bytes with the NUL). */
static void random_hex(char *out)
{
    static const char hex[] = "0123456789abcdef";
    unsigned char r[6];
    if (getrandom(r, sizeof r, GRND_NONBLOCK) != (ssize_t)sizeof r) {
        /* no entropy yet: the address and the clock differ between calls
         * enough; EEXIST makes the caller try again anyway */
        unsigned long v = (unsigned long)(uintptr_t)&r ^ (unsigned long)clock() << 8 ^
                          (unsigned long)time(NULL) << 24;
        for (size_t i = 0; i < sizeof r; i++)
            r[i] = (unsigned char)(v >> (8 * i));
    }
    for (size_t i = 0; i < sizeof r; i++) {
        out[2 * i] = hex[r[i] >> 4];
        out[2 * i + 1] = hex[r[i] & 15];
    }
    out[12] = '\0';
}

char *cb_hidden_name(const char *path, const char *suffix)
{
    const char *slash = strrchr(path, '/');
    size_t dir = slash ? (size_t)(slash - path) + 1 : 0;
    char owner[64], rnd[13];
    size_t own = cb_hidden_owner(owner, sizeof owner);
    random_hex(rnd);
    char *name = malloc(dir + own + 12 + strlen(suffix) + 1);
    if (!name)
        return NULL;
    memcpy(name, path, dir);
    sprintf(name + dir, "%s%s%s", owner, rnd, suffix);
    return name;
}

/* ---- writing the journal ---------------------------------------------- */

struct cb_journal {
    char **copies; /* each copy's path, ending ".journal" */
    size_t n_copies;
};

/* PATH with its folder resolved to an absolute one (malloc'd), or NULL
 * with errno set. */
static char *absolute(const char *path)
{
    const char *slash = strrchr(path, '/');
    char folder[PATH_MAX];
    const char *base = slash ? slash + 1 : path;
    if (slash) {
        size_t n = slash == path ? 1 : (size_t)(slash - path);
        char given[PATH_MAX];
        if (n >= sizeof given) {
            errno = ENAMETOOLONG;
            return NULL;
        }
        memcpy(given, path, n);
        given[n] = '\0';
        if (!realpath(given, folder))
            return NULL;
    } else if (!getcwd(folder, sizeof folder)) {
        return NULL;
    }
    size_t fl = strlen(folder), bl = strlen(base);
    char *abs = malloc(fl + 1 + bl + 1);
    if (!abs) {
        errno = ENOMEM;
        return NULL;
    }
    memcpy(abs, folder, fl);
    abs[fl] = '/';
    memcpy(abs + fl + 1, base, bl + 1);
    if (fl == 1) /* "/" */
        memmove(abs + 1, abs + 2, bl + 1);
    return abs;
}

/* The length of ABS's folder part (up to its last slash, kept). */
static size_t folder_len(const char *abs)
{
    return (size_t)(strrchr(abs, '/') - abs) + 1;
}

/* A path as length:bytes, so any name the file system accepts (newlines
 * included) reads back exactly. */
static void put_name(cb_buf *b, const char *s)
{
    cb_buf_printf(b, "%zu:", strlen(s));
    cb_buf_append(b, s, strlen(s));
}

static int write_all(int fd, const char *p, size_t left)
{
    while (left > 0) {
        ssize_t n = write(fd, p, left);
        if (n <= 0)
            return errno ? errno : EIO;
        p += n;
        left -= (size_t)n;
    }
    return 0;
}

/* Flushes the folder of ABS (so a name made or renamed there lasts). */
static int sync_folder(const char *abs)
{
    char folder[PATH_MAX];
    size_t n = folder_len(abs);
    if (n >= sizeof folder)
        return ENAMETOOLONG;
    memcpy(folder, abs, n);
    folder[n] = '\0';
    int fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return errno;
    int e = fsync(fd) == 0 || errno == EINVAL ? 0 : errno;
    close(fd);
    return e;
}

/* Writes one copy of the journal TEXT at PATH: 0 or an errno value. */
static int write_copy(const char *path, const cb_buf *text)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0)
        return errno;
    int e = write_all(fd, text->data, text->len);
    if (!e && fsync(fd) != 0)
        e = errno;
    if (close(fd) != 0 && !e)
        e = errno;
    if (!e)
        e = sync_folder(path);
    return e;
}

static void free_strings(char **s, size_t n)
{
    for (size_t k = 0; s && k < n; k++)
        free(s[k]);
    free(s);
}

cb_status cb_journal_begin(const cb_journal_entry *entries, size_t n, cb_journal **out,
                           cb_error *err)
{
    *out = NULL;
    char **abs = calloc(3 * n + 1, sizeof *abs); /* target, staged, backup of each */
    cb_journal *j = calloc(1, sizeof *j);
    char **copies = calloc(n + 1, sizeof *copies);
    cb_buf text = {0};
    cb_status st = CB_OK;
    int e = 0;
    char rnd[13], owner[64];
    random_hex(rnd);
    if (!abs || !j || !copies || !cb_hidden_owner(owner, sizeof owner))
        e = ENOMEM;
    for (size_t k = 0; !e && k < 3 * n; k++) {
        const cb_journal_entry *en = &entries[k / 3];
        const char *p = k % 3 == 0 ? en->target : k % 3 == 1 ? en->staged : en->backup;
        if (!(abs[k] = absolute(p)))
            e = errno ? errno : ENOMEM;
    }
    /* one copy per folder that holds a target */
    for (size_t k = 0; !e && k < n; k++) {
        const char *t = abs[3 * k];
        size_t fl = folder_len(t), c;
        for (c = 0; c < j->n_copies; c++)
            if (folder_len(copies[c]) == fl && memcmp(copies[c], t, fl) == 0)
                break;
        if (c < j->n_copies)
            continue;
        if (!(copies[j->n_copies] = malloc(fl + strlen(owner) + 12 + sizeof ".journal"))) {
            e = ENOMEM;
            break;
        }
        sprintf(copies[j->n_copies], "%.*s%s%s.journal", (int)fl, t, owner, rnd);
        j->n_copies++;
    }
    if (!e) {
        cb_buf_append(&text, JOURNAL_MAGIC, sizeof JOURNAL_MAGIC - 1);
        for (size_t c = 0; c < j->n_copies; c++) {
            cb_buf_append(&text, "c ", 2);
            put_name(&text, copies[c]);
            cb_buf_append(&text, "\n", 1);
        }
        for (size_t k = 0; k < n; k++) {
            cb_buf_append(&text, "e ", 2);
            for (int i = 0; i < 3; i++)
                put_name(&text, abs[3 * k + (size_t)i]);
            cb_buf_printf(&text, " %llu %llu\n", (unsigned long long)entries[k].dev,
                          (unsigned long long)entries[k].ino);
        }
        cb_buf_append(&text, "end\n", 4);
        if (text.oom)
            e = ENOMEM;
    }
    if (j)
        j->copies = copies;
    for (size_t c = 0; !e && c < j->n_copies; c++)
        e = write_copy(copies[c], &text);
    if (e) /* named by an output: the journal is ours, not the user's */
        st = e == ENOMEM ? cb_fail_nomem(err, entries[0].target)
                         : cb_fail(err, CB_ERR_IO, "%s: cannot replace: its commit journal: %s",
                                   entries[0].target, strerror(e));
    cb_buf_free(&text);
    free_strings(abs, 3 * n);
    if (st != CB_OK) {
        if (j)
            cb_journal_end(j, 0);
        else
            free_strings(copies, n + 1);
        return st;
    }
    *out = j;
    return CB_OK;
}

/* COPY (ending ".journal") with ".done" instead, into BUF. */
static const char *done_name(const char *copy, char *buf, size_t len)
{
    size_t n = strlen(copy) - (sizeof ".journal" - 1);
    snprintf(buf, len, "%.*s.done", (int)n, copy);
    return buf;
}

int cb_journal_done(cb_journal *j)
{
    char done[PATH_MAX + 8];
    for (size_t c = 0; c < j->n_copies; c++)
        if (rename(j->copies[c], done_name(j->copies[c], done, sizeof done)) != 0)
            return errno;
    return 0;
}

void cb_journal_end(cb_journal *j, int keep)
{
    if (!j)
        return;
    char done[PATH_MAX + 8];
    /* tried twice, as the backups are: a journal left behind costs the next
     * run a look, nothing more */
    for (size_t c = 0; !keep && c < j->n_copies; c++) {
        const char *name = done_name(j->copies[c], done, sizeof done);
        if (unlink(name) != 0 && errno != ENOENT)
            unlink(name);
        if (unlink(j->copies[c]) != 0 && errno != ENOENT)
            unlink(j->copies[c]);
    }
    free_strings(j->copies, j->n_copies);
    free(j);
}

/* ---- recovery --------------------------------------------------------- */

typedef struct {
    char *target, *staged, *backup;
    unsigned long long dev, ino;
} read_entry;

/* A length:bytes name at *P (before END) into a malloc'd string. */
static char *get_name(const char **p, const char *end)
{
    char *colon;
    unsigned long long len = strtoull(*p, &colon, 10);
    if (colon == *p || colon >= end || *colon != ':' || len > (unsigned long long)(end - colon - 1) ||
        len >= PATH_MAX)
        return NULL;
    char *s = malloc(len + 1);
    if (!s)
        return NULL;
    memcpy(s, colon + 1, len);
    s[len] = '\0';
    if (strlen(s) != len) { /* a NUL inside: not ours */
        free(s);
        return NULL;
    }
    *p = colon + 1 + len;
    return s;
}

/* The journal in TEXT into COPIES and ENTRIES (malloc'd arrays of
 * strings); 1 when whole, 0 when torn or not a journal (then its writer
 * was killed before it began: no target changed), -1 when out of memory. */
static int parse_journal(const char *text, size_t len, char ***copies, size_t *n_copies,
                         read_entry **entries, size_t *n_entries)
{
    const char *p = text, *end = text + len;
    size_t cap_c = 0, cap_e = 0;
    *copies = NULL;
    *entries = NULL;
    *n_copies = *n_entries = 0;
    if (len < sizeof JOURNAL_MAGIC - 1 || memcmp(p, JOURNAL_MAGIC, sizeof JOURNAL_MAGIC - 1))
        return 0;
    p += sizeof JOURNAL_MAGIC - 1;
    while (p < end) {
        if ((size_t)(end - p) == 4 && memcmp(p, "end\n", 4) == 0)
            return 1;
        if (end - p < 3 || p[1] != ' ' || (p[0] != 'c' && p[0] != 'e'))
            return 0;
        char kind = p[0];
        p += 2;
        if (kind == 'c') {
            if (*n_copies == cap_c) {
                cap_c = cap_c ? 2 * cap_c : 4;
                char **more = realloc(*copies, cap_c * sizeof *more);
                if (!more)
                    return -1;
                *copies = more;
            }
            char *s = get_name(&p, end);
            if (!s || p >= end || *p != '\n') {
                free(s);
                return 0;
            }
            (*copies)[(*n_copies)++] = s;
            p++;
            continue;
        }
        if (*n_entries == cap_e) {
            cap_e = cap_e ? 2 * cap_e : 16;
            read_entry *more = realloc(*entries, cap_e * sizeof *more);
            if (!more)
                return -1;
            *entries = more;
        }
        read_entry *e = &(*entries)[*n_entries];
        memset(e, 0, sizeof *e);
        (*n_entries)++;
        if (!(e->target = get_name(&p, end)) || !(e->staged = get_name(&p, end)) ||
            !(e->backup = get_name(&p, end)))
            return 0;
        char *q;
        e->dev = strtoull(p, &q, 10);
        e->ino = strtoull(q, &q, 10);
        if (q >= end || *q != '\n')
            return 0;
        p = q + 1;
    }
    return 0;
}

static void free_entries(read_entry *e, size_t n)
{
    for (size_t k = 0; e && k < n; k++) {
        free(e[k].target);
        free(e[k].staged);
        free(e[k].backup);
    }
    free(e);
}

static int is_new(const struct stat *sb, const read_entry *e)
{
    return (unsigned long long)sb->st_dev == e->dev && (unsigned long long)sb->st_ino == e->ino;
}

/* Puts E's old target back if its new file went in: 0 or an errno value.
 * Safe to repeat: once back, the target is not the new file any more. */
static int roll_back(const read_entry *e)
{
    struct stat sb;
    if (lstat(e->target, &sb) != 0 || !is_new(&sb, e))
        return 0; /* never swapped, or put back already */
    if (lstat(e->staged, &sb) == 0 && !is_new(&sb, e)) /* the exchange left the old here */
        return rename(e->staged, e->target) == 0 ? 0 : errno;
    if (lstat(e->backup, &sb) == 0)
        return rename(e->backup, e->target) == 0 ? 0 : errno;
    return unlink(e->target) == 0 || errno == ENOENT ? 0 : errno; /* there was none */
}

static int remove_name(const char *path)
{
    return unlink(path) == 0 || errno == ENOENT ? 0 : errno;
}

/* Finishes the journal at PATH, left by a process no longer alive: every
 * target all old or all new, then the hidden files it names and the
 * journal's copies removed. 0 or an errno value (the journal is then kept
 * for another try). */
static int recover_journal(const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return errno == ENOENT ? 0 : errno; /* another run finished it */
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        close(fd);
        return 0; /* another run is at it */
    }
    cb_buf text = {0};
    char chunk[8192];
    ssize_t got;
    while ((got = read(fd, chunk, sizeof chunk)) > 0)
        cb_buf_append(&text, chunk, (size_t)got);
    int e = got < 0 ? errno : text.oom ? ENOMEM : 0;
    char **copies = NULL;
    read_entry *entries = NULL;
    size_t n_copies = 0, n_entries = 0;
    int whole = e ? 0 : parse_journal(text.data, text.len, &copies, &n_copies, &entries,
                                      &n_entries);
    if (whole < 0)
        e = ENOMEM;
    if (!e && whole) {
        size_t pl = strlen(path);
        int done = pl > 5 && strcmp(path + pl - 5, ".done") == 0;
        char name[PATH_MAX + 8];
        for (size_t c = 0; !done && c < n_copies; c++)
            done = access(done_name(copies[c], name, sizeof name), F_OK) == 0;
        for (size_t k = n_entries; !done && !e && k-- > 0;)
            e = roll_back(&entries[k]);
        for (size_t k = 0; !e && k < n_entries; k++)
            if (!(e = remove_name(entries[k].staged)))
                e = remove_name(entries[k].backup);
        for (size_t c = 0; !e && c < n_copies; c++)
            if (!(e = remove_name(done_name(copies[c], name, sizeof name))))
                e = remove_name(copies[c]);
    }
    if (!e) /* this copy too (a torn one: its writer never began) */
        e = remove_name(path);
    free_entries(entries, n_entries);
    free_strings(copies, n_copies);
    cb_buf_free(&text);
    close(fd);
    return e;
}

/* 1 when NAME (a hidden name in a folder) was made on this host by a
 * process that is no longer alive. */
static int left_by_dead(const char *name, unsigned host)
{
    char *end;
    if (strncmp(name, HIDDEN, HIDDEN_LEN) != 0)
        return 0;
    const char *p = name + HIDDEN_LEN;
    unsigned long h = strtoul(p, &end, 16);
    if (end != p + 8 || *end != '-' || h != host)
        return 0;
    p = end + 1;
    long pid = strtol(p, &end, 10);
    if (end == p || *end != '-' || pid <= 0 || pid == (long)getpid())
        return 0;
    return kill((pid_t)pid, 0) != 0 && errno == ESRCH;
}

static int ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), t = strlen(tail);
    return n >= t && strcmp(s + n - t, tail) == 0;
}

cb_status cb_file_recover(const char *folder, cb_error *err)
{
    DIR *d = opendir(folder);
    if (!d)
        return errno == ENOENT || errno == ENOTDIR
                   ? CB_OK
                   : cb_fail(err, CB_ERR_IO, "%s: cannot read: %s", folder, strerror(errno));
    unsigned host = host_hash();
    char **names = NULL;
    size_t n = 0, cap = 0;
    int e = 0;
    for (struct dirent *de; !e && (de = readdir(d));) {
        if (!left_by_dead(de->d_name, host))
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 16;
            char **more = realloc(names, cap * sizeof *more);
            if (!more) {
                e = ENOMEM;
                break;
            }
            names = more;
        }
        size_t len = strlen(folder) + 1 + strlen(de->d_name) + 1;
        if (!(names[n] = malloc(len))) {
            e = ENOMEM;
            break;
        }
        snprintf(names[n++], len, "%s/%s", folder, de->d_name);
    }
    closedir(d);
    /* the journals first: they may need the hidden files to put old ones back */
    for (size_t k = 0; !e && k < n; k++)
        if (ends_with(names[k], ".journal") || ends_with(names[k], ".done"))
            e = recover_journal(names[k]);
    for (size_t k = 0; !e && k < n; k++)
        e = remove_name(names[k]);
    free_strings(names, n);
    if (e == ENOMEM)
        return cb_fail_nomem(err, folder);
    return e ? cb_fail(err, CB_ERR_IO, "%s: cannot clear what a killed run left: %s", folder,
                       strerror(e))
             : CB_OK;
}
