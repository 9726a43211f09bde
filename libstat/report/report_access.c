/* Read access to a finished report: configurations, rows, cells, and the figures across rows. */
#include <math.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "report/report_internal.h"
#include "stats/stats_internal.h"
#include "util/result.h"

size_t tally_report_config_count(const tally_report *r)
{
    return r ? r->config_count : 0;
}

const char *tally_report_config_label(const tally_report *r, size_t i)
{
    return r && i < r->config_count ? r->configs[i].label : NULL;
}

size_t tally_report_row_count(const tally_report *r)
{
    return r ? r->row_count : 0;
}

int tally_report_row_at(tally_report_row *out, const tally_report *r, size_t i)
{
    size_t size;
    int rc = tally__result_size(&size, out, "tally_report_row");
    if (rc)
        return rc;
    if (r == NULL || i >= r->row_count)
        return tally__error(TALLY_EINVAL, "tally_report_row_at: row %zu out of range", i);
    const tally__row *row = &r->rows[i];
    tally_report_row full = { sizeof full, row->benchmark, row->case_name, row->unit,
                              row->direction, row->statistic, row->percentile };
    tally__result_put(out, size, &full, sizeof full);
    return TALLY_OK;
}

const tally__cell *tally__report_cell_for(size_t *size, const void *out, const char *type,
                                          const tally_report *r, size_t row, size_t config,
                                          const char *fn)
{
    if (type != NULL && tally__result_size(size, out, type) != TALLY_OK)
        return NULL;
    if (r == NULL || row >= r->row_count || config >= r->config_count) {
        tally__error(TALLY_EINVAL, "%s: cell (%zu, %zu) out of range", fn, row, config);
        return NULL;
    }
    return &r->rows[row].cells[config];
}

int tally__cell_interval(double *lo, double *hi, const tally__row *row, const tally__cell *c)
{
    const tally_summary *s = &c->pub.summary;
    if (!c->pub.present)
        return 0;
    if (row->statistic == TALLY_STAT_AMEAN && (s->defined & TALLY_SUMMARY_MEAN_CI)) {
        *lo = s->mean_ci_low;
        *hi = s->mean_ci_high;
        return 1;
    }
    if (row->statistic == TALLY_STAT_MEDIAN && (s->defined & TALLY_SUMMARY_MEDIAN_CI)) {
        *lo = s->median_ci_low;
        *hi = s->median_ci_high;
        return 1;
    }
    if (row->statistic == TALLY_STAT_PERCENTILE && (s->defined & TALLY_SUMMARY_PERCENTILE_CI)) {
        *lo = s->percentile_ci_low;
        *hi = s->percentile_ci_high;
        return 1;
    }
    return 0;
}

int tally__cell_hmean_interval(double *lo, double *hi, const tally__row *row,
                               const tally__cell *c, double confidence)
{
    const tally_summary *s = &c->pub.summary;
    /* A pooled cell's n counts requests, which are not independent draws. */
    if (!c->pub.present || row->statistic != TALLY_STAT_HMEAN || s->n < 2 || c->pooled ||
        !(s->defined & TALLY_SUMMARY_HMEAN) || !(s->defined & TALLY_SUMMARY_HSTDDEV) ||
        !(s->hmean > 0))
        return 0;
    /* The moments of 1/x as the t-test of HMean rows takes them (stats/compare.c,
     * summary_moments): mean 1/H, SD hstddev / H^2 * sqrt(n / (n - 1)). */
    double n = (double)s->n, h = s->hmean;
    double mean = 1 / h, sd = s->hstddev / h / h * sqrt(n / (n - 1));
    double t = gsl_cdf_tdist_Pinv(1 - (1 - confidence) / 2, n - 1);
    double half = t * sd / sqrt(n);
    if (!isfinite(half) || !(mean - half > 0))
        return 0; /* the interval of 1/x reaches 0: HMean's has no upper end */
    *lo = 1 / (mean + half);
    *hi = 1 / (mean - half);
    return isfinite(*lo) && isfinite(*hi);
}

/* The public figures of cell (row, config) for `fn`, filling the caller's struct of `type`: as
 * tally__report_cell_for. */
static const tally__cell_figures *figures_for(size_t *size, const void *out, const char *type,
                                              const tally_report *r, size_t row, size_t config,
                                              const char *fn)
{
    const tally__cell *c = tally__report_cell_for(size, out, type, r, row, config, fn);
    return c ? &c->pub : NULL;
}

int tally_report_cell_at(tally_report_cell *out, const tally_report *r, size_t row,
                         size_t config)
{
    size_t size;
    const tally__cell_figures *c =
        figures_for(&size, out, "tally_report_cell", r, row, config, "tally_report_cell_at");
    if (c == NULL)
        return TALLY_EINVAL;
    tally_report_cell cell = { sizeof cell, c->present, c->value, c->compared, c->p_adjusted };
    tally__result_put(out, size, &cell, sizeof cell);
    return TALLY_OK;
}

int tally_report_cell_summary(tally_summary *out, const tally_report *r, size_t row,
                              size_t config)
{
    size_t size;
    const tally__cell_figures *c =
        figures_for(&size, out, "tally_summary", r, row, config, "tally_report_cell_summary");
    if (c == NULL)
        return TALLY_EINVAL;
    if (!c->present)
        return tally__error(TALLY_ENOTFOUND, "tally_report_cell_summary: configuration %zu has "
                                             "no case in row %zu", config, row);
    tally__result_put(out, size, &c->summary, sizeof c->summary);
    return TALLY_OK;
}

int tally_report_cell_comparison(tally_comparison *out, const tally_report *r, size_t row,
                                 size_t config)
{
    size_t size;
    const tally__cell_figures *c = figures_for(&size, out, "tally_comparison", r, row, config,
                                               "tally_report_cell_comparison");
    if (c == NULL)
        return TALLY_EINVAL;
    if (!c->compared)
        return tally__error(TALLY_ENOTFOUND, "tally_report_cell_comparison: cell (%zu, %zu) "
                                             "has no comparison", row, config);
    tally__result_put(out, size, &c->comparison, sizeof c->comparison);
    return TALLY_OK;
}

int tally_report_cell_spread(double *spread, double *cv, const tally_report *r, size_t row,
                             size_t config)
{
    const tally__cell *c =
        tally__report_cell_for(NULL, NULL, NULL, r, row, config, "tally_report_cell_spread");
    if (c == NULL)
        return TALLY_EINVAL;
    if (!c->pub.present)
        return tally__error(TALLY_ENOTFOUND, "configuration %zu has no case in row %zu", config,
                            row);
    if (spread)
        *spread = c->spread_defined ? c->spread : NAN;
    if (cv)
        *cv = c->cv_defined ? c->cv : NAN;
    return TALLY_OK;
}

int tally_report_cell_interval(double *low, double *high, const tally_report *r, size_t row,
                               size_t config)
{
    if (low == NULL || high == NULL || r == NULL || row >= r->row_count ||
        config >= r->config_count)
        return tally__error(TALLY_EINVAL, "tally_report_cell_interval: invalid argument");
    const tally__cell *c = &r->rows[row].cells[config];
    if (!c->pub.present)
        return tally__error(TALLY_ENOTFOUND, "configuration %zu has no case in row %zu", config,
                            row);
    if (!tally__cell_interval(low, high, &r->rows[row], c))
        return tally__error(TALLY_ENODATA, "row %zu, configuration %zu: no interval of %s",
                            row, config, r->rows[row].stat_title);
    return TALLY_OK;
}

/* Google Benchmark's two times of the same runs, told apart by the case name's last part: 1
 * real_time, 2 cpu_time, 0 neither. */
static int time_kind(const char *case_name)
{
    const char *slash = strrchr(case_name, '/');
    const char *last = slash ? slash + 1 : case_name;
    return strcmp(last, "real_time") == 0 ? 1 : strcmp(last, "cpu_time") == 0 ? 2 : 0;
}

int tally__same_family(const tally__row *a, const tally__row *b)
{
    int same_unit = a->unit == NULL || b->unit == NULL ? a->unit == b->unit
                                                       : strcmp(a->unit, b->unit) == 0;
    return same_unit && time_kind(a->case_name) == time_kind(b->case_name);
}

void tally__family_name(tally__buf *b, const tally__row *row)
{
    int kind = time_kind(row->case_name);
    tally__buf_puts(b, row->unit && row->unit[0] ? row->unit : "no unit");
    if (kind)
        tally__buf_puts(b, kind == 1 ? " real_time" : " cpu_time");
}

static int selected(const tally__row *row, const char *benchmark, const tally__row *family)
{
    return (benchmark == NULL || strcmp(row->benchmark, benchmark) == 0) &&
           (family == NULL || tally__same_family(row, family));
}

size_t tally__gain_families(size_t *first, size_t max, const tally_report *r,
                            const char *benchmark)
{
    size_t n = 0;
    for (size_t i = 0; i < r->row_count; i++) {
        if (!selected(&r->rows[i], benchmark, NULL))
            continue;
        size_t k = 0;
        while (k < n && k < max && !tally__same_family(&r->rows[first[k]], &r->rows[i]))
            k++;
        if (k < n)
            continue;
        if (n < max)
            first[n] = i;
        n++;
    }
    return n;
}

int tally_report_gain(tally_gain *given, const tally_report *r, size_t config,
                      const char *benchmark)
{
    if (r != NULL && config > 0 && config < r->config_count) {
        size_t first[2];
        if (tally__gain_families(first, 2, r, benchmark) > 1) {
            size_t size;
            int rc = tally__result_size(&size, given, "tally_gain");
            if (rc)
                return rc;
            /* Several units (or both of gbench's times) are several measurements of the same
             * runs more often than not: one mean over them would count those runs twice. */
            return tally__error(TALLY_ENODATA, "the rows%s%s are in more than one unit ('%s' "
                                               "and '%s', or gbench's real and CPU times): "
                                               "their gains are combined per unit",
                                benchmark ? " of " : "", benchmark ? benchmark : "",
                                r->rows[first[0]].unit ? r->rows[first[0]].unit : "",
                                r->rows[first[1]].unit ? r->rows[first[1]].unit : "");
        }
    }
    return tally__report_gain_family(given, r, config, benchmark, (size_t)-1);
}

int tally__report_gain_family(tally_gain *given, const tally_report *r, size_t config,
                              const char *benchmark, size_t family_row)
{
    size_t size;
    tally_gain g, *out = &g;
    int rc = tally__result_begin(&size, given, "tally_gain", &g, sizeof g);
    if (rc)
        return rc;
    if (r == NULL || config >= r->config_count ||
        (family_row != (size_t)-1 && family_row >= r->row_count))
        return tally__error(TALLY_EINVAL, "tally_report_gain: invalid argument");
    if (config == 0)
        return tally__error(TALLY_ENODATA, "the baseline has no ratio against itself");
    const tally__row *family = family_row == (size_t)-1 ? NULL : &r->rows[family_row];
    tally__ksum logs = { 0, 0 };
    double var = 0, var2_df = 0;
    size_t count = 0;
    int all_se = 1;
    for (size_t i = 0; i < r->row_count; i++) {
        const tally__row *row = &r->rows[i];
        if (!selected(row, benchmark, family))
            continue;
        const tally__cell *base = &row->cells[0], *cur = &row->cells[config];
        if (!base->value_defined || !cur->value_defined || !(base->pub.value > 0) ||
            !(cur->pub.value > 0))
            continue;
        double ratio = cur->pub.value / base->pub.value;
        if (!isfinite(ratio) || !(ratio > 0))
            continue;
        /* Expressed so that > 1 is better: base/new when lower is better. */
        tally__ksum_add(&logs, row->direction == TALLY_LOWER_IS_BETTER ? -log(ratio) : log(ratio));
        count++;
        const tally_comparison *c = &cur->pub.comparison;
        /* The statistic's own model (log_df > 0), whatever interval the test reports. */
        if (cur->pub.compared && c->log_df > 0 && isfinite(c->log_se) && c->log_se >= 0) {
            double v = c->log_se * c->log_se;
            var += v;
            if (isfinite(c->log_df))
                var2_df += v * v / c->log_df;
        } else {
            all_se = 0;
        }
    }
    if (count == 0)
        return benchmark ? tally__error(TALLY_ENODATA, "'%s' shares no rows of %s with the "
                                                       "baseline", r->configs[config].label,
                                        benchmark)
                         : tally__error(TALLY_ENODATA, "'%s' shares no rows with the baseline",
                                        r->configs[config].label);
    double k = (double)count;
    double mean = tally__ksum_value(&logs) / k;
    out->value = exp(mean);
    out->rows = count;
    if (all_se) {
        /* Independent rows: var(mean) = sum(se_i^2) / k^2, df by Welch-Satterthwaite. */
        double se = sqrt(var) / k;
        double level = r->opts.confidence;
        double q = var2_df > 0 ? gsl_cdf_tdist_Qinv((1 - level) / 2, var * var / var2_df)
                               : gsl_cdf_ugaussian_Qinv((1 - level) / 2);
        out->low = exp(mean - q * se);
        out->high = exp(mean + q * se);
        out->interval_defined = isfinite(out->low) && isfinite(out->high);
    }
    tally__result_put(given, size, &g, sizeof g);
    return TALLY_OK;
}

int tally_report_geomean(double *out, const tally_report *r, size_t config)
{
    if (out == NULL)
        return tally__error(TALLY_EINVAL, "tally_report_geomean: NULL argument");
    tally_gain g = { .size = sizeof g };
    int rc = tally_report_gain(&g, r, config, NULL);
    if (rc == TALLY_OK)
        *out = g.value;
    return rc;
}

int tally_report_gate(tally_gate *given, const tally_report *r, double threshold_pct,
                      tally_gate_bound bound)
{
    size_t size;
    tally_gate g, *out = &g;
    int rc = tally__result_begin(&size, given, "tally_gate", &g, sizeof g);
    if (rc)
        return rc;
    if (r == NULL || !(threshold_pct >= 0) ||
        (bound != TALLY_GATE_POINT && bound != TALLY_GATE_NEAR))
        return tally__error(TALLY_EINVAL, "tally_report_gate: invalid argument");
    for (size_t i = 0; i < r->row_count; i++)
        for (size_t j = 1; j < r->config_count; j++) {
            const tally__cell_figures *c = &r->rows[i].cells[j].pub;
            if (!c->compared)
                continue;
            const tally_comparison *cmp = &c->comparison;
            switch (cmp->verdict) {
            case TALLY_VERDICT_INSUFFICIENT: out->insufficient++; break;
            case TALLY_VERDICT_INCONCLUSIVE: out->inconclusive++; break;
            case TALLY_VERDICT_NOT_TESTED: out->not_tested++; break;
            case TALLY_VERDICT_REGRESSION: {
                /* A regression's pct-imp is negative; the near bound is the interval's upper
                 * end (closest to 0), or the point estimate when there is no interval. */
                double loss = -cmp->pct_imp;
                if (bound == TALLY_GATE_NEAR && cmp->interval_defined)
                    loss = -cmp->pct_high;
                /* A loss within the benchmark's noise floor is what identical builds showed. */
                double floor = r->rows[i].noise_pct;
                if (loss > threshold_pct && loss > floor) {
                    out->regressions++;
                    if (loss > out->worst_pct || out->worst_config == 0) {
                        out->worst_pct = loss;
                        out->worst_row = i;
                        out->worst_config = j;
                    }
                }
                break;
            }
            default: break;
            }
        }
    tally__result_put(given, size, &g, sizeof g);
    return TALLY_OK;
}

int tally_report_worst_regression(double *out_pct, const tally_report *r)
{
    if (out_pct == NULL || r == NULL)
        return tally__error(TALLY_EINVAL, "tally_report_worst_regression: NULL argument");
    double worst = 0;
    for (size_t i = 0; i < r->row_count; i++)
        for (size_t j = 1; j < r->config_count; j++) {
            const tally__cell_figures *c = &r->rows[i].cells[j].pub;
            if (c->compared && c->comparison.verdict == TALLY_VERDICT_REGRESSION &&
                -c->comparison.pct_imp > worst)
                worst = -c->comparison.pct_imp;
        }
    *out_pct = worst;
    return TALLY_OK;
}
