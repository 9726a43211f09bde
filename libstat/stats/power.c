/*
 * Power of the two-sided t and z tests: the noncentral t distribution, the minimum detectable
 * effect and the runs per side a target effect needs (docs/statistics.md, "Power").
 *
 * GSL has no noncentral t distribution. tally__nct_cdf follows Lenth, R. V. (1989), "Algorithm
 * AS 243: Cumulative distribution function of the non-central t distribution", Applied
 * Statistics 38, 185-189: P(T <= t) as Phi(-delta) plus a series of incomplete beta functions
 * weighted by the Poisson terms of delta^2 / 2, summed until the series' own error bound falls
 * below 1e-12.
 */
#include <math.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sf_gamma.h>

#include "stats/compare_impl.h"
#include "util/internal.h"

#define NCT_ERRMAX 1e-12
#define NCT_ITRMAX 5000

int tally__nct_cdf(double *out, double t, double df, double delta)
{
    tally__ensure_init();
    if (!(df > 0) || isnan(t) || !isfinite(delta))
        return tally__error(TALLY_ENUMERIC, "noncentral t: invalid t = %g, df = %g, ncp = %g", t,
                            df, delta);
    if (isinf(t)) {
        *out = t > 0 ? 1.0 : 0.0;
        return TALLY_OK;
    }
    double tt = t, del = delta;
    int negdel = 0;
    if (t < 0) {
        negdel = 1;
        tt = -tt;
        del = -del;
    }
    double sum = 0;
    double x = tt * tt / (tt * tt + df);
    if (x > 0) {
        double lambda = del * del;
        double p = 0.5 * exp(-0.5 * lambda);
        double q = 0.79788456080286535588 * p * del; /* sqrt(2 / pi) */
        double s = 0.5 - p;
        double a = 0.5, b = 0.5 * df;
        double rxb = pow(1 - x, b);
        double albeta = gsl_sf_lngamma(a) + gsl_sf_lngamma(b) - gsl_sf_lngamma(a + b);
        gsl_sf_result ib;
        if (gsl_sf_beta_inc_e(a, b, x, &ib) != 0)
            return tally__error(TALLY_ENUMERIC, "noncentral t: incomplete beta failed at x = %g",
                                x);
        double xodd = ib.val;
        double godd = 2 * rxb * exp(a * log(x) - albeta);
        double xeven = 1 - rxb;
        double geven = b * x * rxb;
        sum = p * xodd + q * xeven;
        for (int en = 1; en <= NCT_ITRMAX; en++) {
            a += 1;
            xodd -= godd;
            xeven -= geven;
            godd *= x * (a + b - 1) / a;
            geven *= x * (a + b - 0.5) / (a + 0.5);
            p *= lambda / (2.0 * en);
            q *= lambda / (2.0 * en + 1);
            s -= p;
            sum += p * xodd + q * xeven;
            double errbd = 2 * s * (xodd - godd);
            if (fabs(errbd) <= NCT_ERRMAX && en > 1)
                break;
            if (en == NCT_ITRMAX)
                return tally__error(TALLY_ENUMERIC, "noncentral t: no convergence for t = %g, "
                                                    "df = %g, ncp = %g", t, df, delta);
        }
    }
    sum += gsl_cdf_ugaussian_Q(del);
    if (negdel)
        sum = 1 - sum;
    *out = tally__clamp_unit(sum);
    return TALLY_OK;
}

/* Power of the two-sided level-alpha test whose statistic has noncentrality ncp: with a finite
 * df the t test (both tails of the noncentral t beyond the central t's critical value), with an
 * infinite df the z test. */
int tally__two_sided_power(double *out, double ncp, double df, double alpha)
{
    tally__ensure_init();
    if (isinf(df)) {
        double z = gsl_cdf_ugaussian_Qinv(alpha / 2);
        *out = gsl_cdf_ugaussian_Q(z - ncp) + gsl_cdf_ugaussian_P(-z - ncp);
        return TALLY_OK;
    }
    double tc = gsl_cdf_tdist_Qinv(alpha / 2, df);
    double upper, lower;
    int rc = tally__nct_cdf(&upper, tc, df, ncp);
    if (rc == TALLY_OK)
        rc = tally__nct_cdf(&lower, -tc, df, ncp);
    if (rc)
        return rc;
    *out = tally__clamp_unit(1 - upper + lower);
    return TALLY_OK;
}

int tally__mde_ncp(double *out, double df, double alpha, double power)
{
    tally__ensure_init();
    /* Secant steps from the normal approximation z(1 - alpha/2) + z(power), which is close for
     * any df; power grows with the noncentrality, so a bracketing bisection takes over should a
     * step leave the bracket. */
    double x0 = gsl_cdf_ugaussian_Qinv(alpha / 2) + gsl_cdf_ugaussian_Pinv(power);
    if (!(x0 > 0))
        x0 = 0.5;
    double x1 = x0 * 1.05, f0, f1;
    int rc = tally__two_sided_power(&f0, x0, df, alpha);
    if (rc == TALLY_OK)
        rc = tally__two_sided_power(&f1, x1, df, alpha);
    if (rc)
        return rc;
    f0 -= power;
    f1 -= power;
    double lo = 0, hi = INFINITY; /* bracket: power(lo) < target <= power(hi) */
    for (int k = 0; k < 200; k++) {
        if (f0 < 0 && x0 > lo) lo = x0;
        if (f0 >= 0 && x0 < hi) hi = x0;
        if (f1 < 0 && x1 > lo) lo = x1;
        if (f1 >= 0 && x1 < hi) hi = x1;
        if (fabs(x1 - x0) <= 1e-12 * x1 || f1 == 0)
            break;
        double x2 = f1 != f0 ? x1 - f1 * (x1 - x0) / (f1 - f0) : NAN;
        if (!(x2 > lo && x2 < hi))
            x2 = isinf(hi) ? 2 * (lo > 0 ? lo : x1) : 0.5 * (lo + hi);
        if (x2 > 1e6)
            return tally__error(TALLY_ENUMERIC, "power %g not reached with df %g", power, df);
        x0 = x1;
        f0 = f1;
        x1 = x2;
        rc = tally__two_sided_power(&f1, x1, df, alpha);
        if (rc)
            return rc;
        f1 -= power;
    }
    *out = x1;
    return TALLY_OK;
}

/* The standard error and df of the difference with n runs on each side, from per-run variances
 * vb and vc (df infinite for the z-based median test). */
static void se_with(double *se, double *df, double vb, double vc, double n, int normal)
{
    *se = sqrt((vb + vc) / n);
    if (normal) {
        *df = INFINITY;
        return;
    }
    double den = vb * vb + vc * vc;
    *df = den > 0 ? (vb + vc) * (vb + vc) * (n - 1) / den : 2 * (n - 1);
}

static int power_at(double *pw, double effect, double vb, double vc, double n, int normal,
                    double alpha)
{
    double se, df;
    se_with(&se, &df, vb, vc, n, normal);
    return tally__two_sided_power(pw, effect / se, df, alpha);
}

int tally__runs_needed(size_t *out, double effect, double vb, double vc, int normal,
                       double alpha, double power)
{
    if (!(effect > 0) || !(vb + vc > 0) || !isfinite(vb + vc))
        return tally__error(TALLY_EDOMAIN, "runs needed: effect %g with variances %g and %g",
                            effect, vb, vc);
    double pw;
    size_t lo = 1, hi = 2;
    int rc;
    for (;;) {
        rc = power_at(&pw, effect, vb, vc, (double)hi, normal, alpha);
        if (rc)
            return rc;
        if (pw >= power)
            break;
        lo = hi;
        hi *= 2;
        if (hi > TALLY__RUNS_NEEDED_MAX) {
            *out = TALLY__RUNS_NEEDED_MAX + 1;
            return TALLY_OK;
        }
    }
    /* Smallest n in (lo, hi] with enough power: power grows with n. */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        rc = power_at(&pw, effect, vb, vc, (double)mid, normal, alpha);
        if (rc)
            return rc;
        if (pw >= power)
            hi = mid;
        else
            lo = mid;
    }
    *out = hi;
    return TALLY_OK;
}
