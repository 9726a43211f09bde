/* tally_report_new_from_partitions: a report made from partition summaries renders as the report
 * tally_report_new() makes (with omit_samples) from the same samples. The reference is that
 * report; its own numbers are checked against R and NIST in the other report and stats tests. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "test_cell.h"
#include "tally.h"
#include "test_rng.h"

static uint64_t rng_state = 3;

static double uniform(void)
{
    return rng_uniform_open(&rng_state);
}

#define CONFIGS 2
#define CASES 5
static const char *case_bench[CASES] = { "hackbench", "hackbench", "hackbench", "stream",
                                         "stream" };
static const char *case_name[CASES] = { "1", "4", "16", "Copy", "Triad" };
static const size_t case_n[CASES] = { 20000, 50, 7, 30000, 1 };
static double *samples[CONFIGS][CASES];

static tally_results *make(int with_samples)
{
    tally_results *r;
    tally_results_new(&r);
    for (int j = 0; j < CONFIGS; j++) {
        tally_resultset *rs;
        tally_resultset_new(&rs, j ? "new" : "base");
        tally_resultset_meta_set(rs, "host", "box");
        tally_benchmark *b = NULL;
        for (int c = 0; c < CASES; c++) {
            if (c == 0 || strcmp(case_bench[c], case_bench[c - 1]) != 0) {
                int higher = strcmp(case_bench[c], "stream") == 0;
                tally_resultset_benchmark_add(&b, rs, case_bench[c], higher ? "MB/s" : "s",
                                              higher ? TALLY_HIGHER_IS_BETTER
                                                     : TALLY_LOWER_IS_BETTER);
            }
            tally_case *k;
            tally_benchmark_case_add(&k, b, case_name[c]);
            if (with_samples)
                tally_case_append(k, samples[j][c], case_n[c]);
        }
        tally_results_add(r, rs);
    }
    return r;
}

/* One case's summary over 4 partitions, with the options the report uses for its row. */
static tally_partition_summary *summarise(const double *x, size_t n, tally_direction dir,
                                          const tally_report_options *ro)
{
    static const double cuts[] = { 50, 99 };
    tally_partition_options o = TALLY_PARTITION_OPTIONS_INIT;
    tally_summary_options so = TALLY_SUMMARY_OPTIONS_INIT;
    so.direction = dir;
    so.percentile_method = ro->percentile_method;
    so.confidence = ro->confidence;
    o.summary = &so;
    o.bamean_percents = cuts;
    o.bamean_count = 2;
    size_t cut[5] = { 0, n / 5, n / 2, n - n / 7, n };
    tally_accumulator *all;
    tally_accumulator_new(&all);
    for (int k = 0; k < 4; k++)
        CHECK_INT(tally_accumulator_add(all, x + cut[k], cut[k + 1] - cut[k]), TALLY_OK);
    tally_partition_summary *ps;
    CHECK_INT(tally_partition_summary_new(&ps, all, &o), TALLY_OK);
    tally_accumulator_free(all);
    while (!tally_partition_summary_done(ps)) {
        unsigned char *req, *ans[4], *m1, *m2, *m3;
        size_t req_len, ans_len[4], l1, l2, l3;
        CHECK_INT(tally_partition_summary_request(&req, &req_len, ps), TALLY_OK);
        for (int k = 0; k < 4; k++)
            CHECK_INT(tally_partition_scan(&ans[k], &ans_len[k], req, req_len, x + cut[k],
                                           cut[k + 1] - cut[k]),
                      TALLY_OK);
        CHECK_INT(tally_partition_merge(&m1, &l1, ans[0], ans_len[0], ans[3], ans_len[3]),
                  TALLY_OK);
        CHECK_INT(tally_partition_merge(&m2, &l2, ans[2], ans_len[2], ans[1], ans_len[1]),
                  TALLY_OK);
        CHECK_INT(tally_partition_merge(&m3, &l3, m2, l2, m1, l1), TALLY_OK);
        CHECK_INT(tally_partition_summary_feed(ps, m3, l3), TALLY_OK);
        for (int k = 0; k < 4; k++)
            tally_free(ans[k]);
        tally_free(m1);
        tally_free(m2);
        tally_free(m3);
        tally_free(req);
    }
    return ps;
}

static char *render(const tally_report *r, tally_format f, tally_style s)
{
    tally_render_options o = TALLY_RENDER_OPTIONS_INIT;
    char *out = NULL;
    o.format = f;
    o.style = s;
    CHECK_INT(tally_report_render(&out, NULL, r, &o), TALLY_OK);
    return out;
}

/* Remove, in place, the lines starting with `prefix` that come after the line `marker`. */
static void drop_lines_after(char *text, const char *marker, const char *prefix)
{
    char *p = strstr(text, marker);
    if (p == NULL)
        return;
    char *out = p;
    while (*p) {
        char *end = strchr(p, '\n');
        size_t len = end ? (size_t)(end - p) + 1 : strlen(p);
        if (strncmp(p, prefix, strlen(prefix)) != 0) {
            memmove(out, p, len);
            out += len;
        }
        p += len;
    }
    *out = '\0';
}

static int by_value(const void *l, const void *r)
{
    double a = *(const double *)l, b = *(const double *)r;
    return (a > b) - (a < b);
}

/* The first index of sorted x[0..n) holding a value >= v (or > v when `after`). */
static size_t bound(const double *x, size_t n, double v, int after)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (after ? x[mid] <= v : x[mid] < v)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* What a distributed sort gives for Mann-Whitney: the mid-rank sum of `a` in the pool of a and
 * b, and the pool's tie term sum(t^3 - t). Here by binary search in the sorted pool: a value v
 * with `below` smaller and `equal` equal pooled values has mid-rank below + (equal + 1) / 2. */
static void pooled_ranks(double *rank_sum, double *tie_term, const double *a, size_t na,
                         const double *b, size_t nb)
{
    double *pool = malloc((na + nb) * sizeof(double));
    memcpy(pool, a, na * sizeof(double));
    memcpy(pool + na, b, nb * sizeof(double));
    qsort(pool, na + nb, sizeof(double), by_value);
    double sum = 0, ties = 0;
    for (size_t i = 0; i < na; i++) {
        size_t below = bound(pool, na + nb, a[i], 0), upto = bound(pool, na + nb, a[i], 1);
        sum += (double)below + ((double)(upto - below) + 1) / 2;
    }
    for (size_t i = 0; i < na + nb;) {
        size_t j = bound(pool, na + nb, pool[i], 1);
        double t = (double)(j - i);
        ties += t * t * t - t;
        i = j;
    }
    free(pool);
    *rank_sum = sum;
    *tie_term = ties;
}

static void check_same(tally_report_options ro)
{
    tally_results *full = make(1), *shape = make(0);
    tally_partition_summary *parts[CONFIGS * CASES];
    for (int j = 0; j < CONFIGS; j++)
        for (int c = 0; c < CASES; c++)
            parts[j * CASES + c] =
                summarise(samples[j][c], case_n[c],
                          strcmp(case_bench[c], "stream") == 0 ? TALLY_HIGHER_IS_BETTER
                                                               : TALLY_LOWER_IS_BETTER,
                          &ro);
    tally_report *one, *dist;
    ro.omit_samples = 1;
    CHECK_INT(tally_report_new(&one, full, &ro), TALLY_OK);
    if (ro.test == TALLY_TEST_MANN_WHITNEY) {
        double rank_sums[CONFIGS * CASES] = { 0 }, tie_terms[CONFIGS * CASES] = { 0 };
        for (int c = 0; c < CASES; c++)
            pooled_ranks(&rank_sums[CASES + c], &tie_terms[CASES + c], samples[0][c], case_n[c],
                         samples[1][c], case_n[c]);
        CHECK_INT(tally_report_new_from_partitions_ranked(
                      &dist, shape, (const tally_partition_summary *const *)parts,
                      CONFIGS * CASES, rank_sums, tie_terms, &ro),
                  TALLY_OK);
    } else {
        CHECK_INT(tally_report_new_from_partitions(&dist, shape,
                                                   (const tally_partition_summary *const *)parts,
                                                   CONFIGS * CASES, &ro),
                  TALLY_OK);
    }
    for (int k = 0; k < CONFIGS * CASES; k++)
        tally_partition_summary_free(parts[k]);
    CHECK_INT(tally_report_row_count(dist), tally_report_row_count(one));
    for (size_t i = 0; i < tally_report_row_count(one); i++)
        for (size_t j = 0; j < CONFIGS; j++) {
            test_cell a, b;
            test_cell_get(&a, one, i, j);
            test_cell_get(&b, dist, i, j);
            CHECK(a.summary.median == b.summary.median);
            CHECK(a.summary.median_ci_low == b.summary.median_ci_low);
            CHECK_INT(a.summary.outliers_mad, b.summary.outliers_mad);
            CHECK_REL(b.value, a.value, 1e-12);
            CHECK_INT(a.compared, b.compared);
            if (a.compared) {
                CHECK_INT(a.comparison.verdict, b.comparison.verdict);
                CHECK_INT(a.comparison.p_defined, b.comparison.p_defined);
                if (a.comparison.p_defined)
                    CHECK_REL(b.comparison.p_value, a.comparison.p_value, 1e-9);
                /* The Hodges-Lehmann interval of a Mann-Whitney row needs the samples: a
                 * report from ranks has none (documented with the ranked entry point). */
                if (ro.test == TALLY_TEST_MANN_WHITNEY) {
                    CHECK_INT(b.comparison.interval_defined, 0);
                    continue;
                }
                CHECK_INT(a.comparison.interval_defined, b.comparison.interval_defined);
                if (a.comparison.interval_defined)
                    CHECK_REL(b.comparison.pct_low, a.comparison.pct_low, 1e-9);
            }
        }
    /* The text layouts print rounded values: byte for byte the same (but for the Mann-Whitney
     * rows' intervals, above). */
    static const tally_style styles[] = { TALLY_STYLE_TABLE, TALLY_STYLE_MMTESTS,
                                          TALLY_STYLE_NORMALIZED, TALLY_STYLE_PCT };
    for (int s = ro.test == TALLY_TEST_MANN_WHITNEY ? 4 : 0; s < 4; s++) {
        char *a = render(one, TALLY_FORMAT_TEXT, styles[s]), *b = render(dist, TALLY_FORMAT_TEXT,
                                                                         styles[s]);
        if (styles[s] == TALLY_STYLE_MMTESTS) {
            /* One documented difference: BHmean-N (higher is better) needs the samples, so a
             * report from partitions prints the BAmean-N rows there instead. */
            CHECK(strstr(b, "\nBHmean-") == NULL);
            if (strstr(a, "\nBHmean-95 Copy ") != NULL) {
                drop_lines_after(a, "stream\n", "BHmean-");
                drop_lines_after(b, "stream\n", "BAmean-");
            }
        }
        CHECK_STR(b, a);
        tally_free(a);
        tally_free(b);
    }
    char *a = render(one, TALLY_FORMAT_MARKDOWN, 0), *b = render(dist, TALLY_FORMAT_MARKDOWN, 0);
    if (ro.test != TALLY_TEST_MANN_WHITNEY)
        CHECK_STR(b, a);
    tally_free(a);
    tally_free(b);
    tally_report_free(one);
    tally_report_free(dist);
    tally_results_free(full);
    tally_results_free(shape);
}

static void test_errors(void)
{
    tally_results *shape = make(0);
    tally_report *r = (tally_report *)&r;
    tally_partition_summary *parts[CONFIGS * CASES] = { NULL };
    CHECK_INT(tally_report_new_from_partitions(&r, shape, NULL, 0, NULL), TALLY_EINVAL);
    CHECK(r == NULL);
    CHECK_INT(tally_report_new_from_partitions(&r, shape, (const tally_partition_summary *const *)parts,
                                               CONFIGS * CASES, NULL),
              TALLY_EINVAL);
    /* A summary made with other options (the default direction on a higher-is-better row). */
    tally_report_options ro = TALLY_REPORT_OPTIONS_INIT;
    for (int j = 0; j < CONFIGS; j++)
        for (int c = 0; c < CASES; c++)
            parts[j * CASES + c] = summarise(samples[j][c], case_n[c], TALLY_LOWER_IS_BETTER, &ro);
    CHECK_INT(tally_report_new_from_partitions(&r, shape, (const tally_partition_summary *const *)parts,
                                               CONFIGS * CASES, NULL),
              TALLY_EINVAL);
    CHECK(strstr(tally_error_last()->message, "stream/Copy") != NULL);
    CHECK_INT(tally_report_new_from_partitions(&r, shape, (const tally_partition_summary *const *)parts,
                                               3, NULL),
              TALLY_EINVAL);
    ro.test = TALLY_TEST_MANN_WHITNEY;
    CHECK_INT(tally_report_new_from_partitions(&r, shape, (const tally_partition_summary *const *)parts,
                                               CONFIGS * CASES, &ro),
              TALLY_EINVAL);
    CHECK(strstr(tally_error_last()->message, "Mann-Whitney") != NULL);
    double sums[CONFIGS * CASES] = { 0 }, ties[CONFIGS * CASES] = { 0 };
    CHECK_INT(tally_report_new_from_partitions_ranked(
                  &r, shape, (const tally_partition_summary *const *)parts, CONFIGS * CASES,
                  NULL, ties, &ro),
              TALLY_EINVAL);
    /* A rank sum of 0 is below its least value n(n+1)/2: refused, naming the case. */
    CHECK_INT(tally_report_new_from_partitions_ranked(
                  &r, shape, (const tally_partition_summary *const *)parts, CONFIGS * CASES,
                  sums, ties, &ro),
              TALLY_EINVAL);
    CHECK(strstr(tally_error_last()->message, "hackbench/1") != NULL);
    for (int k = 0; k < CONFIGS * CASES; k++)
        tally_partition_summary_free(parts[k]);
    tally_results_free(shape);
}

int main(void)
{
    for (int j = 0; j < CONFIGS; j++)
        for (int c = 0; c < CASES; c++) {
            samples[j][c] = malloc(case_n[c] * sizeof(double));
            double centre = c < 3 ? 0.4 * (double)(c + 1) : 12000.0 + 500.0 * c;
            for (size_t i = 0; i < case_n[c]; i++)
                samples[j][c][i] = centre * (1.0 + 0.02 * j) * exp(0.05 * (uniform() - 0.5) +
                                                                   0.05 * (uniform() - 0.5));
        }
    tally_report_options ro = TALLY_REPORT_OPTIONS_INIT;
    check_same(ro);
    ro.test = TALLY_TEST_MMTESTS_CI;
    ro.percentile_method = TALLY_PERCENTILE_NEAREST_RANK;
    ro.adjust = TALLY_ADJUST_HOLM;
    check_same(ro);
    ro = (tally_report_options)TALLY_REPORT_OPTIONS_INIT;
    ro.statistic = TALLY_STAT_MEDIAN;
    ro.confidence = 0.99;
    check_same(ro);
    ro = (tally_report_options)TALLY_REPORT_OPTIONS_INIT;
    ro.statistic = TALLY_STAT_BAMEAN;
    check_same(ro);
    /* Another baseline: the partitions still follow the result sets' own order. */
    ro = (tally_report_options)TALLY_REPORT_OPTIONS_INIT;
    ro.baseline = "new";
    check_same(ro);
    /* Mann-Whitney from the pooled ranks: the same p-values as on the samples. */
    ro = (tally_report_options)TALLY_REPORT_OPTIONS_INIT;
    ro.test = TALLY_TEST_MANN_WHITNEY;
    check_same(ro);
    test_errors();
    for (int j = 0; j < CONFIGS; j++)
        for (int c = 0; c < CASES; c++)
            free(samples[j][c]);
    return check_summary();
}
