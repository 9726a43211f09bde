/*
 * The Hodges-Lehmann estimate and interval (stats/hodges_lehmann.c) against R 4.x. Every
 * expected value is R's output of the call pasted next to it (options(digits = 17)):
 *   b1 <- c(12.1, 13.4, 11.8, 12.9, 13.0, 12.5)
 *   c1 <- c(13.9, 14.2, 12.8, 15.1, 14.4, 13.6, 14.8)
 *   b2 <- c(10, 11, 11, 12, 12, 12, 13, 14, 15, 15)
 *   c2 <- c(11, 12, 13, 13, 14, 14, 15, 16, 16, 17, 18)
 *   set.seed(1); b3 <- round(rexp(60) + 1, 6); c3 <- round(rexp(70) * 1.2 + 1, 6)
 * R's normal-approximation bounds come from uniroot(tol = 1e-4) on a step function whose jumps
 * are the differences, so they match tally's (the differences themselves) to 1e-4; the exact
 * ones are differences in R too and match to rounding.
 */
#include <math.h>

#include "check.h"
#include "stats/compare_impl.h"
#include "tally.h"

static const double b1[] = { 12.1, 13.4, 11.8, 12.9, 13.0, 12.5 };
static const double c1[] = { 13.9, 14.2, 12.8, 15.1, 14.4, 13.6, 14.8 };
static const double b2[] = { 10, 11, 11, 12, 12, 12, 13, 14, 15, 15 };
static const double c2[] = { 11, 12, 13, 13, 14, 14, 15, 16, 16, 17, 18 };
static const double b3[] = {
    1.755182, 2.181643, 1.145707, 1.139795, 1.436069, 3.894969, 2.229562, 1.539683, 1.956567,
    1.147046, 2.390735, 1.762030, 2.237604, 5.423934, 2.054543, 2.035244, 2.876035, 1.654747,
    1.336933, 1.588480, 3.364515, 1.641893, 1.294120, 1.565866, 1.106073, 1.059439, 1.578712,
    4.958933, 2.173312, 1.996813, 2.435285, 1.037269, 1.324010, 2.320468, 1.203510, 2.022726,
    1.301741, 1.725214, 1.751543, 1.235027, 2.079881, 2.028247, 2.292262, 2.253105, 1.554641,
    1.301283, 2.293125, 1.994556, 1.514174, 3.007832, 1.422242, 3.178773, 4.217789, 1.557829,
    1.594618, 1.977396, 1.209867, 1.309448, 2.105936, 1.774188
};
static const double c3[] = {
    1.107609, 2.329812, 1.296717, 2.886384, 6.799375, 1.517359, 4.276467, 2.364198, 1.976042,
    2.004408, 3.141718, 3.774966, 4.491865, 1.342709, 1.466544, 1.062467, 1.422245, 2.878290,
    1.977443, 4.311093, 1.463432, 2.209908, 1.982217, 1.071113, 3.740624, 1.965005, 2.900435,
    2.480550, 2.614773, 3.520453, 2.242117, 1.536942, 2.252330, 1.312994, 1.817475, 1.316486,
    1.535927, 1.252728, 1.159086, 1.418666, 3.279812, 1.619447, 1.538797, 1.455520, 2.498521,
    4.232094, 1.235586, 3.759805, 1.678843, 1.915816, 2.887260, 3.202769, 1.044583, 1.150679,
    2.703459, 1.862341, 1.523045, 1.083295, 1.256430, 1.358991, 1.282787, 1.891652, 3.051911,
    2.178183, 1.024300, 1.214283, 4.911205, 2.637487, 1.109331, 2.429314
};

static void logs(double *out, const double *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        out[i] = log(x[i]);
}

static void check_hl(const double *b, size_t nb, const double *c, size_t nc, double level,
                     int exact, double est, double lo, double hi, double tol)
{
    double e = NAN, l = NAN, h = NAN;
    CHECK_INT(tally__hodges_lehmann(&e, &l, &h, b, nb, c, nc, level, exact), TALLY_OK);
    CHECK_ABS(e, est, tol);
    CHECK_ABS(l, lo, tol);
    CHECK_ABS(h, hi, tol);
}

/* Small samples without ties: the exact distribution (6 and 7 runs; R is exact below 50, tally
 * at most 8 on a side, so both are exact here). */
static void test_exact(void)
{
    /* wilcox.test(c1, b1, conf.int = TRUE): 1.5 [0.59999999999999964, 2.3999999999999986] */
    check_hl(b1, 6, c1, 7, 0.95, 1, 1.5, 0.59999999999999964, 2.3999999999999986, 1e-12);
    /* wilcox.test(c1, b1, conf.int = TRUE, conf.level = 0.99): 1.5 [0.2, 2.7] */
    check_hl(b1, 6, c1, 7, 0.99, 1, 1.5, 0.19999999999999929, 2.7000000000000011, 1e-12);
    /* wilcox.test(log(c1), log(b1), conf.int = TRUE):
     * 0.11343261767681967 [0.045120435280469717, 0.18514243313559575] */
    double lb[6], lc[7];
    logs(lb, b1, 6);
    logs(lc, c1, 7);
    check_hl(lb, 6, lc, 7, 0.95, 1, 0.11343261767681967, 0.045120435280469717,
             0.18514243313559575, 1e-12);
}

/* Ties: the normal approximation with continuity correction, the variance holding the ties
 * within each sample. */
static void test_ties(void)
{
    /* wilcox.test(c2, b2, conf.int = TRUE):
     * 1.9999987781336366 [3.0033926693093547e-05, 3.9999991341305745] (uniroot, tol 1e-4) */
    check_hl(b2, 10, c2, 11, 0.95, 0, 1.9999987781336366, 3.0033926693093547e-05,
             3.9999991341305745, 1e-4);
    /* wilcox.test(log(c2), log(b2), conf.int = TRUE):
     * 0.15408621830447400 [8.9731259323206584e-05, 0.28774379167594266] */
    double lb[10], lc[11];
    logs(lb, b2, 10);
    logs(lc, c2, 11);
    check_hl(lb, 10, lc, 11, 0.95, 0, 0.15408621830447400, 8.9731259323206584e-05,
             0.28774379167594266, 1e-4);
}

/* Large samples (60 and 70, no ties): the normal approximation in both R and tally. */
static void test_large(void)
{
    /* wilcox.test(c3, b3, conf.int = TRUE):
     * 0.10021397331251973 [-0.13568071299762310, 0.38297703724399906] */
    check_hl(b3, 60, c3, 70, 0.95, 0, 0.10021397331251973, -0.13568071299762310,
             0.38297703724399906, 1e-4);
    /* wilcox.test(log(c3), log(b3), conf.int = TRUE):
     * 0.061340943406351364 [-0.085283639240416501, 0.216167169867486186] */
    double lb[60], lc[70];
    logs(lb, b3, 60);
    logs(lc, c3, 70);
    check_hl(lb, 60, lc, 70, 0.95, 0, 0.061340943406351364, -0.085283639240416501,
             0.216167169867486186, 1e-4);
}

/* Through tally_compare: a Mann-Whitney row's interval is the ratio interval exp(HL of the
 * logs), whatever the row's statistic. R: exp(c(0.045120435280469717, 0.18514243313559575)) =
 * 1.0461538462, 1.2033898305 (R, options(digits = 11)). */
static void test_compare(void)
{
    tally_compare_options o = TALLY_COMPARE_OPTIONS_INIT;
    o.test = TALLY_TEST_MANN_WHITNEY;
    o.statistic = TALLY_STAT_MEDIAN;
    o.direction = TALLY_HIGHER_IS_BETTER;
    tally_comparison c = { .size = sizeof c };
    CHECK_INT(tally_compare(&c, b1, 6, c1, 7, &o), TALLY_OK);
    CHECK_INT(c.interval, TALLY_INTERVAL_HODGES_LEHMANN);
    CHECK(c.interval_defined);
    CHECK_REL(c.ratio_low, 1.0461538462, 1e-9);
    CHECK_REL(c.ratio_high, 1.2033898305, 1e-9);
    /* wilcox.test p = 0.0081585081585081581 < 0.05: an improvement, the interval above 1. */
    CHECK_REL(c.p_value, 0.0081585081585081581, 1e-12);
    CHECK_INT(c.verdict, TALLY_VERDICT_IMPROVEMENT);
}

int main(void)
{
    test_exact();
    test_ties();
    test_large();
    test_compare();
    return check_summary();
}
