/* Outlier flags; samples are never removed.
 * - Modified z-score (Iglewicz & Hoaglin 1993): M = 0.6745 (x - median) / MAD, flagged when
 *   |M| > threshold (3.5 recommended). When more than half the samples share one value MAD is 0;
 *   the score then uses the mean absolute deviation from the median with its normal-consistency
 *   factor sqrt(2/pi) instead, and nothing is flagged when that is 0 too (all samples equal).
 * - Tukey's fences: outside [Q1 - k IQR, Q3 + k IQR] on type 7 quartiles.
 * Values are scaled by a power of two near DBL_MAX so differences cannot overflow. */
#include <math.h>
#include <string.h>

#include "util/internal.h"
#include "stats/select.h"
#include "stats/stats_internal.h"

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

int tally__outlier_mad(tally__outlier_rule *r, const double *x, size_t n, double min,
                       double max, double median, double mad_threshold, tally__scratch *scratch,
                       double **devs)
{
    size_t ranks[2], nranks = tally__percentile_ranks(ranks, n, 50, TALLY_PERCENTILE_LINEAR);
    double med_s = median * r->scale, v[2];
    tally__value_map dev = { 1, r->scale, med_s };
    double hi = fmax(tally__map_value(&dev, min), tally__map_value(&dev, max));
    int rc = tally__order_stats(v, x, n, ranks, nranks, &dev, 0.0, hi, scratch, devs);
    if (rc != TALLY_OK)
        return rc;
    double mad = tally__percentile_from(v, n, 50, TALLY_PERCENTILE_LINEAR), mean_ad = 0.0;
    if (!(mad > 0)) {
        static const tally__value_map identity = TALLY__IDENTITY_MAP;
        mean_ad = *devs ? tally__mapped_mean(*devs, n, &identity) : tally__mapped_mean(x, n, &dev);
    }
    tally__outlier_set_mad(r, med_s, mad, mean_ad, mad_threshold);
    return TALLY_OK;
}

void tally__outlier_set_mad(tally__outlier_rule *r, double med_s, double mad, double mean_ad,
                            double mad_threshold)
{
    r->median = med_s;
    r->threshold = mad_threshold;
    if (mad > 0) {
        r->spread = mad;
        r->factor = MAD_FACTOR;
        r->score_per_unit = r->factor / r->spread;
    } else {
        r->spread = mean_ad;
        r->factor = MEAN_AD_FACTOR;
        r->score_per_unit = r->spread > 0 ? r->factor / r->spread : 0.0;
    }
}

size_t tally__count_mad_outliers(const tally__outlier_rule *r, const double *x, const double *devs,
                                 size_t n)
{
    /* The rule's fields in locals and the tests without branches: one multiplication and one
     * comparison a sample (the same arithmetic as tally__is_mad_deviation). */
    double scale = r->scale, median = r->median, per_unit = r->score_per_unit;
    double threshold = r->threshold;
    size_t count = 0;
    if (!(r->spread > 0))
        return 0;
    if (devs) {
        for (size_t i = 0; i < n; i++)
            count += (size_t)(devs[i] * per_unit > threshold);
    } else {
        for (size_t i = 0; i < n; i++)
            count += (size_t)(fabs(x[i] * scale - median) * per_unit > threshold);
    }
    return count;
}

int tally__is_mad_deviation(const tally__outlier_rule *r, double dev)
{
    if (!(r->spread > 0))
        return 0;
    return dev * r->score_per_unit > r->threshold;
}

int tally__is_mad_outlier(const tally__outlier_rule *r, double v)
{
    return tally__is_mad_deviation(r, fabs(v * r->scale - r->median));
}

int tally__is_tukey_outlier(const tally__outlier_rule *r, double v)
{
    double vs = v * r->scale;
    return (vs < r->low_fence) | (vs > r->high_fence); /* no branch in the counting loops */
}

size_t tally__count_tukey_outliers(const tally__outlier_rule *r, const double *x, size_t n)
{
    double scale = r->scale, low = r->low_fence, high = r->high_fence;
    size_t count = 0;
    for (size_t i = 0; i < n; i++) {
        double vs = x[i] * scale;
        count += (size_t)((vs < low) | (vs > high));
    }
    return count;
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
    static const tally__value_map identity = TALLY__IDENTITY_MAP;
    size_t ranks[6], nranks = 0;
    double v[6], q[3], lo, hi, *mapped, *devs;
    tally__outlier_rule rule;
    tally__scratch scratch;
    int rc;

    if ((rc = tally__sample_range(&lo, &hi, x, n)) != TALLY_OK)
        return rc;
    if ((rc = tally__check_outlier_options(mad_threshold, tukey_k)) != TALLY_OK)
        return rc;
    tally__scratch_init(&scratch, NULL);
    for (size_t i = 0; i < 3; i++)
        nranks += tally__percentile_ranks(ranks + nranks, n, quartiles[i],
                                          TALLY_PERCENTILE_LINEAR);
    rc = tally__order_stats(v, x, n, ranks, nranks, &identity, lo, hi, &scratch, &mapped);
    for (size_t i = 0, k = 0; rc == TALLY_OK && i < 3; i++) {
        q[i] = tally__percentile_from(v + k, n, quartiles[i], TALLY_PERCENTILE_LINEAR);
        k += tally__percentile_ranks(ranks, n, quartiles[i], TALLY_PERCENTILE_LINEAR);
    }
    if (rc == TALLY_OK) {
        tally__outlier_fences(&rule, fmax(fabs(lo), fabs(hi)), q[0], q[2], tukey_k);
        rc = tally__outlier_mad(&rule, x, n, lo, hi, q[1], mad_threshold, &scratch, &devs);
    }
    for (size_t i = 0; rc == TALLY_OK && i < n; i++) {
        if (mad_flags)
            mad_flags[i] = (unsigned char)tally__is_mad_outlier(&rule, x[i]);
        if (tukey_flags)
            tukey_flags[i] = (unsigned char)tally__is_tukey_outlier(&rule, x[i]);
    }
    tally__scratch_free(&scratch);
    return rc;
}
