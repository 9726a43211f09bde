/*
 * tally_compare(): statistic, ratio, pct-imp, test, verdict and the defined edge cases; and
 * mmtests' significance rule (tally_mmtests_test).
 *
 * References: R 4.2.2 (t.test, wilcox.test, pt, print(digits = 17)), SciPy 1.10.1, or by hand as
 * noted next to each value.
 */
#include <math.h>

#include "check.h"
#include "tally.h"
#include "util/testing.h"

static const double hack_base[] = { 0.380, 0.375, 0.384, 0.382, 0.379 };
static const double hack_new[] = { 0.452, 0.449, 0.455, 0.451, 0.453 };

static tally_compare_options options(tally_test test, tally_direction direction)
{
    tally_compare_options o = TALLY_COMPARE_OPTIONS_INIT;
    o.test = test;
    o.direction = direction;
    return o;
}

/* R: mean(hack_base) = 0.38, mean(hack_new) = 0.45200000000000001; t.test: see
 * test_compare_ttest.c (SciPy: t = -39.63469554454898, p = 2.010184578754989e-09,
 * df = 6.925278219395866). pct-imp by hand: (1 - 0.452/0.38) * 100 = -18.947368... */
static void welch_default(void)
{
    tally_comparison c = { .size = sizeof c };
    CHECK_INT(tally_compare(&c, hack_base, 5, hack_new, 5, NULL), TALLY_OK);
    CHECK_INT(c.test, TALLY_TEST_WELCH);
    CHECK_INT(c.base_n, 5);
    CHECK_INT(c.new_n, 5);
    CHECK_REL(c.base_value, 0.38, 1e-14);
    CHECK_REL(c.new_value, 0.452, 1e-14);
    CHECK_REL(c.ratio, 0.452 / 0.38, 1e-14);
    CHECK_REL(c.pct_imp, -18.947368421052623, 1e-12);
    CHECK_INT(c.ratio_defined, 1);
    CHECK_REL(c.statistic, -39.63469554454898, 1e-10);
    CHECK_REL(c.df, 6.925278219395866, 1e-10);
    CHECK_REL(c.p_value, 2.010184578754989e-09, 1e-8);
    CHECK_INT(c.exact, 0);
    CHECK_INT(c.significant, 1);
    CHECK_INT(c.zero_variance, 0);
    CHECK_INT(c.verdict, TALLY_VERDICT_REGRESSION);

    /* Higher is better: the same numbers are an improvement of +18.95 %. */
    tally_compare_options o = options(TALLY_TEST_WELCH, TALLY_HIGHER_IS_BETTER);
    CHECK_INT(tally_compare(&c, hack_base, 5, hack_new, 5, &o), TALLY_OK);
    CHECK_REL(c.pct_imp, 18.947368421052623, 1e-12);
    CHECK_INT(c.verdict, TALLY_VERDICT_IMPROVEMENT);

    /* Swapped: lower is better and the new set is faster. */
    CHECK_INT(tally_compare(&c, hack_new, 5, hack_base, 5, NULL), TALLY_OK);
    CHECK_INT(c.verdict, TALLY_VERDICT_IMPROVEMENT);
    CHECK_REL(c.statistic, 39.63469554454898, 1e-10);
}

static void other_tests(void)
{
    tally_comparison c = { .size = sizeof c };
    /* Student: SciPy t = -39.634695544548975, p = 1.8058081720562116e-10, df = 8 */
    tally_compare_options o = options(TALLY_TEST_STUDENT, TALLY_LOWER_IS_BETTER);
    CHECK_INT(tally_compare(&c, hack_base, 5, hack_new, 5, &o), TALLY_OK);
    CHECK_REL(c.statistic, -39.634695544548975, 1e-10);
    CHECK_REL(c.df, 8, 0);
    CHECK_REL(c.p_value, 1.8058081720562116e-10, 1e-8);
    CHECK_INT(c.verdict, TALLY_VERDICT_REGRESSION);

    /* Mann-Whitney, 5 vs 5, complete separation: R wilcox.test: W = 0,
     * p = 0.0079365079365079361 (= 2/252, exact). */
    o = options(TALLY_TEST_MANN_WHITNEY, TALLY_LOWER_IS_BETTER);
    CHECK_INT(tally_compare(&c, hack_base, 5, hack_new, 5, &o), TALLY_OK);
    CHECK_ABS(c.statistic, 0, 0);
    CHECK_REL(c.p_value, 0.0079365079365079361, 1e-13);
    CHECK_INT(c.exact, 1);
    CHECK_ABS(c.df, 0, 0);
    CHECK_INT(c.significant, 1);
    CHECK_INT(c.verdict, TALLY_VERDICT_REGRESSION);

    /* No test: never significant, no p-value (NaN, not 1). */
    o = options(TALLY_TEST_NONE, TALLY_LOWER_IS_BETTER);
    CHECK_INT(tally_compare(&c, hack_base, 5, hack_new, 5, &o), TALLY_OK);
    CHECK(isnan(c.p_value));
    CHECK_INT(c.p_defined, 0);
    CHECK_INT(c.significant, 0);
    CHECK_INT(c.verdict, TALLY_VERDICT_NOT_TESTED);
    CHECK_REL(c.pct_imp, -18.947368421052623, 1e-12);

    /* Not significant: rosetta1 at alpha 0.01 (Welch p = 0.021378001462866985, SciPy). */
    const double r1a[] = { 27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1, 21.9, 22.6, 23.1, 19.6,
                           19.0, 21.7, 21.4 };
    const double r1b[] = { 27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0, 24.8, 20.2, 21.9, 22.1,
                           22.9, 20.5, 24.4 };
    o = options(TALLY_TEST_WELCH, TALLY_HIGHER_IS_BETTER);
    o.alpha = 0.01;
    CHECK_INT(tally_compare(&c, r1a, 15, r1b, 15, &o), TALLY_OK);
    CHECK_REL(c.p_value, 0.021378001462866985, 1e-9);
    CHECK_INT(c.significant, 0);
    CHECK_INT(c.verdict, TALLY_VERDICT_NO_CHANGE);
    o.alpha = 0.05;
    CHECK_INT(tally_compare(&c, r1a, 15, r1b, 15, &o), TALLY_OK);
    CHECK_INT(c.verdict, TALLY_VERDICT_IMPROVEMENT);
}

/* Too few samples for the test ever to reach alpha: a footnote, not a verdict. */
static void insufficient(void)
{
    const double one[] = { 1.0 }, two_a[] = { 1.0, 2.0 }, two_b[] = { 30.0, 40.0 };
    const double three_a[] = { 1.0, 2.0, 3.0 }, three_b[] = { 10.0, 11.0, 12.0 };
    tally_comparison c = { .size = sizeof c };
    tally_compare_options o = options(TALLY_TEST_WELCH, TALLY_LOWER_IS_BETTER);

    /* t-tests and the mmtests rule need n >= 2 on both sides. */
    CHECK_INT(tally_compare(&c, one, 1, two_b, 2, &o), TALLY_OK);
    CHECK_INT(c.verdict, TALLY_VERDICT_INSUFFICIENT);
    CHECK_INT(c.p_defined, 0); /* no test could run: no p-value at all */
    CHECK(isnan(c.p_value));
    CHECK(isnan(c.min_p));
    CHECK_INT(c.significant, 0);
    CHECK_REL(c.pct_imp, -3400, 1e-12); /* (1 - 35/1) * 100, by hand: still reported */
    o.test = TALLY_TEST_STUDENT;
    CHECK_INT(tally_compare(&c, two_a, 2, one, 1, &o), TALLY_OK);
    CHECK_INT(c.verdict, TALLY_VERDICT_INSUFFICIENT);
    o.test = TALLY_TEST_MMTESTS_CI;
    CHECK_INT(tally_compare(&c, one, 1, one, 1, &o), TALLY_OK);
    CHECK_INT(c.verdict, TALLY_VERDICT_INSUFFICIENT);

    /* Mann-Whitney: smallest attainable p = 2 / C(na + nb, na); 2 vs 2 gives 1/3, 3 vs 3 gives
     * 0.1 (by hand): never below 0.05. */
    o.test = TALLY_TEST_MANN_WHITNEY;
    CHECK_INT(tally_compare(&c, two_a, 2, two_b, 2, &o), TALLY_OK);
    CHECK_INT(c.verdict, TALLY_VERDICT_INSUFFICIENT);
    CHECK_INT(tally_compare(&c, three_a, 3, three_b, 3, &o), TALLY_OK);
    CHECK_INT(c.verdict, TALLY_VERDICT_INSUFFICIENT);
    /* The test still ran: its real p (0.1, see below) and its smallest reachable p (2/20). */
    CHECK_INT(c.p_defined, 1);
    CHECK_REL(c.p_value, 0.1, 1e-14);
    CHECK_REL(c.min_p, 0.1, 1e-14);
    /* At alpha 0.2 the same samples are testable: exact p = 0.1 (SciPy mannwhitneyu: U = 0.0,
     * p = 0.1 for complete separation 3 vs 3). */
    o.alpha = 0.2;
    CHECK_INT(tally_compare(&c, three_a, 3, three_b, 3, &o), TALLY_OK);
    CHECK_REL(c.p_value, 0.1, 1e-14);
    CHECK_INT(c.verdict, TALLY_VERDICT_REGRESSION);
    /* At alpha 0.1 exactly, p = 0.1 can never be < 0.1: insufficient. */
    o.alpha = 0.1;
    CHECK_INT(tally_compare(&c, three_a, 3, three_b, 3, &o), TALLY_OK);
    CHECK_INT(c.verdict, TALLY_VERDICT_INSUFFICIENT);
}

/* Both sides constant (by hand): different values are a deterministic difference, p = 0 and
 * significant, statistic reported as 0 with zero_variance set; equal values p = 1. SciPy 1.10.1
 * returns t = nan, p = nan for both. */
static void zero_variance(void)
{
    const double a[] = { 5.0, 5.0, 5.0 }, b[] = { 6.0, 6.0, 6.0, 6.0 }, a2[] = { 5.0, 5.0 };
    tally_comparison c = { .size = sizeof c };
    tally_test tests[] = { TALLY_TEST_WELCH, TALLY_TEST_STUDENT, TALLY_TEST_MMTESTS_CI };
    for (int i = 0; i < 3; i++) {
        tally_compare_options o = options(tests[i], TALLY_LOWER_IS_BETTER);
        CHECK_INT(tally_compare(&c, a, 3, b, 4, &o), TALLY_OK);
        CHECK_ABS(c.p_value, 0, 0);
        CHECK_ABS(c.statistic, 0, 0);
        CHECK_INT(c.zero_variance, 1);
        CHECK_INT(c.significant, 1);
        CHECK_INT(c.verdict, TALLY_VERDICT_REGRESSION);
        CHECK_REL(c.pct_imp, -20, 1e-12);
        CHECK_INT(tally_compare(&c, a, 3, a2, 2, &o), TALLY_OK);
        CHECK_ABS(c.p_value, 1, 0);
        CHECK_INT(c.zero_variance, 1);
        CHECK_INT(c.significant, 0);
        /* Both constant and equal: identical (docs/statistics.md, "Verdicts"). */
        CHECK_INT(c.verdict, TALLY_VERDICT_IDENTICAL);
        CHECK_INT(c.identical, 1);
    }
    /* Mann-Whitney with all values tied: normal approximation with zero variance, p = 1. */
    const double five[] = { 5.0, 5.0, 5.0, 5.0, 5.0 };
    tally_compare_options o = options(TALLY_TEST_MANN_WHITNEY, TALLY_LOWER_IS_BETTER);
    CHECK_INT(tally_compare(&c, five, 5, five, 5, &o), TALLY_OK);
    CHECK_ABS(c.p_value, 1, 0);
    CHECK_INT(c.verdict, TALLY_VERDICT_IDENTICAL);
    /* The interval of no change is exactly 0 on both sides, never -0. */
    CHECK(c.interval_defined);
    CHECK(!signbit(c.pct_low) && !signbit(c.pct_high) && c.pct_low == 0 && c.pct_high == 0);
}

/* A baseline statistic of 0 has no ratio: flagged, not an error. R t.test(c(-1, 1, 0),
 * c(5, 6, 7)): t = -7.3484692283495345, df = 4, p = 0.0018262606682599822. The verdict then
 * follows the test's own direction (the new mean is larger; lower is better: a regression). */
static void zero_baseline(void)
{
    const double base[] = { -1.0, 1.0, 0.0 }, cur[] = { 5.0, 6.0, 7.0 };
    tally_comparison c = { .size = sizeof c };
    CHECK_INT(tally_compare(&c, base, 3, cur, 3, NULL), TALLY_OK);
    CHECK_INT(c.ratio_defined, 0);
    CHECK_ABS(c.ratio, 0, 0);
    CHECK_ABS(c.pct_imp, 0, 0);
    CHECK_REL(c.statistic, -7.3484692283495345, 1e-12);
    CHECK_REL(c.p_value, 0.0018262606682599822, 1e-9);
    CHECK_INT(c.verdict, TALLY_VERDICT_REGRESSION);
    tally_compare_options o = options(TALLY_TEST_WELCH, TALLY_HIGHER_IS_BETTER);
    CHECK_INT(tally_compare(&c, base, 3, cur, 3, &o), TALLY_OK);
    CHECK_INT(c.verdict, TALLY_VERDICT_IMPROVEMENT);
}

/* The displayed statistic decides the verdict; when it does not move (pct-imp 0), the test's
 * direction does. Min of both sets is 1 (pct-imp 0); R t.test(c(1, 9, 9.1, 9.2, 9.3),
 * c(1, 1.1, 1.2, 1.3, 1.05)): t = 3.916267621925461739, df = 4.00872376190578894,
 * p = 0.017230088183585169; the new mean is lower: with lower-is-better an improvement. */
static void verdict_fallback(void)
{
    const double base[] = { 1.0, 9.0, 9.1, 9.2, 9.3 }, cur[] = { 1.0, 1.1, 1.2, 1.3, 1.05 };
    tally_comparison c = { .size = sizeof c };
    tally_compare_options o = options(TALLY_TEST_WELCH, TALLY_LOWER_IS_BETTER);
    o.statistic = TALLY_STAT_MIN;
    CHECK_INT(tally_compare(&c, base, 5, cur, 5, &o), TALLY_OK);
    CHECK_ABS(c.pct_imp, 0, 0);
    CHECK_REL(c.statistic, 3.916267621925461739, 1e-12);
    CHECK_REL(c.df, 4.00872376190578894, 1e-12);
    CHECK_REL(c.p_value, 0.017230088183585169, 1e-9);
    CHECK_INT(c.verdict, TALLY_VERDICT_IMPROVEMENT);
}

/* Other centres: the median of {1, 2, 3} is 2, of {2, 3, 4} is 3 (by hand): ratio 1.5, pct-imp
 * -50 % (lower is better); GMean of {1, 2, 4} is 2 and of {2, 4, 8} is 4: ratio 2, pct-imp +100 %
 * (higher is better). The Welch test still compares the arithmetic means. R t.test(c(1,2,3),
 * c(2,3,4)): t = -1.22474487139158894, df = 4.00000000000000089, p = 0.28786413472669081. */
static void other_statistics(void)
{
    const double a[] = { 1.0, 2.0, 3.0 }, b[] = { 2.0, 3.0, 4.0 };
    const double g1[] = { 1.0, 2.0, 4.0 }, g2[] = { 2.0, 4.0, 8.0 };
    tally_comparison c = { .size = sizeof c };
    tally_compare_options o = options(TALLY_TEST_WELCH, TALLY_LOWER_IS_BETTER);
    o.statistic = TALLY_STAT_MEDIAN;
    CHECK_INT(tally_compare(&c, a, 3, b, 3, &o), TALLY_OK);
    CHECK_REL(c.base_value, 2, 1e-15);
    CHECK_REL(c.new_value, 3, 1e-15);
    CHECK_REL(c.ratio, 1.5, 1e-15);
    CHECK_REL(c.pct_imp, -50, 1e-13);
    CHECK_REL(c.statistic, -1.22474487139158894, 1e-13);
    CHECK_REL(c.p_value, 0.28786413472669081, 1e-10);
    CHECK_INT(c.verdict, TALLY_VERDICT_NO_CHANGE);
    o = options(TALLY_TEST_NONE, TALLY_HIGHER_IS_BETTER);
    o.statistic = TALLY_STAT_GMEAN;
    CHECK_INT(tally_compare(&c, g1, 3, g2, 3, &o), TALLY_OK);
    CHECK_REL(c.ratio, 2, 1e-14);
    CHECK_REL(c.pct_imp, 100, 1e-12);
    /* TALLY_STAT_DEFAULT means AMean: 2 and 3. */
    o.statistic = TALLY_STAT_DEFAULT;
    CHECK_INT(tally_compare(&c, a, 3, b, 3, &o), TALLY_OK);
    CHECK_REL(c.base_value, 2, 1e-15);
    CHECK_REL(c.new_value, 3, 1e-15);
}

static void errors(void)
{
    const double ok[] = { 1.0, 2.0, 3.0 }, with_nan[] = { 1.0, NAN, 3.0 };
    const double with_inf[] = { 1.0, 2.0, INFINITY }, nonpos[] = { 1.0, 0.0, 2.0 };
    tally_comparison c = { .size = sizeof c };
    CHECK_INT(tally_compare(&c, ok, 3, ok, 0, NULL), TALLY_ENODATA);
    CHECK_INT(tally_compare(&c, ok, 0, ok, 3, NULL), TALLY_ENODATA);
    CHECK_INT(tally_compare(&c, with_nan, 3, ok, 3, NULL), TALLY_ENONFINITE);
    CHECK_INT(tally_compare(&c, ok, 3, with_inf, 3, NULL), TALLY_ENONFINITE);
    CHECK_INT(tally_compare(NULL, ok, 3, ok, 3, NULL), TALLY_EINVAL);
    CHECK_INT(tally_compare(&c, NULL, 3, ok, 3, NULL), TALLY_EINVAL);

    /* HMean of a sample with a non-positive value is undefined (EDOMAIN from the summary). */
    tally_compare_options o = options(TALLY_TEST_WELCH, TALLY_HIGHER_IS_BETTER);
    o.statistic = TALLY_STAT_HMEAN;
    CHECK_INT(tally_compare(&c, nonpos, 3, ok, 3, &o), TALLY_EDOMAIN);
    CHECK_INT(tally_compare(&c, ok, 3, nonpos, 3, &o), TALLY_EDOMAIN);

    tally_compare_options bad = TALLY_COMPARE_OPTIONS_INIT;
    bad.version = 0;
    CHECK_INT(tally_compare(&c, ok, 3, ok, 3, &bad), TALLY_EINVAL);
    bad = (tally_compare_options)TALLY_COMPARE_OPTIONS_INIT;
    bad.alpha = 0;
    CHECK_INT(tally_compare(&c, ok, 3, ok, 3, &bad), TALLY_EINVAL);
    bad.alpha = 1;
    CHECK_INT(tally_compare(&c, ok, 3, ok, 3, &bad), TALLY_EINVAL);
    bad.alpha = NAN;
    CHECK_INT(tally_compare(&c, ok, 3, ok, 3, &bad), TALLY_EINVAL);
    bad = (tally_compare_options)TALLY_COMPARE_OPTIONS_INIT;
    bad.test = (tally_test)17;
    CHECK_INT(tally_compare(&c, ok, 3, ok, 3, &bad), TALLY_EINVAL);
    bad = (tally_compare_options)TALLY_COMPARE_OPTIONS_INIT;
    bad.direction = (tally_direction)2;
    CHECK_INT(tally_compare(&c, ok, 3, ok, 3, &bad), TALLY_EINVAL);
    bad = (tally_compare_options)TALLY_COMPARE_OPTIONS_INIT;
    bad.statistic = (tally_statistic)42;
    CHECK_INT(tally_compare(&c, ok, 3, ok, 3, &bad), TALLY_EINVAL);
    CHECK(tally_error_last()->message[0] != '\0');

    /* An SD beyond the double range: the t-test's moments are taken on values scaled by a power
     * of two (exact), so t is still computed. Welch t by hand on the scaled values: the mean of
     * edge is 1.7e308/3, its SD 2 * 1.7e308 / sqrt(3), ok's mean ~2 and SD ~1 are negligible
     * beside it: t = (1.7e308/3) / (2 * 1.7e308 / 3) = 0.5, df = 2 (all the variance on one
     * side, na - 1). */
    const double edge[] = { 1.7e308, -1.7e308, 1.7e308 };
    tally_compare_options o2 = options(TALLY_TEST_WELCH, TALLY_LOWER_IS_BETTER);
    CHECK_INT(tally_compare(&c, edge, 3, ok, 3, &o2), TALLY_OK);
    CHECK_REL(c.statistic, 0.5, 1e-12);
    CHECK_REL(c.df, 2, 1e-12);
    o2 = options(TALLY_TEST_STUDENT, TALLY_LOWER_IS_BETTER);
    CHECK_INT(tally_compare(&c, ok, 3, edge, 3, &o2), TALLY_OK);
    /* Mann-Whitney only ranks: the same samples are fine. */
    const double more[] = { 1.0, 2.0, 3.0, 4.0, 5.0 };
    o2 = options(TALLY_TEST_MANN_WHITNEY, TALLY_LOWER_IS_BETTER);
    CHECK_INT(tally_compare(&c, edge, 3, more, 5, &o2), TALLY_OK);
}

#ifdef TALLY_FAULT_INJECTION
/* Every allocation on the way can fail: the result is TALLY_ENOMEM, never a crash or a partial
 * answer, and the first N that lets everything through succeeds. */
static void allocation_failures(void)
{
    const double a[] = { 1.0, 2.0, 3.0, 4.0, 5.0 }, b[] = { 3.0, 4.0, 5.0, 6.0, 7.0, 8.0 };
    tally_test tests[] = { TALLY_TEST_WELCH, TALLY_TEST_MANN_WHITNEY, TALLY_TEST_MMTESTS_CI };
    for (int i = 0; i < 3; i++) {
        tally_compare_options o = options(tests[i], TALLY_LOWER_IS_BETTER);
        int rc = TALLY_ENOMEM;
        for (long n = 1; n < 100 && rc == TALLY_ENOMEM; n++) {
            tally_comparison c = { .size = sizeof c };
            tally_testing_fail_allocation(n);
            rc = tally_compare(&c, a, 5, b, 6, &o);
            tally_testing_fail_allocation(0);
            CHECK(rc == TALLY_OK || rc == TALLY_ENOMEM);
        }
        CHECK_INT(rc, TALLY_OK);
    }
    double p[] = { 0.01, 0.2, 0.03 }, out[3];
    tally_testing_fail_allocation(1);
    CHECK_INT(tally_adjust_pvalues(out, p, 3, TALLY_ADJUST_HOLM), TALLY_ENOMEM);
    tally_testing_fail_allocation(0);
    /* No ties: the exact test allocates the ranking, then the counts of U. */
    const double c[] = { 2.5, 3.5, 5.5, 6.5, 7.5, 8.5 };
    double u, pv;
    tally_testing_fail_allocation(1);
    CHECK_INT(tally_mann_whitney(&u, &pv, NULL, a, 5, c, 6), TALLY_ENOMEM);
    tally_testing_fail_allocation(2);
    CHECK_INT(tally_mann_whitney(&u, &pv, NULL, a, 5, c, 6), TALLY_ENOMEM);
    tally_testing_fail_allocation(3);
    CHECK_INT(tally_mann_whitney(&u, &pv, NULL, a, 5, c, 6), TALLY_OK);
    tally_testing_fail_allocation(0);
}
#endif

/* mmtests' rule (MMTests::Compare::_significanceTest): t on the unpooled SE, df = n1 + n2 - 2. */
static void mmtests_rule(void)
{
    double t, df, p;
    /* R: t <- (10 - 11) / sqrt(1/5 + 4/7); 2 * pt(abs(t), 10, lower.tail = FALSE)
     *    -> t = -1.13855008510662215, p = 0.28143175730802861 */
    CHECK_INT(tally_mmtests_test(&t, &df, &p, 10, 1, 5, 11, 2, 7), TALLY_OK);
    CHECK_REL(t, -1.13855008510662215, 1e-14);
    CHECK_ABS(df, 10, 0);
    CHECK_REL(p, 0.28143175730802861, 1e-10);
    /* R: t <- (0.38 - 0.452) / sqrt(0.01^2/10 + 0.03^2/10); 2 * pt(abs(t), 18, lower.tail = FALSE)
     *    -> t = -7.2000000000000011, p = 1.0622877564488519e-06 */
    CHECK_INT(tally_mmtests_test(&t, &df, &p, 0.38, 0.01, 10, 0.452, 0.03, 10), TALLY_OK);
    CHECK_REL(t, -7.2000000000000011, 1e-13);
    CHECK_ABS(df, 18, 0);
    CHECK_REL(p, 1.0622877564488519e-06, 1e-9);

    /* By hand, closed forms of the t distribution:
     * df = 2: P(T > t) = (1 - t / sqrt(t^2 + 2)) / 2; means 10 and 12, SD 2 and 2, n 2 and 2:
     * se = sqrt(4/2 + 4/2) = 2, t = -1, p = 1 - 1/sqrt(3). */
    CHECK_INT(tally_mmtests_test(&t, &df, &p, 10, 2, 2, 12, 2, 2), TALLY_OK);
    CHECK_REL(t, -1, 1e-15);
    CHECK_ABS(df, 2, 0);
    CHECK_REL(p, 1 - 1 / sqrt(3.0), 1e-13);
    /* df = 1 (Cauchy): P(T > t) = 1/2 - atan(t)/pi; means 1 and 0, SD sqrt(2) (n 2) and 0
     * (n 1): se = 1, t = 1, p = 0.5. */
    CHECK_INT(tally_mmtests_test(&t, &df, &p, 1, sqrt(2.0), 2, 0, 0, 1), TALLY_OK);
    CHECK_REL(t, 1, 1e-15);
    CHECK_ABS(df, 1, 0);
    CHECK_REL(p, 0.5, 1e-13);
    /* Zero standard error: mmtests marks the row exactly when the means differ. */
    CHECK_INT(tally_mmtests_test(&t, &df, &p, 3, 0, 4, 3.5, 0, 4), TALLY_OK);
    CHECK_ABS(t, 0, 0);
    CHECK_ABS(df, 6, 0);
    CHECK_ABS(p, 0, 0);
    CHECK_INT(tally_mmtests_test(&t, &df, &p, 3, 0, 1, 3, 0, 1), TALLY_OK);
    CHECK_ABS(p, 1, 0);
    CHECK_INT(tally_mmtests_test(&t, &df, &p, 3, 0, 1, 4, 0, 1), TALLY_OK);
    CHECK_ABS(p, 0, 0); /* what mmtests does with n = 1; tally_compare says "insufficient" */

    /* SDs of 1e200 and 1e-200: the standard error never squares them (1e400 overflows, 1e-400
     * underflows). Same t and p as means 10 and 12, SDs 2 and 2, n 2 and 2 above. */
    CHECK_INT(tally_mmtests_test(&t, &df, &p, 10e200, 2e200, 2, 12e200, 2e200, 2), TALLY_OK);
    CHECK_REL(t, -1, 1e-14);
    CHECK_REL(p, 1 - 1 / sqrt(3.0), 1e-13);
    CHECK_INT(tally_mmtests_test(&t, &df, &p, 10e-200, 2e-200, 2, 12e-200, 2e-200, 2), TALLY_OK);
    CHECK_REL(t, -1, 1e-14);
    CHECK_REL(p, 1 - 1 / sqrt(3.0), 1e-13);
    /* Means 1.7e308 apart in opposite signs: the difference overflows, t does not. */
    CHECK_INT(tally_mmtests_test(&t, &df, &p, 1.7e308, 1e308, 2, -1.7e308, 1e308, 2), TALLY_OK);
    CHECK_REL(t, 3.4, 1e-14);

    CHECK_INT(tally_mmtests_test(&t, &df, &p, 3, 1, 1, 4, 1, 1), TALLY_ENODATA);
    CHECK_INT(tally_mmtests_test(&t, &df, &p, 3, 1, 0, 4, 1, 1), TALLY_ENODATA);
    CHECK_INT(tally_mmtests_test(&t, &df, &p, NAN, 1, 3, 4, 1, 3), TALLY_ENONFINITE);
    CHECK_INT(tally_mmtests_test(&t, &df, &p, 3, INFINITY, 3, 4, 1, 3), TALLY_ENONFINITE);
    CHECK_INT(tally_mmtests_test(&t, &df, &p, 3, -1, 3, 4, 1, 3), TALLY_EINVAL);
    CHECK_INT(tally_mmtests_test(NULL, &df, &p, 3, 1, 3, 4, 1, 3), TALLY_EINVAL);

    /* Through tally_compare, lower is better: AMean and the sample SD. With equal n the unpooled
     * SE equals the pooled one, so t is Student's; df = 28. R: x, y = rosetta1;
     * t <- (mean(x) - mean(y)) / sqrt(sd(x)^2/15 + sd(y)^2/15); 2*pt(abs(t), 28, lower.tail=FALSE)
     *    -> t = -2.455356398286006048, p = 0.020544522734125926 */
    const double r1a[] = { 27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1, 21.9, 22.6, 23.1, 19.6,
                           19.0, 21.7, 21.4 };
    const double r1b[] = { 27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0, 24.8, 20.2, 21.9, 22.1,
                           22.9, 20.5, 24.4 };
    tally_comparison c = { .size = sizeof c };
    tally_compare_options o = options(TALLY_TEST_MMTESTS_CI, TALLY_LOWER_IS_BETTER);
    CHECK_INT(tally_compare(&c, r1a, 15, r1b, 15, &o), TALLY_OK);
    CHECK_REL(c.statistic, -2.455356398286006048, 1e-12);
    CHECK_ABS(c.df, 28, 0);
    CHECK_REL(c.p_value, 0.020544522734125926, 1e-9);
    CHECK_INT(c.verdict, TALLY_VERDICT_REGRESSION);
    /* Unequal n. R: rosetta3, t <- (mean(x)-mean(y))/sqrt(sd(x)^2/10 + sd(y)^2/20), df 28
     *    -> t = -2.219240915823623705, p = 0.034745945336869373 */
    const double r3a[] = { 19.8, 20.4, 19.6, 17.8, 18.5, 18.9, 18.3, 18.9, 19.5, 22.0 };
    const double r3b[] = { 28.2, 26.6, 20.1, 23.3, 25.2, 22.1, 17.7, 27.6, 20.6, 13.7, 23.2, 17.5,
                           20.6, 18.0, 23.9, 21.6, 24.3, 20.4, 24.0, 13.2 };
    CHECK_INT(tally_compare(&c, r3a, 10, r3b, 20, &o), TALLY_OK);
    CHECK_REL(c.statistic, -2.219240915823623705, 1e-12);
    CHECK_ABS(c.df, 28, 0);
    CHECK_REL(c.p_value, 0.034745945336869373, 1e-9);
    /* mmtests' own level is 0.10; tally's default 0.05 applies unless the caller passes 0.10. */
    o.alpha = 0.03;
    CHECK_INT(tally_compare(&c, r3a, 10, r3b, 20, &o), TALLY_OK);
    CHECK_INT(c.verdict, TALLY_VERDICT_NO_CHANGE);

    /* Higher is better with HMean: the harmonic mean and harmonic SD, as mmtests.
     * R: hm <- function(v) length(v)/sum(1/v);
     *    hs <- function(v) { H <- hm(v); sqrt(sum((1/v - 1/H)^2) * H^4 / length(v)) }
     *    x = c(100,110,105,95,102), y = c(120,118,125,130,115):
     *    hm(x) = 102.15557253287987, hs(x) = 4.9961801295709964, hm(y) = 121.37139145834183,
     *    hs(y) = 5.2245054629140792, t = -5.943886769186312, 2*pt(abs(t), 8, lower.tail=FALSE)
     *    = 3.4432983355540898e-04 */
    const double hx[] = { 100, 110, 105, 95, 102 }, hy[] = { 120, 118, 125, 130, 115 };
    o = options(TALLY_TEST_MMTESTS_CI, TALLY_HIGHER_IS_BETTER);
    o.statistic = TALLY_STAT_HMEAN;
    CHECK_INT(tally_compare(&c, hx, 5, hy, 5, &o), TALLY_OK);
    CHECK_REL(c.base_value, 102.15557253287987, 1e-13);
    CHECK_REL(c.new_value, 121.37139145834183, 1e-13);
    CHECK_REL(c.statistic, -5.943886769186312, 1e-10);
    CHECK_ABS(c.df, 8, 0);
    CHECK_REL(c.p_value, 3.4432983355540898e-04, 1e-8);
    CHECK_INT(c.verdict, TALLY_VERDICT_IMPROVEMENT);
}

int main(void)
{
    welch_default();
    other_tests();
    insufficient();
    zero_variance();
    zero_baseline();
    verdict_fallback();
    other_statistics();
    errors();
    mmtests_rule();
#ifdef TALLY_FAULT_INJECTION
    allocation_failures();
#endif
    return check_summary();
}
