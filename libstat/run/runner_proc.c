/* Running one run in a child process: its own process group (so the whole group can be killed
 * on timeout, on cancel and after the run, leaving no strays), stdout and stderr captured
 * separately, the exit noticed at once through a pidfd (so wall times are not rounded to the
 * polling interval), user and system time from wait4. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "run/runner_internal.h"
#include "util/text.h"

#define CAPTURE_MAX TALLY__CAPTURE_MAX
#define POLL_MS 100

void tally__die_with_parent(void)
{
    prctl(PR_SET_PDEATHSIG, SIGKILL);
}

void tally__reset_signals(void)
{
    struct sigaction dfl;
    memset(&dfl, 0, sizeof(dfl));
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    for (int sig = 1; sig < NSIG; sig++)
        sigaction(sig, &dfl, NULL); /* SIGKILL, SIGSTOP and unused numbers just fail */
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
}

int tally__pidfd_open(pid_t pid)
{
#ifdef SYS_pidfd_open
    return (int)syscall(SYS_pidfd_open, pid, 0);
#else
    (void)pid;
    return -1;
#endif
}

static void write_all_fd(int fd, const char *s, size_t n)
{
    while (n > 0) {
        ssize_t put = write(fd, s, n);
        if (put < 0 && errno == EINTR)
            continue;
        if (put <= 0)
            return;
        s += put;
        n -= (size_t)put;
    }
}

/* The run's leader, forked by the keeper: never returns. */
static void child_main(const tally__wl *wl, const char *sweep_value, char *const *argv,
                       int out_fd, int err_fd, pid_t keeper)
{
    setpgid(0, 0);
    tally__die_with_parent();
    if (getppid() != keeper)
        _exit(127);
    int null_fd = open("/dev/null", O_RDONLY);
    if (null_fd >= 0) {
        dup2(null_fd, STDIN_FILENO);
        close(null_fd);
    }
    dup2(out_fd, STDOUT_FILENO);
    dup2(err_fd, STDERR_FILENO);
    if (wl->server.netns_fd >= 0 && setns(wl->server.netns_fd, CLONE_NEWNET) != 0) {
        char msg[160];
        int n = snprintf(msg, sizeof(msg), "cannot join the network namespace of the %s: %s\n",
                         wl->server.what, strerror(errno));
        write_all_fd(STDERR_FILENO, msg, n > 0 ? (size_t)n : 0);
        _exit(126);
    }
    if (argv != NULL) {
        execvp(argv[0], argv);
        char msg[512];
        int n = snprintf(msg, sizeof(msg), "cannot run %s: %s\n", argv[0], strerror(errno));
        write_all_fd(STDERR_FILENO, msg, n > 0 ? (size_t)n : 0);
        _exit(127);
    }
    size_t mc = wl->metric_count ? wl->metric_count : 1;
    double *values = calloc(mc, sizeof(*values));
    tally__hdr_recorder *hists = calloc(mc, sizeof(*hists));
    char why[256] = "out of memory";
    tally__buf out = TALLY__BUF_INIT;
    if (values == NULL || hists == NULL ||
        wl->w->body(wl, sweep_value, values, hists, why) != 0 ||
        tally__body_output_write(&out, wl, values, hists) != TALLY_OK) {
        write_all_fd(STDERR_FILENO, why, strlen(why));
        write_all_fd(STDERR_FILENO, "\n", 1);
        _exit(1);
    }
    write_all_fd(STDOUT_FILENO, out.data ? out.data : "", out.len);
    _exit(0);
}

/* ---- the keeper: the run's supervisor ----
 * Between the runner and the run's leader sits a keeper process that never execs. It is a child
 * subreaper (PR_SET_CHILD_SUBREAPER), so every process of the run that leaves the process group
 * (a daemon's setsid, a double fork) and is orphaned becomes its child instead of init's. When
 * the leader exits, the keeper notices without reaping it (waitid WNOWAIT), kills the process
 * group while the leader's pid still holds the group id (so no new group can have taken it),
 * reaps the leader, then kills and records every process still left under it. It also does the
 * killing on timeout or cancel (the runner closes the abort pipe), and when the runner itself
 * dies (the same pipe's end of file). It sends the outcome in one message. */

typedef struct keeper_report {
    int status;         /* the leader's wait status */
    double start, end;  /* tally__now() at the leader's fork and at its exit */
    struct timeval utime, stime;
    unsigned escaped;   /* processes outside the run's group still running after it, killed */
    char names[400];    /* "sleep (pid 123), ..." */
} keeper_report;

/* The children of `self`, from /proc (the children file needs CONFIG_PROC_CHILDREN). */
static size_t children_of(pid_t self, pid_t *pids, pid_t *pgids, char (*comms)[32], size_t cap)
{
    DIR *d = opendir("/proc");
    if (d == NULL)
        return 0;
    size_t n = 0;
    struct dirent *e;
    while (n < cap && (e = readdir(d)) != NULL) {
        if (e->d_name[0] < '1' || e->d_name[0] > '9')
            continue;
        char path[64], line[512];
        snprintf(path, sizeof(path), "/proc/%.20s/stat", e->d_name);
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
            continue;
        ssize_t got = read(fd, line, sizeof(line) - 1);
        close(fd);
        if (got <= 0)
            continue;
        line[got] = '\0';
        /* pid (comm) state ppid pgrp ...; comm may hold spaces and parentheses */
        char *open_paren = strchr(line, '('), *close_paren = strrchr(line, ')');
        int ppid, pgrp;
        char state;
        if (open_paren == NULL || close_paren == NULL ||
            sscanf(close_paren + 1, " %c %d %d", &state, &ppid, &pgrp) != 3 || ppid != self)
            continue;
        pids[n] = (pid_t)atoi(line);
        pgids[n] = (pid_t)pgrp;
        size_t len = (size_t)(close_paren - open_paren - 1);
        if (len > 31)
            len = 31;
        memcpy(comms[n], open_paren + 1, len);
        comms[n][len] = '\0';
        n++;
    }
    closedir(d);
    return n;
}

/* Kill everything left under the keeper, recording the processes that had left the run's
 * group. */
static void kill_leftovers(keeper_report *rep, pid_t leader)
{
    enum { CAP = 256, NAMED = 32 };
    pid_t pids[CAP], pgids[CAP], named[NAMED];
    char comms[CAP][32];
    size_t nnamed = 0;
    for (int round = 0; round < 100000; round++) {
        while (waitpid(-1, NULL, WNOHANG) > 0)
            ;
        errno = 0;
        if (waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD)
            return; /* no child left at all: the usual case, without reading /proc */
        size_t n = children_of(getpid(), pids, pgids, comms, CAP);
        for (size_t i = 0; i < n; i++) {
            if (pgids[i] != leader) {
                int seen = 0;
                for (size_t k = 0; k < nnamed; k++)
                    seen |= named[k] == pids[i];
                if (!seen) {
                    if (nnamed < NAMED)
                        named[nnamed++] = pids[i];
                    rep->escaped++;
                    size_t len = strlen(rep->names);
                    if (len + 48 < sizeof(rep->names))
                        snprintf(rep->names + len, sizeof(rep->names) - len, "%s%s (pid %d)",
                                 len ? ", " : "", comms[i], (int)pids[i]);
                }
                if (pgids[i] == pids[i])
                    killpg(pids[i], SIGKILL); /* a group of its own (setsid): all of it */
            }
            kill(pids[i], SIGKILL);
        }
        /* Wait for one of them to go; SIGKILL is not refused, so this returns. */
        while (waitpid(-1, NULL, 0) < 0 && errno == EINTR)
            ;
    }
}

/* Close every descriptor but those in keep: the caller's files (a journal and its lock, a
 * host's sockets) are not the run's, and a run that outlives its caller must not hold them. */
static void close_other_fds(const int *keep, size_t nkeep)
{
    enum { MAX_FDS = 4096 };
    static int fds[MAX_FDS];
    size_t n = 0;
    DIR *d = opendir("/proc/self/fd");
    if (d != NULL) {
        struct dirent *e;
        while (n < MAX_FDS && (e = readdir(d)) != NULL)
            if (e->d_name[0] >= '0' && e->d_name[0] <= '9')
                fds[n++] = atoi(e->d_name);
        int dfd = dirfd(d);
        for (size_t i = 0; i < n; i++)
            if (fds[i] == dfd)
                fds[i] = -1;
        closedir(d);
    } else {
        for (int fd = 3; fd < 1024; fd++)
            fds[n++] = fd;
    }
    for (size_t i = 0; i < n; i++) {
        int keep_it = fds[i] <= STDERR_FILENO;
        for (size_t k = 0; k < nkeep; k++)
            keep_it |= fds[i] == keep[k];
        if (fds[i] >= 0 && !keep_it)
            close(fds[i]);
    }
}

static void keeper_main(const tally__wl *wl, const char *sweep_value, char *const *argv,
                        int out_w, int err_w, int report_w, int abort_r, pid_t runner)
{
    setpgid(0, 0);
    if (getppid() != runner)
        _exit(1);
    tally__reset_signals(); /* SIGCHLD must not be ignored here, nor the caller's handlers run */
    const int keep[] = { out_w, err_w, report_w, abort_r, wl->server.netns_fd };
    close_other_fds(keep, TALLY__COUNT(keep));
    prctl(PR_SET_CHILD_SUBREAPER, 1);
    keeper_report rep;
    memset(&rep, 0, sizeof(rep));
    pid_t self = getpid();
    rep.start = tally__now();
    pid_t leader = fork();
    if (leader < 0) {
        rep.status = -1;
        write_all_fd(report_w, (const char *)&rep, sizeof(rep));
        _exit(0);
    }
    if (leader == 0) {
        close(report_w);
        close(abort_r);
        child_main(wl, sweep_value, argv, out_w, err_w, self);
    }
    setpgid(leader, leader);
    close(out_w); /* only the run's processes hold the output pipes */
    close(err_w);
    int pidfd = tally__pidfd_open(leader);
    int aborted = 0;
    for (;;) {
        siginfo_t si;
        memset(&si, 0, sizeof(si));
        if (waitid(P_PID, (id_t)leader, &si, WEXITED | WNOHANG | WNOWAIT) != 0 ||
            si.si_pid == leader)
            break;
        struct pollfd fds[2];
        nfds_t n = 0;
        int abort_i = -1;
        if (!aborted) {
            abort_i = (int)n;
            fds[n++] = (struct pollfd){ abort_r, POLLIN, 0 };
        }
        if (pidfd >= 0)
            fds[n++] = (struct pollfd){ pidfd, POLLIN, 0 };
        poll(fds, n, pidfd >= 0 ? -1 : 5);
        if (abort_i >= 0 && (fds[abort_i].revents & (POLLIN | POLLHUP | POLLERR))) {
            aborted = 1; /* timeout, cancel, or the runner died */
            killpg(leader, SIGKILL);
        }
    }
    rep.end = tally__now();
    /* The leader is a zombie, not reaped: its pid, hence the group id, is still taken. */
    killpg(leader, SIGKILL);
    struct rusage ru;
    memset(&ru, 0, sizeof(ru));
    while (wait4(leader, &rep.status, 0, &ru) < 0 && errno == EINTR)
        ;
    rep.utime = ru.ru_utime;
    rep.stime = ru.ru_stime;
    kill_leftovers(&rep, leader);
    write_all_fd(report_w, (const char *)&rep, sizeof(rep));
    _exit(0);
}

/* ---- capture: the head and the tail of a long output ---- */

#define HEAD_MAX (CAPTURE_MAX / 2)
#define TAIL_MAX (CAPTURE_MAX - HEAD_MAX)

typedef struct capture {
    tally__buf head;  /* the first HEAD_MAX bytes */
    char *ring;       /* then the last TAIL_MAX bytes, circular */
    size_t ring_pos;  /* where the next byte goes */
    size_t ring_len;
    size_t total;     /* bytes written by the run */
    int failed;
} capture;

static void capture_add(capture *c, const char *s, size_t n)
{
    c->total += n;
    if (c->head.len < HEAD_MAX) {
        size_t take = HEAD_MAX - c->head.len < n ? HEAD_MAX - c->head.len : n;
        tally__buf_append(&c->head, s, take);
        s += take;
        n -= take;
    }
    if (n == 0)
        return;
    if (c->ring == NULL && (c->ring = tally__malloc(TAIL_MAX)) == NULL) {
        c->failed = 1;
        return;
    }
    if (n > TAIL_MAX) {
        s += n - TAIL_MAX;
        n = TAIL_MAX;
    }
    size_t first = TAIL_MAX - c->ring_pos < n ? TAIL_MAX - c->ring_pos : n;
    memcpy(c->ring + c->ring_pos, s, first);
    memcpy(c->ring, s + first, n - first);
    c->ring_pos = (c->ring_pos + n) % TAIL_MAX;
    c->ring_len = c->ring_len + n > TAIL_MAX ? TAIL_MAX : c->ring_len + n;
}

/* The captured text: everything, or (truncated) the head up to its last line end and the tail
 * from its first line start, so no line is spliced from two. */
static int capture_finish(char **out, size_t *len, capture *c)
{
    tally__buf b = c->head;
    c->head = (tally__buf)TALLY__BUF_INIT;
    int truncated = c->total > b.len + c->ring_len;
    if (truncated) {
        while (b.len > 0 && b.data[b.len - 1] != '\n')
            b.len--;
    }
    size_t start = c->ring_len < TAIL_MAX ? 0 : c->ring_pos, skip = 0;
    if (truncated) {
        while (skip < c->ring_len && c->ring[(start + skip) % TAIL_MAX] != '\n')
            skip++;
        if (skip < c->ring_len)
            skip++;
    }
    size_t first = c->ring_len - skip;
    size_t at = (start + skip) % TAIL_MAX;
    size_t run1 = TAIL_MAX - at < first ? TAIL_MAX - at : first;
    if (c->ring_len > 0) {
        tally__buf_append(&b, c->ring + at, run1);
        tally__buf_append(&b, c->ring, first - run1);
    }
    tally__buf_puts(&b, "");
    tally__free_mem(c->ring);
    c->ring = NULL;
    if (c->failed) {
        tally__buf_dispose(&b);
        return TALLY_ENOMEM;
    }
    return tally__buf_detach(out, len, &b);
}

/* Read what is available on fd; returns 0 at end of file, 1 otherwise. */
static int drain(int fd, capture *c)
{
    char chunk[65536];
    ssize_t got = read(fd, chunk, sizeof(chunk));
    if (got < 0)
        return errno == EINTR || errno == EAGAIN ? 1 : 0;
    if (got == 0)
        return 0;
    capture_add(c, chunk, (size_t)got);
    return 1;
}

static double tv_seconds(struct timeval tv)
{
    return (double)tv.tv_sec + (double)tv.tv_usec * 1e-6;
}

/* Close the run's four pipes (those created so far) and report why the run cannot start. */
static int pipes_failed(int pipes[4][2], const char *what, int err, const char *hint)
{
    for (int i = 0; i < 4; i++)
        for (int k = 0; k < 2; k++)
            if (pipes[i][k] >= 0)
                close(pipes[i][k]);
    return tally__error(TALLY_ERUN, "cannot %s for the run: %s (%s)", what, strerror(err), hint);
}

int tally__run_child(tally__run_output *o, const tally__wl *wl, const char *sweep_value,
                     char *const *argv, double timeout, tally__poll_fn poll_fn, void *poll_user)
{
    memset(o, 0, sizeof(*o));
    int pipes[4][2] = { { -1, -1 }, { -1, -1 }, { -1, -1 }, { -1, -1 } };
    int *out_p = pipes[0], *err_p = pipes[1], *rep_p = pipes[2], *abort_p = pipes[3];
    for (int i = 0; i < 4; i++)
        if (pipe2(pipes[i], O_CLOEXEC) != 0)
            return pipes_failed(pipes, "create a pipe", errno,
                                "too many open files? raise ulimit -n");
    double start = tally__now();
    pid_t runner = getpid();
    pid_t keeper = fork();
    if (keeper < 0)
        return pipes_failed(pipes, "fork", errno, "too many processes? see ulimit -u");
    if (keeper == 0) {
        close(out_p[0]);
        close(err_p[0]);
        close(rep_p[0]);
        close(abort_p[1]);
        keeper_main(wl, sweep_value, argv, out_p[1], err_p[1], rep_p[1], abort_p[0], runner);
    }
    setpgid(keeper, keeper);
    close(out_p[1]);
    close(err_p[1]);
    close(rep_p[1]);
    close(abort_p[0]);
    int abort_w = abort_p[1];

    capture out = { TALLY__BUF_INIT, NULL, 0, 0, 0, 0 };
    capture err = { TALLY__BUF_INIT, NULL, 0, 0, 0, 0 };
    keeper_report rep;
    memset(&rep, 0, sizeof(rep));
    size_t rep_got = 0;
    int out_open = 1, err_open = 1, rep_open = 1, cancelled = 0;
    double deadline = start + timeout, next_poll = start + POLL_MS / 1000.0;
    /* Until the keeper reports, then until the outputs close (everything of the run is dead by
     * then, so that is at once; bounded all the same). */
    double drain_end = -1;
    while (rep_open || ((out_open || err_open) && tally__now() < drain_end)) {
        double now = tally__now();
        if (rep_open && abort_w >= 0 && now >= deadline) {
            o->timed_out = 1;
            close(abort_w);
            abort_w = -1;
        }
        if (rep_open && abort_w >= 0 && poll_fn != NULL && now >= next_poll) {
            next_poll = now + POLL_MS / 1000.0;
            if (poll_fn(poll_user) != 0) {
                cancelled = 1;
                close(abort_w);
                abort_w = -1;
            }
        }
        struct pollfd fds[3];
        int idx[3];
        nfds_t n = 0;
        if (out_open) {
            idx[n] = 0;
            fds[n++] = (struct pollfd){ out_p[0], POLLIN, 0 };
        }
        if (err_open) {
            idx[n] = 1;
            fds[n++] = (struct pollfd){ err_p[0], POLLIN, 0 };
        }
        if (rep_open) {
            idx[n] = 2;
            fds[n++] = (struct pollfd){ rep_p[0], POLLIN, 0 };
        }
        double wait_s = rep_open ? (abort_w >= 0 ? deadline - now : 1.0) : drain_end - now;
        if (rep_open && abort_w >= 0 && poll_fn != NULL && next_poll - now < wait_s)
            wait_s = next_poll - now;
        int wait_ms = wait_s > 0 ? (int)(wait_s * 1000.0) + 1 : 0;
        if (poll(fds, n, wait_ms) < 0 && errno != EINTR)
            break;
        for (nfds_t i = 0; i < n; i++) {
            if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            if (idx[i] == 0) {
                out_open = drain(out_p[0], &out);
            } else if (idx[i] == 1) {
                err_open = drain(err_p[0], &err);
            } else {
                ssize_t got = read(rep_p[0], (char *)&rep + rep_got, sizeof(rep) - rep_got);
                if (got > 0)
                    rep_got += (size_t)got;
                if (got == 0 || (got < 0 && errno != EINTR) || rep_got == sizeof(rep)) {
                    rep_open = 0;
                    drain_end = tally__now() + 1.0;
                }
            }
        }
    }
    if (abort_w >= 0)
        close(abort_w);
    close(out_p[0]);
    close(err_p[0]);
    close(rep_p[0]);
    int status;
    while (waitpid(keeper, &status, 0) < 0 && errno == EINTR)
        ;
    if (rep_got == sizeof(rep) && rep.status != -1) {
        o->status = rep.status;
        o->wall = rep.end - rep.start;
        o->user = tv_seconds(rep.utime);
        o->sys = tv_seconds(rep.stime);
        o->escaped = rep.escaped;
        rep.names[sizeof(rep.names) - 1] = '\0';
        memcpy(o->escaped_names, rep.names, sizeof(o->escaped_names));
        o->escaped_names[sizeof(o->escaped_names) - 1] = '\0';
    } else {
        /* The keeper could not fork the run, or died: the run cannot count as a success. */
        o->status = 255 << 8;
        o->wall = tally__now() - start;
        static const char lost[] = "the run's process could not be started or supervised "
                                   "(fork failed: too many processes? see ulimit -u)\n";
        capture_add(&err, lost, sizeof(lost) - 1);
    }
    o->out_total = out.total;
    o->err_total = err.total;
    int rc_out = capture_finish(&o->out, &o->out_len, &out);
    int rc_err = capture_finish(&o->err, &o->err_len, &err);
    if (rc_out != TALLY_OK || rc_err != TALLY_OK) {
        tally__run_output_free(o);
        return tally__error(TALLY_ENOMEM, "out of memory capturing the run's output");
    }
    if (cancelled) {
        tally__run_output_free(o);
        return tally__error(TALLY_EINTERRUPTED, "cancelled");
    }
    return TALLY_OK;
}

void tally__run_output_free(tally__run_output *o)
{
    tally__free_mem(o->out);
    tally__free_mem(o->err);
    o->out = o->err = NULL;
    o->out_len = o->err_len = 0;
}

int tally__loopback_configure(tally__loopback_cfg **out, tally__wl *wl, const tally__params *p,
                              long default_port)
{
    tally__loopback_cfg *c = tally__calloc(1, sizeof(*c));
    *out = c;
    if (c == NULL)
        return tally__error(TALLY_ENOMEM, "out of memory");
    wl->cfg = c;
    long runtime;
    int rc = tally__param_long(&runtime, p, "runtime", 10, 1, 1000000);
    if (rc == TALLY_OK)
        rc = tally__param_long(&c->port, p, "port", default_port, 1024, 65535);
    if (rc != TALLY_OK)
        return rc;
    snprintf(c->port_s, sizeof(c->port_s), "%ld", c->port);
    snprintf(c->runtime_s, sizeof(c->runtime_s), "%ld", runtime);
    return TALLY_OK;
}
