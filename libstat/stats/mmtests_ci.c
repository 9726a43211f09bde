/*
 * mmtests' significance rule: the test behind the `*` marks of compare-mmtests.pl.
 *
 * Source read: gormanm/mmtests, bin/lib/MMTests/Compare.pm, sub _significanceTest ("Two sample
 * t-test"), fed by bin/lib/MMTests/Summarise.pm, sub extractSummary, which stores per row the
 * preferred mean (AMean when lower is better, HMean when higher is better), the matching standard
 * deviation (sample SD, or the harmonic SD for HMean; NaN, i.e. n = 1, becomes 0), n, and the
 * significance level (_SignificanceLevel, 0.10 unless a benchmark sets one). The rule:
 *
 *   se = sqrt(sd_a^2 / n_a + sd_b^2 / n_b)          (the unpooled, Welch standard error)
 *   se = 0: significant exactly when the means differ
 *   t  = |mean_a - mean_b| / se,  df = n_a + n_b - 2  (Student's df, not Welch-Satterthwaite)
 *   p  = 2 * pt(t, df, lower.tail = FALSE);  significant when p < level
 *
 * Only rows whose statistic name matches /^.mean/ (Amean, Hmean, ...) carry a mark. The name
 * "mmtests-ci" is kept for compatibility; despite it, the rule is the t-test above, not an
 * overlap of confidence intervals.
 */
#include <math.h>

#include "stats/compare_impl.h"
#include "util/internal.h"

int tally_mmtests_test(double *t, double *df, double *p, double mean_a, double sd_a, size_t na,
                       double mean_b, double sd_b, size_t nb)
{
    if (t == NULL || df == NULL || p == NULL)
        return tally__error(TALLY_EINVAL, "mmtests rule: NULL argument");
    if (na == 0 || nb == 0)
        return tally__error(TALLY_ENODATA, "mmtests rule: an empty side (n = %zu and %zu)", na, nb);
    if (!isfinite(mean_a) || !isfinite(mean_b) || !isfinite(sd_a) || !isfinite(sd_b))
        return tally__error(TALLY_ENONFINITE, "mmtests rule: a mean or SD is not finite");
    if (sd_a < 0 || sd_b < 0)
        return tally__error(TALLY_EINVAL, "mmtests rule: negative standard deviation");

    double dna = (double)na, dnb = (double)nb;
    double degrees = dna + dnb - 2;
    double diff = mean_a - mean_b;
    double se = hypot(sd_a / sqrt(dna), sd_b / sqrt(dnb)); /* no squares to overflow */
    double tv = 0;
    if (se > 0)
        tv = isfinite(diff) ? diff / se : mean_a / se - mean_b / se;
    if (!(se > 0) || !isfinite(tv)) {
        /* mmtests: "If there is a difference in means then there's 0% probability of $delta
         * being described by our model". t would be infinite; it is reported as 0. */
        *t = 0;
        *df = degrees;
        *p = diff != 0 ? 0.0 : 1.0;
        return TALLY_OK;
    }
    if (degrees < 1)
        return tally__error(TALLY_ENODATA, "mmtests rule: n = 1 on both sides leaves no degree "
                                           "of freedom");
    double pv;
    int rc = tally__t_two_sided_p(&pv, tv, degrees);
    if (rc)
        return rc;
    *t = tv;
    *df = degrees;
    *p = pv;
    return TALLY_OK;
}
