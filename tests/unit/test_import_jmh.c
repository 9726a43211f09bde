/* JMH importer, on tests/data/jmh/results.json, written from JMH's documented JSON result
 * format (the shape of `-rf json`: an array of results with primaryMetric.rawData[fork][iter]
 * and, in SampleTime mode, rawDataHistogram[fork][iter] of [value, count] pairs), not produced
 * by JMH (not in Debian). Expected samples are the file's numbers read by hand. */
#include "check.h"
#include "import_helpers.h"

static const tally__importer *const imp = &tally__importer_jmh;

static void test_results(void)
{
    tally_results *r;
    CHECK_INT(import_file(&r, imp, "jmh/results.json", NULL), TALLY_OK);
    if (!r)
        return;
    tally_resultset *rs = tally_results_at(r, 0);
    CHECK_STR(tally_resultset_meta_get(rs, "jmhVersion"), "1.37");
    CHECK_STR(tally_resultset_meta_get(rs, "jvmArgs"), "-Xmx2g");
    /* testMethod is in the file in two modes: each name carries its mode */
    tally_benchmark *b = tally_resultset_benchmark_find(rs, "org.sample.MyBenchmark.testMethod (thrpt)");
    CHECK_STR(tally_benchmark_unit(b), "ops/s");
    CHECK_INT(tally_benchmark_direction(b), TALLY_HIGHER_IS_BETTER);
    tally_case *c = find_case(r, "org.sample.MyBenchmark.testMethod (thrpt)", "size=100");
    CHECK_INT(tally_case_sample_count(c), 6);
    /* fork 0 then fork 1 */
    CHECK(tally_case_samples(c)[0] == 3524193.154);
    CHECK(tally_case_samples(c)[3] == 3440045.307);
    CHECK_STR(tally_case_meta_get(c, "forks"), "2");
    CHECK_STR(tally_case_meta_get(c, "mode"), "thrpt");
    b = tally_resultset_benchmark_find(rs, "org.sample.MyBenchmark.testMethod (avgt)");
    CHECK_INT(tally_benchmark_direction(b), TALLY_LOWER_IS_BETTER);
    /* [[[[1.5, 3], [2.0, 1]], [[1.5, 2], [3.0, 2]]]]: 1.5 1.5 1.5 2 1.5 1.5 3 3 */
    c = find_case(r, "org.sample.Latency.measure", "all");
    static const double hist[] = { 1.5, 1.5, 1.5, 2.0, 1.5, 1.5, 3.0, 3.0 };
    CHECK_INT(tally_case_sample_count(c), 8);
    for (size_t i = 0; c && i < 8; i++)
        CHECK(tally_case_samples(c)[i] == hist[i]);
    /* scoreError "NaN" (two samples) is not kept */
    c = find_case(r, "org.sample.Tiny.once", "all");
    CHECK(tally_case_meta_get(c, "reported.score_error") == NULL);
    CHECK_STR(tally_case_meta_get(c, "reported.mean"), "13");
    tally_results_free(r);
}

static void test_errors(void)
{
    tally_results *r;
    CHECK_INT(import_text(&r, imp, "{}", "o.json", NULL), TALLY_EPARSE);
    CHECK_STR(last_message(), "o.json: $: expected an array of JMH results, found an object");
    CHECK_INT(import_text(&r, imp,
                          "[{\"benchmark\": \"a\", \"mode\": \"avgt\", \"primaryMetric\": "
                          "{\"scoreUnit\": \"us/op\"}}]",
                          "n.json", NULL),
              TALLY_ENODATA);
    CHECK_STR(last_message(),
              "n.json: $[0].primaryMetric: neither rawData nor rawDataHistogram: no samples");
    CHECK_INT(import_text(&r, imp,
                          "[{\"benchmark\": \"a\", \"mode\": \"sample\", \"primaryMetric\": "
                          "{\"scoreUnit\": \"us/op\", \"rawDataHistogram\": [[[[1, 0.5]]]]}}]",
                          "h.json", NULL),
              TALLY_EPARSE);
    CHECK_STR(last_message(), "h.json: $[0].primaryMetric.rawDataHistogram[0][0][0][1]: "
                              "expected a whole count >= 0, found 0.5");
    CHECK_INT(import_text(&r, imp,
                          "[{\"benchmark\": \"a\", \"mode\": \"avgt\", \"primaryMetric\": "
                          "{\"scoreUnit\": \"us/op\", \"rawData\": [[1, \"x\"]]}}]",
                          "r.json", NULL),
              TALLY_EPARSE);
    CHECK_STR(last_message(),
              "r.json: $[0].primaryMetric.rawData[0][1]: expected a number, found a string");
    CHECK(r == NULL);
}

static void test_sniff(void)
{
    CHECK(sniffs_as("jmh/results.json", imp, 95));
}

int main(void)
{
    test_results();
    test_errors();
    test_sniff();
    return check_summary();
}
