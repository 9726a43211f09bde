/* Order statistics: selection, percentiles (R types 7 and 1), the median CI, BAmean-N and
 * outlier flags. Expected values from R 4.2.2, numpy 1.24.2 / scipy 1.10.1 or by hand. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "stats/select.h"
#include "tally.h"

static const double A[] = { 0.380, 0.412, 0.395, 0.401, 0.388, 0.420, 0.392, 0.405, 0.399, 0.383 };
static const double B[] = { 3, 1, 4, 1, 5, 9, 2 };
static const double C[] = { 10.1, 10.3, 9.9, 10.0, 10.2, 10.1, 25.0, 9.8, 10.0, 10.4, 10.2, 9.9 };
static const double P[] = { 0, 10, 25, 50, 75, 90, 99, 100 };

static int compare_double(const void *a, const void *b)
{
    double l = *(const double *)a, r = *(const double *)b;
    return (l > r) - (l < r);
}

/* xorshift: reproducible data without global state. */
static unsigned long long next_random(unsigned long long *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Selection (quickselect and its median-of-medians fallback) against the C library's qsort on
 * random, sorted, reversed, all-equal, two-valued and organ-pipe inputs. */
static void test_select(void)
{
    enum { N = 1000 };
    static double data[N], work[N], sorted[N];
    unsigned long long seed = 88172645463325252ull;
    int bad = 0;

    for (int shape = 0; shape < 6; shape++) {
        for (int i = 0; i < N; i++) {
            switch (shape) {
            case 0: data[i] = (double)(next_random(&seed) % 100000); break;
            case 1: data[i] = i; break;
            case 2: data[i] = N - i; break;
            case 3: data[i] = 7; break;
            case 4: data[i] = (double)(next_random(&seed) % 2); break;
            default: data[i] = i < N / 2 ? i : N - i; break;
            }
        }
        memcpy(sorted, data, sizeof data);
        qsort(sorted, N, sizeof *sorted, compare_double);
        for (size_t k = 0; k < N; k += 37) {
            for (int guaranteed = 0; guaranteed < 2; guaranteed++) {
                memcpy(work, data, sizeof data);
                if (guaranteed)
                    tally__select_guaranteed(work, N, k);
                else
                    tally__select(work, N, k);
                if (work[k] != sorted[k])
                    bad++;
                for (size_t i = 0; i < N; i++)
                    if ((i < k && work[i] > work[k]) || (i > k && work[i] < work[k]))
                        bad++;
            }
        }
        /* Several ranks on shrinking ranges. */
        size_t ranks[] = { 900, 3, 500, 3, 999, 0 };
        memcpy(work, data, sizeof data);
        size_t count = tally__select_ranks(work, N, ranks, 6);
        CHECK_INT(count, 5);
        for (size_t i = 0; i < count; i++)
            if (work[ranks[i]] != sorted[ranks[i]])
                bad++;
    }
    /* Every rank of every small size, around the insertion-sort cut-off. */
    for (size_t n = 1; n <= 40; n++) {
        for (size_t k = 0; k < n; k++) {
            for (size_t i = 0; i < n; i++)
                data[i] = (double)(next_random(&seed) % 7);
            memcpy(sorted, data, n * sizeof *data);
            qsort(sorted, n, sizeof *sorted, compare_double);
            tally__select(data, n, k);
            if (data[k] != sorted[k])
                bad++;
        }
    }
    CHECK_INT(bad, 0);
}

static void test_percentiles(void)
{
    double out[8];
    /* R 4.2.2: quantile(A, c(0,.1,.25,.5,.75,.9,.99,1), type=7) */
    const double a7[] = { 0.38, 0.3827, 0.389, 0.397, 0.404, 0.4128, 0.41928, 0.42 };
    /* R 4.2.2: quantile(A, ..., type=1) */
    const double a1[] = { 0.38, 0.38, 0.388, 0.395, 0.405, 0.412, 0.42, 0.42 };
    /* R 4.2.2: quantile(B, ..., type=7) and type=1 */
    const double b7[] = { 1, 1, 1.5, 3, 4.5, 6.6000000000000014, 8.7599999999999980, 9 };
    const double b1[] = { 1, 1, 1, 3, 5, 9, 9, 9 };

    CHECK_INT(tally_percentiles(out, A, 10, P, 8, TALLY_PERCENTILE_LINEAR), TALLY_OK);
    for (int i = 0; i < 8; i++)
        CHECK_REL(out[i], a7[i], 1e-14);
    CHECK_INT(tally_percentiles(out, A, 10, P, 8, TALLY_PERCENTILE_NEAREST_RANK), TALLY_OK);
    for (int i = 0; i < 8; i++)
        CHECK(out[i] == a1[i]);
    CHECK_INT(tally_percentiles(out, B, 7, P, 8, TALLY_PERCENTILE_LINEAR), TALLY_OK);
    for (int i = 0; i < 8; i++)
        CHECK_REL(out[i], b7[i], 1e-14);
    CHECK_INT(tally_percentiles(out, B, 7, P, 8, TALLY_PERCENTILE_NEAREST_RANK), TALLY_OK);
    for (int i = 0; i < 8; i++)
        CHECK(out[i] == b1[i]);

    /* Order of requested percentiles does not matter; the input is not modified. */
    const double rev[] = { 90, 10 };
    double copy[10];
    memcpy(copy, A, sizeof A);
    CHECK_INT(tally_percentiles(out, copy, 10, rev, 2, TALLY_PERCENTILE_LINEAR), TALLY_OK);
    CHECK_REL(out[0], 0.4128, 1e-14);
    CHECK_REL(out[1], 0.3827, 1e-14);
    CHECK(memcmp(copy, A, sizeof A) == 0);

    /* n = 1: every percentile is the sample. Equal samples: every percentile is the value. */
    const double one[] = { 5.5 };
    CHECK_INT(tally_percentiles(out, one, 1, P, 8, TALLY_PERCENTILE_LINEAR), TALLY_OK);
    for (int i = 0; i < 8; i++)
        CHECK(out[i] == 5.5);
    const double same[] = { 0.1, 0.1, 0.1, 0.1 };
    CHECK_INT(tally_percentiles(out, same, 4, P, 8, TALLY_PERCENTILE_LINEAR), TALLY_OK);
    for (int i = 0; i < 8; i++)
        CHECK(out[i] == 0.1);

    /* Interpolating between -1e308 and 1e308 stays finite: median = 0 (hand). */
    const double wide[] = { -1e308, 1e308 };
    const double half[] = { 50, 75 };
    CHECK_INT(tally_percentiles(out, wide, 2, half, 2, TALLY_PERCENTILE_LINEAR), TALLY_OK);
    CHECK(out[0] == 0.0);
    CHECK_REL(out[1], 0.5e308, 1e-15);

    const double badp[] = { 101 };
    const double nanp[] = { NAN };
    const double nan_in[] = { 1, NAN };
    CHECK_INT(tally_percentiles(out, A, 10, badp, 1, TALLY_PERCENTILE_LINEAR), TALLY_EINVAL);
    CHECK_INT(tally_percentiles(out, A, 10, nanp, 1, TALLY_PERCENTILE_LINEAR), TALLY_EINVAL);
    CHECK_INT(tally_percentiles(out, A, 10, P, 1, (tally_percentile_method)7), TALLY_EINVAL);
    CHECK_INT(tally_percentiles(out, A, 0, P, 1, TALLY_PERCENTILE_LINEAR), TALLY_ENODATA);
    CHECK_INT(tally_percentiles(out, nan_in, 2, P, 1, TALLY_PERCENTILE_LINEAR), TALLY_ENONFINITE);
    CHECK_INT(tally_percentiles(out, A, 10, P, 0, TALLY_PERCENTILE_LINEAR), TALLY_OK);
}

/* Large input against numpy: x_i = (i * 7919) % 10007 for i < 10007, a permutation of 0..10006.
 * numpy 1.24.2: numpy.percentile(x, [1, 33.3, 50, 99.9]) ->
 * [100.06, 3331.9979999999996, 5003.0, 9995.994] */
static void test_percentiles_large(void)
{
    enum { N = 10007 };
    static double x[N];
    const double p[] = { 1, 33.3, 50, 99.9 };
    const double expected[] = { 100.06, 3331.9979999999996, 5003.0, 9995.994 };
    double out[4];
    for (size_t i = 0; i < N; i++)
        x[i] = (double)((i * 7919) % N);
    CHECK_INT(tally_percentiles(out, x, N, p, 4, TALLY_PERCENTILE_LINEAR), TALLY_OK);
    for (int i = 0; i < 4; i++)
        CHECK_REL(out[i], expected[i], 1e-12);
}

static void test_median_ci(void)
{
    tally_summary s = { .size = sizeof s };
    tally_summary_options o = TALLY_SUMMARY_OPTIONS_INIT;

    /* n = 10 at 95 %: R: 1 - 2 * pbinom(1, 10, 0.5) = 0.978515625 >= 0.95 and
     * 1 - 2 * pbinom(2, 10, 0.5) = 0.890625 < 0.95, so [x_(2), x_(9)] = [0.383, 0.412]. */
    CHECK_INT(tally_summarize(&s, A, 10, NULL), TALLY_OK);
    CHECK(s.defined & TALLY_SUMMARY_MEDIAN_CI);
    CHECK(s.median_ci_low == 0.383);
    CHECK(s.median_ci_high == 0.412);
    CHECK_REL(s.median_ci_level, 0.978515625, 1e-14);

    /* n = 12: 1 - 2 * pbinom(2, 12, 0.5) = 0.96142578125 (k = 3): [x_(3), x_(10)] = [9.9, 10.3] */
    CHECK_INT(tally_summarize(&s, C, 12, NULL), TALLY_OK);
    CHECK(s.median_ci_low == 9.9);
    CHECK(s.median_ci_high == 10.3);
    CHECK_REL(s.median_ci_level, 0.96142578125, 1e-14);

    /* n = 7: only k = 1 reaches 95 %: 1 - 2 / 128 = 0.984375: [1, 9]. */
    CHECK_INT(tally_summarize(&s, B, 7, NULL), TALLY_OK);
    CHECK(s.median_ci_low == 1 && s.median_ci_high == 9);
    CHECK_REL(s.median_ci_level, 0.984375, 1e-15);

    /* n = 5: the widest interval covers 1 - 2/32 = 0.9375 < 0.95: undefined, fields 0. */
    CHECK_INT(tally_summarize(&s, B, 5, NULL), TALLY_OK);
    CHECK(!(s.defined & TALLY_SUMMARY_MEDIAN_CI));
    CHECK(s.median_ci_low == 0 && s.median_ci_high == 0 && s.median_ci_level == 0);
    /* ... but at 90 % it is [x_(1), x_(5)] of (3, 1, 4, 1, 5) = [1, 5]. */
    o.confidence = 0.90;
    CHECK_INT(tally_summarize(&s, B, 5, &o), TALLY_OK);
    CHECK(s.defined & TALLY_SUMMARY_MEDIAN_CI);
    CHECK(s.median_ci_low == 1 && s.median_ci_high == 5);
    CHECK_REL(s.median_ci_level, 0.9375, 1e-15);

    /* n = 1000 at 95 %: R: 1 - 2 * pbinom(468, 1000, 0.5) = 0.95370880263950186 and
     * 1 - 2 * pbinom(469, 1000, 0.5) = 0.9463221503549899 < 0.95 -> k = 469:
     * [x_(469), x_(532)] of 1..1000 = [469, 532]. */
    static double big[1000];
    for (int i = 0; i < 1000; i++)
        big[i] = 1000 - i;
    CHECK_INT(tally_summarize(&s, big, 1000, NULL), TALLY_OK);
    CHECK(s.median_ci_low == 469 && s.median_ci_high == 532);
    CHECK_REL(s.median_ci_level, 0.95370880263950186, 1e-12);
}

static void test_bamean(void)
{
    tally_summary s = { .size = sizeof s };
    tally_summary_options o = TALLY_SUMMARY_OPTIONS_INIT;
    /* numpy: n = 10, floor(10 * 95 / 100) = 9 best samples.
     * np.mean(np.sort(A)[:9]) -> 0.395; np.mean(np.sort(A)[::-1][:9]) -> 0.39944444444444444 */
    CHECK_INT(tally_summarize(&s, A, 10, &o), TALLY_OK);
    CHECK_REL(s.bamean, 0.395, 1e-14);
    o.direction = TALLY_HIGHER_IS_BETTER;
    CHECK_INT(tally_summarize(&s, A, 10, &o), TALLY_OK);
    CHECK_REL(s.bamean, 0.39944444444444444, 1e-14);
    /* n = 12, BAmean-50, lower is better: np.mean(np.sort(C)[:6]) -> 9.950000000000001 */
    o.direction = TALLY_LOWER_IS_BETTER;
    o.bamean_percent = 50;
    CHECK_INT(tally_summarize(&s, C, 12, &o), TALLY_OK);
    CHECK_REL(s.bamean, 9.95, 1e-14);
    /* n = 7, BAmean-95: floor(6.65) = 6: lower (1,1,2,3,4,5) -> 16/6; higher (9,5,4,3,2,1) -> 4 */
    o.bamean_percent = 95;
    CHECK_INT(tally_summarize(&s, B, 7, &o), TALLY_OK);
    CHECK_REL(s.bamean, 16.0 / 6.0, 1e-15);
    o.direction = TALLY_HIGHER_IS_BETTER;
    CHECK_INT(tally_summarize(&s, B, 7, &o), TALLY_OK);
    CHECK_REL(s.bamean, 4.0, 1e-15);
    /* Fewer samples than one percent step: at least one sample is kept (mmtests). n = 3,
     * BAmean-10: floor(0.3) = 0 -> 1: the best (highest) of (1, 2, 4) is 4. */
    o.bamean_percent = 10;
    const double h[] = { 1, 2, 4 };
    CHECK_INT(tally_summarize(&s, h, 3, &o), TALLY_OK);
    CHECK(s.bamean == 4);
    o.bamean_percent = 100;
    CHECK_INT(tally_summarize(&s, h, 3, &o), TALLY_OK);
    CHECK_REL(s.bamean, 7.0 / 3.0, 1e-15);
}

static void test_outliers(void)
{
    unsigned char mad[12], tukey[12];
    /* scipy 1.10.1: median_abs_deviation(C) -> 0.15 (median 10.1); 0.6745 * (C - 10.1) / 0.15:
     * 25.0 -> 67.0, all others |z| <= 1.349. R: quantile(C, c(.25,.75), type=7) -> 9.975,
     * 10.225: fences 9.975 - 1.5 * 0.25 = 9.6 and 10.225 + 1.5 * 0.25 = 10.6: only 25.0. */
    CHECK_INT(tally_outliers(mad, tukey, C, 12, 3.5, 1.5), TALLY_OK);
    for (int i = 0; i < 12; i++) {
        CHECK_INT(mad[i], i == 6);
        CHECK_INT(tukey[i], i == 6);
    }
    tally_summary s = { .size = sizeof s };
    CHECK_INT(tally_summarize(&s, C, 12, NULL), TALLY_OK);
    CHECK_INT(s.outliers_mad, 1);
    CHECK_INT(s.outliers_tukey, 1);

    /* A: numpy z-scores all within 1.825; no Tukey outlier (R quartiles 0.389, 0.404, fences
     * 0.3665 and 0.4265). */
    CHECK_INT(tally_outliers(mad, tukey, A, 10, 3.5, 1.5), TALLY_OK);
    for (int i = 0; i < 10; i++)
        CHECK(mad[i] == 0 && tukey[i] == 0);
    /* With threshold 1.8 the sample at z = 1.825 (0.420) is flagged, nothing else. */
    CHECK_INT(tally_outliers(mad, NULL, A, 10, 1.8, 1.5), TALLY_OK);
    for (int i = 0; i < 10; i++)
        CHECK_INT(mad[i], i == 5);

    /* MAD = 0 (more than half the samples equal): median 5, MAD 0; mean absolute deviation
     * = 95 / 5 = 19; 0.7979 * 95 / 19 = 3.99 > 3.5 flags 100; Tukey: Q1 = Q3 = 5, fences [5, 5]. */
    const double tied[] = { 5, 5, 5, 5, 100 };
    CHECK_INT(tally_outliers(mad, tukey, tied, 5, 3.5, 1.5), TALLY_OK);
    for (int i = 0; i < 5; i++) {
        CHECK_INT(mad[i], i == 4);
        CHECK_INT(tukey[i], i == 4);
    }
    /* All equal: nothing is an outlier. */
    const double same[] = { 2, 2, 2, 2 };
    CHECK_INT(tally_outliers(mad, tukey, same, 4, 3.5, 1.5), TALLY_OK);
    for (int i = 0; i < 4; i++)
        CHECK(mad[i] == 0 && tukey[i] == 0);
    /* Magnitudes near DBL_MAX: differences would overflow without scaling. Median of
     * (-1.5e308, 1e308, 1e308, 1e308, 1e308) is 1e308, MAD 0, mean AD 2.5e308/5 = 5e307:
     * 0.7979 * 2.5e308 / 5e307 = 3.99 -> -1.5e308 flagged. */
    const double huge[] = { -1.5e308, 1e308, 1e308, 1e308, 1e308 };
    CHECK_INT(tally_outliers(mad, tukey, huge, 5, 3.5, 1.5), TALLY_OK);
    for (int i = 0; i < 5; i++) {
        CHECK_INT(mad[i], i == 0);
        CHECK_INT(tukey[i], i == 0);
    }

    CHECK_INT(tally_outliers(mad, tukey, A, 10, 0, 1.5), TALLY_EINVAL);
    CHECK_INT(tally_outliers(mad, tukey, A, 10, 3.5, -1), TALLY_EINVAL);
    CHECK_INT(tally_outliers(mad, tukey, A, 0, 3.5, 1.5), TALLY_ENODATA);
}

int main(void)
{
    test_select();
    test_percentiles();
    test_percentiles_large();
    test_median_ci();
    test_bamean();
    test_outliers();
    return check_summary();
}
