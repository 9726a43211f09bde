/*
 * Alpha spending for sequential looks (docs/statistics.md, "Adaptive runs"): the
 * O'Brien-Fleming-type spending function of Lan, K. K. G. & DeMets, D. L. (1983), "Discrete
 * sequential boundaries for clinical trials", Biometrika 70, 659-663:
 *     A(t) = 2 - 2 Phi(z_{1 - alpha/2} / sqrt(t)),  0 < t <= 1,  A(0) = 0,  A(1) = alpha,
 * and the nominal level of each look, the increment A(t_k) - A(t_{k-1}). Testing look k at its
 * increment bounds the overall error by the sum of the increments, alpha (Bonferroni).
 */
#include <math.h>

#include <gsl/gsl_cdf.h>

#include "stats/stats_internal.h"
#include "util/internal.h"

int tally_alpha_spending(double *out, double t, double alpha)
{
    tally__ensure_init();
    if (out == NULL)
        return tally__error(TALLY_EINVAL, "out must not be NULL");
    if (!(alpha > 0 && alpha < 1))
        return tally__error(TALLY_EINVAL, "alpha must lie in (0, 1), not %g", alpha);
    if (!(t >= 0 && t <= 1))
        return tally__error(TALLY_EINVAL, "the information fraction must lie in [0, 1], not %g",
                            t);
    if (t == 0) {
        *out = 0;
        return TALLY_OK;
    }
    if (t == 1) {
        *out = alpha; /* exactly, not through Phi and its inverse */
        return TALLY_OK;
    }
    double z = gsl_cdf_ugaussian_Qinv(alpha / 2);
    *out = 2 * gsl_cdf_ugaussian_Q(z / sqrt(t));
    return TALLY_OK;
}

int tally_alpha_spending_levels(double *out, const double *t, size_t looks, double alpha)
{
    if (out == NULL || t == NULL || looks == 0)
        return tally__error(TALLY_EINVAL, "levels need at least one look");
    if (t[looks - 1] != 1)
        return tally__error(TALLY_EINVAL, "the last look's information fraction must be 1, "
                                          "not %g",
                            t[looks - 1]);
    double spent = 0;
    for (size_t k = 0; k < looks; k++) {
        if (k > 0 && !(t[k] > t[k - 1]))
            return tally__error(TALLY_EINVAL, "information fractions must increase (look %zu: "
                                              "%g after %g)",
                                k + 1, t[k], t[k - 1]);
        double a;
        int rc = tally_alpha_spending(&a, t[k], alpha);
        if (rc != TALLY_OK)
            return rc;
        out[k] = a - spent;
        spent = a;
    }
    return TALLY_OK;
}
