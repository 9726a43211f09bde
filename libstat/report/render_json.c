/* The JSON report (docs/report-json.md): every statistic of every cell, every comparison,
 * numbers in shortest round-trip form, undefined values as null. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/report_internal.h"
#include "stats/cluster_boot.h"
#include "stats/compare_impl.h"

typedef struct writer {
    tally__buf *b;
    int first; /* no comma before the next member */
} writer;

static void key(writer *w, const char *name)
{
    tally__buf_puts(w->b, w->first ? "" : ", ");
    w->first = 0;
    tally__buf_json_string(w->b, name);
    tally__buf_puts(w->b, ": ");
}

static void num(writer *w, const char *name, double x, int defined)
{
    key(w, name);
    if (defined)
        tally__buf_double(w->b, x);
    else
        tally__buf_puts(w->b, "null");
}

static void count(writer *w, const char *name, size_t n)
{
    key(w, name);
    tally__buf_printf(w->b, "%zu", n);
}

static void str(writer *w, const char *name, const char *s)
{
    key(w, name);
    if (s)
        tally__buf_json_string(w->b, s);
    else
        tally__buf_puts(w->b, "null");
}

static void boolean(writer *w, const char *name, int v)
{
    key(w, name);
    tally__buf_puts(w->b, v ? "true" : "false");
}

static void interval(writer *w, const char *name, double lo, double hi, int defined)
{
    key(w, name);
    if (!defined) {
        tally__buf_puts(w->b, "null");
        return;
    }
    tally__buf_puts(w->b, "[");
    tally__buf_double(w->b, lo);
    tally__buf_puts(w->b, ", ");
    tally__buf_double(w->b, hi);
    tally__buf_puts(w->b, "]");
}

static void render_comparison(tally__buf *b, const tally__cell *c)
{
    const tally_comparison *cmp = &c->pub.comparison;
    writer w = { b, 1 };
    tally__buf_puts(b, "{");
    num(&w, "ratio", cmp->ratio, cmp->ratio_defined);
    num(&w, "pct_imp", cmp->pct_imp, cmp->ratio_defined);
    str(&w, "test", tally_test_name(cmp->test));
    int has_p = cmp->p_defined;
    int has_stat = has_p && cmp->test != TALLY_TEST_MMTESTS_CI;
    num(&w, "statistic", cmp->statistic, has_stat);
    num(&w, "df", cmp->df, has_p && (cmp->test == TALLY_TEST_WELCH ||
                                     cmp->test == TALLY_TEST_STUDENT ||
                                     cmp->test == TALLY_TEST_MMTESTS_CI));
    num(&w, "p_value", cmp->p_value, has_p);
    num(&w, "p_adjusted", c->pub.p_adjusted, has_p);
    num(&w, "min_p", cmp->min_p, cmp->min_p == cmp->min_p);
    boolean(&w, "exact", cmp->exact);
    boolean(&w, "significant", cmp->significant);
    str(&w, "verdict", tally_verdict_name(cmp->verdict));
    boolean(&w, "direction_conflict", cmp->direction_conflict);
    key(&w, "interval");
    if (cmp->interval_defined) {
        writer iw = { b, 1 };
        tally__buf_puts(b, "{");
        str(&iw, "method", tally_interval_method_name(cmp->interval));
        num(&iw, "confidence", cmp->confidence, 1);
        interval(&iw, "ratio", cmp->ratio_low, cmp->ratio_high, 1);
        interval(&iw, "pct_imp", cmp->pct_low, cmp->pct_high, 1);
        tally__buf_puts(b, "}");
    } else {
        tally__buf_puts(b, "null");
    }
    num(&w, "log_se", cmp->log_se, cmp->interval != TALLY_INTERVAL_NONE);
    num(&w, "log_df", cmp->log_df, cmp->interval != TALLY_INTERVAL_NONE && isfinite(cmp->log_df));
    num(&w, "power", cmp->power, 1);
    num(&w, "mde_pct", cmp->mde_pct, cmp->mde_defined);
    key(&w, "equivalence");
    if (cmp->equivalence_pct > 0) {
        writer ew = { b, 1 };
        tally__buf_puts(b, "{");
        num(&ew, "margin_pct", cmp->equivalence_pct, 1);
        interval(&ew, "pct_imp", cmp->equivalence_low, cmp->equivalence_high,
                 cmp->equivalence_defined);
        boolean(&ew, "equivalent", cmp->equivalent);
        tally__buf_puts(b, "}");
    } else {
        tally__buf_puts(b, "null");
    }
    key(&w, "runs_needed");
    if (cmp->runs_needed > 0) {
        writer rw = { b, 1 };
        tally__buf_puts(b, "{");
        if (cmp->runs_needed <= TALLY__RUNS_NEEDED_MAX)
            count(&rw, "per_side", cmp->runs_needed);
        else
            num(&rw, "per_side", 0, 0);
        boolean(&rw, "beyond_limit", cmp->runs_needed > TALLY__RUNS_NEEDED_MAX);
        num(&rw, "target_pct", cmp->runs_target_pct, 1);
        tally__buf_puts(b, "}");
    } else {
        tally__buf_puts(b, "null");
    }
    tally__buf_puts(b, "}");
}

static void names(writer *w, const char *name, unsigned flags)
{
    key(w, name);
    tally__buf_puts(w->b, "[");
    const char *sep = "";
    for (unsigned bit = 1; bit <= TALLY_DIAG_OUTLIERS; bit <<= 1)
        if (flags & bit) {
            tally__buf_puts(w->b, sep);
            tally__buf_json_string(w->b, tally_diag_check_name((tally_diag_check)bit));
            sep = ", ";
        }
    tally__buf_puts(w->b, "]");
}

/* The cell's diagnostics: which checks ran and fired, and the figures of each check that ran. */
static void render_diagnostics(tally__buf *b, const tally__cell *c)
{
    const tally_diagnostics *d = &c->diag;
    writer w = { b, 1 };
    tally__buf_puts(b, "{");
    names(&w, "tested", d->tested);
    names(&w, "flagged", d->flagged);
    if (d->tested & TALLY_DIAG_TREND) {
        key(&w, "trend");
        writer t = { b, 1 };
        tally__buf_puts(b, "{");
        num(&t, "p", d->trend_p, 1);
        num(&t, "tau", d->trend_tau, 1);
        num(&t, "slope_per_run", d->trend_slope, 1);
        tally__buf_puts(b, "}");
    }
    if (d->tested & TALLY_DIAG_AUTOCORR) {
        key(&w, "autocorrelation");
        writer t = { b, 1 };
        tally__buf_puts(b, "{");
        num(&t, "p", d->autocorr_p, 1);
        num(&t, "lag1", d->autocorr_r1, 1);
        tally__buf_puts(b, "}");
    }
    if (d->tested & TALLY_DIAG_WARMUP) {
        key(&w, "warm-up");
        writer t = { b, 1 };
        tally__buf_puts(b, "{");
        num(&t, "p", d->warmup_p, 1);
        count(&t, "runs", d->warmup_runs);
        num(&t, "shift", d->warmup_shift, 1);
        tally__buf_puts(b, "}");
    }
    if (d->tested & TALLY_DIAG_STEP) {
        key(&w, "step");
        writer t = { b, 1 };
        tally__buf_puts(b, "{");
        num(&t, "p", d->step_p, 1);
        count(&t, "after_run", d->step_at);
        num(&t, "shift", d->step_shift, 1);
        tally__buf_puts(b, "}");
    }
    if (d->tested & TALLY_DIAG_MULTIMODAL) {
        key(&w, "multimodal");
        writer t = { b, 1 };
        tally__buf_puts(b, "{");
        num(&t, "p", d->dip_p, 1);
        num(&t, "dip", d->dip, 1);
        tally__buf_puts(b, "}");
    }
    if (d->flagged & TALLY_DIAG_OUTLIERS) {
        key(&w, "outliers");
        writer t = { b, 1 };
        tally__buf_puts(b, "{");
        count(&t, "left_out", d->outliers_left_out);
        str(&t, "verdict_without",
            tally_verdict_name((tally_verdict)d->verdict_without_outliers));
        tally__buf_puts(b, "}");
    }
    tally__buf_puts(b, "}");
}

/* A summary-only cell: "summary_only": {n, mean, sd, ...} as the harness gave them, and what a
 * summary cannot give; only on such cells (docs/reports.md). */
static void render_summary_only(writer *w, const tally__cell *c)
{
    const tally_case_summary *s = &c->reported;
    key(w, "summary_only");
    writer e = { w->b, 1 };
    tally__buf_puts(w->b, "{");
    count(&e, "n", s->n);
    num(&e, "mean", s->mean, 1);
    num(&e, "sd", s->sd, !isnan(s->sd));
    boolean(&e, "sd_derived", s->sd_derived);
    interval(&e, "interval", s->interval_low, s->interval_high, s->interval_level != 0);
    num(&e, "interval_level", s->interval_level, s->interval_level != 0);
    str(&e, "not_computable", "median, percentiles, min, max, BAmean, HMean, GMean, "
                              "rank and median tests, run diagnostics");
    tally__buf_puts(w->b, "}");
}

/* A pooled cell keeps no samples: its requests as the merged bucket grid instead, so that a
 * reader can draw or recompute any percentile of them (tally.Report.plot("spectrum")). */
static void render_pooled(writer *w, const tally__pooled *p)
{
    key(w, "pooled_histogram");
    tally__buf_puts(w->b, "{\"values\": [");
    for (size_t g = 0; g < p->len; g++) {
        tally__buf_puts(w->b, g ? ", " : "");
        tally__buf_double(w->b, p->value[g]);
    }
    tally__buf_puts(w->b, "], \"counts\": [");
    for (size_t g = 0; g < p->len; g++)
        tally__buf_printf(w->b, g ? ", %llu" : "%llu", (unsigned long long)p->counts[g]);
    tally__buf_puts(w->b, "]}");
}

static void render_cell(tally__buf *b, const tally_report *r, const tally__row *row, size_t j)
{
    const tally__cell *c = &row->cells[j];
    const tally_summary *s = &c->pub.summary;
    writer w = { b, 1 };
    tally__buf_puts(b, "        {");
    str(&w, "configuration", r->configs[j].label);
    if (c->paired_from)
        str(&w, "paired_from", c->paired_from);
    boolean(&w, "present", c->pub.present);
    count(&w, "failed_runs", c->failed_runs);
    /* Only on the rows of an exact unit: whether this cell's samples contradict it. */
    if (row->exact && c->pub.present)
        boolean(&w, "exact_varies", tally__cell_exact_varies(row, c));
    if (c->pub.present) {
        unsigned d = s->defined;
        /* A summary-only case has no order statistics (docs/formats.md). */
        int order = !c->summary_only;
        count(&w, "n", s->n);
        num(&w, "value", c->pub.value, c->value_defined);
        num(&w, "min", s->min, order);
        num(&w, "max", s->max, order);
        num(&w, "amean", s->amean, 1);
        num(&w, "hmean", s->hmean, d & TALLY_SUMMARY_HMEAN);
        num(&w, "gmean", s->gmean, d & TALLY_SUMMARY_GMEAN);
        num(&w, "median", s->median, order);
        num(&w, "stddev", s->stddev, d & TALLY_SUMMARY_STDDEV);
        num(&w, "hstddev", s->hstddev, d & TALLY_SUMMARY_HSTDDEV);
        num(&w, "cv", s->cv, d & TALLY_SUMMARY_CV);
        num(&w, "hcv", s->hcv, d & TALLY_SUMMARY_HSTDDEV);
        num(&w, "row_cv", c->cv, c->cv_defined);
        num(&w, "sem", s->sem, d & TALLY_SUMMARY_STDDEV);
        interval(&w, "mean_ci", s->mean_ci_low, s->mean_ci_high, d & TALLY_SUMMARY_MEAN_CI);
        interval(&w, "median_ci", s->median_ci_low, s->median_ci_high, d & TALLY_SUMMARY_MEDIAN_CI);
        num(&w, "median_ci_level", s->median_ci_level, d & TALLY_SUMMARY_MEDIAN_CI);
        if (d & TALLY_SUMMARY_PERCENTILE) {
            /* Only on percentile rows, so that other reports keep their members. */
            num(&w, "percentile", s->percentile, 1);
            num(&w, "percentile_value", s->percentile_value, 1);
            interval(&w, "percentile_ci", s->percentile_ci_low, s->percentile_ci_high,
                     d & TALLY_SUMMARY_PERCENTILE_CI);
            num(&w, "percentile_ci_level", s->percentile_ci_level,
                d & TALLY_SUMMARY_PERCENTILE_CI);
        }
        for (int k = 0; k < TALLY__BAMEAN_COUNT; k++) {
            char name[32];
            snprintf(name, sizeof(name), "bamean_%d", (int)tally__bamean_percents[k]);
            num(&w, name, c->bamean[k], order);
        }
        count(&w, "outliers_mad", s->outliers_mad);
        count(&w, "outliers_tukey", s->outliers_tukey);
        if (c->summary_only)
            render_summary_only(&w, c);
        if (c->hist_runs > 0) {
            /* Histogram runs: the level the cell's figures come from (docs/statistics.md). */
            count(&w, "histogram_runs", c->hist_runs);
            str(&w, "level", c->pooled ? "pooled" : "per-run");
            num(&w, "resolution", c->resolution, 1);
        }
        key(&w, "samples");
        if (r->opts.omit_samples || c->summary_only || c->samples == NULL) {
            tally__buf_puts(b, "null");
        } else {
            tally__buf_puts(b, "[");
            for (size_t k = 0; k < c->n; k++) {
                tally__buf_puts(b, k ? ", " : "");
                tally__buf_double(b, c->samples[k]);
            }
            tally__buf_puts(b, "]");
        }
        if (c->pooled != NULL && !r->opts.omit_samples)
            render_pooled(&w, c->pooled);
    }
    key(&w, "diagnostics");
    if (c->diag_defined)
        render_diagnostics(b, c);
    else
        tally__buf_puts(b, "null");
    key(&w, "comparison");
    if (c->pub.compared)
        render_comparison(b, c);
    else
        tally__buf_puts(b, "null");
    tally__buf_puts(b, "}");
}

static void render_row(tally__buf *b, const tally_report *r, const tally__row *row)
{
    writer w = { b, 1 };
    tally__buf_puts(b, "    {");
    str(&w, "benchmark", row->benchmark);
    str(&w, "case", row->case_name);
    str(&w, "unit", row->unit);
    str(&w, "direction", tally_direction_name(row->direction));
    str(&w, "statistic", row->stat_name);
    key(&w, "cells");
    tally__buf_puts(b, "[\n");
    for (size_t j = 0; j < r->config_count; j++) {
        render_cell(b, r, row, j);
        tally__buf_puts(b, j + 1 < r->config_count ? ",\n" : "\n");
    }
    tally__buf_puts(b, "      ]}");
}

static void render_configs(tally__buf *b, const tally_report *r)
{
    tally__buf_puts(b, "  \"configurations\": [\n");
    for (size_t j = 0; j < r->config_count; j++) {
        const tally__config *c = &r->configs[j];
        writer w = { b, 1 };
        tally__buf_puts(b, "    {");
        str(&w, "label", c->label);
        key(&w, "metadata");
        tally__buf_puts(b, "{");
        for (size_t k = 0; k < c->meta_count; k++) {
            tally__buf_puts(b, k ? ", " : "");
            tally__buf_json_string(b, c->meta[k].key);
            tally__buf_puts(b, ": ");
            tally__buf_json_string(b, c->meta[k].value);
        }
        tally__buf_puts(b, "}}");
        tally__buf_puts(b, j + 1 < r->config_count ? ",\n" : "\n");
    }
    tally__buf_puts(b, "  ],\n");
}

static void gain_fields(tally__buf *b, const tally_gain *g, int rc);

static void gain_object(tally__buf *b, const tally_report *r, size_t j, const char *benchmark)
{
    tally_gain g = { .size = sizeof g };
    int rc = r->opts.summaries_only ? TALLY_ENODATA : tally_report_gain(&g, r, j, benchmark);
    gain_fields(b, &g, rc);
}

static void family_gain_object(tally__buf *b, const tally_report *r, size_t j, size_t family)
{
    tally_gain g = { .size = sizeof g };
    gain_fields(b, &g, tally__report_gain_family(&g, r, j, NULL, family));
}

/* A gain as a JSON object, or null when rc says there is none. */
static void gain_fields(tally__buf *b, const tally_gain *gp, int rc)
{
    tally_gain g = *gp;
    if (rc == TALLY_ENOMEM)
        b->failed = 1;
    if (rc != TALLY_OK) {
        tally_error_clear();
        tally__buf_puts(b, "null");
        return;
    }
    writer w = { b, 1 };
    tally__buf_puts(b, "{");
    num(&w, "gain", g.value, 1);
    interval(&w, "interval", g.low, g.high, g.interval_defined);
    count(&w, "rows", g.rows);
    tally__buf_puts(b, "}");
}

static void render_summary(tally__buf *b, const tally_report *r)
{
    tally__buf_puts(b, "  \"geomean\": [");
    for (size_t j = 1; j < r->config_count; j++) {
        writer w = { b, 1 };
        tally__buf_puts(b, j > 1 ? ", {" : "{");
        str(&w, "configuration", r->configs[j].label);
        key(&w, "overall");
        gain_object(b, r, j, NULL);
        /* Rows of several units: "overall" is null, a gain per unit instead. */
        size_t heads[64];
        size_t families = tally__gain_families(heads, TALLY__COUNT(heads), r, NULL);
        if (families > 1) {
            key(&w, "per_unit");
            tally__buf_puts(b, "[");
            for (size_t f = 0; f < families && f < TALLY__COUNT(heads); f++) {
                tally__buf name = TALLY__BUF_INIT;
                tally__family_name(&name, &r->rows[heads[f]]);
                writer fw = { b, 1 };
                tally__buf_puts(b, f ? ", {" : "{");
                str(&fw, "unit", name.failed ? NULL : name.data);
                b->failed |= name.failed;
                tally__buf_dispose(&name);
                key(&fw, "gain");
                family_gain_object(b, r, j, heads[f]);
                tally__buf_puts(b, "}");
            }
            tally__buf_puts(b, "]");
        }
        key(&w, "benchmarks");
        tally__buf_puts(b, "{");
        tally__group g;
        size_t pos = 0;
        int first = 1;
        while (tally__report_next_group(&g, r, &pos)) {
            tally__buf_puts(b, first ? "" : ", ");
            first = 0;
            tally__buf_json_string(b, r->rows[g.first].benchmark);
            tally__buf_puts(b, ": ");
            gain_object(b, r, j, r->rows[g.first].benchmark);
        }
        tally__buf_puts(b, "}}");
    }
    tally__buf_puts(b, "],\n");
    double worst;
    tally_report_worst_regression(&worst, r);
    tally__buf_puts(b, "  \"worst_regression_pct\": ");
    tally__buf_double(b, worst);
    /* Where it is and how sure: the row, the configuration, the signed change and its
     * interval (null when there is no significant regression). */
    tally__buf_puts(b, ",\n  \"worst_regression\": ");
    size_t wi = 0, wj = 0;
    if (tally__worst_regression(&wi, &wj, r)) {
        const tally__row *row = &r->rows[wi];
        const tally_comparison *c = &row->cells[wj].pub.comparison;
        writer w = { b, 1 };
        tally__buf_puts(b, "{");
        str(&w, "benchmark", row->benchmark);
        str(&w, "case", row->case_name);
        str(&w, "config", r->configs[wj].label);
        num(&w, "pct_imp", c->pct_imp, 1);
        num(&w, "ratio", c->ratio, 1);
        interval(&w, "pct_interval", c->pct_low, c->pct_high, c->interval_defined);
        num(&w, "confidence", c->confidence, c->interval_defined);
        tally__buf_puts(b, "}");
    } else {
        tally__buf_puts(b, "null");
    }
    tally__buf_puts(b, "\n");
}

static int has_histograms(const tally_report *r)
{
    for (size_t i = 0; i < r->row_count; i++)
        for (size_t j = 0; j < r->config_count; j++)
            if (r->rows[i].cells[j].hist_runs > 0)
                return 1;
    return 0;
}

int tally__render_json(tally__buf *b, const tally_report *r, const tally_render_options *o)
{
    (void)o;
    const tally_report_options *ro = &r->opts;
    writer w = { b, 1 };
    tally__buf_puts(b, "{");
    str(&w, "format", "tally-report");
    key(&w, "version");
    tally__buf_puts(b, "2,\n  \"options\": {");
    w.first = 1;
    char stat[32];
    tally_statistic_label(stat, sizeof stat, ro->statistic, ro->percentile);
    str(&w, "statistic", stat);
    str(&w, "test", tally_test_name(ro->test));
    num(&w, "alpha", ro->alpha, 1);
    str(&w, "adjust", tally_adjust_name(ro->adjust));
    str(&w, "percentile_method",
        tally_percentile_method_name(ro->percentile_method));
    num(&w, "confidence", ro->confidence, 1);
    num(&w, "equivalence_pct", ro->equivalence_pct, ro->equivalence_pct > 0);
    num(&w, "power", ro->power, 1);
    num(&w, "mde_pct", ro->mde_pct, ro->mde_pct > 0);
    str(&w, "filter", ro->filter);
    str(&w, "expect_diff", ro->expect_diff);
    boolean(&w, "summaries_only", ro->summaries_only);
    str(&w, "pair_by", tally_pair_by_name(ro->pair_by));
    str(&w, "case_map", ro->case_map);
    if (has_histograms(r)) {
        /* Only with histogram runs, so that the options of other reports read as before. */
        char per_run[32];
        tally_statistic_label(per_run, sizeof per_run, ro->per_run, ro->per_run_percentile);
        str(&w, "per_run", ro->per_run == TALLY_STAT_DEFAULT ? NULL : per_run);
        boolean(&w, "independent_requests", ro->independent_requests);
        count(&w, "resamples", ro->resamples);
        key(&w, "seed");
        tally__buf_printf(b, "%llu", (unsigned long long)ro->seed);
    }
    tally__buf_puts(b, "},\n");
    render_configs(b, r);
    /* Environment keys whose values differ: {key, values: one per configuration or null}. */
    tally__buf_puts(b, "  \"environment_differences\": [");
    for (size_t i = 0; i < tally_report_env_diff_count(r); i++) {
        tally__buf_puts(b, i ? ", " : "");
        writer e = { b, 1 };
        tally__buf_puts(b, "{");
        str(&e, "key", tally_report_env_diff_key(r, i));
        key(&e, "values");
        tally__buf_puts(b, "[");
        for (size_t j = 0; j < r->config_count; j++) {
            const char *v = tally_report_env_diff_value(r, i, j);
            tally__buf_puts(b, j ? ", " : "");
            if (v)
                tally__buf_json_string(b, v);
            else
                tally__buf_puts(b, "null");
        }
        tally__buf_puts(b, "]}");
    }
    tally__buf_puts(b, "],\n");
    /* How each compared configuration's rows paired with the baseline's. */
    tally__buf_puts(b, "  \"pairing\": [");
    for (size_t j = 1; !ro->summaries_only && j < r->config_count; j++) {
        tally_pairing p = { .size = sizeof p };
        if (tally_report_pairing(&p, r, j) != TALLY_OK)
            b->failed = 1;
        writer e = { b, 1 };
        tally__buf_puts(b, j > 1 ? ", {" : "{");
        str(&e, "configuration", r->configs[j].label);
        count(&e, "compared", p.compared);
        count(&e, "missing", p.missing);
        count(&e, "new", p.added);
        count(&e, "renamed", p.renamed);
        tally__buf_puts(b, "}");
    }
    tally__buf_puts(b, "],\n");
    tally__buf_puts(b, "  \"rows\": [\n");
    for (size_t i = 0; i < r->row_count; i++) {
        render_row(b, r, &r->rows[i]);
        tally__buf_puts(b, i + 1 < r->row_count ? ",\n" : "\n");
    }
    tally__buf_puts(b, "  ],\n");
    render_summary(b, r);
    tally__buf_puts(b, "}\n");
    return b->failed ? tally__error(TALLY_ENOMEM, "out of memory") : TALLY_OK;
}
