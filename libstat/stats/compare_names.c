/* Names of tests, adjustments and verdicts, as used on the command line and in JSON (the
 * lookup and its case rule: util/names.h). */
#include "util/internal.h"
#include "util/names.h"

static const tally__name tests[] = {
    { "welch", TALLY_TEST_WELCH },
    { "student", TALLY_TEST_STUDENT },
    { "mann-whitney", TALLY_TEST_MANN_WHITNEY },
    { "mmtests-ci", TALLY_TEST_MMTESTS_CI },
    { "none", TALLY_TEST_NONE },
};

static const tally__name adjustments[] = {
    { "none", TALLY_ADJUST_NONE },
    { "holm", TALLY_ADJUST_HOLM },
    { "bh", TALLY_ADJUST_BH },
    { "fdr", TALLY_ADJUST_BH },
    { "benjamini-hochberg", TALLY_ADJUST_BH },
};

static const tally__name verdicts[] = {
    { "no-change", TALLY_VERDICT_NO_CHANGE },
    { "improvement", TALLY_VERDICT_IMPROVEMENT },
    { "regression", TALLY_VERDICT_REGRESSION },
    { "insufficient", TALLY_VERDICT_INSUFFICIENT },
};

TALLY__NAME_FUNCTIONS(tally_test, tests, "test")
TALLY__NAME_FUNCTIONS(tally_adjust, adjustments, "p-value adjustment")

const char *tally_verdict_name(tally_verdict verdict)
{
    return tally__name_of(verdicts, TALLY__COUNT(verdicts), tally__name_array_row, (int)verdict);
}
