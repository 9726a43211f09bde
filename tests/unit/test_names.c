/* The one enum <-> name lookup (util/names.c): one case rule (ASCII letters without case, '_'
 * for '-') for every table, the same in any locale, and one message listing the valid names. */
#include <locale.h>
#include <string.h>

#include "check.h"
#include "tally.h"
#include "util/names.h"

static void check_rule(void)
{
    CHECK(tally__name_equal("mann-whitney", "MANN_WHITNEY"));
    CHECK(tally__name_equal("lower_is_better", "Lower-Is-Better"));
    CHECK(!tally__name_equal("amean", "amea"));
    CHECK(!tally__name_equal("amean", "ameanx"));
    CHECK(!tally__name_equal("a", "\xc1")); /* no folding beyond ASCII */
    CHECK(tally__name_equal("", ""));
}

/* Every table takes the same spellings. */
static void check_tables(void)
{
    tally_statistic s;
    CHECK_INT(tally_statistic_from_name(&s, "HMean"), TALLY_OK);
    CHECK_INT(s, TALLY_STAT_HMEAN);
    tally_direction d;
    CHECK_INT(tally_direction_from_name(&d, "HIGHER-IS-BETTER"), TALLY_OK);
    CHECK_INT(d, TALLY_HIGHER_IS_BETTER);
    tally_percentile_method m;
    CHECK_INT(tally_percentile_method_from_name(&m, "Nearest_Rank"), TALLY_OK);
    CHECK_INT(m, TALLY_PERCENTILE_NEAREST_RANK);
    tally_test t;
    CHECK_INT(tally_test_from_name(&t, "Mann_Whitney"), TALLY_OK);
    CHECK_INT(t, TALLY_TEST_MANN_WHITNEY);
    tally_adjust a;
    CHECK_INT(tally_adjust_from_name(&a, "Benjamini_Hochberg"), TALLY_OK);
    CHECK_INT(a, TALLY_ADJUST_BH);
    CHECK_STR(tally_adjust_name(a), "bh"); /* the canonical name, not the spelling given */
    tally_format f;
    CHECK_INT(tally_format_from_name(&f, "MARKDOWN"), TALLY_OK);
    CHECK_INT(f, TALLY_FORMAT_MARKDOWN);
    CHECK_STR(tally_format_name(f), "md");
    tally_style st;
    CHECK_INT(tally_style_from_name(&st, "MMTests"), TALLY_OK);
    CHECK_INT(st, TALLY_STYLE_MMTESTS);
    tally_input_kind k;
    CHECK_INT(tally_input_kind_from_name(&k, "HyperFine"), TALLY_OK);
    CHECK_INT(k, TALLY_INPUT_HYPERFINE);
    tally_workload w = TALLY_WORKLOAD_EXEC;
    if (tally_workload_name(TALLY_WORKLOAD_HACKBENCH) != NULL) { /* built with the runner */
        CHECK_INT(tally_workload_from_name(&w, "HackBench"), TALLY_OK);
        CHECK_INT(w, TALLY_WORKLOAD_HACKBENCH);
    }
    CHECK(tally_statistic_name((tally_statistic)99) == NULL);
    CHECK(tally_test_name((tally_test)-1) == NULL);
}

/* One message: "unknown WHAT 'NAME' (canonical names in table order)". */
static void check_messages(void)
{
    tally_statistic s = TALLY_STAT_MIN;
    CHECK_INT(tally_statistic_from_name(&s, "mode"), TALLY_EINVAL);
    CHECK_INT(s, TALLY_STAT_MIN); /* unchanged on failure */
    CHECK_STR(tally_error_last()->message,
              "unknown statistic 'mode' (amean, hmean, gmean, median, min, max, bamean, default, "
              "percentile)");
    tally_adjust a;
    CHECK_INT(tally_adjust_from_name(&a, "sidak"), TALLY_EINVAL);
    CHECK_STR(tally_error_last()->message,
              "unknown p-value adjustment 'sidak' (none, holm, bh, bonferroni)"); /* no aliases */
    tally_direction d;
    CHECK_INT(tally_direction_from_name(&d, NULL), TALLY_EINVAL);
    CHECK_STR(tally_error_last()->message, "unknown direction '(null)' (lower, higher)");
    CHECK_INT(tally_style_from_name(NULL, "pct"), TALLY_EINVAL);
}

int main(void)
{
    check_rule();
    check_tables();
    check_messages();
    /* A locale whose case rules differ (Turkish: 'I' lowers to dotless i) changes nothing. */
    if (setlocale(LC_ALL, "tr_TR.ISO-8859-9") || setlocale(LC_ALL, "tr_TR.UTF-8")) {
        tally_test t;
        CHECK_INT(tally_test_from_name(&t, "STUDENT"), TALLY_OK);
        CHECK_INT(t, TALLY_TEST_STUDENT);
        CHECK(tally__name_equal("mmtests-ci", "MMTESTS-CI"));
        check_tables();
        setlocale(LC_ALL, "C");
    }
    return check_summary();
}
