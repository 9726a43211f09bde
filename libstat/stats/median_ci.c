/* Distribution-free confidence interval of the median from order statistics. The number of
 * samples below the population median is Binomial(n, 1/2), so [x_(k), x_(n-k+1)] (1-based)
 * covers the median with probability 1 - 2 P(B <= k - 1), whatever the distribution. This is
 * the interval benchstat reports; tally always takes the symmetric pair. */
#include <math.h>

#include <gsl/gsl_cdf.h>

#include "util/internal.h"
#include "stats/stats_internal.h"

static double coverage(size_t k, size_t n)
{
    return 1.0 - 2.0 * gsl_cdf_binomial_P((unsigned int)(k - 1), 0.5, (unsigned int)n);
}

int tally__median_ci_ranks(size_t *lo, size_t *hi, double *level, size_t n, double confidence)
{
    size_t best, low, high;
    double c;

    tally__ensure_init();
    /* gsl_cdf_binomial_P takes unsigned int trials. */
    if (n < 2 || n > 0xffffffffu)
        return 0;
    c = coverage(1, n);
    if (!(c >= confidence) || !isfinite(c))
        return 0;
    /* Coverage falls as k grows: binary-search the largest k still reaching the level. */
    best = 1;
    low = 2;
    high = (n + 1) / 2;
    while (low <= high) {
        size_t mid = low + (high - low) / 2;
        double cm = coverage(mid, n);
        if (isfinite(cm) && cm >= confidence) {
            best = mid;
            c = cm;
            low = mid + 1;
        } else {
            high = mid - 1;
        }
    }
    *lo = best - 1;
    *hi = n - best;
    *level = c;
    return 1;
}

size_t tally__median_ci_min_n(double confidence)
{
    /* The widest interval [x_(1), x_(n)] covers with 1 - 2^(1-n). */
    size_t n = 2;
    while (n < 1100 && 1.0 - ldexp(1.0, 1 - (int)n) < confidence)
        n++;
    return n;
}
