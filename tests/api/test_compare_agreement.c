/*
 * One verdict, one interval (docs/statistics.md, "One verdict, one interval"): a seeded
 * simulation showing that the interval of the change a comparison reports agrees with its test,
 * for every test and every statistic, with and without ties, and in reports with each p-value
 * adjustment (the interval at the row's adjusted level):
 *   - a significant comparison's interval excludes a change of 0 in 100 % of rows;
 *   - a comparison that is not significant has an interval that includes 0 in 100 % of rows.
 * Bound: both counts of disagreements are exactly 0. A bound that is exactly 0 (Mann-Whitney on
 * tied data, where 0 is itself one of the pairwise differences and the confidence set is open
 * there) counts as agreeing either way. Insufficient and untested rows, and rows without an
 * interval, are left out; the test also checks that both kinds of rows occur often enough
 * (at least 15 % of the rows each) for the check to mean something.
 * Data: lognormal runs (CV 3 % or 10 %), true ratios 1, 1.03 and 1.10, 3 to 30 runs per side
 * (sides of unequal sizes), and in one replicate out of three the values rounded to two
 * significant digits after the first (ties within and across the sides). Fixed seed: the same
 * numbers every run.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "check.h"
#include "tally.h"

#define TEST_RNG_SEED 0x452821E638D01377ull /* fixed seed */
#include "test_rng.h"

#define NMAX 30

typedef struct tally_count {
    long rows, significant, disagree;
} tally_count;

/* Agreement of one comparison's significance with its interval. */
static void judge(tally_count *k, const tally_comparison *c, int significant)
{
    if (!c->interval_defined || !c->p_defined || c->verdict == TALLY_VERDICT_INSUFFICIENT ||
        c->verdict == TALLY_VERDICT_NOT_TESTED)
        return;
    k->rows++;
    k->significant += significant;
    int excludes = c->pct_low >= 0 || c->pct_high <= 0;
    int includes = c->pct_low <= 0 && c->pct_high >= 0;
    if (significant ? !excludes : !includes) {
        k->disagree++;
        if (k->disagree <= 5)
            fprintf(stderr, "  test %d: p %.6g, significant %d, interval [%.6g, %.6g]\n",
                    (int)c->test, c->p_value, significant, c->pct_low, c->pct_high);
    }
}

static double round_digits(double x)
{
    double scale = pow(10, floor(log10(x)) - 2);
    return round(x / scale) * scale;
}

static void draw(double *x, size_t n, double centre, double cv, int tied)
{
    for (size_t i = 0; i < n; i++) {
        x[i] = centre * exp(cv * gauss());
        if (tied)
            x[i] = round_digits(x[i]);
    }
}

static const double ratios[] = { 1.0, 1.03, 1.10 };
static const double cvs[] = { 0.03, 0.10 };
static const size_t sizes[][2] = { { 3, 3 }, { 4, 6 }, { 8, 5 }, { 12, 12 }, { 30, 20 } };

static void check_counts(const tally_count *k, const char *what)
{
    if (k->disagree != 0 || k->rows == 0)
        fprintf(stderr, "%s: %ld of %ld rows disagree\n", what, k->disagree, k->rows);
    CHECK(k->rows > 0);
    CHECK_INT(k->disagree, 0);
    /* Both sides of the check exercised. */
    CHECK(k->significant >= k->rows * 15 / 100);
    CHECK(k->rows - k->significant >= k->rows * 15 / 100);
}

/* Single comparisons: each test on each statistic. */
static void single(void)
{
    static const tally_test tests[] = { TALLY_TEST_WELCH, TALLY_TEST_STUDENT,
                                        TALLY_TEST_MANN_WHITNEY, TALLY_TEST_MMTESTS_CI,
                                        TALLY_TEST_PRICE_BONETT, TALLY_TEST_AUTO };
    static const tally_statistic stats[] = { TALLY_STAT_AMEAN, TALLY_STAT_HMEAN, TALLY_STAT_GMEAN,
                                             TALLY_STAT_MEDIAN };
    static const char *const names[] = { "welch", "student", "mann-whitney", "mmtests-ci",
                                         "price-bonett", "auto" };
    double a[NMAX], b[NMAX];
    for (size_t t = 0; t < TALLY__COUNT(tests); t++) {
        tally_count k = { 0, 0, 0 };
        for (size_t s = 0; s < TALLY__COUNT(stats); s++)
            for (size_t z = 0; z < TALLY__COUNT(sizes); z++)
                for (size_t q = 0; q < TALLY__COUNT(ratios); q++)
                    for (int rep = 0; rep < 60; rep++) {
                        size_t na = sizes[z][0], nb = sizes[z][1];
                        double cv = cvs[rep % 2];
                        int tied = rep % 3 == 0;
                        draw(a, na, 100, cv, tied);
                        draw(b, nb, 100 * ratios[q], cv, tied);
                        tally_compare_options o = TALLY_COMPARE_OPTIONS_INIT;
                        o.test = tests[t];
                        o.statistic = stats[s];
                        o.direction = rep % 4 == 1 ? TALLY_HIGHER_IS_BETTER
                                                   : TALLY_LOWER_IS_BETTER;
                        tally_comparison c = { .size = sizeof c };
                        CHECK_INT(tally_compare(&c, a, na, b, nb, &o), TALLY_OK);
                        judge(&k, &c, c.significant);
                    }
        fprintf(stderr, "%s: %ld rows, %ld significant, %ld disagree\n", names[t], k.rows,
                k.significant, k.disagree);
        check_counts(&k, names[t]);
    }
}

/* Reports of 12 cases (a third of them changed) with each adjustment and test: every row's
 * adjusted significance against its interval at the adjusted level. */
static void adjusted(void)
{
    static const tally_adjust adjusts[] = { TALLY_ADJUST_HOLM, TALLY_ADJUST_BH,
                                            TALLY_ADJUST_BONFERRONI };
    static const char *const anames[] = { "holm", "bh", "bonferroni" };
    static const tally_test tests[] = { TALLY_TEST_WELCH, TALLY_TEST_STUDENT,
                                        TALLY_TEST_MANN_WHITNEY, TALLY_TEST_AUTO };
    static const tally_statistic stats[] = { TALLY_STAT_AMEAN, TALLY_STAT_AMEAN,
                                             TALLY_STAT_GMEAN, TALLY_STAT_MEDIAN };
    double a[NMAX], b[NMAX];
    for (size_t m = 0; m < TALLY__COUNT(adjusts); m++) {
        tally_count k = { 0, 0, 0 };
        for (size_t t = 0; t < TALLY__COUNT(tests); t++)
            for (int rep = 0; rep < 25; rep++) {
                tally_results *list = NULL;
                tally_resultset *set[2] = { NULL, NULL };
                CHECK_INT(tally_results_new(&list), TALLY_OK);
                CHECK_INT(tally_resultset_new(&set[0], "base"), TALLY_OK);
                CHECK_INT(tally_resultset_new(&set[1], "new"), TALLY_OK);
                tally_benchmark *bb = NULL, *bn = NULL;
                CHECK_INT(tally_resultset_benchmark_add(&bb, set[0], "w", "s",
                                                        TALLY_LOWER_IS_BETTER), TALLY_OK);
                CHECK_INT(tally_resultset_benchmark_add(&bn, set[1], "w", "s",
                                                        TALLY_LOWER_IS_BETTER), TALLY_OK);
                for (int i = 0; i < 12; i++) {
                    char name[16];
                    snprintf(name, sizeof name, "c%d", i);
                    size_t n = 10 + (size_t)(i % 3) * 5;
                    draw(a, n, 50, 0.05, rep % 3 == 0);
                    draw(b, n, 50 * (i % 3 == 0 ? 1.08 : 1.0), 0.05, rep % 3 == 0);
                    tally_case *ca = NULL, *cb = NULL;
                    CHECK_INT(tally_benchmark_case_add(&ca, bb, name), TALLY_OK);
                    CHECK_INT(tally_benchmark_case_add(&cb, bn, name), TALLY_OK);
                    CHECK_INT(tally_case_append(ca, a, n), TALLY_OK);
                    CHECK_INT(tally_case_append(cb, b, n), TALLY_OK);
                }
                CHECK_INT(tally_results_add(list, set[0]), TALLY_OK);
                CHECK_INT(tally_results_add(list, set[1]), TALLY_OK);
                tally_report_options o = TALLY_REPORT_OPTIONS_INIT;
                o.adjust = adjusts[m];
                o.test = tests[t];
                o.statistic = stats[t];
                tally_report *r = NULL;
                CHECK_INT(tally_report_new(&r, list, &o), TALLY_OK);
                for (size_t i = 0; r && i < tally_report_row_count(r); i++) {
                    tally_comparison c = { .size = sizeof c };
                    if (tally_report_cell_comparison(&c, r, i, 1) != TALLY_OK)
                        continue;
                    /* Significant after the adjustment. */
                    judge(&k, &c, c.significant);
                }
                tally_report_free(r);
                tally_results_free(list);
            }
        fprintf(stderr, "%s: %ld rows, %ld significant, %ld disagree\n", anames[m], k.rows,
                k.significant, k.disagree);
        check_counts(&k, anames[m]);
    }
}

int main(void)
{
    single();
    adjusted();
    return check_summary();
}
