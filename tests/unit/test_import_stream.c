/* STREAM importer. STREAM is not packaged in Debian: tests/data/stream/runs.txt follows the
 * output of stream.c 5.10 as published (two runs concatenated; see the README there). */
#include "check.h"
#include "import_helpers.h"

static const tally__importer *const imp = &tally__importer_stream;

static void test_runs(void)
{
    tally_results *r;
    CHECK_INT(import_file(&r, imp, "stream/runs.txt", NULL), TALLY_OK);
    if (!r)
        return;
    tally_resultset *rs = tally_results_at(r, 0);
    CHECK_STR(tally_resultset_meta_get(rs, "harness"), "stream");
    tally_benchmark *b = tally_resultset_benchmark_find(rs, "stream");
    CHECK_STR(tally_benchmark_unit(b), "MB/s");
    CHECK_INT(tally_benchmark_direction(b), TALLY_HIGHER_IS_BETTER);
    CHECK_INT(tally_benchmark_statistic(b), TALLY_STAT_HMEAN);
    CHECK_INT(tally_benchmark_case_count(b), 4);
    CHECK_STR(tally_case_name(tally_benchmark_case_at(b, 0)), "Copy");
    CHECK_STR(tally_case_name(tally_benchmark_case_at(b, 3)), "Triad");
    /* best rates: Copy 26584.2 then 26911.8; Triad 20012.5 then 19876.1 */
    tally_case *c = find_case(r, "stream", "Copy");
    CHECK_INT(tally_case_sample_count(c), 2);
    CHECK(tally_case_samples(c)[0] == 26584.2);
    CHECK(tally_case_samples(c)[1] == 26911.8);
    c = find_case(r, "stream", "Triad");
    CHECK(tally_case_samples(c)[0] == 20012.5);
    CHECK(tally_case_samples(c)[1] == 19876.1);
    CHECK(find_case(r, "stream", "Scale") != NULL && find_case(r, "stream", "Add") != NULL);
    tally_results_free(r);
}

static void test_errors(void)
{
    tally_results *r;
    const char *head = "Function    Best Rate MB/s  Avg time     Min time     Max time\n";
    char text[256];
    snprintf(text, sizeof text, "%sCopy:", head);
    CHECK_INT(import_text(&r, imp, text, "cut.txt", NULL), TALLY_EPARSE);
    CHECK_STR(last_message(), "cut.txt:2:6: expected the best rate after 'Copy:' (truncated file?)");
    snprintf(text, sizeof text, "%sCopy: fast 0.1\n", head);
    CHECK_INT(import_text(&r, imp, text, "t.txt", NULL), TALLY_EPARSE);
    CHECK_STR(last_message(), "t.txt:2:7: expected a rate in MB/s, found 'fast'");
    snprintf(text, sizeof text, "%sCopy:           inf     0.006102\n", head);
    CHECK_INT(import_text(&r, imp, text, "n.txt", NULL), TALLY_ENONFINITE);
    CHECK_STR(last_message(), "n.txt:2:17: rate 'inf' is not finite");
    snprintf(text, sizeof text,
             "%sCopy: 1 1 1 1\nFailed Validation on array a[], AvgRelAbsErr > epsilon (1e-13)\n",
             head);
    CHECK_INT(import_text(&r, imp, text, "v.txt", NULL), TALLY_EFORMAT);
    CHECK_STR(last_message(), "v.txt:3:1: STREAM reported a failed validation; its rates are not valid");
    CHECK_INT(import_text(&r, imp, "STREAM version $Revision: 5.10 $\n", "e.txt", NULL),
              TALLY_EFORMAT);
    CHECK_STR(last_message(),
              "e.txt:1:1: no STREAM result table (Function    Best Rate MB/s ...) found in the file");
    CHECK_INT(import_file(&r, imp, "hackbench/runs.txt", NULL), TALLY_EFORMAT);
    CHECK_STR(last_message(), "hackbench/runs.txt:15:1: no STREAM result table (Function    Best "
                              "Rate MB/s ...) found in the file");
    CHECK(r == NULL);
}

static void test_sniff(void)
{
    CHECK(sniffs_as("stream/runs.txt", imp, 90));
}

int main(void)
{
    test_runs();
    test_errors();
    test_sniff();
    return check_summary();
}
