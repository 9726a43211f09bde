/* tally_validate(): harness summaries (reported.*) recomputed from the raw samples. Real files
 * from hyperfine 1.15.0 and libbenchmark 1.7.1 must agree; hand-edited copies (see the READMEs
 * of tests/data/hyperfine and tests/data/gbench) must not. Expected recomputed values are the
 * harness's own numbers or numpy's, pasted with the call. */
#include <math.h>

#include "check.h"
#include "import_helpers.h"

static tally_validation *validate_file(const tally__importer *imp, const char *rel,
                                       const tally_validate_options *opts)
{
    tally_results *r;
    tally_validation *v = NULL;
    if (import_file(&r, imp, rel, NULL) != TALLY_OK)
        return NULL;
    CHECK_INT(tally_validate(&v, r, opts), TALLY_OK);
    tally_results_free(r);
    return v;
}

static void test_hyperfine_agrees(void)
{
    tally_validation *v = validate_file(&tally__importer_hyperfine, "hyperfine/basic.json", NULL);
    if (!v)
        return;
    /* two commands x mean, stddev, median, min, max */
    CHECK_INT(tally_validation_count(v), 10);
    CHECK_INT(tally_validation_disagreements(v), 0);
    CHECK(tally_validation_tolerance(v) == 1e-6);
    /* each command is a configuration, its one case "all" (docs/importers.md) */
    CHECK_STR(tally_validation_resultset(v, 0), "sleep 0.01");
    CHECK_STR(tally_validation_benchmark(v, 0), "hyperfine");
    CHECK_STR(tally_validation_case(v, 0), "all");
    CHECK_STR(tally_validation_statistic(v, 0), "mean");
    CHECK(tally_validation_reported(v, 0) == 0.01447991904);
    /* numpy 1.24.2: numpy.mean(times) -> 0.01447991904 */
    CHECK_REL(tally_validation_recomputed(v, 0), 0.01447991904, 1e-14);
    CHECK(tally_validation_agreed(v, 0) == 1);
    CHECK_STR(tally_validation_statistic(v, 1), "stddev");
    /* numpy 1.24.2: numpy.std(times, ddof=1) -> 0.0006057606079067047 */
    CHECK_REL(tally_validation_recomputed(v, 1), 0.0006057606079067047, 1e-12);
    CHECK_STR(tally_validation_note(v, 1), "sample standard deviation (n - 1)");
    CHECK_STR(tally_validation_statistic(v, 2), "median");
    CHECK(tally_validation_recomputed(v, 2) == 0.014450323040000001);
    CHECK_STR(tally_validation_statistic(v, 4), "max");
    CHECK(tally_validation_recomputed(v, 4) == 0.015477572040000002);
    /* "true": median 0.0 reported and recomputed: absolute difference 0 */
    CHECK_STR(tally_validation_resultset(v, 7), "true");
    CHECK_STR(tally_validation_case(v, 7), "all");
    CHECK_STR(tally_validation_statistic(v, 7), "median");
    CHECK(tally_validation_recomputed(v, 7) == 0.0);
    CHECK(tally_validation_rel_diff(v, 7) == 0.0);
    tally_validation_free(v);
}

static void test_hyperfine_disagrees(void)
{
    tally_validation *v = validate_file(&tally__importer_hyperfine, "hyperfine/disagree.json", NULL);
    if (!v)
        return;
    CHECK_INT(tally_validation_count(v), 10);
    CHECK_INT(tally_validation_disagreements(v), 2);
    /* mean edited to 0.0145: (0.0145 - 0.01447991904) / 0.01447991904 = 0.0013868143837356757 */
    CHECK(tally_validation_agreed(v, 0) == 0);
    CHECK(tally_validation_reported(v, 0) == 0.0145);
    CHECK_REL(tally_validation_recomputed(v, 0), 0.01447991904, 1e-14);
    CHECK_REL(tally_validation_rel_diff(v, 0), 0.0013868143837356757, 1e-9);
    /* stddev edited to the population value: rel diff = 1 - sqrt(4/5) = 0.10557280900008412 */
    CHECK(tally_validation_agreed(v, 1) == 0);
    CHECK_REL(tally_validation_recomputed(v, 1), 0.0006057606079067047, 1e-12);
    CHECK_REL(tally_validation_rel_diff(v, 1), 0.10557280900008412, 1e-9);
    CHECK(tally_validation_agreed(v, 2) == 1);
    tally_validation_free(v);

    /* A looser tolerance lets the mean pass but not the stddev. */
    tally_validate_options opts = TALLY_VALIDATE_OPTIONS_INIT;
    opts.tolerance = 0.01;
    v = validate_file(&tally__importer_hyperfine, "hyperfine/disagree.json", &opts);
    if (!v)
        return;
    CHECK_INT(tally_validation_disagreements(v), 1);
    CHECK(tally_validation_agreed(v, 0) == 1);
    CHECK(tally_validation_agreed(v, 1) == 0);
    CHECK(tally_validation_tolerance(v) == 0.01);
    tally_validation_free(v);
}

static void test_gbench(void)
{
    tally_validation *v = validate_file(&tally__importer_gbench, "gbench/repetitions.json", NULL);
    if (!v)
        return;
    /* 3 run names x real/cpu x mean, median, stddev, cv */
    CHECK_INT(tally_validation_count(v), 24);
    CHECK_INT(tally_validation_disagreements(v), 0);
    CHECK_STR(tally_validation_benchmark(v, 0), "BM_StringCopy");
    CHECK_STR(tally_validation_case(v, 0), "BM_StringCopy/8/real_time");
    CHECK_STR(tally_validation_statistic(v, 3), "cv");
    /* numpy 1.24.2: numpy.std(x, ddof=1) / numpy.mean(x) -> 0.3470214593272523 */
    CHECK_REL(tally_validation_recomputed(v, 3), 0.3470214593272523, 1e-12);
    tally_validation_free(v);

    v = validate_file(&tally__importer_gbench, "gbench/disagree.json", NULL);
    if (!v)
        return;
    CHECK_INT(tally_validation_disagreements(v), 1);
    CHECK_STR(tally_validation_case(v, 3), "BM_StringCopy/8/real_time");
    CHECK_STR(tally_validation_statistic(v, 3), "cv");
    CHECK(tally_validation_agreed(v, 3) == 0);
    CHECK(tally_validation_reported(v, 3) == 34.702145932725226);
    /* a percentage where a fraction is expected: off by a factor of 100, rel diff 99 */
    CHECK_REL(tally_validation_rel_diff(v, 3), 99.0, 1e-12);
    CHECK_STR(tally_validation_note(v, 3),
              "cv as a fraction stddev/mean (Google Benchmark); tally's CV percentage divided by 100");
    tally_validation_free(v);
}

static void test_undefined(void)
{
    tally_results *r = NULL;
    tally_resultset *rs = NULL;
    tally_benchmark *b = NULL;
    tally_case *one = NULL, *empty = NULL;
    double x = 2.5;
    CHECK_INT(tally_results_new(&r), TALLY_OK);
    CHECK_INT(tally_resultset_new(&rs, "set"), TALLY_OK);
    CHECK_INT(tally_results_add(r, rs), TALLY_OK);
    CHECK_INT(tally_resultset_benchmark_add(&b, rs, "b", "s", TALLY_LOWER_IS_BETTER), TALLY_OK);
    CHECK_INT(tally_benchmark_case_add(&one, b, "one"), TALLY_OK);
    CHECK_INT(tally_case_append(one, &x, 1), TALLY_OK);
    tally_case_meta_set(one, "reported.stddev", "0");
    tally_case_meta_set(one, "reported.mean", "abc");
    tally_case_meta_set(one, "reported.user", "1"); /* not a statistic: ignored */
    tally_case_meta_set(one, "reported.max", "2.5");
    CHECK_INT(tally_benchmark_case_add(&empty, b, "empty"), TALLY_OK);
    tally_case_meta_set(empty, "reported.mean", "1");

    tally_validation *v = NULL;
    CHECK_INT(tally_validate(&v, r, NULL), TALLY_OK);
    CHECK_INT(tally_validation_count(v), 4);
    CHECK_INT(tally_validation_disagreements(v), 3);
    CHECK_STR(tally_validation_statistic(v, 0), "stddev");
    CHECK(isnan(tally_validation_recomputed(v, 0)));
    CHECK(isnan(tally_validation_rel_diff(v, 0)));
    CHECK_STR(tally_validation_note(v, 0), "stddev needs at least 2 samples");
    CHECK(isnan(tally_validation_reported(v, 1)));
    CHECK_STR(tally_validation_note(v, 1), "the reported value is not a finite number");
    CHECK(tally_validation_agreed(v, 2) == 1);
    CHECK_STR(tally_validation_note(v, 2), "");
    CHECK_STR(tally_validation_case(v, 3), "empty");
    CHECK_STR(tally_validation_note(v, 3), "the case has no samples");
    /* out of range */
    CHECK(tally_validation_case(v, 4) == NULL);
    CHECK(tally_validation_note(v, 4) == NULL);
    CHECK(isnan(tally_validation_reported(v, 4)));
    CHECK(tally_validation_agreed(v, 4) == 0);
    tally_validation_free(v);

    /* bad arguments */
    tally_validate_options opts = TALLY_VALIDATE_OPTIONS_INIT;
    opts.tolerance = -1;
    CHECK_INT(tally_validate(&v, r, &opts), TALLY_EINVAL);
    CHECK(v == NULL);
    opts.tolerance = NAN;
    CHECK_INT(tally_validate(&v, r, &opts), TALLY_EINVAL);
    opts.tolerance = 0;
    opts.version = 99;
    CHECK_INT(tally_validate(&v, r, &opts), TALLY_EINVAL);
    CHECK_INT(tally_validate(NULL, r, NULL), TALLY_EINVAL);
    CHECK_INT(tally_validate(&v, NULL, NULL), TALLY_EINVAL);
    CHECK_INT(tally_validation_count(NULL), 0);
    tally_validation_free(NULL);
    tally_results_free(r);

    /* nothing reported: an empty list */
    CHECK_INT(import_file(&r, &tally__importer_hackbench, "hackbench/runs.txt", NULL), TALLY_OK);
    CHECK_INT(tally_validate(&v, r, NULL), TALLY_OK);
    CHECK_INT(tally_validation_count(v), 0);
    CHECK_INT(tally_validation_disagreements(v), 0);
    tally_validation_free(v);
    tally_results_free(r);
}

int main(void)
{
    test_hyperfine_agrees();
    test_hyperfine_disagrees();
    test_gbench();
    test_undefined();
    return check_summary();
}
