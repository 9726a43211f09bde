/* criterion.rs importers (sample.json with benchmark.json and estimates.json beside it, and
 * raw.csv), on files written from criterion's documented formats (its book's "CSV Output" and
 * the files of target/criterion/<benchmark>/<baseline>/), not produced by criterion (not in
 * Debian). Expected samples are times / iters by hand: 105/1, 198/2 = 99, 312/3 = 104,
 * 396/4 = 99, 510/5 = 102, 594/6 = 99; raw.csv: 1000/10 = 100, 2100/20 = 105, 2940/30 = 98. */
#include "check.h"
#include "import_helpers.h"

#define NEW "criterion/criterion/fib/recursive/20/new/sample.json"
#define BASE "criterion/criterion/fib/recursive/20/base/sample.json"

static void test_sample_json(void)
{
    tally_results *r;
    CHECK_INT(import_file(&r, &tally__importer_criterion, NEW, NULL), TALLY_OK);
    if (!r)
        return;
    tally_resultset *rs = tally_results_at(r, 0);
    CHECK_STR(tally_resultset_label(rs), "new"); /* the baseline's folder */
    /* names from benchmark.json: group_id "fib", function_id "recursive", value_str "20" */
    tally_case *c = find_case(r, "fib", "recursive/20");
    static const double x[] = { 105, 99, 104, 99, 102, 99 };
    CHECK_INT(tally_case_sample_count(c), 6);
    for (size_t i = 0; c && i < 6; i++)
        CHECK(tally_case_samples(c)[i] == x[i]);
    CHECK_STR(tally_case_meta_get(c, "sampling_mode"), "Linear");
    tally_results_free(r);
    /* estimates.json beside it, found from the path the file was loaded by */
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", TALLY_TEST_DATA, NEW);
    CHECK_INT(tally_results_new(&r), TALLY_OK);
    CHECK_INT(tally_load_file(r, path, NULL), TALLY_OK);
    c = find_case(r, "fib", "recursive/20");
    CHECK_STR(tally_case_meta_get(c, "reported.mean"), "101.33333333333333");
    CHECK_STR(tally_case_meta_get(c, "reported.median_abs_dev"), "2.2239");
    CHECK_STR(tally_case_meta_get(c, "reported.mean.lower"), "99.30666666666666");
    tally_results_free(r);
    /* base/ has no benchmark.json: the names come from the path */
    CHECK_INT(import_file(&r, &tally__importer_criterion, BASE, NULL), TALLY_OK);
    CHECK_STR(tally_resultset_label(tally_results_at(r, 0)), "base");
    CHECK(find_case(r, "fib", "recursive/20") != NULL);
    tally_results_free(r);
}

/* The slope is kept for criterion's linear sampling (iters 1..6 here) and recomputable from the
 * samples; with other iteration counts (1, 2, 4) it is kept under another key, which validation
 * lists as not recomputable. */
static void test_slope(void)
{
    char path[1024];
    tally_results *r;
    snprintf(path, sizeof path, "%s/%s", TALLY_TEST_DATA, NEW);
    CHECK_INT(tally_results_new(&r), TALLY_OK);
    CHECK_INT(tally_load_file(r, path, NULL), TALLY_OK);
    tally_case *c = find_case(r, "fib", "recursive/20");
    /* numpy.linalg.lstsq(iters[:, None], times)[0][0] = 9135 / 91 (tests/data/criterion/README) */
    CHECK_STR(tally_case_meta_get(c, "reported.slope"), "100.38461538461539");
    CHECK(tally_case_meta_get(c, "reported.slope.lower") != NULL);
    tally_results_free(r);
    snprintf(path, sizeof path, "%s/criterion/nonlinear/criterion/grow/new/sample.json",
             TALLY_TEST_DATA);
    CHECK_INT(tally_results_new(&r), TALLY_OK);
    CHECK_INT(tally_load_file(r, path, NULL), TALLY_OK);
    c = find_case(r, "grow", "all");
    CHECK_INT(tally_case_sample_count(c), 3);
    CHECK(tally_case_meta_get(c, "reported.slope") == NULL);
    /* 214 / 21 as estimates.json holds it, for tally_validate() to list as not recomputable */
    CHECK_STR(tally_case_meta_get(c, "reported.slope_other_iters"), "10.19047619047619");
    CHECK_STR(tally_case_meta_get(c, "reported.median"), "10");
    tally_results_free(r);
}

static void test_raw_csv(void)
{
    tally_results *r;
    CHECK_INT(import_file(&r, &tally__importer_criterion_csv, "criterion-csv/raw.csv", NULL),
              TALLY_OK);
    if (!r)
        return;
    tally_case *c = find_case(r, "fib", "recursive/20");
    CHECK_INT(tally_case_sample_count(c), 3);
    CHECK(c && tally_case_samples(c)[0] == 100 && tally_case_samples(c)[1] == 105 &&
          tally_case_samples(c)[2] == 98);
    c = find_case(r, "parse", "all"); /* 7000 ns over 1000 iterations */
    CHECK(c && tally_case_sample_count(c) == 1 && tally_case_samples(c)[0] == 7);
    tally_results_free(r);
}

static void test_errors(void)
{
    tally_results *r;
    CHECK_INT(import_text(&r, &tally__importer_criterion, "{\"iters\": [1, 2], \"times\": [3]}",
                          "s.json", NULL),
              TALLY_EPARSE);
    CHECK_STR(last_message(), "s.json: $.times: 1 times for 2 iteration counts");
    CHECK_INT(import_text(&r, &tally__importer_criterion, "{\"iters\": [0], \"times\": [3]}",
                          "z.json", NULL),
              TALLY_EPARSE);
    CHECK_STR(last_message(), "z.json: $.iters[0]: expected an iteration count > 0, found 0");
    const char *h = "group,function,value,throughput_num,throughput_type,sample_measured_value,"
                    "unit,iteration_count\n";
    char text[512];
    snprintf(text, sizeof text, "%sfib,a,,,,10,ns,0\n", h);
    CHECK_INT(import_text(&r, &tally__importer_criterion_csv, text, "raw.csv", NULL),
              TALLY_EPARSE);
    CHECK_STR(last_message(), "raw.csv:2:16: expected an iteration count > 0");
    snprintf(text, sizeof text, "%sfib,a,,,,10,ns,1\nfib,b,,,,10,us,1\n", h);
    CHECK_INT(import_text(&r, &tally__importer_criterion_csv, text, "raw.csv", NULL),
              TALLY_EMISMATCH);
    CHECK_STR(last_message(), "raw.csv:3:13: unit 'us' differs from an earlier row of group 'fib'");
    snprintf(text, sizeof text, "%sfib,a,,,,ten,ns,1\n", h);
    CHECK_INT(import_text(&r, &tally__importer_criterion_csv, text, "raw.csv", NULL),
              TALLY_EPARSE);
    CHECK_STR(last_message(), "raw.csv:2:10: expected a measured value, found 'ten'");
    CHECK_INT(import_text(&r, &tally__importer_criterion_csv, h, "raw.csv", NULL), TALLY_EFORMAT);
    CHECK(r == NULL);
}

static void test_sniff(void)
{
    CHECK(sniffs_as(NEW, &tally__importer_criterion, 95));
    CHECK(sniffs_as("criterion-csv/raw.csv", &tally__importer_criterion_csv, 95));
}

int main(void)
{
    test_sample_json();
    test_slope();
    test_raw_csv();
    test_errors();
    test_sniff();
    return check_summary();
}
