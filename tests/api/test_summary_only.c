/* Summary-only cases (tally_case_set_summary): the model's rules, the report's Welch test from
 * (n, mean, SD) against SciPy's ttest_ind_from_stats, what the renderers say, the native JSON
 * round trip, and a seeded simulation: the test from the summaries equals the test from the
 * samples they summarise. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "tally.h"
#define TEST_RNG_SEED 33
#include "test_rng.h"

static tally_case_summary sum_of(size_t n, double mean, double sd)
{
    tally_case_summary s = { .size = sizeof s };
    s.n = n;
    s.mean = mean;
    s.sd = sd;
    s.interval_low = s.interval_high = NAN;
    return s;
}

/* A list of two result sets "base" and "new", benchmark "hf" (s, lower is better). */
static tally_benchmark *bench_of(tally_results *r, const char *label)
{
    tally_resultset *rs;
    tally_benchmark *b;
    CHECK_INT(tally_resultset_new(&rs, label), TALLY_OK);
    CHECK_INT(tally_resultset_benchmark_add(&b, rs, "hf", "s", TALLY_LOWER_IS_BETTER), TALLY_OK);
    CHECK_INT(tally_results_add(r, rs), TALLY_OK);
    return b;
}

static void test_model_rules(void)
{
    tally_results *r;
    tally_results_new(&r);
    tally_benchmark *b = bench_of(r, "base");
    tally_case *c, *d;
    tally_benchmark_case_add(&c, b, "a");
    tally_case_summary s = sum_of(10, 0.1052, 0.0031);
    CHECK_INT(tally_case_is_summary_only(c), 0);
    CHECK_INT(tally_case_set_summary(c, &s), TALLY_OK);
    CHECK_INT(tally_case_is_summary_only(c), 1);
    double x = 1.0;
    CHECK_INT(tally_case_append(c, &x, 1), TALLY_EINVAL);
    CHECK_INT(tally_case_sample_count(c), 0);
    tally_case_summary out = { .size = sizeof out };
    CHECK_INT(tally_case_summary_result(&out, c), TALLY_OK);
    CHECK_INT(out.n, 10);
    CHECK(out.mean == 0.1052 && out.sd == 0.0031 && out.sd_derived == 0);
    CHECK(isnan(out.interval_low) && out.interval_level == 0);

    /* A case with samples takes no summary, and its summary is not found. */
    tally_benchmark_case_add(&d, b, "b");
    CHECK_INT(tally_case_append(d, &x, 1), TALLY_OK);
    CHECK_INT(tally_case_set_summary(d, &s), TALLY_EINVAL);
    CHECK_INT(tally_case_summary_result(&out, d), TALLY_ENOTFOUND);

    /* The rules: n >= 1, sd >= 0, an SD or an interval from two runs on, one run no SD. */
    tally_benchmark_case_add(&d, b, "c");
    tally_case_summary bad = sum_of(0, 1, 0.1);
    CHECK_INT(tally_case_set_summary(d, &bad), TALLY_EINVAL);
    bad = sum_of(3, 1, -0.1);
    CHECK_INT(tally_case_set_summary(d, &bad), TALLY_EINVAL);
    bad = sum_of(3, NAN, 0.1);
    CHECK_INT(tally_case_set_summary(d, &bad), TALLY_ENONFINITE);
    bad = sum_of(3, 1, NAN);
    CHECK_INT(tally_case_set_summary(d, &bad), TALLY_EINVAL);
    CHECK(strstr(tally_error_last()->message, "needs a standard deviation or an interval"));
    bad = sum_of(1, 1, 0.5);
    CHECK_INT(tally_case_set_summary(d, &bad), TALLY_EINVAL);
    bad = sum_of(4, 1, 0.1);
    bad.interval_low = 1.1; /* does not hold the mean */
    bad.interval_high = 1.2;
    bad.interval_level = 0.95;
    CHECK_INT(tally_case_set_summary(d, &bad), TALLY_EINVAL);
    bad.size = 0;
    CHECK_INT(tally_case_set_summary(d, &bad), TALLY_EINVAL);
    CHECK_INT(tally_case_is_summary_only(d), 0);

    /* The SD derived from a 95% interval of 10 runs, [0.100, 0.110] around 0.105, as a
     * Student-t interval. R: (0.110-0.100)/2*sqrt(10)/qt(0.975,9) = 0.0069895180409498096. */
    tally_case_summary iv = sum_of(10, 0.105, NAN);
    iv.interval_low = 0.100;
    iv.interval_high = 0.110;
    iv.interval_level = 0.95;
    CHECK_INT(tally_case_set_summary(d, &iv), TALLY_OK);
    CHECK_INT(tally_case_summary_result(&out, d), TALLY_OK);
    CHECK_INT(out.sd_derived, 1);
    CHECK_REL(out.sd, 0.0069895180409498096, 1e-12);

    /* A caller of an older, shorter struct (without the interval) is read as far as it goes. */
    tally_case *e;
    tally_benchmark_case_add(&e, b, "old");
    tally_case_summary old = sum_of(5, 2, 0.5);
    old.size = offsetof(tally_case_summary, interval_low);
    CHECK_INT(tally_case_set_summary(e, &old), TALLY_OK);
    tally_results_free(r);
}

static tally_report *report_of(tally_results *r, tally_test test)
{
    tally_report_options o = TALLY_REPORT_OPTIONS_INIT;
    o.test = test;
    o.adjust = TALLY_ADJUST_NONE;
    tally_report *rep = NULL;
    CHECK_INT(tally_report_new(&rep, r, &o), TALLY_OK);
    return rep;
}

static void test_welch_from_stats(void)
{
    tally_results *r;
    tally_results_new(&r);
    tally_benchmark *b0 = bench_of(r, "base"), *b1 = bench_of(r, "new");
    tally_case *c;
    tally_case_summary s = sum_of(10, 0.1052, 0.0031);
    tally_benchmark_case_add(&c, b0, "sleep");
    tally_case_set_summary(c, &s);
    s = sum_of(12, 0.1091, 0.0042);
    tally_benchmark_case_add(&c, b1, "sleep");
    tally_case_set_summary(c, &s);
    /* A summary-only baseline against samples. */
    static const double x[] = { 2.4, 2.6, 2.2, 2.3, 2.5 };
    s = sum_of(30, 2.5, 0.4);
    tally_benchmark_case_add(&c, b0, "ls");
    tally_case_set_summary(c, &s);
    tally_benchmark_case_add(&c, b1, "ls");
    tally_case_append(c, x, TALLY__COUNT(x));

    /* The Mann-Whitney test needs samples: summary-only rows run Welch all the same. */
    for (int k = 0; k < 2; k++) {
        tally_report *rep = report_of(r, k ? TALLY_TEST_MANN_WHITNEY : TALLY_TEST_AUTO);
        tally_comparison cmp = { .size = sizeof cmp };
        CHECK_INT(tally_report_cell_comparison(&cmp, rep, 0, 1), TALLY_OK);
        CHECK_INT(cmp.test, TALLY_TEST_WELCH);
        /* SciPy 1.x: ttest_ind_from_stats(0.1052, 0.0031, 10, 0.1091, 0.0042, 12,
         * equal_var=False) -> statistic=-2.501336541127286, pvalue=0.021288920191229823; tally's
         * t is base minus new, the same sign here (base first). */
        CHECK_REL(cmp.p_value, 0.021288920191229823, 1e-12);
        CHECK_REL(cmp.statistic, -2.501336541127286, 1e-12);
        /* R: va=0.0031^2/10; vc=0.0042^2/12; (va+vc)^2/(va^2/9+vc^2/11) = 19.761194266282672 */
        CHECK_REL(cmp.df, 19.761194266282672, 1e-12);
        CHECK_INT(cmp.verdict, TALLY_VERDICT_REGRESSION);
        CHECK_INT(tally_report_cell_comparison(&cmp, rep, 1, 1), TALLY_OK);
        /* SciPy: ttest_ind_from_stats(2.5, 0.4, 30, 2.4, 0.15811388300841897, 5,
         * equal_var=False) -> statistic=0.9837387536759303, pvalue=0.3410883115663943 (the SD of
         * the five samples: numpy.std([2.4,2.6,2.2,2.3,2.5], ddof=1) = 0.15811388300841897). */
        CHECK_REL(cmp.p_value, 0.3410883115663943, 1e-12);
        CHECK_REL(cmp.statistic, 0.9837387536759303, 1e-12);

        tally_summary sm = { .size = sizeof sm };
        CHECK_INT(tally_report_cell_summary(&sm, rep, 0, 0), TALLY_OK);
        CHECK(sm.defined & TALLY_SUMMARY_REPORTED);
        CHECK(isnan(sm.median) && isnan(sm.min) && sm.amean == 0.1052 && sm.stddev == 0.0031);
        double v;
        CHECK_INT(tally_summary_value(&v, &sm, TALLY_STAT_MEDIAN), TALLY_EDOMAIN);

        /* Every format says so. */
        static const tally_format formats[] = { TALLY_FORMAT_TEXT, TALLY_FORMAT_MARKDOWN,
                                                TALLY_FORMAT_JSON, TALLY_FORMAT_CSV,
                                                TALLY_FORMAT_HTML };
        static const char *const says[] = { "summary only: hf/sleep in 'base'",
                                            "summary only: hf/sleep in 'base'",
                                            "\"summary_only\": {\"n\": 10",
                                            ",summary_only\r\n",
                                            "summary only: hf/sleep in &#39;base&#39;" };
        for (size_t f = 0; f < TALLY__COUNT(formats); f++) {
            tally_render_options ro = TALLY_RENDER_OPTIONS_INIT;
            ro.format = formats[f];
            char *text = NULL;
            size_t len = 0;
            CHECK_INT(tally_report_render(&text, &len, rep, &ro), TALLY_OK);
            int found = text && strstr(text, says[f]) != NULL;
            if (!found)
                fprintf(stderr, "  format %d lacks \"%s\"\n", (int)formats[f], says[f]);
            CHECK(found);
            if (k == 1 && f == 0)
                CHECK(text && strstr(text, "Welch's t-test instead of mann-whitney"));
            tally_free(text);
        }
        tally_report_free(rep);
    }
    tally_results_free(r);
}

/* Native JSON keeps the summary (the harness's figures; a derived SD is derived again). */
static void test_native_round_trip(void)
{
    tally_results *r;
    tally_results_new(&r);
    tally_benchmark *b = bench_of(r, "base");
    tally_case *c;
    tally_case_summary s = sum_of(10, 0.105, NAN);
    s.interval_low = 0.100;
    s.interval_high = 0.110;
    s.interval_level = 0.95;
    tally_benchmark_case_add(&c, b, "iv");
    CHECK_INT(tally_case_set_summary(c, &s), TALLY_OK);
    s = sum_of(1, 3, NAN);
    tally_benchmark_case_add(&c, b, "one");
    CHECK_INT(tally_case_set_summary(c, &s), TALLY_OK);
    char *json = NULL;
    size_t len = 0;
    CHECK_INT(tally_results_to_json(&json, &len, r), TALLY_OK);
    CHECK(json && strstr(json, "\"summary\": {\"n\": 10, \"mean\": 0.105, \"interval\": "
                               "[0.1, 0.11], \"interval_level\": 0.95}"));
    tally_results *back;
    tally_results_new(&back);
    tally_load_options lo = TALLY_LOAD_OPTIONS_INIT;
    CHECK_INT(tally_load_buffer(back, json, len, "rt.json", &lo), TALLY_OK);
    tally_case_summary out = { .size = sizeof out };
    tally_benchmark *bb = tally_resultset_benchmark_at(tally_results_at(back, 0), 0);
    CHECK_INT(tally_case_summary_result(&out, tally_benchmark_case_find(bb, "iv")), TALLY_OK);
    CHECK_REL(out.sd, 0.0069895180409498096, 1e-12); /* R, as in test_model_rules */
    CHECK_INT(out.sd_derived, 1);
    CHECK_INT(tally_case_summary_result(&out, tally_benchmark_case_find(bb, "one")), TALLY_OK);
    CHECK(out.n == 1 && out.mean == 3 && isnan(out.sd));
    tally_free(json);
    tally_results_free(back);

    /* Both "samples" and "summary", or a bad summary: an error at the JSON path. */
    static const char both[] =
        "{\"format\": \"tally-results\", \"version\": 1, \"results\": [{\"label\": \"a\", "
        "\"benchmarks\": [{\"name\": \"b\", \"unit\": \"s\", \"cases\": [{\"name\": \"c\", "
        "\"samples\": [1], \"summary\": {\"n\": 2, \"mean\": 1, \"sd\": 0}}]}]}]}";
    tally_results_new(&back);
    CHECK_INT(tally_load_buffer(back, both, strlen(both), "both.json", &lo), TALLY_EPARSE);
    CHECK(tally_error_last()->json_path &&
          strcmp(tally_error_last()->json_path, "$.results[0].benchmarks[0].cases[0].summary") == 0);
    static const char neg[] =
        "{\"format\": \"tally-results\", \"version\": 1, \"results\": [{\"label\": \"a\", "
        "\"benchmarks\": [{\"name\": \"b\", \"unit\": \"s\", \"cases\": [{\"name\": \"c\", "
        "\"summary\": {\"n\": 2, \"mean\": 1, \"sd\": -1}}]}]}]}";
    CHECK_INT(tally_load_buffer(back, neg, strlen(neg), "neg.json", &lo), TALLY_EINVAL);
    CHECK(tally_error_last()->json_path &&
          strcmp(tally_error_last()->json_path, "$.results[0].benchmarks[0].cases[0].summary") == 0);
    CHECK_INT(tally_results_count(back), 0);
    tally_results_free(back);
    tally_results_free(r);
}

/* Seeded simulation: for normal samples of random sizes, means and SDs, a report whose cases
 * hold only (n, mean, SD) gives the p-value the report of the samples gives (both Welch), to
 * 1e-9 relative (the summaries' SDs are the samples' own, rounded once). 200 trials. */
static void test_simulation(void)
{
    uint64_t state = rng_state;
    int agree = 0, trials = 200;
    for (int t = 0; t < trials; t++) {
        size_t n[2] = { 2 + (size_t)(rng_uniform(&state) * 30), 2 + (size_t)(rng_uniform(&state) * 30) };
        tally_results *rs[2];
        for (int k = 0; k < 2; k++)
            tally_results_new(&rs[k]);
        for (int j = 0; j < 2; j++) {
            double *x = malloc(n[j] * sizeof *x), sum = 0, ss = 0;
            double mu = 10 + rng_uniform(&state), sigma = 0.1 + rng_uniform(&state);
            for (size_t i = 0; i < n[j]; i++) {
                x[i] = mu + sigma * rng_gauss(&state);
                sum += x[i];
            }
            double mean = sum / (double)n[j];
            for (size_t i = 0; i < n[j]; i++)
                ss += (x[i] - mean) * (x[i] - mean);
            tally_case *c;
            tally_benchmark_case_add(&c, bench_of(rs[0], j ? "new" : "base"), "c");
            tally_case_append(c, x, n[j]);
            tally_case_summary s = sum_of(n[j], mean, sqrt(ss / (double)(n[j] - 1)));
            tally_benchmark_case_add(&c, bench_of(rs[1], j ? "new" : "base"), "c");
            tally_case_set_summary(c, &s);
            free(x);
        }
        double p[2];
        for (int k = 0; k < 2; k++) {
            tally_report *rep = report_of(rs[k], TALLY_TEST_WELCH);
            tally_comparison cmp = { .size = sizeof cmp };
            tally_report_cell_comparison(&cmp, rep, 0, 1);
            p[k] = cmp.p_value;
            tally_report_free(rep);
            tally_results_free(rs[k]);
        }
        agree += fabs(p[0] - p[1]) <= 1e-9 * p[0];
    }
    CHECK_INT(agree, trials);
}

/* hyperfine's CSV export of a real run (tests/data/hyperfine/README.md): summary-only cases
 * with --runs 5, compared as SciPy compares the JSON export's times of the same run. */
static void test_hyperfine_csv(void)
{
    tally_results *r;
    tally_results_new(&r);
    tally_load_options lo = TALLY_LOAD_OPTIONS_INIT;
    CHECK_INT(tally_load_file(r, TALLY_TEST_DATA "/hyperfine-csv/export.csv", &lo), TALLY_EINVAL);
    lo.runs = 5;
    CHECK_INT(tally_load_file(r, TALLY_TEST_DATA "/hyperfine-csv/export.csv", &lo), TALLY_OK);
    CHECK_INT(tally_results_count(r), 2);
    tally_report *rep = report_of(r, TALLY_TEST_AUTO);
    tally_comparison cmp = { .size = sizeof cmp };
    CHECK_INT(tally_report_cell_comparison(&cmp, rep, 0, 1), TALLY_OK);
    /* SciPy, the times t of export.json: a, b = (numpy.array(x["times"]) for x in results);
     * ttest_ind_from_stats(a.mean(), a.std(ddof=1), 5, b.mean(), b.std(ddof=1), 5,
     * equal_var=False) -> statistic=-8.046696261052391, pvalue=0.000288438775602794. */
    CHECK_REL(cmp.p_value, 0.000288438775602794, 1e-12);
    CHECK_REL(cmp.statistic, -8.046696261052391, 1e-12);
    tally_report_free(rep);
    tally_results_free(r);
}

int main(void)
{
    test_hyperfine_csv();
    test_model_rules();
    test_welch_from_stats();
    test_native_round_trip();
    test_simulation();
    return check_summary();
}
