/* Outlier flags; samples are never removed.
 * - Modified z-score (Iglewicz & Hoaglin 1993): M = 0.6745 (x - median) / MAD, flagged when
 *   |M| > threshold (3.5 recommended). When more than half the samples share one value MAD is 0;
 *   the score then uses the mean absolute deviation from the median with its normal-consistency
 *   factor sqrt(2/pi) instead, and nothing is flagged when that is 0 too (all samples equal).
 * - Tukey's fences: outside [Q1 - k IQR, Q3 + k IQR] on type 7 quartiles.
 * Values are scaled by a power of two near DBL_MAX so differences cannot overflow. */
#include <math.h>
#include <string.h>

#include "internal.h"
#include "select.h"
#include "stats_internal.h"

#define MAD_FACTOR 0.6745
#define MEAN_AD_FACTOR 0.79788456080286535588 /* sqrt(2 / pi) */

void tally__outlier_fences(tally__outlier_rule *r, double maxabs, double q1, double q3,
                           double tukey_k)
{
    double s = tally__overflow_scale(maxabs);
    double iqr = q3 * s - q1 * s;
    r->scale = s;
    r->low_fence = q1 * s - tukey_k * iqr;
    r->high_fence = q3 * s + tukey_k * iqr;
}

void tally__outlier_deviations(tally__outlier_rule *r, double *dev, const double *x, size_t n,
                               double median, double mad_threshold)
{
    size_t ranks[2], nranks;
    double med_s = median * r->scale, mad;

    /* Element by element, so dev may be x itself. */
    for (size_t i = 0; i < n; i++)
        dev[i] = fabs(x[i] * r->scale - med_s);
    nranks = tally__percentile_ranks(ranks, n, 50, TALLY_PERCENTILE_LINEAR);
    tally__select_ranks(dev, n, ranks, nranks);
    mad = tally__percentile_value(dev, n, 50, TALLY_PERCENTILE_LINEAR);

    r->median = med_s;
    r->threshold = mad_threshold;
    if (mad > 0) {
        r->spread = mad;
        r->factor = MAD_FACTOR;
    } else {
        r->spread = tally__mean(dev, n);
        r->factor = MEAN_AD_FACTOR;
    }
}

void tally__outlier_rule_init(tally__outlier_rule *r, double *scratch, const double *x, size_t n,
                              double maxabs, double median, double q1, double q3,
                              double mad_threshold, double tukey_k)
{
    tally__outlier_fences(r, maxabs, q1, q3, tukey_k);
    tally__outlier_deviations(r, scratch, x, n, median, mad_threshold);
}

int tally__is_mad_deviation(const tally__outlier_rule *r, double dev)
{
    if (!(r->spread > 0))
        return 0;
    return r->factor * dev / r->spread > r->threshold;
}

int tally__is_mad_outlier(const tally__outlier_rule *r, double v)
{
    return tally__is_mad_deviation(r, fabs(v * r->scale - r->median));
}

int tally__is_tukey_outlier(const tally__outlier_rule *r, double v)
{
    double vs = v * r->scale;
    return vs < r->low_fence || vs > r->high_fence;
}

int tally__check_outlier_options(double mad_threshold, double tukey_k)
{
    if (!(mad_threshold > 0) || !isfinite(mad_threshold))
        return tally__error(TALLY_EINVAL, "modified z-score threshold %g must be > 0",
                            mad_threshold);
    if (!(tukey_k >= 0) || !isfinite(tukey_k))
        return tally__error(TALLY_EINVAL, "Tukey fence factor %g must be >= 0", tukey_k);
    return TALLY_OK;
}

int tally_outliers(unsigned char *mad_flags, unsigned char *tukey_flags, const double *x,
                   size_t n, double mad_threshold, double tukey_k)
{
    static const double quartiles[3] = { 25, 50, 75 };
    size_t ranks[6], nranks = 0;
    double q[3];
    tally__outlier_rule rule;
    double *scratch;
    int rc;

    if ((rc = tally__check_samples(x, n)) != TALLY_OK)
        return rc;
    if ((rc = tally__check_outlier_options(mad_threshold, tukey_k)) != TALLY_OK)
        return rc;
    scratch = tally__reallocarray(NULL, n, sizeof *scratch);
    if (!scratch)
        return tally__error(TALLY_ENOMEM, "out of memory for %zu samples", n);
    memcpy(scratch, x, n * sizeof *scratch);

    for (size_t i = 0; i < 3; i++)
        nranks += tally__percentile_ranks(ranks + nranks, n, quartiles[i],
                                          TALLY_PERCENTILE_LINEAR);
    tally__select_ranks(scratch, n, ranks, nranks);
    for (size_t i = 0; i < 3; i++)
        q[i] = tally__percentile_value(scratch, n, quartiles[i], TALLY_PERCENTILE_LINEAR);
    tally__outlier_rule_init(&rule, scratch, x, n, tally__max_magnitude(x, n), q[1], q[0], q[2],
                             mad_threshold, tukey_k);
    for (size_t i = 0; i < n; i++) {
        if (mad_flags)
            mad_flags[i] = (unsigned char)tally__is_mad_outlier(&rule, x[i]);
        if (tukey_flags)
            tukey_flags[i] = (unsigned char)tally__is_tukey_outlier(&rule, x[i]);
    }
    tally__free_mem(scratch);
    return TALLY_OK;
}
