/* Cells of cases held as histogram runs (docs/statistics.md, "Histogram runs"). At the per-run
 * level each run becomes one sample, its requests' per-run statistic, and the cell is an
 * ordinary one from then on. At the pooled level the cell keeps its runs on one bucket grid
 * (stats/cluster_boot.h): its summary is that of every request pooled, and the interval and test
 * of the row's statistic come from a cluster bootstrap over runs, since the requests of one run
 * are not independent draws. */
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <string.h>

#include "report/report_internal.h"
#include "stats/cluster_boot.h"
#include "stats/compare_impl.h"
#include "stats/stats_internal.h"

void tally__cell_free_histograms(tally__cell *cell)
{
    if (cell->pooled) {
        tally__pooled_free(cell->pooled);
        tally__free_mem(cell->pooled);
        cell->pooled = NULL;
    }
}

/* Each run's per-run statistic as the cell's samples. */
static int per_run_samples(tally__cell *cell, const tally_case *c, const tally_report *r,
                           size_t runs)
{
    tally_summary_options so = TALLY_SUMMARY_OPTIONS_INIT;
    so.percentile_method = r->opts.percentile_method;
    so.percentile = r->opts.per_run_percentile;
    cell->samples = tally__reallocarray(NULL, runs, sizeof(double));
    if (cell->samples == NULL)
        return tally__oom();
    for (size_t i = 0; i < runs; i++) {
        const double *values;
        const uint64_t *counts;
        size_t len;
        double resolution;
        tally_summary s = { .size = sizeof s };
        int rc = tally_case_histogram_at(&values, &counts, &len, &resolution, c, i);
        if (rc == TALLY_OK)
            rc = tally_histogram_summarize(&s, values, counts, len, &so);
        if (rc == TALLY_OK)
            rc = tally__summary_value(&cell->samples[i], &s, r->opts.per_run);
        if (rc != TALLY_OK)
            return tally__error(rc, "histogram run %zu: %s", i + 1, tally_error_last()->message);
        if (resolution > cell->resolution)
            cell->resolution = resolution;
    }
    cell->n = runs;
    return TALLY_OK;
}

/* The runs on one grid for the pooled level. */
static int pooled_runs(tally__cell *cell, const tally_case *c, size_t runs)
{
    const double **values = tally__calloc(runs, sizeof(*values));
    const uint64_t **counts = tally__calloc(runs, sizeof(*counts));
    size_t *lens = tally__calloc(runs, sizeof(*lens));
    double *res = tally__calloc(runs, sizeof(*res));
    cell->pooled = tally__calloc(1, sizeof(*cell->pooled));
    int rc = values && counts && lens && res && cell->pooled ? TALLY_OK : tally__oom();
    for (size_t i = 0; i < runs && rc == TALLY_OK; i++)
        rc = tally_case_histogram_at(&values[i], &counts[i], &lens[i], &res[i], c, i);
    if (rc == TALLY_OK)
        rc = tally__pooled_init(cell->pooled, values, counts, lens, res, runs);
    if (rc == TALLY_OK) {
        cell->n = (size_t)cell->pooled->total;
        cell->resolution = cell->pooled->resolution;
    } else {
        tally__free_mem(cell->pooled);
        cell->pooled = NULL;
    }
    tally__free_mem(values);
    tally__free_mem((void *)counts);
    tally__free_mem(lens);
    tally__free_mem(res);
    return rc;
}

int tally__cell_histograms(tally__cell *cell, const tally_case *c, const tally_report *r)
{
    size_t runs = tally_case_histogram_count(c);
    cell->hist_runs = runs;
    cell->pub.present = 1;
    return r->opts.per_run != TALLY_STAT_DEFAULT ? per_run_samples(cell, c, r, runs)
                                                 : pooled_runs(cell, c, runs);
}

/* The row statistics whose pooled value the bootstrap recomputes on a log scale; the others
 * (Min, Max, BAmean) have no test under the automatic choice and get no interval. */
static int bootstrapped(const tally__row *row)
{
    switch (row->statistic) {
    case TALLY_STAT_AMEAN:
    case TALLY_STAT_HMEAN:
    case TALLY_STAT_GMEAN:
    case TALLY_STAT_MEDIAN:
    case TALLY_STAT_PERCENTILE:
        return 1;
    default:
        return 0;
    }
}

/* The t quantile of a two-sided interval at `confidence` with df degrees of freedom. */
static double t_quantile(double confidence, double df)
{
    return gsl_cdf_tdist_Qinv((1 - confidence) / 2, df);
}

/* The summary of every request pooled; the interval of the row's statistic from the cluster
 * bootstrap (enough runs), from the requests (independent_requests), or none. */
int tally__cell_pooled_summary(tally__cell *cell, const tally__row *row, const tally_report *r,
                               const tally_summary_options *row_options)
{
    tally_summary_options so = *row_options;
    tally_summary *s = &cell->pub.summary;
    const tally__pooled *p = cell->pooled;
    s->size = sizeof *s;
    int rc = tally_histogram_summarize(s, p->value, p->counts, p->len, &so);
    if (rc != TALLY_OK || r->opts.independent_requests)
        return rc;
    /* The summary's own intervals take every request as independent: dropped. */
    s->defined &= ~(unsigned)(TALLY_SUMMARY_MEAN_CI | TALLY_SUMMARY_MEDIAN_CI |
                              TALLY_SUMMARY_PERCENTILE_CI);
    if (!bootstrapped(row) || p->runs < TALLY__CLUSTER_MIN_RUNS)
        return TALLY_OK;
    double value, se;
    rc = tally__pooled_statistic(&value, p, NULL, row->statistic, row->percentile,
                                 r->opts.percentile_method);
    if (rc == TALLY_OK)
        rc = tally__cluster_log_se(&se, p, row->statistic, row->percentile,
                                   r->opts.percentile_method, r->opts.resamples, r->opts.seed);
    if (rc != TALLY_OK || !(value > 0)) {
        tally_error_clear();
        return TALLY_OK; /* no log scale (values <= 0): no interval, the notes say so */
    }
    cell->log_se = se;
    cell->se_defined = 1;
    double q = t_quantile(r->opts.confidence, (double)p->runs - 1);
    double lo = value * exp(-q * se), hi = value * exp(q * se);
    if (row->statistic == TALLY_STAT_AMEAN) {
        s->mean_ci_low = lo;
        s->mean_ci_high = hi;
        s->defined |= TALLY_SUMMARY_MEAN_CI;
    } else if (row->statistic == TALLY_STAT_MEDIAN) {
        s->median_ci_low = lo;
        s->median_ci_high = hi;
        s->median_ci_level = r->opts.confidence;
        s->defined |= TALLY_SUMMARY_MEDIAN_CI;
    } else if (row->statistic == TALLY_STAT_PERCENTILE) {
        s->percentile_ci_low = lo;
        s->percentile_ci_high = hi;
        s->percentile_ci_level = r->opts.confidence;
        s->defined |= TALLY_SUMMARY_PERCENTILE_CI;
    }
    return TALLY_OK;
}

/* The cluster bootstrap's test and interval of the ratio: t on log(new / base) with the sides'
 * standard errors and Welch-Satterthwaite degrees of freedom from their runs - 1 each, so that
 * the interval at 1 - alpha excludes 1 exactly when p < alpha. */
static void bootstrap_test(tally_comparison *out, const tally__cell *cell, const tally__cell *base,
                           const tally_report *r, double confidence)
{
    double vb = base->log_se * base->log_se, vc = cell->log_se * cell->log_se;
    double fb = (double)base->pooled->runs - 1, fc = (double)cell->pooled->runs - 1;
    double v = vb + vc, se = sqrt(v);
    double df = v > 0 ? v * v / (vb * vb / fb + vc * vc / fc) : fb + fc;
    double l = log(out->ratio);
    out->test = TALLY_TEST_CLUSTER_BOOTSTRAP;
    out->interval = TALLY_INTERVAL_CLUSTER_BOOTSTRAP;
    out->log_se = se;
    out->log_df = df;
    out->df = df;
    out->min_p = 0;
    out->test_shift = (l > 0) - (l < 0);
    out->statistic = se > 0 ? l / se : 0;
    out->p_value = se > 0 ? 2 * gsl_cdf_tdist_Q(fabs(l) / se, df) : l != 0 ? 0 : 1;
    out->p_defined = 1;
    double q = t_quantile(confidence, df);
    out->ratio_low = out->ratio * exp(-q * se);
    out->ratio_high = out->ratio * exp(q * se);
    tally__pct_bounds(&out->pct_low, &out->pct_high, out->ratio_low - 1, out->ratio_high - 1,
                      out->direction);
    out->interval_defined = 1;
    out->confidence = confidence;
    if (r->opts.equivalence_pct > 0 || out->equivalence_pct > 0) {
        double q2 = t_quantile(1 - 2 * r->opts.alpha, df), elo, ehi;
        tally__pct_bounds(&elo, &ehi, out->ratio * exp(-q2 * se) - 1,
                          out->ratio * exp(q2 * se) - 1, out->direction);
        double m = out->equivalence_pct;
        out->equivalence_low = elo;
        out->equivalence_high = ehi;
        out->equivalence_defined = 1;
        out->equivalent = elo > -m && ehi < m;
    }
    out->verdict = TALLY_VERDICT_INCONCLUSIVE;
    tally__comparison_decide(out, out->p_value < r->opts.alpha);
}

int tally__cell_pooled_compare(tally_comparison *out, const tally__cell *cell,
                               const tally__cell *base, const tally__row *row,
                               const tally_report *r, const tally_summary_options *row_options,
                               double confidence)
{
    tally_compare_options co = TALLY_COMPARE_OPTIONS_INIT;
    tally_summary_options so = *row_options;
    so.confidence = confidence;
    co.alpha = r->opts.alpha;
    co.direction = row->direction;
    co.statistic = row->statistic;
    co.summary = &so;
    co.equivalence_pct = tally__row_equivalence_pct(r, row);
    co.power = r->opts.power;
    co.mde_pct = r->opts.mde_pct;
    /* Taken as independent, the requests are compared as any samples' summaries are. */
    co.test = r->opts.independent_requests ? tally__row_test(r, row) : TALLY_TEST_NONE;
    int rc = tally__compare_summarized(out, &base->pub.summary, NULL, base->n,
                                       &cell->pub.summary, NULL, cell->n, NULL, &co);
    if (rc != TALLY_OK || r->opts.independent_requests || !bootstrapped(row))
        return rc;
    /* The request-level figures would count requests as runs. */
    out->log_se = 0;
    out->log_df = 0;
    out->mde_defined = 0;
    out->runs_needed = 0;
    out->interval_defined = 0;
    out->interval = TALLY_INTERVAL_NONE;
    if (out->identical)
        return TALLY_OK;
    if (base->se_defined && cell->se_defined && out->ratio_defined && out->ratio > 0) {
        bootstrap_test(out, cell, base, r, confidence);
        return TALLY_OK;
    }
    out->test = TALLY_TEST_CLUSTER_BOOTSTRAP;
    out->p_defined = 0;
    out->p_value = NAN;
    out->significant = 0;
    out->verdict = TALLY_VERDICT_INSUFFICIENT;
    return TALLY_OK;
}

int tally__report_has_pooled(const tally_report *r)
{
    for (size_t i = 0; i < r->row_count; i++)
        for (size_t j = 0; j < r->config_count; j++)
            if (r->rows[i].cells[j].pooled)
                return 1;
    return 0;
}

/* "base 12 runs, 1200 requests; new 3 runs, 300 requests" of a row's histogram cells; the
 * fewest runs of a cell and the widest resolution. */
static void row_runs(tally__buf *b, size_t *fewest, double *resolution, const tally_report *r,
                     const tally__row *row, int requests)
{
    *fewest = (size_t)-1;
    *resolution = 0;
    int first = 1;
    for (size_t j = 0; j < r->config_count; j++) {
        const tally__cell *c = &row->cells[j];
        if (!c->pub.present || c->hist_runs == 0)
            continue;
        tally__buf_printf(b, "%s%s %zu run%s", first ? "" : "; ", r->configs[j].label,
                          c->hist_runs, c->hist_runs == 1 ? "" : "s");
        if (requests)
            tally__buf_printf(b, ", %zu requests", c->n);
        first = 0;
        if (c->hist_runs < *fewest)
            *fewest = c->hist_runs;
        if (c->resolution > *resolution)
            *resolution = c->resolution;
    }
}

static void row_note(tally__buf *b, const tally_report *r, const tally__row *row,
                     const char *prefix)
{
    size_t fewest;
    double res;
    int pooled = r->opts.per_run == TALLY_STAT_DEFAULT;
    tally__buf_printf(b, "%s%s/%s: ", prefix, row->benchmark, row->case_name);
    if (pooled) {
        tally__buf_printf(b, "histogram runs pooled: %s of every request (", row->stat_title);
    } else {
        char name[32];
        tally_statistic_label(name, sizeof name, r->opts.per_run, r->opts.per_run_percentile);
        tally__buf_printf(b, "histogram runs, per run: the %s is over runs of each run's %s "
                             "(", row->stat_title, name);
    }
    row_runs(b, &fewest, &res, r, row, pooled);
    tally__buf_puts(b, "); ");
    if (res > 0)
        tally__buf_printf(b, "bucket values exact to within %g%s%s", res, row->unit[0] ? " " : "",
                          row->unit);
    else
        tally__buf_puts(b, "exact bucket values");
    if (!pooled) {
        tally__buf_puts(b, "\n");
        return;
    }
    if (r->opts.independent_requests)
        tally__buf_puts(b, "; requests taken as independent (--independent-requests): "
                           "request-level intervals and tests");
    else if (!bootstrapped(row))
        tally__buf_printf(b, "; no interval or test of the pooled %s", row->stat_title);
    else if (fewest < TALLY__CLUSTER_MIN_RUNS)
        tally__buf_printf(b, "; %zu run%s: too few for a cluster bootstrap over runs (at least "
                             "%d per configuration), and a run's requests are not independent "
                             "draws: no interval%s; --independent-requests takes them as "
                             "independent",
                          fewest, fewest == 1 ? "" : "s", TALLY__CLUSTER_MIN_RUNS,
                          r->opts.summaries_only ? "" : ", no verdict (insufficient)");
    else
        tally__buf_printf(b, "; interval and test: cluster bootstrap over runs (%zu resamples, "
                             "seed %llu; t on the log scale with runs - 1 df)",
                          r->opts.resamples, (unsigned long long)r->opts.seed);
    tally__buf_puts(b, "\n");
}

void tally__render_histogram_notes(tally__buf *b, const tally_report *r, const char *prefix)
{
    int title = 0;
    for (size_t i = 0; i < r->row_count; i++) {
        const tally__row *row = &r->rows[i];
        int hist = 0;
        for (size_t j = 0; j < r->config_count; j++)
            hist |= row->cells[j].hist_runs > 0;
        if (!hist)
            continue;
        if (!title++)
            tally__buf_puts(b, "histogram runs (each run a histogram of its requests):\n");
        row_note(b, r, row, prefix[0] ? prefix : "  ");
    }
}
