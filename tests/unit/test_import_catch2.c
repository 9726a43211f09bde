/* Catch2 XML importer. bench.xml and no-analysis.xml are real Catch2 2.13 output (see
 * tests/data/catch2/README.md). The reporter writes no samples: each benchmark is a
 * summary-only case; the expected figures are the file's attributes, the SD converted by hand
 * from Catch2's population SD: 1.34552 * sqrt(10 / 9). */
#include <math.h>

#include "check.h"
#include "import_helpers.h"

static const tally__importer *const imp = &tally__importer_catch2;

static void test_bench(void)
{
    tally_results *r;
    CHECK_INT(import_file(&r, imp, "catch2/bench.xml", NULL), TALLY_OK);
    if (!r)
        return;
    tally_resultset *rs = tally_results_at(r, 0);
    CHECK_STR(tally_resultset_meta_get(rs, "test_run"), "bench");
    tally_benchmark *b = tally_resultset_benchmark_find(rs, "Fibonacci");
    CHECK_STR(tally_benchmark_unit(b), "ns");
    tally_case *c = find_case(r, "Fibonacci", "fib 10");
    tally_case_summary s = { .size = sizeof s };
    CHECK_INT(tally_case_summary_result(&s, c), TALLY_OK);
    CHECK_INT(s.n, 10);
    CHECK(s.mean == 281.452);
    CHECK(fabs(s.sd - 1.34552 * sqrt(10.0 / 9.0)) < 1e-12);
    CHECK_STR(tally_case_meta_get(c, "reported.mean.lower"), "280.983");
    CHECK_STR(tally_case_meta_get(c, "reported.mean.upper"), "283.284");
    CHECK_STR(tally_case_meta_get(c, "catch2.stddev_population"), "1.34552");
    CHECK_STR(tally_case_meta_get(c, "outliers.highSevere"), "1");
    CHECK_STR(tally_case_meta_get(c, "iterations"), "120");
    /* name="fib &lt;15> &amp; &quot;q&quot;" */
    CHECK(find_case(r, "Fibonacci", "fib <15> & \"q\"") != NULL);
    tally_results_free(r);
}

static void test_errors(void)
{
    tally_results *r;
    CHECK_INT(import_file(&r, imp, "catch2/no-analysis.xml", NULL), TALLY_ENODATA);
    CHECK_STR(last_message(), "catch2/no-analysis.xml:5:7: run with --benchmark-no-analysis: "
                              "Catch2 wrote no standard deviation, so the benchmark cannot be "
                              "compared; run without it");
    static const char head[] = "<Catch name=\"b\"><TestCase name=\"t\">\n"
                               "<BenchmarkResults name=\"x\" samples=\"3\">\n";
    char text[1024];
    snprintf(text, sizeof text, "%s<failed message=\"boom\"/>\n</BenchmarkResults>", head);
    CHECK_INT(import_text(&r, imp, text, "f.xml", NULL), TALLY_ERUN);
    CHECK_STR(last_message(), "f.xml:3:1: the benchmark failed: boom");
    snprintf(text, sizeof text, "%s<mean value=\"1\" lowerBound=\"1\" upperBound=\"1\" "
             "ci=\"0.95\"/>\n</BenchmarkResults>", head);
    CHECK_INT(import_text(&r, imp, text, "m.xml", NULL), TALLY_EPARSE);
    CHECK_STR(last_message(), "m.xml:2:1: <BenchmarkResults> without its <mean> and "
                              "<standardDeviation>");
    snprintf(text, sizeof text, "%s<mean value=\"1&nbsp;\"/>", head);
    CHECK_INT(import_text(&r, imp, text, "e.xml", NULL), TALLY_EPARSE);
    CHECK_STR(last_message(), "e.xml:3:15: an unknown entity or a bare '&' in an attribute value");
    snprintf(text, sizeof text, "%s<mean value=\"nan\" lowerBound=\"1\"/>", head);
    CHECK_INT(import_text(&r, imp, text, "n.xml", NULL), TALLY_ENONFINITE);
    CHECK_STR(last_message(), "n.xml:3:7: value 'nan' is not finite");
    snprintf(text, sizeof text, "%s<mean value=\"1\" lowerBound=\"1\" upperBound=\"1\" ci=\"0.95\"/>",
             head);
    CHECK_INT(import_text(&r, imp, text, "c.xml", NULL), TALLY_EPARSE);
    CHECK_STR(last_message(), "c.xml:2:1: the file ends inside <BenchmarkResults>");
    CHECK_INT(import_text(&r, imp, "<Catch name=\"b\"></Catch>", "none.xml", NULL), TALLY_EFORMAT);
    CHECK(r == NULL);
}

int main(void)
{
    test_bench();
    test_errors();
    CHECK(sniffs_as("catch2/bench.xml", imp, 95));
    return check_summary();
}
