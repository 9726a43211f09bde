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

#include "formats/importer.h"
#include "run/runner_internal.h"

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

static int start(tally__wl *wl)
{
    char *argv[] = { "tbench_srv", NULL };
    return tally__server_start(&wl->server, argv, TBENCH_PORT, "tbench_srv", TALLY__SERVER_NETNS,
                               "stop it (tbench_srv always uses port 7003)");
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
    return tally__argv_new(argv, pieces, TALLY__COUNT(pieces));
}

static int parse(double *values, const tally__wl *wl, const tally__run_output *o)
{
    (void)wl;
    return tally__parse_with_importer(&values[0], &tally__importer_tbench, "tbench stdout", o);
}

const tally__workload tally__workload_tbench = {
    TALLY_WORKLOAD_TBENCH, "tbench", "clients", "1,2,4,8", "tbench", keys,
    configure, release, NULL, command, parse, start, tally__wl_stop_server,
};
