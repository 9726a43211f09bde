/* schbench importer. schbench is not packaged in Debian: tests/data/schbench follows the output
 * printed in schbench's README (recent versions: wakeup, request and RPS blocks, "average rps";
 * runs.txt holds an interval report, then two runs) and the older "Latency percentiles" form
 * (old.txt, two runs). See the README there. */
#include "check.h"
#include "import_helpers.h"

static const tally__importer *const imp = &tally__importer_schbench;

static void test_runs(void)
{
    tally_results *r;
    CHECK_INT(import_file(&r, imp, "schbench/runs.txt", NULL), TALLY_OK);
    if (!r)
        return;
    tally_resultset *rs = tally_results_at(r, 0);
    CHECK_STR(tally_resultset_meta_get(rs, "harness"), "schbench");
    /* 4 wakeup, 4 request and 3 RPS percentiles in the file, and the average rps */
    CHECK_INT(tally_resultset_benchmark_count(rs), 12);
    tally_benchmark *b = tally_resultset_benchmark_find(rs, "schbench-wakeup-p99");
    CHECK_STR(tally_benchmark_unit(b), "usec");
    CHECK_INT(tally_benchmark_direction(b), TALLY_LOWER_IS_BETTER);
    CHECK_INT(tally_benchmark_statistic(b), TALLY_STAT_MEDIAN);
    CHECK_INT(tally_benchmark_case_count(b), 1);
    /* the interval report (runtime 10, p99 175) is replaced by the final one of run 1 */
    tally_case *c = find_case(r, "schbench-wakeup-p99", "all");
    CHECK_INT(tally_case_sample_count(c), 2);
    CHECK(tally_case_samples(c)[0] == 180);
    CHECK(tally_case_samples(c)[1] == 210);
    c = find_case(r, "schbench-wakeup-p99.9", "all");
    CHECK(tally_case_samples(c)[0] == 1011 && tally_case_samples(c)[1] == 1266);
    c = find_case(r, "schbench-request-p50", "all");
    CHECK(tally_case_samples(c)[0] == 16864 && tally_case_samples(c)[1] == 17120);
    b = tally_resultset_benchmark_find(rs, "schbench-rps-p20");
    CHECK_STR(tally_benchmark_unit(b), "requests/s");
    CHECK_INT(tally_benchmark_direction(b), TALLY_HIGHER_IS_BETTER);
    c = find_case(r, "schbench-rps-p20", "all");
    CHECK(tally_case_samples(c)[0] == 3012 && tally_case_samples(c)[1] == 2996);
    c = find_case(r, "schbench-rps", "all");
    CHECK_INT(tally_case_sample_count(c), 2);
    CHECK(tally_case_samples(c)[0] == 3019.80 && tally_case_samples(c)[1] == 3007.50);
    tally_results_free(r);

    tally_load_options opts = TALLY_LOAD_OPTIONS_INIT;
    opts.benchmark = "sch";
    CHECK_INT(import_file(&r, imp, "schbench/old.txt", &opts), TALLY_OK);
    if (!r)
        return;
    /* 7 percentiles in the old layout, one benchmark each */
    CHECK_INT(tally_resultset_benchmark_count(tally_results_at(r, 0)), 7);
    b = tally_resultset_benchmark_find(tally_results_at(r, 0), "sch-wakeup-p50");
    CHECK(b != NULL);
    /* "*99.0000th: 33" then "*99.0000th: 36"; "99.5000th: 40" then 44 */
    c = find_case(r, "sch-wakeup-p99", "all");
    CHECK_INT(tally_case_sample_count(c), 2);
    CHECK(tally_case_samples(c)[0] == 33 && tally_case_samples(c)[1] == 36);
    c = find_case(r, "sch-wakeup-p99.5", "all");
    CHECK(tally_case_samples(c)[0] == 40 && tally_case_samples(c)[1] == 44);
    c = find_case(r, "sch-wakeup-p75", "all");
    CHECK(tally_case_samples(c)[0] == 16 && tally_case_samples(c)[1] == 17);
    tally_results_free(r);
}

static void test_errors(void)
{
    tally_results *r;
    const char *head = "Wakeup Latencies percentiles (usec) runtime 10 (s) (30212 total samples)\n";
    char text[256];
    snprintf(text, sizeof text, "%s\t  50.0th: 7          (7806 samples)\n", head);
    CHECK_INT(import_text(&r, imp, text, "cut.txt", NULL), TALLY_EPARSE);
    CHECK_STR(last_message(),
              "cut.txt:1:1: percentile block without its closing min=, max= line (truncated file?)");
    snprintf(text, sizeof text, "%s\t  50.0th:", head);
    CHECK_INT(import_text(&r, imp, text, "cut.txt", NULL), TALLY_EPARSE);
    CHECK_STR(last_message(), "cut.txt:2:11: expected a value after '50.0th:'");
    snprintf(text, sizeof text, "%s\t  50.0th: fast\n", head);
    CHECK_INT(import_text(&r, imp, text, "t.txt", NULL), TALLY_EPARSE);
    CHECK_STR(last_message(), "t.txt:2:12: expected a number, found 'fast'");
    snprintf(text, sizeof text, "%s\t  hello\n", head);
    CHECK_INT(import_text(&r, imp, text, "t.txt", NULL), TALLY_EPARSE);
    CHECK_STR(last_message(), "t.txt:2:4: expected a percentile line such as '50.0th: 12' or "
                              "'min=, max=' in the block of line 1");
    snprintf(text, sizeof text, "%s\t  50.0th: inf\n", head);
    CHECK_INT(import_text(&r, imp, text, "n.txt", NULL), TALLY_ENONFINITE);
    CHECK_STR(last_message(), "n.txt:2:12: percentile value 'inf' is not finite");
    CHECK_INT(import_text(&r, imp, "setting worker threads to 52\n", "e.txt", NULL), TALLY_EFORMAT);
    CHECK_STR(last_message(), "e.txt:1:1: no schbench percentile blocks found in the file");
    CHECK_INT(import_file(&r, imp, "stream/runs.txt", NULL), TALLY_EFORMAT);
    CHECK_STR(last_message(), "stream/runs.txt:66:1: no schbench percentile blocks found in the file");
    CHECK(r == NULL);
}

/* The caller's benchmark name of 300 bytes: its percentile benchmarks are named whole (255
 * bytes were kept, so names that differ only in the percentile could be one). */
static void test_long_base(void)
{
    char base[301], want[2][320];
    memset(base, 'z', 300);
    base[300] = '\0';
    snprintf(want[0], sizeof want[0], "%s-wakeup-p50", base);
    snprintf(want[1], sizeof want[1], "%s-wakeup-p99.5", base);
    tally_load_options opts = TALLY_LOAD_OPTIONS_INIT;
    opts.benchmark = base;
    tally_results *r;
    CHECK_INT(import_text(&r, imp,
                          "Wakeup Latencies percentiles (usec) runtime 10 (s) (4 total samples)\n"
                          "\t  50.0th: 7          (2 samples)\n"
                          "\t  99.5000th: 40      (2 samples)\n"
                          "\t  min=1, max=40\n",
                          "long.txt", &opts),
              TALLY_OK);
    if (!r)
        return;
    CHECK_INT(tally_resultset_benchmark_count(tally_results_at(r, 0)), 2);
    const tally_case *c = find_case(r, want[0], "all");
    CHECK(c && tally_case_samples(c)[0] == 7);
    c = find_case(r, want[1], "all");
    CHECK(c && tally_case_samples(c)[0] == 40);
    tally_results_free(r);
}

static void test_sniff(void)
{
    CHECK(sniffs_as("schbench/runs.txt", imp, 90));
    CHECK(sniff_best("schbench/old.txt", NULL) == imp);
}

int main(void)
{
    test_runs();
    test_errors();
    test_long_base();
    test_sniff();
    return check_summary();
}
