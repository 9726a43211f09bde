/* The built-in workloads with tiny parameters: every result set must have the right benchmarks,
 * cases and sample counts, positive finite values in plausible ranges, and the machine metadata.
 * No timing assertions: the ranges only rule out nonsense (zero, negative, absurdly large). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "check.h"
#include "tally.h"

static tally_runner *run_workload(tally_workload w, const char *sweep, unsigned runs,
                                  unsigned warmup, const char *const *params, size_t nparams,
                                  const char *const *command)
{
    tally_runner_options o = TALLY_RUNNER_OPTIONS_INIT;
    o.workload = w;
    o.sweep = sweep;
    o.runs = runs;
    o.warmup = warmup;
    o.params = params;
    o.param_count = nparams;
    o.command = command;
    o.timeout = 60;
    o.label = "tip";
    o.command_line = "tally run test";
    tally_runner *r = NULL;
    int rc = tally_runner_new(&r, &o);
    CHECK_INT(rc, TALLY_OK);
    if (rc != TALLY_OK) {
        fprintf(stderr, "  %s\n", tally_error_last()->message);
        return NULL;
    }
    rc = tally_runner_run(r);
    CHECK_INT(rc, TALLY_OK);
    if (rc != TALLY_OK)
        fprintf(stderr, "  %s\n", tally_error_last()->message);
    return r;
}

/* Every sample of a case within (lo, hi), n of them, no failed runs. */
static void check_case(const tally_resultset *rs, const char *bench, const char *cname,
                       size_t n, double lo, double hi)
{
    const tally_benchmark *b = tally_resultset_benchmark_find(rs, bench);
    CHECK(b != NULL);
    if (b == NULL) {
        fprintf(stderr, "  missing benchmark %s\n", bench);
        return;
    }
    const tally_case *c = tally_benchmark_case_find(b, cname);
    CHECK(c != NULL);
    if (c == NULL) {
        fprintf(stderr, "  missing case %s/%s\n", bench, cname);
        return;
    }
    CHECK_INT(tally_case_sample_count(c), n);
    CHECK(tally_case_meta_get(c, "failed_runs") == NULL);
    if (tally_case_meta_get(c, "failed_runs"))
        fprintf(stderr, "  %s\n", tally_case_meta_get(c, "failed_run.1"));
    for (size_t i = 0; i < tally_case_sample_count(c); i++) {
        double x = tally_case_samples(c)[i];
        int ok = isfinite(x) && x > lo && x < hi;
        if (!ok)
            fprintf(stderr, "  %s/%s sample %zu = %g outside (%g, %g)\n", bench, cname, i, x, lo,
                    hi);
        CHECK(ok);
    }
}

static double sample_at(const tally_resultset *rs, const char *bench, const char *cname,
                        size_t i)
{
    const tally_benchmark *b = tally_resultset_benchmark_find(rs, bench);
    const tally_case *c = b ? tally_benchmark_case_find(b, cname) : NULL;
    return c && i < tally_case_sample_count(c) ? tally_case_samples(c)[i] : NAN;
}

static void test_metadata(void)
{
    const char *params[] = { "loops=5" };
    tally_runner *r = run_workload(TALLY_WORKLOAD_HACKBENCH, "1", 1, 0, params, 1, NULL);
    const tally_resultset *rs = tally_runner_resultset(r);
    CHECK(rs != NULL);
    if (rs == NULL)
        return;
    struct utsname u;
    uname(&u);
    CHECK_STR(tally_resultset_label(rs), "tip");
    CHECK_STR(tally_resultset_meta_get(rs, "kernel"), u.release); /* uname(2) */
    char cpus[32];
    snprintf(cpus, sizeof(cpus), "%ld", sysconf(_SC_NPROCESSORS_ONLN));
    CHECK_STR(tally_resultset_meta_get(rs, "cpu_count"), cpus);
    CHECK_STR(tally_resultset_meta_get(rs, "tally_version"), TALLY_VERSION_STRING);
    CHECK_STR(tally_resultset_meta_get(rs, "command_line"), "tally run test");
    CHECK_STR(tally_resultset_meta_get(rs, "workload"), "hackbench");
    CHECK_STR(tally_resultset_meta_get(rs, "param.loops"), "5");
    CHECK(tally_resultset_meta_get(rs, "memory") != NULL);
    const char *date = tally_resultset_meta_get(rs, "date");
    /* ISO 8601 UTC: 2026-11-29T21:01:09Z is 20 characters with T and Z in place. */
    CHECK(date != NULL && strlen(date) == 20 && date[10] == 'T' && date[19] == 'Z');
    tally_runner_free(r);
}

static void test_hackbench(void)
{
    const char *params[] = { "loops=10", "fds=10" };
    tally_runner *r = run_workload(TALLY_WORKLOAD_HACKBENCH, "1,2", 2, 1, params, 2, NULL);
    const tally_resultset *rs = tally_runner_resultset(r);
    if (rs != NULL) {
        const tally_benchmark *b = tally_resultset_benchmark_find(rs, "hackbench-process-pipes");
        CHECK(b != NULL);
        CHECK_STR(b ? tally_benchmark_unit(b) : NULL, "s");
        CHECK_INT(b ? (int)tally_benchmark_direction(b) : -1, TALLY_LOWER_IS_BETTER);
        CHECK_INT(b ? tally_benchmark_case_count(b) : 0, 2);
        check_case(rs, "hackbench-process-pipes", "1-groups", 2, 0, 60);
        check_case(rs, "hackbench-process-pipes", "2-groups", 2, 0, 60);
        const tally_case *c = b ? tally_benchmark_case_find(b, "2-groups") : NULL;
        CHECK_STR(c ? tally_case_meta_get(c, "groups") : NULL, "2");
    }
    tally_runner_free(r);

    const char *tparams[] = { "loops=10", "mode=thread", "ipc=socket", "fds=5", "datasize=64" };
    r = run_workload(TALLY_WORKLOAD_HACKBENCH, "3", 1, 0, tparams, 5, NULL);
    rs = tally_runner_resultset(r);
    if (rs != NULL)
        check_case(rs, "hackbench-thread-sockets", "3-groups", 1, 0, 60);
    tally_runner_free(r);
}

static void test_stream(void)
{
    const char *params[] = { "array_size=200000", "ntimes=3", "threads=2" };
    tally_runner *r = run_workload(TALLY_WORKLOAD_STREAM, NULL, 2, 0, params, 3, NULL);
    const tally_resultset *rs = tally_runner_resultset(r);
    if (rs != NULL) {
        const tally_benchmark *b = tally_resultset_benchmark_find(rs, "stream");
        CHECK_INT(b ? tally_benchmark_case_count(b) : 0, 4);
        CHECK_STR(b ? tally_benchmark_unit(b) : NULL, "MB/s");
        CHECK_INT(b ? (int)tally_benchmark_direction(b) : -1, TALLY_HIGHER_IS_BETTER);
        CHECK_INT(b ? (int)tally_benchmark_statistic(b) : -1, TALLY_STAT_HMEAN);
        /* 1 MB/s would be a broken clock; 10^7 MB/s (10 TB/s) is beyond any memory system. */
        const char *kernels[] = { "Copy", "Scale", "Add", "Triad" };
        for (int k = 0; k < 4; k++)
            check_case(rs, "stream", kernels[k], 2, 1, 1e7);
    }
    tally_runner_free(r);

    /* An unknown parameter is refused before anything runs. */
    const char *bad[] = { "arraysize=5" };
    tally_runner_options o = TALLY_RUNNER_OPTIONS_INIT;
    o.workload = TALLY_WORKLOAD_STREAM;
    o.params = bad;
    o.param_count = 1;
    CHECK_INT(tally_runner_new(&r, &o), TALLY_EINVAL);
    CHECK(strstr(tally_error_last()->message, "arraysize") != NULL);
    o.params = NULL;
    o.param_count = 0;
    o.sweep = "1,2";
    CHECK_INT(tally_runner_new(&r, &o), TALLY_EINVAL); /* stream takes no sweep */
}

static void test_schbench(void)
{
    const char *params[] = { "runtime=0.1", "cputime=50", "sleeptime=200" };
    tally_runner *r = run_workload(TALLY_WORKLOAD_SCHBENCH, "1,2", 1, 0, params, 3, NULL);
    const tally_resultset *rs = tally_runner_resultset(r);
    if (rs != NULL) {
        const char *cases[] = { "1-workers", "2-workers" };
        for (int i = 0; i < 2; i++) {
            /* Latencies: above 0, below the 60 s timeout. */
            check_case(rs, "schbench-wakeup-p50", cases[i], 1, 0, 6e7);
            check_case(rs, "schbench-wakeup-p90", cases[i], 1, 0, 6e7);
            check_case(rs, "schbench-wakeup-p99", cases[i], 1, 0, 6e7);
            check_case(rs, "schbench-wakeup-p99.9", cases[i], 1, 0, 6e7);
            check_case(rs, "schbench-rps", cases[i], 1, 0, 1e9);
            /* Percentiles of one sample set are ordered. */
            double p50 = sample_at(rs, "schbench-wakeup-p50", cases[i], 0);
            double p90 = sample_at(rs, "schbench-wakeup-p90", cases[i], 0);
            double p99 = sample_at(rs, "schbench-wakeup-p99", cases[i], 0);
            double p999 = sample_at(rs, "schbench-wakeup-p99.9", cases[i], 0);
            CHECK(p50 <= p90 && p90 <= p99 && p99 <= p999);
        }
        const tally_benchmark *b = tally_resultset_benchmark_find(rs, "schbench-wakeup-p99");
        CHECK_STR(b ? tally_benchmark_unit(b) : NULL, "usec");
        CHECK_INT(b ? (int)tally_benchmark_statistic(b) : -1, TALLY_STAT_MEDIAN);
    }
    tally_runner_free(r);
}

static void test_tcp_rr(void)
{
    const char *params[] = { "runtime=0.1" };
    tally_runner *r = run_workload(TALLY_WORKLOAD_TCP_RR, "1,2", 1, 0, params, 1, NULL);
    const tally_resultset *rs = tally_runner_resultset(r);
    if (rs != NULL) {
        for (int i = 0; i < 2; i++) {
            const char *cname = i ? "2-clients" : "1-clients";
            check_case(rs, "tcp_rr", cname, 1, 0, 1e9);
            check_case(rs, "tcp_rr-latency-p50", cname, 1, 0, 6e7);
            check_case(rs, "tcp_rr-latency-p99", cname, 1, 0, 6e7);
            CHECK(sample_at(rs, "tcp_rr-latency-p50", cname, 0) <=
                  sample_at(rs, "tcp_rr-latency-p90", cname, 0));
        }
        const tally_benchmark *b = tally_resultset_benchmark_find(rs, "tcp_rr");
        CHECK_INT(b ? (int)tally_benchmark_direction(b) : -1, TALLY_HIGHER_IS_BETTER);
    }
    tally_runner_free(r);
}

/* A window shorter than it takes to start the threads (1 us): each client's window opens when
 * it starts, and it makes at least one transaction, so the run measures something however
 * loaded the machine. The window used to open before the threads were made: on a loaded
 * machine it closed before the first transaction ("no transactions measured"), and with 1 us it
 * always did. */
static void test_tcp_rr_late_start(void)
{
    const char *params[] = { "runtime=0.000001" };
    tally_runner *r = run_workload(TALLY_WORKLOAD_TCP_RR, "2", 1, 0, params, 1, NULL);
    const tally_resultset *rs = tally_runner_resultset(r);
    CHECK(rs != NULL);
    if (rs != NULL) {
        check_case(rs, "tcp_rr", "2-clients", 1, 0, 1e12);
        CHECK(sample_at(rs, "tcp_rr-latency-p50", "2-clients", 0) <=
              sample_at(rs, "tcp_rr-latency-p90", "2-clients", 0));
    }
    tally_runner_free(r);
}

static void test_exec(void)
{
    /* The value printed by the command comes back exactly: 1.5 and, per sweep value, 2 and 3. */
    const char *cmd[] = { "sh", "-c", "echo noise; echo 'Time: 0.5'; echo 'Time: {}.25'", NULL };
    const char *params[] = { "metric=Time: ([0-9.]+)", "unit=s", "name=mytool" };
    tally_runner *r = run_workload(TALLY_WORKLOAD_EXEC, "2,3", 2, 1, params, 3, cmd);
    const tally_resultset *rs = tally_runner_resultset(r);
    if (rs != NULL) {
        check_case(rs, "mytool", "2", 2, 0, 100);
        CHECK_ABS(sample_at(rs, "mytool", "2", 0), 2.25, 0); /* the last match wins */
        CHECK_ABS(sample_at(rs, "mytool", "3", 1), 3.25, 0);
    }
    tally_runner_free(r);

    /* Wall time of a command sleeping 0.1 s is at least 0.1 s. */
    const char *sleep_cmd[] = { "sleep", "0.1", NULL };
    r = run_workload(TALLY_WORKLOAD_EXEC, NULL, 1, 0, NULL, 0, sleep_cmd);
    rs = tally_runner_resultset(r);
    if (rs != NULL)
        check_case(rs, "sleep", "command", 1, 0.099, 60);
    tally_runner_free(r);

    /* A command failing every time leaves no case (the native format has no empty cases): its
     * failures are recorded in the result set's metadata, and the sweep goes on. */
    const char *fail_cmd[] = { "sh", "-c", "echo oops >&2; exit 3", NULL };
    r = run_workload(TALLY_WORKLOAD_EXEC, NULL, 2, 0, NULL, 0, fail_cmd);
    rs = tally_runner_resultset(r);
    if (rs != NULL) {
        CHECK_INT(tally_resultset_benchmark_count(rs), 0);
        CHECK_STR(tally_resultset_meta_get(rs, "failed_runs.command"), "2");
        CHECK_STR(tally_resultset_meta_get(rs, "failed_run.command.2"),
                  "run 2: exit status 3; stderr: oops\n");
    }
    CHECK_INT(tally_runner_failed_runs(r), 2);
    tally_runner_free(r);

    /* A command that fails only on its second run: the failure stays with the case. */
    const char *marker = TALLY_TEST_TMP "/runner_second_fails";
    unlink(marker);
    char script[512];
    snprintf(script, sizeof(script),
             "if [ -e %s ]; then echo late >&2; exit 1; fi; : > %s; echo v: 7", marker, marker);
    const char *once_cmd[] = { "sh", "-c", script, NULL };
    const char *vparams[] = { "metric=v: ([0-9]+)" };
    r = run_workload(TALLY_WORKLOAD_EXEC, NULL, 3, 0, vparams, 1, once_cmd);
    rs = tally_runner_resultset(r);
    if (rs != NULL) {
        const tally_benchmark *b = tally_resultset_benchmark_find(rs, "sh");
        const tally_case *c = b ? tally_benchmark_case_find(b, "command") : NULL;
        CHECK_INT(c ? tally_case_sample_count(c) : 0, 1);
        CHECK_ABS(sample_at(rs, "sh", "command", 0), 7, 0);
        CHECK_STR(c ? tally_case_meta_get(c, "failed_runs") : NULL, "2");
        CHECK_STR(c ? tally_case_meta_get(c, "failed_run.1") : NULL,
                  "run 2: exit status 1; stderr: late\n");
    }
    tally_runner_free(r);
    unlink(marker);

    /* A command that is not installed, a sweep without {}: refused up front. */
    tally_runner_options o = TALLY_RUNNER_OPTIONS_INIT;
    o.workload = TALLY_WORKLOAD_EXEC;
    const char *missing[] = { "no-such-command-xyz", NULL };
    o.command = missing;
    CHECK_INT(tally_runner_new(&r, &o), TALLY_ENOTFOUND);
    o.command = sleep_cmd;
    o.sweep = "1,2";
    CHECK_INT(tally_runner_new(&r, &o), TALLY_EINVAL);
}

static void test_names(void)
{
    tally_workload w;
    CHECK_INT(tally_workload_from_name(&w, "tcp_rr"), TALLY_OK);
    CHECK_INT(w, TALLY_WORKLOAD_TCP_RR);
    CHECK_STR(tally_workload_name(TALLY_WORKLOAD_TBENCH), "tbench");
    CHECK_INT(tally_workload_from_name(&w, "nope"), TALLY_EINVAL);
    CHECK(tally_workload_name((tally_workload)99) == NULL);
    CHECK_INT(tally_workload_available(TALLY_WORKLOAD_STREAM), 1);
}

int main(void)
{
    test_names();
    test_metadata();
    test_hackbench();
    test_stream();
    test_schbench();
    test_tcp_rr();
    test_tcp_rr_late_start();
    test_exec();
    return check_summary();
}
