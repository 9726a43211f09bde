/* Names of tests, adjustments and verdicts, as used on the command line and in JSON. */
#include <ctype.h>

#include "util/internal.h"

typedef struct name_entry {
    const char *name;
    int value;
} name_entry;

static const name_entry tests[] = {
    { "welch", TALLY_TEST_WELCH },
    { "student", TALLY_TEST_STUDENT },
    { "mann-whitney", TALLY_TEST_MANN_WHITNEY },
    { "mmtests-ci", TALLY_TEST_MMTESTS_CI },
    { "none", TALLY_TEST_NONE },
    { "auto", TALLY_TEST_AUTO },
    { "price-bonett", TALLY_TEST_PRICE_BONETT },
};

static const name_entry intervals[] = {
    { "none", TALLY_INTERVAL_NONE },
    { "fieller", TALLY_INTERVAL_FIELLER },
    { "fieller-reciprocal", TALLY_INTERVAL_FIELLER_RECIPROCAL },
    { "log-welch", TALLY_INTERVAL_LOG_WELCH },
    { "price-bonett", TALLY_INTERVAL_PRICE_BONETT },
};

/* The first entry of each value is its canonical name; the others are accepted spellings. */
static const name_entry adjustments[] = {
    { "none", TALLY_ADJUST_NONE },
    { "holm", TALLY_ADJUST_HOLM },
    { "bh", TALLY_ADJUST_BH },
    { "fdr", TALLY_ADJUST_BH },
    { "benjamini-hochberg", TALLY_ADJUST_BH },
};

static const name_entry verdicts[] = {
    { "inconclusive", TALLY_VERDICT_INCONCLUSIVE },
    { "improvement", TALLY_VERDICT_IMPROVEMENT },
    { "regression", TALLY_VERDICT_REGRESSION },
    { "insufficient", TALLY_VERDICT_INSUFFICIENT },
    { "equivalent", TALLY_VERDICT_EQUIVALENT },
    { "not-tested", TALLY_VERDICT_NOT_TESTED },
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const char *name_of(const name_entry *table, size_t n, int value)
{
    for (size_t i = 0; i < n; i++)
        if (table[i].value == value)
            return table[i].name;
    return NULL;
}

/* Case-insensitive, with '_' standing for '-' ("mann_whitney"); canonical names are lower case. */
static int same_name(const char *canonical, const char *given)
{
    for (; *canonical && *given; canonical++, given++) {
        int g = *given == '_' ? '-' : tolower((unsigned char)*given);
        if (g != *canonical)
            return 0;
    }
    return *canonical == '\0' && *given == '\0';
}

static int value_of(int *out, const name_entry *table, size_t n, const char *name)
{
    if (name == NULL)
        return 0;
    for (size_t i = 0; i < n; i++) {
        if (same_name(table[i].name, name)) {
            *out = table[i].value;
            return 1;
        }
    }
    return 0;
}

const char *tally_test_name(tally_test test)
{
    return name_of(tests, COUNT(tests), (int)test);
}

int tally_test_from_name(tally_test *out, const char *name)
{
    int v;
    if (out == NULL || !value_of(&v, tests, COUNT(tests), name))
        return tally__error(TALLY_EINVAL, "unknown test '%s' (expected auto, welch, "
                                          "student, mann-whitney, price-bonett, mmtests-ci or "
                                          "none)",
                            name ? name : "(null)");
    *out = (tally_test)v;
    return TALLY_OK;
}

const char *tally_adjust_name(tally_adjust method)
{
    return name_of(adjustments, COUNT(adjustments), (int)method);
}

int tally_adjust_from_name(tally_adjust *out, const char *name)
{
    int v;
    if (out == NULL || !value_of(&v, adjustments, COUNT(adjustments), name))
        return tally__error(TALLY_EINVAL, "unknown p-value adjustment '%s' (expected none, holm "
                                          "or bh)", name ? name : "(null)");
    *out = (tally_adjust)v;
    return TALLY_OK;
}

const char *tally_verdict_name(tally_verdict verdict)
{
    return name_of(verdicts, COUNT(verdicts), (int)verdict);
}

const char *tally_interval_method_name(tally_interval_method method)
{
    return name_of(intervals, COUNT(intervals), (int)method);
}
