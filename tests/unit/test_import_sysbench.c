/* sysbench importer: the output of sysbench 1.0.20 (tests/data/sysbench, see its README),
 * expected samples read off the files by eye, located errors, sniffing. */
#include "check.h"
#include "import_helpers.h"

static const tally__importer *const imp = &tally__importer_sysbench;

static void check_samples(const tally_case *c, const double *want, size_t n)
{
    CHECK_INT(tally_case_sample_count(c), n);
    for (size_t i = 0; c && i < n && i < tally_case_sample_count(c); i++)
        CHECK(tally_case_samples(c)[i] == want[i]);
}

/* cpu_interval.txt: "[ 1s ] thds: 1 eps: 1185.68 lat (ms,95%): 0.04" and two more; the closing
 * "events per second:  3791.11" and "95th percentile: 0.04" become case metadata. */
static void test_intervals(void)
{
    static const double eps[] = { 1185.68, 3495.50, 7243.21 };
    static const double lat[] = { 0.04, 0.03, 0.04 };
    tally_results *r;
    CHECK_INT(import_file(&r, imp, "sysbench/cpu_interval.txt", NULL), TALLY_OK);
    if (!r)
        return;
    tally_case *c = find_case(r, "sysbench-cpu", "1-threads");
    check_samples(c, eps, 3);
    CHECK_STR(tally_case_meta_get(c, "sysbench.events_per_second"), "3791.11");
    tally_benchmark *b = tally_resultset_benchmark_find(tally_results_at(r, 0), "sysbench-cpu");
    CHECK_STR(tally_benchmark_unit(b), "events/s");
    CHECK_INT(tally_benchmark_direction(b), TALLY_HIGHER_IS_BETTER);
    c = find_case(r, "sysbench-cpu-latency-p95", "1-threads");
    check_samples(c, lat, 3);
    CHECK_STR(tally_case_meta_get(c, "sysbench.latency_percentile"), "0.04");
    tally_results_free(r);
}

/* cpu_3runs.txt: each run's "events per second:" and "95th percentile:" one sample. */
static void test_runs(void)
{
    static const double eps[] = { 5779.55, 7129.58, 6267.65 };
    static const double lat[] = { 0.03, 0.04, 0.04 };
    tally_results *r;
    CHECK_INT(import_file(&r, imp, "sysbench/cpu_3runs.txt", NULL), TALLY_OK);
    if (!r)
        return;
    check_samples(find_case(r, "sysbench-cpu", "1-threads"), eps, 3);
    check_samples(find_case(r, "sysbench-cpu-latency-p95", "1-threads"), lat, 3);
    tally_results_free(r);
}

/* memory_interval.txt: "[ 1s ] 1156.15 MiB/sec" and the closing "(1135.62 MiB/sec)". */
static void test_memory(void)
{
    tally_results *r;
    CHECK_INT(import_file(&r, imp, "sysbench/memory_interval.txt", NULL), TALLY_OK);
    if (!r)
        return;
    tally_case *c = find_case(r, "sysbench-memory", "2-threads");
    CHECK(c && tally_case_sample_count(c) >= 1 && tally_case_samples(c)[0] == 1156.15);
    CHECK_STR(tally_case_meta_get(c, "sysbench.mib_per_second"), "1135.62");
    tally_results_free(r);
}

static void test_errors(void)
{
    tally_results *r;
    /* "fast" starts at column 21. */
    CHECK_INT(import_text(&r, imp, "sysbench 1.0.20\n[ 1s ] thds: 1 eps: fast lat (ms,95%): 0.04\n",
                          "s.txt", NULL),
              TALLY_EPARSE);
    CHECK_STR(last_message(), "s.txt:2:21: expected a number, found 'fast'");
    CHECK_INT(import_text(&r, imp, "sysbench 1.0.20\n[ 1s ] thds: 1\n", "s.txt", NULL),
              TALLY_EPARSE);
    CHECK_STR(last_message(), "s.txt:2:1: expected an interval line with eps:, tps:, lat or "
                              "MiB/sec");
    /* "(fast" at column 22: the number after its parenthesis at 23. */
    CHECK_INT(import_text(&r, imp, "sysbench 1.0.20\n1.00 MiB transferred (fast MiB/sec)\n",
                          "m.txt", NULL),
              TALLY_EPARSE);
    CHECK_STR(last_message(), "m.txt:2:23: expected a throughput, found 'fast'");
    CHECK_INT(import_text(&r, imp, "sysbench 1.0.20\nThreads started!\n", "e.txt", NULL),
              TALLY_EFORMAT);
    CHECK_STR(last_message(), "e.txt:2:1: no sysbench results (interval lines or a run's closing "
                              "figures) found in the file");
    CHECK(r == NULL);
}

/* Names longer than the reader once kept. Refused, not cut: a number of threads past the case
 * name's 23 bytes (before "-threads"), a percentile past the 22 bytes after "latency-p". Whole:
 * an interval line's percentile of 8 bytes (7 were kept), the caller's benchmark name (120
 * bytes, 95 were kept). */
static void test_long_names(void)
{
    tally_results *r;
    char text[200];
    snprintf(text, sizeof text, "sysbench 1.0.20\nNumber of threads: %024d\n", 2);
    CHECK(refused_with(imp, text, "t.txt", TALLY_ELIMIT,
                       "t.txt:2:20: a number of threads of 24 bytes: longer than the 23 this "
                       "reader keeps"));
    /* the percentile of "(ms,NN%):" starts at column 33 */
    snprintf(text, sizeof text, "sysbench 1.0.20\n[ 1s ] thds: 1 eps: 5.0 lat (ms,%023d%%): 0.04\n",
             95);
    CHECK(refused_with(imp, text, "i.txt", TALLY_ELIMIT,
                       "i.txt:2:33: a percentile of 23 bytes: longer than the 22 this reader "
                       "keeps"));
    snprintf(text, sizeof text, "sysbench 1.0.20\nLatency (ms):\n    %023dth percentile: 0.04\n",
             95);
    CHECK(refused_with(imp, text, "c.txt", TALLY_ELIMIT,
                       "c.txt:3:5: a percentile of 23 bytes: longer than the 22 this reader "
                       "keeps"));
    tally_load_options opts = TALLY_LOAD_OPTIONS_INIT;
    opts.benchmark = "sysbench-oltp-read-write-yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy"
                     "yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy";
    CHECK_INT(import_text(&r, imp,
                          "sysbench 1.0.20\nNumber of threads: 1\n"
                          "[ 1s ] thds: 1 eps: 5.0 lat (ms,99.99999%): 0.04\n",
                          "fits.txt", &opts),
              TALLY_OK);
    CHECK_INT(case_sample_count(r, opts.benchmark, "1-threads"), 1);
    CHECK_INT(case_sample_count(r, "sysbench-latency-p99.99999", "1-threads"), 1);
    tally_results_free(r);
}

static void test_sniff(void)
{
    CHECK(sniffs_as("sysbench/cpu_interval.txt", imp, 90));
    CHECK(sniffs_as("sysbench/memory_interval.txt", imp, 90));
}

int main(void)
{
    test_intervals();
    test_runs();
    test_memory();
    test_errors();
    test_long_names();
    test_sniff();
    return check_summary();
}
