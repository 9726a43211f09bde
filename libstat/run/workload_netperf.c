/* netperf TCP_RR over loopback: the runner starts `netserver -D -L 127.0.0.1 -p PORT` before the
 * sweep and stops it afterwards. A run with N clients forks N concurrent
 *   netperf -H 127.0.0.1 -p PORT -t TCP_RR -l RUNTIME -P 0 -- -r 1,1
 * processes (from the run's own child, so the runner's timeout and process-group kill cover
 * them all), reads each one's output with the netperf importer and sums the transaction rates. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "formats/importer.h"
#include "run/runner_internal.h"

typedef tally__loopback_cfg np_cfg;

static const char *const keys[] = { "runtime", "port", NULL };

static int configure(tally__wl *wl, const tally__params *p)
{
    np_cfg *c;
    int rc = tally__loopback_configure(&c, wl, p, 12865);
    if (rc != TALLY_OK)
        return rc;
    if (!tally__find_executable("netserver"))
        return tally__error(TALLY_ENOTFOUND, "netserver is not installed");
    return tally__wl_add_metric(wl, "netperf-tcp_rr", NULL, "trans/s", TALLY_HIGHER_IS_BETTER,
                                TALLY_STAT_AMEAN);
}

static void release(tally__wl *wl)
{
    tally__free_mem(wl->cfg);
    wl->cfg = NULL;
}

static int start(tally__wl *wl)
{
    const np_cfg *c = wl->cfg;
    const char *pieces[] = { "netserver", "-D", "-L", "127.0.0.1", "-p", c->port_s };
    char **argv = NULL;
    int rc = tally__argv_new(&argv, pieces, TALLY__COUNT(pieces));
    if (rc == TALLY_OK)
        rc = tally__server_start(&wl->server, argv, c->port, "netserver", 0,
                                 "stop it, or choose another port with --port");
    tally__free_argv(argv);
    return rc;
}

/* The argv of one netperf client (also what the tests check). */
static int command(char ***argv, const tally__wl *wl, const char *sweep_value)
{
    const np_cfg *c = wl->cfg;
    (void)sweep_value;
    const char *pieces[] = { "netperf", "-H", "127.0.0.1", "-p", c->port_s, "-t", "TCP_RR",
                             "-l", c->runtime_s, "-P", "0", "--", "-r", "1,1" };
    return tally__argv_new(argv, pieces, TALLY__COUNT(pieces));
}

/* Runs in the run's child: start every client, collect every output, sum the rates. */
static int body(const tally__wl *wl, const char *sweep_value, double *values,
                tally__hdr_recorder *hists, char *why)
{
    (void)hists; /* no histogram metric */
    long clients;
    if (tally__sweep_long(&clients, sweep_value, "clients", 1000) != TALLY_OK) {
        snprintf(why, 256, "%s", tally_error_last()->message);
        return -1;
    }
    char **argv = NULL;
    if (command(&argv, wl, sweep_value) != TALLY_OK) {
        snprintf(why, 256, "out of memory");
        return -1;
    }
    pid_t *pids = calloc((size_t)clients, sizeof(pid_t));
    int *fds = calloc((size_t)clients, sizeof(int));
    tally__run_output *outs = calloc((size_t)clients, sizeof(*outs));
    if (pids == NULL || fds == NULL || outs == NULL) {
        snprintf(why, 256, "out of memory");
        return -1;
    }
    for (long i = 0; i < clients; i++) {
        int p[2];
        if (pipe(p) != 0) {
            snprintf(why, 256, "pipe: %s", strerror(errno));
            return -1;
        }
        pids[i] = fork();
        if (pids[i] < 0) {
            snprintf(why, 256, "fork: %s", strerror(errno));
            return -1;
        }
        if (pids[i] == 0) {
            tally__die_with_parent();
            dup2(p[1], STDOUT_FILENO);
            close(p[0]);
            close(p[1]);
            execvp(argv[0], argv);
            _exit(127);
        }
        close(p[1]);
        fds[i] = p[0];
    }
    double sum = 0;
    for (long i = 0; i < clients; i++) {
        tally__buf b = TALLY__BUF_INIT;
        char chunk[4096];
        ssize_t got;
        while ((got = read(fds[i], chunk, sizeof(chunk))) != 0) {
            if (got < 0 && errno == EINTR)
                continue;
            if (got < 0)
                break;
            tally__buf_append(&b, chunk, (size_t)got);
        }
        tally__buf_puts(&b, "");
        close(fds[i]);
        int status;
        while (waitpid(pids[i], &status, 0) < 0 && errno == EINTR)
            ;
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            snprintf(why, 256, "netperf client %ld of %ld: %s %d", i + 1, clients,
                     WIFEXITED(status) ? "exit status" : "signal",
                     WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
            return -1;
        }
        outs[i].out = b.data;
        outs[i].out_len = b.len;
        double rate;
        if (b.failed || tally__parse_with_importer(&rate, &tally__importer_netperf,
                                                   "netperf stdout", &outs[i]) != TALLY_OK) {
            snprintf(why, 256, "netperf client %ld of %ld: %s", i + 1, clients,
                     b.failed ? "out of memory" : tally_error_last()->message);
            return -1;
        }
        sum += rate;
    }
    values[0] = sum;
    return 0;
}

const tally__workload tally__workload_netperf = {
    TALLY_WORKLOAD_NETPERF, "netperf", "clients", "1,2,4,8", "netperf", keys,
    configure, release, body, command, NULL, start, tally__wl_stop_server,
};
