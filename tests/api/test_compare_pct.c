/*
 * pct-imp, ratio and the geometric mean of ratios; the pct column of a posted mmtests table.
 */
#include <math.h>
#include <stdio.h>

#include "check.h"
#include "tally.h"

/*
 * hackbench-process-pipes, Amean rows, from reference/lkml-2021-pipe-hackbench-regression.txt
 * (Mel Gorman, LKML, August 2021): groups, then the Amean of 5.14.0-rc3-vanilla (baseline), of
 * alwayswake-v1r1 with its printed pct, of specialcase-v1r1 with its printed pct. Time, lower is
 * better, so pct = (1 - new/base) * 100 (mmtests' pndiff: 100 - new*100/base).
 *
 * mmtests computed the pct from unrounded means and printed the means rounded to 4 decimals. From
 * the printed means, 22 of the 30 cells give the printed pct exactly; the 8 cells marked 0 differ
 * by 0.01, e.g. groups 4: (1 - 0.6660/0.5107) * 100 = -30.409..., printed -30.42. For every cell
 * the printed pct must lie within the range that means within +-0.00005 of the printed ones give
 * (pct is monotone in each mean, so the corners bound it), widened by the 0.005 of its own
 * rounding.
 */
static const struct {
    int groups;
    double base, new1, pct1;
    int exact1;
    double new2, pct2;
    int exact2;
} hackbench[] = {
    { 1, 0.3800, 0.4520, -18.95, 1, 0.3580, 5.79, 1 },
    { 4, 0.5107, 0.6660, -30.42, 0, 0.5080, 0.52, 0 },
    { 7, 0.5717, 0.6387, -11.72, 1, 0.5310, 7.11, 0 },
    { 12, 0.5853, 0.8563, -46.30, 1, 0.5457, 6.78, 0 },
    { 21, 0.7693, 1.3150, -70.93, 1, 0.7297, 5.16, 0 },
    { 30, 0.9667, 1.8530, -91.69, 0, 0.8547, 11.59, 1 },
    { 48, 1.3100, 2.5027, -91.04, 0, 1.3143, -0.33, 1 },
    { 79, 2.0633, 3.4983, -69.55, 1, 2.1180, -2.65, 1 },
    { 110, 2.8080, 3.9927, -42.19, 1, 2.7850, 0.82, 1 },
    { 141, 3.6237, 4.6810, -29.18, 1, 3.6663, -1.18, 1 },
    { 172, 4.6480, 5.6707, -22.00, 1, 4.8003, -3.28, 1 },
    { 203, 5.2630, 6.5000, -23.50, 1, 5.6100, -6.59, 1 },
    { 234, 6.3290, 7.1473, -12.93, 1, 6.1570, 2.72, 1 },
    { 265, 7.0907, 7.9200, -11.70, 1, 7.1417, -0.72, 1 },
    { 296, 7.7550, 8.2590, -6.50, 1, 7.8167, -0.80, 1 },
};

static void check_cell(int groups, double base, double current, double printed, int exact)
{
    double pct = NAN;
    char got[32], want[32];
    CHECK_INT(tally_pct_imp(&pct, base, current, TALLY_LOWER_IS_BETTER), TALLY_OK);
    snprintf(got, sizeof(got), "%.2f", pct);
    snprintf(want, sizeof(want), "%.2f", printed);
    if (exact) {
        CHECK_STR(got, want);
    } else {
        CHECK(strcmp(got, want) != 0); /* documented above: off by 0.01 from rounded means */
        CHECK_ABS(pct, printed, 0.015);
    }
    const double h = 0.00005;
    double lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i < 4; i++) {
        double corner;
        CHECK_INT(tally_pct_imp(&corner, base + (i & 1 ? h : -h), current + (i & 2 ? h : -h),
                                TALLY_LOWER_IS_BETTER),
                  TALLY_OK);
        lo = fmin(lo, corner);
        hi = fmax(hi, corner);
    }
    if (!(printed >= lo - 0.005 && printed <= hi + 0.005))
        fprintf(stderr, "  groups %d: printed %.2f outside [%.4f, %.4f]\n", groups, printed, lo, hi);
    CHECK(printed >= lo - 0.005 && printed <= hi + 0.005);
}

static void hackbench_table(void)
{
    for (size_t i = 0; i < TALLY__COUNT(hackbench); i++) {
        check_cell(hackbench[i].groups, hackbench[i].base, hackbench[i].new1, hackbench[i].pct1,
                   hackbench[i].exact1);
        check_cell(hackbench[i].groups, hackbench[i].base, hackbench[i].new2, hackbench[i].pct2,
                   hackbench[i].exact2);
    }
    /* The baseline column: (   0.00%) */
    double pct;
    CHECK_INT(tally_pct_imp(&pct, 0.3800, 0.3800, TALLY_LOWER_IS_BETTER), TALLY_OK);
    CHECK_ABS(pct, 0, 0);
}

/* By hand: higher is better, 450.40 -> 495.44 is +10.00 %; lower is better, 10 -> 12 is -20 %,
 * 10 -> 8 is +20 %; higher is better 200 -> 150 is -25 %. */
static void pct_by_hand(void)
{
    double pct;
    CHECK_INT(tally_pct_imp(&pct, 450.40, 495.44, TALLY_HIGHER_IS_BETTER), TALLY_OK);
    CHECK_REL(pct, 10.0, 1e-12);
    CHECK_INT(tally_pct_imp(&pct, 10, 12, TALLY_LOWER_IS_BETTER), TALLY_OK);
    CHECK_REL(pct, -20.0, 1e-12);
    CHECK_INT(tally_pct_imp(&pct, 10, 8, TALLY_LOWER_IS_BETTER), TALLY_OK);
    CHECK_REL(pct, 20.0, 1e-12);
    CHECK_INT(tally_pct_imp(&pct, 200, 150, TALLY_HIGHER_IS_BETTER), TALLY_OK);
    CHECK_REL(pct, -25.0, 1e-12);
    /* Negative baselines keep the arithmetic: -10 -> -12 is ratio 1.2. */
    CHECK_INT(tally_pct_imp(&pct, -10, -12, TALLY_HIGHER_IS_BETTER), TALLY_OK);
    CHECK_REL(pct, 20.0, 1e-12);

    CHECK_INT(tally_pct_imp(&pct, 0, 5, TALLY_LOWER_IS_BETTER), TALLY_EDOMAIN);
    CHECK_INT(tally_pct_imp(&pct, 0, 0, TALLY_HIGHER_IS_BETTER), TALLY_EDOMAIN);
    CHECK_INT(tally_pct_imp(&pct, NAN, 5, TALLY_LOWER_IS_BETTER), TALLY_ENONFINITE);
    CHECK_INT(tally_pct_imp(&pct, 5, INFINITY, TALLY_LOWER_IS_BETTER), TALLY_ENONFINITE);
    CHECK_INT(tally_pct_imp(&pct, 1e-300, 1e300, TALLY_LOWER_IS_BETTER), TALLY_ENONFINITE);
    CHECK_INT(tally_pct_imp(&pct, 1, 2, (tally_direction)7), TALLY_EINVAL);
    CHECK_INT(tally_pct_imp(NULL, 1, 2, TALLY_LOWER_IS_BETTER), TALLY_EINVAL);
}

/* By hand: gmean(2, 0.5) = 1, gmean(1.1, 1.1, 1.1) = 1.1, gmean(4, 1) = 2; R 4.2.2
 * exp(mean(log(c(0.9, 1.05, 1.2, 0.98)))) = 1.026738347113292 (print(digits = 17)). */
static void geomean(void)
{
    const double a[] = { 2.0, 0.5 }, b[] = { 1.1, 1.1, 1.1 }, c[] = { 4.0, 1.0 };
    const double d[] = { 0.9, 1.05, 1.2, 0.98 };
    double g;
    CHECK_INT(tally_geomean_ratio(&g, a, 2), TALLY_OK);
    CHECK_REL(g, 1.0, 1e-15);
    CHECK_INT(tally_geomean_ratio(&g, b, 3), TALLY_OK);
    CHECK_REL(g, 1.1, 1e-15);
    CHECK_INT(tally_geomean_ratio(&g, c, 2), TALLY_OK);
    CHECK_REL(g, 2.0, 1e-15);
    CHECK_INT(tally_geomean_ratio(&g, d, 4), TALLY_OK);
    CHECK_REL(g, 1.026738347113292, 1e-14);

    const double zero[] = { 1.0, 0.0 }, neg[] = { -1.0, 2.0 }, nan[] = { 1.0, NAN };
    CHECK_INT(tally_geomean_ratio(&g, a, 0), TALLY_ENODATA);
    CHECK_INT(tally_geomean_ratio(&g, zero, 2), TALLY_EDOMAIN);
    CHECK_INT(tally_geomean_ratio(&g, neg, 2), TALLY_EDOMAIN);
    CHECK_INT(tally_geomean_ratio(&g, nan, 2), TALLY_ENONFINITE);
    CHECK_INT(tally_geomean_ratio(NULL, a, 2), TALLY_EINVAL);
}

int main(void)
{
    hackbench_table();
    pct_by_hand();
    geomean();
    return check_summary();
}
