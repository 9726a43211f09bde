/*
 * tally__summarize_with_cuts (extra BAmean cuts taken with the summary's own selection) and
 * tally__compare_summarized (a
 * comparison from precomputed summaries), the two internals the report uses so that it
 * summarises each side once. Expected values by hand or SciPy, as noted next to each.
 */
#include <math.h>
#include <string.h>

#include "check.h"
#include "stats/compare_impl.h"
#include "util/internal.h"
#include "stats/stats_internal.h"

/* BAmean-p[k] of x into out[k] through the report's entry point, at most four cuts a call. */
static int bamean_many(double *out, const double *x, size_t n, const double *p, size_t count,
                       tally_direction direction)
{
    tally_summary_options o = TALLY_SUMMARY_OPTIONS_INIT;
    tally_summary s = { .size = sizeof s };
    o.direction = direction;
    for (size_t at = 0; at < count || at == 0; at += 4) {
        size_t k = count - at < 4 ? count - at : 4;
        int rc = tally__summarize_with_cuts(&s, x, n, &o, p + at, out + at, k);
        if (rc != TALLY_OK || count == 0)
            return rc;
    }
    return TALLY_OK;
}

/* Sorted ascending: 1 2 2 2 3 4 5 6 7 8 (sum 40), three tied 2s. */
static const double ten[] = { 5, 1, 4, 2, 3, 2, 6, 2, 8, 7 };

/* Lower is better, best first 1 2 2 2 3 4 5 6 7 8. By hand:
 *   50: floor(5)   = 5 kept, (1+2+2+2+3)/5 = 2
 *   20: floor(2)   = 2 kept, (1+2)/2 = 1.5 (the cut falls inside the three 2s)
 *   30: floor(3)   = 3 kept, (1+2+2)/3 = 5/3
 *   95: floor(9.5) = 9 kept, (40-8)/9 = 32/9
 *   99: floor(9.9) = 9 kept, 32/9
 *    5: floor(0.5) = 0, at least one kept: 1
 *  100: all 10, 40/10 = 4 */
static void lower_is_better(void)
{
    double x[10], out[7];
    const double p[7] = { 50, 20, 30, 95, 99, 5, 100 };
    memcpy(x, ten, sizeof x);
    CHECK_INT(bamean_many(out, x, 10, p, 7, TALLY_LOWER_IS_BETTER), TALLY_OK);
    CHECK_REL(out[0], 2.0, 1e-15);
    CHECK_REL(out[1], 1.5, 1e-15);
    CHECK_REL(out[2], 5.0 / 3.0, 1e-15);
    CHECK_REL(out[3], 32.0 / 9.0, 1e-15);
    CHECK_REL(out[4], 32.0 / 9.0, 1e-15);
    CHECK_REL(out[5], 1.0, 0);
    CHECK_REL(out[6], 4.0, 1e-15);
    CHECK(memcmp(x, ten, sizeof x) == 0); /* the input is left in its order */
}

/* Higher is better, best first 8 7 6 5 4 3 2 2 2 1. By hand:
 *   50: 5 kept, (8+7+6+5+4)/5 = 6
 *   80: 8 kept, (8+7+6+5+4+3+2+2)/8 = 37/8 = 4.625 (two of the three 2s)
 *    5: 1 kept, 8
 *  100: 40/10 = 4 */
static void higher_is_better(void)
{
    double out[4];
    const double p[4] = { 50, 80, 5, 100 };
    CHECK_INT(bamean_many(out, ten, 10, p, 4, TALLY_HIGHER_IS_BETTER), TALLY_OK);
    CHECK_REL(out[0], 6.0, 1e-15);
    CHECK_REL(out[1], 4.625, 1e-15);
    CHECK_REL(out[2], 8.0, 0);
    CHECK_REL(out[3], 4.0, 1e-15);
}

/* All samples equal: every cut is that value exactly; n = 1 keeps the one sample. */
static void ties_and_single(void)
{
    const double same[] = { 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1 };
    const double p[3] = { 50, 95, 99 };
    double out[3];
    CHECK_INT(bamean_many(out, same, 7, p, 3, TALLY_LOWER_IS_BETTER), TALLY_OK);
    for (int k = 0; k < 3; k++)
        CHECK(out[k] == 0.1);
    const double one[] = { -3.25 };
    CHECK_INT(bamean_many(out, one, 1, p, 3, TALLY_HIGHER_IS_BETTER), TALLY_OK);
    for (int k = 0; k < 3; k++)
        CHECK(out[k] == -3.25);
}

static void bamean_errors(void)
{
    double out[1] = { 42 };
    const double ok[1] = { 50 }, zero[1] = { 0 }, over[1] = { 100.5 }, nan_p[1] = { NAN };
    CHECK_INT(bamean_many(out, ten, 10, ok, 0, TALLY_LOWER_IS_BETTER), TALLY_OK);
    CHECK(out[0] == 42); /* nothing asked, nothing written */
    CHECK_INT(bamean_many(out, ten, 0, ok, 1, TALLY_LOWER_IS_BETTER), TALLY_ENODATA);
    CHECK_INT(bamean_many(out, NULL, 10, ok, 1, TALLY_LOWER_IS_BETTER), TALLY_EINVAL);
    CHECK_INT(bamean_many(out, ten, 10, zero, 1, TALLY_LOWER_IS_BETTER), TALLY_EINVAL);
    CHECK_INT(bamean_many(out, ten, 10, over, 1, TALLY_LOWER_IS_BETTER), TALLY_EINVAL);
    CHECK_INT(bamean_many(out, ten, 10, nan_p, 1, TALLY_LOWER_IS_BETTER), TALLY_EINVAL);
}

/* base {1,2,3}, new {4,5,6}: means 2 and 5, SDs 1 and 1. Welch by hand:
 * t = (2 - 5) / sqrt(1/3 + 1/3) = -3.6742346141747673, df = (2/3)^2 / (2 * (1/3)^2 / 2) = 4.
 * SciPy: scipy.stats.ttest_ind([1,2,3], [4,5,6], equal_var=False) -> statistic
 * -3.6742346141747673, pvalue 0.021311641128756727. Ratio 5/2 = 2.5; pct-imp (lower is better)
 * (1 - 5/2) * 100 = -150: a significant regression. */
static void compare_from_summaries(void)
{
    const double base[] = { 1, 2, 3 }, current[] = { 4, 5, 6 };
    tally_compare_options o = TALLY_COMPARE_OPTIONS_INIT;
    tally_summary_options so = TALLY_SUMMARY_OPTIONS_INIT;
    so.direction = o.direction;
    tally_summary sb = { .size = sizeof sb }, sc = { .size = sizeof sc };
    CHECK_INT(tally_summarize(&sb, base, 3, &so), TALLY_OK);
    CHECK_INT(tally_summarize(&sc, current, 3, &so), TALLY_OK);

    tally_comparison c = { .size = sizeof c };
    CHECK_INT(tally__compare_summarized(&c, &sb, base, 3, &sc, current, 3, NULL, &o), TALLY_OK);
    CHECK_REL(c.statistic, -3.6742346141747673, 1e-12);
    CHECK_REL(c.df, 4.0, 1e-12);
    CHECK_REL(c.p_value, 0.021311641128756727, 1e-9);
    CHECK_REL(c.base_value, 2.0, 1e-15);
    CHECK_REL(c.new_value, 5.0, 1e-15);
    CHECK_REL(c.ratio, 2.5, 1e-15);
    CHECK_REL(c.pct_imp, -150.0, 1e-13);
    CHECK_INT(c.significant, 1);
    CHECK_INT(c.verdict, TALLY_VERDICT_REGRESSION);
    CHECK_INT(c.base_n, 3);
    CHECK_INT(c.new_n, 3);

    /* Mann-Whitney reads the raw samples: U of the baseline is 0 (every base value is below
     * every new one); exact p = 2 / C(6, 3) = 0.1 by hand, not below alpha 0.05. */
    o.test = TALLY_TEST_MANN_WHITNEY;
    CHECK_INT(tally__compare_summarized(&c, &sb, base, 3, &sc, current, 3, NULL, &o), TALLY_OK);
    CHECK_INT(c.verdict, TALLY_VERDICT_INSUFFICIENT);
    o.alpha = 0.2;
    CHECK_INT(tally__compare_summarized(&c, &sb, base, 3, &sc, current, 3, NULL, &o), TALLY_OK);
    CHECK_REL(c.statistic, 0.0, 0);
    CHECK_REL(c.p_value, 0.1, 1e-12);
    CHECK_INT(c.verdict, TALLY_VERDICT_REGRESSION);

    /* A summary that does not belong to its samples, missing pointers, bad options. */
    CHECK_INT(tally__compare_summarized(&c, &sb, base, 2, &sc, current, 3, NULL, &o), TALLY_EINVAL);
    CHECK_INT(tally__compare_summarized(&c, NULL, base, 3, &sc, current, 3, NULL, &o), TALLY_EINVAL);
    o.alpha = 2;
    CHECK_INT(tally__compare_summarized(&c, &sb, base, 3, &sc, current, 3, NULL, &o), TALLY_EINVAL);
}

int main(void)
{
    lower_is_better();
    higher_is_better();
    ties_and_single();
    bamean_errors();
    compare_from_summaries();
    return check_summary();
}
