/* pytest-benchmark importer. saved.json and nodata.json are real files: pytest-benchmark 3.2.2
 * (Debian's python3-pytest-benchmark) run on tests/data/pytest-benchmark/test_b.py with
 * `--benchmark-json=saved.json --benchmark-save-data` and `--benchmark-save=nodata`; the
 * expected samples are the numbers of their stats.data arrays as the tool wrote them. */
#include <math.h>

#include "check.h"
#include "import_helpers.h"

static const tally__importer *const imp = &tally__importer_pytest;

static void test_saved(void)
{
    tally_results *r;
    CHECK_INT(import_file(&r, imp, "pytest-benchmark/saved.json", NULL), TALLY_OK);
    if (!r)
        return;
    tally_resultset *rs = tally_results_at(r, 0);
    CHECK_STR(tally_resultset_meta_get(rs, "harness"), "pytest-benchmark");
    CHECK_STR(tally_resultset_meta_get(rs, "machine_info.cpu.brand"), "AMD EPYC");
    CHECK_STR(tally_resultset_meta_get(rs, "machine_info.python_build"),
              "main,Apr 28 2025 14:11:48");
    CHECK_STR(tally_resultset_meta_get(rs, "commit_info.dirty"), "false");
    CHECK(tally_resultset_meta_get(rs, "commit_info.time") == NULL); /* null: left out */
    CHECK_STR(tally_resultset_meta_get(rs, "pytest_benchmark_version"), "3.2.2");
    tally_benchmark *b = tally_resultset_benchmark_find(rs, "test_b.py::test_sum");
    CHECK_STR(tally_benchmark_unit(b), "s");
    CHECK_INT(tally_benchmark_direction(b), TALLY_LOWER_IS_BETTER);
    CHECK_INT(tally_benchmark_case_count(b), 2);
    /* test_sum[1000]: params {"n": 1000}; data as written, per iteration (iterations 3) */
    tally_case *c = find_case(r, "test_b.py::test_sum", "n=1000");
    CHECK_INT(tally_case_sample_count(c), 5);
    CHECK(tally_case_samples(c)[0] == 1.749633338476997e-05);
    CHECK(tally_case_samples(c)[4] == 1.0042333694097275e-05);
    CHECK_STR(tally_case_meta_get(c, "reported.iqr"), "2.0088335380326807e-06");
    CHECK_STR(tally_case_meta_get(c, "iterations"), "3");
    CHECK_STR(tally_case_meta_get(c, "param"), "1000");
    CHECK_STR(tally_case_meta_get(c, "extra_info.kind"), "range");
    c = find_case(r, "test_b.py::test_plain", "all");
    CHECK_INT(tally_case_sample_count(c), 4);
    tally_results_free(r);
}

static void test_summary_only(void)
{
    tally_results *r;
    CHECK_INT(import_file(&r, imp, "pytest-benchmark/nodata.json", NULL), TALLY_OK);
    if (!r)
        return;
    tally_case *c = find_case(r, "test_b.py::test_sum", "n=10");
    CHECK(tally_case_is_summary_only(c));
    tally_case_summary s = { .size = sizeof s };
    CHECK_INT(tally_case_summary_result(&s, c), TALLY_OK);
    /* stats of test_sum[10] in nodata.json: rounds 5, mean and stddev as written */
    CHECK_INT(s.n, 5);
    CHECK(s.mean == 5.363333912100643e-07);
    CHECK(s.sd == 2.412683012016404e-07);
    CHECK(tally_case_meta_get(c, "reported.mean") == NULL);
    tally_results_free(r);
}

static void test_errors(void)
{
    tally_results *r;
    CHECK_INT(import_text(&r, imp, "{\"machine_info\": {}, \"benchmarks\": []}", "e.json", NULL),
              TALLY_ENODATA);
    CHECK_STR(last_message(), "e.json: $.benchmarks: no benchmarks");
    CHECK_INT(import_text(&r, imp,
                          "{\"benchmarks\": [{\"fullname\": \"t::a\", \"stats\": "
                          "{\"data\": [1, \"x\"]}}]}",
                          "s.json", NULL),
              TALLY_EPARSE);
    CHECK_STR(last_message(), "s.json: $.benchmarks[0].stats.data[1]: expected a number, found a string");
    CHECK_INT(import_text(&r, imp,
                          "{\"benchmarks\": [{\"fullname\": \"t::a\", \"params\": {\"n\": [1]}, "
                          "\"stats\": {\"data\": [1]}}]}",
                          "p.json", NULL),
              TALLY_EPARSE);
    CHECK_STR(last_message(), "p.json: $.benchmarks[0].params.n: expected a string, a number or a "
                              "boolean as parameter value, found an array");
    CHECK_INT(import_text(&r, imp,
                          "{\"benchmarks\": [{\"fullname\": \"t::a\", \"stats\": {\"data\": [1]}},"
                          " {\"fullname\": \"t::a\", \"stats\": {\"data\": [2]}}]}",
                          "d.json", NULL),
              TALLY_EEXISTS);
    CHECK_STR(last_message(),
              "d.json: $.benchmarks[1]: benchmark \"t::a\" with parameters \"all\" appears twice");
    CHECK_INT(import_text(&r, imp,
                          "{\"benchmarks\": [{\"fullname\": \"t::a\", \"stats\": {\"rounds\": 3, "
                          "\"mean\": 1}}]}",
                          "n.json", NULL),
              TALLY_EPARSE);
    CHECK_STR(last_message(), "n.json: $.benchmarks[0].stats: missing member \"stddev\" (a number)");
    CHECK(r == NULL);
}

static void test_sniff(void)
{
    CHECK(sniffs_as("pytest-benchmark/saved.json", imp, 95));
    CHECK(sniffs_as("pytest-benchmark/nodata.json", imp, 95));
}

int main(void)
{
    test_saved();
    test_summary_only();
    test_errors();
    test_sniff();
    return check_summary();
}
