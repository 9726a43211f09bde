/* The external-tool workloads on recorded real outputs (tests/data/runner/, captured on a test
 * machine with rt-tests 2.x hackbench, perf 6.x and dbench 4.00's tbench): the value each run
 * yields, and the exact command line each workload builds from our own parameters. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "formats/importer.h"
#include "run/runner_internal.h"

static int load(tally__run_output *o, const char *name)
{
    char path[512];
    snprintf(path, sizeof(path), "%s/runner/%s", TALLY_TEST_DATA, name);
    memset(o, 0, sizeof(*o));
    return tally__read_file(&o->out, &o->out_len, path);
}

static void test_recorded_outputs(void)
{
    tally__run_output o;
    double v = 0;
    /* Values read off the files' closing lines by eye ("Time: 0.331", ...). */
    CHECK_INT(load(&o, "hackbench-p-g2-l100.stdout"), TALLY_OK);
    CHECK_INT(tally__parse_with_importer(&v, &tally__importer_hackbench, "hackbench", &o),
              TALLY_OK);
    CHECK_ABS(v, 0.331, 0);
    tally__free_mem(o.out);
    CHECK_INT(load(&o, "hackbench-T-p-g1-l50-s64.stdout"), TALLY_OK);
    CHECK_INT(tally__parse_with_importer(&v, &tally__importer_hackbench, "hackbench", &o),
              TALLY_OK);
    CHECK_ABS(v, 0.058, 0);
    tally__free_mem(o.out);
    CHECK_INT(load(&o, "tbench-t3-2clients.stdout"), TALLY_OK);
    CHECK_INT(tally__parse_with_importer(&v, &tally__importer_tbench, "tbench", &o), TALLY_OK);
    CHECK_ABS(v, 428.991, 0);
    tally__free_mem(o.out);
    CHECK_INT(load(&o, "perf-messaging-p-g1-l20.stdout"), TALLY_OK);
    CHECK_INT(tally__parse_perf_messaging(&v, o.out), TALLY_OK);
    CHECK_ABS(v, 0.388, 0);
    tally__free_mem(o.out);

    /* iperf3 -J: python3 -c "import json; print(json.load(open('iperf3-c-t1-P2.json'))['end']
     * ['sum_received']['bits_per_second'])" -> 3095203802.605235 bit/s, i.e. 3095.2038... Mbit/s. */
    CHECK_INT(tally__read_file(&o.out, &o.out_len, TALLY_TEST_DATA "/runner/iperf3-c-t1-P2.json"),
              TALLY_OK);
    CHECK_INT(tally__parse_iperf3(&v, o.out, o.out_len), TALLY_OK);
    CHECK_REL(v, 3095.203802605235, 1e-15);
    tally__free_mem(o.out);
    /* A refused connection: exit status 0, but an "error" member. */
    CHECK_INT(tally__read_file(&o.out, &o.out_len, TALLY_TEST_DATA "/runner/iperf3-refused.json"),
              TALLY_OK);
    CHECK_INT(tally__parse_iperf3(&v, o.out, o.out_len), TALLY_EPARSE);
    CHECK(strstr(tally_error_last()->message, "Connection refused") != NULL);
    tally__free_mem(o.out);

    /* Outputs without a result: a run that printed nothing useful is a failed run. */
    tally__run_output empty;
    memset(&empty, 0, sizeof(empty));
    empty.out = "failed to connect to 127.0.0.1 - Connection refused\n";
    empty.out_len = strlen(empty.out);
    CHECK(tally__parse_with_importer(&v, &tally__importer_tbench, "tbench", &empty) != TALLY_OK);
    CHECK(tally__parse_with_importer(&v, &tally__importer_hackbench, "hackbench", &empty) !=
          TALLY_OK);
    CHECK_INT(tally__parse_perf_messaging(&v, empty.out), TALLY_EPARSE);
    CHECK_INT(tally__parse_perf_messaging(&v, "     Total time: x [sec]\n"), TALLY_EPARSE);
}

/* The command a workload runs for one sweep value, joined with spaces. */
static void check_command(const tally__workload *w, const char *const *params, size_t n,
                          const char *sweep_value, const char *expected, const char *bench)
{
    tally__wl wl;
    memset(&wl, 0, sizeof(wl));
    wl.w = w;
    tally__params p = { (char **)NULL, (char **)NULL, 0 };
    char *keys[8], *values[8];
    char store[8][64];
    for (size_t i = 0; i < n; i++) {
        snprintf(store[i], sizeof(store[i]), "%s", params[i]);
        char *eq = strchr(store[i], '=');
        *eq = '\0';
        keys[i] = store[i];
        values[i] = eq + 1;
    }
    p.keys = keys;
    p.values = values;
    p.count = n;
    CHECK_INT(w->configure(&wl, &p), TALLY_OK);
    char **argv = NULL;
    CHECK_INT(w->command(&argv, &wl, sweep_value), TALLY_OK);
    char joined[512] = "";
    for (size_t i = 0; argv && argv[i]; i++) {
        if (i)
            strcat(joined, " ");
        strcat(joined, argv[i]);
    }
    CHECK_STR(joined, expected);
    CHECK_STR(wl.metric_count ? wl.metrics[0].benchmark : NULL, bench);
    tally__free_argv(argv);
    w->release(&wl);
    for (size_t i = 0; i < wl.metric_count; i++) {
        tally__free_mem(wl.metrics[i].benchmark);
        tally__free_mem(wl.metrics[i].case_name);
        tally__free_mem(wl.metrics[i].unit);
    }
    tally__free_mem(wl.metrics);
}

static void test_commands(void)
{
    check_command(&tally__workload_rt_hackbench, NULL, 0, "4",
                  "hackbench -p -P -g 4 -l 100 -s 100 -f 20", "hackbench-process-pipes");
    const char *t[] = { "mode=thread", "ipc=socket", "loops=50", "datasize=64" };
    check_command(&tally__workload_rt_hackbench, t, 4, "1",
                  "hackbench -T -g 1 -l 50 -s 64 -f 20", "hackbench-thread-sockets");
    check_command(&tally__workload_perf_messaging, NULL, 0, "2",
                  "perf bench sched messaging -p -g 2 -l 100", "perf-messaging-process-pipes");
    const char *pm[] = { "mode=thread", "ipc=socket", "loops=20" };
    check_command(&tally__workload_perf_messaging, pm, 3, "2",
                  "perf bench sched messaging -t -g 2 -l 20", "perf-messaging-thread-sockets");
    const char *ip[] = { "runtime=3", "port=5300" };
    check_command(&tally__workload_iperf3, ip, 2, "4",
                  "iperf3 -c 127.0.0.1 -p 5300 -J -t 3 -P 4", "iperf3-tcp");
    if (tally__find_executable("tbench_srv")) {
        const char *tb[] = { "runtime=3" };
        check_command(&tally__workload_tbench, tb, 1, "2", "tbench -t 3 2 127.0.0.1", "tbench");
    }
}

int main(void)
{
    test_recorded_outputs();
    test_commands();
    return check_summary();
}
