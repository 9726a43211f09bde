/* The workload registry: every workload the runner knows, by kind and by name. */
#include <string.h>

#include "run/runner_internal.h"

static const tally__workload *const workloads[] = {
    &tally__workload_hackbench,    &tally__workload_stream,
    &tally__workload_schbench,     &tally__workload_tcp_rr,
    &tally__workload_exec,         &tally__workload_rt_hackbench,
    &tally__workload_perf_messaging, &tally__workload_tbench,
    &tally__workload_iperf3,       &tally__workload_netperf,
};
#define WORKLOAD_COUNT (sizeof(workloads) / sizeof(workloads[0]))

const tally__workload *tally__workload_find(tally_workload kind)
{
    for (size_t i = 0; i < WORKLOAD_COUNT; i++)
        if (workloads[i]->kind == kind)
            return workloads[i];
    return NULL;
}

const char *tally_workload_name(tally_workload workload)
{
    const tally__workload *w = tally__workload_find(workload);
    return w ? w->name : NULL;
}

int tally_workload_from_name(tally_workload *out, const char *name)
{
    for (size_t i = 0; name != NULL && i < WORKLOAD_COUNT; i++) {
        if (strcmp(workloads[i]->name, name) == 0) {
            *out = workloads[i]->kind;
            return TALLY_OK;
        }
    }
    return tally__error(TALLY_EINVAL, "unknown workload '%s'", name ? name : "(null)");
}

int tally_workload_available(tally_workload workload)
{
    const tally__workload *w = tally__workload_find(workload);
    if (w == NULL)
        return 0;
    return w->tool == NULL || tally__find_executable(w->tool);
}
