/* The external tools run for real, briefly, when installed (rt-tests hackbench, perf, dbench's
 * tbench, iperf3); exits 77 (a CTest skip) when none is. Checks sane values, no failed run (else
 * the tool's own message is printed), and that nothing the runner started is left behind. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <netinet/in.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "loopback_port.h"
#include "run/runner_internal.h"
#include "tally.h"

/* Every failed run and note the runner recorded, with the tool's own words: in the cases, or in
 * the result set when no run of a case succeeded. */
static void print_failures(const tally_resultset *rs, const char *bench)
{
    for (size_t i = 0; rs && i < tally_resultset_meta_count(rs); i++) {
        const char *k, *v;
        if (tally_resultset_meta_at(&k, &v, rs, i) == TALLY_OK &&
            (strncmp(k, "failed_run.", 11) == 0 || strncmp(k, "warning.", 8) == 0))
            fprintf(stderr, "  %s: %s: %s\n", bench, k, v);
    }
    const tally_benchmark *b = rs ? tally_resultset_benchmark_find(rs, bench) : NULL;
    for (size_t c = 0; b && c < tally_benchmark_case_count(b); c++) {
        const tally_case *tc = tally_benchmark_case_at(b, c);
        for (size_t i = 0; i < tally_case_meta_count(tc); i++) {
            const char *k, *v;
            if (tally_case_meta_at(&k, &v, tc, i) == TALLY_OK &&
                (strncmp(k, "failed_run.", 11) == 0 || strncmp(k, "note.", 5) == 0))
                fprintf(stderr, "  %s/%s: %s: %s\n", bench, tally_case_name(tc), k, v);
        }
    }
}

/* Nothing the runner started is left running: this process is a subreaper, so any process the
 * runner orphaned (a server, a server's child, a daemon of a run) is now a child of ours. The
 * server's children that were killed are orphaned zombies here (dead; reaped now). */
static void check_no_leftovers(const char *bench)
{
    int status;
    pid_t left;
    while ((left = waitpid(-1, &status, WNOHANG)) > 0)
        ;
    CHECK(left < 0 && errno == ECHILD);
    if (!(left < 0 && errno == ECHILD))
        fprintf(stderr, "  %s: processes left running after the runner returned\n", bench);
}

static void run_tool2(tally_workload w, const char *sweep, unsigned runs, const char *param,
                      const char *param2, const char *bench, const char *cname, double hi)
{
    const char *params[] = { param, param2 };
    tally_runner_options o = TALLY_RUNNER_OPTIONS_INIT;
    o.workload = w;
    o.sweep = sweep;
    o.runs = runs;
    o.warmup = 0;
    o.timeout = 30;
    o.params = params;
    o.param_count = param2 ? 2 : 1;
    tally_runner *r = NULL;
    CHECK_INT(tally_runner_new(&r, &o), TALLY_OK);
    int rc = tally_runner_run(r);
    CHECK_INT(rc, TALLY_OK);
    if (rc != TALLY_OK)
        fprintf(stderr, "  %s: %s\n", bench, tally_error_last()->message);
    const tally_resultset *rs = tally_runner_resultset(r);
    const tally_benchmark *b = rs ? tally_resultset_benchmark_find(rs, bench) : NULL;
    const tally_case *c = b ? tally_benchmark_case_find(b, cname) : NULL;
    CHECK_INT(c ? tally_case_sample_count(c) : 0, runs);
    CHECK_INT(tally_runner_failed_runs(r), 0);
    if (tally_runner_failed_runs(r) > 0)
        print_failures(rs, bench);
    for (size_t i = 0; c && i < tally_case_sample_count(c); i++) {
        double v = tally_case_samples(c)[i];
        if (!(isfinite(v) && v > 0 && v < hi))
            fprintf(stderr, "  %s: %g outside (0, %g)\n", bench, v, hi);
        CHECK(isfinite(v) && v > 0 && v < hi);
    }
    tally_runner_free(r);
    check_no_leftovers(bench);
}

static void run_tool(tally_workload w, const char *sweep, const char *param, const char *bench,
                     const char *cname, double hi)
{
    run_tool2(w, sweep, 1, param, NULL, bench, cname, hi);
}


int main(void)
{
    int ran = 0;
    prctl(PR_SET_CHILD_SUBREAPER, 1);
    if (tally_workload_available(TALLY_WORKLOAD_RT_HACKBENCH)) {
        run_tool(TALLY_WORKLOAD_RT_HACKBENCH, "1", "loops=10", "hackbench-process-pipes",
                 "1-groups", 60);
        ran++;
    }
    if (tally_workload_available(TALLY_WORKLOAD_PERF_MESSAGING)) {
        run_tool(TALLY_WORKLOAD_PERF_MESSAGING, "1", "loops=10", "perf-messaging-process-pipes",
                 "1-groups", 60);
        ran++;
    }
    /* As root tbench_srv runs in a private network namespace, so port 7003 of this machine
     * does not matter; otherwise another tbench_srv there would answer instead of ours. */
    if (tally_workload_available(TALLY_WORKLOAD_TBENCH) &&
        (geteuid() == 0 || !tally__loopback_port_open(7003))) {
        /* MB/s above 0; 10^6 MB/s would be a parse of the wrong number. */
        run_tool(TALLY_WORKLOAD_TBENCH, "1", "runtime=2", "tbench", "1-clients", 1e6);
        ran++;
    }
    if (tally_workload_available(TALLY_WORKLOAD_IPERF3)) {
        /* Mbit/s above 0 and below 10^7 (10 Tbit/s). Three runs against one server, which
         * re-creates its listener after each client. */
        char port[32];
        snprintf(port, sizeof(port), "port=%ld", free_port());
        run_tool2(TALLY_WORKLOAD_IPERF3, "1", 3, "runtime=1", port, "iperf3-tcp", "1-streams",
                  1e7);
        ran++;
    }
    if (!ran) {
        printf("skipped: none of hackbench, perf, tbench, iperf3 is installed\n");
        return 77;
    }
    return check_summary();
}
