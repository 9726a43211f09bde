/* Summary-only cases in a report (docs/formats.md, "Summary-only cases"): a case known by a
 * harness's (n, mean, SD) has no samples, so its benchmark shows AMean and compares by a test
 * that needs only those figures (Welch's t, Student's t or mmtests' rule); what cannot be
 * computed from them is said in every format. */
#include <math.h>
#include <string.h>

#include "report/report_internal.h"
#include "stats/stats_internal.h"

/* 1 when `test` can run from (n, mean, SD) alone; AUTO decides by the statistic, AMean here. */
static int test_from_stats(tally_test test)
{
    return test != TALLY_TEST_MANN_WHITNEY && test != TALLY_TEST_PRICE_BONETT;
}

void tally__report_summary_only_rows(tally_report *r)
{
    for (size_t i = 0; i < r->row_count; i++) {
        if (!r->rows[i].summary_only)
            continue;
        /* The whole benchmark: its rows share one statistic in every layout. */
        const char *bench = r->rows[i].benchmark;
        for (size_t k = 0; k < r->row_count; k++) {
            tally__row *row = &r->rows[k];
            if (strcmp(row->benchmark, bench) != 0 || row->asked_statistic != 0)
                continue;
            row->summary_only = 1;
            row->asked_statistic =
                row->statistic == TALLY_STAT_DEFAULT ? TALLY_STAT_AMEAN : row->statistic;
            row->statistic = TALLY_STAT_AMEAN;
            row->asked_test = test_from_stats(r->opts.test) ? TALLY_TEST_AUTO : r->opts.test;
        }
    }
}

tally_test tally__row_test(const tally_report *r, const tally__row *row)
{
    if (row->exact)
        return TALLY_TEST_NONE;
    if (row->summary_only && !test_from_stats(r->opts.test))
        return TALLY_TEST_WELCH;
    return r->opts.test;
}

void tally__cell_summary_only(tally__cell *cell, const tally_report *r)
{
    cell->pub.summary.size = sizeof cell->pub.summary;
    tally__summary_from_stats(&cell->pub.summary, cell->reported.n, cell->reported.mean,
                              cell->reported.sd, r->opts.confidence);
    for (size_t k = 0; k < TALLY__BAMEAN_COUNT; k++)
        cell->bamean[k] = NAN;
}

int tally__report_has_summary_only(const tally_report *r)
{
    for (size_t i = 0; i < r->row_count; i++)
        if (r->rows[i].summary_only)
            return 1;
    return 0;
}

/* One note per summary-only cell, then what a summary cannot give, once. */
void tally__render_summary_only_notes(tally__buf *b, const tally_report *r, const char *prefix)
{
    int any = 0;
    tally_statistic asked = TALLY_STAT_AMEAN;
    tally_test test = TALLY_TEST_AUTO;
    for (size_t i = 0; i < r->row_count; i++) {
        const tally__row *row = &r->rows[i];
        if (!row->summary_only)
            continue;
        if (row->asked_statistic != TALLY_STAT_AMEAN)
            asked = row->asked_statistic;
        if (row->asked_test != TALLY_TEST_AUTO)
            test = row->asked_test;
        for (size_t j = 0; j < r->config_count; j++) {
            const tally__cell *c = &row->cells[j];
            if (!c->pub.present || !c->summary_only)
                continue;
            any = 1;
            tally__buf_printf(b, "%ssummary only: %s/%s in '%s' is known by the harness's n = %zu, "
                                 "mean and SD", prefix, row->benchmark, row->case_name,
                              r->configs[j].label, c->reported.n);
            if (c->reported.sd_derived)
                tally__buf_printf(b, " (the SD from its %g%% interval as a t interval)",
                                  100 * c->reported.interval_level);
            tally__buf_puts(b, ", not by runs\n");
        }
    }
    if (!any)
        return;
    const char *indent = prefix[0] ? "" : "  ";
    if (r->opts.summaries_only)
        tally__buf_printf(b, "%s%sits median, percentiles, min, max and run diagnostics cannot "
                             "be computed from a summary; its benchmarks show AMean",
                          prefix, indent);
    else
        tally__buf_printf(b, "%s%sits rows compare by %s from (n, mean, SD), as SciPy's "
                             "ttest_ind_from_stats; its median, percentiles, min, max, other "
                             "tests and run diagnostics cannot be computed from a summary; its "
                             "benchmarks show AMean",
                          prefix, indent,
                          test == TALLY_TEST_AUTO && r->opts.test != TALLY_TEST_AUTO &&
                                  r->opts.test != TALLY_TEST_WELCH
                              ? tally_test_name(r->opts.test)
                              : "Welch's t-test");
    if (asked != TALLY_STAT_AMEAN)
        tally__buf_printf(b, " instead of %s", tally__stat_title(asked));
    if (test != TALLY_TEST_AUTO)
        tally__buf_printf(b, ", and Welch's t-test instead of %s", tally_test_name(test));
    tally__buf_puts(b, "\n");
}
