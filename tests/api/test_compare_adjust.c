/*
 * Holm, Benjamini-Hochberg and Bonferroni adjustments against R, and the name helpers.
 * Expected values: R 4.2.2, p.adjust(p, "holm"), p.adjust(p, "BH") and
 * p.adjust(p, "bonferroni"), print(digits = 17).
 */
#include <math.h>

#include "check.h"
#include "tally.h"

static void check_all(const double *got, const double *want, size_t n)
{
    for (size_t i = 0; i < n; i++)
        CHECK_REL(got[i], want[i], 1e-14);
}

static void r_reference(void)
{
    /* p <- c(0.01, 0.04, 0.03, 0.005, 0.5, 0.04, 0.2, 0.0001) */
    const double p[] = { 0.01, 0.04, 0.03, 0.005, 0.5, 0.04, 0.2, 0.0001 };
    const double holm[] = { 0.05999999999999999778, 0.16000000000000000333, 0.14999999999999999445,
                            0.03500000000000000333, 0.50000000000000000000, 0.16000000000000000333,
                            0.40000000000000002220, 0.00080000000000000004 };
    const double bh[] = { 0.02666666666666666491, 0.05333333333333332982, 0.05333333333333332982,
                          0.02000000000000000042, 0.50000000000000000000, 0.05333333333333332982,
                          0.22857142857142856429, 0.00080000000000000004 };
    double out[8];
    CHECK_INT(tally_adjust_pvalues(out, p, 8, TALLY_ADJUST_HOLM), TALLY_OK);
    check_all(out, holm, 8);
    CHECK_INT(tally_adjust_pvalues(out, p, 8, TALLY_ADJUST_BH), TALLY_OK);
    check_all(out, bh, 8);
    CHECK_INT(tally_adjust_pvalues(out, p, 8, TALLY_ADJUST_NONE), TALLY_OK);
    check_all(out, p, 8);
    /* p.adjust(p, "bonferroni"): 0.08 0.32 0.24 0.04 1 0.32 1 0.0008 */
    const double bonferroni[] = { 0.08, 0.32, 0.24, 0.04, 1.0, 0.32, 1.0, 0.0008 };
    CHECK_INT(tally_adjust_pvalues(out, p, 8, TALLY_ADJUST_BONFERRONI), TALLY_OK);
    check_all(out, bonferroni, 8);

    /* q <- c(0.9, 0.02, 0.6, 0.02, 1.0, 0.0): ties, 0 and 1, the cap at 1. */
    const double q[] = { 0.9, 0.02, 0.6, 0.02, 1.0, 0.0 };
    const double qholm[] = { 1.0, 0.10000000000000001, 1.0, 0.10000000000000001, 1.0, 0.0 };
    const double qbh[] = { 1.0, 0.040000000000000001, 0.899999999999999911, 0.040000000000000001,
                           1.0, 0.0 };
    double qo[6];
    CHECK_INT(tally_adjust_pvalues(qo, q, 6, TALLY_ADJUST_HOLM), TALLY_OK);
    check_all(qo, qholm, 6);
    CHECK_INT(tally_adjust_pvalues(qo, q, 6, TALLY_ADJUST_BH), TALLY_OK);
    check_all(qo, qbh, 6);

    /* r <- c(0.3, 0.4): holm 0.6 0.6, BH 0.4 0.4 (monotone: the running max / min). Output may
     * alias the input. */
    double r[] = { 0.3, 0.4 };
    CHECK_INT(tally_adjust_pvalues(r, r, 2, TALLY_ADJUST_HOLM), TALLY_OK);
    CHECK_REL(r[0], 0.59999999999999998, 1e-15);
    CHECK_REL(r[1], 0.59999999999999998, 1e-15);
    double s[] = { 0.3, 0.4 };
    CHECK_INT(tally_adjust_pvalues(s, s, 2, TALLY_ADJUST_BH), TALLY_OK);
    CHECK_REL(s[0], 0.40000000000000002, 1e-15);
    CHECK_REL(s[1], 0.40000000000000002, 1e-15);

    /* A single p-value is its own adjustment (by hand). */
    double one = 0.03;
    CHECK_INT(tally_adjust_pvalues(&one, &one, 1, TALLY_ADJUST_HOLM), TALLY_OK);
    CHECK_REL(one, 0.03, 0);
}

static void bad_input(void)
{
    const double bad[] = { 0.1, 1.5 }, nan[] = { NAN }, neg[] = { -0.01 };
    double out[2];
    CHECK_INT(tally_adjust_pvalues(out, bad, 0, TALLY_ADJUST_HOLM), TALLY_OK);
    CHECK_INT(tally_adjust_pvalues(NULL, NULL, 0, TALLY_ADJUST_BH), TALLY_OK);
    CHECK_INT(tally_adjust_pvalues(out, bad, 2, TALLY_ADJUST_HOLM), TALLY_EINVAL);
    CHECK_INT(tally_adjust_pvalues(out, nan, 1, TALLY_ADJUST_BH), TALLY_EINVAL);
    CHECK_INT(tally_adjust_pvalues(out, neg, 1, TALLY_ADJUST_NONE), TALLY_EINVAL);
    CHECK_INT(tally_adjust_pvalues(out, bad, 1, (tally_adjust)9), TALLY_EINVAL);
    CHECK_INT(tally_adjust_pvalues(NULL, bad, 1, TALLY_ADJUST_BH), TALLY_EINVAL);
}

static void names(void)
{
    CHECK_STR(tally_test_name(TALLY_TEST_WELCH), "welch");
    CHECK_STR(tally_test_name(TALLY_TEST_STUDENT), "student");
    CHECK_STR(tally_test_name(TALLY_TEST_MANN_WHITNEY), "mann-whitney");
    CHECK_STR(tally_test_name(TALLY_TEST_MMTESTS_CI), "mmtests-ci");
    CHECK_STR(tally_test_name(TALLY_TEST_NONE), "none");
    CHECK(tally_test_name((tally_test)99) == NULL);

    tally_test t = TALLY_TEST_NONE;
    CHECK_INT(tally_test_from_name(&t, "welch"), TALLY_OK);
    CHECK_INT(t, TALLY_TEST_WELCH);
    CHECK_INT(tally_test_from_name(&t, "Mann_Whitney"), TALLY_OK);
    CHECK_INT(t, TALLY_TEST_MANN_WHITNEY);
    CHECK_INT(tally_test_from_name(&t, "MMTESTS-CI"), TALLY_OK);
    CHECK_INT(t, TALLY_TEST_MMTESTS_CI);
    CHECK_INT(tally_test_from_name(&t, "student"), TALLY_OK);
    CHECK_INT(t, TALLY_TEST_STUDENT);
    CHECK_INT(tally_test_from_name(&t, "none"), TALLY_OK);
    CHECK_INT(t, TALLY_TEST_NONE);
    CHECK_INT(tally_test_from_name(&t, "welchx"), TALLY_EINVAL);
    CHECK_INT(tally_test_from_name(&t, "welc"), TALLY_EINVAL);
    CHECK_INT(tally_test_from_name(&t, ""), TALLY_EINVAL);
    CHECK_INT(tally_test_from_name(&t, NULL), TALLY_EINVAL);
    CHECK(strstr(tally_error_last()->message, "mann-whitney") != NULL);

    CHECK_STR(tally_adjust_name(TALLY_ADJUST_NONE), "none");
    CHECK_STR(tally_adjust_name(TALLY_ADJUST_HOLM), "holm");
    CHECK_STR(tally_adjust_name(TALLY_ADJUST_BH), "bh");
    CHECK(tally_adjust_name((tally_adjust)5) == NULL);
    tally_adjust a = TALLY_ADJUST_NONE;
    CHECK_INT(tally_adjust_from_name(&a, "Holm"), TALLY_OK);
    CHECK_INT(a, TALLY_ADJUST_HOLM);
    CHECK_INT(tally_adjust_from_name(&a, "BH"), TALLY_OK);
    CHECK_INT(a, TALLY_ADJUST_BH);
    a = TALLY_ADJUST_NONE;
    CHECK_INT(tally_adjust_from_name(&a, "fdr"), TALLY_OK);
    CHECK_INT(a, TALLY_ADJUST_BH);
    CHECK_INT(tally_adjust_from_name(&a, "benjamini_hochberg"), TALLY_OK);
    CHECK_INT(a, TALLY_ADJUST_BH);
    CHECK_INT(tally_adjust_from_name(&a, "none"), TALLY_OK);
    CHECK_INT(a, TALLY_ADJUST_NONE);
    CHECK_INT(tally_adjust_from_name(&a, "bonferroni"), TALLY_OK);
    CHECK_INT(a, TALLY_ADJUST_BONFERRONI);
    CHECK_INT(tally_adjust_from_name(&a, "sidak"), TALLY_EINVAL);

    CHECK_STR(tally_verdict_name(TALLY_VERDICT_INCONCLUSIVE), "inconclusive");
    CHECK_STR(tally_verdict_name(TALLY_VERDICT_EQUIVALENT), "equivalent");
    CHECK_STR(tally_verdict_name(TALLY_VERDICT_NOT_TESTED), "not-tested");
    CHECK_STR(tally_test_name(TALLY_TEST_AUTO), "auto");
    CHECK_STR(tally_test_name(TALLY_TEST_PRICE_BONETT), "price-bonett");
    CHECK_STR(tally_interval_method_name(TALLY_INTERVAL_FIELLER), "fieller");
    CHECK_STR(tally_verdict_name(TALLY_VERDICT_IMPROVEMENT), "improvement");
    CHECK_STR(tally_verdict_name(TALLY_VERDICT_REGRESSION), "regression");
    CHECK_STR(tally_verdict_name(TALLY_VERDICT_INSUFFICIENT), "insufficient");
    CHECK(tally_verdict_name((tally_verdict)-1) == NULL);
}

int main(void)
{
    r_reference();
    bad_input();
    names();
    return check_summary();
}
