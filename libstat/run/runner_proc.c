/* Running one run in a child process: its own process group (so the whole group can be killed
 * on timeout, on cancel and after the run, leaving no strays), stdout and stderr captured
 * separately, the exit noticed at once through a pidfd (so wall times are not rounded to the
 * polling interval), user and system time from wait4. */
#define _GNU_SOURCE
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

/* Output beyond this is read and dropped, so a chatty workload cannot exhaust memory. */
#define CAPTURE_MAX ((size_t)16 << 20)
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

/* The forked child: never returns. */
static void child_main(const tally__wl *wl, const char *sweep_value, char *const *argv,
                       int out_fd, int err_fd)
{
    setpgid(0, 0);
    tally__die_with_parent();
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
    double *values = calloc(wl->metric_count ? wl->metric_count : 1, sizeof(*values));
    char why[256] = "out of memory";
    if (values == NULL || wl->w->body(wl, sweep_value, values, why) != 0) {
        write_all_fd(STDERR_FILENO, why, strlen(why));
        write_all_fd(STDERR_FILENO, "\n", 1);
        _exit(1);
    }
    for (size_t i = 0; i < wl->metric_count; i++) {
        char line[48];
        tally__number_format(line, values[i]);
        size_t n = strlen(line);
        line[n++] = '\n';
        write_all_fd(STDOUT_FILENO, line, n);
    }
    _exit(0);
}

/* Read what is available on fd into b; returns 0 at end of file, 1 otherwise. */
static int drain(int fd, tally__buf *b)
{
    char chunk[8192];
    ssize_t got = read(fd, chunk, sizeof(chunk));
    if (got < 0)
        return errno == EINTR || errno == EAGAIN ? 1 : 0;
    if (got == 0)
        return 0;
    if (b->len + (size_t)got <= CAPTURE_MAX)
        tally__buf_append(b, chunk, (size_t)got);
    return 1;
}

static double tv_seconds(struct timeval tv)
{
    return (double)tv.tv_sec + (double)tv.tv_usec * 1e-6;
}

int tally__run_child(tally__run_output *o, const tally__wl *wl, const char *sweep_value,
                     char *const *argv, double timeout, tally__poll_fn poll_fn, void *poll_user)
{
    memset(o, 0, sizeof(*o));
    int out_pipe[2], err_pipe[2];
    if (pipe2(out_pipe, O_CLOEXEC) != 0)
        return tally__error(TALLY_ERUN, "cannot create a pipe: %s", strerror(errno));
    if (pipe2(err_pipe, O_CLOEXEC) != 0) {
        close(out_pipe[0]);
        close(out_pipe[1]);
        return tally__error(TALLY_ERUN, "cannot create a pipe: %s", strerror(errno));
    }
    double start = tally__now();
    pid_t pid = fork();
    if (pid < 0) {
        int saved = errno;
        close(out_pipe[0]);
        close(out_pipe[1]);
        close(err_pipe[0]);
        close(err_pipe[1]);
        return tally__error(TALLY_ERUN, "cannot fork: %s", strerror(saved));
    }
    if (pid == 0)
        child_main(wl, sweep_value, argv, out_pipe[1], err_pipe[1]);
    /* Also from the parent, so killpg works even before the child ran its setpgid. */
    setpgid(pid, pid);
    close(out_pipe[1]);
    close(err_pipe[1]);
    int pidfd = tally__pidfd_open(pid);

    tally__buf out = TALLY__BUF_INIT, err = TALLY__BUF_INIT;
    int out_open = 1, err_open = 1, exited = 0, cancelled = 0;
    struct rusage ru;
    memset(&ru, 0, sizeof(ru));
    double deadline = start + timeout, next_poll = start + POLL_MS / 1000.0;
    while (!exited) {
        pid_t w = wait4(pid, &o->status, WNOHANG, &ru);
        if (w == pid) {
            exited = 1;
            o->wall = tally__now() - start;
            break;
        }
        if (w < 0 && errno == ECHILD) {
            /* Reaped behind our back (the process ignores SIGCHLD): the exit status is lost,
             * so the run cannot count as a success. */
            exited = 1;
            o->wall = tally__now() - start;
            o->status = 255 << 8;
            break;
        }
        double now = tally__now();
        if (now >= deadline) {
            o->timed_out = 1;
            break;
        }
        if (poll_fn != NULL && now >= next_poll) {
            next_poll = now + POLL_MS / 1000.0;
            if (poll_fn(poll_user) != 0) {
                cancelled = 1;
                break;
            }
        }
        struct pollfd fds[3];
        nfds_t n = 0;
        int out_i = -1, err_i = -1;
        if (out_open) {
            out_i = (int)n;
            fds[n++] = (struct pollfd){ out_pipe[0], POLLIN, 0 };
        }
        if (err_open) {
            err_i = (int)n;
            fds[n++] = (struct pollfd){ err_pipe[0], POLLIN, 0 };
        }
        if (pidfd >= 0)
            fds[n++] = (struct pollfd){ pidfd, POLLIN, 0 };
        double wait_s = deadline - now;
        if (poll_fn != NULL && next_poll - now < wait_s)
            wait_s = next_poll - now;
        int wait_ms = (int)(wait_s * 1000.0) + 1;
        if (pidfd < 0 && wait_ms > 5)
            wait_ms = 5; /* no exit notification: look at the child often */
        if (poll(fds, n, wait_ms) < 0 && errno != EINTR)
            break;
        if (out_i >= 0 && (fds[out_i].revents & (POLLIN | POLLHUP | POLLERR)))
            out_open = drain(out_pipe[0], &out);
        if (err_i >= 0 && (fds[err_i].revents & (POLLIN | POLLHUP | POLLERR)))
            err_open = drain(err_pipe[0], &err);
    }
    /* The run is over: kill the group (timeout, cancel, or strays left by the workload). */
    killpg(pid, SIGKILL);
    if (!exited) {
        while (wait4(pid, &o->status, 0, &ru) < 0 && errno == EINTR)
            ;
        o->wall = tally__now() - start;
    }
    /* Whatever the killed group wrote is still in the pipes; a process that left the group
     * may hold them open, so give up after a second. */
    double drain_end = tally__now() + 1.0;
    while ((out_open || err_open) && tally__now() < drain_end) {
        struct pollfd fds[2];
        nfds_t n = 0;
        if (out_open)
            fds[n++] = (struct pollfd){ out_pipe[0], POLLIN, 0 };
        if (err_open)
            fds[n++] = (struct pollfd){ err_pipe[0], POLLIN, 0 };
        if (poll(fds, n, 100) <= 0)
            continue;
        for (nfds_t i = 0; i < n; i++) {
            if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            if (fds[i].fd == out_pipe[0])
                out_open = drain(out_pipe[0], &out);
            else
                err_open = drain(err_pipe[0], &err);
        }
    }
    close(out_pipe[0]);
    close(err_pipe[0]);
    if (pidfd >= 0)
        close(pidfd);
    o->user = tv_seconds(ru.ru_utime);
    o->sys = tv_seconds(ru.ru_stime);
    tally__buf_puts(&out, "");
    tally__buf_puts(&err, "");
    int rc_out = tally__buf_detach(&o->out, &o->out_len, &out);
    int rc_err = tally__buf_detach(&o->err, &o->err_len, &err);
    if (rc_out != TALLY_OK || rc_err != TALLY_OK) {
        tally__run_output_free(o);
        return tally__error(TALLY_ENOMEM, "out of memory capturing output");
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

int tally__parse_values(double *values, size_t n, const char *out)
{
    const char *p = out;
    for (size_t i = 0; i < n; i++) {
        const char *nl = strchr(p, '\n');
        if (nl == NULL || tally__parse_double(&values[i], p, (size_t)(nl - p)) != TALLY_OK)
            return tally__error(TALLY_ERUN, "workload output: expected %zu numbers", n);
        p = nl + 1;
    }
    return TALLY_OK;
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
