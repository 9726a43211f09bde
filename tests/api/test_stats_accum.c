/* Mergeable accumulators and summaries of partitioned samples (tally/accum.h).
 * Expected values: NIST StRD certified means and SDs (NumAcc sets, constructed as their headers
 * describe), exact order statistics from a full sort (qsort, then R type 7 by hand), byte layouts
 * written out by hand from IEEE 754 and the documented wire format, and for the agreement with
 * the single-pass code the bound the API documents (1e-12 relative) with tally_summarize(),
 * itself checked against NIST and R in test_stats_nist.c and test_stats_summary.c.
 * Run with the argument "large" for the 10^8-sample bound (ctest: stats_accum_large). */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "tally.h"
#include "test_rng.h"

/* A deterministic generator (SplitMix64), so failures reproduce. */
static uint64_t rng_state;

static double uniform(void)
{
    return rng_uniform_open(&rng_state);
}

static double normal(void)
{
    return sqrt(-2.0 * log(uniform())) * cos(6.283185307179586 * uniform());
}

/* Accumulate x in chunks of `chunk`, merged pairwise as a tree (the way Dask reduces). */
static tally_accumulator *tree_accumulate(const double *x, size_t n, size_t chunk)
{
    size_t count = (n + chunk - 1) / chunk;
    tally_accumulator **level = malloc(count * sizeof *level);
    for (size_t i = 0; i < count; i++) {
        size_t at = i * chunk, len = n - at < chunk ? n - at : chunk;
        tally_accumulator_new(&level[i]);
        if (tally_accumulator_add(level[i], x + at, len) != TALLY_OK)
            return NULL;
    }
    while (count > 1) {
        size_t out = 0;
        for (size_t i = 0; i < count; i += 2) {
            if (i + 1 < count) {
                tally_accumulator_merge(level[i], level[i + 1]);
                tally_accumulator_free(level[i + 1]);
            }
            level[out++] = level[i];
        }
        count = out;
    }
    tally_accumulator *a = level[0];
    free(level);
    return a;
}

static void test_nist_chunked(void)
{
    /* NumAcc4 scaled by 10 (exact integers; nine constant leading digits): 100000002, then 500
     * pairs (100000001, 100000003). Certified (NIST NumAcc4 x 10): mean 100000002, sd 1. */
    double x[1001];
    x[0] = 100000002;
    for (int i = 0; i < 500; i++) {
        x[1 + 2 * i] = 100000001;
        x[2 + 2 * i] = 100000003;
    }
    size_t chunks[] = { 1, 2, 7, 64, 1001 };
    for (size_t c = 0; c < TALLY__COUNT(chunks); c++) {
        tally_accumulator *a = tree_accumulate(x, 1001, chunks[c]);
        tally_summary s = { .size = sizeof s };
        CHECK_INT(tally_accumulator_moments(&s, a, NULL), TALLY_OK);
        CHECK_INT(s.n, 1001);
        CHECK(s.amean == 100000002.0);
        CHECK_REL(s.stddev, 1.0, 1e-13);
        CHECK(s.min == 100000001.0 && s.max == 100000003.0);
        tally_accumulator_free(a);
    }
    /* NumAcc1: 10000001, 10000003, 10000002; certified mean 10000002, sd 1. One per chunk. */
    double acc1[] = { 10000001, 10000003, 10000002 };
    tally_accumulator *a = tree_accumulate(acc1, 3, 1);
    tally_summary s = { .size = sizeof s };
    CHECK_INT(tally_accumulator_moments(&s, a, NULL), TALLY_OK);
    CHECK_REL(s.amean, 10000002.0, 1e-15);
    CHECK_REL(s.stddev, 1.0, 1e-15);
    tally_accumulator_free(a);
}

/* The moments of chunked and merged samples against the single pass. */
static void compare_moments(const double *x, size_t n, size_t chunk, double rel)
{
    tally_summary one = { .size = sizeof one }, merged = { .size = sizeof merged };
    tally_accumulator *a = tree_accumulate(x, n, chunk);
    CHECK(a != NULL);
    CHECK_INT(tally_summarize(&one, x, n, NULL), TALLY_OK);
    CHECK_INT(tally_accumulator_moments(&merged, a, NULL), TALLY_OK);
    CHECK_INT(merged.n, n);
    CHECK_INT(merged.defined, one.defined & ~(unsigned)TALLY_SUMMARY_MEDIAN_CI);
    CHECK(merged.min == one.min && merged.max == one.max);
    CHECK_REL(merged.amean, one.amean, rel);
    CHECK_REL(merged.stddev, one.stddev, rel);
    CHECK_REL(merged.cv, one.cv, rel);
    CHECK_REL(merged.sem, one.sem, rel);
    CHECK_REL(merged.mean_ci_low, one.mean_ci_low, rel);
    CHECK_REL(merged.mean_ci_high, one.mean_ci_high, rel);
    if (one.defined & TALLY_SUMMARY_HMEAN) {
        CHECK_REL(merged.hmean, one.hmean, rel);
        CHECK_REL(merged.gmean, one.gmean, rel);
        CHECK_REL(merged.hstddev, one.hstddev, rel);
        CHECK_REL(merged.hcv, one.hcv, rel);
    }
    /* The largest relative difference seen, for docs/statistics.md's table. */
    const double pairs[][2] = { { merged.amean, one.amean },     { merged.stddev, one.stddev },
                                { merged.cv, one.cv },           { merged.sem, one.sem },
                                { merged.hmean, one.hmean },     { merged.gmean, one.gmean },
                                { merged.hstddev, one.hstddev }, { merged.hcv, one.hcv } };
    double worst = 0;
    size_t count = one.defined & TALLY_SUMMARY_HMEAN ? 8 : 4;
    for (size_t k = 0; k < count; k++)
        if (pairs[k][1] != 0)
            worst = fmax(worst, fabs(pairs[k][0] - pairs[k][1]) / fabs(pairs[k][1]));
    printf("n %zu in chunks of %zu: largest relative difference %.2e\n", n, chunk, worst);
    tally_accumulator_free(a);
}

static void test_against_single_pass(void)
{
    size_t n = 200000;
    double *x = malloc(n * sizeof *x);
    rng_state = 1;
    for (size_t i = 0; i < n; i++) /* log-normal latencies */
        x[i] = exp(3.0 + 0.5 * normal());
    compare_moments(x, n, 1000, 1e-13);
    compare_moments(x, n, 3, 1e-13);
    for (size_t i = 0; i < n; i++) /* mean 1e9, spread 0.1: NumAcc4's conditioning */
        x[i] = 1e9 + 0.1 * normal();
    compare_moments(x, n, 997, 1e-12);
    for (size_t i = 0; i < n; i++) /* both signs: no HMean */
        x[i] = normal();
    compare_moments(x, n, 4096, 1e-13);
    for (size_t i = 0; i < n; i++) /* near the top of the double range: scaled sums */
        x[i] = 0x1p1020 * (1.0 + 0.25 * uniform());
    compare_moments(x, n, 1000, 1e-13);
    for (size_t i = 0; i < n; i++) /* tiny positive values: scaled reciprocals */
        x[i] = 0x1p-1000 * (1.0 + uniform());
    compare_moments(x, n, 1000, 1e-13);
    /* Chunks on both sides of 2^1000 merge into one scale. */
    for (size_t i = 0; i < n; i++)
        x[i] = i < n / 2 ? 1.0 + uniform() : 0x1p1010 * (1.0 + uniform());
    compare_moments(x, n, 1000, 1e-13);
    free(x);

    /* Identical samples: SD exactly 0, means exactly the value, whatever the chunks. */
    double same[100];
    for (int i = 0; i < 100; i++)
        same[i] = 0.1;
    tally_accumulator *a = tree_accumulate(same, 100, 7);
    tally_summary s = { .size = sizeof s };
    CHECK_INT(tally_accumulator_moments(&s, a, NULL), TALLY_OK);
    CHECK(s.amean == 0.1 && s.hmean == 0.1 && s.gmean == 0.1 && s.stddev == 0 &&
          s.hstddev == 0);
    tally_accumulator_free(a);
}

static void test_errors(void)
{
    tally_accumulator *a, *b;
    double bad[] = { 1.0, NAN };
    CHECK_INT(tally_accumulator_new(NULL), TALLY_EINVAL);
    CHECK_INT(tally_accumulator_new(&a), TALLY_OK);
    CHECK_INT(tally_accumulator_add(a, bad, 2), TALLY_ENONFINITE);
    CHECK(strstr(tally_error_last()->message, "sample 2") != NULL);
    CHECK_INT(tally_accumulator_count(a), 0);
    tally_summary s = { .size = sizeof s };
    CHECK_INT(tally_accumulator_moments(&s, a, NULL), TALLY_ENODATA);
    CHECK_INT(tally_accumulator_add(a, NULL, 0), TALLY_OK);
    CHECK_INT(tally_accumulator_merge(a, a), TALLY_EINVAL);
    CHECK_INT(tally_accumulator_new(&b), TALLY_OK);
    CHECK_INT(tally_accumulator_merge(a, b), TALLY_OK); /* empty into empty */
    CHECK_INT(tally_accumulator_count(a), 0);
    double one = 2.0;
    CHECK_INT(tally_accumulator_add(b, &one, 1), TALLY_OK);
    CHECK_INT(tally_accumulator_merge(a, b), TALLY_OK);
    CHECK_INT(tally_accumulator_moments(&s, a, NULL), TALLY_OK);
    CHECK(s.n == 1 && s.amean == 2.0 && !(s.defined & TALLY_SUMMARY_STDDEV));
    tally_accumulator_free(a);
    tally_accumulator_free(b);
}

static void test_bytes(void)
{
    tally_accumulator *a, *c;
    unsigned char *bytes, *again;
    size_t len, len2;
    double x[] = { 1.0, 3.0 };
    tally_accumulator_new(&a);
    tally_accumulator_add(a, x, 2);
    CHECK_INT(tally_accumulator_serialize(&bytes, &len, a), TALLY_OK);
    /* Hand-written layout (docs/statistics.md, "Partitioned samples"): "TLYA", version 1 (LE
     * u32), n = 2 (LE u64), min = 1.0 (IEEE bits 0x3ff0000000000000, LE), max = 3.0
     * (0x4008000000000000), kx = 0, sum = 4.0 (0x4010000000000000), comp = 0, M2 = 2 = v 4^e
     * with deviations +-1 scaled by 2^-1 (frexp(1) = 0.5 * 2^1): v = 0.5 (0x3fe0000000000000),
     * e = 1; then the reciprocal and product parts. 116 bytes in all. */
    static const unsigned char head[] = {
        'T', 'L', 'Y', 'A', 1, 0, 0, 0,          /* magic, version */
        2, 0, 0, 0, 0, 0, 0, 0,                  /* n */
        0, 0, 0, 0, 0, 0, 0xf0, 0x3f,            /* min 1.0 */
        0, 0, 0, 0, 0, 0, 0x08, 0x40,            /* max 3.0 */
        0, 0, 0, 0,                              /* kx */
        0, 0, 0, 0, 0, 0, 0x10, 0x40,            /* sum 4.0 */
        0, 0, 0, 0, 0, 0, 0, 0,                  /* its compensation */
        0, 0, 0, 0, 0, 0, 0xe0, 0x3f, 1, 0, 0, 0, /* M2 = 0.5 * 4^1 */
        1, 0, 0, 0                               /* every sample positive */
    };
    CHECK_INT(len, 116);
    CHECK(memcmp(bytes, head, sizeof head) == 0);
    CHECK_INT(tally_accumulator_deserialize(&c, bytes, len), TALLY_OK);
    CHECK_INT(tally_accumulator_serialize(&again, &len2, c), TALLY_OK);
    CHECK(len2 == len && memcmp(bytes, again, len) == 0);
    tally_summary s = { .size = sizeof s };
    CHECK_INT(tally_accumulator_moments(&s, c, NULL), TALLY_OK);
    CHECK(s.amean == 2.0);
    CHECK_REL(s.stddev, 1.4142135623730951, 1e-15); /* sqrt(2): deviations +-1, n - 1 = 1 */
    tally_accumulator_free(c);

    tally_accumulator *d = NULL;
    CHECK_INT(tally_accumulator_deserialize(&d, bytes, len - 1), TALLY_EFORMAT);
    CHECK(d == NULL);
    bytes[4] = 2; /* another version */
    CHECK_INT(tally_accumulator_deserialize(&d, bytes, len), TALLY_EFORMAT);
    bytes[4] = 1;
    bytes[16 + 7] = 0x7f; /* min = NaN-ish garbage: inconsistent */
    bytes[16 + 6] = 0xf8;
    CHECK_INT(tally_accumulator_deserialize(&d, bytes, len), TALLY_EFORMAT);
    CHECK_INT(tally_accumulator_deserialize(&d, (const unsigned char *)"nonsense", 8),
              TALLY_EFORMAT);
    tally_free(bytes);
    tally_free(again);
    tally_accumulator_free(a);
}

/* ---- partition summaries ---- */

/* Run the whole protocol over `parts` partitions of x (cut at the given boundaries); returns
 * the number of rounds, or -1 on an error. */
static int partitioned(tally_summary *out, double *pct, double *bameans, const double *x,
                       const size_t *cut, size_t parts, const tally_partition_options *o)
{
    tally_accumulator *all;
    tally_accumulator_new(&all);
    for (size_t k = 0; k < parts; k++) {
        tally_accumulator *a;
        tally_accumulator_new(&a);
        tally_accumulator_add(a, x + cut[k], cut[k + 1] - cut[k]);
        tally_accumulator_merge(all, a);
        tally_accumulator_free(a);
    }
    tally_partition_summary *ps;
    if (tally_partition_summary_new(&ps, all, o) != TALLY_OK)
        return -1;
    tally_accumulator_free(all);
    int rounds = 0;
    while (!tally_partition_summary_done(ps)) {
        unsigned char *req, *merged = NULL;
        size_t req_len, merged_len = 0;
        if (tally_partition_summary_request(&req, &req_len, ps) != TALLY_OK)
            return -1;
        for (size_t k = 0; k < parts; k++) {
            unsigned char *ans, *m;
            size_t ans_len, m_len;
            if (tally_partition_scan(&ans, &ans_len, req, req_len, x + cut[k],
                                     cut[k + 1] - cut[k]) != TALLY_OK)
                return -1;
            if (merged == NULL) {
                merged = ans;
                merged_len = ans_len;
                continue;
            }
            if (tally_partition_merge(&m, &m_len, merged, merged_len, ans, ans_len) != TALLY_OK)
                return -1;
            tally_free(merged);
            tally_free(ans);
            merged = m;
            merged_len = m_len;
        }
        int rc = tally_partition_summary_feed(ps, merged, merged_len);
        tally_free(req);
        tally_free(merged);
        if (rc != TALLY_OK)
            return -1;
        rounds++;
    }
    if (tally_partition_summary_result(out, pct, bameans, ps) != TALLY_OK)
        return -1;
    tally_partition_summary_free(ps);
    return rounds;
}

static int cmp_double(const void *a, const void *b)
{
    double l = *(const double *)a, r = *(const double *)b;
    return (l > r) - (l < r);
}

/* R type 7 from a sorted copy: x[(n-1)p] interpolated. */
static double type7(const double *sorted, size_t n, double p)
{
    double h = (double)(n - 1) * p / 100.0;
    size_t lo = (size_t)floor(h);
    size_t hi = lo + 1 < n ? lo + 1 : lo;
    return sorted[lo] + (h - (double)lo) * (sorted[hi] - sorted[lo]);
}

static void check_partitioned(const double *x, size_t n, size_t parts, tally_direction dir)
{
    static const double p[] = { 1, 10, 90, 99, 99.9 };
    static const double cuts[] = { 50, 99 };
    size_t *cut = malloc((parts + 1) * sizeof *cut);
    for (size_t k = 0; k <= parts; k++) /* uneven partitions, some possibly empty */
        cut[k] = (size_t)((double)n * ((double)k / (double)parts) * ((double)k / (double)parts));
    cut[parts] = n;
    tally_partition_options o = TALLY_PARTITION_OPTIONS_INIT;
    tally_summary_options so = TALLY_SUMMARY_OPTIONS_INIT;
    so.direction = dir;
    o.summary = &so;
    o.percentiles = p;
    o.percentile_count = 5;
    o.bamean_percents = cuts;
    o.bamean_count = 2;
    tally_summary one = { .size = sizeof one }, dist = { .size = sizeof dist };
    double pct1[5], pct2[5], bam2[2];
    int rounds = partitioned(&dist, pct2, bam2, x, cut, parts, &o);
    CHECK(rounds > 0);
    CHECK_INT(tally_summarize_with_percentiles(&one, pct1, x, n, p, 5, &so), TALLY_OK);
    /* Order statistics: bit for bit. */
    CHECK_INT(dist.n, one.n);
    CHECK_INT(dist.defined, one.defined);
    CHECK(dist.min == one.min && dist.max == one.max);
    CHECK(dist.median == one.median);
    CHECK(dist.median_ci_low == one.median_ci_low && dist.median_ci_high == one.median_ci_high);
    CHECK(dist.median_ci_level == one.median_ci_level);
    CHECK_INT(dist.outliers_mad, one.outliers_mad);
    CHECK_INT(dist.outliers_tukey, one.outliers_tukey);
    for (int k = 0; k < 5; k++)
        CHECK(pct1[k] == pct2[k]);
    /* Moments and BAmean (a sum over the best samples): the documented bound. */
    CHECK_REL(dist.amean, one.amean, 1e-12);
    CHECK_REL(dist.stddev, one.stddev, 1e-12);
    CHECK_REL(dist.bamean, one.bamean, 1e-12);
    /* Independent: the median and p99 of a full sort. */
    double *sorted = malloc(n * sizeof *sorted);
    memcpy(sorted, x, n * sizeof *sorted);
    qsort(sorted, n, sizeof *sorted, cmp_double);
    CHECK(dist.median == type7(sorted, n, 50));
    CHECK(pct2[3] == type7(sorted, n, 99));
    /* BAmean-50 by hand from the sort: the mean of the best floor(n / 2). */
    size_t best = n / 2 ? n / 2 : 1;
    long double sum = 0;
    for (size_t i = 0; i < best; i++)
        sum += dir == TALLY_LOWER_IS_BETTER ? sorted[i] : sorted[n - 1 - i];
    CHECK_REL(bam2[0], (double)(sum / (long double)best), 1e-12);
    free(sorted);
    free(cut);
}

static void test_partitioned(void)
{
    size_t n = 300000;
    double *x = malloc(n * sizeof *x);
    rng_state = 7;
    for (size_t i = 0; i < n; i++)
        x[i] = exp(2.0 + 0.3 * normal());
    check_partitioned(x, n, 16, TALLY_LOWER_IS_BETTER);
    check_partitioned(x, n, 3, TALLY_HIGHER_IS_BETTER);
    check_partitioned(x, 1000, 7, TALLY_LOWER_IS_BETTER); /* small: a few hundred buckets */
    check_partitioned(x, 40, 5, TALLY_LOWER_IS_BETTER);   /* tiny: samples fetched at once */
    check_partitioned(x, 1, 1, TALLY_LOWER_IS_BETTER);
    /* A few huge outliers squeeze the rest into the first bucket: refined, still exact. */
    for (size_t i = 0; i < 5; i++)
        x[i * 1000] = 1e300;
    check_partitioned(x, n, 8, TALLY_LOWER_IS_BETTER);
    /* Most samples equal: MAD 0, the mean absolute deviation rule. */
    for (size_t i = 0; i < n; i++)
        x[i] = i % 3 ? 5.0 : 5.0 + normal();
    check_partitioned(x, n, 8, TALLY_LOWER_IS_BETTER);
    /* Integers with heavy ties, negative values. */
    for (size_t i = 0; i < n; i++)
        x[i] = floor(10 * normal());
    check_partitioned(x, n, 8, TALLY_HIGHER_IS_BETTER);
    /* All equal. */
    for (size_t i = 0; i < n; i++)
        x[i] = -2.5;
    check_partitioned(x, n, 4, TALLY_LOWER_IS_BETTER);
    /* The whole double range. */
    for (size_t i = 0; i < n; i++)
        x[i] = (uniform() - 0.5) * DBL_MAX;
    check_partitioned(x, n, 4, TALLY_LOWER_IS_BETTER);
    free(x);
}

static void test_partition_errors(void)
{
    double x[1000];
    for (int i = 0; i < 1000; i++)
        x[i] = i;
    tally_accumulator *a;
    tally_accumulator_new(&a);
    tally_accumulator_add(a, x, 1000);
    tally_partition_summary *ps;
    tally_partition_options o = TALLY_PARTITION_OPTIONS_INIT;
    o.version = 99;
    CHECK_INT(tally_partition_summary_new(&ps, a, &o), TALLY_EINVAL);
    o.version = TALLY_PARTITION_OPTIONS_VERSION;
    double bad = 101;
    o.percentiles = &bad;
    o.percentile_count = 1;
    CHECK_INT(tally_partition_summary_new(&ps, a, &o), TALLY_EINVAL);
    CHECK_INT(tally_partition_summary_new(&ps, a, NULL), TALLY_OK);
    tally_summary s = { .size = sizeof s };
    CHECK_INT(tally_partition_summary_result(&s, NULL, NULL, ps), TALLY_EINVAL); /* not done */
    unsigned char *req = NULL, *ans = NULL, *ans2 = NULL, *m = NULL;
    size_t req_len, ans_len, ans2_len, m_len;
    CHECK_INT(tally_partition_summary_request(&req, &req_len, ps), TALLY_OK);
    CHECK(memcmp(req, "TLYQ", 4) == 0);
    CHECK_INT(tally_partition_scan(&ans, &ans_len, (const unsigned char *)"TLYQ", 4, x, 10),
              TALLY_EFORMAT);
    /* A partition missing: its samples are not counted. */
    CHECK_INT(tally_partition_scan(&ans, &ans_len, req, req_len, x, 999), TALLY_OK);
    CHECK_INT(tally_partition_summary_feed(ps, ans, ans_len), TALLY_EMISMATCH);
    CHECK_INT(tally_partition_summary_result(&s, NULL, NULL, ps), TALLY_EINVAL);
    tally_free(ans);
    tally_partition_summary_free(ps);
    /* Answers to different requests do not merge. */
    CHECK_INT(tally_partition_summary_new(&ps, a, NULL), TALLY_OK);
    CHECK_INT(tally_partition_scan(&ans, &ans_len, req, req_len, x, 1000), TALLY_OK);
    req[16] ^= 1; /* the map's scale (after magic, version, flags, kind): 1.0 + 2^-52 */
    CHECK_INT(tally_partition_scan(&ans2, &ans2_len, req, req_len, x, 1000), TALLY_OK);
    CHECK_INT(tally_partition_merge(&m, &m_len, ans, ans_len, ans2, ans2_len), TALLY_EFORMAT);
    CHECK_INT(tally_partition_summary_feed(ps, ans2, ans2_len), TALLY_EFORMAT);
    tally_free(ans);
    tally_free(ans2);
    tally_free(req);
    tally_partition_summary_free(ps);
    tally_accumulator_free(a);
}

/* The bound of docs/statistics.md: 10^8 samples in 1,000 chunks. */
static void test_large(void)
{
    size_t n = 100000000;
    double *x = malloc(n * sizeof *x);
    CHECK(x != NULL);
    if (x == NULL)
        return;
    rng_state = 11;
    for (size_t i = 0; i < n; i++)
        x[i] = exp(3.0 + 0.5 * normal());
    compare_moments(x, n, n / 1000, 1e-12);
    for (size_t i = 0; i < n; i++)
        x[i] = 1e9 + 0.1 * normal();
    compare_moments(x, n, n / 1000, 1e-12);
    free(x);
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "large") == 0) {
        const char *wanted = getenv("TALLY_LARGE_TESTS");
        if (wanted == NULL || strcmp(wanted, "1") != 0) {
            fprintf(stderr, "skipped: set TALLY_LARGE_TESTS=1 to run the 10^8-sample bound\n");
            return 77;
        }
        test_large();
        return check_summary();
    }
    test_nist_chunked();
    test_against_single_pass();
    test_errors();
    test_bytes();
    test_partitioned();
    test_partition_errors();
    return check_summary();
}
