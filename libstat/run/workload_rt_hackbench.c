/* rt-tests hackbench: `hackbench [-p] -P|-T -g GROUPS -l LOOPS -s DATASIZE -f FDS`, its "Time:"
 * line read by the hackbench importer. The benchmark is named from our own arguments (the tool
 * does not say whether it used pipes or sockets). */
#include <stdio.h>

#include "formats/importer.h"
#include "run/runner_internal.h"

typedef struct rth_cfg {
    tally__hackbench_params hb;
    char loops_s[24], datasize_s[24], fds_s[24];
} rth_cfg;

static int configure(tally__wl *wl, const tally__params *p)
{
    rth_cfg *c = tally__calloc(1, sizeof(*c));
    if (c == NULL)
        return tally__error(TALLY_ENOMEM, "out of memory");
    wl->cfg = c;
    int rc = tally__hackbench_configure(&c->hb, wl, p, 65536);
    if (rc != TALLY_OK)
        return rc;
    snprintf(c->loops_s, sizeof(c->loops_s), "%ld", c->hb.loops);
    snprintf(c->datasize_s, sizeof(c->datasize_s), "%ld", c->hb.datasize);
    snprintf(c->fds_s, sizeof(c->fds_s), "%ld", c->hb.fds);
    return TALLY_OK;
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
    const char *pieces[] = { "hackbench", c->hb.ipc == TALLY__HB_PIPE ? "-p" : NULL,
                             c->hb.mode == TALLY__HB_PROCESS ? "-P" : "-T", "-g", sweep_value,
                             "-l", c->loops_s, "-s", c->datasize_s, "-f", c->fds_s };
    return tally__argv_new(argv, pieces, TALLY__COUNT(pieces));
}

static int parse(double *values, const tally__wl *wl, const tally__run_output *o)
{
    (void)wl;
    return tally__parse_with_importer(&values[0], &tally__importer_hackbench, "hackbench stdout",
                                      o);
}

const tally__workload tally__workload_rt_hackbench = {
    TALLY_WORKLOAD_RT_HACKBENCH, "rt-hackbench", "groups", "1,2,4,8,16", "hackbench", tally__hackbench_keys,
    configure, release, NULL, command, parse, NULL, NULL,
};
