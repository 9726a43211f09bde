/* Means and standard deviations. Sums are compensated (Neumaier) and the variance is two-pass
 * with the correction term of NIST/GSL, which keeps NumAcc4-style data (nine constant leading
 * digits) exact to the last bits. Inputs near DBL_MAX are scaled by a power of two first, so no
 * intermediate sum overflows. */
#include <float.h>
#include <math.h>

#include "internal.h"
#include "stats_internal.h"

typedef struct ksum {
    double sum, comp;
} ksum;

static void ksum_add(ksum *k, double v)
{
    double t = k->sum + v;
    if (fabs(k->sum) >= fabs(v))
        k->comp += (k->sum - t) + v;
    else
        k->comp += (v - t) + k->sum;
    k->sum = t;
}

static double ksum_value(const ksum *k)
{
    return k->sum + k->comp;
}

static double clamp(double v, double lo, double hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

int tally__check_samples(const double *x, size_t n)
{
    if (n == 0)
        return tally__error(TALLY_ENODATA, "no samples");
    if (!x)
        return tally__error(TALLY_EINVAL, "samples pointer is NULL");
    for (size_t i = 0; i < n; i++) {
        if (isnan(x[i]))
            return tally__error(TALLY_ENONFINITE, "sample %zu is NaN", i + 1);
        if (isinf(x[i]))
            return tally__error(TALLY_ENONFINITE, "sample %zu is %sinfinite", i + 1,
                                x[i] < 0 ? "negative " : "");
    }
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
    ksum k = { 0.0, 0.0 };
    for (size_t i = 0; i < n; i++)
        ksum_add(&k, x[i] * scale);
    return ksum_value(&k);
}

static void min_max(const double *x, size_t n, double *min, double *max)
{
    double lo = x[0], hi = x[0];
    for (size_t i = 1; i < n; i++) {
        if (x[i] < lo)
            lo = x[i];
        if (x[i] > hi)
            hi = x[i];
    }
    *min = lo;
    *max = hi;
}

double tally__max_magnitude(const double *x, size_t n)
{
    double lo, hi;
    min_max(x, n, &lo, &hi);
    return fmax(fabs(lo), fabs(hi));
}

double tally__mean(const double *x, size_t n)
{
    double lo, hi, s;
    min_max(x, n, &lo, &hi);
    s = tally__overflow_scale(fmax(fabs(lo), fabs(hi)));
    return clamp(tally__scaled_sum(x, n, s) / (double)n / s, lo, hi);
}

/* sqrt((sum (v_i - centre)^2 - (sum (v_i - centre))^2 / n) / divisor) over v_i = x_i * f (or
 * f / x_i when `reciprocal`): the two-pass sum of squares with the correction term that cancels
 * the rounding error of `centre` (NIST; GSL's gsl_stats_variance), as a standard deviation. The deviations are
 * scaled by a power of two near the largest one before squaring, so that squares of deviations
 * near 1e200 do not overflow and those near 1e-200 do not underflow. */
static double corrected_sd(const double *x, size_t n, double f, int reciprocal, double centre,
                           double divisor)
{
    double dmax = 0.0;
    for (size_t i = 0; i < n; i++)
        dmax = fmax(dmax, fabs((reciprocal ? f / x[i] : x[i] * f) - centre));
    if (dmax == 0.0)
        return 0.0;
    int e;
    frexp(dmax, &e);
    /* Multiplying by 2^-e is exact; outside this range 2^-e itself is not a normal double. */
    int direct = e > -1000 && e < 1000;
    double u = direct ? ldexp(1.0, -e) : 1.0;
    ksum squares = { 0.0, 0.0 };
    double deviations = 0.0;
    for (size_t i = 0; i < n; i++) {
        double d = (reciprocal ? f / x[i] : x[i] * f) - centre;
        d = direct ? d * u : ldexp(d, -e);
        ksum_add(&squares, d * d);
        deviations += d;
    }
    double v = (ksum_value(&squares) - deviations * deviations / (double)n) / divisor;
    return ldexp(sqrt(v > 0 ? v : 0.0), e);
}

/* min, max, amean and the sample SD. */
static void arithmetic_moments(tally__moments *m, const double *x, size_t n)
{
    double s, mean_s;

    min_max(x, n, &m->min, &m->max);
    s = tally__overflow_scale(fmax(fabs(m->min), fabs(m->max)));
    /* Clamping keeps identical samples exact: their mean is the value, their deviations 0. */
    mean_s = clamp(tally__scaled_sum(x, n, s) / (double)n, m->min * s, m->max * s);
    m->amean = clamp(mean_s / s, m->min, m->max);

    m->has_stddev = 0;
    m->stddev = 0.0;
    if (n >= 2) {
        double sd = corrected_sd(x, n, s, 0, mean_s, (double)(n - 1)) / s;
        if (isfinite(sd)) {
            m->stddev = sd;
            m->has_stddev = 1;
        }
    }
}

/* Harmonic mean, harmonic SD and geometric mean of positive samples (m->min, m->max set). The
 * reciprocals are taken as t / x with t a power of two near the smallest sample, so they lie in
 * (0, 1] and neither 1/x of a subnormal nor the sum can overflow; H = t * n / sum(t / x). */
static void positive_moments(tally__moments *m, const double *x, size_t n)
{
    int e;
    ksum recip = { 0.0, 0.0 }, logs = { 0.0, 0.0 };

    frexp(m->min, &e);
    double t = ldexp(1.0, e - 1);
    for (size_t i = 0; i < n; i++) {
        ksum_add(&recip, t / x[i]);
        ksum_add(&logs, log(x[i]));
    }
    double sum_r = ksum_value(&recip);
    double h_over_t = (double)n / sum_r;
    m->hmean = clamp(h_over_t * t, m->min, m->max);
    m->gmean = clamp(exp(ksum_value(&logs) / (double)n), m->min, m->max);

    m->has_hstddev = 0;
    m->hstddev = 0.0;
    if (n >= 2) {
        /* mmtests: sqrt(sum((1/x - 1/H)^2) * H^4 / n) = H^2 * (population SD of 1/x). With the
         * scaled reciprocals r = t/x this is H * (H/t) * (population SD of r). */
        double mean_r = clamp(sum_r / (double)n, t / m->max, t / m->min);
        double hsd = m->hmean * h_over_t * corrected_sd(x, n, t, 1, mean_r, (double)n);
        if (isfinite(hsd)) {
            m->hstddev = hsd;
            m->has_hstddev = 1;
        }
    }
}

void tally__compute_moments(tally__moments *m, const double *x, size_t n)
{
    arithmetic_moments(m, x, n);
    m->positive = m->min > 0;
    m->hmean = m->gmean = m->hstddev = 0.0;
    m->has_hstddev = 0;
    if (m->positive)
        positive_moments(m, x, n);
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
    if ((rc = tally__check_samples(x, n)) != TALLY_OK)
        return rc;
    for (size_t i = 0; i < n; i++)
        if (!(x[i] > 0))
            return tally__error(TALLY_EDOMAIN, "%s mean needs samples > 0; sample %zu is %g",
                                geometric ? "geometric" : "harmonic", i + 1, x[i]);
    min_max(x, n, &m.min, &m.max);
    positive_moments(&m, x, n);
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
    arithmetic_moments(&m, x, n);
    if (!m.has_stddev)
        return tally__error(TALLY_ENUMERIC, "standard deviation exceeds the double range");
    *out = m.stddev;
    return TALLY_OK;
}
