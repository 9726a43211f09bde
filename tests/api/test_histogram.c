/* Histogram runs in result sets (tally_case_histogram_*), in native JSON, and their summary
 * (tally_histogram_summarize). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "tally.h"

static const double V[] = { 1, 2, 5, 10 };
static const uint64_t K[] = { 3, 1, 2, 4 };

static tally_case *new_case(tally_results **r)
{
    tally_resultset *rs;
    tally_benchmark *b;
    tally_case *c;
    tally_results_new(r);
    tally_resultset_new(&rs, "base");
    tally_results_add(*r, rs);
    tally_resultset_benchmark_add(&b, rs, "latency", "us", TALLY_LOWER_IS_BETTER);
    tally_benchmark_case_add(&c, b, "all");
    return c;
}

static void test_model(void)
{
    tally_results *r;
    tally_case *c = new_case(&r);
    CHECK_INT(tally_case_histogram_append(c, V, K, 4, 0.5), TALLY_OK);
    CHECK_INT(tally_case_histogram_append(c, V, K, 2, 0), TALLY_OK);
    CHECK_INT(tally_case_histogram_count(c), 2);
    CHECK_INT(tally_case_sample_count(c), 0);
    const double *v;
    const uint64_t *k;
    size_t n;
    double res;
    CHECK_INT(tally_case_histogram_at(&v, &k, &n, &res, c, 0), TALLY_OK);
    CHECK_INT(n, 4);
    CHECK(v != V && v[3] == 10 && k[3] == 4 && res == 0.5); /* copies */
    CHECK_INT(tally_case_histogram_at(&v, &k, &n, &res, c, 2), TALLY_EINVAL);

    /* A case holds one kind of run. */
    double x = 1;
    CHECK_INT(tally_case_append(c, &x, 1), TALLY_EMISMATCH);
    CHECK_STR(tally_error_last()->message,
              "case 'all' holds histograms: single values cannot join its runs");
    /* Refusals name the bucket. */
    static const double down[] = { 2, 1 };
    static const uint64_t ones[] = { 1, 1 }, zero[] = { 1, 0 };
    CHECK_INT(tally_case_histogram_append(c, down, ones, 2, 0), TALLY_EINVAL);
    CHECK_STR(tally_error_last()->message, "case 'all': histogram bucket 2: value 1 is not above "
                                           "the previous bucket's 2");
    CHECK_INT(tally_case_histogram_append(c, V, zero, 2, 0), TALLY_EINVAL);
    CHECK_INT(tally_case_histogram_append(c, V, K, 0, 0), TALLY_ENODATA);
    CHECK_INT(tally_case_histogram_append(c, V, K, 2, -1), TALLY_EINVAL);
    CHECK_INT(tally_case_histogram_count(c), 2);

    /* Native JSON keeps the runs exactly. */
    char *json;
    size_t len;
    CHECK_INT(tally_results_to_json(&json, &len, r), TALLY_OK);
    CHECK(strstr(json, "\"histograms\": [{\"resolution\": 0.5, \"values\": [1, 2, 5, 10], "
                       "\"counts\": [3, 1, 2, 4]}, {\"resolution\": 0, \"values\": [1, 2], "
                       "\"counts\": [3, 1]}]") != NULL);
    tally_results *back;
    tally_results_new(&back);
    CHECK_INT(tally_load_buffer(back, json, len, "h.json", NULL), TALLY_OK);
    tally_case *c2 = tally_benchmark_case_find(
        tally_resultset_benchmark_find(tally_results_at(back, 0), "latency"), "all");
    CHECK_INT(tally_case_histogram_count(c2), 2);
    CHECK_INT(tally_case_histogram_at(&v, &k, &n, &res, c2, 0), TALLY_OK);
    CHECK(n == 4 && v[2] == 5 && k[2] == 2 && res == 0.5);
    tally_results_free(back);
    tally_free(json);

    /* A single-value case refuses a histogram. */
    tally_benchmark *b = tally_resultset_benchmark_find(tally_results_at(r, 0), "latency");
    tally_case *plain;
    tally_benchmark_case_add(&plain, b, "plain");
    CHECK_INT(tally_case_append(plain, &x, 1), TALLY_OK);
    CHECK_INT(tally_case_histogram_append(plain, V, K, 4, 0), TALLY_EMISMATCH);
    tally_results_free(r);
}

static void json_error(const char *text, int code, const char *message)
{
    tally_results *r;
    tally_results_new(&r);
    CHECK_INT(tally_load_buffer(r, text, strlen(text), "h.json", NULL), code);
    CHECK_STR(tally_error_last()->message, message);
    CHECK_INT(tally_results_count(r), 0);
    tally_results_free(r);
}

#define DOC(cases)                                                                            \
    "{\"format\": \"tally-results\", \"version\": 1, \"results\": [{\"label\": \"a\", "       \
    "\"benchmarks\": [{\"name\": \"b\", \"cases\": [" cases "]}]}]}"

static void test_json_errors(void)
{
    json_error(DOC("{\"name\": \"c\", \"histograms\": [{\"resolution\": 0, \"values\": [1, 3, 2], "
                   "\"counts\": [1, 1, 1]}]}"),
               TALLY_EPARSE,
               "h.json: $.results[0].benchmarks[0].cases[0].histograms[0].values[2]: bucket "
               "values must ascend: 2 follows 3");
    json_error(DOC("{\"name\": \"c\", \"histograms\": [{\"resolution\": 0, \"values\": [1, 3], "
                   "\"counts\": [1, 1.5]}]}"),
               TALLY_EPARSE,
               "h.json: $.results[0].benchmarks[0].cases[0].histograms[0].counts[1]: expected a "
               "whole count from 1 to 2^53, found 1.5");
    json_error(DOC("{\"name\": \"c\", \"histograms\": [{\"resolution\": 0, \"values\": [1, 3], "
                   "\"counts\": [1]}]}"),
               TALLY_EPARSE,
               "h.json: $.results[0].benchmarks[0].cases[0].histograms[0].counts: expected 2 "
               "counts, one per value, found 1");
    json_error(DOC("{\"name\": \"c\", \"samples\": [1], \"histograms\": []}"), TALLY_EPARSE,
               "h.json: $.results[0].benchmarks[0].cases[0].histograms: a case holds \"samples\" "
               "or \"histograms\", not both");
}

/* Expected values: numpy/scipy on the expanded sample x = numpy.repeat([1., 2., 5., 10.],
 * [3, 1, 2, 4]): x.mean() 5.5 (by hand 55 / 10), x.std(ddof=1) 4.143267631552018,
 * numpy.median(x) 5.0, numpy.percentile(x, 90) 10.0, scipy.stats.hmean(x) 2.325581395348838,
 * scipy.stats.gmean(x) 3.7144712429378357. */
static void test_summary(void)
{
    tally_summary s = { .size = sizeof s };
    tally_summary_options o = TALLY_SUMMARY_OPTIONS_INIT;
    o.percentile = 90;
    CHECK_INT(tally_histogram_summarize(&s, V, K, 4, &o), TALLY_OK);
    CHECK_INT(s.n, 10);
    CHECK_REL(s.min, 1, 0);
    CHECK_REL(s.max, 10, 0);
    CHECK_REL(s.amean, 5.5, 1e-15);
    CHECK_REL(s.stddev, 4.143267631552018, 1e-14);
    CHECK_REL(s.median, 5.0, 0);
    CHECK_REL(s.percentile_value, 10.0, 0);
    CHECK_REL(s.hmean, 2.325581395348838, 1e-14);
    CHECK_REL(s.gmean, 3.7144712429378357, 1e-14);

    /* Every field equals tally_summarize() of the requests the histogram stands for (the same
     * definitions, checked on a skewed histogram with outliers on both sides). */
    static const double v[] = { 0.5, 3, 4, 4.5, 5, 6, 40, 900 };
    static const uint64_t k[] = { 1, 20, 300, 450, 200, 25, 3, 1 };
    double x[1000];
    size_t n = 0;
    for (size_t i = 0; i < 8; i++)
        for (uint64_t j = 0; j < k[i]; j++)
            x[n++] = v[i];
    tally_summary a = { .size = sizeof a }, b = { .size = sizeof b };
    CHECK_INT(tally_histogram_summarize(&a, v, k, 8, &o), TALLY_OK);
    CHECK_INT(tally_summarize(&b, x, n, &o), TALLY_OK);
    CHECK_INT(a.n, b.n);
    CHECK_INT(a.defined, b.defined);
    CHECK_REL(a.amean, b.amean, 1e-14);
    CHECK_REL(a.stddev, b.stddev, 1e-12);
    CHECK_REL(a.hstddev, b.hstddev, 1e-12);
    CHECK_REL(a.mean_ci_low, b.mean_ci_low, 1e-12);
    CHECK_REL(a.median, b.median, 0);
    CHECK_REL(a.median_ci_low, b.median_ci_low, 0);
    CHECK_REL(a.median_ci_high, b.median_ci_high, 0);
    CHECK_REL(a.median_ci_level, b.median_ci_level, 1e-12);
    CHECK_REL(a.bamean, b.bamean, 1e-14);
    CHECK_INT(a.outliers_tukey, b.outliers_tukey);
    CHECK_INT(a.outliers_mad, b.outliers_mad);
    CHECK_REL(a.percentile_value, b.percentile_value, 0);
    CHECK_REL(a.percentile_ci_low, b.percentile_ci_low, 0);
    CHECK_REL(a.percentile_ci_high, b.percentile_ci_high, 0);

    static const uint64_t zero[] = { 1, 0 };
    CHECK_INT(tally_histogram_summarize(&a, V, zero, 2, NULL), TALLY_EINVAL);
    CHECK_INT(tally_histogram_summarize(&a, V, K, 0, NULL), TALLY_ENODATA);
}

int main(void)
{
    test_model();
    test_json_errors();
    test_summary();
    return check_summary();
}
