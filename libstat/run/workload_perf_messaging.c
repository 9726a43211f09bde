/* `perf bench sched messaging [-p] [-t] -g GROUPS -l LOOPS`: perf's own hackbench. Its output
 * (no importer exists for it) ends with
 *      Total time: 0.388 [sec]
 * which is the sample. */
#include <stdio.h>
#include <string.h>

#include "run/runner_internal.h"
#include "util/text.h"

enum { MODE_PROCESS, MODE_THREAD };
enum { IPC_PIPE, IPC_SOCKET };

typedef struct pm_cfg {
    int mode, ipc;
    long loops;
    char loops_s[24];
} pm_cfg;

static const char *const keys[] = { "mode", "ipc", "loops", NULL };
static const char *const modes[] = { "process", "thread", NULL };
static const char *const ipcs[] = { "pipe", "socket", NULL };

static int configure(tally__wl *wl, const tally__params *p)
{
    pm_cfg *c = tally__calloc(1, sizeof(*c));
    if (c == NULL)
        return tally__error(TALLY_ENOMEM, "out of memory");
    wl->cfg = c;
    int rc = tally__param_choice(&c->mode, p, "mode", modes, MODE_PROCESS);
    if (rc == TALLY_OK)
        rc = tally__param_choice(&c->ipc, p, "ipc", ipcs, IPC_PIPE);
    if (rc == TALLY_OK)
        rc = tally__param_long(&c->loops, p, "loops", 100, 1, 100000000);
    if (rc != TALLY_OK)
        return rc;
    snprintf(c->loops_s, sizeof(c->loops_s), "%ld", c->loops);
    char name[64];
    snprintf(name, sizeof(name), "perf-messaging-%s-%s",
             c->mode == MODE_PROCESS ? "process" : "thread",
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
    const pm_cfg *c = wl->cfg;
    long groups;
    int rc = tally__sweep_long(&groups, sweep_value, "groups", 10000);
    if (rc != TALLY_OK)
        return rc;
    const char *pieces[] = { "perf", "bench", "sched", "messaging",
                             c->ipc == IPC_PIPE ? "-p" : NULL,
                             c->mode == MODE_THREAD ? "-t" : NULL, "-g", sweep_value,
                             "-l", c->loops_s };
    return tally__argv_new(argv, pieces, TALLY__COUNT(pieces));
}

int tally__parse_perf_messaging(double *value, const char *out)
{
    static const char key[] = "Total time:";
    const char *hit = NULL;
    for (const char *s = strstr(out, key); s != NULL; s = strstr(s + 1, key))
        hit = s;
    if (hit == NULL)
        return tally__error(TALLY_EPARSE, "perf output: no 'Total time:' line");
    const char *num = hit + sizeof(key) - 1;
    size_t len = strcspn(num, "[\n");
    if (strncmp(num + len, "[sec]", 5) != 0 || tally__parse_double(value, num, len) != TALLY_OK)
        return tally__error(TALLY_EPARSE, "perf output: expected 'Total time: <seconds> [sec]'");
    return TALLY_OK;
}

static int parse(double *values, const tally__wl *wl, const tally__run_output *o)
{
    (void)wl;
    return tally__parse_perf_messaging(&values[0], o->out);
}

const tally__workload tally__workload_perf_messaging = {
    TALLY_WORKLOAD_PERF_MESSAGING, "perf-messaging", "groups", "1,2,4,8,16", "perf", keys,
    configure, release, NULL, command, parse, NULL, NULL,
};
