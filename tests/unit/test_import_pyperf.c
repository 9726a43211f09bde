/* pyperf importer. pyperf is not packaged in Debian, so tests/data/pyperf/suite.json was
 * written by hand from pyperf's documented JSON format (version 1.0; see the README there):
 * a calibration run, warmups, two benchmarks with units second and byte. */
#include "check.h"
#include "import_helpers.h"

static const tally__importer *const imp = &tally__importer_pyperf;

static void test_suite(void)
{
    tally_results *r;
    CHECK_INT(import_file(&r, imp, "pyperf/suite.json", NULL), TALLY_OK);
    if (!r)
        return;
    tally_resultset *rs = tally_results_at(r, 0);
    CHECK_STR(tally_resultset_label(rs), "suite");
    CHECK_STR(tally_resultset_meta_get(rs, "harness"), "pyperf");
    CHECK_STR(tally_resultset_meta_get(rs, "hostname"), "vm");
    CHECK_STR(tally_resultset_meta_get(rs, "python_version"), "3.11.2 (64-bit)");
    CHECK_STR(tally_resultset_meta_get(rs, "cpu_count"), "2");
    tally_benchmark *b = tally_resultset_benchmark_find(rs, "pyperf");
    CHECK_STR(tally_benchmark_unit(b), "s");
    CHECK_INT(tally_benchmark_direction(b), TALLY_LOWER_IS_BETTER);
    /* run 0 is a calibration run (warmups only); warmups of runs 1-2 are skipped */
    tally_case *c = find_case(r, "pyperf", "sort a sorted list");
    CHECK_INT(tally_case_sample_count(c), 6);
    CHECK(tally_case_samples(c)[0] == 4.381e-05);
    CHECK(tally_case_samples(c)[5] == 4.39e-05);
    CHECK_STR(tally_case_meta_get(c, "calibration_runs"), "1");
    CHECK_STR(tally_case_meta_get(c, "loops"), "512");
    CHECK_STR(tally_case_meta_get(c, "unit"), "second");
    CHECK_STR(tally_case_meta_get(c, "description"), "sorted() of a sorted list");
    b = tally_resultset_benchmark_find(rs, "pyperf (byte)");
    CHECK_STR(tally_benchmark_unit(b), "B");
    c = find_case(r, "pyperf (byte)", "peak memory");
    CHECK_INT(tally_case_sample_count(c), 4);
    CHECK(tally_case_samples(c)[0] == 10567680);
    CHECK(tally_case_samples(c)[3] == 10567680);
    CHECK(tally_case_meta_get(c, "calibration_runs") == NULL);
    /* The span of the measured runs, from the runs' dates in the file: the calibration run
     * (21:10:01.100001) measured nothing; the first with values began 21:10:01.500002, the last
     * (peak memory's second) 21:10:02.300005; ' ' written as 'T'. */
    CHECK_STR(tally_resultset_meta_get(rs, "first_run"), "2026-11-29T21:10:01.500002");
    CHECK_STR(tally_resultset_meta_get(rs, "last_run"), "2026-11-29T21:10:02.300005");
    tally_results_free(r);

    /* A date of another shape is not guessed at: no span. */
    CHECK_INT(import_text(&r, imp,
                          "{\"version\": \"1.0\", \"benchmarks\": [{\"metadata\": {\"name\": "
                          "\"x\"}, \"runs\": [{\"metadata\": {\"date\": \"Mon 10:00\"}, "
                          "\"values\": [3, 4]}]}]}",
                          "odd.json", NULL),
              TALLY_OK);
    CHECK(r && tally_resultset_meta_get(tally_results_at(r, 0), "first_run") == NULL);
    tally_results_free(r);

    /* name and unit from the file's common metadata (a one-benchmark file) */
    CHECK_INT(import_text(&r, imp,
                          "{\"version\": \"1.0\", \"metadata\": {\"name\": \"x\", \"unit\": "
                          "\"integer\"}, \"benchmarks\": [{\"runs\": [{\"values\": [3, 4]}]}]}",
                          "one.json", NULL),
              TALLY_OK);
    CHECK_INT(tally_case_sample_count(find_case(r, "pyperf (integer)", "x")), 2);
    CHECK_STR(tally_benchmark_unit(tally_resultset_benchmark_at(tally_results_at(r, 0), 0)), "");
    tally_results_free(r);
}

static void test_errors(void)
{
    tally_results *r;
    /* truncated inside a key: 25 characters, so the end of input is column 26 */
    CHECK_INT(import_text(&r, imp, "{\"version\": \"1.0\", \"bench", "cut.json", NULL),
              TALLY_EPARSE);
    CHECK_STR(last_message(), "cut.json:1:26: unexpected end of JSON input (truncated file?)");
    /* wrong types */
    CHECK_INT(import_text(&r, imp,
                          "{\"benchmarks\": [{\"metadata\": {\"name\": \"x\"}, \"runs\": "
                          "[{\"values\": [1, \"2\"]}]}]}",
                          "t.json", NULL),
              TALLY_EPARSE);
    CHECK_STR(last_message(), "t.json: $.benchmarks[0].runs[0].values[1]: expected a number, found a string");
    CHECK_INT(import_text(&r, imp,
                          "{\"benchmarks\": [{\"metadata\": {\"name\": 5}, \"runs\": []}]}",
                          "t.json", NULL),
              TALLY_EPARSE);
    CHECK_STR(last_message(), "t.json: $.benchmarks[0].metadata.name: expected a string, found a number");
    CHECK_INT(import_text(&r, imp,
                          "{\"benchmarks\": [{\"metadata\": {\"name\": \"x\", \"unit\": \"meter\"}, "
                          "\"runs\": []}]}",
                          "t.json", NULL),
              TALLY_EPARSE);
    CHECK_STR(last_message(),
              "t.json: $.benchmarks[0]: unknown unit \"meter\" (expected second, byte or integer)");
    CHECK_INT(import_text(&r, imp, "{\"benchmarks\": [{\"runs\": []}]}", "t.json", NULL),
              TALLY_EPARSE);
    CHECK_STR(last_message(),
              "t.json: $.benchmarks[0]: missing \"name\" in the benchmark's or the file's metadata");
    CHECK_INT(import_text(&r, imp, "{\"version\": \"2.0\", \"benchmarks\": []}", "v.json", NULL),
              TALLY_EFORMAT);
    CHECK_STR(last_message(), "v.json: $.version: unsupported pyperf format version \"2.0\" (expected 1.x)");
    /* empty sample lists: only calibration runs, or no benchmarks */
    CHECK_INT(import_text(&r, imp,
                          "{\"benchmarks\": [{\"metadata\": {\"name\": \"x\"}, \"runs\": "
                          "[{\"warmups\": [[1, 0.5]]}, {\"values\": []}]}]}",
                          "e.json", NULL),
              TALLY_ENODATA);
    CHECK_STR(last_message(), "e.json: $.benchmarks[0].runs: no run with values (empty sample list)");
    CHECK_INT(import_text(&r, imp, "{\"version\": \"1.0\", \"benchmarks\": []}", "e.json", NULL),
              TALLY_ENODATA);
    CHECK_STR(last_message(), "e.json: $.benchmarks: no benchmarks");
    /* non-finite */
    CHECK_INT(import_text(&r, imp,
                          "{\"benchmarks\": [{\"metadata\": {\"name\": \"x\"}, \"runs\": "
                          "[{\"values\": [1e500]}]}]}",
                          "n.json", NULL),
              TALLY_ENONFINITE);
    CHECK_STR(last_message(), "n.json: $.benchmarks[0].runs[0].values[0]: number out of range (beyond 1.8e308), "
                              "found '1e500'");
    /* duplicate benchmark name */
    CHECK_INT(import_text(&r, imp,
                          "{\"benchmarks\": [{\"metadata\": {\"name\": \"x\"}, \"runs\": [{\"values\": "
                          "[1]}]}, {\"metadata\": {\"name\": \"x\"}, \"runs\": [{\"values\": [1]}]}]}",
                          "d.json", NULL),
              TALLY_EEXISTS);
    CHECK_STR(last_message(), "d.json: $.benchmarks[1]: benchmark \"x\" appears twice");
    /* wrong kind of file */
    CHECK_INT(import_file(&r, imp, "hyperfine/basic.json", NULL), TALLY_EPARSE);
    CHECK_STR(last_message(), "hyperfine/basic.json: $: missing member \"benchmarks\" (an array)");
    CHECK_INT(import_file(&r, imp, "gbench/repetitions.json", NULL), TALLY_EPARSE);
    CHECK_STR(last_message(),
              "gbench/repetitions.json: $.benchmarks[0]: missing \"name\" in the benchmark's or the file's metadata");
    CHECK(r == NULL);
}

static void test_sniff(void)
{
    CHECK(sniffs_as("pyperf/suite.json", imp, 90));
    CHECK(imp->sniff("{\"benchmarks\": [], \"context\": {}}", 33) == 0);
}

/* two.json (written by hand from pyperf's documented format, tests/data/pyperf/README.md):
 * with config_key "name" each benchmark is a configuration, its values the case "all". */
static void test_configurations(void)
{
    tally_results *r;
    tally_load_options o = TALLY_LOAD_OPTIONS_INIT;
    o.config_key = "name";
    CHECK_INT(import_file(&r, imp, "pyperf/two.json", &o), TALLY_OK);
    if (!r)
        return;
    CHECK_INT(tally_results_count(r), 2);
    tally_resultset *rs = tally_results_find(r, "sort-tuple");
    CHECK(rs != NULL);
    CHECK_STR(rs ? tally_resultset_meta_get(rs, "hostname") : NULL, "bench1");
    tally_benchmark *b = rs ? tally_resultset_benchmark_find(rs, "pyperf") : NULL;
    tally_case *c = b ? tally_benchmark_case_find(b, "all") : NULL;
    /* the values of both runs in order: 0.0008 0.0009 0.0008, 0.0009 0.0008 0.0008 */
    CHECK_INT(c ? tally_case_sample_count(c) : 0, 6);
    CHECK(c && tally_case_samples(c)[3] == 0.0009);
    CHECK_STR(tally_results_note_at(r, 0), "pyperf/two.json: 2 configurations by benchmark "
                                           "name: 'sort-list', 'sort-tuple'");
    tally_results_free(r);
    /* The default: one configuration, the benchmarks its cases. */
    CHECK_INT(import_file(&r, imp, "pyperf/two.json", NULL), TALLY_OK);
    CHECK_INT(r ? tally_results_count(r) : 0, 1);
    CHECK(find_case(r, "pyperf", "sort-list") != NULL);
    tally_results_free(r);
    o.config_key = "unit";
    CHECK_INT(import_file(&r, imp, "pyperf/two.json", &o), TALLY_EINVAL);
    CHECK_STR(last_message(), "pyperf/two.json: --config-key unit: a pyperf file's "
                              "configurations are its benchmarks (name) or the file (none)");
}

int main(void)
{
    test_suite();
    test_configurations();
    test_errors();
    test_sniff();
    return check_summary();
}
