/* Means and standard deviations in two passes over the samples: the extremes and every sum
 * first, then both SDs. Sums are compensated (Neumaier) and the variance is two-pass with the
 * correction term of NIST/GSL, which keeps NumAcc4-style data (nine constant leading digits)
 * exact to the last bits. Inputs near DBL_MAX are scaled by a power of two first, so no
 * intermediate sum overflows. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "util/internal.h"
#include "stats/stats_internal.h"
#include "stats/moments_impl.h"


/* Finite check by one comparison per sample, which vectorises: v - v is 0 for every finite v
 * and NaN for NaN and the infinities. Only a failing input is scanned again, for its message. */
static int all_finite(const double *x, size_t n)
{
    int bad = 0;
    for (size_t i = 0; i < n; i++)
        bad |= !(x[i] - x[i] == 0);
    return !bad;
}

int tally__check_samples(const double *x, size_t n)
{
    if (n == 0)
        return tally__error(TALLY_ENODATA, "no samples");
    if (!x)
        return tally__error(TALLY_EINVAL, "samples pointer is NULL");
    if (all_finite(x, n))
        return TALLY_OK;
    for (size_t i = 0; i < n; i++) {
        if (isnan(x[i]))
            return tally__error(TALLY_ENONFINITE, "sample %zu is NaN", i + 1);
        if (isinf(x[i]))
            return tally__error(TALLY_ENONFINITE, "sample %zu is %sinfinite", i + 1,
                                x[i] < 0 ? "negative " : "");
    }
    return TALLY_OK;
}

int tally__sample_range(double *min, double *max, const double *x, size_t n)
{
    if (n == 0 || !x)
        return tally__check_samples(x, n);
    double lo = x[0], hi = x[0];
    int bad = 0;
    for (size_t i = 0; i < n; i++) {
        double v = x[i];
        bad |= !(v - v == 0);
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
    }
    if (bad)
        return tally__check_samples(x, n);
    *min = lo;
    *max = hi;
    return TALLY_OK;
}

double tally__overflow_scale(double maxabs)
{
    int e;
    /* Below 2^1000 even a sum of 2^20 samples or a difference of two samples stays finite. */
    if (!(maxabs > 0x1p1000))
        return 1.0;
    frexp(maxabs, &e);
    return ldexp(1.0, -e);
}

double tally__scaled_sum(const double *x, size_t n, double scale)
{
    tally__ksum k = { 0.0, 0.0 };
    for (size_t i = 0; i < n; i++)
        tally__ksum_add(&k, x[i] * scale);
    return tally__ksum_value(&k);
}

/* The mean of the mapped values of x, scaled and clamped like the first pass below (a separate
 * loop: only the rare callers need it). */
double tally__mapped_mean(const double *x, size_t n, const tally__value_map *map)
{
    double lo = tally__map_value(map, x[0]), hi = lo;
    for (size_t i = 1; i < n; i++) {
        double v = tally__map_value(map, x[i]);
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
    }
    double s = tally__overflow_scale(fmax(fabs(lo), fabs(hi)));
    tally__ksum k = { 0.0, 0.0 };
    for (size_t i = 0; i < n; i++)
        tally__ksum_add(&k, tally__map_value(map, x[i]) * s);
    return tally__clamp(tally__ksum_value(&k) / (double)n / s, lo, hi);
}

double tally__mean(const double *x, size_t n)
{
    static const tally__value_map identity = TALLY__IDENTITY_MAP;
    return tally__mapped_mean(x, n, &identity);
}

/* The first pass: the extremes, the compensated sums of x and 1/x and the product behind the
 * geometric mean; the last two are only meaningful when every sample turns out positive
 * (non-positive samples are skipped). */
typedef struct sums {
    double min, max;
    tally__ksum x, recip;
    tally__product logs;
    int finite;
} sums;

static void first_pass(sums *f, const double *x, size_t n)
{
    double lo = x[0], hi = x[0];
    tally__ksum sx = { 0.0, 0.0 }, sr = { 0.0, 0.0 };
    tally__product sl = { 1.0, 0, 0 };
    int bad = 0;
    for (size_t i = 0; i < n; i++) {
        double v = x[i];
        bad |= !(v - v == 0); /* NaN or infinite: see all_finite */
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
        tally__ksum_add(&sx, v);
        if (v > 0) {
            tally__ksum_add(&sr, 1.0 / v);
            tally__product_add(&sl, v);
        }
    }
    f->finite = !bad;
    f->min = lo;
    f->max = hi;
    f->x = sx;
    f->recip = sr;
    f->logs = sl;
}

/* sum(t / x_i): the reciprocals scaled by a power of two t near the smallest sample lie in
 * (0, 1], so neither 1/x of a subnormal nor the sum can overflow. Scaling by a power of two
 * commutes with rounding, so for t = 1 this is the first pass's sum. */
static double reciprocal_sum(const double *x, size_t n, double t)
{
    tally__ksum k = { 0.0, 0.0 };
    for (size_t i = 0; i < n; i++)
        tally__ksum_add(&k, t / x[i]);
    return tally__ksum_value(&k);
}

int tally__compute_moments(tally__moments *m, const double *x, size_t n)
{
    sums f;
    int rc;

    if (n == 0 || !x)
        return tally__check_samples(x, n);
    first_pass(&f, x, n);
    if (!f.finite)
        return (rc = tally__check_samples(x, n)) != TALLY_OK ? rc : TALLY_EINVAL;
    m->min = f.min;
    m->max = f.max;
    double s = tally__overflow_scale(fmax(fabs(f.min), fabs(f.max)));
    double sum_s = s == 1.0 ? tally__ksum_value(&f.x) : tally__scaled_sum(x, n, s);
    /* Clamping keeps identical samples exact: their mean is the value, their deviations 0. */
    double mean_s = tally__clamp(sum_s / (double)n, f.min * s, f.max * s);
    m->amean = tally__clamp(mean_s / s, f.min, f.max);

    m->positive = f.min > 0;
    m->hmean = m->gmean = m->hstddev = m->stddev = 0.0;
    m->has_hstddev = m->has_stddev = 0;
    double t = 1.0, mean_r = 0.0, h_over_t = 0.0;
    if (m->positive) {
        double sum_r = tally__ksum_value(&f.recip);
        if (f.min < 0x1p-900) {
            int e;
            frexp(f.min, &e);
            t = ldexp(1.0, e - 1);
            sum_r = reciprocal_sum(x, n, t);
        }
        h_over_t = (double)n / sum_r;
        m->hmean = tally__clamp(h_over_t * t, f.min, f.max);
        m->gmean = tally__clamp(exp(tally__product_mean_log(&f.logs, n)), f.min, f.max);
        mean_r = tally__clamp(sum_r / (double)n, t / f.max, t / f.min);
    }
    if (n < 2)
        return TALLY_OK;

    /* The second pass: the SD of x and, for positive samples, the population SD of t / x. */
    tally__spread a, h;
    tally__spread_init(&a, mean_s, f.min * s - mean_s, f.max * s - mean_s);
    if (m->positive) {
        tally__spread_init(&h, mean_r, t / f.min - mean_r, t / f.max - mean_r);
        for (size_t i = 0; i < n; i++) {
            tally__spread_add(&a, x[i] * s);
            tally__spread_add(&h, t / x[i]);
        }
    } else {
        for (size_t i = 0; i < n; i++)
            tally__spread_add(&a, x[i] * s);
    }
    double sd = tally__spread_sd(&a, n, (double)(n - 1)) / s;
    if (isfinite(sd)) {
        m->stddev = sd;
        m->has_stddev = 1;
    }
    if (m->positive) {
        /* mmtests: sqrt(sum((1/x - 1/H)^2) * H^4 / n) = H^2 * (population SD of 1/x). With the
         * scaled reciprocals r = t/x this is H * (H/t) * (population SD of r). */
        double hsd = m->hmean * h_over_t * tally__spread_sd(&h, n, (double)n);
        if (isfinite(hsd)) {
            m->hstddev = hsd;
            m->has_hstddev = 1;
        }
    }
    return TALLY_OK;
}

int tally_amean(double *out, const double *x, size_t n)
{
    int rc;
    if (!out)
        return tally__error(TALLY_EINVAL, "output pointer is NULL");
    if ((rc = tally__check_samples(x, n)) != TALLY_OK)
        return rc;
    *out = tally__mean(x, n);
    return TALLY_OK;
}

static int positive_mean(double *out, const double *x, size_t n, int geometric)
{
    int rc;
    tally__moments m;
    if (!out)
        return tally__error(TALLY_EINVAL, "output pointer is NULL");
    if ((rc = tally__compute_moments(&m, x, n)) != TALLY_OK)
        return rc;
    if (!m.positive) {
        size_t i = 0;
        while (x[i] > 0)
            i++;
        return tally__error(TALLY_EDOMAIN, "%s mean needs samples > 0; sample %zu is %g",
                            geometric ? "geometric" : "harmonic", i + 1, x[i]);
    }
    *out = geometric ? m.gmean : m.hmean;
    return TALLY_OK;
}

int tally_hmean(double *out, const double *x, size_t n)
{
    return positive_mean(out, x, n, 0);
}

int tally_gmean(double *out, const double *x, size_t n)
{
    return positive_mean(out, x, n, 1);
}

int tally_stddev(double *out, const double *x, size_t n)
{
    int rc;
    tally__moments m;
    if (!out)
        return tally__error(TALLY_EINVAL, "output pointer is NULL");
    if ((rc = tally__check_samples(x, n)) != TALLY_OK)
        return rc;
    if (n < 2)
        return tally__error(TALLY_ENODATA, "standard deviation needs at least 2 samples, got %zu",
                            n);
    if ((rc = tally__compute_moments(&m, x, n)) != TALLY_OK)
        return rc;
    if (!m.has_stddev)
        return tally__error(TALLY_ENUMERIC, "standard deviation exceeds the double range");
    *out = m.stddev;
    return TALLY_OK;
}
