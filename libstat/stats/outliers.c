/* Outlier flags; samples are never removed.
 * - Modified z-score (Iglewicz & Hoaglin 1993): M = 0.6745 (x - median) / MAD, flagged when
 *   |M| > threshold (3.5 recommended). When more than half the samples share one value MAD is 0;
 *   the score then uses the mean absolute deviation from the median with its normal-consistency
 *   factor sqrt(2/pi) instead, and nothing is flagged when that is 0 too (all samples equal).
 * - Tukey's fences: outside [Q1 - k IQR, Q3 + k IQR] on type 7 quartiles.
 * Values are scaled by a power of two near DBL_MAX so differences cannot overflow, and lifted
 * by one when subnormal so that the score per unit cannot. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
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
    /* Subnormal samples (below 2^-1022) are lifted by 2^1000, exactly (a power of two): their
     * MAD is subnormal too, and 0.6745 / MAD, the score per unit, would overflow to infinity
     * and flag every sample off the median. Counts do not depend on the scale. */
    if (maxabs > 0 && maxabs < 0x1p-900)
        s = 0x1p1000;
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

static size_t tukey_count(const double *x, size_t n, double scale, double low, double high)
{
    size_t count = 0;
    for (size_t i = 0; i < n; i++) {
        double vs = x[i] * scale;
        count += (size_t)((vs < low) | (vs > high));
    }
    return count;
}

size_t tally__count_tukey_outliers(const tally__outlier_rule *r, const double *x, size_t n)
{
    return tukey_count(x, n, r->scale, r->low_fence, r->high_fence);
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

/* ---- The MAD and its outlier count in one pass, from the histogram of the median ----
 *
 * The samples whose deviation |x * scale - median| is at most d are those in
 * [(median - d) / scale, (median + d) / scale]; the value histogram bounds their count from
 * below (buckets wholly inside, one bucket of margin each side) and from above (buckets
 * touching it, one more of margin). So it brackets the MAD's deviation in [d_lo, d_hi] and the
 * deviation the threshold stands for in [t_lo, t_hi], without a histogram of the deviations.
 * One pass then counts the deviations below d_lo and above t_hi and copies out those in the
 * two brackets; the MAD is selected among the first copies, the outliers among the second are
 * tested one by one. The bracket is only a guess: tally__mad_pass_finish checks that the
 * ranks of the MAD fell among the copies and that every deviation below t_lo passes and every
 * one above t_hi fails the very test tally__count_mad_outliers makes (rounding is monotone),
 * and otherwise leaves the MAD to the usual selection. The MAD and the count are then exactly
 * those of tally__outlier_mad and tally__count_mad_outliers. */
#define BRACKET_SHARE 32 /* copies of at most n / 32 samples per bracket */
#define BISECTIONS 64

/* The bucket of v under the histogram's own rule, clamped. */
static size_t value_bucket(const tally__value_hist *h, double v)
{
    double t = (v * 0.5 - h->origin) * h->inv;
    if (!(t > 0))
        return 0;
    return t < (double)(h->buckets - 1) ? (size_t)t : h->buckets - 1;
}

/* Samples in buckets [from, to] (clamped), from the prefix sums. */
static size_t buckets_between(const size_t *prefix, size_t buckets, ptrdiff_t from, ptrdiff_t to)
{
    if (from < 0)
        from = 0;
    if (to > (ptrdiff_t)buckets - 1)
        to = (ptrdiff_t)buckets - 1;
    return to < from ? 0 : prefix[to + 1] - prefix[from];
}

/* At most / at least how many deviations are <= d (one bucket of margin for the rounding). */
static size_t at_most(const tally__mad_pass *p, const size_t *prefix, double d)
{
    const tally__value_hist *h = p->hist;
    ptrdiff_t a = (ptrdiff_t)value_bucket(h, (p->median - d) / p->scale);
    ptrdiff_t b = (ptrdiff_t)value_bucket(h, (p->median + d) / p->scale);
    return buckets_between(prefix, h->buckets, a - 1, b + 1);
}

static size_t at_least(const tally__mad_pass *p, const size_t *prefix, double d)
{
    const tally__value_hist *h = p->hist;
    ptrdiff_t a = (ptrdiff_t)value_bucket(h, (p->median - d) / p->scale);
    ptrdiff_t b = (ptrdiff_t)value_bucket(h, (p->median + d) / p->scale);
    return buckets_between(prefix, h->buckets, a + 2, b - 2);
}

int tally__mad_pass_begin(tally__mad_pass *p, const tally__value_hist *hist, size_t n,
                          const tally__outlier_rule *r, double min, double max, double median,
                          double mad_threshold)
{
    memset(p, 0, sizeof *p);
    p->scale = r->scale;
    p->low_fence = r->low_fence;
    p->high_fence = r->high_fence;
    if (hist == NULL || hist->count == NULL)
        return TALLY_OK;
    p->hist = hist;
    p->n = n;
    p->median = median * r->scale;
    p->threshold = mad_threshold;
    p->nranks = tally__percentile_ranks(p->ranks, n, 50, TALLY_PERCENTILE_LINEAR);
    size_t lo_rank = p->ranks[0], hi_rank = p->ranks[p->nranks - 1];
    /* A failed allocation is reported rather than left to the usual passes: they would
     * allocate as much, and the caller's allocator failing must be seen the same on every
     * path (tests/unit/test_alloc_failure.c fails each allocation in turn). */
    size_t *prefix = tally__reallocarray(NULL, hist->buckets + 1, sizeof *prefix);
    if (prefix == NULL)
        return tally__error(TALLY_ENOMEM, "out of memory for %zu buckets", hist->buckets);
    prefix[0] = 0;
    for (size_t j = 0; j < hist->buckets; j++)
        prefix[j + 1] = prefix[j] + hist->count[j];
    double top = fmax(fabs(min * p->scale - p->median), fabs(max * p->scale - p->median));
    /* d_lo: the largest d with at most lo_rank deviations <= d for sure below it; d_hi: the
     * smallest d with more than hi_rank deviations <= d for sure. */
    double a = 0.0, b = top;
    for (int i = 0; i < BISECTIONS && at_most(p, prefix, 0.0) <= lo_rank; i++) {
        double mid = a + (b - a) * 0.5;
        if (mid == a || mid == b)
            break;
        if (at_most(p, prefix, mid) <= lo_rank)
            a = mid;
        else
            b = mid;
    }
    p->d_lo = a;
    a = 0.0;
    b = top;
    for (int i = 0; i < BISECTIONS; i++) {
        double mid = a + (b - a) * 0.5;
        if (mid == a || mid == b)
            break;
        if (at_least(p, prefix, mid) > hi_rank)
            b = mid;
        else
            a = mid;
    }
    p->d_hi = b;
    tally__free_mem(prefix);
    /* The threshold's deviation is mad_threshold * MAD / MAD_FACTOR, a hair wider. */
    p->t_lo = p->d_lo * (mad_threshold / MAD_FACTOR) * (1 - 0x1p-40);
    p->t_hi = p->d_hi * (mad_threshold / MAD_FACTOR) * (1 + 0x1p-40);
    p->cap = n / BRACKET_SHARE + 16;
    p->mad = tally__reallocarray(NULL, 2 * p->cap, sizeof *p->mad);
    if (p->mad == NULL)
        return tally__error(TALLY_ENOMEM, "out of memory for %zu deviations", 2 * p->cap);
    p->tail = p->mad + p->cap;
    p->on = p->d_lo <= p->d_hi && p->t_hi < INFINITY;
    return TALLY_OK;
}

/* A deviation that falls in a bracket is copied (while its copy has room; the count goes on,
 * and finish gives up on a copy that overflowed). Rare: at most about 2 n / BRACKET_SHARE
 * samples, so a branch on it is nearly always predicted. */
static inline void copy_bracketed(tally__mad_pass *p, size_t *nmad, size_t *ntail, double dev)
{
    if (dev >= p->d_lo && dev <= p->d_hi) {
        if (*nmad < p->cap)
            p->mad[*nmad] = dev;
        ++*nmad;
    }
    if (dev >= p->t_lo && dev <= p->t_hi) {
        if (*ntail < p->cap)
            p->tail[*ntail] = dev;
        ++*ntail;
    }
}

size_t tally__mad_pass_add(tally__mad_pass *p, const double *x, size_t len)
{
    double scale = p->scale, median = p->median, d_lo = p->d_lo, d_hi = p->d_hi;
    double t_lo = p->t_lo, t_hi = p->t_hi, low = p->low_fence, high = p->high_fence;
    size_t below = p->below, above = p->above, nmad = p->nmad, ntail = p->ntail, tukey = 0;
    size_t i = 0;
    if (!p->on)
        return tukey_count(x, len, scale, low, high);
    /* The counts without branches (dev < d_lo alone is a coin toss), the Tukey test on the
     * same scaled sample; only a sample in a bracket takes the branch to be copied, in order. */
#if TALLY__V2D
    const tally__v2d vscale = tally__v2d_splat(scale), vmedian = tally__v2d_splat(median);
    const tally__v2d vd_lo = tally__v2d_splat(d_lo), vd_hi = tally__v2d_splat(d_hi);
    const tally__v2d vt_lo = tally__v2d_splat(t_lo), vt_hi = tally__v2d_splat(t_hi);
    const tally__v2d vlow = tally__v2d_splat(low), vhigh = tally__v2d_splat(high);
    const tally__v2i magnitude = { INT64_MAX, INT64_MAX }; /* fabs: the sign bit cleared */
    tally__v2i vbelow = { 0, 0 }, vabove = { 0, 0 }, vtukey = { 0, 0 };
    for (; len - i >= 2; i += 2) {
        tally__v2d vs = tally__v2d_load(x + i) * vscale;
        tally__v2d dev = (tally__v2d)((tally__v2i)(vs - vmedian) & magnitude);
        /* comparisons give -1 per true element */
        vbelow -= (tally__v2i)(dev < vd_lo);
        vabove -= (tally__v2i)(dev > vt_hi);
        vtukey -= (tally__v2i)((vs < vlow) | (vs > vhigh));
        tally__v2i in = ((dev >= vd_lo) & (dev <= vd_hi)) | ((dev >= vt_lo) & (dev <= vt_hi));
        if (in[0] | in[1]) {
            copy_bracketed(p, &nmad, &ntail, dev[0]);
            copy_bracketed(p, &nmad, &ntail, dev[1]);
        }
    }
    below += (size_t)(vbelow[0] + vbelow[1]);
    above += (size_t)(vabove[0] + vabove[1]);
    tukey += (size_t)(vtukey[0] + vtukey[1]);
#else
    (void)d_hi, (void)t_lo; /* the scalar loop's copy_bracketed reads them from p */
#endif
    for (; i < len; i++) {
        double vs = x[i] * scale, dev = fabs(vs - median);
        below += (size_t)(dev < d_lo);
        above += (size_t)(dev > t_hi);
        tukey += (size_t)((vs < low) | (vs > high));
        copy_bracketed(p, &nmad, &ntail, dev);
    }
    p->below = below;
    p->above = above;
    p->nmad = nmad;
    p->ntail = ntail;
    return tukey;
}

int tally__mad_pass_finish(tally__outlier_rule *r, size_t *count, tally__mad_pass *p)
{
    size_t local[2];
    double v[2];
    if (!p->on || p->nmad > p->cap || p->ntail > p->cap)
        return 0;
    for (size_t i = 0; i < p->nranks; i++) {
        if (p->ranks[i] < p->below || p->ranks[i] - p->below >= p->nmad)
            return 0;
        local[i] = p->ranks[i] - p->below;
    }
    if (tally__select_values(v, p->mad, p->nmad, local, p->nranks) != TALLY_OK)
        return 0;
    double mad = tally__percentile_from(v, p->n, 50, TALLY_PERCENTILE_LINEAR);
    if (!(mad > 0))
        return 0; /* the mean absolute deviation stands in: the usual passes */
    tally__outlier_set_mad(r, p->median, mad, 0.0, p->threshold);
    double per_unit = r->score_per_unit, threshold = r->threshold;
    if (!(p->t_lo * per_unit <= threshold) || !(p->t_hi * per_unit > threshold))
        return 0;
    size_t c = p->above;
    for (size_t i = 0; i < p->ntail; i++)
        c += (size_t)(p->tail[i] * per_unit > threshold);
    *count = c;
    return 1;
}

void tally__mad_pass_free(tally__mad_pass *p)
{
    tally__free_mem(p->mad);
    p->mad = p->tail = NULL;
    p->on = 0;
}
