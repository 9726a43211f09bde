/* The report model: rows aligned by (benchmark, case) across result sets, summaries,
 * comparisons with the baseline and adjusted p-values. */
#include <fnmatch.h>
#include <math.h>
#include <stddef.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "stats/compare_impl.h"
#include "report/report_internal.h"
#include "stats/stats_internal.h"

const double tally__bamean_percents[TALLY__BAMEAN_COUNT] = { 50.0, 95.0, 99.0 };

/* ---- freeing ---- */

static void free_row(tally__row *row, size_t configs)
{
    tally__free_mem(row->benchmark);
    tally__free_mem(row->case_name);
    tally__free_mem(row->unit);
    if (row->cells)
        for (size_t j = 0; j < configs; j++)
            if (!row->cells[j].borrowed)
                tally__free_mem(row->cells[j].samples);
    tally__free_mem(row->cells);
}

void tally_report_free(tally_report *r)
{
    if (r == NULL)
        return;
    for (size_t i = 0; i < r->row_count; i++)
        free_row(&r->rows[i], r->config_count);
    tally__free_mem(r->rows);
    for (size_t j = 0; j < r->config_count; j++) {
        tally__config *c = &r->configs[j];
        tally__free_mem(c->label);
        for (size_t k = 0; k < c->meta_count; k++) {
            tally__free_mem(c->meta[k].key);
            tally__free_mem(c->meta[k].value);
        }
        tally__free_mem(c->meta);
    }
    tally__free_mem(r->configs);
    tally__free_mem(r->filter_copy);
    tally__free_mem(r);
}

/* ---- building ---- */

static int oom(void)
{
    return tally__error(TALLY_ENOMEM, "out of memory");
}

static int copy_config(tally__config *c, const tally_resultset *rs)
{
    c->label = tally__strdup(tally_resultset_label(rs));
    size_t count = tally_resultset_meta_count(rs);
    c->meta = count ? tally__calloc(count, sizeof(*c->meta)) : NULL;
    if (c->label == NULL || (count && c->meta == NULL))
        return oom();
    for (size_t k = 0; k < count; k++) {
        const char *key, *value;
        tally_resultset_meta_at(&key, &value, rs, k);
        c->meta[k].key = tally__strdup(key);
        c->meta[k].value = tally__strdup(value);
        c->meta_count = k + 1;
        if (c->meta[k].key == NULL || c->meta[k].value == NULL)
            return oom();
    }
    return TALLY_OK;
}

static int row_is(const tally__row *row, const char *benchmark, const char *case_name)
{
    return strcmp(row->case_name, case_name) == 0 && strcmp(row->benchmark, benchmark) == 0;
}

/* The row of (benchmark, case), trying `hint` first: result sets usually list their cases in the
 * baseline's order, which keeps alignment linear. */
static long find_row(const tally_report *r, const char *benchmark, const char *case_name,
                     size_t hint)
{
    if (hint < r->row_count && row_is(&r->rows[hint], benchmark, case_name))
        return (long)hint;
    for (size_t i = 0; i < r->row_count; i++)
        if (row_is(&r->rows[i], benchmark, case_name))
            return (long)i;
    return -1;
}

/* Rows stay grouped by benchmark: a case missing from the baseline goes after the last row of
 * its benchmark, a benchmark missing from the baseline after every row. */
static size_t insert_position(const tally_report *r, const char *benchmark)
{
    for (size_t i = r->row_count; i > 0; i--)
        if (strcmp(r->rows[i - 1].benchmark, benchmark) == 0)
            return i;
    return r->row_count;
}

static int matches_filter(const tally_report *r, const char *benchmark, const char *case_name,
                          int *keep)
{
    *keep = 1;
    if (r->opts.filter == NULL)
        return TALLY_OK;
    size_t lb = strlen(benchmark), lc = strlen(case_name);
    char *name = tally__malloc(lb + lc + 2);
    if (name == NULL)
        return oom();
    memcpy(name, benchmark, lb);
    name[lb] = '/';
    memcpy(name + lb + 1, case_name, lc + 1);
    *keep = fnmatch(r->opts.filter, name, 0) == 0;
    tally__free_mem(name);
    return TALLY_OK;
}

static tally_statistic row_statistic(const tally_report *r, const tally_benchmark *b)
{
    if (r->opts.statistic != TALLY_STAT_DEFAULT)
        return r->opts.statistic;
    tally_statistic preferred = tally_benchmark_statistic(b);
    if (preferred != TALLY_STAT_DEFAULT)
        return preferred;
    return tally_benchmark_direction(b) == TALLY_HIGHER_IS_BETTER ? TALLY_STAT_HMEAN
                                                                   : TALLY_STAT_AMEAN;
}

static int add_row(tally_report *r, const tally_benchmark *b, const char *case_name,
                   int baseline, size_t *index)
{
    if (r->row_count == r->row_cap) {
        size_t cap = r->row_cap ? r->row_cap * 2 : 16;
        tally__row *grown = tally__reallocarray(r->rows, cap, sizeof(*grown));
        if (grown == NULL)
            return oom();
        r->rows = grown;
        r->row_cap = cap;
    }
    tally__row row;
    memset(&row, 0, sizeof(row));
    row.benchmark = tally__strdup(tally_benchmark_name(b));
    row.case_name = tally__strdup(case_name);
    row.unit = tally__strdup(tally_benchmark_unit(b));
    row.cells = tally__calloc(r->config_count, sizeof(*row.cells));
    if (!row.benchmark || !row.case_name || !row.unit || !row.cells) {
        free_row(&row, r->config_count);
        return oom();
    }
    row.direction = tally_benchmark_direction(b);
    row.statistic = row_statistic(r, b);
    /* The baseline's rows come in its own order; later ones join their benchmark's rows. */
    size_t pos = baseline ? r->row_count : insert_position(r, row.benchmark);
    memmove(&r->rows[pos + 1], &r->rows[pos], (r->row_count - pos) * sizeof(*r->rows));
    r->rows[pos] = row;
    r->row_count++;
    *index = pos;
    return TALLY_OK;
}

static int check_benchmark(const tally__row *row, const tally_benchmark *b, const char *label)
{
    if (strcmp(row->unit, tally_benchmark_unit(b)) != 0)
        return tally__error(TALLY_EMISMATCH,
                            "benchmark '%s': unit '%s' in '%s' differs from '%s' in the baseline",
                            row->benchmark, tally_benchmark_unit(b), label, row->unit);
    if (row->direction != tally_benchmark_direction(b))
        return tally__error(TALLY_EMISMATCH,
                            "benchmark '%s': direction in '%s' differs from the baseline's",
                            row->benchmark, label);
    return TALLY_OK;
}

/* With omit_samples the cell borrows the results' samples while the report is computed (they
 * are dropped before tally_report_new returns); otherwise it keeps a copy. */
static int copy_samples(tally__cell *cell, const tally_case *c, int borrow)
{
    size_t n = tally_case_sample_count(c);
    if (borrow) {
        cell->samples = (double *)tally_case_samples(c);
        cell->borrowed = 1;
        cell->n = n;
        cell->pub.present = 1;
        return TALLY_OK;
    }
    cell->samples = tally__reallocarray(NULL, n ? n : 1, sizeof(double));
    if (cell->samples == NULL)
        return oom();
    if (n)
        memcpy(cell->samples, tally_case_samples(c), n * sizeof(double));
    cell->n = n;
    cell->pub.present = 1;
    return TALLY_OK;
}

/* Align every case of every result set into rows. */
static int align(tally_report *r, const tally_results *results)
{
    for (size_t j = 0; j < r->config_count; j++) {
        const tally_resultset *rs = tally_results_at(results, j);
        size_t hint = 0;
        for (size_t bi = 0; bi < tally_resultset_benchmark_count(rs); bi++) {
            const tally_benchmark *b = tally_resultset_benchmark_at(rs, bi);
            for (size_t ci = 0; ci < tally_benchmark_case_count(b); ci++) {
                const tally_case *c = tally_benchmark_case_at(b, ci);
                int keep;
                int rc = matches_filter(r, tally_benchmark_name(b), tally_case_name(c), &keep);
                if (rc != TALLY_OK)
                    return rc;
                if (!keep)
                    continue;
                /* Names are unique within a result set: the baseline finds no earlier row. */
                long found = j == 0 ? -1
                                    : find_row(r, tally_benchmark_name(b), tally_case_name(c), hint);
                size_t index = 0;
                if (found < 0) {
                    rc = add_row(r, b, tally_case_name(c), j == 0, &index);
                } else {
                    index = (size_t)found;
                    rc = check_benchmark(&r->rows[index], b, r->configs[j].label);
                }
                if (rc == TALLY_OK)
                    rc = copy_samples(&r->rows[index].cells[j], c, r->opts.omit_samples);
                hint = index + 1;
                if (rc != TALLY_OK)
                    return rc;
            }
        }
    }
    return TALLY_OK;
}

/* ---- statistics ---- */

static tally_summary_options summary_options(const tally_report *r, const tally__row *row)
{
    tally_summary_options so = TALLY_SUMMARY_OPTIONS_INIT;
    so.direction = row->direction;
    so.percentile_method = r->opts.percentile_method;
    so.confidence = r->opts.confidence;
    return so;
}

static int case_error(int rc, const tally__row *row, const tally_report *r, size_t j)
{
    const tally_error *e = tally_error_last();
    return tally__error(rc, "%s/%s in '%s': %s", row->benchmark, row->case_name,
                        r->configs[j].label, e->message[0] ? e->message : tally_strerror(rc));
}

static int summarize_cell(tally__cell *cell, const tally__row *row, const tally_report *r,
                          size_t j)
{
    tally_summary_options so = summary_options(r, row);
    /* The summary's own cut is reused; the other cuts are taken in the summary's passes. */
    double percents[TALLY__BAMEAN_COUNT], values[TALLY__BAMEAN_COUNT];
    size_t slot[TALLY__BAMEAN_COUNT], extra = 0;
    for (size_t k = 0; k < TALLY__BAMEAN_COUNT; k++) {
        if (tally__bamean_percents[k] == so.bamean_percent)
            continue;
        percents[extra] = tally__bamean_percents[k];
        slot[extra++] = k;
    }
    int rc = tally__summarize_with_cuts(&cell->pub.summary, cell->samples, cell->n, &so, percents,
                                        values, extra);
    if (rc != TALLY_OK)
        return case_error(rc, row, r, j);
    for (size_t k = 0; k < TALLY__BAMEAN_COUNT; k++)
        if (tally__bamean_percents[k] == so.bamean_percent)
            cell->bamean[k] = cell->pub.summary.bamean;
    for (size_t e = 0; e < extra; e++)
        cell->bamean[slot[e]] = values[e];
    rc = tally_summary_value(&cell->pub.value, &cell->pub.summary, row->statistic);
    if (rc != TALLY_OK)
        return tally__error(TALLY_EDOMAIN, "%s/%s in '%s': %s is undefined for these samples",
                            row->benchmark, row->case_name, r->configs[j].label,
                            tally__stat_title(row->statistic));
    cell->value_defined = 1;

    /* The spread and CV follow the statistic in use: the harmonic SD on HMean rows, the sample
     * SD otherwise; CV is relative to the row's centre. */
    const tally_summary *s = &cell->pub.summary;
    if (row->statistic == TALLY_STAT_HMEAN) {
        cell->spread_defined = (s->defined & TALLY_SUMMARY_HSTDDEV) != 0;
        cell->spread = s->hstddev;
        cell->cv = s->hcv;
        cell->cv_defined = cell->spread_defined;
    } else if (row->statistic == TALLY_STAT_AMEAN) {
        cell->spread_defined = (s->defined & TALLY_SUMMARY_STDDEV) != 0;
        cell->spread = s->stddev;
        cell->cv_defined = (s->defined & TALLY_SUMMARY_CV) != 0;
        cell->cv = s->cv;
    } else {
        cell->spread_defined = (s->defined & TALLY_SUMMARY_STDDEV) != 0;
        cell->spread = s->stddev;
        /* Divide first: 100 * stddev overflows for stddevs near the top of the double range;
         * a CV that still is not finite (value near 0) is undefined, not infinite. */
        double cv = cell->pub.value != 0 ? 100.0 * (s->stddev / cell->pub.value) : 0;
        cell->cv_defined = cell->spread_defined && cell->pub.value != 0 && isfinite(cv);
        cell->cv = cell->cv_defined ? cv : 0;
    }
    return TALLY_OK;
}

static int compare_cell(tally__cell *cell, const tally__cell *base, const tally__row *row,
                        const tally_report *r, size_t j)
{
    tally_compare_options co = TALLY_COMPARE_OPTIONS_INIT;
    co.test = r->opts.test;
    co.alpha = r->opts.alpha;
    co.direction = row->direction;
    co.statistic = row->statistic;
    co.summary = summary_options(r, row);
    co.equivalence_pct = r->opts.equivalence_pct;
    co.power = r->opts.power;
    co.mde_pct = r->opts.mde_pct;
    /* Both summaries exist already (summarize_cell, with the same options): only the tests run. */
    int rc = tally__compare_summarized(&cell->pub.comparison, &base->pub.summary, base->samples,
                                       base->n, &cell->pub.summary, cell->samples, cell->n, &co);
    if (rc != TALLY_OK)
        return case_error(rc, row, r, j);
    cell->pub.compared = 1;
    cell->pub.p_adjusted = cell->pub.comparison.p_value;
    return TALLY_OK;
}

/* Comparisons whose test can reach alpha: rows with too few samples (even those with a p-value,
 * which cannot be significant) and untested rows are not part of the family. */
static int tested(const tally_report_cell *c)
{
    return c->compared && c->comparison.p_defined &&
           c->comparison.verdict != TALLY_VERDICT_INSUFFICIENT &&
           c->comparison.verdict != TALLY_VERDICT_NOT_TESTED;
}

/* p-values adjusted across every tested comparison of the report; an adjusted p-value at or
 * above alpha withdraws the significance (and the verdict) of the raw test. */
static int adjust(tally_report *r)
{
    if (r->opts.adjust == TALLY_ADJUST_NONE || r->opts.test == TALLY_TEST_MMTESTS_CI ||
        r->opts.test == TALLY_TEST_NONE)
        return TALLY_OK;
    size_t count = 0;
    for (size_t i = 0; i < r->row_count; i++)
        for (size_t j = 1; j < r->config_count; j++)
            count += (size_t)tested(&r->rows[i].cells[j].pub);
    if (count == 0)
        return TALLY_OK;
    double *p = tally__reallocarray(NULL, count, sizeof(double));
    if (p == NULL)
        return oom();
    size_t k = 0;
    for (size_t i = 0; i < r->row_count; i++)
        for (size_t j = 1; j < r->config_count; j++)
            if (tested(&r->rows[i].cells[j].pub))
                p[k++] = r->rows[i].cells[j].pub.comparison.p_value;
    int rc = tally_adjust_pvalues(p, p, count, r->opts.adjust);
    if (rc != TALLY_OK) {
        tally__free_mem(p);
        return rc;
    }
    k = 0;
    for (size_t i = 0; i < r->row_count; i++) {
        for (size_t j = 1; j < r->config_count; j++) {
            tally_report_cell *c = &r->rows[i].cells[j].pub;
            if (!tested(c))
                continue;
            c->p_adjusted = p[k++];
            if (c->comparison.significant && c->p_adjusted >= r->opts.alpha)
                tally__comparison_decide(&c->comparison, 0);
        }
    }
    tally__free_mem(p);
    return TALLY_OK;
}

static int compute(tally_report *r)
{
    for (size_t i = 0; i < r->row_count; i++) {
        tally__row *row = &r->rows[i];
        for (size_t j = 0; j < r->config_count; j++) {
            if (!row->cells[j].pub.present)
                continue;
            int rc = summarize_cell(&row->cells[j], row, r, j);
            if (rc != TALLY_OK)
                return rc;
        }
        if (r->opts.summaries_only || !row->cells[0].pub.present)
            continue;
        for (size_t j = 1; j < r->config_count; j++) {
            if (!row->cells[j].pub.present)
                continue;
            int rc = compare_cell(&row->cells[j], &row->cells[0], row, r, j);
            if (rc != TALLY_OK)
                return rc;
        }
    }
    return adjust(r);
}

/* The report must not point into the results once tally_report_new returns. */
static void drop_borrowed(tally_report *r)
{
    for (size_t i = 0; i < r->row_count; i++)
        for (size_t j = 0; j < r->config_count; j++)
            if (r->rows[i].cells[j].borrowed) {
                r->rows[i].cells[j].samples = NULL;
                r->rows[i].cells[j].borrowed = 0;
            }
}

static int check_options(const tally_report_options *o)
{
    if (o->version < 1 || o->version > TALLY_REPORT_OPTIONS_VERSION)
        return tally__error(TALLY_EINVAL, "report options: unsupported version %u", o->version);
    if (!(o->alpha > 0 && o->alpha < 1))
        return tally__error(TALLY_EINVAL, "report options: alpha must lie in (0, 1)");
    if (!(o->confidence > 0 && o->confidence < 1))
        return tally__error(TALLY_EINVAL, "report options: confidence must lie in (0, 1)");
    if ((unsigned)o->statistic > TALLY_STAT_BAMEAN || (unsigned)o->test > TALLY_TEST_PRICE_BONETT ||
        (unsigned)o->adjust > TALLY_ADJUST_BH ||
        (unsigned)o->percentile_method > TALLY_PERCENTILE_NEAREST_RANK)
        return tally__error(TALLY_EINVAL, "report options: value out of range");
    if (o->version >= 3 && !(o->power > 0 && o->power < 1))
        return tally__error(TALLY_EINVAL, "report options: power must lie in (0, 1)");
    if (o->version >= 3 && !(o->equivalence_pct >= 0 && o->equivalence_pct < 100))
        return tally__error(TALLY_EINVAL, "report options: the equivalence margin must lie in "
                                          "[0, 100) percent");
    if (o->version >= 3 && !(o->mde_pct >= 0 && o->mde_pct < 100))
        return tally__error(TALLY_EINVAL, "report options: the effect for the runs needed must "
                                          "lie in [0, 100) percent");
    return TALLY_OK;
}

int tally_report_new(tally_report **out, const tally_results *results,
                     const tally_report_options *opts)
{
    tally_report_options defaults = TALLY_REPORT_OPTIONS_INIT;
    if (out == NULL || results == NULL)
        return tally__error(TALLY_EINVAL, "tally_report_new: NULL argument");
    *out = NULL;
    if (opts == NULL)
        opts = &defaults;
    int rc = check_options(opts);
    if (rc != TALLY_OK)
        return rc;
    size_t configs = tally_results_count(results);
    if (configs == 0)
        return tally__error(TALLY_ENODATA, "no result sets to report");
    tally__ensure_init();

    tally_report *r = tally__calloc(1, sizeof(*r));
    if (r == NULL)
        return oom();
    /* Older structs end earlier: read only what they have, the defaults for the rest. */
    if (opts->version == 1) {
        r->opts = defaults;
        memcpy(&r->opts, opts, offsetof(tally_report_options, omit_samples));
    } else if (opts->version == 2) {
        r->opts = defaults;
        memcpy(&r->opts, opts, offsetof(tally_report_options, equivalence_pct));
    } else {
        r->opts = *opts;
    }
    r->opts.version = TALLY_REPORT_OPTIONS_VERSION;
    r->configs = tally__calloc(configs, sizeof(*r->configs));
    if (r->configs == NULL) {
        tally_report_free(r);
        return oom();
    }
    r->config_count = configs;
    if (opts->filter) {
        r->filter_copy = tally__strdup(opts->filter);
        if (r->filter_copy == NULL) {
            tally_report_free(r);
            return oom();
        }
    }
    r->opts.filter = r->filter_copy;
    for (size_t j = 0; j < configs && rc == TALLY_OK; j++)
        rc = copy_config(&r->configs[j], tally_results_at(results, j));
    if (rc == TALLY_OK)
        rc = align(r, results);
    if (rc == TALLY_OK && r->row_count == 0)
        rc = r->opts.filter
                 ? tally__error(TALLY_ENODATA, "no benchmark/case matches the filter '%s'",
                                r->opts.filter)
                 : tally__error(TALLY_ENODATA, "the result sets hold no cases");
    if (rc == TALLY_OK)
        rc = compute(r);
    drop_borrowed(r);
    if (rc != TALLY_OK) {
        tally_report_free(r);
        return rc;
    }
    *out = r;
    return TALLY_OK;
}

/* ---- accessors ---- */

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

int tally_report_row_get(tally_report_row *out, const tally_report *r, size_t i)
{
    if (out == NULL || r == NULL || i >= r->row_count)
        return tally__error(TALLY_EINVAL, "tally_report_row_get: row %zu out of range", i);
    const tally__row *row = &r->rows[i];
    out->benchmark = row->benchmark;
    out->case_name = row->case_name;
    out->unit = row->unit;
    out->direction = row->direction;
    out->statistic = row->statistic;
    return TALLY_OK;
}

int tally_report_cell_get(tally_report_cell *out, const tally_report *r, size_t row,
                          size_t config)
{
    if (out == NULL || r == NULL || row >= r->row_count || config >= r->config_count)
        return tally__error(TALLY_EINVAL, "tally_report_cell_get: cell (%zu, %zu) out of range",
                            row, config);
    *out = r->rows[row].cells[config].pub;
    return TALLY_OK;
}

int tally_report_gain(tally_gain *out, const tally_report *r, size_t config,
                      const char *benchmark)
{
    if (out == NULL || r == NULL || config >= r->config_count)
        return tally__error(TALLY_EINVAL, "tally_report_gain: invalid argument");
    if (config == 0)
        return tally__error(TALLY_ENODATA, "the baseline has no ratio against itself");
    tally__ksum logs = { 0, 0 };
    double var = 0, var2_df = 0;
    size_t count = 0;
    int all_se = 1;
    for (size_t i = 0; i < r->row_count; i++) {
        const tally__row *row = &r->rows[i];
        if (benchmark && strcmp(row->benchmark, benchmark) != 0)
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
        if (cur->pub.compared && c->interval != TALLY_INTERVAL_NONE && isfinite(c->log_se) &&
            c->log_se >= 0) {
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
    memset(out, 0, sizeof(*out));
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
    return TALLY_OK;
}

int tally_report_geomean(double *out, const tally_report *r, size_t config)
{
    if (out == NULL)
        return tally__error(TALLY_EINVAL, "tally_report_geomean: NULL argument");
    tally_gain g;
    int rc = tally_report_gain(&g, r, config, NULL);
    if (rc == TALLY_OK)
        *out = g.value;
    return rc;
}

int tally_report_gate(tally_gate *out, const tally_report *r, double threshold_pct,
                      tally_gate_bound bound)
{
    if (out == NULL || r == NULL || !(threshold_pct >= 0) ||
        (bound != TALLY_GATE_POINT && bound != TALLY_GATE_NEAR))
        return tally__error(TALLY_EINVAL, "tally_report_gate: invalid argument");
    memset(out, 0, sizeof(*out));
    for (size_t i = 0; i < r->row_count; i++)
        for (size_t j = 1; j < r->config_count; j++) {
            const tally_report_cell *c = &r->rows[i].cells[j].pub;
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
                if (loss > threshold_pct) {
                    out->regressions++;
                    if (loss > out->worst_pct)
                        out->worst_pct = loss;
                }
                break;
            }
            default: break;
            }
        }
    return TALLY_OK;
}

int tally_report_worst_regression(double *out_pct, const tally_report *r)
{
    if (out_pct == NULL || r == NULL)
        return tally__error(TALLY_EINVAL, "tally_report_worst_regression: NULL argument");
    double worst = 0;
    for (size_t i = 0; i < r->row_count; i++)
        for (size_t j = 1; j < r->config_count; j++) {
            const tally_report_cell *c = &r->rows[i].cells[j].pub;
            if (c->compared && c->comparison.verdict == TALLY_VERDICT_REGRESSION &&
                -c->comparison.pct_imp > worst)
                worst = -c->comparison.pct_imp;
        }
    *out_pct = worst;
    return TALLY_OK;
}
