/* The workload registry: every workload the runner knows, by kind and by name. */
#include "run/runner_internal.h"
#include "util/names.h"

static const tally__workload *const workloads[] = {
    &tally__workload_hackbench,    &tally__workload_stream,
    &tally__workload_schbench,     &tally__workload_tcp_rr,
    &tally__workload_exec,         &tally__workload_rt_hackbench,
    &tally__workload_perf_messaging, &tally__workload_tbench,
    &tally__workload_iperf3,       &tally__workload_netperf,
};
#define WORKLOAD_COUNT (TALLY__COUNT(workloads))

const tally__workload *tally__workload_find(tally_workload kind)
{
    for (size_t i = 0; i < WORKLOAD_COUNT; i++)
        if (workloads[i]->kind == kind)
            return workloads[i];
    return NULL;
}

static const char *workload_row(const void *table, size_t i, int *value)
{
    const tally__workload *const *w = table;
    *value = (int)w[i]->kind;
    return w[i]->name;
}

TALLY__NAME_FUNCTIONS_ROWS(tally_workload, workloads, WORKLOAD_COUNT, workload_row, "workload")

int tally_workload_available(tally_workload workload)
{
    const tally__workload *w = tally__workload_find(workload);
    if (w == NULL)
        return 0;
    return w->tool == NULL || tally__find_executable(w->tool);
}
