/*
 * The change's interval, the test of the statistic shown, power and equivalence: every expected
 * value from R 4.2 (Debian r-base-core, options(digits = 17)) with the R call next to it, or
 * from exact rational arithmetic (Python fractions + mpmath at 40 digits) where noted.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "stats/compare_impl.h"
#include "stats/stats_internal.h"
#include "tally.h"

/* Fieller's interval as an R function (an implementation independent of tally's, written from
 * the formula in docs/statistics.md), with the df of Welch's test (t.test(a, b)$parameter), so
 * that it excludes 1 exactly when t.test rejects:
 *   fieller <- function(a, b, level) {
 *     ma <- mean(a); mb <- mean(b); va <- var(a)/length(a); vb <- var(b)/length(b)
 *     r <- mb/ma
 *     df <- (va + vb)^2 / (va^2/(length(a)-1) + vb^2/(length(b)-1))
 *     q <- qt((1+level)/2, df); g <- q^2*va/ma^2; h <- q/ma*sqrt(vb*(1-g) + r^2*va)
 *     c((r - h)/(1-g), (r + h)/(1-g), df) } */
static void amean_fieller(void)
{
    const double a[] = { 0.371, 0.396, 0.373 }, b[] = { 0.462, 0.461, 0.433 };
    tally_comparison c = { .size = sizeof c };
    CHECK_INT(tally_compare(&c, a, 3, b, 3, NULL), TALLY_OK);
    CHECK_INT(c.test, TALLY_TEST_WELCH);
    CHECK_INT(c.interval, TALLY_INTERVAL_FIELLER);
    /* R: t.test(a, b)$p.value = 0.0048187511408092814 */
    CHECK_REL(c.p_value, 0.0048187511408092814, 1e-12);
    /* R: fieller(a, b, 0.95) = 1.0939018115255406 1.2934299502864588, df 3.8900713704941730 */
    CHECK_REL(c.ratio_low, 1.0939018115255406, 1e-12);
    CHECK_REL(c.ratio_high, 1.2934299502864588, 1e-12);
    /* pct-imp (lower is better) = (1 - ratio) * 100: the bounds swap. */
    CHECK_REL(c.pct_low, (1 - 1.2934299502864588) * 100, 1e-11);
    CHECK_REL(c.pct_high, (1 - 1.0939018115255406) * 100, 1e-11);
    CHECK(c.pct_low < c.pct_imp && c.pct_imp < c.pct_high);

    /* R: fieller(c(10, 10.2, 9.8, 10), c(12, 12.2, 11.8, 12), 0.95) = 1.1692611532456740
     * 1.2316972097102166 */
    const double x1[] = { 10.0, 10.2, 9.8, 10.0 }, x2[] = { 12.0, 12.2, 11.8, 12.0 };
    CHECK_INT(tally_compare(&c, x1, 4, x2, 4, NULL), TALLY_OK);
    CHECK_REL(c.ratio_low, 1.1692611532456740, 1e-12);
    CHECK_REL(c.ratio_high, 1.2316972097102166, 1e-12);
    CHECK_INT(c.verdict, TALLY_VERDICT_REGRESSION);
}

static void hmean_reciprocal(void)
{
    const double h1[] = { 100, 110, 90, 100 }, h2[] = { 120, 130, 110, 120 };
    tally_compare_options o = TALLY_COMPARE_OPTIONS_INIT;
    o.statistic = TALLY_STAT_HMEAN;
    o.direction = TALLY_HIGHER_IS_BETTER;
    tally_comparison c = { .size = sizeof c };
    CHECK_INT(tally_compare(&c, h1, 4, h2, 4, &o), TALLY_OK);
    CHECK_INT(c.test, TALLY_TEST_WELCH);
    CHECK_INT(c.interval, TALLY_INTERVAL_FIELLER_RECIPROCAL);
    /* R: t.test(1/h1, 1/h2)$p.value = 0.018242687751529405 */
    CHECK_REL(c.p_value, 0.018242687751529405, 1e-12);
    /* R: f <- fieller(1/h1, 1/h2, 0.95); c(1/f[2], 1/f[1]) = 1.0478353334001158
     * 1.3739048455316749 */
    CHECK_REL(c.ratio_low, 1.0478353334001158, 1e-12);
    CHECK_REL(c.ratio_high, 1.3739048455316749, 1e-12);
    CHECK_REL(c.pct_low, 4.78353334001158, 1e-10); /* (ratio - 1) * 100, higher is better */
    CHECK_INT(c.verdict, TALLY_VERDICT_IMPROVEMENT);
    /* Explicit Welch on an HMean row tests 1/x too; Student is the pooled form on 1/x:
     * R: t.test(1/h1, 1/h2, var.equal = TRUE)$p.value = 0.015266106326178934 */
    o.test = TALLY_TEST_WELCH;
    CHECK_INT(tally_compare(&c, h1, 4, h2, 4, &o), TALLY_OK);
    CHECK_REL(c.p_value, 0.018242687751529405, 1e-12);
    o.test = TALLY_TEST_STUDENT;
    CHECK_INT(tally_compare(&c, h1, 4, h2, 4, &o), TALLY_OK);
    CHECK_REL(c.p_value, 0.015266106326178934, 1e-12);
}

static void gmean_exact(void)
{
    const double g1[] = { 1.0, 1.2, 0.9, 1.1, 1.05 }, g2[] = { 1.3, 1.1, 1.25, 1.4, 1.2 };
    tally_compare_options o = TALLY_COMPARE_OPTIONS_INIT;
    o.statistic = TALLY_STAT_GMEAN;
    tally_comparison c = { .size = sizeof c };
    CHECK_INT(tally_compare(&c, g1, 5, g2, 5, &o), TALLY_OK);
    CHECK_INT(c.interval, TALLY_INTERVAL_LOG_WELCH);
    /* R: tt <- t.test(log(g2), log(g1)); tt$p.value = 0.023646026324023357;
     * exp(tt$conf.int) = 1.0310602891297975 1.3782746755559738 */
    CHECK_REL(c.p_value, 0.023646026324023357, 1e-12);
    CHECK_REL(c.ratio_low, 1.0310602891297975, 1e-12);
    CHECK_REL(c.ratio_high, 1.3782746755559738, 1e-12);
    /* Equivalence uses the 1 - 2 alpha interval: R: exp(t.test(log(g2), log(g1),
     * conf.level = 0.9)$conf.int) = 1.0606091255902776 1.3398755971368073; lower is better:
     * pct-imp bounds (1 - 1.3398755971368073) * 100 and (1 - 1.0606091255902776) * 100. */
    o.equivalence_pct = 50;
    CHECK_INT(tally_compare(&c, g1, 5, g2, 5, &o), TALLY_OK);
    CHECK_INT(c.equivalence_defined, 1);
    CHECK_REL(c.equivalence_low, (1 - 1.3398755971368073) * 100, 1e-10);
    CHECK_REL(c.equivalence_high, (1 - 1.0606091255902776) * 100, 1e-10);
    CHECK_INT(c.equivalent, 1);               /* inside +-50 % */
    CHECK_INT(c.verdict, TALLY_VERDICT_REGRESSION); /* but significant: a regression first */
}

/* The ratio of medians, Price & Bonett's construction with the order statistics of the median's
 * 95 % interval, as an R function (independent of tally's code):
 *   side <- function(y, level) { n <- length(y); y <- sort(y)
 *     k <- max(which(sapply(1:floor((n+1)/2), function(k) 1 - 2*pbinom(k-1, n, .5)) >= level))
 *     cov <- 1 - 2*pbinom(k-1, n, .5); z <- qnorm((1+cov)/2)
 *     c(log(median(y)), (log(y[n-k+1]) - log(y[k]))/(2*z), k) }
 *   s1 <- side(m1, .95); s2 <- side(m2, .95); D <- s2[1] - s1[1]; se <- sqrt(s1[2]^2 + s2[2]^2)
 *   2*pnorm(-abs(D/se)) = 0.43953015686167551
 *   exp(D + c(-1, 1)*qnorm(.975)*se) = 0.71305577620228644 2.17858855972444010
 *   se = 0.28492177927548057
 * k is 5 and 6 here, the same as Price & Bonett's round(n/2 - sqrt(n)) for n = 19 and 22. m1 is
 * the example of statpsych's ci.median (Bonett), its 0 replaced by 2.5 for the logarithm. */
static void median_price_bonett(void)
{
    const double m1[] = { 30.2, 20.4, 15.1, 10.2, 10.5, 60.8, 20.8, 25.0, 20.7, 30.9, 10.8, 5.1,
                          50.9, 40.0, 20.9, 10.8, 2.5, 20.5, 50.8 };
    const double m2[] = { 35.1, 24.0, 18.2, 12.9, 14.4, 70.3, 25.5, 29.7, 26.1, 33.3, 13.0,
                          7.7, 55.8, 47.2, 26.6, 12.5, 4.1, 22.2, 61.0, 28.8, 19.9, 31.4 };
    tally_compare_options o = TALLY_COMPARE_OPTIONS_INIT;
    o.statistic = TALLY_STAT_MEDIAN;
    tally_comparison c = { .size = sizeof c };
    CHECK_INT(tally_compare(&c, m1, 19, m2, 22, &o), TALLY_OK);
    CHECK_INT(c.test, TALLY_TEST_PRICE_BONETT);
    CHECK_INT(c.interval, TALLY_INTERVAL_PRICE_BONETT);
    CHECK_REL(c.p_value, 0.43953015686167551, 1e-12);
    CHECK_REL(c.ratio_low, 0.71305577620228644, 1e-12);
    CHECK_REL(c.ratio_high, 2.17858855972444010, 1e-12);
    CHECK_REL(c.log_se, 0.28492177927548057, 1e-12);
    CHECK(isinf(c.log_df));
    CHECK_INT(c.verdict, TALLY_VERDICT_INCONCLUSIVE);
    /* n = 5 has no 95 % interval of the median (it needs n >= 6: 1 - 2/2^5 = 0.9375 < 0.95, by
     * hand): insufficient, no p-value. */
    CHECK_INT(tally_compare(&c, m1, 5, m2, 5, &o), TALLY_OK);
    CHECK_INT(c.verdict, TALLY_VERDICT_INSUFFICIENT);
    CHECK_INT(c.p_defined, 0);
    CHECK_INT(tally_compare(&c, m1, 6, m2, 6, &o), TALLY_OK);
    CHECK_INT(c.p_defined, 1);
    CHECK_INT((int)tally__median_ci_min_n(0.95), 6);
    CHECK_INT((int)tally__median_ci_min_n(0.99), 8); /* 1 - 2/2^8 = 0.9922 by hand */
}

/* The verdict's sign follows the statistic shown: the case of a Median row whose means
 * move the other way. base: median 10, one huge outlier in new pulls its mean up. */
static void sign_follows_statistic(void)
{
    const double base[] = { 10.0, 10.1, 9.9, 10.05, 9.95, 10.0, 10.02, 9.98 };
    const double cur[] = { 9.1, 9.2, 9.0, 9.15, 9.05, 9.1, 60.0, 70.0 };
    tally_compare_options o = TALLY_COMPARE_OPTIONS_INIT;
    o.statistic = TALLY_STAT_MEDIAN;
    tally_comparison c = { .size = sizeof c };
    CHECK_INT(tally_compare(&c, base, 8, cur, 8, &o), TALLY_OK);
    CHECK(c.pct_imp > 0); /* the median fell: better */
    CHECK(c.verdict != TALLY_VERDICT_REGRESSION);
    /* Explicit Welch tests the means (they rose): significant or not, never a regression shown
     * as +pct: a disagreeing significant test is inconclusive. */
    o.test = TALLY_TEST_WELCH;
    CHECK_INT(tally_compare(&c, base, 8, cur, 8, &o), TALLY_OK);
    CHECK(c.verdict != TALLY_VERDICT_REGRESSION && c.verdict != TALLY_VERDICT_IMPROVEMENT);
    /* Min, Max and BAmean are not tested by default: no p, no interval. */
    o = (tally_compare_options)TALLY_COMPARE_OPTIONS_INIT;
    o.statistic = TALLY_STAT_MIN;
    CHECK_INT(tally_compare(&c, base, 8, cur, 8, &o), TALLY_OK);
    CHECK_INT(c.verdict, TALLY_VERDICT_NOT_TESTED);
    CHECK_INT(c.p_defined, 0);
    CHECK_INT(c.interval_defined, 0);
}

/* The noncentral t against R's pt(q, df, ncp). */
static void noncentral_t(void)
{
    double p;
    /* R: pt(2.0, 10, 1.5) = 0.65915407244202628 */
    CHECK_INT(tally_noncentral_t_cdf(&p, 2.0, 10, 1.5), TALLY_OK);
    CHECK_ABS(p, 0.65915407244202628, 1e-12);
    /* R: pt(-1.0, 5, 0.5) = 0.082444091056970814 */
    CHECK_INT(tally_noncentral_t_cdf(&p, -1.0, 5, 0.5), TALLY_OK);
    CHECK_ABS(p, 0.082444091056970814, 1e-12);
    /* R: pt(3.5, 28, 2.8) = 0.7275114028315417 */
    CHECK_INT(tally_noncentral_t_cdf(&p, 3.5, 28, 2.8), TALLY_OK);
    CHECK_ABS(p, 0.7275114028315417, 1e-12);
    /* R: pt(1.7, 4.5, 3) = 0.1120003694692151 (fractional df) */
    CHECK_INT(tally_noncentral_t_cdf(&p, 1.7, 4.5, 3), TALLY_OK);
    CHECK_ABS(p, 0.1120003694692151, 1e-12);
    /* ncp 0 is the central t: R: pt(2, 7) = 0.95719033571851209 */
    CHECK_INT(tally_noncentral_t_cdf(&p, 2.0, 7, 0), TALLY_OK);
    CHECK_ABS(p, 0.95719033571851209, 1e-12);
    CHECK_INT(tally_noncentral_t_cdf(&p, 1.0, 0, 1), TALLY_ENUMERIC);
}

/* Runs needed and the MDE against R's power.t.test(strict = TRUE). */
static void power_and_runs(void)
{
    size_t n = 0;
    /* R: power.t.test(delta = 0.02, sd = 0.03, sig.level = 0.05, power = 0.8,
     * strict = TRUE)$n = 36.305658458187438 -> 37 */
    CHECK_INT(tally_t_test_runs_needed(&n, 0.02, 0.03, 0.05, 0.8), TALLY_OK);
    CHECK_INT((int)n, 37);
    /* R: power.t.test(delta = 1, sd = 1, sig.level = 0.05, power = 0.9, strict = TRUE)$n =
     * 22.021090600552355 -> 23 */
    CHECK_INT(tally_t_test_runs_needed(&n, 1, 1, 0.05, 0.9), TALLY_OK);
    CHECK_INT((int)n, 23);
    /* R: power.t.test(delta = 0.5, sd = 2, sig.level = 0.01, power = 0.8, strict = TRUE)$n =
     * 375.38903268420955 -> 376 */
    CHECK_INT(tally_t_test_runs_needed(&n, 0.5, 2, 0.01, 0.8), TALLY_OK);
    CHECK_INT((int)n, 376);
    /* MDE: R: power.t.test(n = 10, sd = 1, sig.level = 0.05, power = 0.8, strict = TRUE,
     * tol = 1e-13)$delta = 1.3249473925786537 (R's default tol, 1.2e-4, stops at 1.32494356);
     * the noncentrality is delta / (sd sqrt(2/n)), df 18. */
    double ncp;
    CHECK_INT(tally__mde_ncp(&ncp, 18, 0.05, 0.8), TALLY_OK);
    CHECK_REL(ncp * sqrt(0.2), 1.3249473925786537, 1e-9);
    CHECK_INT(tally_t_test_runs_needed(&n, 0, 1, 0.05, 0.8), TALLY_EINVAL);
}

/* Equivalence and runs needed inside tally_compare. */
static void equivalence_and_inconclusive(void)
{
    const double a[] = { 10.0, 10.1, 9.9, 10.05, 9.95, 10.0 };
    tally_compare_options o = TALLY_COMPARE_OPTIONS_INIT;
    tally_comparison c = { .size = sizeof c };
    /* No margin: a non-significant row is inconclusive, never "no change". */
    CHECK_INT(tally_compare(&c, a, 6, a, 6, &o), TALLY_OK);
    CHECK_INT(c.verdict, TALLY_VERDICT_INCONCLUSIVE);
    CHECK_INT(c.mde_defined, 1);
    CHECK_INT((int)c.runs_needed, 0);
    /* A 2 % margin: the 90 % interval of identical samples is symmetric around 0 and narrow. */
    o.equivalence_pct = 2;
    CHECK_INT(tally_compare(&c, a, 6, a, 6, &o), TALLY_OK);
    CHECK_INT(c.verdict, TALLY_VERDICT_EQUIVALENT);
    /* A 0.1 % margin cannot be shown: inconclusive with the runs that would resolve it, from the
     * CV on the log-ratio scale (docs/statistics.md): R: sd(a) / mean(a) =
     * 0.0070710678118654753; power.t.test(delta = log1p(0.001), sd = sd(a) / mean(a),
     * sig.level = 0.05, power = 0.8, strict = TRUE)$n = 786.63251867473434 -> 787 (equal
     * variances: the Welch df is 2 (n - 1), power.t.test's). */
    o.equivalence_pct = 0.1;
    CHECK_INT(tally_compare(&c, a, 6, a, 6, &o), TALLY_OK);
    CHECK_INT(c.verdict, TALLY_VERDICT_INCONCLUSIVE);
    CHECK_INT((int)c.runs_needed, 787);
    CHECK_REL(c.runs_target_pct, 0.1, 0);
    /* --mde overrides the margin as the target. */
    o.mde_pct = 1;
    CHECK_INT(tally_compare(&c, a, 6, a, 6, &o), TALLY_OK);
    CHECK_REL(c.runs_target_pct, 1, 0);
    CHECK(c.runs_needed > 2 && c.runs_needed < 787);
    /* Bad options. */
    o = (tally_compare_options)TALLY_COMPARE_OPTIONS_INIT;
    o.power = 1;
    CHECK_INT(tally_compare(&c, a, 6, a, 6, &o), TALLY_EINVAL);
    o = (tally_compare_options)TALLY_COMPARE_OPTIONS_INIT;
    o.equivalence_pct = -1;
    CHECK_INT(tally_compare(&c, a, 6, a, 6, &o), TALLY_EINVAL);
}

/* Welch on a large common offset: moments around a pivot. Expected value by exact rational
 * arithmetic on the doubles (Python fractions) and a 40-digit t CDF (mpmath.betainc):
 *   a = [1e7 + [0.1, 0.2, 0.3][i % 3] for i in range(200)]
 *   b = [1e7 + [0.15, 0.25, 0.35][i % 3] for i in range(200)]
 *   exact moments of Fraction(x); t^2 = (ma - mb)^2 / (va/na + vb/nb); Welch df;
 *   p = betainc(df/2, 1/2, 0, df/(df + t^2), regularized=True)
 *   p = 2.292367415719407251139513e-9, |t| = 6.116160679537834182955438,
 *   df = 397.9999999999999656526931
 * (SciPy 1.10.1 ttest_ind(a, b, equal_var=False) gives 2.29236642767726e-09, 4e-7 off.) */
static void pivot(void)
{
    double a[200], b[200];
    static const double da[] = { 0.1, 0.2, 0.3 }, db[] = { 0.15, 0.25, 0.35 };
    for (int i = 0; i < 200; i++) {
        a[i] = 1e7 + da[i % 3];
        b[i] = 1e7 + db[i % 3];
    }
    double t, df, p;
    CHECK_INT(tally_welch_test(&t, &df, &p, a, 200, b, 200), TALLY_OK);
    CHECK_REL(p, 2.292367415719407251139513e-9, 1e-12);
    CHECK_REL(fabs(t), 6.116160679537834182955438, 1e-13);
    CHECK_REL(df, 397.9999999999999656526931, 1e-13);
    tally_comparison c = { .size = sizeof c };
    CHECK_INT(tally_compare(&c, a, 200, b, 200, NULL), TALLY_OK);
    CHECK_REL(c.p_value, 2.292367415719407251139513e-9, 1e-12);
}

/* The pivot moments on the x scale with the extremes given (the compare takes them from the
 * summaries) against the pass that finds them: the same bits for every field, on shapes that
 * reach each branch: constant samples, signed zeros, a sample equal to the pivot, values near
 * the double range (mul != 1), n = 1 to 9 (the scalar tail of the lanes), and random
 * benchmark-like samples of 1000. */
static uint64_t state = 88172645463325252ULL;

static double uniform(void)
{
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return (double)(state >> 11) / 9007199254740992.0;
}

static int same_moments(const tally__test_moments *a, const tally__test_moments *b)
{
    return a->n == b->n && a->constant == b->constant && a->pivoted == b->pivoted &&
           memcmp(&a->mean, &b->mean, sizeof a->mean) == 0 &&
           memcmp(&a->centred, &b->centred, sizeof a->centred) == 0 &&
           memcmp(&a->sd, &b->sd, sizeof a->sd) == 0;
}

static void pivot_known_extremes(void)
{
    static double x[1000];
    unsigned long bad = 0, cases = 0;
    for (int shape = 0; shape < 40; shape++) {
        size_t n = shape < 9 ? (size_t)shape + 1 : 1000;
        for (size_t i = 0; i < n; i++) {
            double u = uniform();
            switch (shape % 5) {
            case 0: x[i] = 0.0067 * exp(0.05 * (u - 0.5)); break;
            case 1: x[i] = 3.25; break;                                  /* constant */
            case 2: x[i] = u < 0.5 ? 0.0 : -0.0; break;                  /* signed zeros */
            case 3: x[i] = (u - 0.5) * 1.7e308; break;                   /* mul < 1 */
            default: x[i] = floor(u * 4) - 2; break;                     /* ties, the pivot */
            }
        }
        double lo = x[0], hi = x[0];
        for (size_t i = 1; i < n; i++) {
            lo = x[i] < lo ? x[i] : lo;
            hi = x[i] > hi ? x[i] : hi;
        }
        double mul = tally__overflow_scale(fmax(fabs(lo), fabs(hi)));
        for (int pv = 0; pv < 2; pv++) {
            double p = pv ? x[n - 1] : x[0];
            tally__test_moments a, b;
            memset(&a, 0, sizeof a);
            memset(&b, 0, sizeof b);
            tally__pivot_moments(&a, x, n, TALLY__SCALE_X, p, mul);
            tally__pivot_moments_x(&b, x, n, p, mul, lo, hi);
            cases++;
            if (!same_moments(&a, &b)) {
                if (bad++ < 5)
                    fprintf(stderr, "  shape %d, n %zu: mean %.17g/%.17g sd %.17g/%.17g\n", shape,
                            n, a.mean, b.mean, a.sd, b.sd);
            }
        }
    }
    CHECK_INT(cases, 80);
    CHECK_INT(bad, 0);
}

int main(void)
{
    pivot_known_extremes();
    amean_fieller();
    hmean_reciprocal();
    gmean_exact();
    median_price_bonett();
    sign_follows_statistic();
    noncentral_t();
    power_and_runs();
    equivalence_and_inconclusive();
    pivot();
    return check_summary();
}
