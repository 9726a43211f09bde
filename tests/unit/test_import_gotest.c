/* go test -bench importer: golden checks on the output of go1.19.8 (tests/data/gotest, see its
 * README), one test per class of bad input, sniffing. Expected values are read off the file;
 * unit conversions are benchstat's (ns/op * 1e-9 = sec/op, MB/s * 1e6 = B/s). */
#include "check.h"
#include "import_helpers.h"

static const tally__importer *const imp = &tally__importer_gotest;

static void test_bench(void)
{
    tally_results *r;
    CHECK_INT(import_file(&r, imp, "gotest/bench.txt", NULL), TALLY_OK);
    if (!r)
        return;
    tally_resultset *rs = tally_results_at(r, 0);
    CHECK_STR(tally_resultset_label(rs), "bench");
    CHECK_STR(tally_resultset_meta_get(rs, "harness"), "gotest");
    CHECK_STR(tally_resultset_meta_get(rs, "goos"), "linux");
    CHECK_STR(tally_resultset_meta_get(rs, "goarch"), "amd64");
    CHECK_STR(tally_resultset_meta_get(rs, "pkg"), "example.com/tallydemo");
    CHECK_STR(tally_resultset_meta_get(rs, "cpu"), "Oxide Virtual Turin-like Processor");
    /* one benchmark per unit: sec/op, B/op, allocs/op, B/s, bytes/op */
    CHECK_INT(tally_resultset_benchmark_count(rs), 5);
    tally_benchmark *b = tally_resultset_benchmark_find(rs, "sec/op");
    CHECK_STR(tally_benchmark_unit(b), "sec/op");
    CHECK_INT(tally_benchmark_direction(b), TALLY_LOWER_IS_BETTER);
    CHECK_INT(tally_benchmark_case_count(b), 6);
    /* BenchmarkSort: 161.1 227.2 248.1 213.9 279.6 ns/op */
    tally_case *c = find_case(r, "sec/op", "Sort");
    CHECK_INT(tally_case_sample_count(c), 5);
    CHECK_REL(tally_case_samples(c)[0], 161.1e-9, 1e-15);
    CHECK_REL(tally_case_samples(c)[4], 279.6e-9, 1e-15);
    CHECK(tally_case_meta_get(c, "gomaxprocs") == NULL);
    /* BenchmarkSort-2: 216.3 ... 233.9 ns/op */
    c = find_case(r, "sec/op", "Sort-2");
    CHECK_INT(tally_case_sample_count(c), 5);
    CHECK_REL(tally_case_samples(c)[0], 216.3e-9, 1e-15);
    CHECK_REL(tally_case_samples(c)[4], 233.9e-9, 1e-15);
    CHECK_STR(tally_case_meta_get(c, "gomaxprocs"), "2");
    c = find_case(r, "B/op", "Join-2");
    CHECK_INT(tally_case_sample_count(c), 5);
    CHECK(tally_case_samples(c)[0] == 8);
    c = find_case(r, "allocs/op", "Join");
    CHECK(tally_case_samples(c)[4] == 1);
    /* BenchmarkCopy: 136118.20 MB/s first, 137136.09 MB/s last; higher is better */
    b = tally_resultset_benchmark_find(rs, "B/s");
    CHECK_INT(tally_benchmark_direction(b), TALLY_HIGHER_IS_BETTER);
    c = find_case(r, "B/s", "Copy");
    CHECK_REL(tally_case_samples(c)[0], 136118.20e6, 1e-15);
    CHECK_REL(tally_case_samples(c)[4], 137136.09e6, 1e-15);
    /* a custom metric (b.ReportMetric(4096, "bytes/op")) */
    c = find_case(r, "bytes/op", "Copy-2");
    CHECK_INT(tally_case_sample_count(c), 5);
    CHECK(tally_case_samples(c)[0] == 4096);
    tally_results_free(r);
}

static void test_packages(void)
{
    tally_results *r;
    tally_load_options opts = TALLY_LOAD_OPTIONS_INIT;
    opts.benchmark = "go";
    CHECK_INT(import_text(&r, imp,
                          "pkg: a/x\nBenchmarkF-4 \t 10 \t 2.0 ns/op\nBenchmarkF\n"
                          "pkg: a/y\nBenchmarkF-4 \t 10 \t 3.0 ns/op\nok a/y 1s\n",
                          "p.txt", &opts),
              TALLY_OK);
    CHECK_REL(tally_case_samples(find_case(r, "go sec/op", "a/x.F-4"))[0], 2e-9, 1e-15);
    CHECK_REL(tally_case_samples(find_case(r, "go sec/op", "a/y.F-4"))[0], 3e-9, 1e-15);
    tally_results_free(r);
}

static void test_errors(void)
{
    tally_results *r;
    /* truncated lines */
    CHECK_INT(import_text(&r, imp, "BenchmarkX-8   100", "cut.txt", NULL), TALLY_EPARSE);
    CHECK_STR(last_message(), "cut.txt:1:19: expected a value and a unit after the iteration count");
    CHECK_INT(import_text(&r, imp, "BenchmarkX-8 100 12.5", "cut.txt", NULL), TALLY_EPARSE);
    CHECK_STR(last_message(), "cut.txt:1:22: value '12.5' without a unit");
    /* wrong types */
    CHECK_INT(import_text(&r, imp, "BenchmarkX-8 abc 1 ns/op\n", "t.txt", NULL), TALLY_EPARSE);
    CHECK_STR(last_message(), "t.txt:1:14: expected the iteration count, found 'abc'");
    CHECK_INT(import_text(&r, imp, "goos: linux\nBenchmarkX 10 fast ns/op\n", "t.txt", NULL),
              TALLY_EPARSE);
    CHECK_STR(last_message(), "t.txt:2:15: expected a number, found 'fast'");
    /* non-finite */
    CHECK_INT(import_text(&r, imp, "BenchmarkX 10 NaN ns/op\n", "n.txt", NULL), TALLY_ENONFINITE);
    CHECK_STR(last_message(), "n.txt:1:15: value 'NaN' is not finite");
    CHECK_INT(import_text(&r, imp, "BenchmarkX 10 1e999 ns/op\n", "n.txt", NULL), TALLY_ENONFINITE);
    CHECK_STR(last_message(), "n.txt:1:15: value '1e999' is not finite");
    /* empty sample list */
    CHECK_INT(import_text(&r, imp, "goos: linux\nPASS\n", "e.txt", NULL), TALLY_EFORMAT);
    CHECK_STR(last_message(),
              "e.txt:2:1: no benchmark result lines (BenchmarkX  N  value unit) found in the file");
    /* wrong kind of file */
    CHECK_INT(import_file(&r, imp, "hackbench/runs.txt", NULL), TALLY_EFORMAT);
    CHECK_STR(last_message(), "hackbench/runs.txt:15:1: no benchmark result lines (BenchmarkX  N  "
                              "value unit) found in the file");
    CHECK(r == NULL);
}

static void test_sniff(void)
{
    CHECK(sniffs_as("gotest/bench.txt", imp, 90));
    CHECK_INT(imp->sniff("Time: 0.5\n", 10), 0);
    CHECK_INT(imp->sniff("Benchmarks are fun\n", 19), 0);
}

int main(void)
{
    test_bench();
    test_packages();
    test_errors();
    test_sniff();
    return check_summary();
}
