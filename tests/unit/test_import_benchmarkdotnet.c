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
    test_errors();
    CHECK(sniffs_as("benchmarkdotnet/Md5VsSha256-report-full.json", imp, 95));
    return check_summary();
}
