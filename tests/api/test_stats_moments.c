/* Means, standard deviations, harmonic SD: reference values from R and SciPy, and every defined
 * edge case (n = 0, n = 1, equal samples, NaN/Inf, x <= 0, 1e308). NIST StRD accuracy is in
 * test_stats_nist.c. */
#include <math.h>

#include "check.h"
#include "tally.h"

static const double A[] = { 0.380, 0.412, 0.395, 0.401, 0.388, 0.420, 0.392, 0.405, 0.399, 0.383 };
static const double B[] = { 3, 1, 4, 1, 5, 9, 2 };

static void test_reference_values(void)
{
    double v;
    /* numpy 1.24.2: A.mean() -> 0.3975; A.std(ddof=1) -> 0.012607317099384957 (R sd(A):
     * 0.012607317099384955) */
    CHECK_INT(tally_amean(&v, A, 10), TALLY_OK);
    CHECK_REL(v, 0.3975, 1e-15);
    CHECK_INT(tally_stddev(&v, A, 10), TALLY_OK);
    CHECK_REL(v, 0.012607317099384957, 1e-14);
    /* scipy 1.10.1: scipy.stats.hmean(A) -> 0.39714319853732827; gmean(A) -> 0.3973210785136629 */
    CHECK_INT(tally_hmean(&v, A, 10), TALLY_OK);
    CHECK_REL(v, 0.39714319853732827, 1e-14);
    CHECK_INT(tally_gmean(&v, A, 10), TALLY_OK);
    CHECK_REL(v, 0.3973210785136629, 1e-14);

    /* numpy/scipy: B.mean() -> 3.5714285714285716, B.std(ddof=1) -> 2.819996622760558,
     * hmean(B) -> 2.062193126022913, gmean(B) -> 2.7123532530899 */
    CHECK_INT(tally_amean(&v, B, 7), TALLY_OK);
    CHECK_REL(v, 3.5714285714285716, 1e-15);
    CHECK_INT(tally_stddev(&v, B, 7), TALLY_OK);
    CHECK_REL(v, 2.819996622760558, 1e-14);
    CHECK_INT(tally_hmean(&v, B, 7), TALLY_OK);
    CHECK_REL(v, 2.062193126022913, 1e-14);
    CHECK_INT(tally_gmean(&v, B, 7), TALLY_OK);
    CHECK_REL(v, 2.7123532530899, 1e-13);

    /* Hand calculation: hmean(1, 2, 4) = 3 / (1 + 1/2 + 1/4) = 12/7;
     * gmean(1, 2, 4) = cbrt(8) = 2; sd(2, 4, 4, 4, 5, 5, 7, 9) = sqrt(32/7). */
    const double h[] = { 1, 2, 4 };
    CHECK_INT(tally_hmean(&v, h, 3), TALLY_OK);
    CHECK_REL(v, 12.0 / 7.0, 1e-15);
    CHECK_INT(tally_gmean(&v, h, 3), TALLY_OK);
    CHECK_REL(v, 2.0, 1e-15);
    const double w[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
    CHECK_INT(tally_stddev(&v, w, 8), TALLY_OK);
    CHECK_REL(v, sqrt(32.0 / 7.0), 1e-15);
}

static void test_harmonic_sd(void)
{
    tally_summary s = { .size = sizeof s };
    /* numpy 1.24.2 with H = scipy.stats.hmean(X):
     * np.sqrt(np.sum((1/X - 1/H)**2) * H**4 / len(X)) -> A: 0.011853410410308051,
     * B: 1.4642928143616716 */
    CHECK_INT(tally_summarize(&s, A, 10, NULL), TALLY_OK);
    CHECK(s.defined & TALLY_SUMMARY_HSTDDEV);
    CHECK_REL(s.hstddev, 0.011853410410308051, 1e-13);
    CHECK_REL(s.hcv, 100 * 0.011853410410308051 / 0.39714319853732827, 1e-13);
    CHECK_INT(tally_summarize(&s, B, 7, NULL), TALLY_OK);
    CHECK_REL(s.hstddev, 1.4642928143616716, 1e-13);
    /* Hand calculation: x = (1, 2, 4): H = 12/7, 1/H = 7/12; deviations of 1/x: 5/12, -1/12,
     * -4/12; sum of squares 42/144; hsd = sqrt(42/144 * (12/7)^4 / 3) = sqrt(96/343) * ... :
     * (12/7)^4 = 20736/2401; 42/144 * 20736/2401 / 3 = 2016/2401; hsd = sqrt(2016/2401). */
    const double h[] = { 1, 2, 4 };
    CHECK_INT(tally_summarize(&s, h, 3, NULL), TALLY_OK);
    CHECK_REL(s.hstddev, sqrt(2016.0 / 2401.0), 1e-15);
}

static void test_edge_cases(void)
{
    double v = -1;
    const double one[] = { 42.5 };
    const double nan_in[] = { 1, NAN, 3 };
    const double inf_in[] = { 1, 2, -INFINITY };
    const double zero_in[] = { 1, 0, 3 };
    const double neg_in[] = { 1, -2, 3 };

    CHECK_INT(tally_amean(&v, A, 0), TALLY_ENODATA);
    CHECK_INT(tally_amean(&v, NULL, 0), TALLY_ENODATA);
    CHECK_INT(tally_amean(&v, NULL, 3), TALLY_EINVAL);
    CHECK_INT(tally_amean(NULL, A, 3), TALLY_EINVAL);
    CHECK_INT(tally_stddev(&v, one, 1), TALLY_ENODATA);
    CHECK_INT(tally_amean(&v, one, 1), TALLY_OK);
    CHECK(v == 42.5);

    v = -1;
    CHECK_INT(tally_amean(&v, nan_in, 3), TALLY_ENONFINITE);
    CHECK_STR(tally_error_last()->message, "sample 2 is NaN");
    CHECK_INT(tally_stddev(&v, inf_in, 3), TALLY_ENONFINITE);
    CHECK_STR(tally_error_last()->message, "sample 3 is negative infinite");
    CHECK_INT(tally_hmean(&v, nan_in, 3), TALLY_ENONFINITE);
    CHECK(v == -1); /* nothing written */

    CHECK_INT(tally_hmean(&v, zero_in, 3), TALLY_EDOMAIN);
    CHECK_INT(tally_gmean(&v, zero_in, 3), TALLY_EDOMAIN);
    CHECK_INT(tally_hmean(&v, neg_in, 3), TALLY_EDOMAIN);
    CHECK_INT(tally_gmean(&v, neg_in, 3), TALLY_EDOMAIN);
    CHECK_INT(tally_amean(&v, neg_in, 3), TALLY_OK);
    CHECK_REL(v, 2.0 / 3.0, 1e-15);

    /* Identical samples: every mean is the value itself, exactly; SD exactly 0. */
    double same[7];
    for (int i = 0; i < 7; i++)
        same[i] = 0.1;
    CHECK_INT(tally_amean(&v, same, 7), TALLY_OK);
    CHECK(v == 0.1);
    CHECK_INT(tally_hmean(&v, same, 7), TALLY_OK);
    CHECK(v == 0.1);
    CHECK_INT(tally_gmean(&v, same, 7), TALLY_OK);
    CHECK(v == 0.1);
    CHECK_INT(tally_stddev(&v, same, 7), TALLY_OK);
    CHECK(v == 0.0);
}

static void test_overflow(void)
{
    double v;
    /* Hand calculation: mean(1e308, 1e308, 1e308) = 1e308 (a naive sum overflows). */
    const double big[] = { 1e308, 1e308, 1e308 };
    CHECK_INT(tally_amean(&v, big, 3), TALLY_OK);
    CHECK(v == 1e308);
    CHECK_INT(tally_stddev(&v, big, 3), TALLY_OK);
    CHECK(v == 0.0);
    CHECK_INT(tally_hmean(&v, big, 3), TALLY_OK);
    CHECK(v == 1e308);
    CHECK_INT(tally_gmean(&v, big, 3), TALLY_OK);
    CHECK(v == 1e308);

    /* mean(-1e308, 1e308) = 0; sd = sqrt(2) * 1e308 = 1.4142135623730951e308 (finite). */
    const double wide[] = { -1e308, 1e308 };
    CHECK_INT(tally_amean(&v, wide, 2), TALLY_OK);
    CHECK(v == 0.0);
    CHECK_INT(tally_stddev(&v, wide, 2), TALLY_OK);
    CHECK_REL(v, 1.4142135623730951e308, 1e-15);

    /* sd(-1.7e308, 1.7e308) = 2.4e308 > DBL_MAX: reported, not returned as Inf. */
    const double wider[] = { -1.7e308, 1.7e308 };
    CHECK_INT(tally_stddev(&v, wider, 2), TALLY_ENUMERIC);

    /* Subnormal samples: 1/x overflows naively. hmean(5e-324, 5e-324) = 5e-324;
     * hmean(1e-310, 1) = 2 / (1e310 + 1) ~= 2e-310. */
    const double tiny[] = { 5e-324, 5e-324 };
    CHECK_INT(tally_hmean(&v, tiny, 2), TALLY_OK);
    CHECK(v == 5e-324);
    const double mixed[] = { 1e-310, 1.0 };
    CHECK_INT(tally_hmean(&v, mixed, 2), TALLY_OK);
    CHECK_REL(v, 2e-310, 1e-6);
    CHECK_INT(tally_gmean(&v, mixed, 2), TALLY_OK);
    CHECK_REL(v, 1e-155, 1e-9); /* sqrt(1e-310) */

    /* Mixed extremes: hmean(1e-300, 1e300) = 2 / (1e300 + 1e-300) = 2e-300. */
    const double extremes[] = { 1e-300, 1e300 };
    CHECK_INT(tally_hmean(&v, extremes, 2), TALLY_OK);
    CHECK_REL(v, 2e-300, 1e-15);
    CHECK_INT(tally_gmean(&v, extremes, 2), TALLY_OK);
    CHECK_REL(v, 1.0, 1e-13);
}

/* Deviations whose squares leave the double range: {1, 2, 3} * 1e200 has deviations -1e200, 0,
 * 1e200, so the variance is (1e400 + 1e400) / 2 = 1e400 and the SD exactly 1e200 (by hand);
 * likewise 1e-200 for the small set, whose squared deviations (1e-400) underflow. */
static void test_extreme_deviations(void)
{
    const double big[] = {1e200, 2e200, 3e200};
    const double tiny[] = {1e-200, 2e-200, 3e-200};
    double sd = 0.0;
    CHECK_INT(tally_stddev(&sd, big, 3), TALLY_OK);
    CHECK_REL(sd, 1e200, 1e-15);
    CHECK_INT(tally_stddev(&sd, tiny, 3), TALLY_OK);
    CHECK_REL(sd, 1e-200, 1e-15);
    tally_summary sum = { .size = sizeof sum };
    CHECK_INT(tally_summarize(&sum, big, 3, NULL), TALLY_OK);
    CHECK_REL(sum.stddev, 1e200, 1e-15);
    CHECK_REL(sum.cv, 50.0, 1e-15); /* 100 * 1e200 / 2e200 */
}

int main(void)
{
    test_extreme_deviations();
    test_reference_values();
    test_harmonic_sd();
    test_edge_cases();
    test_overflow();
    return check_summary();
}
