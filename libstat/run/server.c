/* Long-lived loopback servers around a sweep (iperf3 -s, netserver, tbench_srv).
 *
 * Readiness is read from the kernel, never probed: a server is ready when one of its own
 * sockets (the socket inodes behind /proc/PID/fd) is in LISTEN state on the port in
 * /proc/PID/net/tcp or tcp6 (the server's network namespace). A probe connection would be a
 * client: `iperf3 -s` takes it into its single client slot, fails on it and re-creates its
 * listening socket, resetting the real client queued behind. Servers that re-create their
 * listener after every client (iperf3) are waited for again before each run, until the
 * listener differs from the one the previous run was given.
 *
 * The server's stderr goes to a memory file, so a server that exits at start is reported with
 * its own message. A server may run in a private network namespace with only loopback up
 * (tbench_srv, which cannot bind 127.0.0.1 alone); the runs then join that namespace. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "run/runner_internal.h"

/* How long a server may take to listen (a loaded machine starts processes slowly). */
#define READY_TIMEOUT 10.0
/* A server that re-creates its listener but still shows the old one this long after a run, with
 * no connection open, never saw that run's client (it failed before connecting). */
#define SAME_LISTENER_GRACE 5.0
#define STDERR_TAIL 300

int tally__loopback_port_open(long port)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return 0;
    struct sockaddr_in addr;
    memset(&addr, 0, sizeof(addr));
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons((unsigned short)port);
    int ok = connect(fd, (struct sockaddr *)&addr, sizeof(addr)) == 0;
    /* A port in the ephemeral range can be given to this very socket as its source port: TCP's
     * simultaneous open then connects the socket to itself, with nobody listening (about once in
     * 28,000 probes of a free ephemeral port). That is not a server. */
    struct sockaddr_in self;
    socklen_t len = sizeof(self);
    if (ok && getsockname(fd, (struct sockaddr *)&self, &len) == 0 &&
        self.sin_port == addr.sin_port && self.sin_addr.s_addr == addr.sin_addr.s_addr)
        ok = 0;
    close(fd);
    return ok;
}

/* ---- what the kernel says about a process's sockets ---- */

typedef struct inode_set {
    unsigned long *v;
    size_t n, cap;
} inode_set;

/* The socket inodes among pid's open files. */
static int socket_inodes(inode_set *s, pid_t pid)
{
    char dir[64];
    snprintf(dir, sizeof(dir), "/proc/%d/fd", (int)pid);
    DIR *d = opendir(dir);
    if (d == NULL)
        return -1;
    s->n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        char target[64];
        if (e->d_name[0] == '.')
            continue;
        ssize_t len = readlinkat(dirfd(d), e->d_name, target, sizeof(target) - 1);
        if (len <= 0)
            continue;
        target[len] = '\0';
        unsigned long ino;
        if (sscanf(target, "socket:[%lu]", &ino) != 1)
            continue;
        if (s->n == s->cap) {
            size_t cap = s->cap ? s->cap * 2 : 16;
            unsigned long *grown = tally__reallocarray(s->v, cap, sizeof(*grown));
            if (grown == NULL) {
                closedir(d);
                return -1;
            }
            s->v = grown;
            s->cap = cap;
        }
        s->v[s->n++] = ino;
    }
    closedir(d);
    return 0;
}

static int in_set(const inode_set *s, unsigned long ino)
{
    for (size_t i = 0; i < s->n; i++)
        if (s->v[i] == ino)
            return 1;
    return 0;
}

typedef struct listen_state {
    unsigned long listener; /* inode of the server's LISTEN socket on the port, 0: none */
    size_t connections;     /* the server's other TCP sockets (clients being served) */
} listen_state;

/* Scan one /proc/PID/net/tcp{,6} table for the sockets of `mine`. */
static void scan_table(listen_state *st, const char *path, const inode_set *mine, long port)
{
    FILE *f = fopen(path, "re");
    if (f == NULL)
        return;
    char line[512];
    if (fgets(line, sizeof(line), f) == NULL) { /* the column titles */
        fclose(f);
        return;
    }
    while (fgets(line, sizeof(line), f) != NULL) {
        /* sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout
         * inode; addresses as HEX:PORT. */
        char local[64], remote[64];
        unsigned int state;
        unsigned long ino;
        if (sscanf(line, " %*s %63s %63s %x %*s %*s %*s %*s %*s %lu", local, remote, &state,
                   &ino) != 4 ||
            !in_set(mine, ino))
            continue;
        const char *colon = strrchr(local, ':');
        long lport = colon ? strtol(colon + 1, NULL, 16) : -1;
        if (state == 0x0A && lport == port)
            st->listener = ino;
        else if (state != 0x0A)
            st->connections++;
    }
    fclose(f);
}

static int listen_state_of(listen_state *st, pid_t pid, long port)
{
    memset(st, 0, sizeof(*st));
    inode_set mine = { NULL, 0, 0 };
    if (socket_inodes(&mine, pid) != 0) {
        tally__free_mem(mine.v);
        return -1;
    }
    char path[64];
    snprintf(path, sizeof(path), "/proc/%d/net/tcp", (int)pid);
    scan_table(st, path, &mine, port);
    snprintf(path, sizeof(path), "/proc/%d/net/tcp6", (int)pid);
    scan_table(st, path, &mine, port);
    tally__free_mem(mine.v);
    return 0;
}

/* ---- the server process ---- */

/* Wait up to `seconds` for the server to exit, without reaping it. Returns 1 when it has. */
static int exited_within(const tally__server *s, double seconds)
{
    double end = tally__now() + seconds;
    for (;;) {
        siginfo_t si;
        memset(&si, 0, sizeof(si));
        if (waitid(P_PID, (id_t)s->pid, &si, WEXITED | WNOHANG | WNOWAIT) != 0)
            return 1; /* not our child any more (reaped elsewhere): gone */
        if (si.si_pid == s->pid)
            return 1;
        double left = end - tally__now();
        if (left <= 0)
            return 0;
        int ms = (int)(left * 1000.0) + 1;
        if (s->pidfd >= 0) {
            struct pollfd p = { s->pidfd, POLLIN, 0 };
            poll(&p, 1, ms);
        } else {
            struct timespec ts = { 0, 5 * 1000 * 1000 }; /* no exit notification: look often */
            nanosleep(&ts, NULL);
        }
    }
}

/* The end of what the server wrote to stderr, one line, for messages. */
static void stderr_tail(const tally__server *s, char *out, size_t cap)
{
    out[0] = '\0';
    if (s->err_fd < 0)
        return;
    off_t size = lseek(s->err_fd, 0, SEEK_END);
    if (size <= 0)
        return;
    size_t want = (size_t)size < cap - 1 ? (size_t)size : cap - 1;
    ssize_t got = pread(s->err_fd, out, want, size - (off_t)want);
    if (got <= 0)
        return;
    out[got] = '\0';
    while (got > 0 && (out[got - 1] == '\n' || out[got - 1] == ' '))
        out[--got] = '\0';
    for (char *p = out; *p; p++)
        if (*p == '\n' || *p == '\t')
            *p = ' ';
}

static void describe_exit(char *out, size_t cap, int status)
{
    if (WIFEXITED(status))
        snprintf(out, cap, "exit status %d", WEXITSTATUS(status));
    else if (WIFSIGNALED(status))
        snprintf(out, cap, "killed by signal %d", WTERMSIG(status));
    else
        snprintf(out, cap, "status %d", status);
}

/* The server has exited: reap it and say why, with its stderr. */
static int server_died(tally__server *s, const char *when)
{
    int status = 0;
    while (waitpid(s->pid, &status, 0) < 0 && errno == EINTR)
        ;
    killpg(s->pid, SIGKILL); /* children it may have left */
    char how[48], tail[STDERR_TAIL];
    describe_exit(how, sizeof(how), status);
    stderr_tail(s, tail, sizeof(tail));
    s->pid = 0;
    int rc = tally__error(TALLY_ERUN, "%s exited %s (%s)%s%s%s", s->what, when, how,
                          tail[0] ? "; it said: " : "", tail,
                          tail[0] ? "" : "; run it by hand to see why");
    tally__server_stop(s);
    return rc;
}

/* Bring up loopback in a fresh network namespace (what `ip link set lo up` does). */
static int loopback_up(void)
{
    int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    struct ifreq ifr;
    memset(&ifr, 0, sizeof(ifr));
    snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "lo");
    int rc = ioctl(fd, SIOCGIFFLAGS, &ifr);
    if (rc == 0) {
        ifr.ifr_flags |= IFF_UP;
        rc = ioctl(fd, SIOCSIFFLAGS, &ifr);
    }
    close(fd);
    return rc;
}

/* What a server child reports through its exec pipe when it cannot start. */
typedef struct spawn_failure {
    int err;
    char what[32];
} spawn_failure;

static void spawn_fail(int fd, const char *what)
{
    spawn_failure f;
    memset(&f, 0, sizeof(f));
    f.err = errno;
    snprintf(f.what, sizeof(f.what), "%s", what);
    ssize_t put = write(fd, &f, sizeof(f));
    (void)put;
    _exit(127);
}

/* Fork the server in its own process group, stdout discarded, stderr kept; returns once it
 * has exec'd (or failed to). With `netns` it first moves into a new network namespace; when
 * that is refused, *ns_err gets the errno and TALLY_OK is returned with no server running. */
static int spawn(tally__server *s, char *const *argv, int netns, int *ns_err)
{
    s->err_fd = (int)syscall(SYS_memfd_create, "tally-server-stderr", MFD_CLOEXEC);
    int sync[2];
    if (pipe2(sync, O_CLOEXEC) != 0)
        return tally__error(TALLY_ERUN, "cannot create a pipe: %s", strerror(errno));
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        int saved = errno;
        close(sync[0]);
        close(sync[1]);
        return tally__error(TALLY_ERUN, "cannot fork the %s: %s", s->what, strerror(saved));
    }
    if (pid == 0) {
        close(sync[0]);
        setpgid(0, 0);
        tally__die_with_parent();
        if (getppid() != parent)
            _exit(127);
        tally__reset_signals();
        int null_fd = open("/dev/null", O_RDWR);
        if (null_fd >= 0) {
            dup2(null_fd, STDIN_FILENO);
            dup2(null_fd, STDOUT_FILENO);
            dup2(s->err_fd >= 0 ? s->err_fd : null_fd, STDERR_FILENO);
            if (null_fd > STDERR_FILENO)
                close(null_fd);
        }
        if (netns && unshare(CLONE_NEWNET) != 0)
            spawn_fail(sync[1], "unshare(CLONE_NEWNET)");
        if (netns && loopback_up() != 0)
            spawn_fail(sync[1], "bringing up loopback");
        execvp(argv[0], argv);
        spawn_fail(sync[1], "exec");
    }
    close(sync[1]);
    setpgid(pid, pid);
    s->pid = pid;
    s->pidfd = tally__pidfd_open(pid);
    spawn_failure f;
    ssize_t got;
    while ((got = read(sync[0], &f, sizeof(f))) < 0 && errno == EINTR)
        ;
    close(sync[0]);
    if (got == (ssize_t)sizeof(f)) {
        f.what[sizeof(f.what) - 1] = '\0';
        int netns_refused = netns && strcmp(f.what, "exec") != 0;
        tally__server_stop(s);
        if (netns_refused) {
            *ns_err = f.err;
            return TALLY_OK;
        }
        return tally__error(TALLY_ERUN, "cannot start the %s (%s): %s: %s", s->what, argv[0],
                            f.what, strerror(f.err));
    }
    if (netns) {
        char ns[64];
        snprintf(ns, sizeof(ns), "/proc/%d/ns/net", (int)pid);
        s->netns_fd = open(ns, O_RDONLY | O_CLOEXEC);
        if (s->netns_fd < 0) {
            int saved = errno;
            tally__server_stop(s);
            return tally__error(TALLY_ERUN, "cannot open the network namespace of the %s: %s",
                                s->what, strerror(saved));
        }
    }
    return TALLY_OK;
}

/* Wait until the server listens on its port with a listener other than `old` (0: any). */
static int wait_listening(tally__server *s, unsigned long old, const char *when)
{
    double start = tally__now();
    struct timespec ts = { 0, 2 * 1000 * 1000 };
    for (;;) {
        if (exited_within(s, 0))
            return server_died(s, when);
        listen_state st;
        if (listen_state_of(&st, s->pid, s->port) == 0 && st.listener != 0) {
            double waited = tally__now() - start;
            if (st.listener != old ||
                (st.connections == 0 && waited >= SAME_LISTENER_GRACE)) {
                s->listener = st.listener;
                return TALLY_OK;
            }
        }
        if (tally__now() - start >= READY_TIMEOUT) {
            char tail[STDERR_TAIL];
            stderr_tail(s, tail, sizeof(tail));
            int rc = tally__error(TALLY_ERUN, "%s did not listen on port %ld within %g s %s%s%s",
                                  s->what, s->port, READY_TIMEOUT, when,
                                  tail[0] ? "; it said: " : "", tail);
            tally__server_stop(s);
            return rc;
        }
        /* Polled, not notified: the kernel has no event for "a process listens". The interval
         * grows to 20 ms so a slow start costs little CPU. */
        nanosleep(&ts, NULL);
        if (ts.tv_nsec < 20 * 1000 * 1000)
            ts.tv_nsec += 2 * 1000 * 1000;
    }
}

/* Whether a process of group pgid is still alive (a zombie is dead: it holds no port). */
static int group_alive(pid_t pgid)
{
    DIR *d = opendir("/proc");
    if (d == NULL)
        return 0;
    int alive = 0;
    struct dirent *e;
    while (!alive && (e = readdir(d)) != NULL) {
        if (e->d_name[0] < '1' || e->d_name[0] > '9')
            continue;
        char path[64], line[512];
        snprintf(path, sizeof(path), "/proc/%.20s/stat", e->d_name);
        FILE *f = fopen(path, "re");
        if (f == NULL)
            continue;
        size_t got = fread(line, 1, sizeof(line) - 1, f);
        fclose(f);
        line[got] = '\0';
        const char *paren = strrchr(line, ')');
        char state;
        int ppid, pgrp;
        if (paren && sscanf(paren + 1, " %c %d %d", &state, &ppid, &pgrp) == 3 &&
            pgrp == (int)pgid && state != 'Z')
            alive = 1;
    }
    closedir(d);
    return alive;
}

void tally__server_init(tally__server *s)
{
    memset(s, 0, sizeof(*s));
    s->pidfd = s->err_fd = s->netns_fd = -1;
}

int tally__server_start(tally__server *s, char *const *argv, long port, const char *what,
                        unsigned flags, const char *busy_hint)
{
    tally__server_stop(s);
    s->port = port;
    s->what = what;
    s->relisten = (flags & TALLY__SERVER_RELISTEN) != 0;
    if (flags & TALLY__SERVER_NETNS) {
        int ns_err = 0;
        int rc = spawn(s, argv, 1, &ns_err);
        if (rc != TALLY_OK)
            return rc;
        if (s->pid > 0)
            return wait_listening(s, 0, "at start");
        tally__free_mem(s->warning);
        tally__buf w = TALLY__BUF_INIT;
        tally__buf_printf(&w, "%s listens on every address of this machine (port %ld is "
                          "reachable from the network during the sweep): a private network "
                          "namespace was refused (%s)%s", what, port, strerror(ns_err),
                          geteuid() != 0 ? "; run tally as root to keep the server in one" : "");
        s->warning = w.data; /* NULL when out of memory: no warning, nothing else lost */
    }
    if (tally__loopback_port_open(port))
        return tally__error(TALLY_ERUN, "port %ld on 127.0.0.1 is already in use (another %s?): "
                            "%s", port, what, busy_hint);
    int ns_err = 0;
    int rc = spawn(s, argv, 0, &ns_err);
    if (rc != TALLY_OK)
        return rc;
    return wait_listening(s, 0, "at start");
}

int tally__server_ready(tally__server *s)
{
    if (s->pid <= 0)
        return TALLY_OK;
    return wait_listening(s, s->relisten ? s->listener : 0, "between runs");
}

void tally__server_init_fds(tally__server *s)
{
    s->pid = 0;
    s->pidfd = s->err_fd = s->netns_fd = -1;
}

void tally__server_stop(tally__server *s)
{
    if (s->pid > 0) {
        killpg(s->pid, SIGTERM);
        if (!exited_within(s, 1.0))
            killpg(s->pid, SIGKILL);
        exited_within(s, 5.0);
        /* The leader is a zombie, not reaped yet, so its process group id cannot have been
         * reused: kill the children it left (tbench_srv forks one per client), then reap. */
        killpg(s->pid, SIGKILL);
        int status;
        while (waitpid(s->pid, &status, 0) < 0 && errno == EINTR)
            ;
        /* Those children are not ours to wait for: watch them go (SIGKILL takes effect
         * asynchronously), so that their sockets (port 7003) are closed once this returns. */
        struct timespec ts = { 0, 2 * 1000 * 1000 };
        for (double end = tally__now() + 5.0; group_alive(s->pid) && tally__now() < end;)
            nanosleep(&ts, NULL);
    }
    if (s->pidfd >= 0)
        close(s->pidfd);
    if (s->err_fd >= 0)
        close(s->err_fd);
    if (s->netns_fd >= 0)
        close(s->netns_fd);
    tally__server_init_fds(s);
}

void tally__server_free(tally__server *s)
{
    tally__server_stop(s);
    tally__free_mem(s->warning);
    s->warning = NULL;
}

void tally__wl_stop_server(tally__wl *wl)
{
    tally__server_stop(&wl->server);
}
