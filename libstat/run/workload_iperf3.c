/* iperf3 over loopback: the runner starts `iperf3 -s -B 127.0.0.1 -p PORT` before the sweep and
 * stops it afterwards; each run is `iperf3 -c 127.0.0.1 -p PORT -J -t RUNTIME -P STREAMS`. The
 * JSON report's end.sum_received.bits_per_second is the sample. iperf3 exits 0 even when it
 * could not connect, so a report with an "error" member is a failed run. No importer reads
 * iperf3 files, so the parse lives here. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "util/json_util.h"
#include "run/runner_internal.h"

typedef tally__loopback_cfg ip_cfg;

static const char *const keys[] = { "runtime", "port", NULL };

static int configure(tally__wl *wl, const tally__params *p)
{
    ip_cfg *c;
    int rc = tally__loopback_configure(&c, wl, p, 5201);
    if (rc != TALLY_OK)
        return rc;
    return tally__wl_add_metric(wl, "iperf3-tcp", NULL, "Mbit/s", TALLY_HIGHER_IS_BETTER,
                                TALLY_STAT_AMEAN);
}

static void release(tally__wl *wl)
{
    tally__free_mem(wl->cfg);
    wl->cfg = NULL;
}

static int start(tally__wl *wl)
{
    const ip_cfg *c = wl->cfg;
    const char *pieces[] = { "iperf3", "-s", "-B", "127.0.0.1", "-p", c->port_s };
    char **argv = NULL;
    int rc = tally__argv_new(&argv, pieces, TALLY__COUNT(pieces));
    if (rc == TALLY_OK)
        rc = tally__server_start(&wl->server, argv, c->port, "iperf3 server",
                                 TALLY__SERVER_RELISTEN, "stop it, or choose another port "
                                 "with --port");
    tally__free_argv(argv);
    return rc;
}

static int command(char ***argv, const tally__wl *wl, const char *sweep_value)
{
    const ip_cfg *c = wl->cfg;
    long streams;
    int rc = tally__sweep_long(&streams, sweep_value, "streams", 128);
    if (rc != TALLY_OK)
        return rc;
    const char *pieces[] = { "iperf3", "-c", "127.0.0.1", "-p", c->port_s, "-J",
                             "-t", c->runtime_s, "-P", sweep_value };
    return tally__argv_new(argv, pieces, TALLY__COUNT(pieces));
}

int tally__parse_iperf3(double *mbits, const char *data, size_t len)
{
    cJSON *root = NULL;
    int rc = tally__json_parse_tool_output(&root, data, len, "iperf3 stdout");
    if (rc != TALLY_OK)
        return rc;
    const cJSON *err = cJSON_GetObjectItemCaseSensitive(root, "error");
    const cJSON *end = cJSON_GetObjectItemCaseSensitive(root, "end");
    const cJSON *sum = cJSON_GetObjectItemCaseSensitive(end, "sum_received");
    const cJSON *bps = cJSON_GetObjectItemCaseSensitive(sum, "bits_per_second");
    if (cJSON_IsString(err))
        rc = tally__error(TALLY_EPARSE, "iperf3: %s", err->valuestring);
    else if (!cJSON_IsNumber(bps) || !(bps->valuedouble > 0))
        rc = tally__error_json(TALLY_EPARSE, "iperf3 stdout", "$.end.sum_received.bits_per_second",
                               "expected a positive number");
    else
        *mbits = bps->valuedouble / 1e6;
    cJSON_Delete(root);
    return rc;
}

static int parse(double *values, const tally__wl *wl, const tally__run_output *o)
{
    (void)wl;
    return tally__parse_iperf3(&values[0], o->out, o->out_len);
}

const tally__workload tally__workload_iperf3 = {
    TALLY_WORKLOAD_IPERF3, "iperf3", "streams", "1,2,4,8", "iperf3", keys,
    configure, release, NULL, command, parse, start, tally__wl_stop_server,
};
