/* BenchmarkDotNet importer, on files written from its documented full JSON export (the
 * exporters' documentation and BenchmarkDotNet.Reports.Measurement), not produced by
 * BenchmarkDotNet (not in Debian). Expected samples by hand: Nanoseconds / Operations of the
 * Workload/Actual rows, 5120000 / 1024 = 5000, 5222400 / 1024 = 5100, 5017600 / 1024 = 4900. */
#include "check.h"
#include "import_helpers.h"

static const tally__importer *const imp = &tally__importer_benchmarkdotnet;

static void test_one_job(void)
{
    tally_results *r;
    CHECK_INT(import_file(&r, imp, "benchmarkdotnet/Md5VsSha256-report-full.json", NULL),
              TALLY_OK);
    if (!r)
        return;
    CHECK_INT(tally_results_count(r), 1);
    tally_resultset *rs = tally_results_at(r, 0);
    CHECK_STR(tally_resultset_meta_get(rs, "host.BenchmarkDotNetVersion"), "0.13.12");
    CHECK_STR(tally_resultset_meta_get(rs, "host.ChronometerFrequency.Hertz"), "1000000000");
    /* jitting, pilot, warm-up, overhead and Result rows are not samples */
    tally_case *c = find_case(r, "Md5VsSha256.Sha256", "N=1000");
    CHECK_INT(tally_case_sample_count(c), 3);
    CHECK(c && tally_case_samples(c)[0] == 5000 && tally_case_samples(c)[1] == 5100 &&
          tally_case_samples(c)[2] == 4900);
    CHECK(find_case(r, "Md5VsSha256.Md5", "N=10000") != NULL);
    tally_results_free(r);
}

static void test_jobs(void)
{
    tally_results *r;
    CHECK_INT(import_file(&r, imp, "benchmarkdotnet/two-jobs-report-full.json", NULL), TALLY_OK);
    if (!r)
        return;
    CHECK_INT(tally_results_count(r), 2);
    CHECK_STR(tally_resultset_label(tally_results_at(r, 0)), "Job-NET60");
    CHECK_STR(tally_resultset_label(tally_results_at(r, 1)), "Job-NET80");
    CHECK_INT(tally_results_note_count(r), 1);
    tally_results_free(r);
}

/* validate-report-full.json (see tests/data/benchmarkdotnet/README.md): the Statistics are kept
 * with what rebuilds the Result rows: the overhead median 110 ns over 4 operations = 27.5 ns per
 * operation, and 5 actual iterations less 4 Result rows = 1 upper outlier. */
static void test_statistics(void)
{
    tally_results *r;
    CHECK_INT(import_file(&r, imp, "benchmarkdotnet/validate-report-full.json", NULL), TALLY_OK);
    if (!r)
        return;
    tally_case *c = find_case(r, "Parse.Json", "all");
    CHECK_INT(tally_case_sample_count(c), 5);
    CHECK_STR(tally_case_meta_get(c, "benchmarkdotnet.overhead"), "27.5");
    CHECK_STR(tally_case_meta_get(c, "benchmarkdotnet.upper_outliers"), "1");
    CHECK_STR(tally_case_meta_get(c, "reported.bdn_mean"), "994.375");
    CHECK_STR(tally_case_meta_get(c, "reported.bdn_median"), "991.25");
    CHECK_STR(tally_case_meta_get(c, "reported.bdn_min"), "972.5");
    CHECK_STR(tally_case_meta_get(c, "reported.bdn_max"), "1022.5");
    CHECK(tally_case_meta_get(c, "reported.bdn_stddev") != NULL);
    tally_results_free(r);
}

/* Actual iterations of different operation counts: no single overhead per operation, so the
 * Statistics are not kept (nothing for tally_validate() to get wrong). */
static void test_statistics_not_kept(void)
{
    static const char text[] =
        "{\"Benchmarks\": [{\"Type\": \"T\", \"Method\": \"M\", "
        "\"Statistics\": {\"Mean\": 1}, \"Measurements\": ["
        "{\"IterationMode\": \"Workload\", \"IterationStage\": \"Actual\", "
        "\"Operations\": 2, \"Nanoseconds\": 4},"
        "{\"IterationMode\": \"Workload\", \"IterationStage\": \"Actual\", "
        "\"Operations\": 4, \"Nanoseconds\": 8},"
        "{\"IterationMode\": \"Workload\", \"IterationStage\": \"Result\", "
        "\"Operations\": 2, \"Nanoseconds\": 4}]}]}";
    tally_results *r;
    CHECK_INT(import_text(&r, imp, text, "o.json", NULL), TALLY_OK);
    if (!r)
        return;
    tally_case *c = find_case(r, "T.M", "all");
    CHECK_INT(tally_case_sample_count(c), 2);
    CHECK(tally_case_meta_get(c, "reported.bdn_mean") == NULL);
    CHECK(tally_case_meta_get(c, "benchmarkdotnet.overhead") == NULL);
    tally_results_free(r);
}

static void test_errors(void)
{
    tally_results *r;
    CHECK_INT(import_text(&r, imp, "{\"HostEnvironmentInfo\": {}, \"Benchmarks\": [{\"Type\": "
                                   "\"T\", \"Method\": \"M\", \"Statistics\": {}}]}",
                          "brief.json", NULL),
              TALLY_ENODATA);
    CHECK_STR(last_message(), "brief.json: $.Benchmarks[0]: no Measurements: export with "
                              "JsonExporter.Full (the brief exporter leaves out every iteration)");
    CHECK_INT(import_text(&r, imp, "{\"Benchmarks\": [{\"Type\": \"T\", \"Method\": \"M\", "
                                   "\"Measurements\": [{\"IterationMode\": \"Workload\", "
                                   "\"IterationStage\": \"Actual\", \"Operations\": 0, "
                                   "\"Nanoseconds\": 5}]}]}",
                          "z.json", NULL),
              TALLY_EPARSE);
    CHECK_STR(last_message(), "z.json: $.Benchmarks[0].Measurements[0]: expected Operations > 0, found 0");
    CHECK(r == NULL);
}

int main(void)
{
    test_one_job();
    test_jobs();
    test_statistics();
    test_statistics_not_kept();
    test_errors();
    CHECK(sniffs_as("benchmarkdotnet/Md5VsSha256-report-full.json", imp, 95));
    return check_summary();
}
