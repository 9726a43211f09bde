/* tally_summarize: every descriptive statistic of one sample set in O(n) with one scratch copy
 * (tally_summarize_inplace: none, the caller's buffer is the scratch space). Moments come from
 * passes over the caller's array; order statistics (median, quartiles, median CI bounds, the
 * BAmean cut) are selected together on the scratch space, which is then reused for the absolute
 * deviations behind MAD. */
#include <math.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "internal.h"
#include "select.h"
#include "stats_internal.h"

static const tally_summary_options default_options = TALLY_SUMMARY_OPTIONS_INIT;

static int check_options(const tally_summary_options *o)
{
    if (o->version != TALLY_SUMMARY_OPTIONS_VERSION)
        return tally__error(TALLY_EINVAL, "summary options version %u, expected %u", o->version,
                            (unsigned)TALLY_SUMMARY_OPTIONS_VERSION);
    if (o->direction != TALLY_LOWER_IS_BETTER && o->direction != TALLY_HIGHER_IS_BETTER)
        return tally__error(TALLY_EINVAL, "unknown direction %d", (int)o->direction);
    if (o->percentile_method != TALLY_PERCENTILE_LINEAR &&
        o->percentile_method != TALLY_PERCENTILE_NEAREST_RANK)
        return tally__error(TALLY_EINVAL, "unknown percentile method %d",
                            (int)o->percentile_method);
    if (!(o->confidence > 0 && o->confidence < 1))
        return tally__error(TALLY_EINVAL, "confidence %g must lie in (0, 1)", o->confidence);
    if (!(o->bamean_percent > 0 && o->bamean_percent <= 100))
        return tally__error(TALLY_EINVAL, "BAmean percentage %g must lie in (0, 100]",
                            o->bamean_percent);
    return tally__check_outlier_options(o->mad_threshold, o->tukey_k);
}

/* Spread-derived fields: stddev, sem, CV, mean CI, harmonic SD and CV. */
static void fill_spread(tally_summary *s, const tally__moments *m, double confidence)
{
    if (m->positive) {
        s->hmean = m->hmean;
        s->gmean = m->gmean;
        s->defined |= TALLY_SUMMARY_HMEAN | TALLY_SUMMARY_GMEAN;
        if (m->has_hstddev) {
            double hcv = 100.0 * (m->hstddev / m->hmean);
            if (isfinite(hcv)) {
                s->hstddev = m->hstddev;
                s->hcv = hcv;
                s->defined |= TALLY_SUMMARY_HSTDDEV;
            }
        }
    }
    if (!m->has_stddev)
        return;
    s->stddev = m->stddev;
    s->sem = m->stddev / sqrt((double)s->n);
    s->defined |= TALLY_SUMMARY_STDDEV;
    if (m->amean != 0) {
        double cv = 100.0 * (m->stddev / m->amean);
        if (isfinite(cv)) {
            s->cv = cv;
            s->defined |= TALLY_SUMMARY_CV;
        }
    }
    double t = gsl_cdf_tdist_Pinv(1.0 - (1.0 - confidence) / 2.0, (double)(s->n - 1));
    double half = t * s->sem;
    double low = m->amean - half, high = m->amean + half;
    if (isfinite(t) && isfinite(half) && isfinite(low) && isfinite(high)) {
        s->mean_ci_low = low;
        s->mean_ci_high = high;
        s->defined |= TALLY_SUMMARY_MEAN_CI;
    }
}

/* Order statistics and outlier counts, with `work` (n samples in any order) as scratch space:
 * reordered by the selections, then overwritten with the absolute deviations behind MAD. The
 * counts need no sample order, so the Tukey fences are applied before the deviations replace
 * the samples. */
static void fill_order_statistics(tally_summary *s, double *work, const tally_summary_options *o)
{
    size_t n = s->n, ranks[11], nranks = 0, ci_lo = 0, ci_hi = 0;
    double ci_level = 0, q1, q3;
    size_t best = tally__bamean_count(n, o->bamean_percent);
    int has_ci = tally__median_ci_ranks(&ci_lo, &ci_hi, &ci_level, n, o->confidence);

    nranks += tally__percentile_ranks(ranks + nranks, n, 50, o->percentile_method);
    nranks += tally__percentile_ranks(ranks + nranks, n, 50, TALLY_PERCENTILE_LINEAR);
    nranks += tally__percentile_ranks(ranks + nranks, n, 25, TALLY_PERCENTILE_LINEAR);
    nranks += tally__percentile_ranks(ranks + nranks, n, 75, TALLY_PERCENTILE_LINEAR);
    ranks[nranks++] = tally__bamean_rank(n, best, o->direction);
    if (has_ci) {
        ranks[nranks++] = ci_lo;
        ranks[nranks++] = ci_hi;
    }
    tally__select_ranks(work, n, ranks, nranks);

    s->median = tally__percentile_value(work, n, 50, o->percentile_method);
    q1 = tally__percentile_value(work, n, 25, TALLY_PERCENTILE_LINEAR);
    q3 = tally__percentile_value(work, n, 75, TALLY_PERCENTILE_LINEAR);
    s->bamean = tally__bamean_value(work, n, best, o->direction);
    if (has_ci) {
        s->median_ci_low = work[ci_lo];
        s->median_ci_high = work[ci_hi];
        s->median_ci_level = ci_level;
        s->defined |= TALLY_SUMMARY_MEDIAN_CI;
    }

    /* Outliers are judged against the type 7 median whatever the reported median's method. */
    double median7 = o->percentile_method == TALLY_PERCENTILE_LINEAR
                         ? s->median
                         : tally__percentile_value(work, n, 50, TALLY_PERCENTILE_LINEAR);
    tally__outlier_rule rule;
    tally__outlier_fences(&rule, fmax(fabs(s->min), fabs(s->max)), q1, q3, o->tukey_k);
    for (size_t i = 0; i < n; i++)
        s->outliers_tukey += (size_t)tally__is_tukey_outlier(&rule, work[i]);
    tally__outlier_deviations(&rule, work, work, n, median7, o->mad_threshold);
    for (size_t i = 0; i < n; i++)
        s->outliers_mad += (size_t)tally__is_mad_deviation(&rule, work[i]);
}

/* Everything but the order statistics, from x in its original order (so the sums, hence the
 * last bits of the moments, do not depend on whether the caller's buffer is reused). */
static int summarize_moments(tally_summary *out, const double *x, size_t n,
                             const tally_summary_options *o)
{
    tally__moments m;
    int rc;

    if (!out)
        return tally__error(TALLY_EINVAL, "summary output pointer is NULL");
    memset(out, 0, sizeof *out);
    if ((rc = check_options(o)) != TALLY_OK)
        return rc;
    if ((rc = tally__check_samples(x, n)) != TALLY_OK)
        return rc;
    tally__ensure_init();

    tally__compute_moments(&m, x, n);
    out->n = n;
    out->min = m.min;
    out->max = m.max;
    out->amean = m.amean;
    fill_spread(out, &m, o->confidence);
    return TALLY_OK;
}

int tally_summarize(tally_summary *out, const double *x, size_t n,
                    const tally_summary_options *opts)
{
    const tally_summary_options *o = opts ? opts : &default_options;
    int rc = summarize_moments(out, x, n, o);
    if (rc != TALLY_OK)
        return rc;

    double *scratch = tally__reallocarray(NULL, n, sizeof *scratch);
    if (!scratch) {
        memset(out, 0, sizeof *out);
        return tally__error(TALLY_ENOMEM, "out of memory for %zu samples", n);
    }
    memcpy(scratch, x, n * sizeof *scratch);
    fill_order_statistics(out, scratch, o);
    tally__free_mem(scratch);
    return TALLY_OK;
}

int tally_summarize_inplace(tally_summary *out, double *x, size_t n,
                            const tally_summary_options *opts)
{
    const tally_summary_options *o = opts ? opts : &default_options;
    int rc = summarize_moments(out, x, n, o);
    if (rc != TALLY_OK)
        return rc;
    fill_order_statistics(out, x, o);
    return TALLY_OK;
}

int tally_summary_value(double *out, const tally_summary *s, tally_statistic stat)
{
    if (!out || !s)
        return tally__error(TALLY_EINVAL, "summary or output pointer is NULL");
    if (s->n == 0)
        return tally__error(TALLY_ENODATA, "the summary holds no samples");
    switch (stat) {
    case TALLY_STAT_DEFAULT:
    case TALLY_STAT_AMEAN:
        *out = s->amean;
        return TALLY_OK;
    case TALLY_STAT_HMEAN:
    case TALLY_STAT_GMEAN:
        if (!(s->defined & (stat == TALLY_STAT_HMEAN ? TALLY_SUMMARY_HMEAN : TALLY_SUMMARY_GMEAN)))
            return tally__error(TALLY_EDOMAIN, "%s is undefined: a sample is <= 0",
                                stat == TALLY_STAT_HMEAN ? "HMean" : "GMean");
        *out = stat == TALLY_STAT_HMEAN ? s->hmean : s->gmean;
        return TALLY_OK;
    case TALLY_STAT_MEDIAN:
        *out = s->median;
        return TALLY_OK;
    case TALLY_STAT_MIN:
        *out = s->min;
        return TALLY_OK;
    case TALLY_STAT_MAX:
        *out = s->max;
        return TALLY_OK;
    case TALLY_STAT_BAMEAN:
        *out = s->bamean;
        return TALLY_OK;
    }
    return tally__error(TALLY_EINVAL, "unknown statistic %d", (int)stat);
}
