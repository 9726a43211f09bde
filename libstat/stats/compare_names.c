/* Names of tests, adjustments, interval methods and verdicts, as used on the command line and
 * in JSON (the lookup and its case rule: util/names.h). */
#include "util/internal.h"
#include "util/names.h"

static const tally__name tests[] = {
    { "welch", TALLY_TEST_WELCH },
    { "student", TALLY_TEST_STUDENT },
    { "mann-whitney", TALLY_TEST_MANN_WHITNEY },
    { "mmtests-ci", TALLY_TEST_MMTESTS_CI },
    { "none", TALLY_TEST_NONE },
    { "auto", TALLY_TEST_AUTO },
    { "price-bonett", TALLY_TEST_PRICE_BONETT },
    { "cluster-bootstrap", TALLY_TEST_CLUSTER_BOOTSTRAP },
};

static const tally__name adjustments[] = {
    { "none", TALLY_ADJUST_NONE },
    { "holm", TALLY_ADJUST_HOLM },
    { "bh", TALLY_ADJUST_BH },
    { "fdr", TALLY_ADJUST_BH },
    { "benjamini-hochberg", TALLY_ADJUST_BH },
    { "bonferroni", TALLY_ADJUST_BONFERRONI },
};

static const tally__name intervals[] = {
    { "none", TALLY_INTERVAL_NONE },
    { "fieller", TALLY_INTERVAL_FIELLER },
    { "fieller-reciprocal", TALLY_INTERVAL_FIELLER_RECIPROCAL },
    { "log-welch", TALLY_INTERVAL_LOG_WELCH },
    { "price-bonett", TALLY_INTERVAL_PRICE_BONETT },
    { "hodges-lehmann", TALLY_INTERVAL_HODGES_LEHMANN },
    { "cluster-bootstrap", TALLY_INTERVAL_CLUSTER_BOOTSTRAP },
};

static const tally__name verdicts[] = {
    { "inconclusive", TALLY_VERDICT_INCONCLUSIVE },
    { "improvement", TALLY_VERDICT_IMPROVEMENT },
    { "regression", TALLY_VERDICT_REGRESSION },
    { "insufficient", TALLY_VERDICT_INSUFFICIENT },
    { "equivalent", TALLY_VERDICT_EQUIVALENT },
    { "not-tested", TALLY_VERDICT_NOT_TESTED },
    { "identical", TALLY_VERDICT_IDENTICAL },
    { "within-noise", TALLY_VERDICT_WITHIN_NOISE },
};

TALLY__NAME_FUNCTIONS(tally_test, tests, "test")
TALLY__NAME_FUNCTIONS(tally_adjust, adjustments, "p-value adjustment")

const char *tally_verdict_name(tally_verdict verdict)
{
    return tally__name_of(verdicts, TALLY__COUNT(verdicts), tally__name_array_row, (int)verdict);
}

const char *tally_interval_method_name(tally_interval_method method)
{
    return tally__name_of(intervals, TALLY__COUNT(intervals), tally__name_array_row, (int)method);
}
