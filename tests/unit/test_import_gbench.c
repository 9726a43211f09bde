/* Google Benchmark importer: golden checks on files written by libbenchmark 1.7.1
 * (tests/data/gbench, see its README), one test per class of bad input, sniffing. Expected
 * values are read off the JSON files. */
#include <stdlib.h>

#include "check.h"
#include "import_helpers.h"

static const tally__importer *const imp = &tally__importer_gbench;

static double meta_number(const tally_case *c, const char *key)
{
    const char *v = c ? tally_case_meta_get(c, key) : NULL;
    return v ? strtod(v, NULL) : -1;
}

static void test_repetitions(void)
{
    tally_results *r;
    CHECK_INT(import_file(&r, imp, "gbench/repetitions.json", NULL), TALLY_OK);
    if (!r)
        return;
    tally_resultset *rs = tally_results_at(r, 0);
    CHECK_STR(tally_resultset_label(rs), "repetitions");
    CHECK_STR(tally_resultset_meta_get(rs, "harness"), "gbench");
    /* context, kept as result-set metadata */
    CHECK_STR(tally_resultset_meta_get(rs, "host_name"), "vm");
    CHECK_STR(tally_resultset_meta_get(rs, "num_cpus"), "2");
    CHECK_STR(tally_resultset_meta_get(rs, "cpu_scaling_enabled"), "false");
    CHECK_STR(tally_resultset_meta_get(rs, "load_avg"), "2.56543,2.03516,1.09766");
    CHECK_STR(tally_resultset_meta_get(rs, "date"), "2026-11-29T21:09:59+00:00");
    CHECK(tally_resultset_meta_get(rs, "caches") == NULL);
    /* one benchmark per family, in its time unit */
    CHECK_INT(tally_resultset_benchmark_count(rs), 2);
    tally_benchmark *b = tally_resultset_benchmark_find(rs, "BM_StringCopy");
    CHECK_STR(tally_benchmark_unit(b), "ns");
    CHECK_INT(tally_benchmark_direction(b), TALLY_LOWER_IS_BETTER);
    CHECK_INT(tally_benchmark_case_count(b), 4);
    CHECK_STR(tally_benchmark_unit(tally_resultset_benchmark_find(rs, "BM_VectorPush")), "us");

    /* rows 0-2: BM_StringCopy/8 iterations; aggregates 3-6 are not samples */
    tally_case *c = find_case(r, "BM_StringCopy", "BM_StringCopy/8/real_time");
    CHECK_INT(tally_case_sample_count(c), 3);
    CHECK(tally_case_samples(c)[0] == 6.020644564158016);
    CHECK(tally_case_samples(c)[2] == 4.177878196489728);
    CHECK(meta_number(c, "reported.mean") == 4.397043934854129);
    CHECK(meta_number(c, "reported.median") == 4.177878196489727);
    CHECK(meta_number(c, "reported.stddev") == 1.5258686029991233);
    CHECK(meta_number(c, "reported.cv") == 0.34702145932725226);
    c = find_case(r, "BM_StringCopy", "BM_StringCopy/8/cpu_time");
    CHECK_INT(tally_case_sample_count(c), 3);
    CHECK(tally_case_samples(c)[0] == 3.7824654045862554);
    CHECK(tally_case_samples(c)[2] == 3.0282172146006103);
    CHECK(meta_number(c, "reported.mean") == 3.26780233559812);
    c = find_case(r, "BM_StringCopy", "BM_StringCopy/512/real_time");
    CHECK(tally_case_samples(c)[1] == 13.972905094523654);
    c = find_case(r, "BM_VectorPush", "BM_VectorPush/cpu_time");
    CHECK_INT(tally_case_sample_count(c), 3);
    CHECK(tally_case_samples(c)[2] == 0.1224110363498826);
    CHECK(meta_number(c, "reported.cv") == 0.02344799653520053);
    tally_results_free(r);
}

static void test_errors(void)
{
    tally_results *r;
    /* a failed benchmark (SkipWithError) is reported, naming its row */
    CHECK_INT(import_file(&r, imp, "gbench/error.json", NULL), TALLY_ERUN);
    CHECK_STR(last_message(), "gbench/error.json: $.benchmarks[0]: benchmark \"BM_Fails\" "
                              "reported an error: resource unavailable (error_occurred)");
    CHECK_INT(import_file(&r, imp, "gbench/with_error.json", NULL), TALLY_ERUN);
    CHECK_STR(last_message(), "gbench/with_error.json: $.benchmarks[21]: benchmark \"BM_Fails\" "
                              "reported an error: resource unavailable (error_occurred)");
    /* aggregates only: no samples */
    CHECK_INT(import_file(&r, imp, "gbench/aggregates_only.json", NULL), TALLY_ENODATA);
    CHECK_STR(last_message(),
              "gbench/aggregates_only.json: $.benchmarks: no iteration rows, only aggregates (run "
              "without --benchmark_report_aggregates_only to keep the samples)");
    /* truncated: line 2 holds 16 characters, so the end of input is line 2, column 17 */
    CHECK_INT(import_text(&r, imp, "{\"context\": {},\n\"benchmarks\": [{", "cut.json", NULL),
              TALLY_EPARSE);
    CHECK_STR(last_message(), "cut.json:2:17: unexpected end of JSON input (truncated file?)");
    /* wrong types */
    CHECK_INT(import_text(&r, imp,
                          "{\"benchmarks\": [{\"name\": \"a\", \"run_type\": \"iteration\", "
                          "\"real_time\": \"1\", \"cpu_time\": 1}]}",
                          "t.json", NULL),
              TALLY_EPARSE);
    CHECK_STR(last_message(), "t.json: $.benchmarks[0].real_time: expected a number, found a string");
    CHECK_INT(import_text(&r, imp, "{\"benchmarks\": {}}", "t.json", NULL), TALLY_EPARSE);
    CHECK_STR(last_message(), "t.json: $.benchmarks: expected an array, found an object");
    CHECK_INT(import_text(&r, imp,
                          "{\"benchmarks\": [{\"name\": \"a\", \"real_time\": 1, \"cpu_time\": 1, "
                          "\"time_unit\": \"min\"}]}",
                          "t.json", NULL),
              TALLY_EPARSE);
    CHECK_STR(last_message(),
              "t.json: $.benchmarks[0].time_unit: expected \"ns\", \"us\", \"ms\" or \"s\", found \"min\"");
    /* mixed units within one family */
    CHECK_INT(import_text(&r, imp,
                          "{\"benchmarks\": [{\"name\": \"BM_a/1\", \"real_time\": 1, \"cpu_time\": 1, "
                          "\"time_unit\": \"ns\"}, {\"name\": \"BM_a/2\", \"real_time\": 1, "
                          "\"cpu_time\": 1, \"time_unit\": \"us\"}]}",
                          "u.json", NULL),
              TALLY_EMISMATCH);
    CHECK_STR(last_message(), "u.json: $.benchmarks[1].time_unit: time_unit \"us\" differs from "
                              "\"ns\" of earlier rows of BM_a");
    /* empty sample list */
    CHECK_INT(import_text(&r, imp, "{\"context\": {}, \"benchmarks\": []}", "e.json", NULL),
              TALLY_ENODATA);
    CHECK_STR(last_message(), "e.json: $.benchmarks: no benchmark rows");
    /* non-finite */
    CHECK_INT(import_text(&r, imp,
                          "{\"benchmarks\": [{\"name\": \"a\", \"real_time\": 1, \"cpu_time\": -1e400}]}",
                          "n.json", NULL),
              TALLY_ENONFINITE);
    CHECK_STR(last_message(), "n.json: $.benchmarks[0].cpu_time: number out of range (beyond 1.8e308), found '-1e400'");
    /* wrong kind of file */
    CHECK_INT(import_file(&r, imp, "hyperfine/basic.json", NULL), TALLY_EPARSE);
    CHECK_STR(last_message(), "hyperfine/basic.json: $: missing member \"benchmarks\" (an array)");
    CHECK(r == NULL);
}

static void test_old_files(void)
{
    /* Files before v1.5 have neither run_name nor run_type; aggregates carry aggregate_name. */
    tally_results *r;
    CHECK_INT(import_text(&r, imp,
                          "{\"benchmarks\": [{\"name\": \"BM_a\", \"real_time\": 2, \"cpu_time\": 1},"
                          "{\"name\": \"BM_a\", \"real_time\": 4, \"cpu_time\": 3},"
                          "{\"name\": \"BM_a_mean\", \"run_name\": \"BM_a\", \"aggregate_name\": "
                          "\"mean\", \"real_time\": 3, \"cpu_time\": 2}]}",
                          "old.json", NULL),
              TALLY_OK);
    tally_case *c = find_case(r, "BM_a", "BM_a/real_time");
    CHECK_INT(tally_case_sample_count(c), 2);
    CHECK_STR(tally_case_meta_get(c, "reported.mean"), "3");
    CHECK_STR(tally_benchmark_unit(tally_resultset_benchmark_find(tally_results_at(r, 0), "BM_a")),
              "ns");
    tally_results_free(r);
}

static void test_sniff(void)
{
    CHECK(sniffs_as("gbench/repetitions.json", imp, 90));
    CHECK(sniff_best("gbench/error.json", NULL) == imp);
    CHECK(sniff_best("gbench/aggregates_only.json", NULL) == imp);
    CHECK_INT(imp->sniff("{\"results\": [{\"command\": \"x\"}]}", 31), 0);
}

int main(void)
{
    test_repetitions();
    test_errors();
    test_old_files();
    test_sniff();
    return check_summary();
}
