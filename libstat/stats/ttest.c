/*
 * Welch's and Student's two-sample t-tests (two-sided).
 *
 * Welch, B. L. (1947), "The generalization of 'Student's' problem when several different
 * population variances are involved", Biometrika 34, 28-35; df after Satterthwaite (1946).
 * Formulas, conventions and references: docs/statistics.md.
 */
#include <math.h>

#include <gsl/gsl_cdf.h>

#include "stats/compare_impl.h"
#include "stats/moments_impl.h"
#include "stats/stats_internal.h"
#include "util/internal.h"

int tally__t_two_sided_p(double *p, double t, double df)
{
    tally__ensure_init();
    if (!(df > 0) || isnan(t))
        return tally__error(TALLY_ENUMERIC, "t distribution: invalid t = %g or df = %g", t, df);
    /* The upper tail at |t| is the smaller tail; doubling it keeps tiny p-values exact in
     * relative terms, where 1 - P(|t|) would round to 0 below about 1e-16. */
    double q = gsl_cdf_tdist_Q(fabs(t), df);
    if (!isfinite(q) || q < 0)
        return tally__error(TALLY_ENUMERIC, "t distribution failed for t = %g, df = %g", t, df);
    *p = fmin(1.0, 2.0 * q);
    return TALLY_OK;
}

/* Both samples constant: the standard error is 0 and t is +-inf (means differ) or 0/0 (equal).
 * JSON cannot carry an infinity, so t is reported as 0 and p decides: a deterministic difference
 * is as significant as it gets (p = 0), no difference at all is p = 1. The same outcome stands in
 * when t overflows because the standard error underflowed. */
static void deterministic(tally__ttest *out, double diff, double df)
{
    out->t = 0;
    out->df = df;
    out->p = diff != 0 ? 0.0 : 1.0;
    out->zero_variance = 1;
}

static int need_two(const tally__test_moments *a, const tally__test_moments *b)
{
    if (a->n < 2 || b->n < 2)
        return tally__error(TALLY_ENODATA,
                            "a t-test needs at least 2 samples on each side (got %zu and %zu)",
                            a->n, b->n);
    return TALLY_OK;
}

static double sd_of(const tally__test_moments *m)
{
    return m->constant ? 0.0 : m->sd;
}

/* t = (mean_a - mean_b) / se. Standard errors are built with hypot() from SDs, never from squared
 * SDs, and a difference of means beyond the double range is divided term by term, so samples of
 * any finite magnitude give a finite t or the deterministic case. */
static int finish(tally__ttest *out, const tally__test_moments *a, const tally__test_moments *b,
                  double se, double df)
{
    out->zero_variance = 0;
    /* Around a shared pivot the difference of the centred means keeps its digits. */
    double diff = a->pivoted && b->pivoted ? a->centred - b->centred : a->mean - b->mean;
    if (se == 0) {
        deterministic(out, diff, df);
        return TALLY_OK;
    }
    double t = isfinite(diff) ? diff / se : a->mean / se - b->mean / se;
    if (!isfinite(t)) {
        deterministic(out, diff, df);
        return TALLY_OK;
    }
    out->t = t;
    out->df = df;
    return tally__t_two_sided_p(&out->p, t, df);
}

int tally__welch_moments(tally__ttest *out, const tally__test_moments *a,
                         const tally__test_moments *b)
{
    int rc = need_two(a, b);
    if (rc)
        return rc;
    double na = (double)a->n, nb = (double)b->n;
    double ea = sd_of(a) / sqrt(na), eb = sd_of(b) / sqrt(nb); /* standard errors of the means */
    double se = hypot(ea, eb);
    double df = na + nb - 2;
    if (se > 0) {
        /* Welch-Satterthwaite df = se^4 / (ea^4/(na-1) + eb^4/(nb-1)), written with the shares
         * (ea/se)^2 and (eb/se)^2 in [0, 1] so that neither tiny nor huge SDs under- or
         * overflow. */
        double ra = (ea / se) * (ea / se), rb = (eb / se) * (eb / se);
        df = 1.0 / (ra * ra / (na - 1) + rb * rb / (nb - 1));
    }
    return finish(out, a, b, se, df);
}

int tally__student_moments(tally__ttest *out, const tally__test_moments *a,
                           const tally__test_moments *b)
{
    int rc = need_two(a, b);
    if (rc)
        return rc;
    double na = (double)a->n, nb = (double)b->n;
    double df = na + nb - 2;
    /* pooled SD = sqrt(((na-1) sa^2 + (nb-1) sb^2) / df), as a hypot of scaled SDs */
    double pooled = hypot(sd_of(a) * sqrt((na - 1) / df), sd_of(b) * sqrt((nb - 1) / df));
    double se = pooled * sqrt(1.0 / na + 1.0 / nb);
    return finish(out, a, b, se, df);
}

/* Moments of both raw samples around the first sample of a (docs/statistics.md, "Moments
 * around a pivot"), scaled by a power of two when the samples come near the double range. */
static int sample_moments(tally__test_moments *ma, tally__test_moments *mb, const double *a,
                          size_t na, const double *b, size_t nb)
{
    if (na < 2 || nb < 2)
        return tally__error(TALLY_ENODATA,
                            "a t-test needs at least 2 samples on each side (got %zu and %zu)",
                            na, nb);
    double lo_a, hi_a, lo_b, hi_b;
    int rc = tally__sample_range(&lo_a, &hi_a, a, na);
    if (rc == TALLY_OK)
        rc = tally__sample_range(&lo_b, &hi_b, b, nb);
    if (rc)
        return rc;
    double maxabs = fmax(fmax(fabs(lo_a), fabs(hi_a)), fmax(fabs(lo_b), fabs(hi_b)));
    double mul = tally__overflow_scale(maxabs);
    tally__pivot_moments(ma, a, na, TALLY__SCALE_X, a[0], mul);
    tally__pivot_moments(mb, b, nb, TALLY__SCALE_X, a[0], mul);
    return TALLY_OK;
}

typedef int (*moments_test)(tally__ttest *, const tally__test_moments *,
                            const tally__test_moments *);

static int run(moments_test test, double *t, double *df, double *p, const double *a, size_t na,
               const double *b, size_t nb)
{
    if (t == NULL || df == NULL || p == NULL || (a == NULL && na) || (b == NULL && nb))
        return tally__error(TALLY_EINVAL, "t-test: NULL argument");
    tally__test_moments ma, mb;
    int rc = sample_moments(&ma, &mb, a, na, b, nb);
    if (rc)
        return rc;
    tally__ttest r;
    rc = test(&r, &ma, &mb);
    if (rc)
        return rc;
    *t = r.t;
    *df = r.df;
    *p = r.p;
    return TALLY_OK;
}

int tally_welch_test(double *t, double *df, double *p, const double *a, size_t na,
                     const double *b, size_t nb)
{
    return run(tally__welch_moments, t, df, p, a, na, b, nb);
}

int tally_student_test(double *t, double *df, double *p, const double *a, size_t na,
                       const double *b, size_t nb)
{
    return run(tally__student_moments, t, df, p, a, na, b, nb);
}

/* Value of sample x on a scale, times mul. */
TALLY__SPECIALISED double on_scale(double x, tally__scale scale, double mul)
{
    switch (scale) {
    case TALLY__SCALE_RECIPROCAL: return mul / x;
    case TALLY__SCALE_LOG: return log(x) * mul;
    case TALLY__SCALE_X: break;
    }
    return x * mul;
}

/* The two passes on one scale; inlined once per scale (a constant there), so that the switch of
 * on_scale leaves the loops. The first pass checks whether every sample equals the first,
 * takes the extremes of the values and their compensated sum around the pivot p; the second
 * the corrected two-pass SD of the centred values (moments_impl.h), each deviation scaled by a
 * power of two near the largest one, which is that of the smallest or the largest value
 * (y - p - centred rounds monotonically in y): no pass of its own, and no square overflows or
 * underflows. Both passes run in lanes (tally__ksum_lanes). */
#if TALLY__V2D
/* on_scale of two samples, element by element. */
TALLY__SPECIALISED tally__v2d on_scale_v2(tally__v2d x, tally__scale scale, tally__v2d mul)
{
    switch (scale) {
    case TALLY__SCALE_RECIPROCAL: return mul / x;
    case TALLY__SCALE_LOG: return (tally__v2d){ log(x[0]), log(x[1]) } * mul;
    case TALLY__SCALE_X: break;
    }
    return x * mul;
}
#endif

/* known (a constant in each copy): the extremes of x are given, as [known_lo, known_hi], and the
 * first pass only sums (on the x scale alone: y = x * mul, a power of two, is monotone in x, so
 * the extremes of y are those of x times mul, and every sample equals the first exactly when
 * the extremes are equal). */
TALLY__SPECIALISED void pivot_scan(tally__test_moments *m, const double *x, size_t n,
                                   tally__scale scale, double p, double mul, int known,
                                   double known_lo, double known_hi)
{
    double first = x[0], y0 = on_scale(first, scale, mul);
    double lo[TALLY__LANES], hi[TALLY__LANES];
    int differ = 0;
    size_t at = 0;
    tally__ksum_lanes sum = TALLY__KSUM_LANES_INIT;
    for (size_t j = 0; j < TALLY__LANES; j++)
        lo[j] = hi[j] = y0;
#if TALLY__V2D
    const tally__v2d firstv = tally__v2d_splat(first), mulv = tally__v2d_splat(mul),
                     pv = tally__v2d_splat(p);
    tally__v2d vlo[2] = { tally__v2d_splat(y0), tally__v2d_splat(y0) }, vhi[2] = { vlo[0], vlo[1] };
    tally__v2i vdiffer = { 0, 0 };
    tally__ksum_v2 vsum = tally__v2_from_lanes(&sum);
    if (known) {
        TALLY__V2_GROUPS(x, at, n, h, v, tally__v2_add(&vsum, h, on_scale_v2(v, scale, mulv) - pv));
    } else {
        TALLY__V2_GROUPS(x, at, n, h, v, tally__v2d y = on_scale_v2(v, scale, mulv);
                         vdiffer |= (tally__v2i)(v != firstv); vlo[h] = tally__v2d_min(y, vlo[h]);
                         vhi[h] = tally__v2d_max(y, vhi[h]); tally__v2_add(&vsum, h, y - pv));
    }
    differ = (vdiffer[0] | vdiffer[1]) != 0;
    for (size_t h = 0; h < 2; h++) {
        tally__v2d_store(lo + 2 * h, vlo[h]);
        tally__v2d_store(hi + 2 * h, vhi[h]);
    }
    tally__v2_to_lanes(&sum, &vsum);
#endif
    if (known) {
        TALLY__LANE_SCAN_FROM(x, at, n, j, v,
                              tally__lanes_add(&sum, j, on_scale(v, scale, mul) - p));
    } else {
        TALLY__LANE_SCAN_FROM(x, at, n, j, v, double y = on_scale(v, scale, mul);
                              differ |= v != first; lo[j] = y < lo[j] ? y : lo[j];
                              hi[j] = y > hi[j] ? y : hi[j]; tally__lanes_add(&sum, j, y - p));
    }
    if (known) {
        differ = known_lo != known_hi;
        for (size_t j = 0; j < TALLY__LANES; j++) {
            lo[j] = known_lo * mul;
            hi[j] = known_hi * mul;
        }
    }
    m->n = n;
    m->pivoted = 1;
    m->constant = !differ;
    tally__ksum total = tally__lanes_total(&sum);
    double centred = m->constant ? y0 - p : tally__ksum_value(&total) / (double)n;
    m->centred = centred;
    m->mean = p + centred;
    m->sd = 0;
    if (m->constant || n < 2)
        return;
    double ylo = lo[0], yhi = hi[0];
    for (size_t j = 1; j < TALLY__LANES; j++) {
        ylo = fmin(ylo, lo[j]);
        yhi = fmax(yhi, hi[j]);
    }
    tally__spread a;
    tally__spread_init(&a, centred, ylo - p - centred, yhi - p - centred);
    at = 0;
#if TALLY__V2D
    tally__spread_v2 va = tally__spread_v2_from(&a);
    TALLY__V2_GROUPS(x, at, n, h, v, tally__spread_v2_add(&va, h, on_scale_v2(v, scale, mulv) - pv));
    tally__spread_v2_to(&a, &va);
#endif
    TALLY__LANE_SCAN_FROM(x, at, n, j, v, tally__spread_add(&a, j, on_scale(v, scale, mul) - p));
    m->sd = tally__spread_sd(&a, n, (double)(n - 1));
}

void tally__pivot_moments(tally__test_moments *m, const double *x, size_t n, tally__scale scale,
                          double pivot, double mul)
{
    double p = on_scale(pivot, scale, mul);
    switch (scale) {
    case TALLY__SCALE_RECIPROCAL:
        pivot_scan(m, x, n, TALLY__SCALE_RECIPROCAL, p, mul, 0, 0.0, 0.0);
        return;
    case TALLY__SCALE_LOG:
        pivot_scan(m, x, n, TALLY__SCALE_LOG, p, mul, 0, 0.0, 0.0);
        return;
    case TALLY__SCALE_X:
        break;
    }
    pivot_scan(m, x, n, TALLY__SCALE_X, p, mul, 0, 0.0, 0.0);
}

void tally__pivot_moments_x(tally__test_moments *m, const double *x, size_t n, double pivot,
                            double mul, double min, double max)
{
    pivot_scan(m, x, n, TALLY__SCALE_X, pivot * mul, mul, 1, min, max);
}
