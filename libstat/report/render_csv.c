/* CSV report: one record per benchmark/case/configuration, every statistic a column, RFC 4180
 * quoting and CRLF line ends; undefined values are empty fields; text that a spreadsheet would
 * take for a formula is neutralised. */
#include <stdio.h>
#include <string.h>

#include "report/report_internal.h"
#include "util/utf8.h"
#include "stats/compare_impl.h"

static const char *const columns[] = {
    "benchmark", "case", "configuration", "unit", "direction", "statistic", "present", "n",
    "value", "min", "max", "amean", "hmean", "gmean", "median", "stddev", "hstddev", "cv", "hcv",
    "row_cv", "sem", "mean_ci_low", "mean_ci_high", "median_ci_low", "median_ci_high",
    "median_ci_level", "bamean_50", "bamean_95", "bamean_99", "outliers_mad", "outliers_tukey",
    "ratio", "pct_imp", "test", "p_value", "p_adjusted", "significant", "verdict",
    "interval_method", "confidence", "ratio_low", "ratio_high", "pct_imp_low", "pct_imp_high",
    "min_p", "power", "mde_pct", "equivalence_pct", "equivalence_low", "equivalence_high",
    "runs_needed", "runs_target_pct",
    "diag_tested", "diag_flagged", "trend_p", "autocorrelation_p", "warmup_p", "step_p",
    "multimodal_p", "environment_differs", "failed_runs", "partial", "summary_only",
};

static void num_field(tally__buf *b, int *first, double x, int defined)
{
    tally__csv_sep(b, first);
    if (defined)
        tally__buf_double(b, x);
}

static void count_field(tally__buf *b, int *first, size_t n)
{
    tally__csv_sep(b, first);
    tally__buf_printf(b, "%zu", n);
}

static void render_record(tally__buf *b, const tally_report *r, const tally__row *row, size_t j)
{
    const tally__cell *c = &row->cells[j];
    const tally_summary *s = &c->pub.summary;
    unsigned d = c->pub.present ? s->defined : 0;
    int p = c->pub.present, f = 1;
    tally__csv_text(b, &f, row->benchmark);
    tally__csv_text(b, &f, row->case_name);
    tally__csv_text(b, &f, r->configs[j].label);
    tally__csv_text(b, &f, row->unit);
    tally__csv_text(b, &f, tally_direction_name(row->direction));
    tally__csv_text(b, &f, tally_statistic_name(row->statistic));
    tally__csv_text(b, &f, p ? "1" : "0");
    if (p)
        count_field(b, &f, s->n);
    else
        tally__csv_text(b, &f, NULL);
    num_field(b, &f, c->pub.value, c->value_defined);
    /* A summary-only case has no order statistics (docs/formats.md). */
    int order = p && !c->summary_only;
    num_field(b, &f, s->min, order);
    num_field(b, &f, s->max, order);
    num_field(b, &f, s->amean, p);
    num_field(b, &f, s->hmean, d & TALLY_SUMMARY_HMEAN);
    num_field(b, &f, s->gmean, d & TALLY_SUMMARY_GMEAN);
    num_field(b, &f, s->median, order);
    num_field(b, &f, s->stddev, d & TALLY_SUMMARY_STDDEV);
    num_field(b, &f, s->hstddev, d & TALLY_SUMMARY_HSTDDEV);
    num_field(b, &f, s->cv, d & TALLY_SUMMARY_CV);
    num_field(b, &f, s->hcv, d & TALLY_SUMMARY_HSTDDEV);
    num_field(b, &f, c->cv, c->cv_defined);
    num_field(b, &f, s->sem, d & TALLY_SUMMARY_STDDEV);
    num_field(b, &f, s->mean_ci_low, d & TALLY_SUMMARY_MEAN_CI);
    num_field(b, &f, s->mean_ci_high, d & TALLY_SUMMARY_MEAN_CI);
    num_field(b, &f, s->median_ci_low, d & TALLY_SUMMARY_MEDIAN_CI);
    num_field(b, &f, s->median_ci_high, d & TALLY_SUMMARY_MEDIAN_CI);
    num_field(b, &f, s->median_ci_level, d & TALLY_SUMMARY_MEDIAN_CI);
    for (int k = 0; k < TALLY__BAMEAN_COUNT; k++)
        num_field(b, &f, c->bamean[k], order);
    if (p) {
        count_field(b, &f, s->outliers_mad);
        count_field(b, &f, s->outliers_tukey);
    } else {
        tally__csv_text(b, &f, NULL);
        tally__csv_text(b, &f, NULL);
    }
    const tally_comparison *cmp = &c->pub.comparison;
    int cmpd = c->pub.compared;
    int has_p = cmpd && cmp->p_defined;
    num_field(b, &f, cmp->ratio, cmpd && cmp->ratio_defined);
    num_field(b, &f, cmp->pct_imp, cmpd && cmp->ratio_defined);
    tally__csv_text(b, &f, cmpd ? tally_test_name(cmp->test) : NULL);
    num_field(b, &f, cmp->p_value, has_p);
    num_field(b, &f, c->pub.p_adjusted, has_p);
    tally__csv_text(b, &f, cmpd ? (cmp->significant ? "1" : "0") : NULL);
    tally__csv_text(b, &f, cmpd ? tally_verdict_name(cmp->verdict) : NULL);
    int ci = cmpd && cmp->interval_defined;
    tally__csv_text(b, &f, ci ? tally_interval_method_name(cmp->interval) : NULL);
    num_field(b, &f, cmp->confidence, ci);
    num_field(b, &f, cmp->ratio_low, ci);
    num_field(b, &f, cmp->ratio_high, ci);
    num_field(b, &f, cmp->pct_low, ci);
    num_field(b, &f, cmp->pct_high, ci);
    num_field(b, &f, cmp->min_p, cmpd && cmp->min_p == cmp->min_p);
    num_field(b, &f, cmp->power, cmpd);
    num_field(b, &f, cmp->mde_pct, cmpd && cmp->mde_defined);
    num_field(b, &f, cmp->equivalence_pct, cmpd && cmp->equivalence_pct > 0);
    num_field(b, &f, cmp->equivalence_low, cmpd && cmp->equivalence_defined);
    num_field(b, &f, cmp->equivalence_high, cmpd && cmp->equivalence_defined);
    /* Beyond the counting limit the field says so in words rather than with a number. */
    if (cmpd && cmp->runs_needed > TALLY__RUNS_NEEDED_MAX)
        tally__csv_text(b, &f, ">10000000");
    else if (cmpd && cmp->runs_needed > 0)
        count_field(b, &f, cmp->runs_needed);
    else
        tally__csv_text(b, &f, NULL);
    num_field(b, &f, cmp->runs_target_pct, cmpd && cmp->runs_target_pct > 0);
    /* Diagnostics: the checks as ';'-separated names, then each check's p-value. */
    const tally_diagnostics *dg = &c->diag;
    unsigned t = c->diag_defined ? dg->tested : 0;
    for (int which = 0; which < 2; which++) {
        unsigned flags = which ? dg->flagged : dg->tested;
        tally__buf list = TALLY__BUF_INIT;
        if (c->diag_defined)
            tally__render_diag_names(&list, flags, ";");
        if (list.failed)
            b->failed = 1;
        tally__csv_text(b, &f, c->diag_defined ? (list.len ? list.data : "") : NULL);
        tally__buf_dispose(&list);
    }
    num_field(b, &f, dg->trend_p, t & TALLY_DIAG_TREND);
    num_field(b, &f, dg->autocorr_p, t & TALLY_DIAG_AUTOCORR);
    num_field(b, &f, dg->warmup_p, t & TALLY_DIAG_WARMUP);
    num_field(b, &f, dg->step_p, t & TALLY_DIAG_STEP);
    num_field(b, &f, dg->dip_p, t & TALLY_DIAG_MULTIMODAL);
    /* The environment keys that differ between configurations, on every record. */
    tally__buf env = TALLY__BUF_INIT;
    for (size_t i = 0; i < tally_report_env_diff_count(r); i++)
        tally__buf_printf(&env, "%s%s", i ? ";" : "", tally_report_env_diff_key(r, i));
    if (env.failed)
        b->failed = 1;
    tally__csv_text(b, &f, env.len ? env.data : "");
    tally__buf_dispose(&env);
    /* Runs that gave no sample: the case's count, or for a case whose runs all failed (it has
     * no samples, so it is absent) the count the runner left in the set's metadata. */
    if (p) {
        count_field(b, &f, c->failed_runs);
    } else {
        tally__buf key = TALLY__BUF_INIT;
        tally__buf_printf(&key, "failed_runs.%s", row->case_name);
        const char *all = key.failed ? NULL : tally__report_meta(r, j, key.data);
        if (key.failed)
            b->failed = 1;
        tally__csv_text(b, &f, all ? all : "0");
        tally__buf_dispose(&key);
    }
    /* An interrupted sweep read from its journal: what it holds, on each of its records; a file
     * whose last line has no line end says so in the same column. */
    const char *partial = tally__report_meta(r, j, "partial");
    const char *cut = tally__report_meta(r, j, "cut_last_line");
    tally__buf both = TALLY__BUF_INIT;
    tally__buf_printf(&both, "%s%s%s", partial ? partial : "", partial && cut ? "; " : "",
                      cut ? cut : "");
    if (both.failed)
        b->failed = 1;
    tally__csv_text(b, &f, both.failed ? "" : both.data ? both.data : "");
    tally__buf_dispose(&both);
    /* 1: known by the harness's (n, mean, SD) only; its order statistics are empty. */
    tally__csv_text(b, &f, p ? (c->summary_only ? "1" : "0") : NULL);
    tally__buf_puts(b, "\r\n");
}

int tally__render_csv(tally__buf *b, const tally_report *r, const tally_render_options *o)
{
    (void)o;
    int f = 1;
    for (size_t k = 0; k < TALLY__COUNT(columns); k++)
        tally__csv_text(b, &f, columns[k]);
    tally__buf_puts(b, "\r\n");
    for (size_t i = 0; i < r->row_count; i++)
        for (size_t j = 0; j < r->config_count; j++)
            render_record(b, r, &r->rows[i], j);
    return b->failed ? tally__error(TALLY_ENOMEM, "out of memory") : TALLY_OK;
}
