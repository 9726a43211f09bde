/* The options pattern: tally_*_options_init fills the defaults of any version from 1 to the
 * current one (the bytes of that version only), every entry point reads any such version, and
 * one message names the struct and the versions it takes. Every public struct is at version 1
 * before the first release; how a later version's prefix is read is tested on a two-version
 * struct of its own in tests/unit/test_options_prefix.c. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "tally.h"

/* The documented defaults (the headers' comments), written out here rather than taken from the
 * INIT macros. */
static void test_defaults(void)
{
    tally_summary_options s;
    memset(&s, 0xab, sizeof s);
    CHECK_INT(tally_summary_options_init(&s, TALLY_SUMMARY_OPTIONS_VERSION), TALLY_OK);
    CHECK_INT(s.version, TALLY_SUMMARY_OPTIONS_VERSION);
    CHECK_INT(s.direction, TALLY_LOWER_IS_BETTER);
    CHECK_INT(s.percentile_method, TALLY_PERCENTILE_LINEAR);
    CHECK(s.confidence == 0.95 && s.bamean_percent == 95.0);
    CHECK(s.mad_threshold == 3.5 && s.tukey_k == 1.5);

    tally_compare_options c;
    CHECK_INT(tally_compare_options_init(&c, 1), TALLY_OK);
    CHECK_INT(c.test, TALLY_TEST_AUTO);
    CHECK(c.alpha == 0.05);
    CHECK_INT(c.statistic, TALLY_STAT_AMEAN);
    CHECK(c.summary == NULL); /* the summary defaults */

    tally_load_options l;
    CHECK_INT(tally_load_options_init(&l, 1), TALLY_OK);
    CHECK_INT(l.kind, TALLY_INPUT_AUTO);
    CHECK(l.label == NULL && l.benchmark == NULL);

    tally_report_options r;
    CHECK_INT(tally_report_options_init(&r, TALLY_REPORT_OPTIONS_VERSION), TALLY_OK);
    CHECK_INT(r.statistic, TALLY_STAT_DEFAULT);
    CHECK(r.alpha == 0.05 && r.confidence == 0.95);
    CHECK_INT(r.adjust, TALLY_ADJUST_NONE);
    CHECK(r.filter == NULL && r.summaries_only == 0 && r.omit_samples == 0);

    tally_render_options o;
    CHECK_INT(tally_render_options_init(&o, 1), TALLY_OK);
    CHECK_INT(o.format, TALLY_FORMAT_TEXT);
    CHECK_INT(o.style, TALLY_STYLE_TABLE);
    CHECK_INT(o.precision, -1);

    tally_runner_options u;
    CHECK_INT(tally_runner_options_init(&u, 1), TALLY_OK);
    CHECK_INT(u.runs, 5);
    CHECK_INT(u.warmup, 1);
    CHECK(u.timeout == 600.0);
    CHECK(u.params == NULL && u.configs == NULL && u.config_count == 0);

    tally_validate_options v;
    CHECK_INT(tally_validate_options_init(&v, 1), TALLY_OK);
    CHECK(v.tolerance == 1e-6);
}

static void test_versions(void)
{
    tally_summary_options s;
    CHECK_INT(tally_summary_options_init(&s, 0), TALLY_EINVAL);
    CHECK_STR(tally_error_last()->message, "tally_summary_options: version 0, expected 1");
    CHECK_INT(tally_summary_options_init(NULL, 1), TALLY_EINVAL);
    tally_report_options r;
    /* Before the first release every options struct is at version 1. */
    CHECK_INT(tally_report_options_init(&r, TALLY_REPORT_OPTIONS_VERSION + 1), TALLY_EINVAL);
    CHECK_STR(tally_error_last()->message, "tally_report_options: version 2, expected 1");

    /* The same check at the entry points. */
    static const double x[] = { 1, 2, 3 };
    tally_summary sum = { .size = sizeof sum };
    s = (tally_summary_options)TALLY_SUMMARY_OPTIONS_INIT;
    s.version = 2;
    CHECK_INT(tally_summarize(&sum, x, 3, &s), TALLY_EINVAL);
    CHECK_STR(tally_error_last()->message, "tally_summary_options: version 2, expected 1");
    tally_comparison cmp = { .size = sizeof cmp };
    tally_compare_options c = TALLY_COMPARE_OPTIONS_INIT;
    c.version = 0;
    CHECK_INT(tally_compare(&cmp, x, 3, x, 3, &c), TALLY_EINVAL);
    CHECK_STR(tally_error_last()->message, "tally_compare_options: version 0, expected 1");
    /* A struct filled by init is accepted. */
    CHECK_INT(tally_compare_options_init(&c, 1), TALLY_OK);
    CHECK_INT(tally_compare(&cmp, x, 3, x, 3, &c), TALLY_OK);
}

int main(void)
{
    test_defaults();
    test_versions();
    return check_summary();
}
