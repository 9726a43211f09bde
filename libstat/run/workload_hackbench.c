/* hackbench-style messaging: per group, `fds` receivers each owning a pipe or UNIX socket and
 * `fds` senders each writing `loops` rounds of a `datasize`-byte message to every receiver of the
 * group. All tasks (processes or threads) first report ready and block on a start pipe; the
 * clock runs from the release of that pipe until every task has finished. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "run/runner_internal.h"

typedef tally__hackbench_params hb_cfg;

const char *const tally__hackbench_keys[] = { "mode", "ipc", "loops", "datasize", "fds", NULL };
static const char *const modes[] = { "process", "thread", NULL };
static const char *const ipcs[] = { "pipe", "socket", NULL };

int tally__hackbench_configure(tally__hackbench_params *c, tally__wl *wl, const tally__params *p,
                               long max_datasize)
{
    int rc = tally__param_choice(&c->mode, p, "mode", modes, TALLY__HB_PROCESS);
    if (rc == TALLY_OK)
        rc = tally__param_choice(&c->ipc, p, "ipc", ipcs, TALLY__HB_PIPE);
    if (rc == TALLY_OK)
        rc = tally__param_long(&c->loops, p, "loops", 100, 1, 100000000);
    if (rc == TALLY_OK)
        rc = tally__param_long(&c->datasize, p, "datasize", 100, 1, max_datasize);
    if (rc == TALLY_OK)
        rc = tally__param_long(&c->fds, p, "fds", 20, 1, 1000);
    if (rc != TALLY_OK)
        return rc;
    char name[64];
    snprintf(name, sizeof(name), "hackbench-%s-%s",
             c->mode == TALLY__HB_PROCESS ? "process" : "thread",
             c->ipc == TALLY__HB_PIPE ? "pipes" : "sockets");
    return tally__wl_add_metric(wl, name, NULL, "s", TALLY_LOWER_IS_BETTER, TALLY_STAT_AMEAN);
}

static int configure(tally__wl *wl, const tally__params *p)
{
    hb_cfg *c = tally__calloc(1, sizeof(*c));
    if (c == NULL)
        return tally__error(TALLY_ENOMEM, "out of memory");
    wl->cfg = c;
    /* A task sends each message from its 4096-byte stack buffer. */
    return tally__hackbench_configure(c, wl, p, 4096);
}

static void release(tally__wl *wl)
{
    tally__free_mem(wl->cfg);
    wl->cfg = NULL;
}

/* One task's job; `fds` points at the group's write ends (sender) or its own read end. */
typedef struct hb_task {
    const hb_cfg *cfg;
    int sender;
    int *fds;
    int ready_fd, wakeup_fd;
    int failed;
} hb_task;

static int write_all(int fd, const char *s, size_t n)
{
    while (n > 0) {
        ssize_t put = write(fd, s, n);
        if (put < 0 && errno == EINTR)
            continue;
        if (put <= 0)
            return -1;
        s += put;
        n -= (size_t)put;
    }
    return 0;
}

/* Report ready, then wait until the parent closes the start pipe. */
static int ready_and_wait(const hb_task *t)
{
    char byte = 'r';
    if (write_all(t->ready_fd, &byte, 1) != 0)
        return -1;
    for (;;) {
        ssize_t got = read(t->wakeup_fd, &byte, 1);
        if (got == 0)
            return 0;
        if (got < 0 && errno != EINTR)
            return -1;
    }
}

static void *task_main(void *arg)
{
    hb_task *t = arg;
    const hb_cfg *c = t->cfg;
    char buf[4096];
    memset(buf, 's', sizeof(buf));
    if (ready_and_wait(t) != 0) {
        t->failed = 1;
        return NULL;
    }
    size_t size = (size_t)c->datasize;
    if (t->sender) {
        for (long l = 0; l < c->loops; l++)
            for (long r = 0; r < c->fds; r++)
                if (write_all(t->fds[r], buf, size) != 0) {
                    t->failed = 1;
                    return NULL;
                }
    } else {
        size_t want = (size_t)c->fds * (size_t)c->loops * size;
        while (want > 0) {
            ssize_t got = read(t->fds[0], buf, want < sizeof(buf) ? want : sizeof(buf));
            if (got < 0 && errno == EINTR)
                continue;
            if (got <= 0) {
                t->failed = 1;
                return NULL;
            }
            want -= (size_t)got;
        }
    }
    return NULL;
}

static int body(const tally__wl *wl, const char *sweep_value, double *values,
                tally__hdr_recorder *hists, char *why)
{
    (void)hists; /* no histogram metric */
    const hb_cfg *c = wl->cfg;
    long groups;
    if (tally__sweep_long(&groups, sweep_value, "groups", 10000) != TALLY_OK) {
        snprintf(why, 256, "%s", tally_error_last()->message);
        return -1;
    }
    /* Two descriptors per receiver plus a few; lift the soft limit to the hard one. */
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
    size_t receivers = (size_t)groups * (size_t)c->fds;
    size_t tasks = receivers * 2;
    int *rfd = tally__calloc(receivers, sizeof(int));
    int *wfd = tally__calloc(receivers, sizeof(int));
    hb_task *t = tally__calloc(tasks, sizeof(*t));
    pid_t *pids = tally__calloc(tasks, sizeof(pid_t));
    pthread_t *threads = tally__calloc(tasks, sizeof(pthread_t));
    int ready[2], wakeup[2];
    if (!rfd || !wfd || !t || !pids || !threads) {
        snprintf(why, 256, "out of memory");
        return -1;
    }
    if (pipe(ready) != 0 || pipe(wakeup) != 0) {
        snprintf(why, 256, "pipe: %s", strerror(errno));
        return -1;
    }
    for (size_t i = 0; i < receivers; i++) {
        int fd[2];
        int rc = c->ipc == TALLY__HB_PIPE ? pipe(fd) : socketpair(AF_UNIX, SOCK_STREAM, 0, fd);
        if (rc != 0) {
            snprintf(why, 256, "creating %zu %s: %s", receivers,
                     c->ipc == TALLY__HB_PIPE ? "pipes" : "socket pairs", strerror(errno));
            return -1;
        }
        rfd[i] = fd[0];
        wfd[i] = fd[1];
    }
    /* The process that forks or spawns everything: any early return leaves the rest to the
     * runner, which kills the whole process group when this process exits. */
    for (size_t i = 0; i < tasks; i++) {
        size_t g = i / ((size_t)c->fds * 2), k = i % ((size_t)c->fds * 2);
        hb_task *x = &t[i];
        x->cfg = c;
        x->sender = k >= (size_t)c->fds;
        x->fds = x->sender ? &wfd[g * (size_t)c->fds] : &rfd[g * (size_t)c->fds + k];
        x->ready_fd = ready[1];
        x->wakeup_fd = wakeup[0];
        if (c->mode == TALLY__HB_THREAD) {
            int err = pthread_create(&threads[i], NULL, task_main, x);
            if (err != 0) {
                snprintf(why, 256, "pthread_create (%zu tasks): %s", tasks, strerror(err));
                return -1;
            }
            continue;
        }
        pids[i] = fork();
        if (pids[i] < 0) {
            snprintf(why, 256, "fork (%zu tasks): %s", tasks, strerror(errno));
            return -1;
        }
        if (pids[i] == 0) {
            tally__die_with_parent();
            close(wakeup[1]); /* else the start pipe never reaches end of file */
            task_main(x);
            _exit(x->failed);
        }
    }
    char byte;
    for (size_t got = 0; got < tasks;) {
        ssize_t n = read(ready[0], &byte, 1);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            snprintf(why, 256, "a task did not start");
            return -1;
        }
        got++;
    }
    double start = tally__now();
    close(wakeup[1]);
    int failed = 0;
    for (size_t i = 0; i < tasks; i++) {
        if (c->mode == TALLY__HB_THREAD) {
            pthread_join(threads[i], NULL);
            failed |= t[i].failed;
        } else {
            int status;
            while (waitpid(pids[i], &status, 0) < 0 && errno == EINTR)
                ;
            failed |= !WIFEXITED(status) || WEXITSTATUS(status) != 0;
        }
    }
    values[0] = tally__now() - start;
    if (failed) {
        snprintf(why, 256, "a sender or receiver failed");
        return -1;
    }
    return 0;
}

const tally__workload tally__workload_hackbench = {
    TALLY_WORKLOAD_HACKBENCH, "hackbench", "groups", "1,2,4,8,16", NULL, tally__hackbench_keys,
    configure, release, body, NULL, NULL, NULL, NULL,
};
