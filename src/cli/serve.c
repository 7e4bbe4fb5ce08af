/* cutboard serve: the web page and the HTTP API (src/serve/) over
 * libmicrohttpd. One thread per connection reads the request; only game and
 * check requests, once their body is in, take one of --workers slots (as
 * many again wait in a queue; past that: 503 with Retry-After), so a slow
 * client holds a connection, never a worker. Each request has a time limit
 * (generation stops, 503); uploads that outlast it are cut off; idle
 * connections close after 10 s, and a request's headers must be in within
 * 10 s however slowly they come (a watchdog); one client address holds at
 * most 16 connections. SIGTERM or SIGINT: stop accepting, let the requests
 * in flight finish, exit 0. */
#define _POSIX_C_SOURCE 200809L
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <microhttpd.h>
#include <netdb.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "serve/serve.h"
#include "serve_head.h"

static const char usage[] =
    "usage: cutboard serve [options]\n"
    "\n"
    "Serves the web page (http://127.0.0.1:8080/ by default: pick the options, see\n"
    "every sheet, download the PDF and the board file) and the HTTP API under\n"
    "/api/ (game, check, themes, health; see man cutboard). SIGTERM or Ctrl-C\n"
    "finishes the requests in flight and exits 0.\n"
    "\n"
    "      --listen ADDR:PORT  where to listen (default 127.0.0.1:8080; [::1]:PORT\n"
    "                       for IPv6; port 0 picks a free one). Any address but\n"
    "                       loopback exposes the page and the API, without\n"
    "                       passwords or TLS, to everyone who can reach it\n"
    "      --theme-dir DIR  the themes offered, by name: DIR's subfolders that hold a\n"
    "                       theme.json, or DIR itself (repeatable; default: the\n"
    "                       installed themes). Clients name themes, never paths\n"
    "      --max-nodes N    most nodes a request may make, over all its sheets\n"
    "                       (default 5000; bigger games: 422)\n"
    "      --workers N      requests generated at once, 1..64 (default 2); 8 per\n"
    "                       worker more wait, past that: 503 with Retry-After\n"
    "      --time-limit S   seconds a request may take, 1..600 (default 30): queue,\n"
    "                       upload and generation; then 503\n"
    "  -h, --help           this help\n"
    "  -V, --version        the version\n"
    "\n"
    "Exit codes: 0 stopped by SIGTERM or SIGINT, 64 bad option, 65 bad theme,\n"
    "66 missing theme folder or font, 70 internal error, 74 cannot listen.\n";

#define QUEUE_PER_WORKER 8
#define IDLE_TIMEOUT_S 10u
#define MAX_CONNECTIONS 256u
#define PER_ADDRESS_CONNECTIONS 16u /* from one client address at once */
#define HEADERS_DEADLINE_S 10       /* a request's line and headers, whole */

/* A request waiting for a worker slot, in the server's line. */
typedef struct waiter {
    struct waiter *next;
    int granted;
} waiter;


/* ---- the read deadline ----
 * libmicrohttpd's timeout is an idle one: a client that sends a header line
 * every few seconds keeps a connection (and its thread) for ever. So each
 * connection is watched: its request line and headers must be in within
 * HEADERS_DEADLINE_S of the connection's start (or of the previous answer
 * on it), and its body within the request's time limit; past that a
 * watchdog thread shuts the socket down, and libmicrohttpd closes the
 * connection. The watchdog shuts down its own duplicate of the socket, so
 * it can never touch a descriptor libmicrohttpd has closed and reused. */
typedef struct watched {
    struct watched *prev, *next;
    int fd;                     /* our duplicate of the connection's socket */
    int reading;                /* a request is being read */
    struct timespec deadline;   /* for the reading */
} watched;

typedef struct {
    pthread_mutex_t lock;
    pthread_cond_t stop_now;
    watched *first;
    int stopping;
    pthread_t thread;
} watchdog;

static struct timespec deadline_after(int seconds);
static int past(const struct timespec *d);

static void *watchdog_run(void *arg)
{
    watchdog *wd = arg;
    pthread_mutex_lock(&wd->lock);
    while (!wd->stopping) {
        for (watched *w = wd->first; w; w = w->next)
            if (w->reading && past(&w->deadline)) {
                shutdown(w->fd, SHUT_RDWR); /* the connection's thread sees the end */
                w->reading = 0;
            }
        struct timespec t;
        clock_gettime(CLOCK_REALTIME, &t);
        t.tv_nsec += 200000000L;
        if (t.tv_nsec >= 1000000000L)
            t.tv_sec++, t.tv_nsec -= 1000000000L;
        pthread_cond_timedwait(&wd->stop_now, &wd->lock, &t);
    }
    pthread_mutex_unlock(&wd->lock);
    return NULL;
}

/* MHD_OPTION_NOTIFY_CONNECTION: a connection starts (its headers' clock
 * starts) or ends. */
static void on_connection(void *cls, struct MHD_Connection *c, void **socket_context,
                          enum MHD_ConnectionNotificationCode code)
{
    watchdog *wd = cls;
    if (code == MHD_CONNECTION_NOTIFY_STARTED) {
        const union MHD_ConnectionInfo *info =
            MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
        watched *w = info ? calloc(1, sizeof *w) : NULL;
        if (w && (w->fd = fcntl(info->connect_fd, F_DUPFD_CLOEXEC, 0)) < 0) {
            free(w);
            w = NULL;
        }
        *socket_context = w;
        if (!w) /* out of descriptors or memory: unwatched, the idle timeout holds */
            return;
        w->reading = 1;
        w->deadline = deadline_after(HEADERS_DEADLINE_S);
        pthread_mutex_lock(&wd->lock);
        w->next = wd->first;
        if (wd->first)
            wd->first->prev = w;
        wd->first = w;
        pthread_mutex_unlock(&wd->lock);
    } else if (code == MHD_CONNECTION_NOTIFY_CLOSED && *socket_context) {
        watched *w = *socket_context;
        pthread_mutex_lock(&wd->lock);
        if (w->prev)
            w->prev->next = w->next;
        else
            wd->first = w->next;
        if (w->next)
            w->next->prev = w->prev;
        pthread_mutex_unlock(&wd->lock);
        close(w->fd);
        free(w);
        *socket_context = NULL;
    }
}

/* Connection C now reads until DEADLINE (READING 1) or is done reading. */
static void watch_reading(watchdog *wd, struct MHD_Connection *c, int reading,
                          const struct timespec *deadline)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    watched *w = info ? info->socket_context : NULL;
    if (!w)
        return;
    pthread_mutex_lock(&wd->lock);
    w->reading = reading;
    if (deadline)
        w->deadline = *deadline;
    pthread_mutex_unlock(&wd->lock);
}

typedef struct {
    const cb_serve *serve;
    int workers, queue;
    int time_limit;         /* seconds */
    pthread_mutex_t lock;
    pthread_cond_t changed;
    int running, waiting;   /* worker slots taken, requests waiting for one */
    waiter *first, *last;   /* the waiting requests, in arrival order */
    long in_flight;         /* requests begun and not yet completed */
    watchdog watch;
} server;

/* One request: its query, its body and when it began. */
typedef struct {
    char *query;
    char *body;
    size_t len, cap;
    int begun, too_big, refused;
    struct timespec deadline;
    serve_head_uri target;  /* the request target before libmicrohttpd splits it */
} request;

static struct timespec deadline_after(int seconds)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    t.tv_sec += seconds;
    return t;
}

static int past(const struct timespec *d)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return now.tv_sec > d->tv_sec || (now.tv_sec == d->tv_sec && now.tv_nsec >= d->tv_nsec);
}

static int stop_past_deadline(void *ctx)
{
    return past(ctx);
}

/* Takes a worker slot: 0, or -1 when the queue is full or the deadline
 * passes while waiting. Waiters are served in arrival order: a slot given
 * back goes to the longest waiting request. The wait is on CLOCK_REALTIME
 * (pthread_cond_timedwait's default), bounded by the time left. */
static int slot_take(server *sv, const struct timespec *deadline)
{
    waiter me = {NULL, 0};
    pthread_mutex_lock(&sv->lock);
    if (sv->running < sv->workers && !sv->first) {
        sv->running++;
        pthread_mutex_unlock(&sv->lock);
        return 0;
    }
    if (sv->waiting >= sv->queue) {
        pthread_mutex_unlock(&sv->lock);
        return -1;
    }
    sv->waiting++;
    *(sv->first ? &sv->last->next : &sv->first) = &me;
    sv->last = &me;
    while (!me.granted) {
        struct timespec now, left, until;
        clock_gettime(CLOCK_MONOTONIC, &now);
        left.tv_sec = deadline->tv_sec - now.tv_sec;
        left.tv_nsec = deadline->tv_nsec - now.tv_nsec;
        if (left.tv_nsec < 0)
            left.tv_sec--, left.tv_nsec += 1000000000L;
        if (left.tv_sec < 0)
            break;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_sec += left.tv_sec;
        until.tv_nsec += left.tv_nsec;
        if (until.tv_nsec >= 1000000000L)
            until.tv_sec++, until.tv_nsec -= 1000000000L;
        pthread_cond_timedwait(&sv->changed, &sv->lock, &until);
    }
    if (!me.granted) { /* timed out: leave the line */
        waiter **p = &sv->first, *prev = NULL;
        while (*p != &me)
            prev = *p, p = &(*p)->next;
        *p = me.next;
        if (sv->last == &me)
            sv->last = prev;
    }
    sv->waiting--;
    pthread_mutex_unlock(&sv->lock);
    return me.granted ? 0 : -1;
}

/* Gives the slot to the first waiter, or back to the pool. */
static void slot_give(server *sv)
{
    pthread_mutex_lock(&sv->lock);
    waiter *w = sv->first;
    if (w) {
        sv->first = w->next;
        if (!sv->first)
            sv->last = NULL;
        w->granted = 1; /* the slot passes to it: running stays */
        pthread_cond_broadcast(&sv->changed);
    } else {
        sv->running--;
    }
    pthread_mutex_unlock(&sv->lock);
}

/* MHD calls this with the request line's URI before anything else; what it
 * returns is the request's state. */
static void *on_uri(void *cls, const char *uri, struct MHD_Connection *c)
{
    server *sv = cls;
    (void)c;
    request *rq = calloc(1, sizeof *rq);
    const char *q = uri ? strchr(uri, '?') : NULL;
    if (rq && !(rq->query = strdup(q ? q + 1 : ""))) {
        free(rq);
        rq = NULL;
    }
    if (rq) {
        rq->deadline = deadline_after(sv->time_limit);
        serve_head_note_uri(&rq->target, uri);
    }
    pthread_mutex_lock(&sv->lock);
    sv->in_flight++;
    pthread_mutex_unlock(&sv->lock);
    return rq;
}

static void on_completed(void *cls, struct MHD_Connection *c, void **con_cls,
                         enum MHD_RequestTerminationCode why)
{
    server *sv = cls;
    request *rq = *con_cls;
    (void)why;
    struct timespec next = deadline_after(HEADERS_DEADLINE_S);
    watch_reading(&sv->watch, c, 1, &next); /* a next request on the connection */
    if (rq) {
        free(rq->query);
        free(rq->body);
        free(rq);
    }
    *con_cls = NULL;
    pthread_mutex_lock(&sv->lock);
    sv->in_flight--;
    pthread_cond_broadcast(&sv->changed);
    pthread_mutex_unlock(&sv->lock);
}

static enum MHD_Result send_response(struct MHD_Connection *c, cb_serve_response *r)
{
    struct MHD_Response *m;
    if (r->body_static)
        m = MHD_create_response_from_buffer(r->len, r->body, MHD_RESPMEM_PERSISTENT);
    else
        m = MHD_create_response_from_buffer(r->len, r->body, MHD_RESPMEM_MUST_FREE);
    if (!m) {
        cb_serve_response_free(r);
        return MHD_NO;
    }
    r->body = NULL; /* MHD frees it */
    MHD_add_response_header(m, MHD_HTTP_HEADER_CONTENT_TYPE, r->content_type);
    MHD_add_response_header(m, "X-Content-Type-Options", "nosniff");
    MHD_add_response_header(m, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
    if (strncmp(r->content_type, "text/html", 9) == 0)
        MHD_add_response_header(m, "Content-Security-Policy",
                                "default-src 'none'; script-src 'unsafe-inline'; "
                                "style-src 'unsafe-inline'; img-src blob: data:; "
                                "connect-src 'self'; form-action 'none'; base-uri 'none'; "
                                "frame-ancestors 'none'");
    if (r->disposition[0])
        MHD_add_response_header(m, MHD_HTTP_HEADER_CONTENT_DISPOSITION, r->disposition);
    if (r->seed[0])
        MHD_add_response_header(m, "X-Cutboard-Seed", r->seed);
    if (r->allow)
        MHD_add_response_header(m, MHD_HTTP_HEADER_ALLOW, r->allow);
    if (r->retry_after) {
        char s[16];
        snprintf(s, sizeof s, "%d", r->retry_after);
        MHD_add_response_header(m, MHD_HTTP_HEADER_RETRY_AFTER, s);
    }
    enum MHD_Result rc = MHD_queue_response(c, (unsigned)r->status, m);
    MHD_destroy_response(m);
    return rc;
}

static enum MHD_Result send_error(struct MHD_Connection *c, int status, const char *message,
                                  int retry_after)
{
    cb_serve_response r;
    memset(&r, 0, sizeof r);
    cb_serve_error(&r, status, "", CB_SERVE_UNNAMED, message);
    r.retry_after = retry_after;
    return send_response(c, &r);
}

/* Counts the Content-Length headers (MHD_get_connection_values' iterator). */
static enum MHD_Result count_length(void *cls, enum MHD_ValueKind kind, const char *key,
                                    const char *value)
{
    int *n = cls;
    (void)kind, (void)value;
    *n += key && strcasecmp(key, MHD_HTTP_HEADER_CONTENT_LENGTH) == 0;
    return MHD_YES;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url,
                                  const char *method, const char *version,
                                  const char *upload, size_t *upload_size, void **con_cls)
{
    server *sv = cls;
    request *rq = *con_cls;
    if (!rq)
        return MHD_NO; /* out of memory in on_uri */
    if (!rq->begun) {
        rq->begun = 1;
        watch_reading(&sv->watch, c, 1, &rq->deadline); /* the headers are in: the body */
        const char *cl = MHD_lookup_connection_value(c, MHD_HEADER_KIND,
                                                     MHD_HTTP_HEADER_CONTENT_LENGTH);
        int lengths = 0;
        MHD_get_connection_values(c, MHD_HEADER_KIND, count_length, &lengths);
        if (!serve_head_plain(c, &rq->target, method, url, version)) {
            rq->refused = 1;
            watch_reading(&sv->watch, c, 0, NULL);
            return send_error(c, 400, "a NUL byte in the request line or a header line, or "
                              "a folded header line: send plain HTTP/1.1", 0);
        }
        if (lengths > 1) {
            rq->refused = 1;
            watch_reading(&sv->watch, c, 0, NULL);
            return send_error(c, 400, "Content-Length is given more than once", 0);
        }
        if (cl && strtoull(cl, NULL, 10) > CB_SERVE_MAX_BODY) {
            rq->refused = 1;
            return send_error(c, 413, "the request body is larger than 1 MiB", 0);
        }
        return MHD_YES;
    }
    if (rq->refused)
        return MHD_YES;
    if (*upload_size) {
        if (past(&rq->deadline))
            return MHD_NO; /* an upload slower than the time limit: cut off */
        size_t n = *upload_size;
        *upload_size = 0;
        if (rq->too_big || rq->len + n > CB_SERVE_MAX_BODY) {
            rq->too_big = 1; /* chunked: read to its end, then 413 */
            free(rq->body);
            rq->body = NULL;
            rq->len = rq->cap = 0;
            return MHD_YES;
        }
        if (rq->len + n + 1 > rq->cap) {
            size_t cap = rq->cap ? rq->cap : 4096;
            while (cap < rq->len + n + 1)
                cap *= 2;
            char *bigger = realloc(rq->body, cap);
            if (!bigger)
                return MHD_NO;
            rq->body = bigger;
            rq->cap = cap;
        }
        memcpy(rq->body + rq->len, upload, n);
        rq->len += n;
        rq->body[rq->len] = 0;
        return MHD_YES;
    }
    watch_reading(&sv->watch, c, 0, NULL); /* the whole request is in */
    if (rq->too_big)
        return send_error(c, 413, "the request body is larger than 1 MiB", 0);
    cb_serve_request req = {method, url, rq->query, rq->body ? rq->body : "", rq->len,
                            stop_past_deadline, &rq->deadline};
    int heavy = strcmp(url, "/api/game") == 0 || strcmp(url, "/api/check") == 0;
    if (heavy && slot_take(sv, &rq->deadline) != 0)
        return send_error(c, 503, "the server is busy: try again shortly", 2);
    if (heavy) /* test hook, not for users: a slow generation */
        cli_test_hold("CUTBOARD_TEST_SERVE_HOLD_MS");
    cb_serve_response r;
    cb_serve_handle(sv->serve, &req, &r);
    if (heavy)
        slot_give(sv);
    return send_response(c, &r);
}

static void stop_watchdog(watchdog *wd, int running)
{
    if (running) {
        pthread_mutex_lock(&wd->lock);
        wd->stopping = 1;
        pthread_cond_signal(&wd->stop_now);
        pthread_mutex_unlock(&wd->lock);
        pthread_join(wd->thread, NULL);
    }
    pthread_cond_destroy(&wd->stop_now);
    pthread_mutex_destroy(&wd->lock);
}

/* --listen ADDR:PORT into *SA; 0, or the exit code after the error line. */
static int parse_listen(const char *text, struct sockaddr_storage *sa, int *v6, int *loopback)
{
    char host[64];
    const char *colon = strrchr(text, ':');
    size_t n = colon ? (size_t)(colon - text) : 0;
    if (!colon || n == 0 || n >= sizeof host)
        return cli_fail(CB_ERR_USAGE, "--listen: \"%s\" is not ADDRESS:PORT (e.g. "
                        "127.0.0.1:8080)", text);
    memcpy(host, text, n);
    host[n] = 0;
    if (host[0] == '[' && n > 2 && host[n - 1] == ']') {
        memmove(host, host + 1, n - 2);
        host[n - 2] = 0;
    }
    int port;
    if (cli_int("--listen (port)", colon + 1, 0, 65535, &port))
        return CLI_EXIT_USAGE;
    memset(sa, 0, sizeof *sa);
    struct sockaddr_in *a4 = (struct sockaddr_in *)sa;
    struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)sa;
    if (inet_pton(AF_INET, host, &a4->sin_addr) == 1) {
        a4->sin_family = AF_INET;
        a4->sin_port = htons((uint16_t)port);
        *v6 = 0;
        *loopback = (ntohl(a4->sin_addr.s_addr) >> 24) == 127;
    } else if (inet_pton(AF_INET6, host, &a6->sin6_addr) == 1) {
        a6->sin6_family = AF_INET6;
        a6->sin6_port = htons((uint16_t)port);
        *v6 = 1;
        *loopback = memcmp(&a6->sin6_addr, &in6addr_loopback, sizeof in6addr_loopback) == 0;
    } else {
        return cli_fail(CB_ERR_USAGE, "--listen: \"%s\" is not an IP address (names are not "
                        "looked up)", host);
    }
    return 0;
}

int cli_serve(int argc, char **argv)
{
    cli_args a;
    const char *listen = "127.0.0.1:8080";
    const char *dirs[16];
    size_t n_dirs = 0;
    int max_nodes = CB_SERVE_MAX_NODES, workers = 2, time_limit = 30;
    cli_args_init(&a, argc, argv);
    while (cli_args_next(&a)) {
        if (cli_help_version(&a, usage)) {
            return 0;
        } else if (cli_value(&a, "--listen")) {
            listen = a.val;
        } else if (cli_value(&a, "--theme-dir")) {
            if (n_dirs == sizeof dirs / sizeof dirs[0])
                return cli_fail(CB_ERR_USAGE, "--theme-dir: at most %zu folders",
                                sizeof dirs / sizeof dirs[0]);
            dirs[n_dirs++] = a.val;
        } else if (cli_value(&a, "--max-nodes")) {
            if (cli_int("--max-nodes", a.val, 100, 3000000, &max_nodes))
                return CLI_EXIT_USAGE;
        } else if (cli_value(&a, "--workers")) {
            if (cli_int("--workers", a.val, 1, 64, &workers))
                return CLI_EXIT_USAGE;
        } else if (cli_value(&a, "--time-limit")) {
            if (cli_int("--time-limit", a.val, 1, 600, &time_limit))
                return CLI_EXIT_USAGE;
        } else {
            return a.bad ? CLI_EXIT_USAGE : cli_unknown("serve", a.arg);
        }
    }
    if (a.bad)
        return CLI_EXIT_USAGE;
    struct sockaddr_storage sa;
    int v6 = 0, loopback = 0;
    int rc = parse_listen(listen, &sa, &v6, &loopback);
    if (rc)
        return rc;

    /* The installed themes (the folder that holds icons/default) unless
     * --theme-dir names others; the font as the game command finds it. */
    char theme_buf[4096], font[4096];
    if (n_dirs == 0) {
        if ((rc = cli_data_path("icons/default", theme_buf, sizeof theme_buf)))
            return rc;
        theme_buf[strlen(theme_buf) - strlen("/default")] = 0;
        dirs[n_dirs++] = theme_buf;
    }
    if ((rc = cli_data_path("fonts/DejaVuSans.ttf", font, sizeof font)))
        return rc;
    cb_render_options dates;
    memset(&dates, 0, sizeof dates);
    if ((rc = cli_source_date(&dates)))
        return rc;
    cb_serve_config cfg = {dirs, n_dirs, NULL, font, (size_t)max_nodes, dates.dated,
                           dates.source_date};
    cb_serve *s = NULL;
    cb_error err = {CB_OK, "", 0, ""};
    if (cb_serve_new(&cfg, &s, &err) != CB_OK)
        return cli_error(err.status, &err);

    server sv;
    memset(&sv, 0, sizeof sv);
    sv.serve = s;
    sv.workers = workers;
    sv.queue = workers * QUEUE_PER_WORKER;
    sv.time_limit = time_limit;
    pthread_mutex_init(&sv.lock, NULL);
    pthread_cond_init(&sv.changed, NULL);

    /* The stop signals are held in every thread (MHD's inherit the mask)
     * and taken by sigwait below. */
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    sigaddset(&stop, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &stop, NULL);

    pthread_mutex_init(&sv.watch.lock, NULL);
    pthread_cond_init(&sv.watch.stop_now, NULL);
    int watching = pthread_create(&sv.watch.thread, NULL, watchdog_run, &sv.watch) == 0;
    /* No address reuse option: libmicrohttpd's sets SO_REUSEPORT, and two
     * servers would then share the port. Its default, SO_REUSEADDR, lets a
     * restarted server bind while old connections linger, never twice. */
    unsigned flags = MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD |
                     MHD_USE_ITC | (v6 ? MHD_USE_IPv6 : 0);
    struct MHD_Daemon *d = !watching ? NULL : MHD_start_daemon(
        flags, 0, NULL, NULL, on_request, &sv, MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&sa,
        MHD_OPTION_URI_LOG_CALLBACK, on_uri, &sv, MHD_OPTION_NOTIFY_COMPLETED, on_completed,
        &sv, MHD_OPTION_NOTIFY_CONNECTION, on_connection, &sv.watch,
        MHD_OPTION_CONNECTION_TIMEOUT, IDLE_TIMEOUT_S, MHD_OPTION_CONNECTION_LIMIT,
        MAX_CONNECTIONS, MHD_OPTION_PER_IP_CONNECTION_LIMIT, PER_ADDRESS_CONNECTIONS,
        MHD_OPTION_END);
    if (!d) {
        int e = watching ? errno : EAGAIN;
        stop_watchdog(&sv.watch, watching);
        cb_serve_free(s);
        return cli_fail(CB_ERR_IO, "--listen: cannot listen on %s: %s", listen,
                        e ? strerror(e) : "failed");
    }
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
    unsigned port = info ? info->port : 0;
    char shown[80];
    snprintf(shown, sizeof shown, "%.*s:%u", (int)(strrchr(listen, ':') - listen), listen,
             port);
    cli_note("serving http://%s/ (%zu theme%s, %d worker%s; Ctrl-C stops)",
             shown, cb_serve_theme_count(s), cb_serve_theme_count(s) == 1 ? "" : "s", workers,
             workers == 1 ? "" : "s");
    if (!loopback)
        cli_note("%s is not a loopback address: everyone who can reach it "
                 "can use the page and the API", shown);
    fflush(stderr);

    int sig = 0;
    while (sigwait(&stop, &sig) != 0)
        ;
    /* Drain: no new connections; the requests in flight finish (within
     * the time limit and a little more to send them). */
    MHD_socket listener = MHD_quiesce_daemon(d);
    if (listener != MHD_INVALID_SOCKET)
        close(listener);
    struct timespec until = deadline_after(time_limit + 5);
    pthread_mutex_lock(&sv.lock);
    while (sv.in_flight > 0 && !past(&until)) {
        struct timespec t;
        clock_gettime(CLOCK_REALTIME, &t);
        t.tv_nsec += 50000000L;
        if (t.tv_nsec >= 1000000000L)
            t.tv_sec++, t.tv_nsec -= 1000000000L;
        pthread_cond_timedwait(&sv.changed, &sv.lock, &t);
    }
    long left = sv.in_flight;
    pthread_mutex_unlock(&sv.lock);
    MHD_stop_daemon(d);
    stop_watchdog(&sv.watch, 1);
    pthread_cond_destroy(&sv.changed);
    pthread_mutex_destroy(&sv.lock);
    cb_serve_free(s);
    if (left > 0)
        cli_note("stopped with %ld request%s unfinished", left,
                 left == 1 ? "" : "s");
    else
        cli_note("stopped (%s)", sig == SIGTERM ? "SIGTERM" : sig == SIGINT
                 ? "SIGINT" : "SIGHUP");
    return 0;
}
