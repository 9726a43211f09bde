/* The diagnostics of a report (include/tally/diagnose.h): the run-order and shape checks of every
 * cell, and for every comparison whether leaving out the flagged outliers changes its verdict.
 * Computed while the report still sees the samples (tally_report_new borrows them even with
 * omit_samples), so every format can show them. */
#include <string.h>

#include "report/report_internal.h"
#include "util/result.h"

/* The comparison options a row's cells are compared with (as report_stats.c uses them), their
 * summary options in *so. */
static tally_compare_options compare_options(const tally_report *r, const tally__row *row,
                                             tally_summary_options *so)
{
    tally_compare_options co = TALLY_COMPARE_OPTIONS_INIT;
    co.test = r->opts.test;
    co.alpha = r->opts.alpha;
    co.direction = row->direction;
    co.statistic = row->statistic;
    *so = tally__row_summary_options(r, row);
    co.summary = so;
    return co;
}

/* x without the samples the MAD rule flags, into `kept` (room for n); returns how many remain. */
static int without_outliers(size_t *kept_n, double *kept, unsigned char *flags, const double *x,
                            size_t n, const tally_compare_options *co)
{
    int rc = tally_outliers(flags, NULL, x, n, co->summary->mad_threshold, co->summary->tukey_k);
    if (rc != TALLY_OK)
        return rc;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (!flags[i])
            kept[k++] = x[i];
    *kept_n = k;
    return TALLY_OK;
}

/* Whether the verdict of cell j against the baseline changes without the outliers of either
 * side; sets TALLY_DIAG_OUTLIERS and the verdict without them when it does. */
static int outlier_influence(tally__cell *cell, const tally__cell *base, const tally__row *row,
                             const tally_report *r)
{
    /* On a handful of runs the MAD rule's flags mean little and leaving one out changes any
     * test: influence is judged from TALLY_DIAGNOSE_MIN_RUNS runs a side, like the checks. */
    if ((cell->pub.summary.outliers_mad == 0 && base->pub.summary.outliers_mad == 0) ||
        cell->n < TALLY_DIAGNOSE_MIN_RUNS || base->n < TALLY_DIAGNOSE_MIN_RUNS)
        return TALLY_OK;
    size_t nb = base->n, nc = cell->n;
    double *kb = tally__reallocarray(NULL, nb + nc, sizeof *kb);
    unsigned char *flags = tally__malloc(nb > nc ? nb : nc);
    if (kb == NULL || flags == NULL) {
        tally__free_mem(kb);
        tally__free_mem(flags);
        return tally__oom();
    }
    double *kc = kb + nb;
    size_t kbn = 0, kcn = 0;
    tally_summary_options so;
    tally_compare_options co = compare_options(r, row, &so);
    int rc = without_outliers(&kbn, kb, flags, base->samples, nb, &co);
    if (rc == TALLY_OK)
        rc = without_outliers(&kcn, kc, flags, cell->samples, nc, &co);
    tally_comparison all = { .size = sizeof all }, clean = { .size = sizeof clean };
    if (rc == TALLY_OK)
        rc = tally_compare(&all, base->samples, nb, cell->samples, nc, &co);
    if (rc == TALLY_OK && kbn > 0 && kcn > 0 && tally_compare(&clean, kb, kbn, kc, kcn, &co) ==
                                                     TALLY_OK) {
        cell->diag.tested |= TALLY_DIAG_OUTLIERS;
        if (clean.verdict != all.verdict) {
            cell->diag.flagged |= TALLY_DIAG_OUTLIERS;
            cell->diag.verdict_without_outliers = clean.verdict;
            cell->diag.outliers_left_out = (nb - kbn) + (nc - kcn);
        }
    }
    /* A comparison that cannot run without the outliers (a statistic undefined, too few left)
     * says nothing about their influence: only real failures are errors. */
    if (rc == TALLY_ENOMEM)
        rc = tally__oom();
    else if (rc != TALLY_OK)
        rc = TALLY_OK;
    tally__free_mem(kb);
    tally__free_mem(flags);
    return rc;
}

int tally__report_diagnose(tally_report *r)
{
    for (size_t i = 0; i < r->row_count; i++) {
        tally__row *row = &r->rows[i];
        for (size_t j = 0; j < r->config_count; j++) {
            tally__cell *cell = &row->cells[j];
            /* Partitioned cells have no samples here; cases of more runs than the checks are
             * meant for (per-request latencies) are left alone, as documented. */
            if (!cell->pub.present || cell->samples == NULL || cell->n > TALLY_DIAGNOSE_MAX_RUNS)
                continue;
            cell->diag.size = sizeof cell->diag;
            int rc = tally_diagnose(&cell->diag, cell->samples, cell->n, NULL);
            if (rc != TALLY_OK)
                return rc;
            cell->diag_defined = 1;
            if (j > 0 && cell->pub.compared && row->cells[0].samples &&
                row->cells[0].n <= TALLY_DIAGNOSE_MAX_RUNS) {
                rc = outlier_influence(cell, &row->cells[0], row, r);
                if (rc != TALLY_OK)
                    return rc;
            }
        }
    }
    return TALLY_OK;
}

int tally_report_cell_diagnostics(tally_diagnostics *out, const tally_report *r, size_t row,
                                  size_t config)
{
    size_t size;
    const tally__cell *c = tally__report_cell_for(&size, out, "tally_diagnostics", r, row, config,
                                                  "tally_report_cell_diagnostics");
    if (c == NULL)
        return TALLY_EINVAL;
    tally_diagnostics d;
    if (c->diag_defined) {
        d = c->diag;
    } else {
        memset(&d, 0, sizeof d);
        d.n = c->pub.present ? c->n : 0;
    }
    tally__result_put(out, size, &d, sizeof d);
    return c->pub.present ? TALLY_OK
                          : tally__error(TALLY_ENOTFOUND, "configuration %zu has no case in "
                                                          "row %zu", config, row);
}

/* The findings of one cell's fired checks, separated by "; " (no newline). */
void tally__render_diag_findings(tally__buf *b, const tally_report *r, const tally__cell *c)
{
    (void)r;
    const tally_diagnostics *d = &c->diag;
    const char *sep = "";
    if (d->flagged & TALLY_DIAG_TREND) {
        tally__buf_printf(b, "%strend %+.1f %% first to last (p %.2g)", sep,
                          100 * d->trend_slope * (double)(d->n - 1), d->trend_p);
        sep = "; ";
    }
    if (d->flagged & TALLY_DIAG_WARMUP) {
        tally__buf_printf(b, "%swarm-up: first %zu runs %+.1f %% (p %.2g)", sep, d->warmup_runs,
                          100 * d->warmup_shift, d->warmup_p);
        sep = "; ";
    }
    if (d->flagged & TALLY_DIAG_STEP) {
        tally__buf_printf(b, "%sstep after run %zu of %zu, %+.1f %% (p %.2g)", sep, d->step_at,
                          d->n, 100 * d->step_shift, d->step_p);
        sep = "; ";
    }
    if (d->flagged & TALLY_DIAG_AUTOCORR) {
        tally__buf_printf(b, "%sruns depend on the previous one, lag-1 %.2f (p %.2g)", sep,
                          d->autocorr_r1, d->autocorr_p);
        sep = "; ";
    }
    if (d->flagged & TALLY_DIAG_MULTIMODAL) {
        tally__buf_printf(b, "%smore than one mode (p %.2g)", sep, d->dip_p);
        sep = "; ";
    }
    if (d->flagged & TALLY_DIAG_OUTLIERS)
        tally__buf_printf(b, "%swithout its outliers (%zu, both sides) the verdict would be %s, "
                             "not %s",
                          sep, d->outliers_left_out,
                          tally__verdict_word((tally_verdict)d->verdict_without_outliers),
                          tally__verdict_word(c->pub.comparison.verdict));
}

void tally__render_diag_names(tally__buf *b, unsigned flags, const char *sep)
{
    const char *s = "";
    for (unsigned bit = 1; bit <= TALLY_DIAG_OUTLIERS; bit <<= 1)
        if (flags & bit) {
            tally__buf_printf(b, "%s%s", s, tally_diag_check_name((tally_diag_check)bit));
            s = sep;
        }
}

void tally__render_diag_legend(tally__buf *b)
{
    tally__buf_printf(b, "trend: Mann-Kendall; warm-up: first-runs Mann-Whitney scan; step: "
                         "Pettitt; lag-1: Bartels' rank test; modes: Hartigan's dip; each fires on "
                         "%g %% of clean series (docs/statistics.md, \"Diagnostics\").",
                      100 * TALLY__DIAG_ALPHA);
}

int tally__report_has_diag_findings(const tally_report *r)
{
    for (size_t i = 0; i < r->row_count; i++)
        for (size_t j = 0; j < r->config_count; j++)
            if (r->rows[i].cells[j].diag_defined && r->rows[i].cells[j].diag.flagged)
                return 1;
    return 0;
}

/* One line per cell with a fired check, findings separated by "; ", after a title; a legend
 * naming the tests follows. Nothing when no check fired. */
void tally__render_diag_notes(tally__buf *b, const tally_report *r, const char *prefix)
{
    if (!tally__report_has_diag_findings(r))
        return;
    const char *item = prefix[0] ? prefix : "  ";
    tally__buf_puts(b, "diagnostics: runs that may not be trusted\n");
    for (size_t i = 0; i < r->row_count; i++) {
        const tally__row *row = &r->rows[i];
        for (size_t j = 0; j < r->config_count; j++) {
            const tally__cell *c = &row->cells[j];
            if (!c->diag_defined || c->diag.flagged == 0)
                continue;
            tally__buf_printf(b, "%s%s %s/%s: ", item, r->configs[j].label, row->benchmark,
                              row->case_name);
            tally__render_diag_findings(b, r, c);
            tally__buf_puts(b, "\n");
        }
    }
    tally__buf_puts(b, prefix[0] ? "\n" : "  ");
    tally__render_diag_legend(b);
    tally__buf_puts(b, "\n");
}
