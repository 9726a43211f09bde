/* The A/A calibration (tally_calibrate, include/tally/noise.h): two result sets of one build (or
 * the interleaved halves of one) compared as a report, each benchmark's rows folded into its
 * noise figures. Apart from noise.c, whose margins the report reads while it is built: the
 * calibration builds a report, the report never calls the calibration. */
#include <math.h>
#include <string.h>

#include "report/noise_internal.h"

/* One result set holding, per case of `rs`, the runs of one parity (0: runs 1, 3, 5, ...;
 * 1: runs 2, 4, 6, ...), keeping benchmarks, units, directions and statistics. */
static int half(tally_resultset **out, const tally_resultset *rs, int parity, const char *label)
{
    tally_resultset *h = NULL;
    int rc = tally_resultset_new(&h, label);
    double *buf = NULL;
    size_t cap = 0;
    for (size_t k = 0; rc == TALLY_OK && k < tally_resultset_benchmark_count(rs); k++) {
        const tally_benchmark *b = tally_resultset_benchmark_at(rs, k);
        tally_benchmark *hb = NULL;
        rc = tally_resultset_benchmark_add(&hb, h, tally_benchmark_name(b), tally_benchmark_unit(b),
                                           tally_benchmark_direction(b));
        if (rc == TALLY_OK)
            rc = tally_benchmark_set_statistic(hb, tally_benchmark_statistic(b));
        for (size_t c = 0; rc == TALLY_OK && c < tally_benchmark_case_count(b); c++) {
            const tally_case *cs = tally_benchmark_case_at(b, c);
            if (tally_case_is_summary_only(cs)) {
                rc = tally__error(TALLY_EINVAL, "case '%s' of benchmark '%s' is known by a "
                                                "summary only (n, mean, SD): its runs cannot be "
                                                "split into halves", tally_case_name(cs),
                                  tally_benchmark_name(b));
                break;
            }
            size_t n = tally_case_sample_count(cs), m = 0;
            const double *x = tally_case_samples(cs);
            if (n > cap) {
                double *grown = tally__reallocarray(buf, n, sizeof(*buf));
                if (grown == NULL) {
                    rc = tally__oom();
                    break;
                }
                buf = grown;
                cap = n;
            }
            for (size_t i = (size_t)parity; i < n; i += 2)
                buf[m++] = x[i];
            tally_case *hc = NULL;
            rc = tally_benchmark_case_add(&hc, hb, tally_case_name(cs));
            if (rc == TALLY_OK && m > 0)
                rc = tally_case_append(hc, buf, m);
        }
    }
    tally__free_mem(buf);
    if (rc != TALLY_OK) {
        tally_resultset_free(h);
        return rc;
    }
    *out = h;
    return TALLY_OK;
}

/* The interleaved halves of the one result set of `results`, as two result sets. */
static int split(tally_results **out, const tally_results *results)
{
    const tally_resultset *rs = tally_results_at(results, 0);
    size_t most = 0;
    for (size_t k = 0; k < tally_resultset_benchmark_count(rs); k++) {
        const tally_benchmark *b = tally_resultset_benchmark_at(rs, k);
        for (size_t c = 0; c < tally_benchmark_case_count(b); c++) {
            size_t n = tally_case_sample_count(tally_benchmark_case_at(b, c));
            most = n > most ? n : most;
        }
    }
    if (most < 4)
        return tally__error(TALLY_ENODATA, "calibrating from one result set splits each case's "
                                           "runs into interleaved halves: it needs at least 4 "
                                           "runs in a case (the most here: %zu)",
                            most);
    tally_results *two = NULL;
    int rc = tally_results_new(&two);
    for (int parity = 0; rc == TALLY_OK && parity < 2; parity++) {
        tally_resultset *h = NULL;
        rc = half(&h, rs, parity, parity ? "even runs" : "odd runs");
        if (rc == TALLY_OK && (rc = tally_results_add(two, h)) != TALLY_OK)
            tally_resultset_free(h);
    }
    if (rc != TALLY_OK) {
        tally_results_free(two);
        return rc;
    }
    *out = two;
    return TALLY_OK;
}

/* Fold the A/A comparison of one row into its benchmark's figures (sum of squares kept in
 * pct_rms until the end). */
static void fold(tally_noise_benchmark *b, const tally_comparison *cmp)
{
    b->rows++;
    b->significant += cmp->significant != 0;
    b->pct_rms += cmp->pct_imp * cmp->pct_imp;
    double widest = fabs(cmp->pct_imp);
    if (cmp->interval_defined) {
        widest = fabs(cmp->pct_low) > widest ? fabs(cmp->pct_low) : widest;
        widest = fabs(cmp->pct_high) > widest ? fabs(cmp->pct_high) : widest;
    }
    if (widest > b->margin_pct)
        b->margin_pct = widest;
    size_t runs = cmp->base_n < cmp->new_n ? cmp->base_n : cmp->new_n;
    if (b->rows == 1 || runs < b->min_runs)
        b->min_runs = runs;
}

static int collect(tally_noise *noise, const tally_report *r)
{
    for (size_t i = 0; i < r->row_count; i++) {
        const tally__row *row = &r->rows[i];
        const tally__cell_figures *c = &row->cells[1].pub;
        /* Rows whose test cannot reach alpha say nothing about false alarms. */
        if (!c->compared || !c->comparison.ratio_defined ||
            c->comparison.verdict == TALLY_VERDICT_INSUFFICIENT ||
            c->comparison.verdict == TALLY_VERDICT_NOT_TESTED)
            continue;
        tally_noise_benchmark *b = (tally_noise_benchmark *)tally__noise_find(noise, row->benchmark);
        if (b == NULL) {
            tally_noise_benchmark fresh;
            memset(&fresh, 0, sizeof(fresh));
            fresh.name = row->benchmark;
            fresh.alpha = r->opts.alpha;
            int rc = tally__noise_add(noise, &fresh);
            if (rc != TALLY_OK)
                return rc;
            b = &noise->b[noise->count - 1];
        }
        fold(b, &c->comparison);
    }
    for (size_t k = 0; k < noise->count; k++) {
        tally_noise_benchmark *b = &noise->b[k];
        b->pct_rms = sqrt(b->pct_rms / (double)b->rows);
        b->false_positive_rate = (double)b->significant / (double)b->rows;
    }
    return TALLY_OK;
}

int tally_calibrate(tally_noise **out, const tally_results *results,
                    const tally_report_options *opts)
{
    if (out == NULL || results == NULL)
        return tally__error(TALLY_EINVAL, "tally_calibrate: NULL argument");
    *out = NULL;
    size_t sets = tally_results_count(results);
    if (sets == 0 || sets > 2)
        return tally__error(TALLY_EINVAL, "calibration compares two result sets of the same "
                                          "build, or the halves of one: %zu given",
                            sets);
    /* What the A/A rows are tested with (fields of every version); the rest keeps the defaults:
     * no margin, no adjustment across the rows (the observed rate is the per-row false-alarm
     * rate the alpha promises), no noise profile. */
    tally_report_options given, o;
    int rc = tally__report_options_read(&given, opts);
    if (rc == TALLY_OK)
        rc = tally_report_options_init(&o, TALLY_REPORT_OPTIONS_VERSION);
    if (rc != TALLY_OK)
        return rc;
    o.statistic = given.statistic;
    o.test = given.test;
    o.alpha = given.alpha;
    o.percentile_method = given.percentile_method;
    o.confidence = given.confidence;
    o.filter = given.filter;
    o.omit_samples = 1;
    tally_results *two = NULL;
    if (sets == 1 && (rc = split(&two, results)) != TALLY_OK)
        return rc;
    tally_report *r = NULL;
    rc = tally_report_new(&r, two ? two : results, &o);
    tally_results_free(two);
    if (rc != TALLY_OK)
        return rc;
    tally_noise *noise = tally__calloc(1, sizeof(*noise));
    if (noise == NULL) {
        tally_report_free(r);
        return tally__oom();
    }
    rc = collect(noise, r);
    tally_report_free(r);
    if (rc == TALLY_OK && noise->count == 0)
        rc = tally__error(TALLY_ENODATA, "no case could be compared on both sides of the A/A "
                                         "calibration (each needs enough runs for its test)");
    if (rc != TALLY_OK) {
        tally_noise_free(noise);
        return rc;
    }
    *out = noise;
    return TALLY_OK;
}
