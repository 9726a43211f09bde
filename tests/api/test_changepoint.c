/* Change points of a series (tally/changepoint.h): the test statistic against SciPy, the drift
 * against R, small hand-made series; the seeded simulations are in
 * test_changepoint_simulation.c. */
#include <stdlib.h>

#include "check.h"
#include "tally.h"

static tally_changepoints *detect(const double *v, const size_t *off, size_t n,
                                  const tally_changepoint_options *o)
{
    tally_changepoints *cp = NULL;
    int rc = tally_changepoints_detect(&cp, v, off, n, o);
    CHECK_INT(rc, TALLY_OK);
    if (rc)
        fprintf(stderr, "  %s\n", tally_error_last()->message);
    return cp;
}

/* One value per point: offsets 0..n. */
static size_t *unit_offsets(size_t n)
{
    size_t *off = malloc((n + 1) * sizeof *off);
    for (size_t i = 0; i <= n; i++)
        off[i] = i;
    return off;
}

/* A clean step between two segments of 10 values each: the split, the levels and Welch's t
 * against SciPy 1.10.1. The level before is a wave 10, 10.5, 11, 11.5, 12, 12, 11.5, 11, 10.5,
 * 10; after it the same wave + 3 (smooth, so that its spread, sd 0.745, and not the series'
 * noise floor from neighbouring differences, 0.524, sets each level's standard error).
 *   >>> from scipy import stats; import numpy as np, math
 *   >>> a = [10, 10.5, 11, 11.5, 12, 12, 11.5, 11, 10.5, 10]; b = [x + 3 for x in a]
 *   >>> r = stats.ttest_ind(b, a, equal_var=False); r.statistic, r.pvalue
 *   (8.999999999999998, 4.4042787291820685e-08)
 * df: equal variances and sizes, so Welch-Satterthwaite gives 2 (n - 1) = 18 (by hand).
 * 20 points, min_segment 3: the merged segment allows 20 - 6 + 1 = 15 splits, p_value = 15 p.
 *   >>> stats.t.interval(0.95, 9, loc=11.0, scale=stats.sem(a))
 *   (10.466804443372041, 11.533195556627959)
 * pct-imp (lower is better) = (1 - 14 / 11) * 100 = -27.27272727272727; its Fieller interval
 * from the formula of docs/statistics.md ("Fieller"), evaluated in Python:
 *   >>> q = stats.t.ppf(0.975, 18); va = stats.sem(a)**2; vb = stats.sem(b)**2
 *   >>> r = 14 / 11; g = q*q*va/11**2; h = q/11*math.sqrt(vb*(1-g) + r*r*va); d = r - 1
 *   >>> (-100*(d+g+h)/(1-g), -100*(d+g-h)/(1-g))
 *   (-34.829633257300245, -20.23272347208393) */
static void test_step_against_scipy(void)
{
    static const double wave[10] = { 10, 10.5, 11, 11.5, 12, 12, 11.5, 11, 10.5, 10 };
    double v[20];
    for (int i = 0; i < 20; i++)
        v[i] = wave[i % 10] + (i < 10 ? 0 : 3);
    size_t *off = unit_offsets(20);
    tally_changepoint_options o = TALLY_CHANGEPOINT_OPTIONS_INIT;
    tally_changepoints *cp = detect(v, off, 20, &o);
    CHECK_INT(tally_changepoints_count(cp), 1);
    tally_changepoint c = { .size = sizeof c };
    CHECK_INT(tally_changepoints_at(&c, cp, 0), TALLY_OK);
    CHECK_INT(c.index, 10);
    CHECK_INT(c.before_first, 0);
    CHECK_INT(c.after_end, 20);
    CHECK_REL(c.t, 8.999999999999998, 1e-12);
    CHECK_REL(c.df, 18.0, 1e-12);
    CHECK_REL(c.p_raw, 4.4042787291820685e-08, 1e-9);
    CHECK_REL(c.p_value, 15 * 4.4042787291820685e-08, 1e-9);
    CHECK_REL(c.before, 11.0, 1e-14);
    CHECK_REL(c.before_low, 10.466804443372041, 1e-10); /* GSL's t quantile vs SciPy's: ~1e-12 */
    CHECK_REL(c.before_high, 11.533195556627959, 1e-10);
    CHECK_REL(c.after, 14.0, 1e-14);
    CHECK_REL(c.pct_imp, -27.27272727272727, 1e-12);
    CHECK_REL(c.pct_imp_low, -34.829633257300245, 1e-9);
    CHECK_REL(c.pct_imp_high, -20.23272347208393, 1e-9);
    CHECK_INT(c.verdict, TALLY_VERDICT_REGRESSION);
    CHECK_INT(c.before_runs, 10);
    CHECK_INT(c.after_runs, 10);
    tally_changepoints_free(cp);
    /* Higher is better: the same step is an improvement of +27.27 % [+20.23, +34.83]. */
    o.direction = TALLY_HIGHER_IS_BETTER;
    cp = detect(v, off, 20, &o);
    CHECK_INT(tally_changepoints_at(&c, cp, 0), TALLY_OK);
    CHECK_REL(c.pct_imp, 27.27272727272727, 1e-12);
    CHECK_REL(c.pct_imp_low, 20.23272347208393, 1e-9);
    CHECK_REL(c.pct_imp_high, 34.829633257300245, 1e-9);
    CHECK_INT(c.verdict, TALLY_VERDICT_IMPROVEMENT);
    tally_changepoints_free(cp);
    free(off);
}

/* Several runs per point: the runs' standard error when the point means agree with it, the
 * points' (cluster) one when whole points move together. Points of 3 runs, 5 points a side:
 * runs x - 0.1, x, x + 0.1 with x = 10 (before) and 10.3 (after): the point means are exactly
 * equal within a side, so the points' variance is 0 and Welch runs on the 15 runs of each side:
 *   >>> a = [9.9, 10, 10.1] * 5; b = [10.2, 10.3, 10.4] * 5
 *   >>> stats.ttest_ind(b, a, equal_var=False)
 *   Ttest_indResult(statistic=9.721111047611863, pvalue=1.7903926500285692e-10)
 * df 2 (15 - 1) = 28 (equal variances and sizes, by hand). */
static void test_runs_per_point(void)
{
    double v[30];
    size_t off[11];
    for (int i = 0; i < 10; i++) {
        off[i] = 3 * (size_t)i;
        for (int k = 0; k < 3; k++)
            v[3 * i + k] = (i < 5 ? 10 : 10.3) + 0.1 * (k - 1);
    }
    off[10] = 30;
    tally_changepoint_options o = TALLY_CHANGEPOINT_OPTIONS_INIT;
    tally_changepoints *cp = detect(v, off, 10, &o);
    CHECK_INT(tally_changepoints_count(cp), 1);
    tally_changepoint c = { .size = sizeof c };
    tally_changepoints_at(&c, cp, 0);
    CHECK_INT(c.index, 5);
    CHECK_REL(c.t, 9.721111047611863, 1e-10);
    CHECK_REL(c.df, 28.0, 1e-10);
    CHECK_REL(c.p_raw, 1.7903926500285692e-10, 1e-7);
    /* 10 points, min 3: 10 - 6 + 1 = 5 splits. */
    CHECK_REL(c.p_value, 5 * 1.7903926500285692e-10, 1e-7);
    tally_changepoints_free(cp);
}

/* A single-point spike is an outlier, never a change. */
static void test_spike(void)
{
    double v[40];
    for (int i = 0; i < 40; i++)
        v[i] = 100 + (i % 3) * 0.5;
    v[20] = 140;
    size_t *off = unit_offsets(40);
    tally_changepoints *cp = detect(v, off, 40, NULL);
    CHECK_INT(tally_changepoints_count(cp), 0);
    CHECK_INT(tally_changepoints_outlier_count(cp), 1);
    CHECK_INT(tally_changepoints_outlier_at(cp, 0), 20);
    CHECK(tally_changepoints_outlier_at(cp, 1) == (size_t)-1);
    tally_changepoints_free(cp);
    free(off);
}

/* The drift check against R 4 (Mann-Kendall with the continuity correction and the Theil-Sen
 * slope, written out) on a line with a repeating wiggle, no ties:
 * x_i = 100 + 0.05 i + (0, 0.3, -0.2, 0.1)[i % 4], i = 0..39.
 *   R> i <- 0:39; x <- 100 + 0.05*i + c(0, 0.3, -0.2, 0.1)[i %% 4 + 1]
 *   R> s <- outer(x, x, function(a, b) sign(b - a)); S <- sum(s[upper.tri(s)])   # 632
 *   R> v <- 40*39*85/18; z <- (S - sign(S)) / sqrt(v); 2 * pnorm(-abs(z))
 *   [1] 1.955511595e-13
 *   R> sl <- outer(1:40, 1:40, function(a, b) (x[b] - x[a]) / (b - a))
 *   R> median(sl[upper.tri(sl)]); -100 * median(sl[upper.tri(sl)]) / mean(x)
 *   [1] 0.0500000000000001
 *   [1] -0.0494926998267757
 * (slope_pct: per point, in percent of the mean, negative = worse as lower is better). With a
 * min_change_pct above the drift no split passes, so the trend covers the whole series. */
static void test_trend_against_r(void)
{
    double v[40];
    static const double wiggle[4] = { 0, 0.3, -0.2, 0.1 };
    for (int i = 0; i < 40; i++)
        v[i] = 100 + 0.05 * i + wiggle[i % 4];
    size_t *off = unit_offsets(40);
    tally_changepoint_options o = TALLY_CHANGEPOINT_OPTIONS_INIT;
    o.min_change_pct = 50;
    tally_changepoints *cp = detect(v, off, 40, &o);
    CHECK_INT(tally_changepoints_count(cp), 0);
    tally_trend t = { .size = sizeof t };
    CHECK_INT(tally_changepoints_trend(&t, cp), TALLY_OK);
    CHECK_INT(t.tested, 1);
    CHECK_INT(t.first, 0);
    CHECK_INT(t.count, 40);
    CHECK_REL(t.p_value, 1.955511595e-13, 1e-6);
    CHECK_REL(t.slope_pct, -0.0494926998267757, 1e-9);
    CHECK(t.slope_pct_low <= t.slope_pct && t.slope_pct <= t.slope_pct_high);
    CHECK(!t.drifting); /* 2 % over the series, below min_change_pct 50 */
    tally_changepoints_free(cp);
    o.min_change_pct = 1;
    o.min_segment = 20; /* no split of 40 points into two levels of 20 passes... or may */
    cp = detect(v, off, 40, &o);
    tally_changepoints_trend(&t, cp);
    if (tally_changepoints_count(cp) == 0) {
        CHECK(t.drifting);
        CHECK_INT(t.verdict, TALLY_VERDICT_REGRESSION);
    }
    tally_changepoints_free(cp);
    free(off);
}

static void test_errors(void)
{
    tally_changepoints *cp = NULL;
    double v[3] = { 1, 2, 3 };
    size_t bad[3] = { 0, 2, 2 };
    CHECK_INT(tally_changepoints_detect(&cp, v, bad, 2, NULL), TALLY_EINVAL);
    CHECK(cp == NULL);
    double nan_v[3] = { 1, NAN, 3 };
    size_t off[4] = { 0, 1, 2, 3 };
    CHECK_INT(tally_changepoints_detect(&cp, nan_v, off, 3, NULL), TALLY_ENONFINITE);
    tally_changepoint_options o = TALLY_CHANGEPOINT_OPTIONS_INIT;
    o.min_segment = 1;
    CHECK_INT(tally_changepoints_detect(&cp, v, off, 3, &o), TALLY_EINVAL);
    o = (tally_changepoint_options)TALLY_CHANGEPOINT_OPTIONS_INIT;
    o.window = 2;
    CHECK_INT(tally_changepoints_detect(&cp, v, off, 3, &o), TALLY_EINVAL);
    /* Too short to split: no change point, no trend. */
    CHECK_INT(tally_changepoints_detect(&cp, v, off, 3, NULL), TALLY_OK);
    CHECK_INT(tally_changepoints_count(cp), 0);
    tally_changepoint c = { .size = sizeof c };
    CHECK_INT(tally_changepoints_at(&c, cp, 0), TALLY_EINVAL);
    tally_changepoint z = { .size = 0 };
    CHECK_INT(tally_changepoints_at(&z, cp, 0), TALLY_EINVAL);
    tally_changepoints_free(cp);
    tally_changepoints_free(NULL);
}

int main(void)
{
    test_step_against_scipy();
    test_runs_per_point();
    test_spike();
    test_trend_against_r();
    test_errors();
    return check_summary();
}
