/* The statistics of a report: each cell's summary, each comparison with the baseline, and the
 * p-values adjusted across the report. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_internal.h"
#include "stats/cluster_boot.h"
#include "stats/compare_impl.h"
#include "stats/stats_internal.h"

const double tally__bamean_percents[TALLY__BAMEAN_COUNT] = { 50.0, 95.0, 99.0 };

tally_summary_options tally__row_summary_options(const tally_report *r, const tally__row *row)
{
    tally_summary_options so = TALLY_SUMMARY_OPTIONS_INIT;
    so.direction = row->direction;
    so.percentile_method = r->opts.percentile_method;
    so.confidence = r->opts.confidence;
    so.percentile = row->statistic == TALLY_STAT_PERCENTILE ? r->opts.percentile : 0;
    return so;
}

static int case_error(int rc, const tally__row *row, const tally_report *r, size_t j)
{
    const tally_error *e = tally_error_last();
    return tally__error(rc, "%s/%s in '%s': %s", row->benchmark, row->case_name,
                        r->configs[j].label, e->message[0] ? e->message : tally_strerror(rc));
}

/* The summary and BAmeans of a partitioned cell, checked to be made with the report's options. */
static int cell_from_part(tally__cell *cell, const tally__row *row, const tally_report *r,
                          size_t j)
{
    tally_summary_options want = tally__row_summary_options(r, row);
    const tally_summary_options *so;
    const double *percents, *bameans;
    size_t count, found = 0;
    const tally_summary *s =
        tally__partition_summary_parts(cell->part, &so, &percents, &bameans, &count);
    int same = so->direction == want.direction &&
               so->percentile_method == want.percentile_method &&
               so->confidence == want.confidence && so->bamean_percent == want.bamean_percent &&
               so->percentile == want.percentile &&
               so->mad_threshold == want.mad_threshold && so->tukey_k == want.tukey_k;
    for (size_t k = 0; k < TALLY__BAMEAN_COUNT; k++) {
        if (tally__bamean_percents[k] == so->bamean_percent) {
            cell->bamean[k] = s->bamean;
            continue;
        }
        for (size_t e = 0; e < count; e++)
            if (percents[e] == tally__bamean_percents[k]) {
                cell->bamean[k] = bameans[e];
                found++;
                break;
            }
    }
    if (!same || found + 1 != TALLY__BAMEAN_COUNT)
        return tally__error(TALLY_EINVAL, "%s/%s in '%s': the partition summary was not made "
                                          "with the report's summary options and BAmean cuts "
                                          "(see tally_report_new_from_partitions)",
                            row->benchmark, row->case_name, r->configs[j].label);
    cell->pub.summary = *s;
    return TALLY_OK;
}

static int descending(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x < y) - (x > y);
}

/* compare-mmtests' BHmean-N of a higher-is-better cell: the harmonic mean of the samples its
 * BAmean-N averages (the best, i.e. highest, floor(n N / 100)). Left undefined when a best
 * sample is not positive. */
static int best_hmeans(tally__cell *cell)
{
    double *sorted = tally__malloc(cell->n * sizeof(double));
    if (sorted == NULL)
        return tally__oom();
    memcpy(sorted, cell->samples, cell->n * sizeof(double));
    qsort(sorted, cell->n, sizeof(double), descending);
    cell->bhmean_defined = 1;
    for (size_t k = 0; k < TALLY__BAMEAN_COUNT; k++) {
        size_t best = tally__bamean_count(cell->n, tally__bamean_percents[k]);
        double inverse = 0;
        for (size_t i = 0; i < best; i++)
            inverse += 1.0 / sorted[i];
        if (best == 0 || !(sorted[best - 1] > 0))
            cell->bhmean_defined = 0;
        else
            cell->bhmean[k] = (double)best / inverse;
    }
    tally__free_mem(sorted);
    return TALLY_OK;
}

static int summarize_cell(tally__cell *cell, const tally__row *row, const tally_report *r,
                          size_t j)
{
    if (cell->summary_only) {
        tally__cell_summary_only(cell, r);
        return TALLY_OK;
    }
    if (cell->part) {
        cell->part_made = 1;
        return cell_from_part(cell, row, r, j);
    }
    if (cell->pooled) {
        tally_summary_options so = tally__row_summary_options(r, row);
        int rc = tally__cell_pooled_summary(cell, row, r, &so);
        /* The report's BAmean cuts of the pooled requests, each a summary of its own
         * (O(buckets) each). */
        const tally__pooled *p = cell->pooled;
        for (size_t k = 0; k < TALLY__BAMEAN_COUNT && rc == TALLY_OK; k++) {
            tally_summary cut = { .size = sizeof cut };
            tally_summary_options co = so;
            co.bamean_percent = tally__bamean_percents[k];
            rc = tally_histogram_summarize(&cut, p->value, p->counts, p->len, &co);
            cell->bamean[k] = cut.bamean;
        }
        return rc == TALLY_OK ? TALLY_OK : case_error(rc, row, r, j);
    }
    tally_summary_options so = tally__row_summary_options(r, row);
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
    if (row->direction == TALLY_HIGHER_IS_BETTER && cell->samples && cell->n > 0)
        return best_hmeans(cell);
    return TALLY_OK;
}

/* The row's statistic, spread and CV of a summarised cell. */
static int finish_cell(tally__cell *cell, const tally__row *row, const tally_report *r, size_t j)
{
    int rc = tally__summary_value(&cell->pub.value, &cell->pub.summary, row->statistic);
    if (rc != TALLY_OK)
        return tally__error(TALLY_EDOMAIN, "%s/%s in '%s': %s is undefined for these samples",
                            row->benchmark, row->case_name, r->configs[j].label,
                            row->stat_title);
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

/* The comparison of a cell with the baseline's, with its change's interval at `confidence`. */
static int compare_at(tally_comparison *out, const tally__cell *cell, const tally__cell *base,
                      const tally__row *row, const tally_report *r, double confidence)
{
    if (cell->pooled || base->pooled) {
        if (!cell->pooled || !base->pooled)
            return tally__error(TALLY_EMISMATCH, "one side holds histogram runs, the other "
                                                 "single values: compare them per run "
                                                 "(per_run, --per-run)");
        tally_summary_options so = tally__row_summary_options(r, row);
        return tally__cell_pooled_compare(out, cell, base, row, r, &so, confidence);
    }
    tally_compare_options co = TALLY_COMPARE_OPTIONS_INIT;
    co.test = tally__row_test(r, row);
    co.alpha = r->opts.alpha;
    co.direction = row->direction;
    co.statistic = row->statistic;
    tally_summary_options so = tally__row_summary_options(r, row);
    co.summary = &so;
    co.equivalence_pct = tally__row_equivalence_pct(r, row);
    co.power = r->opts.power;
    co.mde_pct = r->opts.mde_pct;
    /* Both summaries exist already (summarize_cell, with the same options): only the tests run.
     * Too few samples for the test is compare's call (TALLY_VERDICT_INSUFFICIENT, with the ratio
     * kept): the row gets a footnote rather than a verdict. */
    so.confidence = confidence;
    return tally__compare_summarized(out, &base->pub.summary, base->samples, base->n,
                                     &cell->pub.summary, cell->samples, cell->n,
                                     cell->has_ranks ? cell->ranks : NULL, &co);
}

static int compare_cell(tally__cell *cell, const tally__cell *base, const tally__row *row,
                        const tally_report *r, size_t j)
{
    int rc = compare_at(&cell->pub.comparison, cell, base, row, r, r->opts.confidence);
    if (rc != TALLY_OK)
        return case_error(rc, row, r, j);
    cell->pub.compared = 1;
    cell->pub.p_adjusted = cell->pub.comparison.p_value;
    return TALLY_OK;
}

/* Comparisons whose test can reach alpha: rows with too few samples (even those with a p-value,
 * which cannot be significant) and untested rows are not part of the family. */
static int tested(const tally__cell_figures *c)
{
    return c->compared && c->comparison.p_defined &&
           c->comparison.verdict != TALLY_VERDICT_INSUFFICIENT &&
           c->comparison.verdict != TALLY_VERDICT_NOT_TESTED;
}

/* The change's interval of cell (i, j) at the adjusted level that agrees with its adjusted
 * verdict: the error rate 1 - confidence scaled as the test's, level / alpha (docs/statistics.md,
 * "Adjusted intervals"). */
static int adjusted_interval(tally_report *r, size_t i, size_t j, double level)
{
    tally__row *row = &r->rows[i];
    tally_comparison *c = &row->cells[j].pub.comparison;
    tally_comparison at;
    double confidence = 1 - (1 - r->opts.confidence) * (level / r->opts.alpha);
    int rc = compare_at(&at, &row->cells[j], &row->cells[0], row, r, confidence);
    if (rc != TALLY_OK)
        return case_error(rc, row, r, j);
    c->confidence = confidence;
    c->interval_defined = at.interval_defined;
    c->ratio_low = at.ratio_low;
    c->ratio_high = at.ratio_high;
    c->pct_low = at.pct_low;
    c->pct_high = at.pct_high;
    return TALLY_OK;
}

/* p-values adjusted across every tested comparison of the report; an adjusted p-value at or
 * above alpha withdraws the significance (and the verdict) of the raw test, and every tested
 * row's interval moves to its adjusted level. */
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
    double *p = tally__reallocarray(NULL, 3 * count, sizeof(double));
    if (p == NULL)
        return tally__oom();
    double *adjusted = p + count, *levels = p + 2 * count;
    size_t k = 0;
    for (size_t i = 0; i < r->row_count; i++)
        for (size_t j = 1; j < r->config_count; j++)
            if (tested(&r->rows[i].cells[j].pub))
                p[k++] = r->rows[i].cells[j].pub.comparison.p_value;
    int rc = tally_adjust_pvalues(adjusted, p, count, r->opts.adjust);
    if (rc == TALLY_OK)
        rc = tally__adjust_levels(levels, p, count, r->opts.adjust, r->opts.alpha);
    k = 0;
    for (size_t i = 0; i < r->row_count && rc == TALLY_OK; i++) {
        for (size_t j = 1; j < r->config_count && rc == TALLY_OK; j++) {
            tally__cell_figures *c = &r->rows[i].cells[j].pub;
            if (!tested(c))
                continue;
            c->p_adjusted = adjusted[k];
            if (c->comparison.significant && c->p_adjusted >= r->opts.alpha)
                tally__comparison_decide(&c->comparison, 0);
            if (c->comparison.ratio_defined && c->comparison.interval != TALLY_INTERVAL_NONE)
                rc = adjusted_interval(r, i, j, levels[k]);
            k++;
        }
    }
    tally__free_mem(p);
    return rc;
}

/* A significant change whose point estimate lies inside the benchmark's calibrated noise floor
 * is what identical builds also show: within noise, never a regression or an improvement
 * (after the adjustment, which judges the tests themselves). */
static void noise_verdicts(tally_report *r)
{
    for (size_t i = 0; i < r->row_count; i++) {
        double floor = r->rows[i].noise_pct;
        if (!(floor > 0))
            continue;
        for (size_t j = 1; j < r->config_count; j++) {
            tally_comparison *c = &r->rows[i].cells[j].pub.comparison;
            if (r->rows[i].cells[j].pub.compared && c->ratio_defined &&
                (c->verdict == TALLY_VERDICT_REGRESSION ||
                 c->verdict == TALLY_VERDICT_IMPROVEMENT) &&
                fabs(c->pct_imp) < floor)
                c->verdict = TALLY_VERDICT_WITHIN_NOISE;
        }
    }
}

int tally__report_compute(tally_report *r)
{
    tally__report_summary_only_rows(r);
    for (size_t i = 0; i < r->row_count; i++) {
        tally__row *row = &r->rows[i];
        for (size_t j = 0; j < r->config_count; j++) {
            if (!row->cells[j].pub.present)
                continue;
            int rc = summarize_cell(&row->cells[j], row, r, j);
            if (rc == TALLY_OK)
                rc = finish_cell(&row->cells[j], row, r, j);
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
    int rc = adjust(r);
    if (rc == TALLY_OK)
        noise_verdicts(r);
    return rc;
}

/* The report must not point into the results once tally_report_new returns. */
