/* The netperf workload end to end with stand-ins for netperf and netserver
 * (tests/data/runner/fake-netperf/: netperf is not in Debian main, so the real tools cannot be
 * installed here). The stand-ins check the exact arguments; netserver's listens on the port
 * (python3). Exits 77 (a CTest skip) without /usr/bin/python3. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "run/runner_internal.h"
#include "tally.h"

int main(void)
{
    if (access("/usr/bin/python3", X_OK) != 0 || tally__loopback_port_open(12999)) {
        printf("skipped: no /usr/bin/python3, or port 12999 busy\n");
        return 77;
    }
    const char *old = getenv("PATH");
    char path[4096];
    snprintf(path, sizeof(path), "%s/runner/fake-netperf:%s", TALLY_TEST_DATA, old ? old : "");
    setenv("PATH", path, 1);
    CHECK_INT(tally_workload_available(TALLY_WORKLOAD_NETPERF), 1);

    const char *params[] = { "runtime=1", "port=12999" };
    tally_runner_options o = TALLY_RUNNER_OPTIONS_INIT;
    o.workload = TALLY_WORKLOAD_NETPERF;
    o.sweep = "1,2";
    o.runs = 2;
    o.warmup = 0;
    o.timeout = 30;
    o.params = params;
    o.param_count = 2;
    tally_runner *r = NULL;
    CHECK_INT(tally_runner_new(&r, &o), TALLY_OK);
    int rc = tally_runner_run(r);
    CHECK_INT(rc, TALLY_OK);
    if (rc != TALLY_OK)
        fprintf(stderr, "  %s\n", tally_error_last()->message);
    const tally_resultset *rs = tally_runner_resultset(r);
    const tally_benchmark *b = rs ? tally_resultset_benchmark_find(rs, "netperf-tcp_rr") : NULL;
    const tally_case *c1 = b ? tally_benchmark_case_find(b, "1-clients") : NULL;
    const tally_case *c2 = b ? tally_benchmark_case_find(b, "2-clients") : NULL;
    if (c2 && tally_case_meta_get(c2, "failed_run.1"))
        fprintf(stderr, "  %s\n", tally_case_meta_get(c2, "failed_run.1"));
    CHECK_INT(c1 ? tally_case_sample_count(c1) : 0, 2);
    CHECK_INT(c2 ? tally_case_sample_count(c2) : 0, 2);
    /* The stand-in prints 35001.77 trans/s per client: 1 client 35001.77, 2 clients
     * 35001.77 + 35001.77 = 70003.54 (by hand). */
    CHECK_REL(c1 && tally_case_sample_count(c1) ? tally_case_samples(c1)[0] : 0, 35001.77, 1e-15);
    CHECK_REL(c2 && tally_case_sample_count(c2) ? tally_case_samples(c2)[1] : 0, 70003.54, 1e-15);
    CHECK_STR(b ? tally_benchmark_unit(b) : NULL, "trans/s");
    tally_runner_free(r);
    CHECK(!tally__loopback_port_open(12999)); /* the runner stopped its netserver */
    return check_summary();
}
