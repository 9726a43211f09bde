/* dbench's tbench: the runner starts `tbench_srv` (which always listens on port 7003) before the
 * sweep and stops it afterwards; each run is `tbench -t RUNTIME CLIENTS 127.0.0.1`, its closing
 * "Throughput" line read by the tbench importer. tbench waits forever for a server that is not
 * there, so the runner refuses to start when port 7003 is taken by something else and the
 * per-run timeout bounds every run. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "runner_internal.h"

#define TBENCH_PORT 7003

typedef struct tb_cfg {
    char runtime_s[32];
    const char *loadfile;
} tb_cfg;

static const char *const keys[] = { "runtime", "loadfile", NULL };

static int configure(tally__wl *wl, const tally__params *p)
{
    tb_cfg *c = tally__calloc(1, sizeof(*c));
    if (c == NULL)
        return tally__error(TALLY_ENOMEM, "out of memory");
    wl->cfg = c;
    long runtime;
    /* tbench reports 0 MB/s for runs shorter than 2 s (its first second is warm-up). */
    int rc = tally__param_long(&runtime, p, "runtime", 60, 2, 1000000);
    if (rc != TALLY_OK)
        return rc;
    snprintf(c->runtime_s, sizeof(c->runtime_s), "%ld", runtime);
    c->loadfile = tally__param_get(p, "loadfile"); /* borrowed from the runner's parameters */
    if (!tally__find_executable("tbench_srv"))
        return tally__error(TALLY_ENOTFOUND, "tbench_srv is not installed");
    return tally__wl_add_metric(wl, "tbench", NULL, "MB/s", TALLY_HIGHER_IS_BETTER,
                                TALLY_STAT_AMEAN);
}

static void release(tally__wl *wl)
{
    tally__free_mem(wl->cfg);
    wl->cfg = NULL;
}

static int port_open(void)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return 0;
    struct sockaddr_in addr;
    memset(&addr, 0, sizeof(addr));
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons(TBENCH_PORT);
    int ok = connect(fd, (struct sockaddr *)&addr, sizeof(addr)) == 0;
    close(fd);
    return ok;
}

static int start(tally__wl *wl)
{
    if (port_open())
        return tally__error(TALLY_ERUN, "port %d on 127.0.0.1 is already in use (another "
                            "tbench_srv?); stop it first", TBENCH_PORT);
    char *argv[] = { "tbench_srv", NULL };
    int rc = tally__spawn_server(&wl->server, argv);
    if (rc != TALLY_OK)
        return rc;
    double until = tally__now() + 5.0;
    while (tally__now() < until) {
        if (port_open())
            return TALLY_OK;
        struct timespec ts = { 0, 20 * 1000 * 1000 };
        nanosleep(&ts, NULL);
    }
    tally__stop_server(wl->server);
    wl->server = 0;
    return tally__error(TALLY_ERUN, "tbench_srv did not start listening on port %d",
                        TBENCH_PORT);
}

static void stop(tally__wl *wl)
{
    tally__stop_server(wl->server);
    wl->server = 0;
}

static int command(char ***argv, const tally__wl *wl, const char *sweep_value)
{
    const tb_cfg *c = wl->cfg;
    long clients;
    int rc = tally__sweep_long(&clients, sweep_value, "clients", 100000);
    if (rc != TALLY_OK)
        return rc;
    const char *pieces[] = { "tbench", "-t", c->runtime_s, c->loadfile ? "-c" : NULL,
                             c->loadfile, sweep_value, "127.0.0.1" };
    return tally__argv_new(argv, pieces, sizeof(pieces) / sizeof(pieces[0]));
}

static int parse(double *values, const tally__wl *wl, const tally__run_output *o)
{
    (void)wl;
    return tally__parse_with_importer(&values[0], &tally__importer_tbench, "tbench stdout", o);
}

const tally__workload tally__workload_tbench = {
    TALLY_WORKLOAD_TBENCH, "tbench", "clients", "1,2,4,8", "tbench", keys,
    configure, release, NULL, command, parse, start, stop,
};
