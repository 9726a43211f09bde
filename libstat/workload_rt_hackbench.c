/* rt-tests hackbench: `hackbench [-p] -P|-T -g GROUPS -l LOOPS -s DATASIZE -f FDS`, its "Time:"
 * line read by the hackbench importer. The benchmark is named from our own arguments (the tool
 * does not say whether it used pipes or sockets). */
#include <stdio.h>

#include "runner_internal.h"

enum { MODE_PROCESS, MODE_THREAD };
enum { IPC_PIPE, IPC_SOCKET };

typedef struct rth_cfg {
    int mode, ipc;
    long loops, datasize, fds;
    char loops_s[24], datasize_s[24], fds_s[24];
} rth_cfg;

static const char *const keys[] = { "mode", "ipc", "loops", "datasize", "fds", NULL };
static const char *const modes[] = { "process", "thread", NULL };
static const char *const ipcs[] = { "pipe", "socket", NULL };

static int configure(tally__wl *wl, const tally__params *p)
{
    rth_cfg *c = tally__calloc(1, sizeof(*c));
    if (c == NULL)
        return tally__error(TALLY_ENOMEM, "out of memory");
    wl->cfg = c;
    int rc = tally__param_choice(&c->mode, p, "mode", modes, MODE_PROCESS);
    if (rc == TALLY_OK)
        rc = tally__param_choice(&c->ipc, p, "ipc", ipcs, IPC_PIPE);
    if (rc == TALLY_OK)
        rc = tally__param_long(&c->loops, p, "loops", 100, 1, 100000000);
    if (rc == TALLY_OK)
        rc = tally__param_long(&c->datasize, p, "datasize", 100, 1, 65536);
    if (rc == TALLY_OK)
        rc = tally__param_long(&c->fds, p, "fds", 20, 1, 1000);
    if (rc != TALLY_OK)
        return rc;
    snprintf(c->loops_s, sizeof(c->loops_s), "%ld", c->loops);
    snprintf(c->datasize_s, sizeof(c->datasize_s), "%ld", c->datasize);
    snprintf(c->fds_s, sizeof(c->fds_s), "%ld", c->fds);
    char name[64];
    snprintf(name, sizeof(name), "hackbench-%s-%s", c->mode == MODE_PROCESS ? "process" : "thread",
             c->ipc == IPC_PIPE ? "pipes" : "sockets");
    return tally__wl_add_metric(wl, name, NULL, "s", TALLY_LOWER_IS_BETTER, TALLY_STAT_AMEAN);
}

static void release(tally__wl *wl)
{
    tally__free_mem(wl->cfg);
    wl->cfg = NULL;
}

static int command(char ***argv, const tally__wl *wl, const char *sweep_value)
{
    const rth_cfg *c = wl->cfg;
    long groups;
    int rc = tally__sweep_long(&groups, sweep_value, "groups", 10000);
    if (rc != TALLY_OK)
        return rc;
    const char *pieces[] = { "hackbench", c->ipc == IPC_PIPE ? "-p" : NULL,
                             c->mode == MODE_PROCESS ? "-P" : "-T", "-g", sweep_value,
                             "-l", c->loops_s, "-s", c->datasize_s, "-f", c->fds_s };
    return tally__argv_new(argv, pieces, sizeof(pieces) / sizeof(pieces[0]));
}

static int parse(double *values, const tally__wl *wl, const tally__run_output *o)
{
    (void)wl;
    return tally__parse_with_importer(&values[0], &tally__importer_hackbench, "hackbench stdout",
                                      o);
}

const tally__workload tally__workload_rt_hackbench = {
    TALLY_WORKLOAD_RT_HACKBENCH, "rt-hackbench", "groups", "1,2,4,8,16", "hackbench", keys,
    configure, release, NULL, command, parse, NULL, NULL,
};
