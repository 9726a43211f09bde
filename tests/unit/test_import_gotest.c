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

/* Case `casename` of benchmark `bench` in the configuration labelled `label`. */
static tally_case *case_in(const tally_results *r, const char *label, const char *bench,
                           const char *casename)
{
    tally_resultset *rs = tally_results_find(r, label);
    tally_benchmark *b = rs ? tally_resultset_benchmark_find(rs, bench) : NULL;
    return b ? tally_benchmark_case_find(b, casename) : NULL;
}

/* notes.txt: two runs of go1.19.8 concatenated after "note: before" and "note: after" lines
 * (tests/data/gotest/README.md). Expected samples read off the file by hand. */
static void test_configurations(void)
{
    tally_results *r;
    CHECK_INT(import_file(&r, imp, "gotest/notes.txt", NULL), TALLY_OK);
    if (!r)
        return;
    /* benchstat's model: the key values in force make the configuration; only note changes. */
    CHECK_INT(tally_results_count(r), 2);
    CHECK_STR(tally_resultset_label(tally_results_at(r, 0)), "before");
    CHECK_STR(tally_resultset_label(tally_results_at(r, 1)), "after");
    CHECK_STR(tally_resultset_meta_get(tally_results_at(r, 1), "note"), "after");
    CHECK_STR(tally_resultset_meta_get(tally_results_at(r, 1), "goos"), "linux");
    /* 5 runs each, never 10 pooled: before 379.8 ... 718.0 ns/op, after 1487 ... 1024 ns/op */
    tally_case *c = case_in(r, "before", "sec/op", "FloatSub-2");
    CHECK_INT(tally_case_sample_count(c), 5);
    CHECK_REL(tally_case_samples(c)[0], 379.8e-9, 1e-15);
    CHECK_REL(tally_case_samples(c)[4], 718.0e-9, 1e-15);
    c = case_in(r, "after", "sec/op", "FloatSub-2");
    CHECK_INT(tally_case_sample_count(c), 5);
    CHECK_REL(tally_case_samples(c)[0], 1487e-9, 1e-15);
    CHECK_REL(tally_case_samples(c)[4], 1024e-9, 1e-15);
    CHECK_INT(tally_case_sample_count(case_in(r, "after", "B/op", "Alloc-2")), 5);
    CHECK_STR(tally_results_note_at(r, 0), "gotest/notes.txt: 2 configurations by the key "
                                           "'note': 'before', 'after'");
    tally_results_free(r);

    /* The key named: the same split; two keys: both values label. */
    tally_load_options o = TALLY_LOAD_OPTIONS_INIT;
    o.config_key = "note,goos";
    CHECK_INT(import_file(&r, imp, "gotest/notes.txt", &o), TALLY_OK);
    CHECK_STR(r ? tally_resultset_label(tally_results_at(r, 1)) : NULL, "after, linux");
    tally_results_free(r);
    /* A key that changes but does not separate would pool: refused where it changes (line 23,
     * the first result line after "note: after"). */
    o.config_key = "none";
    CHECK_INT(import_file(&r, imp, "gotest/notes.txt", &o), TALLY_EMISMATCH);
    CHECK_STR(last_message(), "gotest/notes.txt:23:1: key 'note' changes within the file (this "
                              "result line is measured under another value than the first): "
                              "reading it as one configuration would pool samples measured under "
                              "different values; leave --config-key out to split the file by "
                              "it");
    o.config_key = "goos";
    CHECK_INT(import_file(&r, imp, "gotest/notes.txt", &o), TALLY_EMISMATCH);
    o.config_key = "commit";
    CHECK_INT(import_file(&r, imp, "gotest/notes.txt", &o), TALLY_ENOTFOUND);
    CHECK_STR(last_message(), "gotest/notes.txt: --config-key: no key line 'commit' in the file "
                              "(its keys: note, goos, goarch, pkg, cpu)");

    /* A key set only after the first results: those ran without it; "key:" removes it. */
    CHECK_INT(import_text(&r, imp,
                          "BenchmarkA 1 10 ns/op\nnote: x\nBenchmarkA 1 20 ns/op\nnote:\n"
                          "BenchmarkA 1 30 ns/op\n",
                          "late.txt", NULL),
              TALLY_OK);
    CHECK_INT(r ? tally_results_count(r) : 0, 2);
    c = case_in(r, "(no note)", "sec/op", "A");
    CHECK_INT(tally_case_sample_count(c), 2); /* 10 and 30 ns/op */
    CHECK_REL(tally_case_samples(c)[1], 30e-9, 1e-15);
    CHECK_INT(tally_case_sample_count(case_in(r, "x", "sec/op", "A")), 1);
    tally_results_free(r);
}

/* Unit lines (golang.org/design/14313-benchmark-format, golang.org/x/perf/benchfmt). */
static void test_units(void)
{
    tally_results *r;
    CHECK_INT(import_file(&r, imp, "gotest/exact.txt", NULL), TALLY_OK);
    if (!r)
        return;
    CHECK_STR(tally_case_meta_get(case_in(r, "before", "B/op", "Alloc-2"), "assume"), "exact");
    CHECK(tally_case_meta_get(case_in(r, "before", "sec/op", "Alloc-2"), "assume") == NULL);
    CHECK_INT(tally_results_note_count(r), 3);
    CHECK_STR(tally_results_note_at(r, 0), "gotest/exact.txt:1: unit 'B/op' is exact "
                                           "(assume=exact): its rows are compared without a "
                                           "significance test");
    tally_results_free(r);
    /* One B/op value edited by hand (64 -> 72): flagged, naming the case. */
    CHECK_INT(import_file(&r, imp, "gotest/exact_varies.txt", NULL), TALLY_OK);
    CHECK_STR(r ? tally_results_note_at(r, 0) : NULL,
              "gotest/exact_varies.txt:1: warning: unit 'B/op' is declared exact (assume=exact) "
              "but its samples vary in 1 case: 'Alloc-2' in 'after'; its rows are compared "
              "without a significance test");
    tally_results_free(r);
    /* better= sets the direction of custom units; a unit is tidied as the results are. */
    CHECK_INT(import_file(&r, imp, "gotest/units.txt", NULL), TALLY_OK);
    tally_resultset *rs = r ? tally_results_at(r, 0) : NULL;
    CHECK_INT(tally_benchmark_direction(tally_resultset_benchmark_find(rs, "frames/sec")),
              TALLY_HIGHER_IS_BETTER);
    CHECK_INT(tally_benchmark_direction(tally_resultset_benchmark_find(rs, "bytes")),
              TALLY_LOWER_IS_BETTER);
    tally_results_free(r);
    CHECK_INT(import_text(&r, imp, "Unit ns/op better=higher\nBenchmarkA 1 10 ns/op\n", "u.txt",
                          NULL),
              TALLY_OK);
    CHECK_INT(tally_benchmark_direction(tally_resultset_benchmark_find(tally_results_at(r, 0),
                                                                       "sec/op")),
              TALLY_HIGHER_IS_BETTER);
    tally_results_free(r);
    /* Bad Unit lines. */
    CHECK_INT(import_text(&r, imp, "Unit B/op better=more\nBenchmarkA 1 10 B/op\n", "u.txt", NULL),
              TALLY_EPARSE);
    CHECK_STR(last_message(), "u.txt:1:18: expected higher or lower, found 'more'");
    CHECK_INT(import_text(&r, imp, "Unit B/op assume=exact\nUnit B/op assume=nothing\n"
                                   "BenchmarkA 1 10 B/op\n", "u.txt", NULL),
              TALLY_EMISMATCH);
    CHECK_STR(last_message(), "u.txt:2:11: unit 'B/op': assume=nothing conflicts with line 1");
    CHECK_INT(import_text(&r, imp, "Unit B/op exact\nBenchmarkA 1 10 B/op\n", "u.txt", NULL),
              TALLY_EPARSE);
    CHECK_STR(last_message(), "u.txt:1:11: expected key=value on a Unit line, found 'exact'");
}

/* A unit longer than the reader keeps (127 bytes) is refused, not cut: cut, two units that
 * differ past byte 127 were one benchmark. 127 bytes still fit, whole. The caller's benchmark
 * name (400 bytes, before " UNIT") is not limited at all. */
static void test_long_names(void)
{
    tally_results *r;
    char unit[131], text[200];
    memset(unit, 'u', 130);
    unit[130] = '\0';
    snprintf(text, sizeof text, "BenchmarkX 10 5 %s\n", unit);
    CHECK(refused_with(imp, text, "long.txt", TALLY_ELIMIT,
                       "long.txt:1:17: a unit of 130 bytes: longer than the 127 this reader "
                       "keeps"));
    snprintf(text, sizeof text, "Unit %s better=higher\nBenchmarkX 10 5 B/op\n", unit);
    CHECK(refused_with(imp, text, "unit.txt", TALLY_ELIMIT,
                       "unit.txt:1:6: a unit of 130 bytes: longer than the 127 this reader "
                       "keeps"));
    unit[127] = '\0';
    snprintf(text, sizeof text, "BenchmarkX 10 5 %s\n", unit);
    CHECK_INT(import_text(&r, imp, text, "fits.txt", NULL), TALLY_OK);
    CHECK_INT(case_sample_count(r, unit, "X"), 1);
    tally_results_free(r);
    char base[401], bench[420];
    memset(base, 'b', 400);
    base[400] = '\0';
    snprintf(bench, sizeof bench, "%s sec/op", base);
    tally_load_options opts = TALLY_LOAD_OPTIONS_INIT;
    opts.benchmark = base;
    CHECK_INT(import_text(&r, imp, "BenchmarkX 10 5 ns/op\n", "base.txt", &opts), TALLY_OK);
    CHECK_INT(case_sample_count(r, bench, "X"), 1);
    tally_results_free(r);
}

int main(void)
{
    test_bench();
    test_packages();
    test_configurations();
    test_units();
    test_errors();
    test_long_names();
    test_sniff();
    return check_summary();
}
