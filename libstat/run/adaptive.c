/* Adaptive runs: looks, levels and the stopping rule (see adaptive.h; the method and its
 * guarantees are in docs/statistics.md, "Adaptive runs"). */
#include <math.h>

#include "run/adaptive.h"
#include "util/internal.h"

const char *tally__stop_name(tally__stop s)
{
    switch (s) {
    case TALLY__STOP_PRECISION: return "precision";
    case TALLY__STOP_SIGNIFICANT: return "significant";
    case TALLY__STOP_EQUIVALENT: return "equivalent";
    case TALLY__STOP_MAX_RUNS: return "max-runs";
    default: return NULL;
    }
}

size_t tally__adaptive_looks(const tally__adaptive *a)
{
    if (a->max_runs <= a->min_runs)
        return 1;
    return 1 + (a->max_runs - a->min_runs + a->step - 1) / a->step;
}

unsigned int tally__adaptive_look_runs(const tally__adaptive *a, size_t k)
{
    if (k >= tally__adaptive_looks(a))
        return a->max_runs;
    unsigned long n = a->min_runs + (unsigned long)(k - 1) * a->step;
    return n < a->max_runs ? (unsigned int)n : a->max_runs;
}

size_t tally__adaptive_look_at(const tally__adaptive *a, unsigned int runs)
{
    if (runs >= a->max_runs)
        return runs == a->max_runs ? tally__adaptive_looks(a) : 0;
    if (runs < a->min_runs || (runs - a->min_runs) % a->step != 0)
        return 0;
    return 1 + (runs - a->min_runs) / a->step;
}

int tally__adaptive_level(double *out, const tally__adaptive *a, size_t k)
{
    double t = (double)tally__adaptive_look_runs(a, k) / a->max_runs;
    double before = 0, now;
    int rc = tally_alpha_spending(&now, k >= tally__adaptive_looks(a) ? 1.0 : t, a->alpha);
    if (rc == TALLY_OK && k > 1)
        rc = tally_alpha_spending(&before, (double)tally__adaptive_look_runs(a, k - 1) /
                                               a->max_runs, a->alpha);
    if (rc == TALLY_OK)
        *out = now - before;
    return rc;
}

/* The summary of y with its intervals at `confidence` (the summary's own interval code). */
static int summarize_at(tally_summary *s, const double *y, size_t n, double confidence)
{
    tally_summary_options so = TALLY_SUMMARY_OPTIONS_INIT;
    so.confidence = confidence;
    s->size = sizeof *s;
    return tally_summarize(s, y, n, &so);
}

/* The t interval of the mean of y (= 1/x or log x). */
static int mean_interval(double *lo, double *hi, int *defined, const double *y, size_t n,
                         double confidence)
{
    tally_summary s;
    int rc = summarize_at(&s, y, n, confidence);
    if (rc != TALLY_OK)
        return rc;
    *defined = (s.defined & TALLY_SUMMARY_MEAN_CI) != 0;
    *lo = s.mean_ci_low;
    *hi = s.mean_ci_high;
    return TALLY_OK;
}

int tally__adaptive_precision(double *out, int *defined, double *bounds, const double *x,
                              size_t n, tally_statistic statistic, double confidence)
{
    *defined = 0;
    *out = 0;
    if (n < 2)
        return TALLY_OK;
    tally_summary s;
    int rc = summarize_at(&s, x, n, confidence);
    if (rc != TALLY_OK)
        return rc;
    double lo, hi, centre;
    int ok = 0;
    if (statistic == TALLY_STAT_MEDIAN) {
        ok = (s.defined & TALLY_SUMMARY_MEDIAN_CI) != 0;
        lo = s.median_ci_low;
        hi = s.median_ci_high;
        centre = s.median;
    } else if (statistic == TALLY_STAT_HMEAN || statistic == TALLY_STAT_GMEAN) {
        int h = statistic == TALLY_STAT_HMEAN;
        if (!(s.defined & (h ? TALLY_SUMMARY_HMEAN : TALLY_SUMMARY_GMEAN)))
            return TALLY_OK; /* a sample <= 0: the statistic has no interval */
        double *y = tally__calloc(n, sizeof(double));
        if (y == NULL)
            return tally__error(TALLY_ENOMEM, "out of memory");
        for (size_t i = 0; i < n; i++)
            y[i] = h ? 1 / x[i] : log(x[i]);
        double ylo, yhi;
        rc = mean_interval(&ylo, &yhi, &ok, y, n, confidence);
        tally__free_mem(y);
        if (rc != TALLY_OK)
            return rc;
        if (h) { /* 1/x: the interval of the mean of 1/x, inverted (needs it above 0) */
            ok = ok && ylo > 0;
            lo = ok ? 1 / yhi : 0;
            hi = ok ? 1 / ylo : 0;
            centre = s.hmean;
        } else {
            lo = exp(ylo);
            hi = exp(yhi);
            centre = s.gmean;
        }
    } else {
        ok = (s.defined & TALLY_SUMMARY_MEAN_CI) != 0;
        lo = s.mean_ci_low;
        hi = s.mean_ci_high;
        centre = s.amean;
    }
    if (!ok || centre == 0 || !isfinite(hi - lo))
        return TALLY_OK;
    *out = (hi - lo) / (2 * fabs(centre));
    *defined = 1;
    if (bounds != NULL) {
        bounds[0] = lo;
        bounds[1] = hi;
    }
    return TALLY_OK;
}

/* A comparison of one cell with its baseline at the look's level. */
static int compare_cell(tally_comparison *c, const tally__adaptive *a,
                        const tally__adaptive_cell *cell, double level)
{
    tally_compare_options co = TALLY_COMPARE_OPTIONS_INIT;
    co.alpha = level;
    co.direction = cell->direction;
    co.statistic = cell->statistic == TALLY_STAT_DEFAULT ? TALLY_STAT_AMEAN : cell->statistic;
    co.equivalence_pct = a->margin_pct;
    tally_summary_options so = TALLY_SUMMARY_OPTIONS_INIT;
    so.confidence = 1 - a->alpha;
    co.summary = &so;
    c->size = sizeof *c;
    return tally_compare(c, cell->base, cell->nb, cell->x, cell->n, &co);
}

int tally__adaptive_decide(tally__stop *out, tally__buf *detail, const tally__adaptive *a,
                           size_t k, const tally__adaptive_cell *cells, size_t count)
{
    *out = TALLY__STOP_CONTINUE;
    size_t looks = tally__adaptive_looks(a);
    int rc;
    if (a->margin_pct > 0) {
        double level;
        if ((rc = tally__adaptive_level(&level, a, k)) != TALLY_OK)
            return rc;
        int all = count > 0, any_significant = 0;
        double worst_p = 0;
        for (size_t i = 0; i < count && all; i++) {
            if (cells[i].n < 2) {
                all = 0;
                break;
            }
            tally_comparison c;
            if ((rc = compare_cell(&c, a, &cells[i], level)) != TALLY_OK)
                return rc;
            if (c.verdict == TALLY_VERDICT_IMPROVEMENT || c.verdict == TALLY_VERDICT_REGRESSION) {
                any_significant = 1;
                if (c.p_value > worst_p)
                    worst_p = c.p_value;
            } else if (c.verdict != TALLY_VERDICT_EQUIVALENT) {
                all = 0;
            }
        }
        if (all) {
            *out = any_significant ? TALLY__STOP_SIGNIFICANT : TALLY__STOP_EQUIVALENT;
            if (detail && any_significant)
                tally__buf_printf(detail, "p = %.3g < %.3g at look %zu of %zu", worst_p, level,
                                  k, looks);
            else if (detail)
                tally__buf_printf(detail, "equivalent within ±%g %% at level %.3g, look %zu "
                                          "of %zu", a->margin_pct, level, k, looks);
            return TALLY_OK;
        }
    }
    if (a->precision > 0) {
        int all = count > 0;
        double worst = 0;
        for (size_t i = 0; i < count && all; i++) {
            double h;
            int defined;
            rc = tally__adaptive_precision(&h, &defined, NULL, cells[i].x, cells[i].n,
                                           cells[i].statistic, 1 - a->alpha);
            if (rc != TALLY_OK)
                return rc;
            all = defined && h <= a->precision;
            if (h > worst)
                worst = h;
        }
        if (all) {
            *out = TALLY__STOP_PRECISION;
            if (detail)
                tally__buf_printf(detail, "±%.3g %% <= %g %% (%g %% interval) at look %zu of %zu",
                                  worst * 100, a->precision * 100, (1 - a->alpha) * 100, k,
                                  looks);
            return TALLY_OK;
        }
    }
    if (k >= looks) {
        *out = TALLY__STOP_MAX_RUNS;
        if (detail)
            tally__buf_printf(detail, "%s after %u runs (look %zu of %zu)",
                              a->margin_pct > 0 ? "still inconclusive" : "precision not reached",
                              a->max_runs, k, looks);
    }
    return TALLY_OK;
}
